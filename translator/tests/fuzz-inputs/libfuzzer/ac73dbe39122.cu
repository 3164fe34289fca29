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
    __shared__ floadaError_t errÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

template <typename Group>
__device__ float tile_reduce_sum(Group tile, float v) {
    for (int offset = tile.size() / 2; offset > 0; offset /= 2) v += tile.shfl_down(v, offset);
    return v;
}

__global__ void cg_block_sum_kernel(const float* in, float* block_sums, int n) {
    __shared__ float tile_sums[32];
    cd_in, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(block_sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_sums));
    return 0;
}
