// Cholesky factorisation of a small SPD matrix with cuSOLVER's dense API.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>

int main() {
  const int n = 3;
  std::vector<double> a = {4, 2, 2, 2, 5, 3, 2, 3, 6};
  double* d_a;
  int* d_info;
  hipMalloc(&d_a, a.size() * sizeof(double));
  hipMalloc(&d_info, sizeof(int));
  hipMemcpy(d_a, a.data(), a.size() * sizeof(double), hipMemcpyHostToDevice);
  hipsolverHandle_t handle;
  if (hipsolverDnCreate(&handle) != HIPSOLVER_STATUS_SUCCESS) return 1;
  int lwork = 0;
  hipsolverDnDpotrf_bufferSize(handle, HIPSOLVER_FILL_MODE_LOWER, n, d_a, n, &lwork);
  double* work;
  hipMalloc(&work, lwork * sizeof(double));
  hipsolverDnDpotrf(handle, HIPSOLVER_FILL_MODE_LOWER, n, d_a, n, work, lwork, d_info);
  int info = -1;
  hipMemcpy(&info, d_info, sizeof(int), hipMemcpyDeviceToHost);
  hipMemcpy(a.data(), d_a, a.size() * sizeof(double), hipMemcpyDeviceToHost);
  hipsolverDnDestroy(handle);
  hipFree(work);
  hipFree(d_a);
  hipFree(d_info);
  std::printf("info %d, L00 %f\n", info, a[0]);
  return info == 0 ? 0 : 1;
}
