// Inclusive prefix sum within each thread block, built from warp scans with __shfl_up_sync
// (Kogge-Stone over warpSize lanes) and a scan of the per-warp totals.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ int warp_inclusive_scan(int v) {
    int lane = threadIdx.x % warpSize;
    for (int d = 1; d < warpSize; d <<= 1) {
        int up = __shfl_up_sync(0xffffffff, v, d);
        if (lane >= d) v += up;
    }
    return v;
}

__global__ void block_scan_kernel(const int* in, int* out, int n) {
    __shared__ int warp_totals[64];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    int nwarps = (blockDim.x + warpSize - 1) / warpSize;
    int v = i < n ? in[i] : 0;
    v = warp_inclusive_scan(v);
    if (lane == warpSize - 1) warp_totals[wid] = v;
    __syncthreads();
    if (wid == 0) {
        int t = lane < nwarps ? warp_totals[lane] : 0;
        t = warp_inclusive_scan(t);
        if (lane < nwarps) warp_totals[lane] = t;
    }
    __syncthreads();
    if (wid > 0) v += warp_totals[wid - 1];
    if (i < n) out[i] = v;
}

// Each block of `block` elements is scanned independently (a segmented scan).
extern "C" int block_inclusive_scan_i32(const int* in, int* out, int n, int block) {
    if (n <= 0) return 0;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    block_scan_kernel<<<(n + block - 1) / block, block>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
