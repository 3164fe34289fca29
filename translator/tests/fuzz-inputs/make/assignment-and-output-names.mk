# Found by the build-file campaign (seed 1). make reads a flag alone on a line as an assignment
# (the variable `--relocatable-device-code` set to `true`): mapping it to `-fgpu-rdc` broke the
# Makefile (missing separator). A device link writing `-o -dc` had its stub's output read as a
# flag on the next run.
--relocatable-device-code=true # 
-rdc=true
NVCC ?= nvcc
OBJS := a.o b.o

app: $(OBJS) dlink.o
	$(CXX) $^ -o $@ -lcudart

dlink.o: $(OBJS)
	nvcc -dlink $(OBJS) -o -dc dlink.o

%.o: %.cu
	echo -dc && nvcc -dc $< -o $@
