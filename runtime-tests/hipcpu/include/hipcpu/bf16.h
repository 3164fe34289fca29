// hipcpu bf16.h: `__hip_bfloat16` / `__hip_bfloat162` (ROCm 6 hip_bf16.h names) with
// round-to-nearest-even conversions; arithmetic in float, rounded once.
#pragma once

#include <cmath>
#include <cstdint>

#include "convert.h"
#include "vector_types.h"

/// Raw bits of a bfloat16.
struct __hip_bfloat16_raw {
    unsigned short x;
};

/// bfloat16: 8 exponent bits, 7 mantissa bits.
struct __hip_bfloat16 {
    unsigned short data;

    __hip_bfloat16() = default;
    __hip_bfloat16(const __hip_bfloat16_raw& r) : data(r.x) {}
    __hip_bfloat16(float f) : data(::hipcpu::detail::float_to_bf16_bits(f)) {}
    __hip_bfloat16(double d) : data(::hipcpu::detail::double_to_bf16_bits(d)) {}
    __hip_bfloat16(int v) : __hip_bfloat16(static_cast<double>(v)) {}
    __hip_bfloat16(unsigned int v) : __hip_bfloat16(static_cast<double>(v)) {}
    __hip_bfloat16(long long v) : __hip_bfloat16(static_cast<double>(v)) {}
    __hip_bfloat16(unsigned long long v) : __hip_bfloat16(static_cast<double>(v)) {}
    operator float() const { return ::hipcpu::detail::bf16_bits_to_float(data); }
    operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{data}; }
    __hip_bfloat16& operator+=(const __hip_bfloat16& o) { return *this = __hip_bfloat16(float(*this) + float(o)); }
    __hip_bfloat16& operator-=(const __hip_bfloat16& o) { return *this = __hip_bfloat16(float(*this) - float(o)); }
    __hip_bfloat16& operator*=(const __hip_bfloat16& o) { return *this = __hip_bfloat16(float(*this) * float(o)); }
    __hip_bfloat16& operator/=(const __hip_bfloat16& o) { return *this = __hip_bfloat16(float(*this) / float(o)); }
};

/// A pair of bfloat16 values.
struct __attribute__((aligned(4))) __hip_bfloat162 {
    __hip_bfloat16 x;
    __hip_bfloat16 y;
    __hip_bfloat162() = default;
    __hip_bfloat162(const __hip_bfloat16& a, const __hip_bfloat16& b) : x(a), y(b) {}
};

typedef __hip_bfloat16 hip_bf16_t;

inline __hip_bfloat16 operator+(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hip_bfloat16(float(a) + float(b)); }
inline __hip_bfloat16 operator-(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hip_bfloat16(float(a) - float(b)); }
inline __hip_bfloat16 operator*(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hip_bfloat16(float(a) * float(b)); }
inline __hip_bfloat16 operator/(const __hip_bfloat16& a, const __hip_bfloat16& b) { return __hip_bfloat16(float(a) / float(b)); }
inline __hip_bfloat16 operator-(const __hip_bfloat16& a) {
    return __hip_bfloat16(__hip_bfloat16_raw{static_cast<unsigned short>(a.data ^ 0x8000u)});
}
inline bool operator==(const __hip_bfloat16& a, const __hip_bfloat16& b) { return float(a) == float(b); }
inline bool operator!=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return float(a) != float(b); }
inline bool operator<(const __hip_bfloat16& a, const __hip_bfloat16& b) { return float(a) < float(b); }
inline bool operator<=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return float(a) <= float(b); }
inline bool operator>(const __hip_bfloat16& a, const __hip_bfloat16& b) { return float(a) > float(b); }
inline bool operator>=(const __hip_bfloat16& a, const __hip_bfloat16& b) { return float(a) >= float(b); }
inline __hip_bfloat162 operator+(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hip_bfloat162(a.x + b.x, a.y + b.y); }
inline __hip_bfloat162 operator-(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hip_bfloat162(a.x - b.x, a.y - b.y); }
inline __hip_bfloat162 operator*(const __hip_bfloat162& a, const __hip_bfloat162& b) { return __hip_bfloat162(a.x * b.x, a.y * b.y); }

inline __hip_bfloat16 __float2bfloat16(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __float2bfloat16_rn(float f) { return __hip_bfloat16(f); }
inline __hip_bfloat16 __double2bfloat16(double d) { return __hip_bfloat16(d); }
inline float __bfloat162float(__hip_bfloat16 b) { return float(b); }
inline __hip_bfloat16 __int2bfloat16_rn(int v) { return __hip_bfloat16(v); }
inline int __bfloat162int_rn(__hip_bfloat16 b) { return static_cast<int>(nearbyintf(float(b))); }
inline int __bfloat162int_rz(__hip_bfloat16 b) { return static_cast<int>(float(b)); }
inline unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.data; }
inline short __bfloat16_as_short(__hip_bfloat16 b) { return static_cast<short>(b.data); }
inline __hip_bfloat16 __ushort_as_bfloat16(unsigned short v) { return __hip_bfloat16(__hip_bfloat16_raw{v}); }
inline __hip_bfloat16 __short_as_bfloat16(short v) {
    return __hip_bfloat16(__hip_bfloat16_raw{static_cast<unsigned short>(v)});
}
inline __hip_bfloat162 __float2bfloat162_rn(float f) { return __hip_bfloat162(__hip_bfloat16(f), __hip_bfloat16(f)); }
inline __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return __hip_bfloat162(__hip_bfloat16(a), __hip_bfloat16(b)); }
inline __hip_bfloat162 __float22bfloat162_rn(float2 v) { return __floats2bfloat162_rn(v.x, v.y); }
inline float2 __bfloat1622float2(__hip_bfloat162 v) { return make_float2(float(v.x), float(v.y)); }
inline __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
inline __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
inline __hip_bfloat16 __low2bfloat16(__hip_bfloat162 v) { return v.x; }
inline __hip_bfloat16 __high2bfloat16(__hip_bfloat162 v) { return v.y; }
inline float __low2float(__hip_bfloat162 v) { return float(v.x); }
inline float __high2float(__hip_bfloat162 v) { return float(v.y); }

inline __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) { return a + b; }
inline __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return a - b; }
inline __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) { return a * b; }
inline __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return a / b; }
inline __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
    return __hip_bfloat16(std::fma(double(float(a)), double(float(b)), double(float(c))));
}
inline __hip_bfloat16 __hneg(__hip_bfloat16 a) { return -a; }
inline __hip_bfloat16 __habs(__hip_bfloat16 a) {
    return __hip_bfloat16(__hip_bfloat16_raw{static_cast<unsigned short>(a.data & 0x7fffu)});
}
inline __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16(fmaxf(float(a), float(b))); }
inline __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat16(fminf(float(a), float(b))); }
inline bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return a == b; }
inline bool __hne(__hip_bfloat16 a, __hip_bfloat16 b) { return a != b; }
inline bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return a < b; }
inline bool __hle(__hip_bfloat16 a, __hip_bfloat16 b) { return a <= b; }
inline bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return a > b; }
inline bool __hge(__hip_bfloat16 a, __hip_bfloat16 b) { return a >= b; }
inline bool __hisnan(__hip_bfloat16 a) { return (a.data & 0x7f80u) == 0x7f80u && (a.data & 0x7fu); }
inline int __hisinf(__hip_bfloat16 a) { return (a.data & 0x7fffu) == 0x7f80u ? ((a.data & 0x8000u) ? -1 : 1) : 0; }
inline __hip_bfloat162 __hadd2(__hip_bfloat162 a, __hip_bfloat162 b) { return a + b; }
inline __hip_bfloat162 __hsub2(__hip_bfloat162 a, __hip_bfloat162 b) { return a - b; }
inline __hip_bfloat162 __hmul2(__hip_bfloat162 a, __hip_bfloat162 b) { return a * b; }
inline __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
    return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
#define HIPCPU_BMATH(name, fn) \
    inline __hip_bfloat16 name(__hip_bfloat16 a) { return __hip_bfloat16(fn(float(a))); }
HIPCPU_BMATH(hsqrt, sqrtf)
HIPCPU_BMATH(hexp, expf)
HIPCPU_BMATH(hlog, logf)
HIPCPU_BMATH(hceil, ceilf)
HIPCPU_BMATH(hfloor, floorf)
HIPCPU_BMATH(htrunc, truncf)
HIPCPU_BMATH(hrint, rintf)
#undef HIPCPU_BMATH
inline __hip_bfloat16 hrsqrt(__hip_bfloat16 a) { return __hip_bfloat16(1.0f / sqrtf(float(a))); }
inline __hip_bfloat16 hrcp(__hip_bfloat16 a) { return __hip_bfloat16(1.0f / float(a)); }
