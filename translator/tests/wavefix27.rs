//! wavefix27: a `dim3` declared in a launch macro's body (V18-f), 32-entry shared arrays
//! indexed by 32-thread groups without warp-level work (R42-2), lane masks built by macros of
//! several arguments (V18-d), namespace renames counted as their own family (R42-1), and the
//! round-to-nearest twin of directed-rounding intrinsics HIP lacks (R43-2).

use crate::common;
use common::{cli_convert, cli_convert_in, have_tool, hipcc_compile, reports, summary};
use hipport::diag::Diagnostic;
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

// ---- V18-f: a dim3 declared in the launch macro's body ----

/// A kernel whose shuffles keep to groups of `width` lanes inside one 32-thread row of the
/// block: right where the block is 32 wide, wrong where it is wider.
const ROW_KERNEL: &str = "\
#define WARP_SIZE 32
#define PER_BLOCK 4
__global__ void row_max(const float* in, float* out, int width) {
  float v = in[threadIdx.y * WARP_SIZE + threadIdx.x];
  for (int d = width / 2; d > 0; d /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, d, width));
  if (threadIdx.x % width == 0) out[threadIdx.y * (WARP_SIZE / width) + threadIdx.x / width] = v;
}
";

fn h001_errors(src: &str) -> (Option<i32>, Vec<String>) {
    let (code, err, _) = cli_convert(&[("k.cu", src)], &[]);
    let e = reports(&err, "H001")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .map(str::to_string)
        .collect();
    (code, e)
}

#[test]
fn v18f_a_dim3_declared_in_the_macro_body_is_the_launch_block() {
    let src = format!(
        "{ROW_KERNEL}\
#define RUN_ROWS(W, N) do {{ dim3 shape(WARP_SIZE, PER_BLOCK); row_max<<<(N), shape>>>(in, out, (W)); }} while (0)
void go(const float* in, float* out, int n, int w) {{ RUN_ROWS(w, n); RUN_ROWS(4, n); }}
"
    );
    let (code, e) = h001_errors(&src);
    assert!(e.is_empty(), "{e:?}");
    assert_eq!(code, Some(0));
}

#[test]
fn v18f_other_spellings_of_the_body_dim3_are_read_too() {
    // Braces, `= dim3(...)`, and the second declarator of a list.
    for decl in [
        "dim3 shape{WARP_SIZE, PER_BLOCK};",
        "dim3 shape = dim3(32, PER_BLOCK);",
        "dim3 grid(N), shape(WARP_SIZE, 4);",
    ] {
        let src = format!(
            "{ROW_KERNEL}\
#define RUN_ROWS(W, N) do {{ {decl} row_max<<<(N), shape>>>(in, out, (W)); }} while (0)
void go(const float* in, float* out, int n, int w) {{ RUN_ROWS(w, n); }}
"
        );
        let (code, e) = h001_errors(&src);
        assert!(e.is_empty(), "{decl}: {e:?}");
        assert_eq!(code, Some(0), "{decl}");
    }
}

#[test]
fn v18f_a_wide_block_declared_in_the_macro_body_keeps_the_error() {
    // 256 threads a row, with a width read at run time: a group may span the 32-lane halves
    // of a 64-lane wavefront, as the written-out launch is reported.
    let src = format!(
        "{ROW_KERNEL}\
#define RUN_ROWS(W, N) do {{ dim3 shape(256); row_max<<<(N), shape>>>(in, out, (W)); }} while (0)
void go(const float* in, float* out, int n, int w) {{ RUN_ROWS(w, n); }}
"
    );
    let (code, e) = h001_errors(&src);
    assert!(!e.is_empty(), "no H001 error");
    assert_eq!(code, Some(1));
}

#[test]
fn v18f_a_body_dim3_of_another_name_does_not_hide_the_callers_block() {
    // The body declares `grid`, not the block: the block is the caller's `wide`, 256 threads.
    let src = format!(
        "{ROW_KERNEL}\
#define RUN_ROWS(W, N) do {{ dim3 grid(N); row_max<<<grid, wide>>>(in, out, (W)); }} while (0)
void go(const float* in, float* out, int n, int w) {{ dim3 wide(256); RUN_ROWS(w, n); }}
"
    );
    let (code, e) = h001_errors(&src);
    assert!(!e.is_empty(), "no H001 error");
    assert_eq!(code, Some(1));
}

// ---- R42-2: a 32-entry shared array indexed by 32-thread groups, no warp-level work ----

fn shared_array_h001(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter()
        .filter(|x| x.id == "H001" && x.message.starts_with("shared array"))
        .collect()
}

/// A block sum through shared memory only: each group of 32 threads hands one value to its
/// slot, and thread 0 adds the slots up.
fn group_sum(group: &str) -> String {
    format!(
        "\
{group}
template <typename T> __device__ T block_total(T v) {{
  __shared__ T slots[32];
  if (threadIdx.x % WARP_SIZE == 0) slots[threadIdx.x / WARP_SIZE] = v;
  __syncthreads();
  if (threadIdx.x == 0) {{
    for (int g = 1; g < blockDim.x / WARP_SIZE; ++g) v += slots[g];
    slots[0] = v;
  }}
  __syncthreads();
  return slots[0];
}}
__global__ void totals(const float* x, float* out) {{
  float t = block_total(x[blockIdx.x * blockDim.x + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = t;
}}
"
    )
}

#[test]
fn r42_2_slots_of_32_thread_groups_get_no_h001() {
    for group in [
        "#define WARP_SIZE 32",
        "static const unsigned WARP_SIZE = 32;",
        "constexpr int WARP_SIZE = 32;",
    ] {
        let (_, d) = common::translate_at(&group_sum(group), V62);
        assert!(
            shared_array_h001(&d).is_empty(),
            "{group}: {:?}",
            summary(&d)
        );
    }
}

#[test]
fn r42_2_a_group_number_held_in_a_variable_counts_too() {
    let src = "\
#define WARP_SIZE 32
__global__ void totals(const int* x, int* out) {
  __shared__ int per_group[32];
  int tid = threadIdx.x;
  int group = tid / WARP_SIZE;
  int v = x[blockIdx.x * blockDim.x + tid];
  if (tid % WARP_SIZE == 0) per_group[group] = v;
  __syncthreads();
  if (tid == 0) {
    int s = 0;
    for (int g = 0; g < blockDim.x / WARP_SIZE; ++g) s += per_group[g];
    out[blockIdx.x] = s + per_group[0];
  }
}
";
    let (_, d) = common::translate_at(src, V62);
    assert!(shared_array_h001(&d).is_empty(), "{:?}", summary(&d));
}

#[test]
fn r42_2_an_array_filled_per_hardware_warp_keeps_the_warning() {
    // A vote over the hardware warp fills one slot per warp: on 64-lane wavefronts the
    // numbering by 32 no longer follows it.
    let src = "\
#define WARP_SIZE 32
__global__ void counts(const float* x, int* out) {
  __shared__ int slots[32];
  unsigned long long votes = __ballot_sync(~0ull, x[blockIdx.x * blockDim.x + threadIdx.x] > 0.f);
  if (threadIdx.x % WARP_SIZE == 0) slots[threadIdx.x / WARP_SIZE] = __popcll(votes);
  __syncthreads();
  if (threadIdx.x == 0) {
    int n = 0;
    for (int g = 0; g < blockDim.x / WARP_SIZE; ++g) n += slots[g];
    out[blockIdx.x] = n;
  }
}
";
    let (_, d) = common::translate_at(src, V62);
    assert_eq!(shared_array_h001(&d).len(), 1, "{:?}", summary(&d));
}

#[test]
fn r42_2_a_lane_index_or_an_unbounded_one_keeps_the_warning() {
    // `% WARP_SIZE` is a lane within the group; `g * 2` reads past the groups' slots; a
    // global thread index over 32 is no group of the block.
    for (write, read) in [
        ("slots[threadIdx.x % WARP_SIZE] = v;", "slots[g]"),
        ("slots[threadIdx.x / WARP_SIZE] = v;", "slots[g * 2]"),
        (
            "slots[(blockIdx.x * blockDim.x + threadIdx.x) / WARP_SIZE] = v;",
            "slots[g]",
        ),
    ] {
        let src = format!(
            "\
#define WARP_SIZE 32
__global__ void totals(const float* x, float* out) {{
  __shared__ float slots[32];
  float v = x[blockIdx.x * blockDim.x + threadIdx.x];
  {write}
  __syncthreads();
  if (threadIdx.x == 0) {{
    for (int g = 1; g < blockDim.x / WARP_SIZE; ++g) v += {read};
    out[blockIdx.x] = v;
  }}
}}
"
        );
        let (_, d) = common::translate_at(&src, V62);
        assert_eq!(
            shared_array_h001(&d).len(),
            1,
            "{write} / {read}: {:?}",
            summary(&d)
        );
    }
}

#[test]
fn r42_2_the_group_slot_port_compiles_with_hipcc() {
    if !have_tool("hipcc") {
        return;
    }
    let src = format!(
        "#include <cuda_runtime.h>\n{}",
        group_sum("#define WARP_SIZE 32")
    );
    let (tmp, code, err, _) = cli_convert_in(&[("k.cu", &src)], "5.2.3", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(reports(&err, "H001").is_empty(), "{err}");
    hipcc_compile(&tmp.path().join("out"), "k.cu").unwrap_or_else(|e| panic!("{e}\n{err}"));
}

// ---- V18-d: lane masks built by macros of several arguments ----

fn h003(d: &[Diagnostic]) -> Vec<&Diagnostic> {
    d.iter()
        .filter(|x| x.id == "H003" && x.severity.as_str() != "note")
        .collect()
}

const JOINED: &str = "\
#define JOIN(hi, lo) ((hi) | (lo))
#define CLEAR(m, off) ((m) & ~(off))
__global__ void mix(float* p) {
  float v = p[threadIdx.x];
  v += __shfl_xor_sync(JOIN(0xFFFF0000U, 0x0000FFFFU), v, 1);
  v += __shfl_xor_sync(CLEAR(0xFFFFFFFFU, 0U), v, 2);
  p[threadIdx.x] = v;
}
";

#[test]
fn v18d_a_full_mask_built_by_a_two_argument_macro_is_widened_at_6_2() {
    let (out, d) = common::translate_at(JOINED, V62);
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, v, 1)"),
        "{out}"
    );
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, v, 2)"),
        "{out}"
    );
    // The macros keep their bodies for their other uses.
    assert!(
        out.contains("#define JOIN(hi, lo) ((hi) | (lo))\n"),
        "{out}"
    );
    assert!(h003(&d).is_empty(), "{:?}", summary(&d));
}

#[test]
fn v18d_a_partial_mask_built_by_a_two_argument_macro_is_an_error_at_6_2() {
    let src = "\
#define JOIN(hi, lo) ((hi) | (lo))
#define UPPER(m, s) ((m) << (s))
__global__ void mix(float* p) {
  float v = p[threadIdx.x];
  v += __shfl_xor_sync(JOIN(0xFF000000U, 0x0000FFFFU), v, 1);
  v += __shfl_xor_sync(UPPER(0xFFFFU, 16), v, 2);
  p[threadIdx.x] = v;
}
";
    let (out, d) = common::translate_at(src, V62);
    assert!(!out.contains("0xffffffffffffffffull"), "{out}");
    let e: Vec<(usize, &str)> = h003(&d)
        .iter()
        .map(|x| (x.line, x.severity.as_str()))
        .collect();
    assert_eq!(e, vec![(5, "error"), (6, "error")], "{:?}", summary(&d));
}

#[test]
fn v18d_a_mask_macro_given_a_run_time_value_is_not_folded() {
    // What JOIN gives depends on `m`: neither widened nor reported as a constant.
    let src = "\
#define JOIN(hi, lo) ((hi) | (lo))
__global__ void mix(float* p, unsigned m) {
  float v = p[threadIdx.x];
  v += __shfl_xor_sync(JOIN(m, 0x0000FFFFU), v, 1);
  p[threadIdx.x] = v;
}
";
    let (out, _) = common::translate_at(src, V62);
    assert!(
        out.contains("__shfl_xor_sync(JOIN(m, 0x0000FFFFU), v, 1)"),
        "{out}"
    );
}

#[test]
fn v18d_at_5_2_the_full_macro_mask_is_dropped_and_the_port_compiles() {
    let (out, d) = common::translate_at(JOINED, V52);
    assert!(out.contains("v += __shfl_xor(v, 1);"), "{out}");
    assert!(out.contains("v += __shfl_xor(v, 2);"), "{out}");
    assert!(!d.iter().any(|x| x.id == "T009"), "{:?}", summary(&d));
    if !have_tool("hipcc") {
        return;
    }
    let (tmp, code, err, _) = cli_convert_in(&[("k.cu", JOINED)], "5.2.3", &[]);
    assert_eq!(code, Some(0), "{err}");
    hipcc_compile(&tmp.path().join("out"), "k.cu").unwrap_or_else(|e| panic!("{e}\n{err}"));
}

// ---- R42-1: namespace renames are not counted as CUB ----

fn report_summary(files: &[(&str, &str)], args: &[&str]) -> serde_json::Value {
    let mut all = vec!["--report", "r.json"];
    all.extend_from_slice(args);
    let (tmp, _, err, _) = cli_convert_in(files, "6.2", &all);
    let text =
        std::fs::read_to_string(tmp.path().join("r.json")).unwrap_or_else(|e| panic!("{e}\n{err}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["summary"]["renames_by_family"].clone()
}

#[test]
fn r42_1_torch_namespace_renames_are_counted_as_namespace_not_cub() {
    let src = "\
#include <c10/cuda/CUDAStream.h>
void* take(size_t n) { return c10::cuda::CUDACachingAllocator::raw_alloc(n); }
void give(void* p) { c10::cuda::CUDACachingAllocator::raw_delete(p); }
";
    let fam = report_summary(&[("ext.cpp", src)], &["--torch-api", "v1"]);
    assert!(fam.get("cub").is_none(), "{fam}");
    assert!(fam["namespace"].as_u64().is_some_and(|n| n >= 2), "{fam}");
}

#[test]
fn r42_1_cub_renames_are_still_cub() {
    let src = "\
#include <cub/cub.cuh>
void sum(const int* in, int* out, int n, void* tmp, size_t bytes) {
  cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
}
";
    let fam = report_summary(&[("k.cu", src)], &[]);
    assert!(fam["cub"].as_u64().is_some_and(|n| n >= 1), "{fam}");
    assert!(fam.get("namespace").is_none(), "{fam}");
}

// ---- R43-2: directed-rounding intrinsics HIP lacks ----

/// The arithmetic intrinsics with a rounding-mode suffix that HIP lacks, with their arguments
/// (f: float, d: double).
const DIRECTED: &[(&str, &str)] = &[
    ("__fadd", "f, f"),
    ("__fsub", "f, f"),
    ("__fmul", "f, f"),
    ("__fdiv", "f, f"),
    ("__frcp", "f"),
    ("__fsqrt", "f"),
    ("__fmaf", "f, f, f"),
    ("__dadd", "d, d"),
    ("__dsub", "d, d"),
    ("__dmul", "d, d"),
    ("__ddiv", "d, d"),
    ("__drcp", "d"),
    ("__dsqrt", "d"),
    ("__fma", "d, d, d"),
];

/// The T001 help for each call in `src`, by line.
fn t001_helps(d: &[Diagnostic]) -> Vec<String> {
    d.iter()
        .filter(|x| x.id == "T001")
        .map(|x| x.help.clone().unwrap_or_default())
        .collect()
}

#[test]
fn r43_2_t001_names_the_round_to_nearest_twin() {
    let src = "\
__global__ void k(float* o, const float* x) {
  int i = threadIdx.x;
  o[i] = __frcp_rd(x[i]) + __fsqrt_ru(x[i]) + __fmul_rz(x[i], 2.0f);
}
";
    let (_, d) = common::translate_at(src, V52);
    let helps = t001_helps(&d);
    assert_eq!(helps.len(), 3, "{:?}", summary(&d));
    for (name, twin) in [
        ("__frcp_rd", "`__frcp_rn`"),
        ("__fsqrt_ru", "`__fsqrt_rn`"),
        ("__fmul_rz", "`__fmul_rn`"),
    ] {
        let diag = d
            .iter()
            .find(|x| x.id == "T001" && x.message.contains(name))
            .unwrap_or_else(|| panic!("{name}: {:?}", summary(&d)));
        let help = diag.help.as_deref().unwrap_or("");
        assert!(help.contains(twin), "{help}");
        assert!(help.contains("1 ulp"), "{help}");
        assert_eq!(diag.severity.as_str(), "error");
    }
}

#[test]
fn r43_2_other_missing_names_keep_the_plain_help() {
    // A conversion with a rounding suffix has no round-to-nearest twin of this kind.
    let src = "\
__global__ void k(int* o, const __nv_bfloat16* x) { o[threadIdx.x] = __bfloat162int_rd(x[threadIdx.x]); }
";
    let (_, d) = common::translate_at(src, V52);
    for h in t001_helps(&d) {
        assert!(!h.contains("_rn`"), "{h}");
    }
}

#[test]
fn r43_2_every_suggested_twin_compiles_with_hipcc() {
    // Each directed-rounding call in one kernel: the twin its T001 help names, put in its
    // place, compiles for gfx90a.
    let calls: Vec<String> = DIRECTED
        .iter()
        .map(|(op, args)| format!("{op}_rd({args})"))
        .collect();
    let src = format!(
        "__global__ void k(float* fo, double* dout, float f, double d) {{\n{}\n}}\n",
        calls
            .iter()
            .map(|c| {
                let out = if c.starts_with("__d") || c.starts_with("__fma_") {
                    "dout"
                } else {
                    "fo"
                };
                format!("  {out}[threadIdx.x] += {c};\n")
            })
            .collect::<String>()
    );
    let (mut out, d) = common::translate_at(&src, V52);
    let t001: Vec<&Diagnostic> = d.iter().filter(|x| x.id == "T001").collect();
    assert_eq!(t001.len(), DIRECTED.len(), "{:?}", summary(&d));
    for (op, _) in DIRECTED {
        let name = format!("{op}_rd");
        let help = t001
            .iter()
            .find(|x| x.message.contains(&format!("`{name}`")))
            .and_then(|x| x.help.clone())
            .unwrap_or_else(|| panic!("no T001 for {name}"));
        let twin = help
            .strip_prefix("use `")
            .and_then(|h| h.split_once('`'))
            .map(|(t, _)| t.to_string())
            .unwrap_or_else(|| panic!("{help}"));
        assert_eq!(twin, format!("{op}_rn"));
        out = out.replace(&format!("{name}("), &format!("{twin}("));
    }
    if !have_tool("hipcc") {
        return;
    }
    let tmp = common::tree(&[("k.cu", &format!("#include <hip/hip_runtime.h>\n{out}"))]);
    hipcc_compile(tmp.path(), "k.cu").unwrap_or_else(|e| panic!("{e}\n{out}"));
}
