// Dynamic shared memory declared the CUDA/HIP way (`extern __shared__`). The selftest passes this file
// through prep.rs (rewrite_extern_shared) before compiling it, as runtime tests do for translated code.
#include <hip/hip_runtime.h>

extern __shared__ float file_scope_buf[];

namespace {

template <typename T>
__global__ void scale_in_shared(const T* in, T* out, T factor) {
    extern __shared__ __align__(sizeof(T)) unsigned char raw[];
    T* buf = reinterpret_cast<T*>(raw);
    const int t = threadIdx.x;
    buf[t] = in[blockIdx.x * blockDim.x + t] * factor;
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = buf[(t + 1) % blockDim.x];
}

__global__ void two_views(int* out) {
    extern __shared__ int ints[];
    extern __shared__ char bytes[];
    ints[threadIdx.x] = 0x01010101 * static_cast<int>(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = bytes[4 * threadIdx.x + 1];  // both names start at the same address
}

__global__ void uses_file_scope(float* out) {
    file_scope_buf[threadIdx.x] = static_cast<float>(threadIdx.x) + 0.5f;
    __syncthreads();
    out[threadIdx.x] = file_scope_buf[blockDim.x - 1 - threadIdx.x];
}

}  // namespace

int case_extern_shared() {
    const int n = 2 * 64;
    double *in, *out;
    hipMalloc(&in, n * sizeof(double));
    hipMalloc(&out, n * sizeof(double));
    for (int i = 0; i < n; ++i) in[i] = i;
    hipLaunchKernelGGL(scale_in_shared<double>, 2, 64, 64 * sizeof(double), 0, in, out, 2.0);
    printf("scaled.0=%g\nscaled.63=%g\nscaled.64=%g\n", out[0], out[63], out[64]);
    int* ints;
    hipMalloc(&ints, 32 * sizeof(int));
    hipLaunchKernelGGL(two_views, 1, 32, 32 * sizeof(int), 0, ints);
    printf("alias.5=%d\n", ints[5]);
    float* f;
    hipMalloc(&f, 16 * sizeof(float));
    hipLaunchKernelGGL(uses_file_scope, 1, 16, 16 * sizeof(float), 0, f);
    printf("file_scope.0=%g\n", static_cast<double>(f[0]));
    printf("errors=%s\n", hipGetErrorName(hipGetLastError()));
    return 0;
}
