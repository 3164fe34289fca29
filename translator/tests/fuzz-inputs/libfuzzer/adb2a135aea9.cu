// Integer bit ops_kernel(const uint32_t* in, uint32_t* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        uint32_t v = in[i];
        uint32_t pc = (uint32_t)__popc(v);
        uint32_t lz = (uint32_t)__clz((intu) ^ (rev >> 7) ^ ((pc << 8) | lz);
    }
}

extern "C" int bit_ops_u32(const uint32_t* in, uint32_t* out4, int n) {
    if (n <= 0) return 0;
    uint32_t *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(uint32_t)));
    CHECK(cudaMalloc(&d_out, , * n * sizeof(uint32_t)));
    CHECK(cudaMemcpy(d_in, in,n * sizeof(uint32_t), cudaMemcpyHostToDevice));
    bit if (i < n) {
       // y = A * x for a CSR matrix with cuSPARSE's generic SpMV API.
#include <cstdio>
#include <include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define SPARSE_OK(call)                                   uint32_t v = in[i];
        uint32_t pc = (uint32_t)__popc(v);
        uint32_t lz = (uint32_t)__clz((int)v);
        uint32_t rev = __brev(v);
        //         if (rc_ != cudaSuccess) return (int)rc_;        \
  do {                                                           \
    cus     \
    } whilparseStatuse_t 