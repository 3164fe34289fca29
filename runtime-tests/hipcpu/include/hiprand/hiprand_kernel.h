// hipcpu: the hipRAND device API for the default generator, XORWOW, computed as rocRAND does on
// AMD (rocrand_xorwow.h): the same seeding, the same xorshift + Weyl step, subsequences of 2^67
// numbers, and uniform floats in (0, 1] as 2^-32 + v * 2^-32. rocRAND jumps ahead with
// precomputed tables; here the jump matrices (powers of the 160-bit xorshift transition over
// GF(2)) are computed on first use, once per process.
#pragma once

#include <hip/hip_runtime.h>

#include <cstdint>
#include <deque>
#include <mutex>

#define HIPRAND_XORWOW_DEFAULT_SEED 0ULL

namespace hipcpu {
namespace rand {

/// A 160x160 bit matrix over GF(2), stored by columns: col[j] is the image of state bit j
/// (bit j % 32 of word j / 32).
struct Mat160 {
    uint32_t col[160][5];
};

/// v <- m v.
inline void mat_apply(const Mat160& m, uint32_t v[5]) {
    uint32_t r[5] = {0, 0, 0, 0, 0};
    for (int j = 0; j < 160; ++j) {
        if (!((v[j / 32] >> (j % 32)) & 1u)) continue;
        for (int k = 0; k < 5; ++k) r[k] ^= m.col[j][k];
    }
    for (int k = 0; k < 5; ++k) v[k] = r[k];
}

/// The xorshift part of one XORWOW step (the Weyl counter is handled separately).
inline void xorshift_step(uint32_t x[5]) {
    const uint32_t t = x[0] ^ (x[0] >> 2);
    x[0] = x[1];
    x[1] = x[2];
    x[2] = x[3];
    x[3] = x[4];
    x[4] = (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1));
}

/// The transition matrix A of one step.
inline Mat160 step_matrix() {
    Mat160 m;
    for (int j = 0; j < 160; ++j) {
        uint32_t v[5] = {0, 0, 0, 0, 0};
        v[j / 32] = 1u << (j % 32);
        xorshift_step(v);
        for (int k = 0; k < 5; ++k) m.col[j][k] = v[k];
    }
    return m;
}

/// m * m.
inline Mat160 mat_square(const Mat160& m) {
    Mat160 r;
    for (int j = 0; j < 160; ++j) {
        uint32_t v[5];
        for (int k = 0; k < 5; ++k) v[k] = m.col[j][k];
        mat_apply(m, v);
        for (int k = 0; k < 5; ++k) r.col[j][k] = v[k];
    }
    return r;
}

/// Powers A^(2^(base + i)) for i = 0, 1, ..., computed as far as asked.
class JumpTable {
public:
    explicit JumpTable(int base_log2) : base_(base_log2) {}

    /// Applies A^(n * 2^base) to x.
    void jump(uint64_t n, uint32_t x[5]) {
        for (int i = 0; n; ++i, n >>= 1) {
            if (n & 1) mat_apply(power(i), x);
        }
    }

private:
    const Mat160& power(int i) {
        std::lock_guard<std::mutex> lock(mu_);
        if (pows_.empty()) {
            Mat160 m = step_matrix();
            for (int s = 0; s < base_; ++s) m = mat_square(m);
            pows_.push_back(m);
        }
        while (static_cast<int>(pows_.size()) <= i) pows_.push_back(mat_square(pows_.back()));
        return pows_[i];
    }

    int base_;
    std::mutex mu_;
    std::deque<Mat160> pows_;  // push_back keeps references to earlier powers valid
};

/// Jumps of n steps.
inline JumpTable& offset_jumps() {
    static JumpTable t(0);
    return t;
}
/// Jumps of n subsequences of 2^67 steps.
inline JumpTable& sequence_jumps() {
    static JumpTable t(67);
    return t;
}

constexpr float k2pow32_inv = 2.3283064e-10f;  // ROCRAND_2POW32_INV

}  // namespace rand
}  // namespace hipcpu

/// XORWOW state, laid out like rocrand_state_xorwow (Weyl value, Box-Muller cache, xorshift words).
struct hiprandStateXORWOW {
    unsigned int d;
    unsigned int boxmuller_float_state;
    unsigned int boxmuller_double_state;
    float boxmuller_float;
    double boxmuller_double;
    unsigned int x[5];
};
typedef hiprandStateXORWOW hiprandStateXORWOW_t;
/// The default generator, as in hipRAND on AMD.
struct hiprandState : hiprandStateXORWOW {};
typedef hiprandState hiprandState_t;

/// Returns the next 32 random bits.
inline unsigned int hiprand(hiprandStateXORWOW* s) {
    ::hipcpu::rand::xorshift_step(s->x);
    s->d += 362437u;
    return s->d + s->x[4];
}

/// Skips `n` numbers.
inline void skipahead(unsigned long long n, hiprandStateXORWOW* s) {
    ::hipcpu::rand::offset_jumps().jump(n, s->x);
    s->d += static_cast<unsigned int>(n) * 362437u;
}

/// Skips `n` subsequences of 2^67 numbers (the Weyl value is unchanged: 2^67 is a multiple of 2^32).
inline void skipahead_sequence(unsigned long long n, hiprandStateXORWOW* s) {
    ::hipcpu::rand::sequence_jumps().jump(n, s->x);
}

/// Seeds `s` as rocRAND's xorwow_engine(seed, subsequence, offset).
inline void hiprand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                         hiprandStateXORWOW* s) {
    s->x[0] = 123456789u;
    s->x[1] = 362436069u;
    s->x[2] = 521288629u;
    s->x[3] = 88675123u;
    s->x[4] = 5783321u;
    s->d = 6615241u;
    const unsigned int s0 = static_cast<unsigned int>(seed) ^ 0x2c7f967fu;
    const unsigned int s1 = static_cast<unsigned int>(seed >> 32) ^ 0xa03697cbu;
    const unsigned int t0 = 1228688033u * s0;
    const unsigned int t1 = 2073658381u * s1;
    s->x[0] += t0;
    s->x[1] ^= t0;
    s->x[2] += t1;
    s->x[3] ^= t1;
    s->x[4] += t0;
    s->d += t1 + t0;
    skipahead_sequence(subsequence, s);
    skipahead(offset, s);
    s->boxmuller_float_state = 0;
    s->boxmuller_double_state = 0;
    s->boxmuller_float = 0.0f;
    s->boxmuller_double = 0.0;
}

/// A float in (0, 1].
inline float hiprand_uniform(hiprandStateXORWOW* s) {
    return ::hipcpu::rand::k2pow32_inv + static_cast<float>(hiprand(s)) * ::hipcpu::rand::k2pow32_inv;
}
