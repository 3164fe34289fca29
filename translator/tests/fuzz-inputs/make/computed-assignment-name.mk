# Found by the campaign of seed 1796477525151265654 (make only, `make reads the input, not the
# output`), minimised: the next assignment's name is computed (`C` `UDA_HOME`: CUDA_HOME),
# and its value brings the colon that makes the line after it a rule. Unseen, that line's
# `$(CUDA_HOME)/bin/nvcc` became hipcc: a missing separator. A line read only once expanded
# that reads a variable no assignment names as written stays, with such assignments (B008).
C$(SRCS:.cu=.o)UDA_HOME ?= /usr/la.o b.o: ocal/cuda
NVCC ?g++ = $(CUDA_HOME)/bin/nvcc
ARCH := -gencode ::arch=compute_80,code=sm_80
)	$(NVCC) $(ARCH) --device-link $^ -o $@
