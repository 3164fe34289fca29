from torch.utils.cpp_extension import load_inline


def build(block, mask, w, ptr):
    src = f"""
__global__ void k(float* p) {{
  float v = p[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, {block // 2});
  v += __shfl_xor_sync({mask}, v, 1);
  p[threadIdx.x] = v;
}}
void run(float* p, cudaStream_t s) {{ k<<<1, {block}, 0, s>>>(p); cudaFree({ptr!r:>{w}}); }}
"""
    one = F'__global__ void q() {{ float b[{block * 2}]; cudaFree(0); }}' rf'{{}} cudaStream_t'
    return load_inline("k", "", [src, one])
