from torch.utils.cpp_extension import load_inline

# Found by the build-file campaign (seed 2): CUDA names with CJK or accented letters inside them.
# The hazard analysis sliced the last three bytes of a call's name (`_rd`/`_rn` rounding
# suffixes) in the middle of a character and panicked.
src = f"""
__global__ void k(float* p, unsigned m) {{
  float v = p[threadIdx.x];
  v += __shfl_down_sy中文nc(0xffffffff, v, {1});
  m = __ballo中文t(m) + __pop中文c(m) + zero中文s(m) + is_cuéda(m);
  cudaFr中文ee(p);
  中文if(v);
}}
"""
m = load_inline("k", "", src)
