//! NVTX's plain-name macros (R27-d, R27-1), and driver-API calls HIP has no equivalent of
//! whose port is known: cache hints AMD GPUs ignore, and the legacy launch sequence (R28-1).

use crate::common;
use common::{
    hipcc_compile, require, summary, tool_works, translate_at as convert, write_files, ROCTX_STUB,
};

use hipport::diag::Diagnostic;
use hipport_rules::Version;

const V52: Version = Version::new(5, 2, 3);
const V62: Version = Version::new(6, 2, 0);

/// nvToolsExt.h's plain names, as a program calls them.
const NVTX_PLAIN: &str = "\
#include <nvToolsExt.h>
#include <cuda_runtime.h>
void fill(float* buf, size_t bytes) {
    nvtxRangePush(\"fill\");
    nvtxMark(\"start\");
    nvtxRangeId_t whole = nvtxRangeStart(\"whole\");
    cudaMemset(buf, 0, bytes);
    nvtxRangeEnd(whole);
    nvtxRangePop();
}
";

/// R27-d: `nvtxRangePush`, `nvtxMark` and `nvtxRangeStart` are nvToolsExt.h's macros for the A
/// functions, and become rocTX's A functions as those do; the pop stays paired with its push.
/// R27-1: one note each, no "no rocTX equivalent" warning and no "not in the rules" T006.
#[test]
fn nvtx_plain_names_become_roctx_a_functions_with_one_note_each() {
    for v in [V52, V62] {
        let (out, d) = convert(NVTX_PLAIN, v);
        for want in [
            "#include <roctracer/roctx.h>",
            "roctxRangePushA(\"fill\");",
            "roctxMarkA(\"start\");",
            "roctx_range_id_t whole = roctxRangeStartA(\"whole\");",
            "roctxRangeStop(whole);",
            "roctxRangePop();",
        ] {
            assert!(out.contains(want), "HIP {v}: no `{want}` in\n{out}");
        }
        assert!(!out.contains("nvtx"), "HIP {v}:\n{out}");
        assert_eq!(
            summary(&d),
            [
                "H008@1 warning",
                "H008@4 note",
                "H008@5 note",
                "H008@6 note",
                "H008@8 note",
                "H008@9 note"
            ],
            "HIP {v}: {d:#?}"
        );
        assert!(
            d.iter().all(|d| !d.message.contains("no rocTX")),
            "HIP {v}: {d:#?}"
        );
    }
}

/// R27-d: the translated file compiles with hipcc against roctx.h's declarations (rocTX is not
/// packaged here, so a stub of them stands in). Before, `nvtxRangePush` stayed, undeclared.
#[test]
fn nvtx_plain_names_compile_against_roctx_declarations() {
    if !require(tool_works("hipcc", "--version"), "hipcc is not installed") {
        return;
    }
    for v in [V52, V62] {
        let (out, _) = convert(NVTX_PLAIN, v);
        let dir = tempfile::tempdir().unwrap();
        write_files(
            dir.path(),
            &[("t.hip", &out), ("stub/roctracer/roctx.h", ROCTX_STUB)],
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

/// R27-1: an NVTX name rocTX has no counterpart of is one H008 warning, whether the rules list
/// it (the plain `nvtxNameOsThread` macro, T001 folded in) or not (an NVTX name the rules do
/// not know, T006 folded in).
#[test]
fn an_nvtx_name_without_a_roctx_counterpart_is_one_warning() {
    let src = "\
#include <nvToolsExt.h>
void name_thread(unsigned tid) {
    nvtxNameOsThread(tid, \"worker\");
    nvtxFutureCall(tid);
}
";
    let (out, d) = convert(src, V62);
    assert_eq!(
        summary(&d),
        ["H008@1 warning", "H008@3 error", "H008@4 warning"],
        "{d:#?}"
    );
    assert!(out.contains("nvtxNameOsThread(tid, \"worker\");"), "{out}");
    assert!(out.contains("nvtxFutureCall(tid);"), "{out}");
}

/// Near neighbour of R27-d: a project's own stand-in for the plain name (a no-op macro for builds
/// without NVTX) is the project's, kept as written.
#[test]
fn a_projects_own_nvtx_macro_keeps_its_name() {
    let src = "\
#define nvtxRangePush(msg) ((void)0)
#define nvtxRangePop() ((void)0)
void step() {
    nvtxRangePush(\"step\");
    nvtxRangePop();
}
";
    let (out, _) = convert(src, V62);
    assert!(out.contains("    nvtxRangePush(\"step\");"), "{out}");
    assert!(
        out.contains("#define nvtxRangePush(msg) ((void)0)"),
        "{out}"
    );
}

/// R28-1: `cuFuncSetCacheConfig` on a module's function has no HIP form (HIP's
/// `hipFuncSetCacheConfig` takes a kernel's address), and AMD GPUs ignore the hint: the call is
/// kept whole, its arguments unrenamed, with one error whose help says to delete it. The same
/// for `cuFuncSetSharedMemConfig`.
#[test]
fn a_driver_cache_hint_is_kept_whole_and_the_help_says_delete_it() {
    let src = "\
#include <cuda.h>
CUresult prefer_l1(CUfunction f) {
    CUresult r = cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1);
    if (r != CUDA_SUCCESS) return r;
    return cuFuncSetSharedMemConfig(f, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE);
}
";
    for v in [V52, V62] {
        let (out, d) = convert(src, v);
        assert!(
            out.contains("hipError_t r = cuFuncSetCacheConfig(f, CU_FUNC_CACHE_PREFER_L1);"),
            "HIP {v}:\n{out}"
        );
        assert!(
            out.contains(
                "return cuFuncSetSharedMemConfig(f, CU_SHARED_MEM_CONFIG_EIGHT_BYTE_BANK_SIZE);"
            ),
            "HIP {v}:\n{out}"
        );
        // The rest of the file is ported as usual.
        assert!(
            out.contains("hipError_t prefer_l1(hipFunction_t f)"),
            "{out}"
        );
        assert!(out.contains("if (r != hipSuccess)"), "{out}");
        let t001: Vec<&Diagnostic> = d.iter().filter(|d| d.id == "T001").collect();
        assert_eq!(t001.len(), 2, "HIP {v}: {d:#?}");
        for (d, hip) in t001
            .iter()
            .zip(["hipFuncSetCacheConfig", "hipFuncSetSharedMemConfig"])
        {
            assert!(
                d.message
                    .contains(&format!("`{hip}` takes a kernel's address")),
                "{d:#?}"
            );
            assert!(d.message.contains("AMD GPUs ignore the hint"), "{d:#?}");
            assert!(
                d.help.as_deref().unwrap().starts_with("delete the call"),
                "{d:#?}"
            );
        }
    }
}

/// Near neighbours of R28-1: the runtime's `cudaFuncSetCacheConfig` still becomes HIP's, and a
/// cache constant outside a kept call is still renamed.
#[test]
fn runtime_cache_hints_and_constants_elsewhere_are_still_ported() {
    let src = "\
#include <cuda.h>
#include <cuda_runtime.h>
__global__ void k(float* p) { p[threadIdx.x] = 0; }
void setup() {
    cudaFuncSetCacheConfig(k, cudaFuncCachePreferL1);
    CUfunc_cache c = CU_FUNC_CACHE_PREFER_SHARED;
    cuCtxSetCacheConfig(c);
}
";
    let (out, _) = convert(src, V62);
    assert!(
        out.contains(
            "hipFuncSetCacheConfig(reinterpret_cast<const void*>(k), hipFuncCachePreferL1);"
        ),
        "{out}"
    );
    assert!(
        out.contains("hipFuncCache_t c = hipFuncCachePreferShared;"),
        "{out}"
    );
    assert!(out.contains("hipCtxSetCacheConfig(c);"), "{out}");
}

/// R28-1: the legacy launch sequence (`cuParamSet*`, `cuFuncSetBlockShape`, `cuLaunchGrid*`),
/// spread over two functions as gpu-burn has it, is one idiom: one T001 at its first call, which
/// names every call and line and points to `hipModuleLaunchKernel`.
#[test]
fn the_legacy_launch_sequence_is_one_error_pointing_to_hip_module_launch_kernel() {
    let src = "\
#include <cuda.h>
struct Job {
    CUfunction fn;
    CUdeviceptr out;
    int n;
    void prepare() {
        cuParamSetSize(fn, sizeof(CUdeviceptr) + sizeof(int));
        cuParamSetv(fn, 0, &out, sizeof(out));
        cuParamSeti(fn, sizeof(CUdeviceptr), n);
        cuFuncSetBlockShape(fn, 128, 1, 1);
    }
    void run(CUstream s) {
        cuLaunchGridAsync(fn, (n + 127) / 128, 1, s);
        cuStreamSynchronize(s);
    }
};
";
    for v in [V52, V62] {
        let (out, d) = convert(src, v);
        let t001: Vec<&Diagnostic> = d.iter().filter(|d| d.id == "T001").collect();
        assert_eq!(t001.len(), 1, "HIP {v}: {d:#?}");
        let e = t001[0];
        assert_eq!((e.line, e.severity.as_str()), (7, "error"), "{e:#?}");
        assert!(
            e.message.starts_with(
                "`cuParamSetSize`, `cuParamSetv`, `cuParamSeti`, `cuFuncSetBlockShape` and `cuLaunchGridAsync` (lines 7, 8, 9, 10, 13) are CUDA's legacy launch API"
            ),
            "{e:#?}"
        );
        let help = e.help.as_deref().unwrap();
        assert!(
            help.contains("`hipModuleLaunchKernel(f, gridX, gridY, 1, blockX, blockY, 1, sharedBytes, stream, args, nullptr)`"),
            "{help}"
        );
        assert!(help.contains("void* args[] = {&a, &b, ...}"), "{help}");
        // The rest of the file is ported as usual.
        assert!(out.contains("hipStreamSynchronize(s);"), "{out}");
        assert!(out.contains("hipFunction_t fn;"), "{out}");
    }
    // One call alone is named so.
    let (_, d) = convert(
        "#include <cuda.h>\nvoid go(CUfunction f) { cuLaunch(f); }\n",
        V62,
    );
    let t001: Vec<&Diagnostic> = d.iter().filter(|d| d.id == "T001").collect();
    assert_eq!(t001.len(), 1, "{d:#?}");
    assert!(
        t001[0]
            .message
            .starts_with("`cuLaunch` (line 2) is CUDA's legacy launch API"),
        "{:#?}",
        t001[0]
    );
}
