//! Findings fixed by srcfix29: CUDA's graphics map flags, which HIP spells as its register flags
//! (R46-b); cuTENSOR → hipTensor (R46-a); what ROCm offers for NVML, nvJPEG and NPP in the
//! diagnostics (R46-1); the missing-include note for cuda-samples' `helper_multiprocess.h` (R46-2).

mod common;
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
