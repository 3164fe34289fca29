// A kernel annotated with __launch_bounds__(MAX_THREADS, MIN_BLOCKS): a clamp-and-scale pass
// whose launch configuration is derived from the same constants, and a single-argument form.
#include <cuda_runtime.h>

#define MAX_THREADS 256
#define MIN_BLOCKS 2

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void __launch_bounds__(MAX_THREADS, MIN_BLOCKS)
clamp_scale_kernel(const float* __restrict__ in, float* __restrict__ out, int n, float lo, float hi, float scale) {
    int i = blockIdx.x * MAX_THREADS + threadIdx.x;
    if (i < n) out[i] = fminf(fmaxf(in[i], lo), hi) * scale;
}

__global__ void __launch_bounds__(128) abs_diff_kernel(const float* a, const float* b, float* out, int n) {
    int i = blockIdx.x * 128 + threadIdx.x;
    if (i < n) out[i] = fabsf(a[i] - b[i]);
}

extern "C" int clamp_scale_f32(const float* in, float* out, int n, float lo, float hi, float scale) {
    if (n <= 0) return 0;
    float *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CHECK(cudaMalloc(&d_out, n * sizeof(float)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(float), cudaMemcpyHostToDevice));
    clamp_scale_kernel<<<(n + MAX_THREADS - 1) / MAX_THREADS, MAX_THREADS>>>(d_in, d_out, n, lo, hi, scale);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}

extern "C" int abs_diff_f32(const float* a, const float* b, float* out, int n) {
    if (n <= 0) return 0;
    float *da, *db, *dout;
    CHECK(cudaMalloc(&da, n * sizeof(float)));
    CHECK(cudaMalloc(&db, n * sizeof(float)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(da, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, b, n * sizeof(float), cudaMemcpyHostToDevice));
    abs_diff_kernel<<<(n + 127) / 128, 128>>>(da, db, dout, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(da));
    CHECK(cudaFree(db));
    CHECK(cudaFree(dout));
    return 0;
}
