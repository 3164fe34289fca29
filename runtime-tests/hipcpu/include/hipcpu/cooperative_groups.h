// hipcpu cooperative_groups.h: the block and tile groups of HIP's cooperative groups, built on the
// barrier and the warp rendezvous. Grid-wide groups need a cooperative launch and are not provided.
#pragma once

#include "device.h"

namespace cooperative_groups {

/// All threads of the block.
class thread_block {
  public:
    void sync() const { __syncthreads(); }
    unsigned int thread_rank() const { return ::hipcpu::detail::tls_fiber->linear; }
    unsigned int size() const { return ::hipcpu::detail::tls_block->nthreads; }
    unsigned int num_threads() const { return size(); }
    dim3 group_index() const { return blockIdx; }
    dim3 thread_index() const { return threadIdx; }
    dim3 group_dim() const { return blockDim; }
    dim3 dim_threads() const { return blockDim; }
};

/// The calling thread's block.
inline thread_block this_thread_block() { return thread_block(); }

/// A tile of N consecutive threads inside one wavefront (N a power of 2, at most the warp width).
template <unsigned int N>
class thread_block_tile {
    static_assert(N > 0 && (N & (N - 1)) == 0 && N <= HIPCPU_WARP_SIZE,
                  "hipcpu: tile size must be a power of 2 no larger than the wavefront size");

  public:
    unsigned int thread_rank() const { return ::hipcpu::detail::tls_fiber->linear % N; }
    unsigned int size() const { return N; }
    unsigned int num_threads() const { return N; }
    unsigned int meta_group_rank() const { return ::hipcpu::detail::tls_fiber->linear / N; }
    unsigned int meta_group_size() const { return (::hipcpu::detail::tls_block->nthreads + N - 1) / N; }
    void sync() const { __syncwarp(lanes()); }
    template <typename T>
    T shfl(T v, int src) const { return __shfl_sync(lanes(), v, src, static_cast<int>(N)); }
    template <typename T>
    T shfl_down(T v, unsigned int delta) const { return __shfl_down_sync(lanes(), v, delta, static_cast<int>(N)); }
    template <typename T>
    T shfl_up(T v, unsigned int delta) const { return __shfl_up_sync(lanes(), v, delta, static_cast<int>(N)); }
    template <typename T>
    T shfl_xor(T v, unsigned int mask) const {
        return __shfl_xor_sync(lanes(), v, static_cast<int>(mask), static_cast<int>(N));
    }
    /// Bit i is set when the tile's thread of rank i passed a non-zero predicate.
    unsigned long long ballot(int pred) const { return __ballot_sync(lanes(), pred) >> base(); }
    int any(int pred) const { return __any_sync(lanes(), pred); }
    int all(int pred) const { return __all_sync(lanes(), pred); }

  private:
    static unsigned int base() { return __lane_id() / N * N; }
    static unsigned long long lanes() {
        unsigned long long bits = N == 64 ? ~0ull : (1ull << (N % 64)) - 1;
        return bits << base();
    }
};

/// Splits the block into tiles of N threads.
template <unsigned int N>
thread_block_tile<N> tiled_partition(const thread_block&) {
    return thread_block_tile<N>();
}

inline void sync(const thread_block& g) { g.sync(); }
template <unsigned int N>
void sync(const thread_block_tile<N>& g) {
    g.sync();
}

}  // namespace cooperative_groups
