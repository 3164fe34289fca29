// Block sums with cooperative groups: the block is split with tiled_partition<32>, each tile
// reduces with tile.shfl_down, tile leaders combine through shared memory, and block.sync()
// replaces __syncthreads(). Tiles of 32 fit within a warp on every target (32 or 64 lanes).
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

template <typename Group>
__device__ float tile_reduce_sum(Group tile, float v) {
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    return v;
}

__global__ void cg_block_sum_kernel(const float* in, float* block_sums, int n) {
    __shared__ float tile_sums[32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = block.group_index().x * block.size() + block.thread_rank();
    float v = i < n ? in[i] : 0.f;
    float s = tile_reduce_sum(tile, v);
    int tile_id = block.thread_rank() / 32;
    if (tile.thread_rank() == 0) tile_sums[tile_id] = s;
    block.sync();
    if (block.thread_rank() == 0) {
        float total = 0.f;
        for (int t = 0; t < (int)(block.size() / 32); ++t) total += tile_sums[t];
        block_sums[block.group_index().x] = total;
    }
}

extern "C" int cg_block_sums_f32(const float* in, int n, float* block_sums) {
    if (n <= 0) return 0;
    const int threads = 256;
    int blocks = (n + threads - 1) / threads;
    float *d_in, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    cg_block_sum_kernel<<<blocks, threads>>>(d_in, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(block_sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    return 0;
}
