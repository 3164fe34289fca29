OBJS = a.o b.o

app: $(OBJS) dlink.o
	g++ $(OBJS) dlink.o -o app -lcudart

dlink.o: $(OBJS)
	nvcc -dlink $(OBJS) -o dlink.o

%.o: %.cu
	nvcc -dc $< -o $@
