# A device link that also compiles (`-dc $<` beside `-dlink`, so no stub) and writes `-o nvcc`:
# the translation names its output hipcc, and so does the plan on the first run, so that the
# nvcc link of the next line is read the same way twice (seed 9).
app: a.o dlink.o
	g++ a.o dlink.o -o app
dlink.o: a.o
	nvcc -dlink--x a.o -o dlink.o
%.o: %.cu
	nvcc -dc $< -o nvcc -dlink a.o -o dlink.o
