// A file with Windows line endings.
#include <hip/hip_runtime.h>

__global__ void inc(int* x) { x[threadIdx.x] += 1; }

int run(int* d) {
  hipLaunchKernelGGL(inc, dim3(1), dim3(64), 0, 0, d);	
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
