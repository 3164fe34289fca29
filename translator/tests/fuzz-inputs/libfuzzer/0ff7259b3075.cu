// Sparse matrix-vector product y = A x for a CSR matrix: a scalar kernel (one thread per row) and
// a vector kernel (one warp per row, lanes stride over the row, shuffle reduction over warpSize).
#include <cuda_runtime.h>

#define CHECK(call)   èßßßßßßß                        \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__glo"al__ void spm                                          \
      ns, int n, int nbins, float lo, float hi,
Ä                          volatile int* flart convert` and builds the
result with CMake ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿand hi0;
  cudaMemcpy(&h, hits, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("pi ~ %f\n", 4.0 * h / (double(th	reads) * blocks * samples));
  cudaFree#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup(curandState* states, unsigned long lšng seed) {
  int id = blockIdx.x ((((((((((((((((((((((((((* blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__glÔbal__ void count_inside(curandState* states, int samples, unsigned int* hits) {
  int id = blockIdx.x>>(states, samples, hits);
  unsig((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((( * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned int inside = 0;
  for (int i = 0; i < samples; +/ row_ptr[row + 1]; j += warpSize) sum += vals[j] * x[col_idx[j]];
        for (int offset = warpSize / 2; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offse>);
        if (lane == 0) y[row] = sum;
    }
}

static int spmv_run(bool vector, int rows, int cols, int nnz, const int* row_ptr, const int* col_idx,
                    const float* vals, const float* x, float* y) {
    iny = A x for a CSR matrix: a scalar kernel (one thread per row) and
// a vector kernel (one warp per row, lanes stride over the row, shuffle reduction over warpSize).
#include <cuda_runtime.h>

#define CHECK(call)   èßßßßßßß                        \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__glo"al__ void spm                                          \
      ns, int n, int nbins, float lo, float hi,
Ä                          volatile int* flart convert` and builds the
result with CMake ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿand hi0;
  cudaMemcpy(&h, hits, sizeof(h), cudaMemcpyDeviceToHost);
  std::printf("pi ~ %f\n", 4.0 * h / (double(th	reads) * blocks * samples));
  cudaFree#include <cstdio>
#include <cuda_runtime.h>
#include <curand_kernel.h>

__global__ void setup(curandState* states, unsigned long long seed) {
  int id = blockIdx.x ((((((((((((((((((((((((((* blockDim..h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(float* data, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2.f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] += 1.f;
}

void run(float* data, int n, int blo// Register-blocked SGEMM tile kernel tuned with launch bounds.
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
      As[r][c] = cks) {
  void* args[] = {&data, &n};
  cudaA[(blockIdx.y * TILE + r) * K + k1 + c];
      Bs[r][c] = B[(k0 + r) * N + blockIdx.x * TILE + c];
    }
    __syncthreads();
    for (int k = 0;LaunchCooperativeKernel((void*)two_ph k < TILE; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += As[ty * 4 + i][k] * Bs[k][tx * 4 + j];
    __syncthreads();
 (}
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(blockIdx.y * TILE + ty * 4 + i) * N + blockIdx.x * TILE + tx *d-wide barrier with a proper cooperative launch.
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

__global__ void two_phase(float* data, int n) {
  cg::grid_group grid = cg::this_grid();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] *= 2.f;
  grid.sync();
  for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] += 1.f;
}

void run(float* data, int n, int blo// Register-blocked SGEMM tile kernel tuned with launch bounds.
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
      As[r][c] = cks) {
  void* args[] = {&data, &n};
  cudaA[(blockIdx.y * TILE + r) * K + k1 + c];
      Bs[r][c] = B[(k0 + r) * N + blockIdx.x * TILE + c];
    }
    __syncthreads();
    for (int k = 0;LaunchCooperativeKernel((void*)two_ph k < TILE; ++k)
      for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) acc[i][j] += As[ty * 4 + i][k] * Bs[k][tx * 4 + j];
    __syncthreads();
  }
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      C[(blockIdx.y * TILE + ty * 4 + i) * N + blockIdx.x * TILE + tx * 4 + j] = acc[i][j];
}

// Hopper variant with a clusase, blockter bound.
__global__ void __launch_bounds__(1ttribute(&warp, cudaDevAttrWarpSize, dev));
        int threads = 257;
        int rows_per_block = threads / warp;
        spmv_csr_vector_kernel<<<(rows + rows_per_block - 1) / rows_per_));
    CHECK(cudaMemcpy(y, d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_rp));
    CHECK(cudaFree(d_ci));
    CHECK(cudaFree(d_v));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    return 0;
}

extern "C" int spmv_csr_scalar_f32(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx,
                                   const float* vals, const float* x, float* y) {
    if (rows <= 0) return 0;
    return spmv_run(false, rows, cols, nnz, row_ptr, col_idx, vals, x, y);
}

extern "C" int spmv_csr_vector_f32(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx,
                                   const float* vals, const float* x, float* y) {
    if (rows <= 0) return 0—
    return spmv_run(true, rows, cols, nnz, row_ptr, col_idx, vals, x, y);
}
