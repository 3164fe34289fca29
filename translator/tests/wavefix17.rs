//! Findings of realuser31 and verify14 (wavefix17): the 32-lane full mask of `_sync` calls in
//! macro bodies at HIP 6.2, where HIP's builtins require a 64-bit mask. An object-like mask
//! macro (`#define FULLMASK 0xffffffff`) used inside shuffle macros (R31-c); a mask after a
//! comment and the other spellings code widens (PE-2).

use crate::common;
use common::{cli_convert as convert, cli_convert_in, have_tool, reports, write_files};
use std::process::Command;

/// The H003 findings of `stderr` at error severity.
fn h003_errors(stderr: &str) -> Vec<&str> {
    reports(stderr, "H003")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect()
}

/// HIP 6.2's `_sync` shuffles as amd_warp_sync_functions.h declares them, as far as the mask
/// goes: templates on the mask's type that reject a 32-bit one. HIP 5.2.3, installed here, has
/// no `_sync` builtins, so this stands in for them over its `__shfl_*`.
const SYNC_62: &str = r#"#pragma once
#include <hip/hip_runtime.h>
template <typename MaskT, typename T>
__device__ inline T __shfl_xor_sync(MaskT mask, T var, int lane_mask, int width = warpSize) {
  static_assert(sizeof(MaskT) == 8, "The mask must be a 64-bit integer. Implicitly promoting a smaller integer is almost always an error.");
  (void)mask;
  return __shfl_xor(var, lane_mask, width);
}
template <typename MaskT, typename T>
__device__ inline T __shfl_down_sync(MaskT mask, T var, unsigned int delta, int width = warpSize) {
  static_assert(sizeof(MaskT) == 8, "The mask must be a 64-bit integer. Implicitly promoting a smaller integer is almost always an error.");
  (void)mask;
  return __shfl_down(var, delta, width);
}
"#;

/// Compiles `file` under `dir` for gfx90a with [`SYNC_62`] included first: hipcc's errors on
/// failure.
fn hipcc_62(dir: &std::path::Path, file: &str) -> Result<(), String> {
    write_files(dir, &[("stub/sync62.h", SYNC_62)]);
    let out = Command::new("hipcc")
        .args(["--offload-arch=gfx90a", "-std=c++17", "-c", "-include"])
        .arg(dir.join("stub/sync62.h"))
        .arg(dir.join(file))
        .arg("-o")
        .arg(dir.join(format!("{file}.o")))
        .output()
        .expect("hipcc runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

// R31-c ----------------------------------------------------------------------------------------

/// A mask macro that only shuffle macros use: a butterfly and a segmented down-shuffle, with
/// each 32-lane group's sum read at its own lane 0.
const MASK_MACRO: &str = r#"#define ALL_LANES 0xffffffff
#define BFLY_SUM(x) \
  for (int s = 16; s >= 1; s /= 2) x += __shfl_xor_sync(ALL_LANES, x, s, 32);
#define DOWN_SUM(x) \
  for (int s = 16; s >= 1; s /= 2) x += __shfl_down_sync((ALL_LANES), x, s, 32);

__global__ void group_sums(const int* a, int* b, int* c) {
  int x = a[threadIdx.x];
  int y = x;
  BFLY_SUM(x);
  DOWN_SUM(y);
  if (threadIdx.x % 32 == 0) {
    b[threadIdx.x / 32] = x;
    c[threadIdx.x / 32] = y;
  }
}
"#;

#[test]
fn r31c_a_mask_macro_only_shuffle_macros_use_is_widened_in_its_definition() {
    let (_, err, out) = convert(&[("k.cu", MASK_MACRO)], &[]);
    assert!(h003_errors(&err).is_empty(), "{err}");
    let out = &out[0];
    assert!(
        out.contains("#define ALL_LANES 0xffffffffffffffffull"),
        "{out}"
    );
    // The uses stay as written: the definition carries the width.
    assert!(
        out.contains("__shfl_xor_sync(ALL_LANES, x, s, 32)"),
        "{out}"
    );
    assert!(
        out.contains("__shfl_down_sync((ALL_LANES), x, s, 32)"),
        "{out}"
    );
}

#[test]
fn r31c_a_mask_macro_also_used_as_a_32_bit_value_keeps_it_and_the_bodies_get_the_wide_mask() {
    // `ALL_LANES` is also a 32-bit value: a ballot compared with it, a `uint32_t` set to it.
    // Widened, the comparison would never hold.
    let src = MASK_MACRO.replace(
        "  if (threadIdx.x % 32 == 0) {",
        "  unsigned int all = __ballot_sync(ALL_LANES, x > 0);\n  unsigned int mine = ALL_LANES;\n  if (all == ALL_LANES) x += 1;\n  if (threadIdx.x % 32 == 0 && mine) {",
    );
    let (_, err, out) = convert(&[("k.cu", &src)], &[]);
    let out = &out[0];
    assert!(out.contains("#define ALL_LANES 0xffffffff\n"), "{out}");
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, x, s, 32)")
            && out.contains("__shfl_down_sync(0xffffffffffffffffull, x, s, 32)"),
        "{out}"
    );
    assert!(
        out.contains("all == ALL_LANES") && out.contains("mine = ALL_LANES"),
        "{out}"
    );
    assert!(
        h003_errors(&err)
            .iter()
            .all(|e| !e.contains("in the body of macro")),
        "{err}"
    );
}

#[test]
fn r31c_a_headers_mask_macro_keeps_its_definition_and_each_use_is_widened() {
    // The header defines the mask and a shuffle macro; a kernel file includes it, uses the
    // mask in code and compares a ballot with it.
    let header = "#pragma once\n#define ALL_LANES 0xffffffff\n#define BFLY_SUM(x) \\\n  for (int s = 16; s >= 1; s /= 2) x += __shfl_xor_sync(ALL_LANES, x, s, 32);\n";
    let cu = r#"#include "lanes.cuh"
__global__ void k(const int* a, int* b) {
  int x = a[threadIdx.x];
  BFLY_SUM(x);
  x += __shfl_xor_sync(ALL_LANES, x, 1, 32);
  unsigned int all = __ballot_sync(ALL_LANES, x > 0);
  if (threadIdx.x % 32 == 0) b[threadIdx.x / 32] = x + (all == ALL_LANES);
}
"#;
    let (_, err, out) = convert(&[("lanes.cuh", header), ("k.cu", cu)], &[]);
    assert!(h003_errors(&err).is_empty(), "{err}");
    assert!(
        out[0].contains("#define ALL_LANES 0xffffffff\n"),
        "{}",
        out[0]
    );
    assert!(
        out[0].contains("__shfl_xor_sync(0xffffffffffffffffull, x, s, 32)"),
        "{}",
        out[0]
    );
    assert!(
        out[1].contains("__shfl_xor_sync(0xffffffffffffffffull, x, 1, 32)")
            && out[1].contains("__ballot_sync(0xffffffffffffffffull, x > 0)")
            && out[1].contains("all == ALL_LANES"),
        "{}",
        out[1]
    );
}

#[test]
fn r31c_a_mask_macro_in_a_body_run_by_32_lanes_keeps_the_error() {
    // The shuffle macro runs only under `threadIdx.x < 32`: lanes 0-31 of a 64-lane wavefront.
    let src = MASK_MACRO.replace(
        "  BFLY_SUM(x);\n",
        "  if (threadIdx.x < 32) { BFLY_SUM(x); }\n",
    );
    let (_, err, out) = convert(&[("k.cu", &src)], &[]);
    assert!(
        out[0].contains("__shfl_xor_sync(ALL_LANES, x, s, 32)"),
        "{}",
        out[0]
    );
    assert!(
        h003_errors(&err)
            .iter()
            .any(|e| e.contains("ALL_LANES") && e.contains("BFLY_SUM")),
        "{err}"
    );
}

#[test]
fn r31c_a_macro_parameter_named_like_a_mask_macro_is_left_alone() {
    // `m` is the macro's parameter: what it stands for is decided at each use.
    let src = "#define m 0xffffffff\n#define RED(m, x) x += __shfl_xor_sync(m, x, 16, 32)\n__global__ void k(int* a) { int x = a[threadIdx.x]; RED(~0ull, x); if (threadIdx.x % 32 == 0) a[threadIdx.x / 32] = x; }\n";
    let (_, _, out) = convert(&[("k.cu", src)], &[]);
    assert!(
        out[0].contains("__shfl_xor_sync(m, x, 16, 32)"),
        "{}",
        out[0]
    );
}

#[test]
fn r31c_the_62_output_compiles_against_hips_64_bit_mask_check() {
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, _, err, _) = cli_convert_in(&[("k.cu", MASK_MACRO)], "6.2", &[]);
    let dir = tmp.path();
    // The stand-in rejects the input's 32-bit mask, as HIP 6.2 does.
    let rejected = hipcc_62(&dir.join("in"), "k.cu");
    assert!(
        rejected
            .as_ref()
            .is_err_and(|e| e.contains("64-bit integer")),
        "{rejected:?}"
    );
    hipcc_62(&dir.join("out"), "k.cu").unwrap_or_else(|e| panic!("{e}\n{err}"));
}

// PE-2 -----------------------------------------------------------------------------------------

/// One shuffle macro per spelling of the 32-lane full mask.
const SPELLINGS: &[&str] = &[
    "/*full*/ 0xffffffff",
    "0xffffffff /* all */",
    "(0xffffffff)",
    "~0u",
    "~0",
    "0xFFFFFFFFu",
    "-1",
    "(unsigned)-1",
    "uint32_t(-1)",
    "0xffffffffUL",
    "UINT32_MAX",
];

fn spelled(masks: &[&str]) -> String {
    let mut src = String::from("#include <stdint.h>\n");
    for (i, m) in masks.iter().enumerate() {
        src += &format!("#define SUM{i}(x) x += __shfl_xor_sync({m}, x, 16, 32)\n");
    }
    src += "__global__ void k(int* a) {\n  int x = a[threadIdx.x];\n";
    for i in 0..masks.len() {
        src += &format!("  SUM{i}(x);\n");
    }
    src += "  if (threadIdx.x % 32 == 0) a[threadIdx.x / 32] = x;\n}\n";
    src
}

#[test]
fn pe2_every_spelling_code_widens_is_widened_in_a_macro_body() {
    let src = spelled(SPELLINGS);
    let (_, err, out) = convert(&[("k.cu", &src)], &[]);
    assert!(h003_errors(&err).is_empty(), "{err}");
    let out = &out[0];
    for i in 0..SPELLINGS.len() {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("#define SUM{i}(")))
            .unwrap();
        assert!(
            line.contains("__shfl_xor_sync(0xffffffffffffffffull, x, 16, 32)")
                || line.contains("__shfl_xor_sync(/*full*/ 0xffffffffffffffffull, x, 16, 32)")
                || line.contains("__shfl_xor_sync(0xffffffffffffffffull /* all */, x, 16, 32)"),
            "{line}"
        );
    }
}

#[test]
fn pe2_the_same_spellings_in_code_are_widened_too() {
    // What the macro bodies are matched against: each spelling written in a kernel.
    let mut src = String::from(
        "#include <stdint.h>\n__global__ void k(int* a) {\n  int x = a[threadIdx.x];\n",
    );
    for m in SPELLINGS {
        src += &format!("  x += __shfl_xor_sync({m}, x, 16, 32);\n");
    }
    src += "  if (threadIdx.x % 32 == 0) a[threadIdx.x / 32] = x;\n}\n";
    let (_, err, out) = convert(&[("k.cu", &src)], &[]);
    assert!(h003_errors(&err).is_empty(), "{err}");
    assert_eq!(
        out[0].matches("0xffffffffffffffffull").count(),
        SPELLINGS.len(),
        "{}",
        out[0]
    );
}

#[test]
fn pe2_a_partial_or_unknown_mask_in_a_body_is_not_widened() {
    // Half the lanes, and a mask already 64 bits wide: neither is the 32-lane full mask.
    let src = spelled(&["/*low*/ 0x0000ffff", "~0ull", "0xffffffffffffffffull"]);
    let (_, err, out) = convert(&[("k.cu", &src)], &[]);
    let out = &out[0];
    assert!(
        out.contains("__shfl_xor_sync(/*low*/ 0x0000ffff, x, 16, 32)"),
        "{out}"
    );
    assert!(out.contains("__shfl_xor_sync(~0ull, x, 16, 32)"), "{out}");
    assert_eq!(out.matches("0xffffffffffffffffull").count(), 1, "{out}");
    let _ = err;
}

#[test]
fn pe2_the_62_output_of_every_spelling_compiles_against_hips_64_bit_mask_check() {
    if !have_tool("hipcc") {
        return;
    }
    let src = spelled(SPELLINGS);
    let (tmp, _, err, _) = cli_convert_in(&[("k.cu", &src)], "6.2", &[]);
    hipcc_62(&tmp.path().join("out"), "k.cu").unwrap_or_else(|e| panic!("{e}\n{err}"));
}

#[test]
fn r31c_a_headers_mask_macro_named_in_a_kernel_files_shuffle_macro_is_widened_there() {
    // The header only defines the mask; the kernel file's own macro uses it. The analysis of
    // the kernel file does not see the header's macro, so this was silent and left 32 bits.
    let header = "#pragma once\n#define ALL_LANES 0xffffffff\n";
    let cu = "#include \"lanes.cuh\"\n#define BFLY(x) for (int s = 16; s; s >>= 1) x += __shfl_xor_sync(ALL_LANES, x, s, 32)\n__global__ void k(int* a) { int x = a[threadIdx.x]; BFLY(x); if (threadIdx.x % 32 == 0) a[threadIdx.x / 32] = x; }\n";
    let (_, err, out) = convert(&[("lanes.cuh", header), ("k.cu", cu)], &[]);
    assert!(h003_errors(&err).is_empty(), "{err}");
    assert!(
        out[0].contains("#define ALL_LANES 0xffffffff\n"),
        "{}",
        out[0]
    );
    assert!(
        out[1].contains("__shfl_xor_sync(0xffffffffffffffffull, x, s, 32)"),
        "{}",
        out[1]
    );
}
