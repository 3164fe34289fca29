//! wavefix29: R44-b/R44-c finished (a kernel every launch runs with 32-thread blocks keeps its
//! full mask as `0xffffffffull` in one edit, and a second conversion leaves it), V19-d (a
//! 32-entry shared array read at the lane index), V19-e (the mirrored dead `CUDA_VERSION`
//! branches).

use crate::common;
use hipport::analysis::{self, AnalysisOptions};
use hipport::diag::Severity;
use hipport::translate::{translate_source, Options};
use hipport_rules::Version;
use std::time::Duration;

const V62: Version = Version::new(6, 2, 0);

/// A kernel that one 32-thread block per item runs: a butterfly max, and a vote kept in 32
/// bits. `MASK` is the mask written in both builtins.
fn one_warp_kernel(mask: &str, launch: &str) -> String {
    format!(
        "\
__global__ void peak(const int* v, int* best, unsigned* who) {{
  int m = v[blockIdx.x * 32 + threadIdx.x];
  for (int s = 1; s < 32; s <<= 1) m = max(m, __shfl_xor_sync({mask}, m, s));
  unsigned at = __ballot_sync({mask}, v[blockIdx.x * 32 + threadIdx.x] == m);
  if (threadIdx.x == 0) {{ best[blockIdx.x] = m; who[blockIdx.x] = at; }}
}}
void find_peaks(const int* v, int* best, unsigned* who, int items) {{
{launch}
}}
"
    )
}

fn opts(hip: Version) -> Options {
    Options {
        hip_version: hip,
        ..Options::default()
    }
}

// ---- R44-b, R44-c: one edit, and a second conversion changes nothing ----

#[test]
fn r44b_one_warp_masks_are_one_edit_and_stable_on_a_second_conversion() {
    for launch in [
        "  peak<<<items, 32>>>(v, best, who);",
        "  peak<<<dim3(items), dim3(32), 0, 0>>>(v, best, who);",
    ] {
        for mask in ["0xffffffff", "0xFFFFFFFFu", "~0u"] {
            let src = one_warp_kernel(mask, launch);
            let first = translate_source(src.as_bytes(), "p.cu", &opts(V62)).unwrap();
            let out = String::from_utf8(first.output.clone()).unwrap();
            assert!(
                out.contains("__shfl_xor_sync(0xffffffffull, m, s)")
                    && out.contains("__ballot_sync(0xffffffffull, v[")
                    && !out.contains("0xffffffffffffffffull"),
                "{mask} / {launch}\n{out}"
            );
            // One edit per mask: no widening left beside the kept mask.
            let at = src.find(mask).unwrap();
            let on_mask: Vec<_> = first
                .edits
                .iter()
                .filter(|e| e.start < at + mask.len() && at < e.end)
                .collect();
            assert_eq!(on_mask.len(), 1, "{mask}: {on_mask:?}");
            // The converted file converted again: no edit, no warning about the masks.
            let second = translate_source(&first.output, "p.cu", &opts(V62)).unwrap();
            assert!(
                second.edits.is_empty(),
                "{mask} / {launch}: {:?}",
                second.edits
            );
            let h003: Vec<_> = second
                .diagnostics
                .iter()
                .filter(|d| d.id == "H003")
                .collect();
            assert!(
                h003.iter()
                    .all(|d| d.severity == Severity::Note && d.fix.is_empty()),
                "{h003:?}"
            );
            assert!(
                h003.iter().any(|d| d
                    .message
                    .starts_with("`__shfl_xor_sync` with the mask `0xffffffffull`")
                    && d.message.contains("blocks of 32 threads")),
                "{h003:?}"
            );
            assert!(
                second
                    .diagnostics
                    .iter()
                    .filter(|d| d.id == "H004")
                    .all(|d| d.severity == Severity::Note && d.fix.is_empty()),
                "{:?}",
                second.diagnostics
            );
        }
    }
}

#[test]
fn r44b_fixes_applied_leave_no_fixable_report() {
    let src = one_warp_kernel("0xffffffff", "  peak<<<items, 32>>>(v, best, who);");
    let aopts = AnalysisOptions {
        hip_version: V62,
        fix: true,
        ..AnalysisOptions::default()
    };
    let tree = hipport::parse::parse(src.as_bytes(), Duration::from_secs(10)).unwrap();
    let first = analysis::analyze(src.as_bytes(), &tree, "p.cu", &aopts);
    let mut edits: Vec<_> = first.iter().flat_map(|d| d.fix.clone()).collect();
    assert!(!edits.is_empty(), "{first:?}");
    let fixed = hipport::edit::apply(src.as_bytes(), &mut edits).unwrap();
    let text = String::from_utf8(fixed.clone()).unwrap();
    assert!(
        text.contains("__shfl_xor_sync(0xffffffffull, m, s)"),
        "{text}"
    );
    let tree = hipport::parse::parse(&fixed, Duration::from_secs(10)).unwrap();
    let after = analysis::analyze(&fixed, &tree, "p.cu", &aopts);
    let left: Vec<_> = after.iter().filter(|d| !d.fix.is_empty()).collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn r44b_an_existing_64_bit_full_mask_in_wider_blocks_is_still_widened() {
    // Not every launch is one 32-thread block: `0xffffffffull` names half the wavefront.
    for launch in [
        "  peak<<<items, 64>>>(v, best, who);",
        "  peak<<<items, 32>>>(v, best, who);\n  peak<<<items, 96>>>(v, best, who);",
    ] {
        let src = one_warp_kernel("0xffffffffull", launch);
        let r = translate_source(src.as_bytes(), "p.cu", &opts(V62)).unwrap();
        let out = String::from_utf8(r.output).unwrap();
        assert!(
            out.contains("__shfl_xor_sync(0xffffffffffffffffull, m, s)"),
            "{launch}\n{out}"
        );
        assert!(
            !r.diagnostics
                .iter()
                .any(|d| d.message.contains(hipport_kept_marker())),
            "{:?}",
            r.diagnostics
        );
    }
}

/// The words of H003's note on a kept `0xffffffffull` (partial_waves.rs `ONE_WARP_KEPT`).
fn hipport_kept_marker() -> &'static str {
    "so hipport leaves it as it is"
}

#[test]
fn r44b_the_cli_output_converted_again_is_unchanged() {
    let src = one_warp_kernel("0xffffffff", "  peak<<<items, 32>>>(v, best, who);");
    let (code, err, texts) = common::cli_convert(&[("p.cu", &src)], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        texts[0].contains("__ballot_sync(0xffffffffull,"),
        "{}",
        texts[0]
    );
    let (code, err, again) = common::cli_convert(&[("p.cu", &texts[0])], &[]);
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(again[0], texts[0]);
    assert!(
        common::reports(&err, "H003")
            .iter()
            .all(|l| l.starts_with("note")),
        "{err}"
    );
}

// ---- V19-d: a 32-entry shared array read at the lane index ----

/// A block sum: each wavefront's lane 0 stores its partial sum in `parts`, then the first
/// wavefront reads them back. `LANE` defines `ln` and `WID` `w`; `READ` is the read.
fn block_total(lane: &str, wid: &str, read: &str) -> String {
    format!(
        "\
__device__ float wave_total(float x) {{
  for (int d = warpSize / 2; d > 0; d /= 2) x += __shfl_down_sync(0xffffffffu, x, d);
  return x;
}}
__device__ float block_total(float x) {{
  static __shared__ float parts[32];
  {lane}
  {wid}
  x = wave_total(x);
  if (ln == 0) parts[w] = x;
  __syncthreads();
  {read}
  if (w == 0) x = wave_total(x);
  return x;
}}
__global__ void totals(const float* in, float* out) {{
  float t = block_total(in[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = t;
}}
"
    )
}

fn lane_reads(src: &str) -> Vec<hipport::diag::Diagnostic> {
    let (_, d) = common::translate_at(src, V62);
    d.into_iter()
        .filter(|d| d.id == "H001" && d.message.contains("read at the lane index"))
        .collect()
}

const LANE: &str = "int ln = threadIdx.x % warpSize;";
const WID: &str = "int w = threadIdx.x / warpSize;";

#[test]
fn v19d_an_unguarded_lane_read_of_32_entries_is_h001() {
    for (lane, read) in [
        (LANE, "if (w == 0) x = parts[ln];"),
        (
            "int ln = threadIdx.x & (warpSize - 1);",
            "if (w == 0) x = parts[ln];",
        ),
        (LANE, "x = parts[ln];"),
        ("int ln = __lane_id();", "if (w == 0) { x = parts[ln]; }"),
        // The lane in 32 (in bounds), read by the whole of wavefront 0: lanes 32-63 add the
        // same entries again.
        ("int ln = threadIdx.x & 31;", "if (w == 0) x = parts[ln];"),
        (LANE, "if (w == 0) x = parts[threadIdx.x % warpSize];"),
        // Bounds that do not count warps.
        (LANE, "if (ln < warpSize) x = parts[ln];"),
        (LANE, "if (threadIdx.x < blockDim.x) x = parts[ln];"),
    ] {
        let found = lane_reads(&block_total(lane, WID, read));
        assert_eq!(found.len(), 1, "{lane} {read}: {found:?}");
        let d = &found[0];
        assert_eq!(d.severity, Severity::Warning, "{d:?}");
        assert_eq!(d.line, 12, "{d:?}");
        assert!(d.message.contains("`parts`"), "{d:?}");
        assert!(
            d.help
                .as_deref()
                .is_some_and(|h| h.contains("blockDim.x / warpSize")),
            "{d:?}"
        );
    }
}

#[test]
fn v19d_guarded_or_sized_reads_stay_silent() {
    for (lane, wid, read) in [
        (LANE, WID, "x = (threadIdx.x < blockDim.x / warpSize) ? parts[ln] : 0.f;"),
        (LANE, WID, "if (w == 0) x = (ln < blockDim.x / warpSize) ? parts[ln] : 0.f;"),
        (LANE, WID, "if (w == 0 && ln < blockDim.x / warpSize) x = parts[ln];"),
        (LANE, WID, "int nw = (blockDim.x + warpSize - 1) / warpSize;\n  if (w == 0) x = ln < nw ? parts[ln] : 0.f;"),
        (LANE, WID, "if (threadIdx.x < 16) x = parts[ln];"),
        (LANE, WID, "extern __device__ int warps_in_use;\n  if (w == 0 && ln < warps_in_use) x = parts[ln];"),
        (LANE, WID, "if (w == 0) { if (ln >= blockDim.x / warpSize) return 0.f; x = parts[ln]; }"),
        // Indexed by the warp, not the lane.
        (LANE, WID, "if (threadIdx.x == 0) x = parts[w];"),
        // The lane in 32 where only the first 32 threads read.
        ("int ln = threadIdx.x & 31;", "int w = threadIdx.x >> 5;", "if (w == 0) x = parts[ln];"),
    ] {
        let found = lane_reads(&block_total(lane, wid, read));
        assert!(found.is_empty(), "{lane} {wid} {read}: {found:?}");
    }
    // 64 entries hold every lane of a 64-lane wavefront.
    let src =
        block_total(LANE, WID, "if (w == 0) x = parts[ln];").replace("parts[32]", "parts[64]");
    assert!(lane_reads(&src).is_empty());
}

#[test]
fn v19d_an_array_written_at_the_lane_keeps_its_one_report() {
    // Written at the lane: the declaration's warning (rules.rs) says it; the read adds none.
    let src = block_total(
        "int ln = threadIdx.x % 32;",
        "int w = threadIdx.x / 32;",
        "if (w == 0) x = parts[ln];",
    )
    .replace("if (ln == 0) parts[w] = x;", "parts[ln] = x;")
    .replace("ln", "lane");
    let (_, d) = common::translate_at(&src, V62);
    let h001: Vec<_> = d
        .iter()
        .filter(|d| d.id == "H001" && d.message.contains("32 entries"))
        .collect();
    assert_eq!(h001.len(), 1, "{h001:?}");
    assert!(
        !h001[0].message.contains("read at the lane index"),
        "{h001:?}"
    );
}

// ---- V19-e: the `#else` of a version test that holds under hipcc is dead ----

const SETUP: &str = "from setuptools import setup\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension\nsetup(name='k', ext_modules=[CUDAExtension('k', ['k.cu'])], cmdclass={'build_ext': BuildExtension})\n";

/// A butterfly step whose CUDA 9+ form sits in the branch `first` or `second` of `#if COND`.
fn versioned(cond: &str, sync_first: bool) -> String {
    let (old, new) = (
        "  return __shfl_xor(v, lane_mask, 32);",
        "  return __shfl_xor_sync(0xffffffffu, v, lane_mask, 32);",
    );
    let (a, b) = if sync_first { (new, old) } else { (old, new) };
    format!(
        "template <typename T> __device__ T butterfly(T v, int lane_mask) {{\n#if {cond}\n{a}\n#else\n{b}\n#endif\n}}\n__global__ void step(float* p) {{ p[threadIdx.x] = butterfly(p[threadIdx.x], 2); }}\n"
    )
}

fn setup_defines_warp_sync(cu: &str) -> bool {
    let (code, err, out) = common::cli_convert(&[("setup.py", SETUP), ("k.cu", cu)], &[]);
    assert!(code.is_some(), "{err}");
    out[0].contains("HIP_ENABLE_WARP_SYNC_BUILTINS")
}

#[test]
fn v19e_the_dead_else_of_a_mirrored_version_test_adds_no_define() {
    // hipcc takes the first branch (H010 says so): the `_sync` form in the `#else` is dead.
    for cond in [
        "CUDA_VERSION < 9000",
        "CUDA_VERSION <= 8999",
        "!defined(CUDA_VERSION) || CUDA_VERSION < 9000",
        "!(CUDA_VERSION >= 9000)",
        "__CUDACC_VER_MAJOR__ < 9",
    ] {
        assert!(!setup_defines_warp_sync(&versioned(cond, false)), "{cond}");
    }
    // The first branch dead (R42-3's shape), written in other spellings.
    for cond in [
        "CUDA_VERSION >= 9000",
        "defined(CUDA_VERSION) && CUDA_VERSION > 8000",
    ] {
        assert!(!setup_defines_warp_sync(&versioned(cond, true)), "{cond}");
    }
}

#[test]
fn v19e_a_branch_hipcc_compiles_keeps_the_define() {
    // The `_sync` form where hipcc goes.
    for (cond, first) in [
        ("CUDA_VERSION < 9000", true),
        ("!defined(CUDA_VERSION) || CUDA_VERSION < 9000", true),
        ("CUDA_VERSION >= 9000", false),
        // A condition hipport cannot decide.
        ("MY_OLD_TOOLKIT && CUDA_VERSION < 9000", false),
    ] {
        assert!(
            setup_defines_warp_sync(&versioned(cond, first)),
            "{cond} {first}"
        );
    }
    // The file defines the version itself: its own value decides.
    let own = format!(
        "#define CUDA_VERSION 11000\n{}",
        versioned("CUDA_VERSION < 9000", false)
    );
    assert!(setup_defines_warp_sync(&own));
}
