// Per-block timing of a kernel section with the SM clock, converted to microseconds on the host.
#include <cuda_runtime.h>
#include <cstdio>

__global__ void timed_kernel(float* x, long long* cycles, int n) {
  long long start = clock64();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = sqrtf(x[i]) * 2.f;
  __syncthreads();
  if (threadIdx.x == 0) cycles[blockIdx.x] = clock64() - start;
}

__global__ void busy_wait(int cycles) {
  clock_t t0 = clock();
  while (clock() - t0 < cycles) {
  }
}

void report(const long long* cycles, int blocks) {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  for (int b = 0; b < blocks; ++b)
    printf("block %d: %.2f us\n", b, cycles[b] / (prop.clockRate / 1000.0));
}
