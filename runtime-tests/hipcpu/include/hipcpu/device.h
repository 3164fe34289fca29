// hipcpu device.h: what kernels see: thread coordinates, barriers, warp builtins (at the build's
// warp width, with AMD semantics), bit intrinsics, atomics, fences and device math.
#pragma once

#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <math.h>
#include <type_traits>

#include "common.h"
#include "scheduler.h"
#include "vector_types.h"

// ---- coordinates ----
#define threadIdx (static_cast<const dim3&>(::hipcpu::detail::tls_fiber->idx))
#define blockIdx (static_cast<const dim3&>(::hipcpu::detail::tls_block->block_idx))
#define blockDim (static_cast<const dim3&>(::hipcpu::detail::tls_block->block_dim))
#define gridDim (static_cast<const dim3&>(::hipcpu::detail::tls_block->grid_dim))
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)

// ---- barriers and fences ----
inline void __syncthreads() { ::hipcpu::detail::block_barrier(0); }
inline int __syncthreads_count(int pred) { return ::hipcpu::detail::block_barrier(pred); }
inline int __syncthreads_and(int pred) {
    return ::hipcpu::detail::block_barrier(pred) == ::hipcpu::detail::tls_fiber->bar_total;
}
inline int __syncthreads_or(int pred) { return ::hipcpu::detail::block_barrier(pred) != 0; }
inline void __threadfence() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
inline void __threadfence_system() { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
// The threads of a block share one OS thread, so a compiler fence orders them.
inline void __threadfence_block() { __atomic_signal_fence(__ATOMIC_SEQ_CST); }

// ---- warp builtins ----
namespace hipcpu {
namespace detail {
template <typename T>
inline uint64_t to_bits(T v) {
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                  "hipcpu: warp shuffles move values of at most 8 bytes");
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return b;
}
template <typename T>
inline T from_bits(uint64_t b) {
    T v;
    std::memcpy(&v, &b, sizeof(T));
    return v;
}
template <typename T>
inline T shuffle(WarpOp op, T var, int arg, int width, bool has_mask = false, uint64_t mask = 0) {
    return from_bits<T>(warp_exchange(op, to_bits(var), arg, width, has_mask, mask));
}
template <typename MaskT>
constexpr void check_mask() {
    static_assert(std::is_integral<MaskT>::value && sizeof(MaskT) == 8,
                  "hipcpu: the lane mask of a _sync warp builtin must be a 64-bit integer, as in ROCm 6.2+; "
                  "widen 32-bit masks such as 0xffffffff to ~0ull (or uint64_t)");
}
}  // namespace detail
}  // namespace hipcpu

inline unsigned int __lane_id() { return ::hipcpu::detail::tls_fiber->linear % HIPCPU_WARP_SIZE; }
/// Lanes of this warp executing this call: like HIP (`__ballot(1)`), a convergent ballot of the
/// warp's lanes that have not exited.
inline unsigned long long __activemask() {
    return ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Ballot, 1, 0, HIPCPU_WARP_SIZE, false, 0);
}
template <typename T>
inline T __shfl(T var, int src_lane, int width = warpSize) {
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::Shfl, var, src_lane, width);
}
template <typename T>
inline T __shfl_up(T var, unsigned int delta, int width = warpSize) {
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::ShflUp, var, static_cast<int>(delta), width);
}
template <typename T>
inline T __shfl_down(T var, unsigned int delta, int width = warpSize) {
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::ShflDown, var, static_cast<int>(delta), width);
}
template <typename T>
inline T __shfl_xor(T var, int lane_mask, int width = warpSize) {
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::ShflXor, var, lane_mask, width);
}
inline unsigned long long __ballot(int pred) {
    return ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Ballot, pred != 0, 0, HIPCPU_WARP_SIZE, false, 0);
}
inline int __any(int pred) { return __ballot(pred) != 0; }
inline int __all(int pred) {
    uint64_t group = 0;
    uint64_t b = ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Ballot, pred != 0, 0, HIPCPU_WARP_SIZE,
                                                 false, 0, &group);
    return b == group;
}
template <typename MaskT, typename T>
inline T __shfl_sync(MaskT mask, T var, int src_lane, int width = warpSize) {
    ::hipcpu::detail::check_mask<MaskT>();
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::Shfl, var, src_lane, width, true,
                                     static_cast<uint64_t>(mask));
}
template <typename MaskT, typename T>
inline T __shfl_up_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
    ::hipcpu::detail::check_mask<MaskT>();
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::ShflUp, var, static_cast<int>(delta), width, true,
                                     static_cast<uint64_t>(mask));
}
template <typename MaskT, typename T>
inline T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
    ::hipcpu::detail::check_mask<MaskT>();
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::ShflDown, var, static_cast<int>(delta), width, true,
                                     static_cast<uint64_t>(mask));
}
template <typename MaskT, typename T>
inline T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize) {
    ::hipcpu::detail::check_mask<MaskT>();
    return ::hipcpu::detail::shuffle(::hipcpu::detail::WarpOp::ShflXor, var, lane_mask, width, true,
                                     static_cast<uint64_t>(mask));
}
template <typename MaskT>
inline unsigned long long __ballot_sync(MaskT mask, int pred) {
    ::hipcpu::detail::check_mask<MaskT>();
    return ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Ballot, pred != 0, 0, HIPCPU_WARP_SIZE, true,
                                           static_cast<uint64_t>(mask));
}
template <typename MaskT>
inline int __any_sync(MaskT mask, int pred) {
    return __ballot_sync(mask, pred) != 0;
}
template <typename MaskT>
inline int __all_sync(MaskT mask, int pred) {
    ::hipcpu::detail::check_mask<MaskT>();
    uint64_t group = 0;
    uint64_t b = ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Ballot, pred != 0, 0, HIPCPU_WARP_SIZE,
                                                 true, static_cast<uint64_t>(mask), &group);
    return b == group;
}
inline void __syncwarp() {
    ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Sync, 0, 0, HIPCPU_WARP_SIZE, false, 0);
}
template <typename MaskT>
inline void __syncwarp(MaskT mask) {
    ::hipcpu::detail::check_mask<MaskT>();
    ::hipcpu::detail::warp_exchange(::hipcpu::detail::WarpOp::Sync, 0, 0, HIPCPU_WARP_SIZE, true,
                                    static_cast<uint64_t>(mask));
}

// ---- bit and integer intrinsics ----
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __ffs(unsigned int x) { return __builtin_ffs(static_cast<int>(x)); }
inline int __ffsll(long long x) { return __builtin_ffsll(x); }
inline int __ffsll(unsigned long long x) { return __builtin_ffsll(static_cast<long long>(x)); }
inline int __clz(int x) { return x == 0 ? 32 : __builtin_clz(static_cast<unsigned>(x)); }
inline int __clzll(long long x) { return x == 0 ? 64 : __builtin_clzll(static_cast<unsigned long long>(x)); }
inline unsigned int __brev(unsigned int x) {
    unsigned int r = 0;
    for (int i = 0; i < 32; ++i) r |= ((x >> i) & 1u) << (31 - i);
    return r;
}
inline unsigned long long __brevll(unsigned long long x) {
    return (static_cast<unsigned long long>(__brev(static_cast<unsigned>(x))) << 32) | __brev(static_cast<unsigned>(x >> 32));
}
inline int __mul24(int x, int y) {
    long long a = static_cast<int>(static_cast<unsigned>(x) << 8) >> 8;
    long long b = static_cast<int>(static_cast<unsigned>(y) << 8) >> 8;
    return static_cast<int>(static_cast<unsigned>(a * b));
}
inline unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
inline int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
inline unsigned int __umulhi(unsigned int x, unsigned int y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) * y) >> 32);
}
inline long long __mul64hi(long long x, long long y) {
    return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
inline unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
    return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}
inline unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
    unsigned long long v = (static_cast<unsigned long long>(y) << 32) | x;
    unsigned int r = 0;
    for (int i = 0; i < 4; ++i) r |= static_cast<unsigned>((v >> (((s >> (4 * i)) & 7u) * 8)) & 0xffu) << (8 * i);
    return r;
}
inline int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
inline int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
inline unsigned int __uhadd(unsigned int x, unsigned int y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y) >> 1);
}
inline unsigned int __urhadd(unsigned int x, unsigned int y) {
    return static_cast<unsigned>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
inline unsigned int __sad(int x, int y, unsigned int z) {
    return z + static_cast<unsigned>(x > y ? static_cast<long long>(x) - y : static_cast<long long>(y) - x);
}
inline unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) { return z + (x > y ? x - y : y - x); }
inline unsigned long long clock64() {
    return static_cast<unsigned long long>(std::chrono::steady_clock::now().time_since_epoch().count());
}
inline unsigned long long wall_clock64() { return clock64(); }

// ---- min / max as device code uses them unqualified ----
#define HIPCPU_MINMAX(T)                      \
    inline T min(T a, T b) { return b < a ? b : a; } \
    inline T max(T a, T b) { return a < b ? b : a; }
HIPCPU_MINMAX(int)
HIPCPU_MINMAX(unsigned int)
HIPCPU_MINMAX(long)
HIPCPU_MINMAX(unsigned long)
HIPCPU_MINMAX(long long)
HIPCPU_MINMAX(unsigned long long)
#undef HIPCPU_MINMAX
inline float min(float a, float b) { return fminf(a, b); }
inline float max(float a, float b) { return fmaxf(a, b); }
inline double min(double a, double b) { return fmin(a, b); }
inline double max(double a, double b) { return fmax(a, b); }
template <typename T, typename U,
          typename = std::enable_if_t<!std::is_same<T, U>::value && std::is_arithmetic<T>::value &&
                                      std::is_arithmetic<U>::value>>
inline std::common_type_t<T, U> min(T a, U b) {
    return min(static_cast<std::common_type_t<T, U>>(a), static_cast<std::common_type_t<T, U>>(b));
}
template <typename T, typename U,
          typename = std::enable_if_t<!std::is_same<T, U>::value && std::is_arithmetic<T>::value &&
                                      std::is_arithmetic<U>::value>>
inline std::common_type_t<T, U> max(T a, U b) {
    return max(static_cast<std::common_type_t<T, U>>(a), static_cast<std::common_type_t<T, U>>(b));
}
inline unsigned int umin(unsigned int a, unsigned int b) { return min(a, b); }
inline unsigned int umax(unsigned int a, unsigned int b) { return max(a, b); }
inline long long llmin(long long a, long long b) { return min(a, b); }
inline long long llmax(long long a, long long b) { return max(a, b); }
inline unsigned long long ullmin(unsigned long long a, unsigned long long b) { return min(a, b); }
inline unsigned long long ullmax(unsigned long long a, unsigned long long b) { return max(a, b); }

// ---- atomics (real atomics: blocks run in parallel on OS threads) ----
namespace hipcpu {
namespace detail {
template <typename T, typename F>
inline T atomic_update(T* addr, F f) {
    T old;
    __atomic_load(addr, &old, __ATOMIC_RELAXED);
    T desired = f(old);
    while (!__atomic_compare_exchange(addr, &old, &desired, true, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED))
        desired = f(old);
    return old;
}
}  // namespace detail
}  // namespace hipcpu

#define HIPCPU_ATOMIC_INT(T)                                                                               \
    inline T atomicAdd(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_SEQ_CST); }                   \
    inline T atomicSub(T* a, T v) { return __atomic_fetch_sub(a, v, __ATOMIC_SEQ_CST); }                   \
    inline T atomicExch(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST); }                 \
    inline T atomicAnd(T* a, T v) { return __atomic_fetch_and(a, v, __ATOMIC_SEQ_CST); }                   \
    inline T atomicOr(T* a, T v) { return __atomic_fetch_or(a, v, __ATOMIC_SEQ_CST); }                     \
    inline T atomicXor(T* a, T v) { return __atomic_fetch_xor(a, v, __ATOMIC_SEQ_CST); }                   \
    inline T atomicMin(T* a, T v) {                                                                        \
        return ::hipcpu::detail::atomic_update(a, [v](T o) { return v < o ? v : o; });                     \
    }                                                                                                      \
    inline T atomicMax(T* a, T v) {                                                                        \
        return ::hipcpu::detail::atomic_update(a, [v](T o) { return o < v ? v : o; });                     \
    }                                                                                                      \
    inline T atomicCAS(T* a, T compare, T v) {                                                             \
        __atomic_compare_exchange_n(a, &compare, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);            \
        return compare;                                                                                    \
    }
HIPCPU_ATOMIC_INT(int)
HIPCPU_ATOMIC_INT(unsigned int)
HIPCPU_ATOMIC_INT(unsigned long)
HIPCPU_ATOMIC_INT(long long)
HIPCPU_ATOMIC_INT(unsigned long long)
#undef HIPCPU_ATOMIC_INT

#define HIPCPU_ATOMIC_FP(T)                                                                                \
    inline T atomicAdd(T* a, T v) { return ::hipcpu::detail::atomic_update(a, [v](T o) { return o + v; }); } \
    inline T atomicSub(T* a, T v) { return ::hipcpu::detail::atomic_update(a, [v](T o) { return o - v; }); } \
    inline T atomicExch(T* a, T v) {                                                                       \
        T old;                                                                                             \
        __atomic_exchange(a, &v, &old, __ATOMIC_SEQ_CST);                                                  \
        return old;                                                                                        \
    }                                                                                                      \
    inline T atomicMin(T* a, T v) {                                                                        \
        return ::hipcpu::detail::atomic_update(a, [v](T o) { return v < o ? v : o; });                     \
    }                                                                                                      \
    inline T atomicMax(T* a, T v) {                                                                        \
        return ::hipcpu::detail::atomic_update(a, [v](T o) { return o < v ? v : o; });                     \
    }
HIPCPU_ATOMIC_FP(float)
HIPCPU_ATOMIC_FP(double)
#undef HIPCPU_ATOMIC_FP

inline unsigned int atomicInc(unsigned int* a, unsigned int limit) {
    return ::hipcpu::detail::atomic_update(a, [limit](unsigned o) { return o >= limit ? 0u : o + 1; });
}
inline unsigned int atomicDec(unsigned int* a, unsigned int limit) {
    return ::hipcpu::detail::atomic_update(a, [limit](unsigned o) { return (o == 0 || o > limit) ? limit : o - 1; });
}
// Scope-suffixed forms behave like the device-wide ones.
template <typename T, typename U>
inline T atomicAdd_system(T* a, U v) { return atomicAdd(a, static_cast<T>(v)); }
template <typename T, typename U>
inline T atomicAdd_block(T* a, U v) { return atomicAdd(a, static_cast<T>(v)); }
template <typename T, typename U>
inline T unsafeAtomicAdd(T* a, U v) { return atomicAdd(a, static_cast<T>(v)); }
template <typename T, typename U>
inline T safeAtomicAdd(T* a, U v) { return atomicAdd(a, static_cast<T>(v)); }
template <typename T>
inline T atomicCAS_system(T* a, T c, T v) { return atomicCAS(a, c, v); }
template <typename T>
inline T atomicExch_system(T* a, T v) { return atomicExch(a, v); }

// ---- loads and misc ----
template <typename T>
inline T __ldg(const T* p) { return *p; }
inline void __trap() { std::abort(); }

// ---- device math beyond libm ----
inline float rsqrtf(float x) { return 1.0f / sqrtf(x); }
inline double rsqrt(double x) { return 1.0 / sqrt(x); }
inline float rcbrtf(float x) { return 1.0f / cbrtf(x); }
inline double rcbrt(double x) { return 1.0 / cbrt(x); }
inline float sinpif(float x) { return sinf(static_cast<float>(M_PI) * x); }
inline float cospif(float x) { return cosf(static_cast<float>(M_PI) * x); }
inline double sinpi(double x) { return sin(M_PI * x); }
inline double cospi(double x) { return cos(M_PI * x); }
inline void sincospif(float x, float* s, float* c) { *s = sinpif(x); *c = cospif(x); }
inline void sincospi(double x, double* s, double* c) { *s = sinpi(x); *c = cospi(x); }
inline float normcdff(float x) { return 0.5f * erfcf(-x * static_cast<float>(M_SQRT1_2)); }
inline double normcdf(double x) { return 0.5 * erfc(-x * M_SQRT1_2); }
inline float fdividef(float a, float b) { return a / b; }
inline float rhypotf(float a, float b) { return 1.0f / hypotf(a, b); }
inline float norm3df(float a, float b, float c) { return sqrtf(a * a + b * b + c * c); }
inline float rnorm3df(float a, float b, float c) { return 1.0f / norm3df(a, b, c); }
inline double erfinv(double y) {
    if (y <= -1.0) return y == -1.0 ? -HUGE_VAL : NAN;
    if (y >= 1.0) return y == 1.0 ? HUGE_VAL : NAN;
    // Initial guess (Winitzki), then Newton steps on erf(x) - y.
    double a = 0.147, l = log(1.0 - y * y), t = 2.0 / (M_PI * a) + l / 2.0;
    double x = copysign(sqrt(sqrt(t * t - l / a) - t), y);
    for (int i = 0; i < 4; ++i) x -= (erf(x) - y) / (2.0 / sqrt(M_PI) * exp(-x * x));
    return x;
}
inline float erfinvf(float y) { return static_cast<float>(erfinv(y)); }
inline double erfcinv(double y) { return erfinv(1.0 - y); }
inline float erfcinvf(float y) { return static_cast<float>(erfcinv(y)); }

// Fast and explicitly rounded intrinsics (computed at full precision, round-to-nearest-even).
inline float __expf(float x) { return expf(x); }
inline float __exp10f(float x) { return powf(10.0f, x); }
inline float __logf(float x) { return logf(x); }
inline float __log2f(float x) { return log2f(x); }
inline float __log10f(float x) { return log10f(x); }
inline float __powf(float x, float y) { return powf(x, y); }
inline float __sinf(float x) { return sinf(x); }
inline float __cosf(float x) { return cosf(x); }
inline float __tanf(float x) { return tanf(x); }
inline void __sincosf(float x, float* s, float* c) { *s = sinf(x); *c = cosf(x); }
inline float __fdividef(float a, float b) { return a / b; }
inline float __saturatef(float x) { return x >= 1.0f ? 1.0f : (x > 0.0f ? x : 0.0f); }  // NaN -> 0
inline float __frcp_rn(float x) { return 1.0f / x; }
inline float __frsqrt_rn(float x) { return 1.0f / sqrtf(x); }
inline float __fsqrt_rn(float x) { return sqrtf(x); }
inline float __fadd_rn(float a, float b) { return a + b; }
inline float __fsub_rn(float a, float b) { return a - b; }
inline float __fmul_rn(float a, float b) { return a * b; }
inline float __fdiv_rn(float a, float b) { return a / b; }
inline float __fmaf_rn(float a, float b, float c) { return fmaf(a, b, c); }
inline double __dadd_rn(double a, double b) { return a + b; }
inline double __dsub_rn(double a, double b) { return a - b; }
inline double __dmul_rn(double a, double b) { return a * b; }
inline double __ddiv_rn(double a, double b) { return a / b; }
inline double __drcp_rn(double x) { return 1.0 / x; }
inline double __dsqrt_rn(double x) { return sqrt(x); }
inline double __fma_rn(double a, double b, double c) { return fma(a, b, c); }

// ---- conversions and reinterpretations ----
inline int __float2int_rn(float x) { return static_cast<int>(nearbyintf(x)); }
inline int __float2int_rz(float x) { return static_cast<int>(x); }
inline int __float2int_rd(float x) { return static_cast<int>(floorf(x)); }
inline int __float2int_ru(float x) { return static_cast<int>(ceilf(x)); }
inline unsigned int __float2uint_rn(float x) { return static_cast<unsigned>(nearbyintf(x)); }
inline unsigned int __float2uint_rz(float x) { return static_cast<unsigned>(x); }
inline long long __float2ll_rn(float x) { return static_cast<long long>(nearbyintf(x)); }
inline long long __float2ll_rz(float x) { return static_cast<long long>(x); }
inline int __double2int_rn(double x) { return static_cast<int>(nearbyint(x)); }
inline int __double2int_rz(double x) { return static_cast<int>(x); }
inline long long __double2ll_rn(double x) { return static_cast<long long>(nearbyint(x)); }
inline float __double2float_rn(double x) { return static_cast<float>(x); }
inline float __int2float_rn(int x) { return static_cast<float>(x); }
inline float __uint2float_rn(unsigned int x) { return static_cast<float>(x); }
inline float __ll2float_rn(long long x) { return static_cast<float>(x); }
inline double __int2double_rn(int x) { return x; }
inline double __ll2double_rn(long long x) { return static_cast<double>(x); }
inline int __float_as_int(float x) { return ::hipcpu::detail::from_bits<int>(::hipcpu::detail::to_bits(x)); }
inline unsigned int __float_as_uint(float x) { return ::hipcpu::detail::from_bits<unsigned>(::hipcpu::detail::to_bits(x)); }
inline float __int_as_float(int x) { return ::hipcpu::detail::from_bits<float>(::hipcpu::detail::to_bits(x)); }
inline float __uint_as_float(unsigned int x) { return ::hipcpu::detail::from_bits<float>(::hipcpu::detail::to_bits(x)); }
inline long long __double_as_longlong(double x) { return ::hipcpu::detail::from_bits<long long>(::hipcpu::detail::to_bits(x)); }
inline double __longlong_as_double(long long x) { return ::hipcpu::detail::from_bits<double>(::hipcpu::detail::to_bits(x)); }
inline int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
inline int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x) & 0xffffffffLL); }
inline double __hiloint2double(int hi, int lo) {
    return __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned>(hi)) << 32) |
                                                       static_cast<unsigned>(lo)));
}

// ---- dynamic shared memory ----
namespace hipcpu {
/// Stands for a namespace-scope `extern __shared__ T name[];` (see prep.rs): converts to the running
/// block's dynamic shared buffer wherever it is used.
template <typename T>
struct DynamicShared {
    operator T*() const { return reinterpret_cast<T*>(detail::dynamic_shared()); }
};
}  // namespace hipcpu
