//! nvcc command-line flags and CUDA libraries, mapped to their hipcc/clang and HIP counterparts.
//!
//! Shared by the setup.py, CMake and Makefile translators: each of them cuts its file into lists of
//! command-line words, and [`map_words`] says which words change and why.

use std::collections::BTreeMap;

use crate::diag::{DiagInfo, Severity};
use hipport_rules::Version;

use super::{
    B_ARCH, B_FLAG_DROPPED, B_FLAG_MAPPED, B_FLAG_UNMAPPED, B_LIB_MAPPED, B_LIB_UNMAPPED, B_PATH,
    B_RDC,
};

/// What happens to one word.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// The word becomes these words (at least one).
    Replace(Vec<String>),
    /// The word goes away.
    Remove,
}

/// A finding about one word, turned into a diagnostic by the caller.
#[derive(Debug)]
pub(crate) struct Note {
    /// Index of the word it is about.
    pub word: usize,
    /// The diagnostic kind.
    pub info: &'static DiagInfo,
    /// Message.
    pub message: String,
    /// Help text.
    pub help: Option<String>,
    /// The severity where it is not the kind's own (an architecture flag left as hipcc will
    /// see it).
    pub severity: Option<Severity>,
}

impl Note {
    /// The note for a flag that stays as it is (`flag`, the word it is about), `why` saying
    /// why: what the mapping would have done becomes what to do by hand, so the note does not
    /// claim a change that was not made. An architecture flag that stays is one hipcc rejects:
    /// that is a warning. A finding that already says the flag stays is kept as it is.
    pub(crate) fn left_as_is(mut self, flag: &str, why: &str) -> Note {
        let flag = flag.trim_matches(|c| c == '"' || c == '\'');
        if self.severity.is_some()
            || [B_FLAG_UNMAPPED.id, B_LIB_UNMAPPED.id].contains(&self.info.id)
        {
            // Already says that it stays and what hipcc makes of it.
        } else if self.info.id == B_ARCH.id {
            let rejects = hipcc_rejects(flag);
            self.message = format!(
                "nvcc architecture flag `{flag}` left as it is (not rewritten: {why}); {rejects}"
            );
            self.severity = Some(Severity::Warning);
        } else {
            // The replacement the mapping names (`... -> `-ffast-math``), if any.
            let to = self
                .message
                .split_once(" -> `")
                .and_then(|(_, rest)| rest.split_once('`'))
                .map(|(to, _)| to);
            let change = match to {
                Some(to) if self.info.id == B_LIB_MAPPED.id => {
                    format!("the HIP library is `{to}`")
                }
                Some(to) => format!("hipcc takes `{to}` instead"),
                None => "hipport drops it where it rewrites a list of flags".to_string(),
            };
            self.message = format!(
                "`{flag}` left as it is (not rewritten: {why}): {change}; make the change by hand"
            );
        }
        self
    }
}

/// What hipcc makes of an nvcc architecture flag left in its command line.
fn hipcc_rejects(flag: &str) -> &'static str {
    let f = flag.trim_matches(|c| c == '"' || c == '\'');
    if f == "-arch" || f.starts_with("-arch=") {
        "hipcc rejects it (newer clang: `unsupported option '-arch'`) or ignores it with a \
         warning (clang 15), and either way it names no AMD target"
    } else {
        "hipcc rejects it (`unknown argument` or `unsupported option`), so the build fails until \
         it is replaced"
    }
}

/// Result of mapping one list of words.
#[derive(Debug, Default)]
pub(crate) struct Mapped {
    /// Changed words, by index.
    pub changes: Vec<(usize, Action)>,
    /// Findings.
    pub notes: Vec<Note>,
}

impl Mapped {
    /// The words of `words` (the list this mapped) with the changes made, each with the index
    /// of the word it comes from: what a second conversion reads.
    pub(crate) fn applied(&self, words: &[&str]) -> Vec<(usize, String)> {
        let mut out = Vec::with_capacity(words.len());
        for (k, w) in words.iter().enumerate() {
            match self.changes.iter().find(|c| c.0 == k).map(|c| &c.1) {
                Some(Action::Replace(v)) => out.extend(v.iter().map(|n| (k, n.clone()))),
                Some(Action::Remove) => {}
                None => out.push((k, w.to_string())),
            }
        }
        out
    }
}

/// How sure we are that a word list is given to nvcc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Context {
    /// Known to be nvcc's flags (`extra_compile_args['nvcc']`, `NVCCFLAGS`, `CMAKE_CUDA_FLAGS`):
    /// short ambiguous flags such as `-G` are nvcc's.
    Nvcc,
    /// Anything: only flags that exist in nvcc alone are recognized.
    Any,
}

/// One CUDA library and what replaces it.
pub(crate) struct Library {
    /// The name in `-l<name>` / `libraries=[...]`.
    pub cuda: &'static str,
    /// The HIP library's link name, or `None` when the library is dropped (`cudart`).
    pub hip: Option<&'static str>,
    /// The CUDAToolkit CMake target (`CUDA::cublas`).
    pub cmake_cuda: &'static str,
    /// The CMake target that replaces it.
    pub cmake_hip: &'static str,
    /// The CMake package to find for it (`None`: part of `hip`).
    pub package: Option<&'static str>,
    /// The first HIP (ROCm) release that ships the HIP library (`None`: every release hipport
    /// targets), as `rules/data/extra-headers.tsv` records for its header: a build for an older
    /// release cannot find its package.
    pub hip_added: Option<Version>,
}

/// CUDA libraries with HIP counterparts. The static variants (`cublas_static`, `CUDA::cusolver_static`)
/// become the same shared ROCm libraries (ROCm packages ship those shared), and `culibos`, the
/// helper that CUDA's static libraries need, is dropped with `cudart_static`. Target names are those exported by the ROCm packages
/// (`hip-config.cmake`: `hip::host`, `hip::amdhip64`; `hiprand-targets.cmake`: `hip::hiprand`;
/// `hipsparse-targets.cmake`: `roc::hipsparse`; hipBLAS/hipSOLVER/hipBLASLt export `roc::*`,
/// hipFFT and hipCUB `hip::*`, MIOpen `MIOpen`, RCCL `rccl::rccl`).
pub(crate) const LIBRARIES: &[Library] = &[
    Library {
        cuda: "cudart",
        hip: None,
        cmake_cuda: "CUDA::cudart",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "cudart_static",
        hip: None,
        cmake_cuda: "CUDA::cudart_static",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "cudadevrt",
        hip: None,
        cmake_cuda: "CUDA::cudadevrt",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "culibos",
        hip: None,
        cmake_cuda: "CUDA::culibos",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    // NVRTC's builtins, which libnvrtc loads (nvrtc docs: "libnvrtc-builtins.so"); hipRTC's
    // own builtins library (libhiprtc-builtins) is loaded by libhiprtc, never linked by name.
    Library {
        cuda: "nvrtc-builtins",
        hip: None,
        cmake_cuda: "CUDA::nvrtc_builtins",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "nvrtc-builtins_static",
        hip: None,
        cmake_cuda: "CUDA::nvrtc_builtins_static",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "cuda",
        hip: Some("amdhip64"),
        cmake_cuda: "CUDA::cuda_driver",
        cmake_hip: "hip::amdhip64",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "nvrtc",
        hip: Some("hiprtc"),
        cmake_cuda: "CUDA::nvrtc",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "nvrtc_static",
        hip: Some("hiprtc"),
        cmake_cuda: "CUDA::nvrtc_static",
        cmake_hip: "hip::host",
        package: None,
        hip_added: None,
    },
    Library {
        cuda: "cublas",
        hip: Some("hipblas"),
        cmake_cuda: "CUDA::cublas",
        cmake_hip: "roc::hipblas",
        package: Some("hipblas"),
        hip_added: None,
    },
    Library {
        cuda: "cublas_static",
        hip: Some("hipblas"),
        cmake_cuda: "CUDA::cublas_static",
        cmake_hip: "roc::hipblas",
        package: Some("hipblas"),
        hip_added: None,
    },
    Library {
        cuda: "cublasLt",
        hip: Some("hipblaslt"),
        cmake_cuda: "CUDA::cublasLt",
        cmake_hip: "roc::hipblaslt",
        package: Some("hipblaslt"),
        hip_added: Some(Version::new(5, 5, 0)),
    },
    Library {
        cuda: "cublasLt_static",
        hip: Some("hipblaslt"),
        cmake_cuda: "CUDA::cublasLt_static",
        cmake_hip: "roc::hipblaslt",
        package: Some("hipblaslt"),
        hip_added: Some(Version::new(5, 5, 0)),
    },
    Library {
        cuda: "curand",
        hip: Some("hiprand"),
        cmake_cuda: "CUDA::curand",
        cmake_hip: "hip::hiprand",
        package: Some("hiprand"),
        hip_added: None,
    },
    Library {
        cuda: "curand_static",
        hip: Some("hiprand"),
        cmake_cuda: "CUDA::curand_static",
        cmake_hip: "hip::hiprand",
        package: Some("hiprand"),
        hip_added: None,
    },
    Library {
        cuda: "cufft",
        hip: Some("hipfft"),
        cmake_cuda: "CUDA::cufft",
        cmake_hip: "hip::hipfft",
        package: Some("hipfft"),
        hip_added: None,
    },
    Library {
        cuda: "cufft_static",
        hip: Some("hipfft"),
        cmake_cuda: "CUDA::cufft_static",
        cmake_hip: "hip::hipfft",
        package: Some("hipfft"),
        hip_added: None,
    },
    Library {
        cuda: "cufft_static_nocallback",
        hip: Some("hipfft"),
        cmake_cuda: "CUDA::cufft_static_nocallback",
        cmake_hip: "hip::hipfft",
        package: Some("hipfft"),
        hip_added: None,
    },
    Library {
        cuda: "cusparse",
        hip: Some("hipsparse"),
        cmake_cuda: "CUDA::cusparse",
        cmake_hip: "roc::hipsparse",
        package: Some("hipsparse"),
        hip_added: None,
    },
    Library {
        cuda: "cusparse_static",
        hip: Some("hipsparse"),
        cmake_cuda: "CUDA::cusparse_static",
        cmake_hip: "roc::hipsparse",
        package: Some("hipsparse"),
        hip_added: None,
    },
    Library {
        cuda: "cusolver",
        hip: Some("hipsolver"),
        cmake_cuda: "CUDA::cusolver",
        cmake_hip: "roc::hipsolver",
        package: Some("hipsolver"),
        hip_added: None,
    },
    Library {
        cuda: "cusolver_static",
        hip: Some("hipsolver"),
        cmake_cuda: "CUDA::cusolver_static",
        cmake_hip: "roc::hipsolver",
        package: Some("hipsolver"),
        hip_added: None,
    },
    // V20-a: cuTENSOR -> hipTensor (ROCm 5.7 on), the release `rules/data/extra-headers.tsv`
    // gives `cutensor.h`, so the link follows the sources. cuTENSOR's own CMake package
    // exports `cutensor::cutensor`; hipTensor's exports `roc::hiptensor`.
    Library {
        cuda: "cutensor",
        hip: Some("hiptensor"),
        cmake_cuda: "cutensor::cutensor",
        cmake_hip: "roc::hiptensor",
        package: Some("hiptensor"),
        hip_added: Some(Version::new(5, 7, 0)),
    },
    Library {
        cuda: "cutensor_static",
        hip: Some("hiptensor"),
        cmake_cuda: "cutensor::cutensor_static",
        cmake_hip: "roc::hiptensor",
        package: Some("hiptensor"),
        hip_added: Some(Version::new(5, 7, 0)),
    },
    Library {
        cuda: "cudnn",
        hip: Some("MIOpen"),
        cmake_cuda: "CUDNN::cudnn",
        cmake_hip: "MIOpen",
        package: Some("miopen"),
        hip_added: None,
    },
    Library {
        cuda: "nccl",
        hip: Some("rccl"),
        cmake_cuda: "NCCL::nccl",
        cmake_hip: "rccl::rccl",
        package: Some("rccl"),
        hip_added: None,
    },
    Library {
        cuda: "nvToolsExt",
        hip: Some("roctx64"),
        cmake_cuda: "CUDA::nvToolsExt",
        cmake_hip: "roctx64",
        package: None,
        hip_added: None,
    },
];

/// CUDA libraries with no HIP counterpart that hipport knows of.
pub(crate) const UNMAPPED_LIBRARIES: &[&str] = &[
    "cufile",
    "nvjpeg",
    "nppc",
    "nppial",
    "nppicc",
    "nppidei",
    "nppif",
    "nppig",
    "nppim",
    "nppist",
    "nppisu",
    "nppitc",
    "npps",
    "nvml",
    "nvidia-ml",
    "cupti",
    // The JIT LTO linker (cuSPARSE 12 links it; ROCm has no libnvJitLink), the PTX compiler
    // and fatbinary libraries, and CUPTI's profiling ones: NVIDIA's toolchain alone.
    "nvJitLink",
    "nvJitLink_static",
    "nvptxcompiler_static",
    "nvfatbin",
    "nvfatbin_static",
    "cupti_static",
    "nvperf_host",
    "nvperf_target",
    "cufile_rdma",
    "nvjpeg_static",
    "cusolverMg",
    "cufftw",
    // Not OpenCL (R24-a): CUDA ships a libOpenCL, but OpenCL is no CUDA API; on AMD the ICD
    // loader provides libOpenCL with ROCm's OpenCL runtime behind it, and hipport ports none of it.
];

/// TensorRT's link names (TensorRT's own CMake and samples link `nvinfer`, `nvinfer_plugin`,
/// `nvonnxparser`, `nvparsers`, and, from TensorRT 8.6, `nvinfer_lean` and `nvinfer_dispatch`):
/// NVIDIA-only, with no HIP port; ROCm's inference engine, MIGraphX, has an API of its own.
pub(crate) const TENSORRT_LIBRARIES: &[&str] = &[
    "nvinfer",
    "nvinfer_plugin",
    "nvonnxparser",
    "nvparsers",
    "nvinfer_lean",
    "nvinfer_dispatch",
    "nvinfer_vc_plugin",
    "nvinfer_static",
    "nvinfer_plugin_static",
    "nvonnxparser_static",
];

/// Looks up a CUDA library by link name (cuDNN's split libraries count as cuDNN, see
/// [`cudnn_part`]).
pub(crate) fn library(name: &str) -> Option<&'static Library> {
    let name = if cudnn_part(name) { "cudnn" } else { name };
    LIBRARIES.iter().find(|l| l.cuda == name)
}

/// V21-c: whether `name` is one of the libraries cuDNN 8 and 9 split cuDNN into, which
/// projects find and link one by one (`cudnn_ops_infer`, `cudnn_cnn_train`, `cudnn_adv_infer`,
/// cuDNN 9's `cudnn_graph`, `cudnn_engines_precompiled`, `cudnn_engines_runtime_compiled`,
/// `cudnn_heuristic`, `cudnn_ops`, `cudnn_cnn`, `cudnn_adv`), also static (`_static`,
/// `_static_v8`).
pub(crate) fn cudnn_part(name: &str) -> bool {
    let Some(rest) = name.strip_prefix("cudnn_") else {
        return false;
    };
    let rest = rest
        .strip_suffix("_v8")
        .or_else(|| rest.strip_suffix("_v9"))
        .unwrap_or(rest);
    let rest = rest.strip_suffix("_static").unwrap_or(rest);
    matches!(
        rest,
        "ops_infer"
            | "ops_train"
            | "cnn_infer"
            | "cnn_train"
            | "adv_infer"
            | "adv_train"
            | "graph"
            | "engines_precompiled"
            | "engines_runtime_compiled"
            | "heuristic"
            | "ops"
            | "cnn"
            | "adv"
    )
}

/// The link name of a CUDA library that [`map_library_name`] knows, given in any case (a
/// Windows import library `CUBLAS.lib` is `cublas`).
pub(crate) fn link_name(name: &str) -> Option<&'static str> {
    LIBRARIES
        .iter()
        .map(|l| l.cuda)
        .chain(UNMAPPED_LIBRARIES.iter().copied())
        .chain(TENSORRT_LIBRARIES.iter().copied())
        .find(|n| n.eq_ignore_ascii_case(name))
}

/// Looks up a CUDA library by its CMake target name (`CUDA::cublas`).
pub(crate) fn library_by_target(target: &str) -> Option<&'static Library> {
    LIBRARIES.iter().find(|l| l.cmake_cuda == target)
}

/// Maps one CUDA library name (as in `libraries=[...]`), with its finding.
pub(crate) fn map_library_name(
    name: &str,
) -> Option<(Action, &'static DiagInfo, String, Option<String>)> {
    if let Some(lib) = library(name) {
        return Some(match lib.hip {
            Some(hip) => (
                Action::Replace(vec![hip.to_string()]),
                B_LIB_MAPPED,
                match api_differs(name) {
                    Some(why) => format!("CUDA library `{name}` -> `{hip}`: {why}"),
                    None => format!("CUDA library `{name}` -> `{hip}`"),
                },
                api_differs(name).map(|_| API_DIFFERS_HELP.to_string()),
            ),
            None => (
                Action::Remove,
                B_LIB_MAPPED,
                format!("CUDA library `{name}` dropped"),
                Some(if name == "culibos" {
                    "CUDA's static libraries need it; the ROCm libraries that replace them are shared"
                        .to_string()
                } else if name.starts_with("nvrtc-builtins") {
                    "libnvrtc's builtins: hipRTC loads its own (libhiprtc-builtins) without a link"
                        .to_string()
                } else {
                    "hipcc links the HIP runtime (libamdhip64) itself".to_string()
                }),
            ),
        });
    }
    if TENSORRT_LIBRARIES.contains(&name) {
        return Some((
            Action::Replace(vec![name.to_string()]),
            B_LIB_UNMAPPED,
            format!("TensorRT library `{name}` has no HIP counterpart: TensorRT is NVIDIA-only"),
            Some("port the inference code by hand (ROCm's inference engine, MIGraphX, has its own API) or keep this target on NVIDIA".to_string()),
        ));
    }
    if UNMAPPED_LIBRARIES.contains(&name) || is_npp(name) {
        return Some((
            Action::Replace(vec![name.to_string()]),
            B_LIB_UNMAPPED,
            format!("CUDA library `{name}` has no HIP counterpart"),
            Some(
                rocm_offer(name)
                    .map_or(
                        "remove the dependency or port the code that uses it by hand",
                        |o| o.1,
                    )
                    .to_string(),
            ),
        ));
    }
    None
}

/// Whether a link name is one of NPP's libraries (`nppc`, `nppif`, `nppig`, `npps`, ...).
pub(crate) fn is_npp(name: &str) -> bool {
    name.starts_with("npp") && name.len() <= 7 && name[3..].bytes().all(|b| b.is_ascii_lowercase())
}

/// R46-1: what ROCm offers for a CUDA library with no HIP port, by family (NVML, nvJPEG,
/// NPP): the family's name and the help of its B005. The same facts as `hipport explain` of
/// the family's header (nvml.h, nvjpeg.h, npp.h): AMD SMI's library is libamd_smi, ROCm SMI's
/// librocm_smi64 (ROCm SMI's docs plan its deprecation in favour of AMD SMI); rocJPEG's README
/// asks for ROCm 6.3.0 or later and its API is titled "AMD ROCm JPEG Decode API"; RPP ships
/// librpp.
pub(crate) fn rocm_offer(name: &str) -> Option<(&'static str, &'static str)> {
    let name = name.strip_prefix("CUDA::").unwrap_or(name);
    let name = name.strip_suffix("_static").unwrap_or(name);
    Some(match name {
        "nvml" | "nvidia-ml" => (
            "NVML",
            "ROCm has no NVML; port the calls to AMD SMI (`amd_smi/amdsmi.h`, `amdsmi_*`, link `amd_smi`; ROCm SMI's docs recommend migrating to AMD SMI) or, on older ROCm, to ROCm SMI (`rocm_smi/rocm_smi.h`, `rsmi_*`, link `rocm_smi64`): both have APIs of their own, not NVML's",
        ),
        "nvjpeg" => (
            "nvJPEG",
            "ROCm has no nvJPEG; rocJPEG (`rocjpeg/rocjpeg.h`, link `rocjpeg`, ROCm 6.3 and later) decodes JPEG with an API of its own (`rocJpegCreate`, `rocJpegDecode`); it only decodes, so nvJPEG's encoder (`nvjpegEncode*`) has no ROCm counterpart",
        ),
        n if is_npp(n) => (
            "NPP",
            "ROCm has no NPP library; AMD's ROCm Performance Primitives (RPP: `rpp.h`, `rppt_*` functions such as `rppt_box_filter_gpu`, not the `rppi_*` ones its docs mark to be deprecated; link `rpp`) cover much of NPP's image part with an API of their own; otherwise write the kernels",
        ),
        _ => return None,
    })
}

/// HIP libraries whose functions older releases ship inside another library, with the first
/// release that has the library of its own. hipRTC: HIP 5.2.3 has no libhiprtc.so, its
/// `hiprtc*` functions are in libamdhip64 (`nm -D libamdhip64.so.5`); HIP's hip_rtc.md names
/// the separate library from HIP 5.3 on ("For HIP 5.3 the soname is set to 5 (hiprtc.so.5)"),
/// and HIP 7.0 removes the functions from libamdhip64 (ROCm/clr CHANGELOG.md, "Removal of
/// hiprtc symbols from hip library"), so from 5.3 on `hiprtc` is the name that links everywhere.
const MERGED_BEFORE: &[(&str, Version, &str)] = &[("hiprtc", Version::new(5, 3, 0), "amdhip64")];

/// The library to link for HIP library `lib` under the target release `hip`: `lib`, or the
/// one that holds its functions in a release before `lib` shipped alone (see
/// [`MERGED_BEFORE`]), with the first release that has it.
pub(crate) fn hip_link_name(lib: &'static str, hip: Version) -> (&'static str, Option<Version>) {
    match MERGED_BEFORE.iter().find(|m| m.0 == lib) {
        Some(&(_, alone, holder)) if hip < alone => (holder, Some(alone)),
        _ => (lib, None),
    }
}

/// [`map_library_name`] for a target HIP release: a library that release does not ship yet
/// (hipBLASLt before ROCm 5.5) keeps its name, with an error that says why; one whose functions
/// that release ships inside another library (hipRTC before HIP 5.3) becomes that library.
pub(crate) fn map_library_for(
    name: &str,
    hip: Version,
) -> Option<(Action, &'static DiagInfo, String, Option<String>)> {
    map_library_on(name, hip, false)
}

/// R37-a/b: [`map_library_for`] for a build file whose tree is known: a library that no source
/// uses and that ROCm lacks or ships as an optional package (see [`super::unused_libraries`]) is
/// dropped, with a note.
pub(crate) fn map_library_in(
    name: &str,
    opts: &super::BuildOptions,
) -> Option<(Action, &'static DiagInfo, String, Option<String>)> {
    if let Some(msg) = unused_library(name, opts) {
        return Some((Action::Remove, B_LIB_MAPPED, msg.0, Some(msg.1)));
    }
    map_library_for(name, opts.hip_version)
}

/// R37-b's rest: why the ROCm counterpart of CUDA library `name` (a link name, a `CUDA::` or
/// `CUDNN::` target) is not a drop-in, where it is not: MIOpen for cuDNN. Such a mapping is a
/// warning (B004): the link is right, the code that calls the library is not ported.
pub(crate) fn api_differs(name: &str) -> Option<&'static str> {
    let name = name.rsplit("::").next().unwrap_or(name);
    (matches!(name, "cudnn" | "cudnn_static") || cudnn_part(name)).then_some(
        "MIOpen is not a drop-in for cuDNN: its API differs (miopen* functions, its own descriptors, a find step before convolutions), so the sources that call cuDNN do not build against it as they are",
    )
}

/// The severity of a library finding where it is not its kind's own: the mapping of a
/// library whose counterpart's API differs ([`api_differs`]) is a warning.
pub(crate) fn library_severity(name: &str, action: &Action) -> Option<Severity> {
    (api_differs(name).is_some() && matches!(action, Action::Replace(_)))
        .then_some(Severity::Warning)
}

/// The help of a mapping [`api_differs`] reports.
pub(crate) const API_DIFFERS_HELP: &str =
    "port the cuDNN calls to MIOpen by hand (hipport does not translate them), or keep this part on NVIDIA";

/// The note of a library [`map_library_in`] drops (message, help), or `None` where it stays.
pub(crate) fn unused_library(name: &str, opts: &super::BuildOptions) -> Option<(String, String)> {
    let lib = super::droppable(name).filter(|l| opts.unused_libraries.contains(l))?;
    let why = if api_differs(lib).is_some() {
        "ROCm's counterpart, MIOpen, is not a drop-in for it (another API)".to_string()
    } else if library(lib).is_some() {
        let hip = library(lib).and_then(|l| l.hip).unwrap_or(lib);
        format!("its HIP port, {hip}, is a package of its own that not every ROCm install has")
    } else {
        "ROCm has no counterpart of it".to_string()
    };
    Some((
        format!("CUDA library `{name}` dropped: no source in the tree uses it, and {why}"),
        "a source that calls its API needs it back (and a port of that code where ROCm has none)"
            .to_string(),
    ))
}

/// [`map_library_for`] for a Windows project: HIP's Windows SDK ships hipRTC as a library of its
/// own in every release (hip_rtc.md: "on Windows hiprtc.dll must be used as the amdhip64.dll
/// doesn't contain the HIPRTC symbols").
pub(crate) fn map_library_for_windows(
    name: &str,
    hip: Version,
) -> Option<(Action, &'static DiagInfo, String, Option<String>)> {
    map_library_on(name, hip, true)
}

/// [`map_library_for`], on Windows where `windows` (see [`map_library_for_windows`]).
fn map_library_on(
    name: &str,
    hip: Version,
    windows: bool,
) -> Option<(Action, &'static DiagInfo, String, Option<String>)> {
    if let Some(lib) = library(name).filter(|_| !windows) {
        if let Some((holder, Some(alone))) = lib.hip.map(|h| hip_link_name(h, hip)) {
            let own = lib.hip.unwrap_or(holder);
            return Some((
                Action::Replace(vec![holder.to_string()]),
                B_LIB_MAPPED,
                format!("CUDA library `{name}` -> `{holder}`"),
                Some(format!(
                    "HIP {hip} has no lib{own}: its functions are in lib{holder}; lib{own} ships from HIP {}.{} on (link it there)",
                    alone.major, alone.minor
                )),
            ));
        }
    }
    if let Some((lib, added)) = library(name).and_then(|l| Some((l, l.hip_added?))) {
        if added > hip {
            let new = lib.hip.unwrap_or(lib.cuda);
            return Some((
                Action::Replace(vec![name.to_string()]),
                B_LIB_UNMAPPED,
                format!(
                    "CUDA library `{name}` would become `{new}`, which HIP {hip} lacks: it first shipped in ROCm {}.{}",
                    added.major, added.minor
                ),
                Some(format!(
                    "target HIP {}.{} or later (--hip-version), or port the code that uses the library",
                    added.major, added.minor
                )),
            ));
        }
    }
    map_library_name(name)
}

/// The warning of an nvcc flag (`shown`, with its value) that stays as it is, and why: `nvcc flag
/// `-Xcompiler -x` left in place: ...` (B003). The one shape of every such finding.
pub(crate) fn left_in_place(
    notes: &mut Vec<Note>,
    word: usize,
    shown: &str,
    why: &str,
    help: String,
) {
    notes.push(Note {
        word,
        info: B_FLAG_UNMAPPED,
        message: format!("nvcc flag `{shown}` left in place: {why}"),
        help: Some(help),
        severity: Some(Severity::Warning),
    });
}

/// The help of `-m32` on an nvcc or a host line (R47-c).
const M32_HELP: &str = "ROCm builds 64-bit programs only: drop -m32 from every compile and link of a program that uses HIP code (CFLAGS, LDFLAGS), or keep that program on NVIDIA";

/// One of CUDA's switches for the operators and conversions of its fp16/bf16 headers, with the
/// macro HIP's headers test for the same thing.
struct HalfMacro {
    /// CUDA's macro (`__CUDA_NO_HALF_OPERATORS__`).
    cuda: &'static str,
    /// What `-U<cuda>` becomes (`None`: HIP's headers have no such switch).
    undef: Option<&'static str>,
    /// What `-D<cuda>` becomes (`None`: HIP's headers have no such switch).
    define: Option<&'static str>,
    /// What HIP does instead, for the diagnostic.
    hip_side: &'static str,
}

/// CUDA's fp16/bf16 switches. HIP's `amd_hip_fp16.h` tests `__HIP_NO_HALF_OPERATORS__` (for
/// `__half` and `__half2` alike) and `__HIP_NO_HALF_CONVERSIONS__`; its bfloat16 headers test
/// no macro, their operators and conversions are always defined.
const HALF_MACROS: &[HalfMacro] = &[
    HalfMacro {
        cuda: "__CUDA_NO_HALF_OPERATORS__",
        undef: Some("__HIP_NO_HALF_OPERATORS__"),
        define: Some("__HIP_NO_HALF_OPERATORS__"),
        hip_side: "",
    },
    HalfMacro {
        cuda: "__CUDA_NO_HALF_CONVERSIONS__",
        undef: Some("__HIP_NO_HALF_CONVERSIONS__"),
        define: Some("__HIP_NO_HALF_CONVERSIONS__"),
        hip_side: "",
    },
    HalfMacro {
        cuda: "__CUDA_NO_HALF2_OPERATORS__",
        undef: Some("__HIP_NO_HALF_OPERATORS__"),
        define: None,
        hip_side: "HIP's __half2 operators follow __HIP_NO_HALF_OPERATORS__, which also removes the __half ones",
    },
    HalfMacro {
        cuda: "__CUDA_NO_BFLOAT16_OPERATORS__",
        undef: None,
        define: None,
        hip_side: "HIP's bfloat16 operators are always defined",
    },
    HalfMacro {
        cuda: "__CUDA_NO_BFLOAT16_CONVERSIONS__",
        undef: None,
        define: None,
        hip_side: "HIP's bfloat16 conversions are always defined",
    },
    HalfMacro {
        cuda: "__CUDA_NO_BFLOAT162_OPERATORS__",
        undef: None,
        define: None,
        hip_side: "HIP's bfloat16 operators are always defined",
    },
    HalfMacro {
        cuda: "__CUDA_NO_BFLOAT162_CONVERSIONS__",
        undef: None,
        define: None,
        hip_side: "HIP's bfloat16 conversions are always defined",
    },
];

/// Why CUDA's half switches need HIP's names under PyTorch.
const HALF_MACRO_HELP: &str =
    "ROCm PyTorch compiles extensions with -D__HIP_NO_HALF_OPERATORS__=1 \
     -D__HIP_NO_HALF_CONVERSIONS__=1, which CUDA's macro names do not undo";

/// `-U`/`-D` of one of CUDA's fp16/bf16 switches (`-U__CUDA_NO_HALF_OPERATORS__`, `-D X=1`,
/// `-U X`) at word `i`: rewritten to HIP's macro, or reported where HIP has none. Returns the
/// words consumed, or `None` when the word is no such flag.
fn half_macro(words: &[&str], i: usize, m: &mut Mapped) -> Option<usize> {
    let unquote = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
    let w = unquote(words[i]);
    let (kind, rest) = (w.get(..2)?, w.get(2..)?);
    if kind != "-U" && kind != "-D" {
        return None;
    }
    // The macro is in this word, or in the next one (`-U X`).
    let (at, text) = if rest.is_empty() {
        (i + 1, unquote(words.get(i + 1)?))
    } else {
        (i, rest.to_string())
    };
    let (name, value) = match text.split_once('=') {
        Some((n, v)) => (n, Some(v)),
        None => (text.as_str(), None),
    };
    let hm = HALF_MACROS.iter().find(|h| h.cuda == name)?;
    let n = at - i + 1;
    let shown = words[i..i + n].join(" ");
    let target = if kind == "-U" { hm.undef } else { hm.define };
    let Some(hip) = target else {
        // A note either way (R23-1): hipcc accepts both and nothing breaks.
        let what = if kind == "-U" {
            "hipcc accepts it, but it enables nothing"
        } else {
            "hipcc accepts it, but it disables nothing"
        };
        m.notes.push(Note {
            word: i,
            info: B_FLAG_UNMAPPED,
            message: format!(
                "`{shown}` left in place: HIP's headers have no counterpart of `{name}` ({}); {what}",
                hm.hip_side
            ),
            help: Some("remove it once the HIP build no longer needs it".into()),
            severity: Some(Severity::Note),
        });
        return Some(n);
    };
    // `-U__CUDA_NO_HALF2_OPERATORS__` beside a `-U` of the scalar operators' switch maps to
    // the same HIP macro: one `-U` is enough.
    let undone_already = kind == "-U"
        && hip == "__HIP_NO_HALF_OPERATORS__"
        && hm.cuda != "__CUDA_NO_HALF_OPERATORS__"
        && words.iter().enumerate().any(|(j, other)| {
            let o = unquote(other);
            j != i && (o == format!("-U{hip}") || o == "-U__CUDA_NO_HALF_OPERATORS__")
        });
    if undone_already {
        drop_words(m, i, n);
        note(
            m,
            i,
            B_FLAG_DROPPED,
            format!("`{shown}` dropped: {}", hm.hip_side),
            Some("the -U of __HIP_NO_HALF_OPERATORS__ in the same list enables them"),
        );
        return Some(n);
    }
    let new = match value {
        Some(v) => format!("{hip}={v}"),
        None => hip.to_string(),
    };
    let replaced = if at == i { format!("{kind}{new}") } else { new };
    m.changes.push((at, Action::Replace(vec![replaced])));
    let extra = if hm.hip_side.is_empty() {
        String::new()
    } else {
        format!(" ({})", hm.hip_side)
    };
    note(
        m,
        at,
        B_FLAG_MAPPED,
        format!("`{shown}` -> `{kind}{hip}`: HIP's headers test `{hip}`{extra}"),
        Some(HALF_MACRO_HELP),
    );
    Some(n)
}

/// Thrust's definition that picks its CUDA backend. rocThrust keeps Thrust's switch with a
/// HIP system of its own (thrust/detail/config/device_system.h: `THRUST_DEVICE_SYSTEM_CUDA` 1,
/// `THRUST_DEVICE_SYSTEM_HIP` 5, the default under hipcc); the CUDA value selects the
/// `thrust::cuda` system namespace, which is not rocThrust's HIP backend.
pub(crate) const THRUST_CUDA_SYSTEM: &str = "THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA";

/// What [`THRUST_CUDA_SYSTEM`] becomes.
pub(crate) const THRUST_HIP_SYSTEM: &str = "THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_HIP";

/// The message for a rewritten [`THRUST_CUDA_SYSTEM`] (`shown` as written).
pub(crate) fn thrust_system_message(shown: &str, new: &str) -> String {
    format!("`{shown}` -> `{new}`: rocThrust's HIP backend is THRUST_DEVICE_SYSTEM_HIP; THRUST_DEVICE_SYSTEM_CUDA would select its `cuda` system, which a HIP build does not have")
}

/// `-DTHRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA` (or `-D` and the definition as two words)
/// at word `i`: becomes the HIP system. Returns the words consumed, or `None` when the word is
/// no such flag.
fn thrust_system(words: &[&str], i: usize, m: &mut Mapped) -> Option<usize> {
    let unquote = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
    let w = unquote(words[i]);
    let rest = w.strip_prefix("-D")?;
    let (at, text) = if rest.is_empty() {
        (i + 1, unquote(words.get(i + 1)?))
    } else {
        (i, rest.to_string())
    };
    if text != THRUST_CUDA_SYSTEM {
        return None;
    }
    let n = at - i + 1;
    let shown = words[i..i + n].join(" ");
    let new = if at == i {
        format!("-D{THRUST_HIP_SYSTEM}")
    } else {
        THRUST_HIP_SYSTEM.to_string()
    };
    m.changes.push((at, Action::Replace(vec![new])));
    note(
        m,
        i,
        B_FLAG_MAPPED,
        thrust_system_message(
            &shown,
            &shown.replace(THRUST_CUDA_SYSTEM, THRUST_HIP_SYSTEM),
        ),
        None,
    );
    Some(n)
}

/// The `--offload-arch=` flags for a list of AMD targets.
pub(crate) fn offload_flags(archs: &[String]) -> Vec<String> {
    archs
        .iter()
        .map(|a| format!("--offload-arch={a}"))
        .collect()
}

/// Whether a word is a path into a CUDA installation (`/usr/local/cuda/lib64`, `$(CUDA_HOME)/include`).
pub(crate) fn is_cuda_path(p: &str) -> bool {
    let p = p.trim_matches(|c| c == '"' || c == '\'');
    if p.starts_with("/usr/local/cuda") || p.starts_with("/opt/cuda") {
        return true;
    }
    // `$(VAR)`, `${VAR}`, `$VAR/` or `$ENV{VAR}`, read in place (this runs for every word of
    // a build file).
    let Some(rest) = p.strip_prefix('$') else {
        return false;
    };
    [
        "CUDA_HOME",
        "CUDA_PATH",
        "CUDA_ROOT",
        "CUDA_DIR",
        "CUDA_TOOLKIT_ROOT_DIR",
        "CUDAToolkit_ROOT",
        // Other names projects give it (gpu-burn's CUDAPATH, older SDK makefiles').
        "CUDAPATH",
        "CUDA_INSTALL_PATH",
        "CUDA_TOOLKIT_PATH",
        "CUDA_TOOLKIT_DIR",
        "CUDA_PREFIX",
        "CUDADIR",
    ]
    .iter()
    .any(|v| {
        let around = |open: &str, close: &str| {
            rest.strip_prefix(open)
                .and_then(|r| r.strip_prefix(v))
                .is_some_and(|r| r.starts_with(close))
        };
        around("(", ")") || around("{", "}") || around("", "/") || around("ENV{", "}")
    })
}

/// The variable a path starts with where `vars` holds it (`$(CUDA)` of `$(CUDA)/include`,
/// `${CUDA_INCLUDE}`), and the path's rest after it (`/include`, empty).
pub(crate) fn cuda_path_var<'a>(
    p: &'a str,
    vars: &'a BTreeMap<String, String>,
) -> Option<(&'a str, &'a str)> {
    if vars.is_empty() {
        return None;
    }
    let p = p.trim_matches(|c| c == '"' || c == '\'');
    let (inner, close) = if let Some(r) = p.strip_prefix("$(") {
        (r, ')')
    } else {
        (p.strip_prefix("${")?, '}')
    };
    let end = inner.find(close)?;
    let rest = &inner[end + 1..];
    let name = &inner[..end];
    // A value ending in a slash is joined without one (`CUDADIR = /usr/local/cuda-11.8/`,
    // `$(CUDADIR)include`).
    let joined = |v: &String| v.ends_with('/') && !rest.starts_with(['.', '-', '_']);
    vars.get(name)
        .is_some_and(|v| rest.is_empty() || rest.starts_with('/') || joined(v))
        .then_some((name, rest))
}

/// [`is_cuda_path`], or a path behind a variable that a Makefile sets to one (`vars`, see
/// [`super::BuildOptions::cuda_path_vars`]): `$(CUDA)/include` where `CUDA =
/// /usr/local/cuda-8.0`, `${CUDA_INCLUDE}` where `CUDA_INCLUDE = ${CUDA_HOME}/include`.
pub(crate) fn is_cuda_path_in(p: &str, vars: &BTreeMap<String, String>) -> bool {
    is_cuda_path(p) || cuda_path_var(p, vars).is_some()
}

/// A path with the variable it starts with replaced by its path where `vars` holds it (see
/// [`is_cuda_path_in`]): `${CUDA_INCLUDE}` reads `/usr/local/cuda/include`.
pub(crate) fn resolve_cuda_path(p: &str, vars: &BTreeMap<String, String>) -> String {
    match cuda_path_var(p, vars) {
        Some((name, rest)) => format!("{}{rest}", vars[name]),
        None => p.to_string(),
    }
}

/// Whether a word is a path into NVIDIA's HPC SDK (`/opt/nvidia/hpc_sdk/Linux_x86_64/24.5`,
/// `$(NVHPC_SDK)/comm_libs/12.4/openmpi4/openmpi-4.1.5`, the MPI and NCCL it bundles under
/// `comm_libs/`), which a ROCm machine does not have either (R26-g: HeCBench's ccl-cuda).
pub(crate) fn is_nvhpc_path(p: &str) -> bool {
    let p = p.trim_matches(|c| c == '"' || c == '\'');
    if p.starts_with("/opt/nvidia/hpc_sdk") || p.contains("/comm_libs/") {
        return true;
    }
    let Some(rest) = p.strip_prefix('$') else {
        return false;
    };
    let name = rest
        .strip_prefix('(')
        .or_else(|| rest.strip_prefix('{'))
        .or_else(|| rest.strip_prefix("ENV{"))
        .unwrap_or(rest);
    let end = name
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(name.len());
    name[..end].to_ascii_uppercase().starts_with("NVHPC")
}

/// Whether `flag` is a GCC host option that clang does not accept: hipcc 5.2.3 (clang 15)
/// stops with "unknown argument" on each (`-fno-gnu-unique` is in the 3D Gaussian splatting
/// rasterizer's setup.py and its forks; `-fabi-version=11` in older PyTorch-era builds).
fn gcc_only(flag: &str) -> bool {
    matches!(
        flag,
        "-fno-gnu-unique"
            | "-fgnu-unique"
            | "-fconcepts"
            | "-fno-enforce-eh-specs"
            | "-fno-keep-inline-dllexport"
    ) || flag.starts_with("-fabi-version=")
        || flag.starts_with("-fipa-")
        || flag.starts_with("-fno-ipa-")
}

/// Splits the value of `-Xcompiler` into host compiler flags, at commas and blanks outside
/// `$(...)` and `${...}` (a Makefile reference is one flag, whatever it holds). A value in
/// escaped quotes (`\"-Wl,--no-as-needed\"`, every cuda-samples Makefile) reaches nvcc with
/// its quotes, which keep its commas: it is cut at blanks only. A linker, assembler or
/// preprocessor pass-through (`-Wl,a,b`) is one flag with its commas (split, `-Wl` alone is
/// no flag). Returns `None` where the value holds a backslash past its escaped quotes
/// (`"-DMSG=\"a b\""`): hipport does not unwrap shell escapes.
fn host_flags(v: &str) -> Option<Vec<String>> {
    let escaped = v.len() >= 4 && v.starts_with("\\\"") && v.ends_with("\\\"");
    let v = if escaped {
        &v[2..v.len() - 2]
    } else {
        v.trim_matches(|c| c == '"' || c == '\'')
    };
    if v.contains('\\') {
        return None;
    }
    let mut out = Vec::new();
    let (mut depth, mut from) = (0usize, 0);
    // Whether the flag being read passes its commas on (`-Wl,`).
    let mut keeps_commas = false;
    for (i, c) in v.char_indices() {
        if i == from {
            keeps_commas = ["-Wl,", "-Wa,", "-Wp,"]
                .iter()
                .any(|p| v[i..].starts_with(p));
        }
        match c {
            '(' | '{' => depth += 1,
            ')' | '}' => depth = depth.saturating_sub(1),
            ',' if depth == 0 && !escaped && !keeps_commas => {
                out.push(&v[from..i]);
                from = i + 1;
            }
            ' ' if depth == 0 => {
                out.push(&v[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&v[from..]);
    Some(
        out.into_iter()
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .collect(),
    )
}

/// The start of the B002 note for MSVC options dropped from `-Xcompiler` values (see
/// [`msvc_note`]).
const MSVC_DROPPED: &str = "host compiler flag";

/// The B002 note at word `word` for the MSVC (cl.exe) options `flags` dropped from
/// `-Xcompiler` values, with help about those options (R41-1: the help quoted `/wd 4819` for
/// `/bigobj`).
fn msvc_note(word: usize, flags: &[String]) -> Note {
    let (what, them) = if flags.len() == 1 {
        ("an MSVC (cl.exe) option", "it")
    } else {
        ("MSVC (cl.exe) options", "them")
    };
    let plural = if flags.len() == 1 { "" } else { "s" };
    Note {
        word,
        info: B_FLAG_DROPPED,
        message: format!(
            "{MSVC_DROPPED}{plural} `{}` dropped: {what} that nvcc handed its host compiler",
            flags.join(" ")
        ),
        help: Some(msvc_help(flags, them)),
        severity: None,
    }
}

/// Help for dropped MSVC options `flags`: clang reads a `/` option as a file name, and what
/// each known option did.
fn msvc_help(flags: &[String], them: &str) -> String {
    let first = flags[0].as_str();
    let mut help = format!(
        "hipcc compiles host code with clang, which would read {them} as file names (`no such file or directory: '{first}'`)"
    );
    let mut said: Vec<&str> = Vec::new();
    for f in flags {
        let lower = f.to_ascii_lowercase();
        let l = lower.as_str();
        let why = if l == "/bigobj" {
            "`/bigobj` raises the section limit of MSVC's object files, which clang's have not"
        } else if l.starts_with("/zc:preprocessor") || l == "/experimental:preprocessor" {
            "clang's preprocessor already follows the standard (`/Zc:preprocessor`)"
        } else if l.starts_with("/zc:") || l == "/permissive-" {
            "clang follows the standard there by default (`/Zc:`, `/permissive-`)"
        } else if l == "/utf-8"
            || l.starts_with("/source-charset")
            || l.starts_with("/execution-charset")
        {
            "clang reads and writes UTF-8 already (`/utf-8`)"
        } else if l.starts_with("/wd") || l.starts_with("/w") && l.len() <= 3 || l == "/wx" {
            if flags.iter().any(|g| g.contains("4819")) {
                "MSVC's warning options and numbers mean nothing to clang (C4819 is cl.exe's code-page warning): use clang's -W names"
            } else {
                "MSVC's warning options and numbers mean nothing to clang: use clang's -W names"
            }
        } else if matches!(l, "/md" | "/mdd" | "/mt" | "/mtd") {
            "`/MD`, `/MT` choose MSVC's C runtime library, which clang's driver picks on its own"
        } else if l.starts_with("/eh") {
            "clang enables C++ exceptions by default (`/EHsc`)"
        } else if l.starts_with("/o") {
            "use clang's -O flags for optimisation"
        } else if l.starts_with("/openmp") {
            "use -fopenmp for OpenMP"
        } else {
            continue;
        };
        if !said.contains(&why) {
            said.push(why);
        }
    }
    for why in said {
        help.push_str("; ");
        help.push_str(why);
    }
    help.push_str("; give clang's own flags where one is needed");
    help
}

/// R41-1: the MSVC notes of one list of words become one, naming every option dropped.
fn merge_msvc_notes(notes: &mut Vec<Note>) {
    let is_msvc = |n: &Note| {
        n.info.id == B_FLAG_DROPPED.id
            && n.message.starts_with(MSVC_DROPPED)
            && n.message.ends_with("that nvcc handed its host compiler")
    };
    let Some(first) = notes.iter().position(is_msvc) else {
        return;
    };
    if notes.iter().filter(|n| is_msvc(n)).count() < 2 {
        return;
    }
    let mut flags = Vec::new();
    for n in notes.iter().filter(|n| is_msvc(n)) {
        if let Some(f) = n.message.split('`').nth(1) {
            flags.extend(f.split(' ').map(str::to_string));
        }
    }
    let word = notes[first].word;
    let mut k = 0;
    notes.retain(|n| {
        let keep = !is_msvc(n) || k == first;
        k += 1;
        keep
    });
    notes[first] = msvc_note(word, &flags);
}

/// The MSVC (cl.exe) options of an `-Xcompiler` value cut into host flags (`/wd 4819`,
/// `/MD`, `/EHsc`: a `/` option with the bare numbers after it), and the other flags. A `/`
/// word after a host flag that takes the next word as its value (`-isystem /opt/inc`, the
/// flag in the value or, `after_value_flag`, ending the `-Xcompiler` before it) is that path,
/// no MSVC option (verify8 pre-existing 1: `-Xcompiler -isystem -Xcompiler /opt/inc` lost it).
fn msvc_options(flags: Vec<String>, after_value_flag: bool) -> (Vec<String>, Vec<String>) {
    let (mut msvc, mut rest) = (Vec::new(), Vec::new());
    let mut takes_value = after_value_flag;
    for f in flags {
        let number = !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit());
        let value = std::mem::replace(&mut takes_value, host_flag_takes_value(&f));
        if !value
            && (f.starts_with('/') && f.len() > 1 || number && !msvc.is_empty() && rest.is_empty())
        {
            msvc.push(f);
        } else {
            rest.push(f);
        }
    }
    (msvc, rest)
}

/// Whether the host compiler (gcc, clang) flag `f`, written alone, takes the next word as its
/// value (a path for most: `-isystem /opt/inc`, `-o /tmp/x.o`).
fn host_flag_takes_value(f: &str) -> bool {
    matches!(
        f.trim_matches(|c| c == '"' || c == '\''),
        "-I" | "-isystem"
            | "-iquote"
            | "-idirafter"
            | "-iprefix"
            | "-isysroot"
            | "--sysroot"
            | "-include"
            | "-imacros"
            | "-L"
            | "-o"
            | "-MF"
            | "-MT"
            | "-MQ"
            | "-T"
            | "-Xlinker"
            | "-Xassembler"
            | "-Xpreprocessor"
    )
}

/// The flags of an `-Xcompiler` value (word `at`) as hipcc takes them: each mapped as a flag of
/// the same list is (`-Xcompiler -lcudart` gives `-lcudart`, which hipcc does not need), so that
/// what the unwrapping leaves is already the fixed point of a second conversion. The inner
/// findings are reported at `at`.
fn pass_through(
    flags: &[String],
    at: usize,
    opts: &super::BuildOptions,
    ctx: Context,
    arch_done: &mut bool,
    m: &mut Mapped,
) -> Vec<String> {
    let inner: Vec<&str> = flags.iter().map(String::as_str).collect();
    let mapped = map_words(&inner, opts, ctx, arch_done);
    let out = mapped.applied(&inner).into_iter().map(|(_, w)| w).collect();
    m.notes
        .extend(mapped.notes.into_iter().map(|n| Note { word: at, ..n }));
    out
}

/// Whether the flag `f`, written alone, takes the next word of its list as its value when
/// mapped (`-t` in nvcc's list, `-o`): the next word, `-dc` for a probe, is then not mapped as
/// it is alone.
fn takes_next_word(f: &str, opts: &super::BuildOptions, ctx: Context) -> bool {
    const PROBE: &str = "-dc";
    let alone = map_words(&[PROBE], opts, ctx, &mut false);
    let after = map_words(&[f, PROBE], opts, ctx, &mut false);
    let change = |m: &Mapped, k: usize| m.changes.iter().find(|c| c.0 == k).map(|c| c.1.clone());
    change(&alone, 0) != change(&after, 1)
}

/// Makefile calls `$(addprefix FLAG ,LIST)` on the line `src[start..end]` whose prefix is an
/// nvcc flag (every cuda-samples Makefile has `$(addprefix -Xcompiler ,$(CCFLAGS))`), each
/// rewritten or left as a whole, since make cannot take a partial edit inside a function call:
/// `-Xcompiler` goes (hipcc takes host flags directly, so the call becomes its list, where
/// that list is host flags hipcc takes as they are and plain variable references), a flag hipcc
/// has no use for (`-Xptxas`) takes the call with it, and a call hipport leaves that hipcc may
/// reject is a warning. What a rewrite writes is already what the next run leaves. Returns the
/// byte ranges of the calls, none of whose words is a flag of the line. `values`: the
/// Makefile's variables (see `make::variables`), which the list's references read.
pub(crate) fn make_addprefix_calls(
    src: &str,
    start: usize,
    end: usize,
    sink: &mut super::text::Sink,
    opts: &super::BuildOptions,
    values: &std::collections::BTreeMap<String, String>,
) -> Vec<(usize, usize)> {
    let line = &src[start..end];
    let mut calls: Vec<(usize, usize)> = ["$(addprefix ", "${addprefix "]
        .iter()
        .flat_map(|open| line.match_indices(open).map(|(pos, _)| (pos, open.len())))
        // `$$(addprefix` is text (`$` and a bracket) to make, no call.
        .filter(|&(pos, _)| super::text::opens_make_reference(line.as_bytes(), pos + 1))
        .collect();
    calls.sort();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (pos, head) in calls {
        // A call inside one already read is part of that one's list.
        if out.iter().any(|r| r.0 <= start + pos && start + pos < r.1) {
            continue;
        }
        // A call hipport cannot read (no closer, as it pairs brackets, or no comma) is left
        // as it is, none of its words read as flags: `-Xcompiler=,` dropped from
        // `${addprefix -Xcompiler=,k(-fPIC}` would leave make a call of one argument.
        let Some(close) = super::make::closing_paren(line, pos + 1) else {
            out.push((start + pos, end));
            continue;
        };
        let args = &line[pos + head..close];
        let Some(comma) = super::make::top_level(args, ',') else {
            out.push((start + pos, start + close + 1));
            continue;
        };
        let (prefix, list) = (&args[..comma], &args[comma + 1..]);
        let flag = prefix.trim();
        if !flag.starts_with('-') || flag.contains(char::is_whitespace) {
            continue;
        }
        let (at, to) = (start + pos, start + close + 1);
        out.push((at, to));
        // A call glued to other text (`$(addprefix -Xptxas ,-v)x`) is part of a longer word.
        let blank_or =
            |c: Option<char>, also: char| c.is_none_or(|c| c.is_whitespace() || c == also);
        // An `=` before it is no glue where it is the assignment's (`X=$(addprefix ...)`),
        // and glue in a word (`-ccbin =$(addprefix ...)`, which the flag takes as its value).
        let opens_value = super::make::assignment(line)
            .and_then(|(_, value)| super::text::offset_in(line, value))
            .is_some_and(|v| v == pos);
        let glued = !(opens_value || blank_or(line[..pos].chars().next_back(), ' '))
            || !blank_or(line[close + 1..].chars().next(), ' ');
        let call = &line[pos..=close];
        let call = Call {
            flag,
            prefix,
            list,
            text: call,
            glued,
        };
        let (new, findings) = addprefix_rewrite(&call, opts, values);
        if new.is_none_or(|new| sink.edit(at, to, new, B_FLAG_MAPPED.id)) {
            for n in findings {
                sink.note(n, at);
            }
        }
    }
    out
}

/// `line` (a Makefile line) with its `$(addprefix FLAG ,LIST)` calls as
/// [`make_addprefix_calls`] leaves them: what a second run reads there, which the
/// separate-compilation plan reads in the variables' values so that both runs decide alike.
pub(crate) fn make_addprefix_applied(
    line: &str,
    opts: &super::BuildOptions,
    values: &std::collections::BTreeMap<String, String>,
) -> String {
    if !line.contains("addprefix ") {
        return line.to_string();
    }
    let mut scratch = super::text::Sink::new(line.as_bytes(), "");
    make_addprefix_calls(line, 0, line.len(), &mut scratch, opts, values);
    let (mut edits, _) = scratch.finish();
    crate::edit::apply(line.as_bytes(), &mut edits)
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_else(|| line.to_string())
}

/// Whether `v`, a Makefile host-flag value nvcc gets behind `-Xcompiler`, holds, with its
/// references expanded (`vars`, see `make::variables`), a flag that decides separate
/// compilation (`-rdc`, `-dc`, `--device-link`): unwrapped, the next run's link plan would read
/// it as the command's own flag for the first time, so such a value stays wrapped.
pub(crate) fn reads_separate_compilation(
    v: &str,
    vars: &std::collections::BTreeMap<String, String>,
) -> bool {
    let expanded = super::make_rdc::expand(v, vars, 0);
    expanded.split_whitespace().any(|v| {
        ["rdc", "dlink", "device-link", "device-c"]
            .iter()
            .any(|w| v.contains(w))
            || v == "-dc"
    })
}

/// One `$(addprefix PREFIX,LIST)` call of a Makefile line.
#[derive(Clone, Copy)]
struct Call<'a> {
    /// The prefix without its blanks: an nvcc flag.
    flag: &'a str,
    prefix: &'a str,
    list: &'a str,
    /// The whole call.
    text: &'a str,
    /// Whether it is glued to other text, part of a longer word.
    glued: bool,
}

/// What `$(addprefix PREFIX,LIST)` (the whole `call`) becomes with its nvcc flag `flag`
/// mapped (`None`: it stays as it is), with the findings to report at the call.
fn addprefix_rewrite(
    call: &Call,
    opts: &super::BuildOptions,
    vars: &std::collections::BTreeMap<String, String>,
) -> (Option<String>, Vec<Note>) {
    let Call {
        flag,
        prefix,
        list,
        text: call,
        glued,
    } = *call;
    let finding = |info: &'static DiagInfo, severity, message, help: Option<String>| Note {
        word: 0,
        info,
        message,
        help,
        severity,
    };
    // The prefix ends in a blank (`-Xcompiler -Wall`) or in `=` (`-Xcompiler=-Wall`): anything
    // else glues the flag to each word, which is no flag of nvcc's either.
    let name = match flag.strip_suffix('=') {
        Some(n) => n,
        None if prefix.ends_with(char::is_whitespace) => flag,
        None => return (None, Vec::new()),
    };
    if matches!(name, "-Xcompiler" | "--compiler-options") {
        // The list's words as make splits them, each a value nvcc splits at commas (both at
        // once, outside references).
        let split = host_flags(&list.replace('\t', " "));
        let quoted = split.is_none();
        let values = split.unwrap_or_default();
        let mut inner = Mapped::default();
        let flags = pass_through(&values, 0, opts, Context::Nvcc, &mut false, &mut inner);
        // What is unwrapped is read by the next run as words of the line (cut at blanks,
        // renamed, mapped): only flags and plain variable references are unwrapped, already as
        // that run leaves them. A list continued on the next line is left whole too.
        let plain_reference = |v: &str| {
            let name = v
                .strip_prefix("$(")
                .and_then(|r| r.strip_suffix(')'))
                .or_else(|| v.strip_prefix("${").and_then(|r| r.strip_suffix('}')));
            name.is_some_and(|n| {
                !n.is_empty() && n.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            })
        };
        let plain = |v: &String| {
            v.starts_with('-') && !v.contains(['$', '"', '\'', '\\', '(', ')', '{', '}'])
                || plain_reference(v)
        };
        // Nor what the mapping changes or what decides separate compilation, which the
        // next run's reading of the Makefile (its link plan) would then see for the first time.
        // A reference's value counts too (`$(CCFLAGS)` holding `--device-link`): unwrapped,
        // it would make the next run's plan read it as the command's flag.
        let separate = |v: &String| reads_separate_compilation(v, vars);
        let why = if glued {
            Some("it is glued to other text")
        } else if quoted {
            Some("its list holds quotes that do not pair up in one value")
        } else if list.contains(['\\', '\n']) {
            Some("its list goes on past the line")
        } else if !values.iter().all(plain) {
            Some("its list holds more than flags and variable references")
        } else if !inner.notes.is_empty() || values.iter().any(separate) {
            Some("its list holds nvcc flags of its own")
        } else {
            None
        };
        if let Some(why) = why {
            let left = finding(
                B_FLAG_UNMAPPED,
                Some(Severity::Warning),
                format!("`{call}` left in place: {why}"),
                Some("hipcc takes host flags directly: write them without -Xcompiler".into()),
            );
            return (None, vec![left]);
        }
        let new = flags.join(" ");
        let shown = if new.is_empty() {
            "nothing: hipcc needs none of its host flags".to_string()
        } else {
            format!("`{new}`")
        };
        let found = vec![finding(
            B_FLAG_MAPPED,
            None,
            format!("`{call}` -> {shown}"),
            Some("hipcc passes host flags to clang directly, without -Xcompiler".into()),
        )];
        return (Some(new), found);
    }
    // Any other flag: mapped before a stand-in value, as one word of each pair would be.
    let words = [name, "VALUE"];
    let m = map_words(&words, opts, Context::Nvcc, &mut false);
    let dropped = m.changes.len() == 2 && m.changes.iter().all(|c| c.1 == Action::Remove);
    let Some(first) = m.notes.into_iter().next() else {
        return (None, Vec::new());
    };
    if dropped && first.info.id == B_FLAG_DROPPED.id && !glued {
        let gone = finding(
            B_FLAG_DROPPED,
            None,
            format!("`{call}` dropped: nvcc flag `{name}` has no use in hipcc"),
            first.help,
        );
        return (Some(String::new()), vec![gone]);
    }
    let left = finding(
        B_FLAG_UNMAPPED,
        Some(Severity::Warning),
        format!(
            "`{call}` left in place: hipport does not rewrite nvcc flag `{name}` inside a make function, and hipcc may reject it"
        ),
        Some(format!(
            "write the call by hand with what hipcc takes{}",
            first.help.map(|h| format!(" ({h})")).unwrap_or_default()
        )),
    );
    (None, vec![left])
}

/// Whether `word` opens a `$(`/`${` reference it does not close, as make reads brackets:
/// inside a reference each bracket nests, outside one a bracket is a character (`}$(addprefix`
/// opens one).
fn opens_unclosed_reference(word: &str) -> bool {
    let b = word.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'(' | b'{' if depth > 0 || super::text::opens_make_reference(b, i) => depth += 1,
            b')' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth > 0
}

/// Whether `word` holds a `>` that closes no `$<` of its own: the end of a CMake generator
/// expression (or a shell redirection) opened before it, never part of a flag's value.
fn closes_outer_genex(word: &str) -> bool {
    let b = word.as_bytes();
    let mut depth = 0usize;
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'<' if i > 0 && b[i - 1] == b'$' => depth += 1,
            b'>' if depth == 0 => return true,
            b'>' => depth -= 1,
            _ => {}
        }
    }
    false
}

/// The value of `--flag=value`, `-flag=value`, or of the next word for `--flag value`.
/// Returns (value, words consumed).
fn flag_value<'a>(words: &[&'a str], i: usize, names: &[&str]) -> Option<(Option<&'a str>, usize)> {
    let w = words[i];
    for n in names {
        if w == *n {
            // After a function call's head, a next word that starts with a comma is the rest of
            // the call's arguments (`$(addprefix -Xcompiler ,$(CCFLAGS))`), no value of the flag.
            let call_head = i > 0 && {
                let before = words[i - 1];
                (before.starts_with("$(") || before.starts_with("${"))
                    && !before.contains([')', '}'])
            };
            if call_head && words.get(i + 1).is_some_and(|v| v.starts_with(',')) {
                return Some((None, 1));
            }
            // A next word that closes a generator expression opened before it, or starts by
            // closing a reference (`$<...: -gencode R>>)`), ends the construct the flag is in:
            // no value of the flag.
            if words
                .get(i + 1)
                .is_some_and(|v| v.starts_with([')', '}']) || closes_outer_genex(v))
            {
                return Some((None, 1));
            }
            return Some((words.get(i + 1).copied(), 2.min(words.len() - i)));
        }
        if let Some(rest) = w.strip_prefix(n) {
            if let Some(v) = rest.strip_prefix('=') {
                return Some((Some(v), 1));
            }
        }
    }
    None
}

/// Maps a list of command-line words. `arch_done` says whether an earlier word of the same list
/// already produced the offload-arch list (later arch flags then go away).
pub(crate) fn map_words(
    words: &[&str],
    opts: &super::BuildOptions,
    ctx: Context,
    arch_done: &mut bool,
) -> Mapped {
    let mut m = Mapped::default();
    let mut i = 0;
    while i < words.len() {
        let (changes, notes, arch) = (m.changes.len(), m.notes.len(), *arch_done);
        let n = map_one(words, i, opts, ctx, arch_done, &mut m).max(1);
        // A flag whose value word opens a make or CMake reference closed only after a blank
        // (`-rdc g$(addprefix -Xcompiler ,$(F))`) is not read whole: changed, it would leave
        // the reference's rest, which the next run reads as flags. It stays, said so.
        if m.changes.len() > changes && (i + 1..i + n).any(|k| opens_unclosed_reference(words[k])) {
            m.changes.truncate(changes);
            m.notes.truncate(notes);
            *arch_done = arch;
            left_in_place(
                &mut m.notes,
                i,
                words[i],
                "its value opens a reference that closes after a blank",
                format!("rewrite `{}` and its value by hand", words[i]),
            );
        }
        i += n;
    }
    undef_not_error(&mut m, words);
    merge_msvc_notes(&mut m.notes);
    m
}

/// R49-c (moderngpu): nvcc hands `-Xcompiler` flags to the host compiler, which reads the
/// source cudafe already preprocessed, so `-Wundef -Werror` never saw `#if __CUDA_ARCH__ >= 350`.
/// hipcc hands them to clang on the raw source in every pass: `__CUDA_ARCH__` is undefined
/// there, `-Wundef` warns and `-Werror` stops the build. Where hipport unwrapped either of
/// them (or `-Werror=undef`) and the list has no `-Wno-error=undef` / `-Wno-undef` already,
/// `-Wno-error=undef` goes after the last `-Werror`, with a note saying why.
fn undef_not_error(m: &mut Mapped, words: &[&str]) {
    let plain = |w: &str| w.trim_matches(|c| c == '"' || c == '\'').to_string();
    let applied: Vec<(usize, String)> = m
        .applied(words)
        .into_iter()
        .map(|(k, w)| (k, plain(&w)))
        .collect();
    let unwrapped = |k: usize| {
        m.changes
            .iter()
            .any(|c| c.0 == k && matches!(&c.1, Action::Replace(v) if v.len() > 1 || plain(&v[0]) != plain(words[k])))
    };
    let undef = applied
        .iter()
        .find(|(_, w)| w == "-Wundef")
        .map(|(k, _)| *k);
    let strict_undef = applied
        .iter()
        .rev()
        .find(|(_, w)| w == "-Werror=undef")
        .map(|(k, _)| *k);
    let werror = applied
        .iter()
        .rev()
        .find(|(_, w)| w == "-Werror" || w == "-Werror=undef")
        .map(|(k, _)| *k);
    let Some(at) = werror else {
        return;
    };
    let fails = match (undef, strict_undef) {
        (_, Some(e)) => unwrapped(e),
        (Some(u), None) => unwrapped(u) || unwrapped(at),
        (None, None) => false,
    };
    let relaxed = applied
        .iter()
        .any(|(_, w)| matches!(w.as_str(), "-Wno-error=undef" | "-Wno-undef" | "-Wno-error"));
    if !fails || relaxed {
        return;
    }
    let extra = "-Wno-error=undef".to_string();
    match m.changes.iter_mut().find(|c| c.0 == at) {
        Some((_, Action::Replace(v))) => {
            let pos = v
                .iter()
                .rposition(|w| matches!(plain(w).as_str(), "-Werror" | "-Werror=undef"))
                .map_or(v.len(), |p| p + 1);
            v.insert(pos, extra.clone());
        }
        Some((_, Action::Remove)) => return,
        None => m.changes.push((
            at,
            Action::Replace(vec![words[at].to_string(), extra.clone()]),
        )),
    }
    let shown = if strict_undef.is_some() {
        "`-Werror=undef`"
    } else {
        "`-Wundef` with `-Werror`"
    };
    note(
        m,
        at,
        B_FLAG_MAPPED,
        format!("`{extra}` added: {shown} reached only nvcc's host compiler, which reads the source after cudafe has resolved its `#if`s; hipcc hands them to clang on the raw source in every pass, where an `#if __CUDA_ARCH__ >= ...` tests an undefined name, so the build would stop there"),
        Some("keep -Wno-error=undef, or drop -Wundef; -Werror now also covers device code and HIP's headers"),
    );
}

/// Maps a list of command-line words run by run (`breaks`: the index where each run after the
/// first starts): a flag never takes its value across the gap between two runs (a `$(shell ...)`
/// left out, a call's comma), where make would not hand them to the compiler together.
pub(crate) fn map_word_runs(
    words: &[&str],
    breaks: &[usize],
    opts: &super::BuildOptions,
    ctx: Context,
    arch_done: &mut bool,
) -> Mapped {
    let mut out = Mapped::default();
    let mut bounds = vec![0];
    bounds.extend(breaks.iter().copied().filter(|&b| b > 0 && b < words.len()));
    bounds.push(words.len());
    for run in bounds.windows(2) {
        let (a, b) = (run[0], run[1]);
        if a >= b {
            continue;
        }
        let m = map_words(&words[a..b], opts, ctx, arch_done);
        out.changes
            .extend(m.changes.into_iter().map(|(k, act)| (k + a, act)));
        out.notes.extend(m.notes.into_iter().map(|mut n| {
            n.word += a;
            n
        }));
    }
    drop_repeated(&mut out, words);
    merge_msvc_notes(&mut out.notes);
    out
}

/// R30-2: a word a rewrite writes that the line already holds, as written or as another
/// rewrite wrote it, is written once (`-dc -c` is `-fgpu-rdc -c`, not `-fgpu-rdc -c -c`; at
/// HIP 5.2.3 `-lcuda -lnvrtc` is `-lamdhip64` once). Only words that stand alone and mean the
/// same written twice are read so: `-c`, `-fgpu-rdc`, a library, a target, a definition.
fn drop_repeated(m: &mut Mapped, words: &[&str]) {
    let alone = |w: &str| {
        matches!(w, "-c" | "-fgpu-rdc")
            || (w.starts_with("-l") && w.len() > 2)
            || w.starts_with("--offload-arch=")
            || (w.starts_with("-D") && w.len() > 2)
    };
    if !m
        .changes
        .iter()
        .any(|c| matches!(&c.1, Action::Replace(v) if v.iter().any(|w| alone(w))))
    {
        return;
    }
    let mut seen: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    // The words kept as written count first: a rewrite does not take their place.
    for (k, w) in words.iter().enumerate() {
        if !m.changes.iter().any(|c| c.0 == k) {
            seen.insert(w.to_string());
        }
    }
    let mut order: Vec<usize> = (0..m.changes.len()).collect();
    order.sort_by_key(|&i| m.changes[i].0);
    for i in order {
        let Action::Replace(v) = &mut m.changes[i].1 else {
            continue;
        };
        let before = v.len();
        v.retain(|w| !alone(w) || seen.insert(w.clone()));
        if v.is_empty() && before > 0 {
            m.changes[i].1 = Action::Remove;
        }
    }
}

fn note(m: &mut Mapped, word: usize, info: &'static DiagInfo, message: String, help: Option<&str>) {
    m.notes.push(Note {
        word,
        info,
        message,
        help: help.map(str::to_string),
        severity: None,
    });
}

/// An nvcc architecture flag (`flag`) that stays where it is: hipcc will see it.
fn arch_left(m: &mut Mapped, word: usize, flag: &str, message: String, help: &str) {
    m.notes.push(Note {
        word,
        info: B_ARCH,
        message: format!("{message}: {}", hipcc_rejects(flag)),
        help: Some(help.to_string()),
        severity: Some(Severity::Warning),
    });
}

/// Drops words `i..i+n`.
fn drop_words(m: &mut Mapped, i: usize, n: usize) {
    for k in i..i + n {
        m.changes.push((k, Action::Remove));
    }
}

fn arch_words(
    m: &mut Mapped,
    words: &[&str],
    i: usize,
    n: usize,
    archs: &[String],
    arch_done: &mut bool,
) {
    let shown = words[i..i + n].join(" ");
    if *arch_done {
        drop_words(m, i, n);
        note(
            m,
            i,
            B_ARCH,
            format!("nvcc architecture flag `{shown}` removed"),
            Some("the AMD targets are listed once, at the first architecture flag"),
        );
        return;
    }
    *arch_done = true;
    m.changes.push((i, Action::Replace(offload_flags(archs))));
    drop_words(m, i + 1, n - 1);
    note(
        m,
        i,
        B_ARCH,
        format!("nvcc architecture flag `{shown}` -> `{}`", offload_flags(archs).join(" ")),
        Some("NVIDIA architectures have no AMD equivalent: list the gfx targets you ship for (hipport --offload-arch)"),
    );
}

/// nvcc's device-code outputs (`-fatbin`, `-cubin`) at `i`: hipcc writes an AMD code object
/// with `--genco`. A command that names no target gets the run's (`--offload-arch=`): without
/// one hipcc builds for the GPUs of the machine that builds (rocm_agent_enumerator), gfx803
/// where it finds none, which no GPU of today loads. A word that may hold flags
/// (`$(GENCODE)`) may name them, so none are added there.
fn genco(words: &[&str], i: usize, archs: &[String], arch_done: &mut bool, m: &mut Mapped) {
    let w = words[i].trim_matches(|c| c == '"' || c == '\'');
    let names_arch = words.iter().any(|w| {
        let w = w.trim_matches(|c| c == '"' || c == '\'');
        [
            "-arch",
            "--gpu-architecture",
            "-gencode",
            "--generate-code",
            "--offload-arch",
            "-code",
            "--gpu-code",
        ]
        .iter()
        .any(|f| {
            w.strip_prefix(f)
                .is_some_and(|r| r.is_empty() || r.starts_with('='))
        })
    });
    let may_hold_flags = words.iter().any(|w| {
        let w = w.trim_matches(|c| c == '"' || c == '\'');
        (w.starts_with("$(") || w.starts_with("${") || w.starts_with("$$("))
            && !w.contains(['/', '.'])
    });
    let help = "hipcc writes an AMD code object (an offload bundle of each target) that hipModuleLoad reads; the output keeps its name";
    if names_arch || may_hold_flags || *arch_done || archs.is_empty() {
        m.changes.push((i, Action::Replace(vec!["--genco".into()])));
        note(
            m,
            i,
            B_FLAG_MAPPED,
            format!("nvcc flag `{w}` -> `--genco`"),
            Some(help),
        );
        return;
    }
    *arch_done = true;
    let mut new = vec!["--genco".to_string()];
    new.extend(offload_flags(archs));
    let shown = new.join(" ");
    m.changes.push((i, Action::Replace(new)));
    note(
        m,
        i,
        B_FLAG_MAPPED,
        format!("nvcc flag `{w}` -> `{shown}`: the command names no target, and hipcc without one builds for the GPUs of the building machine (gfx803 where it finds none)"),
        Some(help),
    );
}

/// Why clang's CUDA-mode flags go (`clang -x cuda --cuda-path=...` as the CUDA compiler).
const CLANG_CUDA_HELP: &str = "it points clang at a CUDA installation; hipcc compiles HIP with \
     ROCm's clang, which finds ROCm itself (ROCM_PATH, or --rocm-path)";

/// nvcc's kinds of `--Werror <kind>`: warnings of nvcc's own that clang has no name for.
const NVCC_WERROR_KINDS: &[&str] = &[
    "all-warnings",
    "cross-execution-space-call",
    "reorder",
    "default-stream-launch",
    "missing-launch-bounds",
    "ext-lambda-captures-this",
    "deprecated-declarations",
];

/// nvcc's `--Werror <kinds>` at `i` (`--Werror=k`, `-Werror k,k`): the words it takes.
/// `-Werror` alone, and `-Werror=<warning>`, are clang's as well and stay, except
/// `-Werror=<kind>` with a kind clang does not know.
fn nvcc_werror(words: &[&str], i: usize) -> Option<usize> {
    let kinds = |v: &str| {
        let v = v.trim_matches(|c| c == '"' || c == '\'');
        !v.is_empty() && v.split(',').all(|k| NVCC_WERROR_KINDS.contains(&k))
    };
    let w = words[i].trim_matches(|c| c == '"' || c == '\'');
    if w == "--Werror" {
        return Some(if words.get(i + 1).is_some_and(|v| kinds(v)) {
            2
        } else {
            1
        });
    }
    if w.starts_with("--Werror=") {
        return Some(1);
    }
    if w == "-Werror" && words.get(i + 1).is_some_and(|v| kinds(v)) {
        return Some(2);
    }
    let clang_knows = |k: &str| matches!(k, "reorder" | "deprecated-declarations");
    w.strip_prefix("-Werror=")
        .filter(|v| kinds(v) && !v.split(',').all(clang_knows))
        .map(|_| 1)
}

/// Why nvcc's `--threads` goes, and what does its work with hipcc.
const THREADS_HELP: &str = "it sets how many threads nvcc compiles the architectures of one \
     file with; hipcc (clang) rejects it (`unsupported option '--threads'`): compile several files \
     at once with make -j or ninja instead";

/// nvcc's parallel compilation option at `i` (`--threads N`, `--threads=N`, `-t N`, `-t=N`):
/// the words it takes. `--threads` is nvcc's wherever it stands (clang and gcc have no such
/// option); `-t` outside a list known to be nvcc's only with a count after it (the linker's
/// `-t` takes no value).
fn threads(words: &[&str], i: usize, ctx: Context) -> Option<usize> {
    if let Some((_, n)) = flag_value(words, i, &["--threads"]) {
        return Some(n);
    }
    let (v, n) = flag_value(words, i, &["-t"])?;
    let count = v.is_some_and(|v| {
        let v = v.trim_matches(|c| c == '"' || c == '\'');
        !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit())
    });
    (ctx == Context::Nvcc && v.is_some() || count).then_some(n)
}

/// Why a C++ standard older than C++14 is raised where the sources use Thrust or CUB (R18-d).
pub(crate) const THRUST_CXX14_HELP: &str = "the sources include Thrust or CUB: rocThrust and hipCUB build on rocPRIM, which needs C++14 (`std::enable_if_t`, deduced return types)";

/// Maps the word at `i`; returns how many words it consumed.
fn map_one(
    words: &[&str],
    i: usize,
    opts: &super::BuildOptions,
    ctx: Context,
    arch_done: &mut bool,
    m: &mut Mapped,
) -> usize {
    let archs = &opts.offload_arch[..];
    let w = words[i];
    let strip = w.trim_matches(|c| c == '"' || c == '\'');
    // Replacements one-for-one.
    let simple: Option<(&str, &'static DiagInfo, Option<&str>)> = match strip {
        "--use_fast_math" | "-use_fast_math" | "--use-fast-math" => Some((
            "-ffast-math",
            B_FLAG_MAPPED,
            Some("-ffast-math also lets the compiler assume no NaN or infinity; if the code relies on them, use -fgpu-flush-denormals-to-zero -ffp-contract=fast instead"),
        )),
        "-rdc=true" | "--relocatable-device-code=true" => Some(("-fgpu-rdc", B_FLAG_MAPPED, None)),
        "-dc" | "--device-c" => Some(("-fgpu-rdc -c", B_FLAG_MAPPED, None)),
        "--ftz=true" | "-ftz=true" => Some(("-fgpu-flush-denormals-to-zero", B_FLAG_MAPPED, None)),
        "--ftz=false" | "-ftz=false" => Some(("-fno-gpu-flush-denormals-to-zero", B_FLAG_MAPPED, None)),
        "--fmad=false" | "-fmad=false" => Some(("-ffp-contract=off", B_FLAG_MAPPED, None)),
        "--fmad=true" | "-fmad=true" => Some(("-ffp-contract=fast", B_FLAG_MAPPED, None)),
        "--keep" | "-keep" => Some(("-save-temps", B_FLAG_MAPPED, None)),
        "--default-stream=per-thread" | "-default-stream=per-thread" => {
            Some(("-fgpu-default-stream=per-thread", B_FLAG_MAPPED, None))
        }
        // R47-c: nvcc's 32-bit host mode (`-m32`, `--machine=32`, `-m 32`; CUDA 12 removed
        // it). HIP has no 32-bit host support (no i386 runtime, and hip-clang's wrapper headers
        // do not even find <cmath> for i386): the flag goes from hipcc's line, and the host
        // compile and link of the same program must drop it too.
        "-m32" | "--machine=32" | "-machine=32" | "-m" | "--machine" | "-machine"
            if ctx == Context::Nvcc
                && (strip.ends_with("32") || words.get(i + 1).is_some_and(|w| *w == "32")) =>
        {
            let n = if strip.ends_with("32") { 1 } else { 2 };
            m.notes.push(Note {
                word: i,
                info: B_FLAG_DROPPED,
                message: format!(
                    "nvcc flag `{}` dropped: HIP has no 32-bit host code, hipcc builds 64-bit objects only",
                    words[i..i + n].join(" ")
                ),
                help: Some(M32_HELP.to_string()),
                severity: Some(Severity::Warning),
            });
            drop_words(m, i, n);
            return n;
        }
        // R47-c: the same flag on a host compiler's line (CFLAGS, LDFLAGS) stays, said so.
        "-m32" if ctx == Context::Any => {
            m.notes.push(Note {
                word: i,
                info: B_FLAG_UNMAPPED,
                message: "host flag `-m32` builds 32-bit code, which cannot link with HIP objects or the HIP runtime: HIP has no 32-bit host support".into(),
                help: Some(M32_HELP.to_string()),
                severity: Some(Severity::Warning),
            });
            return 1;
        }
        "-lineinfo" | "--generate-line-info" => {
            note(m, i, B_FLAG_DROPPED, format!("nvcc flag `{strip}` dropped"), Some("for line tables in device code use -gline-tables-only"));
            drop_words(m, i, 1);
            return 1;
        }
        "--expt-relaxed-constexpr" | "-expt-relaxed-constexpr" | "--expt-extended-lambda" | "-expt-extended-lambda"
        | "--extended-lambda" | "-extended-lambda" => {
            note(m, i, B_FLAG_DROPPED, format!("nvcc flag `{strip}` dropped"), Some("HIP-Clang allows constexpr host functions and __device__ lambdas without a flag"));
            drop_words(m, i, 1);
            return 1;
        }
        // GCC host flags that nvcc hands to g++ but clang, which compiles HIP's host code,
        // rejects ("unknown argument"; hipcc 5.2.3 checked each).
        _ if ctx == Context::Nvcc && gcc_only(strip) => {
            note(m, i, B_FLAG_DROPPED, format!("host compiler flag `{strip}` dropped: clang, which compiles the host code under hipcc, rejects it (`unknown argument`)"), Some("it is a GCC option; a host file g++ compiles can keep it in the `cxx` flags"));
            drop_words(m, i, 1);
            return 1;
        }
        "-Wno-deprecated-gpu-targets" | "--resource-usage" | "-res-usage" | "-rdc=false"
        | "--relocatable-device-code=false" | "--prec-div=false" | "--prec-div=true" | "-prec-div=false"
        | "-prec-div=true" | "--prec-sqrt=false" | "--prec-sqrt=true" | "-prec-sqrt=false" | "-prec-sqrt=true"
        | "--default-stream=legacy" | "-default-stream=legacy" | "--Werror=all-warnings"
        | "--allow-unsupported-compiler" | "-allow-unsupported-compiler"
        // nvcc-only switches hipcc 5.2.3 stops on (`unsupported option`): PTX annotation,
        // MSVC's environment (Windows), the extra vectorization pass (clang vectorizes at -O3).
        | "--source-in-ptx" | "-src-in-ptx" | "--use-local-env" | "-use-local-env"
        | "--extra-device-vectorization" | "-extra-device-vectorization"
        // Diagnostics' form, nvcc's own warnings, and the host compiler's hand-off: clang
        // 15 stops on each (`unsupported option`).
        | "--display-error-number" | "-err-no" | "--no-display-error-number" | "-no-err-no"
        | "--restrict" | "-restrict" | "--Wreorder" | "--Wno-deprecated-declarations"
        | "--Wext-lambda-captures-this" | "-Wext-lambda-captures-this"
        | "--forward-unknown-to-host-compiler" | "-forward-unknown-to-host-compiler"
        | "--forward-unknown-to-host-linker" | "-forward-unknown-to-host-linker" => {
            note(m, i, B_FLAG_DROPPED, format!("nvcc flag `{strip}` dropped"), Some("hipcc has no such option and does not need it"));
            drop_words(m, i, 1);
            return 1;
        }
        "-deviceemu" | "--device-emulation" => {
            note(m, i, B_FLAG_DROPPED, format!("nvcc flag `{strip}` dropped"), Some("nvcc's device emulation was removed in CUDA 3.1 and has no HIP counterpart; clang ignores the flag (`argument unused`), so the build runs on the GPU"));
            drop_words(m, i, 1);
            return 1;
        }
        // clang's own CUDA mode (`clang -x cuda --cuda-path=...`): hipcc needs no CUDA
        // installation, and with these flags looks for one.
        "--cuda-path-ignore-env" | "--no-cuda-version-check" | "-nocudainc" | "-nocudalib" => {
            note(m, i, B_FLAG_DROPPED, format!("clang CUDA flag `{strip}` dropped"), Some(CLANG_CUDA_HELP));
            drop_words(m, i, 1);
            return 1;
        }
        // rocThrust and hipCUB, which replace Thrust and CUB, build on rocPRIM, which needs
        // C++14 (rocPRIM 5.3.3 under hipcc 5.2.3 with -std=c++11: "no template named
        // 'enable_if_t' in namespace 'std'", deduced return types; with -std=c++14 it compiles).
        "-std=c++11" | "-std=c++03" | "-std=c++98" | "-std=c++0x" | "--std=c++11" | "--std=c++03"
        | "--std=c++98" if ctx == Context::Nvcc && opts.thrust_sources => {
            Some(("-std=c++14", B_FLAG_MAPPED, Some(THRUST_CXX14_HELP)))
        }
        "-std=gnu++11" | "-std=gnu++03" | "-std=gnu++98" | "-std=gnu++0x"
            if ctx == Context::Nvcc && opts.thrust_sources =>
        {
            Some(("-std=gnu++14", B_FLAG_MAPPED, Some(THRUST_CXX14_HELP)))
        }
        "-xcuda" => Some(("-xhip", B_FLAG_MAPPED, Some("hipcc treats `-x cuda` as CUDA and looks for a CUDA installation"))),
        "--disable-warnings" | "-disable-warnings" => Some(("-w", B_FLAG_MAPPED, None)),
        _ => None,
    };
    if let Some((to, info, help)) = simple {
        m.changes.push((
            i,
            Action::Replace(to.split(' ').map(str::to_string).collect()),
        ));
        note(m, i, info, format!("nvcc flag `{strip}` -> `{to}`"), help);
        return 1;
    }
    // Architecture flags.
    if let Some((v, n)) = flag_value(words, i, &["-gencode", "--generate-code"]) {
        if v.is_none() {
            arch_left(
                m,
                i,
                strip,
                format!("nvcc architecture flag `{strip}` without its value left in place"),
                "its value is written elsewhere; replace both with --offload-arch=<gfx>",
            );
            return 1;
        }
        arch_words(m, words, i, n, archs, arch_done);
        return n;
    }
    if let Some((v, n)) = flag_value(words, i, &["-arch", "--gpu-architecture"]) {
        // `-arch` alone with a non-CUDA value is Apple clang's; only take sm_/compute_/native/all.
        // In a list known to be nvcc's, `-arch=$(SM)` is nvcc's too, but not a CPU's
        // (cuda-samples' `CCFLAGS += -arch $(HOST_ARCH)` for Apple clang behind -Xcompiler).
        if v.is_some_and(host_arch) {
            return n;
        }
        let is_cuda = v.is_some_and(|v| {
            let v = v.trim_matches(|c| c == '"' || c == '\'');
            v.starts_with("sm_")
                || v.starts_with("compute_")
                || v == "native"
                || v == "all"
                || v == "all-major"
                || ctx == Context::Nvcc && (v.starts_with("$(") || v.starts_with("${"))
        });
        if is_cuda {
            arch_words(m, words, i, n, archs, arch_done);
            return n;
        }
        if ctx == Context::Nvcc {
            // nvcc's, but its value is not an architecture hipport can read.
            arch_left(
                m,
                i,
                strip,
                format!(
                    "nvcc architecture flag `{}` left in place",
                    words[i..i + n].join(" ")
                ),
                "replace it with --offload-arch=<gfx> for each AMD target you ship for",
            );
            return n;
        }
    }
    if let Some((_, n)) = flag_value(words, i, &["-code", "--gpu-code"]) {
        drop_words(m, i, n);
        note(
            m,
            i,
            B_ARCH,
            format!("nvcc flag `{}` removed", words[i..i + n].join(" ")),
            Some("the AMD targets come from --offload-arch"),
        );
        return n;
    }
    // nvcc's device-link step: hipcc links relocatable device code in the final link instead.
    if matches!(words[i], "-dlink" | "--device-link") {
        m.notes.push(Note {
            word: i,
            info: B_RDC,
            message: format!("`{}` is nvcc's separate device-link step, which hipcc has no counterpart of: this command fails", words[i]),
            help: Some("hipcc links device code in the final link: remove the device-link step (or make it write an empty object, as hipport does where the command stands alone on its line) and link the -fgpu-rdc objects with hipcc -fgpu-rdc --hip-link --offload-arch=<gfx> (g++ cannot link them)".into()),
            severity: Some(Severity::Warning),
        });
        return 1;
    }
    // `-x cu` (compile as CUDA) is `-x hip` for hipcc, which would otherwise look for a CUDA
    // installation.
    // `-x cuda` is clang's own CUDA mode, the same to hipcc.
    if let Some((Some(lang), n)) = flag_value(words, i, &["-x", "--x"]) {
        if matches!(lang.trim_matches(|c| c == '"' || c == '\''), "cu" | "cuda") {
            m.changes.push((
                i,
                Action::Replace(vec!["-x".to_string(), "hip".to_string()]),
            ));
            drop_words(m, i + 1, n - 1);
            note(
                m,
                i,
                B_FLAG_MAPPED,
                format!(
                    "{} flag `{}` -> `-x hip`",
                    if lang.contains("cuda") {
                        "clang CUDA"
                    } else {
                        "nvcc"
                    },
                    words[i..i + n].join(" ")
                ),
                Some("hipcc treats `-x cu` as CUDA and looks for a CUDA installation"),
            );
            return n;
        }
    }
    if let Some((_, n)) = flag_value(words, i, &["--cuda-path"]) {
        drop_words(m, i, n);
        note(
            m,
            i,
            B_FLAG_DROPPED,
            format!("clang CUDA flag `{}` dropped", words[i..i + n].join(" ")),
            Some(CLANG_CUDA_HELP),
        );
        return n;
    }
    // clang's CUDA architecture flags (`--cuda-gpu-arch=sm_80`, `--offload-arch=sm_80`): an
    // NVIDIA architecture, which hipcc's clang cannot compile for.
    if let Some((Some(v), n)) = flag_value(words, i, &["--cuda-gpu-arch", "--offload-arch"]) {
        let v = v.trim_matches(|c| c == '"' || c == '\'');
        if v.starts_with("sm_") || v.starts_with("compute_") || strip.starts_with("--cuda-") {
            arch_words(m, words, i, n, archs, arch_done);
            return n;
        }
    }
    // Host-compiler pass-through.
    if let Some((v, n)) = flag_value(words, i, &["-Xcompiler", "--compiler-options"]) {
        let Some(split) = v.map(host_flags).unwrap_or(Some(Vec::new())) else {
            // Its value opens or closes a quote that another word pairs (`\"-O3 -Wall\"`):
            // unwrapped, the line would keep one quote of the pair.
            note(
                m,
                i,
                B_FLAG_UNMAPPED,
                format!(
                    "nvcc flag `{}` left in place: its value holds quotes or backslashes that hipport does not rewrite",
                    words[i..i + n].join(" ")
                ),
                Some("hipcc takes host flags directly: write them without -Xcompiler, one quoted word each"),
            );
            return n;
        };
        let mut inner = Mapped::default();
        // The host flag that the `-Xcompiler` before this one ends with (`-Xcompiler -isystem
        // -Xcompiler /opt/inc`).
        let glued = i.checked_sub(1).and_then(|k| words[k].split_once('='));
        let split_before = i.checked_sub(2).map(|k| (words[k], words[k + 1]));
        let after_value_flag = [glued, split_before].into_iter().flatten().any(|(x, v)| {
            matches!(x, "-Xcompiler" | "--compiler-options")
                && host_flags(v)
                    .and_then(|f| f.last().cloned())
                    .is_some_and(|f| host_flag_takes_value(&f))
        });
        let (msvc, host) = msvc_options(split, after_value_flag);
        if !msvc.is_empty() {
            inner.notes.push(msvc_note(i, &msvc));
        }
        let mut flags = pass_through(&host, i, opts, ctx, arch_done, &mut inner);
        // The closers that end a separate value word and close nothing in it
        // (`-Xcompiler $(F))`) stay in the text after the value is removed: the unwrapped
        // flags, written in the place of `-Xcompiler`, go without them.
        if n == 2 {
            let value = words[i + 1];
            let closers = &value[value.len() - super::text::excess_closers(value)..];
            if let Some(last) = flags.last_mut().filter(|_| !closers.is_empty()) {
                if let Some(cut) = last.strip_suffix(closers) {
                    *last = cut.to_string();
                }
            }
            flags.retain(|f| !f.is_empty());
        }
        // A value that ends in a lone `-l` whose library is the next word of the list
        // (`-Xcompiler -l cudart`) stays whole too: unwrapped, the next run would read the pair
        // `-l cudart` (see above) and map it.
        // So does any last flag that would take the next word as its value (`-Xcompiler -t`
        // before `-Xcompiler -dc` in nvcc's list: `-t -fgpu-rdc`, nvcc's thread count, goes
        // on the next run).
        let last = flags.last().filter(|_| i + n < words.len());
        if let Some(last) = last.filter(|f| *f == "-l" || takes_next_word(f, opts, ctx)) {
            let (message, help) = if last == "-l" {
                (
                    "its `-l` takes the next word as its library".to_string(),
                    "write the library flag without -Xcompiler, as one word (`-lname`)",
                )
            } else {
                (
                    format!("unwrapped, its `{last}` would take the next word as its value"),
                    "hipcc takes host flags directly: write them without -Xcompiler, each flag with its value",
                )
            };
            left_in_place(
                &mut inner.notes,
                i,
                &words[i..i + n].join(" "),
                &message,
                help.into(),
            );
        }
        let left = inner
            .notes
            .iter()
            .any(|n| n.severity == Some(Severity::Warning));
        m.notes.extend(inner.notes);
        if left {
            // Its value holds a flag hipcc rejects, left as it is (a `-gencode` whose value
            // follows the -Xcompiler value): unwrapped, the next run would read it otherwise.
            note(
                m,
                i,
                B_FLAG_UNMAPPED,
                format!(
                    "nvcc flag `{}` left in place: its value holds a flag hipport cannot rewrite",
                    words[i..i + n].join(" ")
                ),
                Some("hipcc takes host flags directly: write them without -Xcompiler, with --offload-arch=<gfx> for an architecture"),
            );
            return n;
        }
        if flags.is_empty() {
            drop_words(m, i, n);
            if !msvc.is_empty() && host.is_empty() {
                // Its MSVC options were all it held: their note says it all.
                return n;
            }
        } else {
            m.changes.push((i, Action::Replace(flags.clone())));
            drop_words(m, i + 1, n - 1);
        }
        let (info, message) = if flags.is_empty() {
            (
                B_FLAG_DROPPED,
                format!(
                    "nvcc flag `{}` dropped: hipcc needs none of its host flags",
                    words[i..i + n].join(" ")
                ),
            )
        } else {
            (
                B_FLAG_MAPPED,
                format!(
                    "nvcc flag `{}` -> `{}`",
                    words[i..i + n].join(" "),
                    flags.join(" ")
                ),
            )
        };
        note(
            m,
            i,
            info,
            message,
            Some(if flags.iter().any(|f| f.starts_with("-fopenmp")) {
                "hipcc passes host flags to clang directly; clang's -fopenmp uses LLVM's OpenMP runtime (libomp, e.g. the libomp-dev package), not GCC's libgomp: drop -lgomp"
            } else {
                "hipcc passes host flags to clang directly"
            }),
        );
        return n;
    }
    // Flags with a value that hipcc has no use for.
    for (names, help) in [
        (&["-Xptxas", "--ptxas-options"][..], "ptxas is NVIDIA's assembler; AMD code has no counterpart (for register use see -Rpass-analysis=kernel-resource-usage)"),
        (&["-Xcudafe"][..], "cudafe is nvcc's front end; move diagnostic suppressions to clang -Wno-... flags"),
        (&["-ccbin", "--compiler-bindir"][..], "hipcc compiles host code with its own clang"),
        (&["-cudart", "--cudart"][..], "hipcc links the HIP runtime itself"),
        (&["--diag-suppress", "-diag-suppress", "--diag_suppress"][..], "use clang -Wno-... flags"),
        (&["-maxrregcount", "--maxrregcount"][..], "limit registers with __launch_bounds__ on the kernel instead"),
        (&["-Xfatbin", "--fatbin-options"][..], "fatbinary is NVIDIA's packager of device code; hipcc bundles code objects without it"),
        (&["--compress-mode", "-compress-mode"][..], "it sets how nvcc compresses its fatbinary; hipcc has no such option"),
        (&["--split-compile", "-split-compile", "--split-compile-extended", "-split-compile-extended"][..], "it splits nvcc's device optimization into threads; hipcc has no such option"),
        (&["-static-global-template-stub", "--static-global-template-stub"][..], "it sets how nvcc emits host stubs of templated kernels; hip-clang has no such option"),
        (&["--keep-dir", "-keep-dir"][..], "it names where nvcc keeps its intermediate files; hipcc's -save-temps writes them beside the output"),
        (&["--qpp-config", "-qpp-config"][..], "it configures QNX's host compiler for nvcc; hipcc has no such option"),
        (&["--target-directory", "-target-dir"][..], "it picks nvcc's cross-compilation target directory; hipcc has no such option"),
        // nvcc's manual: --output-directory (-odir) "specify the directory of the output file",
        // meant for the target that --generate-dependencies (-M) writes; hip-clang has no such
        // option and reads `-odir DIR` beside -M and -o as more outputs ("cannot specify -o
        // when generating multiple output files").
        (&["-odir", "--output-directory"][..], "it puts the directory in the target of nvcc's dependency rule; clang's -M names the target from the source (`k.o`): give -MT <dir>/k.o where the rule's target needs the directory"),
    ] {
        if let Some((value, n)) = flag_value(words, i, names) {
            // A value that opens a make or CMake reference closed only after a blank
            // (`-ccbin g$(addprefix -Xcompiler ,$(CCFLAGS))`) is not one word: dropping the word
            // would leave the reference's rest. The flag stays, said so.
            if value.is_some_and(opens_unclosed_reference) && n == 2 {
                left_in_place(
                    &mut m.notes,
                    i,
                    words[i],
                    "its value opens a reference that closes after a blank",
                    format!("remove `{}` and its value by hand ({help})", words[i]),
                );
                return n;
            }
            let warn = names[0] == "-maxrregcount";
            drop_words(m, i, n);
            note(
                m,
                i,
                B_FLAG_DROPPED,
                format!("nvcc flag `{}` dropped{}", words[i..i + n].join(" "), if warn { " (register limit lost)" } else { "" }),
                Some(help),
            );
            return n;
        }
    }
    if let Some((v, n)) = flag_value(words, i, &["--default-stream", "-default-stream"]) {
        if v == Some("per-thread") {
            m.changes.push((
                i,
                Action::Replace(vec!["-fgpu-default-stream=per-thread".into()]),
            ));
            drop_words(m, i + 1, n - 1);
            note(
                m,
                i,
                B_FLAG_MAPPED,
                format!(
                    "nvcc flag `{}` -> `-fgpu-default-stream=per-thread`",
                    words[i..i + n].join(" ")
                ),
                None,
            );
        } else {
            drop_words(m, i, n);
            note(
                m,
                i,
                B_FLAG_DROPPED,
                format!("nvcc flag `{}` dropped", words[i..i + n].join(" ")),
                Some("the legacy default stream is HIP's default"),
            );
        }
        return n;
    }
    if let Some((v, n)) = flag_value(words, i, &["-rdc", "--relocatable-device-code"]) {
        if v == Some("true") {
            m.changes
                .push((i, Action::Replace(vec!["-fgpu-rdc".into()])));
            drop_words(m, i + 1, n - 1);
            note(
                m,
                i,
                B_FLAG_MAPPED,
                format!("nvcc flag `{}` -> `-fgpu-rdc`", words[i..i + n].join(" ")),
                None,
            );
        } else {
            drop_words(m, i, n);
            note(
                m,
                i,
                B_FLAG_DROPPED,
                format!("nvcc flag `{}` dropped", words[i..i + n].join(" ")),
                None,
            );
        }
        return n;
    }
    if let Some(n) = half_macro(words, i, m) {
        return n;
    }
    if let Some(n) = thrust_system(words, i, m) {
        return n;
    }
    // Libraries and CUDA paths. `-l cusparse`, two words (pytorch_sparse's `"-l", "cusparse"`,
    // U-f), is the library `-lcusparse` is: the name word changes, the form stays.
    if strip == "-l" && i + 1 < words.len() {
        let name = words[i + 1].trim_matches(|c| c == '"' || c == '\'');
        if let Some((action, info, msg, help)) = map_library_in(name, opts) {
            let severity = library_severity(name, &action);
            if info.id != B_LIB_UNMAPPED.id {
                match action {
                    Action::Replace(v) if v.len() == 1 => {
                        m.changes.push((i + 1, Action::Replace(v)));
                    }
                    Action::Replace(v) => {
                        let v = v.into_iter().map(|l| format!("-l{l}")).collect();
                        m.changes.push((i, Action::Replace(v)));
                        m.changes.push((i + 1, Action::Remove));
                    }
                    Action::Remove => drop_words(m, i, 2),
                }
            }
            m.notes.push(Note {
                word: i,
                info,
                message: msg,
                help,
                severity,
            });
            return 2;
        }
    }
    if let Some(name) = strip.strip_prefix("-l") {
        if let Some((action, info, msg, help)) = map_library_in(name, opts) {
            let severity = library_severity(name, &action);
            let action = match action {
                Action::Replace(v) => {
                    Action::Replace(v.into_iter().map(|l| format!("-l{l}")).collect())
                }
                Action::Remove => Action::Remove,
            };
            if info.id != B_LIB_UNMAPPED.id {
                m.changes.push((i, action));
            }
            m.notes.push(Note {
                word: i,
                info,
                message: msg,
                help,
                severity,
            });
            return 1;
        }
    }
    // V22-a: the linker's run path in nvcc's and gcc's other spellings (`-Xlinker -rpath
    // -Xlinker PATH`), as `-Wl,-rpath,PATH` is.
    if strip == "-Xlinker"
        && words.get(i + 1).is_some_and(|w| *w == "-rpath")
        && words.get(i + 2).is_some_and(|w| *w == "-Xlinker")
        && words
            .get(i + 3)
            .is_some_and(|p| is_cuda_path_in(p, &opts.cuda_path_vars))
    {
        drop_words(m, i, 4);
        note(m, i, B_PATH, format!("CUDA install path `{}` dropped", words[i..i + 4].join(" ")), Some("hipcc finds the HIP headers and libraries itself; add -L/-I for ROCm libraries outside /opt/rocm by hand"));
        return 4;
    }
    for prefix in ["-L", "-I", "-Wl,-rpath,", "-Wl,-rpath=", "-isystem"] {
        if let Some(p) = strip.strip_prefix(prefix) {
            let (p, n) = if p.is_empty() && i + 1 < words.len() {
                (words[i + 1], 2)
            } else {
                (p, 1)
            };
            if is_cuda_path_in(p, &opts.cuda_path_vars) {
                drop_words(m, i, n);
                note(m, i, B_PATH, format!("CUDA install path `{}` dropped", words[i..i + n].join(" ")), Some("hipcc finds the HIP headers and libraries itself; add -L/-I for ROCm libraries outside /opt/rocm by hand"));
                return n;
            }
        }
    }
    if ctx == Context::Nvcc {
        match strip {
            "-G" | "--device-debug"
                if words
                    .iter()
                    .any(|w| w.trim_matches(|c| c == '"' || c == '\'') == "-g") =>
            {
                drop_words(m, i, 1);
                note(
                    m,
                    i,
                    B_FLAG_DROPPED,
                    format!("nvcc flag `{strip}` dropped: it becomes `-g`, which the list already holds"),
                    Some("add -O0 for device code that steps like nvcc -G"),
                );
                return 1;
            }
            "-G" | "--device-debug" => {
                m.changes.push((i, Action::Replace(vec!["-g".into()])));
                note(
                    m,
                    i,
                    B_FLAG_MAPPED,
                    format!("nvcc flag `{strip}` -> `-g`"),
                    Some("add -O0 for device code that steps like nvcc -G"),
                );
                return 1;
            }
            "-cubin" | "--cubin" | "-fatbin" | "--fatbin" => {
                genco(words, i, archs, arch_done, m);
                return 1;
            }
            "-ptx" | "--ptx" => {
                note(
                    m,
                    i,
                    B_FLAG_UNMAPPED,
                    format!("nvcc flag `{strip}` has no hipcc counterpart"),
                    Some("AMD GPUs have no PTX (NVIDIA's virtual instruction set): hipcc --genco writes a code object, which hipModuleLoad loads where cuModuleLoad loaded the PTX, and --cuda-device-only -S writes AMD GPU assembly"),
                );
                return 1;
            }
            _ => {}
        }
    }
    if let Some(n) = nvcc_werror(words, i) {
        drop_words(m, i, n);
        note(
            m,
            i,
            B_FLAG_DROPPED,
            format!("nvcc flag `{}` dropped", words[i..i + n].join(" ")),
            Some("nvcc's warning kinds have no hipcc counterpart (hipcc rejects `--Werror`); clang's -Werror makes every warning an error"),
        );
        return n;
    }
    if let Some(n) = threads(words, i, ctx) {
        drop_words(m, i, n);
        note(
            m,
            i,
            B_FLAG_DROPPED,
            format!("nvcc flag `{}` dropped", words[i..i + n].join(" ")),
            Some(THREADS_HELP),
        );
        return n;
    }
    // Other nvcc-only spellings left alone but reported.
    if strip.starts_with("--expt-")
        || strip.starts_with("--nvlink")
        || strip.starts_with("-Xnvlink")
        || strip.starts_with("--ptxas")
        || strip.starts_with("--nvcc")
    {
        note(
            m,
            i,
            B_FLAG_UNMAPPED,
            format!("nvcc flag `{strip}` has no hipcc counterpart and was left in place"),
            Some("remove it or replace it by hand; hipcc rejects it"),
        );
    } else if ctx == Context::Nvcc && unknown_long_option(strip) {
        note(
            m,
            i,
            B_FLAG_UNMAPPED,
            format!("nvcc flag `{strip}` is not one hipport knows; it was left in place"),
            Some("hipcc stops on a long option clang does not know (`unsupported option`): remove it or replace it by hand"),
        );
    }
    1
}

/// Whether `v`, the value of an `-arch` flag, names a CPU (Apple clang's `-arch x86_64`,
/// `-arch arm64`) rather than an NVIDIA GPU: a CPU architecture, or a variable whose name says
/// it is the host's (`$(HOST_ARCH)`, set from `uname -m` in every cuda-samples Makefile, R26-e).
fn host_arch(v: &str) -> bool {
    let v = v.trim_matches(|c| c == '"' || c == '\'');
    const CPUS: &[&str] = &[
        "x86_64", "x86_64h", "i386", "i686", "arm64", "arm64e", "aarch64", "armv7", "armv7l",
        "armv7s", "ppc64le", "ppc64", "ppc",
    ];
    if CPUS.contains(&v) {
        return true;
    }
    let name = v
        .strip_prefix("$(")
        .and_then(|r| r.strip_suffix(')'))
        .or_else(|| v.strip_prefix("${").and_then(|r| r.strip_suffix('}')));
    name.is_some_and(|n| {
        let n = n.to_ascii_uppercase();
        n.contains("HOST") || n.contains("CPU")
    })
}

/// Whether `flag` is a long option (`--name` or `--name=value`) that clang, hipcc's driver,
/// does not take: every nvcc option hipport knows is handled before this is asked, so one of
/// these in an nvcc list is nvcc's own or a typo, and hipcc stops on it.
fn unknown_long_option(flag: &str) -> bool {
    /// Long options of clang's driver a build's flags may hold (their `=` forms too).
    const CLANG: &[&str] = &[
        "analyze",
        "assemble",
        "compile",
        "config",
        "debug",
        "define-macro",
        "dependencies",
        "extra-warnings",
        "gcc-toolchain",
        "help",
        "imacros",
        "include-directory",
        "language",
        "library-directory",
        "no-warnings",
        "optimize",
        "output",
        "param",
        "pedantic",
        "preprocess",
        "save-temps",
        "shared",
        "static",
        "std",
        "sysroot",
        "target",
        "undefine-macro",
        "user-dependencies",
        "verbose",
        "version",
    ];
    /// Families of clang long options, by prefix.
    const FAMILIES: &[&str] = &[
        "cuda-",
        "hip-",
        "rocm-",
        "offload",
        "no-offload",
        "gpu-",
        "print-",
        "include",
        "amdgpu-target",
        "write-",
        "warn-",
        "system-header-prefix",
        "ld-path",
        "rtlib",
        "unwindlib",
        "stdlib",
    ];
    let Some(name) = flag.strip_prefix("--") else {
        return false;
    };
    let name = name.split_once('=').map_or(name, |(n, _)| n);
    !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        && name.as_bytes()[0].is_ascii_alphabetic()
        && !CLANG.contains(&name)
        && !FAMILIES.iter().any(|f| name.starts_with(f))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_paths_in_each_spelling() {
        for p in [
            "/usr/local/cuda/lib64",
            "/opt/cuda",
            "$(CUDA_HOME)/include",
            "${CUDAPATH}/include",
            "$(CUDA_INSTALL_PATH)/lib64",
            "${CUDA_PATH}/lib64",
            "$CUDA_ROOT/bin",
            "$ENV{CUDA_DIR}/include",
            "\"${CUDA_TOOLKIT_ROOT_DIR}/include\"",
            "'$(CUDAToolkit_ROOT)'",
        ] {
            assert!(is_cuda_path(p), "{p}");
        }
        for p in [
            "/usr/include",
            "$(CUDA_HOMES)/include",
            "${CUDA_PATH",
            "$CUDA_ROOT",
            "$ENV{CUDA_DIR",
            "CUDA_HOME/include",
            "$(HOME)/cuda",
            "",
            "$",
        ] {
            assert!(!is_cuda_path(p), "{p}");
        }
    }

    fn run(words: &[&str]) -> Mapped {
        let mut done = false;
        let opts = super::super::BuildOptions {
            offload_arch: vec!["gfx90a".to_string(), "gfx1100".to_string()],
            ..Default::default()
        };
        map_words(words, &opts, Context::Nvcc, &mut done)
    }

    /// Fuzz finding (saved as fuzz-inputs/make/xcompiler-lone-l.mk): `-Xcompiler -l` then
    /// `cudart` stays: unwrapped, the next run read `-l cudart` and dropped it.
    #[test]
    fn xcompiler_lone_library_flag_stays() {
        let words = ["-O3", "-Xcompiler", "-l", "cudart", "-lcublas"];
        let m = run(&words);
        let out: Vec<String> = m.applied(&words).into_iter().map(|(_, w)| w).collect();
        assert_eq!(out, ["-O3", "-Xcompiler", "-l", "cudart", "-lhipblas"]);
        let again: Vec<&str> = out.iter().map(String::as_str).collect();
        assert!(run(&again).changes.is_empty());
    }

    /// Fuzz finding of 2026-12-06 (seed 1796547969413183446, saved as
    /// fuzz-inputs/make/xcompiler-value-taking-the-next.mk): `-Xcompiler -t` then
    /// `-Xcompiler -dc` in nvcc's list was unwrapped to `-t -fgpu-rdc -c`, and the next run
    /// dropped `-t -fgpu-rdc` as nvcc's thread count. A value whose last flag takes the next
    /// word stays whole (B003), what follows is mapped, and the result is a fixed point.
    #[test]
    fn xcompiler_value_taking_the_next_word_stays() {
        let opts = super::super::BuildOptions::default();
        for words in [
            ["-Xcompiler", "-t", "-Xcompiler", "-dc"],
            ["-Xcompiler", "-t", "-Xcompiler", "-Wall"],
        ] {
            let m = map_words(&words, &opts, Context::Nvcc, &mut false);
            let out: Vec<String> = m.applied(&words).into_iter().map(|(_, w)| w).collect();
            assert_eq!(out[..2], words[..2], "{out:?}");
            assert!(
                m.notes
                    .iter()
                    .any(|n| n.info.id == B_FLAG_UNMAPPED.id && n.message.contains("next word")),
                "{:?}",
                m.notes
            );
            let again: Vec<&str> = out.iter().map(String::as_str).collect();
            let m2 = map_words(&again, &opts, Context::Nvcc, &mut false);
            assert!(m2.changes.is_empty(), "{out:?} -> {:?}", m2.changes);
        }
        // A value that takes nothing is unwrapped.
        let words = ["-Xcompiler", "-Wall", "-Xcompiler", "-dc"];
        let m = map_words(&words, &opts, Context::Nvcc, &mut false);
        let out: Vec<String> = m.applied(&words).into_iter().map(|(_, w)| w).collect();
        assert_eq!(out, ["-Wall", "-fgpu-rdc", "-c"]);
    }

    /// U-f: `-l cusparse` (two words) maps as `-lcusparse` does: the name changes, cudart's
    /// pair goes, a library with no HIP counterpart is reported and stays.
    #[test]
    fn two_word_library_flags_map_as_one_word_ones() {
        let words = [
            "-l", "cusparse", "-lcublas", "-l", "cudart", "-l", "nvjpeg", "-l", "m",
        ];
        let m = run(&words);
        assert_eq!(
            m.applied(&words)
                .into_iter()
                .map(|(_, w)| w)
                .collect::<Vec<_>>(),
            ["-l", "hipsparse", "-lhipblas", "-l", "nvjpeg", "-l", "m"]
        );
        let ids: Vec<(usize, &str)> = m.notes.iter().map(|n| (n.word, n.info.id)).collect();
        assert_eq!(ids, [(0, "B004"), (2, "B004"), (3, "B004"), (5, "B005")]);
        // Again: nothing more.
        let again = ["-l", "hipsparse", "-lhipblas", "-l", "nvjpeg", "-l", "m"];
        assert!(run(&again).changes.is_empty());
    }

    /// nvcc's `-fatbin`/`-cubin` become `--genco` in every build kind; a command that names
    /// no target gets the run's, since hipcc would build for the building machine's GPUs
    /// (gfx803 in a container without one).
    #[test]
    fn device_code_outputs_become_genco_with_targets_where_none_are_named() {
        let genco = |m: &Mapped| -> Vec<String> {
            m.changes
                .iter()
                .filter(|c| c.0 == 0)
                .flat_map(|c| match &c.1 {
                    Action::Replace(v) => v.clone(),
                    Action::Remove => vec![],
                })
                .collect()
        };
        let m = run(&["-fatbin", "-o", "$@", "$<"]);
        assert_eq!(
            genco(&m),
            ["--genco", "--offload-arch=gfx90a", "--offload-arch=gfx1100"]
        );
        let m = run(&[
            "--cubin",
            "-o",
            "${CMAKE_CURRENT_BINARY_DIR}/k.cubin",
            "k.cu",
        ]);
        assert_eq!(
            genco(&m),
            ["--genco", "--offload-arch=gfx90a", "--offload-arch=gfx1100"]
        );
        // The command's own architecture flag gives the targets (B009 maps it).
        let m = run(&["-fatbin", "-arch=sm_80", "-o", "k.fatbin", "k.cu"]);
        assert_eq!(genco(&m), ["--genco"]);
        assert!(m.changes.contains(&(
            1,
            Action::Replace(offload_flags(&["gfx90a".into(), "gfx1100".into()]))
        )));
        // A variable may hold them.
        assert_eq!(
            genco(&run(&["-fatbin", "$(GENCODE_FLAGS)", "-o", "$@", "$<"])),
            ["--genco"]
        );
        // -ptx has no counterpart.
        let m = run(&["-ptx", "k.cu"]);
        assert!(m.changes.is_empty());
        assert!(m.notes.iter().any(|n| n.info.id == B_FLAG_UNMAPPED.id));
    }

    #[test]
    fn gencode_pairs_collapse_into_one_arch_list() {
        let m = run(&[
            "-O3",
            "-gencode",
            "arch=compute_70,code=sm_70",
            "-gencode=arch=compute_80,code=sm_80",
        ]);
        assert_eq!(
            m.changes,
            vec![
                (
                    1,
                    Action::Replace(vec![
                        "--offload-arch=gfx90a".into(),
                        "--offload-arch=gfx1100".into()
                    ])
                ),
                (2, Action::Remove),
                (3, Action::Remove),
            ]
        );
        assert_eq!(m.notes.len(), 2);
    }

    #[test]
    fn xcompiler_splits_and_ptxas_goes() {
        let m = run(&[
            "-Xcompiler",
            "-fopenmp,-Wall",
            "-Xptxas=-v",
            "-lcublas",
            "-lcudart",
        ]);
        assert_eq!(
            m.changes,
            vec![
                (0, Action::Replace(vec!["-fopenmp".into(), "-Wall".into()])),
                (1, Action::Remove),
                (2, Action::Remove),
                (3, Action::Replace(vec!["-lhipblas".into()])),
                (4, Action::Remove),
            ]
        );
    }

    #[test]
    fn xcompiler_values_are_mapped_as_flags() {
        // What -Xcompiler unwraps is already what a second conversion leaves.
        let m = run(&[
            "-Xcompiler",
            "-lcudart",
            "-Xcompiler=-dc,-Wall",
            "-Xcompiler",
            "-lcublas",
        ]);
        assert_eq!(
            m.changes,
            vec![
                (0, Action::Remove),
                (1, Action::Remove),
                (
                    2,
                    Action::Replace(vec!["-fgpu-rdc".into(), "-c".into(), "-Wall".into()])
                ),
                (3, Action::Replace(vec!["-lhipblas".into()])),
                (4, Action::Remove),
            ]
        );
        // The inner findings point at the -Xcompiler word.
        assert!(m.notes.iter().any(|n| n.word == 0 && n.info.id == "B004"));
        assert!(m
            .notes
            .iter()
            .any(|n| n.word == 3 && n.message.contains("hipblas")));
    }

    #[test]
    fn any_context_leaves_short_flags() {
        let mut done = false;
        let opts = super::super::BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            ..Default::default()
        };
        let m = map_words(
            &["-G", "-O2", "-arch", "x86_64"],
            &opts,
            Context::Any,
            &mut done,
        );
        assert!(m.changes.is_empty(), "{:?}", m.changes);
    }
    #[test]
    fn nvcc_threads_go_in_any_list() {
        // cuda-samples' `ALL_CCFLAGS += --std=c++11 -O3 --threads 0` is no list known to be
        // nvcc's, and hipcc still rejects the option.
        let mut done = false;
        let opts = super::super::BuildOptions::default();
        let words = [
            "--threads",
            "0",
            "-O3",
            "--threads=4",
            "-t",
            "8",
            "-t=2",
            "-t",
            "x.o",
            "-t",
        ];
        let m = map_words(&words, &opts, Context::Any, &mut done);
        let dropped: Vec<usize> = m.changes.iter().map(|c| c.0).collect();
        assert_eq!(dropped, [0, 1, 3, 4, 5, 6], "{:?}", m.changes);
        assert!(m.changes.iter().all(|c| c.1 == Action::Remove));
        assert_eq!(m.notes.len(), 4);
        assert!(m.notes[0].message.contains("`--threads 0` dropped"));
        // In nvcc's own list `-t` takes whatever follows.
        let m = run(&["-t", "$(JOBS)"]);
        assert_eq!(m.changes, [(0, Action::Remove), (1, Action::Remove)]);
    }

    #[test]
    fn a_make_argument_after_a_flag_is_no_value_of_it() {
        // `$(addprefix -Xcompiler ,$(CCFLAGS))` cut at blanks: `,$(CCFLAGS))` is the rest of
        // addprefix's arguments; only the flag's own word may change.
        let m = run(&["$(addprefix", "-Xcompiler", ",$(CCFLAGS))"]);
        assert_eq!(m.changes, [(1, Action::Remove)]);
        let m = run(&["$(addprefix", "-Xptxas", ",-v)"]);
        assert_eq!(m.changes, [(1, Action::Remove)]);
        // Elsewhere the word is the value, which nvcc splits at commas.
        let m = run(&["-O2", "-Xcompiler", ",-Wall"]);
        assert_eq!(
            m.changes,
            [
                (1, Action::Replace(vec!["-Wall".into()])),
                (2, Action::Remove)
            ]
        );
    }

    #[test]
    fn arch_flags_left_in_place_are_warnings() {
        // A rewritten architecture flag is a note; one left as hipcc will see it is a warning.
        let m = run(&["-O3", "-gencode=arch=compute_80,code=sm_80", "-gencode"]);
        let sev: Vec<(usize, Option<Severity>)> =
            m.notes.iter().map(|n| (n.word, n.severity)).collect();
        assert_eq!(sev, [(1, None), (2, Some(Severity::Warning))]);
        assert!(
            m.notes[1].message.contains("hipcc rejects it"),
            "{:?}",
            m.notes[1]
        );
        assert_eq!(
            m.changes.len(),
            1,
            "the lone -gencode stays: {:?}",
            m.changes
        );
        // In a list known to be nvcc's, `-arch` with a value hipport cannot read is nvcc's too.
        let m = run(&["-arch=$ARCH"]);
        assert!(m.changes.is_empty());
        assert_eq!(m.notes[0].severity, Some(Severity::Warning));
        assert!(
            m.notes[0].message.contains("hipcc rejects it (newer clang"),
            "{}",
            m.notes[0].message
        );
        // A note about a rewritten flag that the caller could not write becomes a warning.
        let n = run(&["-arch=sm_80"]).notes.pop().unwrap();
        assert_eq!(n.severity, None);
        let n = n.left_as_is("-arch=sm_80", "an append() takes one flag");
        assert_eq!(n.severity, Some(Severity::Warning));
        assert_eq!(
            n.message,
            "nvcc architecture flag `-arch=sm_80` left as it is (not rewritten: an append() \
             takes one flag); hipcc rejects it (newer clang: `unsupported option '-arch'`) or \
             ignores it with a warning (clang 15), and either way it names no AMD target"
        );
        let n = run(&["--use_fast_math"]).notes.pop().unwrap();
        assert_eq!(n.left_as_is("--use_fast_math", "x").severity, None);
    }

    #[test]
    fn half_switches_take_hip_names() {
        let m = run(&[
            "-U__CUDA_NO_HALF_OPERATORS__",
            "-U__CUDA_NO_HALF_CONVERSIONS__",
            "-U__CUDA_NO_HALF2_OPERATORS__",
            "-D__CUDA_NO_HALF_OPERATORS__=1",
            "-U",
            "__CUDA_NO_HALF_CONVERSIONS__",
            "-U__CUDA_NO_BFLOAT16_CONVERSIONS__",
            "-D__CUDA_NO_BFLOAT16_OPERATORS__",
        ]);
        assert_eq!(
            m.changes,
            vec![
                (
                    0,
                    Action::Replace(vec!["-U__HIP_NO_HALF_OPERATORS__".into()])
                ),
                (
                    1,
                    Action::Replace(vec!["-U__HIP_NO_HALF_CONVERSIONS__".into()])
                ),
                (2, Action::Remove),
                (
                    3,
                    Action::Replace(vec!["-D__HIP_NO_HALF_OPERATORS__=1".into()])
                ),
                (
                    5,
                    Action::Replace(vec!["__HIP_NO_HALF_CONVERSIONS__".into()])
                ),
            ]
        );
        let found: Vec<(usize, &str, Option<Severity>)> = m
            .notes
            .iter()
            .map(|n| (n.word, n.info.id, n.severity))
            .collect();
        assert_eq!(
            found,
            [
                (0, "B001", None),
                (1, "B001", None),
                (2, "B002", None),
                (3, "B001", None),
                (5, "B001", None),
                (6, "B003", Some(Severity::Note)),
                // R23-1: `-D` of a switch HIP lacks is a note, as its `-U` is.
                (7, "B003", Some(Severity::Note)),
            ]
        );
        assert!(m.notes[5].message.contains("no counterpart"));
        // Alone, the half2 switch takes the one HIP has for both; HIP's names stay as they are.
        let m = run(&["-U__CUDA_NO_HALF2_OPERATORS__"]);
        assert_eq!(
            m.changes,
            [(
                0,
                Action::Replace(vec!["-U__HIP_NO_HALF_OPERATORS__".into()])
            )]
        );
        let m = run(&[
            "-U__HIP_NO_HALF_OPERATORS__",
            "-D__HIP_NO_HALF_CONVERSIONS__=1",
        ]);
        assert!(m.changes.is_empty() && m.notes.is_empty());
    }

    /// What `run` leaves of `words` (applied), joined.
    fn left(words: &[&str]) -> String {
        let m = run(words);
        m.applied(words)
            .into_iter()
            .map(|(_, w)| w)
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// K-i, R5, R1, K-b: nvcc-only flags hipcc rejects go, each with a note, their values
    /// with them; clang's own `-Werror` and `-Werror=<warning>` stay.
    #[test]
    fn nvcc_only_flags_hipcc_rejects_go() {
        for (words, after) in [
            (
                &["-O3", "--Werror", "cross-execution-space-call"][..],
                "-O3",
            ),
            (&["--Werror=reorder,all-warnings", "-O3"][..], "-O3"),
            (&["-Werror", "cross-execution-space-call", "-O3"][..], "-O3"),
            (&["-Werror=cross-execution-space-call"][..], ""),
            (
                &["--source-in-ptx", "-src-in-ptx", "--use-local-env"][..],
                "",
            ),
            (
                &["--keep", "--keep-dir", "\"${DIR}\"", "-O2"][..],
                "-save-temps -O2",
            ),
            (
                &["--keep-dir=build", "--extra-device-vectorization"][..],
                "",
            ),
            (&["-deviceemu", "a.cu"][..], "a.cu"),
            (
                &[
                    "--qpp-config",
                    "8.3.0,gcc_ntoaarch64le",
                    "-target-dir",
                    "aarch64-qnx",
                ][..],
                "",
            ),
        ] {
            let m = run(words);
            assert_eq!(left(words), after, "{words:?}");
            assert!(!m.notes.is_empty(), "{words:?}");
            assert!(
                m.notes.iter().all(|n| n.info.id != B_FLAG_UNMAPPED.id),
                "{words:?}"
            );
        }
        for kept in [
            &["-Werror", "-O3"][..],
            &["-Werror=reorder"][..],
            &["-Werror=deprecated-declarations", "-Wall"][..],
        ] {
            assert!(run(kept).changes.is_empty(), "{kept:?}");
        }
    }

    /// K-i: nvcc's diagnostic and hand-off options go; a long option neither nvcc's known
    /// ones nor clang's is reported where it stays (hipcc stops on it), clang's are kept.
    #[test]
    fn unknown_long_options_in_nvcc_lists_are_reported() {
        let words = [
            "--display-error-number",
            "--restrict",
            "--forward-unknown-to-host-compiler",
            "--Wreorder",
            "-O3",
        ];
        assert_eq!(left(&words), "-O3");
        assert_eq!(left(&["--disable-warnings"]), "-w");
        for unknown in ["--frobnicate", "--dopt=on", "--device-w"] {
            let m = run(&["-O3", unknown]);
            assert!(m.changes.is_empty(), "{unknown}");
            assert_eq!(
                m.notes
                    .iter()
                    .map(|n| (n.word, n.info.id))
                    .collect::<Vec<_>>(),
                [(1, B_FLAG_UNMAPPED.id)],
                "{unknown}"
            );
            assert!(m.notes[0].message.contains(unknown), "{unknown}");
        }
        for clang in [
            "--std=c++17",
            "--verbose",
            "--save-temps",
            "--offload-arch=gfx90a",
            "--rocm-path=/opt/rocm",
            "--hip-link",
            "--gpu-max-threads-per-block=256",
            "--param=inline-unit-growth=50",
        ] {
            assert!(run(&[clang]).notes.is_empty(), "{clang}");
        }
        // Outside a list known to be nvcc's, long options are not judged.
        let mut done = false;
        let any = map_words(
            &["--frobnicate"],
            &super::super::BuildOptions::default(),
            Context::Any,
            &mut done,
        );
        assert!(any.notes.is_empty());
    }

    /// L-e: clang's CUDA mode flags become hipcc's: `-x hip`, the AMD targets, and no CUDA
    /// installation; an AMD `--offload-arch` stays.
    #[test]
    fn clang_cuda_flags_become_hipcc_flags() {
        assert_eq!(
            left(&[
                "-O3",
                "-x",
                "cuda",
                "--cuda-path=/usr/local/cuda",
                "--cuda-gpu-arch=sm_80"
            ]),
            "-O3 -x hip --offload-arch=gfx90a --offload-arch=gfx1100"
        );
        assert_eq!(
            left(&[
                "-xcuda",
                "--offload-arch=sm_70",
                "-nocudalib",
                "--no-cuda-version-check"
            ]),
            "-xhip --offload-arch=gfx90a --offload-arch=gfx1100"
        );
        let done = [
            "-x",
            "hip",
            "--offload-arch=gfx90a",
            "--offload-arch=gfx1100",
        ];
        assert!(run(&done).changes.is_empty());
        let m = run(&["--cuda-path=/opt/cuda"]);
        assert_eq!(m.notes[0].info.id, B_FLAG_DROPPED.id);
    }

    /// N-b: MSVC options in `-Xcompiler` go (clang reads them as files); the other host
    /// flags of the value stay.
    #[test]
    fn msvc_host_options_go() {
        assert_eq!(left(&["-Xcompiler", "\"/wd 4819\"", "-O2"]), "-O2");
        assert_eq!(left(&["-Xcompiler", "/MD,-Wall"]), "-Wall");
        let m = run(&["-Xcompiler=/wd4819"]);
        assert_eq!(m.notes.len(), 1);
        assert!(m.notes[0].message.contains("`/wd4819`"), "{:?}", m.notes);
    }

    /// R2: `-g -G` leaves one `-g`, not two.
    #[test]
    fn device_debug_beside_g_goes() {
        assert_eq!(left(&["-g", "-G"]), "-g");
        assert_eq!(left(&["-G", "-O0"]), "-g -O0");
        assert_eq!(left(&["-g"]), "-g");
    }

    /// L-b: `nvrtc` is libamdhip64 before HIP 5.3, which has no libhiprtc, and libhiprtc from
    /// 5.3 on.
    #[test]
    fn nvrtc_follows_the_hip_release() {
        let to = |v: Version| match map_library_for("nvrtc", v) {
            Some((Action::Replace(n), ..)) => n.join(" "),
            other => panic!("{other:?}"),
        };
        assert_eq!(to(Version::new(5, 2, 3)), "amdhip64");
        assert_eq!(to(Version::new(5, 3, 0)), "hiprtc");
        assert_eq!(to(Version::new(7, 0, 0)), "hiprtc");
        let windows = map_library_for_windows("nvrtc", Version::new(5, 2, 3));
        assert!(matches!(windows, Some((Action::Replace(n), ..)) if n == ["hiprtc"]));
        assert_eq!(hip_link_name("hiprtc", Version::new(5, 2, 3)).0, "amdhip64");
        assert_eq!(
            hip_link_name("hipblas", Version::new(5, 2, 3)),
            ("hipblas", None)
        );
    }
}
