// Row-wise LayerNorm, one block per row, written for 32-lane warps throughout: WARP_SIZE 32,
// lane = threadIdx.x & 31, warp = threadIdx.x >> 5, a 32-entry shared array of warp partials,
// and XOR-butterfly reductions from offset 16 without a width. On a 64-lane wavefront each
// 32-lane half reduces on its own (an XOR distance below 32 never leaves the half) and writes
// its own partial, so the block's sums, and the result, are the same as on 32-lane warps.
// (The second stage runs in every warp: under `if (warp == 0)` only half of a wavefront would
// run it, which HIP 6.2+'s mask checks reject; hipport warns of that form.)
#include <cuda_runtime.h>

#define WARP_SIZE 32

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ float warp_sum(float v) {
#pragma unroll
    for (int mask = WARP_SIZE / 2; mask > 0; mask >>= 1) v += __shfl_xor_sync(0xffffffff, v, mask);
    return v;
}

// Sum over the block: every warp reduces, lane 0 stores the warp's partial, then every warp
// reduces the partials, so that every thread has the total without a second broadcast.
__device__ float block_sum(float v, float* partial) {
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    v = warp_sum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    v = lane < (int)(blockDim.x >> 5) ? partial[lane] : 0.f;
    const float total = warp_sum(v);
    __syncthreads();
    return total;
}

__global__ void layer_norm_rows_kernel(const float* __restrict__ x, const float* __restrict__ gamma,
                                       const float* __restrict__ beta, float* __restrict__ y,
                                       int cols, float eps) {
    __shared__ float partial[WARP_SIZE];
    const float* row = x + (size_t)blockIdx.x * cols;
    float s = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += row[c];
    const float mean = block_sum(s, partial) / cols;
    float q = 0.f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = row[c] - mean;
        q += d * d;
    }
    const float rstd = rsqrtf(block_sum(q, partial) / cols + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x)
        y[(size_t)blockIdx.x * cols + c] = (row[c] - mean) * rstd * gamma[c] + beta[c];
}

extern "C" int layer_norm_halves_f32(const float* x, const float* gamma, const float* beta, float* y,
                                     int rows, int cols, int threads) {
    if (rows <= 0 || cols <= 0) return 0;
    // Whole warps of 32, at most 32 of them (the partials array).
    if (threads < WARP_SIZE || threads > 1024 || threads % WARP_SIZE != 0) return -1;
    float *dx, *dg, *db, *dy;
    const size_t n = (size_t)rows * cols;
    CHECK(cudaMalloc(&dx, sizeof(float) * n));
    CHECK(cudaMalloc(&dg, sizeof(float) * cols));
    CHECK(cudaMalloc(&db, sizeof(float) * cols));
    CHECK(cudaMalloc(&dy, sizeof(float) * n));
    CHECK(cudaMemcpy(dx, x, sizeof(float) * n, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dg, gamma, sizeof(float) * cols, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, beta, sizeof(float) * cols, cudaMemcpyHostToDevice));
    layer_norm_rows_kernel<<<rows, threads>>>(dx, dg, db, dy, cols, 1e-5f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, dy, sizeof(float) * n, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dg));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dy));
    return 0;
}
