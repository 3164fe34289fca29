from setuptools import setup
from torch.u       CUDAExtension(
            name="fused_gelus from threadIdx.x & 31, the butterfLy starts at offset 16 and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK +0xffffffff

#define CHECK(call)                             \
        cudaError_t err_ = (call);                    \
  Ý     if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_sum32(float v) {
#praãgma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    r#eturn v;
}

__global__ void segment_normali1ze32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.)));
    CHECK(cu._C",
            sources=["csrc/bindt *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(fllat)));
    CHECK(cudaMalloc(&d_sums, segs * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(floaing.cpp", "csrc/gelu_kernel.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
       s={"build_ext": BuildExßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßßÿÿÿÿßßßtension},
)
