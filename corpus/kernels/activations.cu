// Pointwise activations (ReLU, tanh-approximated GELU, SiLU) selected by an integer op code.
#include <cuda_runtime.h>
#include <math.h>

#define CHECK(x)                                     \
    do {                                             \
        cudaError_t e = (x);                         \
        if (e != cudaSuccess) return (int)e;         \
    } while (0)

enum ActOp { ACT_RELU = 0, ACT_GELU = 1, ACT_SILU = 2 };

__device__ __forceinline__ float relu(float x) { return x > 0.f ? x : 0.f; }

__device__ __forceinline__ float gelu_tanh(float x) {
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * x * (1.f + tanhf(k0 * (x + k1 * x * x * x)));
}

__device__ __forceinline__ float silu(float x) { return x / (1.f + expf(-x)); }

template <int OP>
__global__ void activation_kernel(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float v = in[i];
    if (OP == ACT_RELU) out[i] = relu(v);
    else if (OP == ACT_GELU) out[i] = gelu_tanh(v);
    else out[i] = silu(v);
}

extern "C" int activation_f32(const float* in, float* out, int n, int op) {
    if (n <= 0) return 0;
    float *d_in, *d_out;
    size_t bytes = (size_t)n * sizeof(float);
    CHECK(cudaMalloc(&d_in, bytes));
    CHECK(cudaMalloc(&d_out, bytes));
    CHECK(cudaMemcpy(d_in, in, bytes, cudaMemcpyHostToDevice));
    dim3 block(256);
    dim3 grid((n + block.x - 1) / block.x);
    switch (op) {
        case ACT_RELU: activation_kernel<ACT_RELU><<<grid, block>>>(d_in, d_out, n); break;
        case ACT_GELU: activation_kernel<ACT_GELU><<<grid, block>>>(d_in, d_out, n); break;
        case ACT_SILU: activation_kernel<ACT_SILU><<<grid, block>>>(d_in, d_out, n); break;
        default: cudaFree(d_in); cudaFree(d_out); return -1;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, bytes, cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
