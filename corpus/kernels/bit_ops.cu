// Integer bit intrinsics: population count, leading zeros, bit reverse, funnel mix.
#include <cuda_runtime.h>
#include <stdint.h>

#define CHECK(call)                                  \
    do {                                             \
        cudaError_t rc_ = (call);                    \
        if (rc_ != cudaSuccess) return (int)rc_;     \
    } while (0)

__global__ void bit_ops_kernel(const uint32_t* in, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uint32_t v = in[i];
        uint32_t pc = (uint32_t)__popc(v);
        uint32_t lz = (uint32_t)__clz((int)v);
        uint32_t rev = __brev(v);
        // Pack: reversed bits xor (popcount << 8 | leading zeros).
        out[4 * i + 0] = pc;
        out[4 * i + 1] = lz;
        out[4 * i + 2] = rev;
        out[4 * i + 3] = (v * 2654435761u) ^ (rev >> 7) ^ ((pc << 8) | lz);
    }
}

extern "C" int bit_ops_u32(const uint32_t* in, uint32_t* out4, int n) {
    if (n <= 0) return 0;
    uint32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_out, 4 * n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bit_ops_kernel<<<(n + 127) / 128, 128>>>(d_in, d_out, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(out4, d_out, 4 * n * sizeof(uint32_t), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
