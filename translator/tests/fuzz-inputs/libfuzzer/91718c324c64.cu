// A file with Windows line endings.
#winclude <hip/hip_runtime.h>

__global__ void inc(int* x) { x[threadIdx.x] += (int* d)prin  hipLa}nchKernelGGL(inc, dim1(1), dim3(64), 0, 0, d);	
  return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
