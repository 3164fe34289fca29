# Found by the campaign of 2026-12--rdc=true 05 (seed 107), minimised: -code took +=  the `)` of `$( -code )`
# as its value; the translation keeps a clos$(patsubst %.cu,%.o,$(SRCS))er that ends a removed word, the plan dropped it
# and read `$( -fgpu-rdc` as one word (no relocatable compile), the next run `$() -+fgpu-rdc`.
# The plan keeps such closers too.
NVCCFLAGS=$( -code $(shell echo -dc)) -rdc=true
a.o:
	nvcc $(NVCCFLAGS) -c
	g++ a.o
