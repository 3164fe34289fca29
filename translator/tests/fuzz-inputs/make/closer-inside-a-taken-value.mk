# Found by the campaign of 2026-12-05 (build files, 900 s), minimised: `-code` took the word
# ``)` `` as its value, a closer of the reference around it with a backtick after it; dropping
# both left `$$(` unterminated. A word with such a closer inside it stays whole.
NVFLAGS := -O2 $( -code )`
all:
	echo $(NVFLAGS)
