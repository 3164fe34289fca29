// A reduction from the ROCm 5 era: the wavefront width is chosen with __HIP_PLATFORM_HCC__,
// which ROCm 6.0 removed, so with HIP 6 and later the 32-lane branch is compiled for AMD.
#include <cuda_runtime.h>

#ifdef __HIP_PLATFORM_HCC__
#define WAVE_SIZE 64
#else
#define WAVE_SIZE 32
#endif

#if defined(__HIP_PLATFORM_HCC__) || defined(__HIP_PLATFORM_AMD__)
#define HAS_HIP 1  // still right: the second test holds from HIP 5 on
#endif

// One wavefront per row: lane 0 writes the row's sum.
__global__ void row_sums(const float* in, float* out, int cols) {
  float v = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) v += in[blockIdx.x * cols + c];
  for (int o = WAVE_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x == 0) out[blockIdx.x] = v;
}
