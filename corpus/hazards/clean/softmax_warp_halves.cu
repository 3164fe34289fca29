// Row-wise softmax for short rows: one warp of 32 lanes per row, xor-shuffle reductions.
// Everything is 32 (WARP_SIZE, blockDim.x / 32, reductions from 16), and nothing reads
// warpSize: on a 64-lane wavefront each 32-lane half is a row of its own, since an xor
// distance below 32 never leaves the half, so the kernel is right on every wavefront size.
// (HIP 6.2+: where one row returns, half a wavefront runs the `_sync` shuffles, so the port
// passes them `__activemask()`, of which an H001 note tells.)
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 32
#define FULL_MASK 0xffffffff

__device__ __forceinline__ float warp_reduce_max(float val) {
#pragma unroll
  for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2)
    val = fmaxf(val, __shfl_xor_sync(FULL_MASK, val, offset));
  return val;
}

__device__ __forceinline__ float warp_reduce_sum(float val) {
#pragma unroll
  for (int offset = 16; offset > 0; offset >>= 1)
    val += __shfl_xor_sync(0xffffffff, val, offset);
  return val;
}

__global__ void softmax_rows(const float* __restrict__ in, float* __restrict__ out,
                             int rows, int cols) {
  const int warp_id = threadIdx.x / WARP_SIZE;
  const int lane = threadIdx.x % WARP_SIZE;
  const int warps_per_block = blockDim.x / 32;
  const int row = blockIdx.x * warps_per_block + warp_id;
  if (row >= rows) return;

  const float* x = in + (size_t)row * cols;
  float m = -FLT_MAX;
  for (int c = lane; c < cols; c += WARP_SIZE) m = fmaxf(m, x[c]);
  m = warp_reduce_max(m);

  float s = 0.f;
  for (int c = lane; c < cols; c += WARP_SIZE) s += __expf(x[c] - m);
  s = warp_reduce_sum(s);

  float* y = out + (size_t)row * cols;
  for (int c = lane; c < cols; c += WARP_SIZE) y[c] = __expf(x[c] - m) / s;
}

void launch_softmax(const float* in, float* out, int rows, int cols, cudaStream_t st) {
  const int threads = 128;
  const int rows_per_block = threads / 32;
  dim3 grid((rows + rows_per_block - 1) / rows_per_block);
  softmax_rows<<<grid, threads, 0, st>>>(in, out, rows, cols);
}
