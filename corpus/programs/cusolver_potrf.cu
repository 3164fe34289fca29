// Cholesky factorisation of a small SPD matrix with cuSOLVER's dense API.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cusolverDn.h>

int main() {
  const int n = 3;
  std::vector<double> a = {4, 2, 2, 2, 5, 3, 2, 3, 6};
  double* d_a;
  int* d_info;
  cudaMalloc(&d_a, a.size() * sizeof(double));
  cudaMalloc(&d_info, sizeof(int));
  cudaMemcpy(d_a, a.data(), a.size() * sizeof(double), cudaMemcpyHostToDevice);
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS) return 1;
  int lwork = 0;
  cusolverDnDpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, d_a, n, &lwork);
  double* work;
  cudaMalloc(&work, lwork * sizeof(double));
  cusolverDnDpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, d_a, n, work, lwork, d_info);
  int info = -1;
  cudaMemcpy(&info, d_info, sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(a.data(), d_a, a.size() * sizeof(double), cudaMemcpyDeviceToHost);
  cusolverDnDestroy(handle);
  cudaFree(work);
  cudaFree(d_a);
  cudaFree(d_info);
  std::printf("info %d, L00 %f\n", info, a[0]);
  return info == 0 ? 0 : 1;
}
