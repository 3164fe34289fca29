//! Findings of verify16/realuser35 (wavefix22): a word in a comment changed H001's verdict
//! (the kernel's name in a comment hid its launch's argument), the segment form H001's help
//! suggests (`lane = threadIdx.x % width` with width-`width` shuffles) was still an error
//! (V16-b), and shuffles with a run-time width in 32-wide blocks made the block row's
//! `WARP_SIZE = 32` an error (R35-d).

use crate::common;
use common::{cli_convert, cli_convert_in, have_tool, hipcc_compile, reports};

fn errors<'s>(err: &'s str, id: &str) -> Vec<&'s str> {
    reports(err, id)
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect()
}

// V16-b ----------------------------------------------------------------------------------------

/// A scan of `width`-lane segments numbered `threadIdx.x % width`, whose shuffles pass the
/// same width: right on 32- and 64-lane wavefronts.
const SEGMENT_SCAN: &str = r#"__global__ void prefix(int *d, int width) {
  int lane = threadIdx.x % width;
  int v = d[threadIdx.x];
  for (int i = 1; i < width; i *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, i, width);
    if (lane >= i) v += n;
  }
  d[threadIdx.x] = v;
}
void run(int *d) { prefix<<<1, 64>>>(d, 32); }
"#;

/// The same scan, but its last step reads the segment's total without a width: on a 64-lane
/// wavefront `width - 1` is lane 31 of the whole wavefront, so lanes 32-63 add the first
/// segment's total.
const WAVE_TOTAL: &str = r#"__global__ void prefix(int *d, int width) {
  int lane = threadIdx.x % width;
  int v = d[threadIdx.x];
  for (int i = 1; i < width; i *= 2) {
    int n = __shfl_up_sync(0xffffffff, v, i);
    if (lane >= i) v += n;
  }
  int last = __shfl_sync(0xffffffff, v, width - 1);
  d[threadIdx.x] = v + last;
}
void run(int *d) { prefix<<<1, 64>>>(d, 32); }
"#;

/// `src` with comments and a string literal that name the kernel, and a launch commented out.
fn commented(src: &str) -> String {
    format!(
        "// prefix: scan each segment\n/* the old launch: prefix<<<1, 64>>>(d, 16); */\nstatic const char *kernel_name = \"prefix\";\n{src}// prefix<<<2, 32>>>(d, 8);\n"
    )
}

#[test]
fn v16b_the_segment_form_the_help_suggests_is_no_error() {
    for src in [SEGMENT_SCAN.to_string(), commented(SEGMENT_SCAN)] {
        let (code, err, _) = cli_convert(&[("k.cu", &src)], &[]);
        assert!(errors(&err, "H001").is_empty(), "{src}\n{err}");
        assert_eq!(code, Some(0), "{err}");
    }
    // With `& (width - 1)` and a width from a constant, the same.
    let masked = SEGMENT_SCAN
        .replace("threadIdx.x % width", "threadIdx.x & (width - 1)")
        .replace("(d, 32)", "(d, SEG)");
    let masked = format!("#define SEG 32\n{masked}");
    let (_, err, _) = cli_convert(&[("k.cu", &masked)], &[]);
    assert!(errors(&err, "H001").is_empty(), "{masked}\n{err}");
}

#[test]
fn v16b_a_comment_never_changes_the_verdict() {
    let (_, plain, _) = cli_convert(&[("k.cu", WAVE_TOTAL)], &[]);
    let (_, noted, _) = cli_convert(&[("k.cu", &commented(WAVE_TOTAL))], &[]);
    let plain = errors(&plain, "H001");
    let noted = errors(&noted, "H001");
    assert!(
        !plain.is_empty(),
        "the wavefront-wide total is wrong on wave64"
    );
    assert_eq!(plain, noted);
}

#[test]
fn v16b_a_wavefront_wide_read_in_segment_code_stays_an_error() {
    // Near neighbour: the lane numbering is the segment's, but one shuffle has no width.
    let (code, err, _) = cli_convert(&[("k.cu", WAVE_TOTAL)], &[]);
    assert!(!errors(&err, "H001").is_empty(), "{err}");
    assert_eq!(code, Some(1));
    // And a width that is not the lanes' modulus (`% width`, shuffles over the wavefront's
    // `warpSize`) is not segment code.
    let wide = SEGMENT_SCAN.replace("v, i, width)", "v, i, warpSize)");
    let (_, err, _) = cli_convert(&[("k.cu", &wide)], &[]);
    assert!(!errors(&err, "H001").is_empty(), "{wide}\n{err}");
}

// R35-d ----------------------------------------------------------------------------------------

/// Blocks of rows 32 threads wide (`dim3(WARP_SIZE, ROWS)`, `WARP_SIZE` the row's width); each
/// row holds `WARP_SIZE / group` items of `group` lanes that reduce with `shuffle`, by default
/// a shuffle of width `group`, a kernel argument.
fn row_groups(dim: &str, shuffle: &str) -> String {
    format!(
        r#"static constexpr int WARP_SIZE = 32;
static constexpr int ROWS = 8;
__global__ void pick_max(const float *in, float *out, int group) {{
  int item = (blockIdx.x * ROWS + threadIdx.y) * (WARP_SIZE / group) + threadIdx.x / group;
  float v = in[item * group + threadIdx.x % group];
  for (int m = group / 2; m > 0; m >>= 1)
    v = fmaxf(v, {shuffle});
  if (threadIdx.x % group == 0) out[item] = v;
}}
void launch(const float *in, float *out, int blocks, int group) {{
  {dim}
  pick_max<<<blocks, block>>>(in, out, group);
}}
"#
    )
}

const GROUP_SHUFFLE: &str = "__shfl_xor_sync(0xffffffff, v, m, group)";

#[test]
fn r35d_a_run_time_width_in_32_wide_blocks_keeps_to_the_row() {
    for dim in [
        "dim3 block(WARP_SIZE, ROWS);",
        "dim3 block(32, ROWS);",
        "dim3 block = dim3(WARP_SIZE, 4);",
        "dim3 block{WARP_SIZE, ROWS};",
    ] {
        let src = row_groups(dim, GROUP_SHUFFLE);
        let (code, err, _) = cli_convert(&[("k.cu", &src)], &[]);
        assert!(errors(&err, "H001").is_empty(), "{dim}\n{err}");
        assert_eq!(code, Some(0), "{dim}\n{err}");
    }
}

#[test]
fn r35d_wider_blocks_or_wavefront_shuffles_stay_errors() {
    // 64-wide blocks: the constant no longer sizes a row.
    let src = row_groups("dim3 block(2 * WARP_SIZE, ROWS);", GROUP_SHUFFLE);
    let (_, err, _) = cli_convert(&[("k.cu", &src)], &[]);
    assert!(!errors(&err, "H001").is_empty(), "{err}");
    // A shuffle over the wavefront's lanes (no width) in the 32-wide rows reads the next row.
    let src = row_groups(
        "dim3 block(WARP_SIZE, ROWS);",
        "__shfl_sync(0xffffffff, v, threadIdx.x ^ m)",
    );
    let (code, err, _) = cli_convert(&[("k.cu", &src)], &[]);
    assert_eq!(code, Some(1), "{src}\n{err}");
    // A width of `warpSize` is the wavefront's, not the row's.
    let src = row_groups(
        "dim3 block(WARP_SIZE, ROWS);",
        "__shfl_xor_sync(0xffffffff, v, m, warpSize)",
    );
    let (_, err, _) = cli_convert(&[("k.cu", &src)], &[]);
    assert!(!errors(&err, "H001").is_empty(), "{src}\n{err}");
}

#[test]
fn r35d_the_port_compiles_with_hipcc() {
    if !have_tool("hipcc") {
        return;
    }
    let src = row_groups("dim3 block(WARP_SIZE, ROWS);", GROUP_SHUFFLE);
    let (tmp, code, err, _) = cli_convert_in(&[("k.cu", &src)], "5.2.3", &[]);
    assert_eq!(code, Some(0), "{err}");
    hipcc_compile(&tmp.path().join("out"), "k.cu").unwrap_or_else(|e| panic!("{e}\n{err}"));
}
