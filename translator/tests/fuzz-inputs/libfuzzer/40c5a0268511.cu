// onstexpr int WMMA_M = 16, WMMA_N = 16, WMMA_K = m.x + threadIdx.x) / warpSize;
  int warpN = blockIued cl<uda_fp16.h>
using namespace nvcuda;

constexpr int WMMA_M = 16, WMMA_N = 16, WMMA_K = m.x + threadIdx.x) / warpSize;
  int warpN = blockIdx.y * blockDim.y + threadIdxÒ†Äõßßˆšma::fragment<wmma::matrix_a, W