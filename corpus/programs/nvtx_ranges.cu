// Annotates phases with NVTX ranges and brackets the hot loop with the profiler API.
#include <cstdio>
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>
#include <nvToolsExt.h>

__global__ void scale(float* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 4096;
  float* x;
  nvtxRangePushA("alloc");
  cudaMalloc(&x, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  nvtxRangePop();
  cudaProfilerStart();
  nvtxMarkA("loop");
  for (int it = 0; it < 10; ++it) scale<<<n / 256, 256>>>(x, 1.01f, n);
  cudaDeviceSynchronize();
  cudaProfilerStop();
  cudaFree(x);
  std::printf("done\n");
  return 0;
}
