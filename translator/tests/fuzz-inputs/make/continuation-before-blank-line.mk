# Found by the campaign of 2026-12-05 (seed 102), minimised: a continuation followed by a blank
# line ends FLAGS; its value was read with the backslash glued to the last flag (-dc\ no
# flag, so no relocatable compile), while the next run read -fgpu-rdc -c\ as -fgpu-rdc
# alone: a link, given --hip-link. The backslash is no part of the value now.
FLAGS= -dc\

o:
	$(NVCC) $(FLAGS)
x:o
	g++ $^
