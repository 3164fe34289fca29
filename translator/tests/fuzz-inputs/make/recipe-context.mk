# A prefixed line after an assignment is no recipe to make but a makefile line (here the
# variable `nvcc`): rewritten as a command, it was a recipe without a target. A rule starts
# the recipes again; `.RECIPEPREFIX` sets their prefix.
OBJS = a.o b.o
app: $(OBJS) dlink.o
	g++ $(OBJS) dlink.o -o app -lcudart
dlink = .o: $(OBJS)
	nvcc  = -dlink -arch=sm_80 $(OBJS) -o dlink.o
.RECIPEPREFIX = >
%.o: %.cu
> nvcc -dc $< -o $@
