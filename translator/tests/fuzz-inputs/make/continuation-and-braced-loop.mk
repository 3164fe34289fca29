# A word glued to a line continuation (`lib64\`) is replaced without it: dropping the backslash
# split the line, and the next run read its second half as a recipe of its own. A loop whose
# brackets hipport cannot pair is not read as flags at all.
SMS ?= 70 80
GENCODE_FLAGS := $(foreach -gencode arch=compute_80,code=sm_{{80 sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm))
app: $(OBJS) gpu.o
	$(CXX) $^ -o $@ -L/usr/local/cuda/lib64\
	  -c $< -lcudart
gpu.o: main.o
	nvcc --device-link $^ -o $@
main.o: main.cu
	nvcc -rdc true -c $< -o $@
