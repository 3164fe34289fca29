//! Every translated corpus program compiles with hipcc for a wave64 (gfx90a) and a wave32
//! (gfx1030) target. In CI (CI=true) a missing hipcc is a failure; elsewhere the test says it
//! was skipped and why.

use std::path::{Path, PathBuf};
use std::process::Command;

use hipport::project::{self, ConvertConfig, OutputMode};
use hipport::translate::{LaunchStyle, Options};
use hipport_rules::Version;

/// Files that cannot compile here, with the reason. Everything else must compile.
const NOT_COMPILED: &[(&str, &str)] = &[
    (
        "programs/cublas_gemm.cu",
        "needs hipBLAS, which Debian does not package",
    ),
    (
        "programs/cub_thrust_sum.cu",
        "needs hipCUB and rocThrust, which Debian does not package",
    ),
    (
        "programs/nvtx_ranges.cu",
        "needs rocTX (roctracer), which Debian does not package",
    ),
    (
        "programs/cufft_roundtrip.cu",
        "needs hipFFT, which Debian does not package",
    ),
    (
        "programs/cusolver_potrf.cu",
        "needs hipSOLVER, which Debian does not package",
    ),
    (
        "programs/cudnn_relu.cu",
        "needs MIOpen, which Debian does not package",
    ),
    (
        "edge/unterminated.cu",
        "deliberately ends inside an unterminated comment",
    ),
];

/// The hipcc to use, or `None` (outside CI) when it is missing.
pub fn hipcc() -> Option<PathBuf> {
    let found = Command::new("hipcc").arg("--version").output().is_ok()
        || Path::new("/usr/bin/hipcc").exists();
    if found {
        return Some(PathBuf::from("hipcc"));
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("hipcc is not installed, and CI=true: .ci/run must install hipcc libamdhip64-dev rocm-device-libs");
    }
    eprintln!(
        "SKIPPED: hipcc is not installed (apt-get install hipcc libamdhip64-dev rocm-device-libs)"
    );
    None
}

#[test]
fn translated_programs_compile_for_gfx90a_and_gfx1030() {
    let Some(hipcc) = hipcc() else { return };
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let tmp = tempfile::tempdir().unwrap();
    let mut jobs = Vec::new();
    for (group, launch) in [("programs", LaunchStyle::Keep), ("edge", LaunchStyle::Hip)] {
        let out = tmp.path().join(group);
        let mut cfg = ConvertConfig::new(
            vec![repo.join("corpus").join(group)],
            OutputMode::Dir(out.clone()),
        );
        cfg.translate = Options {
            hip_version: Version::new(5, 2, 3),
            launch,
            ..Options::default()
        };
        let report = project::convert(&cfg, false).unwrap();
        for f in &report.files {
            if !f.path.ends_with(".cu") {
                continue;
            }
            let key = format!("{group}/{}", f.path);
            if NOT_COMPILED.iter().any(|(k, _)| *k == key) {
                continue;
            }
            jobs.push((key, out.join(&f.path)));
        }
    }
    assert!(
        jobs.len() >= 6,
        "too few programs to compile: {}",
        jobs.len()
    );
    let failures: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = jobs
            .chunks(jobs.len().div_ceil(2))
            .map(|chunk| {
                let hipcc = &hipcc;
                let dir = tmp.path();
                s.spawn(move || {
                    let mut fails = Vec::new();
                    for (key, path) in chunk {
                        let obj = dir.join(format!("{}.o", key.replace('/', "_")));
                        let out = Command::new(hipcc)
                            .args(["--offload-arch=gfx90a", "--offload-arch=gfx1030", "-c"])
                            .arg(path)
                            .arg("-o")
                            .arg(&obj)
                            .output()
                            .expect("hipcc runs");
                        if !out.status.success() {
                            fails.push(format!("{key}:\n{}", String::from_utf8_lossy(&out.stderr)));
                        }
                    }
                    fails
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().unwrap())
            .collect()
    });
    assert!(
        failures.is_empty(),
        "hipcc failed:\n{}",
        failures.join("\n")
    );
}

/// Compiles `path` with hipcc for both targets; returns the error text on failure.
fn hipcc_compile(hipcc: &Path, path: &Path, obj: &Path) -> Result<(), String> {
    let out = Command::new(hipcc)
        .args(["--offload-arch=gfx90a", "--offload-arch=gfx1030", "-c"])
        .arg(path)
        .arg("-o")
        .arg(obj)
        .output()
        .expect("hipcc runs");
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

/// The CUDA 11.8 header tree built by `scripts/cuda-headers.sh`, or `None` (outside CI) when
/// it is missing.
fn cuda_path() -> Option<PathBuf> {
    let p = std::env::var_os("HIPPORT_CUDA_PATH").map(PathBuf::from);
    match p {
        Some(p) if p.join("include/cuda_runtime.h").exists() => Some(p),
        _ if std::env::var("CI").is_ok_and(|v| v == "true") => {
            panic!("HIPPORT_CUDA_PATH does not point at a CUDA header tree; .ci/run builds one with scripts/cuda-headers.sh")
        }
        _ => {
            eprintln!("SKIPPED: set HIPPORT_CUDA_PATH to a CUDA header tree (scripts/cuda-headers.sh DIR) to run the CUDA side");
            None
        }
    }
}

/// Single-source mode: the same output compiles with hipcc and still passes clang's CUDA check.
#[test]
fn header_mode_output_builds_for_hip_and_cuda() {
    let Some(hipcc) = hipcc() else { return };
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join("programs");
    let mut cfg = ConvertConfig::new(
        vec![repo.join("corpus/programs")],
        OutputMode::Dir(out.clone()),
    );
    cfg.mode = project::Mode::Header;
    cfg.translate = Options {
        hip_version: Version::new(5, 2, 3),
        ..Options::default()
    };
    let report = project::convert(&cfg, false).unwrap();
    assert!(out.join("hipport_compat.h").exists());
    let mut compiled = 0;
    let mut failures = Vec::new();
    for f in &report.files {
        let key = format!("programs/{}", f.path);
        if !f.path.ends_with(".cu") || NOT_COMPILED.iter().any(|(k, _)| *k == key) {
            continue;
        }
        let src = std::fs::read_to_string(out.join(&f.path)).unwrap();
        assert!(
            src.contains("#include \"hipport_compat.h\""),
            "{key} does not include the compat header"
        );
        assert!(
            !src.contains("hipMalloc"),
            "{key}: header mode must not rename in the source"
        );
        if let Err(e) = hipcc_compile(
            &hipcc,
            &out.join(&f.path),
            &tmp.path().join(format!("{compiled}.o")),
        ) {
            failures.push(format!("{key} (hipcc):\n{e}"));
        }
        compiled += 1;
    }
    assert!(compiled >= 4, "too few programs compiled: {compiled}");
    if let Some(cuda) = cuda_path() {
        let check = |path: &Path| {
            Command::new("clang-15")
                .args([
                    "-x",
                    "cuda",
                    "--cuda-gpu-arch=sm_70",
                    "-fsyntax-only",
                    "-Wno-unknown-cuda-version",
                ])
                .arg(format!("--cuda-path={}", cuda.display()))
                .arg(path)
                .output()
                .expect("clang-15 runs")
        };
        let mut checked = 0;
        for f in &report.files {
            if !f.path.ends_with(".cu") {
                continue;
            }
            // Where the original is valid CUDA here, the single-source output must stay so.
            if !check(&repo.join("corpus/programs").join(&f.path))
                .status
                .success()
            {
                continue;
            }
            checked += 1;
            let o = check(&out.join(&f.path));
            if !o.status.success() {
                failures.push(format!(
                    "programs/{} (clang CUDA):\n{}",
                    f.path,
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
        }
        assert!(
            checked >= 4,
            "too few programs pass the CUDA check before conversion: {checked}"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Files for the header-mode checks: each one a case the tester found broken.
const HEADER_MODE_CASES: &[(&str, &str)] = &[
    // No include at all: nvcc adds the runtime itself, hipcc does not.
    (
        "kern.cu",
        "__global__ void scale(float* x, float a, int n) {\n  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) x[i] *= a;\n}\n",
    ),
    (
        "sub/shfl.cu",
        "// Sum a warp.\n__global__ void wsum(float* x) {\n  float v = x[threadIdx.x];\n  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);\n  if (threadIdx.x == 0) x[0] = v;\n}\n",
    ),
    // CUDART_CB stays in the source; the header defines it away on AMD.
    (
        "cb.cu",
        "#include <cuda_runtime.h>\n#include <cstdio>\nstatic void CUDART_CB done(cudaStream_t s, cudaError_t st, void*) { std::printf(\"%d\\n\", (int)st); }\nvoid go(cudaStream_t s) {\n  cudaEvent_t e;\n  cudaEventCreate(&e, cudaEventDisableTiming);\n  cudaStreamAddCallback(s, done, nullptr, 0);\n}\n",
    ),
    // Thread and block indices passed to printf and min: HIP's index objects need a cast.
    (
        "idx.cu",
        "#include <cstdio>\n__global__ void k(int n) {\n  if (threadIdx.x == 0) printf(\"block %u of %u, n %d\\n\", blockIdx.x, gridDim.x, min(blockDim.x, n));\n}\n",
    ),
    // A call with no arguments.
    (
        "a.cu",
        "#include <cuda_runtime.h>\n__global__ void k(unsigned long long* o) { o[threadIdx.x] = __activemask(); }\n",
    ),
    // The file's own tests of __CUDACC__, and a library header included after the compat
    // header that tests it too (GLM's pattern: `#if defined(__CUDACC__)` -> `#include <cuda.h>`).
    (
        "macros.cu",
        "#include <cuda_runtime.h>\n#include <glmlike/setup.hpp>\n#ifdef __CUDACC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n#ifndef __CUDACC__\n#error not a GPU compiler\n#elif defined(__CUDACC__) && !defined LIB_COMPILER_CUDA && !defined LIB_COMPILER_HIP\n#error the library saw no GPU compiler\n#endif\nHD inline float sq(float x) { return x * x; }\n__global__ void k(float* x) { x[threadIdx.x] = sq(x[threadIdx.x]); }\n",
    ),
    // Template arguments hold commas the preprocessor splits on: the header's counted macros
    // would take `scale<float, 256>` for two arguments.
    (
        "tmpl.cu",
        "#include <cuda_runtime.h>\ntemplate <typename T, int B> __global__ void scale(T* p, T a) { p[threadIdx.x] *= a; }\n\
         int main() {\n  int minGrid, block, perSm;\n\
         \x20 cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, scale<float, 256>, 0, 0);\n\
         \x20 cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, scale<float, 256>, 256, 0);\n\
         \x20 cudaFuncSetAttribute(scale<float, 256>, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);\n\
         \x20 return 0;\n}\n",
    ),
    // HIP has no __syncwarp at any version.
    (
        "sw.cu",
        "#include <cuda_runtime.h>\n__global__ void k(float* x) {\n  __shared__ float s[64];\n  s[threadIdx.x] = x[threadIdx.x];\n  __syncwarp();\n  x[threadIdx.x] = s[threadIdx.x ^ 1];\n  __syncwarp(0xffffffff);\n}\n",
    ),
];

/// A stand-in for an installed third-party header that tests compiler macros.
const GLM_LIKE: &str = "#pragma once\n#if defined(__CUDACC__)\n#  if !defined(CUDA_VERSION)\n#    include <cuda.h>\n#  endif\n#  define LIB_COMPILER_CUDA 1\n#elif defined(__HIP__)\n#  define LIB_COMPILER_HIP 1\n#endif\n";

/// Header mode's fixes, checked with the compilers: every case compiles with hipcc, and passes
/// clang's CUDA check where a CUDA header tree is available; a second run changes nothing.
#[test]
fn header_mode_cases_build_for_hip_and_cuda() {
    let Some(hipcc) = hipcc() else { return };
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("src");
    for (rel, text) in HEADER_MODE_CASES {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let sysinc = tmp.path().join("sysinc");
    std::fs::create_dir_all(sysinc.join("glmlike")).unwrap();
    std::fs::write(sysinc.join("glmlike/setup.hpp"), GLM_LIKE).unwrap();
    let out = tmp.path().join("out");
    let cfg = |input: &Path, out: &Path| {
        let mut cfg = ConvertConfig::new(vec![input.to_path_buf()], OutputMode::Dir(out.into()));
        cfg.mode = project::Mode::Header;
        cfg.translate = Options {
            hip_version: Version::new(5, 2, 3),
            ..Options::default()
        };
        cfg
    };
    project::convert(&cfg(&src, &out), false).unwrap();
    let header = std::fs::read_to_string(out.join("hipport_compat.h")).unwrap();
    assert!(!header.contains("__CUDACC__"), "{header}");
    let mut failures = Vec::new();
    for (i, (rel, _)) in HEADER_MODE_CASES.iter().enumerate() {
        let o = Command::new(&hipcc)
            .args(["--offload-arch=gfx90a", "--offload-arch=gfx1030", "-c"])
            .arg(format!("-I{}", sysinc.display()))
            .arg(out.join(rel))
            .arg("-o")
            .arg(tmp.path().join(format!("{i}.o")))
            .output()
            .expect("hipcc runs");
        if !o.status.success() {
            failures.push(format!(
                "{rel} (hipcc):\n{}",
                String::from_utf8_lossy(&o.stderr)
            ));
        }
    }
    if let Some(cuda) = cuda_path() {
        for (rel, _) in HEADER_MODE_CASES {
            let o = Command::new("clang-15")
                .args([
                    "-x",
                    "cuda",
                    "--cuda-gpu-arch=sm_80",
                    "-fsyntax-only",
                    "-Wno-unknown-cuda-version",
                ])
                .arg(format!("--cuda-path={}", cuda.display()))
                .arg(format!("-I{}", sysinc.display()))
                .arg(out.join(rel))
                .output()
                .expect("clang-15 runs");
            if !o.status.success() {
                failures.push(format!(
                    "{rel} (clang CUDA):\n{}",
                    String::from_utf8_lossy(&o.stderr)
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // Header mode on its own output changes nothing.
    let again = tmp.path().join("again");
    project::convert(&cfg(&out, &again), false).unwrap();
    for (rel, _) in HEADER_MODE_CASES.iter().chain(&[("hipport_compat.h", "")]) {
        assert_eq!(
            std::fs::read(out.join(rel)).unwrap(),
            std::fs::read(again.join(rel)).unwrap(),
            "{rel} changed on a second run"
        );
    }
}

/// A call with a rule for no arguments and rules for some is dispatched on a count that tells
/// an empty list from one argument (`HIPPORT_NARG0`), and hipcc takes both forms.
#[test]
fn header_mode_dispatches_zero_and_more_arguments() {
    let Some(hipcc) = hipcc() else { return };
    let db = hipport_rules::Database::builtin()
        .with_overrides(&[(
            "x.tsv",
            "cuda\targc\ttemplate\thip_added\thip_before\tsource\tnote\n\
             cudaThing\t0\thipDeviceSynchronize()\t1.0.0\t\ttest\t\n\
             cudaThing\t1\thipStreamSynchronize($1)\t1.0.0\t\ttest\t\n",
        )])
        .unwrap();
    let needs = hipport::header_mode::Needs {
        calls: vec!["cudaThing".into()],
        ..Default::default()
    };
    let header = hipport::header_mode::compat_header(&needs, &db, Version::new(5, 2, 3));
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("hipport_compat.h"), header).unwrap();
    let src = tmp.path().join("t.cu");
    std::fs::write(
        &src,
        "#include \"hipport_compat.h\"\nhipError_t f(hipStream_t s) { hipError_t a = cudaThing(); hipError_t b = cudaThing(s); return a == hipSuccess ? b : a; }\n",
    )
    .unwrap();
    let obj = tmp.path().join("t.o");
    if let Err(e) = hipcc_compile(&hipcc, &src, &obj) {
        panic!("hipcc:\n{e}");
    }
}

/// libcu++ code that uses only the parts with a device-usable standard form (limits, tuple,
/// complex, cmath, array, functional, optional, cstdint): translated, it compiles with hipcc as
/// C++17 for both targets, with `cuda::std` turned into `std` and the headers into the standard
/// ones.
#[test]
fn translated_libcudacxx_std_code_compiles() {
    let Some(hipcc) = hipcc() else { return };
    let src = "#include <cuda/std/limits>\n#include <cuda/std/tuple>\n#include <cuda/std/complex>\n\
#include <cuda/std/cmath>\n#include <cuda/std/array>\n#include <cuda/std/functional>\n\
#include <cuda/std/optional>\n#include <cuda/std/cstdint>\n#include <cuda/std/type_traits>\n\
#include <cuda_runtime.h>\n\
namespace cs = cuda::std;\n\
__device__ cuda::std::tuple<float, float> order(float a, float b) {\n\
  return a < b ? cuda::std::make_tuple(a, b) : cuda::std::make_tuple(b, a);\n}\n\
__global__ void k(float* x, cuda::std::complex<float>* z, cuda::std::int64_t* q, int n) {\n\
  static_assert(cuda::std::is_same<cs::int32_t, int>::value, \"int32_t\");\n\
  int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
  if (i >= n) return;\n\
  float lo = -cuda::std::numeric_limits<float>::infinity();\n\
  auto t = order(x[i], lo);\n\
  z[i] *= cuda::std::polar(1.0f, cuda::std::get<0>(t));\n\
  cuda::std::array<float, 2> a{cuda::std::fmax(x[i], 0.f), cs::abs(z[i])};\n\
  cuda::std::optional<float> o = a[1];\n\
  x[i] = cuda::std::plus<float>{}(a[0], o.value_or(0.f));\n\
  q[i] = cuda::std::numeric_limits<cuda::std::int64_t>::max();\n}\n\
int main() {\n  float* x;\n  cudaMalloc(&x, 64 * sizeof(float));\n\
  k<<<1, 64>>>(x, nullptr, nullptr, 64);\n  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;\n}\n";
    let opts = Options {
        hip_version: Version::new(5, 2, 3),
        ..Options::default()
    };
    let r = hipport::translate::translate_source(src.as_bytes(), "lib.cu", &opts).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        !out.contains("cuda::std") && !out.contains("cuda/std"),
        "{out}"
    );
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("lib.hip");
    std::fs::write(&path, &out).unwrap();
    let status = Command::new(&hipcc)
        .args([
            "-std=c++17",
            "--offload-arch=gfx90a",
            "--offload-arch=gfx1030",
            "-c",
        ])
        .arg(&path)
        .arg("-o")
        .arg(tmp.path().join("lib.o"))
        .output()
        .expect("hipcc runs");
    assert!(
        status.status.success(),
        "hipcc failed on\n{out}\n{}",
        String::from_utf8_lossy(&status.stderr)
    );
}

/// An include of `cooperative_groups/reduce.h` in a file that calls nothing it declares (the
/// 3D Gaussian splatting rasterizer) becomes HIP's cooperative-groups header, and the file
/// compiles; one that calls `cg::reduce` keeps the include, whose T007 error is folded into the
/// H044 error at the call (which says to remove the include on line 2).
#[test]
fn an_unused_cooperative_groups_reduce_include_compiles() {
    let Some(hipcc) = hipcc() else { return };
    let src = "#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* x) {\n  auto block = cg::this_thread_block();\n  x[cg::this_grid().thread_rank()] = 1.f;\n  block.sync();\n}\n";
    let opts = Options {
        hip_version: Version::new(5, 2, 3),
        ..Options::default()
    };
    let r = hipport::translate::translate_source(src.as_bytes(), "k.cu", &opts).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    assert!(!out.contains("reduce.h"), "{out}");
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("k.hip");
    std::fs::write(&path, &out).unwrap();
    if let Err(e) = hipcc_compile(&hipcc, &path, &tmp.path().join("k.o")) {
        panic!("{e}\n{out}");
    }
    let used = src.replace(
        "  block.sync();\n",
        "  float s = cg::reduce(cg::tiled_partition<32>(block), x[0], cg::plus<float>());\n",
    );
    let r = hipport::translate::translate_source(used.as_bytes(), "k.cu", &opts).unwrap();
    assert!(
        r.diagnostics.iter().any(|d| d.id == "H044"
            && d.severity == hipport::diag::Severity::Error
            && d.message
                .contains("`#include <cooperative_groups/reduce.h>` on line 2")),
        "{:?}",
        r.diagnostics
    );
}

/// A full-warp `__syncwarp()` translated for HIP before 7.0 keeps a shared-memory exchange in
/// order: in hipcc's `-O3` assembly the store of a lane's slot comes before the load of another
/// lane's. With the call removed (hipport before J-s), hipcc 5.2.3 moved the load above the store
/// on gfx90a and gfx1030, and every lane read stale memory.
#[test]
fn a_translated_syncwarp_keeps_the_shared_memory_store_before_the_load() {
    let Some(hipcc) = hipcc() else {
        return;
    };
    let cuda = "#include <cuda_runtime.h>\n#define SYNC() __syncwarp()\n\
                __global__ void xchg(const int* in, int* out) {\n  __shared__ int s[512];\n  int t = threadIdx.x;\n\
                \x20 s[t] = in[t] * 3;\n  __syncwarp();\n  out[t] = s[t + 16];\n}\n\
                __global__ void forms(int* out) {\n  __shared__ int s[64];\n  int t = threadIdx.x;\n\
                \x20 s[t] = t;\n  if (t < 64) __syncwarp(0xffffffff);\n  SYNC();\n  out[t] = (__syncwarp(), s[t ^ 1]);\n}\n";
    let dir = tempfile::tempdir().unwrap();
    for hip in [Version::new(5, 2, 3), Version::new(6, 2, 0)] {
        let opts = Options {
            hip_version: hip,
            ..Options::default()
        };
        let out = hipport::translate::translate_source(cuda.as_bytes(), "x.cu", &opts).unwrap();
        let text = String::from_utf8(out.output).unwrap();
        assert!(!text.contains("__syncwarp"), "{text}");
        let file = dir.path().join("x.hip");
        std::fs::write(&file, &text).unwrap();
        for arch in ["gfx90a", "gfx1030"] {
            let asm = dir.path().join(format!("x-{arch}.s"));
            let o = Command::new(&hipcc)
                .args([
                    &format!("--offload-arch={arch}"),
                    "-O3",
                    "-S",
                    "--cuda-device-only",
                ])
                .arg(&file)
                .arg("-o")
                .arg(&asm)
                .output()
                .expect("hipcc runs");
            assert!(
                o.status.success(),
                "{arch}: {}\n{text}",
                String::from_utf8_lossy(&o.stderr)
            );
            let asm = std::fs::read_to_string(&asm).unwrap();
            // The kernel's own instructions: from its label to the end of its function.
            let body = asm
                .split("_Z4xchgPKiPi:")
                .nth(1)
                .and_then(|b| b.split(".Lfunc_end").next())
                .expect("the xchg kernel in the assembly");
            let write = body.find("ds_write_b32").expect("a shared-memory store");
            let read = body.find("ds_read_b32").expect("a shared-memory load");
            assert!(
                write < read,
                "HIP {hip}, {arch}: the load of another lane's slot comes before the store:\n{body}"
            );
        }
    }
}
