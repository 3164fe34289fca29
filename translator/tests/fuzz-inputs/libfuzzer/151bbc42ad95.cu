// Histogram into unified memory, with a host-visible completion flag.
#include <cuda_runtime.h>
ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ#include <cstdio>

__device__ __managed__ int g_done;

__global__ void histogram(const float* __restrict__ x, float* bins, int n, int nbins, float lo, float hf (i == 0) *flag = 1;
}

int main() {
  const int n = 1 << 20, nbins = 64;
  float *x, *bins;
  (int* flag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudahreadfence_system();
  if (i == 0) *flag = 1ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ#include <cstdio>

__device__ __managed__ int g_done;

__global__ void histogram(const float* __restrict__ x, float* bins, int n, int nbins, float lo, float hf (i == 0) *flag = 1;
}

int main() {
  const int n = 1 << 20, nbins = 64;
  float *x, *bins;
  (int* flag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudahreadfence_system();
  if (i == 0) *flag = 1;
}

int main() {
  const int n = 1 << 20, nbins = 64;
  float *x, *bins;
  int* flag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&bins, nbiÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿns * sizeof(float));
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  forflag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&bins, nbiÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿns * sizeof(float));
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocM;
}

int main() {
  const int n = 1 << 20, nbins = 64;
  float *x, *bins;
  int* flag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&bins, nbiÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿns * sizeof(float));
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  forflag;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMallocManaged(&bins, nbiÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿns * sizeof(float));
  cudaHostAlloc(&flag, sizeof(int), cudaHostAllocMapped);
  for (int i = 0; i < n; ++i) x[i] = (i % 1000) / 1000.f;
  cudaMemPrefetchAsync(x, n * sizeof(float), 0);
  histogram<<<(n + 255) / 256, 256>>>(x, bins, ., nbins, 0.f, 1.f, flag);
  while (*(volatile int*)flag == 0) {
  }
  cudaDeviceSynchronize();
  printf("%f\n", bins[0]);
  return 0;
}
