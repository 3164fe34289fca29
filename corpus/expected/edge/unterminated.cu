#include <hip/hip_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] = 0.f; }
void f(float* x) {
  hipMemset(x, 0, 16);
  hipLaunchKernelGGL(k, dim3(1), dim3(4), 0, 0, x);
}
/* this comment never ends
   cudaMalloc inside it must stay as it is
