// hipcpu convert.h: exact round-to-nearest-even conversion between double and small IEEE-style
// formats (binary16: 5 exponent / 10 mantissa bits; bfloat16: 8 / 7). Every float converts to
// double exactly, so float inputs are rounded once, as hardware does.
#pragma once

#include <cstdint>
#include <cmath>
#include <cstring>

namespace hipcpu {
namespace detail {

template <int EB, int MB>
inline uint16_t round_to_small(double d) {
    uint64_t x;
    std::memcpy(&x, &d, 8);
    const uint16_t sign = static_cast<uint16_t>((x >> 63) << 15);
    const uint64_t ax = x & 0x7fffffffffffffffull;
    const int bias = (1 << (EB - 1)) - 1;
    const uint32_t emax = (1u << EB) - 1;
    const uint64_t mant = ax & ((uint64_t(1) << 52) - 1);
    if (ax >= 0x7ff0000000000000ull) {
        if (mant) return static_cast<uint16_t>(sign | (emax << MB) | (1u << (MB - 1)) | (mant >> (52 - MB)));  // quiet NaN
        return static_cast<uint16_t>(sign | (emax << MB));
    }
    const int e = static_cast<int>(ax >> 52);
    if (e == 0) return sign;  // double subnormals are far below the smallest target subnormal
    const uint64_t m = mant | (uint64_t(1) << 52);
    int et = e - 1023 + bias;  // target biased exponent
    int shift = 52 - MB;
    uint64_t base = 0;
    if (et >= 1) {
        base = uint64_t(et) << MB;  // the implicit bit of q adds one more exponent step below
        base -= uint64_t(1) << MB;
    } else {
        shift += 1 - et;
        if (shift >= 54) return sign;  // below half the smallest subnormal (ties go to the even 0)
    }
    uint64_t q = m >> shift;
    uint64_t r = m & ((uint64_t(1) << shift) - 1);
    uint64_t half = uint64_t(1) << (shift - 1);
    if (r > half || (r == half && (q & 1))) ++q;
    uint64_t h = base + q;  // a carry out of the mantissa moves into the exponent
    if (h >= (uint64_t(emax) << MB)) return static_cast<uint16_t>(sign | (emax << MB));  // overflow -> inf
    return static_cast<uint16_t>(sign | h);
}

template <int EB, int MB>
inline float widen_small(uint16_t h) {
    const int bias = (1 << (EB - 1)) - 1;
    const uint32_t emax = (1u << EB) - 1;
    uint32_t sign = uint32_t(h >> 15) << 31;
    uint32_t e = (h >> MB) & emax;
    uint32_t m = h & ((1u << MB) - 1);
    uint32_t bits;
    if (e == emax) {
        bits = sign | 0x7f800000u | (m << (23 - MB));
    } else if (e == 0) {
        // subnormal: m * 2^(1 - bias - MB), exact in float
        float v = std::ldexp(static_cast<float>(m), 1 - bias - MB);
        std::memcpy(&bits, &v, 4);
        bits |= sign;
    } else {
        bits = sign | ((e - bias + 127) << 23) | (m << (23 - MB));
    }
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
}

inline uint16_t float_to_half_bits(float f) { return round_to_small<5, 10>(f); }
inline uint16_t double_to_half_bits(double d) { return round_to_small<5, 10>(d); }
inline float half_bits_to_float(uint16_t h) { return widen_small<5, 10>(h); }
inline uint16_t float_to_bf16_bits(float f) { return round_to_small<8, 7>(f); }
inline uint16_t double_to_bf16_bits(double d) { return round_to_small<8, 7>(d); }
inline float bf16_bits_to_float(uint16_t h) { return widen_small<8, 7>(h); }

}  // namespace detail
}  // namespace hipcpu
