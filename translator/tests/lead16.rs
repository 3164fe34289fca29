//! realuser32's findings in the rules: a ballot stored in a function that shuffles with width
//! 32 gets no widening fix (R32-a, SlabHash's work queue); `bfind` gets its own PTX hint, not
//! `bfi`'s (R32-c); a tile vote on a template-typed tile is H044 (R32-d, BGHT's buckets); an
//! `__ffs` result as a shuffle's source lane is H043 before HIP 6.2 (R32-e). A literal full
//! mask in a macro body is widened for HIP 6.2 as in code, unless a use runs on the first 32
//! lanes only (realuser31 R31-d's mask).

use crate::common;
use common::{summary, translate_at};
use hipport::diag::Diagnostic;
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

/// `src` as `t.cu` at HIP 6.2 with `--fix`: the output and the diagnostics.
fn fixed(src: &str) -> (String, Vec<Diagnostic>) {
    let opts = hipport::translate::Options {
        hip_version: V62,
        fix: true,
        ..hipport::translate::Options::default()
    };
    let r =
        hipport::translate::translate_source(src.as_bytes(), "t.cu", &opts).expect("translates");
    (String::from_utf8(r.output).unwrap(), r.diagnostics)
}

fn only<'d>(d: &'d [Diagnostic], id: &str) -> Vec<&'d Diagnostic> {
    d.iter().filter(|x| x.id == id).collect()
}

// R32-a ----------------------------------------------------------------------------------------

/// A 32-lane group serves its lanes' requests one by one: the ballot's first lane is the
/// source of a width-32 shuffle and is compared with the caller's 32-lane index.
const WORK_QUEUE: &str = "\
#include <cstdint>
__device__ void serve(bool& mine, uint32_t lane, uint32_t bucket, uint32_t* out) {
  uint32_t q;
  while ((q = __ballot_sync(0xFFFFFFFF, mine))) {
    uint32_t src = __ffs(q) - 1;
    uint32_t b = __shfl_sync(0xFFFFFFFF, bucket, src, 32);
    if (lane == src) { *out = b; mine = false; }
  }
}
";

#[test]
fn r32a_a_ballot_in_a_width_32_function_keeps_its_error_without_a_fix() {
    let (out, d) = fixed(WORK_QUEUE);
    let h004 = only(&d, "H004");
    assert_eq!(h004.len(), 1, "{:?}", summary(&d));
    assert_eq!(h004[0].line, 4);
    assert!(h004[0].fix.is_empty(), "{:?}", h004[0].fix);
    let help = h004[0].help.as_deref().unwrap_or("");
    assert!(help.contains("shuffles with width 32"), "{help}");
    assert!(help.contains("__ballot(p) >> (__lane_id() & 32)"), "{help}");
    assert!(
        out.contains("uint32_t q;") && out.contains("__ffs(q) - 1"),
        "{out}"
    );
}

#[test]
fn r32a_a_wavefront_wide_ballot_keeps_its_fix() {
    // The same queue over the whole wavefront: no width, no 32-lane numbering.
    let src = WORK_QUEUE
        .replace("bucket, src, 32)", "bucket, src)")
        .replace("uint32_t lane, ", "")
        .replace("if (lane == src)", "if (__lane_id() == src)");
    let (out, d) = fixed(&src);
    assert_eq!(only(&d, "H004").len(), 1, "{:?}", summary(&d));
    assert!(
        out.contains("unsigned long long q;") && out.contains("__ffsll(q) - 1"),
        "{out}"
    );
}

// R32-c ----------------------------------------------------------------------------------------

#[test]
fn r32c_bfind_gets_its_own_hint_and_not_bit_field_insert() {
    let src = "\
__device__ unsigned msb(unsigned x) {
  unsigned r;
  asm(\"bfind.u32 %0, %1;\" : \"=r\"(r) : \"r\"(x));
  return r;
}
__device__ unsigned ins(unsigned x, unsigned y) {
  unsigned r;
  asm(\"bfi.b32 %0, %1, %2, 0, 8;\" : \"=r\"(r) : \"r\"(x), \"r\"(y));
  return r;
}
";
    let (_, d) = translate_at(src, V62);
    let h006 = only(&d, "H006");
    assert_eq!(h006.len(), 2, "{:?}", summary(&d));
    let bfind = h006[0].help.as_deref().unwrap_or("");
    assert!(bfind.contains("31 - __clz(x)"), "{bfind}");
    assert!(!bfind.contains("__bitinsert"), "{bfind}");
    let bfi = h006[1].help.as_deref().unwrap_or("");
    assert!(bfi.contains("__bitinsert_u32()"), "{bfi}");
    assert!(!bfi.contains("__clz"), "{bfi}");
}

// R32-d ----------------------------------------------------------------------------------------

const TEMPLATE_TILE: &str = "\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
template <typename TileT>
__device__ inline int first_hit(const TileT& tile, bool hit) {
  auto bits = tile.ballot(hit);
  return __ffs(bits) - 1;
}
__global__ void probe(int* out, const int* in) {
  auto tile = cg::tiled_partition<16>(cg::this_thread_block());
  out[threadIdx.x] = first_hit(tile, in[threadIdx.x] != 0);
}
";

#[test]
fn r32d_a_vote_on_a_template_typed_tile_is_h044() {
    let (_, d) = translate_at(TEMPLATE_TILE, V52);
    let h044 = only(&d, "H044");
    assert_eq!(h044.len(), 1, "{:?}", summary(&d));
    assert_eq!(h044[0].line, 5);
    assert_eq!(h044[0].severity.as_str(), "error");
    let (_, d) = translate_at(TEMPLATE_TILE, V62);
    let h044 = only(&d, "H044");
    assert_eq!(h044.len(), 1, "{:?}", summary(&d));
    assert_eq!(h044[0].severity.as_str(), "warning");
}

#[test]
fn r32d_neighbours_without_cooperative_groups_or_with_any_are_left_alone() {
    // A template type of the project's own with a `ballot` method, in a file without
    // cooperative groups.
    let own = TEMPLATE_TILE
        .replace(
            "#include <cooperative_groups.h>\nnamespace cg = cooperative_groups;\n",
            "",
        )
        .replace(
            "  auto tile = cg::tiled_partition<16>(cg::this_thread_block());\n",
            "  struct V { unsigned ballot(bool) const { return 0; } } tile;\n",
        );
    let (_, d) = translate_at(&own, V52);
    assert!(only(&d, "H044").is_empty(), "{:?}", summary(&d));
    // `any` on a template type: std::bitset has it too.
    let any = TEMPLATE_TILE.replace("auto bits = tile.ballot(hit);", "auto bits = tile.any();");
    let (_, d) = translate_at(&any, V52);
    assert!(only(&d, "H044").is_empty(), "{:?}", summary(&d));
}

// R32-e ----------------------------------------------------------------------------------------

#[test]
fn r32e_an_ffs_source_lane_is_h043_like_an_offset_one() {
    let src = "\
__global__ void pick(const unsigned* data, unsigned key, unsigned* out) {
  unsigned v = data[threadIdx.x];
  unsigned hit = __ffs(__ballot_sync(0xFFFFFFFF, v == key));
  unsigned a = __shfl_sync(0xFFFFFFFF, v, hit, 32);
  unsigned b = __shfl_sync(0xFFFFFFFF, v, __ffs(key), 32);
  unsigned c = __shfl_sync(0xFFFFFFFF, v, hit - 1, 32);
  unsigned lane = threadIdx.x & 31;
  unsigned e = __shfl_sync(0xFFFFFFFF, v, lane, 32);
  unsigned later = 0;
  later = __ffs(__ballot_sync(0xFFFFFFFF, v > key));
  unsigned f = __shfl_sync(0xFFFFFFFF, v, later, 32);
  later = lane;
  unsigned g = __shfl_sync(0xFFFFFFFF, v, later, 32);
  out[threadIdx.x] = a + b + c + e + f + g;
}
";
    let (_, d) = translate_at(src, V52);
    let lines: Vec<usize> = only(&d, "H043").iter().map(|x| x.line).collect();
    assert_eq!(lines, vec![4, 5, 6, 11], "{:?}", summary(&d));
    // HIP 6.2's shuffles wrap the lane as CUDA does.
    let (_, d) = translate_at(src, V62);
    assert!(only(&d, "H043").is_empty(), "{:?}", summary(&d));
}

// R31-d (the mask) ------------------------------------------------------------------------------

/// A 32-lane xor reduction in a statement macro (lightseq's and ge-spmm's shape), used by every
/// thread of the block.
const MACRO_REDUCE: &str = "\
#define WARP_REDUCE(v) \\
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xFFFFFFFFu, v, o, 32);
__global__ void k(const float* in, float* out) {
  float v = in[threadIdx.x];
  WARP_REDUCE(v);
  if ((threadIdx.x & 31) == 0) out[threadIdx.x >> 5] = v;
}
";

#[test]
fn r31d_a_literal_full_mask_in_a_macro_body_is_widened_as_in_code() {
    let (out, d) = translate_at(MACRO_REDUCE, V62);
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, v, o, 32)"),
        "{out}"
    );
    assert!(
        only(&d, "H003")
            .iter()
            .all(|x| x.severity.as_str() != "error"),
        "{:?}",
        summary(&d)
    );
    // Before HIP 6.2 the builtin does not exist, and nothing is widened.
    let (out, _) = translate_at(MACRO_REDUCE, V52);
    assert!(
        out.contains("__shfl_xor_sync(0xFFFFFFFFu, v, o, 32)"),
        "{out}"
    );
}

#[test]
fn r31d_a_macro_used_on_the_first_32_lanes_keeps_its_mask_with_an_error() {
    let src = MACRO_REDUCE.replace(
        "  WARP_REDUCE(v);\n",
        "  if (threadIdx.x < 32) {\n    WARP_REDUCE(v);\n  }\n",
    );
    let (out, d) = translate_at(&src, V62);
    assert!(
        out.contains("__shfl_xor_sync(0xFFFFFFFFu, v, o, 32)"),
        "{out}"
    );
    let h003: Vec<_> = only(&d, "H003")
        .into_iter()
        .filter(|x| x.severity.as_str() == "error")
        .collect();
    assert_eq!(h003.len(), 1, "{:?}", summary(&d));
    assert_eq!(h003[0].line, 2);
    assert!(
        h003[0].message.contains("threadIdx.x < 32"),
        "{}",
        h003[0].message
    );
}

#[test]
fn r31d_a_computed_or_named_mask_in_a_macro_body_is_left_to_the_analysis() {
    // Not a literal: the analysis keeps its report, and the body is unchanged.
    let src = MACRO_REDUCE.replace("0xFFFFFFFFu", "mask32");
    let src = format!("const unsigned mask32 = 0xffffffff;\n{src}");
    let (out, _) = translate_at(&src, V62);
    assert!(out.contains("__shfl_xor_sync(mask32, v, o, 32)"), "{out}");
}

#[test]
fn r31d_a_mask_on_a_continued_line_is_widened_too() {
    // verify14 REG-A: the mask on a line of its own lost H003 and kept 32 bits.
    let src = "\
#define WSUM(v) \\
  v += __shfl_xor_sync( \\
      0xffffffff, \\
      v, 16)
__global__ void k(float *o) {
  float v = o[threadIdx.x];
  WSUM(v);
  o[threadIdx.x] = v;
}
";
    let (out, d) = translate_at(src, V62);
    assert!(out.contains("      0xffffffffffffffffull, \\\n"), "{out}");
    assert!(
        only(&d, "H003")
            .iter()
            .all(|x| x.severity.as_str() != "error"),
        "{:?}",
        summary(&d)
    );
}
