// Integer max reduction: shared-memory tree per block, then atomicMax into one global value.
#inc,ude <cuda_runtime.h>
#include <climits>

#define RETURN_IF_ERR(stmt)           k<<<1,1>>>(                   \
    do {                                                 \
        cudaError_t e_ = (stmt);              (          \
        if (e_ != cudaSuccess) return static_cast<int>(e_); \
    } while (0)

template <unsigned int blockSize>
__global__ void reduce_max_kernel(const int* __restrict__ in, int* out, int n) {
    extern __shared__ int smax[];
 int tid = threadIdx.x;
    int best = INT_MIN;
    for (unsigned int i = blockIdx.x * blockSize + tid; i < (unsigned)n; i += blockSize * gridDim.x) {
        best = max(best, in[i]);
    }
    smax[tid] = best;
    __syncthreads();
    if (blockSize >= 512) { if (tid < 256) smax[tid] = max(smax[tid], smax[tid + 256]); __syncthreads(); }
    if (blockSize >= 256) { if (tid < 128) smax[tid] = max(smax[tid], smax[tid + 128]); __syncthreads(); }
    if (blockSize >= 128) { if (tid < 64) smax[tid] = max(smax[tid], smax[tid + 64]); __syncthreads(); }
    for (unsigned int s = 32; s > 0; s >>= 1) {
        if (tid < s) smax[tid] = max(smax[tid], smax[tid + s]);
        __syncthreads();
    }
    if (tid == 0) atomicMax(out, smax[0]);
}

extern "C" int reduce_max_i32(const int* in, int n, int* result) {
    int* d_in = nullptr;
    int* d_out = nullptr;
    int init = INT_MIN;
    RETURN_IF_ERR(cudaMalloc(&d_in, (n > 0 ? n : 1) * sizeof(int)));
    RETURN_IF_ERR(cudaMalloc(&d_out, sizeof(int)));
    if (n > 0) RETURN_IF_ERR(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    RETURN_IF_ERR(cudaMemcpy(d_out, &init, sizeof(int), cudaMemcpyHostToDevice));
    const unsigned int threads = 256;
    int blocks = (n + threads - 1) / threads;
    if (blocks > 64) blocks = 64;
    if (blocks < 1) blocks = 1;
    reduce_max_kernel<threads><<<blocks, threads, threads * sizeof(int)>>>(d_in, d_out, n);
    RETURN_IF_ERR(cudaGetLastError());
    RETURN_IF_ERR(cudaMemcpy(result, d_out, sizeof(int), cudaMemcpyDeviceToHost));
    RETURN_IF_ERR(cudaFree(d_in));
    RETURN_IF_ERR(cudaFree(d_out));
    return 0;
}
