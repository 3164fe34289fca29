// hipcpu fiber.h: user-space context switching for the threads of a block.
// On x86-64 ELF a small assembly routine saves the callee-saved registers and switches stacks;
// elsewhere ucontext (makecontext/swapcontext) is used.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__x86_64__) && defined(__ELF__) && !defined(HIPCPU_USE_UCONTEXT)
#define HIPCPU_ASM_SWITCH 1
// hipcpu_ctx_swap(save, load): push callee-saved state, store sp in *save, continue on stack `load`.
// Weak symbols so that every translation unit may carry the same definition.
__asm__(R"(
    .text
    .weak hipcpu_ctx_swap
    .type hipcpu_ctx_swap,@function
    .p2align 4
hipcpu_ctx_swap:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw (%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr 8(%rsp)
    fldcw (%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size hipcpu_ctx_swap, .-hipcpu_ctx_swap
    .weak hipcpu_ctx_start
    .type hipcpu_ctx_start,@function
    .p2align 4
hipcpu_ctx_start:
    callq *%r12
    ud2
    .size hipcpu_ctx_start, .-hipcpu_ctx_start
)");
extern "C" void hipcpu_ctx_swap(void** save, void* load);
extern "C" void hipcpu_ctx_start();
#else
#include <ucontext.h>
#endif

namespace hipcpu {
namespace detail {

/// A saved execution context.
struct Context {
#ifdef HIPCPU_ASM_SWITCH
    void* sp = nullptr;
#else
    ucontext_t uc;
#endif
};

/// Prepares `ctx` to run `entry()` on the stack [stack, stack + size) when first switched to.
inline void context_init(Context* ctx, void* stack, size_t size, void (*entry)()) {
#ifdef HIPCPU_ASM_SWITCH
    uintptr_t top = (reinterpret_cast<uintptr_t>(stack) + size) & ~uintptr_t(15);
    uint64_t* sp = reinterpret_cast<uint64_t*>(top - 88);
    sp[0] = 0x037F;                                            // x87 control word
    sp[1] = 0x1F80;                                            // mxcsr
    sp[2] = sp[3] = sp[4] = 0;                                 // r15 r14 r13
    sp[5] = reinterpret_cast<uint64_t>(entry);                 // r12: called by hipcpu_ctx_start
    sp[6] = sp[7] = 0;                                         // rbx rbp
    sp[8] = reinterpret_cast<uint64_t>(&hipcpu_ctx_start);     // return address
    ctx->sp = sp;
#else
    getcontext(&ctx->uc);
    ctx->uc.uc_stack.ss_sp = stack;
    ctx->uc.uc_stack.ss_size = size;
    ctx->uc.uc_link = nullptr;
    makecontext(&ctx->uc, entry, 0);
#endif
}

/// Saves the running context in `from` and resumes `to`.
inline void context_swap(Context* from, Context* to) {
#ifdef HIPCPU_ASM_SWITCH
    hipcpu_ctx_swap(&from->sp, to->sp);
#else
    swapcontext(&from->uc, &to->uc);
#endif
}

/// A fiber stack with a 64 KiB guard region below it, so an overflow faults instead of corrupting memory.
struct Stack {
    void* base = nullptr;  // start of the mapping (guard page)
    size_t total = 0;
    void* lo = nullptr;    // usable range
    size_t size = 0;

    Stack() = default;
    Stack(const Stack&) = delete;
    Stack& operator=(const Stack&) = delete;
    Stack(Stack&& o) noexcept { *this = static_cast<Stack&&>(o); }
    Stack& operator=(Stack&& o) noexcept {
        if (this != &o) {
            release();
            base = o.base; total = o.total; lo = o.lo; size = o.size;
            o.base = nullptr; o.total = 0; o.lo = nullptr; o.size = 0;
        }
        return *this;
    }
    ~Stack() { release(); }

    void allocate(size_t bytes) {
        size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
        size_t guard = 64 * 1024 > page ? 64 * 1024 : page;  // address space only
        size = (bytes + page - 1) / page * page;
        total = size + guard;
        base = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (base == MAP_FAILED) {
            std::fprintf(stderr, "hipcpu: cannot map a %zu-byte fiber stack\n", total);
            std::abort();
        }
        mprotect(base, guard, PROT_NONE);
        lo = static_cast<char*>(base) + guard;
    }
    void release() {
        if (base) munmap(base, total);
        base = nullptr;
    }
};

}  // namespace detail
}  // namespace hipcpu
