# Found by the campaign of 2026-12-05 (seed 108), minimised: removing `-cudart` with the blank
# before it left a backslash at the end of its line, which made it a continuation that joined
# the next line to the recipe. A blank after a backslash stays.
p:
	\ -cudart
k=
	nvcc  = -dlink -arch=sm_ -__syncwar = p()o dlink.o
