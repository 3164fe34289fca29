CUDADIR = /usr/local/cuda-11.8/
export CUDA_INCLUDE = $(CUDADIR)include
all: a.o b.o host.o
a.o: k.cu
	set -e; nvcc -G -dc -c $< -o $@
b.o: k.cu
	@echo nvcc -G > log; umask 022; nvcc -G -c $< -o $@ -lcuda -lnvrtc -lcudart
host.o: host.cpp
	g++ -I$(CUDADIR)include -c host.cpp -o host.o
%.o: %.cpp
	$(CXX) -c $< -o $@
