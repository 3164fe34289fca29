//! wavefix30: R48-c (block sizes named by constants, in the file or a project header),
//! R47-a (a down tree from 16 read at thread 0 after a shared tree that leaves 32 partial
//! sums), R47-d (a width-32 loop that starts at `warpSize / 2`), R48-a (out-of-line qualified
//! definitions), R48-g (a warp index passed as a parameter).

use crate::common;
use hipport::diag::Severity;
use hipport_rules::Version;

const V62: Version = Version::new(6, 2, 0);

// ---- R48-c: a block size named by a constant ----

/// A scan over 32-lane segments whose every block has `BLOCK` threads (a literal or a name),
/// with `DECL` (a constant's declaration, or nothing) at the top.
fn segment_scan(decl: &str, block: &str) -> String {
    format!(
        "\
{decl}
__global__ void prefix(const int* in, int* out) {{
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int ln = g & 31;
  int v = in[g];
  for (int d = 1; d < 32; d *= 2) {{
    int o = __shfl_up_sync(0xffffffff, v, d);
    if (ln >= d) v += o;
  }}
  out[g] = __shfl_sync(0xffffffff, v, 31);
}}
void run_prefix(const int* in, int* out, int n) {{
  prefix<<<n / {block}, {block}>>>(in, out);
}}
"
    )
}

/// The H001 and H003 reports of `stderr`, as `severity[ID]` with whether the H003 says the
/// launch's blocks hold 32 threads.
fn lane_reports(err: &str) -> Vec<String> {
    let mut out: Vec<String> = ["H001", "H003"]
        .iter()
        .flat_map(|id| common::reports(err, id))
        .map(|l| {
            let head = l.split(':').next().unwrap_or_default().to_string();
            if l.contains("with blocks of 32 threads") {
                format!("{head} blocks of 32")
            } else {
                head
            }
        })
        .collect();
    out.sort();
    out
}

#[test]
fn r48c_a_block_size_constant_counts_as_the_literal() {
    let (code, literal_err, _) = common::cli_convert(&[("k.cu", &segment_scan("", "32"))], &[]);
    assert_eq!(code, Some(0), "{literal_err}");
    let literal = lane_reports(&literal_err);
    assert!(
        literal.iter().any(|l| l.ends_with("blocks of 32"))
            && !literal.iter().any(|l| l.starts_with("error[H001]")),
        "{literal_err}"
    );
    // The same file with the block size named: in the file, and in a header it includes.
    for decl in [
        "static const int tblock_size = 32;",
        "constexpr int tblock_size = 32;",
        "#define tblock_size 32",
    ] {
        let (code, err, _) =
            common::cli_convert(&[("k.cu", &segment_scan(decl, "tblock_size"))], &[]);
        assert_eq!(code, Some(0), "{err}");
        assert_eq!(lane_reports(&err), literal, "{decl} in the file\n{err}");
        let header = format!("#pragma once\n// fixed: one segment per block\n{decl}\n");
        let src = segment_scan("#include \"sizes.h\"", "tblock_size");
        let (code, err, _) = common::cli_convert(&[("sizes.h", &header), ("k.cu", &src)], &[]);
        assert_eq!(code, Some(0), "{err}");
        let main: String = err
            .split("\n\n")
            .filter(|b| !b.contains("sizes.h:"))
            .collect::<Vec<_>>()
            .join("\n\n");
        assert_eq!(lane_reports(&main), literal, "{decl} in a header\n{err}");
    }
}

#[test]
fn r48c_a_header_constant_of_64_or_one_chosen_per_platform_is_no_32_thread_block() {
    let src = segment_scan("#include \"sizes.h\"", "tblock_size");
    for header in [
        "#pragma once\nstatic const int tblock_size = 64;\n",
        "#pragma once\n#ifdef __HIP_PLATFORM_AMD__\nconstexpr int tblock_size = 64;\n#else\nconstexpr int tblock_size = 32;\n#endif\n",
    ] {
        let (_, err, _) = common::cli_convert(&[("sizes.h", header), ("k.cu", &src)], &[]);
        // The H001 error makes the exit status 1.
        let r = lane_reports(&err);
        assert!(
            !r.iter().any(|l| l.ends_with("blocks of 32"))
                && r.iter().any(|l| l.starts_with("error[H001]")),
            "{header}\n{err}"
        );
    }
}

// ---- R47-a: a down tree from 16 read at thread 0 after 32 partial sums ----

/// A 256-thread block sum: a shared-memory tree (`TREE`), then a shuffle-down tree from 16
/// whose result thread 0 stores.
fn block_sum(tree: &str) -> String {
    format!(
        "\
__global__ void total(const double* in, double* res) {{
  __shared__ double buf[256];
  unsigned k = threadIdx.x;
  buf[k] = in[blockIdx.x * 256 + k];
  __syncthreads();
{tree}
  double acc = buf[k];
  for (int d = 16; d >= 1; d /= 2) acc += __shfl_down_sync(0xffffffff, acc, d);
  if (k == 0) res[blockIdx.x] = acc;
}}
"
    )
}

fn h001(src: &str) -> Vec<hipport::diag::Diagnostic> {
    let (_, d) = common::translate_at(src, V62);
    d.into_iter().filter(|d| d.id == "H001").collect()
}

#[test]
fn r47a_thread_zero_after_32_partials_is_right() {
    for tree in [
        "  for (unsigned stride = 128; stride > 16; stride /= 2) {\n    if (k < stride) buf[k] += buf[k + stride];\n    __syncthreads();\n  }",
        "  for (int h = 128; h >= 32; h >>= 1) {\n    if (k < h) buf[k] = buf[k] + buf[k + h];\n    __syncthreads();\n  }",
        "  if (k < 128) buf[k] += buf[k + 128];\n  __syncthreads();\n  if (k < 64) buf[k] += buf[k + 64];\n  __syncthreads();\n  if (k < 32) buf[k] += buf[k + 32];\n  __syncthreads();",
    ] {
        let d = h001(&block_sum(tree));
        assert!(
            d.iter().all(|d| d.severity != Severity::Error
                && !d.help.as_deref().unwrap_or("").contains("warpSize / 2")),
            "{tree}\n{d:#?}"
        );
    }
}

#[test]
fn r47a_64_partials_or_no_shared_tree_keep_the_error() {
    for tree in [
        // 64 partial sums left: lane 0's tree from 16 misses slots 32-63.
        "  for (unsigned stride = 128; stride > 32; stride /= 2) {\n    if (k < stride) buf[k] += buf[k + stride];\n    __syncthreads();\n  }",
        "",
    ] {
        let d = h001(&block_sum(tree));
        assert!(
            d.iter().any(|d| d.severity == Severity::Error
                && d.help.as_deref().unwrap_or("").contains("warpSize / 2")),
            "{tree}\n{d:#?}"
        );
    }
}

// ---- R47-d: width 32 in a loop that starts at warpSize / 2 ----

fn width_loop(start: &str, op: &str) -> String {
    format!(
        "\
__device__ float lanes_total(float x) {{
  for (int step = {start}; step > 0; step >>= 1)
    x += {op}(0xffffffff, x, step, 32);
  return x;
}}
__global__ void sums(const float* in, float* out) {{
  float s = lanes_total(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x % warpSize == 0) atomicAdd(out, s);
}}
"
    )
}

#[test]
fn r47d_width_32_from_warp_size_half_is_an_error() {
    for start in ["warpSize / 2", "warpSize >> 1", "(warpSize / 2)"] {
        for op in ["__shfl_down_sync", "__shfl_xor_sync"] {
            let d = h001(&width_loop(start, op));
            let e: Vec<_> = d
                .iter()
                .filter(|d| d.message.contains("width 32"))
                .collect();
            assert!(
                e.len() == 1
                    && e[0].severity == Severity::Error
                    && e[0].message.contains("first step's lane distance is 32")
                    && e[0]
                        .help
                        .as_deref()
                        .is_some_and(|h| h.contains("pass `warpSize` as the width")
                            && h.contains("start the loop at 16")),
                "{start} {op}\n{d:#?}"
            );
        }
    }
}

#[test]
fn r47d_width_32_from_16_keeps_the_warning() {
    let d = h001(&width_loop("16", "__shfl_down_sync"));
    // Judged as before: not this error.
    assert!(
        !d.iter()
            .any(|d| d.message.contains("first step's lane distance")),
        "{d:#?}"
    );
}

// ---- R48-a: out-of-line qualified definitions ----

const BODIES: &str = "\
__device__ float QUALtop(float v) {
  int warpSize = 32;
  for (int k = warpSize / 2; k; k >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, k));
  return v;
}
__device__ int QUALscan32(int v) {
  int l = threadIdx.x % 32;
  for (int s = 1; s < 32; s *= 2) {
    int u = __shfl_up_sync(0xffffffff, v, s);
    if (l >= s) v += u;
  }
  return v;
}
";

fn brief(d: &[hipport::diag::Diagnostic]) -> Vec<String> {
    d.iter()
        .filter(|d| d.id.starts_with('H'))
        .map(|d| format!("{}@{} {} {}", d.id, d.line, d.severity.as_str(), d.message))
        .collect()
}

#[test]
fn r48a_qualified_definitions_are_read_as_plain_ones() {
    let plain = format!(
        "__device__ float top(float v);\n__device__ int scan32(int v);\n{}",
        BODIES.replace("QUAL", "")
    );
    let (_, want) = common::translate_at(&plain, V62);
    assert!(
        want.iter()
            .any(|d| d.id == "H001" && d.severity == Severity::Error && d.line == 4),
        "{want:#?}"
    );
    for (decls, qual) in [
        (
            "namespace blk { __device__ float top(float v); __device__ int scan32(int v); }",
            "blk::",
        ),
        (
            "namespace outer { namespace blk { __device__ float top(float v); __device__ int scan32(int v); } }",
            "outer::blk::",
        ),
        (
            "struct Blk { __device__ static float top(float v); __device__ static int scan32(int v); };",
            "Blk::",
        ),
    ] {
        let src = format!("{decls}\n\n{}", BODIES.replace("QUAL", qual));
        let (_, got) = common::translate_at(&src, V62);
        assert_eq!(brief(&got), brief(&want), "{qual}\n{got:#?}");
    }
}

// ---- R48-g: the warp index passed as a parameter ----

/// dietgpu's block sum with the file's `kLanes` and the kernel body `caller`.
fn block_total(caller: &str) -> String {
    common::block_total_src("constexpr int kLanes = 32;", caller)
}

fn half_wave(src: &str) -> Vec<hipport::diag::Diagnostic> {
    h001(src)
        .into_iter()
        .chain(common::translate_at(src, V62).1)
        .filter(|d| d.message.contains("`if (wid == 0)`"))
        .collect()
}

#[test]
fn r48g_a_warp_index_parameter_from_every_call_is_read() {
    for caller in [
        common::BLOCK_TOTAL_CALLER,
        "  out[threadIdx.x] = block_total(threadIdx.x >> 5, threadIdx.x & 31, 1, out + 1024);",
    ] {
        let src = block_total(caller);
        assert!(
            !half_wave(&src).is_empty(),
            "{caller}\n{:#?}",
            common::translate_at(&src, V62).1
        );
    }
}

#[test]
fn r48g_a_parameter_from_a_wavefront_index_or_a_mixed_call_is_not() {
    for caller in [
        "  int wid = threadIdx.x / warpSize;\n  out[threadIdx.x] = block_total(wid, threadIdx.x % warpSize, 1, out + 1024);",
        "  out[threadIdx.x] = block_total(threadIdx.x / kLanes, threadIdx.x % kLanes, 1, out + 1024);\n  out[0] = block_total(out[1], 0, 1, out + 1024);",
    ] {
        assert!(half_wave(&block_total(caller)).is_empty(), "{caller}");
    }
}
