//! rulesfix33: a ballot passed on into a 32-bit parameter of the file's own function (R49-a);
//! per-lane spin locks in `__device__` helpers and a struct's `lock()` (V21-e); no warp-sync
//! advice for `_sync` names a live `#define` replaces (R49-f); cuTENSOR's `cutensor/types.h`
//! (V21-g). Every input here is written for these tests.

use crate::common;

use common::{cli_convert, cli_convert_in, diags, help_of, lines_of, report};

// ---- R49-a: a ballot into `popc(unsigned)` / `bfe(unsigned, ...)` ----

/// A block scan of booleans in warps of 32: the vote is counted by the file's own `popc` and
/// cut by its `bfe`, both of which take `unsigned`.
fn scan(bits_decl: &str) -> String {
    format!(
        "\
enum {{ warp_size = 32 }};
__device__ int popc(unsigned x) {{ return __popc(x); }}
__device__ unsigned bfe(unsigned x, unsigned bit, unsigned n) {{ return ((1u << n) - 1) & (x >> bit); }}
template<int nt> struct bool_scan {{
  struct storage_t {{ int warps[nt / warp_size]; }};
  __device__ int scan(int tid, bool x, storage_t& storage) const {{
    int lane = (warp_size - 1) & tid;
    int warp = tid / warp_size;
    {bits_decl}
    storage.warps[warp] = popc(bits);
    __syncthreads();
    return ((warp > 0) ? storage.warps[warp - 1] : 0) + popc(bfe(bits, 0, lane));
  }}
}};
__global__ void k(const int* in, int* out) {{
  __shared__ bool_scan<128>::storage_t st;
  out[threadIdx.x] = bool_scan<128>().scan(threadIdx.x, in[threadIdx.x] != 0, st);
}}
"
    )
}

#[test]
fn r49a_declaration_fix_is_withheld_when_the_ballot_goes_into_32_bit_parameters() {
    let src = scan("int bits = __ballot(x);");
    let (code, err, texts) = cli_convert(&[("scan.cu", &src)], &["--fix"]);
    assert!(code.is_some(), "{err}");
    // No declaration-only widening: the calls would cut the mask again.
    assert!(texts[0].contains("int bits = __ballot(x);"), "{}", texts[0]);
    assert!(!texts[0].contains("long long bits"), "{}", texts[0]);
    let d = diags(&err, "scan.cu");
    let store = report(&err, "H004", "storing it as `int`").expect(&err);
    let help = help_of(&store);
    assert!(help.contains("widening `bits` alone is no fix"), "{help}");
    assert!(help.contains("`popc(unsigned)` at line 10"), "{help}");
    assert!(help.contains("`bfe(unsigned)` at line 12"), "{help}");
    assert!(
        help.contains("unsigned bits = (unsigned)(__ballot(x) >> (__lane_id() & ~31));"),
        "{help}"
    );
    // Each call that cuts the mask is reported where it is.
    let calls: Vec<usize> = d
        .iter()
        .filter(|x| x.0 == "error[H004]" && x.2.contains("takes it as `unsigned`"))
        .map(|x| x.1)
        .collect();
    assert_eq!(calls, vec![10, 12], "{err}");
}

#[test]
fn r49a_a_widened_ballot_into_32_bit_parameters_is_still_reported() {
    // What `--fix` used to write: the declaration widened, the calls as they were.
    let src = scan("unsigned long long bits = __ballot(x);");
    let (_, err, _) = cli_convert(&[("scan.cu", &src)], &[]);
    let d = diags(&err, "scan.cu");
    let at_popc = d
        .iter()
        .find(|x| x.0 == "error[H004]" && x.1 == 10)
        .unwrap_or_else(|| panic!("no H004 at popc(bits): {err}"));
    assert!(
        at_popc.2.contains("`popc` takes it as `unsigned`"),
        "{}",
        at_popc.2
    );
    assert!(at_popc.2.contains("parameter `x`, line 2"), "{}", at_popc.2);
    let help = help_of(&at_popc.2);
    assert!(
        help.contains("unsigned bits = (unsigned)(__ballot(x) >> (__lane_id() & ~31));"),
        "{help}"
    );
    assert!(
        help.contains("make `popc` take `unsigned long long`"),
        "{help}"
    );
    let at_bfe = d
        .iter()
        .find(|x| x.0 == "error[H004]" && x.1 == 12)
        .unwrap_or_else(|| panic!("no H004 at bfe(bits, ...): {err}"));
    assert!(
        at_bfe.2.contains("`bfe` takes it as `unsigned`"),
        "{}",
        at_bfe.2
    );
    // `popc(bfe(...))` is not reported again: `bfe`'s result holds no ballot.
    assert_eq!(lines_of(&d, "error[H004]"), vec![10, 12], "{err}");
}

#[test]
fn r49a_a_64_bit_overload_or_a_half_taken_on_purpose_is_not_reported() {
    // An overload for 64 bits takes the widened value whole.
    let wide = scan("unsigned long long bits = __ballot(x);").replace(
        "__device__ unsigned bfe(",
        "__device__ int popc(unsigned long long x) { return __popcll(x); }\n__device__ unsigned bfe(",
    );
    let (_, err, _) = cli_convert(&[("scan.cu", &wide)], &[]);
    let d = diags(&err, "scan.cu");
    let h004 = lines_of(&d, "error[H004]");
    // `popc(bits)` (line 11 now) picks the 64-bit overload; `bfe(bits, ...)` still cuts it.
    assert_eq!(h004, vec![13], "{err}");
    // This group's half of the vote, taken where it is made: nothing is cut.
    let half = scan("unsigned bits = (unsigned)(__ballot(x) >> (__lane_id() & ~31));");
    let (_, err, _) = cli_convert(&[("scan.cu", &half)], &[]);
    let d = diags(&err, "scan.cu");
    assert!(lines_of(&d, "error[H004]").is_empty(), "{err}");
}

#[test]
fn r49a_a_ballot_that_reaches_no_32_bit_parameter_keeps_its_fix() {
    let src = "\
__device__ int count(unsigned long long m) { return __popcll(m); }
__global__ void k(const int* in, int* out) {
    int bits = __ballot(in[threadIdx.x] > 0);
    out[threadIdx.x] = count(bits);
}
";
    let (_, err, texts) = cli_convert(&[("k.cu", src)], &["--fix"]);
    assert!(
        texts[0].contains("unsigned long long bits = __ballot("),
        "{}\n{err}",
        texts[0]
    );
    let d = diags(&err, "k.cu");
    assert!(lines_of(&d, "error[H004]").is_empty(), "{err}");
    let store = report(&err, "H004", "storing it as `int`").expect(&err);
    assert!(store.contains("(fixed by --fix)"), "{store}");
}

// ---- V21-e: spin locks in helpers ----

const LOCKS: &str = "\
#include <cuda_runtime.h>
__device__ int locks[1024];

__device__ void lock_bucket(int b) {
    int old;
    do {
        old = atomicExch(&locks[b], 1);
    } while (old != 0);
}
__device__ void lock_bucket2(int b) { while (atomicExch(&locks[b], 1) != 0) {} }
__device__ void unlock_bucket(int b) { __threadfence(); atomicExch(&locks[b], 0); }

struct Mutex {
    int* m;
    __device__ void lock() { while (atomicCAS(m, 0, 1) != 0) {} }
    __device__ void unlock() { __threadfence(); atomicExch(m, 0); }
};

__device__ void acquire(int* mutex) { while (atomicCAS(mutex, 0, 1) != 0); }

__global__ void hist(const int* keys, float* vals, int n, Mutex mu, int* mtx) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int b = keys[i] & 1023;
    lock_bucket(b);
    vals[b] += 1.f;
    unlock_bucket(b);
    lock_bucket2(b);
    vals[b] += 1.f;
    unlock_bucket(b);
    mu.lock();
    vals[0] += 1.f;
    mu.unlock();
    acquire(mtx);
    vals[1] += 1.f;
    atomicExch(mtx, 0);
}
";

#[test]
fn v21e_spin_locks_in_helpers_and_a_struct_lock_are_reported() {
    let (_, err, _) = cli_convert(&[("locks.cu", LOCKS)], &[]);
    let d = diags(&err, "locks.cu");
    // The two exchange loops say the same: the second is listed under the first.
    assert_eq!(lines_of(&d, "warning[H005]"), vec![7, 15, 19], "{err}");
    let at_exch = d.iter().find(|x| x.1 == 7).unwrap();
    assert!(
        at_exch
            .2
            .contains("the same in 1 more place of this file: line 10"),
        "{}",
        at_exch.2
    );
    let at_member = d.iter().find(|x| x.1 == 15).unwrap();
    assert!(
        at_member.2.contains("atomicCAS(m, 0, 1)"),
        "{}",
        at_member.2
    );
    assert!(
        at_member.2.contains("per-lane spin lock"),
        "{}",
        at_member.2
    );
}

#[test]
fn v21e_a_helper_lock_taken_by_one_lane_or_never_released_is_not_reported() {
    // The helpers are called by one lane of each block only.
    let one = LOCKS
        .replace(
            "    lock_bucket(b);",
            "    if (threadIdx.x == 0) lock_bucket(b);",
        )
        .replace(
            "    lock_bucket2(b);",
            "    if (threadIdx.x == 0) lock_bucket2(b);",
        )
        .replace("    mu.lock();", "    if (threadIdx.x == 0) mu.lock();");
    let (_, err, _) = cli_convert(&[("locks.cu", &one)], &[]);
    let d = diags(&err, "locks.cu");
    assert_eq!(lines_of(&d, "warning[H005]"), vec![19], "{err}");
    // A flag set to 1 once and never written back with 0 is a wait, not a lock.
    let flag = "\
__device__ int ready[64];
__device__ void wait_ready(int b) { while (atomicExch(&ready[b], 1) != 0) {} }
__global__ void k(int b) { wait_ready(b); }
";
    let (_, err, _) = cli_convert(&[("flag.cu", flag)], &[]);
    let d = diags(&err, "flag.cu");
    assert!(lines_of(&d, "warning[H005]").is_empty(), "{err}");
}

// ---- R49-f: `_sync` names a live `#define` replaces ----

const COMPAT: &str = "\
#pragma once
#if defined(USE_ROCM)
#define __shfl_xor_sync(mask, var, laneMask) __shfl_xor(var, laneMask)
#define __shfl_down_sync(mask, var, laneMask) __shfl_down(var, laneMask)
#endif
";

const NORM: &str = "\
#include <cuda_runtime.h>
#include \"compat.cuh\"
__global__ void k(float* x) {
    float sum = x[threadIdx.x];
    for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_xor_sync(0xffffffff, sum, offset);
    if (threadIdx.x == 0) x[0] = sum;
}
";

#[test]
fn r49f_no_warp_sync_advice_for_names_a_live_define_replaces() {
    // USE_ROCM defined for the build: the header's macros replace every `_sync` call.
    let (_, err, _) = cli_convert(
        &[("ext/compat.cuh", COMPAT), ("ext/norm.cu", NORM)],
        &["-D", "USE_ROCM"],
    );
    assert!(
        !err.contains("HIP_ENABLE_WARP_SYNC_BUILTINS is defined"),
        "{err}"
    );
    // The same macro in the file itself.
    let inline = NORM.replace(
        "#include \"compat.cuh\"\n",
        &COMPAT.replace("#pragma once\n", ""),
    );
    let (_, err, _) = cli_convert(&[("norm.cu", &inline)], &["-D", "USE_ROCM"]);
    assert!(
        !err.contains("HIP_ENABLE_WARP_SYNC_BUILTINS is defined"),
        "{err}"
    );
    // Without the header the call is HIP's own builtin, which needs the define at 6.2.
    let bare = NORM.replace("#include \"compat.cuh\"\n", "");
    let (_, err, _) = cli_convert(&[("norm.cu", &bare)], &["-D", "USE_ROCM"]);
    let h003 = report(&err, "H003", "HIP_ENABLE_WARP_SYNC_BUILTINS is defined").expect(&err);
    assert!(h003.contains("__shfl_xor_sync"), "{h003}");
}

// ---- V21-g: cuTENSOR's sub-header ----

#[test]
fn v21g_cutensor_types_header_becomes_hiptensors() {
    let src = "\
#include \"cutensor.h\"
#include <cutensor/types.h>
void f(cutensorHandle_t h) { cutensorDestroy(h); }
";
    let (_, _, err, texts) = cli_convert_in(&[("c.cu", src)], "6.2", &[]);
    assert!(
        texts[0].contains("#include <hiptensor/hiptensor_types.hpp>"),
        "{}\n{err}",
        texts[0]
    );
    assert!(!texts[0].contains("cutensor/types.h"), "{}", texts[0]);
    // Before hipTensor (ROCm 5.7) it stays, and is reported as the umbrella header is.
    let (_, _, err, texts) = cli_convert_in(&[("c.cu", src)], "5.6", &[]);
    assert!(
        texts[0].contains("#include <cutensor/types.h>"),
        "{}",
        texts[0]
    );
    assert!(
        err.lines()
            .any(|l| l.contains("cutensor/types.h") && l.contains("]: ")),
        "{err}"
    );
}
