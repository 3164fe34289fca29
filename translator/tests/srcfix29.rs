//! Findings fixed by srcfix29: CUDA's graphics map flags, which HIP spells as its register flags
//! (R46-b); cuTENSOR → hipTensor (R46-a); what ROCm offers for NVML, nvJPEG and NPP in the
//! diagnostics (R46-1); the missing-include note for cuda-samples' `helper_multiprocess.h` (R46-2).

use crate::common;
use common::{cli_convert_in, have_tool, hipcc_compile, reports, write_files};

// R46-b ----------------------------------------------------------------------------------------

/// A GL buffer registered with a map flag (CUDA gives `cudaGraphicsMapFlagsWriteDiscard` and
/// `cudaGraphicsRegisterFlagsWriteDiscard` the same value), mapped, written and unmapped.
const GL_CU: &str = r#"#include <GL/gl.h>
#include <cuda_runtime.h>
#include <cuda_gl_interop.h>

__global__ void fill(float4 *p, unsigned n, float t) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = make_float4(t, t, t, 1.0f);
}

static cudaGraphicsResource *res = nullptr;

void attach(GLuint vbo, unsigned int flags) {
  cudaGraphicsGLRegisterBuffer(&res, vbo, flags);
}

void attach_all(GLuint a, GLuint b, GLuint c) {
  attach(a, cudaGraphicsMapFlagsWriteDiscard);
  attach(b, cudaGraphicsMapFlagsReadOnly);
  enum cudaGraphicsMapFlags none = cudaGraphicsMapFlagsNone;
  attach(c, none);
}

void draw(unsigned n, float t) {
  float4 *p = nullptr;
  size_t bytes = 0;
  cudaGraphicsMapResources(1, &res, 0);
  cudaGraphicsResourceGetMappedPointer((void **)&p, &bytes, res);
  fill<<<(n + 255) / 256, 256>>>(p, n, t);
  cudaGraphicsUnmapResources(1, &res, 0);
}
"#;

#[test]
fn r46_b_map_flags_become_the_same_valued_register_flags() {
    for hip in ["6.2", "5.2.3"] {
        let (dir, code, err, out) = cli_convert_in(&[("gl.cu", GL_CU)], hip, &[]);
        assert_eq!(code, Some(0), "{err}");
        assert!(reports(&err, "T001").is_empty(), "{err}");
        let out = &out[0];
        assert!(
            out.contains("attach(a, hipGraphicsRegisterFlagsWriteDiscard);"),
            "{out}"
        );
        assert!(
            out.contains("attach(b, hipGraphicsRegisterFlagsReadOnly);"),
            "{out}"
        );
        assert!(
            out.contains("hipGraphicsRegisterFlags none = hipGraphicsRegisterFlagsNone;"),
            "{out}"
        );
        assert!(!out.contains("cudaGraphics"), "{out}");
        if hip == "5.2.3" && have_tool("hipcc") {
            write_files(dir.path(), &[("port/gl.hip", out.as_str())]);
            hipcc_compile(&dir.path().join("port"), "gl.hip").unwrap();
        }
    }
}

/// The driver API's map flags have the register flags' values too (CUDA 11.8 `cuda.h`).
#[test]
fn r46_b_driver_map_flags_too() {
    let src = "#include <cuda.h>\n#include <cudaGL.h>\nCUresult reg(CUgraphicsResource *r, GLuint b) {\n  CUgraphicsMapResourceFlags f = CU_GRAPHICS_MAP_RESOURCE_FLAGS_WRITE_DISCARD;\n  return cuGraphicsGLRegisterBuffer(r, b, f | CU_GRAPHICS_MAP_RESOURCE_FLAGS_READ_ONLY | CU_GRAPHICS_MAP_RESOURCE_FLAGS_NONE);\n}\n";
    let (_, code, err, out) = cli_convert_in(&[("d.cpp", src)], "6.2", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(reports(&err, "T001").is_empty(), "{err}");
    assert!(
        out[0].contains("hipGraphicsRegisterFlags f = hipGraphicsRegisterFlagsWriteDiscard;"),
        "{}",
        out[0]
    );
    assert!(
        out[0].contains("f | hipGraphicsRegisterFlagsReadOnly | hipGraphicsRegisterFlagsNone)"),
        "{}",
        out[0]
    );
}

/// Neighbour: `cudaGraphicsResourceSetMapFlags` itself has no HIP counterpart and is still
/// reported, whatever flag it is given.
#[test]
fn r46_b_set_map_flags_is_still_reported() {
    let src = "#include <cuda_runtime.h>\nvoid f(cudaGraphicsResource_t r) {\n  cudaGraphicsResourceSetMapFlags(r, cudaGraphicsMapFlagsWriteDiscard);\n}\n";
    let (_, _, err, _) = cli_convert_in(&[("s.cu", src)], "6.2", &[]);
    let t001 = reports(&err, "T001");
    assert_eq!(t001.len(), 1, "{err}");
    assert!(t001[0].contains("cudaGraphicsResourceSetMapFlags"), "{err}");
}

// R46-a ----------------------------------------------------------------------------------------

/// A cuTENSOR 1.x contraction set-up, written from cuTENSOR's documented call order.
const TENSOR_CU: &str = r#"#include <cstdio>
#include <cuda_runtime.h>
#include <cutensor.h>

#define CHECK(x) do { cutensorStatus_t s_ = (x); if (s_ != CUTENSOR_STATUS_SUCCESS) { printf("%s\n", cutensorGetErrorString(s_)); return 1; } } while (0)

int contract(float *a, float *b, float *c, const int64_t *ext, const int64_t *str) {
  cutensorHandle_t *handle;
  CHECK(cutensorCreate(&handle));
  cutensorTensorDescriptor_t da, db, dc;
  int32_t ma[2] = {'m', 'k'}, mb[2] = {'k', 'n'}, mc[2] = {'m', 'n'};
  CHECK(cutensorInitTensorDescriptor(handle, &da, 2, ext, str, CUDA_R_32F, CUTENSOR_OP_IDENTITY));
  CHECK(cutensorInitTensorDescriptor(handle, &db, 2, ext, str, CUDA_R_32F, CUTENSOR_OP_IDENTITY));
  CHECK(cutensorInitTensorDescriptor(handle, &dc, 2, ext, str, CUDA_R_32F, CUTENSOR_OP_IDENTITY));
  uint32_t al;
  CHECK(cutensorGetAlignmentRequirement(handle, a, &da, &al));
  cutensorContractionFind_t find;
  CHECK(cutensorInitContractionFind(handle, &find, CUTENSOR_ALGO_DEFAULT));
  (void)b; (void)c; (void)ma; (void)mb; (void)mc;
  return 0;
}
"#;

#[test]
fn r46_a_cutensor_becomes_hiptensor_from_rocm_5_7() {
    let (_, code, err, out) = cli_convert_in(&[("t.cu", TENSOR_CU)], "6.2", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(reports(&err, "T007").is_empty(), "{err}");
    assert!(reports(&err, "T001").is_empty(), "{err}");
    let out = &out[0];
    // hipTensor 1.x (ROCm 5.7 to 6.4) installs its API as `hiptensor.hpp`.
    assert!(out.contains("#include <hiptensor/hiptensor.hpp>"), "{out}");
    for want in [
        "hiptensorStatus_t s_ = (x); if (s_ != HIPTENSOR_STATUS_SUCCESS)",
        "hiptensorGetErrorString(s_)",
        "hiptensorHandle_t *handle;",
        "CHECK(hiptensorCreate(&handle));",
        "hiptensorTensorDescriptor_t da, db, dc;",
        "CHECK(hiptensorInitTensorDescriptor(handle, &da, 2, ext, str, HIP_R_32F, HIPTENSOR_OP_IDENTITY));",
        "CHECK(hiptensorGetAlignmentRequirement(handle, a, &da, &al));",
        "hiptensorContractionFind_t find;",
        "CHECK(hiptensorInitContractionFind(handle, &find, HIPTENSOR_ALGO_DEFAULT));",
    ] {
        assert!(out.contains(want), "{want}\n{out}");
    }
    assert!(!out.to_lowercase().contains("cutensor"), "{out}");
}

#[test]
fn r46_a_cutensor_before_rocm_5_7_is_reported_with_the_release() {
    let (_, code, err, out) = cli_convert_in(&[("t.cu", TENSOR_CU)], "5.2.3", &[]);
    assert_eq!(code, Some(1), "{err}");
    let t002 = reports(&err, "T002");
    assert!(
        t002.iter().any(|l| l.contains("cutensor.h")
            && l.contains("hiptensor/hiptensor.hpp")
            && l.contains("5.7")),
        "{err}"
    );
    assert!(reports(&err, "T007").is_empty(), "{err}");
    // Nothing is renamed to a library the target lacks.
    assert!(out[0].contains("#include <cutensor.h>"), "{}", out[0]);
    assert!(!out[0].contains("hiptensorHandle_t"), "{}", out[0]);
}

/// hipTensor 2.0 (ROCm 7.0) removed the 1.x calls: a 7.0 target is told so, and the include
/// names 2.0's header, `hiptensor.h`.
#[test]
fn r46_a_the_1x_calls_are_gone_in_rocm_7() {
    let (_, _, err, out) = cli_convert_in(&[("t.cu", TENSOR_CU)], "7.0", &[]);
    assert!(
        out[0].contains("#include <hiptensor/hiptensor.h>\n"),
        "{}",
        out[0]
    );
    assert!(
        err.lines()
            .any(|l| l.contains("cutensorInitTensorDescriptor")
                && (l.starts_with("error[") || l.starts_with("warning["))),
        "{err}"
    );
}

#[test]
fn r46_a_explain_names_hiptensor() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "cutensor.h"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("becomes hiptensor/hiptensor.hpp"), "{text}");
    assert!(text.contains("HIP: from 5.7.0"), "{text}");
    assert!(
        text.contains("HIP 7.0.0 and newer: hiptensor/hiptensor.h\n"),
        "{text}"
    );
    assert!(!text.contains("map none"), "{text}");
    assert!(text.contains("gfx1030"), "{text}");
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "cutensorInitTensorDescriptor"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("hiptensorInitTensorDescriptor"), "{text}");
    assert!(text.contains("CUTENSOR_API_supported_by_HIP.md"), "{text}");
}

// R46-1 ----------------------------------------------------------------------------------------

#[test]
fn r46_1_library_headers_name_what_rocm_offers() {
    let nvml = "#include <cstdio>\n#include <nvml.h>\nint main() {\n  nvmlInit();\n  nvmlDevice_t d;\n  nvmlDeviceGetHandleByIndex(0, &d);\n  unsigned t = 0;\n  nvmlDeviceGetTemperature(d, NVML_TEMPERATURE_GPU, &t);\n  printf(\"%u\\n\", t);\n  nvmlShutdown();\n}\n";
    let jpeg = "#include <nvjpeg.h>\nvoid f(nvjpegHandle_t h) { nvjpegEncoderParams_t p; (void)h; (void)p; }\n";
    let npp = "#include <npp.h>\nvoid g(const Npp8u *s, Npp8u *d, NppiSize z) { nppiFilterBox_8u_C1R(s, 4, d, 4, z, z, NppiPoint{0, 0}); }\n";
    let (_, _, err, _) = cli_convert_in(
        &[("nvml.cpp", nvml), ("jpeg.cpp", jpeg), ("npp.cpp", npp)],
        "6.2",
        &[],
    );
    let t007 = reports(&err, "T007");
    assert_eq!(t007.len(), 3, "{err}");
    // nvml.h's report now lists the NVML names the file uses, as npp.h's does.
    assert!(
        err.contains("`nvml.h` has no HIP equivalent; the file uses 6 of its names: nvmlInit, nvmlDevice_t, nvmlDeviceGetHandleByIndex, nvmlDeviceGetTemperature, NVML_TEMPERATURE_GPU, nvmlShutdown"),
        "{err}"
    );
    let help_after = |header: &str| -> String {
        let i = err
            .find(&format!("`{header}` has no HIP equivalent"))
            .unwrap();
        let rest = &err[i..];
        let h = rest.find("= help: ").unwrap();
        rest[h..].lines().next().unwrap().to_string()
    };
    let h = help_after("nvml.h");
    assert!(
        h.contains("AMD SMI (`amd_smi/amdsmi.h`") && h.contains("ROCm SMI"),
        "{h}"
    );
    let h = help_after("nvjpeg.h");
    assert!(
        h.contains("rocJPEG") && h.contains("ROCm 6.3") && h.contains("only decodes"),
        "{h}"
    );
    let h = help_after("npp.h");
    assert!(h.contains("RPP") && h.contains("rpp.h"), "{h}");
}

/// A header with neither a HIP form nor a ROCm alternative keeps the plain help.
#[test]
fn r46_1_headers_without_an_alternative_keep_the_plain_help() {
    let src = "#include <cuda_runtime.h>\n#include <cuda_egl_interop.h>\nvoid f() {}\n";
    let (_, _, err, _) = cli_convert_in(&[("e.cu", src)], "6.2", &[]);
    assert!(
        err.contains("remove the include if nothing from it is used, or replace what it provides"),
        "{err}"
    );
}

// R46-2 ----------------------------------------------------------------------------------------

#[test]
fn r46_2_helper_multiprocess_is_a_note_without_the_cuda_runtime_text() {
    let src = "#include <cuda_runtime.h>\n#include \"helper_multiprocess.h\"\n#include \"helper_cuda.h\"\nint main() { checkCudaErrors(cudaSetDevice(0)); return 0; }\n";
    let (_, _, err, _) = cli_convert_in(&[("ipc.cu", src)], "6.2", &[]);
    let t025 = reports(&err, "T025");
    assert_eq!(t025.len(), 2, "{err}");
    let mp = t025
        .iter()
        .find(|l| l.contains("helper_multiprocess.h"))
        .unwrap();
    assert!(mp.starts_with("note[T025]"), "{err}");
    let cuda = t025.iter().find(|l| l.contains("helper_cuda.h")).unwrap();
    assert!(cuda.starts_with("warning[T025]"), "{err}");
    // The multiprocess help says what the file holds, not helper_cuda.h's contents.
    let i = err
        .find("helper_multiprocess.h` is not in the input")
        .unwrap();
    let help = err[i..].lines().find(|l| l.contains("= help: ")).unwrap();
    assert!(help.contains("no CUDA in it"), "{help}");
    assert!(!help.contains("checkCudaErrors"), "{help}");

    // Included with <>, alone: one note, with the same help.
    let src =
        "#include <cuda_runtime.h>\n#include <helper_multiprocess.h>\nint main() { return 0; }\n";
    let (_, _, err, _) = cli_convert_in(&[("ipc.cu", src)], "6.2", &[]);
    let t025 = reports(&err, "T025");
    assert_eq!(t025.len(), 1, "{err}");
    assert!(t025[0].starts_with("note[T025]"), "{err}");
    assert!(err.contains("no CUDA in it"), "{err}");
    assert!(!err.contains("findCudaDevice"), "{err}");
}
