// Sparse matrix-vector product y = A x for a CSR matrix: a scalar kernel (one thread per row) and
// a vector kernel (one warp per row, lanes stride over the row, shuffle reduction over warpSize).
#include <cuda_runtime.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void spmv_csr_scalar_kernel(int rows, const int* row_ptr, const int* col_idx, const float* vals,
                                       const float* x, float* y) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < rows) {
        float dot = 0.f;
        for (int j = row_ptr[row]; j < row_ptr[row + 1]; ++j) dot += vals[j] * x[col_idx[j]];
        y[row] = dot;
    }
}

__global__ void spmv_csr_vector_kernel(int rows, const int* row_ptr, const int* col_idx, const float* vals,
                                       const float* x, float* y) {
    int thread_id = blockIdx.x * blockDim.x + threadIdx.x;
    int warp_id = thread_id / warpSize;
    int lane = thread_id % warpSize;
    int row = warp_id;
    if (row < rows) {
        float sum = 0.f;
        for (int j = row_ptr[row] + lane; j < row_ptr[row + 1]; j += warpSize) sum += vals[j] * x[col_idx[j]];
        for (int offset = warpSize / 2; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffff, sum, offset);
        if (lane == 0) y[row] = sum;
    }
}

static int spmv_run(bool vector, int rows, int cols, int nnz, const int* row_ptr, const int* col_idx,
                    const float* vals, const float* x, float* y) {
    int *d_rp, *d_ci;
    float *d_v, *d_x, *d_y;
    CHECK(cudaMalloc(&d_rp, (rows + 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_ci, (nnz > 0 ? nnz : 1) * sizeof(int)));
    CHECK(cudaMalloc(&d_v, (nnz > 0 ? nnz : 1) * sizeof(float)));
    CHECK(cudaMalloc(&d_x, cols * sizeof(float)));
    CHECK(cudaMalloc(&d_y, rows * sizeof(float)));
    CHECK(cudaMemcpy(d_rp, row_ptr, (rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    if (nnz > 0) {
        CHECK(cudaMemcpy(d_ci, col_idx, nnz * sizeof(int), cudaMemcpyHostToDevice));
        CHECK(cudaMemcpy(d_v, vals, nnz * sizeof(float), cudaMemcpyHostToDevice));
    }
    CHECK(cudaMemcpy(d_x, x, cols * sizeof(float), cudaMemcpyHostToDevice));
    if (vector) {
        int warp = 0, dev = 0;
        CHECK(cudaGetDevice(&dev));
        CHECK(cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev));
        int threads = 256;
        int rows_per_block = threads / warp;
        spmv_csr_vector_kernel<<<(rows + rows_per_block - 1) / rows_per_block, threads>>>(rows, d_rp, d_ci, d_v, d_x, d_y);
    } else {
        spmv_csr_scalar_kernel<<<(rows + 127) / 128, 128>>>(rows, d_rp, d_ci, d_v, d_x, d_y);
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(y, d_y, rows * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_rp));
    CHECK(cudaFree(d_ci));
    CHECK(cudaFree(d_v));
    CHECK(cudaFree(d_x));
    CHECK(cudaFree(d_y));
    return 0;
}

extern "C" int spmv_csr_scalar_f32(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx,
                                   const float* vals, const float* x, float* y) {
    if (rows <= 0) return 0;
    return spmv_run(false, rows, cols, nnz, row_ptr, col_idx, vals, x, y);
}

extern "C" int spmv_csr_vector_f32(int rows, int cols, int nnz, const int* row_ptr, const int* col_idx,
                                   const float* vals, const float* x, float* y) {
    if (rows <= 0) return 0;
    return spmv_run(true, rows, cols, nnz, row_ptr, col_idx, vals, x, y);
}
