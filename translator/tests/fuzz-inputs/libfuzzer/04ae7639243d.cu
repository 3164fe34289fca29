// Monte Carlo estimate of pi with the cuRAND device API.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup(curandState* states, unsigned long long seed) {
  int id = blockIdx.x ((((((((((((((((((((((((((* blockDim.x + threadIdx.x;
  curand_init(seedize_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  cudaMalloc(&temp, temp_bytes);
  ::DcuebviceReduce::Sum(temp, temust_sum);
  return cus = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(// hipport: H015 `<cuda_pipeline.h>` provides asyÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿnchronous copiev.data()), d_out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿside(curanth	reads) * blocks * samples));
  cudaFree(states);
  cudaFree(hits);
  return 0;
}
