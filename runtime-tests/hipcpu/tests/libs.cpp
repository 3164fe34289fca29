// The library shims: hipRAND's device API (XORWOW), hipCUB's WarpReduce/BlockReduce and hipBLAS GEMM.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>
#include <hipcub/hipcub.hpp>
#include <hiprand/hiprand_kernel.h>

#include <cmath>

namespace {

// ---- hipRAND ----

// Thread t seeds subsequence t of seed 1234 and writes its first two numbers.
__global__ void rand_kernel(unsigned* out) {
    hiprandState s;
    hiprand_init(1234ull, threadIdx.x, 0, &s);
    out[2 * threadIdx.x] = hiprand(&s);
    out[2 * threadIdx.x + 1] = hiprand(&s);
}

}  // namespace

int case_rand() {
    hiprandState s;
    // Seed 0: x = {123456789 + t0, 362436069 ^ t0, 521288629 + t1, 88675123 ^ t1, 5783321 + t0},
    // d = 6615241 + t0 + t1 with t0 = 1228688033 * 0x2c7f967f, t1 = 2073658381 * 0xa03697cb (mod 2^32),
    // then the xorshift step; the same numbers come out of rocRAND's xorwow_engine.
    hiprand_init(0, 0, 0, &s);
    printf("seed0.0=%u\n", hiprand(&s));
    printf("seed0.1=%u\n", hiprand(&s));
    unsigned skipped[6];
    hiprand_init(0, 0, 0, &s);
    for (unsigned& v : skipped) v = hiprand(&s);
    hiprand_init(0, 0, 5, &s);  // offset 5 starts at the sixth number
    printf("offset5_is_sixth=%d\n", hiprand(&s) == skipped[5]);
    hiprand_init(0, 0, 2, &s);
    skipahead(3, &s);
    printf("skipahead3_is_sixth=%d\n", hiprand(&s) == skipped[5]);
    // Subsequence 1 is 2^67 numbers on (rocRAND: 192889654).
    hiprand_init(1234, 1, 0, &s);
    printf("sub1.0=%u\n", hiprand(&s));
    hiprand_init(1234, 0, 0, &s);
    skipahead_sequence(1, &s);
    printf("skipseq1.0=%u\n", hiprand(&s));
    hiprand_init(1234, 5, 3, &s);  // rocRAND: 183384265
    printf("sub5off3.0=%u\n", hiprand(&s));

    // hiprand_uniform(v) = 2^-32 + v * 2^-32: (0, 1]. Set the state so that the next number is v:
    // with x = 0 the xorshift word stays 0, and the output is d + 362437.
    auto uniform_of = [&](unsigned v) {
        hiprandState z{};
        z.d = v - 362437u;
        return hiprand_uniform(&z);
    };
    printf("uniform_min=%.9g\n", uniform_of(0));           // 2^-32, rounded to float
    printf("uniform_max=%.9g\n", uniform_of(0xffffffffu));  // (float)0xffffffff is 2^32: exactly 1
    printf("uniform_half=%.9g\n", uniform_of(0x80000000u)); // 0.5 + 2^-32 rounds to 0.5

    unsigned* out;
    hipMalloc(&out, 64 * 2 * sizeof(unsigned));
    hipLaunchKernelGGL(rand_kernel, 1, 64, 0, 0, out);
    printf("kernel_sub1.0=%u\n", out[2]);
    printf("kernel_sub5.1=%d\n", [&] {
        hiprand_init(1234, 5, 1, &s);
        return out[11] == hiprand(&s);
    }());
    printf("errors=%s\n", hipGetErrorName(hipGetLastError()));
    hipFree(out);
    return 0;
}

// ---- hipCUB ----

namespace {

constexpr int kCubOut = 16;

__global__ void cub_kernel(long long* out) {
    const int t = threadIdx.x;
    auto put = [&](int k, long long v) { out[k * 128 + t] = v; };
    __shared__ hipcub::WarpReduce<int>::TempStorage warp_tmp[4];
    __shared__ hipcub::WarpReduce<int, 16>::TempStorage warp16_tmp[8];
    const int warp = t / warpSize;
    put(0, hipcub::WarpReduce<int>(warp_tmp[warp]).Sum(t));
    put(1, hipcub::WarpReduce<int>(warp_tmp[warp]).Sum(t, 10));
    put(2, hipcub::WarpReduce<int, 16>(warp16_tmp[t / 16]).Reduce((t * 37) % 101, hipcub::Max()));
    put(3, hipcub::WarpReduce<int>(warp_tmp[warp]).Reduce(1000 - t, hipcub::Min()));

    typedef hipcub::BlockReduce<int, 128> Block;
    __shared__ Block::TempStorage block_tmp;
    put(4, Block(block_tmp).Sum(t));
    __syncthreads();
    int items[4] = {4 * t, 4 * t + 1, 4 * t + 2, 4 * t + 3};
    put(5, Block(block_tmp).Reduce(items, hipcub::Max()));
    __syncthreads();
    put(6, Block(block_tmp).Sum(t, 100));
    __syncthreads();
    put(7, Block(block_tmp).Sum(items));
    put(8, HIPCUB_WARP_THREADS);
}

// 96 threads: at wave64 the second warp is partial (32 lanes).
__global__ void cub_partial_kernel(float* out) {
    typedef hipcub::BlockReduce<float, 96> Block;
    __shared__ Block::TempStorage tmp;
    float s = Block(tmp).Sum(0.5f * threadIdx.x);
    __syncthreads();
    float m = Block(tmp).Reduce(threadIdx.x == 77 ? 1e6f : -1.0f * threadIdx.x, hipcub::Max());
    if (threadIdx.x == 0) {
        out[0] = s;
        out[1] = m;
    }
}

}  // namespace

int case_cub() {
    long long* out;
    hipMalloc(&out, sizeof(long long) * 128 * kCubOut);
    hipLaunchKernelGGL(cub_kernel, 1, 128, 0, 0, out);
    auto at = [&](int k, int t) { return out[k * 128 + t]; };
    // Lane 0 of each wavefront holds the result.
    printf("warp_sum.0=%lld\nwarp_sum.64=%lld\n", at(0, 0), at(0, 64));
    printf("warp_sum10.0=%lld\nwarp_sum10.64=%lld\n", at(1, 0), at(1, 64));
    printf("warp16_max.0=%lld\nwarp16_max.112=%lld\n", at(2, 0), at(2, 112));
    printf("warp_min.0=%lld\nwarp_min.64=%lld\n", at(3, 0), at(3, 64));
    printf("block_sum=%lld\nblock_max_items=%lld\nblock_sum100=%lld\nblock_sum_items=%lld\n", at(4, 0), at(5, 0),
           at(6, 0), at(7, 0));
    printf("warp_threads=%lld\n", at(8, 0));
    float* f;
    hipMalloc(&f, 2 * sizeof(float));
    hipLaunchKernelGGL(cub_partial_kernel, 1, 96, 0, 0, f);
    printf("partial_sum=%g\npartial_max=%g\n", f[0], f[1]);
    printf("errors=%s\n", hipGetErrorName(hipGetLastError()));
    hipFree(out);
    hipFree(f);
    return 0;
}

// ---- hipBLAS ----

int case_blas() {
    hipblasHandle_t h;
    printf("create=%d\n", hipblasCreate(&h));
    hipStream_t s, got = nullptr;
    hipStreamCreate(&s);
    hipblasSetStream(h, s);
    hipblasGetStream(h, &got);
    printf("stream_kept=%d\n", got == s);
    // Column-major A (2x3) = [1 2 3; 4 5 6], B (3x2) = [7 8; 9 10; 11 12]: A*B = [58 64; 139 154].
    float A[6] = {1, 4, 2, 5, 3, 6}, B[6] = {7, 9, 11, 8, 10, 12};
    float C[4] = {NAN, NAN, NAN, NAN};
    float one = 1, zero = 0, two = 2;
    int st = hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 3, &one, A, 2, B, 3, &zero, C, 2);
    printf("nn=%d:%g,%g,%g,%g\n", st, C[0], C[1], C[2], C[3]);  // beta = 0: the NaNs in C are not read
    float C2[4] = {1, 1, 1, 1};
    hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 3, &two, A, 2, B, 3, &one, C2, 2);
    printf("alpha2_beta1=%g,%g,%g,%g\n", C2[0], C2[1], C2[2], C2[3]);
    // A^T A (3x3) = [17 22 27; 22 29 36; 27 36 45], stored with ldc = 4 (row 3 of each column untouched).
    float T[12];
    for (float& v : T) v = -7;
    hipblasSgemm(h, HIPBLAS_OP_T, HIPBLAS_OP_N, 3, 3, 2, &one, A, 2, A, 2, &zero, T, 4);
    printf("tn=%g,%g,%g,%g,%g\n", T[0], T[4], T[9], T[10], T[3]);
    // B^T (2x3) times A^T (3x2) = (A B)^T = [58 139; 64 154], both operands transposed.
    double Ad[6] = {1, 4, 2, 5, 3, 6}, Bd[6] = {7, 9, 11, 8, 10, 12}, Cd[4], oned = 1, zerod = 0;
    hipblasDgemm(h, HIPBLAS_OP_T, HIPBLAS_OP_C, 2, 2, 3, &oned, Bd, 3, Ad, 2, &zerod, Cd, 2);
    printf("tt=%g,%g,%g,%g\n", Cd[0], Cd[1], Cd[2], Cd[3]);
    // alpha = 0, beta = 2: C is only scaled, even with NaN operands.
    float N6[6] = {NAN, NAN, NAN, NAN, NAN, NAN}, C3[4] = {1, 2, 3, 4};
    hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 3, &zero, N6, 2, N6, 3, &two, C3, 2);
    printf("alpha0=%g,%g,%g,%g\n", C3[0], C3[1], C3[2], C3[3]);
    printf("bad_lda=%d\n", hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 3, &one, A, 1, B, 3, &zero, C, 2));
    printf("bad_m=%d\n", hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, -1, 2, 3, &one, A, 2, B, 3, &zero, C, 2));
    printf("bad_op=%d\n", hipblasSgemm(h, static_cast<hipblasOperation_t>(5), HIPBLAS_OP_N, 2, 2, 3, &one, A, 2, B, 3,
                                       &zero, C, 2));
    printf("null_handle=%d\n",
           hipblasSgemm(nullptr, HIPBLAS_OP_N, HIPBLAS_OP_N, 2, 2, 3, &one, A, 2, B, 3, &zero, C, 2));
    printf("destroy=%d\n", hipblasDestroy(h));
    hipStreamDestroy(s);
    return 0;
}
