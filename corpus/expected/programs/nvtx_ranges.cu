// Annotates phases with NVTX ranges and brackets the hot loop with the profiler API.
#include <cstdio>
#include <hip/hip_runtime_api.h>
#include <hip/hip_runtime.h>
#include <roctracer/roctx.h>

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 4096;
  float* x;
  roctxRangePushA("alloc");
  hipMalloc(&x, n * sizeof(float));
  hipMemset(x, 0, n * sizeof(float));
  roctxRangePop();
  hipProfilerStart();
  roctxMarkA("loop");
  for (int it = 0; it < 10; ++it) scale<<<n / 256, 256>>>(x, 1.01f, n);
  hipDeviceSynchronize();
  hipProfilerStop();
  hipFree(x);
  std::printf("done\n");
  return 0;
}
