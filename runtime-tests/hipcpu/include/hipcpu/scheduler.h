// hipcpu scheduler.h: runs a kernel over a grid. Blocks are spread over a pool of OS threads; each
// OS thread runs one block at a time, with the block's threads as fibers scheduled round-robin.
// A fiber runs until it waits (barrier, warp builtin) or exits. The last thread to reach a barrier
// releases the others; the last lane to reach a warp builtin computes every lane's result.
#pragma once

#include <atomic>
#include <csignal>
#include <condition_variable>
#include <cstdarg>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include "common.h"
#include "fiber.h"

namespace hipcpu {
namespace detail {

constexpr int kWarp = HIPCPU_WARP_SIZE;

/// What a fiber is doing.
enum class FiberState : uint8_t { Runnable, AtBarrier, AtWarpOp, Exited };

/// Warp builtin kinds handled by the warp rendezvous.
enum class WarpOp : uint8_t { Shfl, ShflUp, ShflDown, ShflXor, Ballot, Sync };

/// One GPU thread.
struct Fiber {
    Context ctx;
    dim3 idx;
    uint32_t linear = 0;
    FiberState state = FiberState::Runnable;
    // warp rendezvous
    WarpOp op = WarpOp::Sync;
    bool has_mask = false;
    uint64_t mask = 0;
    uint64_t value = 0;
    int arg = 0;
    int width = kWarp;
    uint64_t result = 0;
    uint64_t group = 0;
    // barrier
    int bar_result = 0;
    int bar_total = 0;  // threads that took part in the last barrier
};

/// Lane bookkeeping of one warp.
struct Warp {
    uint64_t present = 0;  // lanes that exist (a partial last warp has fewer)
    uint64_t exited = 0;
    uint64_t arrived = 0;  // lanes waiting at a warp builtin
};

/// The block running on this OS thread.
struct Block {
    dim3 block_idx;
    dim3 block_dim;
    dim3 grid_dim;
    uint32_t nthreads = 0;
    Fiber* fibers = nullptr;
    Warp* warps = nullptr;
    uint32_t at_barrier = 0;
    uint32_t exited = 0;
    int bar_count = 0;
    unsigned char* dyn_shared = nullptr;
    void (*invoke)(const void*) = nullptr;
    const void* job = nullptr;
    bool failed = false;
    std::string error;
};

/// Per-OS-thread resources: fiber stacks, fiber records and the dynamic shared buffer.
struct Worker {
    Context sched;
    std::vector<Stack> stacks;
    std::vector<Fiber> fibers;
    std::vector<Warp> warps;
    unsigned char* dyn = nullptr;
    size_t dyn_cap = 0;
    ~Worker() { std::free(dyn); }
};

inline thread_local Block* tls_block = nullptr;
inline thread_local Fiber* tls_fiber = nullptr;
inline thread_local Worker* tls_worker = nullptr;

inline size_t stack_bytes() {
    static const size_t bytes = [] {
        const char* s = std::getenv("HIPCPU_STACK_KB");
        long kb = s ? std::atol(s) : 64;
        return static_cast<size_t>(kb < 16 ? 16 : kb) * 1024;
    }();
    return bytes;
}

/// Reports a fault in a fiber stack's guard page as a stack overflow, then lets the default
/// action happen. Other faults are left to the default action too.
inline void on_segv(int sig, siginfo_t* info, void* ctx) {
    Worker* w = tls_worker;
    Fiber* f = tls_fiber;
    if (w && f && f->linear < w->stacks.size()) {
        const Stack& s = w->stacks[f->linear];
        char* addr = static_cast<char*>(info->si_addr);
        bool overflow = addr >= static_cast<char*>(s.base) && addr < static_cast<char*>(s.lo);
#if defined(__x86_64__) && defined(REG_RSP)
        // A frame larger than the guard moves the stack pointer below the stack entirely.
        char* sp = reinterpret_cast<char*>(static_cast<ucontext_t*>(ctx)->uc_mcontext.gregs[REG_RSP]);
        overflow = overflow || sp < static_cast<char*>(s.lo);
#else
        (void)ctx;
#endif
        if (overflow) {
            static const char msg[] =
                "hipcpu: a GPU thread overflowed its fiber stack (large kernel locals or deep recursion); "
                "raise HIPCPU_STACK_KB\n";
            ssize_t r = write(2, msg, sizeof msg - 1);
            (void)r;
        }
    }
    signal(sig, SIG_DFL);  // returning re-runs the faulting access, which now takes the default action
}

/// Gives this OS thread an alternate signal stack and installs on_segv once (unless the program
/// installed its own SIGSEGV handler), so fiber stack overflows are named.
struct FaultReporter {
    void* alt = nullptr;
    FaultReporter() {
        static const bool installed = [] {
            struct sigaction old {};
            if (sigaction(SIGSEGV, nullptr, &old) != 0 || old.sa_handler != SIG_DFL) return false;
            struct sigaction sa {};
            sa.sa_sigaction = &on_segv;
            sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
            sigemptyset(&sa.sa_mask);
            return sigaction(SIGSEGV, &sa, nullptr) == 0;
        }();
        if (!installed) return;
        const size_t size = 64 * 1024;
        alt = std::malloc(size);
        stack_t ss{};
        ss.ss_sp = alt;
        ss.ss_size = size;
        if (!alt || sigaltstack(&ss, nullptr) != 0) {
            std::free(alt);
            alt = nullptr;
        }
    }
    ~FaultReporter() {
        if (!alt) return;
        stack_t ss{};
        ss.ss_flags = SS_DISABLE;
        sigaltstack(&ss, nullptr);
        std::free(alt);
    }
};

inline Worker& worker() {
    static thread_local Worker w;
    static thread_local FaultReporter reporter;
    tls_worker = &w;
    return w;
}

/// Leaves the running fiber (which is waiting or has exited): switches straight to the next
/// runnable fiber of the block, round-robin, or to the block scheduler when there is none.
inline void yield_to_scheduler() {
    Block* b = tls_block;
    Fiber* cur = tls_fiber;
    if (!b->failed) {
        const uint32_t n = b->nthreads;
        uint32_t idx = cur->linear;
        for (uint32_t k = 1; k < n; ++k) {
            if (++idx == n) idx = 0;
            Fiber* f = &b->fibers[idx];
            if (f->state == FiberState::Runnable) {
                tls_fiber = f;
                context_swap(&cur->ctx, &f->ctx);
                return;
            }
        }
    }
    context_swap(&cur->ctx, &tls_worker->sched);
}

/// Records a block error and leaves the fiber for good (its stack is abandoned and reused).
[[noreturn]] inline void fail(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
inline void fail(const char* fmt, ...) {
    Block* b = tls_block;
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    std::vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    b->failed = true;
    b->error = buf;
    tls_fiber->state = FiberState::Exited;
    yield_to_scheduler();
    std::abort();  // never resumed
}

inline uint32_t lane_of(const Fiber* f) { return f->linear % kWarp; }
inline uint64_t bit(uint32_t lane) { return uint64_t(1) << lane; }

/// Source lane of a shuffle with AMD semantics; returns `self` when out of range.
inline uint32_t shuffle_source(WarpOp op, uint32_t self, int arg, int width) {
    int s = static_cast<int>(self);
    int index = s;
    switch (op) {
    case WarpOp::Shfl:
        index = arg + (s & ~(width - 1));
        break;
    case WarpOp::ShflUp:
        index = s - arg;
        if (index < (s & ~(width - 1))) index = s;
        break;
    case WarpOp::ShflDown:
        index = s + arg;
        if ((s & (width - 1)) + arg >= width) index = s;
        break;
    case WarpOp::ShflXor:
        index = s ^ arg;
        if (index >= ((s + width) & ~(width - 1))) index = s;
        break;
    default:
        break;
    }
    // ds_bpermute addresses wrap around the wavefront.
    return static_cast<uint32_t>(((index % kWarp) + kWarp) % kWarp);
}

/// Completes the group of lane `i` of warp `w` if all of its lanes have arrived: computes every
/// member's result and makes them runnable. Returns the group, or 0 if it is not complete yet.
inline uint64_t complete_group(Block* b, uint32_t w, uint32_t i) {
    Warp& warp = b->warps[w];
    Fiber* lanes = b->fibers + w * kWarp;
    const uint64_t live = warp.present & ~warp.exited;
    Fiber& fi = lanes[i];
    const uint64_t group = ((fi.has_mask ? fi.mask : live) & live) | bit(i);
    if (group & ~warp.arrived) return 0;  // someone in the group has not arrived yet
    uint64_t ballot = 0;
    for (uint64_t g = group; g; g &= g - 1) {
        uint32_t j = static_cast<uint32_t>(__builtin_ctzll(g));
        if (lanes[j].op != fi.op)
            fail("warp builtins diverged in warp %u of block (%u,%u,%u): lanes %u and %u called different "
                 "warp builtins (all lanes of a group must call the same one)",
                 w, b->block_idx.x, b->block_idx.y, b->block_idx.z, i, j);
        if (lanes[j].value) ballot |= bit(j);
    }
    for (uint64_t g = group; g; g &= g - 1) {
        uint32_t j = static_cast<uint32_t>(__builtin_ctzll(g));
        Fiber& fj = lanes[j];
        switch (fj.op) {
        case WarpOp::Ballot:
            fj.result = ballot;
            break;
        case WarpOp::Sync:
            fj.result = 0;
            break;
        default: {
            uint32_t src = shuffle_source(fj.op, j, fj.arg, fj.width);
            // A lane outside the group (exited, or not named in the mask) reads as 0.
            fj.result = (group & bit(src)) ? lanes[src].value : 0;
            break;
        }
        }
        fj.group = group;
        fj.state = FiberState::Runnable;
    }
    warp.arrived &= ~group;
    return group;
}

/// Completes every group of warp `w` whose lanes have all arrived (after a lane exits).
inline void try_complete_warp(Block* b, uint32_t w) {
    uint64_t pending = b->warps[w].arrived;
    while (pending) {
        uint32_t i = static_cast<uint32_t>(__builtin_ctzll(pending));
        uint64_t done = complete_group(b, w, i);
        pending &= ~(done | bit(i));
    }
}

/// The warp rendezvous behind every warp builtin; returns this lane's result.
inline uint64_t warp_exchange(WarpOp op, uint64_t value, int arg, int width, bool has_mask, uint64_t mask,
                              uint64_t* group = nullptr) {
    Block* b = tls_block;
    Fiber* f = tls_fiber;
    if (width <= 0 || width > kWarp) width = kWarp;
    f->op = op;
    f->value = value;
    f->arg = arg;
    f->width = width;
    f->has_mask = has_mask;
    f->mask = mask;
    f->state = FiberState::AtWarpOp;
    uint32_t w = f->linear / kWarp;
    b->warps[w].arrived |= bit(lane_of(f));
    // Only this lane's group can have been completed by its arrival.
    if (!complete_group(b, w, lane_of(f))) yield_to_scheduler();
    if (group) *group = f->group;
    return f->result;
}

inline void barrier_divergence(Block* b) {
    fail("barrier divergence in block (%u,%u,%u): %u of %u threads wait at __syncthreads() but %u threads "
         "have exited without reaching it",
         b->block_idx.x, b->block_idx.y, b->block_idx.z, b->at_barrier, b->nthreads, b->exited);
}

/// With HIPCPU_LENIENT_BARRIERS=1, exited threads count as arrived at every barrier, as on AMD
/// hardware (where waves that have ended do not take part in s_barrier). Off by default: a barrier
/// that some threads never reach is undefined behaviour in HIP and CUDA, and is reported.
inline bool lenient_barriers() {
    static const bool on = [] {
        const char* s = std::getenv("HIPCPU_LENIENT_BARRIERS");
        return s && *s == '1';
    }();
    return on;
}

/// Releases every thread waiting at the barrier.
inline void release_barrier(Block* b) {
    const int count = b->bar_count;
    const int total = static_cast<int>(b->at_barrier);
    b->bar_count = 0;
    b->at_barrier = 0;
    for (uint32_t i = 0; i < b->nthreads; ++i) {
        Fiber& o = b->fibers[i];
        if (o.state == FiberState::AtBarrier) {
            o.state = FiberState::Runnable;
            o.bar_result = count;
            o.bar_total = total;
        }
    }
}

/// `__syncthreads()` and its counting forms: returns how many threads passed a non-zero predicate.
inline int block_barrier(int pred) {
    Block* b = tls_block;
    Fiber* f = tls_fiber;
    b->bar_count += pred != 0;
    b->at_barrier++;
    f->state = FiberState::AtBarrier;
    const uint32_t gone = b->exited;
    if (b->at_barrier + (lenient_barriers() ? gone : 0) == b->nthreads) {
        release_barrier(b);  // the last thread to arrive goes on without a switch
        return f->bar_result;
    }
    if (gone > 0 && b->at_barrier + gone == b->nthreads) barrier_divergence(b);
    yield_to_scheduler();
    return f->bar_result;
}

/// Entry of every fiber: run the kernel body for this thread, then retire.
inline void fiber_main() {
    Block* b = tls_block;
    b->invoke(b->job);
    Fiber* f = tls_fiber;
    f->state = FiberState::Exited;
    b->exited++;
    uint32_t w = f->linear / kWarp;
    b->warps[w].exited |= bit(lane_of(f));
    if (b->at_barrier > 0 && b->at_barrier + b->exited == b->nthreads) {
        if (lenient_barriers())
            release_barrier(b);
        else
            barrier_divergence(b);
    }
    if (b->warps[w].arrived) try_complete_warp(b, w);
    yield_to_scheduler();
    std::abort();  // an exited fiber is never resumed
}

/// Runs every thread of `b` to completion on this OS thread. Returns false on a kernel error.
inline bool run_block(Block& b, size_t dyn_bytes) {
    Worker& w = worker();
    uint32_t n = b.nthreads;
    size_t sb = stack_bytes();
    while (w.stacks.size() < n) {
        w.stacks.emplace_back();
        w.stacks.back().allocate(sb);
    }
    if (w.fibers.size() < n) w.fibers.resize(n);
    uint32_t nwarps = (n + kWarp - 1) / kWarp;
    if (w.warps.size() < nwarps) w.warps.resize(nwarps);
    if (dyn_bytes > w.dyn_cap) {
        std::free(w.dyn);
        w.dyn_cap = (dyn_bytes + 63) / 64 * 64;
        w.dyn = static_cast<unsigned char*>(std::aligned_alloc(64, w.dyn_cap));
    }
    // Dynamic shared memory is uninitialized on a GPU; poison it so reads before writes show up.
    if (dyn_bytes) std::memset(w.dyn, 0xFF, dyn_bytes);
    b.dyn_shared = w.dyn;
    b.fibers = w.fibers.data();
    b.warps = w.warps.data();
    uint32_t bx = b.block_dim.x, by = b.block_dim.y;
    for (uint32_t i = 0; i < n; ++i) {
        Fiber& f = w.fibers[i];
        f.linear = i;
        f.idx = dim3(i % bx, (i / bx) % by, i / (bx * by));
        f.state = FiberState::Runnable;
        context_init(&f.ctx, w.stacks[i].lo, w.stacks[i].size, &fiber_main);
    }
    for (uint32_t k = 0; k < nwarps; ++k) {
        uint32_t lanes = (k + 1) * kWarp <= n ? kWarp : n - k * kWarp;
        w.warps[k].present = lanes == 64 ? ~uint64_t(0) : (uint64_t(1) << lanes) - 1;
        w.warps[k].exited = 0;
        w.warps[k].arrived = 0;
    }
    tls_block = &b;
    // Fibers hand control to each other; the scheduler only starts the block and regains control
    // when no fiber can run (finished, failed or deadlocked).
    while (b.exited < n && !b.failed) {
        Fiber* next = nullptr;
        for (uint32_t i = 0; i < n && !next; ++i)
            if (w.fibers[i].state == FiberState::Runnable) next = &w.fibers[i];
        if (next) {
            tls_fiber = next;
            context_swap(&w.sched, &next->ctx);
        } else {
            uint32_t at_warp = 0;
            for (uint32_t i = 0; i < n; ++i) at_warp += w.fibers[i].state == FiberState::AtWarpOp;
            char buf[512];
            std::snprintf(buf, sizeof buf,
                          "deadlock in block (%u,%u,%u): %u threads wait at __syncthreads(), %u wait at a warp "
                          "builtin whose lanes never all arrive, %u exited",
                          b.block_idx.x, b.block_idx.y, b.block_idx.z, b.at_barrier, at_warp, b.exited);
            b.failed = true;
            b.error = buf;
        }
    }
    tls_block = nullptr;
    tls_fiber = nullptr;
    return !b.failed;
}

/// One kernel launch, shared by the OS threads that run its blocks.
struct Launch {
    dim3 grid;
    dim3 block;
    size_t shmem = 0;
    uint64_t nblocks = 0;
    void (*invoke)(const void*) = nullptr;
    const void* job = nullptr;
    std::atomic<uint64_t> next{0};
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
    std::string error;
};

inline void run_blocks(Launch& l) {
    for (;;) {
        if (l.failed.load(std::memory_order_relaxed)) return;
        uint64_t i = l.next.fetch_add(1, std::memory_order_relaxed);
        if (i >= l.nblocks) return;
        Block b;
        b.grid_dim = l.grid;
        b.block_dim = l.block;
        b.block_idx = dim3(static_cast<uint32_t>(i % l.grid.x), static_cast<uint32_t>((i / l.grid.x) % l.grid.y),
                           static_cast<uint32_t>(i / (uint64_t(l.grid.x) * l.grid.y)));
        b.nthreads = l.block.x * l.block.y * l.block.z;
        b.invoke = l.invoke;
        b.job = l.job;
        if (!run_block(b, l.shmem)) {
            std::lock_guard<std::mutex> g(l.error_mutex);
            if (!l.failed.load()) l.error = b.error;
            l.failed.store(true);
        }
    }
}

/// A fixed pool of OS threads that run the blocks of one launch at a time, with the caller helping.
class Pool {
  public:
    static Pool& get() {
        static Pool pool;
        return pool;
    }
    void run(Launch& l) {
        std::lock_guard<std::mutex> one_launch_at_a_time(launch_mutex_);
        if (threads_.empty() || l.nblocks < 2) {
            run_blocks(l);
            return;
        }
        {
            std::lock_guard<std::mutex> g(m_);
            launch_ = &l;
            busy_ = threads_.size();
            ++generation_;
        }
        cv_.notify_all();
        run_blocks(l);
        std::unique_lock<std::mutex> g(m_);
        done_.wait(g, [&] { return busy_ == 0; });
        launch_ = nullptr;
    }
    ~Pool() {
        {
            std::lock_guard<std::mutex> g(m_);
            stop_ = true;
        }
        cv_.notify_all();
        for (auto& t : threads_) t.join();
    }

  private:
    Pool() {
        unsigned n = std::thread::hardware_concurrency();
        if (const char* s = std::getenv("HIPCPU_THREADS")) n = static_cast<unsigned>(std::atoi(s));
        if (n == 0) n = 1;
        for (unsigned i = 1; i < n; ++i) threads_.emplace_back([this] { loop(); });
    }
    void loop() {
        uint64_t seen = 0;
        for (;;) {
            Launch* l;
            {
                std::unique_lock<std::mutex> g(m_);
                cv_.wait(g, [&] { return stop_ || generation_ != seen; });
                if (stop_) return;
                seen = generation_;
                l = launch_;
            }
            run_blocks(*l);
            std::lock_guard<std::mutex> g(m_);
            if (--busy_ == 0) done_.notify_all();
        }
    }
    std::vector<std::thread> threads_;
    std::mutex launch_mutex_;
    std::mutex m_;
    std::condition_variable cv_;
    std::condition_variable done_;
    Launch* launch_ = nullptr;
    size_t busy_ = 0;
    uint64_t generation_ = 0;
    bool stop_ = false;
};

inline unsigned char* dynamic_shared() { return tls_block->dyn_shared; }

}  // namespace detail
}  // namespace hipcpu
