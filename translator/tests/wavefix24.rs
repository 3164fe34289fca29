//! wavefix24: lane masks passed through function-like macros (V17-b), mask macros `#undef`'d
//! and defined again (V17-c), and launches written in a function-like macro's body (V17-e).

use crate::common;
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
fn v17b_a_macro_that_computes_the_full_mask_is_widened_at_the_call_or_reported() {
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
    // FIRST_OF's constant arguments give the full mask here: the call is widened at this use
    // as the mask written in its place would be (verify18 V18-d; it was a warning).
    assert!(
        out.contains("__shfl_down_sync(0xffffffffffffffffull, s, 1)"),
        "{out}"
    );
    assert!(out.contains("#define FIRST_OF(a, b) (a)\n"), "{out}");
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
    assert_eq!(w.len(), 1, "{:?}", summary(&d));
    // AS_U32's body is 32 bits whatever it is given: the analysis's error, once.
    assert_eq!((w[0].line, w[0].severity.as_str()), (7, "error"));
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

// ---- V17-e: launches written in a function-like macro's body ----

/// A kernel whose shuffles keep to groups of `seg` lanes, each inside one 32-thread block row.
const SEGMENT_KERNEL: &str = "\
constexpr int WARP_SIZE = 32;
constexpr int PER_BLOCK = 8;
__global__ void seg_sum(const int* x, int* y, int seg) {
  int row = blockIdx.x * PER_BLOCK + threadIdx.y;
  int v = x[row * WARP_SIZE + threadIdx.x];
  for (int d = seg / 2; d >= 1; d >>= 1) v += __shfl_down_sync(0xffffffffu, v, d, seg);
  if (threadIdx.x % seg == 0) y[row * (WARP_SIZE / seg) + threadIdx.x / seg] = v;
}
";

fn h001_errors(files: &[(&str, &str)]) -> (Option<i32>, Vec<String>) {
    let (code, err, _) = cli_convert(files, &[]);
    let e = reports(&err, "H001")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .map(str::to_string)
        .collect();
    (code, e)
}

#[test]
fn v17e_a_launch_in_a_macro_body_reads_the_block_where_the_macro_is_called() {
    let src = format!(
        "{SEGMENT_KERNEL}\
#define RUN_SEG(s) seg_sum<<<n / PER_BLOCK, threads>>>(x, y, s)
void go(const int* x, int* y, int n) {{
  dim3 threads(WARP_SIZE, PER_BLOCK);
  RUN_SEG(8);
}}
"
    );
    let (code, e) = h001_errors(&[("k.cu", &src)]);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn v17e_a_block_passed_to_the_macro_is_the_argument() {
    let src = format!(
        "{SEGMENT_KERNEL}\
#define RUN_SEG(blk, s) seg_sum<<<n / PER_BLOCK, blk>>>(x, y, s)
void go(const int* x, int* y, int n) {{
  dim3 rows(WARP_SIZE, PER_BLOCK);
  RUN_SEG(rows, 16);
}}
"
    );
    let (_, e) = h001_errors(&[("k.cu", &src)]);
    assert!(e.is_empty(), "{e:?}");
}

#[test]
fn v17e_a_macro_launch_reads_as_the_launch_written_out() {
    // A width known only at run time: right where the block is 32 wide (each group inside
    // one row), reported where it is 256 wide in one row (a group may span 32-lane halves of a
    // wavefront as CUDA's warps would not have it).
    let cases = [
        ("dim3 threads(WARP_SIZE, PER_BLOCK);", "threads", false),
        ("dim3 threads(256);", "threads", true),
        ("", "256", true),
        ("", "dim3(WARP_SIZE, PER_BLOCK)", false),
    ];
    for (decl, block, error) in cases {
        let written = format!(
            "{SEGMENT_KERNEL}void go(const int* x, int* y, int n, int s) {{\n  {decl}\n  seg_sum<<<n, {block}>>>(x, y, s);\n}}\n"
        );
        let by_name = format!(
            "{SEGMENT_KERNEL}#define RUN_SEG(g) seg_sum<<<n, {block}>>>(x, y, g)\nvoid go(const int* x, int* y, int n, int s) {{\n  {decl}\n  RUN_SEG(s);\n}}\n"
        );
        let passed = format!(
            "{SEGMENT_KERNEL}#define RUN_SEG(blk, g) seg_sum<<<n, blk>>>(x, y, g)\nvoid go(const int* x, int* y, int n, int s) {{\n  {decl}\n  RUN_SEG({block}, s);\n}}\n"
        );
        for src in [&written, &by_name, &passed] {
            let (_, e) = h001_errors(&[("k.cu", src)]);
            assert_eq!(!e.is_empty(), error, "{src}\n{e:?}");
        }
    }
}

#[test]
fn v17e_a_macro_launch_beside_a_wide_written_launch_keeps_the_error() {
    let src = format!(
        "{SEGMENT_KERNEL}\
#define RUN_SEG(g) seg_sum<<<n / PER_BLOCK, threads>>>(x, y, g)
void go(const int* x, int* y, int n, int s) {{
  dim3 threads(WARP_SIZE, PER_BLOCK);
  RUN_SEG(s);
  seg_sum<<<n, 256>>>(x, y, s);
}}
"
    );
    let (_, e) = h001_errors(&[("k.cu", &src)]);
    assert!(!e.is_empty(), "{src}");
}

#[test]
fn v17e_rows_launched_through_a_macro_get_the_rows_report_of_the_written_launch() {
    let kernel = "\
constexpr int WARP_SIZE = 32;
__global__ void first_lane(float* p) {
  float v = p[threadIdx.y * WARP_SIZE + threadIdx.x];
  v = __shfl_sync(0xffffffffu, v, 0);
  p[threadIdx.y * WARP_SIZE + threadIdx.x] = v;
}
";
    let written = format!(
        "{kernel}// (the line of the macro)\nvoid run(float* p) {{\n  dim3 rows(WARP_SIZE, 4);\n  first_lane<<<1, rows>>>(p);\n}}\n"
    );
    let through = format!(
        "{kernel}#define START(b) first_lane<<<1, b>>>(p)\nvoid run(float* p) {{\n  dim3 rows(WARP_SIZE, 4);\n  START(rows);\n}}\n"
    );
    let firsts = |src: &str| {
        let (_, err, _) = cli_convert(&[("k.cu", src)], &[]);
        err.lines()
            .filter(|l| l.starts_with("error") || l.starts_with("warning"))
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let (w, t) = (firsts(&written), firsts(&through));
    assert_eq!(w, t);
    assert!(
        t.iter().any(|l| l.starts_with("error[H048]")
            && l.contains("launches with blocks 32 threads wide and 4 rows")),
        "{t:?}"
    );
}
