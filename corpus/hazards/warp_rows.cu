// Per-row statistics with one warp per row of a 2-D block (dim3(32, 8)): threadIdx.x is the
// lane, threadIdx.y the row. On 64-lane wavefronts two rows share a wavefront.
#include <cuda_runtime.h>
#include <cub/cub.cuh>

#define FULL 0xffffffffu

__device__ float row_max(float v) {
    // Lane distances below 32 stay inside the row: not a hazard.
    for (int d = 16; d > 0; d >>= 1) v = fmaxf(v, __shfl_xor_sync(FULL, v, d));
    return v;
}

__device__ float row_total(float v) {
    for (int d = 16; d > 0; d >>= 1) v += __shfl_down_sync(FULL, v, d);
    return __shfl_sync(FULL, v, 0);
}

__global__ void row_stats(const float* x, float* mx, float* sum, int* positive, int cols) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    float v = threadIdx.x < cols ? x[row * cols + threadIdx.x] : 0.f;
    float m = row_max(v);
    float s = row_total(v);
    unsigned votes = __ballot_sync(FULL, v > 0.f);
    if (threadIdx.x == 0) {
        mx[row] = m;
        sum[row] = s;
        positive[row] = __popc(votes);
    }
}

// Launched with a 1-D block: its 32 rows... are one row; nothing to report here.
__global__ void row_sum_1d(const float* x, float* sum, int cols) {
    float v = threadIdx.x < cols ? x[blockIdx.x * cols + threadIdx.x] : 0.f;
    sum[blockIdx.x] = row_total(v);
}

// A matrix-vector product with one warp per row and CUB's warp reduction: hipCUB's default
// logical warp is the whole 64-lane wavefront, which holds two rows.
__global__ void row_dot(const float* m, const float* v, float* out, int rows, int cols) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    if (row >= rows) return;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += 32) s += m[row * cols + c] * v[c];
    using RowReduce = cub::WarpReduce<float>;
    __shared__ typename RowReduce::TempStorage tmp[4];
    s = RowReduce(tmp[threadIdx.y]).Sum(s);
    if (threadIdx.x == 0) out[row] = s;
}

void launch(const float* x, float* mx, float* sum, int* positive, int rows, int cols) {
    dim3 block(32, 8);
    row_stats<<<(rows + 7) / 8, block>>>(x, mx, sum, positive, cols);
    row_sum_1d<<<rows, 32>>>(x, sum, cols);
    row_dot<<<(rows + 3) / 4, dim3(32, 4)>>>(x, sum, mx, rows, cols);
}
