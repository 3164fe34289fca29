// Monte-Carlo style use of the cuRAND device API: each thread initialises its own
// curandState with curand_init(seed, thread id, 0, ...) and draws `per_thread` uniforms in (0, 1].
// The test checks the range and the first two moments, since the exact sequence is generator
// specific (XORWOW on CUDA, rocRAND's XORWOW on AMD).
#include <cuda_runtime.h>
#include <curand_kernel.h>

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void setup_states_kernel(curandState* states, unsigned long long seed, int nthreads) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < nthreads) curand_init(seed, id, 0, &states[id]);
}

__global__ void draw_uniform_kernel(curandState* states, float* out, int nthreads, int per_thread) {
    int id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= nthreads) return;
    curandState local = states[id];
    for (int k = 0; k < per_thread; ++k) out[(size_t)k * nthreads + id] = curand_uniform(&local);
    states[id] = local;
}

extern "C" int curand_uniform_f32(unsigned long long seed, float* out, int nthreads, int per_thread) {
    if (nthreads <= 0 || per_thread <= 0) return 0;
    curandState* d_states;
    float* d_out;
    size_t total = (size_t)nthreads * per_thread;
    CHECK(cudaMalloc(&d_states, nthreads * sizeof(curandState)));
    CHECK(cudaMalloc(&d_out, total * sizeof(float)));
    int threads = 64;
    int blocks = (nthreads + threads - 1) / threads;
    setup_states_kernel<<<blocks, threads>>>(d_states, seed, nthreads);
    CHECK(cudaGetLastError());
    draw_uniform_kernel<<<blocks, threads>>>(d_states, d_out, nthreads, per_thread);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out, d_out, total * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_states));
    CHECK(cudaFree(d_out));
    return 0;
}
