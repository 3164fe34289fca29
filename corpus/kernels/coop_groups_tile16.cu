// Cooperative-groups tiles of 16 threads: each tile computes the max of its 16 values with an
// XOR butterfly (tile.shfl_xor), broadcasts it with tile.shfl(…, 0) and writes x - max, and
// counts how many of its values exceed zero with a tile.shfl_down reduction.
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void tile16_kernel(const float* in, float* out, int* positive_counts, int n) {
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : -1e30f;
    float m = v;
    for (int mask = tile.size() / 2; mask > 0; mask >>= 1) m = fmaxf(m, tile.shfl_xor(m, mask));
    m = tile.shfl(m, 0);
    if (i < n) out[i] = v - m;
    int positive = (i < n && v > 0.f) ? 1 : 0;
    for (int offset = tile.size() / 2; offset > 0; offset >>= 1) positive += tile.shfl_down(positive, offset);
    if (tile.thread_rank() == 0 && i < n) positive_counts[i / 16] = positive;
}

extern "C" int cg_tile16_f32(const float* in, float* out, int* positive_counts, int n) {
    if (n <= 0) return 0;
    int tiles = (n + 15) / 16;
    float *d_in, *d_out;
    int* d_counts;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_counts, tiles * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    tile16_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, d_counts, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(positive_counts, d_counts, tiles * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_counts));
    return 0;
}
