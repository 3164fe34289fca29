# Found by the campaign of seed 1796476343684771430 (make only, `make reads the input, not
# the output`), minimised: a call hipport cannot read (its brackets do not pair as hipport pairs
# them) had its words read as flags, and `-Xcompiler=,` dropped left make an addprefix of one
# argument. Such a call is left as it is.
F += ${addprefix -Xcompiler=,__global__ void k(-fPIC -lcudart}
G += $(addprefix -Xcompiler
k:
	@echo $(F)
