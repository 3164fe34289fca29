//! rulesfix34: named 32-bit lane masks ANDed with a ballot (R50-a); namespace-qualified block
//! sizes (V22-g); lane arithmetic in kernels of 32-thread blocks (V22-j); comment-only asm in
//! PTX's comment syntax (V22-e); CUB 1.7's two-argument shuffles (R50-d); the count of a 32-bit
//! ballot variable (R50-3); PTX shifts in H006's table (R50-1). Every input here is written for
//! these tests.

use crate::common;

use common::{cli_convert, cli_convert_in, diags, help_of, lines_of, report};

// ---- R50-a: a ballot ANDed with a named 32-bit constant ----

const NAMED_MASKS: &str = "\
#include <cstdint>
#include \"slab.h\"
static constexpr uint32_t KEY_MASK = 0x15555555;
namespace cfg { constexpr unsigned kMask = 0x15555555u; }
template <typename K> struct MapT { static constexpr uint32_t NODE_MASK = 0x15555555; };
template <typename K>
__global__ void find(const uint32_t* slab, uint32_t key, int* out) {
  using M = MapT<K>;
  uint32_t laneId = threadIdx.x & 0x1F;
  uint32_t v = slab[laneId];
  int a = __ffs(__ballot_sync(0xFFFFFFFF, v == key) & KEY_MASK) - 1;
  int b = __ffs(__ballot_sync(0xFFFFFFFF, v == key) & M::NODE_MASK) - 1;
  int c = __popc(__ballot_sync(0xFFFFFFFF, v == key) & MapT<K>::NODE_MASK);
  int d = __popc(__ballot_sync(0xFFFFFFFF, v == key) & cfg::kMask);
  int e = __ffs(__ballot_sync(0xFFFFFFFF, v == key) & SlabT::HEADER_MASK) - 1;
  int f = __popc(__ballot_sync(0xFFFFFFFF, v == key) & WIDE_MASK);
  if (laneId == 0) { out[0] = a; out[1] = b; out[2] = c; out[3] = d; out[4] = e; out[5] = f; }
}
template __global__ void find<int>(const uint32_t*, uint32_t, int*);
";

const SLAB_H: &str = "\
#pragma once
#include <cstdint>
struct SlabT {
  static constexpr uint32_t HEADER_MASK = 0x15555555;
};
static constexpr uint64_t WIDE_MASK = 0x5555555555555555ull;
";

#[test]
fn r50a_named_32_bit_masks_are_read_as_their_values() {
    let (code, err, _) = cli_convert(&[("k.cu", NAMED_MASKS), ("slab.h", SLAB_H)], &[]);
    assert!(code.is_some(), "{err}");
    let d = diags(&err, "k.cu");
    let masked: Vec<usize> = d
        .iter()
        .filter(|x| x.0 == "error[H004]" && x.2.contains("a mask of lanes 0-31"))
        .map(|x| x.1)
        .collect();
    // The file's constant, a class member (through an alias and through the template), a
    // namespace member, and a header's class member.
    assert_eq!(masked, vec![11, 12, 13, 14, 15], "{err}");
    let a = report(&err, "H004", "masked with `KEY_MASK`").expect(&err);
    assert!(help_of(&a).contains("`...ull`"), "{a}");
    // A 64-bit mask of the whole wavefront is no cut: the rename is exact.
    let f = d.iter().find(|x| x.1 == 16).expect(&err);
    assert_eq!(f.0, "note[H004]", "{err}");
}

// ---- V22-g: `<<<g, cfg::kBlock>>>` ----

fn rotate(decl: &str, block: &str) -> String {
    format!(
        "\
#include <cuda_runtime.h>
{decl}
__global__ void rotate(const float *x, float *y, int n) {{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int tgx = threadIdx.x & 31;
  float v = i < n ? x[i] : 0.f;
  for (int k = 1; k < 32; k <<= 1)
    v += __shfl_sync(0xffffffff, v, (tgx + k) & 31);
  unsigned m = __ballot_sync(0xffffffff, v > 0.f);
  if (i < n) y[i] = v + __popc(m);
}}
void run(const float *x, float *y, int n) {{
  rotate<<<(n + {block} - 1) / {block}, {block}>>>(x, y, n);
}}
"
    )
}

#[test]
fn v22g_a_namespace_qualified_block_size_is_the_block_size() {
    for (decl, block) in [
        (
            "namespace cfg { constexpr int kBlock = 32; }",
            "cfg::kBlock",
        ),
        (
            "namespace cfg { constexpr int kBlock = 32; }\nusing cfg::kBlock;",
            "kBlock",
        ),
        (
            "namespace outer { namespace cfg { static const int kBlock = 32; } }",
            "outer::cfg::kBlock",
        ),
    ] {
        let src = rotate(decl, block);
        let (code, err, texts) = cli_convert(&[("rot.cu", &src)], &["--fix"]);
        assert!(code.is_some(), "{err}");
        // The 32-thread blocks make the full mask the 32 lanes that run: no 64-bit full mask,
        // which HIP's mask check traps on.
        assert!(!texts[0].contains("0xffffffffffffffffull"), "{}", texts[0]);
        assert!(
            texts[0].contains("__shfl_sync(0xffffffffull, v, (tgx + k) & 31)"),
            "{}",
            texts[0]
        );
        assert!(
            !err.lines().any(|l| l.starts_with("error[")),
            "{block}: {err}"
        );
    }
    // A block of 64 named the same way is still a 64-thread block.
    let src = rotate(
        "namespace cfg { constexpr int kBlock = 64; }",
        "cfg::kBlock",
    );
    let (_, err, texts) = cli_convert(&[("rot.cu", &src)], &["--fix"]);
    assert!(
        !texts[0].contains("__shfl_sync(0xffffffffull"),
        "{}",
        texts[0]
    );
    assert!(err.lines().any(|l| l.starts_with("error[")), "{err}");
}

/// V22-g, the header variant (verify22 g5/f): the namespace member a project header defines is
/// read as the block size too, so a 32 and a 64 there give different ports.
#[test]
fn v22g_a_header_namespace_block_size_is_the_block_size() {
    let src = rotate("#include \"launch_cfg.h\"", "cfg::kBlock");
    let port = |n: u32| {
        let header = format!("#pragma once\nnamespace cfg {{\nconstexpr int kBlock = {n};\n}}\n");
        let (code, err, texts) =
            cli_convert(&[("rot.cu", &src), ("launch_cfg.h", &header)], &["--fix"]);
        assert!(code.is_some(), "{err}");
        let i = usize::from(!texts[0].contains("__global__"));
        (err, texts[i].clone())
    };
    let (err32, out32) = port(32);
    assert!(
        out32.contains("__shfl_sync(0xffffffffull, v, (tgx + k) & 31)"),
        "{out32}\n{err32}"
    );
    assert!(!err32.lines().any(|l| l.starts_with("error[")), "{err32}");
    let (err64, out64) = port(64);
    assert!(!out64.contains("__shfl_sync(0xffffffffull"), "{out64}");
    assert!(err64.lines().any(|l| l.starts_with("error[")), "{err64}");
}

// ---- V22-j: lane arithmetic in a kernel every launch runs with 32-thread blocks ----

#[test]
fn v22j_lane_math_in_a_kernel_of_32_thread_blocks_is_a_note() {
    let src = rotate("", "32");
    let (code, err, _) = cli_convert(&[("rot.cu", &src)], &[]);
    assert!(code.is_some(), "{err}");
    let d = diags(&err, "rot.cu");
    assert!(lines_of(&d, "error[H001]").is_empty(), "{err}");
    let lane = report(&err, "H001", "`(tgx + k) & 31`").expect(&err);
    assert!(lane.starts_with("note[H001]"), "{lane}");
    assert!(lane.contains("every launch of `rotate`"), "{lane}");
    assert!(
        help_of(&lane).starts_with("nothing to change while every launch has blocks of 32 threads"),
        "{lane}"
    );
    // One launch with larger blocks: the error stays.
    let src = rotate("", "32").replace(
        "}\n",
        "}\nvoid run2(const float *x, float *y, int n) { rotate<<<n / 128, 128>>>(x, y, n); }\n",
    );
    let (_, err, _) = cli_convert(&[("rot.cu", &src)], &[]);
    let lane = report(&err, "H001", "`(tgx + k) & 31`").expect(&err);
    assert!(lane.starts_with("error[H001]"), "{lane}");
}

// ---- V22-e: comment-only asm ----

#[test]
fn v22e_comment_only_asm_in_ptx_syntax_is_no_ptx() {
    let src = "\
__global__ void k(float *x) {
  asm volatile(\"// marker for profiler\" ::: \"memory\");
  asm volatile(\"/* region */\" ::: \"memory\");
  asm volatile(\"// one\\n\\t// two\" ::: \"memory\");
  x[threadIdx.x] += 1.f;
  asm volatile(\"// then code\\n\\tmov.u32 %0, %%laneid;\" : \"=r\"(*(unsigned*)x));
}
";
    let (code, err, _) = cli_convert(&[("cm.cu", src)], &[]);
    assert!(code.is_some(), "{err}");
    let d = diags(&err, "cm.cu");
    // Only the block with an instruction after its comment.
    assert_eq!(lines_of(&d, "error[H006]"), vec![6], "{err}");
}

// ---- R50-d: `cub::ShuffleIndex(x, lane)` ----

#[test]
fn r50d_cub_17_shuffles_are_reported_with_the_hip_forms() {
    let src = "\
#include <cub/cub.cuh>
__device__ int alloc(int* counter, int n) {
  unsigned mask = __ballot_sync(0xffffffff, n > 0);
  int leader = __ffs(mask) - 1;
  int lane = threadIdx.x & 31;
  int allocation = 0;
  if (lane == leader) allocation = atomicAdd(counter, n);
  allocation = cub::ShuffleIndex(allocation, leader);
  int up = cub::ShuffleUp(allocation, 1);
  int ok = cub::ShuffleIndex<32>(allocation, leader, 0xffffffff);
  return allocation + up + ok;
}
";
    let (code, err, _) = cli_convert(&[("q.cu", src)], &[]);
    assert!(code.is_some(), "{err}");
    let d = diags(&err, "q.cu");
    let lines: Vec<usize> = d
        .iter()
        .filter(|x| x.0 == "error[H033]")
        .map(|x| x.1)
        .collect();
    assert_eq!(lines, vec![8, 9], "{err}");
    let index = report(&err, "H033", "`cub::ShuffleIndex`").expect(&err);
    let help = help_of(&index);
    assert!(help.contains("`__shfl(allocation, leader)`"), "{help}");
    assert!(
        help.contains(
            "`hipcub::ShuffleIndex<HIPCUB_DEVICE_WARP_THREADS>(allocation, leader, <mask>)`"
        ),
        "{help}"
    );
    let up = report(&err, "H033", "`cub::ShuffleUp`").expect(&err);
    assert!(help_of(&up).contains("`__shfl_up(allocation, 1)`"), "{up}");
    assert!(common::explain("H033").contains("ShuffleIndex"));
}

// ---- R50-3: `__ffs(isEmpty & MASK)` of a 32-bit ballot variable ----

#[test]
fn r50_3_the_count_follows_the_declarations_fix() {
    let src = "\
#include <cstdint>
struct Slab { static constexpr uint32_t KEY_MASK = 0x15555555; };
__device__ int first_empty(const uint32_t* slab, uint32_t src_lane, uint32_t laneId) {
  uint32_t word = slab[laneId];
  uint32_t src = __shfl_sync(0xFFFFFFFF, word, src_lane, 32);
  uint32_t isEmpty = (__ballot_sync(0xFFFFFFFF, word == 0xFFFFFFFFu)) & Slab::KEY_MASK;
  if (isEmpty == 0) return -1;
  return __ffs(isEmpty & Slab::KEY_MASK) - 1 + (int)(src & 0);
}
";
    let (code, err, _) = cli_convert(&[("k.cu", src)], &[]);
    assert!(code.is_some(), "{err}");
    let decl = report(&err, "H004", "storing it as `uint32_t`").expect(&err);
    assert!(
        help_of(&decl).contains("also write the mask `Slab::KEY_MASK`"),
        "{decl}"
    );
    let count = report(&err, "H004", "`__ffs`").expect(&err);
    let help = help_of(&count);
    assert!(
        help.contains("follows the fix taken for `isEmpty` (line 6)"),
        "{help}"
    );
    assert!(help.contains("`__ffs` is right as written"), "{help}");
    assert!(
        help.contains("write `Slab::KEY_MASK` for 64 lanes"),
        "{help}"
    );
}

// ---- R50-1: PTX shifts ----

#[test]
fn r50_1_ptx_shifts_are_in_the_table_and_unknown_ops_are_named() {
    let src = "\
__device__ unsigned long long shr_t64(unsigned long long x, unsigned n) {
  unsigned long long r;
  asm(\"{ .reg .u64 m; shr.b64 m, %1, %2; and.b64 %0, m, 0xFFFFFFFFFFFFFFFF; }\" : \"=l\"(r) : \"l\"(x), \"r\"(n));
  return r;
}
__device__ unsigned long long shl_t64(unsigned long long x, unsigned n) {
  unsigned long long r;
  asm(\"shl.b64 %0, %1, %2;\" : \"=l\"(r) : \"l\"(x), \"r\"(n));
  return r;
}
__device__ unsigned sel(unsigned a, unsigned b) {
  unsigned r;
  asm(\"{ .reg .pred p; setp.ne.u32 p, %1, 0; selp.b32 %0, %1, %2, p; xor.b32 %0, %0, %2; }\" : \"=r\"(r) : \"r\"(a), \"r\"(b));
  return r;
}
";
    let (_dir, code, err, _) = cli_convert_in(&[("h.cu", src)], "6.2", &[]);
    assert!(code.is_some(), "{err}");
    let d = diags(&err, "h.cu");
    let help = |line: usize| {
        let x = d
            .iter()
            .find(|x| x.0 == "error[H006]" && x.1 == line)
            .unwrap_or_else(|| panic!("{err}"));
        help_of(&x.2).to_string()
    };
    let h3 = help(3);
    assert!(
        h3.contains("`shr.b32`/`shr.b64` -> the C++ operator `>>`"),
        "{h3}"
    );
    assert!(h3.contains("`and.b32`/`and.b64`"), "{h3}");
    assert!(!h3.contains("does not cover"), "{h3}");
    let h8 = help(8);
    assert!(
        h8.contains("`shl.b32`/`shl.b64` -> the C++ operator `<<`"),
        "{h8}"
    );
    assert!(h8.contains("undefined"), "{h8}");
    let h13 = help(13);
    assert!(h13.contains("`xor.b32`/`xor.b64`"), "{h13}");
    assert!(
        h13.contains(
            "the block also has `setp.ne.u32`, `selp.b32`, which this table does not cover"
        ),
        "{h13}"
    );
}
