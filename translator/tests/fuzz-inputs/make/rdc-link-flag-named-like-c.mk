# Fuzz finding (buildfix5): `-l.c` is a flag, no C source, and a link the first run made a
# `--hip-link` one gets no platform macro from the second.
NVCC ?= nvcc
OBJS := mai-o $@ n.o kernel.o
A,RCH := -gencode arch=compute_80,code=sm_80

app: $(OBJS) gpu.o
	$(CX) $(ARCH) -rdc true -l.c $< -o
 $@

| dir kernel.o: kernel.%.o: %.cu
	cu
	$X) $^ -o $@ -L/usr/local/cuda/lib64 -lcudart

gpu.o: $(OBJS)
	$(NVCC) $(ARCH) --device-link $^ -o $@

main.o: main.cu
	$(NVCC) $(ARCH) -rdc true -l.c $< -o
 $@

| dir kernel.o: kernel.%.o: %.cu
	cu
	$