//! Findings of verify17/realuser39-41 (wavefix26): H035 gated on the HIP that lacks half
//! shuffles, with a help that compiles for the type (R39-a/R41-b, R41-2).

mod common;
use common::{cli_convert_in, reports, require, tool_works};

// R39-a / R41-b / R41-2 ------------------------------------------------------------------------

/// A `__half` and a `__half2` butterfly, the shape of an LLM kernel's warp reductions.
const HALF_SHUFFLES: &str = r#"#include <cuda_fp16.h>
__device__ __half2 pair_sum(__half2 acc) {
  for (int d = 16; d >= 1; d /= 2) acc = __hadd2(acc, __shfl_xor_sync(0xffffffff, acc, d, 32));
  return acc;
}
__device__ __half top(__half best) {
  for (int d = 16; d >= 1; d /= 2) best = __hmax(best, __shfl_xor_sync(0xffffffff, best, d, 32));
  return best;
}
__global__ void reduce(__half2 *a, __half *b) {
  a[threadIdx.x] = pair_sum(a[threadIdx.x]);
  b[threadIdx.x] = top(b[threadIdx.x]);
}
"#;

/// The code of a help's first backquoted recipe (`(`...`)`).
fn recipe(help_line: &str) -> String {
    let start = help_line.find("(`").expect("a recipe") + 2;
    let end = help_line[start..].find("`)").expect("its end") + start;
    help_line[start..end].to_string()
}

#[test]
fn r41b_half_shuffles_are_errors_only_before_hip_5_6() {
    let (_, _, err, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], "5.2.3", &[]);
    let found = reports(&err, "H035");
    assert_eq!(found.len(), 2, "{err}");
    assert!(found.iter().all(|r| r.starts_with("error[H035]")), "{err}");
    for hip in ["5.6", "6.2", "7.0"] {
        let (_, _, err, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], hip, &[]);
        assert!(reports(&err, "H035").is_empty(), "{hip}: {err}");
    }
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    // hipcc 5.2.3 agrees with the 5.2.3 verdict.
    let (dir, _, _, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], "5.2.3", &[]);
    let e = common::hipcc_compile(&dir.path().join("out"), "k.cu").expect_err("no half shuffles");
    assert!(e.contains("__shfl_xor"), "{e}");
}

#[test]
fn r41_2_each_help_recipe_compiles_with_hipcc_5_2_3_for_its_type() {
    let (_, _, err, _) = cli_convert_in(&[("k.cu", HALF_SHUFFLES)], "5.2.3", &[]);
    let helps: Vec<&str> = err
        .lines()
        .filter(|l| l.trim_start().starts_with("= help: shuffle the"))
        .collect();
    assert_eq!(helps.len(), 2, "{err}");
    let pair = recipe(
        helps
            .iter()
            .find(|h| h.contains("pair"))
            .expect("half2 help"),
    );
    let single = recipe(
        helps
            .iter()
            .find(|h| h.contains("16 bits"))
            .expect("half help"),
    );
    assert!(!pair.contains("ushort"), "{pair}");
    assert!(
        err.contains("no matching function") && err.contains("call is ambiguous"),
        "{err}"
    );
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    let src = format!(
        "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n\
         __global__ void k(__half2 *a, __half *b, int m) {{\n\
         __half2 v = a[threadIdx.x];\n a[threadIdx.x] = {};\n\
         }}\n\
         __global__ void j(__half *b, int m) {{\n\
         __half v = b[threadIdx.x];\n b[threadIdx.x] = {};\n\
         }}\n",
        pair, single
    );
    let tmp = tempfile::tempdir().unwrap();
    common::write_files(tmp.path(), &[("r.hip", &src)]);
    common::hipcc_compile(tmp.path(), "r.hip").unwrap_or_else(|e| panic!("{src}\n{e}"));
}
