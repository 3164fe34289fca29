//! rulesfix31: a 64-bit ballot carried through an expression into 32 bits (R48-e); device
//! checks that the warp has 32 lanes (R48-f); the PTX `bfe` help (R48-d); lane 31 in 32-lane
//! groups (R48-b); a do-while spin lock (V20-f); T033 (V20-b). Every input here is written for
//! these tests.

use crate::common;

use common::{convert_exact as convert, diags, lines_of};

use std::process::Command;

const CARRIED: &str = "\
__global__ void split(const unsigned* keys, unsigned* out, int k) {
    unsigned peers = 0xffffffff;
    const bool t = keys[threadIdx.x] & 1;
    peers &= (t ? 0 : 0xffffffff) ^ __ballot_sync(0xffffffff, t);
    unsigned acc = 0;
    acc |= __ballot_sync(0xffffffff, t) << k;
    unsigned inv = ~__ballot_sync(0xffffffff, t);
    unsigned cut = (unsigned)__ballot_sync(0xffffffff, t);
    unsigned pick = t ? __ballot_sync(0xffffffff, t) : 0u;
    out[threadIdx.x] = __popc(peers) + (__ffs(acc) - 1) + __popc(inv) + cut + pick;
}
";

/// The right forms next to them: a wide word, a half taken on purpose, a mask of low lanes.
const RIGHT: &str = "\
__global__ void right(const unsigned* keys, unsigned* out, int k) {
    const bool t = keys[threadIdx.x] & 1;
    unsigned long long all = ~0ull;
    all &= (t ? 0ull : ~0ull) ^ __ballot_sync(~0ull, t);
    unsigned long long acc = 0;
    acc |= __ballot_sync(~0ull, t) << k;
    unsigned high = (unsigned)(__ballot_sync(~0ull, t) >> 32);
    unsigned mine = (unsigned)(__ballot_sync(~0ull, t) >> (__lane_id() & 32));
    unsigned low = (unsigned)(__ballot_sync(~0ull, t) & 0xffu);
    out[threadIdx.x] = __popcll(all) + __popcll(acc) + high + mine + low;
}
";

#[test]
fn r48e_ballot_carried_through_an_expression_into_32_bits() {
    for v in ["6.2", "5.2.3"] {
        let (_, err) = convert(
            &[("k.cu", CARRIED)],
            &["--hip-version", v, "--offload-arch", "gfx90a,gfx1030"],
        );
        let d = diags(&err, "k.cu");
        let lines = lines_of(&d, "error[H004]");
        for want in [4, 6, 7, 8, 9] {
            assert!(
                lines.contains(&want),
                "{v}: H004 expected on line {want}: {lines:?}\n{err}"
            );
        }
        // The `&=` with a 32-bit constant: no fix (widening the word alone keeps the constant's
        // 32 bits), and the help says what else to change.
        let peers = d.iter().find(|x| x.0 == "error[H004]" && x.1 == 4).unwrap();
        assert!(peers.2.contains("~0ull"), "{}", peers.2);
        assert!(peers.2.contains("__popcll"), "{}", peers.2);
    }
}

#[test]
fn r48e_wide_words_and_deliberate_halves_are_not_flagged() {
    let (_, err) = convert(
        &[("k.cu", RIGHT)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a,gfx1030"],
    );
    let d = diags(&err, "k.cu");
    let h004: Vec<_> = d
        .iter()
        .filter(|x| x.0.starts_with("error[H004") || x.0.starts_with("warning[H004"))
        .collect();
    assert!(h004.is_empty(), "{h004:?}\n{err}");
}

/// R48-f: a device check that the warp has 32 lanes stops the kernel on 64-lane wavefronts.
const CHECKS: &str = "\
#include <cassert>
#define LANES 32
__global__ void checked(int* out) {
    assert(warpSize == 32);
    out[threadIdx.x] = 1;
}
__global__ void trapped(int* out) {
    if (warpSize != LANES) __trap();
    out[threadIdx.x] = 2;
}
__global__ void branches(int* out) {
    if (warpSize == 32) {
        out[threadIdx.x] = 3;
    } else {
        out[threadIdx.x] = 4;
    }
    assert(warpSize >= 32);
}
";

#[test]
fn r48f_warp_size_checks_in_device_code() {
    let (_, err) = convert(
        &[("c.cu", CHECKS)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a,gfx1030"],
    );
    let d = diags(&err, "c.cu");
    let errors = lines_of(&d, "error[H001]");
    assert!(errors.contains(&4), "{errors:?}\n{err}");
    assert!(errors.contains(&8), "{errors:?}\n{err}");
    // A branch on the size that does not stop the kernel, and a check that holds on every
    // target, are not this error.
    assert!(!errors.contains(&12), "{errors:?}\n{err}");
    assert!(!errors.contains(&17), "{errors:?}\n{err}");
    let four = d.iter().find(|x| x.0 == "error[H001]" && x.1 == 4).unwrap();
    assert!(four.2.contains("NDEBUG"), "{}", four.2);
    assert!(four.2.contains("help:"), "{}", four.2);
    // With RDNA alone (32-lane wavefronts) the check holds: a note at most.
    let (_, err) = convert(
        &[("c.cu", CHECKS)],
        &["--hip-version", "6.2", "--offload-arch", "gfx1030"],
    );
    let d = diags(&err, "c.cu");
    assert!(!d.iter().any(|x| x.0 == "error[H001]" && x.1 == 4), "{err}");
}

/// R48-d: the help for PTX `bfe` says that AMD's bit extract reads 5 bits of the length.
#[test]
fn r48d_bfe_help_warns_of_the_five_bit_width() {
    let src = "\
__device__ unsigned field(unsigned v, unsigned at, unsigned n) {
    unsigned r;
    asm(\"bfe.u32 %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(v), \"r\"(at), \"r\"(n));
    return r;
}
";
    let (_, err) = convert(&[("b.cu", src)], &["--hip-version", "6.2"]);
    let d = diags(&err, "b.cu");
    let h006 = d
        .iter()
        .find(|x| x.0.contains("[H006]") && x.2.contains("__bitextract_u32"))
        .unwrap_or_else(|| panic!("{err}"));
    assert!(h006.2.contains("5"), "{}", h006.2);
    assert!(h006.2.contains("gives 0"), "{}", h006.2);
}

/// R48-b: lane 31 read in code that works in 32-lane groups: the help gives a width of 32, not
/// `warpSize - 1`; in code of the whole warp it stays `warpSize - 1`.
#[test]
fn r48b_lane_31_in_32_lane_groups_gets_a_width_of_32() {
    let grouped = "\
__device__ int group_sum(int x) {
    int lane = threadIdx.x & 31;
    for (int d = 1; d < 32; d *= 2) {
        int y = __shfl_up_sync(0xffffffff, x, d);
        if (lane >= d) x += y;
    }
    return __shfl_sync(0xffffffff, x, 31);
}
";
    let whole = "\
__device__ int last_of(int x) {
    return __shfl_sync(0xffffffff, x, 31);
}
";
    let (_, err) = convert(
        &[("g.cu", grouped), ("w.cu", whole)],
        &["--hip-version", "6.2", "--offload-arch", "gfx90a,gfx1030"],
    );
    let g = diags(&err, "g.cu");
    let lane31 = g
        .iter()
        .find(|x| x.0 == "error[H001]" && x.1 == 7)
        .unwrap_or_else(|| panic!("{err}"));
    assert!(
        lane31.2.contains("__shfl_sync(0xffffffff, x, 31, 32)"),
        "{}",
        lane31.2
    );
    let w = diags(&err, "w.cu");
    let lane31 = w
        .iter()
        .find(|x| x.0 == "error[H001]" && x.1 == 2)
        .unwrap_or_else(|| panic!("{err}"));
    assert!(lane31.2.contains("use `warpSize - 1`"), "{}", lane31.2);
    assert!(!lane31.2.contains(", 32)"), "{}", lane31.2);
}

/// V20-f: a spin lock whose exchange sits in a do-while's body, the loop testing its result.
#[test]
fn v20f_do_while_lock_with_the_exchange_in_the_body() {
    let src = "\
__device__ int gate;
__device__ int value;
__global__ void add_locked(int v) {
    int prev;
    do {
        prev = atomicExch(&gate, 1);
    } while (prev != 0);
    value += v;
    __threadfence();
    atomicExch(&gate, 0);
}
__global__ void cas_retry(int* x, int v) {
    int seen = *x, want;
    do {
        want = seen;
        seen = atomicCAS(x, want, want + v);
    } while (seen != want);
}
__global__ void try_once(int v) {
    int prev;
    do {
        prev = atomicExch(&gate, 1);
        if (prev == 0) { value += v; atomicExch(&gate, 0); }
    } while (prev != 0);
}
";
    let (_, err) = convert(&[("l.cu", src)], &["--hip-version", "6.2"]);
    let d = diags(&err, "l.cu");
    let lines = lines_of(&d, "warning[H005]");
    assert_eq!(lines, vec![6], "{err}");
}

/// V20-b: a name whose HIP form changed after the target release (`hip_changed`) is reported.
#[test]
fn v20b_hip_signature_changed_after_the_target() {
    let src = "\
#include <cutensor.h>
void make() {
    cutensorHandle_t h;
    cutensorCreate(&h);
    cutensorDestroy(h);
}
";
    let (_, err) = convert(&[("t.cu", src)], &["--hip-version", "6.2"]);
    let d = diags(&err, "t.cu");
    let t033: Vec<_> = d.iter().filter(|x| x.0 == "warning[T033]").collect();
    // `hiptensorDestroy` changed with it (it took `hiptensorHandle_t*` before 7.0).
    let lines: Vec<usize> = t033.iter().map(|x| x.1).collect();
    assert_eq!(lines, vec![4, 5], "{err}");
    assert!(t033[0].2.contains("hiptensorCreate"), "{}", t033[0].2);
    assert!(t033[0].2.contains("7.0"), "{}", t033[0].2);
    // From the release that changed it, nothing to say.
    let (_, err) = convert(&[("t.cu", src)], &["--hip-version", "7.0"]);
    assert!(!err.contains("[T033]"), "{err}");
    // The explanation exists.
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "T033"])
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("hipTensor"));
}
