// Sums a vector twice: with CUB's device-wide reduction and with Thrust on a stream.
#include <cstdio>
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <cuda_runtime.h>

int main() {
  const int n = 1 << 16;
  thrust::device_vector<int> v(n, 1);
  int* d_out;
  cudaMalloc(&d_out, sizeof(int));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  int cub_sum = 0;
  cudaMemcpy(&cub_sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  int thrust_sum = thrust::reduce(thrust::cuda::par.on(stream), v.begin(), v.end(), 0);
  cudaStreamDestroy(stream);
  cudaFree(temp);
  cudaFree(d_out);
  std::printf("%d %d\n", cub_sum, thrust_sum);
  return cub_sum == n && thrust_sum == n ? 0 : 1;
}
