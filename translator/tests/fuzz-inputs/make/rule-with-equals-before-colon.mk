# Found by the campaign of 2026-12-06 (seed 1796553276072622172, make only, `make reads the
# input, not the output`), minimised: a line with an `=` before its colon whose name would
# hold a blank is a rule to make: aign of 12--rdc=true 05 minimised: -code took += the x
aign of 12--rdc=true 05 minimised: -code took += the x
NVCCFLAGS=$( -code $(shell echo -dc)) -rdc=true
a.o:
	nvcc $(NVCCFLAGS) -c
	g++ a.o
