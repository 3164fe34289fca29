// hipcpu: the older `hip_bfloat16` struct (a `data` member, round-to-nearest-even from float).
#pragma once
#include "../hipcpu/convert.h"

/// bfloat16 as in HIP's hip_bfloat16.h.
struct hip_bfloat16 {
    unsigned short data;
    hip_bfloat16() = default;
    hip_bfloat16(float f) : data(::hipcpu::detail::float_to_bf16_bits(f)) {}
    explicit hip_bfloat16(double d) : data(::hipcpu::detail::double_to_bf16_bits(d)) {}
    operator float() const { return ::hipcpu::detail::bf16_bits_to_float(data); }
    hip_bfloat16& operator+=(const hip_bfloat16& o) { return *this = hip_bfloat16(float(*this) + float(o)); }
    hip_bfloat16& operator-=(const hip_bfloat16& o) { return *this = hip_bfloat16(float(*this) - float(o)); }
    hip_bfloat16& operator*=(const hip_bfloat16& o) { return *this = hip_bfloat16(float(*this) * float(o)); }
    hip_bfloat16& operator/=(const hip_bfloat16& o) { return *this = hip_bfloat16(float(*this) / float(o)); }
};
inline hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) + float(b)); }
inline hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) - float(b)); }
inline hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) * float(b)); }
inline hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) / float(b)); }
inline hip_bfloat16 operator-(hip_bfloat16 a) {
    hip_bfloat16 r;
    r.data = static_cast<unsigned short>(a.data ^ 0x8000u);
    return r;
}
inline bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
inline bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return float(a) > float(b); }
inline bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
inline bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return float(a) != float(b); }
