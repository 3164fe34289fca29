// hipcpu: a minimal hipBLAS for the host: handles, streams, pointer modes and GEMM (S, D), with
// hipBLAS's enum values and BLAS semantics: column-major storage, op(A) is m x k, op(B) is k x n,
// C = alpha * op(A) * op(B) + beta * C; C is not read when beta == 0, and A and B are not read
// when alpha == 0 or k == 0. Arguments are checked as rocBLAS does (negative sizes, leading
// dimensions below the row count, null pointers); a null handle gives NOT_INITIALIZED, which is
// how hipBLAS reports rocBLAS's invalid_handle. Products accumulate in the element type.
#pragma once

#include <hip/hip_runtime.h>

typedef enum {
    HIPBLAS_STATUS_SUCCESS = 0,
    HIPBLAS_STATUS_NOT_INITIALIZED = 1,
    HIPBLAS_STATUS_ALLOC_FAILED = 2,
    HIPBLAS_STATUS_INVALID_VALUE = 3,
    HIPBLAS_STATUS_MAPPING_ERROR = 4,
    HIPBLAS_STATUS_EXECUTION_FAILED = 5,
    HIPBLAS_STATUS_INTERNAL_ERROR = 6,
    HIPBLAS_STATUS_NOT_SUPPORTED = 7,
    HIPBLAS_STATUS_ARCH_MISMATCH = 8,
    HIPBLAS_STATUS_HANDLE_IS_NULLPTR = 9,
    HIPBLAS_STATUS_INVALID_ENUM = 10,
    HIPBLAS_STATUS_UNKNOWN = 11,
} hipblasStatus_t;

typedef enum {
    HIPBLAS_OP_N = 111,
    HIPBLAS_OP_T = 112,
    HIPBLAS_OP_C = 113,
} hipblasOperation_t;

typedef enum {
    HIPBLAS_POINTER_MODE_HOST = 0,
    HIPBLAS_POINTER_MODE_DEVICE = 1,
} hipblasPointerMode_t;

/// A hipBLAS context: its stream and pointer mode.
struct hipcpuBlasHandle {
    hipStream_t stream;
    hipblasPointerMode_t pointer_mode;
};
typedef hipcpuBlasHandle* hipblasHandle_t;

inline hipblasStatus_t hipblasCreate(hipblasHandle_t* handle) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    *handle = new hipcpuBlasHandle{nullptr, HIPBLAS_POINTER_MODE_HOST};
    return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasDestroy(hipblasHandle_t handle) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    delete handle;
    return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetStream(hipblasHandle_t handle, hipStream_t stream) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    handle->stream = stream;
    return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasGetStream(hipblasHandle_t handle, hipStream_t* stream) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!stream) return HIPBLAS_STATUS_INVALID_VALUE;
    *stream = handle->stream;
    return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasSetPointerMode(hipblasHandle_t handle, hipblasPointerMode_t mode) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (mode != HIPBLAS_POINTER_MODE_HOST && mode != HIPBLAS_POINTER_MODE_DEVICE) return HIPBLAS_STATUS_INVALID_ENUM;
    handle->pointer_mode = mode;
    return HIPBLAS_STATUS_SUCCESS;
}
inline hipblasStatus_t hipblasGetPointerMode(hipblasHandle_t handle, hipblasPointerMode_t* mode) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return HIPBLAS_STATUS_INVALID_VALUE;
    *mode = handle->pointer_mode;
    return HIPBLAS_STATUS_SUCCESS;
}

namespace hipcpu {
namespace blas {
inline bool valid_op(hipblasOperation_t op) {
    return op == HIPBLAS_OP_N || op == HIPBLAS_OP_T || op == HIPBLAS_OP_C;
}

/// Column-major GEMM (real types, so OP_C is OP_T). Device and host pointers are the same memory
/// here, so both pointer modes read alpha and beta directly.
template <typename T>
hipblasStatus_t gemm(hipblasHandle_t handle, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                     const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!valid_op(ta) || !valid_op(tb)) return HIPBLAS_STATUS_INVALID_ENUM;
    const bool an = ta == HIPBLAS_OP_N, bn = tb == HIPBLAS_OP_N;
    const int a_rows = an ? m : k, b_rows = bn ? k : n;
    auto at_least_1 = [](int v) { return v > 1 ? v : 1; };
    if (m < 0 || n < 0 || k < 0 || lda < at_least_1(a_rows) || ldb < at_least_1(b_rows) || ldc < at_least_1(m))
        return HIPBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return HIPBLAS_STATUS_SUCCESS;
    if (!alpha || !beta) return HIPBLAS_STATUS_INVALID_VALUE;
    const T a = *alpha, b = *beta;
    if ((k == 0 || a == T(0)) && b == T(1)) return HIPBLAS_STATUS_SUCCESS;
    if (!C || (k != 0 && a != T(0) && (!A || !B))) return HIPBLAS_STATUS_INVALID_VALUE;
    for (int j = 0; j < n; ++j) {
        for (int i = 0; i < m; ++i) {
            T acc = T(0);
            if (a != T(0)) {
                for (int p = 0; p < k; ++p) {
                    const T x = an ? A[i + size_t(p) * lda] : A[p + size_t(i) * lda];
                    const T y = bn ? B[p + size_t(j) * ldb] : B[j + size_t(p) * ldb];
                    acc += x * y;
                }
            }
            T& c = C[i + size_t(j) * ldc];
            c = b == T(0) ? a * acc : a * acc + b * c;
        }
    }
    return HIPBLAS_STATUS_SUCCESS;
}
}  // namespace blas
}  // namespace hipcpu

inline hipblasStatus_t hipblasSgemm(hipblasHandle_t handle, hipblasOperation_t transa, hipblasOperation_t transb,
                                    int m, int n, int k, const float* alpha, const float* A, int lda, const float* B,
                                    int ldb, const float* beta, float* C, int ldc) {
    return ::hipcpu::blas::gemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
inline hipblasStatus_t hipblasDgemm(hipblasHandle_t handle, hipblasOperation_t transa, hipblasOperation_t transb,
                                    int m, int n, int k, const double* alpha, const double* A, int lda,
                                    const double* B, int ldb, const double* beta, double* C, int ldc) {
    return ::hipcpu::blas::gemm(handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
