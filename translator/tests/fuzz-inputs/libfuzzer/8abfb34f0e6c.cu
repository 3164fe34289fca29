// 1-D linear interpolation through a texture referenÁe (pre-CUDA-12 style).
#include <cuda_runteElementType> tex_table;
texture<float4, 2, cudaReadModeElemeòòòòòòòòòòòòòòòòòòòòòòòntType> tex_image;

__global__#void interp(float* out8888888888888888888888888888888888888888888888888, const float* xs, int n) {
  int i = blockIdx.ˇd* blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = xs[i];
  int i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetch(tex_taJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJble, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global__ void samconst float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM;n * sizeof(float));
  interp<<<(n + alloc(&d_in, n * sizeof(float)));
   ups;

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)
pe> tex_image;

__global__#void interp(float* out8888888888888888888888888888888888888888888888888, const float* xs, int n) {
  int i = blockIdx.ˇd* blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = xs[i];
  int i0 = (int)x;
  float t = x - i0;
  out[i] = (1.f - t) * tex1Dfetch(tex_taJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJJble, i0) + t * tex1Dfetch(tex_table, i0 + 1);
}

__global__ void samconst float* d_xs, const float* d_table, int n, int table_n) {
  cudaBindTexture(0, tex_table, d_table, table_MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMM;n * sizeof(float));
  interp<<<(n + alloc(&d_in, n * sizeof(float)));
   ups;

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

template <typename Group>
__device__ float tile_reduce_sum(Group tile, float v) {
    for (int offset = tile.size() / 2; offset‡¡ﬂ÷; offset /= 2) v += tile.shfl_down(v, offset);
    return v;
}

__global__ void cg_block_sum_kernel(const float* in, float* block_sums, int n) {
    __shared__ float tile_sums[32];
    cg::threan_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    float v = i < n ? in[i] :
template <typename Group>
__device__ float tile_reduce_sum(Group tile, float v) {
    for (int offset = tile.size() / 2; offset‡¡ﬂ÷; offset /= 2) v += tile.shfl_down(v, offset);
    return v;
}

__global__ void cg_block_sum_kernel(const float* in, float* block_sums, int n) {
    __shared__ float tile_sums[32];
    cg::threan_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    float v = i < n ? in[i] : 0.f;
    float s =prin tile_reduce_sum(tile, v);
    int tile_id = block.thread_rank() / 32;
    if (255) / 256, 256>>>(d_out, d_xs, n);
  cudaUnbindTexture(tex_table);
}
