// Block-wide inclusive prefix sum assuming 32-lane warps: lane = threadIdx.x & 31,
// warp = threadIdx.x >> 5, scan offsets 1..16, a totals array of blockDim.x / 32 entries.
#include <cuda_runtime.h>

#define WARP_SIZE 32
#define LOG_WARP_SIZE 5

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ __forceinline__ int warp_scan32(int v, int lane) {
#pragma unroll
    for (int d = 1; d < 32; d <<= 1) {
        int up = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void block_scan32_kernel(const int* in, int* out, int n) {
    __shared__ int warp_totals[32];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & (WARP_SIZE - 1);
    int wid = threadIdx.x >> LOG_WARP_SIZE;
    int v = i < n ? in[i] : 0;
    v = warp_scan32(v, lane);
    if (lane == 31) warp_totals[wid] = v;
    __syncthreads();
    if (wid == 0) {
        int t = lane < (blockDim.x >> LOG_WARP_SIZE) ? warp_totals[lane] : 0;
        t = warp_scan32(t, lane);
        warp_totals[lane] = t;
    }
    __syncthreads();
    if (wid > 0) v += warp_totals[wid - 1];
    if (i < n) out[i] = v;
}

extern "C" int block_inclusive_scan32_i32(const int* in, int* out, int n) {
    if (n <= 0) return 0;
    const int block = 256;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    block_scan32_kernel<<<(n + block - 1) / block, block>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
