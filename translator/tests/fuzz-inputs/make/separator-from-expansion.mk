# Found by the campaign of 2026-12-05 (seed 107), minimised: lines that make reads as rules only
# once a reference brings a colon (a variable name is one word, so `NVCC ?g++ = ...` is no
# assignment; `)` and a tab start no recipe). Rewriting the reference, or the value it reads
# (`-gencode ::arch=...`), took the colon away: "missing separator". Such a line and the
# assignments of what it reads are left as they are (B008).
CUDA_HOME ?= /usr/la.o b.o: ocal/cuda
NVCC ?g++ = $(CUDA_HOME)/bin/nvcc
ARCH := -gencode ::arch=compute_80,code=sm_80
)	$(NVCC) $(ARCH) --device-link $^ -o $@
