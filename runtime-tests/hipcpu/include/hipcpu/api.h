// hipcpu api.h: the host runtime API (memory, streams, events, device queries, errors, launches).
// Every "device" is the host: device pointers are host pointers, and work runs synchronously.
#pragma once

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <tuple>
#include <type_traits>
#include <utility>

#include "common.h"
#include "scheduler.h"

/// Stream handle (work is synchronous; a stream only records its flags).
typedef struct ihipStream_t {
    unsigned flags;
    int priority;
}* hipStream_t;
/// Event handle (records a host timestamp).
typedef struct ihipEvent_t {
    std::chrono::steady_clock::time_point when;
    bool recorded;
}* hipEvent_t;

/// Copy directions.
typedef enum hipMemcpyKind {
    hipMemcpyHostToHost = 0,
    hipMemcpyHostToDevice = 1,
    hipMemcpyDeviceToHost = 2,
    hipMemcpyDeviceToDevice = 3,
    hipMemcpyDefault = 4,
} hipMemcpyKind;

/// Device attributes answered by hipDeviceGetAttribute.
typedef enum hipDeviceAttribute_t {
    hipDeviceAttributeWarpSize,
    hipDeviceAttributeMaxThreadsPerBlock,
    hipDeviceAttributeMaxBlockDimX,
    hipDeviceAttributeMaxBlockDimY,
    hipDeviceAttributeMaxBlockDimZ,
    hipDeviceAttributeMaxGridDimX,
    hipDeviceAttributeMaxGridDimY,
    hipDeviceAttributeMaxGridDimZ,
    hipDeviceAttributeMaxSharedMemoryPerBlock,
    hipDeviceAttributeSharedMemPerBlockOptin,
    hipDeviceAttributeMaxSharedMemoryPerMultiprocessor,
    hipDeviceAttributeMultiprocessorCount,
    hipDeviceAttributeMaxThreadsPerMultiProcessor,
    hipDeviceAttributeComputeCapabilityMajor,
    hipDeviceAttributeComputeCapabilityMinor,
    hipDeviceAttributeClockRate,
    hipDeviceAttributeMemoryClockRate,
    hipDeviceAttributeMemoryBusWidth,
    hipDeviceAttributeL2CacheSize,
    hipDeviceAttributeTotalConstantMemory,
    hipDeviceAttributeMaxRegistersPerBlock,
    hipDeviceAttributeIntegrated,
    hipDeviceAttributeConcurrentKernels,
    hipDeviceAttributeManagedMemory,
    hipDeviceAttributeCooperativeLaunch,
} hipDeviceAttribute_t;

/// Device properties (the commonly read subset of HIP's struct).
typedef struct hipDeviceProp_t {
    char name[256];
    char gcnArchName[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    size_t sharedMemPerBlockOptin;
    size_t sharedMemPerMultiprocessor;
    size_t maxSharedMemoryPerMultiProcessor;
    int regsPerBlock;
    int regsPerMultiprocessor;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    int memoryClockRate;
    int memoryBusWidth;
    size_t totalConstMem;
    int major;
    int minor;
    int multiProcessorCount;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    int maxBlocksPerMultiProcessor;
    int computeMode;
    int integrated;
    int canMapHostMemory;
    int concurrentKernels;
    int managedMemory;
    int unifiedAddressing;
    int cooperativeLaunch;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int isMultiGpuBoard;
    int asyncEngineCount;
    int ECCEnabled;
} hipDeviceProp_t;

#define hipStreamDefault 0x0
#define hipStreamNonBlocking 0x1
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipHostMallocDefault 0x0
#define hipHostMallocPortable 0x1
#define hipHostMallocMapped 0x2
#define hipHostMallocWriteCombined 0x4
#define hipHostRegisterDefault 0x0
#define hipHostRegisterMapped 0x2
#define hipMemAttachGlobal 0x1
#define hipMemAttachHost 0x2
#define hipDeviceScheduleAuto 0x0
#define hipDeviceMapHost 0x8

typedef enum hipFuncCache_t {
    hipFuncCachePreferNone,
    hipFuncCachePreferShared,
    hipFuncCachePreferL1,
    hipFuncCachePreferEqual
} hipFuncCache_t;
typedef enum hipSharedMemConfig {
    hipSharedMemBankSizeDefault,
    hipSharedMemBankSizeFourByte,
    hipSharedMemBankSizeEightByte
} hipSharedMemConfig;
typedef enum hipFuncAttribute {
    hipFuncAttributeMaxDynamicSharedMemorySize = 8,
    hipFuncAttributePreferredSharedMemoryCarveout = 9,
} hipFuncAttribute;

namespace hipcpu {
namespace detail {
inline thread_local hipError_t last_error = hipSuccess;
inline std::atomic<int> pending_error{hipSuccess};

inline hipError_t set_error(hipError_t e) {
    if (e != hipSuccess) last_error = e;
    return e;
}
inline hipError_t take_pending() {
    int e = pending_error.exchange(hipSuccess);
    return set_error(static_cast<hipError_t>(e));
}
inline ihipStream_t& null_stream() {
    static ihipStream_t s{0, 0};
    return s;
}
constexpr size_t kSharedPerBlock = 65536;
constexpr uint32_t kMaxThreads = 1024;
inline int sm_count() {
    unsigned n = std::thread::hardware_concurrency();
    return n ? static_cast<int>(n) : 1;
}

/// Arguments of one launch, converted to the kernel's parameter types.
template <typename... P>
struct Job {
    void (*kernel)(P...);
    std::tuple<P...> args;
    static void invoke(const void* self) {
        const Job* j = static_cast<const Job*>(self);
        std::apply(j->kernel, j->args);  // each thread gets its own copies of the parameters
    }
};

template <typename... P, typename... A>
hipError_t launch(const char* name, void (*kernel)(P...), dim3 grid, dim3 block, size_t shmem, hipStream_t,
                  A&&... args) {
    static_assert(sizeof...(P) == sizeof...(A), "hipLaunchKernelGGL: argument count differs from the kernel's");
    uint64_t threads = uint64_t(block.x) * block.y * block.z;
    if (grid.x == 0 || grid.y == 0 || grid.z == 0 || threads == 0 || threads > kMaxThreads || block.x > 1024 ||
        block.y > 1024 || block.z > 1024 || grid.y > 65535 || grid.z > 65535 || grid.x > 0x7fffffffu) {
        std::fprintf(stderr, "hipcpu: invalid launch configuration for %s: grid (%u,%u,%u) block (%u,%u,%u)\n", name,
                     grid.x, grid.y, grid.z, block.x, block.y, block.z);
        return set_error(hipErrorInvalidConfiguration);
    }
    if (shmem > kSharedPerBlock) {
        std::fprintf(stderr, "hipcpu: %s asks for %zu bytes of dynamic shared memory (limit %zu)\n", name, shmem,
                     kSharedPerBlock);
        return set_error(hipErrorInvalidValue);
    }
    using J = Job<std::decay_t<P>...>;
    J job{kernel, std::tuple<std::decay_t<P>...>(std::forward<A>(args)...)};
    Launch l;
    l.grid = grid;
    l.block = block;
    l.shmem = shmem;
    l.nblocks = uint64_t(grid.x) * grid.y * grid.z;
    l.invoke = &J::invoke;
    l.job = &job;
    Pool::get().run(l);
    if (l.failed.load()) {
        std::fprintf(stderr, "hipcpu: kernel %s failed: %s\n", name, l.error.c_str());
        if (const char* a = std::getenv("HIPCPU_ABORT_ON_ERROR"); a && *a == '1') std::abort();
        pending_error.store(hipErrorLaunchFailure);
        return set_error(hipErrorLaunchFailure);
    }
    return hipSuccess;
}
}  // namespace detail
}  // namespace hipcpu

/// Launches `kernel` over `grid` x `block` (synchronously); template-ids with commas are accepted.
#define hipLaunchKernelGGL(kernel, ...) ::hipcpu::detail::launch(#kernel, kernel, __VA_ARGS__)

// ---- errors ----
inline hipError_t hipGetLastError() {
    hipError_t e = ::hipcpu::detail::last_error;
    ::hipcpu::detail::last_error = hipSuccess;
    return e;
}
inline hipError_t hipPeekAtLastError() { return ::hipcpu::detail::last_error; }
inline const char* hipGetErrorName(hipError_t e) {
    switch (e) {
#define HIPCPU_ERR(x) \
    case x: return #x;
        HIPCPU_ERR(hipSuccess)
        HIPCPU_ERR(hipErrorInvalidValue)
        HIPCPU_ERR(hipErrorOutOfMemory)
        HIPCPU_ERR(hipErrorNotInitialized)
        HIPCPU_ERR(hipErrorDeinitialized)
        HIPCPU_ERR(hipErrorInvalidConfiguration)
        HIPCPU_ERR(hipErrorInvalidPitchValue)
        HIPCPU_ERR(hipErrorInvalidSymbol)
        HIPCPU_ERR(hipErrorInvalidDevicePointer)
        HIPCPU_ERR(hipErrorInvalidMemcpyDirection)
        HIPCPU_ERR(hipErrorInsufficientDriver)
        HIPCPU_ERR(hipErrorMissingConfiguration)
        HIPCPU_ERR(hipErrorPriorLaunchFailure)
        HIPCPU_ERR(hipErrorInvalidDeviceFunction)
        HIPCPU_ERR(hipErrorNoDevice)
        HIPCPU_ERR(hipErrorInvalidDevice)
        HIPCPU_ERR(hipErrorInvalidImage)
        HIPCPU_ERR(hipErrorInvalidContext)
        HIPCPU_ERR(hipErrorInvalidKernelFile)
        HIPCPU_ERR(hipErrorInvalidHandle)
        HIPCPU_ERR(hipErrorNotFound)
        HIPCPU_ERR(hipErrorNotReady)
        HIPCPU_ERR(hipErrorIllegalAddress)
        HIPCPU_ERR(hipErrorLaunchOutOfResources)
        HIPCPU_ERR(hipErrorLaunchTimeOut)
        HIPCPU_ERR(hipErrorAssert)
        HIPCPU_ERR(hipErrorLaunchFailure)
        HIPCPU_ERR(hipErrorCooperativeLaunchTooLarge)
        HIPCPU_ERR(hipErrorNotSupported)
        HIPCPU_ERR(hipErrorUnknown)
#undef HIPCPU_ERR
    }
    return "hipErrorUnknown";
}
inline const char* hipGetErrorString(hipError_t e) {
    switch (e) {
    case hipSuccess: return "no error";
    case hipErrorInvalidValue: return "invalid argument";
    case hipErrorOutOfMemory: return "out of memory";
    case hipErrorInvalidConfiguration: return "invalid configuration argument";
    case hipErrorInvalidSymbol: return "invalid device symbol";
    case hipErrorInvalidDevicePointer: return "invalid device pointer";
    case hipErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case hipErrorInvalidDevice: return "invalid device ordinal";
    case hipErrorInvalidHandle: return "invalid resource handle";
    case hipErrorNotReady: return "device not ready";
    case hipErrorLaunchFailure: return "unspecified launch failure";
    case hipErrorNotSupported: return "operation not supported";
    default: return hipGetErrorName(e);
    }
}

// ---- device management ----
inline hipError_t hipInit(unsigned) { return hipSuccess; }
inline hipError_t hipGetDeviceCount(int* count) {
    if (!count) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *count = 1;
    return hipSuccess;
}
inline hipError_t hipSetDevice(int dev) {
    return dev == 0 ? hipSuccess : ::hipcpu::detail::set_error(hipErrorInvalidDevice);
}
inline hipError_t hipGetDevice(int* dev) {
    if (!dev) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *dev = 0;
    return hipSuccess;
}
inline hipError_t hipDeviceSynchronize() { return ::hipcpu::detail::take_pending(); }
inline hipError_t hipDeviceReset() { return hipSuccess; }
inline hipError_t hipSetDeviceFlags(unsigned) { return hipSuccess; }
inline hipError_t hipDeviceSetCacheConfig(hipFuncCache_t) { return hipSuccess; }
inline hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig) { return hipSuccess; }
inline hipError_t hipDriverGetVersion(int* v) {
    if (!v) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *v = HIP_VERSION;
    return hipSuccess;
}
inline hipError_t hipRuntimeGetVersion(int* v) { return hipDriverGetVersion(v); }
inline hipError_t hipDeviceCanAccessPeer(int* can, int, int) {
    if (!can) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *can = 0;
    return hipSuccess;
}
inline hipError_t hipGetDeviceProperties(hipDeviceProp_t* p, int dev) {
    if (!p) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    if (dev != 0) return ::hipcpu::detail::set_error(hipErrorInvalidDevice);
    std::memset(p, 0, sizeof *p);
    std::snprintf(p->name, sizeof p->name, "hipcpu");
    std::snprintf(p->gcnArchName, sizeof p->gcnArchName, "hipcpu-wave%d", HIPCPU_WARP_SIZE);
    long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    p->totalGlobalMem = pages > 0 && page > 0 ? size_t(pages) * size_t(page) : size_t(1) << 32;
    p->sharedMemPerBlock = ::hipcpu::detail::kSharedPerBlock;
    p->sharedMemPerBlockOptin = ::hipcpu::detail::kSharedPerBlock;
    p->sharedMemPerMultiprocessor = ::hipcpu::detail::kSharedPerBlock;
    p->maxSharedMemoryPerMultiProcessor = ::hipcpu::detail::kSharedPerBlock;
    p->regsPerBlock = 65536;
    p->regsPerMultiprocessor = 65536;
    p->warpSize = HIPCPU_WARP_SIZE;
    p->memPitch = size_t(1) << 31;
    p->maxThreadsPerBlock = 1024;
    p->maxThreadsDim[0] = p->maxThreadsDim[1] = p->maxThreadsDim[2] = 1024;
    p->maxGridSize[0] = 0x7fffffff;
    p->maxGridSize[1] = p->maxGridSize[2] = 65535;
    p->clockRate = 1000000;
    p->memoryClockRate = 1000000;
    p->memoryBusWidth = 64;
    p->totalConstMem = 65536;
    p->major = 9;
    p->minor = 0;
    p->multiProcessorCount = ::hipcpu::detail::sm_count();
    p->l2CacheSize = 4 << 20;
    p->maxThreadsPerMultiProcessor = 2048;
    p->maxBlocksPerMultiProcessor = 2;
    p->integrated = 1;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 0;
    p->managedMemory = 1;
    p->unifiedAddressing = 1;
    p->cooperativeLaunch = 0;
    return hipSuccess;
}
inline hipError_t hipDeviceGetAttribute(int* value, hipDeviceAttribute_t attr, int dev) {
    if (!value) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    hipDeviceProp_t p;
    hipError_t e = hipGetDeviceProperties(&p, dev);
    if (e != hipSuccess) return e;
    switch (attr) {
    case hipDeviceAttributeWarpSize: *value = p.warpSize; break;
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
    case hipDeviceAttributeSharedMemPerBlockOptin:
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: *value = int(p.sharedMemPerBlock); break;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: *value = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; break;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; break;
    case hipDeviceAttributeClockRate: *value = p.clockRate; break;
    case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; break;
    case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; break;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; break;
    case hipDeviceAttributeTotalConstantMemory: *value = int(p.totalConstMem); break;
    case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; break;
    case hipDeviceAttributeIntegrated: *value = p.integrated; break;
    case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; break;
    case hipDeviceAttributeManagedMemory: *value = p.managedMemory; break;
    case hipDeviceAttributeCooperativeLaunch: *value = p.cooperativeLaunch; break;
    default: return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    }
    return hipSuccess;
}
inline hipError_t hipMemGetInfo(size_t* free_bytes, size_t* total) {
    if (!free_bytes || !total) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    long avail = sysconf(_SC_AVPHYS_PAGES), pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);
    *free_bytes = size_t(avail) * size_t(page);
    *total = size_t(pages) * size_t(page);
    return hipSuccess;
}

// ---- memory ----
namespace hipcpu {
namespace detail {
inline hipError_t allocate(void** ptr, size_t size) {
    if (!ptr) return set_error(hipErrorInvalidValue);
    *ptr = nullptr;
    if (size == 0) return hipSuccess;
    void* p = std::aligned_alloc(256, (size + 255) / 256 * 256);
    if (!p) return set_error(hipErrorOutOfMemory);
    *ptr = p;
    return hipSuccess;
}
inline bool valid_kind(hipMemcpyKind k) { return static_cast<unsigned>(k) <= 4; }
}  // namespace detail
}  // namespace hipcpu

inline hipError_t hipMalloc(void** ptr, size_t size) { return ::hipcpu::detail::allocate(ptr, size); }
template <typename T>
inline hipError_t hipMalloc(T** ptr, size_t size) {
    return hipMalloc(reinterpret_cast<void**>(ptr), size);
}
inline hipError_t hipFree(void* ptr) {
    std::free(ptr);
    return hipSuccess;
}
inline hipError_t hipHostMalloc(void** ptr, size_t size, unsigned = 0) { return ::hipcpu::detail::allocate(ptr, size); }
template <typename T>
inline hipError_t hipHostMalloc(T** ptr, size_t size, unsigned flags = 0) {
    return hipHostMalloc(reinterpret_cast<void**>(ptr), size, flags);
}
inline hipError_t hipMallocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size); }
inline hipError_t hipHostAlloc(void** ptr, size_t size, unsigned flags) { return hipHostMalloc(ptr, size, flags); }
inline hipError_t hipHostFree(void* ptr) { return hipFree(ptr); }
inline hipError_t hipFreeHost(void* ptr) { return hipFree(ptr); }
inline hipError_t hipMallocManaged(void** ptr, size_t size, unsigned = hipMemAttachGlobal) {
    return ::hipcpu::detail::allocate(ptr, size);
}
template <typename T>
inline hipError_t hipMallocManaged(T** ptr, size_t size, unsigned flags = hipMemAttachGlobal) {
    return hipMallocManaged(reinterpret_cast<void**>(ptr), size, flags);
}
inline hipError_t hipMallocPitch(void** ptr, size_t* pitch, size_t width, size_t height) {
    if (!pitch) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *pitch = (width + 255) / 256 * 256;
    return ::hipcpu::detail::allocate(ptr, *pitch * height);
}
inline hipError_t hipHostRegister(void*, size_t, unsigned) { return hipSuccess; }
inline hipError_t hipHostUnregister(void*) { return hipSuccess; }
inline hipError_t hipHostGetDevicePointer(void** dev, void* host, unsigned) {
    if (!dev) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *dev = host;
    return hipSuccess;
}
inline hipError_t hipMemcpy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind) {
    if (!::hipcpu::detail::valid_kind(kind)) return ::hipcpu::detail::set_error(hipErrorInvalidMemcpyDirection);
    if (bytes == 0) return hipSuccess;
    if (!dst || !src) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    std::memmove(dst, src, bytes);
    return hipSuccess;
}
inline hipError_t hipMemcpyAsync(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t = nullptr) {
    return hipMemcpy(dst, src, bytes, kind);
}
inline hipError_t hipMemcpyHtoD(void* dst, const void* src, size_t bytes) {
    return hipMemcpy(dst, src, bytes, hipMemcpyHostToDevice);
}
inline hipError_t hipMemcpyDtoH(void* dst, const void* src, size_t bytes) {
    return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToHost);
}
inline hipError_t hipMemcpyDtoD(void* dst, const void* src, size_t bytes) {
    return hipMemcpy(dst, src, bytes, hipMemcpyDeviceToDevice);
}
inline hipError_t hipMemcpy2D(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width, size_t height,
                              hipMemcpyKind kind) {
    if (!::hipcpu::detail::valid_kind(kind)) return ::hipcpu::detail::set_error(hipErrorInvalidMemcpyDirection);
    if (width > dpitch || width > spitch) return ::hipcpu::detail::set_error(hipErrorInvalidPitchValue);
    for (size_t r = 0; r < height; ++r)
        std::memmove(static_cast<char*>(dst) + r * dpitch, static_cast<const char*>(src) + r * spitch, width);
    return hipSuccess;
}
inline hipError_t hipMemcpy2DAsync(void* dst, size_t dpitch, const void* src, size_t spitch, size_t width,
                                   size_t height, hipMemcpyKind kind, hipStream_t = nullptr) {
    return hipMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}
inline hipError_t hipMemset(void* dst, int value, size_t bytes) {
    if (bytes == 0) return hipSuccess;
    if (!dst) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    std::memset(dst, value, bytes);
    return hipSuccess;
}
inline hipError_t hipMemsetAsync(void* dst, int value, size_t bytes, hipStream_t = nullptr) {
    return hipMemset(dst, value, bytes);
}
inline hipError_t hipMemsetD8(void* dst, unsigned char value, size_t count) { return hipMemset(dst, value, count); }
inline hipError_t hipMemsetD16(void* dst, unsigned short value, size_t count) {
    if (count && !dst) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    for (size_t i = 0; i < count; ++i) static_cast<unsigned short*>(dst)[i] = value;
    return hipSuccess;
}
inline hipError_t hipMemsetD32(void* dst, int value, size_t count) {
    if (count && !dst) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    for (size_t i = 0; i < count; ++i) static_cast<int*>(dst)[i] = value;
    return hipSuccess;
}
inline hipError_t hipMemset2D(void* dst, size_t pitch, int value, size_t width, size_t height) {
    if (width == 0 || height == 0) return hipSuccess;
    if (!dst || width > pitch) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    for (size_t r = 0; r < height; ++r) std::memset(static_cast<char*>(dst) + r * pitch, value, width);
    return hipSuccess;
}
inline hipError_t hipMemset2DAsync(void* dst, size_t pitch, int value, size_t width, size_t height,
                                   hipStream_t = nullptr) {
    return hipMemset2D(dst, pitch, value, width, height);
}
inline hipError_t hipMemPrefetchAsync(const void*, size_t, int, hipStream_t = nullptr) { return hipSuccess; }

// Symbols (`__device__` / `__constant__` variables are ordinary globals here).
inline hipError_t hipMemcpyToSymbol(const void* symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice) {
    if (!symbol) return ::hipcpu::detail::set_error(hipErrorInvalidSymbol);
    return hipMemcpy(static_cast<char*>(const_cast<void*>(symbol)) + offset, src, bytes, kind);
}
inline hipError_t hipMemcpyFromSymbol(void* dst, const void* symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost) {
    if (!symbol) return ::hipcpu::detail::set_error(hipErrorInvalidSymbol);
    return hipMemcpy(dst, static_cast<const char*>(symbol) + offset, bytes, kind);
}
template <typename T>
inline hipError_t hipMemcpyToSymbol(const T& symbol, const void* src, size_t bytes, size_t offset = 0,
                                    hipMemcpyKind kind = hipMemcpyHostToDevice) {
    if (offset + bytes > sizeof(T)) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    return hipMemcpyToSymbol(static_cast<const void*>(&symbol), src, bytes, offset, kind);
}
template <typename T>
inline hipError_t hipMemcpyFromSymbol(void* dst, const T& symbol, size_t bytes, size_t offset = 0,
                                      hipMemcpyKind kind = hipMemcpyDeviceToHost) {
    if (offset + bytes > sizeof(T)) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    return hipMemcpyFromSymbol(dst, static_cast<const void*>(&symbol), bytes, offset, kind);
}
template <typename T>
inline hipError_t hipMemcpyToSymbolAsync(const T& symbol, const void* src, size_t bytes, size_t offset,
                                         hipMemcpyKind kind, hipStream_t = nullptr) {
    return hipMemcpyToSymbol(symbol, src, bytes, offset, kind);
}
template <typename T>
inline hipError_t hipMemcpyFromSymbolAsync(void* dst, const T& symbol, size_t bytes, size_t offset,
                                           hipMemcpyKind kind, hipStream_t = nullptr) {
    return hipMemcpyFromSymbol(dst, symbol, bytes, offset, kind);
}
template <typename T>
inline hipError_t hipGetSymbolAddress(void** ptr, const T& symbol) {
    if (!ptr) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *ptr = const_cast<void*>(static_cast<const void*>(&symbol));
    return hipSuccess;
}
template <typename T>
inline hipError_t hipGetSymbolSize(size_t* size, const T&) {
    if (!size) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *size = sizeof(T);
    return hipSuccess;
}

// ---- streams and events ----
inline hipError_t hipStreamCreateWithPriority(hipStream_t* s, unsigned flags, int priority) {
    if (!s) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *s = new ihipStream_t{flags, priority};
    return hipSuccess;
}
inline hipError_t hipStreamCreateWithFlags(hipStream_t* s, unsigned flags) {
    return hipStreamCreateWithPriority(s, flags, 0);
}
inline hipError_t hipStreamCreate(hipStream_t* s) { return hipStreamCreateWithPriority(s, hipStreamDefault, 0); }
inline hipError_t hipStreamDestroy(hipStream_t s) {
    if (!s) return ::hipcpu::detail::set_error(hipErrorInvalidHandle);
    delete s;
    return hipSuccess;
}
inline hipError_t hipStreamSynchronize(hipStream_t) { return ::hipcpu::detail::take_pending(); }
inline hipError_t hipStreamQuery(hipStream_t) { return hipSuccess; }
inline hipError_t hipStreamWaitEvent(hipStream_t, hipEvent_t, unsigned = 0) { return hipSuccess; }
inline hipError_t hipDeviceGetStreamPriorityRange(int* least, int* greatest) {
    if (least) *least = 0;
    if (greatest) *greatest = 0;
    return hipSuccess;
}
inline hipError_t hipEventCreateWithFlags(hipEvent_t* e, unsigned) {
    if (!e) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *e = new ihipEvent_t{std::chrono::steady_clock::time_point{}, false};
    return hipSuccess;
}
inline hipError_t hipEventCreate(hipEvent_t* e) { return hipEventCreateWithFlags(e, hipEventDefault); }
inline hipError_t hipEventRecord(hipEvent_t e, hipStream_t = nullptr) {
    if (!e) return ::hipcpu::detail::set_error(hipErrorInvalidHandle);
    e->when = std::chrono::steady_clock::now();
    e->recorded = true;
    return hipSuccess;
}
inline hipError_t hipEventSynchronize(hipEvent_t e) {
    if (!e) return ::hipcpu::detail::set_error(hipErrorInvalidHandle);
    return ::hipcpu::detail::take_pending();
}
inline hipError_t hipEventQuery(hipEvent_t e) {
    if (!e) return ::hipcpu::detail::set_error(hipErrorInvalidHandle);
    return hipSuccess;
}
inline hipError_t hipEventElapsedTime(float* ms, hipEvent_t start, hipEvent_t stop) {
    if (!ms) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    if (!start || !stop || !start->recorded || !stop->recorded)
        return ::hipcpu::detail::set_error(hipErrorInvalidHandle);
    *ms = std::chrono::duration<float, std::milli>(stop->when - start->when).count();
    return hipSuccess;
}
inline hipError_t hipEventDestroy(hipEvent_t e) {
    if (!e) return ::hipcpu::detail::set_error(hipErrorInvalidHandle);
    delete e;
    return hipSuccess;
}

// ---- kernel attributes and occupancy ----
template <typename F>
inline hipError_t hipFuncSetAttribute(F, hipFuncAttribute, int) {
    return hipSuccess;
}
template <typename F>
inline hipError_t hipFuncSetCacheConfig(F, hipFuncCache_t) {
    return hipSuccess;
}
template <typename F>
inline hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, F, int block_size, size_t = 0) {
    if (!blocks || block_size <= 0) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *blocks = 2048 / block_size > 0 ? 2048 / block_size : 1;
    return hipSuccess;
}
template <typename F>
inline hipError_t hipOccupancyMaxPotentialBlockSize(int* grid, int* block, F, size_t = 0, int limit = 0) {
    if (!grid || !block) return ::hipcpu::detail::set_error(hipErrorInvalidValue);
    *block = limit > 0 && limit < 1024 ? limit : 1024;
    *grid = ::hipcpu::detail::sm_count() * 2;
    return hipSuccess;
}
