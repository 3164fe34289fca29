// The portable counterpart of warp_reduce_hardcoded32.cu: segments of 32 elements are normalised
// by their sum using shuffles whose width is passed explicitly (32 <= warpSize on every target),
// so a 64-lane wavefront holds two independent 32-wide segments.
#include <cuda_runtime.h>

#define SEG 32

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float segment_sum(float v) {
    for (int offset = SEG / 2; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset, SEG);
    return v;
}

__global__ void segment_normalize_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % SEG;
    float v = i < n ? in[i] : 0.f;
    float s = segment_sum(v);
    s = __shfl_sync(0xffffffff, s, 0, SEG);  // lane 0 of this 32-wide segment
    if (lane == 0 && i < n) seg_sums[i / SEG] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize_f32(const float* in, float* out, float* seg_sums, int n) {
    if (n <= 0) return 0;
    int segs = (n + SEG - 1) / SEG;
    float *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, segs * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    const int threads = 128;
    segment_normalize_kernel<<<(n + threads - 1) / threads, threads>>>(d_in, d_out, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(seg_sums, d_sums, segs * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    return 0;
}
