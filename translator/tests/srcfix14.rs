//! The CUDA toolkit's own headers that the rules did not list are the toolkit's, not missing
//! project headers (verifier REG2); the `extern "C"` wrapper with a C branch parses (verifier
//! P1); a file that calls NVTX through another header's declarations gets rocTX's header
//! (R27-d, torch-harmonics).

use crate::common;
use common::{
    hipcc_compile, require, summary, tool_works, translate_at as translate, write_files, ROCTX_STUB,
};
use std::path::Path;

use hipport::diag::{Diagnostic, Severity};
use hipport::project::{convert, ConvertConfig, OutputMode};
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

/// The diagnostics of `rel` when the tree at `root` is converted.
fn project_diags(root: &Path, rel: &str) -> Vec<Diagnostic> {
    let cfg = ConvertConfig::new(vec![root.to_path_buf()], OutputMode::Nothing);
    let report = convert(&cfg, false).unwrap();
    report
        .files
        .iter()
        .find(|f| f.path == rel)
        .unwrap_or_else(|| panic!("{rel} converted"))
        .diagnostics
        .clone()
}

/// REG2: quoted includes of the toolkit's Direct3D interop headers (Windows-only, with no HIP
/// counterpart) and of `cuda_stdint.h` are the toolkit's, so none is "not in the input" (T025).
/// The interop ones are the usual T007 of a CUDA header HIP lacks; `cuda_stdint.h` becomes
/// `stdint.h`, which is all it includes outside old MSVC.
#[test]
fn toolkit_headers_the_rules_did_not_list_are_not_missing_project_headers() {
    let dir = tempfile::tempdir().unwrap();
    let headers = [
        "cudaD3D9.h",
        "cudaD3D10.h",
        "cudaD3D11.h",
        "cudaD3D9Typedefs.h",
        "cudaD3D10Typedefs.h",
        "cudaD3D11Typedefs.h",
        "cuda_stdint.h",
    ];
    let mut src: String = headers
        .iter()
        .map(|h| format!("#include \"{h}\"\n"))
        .collect();
    // A project's own header of a cuda* name, absent from the input, is still reported.
    src.push_str(
        "#include \"cuda_helpers_of_mine.h\"\n__global__ void k(uint32_t *p) { p[0] = 1u; }\n",
    );
    write_files(dir.path(), &[("a.cu", &src)]);
    let d = project_diags(dir.path(), "a.cu");
    let t025: Vec<&str> = d
        .iter()
        .filter(|d| d.id == "T025")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(t025.len(), 1, "{t025:#?}");
    assert!(t025[0].contains("cuda_helpers_of_mine.h"), "{t025:#?}");
    let t007: Vec<&str> = d
        .iter()
        .filter(|d| d.id == "T007")
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(t007.len(), 6, "{d:#?}");
    for h in &headers[..6] {
        assert!(
            t007.iter().any(|m| m.contains(&format!("`{h}`"))),
            "{h}: {t007:#?}"
        );
    }

    for (src, want) in [
        ("#include \"cuda_stdint.h\"\n", "#include \"stdint.h\"\n"),
        ("#include <cuda_stdint.h>\n", "#include <stdint.h>\n"),
    ] {
        let (out, d) = translate(src, V52);
        assert_eq!(out, want);
        assert!(d.is_empty(), "{d:#?}");
    }
}

/// P1: a C header's `extern "C"` wrapper whose opening has a C branch (`#else` / a C-only
/// include / `#endif`) parses: no T008 at the closing, and the names inside are translated.
#[test]
fn an_extern_c_wrapper_with_a_c_branch_parses() {
    let src = "\
#include <cuda_runtime.h>
#ifdef __cplusplus
extern \"C\" {
#else
#include <stdbool.h>
#endif

bool launch_fill(float *dst, int n, cudaStream_t stream);
__global__ void fill(float *dst, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) dst[i] = 1.0f;
}

#ifdef __cplusplus
}
#endif
";
    let (out, d) = translate(src, V62);
    assert!(d.iter().all(|d| d.id != "T008"), "{d:#?}");
    assert!(
        out.contains("bool launch_fill(float *dst, int n, hipStream_t stream);"),
        "{out}"
    );
    // An `#else` on the closing side too, and a nested conditional in the C branch.
    let src = "\
#ifdef __cplusplus
extern \"C\" {
#else
#if !defined(RESTRICT)
#define RESTRICT restrict
#endif
#endif
int scale(float *RESTRICT x, int n);
#ifdef __cplusplus
}
#else
/* C callers */
#endif
";
    let (_, d) = translate(src, V62);
    assert!(d.iter().all(|d| d.id != "T008"), "{d:#?}");
}

/// A PyTorch-extension-like file: its NVTX declarations come from a header it includes (here a
/// project header that stands for torch's), so it includes no NVTX header itself.
const NVTX_ELSEWHERE: &str = "\
#include \"framework.h\"
#include <cuda_runtime.h>

void prepare(float *buf, size_t bytes, cudaStream_t s) {
    nvtxRangePush(\"prepare\");
    cudaMemsetAsync(buf, 0, bytes, s);
    nvtxMarkA(\"zeroed\");
    nvtxRangePop();
}
";

/// R27-d: where the file calls rocTX names (its NVTX calls, renamed) without including NVTX's or
/// rocTX's header, `roctracer/roctx.h` is added once, with one T019 note that says to link
/// `-lroctx64`; the output compiles with hipcc against roctx.h's declarations.
#[test]
fn roctx_calls_without_an_nvtx_include_get_roctx_h() {
    for v in [V52, V62] {
        let (out, d) = translate(NVTX_ELSEWHERE, v);
        assert_eq!(
            out.matches("#include <roctracer/roctx.h>").count(),
            1,
            "HIP {v}:\n{out}"
        );
        assert!(out.contains("roctxRangePushA(\"prepare\");"), "{out}");
        let t019: Vec<&Diagnostic> = d.iter().filter(|d| d.id == "T019").collect();
        assert_eq!(t019.len(), 1, "HIP {v}: {d:#?}");
        assert_eq!(t019[0].severity, Severity::Note);
        assert_eq!(t019[0].line, 5, "{:#?}", t019[0]);
        assert!(
            t019[0]
                .help
                .as_deref()
                .is_some_and(|h| h.contains("-lroctx64")),
            "{:#?}",
            t019[0]
        );
        if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
            continue;
        }
        let dir = tempfile::tempdir().unwrap();
        write_files(
            dir.path(),
            &[
                ("t.hip", &out),
                ("framework.h", "#pragma once\n#include <stddef.h>\n"),
                ("stub/roctracer/roctx.h", ROCTX_STUB),
            ],
        );
        if let Err(e) = hipcc_compile(dir.path(), "t.hip") {
            panic!(
                "HIP {v}: hipcc rejects
{out}
{e}"
            );
        }
    }
}

/// Near neighbours of R27-d: a file that includes NVTX's header (which becomes rocTX's) or
/// rocTX's own gets no second include and no T019; nor does a file whose NVTX names are its own
/// macros, or one that names NVTX only in a directive's test.
#[test]
fn roctx_h_is_not_added_where_the_file_has_it_or_needs_none() {
    for src in [
        "#include <nvToolsExt.h>\nvoid f() { nvtxRangePushA(\"f\"); nvtxRangePop(); }\n",
        "#include <nvtx3/nvToolsExt.h>\nvoid f() { nvtxRangePushA(\"f\"); nvtxRangePop(); }\n",
        "#include <roctracer/roctx.h>\nvoid f() { nvtxRangePushA(\"f\"); roctxRangePop(); }\n",
        "#ifdef USE_NVTX\n#include <nvToolsExt.h>\n#define PUSH(m) nvtxRangePushA(m)\n#else\n\
         #define PUSH(m)\n#endif\nvoid f() { PUSH(\"f\"); }\n",
        "#define nvtxRangePush(m) ((void)0)\nvoid f() { nvtxRangePush(\"f\"); }\n",
        "#if defined(nvtxRangePushA)\nint have_nvtx = 1;\n#endif\n",
    ] {
        let (out, d) = translate(src, V62);
        assert!(
            d.iter().all(|d| d.id != "T019"),
            "{src}\n{}",
            summary(&d).join(", ")
        );
        assert!(
            out.matches("roctracer/roctx.h").count() <= 1,
            "{src}\n{out}"
        );
        if !src.contains("roctx") && !src.contains("nvToolsExt") {
            assert!(!out.contains("roctracer/roctx.h"), "{src}\n{out}");
        }
    }
}
