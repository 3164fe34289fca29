# -ccbin whose value opens a make reference that closes after a blank: the flag stays whole.
NVCC := nvcc -ccbin g$(addprefix -Xcompiler ,$(CCFLAGS))
k.o: k.cu
	$(NVCC) -c k.cu -o k.o
