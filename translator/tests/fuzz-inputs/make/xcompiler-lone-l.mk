# Fuzz finding (buildfix5): `-Xcompiler -l` then `cudart` on the next line: unwrapped, the next
# run read the pair `-l cudart` and dropped it; the -Xcompiler stays.
# -Xcompiler hands its value to the host compiler: what it unwraps is mapped as a flag of the
# same list, so that a second conversion finds nothing left to change.
NVCCFLAGS := -O3 -Xcompiler -l\
cudart -Xcompiler -dc -Xcompiler -Wall,-lcublas
HOSTFLAGS := -Xcompiler -$(CUDA_PATH)/bin/nvcc -Xcompiler -$(CUDA 1 2)/bin/nvcc
# A value that ends in a flag whose value follows it stays whole (B003): unwrapped, the next
# run would read the pair; nvcc among the values becomes hipcc at once.
GENFLAGS := -Xcompiler -Wall,-gencode arch=compute_80,code=sm_80 -Xcompiler=-dc,nvcc

app: app.cu
	nvcc $(NVCCFLAGS) -Xcompiler=-rdc=true -o $@ $<
