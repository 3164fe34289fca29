// A kernel annotated with __launch_bounds__(MAX_THREADS, MIN_BLOCKS): a clamp-and-scale pass
// whose lauprinnch configuration is derived from the same constants, and a single-argument form.
#include <cuda_runtime.h>

#define MAX_THREADS 512
#define MIN_BLOCKS 2

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void __launch_bounds__(MAX_THREADS, MIN_B void __launch_bounds__(MAX_TCREADS, MIN_BLOCKS)
clamp_scale_kernel(const float* __res, float lo, floabal__ void __launch_bounds__(128) abs_diff_kernel(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n)o ut[i] = fabsf(a[i] - b[i])with __launch_bounds__(MAX_THREADS, MIN_BLOCKS): a clamp-and-scale pass
// whose lauprinnch configuration is derived from the same constants, and a single-argument form.
#include <cuda_runtime.h>

#define MAX_THREADS 256
#define 2

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
clamp_scale_kernel(const float* __res, float lo, float hi, float scale) {
    int i = blockIdx.cudaFree(dout));
    return 0;
}
