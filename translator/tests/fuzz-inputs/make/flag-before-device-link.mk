# Found by the campaign of 2026-12-05 (seed 108) on the plan that reads a recipe's program
# among its words as translated: a device link after a flag the translation drops was stubbed
# from its program on, the flag left to the next run. The stub now starts at that flag.
o:
	-lcudart $(NVCC) -dlink
