//! rulesfix32: the printf conversions of a ballot variable that `--fix` widens (R47-b); H004's
//! help names the shuffle width the code uses (R47-1); a note in a branch hipcc skips points to
//! the H011 at its directive instead of saying it again (R48-1); the help of the bf16 constants
//! and of `__dp2a_lo`/`__dp2a_hi`; T033 on cuTENSOR 1.x's handle calls. Every input here is
//! written for these tests.

use crate::common;

use common::{convert_exact, diags, explain, help_of, report};

use std::process::Command;

// ---- R47-b: printf of a widened ballot variable ----

/// A ballot kept in `unsigned` and printed: with a 32-bit conversion four times, once through
/// a format macro; and a 32-bit count beside it.
const PRINTED: &str = "\
#include <cstdio>
#include <cuda_runtime.h>
#define MASK_FMT \"lanes %x\\n\"

__global__ void vote(const int *in) {
    int p = in[threadIdx.x] > 0;
    unsigned mask = __ballot_sync(0xffffffff, p);
    if (threadIdx.x == 0) {
        printf(\"mask=%x\\n\", mask);
        printf(\"mask=%08x count=%d\\n\", mask, __popc(mask));
        printf(\"mask=%u of %d, %%x\\n\", mask, 64);
        printf(MASK_FMT, mask);
    }
}
";

#[test]
fn r47b_printf_of_a_widened_ballot_prints_64_bits() {
    let (dir, _, err, texts) = common::cli_convert_in(&[("k.cu", PRINTED)], "5.2", &["--fix"]);
    let out = &texts[0];
    assert!(out.contains("unsigned long long mask"), "{out}");
    assert!(out.contains(r#"printf("mask=%llx\n", mask);"#), "{out}");
    assert!(
        out.contains(r#"printf("mask=%016llx count=%d\n", mask, __popcll(mask));"#),
        "{out}"
    );
    // `%%` is no conversion, and the `%d` of another argument stays.
    assert!(
        out.contains(r#"printf("mask=%llu of %d, %%x\n", mask, 64);"#),
        "{out}"
    );
    // The macro's format is not changed; the help says where and what to write.
    assert!(out.contains("#define MASK_FMT \"lanes %x\\n\""), "{out}");
    let h004 = report(&err, "H004", "storing it as `unsigned`").expect(&err);
    let help = help_of(&h004);
    assert!(help.contains("%llx"), "{help}");
    assert!(help.contains("line 12"), "{help}");
    assert!(help.contains("--fix leaves as it is"), "{help}");
    // What hipcc checks: no 32-bit conversion of the 64-bit mask is left but the macro's.
    if !common::have_tool("hipcc") {
        return;
    }
    let o = Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-Wformat", "-c"])
        .arg(dir.path().join("out/k.cu"))
        .arg("-o")
        .arg(dir.path().join("k.o"))
        .output()
        .expect("hipcc runs");
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    let format_lines: Vec<&str> = text.lines().filter(|l| l.contains("[-Wformat]")).collect();
    // hipcc's host and device passes each warn once, both at the macro's printf.
    assert!(!format_lines.is_empty(), "{text}");
    assert!(
        format_lines.iter().all(|l| l.contains("k.cu:12:")),
        "{text}"
    );
}

/// Without `--fix`, nothing changes, and a ballot printed through a variable's format gets no
/// edit of its printf at all.
#[test]
fn r47b_no_fix_no_printf_edit() {
    let (_, _, _, texts) = common::cli_convert_in(&[("k.cu", PRINTED)], "5.2", &[]);
    assert!(
        texts[0].contains(r#"printf("mask=%x\n", mask);"#),
        "{}",
        texts[0]
    );
    assert!(
        texts[0].contains(r#"printf("mask=%08x count=%d\n""#),
        "{}",
        texts[0]
    );
}

// ---- R47-1: the width the shuffles use ----

const GROUPS_OF_8: &str = "\
__global__ void rows8(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = i < n ? in[i] : 0.f;
    unsigned active = __ballot_sync(0xffffffff, v != 0.f);
    float s = __shfl_sync(0xffffffff, v, 0, 8);
    if ((threadIdx.x & 7) == 0 && active) out[i / 8] = s;
}

__global__ void rows16(const float *in, float *out) {
    float v = in[threadIdx.x];
    unsigned m = __ballot_sync(0xffffffff, v > 0.f);
    v += __shfl_xor_sync(0xffffffff, v, 8, 16);
    if ((threadIdx.x & 15) == 0) out[threadIdx.x / 16] = v + m;
}

__global__ void rows32(const float *in, float *out) {
    float v = in[threadIdx.x];
    unsigned m = __ballot_sync(0xffffffff, v > 0.f);
    v = __shfl_sync(0xffffffff, v, 0, 32);
    out[threadIdx.x] = v + m;
}
";

#[test]
fn r471_h004_help_names_the_width_of_the_shuffles() {
    let (_, err) = convert_exact(&[("g.cu", GROUPS_OF_8)], &["--hip-version", "6.2"]);
    let eight = help_of(&report(&err, "H004", "v != 0.f").expect(&err)).to_string();
    assert!(eight.contains("shuffles with width 8,"), "{eight}");
    assert!(!eight.contains("width 32"), "{eight}");
    let d = diags(&err, "g.cu");
    let at = |line: usize| {
        d.iter()
            .find(|x| x.0.contains("[H004]") && x.1 == line)
            .map(|x| x.2.clone())
            .unwrap_or_else(|| panic!("no H004 on line {line}: {err}"))
    };
    assert!(at(11).contains("shuffles with width 16,"), "{}", at(11));
    assert!(at(18).contains("shuffles with width 32,"), "{}", at(18));
}

// ---- R48-1: a note in a skipped branch and the H011 at its directive ----

const ARCH: &str = "\
#include <cuda_runtime.h>
#include <cuda_fp16.h>

__device__ inline half larger(half a, half b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  return __hmax(a, b);
#else
  return __hgt(a, b) ? a : b;
#endif
}
";

#[test]
fn r481_skipped_branch_note_points_to_the_h011() {
    let (_, err) = convert_exact(&[("a.cu", ARCH)], &["--hip-version", "5.2"]);
    let h011 = report(&err, "H011", "__CUDA_ARCH__ >= 800").expect(&err);
    assert!(h011.starts_with("warning[H011]"), "{h011}");
    assert!(h011.contains("this condition is false"), "{h011}");
    let t002 = report(&err, "T002", "__hmax").expect(&err);
    assert!(t002.starts_with("note[T002]"), "{t002}");
    // What the note adds: the name and the release; why the branch is skipped is H011's.
    assert!(t002.contains("only from 5.5.0"), "{t002}");
    assert!(t002.contains("(see H011 on line 5)"), "{t002}");
    assert!(!t002.contains("is false under hipcc"), "{t002}");
    assert!(!t002.contains("__CUDA_ARCH__ >= 800"), "{t002}");
}

/// Where no H010/H011 is reported at the directive (a project's own macro), the note still
/// says why hipcc skips the branch.
#[test]
fn r481_note_keeps_its_reason_without_a_directive_report() {
    let src = "\
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#define OLD_PATH 0
__device__ inline half larger(half a, half b) {
#if OLD_PATH
  return __hmax(a, b);
#else
  return __hgt(a, b) ? a : b;
#endif
}
";
    let (_, err) = convert_exact(&[("a.cu", src)], &["--hip-version", "5.2"]);
    assert!(!err.contains("[H011]"), "{err}");
    if let Some(t002) = report(&err, "T002", "__hmax") {
        assert!(!t002.contains("(see H0"), "{t002}");
    }
}

// ---- help texts of the rules ----

#[test]
fn bf16_constants_are_written_with_the_bf16_bit_cast() {
    for (name, bits) in [
        ("CUDART_ONE_BF16", "0x3f80U"),
        ("CUDART_INF_BF16", "0x7f80U"),
        ("CUDART_MAX_NORMAL_BF16", "0x7f7fU"),
        ("CUDART_NEG_ZERO_BF16", "0x8000U"),
    ] {
        let text = explain(name);
        let want = format!("`__ushort_as_bfloat16((unsigned short){bits})`");
        assert!(text.contains(&want), "{name}: {text}");
        assert!(
            !text.contains("spell the value with __ushort_as_half"),
            "{name}: {text}"
        );
    }
    let src =
        "#include <cuda_bf16.h>\n__global__ void f(__nv_bfloat16 *x) { x[0] = CUDART_ONE_BF16; }\n";
    let (_, err) = convert_exact(&[("b.cu", src)], &["--hip-version", "6.2"]);
    let t001 = report(&err, "T001", "CUDART_ONE_BF16").expect(&err);
    let help = help_of(&t001);
    assert!(
        help.contains("__ushort_as_bfloat16((unsigned short)0x3f80U)"),
        "{help}"
    );
    assert!(!help.contains("`__ushort_as_half("), "{help}");
}

#[test]
fn dp2a_help_is_a_two_way_dot() {
    let src = "\
__global__ void dots(const int *a, const int *b, int *c) {
    int i = threadIdx.x;
    c[i] = __dp2a_lo(a[i], b[i], c[i]) + __dp2a_hi(a[i], b[i], 0);
}
";
    let (_, err) = convert_exact(&[("d.cu", src)], &["--hip-version", "6.2"]);
    let lo = report(&err, "T001", "__dp2a_lo").expect(&err);
    let lo = help_of(&lo);
    assert!(lo.contains("__builtin_amdgcn_sdot2"), "{lo}");
    assert!(lo.contains("(b & 0xff)"), "{lo}");
    assert!(!lo.contains("sdot4"), "{lo}");
    let hi = report(&err, "T001", "__dp2a_hi").expect(&err);
    let hi = help_of(&hi);
    assert!(hi.contains("((b >> 16) & 0xff)"), "{hi}");
    assert!(hi.contains("((b >> 24) & 0xff)"), "{hi}");
}

// ---- T033 on cuTENSOR 1.x's handle calls ----

#[test]
fn t033_cutensor_1x_handle_fits_hiptensor_1x() {
    let v1 = "\
#include <cutensor.h>
void make() {
    cutensorHandle_t *handle;
    cutensorCreate(&handle);
    cutensorDestroy(handle);
}
";
    let (_, err) = convert_exact(&[("t.cu", v1)], &["--hip-version", "6.2"]);
    let d = diags(&err, "t.cu");
    assert!(!d.iter().any(|x| x.0 == "warning[T033]"), "{err}");
    let notes: Vec<_> = d.iter().filter(|x| x.0 == "note[T033]").collect();
    assert_eq!(
        notes.iter().map(|x| x.1).collect::<Vec<_>>(),
        vec![4, 5],
        "{err}"
    );
    assert!(notes[0].2.contains("cuTENSOR 1.x"), "{}", notes[0].2);
    assert!(notes[0].2.contains("hiptensorHandle_t**"), "{}", notes[0].2);
    // cuTENSOR 2's form keeps the warning, in the same file too.
    let v2 = "\
#include <cutensor.h>
void make() {
    cutensorHandle_t handle;
    cutensorCreate(&handle);
    cutensorDestroy(handle);
}
";
    let (_, err) = convert_exact(&[("t.cu", v2)], &["--hip-version", "6.2"]);
    let d = diags(&err, "t.cu");
    let warned: Vec<usize> = d
        .iter()
        .filter(|x| x.0 == "warning[T033]")
        .map(|x| x.1)
        .collect();
    assert_eq!(warned, vec![4, 5], "{err}");
    assert!(!err.contains("note[T033]"), "{err}");
    // From hipTensor 2.x on, the 1.x form is what does not fit: no note saying it does.
    let (_, err) = convert_exact(&[("t.cu", v1)], &["--hip-version", "7.0"]);
    assert!(!err.contains("[T033]"), "{err}");
}
