//! Unit-level behaviour of the translation pass on small inputs.

use hipport::diag::Severity;
use hipport::translate::{translate_source, LaunchStyle, Options};
use hipport_rules::Version;

fn tr(src: &str, opts: &Options) -> (String, Vec<String>) {
    tr_at("t.cu", src, opts)
}

/// [`tr`] for a file of another name (a header: `t.h`).
fn tr_at(file: &str, src: &str, opts: &Options) -> (String, Vec<String>) {
    let r = translate_source(src.as_bytes(), file, opts).expect("translates");
    let diags = r
        .diagnostics
        .iter()
        .map(|d| format!("{}:{}:{}", d.id, d.line, d.column))
        .collect();
    (String::from_utf8(r.output).unwrap(), diags)
}

fn hip52() -> Options {
    Options {
        hip_version: Version::new(5, 2, 3),
        ..Options::default()
    }
}

#[test]
fn renames_calls_types_enums_not_comments_strings_or_members() {
    let src = "#include <cuda_runtime.h>\n// cudaMalloc in a comment\nvoid f(float *p, S s) {\n  cudaError_t e = cudaMalloc(&p, 4);\n  const char *m = \"cudaMalloc\";\n  s.cudaMalloc = 1; s->cudaFree(p);\n  cudaMemcpy(p, p, 4, cudaMemcpyHostToDevice);\n  my_cudaMalloc(); CUDA_CHECK(x); cuda_stream = 0;\n}\n";
    let (out, _) = tr(src, &Options::default());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n// cudaMalloc in a comment\nvoid f(float *p, S s) {\n  hipError_t e = hipMalloc(&p, 4);\n  const char *m = \"cudaMalloc\";\n  s.cudaMalloc = 1; s->cudaFree(p);\n  hipMemcpy(p, p, 4, hipMemcpyHostToDevice);\n  my_cudaMalloc(); CUDA_CHECK(x); cuda_stream = 0;\n}\n"
    );
}

#[test]
fn macro_bodies_and_conditions_are_renamed_version_macros_are_not() {
    let src = "#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) puts(\"cudaSuccess\"); } while (0)\n#if CUDA_VERSION >= 11000 && defined(cudaStreamPerThread)\n#endif\n";
    let (out, _) = tr(src, &Options::default());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#define CHECK(x) do { hipError_t e = (x); if (e != hipSuccess) puts(\"cudaSuccess\"); } while (0)\n#if CUDA_VERSION >= 11000 && defined(hipStreamPerThread)\n#endif\n"
    );
}

#[test]
fn duplicate_headers_collapse_and_runtime_include_is_added() {
    let (out, _) = tr(
        "#include <cuda.h>\n#include <cuda_runtime.h>\n#include \"local.cuh\"\n",
        &Options::default(),
    );
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#include \"local.cuh\"\n"
    );
    let (out, _) = tr(
        "#pragma once\n__device__ int f() { return threadIdx.x; }\n",
        &Options::default(),
    );
    assert_eq!(
        out,
        "#pragma once\n#include <hip/hip_runtime.h>\n__device__ int f() { return threadIdx.x; }\n"
    );
    let (out, _) = tr(
        "#ifndef A_H\n#define A_H\n__device__ int f();\n#endif\n",
        &Options::default(),
    );
    assert_eq!(
        out,
        "#ifndef A_H\n#define A_H\n#include <hip/hip_runtime.h>\n__device__ int f();\n#endif\n"
    );
    let (out, _) = tr("// c\r\n__global__ void k() {}\r\n", &Options::default());
    assert_eq!(
        out,
        "// c\r\n#include <hip/hip_runtime.h>\r\n__global__ void k() {}\r\n"
    );
}

#[test]
fn the_runtime_include_goes_before_a_cooperative_groups_include_that_comes_first() {
    // HIP 5's hip_cooperative_groups.h does not include the runtime it needs; the runtime's
    // include later in the same scope collapses into the one added, with the blank line after it
    // kept. A second run changes nothing.
    let src = "#include <cooperative_groups.h>\n#include <cstdio>\n#include <cuda_runtime.h>\n\n__global__ void k() {}\n";
    let (out, _) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n#include <cstdio>\n\n__global__ void k() {}\n"
    );
    assert_eq!(tr(&out, &hip52()).0, out);
    // Inside a branch it goes into the branch; with the runtime first nothing is added.
    let src =
        "#ifdef USE_CG\n  #include <cooperative_groups.h>\n#endif\n#include <cuda_runtime.h>\n";
    let (out, _) = tr(src, &hip52());
    assert_eq!(
        out,
        "#ifdef USE_CG\n#include <hip/hip_runtime.h>\n  #include <hip/hip_cooperative_groups.h>\n#endif\n#include <hip/hip_runtime.h>\n"
    );
    let src = "#include <cuda_runtime.h>\n#include <cooperative_groups.h>\n";
    let (out, _) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"
    );
}

#[test]
fn bf16_round_to_nearest_conversions_become_the_forms_hip_has() {
    let src = "#include <cuda_bf16.h>\n__global__ void k(const float2* in, __nv_bfloat162* out, __nv_bfloat16* o, float s) {\n  out[0] = __floats2bfloat162_rn(in[0].x, in[0].y);\n  out[1] = __float2bfloat162_rn(s);\n  o[0] = __float2bfloat16_rn(in[1].x * s);\n}\n";
    let at = |minor| Options {
        hip_version: Version::new(6, minor, 0),
        ..Options::default()
    };
    let (out, diags) = tr(src, &at(2));
    assert!(
        out.contains("out[0] = __float22bfloat162_rn(make_float2(in[0].x, in[0].y));\n  out[1] = __bfloat162bfloat162(__float2bfloat16(s));\n  o[0] = __float2bfloat16(in[1].x * s);"),
        "{out}"
    );
    assert!(!diags.iter().any(|d| d.starts_with("T001")), "{diags:?}");
    // HIP 6.0 has __float22bfloat162_rn but not (as dated) __bfloat162bfloat162.
    let (out, _) = tr(src, &at(0));
    assert!(
        out.contains("__float2bfloat162_rn(s)")
            && out.contains("o[0] = __float2bfloat16(in[1].x * s)"),
        "{out}"
    );
    // The name says which release its rewrite needs (T002), not that HIP has none (T001).
    let r = translate_source(src.as_bytes(), "t.cu", &at(0)).unwrap();
    let reports: Vec<(&str, usize, &str)> = r
        .diagnostics
        .iter()
        .filter(|d| d.id.starts_with('T'))
        .map(|d| (d.id.as_str(), d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        reports,
        [(
            "T002",
            4,
            "`__float2bfloat162_rn(s)` becomes `__bfloat162bfloat162(__float2bfloat16(s))` only from HIP 6.2.0; the target is HIP 6.0.0"
        )]
    );
    assert_eq!(
        r.diagnostics
            .iter()
            .find(|d| d.id == "T002")
            .and_then(|d| d.help.as_deref()),
        Some("target a newer HIP with `--hip-version 6.2`, or avoid `__float2bfloat162_rn`")
    );
    let (_, diags) = tr(src, &at(1));
    assert!(diags.contains(&"T002:4:12".to_string()), "{diags:?}");
    // HIP 5.2 has no bfloat16 type of this kind: every one is reported, none rewritten, each
    // with the release its rewrite needs.
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("__float2bfloat16_rn(in[1].x * s)"), "{out}");
    assert!(!diags.iter().any(|d| d.starts_with("T001")), "{diags:?}");
    for at in ["T002:3:12", "T002:4:12", "T002:5:10"] {
        assert!(diags.contains(&at.to_string()), "{diags:?}");
    }
    // A call with an argument count no rule has gets no such promise.
    let (_, diags) = tr(
        "__global__ void k(float* s) { __float2bfloat162_rn(s[0], s[1]); }\n",
        &at(0),
    );
    assert_eq!(diags, ["T001:1:31"]);
}

#[test]
fn launches_become_hip_launch_kernel_ggl() {
    let opts = Options {
        launch: LaunchStyle::Hip,
        ..Options::default()
    };
    let src = "#include <hip/hip_runtime.h>\nvoid f() {\n  k<T, (N > 4)><<<g, b>>>(x);\n  ns::k<T><<<(n + 255) / 256, 256, 0, cudaStreamPerThread>>>(x, y);\n  k<<<1, 1, smem>>>();\n  auto l = [&] { k<<<1, 2>>>(x); };\n}\n";
    let (out, _) = tr(src, &opts);
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\nvoid f() {\n  hipLaunchKernelGGL(HIP_KERNEL_NAME(k<T, (N > 4)>), dim3(g), dim3(b), 0, 0, x);\n  hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::k<T>), dim3((n + 255) / 256), dim3(256), 0, hipStreamPerThread, x, y);\n  hipLaunchKernelGGL(k, dim3(1), dim3(1), smem, 0);\n  auto l = [&] { hipLaunchKernelGGL(k, dim3(1), dim3(2), 0, 0, x); };\n}\n"
    );
}

#[test]
fn warp_sync_builtins_follow_the_target_hip() {
    let src = "#define FULL 0xffffffff\n__device__ float f(float v, unsigned m) {\n  v += __shfl_down_sync(0xffffffff, v, 16);\n  v += __shfl_xor_sync(FULL, v, 1);\n  __syncwarp();\n  return v + __shfl_sync(m, v, 0);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("v += __shfl_down(v, 16);"), "{out}");
    assert!(out.contains("v += __shfl_xor(v, 1);"), "{out}");
    assert!(!out.contains("__syncwarp"), "{out}");
    assert!(out.contains("__shfl_sync(m, v, 0)"), "{out}");
    assert!(diags.iter().any(|d| d.starts_with("T009:6:")), "{diags:?}");
    let (out, _) = tr(
        src,
        &Options {
            hip_version: Version::new(6, 2, 0),
            ..Options::default()
        },
    );
    assert!(
        out.contains("__shfl_down_sync(0xffffffffffffffffull, v, 16)"),
        "{out}"
    );
    assert!(out.contains("#define FULL 0xffffffffffffffffull"), "{out}");
    // HIP 6.2 has no `__syncwarp` either (it came with 7.0): a fence pair at 6.2 too.
    assert!(!out.contains("__syncwarp"), "{out}");
}

#[test]
fn full_warp_syncwarp_becomes_a_wavefront_fence_pair_wherever_it_stands() {
    let fence = hipport::translate::WAVEFRONT_SYNC;
    let src = "#define FULL 0xffffffffu
#define SYNC() __syncwarp()
#define SYNC2 do { __syncwarp(); } while (0)
\
__global__ void k(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
\
  s[t] = in[t];
  __syncwarp();
  out[t] = s[t ^ 1];
  if (t < 64) __syncwarp(FULL);
\
  int x = (__syncwarp(0xffffffff), s[t ^ 2]);
  SYNC();
  SYNC2;
  out[t] += x;
}
";
    for hip in [Version::new(5, 2, 3), Version::new(6, 2, 0)] {
        let opts = Options {
            hip_version: hip,
            ..Options::default()
        };
        let (out, diags) = tr(src, &opts);
        assert!(!out.contains("__syncwarp"), "{out}");
        assert!(
            out.contains(&format!("#define SYNC() {fence}\n"))
                && out.contains(&format!("do {{ {fence}; }} while (0)"))
                && out.contains(&format!("  {fence};\n  out[t] = s[t ^ 1];"))
                && out.contains(&format!("if (t < 64) {fence};"))
                && out.contains(&format!("int x = ({fence}, s[t ^ 2]);")),
            "{out}"
        );
        assert_eq!(
            diags.iter().filter(|d| d.starts_with("T010:")).count(),
            5,
            "{diags:?}"
        );
        assert!(!diags.iter().any(|d| d.starts_with("T002:")), "{diags:?}");
        // Converting the output again changes nothing.
        assert_eq!(tr(&out, &opts).0, out);
    }
    // HIP 7.0 has its own `__syncwarp` (the same fences): it stays, its mask widened.
    let (out, diags) = tr(
        src,
        &Options {
            hip_version: Version::new(7, 0, 0),
            ..Options::default()
        },
    );
    assert!(!out.contains("amdgcn"), "{out}");
    assert!(out.contains("  __syncwarp();\n") && out.contains("#define SYNC() __syncwarp()"));
    assert!(!diags.iter().any(|d| d.starts_with("T010:")), "{diags:?}");
}

#[test]
fn a_call_rule_in_a_macro_body_counts_template_arguments_as_one_argument() {
    // `k<N, M>` is one argument: the three-argument rule applies, and T013 says so.
    let src = "template <int A, int B> __global__ void k(float* o) {}\n\
#define SET(N, M) cudaFuncSetAttribute(k<N, M>, cudaFuncAttributeMaxDynamicSharedMemorySize, SMEM);\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("hipFuncSetAttribute(k<N, M>,"), "{out}");
    assert!(diags.iter().any(|d| d.starts_with("T013:2:")), "{diags:?}");
}

#[test]
fn launches_inside_macro_bodies_are_rewritten_with_their_lines_kept() {
    let opts = Options {
        launch: LaunchStyle::Hip,
        ..Options::default()
    };
    let src = "#define FILL(p) ns::fill<float><<<1, 32>>>(p)\n#define RUN(p) do { \\\n  k<<<g,\\\n      b, 0, s>>>(p); \\\n} while (0)\n";
    let (out, diags) = tr(src, &opts);
    assert_eq!(
        out,
        "#define FILL(p) hipLaunchKernelGGL(HIP_KERNEL_NAME(ns::fill<float>), dim3(1), dim3(32), 0, 0, p)\n#define RUN(p) do { \\\n  hipLaunchKernelGGL(k, dim3(g), dim3(\\\n      b), 0, s, p); \\\n} while (0)\n"
    );
    assert!(diags.is_empty(), "{diags:?}");
    let (out, diags) = tr("#define HALF(k) k<<<\n", &opts);
    assert_eq!(out, "#define HALF(k) k<<<\n");
    assert_eq!(diags, vec!["T011:1:17".to_string()]);
}

#[test]
fn full_mask_spellings_become_plain_warp_builtins_on_old_hip() {
    // The same predicate decides here and in hazard H003, so the two never disagree.
    for mask in [
        "0xffffffff",
        "0xFFFFFFFFu",
        "(~0u)",
        "-1",
        "static_cast<unsigned>(-1)",
        "(unsigned)-1",
        "ALL",
    ] {
        let src = format!("#define ALL (~0u)\n__device__ int f(int v) {{ return __shfl_xor_sync({mask}, v, 1); }}\n");
        let (out, diags) = tr(&src, &hip52());
        assert!(out.contains("return __shfl_xor(v, 1);"), "{mask}: {out}");
        assert!(diags.is_empty(), "{mask}: {diags:?}");
    }
    for mask in ["0xffff", "m", "PART"] {
        let src = format!("#define PART 0x0000ffff\n__device__ int f(int v, unsigned m) {{ return __shfl_xor_sync({mask}, v, 1); }}\n");
        let (out, diags) = tr(&src, &hip52());
        assert!(out.contains("__shfl_xor_sync"), "{mask}: {out}");
        assert!(
            diags.iter().any(|d| d.starts_with('T')),
            "{mask}: {diags:?}"
        );
    }
}

#[test]
fn full_mask_macros_are_widened_for_hip_62() {
    let opts = Options {
        hip_version: Version::new(6, 2, 0),
        ..Options::default()
    };
    let src = "#define FULL_MASK  0xffffffff // every lane\n#define HALF 0x0000ffff\n__device__ int f(int v) {\n  v += __shfl_xor_sync(FULL_MASK, v, 1);\n  v += __shfl_xor_sync((FULL_MASK), v, 2);\n  return v + __shfl_xor_sync(HALF, v, 4);\n}\n";
    let (out, _) = tr(src, &opts);
    assert!(
        out.contains(
            "#define FULL_MASK  0xffffffffffffffffull // every lane\n#define HALF 0x0000ffff\n"
        ),
        "{out}"
    );
    // The uses stay: the macro's value is what changed.
    assert!(out.contains("__shfl_xor_sync(FULL_MASK, v, 1)"), "{out}");
}

#[test]
fn a_full_mask_where_only_the_first_32_threads_run_becomes_the_active_lanes_at_hip_62() {
    // R24-f: HIP 6.2's `__hip_check_mask` asserts the mask equals `__ballot(true)`; under
    // `threadIdx.x < 32` only lanes 0-31 of a 64-lane wavefront run, so the 64-lane mask traps:
    // such a call gets the lanes that run it.
    let opts = Options {
        hip_version: Version::new(6, 2, 0),
        ..Options::default()
    };
    let src = "#define FULL 0xffffffff
               __global__ void k(float* o) {
                 float v = o[threadIdx.x];
                 v += __shfl_xor_sync(FULL, v, 1);
                 if (threadIdx.x < 32) {
                   for (int i = 16; i > 0; i /= 2) v += __shfl_down_sync(0xffffffff, v, i);
                 } else {
                   v += __shfl_down_sync(0xffffffff, v, 1);
                 }
                 const int tid = threadIdx.x, warp = tid / 32;
                 if (warp == 0 && v > 0) v += __shfl_xor_sync(FULL, v, 2);
                 if (32 > (int)threadIdx.x) v += __shfl_xor_sync(~0u, v, 3);
                 if (threadIdx.x < 64) v += __shfl_xor_sync(~0u, v, 4);
                 if (threadIdx.x < warpSize) v += __shfl_xor_sync(~0u, v, 5);
                 unsigned lane = threadIdx.x % 32;
                 if (lane < 16) v += __shfl_xor_sync(~0u, v, 6);
                 if (tid >= 32) return;
                 o[0] = __shfl_sync(0xffffffffu, v, 0);
               }
";
    let r = translate_source(src.as_bytes(), "t.cu", &opts).expect("translates");
    let out = String::from_utf8(r.output).unwrap();
    for kept in [
        "v += __shfl_down_sync(__activemask(), v, i);",
        "v += __shfl_xor_sync(__activemask(), v, 2);",
        "v += __shfl_xor_sync(__activemask(), v, 3);",
        "o[0] = __shfl_sync(__activemask(), v, 0);",
    ] {
        assert!(out.contains(kept), "{kept}\n{out}");
    }
    // Everywhere else all 64 lanes may run: the macro and the other calls are widened.
    for widened in [
        "#define FULL 0xffffffffffffffffull",
        "__shfl_xor_sync(FULL, v, 1)",
        "__shfl_down_sync(0xffffffffffffffffull, v, 1)",
        "__shfl_xor_sync(0xffffffffffffffffull, v, 4)",
        "__shfl_xor_sync(0xffffffffffffffffull, v, 5)",
        "__shfl_xor_sync(0xffffffffffffffffull, v, 6)",
    ] {
        assert!(out.contains(widened), "{widened}\n{out}");
    }
    let notes: Vec<(usize, &str)> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "H003" && d.message.contains("passes it `__activemask()`"))
        .inspect(|d| assert_eq!(d.severity, Severity::Note, "{d:?}"))
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(notes.len(), 4, "{notes:?}");
    assert!(
        notes[0]
            .1
            .starts_with("`__shfl_down_sync` runs only where `threadIdx.x < 32` (line 5) holds"),
        "{notes:?}"
    );
    // Converting the output again changes nothing.
    let again = translate_source(out.as_bytes(), "t.cu", &opts).expect("translates");
    assert_eq!(String::from_utf8(again.output).unwrap(), out);
}

#[test]
fn headers_newer_than_the_target_are_reported_and_kept() {
    let src = "#include <cuda_bf16.h>\n#include <cuda_fp16.h>\n__device__ __nv_bfloat16 f() { return __float2bfloat16(1.f); }\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("#include <cuda_bf16.h>\n#include <hip/hip_fp16.h>\n"),
        "{out}"
    );
    let msgs: Vec<(&str, usize, &str)> = r
        .diagnostics
        .iter()
        .map(|d| (d.id.as_str(), d.line, d.message.as_str()))
        .collect();
    assert!(msgs.contains(&(
        "T002",
        1,
        "CUDA header `cuda_bf16.h` becomes `hip/hip_bf16.h` only from HIP 6.0.0; the target is HIP 5.2.3"
    )), "{msgs:?}");
    assert!(
        msgs.contains(&(
            "T002",
            3,
            "`__float2bfloat16` exists in HIP only from 6.0.0; the target is HIP 5.2.3"
        )),
        "{msgs:?}"
    );
    // For HIP 6.0 the header moves.
    let opts = Options {
        hip_version: Version::new(6, 0, 0),
        ..Options::default()
    };
    let (out, _) = tr(src, &opts);
    assert!(out.contains("\n#include <hip/hip_bf16.h>\n"), "{out}");
}

#[test]
fn header_paths_held_in_macros_are_translated_other_strings_are_not() {
    let src = "#define CUB_HDR <cub/cub.cuh>  // picked per build\n#define RT_HDR  \"cuda_runtime.h\"\n#define MSG \"cudaMalloc failed\"\n#define TEXT \"cuda_runtime.h\" \"!\"\n#include CUB_HDR\n#include RT_HDR\n#include \u{7d6}x\n";
    let (out, diags) = tr(src, &Options::default());
    assert_eq!(
        out,
        "#define CUB_HDR <hipcub/hipcub.hpp>  // picked per build\n#define RT_HDR  \"hip/hip_runtime.h\"\n#define MSG \"cudaMalloc failed\"\n#define TEXT \"cuda_runtime.h\" \"!\"\n#include CUB_HDR\n#include RT_HDR\n#include \u{7d6}x\n"
    );
    assert!(diags.is_empty(), "{diags:?}");
    // A header with no HIP counterpart is reported where the macro writes it.
    let (out, diags) = tr(
        "\n#define DLP_HDR <texture_fetch_functions.h>\n#include DLP_HDR\n",
        &Options::default(),
    );
    assert!(out.contains("<texture_fetch_functions.h>"), "{out}");
    assert_eq!(diags, ["T007:2:17"]);
}

#[test]
fn has_include_tests_ask_about_the_hip_header_and_parse() {
    let src = "#if __has_include(<cuda_bf16.h>) && defined(X)\n#include <cuda_bf16.h>\n#elif __has_include_next ( \"cub/cub.cuh\" )\n#include \"cub/cub.cuh\"\n#endif\n#define HAS_RT __has_include(<cuda_runtime.h>)\n// __has_include(<cuda_fp16.h>) in a comment\nconst char* s = \"__has_include(<cuda_fp16.h>)\";\n#if __has_include(<cuda_egl_interop.h>) || __has_include(<texture_fetch_functions.h>)\n#endif\n__global__ void k(int* p) { p[0] = 0; }\n";
    let r = translate_source(src.as_bytes(), "t.cu", &Options::default()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#if __has_include(<hip/hip_bf16.h>) && defined(X)\n#include <hip/hip_bf16.h>\n#elif __has_include_next ( \"hipcub/hipcub.hpp\" )\n#include \"hipcub/hipcub.hpp\"\n#endif\n#define HAS_RT __has_include(<hip/hip_runtime.h>)\n// __has_include(<cuda_fp16.h>) in a comment\nconst char* s = \"__has_include(<cuda_fp16.h>)\";\n#if __has_include(<cuda_egl_interop.h>) || __has_include(<texture_fetch_functions.h>)\n#endif\n__global__ void k(int* p) { p[0] = 0; }\n"
    );
    // The tests parse (no T008), and one whose header HIP lacks stays without a report: on HIP it
    // is false, and the code it guards has its own way without the header.
    let ids: Vec<&str> = r.diagnostics.iter().map(|d| d.id.as_str()).collect();
    assert!(ids.is_empty(), "{ids:?}");
    // At a HIP without hip_bf16.h the test keeps the CUDA name, quietly; the include is reported.
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("\n#if __has_include(<cuda_bf16.h>) && defined(X)\n"),
        "{out}"
    );
    let lines: Vec<(&str, usize)> = r
        .diagnostics
        .iter()
        .map(|d| (d.id.as_str(), d.line))
        .collect();
    assert_eq!(lines, [("T002", 2)]);
}

#[test]
fn headers_that_cuda_runtime_pulls_in_become_the_hip_runtime_or_are_reported() {
    let src = "#include <cuda_runtime.h>\n#include <sm_60_atomic_functions.h>\n#include <crt/host_defines.h>\n#include <vector_functions.h>\n#include <math_functions.h>\n#include <cuda_gl_interop.h>\n#include <nccl.h>\n#include <cuda_occupancy.h>\n";
    let (out, diags) = tr(src, &Options::default());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#include <hip/math_functions.h>\n#include <hip/hip_runtime_api.h>\n#include <rccl/rccl.h>\n#include <cuda_occupancy.h>\n"
    );
    assert_eq!(diags, ["T007:8:10"]);
}

#[test]
fn a_header_whose_hip_counterpart_the_target_lacks_is_kept_and_reported() {
    // hip/hip_math_constants.h is not in the HIP 5.2.3 headers (rules/data/hip-absent.tsv).
    let (out, diags) = tr("#include <math_constants.h>\n", &hip52());
    assert_eq!(out, "#include <math_constants.h>\n");
    assert_eq!(diags, ["T002:1:10"]);
    let (out, diags) = tr(
        "#include <math_constants.h>\n",
        &Options {
            hip_version: Version::new(6, 0, 0),
            ..Options::default()
        },
    );
    assert_eq!(out, "#include <hip/hip_math_constants.h>\n");
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn cuda_intrinsics_hipify_lacks_are_reported() {
    // Declared by CUDA 11.8's headers, in neither HIP 5.2.3's nor HIPIFY's tables: without a rule
    // they passed through unreported and hipcc stopped at an undeclared identifier.
    let src = "__global__ void k(unsigned* a, float* f) {\n  a[0] = __fns(a[1], 0, 2);\n  a[2] = __vcmpleu2(a[3], a[4]) ^ __vsetgtu2(a[3], a[4]);\n  f[0] = __fmaf_ieee_rn(f[1], f[2], f[3]) + __fmaf_ieee_rz(f[1], f[2], f[3]);\n}\n";
    let (out, diags) = tr(src, &Options::default());
    assert!(out.contains("__fns(a[1], 0, 2)"), "{out}");
    assert_eq!(
        diags,
        [
            "T001:2:10",
            "T001:3:10",
            "T001:3:35",
            "T001:4:10",
            "T001:4:45"
        ]
    );
}

#[test]
fn device_names_hip_lacks_are_reported_not_passed_through() {
    let src = "#include <cooperative_groups/reduce.h>\n__global__ void k(int* a, const __grid_constant__ int4 p) {\n  a[0] = __dp4a(a[1], a[2], 0);\n  __nanosleep(100);\n  a[3] = __reduce_add_sync(~0ull, a[4]);\n  a[5] = __isGlobal(a);\n}\n";
    let (out, diags) = tr(src, &Options::default());
    // Nothing is renamed: each name is kept for the user to port, and each is reported (the warp
    // reduction as one that HIP 7.0 added, newer than the default target); only
    // `__grid_constant__`, which changes nothing on AMD, is removed.
    assert!(
        out.contains("__dp4a(a[1]") && out.contains("(int* a, const int4 p)"),
        "{out}"
    );
    // Nothing of cg::reduce is named: the include becomes HIP's cooperative-groups header.
    assert!(
        out.starts_with("#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"),
        "{out}"
    );
    assert_eq!(diags, ["T001:3:10", "T001:4:3", "T002:5:10", "T001:6:10"]);
}

#[test]
fn callback_calling_conventions_are_removed() {
    let src = "void CUDART_CB done(cudaStream_t s, cudaError_t e, void* u) {}\n\
               void CUDA_CB\thost_fn(void* u) {}\n\
               #define CB CUDART_CB\n";
    let (out, diags) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\nvoid done(hipStream_t s, hipError_t e, void* u) {}\nvoid host_fn(void* u) {}\n#define CB \n"
    );
    assert!(!diags.iter().any(|d| d.starts_with("T001")), "{diags:?}");
    // A second run finds nothing left to remove.
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out);
    // Directives that name the macro itself keep it.
    let guard = "#ifndef CUDART_CB\n#define CUDART_CB\n#endif\n#if defined(CUDART_CB)\n#endif\n#undef CUDART_CB\n#define DECL(n) void CUDART_CB n(void*)\n";
    let (out, _) = tr(guard, &hip52());
    assert_eq!(
        out,
        guard.replace("void CUDART_CB n", "void n"),
        "only the #define body loses it"
    );
}

#[test]
fn thread_indices_passed_to_printf_min_and_max_are_cast_to_unsigned() {
    let src = "__global__ void k(unsigned* o) {\n  printf(\"%d\\n\", threadIdx.x);\n  o[0] = min(threadIdx.x, 5u) + max(blockDim.y, 64u) + min(o[1], o[2]);\n  o[3] = threadIdx.x;\n}\n";
    let (out, _) = tr(src, &hip52());
    assert!(
        out.contains("printf(\"%d\\n\", (unsigned)threadIdx.x);"),
        "{out}"
    );
    assert!(
        out.contains(
            "min((unsigned)threadIdx.x, 5u) + max((unsigned)blockDim.y, 64u) + min(o[1], o[2])"
        ),
        "{out}"
    );
    assert!(out.contains("o[3] = threadIdx.x;"), "{out}");
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out, "a second run adds no cast");
}

#[test]
fn call_rewrites_in_macro_bodies_are_reported() {
    let src = "#define SET_SMEM(F, V) cudaFuncSetAttribute(F, cudaFuncAttributeMaxDynamicSharedMemorySize, V)\n\
               #define MK(e) cudaEventCreate(&e, cudaEventDisableTiming)\n\
               #define MK1(e) cudaEventCreate(&e)\n\
               #define FREE(p) cudaFree(p)\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("hipFuncSetAttribute(F, hipFuncAttributeMaxDynamicSharedMemorySize, V)"));
    let t013: Vec<&String> = diags.iter().filter(|d| d.starts_with("T013")).collect();
    // The two-argument cudaEventCreate has a rewrite; the one-argument form and cudaFree do not.
    assert_eq!(t013, ["T013:1:24", "T013:2:15"], "{diags:?}");
    // The message shows the call as written and the form hipport writes elsewhere, its
    // arguments renamed too, not the rule's template with its placeholders (R24-2).
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    let messages: Vec<&str> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "T013")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        messages,
        [
            "in a macro body hipport only renames `cudaFuncSetAttribute` to `hipFuncSetAttribute`; outside macro bodies `cudaFuncSetAttribute(F, cudaFuncAttributeMaxDynamicSharedMemorySize, V)` becomes `hipFuncSetAttribute(reinterpret_cast<const void*>(F), hipFuncAttributeMaxDynamicSharedMemorySize, V)`",
            "in a macro body hipport only renames `cudaEventCreate` to `hipEventCreate`; outside macro bodies `cudaEventCreate(&e, cudaEventDisableTiming)` becomes `hipEventCreateWithFlags(&e, hipEventDisableTiming)`",
        ]
    );
}

#[test]
fn a_full_mask_macro_with_other_uses_keeps_its_value() {
    let opts = Options {
        hip_version: Version::new(6, 4, 0),
        ..Options::default()
    };
    let src = "#define FULL_MASK 0xffffffffu\n__global__ void k(float* x, unsigned bitmap) {\n  float v = __shfl_xor_sync(FULL_MASK, x[0], 1);\n  if (bitmap == FULL_MASK) x[1] = v;\n}\n";
    let (out, _) = tr(src, &opts);
    assert!(out.contains("#define FULL_MASK 0xffffffffu\n"), "{out}");
    assert!(
        out.contains("__shfl_xor_sync(0xffffffffffffffffull, x[0], 1)"),
        "{out}"
    );
    assert!(out.contains("bitmap == FULL_MASK"), "{out}");
    let (again, _) = tr(&out, &opts);
    assert_eq!(again, out);
}

#[test]
fn call_rewrites_apply_after_the_global_scope_and_use_c_casts_in_c_files() {
    let src = "void f(cudaEvent_t e, cudaStream_t s) { ::cudaEventCreate(&e, cudaEventDisableTiming); ::cudaStreamWaitEvent(s, e); }\n";
    let (out, _) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\nvoid f(hipEvent_t e, hipStream_t s) { ::hipEventCreateWithFlags(&e, hipEventDisableTiming); ::hipStreamWaitEvent(s, e, 0); }\n"
    );
    // A scope other than the global one is someone else's function: renamed, not reshaped.
    let (out, _) = tr("void f() { ns::cudaStreamWaitEvent(s, e); }\n", &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\nvoid f() { ns::hipStreamWaitEvent(s, e); }\n"
    );
    let c = "#include <cuda.h>\nint up(CUdeviceptr d, const float* h, size_t n) { return cuMemcpyHtoD(d, h, n) == CUDA_SUCCESS; }\n\
             void g(cudaGraph_t g) { cudaGraphExec_t x; cudaGraphInstantiate(&x, g); }\n";
    let r = translate_source(c.as_bytes(), "t.c", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("hipMemcpyHtoD(d, (void*)((const void*)(h)), n)"),
        "{out}"
    );
    assert!(
        out.contains("hipGraphInstantiate(&x, g, NULL, NULL, 0)"),
        "{out}"
    );
    assert!(!out.contains("_cast") && !out.contains("nullptr"), "{out}");
}

#[test]
fn c_casts_rewrite_nested_cpp_casts() {
    use hipport::translate::c_casts;
    assert_eq!(
        c_casts("f(const_cast<void*>(static_cast<const void*>($2)), $3)"),
        "f((void*)((const void*)($2)), $3)"
    );
    assert_eq!(
        c_casts("g(reinterpret_cast<const void*>($1), nullptr)"),
        "g((const void*)($1), NULL)"
    );
    assert_eq!(c_casts("h($1, 0)"), "h($1, 0)");
}

#[test]
fn a_symbol_with_a_comma_is_parenthesized_inside_hip_symbol() {
    let src = "template <typename T, int N> __constant__ T lut[N];\nvoid f(const float* h) { cudaMemcpyToSymbol(lut<float, 8>, h, 32); cudaMemcpyToSymbol(plain, h, 4); }\n";
    let (out, _) = tr(src, &hip52());
    assert!(
        out.contains("hipMemcpyToSymbol(HIP_SYMBOL((lut<float, 8>)), h, 32)"),
        "{out}"
    );
    assert!(
        out.contains("hipMemcpyToSymbol(HIP_SYMBOL(plain), h, 4)"),
        "{out}"
    );
}

#[test]
fn annotations_go_above_a_continued_line_not_inside_it() {
    let src = "#define REDUCE(v) \\\n  do { v += __shfl_xor_sync(0xffffffff, v, 1); \\\n  } while (0)\n__global__ void f(unsigned m, int v) {\n  const char* s = \"a\\\n  b\"; v = __shfl_sync(m, v, 0);\n}\n";
    let opts = Options {
        annotate: true,
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &opts).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.trim_start().starts_with("// hipport:") && i > 0 {
            assert!(
                !lines[i - 1].ends_with('\\'),
                "a note splits a continued line:\n{out}"
            );
        }
    }
    assert!(out.contains("// hipport:"), "{out}");
}

#[test]
fn annotations_above_a_macro_say_each_thing_once() {
    // R24-3: one comment per macro and report, not one per call of the body.
    let src = "#define RED(v, l) \\\n    v += __shfl_sync(0xffffffff, v, (l) ^ 1); \\\n    v += __shfl_sync(0xffffffff, v, (l) ^ 2); \\\n    v += __shfl_sync(0xffffffff, v, (l) ^ 4); \\\n    if (__any_sync(0xffffffff, v != 0)) v = 0;\n\
               #define RED2(v) \\\n    v += __shfl_sync(0xffffffff, v, 1); \\\n    v += __shfl_sync(0xffffffff, v, 2);\n";
    let opts = Options {
        annotate: true,
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &opts).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    let comments: Vec<&str> = out
        .lines()
        .filter_map(|l| l.strip_prefix("// hipport: "))
        .map(|c| &c[..4])
        .collect();
    // Above RED: the T013 of each name (which says that the name is missing, T002, too); above
    // RED2: the T002 of its two calls, once.
    assert_eq!(comments, ["T013", "T013", "T002"], "{out}");
    assert!(
        out.contains("// hipport: T002 `__shfl_sync` exists in HIP only from 6.2.0; the target is HIP 5.2.3 (2 times)\n#define RED2(v)"),
        "{out}"
    );
    let again = translate_source(out.as_bytes(), "t.cu", &opts).unwrap();
    assert_eq!(String::from_utf8(again.output).unwrap(), out);
}

#[test]
fn thread_indices_are_cast_in_std_min_max_and_auto_copies() {
    let src = "__global__ void k(unsigned n, int* o) {\n  unsigned a = std::min(threadIdx.x, n);\n  auto tx = threadIdx.x, ty = blockIdx.y;\n  const auto bx = blockDim.x;\n  auto sum = threadIdx.x + 1;\n  unsigned plain = threadIdx.x;\n  printf(\"%u %u\", tx, bx);\n}\n";
    let (out, _) = tr(src, &hip52());
    assert!(out.contains("std::min((unsigned)threadIdx.x, n)"), "{out}");
    assert!(
        out.contains("auto tx = (unsigned)threadIdx.x, ty = (unsigned)blockIdx.y;"),
        "{out}"
    );
    assert!(
        out.contains("const auto bx = (unsigned)blockDim.x;"),
        "{out}"
    );
    // An expression converts by itself; a typed variable needs nothing.
    assert!(out.contains("auto sum = threadIdx.x + 1;"), "{out}");
    assert!(out.contains("unsigned plain = threadIdx.x;"), "{out}");
}

#[test]
fn struct_and_enum_keywords_before_renamed_types_are_dropped_where_they_are_used() {
    let src = "struct cudaDeviceProp;\nvoid f() {\n  struct cudaExternalMemoryHandleDesc d = {};\n  struct  cudaDeviceProp p;\n  enum cudaMemcpyKind k = cudaMemcpyHostToDevice;\n  struct mine m;\n  struct cudaIpcMemHandle_st* h;\n}\n";
    let (out, _) = tr(src, &hip52());
    assert!(
        out.contains("\n  hipExternalMemoryHandleDesc d = {};"),
        "{out}"
    );
    assert!(out.contains("\n  hipDeviceProp_t p;"), "{out}");
    assert!(
        out.contains("\n  hipMemcpyKind k = hipMemcpyHostToDevice;"),
        "{out}"
    );
    assert!(out.contains("\n  struct mine m;"), "{out}");
    // The declaration of a tag keeps its keyword, and so do the names of tags.
    assert!(out.contains("\nstruct hipDeviceProp_t;"), "{out}");
    assert!(out.contains("struct hipIpcMemHandle_st* h;"), "{out}");
    let (tags, _) = tr("void g() { struct CUgraphNode_st* n; }\n", &hip52());
    assert!(tags.contains("struct hipGraphNode* n;"), "{tags}");
}

#[test]
fn the_runtime_include_is_for_hipcc_alone_when_all_device_code_is_in_cuda_compiler_branches() {
    let guarded = "#pragma once\n#ifdef __CUDACC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\nHD inline int lane() {\n#ifdef __CUDA_ARCH__\n  return threadIdx.x & 31;\n#else\n  return 0;\n#endif\n}\n";
    let r = translate_source(guarded.as_bytes(), "hd.h", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.starts_with(
            "#pragma once\n#if defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#endif\n"
        ),
        "{out}"
    );
    // Device code outside such a branch needs the include everywhere.
    let open = "#pragma once\n__device__ int lane() { return threadIdx.x & 31; }\n";
    let r = translate_source(open.as_bytes(), "d.h", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.starts_with("#pragma once\n#include <hip/hip_runtime.h>\n__device__"),
        "{out}"
    );
}

#[test]
fn an_argument_already_cast_to_void_pointer_pointer_is_not_cast_again() {
    let src = "void f(float* d, size_t p) { cudaMallocPitch((void**)&d, &p, 64, 4); cudaMallocPitch(&d, &p, 64, 4); cudaMallocPitch((void **) &d, &p, 64, 4); }\n";
    let (out, _) = tr(src, &hip52());
    assert_eq!(
        out,
        "void f(float* d, size_t p) { hipMallocPitch((void**)&d, &p, 64, 4); hipMallocPitch((void**)(&d), &p, 64, 4); hipMallocPitch((void **) &d, &p, 64, 4); }\n"
    );
}

#[test]
fn a_full_mask_constant_of_the_file_becomes_the_plain_builtin_before_hip_62() {
    let src = "constexpr unsigned kFull = 0xffffffffu;\nstatic const unsigned kHalf = 0x0000ffffu;\n__global__ void k(float* x) { float v = x[0];\n  v += __shfl_down_sync(kFull, v, 1);\n  v += __shfl_down_sync(kHalf, v, 1);\n  x[0] = v; }\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("v += __shfl_down(v, 1);"), "{out}");
    assert!(out.contains("v += __shfl_down_sync(kHalf, v, 1);"), "{out}");
    assert!(diags.iter().any(|d| d.starts_with("T009:5:")), "{diags:?}");
    // From HIP 6.2 the constant is H003's (its declared type is 32 bits): the translator leaves
    // the call alone whatever comes before it, and drops a full-warp __syncwarp.
    let later = "constexpr unsigned kFull = 0xffffffffu;\n__global__ void k(float* x) { float v = x[0];\n  __syncwarp(kFull);\n  v += __shfl_down_sync(kFull, v, 1);\n  x[0] = v; }\n";
    let opts = Options {
        hip_version: Version::new(6, 2, 0),
        ..Options::default()
    };
    let (out62, _) = tr(later, &opts);
    assert!(
        out62.contains("v += __shfl_down_sync(kFull, v, 1);"),
        "{out62}"
    );
    assert!(!out62.contains("__syncwarp"), "{out62}");
    // The constant itself is left as it is.
    assert!(
        out.contains("\nconstexpr unsigned kFull = 0xffffffffu;\n"),
        "{out}"
    );
}

#[test]
fn headers_are_read_only_for_mask_names_the_file_neither_defines_nor_declares() {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(tmp.path().join("defs.h"), "#define FULL 0xffffffff\n").unwrap();
    let file = tmp.path().join("k.cu");
    let file = file.to_str().unwrap();
    let with = |mask: &str| {
        let src = format!("#include \"defs.h\"\n__global__ void k(float* x, unsigned m) {{ float v = x[0];\n  v += __shfl_down_sync({mask}, v, 1);\n  x[0] = v; }}\n");
        translate_source(src.as_bytes(), file, &hip52()).unwrap()
    };
    let r = with("FULL");
    assert!(r.read_other_files);
    assert!(String::from_utf8(r.output)
        .unwrap()
        .contains("__shfl_down(v, 1)"));
    // A literal or a parameter is not looked for in headers, and the result stays cacheable.
    assert!(!with("0xffffffff").read_other_files);
    assert!(!with("m").read_other_files);
}

/// R22-b: a project's own `__shfl_down_sync` macro on the branch hipcc takes, in the file or
/// in a project header it includes: the calls are the macro's (no T009 before HIP 6.2, no
/// H003 after), left as written; on the branch hipcc skips it is no shim.
#[test]
fn a_projects_own_shuffle_macro_for_hipcc_is_left_to_it() {
    let shim = "#if defined(__HIP_PLATFORM_AMD__)\n#define __shfl_down_sync(mask, val, d) __shfl_down(val, d)\n#endif\n";
    let body = "__device__ float sum(float v, unsigned mask) {\n  return v + __shfl_down_sync(mask, v, 1);\n}\n";
    let v62 = Options {
        hip_version: Version::new(6, 2, 0),
        ..Options::default()
    };
    let src = format!("{shim}{body}");
    for opts in [hip52(), v62.clone()] {
        let (out, diags) = tr(&src, &opts);
        assert!(out.ends_with(&src), "{out}");
        assert!(
            diags
                .iter()
                .all(|d| !d.starts_with("T009") && !d.starts_with("H003")),
            "{diags:?}"
        );
    }
    // Defined only where hipcc does not look: the builtin's call, reported.
    let cuda_only = format!("{}{body}", shim.replace("#if defined", "#if !defined"));
    let (_, diags) = tr(&cuda_only, &hip52());
    assert!(diags.iter().any(|d| d.starts_with("T009")), "{diags:?}");
    // The shim in a project header the file includes.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir(tmp.path().join("inc")).unwrap();
    std::fs::write(tmp.path().join("inc/interop.h"), shim).unwrap();
    let file = tmp.path().join("k.cu");
    let src = format!("#include \"inc/interop.h\"\n{body}");
    for opts in [hip52(), v62] {
        let r = translate_source(src.as_bytes(), file.to_str().unwrap(), &opts).unwrap();
        let out = String::from_utf8(r.output).unwrap();
        assert!(out.contains(body), "{out}");
        assert!(
            r.diagnostics
                .iter()
                .all(|d| d.id != "T009" && d.id != "H003"),
            "{:?}",
            r.diagnostics
        );
    }
}

/// R22-1: `#define CUFFT_SUCCESS(x)` is the project's macro: its definition and calls keep the
/// name (in the file, or in a project header it includes), while the constant used as a value
/// is still renamed. HIP's amd_hip_runtime.h `#define`s `CUDA_SUCCESS` itself, so the
/// project's `CUDA_SUCCESS(x)` gets an `#undef` of HIP's before it.
#[test]
fn a_function_like_macro_named_like_a_cuda_constant_is_the_projects() {
    let src = "#include <cufft.h>\n#define CUFFT_SUCCESS(x) ((x) == CUFFT_SUCCESS)\n\
               bool ok(cufftHandle p) { cufftResult r = cufftDestroy(p); return r == CUFFT_SUCCESS || CUFFT_SUCCESS (cufftDestroy(p)); }\n";
    let (out, _) = tr(src, &hip52());
    assert!(
        out.contains("#define CUFFT_SUCCESS(x) ((x) == HIPFFT_SUCCESS)\n"),
        "{out}"
    );
    assert!(
        out.contains("return r == HIPFFT_SUCCESS || CUFFT_SUCCESS (hipfftDestroy(p));"),
        "{out}"
    );
    // Defined in a project header the file includes.
    let tmp = tempfile::tempdir().unwrap();
    std::fs::write(
        tmp.path().join("util.h"),
        "#define CUFFT_SUCCESS(x) ((x) == CUFFT_SUCCESS)\n",
    )
    .unwrap();
    let file = tmp.path().join("fft.h");
    let src = "#include \"util.h\"\n#include <cufft.h>\ninline bool ok(cufftHandle p) { return CUFFT_SUCCESS(cufftDestroy(p)); }\n";
    let r = translate_source(src.as_bytes(), file.to_str().unwrap(), &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("return CUFFT_SUCCESS(hipfftDestroy(p));"),
        "{out}"
    );
    // HIP defines `CUDA_SUCCESS` itself: the project's macro is kept, after an `#undef` of
    // HIP's, which a second run sees and keeps.
    let src = "#include <cuda.h>\n#define CUDA_SUCCESS(x) ((x) == CUDA_SUCCESS)\nbool ok() { CUresult r = cuInit(0); return CUDA_SUCCESS(cuInit(0)) && r == CUDA_SUCCESS; }\n";
    let (out, _) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#undef CUDA_SUCCESS\n#define CUDA_SUCCESS(x) ((x) == hipSuccess)\nbool ok() { hipError_t r = hipInit(0); return CUDA_SUCCESS(hipInit(0)) && r == hipSuccess; }\n"
    );
    assert_eq!(tr(&out, &hip52()).0, out);
    // In a project header the file includes.
    std::fs::write(
        tmp.path().join("cuda_util.h"),
        "#include <cuda_runtime.h>\n#define CUDA_SUCCESS(x) (CUDA(x) == cudaSuccess)\n",
    )
    .unwrap();
    let file = tmp.path().join("mem.cu");
    let src =
        "#include \"cuda_util.h\"\nbool ok(void** p) { return CUDA_SUCCESS(cudaMalloc(p, 4)); }\n";
    let r = translate_source(src.as_bytes(), file.to_str().unwrap(), &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("return CUDA_SUCCESS(hipMalloc(p, 4));"),
        "{out}"
    );
}

#[test]
fn nvrtc_cubin_loads_hips_code_object_and_trap_becomes_the_builtin() {
    let src = "#include <nvrtc.h>\nint f(nvrtcProgram p, char* b, size_t* n) { nvrtcGetCUBINSize(p, n); return nvrtcGetCUBIN(p, b); }\n\
               __global__ void k(int* p) { if (p[0] < 0) __trap(); }\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        out.contains("hiprtcGetCodeSize(p, n); return hiprtcGetCode(p, b);"),
        "{out}"
    );
    assert!(out.contains("__builtin_trap();"), "{out}");
    assert!(diags.iter().all(|d| !d.starts_with("T00")), "{diags:?}");
}

/// Translates `src` with `opts`, checks that a second conversion changes nothing, and returns
/// the output with the diagnostics as `ID:line:column`.
fn tr_stable(src: &str, opts: &Options) -> (String, Vec<String>) {
    let (out, diags) = tr(src, opts);
    let (again, _) = tr(&out, opts);
    assert_eq!(again, out, "a second conversion changed the output");
    (out, diags)
}

#[test]
fn align_qualifiers_parse_keep_their_text_and_leave_later_rewrites_intact() {
    let src = "#include <cuda_runtime.h>\n\
               struct __align__(16) Particle { float x, y, z, w; };\n\
               typedef struct __align__(8) { float a, b; } Pair;\n\
               typedef float __align__(8) Float8;\n\
               __device__ __align__(8) float g_val[2];\n\
               struct __declspec(align(16)) Legacy { int x; };\n\
               struct __attribute__((aligned(16))) Attr { int x; };\n\
               __global__ void k(Particle* p) {\n  \
                 extern __shared__ __align__(16) unsigned char raw[];\n  \
                 __syncwarp();\n  \
                 p[threadIdx.x] = reinterpret_cast<Particle*>(raw)[0];\n}\n\
               void run(Particle* p) {\n  \
                 __align__(16) float h[4];\n  \
                 k<<<1, 64, 64>>>(p);\n  \
                 cudaDeviceSynchronize();\n}\n";
    let opts = Options {
        launch: LaunchStyle::Hip,
        ..hip52()
    };
    let (out, diags) = tr_stable(src, &opts);
    assert!(
        diags.iter().all(|d| !d.starts_with("T008")),
        "{diags:?}\n{out}"
    );
    // The qualifiers keep their text (HIP defines `__align__` itself).
    for kept in [
        "struct __align__(16) Particle",
        "typedef struct __align__(8) { float a, b; } Pair;",
        "typedef float __align__(8) Float8;",
        "__device__ __align__(8) float g_val[2];",
        "struct __declspec(align(16)) Legacy",
        "extern __shared__ __align__(16) unsigned char raw[];",
        "__align__(16) float h[4];",
    ] {
        assert!(out.contains(kept), "{kept}\n{out}");
    }
    // What follows them is still parsed: the full-warp `__syncwarp` goes, the launch is rewritten.
    assert!(!out.contains("__syncwarp"), "{out}");
    assert!(
        out.contains("hipLaunchKernelGGL(k, dim3(1), dim3(64), 64, 0, p);"),
        "{out}"
    );
    assert!(out.contains("hipDeviceSynchronize();"), "{out}");
}

#[test]
fn statement_macros_without_a_semicolon_parse_and_what_follows_is_rewritten() {
    let src = "#include <cuda_runtime.h>\n#include <cusparse.h>\n\
               #define CHECK_CUSPARSE(x) do { cusparseStatus_t s = (x); if (s != CUSPARSE_STATUS_SUCCESS) return; } while (0);\n\
               #define CHECK_CUDA(x) { cudaError_t e = (x); if (e != cudaSuccess) return; }\n\
               __global__ void k(float* p) { p[0] = 1; }\n\
               void run(float* p) {\n  \
                 cusparseHandle_t h;\n  \
                 CHECK_CUSPARSE(cusparseCreate(&h))\n  \
                 float* d;\n  \
                 CHECK_CUDA(cudaMalloc(&d, 4)) // allocate\n  \
                 k<<<1, 64>>>(d);\n  \
                 CUDA_CHECK(cudaGetLastError())\n  \
                 cudaStream_t s;\n  \
                 CHECK_CUSPARSE(cusparseDestroy(h))\n  \
                 k<<<1, 64, 0, s>>>(p);\n  \
                 if (p) CHECK_CUDA(cudaFree(d))\n  \
                 CHECK_CUDA(cudaFree(p))\n}\n";
    let opts = Options {
        launch: LaunchStyle::Hip,
        ..hip52()
    };
    let (out, diags) = tr_stable(src, &opts);
    assert!(
        diags.iter().all(|d| !d.starts_with("T008")),
        "{diags:?}\n{out}"
    );
    for line in [
        "  CHECK_CUSPARSE(hipsparseCreate(&h))\n  float* d;\n",
        "  CHECK_CUDA(hipMalloc(&d, 4)) // allocate\n  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, 0, d);\n",
        "  CUDA_CHECK(hipGetLastError())\n  hipStream_t s;\n",
        "  CHECK_CUSPARSE(hipsparseDestroy(h))\n  hipLaunchKernelGGL(k, dim3(1), dim3(64), 0, s, p);\n",
        "  if (p) CHECK_CUDA(hipFree(d))\n  CHECK_CUDA(hipFree(p))\n}\n",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
}

#[test]
fn a_statement_macro_that_needs_its_semicolon_still_gets_the_parse_note() {
    // `do { } while (0)` without the `;` does not compile: the note stays.
    let src = "#define CHECK(x) do { if ((x) != 0) return; } while (0)\n\
               void run(float* p) {\n  \
                 CHECK(cudaFree(p))\n  \
                 float* d;\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        diags.iter().any(|d| d.starts_with("T008")),
        "{diags:?}\n{out}"
    );
    assert!(out.contains("CHECK(hipFree(p))"), "{out}");
}

#[test]
fn fixed_diagnostics_become_notes_that_say_so() {
    let src = "__global__ void k(int* o, const int* f) {\n  unsigned m = __ballot_sync(0xffffffff, f[threadIdx.x]);\n  o[0] = __popc(m) + (threadIdx.x / 32);\n}\n";
    let opts = Options {
        fix: true,
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &opts).unwrap();
    let h004: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "H004").collect();
    assert_eq!(h004.len(), 2);
    assert!(
        h004.iter()
            .all(|d| d.severity == Severity::Note && d.message.ends_with("(fixed by --fix)")),
        "{h004:?}"
    );
    // A finding --fix has no edit for stays an error.
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.id == "H001" && d.severity == Severity::Error));
    // Without --fix nothing is marked.
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    assert!(r
        .diagnostics
        .iter()
        .all(|d| !d.message.contains("fixed by --fix")));
}

/// The (ID, severity, line) of each diagnostic of a translation.
fn severities(src: &str, opts: &Options) -> Vec<(String, Severity, usize)> {
    let r = translate_source(src.as_bytes(), "t.cu", opts).expect("translates");
    r.diagnostics
        .iter()
        .map(|d| (d.id.clone(), d.severity, d.line))
        .collect()
}

#[test]
fn names_hip_lacks_are_notes_in_branches_hipcc_skips_and_errors_elsewhere() {
    // `__hmax` needs HIP 5.5, `cuda_bf16.h` 6.0: at 5.2.3 both are T002.
    let src = "\
#include <cuda_fp16.h>
#if CUDART_VERSION >= 11000
#include <cuda_bf16.h>
#endif
__device__ half a(half x, half y) {
#if __CUDA_ARCH__ >= 800
  return __hmax(x, y);
#else
  return x;
#endif
}
__device__ half b(half x, half y) {
#ifndef __CUDA_ARCH__
  return x;
#elif __CUDA_ARCH__ >= 800
  return __hmax(x, y);
#else
  return __hmax(y, x);
#endif
}
__device__ half c(half x, half y) {
#ifdef __HIP_PLATFORM_AMD__
  return x;
#else
  return __hmax(x, y);
#endif
}
__device__ half d(half x, half y) {
  return __hmax(x, y);
}
";
    let diags = severities(src, &hip52());
    let t002: Vec<(Severity, usize)> = diags
        .iter()
        .filter(|(id, _, _)| id == "T002")
        .map(|&(_, s, l)| (s, l))
        .collect();
    assert_eq!(
        t002,
        [
            (Severity::Note, 3),
            (Severity::Note, 7),
            (Severity::Note, 16),
            (Severity::Note, 18),
            (Severity::Note, 25),
            (Severity::Error, 29),
        ]
    );
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    let at = |line: usize| {
        r.diagnostics
            .iter()
            .find(|d| d.id == "T002" && d.line == line)
            .map(|d| d.message.clone())
            .unwrap()
    };
    assert!(
        at(7).ends_with(
            "hipcc does not compile this branch (see H011 on line 6), so it is left as it is"
        ),
        "{}",
        at(7)
    );
    // The `#else` of a true `#ifndef __CUDA_ARCH__`: the chain's first branch is the one taken,
    // which the H011 at the chain's directive says (R48-1: the note points to it).
    assert!(
        at(18).ends_with(
            "hipcc does not compile this branch (see H011 on line 13), so it is left as it is"
        ),
        "{}",
        at(18)
    );
}

#[test]
fn names_hip_lacks_stay_errors_where_the_build_decides_the_branch() {
    // A branch a macro of the file's own decides (a build may define it otherwise), one that
    // depends on such a macro as well as on a CUDA one, and a CUDA macro the file defines itself.
    let src = "\
#include <cuda_fp16.h>
#ifndef USE_HMAX
#define USE_HMAX 0
#endif
__device__ half a(half x, half y) {
#if USE_HMAX
  return __hmax(x, y);
#elif defined(__CUDA_ARCH__) || defined(FORCE)
  return __hmax(y, x);
#endif
  return x;
}
#define CUDART_VERSION 12000
#if CUDART_VERSION >= 11000
#include <cuda_bf16.h>
#endif
";
    let diags = severities(src, &hip52());
    let t002: Vec<(Severity, usize)> = diags
        .iter()
        .filter(|(id, _, _)| id == "T002")
        .map(|&(_, s, l)| (s, l))
        .collect();
    assert_eq!(
        t002,
        [
            (Severity::Error, 7),
            (Severity::Error, 9),
            (Severity::Error, 15)
        ]
    );
}

#[test]
fn unknown_library_names_with_numbers_are_reported_user_names_are_not() {
    // `curand8` is no cuRAND function (the rules know `curand4`); `cuda11`, `cufft3d` and
    // `nv12` are a person's own names (from a header of theirs), and `curand2` is declared here.
    let src = "\
#include <curand_kernel.h>
#include \"config.h\"
__global__ void k(curandStatePhilox4_32_10_t* s, float4* o) {
  uint4 a = curand4(&s[0]);
  uint4 b = curand8(&s[0]);
  int curand2 = 2;
  o[0] = make_float4(a.x, b.x, cufft3d + nv12, curand2 + cuda11);
}
";
    let (out, diags) = tr(src, &Options::default());
    assert!(out.contains("uint4 a = hiprand4(&s[0]);"), "{out}");
    assert_eq!(diags, ["T006:5:13"]);
}

#[test]
fn a_rewritten_call_keeps_the_line_breaks_of_its_arguments() {
    let src = "\
template <typename T, int N> __global__ void kern(T* p) {}
void f(int n) {
  cudaFuncSetAttribute(kern<float, 2>,  /* a, b */
                       cudaFuncAttributeMaxDynamicSharedMemorySize,
                       n +
                           1);
  cudaFuncSetAttribute(kern<float, 4> /* c, d */,
      cudaFuncAttributeMaxDynamicSharedMemorySize, n
  );
  cudaFuncSetAttribute(kern<float, 8>,  cudaFuncAttributeMaxDynamicSharedMemorySize,n);
}
";
    let (out, _) = tr(src, &Options::default());
    let want = "\
template <typename T, int N> __global__ void kern(T* p) {}
void f(int n) {
  hipFuncSetAttribute(reinterpret_cast<const void*>(kern<float, 2>),  /* a, b */
                       hipFuncAttributeMaxDynamicSharedMemorySize,
                       n +
                           1);
  hipFuncSetAttribute(reinterpret_cast<const void*>(kern<float, 4>),
      hipFuncAttributeMaxDynamicSharedMemorySize, n
  );
  hipFuncSetAttribute(reinterpret_cast<const void*>(kern<float, 8>), hipFuncAttributeMaxDynamicSharedMemorySize, n);
}
";
    assert_eq!(out, format!("#include <hip/hip_runtime.h>\n{want}"));
}

/// The torch v1 API renames the caching allocator's namespace and `recordStream` as PyTorch's
/// own table does (`cuda::CUDACachingAllocator::raw_alloc` ->
/// `hip::HIPCachingAllocatorMasqueradingAsCUDA::raw_alloc`), and `using namespace c10::cuda;`
/// follows the `c10::cuda` -> `c10::hip` rule like a qualified name; v2 keeps all of them.
#[test]
fn torch_v1_caching_allocator_and_using_directives_follow_the_masquerading_names() {
    let src = "#include <c10/cuda/CUDACachingAllocator.h>\n\
               void f(void* d, c10::cuda::CUDAStream s) {\n  \
               c10::cuda::CUDACachingAllocator::recordStream(d, s);\n  \
               void* p = c10::cuda::CUDACachingAllocator::raw_alloc(256);\n  \
               c10::cuda::CUDACachingAllocator::raw_delete(p);\n  \
               using namespace c10::cuda;\n  \
               CUDACachingAllocator::emptyCache();\n}\n\
               namespace cu = c10::cuda;\n\
               namespace mine { int cuda; }\n\
               int g() { using namespace mine; return cuda; }\n";
    let v1 = Options {
        libs: hipport::translate::Choices {
            torch_api: hipport::translate::TorchApi::V1,
            ..Default::default()
        },
        ..hip52()
    };
    let (out, _) = tr(src, &v1);
    assert_eq!(
        out,
        "#include <ATen/hip/impl/HIPCachingAllocatorMasqueradingAsCUDA.h>\n\
         void f(void* d, c10::hip::HIPStreamMasqueradingAsCUDA s) {\n  \
         c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::recordStreamMasqueradingAsCUDA(d, s);\n  \
         void* p = c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::raw_alloc(256);\n  \
         c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::raw_delete(p);\n  \
         using namespace c10::hip;\n  \
         HIPCachingAllocatorMasqueradingAsCUDA::emptyCache();\n}\n\
         namespace cu = c10::hip;\n\
         namespace mine { int cuda; }\n\
         int g() { using namespace mine; return cuda; }\n"
    );
    // A second run changes nothing.
    assert_eq!(tr(&out, &v1).0, out);
    let (v2, _) = tr(src, &hip52());
    assert_eq!(
        v2,
        src.replace(
            "c10/cuda/CUDACachingAllocator.h",
            "c10/hip/HIPCachingAllocator.h"
        )
    );
}

/// With a roc* library chosen, a name only the hip* wrapper has is reported as that choice (the
/// wrapper's name and the option that selects it), not as a name HIP lacks; a cuBLAS status
/// switch keeps distinct, meaningful rocBLAS case labels.
#[test]
fn roc_library_choices_report_what_only_the_hip_wrapper_has() {
    let src = "#include <cufft.h>\n#include <cublas_v2.h>\n\
               const char* name(cublasStatus_t s) {\n  switch (s) {\n    \
               case CUBLAS_STATUS_ALLOC_FAILED: return \"alloc\";\n    \
               case CUBLAS_STATUS_NOT_SUPPORTED: return \"unsupported\";\n    \
               case CUBLAS_STATUS_EXECUTION_FAILED: return \"exec\";\n  }\n  return \"?\";\n}\n\
               int f(cufftHandle p) { return cufftDestroy(p) == CUFFT_SUCCESS; }\n";
    let roc = Options {
        libs: hipport::translate::Choices {
            blas: hipport::translate::Lib::Roc,
            fft: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &roc).expect("translates");
    let out = String::from_utf8(r.output).unwrap();
    assert!(out.contains("case rocblas_status_memory_error:"), "{out}");
    assert!(
        out.contains("case rocblas_status_not_implemented:"),
        "{out}"
    );
    assert!(
        out.contains("case CUBLAS_STATUS_EXECUTION_FAILED:"),
        "{out}"
    );
    let find = |name: &str| {
        r.diagnostics
            .iter()
            .find(|d| d.id == "T001" && d.message.starts_with(&format!("`{name}`")))
            .unwrap_or_else(|| panic!("no T001 for {name}: {:?}", r.diagnostics))
    };
    let d = find("CUBLAS_STATUS_EXECUTION_FAILED");
    assert_eq!(
        d.message,
        "`CUBLAS_STATUS_EXECUTION_FAILED` (cublas API) has no rocBLAS equivalent; hipBLAS has `HIPBLAS_STATUS_EXECUTION_FAILED`"
    );
    assert_eq!(d.line, 7);
    assert!(d.help.as_deref().unwrap().contains("`--blas hipblas`"));
    let d = find("CUFFT_SUCCESS");
    assert!(d
        .message
        .contains("no rocFFT equivalent; hipFFT has `HIPFFT_SUCCESS`"));
    assert!(d.help.as_deref().unwrap().contains("`--fft hipfft`"));
    // With the default hip* libraries the same source has no T001.
    let (_, diags) = tr(src, &hip52());
    assert!(!diags.iter().any(|d| d.starts_with("T001")), "{diags:?}");
}

/// roc* names follow their own release columns: rocRAND 5.2 has no `rocrand_set_ordering`, so
/// `--rand rocrand` for HIP 5.2 reports it (with hipRAND as the way out where hipRAND has the
/// name) instead of writing a name that does not compile; HIP 6.2 gets the rename.
#[test]
fn roc_names_newer_than_the_target_are_reported() {
    let src = "#include <curand.h>\n\
               void f(curandGenerator_t g) {\n  \
               curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT);\n  \
               curandSetPseudoRandomGeneratorSeed(g, 1ULL);\n}\n\
               void h(curandGenerator_t* g) { curandCreateGeneratorHost(g, CURAND_RNG_PSEUDO_MTGP32); }\n";
    let rocrand = |v: Version| Options {
        hip_version: v,
        libs: hipport::translate::Choices {
            rand: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        ..Options::default()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &rocrand(Version::new(5, 2, 3)))
        .expect("translates");
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("curandSetGeneratorOrdering(g, CURAND_ORDERING_PSEUDO_DEFAULT);"),
        "{out}"
    );
    assert!(out.contains("rocrand_set_seed(g, 1ULL);"), "{out}");
    let t002: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T002").collect();
    assert_eq!(t002.len(), 3, "{:?}", r.diagnostics);
    assert_eq!(
        t002[0].message,
        "`curandSetGeneratorOrdering` becomes rocRAND's `rocrand_set_ordering` only from ROCm 5.5.0; the target is HIP 5.2.3"
    );
    assert_eq!((t002[0].line, t002[0].column), (3, 3));
    // hipRAND 5.2 declares the host generator but returns HIPRAND_STATUS_NOT_IMPLEMENTED
    // (until ROCm 6.2), so the help does not send the user there (R21-b).
    let host = t002.iter().find(|d| d.line == 6).unwrap();
    assert!(
        !host.help.as_deref().unwrap().contains("hipRAND"),
        "{:?}",
        host.help
    );
    let (out, diags) = tr(src, &rocrand(Version::new(6, 2, 0)));
    assert!(diags.is_empty(), "{diags:?}");
    assert!(
        out.contains("rocrand_set_ordering(g, ROCRAND_ORDERING_PSEUDO_DEFAULT);"),
        "{out}"
    );
    assert!(
        out.contains("rocrand_create_generator_host_blocking(g, "),
        "{out}"
    );
}

/// hipRAND's host generator returns HIPRAND_STATUS_NOT_IMPLEMENTED before ROCm 6.2 (hipRAND
/// 2.11.0's CHANGELOG), so for older targets `curandCreateGeneratorHost` is reported (T002) and
/// kept, instead of a silent rename that fails at run time (R21-b); HIP 6.2 gets the rename.
#[test]
fn hiprand_host_generator_is_reported_before_rocm_6_2() {
    let src = "#include <curand.h>\n\
               void h(curandGenerator_t* g) { curandCreateGeneratorHost(g, CURAND_RNG_PSEUDO_XORWOW); }\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).expect("translates");
    let out = String::from_utf8(r.output).unwrap();
    assert!(out.contains("curandCreateGeneratorHost(g, "), "{out}");
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.id == "T002")
        .unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    // It says what goes wrong before then: the header declares the name.
    assert!(
        d.message
            .contains("returns `HIPRAND_STATUS_NOT_IMPLEMENTED` before HIP 6.2.0"),
        "{}",
        d.message
    );
    let (out, diags) = tr(
        src,
        &Options {
            hip_version: Version::new(6, 2, 0),
            ..Options::default()
        },
    );
    assert!(diags.is_empty(), "{diags:?}");
    assert!(
        out.contains("hiprandCreateGeneratorHost(g, HIPRAND_RNG_PSEUDO_XORWOW)"),
        "{out}"
    );
}

/// A string symbol (`cudaMemcpyToSymbol("c_tab", ...)`, removed in CUDA 5.0) becomes the
/// variable where the file declares it `__constant__`/`__device__`, for every symbol API; one
/// the file does not declare is reported (T017) rather than passed to HIP as a string (R21-c).
#[test]
fn string_symbols_become_the_variable_or_are_reported() {
    let src = "__constant__ float c_tab[16];\n\
               __device__ int d_n;\n\
               void f(const float* h, float* o, void** p, size_t* s) {\n  \
               cudaMemcpyToSymbol(\"c_tab\", h, 64, 0, cudaMemcpyHostToDevice);\n  \
               cudaMemcpyFromSymbol(o, \"c_tab\", 64);\n  \
               cudaMemcpyToSymbolAsync( \"d_n\" , h, 4);\n  \
               cudaGetSymbolAddress(p, \"d_n\");\n  \
               cudaGetSymbolSize(s, \"c_tab\");\n  \
               cudaMemcpyToSymbol(\"elsewhere\", h, 4);\n}\n";
    let (out, diags) = tr(src, &Options::default());
    assert!(
        out.contains("hipMemcpyToSymbol(HIP_SYMBOL(c_tab), h, 64, 0, hipMemcpyHostToDevice);"),
        "{out}"
    );
    assert!(
        out.contains("hipMemcpyFromSymbol(o, HIP_SYMBOL(c_tab), 64);"),
        "{out}"
    );
    assert!(
        out.contains("hipMemcpyToSymbolAsync(HIP_SYMBOL(d_n), h, 4, 0, hipMemcpyHostToDevice);"),
        "{out}"
    );
    assert!(
        out.contains("hipGetSymbolAddress(p, HIP_SYMBOL(d_n));"),
        "{out}"
    );
    assert!(
        out.contains("hipGetSymbolSize(s, HIP_SYMBOL(c_tab));"),
        "{out}"
    );
    assert!(
        out.contains("hipMemcpyToSymbol(HIP_SYMBOL(\"elsewhere\"), h, 4);"),
        "{out}"
    );
    assert_eq!(diags, ["T017:9:22"], "{out}");
    // Idempotent: the output converts to itself.
    let (again, _) = tr(&out, &Options::default());
    assert_eq!(again, out);
    // A function or a host variable of the name is no symbol.
    let src = "float c_tab[4];\n__device__ float k(int);\n\
               void f(const float* h) { cudaMemcpyToSymbol(\"c_tab\", h, 4); cudaMemcpyToSymbol(\"k\", h, 4); }\n";
    let (_, diags) = tr(src, &Options::default());
    assert_eq!(
        diags.iter().filter(|d| d.starts_with("T017")).count(),
        2,
        "{diags:?}"
    );
}

/// A string symbol declared by a file included with quotes from beside the including one
/// (Rodinia kmeans' `#include "kmeans_cuda_kernel.cu"`) becomes the variable too (R21-c).
#[test]
fn string_symbols_declared_in_a_quoted_include_become_the_variable() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("kern.cu"),
        "__constant__ float c_clusters[64]; /* centers */\n__global__ void k(float* o) { o[0] = c_clusters[0]; }\n",
    )
    .unwrap();
    let main = dir.path().join("main.cu");
    let src = "#include \"kern.cu\"\nvoid f(const float* h) {\n  cudaMemcpyToSymbol(\"c_clusters\",h,64*sizeof(float),0,cudaMemcpyHostToDevice);\n}\n";
    std::fs::write(&main, src).unwrap();
    let (out, diags) = tr_at(main.to_str().unwrap(), src, &Options::default());
    assert!(diags.is_empty(), "{diags:?}");
    assert!(
        out.contains(
            "hipMemcpyToSymbol(HIP_SYMBOL(c_clusters), h, 64*sizeof(float), 0, hipMemcpyHostToDevice);"
        ),
        "{out}"
    );
    std::fs::write(dir.path().join("kern.cu"), "float c_clusters[64];\n").unwrap();
    let (_, diags) = tr_at(main.to_str().unwrap(), src, &Options::default());
    assert_eq!(diags, ["T017:3:22"]);
}

/// The CUDA SDK 4.x utility headers (cutil) are part of neither CUDA nor HIP: their includes get
/// one note (T025) naming them all and what replaces them, like cuda-samples' helpers (R21-g).
#[test]
fn old_sdk_cutil_headers_get_one_note() {
    let src = "#include <cutil_inline.h>\n#include \"cutil_math.h\"\n#include <stdio.h>\n\
               void f(float* d) { CUDA_SAFE_CALL(cudaMalloc((void**)&d, 4)); }\n";
    let r = translate_source(src.as_bytes(), "t.cu", &Options::default()).expect("translates");
    let notes: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T025").collect();
    assert_eq!(notes.len(), 1, "{:?}", r.diagnostics);
    let d = notes[0];
    assert_eq!(d.severity, Severity::Note);
    assert_eq!((d.line, d.column), (1, 10));
    assert!(
        d.message
            .starts_with("`<cutil_inline.h>`, `\"cutil_math.h\"` is not in the input: the CUDA SDK 4.x utility headers"),
        "{}",
        d.message
    );
    assert!(d.help.as_deref().unwrap().contains("helper_math.h"));
    let out = String::from_utf8(r.output).unwrap();
    assert!(out.contains("\n#include <cutil_inline.h>\n"), "{out}");
    let (_, diags) = tr(
        "#include <helper_math.h>\n#include <cutil.hpp>\n",
        &Options::default(),
    );
    assert!(diags.is_empty(), "{diags:?}");
}

/// hipSOLVER has no iterative-refinement statuses, so an error-string switch over every
/// `cusolverStatus_t` gets two equal case labels after renaming: each later one is reported
/// (T014) with the earlier one's line; distinct labels, and the same label in another switch,
/// are not.
#[test]
fn case_labels_that_become_one_name_are_reported() {
    let src = "#include <cusolverDn.h>\n\
               const char* str(cusolverStatus_t s) {\n  switch (s) {\n    \
               case CUSOLVER_STATUS_SUCCESS: return \"ok\";\n    \
               case CUSOLVER_STATUS_INTERNAL_ERROR: return \"internal\";\n    \
               case CUSOLVER_STATUS_IRS_INTERNAL_ERROR: return \"irs internal\";\n    \
               default: return \"?\";\n  }\n}\n\
               int again(cusolverStatus_t s) {\n  switch (s) {\n    \
               case CUSOLVER_STATUS_IRS_INTERNAL_ERROR: return 1;\n    \
               default: return 0;\n  }\n}\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).expect("translates");
    let t014: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T014").collect();
    assert_eq!(t014.len(), 1, "{:?}", r.diagnostics);
    assert_eq!((t014[0].line, t014[0].column), (6, 10));
    assert_eq!(
        t014[0].message,
        "`CUSOLVER_STATUS_IRS_INTERNAL_ERROR` becomes `HIPSOLVER_STATUS_INTERNAL_ERROR`, which the case for `CUSOLVER_STATUS_INTERNAL_ERROR` on line 5 already is: the switch would have two equal case labels"
    );
    let out = String::from_utf8(r.output).unwrap();
    assert_eq!(
        out.matches("case HIPSOLVER_STATUS_INTERNAL_ERROR:").count(),
        3
    );
}

/// `--blas rocblas` renames `cublasGemmEx` to `rocblas_gemm_ex`, whose parameter list is longer
/// (D, a rocblas_datatype compute type, solution_index, flags): reported with the rocBLAS form.
#[test]
fn rocblas_gemm_ex_calls_are_reported_with_their_longer_form() {
    let src = "#include <cublas_v2.h>\n\
               void f(cublasHandle_t h, const float* a, const float* b, float* c, int n, float* al, float* be) {\n  \
               cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, al, a, CUDA_R_32F, n, b, CUDA_R_32F, n, be, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n}\n";
    let roc = Options {
        libs: hipport::translate::Choices {
            blas: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &roc).expect("translates");
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.id == "T015")
        .unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert_eq!((d.line, d.column), (3, 3));
    assert!(
        d.message.contains("`rocblas_gemm_ex(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc, C, Ctype, ldc, rocblas_datatype_f32_r, algo, 0, 0)`"),
        "{}",
        d.message
    );
    // hipBLAS takes cuBLAS's arguments: nothing to report there.
    let (_, diags) = tr(src, &hip52());
    assert!(!diags.iter().any(|d| d.starts_with("T015")), "{diags:?}");
}

/// cuDNN names whose MIOpen function takes other arguments (the workspace last, no algorithm, the
/// filter before the input) or whose struct has other fields are reported at each use (E-d); the
/// ones MIOpen takes as they are, and filter descriptors (MIOpen tensor descriptors), are not (E-k).
#[test]
fn cudnn_calls_whose_miopen_arguments_differ_are_reported_the_same_ones_are_not() {
    let src = "#include <cudnn.h>\n\
               size_t f(cudnnHandle_t h, cudnnTensorDescriptor_t xd, cudnnFilterDescriptor_t wd,\n\
               \x20        cudnnConvolutionDescriptor_t cd, cudnnTensorDescriptor_t yd,\n\
               \x20        cudnnConvolutionFwdAlgo_t algo, cudnnConvolutionFwdAlgoPerf_t* perf,\n\
               \x20        const float* x, const float* w, float* y, void* ws, size_t n) {\n  \
               float a = 1.f, b = 0.f;\n  \
               cudnnGetConvolutionForwardWorkspaceSize(h, xd, wd, cd, yd, algo, &n);\n  \
               cudnnConvolutionForward(h, &a, xd, x, wd, w, cd, algo, ws, n, &b, yd, y);\n  \
               cudnnCreateFilterDescriptor(&wd);\n  \
               cudnnDestroyFilterDescriptor(wd);\n  \
               cudnnCreateTensorDescriptor(&xd);\n  \
               return n + perf[0].memory;\n}\n";
    let r = translate_source(src.as_bytes(), "t.cpp", &hip52()).expect("translates");
    let t015: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "T015")
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(t015.len(), 3, "{:?}", r.diagnostics);
    assert_eq!(t015[0].0, 4);
    assert!(t015[0].1.contains("no `algo`, `status`"), "{}", t015[0].1);
    assert_eq!(t015[1].0, 7);
    assert!(
        t015[1].1.contains("`miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, convDesc, yDesc, &size)`"),
        "{}",
        t015[1].1
    );
    assert_eq!(t015[2].0, 8);
    assert!(t015[2].1.contains("workspace last"), "{}", t015[2].1);
    assert!(
        !r.diagnostics
            .iter()
            .any(|d| d.severity == Severity::Error && d.id != "T015"),
        "{:?}",
        r.diagnostics
    );
    let out = String::from_utf8(r.output).unwrap();
    assert!(out.contains("miopenCreateTensorDescriptor(&wd);"), "{out}");
    // No MIOpen twin: the help names the MIOpen way (E-k).
    let src = "#include <cudnn.h>\nvoid g(cudnnConvolutionDescriptor_t cd) {\n  \
               cudnnSetConvolution2dDescriptor(cd, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);\n}\n";
    let r = translate_source(src.as_bytes(), "t.cpp", &hip52()).expect("translates");
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.id == "T001" && d.message.contains("cudnnSetConvolution2dDescriptor"))
        .unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert!(
        d.help
            .as_deref()
            .is_some_and(|h| h
                .contains("`miopenInitConvolutionDescriptor(convDesc, miopenConvolution, pad_h")),
        "{d:?}"
    );
    assert!(out.contains("miopenDestroyTensorDescriptor(wd);"), "{out}");
}

/// A variable, parameter or field the project names like a CUDA type (`cublasStatus`, the legacy
/// cuBLAS status type) is the project's object: it keeps its name, while the type is renamed (E-c).
#[test]
fn a_variable_named_like_a_cuda_type_keeps_its_name() {
    let src = "#include <cublas_v2.h>\n\
               struct S { cublasStatus_t cublasStatus; };\n\
               int f(cublasHandle_t h, int n, float* x, float* r, cublasStatus_t cudaStream_t) {\n  \
               cublasStatus_t cublasStatus;\n  \
               cublasStatus = cublasSdot(h, n, x, 1, x, 1, r);\n  \
               cublasStatus_t other = cublasStatus;\n  \
               return (int)other + (int)cudaStream_t;\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        out.contains("struct S { hipblasStatus_t cublasStatus; };"),
        "{out}"
    );
    assert!(out.contains("  hipblasStatus_t cublasStatus;\n"), "{out}");
    assert!(out.contains("  cublasStatus = hipblasSdot(h"), "{out}");
    assert!(
        out.contains("hipblasStatus_t other = cublasStatus;"),
        "{out}"
    );
    assert!(out.contains("hipblasStatus_t cudaStream_t)"), "{out}");
    assert!(out.contains("(int)cudaStream_t;"), "{out}");
    assert!(diags.is_empty(), "{diags:?}");
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out);
}

/// A function the project declares under a CUDA API's name (`mine::cusparseGetErrorString`) keeps
/// its name in the declaration, the qualified definition and every call, macro bodies included,
/// and is not reported (Z-c).
#[test]
fn a_function_the_project_declares_under_a_cuda_name_keeps_it_everywhere() {
    let src = "#include <cusparse.h>\n\
               namespace mine {\n\
               const char* cusparseGetErrorString(cusparseStatus_t e);\n\
               #define CHECK(call) { cusparseStatus_t s = (call); if (s) throw mine::cusparseGetErrorString(s); }\n\
               inline void create(cusparseHandle_t* h) { CHECK(cusparseCreate(h)); }\n\
               }\n\
               const char* mine::cusparseGetErrorString(cusparseStatus_t e) { return e ? \"bad\" : \"ok\"; }\n\
               const char* g(cusparseStatus_t e) { return mine::cusparseGetErrorString(e); }\n";
    for v in ["5.2.3", "6.2"] {
        let opts = Options {
            hip_version: Version::parse(v).unwrap(),
            ..hip52()
        };
        let (out, diags) = tr(src, &opts);
        assert_eq!(out.matches("cusparseGetErrorString").count(), 4, "{out}");
        assert!(!out.contains("hipsparseGetErrorString"), "{out}");
        assert!(out.contains("hipsparseCreate(h)"), "{out}");
        assert!(diags.is_empty(), "{diags:?}");
    }
    // Only a qualified definition in the file: still the project's.
    let (out, diags) = tr(
        "const char* mine::cusparseGetErrorString(int e) { return e ? \"b\" : \"o\"; }\n\
         const char* g(int e) { return mine::cusparseGetErrorString(e); }\n",
        &hip52(),
    );
    assert_eq!(out.matches("cusparseGetErrorString").count(), 2, "{out}");
    assert!(diags.is_empty(), "{diags:?}");
}

/// An unknown CUDA-looking name reached through an object or a scope (`Caffe::cublas_handle()`,
/// `ctx.curand_generator()`) is a member of the project's, not an API: no T006 (F1).
#[test]
fn unknown_cuda_looking_members_and_qualified_names_are_not_reported() {
    let src = "#include <cublas_v2.h>\n\
               void f(Ctx& ctx, Ctx* p) {\n  \
               cublasSetStream(Caffe::cublas_handle(), 0);\n  \
               use(ctx.curand_generator(), p->cublas_handle2());\n  \
               use(cublas_unknown_api(), 0);\n}\n";
    let (_, diags) = tr(src, &hip52());
    let t006: Vec<_> = diags.iter().filter(|d| d.starts_with("T006")).collect();
    assert_eq!(t006, ["T006:5:7"], "{diags:?}");
}

/// Before hipSOLVER 2.0 (ROCm 6.0) hipSOLVER takes its own enum types: cuBLAS enums written as
/// arguments of cuSOLVER calls, and the variables passed there, take hipSOLVER's names; a cuBLAS
/// call's stay hipBLAS's. From 6.0 hipSOLVER's types are hipBLAS's. With `--solver rocsolver`,
/// potrf (no workspace in rocSOLVER) is reported (E-g).
#[test]
fn cusolver_calls_get_hipsolver_enums_before_rocm_6() {
    let src = "#include <cusolverDn.h>\n#include <cublas_v2.h>\n\
               int chol(cusolverDnHandle_t h, cublasHandle_t b, int n, double* A, double* w, int lw, int* info) {\n  \
               cublasFillMode_t uplo = CUBLAS_FILL_MODE_LOWER;\n  \
               cusolverDnDpotrf(h, uplo, n, A, n, w, lw, info);\n  \
               cusolverDnDgetrs(h, CUBLAS_OP_N, n, 1, A, n, info, w, n, info);\n  \
               return (int)cublasDgemm(b, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, w, A, n, A, n, w, A, n);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        out.contains("hipsolverFillMode_t uplo = HIPSOLVER_FILL_MODE_LOWER;"),
        "{out}"
    );
    assert!(
        out.contains("hipsolverDnDgetrs(h, HIPSOLVER_OP_N, n"),
        "{out}"
    );
    assert!(
        out.contains("hipblasDgemm(b, HIPBLAS_OP_N, HIPBLAS_OP_T"),
        "{out}"
    );
    assert!(diags.is_empty(), "{diags:?}");
    assert_eq!(tr(&out, &hip52()).0, out);
    let v6 = Options {
        hip_version: Version::new(6, 2, 0),
        ..hip52()
    };
    let (out, _) = tr(src, &v6);
    assert!(
        out.contains("hipblasFillMode_t uplo = HIPBLAS_FILL_MODE_LOWER;"),
        "{out}"
    );
    let roc = Options {
        libs: hipport::translate::Choices {
            solver: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &roc).expect("translates");
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.id == "T015")
        .unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    assert_eq!(d.line, 5);
    assert!(
        d.message
            .contains("`rocsolver_dpotrf(handle, uplo, n, A, lda, devInfo)`"),
        "{}",
        d.message
    );
}

/// Under the legacy `cublas.h`, BLAS calls are the handle-less v1 functions, which hipBLAS lacks:
/// reported (T001) and kept; the functions both APIs share are renamed. With `cublas_v2.h` the
/// same name is the handle API's and renamed (E-l).
#[test]
fn legacy_cublas_blas_calls_are_reported_not_renamed() {
    let body = "void v1(int n, float* A, float* dA) {\n  \
                cublasSetMatrix(n, n, sizeof(float), A, n, dA, n);\n  \
                cublasSgemm('N', 'N', n, n, n, 1.0f, dA, n, dA, n, 0.0f, dA, n);\n}\n";
    let (out, diags) = tr(&format!("#include <cublas.h>\n{body}"), &hip52());
    assert!(out.contains("hipblasSetMatrix(n, n"), "{out}");
    assert!(out.contains("  cublasSgemm('N', 'N'"), "{out}");
    assert_eq!(diags, ["T001:4:3"]);
    let (out, diags) = tr(&format!("#include <cublas_v2.h>\n{body}"), &hip52());
    assert!(out.contains("  hipblasSgemm('N'"), "{out}");
    assert!(diags.is_empty(), "{diags:?}");
}

/// Before HIP 6.0 `cublasGemmEx` has no `hipblasGemmEx_v2`; the help names hipBLAS's older
/// `hipblasGemmEx` and the hipBLAS types it takes, not only "avoid it" (E-j).
#[test]
fn cublas_ex_calls_before_hip_6_name_the_older_hipblas_function() {
    let src = "#include <cublas_v2.h>\n\
               void f(cublasHandle_t h, const void* a, void* c, int n, const float* al) {\n  \
               cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, al, a, CUDA_R_16F, n, a, CUDA_R_16F, n, al, c, CUDA_R_16F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n}\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).expect("translates");
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.id == "T002" && d.message.contains("cublasGemmEx"))
        .unwrap_or_else(|| panic!("{:?}", r.diagnostics));
    let help = d.help.as_deref().unwrap_or("");
    assert!(help.contains("older `hipblasGemmEx`"), "{help}");
    assert!(help.contains("`HIPBLAS_R_16F`"), "{help}");
}

/// nvJPEG and NPP headers have no HIP form: T007 at the include, listing the library's names the
/// file uses so the report shows the size of the job (E-i, F2).
#[test]
fn npp_and_nvjpeg_includes_are_reported_with_the_names_used() {
    let src = "#include <nvjpeg.h>\n#include <npp.h>\n\
               void f(nvjpegHandle_t h, Npp8u* p, NppiSize s) {\n  \
               nvjpegCreateSimple(&h);\n  \
               nppiFilterBoxBorder_8u_C1R(p, 1, s, NppiPoint{0, 0}, p, 1, s, s, NppiPoint{0, 0}, NPP_BORDER_REPLICATE);\n}\n";
    for v in [Version::new(5, 2, 3), Version::new(6, 4, 0)] {
        let opts = Options {
            hip_version: v,
            ..hip52()
        };
        let r = translate_source(src.as_bytes(), "t.cpp", &opts).expect("translates");
        let t007: Vec<_> = r
            .diagnostics
            .iter()
            .filter(|d| d.id == "T007")
            .map(|d| (d.line, d.message.as_str()))
            .collect();
        assert_eq!(
            t007,
            [
                (1, "CUDA header `nvjpeg.h` has no HIP equivalent; the file uses 2 of its names: nvjpegHandle_t, nvjpegCreateSimple"),
                (2, "CUDA header `npp.h` has no HIP equivalent; the file uses 5 of its names: Npp8u, NppiSize, nppiFilterBoxBorder_8u_C1R, NppiPoint, NPP_BORDER_REPLICATE")
            ],
            "{:?}",
            r.diagnostics
        );
    }
}

/// R22-a: TensorRT's headers are NVIDIA-only: T007 (an error) at each include, naming the
/// TensorRT names the file uses and AMD's route (MIGraphX, ONNX Runtime's execution providers).
#[test]
fn tensorrt_includes_are_reported_with_amds_route() {
    let src = "#include <NvInfer.h>\n#include \"NvOnnxParser.h\"\n\
               nvinfer1::IRuntime* make(nvinfer1::ILogger& l) { return nvinfer1 :: createInferRuntime(l); }\n\
               int v() { return NV_TENSORRT_MAJOR; }\n";
    let r = translate_source(src.as_bytes(), "t.cpp", &hip52()).expect("translates");
    let t007: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T007").collect();
    assert_eq!(t007.len(), 2, "{:?}", r.diagnostics);
    assert_eq!(t007[0].severity, Severity::Error);
    assert_eq!(
        t007[0].message,
        "CUDA header `NvInfer.h` is TensorRT's, which is NVIDIA-only: ROCm has no TensorRT; the file uses 4 of its names: IRuntime, ILogger, createInferRuntime, NV_TENSORRT_MAJOR"
    );
    let help = t007[1].help.as_deref().unwrap_or("");
    assert!(
        help.contains("MIGraphX") && help.contains("ONNX Runtime"),
        "{help}"
    );
    // The includes stay.
    assert!(String::from_utf8(r.output)
        .unwrap()
        .starts_with("#include <NvInfer.h>\n#include \"NvOnnxParser.h\"\n"));
}

/// RCCL keeps NCCL's names, but an NCCL name newer than the target's RCCL is reported (E-h).
#[test]
fn nccl_names_newer_than_the_targets_rccl_are_reported() {
    let src = "#include <nccl.h>\n\
               void f(ncclComm_t c, ncclComm_t* nc, void* b, size_t n, cudaStream_t s) {\n  \
               ncclCommSplit(c, 0, 0, nc, NULL);\n  \
               ncclAllReduce(b, b, n, ncclFloat, ncclSum, c, s);\n  \
               ncclMemAlloc(&b, n);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("ncclCommSplit(c, 0, 0, nc, NULL);"), "{out}");
    assert_eq!(diags, ["T002:3:3", "T002:5:3"]);
    let v6 = Options {
        hip_version: Version::new(6, 0, 0),
        ..hip52()
    };
    assert_eq!(tr(src, &v6).1, ["T002:5:3"]);
    let v62 = Options {
        hip_version: Version::new(6, 2, 0),
        ..hip52()
    };
    assert!(tr(src, &v62).1.is_empty());
}

#[test]
fn libcudacxx_std_names_become_std_and_their_headers_the_standard_ones() {
    let src = "#include <cuda/std/limits>\n#include <cuda/std/atomic>\n#include <cuda/atomic>\n#define LOWEST cuda::std::numeric_limits<float>::lowest()\nusing cplx = cuda::std::complex<float>;\nnamespace cs = cuda::std;\n__global__ void k(float* x, cuda::std::atomic<int>* c) {\n  x[0] = ::cuda::std::numeric_limits<float>::max() + cuda :: std :: fmax(x[1], LOWEST);\n  cuda::atomic_ref<float, cuda::thread_scope_device> r(x[2]);\n  my::cuda::std::thing(); cuda::stdx::y();\n  cuda::std::mdspan<float, cuda::std::dextents<int, 2>> m(x, 4, 4);\n  using namespace cuda::std;\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n#include <limits>\n#include <cuda/std/atomic>\n#include <cuda/atomic>\n#define LOWEST std::numeric_limits<float>::lowest()\nusing cplx = std::complex<float>;\nnamespace cs = cuda::std;\n__global__ void k(float* x, cuda::std::atomic<int>* c) {\n  x[0] = ::std::numeric_limits<float>::max() + std :: fmax(x[1], LOWEST);\n  cuda::atomic_ref<float, cuda::thread_scope_device> r(x[2]);\n  my::cuda::std::thing(); cuda::stdx::y();\n  cuda::std::mdspan<float, cuda::std::dextents<int, 2>> m(x, 4, 4);\n  using namespace cuda::std;\n}\n"
    );
    // The namespace itself (`namespace cs = cuda::std;`, `using namespace cuda::std;`) stays
    // too beside `<cuda/std/atomic>`: as `std`, `cs::atomic` would be std's.
    // The atomics keep their includes and names (ROCm's libhipcxx provides both), reported
    // on the includes and at each name's first use: std::atomic is not usable in device code.
    let t007: Vec<&String> = diags.iter().filter(|d| d.starts_with("T007:")).collect();
    assert_eq!(
        t007,
        [
            "T007:2:10",
            "T007:3:10",
            "T007:7:40",
            "T007:9:9",
            "T007:9:33"
        ],
        "{diags:?}"
    );
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out, "a second run changes nothing");
}

/// libcu++'s atomics (`cuda::atomic_ref`, `cuda::memory_order_relaxed`,
/// `cuda::thread_scope_device`, `cuda::std::atomic`) are reported where they are used, once per
/// name, also when `<cuda/atomic>` comes through a third-party header (cuCollections'
/// `<cuco/static_map.cuh>`, I-j); the message names the builtin's argument for an order or a
/// scope, the help the builtins and libhipcxx. Names that merely start alike elsewhere stay quiet.
#[test]
fn libcudacxx_atomics_are_reported_where_used_whatever_header_brought_them() {
    let src = "#include <lib/table.cuh>\n\
               __global__ void bump(int* s, int n) {\n\
               \x20 cuda::atomic_ref<int, cuda::thread_scope_device> r{s[0]};\n\
               \x20 r.fetch_add(1, cuda::memory_order_relaxed);\n\
               \x20 cuda::atomic_ref<int, cuda::thread_scope_device> q{s[1]};\n\
               \x20 cuda::std::atomic_thread_fence(cuda::std::memory_order_seq_cst);\n\
               \x20 mine::atomic_ref<int> m{s[2]}; cuda::std::pair<int, int> p{1, 2};\n\
               \x20 // cuda::memory_order_acquire in a comment\n\
               }\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).expect("translates");
    let got: Vec<(usize, usize, &str)> = r
        .diagnostics
        .iter()
        .map(|d| (d.line, d.column, d.message.as_str()))
        .collect();
    assert_eq!(got.len(), 5, "{got:#?}");
    assert!(r.diagnostics.iter().all(|d| d.id == "T007"
        && d.severity == Severity::Error
        && d.help.as_deref().is_some_and(|h| h.contains(
            "__hip_atomic_fetch_add(&x, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)"
        ) && h.contains("libhipcxx"))));
    assert_eq!(
        got.iter().map(|g| (g.0, g.1)).collect::<Vec<_>>(),
        [(3, 9), (3, 31), (4, 24), (6, 14), (6, 45)]
    );
    assert!(
        got[1].2.contains("`__HIP_MEMORY_SCOPE_AGENT`"),
        "{}",
        got[1].2
    );
    assert!(got[2].2.contains("`__ATOMIC_RELAXED`"), "{}", got[2].2);
    assert!(got[3].2.contains("`<cuda/std/atomic>`"), "{}", got[3].2);
    assert!(got[4].2.contains("`__ATOMIC_SEQ_CST`"), "{}", got[4].2);
    let out = String::from_utf8(r.output).unwrap();
    assert!(out.contains("cuda::atomic_ref<int, cuda::thread_scope_device> r{s[0]};"));
    assert!(out.contains("std::pair<int, int> p") && !out.contains("cuda::std::pair"));
    // In a branch hipcc never compiles, a note.
    let dead =
        "#ifndef __HIPCC__\n__device__ void f(int* s) { cuda::atomic_ref<int> r{*s}; }\n#endif\n";
    let r = translate_source(dead.as_bytes(), "t.cu", &hip52()).expect("translates");
    assert!(
        !r.diagnostics.is_empty()
            && r.diagnostics
                .iter()
                .all(|d| d.id == "T007" && d.severity == Severity::Note),
        "{:?}",
        r.diagnostics
    );
}

/// The T008 parse notes and their warnings on `hip52()` with the analysis on: (line, severity).
fn parse_notes(src: &str) -> Vec<(usize, Severity)> {
    let opts = Options {
        analyze: true,
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &opts).expect("translates");
    r.diagnostics
        .iter()
        .filter(|d| d.id == "T008")
        .map(|d| (d.line, d.severity))
        .collect()
}

/// Functions that each start with a qualifier macro defined outside the input (`inline DEV_ONLY
/// int f(...)`, stdgpu's `STDGPU_DEVICE_ONLY`) cost one T008 note that names the macro and lists
/// the lines, not one per function (O1); a warning where one of them holds a warp operation.
/// One such function alone keeps the plain note.
#[test]
fn unparsed_functions_behind_one_unknown_macro_share_one_note_naming_it() {
    let f =
        |n: usize, body: &str| format!("\ninline DEV_ONLY int\nf{n}(int* a)\n{{\n    {body}\n}}\n");
    let src: String = (1..=4).map(|n| f(n, "return atomicAdd(a, 1);")).collect();
    let opts = Options {
        analyze: true,
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cuh", &opts).expect("translates");
    let notes: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T008").collect();
    assert_eq!(notes.len(), 1, "{notes:#?}");
    assert_eq!((notes[0].line, notes[0].severity), (2, Severity::Note));
    assert!(
        notes[0]
            .message
            .contains("lines 2, 8, 14, 20 (4 declarations)")
            && notes[0].message.contains("`DEV_ONLY`"),
        "{}",
        notes[0].message
    );
    assert!(notes[0]
        .help
        .as_deref()
        .is_some_and(|h| h.contains("`#define DEV_ONLY __device__`")));
    let warp = format!(
        "{src}{}",
        f(5, "return __shfl_down_sync(0xffffffff, *a, 1);")
    );
    assert_eq!(parse_notes(&warp), [(2, Severity::Warning)]);
    // One alone, and one after a template's head line, are named as well.
    let one = "template <typename T, ENABLE_IF(sizeof(T) == 4)>\nDEV_ONLY T\ng(T* a)\n{\n    return *a;\n}\n";
    let r = translate_source(one.as_bytes(), "t.cuh", &opts).expect("translates");
    let notes: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T008").collect();
    assert_eq!(notes.len(), 1, "{notes:#?}");
    assert!(
        notes[0]
            .message
            .starts_with("could not parse lines 1-2, a declaration at the macro `DEV_ONLY`"),
        "{}",
        notes[0].message
    );
}

/// A macro that stands as a whole `if`/`while` condition (`if IN_RANGE(i, n) {`, Q2) parses:
/// no T008 note for each use, and the checks read the body.
#[test]
fn a_macro_written_as_an_if_or_while_condition_parses() {
    let src = "#define IN_RANGE(x, n) (x >= 0 && x < n)\n#define MORE (n > 0)\n\
               __global__ void k(const float *in, float *out, unsigned *v, int n) {\n\
               \x20 int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
               \x20 if IN_RANGE(i, n) {\n    out[i] = in[i] * 2.f;\n  } else if IN_RANGE(i, 2 * n)\n    out[i] = 0;\n\
               \x20 while MORE { n--; }\n  do { n++; } while IN_RANGE(n, 4);\n\
               \x20 switch IN_RANGE(i, n){ default: break; }\n\
               \x20 if IN_RANGE(i, n) { unsigned m = __ballot_sync(0xffffffff, in[i] > 0.f); v[i] = m; }\n\
               \x20 // if this (comment) stays\n}\n";
    assert_eq!(parse_notes(src), []);
    let opts = Options {
        analyze: true,
        ..hip52()
    };
    let (out, diags) = tr(src, &opts);
    assert!(
        out.contains("  if IN_RANGE(i, n) {\n"),
        "the text stays: {out}"
    );
    assert!(diags.iter().any(|d| d.starts_with("H004:12:")), "{diags:?}");
}

/// Macros that open and close a namespace (`BEGIN_NS` / `END_NS`, moderngpu's
/// `BEGIN_MGPU_NAMESPACE`) and qualifier macros do not cost a T008 note per use (R6; from a
/// project header: `tests/header_facts.rs`); and where a line does not parse
/// outside any function, the T008 note does not name the warp operation of the next function,
/// which parsed and was checked.
#[test]
fn namespace_macros_parse_and_parse_notes_name_only_their_own_function() {
    let ns = "#pragma once\n#define BEGIN_NS namespace mine { // ours\n#define END_NS }\n#define HD __host__ __device__\n";
    let body = "BEGIN_NS\nHD inline int twice(int x) { return 2 * x; }\n\
                __global__ void vote(const int *x, unsigned long long *out) {\n\
                \x20 unsigned long long m = __ballot_sync(~0ull, x[threadIdx.x] > 0);\n  out[0] = m;\n}\nEND_NS\n";
    assert_eq!(parse_notes(&format!("{ns}{body}")), []);
    // Unbalanced (the closer written as `}`): left as it was.
    let open_only = "#define BEGIN_NS namespace mine {\nBEGIN_NS\nint f();\n}\n";
    assert_eq!(parse_notes(open_only).len(), 1);
    // A line that does not parse, outside any function, before a kernel with a ballot.
    let before = "DECLARE(a, b) int c;\nint twice(int x) { return 2 * x; }\n\
                  __global__ void vote(const int *x, unsigned long long *out) {\n\
                  \x20 out[0] = __ballot_sync(~0ull, x[threadIdx.x] > 0);\n}\n";
    assert_eq!(parse_notes(before), [(1, Severity::Note)]);
    // Inside the kernel: a warning.
    let inside = "__global__ void vote(const int *x, unsigned long long *out) {\n  @@;\n\
                  \x20 out[0] = __ballot_sync(~0ull, x[threadIdx.x] > 0);\n}\n";
    assert_eq!(parse_notes(inside), [(2, Severity::Warning)]);
}

/// `#pragma unroll` between a loop's header and its unbraced body (MAGMA's sgemm, N-d) parses:
/// no T008 note, the pragmas stay in the output, and the checks read the loop body (a ballot
/// stored in an `unsigned` there is still reported).
#[test]
fn a_pragma_between_a_loop_header_and_its_body_parses() {
    let src = "__global__ void k(unsigned *out, const float *x) {\n    unsigned s = 0;\n    int m, n;\n\
               \x20   #pragma unroll\n    for (n = 0; n < 4; n++)\n        #pragma unroll\n\
               \x20       for (m = 0; m < 4; m++)\n            s = __ballot_sync(0xffffffff, x[m + n] > 0.f);\n\
               \x20   out[threadIdx.x] = s;\n}\n";
    let checked = Options {
        analyze: true,
        ..hip52()
    };
    let (out, diags) = tr(src, &checked);
    assert!(!diags.iter().any(|d| d.starts_with("T008")), "{diags:?}");
    assert!(diags.iter().any(|d| d.starts_with("H00")), "{diags:?}");
    assert_eq!(
        out.matches("#pragma unroll\n").count(),
        2,
        "the pragmas stay: {out}"
    );
}

/// A host-only `.cu` file relies on nvcc's implicit `cuda_runtime.h` (K-h): one that uses the
/// runtime's names gets `#include <hip/hip_runtime.h>`, as a file with device code does; a
/// `.cpp` file does not (its host compiler never had the implicit include), nor a `.cu` file
/// that uses no CUDA name, nor one that includes the runtime itself.
#[test]
fn host_only_cu_files_that_use_runtime_names_get_the_runtime_include() {
    let src = "#include <stdio.h>\n\nint check_last(const char *what) {\n  cudaError_t err = cudaGetLastError();\n  if (err != cudaSuccess) {\n    fprintf(stderr, \"%s: %s\\n\", what, cudaGetErrorString(err));\n    return 1;\n  }\n  return 0;\n}\n";
    let out = |file: &str, text: &str| {
        let r = translate_source(text.as_bytes(), file, &hip52()).expect("translates");
        String::from_utf8(r.output).unwrap()
    };
    for file in ["launch.cu", "sub/check.cuh"] {
        let got = out(file, src);
        assert!(
            got.starts_with("#include <hip/hip_runtime.h>\n#include <stdio.h>\n\nint check_last"),
            "{file}: {got}"
        );
        assert!(got.contains("hipError_t err = hipGetLastError();"), "{got}");
        assert_eq!(out(file, &got), got, "a second run changes nothing");
    }
    let host = out("launch.cpp", src);
    assert!(!host.contains("hip_runtime.h"), "{host}");
    assert!(host.contains("hipGetLastError"), "{host}");
    let plain = "#include <math.h>\nfloat f(float x) { return sqrtf(x); }\n";
    assert_eq!(out("plain.cu", plain), plain);
    let own = "#include <cuda_runtime.h>\nint f() { return cudaGetLastError(); }\n";
    assert_eq!(
        out("own.cu", own),
        "#include <hip/hip_runtime.h>\nint f() { return hipGetLastError(); }\n"
    );
}

/// `::cuda::std::` (from the global namespace) after a keyword or a type follows the include's
/// replacement as `cuda::std::` does (K-f, N-f): the word before the leading `::` is no
/// qualifier, so `const ::cuda::std::uint8_t` is not read as the path `const::cuda::std`.
#[test]
fn global_cuda_std_paths_after_keywords_and_types_become_std() {
    let src = "#include <cuda/std/cstdint>\n#include <cuda/std/array>\n#include <cuda/std/tuple>\nnamespace app::cuda {\n\
               struct G { __device__ ::cuda::std::tuple<int&> operator()(int &p) const { return {p}; } };\n\
               __device__ const ::cuda::std::uint8_t *at(const void *p, int i) {\n\
               \x20 return static_cast<const ::cuda::std::uint8_t *>(p) + i;\n}\n\
               __device__ ::cuda::std::uint8_t *at_mut(void *p) { return static_cast<::cuda::std::uint8_t *>(p); }\n\
               __global__ void k(const void *in, int *out, int v) {\n\
               \x20 const ::cuda::std::array<int, 2> a{1, 2};\n\
               \x20 out[0] = *at(in, 0) + a[0] + ::cuda::std::get<0>(G{}(v)) + cuda::std::get<0>(G{}(v));\n}\n\
               using namespace ::cuda::std;\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(!out.contains("cuda::std"), "{out}");
    for line in [
        "struct G { __device__ ::std::tuple<int&> operator()",
        "__device__ const ::std::uint8_t *at(",
        "static_cast<const ::std::uint8_t *>(p)",
        "__device__ ::std::uint8_t *at_mut(void *p) { return static_cast<::std::uint8_t *>(p); }",
        "  const ::std::array<int, 2> a{1, 2};",
        "+ ::std::get<0>(G{}(v)) + std::get<0>(G{}(v));",
        "using namespace ::std;",
        "namespace app::cuda {",
    ] {
        assert!(out.contains(line), "{line}\n{out}");
    }
    assert!(diags.is_empty(), "{diags:?}");
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out, "a second run changes nothing");
}

/// `using namespace cuda::std;` becomes `using namespace std;`, except beside a libcu++ header
/// that stays (`<cuda/std/atomic>`), whose names keep `cuda::std::`: there `atomic<int>` would
/// otherwise name std's, whose members are host functions in HIP device code.
#[test]
fn using_namespace_cuda_std_stays_beside_headers_that_stay() {
    let kept = "#include <cuda/std/atomic>\nusing namespace cuda::std;\n__global__ void k(atomic<int>* a) { a->fetch_add(1); }\n";
    let (out, _) = tr(kept, &Options::default());
    assert!(out.contains("using namespace cuda::std;"), "{out}");
    let plain = "#include <cuda/std/limits>\nusing namespace cuda::std;\n__global__ void k(int* a) { a[0] = numeric_limits<int>::max(); }\n";
    let (out, _) = tr(plain, &Options::default());
    assert!(
        out.contains("using namespace std;") && out.contains("#include <limits>"),
        "{out}"
    );
}

#[test]
fn hipblas_v2_calls_are_spelled_as_the_target_hipblas_spells_them() {
    // A cuBLAS program as PyTorch extensions write it: GemmEx with CUDA 11 compute types, a
    // complex Level-1 call, and a function pointer (renamed without a call).
    let src = "#include <cublas_v2.h>\n\
               void f(cublasHandle_t h, const void* a, void* c, cuComplex* x, int n) {\n  \
               float one = 1.f, zero = 0.f;\n  \
               cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, CUDA_R_16F, n, a, CUDA_R_16F, n, &zero, c, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n  \
               cublasCaxpy(h, n, x, x, 1, x, 1);\n  \
               auto p = &cublasCscal;\n}\n";
    let at = |major, minor| Options {
        hip_version: Version::new(major, minor, 0),
        ..Options::default()
    };
    // hipBLAS 2.x (ROCm 6.0 to 6.4) offers the hipDataType/hipblasComputeType_t API as `_v2`.
    let (out, diags) = tr(src, &at(6, 4));
    assert!(
        out.contains("hipblasGemmEx_v2(h, HIPBLAS_OP_N")
            && out.contains("hipblasCaxpy_v2(h, n")
            && out.contains("&hipblasCscal_v2;")
            && out.contains("HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT"),
        "{out}"
    );
    assert!(diags.iter().any(|d| d.starts_with("H034:4:")), "{diags:?}");
    // hipBLAS 3.0 (ROCm 7.0) has only that API, under the plain names.
    let (out, diags) = tr(src, &at(7, 0));
    assert!(
        out.contains("hipblasGemmEx(h, HIPBLAS_OP_N")
            && out.contains("hipblasCaxpy(h, n")
            && out.contains("&hipblasCscal;")
            && !out.contains("_v2"),
        "{out}"
    );
    assert!(diags.iter().any(|d| d.starts_with("H034:4:")), "{diags:?}");
    assert!(!diags.iter().any(|d| d.starts_with('T')), "{diags:?}");
}

#[test]
fn a_namespace_alias_keeps_the_name_it_declares() {
    // The ROCm branch of mamba and causal-conv1d: renaming the alias would make it
    // `namespace hipcub = hipcub;`, which hipcc rejects ("redefinition of 'hipcub'").
    let src = "#include <hipcub/hipcub.hpp>\nnamespace cub = hipcub;\nnamespace other = cub;\nnamespace inner = cub::detail;\nusing namespace cub;\nbool same(int a, int b) { return a == b; }\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        out.contains("namespace cub = hipcub;\nnamespace other = hipcub;\nnamespace inner = hipcub::detail;\nusing namespace hipcub;\n"),
        "{out}"
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn device_launch_parameters_h_becomes_the_runtime_header() {
    let src = "#include \"cuda_runtime.h\"\n#include \"device_launch_parameters.h\"\n__global__ void k(float* p) { p[threadIdx.x] = 1.f; }\n";
    let (out, diags) = tr(src, &hip52());
    assert_eq!(
        out,
        "#include \"hip/hip_runtime.h\"\n__global__ void k(float* p) { p[threadIdx.x] = 1.f; }\n"
    );
    assert!(diags.is_empty(), "{diags:?}");
}

#[test]
fn a_project_function_named_like_a_cuda_builtin_keeps_its_name_where_it_is_defined() {
    // pytorch_scatter's own `__shfl_down_sync` overload for its half type, and a ROCm shim:
    // the definitions are the project's, not uses of CUDA's builtin (no T002 there); the calls
    // are still translated.
    let src = "struct H { float h; };\n__device__ inline H __shfl_down_sync(const unsigned mask, const H var, const unsigned delta) {\n  return H{__shfl_down_sync(mask, var.h, delta)};\n}\n__device__ float __shfl_xor_sync(unsigned, float v, int lane);\n__global__ void k(float* p) { p[0] = __shfl_xor_sync(0xffffffffu, p[0], 1); }\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        out.contains("__device__ inline H __shfl_down_sync(const unsigned mask")
            && out.contains("__device__ float __shfl_xor_sync(unsigned, float v, int lane);")
            && out.contains("p[0] = __shfl_xor(p[0], 1);"),
        "{out}"
    );
    // Only the call with a mask parameter is reported (T009), not the two definitions.
    assert_eq!(diags, ["T009:3:29"], "{out}");
}

#[test]
fn a_header_that_tests_use_rocm_says_what_defining_it_would_skip() {
    // vLLM's cuda_compat.h shape: no PyTorch include, so nothing decides USE_ROCM here.
    let src = "#ifndef USE_ROCM\n#define SHFL(v, o) __shfl_xor_sync(0xffffffff, v, o)\n#else\n#define SHFL(v, o) __shfl_xor(v, o)\n#endif\n";
    let r = translate_source(src.as_bytes(), "compat.h", &hip52()).unwrap();
    // The body is only renamed (T013), to a name HIP 5.2 lacks (T002, folded in with its hint).
    let report = r.diagnostics.iter().find(|d| d.id == "T013").expect("T013");
    assert!(
        report.help.as_deref().is_some_and(|h| h.contains(
            "a PyTorch ROCm build defines USE_ROCM, and then hipcc skips this line (`#ifndef USE_ROCM` on line 1"
        ) && h.contains("pass `-D USE_ROCM`")),
        "{report:?}"
    );
    // With the define given, the report is a note about the skipped branch, without the hint.
    let opts = Options {
        defines: vec![hipport::analysis::Define::parse("USE_ROCM").unwrap()],
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "compat.h", &opts).unwrap();
    let report = r.diagnostics.iter().find(|d| d.id == "T013").expect("T013");
    assert_eq!(report.severity, Severity::Note);
    assert!(
        !report.help.as_deref().unwrap_or("").contains("-D USE_ROCM"),
        "{report:?}"
    );
}

#[test]
fn member_conversion_operators_and_cub_temporaries_parse() {
    // pytorch_scatter's `val.operator __half()` and CUB's temporary-object idiom in
    // causal-conv1d and mamba (`typename Ktraits::BlockLoadT(smem).Load(...)`).
    let src = "#include <cuda_fp16.h>\nstruct H { __half h; __device__ operator __half() const { return h; } };\n__device__ float a(H v) { return __half2float(v.operator __half()); }\n__device__ float b(H* v) { return __half2float(v->operator  __half()); }\ntemplate <typename K> __global__ void k(float* s, cudaStream_t* t) {\n  typename K::BlockLoadT(s).Load(s, s);\n  typename K::BlockStoreT (s)->Store(s, s);\n  typename K::Value x(s);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(!diags.iter().any(|d| d.starts_with("T008")), "{diags:?}");
    // The text is kept as written; renames around it still apply.
    assert!(
        out.contains("v.operator __half()")
            && out.contains("v->operator  __half()")
            && out.contains("typename K::BlockLoadT(s).Load(s, s);")
            && out.contains("hipStream_t* t"),
        "{out}"
    );
}

#[test]
fn cuda_13_prefetch_with_a_location_becomes_hip_7_1s_v2_form() {
    let src = "#include <cuda_runtime.h>\nvoid f(float* p, size_t n, cudaStream_t s) {\n  cudaMemLocation loc;\n  loc.type = cudaMemLocationTypeDevice;\n  loc.id = 0;\n  cudaMemPrefetchAsync(p, n, loc, 0, s);\n  cudaMemAdvise_v2(p, n, cudaMemAdviseSetReadMostly, loc);\n  cudaMemPrefetchAsync(p, n, 0, s);\n}\n";
    let at = |major, minor| Options {
        hip_version: Version::new(major, minor, 0),
        ..Options::default()
    };
    let (out, diags) = tr(src, &at(7, 1));
    assert!(
        out.contains("hipMemPrefetchAsync_v2(p, n, loc, 0, s);")
            && out.contains("hipMemAdvise_v2(p, n, hipMemAdviseSetReadMostly, loc);")
            && out.contains("hipMemPrefetchAsync(p, n, 0, s);"),
        "{out}"
    );
    assert!(
        !diags
            .iter()
            .any(|d| d.starts_with("H038") || d.starts_with('T')),
        "{diags:?}"
    );
    // Before 7.1 the location form has no HIP call: H038 on the prefetch, T002 on the `_v2` name.
    let (_, diags) = tr(src, &at(6, 4));
    assert!(diags.iter().any(|d| d.starts_with("H038:6:")), "{diags:?}");
    assert!(diags.iter().any(|d| d.starts_with("T002:7:")), "{diags:?}");
}

#[test]
fn a_platform_macro_the_file_derives_from_hipcc_decides_its_branches() {
    // Single-source code keyed on the file's own `ON_HIP`, defined from `__HIPCC__`: what the
    // CUDA arms name is left there, as notes; the HIP arm's 32-lane full mask is the one widened.
    let src = "\
#if defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)
#define ON_HIP 1
#define LANES_ALL 0xffffffffull
#else
#define ON_HIP 0
#define LANES_ALL 0xffffffffu
#endif
#if ON_HIP
#include <hip/hip_runtime.h>
#else
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#endif
__global__ void k(float* x) {
  float v = x[threadIdx.x];
#if !ON_HIP
  __nv_bfloat16 b = __float2bfloat16(v);
#endif
  x[threadIdx.x] = __shfl_sync(LANES_ALL, v, 0);
}
";
    let opts = Options {
        hip_version: Version::new(6, 2, 0),
        ..Options::default()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &opts).expect("translates");
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("#define LANES_ALL 0xffffffffffffffffull\n#else\n#define ON_HIP 0\n#define LANES_ALL 0xffffffffu\n"),
        "{out}"
    );
    let d = severities(src, &hip52());
    let t002: Vec<(Severity, usize)> = d
        .iter()
        .filter(|(id, _, _)| id == "T002")
        .map(|&(_, s, l)| (s, l))
        .collect();
    assert!(
        !t002.is_empty()
            && t002
                .iter()
                .all(|&(s, l)| s == Severity::Note && (l == 12 || l == 17)),
        "{t002:?}"
    );
    // Where the derivation is undecided (a name a build may set), the arms stay errors.
    let open = src.replace(
        "defined(__HIPCC__) || defined(__HIP_PLATFORM_AMD__)",
        "defined(MY_BUILD)",
    );
    let d = severities(&open, &hip52());
    assert!(
        d.iter()
            .any(|(id, s, _)| id == "T002" && *s == Severity::Error),
        "{d:?}"
    );
}

#[test]
fn a_projects_own_cuda_to_hip_header_keeps_the_cuda_names_it_defines() {
    // The shape of a project's vendor header for HIP builds: CUDA names defined as HIP ones,
    // and beside them CUDA names defined as plain code. Renaming the defined names would
    // define HIP's names as themselves (`#define hipHostMallocMapped hipHostMallocMapped`).
    let src = "\
#include <hip/hip_runtime.h>
#define cudaHostAllocMapped hipHostMallocMapped
#define cudaMallocHost(ptr, size) hipHostMalloc(ptr, size, hipHostMallocDefault)
#define __shfl_xor_sync(mask, var, laneMask, width) __shfl_xor(var, laneMask, width)
#define __trap() do { abort(); } while (0)
#define CUBLAS_TF32_TENSOR_OP_MATH 0
typedef __hip_bfloat16 nv_bfloat16;
static __device__ int __vsubss4(int a, int b) { return a - b; }
static __device__ int twice(int a) { return __vsubss4(a, -a); }
";
    let (out, diags) = tr(src, &hip52());
    assert_eq!(out, src);
    assert!(diags.is_empty(), "{diags:?}");
    // A file that defines a CUDA name as something else, with no HIP in sight, is CUDA code:
    // its names are renamed as before.
    let (out, _) = tr_at(
        "t.h",
        "#define cudaStreamFast cudaStreamNonBlocking\n",
        &hip52(),
    );
    assert_eq!(out, "#define cudaStreamFast hipStreamNonBlocking\n");
    let (out, _) = tr("#define cudaMemcpyDefault 4\n", &hip52());
    assert_eq!(out, "#define hipMemcpyDefault 4\n");
    // A CUDA name defined in a branch for HIP builds is the project's too.
    let own = "#if MY_HIP\n#define __syncwarp() do {} while (0)\n#endif\n";
    let (out, diags) = tr(own, &hip52());
    assert_eq!((out.as_str(), diags), (own, vec![]));
}

/// R22-c: several functions (one a template) each declaring their own `const unsigned mask`:
/// each call's mask is the one of its own function, whatever the others hold.
#[test]
fn a_local_mask_is_read_in_the_calls_own_function() {
    let src = "__device__ float f(float v) {\n  const unsigned mask = 0xffffffff;\n  v += __shfl_down_sync(mask, v, 1);\n  return v;\n}\n\
template <typename T>\n__device__ T g(T v) {\n  const unsigned mask = 0xffffffff;\n  return __shfl_up_sync(mask, v, 1);\n}\n\
__device__ float h(float v) {\n  const unsigned mask = 0x0000ffff;\n  return __shfl_xor_sync(mask, v, 1);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("v += __shfl_down(v, 1);"), "{out}");
    assert!(out.contains("return __shfl_up(v, 1);"), "{out}");
    // The half-warp mask of `h` stays reported.
    assert!(out.contains("__shfl_xor_sync(mask, v, 1)"), "{out}");
    assert_eq!(
        diags.iter().filter(|d| d.starts_with("T009")).count(),
        1,
        "{diags:?}"
    );
}

#[test]
fn a_local_full_mask_never_changed_is_a_full_mask() {
    let src = "__global__ void k(int* d) {\n  int v = d[threadIdx.x];\n  unsigned int mask = 0xffffffff;\n  d[threadIdx.x] = __shfl_up_sync(mask, v, 1, 32);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("__shfl_up(v, 1, 32)"), "{out}");
    assert!(diags.iter().all(|d| !d.starts_with("T009")), "{diags:?}");
    // Changed afterwards (or its address taken): not known, so reported and left.
    for change in ["mask &= 3;", "mask = 1;", "set(&mask);", "mask++;"] {
        let changed = src.replace(
            "  d[threadIdx.x] =",
            &format!("  {change}\n  d[threadIdx.x] ="),
        );
        let (out, diags) = tr(&changed, &hip52());
        assert!(out.contains("__shfl_up_sync(mask"), "{change}: {out}");
        assert!(
            diags.iter().any(|d| d.starts_with("T009")),
            "{change}: {diags:?}"
        );
    }
}

#[test]
fn an_unparsed_loop_in_a_function_with_warp_operations_is_a_warning() {
    let src = "__device__ float warp_sum(float v) {\n  for (int o = 16; o > 0; o /= 2) v += @ __shfl_down_sync(0xffffffff, v, o);\n  return v;\n}\n";
    let d = severities(src, &Options::default());
    let t008: Vec<&(String, Severity, usize)> =
        d.iter().filter(|(id, _, _)| id == "T008").collect();
    assert!(
        !t008.is_empty() && t008.iter().all(|(_, s, _)| *s == Severity::Warning),
        "{d:?}"
    );
    // Without warp operations it stays a note.
    let plain = src.replace("__shfl_down_sync(0xffffffff, v, o)", "o");
    let d = severities(&plain, &Options::default());
    assert!(d.iter().any(|(id, _, _)| id == "T008"), "{d:?}");
    assert!(
        d.iter()
            .filter(|(id, _, _)| id == "T008")
            .all(|(_, s, _)| *s == Severity::Note),
        "{d:?}"
    );
}

#[test]
fn each_arm_of_a_loop_body_chosen_by_if_is_checked_on_its_own() {
    // The loop does not parse as written; each arm is analysed in a copy where it stands alone.
    let src = "__device__ float warp_sum(float v) {\n  for (int o = 16; o > 0; o /= 2)\n#if defined(USE_XOR)\n    v += __shfl_xor_sync(0xffffffff, v, o);\n#else\n    v += __shfl_down_sync(0xffffffff, v, o);\n#endif\n  return v;\n}\n__global__ void k(const float* x, float* y) {\n  float v = warp_sum(x[threadIdx.x]);\n  if (threadIdx.x % warpSize == 0) y[threadIdx.x / warpSize] = v;\n}\n";
    let d = severities(src, &Options::default());
    assert!(
        d.iter()
            .any(|(id, s, l)| id == "H001" && *s == Severity::Error && *l == 2),
        "{d:?}"
    );
    let t008 = d.iter().find(|(id, _, _)| id == "T008").expect("T008");
    assert_eq!(t008.1, Severity::Note);
    // Only the arms hipcc may compile are read: with the build's define, the width-32 shuffle
    // of the HIP arm (32-lane segments) and not the CUDA arm's full-warp one.
    let seg = "__device__ float warp_sum(float v) {\n  for (int o = 16; o > 0; o /= 2)\n#ifdef MY_HIP\n    v += __shfl_down(v, o, 32);\n#else\n    v += __shfl_down_sync(0xffffffff, v, o);\n#endif\n  return v;\n}\n__global__ void k(const float* x, float* y) {\n  float v = warp_sum(x[threadIdx.x]);\n  if ((threadIdx.x & 31) == 0) y[threadIdx.x >> 5] = v;\n}\n";
    let h001_errors = |opts: &Options| {
        translate_source(seg.as_bytes(), "t.cu", opts)
            .expect("translates")
            .diagnostics
            .iter()
            .filter(|d| d.id == "H001" && d.severity == Severity::Error)
            .count()
    };
    assert!(h001_errors(&Options::default()) > 0);
    let hip = Options {
        defines: vec![hipport::analysis::Define::parse("MY_HIP").unwrap()],
        ..Options::default()
    };
    assert_eq!(h001_errors(&hip), 0);
}

#[test]
fn one_report_for_a_sync_builtin_the_target_lacks_in_a_macro_body_or_with_no_plain_form() {
    // In a macro body `__shfl_sync` is only renamed, so HIP 5.2 lacks it: T013 shows the form
    // to write and says the body does not compile as it is; T002 would say half of that again.
    let src = "#define SHFL(m, v, l) __shfl_sync(m, v, l)\n\
               __device__ unsigned long long peers(int key) {\n  return __match_any_sync(0xffffffffffffffffull, key);\n}\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).expect("translates");
    let ids: Vec<String> = r
        .diagnostics
        .iter()
        .map(|d| format!("{}:{}", d.id, d.line))
        .collect();
    assert_eq!(ids, ["T013:1", "H003:3"], "{:?}", r.diagnostics);
    let t013 = &r.diagnostics[0];
    assert_eq!(t013.severity, Severity::Error);
    // What convert does there (nothing), and the form to write, with the call's own arguments
    // (R24-2).
    assert!(
        t013.message.starts_with(
            "in a macro body hipport leaves `__shfl_sync` as written; outside macro bodies `__shfl_sync(m, v, l)` becomes `__shfl(v, l)` where the mask names the full warp;"
        ),
        "{}",
        t013.message
    );
    assert!(
        t013.message
            .ends_with("as written, it does not compile: `__shfl_sync` exists in HIP only from 6.2.0; the target is HIP 5.2.3"),
        "{}",
        t013.message
    );
    assert_eq!(r.diagnostics[1].severity, Severity::Error);
    // From 6.2 the name exists: T013 is a warning about the mask, and nothing is folded.
    let r = translate_source(
        src.as_bytes(),
        "t.cu",
        &Options {
            hip_version: Version::new(6, 2, 0),
            ..Options::default()
        },
    )
    .expect("translates");
    assert!(
        r.diagnostics
            .iter()
            .all(|d| d.id != "T002" && !d.message.contains("as written")),
        "{:?}",
        r.diagnostics
    );
}

#[test]
fn a_typedef_of_a_cuda_name_to_its_own_hip_name_keeps_the_projects_name() {
    // warp-ctc's public header: renamed, the second typedef would read
    // `typedef struct hipStream_t* hipStream_t;`, which redeclares HIP's type.
    let src = "#ifdef __CUDACC__\ntypedef struct CUstream_st* CUstream;\n#else\ntypedef struct hipStream_t* CUstream;\n#endif\nstruct Options { CUstream stream; };\n";
    let (out, _) = tr_at("ctc.h", src, &hip52());
    assert_eq!(
        out,
        "#ifdef __HIPCC__\ntypedef struct ihipStream_t* CUstream;\n#else\ntypedef struct hipStream_t* CUstream;\n#endif\nstruct Options { CUstream stream; };\n"
    );
    // A forward declaration of CUDA's own typedef becomes HIP's.
    let (out, _) = tr_at(
        "t.h",
        "typedef struct CUstream_st* cudaStream_t;\nvoid f(cudaStream_t s);\n",
        &hip52(),
    );
    assert_eq!(
        out,
        "typedef struct ihipStream_t* hipStream_t;\nvoid f(hipStream_t s);\n"
    );
}

#[test]
fn a_define_of_cudacc_is_removed_not_renamed_into_hipccs_own_macro() {
    let src = "#include <cuda_runtime.h>\n#define __CUDACC__\n#include <cooperative_groups.h>\n#ifdef __CUDACC__\nint on_device;\n#endif\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        !out.contains("#define __HIPCC__") && !out.contains("__CUDACC__"),
        "{out}"
    );
    assert!(out.contains("#ifdef __HIPCC__\nint on_device;"), "{out}");
    assert!(diags.contains(&"T016:2:1".to_string()), "{diags:?}");
    let (again, diags) = tr(&out, &hip52());
    assert_eq!(again, out);
    assert!(!diags.iter().any(|d| d.starts_with("T016")));
}

#[test]
fn a_cooperative_groups_reduce_include_alone_brings_hips_cooperative_groups() {
    // FasterTransformer: CUDA's reduce.h includes <cooperative_groups.h>; HIP has no reduce.h
    // (T007, folded into H044 at the `cg::reduce` call, whose help says to remove the include),
    // so removing it must leave `cooperative_groups` declared.
    let src = "#include <cooperative_groups/reduce.h>\nnamespace cg = cooperative_groups;\n__global__ void k(float* o) {\n  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n  o[0] = cg::reduce(t, o[1], cg::plus<float>());\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(
        out.starts_with("#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"),
        "{out}"
    );
    assert_eq!(diags, ["H044:5:10"], "{diags:?}");
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out);
    // Beside the main header, nothing is added.
    let both = format!("#include <cooperative_groups.h>\n{src}");
    let (out, _) = tr(&both, &hip52());
    assert_eq!(out.matches("hip_cooperative_groups.h").count(), 1, "{out}");
}

#[test]
fn launches_with_spaced_chevrons_are_closed_up_or_rewritten() {
    // clang-format's spacing (thundersvm, kaolin): nvcc takes it, hipcc does not.
    let src = "__global__ void k(float* p, int n) {}\n\
void run(float* p, int n, size_t smem) {\n  k << < 1, n, smem >> > (p, n);\n  k<<<1, n>> >(p, n);\n\
  std::vector<std::vector<std::pair<int, int>> > v;\n  int s = n << 2, t = n >> 1;\n}\n";
    let opts = Options {
        launch: LaunchStyle::Keep,
        ..hip52()
    };
    let (out, _) = tr(src, &opts);
    assert!(
        out.contains("  k <<< 1, n, smem >>> (p, n);\n  k<<<1, n>>>(p, n);\n"),
        "{out}"
    );
    assert!(
        out.contains("std::pair<int, int>> > v;") && out.contains("n << 2, t = n >> 1;"),
        "{out}"
    );
    assert_eq!(tr(&out, &opts).0, out);
    let opts = Options {
        launch: LaunchStyle::Hip,
        ..hip52()
    };
    let (out, _) = tr(src, &opts);
    assert!(
        out.contains("  hipLaunchKernelGGL(k, dim3(1), dim3(n), smem, 0, p, n);\n  hipLaunchKernelGGL(k, dim3(1), dim3(n), 0, 0, p, n);\n"),
        "{out}"
    );
}

#[test]
fn a_macro_the_file_defines_in_every_build_serves_where_hip_lacks_the_name() {
    // The project's own constant under CUDA's name: HIP 5.2 has no HIP_PI_F, but the
    // project's macro needs none, so the names stay and nothing is reported.
    let src = "#ifndef MATH_CUH\n#define MATH_CUH\n#ifndef CUDART_PI_F\n#define CUDART_PI_F 3.14159f\n#endif\n#define CUDART_INF_F __int_as_float(0x7f800000)\n__device__ float f() { return CUDART_PI_F + CUDART_INF_F; }\n#endif\n";
    let (out, diags) = tr(src, &hip52());
    let with_runtime = src.replacen(
        "#define MATH_CUH\n",
        "#define MATH_CUH\n#include <hip/hip_runtime.h>\n",
        1,
    );
    assert_eq!(out, with_runtime);
    assert!(diags.is_empty(), "{diags:?}");
    // Where HIP has the name, it is renamed at the definition and the uses alike.
    let hip62 = Options {
        hip_version: Version::new(6, 2, 0),
        ..hip52()
    };
    let (out, _) = tr(src, &hip62);
    assert_eq!(out, with_runtime.replace("CUDART_", "HIP_"));
    // Defined only in some builds, the name is not the project's under hipcc: reported.
    let src = "#ifndef WITH_CUDA\n#define CUDART_PI_F 3.14159f\n#endif\n__device__ float g() { return CUDART_PI_F; }\n";
    let (_, diags) = tr(src, &hip52());
    assert!(diags.iter().any(|d| d.starts_with("T002")), "{diags:?}");
    let src = "#ifndef CUDART_PI_F\n#include <math_constants.h>\n#else\n#define CUDART_PI_F 3.14159f\n#endif\n";
    let (_, diags) = tr(src, &hip52());
    assert!(diags.iter().any(|d| d.starts_with("T002")), "{diags:?}");
}

#[test]
fn a_condition_that_names_both_compilers_is_left_as_it_is() {
    for src in [
        "#if defined(__CUDACC__) || defined(__HIPCC__)\n#define HD __host__ __device__\n#endif\n",
        "#if defined(__HIPCC__) || \\\n    defined(__CUDACC__)\n#define HD __host__ __device__\n#endif\n",
    ] {
        let (out, _) = tr(src, &hip52());
        assert_eq!(out, src);
    }
    let (out, _) = tr(
        "#if defined(__CUDACC__)\n#define HD __host__ __device__\n#endif\n",
        &hip52(),
    );
    assert!(out.starts_with("#if defined(__HIPCC__)\n"), "{out}");
}

#[test]
fn the_cuda_arm_of_a_hip_guard_is_left_as_written() {
    // An already ported header: its CUDA arm is for nvcc, which has no HIP headers.
    let src = "#if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)\n#include <hip/hip_runtime.h>\n#else\n#include <cuda_runtime.h>\n#endif\n\
               template <typename T>\n__device__ T xor_shfl(T v, int m) {\n\
               #if defined(__HIP_PLATFORM_AMD__) || defined(__HIPCC__)\n  return __shfl_xor(v, m, warpSize);\n#else\n  return __shfl_xor_sync(0xffffffff, v, m, warpSize);\n#endif\n}\n";
    for hip in [
        hip52(),
        Options {
            hip_version: Version::new(6, 2, 0),
            ..hip52()
        },
    ] {
        let r = translate_source(src.as_bytes(), "shfl.cuh", &hip).unwrap();
        assert_eq!(String::from_utf8(r.output).unwrap(), src);
        assert!(r.renames.is_empty(), "{:?}", r.renames);
    }
    // A branch hipcc skips for another reason (an architecture test) is still ported.
    let (out, _) = tr(
        "__global__ void k(float* x) {\n#if __CUDA_ARCH__ >= 800\n  x[0] = __shfl_xor_sync(0xffffffff, x[0], 1);\n#endif\n}\n",
        &hip52(),
    );
    assert!(out.contains("__shfl_xor(x[0], 1)"), "{out}");
}

#[test]
fn a_macro_the_file_defines_in_a_branch_hipcc_skips_gets_no_note() {
    let src = "#include <cuda_bf16.h>\n#if __CUDA_ARCH__ >= 800\n#ifndef CUDART_INF_BF16\n#define CUDART_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)\n#endif\n#endif\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    assert!(
        r.diagnostics
            .iter()
            .all(|d| !d.message.contains("CUDART_INF_BF16")),
        "{:?}",
        r.diagnostics
    );
    // What the macro's body calls is still a name HIP 5.2 lacks, noted as before.
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.id == "T002" && d.message.starts_with("`__ushort_as_bfloat16`")),
        "{:?}",
        r.diagnostics
    );
}

/// A `math_constants.h` macro HIP lacks at the target (`CUDART_INF_F` before HIP 5.3,
/// `CUDART_PI` before 5.7) is reported with its value, which the target compiles, and a standard
/// spelling where one exists; the include's report says to remove it once they are written (G2).
#[test]
fn math_constants_hip_lacks_are_reported_with_a_spelling_the_target_compiles() {
    let src = "#include <math_constants.h>\n__global__ void k(float* p, double* q) {\n  p[0] = -CUDART_INF_F;\n  q[0] = CUDART_PI;\n  p[1] = CUDART_MAX_NORMAL_F;\n  p[2] = CUDART_NEG_ZERO_F;\n}\n";
    let helps = |opts: &Options| -> Vec<(usize, String)> {
        let r = translate_source(src.as_bytes(), "t.cu", opts).expect("translates");
        r.diagnostics
            .iter()
            .filter(|d| d.id == "T002")
            .map(|d| (d.line, d.help.clone().unwrap_or_default()))
            .collect()
    };
    let h = helps(&hip52());
    assert_eq!(h.iter().map(|x| x.0).collect::<Vec<_>>(), [1, 3, 4, 5, 6]);
    assert!(
        h[0].1
            .contains("remove the include once each `CUDART_` constant is written as its value"),
        "{}",
        h[0].1
    );
    assert!(
        h[1].1
            .contains("`__int_as_float(0x7f800000U)` (or `INFINITY` from <cmath>"),
        "{}",
        h[1].1
    );
    assert!(
        h[2].1
            .contains("`3.1415926535897931e+0` (or `M_PI` from <cmath>"),
        "{}",
        h[2].1
    );
    assert!(h[3].1.contains("(or `FLT_MAX` from <cfloat>"), "{}", h[3].1);
    assert!(
        h[4].1.ends_with("compiles: `__int_as_float(0x80000000U)`"),
        "{}",
        h[4].1
    );
    let v53 = Options {
        hip_version: Version::new(5, 3, 0),
        ..hip52()
    };
    let h = helps(&v53);
    assert_eq!(h.len(), 1, "{h:?}");
    assert!(h[0].1.contains("`--hip-version 5.7`, or write its value as CUDA's math_constants.h defines it, which HIP 5.3.0 compiles"), "{}", h[0].1);
}

/// `__ffs`/`__popc` of a vote become `__ffsll`/`__popcll`, with the `_sync` form lowered or kept
/// and a mask inside: HIP's `__ballot` is `unsigned long long` on every target, and HIP 5.2.3's
/// `__ffs` of it is ambiguous (I-l; `corpus/programs/ballot_first_lane.cu` compiles with hipcc for
/// gfx90a and gfx1030 in `tests/hipcc.rs`). Other arguments, and a vote in a comment, stay.
#[test]
fn bit_operations_on_a_vote_take_the_64_bit_forms() {
    let src = "__global__ void k(const unsigned* s, unsigned key, int* out, unsigned w) {\n  \
               int a = __ffs(__ballot_sync(0xFFFFFFFF, s[0] == key) & 0x15555555) - 1;\n  \
               int b = __popc(__ballot(s[1] > key));\n  \
               int c = __ffs(w) + __popc(w /* __ballot */);\n  \
               out[0] = a + b + c;\n}\n";
    let expect = |ballot: &str| {
        format!(
            "#include <hip/hip_runtime.h>\n__global__ void k(const unsigned* s, unsigned key, int* out, unsigned w) {{\n  \
             int a = __ffsll({ballot} & 0x15555555) - 1;\n  \
             int b = __popcll(__ballot(s[1] > key));\n  \
             int c = __ffs(w) + __popc(w /* __ballot */);\n  \
             out[0] = a + b + c;\n}}\n"
        )
    };
    let (out, _) = tr(src, &hip52());
    assert_eq!(out, expect("__ballot(s[0] == key)"));
    let v62 = Options {
        hip_version: Version::new(6, 2, 0),
        ..hip52()
    };
    let (out62, _) = tr(src, &v62);
    assert_eq!(
        out62,
        expect("__ballot_sync(0xffffffffffffffffull, s[0] == key)")
    );
    for (o, opts) in [(&out, hip52()), (&out62, v62)] {
        assert_eq!(&tr(o, &opts).0, o, "a second run changes nothing");
    }
    // In a macro body as well.
    let (out, _) = tr(
        "#define FIRST(p) (__ffs(__ballot_sync(0xffffffff, p)) - 1)\n#define ONES(x) __popc(x)\n",
        &hip52(),
    );
    assert!(
        out.contains("#define FIRST(p) (__ffsll(__ballot_sync(0xffffffff, p)) - 1)\n#define ONES(x) __popc(x)\n"),
        "{out}"
    );
}

/// Options for `--sparse rocsparse` at HIP `v`.
fn rocsparse_at(v: Version) -> Options {
    Options {
        libs: hipport::translate::Choices {
            sparse: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        hip_version: v,
        ..Options::default()
    }
}

/// cuSPARSE's column order is rocSPARSE's `rocsparse_order_column` and its row order
/// `rocsparse_order_row` (HIPIFY's table swaps them: T-f); for hipSPARSE, the column order is
/// `HIPSPARSE_ORDER_COLUMN` before hipSPARSE renamed it in ROCm 5.4 and `HIPSPARSE_ORDER_COL`
/// from then on (T-e: it was a T002 error before 5.4).
#[test]
fn dense_orders_keep_their_meaning_in_rocsparse_and_their_hipsparse_spelling_per_release() {
    let src = "#include <cusparse.h>\n\
               int f(cusparseDnMatDescr_t* d, float* p) {\n  \
               cusparseCreateDnMat(d, 2, 2, 2, p, CUDA_R_32F, CUSPARSE_ORDER_COL);\n  \
               return CUSPARSE_ORDER_ROW;\n}\n";
    let (out, _) = tr(src, &rocsparse_at(Version::new(6, 2, 0)));
    assert!(out.contains(", rocsparse_order_column);"), "{out}");
    assert!(out.contains("return rocsparse_order_row;"), "{out}");
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains(", HIPSPARSE_ORDER_COLUMN);"), "{out}");
    assert!(out.contains("return HIPSPARSE_ORDER_ROW;"), "{out}");
    assert!(diags.is_empty(), "{diags:?}");
    let (out, diags) = tr(
        src,
        &Options {
            hip_version: Version::new(5, 4, 0),
            ..Options::default()
        },
    );
    assert!(out.contains(", HIPSPARSE_ORDER_COL);"), "{out}");
    assert!(diags.is_empty(), "{diags:?}");
}

/// With `--sparse rocsparse`, the generic API's calls become rocSPARSE functions with other
/// parameter lists (`rocsparse_spmm` takes a stage and the buffer size pointer; the data types are
/// `rocsparse_datatype`s): each use is reported with rocSPARSE's form (T-g), as `cublasGemmEx`
/// is under `--blas rocblas`; the calls rocSPARSE takes as they are (`cusparseAxpby`) are not.
#[test]
fn rocsparse_generic_calls_whose_arguments_differ_are_reported() {
    let src = "#include <cusparse.h>\n\
               int f(cusparseHandle_t h, cusparseSpMatDescr_t A, cusparseDnMatDescr_t B,\n\
               \x20     cusparseDnMatDescr_t C, cusparseSpVecDescr_t x, cusparseDnVecDescr_t y,\n\
               \x20     float* p, void* buf, size_t* bs) {\n  \
               float a = 1.f, b = 0.f;\n  \
               cusparseCreateDnMat(&B, 2, 2, 2, p, CUDA_R_32F, CUSPARSE_ORDER_COL);\n  \
               cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &a, A, B, &b, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, bs);\n  \
               cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &a, A, B, &b, C, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buf);\n  \
               return cusparseAxpby(h, &a, x, &b, y);\n}\n";
    let r = translate_source(src.as_bytes(), "t.cu", &rocsparse_at(Version::new(6, 2, 0)))
        .expect("translates");
    let t015: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "T015")
        .map(|d| (d.line, d.message.as_str()))
        .collect();
    assert_eq!(t015.len(), 3, "{:?}", r.diagnostics);
    assert_eq!(t015[0].0, 6);
    assert!(
        t015[0].1.contains("rocsparse_datatype_f32_r"),
        "{}",
        t015[0].1
    );
    assert_eq!(t015[1].0, 7);
    assert!(
        t015[1]
            .1
            .contains("rocsparse_spmm_stage_buffer_size, bufferSize, nullptr)`"),
        "{}",
        t015[1].1
    );
    assert_eq!(t015[2].0, 8);
    assert!(
        t015[2]
            .1
            .contains("rocsparse_spmm_stage_compute, &bufferSize, externalBuffer)`"),
        "{}",
        t015[2].1
    );
    // hipSPARSE takes cuSPARSE's arguments: nothing to report.
    let (_, diags) = tr(src, &hip52());
    assert!(!diags.iter().any(|d| d.starts_with("T015")), "{diags:?}");
}

/// `cublasHgemm` becomes `hipblasHgemm`, which takes `hipblasHalf` (`uint16_t`) pointers where
/// cuBLAS takes `__half` ones: each use is reported with the casts to write (U-a), unless the
/// build defines `HIPBLAS_USE_HIP_HALF`; under `--blas rocblas`, with `rocblas_half`.
#[test]
fn half_precision_gemms_are_reported_with_the_casts_hipblas_needs() {
    let src = "#include <cublas_v2.h>\n#include <cuda_fp16.h>\n\
               cublasStatus_t g(cublasHandle_t h, const half* a, const half* A, const half* B,\n\
               \x20                const half* b, half* C) {\n  \
               return cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, a, A, 2, B, 2, b, C, 2);\n}\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).expect("translates");
    let d = r
        .diagnostics
        .iter()
        .find(|d| d.id == "T015")
        .expect("reported");
    assert_eq!(d.line, 5);
    assert!(
        d.message.contains("`hipblasHalf` pointers"),
        "{}",
        d.message
    );
    let help = d.help.as_deref().unwrap_or_default();
    assert!(
        help.contains("reinterpret_cast<const hipblasHalf*>(alpha)"),
        "{help}"
    );
    assert!(help.contains("reinterpret_cast<hipblasHalf*>(C)"), "{help}");
    let defined = format!("#define HIPBLAS_USE_HIP_HALF\n{src}");
    let (_, diags) = tr(&defined, &hip52());
    assert!(!diags.iter().any(|d| d.starts_with("T015")), "{diags:?}");
    let roc = Options {
        libs: hipport::translate::Choices {
            blas: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        ..hip52()
    };
    let r = translate_source(src.as_bytes(), "t.cu", &roc).expect("translates");
    assert!(
        r.diagnostics
            .iter()
            .any(|d| d.id == "T015" && d.message.contains("`rocblas_half` pointers")),
        "{:?}",
        r.diagnostics
    );
}

/// CUDA's float `sincos(float, float*, float*)` (and `sincospi`) is not in HIP, whose device
/// math declares them for double only (U-c): a call on declared floats becomes `sincosf`, one on
/// doubles stays, one on a template parameter is reported.
#[test]
fn float_sincos_becomes_sincosf_double_stays_template_is_reported() {
    let src = "template <typename Scalar>\n\
               __device__ void kep(Scalar E, Scalar* s, Scalar* c) { sincos(E, s, c); }\n\
               __global__ void k(const float* x, float* s, float* c, double* d) {\n  \
               int i = threadIdx.x;\n  \
               float fs, fc;\n  \
               sincos(x[i], s + i, c + i);\n  \
               sincospi(x[i], &fs, &fc);\n  \
               sincos(d[0], d + 1, d + 2);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("  sincosf(x[i], s + i, c + i);"), "{out}");
    assert!(out.contains("  sincospif(x[i], &fs, &fc);"), "{out}");
    assert!(out.contains("  sincos(d[0], d + 1, d + 2);"), "{out}");
    assert!(out.contains("{ sincos(E, s, c); }"), "{out}");
    assert_eq!(diags, vec!["T001:2:55".to_string()]);
    let (again, _) = tr(&out, &hip52());
    assert_eq!(again, out);
}

/// hipSPARSE marks `hipsparseXcsrgemm2Nnz` and the other functions HIPIFY dates as deprecated
/// only for its NVIDIA backend (`DEPRECATED_CUDA_11000` is empty on AMD): no T004 (U3).
#[test]
fn hipsparse_deprecations_of_the_cuda_backend_are_not_reported() {
    let src = "#include <cusparse.h>\n\
               cusparseStatus_t f(cusparseHandle_t h, csrgemm2Info_t info) {\n  \
               cusparseCreateCsrgemm2Info(&info);\n  \
               return cusparseXcsrgemm2Nnz(h, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, info, 0);\n}\n";
    let (out, diags) = tr(src, &hip52());
    assert!(out.contains("hipsparseXcsrgemm2Nnz("), "{out}");
    assert!(!diags.iter().any(|d| d.starts_with("T004")), "{diags:?}");
}

/// A HIP header the input already includes is checked against the target too: HIP 5.2.3 has no
/// `hip/hip_math_constants.h` (T7), which `math_constants.h` becomes from HIP 5.3.
#[test]
fn a_hip_header_the_target_lacks_is_reported_where_the_input_names_it() {
    let src = "#include <hip/hip_runtime.h>\n#include <hip/hip_math_constants.h>\n\
               __global__ void k(float* x) { x[0] = -HIP_INF_F; }\n";
    let (out, diags) = tr(src, &hip52());
    assert_eq!(out, src);
    assert_eq!(diags, vec!["T002:2:10".to_string()]);
    let (_, diags) = tr(
        src,
        &Options {
            hip_version: Version::new(5, 3, 0),
            ..Options::default()
        },
    );
    assert!(diags.is_empty(), "{diags:?}");
}

/// H034 describes the hipBLAS `_v2` form of `cublasGemmEx`; with `--blas rocblas` the call
/// becomes `rocblas_gemm_ex` (reported as T015), so H034 is not reported (T3).
#[test]
fn hipblas_compute_type_warning_is_not_given_for_rocblas() {
    let src = "#include <cublas_v2.h>\n\
               cublasStatus_t g(cublasHandle_t h, const float* A, const float* B, float* C) {\n  \
               float a = 1.f, b = 0.f;\n  \
               return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &a, A, CUDA_R_32F, 2, B, CUDA_R_32F, 2, &b, C, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n}\n";
    let hip = Options {
        hip_version: Version::new(6, 2, 0),
        analyze: true,
        ..Options::default()
    };
    let (_, diags) = tr(src, &hip);
    assert!(diags.iter().any(|d| d.starts_with("H034")), "{diags:?}");
    let roc = Options {
        libs: hipport::translate::Choices {
            blas: hipport::translate::Lib::Roc,
            ..Default::default()
        },
        ..hip
    };
    let (_, diags) = tr(src, &roc);
    assert!(!diags.iter().any(|d| d.starts_with("H034")), "{diags:?}");
    assert!(diags.iter().any(|d| d.starts_with("T015")), "{diags:?}");
}

/// R23-b: CUB wrapped in the project's namespace (`CUB_NS_PREFIX namespace myext {`) is used as
/// `myext::cub::DeviceScan`; hipCUB ignores the wrapping macros and declares `::hipcub` only,
/// so the project's qualifiers go with the rename, the qualifier macro's body becomes
/// `::hipcub`, and one note (T018) at the first wrapping `#define` says so.
#[test]
fn cub_wrapped_in_a_project_namespace_becomes_global_hipcub() {
    let src = "\
#undef CUB_NS_PREFIX
#define CUB_NS_PREFIX namespace outer { namespace myext {
#define CUB_NS_POSTFIX } }
#define CUB_NS_QUALIFIER ::outer::myext::cub // the wrapped CUB
#include <cub/cub.cuh>
#define MY_CUB outer::myext::cub::
void f(const int* in, int* out, int n, void* t, size_t& b, cudaStream_t s) {
  outer::myext::cub::DeviceScan::ExclusiveSum(t, b, in, out, n, s);
  ::outer :: myext::cub::DeviceReduce::Max(t, b, in, out, n, s);
  cub::DeviceScan::InclusiveSum(t, b, in, out, n, s);
  ::cub::DeviceScan::InclusiveSum(t, b, in, out, n, s);
  CUB_NS_QUALIFIER::DeviceSelect::If(t, b, in, out, n, s);
}
namespace mine { namespace cub = ::outer::myext::cub; }
using namespace outer::myext::cub;
";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert_eq!(
        out,
        "\
#include <hip/hip_runtime.h>
#undef CUB_NS_PREFIX
#define CUB_NS_PREFIX namespace outer { namespace myext {
#define CUB_NS_POSTFIX } }
#define CUB_NS_QUALIFIER ::hipcub // the wrapped CUB
#include <hipcub/hipcub.hpp>
#define MY_CUB hipcub::
void f(const int* in, int* out, int n, void* t, size_t& b, hipStream_t s) {
  hipcub::DeviceScan::ExclusiveSum(t, b, in, out, n, s);
  ::hipcub::DeviceReduce::Max(t, b, in, out, n, s);
  hipcub::DeviceScan::InclusiveSum(t, b, in, out, n, s);
  ::hipcub::DeviceScan::InclusiveSum(t, b, in, out, n, s);
  CUB_NS_QUALIFIER::DeviceSelect::If(t, b, in, out, n, s);
}
namespace mine { namespace cub = ::hipcub; }
using namespace hipcub;
"
    );
    let notes: Vec<_> = r.diagnostics.iter().filter(|d| d.id == "T018").collect();
    assert_eq!(notes.len(), 1, "{:?}", r.diagnostics);
    assert_eq!((notes[0].severity, notes[0].line), (Severity::Note, 2));
    assert!(
        notes[0]
            .message
            .contains("`outer::myext::cub::` becomes `hipcub::`"),
        "{}",
        notes[0].message
    );
    // Converting the output again changes nothing.
    let again = translate_source(out.as_bytes(), "t.cu", &hip52()).unwrap();
    assert_eq!(String::from_utf8(again.output).unwrap(), out);
    // ATen's own `at::cuda::cub` wrappers are PyTorch's namespace, not a wrapped CUB: the
    // qualifiers stay.
    let aten = "void f(int* k, int n) { at::cuda::cub::radix_sort_keys(k, k, n); }\n";
    let r = translate_source(aten.as_bytes(), "t.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(out.contains("{ at::cuda::"), "{out}");
}

/// R23-b: the wrapping `#define`s in a branch hipcc skips get no note.
#[test]
fn cub_wrapping_defines_hipcc_skips_get_no_note() {
    let src = "\
#ifndef __HIP_PLATFORM_AMD__
#define CUB_WRAPPED_NAMESPACE myext
#endif
#include <cub/cub.cuh>
";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    assert!(
        r.diagnostics.iter().all(|d| d.id != "T018"),
        "{:?}",
        r.diagnostics
    );
}

/// R23-e: a roc* call the source writes itself, in code hipcc compiles, given values whose CUDA
/// types (or a CUDA enumerator) hipport writes as the hip* wrapper's, or returned as one, is an
/// error (T015) that names the roc* option; not under that option, not in a branch hipcc skips,
/// and not for a value the source casts.
#[test]
fn a_roc_library_call_given_hip_wrapper_types_is_reported() {
    let src = "\
#include <cublas_v2.h>
#include <curand.h>
cublasStatus_t f(cublasHandle_t h, const cublasOperation_t& t, int n, const float* a, float* c) {
#ifdef __HIP_PLATFORM_AMD__
  rocblas_sgemm((rocblas_handle)h, rocblas_operation_none, rocblas_operation_none, n, n, n, a, a, n, a, n, a, c, n);
  rocblas_sgemm(h, t, CUBLAS_OP_N, n, n, n, a, a, n, a, n, a, c, n);
  return rocblas_sgemm(&(*h), rocblas_operation_none, rocblas_operation_none, n, n, n, a, a, n, a, n, a, c, n);
#else
  return cublasSgemm(h, t, t, n, n, n, a, a, n, a, n, a, c, n);
#endif
}
void g(curandGenerator_t gen, float* p, size_t n) {
  rocrand_generate_uniform(gen, p, n);
}
#ifndef __HIPCC__
void k(cublasHandle_t h) { rocblas_destroy_handle(h); }
#endif
";
    let reports = |opts: &Options| -> Vec<(usize, String)> {
        let r = translate_source(src.as_bytes(), "t.cu", opts).unwrap();
        r.diagnostics
            .iter()
            .filter(|d| d.id == "T015" && d.message.contains("` is roc"))
            .map(|d| {
                (
                    d.line,
                    format!("{} | {}", d.message, d.help.clone().unwrap_or_default()),
                )
            })
            .collect()
    };
    let found = reports(&hip52());
    let lines: Vec<usize> = found.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [6, 7, 13], "{found:#?}");
    let (_, six) = &found[0];
    assert!(
        six.contains(
            "`h` (a `cublasHandle_t`): `hipblasHandle_t`, `rocblas_handle` with `--blas rocblas`"
        ),
        "{six}"
    );
    assert!(
        six.contains("`t` (a `cublasOperation_t`): `hipblasOperation_t`"),
        "{six}"
    );
    assert!(
        six.contains(
            "`CUBLAS_OP_N`: `HIPBLAS_OP_N`, `rocblas_operation_none` with `--blas rocblas`"
        ),
        "{six}"
    );
    assert!(six.contains("| convert with `--blas rocblas`"), "{six}");
    let (_, seven) = &found[1];
    assert!(
        seven.contains("`h` (a `cublasHandle_t`)")
            && seven.contains(
                "the result (returned as `cublasStatus_t`): `hipblasStatus_t`, `rocblas_status`"
            ),
        "{seven}"
    );
    assert!(
        found[2]
            .1
            .contains("`rocrand_generate_uniform` is rocRAND's")
            && found[2].1.contains("`--rand rocrand`"),
        "{}",
        found[2].1
    );
    // With the roc* libraries chosen the types agree.
    let mut roc = hip52();
    roc.libs.blas = hipport::translate::Lib::Roc;
    roc.libs.rand = hipport::translate::Lib::Roc;
    assert_eq!(reports(&roc), []);
}

/// R23-f: every error or warning of the translation pass in a branch hipcc skips is a note that
/// names the directive, T015 and T017 included; in a branch left as written (the `#else` of a
/// project's `#ifdef MYLIB_USE_HIP` with `-D MYLIB_USE_HIP`) the message no longer says the
/// call "becomes" its HIP name, since the line is not changed; where hipport renames in a
/// branch hipcc skips (`#if __CUDA_ARCH__ >= 800`) it says the branch does not stop the build.
#[test]
fn translation_errors_in_branches_hipcc_skips_are_notes_that_claim_no_rename() {
    let src = "\
#include <cublas_v2.h>
#include <cuda_fp16.h>
__constant__ float c_tab[4];
cublasStatus_t hgemm(cublasHandle_t h, int n, const __half* a, __half* C) {
#ifdef MYLIB_USE_HIP
  return my_hip_hgemm(h, n, a, C);
#else
  cudaMemcpyToSymbol(\"d_tab\", a, 4);
  return cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, a, a, n, a, n, a, C, n);
#endif
}
cublasStatus_t g(cublasHandle_t h, int n, const __half* a, __half* C) {
#if __CUDA_ARCH__ >= 800
  return cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, a, a, n, a, n, a, C, n);
#else
  return CUBLAS_STATUS_SUCCESS;
#endif
}
";
    let mut opts = hip52();
    opts.defines.push(hipport::analysis::Define {
        name: "MYLIB_USE_HIP".into(),
        value: Some(1),
        undefined: false,
    });
    let r = translate_source(src.as_bytes(), "t.cu", &opts).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    // The `#else` is left as written; the `__CUDA_ARCH__` branch is renamed.
    assert!(out.contains("  return cublasHgemm(h, CUBLAS_OP_N"), "{out}");
    assert!(
        out.contains("  return hipblasHgemm(h, HIPBLAS_OP_N"),
        "{out}"
    );
    let found: Vec<(&str, Severity, usize, &str)> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "T015" || d.id == "T017")
        .map(|d| (d.id.as_str(), d.severity, d.line, d.message.as_str()))
        .collect();
    let at = |line: usize| {
        found
            .iter()
            .find(|f| f.2 == line)
            .unwrap_or_else(|| panic!("{found:#?}"))
    };
    assert_eq!((at(8).0, at(8).1), ("T017", Severity::Note), "{found:#?}");
    let (_, sev, _, nine) = at(9);
    assert_eq!(*sev, Severity::Note);
    assert!(
        nine.starts_with("`cublasHgemm` would become `hipblasHgemm`, which"),
        "{nine}"
    );
    assert!(!nine.contains("` becomes "), "{nine}");
    assert!(nine.ends_with("hipcc does not compile this branch (`#ifdef MYLIB_USE_HIP` on line 5 is true under hipcc, which compiles an earlier branch instead), so it is left as it is"), "{nine}");
    let (_, sev, _, fourteen) = at(14);
    assert_eq!(*sev, Severity::Note);
    assert!(
        fourteen.starts_with("`cublasHgemm` becomes `hipblasHgemm`, which"),
        "{fourteen}"
    );
    assert!(fourteen.ends_with("hipcc does not compile this branch (see H011 on line 13), so this does not stop the HIP build"), "{fourteen}");
    assert!(
        r.diagnostics
            .iter()
            .all(|d| d.severity == Severity::Note || !d.id.starts_with('T')),
        "{:#?}",
        r.diagnostics
    );
}

/// A project's own namespace called `cub` is no wrapped CUB (verify8): `foo::cub::g()` keeps
/// its qualifiers, renamed with the declaration, whether the file declares it or not; a wrap's
/// CUB API (CamelCase) still loses them.
#[test]
fn a_projects_own_cub_namespace_keeps_its_qualifiers() {
    let declared = "namespace foo { namespace cub { inline int g() { return 1; } } }\n\
                    int f() { return foo::cub::g() + ::foo::cub::g(); }\n\
                    namespace bar { namespace cub { struct Tile {}; } }\n\
                    bar::cub::Tile t;\n";
    let r = translate_source(declared.as_bytes(), "t.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("return foo::hipcub::g() + ::foo::hipcub::g();"),
        "{out}"
    );
    assert!(out.contains("bar::hipcub::Tile t;"), "{out}");
    // Declared in another file: a lowercase member is not CUB's API.
    let used = "int f() { return myext::detail::cub::tile_items(); }\n\
                void h(const int* i, int* o, int n, void* t, size_t& b) {\n  \
                myext::cub::DeviceScan::ExclusiveSum(t, b, i, o, n);\n}\n";
    let r = translate_source(used.as_bytes(), "u.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert!(
        out.contains("return myext::detail::hipcub::tile_items();"),
        "{out}"
    );
    assert!(
        out.contains("  hipcub::DeviceScan::ExclusiveSum(t, b, i, o, n);"),
        "{out}"
    );
}

/// R24-c: host-side stand-ins for CUDA's index variables (`extern const dim3 blockDim;` under
/// `#ifndef __CUDA_ARCH__`), which HIP declares for both passes with its own types, are guarded
/// with `#if !defined(__HIPCC__)`, adjacent ones together; the H025 errors become notes that
/// say so, and the output converts to itself. Declarations that name something else too, or
/// share their line with other code, are left and stay errors.
#[test]
fn index_variable_stand_ins_are_guarded_from_hipcc() {
    let src = "#include <cuda_runtime.h>\n\
               #ifndef __CUDA_ARCH__\n\
               // host-side stand-ins\n\
               extern const dim3 blockDim;\n\
               // the thread's index\n\
               extern const uint3 threadIdx; // host only\n\
               #endif\n\
               extern const dim3 gridDim, other_dims;\n\
               int x; extern const uint3 blockIdx;\n\
               __global__ void k(int *o) { o[threadIdx.x] = blockDim.x; }\n";
    let r = translate_source(src.as_bytes(), "t.cu", &hip52()).unwrap();
    let out = String::from_utf8(r.output).unwrap();
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\n\
         #ifndef __CUDA_ARCH__\n\
         // host-side stand-ins\n\
         #if !defined(__HIPCC__)\n\
         extern const dim3 blockDim;\n\
         // the thread's index\n\
         extern const uint3 threadIdx; // host only\n\
         #endif\n\
         #endif\n\
         extern const dim3 gridDim, other_dims;\n\
         int x; extern const uint3 blockIdx;\n\
         __global__ void k(int *o) { o[threadIdx.x] = blockDim.x; }\n"
    );
    let h025: Vec<_> = r
        .diagnostics
        .iter()
        .filter(|d| d.id == "H025")
        .map(|d| (d.line, d.severity, d.message.contains("port guards it")))
        .collect();
    assert_eq!(
        h025,
        vec![
            (4, Severity::Note, true),
            (6, Severity::Note, true),
            (8, Severity::Error, false),
            (9, Severity::Error, false),
        ]
    );
    let again = translate_source(out.as_bytes(), "t.cu", &hip52()).unwrap();
    assert_eq!(String::from_utf8(again.output).unwrap(), out);
    // A last line without a line break, and CRLF lines.
    let (out, _) = tr(
        "#include <cuda_runtime.h>\r\nextern const uint3 threadIdx;",
        &hip52(),
    );
    assert_eq!(
        out,
        "#include <hip/hip_runtime.h>\r\n#if !defined(__HIPCC__)\r\nextern const uint3 threadIdx;\r\n#endif\r\n"
    );
}
