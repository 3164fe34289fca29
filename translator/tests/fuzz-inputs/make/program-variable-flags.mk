# A program variable whose value starts with flags (NVCC reads CUDA_HOME, which starts with
# -dlink), and -L$(CUDA_HOME)/lib64, whose expansion starts with them: the first conversion
# rewrites the link already.
CUDA_HOME ?=-dlink  /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
OBJS := main.o

app: $(OBJS) dlink.o
	$(CXX) $(OBJS) dlink.o -o $@ -L$(CUDA_HOME)/lib64 $(NVCC) -lcudart

dlink.o: $(OBJS)
	$(NVCC) -dlink $^ -o $@

%.o: %.cu
	@$(NVCC) -dc $< -o $@

# The CUDA compiler named as a word of a link (not its program) is hipcc to the plan as well.
app2: $(OBJS)
	$(CXX) $(OBJS) -o $@ $(CUDA_HOME)/bin/nvcc
