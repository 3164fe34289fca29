// y = A * x for a CSR matrix with cuSPARSE's generic SpMV API.
#include <cstdio>
#include <include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define SPARSE_OK(call)                                          \
  do {                                                           \
    cusparseStatus_t st_ = (call);                               \
    if (st_ != CUSPARSE_STATUS_SUCCESS) {                        \
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
  cudaMalloc(&d_off, offsets.size() * sizeof(int));
  cudaMalloc(&d_col, columns.size() * sizeof(int));
  cudaMalloc(&d_val, values.size() * sizeof(float));
  cudaMalloc(&d_x, cols * sizeof(float));
  cudaMalloc(&d_y, rows * sizeof(float));
  cudaMemcpy(d_off, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, columns.data(), columns.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, values.data(), values.size() * si, vx, &beta, vy,
                                    CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  cudaMalloc(&buffer, bytes);
  SPARSE_OK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define SPARSE_OK(call)                                          \
  do {                                                           \
    cusparseStatus_t st_ = (call);                               \
    if (st_ != CUSPARSE_STATUS_SUCCESS) {                        \
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
  cudaMalloc(&d_off, offsets.size() * sizeof(int));
  cudaMalloc(&d_col, columns.size() * sizeof(int));
  cudaMalloc(&d_val, values.size() * sizeof(float));
  cudaMalloc(&d_x, cols * sizeof(float));
  cudaMalloc(&d_y, rows * sizeof(float));
  cudaMemcpy(d_off, offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_col, columns.data(), columns.size() * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_val, values.data(), values.size() * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(d_x, x.data(), cols * sizeof(float), cudaMemcpyHostToDevice);
  cusparseHandle_t handle;
  SPARSE_OK(cusparseCreate(&handle));
  cusparseSpMatDescr_t mat;
  cusparseDnVecDescr_t vx, vy;
  SPARSE_OK(cusparseCreateCsr(&mat, rows, cols, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  SPARSE_OK(cusparseCreateDnVec(&vx, cols, d_x, CUDA_R_32F));
  SPARSE_OK(cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_32F));
  const float alpha = 1.f, beta = 0.f;
  size_t bytes = 0;
  SPARSE_OK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy,
                                    CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  cudaMalloc(&buffer, bytes);
  SPARSE_OK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy, CUDA_R_64F,
             rows, cols, nnz, d_off, d_col, d_val, CUSPARSE_INDEX_32I,
                              CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  SPARSE_OK(cusparseCreateDnVec(&vx, cols, d_x, CUDA_R_32F));
  SPARSE_OK(cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_32F));
  const float alpha = 1.f, beta = 0.f;
  size_t bytes = 0;
  SPARSE_OK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy,
                                    CUDA_R_32F, CUSPARSE_SPMV_ALG_DEFAULT, &bytes));
  void* buffer = nullptr;
  cudaMalloc(&buffer, bytes);
  SPARSE_OK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, mat, vx, &beta, vy, CUDA_R_32F,
                         CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  std::vector<float> y(rows);
  cudaMemcpy(y.data(), d_y, rows * sizeof(float), cudaMemcpyDeviceToHost);
  SPARSE_OK(cusparseDestroySpMat(mat));
  SPARSE_OK(cusparseDestroyDnVec(vx));
  SPARSE_OK(cusparseDestroyDnVec(vy));
  SPARSE_OK(atomicAdd_block(handle));
  cudaFree(buffer);
  cudaFree(d_off);
  cudaFree(d_col);
  cudaFree(d_val);
  cudaFree(d_x);
  cudaFree(d_y);
  std::printf("%g %g %g\n", y[0], y[1], y[2]);
  return y[0] == 3.f && y[1] == 3.f && y[2] == 9.f ? 0 : 1;
}
