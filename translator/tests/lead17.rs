//! Lane masks named through another macro: `#define FULL UINT32_MAX` (or a chain of such
//! names) is the 32-lane full mask and is widened for HIP 6.2 as its value would be; a mask
//! name in a macro body that is defined nowhere hipport looks gets the H003 warning it gets in
//! code, instead of nothing.

use crate::common;
use common::summary;
use hipport::diag::Diagnostic;
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

/// `src` as `t.cu` at `v`: the output and the diagnostics.
fn at(src: &str, v: Version) -> (String, Vec<Diagnostic>) {
    let opts = hipport::translate::Options {
        hip_version: v,
        ..hipport::translate::Options::default()
    };
    let r =
        hipport::translate::translate_source(src.as_bytes(), "t.cu", &opts).expect("translates");
    (String::from_utf8(r.output).unwrap(), r.diagnostics)
}

fn unseen_warnings(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter()
        .filter(|x| x.id == "H003" && x.message.contains("is defined neither"))
        .collect()
}

const ALIAS: &str = "\
#include <cstdint>
#define FULL UINT32_MAX
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  v += __shfl_xor_sync(FULL, v, 1);
  x[threadIdx.x] = v;
}
";

#[test]
fn a_mask_macro_defined_as_uint32_max_is_widened_at_6_2() {
    let (out, d) = at(ALIAS, V62);
    assert!(
        out.contains("#define FULL 0xffffffffffffffffull\n"),
        "{out}"
    );
    assert!(out.contains("__shfl_xor_sync(FULL, v, 1)"), "{out}");
    assert!(unseen_warnings(&d).is_empty(), "{:?}", summary(&d));
}

#[test]
fn a_mask_macro_defined_as_uint32_max_is_dropped_with_the_mask_at_5_2() {
    let (out, _) = at(ALIAS, V52);
    assert!(out.contains("__shfl_xor(v, 1)"), "{out}");
    assert!(out.contains("#define FULL UINT32_MAX\n"), "{out}");
}

/// A chain of names, used in a shuffle macro's body.
const CHAIN: &str = "\
#define ALL_LANES 0xffffffff
#define WARP_MASK (ALL_LANES)
#define SHFL_DOWN(v, o) __shfl_down_sync(WARP_MASK, v, o)
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  v += SHFL_DOWN(v, 1);
  x[threadIdx.x] = v;
}
";

#[test]
fn a_chain_of_mask_macros_in_a_macro_body_is_widened_at_its_root() {
    let (out, d) = at(CHAIN, V62);
    // The name the body uses is widened; the root keeps its value for any other use.
    assert!(
        out.contains("#define WARP_MASK 0xffffffffffffffffull\n"),
        "{out}"
    );
    assert!(out.contains("#define ALL_LANES 0xffffffff\n"), "{out}");
    assert!(unseen_warnings(&d).is_empty(), "{:?}", summary(&d));
}

/// A mask that is a macro of a header hipport was not given, in a shuffle macro's body.
const UNSEEN: &str = "\
#define SHFL_DOWN(v, o) __shfl_down_sync(LIB_FULL_MASK, v, o)
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  v += SHFL_DOWN(v, 1);
  x[threadIdx.x] = v;
}
";

#[test]
fn an_unseen_mask_name_in_a_macro_body_is_warned_about_at_6_2() {
    let (out, d) = at(UNSEEN, V62);
    let w = unseen_warnings(&d);
    assert_eq!(w.len(), 1, "{:?}", summary(&d));
    assert_eq!((w[0].line, w[0].column), (1, 42), "{:?}", summary(&d));
    assert!(w[0].message.contains("`LIB_FULL_MASK`"), "{}", w[0].message);
    assert!(
        out.contains("__shfl_down_sync(LIB_FULL_MASK, v, o)"),
        "{out}"
    );
}

/// The same body where the name is a variable of the code that uses the macro: the analysis
/// reads it there, and nothing is unseen.
#[test]
fn a_mask_name_declared_at_the_macros_use_is_not_unseen() {
    let src = UNSEEN.replace(
        "  float v = x[threadIdx.x];\n",
        "  float v = x[threadIdx.x];\n  unsigned long long LIB_FULL_MASK = __activemask();\n",
    );
    let (_, d) = at(&src, V62);
    assert!(unseen_warnings(&d).is_empty(), "{:?}", summary(&d));
}

/// A macro parameter named like a mask is the use's argument, never unseen.
#[test]
fn a_mask_parameter_of_the_macro_is_not_unseen() {
    let src = "\
#define SHFL_DOWN(m, v, o) __shfl_down_sync(m, v, o)
__global__ void k(float* x) {
  float v = x[threadIdx.x];
  v += SHFL_DOWN(0xffffffffffffffffull, v, 1);
  x[threadIdx.x] = v;
}
";
    let (_, d) = at(src, V62);
    assert!(unseen_warnings(&d).is_empty(), "{:?}", summary(&d));
}
