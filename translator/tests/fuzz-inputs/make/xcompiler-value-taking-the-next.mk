# Found by the campaign of 2026-12-06 (seed 1796547969413183446, make only), minimised:
# `-Xcompiler -t` unwrapped to `-t`, which the next run read as nvcc's thread count taking
# `-fgpu-rdc` (from `-Xcompiler -dc`) as its value and dropped both. An -Xcompiler value whose
# last flag would take the next word stays whole (B003).
NVCC= -Xcompiler -t -Xcompiler -dc
p:
