# NVCC's value ends in /bin/nvcc but starts with an unclosed quote: the translation makes it
# hipcc, and the plan reads who runs $(NVCC) from that value on the first run already (seed 11),
# each assignment cut on its own (two quotes of two lines make no word: seed 12).
NVCC ?= $(-'-x CUDA_HOME)/bin/nvcc
NVCC ?= $(-'-x CUDA_HOME)/bin/nvcc
OBJS := a.o
app: $(OBJS) dlink.o
	$(CXX) $(OBJS) dlink.o -o $@
dlink.o: $(OBJS)
	$(NVCC) -dlink $^ -o $@
%.o: %.cu
	$(NVCC) -dc $< -o $@
