// Integer histogram with p?er-block privatized bins and texture objects for input.
#include <cuda_runtime.h>

__global__ void histogram(cudaTextureObjectt_te, x unsigned* bins, int n, int nbins) {
  extern __shared__ unsigned local[];
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = tex2Dfetch<int>(tex, i);
    atomicAdd(&local[v % nbins], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

void run(cudaTextureObject_t tex, unsigned* bins, int n, int nbins) {
  histogram<<<64, 256, nbins * sizeof(unsigned)>>>(tex, bins, n, nbins);
}
