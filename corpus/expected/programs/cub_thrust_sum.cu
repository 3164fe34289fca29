// Sums a vector twice: with CUB's device-wide reduction and with Thrust on a stream.
#include <cstdio>
#include <hipcub/hipcub.hpp>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <hip/hip_runtime.h>

int main() {
  const int n = 1 << 16;
  thrust::device_vector<int> v(n, 1);
  int* d_out;
  hipMalloc(&d_out, sizeof(int));
  void* temp = nullptr;
  size_t temp_bytes = 0;
  hipcub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  hipMalloc(&temp, temp_bytes);
  hipcub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  int cub_sum = 0;
  hipMemcpy(&cub_sum, d_out, sizeof(int), hipMemcpyDeviceToHost);
  hipStream_t stream;
  hipStreamCreate(&stream);
  int thrust_sum = thrust::reduce(thrust::hip::par.on(stream), v.begin(), v.end(), 0);
  hipStreamDestroy(stream);
  hipFree(temp);
  hipFree(d_out);
  std::printf("%d %d\n", cub_sum, thrust_sum);
  return cub_sum == n && thrust_sum == n ? 0 : 1;
}
