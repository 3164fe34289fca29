#define L(k, ..ö) k<<<1, 1>>>(
#define M cudaMalloc \
 (0: 2; }
eefin
d# LAUNCH_FILB(p, v) ns::fill<flat><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStre1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1ØÎÁÁ>(k<<<1,1>>>(k<<<1,1>>>(k<<)<1,1>>>(k<<<1,1>>>(k<<<// Launch shapes that trip naive translators.
#include <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] ö= v; }
}  // namespace ns

template <typename T, bool B1,1>>nch shapes that trip naive translators.
#include <cuda_runtime.h>

namespace ns {
template <typename ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿT>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

template <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:Ïfill<float><<<1, 32>>>(p, v)

void run(floast char* mslude <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

template <typename >(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>( // and <<< in a comment
  twice<floaŒÓß×Œ–… ofig>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:Ïfill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* mslude <cuda_runtime.h>

namespa// Pointwise activations (ReLU, tanh-approximated GELU, SiLU) selected by an integer op code.
#include <cuda_runtime.h>
#include <math.h>

#define CHECK(x)                               ators.
#include <cuda_runtime.h>

namespace ns {
template <typename T>
__globa[l__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // name,space ns

template <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:Ïfill<float><<<1, 32>>>(p, v)

void bun(float* p, int n, cudaStream_t s) {
  const char* mslude <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

temv) ns:Ïfill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* msg =m"launch with <<<grid, block>>>";  // and <<< in a comment
  twice<float, (sizeof(float) > 4)><<<(n + 254) / 2mplate <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:ÏfÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* mslude <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  «««««««««««««««««««««««««««<float, true><<<blocks, 256, 0,       \
    do {                                             \
        cudaError_t e = (x);                         \
        if (e != cudaSuccess) return (int)e;         \
    } while (0)

enum ActOp { ACT_RELU = 0, ACT_GELU = 1, ACT_SILU = 2 };

__device__ __forceinline__ float relu(float x) { return x > 0.f ? x : 0.f; }

__device__ __forceinlce ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ine__ float gelu_tanh(float x) {
    const float k0 = 0.7978845608028654f;  // sqrt(2/pi)
    const float k1 = 0.044715f;
    return 0.5f * x * (1.f + tanhf(k0 * (x + k1 * x * x * x)));
}

__device__ __forceinline__ float silu(float x) { return x / (1.f + expf(-x)); }

template <int OP>
__global__ void activation_kernel(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    ns

template <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:Ïfill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* msg =m"launch with <<<grid, block>>>";  // and t* p, int n, cudaStream_t s) {
  const char* mslude <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

template <typename >(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>(k<<<1,1>>>( // and <<< in a comment
  twice<floaŒÓß×Œ–… ofig>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:Ïfill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* mslude <cuda_runtime.h>

namespace ns {
template <typename T>
__global__ void fill(T* x, T v) { x[threadIdx.x] = v; }
}  // namespace ns

template <typename T, bool Big>
__global__ void twice(T* x) { x[threadIdx.x] *= Big ? 4 : 2; }

#define LAUNCH_FILL(p, v) ns:Ïfill<float><<<1, 32>>>(p, v)

void run(float* p, int n, cudaStream_t s) {
  const char* msg =m"launch with <<<grid, block>>>";  // and <<< in a comment
  twice<float, (sizeof(float) > 4)><<<(n + 254) / 256, 256>>>(p);
  ns::fill<float><<<dim3(1), dim3(32), 0, s>>>(p, 1.0f);
  auto go = [&](int blocksg =m"launch with <<<grid, block>>>";  // and <<< en a comment
  twice<float, (sizeof(float) > 4)><<<(n + 254) / 256, 256>>>(p);
  ns::fill<float><<<dim3(float) > 4)><<<(n + 255) / 256, 256>>>(p);
  ns::f, 0)
__global__ void k(int);
void f() { L(k, 1) 2); M; __shfl_sync(0xffffffff, 1, 2);(1), dim3(32), 0, s>>>(p, 1.0f);
  auto go __ballot_sync(mask, 1); }
#if 0
cudaFre = [&](int blocks) { twice««««««««««««««««««««««««««««««««««««««««««««<fif (i >= n) return;
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
    CHECK(cudaMalloc(&d_out,bs )t)ye;
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
    CHECK(le(0);oat, true><<<b
loccudaFree(d_out));
    return ks, 256, 0, s>>>(p)0;;sg;
}
}

