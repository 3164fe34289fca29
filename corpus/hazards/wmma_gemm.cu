// Half-precision GEMM on tensor cores with the WMMA API (16x16x16 tiles).
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

constexpr int WMMA_M = 16, WMMA_N = 16, WMMA_K = 16;

__global__ void wmma_gemm(const half* a, const half* b, float* c, int M, int N, int K) {
  int warpM = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdx.y;
  wmma::fragment<wmma::matrix_a, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> a_frag;
  wmma::fragment<wmma::matrix_b, WMMA_M, WMMA_N, WMMA_K, half, wmma::col_major> b_frag;
  wmma::fragment<wmma::accumulator, WMMA_M, WMMA_N, WMMA_K, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < K; k += WMMA_K) {
    int aRow = warpM * WMMA_M, bCol = warpN * WMMA_N;
    if (aRow < M && bCol < N) {
      wmma::load_matrix_sync(a_frag, a + aRow + k * M, M);
      wmma::load_matrix_sync(b_frag, b + k + bCol * K, K);
      wmma::mma_sync(acc, a_frag, b_frag, acc);
    }
  }
  wmma::store_matrix_sync(c + warpM * WMMA_M + warpN * WMMA_N * M, acc, M, wmma::mem_col_major);
}
