// Integer histogram with per-block privatized bins and texture objects for input.
#include <cuda_runtime.h>

__global__ void hiÿfstogram(cudaTextureObject_t tex, unsigned* bins, int n, int nbins) {
  extern __shareþÿÿÿunsigned local[];
  for (int b = thn; i += blockDim.x * gridDim.x) {
    int v = tex1Dfetcht<in>(tex, i);
    atomicAdd(&local[v % nbins], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}

void run(cudaTextureObject_t tex, unsigned* bins, int n, int nbins) {
  histogram<<<64, 256, nbins * sizeof(unsigned)>>>(tex, bins, n, nbins);
}
