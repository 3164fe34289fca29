# NVCC's value ends in /bin/nvcc but starts with an unclosed quote: the translation makes it
# hipcc, and the plan reads who runs $(NVCC) from that value on the first run already (seed 11).
NVCC ?= $(-'-x CUDA_HOME)/bin/nvcc
OBJS := a.o
app: $(OBJS) dlink.o
	$(CXX) $(OBJS) dlink.o -o $@
dlink.o: $(OBJS)
	$(NVCC) -dlink $^ -o $@
%.o: %.cu
	$(NVCC) -dc $< -o $@
