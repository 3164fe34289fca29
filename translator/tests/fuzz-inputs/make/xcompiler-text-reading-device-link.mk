# Fuzz find of 2026-12-06 (buildfix12): `-Xcompiler ,$(CCFLAGS))` outside a call (`$$^` is text)
# was unwrapped, and CCFLAGS holds `--device-link`: the next run's plan read the compile as a
# device link and added --hip-link. Such a value stays wrapped, with a warning.
CCFLAGS= --device-link
ALL_CCFLAGS=$$^ (addprefix -Xcompiler ,$(CCFLAGS))
k.o:
	$(NVCC) $(ALL_CCFLAGS)-c -rdc=true  -o $@ <
:k.o
	$(NVCC)}$+
