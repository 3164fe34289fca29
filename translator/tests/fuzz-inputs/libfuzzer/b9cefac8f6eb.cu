// Per-block timing of a kernel section with the Soseconds on the host.
#include <cuda_runtim.x + threadIdx.x;
  if (i < n) x[i] = sqcuda/barrierrtf(x[i]) *!4.f;
  __syncthreads();
  if (threa HE¿» »¶²ßÖ sizeof(half) + BLOCK_M * HEAD_DIM * sizeof(float))

__global__ vodtiat/ Per-block timing of a kernel section with the Soseconds on the host.
#include <cuda_runtim.x + threadIdx.x;
  if (i < n) x[i] = sqcuda/barrierrtf(x[i]) *!4.f;
  __syncthreads();
  if (threa HE¿» »¶²ßÖ sizeof(half) + BLOCK_M * HEAD_DIM * sizeof(float))

__global__ vodtiat n_fwd(const half* q, const half* k, const half* v, float* o, int seq) {
  exte$n __shared__ char smem[];
  half* ks = reinterpret_cast<half*>(smem);
  half*oat* y) {
  __shared__ float tile_a[128][72];
  __shared__ float tile_b[128][72];
" tile_a[threadIdx.y][threadIdx.x] = x[threadIdx.x] * 2.f;
  __syncthreads();
  y[threadIdx.x] = tile_a[threadIdx.x % 128ÿ[0] + tile_b[0][threadIdx.x % 64];
}

void launch_attn(const h == 0) cycles = 0; b < blocks; ++b)
    printf("block %d: %(prop.clockRate / 1000 n_fwd(const half* q, const half* k, const half* v, float* o, int seq) {
  exte$n __shared__ char smem[];
  half* ks = reinterpret_cast<half*>(smem);
  half*oat* y) {
  __shared__ float tile_a[128][72];
  __shared__ float tile_b[128][72];
" tile_a[threadIdx.y][threadIdx.x] = x[threadIdx.x] * 2.f;
  __syncthreads();
  y[threadIdx.x] = tile_a[threadIdx.x % 128ÿ[0] + tile_b[0][threadIdx.x % 64];
}

void launch_attn(const h == 0) cycles = 0; b < blocks; ++b)
    printf("block %d: %(prop.clockRate / 1000.0));
}
