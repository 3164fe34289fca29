//! Findings of realuser29/30 and verify11 (wavefix14): 32-bit lane masks written inline at HIP
//! 6.2 (R29-a), inline PTX under a macro that only `__CUDA_ARCH__` defines (R29-d), a broadcast
//! in a callee of code that numbers 32-lane groups (R29-b), a broadcast after a helper's 32-lane
//! xor tree (F5), a width-32 shuffle macro of the project's own HIP branch (R29-1), H011 on
//! polyfills HIP has (R30-1), a project function named `nvtx...`, and a mask whose address is
//! taken (verify11's existing problems).

use std::path::PathBuf;
use std::process::Command;

use crate::common;
use common::{cli_convert as convert, cli_convert_in as convert_in, reports};

/// hipcc, where installed (under `CI=true` it must be).
fn hipcc() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let found = std::env::split_paths(&path)
        .map(|d| d.join("hipcc"))
        .find(|p| p.is_file());
    if found.is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true" || v == "1") {
            panic!("hipcc is required in CI");
        }
        eprintln!("SKIPPED: hipcc is not installed");
    }
    found
}

// R29-a ----------------------------------------------------------------------------------------

const INLINE_MASKS: &str = r#"__global__ void sums(float* data, int width, unsigned bits) {
    float x = data[threadIdx.x];
    x += __shfl_down_sync((1U << width) - 1, x, 1);
    x += __shfl_xor_sync(bits & 0xffu, x, 2);
    x += __shfl_xor_sync((1ull << width) - 1, x, 4);
    data[threadIdx.x] = x;
}
"#;

#[test]
fn r29a_a_32_bit_mask_written_in_the_call_is_an_error_at_hip_6_2() {
    let (code, err, _) = convert(&[("k.cu", INLINE_MASKS)], &[]);
    let h003: Vec<&str> = reports(&err, "H003")
        .into_iter()
        .filter(|l| l.starts_with("error"))
        .collect();
    assert_eq!(h003.len(), 2, "{err}");
    assert!(h003[0].contains("`(1U << width) - 1`") && h003[0].contains("`unsigned int`"));
    assert!(h003[1].contains("`bits & 0xffu`"), "{err}");
    // The 64-bit one is right.
    assert!(!err.contains("`(1ull << width) - 1`"), "{err}");
    assert_eq!(code, Some(1));
}

#[test]
fn r29a_fix_widens_a_computed_value_and_leaves_a_shifted_one_to_the_author() {
    let (_, err, out) = convert(&[("k.cu", INLINE_MASKS)], &["--fix"]);
    let k = &out[0];
    assert!(
        k.contains("__shfl_xor_sync((unsigned long long)(bits & 0xffu), x, 2)"),
        "{k}"
    );
    // A mask shifted in 32 bits names no lane above 31 however wide: its help says to shift a
    // 64-bit one, and --fix does not guess where the group sits.
    assert!(
        k.contains("__shfl_down_sync((1U << width) - 1, x, 1)"),
        "{k}"
    );
    assert!(err.contains("shift a 64-bit one (`1ull << ...`)"), "{err}");
}

#[test]
fn r29a_before_hip_6_2_the_translator_keeps_reporting_it_once() {
    let (_, _, err, _) = convert_in(&[("k.cu", INLINE_MASKS)], "5.2.3", &[]);
    assert!(!err.contains("has type `unsigned int`"), "{err}");
}

// R29-d ----------------------------------------------------------------------------------------

const PTX_SWITCH: &str = r#"#if __CUDA_ARCH__ >= 700
#define HAVE_LANE_PTX
#endif
__device__ unsigned my_lane() {
#ifdef HAVE_LANE_PTX
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
#else
    return threadIdx.x % warpSize;
#endif
}
__device__ unsigned my_lane2() {
#if defined(HAVE_LANE_PTX)
    unsigned r;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(r));
    return r;
#else
    return threadIdx.x % warpSize;
#endif
}
__global__ void lanes(unsigned* out) { out[threadIdx.x] = my_lane() + my_lane2(); }
"#;

#[test]
fn r29d_ptx_under_a_macro_only_cuda_arch_defines_is_a_note() {
    let (tmp, code, err, _) = convert_in(&[("k.cu", PTX_SWITCH)], "6.2", &[]);
    let h006 = reports(&err, "H006");
    assert_eq!(h006.len(), 2, "{err}");
    assert!(h006.iter().all(|l| l.starts_with("note")), "{err}");
    assert!(
        err.contains("`#ifdef HAVE_LANE_PTX` on line 5 is false under hipcc"),
        "{err}"
    );
    assert_eq!(code, Some(0), "{err}");
    // And hipcc indeed compiles the output, without the asm.
    if let Some(hipcc) = hipcc() {
        let o = Command::new(hipcc)
            .args(["--offload-arch=gfx90a", "-c", "out/k.cu", "-o", "k.o"])
            .current_dir(tmp.path())
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
}

#[test]
fn r29d_ptx_under_a_macro_hipcc_defines_stays_an_error() {
    for define in [
        "#define HAVE_LANE_PTX\n",
        "#ifdef __HIP_PLATFORM_AMD__\n#define HAVE_LANE_PTX\n#endif\n",
    ] {
        let src = PTX_SWITCH.replace(
            "#if __CUDA_ARCH__ >= 700\n#define HAVE_LANE_PTX\n#endif\n",
            define,
        );
        let (_, err, _) = convert(&[("k.cu", &src)], &[]);
        let h006 = reports(&err, "H006");
        // One report, which names the second place.
        assert_eq!(h006.len(), 1, "{define}: {err}");
        assert!(h006[0].starts_with("error"), "{define}: {err}");
        assert!(err.contains("the same in 1 more place"), "{define}: {err}");
    }
}

// R29-b ----------------------------------------------------------------------------------------

const CALLEE_BROADCAST: &str = r#"__device__ float first_of_group(float v) {
    return __shfl_sync(0xffffffffu, v, 0);
}
__device__ float through(float v) { return first_of_group(v) * 2.f; }
__global__ void per_group(float* data) {
    const int group = threadIdx.x >> 5;
    const int lane = threadIdx.x & 31;
    float v = data[threadIdx.x];
    data[threadIdx.x] = through(v) + group + lane;
}
void run(float* d) { per_group<<<8, 128>>>(d); }
"#;

#[test]
fn r29b_a_broadcast_in_a_callee_of_group_code_gets_width_32() {
    let (_, err, out) = convert(&[("k.cu", CALLEE_BROADCAST)], &["--fix"]);
    let h048 = reports(&err, "H048");
    assert_eq!(h048.len(), 1, "{err}");
    assert!(
        h048[0].contains("`first_of_group`, called from `per_group`"),
        "{err}"
    );
    assert!(
        out[0].contains("__shfl_sync(~0ull, v, 0, 32)") || out[0].contains(", v, 0, 32)"),
        "{}",
        out[0]
    );
    // With the width, the caller's group arithmetic is segment code.
    assert!(reports(&err, "H001").is_empty(), "{err}");
}

#[test]
fn r29b_callers_that_number_no_groups_or_run_32_thread_blocks_leave_it_alone() {
    // No group numbering in the callers.
    let plain = CALLEE_BROADCAST
        .replace(
            "const int group = threadIdx.x >> 5;",
            "const int group = 0;",
        )
        .replace("const int lane = threadIdx.x & 31;", "const int lane = 1;");
    let (_, err, _) = convert(&[("k.cu", &plain)], &[]);
    assert!(reports(&err, "H048").is_empty(), "{err}");
    // Launched with 32-thread blocks only: one group per block.
    let narrow = CALLEE_BROADCAST.replace("<<<8, 128>>>", "<<<8, 32>>>");
    let (_, err, _) = convert(&[("k.cu", &narrow)], &[]);
    assert!(reports(&err, "H048").is_empty(), "{err}");
}

// verify11 F5 -----------------------------------------------------------------------------------

const XOR_HELPER: &str = r#"#define GROUP 32
__device__ float group_sum(float v) {
    for (int m = GROUP / 2; m > 0; m >>= 1) v += __shfl_xor_sync(0xffffffff, v, m);
    return v;
}
__global__ void spread(const float* in, float* out) {
    float v = in[blockIdx.x * 256 + threadIdx.x];
    v = group_sum(v);
    v = __shfl_sync(0xffffffff, v, 0);
    out[blockIdx.x * 256 + threadIdx.x] = v;
}
void go(const float* in, float* out, int n) { spread<<<n, 256>>>(in, out); }
"#;

#[test]
fn f5_a_whole_wavefront_broadcast_after_a_helpers_32_lane_xor_tree_is_reported() {
    let (code, err, _) = convert(&[("k.cu", XOR_HELPER)], &[]);
    let h001 = reports(&err, "H001");
    assert_eq!(h001.len(), 1, "{err}");
    assert!(
        h001[0].starts_with("error") && h001[0].contains("`group_sum`"),
        "{err}"
    );
    assert_eq!(code, Some(1));
    let (_, _, out) = convert(&[("k.cu", XOR_HELPER)], &["--fix"]);
    assert!(out[0].contains("v, 0, 32);"), "{}", out[0]);
    // Fixed, it is right: nothing more to say.
    let (_, err, _) = convert(&[("k.cu", &out[0])], &[]);
    assert!(reports(&err, "H001").is_empty(), "{err}");
}

#[test]
fn f5_a_wavefront_wide_tree_or_a_broadcast_of_something_else_is_not_reported() {
    let whole = XOR_HELPER.replace("GROUP / 2", "warpSize / 2");
    let (_, err, _) = convert(&[("k.cu", &whole)], &[]);
    assert!(!err.contains("holds the result of `group_sum`"), "{err}");
    let other = XOR_HELPER.replace(
        "v = __shfl_sync(0xffffffff, v, 0);",
        "float w = group_sum(v) + in[0];\n    v = __shfl_sync(0xffffffff, w, 0);",
    );
    let (_, err, _) = convert(&[("k.cu", &other)], &[]);
    assert!(!err.contains("holds the result of"), "{err}");
}

// R29-1 ----------------------------------------------------------------------------------------

const ROCM_BRANCH_MACRO: &str = r#"#ifdef USE_ROCM
#define DOWN32(v, d) __shfl_down(v, d, 32)
#else
#define DOWN32(v, d) __shfl_down_sync(0xffffffffu, v, d)
#endif
__global__ void row_sums(const float* in, float* out, int n) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    int row = t >> 5, lane = t & 31;
    if (row >= n) return;
    float v = in[t];
    for (int d = 16; d > 0; d /= 2) v += DOWN32(v, d);
    if (lane == 0) out[row] = v;
}
"#;

#[test]
fn r29_1_a_width_32_macro_used_only_by_32_lane_row_code_draws_no_warning() {
    let (_, err, _) = convert(&[("k.cu", ROCM_BRANCH_MACRO)], &["-D", "USE_ROCM"]);
    assert!(
        !reports(&err, "H001").iter().any(|l| !l.starts_with("note")),
        "{err}"
    );
}

#[test]
fn r29_1_a_macro_of_the_projects_hip_branch_in_a_header_is_a_note() {
    // The header defines the macro and uses it nowhere: the width is the owner's port.
    let header = ROCM_BRANCH_MACRO.split("__global__").next().unwrap();
    let (_, err, _) = convert(&[("utils.cuh", header)], &["-D", "USE_ROCM"]);
    let h001 = reports(&err, "H001");
    assert_eq!(h001.len(), 1, "{err}");
    assert!(
        h001[0].starts_with("note") && h001[0].contains("the project's own HIP branch"),
        "{err}"
    );
}

#[test]
fn r29_1_a_width_32_macro_outside_a_hip_branch_in_code_without_32_lane_rows_keeps_its_warning() {
    let src = ROCM_BRANCH_MACRO
        .replace("#ifdef USE_ROCM\n", "")
        .replace(
            "#else\n#define DOWN32(v, d) __shfl_down_sync(0xffffffffu, v, d)\n#endif\n",
            "",
        )
        .replace(
            "int row = t >> 5, lane = t & 31;",
            "int row = t / 64, lane = t % 64;",
        );
    assert!(!src.contains("USE_ROCM"), "{src}");
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    assert!(
        reports(&err, "H001")
            .iter()
            .any(|l| l.starts_with("warning") && l.contains("with width 32")),
        "{err}"
    );
}

/// verify12 REG-3: the HIP branch's width-32 macro used in this file by a reduction over the
/// whole wavefront (from `warpSize / 2`, 256-thread blocks) sums half of it on CDNA: the
/// warning stays; the branch only speaks for macros whose users are elsewhere.
#[test]
fn r29_1_a_hip_branch_macro_used_here_by_wavefront_code_keeps_its_warning() {
    let src = ROCM_BRANCH_MACRO
        .replace(
            "int row = t >> 5, lane = t & 31;\n    if (row >= n) return;",
            "if (t >= n) return;",
        )
        .replace("for (int d = 16;", "for (int d = warpSize / 2;")
        .replace("if (lane == 0) out[row] = v;", "if (threadIdx.x % warpSize == 0) out[t / warpSize] = v;")
        + "void go(const float* in, float* out, int n) { row_sums<<<n / 256, 256>>>(in, out, n); }\n";
    assert!(
        src.contains("warpSize / 2") && !src.contains("t & 31"),
        "{src}"
    );
    let (_, err, _) = convert(&[("k.cu", &src)], &["-D", "USE_ROCM"]);
    assert!(
        reports(&err, "H001")
            .iter()
            .any(|l| l.starts_with("warning") && l.contains("with width 32")),
        "{err}"
    );
}

// R30-1 ----------------------------------------------------------------------------------------

const POLYFILLS: &str = r#"#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 600
__device__ double atomicAdd(double* at, double v) {
    unsigned long long* p = (unsigned long long*)at;
    unsigned long long seen = *p, want;
    do { want = seen; seen = atomicCAS(p, want, __double_as_longlong(v + __longlong_as_double(want))); } while (want != seen);
    return __longlong_as_double(seen);
}
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ <= 300
__device__ double __shfl_xor(double v, int m, int w = 32) {
    int2 p = *reinterpret_cast<int2*>(&v);
    p.x = __shfl_xor(p.x, m, w);
    p.y = __shfl_xor(p.y, m, w);
    return *reinterpret_cast<double*>(&p);
}
#endif
__global__ void total(double* s, const double* x) { atomicAdd(s, __shfl_xor(x[threadIdx.x], 1)); }
"#;

#[test]
fn r30_1_a_guard_around_polyfills_hip_has_is_a_note() {
    let (_, err, _) = convert(&[("k.cu", POLYFILLS)], &[]);
    let h011 = reports(&err, "H011");
    assert_eq!(h011.len(), 2, "{err}");
    assert!(h011.iter().all(|l| l.starts_with("note")), "{err}");
    assert!(h011.iter().any(|l| l.contains("stand-in for `atomicAdd`")));
    assert!(h011.iter().any(|l| l.contains("stand-in for `__shfl_xor`")));
}

#[test]
fn r30_1_a_guard_around_other_code_stays_a_warning() {
    let src = POLYFILLS.replace(
        "#endif\n__global__",
        "__device__ float twice(float v) { return 2.f * v; }\n#endif\n__global__",
    );
    let (_, err, _) = convert(&[("k.cu", &src)], &[]);
    let h011 = reports(&err, "H011");
    assert!(
        h011.iter()
            .any(|l| l.starts_with("warning") && l.contains("<= 300")),
        "{err}"
    );
    assert!(
        h011.iter()
            .any(|l| l.starts_with("note") && l.contains("< 600")),
        "{err}"
    );
}

// verify11's existing problems ------------------------------------------------------------------

#[test]
fn a_project_function_named_like_nvtx_is_not_nvtx() {
    let src = "static void nvtxMyRange(const char*) {}\nvoid step() { nvtxMyRange(\"a\"); }\n";
    let (_, err, _) = convert(&[("k.cpp", src)], &[]);
    assert!(reports(&err, "H008").is_empty(), "{err}");
}

const MASK_ADDRESS: &str = r#"__global__ void vote(const float* in, float* out) {
    unsigned mask = 0xffffffffu;
    float v = in[threadIdx.x];
    if (v > 1.f) { unsigned* pm = &mask; *pm = 3u; }
    v += __shfl_xor_sync(mask, v, 1);
    out[threadIdx.x] = v;
}
"#;

#[test]
fn a_mask_whose_address_is_taken_is_not_widened_alone() {
    let (_, err, out) = convert(&[("k.cu", MASK_ADDRESS)], &["--fix"]);
    assert!(
        out[0].contains("unsigned mask = 0xffffffffu;"),
        "{}",
        out[0]
    );
    assert!(out[0].contains("unsigned* pm = &mask;"), "{}", out[0]);
    assert!(
        reports(&err, "H003").iter().any(|l| l.starts_with("error")),
        "{err}"
    );
    // Read only by value (`bits & mask`), it is widened as before.
    let src = MASK_ADDRESS.replace(
        "if (v > 1.f) { unsigned* pm = &mask; *pm = 3u; }",
        "unsigned bits = 3u & mask; v += bits;",
    );
    let (_, _, out) = convert(&[("k.cu", &src)], &["--fix"]);
    assert!(
        out[0].contains("unsigned long long mask = ~0ull;"),
        "{}",
        out[0]
    );
}
