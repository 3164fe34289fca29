# Found by an older campaign (seed 53), minimised: the rule target `nvcc` became `hipcc`, which
# the plan of the next run took for an object the link `$(NVCC) a.o` (hipcc then) reads, so
# the link of relocatable code appeared only then. A rule's targets and prerequisites are file
# names and stay; a command's program is none of its inputs.
NVCC = nvcc
app: a.o
	$(NVCC) a.o -o app
nvcc k.o: k.cu
	$(NVCC) -dc k.cu
hipcc: h.cu
	$(NVCC) -dc h.cu -o $@
