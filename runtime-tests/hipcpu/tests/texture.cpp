// Texture objects over linear and pitched memory, and hipMemset2D.
#include <hip/hip_runtime.h>

#include <cstring>

namespace {

__global__ void fetch_kernel(hipTextureObject_t tex, float* out) { out[threadIdx.x] = tex1Dfetch<float>(tex, int(threadIdx.x) - 3); }

__global__ void fetch_int2_kernel(hipTextureObject_t tex, int2* out) { *out = tex1Dfetch<int2>(tex, 3); }

// Samples at the coordinates in xy (pairs) into out.
__global__ void sample_kernel(hipTextureObject_t tex, const float* xy, float* out) {
    out[threadIdx.x] = tex2D<float>(tex, xy[2 * threadIdx.x], xy[2 * threadIdx.x + 1]);
}

hipTextureObject_t make_linear(void* p, size_t bytes, hipChannelFormatDesc d) {
    hipResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = hipResourceTypeLinear;
    res.res.linear.devPtr = p;
    res.res.linear.desc = d;
    res.res.linear.sizeInBytes = bytes;
    hipTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.readMode = hipReadModeElementType;
    td.filterMode = hipFilterModePoint;
    hipTextureObject_t t = nullptr;
    hipError_t e = hipCreateTextureObject(&t, &res, &td, nullptr);
    if (e != hipSuccess) printf("create_linear=%s\n", hipGetErrorName(e));
    return t;
}

}  // namespace

int case_texture() {
    // 1D fetches: table[i] = 10 i for i < 10, read at index threadIdx.x - 3; outside the table: 0.
    float host[10];
    for (int i = 0; i < 10; ++i) host[i] = 10.0f * i;
    float *table, *out;
    hipMalloc(&table, sizeof host);
    hipMalloc(&out, 64 * sizeof(float));
    hipMemcpy(table, host, sizeof host, hipMemcpyHostToDevice);
    hipTextureObject_t t1 = make_linear(table, sizeof host, hipCreateChannelDesc<float>());
    hipLaunchKernelGGL(fetch_kernel, 1, 16, 0, 0, t1, out);
    printf("fetch.0=%g\nfetch.5=%g\nfetch.12=%g\nfetch.13=%g\n", out[0], out[5], out[12], out[13]);
    hipDestroyTextureObject(t1);

    int2 pairs[8], *pair_out;
    for (int i = 0; i < 8; ++i) pairs[i] = make_int2(i, -i);
    int2* dpairs;
    hipMalloc(&dpairs, sizeof pairs);
    hipMalloc(&pair_out, sizeof(int2));
    hipMemcpy(dpairs, pairs, sizeof pairs, hipMemcpyHostToDevice);
    hipChannelFormatDesc d2 = hipCreateChannelDesc<int2>();
    printf("desc_int2=%d,%d,%d,%d,%d\n", d2.x, d2.y, d2.z, d2.w, int(d2.f));
    hipTextureObject_t t2 = make_linear(dpairs, sizeof pairs, d2);
    hipLaunchKernelGGL(fetch_int2_kernel, 1, 1, 0, 0, t2, pair_out);
    printf("fetch_int2=%d,%d\n", pair_out->x, pair_out->y);
    hipDestroyTextureObject(t2);

    // A 4 x 3 image in pitched memory, v(i, j) = 10 j + i.
    float* img;
    size_t pitch = 0;
    hipMallocPitch(reinterpret_cast<void**>(&img), &pitch, 4 * sizeof(float), 3);
    float rows[12];
    for (int j = 0; j < 3; ++j)
        for (int i = 0; i < 4; ++i) rows[j * 4 + i] = 10.0f * j + i;
    hipMemcpy2D(img, pitch, rows, 4 * sizeof(float), 4 * sizeof(float), 3, hipMemcpyHostToDevice);
    hipResourceDesc res;
    std::memset(&res, 0, sizeof res);
    res.resType = hipResourceTypePitch2D;
    res.res.pitch2D.devPtr = img;
    res.res.pitch2D.desc = hipCreateChannelDesc<float>();
    res.res.pitch2D.width = 4;
    res.res.pitch2D.height = 3;
    res.res.pitch2D.pitchInBytes = pitch;
    float* xy;
    hipMalloc(&xy, 16 * sizeof(float));
    auto sample = [&](hipTextureAddressMode mode, hipTextureFilterMode filter, int normalized,
                      std::initializer_list<float> coords) {
        hipTextureDesc td;
        std::memset(&td, 0, sizeof td);
        td.addressMode[0] = td.addressMode[1] = mode;
        td.filterMode = filter;
        td.readMode = hipReadModeElementType;
        td.normalizedCoords = normalized;
        td.borderColor[0] = -1.0f;
        hipTextureObject_t t = nullptr;
        hipCreateTextureObject(&t, &res, &td, nullptr);
        int n = 0;
        for (float c : coords) xy[n++] = c;
        hipLaunchKernelGGL(sample_kernel, 1, n / 2, 0, 0, t, xy, out);
        hipDestroyTextureObject(t);
    };
    sample(hipAddressModeClamp, hipFilterModePoint, 0, {1.5f, 2.5f, -3.0f, 0.5f, 7.9f, 9.0f});
    printf("point_clamp=%g,%g,%g\n", out[0], out[1], out[2]);
    sample(hipAddressModeBorder, hipFilterModePoint, 0, {4.2f, 0.5f, 3.9f, 0.5f});
    printf("point_border=%g,%g\n", out[0], out[1]);
    sample(hipAddressModeWrap, hipFilterModePoint, 1, {1.25f, 0.5f, -0.1f, 0.9f});
    printf("point_wrap=%g,%g\n", out[0], out[1]);
    sample(hipAddressModeMirror, hipFilterModePoint, 1, {1.25f, 0.5f});
    printf("point_mirror=%g\n", out[0]);
    sample(hipAddressModeClamp, hipFilterModeLinear, 0, {1.0f, 0.5f, 2.25f, 1.75f, 2.5f, 1.5f, 0.0f, 0.0f});
    printf("linear_clamp=%g,%g,%g,%g\n", out[0], out[1], out[2], out[3]);

    hipTextureDesc td;
    std::memset(&td, 0, sizeof td);
    td.readMode = hipReadModeNormalizedFloat;
    hipTextureObject_t bad = nullptr;
    printf("normalized_float=%s\n", hipGetErrorName(hipCreateTextureObject(&bad, &res, &td, nullptr)));
    printf("null_res=%s\n", hipGetErrorName(hipCreateTextureObject(&bad, nullptr, &td, nullptr)));
    hipGetLastError();

    // hipMemset2D sets `width` bytes of each row and leaves the padding.
    unsigned char* p;
    size_t bpitch = 0;
    hipMallocPitch(reinterpret_cast<void**>(&p), &bpitch, 5, 3);
    hipMemset(p, 0x11, bpitch * 3);
    printf("memset2d=%s\n", hipGetErrorName(hipMemset2D(p, bpitch, 0x7f, 5, 3)));
    printf("memset2d_bytes=%#x,%#x,%#x\n", p[2 * bpitch + 4], p[bpitch + 5], p[0]);
    printf("memset2d_too_wide=%s\n", hipGetErrorName(hipMemset2D(p, bpitch, 0, bpitch + 1, 1)));
    hipGetLastError();
    printf("errors=%s\n", hipGetErrorName(hipGetLastError()));
    hipFree(table);
    hipFree(out);
    hipFree(dpairs);
    hipFree(pair_out);
    hipFree(img);
    hipFree(xy);
    hipFree(p);
    return 0;
}
