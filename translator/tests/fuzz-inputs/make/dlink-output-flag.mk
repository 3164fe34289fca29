# A device link whose output looks like a flag (`-o -dc`, `-o -lcudart`) is left as it is (B013
# warning): mapping the flag would change its output and what the next run makes of the line. A
# link that has -fgpu-rdc among its flags does not read an object named `-dc`.
app: a.o dlink.o
	$(CXX) $^ -o $@ -fgpu-rdc -lcudart

dlink.o: a.o
	nvcc -dlink a.o -o -dc dlink.o

dlink2.o: a.o
	nvcc -dlink a.o -o -lcudart dlink2.o
