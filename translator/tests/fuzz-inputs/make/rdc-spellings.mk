NVCC ?= nvcc
OBJS := main.o kernel.o
ARCH := -gencode arch=compute_80,code=sm_80

app: $(OBJS) gpu.o
	$(CXX) $^ -o $@ -L/usr/local/cuda/lib64 -lcudart

gpu.o: $(OBJS)
	$(NVCC) $(ARCH) --device-link $^ -o $@

main.o: main.cu
	$(NVCC) $(ARCH) -rdc true -c $< -o $@

kernel.o: kernel.cu
	$(NVCC) $(ARCH) --relocatable-device-code=true \
	  -c $< -o $@

a-dc.o b.o: "-dc.cu"
	cp '-dc' a-dc.o && echo -dc > b.o

clean:
	rm -f app $(OBJS) gpu.o
