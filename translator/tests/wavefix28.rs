//! wavefix28: kernels that every launch runs with blocks of exactly 32 threads. A 64-lane
//! wavefront then holds 32 threads, in lanes 0-31: the 32-lane full mask is the active lanes
//! (HIP 6.2's `__hip_check_mask` asserts `mask == __ballot(true)`), so it is kept in 64 bits as
//! `0xffffffffull` rather than widened to all 64 lanes (R44-b), and a ballot's bits 32-63 are 0,
//! so keeping it in 32 bits is exact: H004 says so in a note (R44-c).

use crate::common;
use common::{cli_convert, reports};
use hipport::diag::{Diagnostic, Severity};
use hipport_rules::Version;

const V62: Version = Version::new(6, 2, 0);

/// A kernel of one 32-thread block's work: a shuffle sum through a device helper, and a vote
/// counted in 32 bits. `LAUNCH` is the host code that runs it.
fn one_block(launch: &str) -> String {
    format!(
        "\
__device__ float half_sum(float v) {{
  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
  return v;
}}
__global__ void tally(const float* x, float* sums, unsigned* votes) {{
  float v = x[blockIdx.x * 32 + threadIdx.x];
  unsigned hits = __ballot_sync(0xffffffff, v > 0.5f);
  float s = half_sum(v);
  if (threadIdx.x == 0) {{ sums[blockIdx.x] = s; votes[blockIdx.x] = __popc(hits) + __brev(hits); }}
}}
void run(const float* x, float* sums, unsigned* votes, int n, int t) {{
{launch}
}}
"
    )
}

fn of<'d>(d: &'d [Diagnostic], id: &str) -> Vec<&'d Diagnostic> {
    d.iter().filter(|d| d.id == id).collect()
}

fn not_notes<'d>(d: &'d [Diagnostic], id: &str) -> Vec<&'d Diagnostic> {
    d.iter()
        .filter(|d| d.id == id && d.severity != Severity::Note)
        .collect()
}

// ---- R44-b: the full mask stays the active lanes ----

#[test]
fn r44b_one_warp_launches_keep_the_32_lane_mask_in_64_bits() {
    for launch in [
        "  tally<<<n, 32>>>(x, sums, votes);",
        "  tally<<<dim3(n), dim3(32)>>>(x, sums, votes);\n  tally<<<1, dim3(32, 1)>>>(x, sums, votes);",
        "  const int lanes = 32;\n  tally<<<n, lanes>>>(x, sums, votes);",
    ] {
        let src = format!("#define WARP 32\n{}", one_block(launch)).replace("n, 32>>>", "n, WARP>>>");
        let (out, d) = common::translate_at(&src, V62);
        assert!(!out.contains("0xffffffffffffffffull"), "{launch}\n{out}");
        assert!(
            out.contains("__shfl_down_sync(0xffffffffull, v, o)")
                && out.contains("__ballot_sync(0xffffffffull, v > 0.5f)"),
            "{launch}\n{out}"
        );
        let h003 = of(&d, "H003");
        assert!(
            h003.iter().all(|d| d.severity == Severity::Note),
            "{launch}: {h003:?}"
        );
        assert!(
            h003.iter()
                .any(|d| d.line == 3 && d.message.contains("blocks of 32 threads")),
            "{launch}: {h003:?}"
        );
    }
}

#[test]
fn r44b_the_cli_writes_the_same_with_and_without_fix() {
    let src = one_block("  tally<<<n, 32>>>(x, sums, votes);");
    for args in [&[][..], &["--fix"][..]] {
        let (code, err, texts) = cli_convert(&[("k.cu", &src)], args);
        assert_eq!(code, Some(0), "{err}");
        assert!(!texts[0].contains("0xffffffffffffffffull"), "{}", texts[0]);
        assert_eq!(texts[0].matches("0xffffffffull").count(), 2, "{}", texts[0]);
        assert!(
            reports(&err, "H003").iter().all(|l| l.starts_with("note")),
            "{err}"
        );
        // The 32-bit vote is exact here: `--fix` does not widen it.
        assert!(texts[0].contains("unsigned hits"), "{}", texts[0]);
    }
}

#[test]
fn r44b_other_blocks_keep_the_widening_and_the_warning() {
    for launch in [
        // One launch of 32 threads and one of 128.
        "  tally<<<n, 32>>>(x, sums, votes);\n  tally<<<n, 128>>>(x, sums, votes);",
        // A block size read at run time.
        "  tally<<<n, t>>>(x, sums, votes);\n  tally<<<n, 32>>>(x, sums, votes);",
        // Rows of 32: two rows share a 64-lane wavefront.
        "  tally<<<n, dim3(32, 4)>>>(x, sums, votes);",
        // A launch hipport does not read.
        "  tally<<<n, 32>>>(x, sums, votes);\n  void* args[] = {&x, &sums, &votes};\n  cudaLaunchKernel((void*)tally, n, 256, args, 0, 0);",
        // No launch in the file.
        "  (void)x;",
    ] {
        let (out, d) = common::translate_at(&one_block(launch), V62);
        assert!(
            out.contains("__shfl_down_sync(0xffffffffffffffffull, v, o)")
                && out.contains("__ballot_sync(0xffffffffffffffffull, v > 0.5f)"),
            "{launch}\n{out}"
        );
        assert!(!out.contains("0xffffffffull,"), "{launch}\n{out}");
        assert!(
            !of(&d, "H003")
                .iter()
                .any(|d| d.message.contains("0xffffffffull`")),
            "{launch}: {d:?}"
        );
        assert!(!not_notes(&d, "H004").is_empty(), "{launch}: {d:?}");
    }
}

#[test]
fn r44b_a_helper_a_wider_kernel_also_calls_is_widened() {
    let src = format!(
        "{}\
__global__ void wide(const float* x, float* sums) {{ sums[threadIdx.x] = half_sum(x[threadIdx.x]); }}
void run_wide(const float* x, float* sums, int n) {{ wide<<<n, 256>>>(x, sums); }}
",
        one_block("  tally<<<n, 32>>>(x, sums, votes);")
    );
    let (out, d) = common::translate_at(&src, V62);
    // The helper's mask serves 256-thread blocks too: widened. The kernel's own is the active
    // lanes of its 32-thread blocks.
    assert!(
        out.contains("__shfl_down_sync(0xffffffffffffffffull, v, o)"),
        "{out}"
    );
    assert!(
        out.contains("__ballot_sync(0xffffffffull, v > 0.5f)"),
        "{out}"
    );
    let h003: Vec<_> = of(&d, "H003")
        .into_iter()
        .filter(|d| d.message.contains("0xffffffffull`"))
        .map(|d| d.line)
        .collect();
    assert_eq!(h003, [7], "{d:?}");
}

#[test]
fn r44b_hip_5_keeps_the_maskless_forms() {
    let (out, _) = common::translate_at(
        &one_block("  tally<<<n, 32>>>(x, sums, votes);"),
        Version::new(5, 2, 3),
    );
    assert!(
        out.contains("__shfl_down(v, o)") && out.contains("__ballot(v > 0.5f)"),
        "{out}"
    );
    assert!(!out.contains("0xffffffffull"), "{out}");
}

// ---- R44-c: 32-bit ballots are exact in one-warp kernels ----

#[test]
fn r44c_32_bit_ballot_uses_are_notes_in_one_warp_kernels() {
    let (_, d) = common::translate_at(&one_block("  tally<<<n, 32>>>(x, sums, votes);"), V62);
    let h004 = of(&d, "H004");
    // The `unsigned` vote, `__popc` and `__brev` of it.
    assert!(h004.len() >= 3, "{h004:?}");
    for x in &h004 {
        assert_eq!(x.severity, Severity::Note, "{x:?}");
        assert!(x.fix.is_empty(), "{x:?}");
    }
    assert!(
        h004.iter()
            .all(|x| x.message.contains("every launch of `tally`")
                && x.message
                    .contains("breaks if a launch uses blocks of more than 32")),
        "{h004:?}"
    );
}

#[test]
fn r44c_wider_blocks_keep_the_errors() {
    for launch in [
        "  tally<<<n, 64>>>(x, sums, votes);",
        "  tally<<<n, 32>>>(x, sums, votes);\n  tally<<<n, t>>>(x, sums, votes);",
    ] {
        let (_, d) = common::translate_at(&one_block(launch), V62);
        let errors: Vec<_> = of(&d, "H004")
            .into_iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        assert!(errors.len() >= 3, "{launch}: {d:?}");
    }
}

#[test]
fn r44c_a_vote_in_another_kernel_of_the_file_keeps_its_error() {
    let src = format!(
        "{}\
__global__ void count(const float* x, unsigned* out) {{
  unsigned b = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.f);
  if (threadIdx.x == 0) *out = b;
}}
void run_count(const float* x, unsigned* out) {{ count<<<1, 128>>>(x, out); }}
",
        one_block("  tally<<<n, 32>>>(x, sums, votes);")
    );
    let (_, d) = common::translate_at(&src, V62);
    let errors: Vec<usize> = not_notes(&d, "H004").iter().map(|d| d.line).collect();
    assert_eq!(errors, [15], "{d:?}");
}
