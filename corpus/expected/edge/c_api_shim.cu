// A C-API header's extern "C" wrapper (R22-2), a project macro named like a CUDA constant
// (R22-1), a ROCm shim of a shuffle (R22-b) and per-function full masks (R22-c).
#include <hip/hip_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUDA_ERROR_NOT_READY(x) ((x) == hipErrorNotReady)

#if defined(__HIP_PLATFORM_AMD__)
#define __shfl_up_sync(mask, v, d) __shfl_up(v, d)
#endif

int driver_ok(void) { return hipInit(0) == hipSuccess; }
int busy(hipStream_t s) { return CUDA_ERROR_NOT_READY(hipStreamQuery(s)); }

#ifdef __cplusplus
}  /* extern "C" */
#endif

__device__ float down(float v) {
  const unsigned mask = 0xffffffff;
  return v + __shfl_down(v, 1);
}

__device__ float xor1(float v) {
  const unsigned mask = 0xffffffff;
  return v + __shfl_xor(v, 1);
}

__device__ float up(float v, unsigned lanes) { return __shfl_up_sync(lanes, v, 1); }
