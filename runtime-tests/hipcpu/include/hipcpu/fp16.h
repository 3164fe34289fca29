// hipcpu fp16.h: `__half` and `__half2` with round-to-nearest-even conversions. Arithmetic is done
// in float and rounded once to half: for +, -, *, / and sqrt that equals the correctly rounded
// half result (float has 24 >= 2*11+2 bits), as native half instructions give.
#pragma once

#include <cmath>
#include <cstdint>

#include "convert.h"
#include "vector_types.h"

/// Raw bits of a half.
struct __half_raw {
    unsigned short x;
};
/// Raw bits of a half2.
struct __half2_raw {
    unsigned short x;
    unsigned short y;
};

/// IEEE binary16.
struct __half {
    unsigned short __x;

    __half() = default;
    __half(const __half_raw& r) : __x(r.x) {}
    __half(float f) : __x(::hipcpu::detail::float_to_half_bits(f)) {}
    __half(double d) : __x(::hipcpu::detail::double_to_half_bits(d)) {}
    __half(int v) : __half(static_cast<double>(v)) {}
    __half(unsigned int v) : __half(static_cast<double>(v)) {}
    __half(short v) : __half(static_cast<double>(v)) {}
    __half(unsigned short v) : __half(static_cast<double>(v)) {}
    __half(long v) : __half(static_cast<double>(v)) {}
    __half(unsigned long v) : __half(static_cast<double>(v)) {}
    __half(long long v) : __half(static_cast<double>(v)) {}
    __half(unsigned long long v) : __half(static_cast<double>(v)) {}
    operator float() const { return ::hipcpu::detail::half_bits_to_float(__x); }
    operator __half_raw() const { return __half_raw{__x}; }
    __half& operator+=(const __half& o) { return *this = __half(float(*this) + float(o)); }
    __half& operator-=(const __half& o) { return *this = __half(float(*this) - float(o)); }
    __half& operator*=(const __half& o) { return *this = __half(float(*this) * float(o)); }
    __half& operator/=(const __half& o) { return *this = __half(float(*this) / float(o)); }
};

/// A pair of halves.
struct __attribute__((aligned(4))) __half2 {
    __half x;
    __half y;
    __half2() = default;
    __half2(const __half& a, const __half& b) : x(a), y(b) {}
    __half2(const __half2_raw& r) : x(__half_raw{r.x}), y(__half_raw{r.y}) {}
    operator __half2_raw() const { return __half2_raw{x.__x, y.__x}; }
};

typedef __half half;
typedef __half2 half2;

inline __half operator+(const __half& a, const __half& b) { return __half(float(a) + float(b)); }
inline __half operator-(const __half& a, const __half& b) { return __half(float(a) - float(b)); }
inline __half operator*(const __half& a, const __half& b) { return __half(float(a) * float(b)); }
inline __half operator/(const __half& a, const __half& b) { return __half(float(a) / float(b)); }
inline __half operator-(const __half& a) { return __half(__half_raw{static_cast<unsigned short>(a.__x ^ 0x8000u)}); }
inline __half operator+(const __half& a) { return a; }
inline bool operator==(const __half& a, const __half& b) { return float(a) == float(b); }
inline bool operator!=(const __half& a, const __half& b) { return float(a) != float(b); }
inline bool operator<(const __half& a, const __half& b) { return float(a) < float(b); }
inline bool operator<=(const __half& a, const __half& b) { return float(a) <= float(b); }
inline bool operator>(const __half& a, const __half& b) { return float(a) > float(b); }
inline bool operator>=(const __half& a, const __half& b) { return float(a) >= float(b); }
inline __half2 operator+(const __half2& a, const __half2& b) { return __half2(a.x + b.x, a.y + b.y); }
inline __half2 operator-(const __half2& a, const __half2& b) { return __half2(a.x - b.x, a.y - b.y); }
inline __half2 operator*(const __half2& a, const __half2& b) { return __half2(a.x * b.x, a.y * b.y); }
inline __half2 operator/(const __half2& a, const __half2& b) { return __half2(a.x / b.x, a.y / b.y); }

// conversions
inline __half __float2half(float f) { return __half(f); }
inline __half __float2half_rn(float f) { return __half(f); }
inline __half __double2half(double d) { return __half(d); }
inline float __half2float(__half h) { return float(h); }
inline __half __int2half_rn(int v) { return __half(v); }
inline __half __uint2half_rn(unsigned int v) { return __half(v); }
inline __half __short2half_rn(short v) { return __half(v); }
inline __half __ll2half_rn(long long v) { return __half(v); }
inline int __half2int_rn(__half h) { return static_cast<int>(nearbyintf(float(h))); }
inline int __half2int_rz(__half h) { return static_cast<int>(float(h)); }
inline int __half2int_rd(__half h) { return static_cast<int>(floorf(float(h))); }
inline int __half2int_ru(__half h) { return static_cast<int>(ceilf(float(h))); }
inline unsigned int __half2uint_rn(__half h) { return static_cast<unsigned>(nearbyintf(float(h))); }
inline short __half2short_rn(__half h) { return static_cast<short>(nearbyintf(float(h))); }
inline unsigned short __half_as_ushort(__half h) { return h.__x; }
inline short __half_as_short(__half h) { return static_cast<short>(h.__x); }
inline __half __ushort_as_half(unsigned short v) { return __half(__half_raw{v}); }
inline __half __short_as_half(short v) { return __half(__half_raw{static_cast<unsigned short>(v)}); }
inline __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
inline __half2 __half2half2(__half a) { return __half2(a, a); }
inline __half2 __float2half2_rn(float f) { return __half2(__half(f), __half(f)); }
inline __half2 __floats2half2_rn(float a, float b) { return __half2(__half(a), __half(b)); }
inline __half2 __float22half2_rn(float2 v) { return __half2(__half(v.x), __half(v.y)); }
inline float2 __half22float2(__half2 v) { return make_float2(float(v.x), float(v.y)); }
inline float __low2float(__half2 v) { return float(v.x); }
inline float __high2float(__half2 v) { return float(v.y); }
inline __half __low2half(__half2 v) { return v.x; }
inline __half __high2half(__half2 v) { return v.y; }
inline __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
inline __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
inline __half2 __low2half2(__half2 a) { return __half2(a.x, a.x); }
inline __half2 __high2half2(__half2 a) { return __half2(a.y, a.y); }
inline __half2 __lowhigh2highlow(__half2 a) { return __half2(a.y, a.x); }

// arithmetic
inline __half __hadd(__half a, __half b) { return a + b; }
inline __half __hsub(__half a, __half b) { return a - b; }
inline __half __hmul(__half a, __half b) { return a * b; }
inline __half __hdiv(__half a, __half b) { return a / b; }
inline __half __hfma(__half a, __half b, __half c) {
    return __half(std::fma(double(float(a)), double(float(b)), double(float(c))));
}
inline __half __hneg(__half a) { return -a; }
inline __half __habs(__half a) { return __half(__half_raw{static_cast<unsigned short>(a.__x & 0x7fffu)}); }
inline __half __hadd_sat(__half a, __half b) { return __half(fminf(fmaxf(float(a + b), 0.0f), 1.0f)); }
inline __half __hmul_sat(__half a, __half b) { return __half(fminf(fmaxf(float(a * b), 0.0f), 1.0f)); }
inline __half __hmax(__half a, __half b) { return __half(fmaxf(float(a), float(b))); }
inline __half __hmin(__half a, __half b) { return __half(fminf(float(a), float(b))); }
inline bool __heq(__half a, __half b) { return a == b; }
inline bool __hne(__half a, __half b) { return a != b; }
inline bool __hlt(__half a, __half b) { return a < b; }
inline bool __hle(__half a, __half b) { return a <= b; }
inline bool __hgt(__half a, __half b) { return a > b; }
inline bool __hge(__half a, __half b) { return a >= b; }
inline bool __hisnan(__half a) { return (a.__x & 0x7c00u) == 0x7c00u && (a.__x & 0x3ffu); }
inline int __hisinf(__half a) { return (a.__x & 0x7fffu) == 0x7c00u ? ((a.__x & 0x8000u) ? -1 : 1) : 0; }
inline __half2 __hadd2(__half2 a, __half2 b) { return a + b; }
inline __half2 __hsub2(__half2 a, __half2 b) { return a - b; }
inline __half2 __hmul2(__half2 a, __half2 b) { return a * b; }
inline __half2 __h2div(__half2 a, __half2 b) { return a / b; }
inline __half2 __hfma2(__half2 a, __half2 b, __half2 c) { return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y)); }
inline __half2 __hneg2(__half2 a) { return __half2(-a.x, -a.y); }
inline __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
inline __half2 __hmax2(__half2 a, __half2 b) { return __half2(__hmax(a.x, b.x), __hmax(a.y, b.y)); }
inline __half2 __hmin2(__half2 a, __half2 b) { return __half2(__hmin(a.x, b.x), __hmin(a.y, b.y)); }

// math (computed in float, rounded once)
#define HIPCPU_HMATH(name, fn) \
    inline __half name(__half a) { return __half(fn(float(a))); } \
    inline __half2 h2##name(__half2 a) { return __half2(name(a.x), name(a.y)); }
HIPCPU_HMATH(hsqrt, sqrtf)
HIPCPU_HMATH(hexp, expf)
HIPCPU_HMATH(hexp2, exp2f)
HIPCPU_HMATH(hlog, logf)
HIPCPU_HMATH(hlog2, log2f)
HIPCPU_HMATH(hlog10, log10f)
HIPCPU_HMATH(hsin, sinf)
HIPCPU_HMATH(hcos, cosf)
HIPCPU_HMATH(hceil, ceilf)
HIPCPU_HMATH(hfloor, floorf)
HIPCPU_HMATH(htrunc, truncf)
HIPCPU_HMATH(hrint, rintf)
#undef HIPCPU_HMATH
inline __half hrsqrt(__half a) { return __half(1.0f / sqrtf(float(a))); }
inline __half hrcp(__half a) { return __half(1.0f / float(a)); }
