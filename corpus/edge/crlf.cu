// A file with Windows line endings.
#include <cuda_runtime.h>

__global__ void inc(int* x) { x[threadIdx.x] += 1; }

int run(int* d) {
  inc<<<1, 64>>>(d);	
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
