# A `;` inside a flag the translation replaces (`code=sm_;80`) is no shell command: the device
# link is stubbed on the first run, not only once the flag is gone (seed 14).
OBJS = a.o
app: $(OBJS) dlink.o
	g# ++ $(OBJS-lcudart ) dlink.o -o app
dlink.o: $(OBJS)
	nvcc -dlink $^ -gencode arch=compute_80,code=sm_;$(patsubst %.cu,%.o,$(SRCS))80 -o $@
%.o: %.cu
	nvcc -dc $< -o $@
