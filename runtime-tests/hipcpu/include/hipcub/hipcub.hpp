// hipcpu: a minimal hipCUB for the host: the reduction functors, WarpReduce and BlockReduce.
//
// As in hipCUB on AMD (rocPRIM underneath):
// - WarpReduce's default logical warp is the wavefront (HIPCPU_WARP_SIZE lanes, 32 or 64), and a
//   logical warp must be a power of two no wider than the wavefront. The result is valid in lane 0
//   of each logical warp only; it is computed with __shfl_down over the logical warp.
// - BlockReduce (any algorithm) reduces each warp with WarpReduce, gathers the warp partials in
//   TempStorage and returns the block result in thread 0 only. Callers must __syncthreads()
//   before reusing TempStorage, as with CUB.
// - Reductions that take a number of valid items ignore the inputs of lanes/threads at or above it.
#pragma once

#include <hip/hip_runtime.h>

#include <type_traits>

#define HIPCUB_WARP_THREADS HIPCPU_WARP_SIZE
#define HIPCUB_DEVICE_WARP_THREADS HIPCPU_WARP_SIZE
#define HIPCUB_HOST_WARP_THREADS HIPCPU_WARP_SIZE
#define HIPCUB_ARCH 1

namespace hipcub {

/// a + b.
struct Sum {
    template <typename T>
    T operator()(const T& a, const T& b) const {
        return a + b;
    }
};
/// The larger of a and b (b when they compare equal is not observable for scalars).
struct Max {
    template <typename T>
    T operator()(const T& a, const T& b) const {
        return a < b ? b : a;
    }
};
/// The smaller of a and b.
struct Min {
    template <typename T>
    T operator()(const T& a, const T& b) const {
        return b < a ? b : a;
    }
};

/// Reduction within logical warps of LOGICAL_WARP_THREADS lanes.
template <typename T, int LOGICAL_WARP_THREADS = HIPCUB_DEVICE_WARP_THREADS, int ARCH = HIPCUB_ARCH>
class WarpReduce {
    static_assert(LOGICAL_WARP_THREADS > 0 && (LOGICAL_WARP_THREADS & (LOGICAL_WARP_THREADS - 1)) == 0 &&
                      LOGICAL_WARP_THREADS <= HIPCPU_WARP_SIZE,
                  "hipcpu hipcub::WarpReduce: the logical warp must be a power of two no larger than the wavefront");

public:
    /// Shuffle-based reductions need no shared memory; the type exists so code can declare it.
    struct TempStorage {
        unsigned char unused;
    };

    explicit WarpReduce(TempStorage&) {}

    T Sum(T input) { return Reduce(input, ::hipcub::Sum()); }
    T Sum(T input, int valid_items) { return Reduce(input, ::hipcub::Sum(), valid_items); }

    template <typename ReductionOp>
    T Reduce(T input, ReductionOp op) {
        return Reduce(input, op, LOGICAL_WARP_THREADS);
    }

    /// Lane 0 of each logical warp gets op over the inputs of lanes [0, valid_items).
    template <typename ReductionOp>
    T Reduce(T input, ReductionOp op, int valid_items) {
        const int lane = static_cast<int>(__lane_id()) & (LOGICAL_WARP_THREADS - 1);
        T v = input;
        for (int offset = 1; offset < LOGICAL_WARP_THREADS; offset <<= 1) {
            T other = __shfl_down(v, offset, LOGICAL_WARP_THREADS);
            // Combine in tree order: lane l (a multiple of 2*offset) takes lane l + offset.
            if ((lane & (2 * offset - 1)) == 0 && lane + offset < valid_items) v = op(v, other);
        }
        return v;
    }
};

enum BlockReduceAlgorithm {
    BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY,
    BLOCK_REDUCE_RAKING,
    BLOCK_REDUCE_WARP_REDUCTIONS,
};

/// Reduction across a block of BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z threads.
template <typename T, int BLOCK_DIM_X, BlockReduceAlgorithm ALGORITHM = BLOCK_REDUCE_WARP_REDUCTIONS,
          int BLOCK_DIM_Y = 1, int BLOCK_DIM_Z = 1, int ARCH = HIPCUB_ARCH>
class BlockReduce {
    static constexpr int kThreads = BLOCK_DIM_X * BLOCK_DIM_Y * BLOCK_DIM_Z;
    static constexpr int kWarps = (kThreads + HIPCPU_WARP_SIZE - 1) / HIPCPU_WARP_SIZE;
    static_assert(kThreads > 0 && kThreads <= 1024, "hipcpu hipcub::BlockReduce: 1 to 1024 threads");

public:
    /// Room for one partial per warp.
    struct TempStorage {
        alignas(T) unsigned char partials[sizeof(T) * kWarps];
    };

    explicit BlockReduce(TempStorage& storage) : storage_(storage) {}

    T Sum(T input) { return Reduce(input, ::hipcub::Sum()); }
    template <int ITEMS>
    T Sum(T (&inputs)[ITEMS]) {
        return Reduce(inputs, ::hipcub::Sum());
    }
    T Sum(T input, int num_valid) { return Reduce(input, ::hipcub::Sum(), num_valid); }

    template <typename ReductionOp>
    T Reduce(T input, ReductionOp op) {
        return Reduce(input, op, kThreads);
    }

    /// Each thread first reduces its own items, in order.
    template <int ITEMS, typename ReductionOp>
    T Reduce(T (&inputs)[ITEMS], ReductionOp op) {
        T v = inputs[0];
        for (int i = 1; i < ITEMS; ++i) v = op(v, inputs[i]);
        return Reduce(v, op, kThreads);
    }

    /// Thread 0 gets op over the inputs of threads [0, num_valid).
    template <typename ReductionOp>
    T Reduce(T input, ReductionOp op, int num_valid) {
        const int tid = static_cast<int>(threadIdx.x + BLOCK_DIM_X * (threadIdx.y + BLOCK_DIM_Y * threadIdx.z));
        const int warp = tid / HIPCPU_WARP_SIZE;
        const int warp_base = warp * HIPCPU_WARP_SIZE;
        typename WarpReduce<T>::TempStorage unused;
        T partial = WarpReduce<T>(unused).Reduce(input, op, num_valid - warp_base);
        T* partials = reinterpret_cast<T*>(storage_.partials);
        if (tid == warp_base && warp_base < num_valid) partials[warp] = partial;
        __syncthreads();
        T result = partial;
        if (tid == 0) {
            for (int w = 1; w < kWarps && w * HIPCPU_WARP_SIZE < num_valid; ++w) result = op(result, partials[w]);
        }
        return result;
    }

private:
    TempStorage& storage_;
};

}  // namespace hipcub
