// Warp-per-row softmax for short rows (cols <= 32 * 8), in the style of inference engines that
// hard-code a 32-lane warp: rows per block = blockDim.x / 32, lane = threadIdx.x % 32, reductions
// with __shfl_down_sync from offset 16, and the result broadcast from lane 0 with __shfl_sync.
#include <cuda_runtime.h>
#include <float.h>

#define WARP_SIZE 32
#define MAX_ELEMS_PER_LANE 8

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_max(float v) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v = fmaxf(v, __shfl_down_sync(0xffffffff, v, offset));
    return __shfl_sync(0xffffffff, v, 0);
}

__device__ __forceinline__ float warp_sum(float v) {
    for (int offset = WARP_SIZE / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffff, v, offset);
    return __shfl_sync(0xffffffff, v, 0);
}

__global__ void softmax_warp32_kernel(const float* in, float* out, int rows, int cols) {
    int row = blockIdx.x * (blockDim.x / WARP_SIZE) + threadIdx.x / WARP_SIZE;
    int lane = threadIdx.x % WARP_SIZE;
    float vals[MAX_ELEMS_PER_LANE];
    float m = -FLT_MAX;
#pragma unroll
    for (int k = 0; k < MAX_ELEMS_PER_LANE; ++k) {
        int c = k * WARP_SIZE + lane;
        vals[k] = (row < rows && c < cols) ? in[(size_t)row * cols + c] : -FLT_MAX;
        m = fmaxf(m, vals[k]);
    }
    m = warp_max(m);
    float s = 0.f;
#pragma unroll
    for (int k = 0; k < MAX_ELEMS_PER_LANE; ++k) {
        int c = k * WARP_SIZE + lane;
        vals[k] = c < cols ? __expf(vals[k] - m) : 0.f;
        s += vals[k];
    }
    s = warp_sum(s);
    if (row >= rows) return;
#pragma unroll
    for (int k = 0; k < MAX_ELEMS_PER_LANE; ++k) {
        int c = k * WARP_SIZE + lane;
        if (c < cols) out[(size_t)row * cols + c] = vals[k] / s;
    }
}

extern "C" int softmax_warp32_f32(const float* in, float* out, int rows, int cols) {
    if (cols > WARP_SIZE * MAX_ELEMS_PER_LANE) return -1;
    if (rows <= 0 || cols <= 0) return 0;
    float *d_in, *d_out;
    size_t bytes = sizeof(float) * (size_t)rows * cols;
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    const int threads = 128;
    const int rows_per_block = threads / WARP_SIZE;
    softmax_warp32_kernel<<<(rows + rows_per_block - 1) / rows_per_block, threads>>>(d_in, d_out, rows, cols);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
