// __half / bfloat16 conversions (round-to-nearest-even) and arithmetic, and device math intrinsics,
// evaluated inside a kernel.
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

namespace {

constexpr int M = 64;

__global__ void numerics_kernel(double* out) {
    if (threadIdx.x != 0) return;
    int i = 0;
    // float -> half bits
    const float to_half[] = {1.0f, 65504.0f, 65520.0f, 65519.0f, 1.0f / 3.0f, ldexpf(1.0f, -24), ldexpf(1.0f, -25),
                             ldexpf(3.0f, -26), 1.0f + ldexpf(1.0f, -11), 1.0f + ldexpf(3.0f, -11), -0.0f, NAN,
                             -INFINITY, 0.1f};
    for (float f : to_half) out[i++] = __half_as_ushort(__float2half(f));                      // 0..13
    out[i++] = __half2float(__ushort_as_half(0x3555));                                          // 14
    out[i++] = __half2float(__ushort_as_half(0x0001));                                          // 15
    out[i++] = __half2float(__ushort_as_half(0xfbff));                                          // 16
    // half arithmetic, rounded once
    __half a = __float2half(0.1f), b = __float2half(0.2f);
    out[i++] = __half_as_ushort(__hadd(a, b));                                                  // 17
    out[i++] = __half_as_ushort(__hmul(__float2half(3.0f), __float2half(1.0f / 3.0f)));        // 18
    out[i++] = __half_as_ushort(__hfma(__float2half(2.0f), __float2half(3.0f), __float2half(0.5f)));  // 19
    out[i++] = __half_as_ushort(__hdiv(__float2half(1.0f), __float2half(3.0f)));               // 20
    out[i++] = __half_as_ushort(hsqrt(__float2half(2.0f)));                                     // 21
    out[i++] = __half_as_ushort(a + b * __float2half(2.0f));                                    // 22
    __half2 h2 = __floats2half2_rn(1.5f, -2.25f);
    __half2 s2 = __hadd2(h2, __half2half2(__float2half(0.25f)));
    out[i++] = __low2float(s2);                                                                 // 23
    out[i++] = __high2float(s2);                                                                // 24
    out[i++] = __hlt(a, b);                                                                     // 25
    out[i++] = __hisnan(__float2half(NAN));                                                     // 26
    out[i++] = __half2int_rn(__float2half(2.5f));                                               // 27
    // float -> bfloat16 bits
    const float to_bf[] = {1.0f, 3.14159265f, 1.0f + ldexpf(1.0f, -8), 1.0f + ldexpf(3.0f, -8), 3.4e38f, -1.5f};
    for (float f : to_bf) out[i++] = __bfloat16_as_ushort(__float2bfloat16(f));                // 28..33
    out[i++] = __bfloat16_as_ushort(__float2bfloat16(NAN)) & 0x7fc0;                           // 34
    out[i++] = __bfloat162float(__ushort_as_bfloat16(0x4049));                                  // 35
    __hip_bfloat16 x = __float2bfloat16(1.5f), y = __float2bfloat16(2.75f);
    out[i++] = __bfloat16_as_ushort(__hmul(x, y));                                              // 36
    out[i++] = __bfloat16_as_ushort(__hadd(x, __float2bfloat16(ldexpf(1.0f, -8))));            // 37
    // float intrinsics
    out[i++] = __saturatef(-1.0f);                                                              // 38
    out[i++] = __saturatef(2.0f);                                                               // 39
    out[i++] = __saturatef(NAN);                                                                // 40
    out[i++] = __saturatef(0.25f);                                                              // 41
    out[i++] = rsqrtf(4.0f);                                                                    // 42
    out[i++] = __fdividef(1.0f, 4.0f);                                                          // 43
    out[i++] = __frcp_rn(8.0f);                                                                 // 44
    out[i++] = __float2int_rn(2.5f);                                                            // 45
    out[i++] = __float2int_rn(3.5f);                                                            // 46
    out[i++] = __float2int_rn(-2.5f);                                                           // 47
    out[i++] = __float2int_rz(-2.7f);                                                           // 48
    out[i++] = __float_as_int(1.0f);                                                            // 49
    out[i++] = __int_as_float(0x40490fdb);                                                      // 50
    out[i++] = erfinvf(erff(0.5f));                                                             // 51
    out[i++] = normcdff(0.0f);                                                                  // 52
    out[i++] = __expf(0.0f) + __logf(1.0f);                                                     // 53
    out[i++] = max(3, 4.5f);                                                                    // 54
    out[i++] = min(7u, 9u);                                                                     // 55
    out[i++] = fmaf(2.0f, 3.0f, 1.0f) + __fmaf_rn(1.0f, 1.0f, 1.0f);                            // 56
    out[i++] = tanhf(0.0f) + sqrtf(16.0f);                                                      // 57
    out[i++] = __double_as_longlong(1.0) >> 52;                                                 // 58
    out[i++] = __hiloint2double(0x3ff00000, 0);                                                 // 59
    out[i] = -12345;                                                                            // sentinel
}

}  // namespace

int case_numerics() {
    double* out;
    hipMalloc(&out, M * sizeof(double));
    hipLaunchKernelGGL(numerics_kernel, 1, 32, 0, 0, out);
    for (int i = 0; i < M && out[i] != -12345; ++i) printf("n%d=%.17g\n", i, out[i]);
    return 0;
}
