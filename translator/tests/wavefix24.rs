//! wavefix24: lane masks passed through function-like macros (V17-b), mask macros `#undef`'d
//! and defined again (V17-c), and launches written in a function-like macro's body (V17-e).

mod common;
use common::{cli_convert, cli_convert_in, have_tool, hipcc_compile, reports, summary};
use hipport::diag::Diagnostic;
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

fn h003(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    // The note on HIP_ENABLE_WARP_SYNC_BUILTINS aside.
    d.iter()
        .filter(|x| x.id == "H003" && x.severity.as_str() != "note")
        .collect()
}

// ---- V17-b: function-like mask macros ----

const WRAPPED: &str = "\
#define AS_MASK(m) ((m))
#define EVERY_LANE() 0xFFFFFFFFU
__global__ void reduce(int* p) {
  int s = p[threadIdx.x];
  s += __shfl_down_sync(AS_MASK(0xFFFFFFFFU), s, 4);
  s += __shfl_down_sync(EVERY_LANE(), s, 2);
  p[threadIdx.x] = s;
}
";

#[test]
fn v17b_a_full_mask_through_a_function_like_macro_is_widened_at_6_2() {
    let (out, d) = common::translate_at(WRAPPED, V62);
    // The identity wrapper's argument, and the parameterless macro's body (every use a mask).
    assert!(
        out.contains("__shfl_down_sync(AS_MASK(0xffffffffffffffffull), s, 4)"),
        "{out}"
    );
    assert!(
        out.contains("#define EVERY_LANE() 0xffffffffffffffffull\n"),
        "{out}"
    );
    assert!(
        out.contains("__shfl_down_sync(EVERY_LANE(), s, 2)"),
        "{out}"
    );
    assert!(out.contains("#define AS_MASK(m) ((m))\n"), "{out}");
    assert!(h003(&d).is_empty(), "{:?}", summary(&d));
}

#[test]
fn v17b_a_full_mask_through_a_function_like_macro_is_dropped_at_5_2() {
    let (out, d) = common::translate_at(WRAPPED, V52);
    assert!(out.contains("s += __shfl_down(s, 4);"), "{out}");
    assert!(out.contains("s += __shfl_down(s, 2);"), "{out}");
    assert!(!d.iter().any(|x| x.id == "T009"), "{:?}", summary(&d));
}

#[test]
fn v17b_a_parameterless_mask_macro_used_as_a_value_too_is_widened_at_the_mask_only() {
    let src = "\
#define EVERY_LANE() 0xFFFFFFFFU
__global__ void reduce(int* p, unsigned* bits) {
  int s = p[threadIdx.x];
  s += __shfl_xor_sync(EVERY_LANE(), s, 1);
  bits[threadIdx.x] = __ballot_sync(~0ull, s > 0) == EVERY_LANE();
  p[threadIdx.x] = s;
}
";
    let (out, _) = common::translate_at(src, V62);
    assert!(out.contains("#define EVERY_LANE() 0xFFFFFFFFU\n"), "{out}");
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, s, 1)"),
        "{out}"
    );
    assert!(out.contains("== EVERY_LANE();"), "{out}");
}

#[test]
fn v17b_a_macro_that_computes_the_full_mask_is_reported_not_rewritten() {
    let src = "\
#define FIRST_OF(a, b) (a)
#define AS_U32(m) ((unsigned)(m))
#define EVERY_LANE() (0xFFFFFFFFU)
__global__ void reduce(int* p) {
  int s = p[threadIdx.x];
  s += __shfl_down_sync(FIRST_OF(0xFFFFFFFFU, 7), s, 1);
  s += __shfl_down_sync(AS_U32(0xFFFFFFFFU), s, 2);
  s += __shfl_down_sync(EVERY_LANE(), s, 4);
  p[threadIdx.x] = s;
}
";
    let (out, d) = common::translate_at(src, V62);
    assert!(
        out.contains("__shfl_down_sync(FIRST_OF(0xFFFFFFFFU, 7), s, 1)"),
        "{out}"
    );
    assert!(
        out.contains("__shfl_down_sync(AS_U32(0xFFFFFFFFU), s, 2)"),
        "{out}"
    );
    // A parenthesized body is widened as a bare one is, and not also reported.
    assert!(
        out.contains("#define EVERY_LANE() 0xffffffffffffffffull\n"),
        "{out}"
    );
    let w = h003(&d);
    assert_eq!(w.len(), 2, "{:?}", summary(&d));
    // What FIRST_OF gives depends on its arguments: the translation pass's warning.
    assert_eq!((w[0].line, w[0].severity.as_str()), (6, "warning"));
    assert!(w[0].message.contains("FIRST_OF"), "{}", w[0].message);
    // AS_U32's body is 32 bits whatever it is given: the analysis's error, once.
    assert_eq!((w[1].line, w[1].severity.as_str()), (7, "error"));
}

#[test]
fn v17b_a_partial_mask_macro_is_not_widened_to_full() {
    let src = "\
#define FIRST(n) ((1u << (n)) - 1)
#define HALF_LANES() 0x0000FFFFU
__global__ void reduce(int* p) {
  int s = p[threadIdx.x];
  if (threadIdx.x < 16) s += __shfl_down_sync(FIRST(16), s, 1);
  if (threadIdx.x < 16) s += __shfl_down_sync(HALF_LANES(), s, 2);
  p[threadIdx.x] = s;
}
";
    let (out, d) = common::translate_at(src, V62);
    assert!(!out.contains("0xffffffffffffffffull"), "{out}");
    assert!(out.contains("__shfl_down_sync(FIRST(16), s, 1)"), "{out}");
    assert!(out.contains("#define HALF_LANES() 0x0000FFFFU\n"), "{out}");
    // The literal partial 32-bit mask cannot build at 6.2: an error at its use.
    assert!(
        h003(&d)
            .iter()
            .any(|x| x.line == 6 && x.severity.as_str() == "error"),
        "{:?}",
        summary(&d)
    );
}

#[test]
fn v17b_a_parameterless_macro_in_a_shuffle_macro_body_is_widened() {
    let src = "\
#define EVERY_LANE() 0xFFFFFFFFU
#define SUM_DOWN(v, o) __shfl_down_sync(EVERY_LANE(), v, o)
__global__ void reduce(int* p) {
  int s = p[threadIdx.x];
  s += SUM_DOWN(s, 1);
  p[threadIdx.x] = s;
}
";
    let (out, _) = common::translate_at(src, V62);
    assert!(
        out.contains("__shfl_down_sync(0xffffffffffffffffull, v, o)"),
        "{out}"
    );
}

#[test]
fn v17b_the_5_2_port_through_a_mask_macro_compiles_with_hipcc() {
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, code, err, _) = cli_convert_in(&[("k.cu", WRAPPED)], "5.2.3", &[]);
    assert_eq!(code, Some(0), "{err}");
    hipcc_compile(&tmp.path().join("out"), "k.cu").unwrap_or_else(|e| panic!("{e}\n{err}"));
}

// ---- V17-c: a mask macro #undef'd and defined again ----

const REDEFINED: &str = "\
#define SEL 0xFFFFFFFFU
#undef SEL
#define SEL 0x00FF00FFU
#define ALLM 0x000000FFU
#undef ALLM
#define ALLM 0xFFFFFFFFU
__global__ void reduce(int* p) {
  int s = p[threadIdx.x];
  s += __shfl_xor_sync(SEL, s, 1);
  s += __shfl_xor_sync(ALLM, s, 2);
  p[threadIdx.x] = s;
}
";

#[test]
fn v17c_the_definition_in_force_at_the_use_decides() {
    let (code, err, texts) = cli_convert(&[("k.cu", REDEFINED)], &["--fix"]);
    let e: Vec<_> = reports(&err, "H003")
        .into_iter()
        .filter(|l| !l.starts_with("note"))
        .collect();
    assert_eq!(e.len(), 1, "{err}");
    assert!(
        e[0].starts_with("error[H003]") && e[0].contains("`SEL`"),
        "{err}"
    );
    assert!(err.contains("k.cu:9:"), "{err}");
    assert_eq!(code, Some(1));
    let out = &texts[0];
    // The final full definition is widened; the earlier partial one and SEL's stay.
    assert!(
        out.contains("#define ALLM 0xffffffffffffffffull\n"),
        "{out}"
    );
    assert!(out.contains("#define ALLM 0x000000FFU\n"), "{out}");
    assert!(out.contains("#define SEL 0xFFFFFFFFU\n"), "{out}");
    assert!(out.contains("#define SEL 0x00FF00FFU\n"), "{out}");
}

#[test]
fn v17c_each_definition_counts_where_it_is_in_force() {
    // A use before the #undef reads the first definition, one after it the second.
    let src = "\
#define M 0xFFFFFFFFU
__device__ int first(int s) { return __shfl_xor_sync(M, s, 1); }
#undef M
#define M 0x0000FFFFU
__device__ int second(int s) { return __shfl_xor_sync(M, s, 1); }
";
    let (_, err, texts) = cli_convert(&[("k.cu", src)], &[]);
    let e: Vec<_> = reports(&err, "H003")
        .into_iter()
        .filter(|l| !l.starts_with("note"))
        .collect();
    assert_eq!(e.len(), 1, "{err}");
    assert!(err.contains("k.cu:5:"), "{err}");
    // The first definition, in force at its one use, a mask, is widened; the second stays.
    let out = &texts[0];
    assert!(out.contains("#define M 0xffffffffffffffffull\n"), "{out}");
    assert!(out.contains("#define M 0x0000FFFFU\n"), "{out}");
}

#[test]
fn v17c_at_5_2_the_full_final_definition_is_dropped_the_partial_one_reported() {
    let (out, d) = common::translate_at(REDEFINED, V52);
    assert!(out.contains("__shfl_xor_sync(SEL, s, 1)"), "{out}");
    assert!(out.contains("s += __shfl_xor(s, 2);"), "{out}");
    let t: Vec<_> = d.iter().filter(|x| x.id == "T009").collect();
    assert_eq!(t.len(), 1, "{:?}", summary(&d));
    assert_eq!(t[0].line, 9);
}
