// FIR filter whose taps live in __constant__ memory, uploaded with cudaMemcpyToSymbol, plus a
// polynomial evaluated with Horner's rule from a second constant array.
#include <cuda_runtime.h>

#define MAX_TAPS 32
#define POLY_DEGREE 5

__constant__ float c_taps[MAX_TAPS];
__constant__ float c_poly[POLY_DEGREE + 1];
__constant__ int c_num_taps;

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

// y[i] = sum_k taps[k] * x[i - k] (x taken as 0 before the start), then p(y[i]).
__global__ void fir_poly_kernel(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float acc = 0.f;
    for (int k = 0; k < c_num_taps; ++k)
        if (i - k >= 0) acc += c_taps[k] * x[i - k];
    float p = c_poly[POLY_DEGREE];
    for (int d = POLY_DEGREE - 1; d >= 0; --d) p = p * acc + c_poly[d];
    y[i] = p;
}

extern "C" int fir_poly_f32(const float* x, float* y, int n, const float* taps, int num_taps, const float* poly6) {
    if (num_taps < 1 || num_taps > MAX_TAPS) return -1;
    if (n <= 0) return 0;
    CHECK(cudaMemcpyToSymbol(c_taps, taps, num_taps * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c_poly, poly6, (POLY_DEGREE + 1) * sizeof(float)));
    CHECK(cudaMemcpyToSymbol(c_num_taps, &num_taps, sizeof(int), 0, cudaMemcpyHostToDevice));
    float *dx, *dy;
    CHECK(cudaMalloc(&dx, n * sizeof(float)));
    CHECK(cudaMalloc(&dy, n * sizeof(float)));
    CHECK(cudaMemcpy(dx, x, n * sizeof(float), cudaMemcpyHostToDevice));
    fir_poly_kernel<<<(n + 255) / 256, 256>>>(dx, dy, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, dy, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    return 0;
}
