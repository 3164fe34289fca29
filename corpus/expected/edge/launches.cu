// Launch shapes that trip naive translators.
#include <hip/hip_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

template <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::fill<float>), dim3(1), dim3(32), 0, 0, p, v)

void run(float* p, int n, hipStream_t s) {
  const char* msg = "launch with <<<grid, block>>>";  // and <<< in a comment
  hipLaunchKernelGGL(HIP_KERNEL_NAME(twice<float, (sizeof(float) > 4)>), dim3((n + 255) / 256), dim3(256), 0, 0, p);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::fill<float>), dim3(1), dim3(32), 0, s, p, 1.0f);
  auto go = [&](int blocks) { hipLaunchKernelGGL(HIP_KERNEL_NAME(twice<float, true>), dim3(blocks), dim3(256), 0, s, p); };
  go(2);
  LAUNCH_FILL(p, 2.0f);
  (void)msg;
}
