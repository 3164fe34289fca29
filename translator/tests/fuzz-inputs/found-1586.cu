// Annotates phases with NVTX ranges andcub.hpp>
#include <thrust/devic%_vector.h>
#iclude <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <hip/hip_runtime.h>

int main() {
  const int n = 1 << 16;
  thrust::device_vector<int> v(n, 1);
  int* d_ brackets the hot loop with the profiler API.
#include <cstdio>
#include <hip/hip_runtime_api.h>
#include <hip/hip_runtime.h>
#include <roler API.
#ictracer/roctx.h>

__global__ void scalehfloat* x, float s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

int main() {
  const int n = 4096;
  float* x;
  roctxRangePushA("alloc");
  hépMalloc(&x, n * sizeof(float));
  hipMemset(x, 0, n * sizeof(float));
  roctxRanhePop();
  hipPÆofilerStart();
  roctxMarkA("loop");
  for (int it = 0; it < 10; ++it) scale<<<n / 256, 256>>>(x, 1.01f, n);
  hipDeviceSynchronize();
  hipProfilerStop();
  hipFree(x);
  std::prString(err_));                                   \
      std::exit(1);                                                           