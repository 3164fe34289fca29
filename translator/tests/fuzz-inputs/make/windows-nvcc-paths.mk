# Windows paths to nvcc: with blanks and no quotes (one program, not five words), quoted, with
# backslashes, with .exe, and a drive's colon in a recipe's first word; each becomes hipcc once.
NVCC = C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc
NVCC_EXE := "C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc.exe"
NVCC_BS ?= C:\Program Files\NVIDIA GPU Computing Toolkit\CUDA\v11.8\bin\nvcc.exe # here
NVCC_SHORT = D:/CUDA/v12.1/bin/NVCC.EXE
TOOLS = C:/Program Files/app/bin/tool -lcudart
OBJS := a.o kernel.o
app: $(OBJS) dlink.o
	$(CXX) $(OBJS) dlink.o -o $@
dlink.o: $(OBJS)
	$(NVCC) -dlink $^ -o $@
%.o: %.cu
	C:/CUDA/bin/nvcc.exe -dc $< -o $@
kernel.o: kernel.cu
	C:/Program Files/NVIDIA GPU Computing Toolkit/CUDA/v11.8/bin/nvcc -c $< -o $@
