# Found by the campaign of 2026-12-06 small hours (seed 1796526768245896903), minimised: `$${`
# was read as a reference (it is a `$` and a brace to make), so -ccbin's value looked unclosed
# and stayed, and the closer after `-Xcompiler $(CCFLAGS)` was written twice. And (2026-12-06,
# seed 1796536696247169833) `$$(addprefix` was read as a call, its words left to the next run.
C= -ccbin =$${(addprefix -Xcompiler $(CCFLAGS))
D= $(NVCC) -Xcompiler $(CCFLAGS)) -O2
E=-ccbin=$$(addprefix -Xcompiler $(CCFLAGS)
F= $$(foreach x,-Xcompiler $(G)) $$(shell -Xcompiler $(G))
k:
