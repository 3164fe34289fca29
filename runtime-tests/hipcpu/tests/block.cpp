// Barriers, static and dynamic shared memory, atomics from parallel blocks, kernel errors, runtime API.
#include <hip/hip_runtime.h>

namespace {

__global__ void tree_reduce(const int* in, unsigned long long* partial, int n) {
    __shared__ unsigned long long s[256];
    const int t = threadIdx.y * blockDim.x + threadIdx.x;  // 16 x 16 block
    const int i = blockIdx.x * 256 + t;
    s[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (t < stride) s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0) partial[blockIdx.x] = s[0];
}

__global__ void barrier_counts(int* out) {
    const int t = threadIdx.x;
    int c = __syncthreads_count(t % 3 == 0);
    int a1 = __syncthreads_and(t < 256);
    int a0 = __syncthreads_and(t < 255);
    int o1 = __syncthreads_or(t == 255);
    int o0 = __syncthreads_or(t > 1000);
    if (t == 17) {
        out[0] = c;
        out[1] = a1;
        out[2] = a0;
        out[3] = o1;
        out[4] = o0;
    }
}

// Each block stores its id in static shared memory and checks, across barriers, that no other block
// running at the same time (on another OS thread) or before it (on the same one) disturbs it.
__global__ void shared_is_per_block(int* mismatches) {
    __shared__ int ids[64];
    __shared__ int total;
    const int t = threadIdx.x;
    if (t == 0) total = 0;
    ids[t] = blockIdx.x * 1000 + t;
    __syncthreads();
    for (int round = 0; round < 8; ++round) {
        int other = ids[(t + round) % 64];
        if (other != static_cast<int>(blockIdx.x) * 1000 + (t + round) % 64) atomicAdd(mismatches, 1);
        atomicAdd(&total, 1);
        __syncthreads();
    }
    if (t == 0 && total != 64 * 8) atomicAdd(mismatches, 1000);
}

__global__ void reverse_dynamic(const int* in, int* out) {
    HIP_DYNAMIC_SHARED(int, buf)
    const int t = threadIdx.x, base = blockIdx.x * blockDim.x;
    buf[blockDim.x - 1 - t] = in[base + t];
    __syncthreads();
    out[base + t] = buf[t];
}

__global__ void coords(unsigned long long* sum, unsigned* count) {
    unsigned long long block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned long long thread = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned long long per_block = blockDim.x * blockDim.y * blockDim.z;
    atomicAdd(sum, block * per_block + thread);
    atomicAdd(count, 1u);
}

struct Atom {
    int add_int, sub_int, max_int, min_int, cas_int;
    unsigned add_uint, or_uint, and_uint, xor_uint, inc_uint, dec_uint, max_uint;
    unsigned long long add_ull, exch_sum, min_ull;
    int exch;
    float add_float, max_float;
    double add_double, min_double;
};

__global__ void atomics_kernel(Atom* a) {
    const unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&a->add_int, 1);
    atomicSub(&a->sub_int, 1);
    atomicMax(&a->max_int, static_cast<int>(gid));
    atomicMin(&a->min_int, static_cast<int>(gid) - 30000);
    int old = a->cas_int, seen;
    while ((seen = atomicCAS(&a->cas_int, old, old + 3)) != old) old = seen;
    atomicAdd(&a->add_uint, 2u);
    atomicOr(&a->or_uint, 1u << (gid % 32));
    atomicAnd(&a->and_uint, ~(1u << (gid % 32)));
    atomicXor(&a->xor_uint, 1u << (gid % 3));
    atomicInc(&a->inc_uint, 999u);
    atomicDec(&a->dec_uint, 9u);
    atomicMax(&a->max_uint, gid * 3u);
    atomicAdd(&a->add_ull, 1ull << 33);
    atomicAdd(&a->exch_sum, static_cast<unsigned long long>(atomicExch(&a->exch, static_cast<int>(gid))));
    atomicMin(&a->min_ull, 1000000ull - gid);
    atomicAdd(&a->add_float, 1.0f);
    atomicMax(&a->max_float, gid * 0.5f);
    atomicAdd(&a->add_double, 0.5);
    atomicMin(&a->min_double, -static_cast<double>(gid));
    __threadfence();
}

__global__ void diverge_at_barrier(int* out) {
    if (threadIdx.x < 16) return;
    __syncthreads();
    out[threadIdx.x] = 1;
}

__global__ void warp_then_barrier(int* out) {
    int v = threadIdx.x;
    if (__lane_id() < 8) v = __shfl(v, 0);
    __syncthreads();
    out[threadIdx.x] = v;
}

__global__ void mismatched_warp_ops(int* out) {
    int v = threadIdx.x;
    if (__lane_id() % 2) v = __shfl(v, 0);
    else v = static_cast<int>(__ballot(1));
    out[threadIdx.x] = v;
}

__global__ void big_locals(float* out) {
    volatile float local[40000];  // 160 KB: more than the default 64 KiB fiber stack
    for (int i = 0; i < 40000; ++i) local[i] = static_cast<float>(i);
    out[threadIdx.x] = local[threadIdx.x * 7];
}

__global__ void fill(int* out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

__constant__ float coeffs[4];
__device__ int device_scalar;

__global__ void use_symbols(float* out) {
    out[threadIdx.x] = coeffs[threadIdx.x % 4] * device_scalar;
    if (threadIdx.x == 0) device_scalar += 1;
}

int check_recovery() {
    hipGetLastError();  // a failed synchronize also records its error
    int* d;
    hipMalloc(&d, 64 * sizeof(int));
    hipLaunchKernelGGL(fill, 2, 32, 0, 0, d, 7);
    int sum = 0;
    for (int i = 0; i < 64; ++i) sum += d[i];
    printf("recovered_sum=%d\n", sum);
    printf("after_ok=%s\n", hipGetErrorName(hipGetLastError()));
    hipFree(d);
    return 0;
}

}  // namespace

int case_block() {
    const int n = 100000, blocks = (n + 255) / 256;
    int* in;
    unsigned long long* partial;
    hipMalloc(&in, n * sizeof(int));
    hipMalloc(&partial, blocks * sizeof(unsigned long long));
    for (int i = 0; i < n; ++i) in[i] = i;
    hipLaunchKernelGGL(tree_reduce, dim3(blocks), dim3(16, 16), 0, 0, in, partial, n);
    unsigned long long total = 0;
    for (int b = 0; b < blocks; ++b) total += partial[b];
    printf("reduce_total=%llu\nreduce_block3=%llu\n", total, partial[3]);

    int* counts;
    hipMalloc(&counts, 5 * sizeof(int));
    hipLaunchKernelGGL(barrier_counts, 1, 256, 0, 0, counts);
    printf("sync_count=%d\nsync_and_true=%d\nsync_and_false=%d\nsync_or_true=%d\nsync_or_false=%d\n", counts[0],
           counts[1], counts[2], counts[3], counts[4]);

    int* mism;
    hipMalloc(&mism, sizeof(int));
    *mism = 0;
    hipLaunchKernelGGL(shared_is_per_block, 64, 64, 0, 0, mism);
    printf("shared_mismatches=%d\n", *mism);

    int *src, *dst;
    hipMalloc(&src, 4 * 96 * sizeof(int));
    hipMalloc(&dst, 4 * 96 * sizeof(int));
    for (int i = 0; i < 4 * 96; ++i) src[i] = i;
    hipLaunchKernelGGL(reverse_dynamic, 4, 96, 96 * sizeof(int), 0, src, dst);
    printf("dyn_first=%d\ndyn_block2_first=%d\ndyn_last=%d\n", dst[0], dst[2 * 96], dst[4 * 96 - 1]);

    unsigned long long* sum;
    unsigned* count;
    hipMalloc(&sum, sizeof *sum);
    hipMalloc(&count, sizeof *count);
    *sum = 0;
    *count = 0;
    hipLaunchKernelGGL(coords, dim3(3, 4, 5), dim3(4, 3, 2), 0, 0, sum, count);
    printf("coords_count=%u\ncoords_sum=%llu\n", *count, *sum);
    printf("errors=%s\n", hipGetErrorName(hipGetLastError()));
    return 0;
}

int case_atomics() {
    Atom* a;
    hipMalloc(&a, sizeof(Atom));
    memset(a, 0, sizeof(Atom));
    a->and_uint = 0xffffffffu;
    a->min_int = 1 << 30;
    a->max_float = -1.0f;
    a->min_double = 1e9;
    a->min_ull = ~0ull;
    a->exch = -1;
    hipLaunchKernelGGL(atomics_kernel, 256, 256, 0, 0, a);
    printf("add_int=%d\nsub_int=%d\nmax_int=%d\nmin_int=%d\ncas_int=%d\n", a->add_int, a->sub_int, a->max_int,
           a->min_int, a->cas_int);
    printf("add_uint=%u\nor_uint=%#x\nand_uint=%#x\nxor_uint=%#x\ninc_uint=%u\ndec_uint=%u\nmax_uint=%u\n",
           a->add_uint, a->or_uint, a->and_uint, a->xor_uint, a->inc_uint, a->dec_uint, a->max_uint);
    // Every value ever stored in `exch` is returned by exactly one exchange, except the final one.
    long long exch_total = static_cast<long long>(a->exch_sum) + a->exch;
    printf("add_ull=%llu\nexch_total=%lld\nmin_ull=%llu\n", a->add_ull, exch_total, a->min_ull);
    printf("add_float=%.1f\nmax_float=%.1f\nadd_double=%.1f\nmin_double=%.1f\n", static_cast<double>(a->add_float),
           static_cast<double>(a->max_float), a->add_double, a->min_double);
    return 0;
}

int case_divergence() {
    int* d;
    hipMalloc(&d, 8 * 64 * sizeof(int));
    hipMemset(d, 0, 8 * 64 * sizeof(int));
    hipLaunchKernelGGL(diverge_at_barrier, 8, 64, 0, 0, d);
    printf("last=%s\n", hipGetErrorName(hipGetLastError()));
    printf("wrote=%d\n", d[20] + d[63]);
    printf("last_again=%s\n", hipGetErrorName(hipGetLastError()));
    printf("sync=%s\n", hipGetErrorName(hipDeviceSynchronize()));
    printf("sync_again=%s\n", hipGetErrorName(hipDeviceSynchronize()));
    hipFree(d);
    return check_recovery();
}

int case_stack_overflow() {
    float* d;
    hipMalloc(&d, 32 * sizeof(float));
    hipLaunchKernelGGL(big_locals, 1, 32, 0, 0, d);
    printf("value=%g\n", static_cast<double>(d[1]));
    return 0;
}

int case_warp_deadlock() {
    int* d;
    hipMalloc(&d, 128 * sizeof(int));
    hipLaunchKernelGGL(warp_then_barrier, 1, 128, 0, 0, d);
    printf("last=%s\n", hipGetErrorName(hipGetLastError()));
    hipFree(d);
    return check_recovery();
}

int case_warp_mismatch() {
    int* d;
    hipMalloc(&d, 64 * sizeof(int));
    hipLaunchKernelGGL(mismatched_warp_ops, 1, 64, 0, 0, d);
    printf("last=%s\n", hipGetErrorName(hipGetLastError()));
    hipFree(d);
    return check_recovery();
}

int case_launch_errors() {
    int* d;
    hipMalloc(&d, 64 * sizeof(int));
    hipLaunchKernelGGL(fill, 1, 2048, 0, 0, d, 1);
    printf("block2048=%s\n", hipGetErrorName(hipGetLastError()));
    hipLaunchKernelGGL(fill, 0, 32, 0, 0, d, 1);
    printf("grid0=%s\n", hipGetErrorName(hipGetLastError()));
    hipLaunchKernelGGL(fill, 1, dim3(32, 32, 2), 0, 0, d, 1);
    printf("block32x32x2=%s\n", hipGetErrorName(hipGetLastError()));
    hipLaunchKernelGGL(fill, 1, 32, 100000, 0, d, 1);
    printf("shmem100000=%s\n", hipGetErrorName(hipGetLastError()));
    printf("peek_clean=%s\n", hipGetErrorName(hipPeekAtLastError()));
    hipFree(d);
    return check_recovery();
}

int case_api() {
    int count = 0, dev = -1, ws = 0, mtpb = 0;
    hipGetDeviceCount(&count);
    hipGetDevice(&dev);
    printf("device_count=%d\ndevice=%d\n", count, dev);
    printf("set_device1=%s\n", hipGetErrorName(hipSetDevice(1)));
    hipGetLastError();
    hipDeviceProp_t p;
    hipGetDeviceProperties(&p, 0);
    printf("prop_name=%s\nprop_warp=%d\nprop_mtpb=%d\nprop_shared=%zu\n", p.name, p.warpSize, p.maxThreadsPerBlock,
           p.sharedMemPerBlock);
    hipDeviceGetAttribute(&ws, hipDeviceAttributeWarpSize, 0);
    hipDeviceGetAttribute(&mtpb, hipDeviceAttributeMaxThreadsPerBlock, 0);
    printf("attr_warp=%d\nattr_mtpb=%d\n", ws, mtpb);

    int host[8] = {1, 2, 3, 4, 5, 6, 7, 8}, back[8] = {0};
    int *a, *b;
    hipMalloc(&a, sizeof host);
    hipMalloc(&b, sizeof host);
    hipMemcpy(a, host, sizeof host, hipMemcpyHostToDevice);
    hipMemcpy(b, a, sizeof host, hipMemcpyDeviceToDevice);
    hipStream_t s;
    hipStreamCreate(&s);
    hipMemsetAsync(a, 0, sizeof host, s);
    hipMemcpyAsync(back, b, sizeof host, hipMemcpyDeviceToHost, s);
    hipStreamSynchronize(s);
    printf("memcpy_back=%d,%d\n", back[0], back[7]);
    hipMemcpy(back, a, sizeof host, hipMemcpyDefault);
    printf("memset_back=%d\n", back[3]);
    hipMemsetD32(a, 0x01020304, 8);
    printf("memsetd32=%#x\n", a[5]);
    printf("bad_kind=%s\n", hipGetErrorName(hipMemcpy(back, a, 4, static_cast<hipMemcpyKind>(7))));
    hipGetLastError();

    float c[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    int scalar = 10;
    hipMemcpyToSymbol(HIP_SYMBOL(coeffs), c, sizeof c);
    hipMemcpyToSymbol(HIP_SYMBOL(device_scalar), &scalar, sizeof scalar);
    float* out;
    hipMalloc(&out, 8 * sizeof(float));
    hipEvent_t e0, e1;
    hipEventCreate(&e0);
    hipEventCreate(&e1);
    hipEventRecord(e0, s);
    hipLaunchKernelGGL(use_symbols, 1, 8, 0, s, out);
    hipEventRecord(e1, s);
    hipEventSynchronize(e1);
    float ms = -1.0f;
    hipEventElapsedTime(&ms, e0, e1);
    printf("elapsed_nonneg=%d\n", ms >= 0.0f);
    hipMemcpyFromSymbol(&scalar, HIP_SYMBOL(device_scalar), sizeof scalar);
    printf("symbol_out=%g,%g\nsymbol_after=%d\n", static_cast<double>(out[1]), static_cast<double>(out[7]), scalar);
    printf("error_string=%s\n", hipGetErrorString(hipErrorInvalidValue));
    printf("error_value=%d\n", static_cast<int>(hipErrorLaunchFailure));
    hipEventDestroy(e0);
    hipEventDestroy(e1);
    hipStreamDestroy(s);
    hipFree(a);
    hipFree(b);
    hipFree(out);
    printf("errors=%s\n", hipGetErrorName(hipGetLastError()));
    return 0;
}
