// Double-precision dot product and DAXPY: grid-stride partial sums, shared-memory block
// reduction, and atomicAdd on a double (compute capability 6.0+).
#include <cuda_runtime.h>

#define THREADS 256

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void ddot_kernel(int n, const double* x, const double* y, double* result) {
    __shared__ double cache[THREADS];
    double temp = 0.0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) temp += x[i] * y[i];
    cache[threadIdx.x] = temp;
    __syncthreads();
    for (int s = blockDim.x / 2; s != 0; s /= 2) {
        if (threadIdx.x < s) cache[threadIdx.x] += cache[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) atomicAdd(result, cache[0]);
}

__global__ void daxpy_kernel(int n, double a, const double* x, double* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = fma(a, x[i], y[i]);
}

// Computes y <- a*x + y and then *dot = x . y (with the updated y).
extern "C" int daxpy_ddot_f64(int n, double a, const double* x, double* y, double* dot) {
    double *dx, *dy, *dr;
    int m = n > 0 ? n : 1;
    CHECK(cudaMalloc(&dx, m * sizeof(double)));
    CHECK(cudaMalloc(&dy, m * sizeof(double)));
    CHECK(cudaMalloc(&dr, sizeof(double)));
    CHECK(cudaMemset(dr, 0, sizeof(double)));
    if (n > 0) {
        CHECK(cudaMemcpy(dx, x, n * sizeof(double), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(dy, y, n * sizeof(double), cudaMemcpyHostToDevice));
        daxpy_kernel<<<(n + THREADS - 1) / THREADS, THREADS>>>(n, a, dx, dy);
        CHECK(cudaGetLastError());
        int blocks = (n + THREADS - 1) / THREADS;
        if (blocks > 32) blocks = 32;
        ddot_kernel<<<blocks, THREADS>>>(n, dx, dy, dr);
        CHECK(cudaGetLastError());
        CHECK(cudaMemcpy(y, dy, n * sizeof(double), cudaMemcpyDeviceToHost));
    }
    CHECK(cudaMemcpy(dot, dr, sizeof(double), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dr));
    return 0;
}
