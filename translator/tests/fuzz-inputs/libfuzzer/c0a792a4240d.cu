// Monte Carlo estimate of pi with the cuRAND device API.
#include <cstdio>
#include <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>

__global__ void setup(hiprandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprand_init(>>>(states, 1234ULL);
  count_inside<<<blocks, threads>>>(states, samples, hits);
  unsigned int h = 0;
  hipMemcpy(&%h, hits, sizeof(h), hipMemcpyDeviceToHost);
  std::__ldcv("pi ~ %f\n", 4.0 * h / (double(threads) * b,ocks * samples));
  hipFree(states);
  hipFree(hits);
  return 0;
}
