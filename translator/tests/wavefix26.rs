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

// V17-a ----------------------------------------------------------------------------------------

/// A qualifier macro under `#elif defined(__CUDA_ARCH__)`, used by a kernel and by host code.
const ELIF: &str = r#"#if defined(USE_PLAIN_INLINE)
#define BOTHQ inline
#elif defined(__CUDA_ARCH__)
#define BOTHQ __host__ __device__
#else
#define BOTHQ
#endif
BOTHQ int clampi(int v, int hi) { return v > hi ? hi : v; }
__global__ void cut(int *p, int hi) { p[threadIdx.x] = clampi(p[threadIdx.x], hi); }
int on_host(int v) { return clampi(v, 3); }
"#;

/// The same under an architecture test, `#if __CUDA_ARCH__ >= 600`.
const ARCH_VERSION: &str = r#"#if __CUDA_ARCH__ >= 600
#define BOTHQ __device__ __host__ __forceinline__
#else
#define BOTHQ inline
#endif
BOTHQ int twice(int v) { return v + v; }
__global__ void dbl(int *p) { p[threadIdx.x] = twice(p[threadIdx.x]); }
int on_host(int v) { return twice(v); }
"#;

#[test]
fn v17a_elif_and_arch_version_qualifier_macros_are_errors_and_fixed() {
    for (src, widened) in [
        (
            ELIF,
            "\n#elif defined(__CUDA_ARCH__) || defined(__HIPCC__)\n",
        ),
        (
            ARCH_VERSION,
            "\n#if __CUDA_ARCH__ >= 600 || defined(__HIPCC__)\n",
        ),
    ] {
        let (_, code, err, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
        let r = reports(&err, "H011");
        assert_eq!(r.len(), 1, "{err}");
        assert!(
            r[0].starts_with("error[H011]")
                && r[0].contains("`BOTHQ` has `__device__` only in this branch"),
            "{err}"
        );
        assert_eq!(code, Some(1), "{err}");
        assert!(
            err.contains(widened.trim()),
            "the help names the fix: {err}"
        );
        let (_, _, err, texts) = cli_convert_in(&[("k.cu", src)], "5.2.3", &["--fix"]);
        assert!(texts[0].contains(widened), "{}", texts[0]);
        assert!(err.contains("(fixed by --fix)"), "{err}");
    }
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    for src in [ELIF, ARCH_VERSION] {
        let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
        let e = common::hipcc_compile(&dir.path().join("out"), "k.cu")
            .expect_err("without the fix the kernel calls a host function");
        assert!(e.contains("no matching function"), "{e}");
        for hip in ["5.2.3", "6.2"] {
            let (dir, _, _, _) = cli_convert_in(&[("k.cu", src)], hip, &["--fix"]);
            common::hipcc_compile(&dir.path().join("out"), "k.cu").unwrap();
        }
    }
}

#[test]
fn v17a_neighbours_stay_quiet() {
    // `__CUDA_ARCH__ < 600` gives hipcc the `__device__` branch: nothing is lost.
    let below = "#if __CUDA_ARCH__ < 600\n#define BOTHQ __host__ __device__\n#else\n#define BOTHQ inline\n#endif\nBOTHQ int twice(int v) { return v + v; }\n__global__ void dbl(int *p) { p[0] = twice(p[0]); }\n";
    let (_, _, err, _) = cli_convert_in(&[("k.cu", below)], "5.2.3", &[]);
    assert!(!err.contains("has `__device__` only in"), "{err}");
    // Both branches give `__device__`: the macro is not lost either.
    let both = "#if __CUDA_ARCH__ >= 600\n#define BOTHQ __host__ __device__ __forceinline__\n#else\n#define BOTHQ __host__ __device__\n#endif\nBOTHQ int twice(int v) { return v + v; }\n__global__ void dbl(int *p) { p[0] = twice(p[0]); }\n";
    let (_, _, err, _) = cli_convert_in(&[("k.cu", both)], "5.2.3", &[]);
    assert!(!err.contains("has `__device__` only in"), "{err}");
}
