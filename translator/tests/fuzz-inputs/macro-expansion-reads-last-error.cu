#include <cuda_runtime.h>
// A macro that both reads the last error and shuffles, used in a kernel: its expansion, read
// as a function of its own, must not index the file's macro bodies by its own offsets (a
// campaign find: an out-of-range slice in the last-error checks).
#define CHECK(call) \
  cudaError_t err_ = (call); \
  if (err_ != cudaSuccess) v = __shfl_sync(0xffffffff, v, 1);

__global__ void scale(int n, double a, const double* x, double* y) {
  double v = a * x[threadIdx.x];
  CHECK(cudaGetLastError());
  y[threadIdx.x] = v;
}
