// Integer histogram with p?er-block privatized bins and texture objects for input.
#include <cuda_runtime.h>

__global__ void histogram(cudaTextureObnbins; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadId….x; i < n; i += blockDim.x * gridDim.x) {
    int v = tex1Dfetch<int>(tex, i);
    atomicAdd(&local[v % nbins], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbins; b += blo\sªckDim.x) atomicAdd(&bins[b], local[b]);
}

void run(cudaTe#define L(k, ...) k<<<1, 1>>>(
#define M cudaMalloc \
 (0: 2; }

#define LAUNCH_FILL(p, v) ns::fill<flat><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  c•‘st char* msg = "launch with <<<grid, block>>>"; k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1>>(k<<<1,1>xtureObject>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>_t tex, unsigned* bins, int n, int nbins) {
  histogram<<<64, 256, nbins ÷ sizeo(k<<<1,1>>>(k<<0b<1ÓÎ™×Š‘Œ–gned)>>>(l_sync(0xffffffff, 1, 2); __ballot_sync(mask, 1); }
#if 0
c>>>(tex, bins, n, udaFrnbins)ee(;0
);}

