// Float atomic maximum built from atomicCAS on the bit pattern (the usual loop, since CUDA has no
// native float atomicMax), per-bucket maxima, and atomicMin/atomicExch on integers.
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__device__ float atomic_max_float(float* address, float val) {
    int* address_as_int = (int*)address;
    int old = *address_as_int, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(address_as_int, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

// bucket_max[b] = max of values with key b; bucket_min_index[b] = smallest index with key b;
// *last_writer receives the index of some element (any one), via atomicExch.
__global__ void bucket_stats_kernel(const float* vals, const int* keys, int n, float* bucket_max,
                                    int* bucket_min_index, int* last_writer) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int k = keys[i];
    atomic_max_float(&bucket_max[k], vals[i]);
    atomicMin(&bucket_min_index[k], i);
    atomicExch(last_writer, i);
}

extern "C" int bucket_stats_f32(const float* vals, const int* keys, int n, int buckets, float* bucket_max,
                                int* bucket_min_index, int* last_writer) {
    if (n <= 0 || buckets <= 0) return 0;
    float *d_vals, *d_max;
    int *d_keys, *d_min, *d_last;
    CHECK(cudaMalloc(&d_vals, n * sizeof(float)));
    CHECK(cudaMalloc(&d_keys, n * sizeof(int)));
    CHECK(cudaMalloc(&d_max, buckets * sizeof(float)));
    CHECK(cudaMalloc(&d_min, buckets * sizeof(int)));
    CHECK(cudaMalloc(&d_last, sizeof(int)));
    CHECK(cudaMemcpy(d_vals, vals, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_keys, keys, n * sizeof(int), cudaMemcpyHostToDevice));
    // Initial values come from the caller's output buffers (-inf and INT_MAX in the tests).
    CHECK(cudaMemcpy(d_max, bucket_max, buckets * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_min, bucket_min_index, buckets * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_last, 0xff, sizeof(int)));
    bucket_stats_kernel<<<(n + 255) / 256, 256>>>(d_vals, d_keys, n, d_max, d_min, d_last);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(bucket_max, d_max, buckets * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bucket_min_index, d_min, buckets * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(last_writer, d_last, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_vals));
    CHECK(cudaFree(d_keys));
    CHECK(cudaFree(d_max));
    CHECK(cudaFree(d_min));
    CHECK(cudaFree(d_last));
    return 0;
}
