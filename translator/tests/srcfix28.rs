//! Findings fixed by srcfix28: a class the torch v1 API renames, used as a qualifier (R42-a);
//! `new T*[n]` (R43-3); T006 on names a project header found through a build file's include
//! directory defines (V18-i).

use crate::common;
use common::{cli_convert_in, reports};

// R42-a ----------------------------------------------------------------------------------------

/// Wraps a raw stream and a guard, naming the classes both as types and as qualifiers.
const STREAM_CPP: &str = r#"#include <c10/cuda/CUDAStream.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDACachingAllocator.h>
#include <cuda_runtime.h>

namespace mine { namespace detail { struct Holder { static int count; }; } }

c10::cuda::CUDAStream adopt(cudaStream_t raw, int index) {
  c10::cuda::CUDAGuard guard(index);
  void *p = c10::cuda::CUDACachingAllocator::raw_alloc(64);
  c10::cuda::CUDACachingAllocator::raw_delete(p);
  mine::detail::Holder::count += 1;
  return c10::cuda::CUDAStream(
      c10::cuda::CUDAStream::UNCHECKED,
      c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::CUDA, index),
                  reinterpret_cast<int64_t>(raw)));
}

using c10::cuda::CUDAStream;
CUDAStream adopt_again(cudaStream_t raw) {
  return CUDAStream(CUDAStream::UNCHECKED, c10::Stream(c10::Stream::UNSAFE, c10::Device(c10::DeviceType::CUDA, 0), reinterpret_cast<int64_t>(raw)));
}
"#;

#[test]
fn r42_a_v1_renames_a_class_where_it_qualifies_a_member() {
    let (_, code, err, out) = cli_convert_in(
        &[("ext/adopt.cpp", STREAM_CPP)],
        "6.2",
        &["--torch-api", "v1"],
    );
    assert_eq!(code, Some(0), "{err}");
    let out = &out[0];
    // The enumerator is looked up in the class ROCm PyTorch declares it in
    // (ATen/hip/impl/HIPStreamMasqueradingAsCUDA.h: `enum Unchecked { UNCHECKED };`).
    assert!(
        out.contains("c10::hip::HIPStreamMasqueradingAsCUDA(\n      c10::hip::HIPStreamMasqueradingAsCUDA::UNCHECKED,"),
        "{out}"
    );
    assert!(
        out.contains("HIPStreamMasqueradingAsCUDA(HIPStreamMasqueradingAsCUDA::UNCHECKED,"),
        "{out}"
    );
    assert!(!out.contains("CUDAStream::"), "{out}");
    assert!(!out.contains("hip::CUDAStream"), "{out}");
    // The rest as before: the guard, the allocator's members, the project's own qualifiers.
    assert!(
        out.contains("c10::hip::HIPGuardMasqueradingAsCUDA guard(index);"),
        "{out}"
    );
    assert!(
        out.contains("c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::raw_alloc(64)"),
        "{out}"
    );
    assert!(
        out.contains("c10::hip::HIPCachingAllocatorMasqueradingAsCUDA::raw_delete(p)"),
        "{out}"
    );
    assert!(out.contains("mine::detail::Holder::count += 1;"), "{out}");
    assert!(out.contains("c10::Stream::UNSAFE"), "{out}");
}

#[test]
fn r42_a_v2_keeps_the_class_and_its_qualifier() {
    let (_, code, err, out) = cli_convert_in(&[("ext/adopt.cpp", STREAM_CPP)], "6.2", &[]);
    assert_eq!(code, Some(0), "{err}");
    let out = &out[0];
    assert!(
        out.contains("c10::cuda::CUDAStream(\n      c10::cuda::CUDAStream::UNCHECKED,"),
        "{out}"
    );
    assert!(out.contains("CUDAStream(CUDAStream::UNCHECKED,"), "{out}");
    assert!(!out.contains("Masquerading"), "{out}");
}

#[test]
fn r42_a_the_qualifier_rules_come_from_the_v1_renames_of_plain_names() {
    use hipport_rules::{Choices, Database, TorchApi};
    let db = Database::builtin();
    let v1 = Choices {
        torch_api: TorchApi::V1,
        ..Choices::default()
    };
    let v2 = Choices::default();
    for (cuda, hip) in [
        ("CUDAStream", "HIPStreamMasqueradingAsCUDA"),
        ("CUDAGuard", "HIPGuardMasqueradingAsCUDA"),
        (
            "OptionalCUDAStreamGuard",
            "OptionalHIPStreamGuardMasqueradingAsCUDA",
        ),
        // The written rule wins over the v1 table's `HIPCachingAllocator`.
        (
            "CUDACachingAllocator",
            "HIPCachingAllocatorMasqueradingAsCUDA",
        ),
    ] {
        let rule = db.namespace_for(cuda, &v1).expect(cuda);
        assert_eq!(rule.hip.as_deref(), Some(hip));
        assert!(db.namespace_for(cuda, &v2).is_none(), "{cuda}");
    }
    // Names v1 does not rename get no rule; `cuda` keeps the rule it had.
    for name in ["HIPStream", "Stream", "CUDAStreamish", "c10"] {
        assert!(db.namespace_for(name, &v1).is_none(), "{name}");
    }
    assert_eq!(
        db.namespace_for("cuda", &v1).map(|r| r.hip.clone()),
        db.namespace_for("cuda", &v2).map(|r| r.hip.clone())
    );
    // The same from the data files at run time as from the pre-built tables.
    let parsed = Database::from_embedded().unwrap();
    assert_eq!(
        parsed
            .namespace_for("CUDAStream", &v1)
            .and_then(|r| r.hip.as_deref()),
        Some("HIPStreamMasqueradingAsCUDA")
    );
}

// R43-3 ----------------------------------------------------------------------------------------

fn parse_errors(src: &str) -> (Vec<(usize, usize)>, String) {
    let tree = hipport::parse::parse(src.as_bytes(), std::time::Duration::from_secs(5)).unwrap();
    (
        hipport::parse::error_lines(&tree, src.as_bytes()),
        tree.root_node().to_sexp(),
    )
}

#[test]
fn r43_3_new_of_an_array_of_pointers_parses() {
    for src in [
        "void f(int n) { int **p = new int*[n]; delete[] p; }\n",
        "struct cudaArray; void f(int n) { cudaArray **a = new cudaArray*[n]; }\n",
        "void f(int n) { float ***p = new float**[n * 2]; }\n",
        "void f(int n) { const char **p = new const char *[n](); }\n",
        "void f(int n) { unsigned long **p = new unsigned long* [n]; }\n",
        "namespace ns { struct S {}; } void f(int n) { ns::S **p = new ns::S*[n]; }\n",
        "template <class T> struct V {}; void f(int n) { V<int *> **p = new V<int *>*[n]; }\n",
        "#include <new>\nvoid f(int n) { int **p = new (std::nothrow) int*[n]; }\n",
        "struct G { float **rows; G(int n) : rows(new float*[n]) {} };\n",
        "void f() { int **p = new int*; float ***q = new float**{}; }\n",
        "void f(int n) { const char *p = new const char[n]; const int *q = new const int(3); }\n",
    ] {
        let (errors, sexp) = parse_errors(src);
        assert!(errors.is_empty(), "{src}{sexp}");
        assert!(sexp.contains("new_expression"), "{src}{sexp}");
    }
}

#[test]
fn r43_3_neighbours_parse_as_before() {
    // Parsed without a repair: the same tree as ever, no `new` shown otherwise.
    for (src, wants) in [
        ("void f(int n) { int *p = new int[n]; }\n", "new_expression"),
        (
            "void f(int a, int *b, int n) { int c = a * b[n]; }\n",
            "binary_expression",
        ),
        (
            "void f(int a, int *b, int n) { int c = a *b [n]; }\n",
            "subscript_expression",
        ),
    ] {
        let (errors, sexp) = parse_errors(src);
        assert!(errors.is_empty(), "{src}{sexp}");
        assert!(sexp.contains(wants), "{src}{sexp}");
    }
    // A `new` with a true error elsewhere in the file keeps that error reported.
    let src = "void f(int n) { int **p = new int*[n]; }\nvoid g() { int x = ; }\n";
    let (errors, _) = parse_errors(src);
    assert_eq!(errors, vec![(2, 2)], "{src}");
}

/// Per-GPU arrays of texture arrays, streams and events, with a call the analysis rewrites on
/// the same line as the allocation.
const ARRAYS_CU: &str = r#"#include <cuda_runtime.h>
__global__ void fill(float *v) { v[threadIdx.x] = 1.0f; }
void setup(int gpus) {
  cudaArray **arrays = new cudaArray*[gpus];
  cudaStream_t **streams = new cudaStream_t*[gpus]; cudaEvent_t **events = new cudaEvent_t*[gpus];
  for (int g = 0; g < gpus; ++g) {
    streams[g] = new cudaStream_t[2];
    events[g] = new cudaEvent_t;
    cudaSetDevice(g);
    cudaStreamCreate(&streams[g][0]);
    cudaEventCreate(events[g]);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaMalloc3DArray(&arrays[g], &desc, make_cudaExtent(8, 8, 8));
  }
  float *d; cudaMalloc(&d, 64 * sizeof(float)); fill<<<1, 64>>>(d);
  delete[] arrays; delete[] streams; delete[] events;
}
"#;

#[test]
fn r43_3_a_new_of_pointers_gets_no_t008_and_its_line_is_translated() {
    for hip in ["6.2", "5.2.3"] {
        let (_, _, err, out) = cli_convert_in(&[("multi.cu", ARRAYS_CU)], hip, &[]);
        assert!(reports(&err, "T008").is_empty(), "{err}");
        let out = &out[0];
        assert!(
            out.contains("hipArray **arrays = new hipArray*[gpus];"),
            "{out}"
        );
        assert!(
            out.contains("hipStream_t **streams = new hipStream_t*[gpus]; hipEvent_t **events = new hipEvent_t*[gpus];"),
            "{out}"
        );
        assert!(out.contains("streams[g] = new hipStream_t[2];"), "{out}");
        // The 3-D array call gets HIP's flags argument (a call-shape rewrite, not a rename).
        assert!(
            out.contains("hipMalloc3DArray(&arrays[g], &desc, make_hipExtent(8, 8, 8), 0)"),
            "{out}"
        );
    }
}

#[test]
fn r43_3_the_input_is_valid_cuda() {
    let cuda = "/root/.cache/hipport/cuda-11.8";
    let ok = std::path::Path::new(cuda)
        .join("include/cuda_runtime.h")
        .exists()
        && common::tool_works("clang-15", "--version");
    if !common::require(ok, "clang-15 and the CUDA 11.8 headers") {
        eprintln!("SKIPPED: r43_3_the_input_is_valid_cuda");
        return;
    }
    let tmp = common::tree(&[("multi.cu", ARRAYS_CU)]);
    let o = std::process::Command::new("clang-15")
        .args(["-x", "cuda", "-fsyntax-only", "--cuda-gpu-arch=sm_80"])
        .arg(format!("--cuda-path={cuda}"))
        .arg(tmp.path().join("multi.cu"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

// V18-i ----------------------------------------------------------------------------------------

/// A project header of checking helpers, kept in `include/`.
const HELPERS_H: &str = r#"#pragma once
#include <cstdio>
#define cudaCheckLaunch() do { cudaError_t e_ = cudaGetLastError(); if (e_ != cudaSuccess) std::printf("%s\n", cudaGetErrorString(e_)); } while (0)
inline int cudaPickGpu(int wanted) { return wanted >= 0 ? wanted : 0; }
"#;

/// Includes the helpers by name only, as the build's `-I` finds them.
const SCALE_CU: &str = r#"#include "helpers.h"
__global__ void scale(float *v) { v[threadIdx.x] *= 3.0f; }
void go(float *v) {
  cudaSetDevice(cudaPickGpu(-1));
  scale<<<1, 64>>>(v);
  cudaCheckLaunch();
  cudaMysteryCall(v);
}
"#;

#[test]
fn v18_i_names_of_a_header_found_through_a_build_include_directory_get_no_t006() {
    let builds: [(&str, &str); 4] = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(p src/scale.cu)\ntarget_include_directories(p PRIVATE include)\n",
        ),
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\ninclude_directories(${CMAKE_CURRENT_SOURCE_DIR}/include)\nadd_executable(p src/scale.cu)\n",
        ),
        (
            "Makefile",
            "NVCC ?= nvcc\np: src/scale.cu\n\t$(NVCC) -Iinclude -o $@ $<\n",
        ),
        // The build file of the source's own directory, naming the directory from there.
        (
            "src/CMakeLists.txt",
            "add_library(s scale.cu)\ntarget_include_directories(s PUBLIC ../include)\n",
        ),
    ];
    for (name, text) in builds {
        for rename in [&[][..], &["--rename", "hip"][..]] {
            let files = [
                (name, text),
                ("include/helpers.h", HELPERS_H),
                ("src/scale.cu", SCALE_CU),
            ];
            let (_, _, err, out) = cli_convert_in(&files, "6.2", rename);
            assert_eq!(
                common::reported_names("T006", &err),
                vec!["cudaMysteryCall"],
                "{name} {rename:?}: {err}"
            );
            if rename.is_empty() {
                assert!(out[2].contains("cudaCheckLaunch();"), "{}", out[2]);
                assert!(
                    out[2].contains("hipSetDevice(cudaPickGpu(-1))"),
                    "{}",
                    out[2]
                );
            }
        }
    }
}

#[test]
fn v18_i_a_header_no_build_file_points_at_still_leaves_t006() {
    // The header is in `include/`, but no build file names that directory: the build could not
    // find `helpers.h` either, so the names stay unknown.
    let files = [
        (
            "CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(p LANGUAGES CXX CUDA)\nadd_executable(p src/scale.cu)\ntarget_include_directories(p PRIVATE third_party)\n",
        ),
        ("include/helpers.h", HELPERS_H),
        ("src/scale.cu", SCALE_CU),
    ];
    let (_, _, err, _) = cli_convert_in(&files, "6.2", &[]);
    assert_eq!(
        common::reported_names("T006", &err),
        vec!["cudaPickGpu", "cudaCheckLaunch", "cudaMysteryCall"],
        "{err}"
    );
}
