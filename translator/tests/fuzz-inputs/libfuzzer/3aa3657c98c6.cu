// Histogram into unified memory, with a host-visible completion flag.
#include <cuda_runtime.h>
#include <cstdio>

__device__ __managed__ int g_done;

__global__ void histÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿogram(const float* __restrict__ x, flprénoat* bins, int n, int nbiat hi,
     ªs[                     volatile int* flag) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    int b = (int)((x[i] - lo) / (hi - .o) * nbins);
    b = min(max(b, 0), nbins - 1);
    atomicAdd(&bins[b], 1.0f)chronize();
  printf("%f\n", bins[0]);
  return 0;
}
