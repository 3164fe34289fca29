// Managed buffer prefetched and advised with CUDA 13's location-based calls.
#include <cuda_runtime.h>

__global__ void scale(float* x, int n, float s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= s;
}

void run(int n, int dev, cudaStream_t stream) {
  float* x = nullptr;
  cudaMallocManaged(&x, n * sizeof(float));
  cudaMemLocation gpu = {cudaMemLocationTypeDevice, dev};
  cudaMemAdvise(x, n * sizeof(float), cudaMemAdviseSetPreferredLocation, gpu);
  cudaMemPrefetchAsync(x, n * sizeof(float), gpu, 0, stream);
  scale<<<(n + 255) / 256, 256, 0, stream>>>(x, n, 2.f);
  cudaMemPrefetchAsync(x, n * sizeof(float), cudaMemLocation{cudaMemLocationTypeHost, 0}, 0, stream);
  cudaStreamSynchronize(stream);
  cudaFree(x);
}
