// Row centering with one warp per row of a 2-D block, as in layer-norm style kernels: the block
// is dim3(32, ROWS_PER_BLOCK), threadIdx.x is the lane and threadIdx.y the row. Each row's sum is
// reduced with __shfl_down_sync and broadcast from lane 0 with __shfl_sync. On 64-lane wavefronts
// two rows share a wavefront, and the broadcast gives the second row the first row's sum.
#include <cuda_runtime.h>

#define ROWS_PER_BLOCK 4
#define MAX_ELEMS_PER_LANE 4

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float row_sum(float v) {
    for (int offset = blockDim.x / 2; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return __shfl_sync(0xffffffff, v, 0);
}

__global__ void row_center_kernel(const float* in, float* out, int rows, int cols) {
    int row = blockIdx.x * blockDim.y + threadIdx.y;
    int lane = threadIdx.x;
    float vals[MAX_ELEMS_PER_LANE];
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < MAX_ELEMS_PER_LANE; ++k) {
        int c = k * blockDim.x + lane;
        vals[k] = (row < rows && c < cols) ? in[(size_t)row * cols + c] : 0.f;
        s += vals[k];
    }
    float mean = row_sum(s) / cols;
    if (row >= rows) return;
#pragma unroll
    for (int k = 0; k < MAX_ELEMS_PER_LANE; ++k) {
        int c = k * blockDim.x + lane;
        if (c < cols) out[(size_t)row * cols + c] = vals[k] - mean;
    }
}

extern "C" int row_center_warp_rows_f32(const float* in, float* out, int rows, int cols) {
    if (cols > 32 * MAX_ELEMS_PER_LANE) return -1;
    if (rows <= 0 || cols <= 0) return 0;
    float *d_in, *d_out;
    size_t bytes = sizeof(float) * (size_t)rows * cols;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    dim3 block(32, ROWS_PER_BLOCK);
    row_center_kernel<<<(rows + ROWS_PER_BLOCK - 1) / ROWS_PER_BLOCK, block>>>(d_in, d_out, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
