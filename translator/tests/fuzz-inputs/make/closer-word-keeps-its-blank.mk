# Found by the campaign of 2026-12-05 (seed 108), minimised: -code took the `)` of `$(NVCC -code )`
# as its value; its removal took the blank before the `)`, which then closed `$(NVCC)`, a
# device compile to the next run (seed 109: `+)`, `<)` too). A removed word that ends in closers
# of an enclosing reference keeps them and the blanks before it, closers alone always (seed
# 110: `$(NVCC) -code )` read `--hip-link)` once the link flag was inserted before it).
:
	$(NVCC -code ) -rdc=true
o:
:
	$(NVCC -code +) -rdc=true
:
	$(NVCC -code <) -rdc=true
o:
	$(NVCC) -code ) -rdc=true
