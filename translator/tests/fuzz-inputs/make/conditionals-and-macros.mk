.RECIPEPREFIX = >
NVCC := nvcc
ifeq ($(RDC),1)
FLAGS := -dc
else
FLAGS := -c
endif
define LINK
$(NVCC) -dlink $(1) -o $(2)
endef

dlink.o: a.o b.o
> $(call LINK,$^,$@)

%.o: %.cu
> $(NVCC) $(FLAGS) $< -o $@

app: a.o b.o dlink.o
> g++ $^ -o $@ $(shell echo -lcudart)
