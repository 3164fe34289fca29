// hipcpu: a HIP runtime for the host, used to run translated HIP kernels without a GPU.
// common.h: configuration macros, qualifiers, dim3, error codes and the build-time warp width.
#pragma once

#include <cstddef>
#include <cstdint>

#ifndef HIPCPU_WARP_SIZE
#define HIPCPU_WARP_SIZE 64
#endif
#if HIPCPU_WARP_SIZE != 32 && HIPCPU_WARP_SIZE != 64
#error "hipcpu: HIPCPU_WARP_SIZE must be 32 or 64"
#endif

#define __HIPCPU__ 1
#define HIPCPU_VERSION 1
// Translated sources target AMD; take their AMD code paths.
#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif

// hipcpu models the HIP 6.2 interface (64-bit lane masks, _sync warp builtins).
#ifndef HIP_VERSION_MAJOR
#define HIP_VERSION_MAJOR 6
#define HIP_VERSION_MINOR 2
#define HIP_VERSION_PATCH 0
#define HIP_VERSION (HIP_VERSION_MAJOR * 10000000 + HIP_VERSION_MINOR * 100000 + HIP_VERSION_PATCH)
#endif

// Compile-time wavefront width, as hipcc defines it for device code (deprecated upstream).
#define __AMDGCN_WAVEFRONT_SIZE HIPCPU_WARP_SIZE
#define __AMDGCN_WAVEFRONT_SIZE__ HIPCPU_WARP_SIZE

// Function and variable qualifiers. Every function is a host function here.
#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __launch_bounds__(...)
#define __forceinline__ inline __attribute__((always_inline))
#define __align__(n) __attribute__((aligned(n)))
// Static shared memory: a block-scope `thread_local` is implicitly static, so there is one copy per
// OS thread. Each OS thread runs one block at a time to completion (the block's threads are fibers
// on that OS thread), so one copy per OS thread is one copy per running block.
#define __shared__ thread_local
// Dynamic shared memory: the start of the launch's dynamic shared buffer of the running block.
#define HIP_DYNAMIC_SHARED(type, var) type* var = reinterpret_cast<type*>(::hipcpu::detail::dynamic_shared());
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(x) x

/// Grid and block extents, as in HIP.
struct dim3 {
    uint32_t x;
    uint32_t y;
    uint32_t z;
    constexpr dim3(uint32_t x_ = 1, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
};

/// HIP error codes (same values as HIP).
typedef enum hipError_t {
    hipSuccess = 0,
    hipErrorInvalidValue = 1,
    hipErrorOutOfMemory = 2,
    hipErrorMemoryAllocation = 2,
    hipErrorNotInitialized = 3,
    hipErrorInitializationError = 3,
    hipErrorDeinitialized = 4,
    hipErrorInvalidConfiguration = 9,
    hipErrorInvalidPitchValue = 12,
    hipErrorInvalidSymbol = 13,
    hipErrorInvalidDevicePointer = 17,
    hipErrorInvalidMemcpyDirection = 21,
    hipErrorInsufficientDriver = 35,
    hipErrorMissingConfiguration = 52,
    hipErrorPriorLaunchFailure = 53,
    hipErrorInvalidDeviceFunction = 98,
    hipErrorNoDevice = 100,
    hipErrorInvalidDevice = 101,
    hipErrorInvalidImage = 200,
    hipErrorInvalidContext = 201,
    hipErrorInvalidKernelFile = 218,
    hipErrorInvalidHandle = 400,
    hipErrorInvalidResourceHandle = 400,
    hipErrorNotFound = 500,
    hipErrorNotReady = 600,
    hipErrorIllegalAddress = 700,
    hipErrorLaunchOutOfResources = 701,
    hipErrorLaunchTimeOut = 702,
    hipErrorAssert = 710,
    hipErrorLaunchFailure = 719,
    hipErrorCooperativeLaunchTooLarge = 720,
    hipErrorNotSupported = 801,
    hipErrorUnknown = 999,
} hipError_t;

namespace hipcpu {
namespace detail {
/// Not constexpr on purpose: `warpSize` is a runtime value, as in ROCm 7.
inline int warp_size_rt() { return HIPCPU_WARP_SIZE; }
}  // namespace detail
}  // namespace hipcpu

/// The wavefront width of this build (32 or 64); a runtime constant, not usable in constant expressions.
inline const int warpSize = ::hipcpu::detail::warp_size_rt();
