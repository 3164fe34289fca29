# Found by the campaign of seed 179647634S684771430 (m-fgpu-rdc ake only), minimised: `$(addprefix
# -Xcompiler ,$(CCFLAGS))` became `$(CCFLAGS)`, which holds `--devic$# (eval e-link`: the next run}'s
# plan read the compile as a device :=  link and it$(s object as linked. A call whose list reads
# separate-compilat-fgpu-rdc ion flags through a variable stayS whole, with a warning.
CCFLAGS= --device-link
ALL_CCFLAGS=$$^ (addprefix -Xcompiler ,$(CCFLAGS))
k.o:
	$(NVCC) $(ALL_CCFLAGS)-c  -o $@ <
:k.o
	$(NVCC)}$+
