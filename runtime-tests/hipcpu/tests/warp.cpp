// Warp builtins at the build's width, bit intrinsics, and a kernel that hard-codes 32-lane warps.
#include <hip/hip_runtime.h>

namespace {

constexpr int N = 128;
enum Key {
    K_BALLOT3, K_BALLOT40, K_ANY5, K_ALL48, K_SHFL3, K_SHFL2W16, K_SHFL20W16, K_SHFL70, K_UP1, K_UP1W8,
    K_DOWN1, K_DOWN4W8, K_XOR1, K_XOR32, K_XOR4W4, K_SHFL_DOUBLE, K_SHFL_U64, K_SHFL_FLOAT, K_SUM_DOWN,
    K_SUM_XOR, K_SHFL_SYNC, K_UP_SYNC, K_DOWN_SYNC, K_XOR_SYNC, K_BALLOT_SYNC, K_BALLOT_SYNC_PART,
    K_ANY_SYNC, K_ALL_SYNC, K_SYNCWARP, K_LANE, K_WARPSIZE, K_COUNT
};

__global__ void warp_kernel(unsigned long long* out) {
    __shared__ int s[N];
    const unsigned t = threadIdx.x;
    const unsigned lane = __lane_id();
    auto put = [&](int k, unsigned long long v) { out[k * N + t] = v; };
    auto bits_of = [](double d) { unsigned long long b; memcpy(&b, &d, 8); return b; };
    const int v = static_cast<int>(t) * 10;
    put(K_BALLOT3, __ballot(lane % 3 == 0));
    put(K_BALLOT40, __ballot(t >= 40));
    put(K_ANY5, __any(t == 5));
    put(K_ALL48, __all(t < 48));
    put(K_SHFL3, __shfl(v, 3));
    put(K_SHFL2W16, __shfl(v, 2, 16));
    put(K_SHFL20W16, __shfl(v, 20, 16));
    put(K_SHFL70, __shfl(v, 70));
    put(K_UP1, __shfl_up(v, 1));
    put(K_UP1W8, __shfl_up(v, 1, 8));
    put(K_DOWN1, __shfl_down(v, 1));
    put(K_DOWN4W8, __shfl_down(v, 4, 8));
    put(K_XOR1, __shfl_xor(v, 1));
    put(K_XOR32, __shfl_xor(v, 32));
    put(K_XOR4W4, __shfl_xor(v, 4, 4));
    put(K_SHFL_DOUBLE, bits_of(__shfl(t + 0.5, 1)));
    put(K_SHFL_U64, __shfl(0x0123456789abcdefull + t, 2));
    put(K_SHFL_FLOAT, bits_of(static_cast<double>(__shfl(t * 0.25f, 63))));
    int sum = static_cast<int>(t);
    for (int off = warpSize / 2; off > 0; off /= 2) sum += __shfl_down(sum, off);
    put(K_SUM_DOWN, sum);
    int bfly = static_cast<int>(t);
    for (int off = warpSize / 2; off > 0; off /= 2) bfly += __shfl_xor(bfly, off);
    put(K_SUM_XOR, bfly);
    const unsigned long long full = ~0ull;
    put(K_SHFL_SYNC, __shfl_sync(full, v, 3));
    put(K_UP_SYNC, __shfl_up_sync(full, v, 1));
    put(K_DOWN_SYNC, __shfl_down_sync(full, v, 1));
    put(K_XOR_SYNC, __shfl_xor_sync(full, v, 32));
    put(K_BALLOT_SYNC, __ballot_sync(full, t % 2 == 0));
    unsigned long long part = 0;
    if (lane < 32) part = __ballot_sync(0xffffffffull, t % 2 == 0);  // only the low 32 lanes take part
    put(K_BALLOT_SYNC_PART, part);
    put(K_ANY_SYNC, __any_sync(full, t == 40));
    put(K_ALL_SYNC, __all_sync(full, t < 48));
    s[t] = static_cast<int>(t);
    __syncwarp();
    put(K_SYNCWARP, s[t ^ 1]);
    put(K_LANE, lane);
    put(K_WARPSIZE, warpSize);
}

__global__ void activemask_kernel(unsigned long long* out) { out[threadIdx.x] = __activemask(); }

__global__ void bits_kernel(long long* out) {
    if (threadIdx.x != 0) return;
    int i = 0;
    out[i++] = __popc(0xF0F0F0F0u);
    out[i++] = __popcll(0xFFFFFFFFFFFFFFFFull);
    out[i++] = __popcll(0x8000000000000001ull);
    out[i++] = __ffs(0);
    out[i++] = __ffs(0x80);
    out[i++] = __ffsll(1ll << 40);
    out[i++] = __clz(1);
    out[i++] = __clz(0);
    out[i++] = __clz(-1);
    out[i++] = __clzll(1ll);
    out[i++] = __clzll(0ll);
    out[i++] = __brev(1u);
    out[i++] = __brev(0x12345678u);
    out[i++] = static_cast<long long>(__brevll(1ull) >> 32);
    out[i++] = __byte_perm(0x33221100u, 0x77665544u, 0x5410u);
    out[i++] = __mul24(-2, 3);
    out[i++] = __mul24(0x01000005, 2);
    out[i++] = __umul24(0x01000005u, 3u);
    out[i++] = __umulhi(0xFFFFFFFFu, 0xFFFFFFFFu);
    out[i++] = __mulhi(-1, 1);
    out[i++] = static_cast<long long>(__umul64hi(~0ull, 2ull));
    out[i++] = __mul64hi(-4ll, 1ll << 62);
    out[i++] = __sad(3, 10, 5u);
    out[i++] = __hadd(7, 8);
    out[i++] = __rhadd(7, 8);
}

// The correct reduction uses warpSize; the two "hard32" kernels assume 32-lane warps.
__global__ void sum_warpsize(const int* in, int* out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = warpSize / 2; off > 0; off /= 2) v += __shfl_down(v, off);
    if (threadIdx.x % warpSize == 0) atomicAdd(out, v);
}
__global__ void sum_hard32_broadcast(const int* in, int* out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down(v, off);
    v = __shfl(v, 0);  // "every lane now has its warp's sum"
    if ((threadIdx.x & 31) == 0) atomicAdd(out, v);
}
__global__ void sum_hard32_lane0(const int* in, int* out) {
    int v = in[blockIdx.x * blockDim.x + threadIdx.x];
    for (int off = 16; off > 0; off /= 2) v += __shfl_down(v, off);
    if (__lane_id() == 0) atomicAdd(out, v);
}

}  // namespace

int case_warp() {
    unsigned long long* out;
    hipMalloc(&out, sizeof(unsigned long long) * N * K_COUNT);
    hipLaunchKernelGGL(warp_kernel, dim3(1), dim3(N), 0, 0, out);
    if (hipDeviceSynchronize() != hipSuccess) return 1;
    auto at = [&](int k, int t) { return out[k * N + t]; };
    auto as_double = [](unsigned long long b) { double d; memcpy(&d, &b, 8); return d; };
    printf("ballot3.0=%#llx\n", at(K_BALLOT3, 0));
    for (int t : {0, 32, 64, 96}) printf("ballot40.%d=%#llx\n", t, at(K_BALLOT40, t));
    for (int t : {0, 32, 64, 96}) printf("any5.%d=%llu\n", t, at(K_ANY5, t));
    for (int t : {0, 32, 64, 96}) printf("all48.%d=%llu\n", t, at(K_ALL48, t));
    printf("shfl3.40=%llu\n", at(K_SHFL3, 40));
    printf("shfl2w16.40=%llu\n", at(K_SHFL2W16, 40));
    printf("shfl20w16.5=%llu\n", at(K_SHFL20W16, 5));
    printf("shfl70.40=%llu\n", at(K_SHFL70, 40));
    for (int t : {1, 32}) printf("up1.%d=%llu\n", t, at(K_UP1, t));
    for (int t : {8, 9}) printf("up1w8.%d=%llu\n", t, at(K_UP1W8, t));
    for (int t : {31, 62, 63}) printf("down1.%d=%llu\n", t, at(K_DOWN1, t));
    for (int t : {3, 5}) printf("down4w8.%d=%llu\n", t, at(K_DOWN4W8, t));
    printf("xor1.6=%llu\n", at(K_XOR1, 6));
    printf("xor32.5=%llu\n", at(K_XOR32, 5));
    printf("xor4w4.1=%llu\n", at(K_XOR4W4, 1));
    for (int t : {0, 33}) printf("shfl_double.%d=%g\n", t, as_double(at(K_SHFL_DOUBLE, t)));
    printf("shfl_u64.0=%#llx\n", at(K_SHFL_U64, 0));
    printf("shfl_float.0=%g\n", as_double(at(K_SHFL_FLOAT, 0)));
    for (int t : {0, 64}) printf("sum_down.%d=%llu\n", t, at(K_SUM_DOWN, t));
    for (int t : {7, 100}) printf("sum_xor.%d=%llu\n", t, at(K_SUM_XOR, t));
    printf("shfl_sync.40=%llu\n", at(K_SHFL_SYNC, 40));
    printf("up_sync.32=%llu\n", at(K_UP_SYNC, 32));
    printf("down_sync.31=%llu\n", at(K_DOWN_SYNC, 31));
    printf("xor_sync.5=%llu\n", at(K_XOR_SYNC, 5));
    printf("ballot_sync.0=%#llx\n", at(K_BALLOT_SYNC, 0));
    printf("ballot_sync_part.0=%#llx\n", at(K_BALLOT_SYNC_PART, 0));
    printf("any_sync.0=%llu\n", at(K_ANY_SYNC, 0));
    printf("all_sync.0=%llu\n", at(K_ALL_SYNC, 0));
    printf("syncwarp.6=%llu\n", at(K_SYNCWARP, 6));
    printf("lane.40=%llu\n", at(K_LANE, 40));
    printf("warpsize.0=%llu\n", at(K_WARPSIZE, 0));
    hipFree(out);
    return 0;
}

int case_activemask() {
    unsigned long long* out;
    hipMalloc(&out, sizeof(unsigned long long) * 100);
    hipLaunchKernelGGL(activemask_kernel, 1, 100, 0, 0, out);
    printf("activemask.0=%#llx\nactivemask.99=%#llx\n", out[0], out[99]);
    hipFree(out);
    return 0;
}

int case_bits() {
    long long* out;
    hipMalloc(&out, sizeof(long long) * 32);
    hipLaunchKernelGGL(bits_kernel, 1, 64, 0, 0, out);
    const char* names[] = {"popc", "popcll_all", "popcll_2", "ffs0", "ffs80", "ffsll40", "clz1", "clz0",
                           "clzm1", "clzll1", "clzll0", "brev1", "brev", "brevll1_hi", "byte_perm", "mul24_neg",
                           "mul24_wrap", "umul24", "umulhi", "mulhi", "umul64hi", "mul64hi", "sad", "hadd",
                           "rhadd"};
    for (int i = 0; i < 25; ++i) printf("%s=%#llx\n", names[i], static_cast<unsigned long long>(out[i]));
    hipFree(out);
    return 0;
}

int case_hardcoded32() {
    const int n = 256;
    int *in, *out;
    hipMalloc(&in, n * sizeof(int));
    hipMalloc(&out, sizeof(int));
    for (int i = 0; i < n; ++i) in[i] = i;
    struct K {
        const char* name;
        void (*kernel)(const int*, int*);
    } ks[] = {{"warpsize", sum_warpsize}, {"hard32_broadcast", sum_hard32_broadcast}, {"hard32_lane0", sum_hard32_lane0}};
    for (auto& k : ks) {
        hipMemset(out, 0, sizeof(int));
        hipLaunchKernelGGL(k.kernel, dim3(2), dim3(128), 0, 0, in, out);
        int r = 0;
        hipMemcpy(&r, out, sizeof r, hipMemcpyDeviceToHost);
        printf("%s=%d\n", k.name, r);
    }
    hipFree(in);
    hipFree(out);
    return 0;
}
