// Histogram into unified memory, with a host-visible completion flag.
#include <cuda_runtime.h>
#include <cstdio>

__device__ __managed__ int g_done;

__global__ void histogram(const float* __restrict__ x, float* bins, int n, int nbins, float lo, float hi,
                          volatile int* flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = (int)((x[i] - lo) / (hi - lo) * nbins);
    b = min(max(b, 0), nbins - 1);
    atomicAdd(&bins[b], 1.0f);
  }
  __threadfence_system();
  if (i == 0) *flag = 1;
}

// Blocks count themselves done with a system-scope atomic on a counter the host polls.
__global__ void count_blocks(unsigned* done) {
  __syncthreads();
  if (threadIdx.x == 0) atomicAdd_system(done, 1u);
}

int main() {
  const int n = 1 << 20, nbins = 64;
  float *x, *bins;
  int* flag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&bins, nbins * sizeof(float));
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  for (int i = 0; i < n; ++i) x[i] = (i % 1000) / 1000.f;
  cudaMemPrefetchAsync(x, n * sizeof(float), 0);
  histogram<<<(n + 255) / 256, 256>>>(x, bins, n, nbins, 0.f, 1.f, flag);
  while (*(volatile int*)flag == 0) {
  }
  cudaDeviceSynchronize();
  printf("%f\n", bins[0]);
  return 0;
}
