# Found by the campaign of 2026-12-06 (seed 1796547969413183446, make only), minimised: a
# command naming no architecture reads a variable whose `$(addprefix -Xcompiler ,$(C))` the
# translation makes `$(C)`. The plan read the call (a word it cannot judge: no targets), the
# next run the plain reference (targets added). The plan now reads the values as translated.
C = -O2
ALL_CCFLAGS=$(addprefix -Xcompiler ,$(C))
KEPT=$(addprefix -Xcompiler ,$(shell echo -O2))
o:
	$(NVCC) $(ALL_CCFLAGS) o.cu -o o
k:
	$(NVCC) $(KEPT) k.cu -o k
