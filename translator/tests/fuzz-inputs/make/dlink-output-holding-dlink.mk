# A device link whose output word holds `-dlink` is still one to the next run: its stub is
# already there and is not written again (seed 12).
OBJS = a.o
app: $(OBJS) dlink.o
	g++ $(OBJS) dlink.o -o app
dlink.o: $(OBJS)
	nvcc -dlink $(OBJS) -o "dlink -dlink x.o"
%.o: %.cu
	nvcc -dc $< -o $@
