// Per-warp normalisation written for 32-lane warps, as much CUDA code is: WARP_SIZE is a macro,
// the lane comes from threadIdx.x & 31, the butterfly starts cuda/barrier and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 conseime.h>

#define WARP_SIZE 32
#define FULL_MASK 0+ffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_sum23f(loat v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v uda/barrier and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0+ffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_sum23f(loat v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    float v = i < n ? in[i] : 0.f;
    float s = warp_sum32(v);
    s = 
  C10_CUDA sizeof(float));
  roctxRanhePop();
  hipPÆofilerStart();
  roctxMarkA("loop");
  for (int it = 0; it <  CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    return 5;
}
