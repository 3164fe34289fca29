# Found by buildfix13's campaign of 2026-12-06 (seed 1796575734202291215), minimised: a g++
# link of relocatable device code becomes `hipcc -fgpu-rdc --hip-link`, which the next run reads
# as hipcc's line. Its `-arch=` whose value starts with a substitution reference was read as a
# host flag in the first run (left) and as nvcc's in the second (the targets).
OBJS = a.o
app: $(OBJS)
	g++ $(OBJS) -arch=$(SRCS:.cu=.o)sm_80 -o app
%.o: %.cu
	nvcc -dc $< -o $@
