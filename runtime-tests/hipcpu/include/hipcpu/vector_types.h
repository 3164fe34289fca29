// hipcpu vector_types.h: CUDA/HIP short-vector structs (int2, float4, ...) and make_* functions.
// Like CUDA (and unlike HIP's operator-rich vector templates) they carry no arithmetic operators,
// so kernels that bring their own helper operators compile unchanged.
#pragma once

#define HIPCPU_VEC1(T, N) \
    struct N##1 { T x; }; \
    inline N##1 make_##N##1(T x) { return N##1{x}; }
#define HIPCPU_VEC2(T, N, A) \
    struct __attribute__((aligned(A))) N##2 { T x, y; }; \
    inline N##2 make_##N##2(T x, T y) { return N##2{x, y}; }
#define HIPCPU_VEC3(T, N) \
    struct N##3 { T x, y, z; }; \
    inline N##3 make_##N##3(T x, T y, T z) { return N##3{x, y, z}; }
#define HIPCPU_VEC4(T, N, A) \
    struct __attribute__((aligned(A))) N##4 { T x, y, z, w; }; \
    inline N##4 make_##N##4(T x, T y, T z, T w) { return N##4{x, y, z, w}; }
#define HIPCPU_VEC(T, N, A2, A4) HIPCPU_VEC1(T, N) HIPCPU_VEC2(T, N, A2) HIPCPU_VEC3(T, N) HIPCPU_VEC4(T, N, A4)

HIPCPU_VEC(signed char, char, 2, 4)
HIPCPU_VEC(unsigned char, uchar, 2, 4)
HIPCPU_VEC(short, short, 4, 8)
HIPCPU_VEC(unsigned short, ushort, 4, 8)
HIPCPU_VEC(int, int, 8, 16)
HIPCPU_VEC(unsigned int, uint, 8, 16)
HIPCPU_VEC(long, long, 16, 16)
HIPCPU_VEC(unsigned long, ulong, 16, 16)
HIPCPU_VEC(long long, longlong, 16, 16)
HIPCPU_VEC(unsigned long long, ulonglong, 16, 16)
HIPCPU_VEC(float, float, 8, 16)
HIPCPU_VEC(double, double, 16, 16)

#undef HIPCPU_VEC
#undef HIPCPU_VEC1
#undef HIPCPU_VEC2
#undef HIPCPU_VEC3
#undef HIPCPU_VEC4
