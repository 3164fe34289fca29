// Work-efficient (Blelloch) exclusive prefix sum over arbitrary n: each block scans 2 * BLOCK
// elements in shared memory (up-sweep, clear, down-sweep), block totals are scanned
// recursively, then added back to every block.
#include <cuda_runtime.h>

#define BLOCK 128
#define ELEMS (2 * BLOCK)

#define CHECK(call)                                   \
    do {                                              \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void blelloch_block_kernel(const int* in, int* out, int* block_totals, int n) {
    __shared__ int temp[ELEMS];
    int t = threadIdx.x;
    int base = blockIdx.x * ELEMS;
    temp[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    temp[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = ELEMS >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (block_totals) block_totals[blockIdx.x] = temp[ELEMS - 1];
        temp[ELEMS - 1] = 0;
    }
    for (int d = 1; d < ELEMS; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int ai = offset * (2 * t + 1) - 1;
            int bi = offset * (2 * t + 2) - 1;
            int x = temp[ai];
            temp[ai] = temp[bi];
            temp[bi] += x;
        }
    }
    __syncthreads();
    if (base + 2 * t < n) out[base + 2 * t] = temp[2 * t];
    if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = temp[2 * t + 1];
}

__global__ void add_block_offsets_kernel(int* data, const int* offsets, int n) {
    int i = blockIdx.x * ELEMS + threadIdx.x;
    int add = offsets[blockIdx.x];
    if (i < n) data[i] += add;
    if (i + BLOCK < n) data[i + BLOCK] += add;
}

static int scan_device(const int* d_in, int* d_out, int n) {
    int blocks = (n + ELEMS - 1) / ELEMS;
    int* d_totals;
    CHECK(cudaMalloc(&d_totals, blocks * sizeof(int)));
    blelloch_block_kernel<<<blocks, BLOCK>>>(d_in, d_out, d_totals, n);
    CHECK(cudaGetLastError());
    if (blocks > 1) {
        int* d_scanned;
        CHECK(cudaMalloc(&d_scanned, blocks * sizeof(int)));
        int rc = scan_device(d_totals, d_scanned, blocks);
        if (rc != 0) return rc;
        add_block_offsets_kernel<<<blocks, BLOCK>>>(d_out, d_scanned, n);
        CHECK(cudaGetLastError());
        CHECK(cudaFree(d_scanned));
    }
    CHECK(cudaFree(d_totals));
    return 0;
}

extern "C" int exclusive_scan_i32(const int* in, int* out, int n) {
    if (n <= 0) return 0;
    int *d_in, *d_out;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    int rc = scan_device(d_in, d_out, n);
    if (rc != 0) return rc;
    CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    return 0;
}
