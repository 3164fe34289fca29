//! wavefix29: R44-b/R44-c finished (a kernel every launch runs with 32-thread blocks keeps its
//! full mask as `0xffffffffull` in one edit, and a second conversion leaves it), V19-d (a
//! 32-entry shared array read at the lane index), V19-e (the mirrored dead `CUDA_VERSION`
//! branches).

mod common;
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
