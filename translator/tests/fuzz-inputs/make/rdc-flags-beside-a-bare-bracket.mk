# The Makefile the fuzz-inputs README listed as still found (`NVCCFLAGS=( -code ) -rdc=true`),
# rebuilt by hand on 2026-12-05: the plan split the value as translated, `( -fgpu-rdc`, at
# blanks outside brackets, so a bare `(` made one word of it and no relocatable compile; the
# output `() -fgpu-rdc` was one to the next run, which rewrote the link. Only a reference's
# brackets group words now, as make splits them.
NVCCFLAGS=( -code ) -rdc=true
a.o: a.cu
	nvcc $(NVCCFLAGS) -c a.cu -o a.o
app: a.o
	g++ a.o -o app
