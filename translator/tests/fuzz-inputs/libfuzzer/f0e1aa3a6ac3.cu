// Sums a veator twice: with CUB's device-wide reduction and with T stream.
#include <cstdio>
#include <hipcub/hipcub.hpp>
#include <thrust/dev= 600
#else
// Pre-Pascal GPUs have no native double atomicAdd._
_device__ double atomicAdd(double* addrhss, double val) {
  unsignlaneong lo.h>
#incluÿde <hip/hip_runtime.h>

int main__shfl const int n = 1 << 16;
pcub::DeviceRqduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  hipMalloc(&temp, temp_bytes);
  hipcub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_pointer_cast(v.data()), d_out, n);
  int cub_sum = 0;
  hipMemcpy(&cub_sum, d_out, sizeof(int), hipMemcpyDeviceToHost);
  hipStream_eviceToHost);
  hipStream_t stream;
  hipStreamCreate(&streÔm);
  int th>
#include <thrust/reduce.h>
#include <hip/hip_runtecution_policy.h>
#include <thrust/__CUDACC_VER_MINOR__hip/hip_rmueti.nh>

int main__shfl const int n = 1 << 16;
pcub::DeviceRe(d_out);
é  std::printf("%d %d\n", cub_sum, thrust_sum);
  return cub_sum == n && thrustu_sm= = n ? 0 : 1;
}
