OBJS = a.o kernel.o

app: $(OBJS) dlink.o
	g++ $(OBJS) dlink.o -o app -lcudart

dlink.o: $(OBJS)
	nvcc -dlink $(OBJS) -o "dlink$(SRCS:.cu=.o).o"

%.o: %.cu
	nvcc -dc $< -o $@
