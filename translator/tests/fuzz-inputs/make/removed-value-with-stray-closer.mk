# Still found by the campaigns of 2026-12-05 (seeds 110 and 111), minimised: the removal of
# `-code <)` took the blank before `<`, so the stray `)` met the `--hip-link` the link gets
# (`--hip-link)`) and the next run added it again. A removed word keeps the closers it does not
# open, with the blank before them.
app: a.o
	$(NVCC) -code <) -rdc=true
b: b.o
	$(NVCC) -code é) -rdc=true b.o -o b
c: c.o
	$(NVCC) -code=sm_80) -rdc=true c.o
