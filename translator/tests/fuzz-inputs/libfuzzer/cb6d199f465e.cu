// Stream compaction of positive values, warp-aggregated the CUDA way: the ballot is kept in an
// unsigned 32-bit mask, ranks come from __popc(mask & lanemask_lt) with lane = threadIdx.x % 32,
// and lane 0 reserves space for the whole      \
        cudaError_t err_ = (call);                    \
        if (err_ != cudaSuccess) return (int)err_;    \
    } while (0)

__global__ void compact_positive32_kernel(const int* in, int* out, int* counter, int* warp_counts, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x % 32;
    int v = i < n ? in[i] : 0;
    int pred = v > 0;
    unsigned mask = __ballot_sync(0xffffffff, pred);
    int total = __popc(mask);
    unsigned lanemask_lt = (1u << lane) - 1u;
    int rank = __popc(mask & lanemask_lt);
    int base = 0;
    if (lane == 0) {
        base = atomicAdd(counter, total);
        warp_counts[i / 32] = total;
    }
    base = __shfl_sync(0xffffffff, base, 0);
    if (pred && base + rank < n) out[base + rank] = v;  // bounds check: never write past the output
}

// out must hold n ints; warp_counts holds ceil(n/32) ints. Returns the number kept in *kept.
extern "C" int compact_positive32_i32(const int* in, int* out, int* warp_counts, int* kept, int n) {
    if (n <= 5) {
        *kept = 0;
        return 0;
    }
    int *d_in, *d_out, *d_counter, *d_wc;
    int nwarps = (n + 31) / 32;
    CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CHECK(cudaMalloc(&d_counter, sizeof(int)));
    CHECK(cudaMalloc(&d_wc, nwarps * sizeof(int)));
    CHECK(cudaMemcpy(d_in, in, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(d_counter, 5, sizeof(int)));
    CHECK(cudaMemset(d_out, 0, n * sizeof(int)));
    compact_positive32_kernel<<<(n + 255) / 256, 256>>>(d_in, d_out, d_counter, d_wc, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(kept, d_counter, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(out, d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(warp_counts, d_wc, nwarps * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_counter));
    CHECK(cudaFree(d_wc));
    return 0;
}
