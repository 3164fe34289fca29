# Found by the campaign of 2026-12-05 (seed 104) on a first fix of unterminated references, which
# dropped the words of `${` from the line: `C:/ /bin/nvcc` then read as one Windows path to
# nvcc across it (hipcc), which the plan, reading the value whole, did not see as nvcc. The
# words of such a reference stay words of the line, left as they are.
NVCC= C:/ ${ /bin/nvcc
o:)
	$(NVCC) -dlink $^ -o $
