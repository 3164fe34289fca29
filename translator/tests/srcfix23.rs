//! Findings fixed by srcfix23: `hipport: allow(...)` entries that name no diagnostic (T027),
//! H001's explain page on run-time widths in 32-wide code, and H044 inside a `__CUDA_ARCH__`
//! branch that H011 reports (R37-1).

use crate::common;
use common::{cli_convert_in, reports, write_files};
use std::process::Command;

// T027 -----------------------------------------------------------------------------------------

/// A kernel with a lane index mod 32 on each of three lines, each with a mistyped suppression.
const MISTYPED: &str = r#"__global__ void fill(int *out) {
    int lane = threadIdx.x % 32; // hipport: allow(H01)
    // hipport: allow(warp-size32)
    int warp = threadIdx.x / 32;
    int half = threadIdx.x & 31; /* hipport: allow(H001 halves are separate) */
    int ok = (threadIdx.x + 1) % 32; // hipport: allow(H001)
    out[lane + warp + half + ok] = 1;
}
"#;

/// Python with a mistyped suppression in its `load_inline` string and one as a `#` comment.
const MISTYPED_PY: &str = r#"from torch.utils.cpp_extension import load_inline

src = """
__global__ void fill(int *out) {
    int lane = threadIdx.x % 32; // hipport: allow(H0O1)
    out[lane] = 1;
}
"""
# hipport: allow(warp-size-3)
mod = load_inline(name="fill", cpp_sources="", cuda_sources=src, functions=[])
"#;

fn t027_lines(err: &str) -> Vec<String> {
    reports(err, "T027")
        .iter()
        .map(|l| l.split('`').nth(1).unwrap().to_string())
        .collect()
}

#[test]
fn t027_convert_reports_each_unknown_entry_once_and_suppresses_nothing() {
    let files = [("k.cu", MISTYPED), ("ext.py", MISTYPED_PY)];
    let (_, _, err, _) = cli_convert_in(&files, "6.2", &[]);
    assert_eq!(
        t027_lines(&err),
        vec![
            "H0O1",
            "warp-size-3",
            "H01",
            "warp-size32",
            "H001 halves are separate"
        ],
        "{err}"
    );
    assert!(err.contains("did you mean `H001`?"), "{err}");
    assert!(err.contains("did you mean `warp-size-32`?"), "{err}");
    assert!(
        err.contains(
            "write the reason after the parenthesis, `hipport: allow(H001) halves are separate`"
        ),
        "{err}"
    );
    // The mistyped lines keep their H001; the right entry (line 6) silences its own.
    let h001: Vec<&str> = reports(&err, "H001");
    assert_eq!(h001.len(), 4, "{err}");
    assert!(!err.contains("k.cu:6:"), "{err}");
}

#[test]
fn t027_check_reports_the_same_once() {
    let tmp = tempfile::tempdir().unwrap();
    write_files(
        &tmp.path().join("in"),
        &[("k.cu", MISTYPED), ("ext.py", MISTYPED_PY)],
    );
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["check", "in", "--hip-version", "6.2"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert_eq!(t027_lines(&out).len(), 5, "{out}");
    assert!(out.contains("warning[T027]"), "{out}");
    // `--allow T027` silences it, like any other diagnostic.
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["check", "in", "--allow", "T027"])
        .current_dir(tmp.path())
        .output()
        .unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(t027_lines(&out).is_empty(), "{out}");
}

#[test]
fn t027_right_entries_are_not_reported() {
    let src = r#"__global__ void fill(int *out) {
    int lane = threadIdx.x % 32; // hipport: allow(H001) a 32-lane segment on purpose
    // hipport: allow(warp-size-32, sync-mask-32bit)
    int warp = threadIdx.x / 32;
    /* hipport: allow(all) */ int half = threadIdx.x & 31;
    const char *doc = "hipport: allow(nothing)";
    out[lane + warp + half] = doc[0];
}
"#;
    let (_, _, err, _) = cli_convert_in(&[("k.cu", src)], "6.2", &[]);
    assert!(reports(&err, "T027").is_empty(), "{err}");
    assert!(reports(&err, "H001").is_empty(), "{err}");
    let explain = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "unknown-allow-entry"])
        .output()
        .unwrap();
    let page = String::from_utf8_lossy(&explain.stdout);
    assert!(
        page.starts_with("T027 (unknown-allow-entry) [warning]"),
        "{page}"
    );
}

// H001's explain page: run-time widths -----------------------------------------------------------

/// The two examples the page gives, each in a kernel of its own: a width that is a kernel
/// argument in blocks 32 threads wide, and a width every launch passes as 32.
const ROW_MAX: &str = r#"#define WARP_SIZE 32
__global__ void row_max(const float *in, float *out, int group) {
  int lane = threadIdx.x % WARP_SIZE;
  int row = blockIdx.x * 8 + threadIdx.y;
  float v = in[row * WARP_SIZE + lane];
  for (int m = group / 2; m > 0; m /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m, group));
  if (lane % group == 0) out[row * WARP_SIZE + lane] = v;
}
void go(const float *in, float *out, int n, int group) {
  dim3 block(WARP_SIZE, 8);
  row_max<<<n, block>>>(in, out, group);
}
"#;

const SCAN: &str = r#"__global__ void scan(int *d, int width) {
  int lane = threadIdx.x % width;
  int v = d[threadIdx.x];
  for (int i = 1; i < width; i *= 2) {
    int up = __shfl_up_sync(0xffffffff, v, i, width);
    if (lane >= i) v += up;
  }
  d[threadIdx.x] = v;
}
void go(int *d) { scan<<<1, 64>>>(d, 32); }
"#;

#[test]
fn h001_explain_says_run_time_widths_in_32_wide_code_pass_and_they_do() {
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "H001"])
        .output()
        .unwrap();
    let page = String::from_utf8_lossy(&o.stdout).replace('\n', " ");
    for words in [
        "A shuffle whose width is read at run time counts as one with a width of 32",
        "only blocks 32 threads wide reach",
        "a kernel parameter that every launch in the file passes as 32 or less",
        "`lane = threadIdx.x % WARP_SIZE`",
        "`__shfl_xor_sync(mask, v, m, group)`, `group` a kernel argument",
        "`dim3 block(WARP_SIZE, 8)`",
        "`scan<<<1, 64>>>(d, 32)`",
        "A width of `warpSize` or one above 32, or a shuffle without a width, is the wavefront's",
    ] {
        assert!(page.contains(words), "{words}\n{page}");
    }
    // What the page says holds: no H001 for either example...
    for src in [ROW_MAX, SCAN] {
        let (_, _, err, _) = cli_convert_in(&[("k.cu", src)], "6.2", &[]);
        assert!(reports(&err, "H001").is_empty(), "{src}\n{err}");
    }
    // ...and a width of warpSize, blocks 64 wide or a shuffle without a width are still judged.
    for src in [
        ROW_MAX.replace("m, group)", "m, warpSize)"),
        ROW_MAX.replace("block(WARP_SIZE, 8)", "block(2 * WARP_SIZE, 4)"),
        SCAN.replace("v, i, width)", "v, i)"),
    ] {
        let (_, _, err, _) = cli_convert_in(&[("k.cu", &src)], "6.2", &[]);
        assert!(!reports(&err, "H001").is_empty(), "{src}\n{err}");
    }
}

// R37-1 ----------------------------------------------------------------------------------------

/// A histogram kernel whose whole body is a `__CUDA_ARCH__` branch that groups lanes by key
/// with `cg::labeled_partition` (no HIP release has it) and sums with `cg::reduce`.
const BY_KEY: &str = r#"#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void histogram(const int *keys, int *bins, int n) {
#if __CUDA_ARCH__ >= 700
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  cg::coalesced_group live = cg::coalesced_threads();
  auto same = cg::labeled_partition(live, keys[i]);
  int total = cg::reduce(same, 1, cg::plus<int>());
  if (same.thread_rank() == 0) atomicAdd(&bins[keys[i]], total);
#endif
}
"#;

fn report_lines<'s>(err: &'s str, id: &str) -> Vec<&'s str> {
    reports(err, id)
}

#[test]
fn r37_1_calls_hip_lacks_in_an_emptied_kernel_guard_are_warnings() {
    let (_, _, err, _) = cli_convert_in(&[("h.cu", BY_KEY)], "6.2", &[]);
    let h011 = report_lines(&err, "H011");
    assert_eq!(h011.len(), 1, "{err}");
    assert!(h011[0].starts_with("error[H011]"), "{err}");
    let h044 = report_lines(&err, "H044");
    let partition: Vec<&&str> = h044
        .iter()
        .filter(|l| l.contains("`labeled_partition`"))
        .collect();
    assert_eq!(partition.len(), 1, "{err}");
    assert!(partition[0].starts_with("warning[H044]"), "{err}");
    assert!(
        partition[0].contains("hipcc skips it only because `#if __CUDA_ARCH__ >= 700` on line 5 is false under hipcc, which leaves `histogram` an empty kernel (H011): once the guard is dropped"),
        "{err}"
    );
    // cg::reduce's call in the branch says the same (its include is an error of its own).
    let reduce: Vec<&&str> = h044
        .iter()
        .filter(|l| l.contains("`cg::reduce`") && l.contains(":10:"))
        .collect();
    assert!(reduce.iter().all(|l| l.starts_with("warning")), "{err}");
    assert!(!err.contains("note[H044]"), "{err}");
    // The same with `#ifdef __CUDA_ARCH__`.
    let ifdef = BY_KEY.replace("#if __CUDA_ARCH__ >= 700", "#ifdef __CUDA_ARCH__");
    let (_, _, err, _) = cli_convert_in(&[("h.cu", &ifdef)], "6.2", &[]);
    assert!(err.contains("warning[H044]: `labeled_partition`"), "{err}");
    assert!(!err.contains("note[H044]"), "{err}");
    let page = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "H044"])
        .output()
        .unwrap();
    let page = String::from_utf8_lossy(&page.stdout).replace('\n', " ");
    assert!(
        page.contains("a missing member there is a warning, since it fails to compile as soon as the guard goes"),
        "{page}"
    );
}

#[test]
fn r37_1_other_skipped_branches_keep_their_notes() {
    // An #else holds the AMD path: the kernel is not empty, H011 is no error, the guarded call
    // is never compiled by hipcc.
    let with_else = BY_KEY.replace(
        "#endif",
        "#else\n  if (blockIdx.x * blockDim.x + threadIdx.x < n) atomicAdd(&bins[keys[blockIdx.x * blockDim.x + threadIdx.x]], 1);\n#endif",
    );
    // Code outside the guard: the kernel does not become empty.
    let more = BY_KEY.replace(
        "#if __CUDA_ARCH__ >= 700",
        "  if (n == 0) bins[0] = 0;\n#if __CUDA_ARCH__ >= 700",
    );
    // The guard sits in a branch hipcc skips anyway: dropping it changes nothing for hipcc.
    let nested = BY_KEY
        .replace(
            "#if __CUDA_ARCH__ >= 700",
            "#ifndef __HIPCC__\n#if __CUDA_ARCH__ >= 700",
        )
        .replace("#endif", "#endif\n#endif");
    for src in [with_else, more, nested] {
        let (_, _, err, _) = cli_convert_in(&[("h.cu", &src)], "6.2", &[]);
        assert!(
            err.contains("note[H044]: `labeled_partition`"),
            "{src}\n{err}"
        );
        assert!(
            !err.contains("warning[H044]: `labeled_partition`"),
            "{src}\n{err}"
        );
    }
}

/// What the warning says holds: with the guard dropped, hipcc stops at `labeled_partition`.
#[test]
fn r37_1_with_the_guard_dropped_hipcc_fails_at_the_call() {
    if !common::have_tool("hipcc") {
        return;
    }
    let src = BY_KEY
        .replace("#if __CUDA_ARCH__ >= 700\n", "")
        .replace("#endif\n", "");
    let src = src.replace("#include <cooperative_groups/reduce.h>\n", "");
    let src = src.replace(
        "int total = cg::reduce(same, 1, cg::plus<int>());",
        "int total = (int)same.size();",
    );
    let (tmp, _, err, _) = cli_convert_in(&[("h.cu", &src)], "5.2.3", &[]);
    assert!(err.contains("`labeled_partition`"), "{err}");
    let e = common::hipcc_compile(&tmp.path().join("out"), "h.cu").expect_err("labeled_partition");
    assert!(e.contains("labeled_partition"), "{e}");
}
