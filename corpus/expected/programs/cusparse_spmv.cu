// y = A * x for a CSR matrix with cuSPARSE's generic SpMV API.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

#define SPARSE_OK(call)                                          \
  do {                                                           \
    hipsparseStatus_t st_ = (call);                              \
    if (st_ != HIPSPARSE_STATUS_SUCCESS) {                       \
      std::fprintf(stderr, "cusparse error %d\n", (int)st_);            \
      return 1;                                                  \
    }                                                            \
  } while (0)

int main() {
  // 3x3 matrix [[1 0 2] [0 3 0] [4 0 5]]
  const int rows = 3, cols = 3, nnz = 5;
  const std::vector<int> offsets = {0, 2, 3, 5}, columns = {0, 2, 1, 0, 2};
  const std::vector<float> values = {1, 2, 3, 4, 5}, x = {1, 1, 1};
  int *d_off, *d_col;
  float *d_val, *d_x, *d_y;
  hipMalloc(&d_off, offsets.size() * sizeof(int));
  hipMalloc(&d_col, columns.size() * sizeof(int));
  hipMalloc(&d_val, values.size() * sizeof(float));
  hipMalloc(&d_x, cols * sizeof(float));
  hipMalloc(&d_y, rows * sizeof(float));
  hipMemcpy(d_off, offsets.data(), offsets.size() * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_col, columns.data(), columns.size() * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_val, values.data(), values.size() * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(d_x, x.data(), cols * sizeof(float), hipMemcpyHostToDevice);
  hipsparseHandle_t handle;
  SPARSE_OK(hipsparseCreate(&handle));
  hipsparseSpMatDescr_t mat;
  hipsparseDnVecDescr_t vx, vy;
  SPARSE_OK(hipsparseCreateCsr(&mat, rows, cols, nnz, d_off, d_col, d_val, HIPSPARSE_INDEX_32I,
                              HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F));
  SPARSE_OK(hipsparseCreateDnVec(&vx, cols, d_x, HIP_R_32F));
  SPARSE_OK(hipsparseCreateDnVec(&vy, rows, d_y, HIP_R_32F));
  const float alpha = 1.f, beta = 0.f;
  size_t bytes = 0;
  SPARSE_OK(hipsparseSpMV_bufferSize(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy,
                                    HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  hipMalloc(&buffer, bytes);
  SPARSE_OK(hipsparseSpMV(handle, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy, HIP_R_32F,
                         HIPSPARSE_SPMV_ALG_DEFAULT, buffer));
  std::vector<float> y(rows);
  hipMemcpy(y.data(), d_y, rows * sizeof(float), hipMemcpyDeviceToHost);
  SPARSE_OK(hipsparseDestroySpMat(mat));
  SPARSE_OK(hipsparseDestroyDnVec(vx));
  SPARSE_OK(hipsparseDestroyDnVec(vy));
  SPARSE_OK(hipsparseDestroy(handle));
  hipFree(buffer);
  hipFree(d_off);
  hipFree(d_col);
  hipFree(d_val);
  hipFree(d_x);
  hipFree(d_y);
  std::printf("%g %g %g\n", y[0], y[1], y[2]);
  return y[0] == 3.f && y[1] == 3.f && y[2] == 9.f ? 0 : 1;
}
