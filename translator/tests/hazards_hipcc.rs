//! The hazard rules' claims, checked against a real HIP compiler (hipcc, offload arch gfx90a).
//!
//! Each case is a small HIP file: the analysis must report the rule, and hipcc must confirm the
//! problem (a compile error, or a warning made an error). Fixed variants must compile cleanly.
//! Needs `hipcc`; outside CI the tests are skipped with a message when it is missing, under
//! `CI=true` they fail.

use std::path::PathBuf;
use std::process::Command;
use std::time::Duration;

use hipport::analysis::{self, AnalysisOptions};
use hipport::diag::Severity;
use hipport_rules::Version;

fn hipcc() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    let found = std::env::split_paths(&path)
        .map(|d| d.join("hipcc"))
        .find(|p| p.is_file());
    if found.is_none() {
        if std::env::var("CI").is_ok_and(|v| v == "true") {
            panic!("hipcc is required in CI (install the Debian package `hipcc`)");
        }
        eprintln!("skipping: hipcc not found in PATH");
    }
    found
}

/// Compiles `src` as HIP for gfx90a with extra flags; returns (success, stderr).
fn compile(hipcc: &PathBuf, src: &str, flags: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("case.hip");
    std::fs::write(&file, src).unwrap();
    let out = Command::new(hipcc)
        .args(["--offload-arch=gfx90a", "-c"])
        .args(flags)
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("case.o"))
        .output()
        .expect("running hipcc");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The (id, severity) pairs the analysis reports for `src`, targeting `hip`.
fn rules(src: &str, hip: Version) -> Vec<(String, Severity)> {
    let tree = hipport::parse::parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
    let opts = AnalysisOptions {
        hip_version: hip,
        fix: true,
        ..AnalysisOptions::default()
    };
    analysis::analyze(src.as_bytes(), &tree, "case.hip", &opts)
        .into_iter()
        .map(|d| (d.id, d.severity))
        .collect()
}

/// `src` with every fix the analysis offers for target `hip` applied.
fn with_fixes(src: &str, hip: Version) -> String {
    let tree = hipport::parse::parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
    let opts = AnalysisOptions {
        hip_version: hip,
        fix: true,
        ..AnalysisOptions::default()
    };
    let mut edits: Vec<_> = analysis::analyze(src.as_bytes(), &tree, "case.hip", &opts)
        .into_iter()
        .flat_map(|d| d.fix)
        .collect();
    String::from_utf8(hipport::edit::apply(src.as_bytes(), &mut edits).unwrap()).unwrap()
}

/// `cuda` as hipport translates it for HIP 5.2.3.
fn translated_for_hip_5_2(cuda: &str) -> String {
    let opts = hipport::translate::Options {
        hip_version: Version::new(5, 2, 3),
        ..Default::default()
    };
    String::from_utf8(
        hipport::translate::translate_source(cuda.as_bytes(), "case.cu", &opts)
            .unwrap()
            .output,
    )
    .unwrap()
}

const HEADER: &str = "#include <hip/hip_runtime.h>\n#include <cstdint>\n";

fn case(body: &str) -> String {
    format!("{HEADER}{body}\n")
}

#[test]
fn h025_user_float_atomic_max_is_a_redefinition() {
    let Some(cc) = hipcc() else { return };
    let src = case("__device__ float atomicMax(float* address, float val) { return val; }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H025".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("redefinition of 'atomicMax'"), "{err}");
}

#[test]
fn h025_vector_compound_operators_are_ambiguous() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "inline __host__ __device__ void operator+=(float3& a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }\n\
         __global__ void k(float3* p) { float3 v = p[0]; v += v; p[0] = v; }",
    );
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H025".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("ambiguous"), "{err}");
    let guarded = src
        .replace(
            "inline __host__",
            "#if !defined(__HIP_PLATFORM_AMD__)\ninline __host__",
        )
        .replace("a.z += b.z; }", "a.z += b.z; }\n#endif");
    let (ok, err) = compile(&cc, &guarded, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h026_register_is_rejected_in_cxx17() {
    let Some(cc) = hipcc() else { return };
    let src = case("__global__ void k(int *x) { register int r = x[0]; x[1] = r; }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H026".into(), Severity::Warning)));
    let (ok, err) = compile(&cc, &src, &["-std=c++17"]);
    assert!(!ok && err.contains("register"), "{err}");
    // The fix (deleting the keyword) compiles.
    let (ok, err) = compile(&cc, &src.replace("register ", ""), &["-std=c++17"]);
    assert!(ok, "{err}");
}

#[test]
fn h009_three_argument_launch_bounds_do_not_compile() {
    let Some(cc) = hipcc() else { return };
    let src = case("__global__ void __launch_bounds__(128, 4, 2) k(int *x) { x[0] = 1; }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H009".into(), Severity::Error)));
    let (ok, _) = compile(&cc, &src, &[]);
    assert!(!ok);
    let two = src.replace("(128, 4, 2)", "(128, 4)");
    assert!(rules(&two, Version::new(6, 4, 0)).contains(&("H009".into(), Severity::Warning)));
    let (ok, err) = compile(&cc, &two, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h006_inline_ptx_is_not_amd_assembly() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(int *x) { unsigned r; asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(r)); x[0] = r; }",
    );
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H006".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("invalid instruction"), "{err}");
    // The suggested replacement compiles.
    let fixed = case("__global__ void k(int *x) { unsigned r = __lane_id(); x[0] = r; }");
    assert!(rules(&fixed, Version::new(6, 4, 0)).is_empty());
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

/// The replacement H006 names for PTX streaming loads and stores (`ld.global.cs`, `st.global.cs`)
/// compiles for a 64-lane and a 32-lane target (realuser16 T2).
#[test]
fn h006_nontemporal_builtins_replace_streaming_ptx() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(const double *p, double *q) { double x; asm volatile(\"ld.global.cs.f64 %0, [%1];\" : \"=d\"(x) : \"l\"(p)); q[0] = x; }",
    );
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H006".into(), Severity::Error)));
    let fixed = case(
        "__global__ void k(const double *p, double *q) { double x = __builtin_nontemporal_load(p + threadIdx.x); __builtin_nontemporal_store(x, q + threadIdx.x); }",
    );
    assert!(rules(&fixed, Version::new(6, 4, 0)).is_empty());
    let (ok, err) = compile(&cc, &fixed, &["--offload-arch=gfx1030"]);
    assert!(ok, "{err}");
}

#[test]
fn h004_ballots_are_64_bit_and_the_fix_keeps_them() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(const int *in, int *out) {\n\
         unsigned b = __ballot(in[threadIdx.x] > 0);\n\
         out[0] = __popc(b);\n\
         out[1] = __ffs(b);\n}",
    );
    let found = rules(&src, Version::new(6, 4, 0));
    assert_eq!(
        found.iter().filter(|(id, _)| id == "H004").count(),
        3,
        "{found:?}"
    );
    // The compiler agrees that a 64-bit value is truncated.
    let flags = ["-Werror=shorten-64-to-32"];
    let (ok, err) = compile(&cc, &src, &flags);
    assert!(!ok && err.contains("shorten-64-to-32"), "{err}");
    // Apply hipport's own fixes and compile again.
    let fixed = with_fixes(&src, Version::new(6, 4, 0));
    assert!(
        fixed.contains("unsigned long long b")
            && fixed.contains("__popcll(b)")
            && fixed.contains("__ffsll(b)"),
        "{fixed}"
    );
    let (ok, err) = compile(&cc, &fixed, &flags);
    assert!(ok, "{err}");
}

#[test]
fn uint64_t_makes_ffsll_ambiguous_so_fixes_widen_to_unsigned_long_long() {
    let Some(cc) = hipcc() else { return };
    let src =
        case("__global__ void k(int *out) { uint64_t b = __ballot(1); out[0] = __ffsll(b); }");
    // HIP 5.2 has `__ffsll(long long)` and `__ffsll(unsigned long long)`; `uint64_t` is
    // `unsigned long`, which matches neither exactly.
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(ok || err.contains("ambiguous"), "{err}");
    let (ok, err) = compile(&cc, &src.replace("uint64_t", "unsigned long long"), &[]);
    assert!(ok, "{err}");
}

#[test]
fn h010_h011_cuda_macros_are_undefined_under_hipcc() {
    let Some(cc) = hipcc() else { return };
    // If HIP took these branches, #error would stop the compile.
    let src = case(
        "#if CUDA_VERSION >= 11000\n#error CUDA_VERSION branch taken\n#endif\n\
         __global__ void k(int *x) {\n\
         #ifdef __CUDA_ARCH__\n#error __CUDA_ARCH__ defined in device code\n#endif\n\
         x[0] = 1;\n}",
    );
    let found = rules(&src, Version::new(6, 4, 0));
    assert!(
        found.contains(&("H010".into(), Severity::Warning)),
        "{found:?}"
    );
    assert!(
        found.contains(&("H011".into(), Severity::Warning)),
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(ok, "{err}");
}

/// realuser11 Z-e: a helper defined only under `#ifdef __CUDA_ARCH__` and called from a kernel
/// is undeclared under hipcc, with `__HIP_DEVICE_COMPILE__` too (the host pass parses the
/// kernel); the guard H011's help gives compiles.
#[test]
fn h011_helpers_only_under_cuda_arch_are_undeclared_and_the_help_builds() {
    let Some(cc) = hipcc() else { return };
    let with = |guard: &str| {
        case(&format!(
            "{guard}\n__device__ static void reduceAdd(float *a, float v) {{ atomicAdd(a, v); }}\n#endif\n\
             __global__ void k(float *o, const float *x) {{ reduceAdd(o, x[threadIdx.x]); }}"
        ))
    };
    let src = with("#ifdef __CUDA_ARCH__");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H011".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(
        !ok && err.contains("undeclared identifier 'reduceAdd'"),
        "{err}"
    );
    let (ok, err) = compile(&cc, &with("#ifdef __HIP_DEVICE_COMPILE__"), &[]);
    assert!(
        !ok && err.contains("undeclared identifier 'reduceAdd'"),
        "{err}"
    );
    let fixed = with("#if defined(__CUDA_ARCH__) || defined(__HIP_PLATFORM_AMD__)");
    assert!(!rules(&fixed, Version::new(6, 4, 0)).contains(&("H011".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

/// realuser12 C-f: a kernel whose whole body is under `#if __CUDA_ARCH__ >= 700` compiles under
/// hipcc with no diagnostic (to an empty kernel): only hipport can say so.
#[test]
fn h011_a_kernel_emptied_by_its_guard_compiles_silently() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void scale(float *v, int n) {\n#if __CUDA_ARCH__ >= 700\n\
         int i = threadIdx.x;\n  if (i < n) v[i] *= 2.f;\n#endif\n}",
    );
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H011".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &["-Werror"]);
    assert!(ok, "{err}");
}

/// `-U` as hipport reads it: of `-D X` and `-U X` the last wins, clang applies `-U __HIPCC__`
/// after its own definition, and hip_common.h defines `__HIP_PLATFORM_AMD__` again after `-U`.
#[test]
fn undefines_win_over_the_compilers_macros_but_not_the_headers() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "#ifdef USE_ROCM\n#error USE_ROCM defined\n#endif\n\
         #ifndef __HIPCC__\n#error __HIPCC__ undefined\n#endif\n\
         #ifndef __HIP_PLATFORM_AMD__\n#error __HIP_PLATFORM_AMD__ undefined\n#endif\n\
         __global__ void k(int* o) { o[0] = 1; }\n",
    );
    let (ok, err) = compile(&cc, &src, &["-DUSE_ROCM", "-UUSE_ROCM"]);
    assert!(ok, "{err}");
    let (ok, err) = compile(&cc, &src, &["-UUSE_ROCM", "-DUSE_ROCM"]);
    assert!(!ok && err.contains("USE_ROCM defined"), "{err}");
    let (ok, err) = compile(&cc, &src, &["-U__HIP_PLATFORM_AMD__"]);
    assert!(ok, "{err}");
    let (ok, err) = compile(&cc, &src, &["-U__HIPCC__"]);
    assert!(!ok && err.contains("__HIPCC__ undefined"), "{err}");
    assert!(!err.contains("__HIP_PLATFORM_AMD__ undefined"), "{err}");
}

#[test]
fn h010_cuda_version_macros_in_code_do_not_compile() {
    let Some(cc) = hipcc() else { return };
    let src = case("long runtime_version() { return CUDART_VERSION; }");
    let found = rules(&src, Version::new(6, 4, 0));
    assert!(
        found.contains(&("H010".into(), Severity::Error)),
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("CUDART_VERSION"), "{err}");
    // Guarded the way the help says, it compiles.
    let guarded = case(
        "long runtime_version() {\n#ifdef CUDART_VERSION\nreturn CUDART_VERSION;\n#else\nreturn HIP_VERSION;\n#endif\n}",
    );
    assert!(!rules(&guarded, Version::new(6, 4, 0))
        .iter()
        .any(|(id, sev)| id == "H010" && *sev == Severity::Error));
    let (ok, err) = compile(&cc, &guarded, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h042_deviceptr_arithmetic_does_not_compile_and_the_integer_form_does() {
    let Some(cc) = hipcc() else { return };
    let cuda = "CUdeviceptr carve(CUdeviceptr pool, size_t start) { return pool + start; }";
    assert!(rules(cuda, Version::new(6, 4, 0)).contains(&("H042".into(), Severity::Error)));
    let (ok, err) = compile(
        &cc,
        &case("hipDeviceptr_t carve(hipDeviceptr_t pool, size_t start) { return pool + start; }"),
        &[],
    );
    assert!(
        !ok && err.contains("arithmetic on a pointer to void"),
        "{err}"
    );
    let fixed = case("hipDeviceptr_t carve(hipDeviceptr_t pool, size_t start) { return (hipDeviceptr_t)((uintptr_t)pool + start); }");
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
    // Implicit conversions between the handle and integers, both ways.
    let cuda = "uint64_t key(CUdeviceptr p) { uint64_t k = p; return k; }\nCUdeviceptr make(uint64_t h) { CUdeviceptr d = h; return d; }";
    let found = rules(cuda, Version::new(6, 4, 0));
    assert_eq!(
        found.iter().filter(|f| f.0 == "H042").count(),
        2,
        "{found:?}"
    );
    for body in [
        "uint64_t key(hipDeviceptr_t p) { uint64_t k = p; return k; }",
        "hipDeviceptr_t make(uint64_t h) { hipDeviceptr_t d = h; return d; }",
    ] {
        let (ok, err) = compile(&cc, &case(body), &[]);
        assert!(!ok && err.contains("cannot initialize"), "{err}");
    }
    let cast = case("uint64_t key(hipDeviceptr_t p) { uint64_t k = (uintptr_t)p; return k; }\nhipDeviceptr_t make(uint64_t h) { hipDeviceptr_t d = (hipDeviceptr_t)h; return d; }");
    let (ok, err) = compile(&cc, &cast, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h036_pointer_attribute_type_is_memory_type_in_hip_5_and_the_fix_compiles() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "bool on_device(const void* p) {\n\
         hipPointerAttribute_t a;\n\
         hipPointerGetAttributes(&a, p);\n\
         return a.type == hipMemoryTypeDevice;\n}",
    );
    assert!(rules(&src, Version::new(5, 2, 3)).contains(&("H036".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("no member named 'type'"), "{err}");
    let fixed = with_fixes(&src, Version::new(5, 2, 3));
    assert!(
        fixed.contains("a.memoryType == hipMemoryTypeDevice"),
        "{fixed}"
    );
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h043_integer_hadd_returns_0_or_1_in_hip() {
    let Some(cc) = hipcc() else { return };
    let src = case("__global__ void k(int* o) { o[0] = __hadd(10, 20); }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H043".into(), Severity::Error)));
    // The constant folds: HIP stores 1 where CUDA computes 15.
    let text = device_ir(&cc, &src);
    assert!(text.contains("store i32 1,"), "{text}");
    assert!(!text.contains("store i32 15,"), "{text}");
    // `__uhadd` overflows in 32 bits: 0xFFFFFFFF and 0xFFFFFFFD give 0x7FFFFFFE, not 0xFFFFFFFE.
    let src = case("__global__ void k(unsigned* o) { o[0] = __uhadd(0xFFFFFFFFu, 0xFFFFFFFDu); }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H043".into(), Severity::Warning)));
    let text = device_ir(&cc, &src);
    assert!(text.contains("store i32 2147483646,"), "{text}");
}

/// Device LLVM IR of `src` at -O2 for gfx90a.
fn device_ir(hipcc: &PathBuf, src: &str) -> String {
    let flags = ["--cuda-device-only", "-O2", "-S", "-emit-llvm"];
    let (_dir, ir) = build(hipcc, src, &flags, "case.ll");
    std::fs::read_to_string(&ir).unwrap()
}

/// Compiles `src` with hipcc for gfx90a and `flags` into `out` in a new temporary directory
/// (returned with the output's path, so it lives as long as the caller needs it); fails the test
/// when hipcc does.
fn build(hipcc: &PathBuf, src: &str, flags: &[&str], out: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("case.hip");
    std::fs::write(&file, src).unwrap();
    let target = dir.path().join(out);
    let run = Command::new(hipcc)
        .arg("--offload-arch=gfx90a")
        .args(flags)
        .arg(&file)
        .arg("-o")
        .arg(&target)
        .output()
        .expect("running hipcc");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    (dir, target)
}

#[test]
fn h043_half2_members_are_bit_patterns_in_hip_5_and_the_fix_reads_halves() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(const __half2* in, float* out) { __half2 v = in[0]; out[0] = __half2float(v.x); }",
    )
    .replace("#include <hip/hip_runtime.h>", "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>");
    assert!(rules(&src, Version::new(5, 2, 3)).contains(&("H043".into(), Severity::Error)));
    // The member is converted as an integer (uitofp) in HIP 5.2.3; the fix reads the half.
    assert!(device_ir(&cc, &src).contains("uitofp i16"));
    let fixed = with_fixes(&src, Version::new(5, 2, 3));
    assert!(fixed.contains("__half2float(__low2half(v))"), "{fixed}");
    assert!(!device_ir(&cc, &fixed).contains("uitofp"));
    // Through an element and a pointer.
    let src = case(
        "__global__ void k(const __half2* in, float* out) { out[0] = __half2float(in[1].y) + __half2float(in->x); }",
    )
    .replace("#include <hip/hip_runtime.h>", "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>");
    assert_eq!(
        rules(&src, Version::new(5, 2, 3))
            .iter()
            .filter(|r| **r == ("H043".into(), Severity::Error))
            .count(),
        2
    );
    assert!(device_ir(&cc, &src).contains("uitofp i16"));
    let fixed = with_fixes(&src, Version::new(5, 2, 3));
    assert!(
        fixed.contains("__half2float(__high2half(in[1])) + __half2float(__low2half(*in))"),
        "{fixed}"
    );
    assert!(!device_ir(&cc, &fixed).contains("uitofp"));
}

#[test]
fn thread_indices_in_min_max_are_ambiguous_without_the_translators_cast() {
    let Some(cc) = hipcc() else { return };
    let cuda =
        "__global__ void k(unsigned* o) { o[0] = min(threadIdx.x, 5u) + max(blockDim.x, 64u); }\n";
    let opts = hipport::translate::Options {
        hip_version: Version::new(5, 2, 3),
        ..hipport::translate::Options::default()
    };
    let out = hipport::translate::translate_source(cuda.as_bytes(), "k.cu", &opts).unwrap();
    let out = String::from_utf8(out.output).unwrap();
    let (ok, err) = compile(&cc, &out, &[]);
    assert!(ok, "{out}\n{err}");
    let (ok, err) = compile(&cc, &out.replace("(unsigned)", ""), &[]);
    assert!(!ok && err.contains("ambiguous"), "{err}");
    // `std::min` and an `auto` copy passed on to `std::max`.
    let cuda = "#include <algorithm>\n__global__ void k(unsigned* o) { auto t = threadIdx.x; o[0] = std::min(blockIdx.x, 5u) + std::max(t, 1u); }\n";
    let out = hipport::translate::translate_source(cuda.as_bytes(), "k.cu", &opts).unwrap();
    let out = String::from_utf8(out.output).unwrap();
    let (ok, err) = compile(&cc, &out, &[]);
    assert!(ok, "{out}\n{err}");
    let (ok, err) = compile(&cc, &out.replace("(unsigned)", ""), &[]);
    assert!(!ok && err.contains("no matching function"), "{err}");
    // The file's own function templates, and `std::clamp`, deduce from the index too.
    let cuda = "#include <algorithm>\n\
                template <typename T> __device__ T clampv(T x, T lo, T hi) { return x < lo ? lo : (x > hi ? hi : x); }\n\
                template <typename T> __device__ T twice(T x) { T r = x * 2; return r; }\n\
                __global__ void k(unsigned* o) { o[0] = clampv(threadIdx.x, 0u, 10u) + twice(blockIdx.x) + std::clamp(threadIdx.y, 1u, 4u); }\n";
    let out = hipport::translate::translate_source(cuda.as_bytes(), "k.cu", &opts).unwrap();
    let out = String::from_utf8(out.output).unwrap();
    assert!(
        out.contains("clampv((unsigned)threadIdx.x, 0u, 10u) + twice((unsigned)blockIdx.x)"),
        "{out}"
    );
    let (ok, err) = compile(&cc, &out, &["-std=c++17"]);
    assert!(ok, "{out}\n{err}");
    let (ok, err) = compile(&cc, &out.replace("(unsigned)", ""), &["-std=c++17"]);
    assert!(
        !ok && err.contains("no matching function for call to 'clampv'"),
        "{err}"
    );
}

#[test]
fn h044_tile_votes_and_meta_group_rank_are_missing_in_hip_5_2() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "#include <hip/hip_cooperative_groups.h>\n\
         namespace cg = cooperative_groups;\n\
         __global__ void k(int* o) {\n\
         auto t = cg::tiled_partition<32>(cg::this_thread_block());\n\
         o[t.meta_group_rank()] = (int)t.ballot(o[0] > 0);\n\
         cg::grid_group grid = cg::this_grid(); o[1] = (int)grid.num_blocks();\n}",
    );
    let found = rules(&src, Version::new(5, 2, 3));
    assert_eq!(
        found.iter().filter(|(id, _)| id == "H044").count(),
        3,
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(
        !ok && err.contains("no member named 'ballot'")
            && err.contains("no member named 'meta_group_rank'")
            && err.contains("no member named 'num_blocks'"),
        "{err}"
    );
}

#[test]
fn h022_half_atomics_have_no_overload_in_hip_5() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "#include <hip/hip_fp16.h>\n__global__ void k(__half* h, __half2* h2) { atomicAdd(&h[threadIdx.x], __float2half(1.f)); atomicAdd(h2, __floats2half2_rn(1.f, 1.f)); }",
    );
    let found = rules(&src, Version::new(5, 2, 3));
    assert_eq!(
        found
            .iter()
            .filter(|f| **f == ("H022".to_string(), Severity::Error))
            .count(),
        2,
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(
        !ok && err.contains("no matching function for call to 'atomicAdd'"),
        "{err}"
    );
}

#[test]
fn h045_sixteen_bit_atomic_cas_has_no_overload() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(unsigned short* p, uint16_t* q) { atomicCAS(&p[threadIdx.x], (unsigned short)0, (unsigned short)1); atomicCAS(q, (uint16_t)0, (uint16_t)1); }",
    );
    let found = rules(&src, Version::new(5, 2, 3));
    assert_eq!(
        found
            .iter()
            .filter(|f| **f == ("H045".to_string(), Severity::Error))
            .count(),
        2,
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(
        !ok && err.contains("no matching function for call to 'atomicCAS'"),
        "{err}"
    );
    // Signed 64-bit atomicMin/Max have no HIP 5 overload either.
    let minmax = case("__global__ void k(long long* p) { atomicMax(p, 1ll); atomicMin(p, 2ll); }");
    let found = rules(&minmax, Version::new(5, 2, 3));
    assert_eq!(
        found.iter().filter(|f| f.0 == "H045").count(),
        2,
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &minmax, &[]);
    assert!(
        !ok && err.contains("no matching function for call to 'atomicMax'")
            && err.contains("no matching function for call to 'atomicMin'"),
        "{err}"
    );
    // The 32-bit word form the help describes compiles.
    let word = case(
        "__global__ void k(unsigned short* p) { unsigned int* w = (unsigned int*)((size_t)p & ~(size_t)3); unsigned int old = *w; atomicCAS(w, old, old | (1u << (((size_t)p & 2) * 8))); }",
    );
    assert!(rules(&word, Version::new(5, 2, 3))
        .iter()
        .all(|f| f.0 != "H045"));
    let (ok, err) = compile(&cc, &word, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h012_runtime_api_calls_do_not_compile_in_device_code() {
    let Some(cc) = hipcc() else { return };
    let cuda = "__global__ void k(int* e) { if (cudaGetLastError() != cudaSuccess) e[0] = 1; }";
    assert!(rules(cuda, Version::new(6, 4, 0)).contains(&("H012".into(), Severity::Error)));
    let (ok, err) = compile(
        &cc,
        &case("__global__ void k(int* e) { if (hipGetLastError() != hipSuccess) e[0] = 1; }"),
        &[],
    );
    assert!(!ok && err.contains("hipGetLastError"), "{err}");
}

#[test]
fn h028_cache_loads_take_half_pointers_only_in_hip_5() {
    let Some(cc) = hipcc() else { return };
    let src = case("#include <hip/hip_fp16.h>\n__global__ void k(const float* f, float* o) { o[0] = __ldcs(f); }");
    assert!(rules(&src, Version::new(5, 2, 3)).contains(&("H028".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("__ldcs"), "{err}");
    let half = case("#include <hip/hip_fp16.h>\n__global__ void k(const __half* h, __half* o) { o[0] = __ldcs(h); }");
    let (ok, err) = compile(&cc, &half, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h036_texture_descriptor_members_are_missing_in_hip_5_2() {
    let Some(cc) = hipcc() else { return };
    let cuda = "void f() { cudaTextureDesc d = {}; d.disableTrilinearOptimization = 1; }";
    assert!(rules(cuda, Version::new(5, 2, 3)).contains(&("H036".into(), Severity::Error)));
    let (ok, err) = compile(
        &cc,
        &case("void f() { hipTextureDesc d = {}; d.disableTrilinearOptimization = 1; }"),
        &[],
    );
    assert!(
        !ok && err.contains("no member named 'disableTrilinearOptimization'"),
        "{err}"
    );
}

#[test]
fn h043_hisinf_returns_bool_in_hip() {
    let Some(cc) = hipcc() else { return };
    let src = case("#include <hip/hip_fp16.h>\n#include <type_traits>\n__global__ void k(const __half* x, int* o) {\n  static_assert(std::is_same<decltype(__hisinf(x[0])), bool>::value, \"bool\");\n  o[0] = __hisinf(x[0]) == -1;\n}");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H043".into(), Severity::Error)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h046_lod_fetches_do_not_compile_for_gfx90a() {
    let Some(cc) = hipcc() else { return };
    let src = case("__global__ void k(hipTextureObject_t t, float* o) { o[0] = tex2DLod<float>(t, 0.5f, 0.5f, 1.0f); }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H046".into(), Severity::Warning)));
    // `compile` builds for gfx90a.
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(
        !ok && err.contains("requested image instruction is not supported"),
        "{err}"
    );
}

/// Compiles `src` as HIP for `arch` only, with extra flags; returns (success, stderr).
fn compile_for(hipcc: &PathBuf, src: &str, arch: &str, flags: &[&str]) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("case.hip");
    std::fs::write(&file, src).unwrap();
    let out = Command::new(hipcc)
        .arg(format!("--offload-arch={arch}"))
        .arg("-c")
        .args(flags)
        .arg(&file)
        .arg("-o")
        .arg(dir.path().join("case.o"))
        .output()
        .expect("running hipcc");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn h006_trap_and_sleep_hints_compile() {
    let Some(cc) = hipcc() else { return };
    let ptx = case("__global__ void k(int* f) {\n  if (!f[0]) asm(\"trap;\");\n  asm volatile(\"nanosleep.u32 %0;\" :: \"r\"(f[1]));\n}");
    assert!(rules(&ptx, Version::new(6, 4, 0)).contains(&("H006".into(), Severity::Error)));
    // What the hints name compiles; CUDA's `__trap` does not exist in HIP.
    let hinted = case("__global__ void k(int* f) {\n  if (!f[0]) __builtin_trap();\n  __builtin_amdgcn_s_sleep(2);\n}");
    let (ok, err) = compile(&cc, &hinted, &[]);
    assert!(ok, "{err}");
    let (ok, err) = compile(
        &cc,
        &case("__global__ void k(int* f) { if (!f[0]) __trap(); }"),
        &[],
    );
    assert!(!ok && err.contains("__trap"), "{err}");
}

#[test]
fn h052_texture_and_surface_objects_do_not_compile_for_mi300() {
    let Some(cc) = hipcc() else { return };
    let sampled = case(
        "__global__ void k(hipTextureObject_t t, float* o) {\n\
         o[0] = tex2D<float>(t, 0.5f, 0.5f);\n  o[1] = tex3D<float>(t, 0.5f, 0.5f, 0.5f);\n}",
    );
    let fetched = case(
        "__global__ void k(hipTextureObject_t t, hipSurfaceObject_t s, float* o) {\n\
         o[0] = tex1Dfetch<float>(t, 3);\n  surf2Dwrite(o[1], s, 4, 1);\n}",
    );
    for src in [&sampled, &fetched] {
        let found = rules(src, Version::new(6, 4, 0));
        let h052: Vec<_> = found.iter().filter(|(id, _)| id == "H052").collect();
        // The first call of each function, as a warning.
        assert_eq!(h052, [&("H052".to_string(), Severity::Warning)], "{src}");
        // gfx90a (MI200) has image instructions.
        let (ok, err) = compile(&cc, src, &[]);
        assert!(ok, "{src}\n{err}");
    }
    // MI300: hipcc 5.2.3's backend stops on the sampling fetches...
    let (ok, err) = compile_for(&cc, &sampled, "gfx940", &[]);
    assert!(
        !ok && err.contains("requested image instruction is not supported"),
        "{err}"
    );
    // ...and with the macro later HIP headers define for gfx940-gfx942, every texture and
    // surface function is unavailable.
    let (ok, err) = compile_for(&cc, &fetched, "gfx940", &["-D__HIP_NO_IMAGE_SUPPORT=1"]);
    assert!(
        !ok && err.contains("The image/texture API not supported on the device"),
        "{err}"
    );
}

#[test]
fn h050_ballot_of_a_nan_test_crashes_hipcc_5_2() {
    let Some(cc) = hipcc() else { return };
    let version = Command::new(&cc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    if !version.lines().any(|l| l.starts_with("HIP version: 5.2")) {
        eprintln!("skipping: the claim is about HIP 5.2's hipcc:\n{version}");
        return;
    }
    let kernel = |pred: &str| {
        case(&format!(
            "__global__ void k(const float* in, const double* dd, int* o) {{\n\
             float v = in[threadIdx.x]; double d = dd[threadIdx.x];\n\
             o[0] = (int){pred};\n}}"
        ))
    };
    for pred in [
        "__ballot(isnan(v))",
        "__ballot(v != v)",
        "__ballot(!(v == v))",
        "__ballot(isnan(d))",
    ] {
        let src = kernel(pred);
        assert!(
            rules(&src, Version::new(5, 2, 3)).contains(&("H050".into(), Severity::Error)),
            "{pred}"
        );
        let (ok, err) = compile(&cc, &src, &[]);
        assert!(!ok && err.contains("Cannot select"), "{pred}: {err}");
    }
    // The help's bit tests, an ordered compare and `__any` of a NaN test compile, unreported.
    for pred in [
        "__ballot((__float_as_uint(v) << 1) > 0xff000000u)",
        "__ballot(((unsigned long long)__double_as_longlong(d) << 1) > 0xffe0000000000000ull)",
        "__ballot(v < 0.f)",
        "__any(isnan(v))",
    ] {
        let src = kernel(pred);
        assert!(
            !rules(&src, Version::new(5, 2, 3))
                .iter()
                .any(|(id, _)| id == "H050"),
            "{pred}"
        );
        let (ok, err) = compile(&cc, &src, &[]);
        assert!(ok, "{pred}: {err}");
    }
}

#[test]
fn grid_constant_is_removed_because_hipcc_rejects_it() {
    let Some(cc) = hipcc() else { return };
    let cuda = "#include <cuda_runtime.h>\n\
                struct P { const float* x; float* y; int n; };\n\
                __global__ void k(const __grid_constant__ P p) {\n\
                  const P* q = &p;\n\
                  if (threadIdx.x < q->n) q->y[threadIdx.x] = q->x[threadIdx.x];\n\
                }\n";
    // Kept as CUDA wrote it, hipcc stops at the qualifier.
    let (ok, err) = compile(
        &cc,
        &cuda.replace("<cuda_runtime.h>", "<hip/hip_runtime.h>"),
        &[],
    );
    assert!(
        !ok && err.contains("unknown type name '__grid_constant__'"),
        "{err}"
    );
    let opts = hipport::translate::Options {
        hip_version: Version::new(5, 2, 3),
        ..Default::default()
    };
    let out = hipport::translate::translate_source(cuda.as_bytes(), "k.cu", &opts).unwrap();
    let text = String::from_utf8(out.output).unwrap();
    assert!(text.contains("__global__ void k(const P p)"), "{text}");
    assert!(out.diagnostics.iter().all(|d| d.id != "T001"));
    let (ok, err) = compile(&cc, &text, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h028_nontemporal_builtins_take_clang_vectors_not_float4() {
    let Some(cc) = hipcc() else { return };
    let cuda = case(
        "__global__ void k(const float4* p, float4* o) { o[0] = __ldcs(p); __stcs(o + 1, p[1]); }",
    );
    let helps: Vec<String> = {
        let tree = hipport::parse::parse(cuda.as_bytes(), Duration::from_secs(5)).unwrap();
        // HIP 5: `__ldcs` on a `float4` does not compile there (HIP 6 declares it for every
        // type, and it is not reported); `__stcs` has no HIP equivalent at any version.
        let opts = AnalysisOptions {
            hip_version: Version::new(5, 2, 3),
            fix: false,
            ..AnalysisOptions::default()
        };
        analysis::analyze(cuda.as_bytes(), &tree, "case.hip", &opts)
            .into_iter()
            .filter(|d| d.id == "H028")
            .filter_map(|d| d.help)
            .collect()
    };
    assert_eq!(helps.len(), 2);
    assert!(
        helps.iter().all(|h| h.contains("ext_vector_type(4)")),
        "{helps:?}"
    );
    // What the report says in T001's place: HIP has no `__stcs` (nor the other stores).
    for store in ["__stcs", "__stcg", "__stwt", "__stwb"] {
        let (ok, err) = compile(
            &cc,
            &case(&format!(
                "__global__ void k(float* o) {{ {store}(o, 1.f); }}"
            )),
            &[],
        );
        assert!(
            !ok && err.contains(&format!("use of undeclared identifier '{store}'")),
            "{err}"
        );
    }
    // What the help warns about, and what it offers instead.
    let (ok, err) = compile(
        &cc,
        &case("__global__ void k(const float4* p, float4* o) { o[0] = __builtin_nontemporal_load(p); }"),
        &[],
    );
    assert!(
        !ok && err.contains("nontemporal builtin must be a pointer"),
        "{err}"
    );
    let (ok, err) = compile(
        &cc,
        &case(
            "typedef float v4 __attribute__((ext_vector_type(4)));\n\
               __global__ void k(const float4* p, float4* o) {\n\
               v4 v = __builtin_nontemporal_load(reinterpret_cast<const v4*>(p));\n\
               __builtin_nontemporal_store(v, reinterpret_cast<v4*>(o));\n}",
        ),
        &[],
    );
    assert!(ok, "{err}");
}

#[test]
fn h003_sync_builtins_are_missing_before_hip_6_2() {
    let Some(cc) = hipcc() else { return };
    // Only meaningful on a HIP older than 6.2 (the Debian package is 5.2.3).
    let version = Command::new(&cc)
        .arg("--version")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).into_owned())
        .unwrap_or_default();
    let old = version.lines().any(|l| {
        l.starts_with("HIP version: 5.")
            || l.starts_with("HIP version: 6.0")
            || l.starts_with("HIP version: 6.1")
    });
    if !old {
        eprintln!("skipping: hipcc is not older than HIP 6.2:\n{version}");
        return;
    }
    let src = case(
        "__global__ void k(float *x) { float v = x[threadIdx.x];\n\
         v += __shfl_xor_sync(0xffff, v, 1);\n x[threadIdx.x] = v; }",
    );
    // On HIP 6.4 the 32-bit partial mask is an H003 error; before 6.2 the call does not exist
    // at all (the translator reports it as T009, the analysis stays silent).
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H003".into(), Severity::Error)));
    assert!(!rules(&src, Version::new(5, 2, 3))
        .iter()
        .any(|(id, _)| id == "H003"));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("__shfl_xor_sync"), "{err}");
}

#[test]
fn h036_device_prop_members_hip_5_lacks_do_not_compile_and_the_fix_does() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "size_t per_sm(int dev) {\n\
         hipDeviceProp_t prop;\n\
         hipGetDeviceProperties(&prop, dev);\n\
         return prop.sharedMemPerMultiprocessor + prop.regsPerMultiprocessor;\n}",
    );
    let found = rules(&src, Version::new(5, 2, 3));
    assert_eq!(
        found.iter().filter(|(id, _)| id == "H036").count(),
        2,
        "{found:?}"
    );
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(
        !ok && err.contains("no member named 'sharedMemPerMultiprocessor'")
            && err.contains("no member named 'regsPerMultiprocessor'"),
        "{err}"
    );
    // hipport's fix for the shared-memory member, and the attribute query its help names for
    // the other, compile.
    let fixed = with_fixes(&src, Version::new(5, 2, 3));
    assert!(
        fixed.contains("prop.maxSharedMemoryPerMultiProcessor"),
        "{fixed}"
    );
    let fixed = fixed.replace(
        "prop.regsPerMultiprocessor",
        "[&] { int r = 0; hipDeviceGetAttribute(&r, hipDeviceAttributeMaxRegistersPerMultiprocessor, dev); return r; }()",
    );
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h036_the_attributes_the_hip5_help_names_exist_in_hip_5_2() {
    let Some(cc) = hipcc() else { return };
    let fields = [
        "asyncEngineCount",
        "sharedMemPerBlockOptin",
        "unifiedAddressing",
        "maxBlocksPerMultiProcessor",
        "regsPerMultiprocessor",
        "maxSurface1D",
        "persistingL2CacheMaxSize",
        "uuid",
    ];
    let reads: String = fields.iter().map(|f| format!("(void)p.{f};\n")).collect();
    let cuda =
        format!("void f(int d) {{\ncudaDeviceProp p; cudaGetDeviceProperties(&p, d);\n{reads}}}\n");
    let tree = hipport::parse::parse(cuda.as_bytes(), Duration::from_secs(5)).unwrap();
    let opts = AnalysisOptions {
        hip_version: Version::new(5, 2, 3),
        fix: true,
        ..AnalysisOptions::default()
    };
    let attrs: Vec<String> = analysis::analyze(cuda.as_bytes(), &tree, "case.cu", &opts)
        .into_iter()
        .filter(|d| d.id == "H036")
        .filter_map(|d| {
            let h = d.help?;
            let at = h.find("`hipDeviceAttribute")? + 1;
            Some(h[at..at + h[at..].find('`')?].to_string())
        })
        .collect();
    assert_eq!(attrs.len(), fields.len(), "{attrs:?}");
    // Every attribute the help names is an enumerator of HIP 5.2.3's hipDeviceAttribute_t.
    let uses: String = attrs
        .iter()
        .map(|a| format!("(void)hipDeviceGetAttribute(&v, {a}, 0);\n"))
        .collect();
    let (ok, err) = compile(
        &cc,
        &case(&format!("void g() {{ int v = 0;\n{uses}}}")),
        &[],
    );
    assert!(ok, "{err}");
}

#[test]
fn h038_location_forms_do_not_compile_and_the_device_forms_do() {
    let Some(cc) = hipcc() else { return };
    let cuda = "void f(float* m, cudaStream_t s, int dev) {\n\
                cudaMemLocation loc = {cudaMemLocationTypeDevice, dev};\n\
                cudaMemPrefetchAsync(m, 64, loc, 0, s);\n}";
    let found = rules(cuda, Version::new(6, 4, 0));
    assert!(
        found.contains(&("H038".into(), Severity::Error)),
        "{found:?}"
    );
    // What the renaming alone gives: HIP has neither the type nor a five-argument prefetch.
    let renamed = case(
        "void f(float* m, hipStream_t s, int dev) {\n\
         hipMemPrefetchAsync(m, 64, dev, 0, s);\n}",
    );
    let (ok, err) = compile(&cc, &renamed, &[]);
    assert!(!ok && err.contains("hipMemPrefetchAsync"), "{err}");
    // The help's form compiles.
    let fixed = case(
        "void f(float* m, hipStream_t s, int dev) {\n\
         hipMemPrefetchAsync(m, 64, dev, s);\n\
         hipMemAdvise(m, 64, hipMemAdviseSetReadMostly, dev);\n}",
    );
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h038_three_argument_graph_update_does_not_compile_and_the_cuda_11_form_does() {
    let Some(cc) = hipcc() else { return };
    let cuda = "void f(cudaGraphExec_t ge, cudaGraph_t g) {\n\
                cudaGraphExecUpdateResultInfo info;\n\
                cudaGraphExecUpdate(ge, g, &info);\n}";
    let found = rules(cuda, Version::new(5, 2, 3));
    assert!(
        found.contains(&("H038".into(), Severity::Error)),
        "{found:?}"
    );
    // The renamed call, even with a struct of the right shape: HIP takes four arguments.
    let renamed = case(
        "struct Info { hipGraphExecUpdateResult result; hipGraphNode_t errorNode; };\n\
         void f(hipGraphExec_t ge, hipGraph_t g) {\n\
         Info info;\n\
         hipGraphExecUpdate(ge, g, &info);\n}",
    );
    let (ok, err) = compile(&cc, &renamed, &[]);
    assert!(!ok && err.contains("hipGraphExecUpdate"), "{err}");
    // The help's form compiles.
    let fixed = case(
        "void f(hipGraphExec_t ge, hipGraph_t g) {\n\
         hipGraphNode_t errorNode; hipGraphExecUpdateResult result;\n\
         (void)hipGraphExecUpdate(ge, g, &errorNode, &result);\n}",
    );
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

/// Builds `src` into a program with hipcc (gfx90a) and returns what it prints; host code only
/// runs, so no GPU is needed.
fn run_host(hipcc: &PathBuf, src: &str) -> String {
    let (_dir, exe) = build(hipcc, src, &[], "case");
    let run = Command::new(&exe).output().expect("running the program");
    assert!(run.status.success());
    String::from_utf8_lossy(&run.stdout).into_owned()
}

#[test]
fn h047_min_max_take_int_on_the_host_and_double_for_mixed_types_on_the_device() {
    let Some(cc) = hipcc() else { return };
    // Host: HIP's only host `min`/`max` take `int`.
    let src = case(
        "#include <cstdio>\n\
         int main() {\n\
           size_t a = size_t(1) << 33, b = size_t(1) << 34;\n\
           float x = 0.5f, y = 0.75f;\n\
           double p = 2.5, q = 1.0;\n\
           size_t m = min(a, b);\n\
           float n = min(x, y);\n\
           double o = max(p, q);\n\
           printf(\"%zu %g %g\\n\", m, n, o);\n\
         }",
    );
    let found = rules(&src, Version::new(6, 4, 0));
    assert_eq!(
        found
            .iter()
            .filter(|r| **r == ("H047".into(), Severity::Error))
            .count(),
        3,
        "{found:?}"
    );
    assert_eq!(run_host(&cc, &src), "0 0 2\n");
    let fixed = with_fixes(&src, Version::new(6, 4, 0));
    assert!(fixed.contains("std::min<size_t>(a, b)"), "{fixed}");
    assert_eq!(run_host(&cc, &fixed), "8589934592 0.5 2.5\n");
    // Device: `int` with `unsigned` goes through HIP's `double` template.
    let src = case("__global__ void k(unsigned* o, int r, unsigned n) { o[0] = min(r, n); }");
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H047".into(), Severity::Warning)));
    assert!(device_ir(&cc, &src).contains("double"));
    let fixed = with_fixes(&src, Version::new(6, 4, 0));
    assert!(fixed.contains("min((unsigned)(r), n)"), "{fixed}");
    let ir = device_ir(&cc, &fixed);
    assert!(!ir.contains("double") && ir.contains("umin"), "{ir}");
}

#[test]
fn h047_a_vector_member_is_unsigned_too() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(unsigned* o, int w) {\n\
           uint2 p = {blockIdx.x * 16, 0u};\n\
           o[0] = min(p.x + 16, w);\n\
         }",
    );
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H047".into(), Severity::Warning)));
    assert!(device_ir(&cc, &src).contains("double"));
    let fixed = with_fixes(&src, Version::new(6, 4, 0));
    assert!(
        fixed.contains("min(p.x + 16, (unsigned int)(w))"),
        "{fixed}"
    );
    let ir = device_ir(&cc, &fixed);
    assert!(!ir.contains("double") && ir.contains("umin"), "{ir}");
}

#[test]
fn h035_a_half_shuffle_through_an_alias_is_ambiguous() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "#include <hip/hip_fp16.h>\n\
         #include <type_traits>\n\
         template <typename T> __global__ void k(T* p) {\n\
           using shfl_t = typename std::conditional<std::is_same<T, __half>::value, __half, T>::type;\n\
           T v = p[threadIdx.x];\n\
           p[threadIdx.x] = __shfl_xor((shfl_t)v, 1);\n\
         }\n\
         template __global__ void k<__half>(__half*);",
    );
    assert!(rules(&src, Version::new(5, 2, 3)).contains(&("H035".into(), Severity::Warning)));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("ambiguous"), "{err}");
    let float = src.replace(
        "template __global__ void k<__half>(__half*);",
        "template __global__ void k<float>(float*);",
    );
    let (ok, err) = compile(&cc, &float, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h048_a_lane_0_broadcast_reads_the_wavefront_and_width_32_reads_the_row() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "__global__ void k(float* o) { o[threadIdx.y * 32 + threadIdx.x] = __shfl(o[0], 0); }\n\
         void go(float* o) { dim3 block(32, 8); k<<<1, block>>>(o); }",
    );
    assert!(rules(&src, Version::new(6, 4, 0)).contains(&("H048".into(), Severity::Error)));
    // The permute's byte address starts from the lane's base: 64 lanes (-256) for gfx90a's
    // default width, a 32-lane row (-128) with width 32.
    let ir = device_ir(&cc, &src);
    assert!(ir.contains(", -256") && !ir.contains(", -128"), "{ir}");
    let fixed = with_fixes(&src, Version::new(6, 4, 0));
    assert!(fixed.contains("__shfl(o[0], 0, 32)"), "{fixed}");
    let ir = device_ir(&cc, &fixed);
    assert!(ir.contains(", -128") && !ir.contains(", -256"), "{ir}");
}

#[test]
fn h043_directed_rounding_conversions_round_to_nearest_or_truncate_in_hip_5() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "#include <hip/hip_fp16.h>\n\
         __global__ void k(float* f, int* o, int* p) {\n\
           f[0] = __double2float_rd(0.1);\n\
           o[0] = __half2int_rd(__float2half(-0.5f));\n\
           p[0] = __half2int_rn(__float2half(2.75f));\n\
         }",
    );
    let found = rules(&src, Version::new(5, 2, 3));
    assert_eq!(
        found
            .iter()
            .filter(|r| **r == ("H043".into(), Severity::Warning))
            .count(),
        3,
        "{found:?}"
    );
    // Round to nearest gives 0.1f (0x3FB99999A0000000 as a double constant), where rounding
    // down gives 0x3FB9999980000000; the half conversions truncate -0.5 to 0 and 2.75 to 2.
    let ir = device_ir(&cc, &src);
    assert!(ir.contains("0x3FB99999A0000000"), "{ir}");
    assert!(
        ir.contains("store i32 0,") && ir.contains("store i32 2,"),
        "{ir}"
    );
    // The fix rounds the exact float value: -1 and 3.
    let fixed = with_fixes(&src, Version::new(5, 2, 3));
    assert!(
        fixed.contains("(int)floorf(__half2float(__float2half(-0.5f)))"),
        "{fixed}"
    );
    let ir = device_ir(&cc, &fixed);
    assert!(
        ir.contains("store i32 -1,") && ir.contains("store i32 3,"),
        "{ir}"
    );
}

/// A program that compiles a small kernel with hipRTC once per argument, the argument being the
/// options for that compile separated by `|` (none for an empty argument). Each compile runs in a
/// child process, since some options abort the process inside hipRTC. It prints one line per
/// compile: `ok` or `failed`, `warned` when the log holds a warning (else `clean`), and the target
/// of the code object (`gfx90a`, `-` when there is none); or `crashed` and the signal. The last
/// line is `devices N`, the number of GPUs the HIP runtime sees.
const RTC_DRIVER: &str = r#"#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>
static const char* kSrc =
    "extern \"C\" __global__ void scale(float* x, float a) { x[threadIdx.x] *= a; }";
static void compile(const std::string& arg) {
  std::vector<std::string> parts;
  for (size_t b = 0; b < arg.size();) {
    size_t e = arg.find('|', b);
    if (e == std::string::npos) e = arg.size();
    parts.push_back(arg.substr(b, e - b));
    b = e + 1;
  }
  std::vector<const char*> opts;
  for (const auto& o : parts) opts.push_back(o.c_str());
  hiprtcProgram p;
  if (hiprtcCreateProgram(&p, kSrc, "scale.cu", 0, nullptr, nullptr) != HIPRTC_SUCCESS) _exit(2);
  hiprtcResult r = hiprtcCompileProgram(p, (int)opts.size(), opts.data());
  size_t n = 0;
  hiprtcGetProgramLogSize(p, &n);
  std::vector<char> log(n + 1, 0);
  if (n) hiprtcGetProgramLog(p, log.data());
  std::string target = "-";
  size_t size = 0;
  if (r == HIPRTC_SUCCESS && hiprtcGetCodeSize(p, &size) == HIPRTC_SUCCESS && size) {
    std::vector<char> code(size);
    hiprtcGetCode(p, code.data());
    const std::string text(code.begin(), code.end()), triple = "amdgcn-amd-amdhsa--";
    size_t at = text.find(triple);
    if (at != std::string::npos) {
      size_t b = at + triple.size(), e = b;
      while (e < text.size() && (isalnum((unsigned char)text[e]) || text[e] == ':' ||
                                 text[e] == '+' || text[e] == '-'))
        ++e;
      target = text.substr(b, e - b);
    }
  }
  printf("%s %s %s\n", r == HIPRTC_SUCCESS ? "ok" : "failed",
         strstr(log.data(), "warning:") ? "warned" : "clean", target.c_str());
  hiprtcDestroyProgram(&p);
}
int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
      compile(argv[i]);
      fflush(stdout);
      _exit(0);
    }
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid) return 3;
    if (WIFSIGNALED(status)) printf("crashed %d\n", WTERMSIG(status));
    else if (WEXITSTATUS(status) != 0) return 4;
  }
  int devices = 0;
  if (hipGetDeviceCount(&devices) != hipSuccess) devices = 0;
  printf("devices %d\n", devices);
  return 0;
}
"#;

/// Builds [`RTC_DRIVER`] and returns a function that runs it on a list of compiles, giving one
/// line per compile and the number of GPUs it sees.
fn rtc_driver(
    cc: &PathBuf,
) -> (
    tempfile::TempDir,
    impl Fn(&[String]) -> (Vec<String>, usize),
) {
    let (dir, exe) = build(cc, RTC_DRIVER, &[], "rtc");
    let run = move |args: &[String]| {
        let out = Command::new(&exe)
            .args(args)
            .output()
            .expect("running the hipRTC driver");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(str::to_string)
            .collect();
        let devices = lines
            .pop()
            .and_then(|l| l.strip_prefix("devices ")?.parse().ok())
            .expect("the driver's last line counts devices");
        assert_eq!(lines.len(), args.len(), "{lines:?}");
        (lines, devices)
    };
    (dir, run)
}

#[test]
fn h049_nvrtc_options_fail_or_are_ignored_by_hiprtc_and_the_fixes_compile() {
    let Some(cc) = hipcc() else { return };
    // Every spelling H049 knows, with a value where it takes one.
    let options = [
        "--use_fast_math",
        "-use_fast_math",
        "--fmad=true",
        "--fmad=false",
        "-fmad=false",
        "--ftz=true",
        "--ftz=false",
        "-ftz=true",
        "--relocatable-device-code=true",
        "--relocatable-device-code=false",
        "-rdc=true",
        "-rdc=false",
        "--device-debug",
        "-G",
        "--generate-line-info",
        "-lineinfo",
        "--disable-warnings",
        "--prec-div=false",
        "-prec-div=true",
        "--prec-sqrt=false",
        "-prec-sqrt=false",
        "--maxrregcount=64",
        "-maxrregcount=32",
        "--device-as-default-execution-space",
        "-default-device",
        "--restrict",
        "-restrict",
        "--extensible-whole-program",
        "-ewp",
        "--dopt=on",
        "-dopt=on",
        "--extra-device-vectorization",
        "-extra-device-vectorization",
        "--ptxas-options=-v",
        "-Xptxas=-v",
        "--dlink-time-opt",
        "-dlto",
        "--device-int128",
        "-device-int128",
        "--device-c",
        "-dc",
        "--device-w",
        "-dw",
        "--builtin-initializer-list=false",
        "-builtin-move-forward=false",
        "--diag-suppress=177",
        "-diag-suppress=177",
        "--no-display-error-number",
        "--fdevice-syntax-only",
        "-pch",
        "-time=t.csv",
        "-split-compile=0",
    ];
    let list = options
        .iter()
        .map(|o| format!("\"{o}\""))
        .collect::<Vec<_>>()
        .join(",\n");
    let src = format!(
        "#include <hip/hiprtc.h>\nvoid f(hiprtcProgram p) {{\nconst char* o[] = {{\n{list}}};\nnvrtcCompileProgram(p, {}, o);\n}}\n",
        options.len()
    );
    let tree = hipport::parse::parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
    let opts = AnalysisOptions {
        hip_version: Version::new(5, 2, 3),
        fix: true,
        ..AnalysisOptions::default()
    };
    let diags: Vec<_> = analysis::analyze(src.as_bytes(), &tree, "case.cpp", &opts)
        .into_iter()
        .filter(|d| d.id == "H049")
        .collect();
    // One diagnostic per option, on its own line (the list starts on line 4).
    let lines: Vec<usize> = diags.iter().map(|d| d.line).collect();
    assert_eq!(lines, (4..4 + options.len()).collect::<Vec<_>>());
    let fixes: Vec<String> = diags
        .iter()
        .flat_map(|d| d.fix.iter().map(|e| e.text.to_string()))
        .collect();
    assert_eq!(fixes.len(), 17, "{fixes:?}");

    let (_dir, run) = rtc_driver(&cc);
    // Each option after an AMD target, as a program would pass it.
    let after_target = |opts: &[String]| -> Vec<String> {
        opts.iter()
            .map(|o| format!("--gpu-architecture=gfx90a|{o}"))
            .collect()
    };
    let (results, _) = run(&after_target(
        &options.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
    ));
    for ((opt, d), got) in options.iter().zip(&diags).zip(&results) {
        let want = match d.severity {
            Severity::Error => "failed",
            _ => "ok warned",
        };
        assert!(
            got.starts_with(want),
            "{opt}: analysis says {:?}, hipRTC: {got}",
            d.severity
        );
    }
    // What --fix writes compiles cleanly.
    for (fix, got) in fixes.iter().zip(run(&after_target(&fixes)).0) {
        assert_eq!(got, "ok clean gfx90a", "{fix}");
    }
}

#[test]
fn h039_nvrtc_architecture_spellings_abort_fail_or_are_ignored_by_hiprtc() {
    let Some(cc) = hipcc() else { return };
    // Every spelling of an NVIDIA architecture option, as the strings a program passes.
    let spellings: [&[&str]; 6] = [
        &["-arch=sm_80"],
        &["-arch", "sm_80"],
        &["-arch=compute_80"],
        &["--gpu-architecture=compute_80"],
        &["--gpu-architecture=sm_80"],
        &["--gpu-architecture", "sm_80"],
    ];
    let arrays: String = spellings
        .iter()
        .enumerate()
        .map(|(i, o)| {
            let list = o.iter().map(|x| format!("\"{x}\"")).collect::<Vec<_>>();
            format!(
                "const char* o{i}[] = {{{}}};\nnvrtcCompileProgram(p, {}, o{i});\n",
                list.join(", "),
                o.len()
            )
        })
        .collect();
    let src = format!("#include <nvrtc.h>\nvoid f(nvrtcProgram p) {{\n{arrays}}}\n");
    let tree = hipport::parse::parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
    let opts = AnalysisOptions {
        hip_version: Version::new(5, 2, 3),
        fix: true,
        ..AnalysisOptions::default()
    };
    let diags: Vec<_> = analysis::analyze(src.as_bytes(), &tree, "case.cpp", &opts)
        .into_iter()
        .filter(|d| d.id == "H039")
        .collect();
    // One report per spelling, on its array's line (the first is line 3, then every other).
    let lines: Vec<usize> = diags.iter().map(|d| d.line).collect();
    assert_eq!(
        lines,
        (0..spellings.len()).map(|i| 3 + 2 * i).collect::<Vec<_>>()
    );
    assert!(diags.iter().all(|d| d.fix.is_empty()));

    let (_dir, run) = rtc_driver(&cc);
    let joined: Vec<String> = spellings.iter().map(|o| o.join("|")).collect();
    let mut compiles = Vec::new();
    for j in &joined {
        compiles.push(format!("--gpu-architecture=gfx90a|{j}"));
        compiles.push(format!("{j}|--gpu-architecture=gfx90a"));
        compiles.push(j.clone());
    }
    // No architecture option; `-arch=` with an AMD name; clang's own spelling.
    compiles.extend(["", "-arch=gfx90a", "--offload-arch=gfx90a"].map(String::from));
    let (got, devices) = run(&compiles);
    // Without an AMD target hipRTC compiles for the current device, which needs a GPU.
    let current_device = |line: &str| {
        if devices == 0 {
            line == "failed clean -"
        } else {
            line.starts_with("ok ") && line.contains("gfx")
        }
    };
    for (i, (spelling, d)) in joined.iter().zip(&diags).enumerate() {
        let (after, before, alone) = (&got[3 * i], &got[3 * i + 1], &got[3 * i + 2]);
        let aborts = spelling.starts_with("--gpu-architecture=");
        match d.severity {
            // Ignored with a warning: the AMD target wins, wherever it is.
            Severity::Warning => {
                assert_eq!(after, "ok warned gfx90a", "{spelling}");
                assert_eq!(before, "ok warned gfx90a", "{spelling}");
                assert!(current_device(alone), "{spelling}: {alone}");
            }
            // Taken as the target: given first it aborts the process, after gfx90a it fails.
            Severity::Error if aborts => {
                assert_eq!(after, "failed clean -", "{spelling}");
                assert_eq!(before, "crashed 6", "{spelling}");
                assert_eq!(alone, "crashed 6", "{spelling}");
            }
            // `--gpu-architecture` without `=`: clang rejects it, target or not.
            Severity::Error => {
                assert_eq!(after, "failed clean -", "{spelling}");
                assert_eq!(before, "failed clean -", "{spelling}");
                assert_eq!(alone, "failed clean -", "{spelling}");
            }
            other => panic!("{spelling}: unexpected severity {other:?}"),
        }
    }
    let n = 3 * joined.len();
    assert!(current_device(&got[n]), "no option: {}", got[n]);
    assert!(current_device(&got[n + 1]), "-arch=gfx90a: {}", got[n + 1]);
    assert_eq!(got[n + 2], "ok clean gfx90a");
}

#[test]
fn h041_driver_and_runtime_versions_are_both_hip_version() {
    let Some(cc) = hipcc() else { return };
    // H041's explain page: both queries answer HIP_VERSION (not 4, as HIP 5.2.3's header says).
    let src = case(
        "#include <cstdio>\nint main() { int d = -1, r = -1;\n\
         if (hipDriverGetVersion(&d) != hipSuccess || hipRuntimeGetVersion(&r) != hipSuccess) return 2;\n\
         printf(\"%d %d %d\\n\", d, r, HIP_VERSION); return 0; }",
    );
    let (_dir, exe) = build(&cc, &src, &[], "versions");
    let out = Command::new(&exe)
        .output()
        .expect("running the version program");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(v.len(), 3, "{text}");
    assert!(v[0] == v[2] && v[1] == v[2], "{text}");
    assert!(v[2].parse::<u32>().is_ok_and(|x| x > 50_000_000), "{text}");
}

/// HIP 5.2.3's `hrcp`/`h2rcp` compile to a call its device libraries do not define, so the
/// device link fails; the division H043's help suggests builds.
#[test]
fn h043_hrcp_does_not_link_with_hip_5_2_and_the_division_does() {
    let Some(cc) = hipcc() else { return };
    let src = format!(
        "{HEADER}#include <hip/hip_fp16.h>\n__global__ void k(__half* a, __half2* b) {{ a[1] = hrcp(a[0]); b[1] = h2rcp(b[0]); }}\n"
    );
    let found = rules(&src, Version::new(5, 2, 3));
    assert_eq!(
        found
            .iter()
            .filter(|r| **r == ("H043".to_string(), Severity::Error))
            .count(),
        2,
        "{found:?}"
    );
    assert!(!rules(&src, Version::new(6, 0, 0))
        .iter()
        .any(|r| r.0 == "H043"));
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("__llvm_amdgcn_rcp_f16"), "{err}");
    let fixed = src
        .replace("hrcp(a[0])", "__hdiv(__float2half(1.0f), a[0])")
        .replace("h2rcp(b[0])", "__h2div(__float2half2_rn(1.0f), b[0])");
    let (ok, err) = compile(&cc, &fixed, &[]);
    assert!(ok, "{err}");
}

#[test]
fn h057_memset_params_by_position_fill_other_members_before_hip_7() {
    let Some(cc) = hipcc() else { return };
    let cuda = "#include <cuda_runtime.h>\n\
                constexpr cudaMemsetParams p = {nullptr, 0, 7u, 4u, 256, 1};\n\
                static_assert(p.value == 7u, \"the value, in CUDA's order\");\n";
    assert!(rules(cuda, Version::new(5, 2, 3)).contains(&("H057".into(), Severity::Error)));
    assert!(!rules(cuda, Version::new(7, 0, 0))
        .iter()
        .any(|(id, _)| id == "H057"));
    let hip = translated_for_hip_5_2(cuda);
    // HIP 5.2.3's hipMemsetParams is {dst, elementSize, height, pitch, value, width}: the 7
    // lands in `height`, and the assertion on `value` fails.
    let (ok, err) = compile(&cc, &hip, &[]);
    assert!(
        !ok && (err.contains("static_assert") || err.contains("static assertion")),
        "{err}"
    );
    let (ok, err) = compile(&cc, &hip.replace("p.value == 7u", "p.height == 7u"), &[]);
    assert!(ok, "{err}");
}

#[test]
fn h058_half_raw_braces_convert_a_number_in_hip() {
    let Some(cc) = hipcc() else { return };
    let cuda = "#include <cuda_fp16.h>\n\
                constexpr __half_raw inf = {0x7C00};\n\
                __device__ __half2 pair() { __half2_raw r = {0xFC00, 0xFC00}; return __half2(r); }\n\
                __device__ __half bits() { __half_raw r; r.x = 0x7C00; return __half(r); }\n";
    let found = rules(cuda, Version::new(5, 2, 3));
    assert_eq!(
        found
            .iter()
            .filter(|r| **r == ("H058".into(), Severity::Error))
            .count(),
        2,
        "{found:?}"
    );
    let hip = translated_for_hip_5_2(cuda);
    // HIP takes the bits as the number 31744 (a finite half), not as +infinity.
    let value = hip.replace(
        "__device__ __half2 pair()",
        "static_assert(inf.data == 31744, \"converted as a number\");\n__device__ __half2 pair()",
    );
    let without_pair = value.replace("__half2_raw r = {0xFC00, 0xFC00};", "__half2_raw r;");
    let (ok, err) = compile(&cc, &without_pair, &[]);
    assert!(ok, "{err}\n{without_pair}");
    // Two values do not compile in HIP 5.2.3, and member by member (the help's form) does.
    let (ok, err) = compile(&cc, &hip, &[]);
    assert!(!ok && err.contains("excess elements"), "{err}");
}

#[test]
fn h016_block_tile_memory_has_no_hip_counterpart() {
    let Some(cc) = hipcc() else { return };
    let src = case(
        "#include <hip/hip_cooperative_groups.h>\nnamespace cg = cooperative_groups;\n\
         __global__ void k(float* out) {\n  __shared__ cg::block_tile_memory<256> scratch;\n  auto cta = cg::this_thread_block(scratch);\n  out[0] = cta.size();\n}",
    );
    for hip in [Version::new(5, 2, 3), Version::new(7, 0, 0)] {
        assert!(
            rules(&src, hip).contains(&("H016".into(), Severity::Error)),
            "{hip}"
        );
    }
    let (ok, err) = compile(&cc, &src, &[]);
    assert!(!ok && err.contains("block_tile_memory"), "{err}");
}
