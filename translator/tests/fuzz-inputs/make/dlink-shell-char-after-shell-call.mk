# A `;` in a flag the translation replaces, after a make call glued into the flag's value
# (`arch=$(shell echo -dc)compute_80,code=sm_;80`): the device link is stubbed on the first run,
# as the main pass reads the call and the flag as one word (seed 1796489657819732691).
OBJS = a.o
app: $(OBJS) dlink.o
	g++ $(OBJS) dlink.o -o app
dlink.o: $(OBJS)
	nvcc -dlink $^ -gencode arch=$(shell echo -dc)compute_80,code=sm_;80 -o $@
%.o: %.cu
	nvcc -dc $< -o $@
