//! wavefix32: R49-2 (an `#if __CUDA_ARCH__` chain whose `#elif`s are false under hipcc too:
//! one H011 that names the branch hipcc really compiles), R49-h (a warp-size constant that only
//! a macro body names: H001 names the macro, not "no function uses it").

use crate::common;
use hipport::diag::{Diagnostic, Severity};
use hipport_rules::Version;

const V62: Version = Version::new(6, 2, 0);

fn h(id: &str, d: &[Diagnostic]) -> Vec<Diagnostic> {
    d.iter().filter(|d| d.id == id).cloned().collect()
}

// ---- R49-2: follow the `#elif` chain to the branch hipcc takes ----

/// torchsparse's implicit-GEMM kernel: `#if __CUDA_ARCH__ >= 800` (line 4), `#elif` `arms`
/// (each a condition and a body, from line 6 on), then `#else` with `fallback` and `#endif`.
fn gemm(arms: &[(&str, &str)], fallback: Option<&str>) -> String {
    let mut s = String::from(
        "// torchsparse convolution_forward_implicit_gemm_cuda.cu shape\n\
         __global__ void k(float* c, const unsigned* a) {\n  float acc = 0.f;\n\
         #if __CUDA_ARCH__ >= 800\n  acc += a[0]; // mma.sync m16n8k16\n",
    );
    for (cond, body) in arms {
        s.push_str(&format!("#elif {cond}\n  {body}\n"));
    }
    if let Some(f) = fallback {
        s.push_str(&format!("#else\n  {f}\n"));
    }
    s.push_str("#endif\n  c[threadIdx.x] = acc;\n}\n");
    s
}

const SM75: (&str, &str) = ("__CUDA_ARCH__ >= 750", "acc += a[1]; // mma.sync m16n8k8");
const NO_CODE: &str = "#pragma message(\"FP16 kernels will not be compiled for SM75-.\")";

/// The one H011 that translating `src` for HIP 6.2 gives.
fn one_h011(src: &str) -> Diagnostic {
    let (_, d) = common::translate_at(src, V62);
    let h011 = h("H011", &d);
    assert_eq!(h011.len(), 1, "{h011:#?}");
    h011[0].clone()
}

#[test]
fn r49_2_both_tests_false_reach_the_empty_else_in_one_error_at_the_if() {
    let src = gemm(&[SM75], Some(NO_CODE));
    let r = one_h011(&src);
    assert_eq!((r.line, r.severity), (4, Severity::Error), "{r:#?}");
    assert!(
        r.message.contains(
            "HIP skips this branch and the `#elif __CUDA_ARCH__ >= 750` on line 6, which is false under hipcc too, and goes to the #else on line 8, which holds no code"
        ),
        "{}",
        r.message
    );
    assert!(!r.message.contains("fallback path"), "{}", r.message);
    assert!(
        r.help.as_deref().unwrap_or("").contains("#else"),
        "{:?}",
        r.help
    );
}

#[test]
fn r49_2_an_else_with_code_is_the_fallback_path_it_names() {
    let src = gemm(&[SM75], Some("acc += 3.f;"));
    let r = one_h011(&src);
    assert_eq!((r.line, r.severity), (4, Severity::Warning), "{r:#?}");
    assert!(
        r.message.ends_with(
            "which is false under hipcc too, and goes to the #else on line 8 (the fallback path)"
        ),
        "{}",
        r.message
    );
}

#[test]
fn r49_2_three_false_tests_name_both_elifs() {
    let src = gemm(
        &[SM75, ("__CUDA_ARCH__ >= 700", "acc += a[2];")],
        Some(NO_CODE),
    );
    let r = one_h011(&src);
    assert_eq!((r.line, r.severity), (4, Severity::Error), "{r:#?}");
    assert!(
        r.message.contains("the `#elif __CUDA_ARCH__ >= 750` on line 6 and the `#elif __CUDA_ARCH__ >= 700` on line 8, which are false under hipcc too, and goes to the #else on line 10, which holds no code"),
        "{}",
        r.message
    );
}

#[test]
fn r49_2_no_else_after_the_chain_says_so() {
    let src = gemm(&[SM75], None);
    let r = one_h011(&src);
    assert!(
        r.message.ends_with(
            "which is false under hipcc too (there is no #else: hipcc compiles nothing in its place)"
        ),
        "{}",
        r.message
    );
}

#[test]
fn r49_2_an_elif_true_under_hipcc_keeps_its_own_report() {
    // `__CUDA_ARCH__ < 700` holds with __CUDA_ARCH__ undefined: hipcc compiles that branch.
    let src = gemm(&[("__CUDA_ARCH__ < 700", "acc += a[1];")], Some(NO_CODE));
    let (_, d) = common::translate_at(&src, V62);
    let h011 = h("H011", &d);
    let lines: Vec<usize> = h011.iter().map(|r| r.line).collect();
    assert_eq!(lines, vec![4, 6], "{h011:#?}");
    let head = h011.iter().find(|r| r.line == 4).unwrap();
    assert!(
        head.message
            .ends_with("HIP skips this branch and goes to the #elif on line 6 (the fallback path)"),
        "{}",
        head.message
    );
}

#[test]
fn r49_2_the_cli_prints_one_h011_for_the_chain() {
    let src = gemm(&[SM75], Some(NO_CODE));
    let (code, err, _) = common::cli_convert(&[("mma.cu", &src)], &[]);
    let h011 = common::reports(&err, "H011");
    assert_eq!(h011.len(), 1, "{err}");
    assert!(h011[0].starts_with("error[H011]"), "{err}");
    // The error fails the run under the default `--fail-on error`.
    assert_eq!(code, Some(1), "{err}");
}

// ---- R49-h: a warp-size constant that only a macro body names ----

/// moderngpu's `SHFL_OP_MACRO` (intrinsics.hxx), its `#if __CUDA_ARCH__ >= 300` guard removed:
/// `warp_size` is named only in the macro body, and the functions it defines at file scope.
const SHFL_OP: &str = r##"enum { warp_size = 32 };
template<typename T> struct plus_t { __device__ T operator()(T a, T b) const { return a + b; } };

#define SHFL_OP_MACRO(dir, is_up, ptx_type, r, c_type, ptx_op, c_op) \
__device__ inline c_type shfl_##dir##_op(c_type x, int offset, \
  c_op<c_type> op, int width = warp_size) { \
  c_type result = c_type(); \
  int mask = (warp_size - width)<< 8 | (is_up ? 0 : (width - 1)); \
  asm( \
    "{.reg ."#ptx_type" r0;" \
    ".reg .pred p;" \
    "shfl."#dir".b32 r0|p, %1, %2, %3;" \
    "@p "#ptx_op"."#ptx_type" r0, r0, %4;" \
    "mov."#ptx_type" %0, r0; }" \
    : "="#r(result) : #r(x), "r"(offset), "r"(mask), #r(x)); \
  return result; \
}

SHFL_OP_MACRO(up, true, s32, r, int, add, plus_t)
SHFL_OP_MACRO(down, false, s32, r, int, add, plus_t)

__global__ void k(int* x) { x[threadIdx.x] = shfl_up_op(x[threadIdx.x], 1, plus_t<int>()); }
"##;

fn constant_finding(src: &str) -> Diagnostic {
    let (_, d) = common::translate_at(src, V62);
    let found: Vec<Diagnostic> = h("H001", &d)
        .into_iter()
        .filter(|r| {
            r.message
                .starts_with("`warp_size` fixes the warp size at 32")
        })
        .collect();
    assert_eq!(found.len(), 1, "{d:#?}");
    found[0].clone()
}

#[test]
fn r49h_a_constant_in_a_warp_macro_body_names_the_macro() {
    let r = constant_finding(SHFL_OP);
    assert_eq!(r.line, 1);
    assert!(
        !r.message.contains("no function of this file uses it"),
        "{}",
        r.message
    );
    assert!(
        r.message
            .contains("the body of macro `SHFL_OP_MACRO` uses it beside warp-level work"),
        "{}",
        r.message
    );
    assert_eq!(r.severity, Severity::Warning, "{r:#?}");
    assert!(
        r.help.as_deref().unwrap_or("").contains("`SHFL_OP_MACRO`"),
        "{:?}",
        r.help
    );
}

#[test]
fn r49h_a_macro_without_warp_work_names_the_macro_in_a_note() {
    let src = "enum { warp_size = 32 };\n#define TILE_BYTES(t) (warp_size * sizeof(t))\nint bytes() { return 4; }\n";
    let r = constant_finding(src);
    assert_eq!(r.severity, Severity::Note, "{r:#?}");
    assert!(
        r.message.contains(
            "the body of macro `TILE_BYTES` uses it, with no warp-level work there, so it counts no lanes yet"
        ),
        "{}",
        r.message
    );
}

#[test]
fn r49h_a_constant_nothing_names_is_still_unused() {
    let src = "enum { warp_size = 32 };\n#define TILE 16\nint tiles(int n) { return (n + TILE - 1) / TILE; }\n";
    let r = constant_finding(src);
    assert_eq!(r.severity, Severity::Note, "{r:#?}");
    assert!(
        r.message.contains("no function of this file uses it"),
        "{}",
        r.message
    );
    assert!(!r.message.contains("macro"), "{}", r.message);
}
