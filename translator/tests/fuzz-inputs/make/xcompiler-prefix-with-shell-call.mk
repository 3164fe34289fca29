# cuda-samples' idioms: host flags prefixed with -Xcompiler by make, nvcc's --threads.
NVCC := nvcc -ccbin g++
CCFLAGS := -W-dc all
ALL_CCFLAGS := -m64
ALL_CCFLAGS += $(addprefix -Xcompiler ,$(CCFLAGS))
ALL_CCFLAGS += ${addprefix -Xcompiler=,-fPIC -lcudart}
ALL_CCFLAGS += $(addprefix -Xptxas ,-v) $(addprefix -gencode ,	$(ARCHS))
ALL_CCFLAGS += $(addprefix -Xcompiler ,$(addprefix -Xcompiler ,-O2)) $(addprefix -I,$(DIRS))
ALL_CCFLAGS += $(addprefix -Xcompiler ,-Wextra \
  -O2) --threads 0
ALL_CCFLAGS += $(addprefix -Xcompiler ,$(SRCS:.cu=.o)) $(addprefix -Xcompiler $(shell echo -dc),$$(X) k.cu)
ALL_LDFLAGS := $(ALL_CCFLAGS) $(addprefix -Xlinker ,$(LDFLAGS))

k.o: k.cu
	$(NVCC) $(ALL_CCFLAGS) --o $@ -threads=2 -t 4 -o $@ -c $<
k: k.o
	$(NVCC) $(ALL_LDFLAGS) -o $@ $+
