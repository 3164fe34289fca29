// Benchmark driver that limits profiling to the timed region.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <cuda_profiler_api.h>
#include <nvToolsExt.h>

#define CHECK(call)                                                        \
  do {                                                                     \
    cudaError_t err__ = (call);                                            \
    if (err__ != cudaSuccess) {                                            \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__,                   \
              cudaGetErrorString(err__));                                  \
      exit(1);                                                             \
    }                                                                      \
  } while (0)

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int main() {
  const int n = 1 << 24;
  float* d = nullptr;
  CHECK(cudaMalloc(&d, n * sizeof(float)));
  scale<<<(n + 255) / 256, 256>>>(d, 1.0f, n);  // warm-up
  CHECK(cudaDeviceSynchronize());

  CHECK(cudaProfilerStart());
  nvtxRangePushA("timed");
  for (int it = 0; it < 10; ++it) scale<<<(n + 255) / 256, 256>>>(d, 1.001f, n);
  CHECK(cudaDeviceSynchronize());
  nvtxRangePop();
  cudaProfilerStop();

  nvtxEventAttributes_t attr = {0};
  attr.version = NVTX_VERSION;
  nvtxMarkEx(&attr);
  CHECK(cudaFree(d));
  return 0;
}
