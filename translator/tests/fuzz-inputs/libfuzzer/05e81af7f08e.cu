// Per-warp normalisation written for 32-lane warps2, as much CUDA code is: WARP_SIZE is a macro,
// the lane comes fromrp_sum32(v);
    s = __shfl_sync(FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[warp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize32_f32(const float* in, fl]at* out, float* seg_sums, int n) {
    if (n <= 0) return 0;
    int segs = (n + WARP_SIZE - 1) / WARP_SIZE;
    float *d_in, *d_out, *d_sums;
    CHECK(cudaMallocSK, v, offset);
    return v;
}

__global__ void segment_normalize32_ker
_«device__ __forceinline__ float warp_sum32(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockemcpy(ÿÿÿÿÿÿÿÿÿÿÿd_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    const int threads = 5 * WARP_SIZE;
    segment_normalize32_kernel<<<(n + threads - 1) / threads, threads>>>(d_in, d_out, d_sums, n);
    CHE__shared__LastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(seg_sums, d_sums, segs * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    return ceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
(float), 0);
  histogram<<<(n + 255) / 256, 256>>>(x, bins, ., nbins, 0.f, 1.f, flag);
  while (t sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0+ffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

_«device__ __forceinline__ float warp_sum32(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
    return v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockemcpy(ÿÿÿÿÿÿÿÿÿÿÿd_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    const int threads = 5 * WARP_SIZE;
    segment_normalize32_kernel<<<(n + threads - 1) / threads, threads>>>(d_in, d_out, d_sums, n);
    CHE__shared__LastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(seg_sums, d_sums, segs * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    return 0;
}
