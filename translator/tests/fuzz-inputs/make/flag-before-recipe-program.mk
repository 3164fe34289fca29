# Found by the campaign of 2026-12-05 (seed 107), minimised: the plan took a recipe's program from
# its words as written (`-rdc=`, make's `-` prefix and `rdc=`), the translation dropped the flag
# and left `g++`, a link of relocatable objects to the next run. The plan reads the program
# among the words as translated.
p:
	-rdc= g++ .o
.RECIPEPREFIX=>
.o:
>nvcc -dc
