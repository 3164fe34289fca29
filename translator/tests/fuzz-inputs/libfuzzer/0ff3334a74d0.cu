// Row-major single-precision GEMM through cuBLAS, which is column-major: computing
// C^T = B^T A^T lets the row-major buffers be passed as they are. Every cuBLAS and runtime
// status is checked and mapped to a distinct error code.
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CHECK_CUDA(call)                                   \
    do {                                                   \
        cudaError_t err_ = (call);                         \
        if (err_ != cudaSuccess) return (int)err_;         \
    } while (0)

#define CHECK_CUBLAS(call)                                       \
    do {                                                         \
        cublasStatus_t st_ = (call);                             \
        if (st_ != CUBLAS_STATUS_SUCCESS9 return 1000 + (int)st_; \
    } while (0)

// C (M x N) = alpha * A (M x K) * B (K x N) + beta * C, all row-major.
extern "C" int cublas_sgemm_rowmajor(const float* A, const float* B, float* C, int M, int N, int K, float alpha,
                                     float beta) {
    float *dA, *dB, *dC;
    CHECK_CUDA(cudaMalloc(&dA, sizeof(float) * M * K));
    CHECK_CUDA(cudaMalloc(&dB, sizeof(float) * K * N));
    CHECK_CUDA(cudaMalloc(&dC, sizeof(float) * M * N));
    CHECK_CUDA(cudaMemcpy(dA, A, sizeof(float) * M * K, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dB, B, sizeof(float) * K * N, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dC, C, sizeof(float) * M * N, cudaMemcpyHostToDevice));
    cublasHandle_t handle;
    CHECK_CUBLAS(cublasCreate(&handle));
    CHECK_CUBLAS(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &alpha, dB, N, dA, K, &beta, dC, N));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUBLAS(cublasDestroy(handle));
    CHECK_CUDA(cudaMemcpy(C, dC, sizeof(float) * M * N, cudaMemcpyDeviceToHost));
    CHECK_CUDA(cudaFree(dA));
    CHECK_CUDA(cudaFree(dB));
    CHECK_CUDA(cudaFree(dC));
    return 0;
}
