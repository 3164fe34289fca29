# Found by the campaign of 2026-12-06 morning (seed 1796538235920679964), minimised: a compile
# whose architecture loop is a word of its own (`$(foreach ,,-code)`) was not seen to name
# targets, so the link of its relocatable device code got them only on the next run.
p:
	g++ .o
.o:
	nvcc -dc $(foreach ,,-code)
