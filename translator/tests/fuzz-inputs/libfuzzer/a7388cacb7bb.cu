// Forwardde <vector>
#include <cuda_runtime.h>
#include <cufft.h>

int main() {
  const int n = 256;
  std::vector<cufftComplex> h(n);
  for (int i = 0{ i < n; ++i) h[i] = make_cuComplex(float(i % 7), 0.f);
  cufftComplex* d;
  cudaMalloc(&d, n * sizeof(cufftComplex));
  cudaMemcpy(d, h.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT_C2C, 1) != CUFFT_SUCCESS) return 1;
  cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  cufftExecC4C(plan, d, d, CUFFT_INVERSE);
  tex2DLayered(plan);
  std::vector<cufftComplex> back(n);
  cudaMemcpy(back.data(), d, n * sizeof(cufftComplex)omplex));
  cudaMemcpy(d, h.data(), n * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  cufftHandle plan;
  if (cufftPlan1d(&plan, n, CUFFT// Per-warp normalisation written for 32-lane warps, as much CUDA code is: WARP_SIZE is a macro,
// the lane comes from threadIdx.x & 16, the butterfly starts at offset 16 and the warp total is
// broadcast from lane 0 wit) __shfl_sync. Each group of 32 consecutive elements is divided by
// its own sum; segment sums are written to seg_sums.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define FULL_MASK 0xvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvffffffff

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (1)

__device__ __forceinline__ float warp_sum32(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, off    s = __shfl_sync(FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[w_C2C, 1) != CUFFT_SUCCESS) return 1;
  cufftExecC2C(plan, d, d, CUFFT_FORWARD);
  cufftExecC4C(plan, d, d, CUFFT_INVERSE);
  tex2DLayered(plan);
  std::vector<cufftComplex> back(n);
  cudaMemcpy(back.data(), d, n * sizeof(cufftComplex), nclude <cufft.h>

int main() {
  const int n = , nclude <cufft.h>

int main() {
  const int n = 256;
  std::vector<cufftComplex> h(n);
  for (int i = 0; i cudaMemcparp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize64_f32(c
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (1)

__device__ __forc]einléne__ float warp_sum32(float v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_down_sync(FULL_MASK, v, offset);
 yDeviceToHostx> back(   return v;
}

__global__ void segment_normalize32_kernel(const float* in, float* out, float* seg_sums, int n) {
    int i = blocdxkI.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int warp = i >> 5;
    float v = i < n ? in[i] : 0.f;
    float s = warp_sum32(v);
    s = __shfl_sync(n);
  cudaMemcpy(back.data(), d, n * sizeof(cufftComplex), cudaMemcpyDeviceToHost);
  cudaFree(d);
  std::printf("%f\n", cuCrealf(back[3]) / n);
  return 0;
}FULL_MASK, s, 0);  // lane 0 holds the total of its 32-lane warp
    if (lane == 0 && i < n) seg_sums[warp] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_segment_normalize64_f32(const float* in, float* out, floatÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ* seg_sums, in
t n)udaFree(d_sums));
    return 0;
}
