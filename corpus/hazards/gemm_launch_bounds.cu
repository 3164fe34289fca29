// Register-blocked SGEMM tile kernel tuned with launch bounds.
#include <cuda_runtime.h>

#define BLOCK_THREADS 256
#define MIN_BLOCKS 2
#define TILE 64

__global__ void __launch_bounds__(BLOCK_THREADS, MIN_BLOCKS)
sgemm_tile(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
           int M, int N, int K) {
  __shared__ float As[TILE][TILE + 1];
  __shared__ float Bs[TILE][TILE + 1];
  register float acc[4][4] = {{0.f}};
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  for (int k0 = 0; k0 < K; k0 += TILE) {
    for (int i = threadIdx.x; i < TILE * TILE; i += BLOCK_THREADS) {
      int r = i / TILE, c = i % TILE;
      As[r][c] = A[(blockIdx.y * TILE + r) * K + k0 + c];
      Bs[r][c] = B[(k0 + r) * N + blockIdx.x * TILE + c];
    }
    __syncthreads();
    for (int k = 0; k < TILE; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += As[ty * 4 + i][k] * Bs[k][tx * 4 + j];
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(blockIdx.y * TILE + ty * 4 + i) * N + blockIdx.x * TILE + tx * 4 + j] = acc[i][j];
}

// Hopper variant with a cluster bound.
__global__ void __launch_bounds__(128, 4, 2) sgemm_cluster(float* C) { C[threadIdx.x] = 0.f; }
