// hipcpu texture.h: texture objects over linear and pitched 2D device memory (HIP's
// hipCreateTextureObject / tex1Dfetch / tex1D / tex2D), read on the host.
//
// Supported: resource types Linear and Pitch2D; read mode ElementType; point filtering for every
// element type, linear filtering for float, float2 and float4; address modes Clamp, Border (the
// border colour), Wrap and Mirror; normalized or unnormalized coordinates. Linear filtering is
// computed at full precision (hardware uses 8 fraction bits for the weights). hipArray resources,
// mipmaps, sRGB and NormalizedFloat reads are rejected with hipErrorNotSupported.
#pragma once

#include <cmath>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "api.h"
#include "vector_types.h"

typedef enum hipChannelFormatKind {
    hipChannelFormatKindSigned = 0,
    hipChannelFormatKindUnsigned = 1,
    hipChannelFormatKindFloat = 2,
    hipChannelFormatKindNone = 3
} hipChannelFormatKind;

/// Bits per channel (x, y, z, w) and the channel kind.
typedef struct hipChannelFormatDesc {
    int x;
    int y;
    int z;
    int w;
    enum hipChannelFormatKind f;
} hipChannelFormatDesc;

typedef enum hipResourceType {
    hipResourceTypeArray = 0,
    hipResourceTypeMipmappedArray = 1,
    hipResourceTypeLinear = 2,
    hipResourceTypePitch2D = 3
} hipResourceType;
typedef enum hipTextureAddressMode {
    hipAddressModeWrap = 0,
    hipAddressModeClamp = 1,
    hipAddressModeMirror = 2,
    hipAddressModeBorder = 3
} hipTextureAddressMode;
typedef enum hipTextureFilterMode { hipFilterModePoint = 0, hipFilterModeLinear = 1 } hipTextureFilterMode;
typedef enum hipTextureReadMode { hipReadModeElementType = 0, hipReadModeNormalizedFloat = 1 } hipTextureReadMode;

typedef struct hipArray* hipArray_t;
typedef struct hipMipmappedArray* hipMipmappedArray_t;

/// What a texture reads from.
typedef struct hipResourceDesc {
    enum hipResourceType resType;
    union {
        struct {
            hipArray_t array;
        } array;
        struct {
            hipMipmappedArray_t mipmap;
        } mipmap;
        struct {
            void* devPtr;
            struct hipChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void* devPtr;
            struct hipChannelFormatDesc desc;
            size_t width;
            size_t height;
            size_t pitchInBytes;
        } pitch2D;
    } res;
} hipResourceDesc;

/// How a texture is sampled.
typedef struct hipTextureDesc {
    enum hipTextureAddressMode addressMode[3];
    enum hipTextureFilterMode filterMode;
    enum hipTextureReadMode readMode;
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    enum hipTextureFilterMode mipmapFilterMode;
    float mipmapLevelBias;
    float minMipmapLevelClamp;
    float maxMipmapLevelClamp;
} hipTextureDesc;

/// Accepted for signature compatibility; views are not supported (pass nullptr).
typedef struct hipResourceViewDesc {
    int format;
    size_t width;
    size_t height;
    size_t depth;
    unsigned int firstMipmapLevel;
    unsigned int lastMipmapLevel;
    unsigned int firstLayer;
    unsigned int lastLayer;
} hipResourceViewDesc;

/// A texture object: the descriptors it was created with.
struct __hip_texture {
    hipResourceDesc res;
    hipTextureDesc tex;
    const unsigned char* base;
    size_t elem_bytes;
    size_t width;   // texels per row
    size_t height;  // rows (1 for linear)
    size_t pitch;   // bytes per row
};
typedef struct __hip_texture* hipTextureObject_t;

inline hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
    return hipChannelFormatDesc{x, y, z, w, f};
}

namespace hipcpu {
namespace detail {
template <typename T>
struct channel_of {
    static constexpr int n = 0;
};
#define HIPCPU_CHANNEL(T, E, K, N)                   \
    template <>                                      \
    struct channel_of<T> {                           \
        static constexpr int n = N;                  \
        static constexpr int bits = 8 * sizeof(E);   \
        static constexpr hipChannelFormatKind k = K; \
    };
#define HIPCPU_CHANNELS(E, V, K)       \
    HIPCPU_CHANNEL(E, E, K, 1)         \
    HIPCPU_CHANNEL(V##1, E, K, 1)      \
    HIPCPU_CHANNEL(V##2, E, K, 2)      \
    HIPCPU_CHANNEL(V##4, E, K, 4)
HIPCPU_CHANNEL(char, char, hipChannelFormatKindSigned, 1)
HIPCPU_CHANNELS(signed char, char, hipChannelFormatKindSigned)
HIPCPU_CHANNELS(unsigned char, uchar, hipChannelFormatKindUnsigned)
HIPCPU_CHANNELS(short, short, hipChannelFormatKindSigned)
HIPCPU_CHANNELS(unsigned short, ushort, hipChannelFormatKindUnsigned)
HIPCPU_CHANNELS(int, int, hipChannelFormatKindSigned)
HIPCPU_CHANNELS(unsigned int, uint, hipChannelFormatKindUnsigned)
HIPCPU_CHANNELS(float, float, hipChannelFormatKindFloat)
#undef HIPCPU_CHANNELS
#undef HIPCPU_CHANNEL
}  // namespace detail
}  // namespace hipcpu

/// The channel format of T (a scalar or a 1-, 2- or 4-vector of 8-, 16- or 32-bit channels).
template <typename T>
inline hipChannelFormatDesc hipCreateChannelDesc() {
    using C = ::hipcpu::detail::channel_of<T>;
    static_assert(C::n > 0, "hipCreateChannelDesc: unsupported element type");
    const int b = C::bits;
    return hipChannelFormatDesc{b, C::n > 1 ? b : 0, C::n > 2 ? b : 0, C::n > 2 ? b : 0, C::k};
}

inline hipError_t hipCreateTextureObject(hipTextureObject_t* out, const hipResourceDesc* res,
                                         const hipTextureDesc* tex, const hipResourceViewDesc* view) {
    using ::hipcpu::detail::set_error;
    if (!out || !res || !tex) return set_error(hipErrorInvalidValue);
    auto unsupported = [](const char* what) {
        std::fprintf(stderr, "hipcpu: hipCreateTextureObject: %s is not supported\n", what);
        return set_error(hipErrorNotSupported);
    };
    if (view) return unsupported("a resource view");
    if (tex->sRGB) return unsupported("sRGB");
    if (tex->readMode != hipReadModeElementType) return unsupported("hipReadModeNormalizedFloat");
    __hip_texture t;
    std::memset(&t, 0, sizeof t);
    t.res = *res;
    t.tex = *tex;
    hipChannelFormatDesc d;
    switch (res->resType) {
    case hipResourceTypeLinear:
        d = res->res.linear.desc;
        t.base = static_cast<const unsigned char*>(res->res.linear.devPtr);
        t.height = 1;
        break;
    case hipResourceTypePitch2D:
        d = res->res.pitch2D.desc;
        t.base = static_cast<const unsigned char*>(res->res.pitch2D.devPtr);
        t.width = res->res.pitch2D.width;
        t.height = res->res.pitch2D.height;
        t.pitch = res->res.pitch2D.pitchInBytes;
        break;
    default: return unsupported("a hipArray or mipmapped resource");
    }
    const int bits[4] = {d.x, d.y, d.z, d.w};
    int channels = 0;
    for (int c = 0; c < 4; ++c) {
        if (bits[c] == 0) break;
        if (bits[c] != d.x || (bits[c] != 8 && bits[c] != 16 && bits[c] != 32))
            return set_error(hipErrorInvalidValue);
        ++channels;
    }
    if (channels == 0 || channels == 3 || !t.base || d.f == hipChannelFormatKindNone)
        return set_error(hipErrorInvalidValue);
    t.elem_bytes = size_t(channels) * size_t(d.x / 8);
    if (res->resType == hipResourceTypeLinear) {
        t.width = res->res.linear.sizeInBytes / t.elem_bytes;
        t.pitch = res->res.linear.sizeInBytes;
    } else if (t.width == 0 || t.height == 0 || t.pitch < t.width * t.elem_bytes) {
        return set_error(hipErrorInvalidValue);
    }
    if (t.width == 0) return set_error(hipErrorInvalidValue);
    *out = new __hip_texture(t);
    return hipSuccess;
}

inline hipError_t hipDestroyTextureObject(hipTextureObject_t t) {
    delete t;
    return hipSuccess;
}

inline hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc* res, hipTextureObject_t t) {
    if (!res || !t) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *res = t->res;
    return hipSuccess;
}

inline hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc* tex, hipTextureObject_t t) {
    if (!tex || !t) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *tex = t->tex;
    return hipSuccess;
}

namespace hipcpu {
namespace detail {

/// Texel (i, j), or T{} when the element type does not match the texture's format.
template <typename T>
inline T texel(hipTextureObject_t t, long i, long j) {
    T v{};
    if (sizeof(T) != t->elem_bytes) {
        std::fprintf(stderr, "hipcpu: texture read as a %zu-byte type, but its texels have %zu bytes\n", sizeof(T),
                     t->elem_bytes);
        return v;
    }
    std::memcpy(&v, t->base + size_t(j) * t->pitch + size_t(i) * t->elem_bytes, sizeof(T));
    return v;
}

template <typename T>
struct filterable : std::false_type {};
template <>
struct filterable<float> : std::true_type {};
template <>
struct filterable<float1> : std::true_type {};
template <>
struct filterable<float2> : std::true_type {};
template <>
struct filterable<float4> : std::true_type {};
/// The border colour as T (float textures; integer textures get 0).
template <typename T>
inline T border(hipTextureObject_t t) {
    T v{};
    if constexpr (filterable<T>::value) std::memcpy(&v, t->tex.borderColor, sizeof(T));
    return v;
}

/// Maps texel index i along a dimension of n texels by the address mode; false: use the border.
inline bool address(long& i, long n, hipTextureAddressMode mode) {
    switch (mode) {
    case hipAddressModeWrap: i = ((i % n) + n) % n; return true;
    case hipAddressModeMirror: {
        long p = ((i % (2 * n)) + 2 * n) % (2 * n);
        i = p < n ? p : 2 * n - 1 - p;
        return true;
    }
    case hipAddressModeBorder: return i >= 0 && i < n;
    case hipAddressModeClamp:
    default: i = i < 0 ? 0 : (i >= n ? n - 1 : i); return true;
    }
}

template <typename T>
inline T fetch(hipTextureObject_t t, long i, long j) {
    if (!address(i, long(t->width), t->tex.addressMode[0]) || !address(j, long(t->height), t->tex.addressMode[1]))
        return border<T>(t);
    return texel<T>(t, i, j);
}

inline float lerp_texel(float a, float b, float w) { return a + w * (b - a); }
inline float2 lerp_texel(float2 a, float2 b, float w) { return make_float2(lerp_texel(a.x, b.x, w), lerp_texel(a.y, b.y, w)); }
inline float4 lerp_texel(float4 a, float4 b, float w) {
    return make_float4(lerp_texel(a.x, b.x, w), lerp_texel(a.y, b.y, w), lerp_texel(a.z, b.z, w),
                       lerp_texel(a.w, b.w, w));
}
inline float1 lerp_texel(float1 a, float1 b, float w) { return make_float1(lerp_texel(a.x, b.x, w)); }

/// Samples at texture coordinates (x, y) with the texture's filter.
template <typename T>
inline T sample(hipTextureObject_t t, float x, float y) {
    if (t->tex.normalizedCoords) {
        x *= float(t->width);
        y *= float(t->height);
    }
    if constexpr (filterable<T>::value) {
        if (t->tex.filterMode == hipFilterModeLinear) {
            const float xb = x - 0.5f, yb = y - 0.5f;
            const float fx = std::floor(xb), fy = std::floor(yb);
            const long i = long(fx), j = long(fy);
            const float a = xb - fx, b = yb - fy;
            T r0 = lerp_texel(fetch<T>(t, i, j), fetch<T>(t, i + 1, j), a);
            if (t->height == 1) return r0;
            T r1 = lerp_texel(fetch<T>(t, i, j + 1), fetch<T>(t, i + 1, j + 1), a);
            return lerp_texel(r0, r1, b);
        }
    }
    return fetch<T>(t, long(std::floor(x)), long(std::floor(y)));
}
}  // namespace detail
}  // namespace hipcpu

/// Element x of a linear texture; 0 outside it (no addressing modes or filtering, as in HIP).
template <typename T>
inline T tex1Dfetch(hipTextureObject_t t, int x) {
    if (x < 0 || size_t(x) >= t->width) return T{};
    return ::hipcpu::detail::texel<T>(t, x, 0);
}
template <typename T>
inline void tex1Dfetch(T* out, hipTextureObject_t t, int x) {
    *out = tex1Dfetch<T>(t, x);
}
template <typename T>
inline T tex1D(hipTextureObject_t t, float x) {
    return ::hipcpu::detail::sample<T>(t, x, 0.5f);
}
template <typename T>
inline void tex1D(T* out, hipTextureObject_t t, float x) {
    *out = tex1D<T>(t, x);
}
template <typename T>
inline T tex2D(hipTextureObject_t t, float x, float y) {
    return ::hipcpu::detail::sample<T>(t, x, y);
}
template <typename T>
inline void tex2D(T* out, hipTextureObject_t t, float x, float y) {
    *out = tex2D<T>(t, x, y);
}
