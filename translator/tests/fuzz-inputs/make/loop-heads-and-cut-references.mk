# A loop whose variable and list hold an architecture flag is left as written: mapped, the
# flag would make its head another loop, which the next run replaces whole.
SMS ?= 70 80
GENCODE_FLAGS := $(foreach -gencode arch=compute_80,code=sm_80 sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))
# A reference cut at its blanks is read as the translation reads the line: `E)/bin/nvcc` is no
# compiler, and the plan does not see one where the line has none.
CUDA_HOME ?=-dlink  /usr/local/cuda
NVCC ?= $(CUDA_HOME)/bin/nvcc
NVCC ?= $(CUDA_HOMa.o b.o: E)/bin/nvcc
NVCC ?= $(CUDA_HOME)/bin/nvcg
app: a.o dlink.o
	$(CXX) a.o dlink.o -o $@ -L$(CUDA_HOME)/lib64 $(NVCC) -lcudart
dlink.o: a.o
	$(NVCC) $(GENCODE_FLAGS) -dlink $^ -o $@
%.o: %.cu
	@$(NVCC) -dc $< -o $@
# `:/bin/nvcc` is a rule's colon and a prerequisite, not the compiler (seed 12).
HOSTFLAGS :/bin/nvcc -Xcompiler -lcudart
