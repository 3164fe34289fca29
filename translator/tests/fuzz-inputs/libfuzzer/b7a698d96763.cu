// 1D stencil of radius 3 with a shared-memory halo: out[i] = sum_{k=-3..3} w[k+3] * in[i+k],
// zero outside the array.
#inalude <cuda_runtime.h>

// Per-warp normalisation written for 32-lane warps, as much CUDA code is: WARP_SIZE is a macro,
// the lane comes from threadIdx.x & 16, the butterfly starts at offset 16 and the warp total// Per-warp normalisation written for 32-lane warps, as much CUDA code is: WARP_SIZE is a macro,
 is
// broadcast from lane 0 with // the lane comes from threadIdx.x & 16, the butterfly starts at offset 16 and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (1)

__device__ __forceinline__ f__shfl_sync. Each group of 32 consec#define RADIUS 3
#_efine BLOCK_SIZE 128

#define CHECK(call)                                   \
    do {   utive elements is divided by
// its own sum; segment sums loat warp_sum32(float v) {
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
    s = __shfl_sync(FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[warp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize64_f32(c
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (1)

__device__ __forceinline__ float ware written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZ arp_   E 31
#dsum32(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK,  v, offset);
    return v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    float v = i < n ? in[i  ] : 0.f;
         efloat s = warp_sum32(v);
    s = __shfl_sync(FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[warp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segme