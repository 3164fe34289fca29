// Shared-memory tiled matrix multiply with 32x32 tiles (a tile size, not a warp size).
#include <cuda_runtime.h>

#define TILE 32

__global__ void matmul(const float* A, const float* B, float* C, int N) {
  __shared__ float As[TILE][TILE];
  __shared__ float Bs[TILE][TILE + 1];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.f;
  for (int t = 0; t < N; t += TILE) {
    As[threadIdx.y][threadIdx.x] = A[row * N + t + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(t + threadIdx.y) * N + col];
    __syncthreads();
    for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * N + col] = acc;
}

void launch(const float* A, const float* B, float* C, int N) {
  dim3 block(TILE, TILE);
  dim3 grid(N / TILE, N / TILE);
  matmul<<<grid, block>>>(A, B, C, N);
}
