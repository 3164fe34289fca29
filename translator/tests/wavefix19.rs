//! Findings of realuser33/34 and verify15 (wavefix19): hipRTC's `const char **` string arrays
//! (R34-a), a mask parameter's default widened with its type (R33-a), a mask variable read by
//! the declaration in scope (R34-d), cooperative-groups shuffles of vectors and structs (R34-b)
//! and the device runtime called through a macro (V15-b).

use crate::common;
use common::{cli_convert_in, have_tool, hipcc_compile, reports};

// R34-a ----------------------------------------------------------------------------------------

/// NVRTC string arrays of every kind the declarations around the calls tell: the ones that do
/// not convert to hipRTC's `const char **` (`char *[]`, `char **`, `const char * const *`, a
/// vector of `char *`), the ones that do (`const char *[]`, `const char **`, a vector of
/// `const char *`, null pointers) and one whose type is a struct member's.
const RTC: &str = r##"#include <nvrtc.h>
#include <string.h>
#include <vector>
struct Cfg { const char **opts; int n; };
static int build(nvrtcProgram p, char **given, const char *const *fixed, const char **plain, Cfg &cfg) {
  char *dyn[2];
  dyn[0] = strdup("-O3");
  dyn[1] = strdup("--std=c++14");
  nvrtcCompileProgram(p, 2, dyn);
  nvrtcCompileProgram(p, 1, given);
  nvrtcCompileProgram(p, 1, fixed);
  nvrtcCompileProgram(p, 1, plain);
  const char *ok[] = {"-O2"};
  nvrtcCompileProgram(p, 1, ok);
  const char *const frozen[] = {"-O1"};
  nvrtcCompileProgram(p, 1, frozen);
  nvrtcCompileProgram(p, 1, &dyn[0]);
  std::vector<char *> v(dyn, dyn + 2);
  nvrtcCompileProgram(p, 2, v.data());
  std::vector<const char *> w = {"-O2"};
  nvrtcCompileProgram(p, 1, w.data());
  nvrtcCompileProgram(p, 0, nullptr);
  nvrtcCompileProgram(p, 0, NULL);
  return nvrtcCompileProgram(p, cfg.n, cfg.opts) == NVRTC_SUCCESS;
}
int make(const char *src) {
  nvrtcProgram p;
  char *hdrs[1] = {strdup("#define N 4\n")};
  char *names[1] = {strdup("n.h")};
  nvrtcCreateProgram(&p, src, "k.cu", 1, hdrs, names);
  nvrtcProgram q;
  nvrtcCreateProgram(&q, src, "k.cu", 0, NULL, 0);
  Cfg cfg = {nullptr, 0};
  return build(p, hdrs, hdrs, nullptr, cfg);
}
"##;

#[test]
fn r34a_string_arrays_that_do_not_convert_get_a_cast_and_the_rest_stay() {
    let (_, code, err, out) = cli_convert_in(&[("rtc.cpp", RTC)], "5.2.3", &[]);
    let out = &out[0];
    for cast in [
        "hiprtcCompileProgram(p, 2, (const char **)dyn);",
        "hiprtcCompileProgram(p, 1, (const char **)given);",
        "hiprtcCompileProgram(p, 1, (const char **)fixed);",
        "hiprtcCompileProgram(p, 1, (const char **)frozen);",
        "hiprtcCompileProgram(p, 1, (const char **)&dyn[0]);",
        "hiprtcCompileProgram(p, 2, (const char **)v.data());",
        "hiprtcCreateProgram(&p, src, \"k.cu\", 1, (const char **)hdrs, (const char **)names);",
    ] {
        assert!(out.contains(cast), "no `{cast}`:\n{out}\n{err}");
    }
    for kept in [
        "hiprtcCompileProgram(p, 1, plain);",
        "hiprtcCompileProgram(p, 1, ok);",
        "hiprtcCompileProgram(p, 1, w.data());",
        "hiprtcCompileProgram(p, 0, nullptr);",
        "hiprtcCompileProgram(p, 0, NULL);",
        "hiprtcCreateProgram(&q, src, \"k.cu\", 0, NULL, 0);",
    ] {
        assert!(out.contains(kept), "no `{kept}`:\n{out}");
    }
    // A struct member's type is not followed: reported, with the cast as help.
    let t031 = reports(&err, "T031");
    assert_eq!(t031.len(), 1, "{err}");
    assert!(t031[0].contains("`cfg.opts`"), "{err}");
    assert!(err.contains("`(const char **)cfg.opts`"), "{err}");
    assert_eq!(code, Some(0), "{err}");
}

#[test]
fn r34a_the_casts_make_the_port_compile_with_hipcc() {
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, _, err, _) = cli_convert_in(&[("rtc.cpp", RTC)], "5.2.3", &[]);
    let out = tmp.path().join("out");
    hipcc_compile(&out, "rtc.cpp").unwrap_or_else(|e| panic!("{e}\n{err}"));
    // Without them hipcc rejects the call, as hipport used to write it.
    let text = std::fs::read_to_string(out.join("rtc.cpp")).unwrap();
    std::fs::write(
        out.join("bare.cpp"),
        text.replace("(p, 2, (const char **)dyn)", "(p, 2, dyn)"),
    )
    .unwrap();
    let bare = hipcc_compile(&out, "bare.cpp");
    assert!(
        bare.as_ref()
            .is_err_and(|e| e.contains("hiprtcCompileProgram")),
        "{bare:?}"
    );
}

// R33-a ----------------------------------------------------------------------------------------

/// A helper whose mask parameter defaults to the 32-lane full mask.
const PARAM_DEFAULT: &str = r#"template <typename T>
__device__ T xor_all(T v, int lane_mask, unsigned int mask = 0xFFFFFFFF) {
  return __shfl_xor_sync(mask, v, lane_mask);
}
__global__ void k(float *p) {
  float v = p[threadIdx.x];
  for (int s = 1; s < 32; s <<= 1) v += xor_all(v, s);
  p[threadIdx.x] = v;
}
"#;

#[test]
fn r33a_a_full_mask_default_is_widened_with_its_parameter() {
    let (_, _, err, out) = cli_convert_in(&[("k.cu", PARAM_DEFAULT)], "6.2", &["--fix"]);
    assert!(
        out[0].contains("int lane_mask, unsigned long long mask = ~0ull)"),
        "{}\n{err}",
        out[0]
    );
    let h003: Vec<_> = reports(&err, "H003")
        .into_iter()
        .filter(|l| l.contains("lane mask `mask`"))
        .collect();
    assert!(
        h003.len() == 1 && h003[0].starts_with("note") && h003[0].contains("fixed by --fix"),
        "{err}"
    );
}

#[test]
fn r33a_a_partial_default_gets_no_fix_and_keeps_the_error() {
    let src = PARAM_DEFAULT.replace("0xFFFFFFFF", "0x0000FFFF");
    let (code, err, out) = {
        let (_, code, err, out) = cli_convert_in(&[("k.cu", &src)], "6.2", &["--fix"]);
        (code, err, out)
    };
    assert!(
        out[0].contains("unsigned int mask = 0x0000FFFF)"),
        "{}",
        out[0]
    );
    assert!(
        reports(&err, "H003")
            .iter()
            .any(|l| l.starts_with("error") && l.contains("lane mask `mask`")),
        "{err}"
    );
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn r33a_a_parameter_declared_twice_is_not_widened_in_one_place() {
    // The default on a prototype, the definition without it: widening the definition alone
    // would make it another overload, and the calls would reach the prototype's.
    let src = r#"__device__ float add_all(float v, unsigned mask = 0xffffffff);
__device__ float add_all(float v, unsigned mask) {
  for (int s = 16; s > 0; s >>= 1) v += __shfl_down_sync(mask, v, s);
  return v;
}
__global__ void k(float *p) { p[threadIdx.x] = add_all(p[threadIdx.x]); }
"#;
    let (_, code, err, out) = cli_convert_in(&[("k.cu", src)], "6.2", &["--fix"]);
    assert!(!out[0].contains("unsigned long long"), "{}", out[0]);
    assert!(
        reports(&err, "H003")
            .iter()
            .any(|l| l.starts_with("error") && l.contains("lane mask `mask`")),
        "{err}"
    );
    assert_eq!(code, Some(1), "{err}");
}

// R34-d ----------------------------------------------------------------------------------------

/// Two blocks that each declare `lanes`: all of them in the first, a few in the second.
const SIBLINGS: &str = r#"__global__ void k(int *d, int *e, int n) {
  int v = d[threadIdx.x];
  if (n > 0) {
    const unsigned lanes = 0xffffffffu;
    v += __shfl_up_sync(lanes, v, 1);
  } else {
    unsigned lanes = (1u << n) - 1;
    e[threadIdx.x] = __shfl_up_sync(lanes, v, 1);
  }
  for (int i = 0; i < 2; ++i) {
    unsigned lanes = 0xffffffff;
    v += __shfl_xor_sync(lanes, v, 1);
  }
  d[threadIdx.x] = v;
}
"#;

#[test]
fn r34d_a_mask_is_the_one_its_own_scope_declares() {
    let (_, _, err, out) = cli_convert_in(&[("k.cu", SIBLINGS)], "5.2.3", &[]);
    let out = &out[0];
    assert!(out.contains("v += __shfl_up(v, 1);"), "{out}\n{err}");
    assert!(out.contains("v += __shfl_xor(v, 1);"), "{out}\n{err}");
    // The computed mask of the other block is still reported, and only it.
    assert!(
        out.contains("e[threadIdx.x] = __shfl_up_sync(lanes, v, 1);"),
        "{out}"
    );
    let t009 = reports(&err, "T009");
    assert_eq!(t009.len(), 1, "{err}");
    assert!(err.contains("k.cu:8:"), "{err}");
}

#[test]
fn r34d_an_inner_full_mask_does_not_cover_the_outer_variable() {
    let src = r#"__global__ void k(int *d) {
  int v = d[threadIdx.x];
  unsigned mask = 0xf;
  {
    unsigned mask = 0xffffffff;
    v += __shfl_down_sync(mask, v, 1);
  }
  d[threadIdx.x] = __shfl_down_sync(mask, v, 1, 4);
}
__device__ int g(int v, unsigned mask) { return __shfl_sync(mask, v, 0); }
"#;
    let (_, _, err, out) = cli_convert_in(&[("k.cu", src)], "5.2.3", &[]);
    let out = &out[0];
    assert!(out.contains("v += __shfl_down(v, 1);"), "{out}");
    assert!(out.contains("__shfl_down_sync(mask, v, 1, 4)"), "{out}");
    // A parameter is not a variable of another function's.
    assert!(out.contains("__shfl_sync(mask, v, 0)"), "{out}");
    assert_eq!(reports(&err, "T009").len(), 2, "{err}");
    assert!(err.contains("k.cu:8:") && err.contains("k.cu:10:"), "{err}");
}

// R34-b ----------------------------------------------------------------------------------------

/// Cooperative-groups shuffles of a CUDA vector, an array element of one, a member of the
/// file's struct that is a vector, the file's struct, and values HIP takes (a float, a member
/// that is an int, a template parameter).
const TILE_SHUFFLES: &str = r#"#include <cooperative_groups.h>
namespace cg = cooperative_groups;
struct Pair { float a; int b; };
struct Acc { uint2 lo; int count; };
template <typename T> __device__ T pass(cg::thread_block_tile<32> t, T v) { return t.shfl_down(v, 1); }
__global__ void k(float2 *f, uint4 *u, Pair *p, Acc *acc) {
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
  float2 a = f[threadIdx.x];
  a = tile.shfl_xor(a, 1);
  uint4 q[2];
  q[0] = u[threadIdx.x];
  q[1] = tile.shfl_up(q[0], 1);
  Acc s = acc[threadIdx.x];
  s.lo = tile.shfl(s.lo, 0);
  s.count = tile.shfl(s.count, 0);
  Pair pr = p[threadIdx.x];
  pr = tile.shfl_down(pr, 2);
  float x = a.x;
  x = tile.shfl_xor(x, 4);
  f[threadIdx.x] = make_float2(x + pass(tile, x), a.y);
  u[threadIdx.x] = q[1];
  p[threadIdx.x] = pr;
  acc[threadIdx.x] = s;
}
"#;

#[test]
fn r34b_tile_shuffles_of_vectors_and_structs_are_errors_with_per_member_help() {
    let (_, code, err, _) = cli_convert_in(&[("k.cu", TILE_SHUFFLES)], "5.2.3", &[]);
    let h060 = reports(&err, "H060");
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("k.cu:")).collect();
    assert_eq!(h060.len(), 4, "{err}");
    assert!(h060.iter().all(|l| l.starts_with("error")), "{err}");
    for (what, line) in [
        ("`a`, a `float2`", 9),
        ("`q[0]`, a `uint4`", 12),
        ("`s.lo`, a `uint2`", 14),
        ("`pr`, a `Pair`", 17),
    ] {
        assert!(
            h060.iter().any(|l| l.contains(what)),
            "no H060 for {what}: {err}"
        );
        assert!(
            lines.iter().any(|l| l.contains(&format!("k.cu:{line}:"))),
            "line {line}: {err}"
        );
    }
    assert!(
        err.contains("`a.x = tile.shfl_xor(a.x, 1);` and the same for `.y`"),
        "{err}"
    );
    assert_eq!(code, Some(1), "{err}");
}

#[test]
fn r34b_hipcc_rejects_what_is_reported_and_takes_the_rest() {
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, _, err, _) = cli_convert_in(&[("k.cu", TILE_SHUFFLES)], "5.2.3", &[]);
    let out = tmp.path().join("out");
    let bad = hipcc_compile(&out, "k.cu");
    assert!(
        bad.as_ref()
            .is_err_and(|e| e.contains("Neither an integer or float type")),
        "{bad:?}"
    );
    // Each reported shuffle done member by member: the file compiles.
    let text = std::fs::read_to_string(out.join("k.cu")).unwrap();
    let fixed = text
        .replace(
            "a = tile.shfl_xor(a, 1);",
            "a.x = tile.shfl_xor(a.x, 1); a.y = tile.shfl_xor(a.y, 1);",
        )
        .replace(
            "q[1] = tile.shfl_up(q[0], 1);",
            "q[1].x = tile.shfl_up(q[0].x, 1); q[1].y = tile.shfl_up(q[0].y, 1); q[1].z = tile.shfl_up(q[0].z, 1); q[1].w = tile.shfl_up(q[0].w, 1);",
        )
        .replace(
            "s.lo = tile.shfl(s.lo, 0);",
            "s.lo.x = tile.shfl(s.lo.x, 0); s.lo.y = tile.shfl(s.lo.y, 0);",
        )
        .replace(
            "pr = tile.shfl_down(pr, 2);",
            "pr.a = tile.shfl_down(pr.a, 2); pr.b = tile.shfl_down(pr.b, 2);",
        );
    std::fs::write(out.join("k.cu"), &fixed).unwrap();
    hipcc_compile(&out, "k.cu").unwrap_or_else(|e| panic!("{e}\n{fixed}\n{err}"));
}

// V15-b ----------------------------------------------------------------------------------------

#[test]
fn v15b_the_device_runtime_in_a_macro_body_is_reported_where_device_code_uses_it() {
    let src = r#"#define LAST_OK() (cudaGetLastError() == cudaSuccess)
#define GUARD(x) do { if (!LAST_OK()) { x = -1; } } while (0)
#define HOST_SYNC() cudaDeviceSynchronize()
__global__ void k(int *d) {
  d[threadIdx.x] = 1;
  GUARD(d[0]);
}
__device__ bool fine(int *d) { return LAST_OK(); }
void host(int *d) {
  GUARD(d[0]);
  HOST_SYNC();
}
__host__ __device__ void both(int *d) { GUARD(d[0]); }
"#;
    let (_, _, err, _) = cli_convert_in(&[("k.cu", src)], "6.2", &[]);
    let h012 = reports(&err, "H012");
    assert_eq!(h012.len(), 2, "{err}");
    assert!(
        h012[0].contains("`cudaGetLastError`")
            && h012[0].contains("macro `GUARD` (through `LAST_OK`)"),
        "{err}"
    );
    assert!(err.contains("k.cu:6:"), "{err}");
    assert!(err.contains("k.cu:8:"), "{err}");
}

// R33-2 ----------------------------------------------------------------------------------------

/// A qualifier macro the header defines, beside a function-like macro in the return type that
/// the parser cannot read; the same qualifier alone parses.
const QUALIFIED: &str = r#"#pragma once
#include <type_traits>
#define HD_INLINE __host__ __device__ inline
#define ONLY_FLOAT(T) std::enable_if_t<std::is_floating_point<T>::value, T>
template <typename T>
HD_INLINE ONLY_FLOAT(T) half_of(T x) {
  return x / T(2);
}
template <typename T>
HD_INLINE T twice(T x) {
  return x * T(2);
}
"#;

#[test]
fn r33_2_a_parse_note_does_not_call_a_defined_macro_undefined() {
    let (_, _, err, _) = cli_convert_in(&[("h.cuh", QUALIFIED)], "6.2", &[]);
    let t008 = reports(&err, "T008");
    assert_eq!(t008.len(), 1, "{err}");
    assert!(!err.contains("which the file does not define"), "{err}");
    assert!(t008[0].contains("`ONLY_FLOAT(...)`"), "{err}");
    // A macro the file does not define keeps its note.
    let undefined = QUALIFIED.replace("#define HD_INLINE __host__ __device__ inline\n", "");
    let (_, _, err, _) = cli_convert_in(&[("h.cuh", &undefined)], "6.2", &[]);
    assert!(
        err.contains("the macro `HD_INLINE`, which the file does not define"),
        "{err}"
    );
}

// V15-a (fixed by wavefix17's PE-2; kept as a regression test) ---------------------------------

#[test]
fn v15a_a_comment_beside_the_mask_in_a_macro_call_still_widens_it() {
    for mask in [
        "/* every lane */ \\\n      0xffffffff",
        "0xffffffff /* every lane */",
    ] {
        let src = format!(
            "#define ADD_XOR(v) \\\n  v += __shfl_xor_sync( \\\n      {mask}, v, 1)\n__global__ void k(float *o) {{\n  float v = o[threadIdx.x];\n  ADD_XOR(v);\n  o[threadIdx.x] = v;\n}}\n"
        );
        let (_, _, err, out) = cli_convert_in(&[("k.cu", &src)], "6.2", &[]);
        assert!(
            out[0].contains("0xffffffffffffffffull"),
            "{}\n{err}",
            out[0]
        );
        assert!(
            !out[0].contains("0xffffffff,") && !out[0].contains("0xffffffff "),
            "{}",
            out[0]
        );
    }
}
