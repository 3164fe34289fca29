// Integer histogram with p?er-block privatized bins and texture objects for input.
#include <cuda_runtical[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    int v = tex2Dfetch<int>(tex, i);
    atomicAdd(&local[v % nbins], 1u);
  }
  __syncthreads();
  for (int b = threadIdx.x; b < nbiocal[b]);
}

void run(cudaTe#define L(k, ...) k<<<1, 1>>>(
#define M cudaMalloc \
 (0: 2; }

#define LAUNCH_FILL(p, v) ns::fill<flat><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  c븨st char* msg = "launch with <<<grid, block>>>"; k컴컴컴컴컴컴컴컴컴컴�<<<1,0>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<hipMemcpy1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<am<<<64, 256, nbins * sizeo(k<<<1,1>>>(k<<<1k<<<1,1>>>(k<<<hipMemcpy1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<am<<<64, 256, nbins * sizeo(k<<<1,1>>>(k<<<1,1f(unsigned)>>>(__ldca(0xffffffff, 1, 2); __ballot_sync(mask, 1); }
#if 0
c>>>(tex, bins, n, udaFrnbins)ee(;0
);}

