include ../common/make.config
CC := $(CUDA_DIR)/bin/nvcc
FLAGS = -O2 $(CUDA_GENCODE_FLAGS)
release:
	$(CC) $(SRC) -o $(EXE) -I$(INCLUDE)
k.o: k.cu
	@$(CC) $(FLAGS) -c $< -o $@ && echo done
deps:
	$(CC) -M k.cu > k.d
app: a.o k.o
	nvcc -rdc=true $^ -o $@
%.o: %.c
	nvcc -c $<
