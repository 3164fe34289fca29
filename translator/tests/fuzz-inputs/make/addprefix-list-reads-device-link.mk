# Found by the campaign of seed 1796476343684771430 (make only), minimised: `$(addprefix
# -Xcompiler ,$(CCFLAGS))` became `$(CCFLAGS)`, which holds `--device-link`: the next run's
# plan read the compile as a device link and its object as linked. A call whose list reads
# separate-compilation flags through a variable stays whole, with a warning.
CCFLAGS= --device-link
ALL_CCFLAGS=$(addprefix -Xcompiler ,$(CCFLAGS))
k.o:
	$(NVCC) $(ALL_CCFLAGS) -o $@ <
:k.o
	$(NVCC) $+
