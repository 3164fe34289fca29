# Compilers run behind environment assignments, `env` and utility commands (gpu-burn's
# `PATH=... $(NVCC) ... -ptx`), and CUDA install variables known by their value, whatever
# their names (`CUDA = /usr/local/cuda-8.0`; `INC` and `LIBDIR` built on it).
CUDA ?= /opt/cuda
INC = $(CUDA)/include
LIBDIR := $(INC)/../lib64 $(CUDA)/lib
NVCC = $(CUDA)/bin/nvcc
app: a.o b.o dl.o
	PATH=$(CUDA)/bin:$$PATH g++ a.o b.o dl.o -o app -L$(LIBDIR) -lcudart
a.o: a.cu
	X=1; nvcc -dc a.cu -o a.o
b.o: b.cu
	@env -u CUDA_PATH LC_ALL=C nvcc -rdc=true -c b.cu -o b.o
dl.o: a.o b.o
	CCACHE=0 $(NVCC) -dlink a.o b.o -o dl.o
k.ptx: k.cu
	mkdir -p obj && cd obj && PATH=$${PATH}:. $(NVCC) -arch=compute_70 -ptx ../$< -o $@
c.o: c.cpp
	env
	-X= g++ -I$(INC) -c c.cpp
	$(Q)A=b $(CXX) -isystem $(CUDA)/include -c c.cpp
run: app
	CUDA_VISIBLE_DEVICES=0 LD_LIBRARY_PATH=$(CUDA)/lib64 ./app -G 3
