// C = alpha * A * B + beta * C through cuBLAS, with the library's status checked.
#include <cstdio>
#include <vector>
#include <cublas_v2.h>
#include <cuda_runtime.h>

#define CUBLAS_OK(call)                                   \
  do {                                                    \
    cublasStatus_t s_ = (call);                           \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                    \
      std::fprintf(stderr, "cublas error %d\n", (int)s_); \
      return 1;                                           \
    }                                                     \
  } while (0)

int main() {
  const int n = 64;
  std::vector<float> a(n * n, 1.f), b(n * n, 2.f), c(n * n, 0.f);
  float *da, *db, *dc;
  cudaMalloc(&da, n * n * sizeof(float));
  cudaMalloc(&db, n * n * sizeof(float));
  cudaMalloc(&dc, n * n * sizeof(float));
  cudaMemcpy(da, a.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), n * n * sizeof(float), cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  CUBLAS_OK(cublasCreate(&handle));
  const float alpha = 1.f, beta = 0.f;
  CUBLAS_OK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, da, n, db, n, &beta, dc, n));
  CUBLAS_OK(cublasDestroy(handle));
  cudaMemcpy(c.data(), dc, n * n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  std::printf("c[0] = %f\n", c[0]);
  return c[0] == 2.f * n ? 0 : 1;
}
