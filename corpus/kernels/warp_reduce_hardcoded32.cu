// Per-warp normalisation written for 32-lane warps, as much CUDA code is: WARP_SIZE is a macro,
// the lane comes from threadIdx.x & 31, the butterfly starts at offset 16 and the warp total is
// broadcast from lane 0 with __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_sum32(float v) {
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

extern "C" int warp_segment_normalize32_f32(const float* in, float* out, float* seg_sums, int n) {
    if (n <= 0) return 0;
    int segs = (n + WARP_SIZE - 1) / WARP_SIZE;
    float *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, segs * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    const int threads = 4 * WARP_SIZE;
    segment_normalize32_kernel<<<(n + threads - 1) / threads, threads>>>(d_in, d_out, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(seg_sums, d_sums, segs * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    return 0;
}
