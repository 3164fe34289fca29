// Block sums via warp-shuffle reductions sized by warpSize: each warp reduces with
// __shfl_down_sync, lane 0 of each warp stores to shared memory, the first warp reduces those,
// and the total is broadcast to every thread, which writes x / total (a per-block normalisation).
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__inline__ __device__ float warp_reduce_sum(float val) {
    for (int offset = warpSize / 2; offset > 0; offset /= 2)
        val += __shfl_down_sync(0xffffffff, val, offset);
    return val;
}

__inline__ __device__ float block_reduce_sum(float val) {
    __shared__ float shared[64];  // one slot per warp; enough for 1024 threads at any warp width
    __shared__ float total;
    int lane = threadIdx.x % warpSize;
    int wid = threadIdx.x / warpSize;
    val = warp_reduce_sum(val);
    if (lane == 0) shared[wid] = val;
    __syncthreads();
    int nwarps = (blockDim.x + warpSize - 1) / warpSize;
    val = (threadIdx.x < nwarps) ? shared[lane] : 0.f;
    if (wid == 0) {
        val = warp_reduce_sum(val);
        if (lane == 0) total = val;
    }
    __syncthreads();
    return total;
}

__global__ void block_normalize_kernel(const float* in, float* out, float* block_sums, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    float s = block_reduce_sum(v);
    if (threadIdx.x == 0) block_sums[blockIdx.x] = s;
    if (i < n) out[i] = v / s;
}

extern "C" int warp_block_normalize_f32(const float* in, float* out, float* block_sums, int n, int block) {
    if (n <= 0) return 0;
    int blocks = (n + block - 1) / block;
    float *d_in, *d_out, *d_sums;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    block_normalize_kernel<<<blocks, block>>>(d_in, d_out, d_sums, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(block_sums, d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_sums));
    return 0;
}
