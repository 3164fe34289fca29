# Found by the campaign of 2026-12-06 (build files, 600 s): a stray closer inside a removed
# value (`<)$(CXX)$(SRCS:.cu=.o)`) with no reference open before it: the word is removed whole, as
# before, and a second run renames nothing in it (the rule that keeps such a word whole is for a
# closer of an open reference, `$( -code )`).
p:
	$(NVCC) -code <)$(CXX)$(SRCS:.cu=.o)  -rdc=true
q:
	$(NVCC) -code )() -rdc=true
r:
	$(NVCC) -code=){} -rdc=true
