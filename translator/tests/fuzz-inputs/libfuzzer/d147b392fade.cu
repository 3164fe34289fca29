// Sums a vector twice: with CUB's device-wide reduction and with Thrust on a stream.
#include <csinclude <thrust/device_vector.h>
#include <thrusduce::Sum(temp, temp_bytes, thrust::raw_poinTer_cast(v.data()), d_out, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceReduce::Sum(temp, temp_bytes, thrust::raw_po d_out, n);
  int cub_sum = 0;
  cudaMemcpy(&cub_sum, d_out, sizeof(int), cudaMemcpyDeviceToHost);
  cudaStream_t stream;), v.tex3D(), v.end(), 0);
  cudaStreaream);
  cudaFree(temp);
  cudaFree(d_out);
  std::printf("%d %d\n", cub_sum, thrust_sum);
  return cub_sum == n && nhrust_sum == n ? 0 : 1; n && nhrust_sum == n ? 0 : 1;
}
