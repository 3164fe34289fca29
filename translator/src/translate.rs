//! Translation of one C/C++/CUDA source file: renames, includes, call shapes and launches.
//!
//! One cursor walk over the tree-sitter tree collects [`Edit`]s and [`Diagnostic`]s; the edits are
//! applied once to the original bytes. Macro bodies are opaque to the parser and are renamed by a
//! small lexer ([`crate::lexer`]).

use crate::parse::{Field, FIELDS};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use hipport_rules::{Availability, Database, Family, Mapping, Target, Version};
use serde::Serialize;
use tree_sitter::{Node, Tree};

use crate::analysis::{is_full_lane_mask_with, is_narrow_full_mask_with};
use crate::diag::{DiagInfo, Diagnostic, LineIndex, Severity};
use crate::edit::{self, Edit, OverlapError};
use crate::lexer;
use crate::parse::{self, Flat, KindName, KindTable, ParseError};

/// How kernel launches are written in the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum LaunchStyle {
    /// Keep `k<<<grid, block>>>(args)`: hip-clang accepts it.
    #[default]
    Keep,
    /// Emit `hipLaunchKernelGGL(k, dim3(grid), dim3(block), shmem, stream, args)`.
    Hip,
}

pub use hipport_rules::{Choices, Lib, TorchApi};

/// The newest HIP release the rules know; the default target when no HIP is installed.
pub const NEWEST_HIP: Version = Version::new(6, 4, 0);

/// The patch releases the rules database tells apart from the rest of their minor release
/// (5.2.3: Debian's package, whose headers were checked name by name).
pub const PATCH_RELEASES: &[Version] = &[Version::new(5, 2, 3)];

/// The release an installed HIP's version numbers name. ROCm's `hip_version.h` and `hipconfig`
/// give a build number as the patch (`5.2.21153`); a build number stands for the newest patch
/// release of that minor the database tells apart (5.2.21153 -> 5.2.3), else for x.y.0.
pub fn installed_release(major: u16, minor: u16, patch: u64) -> Version {
    if patch < 100 {
        return Version::new(major, minor, patch as u16);
    }
    let newest = PATCH_RELEASES
        .iter()
        .filter(|v| v.major == major && v.minor == minor)
        .map(|v| v.patch)
        .max()
        .unwrap_or(0);
    Version::new(major, minor, newest)
}

/// HIP release that added the `*_sync` warp builtins with 64-bit masks.
pub const WARP_SYNC_HIP: Version = Version::new(6, 2, 0);

/// The `_sync` builtins whose literal full mask a macro body gets widened for HIP 6.2 and later
/// (see `widen_masks_in_body`), as the analysis leaves them (H003).
pub const WIDENED_IN_MACROS: &[&str] = &[
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
];

/// The offset and length of what argument text `arg` holds between the blanks, line
/// continuations and block comments around it (`__shfl_xor_sync( \` and the mask on a line of
/// its own, verify14 REG-A).
fn bare_argument(arg: &[u8]) -> (usize, usize) {
    let gap = |b: u8| b.is_ascii_whitespace() || b == b'\\';
    let (mut start, mut end) = (0, arg.len());
    loop {
        let before = (start, end);
        while start < end && gap(arg[start]) {
            start += 1;
        }
        while end > start && gap(arg[end - 1]) {
            end -= 1;
        }
        if arg[start..end].starts_with(b"/*") {
            if let Some(close) = memchr::memmem::find(&arg[start + 2..end], b"*/") {
                start += close + 4;
            }
        }
        if arg[start..end].ends_with(b"*/") {
            if let Some(open) = memchr::memmem::rfind(&arg[start..end - 2], b"/*") {
                end = start + open;
            }
        }
        if (start, end) == before {
            return (start, end - start);
        }
    }
}

/// Whether `text` is the 32-lane full mask written as a literal: `0xffffffff` in either case,
/// with an optional `u`/`U` suffix.
pub fn literal_full_mask_32(text: &[u8]) -> bool {
    let t = text.to_ascii_lowercase();
    let t = t.strip_suffix(b"u").unwrap_or(&t);
    t == b"0xffffffff"
}

/// Whether mask argument `text`, as written in a macro body, is the 32-lane full mask in a
/// spelling that [`Walk::widen_full_mask`] widens in code: a [`literal_full_mask_32`], or any
/// constant expression of it that `is_narrow_full_mask_with` reads as one (`(0xffffffff)`,
/// `~0u`, `~0`, `-1`, `0xffffffffUL`, `uint32_t(-1)`, `(unsigned)~0`; verify14 PE-2). A name
/// (`UINT32_MAX`, a macro) is not one: code does not widen a name it cannot see either.
/// Comments and line continuations may stand around and inside it.
pub fn narrow_full_mask_text(text: &[u8]) -> bool {
    let (lead, len) = bare_argument(text);
    let text = &text[lead..lead + len];
    if literal_full_mask_32(text) {
        return true;
    }
    if text.is_empty()
        || text.len() > 200
        || text
            .iter()
            .any(|&b| matches!(b, b';' | b'{' | b'}' | b'#' | b'"' | b'\''))
    {
        return false;
    }
    // Line continuations inside it are blanks to the compiler.
    let text: Vec<u8> = text
        .iter()
        .map(|&b| if b == b'\\' { b' ' } else { b })
        .collect();
    let mut wrapped = b"void __hipport_mask__(void) {\n(".to_vec();
    wrapped.extend_from_slice(&text);
    wrapped.extend_from_slice(b"\n);}\n");
    let Ok(tree) = parse::parse(&wrapped, Duration::from_secs(1)) else {
        return false;
    };
    let root = tree.root_node();
    if root.has_error() {
        return false;
    }
    let expr = root
        .named_child(0)
        .filter(|f| f.kind_name() == "function_definition")
        .and_then(|f| f.field(FIELDS.body))
        .and_then(|b| b.named_child(0))
        .filter(|s| s.kind_name() == "expression_statement")
        .and_then(|s| s.named_child(0));
    expr.is_some_and(|e| is_narrow_full_mask_with(e, &wrapped, &HashMap::new()))
}

/// Where the `#define` whose body starts at `at` ends: the line break that no `\` continues,
/// past block comments (which tree-sitter leaves out of a body: `__shfl_xor_sync(/*full*/
/// 0xffffffff, v, o)` has the body `v += __shfl_xor_sync(`; verify14 PE-2).
fn define_end(src: &[u8], at: usize) -> usize {
    let mut i = at;
    while i < src.len() {
        match src[i] {
            b'/' if src.get(i + 1) == Some(&b'*') => {
                match memchr::memmem::find(&src[i + 2..], b"*/") {
                    Some(e) => i += e + 4,
                    None => return src.len(),
                }
                continue;
            }
            b'/' if src.get(i + 1) == Some(&b'/') => {
                return memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |e| i + e);
            }
            b'\\' if src.get(i + 1) == Some(&b'\n') => i += 1,
            b'\\' if src.get(i + 1) == Some(&b'\r') && src.get(i + 2) == Some(&b'\n') => i += 2,
            b'\n' => return i,
            _ => {}
        }
        i += 1;
    }
    src.len()
}

/// Standard macros a lane mask may be written with, with their values (`<stdint.h>`): known
/// to every file, as if it defined them, unless it defines them itself. `UINT32_MAX` is the
/// 32-lane full mask, widened in code and in macro bodies like `0xffffffff` (verify14 PE-2).
const STANDARD_MASK_MACROS: &[(&str, &str)] = &[("UINT32_MAX", "0xffffffffu")];

/// What a full-warp `__syncwarp()` becomes before HIP 7.0 (as HIP 7.0 defines it): a wavefront
/// fence on each side of a wave barrier, as one expression so that it stands wherever the call did.
pub const WAVEFRONT_SYNC: &str = "(__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"wavefront\"))";

/// The first HIP with `__syncwarp` and the `__reduce_*_sync` warp reductions (HIP's changelog
/// for 7.0; ROCm/clr's amd_warp_sync_functions.h, with 64-bit masks).
pub const SYNCWARP_HIP: Version = Version::new(7, 0, 0);

/// The warp builtins HIP 7.0 added ([`SYNCWARP_HIP`]), whose masks are 64-bit like the rest.
pub const SYNC_FROM_HIP_7: &[&str] = &[
    "__syncwarp",
    "__reduce_add_sync",
    "__reduce_min_sync",
    "__reduce_max_sync",
    "__reduce_and_sync",
    "__reduce_or_sync",
    "__reduce_xor_sync",
];

/// The HIP cooperative-groups header, which needs the runtime included before it.
const COOPERATIVE_GROUPS_HIP: &str = "hip/hip_cooperative_groups.h";

/// Options for translating one file.
#[derive(Clone, Debug)]
pub struct Options {
    /// Launch style.
    pub launch: LaunchStyle,
    /// The HIP release the output must build with.
    pub hip_version: Version,
    /// Library choices.
    pub libs: Choices,
    /// Insert a marker comment above lines that need a human.
    pub annotate: bool,
    /// Time budget for parsing one file.
    pub parse_budget: Duration,
    /// The rules; `None` means the built-in database.
    pub rules: Option<Arc<Database>>,
    /// Files the run renames (old path -> new path, relative to the input root, `/`-separated);
    /// includes that reach them are rewritten to match.
    pub renamed: Option<Arc<BTreeMap<String, String>>>,
    /// Where includes that may reach renamed files are looked up: the build files' include
    /// directories and the tree's files.
    pub include_search: Option<Arc<crate::includes::IncludeSearch>>,
    /// Run the hazard analysis and report its diagnostics.
    pub analyze: bool,
    /// Apply the unambiguous autofixes that hazard diagnostics carry.
    pub fix: bool,
    /// Macros the HIP build defines (`--define`): branches they decide are judged as hipcc
    /// compiles them.
    pub defines: Vec<crate::analysis::Define>,
    /// What the run's project headers tell the analysis of the files that include them (H002's
    /// `warpSize` macros, H001's segment functions); `None` outside a run over a tree.
    pub header_facts: Option<Arc<crate::header_facts::HeaderFacts>>,
    /// The AMD targets the user chose for the build (`--offload-arch`), if any: hazards of the
    /// GPUs left out (MI300's missing texture units, H052; RDNA's 32-lane wavefronts, H055) are
    /// not reported.
    pub targets: Option<Vec<String>>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            launch: LaunchStyle::Keep,
            hip_version: NEWEST_HIP,
            libs: Choices::default(),
            annotate: false,
            parse_budget: Duration::from_secs(10),
            rules: None,
            renamed: None,
            include_search: None,
            analyze: true,
            fix: false,
            defines: Vec::new(),
            header_facts: None,
            targets: None,
        }
    }
}

impl Options {
    /// The rules database in use.
    pub fn db(&self) -> &Database {
        match &self.rules {
            Some(db) => db,
            None => Database::builtin(),
        }
    }
}

/// Why a file could not be translated.
#[derive(Debug, thiserror::Error)]
pub enum TranslateError {
    /// The parser gave up.
    #[error("{file}: {source}")]
    Parse {
        /// The file.
        file: String,
        /// The cause.
        source: ParseError,
    },
    /// Two rules produced overlapping edits (a bug in the rules).
    #[error("{file}: {source}")]
    Overlap {
        /// The file.
        file: String,
        /// The cause.
        source: OverlapError,
    },
}

/// The result of translating one file.
#[derive(Debug, Default)]
pub struct FileResult {
    /// The translated bytes.
    pub output: Vec<u8>,
    /// The edits applied, sorted.
    pub edits: Vec<Edit>,
    /// Diagnostics, sorted by position.
    pub diagnostics: Vec<Diagnostic>,
    /// 1-based line ranges the parser could not read.
    pub parse_errors: Vec<(usize, usize)>,
    /// Renames by API family.
    pub renames: BTreeMap<String, usize>,
    /// Every identifier renamed (CUDA name -> emitted name), including those inside rewritten calls.
    pub aliases: BTreeMap<String, String>,
    /// Whether the translation read other files (the macros of included headers), so that it
    /// depends on more than this file's content.
    pub read_other_files: bool,
    /// The argument ranges of each call of a function that has call rules, rewritten here or
    /// not: header mode keeps such calls, and its argument-counting macros must see each
    /// argument as one.
    pub rule_call_args: Vec<Vec<Range<usize>>>,
}

macro_rules! diag_info {
    ($($konst:ident = $id:literal, $name:literal, $sev:ident, $summary:literal, $explain:literal;)*) => {
        $(
            #[doc = $summary]
            pub const $konst: DiagInfo = DiagInfo {
                id: $id,
                name: $name,
                severity: Severity::$sev,
                summary: $summary,
                explain: $explain,
            };
        )*
        /// Every diagnostic kind the translation pass emits.
        pub const DIAGS: &[DiagInfo] = &[$($konst),*];
    };
}

diag_info! {
    UNSUPPORTED = "T001", "no-hip-equivalent", Error,
        "A CUDA API name has no HIP equivalent",
        "The rules database knows this CUDA name but records no HIP (or roc*) counterpart, so the name is left as it is and the file will not compile for HIP until a person replaces it.\n\nWhat to do: look the name up with `hipport explain NAME`; often a nearby HIP API covers the need, or the feature must be emulated. Add a rule with `--rules FILE` once you have decided.\n\nIn a preprocessor branch hipcc never compiles (`#if __CUDA_ARCH__ >= 800`, `#if CUDART_VERSION >= 11000`, the `#else` of `#ifdef __HIP_PLATFORM_AMD__`: decided by macros hipcc leaves undefined or defines, not by the file's own), this and the other reports of a CUDA name the target lacks (T002, T003, T007, T009) are notes that name the deciding directive: the name stays, and the output builds.";
    TOO_NEW = "T002", "hip-too-old", Error,
        "The HIP equivalent needs a newer HIP than the target",
        "The CUDA name has a HIP equivalent (or a call rewrite into HIP calls), but it was added in a HIP release newer than the one given by `--hip-version` (or found installed). hipport leaves the CUDA name in place rather than emit a name that will not compile.\n\nWhat to do: target a newer HIP with `--hip-version`, or rewrite the code with APIs the target release has. In a branch hipcc never compiles (see T001) it is a note.";
    REMOVED = "T003", "hip-removed", Error,
        "The HIP equivalent was removed before the target HIP release",
        "The HIP counterpart of this CUDA name was removed in a release at or before the target. The name is left as it is.\n\nWhat to do: use the replacement named in HIP's release notes, or target an older HIP.";
    DEPRECATED = "T004", "hip-deprecated", Warning,
        "The HIP equivalent is deprecated in the target HIP release",
        "The CUDA name was translated, but HIP deprecates the name it became. It still compiles, but may be removed in a later release.\n\nWhat to do: plan a move to the replacement API; `hipport explain NAME` shows the versions.";
    EXPERIMENTAL = "T005", "hip-experimental", Note,
        "The HIP equivalent is experimental",
        "The CUDA name was translated to a HIP name that HIP marks experimental; its behaviour or signature may change between releases.";
    UNKNOWN_NAME = "T006", "unknown-cuda-name", Warning,
        "A CUDA-looking name is not in the rules database",
        "The identifier looks like a CUDA API name (`cuda` or `cu` followed by a capital, as in cudaFooBar or cuMemFoo; or cublas, cusparse, curand, cufft, cusolver, cudnn or nvtx followed by a capital, `_` or a number, as in cublasLtFoo or curand8) but the rules database does not know it, and neither the file nor a project header of the input that it includes (directly or through other headers) declares or defines it. It was left as it is.\n\nWhat to do: check whether it is a CUDA API; if so, add a rule with `--rules FILE` (and consider reporting it); if it is your own name declared elsewhere, ignore this warning.";
    UNSUPPORTED_HEADER = "T007", "header-without-hip", Error,
        "A CUDA header has no HIP equivalent",
        "The include names a CUDA header that HIP does not provide, so it is left as it is.\n\nWhat to do: remove the include if nothing from it is used, or provide the functionality another way.";
    PARSE_ERROR = "T008", "parse-error", Note,
        "Part of the file could not be parsed",
        "tree-sitter could not parse some lines (often because of a macro that expands to a qualifier or a declaration). Renames inside those lines were still applied, but launches and call-shape rewrites there may have been missed, and so may the hazard checks: a wave64 or lane-mask problem in those lines goes unreported. A common cause is a loop or `if` whose body, without braces, is chosen by `#if`/`#else`. Where the function around the lines holds warp operations (shuffles, votes, `__syncwarp`), the note is a warning: that is where 64-lane wavefronts break code. A loop or `if` body chosen by `#if`/`#else` without braces is the exception: each arm hipcc may compile is analysed in a copy of the file where it stands alone, and the note says so. Declarations that start at the same macro the file does not define (`inline DEV_ONLY int f(...)`, a qualifier macro from a header outside the input) share one note that names the macro and lists their lines.\n\nWhat to do: review the named lines in the output; braces around such a body let the parser read it; for a qualifier macro, put the header that defines it in the input and include it in the file (hipport reads qualifier macros only from the project headers a file includes, not from those its includers bring in first: with quotes, or as `<dir/x.h>` found in a directory above the file or its `include/`).";
    WARP_SYNC_MASK = "T009", "partial-warp-mask", Error,
        "A `*_sync` warp builtin with a mask that is not the full warp, for a HIP without `*_sync` builtins, or a partial `__syncwarp` before HIP 7.0",
        "HIP releases before 6.2 have no `__shfl_*_sync`, `__ballot_sync`, `__any_sync` or `__all_sync`. hipport rewrites calls with a full-warp mask (0xffffffff, ~0, -1) to the mask-less forms (`__shfl_down`, `__ballot`, ...), which act on the whole wavefront. A mask that names only some lanes, or a variable whose value hipport cannot see, has no mask-less equivalent.\n\nWhat to do: restructure the code so that the whole warp takes part, or target HIP 6.2 or newer (`--hip-version 6.2`), where the `_sync` forms exist and take 64-bit masks.\n\n`__syncwarp` came later, with HIP 7.0: for older targets a partial one is reported. A full-warp one becomes a wavefront fence pair (T010); for a partial one, where the lanes only need each other's memory accesses ordered, a wavefront fence on each side of `__builtin_amdgcn_wave_barrier()` takes its place. From HIP 7.0 it stays, with its mask widened to 64 bits.";
    SYNCWARP_FENCED = "T010", "syncwarp-fenced", Note,
        "`__syncwarp()` became a wavefront fence pair: HIP before 7.0 has none",
        "HIP before 7.0 has no `__syncwarp` (ROCm/clr's warp sync header, which adds the other `_sync` builtins in 6.2, added it in 7.0; with `--hip-version 7.0` it is kept). A full-warp `__syncwarp()` (no mask, or a full one) becomes `(__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\"), __builtin_amdgcn_wave_barrier(), __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"wavefront\"))`, one expression that stands wherever the call stood (HIP 7.0's own `__syncwarp` does the same). Removing it would not do: a wavefront runs in lockstep, but without the fences the compiler itself moves a shared-memory load of another lane's slot above the store, and every lane reads stale memory.\n\nWhat to do: nothing; the note says where the call was replaced.";
    LAUNCH_IN_MACRO = "T011", "launch-in-macro", Note,
        "A kernel launch inside a macro body was kept as `<<<...>>>`",
        "With `--launch hip`, launches are rewritten to `hipLaunchKernelGGL`, but this launch sits inside a `#define` body, which hipport does not rewrite. hip-clang accepts `<<<...>>>`, so the code still compiles with hipcc; other compilers need the macro rewritten by hand.";
    CALL_IN_MACRO = "T013", "call-rewrite-in-macro", Warning,
        "A call whose HIP form needs more than a rename sits in a macro body",
        "Some CUDA calls change shape in HIP: `cudaFuncSetAttribute(kernel, ...)` needs `reinterpret_cast<const void*>(kernel)`, `cudaEventCreate(&e, flags)` becomes `hipEventCreateWithFlags`, and so on; hipport rewrites them in code. Inside a `#define` body it only renames the function (or, where HIP spells it the same, leaves the call as written: `__shfl_down_sync(mask, v, d)` before HIP 6.2, which lacks it), so the macro's expansion may not compile or may call the wrong overload. The message shows the call as written and the form hipport gives such a call outside macro bodies, with the call's own arguments.\n\nWhat to do: apply that form to the macro body by hand, or turn the macro into an inline function.";
    DUPLICATE_CASE = "T014", "duplicate-case-label", Error,
        "Two case labels of one switch become the same name",
        "Some CUDA enumerators have one HIP (or roc*) counterpart between them: hipSOLVER has no iterative-refinement statuses, so `CUSOLVER_STATUS_IRS_INTERNAL_ERROR` becomes `HIPSOLVER_STATUS_INTERNAL_ERROR` as `CUSOLVER_STATUS_INTERNAL_ERROR` does. A switch that lists both (an error-string table over every status) then has two equal case labels, which does not compile (\"duplicate case value\").\n\nWhat to do: remove the case the message names (its CUDA status cannot occur on AMD) or merge the two bodies.";
    ROC_CALL_SHAPE = "T015", "roc-call-shape", Error,
        "The hipBLAS, rocBLAS, rocSPARSE or MIOpen function (or struct) takes other arguments or argument types (or has other fields) than the CUDA one, or a roc* call the source makes gets hip* wrapper types",
        "cuDNN calls become MIOpen calls, and some MIOpen functions take other arguments than cuDNN's: `miopenConvolutionForward` takes the workspace last, `miopenConvolutionForwardGetWorkSpaceSize` takes the filter descriptor before the input's and no algorithm, `miopenSet2dPoolingDescriptor` has no NaN option, and `miopenConvAlgoPerf_t` has `fwd_algo`, `time` and `memory` where cuDNN's perf struct has `algo` and `status`. The rules record for each cuDNN name whether MIOpen's takes the same arguments (`rules/data/extra-cudnn.tsv`, checked against the declarations in HIPIFY's cuDNN-to-MIOpen test); where they differ, the name is renamed and each use reported with what differs, since the call does not compile (or computes something else) as written. MIOpen also needs a Find call (`miopenFindConvolutionForwardAlgorithm`) before a convolution runs.\n\nWith `--blas rocblas`, `cublasGemmEx`, `cublasGemmBatchedEx` and `cublasGemmStridedBatchedEx` become `rocblas_gemm_ex`, `rocblas_gemm_batched_ex` and `rocblas_gemm_strided_batched_ex`, whose parameter lists are longer: an output matrix D after C (`d, d_type, ldd`, and `stride_d` for the strided form; pass C's again to compute in place), a compute type that is a `rocblas_datatype` (`rocblas_datatype_f32_r`, not CUDA's `cublasComputeType_t`, whose rocBLAS name `rocblas_compute_type_f32` belongs to `rocblas_gemm_ex3`), and `solution_index` and `flags` at the end (0, 0). The renamed call does not compile until it is rewritten.\n\nWith `--sparse rocsparse`, cuSPARSE's generic API becomes rocSPARSE's, whose functions differ: `rocsparse_spmm` serves `cusparseSpMM_bufferSize`, `cusparseSpMM_preprocess` and `cusparseSpMM` with a `stage` argument (`rocsparse_spmm_stage_buffer_size`, `..._preprocess`, `..._compute`) and takes the buffer size pointer before the buffer (13 arguments where cuSPARSE has 11); `rocsparse_spmv`, `rocsparse_spvv`, `rocsparse_spsv`, `rocsparse_spsm`, `rocsparse_sparse_to_dense` and `rocsparse_dense_to_sparse` do the same; and the compute and value types are `rocsparse_datatype`s (`rocsparse_datatype_f32_r`) where cuSPARSE has a `cudaDataType` (`CUDA_R_32F`, which hipport writes as `HIP_R_32F`, which does not convert), also in the descriptor constructors (`rocsparse_create_csr_descr`, `rocsparse_create_dnmat_descr`). The rules record per name what differs (`rules/data/extra-cusparse.tsv`, from HIPIFY's cuSPARSE-to-rocSPARSE test).\n\n`cublasHgemm`, `cublasHgemmBatched` and `cublasHgemmStridedBatched` take `__half` pointers; `hipblasHgemm` and its batched forms take `hipblasHalf` ones, which hipBLAS declares as `uint16_t` (unless the build defines `HIPBLAS_USE_HIP_HALF`), and `rocblas_hgemm` takes `rocblas_half` (a struct of one `uint16_t`). The pointers do not convert (hipcc: \"no matching function for call to 'hipblasHgemm'\"): cast them, `reinterpret_cast<const hipblasHalf*>(alpha)` for alpha, A, B and beta and `reinterpret_cast<hipblasHalf*>(C)` for C (the same bits: both are IEEE binary16). A file or build that defines `HIPBLAS_USE_HIP_HALF` is not reported for hipBLAS.\n\nA roc* function the source calls itself (`rocblas_hgemm(handle, transa, ...)` in a branch for HIP written for PyTorch's hipify, which maps cuBLAS to rocBLAS), in code hipcc compiles, takes and returns the roc* library's own types (`rocblas_handle`, `rocblas_operation`, `rocblas_status`). Where it is given a value whose CUDA type hipport writes as the hip* wrapper's (`cublasHandle_t handle` becomes `hipblasHandle_t` under the default `--blas hipblas`, `CUBLAS_OP_N` becomes `HIPBLAS_OP_N`), or its result is returned as one, the types do not convert and hipcc rejects the call (\"no matching function for call to 'rocblas_hgemm'\"). The report lists those values with both spellings; with the roc* choice (`--blas rocblas`, `--sparse rocsparse`, `--rand rocrand`, `--solver rocsolver`, `--fft rocfft`) the types agree and nothing is reported. A value the source casts (`(rocblas_handle)h`) is its writer's choice and is not listed.\n\nWhat to do: write the call in the roc* library's form, as the message shows, or keep the hip* wrapper (`--blas hipblas`, `--sparse hipsparse`, the defaults), whose `hipblasGemmEx` and `hipsparseSpMM` take the CUDA library's arguments.";
    COMPILER_MACRO_DEFINED = "T016", "compiler-macro-defined", Note,
        "A `#define` of `__CUDACC__` was removed: hipcc defines its own macro",
        "Some sources define nvcc's `__CUDACC__` themselves before including a header that tests it (simple-knn does so before `<cooperative_groups.h>`). Renamed, the line would be `#define __HIPCC__`, which redefines hipcc's own macro as empty (a `-Wmacro-redefined` warning, and `#if __HIPCC__` no longer parses); kept, it would send every header that tests `__CUDACC__` (Thrust, CUB, Eigen) down its nvcc path. hipcc defines `__HIPCC__` for every HIP source, so the line is removed.\n\nWhat to do: nothing, unless the definition was meant for a host-only compiler; then guard it with `#ifndef __HIPCC__`.";
    STRING_SYMBOL = "T017", "string-symbol", Error,
        "A symbol API is given the variable's name as a string",
        "`cudaMemcpyToSymbol(\"c_tab\", ...)` (and the other symbol functions: `cudaMemcpyFromSymbol`, their `Async` forms, `cudaGetSymbolAddress`, `cudaGetSymbolSize`) once took the symbol's name as a string; CUDA 5.0 removed that form. HIP finds a symbol by the address of its host-side shadow variable (`HIP_SYMBOL(X)` is `X` on AMD), so a string passes the address of the literal, the call returns `hipErrorInvalidSymbol` and the variable keeps its old contents: with the status unchecked, the kernels read zeros and compute wrong results without an error.\n\nhipport writes the variable itself (`HIP_SYMBOL(c_tab)`) where the file, or a file it includes with quotes from beside it (Rodinia's `#include \"kmeans_cuda_kernel.cu\"`), declares a `__constant__` or `__device__` variable of that name. Elsewhere (a variable declared in another file, or in a header found through an include directory) it reports the call.\n\nWhat to do: pass the variable (`HIP_SYMBOL(c_tab)`), with its declaration (`extern __constant__ float c_tab[16];` under relocatable device code, or an include of the file that defines it) visible at the call.";
    CUB_NAMESPACE_WRAPPED = "T018", "cub-namespace-wrapped", Note,
        "CUB is wrapped in a namespace of the project's, which hipCUB does not do",
        "CUB lets a project put its API in a namespace of its own: `#define CUB_NS_PREFIX namespace myext {`, `#define CUB_NS_POSTFIX }` and `#define CUB_NS_QUALIFIER ::myext::cub` before `#include <cub/cub.cuh>` (or `CUB_WRAPPED_NAMESPACE myext`, CUB 1.13 and later), after which the code writes `myext::cub::DeviceScan`. hipCUB has no such switch: its config.hpp defines `HIPCUB_NAMESPACE` as `hipcub` and opens `namespace hipcub` at global scope whatever the CUB macros say, so `myext::hipcub::DeviceScan` would not exist (hipcc: \"use of undeclared identifier 'myext'\"). hipport writes the wrapped uses as `hipcub::DeviceScan` (a leading `::` stays), writes a `CUB_NS_QUALIFIER` body as `::hipcub` for code that spells the namespace through it, and leaves the other defines, which have no effect with hipCUB.\n\nWhat to do: nothing in the files hipport converts; a file it does not convert that names `myext::cub::` needs `hipcub::` the same way.";
    ROCTX_INCLUDE_ADDED = "T019", "roctx-include-added", Note,
        "The file calls rocTX functions but included no rocTX header: hipport added `#include <roctracer/roctx.h>`",
        "NVTX's range and mark calls become rocTX's (`nvtxRangePushA` -> `roctxRangePushA`, `nvtxRangePop` -> `roctxRangePop`, `nvtxMarkA` -> `roctxMarkA`), which `roctracer/roctx.h` declares. Where the file includes `nvToolsExt.h` (or an `nvtx3/` header), that include becomes `roctracer/roctx.h`. A file can call NVTX without including it, when its NVTX declarations come in through another header: a PyTorch extension gets them through torch's CUDA headers, but ROCm PyTorch's installed headers declare no rocTX function (its rocTX use is in its own .cpp files). hipport then adds `#include <roctracer/roctx.h>` with the file's first includes, so that the calls are declared. It adds nothing where a project header of the input that the file includes (directly or through other headers) includes `nvToolsExt.h` or rocTX's header: converted, that header includes `roctracer/roctx.h`.\n\nWhat to do: link the program with rocTX: `-lroctx64` (hipcc, a Makefile's LDLIBS), `roctx64` in CMake's `target_link_libraries`, or `libraries=[\"roctx64\"]` in a setup.py extension; the library is roctracer's, in ROCm's lib directory.";
    RTC_STRING_ARRAY = "T031", "rtc-string-array", Warning,
        "A string array passed to hipRTC whose type hipport cannot tell: hipRTC takes `const char **`",
        "NVRTC declares the string arrays it takes as `const char * const *`: `nvrtcCompileProgram`'s options, `nvrtcCreateProgram`'s headers and include names. A `char **` (`char *opts[2]`, options built at run time with `strdup`) converts to that implicitly. hipRTC declares the same parameters `const char **` (HIP 5.2.3's hip/hiprtc.h, and later releases), and C++ converts neither `char **` nor `const char * const *` to `const char **`: the renamed call does not compile (\"no known conversion from 'char *[1]' to 'const char **'\").\n\nWhere the declarations around the call tell the argument's type (an array or pointer declared in the function or file, `&opts[0]`, a `std::vector`'s `.data()`, a cast), hipport inserts `(const char **)` before an argument of another type, which is the same pointer, and leaves a `const char **` (or a null pointer) as it is. Where it cannot tell (a struct member, a function's result), it reports the argument.\n\nWhat to do: cast the argument, `(const char **)opts`, unless it is already a `const char **`.";
    CALL_ARGUMENT_ADDED = "T032", "call-argument-added", Error,
        "The HIP function takes an argument the CUDA call lacks, whose value comes from another call",
        "Some hipSPARSE functions take one more argument than the cuSPARSE function they replace. Before hipSPARSE 3.0 (ROCm 6.0), `hipsparseSpSV_solve` takes the buffer that `cusparseSpSV_analysis` was given for the same descriptor (`void* externalBuffer`, last), and `hipsparseSpSM_solve` takes one in every release so far (hipSPARSE 3.1 ignores it, its changelog says to pass nullptr). The renamed call does not compile (\"no matching function for call to 'hipsparseSpSV_solve'\").\n\nhipport looks in the function around the call for the analysis call that passes the same descriptor, and appends the buffer that call passes (a note says which). From HIP 6.2 a `hipsparseSpSM_solve` without such a call gets `nullptr` (a note too). Where no value can be found (the analysis is in another function, or calls with the same descriptor pass different buffers), the call is renamed and reported as an error.\n\nWhat to do: for a note, nothing; for an error, append the buffer the analysis step ran with to the call, or target a HIP whose function matches cuSPARSE's (`--hip-version 6.0` for `SpSV_solve`).";
    SIGNATURE_CHANGED = "T033", "hip-signature-changed", Warning,
        "The HIP equivalent changed its signature in a HIP release newer than the target",
        "The CUDA name was translated, but the HIP function (or type) it became changed in a HIP release newer than the one given by `--hip-version` (the rules' `hip_changed` column, from HIPIFY's tables and hipport's own rows). The rules map CUDA's form to the changed one; the target release still has the older form, whose parameters may differ, so the renamed call may not compile or may mean something else there. Example: cuTENSOR 2's `cutensorCreate(cutensorHandle_t*)` becomes `hiptensorCreate`, which takes `hiptensorHandle_t*` only from ROCm 7.0; hipTensor 1.x (ROCm 5.7 to 6.x) declares `hiptensorCreate(hiptensorHandle_t** handle)` with a struct handle. hipBLAS's `trmm` changed in ROCm 6.0 the same way. Code written for the CUDA library's older form, which the older HIP form follows (cuTENSOR 1.x: `cutensorHandle_t *h; cutensorCreate(&h)`), fits the target as it is. hipSPARSE's 6.0 change (`const` descriptors) is not reported: calls with the older descriptors compile with both.\n\nWhat to do: check the call against the declaration in the target's headers and adapt its arguments, or target the release named (`--hip-version X.Y`) or newer.";
    ANNOTATED = "T012", "annotation", Note,
        "A marker comment was inserted above a line that needs review",
        "With `--annotate`, hipport inserts a `// hipport: ...` comment above each line with an error-level translation diagnostic, so the places that need a human are visible in the output tree. One comment says one thing once: a report that recurs above the same line (the calls of one macro body) is written once with \"(N times)\", and a comment a previous run wrote there is not written again.";
}

/// Library namespaces that CUDA code can find inside a project's namespace (`myext::cub`, under
/// `CUB_NS_PREFIX`) while their HIP counterparts sit at global scope only (`::hipcub`).
const WRAPPABLE_NAMESPACES: &[&str] = &["cub"];

/// CUB's macros that wrap its namespace in a project's (cub/util_namespace.cuh), which hipCUB
/// ignores; `THRUST_CUB_WRAPPED_NAMESPACE` is Thrust's, which passes it on to CUB.
const CUB_WRAP_MACROS: &[&str] = &[
    "CUB_NS_PREFIX",
    "CUB_NS_QUALIFIER",
    "CUB_WRAPPED_NAMESPACE",
    "THRUST_CUB_WRAPPED_NAMESPACE",
];

/// Function-name prefixes of the roc* libraries, with the CUDA library families whose hip*
/// wrapper types (`hipblasHandle_t`, `hipblasOperation_t`) their functions do not take: each
/// library has its own (`rocblas_handle`; rocSOLVER takes rocBLAS's handle and enums).
const ROC_CALL_PREFIXES: &[(&str, &[Family])] = &[
    ("rocblas_", &[Family::Cublas]),
    ("rocsolver_", &[Family::Cublas, Family::Cusolver]),
    ("rocsparse_", &[Family::Cusparse]),
    ("rocrand_", &[Family::Curand]),
    ("rocfft_", &[Family::Cufft]),
];

/// Names whose values are numbers in another number space; they are never renamed.
const NEVER_RENAME: &[&str] = &[
    "CUDA_VERSION",
    "CUDART_VERSION",
    "__CUDACC_VER_MAJOR__",
    "__CUDACC_VER_MINOR__",
    "__CUDA_ARCH__",
];

/// The `*_sync` warp builtins and their mask-less HIP forms.
const WARP_SYNC: &[(&str, &str)] = &[
    ("__shfl_sync", "__shfl"),
    ("__shfl_up_sync", "__shfl_up"),
    ("__shfl_down_sync", "__shfl_down"),
    ("__shfl_xor_sync", "__shfl_xor"),
    ("__ballot_sync", "__ballot"),
    ("__any_sync", "__any"),
    ("__all_sync", "__all"),
];

/// cuBLAS enums (and their types) that cuSOLVER calls take, with hipSOLVER's names. hipSOLVER
/// before 2.0.0 (ROCm 6.0) declares its own `hipsolverFillMode_t`, `hipsolverOperation_t` and
/// `hipsolverSideMode_t`, which C++ does not convert from hipBLAS's; 2.0.0 made them aliases of
/// hipBLAS's types (hipSOLVER's CHANGELOG). `HIPSOLVER_FILL_MODE_FULL` went in 1.0.0 (ROCm 4.4).
const SOLVER_ENUMS: &[(&str, &str)] = &[
    ("cublasFillMode_t", "hipsolverFillMode_t"),
    ("CUBLAS_FILL_MODE_LOWER", "HIPSOLVER_FILL_MODE_LOWER"),
    ("CUBLAS_FILL_MODE_UPPER", "HIPSOLVER_FILL_MODE_UPPER"),
    ("cublasOperation_t", "hipsolverOperation_t"),
    ("CUBLAS_OP_N", "HIPSOLVER_OP_N"),
    ("CUBLAS_OP_T", "HIPSOLVER_OP_T"),
    ("CUBLAS_OP_C", "HIPSOLVER_OP_C"),
    ("cublasSideMode_t", "hipsolverSideMode_t"),
    ("CUBLAS_SIDE_LEFT", "HIPSOLVER_SIDE_LEFT"),
    ("CUBLAS_SIDE_RIGHT", "HIPSOLVER_SIDE_RIGHT"),
];

/// Library headers ROCm has no form of, and how their names begin (NPP's `nppiFilterBox_8u_C1R`,
/// `NppiSize`, `NPP_BORDER_REPLICATE`; nvJPEG's `nvjpegDecode`, `NVJPEG_OUTPUT_RGB`): the T007
/// report on the include lists the ones the file uses.
const LIBRARY_PREFIXES: &[(&str, &[&str])] = &[
    ("npp.h", &["npp", "Npp", "NPP_"]),
    ("nppi.h", &["nppi", "Nppi", "NPP_"]),
    ("npps.h", &["npps", "Npps", "NPP_"]),
    ("nppcore.h", &["npp", "Npp", "NPP_"]),
    ("nppdefs.h", &["Npp", "NPP_"]),
    ("nvjpeg.h", &["nvjpeg", "NVJPEG_"]),
    ("nvml.h", &["nvml", "NVML_"]),
    // A prefix ending in `::` is a namespace: the names it qualifies (`nvinfer1::IRuntime`).
    ("NvInfer.h", TENSORRT_NAMES),
    ("NvInferRuntime.h", TENSORRT_NAMES),
    ("NvInferRuntimeCommon.h", TENSORRT_NAMES),
    ("NvInferRuntimeBase.h", TENSORRT_NAMES),
    ("NvInferPlugin.h", TENSORRT_NAMES),
    ("NvInferPluginUtils.h", TENSORRT_NAMES),
    ("NvInferVersion.h", TENSORRT_NAMES),
    ("NvOnnxParser.h", TENSORRT_NAMES),
    ("NvOnnxConfig.h", TENSORRT_NAMES),
    ("NvUffParser.h", TENSORRT_NAMES),
    ("NvCaffeParser.h", TENSORRT_NAMES),
];

/// CUDA names that HIP's own headers `#define` as object-like macros: HIP 5.2.3's
/// amd_detail/amd_hip_runtime.h has `#define CUDA_SUCCESS hipSuccess` (under
/// `__HIP_CLANG_ONLY__`; still there in ROCm 6.x's clr). A project's function-like macro of such a
/// name (jetson-utils' `#define CUDA_SUCCESS(x) ...`) is kept as the project's, with `#undef
/// NAME` put on the line before it, since it would redefine HIP's (`-Wmacro-redefined`, an error
/// under `-Werror`); nvcc has no such macro, so the `#undef` does nothing there (R22-1).
const HIP_HEADER_MACROS: &[&str] = &["CUDA_SUCCESS"];

/// How TensorRT's names are written: in its namespaces, and its `NV_TENSORRT_` version macros.
const TENSORRT_NAMES: &[&str] = &[
    "nvinfer1::",
    "nvonnxparser::",
    "nvuffparser::",
    "nvcaffeparser1::",
    "NV_TENSORRT_",
];

/// What a TensorRT include's report says (R22-a): NVIDIA-only, and AMD's route (rules row of
/// extra-headers.tsv, with the sources).
const TENSORRT_ROUTE: &str = "AMD's route is MIGraphX (`migraphx/migraphx.hpp`, library `migraphx`) or ONNX Runtime with its MIGraphX (or ROCm) execution provider, each with another API: the engine building and inference code is rewritten for one of them, and the `nvinfer`, `nvinfer_plugin` and `nvonnxparser` link items go with it";

/// The hipSOLVER release (ROCm 6.0) from which its enum types are hipBLAS's.
const SOLVER_TAKES_HIPBLAS_ENUMS: Version = Version::new(6, 0, 0);

/// A call in a macro body, reported (T013) once the renames of its arguments are known: the
/// callee's name and start, the argument ranges, and the name the rename wrote, if any.
type MacroCall<'t> = (&'t str, usize, Vec<Range<usize>>, Option<String>);

/// What a report says a call of `name` with arguments `args` (as written and as the port writes
/// them, on one line) becomes by call rule `template`: "`f(a, b)` becomes `g(b)`", with the
/// rule's placeholders (`$1`, `$@2`) filled in; where they cannot be, "`f(a, b)` becomes another
/// form" that `hipport explain` shows.
fn rewritten_form(name: &str, template: &str, args: &[(String, String)]) -> String {
    let written: Vec<&str> = args.iter().map(|(w, _)| w.as_str()).collect();
    let call = format!("`{name}({})`", written.join(", "));
    let ported: Vec<&str> = args.iter().map(|(_, p)| p.as_str()).collect();
    match hipport_rules::calls::expand(template, &ported) {
        Some(form) => format!("{call} becomes `{form}`"),
        None => format!("{call} becomes another form (`hipport explain {name}` shows it)"),
    }
}

/// An argument's text on one line, as a message shows it: each line continuation (a `\` that
/// ends a line of a macro body) and each run of blanks becomes one space.
fn one_line(text: &[u8]) -> String {
    String::from_utf8_lossy(text)
        .replace("\\\r\n", " ")
        .replace("\\\n", " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// The argument ranges of the call whose argument list starts `rest` (after the callee's name),
/// split at top-level commas only (not inside brackets or template arguments: `k<N, M>` is one),
/// and the offset just past its `)`; None when `rest` does not start with a complete `( ... )`.
fn call_args(rest: &[u8]) -> Option<(Vec<Range<usize>>, usize)> {
    let open = rest.iter().position(|b| !b.is_ascii_whitespace())?;
    if rest[open] != b'(' {
        return None;
    }
    let mut args = Vec::new();
    let (mut depth, mut arg_start) = (0usize, open + 1);
    let mut i = open;
    while i < rest.len() {
        match rest[i] {
            b'"' | b'\'' => i = literal_end(rest, i)?,
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    let blank = |r: &Range<usize>| {
                        rest[r.clone()]
                            .iter()
                            .all(|b| b.is_ascii_whitespace() || *b == b'\\')
                    };
                    let last = arg_start..i;
                    if !args.is_empty() || !blank(&last) {
                        args.push(last);
                    }
                    return Some((args, i + 1));
                }
            }
            b'<' if depth >= 1 => {
                if let Some(close) = template_args_end(rest, i) {
                    i = close;
                }
            }
            b',' if depth == 1 => {
                args.push(arg_start..i);
                arg_start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset of the quote that closes the string or character literal opened at `at`.
fn literal_end(text: &[u8], at: usize) -> Option<usize> {
    let q = text[at];
    let mut i = at + 1;
    while i < text.len() {
        match text[i] {
            b'\\' => i += 1,
            b if b == q => return Some(i),
            b'\n' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The offset of the `>` that closes the template arguments opened by the `<` at `lt`, when that
/// `<` reads as one: a name right before it (`k<N, M>`, not `a < b` or `x << 2`), and its `>`
/// found before anything a template argument list cannot hold (`;`, braces, an unmatched `)`,
/// `&&`, `||`). A comparison such as `f(a<b, c>d)` is read as template arguments too.
fn template_args_end(text: &[u8], lt: usize) -> Option<usize> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let name_len = text[..lt].iter().rev().take_while(|&&b| ident(b)).count();
    if name_len == 0 || text[lt - name_len].is_ascii_digit() {
        return None;
    }
    let (mut angles, mut parens) = (1usize, 0usize);
    let mut i = lt + 1;
    if matches!(text.get(i), Some(b'<' | b'=')) {
        return None;
    }
    while i < text.len() {
        let next = text.get(i + 1).copied();
        match text[i] {
            b'"' | b'\'' => i = literal_end(text, i)?,
            b'(' | b'[' => parens += 1,
            b')' | b']' => parens = parens.checked_sub(1)?,
            b';' | b'{' | b'}' => return None,
            b'&' if next == Some(b'&') => return None,
            b'|' if next == Some(b'|') => return None,
            b'<' if parens == 0 => {
                if next == Some(b'<') {
                    i += 1;
                } else if i > 0 && ident(text[i - 1]) {
                    angles += 1;
                }
            }
            b'>' if parens == 0 && (i == 0 || text[i - 1] != b'-') => {
                angles -= 1;
                if angles == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// CUDA's legacy launch API (deprecated since CUDA 9.2; no HIP name in HIPIFY's tables): the
/// `cuParamSet*` calls copy the kernel's arguments into the function one by one,
/// `cuFuncSetBlockShape`/`cuFuncSetSharedSize` set the launch's shape, and `cuLaunch*` launch
/// it. HIP's module API launches with everything in one call, `hipModuleLaunchKernel`.
const LEGACY_LAUNCH: &[&str] = &[
    "cuParamSetSize",
    "cuParamSeti",
    "cuParamSetf",
    "cuParamSetv",
    "cuParamSetTexRef",
    "cuFuncSetBlockShape",
    "cuFuncSetSharedSize",
    "cuLaunch",
    "cuLaunchGrid",
    "cuLaunchGridAsync",
];

/// A driver-API hint on a module's function that HIP has only for a kernel's address, and that
/// AMD GPUs ignore.
struct IgnoredHint {
    /// HIP's runtime function for a kernel's address.
    hip: &'static str,
    /// What HIP's header says AMD GPUs do with the hint.
    amd: &'static str,
}

/// For a CUDA arithmetic intrinsic with a directed rounding mode that HIP lacks (`__frcp_rd`,
/// `__fsqrt_ru`, `__dadd_rz`): its round-to-nearest form (`__frcp_rn`), which HIP 5.2.3 has
/// and hipcc compiles for AMD targets, and the mode's name (realuser43 R43-2; TIGRE's HIP shim
/// makes this very substitution).
fn round_to_nearest_twin(name: &str) -> Option<(String, &'static str)> {
    const OPS: &[&str] = &[
        "fadd", "fsub", "fmul", "fdiv", "frcp", "fsqrt", "fmaf", "dadd", "dsub", "dmul", "ddiv",
        "drcp", "dsqrt", "fma",
    ];
    let (op, mode) = name.strip_prefix("__")?.rsplit_once('_')?;
    let mode = match mode {
        "rd" => "down",
        "ru" => "up",
        "rz" => "toward zero",
        _ => return None,
    };
    OPS.contains(&op).then(|| (format!("__{op}_rn"), mode))
}

/// The driver-API hints whose only sensible port is their removal: `cuFuncSetCacheConfig`
/// (HIP's `hipFuncSetCacheConfig(const void*, hipFuncCache_t)`: "AMD devices and some Nvidia
/// GPUS do not support reconfigurable cache. This hint is ignored on those architectures",
/// hip_runtime_api.h) and `cuFuncSetSharedMemConfig` (`hipFuncSetSharedMemConfig`: "AMD
/// devices and some Nvidia GPUS do not support shared cache banking, and the hint is ignored").
/// HIP has no form of either taking a `hipFunction_t`. Their arguments keep their CUDA names, so
/// the call reads as one thing to delete (R28-1).
fn ignored_function_hint(name: &str) -> Option<IgnoredHint> {
    match name {
        "cuFuncSetCacheConfig" => Some(IgnoredHint {
            hip: "hipFuncSetCacheConfig",
            amd: "do not support reconfigurable cache, and the hint is ignored",
        }),
        "cuFuncSetSharedMemConfig" => Some(IgnoredHint {
            hip: "hipFuncSetSharedMemConfig",
            amd: "do not support shared cache banking, and the hint is ignored",
        }),
        _ => None,
    }
}

/// Whether an identifier looks like a CUDA API name.
fn looks_like_cuda(name: &str) -> bool {
    // Every prefix below begins with `c` or `n` (most identifiers are passed over here).
    if !matches!(name.as_bytes().first(), Some(b'c' | b'n')) {
        return false;
    }
    let after = |p: &str| name.strip_prefix(p).and_then(|r| r.chars().next());
    matches!(after("cuda"), Some(c) if c.is_ascii_uppercase())
        || matches!(after("cu"), Some(c) if c.is_ascii_uppercase())
        || [
            "cublas", "cusparse", "curand", "cufft", "cusolver", "cudnn", "nvtx",
        ]
        .iter()
        .any(|p| {
            matches!(after(p), Some(c) if c.is_ascii_uppercase() || c == '_')
                || name.strip_prefix(p).is_some_and(library_number)
        })
}

/// Whether the rest of a name after a CUDA library's prefix is a number that ends it or runs on
/// into `_` or a capital (`curand4`, `cublas2_X`): the library's names are spelled so, while
/// `cufft3d` or `curand2x` read as a person's own words. `cuda11` and `cu2` are not looked at
/// here: version numbers kept in variables look like that.
fn library_number(rest: &str) -> bool {
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0
        && rest[digits..]
            .bytes()
            .next()
            .is_none_or(|c| c == b'_' || c.is_ascii_uppercase())
}

/// Per-file state of the walk.
struct Walk<'a> {
    src: &'a [u8],
    /// `src` as text, when it is valid UTF-8 (node texts are then slices at char boundaries).
    text: Option<&'a str>,
    file: &'a str,
    /// The file's path relative to the input root, when known (for renamed includes).
    rel: Option<&'a str>,
    opts: &'a Options,
    db: &'a Database,
    index: LineIndex,
    edits: Vec<Edit>,
    diags: Vec<Diagnostic>,
    renames: BTreeMap<String, usize>,
    aliases: BTreeMap<String, String>,
    /// Start bytes of identifiers already handled by a call-level rewrite.
    handled: HashSet<usize>,
    /// Simple object-like macros of this file: name -> value text.
    defines: HashMap<String, String>,
    /// Where each of `defines` has its (trimmed) value text.
    define_spans: HashMap<String, (usize, usize)>,
    /// Every definition of each object-like macro that `defines` took in turn, in file order:
    /// where the directive starts, its value and the value's span. A name the file `#undef`s
    /// and defines again has at a use the definition in force there (V17-c).
    define_history: HashMap<String, Vec<DefineAt>>,
    /// Function-like macros of this file (the definition hipcc compiles, else the last), for
    /// lane masks passed through them (`__shfl_sync(ALL_LANES(), ...)`; V17-b).
    fn_defines: HashMap<String, FnDefine>,
    /// Where the values of the macros whose 32-bit full mask was widened for HIP >= 6.2 start.
    widened: HashSet<usize>,
    /// Whether each macro used as a lane mask is a full mask (its body is parsed once).
    mask_macros: HashMap<String, bool>,
    /// Macros whose every use is a widened `_sync` mask (see `only_masks`), by name.
    mask_only_macros: HashMap<String, bool>,
    /// Names this file declares (functions, macros, variables, types).
    declared: HashSet<String>,
    /// Where this file declares or defines a function under a name the rules know (a project's
    /// own `__shfl_down_sync` overload or ROCm shim), or `#define`s such a name as a HIP one
    /// (`#define cudaMalloc hipMalloc`, a project's own CUDA-to-HIP header): that name is the
    /// project's, left as it is.
    own_functions: Vec<usize>,
    /// The names of those functions: a use calls the project's function, so that a name HIP
    /// lacks (`__vsubss4` in a project's own HIP header) is no loss.
    own_function_names: HashSet<String>,
    /// Names the rules know that this file, or a project header it includes, defines as a
    /// function-like macro in a branch hipcc compiles (a ROCm shim's `#define
    /// __shfl_down_sync(m, v, d) __shfl_down(v, d)`, jetson-utils' `#define CUDA_SUCCESS(x)`):
    /// the name followed by `(` is the project's macro, left as it is (R22-b, R22-1).
    own_macros: HashSet<String>,
    /// Whether the project headers' function-like macros were added to `own_macros`.
    header_shims_read: bool,
    /// Calls of `own_macros` names (call ranges): what the analysis says of their lane masks
    /// is about the project's macro, not a builtin.
    own_macro_calls: Vec<Range<usize>>,
    /// CUDA type names this file typedefs to a type whose HIP name is that of the typedef
    /// (warp-ctc's `typedef struct hipStream_t* CUstream;`): renamed, the typedef would
    /// redeclare HIP's type as something else, so the name stays the project's in this file.
    own_types: HashSet<String>,
    /// CUDA type names this file declares as a variable, parameter or field (`cublasStatus_t
    /// cublasStatus;`, where `cublasStatus` is also a legacy cuBLAS type): every use of the name
    /// as a plain identifier is that object, the project's own, and keeps its name.
    own_objects: HashSet<String>,
    /// CUDA names this file `#define`s whatever the build (`#define CUDART_INF_F
    /// __int_as_float(0x7f800000)` without math_constants.h): where the target HIP lacks the
    /// name, the project's macro serves hipcc as it is, so the name stays, unreported.
    defined_here: HashSet<String>,
    /// CUDA names this file `#define`s anywhere: in a branch hipcc skips, a report on one is
    /// about the project's own macro, not a CUDA API.
    defined_anywhere: HashSet<String>,
    /// Function templates this file declares: a thread index passed to one deduces HIP's
    /// coordinate type, not `unsigned`.
    templates: HashSet<String>,
    /// Unknown CUDA-looking names already reported.
    reported_unknown: HashSet<String>,
    /// Names T006 would report, each with whether a project header the file includes defines
    /// it (see [`Walk::header_defines`]).
    header_names: HashMap<String, bool>,
    /// The project's headers, read for [`Walk::header_defines`] where the run shares none.
    own_header_facts: Option<Arc<crate::header_facts::HeaderFacts>>,
    /// Uses of CUDA's legacy launch API ([`LEGACY_LAUNCH`]): name and start, reported together
    /// once per file by [`Walk::report_legacy_launch`] (R28-1).
    legacy_launch: Vec<(String, usize)>,
    /// Call sites whose shape is rewritten after the walk.
    call_sites: Vec<CallSite>,
    /// Callees (by start) of calls that only a newer HIP than the target has a rewrite for: the
    /// release it needs and what the call becomes there ([`rewritten_form`]).
    later_rewrites: HashMap<usize, (Version, String)>,
    /// The argument ranges of every call of a name with call rules (see [`FileResult`]).
    rule_call_args: Vec<Vec<Range<usize>>>,
    /// HIP headers already included, per conditional scope (parent node id).
    included: HashSet<(usize, String)>,
    has_device_code: bool,
    /// Where device code was seen (the first [`DEVICE_MARKS`]), to tell whether all of it sits
    /// in branches for CUDA compilers only.
    device_marks: Vec<usize>,
    /// Object-like macros read from the file's quoted includes (`None` until first needed),
    /// added to `defines` where the file does not define the name itself.
    header_macros: Option<HashSet<String>>,
    /// Whether the macros of the files including this one were read (see
    /// [`Walk::load_header_macros`]).
    includers_read: bool,
    /// Mask names reported as unseen (see [`Walk::unseen_mask`]).
    unseen_masks: HashSet<String>,
    /// Whether a quoted include of a CUDA header name was looked for among the project's files
    /// (see `finds_project_file`): the result then depends on more than this file.
    looked_for_project_headers: bool,
    /// The initializers of the file's constants asked about as masks (`constexpr unsigned
    /// kFull = 0xffffffffu;`), or `None` where there is none, each looked up once; keyed by
    /// the name and where its scope starts: a function's first byte, or `usize::MAX` for the file.
    const_values: HashMap<(String, usize), Option<String>>,
    has_runtime_include: bool,
    /// Whether a name of the CUDA runtime, driver or device API was renamed in code or a macro
    /// body (`cudaGetLastError`, `cudaError_t`), device code or not: HIP declares the new
    /// names in `hip/hip_runtime.h`.
    uses_runtime_names: bool,
    /// The first rocTX name an NVTX name became in code or a macro body (`roctxRangePushA`),
    /// with where it is: the file needs `roctracer/roctx.h` (T019).
    roctx_use: Option<(usize, String, String)>,
    /// Whether the file includes rocTX's header (or NVTX's, which becomes it).
    has_roctx_include: bool,
    /// Start of an unterminated block comment: nothing from here on is renamed.
    dead_from: usize,
    /// Whether the file includes the legacy cuBLAS header (`cublas.h`) and not `cublas_v2.h`:
    /// its BLAS calls are the handle-less v1 functions (see [`legacy_cublas`]).
    legacy_cublas: bool,
}

/// One definition of an object-like macro (see `Walk::define_history`): where the directive
/// starts, its value, and where the value stands.
type DefineAt = (usize, String, (usize, usize));

/// A function-like macro of the file (see `Walk::fn_defines`).
#[derive(Clone, Debug)]
struct FnDefine {
    /// Its parameters, in order (none for `ALL_LANES()`).
    params: Vec<String>,
    /// Its body, a trailing comment left off, line continuations as blanks, trimmed.
    value: String,
    /// Where the body stands in the file.
    span: (usize, usize),
}

impl FnDefine {
    /// Function-like macro definition `def` (a `preproc_function_def`), where its parameters
    /// are plain names (not `...`).
    fn of(def: Node, src: &[u8]) -> Option<FnDefine> {
        let params = node_text(def.field(FIELDS.parameters)?, src);
        let inner = params.trim().strip_prefix('(')?.strip_suffix(')')?;
        let params: Vec<String> = match inner.trim() {
            "" => Vec::new(),
            list => list.split(',').map(|p| p.trim().to_string()).collect(),
        };
        if !params.iter().all(|p| is_plain_identifier(p)) {
            return None;
        }
        let v = def.field(FIELDS.value)?;
        let (lead, value) = define_value_text(node_text(v, src));
        let start = v.start_byte() + lead;
        Some(FnDefine {
            params,
            value: value.replace('\\', " "),
            span: (start, start + value.len()),
        })
    }

    /// Whether the body's value has a 32-bit type whatever the arguments (`((unsigned)(m))`):
    /// the analysis reports such a call itself (H003, from the body's type), unless the body
    /// is a lone integer, which it does not parse.
    fn fixes_32_bits(&self) -> bool {
        if crate::analysis::is_int_literal(self.value.as_bytes()) {
            return false;
        }
        let wide = vec!["0xffffffffffffffffull".to_string(); self.params.len()];
        substitute_params(&self.value, &self.params, &wide)
            .and_then(|t| MaskClass::of(&t))
            .is_some_and(|c| matches!(c, MaskClass::Full32 | MaskClass::Partial32))
    }

    /// Whether the macro only passes its one argument on (`#define FMASK(x) (x)`).
    fn is_identity(&self) -> bool {
        let body = self.value.trim();
        let mut inner = body;
        while let Some(i) = inner.strip_prefix('(').and_then(|i| i.strip_suffix(')')) {
            inner = i.trim();
        }
        matches!(self.params.as_slice(), [p] if p == inner)
    }
}

/// `body` with each of `params`, as a whole word outside comments and literals, replaced by the
/// matching argument of `args` in parentheses; `None` where the body stringizes or pastes
/// (`#`, `##`), which this does not follow.
fn substitute_params(body: &str, params: &[String], args: &[String]) -> Option<String> {
    if body.contains('#') {
        return None;
    }
    let mut out = String::with_capacity(body.len());
    let mut last = 0;
    for id in lexer::identifiers(body.as_bytes()) {
        if let Some(i) = params.iter().position(|p| *p == body[id.clone()]) {
            out.push_str(&body[last..id.start]);
            out.push('(');
            out.push_str(&args[i]);
            out.push(')');
            last = id.end;
        }
    }
    out.push_str(&body[last..]);
    Some(out)
}

/// What a lane mask's text names, read as a constant (see [`crate::analysis::text_mask`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum MaskClass {
    /// Every lane of a 32-lane warp, in a 32-bit (or 64-bit) value.
    Full32,
    /// Every lane of a 64-lane wavefront.
    Full64,
    /// Some lanes, in a value of 32 bits.
    Partial32,
    /// Some lanes, in a 64-bit value.
    Partial64,
}

impl MaskClass {
    fn of(text: &str) -> Option<MaskClass> {
        let (value, wide) = crate::analysis::text_mask(text.as_bytes())?;
        Some(if wide && value == u64::MAX {
            MaskClass::Full64
        } else if value & 0xffff_ffff == 0xffff_ffff && (!wide || value >> 32 == 0) {
            MaskClass::Full32
        } else if wide {
            MaskClass::Partial64
        } else {
            MaskClass::Partial32
        })
    }
}

/// A call whose whole text is rebuilt from a template once inner renames are known.
struct CallSite {
    start: usize,
    end: usize,
    /// The argument list, parentheses included.
    list: (usize, usize),
    args: Vec<(usize, usize)>,
    template: String,
    rule: String,
}

fn node_text<'s>(n: Node, src: &'s [u8]) -> &'s str {
    std::str::from_utf8(parse::text(n, src)).unwrap_or("")
}

/// What the translation walk does with a node kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tk {
    Other,
    /// Comments and strings: nothing inside is renamed.
    Opaque,
    Error,
    Include,
    MacroBody,
    DeviceKeyword,
    Call,
    Namespace,
    Ident,
}

static WALK_KINDS: LazyLock<KindTable<Tk>> = LazyLock::new(|| {
    KindTable::new(
        Tk::Other,
        &[
            ("comment", Tk::Opaque),
            ("string_literal", Tk::Opaque),
            ("raw_string_literal", Tk::Opaque),
            ("char_literal", Tk::Opaque),
            ("system_lib_string", Tk::Opaque),
            ("concatenated_string", Tk::Opaque),
            ("ERROR", Tk::Error),
            ("preproc_include", Tk::Include),
            ("preproc_arg", Tk::MacroBody),
            ("__global__", Tk::DeviceKeyword),
            ("__device__", Tk::DeviceKeyword),
            ("__shared__", Tk::DeviceKeyword),
            ("__constant__", Tk::DeviceKeyword),
            ("__managed__", Tk::DeviceKeyword),
            ("call_expression", Tk::Call),
            ("namespace_identifier", Tk::Namespace),
            ("identifier", Tk::Ident),
            ("type_identifier", Tk::Ident),
            // A qualifier keyword of the grammar with no HIP counterpart: looked up like a name.
            ("__grid_constant__", Tk::Ident),
        ],
    )
});

/// The kinds this walk, its declaration pass and the hazard analysis react to: the node list
/// they share holds only these.
static WALKED_KINDS: LazyLock<parse::KindSet> = LazyLock::new(|| {
    parse::KindSet::new(|id| {
        WALK_KINDS.reacts_to(id) || DECL_KINDS.reacts_to(id) || crate::analysis::reacts_to(id)
    })
});

/// CUDA's `__grid_constant__` parameter qualifier, which the translation removes (see
/// `Translator::remove_grid_constant`).
pub const GRID_CONSTANT: &str = "__grid_constant__";

/// What the declaration pass does with a node kind.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dk {
    Other,
    Define,
    FunctionDefine,
    /// Declares through its `name` field.
    Named,
    /// Declares through its `declarator` field.
    Declarator,
    /// A template: a function template's name is noted.
    Template,
}

static DECL_KINDS: LazyLock<KindTable<Dk>> = LazyLock::new(|| {
    KindTable::new(
        Dk::Other,
        &[
            ("preproc_def", Dk::Define),
            ("preproc_function_def", Dk::FunctionDefine),
            ("struct_specifier", Dk::Named),
            ("class_specifier", Dk::Named),
            // A project's `enum cudaModeSel {...}`, `union`, `using cudaRealT = float;`.
            ("enum_specifier", Dk::Named),
            ("union_specifier", Dk::Named),
            ("alias_declaration", Dk::Named),
            ("enumerator", Dk::Named),
            ("function_declarator", Dk::Declarator),
            ("init_declarator", Dk::Declarator),
            ("type_definition", Dk::Declarator),
            ("declaration", Dk::Declarator),
            ("parameter_declaration", Dk::Declarator),
            ("field_declaration", Dk::Declarator),
            ("template_declaration", Dk::Template),
        ],
    )
});

/// Kinds the declaration pass and the launch rewrite look for below a node (see
/// [`parse::launch_config`] for the configuration itself).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Sub {
    Other,
    /// `identifier`.
    Identifier,
    /// `type_identifier` or `field_identifier`.
    OtherName,
    Comment,
}

static SUB_KINDS: LazyLock<KindTable<Sub>> = LazyLock::new(|| {
    KindTable::new(
        Sub::Other,
        &[
            ("identifier", Sub::Identifier),
            ("type_identifier", Sub::OtherName),
            ("field_identifier", Sub::OtherName),
            ("comment", Sub::Comment),
        ],
    )
});

impl<'a> Walk<'a> {
    fn new(src: &'a [u8], file: &'a str, rel: Option<&'a str>, opts: &'a Options) -> Walk<'a> {
        Walk {
            src,
            text: std::str::from_utf8(src).ok(),
            file,
            rel,
            opts,
            db: opts.db(),
            index: LineIndex::new(src),
            edits: Vec::new(),
            diags: Vec::new(),
            renames: BTreeMap::new(),
            aliases: BTreeMap::new(),
            handled: HashSet::new(),
            defines: STANDARD_MASK_MACROS
                .iter()
                .map(|(n, v)| (n.to_string(), v.to_string()))
                .collect(),
            define_spans: HashMap::new(),
            define_history: HashMap::new(),
            fn_defines: HashMap::new(),
            widened: HashSet::new(),
            mask_macros: HashMap::new(),
            mask_only_macros: HashMap::new(),
            declared: HashSet::new(),
            own_functions: Vec::new(),
            own_function_names: HashSet::new(),
            own_macros: HashSet::new(),
            header_shims_read: false,
            own_macro_calls: Vec::new(),
            own_types: HashSet::new(),
            own_objects: HashSet::new(),
            defined_here: HashSet::new(),
            defined_anywhere: HashSet::new(),
            templates: HashSet::new(),
            reported_unknown: HashSet::new(),
            header_names: HashMap::new(),
            own_header_facts: None,
            legacy_launch: Vec::new(),
            call_sites: Vec::new(),
            later_rewrites: HashMap::new(),
            rule_call_args: Vec::new(),
            included: HashSet::new(),
            has_device_code: false,
            device_marks: Vec::new(),
            header_macros: None,
            includers_read: false,
            unseen_masks: HashSet::new(),
            looked_for_project_headers: false,
            const_values: HashMap::new(),
            has_runtime_include: false,
            uses_runtime_names: false,
            roctx_use: None,
            has_roctx_include: false,
            dead_from: usize::MAX,
            legacy_cublas: legacy_cublas(src),
        }
    }

    /// The text of a node; "" when it is not UTF-8 (as [`node_text`]).
    fn node_str(&self, n: Node) -> &'a str {
        match self.text {
            Some(t) => t.get(n.byte_range()).unwrap_or(""),
            None => node_text(n, self.src),
        }
    }

    /// The part of the text between two launch-configuration arguments to replace: all of it,
    /// or only up to the comma when a line break follows (so lines and `\\` continuations stay).
    fn separator(&self, a: usize, b: usize) -> (usize, usize) {
        let between = &self.src[a..b];
        match between.iter().position(|&c| c == b',') {
            Some(i) if between[i..].contains(&b'\n') => (a, a + i + 1),
            _ => (a, b),
        }
    }

    /// Rewrites the launches in a macro body by parsing the body as the body of a function.
    /// Returns false when a launch could not be found in the parse (it is then left as it is).
    fn macro_launches(&mut self, text: &[u8], base: usize) -> bool {
        const PREFIX: &[u8] = b"void hipport_macro_body_() {\n";
        let mut wrapped = PREFIX.to_vec();
        wrapped.extend_from_slice(text);
        wrapped.extend_from_slice(b"\n;}\n");
        let Ok(tree) = parse::parse(&wrapped, self.opts.parse_budget) else {
            return false;
        };
        let wanted = text.windows(3).filter(|w| *w == b"<<<").count();
        let mut sub = Walk::new(&wrapped, self.file, self.rel, self.opts);
        let mut found = 0;
        let calls = parse::Flat::new(tree.root_node()).nodes;
        for &n in calls.iter().filter(|n| n.kind_name() == "call_expression") {
            if let Some(config) = parse::launch_config(n, &wrapped) {
                let before = sub.edits.len();
                sub.visit_launch(n, config);
                if sub.edits.len() > before {
                    found += 1;
                }
            }
        }
        if found != wanted {
            return false;
        }
        let (lo, hi) = (PREFIX.len(), PREFIX.len() + text.len());
        if sub.edits.iter().any(|e| e.start < lo || e.end > hi) {
            return false;
        }
        for mut e in sub.edits {
            e.start = e.start - lo + base;
            e.end = e.end - lo + base;
            self.edits.push(e);
        }
        true
    }

    /// Whether a project header the file includes (directly or through other headers) defines
    /// `name` as a macro, function, type or variable: the name is then the project's own, as
    /// it is where the file defines it (pmph's `cudaCheckError()` from its `helper.cu.h`,
    /// realuser40 R40-2). Asked once per name; where the file reaches a project header, the
    /// result depends on it.
    fn header_defines(&mut self, name: &str) -> bool {
        if let Some(&known) = self.header_names.get(name) {
            return known;
        }
        let Some(rel) = self.rel else {
            return false;
        };
        let facts = match &self.opts.header_facts {
            Some(f) => Arc::clone(f),
            None => {
                let file = std::path::Path::new(self.file);
                let up = rel.split('/').count();
                let Some(root) = file.ancestors().nth(up) else {
                    return false;
                };
                let opts = self.opts;
                Arc::clone(self.own_header_facts.get_or_insert_with(|| {
                    Arc::new(crate::header_facts::HeaderFacts::new(
                        root.to_path_buf(),
                        opts.include_search.clone(),
                        opts.defines.clone(),
                        opts.parse_budget,
                    ))
                }))
            }
        };
        let found = match facts.header_defines(self.src, rel, name) {
            Some(found) => {
                // The result depends on the tree's other files now.
                self.looked_for_project_headers = true;
                found
            }
            None => false,
        };
        self.header_names.insert(name.to_string(), found);
        found
    }

    /// Adds to `own_macros` the function-like macros of names the rules know that the project
    /// headers the file includes define in a branch hipcc compiles (LightGBM's
    /// cuda_rocm_interop.h, jetson-utils' cudaUtility.h), once per file.
    fn read_header_shims(&mut self) {
        if std::mem::replace(&mut self.header_shims_read, true) {
            return;
        }
        let file = std::path::Path::new(self.file);
        let root = self.rel.and_then(|rel| {
            let up = rel.split('/').count();
            file.ancestors().nth(up).map(std::path::Path::to_path_buf)
        });
        let dir = file
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default();
        let db = self.db;
        let found = crate::headers::include_function_macros(
            self.src,
            &dir,
            root.as_deref(),
            &|name| db.lookup(name).is_some(),
            &self.opts.defines,
            self.opts.hip_version,
            self.opts.parse_budget,
        );
        if !found.is_empty() {
            // The result depends on the tree's other files now.
            self.looked_for_project_headers = true;
        }
        self.own_macros.extend(found);
    }

    /// Whether a lane mask names every lane; a macro's answer is remembered, since deciding it
    /// parses the macro's body.
    fn is_full_mask(&mut self, mask: Node) -> bool {
        // A call of a function-like macro of the file (`ALL_LANES()`, `FMASK(0xffffffff)`): what
        // it expands to (V17-b).
        if let Some((_, _, class)) = self.macro_call_mask(mask) {
            return matches!(class, Some(MaskClass::Full32 | MaskClass::Full64));
        }
        let name = node_text(mask, self.src)
            .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace());
        self.load_header_macros(name);
        // The variable the scopes around the call declare (R34-d: `mask` of one block is not
        // the `mask` of its sibling block).
        if let Some(d) = declaration_in_scope(self.src, name, mask) {
            return match scoped_constant(self.src, &d) {
                Some(value) => {
                    let single = HashMap::from([(name.to_string(), value)]);
                    is_full_lane_mask_with(mask, self.src, &single)
                }
                None => false,
            };
        }
        if !self.defines.contains_key(name) {
            // A constant of the call's own function first (`const unsigned mask = 0xffffffff;`
            // in each of several helpers: R22-c), then of the file (`constexpr unsigned kFull =
            // 0xffffffffu;`), each read once.
            let src = self.src;
            let scope = std::iter::successors(mask.parent(), |p| p.parent())
                .find(|p| p.kind_name() == "function_definition")
                .map(|f| f.start_byte()..f.end_byte());
            let in_function = scope.and_then(|r| {
                self.const_values
                    .entry((name.to_string(), r.start))
                    .or_insert_with(|| const_initializer(&src[r], name))
                    .clone()
            });
            let value = match in_function {
                Some(v) => Some(v),
                None => self
                    .const_values
                    .entry((name.to_string(), usize::MAX))
                    .or_insert_with(|| const_initializer(src, name))
                    .clone(),
            };
            if let Some(value) = &value {
                let single = HashMap::from([(name.to_string(), value.clone())]);
                return is_full_lane_mask_with(mask, self.src, &single);
            }
        }
        // A name the file `#undef`s and defines again: the definition in force here (V17-c).
        if let Some(in_force) = self.define_in_force(name, mask.start_byte()) {
            let mut defines = self.defines.clone();
            match in_force {
                Some((value, _)) => defines.insert(name.to_string(), value),
                None => defines.remove(name),
            };
            return is_full_lane_mask_with(mask, self.src, &defines);
        }
        if let Some(&full) = self.mask_macros.get(name) {
            return full;
        }
        let full = is_full_lane_mask_with(mask, self.src, &self.defines);
        if self.defines.contains_key(name) {
            self.mask_macros.insert(name.to_string(), full);
        }
        full
    }

    fn diag(&mut self, info: &DiagInfo, offset: usize, message: String, help: Option<String>) {
        self.diags.push(Diagnostic::at(
            info,
            self.file,
            &self.index,
            offset,
            message,
            help,
        ));
    }

    /// [`Walk::diag`] at warning level, for a rule whose report is a warning in this case.
    fn warn(&mut self, info: &DiagInfo, offset: usize, message: String, help: Option<String>) {
        self.diag(info, offset, message, help);
        if let Some(d) = self.diags.last_mut() {
            d.severity = Severity::Warning;
        }
    }

    fn count(&mut self, family: Family) {
        *self.renames.entry(family.as_str().to_string()).or_default() += 1;
    }

    /// Renames one identifier at `start..end` if the rules know it.
    fn rename_ident(&mut self, name: &str, start: usize, end: usize) {
        if NEVER_RENAME.contains(&name) {
            return;
        }
        if parse::is_calling_convention(name) {
            // `remove_callback_conventions` decides, by text, where one goes.
            return;
        }
        if self.libcupp_atomic_use(name, start) {
            return;
        }
        // `using namespace c10::cuda;` ends in an identifier, not a namespace name.
        if names_namespace(self.src, start, end) && self.rename_namespace(start, end) {
            return;
        }
        if self.rename_torch_member(name, start, end) {
            return;
        }
        if self.legacy_cublas && self.legacy_cublas_call(name, start) {
            return;
        }
        // A function the file declares itself (`mine::cusparseGetErrorString`) is the
        // project's: its calls, declaration and definition keep the name, unreported.
        if self.own_function_names.contains(name) {
            return;
        }
        // The project's function-like macro (its definition and calls, and `#undef NAME`); the
        // name as a value (`r == CUDA_SUCCESS`) is still the API's.
        let line = memchr::memrchr(b'\n', &self.src[..start]).map_or(0, |i| i + 1);
        if self.own_macros.contains(name)
            && undef_of(&self.src[line..end]).is_some_and(|n| n == name.as_bytes())
        {
            return;
        }
        if self.src[end..].trim_ascii_start().starts_with(b"(") {
            // A CUDA constant written as a call is a project's macro, maybe a header's
            // (jetson-utils' cudaUtility.h defines `CUDA_SUCCESS(x)` for its other headers).
            if name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            {
                self.read_header_shims();
            }
            if self.own_macros.contains(name) {
                return;
            }
        }
        let db = self.db;
        let v = self.opts.hip_version;
        match db.target_for(name, &self.opts.libs, v) {
            Target::Unknown => {
                if looks_like_cuda(name)
                    && !self.declared.contains(name)
                    && !member_or_qualified(self.src, start)
                    && !self.reported_unknown.contains(name)
                    && !self.header_defines(name)
                    && self.reported_unknown.insert(name.to_string())
                {
                    self.diag(
                        &UNKNOWN_NAME,
                        start,
                        format!("`{name}` looks like a CUDA API name but is not in the rules database"),
                        Some("if it is a CUDA API, add a rule with `--rules FILE`; if it is your own name, ignore this".into()),
                    );
                }
            }
            Target::Unsupported { .. }
                if self.own_function_names.contains(name) || self.defined_here.contains(name) => {}
            Target::Unsupported { mapping, .. } => {
                if let Some((added, becomes)) = self.later_rewrites.get(&start).cloned() {
                    self.diag(
                        &TOO_NEW,
                        start,
                        format!("{becomes} only from HIP {added}; the target is HIP {v}"),
                        Some(format!(
                            "target a newer HIP with `--hip-version {}.{}`, or avoid `{name}`",
                            added.major, added.minor
                        )),
                    );
                    return;
                }
                if LEGACY_LAUNCH.contains(&name) {
                    self.legacy_launch.push((name.to_string(), start));
                    return;
                }
                let (message, help) = self.why_not(mapping, &UNSUPPORTED);
                self.diag(&UNSUPPORTED, start, message, Some(help));
            }
            Target::Name {
                name: new,
                lib,
                mapping: m,
            } => {
                // The roc* columns count in ROCm releases, which HIP's numbers follow.
                let status = if lib == Lib::Hip {
                    m.status_for(v)
                } else {
                    m.roc_status_for(v)
                };
                if lib == Lib::Roc && status != Availability::Available {
                    self.roc_not_available(m, new, status.clone(), start);
                    if !matches!(status, Availability::Deprecated { .. }) {
                        return;
                    }
                }
                match status {
                    _ if lib == Lib::Roc => {}
                    Availability::TooNew { .. }
                    | Availability::Absent { .. }
                    | Availability::Removed { .. }
                    | Availability::Missing
                        if self.defined_here.contains(name) =>
                    {
                        return;
                    }
                    Availability::TooNew { .. } | Availability::Absent { .. } => {
                        let (message, help) = self.why_not(m, &TOO_NEW);
                        self.diag(&TOO_NEW, start, message, Some(help));
                        return;
                    }
                    Availability::Removed { .. } => {
                        let (message, help) = self.why_not(m, &REMOVED);
                        self.diag(&REMOVED, start, message, Some(help));
                        return;
                    }
                    Availability::Missing => {
                        let (message, help) = self.why_not(m, &UNSUPPORTED);
                        self.diag(&UNSUPPORTED, start, message, Some(help));
                        return;
                    }
                    // HIPIFY dates hipSPARSE's deprecations by its DEPRECATED_CUDA_9000 ..
                    // _12000 marks, which hipsparse.h (2.3.2, and the split headers of ROCm 6.x
                    // and 7.x) defines as empty unless it builds for the NVIDIA backend: on AMD
                    // the functions are not deprecated, and hipcc says nothing (U3).
                    Availability::Deprecated { .. } if m.family == Family::Cusparse => {}
                    Availability::Deprecated { since, replacement } => {
                        let help = match replacement {
                            Some(r) => format!("use `{r}` instead"),
                            None => format!("see `hipport explain {name}` and plan a replacement"),
                        };
                        self.diag(
                            &DEPRECATED,
                            start,
                            format!("`{name}` became `{new}`, which HIP deprecates since {since}"),
                            Some(help),
                        );
                    }
                    Availability::Experimental => {
                        self.diag(
                            &EXPERIMENTAL,
                            start,
                            format!("`{name}` became `{new}`, which is experimental in HIP"),
                            None,
                        );
                    }
                    Availability::Available => {}
                }
                if lib == Lib::Roc {
                    self.roc_call_shape(m, new, start);
                }
                // The HIP name's form changed after the target (V20-b): at each call, as the
                // analysis may find one call fits the older form (cuTENSOR 1.x's handle, a T033
                // note that replaces the warning there) and a later one does not (V22-c); the
                // report folds the repeats of a file.
                // hipSPARSE's 6.0 changes made the generic API's descriptors `const` (CUDA 12's
                // form): a call with the older, non-const descriptors compiles with both, as the
                // corpus's cusparse_spmv.cu does with HIP 5.2.3, so those rows say nothing.
                let changed = m
                    .hip_changed
                    .filter(|c| lib == Lib::Hip && *c > v && m.family != Family::Cusparse);
                if let Some(changed) = changed {
                    let message = format!("`{name}` became `{new}`, whose signature changed in HIP {changed}: the target, HIP {v}, has the older form, which may take other arguments");
                    let help = format!("check the call against `{new}` in the target's headers and adapt its arguments, or target HIP {changed} or newer (`--hip-version {changed}`); code written for the CUDA library's older form, which the older HIP form follows (cuTENSOR 1.x: `cutensorHandle_t *h; cutensorCreate(&h)`), already fits it; `hipport explain {name}` shows the versions");
                    self.diag(&SIGNATURE_CHANGED, start, message, Some(help));
                }
                self.half_blas_pointers(m, new, start);
                if new != name && !condition_names(self.src, start, new) {
                    let family = m.family;
                    // Code or a macro body, not a directive's test (`#if defined(__CUDACC__)`).
                    if matches!(family, Family::Runtime | Family::Driver | Family::Device)
                        && (!parse::in_directive(self.src, start)
                            || parse::in_define_body(self.src, start))
                    {
                        self.uses_runtime_names = true;
                    }
                    if family == Family::Nvtx
                        && new.starts_with("roctx")
                        && self.roctx_use.is_none()
                        && (!parse::in_directive(self.src, start)
                            || parse::in_define_body(self.src, start))
                    {
                        self.roctx_use = Some((start, name.to_string(), new.to_string()));
                    }
                    self.aliases.insert(name.to_string(), new.to_string());
                    self.edits
                        .push(Edit::replace(start, end, new, family.as_str()));
                    self.count(family);
                }
            }
        }
    }

    /// Reports (T007, once per name and file) a use of libcu++'s atomics (`cuda::atomic_ref`,
    /// `cuda::memory_order_relaxed`, `cuda::thread_scope_device`, `cuda::std::atomic`), which
    /// HIP lacks: the include that declares them may sit in a third-party header (cuCollections'
    /// `<cuco/static_map.cuh>`), where the include's own report never reaches the user (I-j).
    /// The help is the gist of `hipport explain` for the header; the message names the builtin's
    /// argument for an order or scope. Returns whether `name` was such a use (it stays as it is).
    fn libcupp_atomic_use(&mut self, name: &str, start: usize) -> bool {
        // By name first: reading the scope before every renamed identifier costs (+1.4% of a
        // whole run's instructions).
        if !libcupp_atomic_name(name) {
            return false;
        }
        let scope = scope_before(self.src, start);
        let Some(header) = libcupp_atomic_header(&scope, name) else {
            return false;
        };
        if !self.reported_unknown.insert(format!("T007:{scope}{name}")) {
            return true;
        }
        let builtin = libcupp_builtin_argument(name)
            .map(|b| format!("; the clang builtins take `{b}` for it"))
            .unwrap_or_default();
        self.diag(
            &UNSUPPORTED_HEADER,
            start,
            format!(
                "`{scope}{name}` is libcu++'s (`<{header}>`), which HIP does not provide{builtin}; the name is left as it is"
            ),
            Some(format!(
                "use HIP's atomicAdd/atomicCAS/atomicMax or the clang builtins (`__hip_atomic_fetch_add(&x, 1, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT)` for a relaxed device-scope `fetch_add`; `__HIP_MEMORY_SCOPE_WORKGROUP` for block scope, `__HIP_MEMORY_SCOPE_SYSTEM` for system), or put ROCm's libhipcxx on the include path; `hipport explain {header}` says more"
            )),
        );
        true
    }

    /// `__ffs(__ballot_sync(m, p) & mask)` and `__popc(__ballot(p))` become `__ffsll(...)` and
    /// `__popcll(...)`: HIP's `__ballot` returns `unsigned long long` on every target, wave32
    /// included, and HIP 5.2.3 has only `__ffs(int)`/`__ffs(unsigned)` ("call to '__ffs' is
    /// ambiguous", gfx90a and gfx1030) and `__popc(unsigned)` (the upper 32 lanes dropped). The
    /// 64-bit forms are exact on both wavefront sizes. Returns whether the call was one (I-l).
    fn widen_ballot_bit_op(&mut self, name: &str, func: Node, call: Node) -> bool {
        let Some(wide) = wide_bit_op(name) else {
            return false;
        };
        let Some(args) = call.field(FIELDS.arguments) else {
            return false;
        };
        if !lexer::names_ballot(&self.src[args.byte_range()]) {
            return false;
        }
        self.handled.insert(func.start_byte());
        self.edits.push(Edit::replace(
            func.start_byte(),
            func.end_byte(),
            wide,
            "ballot-width",
        ));
        true
    }

    /// Reports (T001) and keeps a BLAS function of the legacy cuBLAS API (`cublasSgemm('N', 'N',
    /// n, ...)` under `cublas.h`: no handle, `char` operations, scalars by value): hipBLAS and
    /// rocBLAS only have the handle API's form (`cublas_v2.h`, where `cublasSgemm` is
    /// `cublasSgemm_v2`), so a rename would not compile. The functions both APIs share
    /// (`cublasSetMatrix`) have no `_v2` twin and are renamed as usual. E-l.
    fn legacy_cublas_call(&mut self, name: &str, start: usize) -> bool {
        if !name.starts_with("cublas") || name.ends_with("_v2") {
            return false;
        }
        let v2 = format!("{name}_v2");
        let Some(hip) = self.db.lookup(&v2).and_then(|m| m.hip.as_deref()) else {
            return false;
        };
        self.diag(
            &UNSUPPORTED,
            start,
            format!("`{name}` of the legacy cuBLAS API (`cublas.h`: no handle, `char` operations, scalars by value) has no HIP equivalent; hipBLAS's `{hip}` is the handle API's `{v2}`"),
            Some("port the file to `cublas_v2.h` first (a `cublasHandle_t` from `cublasCreate`, `CUBLAS_OP_N` for 'N', alpha and beta by pointer), then convert it".into()),
        );
        true
    }

    /// Under the torch v1 API, a name written after the qualifiers of a torch v1 rule for the
    /// whole path (`c10::cuda::CUDACachingAllocator::recordStream`, whose rule
    /// `cuda::CUDACachingAllocator::recordStream` gives `...::recordStreamMasqueradingAsCUDA`)
    /// takes that rule's last segment; the qualifiers follow the namespace rules. Returns whether
    /// such a rule applied (the bare name's rule then does not).
    fn rename_torch_member(&mut self, name: &str, start: usize, end: usize) -> bool {
        if self.opts.libs.torch_api != TorchApi::V1 {
            return false;
        }
        let scope = scope_before(self.src, start);
        if scope.is_empty() {
            return false;
        }
        let segs: Vec<&str> = scope.trim_end_matches("::").split("::").collect();
        let db = self.db;
        // The longest written path first.
        for i in 0..segs.len() {
            let path = format!("{}::{name}", segs[i..].join("::"));
            let Some(m) = db.torch_v1(&path) else {
                continue;
            };
            let Some(hip) = m.hip.as_deref() else {
                return false;
            };
            let new = hip.rsplit("::").next().unwrap_or(hip);
            if new != name {
                self.edits
                    .push(Edit::replace(start, end, new, m.family.as_str()));
                self.count(m.family);
            }
            return true;
        }
        false
    }

    fn why_not(&self, m: &Mapping, info: &DiagInfo) -> (String, String) {
        let name = &m.cuda;
        let v = self.opts.hip_version;
        if let Availability::Absent { checked } = m.status_for(v) {
            return (
                format!(
                    "`{name}` maps to `{}`, which the HIP {checked} headers do not declare; the target is HIP {v}",
                    m.hip.as_deref().unwrap_or("?")
                ),
                format!("target a newer HIP with `--hip-version`, or {}", avoid(name, v)),
            );
        }
        if info.id == TOO_NEW.id {
            let added = m.hip_added.map(|a| a.to_string()).unwrap_or_default();
            let hip = m.hip.as_deref().unwrap_or("?");
            // hipBLAS 2.0 (ROCm 6.0) added `_v2` functions taking CUDA's types; the older
            // function of the base name takes hipBLAS's own (hipBLAS's CHANGELOG; hipblas.h
            // before 2.0: `hipblasGemmEx(..., hipblasDatatype_t a_type, ...)`). E-j.
            if let Some(base) = hip
                .strip_suffix("_v2")
                .filter(|_| m.family == Family::Cublas)
            {
                return (
                    format!("`{name}` becomes `{hip}` only from HIP {added}; the target is HIP {v}"),
                    format!(
                        "target a newer HIP with `--hip-version {}.{}`, or call hipBLAS's older `{base}`, which takes hipBLAS's own types where `{name}` takes CUDA's: `hipblasDatatype_t` (`HIPBLAS_R_16F`, and `HIPBLAS_R_32F` for a compute type) for `cudaDataType`/`cublasComputeType_t`, `hipblasComplex` for `cuComplex`",
                        m.hip_added.map_or(0, |a| a.major),
                        m.hip_added.map_or(0, |a| a.minor)
                    ),
                );
            }
            (
                if m.family == Family::Nccl {
                    format!("`{name}` exists in RCCL only from ROCm {added} ({}); the target is HIP {v}", m.section)
                } else if let Some(fails) = fails_before_dated(hip) {
                    format!("`{name}` becomes `{hip}`, which {fails} before HIP {added}; the target is HIP {v}")
                } else if hip == name {
                    format!("`{name}` exists in HIP only from {added}; the target is HIP {v}")
                } else {
                    format!("`{name}` becomes `{hip}` only from HIP {added}; the target is HIP {v}")
                },
                format!(
                    "target a newer HIP with `--hip-version {}.{}`, or {}",
                    m.hip_added.map_or(0, |a| a.major),
                    m.hip_added.map_or(0, |a| a.minor),
                    avoid(name, v)
                ),
            )
        } else if info.id == REMOVED.id {
            let removed = m.hip_removed.map(|a| a.to_string()).unwrap_or_default();
            (
                format!(
                    "`{name}` maps to `{}`, which HIP removed in {removed}; the target is HIP {v}",
                    m.hip.as_deref().unwrap_or("?")
                ),
                "use the replacement API named in HIP's release notes".into(),
            )
        } else if let (Some(hip), Some((roc_lib, hip_lib, flag))) =
            (m.hip.as_deref(), self.roc_choice(m.family))
        {
            (
                format!("`{name}` ({} API) has no {roc_lib} equivalent; {hip_lib} has `{hip}`", m.family),
                format!("use {hip_lib} for this library (`{flag}`, the default), or replace `{name}` by hand"),
            )
        } else if let (Family::Cudnn, None, Some(way)) =
            (m.family, m.roc.as_deref(), m.roc_args.as_deref())
        {
            // The rules name the MIOpen way for a cuDNN name without a MIOpen twin (E-k).
            (
                format!("`{name}` (cudnn API) has no MIOpen function of its own"),
                format!("{way}; replace the call by hand"),
            )
        } else if let Some(hint) = ignored_function_hint(name) {
            (
                format!(
                    "`{name}` ({} API) has no HIP equivalent: HIP's `{}` takes a kernel's address (`const void*`), not a module's `hipFunction_t`, and AMD GPUs ignore the hint anyway (HIP's header: they {}); the call is left as written",
                    m.family, hint.hip, hint.amd
                ),
                "delete the call, which changes nothing on AMD GPUs; where its result is used (an error check), put `hipSuccess` in its place".to_string(),
            )
        } else if let Some((rn, mode)) = round_to_nearest_twin(name) {
            (
                format!("`{name}` ({} API) has no HIP equivalent: HIP has no directed-rounding form (round {mode}) of this operation", m.family),
                format!("use `{rn}` (round to nearest), which HIP has: its result may differ from `{name}`'s by about 1 ulp (one unit in the last place); where the direction matters (the bounds of an interval), move the result one step by hand with `nextafterf` (`nextafter` for `double`)"),
            )
        } else if let (None, Some(instead)) = (m.hip.as_deref(), m.hip_replacement.as_deref()) {
            // The rules name what to use in its place; `explain` prints the same text (R45-1).
            (
                format!("`{name}` ({} API) has no HIP equivalent", m.family),
                instead.to_string(),
            )
        } else {
            (
                format!("`{name}` ({} API) has no HIP equivalent", m.family),
                format!("see `hipport explain {name}`; replace it by hand or add a rule with `--rules FILE`"),
            )
        }
    }

    /// Reports the file's uses of CUDA's legacy launch API ([`LEGACY_LAUNCH`]) as one T001 at
    /// the first: the calls are one idiom (set the parameters, the block shape, then launch),
    /// which one `hipModuleLaunchKernel` replaces, not each call its own HIP call (R28-1).
    fn report_legacy_launch(&mut self) {
        let Some(&(_, first)) = self.legacy_launch.first() else {
            return;
        };
        let mut names: Vec<&str> = Vec::new();
        let mut lines: Vec<usize> = Vec::new();
        for (name, start) in &self.legacy_launch {
            if !names.contains(&name.as_str()) {
                names.push(name);
            }
            let line = self.index.position(*start).0;
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
        let listed = match names.as_slice() {
            [one] => format!("`{one}`"),
            [most @ .., last] => format!(
                "{} and `{last}`",
                most.iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            [] => return,
        };
        let lines = lines
            .iter()
            .map(usize::to_string)
            .collect::<Vec<_>>()
            .join(", ");
        let (is, line_word) = match (names.len(), lines.contains(',')) {
            (1, false) => ("is", "line"),
            (1, true) => ("is", "lines"),
            (_, false) => ("are", "line"),
            (_, true) => ("are", "lines"),
        };
        let texref = if names.contains(&"cuParamSetTexRef") {
            "; `cuParamSetTexRef`'s texture reference has no place there: pass a `hipTextureObject_t` as a kernel parameter instead"
        } else {
            ""
        };
        let message = format!(
            "{listed} ({line_word} {lines}) {is} CUDA's legacy launch API (deprecated since CUDA 9.2: parameters copied one by one, then a grid launch), which HIP does not have; the calls are left as written"
        );
        let help = format!(
            "replace the whole sequence with one call where the kernel is launched: `hipModuleLaunchKernel(f, gridX, gridY, 1, blockX, blockY, 1, sharedBytes, stream, args, nullptr)`, where `args` is `void* args[] = {{&a, &b, ...}}`, the addresses of the values the `cuParamSet*` calls copied, in the kernel's parameter order; the block shape is `cuFuncSetBlockShape`'s, `sharedBytes` is `cuFuncSetSharedSize`'s (else 0), and the grid and stream are those of `cuLaunchGrid(f, gridX, gridY)` (stream 0), `cuLaunchGridAsync(f, gridX, gridY, stream)` or `cuLaunch(f)` (a 1 x 1 grid, stream 0){texref}"
        );
        self.diag(&UNSUPPORTED, first, message, Some(help));
    }

    /// Reports a roc* library name (`--rand rocrand`) that the target release lacks, has removed
    /// or deprecates: the roc* columns have their own release data.
    fn roc_not_available(&mut self, m: &Mapping, roc: &str, status: Availability, start: usize) {
        let name = &m.cuda;
        let v = self.opts.hip_version;
        let library = match self.roc_choice(m.family) {
            Some((library, _, _)) => library,
            None if m.family == Family::Cudnn => "MIOpen",
            None => "ROCm",
        };
        let wrapper = match (m.hip.as_deref(), self.roc_choice(m.family)) {
            (Some(hip), Some((_, hip_lib, flag))) if m.status_for(v) == Availability::Available => {
                format!(", or use {hip_lib}'s `{hip}` (`{flag}`)")
            }
            _ => String::new(),
        };
        match status {
            Availability::TooNew { added } => self.diag(
                &TOO_NEW,
                start,
                format!("`{name}` becomes {library}'s `{roc}` only from ROCm {added}; the target is HIP {v}"),
                Some(format!(
                    "target a newer release with `--hip-version {}.{}`{wrapper}, or avoid `{name}`",
                    added.major, added.minor
                )),
            ),
            Availability::Removed { removed } => self.diag(
                &REMOVED,
                start,
                format!("`{name}` maps to {library}'s `{roc}`, which ROCm removed in {removed}; the target is HIP {v}"),
                Some(format!("use the replacement named in {library}'s release notes{wrapper}")),
            ),
            Availability::Deprecated { since, .. } => self.diag(
                &DEPRECATED,
                start,
                format!("`{name}` became `{roc}`, which {library} deprecates since ROCm {since}"),
                Some(format!("see `hipport explain {name}` and plan a replacement{wrapper}")),
            ),
            _ => {}
        }
    }

    /// Reports a `case` label whose renamed name another label of the same switch already has
    /// (`CUSOLVER_STATUS_IRS_INTERNAL_ERROR` beside `CUSOLVER_STATUS_INTERNAL_ERROR`, both
    /// `HIPSOLVER_STATUS_INTERNAL_ERROR`): the output would not compile (T014).
    fn duplicate_case_labels(&mut self, tree: &Tree) {
        // A renamed label is an edit right after the word `case`: without two, nothing to do.
        let mut labels: Vec<(usize, usize, String)> = self
            .edits
            .iter()
            .filter(|e| e.end > e.start && follows_case(self.src, e.start))
            .map(|e| (e.start, e.end, e.text.clone()))
            .collect();
        if labels.len() < 2 {
            return;
        }
        labels.sort_by_key(|l| l.0);
        // Per switch (by its start), the labels seen: final name -> (CUDA name, offset).
        let mut switches: HashMap<usize, HashMap<String, (String, usize)>> = HashMap::new();
        let mut found = Vec::new();
        let root = tree.root_node();
        for (start, end, new) in labels {
            let Some(value) = root
                .descendant_for_byte_range(start, end)
                .filter(|v| v.kind_name() == "identifier" && v.byte_range() == (start..end))
            else {
                continue;
            };
            let case = value.parent().filter(|c| {
                c.kind_name() == "case_statement" && c.child_by_field_name("value") == Some(value)
            });
            let Some(switch) = case.and_then(|c| {
                std::iter::successors(c.parent(), |p| p.parent())
                    .find(|p| p.kind_name() == "switch_statement")
            }) else {
                continue;
            };
            let cuda = String::from_utf8_lossy(&self.src[start..end]).into_owned();
            let labels = switches.entry(switch.start_byte()).or_default();
            match labels.get(&new) {
                Some((first, at)) if *first != cuda => {
                    found.push((start, cuda, first.clone(), *at, new));
                }
                Some(_) => {}
                None => {
                    labels.insert(new, (cuda, start));
                }
            }
        }
        for (start, cuda, first, at, new) in found {
            let line = self.index.position(at).0;
            self.diag(
                &DUPLICATE_CASE,
                start,
                format!("`{cuda}` becomes `{new}`, which the case for `{first}` on line {line} already is: the switch would have two equal case labels"),
                Some(format!("remove the case for `{cuda}` or merge it with the one for `{first}`")),
            );
        }
    }

    /// Reports a call whose roc* counterpart takes other arguments (T015): what the rules record
    /// (`roc_args`: MIOpen, rocSPARSE), or for cuBLAS's `*Ex` GEMMs the rocBLAS form of the call
    /// in cuBLAS's argument names.
    fn roc_call_shape(&mut self, m: &Mapping, roc: &str, start: usize) {
        let name = &*m.cuda;
        // What the rules record as differing (cuDNN -> MIOpen: `extra-cudnn.tsv`'s `roc_args`).
        if let Some(differs) = m.roc_args.as_deref().filter(|d| *d != "same") {
            let library = match self.roc_choice(m.family) {
                Some((library, _, _)) => library,
                None if m.family == Family::Cudnn => "MIOpen",
                None => "ROCm",
            };
            self.diag(
                &ROC_CALL_SHAPE,
                start,
                format!("`{name}` becomes `{roc}`, which differs: {differs}"),
                Some(format!("rewrite this use in {library}'s form; `hipport explain {name}` names the source")),
            );
            return;
        }
        let form = match name {
            "cublasGemmEx" => "handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc, C, Ctype, ldc, rocblas_datatype_f32_r, algo, 0, 0",
            "cublasGemmBatchedEx" => "handle, transa, transb, m, n, k, alpha, Aarray, Atype, lda, Barray, Btype, ldb, beta, Carray, Ctype, ldc, Carray, Ctype, ldc, batchCount, rocblas_datatype_f32_r, algo, 0, 0",
            "cublasGemmStridedBatchedEx" => "handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB, beta, C, Ctype, ldc, strideC, C, Ctype, ldc, strideC, batchCount, rocblas_datatype_f32_r, algo, 0, 0",
            _ => return,
        };
        self.diag(
            &ROC_CALL_SHAPE,
            start,
            format!("`{name}` becomes `{roc}`, which also takes an output matrix D, a `rocblas_datatype` compute type, `solution_index` and `flags`: `{roc}({form})`"),
            Some("rewrite the call in that form (D = C computes in place; the compute type as a rocblas_datatype), or use hipBLAS (`--blas hipblas`), which takes cuBLAS's arguments".into()),
        );
    }

    /// Reports (T015) a use of a cuBLAS half-precision GEMM (`cublasHgemm`, its batched forms)
    /// whose hipBLAS or rocBLAS counterpart takes its own half type: hipBLAS declares
    /// `typedef uint16_t hipblasHalf;` (ROCm/hipBLAS library/include/hipblas.h, 5.x and 6.x) and
    /// rocBLAS a `rocblas_half` struct, so the `__half` pointers cuBLAS takes do not convert
    /// (U-a: hipcc "no matching function for call to 'hipblasHgemm'"). Not where the build
    /// defines `HIPBLAS_USE_HIP_HALF` (hipBLAS's switch to `__half`) for hipBLAS.
    fn half_blas_pointers(&mut self, m: &Mapping, new: &str, start: usize) {
        let name = &*m.cuda;
        if m.family != Family::Cublas || !name.starts_with("cublasHgemm") {
            return;
        }
        let roc = new.starts_with("rocblas_");
        let switch = "HIPBLAS_USE_HIP_HALF";
        if !roc
            && (self
                .opts
                .defines
                .iter()
                .any(|d| d.name == switch && !d.undefined)
                || memchr::memmem::find(self.src, switch.as_bytes()).is_some())
        {
            return;
        }
        let (half, declared) = if roc {
            (
                "rocblas_half",
                "rocBLAS's `rocblas_half` is a struct of one `uint16_t`",
            )
        } else {
            (
                "hipblasHalf",
                "hipBLAS declares `typedef uint16_t hipblasHalf;` (unless the build defines HIPBLAS_USE_HIP_HALF)",
            )
        };
        let (inputs, output) = if name.contains("Batched") && !name.contains("Strided") {
            (
                format!("reinterpret_cast<const {half}*>(alpha)` and `beta`, `reinterpret_cast<const {half}* const*>(Aarray)` and `Barray`"),
                format!("reinterpret_cast<{half}* const*>(Carray)"),
            )
        } else {
            (
                format!(
                    "reinterpret_cast<const {half}*>(alpha)` and the same for `A`, `B` and `beta`"
                ),
                format!("reinterpret_cast<{half}*>(C)"),
            )
        };
        let define = if roc {
            String::new()
        } else {
            ", or define HIPBLAS_USE_HIP_HALF for the build where the hipBLAS release has that switch".to_string()
        };
        self.diag(
            &ROC_CALL_SHAPE,
            start,
            format!("`{name}` becomes `{new}`, which takes `{half}` pointers where cuBLAS takes `__half` ones: {declared}, and `__half*` does not convert"),
            Some(format!("cast the half-precision pointers: `{inputs}, `{output}`{define}")),
        );
    }

    /// Reports (T015) a call of a roc* library function written in the source (`rocblas_hgemm(
    /// handle, transa, ...)` in a branch for HIP written for PyTorch's hipify, which maps cuBLAS
    /// to rocBLAS), in code hipcc compiles, that is given values whose CUDA types hipport writes
    /// as the hip* wrapper's (`cublasHandle_t handle` becomes `hipblasHandle_t` under the
    /// default `--blas hipblas`; `CUBLAS_OP_N` becomes `HIPBLAS_OP_N`), or whose result is
    /// returned as such a type: the roc* library takes and returns its own types
    /// (`rocblas_handle`, `rocblas_operation`, `rocblas_status`), which those do not convert
    /// to or from (R23-e: hipcc "no matching function for call to 'rocblas_hgemm'"). With the
    /// roc* choice (`--blas rocblas`) the types agree, and nothing is reported.
    fn roc_call_with_hip_types(&mut self, name: &str, func: Node, call: Node) {
        let Some(&(_, families)) = ROC_CALL_PREFIXES.iter().find(|(p, _)| name.starts_with(p))
        else {
            return;
        };
        let Some(args) = call.field(FIELDS.arguments) else {
            return;
        };
        if call.start_byte() >= self.dead_from {
            return;
        }
        let db = self.db;
        let (libs, v) = (self.opts.libs, self.opts.hip_version);
        // The hip* wrapper's name for CUDA name `cuda` of one of the library's families.
        let wrapped = |cuda: &str| match db.target_for(cuda, &libs, v) {
            Target::Name {
                name,
                lib: Lib::Hip,
                mapping,
            } if families.contains(&mapping.family) && name != cuda => Some((name, mapping.family)),
            _ => None,
        };
        let scope = std::iter::once(call)
            .chain(parse::ancestors(call))
            .find(|x| x.kind_name() == "function_definition");
        // (what is passed or returned, its CUDA type, the wrapper's name for it, the family)
        let mut found: Vec<(String, String, &str, Family)> = Vec::new();
        for arg in parse::named_children(args).filter(|n| SUB_KINDS.of(*n) != Sub::Comment) {
            // A bare value (`h`, `&h`, `(h)`); a cast says the writer chose the type.
            let mut value = arg;
            while matches!(
                value.kind_name(),
                "pointer_expression" | "parenthesized_expression"
            ) {
                match value
                    .field(FIELDS.argument)
                    .or_else(|| parse::named_children(value).next())
                {
                    Some(inner) => value = inner,
                    None => break,
                }
            }
            if value.kind_name() != "identifier" {
                continue;
            }
            let id = self.node_str(value);
            if let Some((hip, family)) = wrapped(id) {
                found.push((format!("`{id}`"), id.to_string(), hip, family));
                continue;
            }
            if found
                .iter()
                .any(|(what, ..)| what.starts_with(&format!("`{id}` ")))
            {
                continue;
            }
            let from = scope.map_or(0, |f| f.start_byte());
            let Some(ty) = self.declared_type_of_base(value, from..call.start_byte()) else {
                continue;
            };
            if let Some((hip, family)) = wrapped(&ty) {
                found.push((format!("`{id}` (a `{ty}`)"), ty, hip, family));
            }
        }
        let returned = call
            .parent()
            .is_some_and(|p| p.kind_name() == "return_statement");
        if let Some(ty) = scope
            .filter(|_| returned)
            .and_then(|f| f.field(FIELDS.type_))
            .map(|t| self.node_str(t))
        {
            if let Some((hip, family)) = wrapped(ty) {
                found.push((
                    format!("the result (returned as `{ty}`)"),
                    ty.to_string(),
                    hip,
                    family,
                ));
            }
        }
        let Some(&(_, _, _, family)) = found.first() else {
            return;
        };
        let (root, view) = self.hipcc_view(call);
        if view.skips(self.src, root, call.start_byte()).is_some() {
            return;
        }
        let (roc_lib, hip_lib, option) = match family {
            Family::Cusparse => ("rocSPARSE", "hipSPARSE", "--sparse rocsparse"),
            Family::Curand => ("rocRAND", "hipRAND", "--rand rocrand"),
            Family::Cufft => ("rocFFT", "hipFFT", "--fft rocfft"),
            Family::Cusolver => ("rocSOLVER", "hipSOLVER", "--solver rocsolver"),
            _ => ("rocBLAS", "hipBLAS", "--blas rocblas"),
        };
        let mut roc_libs = libs;
        for f in families {
            match f {
                Family::Cublas => roc_libs.blas = Lib::Roc,
                Family::Cusparse => roc_libs.sparse = Lib::Roc,
                Family::Curand => roc_libs.rand = Lib::Roc,
                Family::Cufft => roc_libs.fft = Lib::Roc,
                Family::Cusolver => roc_libs.solver = Lib::Roc,
                _ => {}
            }
        }
        found.dedup_by(|a, b| a.0 == b.0);
        let listed: Vec<String> = found
            .iter()
            .map(|(what, ty, hip, _)| {
                let roc = match db.target_for(ty, &roc_libs, v) {
                    Target::Name { name, .. } => format!(", `{name}` with `{option}`"),
                    _ => String::new(),
                };
                format!("{what}: `{hip}`{roc}")
            })
            .collect();
        self.diag(
            &ROC_CALL_SHAPE,
            func.start_byte(),
            format!(
                "`{name}` is {roc_lib}'s, which takes and returns {roc_lib}'s own types, but hipport writes what this call is given as {hip_lib}'s: {}; they do not convert, so hipcc rejects the call",
                listed.join("; ")
            ),
            Some(format!("convert with `{option}`, under which these types become {roc_lib}'s and agree with the call (the file's other CUDA library calls then become {roc_lib}'s too), or call {hip_lib} here")),
        );
    }

    /// For a CUDA library family the options send to its roc* library (`--fft rocfft`): that
    /// library's name, the hip* wrapper's, and the option that chooses the wrapper, so that a
    /// name only the wrapper has is reported as the choice it is.
    fn roc_choice(&self, family: Family) -> Option<(&'static str, &'static str, &'static str)> {
        if self.opts.libs.lib_for(family) != Lib::Roc {
            return None;
        }
        match family {
            Family::Cublas => Some(("rocBLAS", "hipBLAS", "--blas hipblas")),
            Family::Cusparse => Some(("rocSPARSE", "hipSPARSE", "--sparse hipsparse")),
            Family::Curand => Some(("rocRAND", "hipRAND", "--rand hiprand")),
            Family::Cusolver => Some(("rocSOLVER", "hipSOLVER", "--solver hipsolver")),
            Family::Cufft => Some(("rocFFT", "hipFFT", "--fft hipfft")),
            _ => None,
        }
    }

    /// Renames the namespace segment at `start..end` by the namespace rules (`cub` ->
    /// `hipcub`, `thrust::cuda` -> `thrust::hip`; `cuda::std` -> `std` drops the written
    /// `cuda::`); returns whether a rule applied.
    fn rename_namespace(&mut self, start: usize, end: usize) -> bool {
        let name = String::from_utf8_lossy(&self.src[start..end]).into_owned();
        let (quals, _) = qualifiers_before(self.src, start);
        let scope: String = quals
            .iter()
            .rev()
            .map(|q| format!("{}::", String::from_utf8_lossy(q)))
            .collect();
        let db = self.db;
        // The longest written path that has a rule wins (`thrust::cuda` before `cuda`).
        let full = format!("{scope}{name}");
        let candidates = [full.as_str(), name.as_str()];
        for path in candidates {
            let Some(rule) = db.namespace_for(path, &self.opts.libs) else {
                continue;
            };
            let Some(hip) = rule.hip.as_deref() else {
                return false;
            };
            let new_last = hip.rsplit("::").next().unwrap_or(hip);
            if path == name && hip.contains("::") && hip != name {
                // A rule for a whole path does not apply to a bare segment.
                continue;
            }
            let dropped = path
                .matches("::")
                .count()
                .saturating_sub(hip.matches("::").count());
            if path != name && dropped > 0 && path.ends_with(hip) && new_last == name {
                // A name the rules keep under the longer path (`cuda::std::atomic`: its header
                // stays, and ROCm's libhipcxx provides it there) keeps its qualifiers.
                if let Some(next) = segment_after(self.src, end) {
                    let longer = format!("{path}::{next}");
                    let keep = db.namespace_for(&longer, &self.opts.libs);
                    if keep.is_some_and(|r| r.hip.as_deref() == Some(longer.as_str())) {
                        return true;
                    }
                } else if self.includes_kept_libcupp_header() {
                    // `using namespace cuda::std;` beside a header that stays (`<cuda/std/atomic>`):
                    // as `std`, the unqualified `atomic<int>` would be std's, host-only in HIP
                    // device code.
                    return true;
                }
                // The HIP path is a shorter tail of the written one: remove the leading
                // qualifiers (`quals` runs innermost first), from the outermost kept-out one to
                // the first segment that stays.
                let base = self.src.as_ptr() as usize;
                let offset = |q: &[u8]| q.as_ptr() as usize - base;
                let from = quals.last().map_or(start, |q| offset(q));
                let to = match quals.len().checked_sub(dropped) {
                    Some(0) | None => start,
                    Some(k) => offset(quals[k - 1]),
                };
                self.edits.push(Edit::replace(from, to, "", "namespace"));
                // Only libcu++'s `cuda::std` has such a rule; its headers are the header family.
                self.count(Family::Header);
                return true;
            }
            if path == name
                && !quals.is_empty()
                && WRAPPABLE_NAMESPACES.contains(&path)
                && !self.library_scope(&quals)
                && segment_after(self.src, end)
                    .filter(|_| !newline_before_segment(self.src, end))
                    .is_none_or(names_cub_api)
                && !declares_namespace(self.src, name.as_bytes())
            {
                // `myext::cub::DeviceScan`: CUB wrapped in the project's namespace
                // (`CUB_NS_PREFIX`, `CUB_WRAPPED_NAMESPACE`). hipCUB ignores those macros and
                // declares its API in `::hipcub` only (hipcub/config.hpp: `#define
                // HIPCUB_NAMESPACE hipcub`), so `myext::hipcub` would not exist: the project's
                // qualifiers go with the rename (R23-b).
                let base = self.src.as_ptr() as usize;
                let from = quals.last().map_or(start, |q| q.as_ptr() as usize - base);
                self.edits
                    .push(Edit::replace(from, end, new_last, "namespace"));
                self.count(Family::Cub);
                return true;
            }
            if new_last != name {
                self.edits
                    .push(Edit::replace(start, end, new_last, "namespace"));
                // `cub` -> `hipcub` is CUB's; the others (`c10::cuda` -> `c10::hip` under
                // `--torch-api v1`, `thrust::cuda` -> `thrust::hip`) are counted as the edits'
                // rule names them, not as CUB the file may not use (realuser42 R42-1).
                if new_last == "hipcub" {
                    self.count(Family::Cub);
                } else {
                    *self.renames.entry("namespace".to_string()).or_default() += 1;
                }
            }
            return true;
        }
        false
    }

    /// Whether qualifiers `quals` (innermost first) are a library's namespace rather than a
    /// project's: PyTorch's (`at::cuda::cub::radix_sort_pairs` is ATen's own wrapper, not CUB)
    /// or a path the namespace rules know (`thrust::cuda`), which a CUB wrapped in the
    /// project's namespace never sits under.
    fn library_scope(&self, quals: &[&[u8]]) -> bool {
        let mut path = String::new();
        for (i, q) in quals.iter().rev().enumerate() {
            let q = String::from_utf8_lossy(q);
            if i == 0 && matches!(&*q, "at" | "c10" | "torch" | "thrust" | "std" | "cuda") {
                return true;
            }
            if i > 0 {
                path.push_str("::");
            }
            path.push_str(&q);
            if self.db.namespace_for(&path, &self.opts.libs).is_some() {
                return true;
            }
        }
        false
    }

    /// A `#define` of CUB's namespace-wrapping macros (`CUB_NS_PREFIX namespace myext {`,
    /// `CUB_NS_QUALIFIER ::myext::cub`, `CUB_WRAPPED_NAMESPACE myext`) at body `body`, in code
    /// hipcc compiles: hipCUB ignores them (its config.hpp declares `hipcub` whatever they say),
    /// so the wrapped uses become `hipcub::` ([`Walk::rename_namespace`]); the qualifier's body
    /// becomes `::hipcub` for the uses that spell it, and the file gets one note (T018) that
    /// says so. Returns whether `body` was such a macro's (nothing else in it to rename).
    fn cub_namespace_macro(&mut self, body: Node) -> bool {
        let Some(def) = body.parent().filter(|d| d.kind_name() == "preproc_def") else {
            return false;
        };
        let Some(name) = def.field(FIELDS.name) else {
            return false;
        };
        let name = self.node_str(name);
        if !CUB_WRAP_MACROS.contains(&name) {
            return false;
        }
        let text = parse::text(body, self.src);
        if name == "CUB_NS_QUALIFIER" {
            // `::myext::cub` (a comment after it is not part of it).
            let code_end = memchr::memmem::find(text, b"//")
                .into_iter()
                .chain(memchr::memmem::find(text, b"/*"))
                .min()
                .unwrap_or(text.len());
            let code = text[..code_end].trim_ascii_end();
            let lead = code.len() - code.trim_ascii_start().len();
            let path = &code[lead..];
            let first = usize::from(path.starts_with(b"::")) * 2;
            let segments: Vec<&[u8]> = path[first..].split(|&b| b == b':').collect();
            let is_path = segments.len() >= 3
                && segments.chunks(2).all(|c| {
                    !c[0].is_empty()
                        && c[0].iter().all(|&b| b.is_ascii_alphanumeric() || b == b'_')
                        && c.get(1).is_none_or(|s| s.is_empty())
                });
            if is_path && segments.last() == Some(&&b"cub"[..]) {
                let at = body.start_byte() + lead + first;
                self.edits.push(Edit::replace(
                    at,
                    at + path.len() - first,
                    "hipcub",
                    "namespace",
                ));
                self.count(Family::Cub);
            }
        }
        if def.start_byte() >= self.dead_from || self.reported_unknown.contains("T018") {
            return true;
        }
        let (root, view) = self.hipcc_view(def);
        if view.skips(self.src, root, def.start_byte()).is_some() {
            return true;
        }
        self.reported_unknown.insert("T018".into());
        let wrapped = cub_wrapping_namespace(name, text)
            .map_or_else(|| "ns::cub".to_string(), |ns| format!("{ns}::cub"));
        let message = format!(
            "`{name}` puts CUB in `{wrapped}`; hipCUB ignores CUB_NS_PREFIX, CUB_NS_POSTFIX, CUB_NS_QUALIFIER and CUB_WRAPPED_NAMESPACE and declares its API in `::hipcub` only, so `{wrapped}::` becomes `hipcub::` (`{wrapped}::DeviceScan` is `hipcub::DeviceScan`), a `CUB_NS_QUALIFIER` body becomes `::hipcub`, and the other defines stay, with no effect"
        );
        self.diag(
            &CUB_NAMESPACE_WRAPPED,
            def.start_byte(),
            message,
            Some(format!("nothing to do in the files hipport converts; code it does not convert that names `{wrapped}::` needs `hipcub::` the same way")),
        );
        true
    }

    /// Whether the file includes a libcu++ header that stays as it is (`<cuda/std/atomic>`: the
    /// rules give it no standard-library form), whose names keep `cuda::std::`.
    fn includes_kept_libcupp_header(&self) -> bool {
        memchr::memmem::find_iter(self.src, b"cuda/std/").any(|at| {
            let rest = &self.src[at..];
            let len = rest
                .iter()
                .position(|&b| matches!(b, b'>' | b'"' | b'\n'))
                .unwrap_or(rest.len());
            std::str::from_utf8(&rest[..len]).is_ok_and(|path| {
                self.db
                    .header_for(path, &self.opts.libs)
                    .is_some_and(|h| h.hip.is_none() && !h.cuda.ends_with('*'))
            })
        })
    }

    /// Renames identifiers inside a macro body or other opaque text at `base`.
    fn rename_text(&mut self, text: &[u8], base: usize) {
        let first_edit = self.edits.len();
        let mut calls: Vec<MacroCall> = Vec::new();
        for tok in lexer::identifiers(text) {
            let name = std::str::from_utf8(&text[tok.clone()]).unwrap_or("");
            let rest = &text[tok.end..];
            let followed_by_scope = rest.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b':')
                && memchr::memmem::find(rest, b"::").is_some();
            if followed_by_scope && self.rename_namespace(base + tok.start, base + tok.end) {
                continue;
            }
            if name == "__syncwarp" && self.fence_syncwarp_in_text(text, base, tok.clone()) {
                continue;
            }
            // `#define FIRST(p) __ffs(__ballot_sync(~0u, p))`: as in code.
            if let Some(wide) = wide_bit_op(name) {
                let vote = call_args(&text[tok.end..])
                    .is_some_and(|(_, end)| lexer::names_ballot(&text[tok.end..tok.end + end]));
                if vote {
                    self.edits.push(Edit::replace(
                        base + tok.start,
                        base + tok.end,
                        wide,
                        "ballot-width",
                    ));
                    continue;
                }
            }
            let before = self.edits.len();
            self.rename_ident(name, base + tok.start, base + tok.end);
            let renamed = self.edits[before..]
                .iter()
                .find(|e| e.start == base + tok.start)
                .map(|e| e.text.clone());
            if let Some((args, _)) = call_args(&text[tok.end..]) {
                let at = base + tok.end;
                let args = args.iter().map(|r| at + r.start..at + r.end).collect();
                calls.push((name, base + tok.start, args, renamed));
            }
        }
        // Reported once the arguments' own renames are known.
        for (name, at, args, renamed) in calls {
            let args = args
                .into_iter()
                .map(|r: Range<usize>| {
                    let written = one_line(&self.src[r.clone()]);
                    let ported = self.edited(r, first_edit).map(|t| one_line(&t));
                    (written, ported.unwrap_or_default())
                })
                .collect();
            self.call_in_macro(name, at, args, renamed);
        }
        self.realign_continuations(text, base, first_edit);
    }

    /// The source text at `range` with the edits from `self.edits[from..]` that lie within it
    /// applied; None where they overlap.
    fn edited(&self, range: Range<usize>, from: usize) -> Option<Vec<u8>> {
        let mut edits: Vec<Edit> = self.edits[from..]
            .iter()
            .filter(|e| range.start <= e.start && e.end <= range.end)
            .map(|e| Edit {
                start: e.start - range.start,
                end: e.end - range.start,
                ..e.clone()
            })
            .collect();
        edit::apply(&self.src[range], &mut edits).ok()
    }

    /// A mask-less `__syncwarp()` in a macro body or other opaque text at `base`, before HIP 7.0:
    /// the wavefront fence pair takes its place, as in code (T010). Returns whether it did.
    fn fence_syncwarp_in_text(&mut self, text: &[u8], base: usize, tok: Range<usize>) -> bool {
        if self.opts.hip_version >= SYNCWARP_HIP {
            return false;
        }
        let Some((args, end)) = call_args(&text[tok.end..]) else {
            return false;
        };
        if !args.is_empty() {
            return false;
        }
        let (start, end) = (base + tok.start, base + tok.end + end);
        self.edits
            .push(Edit::replace(start, end, WAVEFRONT_SYNC, "syncwarp-fenced"));
        self.diag(
            &SYNCWARP_FENCED,
            start,
            format!(
                "`__syncwarp()` became a wavefront fence pair: HIP {} has no `__syncwarp`",
                self.opts.hip_version
            ),
            None,
        );
        true
    }

    /// A function with a call rewrite for the target, named in a macro body, where only renames
    /// apply (T013), once per name and file. `args` are the call's arguments as written and as
    /// the port writes them (renamed), each on one line; `renamed` is the name the rename wrote,
    /// if it changed the name. The message shows this call in the form hipport writes outside
    /// macro bodies (R24-2: not the rule's template with its `$1` placeholders), and what the
    /// port does here.
    fn call_in_macro(
        &mut self,
        name: &str,
        at: usize,
        args: Vec<(String, String)>,
        renamed: Option<String>,
    ) {
        let v = self.opts.hip_version;
        // `HIP_SYMBOL(x)` is `x` on AMD: such a rewrite changes nothing a rename misses.
        let Some(rule) = self
            .db
            .call_for(name, args.len(), v)
            .filter(|r| !r.template.contains("HIP_SYMBOL("))
        else {
            return;
        };
        if !self.reported_unknown.insert(format!("T013:{name}")) {
            return;
        }
        let mut form = rewritten_form(name, &rule.template, &args);
        if WARP_SYNC.iter().any(|(n, _)| *n == name) {
            // The translator drops a mask only where it names every lane.
            form.push_str(" where the mask names the full warp");
        }
        let done = match renamed {
            Some(new) => format!("hipport only renames `{name}` to `{new}`"),
            None => format!("hipport leaves `{name}` as written"),
        };
        self.diag(
            &CALL_IN_MACRO,
            at,
            format!("in a macro body {done}; outside macro bodies {form}"),
            Some(
                "apply that form to the macro body by hand, or make the macro an inline function"
                    .into(),
            ),
        );
    }

    /// Keeps the `\` of a multi-line macro in its column: when renames on a line change its
    /// length, the run of spaces before the line's trailing backslash shrinks or grows to match.
    fn realign_continuations(&mut self, text: &[u8], base: usize, first_edit: usize) {
        if self.edits.len() == first_edit {
            return;
        }
        let mut line_start = 0;
        for line in text.split_inclusive(|&b| b == b'\n') {
            let line_end = line_start + line.len();
            let body = line.strip_suffix(b"\n").unwrap_or(line);
            let body = body.strip_suffix(b"\r").unwrap_or(body);
            if let Some(before_bs) = body.strip_suffix(b"\\") {
                let spaces = before_bs.iter().rev().take_while(|&&b| b == b' ').count();
                let ws_start = line_start + before_bs.len() - spaces;
                let (a, b) = (base + line_start, base + ws_start);
                let delta: isize = self.edits[first_edit..]
                    .iter()
                    .filter(|e| e.start >= a && e.end <= b)
                    .map(|e| e.text.len() as isize - (e.end - e.start) as isize)
                    .sum();
                if delta != 0 && spaces > 0 {
                    let want = (spaces as isize - delta).max(1) as usize;
                    if want != spaces {
                        self.edits.push(Edit::replace(
                            base + ws_start,
                            base + ws_start + spaces,
                            " ".repeat(want),
                            "macro-align",
                        ));
                    }
                }
            }
            line_start = line_end;
        }
    }

    fn visit_include(&mut self, node: Node) {
        let Some(path_node) = node.field(FIELDS.path) else {
            return;
        };
        // Only `<path>` and `"path"` name a header; `#include MACRO` is left alone.
        let Some(path) = parse::HeaderPath::parse(self.node_str(path_node)) else {
            return;
        };
        self.old_sdk_utility_headers(path.inner, path_node.start_byte());
        if path.open == '"'
            && self.db.header_for(path.inner, &self.opts.libs).is_some()
            && self.finds_project_file(path.inner)
        {
            // `#include "cuda.h"` naming the project's own `cuda.h` (darknet's): the compiler
            // finds that file first, and it is translated as a project header.
            return;
        }
        let Some(new_path) = self.header_target(path.inner, path_node.start_byte(), true) else {
            self.cooperative_groups_beside(node, path.inner);
            return;
        };
        self.hip_header_absent(path.inner, path_node.start_byte());
        if new_path.ends_with("roctx.h") {
            self.has_roctx_include = true;
        }
        let scope = node.parent().map_or(0, |p| p.id());
        if new_path == "hip/hip_runtime.h" {
            self.has_runtime_include = true;
        } else if new_path == COOPERATIVE_GROUPS_HIP && !self.has_runtime_include {
            self.runtime_include_before(node, scope);
        }
        let is_hip_header = new_path.starts_with("hip/") || new_path != path.inner;
        if is_hip_header && !self.included.insert((scope, new_path.clone())) {
            // A second include of the same HIP header in the same scope: drop the line.
            let mut start = node.start_byte();
            while start > 0 && matches!(self.src[start - 1], b' ' | b'\t') {
                start -= 1;
            }
            // Only a directive that is its whole line goes: with more text after it on the line
            // (`#include <a.h>#include <b.h>`), the rest would become a line of its own.
            let end = node.end_byte();
            let whole_line = end == self.src.len() || self.src[end - 1] == b'\n';
            if (start == 0 || self.src[start - 1] == b'\n') && whole_line {
                self.edits
                    .push(Edit::replace(start, end, "", "include-dedup"));
            }
            return;
        }
        self.replace_header(&path, path_node.start_byte(), &new_path);
    }

    /// One note (T025) on the first include of the CUDA SDK 4.x utility headers (cutil,
    /// shrUtils) that no file of the project answers, naming all of them: they are part of
    /// neither CUDA (since 5.0) nor HIP, and their macros (`CUDA_SAFE_CALL`, `cutilSafeCall`,
    /// `CUT_CHECK_ERROR`) are written against the CUDA runtime (R21-g).
    fn old_sdk_utility_headers(&mut self, inner: &str, at: usize) {
        if !crate::includes::is_old_sdk_utility_header(inner)
            || self.finds_project_file(inner)
            || !self.reported_unknown.insert("T025:cutil".into())
        {
            return;
        }
        let mut names: Vec<String> = Vec::new();
        for (_, p) in crate::includes::include_directives(self.src) {
            let shown = if p.open == '<' {
                format!("`<{}>`", p.inner)
            } else {
                format!("`\"{}\"`", p.inner)
            };
            if crate::includes::is_old_sdk_utility_header(p.inner)
                && !names.contains(&shown)
                && (p.inner == inner || !self.finds_project_file(p.inner))
            {
                names.push(shown);
            }
        }
        let mut d = Diagnostic::at(
            &crate::project::MISSING_INCLUDE,
            self.file,
            &self.index,
            at,
            format!("{} is not in the input: the CUDA SDK 4.x utility headers (cutil), part of neither CUDA (since 5.0) nor HIP", names.join(", ")),
            Some("their `CUDA_SAFE_CALL`, `cutilSafeCall`, `CUT_CHECK_ERROR` and `cutilCheckMsg` wrap CUDA runtime calls: replace them by a HIP error check (test the `hipError_t`, print `hipGetErrorString`; `hipGetLastError()` after a launch), the `cutCreateTimer` timers by `hipEvent`s or `std::chrono`, and `cutil_math.h`'s vector operators by cuda-samples' `helper_math.h` (converted with hipport); or convert the old SDK's `common/inc` with the project and put it on the include path".into()),
        );
        d.severity = Severity::Note;
        self.diags.push(d);
    }

    /// Reports (T002, as a warning: the include may sit in a branch for newer releases) an
    /// include of a HIP header the input already names that the target's HIP headers lack, by
    /// the rules' list of absent headers (`hip/hip_math_constants.h`: not in HIP 5.2.3; T7).
    fn hip_header_absent(&mut self, inner: &str, at: usize) {
        if !inner.starts_with("hip/") || self.db.header_for(inner, &self.opts.libs).is_some() {
            return;
        }
        let v = self.opts.hip_version;
        let Some((checked, _)) = self.db.absent_in(inner).filter(|(c, _)| v <= *c) else {
            return;
        };
        self.warn(
            &TOO_NEW,
            at,
            format!("`{inner}` is not among the HIP {checked} headers; the target is HIP {v}"),
            Some(format!("target a newer HIP with `--hip-version`, or include `{inner}` only for the releases that have it")),
        );
    }

    /// Whether the quoted include `inner` finds a file of the project, looked up as the compiler
    /// does: beside the including file, then in the include directories the build files name
    /// (where the run knows them).
    fn finds_project_file(&mut self, inner: &str) -> bool {
        self.looked_for_project_headers = true;
        let written = inner.replace('\\', "/");
        let file = std::path::Path::new(self.file);
        if file.parent().is_some_and(|d| d.join(&written).is_file()) {
            return true;
        }
        let Some(search) = self.opts.include_search.as_deref() else {
            return false;
        };
        search.dirs().iter().any(|d| {
            crate::includes::normalize_rel(&format!("{d}/{written}"))
                .is_some_and(|rel| search.has_file(&rel))
        })
    }

    /// CUDA's `<cooperative_groups/reduce.h>` and `scan.h` include `<cooperative_groups.h>`;
    /// HIP has neither (T007), so where the file includes no cooperative-groups header of its own,
    /// the HIP one goes on the line before the kept include `node`: the file's other `cg::` names
    /// stay declared when the reported include goes.
    fn cooperative_groups_beside(&mut self, node: Node, inner: &str) {
        if !matches!(
            inner,
            "cooperative_groups/reduce.h" | "cooperative_groups/scan.h"
        ) || memchr::memmem::find(self.src, b"cooperative_groups.h").is_some()
        {
            return;
        }
        let scope = node.parent().map_or(0, |p| p.id());
        if !self
            .included
            .insert((scope, COOPERATIVE_GROUPS_HIP.to_string()))
        {
            return;
        }
        let at = self.src[..node.start_byte()]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let eol = crate::edit::line_ending(self.src);
        // HIP 5's header needs the runtime's before it (see `runtime_include_before`).
        let runtime = if self.has_runtime_include {
            String::new()
        } else {
            self.has_runtime_include = true;
            self.included
                .insert((scope, "hip/hip_runtime.h".to_string()));
            format!("#include <hip/hip_runtime.h>{eol}")
        };
        self.edits.push(Edit::insert(
            at,
            format!("{runtime}#include <{COOPERATIVE_GROUPS_HIP}>{eol}"),
            "cooperative-groups-include",
        ));
    }

    /// Puts `#include <hip/hip_runtime.h>` on the line before the include `node` (of the HIP
    /// cooperative-groups header, which HIP 5's release uses `blockDim` and friends in without
    /// including the runtime: included first, as `<cooperative_groups.h>` may be in CUDA, it
    /// does not compile). A later runtime include in the same scope then collapses into it.
    fn runtime_include_before(&mut self, node: Node, scope: usize) {
        let at = self.src[..node.start_byte()]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let eol = crate::edit::line_ending(self.src);
        self.edits.push(Edit::insert(
            at,
            format!("#include <hip/hip_runtime.h>{eol}"),
            "runtime-include",
        ));
        self.has_runtime_include = true;
        self.included
            .insert((scope, "hip/hip_runtime.h".to_string()));
    }

    /// Rewrites a macro body that is only a header path (`#define HDR <cub/cub.cuh>`, used as
    /// `#include HDR`); returns whether it was one, so the body is not also renamed as code.
    fn visit_header_macro(&mut self, body: &str, at: usize) -> bool {
        let lead = body.len() - body.trim_start().len();
        let Some(path) = parse::HeaderPath::parse(&body[lead..]) else {
            return false;
        };
        let known = self.db.header_for(path.inner, &self.opts.libs).is_some()
            || self.renamed_include(path.inner).is_some();
        if !known {
            // Some other string (a message, a format): left to the usual renaming.
            return false;
        }
        if let Some(new_path) = self.header_target(path.inner, at + lead, true) {
            self.replace_header(&path, at + lead, &new_path);
        }
        true
    }

    /// Replaces the header path written at `at` when its HIP path differs.
    fn replace_header(&mut self, path: &parse::HeaderPath, at: usize, new_path: &str) {
        if new_path != path.inner {
            self.edits.push(Edit::replace(
                at,
                at + path.len,
                format!("{}{new_path}{}", path.open, path.close),
                "header",
            ));
            self.count(Family::Header);
        }
    }

    /// Points `__has_include(<cuda_bf16.h>)` at the HIP header, so the test asks about the header
    /// the translated include names. One without a HIP counterpart stays, quietly: the test is
    /// false on HIP and the code it guards already has a way without it.
    fn visit_has_includes(&mut self, tree: &Tree) {
        for (at, path) in parse::has_include_paths(self.src) {
            let code = tree
                .root_node()
                .descendant_for_byte_range(at, at + path.len)
                .is_some_and(|n| matches!(n.kind_name(), "identifier" | "preproc_arg"));
            if at >= self.dead_from || !code {
                continue;
            }
            if let Some(new_path) = self.header_target(path.inner, at, false) {
                self.replace_header(&path, at, &new_path);
            }
        }
    }

    /// The HIP path for header `inner` written at `at`, or `None` (with a diagnostic when `report`)
    /// when it has none at the target HIP; a header the rules do not know comes back unchanged.
    fn header_target(&mut self, inner: &str, at: usize, report: bool) -> Option<String> {
        let db = self.db;
        let Some(h) = db.header_for(inner, &self.opts.libs) else {
            return Some(
                self.renamed_include(inner)
                    .unwrap_or_else(|| inner.to_string()),
            );
        };
        let target = match self.opts.libs.lib_for(h.family) {
            Lib::Roc => h
                .roc
                .as_deref()
                .map(str::to_string)
                .or_else(|| h.hip_for(inner)),
            Lib::Hip => h.hip_for(inner),
        };
        // Why the header cannot be translated for this target, if it cannot.
        let refusal = match target {
            Some(_) if h.hip_added.is_some_and(|a| a > self.opts.hip_version) => {
                let added = h.hip_added.unwrap_or(self.opts.hip_version);
                (
                    &TOO_NEW,
                    format!(
                        "CUDA header `{inner}` becomes `{}` only from HIP {added}; the target is HIP {}",
                        h.hip_for(inner).unwrap_or_default(),
                        self.opts.hip_version
                    ),
                    format!(
                        "target a newer HIP with `--hip-version {}.{}`, or avoid `{inner}`",
                        added.major, added.minor
                    ),
                )
            }
            Some(t) => match db.header_status(h, self.opts.hip_version) {
                Availability::Absent { checked } if Some(&t) == h.hip_for(inner).as_ref() => (
                    &TOO_NEW,
                    format!(
                        "CUDA header `{inner}` becomes `{t}`, which the HIP {checked} headers do not have; the target is HIP {}",
                        self.opts.hip_version
                    ),
                    format!(
                        "target a newer HIP with `--hip-version`, or {}",
                        if inner == "math_constants.h" {
                            "remove the include once each `CUDART_` constant is written as its value (each use is reported with it)".to_string()
                        } else {
                            format!("avoid `{inner}`")
                        }
                    ),
                ),
                // A header a later release installs under another name (hipTensor 2.0's
                // `hiptensor.h` for 1.x's `hiptensor.hpp`) is spelled as the target has it.
                _ => return Some(db.hip_spelling(&t, self.opts.hip_version).to_string()),
            },
            None if self.uses_nothing_from(inner) => {
                let (_, _, fallback) = UNUSED_HEADER_FALLBACKS
                    .iter()
                    .find(|(h, _, _)| *h == inner)?;
                return Some(fallback.to_string());
            }
            None if LIBRARY_PREFIXES
                .iter()
                .any(|(h, p)| *h == inner && *p == TENSORRT_NAMES) =>
            {
                (
                    &UNSUPPORTED_HEADER,
                    format!(
                        "CUDA header `{inner}` is TensorRT's, which is NVIDIA-only: ROCm has no TensorRT{}",
                        self.names_used_from(inner)
                    ),
                    TENSORRT_ROUTE.to_string(),
                )
            }
            None => (
                &UNSUPPORTED_HEADER,
                format!(
                    "CUDA header `{inner}` has no HIP equivalent{}",
                    self.names_used_from(inner)
                ),
                // What ROCm offers instead, where the rules name it (R46-1).
                match h.instead.as_deref() {
                    Some(instead) => format!("{instead}; remove the include if nothing from it is used (`hipport explain {inner}` says more)"),
                    None => format!("remove the include if nothing from it is used, or replace what it provides (`hipport explain {inner}` says why)"),
                },
            ),
        };
        if report {
            let (info, message, help) = refusal;
            self.diag(info, at, message, Some(help));
        }
        None
    }

    /// For a library header ROCm has no form of (NPP, nvJPEG: see [`LIBRARY_PREFIXES`]), the
    /// names of that library the file uses, so the report shows the size of the job (F2): `; the
    /// file uses 5 of its names: nppiFilterBoxBorder_8u_C1R, NppiSize, ...`; else "".
    fn names_used_from(&self, header: &str) -> String {
        let Some((_, prefixes)) = LIBRARY_PREFIXES.iter().find(|(h, _)| *h == header) else {
            return String::new();
        };
        let mut names: Vec<&str> = Vec::new();
        for r in lexer::identifiers(self.src) {
            // The path of an `#include` (`<nppi_filtering_functions.h>`) names a header, not
            // an API name of the library (V20-h).
            let line = self.src[..r.start]
                .iter()
                .rposition(|&b| b == b'\n')
                .map_or(0, |i| i + 1);
            let head = self.src[line..r.start].trim_ascii_start();
            if head
                .strip_prefix(b"#")
                .is_some_and(|d| d.trim_ascii_start().starts_with(b"include"))
            {
                continue;
            }
            let before = self.src[..r.start].trim_ascii_end();
            let Ok(word) = std::str::from_utf8(&self.src[r]) else {
                continue;
            };
            let library = prefixes.iter().any(|p| match p.strip_suffix("::") {
                Some(ns) => before
                    .strip_suffix(b"::")
                    .is_some_and(|b| b.trim_ascii_end().ends_with(ns.as_bytes())),
                None => word.len() > p.len() && word.starts_with(p),
            });
            if library && !names.contains(&word) {
                names.push(word);
            }
        }
        match names.len() {
            0 => String::new(),
            n => {
                let shown = names.iter().take(8).copied().collect::<Vec<_>>().join(", ");
                let more = if n > 8 { ", ..." } else { "" };
                format!("; the file uses {n} of its names: {shown}{more}")
            }
        }
    }

    /// Whether `inner` is one of [`UNUSED_HEADER_FALLBACKS`] and the file names none of what it
    /// declares (the 3D Gaussian splatting rasterizer includes `cooperative_groups/reduce.h` and
    /// calls only `cg::this_grid()` and `cg::this_thread_block()`).
    fn uses_nothing_from(&self, inner: &str) -> bool {
        let Some((_, names, _)) = UNUSED_HEADER_FALLBACKS.iter().find(|(h, _, _)| *h == inner)
        else {
            return false;
        };
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        !names.iter().any(|name| {
            memchr::memmem::find_iter(self.src, name.as_bytes()).any(|i| {
                let end = i + name.len();
                (i == 0 || !ident(self.src[i - 1]) && self.src[i - 1] != b'/')
                    && self.src.get(end).is_none_or(|&b| !ident(b) && b != b'.')
            })
        })
    }

    /// The include path for `inner` when it reaches a file this run renames.
    fn renamed_include(&self, inner: &str) -> Option<String> {
        let renamed = self.opts.renamed.as_ref()?;
        let search = self.opts.include_search.as_deref();
        crate::includes::renamed_include(renamed, search, self.rel?, inner)
    }

    /// HIP's `_sync` builtins insist on a 64-bit mask: widens the 32-lane full mask, in any
    /// spelling (`0xffffffff`, `~0u`, `uint32_t(-1)`), written in the call or as a macro of this
    /// file (whose body is widened once). H003 leaves these masks to this rewrite.
    fn widen_full_mask(&mut self, mask: Node) {
        if self.widen_macro_call_mask(mask) {
            return;
        }
        let mask_text = node_text(mask, self.src);
        let name = mask_text.trim().trim_matches(['(', ')']).trim();
        self.load_header_macros(name);
        let at = mask.start_byte();
        let full = match self.define_in_force(name, at) {
            // A name the file `#undef`s and defines again: the definition in force here (V17-c).
            Some(in_force) => {
                let mut defines = self.defines.clone();
                match in_force {
                    Some((value, _)) => defines.insert(name.to_string(), value),
                    None => defines.remove(name),
                };
                is_narrow_full_mask_with(mask, self.src, &defines)
            }
            None => is_narrow_full_mask_with(mask, self.src, &self.defines),
        };
        let span = if !full {
            self.unseen_mask(mask);
            None
        } else if let Some(guard) = self.first_32_lanes_guard(mask) {
            self.keep_running_lanes(mask, guard);
            None
        } else if let Some(span) = self.widen_definition(name, at) {
            // Every use of the macro is a mask: widen its body, once.
            Some(span).filter(|s| self.widened.insert(s.0))
        } else {
            // A macro used for other things too (`bitmap == FULL`) keeps its value.
            Some((mask.start_byte(), mask.end_byte()))
        };
        if let Some((start, end)) = span {
            self.widen_mask_at(start, end);
        }
    }

    /// The span of the value of object-like macro `name` where a 32-lane full mask it names is
    /// widened in its definition rather than at its uses: the macro is defined in this file,
    /// which is not a header, and every use of it in the file is the mask of a `_sync` builtin
    /// ([`Walk::only_masks`]). A header's definition stays as it is (widened at each mask use):
    /// the files that include it may use the name as a 32-bit value (`ballot == FULLMASK`,
    /// `uint32_t m = FULLMASK;`) where a 64-bit one would change what they compute (R31-c).
    fn widen_definition(&mut self, name: &str, at: usize) -> Option<(usize, usize)> {
        self.load_header_macros(name);
        let from_header = self
            .header_macros
            .as_ref()
            .is_some_and(|h| h.contains(name));
        let header = self.is_header();
        if !self.defines.contains_key(name) || from_header || header || !self.only_masks(name) {
            return None;
        }
        match self.define_in_force(name, at) {
            Some(in_force) => in_force.map(|(_, span)| span),
            None => self.define_spans.get(name).copied(),
        }
    }

    /// Whether this file is a header by its extension (`.h`, `.cuh`, `.hpp`, ...).
    fn is_header(&self) -> bool {
        std::path::Path::new(self.file)
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| {
                matches!(
                    e.to_ascii_lowercase().as_str(),
                    "h" | "hh" | "hpp" | "hxx" | "cuh" | "inl" | "cuinl" | "tcc" | "inc"
                )
            })
    }

    /// The definition of object-like macro `name` in force at `at` where the file `#undef`s the
    /// name (V17-c): the last one before `at` (its value and the value's span), or `Some(None)`
    /// where an `#undef` after it and before `at` cancels it. `None` where the file does not
    /// `#undef` the name, or defines it only after `at`: `defines` holds its definition.
    fn define_in_force(&self, name: &str, at: usize) -> Option<Option<(String, (usize, usize))>> {
        let history = self.define_history.get(name)?;
        let src = self.src;
        let undefs_in = |range: Range<usize>| {
            memchr::memmem::find_iter(&src[range.clone()], b"undef").any(|i| {
                let i = range.start + i;
                let line_start = memchr::memrchr(b'\n', &src[..i]).map_or(0, |l| l + 1);
                let line_end = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |l| i + l);
                undef_of(&src[line_start..line_end]) == Some(name.as_bytes())
            })
        };
        if !undefs_in(0..src.len()) {
            return None;
        }
        let (_, value, span) = history.iter().rev().find(|(start, _, _)| *start < at)?;
        let end = span.1.min(at);
        Some((!undefs_in(end..at)).then(|| (value.clone(), *span)))
    }

    /// `text` with the file's macros it names expanded, as the preprocessor would: object-like
    /// names by their values, calls of function-like macros by their bodies with the arguments
    /// (themselves expanded) in place of the parameters, each in parentheses. `None` where that
    /// goes more than 8 levels deep or a call's arguments do not match the macro's parameters.
    fn expand_macros(&self, text: &str, depth: u32) -> Option<String> {
        if depth > 8 {
            return None;
        }
        let bytes = text.as_bytes();
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for id in lexer::identifiers(bytes) {
            if id.start < last {
                continue;
            }
            let word = &text[id.clone()];
            if let Some(f) = self.fn_defines.get(word) {
                let Some((args, end)) = call_args(&bytes[id.end..]) else {
                    continue;
                };
                if args.len() != f.params.len() {
                    return None;
                }
                let args = args
                    .iter()
                    .map(|r| {
                        self.expand_macros(text[id.end + r.start..id.end + r.end].trim(), depth + 1)
                    })
                    .collect::<Option<Vec<String>>>()?;
                let body = substitute_params(&f.value, &f.params, &args)?;
                let body = self.expand_macros(&body, depth + 1)?;
                out.push_str(&text[last..id.start]);
                out.push('(');
                out.push_str(&body);
                out.push(')');
                last = id.end + end;
            } else if let Some(value) = self.defines.get(word) {
                let value = self.expand_macros(value, depth + 1)?;
                out.push_str(&text[last..id.start]);
                out.push('(');
                out.push_str(&value);
                out.push(')');
                last = id.end;
            }
        }
        out.push_str(&text[last..]);
        Some(out)
    }

    /// The call of a function-like macro of the file that lane mask `mask` is (parentheses
    /// around it aside), with the macro's name and what the call expands to as a mask.
    fn macro_call_mask(&self, mask: Node<'a>) -> Option<(Node<'a>, String, Option<MaskClass>)> {
        let mut e = mask;
        while e.kind_name() == "parenthesized_expression" {
            e = e.named_child(0)?;
        }
        let func = e
            .field(FIELDS.function)
            .filter(|f| e.kind_name() == "call_expression" && f.kind_name() == "identifier")?;
        let name = node_text(func, self.src);
        if !self.fn_defines.contains_key(name) || self.own_macros.contains(name) {
            return None;
        }
        let class = self
            .expand_macros(node_text(e, self.src), 0)
            .and_then(|t| MaskClass::of(&t));
        Some((e, name.to_string(), class))
    }

    /// A lane mask written as a call of a function-like macro of the file (V17-b), for HIP 6.2
    /// and later, whose `_sync` builtins require a 64-bit mask (static_assert). Where the call
    /// expands to the 32-lane full mask it is widened: through an identity wrapper (`#define
    /// FMASK(x) (x)`), the argument, as a mask written in the call is; for a macro without
    /// parameters (`#define ALL_LANES() 0xffffffffu`), its body where every use of it is a
    /// `_sync` mask (as an object-like macro's is), else the call at this use; a call of another
    /// macro that computes the full mask from its constant arguments (`MASK2(0xffff0000u,
    /// 0x0000ffffu)`, its bit operators folded), the call at this use. One giving a partial
    /// 32-bit mask is an error, as the mask could not build. Returns whether `mask` was such a
    /// call.
    fn widen_macro_call_mask(&mut self, mask: Node) -> bool {
        let Some((call, name, class)) = self.macro_call_mask(mask) else {
            return false;
        };
        let Some(f) = self.fn_defines.get(&name).cloned() else {
            return false;
        };
        let Some(info) = crate::analysis::DIAGS.iter().find(|d| d.id == "H003") else {
            return true;
        };
        let text = node_text(call, self.src).to_string();
        let v = self.opts.hip_version;
        match class {
            Some(MaskClass::Full32) => {
                let args: Vec<Node> = call
                    .field(FIELDS.arguments)
                    .map(|a| {
                        parse::named_children(a)
                            .filter(|n| SUB_KINDS.of(*n) != Sub::Comment)
                            .collect()
                    })
                    .unwrap_or_default();
                if f.is_identity() && args.len() == 1 {
                    self.widen_full_mask(args[0]);
                } else if let Some(guard) = self.first_32_lanes_guard(call) {
                    self.keep_running_lanes(call, guard);
                } else if f.params.is_empty() {
                    let header = self.is_header();
                    let from_header = self
                        .header_macros
                        .as_ref()
                        .is_some_and(|h| h.contains(&name));
                    if !header && !from_header && self.only_masks(&name) {
                        if self.widened.insert(f.span.0) {
                            self.widen_mask_at(f.span.0, f.span.1);
                        }
                    } else {
                        self.widen_mask_at(call.start_byte(), call.end_byte());
                    }
                } else if !f.fixes_32_bits() {
                    // Its arguments are constants (else the call would not have been read as
                    // one): the call names every lane here as `0xffffffffu` written in its
                    // place would, and is widened at this use; the macro keeps its body for
                    // other uses (`MASK2(0xffff0000u, 0x0000ffffu)`; verify18 V18-d).
                    self.widen_mask_at(call.start_byte(), call.end_byte());
                }
            }
            Some(MaskClass::Partial32) if !f.fixes_32_bits() => {
                self.diag(
                    info,
                    call.start_byte(),
                    format!("lane mask `{text}` expands to a partial 32-lane mask in 32 bits: HIP {v}'s `_sync` builtins require a 64-bit mask (static_assert), and on 64-lane wavefronts it leaves lanes 32-63 out"),
                    Some("decide which of the 64 lanes take part and make the mask 64-bit (`...ull`)".into()),
                );
            }
            _ => {}
        }
        true
    }

    /// Writes the 64-lane full mask over `start..end`, a 32-lane one.
    fn widen_mask_at(&mut self, start: usize, end: usize) {
        self.edits.push(Edit::replace(
            start,
            end,
            "0xffffffffffffffffull",
            "warp-mask-64",
        ));
        self.count(Family::Device);
    }

    /// A 32-lane full mask as the mask of a `_sync` call in the body of macro definition `body`
    /// (lightseq's `WarpReduceSumOneStep`, ge-spmm's shuffle macros; realuser31 R31-d), in any
    /// spelling code has widened ([`narrow_full_mask_text`]; verify14 PE-2), or the name of an
    /// object-like macro with such a value (ge-spmm's `FULLMASK`; realuser31 R31-c): widened to
    /// 64 bits as in code, for HIP 6.2 and later. A named mask is widened as
    /// [`Walk::widen_full_mask`] widens it in code: its definition where every use is a mask
    /// (see [`Walk::widen_definition`]), else at this use, the definition keeping its 32-bit
    /// value for its other uses. Where a use of the macro in this file runs only on the first 32
    /// lanes (`if (tid < 32)`), the widened mask would name lanes that do not run it, and HIP's
    /// mask check traps: the body is left as it is, with H003's error at the mask.
    fn widen_masks_in_body(&mut self, body: Node, text: &[u8]) {
        // The whole definition: tree-sitter ends a body at its first block comment.
        let text = match self
            .src
            .get(body.start_byte()..define_end(self.src, body.start_byte()))
        {
            Some(whole) if whole.len() > text.len() => whole,
            _ => text,
        };
        if self.opts.hip_version < WARP_SYNC_HIP || memchr::memmem::find(text, b"_sync").is_none() {
            return;
        }
        // The parameters of a function-like macro, which no object-like macro is at a use.
        let params = body
            .parent()
            .and_then(|d| d.field(FIELDS.parameters))
            .map(|p| node_text(p, self.src).to_string())
            .unwrap_or_default();
        let calls: Vec<(Range<usize>, Option<String>)> = lexer::identifiers(text)
            .into_iter()
            .filter(|tok| {
                WIDENED_IN_MACROS.contains(&std::str::from_utf8(&text[tok.clone()]).unwrap_or(""))
            })
            .filter_map(|tok| {
                let (args, _) = call_args(&text[tok.end..])?;
                let first = args.first()?;
                let range = tok.end + first.start..tok.end + first.end;
                // Blanks, comments and line continuations around it (`__shfl_xor_sync( \` then
                // the mask on a line of its own; verify14 REG-A).
                let (lead, len) = bare_argument(&text[range.clone()]);
                let bare = range.start + lead..range.start + lead + len;
                let arg = &text[bare.clone()];
                if narrow_full_mask_text(arg) {
                    return Some((bare, None));
                }
                // A call of a function-like macro that gives the full mask (`ALL_LANES()`; V17-b).
                let called = lexer::identifiers(arg)
                    .first()
                    .filter(|id| id.start == 0)
                    .is_some_and(|id| {
                        self.fn_defines
                            .contains_key(std::str::from_utf8(&arg[id.clone()]).unwrap_or(""))
                    });
                if called
                    && std::str::from_utf8(arg)
                        .ok()
                        .and_then(|t| self.expand_macros(t, 0))
                        .and_then(|t| MaskClass::of(&t))
                        == Some(MaskClass::Full32)
                {
                    return Some((bare, None));
                }
                let name = std::str::from_utf8(arg)
                    .ok()?
                    .trim_matches(|c: char| c == '(' || c == ')' || c.is_ascii_whitespace());
                if !is_plain_identifier(name)
                    || lexer::whole_words(params.as_bytes(), name).next().is_some()
                {
                    return None;
                }
                Some((bare, Some(name.to_string())))
            })
            .collect();
        let mut masks: Vec<(Range<usize>, Option<String>)> = Vec::new();
        for (range, name) in calls {
            match name {
                None => masks.push((range, None)),
                Some(name) => {
                    self.load_header_macros(&name);
                    let full = crate::analysis::define_value(&self.defines, &name)
                        .is_some_and(|v| narrow_full_mask_text(v.as_bytes()));
                    if full {
                        masks.push((range, Some(name)));
                    } else {
                        // A name defined nowhere hipport looks gets the warning it gets in code.
                        let at = body.start_byte() + range.start;
                        if let Some(name) = self.unseen_name(name, at..at + range.len()) {
                            self.report_unseen_mask(name, at);
                        }
                    }
                }
            }
        }
        if masks.is_empty() {
            return;
        }
        let name = body
            .parent()
            .and_then(|d| d.field(FIELDS.name))
            .map(|n| node_text(n, self.src).to_string());
        let guard = name
            .as_deref()
            .and_then(|name| self.use_on_first_32(body, name));
        for (m, named) in masks {
            let (start, end) = (body.start_byte() + m.start, body.start_byte() + m.end);
            match guard {
                None => match named.and_then(|n| self.widen_definition(&n, body.start_byte())) {
                    Some((s, e)) => {
                        if self.widened.insert(s) {
                            self.widen_mask_at(s, e);
                        }
                    }
                    None => self.widen_mask_at(start, end),
                },
                Some((line, ref guard_text)) => {
                    let Some(info) = crate::analysis::DIAGS.iter().find(|d| d.id == "H003") else {
                        return;
                    };
                    let written = String::from_utf8_lossy(&self.src[start..end]).into_owned();
                    let macro_name = name.as_deref().unwrap_or("");
                    self.diag(
                        info,
                        start,
                        format!("lane mask `{written}` in the body of macro `{macro_name}` is 32 bits, and HIP's _sync builtins require a 64-bit mask (static_assert); hipport does not widen it because a use of `{macro_name}` runs only where `{guard_text}` (line {line}) holds, on lanes 0-31 of a 64-lane wavefront, and HIP 6.2 and later check that a mask names exactly the lanes that run it"),
                        Some("pass the mask as a macro argument: `__activemask()` at the use on the first 32 lanes, `~0ull` where the whole wavefront runs it".into()),
                    );
                }
            }
        }
    }

    /// The line and text of a first-32-lanes guard (see [`Self::first_32_lanes_guard`]) around a
    /// use of macro `name` in this file, outside its definition `body`.
    fn use_on_first_32(&self, body: Node, name: &str) -> Option<(usize, String)> {
        let root = std::iter::successors(Some(body), |p| p.parent()).last()?;
        let src = self.src;
        lexer::whole_words(src, name)
            .filter(|&at| !parse::in_directive(src, at))
            .find_map(|at| {
                let node = root.descendant_for_byte_range(at, at + name.len())?;
                let guard = self.first_32_lanes_guard(node)?;
                let text = node_text(guard, src)
                    .split_ascii_whitespace()
                    .collect::<Vec<_>>()
                    .join(" ");
                Some((self.index.position(guard.start_byte()).0, text))
            })
    }

    /// The full mask of a `_sync` call that only the first 32 threads of the block reach (R24-f):
    /// on a 64-lane wavefront lanes 0-31 run there, and HIP's `__hip_check_mask` asserts that the
    /// mask equals `__ballot(true)` (amd_warp_sync_functions.h, HIP 6.2; a trap without NDEBUG),
    /// so the widened 64-lane mask would trap. It becomes `__activemask()`, the lanes that run
    /// the call, as the analysis writes it in the half-wavefront branches it finds
    /// ([`HALF_WAVE_MASK`]): right on 32-lane wavefronts too, and where the guard holds for more
    /// threads than it seems to (`threadIdx.x < 32` in blocks 32 threads wide with several rows).
    /// A note (H003) says why.
    fn keep_running_lanes(&mut self, mask: Node, guard: Node) {
        self.edits.push(Edit::replace(
            mask.start_byte(),
            mask.end_byte(),
            "__activemask()",
            HALF_WAVE_MASK,
        ));
        self.count(Family::Device);
        let Some(info) = crate::analysis::DIAGS.iter().find(|d| d.id == "H003") else {
            return;
        };
        let callee = mask
            .parent()
            .and_then(|args| args.parent())
            .and_then(|call| call.field(FIELDS.function))
            .map_or("the call", |f| node_text(f, self.src));
        let guard_text = node_text(guard, self.src)
            .split_ascii_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let line = self.index.position(guard.start_byte()).0;
        self.diag(
            info,
            mask.start_byte(),
            format!("`{callee}` runs only where `{guard_text}` (line {line}) holds, on lanes 0-31 of a 64-lane wavefront: {RUNNING_LANES_MASK} in place of the full mask, which hipport would widen to all 64 lanes, while HIP 6.2 and later check that a mask names exactly the lanes that run it (builds without NDEBUG trap)"),
            Some("nothing to change in the converted code; porting by hand, pass `__activemask()` as the mask there (on 32-lane GPUs the branch is a whole warp and `__activemask()` its full mask, so the results are the same on both wavefront sizes)".into()),
        );
        if let Some(d) = self.diags.last_mut() {
            d.severity = Severity::Note;
        }
    }

    /// The condition that leaves only the first 32 threads of the block running at `mask`'s
    /// call: of an `if` whose body holds the call (`if (threadIdx.x < 32)`, `if (warp == 0)` with
    /// `warp = threadIdx.x / 32`, `tid < 32 && ...`), or of an earlier `if (...) return;` of an
    /// enclosing block (`if (threadIdx.x >= 32) return;`), within the call's function.
    fn first_32_lanes_guard<'t>(&self, mask: Node<'t>) -> Option<Node<'t>> {
        let function = std::iter::successors(mask.parent(), |p| p.parent())
            .find(|p| p.kind_name() == "function_definition")?;
        let body = &self.src[function.byte_range()];
        let mut child = mask;
        while let Some(p) = child.parent() {
            match p.kind_name() {
                "function_definition" | "lambda_expression" => return None,
                "if_statement"
                    if p.field(FIELDS.consequence).map(|c| c.id()) == Some(child.id()) =>
                {
                    let cond = if_condition(p)?;
                    if self.limits_to_32(cond, body, true) {
                        return Some(cond);
                    }
                }
                "compound_statement" => {
                    let exits = parse::named_children(p)
                        .take_while(|s| s.end_byte() <= child.start_byte())
                        .filter(|s| s.kind_name() == "if_statement" && returns(*s))
                        .filter_map(if_condition)
                        .find(|c| self.limits_to_32(*c, body, false));
                    if exits.is_some() {
                        return exits;
                    }
                }
                _ => {}
            }
            child = p;
        }
        None
    }

    /// Whether condition `cond` holds only for the first 32 threads of the block (`inside`: the
    /// code runs where it holds) or holds for every thread past them (not `inside`: the code
    /// runs where it fails, after `if (cond) return;`). `body` is the function's text, where the
    /// variables it names are declared.
    fn limits_to_32(&self, cond: Node, body: &[u8], inside: bool) -> bool {
        let cond = unparenthesized(cond);
        let Some(op) = cond.field(FIELDS.operator).map(|o| node_text(o, self.src)) else {
            return false;
        };
        if cond.kind_name() == "unary_expression" {
            // `!warp`: warp 0 only; `if (warp) return;` likewise.
            let arg = cond.field(FIELDS.argument);
            return inside
                && op == "!"
                && arg.is_some_and(|a| self.lane_index(a, body) == Some(LaneIndex::Warp));
        }
        let (Some(l), Some(r)) = (cond.field(FIELDS.left), cond.field(FIELDS.right)) else {
            return false;
        };
        match (op, inside) {
            ("&&", true) | ("||", false) => {
                return self.limits_to_32(l, body, inside) || self.limits_to_32(r, body, inside)
            }
            _ => {}
        }
        // The index on the left: `32 > tid` is `tid < 32`.
        let (index, op, bound) = match (self.lane_index(l, body), self.lane_index(r, body)) {
            (Some(i), None) => (i, op.to_string(), r),
            (None, Some(i)) => (i, flip_comparison(op).to_string(), l),
            _ => return false,
        };
        let Some(n) = self.constant_of(bound, body) else {
            return false;
        };
        match (index, op.as_str(), inside) {
            (LaneIndex::Thread, "<", true) | (LaneIndex::Thread, ">=", false) => {
                (1..=32).contains(&n)
            }
            (LaneIndex::Thread, "<=", true) | (LaneIndex::Thread, ">", false) => n <= 31,
            (LaneIndex::Warp, "==" | "<=", true) | (LaneIndex::Warp, "!=" | ">", false) => n == 0,
            (LaneIndex::Warp, "<", true) | (LaneIndex::Warp, ">=", false) => n == 1,
            _ => false,
        }
    }

    /// What expression `e` counts: the thread of the block (`threadIdx.x`, a cast of it, a local
    /// set to it and never changed), or the 32-thread warp (`threadIdx.x / 32`, `tid >> 5`).
    fn lane_index(&self, e: Node, body: &[u8]) -> Option<LaneIndex> {
        self.lane_index_text(node_text(e, self.src), body, 3)
    }

    /// [`Walk::lane_index`] on an expression's text, following locals `depth` times.
    fn lane_index_text(&self, text: &str, body: &[u8], depth: usize) -> Option<LaneIndex> {
        let t: String = text.split_ascii_whitespace().collect();
        let t = strip_cast(&t);
        if t == "threadIdx.x" {
            return Some(LaneIndex::Thread);
        }
        for (op, by) in [("/", 32), (">>", 5)] {
            if let Some(at) = t.rfind(op) {
                let (left, right) = (&t[..at], &t[at + op.len()..]);
                if self.constant_text(right, body) == Some(by)
                    && self.lane_index_text(left, body, depth)? == LaneIndex::Thread
                {
                    return Some(LaneIndex::Warp);
                }
                return None;
            }
        }
        if depth == 0 || !is_plain_identifier(t) {
            return None;
        }
        let init = sole_initializer(body, t, false)?;
        self.lane_index_text(&init, body, depth - 1)
    }

    /// The value of a constant operand: a literal, an object-like macro of the file or a
    /// constant of the function or file set to a literal (`WARP = 32`, `kWarp = 32`).
    fn constant_of(&self, e: Node, body: &[u8]) -> Option<u64> {
        self.constant_text(node_text(e, self.src), body)
    }

    /// [`Walk::constant_of`] on an operand's text.
    fn constant_text(&self, text: &str, body: &[u8]) -> Option<u64> {
        let t = text.trim().trim_matches(['(', ')']).trim();
        if let Some(v) = int_literal(t) {
            return Some(v);
        }
        if !is_plain_identifier(t) {
            return None;
        }
        let value = match self.defines.get(t) {
            Some(body) => body.clone(),
            None => {
                sole_initializer(body, t, true).or_else(|| sole_initializer(self.src, t, true))?
            }
        };
        int_literal(value.trim().trim_matches(['(', ')']).trim())
    }

    /// Removes each calling-convention macro (`CUDART_CB`, `CUDA_CB`) with the blanks after it,
    /// in code and in `#define` bodies: `void CUDART_CB done(...)` -> `void done(...)`. The name a
    /// directive defines, tests or undefines stays (`#ifndef CUDART_CB` / `#define CUDART_CB`).
    /// Found by text, since the parser is shown blanks there (`parse::parseable`).
    fn remove_callback_conventions(&mut self) {
        if memchr::memmem::find(self.src, b"_CB").is_none() {
            return;
        }
        for id in lexer::identifiers(self.src) {
            let word = std::str::from_utf8(&self.src[id.clone()]).unwrap_or("");
            if id.start >= self.dead_from
                || !parse::is_calling_convention(word)
                || (parse::in_directive(self.src, id.start)
                    && !parse::in_define_body(self.src, id.start))
            {
                continue;
            }
            let blanks = self.src[id.end..]
                .iter()
                .take_while(|&&b| b == b' ' || b == b'\t')
                .count();
            self.edits.push(Edit::replace(
                id.start,
                id.end + blanks,
                "",
                "callback-convention",
            ));
            self.count(Family::Runtime);
        }
    }

    /// Removes `__grid_constant__` with the blanks after it: `const __grid_constant__ Params p`
    /// becomes `const Params p`. CUDA's qualifier lets a kernel take the address of a `const`
    /// parameter without a copy; HIP has no such qualifier (hipcc: an error) and a kernel's
    /// parameters are read-only there too, so the parameter without it behaves the same.
    fn remove_grid_constant(&mut self, start: usize, end: usize) {
        let blanks = self.src[end..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        self.edits
            .push(Edit::replace(start, end + blanks, "", "grid-constant"));
        self.count(Family::Device);
    }

    /// `threadIdx.x` and its kin are objects with a conversion to `unsigned` in HIP's headers
    /// (5.2.3's `__HIP_Coordinates`), not `unsigned` values: clang cannot pass one to `printf`
    /// ("cannot compile this non-scalar arg to printf yet") and finds `min`/`max` ambiguous. As
    /// such an argument, each gets an explicit `(unsigned)`, which is what it is in CUDA.
    fn cast_index_args(&mut self, call: Node) {
        let Some(args) = call.field(FIELDS.arguments) else {
            return;
        };
        for arg in parse::named_children(args) {
            if arg.kind_name() != "field_expression" {
                continue;
            }
            let obj = arg.field(FIELDS.argument).map(|o| node_text(o, self.src));
            let member = arg.field(FIELDS.field).map(|f| node_text(f, self.src));
            if matches!(obj, Some("threadIdx" | "blockIdx" | "blockDim" | "gridDim"))
                && matches!(member, Some("x" | "y" | "z"))
            {
                self.edits
                    .push(Edit::insert(arg.start_byte(), "(unsigned)", "index-cast"));
            }
        }
    }

    /// Notes device code at `at`.
    fn mark_device(&mut self, at: usize) {
        self.has_device_code = true;
        if self.device_marks.len() < DEVICE_MARKS {
            self.device_marks.push(at);
        }
    }

    /// Whether every device construct seen lies in a preprocessor branch that tests a CUDA
    /// compiler macro (`#ifdef __CUDACC__`, `#if defined(__CUDA_ARCH__)`): code that host
    /// compilers never see, so the runtime include it needs can be for hipcc alone.
    fn device_code_is_guarded(&self, tree: &Tree) -> bool {
        if self.device_marks.is_empty() || self.device_marks.len() >= DEVICE_MARKS {
            return false;
        }
        let root = tree.root_node();
        self.device_marks.iter().all(|&at| {
            let mut n = root.descendant_for_byte_range(at, at);
            while let Some(node) = n {
                if matches!(
                    node.kind_name(),
                    "preproc_if" | "preproc_ifdef" | "preproc_elif" | "preproc_elifdef"
                ) {
                    let rest = &self.src[node.start_byte()..];
                    let head = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
                    if [&b"__CUDACC__"[..], b"__CUDA_ARCH__", b"__NVCC__"]
                        .iter()
                        .any(|m| memchr::memmem::find(head, m).is_some())
                    {
                        return true;
                    }
                }
                n = node.parent();
            }
            false
        })
    }

    /// `struct cudaExternalMemoryHandleDesc d;`: HIP's name is a typedef of a differently
    /// tagged struct (`hipExternalMemoryHandleDesc_st`), which `struct` cannot name; the keyword
    /// before a renamed type is dropped where the name is used, not declared or defined.
    fn drop_elaborating_keyword(&mut self, start: usize, end: usize) {
        let before = &self.src[..start];
        let trimmed = before.trim_ascii_end();
        if trimmed.len() == before.len() {
            return;
        }
        let Some(keyword) = [&b"struct"[..], b"enum", b"union"]
            .into_iter()
            .find(|k| trimmed.ends_with(k))
        else {
            return;
        };
        let at = trimmed.len() - keyword.len();
        if at > 0 && (self.src[at - 1].is_ascii_alphanumeric() || self.src[at - 1] == b'_') {
            return;
        }
        // A definition or a declaration of the tag itself keeps it.
        let next = self.src[end..].trim_ascii_start().first().copied();
        if matches!(next, Some(b'{' | b';' | b':') | None) {
            return;
        }
        self.edits
            .push(Edit::replace(at, start, "", "elaborated-type"));
    }

    /// `auto t = threadIdx.x;` makes `t` HIP's coordinate object, not an `unsigned` (printf then
    /// prints garbage, `min`/`max` do not resolve): the index is cast where it is copied into an
    /// `auto` variable. Decided by text: `auto NAME = ` before, `;` or `,` after.
    fn cast_auto_index(&mut self, at: usize) {
        let after = &self.src[at..];
        let len = after
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b'.')
            .count();
        let member = &after[..len];
        if !matches!(
            member.rsplit(|b| *b == b'.').next(),
            Some(b"x" | b"y" | b"z")
        ) || member.iter().filter(|b| **b == b'.').count() != 1
        {
            return;
        }
        let rest = after[len..].trim_ascii_start();
        if !matches!(rest.first(), Some(b';' | b',')) {
            return;
        }
        let before = self.src[..at].trim_ascii_end();
        let Some(before) = before.strip_suffix(b"=") else {
            return;
        };
        let stmt_start = before
            .iter()
            .rposition(|b| matches!(b, b';' | b'{' | b'}' | b'\n' | b'('))
            .map_or(0, |i| i + 1);
        let stmt = &before[stmt_start..];
        let words = |t: &'a [u8]| -> Vec<&'a [u8]> {
            t.split(|b| b.is_ascii_whitespace())
                .filter(|w| !w.is_empty())
                .collect()
        };
        // `auto a = threadIdx.x, b = blockIdx.y;`: the later declarators of an `auto`
        // declaration are cast too, or the two would deduce different types.
        let (head, last) = match stmt.iter().rposition(|b| *b == b',') {
            Some(comma) => {
                let first_eq = stmt.iter().position(|b| *b == b'=').unwrap_or(stmt.len());
                (&stmt[..first_eq], &stmt[comma + 1..])
            }
            None => (stmt, &stmt[..0]),
        };
        let head = words(head);
        let is_auto = match head.as_slice() {
            [b"auto", _] => true,
            [q, b"auto", _] => matches!(*q, b"const" | b"static"),
            _ => false,
        } && (last.is_empty() || words(last).len() == 1);
        if is_auto {
            self.edits
                .push(Edit::insert(at, "(unsigned)", "index-cast"));
        }
    }

    /// Before a mask that names something the file does not define: reads the object-like
    /// macros of the project headers the file includes (quoted ones beside it, then at the
    /// input root; `<dir/x.h>` ones above it; their own includes too, three levels deep), once per file, into `defines`
    /// for the names the file does not define itself. `FULL_MASK` from a project's `common.h`.
    /// A name still unknown is looked for in what the files including this one see before
    /// their include of it (fairseq's kernels include `mask.cuh` before `"../cuda_utils.cu"`),
    /// once per file too (R19-a).
    fn load_header_macros(&mut self, name: &str) {
        // Only a name the file neither defines nor declares (not a literal, not a variable) can
        // come from a header.
        if self.defines.contains_key(name)
            || self.declared.contains(name)
            || !is_plain_identifier(name)
        {
            return;
        }
        let file = std::path::Path::new(self.file);
        // The input root: the file's path without its path relative to the root.
        let root = self.rel.and_then(|rel| {
            let up = rel.split('/').count();
            file.ancestors().nth(up).map(std::path::Path::to_path_buf)
        });
        if self.header_macros.is_none() {
            let mut loaded = HashSet::new();
            let dir = file
                .parent()
                .map(std::path::Path::to_path_buf)
                .unwrap_or_default();
            for (macro_name, value) in
                crate::headers::include_macros(self.src, &dir, root.as_deref())
            {
                if !self.defines.contains_key(&macro_name) {
                    self.defines.insert(macro_name.clone(), value);
                    loaded.insert(macro_name);
                }
            }
            self.header_macros = Some(loaded);
        }
        if self.defines.contains_key(name) || self.includers_read {
            return;
        }
        self.includers_read = true;
        let Some(root) = root else {
            return;
        };
        // The result depends on the tree's other files now.
        self.looked_for_project_headers = true;
        for (macro_name, value) in crate::headers::includer_macros(file, &root) {
            if !self.defines.contains_key(&macro_name) && !self.declared.contains(&macro_name) {
                self.defines.insert(macro_name.clone(), value);
                if let Some(h) = self.header_macros.as_mut() {
                    h.insert(macro_name);
                }
            }
        }
    }

    /// The name of mask `mask` where it is a macro or constant hipport cannot see anywhere (not
    /// in the file, its headers, nor what its includers define before including it; R19-a).
    fn unseen_mask_name(&mut self, mask: Node) -> Option<String> {
        let mut inner = mask;
        while inner.kind() == "parenthesized_expression" {
            inner = inner.named_child(0)?;
        }
        if inner.kind() != "identifier" {
            return None;
        }
        let name = node_text(mask, self.src)
            .trim_matches(|c: char| c == '(' || c == ')' || c.is_whitespace())
            .to_string();
        self.unseen_name(name, mask.start_byte()..mask.end_byte())
    }

    /// [`Walk::unseen_mask_name`] for mask name `name` written at `span` (in code, or in a
    /// macro body).
    fn unseen_name(&mut self, name: String, span: Range<usize>) -> Option<String> {
        self.load_header_macros(&name);
        // A name the build defines (`-D`, or a header's platform macro) is known to it.
        if !is_plain_identifier(&name)
            || self.defines.contains_key(&name)
            || self.declared.contains(&name)
            || self.opts.defines.iter().any(|d| d.name == name)
        {
            return None;
        }
        let src = self.src;
        let known = self
            .const_values
            .entry((name.clone(), usize::MAX))
            .or_insert_with(|| const_initializer(src, &name))
            .is_some()
            || lexer::identifiers(src).into_iter().any(|id| {
                &src[id.clone()] == name.as_bytes()
                    && (id.start < span.start || id.start >= span.end)
                    && !parse::in_directive(src, id.start)
                    && !is_sync_mask_argument(src, id.start)
            });
        // Declared or used elsewhere in the file than as a mask: the analysis reads it (a
        // parameter, a variable, an enumerator).
        (!known).then_some(name)
    }

    /// At HIP 6.2 or later, a mask hipport cannot see (see [`Walk::unseen_mask_name`]) reaching
    /// a `_sync` builtin: HIP's static_assert rejects a 32-bit one, and a 64-bit one with lanes
    /// 32-63 clear fails `__hip_check_mask`. Reported once per name (H003, as a warning: its
    /// value may well be right).
    fn unseen_mask(&mut self, mask: Node) {
        if let Some(name) = self.unseen_mask_name(mask) {
            self.report_unseen_mask(name, mask.start_byte());
        }
    }

    /// H003's warning on unseen mask `name` at `at` (see [`Walk::unseen_mask`]), once per name.
    fn report_unseen_mask(&mut self, name: String, at: usize) {
        if !self.unseen_masks.insert(name.clone()) {
            return;
        }
        let Some(info) = crate::analysis::DIAGS.iter().find(|d| d.id == "H003") else {
            return;
        };
        self.warn(
            info,
            at,
            format!(
                "lane mask `{name}` is defined neither in this file nor in the project headers hipport finds for it (nor before an include of this file), so hipport cannot widen it: HIP {}'s `_sync` builtins require a 64-bit mask (static_assert), and one naming lanes 0-31 only fails their check of the active lanes",
                self.opts.hip_version
            ),
            Some(format!(
                "where `{name}` names every lane, define it as `~0ull` for HIP (`0xffffffff` still names lanes 0-31 only); or put the header that defines it in the input"
            )),
        );
    }

    /// Whether every use of macro `name` in the file, outside the directives that define, test or
    /// undefine it, is the mask argument of a `_sync` builtin whose mask the translator widens.
    fn only_masks(&mut self, name: &str) -> bool {
        if let Some(&only) = self.mask_only_macros.get(name) {
            return only;
        }
        let src = self.src;
        let only = lexer::identifiers(src)
            .into_iter()
            .filter(|id| &src[id.clone()] == name.as_bytes())
            .filter(|id| {
                !parse::in_directive(src, id.start) || parse::in_define_body(src, id.start)
            })
            .all(|id| {
                // The call's `(`, and any grouping parentheses after it: `f((FULL), ...)`.
                let mut before = src[..id.start].trim_ascii_end();
                if !before.ends_with(b"(") {
                    return false;
                }
                while let Some(b) = before.strip_suffix(b"(") {
                    before = b.trim_ascii_end();
                }
                let callee = before.len()
                    - before
                        .iter()
                        .rev()
                        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                        .count();
                let callee = std::str::from_utf8(&before[callee..]).unwrap_or("");
                WARP_SYNC.iter().any(|(s, _)| *s == callee)
                    || matches!(callee, "__match_any_sync" | "__match_all_sync")
            });
        self.mask_only_macros.insert(name.to_string(), only);
        only
    }

    /// Keeps the arguments of a call of an [`ignored_function_hint`] (`cuFuncSetCacheConfig(f,
    /// CU_FUNC_CACHE_PREFER_L1)`) as written where the call itself stays (the rules give it no
    /// HIP name): the line is CUDA's whole, to delete, not half renamed (R28-1).
    fn keep_hint_call_args(&mut self, name: &str, call: Node) {
        if self.own_function_names.contains(name)
            || self.defined_here.contains(name)
            || self.own_macros.contains(name)
            || !matches!(
                self.db
                    .target_for(name, &self.opts.libs, self.opts.hip_version),
                Target::Unsupported { .. }
            )
        {
            return;
        }
        let Some(args) = call.field(FIELDS.arguments) else {
            return;
        };
        let at = args.start_byte();
        for id in lexer::identifiers(&self.src[args.byte_range()]) {
            self.handled.insert(at + id.start);
        }
    }

    /// Handles calls whose shape changes: warp builtins and data-driven call rewrites.
    fn visit_call(&mut self, node: Node) {
        let Some(func) = node.field(FIELDS.function) else {
            return;
        };
        // `::cudaEventCreate(...)`: the name after the global scope; the `::` stays.
        let (func, call_start) = if SUB_KINDS.of(func) == Sub::Identifier {
            (func, node.start_byte())
        } else if func.kind_name() == "qualified_identifier" {
            let scope = func.field(FIELDS.scope);
            let name = func
                .field(FIELDS.name)
                .filter(|n| SUB_KINDS.of(*n) == Sub::Identifier);
            match (scope, name) {
                (None, Some(n)) => (n, n.start_byte()),
                // `std::min(threadIdx.x, n)` is as ambiguous in hipcc as `min(...)`.
                (Some(s), Some(n))
                    if node_text(s, self.src) == "std"
                        && matches!(node_text(n, self.src), "min" | "max" | "clamp") =>
                {
                    self.cast_index_args(node);
                    return;
                }
                _ => return,
            }
        } else {
            return;
        };
        let name = self.node_str(func);
        if name.starts_with("roc") {
            self.roc_call_with_hip_types(name, func, node);
        }
        if ignored_function_hint(name).is_some() {
            self.keep_hint_call_args(name, node);
            return;
        }
        if matches!(name, "printf" | "min" | "max") || self.templates.contains(name) {
            self.cast_index_args(node);
        }
        if matches!(name, "sincos" | "sincospi") {
            self.float_sincos(name, func, node);
            return;
        }
        if self.widen_ballot_bit_op(name, func, node) {
            return;
        }
        if matches!(name, "nvrtcCompileProgram" | "nvrtcCreateProgram")
            && !self.own_function_names.contains(name)
            && !self.own_macros.contains(name)
        {
            self.rtc_string_arrays(name, node);
        }
        let warp = WARP_SYNC.iter().find(|(s, _)| *s == name);
        if warp.is_some() || matches!(name, "__syncwarp" | "__match_any_sync" | "__match_all_sync")
        {
            self.read_header_shims();
        }
        if self.own_macros.contains(name) {
            // The project's macro: no rewrite, no report on its mask (R22-b).
            self.handled.insert(func.start_byte());
            self.own_macro_calls
                .push(node.start_byte()..node.end_byte());
            return;
        }
        let reduce = name.starts_with("__reduce_") && SYNC_FROM_HIP_7.contains(&name);
        if warp.is_none()
            && !reduce
            && !matches!(name, "__syncwarp" | "__match_any_sync" | "__match_all_sync")
            && self.db.calls(name).is_empty()
        {
            // No rule can apply: skip collecting the arguments.
            return;
        }
        let Some(args) = node.field(FIELDS.arguments) else {
            return;
        };
        let arg_nodes: Vec<Node> = parse::named_children(args)
            .filter(|n| SUB_KINDS.of(*n) != Sub::Comment)
            .collect();
        if let Some(&(_, plain)) = warp {
            if self.opts.hip_version < WARP_SYNC_HIP {
                self.handled.insert(func.start_byte());
                let Some(mask) = arg_nodes.first() else {
                    return;
                };
                let mask_text = node_text(*mask, self.src);
                if self.is_full_mask(*mask) {
                    self.edits.push(Edit::replace(
                        func.start_byte(),
                        func.end_byte(),
                        plain,
                        "warp-sync",
                    ));
                    let cut_end = arg_nodes.get(1).map_or(mask.end_byte(), |n| n.start_byte());
                    self.edits
                        .push(Edit::replace(mask.start_byte(), cut_end, "", "warp-sync"));
                    self.count(Family::Device);
                } else {
                    // A name hipport cannot see is not known to be partial (R19-a).
                    let unseen = self.unseen_mask_name(*mask).is_some();
                    let what = match unseen {
                        true => format!(", which is defined neither in this file nor in the project headers hipport finds for it (nor before an include of this file), so hipport cannot tell whether it names the full warp: HIP {} has no `{name}`, and only a mask known to name the full warp can become `{plain}`", self.opts.hip_version),
                        false => format!(": HIP {} has no `{name}`, and only a full-warp mask can become `{plain}`", self.opts.hip_version),
                    };
                    let help = if unseen {
                        format!("put the header that defines `{mask_text}` in the input; or let the whole warp take part, or target HIP 6.2 or newer with `--hip-version 6.2`")
                    } else {
                        "let the whole warp take part, or target HIP 6.2 or newer with `--hip-version 6.2`".into()
                    };
                    self.diag(
                        &WARP_SYNC_MASK,
                        mask.start_byte(),
                        format!("`{name}` with mask `{mask_text}`{what}"),
                        Some(help),
                    );
                }
            } else if let Some(mask) = arg_nodes.first() {
                self.widen_full_mask(*mask);
            }
            return;
        }
        // HIP 7.0 added `__syncwarp` and `__reduce_*_sync`, whose masks are 64-bit like the rest.
        let declared = if name == "__syncwarp" || reduce {
            SYNCWARP_HIP
        } else {
            WARP_SYNC_HIP
        };
        if (reduce || matches!(name, "__match_any_sync" | "__match_all_sync" | "__syncwarp"))
            && self.opts.hip_version >= declared
        {
            if let Some(mask) = arg_nodes.first() {
                self.widen_full_mask(*mask);
            }
            if name == "__syncwarp" {
                self.handled.insert(func.start_byte());
                return;
            }
        }
        // HIP before 7.0 has no `__syncwarp` (ROCm/clr's amd_warp_sync_functions.h defined the
        // other `_sync` builtins only): a full-warp one is dropped, a partial one reported.
        if name == "__syncwarp" {
            self.handled.insert(func.start_byte());
            let full = arg_nodes.first().is_none_or(|m| self.is_full_mask(*m));
            if !full {
                let m = node_text(arg_nodes[0], self.src).to_string();
                self.diag(
                    &WARP_SYNC_MASK,
                    arg_nodes[0].start_byte(),
                    format!(
                        "`__syncwarp({m})` with a partial mask has no HIP {} equivalent: `__syncwarp` came with HIP 7.0",
                        self.opts.hip_version
                    ),
                    Some(
                        "a wavefront runs in lockstep: where the lanes only need each other's memory accesses ordered, put `__builtin_amdgcn_fence(__ATOMIC_RELEASE, \"wavefront\"); __builtin_amdgcn_wave_barrier(); __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"wavefront\");` in its place; otherwise restructure so the whole warp synchronizes"
                            .into(),
                    ),
                );
                return;
            }
            // Not removed: without the fences the compiler moves another lane's shared-memory
            // load above the store. One expression, so it stands wherever the call stood.
            self.edits.push(Edit::replace(
                node.start_byte(),
                node.end_byte(),
                WAVEFRONT_SYNC,
                "syncwarp-fenced",
            ));
            self.diag(
                &SYNCWARP_FENCED,
                node.start_byte(),
                format!(
                    "`__syncwarp()` became a wavefront fence pair: HIP {} has no `__syncwarp`",
                    self.opts.hip_version
                ),
                None,
            );
            return;
        }
        if !self.db.calls(name).is_empty() {
            self.rule_call_args
                .push(arg_nodes.iter().map(|n| n.byte_range()).collect());
        }
        let argc = arg_nodes.len();
        let Some(template) = self.filled_call_rule(name, node, &arg_nodes) else {
            // A rewrite that a newer HIP than the target allows: the name's report says so.
            let v = self.opts.hip_version;
            let later = self
                .db
                .calls(name)
                .iter()
                .filter(|r| r.matches_argc(argc) && r.hip_added.is_some_and(|a| a > v))
                .min_by_key(|r| r.hip_added);
            if let Some(r) = later {
                // The arguments' renames come later: the report shows them as written.
                let args: Vec<(String, String)> = arg_nodes
                    .iter()
                    .map(|n| one_line(&self.src[n.byte_range()]))
                    .map(|t| (t.clone(), t))
                    .collect();
                self.later_rewrites.insert(
                    func.start_byte(),
                    (
                        r.hip_added.unwrap_or(v),
                        rewritten_form(name, &r.template, &args),
                    ),
                );
            }
            return;
        };
        self.handled.insert(func.start_byte());
        self.count(Family::Runtime);
        self.call_sites.push(CallSite {
            start: call_start,
            end: node.end_byte(),
            list: (args.start_byte(), args.end_byte()),
            args: arg_nodes
                .iter()
                .map(|n| (n.start_byte(), n.end_byte()))
                .collect(),
            template,
            rule: format!("call:{name}"),
        });
    }

    /// CUDA's math API has float overloads `sincos(float, float*, float*)` and `sincospi`; HIP's
    /// device math (clang's `__clang_hip_math.h`) declares them for double only, so hipcc says
    /// "no matching function for call to 'sincos'" (U-c; checked with hipcc 5.2.3 for gfx90a,
    /// where `sincosf` compiles). A call whose sine pointer is a declared `float` (`float* s`
    /// passed as `s + i`, or `&x` for a `float x`) becomes `sincosf`/`sincospif`; one whose
    /// type is a template parameter is reported (T001, as a warning), since it fails for float.
    fn float_sincos(&mut self, name: &str, func: Node, call: Node) {
        let Some(args) = call.field(FIELDS.arguments) else {
            return;
        };
        let arg_nodes: Vec<Node> = parse::named_children(args)
            .filter(|n| SUB_KINDS.of(*n) != Sub::Comment)
            .collect();
        let [_, sin, _] = arg_nodes.as_slice() else {
            return;
        };
        let scope = std::iter::once(call)
            .chain(parse::ancestors(call))
            .find(|x| x.kind_name() == "function_definition")
            .map_or(0, |f| f.start_byte());
        let Some(ty) = self.declared_type_of_base(*sin, scope..call.start_byte()) else {
            return;
        };
        let float = format!("{name}f");
        if ty == "float" {
            self.edits.push(Edit::replace(
                func.start_byte(),
                func.end_byte(),
                float,
                "float-sincos",
            ));
            self.count(Family::Device);
            return;
        }
        if ty == "double" || !self.is_template_parameter(&ty) {
            return;
        }
        self.warn(
            &UNSUPPORTED,
            func.start_byte(),
            format!("`{name}` with `{ty}` arguments: where `{ty}` is float this is CUDA's float overload `{name}(float, float*, float*)`, which HIP lacks (its device math declares `{name}` for double only), so hipcc finds no matching function"),
            Some(format!("call `{float}` where `{ty}` is float (`if constexpr (std::is_same_v<{ty}, float>)`, or an overloaded helper)")),
        );
    }

    /// The type word declaring the first identifier of `arg` (`s` in `s + i` or `&s`), read
    /// backwards in `scope` (the enclosing function up to the use): the identifier before its
    /// declaration, past `*`, `&` and qualifiers (`float` in `const float* s`). `None` where no
    /// occurrence looks like a declaration.
    fn declared_type_of_base(&self, arg: Node, scope: Range<usize>) -> Option<String> {
        let text = &self.src[arg.byte_range()];
        let first = crate::lexer::identifiers(text).into_iter().next()?;
        let base = &text[first];
        let region = &self.src[scope.clone()];
        for r in crate::lexer::identifiers(region).into_iter().rev() {
            if &region[r.clone()] != base {
                continue;
            }
            let mut at = scope.start + r.start;
            loop {
                while at > 0
                    && matches!(self.src[at - 1], b' ' | b'\t' | b'\n' | b'\r' | b'*' | b'&')
                {
                    at -= 1;
                }
                let end = at;
                while at > 0
                    && (self.src[at - 1].is_ascii_alphanumeric() || self.src[at - 1] == b'_')
                {
                    at -= 1;
                }
                let word = std::str::from_utf8(&self.src[at..end]).unwrap_or("");
                match word {
                    "const" | "volatile" | "__restrict__" | "__restrict" | "restrict" => continue,
                    "" | "return" | "case" | "sizeof" | "else" | "new" | "delete" | "throw"
                    | "goto" | "co_return" | "co_yield" => break,
                    w if w.as_bytes()[0].is_ascii_digit() => break,
                    w => return Some(w.to_string()),
                }
            }
        }
        None
    }

    /// R34-a: NVRTC takes its string arrays (`nvrtcCompileProgram`'s options,
    /// `nvrtcCreateProgram`'s headers and include names) as `const char * const *`, into which
    /// a `char **` converts; hipRTC declares them `const char **`, into which neither `char **`
    /// nor `const char * const *` converts. Such an argument gets a `(const char **)` cast; one
    /// whose type hipport cannot tell is reported, with the cast as help.
    fn rtc_string_arrays(&mut self, name: &str, call: Node) {
        let params: &[(usize, &str)] = match name {
            "nvrtcCompileProgram" => &[(2, "options")],
            _ => &[(4, "headers"), (5, "includeNames")],
        };
        let Some(args) = call.field(FIELDS.arguments) else {
            return;
        };
        let args: Vec<Node> = parse::named_children(args)
            .filter(|a| a.kind_name() != "comment")
            .collect();
        if args.len() != params[params.len() - 1].0 + 1 {
            return;
        }
        for &(i, param) in params {
            let arg = args[i];
            let text = node_text(arg, self.src);
            match rtc_array_type(self.src, arg).as_deref() {
                Some(RTC_NULL | "constchar**" | "charconst**") => {}
                Some("char**" | "char*const*" | "constchar*const*" | "charconst*const*") => {
                    self.edits.push(Edit::insert(
                        arg.start_byte(),
                        "(const char **)",
                        "rtc-string-array",
                    ));
                }
                _ => {
                    let hip = name.replacen("nvrtc", "hiprtc", 1);
                    self.warn(
                        &RTC_STRING_ARRAY,
                        arg.start_byte(),
                        format!("`{hip}` takes its {param} as `const char **`, and hipport cannot tell the type of `{}`: a `char **` or `const char * const *` does not convert, and the call does not compile", one_line(text.as_bytes())),
                        Some(format!("cast it where it is not already `const char **`: `(const char **){}`", one_line(text.as_bytes()))),
                    );
                }
            }
        }
    }

    /// Whether the file declares `name` as a template parameter (`typename Scalar`,
    /// `class T`).
    fn is_template_parameter(&self, name: &str) -> bool {
        ["typename", "class"].iter().any(|kw| {
            let pat = format!("{kw} {name}");
            self.src.windows(pat.len()).enumerate().any(|(i, w)| {
                w == pat.as_bytes()
                    && !self
                        .src
                        .get(i + pat.len())
                        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
            })
        })
    }

    /// The call-shape template that applies to the call `call` of `name` with arguments
    /// `args`, if any, with its `$<NAME:J:K>` lookups filled in (T032 says what was filled in,
    /// or that nothing could be, R36-b).
    fn filled_call_rule(&mut self, name: &str, call: Node, args: &[Node]) -> Option<String> {
        let v = self.opts.hip_version;
        let rules: Vec<_> = self
            .db
            .calls(name)
            .iter()
            .filter(|r| r.matches_argc(args.len()) && r.applies_to(v))
            .collect();
        let mut missed = None;
        for rule in rules {
            if rule.lookups().is_empty() {
                return Some(rule.template.clone());
            }
            let mut added = Vec::new();
            let filled = rule.resolve(&mut |l| {
                let found = self.looked_up(l, call, args);
                added.push((l.clone(), found.clone()));
                found
            });
            let Some(template) = filled else {
                if missed.is_none() {
                    missed = added
                        .into_iter()
                        .find(|(_, found)| found.is_none())
                        .map(|(l, _)| (l, rule.callee().to_string(), rule.hip_before));
                }
                continue;
            };
            for (l, found) in added {
                let key = one_line(&self.src[args[l.key - 1].byte_range()]);
                let (value, whence) = match found {
                    Some(value) => (
                        value,
                        format!("what the `{}` call in this function passes with the same `{key}`", l.callee),
                    ),
                    None if is_c_source(self.file) => (
                        c_casts(&l.default.clone().unwrap_or_default()),
                        format!(
                            "as no `{}` call in this function passes `{key}`; hipSPARSE does not use it there",
                            l.callee
                        ),
                    ),
                    None => (
                        l.default.clone().unwrap_or_default(),
                        format!("as no `{}` call in this function passes `{key}`; hipSPARSE does not use it there", l.callee),
                    ),
                };
                self.diag(
                    &CALL_ARGUMENT_ADDED,
                    call.start_byte(),
                    format!(
                        "`{}` in HIP {v} takes one more argument than `{name}`: hipport passed `{value}`, {whence}",
                        rule.callee()
                    ),
                    None,
                );
                if let Some(d) = self.diags.last_mut() {
                    d.severity = Severity::Note;
                }
            }
            return Some(template);
        }
        if let Some((l, hip, before)) = missed {
            let key = one_line(&self.src[args[l.key - 1].byte_range()]);
            let newer = before.map_or(String::new(), |b| {
                format!(
                    ", or target HIP {}.{} or newer, whose `{hip}` matches cuSPARSE's",
                    b.major, b.minor
                )
            });
            self.diag(
                &CALL_ARGUMENT_ADDED,
                call.start_byte(),
                format!(
                    "`{hip}` in HIP {v} takes one more argument than `{name}` (argument {}, the one `{}` was given with `{key}`), and hipport found no single `{}` call with `{key}` in this function",
                    l.take, l.callee, l.callee
                ),
                Some(format!(
                    "append the argument `{}` was given with `{key}` to this call{newer}",
                    l.callee
                )),
            );
        }
        None
    }

    /// The value a lookup of a call rule stands for at `call`: argument `take` of the one call of
    /// `l.callee` in the function around `call` (or the file, outside functions) whose argument
    /// `key` is written as `call`'s; `None` where there is none, or where such calls pass
    /// different values, or the value names a CUDA API (it would not be renamed).
    fn looked_up(
        &self,
        l: &hipport_rules::calls::Lookup,
        call: Node,
        args: &[Node],
    ) -> Option<String> {
        let compact = |t: &[u8]| -> Vec<u8> {
            t.iter()
                .copied()
                .filter(|b| !b.is_ascii_whitespace() && *b != b'\\')
                .collect()
        };
        let want = compact(&self.src[args.get(l.key - 1)?.byte_range()]);
        let scope = std::iter::successors(call.parent(), |p| p.parent())
            .find(|p| p.kind_name() == "function_definition")
            .map_or(0..self.src.len(), |f| f.byte_range());
        let text = &self.src[scope];
        let mut values: Vec<(Vec<u8>, String)> = Vec::new();
        for id in crate::lexer::identifiers(text) {
            if &text[id.clone()] != l.callee.as_bytes() {
                continue;
            }
            let rest = &text[id.end..];
            let Some((ranges, _)) = call_args(rest) else {
                continue;
            };
            let (Some(k), Some(t)) = (ranges.get(l.key - 1), ranges.get(l.take - 1)) else {
                continue;
            };
            if compact(&rest[k.clone()]) != want {
                continue;
            }
            let value = &rest[t.clone()];
            if !values.iter().any(|(c, _)| *c == compact(value)) {
                values.push((compact(value), one_line(value).trim().to_string()));
            }
        }
        let [(_, value)] = values.as_slice() else {
            return None;
        };
        let names_cuda = crate::lexer::identifiers(value.as_bytes())
            .into_iter()
            .any(|r| self.db.lookup(&value[r]).is_some());
        (!value.is_empty() && !names_cuda).then(|| value.clone())
    }

    /// Rewrites `k<<<g, b, s, st>>>(args)` to `hipLaunchKernelGGL(...)` with small edits,
    /// so renames inside the configuration and arguments still apply.
    fn visit_launch(&mut self, call: Node, config: Node) {
        let Some(func) = call.field(FIELDS.function) else {
            return;
        };
        let Some(args) = call.field(FIELDS.arguments) else {
            return;
        };
        let cfg: Vec<Node> = parse::named_children(config)
            .filter(|n| n.kind_name() != "comment")
            .collect();
        if cfg.len() < 2 || cfg.len() > 4 {
            return;
        }
        let wrap = matches!(
            func.kind_name(),
            "template_function" | "qualified_identifier"
        );
        let rule = "launch";
        let mut head = String::from("hipLaunchKernelGGL(");
        if wrap {
            head.push_str("HIP_KERNEL_NAME(");
        }
        self.edits.push(Edit::insert(func.start_byte(), head, rule));
        // A configuration that is already a `dim3(...)` needs no second wrapper.
        let is_dim3 = |n: &Node| {
            n.kind_name() == "call_expression"
                && n.field(FIELDS.function)
                    .is_some_and(|f| node_text(f, self.src) == "dim3")
        };
        let (g3, b3) = (is_dim3(&cfg[0]), is_dim3(&cfg[1]));
        let open_grid = match (wrap, g3) {
            (true, true) => "), ",
            (true, false) => "), dim3(",
            (false, true) => ", ",
            (false, false) => ", dim3(",
        };
        self.edits.push(Edit::replace(
            func.end_byte(),
            cfg[0].start_byte(),
            open_grid,
            rule,
        ));
        let mid = match (g3, b3) {
            (true, true) => ", ",
            (true, false) => ", dim3(",
            (false, true) => "), ",
            (false, false) => "), dim3(",
        };
        let (a, b) = self.separator(cfg[0].end_byte(), cfg[1].start_byte());
        self.edits.push(Edit::replace(a, b, mid, rule));
        let close_block = if b3 { "" } else { ")" };
        let mut tail = String::from(close_block);
        let mut last_end = cfg[1].end_byte();
        for (i, n) in cfg.iter().enumerate().skip(2) {
            let sep = if i == 2 {
                format!("{close_block}, ")
            } else {
                ", ".to_string()
            };
            let (a, b) = self.separator(last_end, n.start_byte());
            self.edits.push(Edit::replace(a, b, sep, rule));
            tail.clear();
            last_end = n.end_byte();
        }
        if cfg.len() == 2 {
            tail.push_str(", 0, 0");
        } else if cfg.len() == 3 {
            tail.push_str(", 0");
        }
        let has_args = parse::named_children(args).any(|n| n.kind_name() != "comment");
        if has_args {
            tail.push_str(", ");
        }
        // Replace `>>>(` (and whatever lies between) with the tail; the argument list's
        // closing parenthesis closes the hipLaunchKernelGGL call.
        let open_paren_end = args.start_byte() + 1;
        let first_arg_start = {
            let first = parse::named_children(args).next();
            first.map_or(open_paren_end, |n| n.start_byte().max(open_paren_end))
        };
        let end = if has_args {
            first_arg_start
        } else {
            open_paren_end
        };
        self.edits.push(Edit::replace(last_end, end, tail, rule));
    }

    /// A launch kept as `<<<...>>>` whose chevrons were written with blanks inside (`k << < g, b
    /// >> > (x)`, clang-format's spacing, which nvcc takes and hipcc does not): written `<<<` and
    /// `>>>` (see [`parse::spaced_launches`]).
    fn close_up_chevrons(&mut self, config: Node) {
        let tokens = parse::children(config);
        let ends = [tokens.as_slice().first(), tokens.as_slice().last()];
        for (tok, ch, text) in [(ends[0], b'<', "<<<"), (ends[1], b'>', ">>>")] {
            let Some(at) = tok.map(|t| t.start_byte()) else {
                continue;
            };
            if let Some(r) = parse::chevrons(self.src, at, ch).filter(|r| r.len() > 3) {
                self.edits
                    .push(Edit::replace(r.start, r.end, text, "launch-chevrons"));
            }
        }
    }

    /// Whether directive `def` defines `name`, a name the rules know, as HIP code: its body
    /// names HIP (`hipMalloc`, `HIPBLAS_OP_N`, `__shfl_xor(...)` for `__shfl_xor_sync`), as a
    /// project's own CUDA-to-HIP header does. Renaming the defined name would define the HIP
    /// name as itself (`#define hipMalloc hipMalloc`), hiding HIP's own macros.
    fn defines_as_hip(&self, def: Node, name: Node) -> bool {
        let name = self.node_str(name);
        let Some(body) = def.field(FIELDS.value) else {
            return false;
        };
        let hip = match self
            .db
            .target_for(name, &self.opts.libs, self.opts.hip_version)
        {
            Target::Name { name, .. } => Some(name),
            Target::Unknown => return false,
            _ => None,
        };
        let body = &self.src[body.byte_range()];
        lexer::identifiers(body).into_iter().any(|r| {
            let id = std::str::from_utf8(&body[r]).unwrap_or("");
            Some(id) == hip
                || ["hip", "HIP", "__hip", "roc", "ROC", "__builtin_amdgcn"]
                    .iter()
                    .any(|p| id.len() > p.len() && id.starts_with(p))
        })
    }

    /// Whether typedef `def` of CUDA name `name` names, in its type, `name`'s HIP name or a
    /// CUDA name renamed to it (`typedef struct hipStream_t* CUstream;`).
    fn typedef_names_its_hip_name(&self, def: Node, name: &str) -> bool {
        let Target::Name { name: hip, .. } =
            self.db
                .target_for(name, &self.opts.libs, self.opts.hip_version)
        else {
            return false;
        };
        let Some(ty) = def.field(FIELDS.type_) else {
            return false;
        };
        let text = &self.src[ty.byte_range()];
        lexer::identifiers(text).into_iter().any(|r| {
            let id = std::str::from_utf8(&text[r]).unwrap_or("");
            id == hip
                || matches!(
                    self.db.target_for(id, &self.opts.libs, self.opts.hip_version),
                    Target::Name { name, .. } if name == hip
                )
        })
    }

    /// `#define __CUDACC__` (T016): removed, since hipcc defines `__HIPCC__` itself and the
    /// renamed line would redefine it as empty. Returns whether `def` was one.
    fn defines_compiler_macro(&mut self, def: Node) -> bool {
        let Some(name) = def.field(FIELDS.name) else {
            return false;
        };
        if self.node_str(name) != "__CUDACC__" || def.start_byte() >= self.dead_from {
            return false;
        }
        // The directive's own line, its line break kept (the node holds it).
        let end = def.end_byte();
        let keep_break = self.src[..end].ends_with(b"\n");
        let end = if keep_break { end - 1 } else { end };
        self.edits.push(Edit::replace(
            def.start_byte(),
            end,
            "",
            "compiler-macro-defined",
        ));
        self.handled.insert(name.start_byte());
        self.diag(
            &COMPILER_MACRO_DEFINED,
            def.start_byte(),
            "`#define __CUDACC__` removed: hipcc defines `__HIPCC__` itself, and the renamed line would redefine it as empty".to_string(),
            None,
        );
        true
    }

    /// Puts `#undef NAME` on the line before the project's function-like macro `def` of a
    /// name HIP's headers define themselves ([`HIP_HEADER_MACROS`]), unless the line before
    /// says so already (R22-1).
    fn undefine_hips_macro(&mut self, def: Node, name: &str) {
        if !HIP_HEADER_MACROS.contains(&name) || def.start_byte() >= self.dead_from {
            return;
        }
        let at = memchr::memrchr(b'\n', &self.src[..def.start_byte()]).map_or(0, |i| i + 1);
        if !self.src[at..def.start_byte()].trim_ascii().is_empty() {
            return;
        }
        let before = self.src[..at.saturating_sub(1)]
            .rsplit(|&b| b == b'\n')
            .next()
            .unwrap_or_default();
        if undef_of(before) == Some(name.as_bytes()) {
            return;
        }
        let eol = crate::edit::line_ending(self.src);
        self.edits.push(Edit::insert(
            at,
            format!("#undef {name}{eol}"),
            "hip-macro-undef",
        ));
    }

    /// The root of `n`'s tree, and how hipcc sees that file's branches.
    fn hipcc_view<'t>(&self, n: Node<'t>) -> (Node<'t>, crate::analysis::HipccView) {
        let mut root = n;
        while let Some(p) = root.parent() {
            root = p;
        }
        let view = crate::analysis::HipccView::new(
            self.src,
            root,
            &self.opts.defines,
            self.opts.hip_version,
        );
        (root, view)
    }

    fn collect_declarations(&mut self, flat: &Flat) {
        let f = &*FIELDS;
        let view = std::cell::OnceCell::new();
        // A file that `#define`s a CUDA name as HIP code is a project's own CUDA-to-HIP header:
        // every CUDA name it defines is its own (`#define __trap() abort()` beside
        // `#define cudaMalloc hipMalloc`).
        let mut shim = false;
        let mut defined_cuda_names = Vec::new();
        for (&n, &kind) in flat.nodes.iter().zip(&flat.kinds) {
            match DECL_KINDS.get(kind) {
                Dk::Other => {}
                kind @ (Dk::Define | Dk::FunctionDefine) => {
                    if kind == Dk::Define && self.defines_compiler_macro(n) {
                        continue;
                    }
                    if let Some(name) = n.field(f.name) {
                        if self.db.lookup(self.node_str(name)).is_some() {
                            shim |= self.defines_as_hip(n, name);
                            // `#define __shfl_down_sync(m, v, d) __shfl_down(v, d)` under
                            // `#ifdef __HIP_PLATFORM_AMD__` (R22-b), `#define CUFFT_SUCCESS(x)
                            // ...` (R22-1): a function-like macro hipcc compiles is the
                            // project's, and so are the calls of that name.
                            if kind == Dk::FunctionDefine {
                                let view = view.get_or_init(|| self.hipcc_view(n));
                                if view.1.skips(self.src, view.0, n.start_byte()).is_none() {
                                    self.own_macros.insert(self.node_str(name).to_string());
                                    self.undefine_hips_macro(n, self.node_str(name));
                                }
                            }
                            if in_hip_branch(n, self.src) {
                                // `#if MY_HIP` / `#define __syncwarp() ...`: the project's own.
                                self.own_functions.push(name.start_byte());
                            } else {
                                let text = self.node_str(name);
                                if defined_whatever_the_build(n, text, self.src) {
                                    self.defined_here.insert(text.to_string());
                                }
                                self.defined_anywhere.insert(text.to_string());
                                defined_cuda_names.push(name.start_byte());
                            }
                        }
                        let name = self.node_str(name).to_string();
                        if kind == Dk::Define {
                            if let Some(v) = n.field(f.value) {
                                let (lead, value) = define_value_text(self.node_str(v));
                                let start = v.start_byte() + lead;
                                let value = value.to_string();
                                // Of two definitions, the one hipcc compiles counts
                                // (`#if defined(__HIPCC__)` / `#else` pairs).
                                let keep = match self.define_spans.get(&name) {
                                    None => true,
                                    Some(&(old, _)) => {
                                        let view = view.get_or_init(|| self.hipcc_view(n));
                                        let skipped =
                                            |at| view.1.skips(self.src, view.0, at).is_some();
                                        !skipped(start) || skipped(old)
                                    }
                                };
                                if keep {
                                    let span = (start, start + value.len());
                                    self.define_history.entry(name.clone()).or_default().push((
                                        n.start_byte(),
                                        value.clone(),
                                        span,
                                    ));
                                    self.define_spans.insert(name.clone(), span);
                                    self.defines.insert(name.clone(), value);
                                }
                            }
                        } else if let Some(d) = FnDefine::of(n, self.src) {
                            // Of two definitions, the one hipcc compiles counts.
                            let keep = match self.fn_defines.get(&name) {
                                None => true,
                                Some(old) => {
                                    let view = view.get_or_init(|| self.hipcc_view(n));
                                    let skipped = |at| view.1.skips(self.src, view.0, at).is_some();
                                    !skipped(d.span.0) || skipped(old.span.0)
                                }
                            };
                            if keep {
                                self.fn_defines.insert(name.clone(), d);
                            }
                        }
                        self.declared.insert(name);
                    }
                }
                Dk::Template => {
                    // `template <...> T f(...)`: the function definition or declaration it holds.
                    let held = parse::named_children(n)
                        .find(|c| matches!(c.kind_name(), "function_definition" | "declaration"));
                    let mut d = held.and_then(|h| h.field(f.declarator));
                    while let Some(x) = d {
                        if x.kind_name() == "function_declarator" {
                            if let Some(name) = x
                                .field(f.declarator)
                                .filter(|i| SUB_KINDS.of(*i) == Sub::Identifier)
                            {
                                self.templates.insert(self.node_str(name).to_string());
                            }
                            break;
                        }
                        d = x.field(f.declarator);
                    }
                }
                kind @ (Dk::Named | Dk::Declarator) => {
                    let field = if kind == Dk::Named {
                        f.name
                    } else {
                        f.declarator
                    };
                    let mut d = n.field(field);
                    // `typedef struct X* NAME;`: the name is under the pointer declarators.
                    while let Some(p) = d.filter(|p| {
                        n.kind_name() == "type_definition" && p.kind_name() == "pointer_declarator"
                    }) {
                        d = p.field(f.declarator);
                    }
                    // `const char* mine::cusparseGetErrorString(int e) {...}`: a definition
                    // qualified by the project's namespace or class is the project's function.
                    if let Some(q) = d.filter(|q| {
                        n.kind_name() == "function_declarator"
                            && q.kind_name() == "qualified_identifier"
                    }) {
                        if let Some(name) = q
                            .field(f.name)
                            .filter(|i| SUB_KINDS.of(*i) == Sub::Identifier)
                        {
                            let text = self.node_str(name);
                            if self.db.lookup(text).is_some() {
                                self.own_function_names.insert(text.to_string());
                            }
                        }
                    }
                    // `template <> cusparseStatus_t cusparse_csrmv<float>(...) {...}` (an
                    // explicit specialisation, MinkowskiEngine's, realuser50 R50-c), `template
                    // <typename T> S Wrap<T>::cusparseRun(...)`: the file defines a function of
                    // that name, the project's own, not an API the rules lack (T006).
                    if n.kind_name() == "function_declarator" && !in_body_or_error(n) {
                        let mut q = d;
                        while let Some(x) = q.filter(|x| {
                            matches!(x.kind_name(), "template_function" | "qualified_identifier")
                        }) {
                            q = x.field(f.name);
                        }
                        if let Some(name) = q
                            .filter(|q| Some(*q) != d && SUB_KINDS.of(*q) == Sub::Identifier)
                            .map(|q| self.node_str(q))
                        {
                            if self.db.lookup(name).is_none() && !self.declared.contains(name) {
                                self.declared.insert(name.to_string());
                            }
                        }
                    }
                    if let Some(d) = d {
                        if matches!(SUB_KINDS.of(d), Sub::Identifier | Sub::OtherName) {
                            let name = self.node_str(d);
                            if !self.declared.contains(name) {
                                self.declared.insert(name.to_string());
                            }
                            // `T cublasStatus;`, `T cublasStatus = ...`, `f(T cublasStatus)`,
                            // `struct { T cublasStatus; }`: an object the project names so.
                            if matches!(SUB_KINDS.of(d), Sub::Identifier | Sub::OtherName)
                                && matches!(
                                    n.kind_name(),
                                    "init_declarator"
                                        | "declaration"
                                        | "parameter_declaration"
                                        | "field_declaration"
                                )
                                && self.db.lookup(name).is_some_and(names_a_type)
                            {
                                self.own_objects.insert(name.to_string());
                            }
                            // Only a declaration outside function bodies declares the
                            // project's function: in a body, a statement tree-sitter misread
                            // (`CHECK( cudaMemcpy(d, s, m * sizeof(double), k) )` without its
                            // `;`, read as a declaration of a function `cudaMemcpy` whose
                            // parameters are the arguments, R36-a) would keep every call of
                            // the CUDA name in the file from its rename.
                            if SUB_KINDS.of(d) == Sub::Identifier
                                && n.kind_name() == "function_declarator"
                                && self.db.lookup(name).is_some()
                                && !in_body_or_error(n)
                            {
                                self.own_functions.push(d.start_byte());
                                self.own_function_names.insert(name.to_string());
                            }
                            // `typedef __hip_bfloat16 nv_bfloat16;` in a CUDA-to-HIP header.
                            if n.kind_name() == "type_definition" && self.db.lookup(name).is_some()
                            {
                                defined_cuda_names.push(d.start_byte());
                                if self.typedef_names_its_hip_name(n, name) {
                                    self.own_types.insert(name.to_string());
                                }
                            }
                        }
                    }
                }
            }
        }
        if shim {
            self.own_functions.extend(defined_cuda_names);
        }
    }

    fn walk(&mut self, flat: &Flat) {
        self.collect_declarations(flat);
        let mut i = 0;
        while i < flat.nodes.len() {
            let n = flat.nodes[i];
            let mut descend = true;
            match WALK_KINDS.get(flat.kinds[i]) {
                Tk::Other => {}
                Tk::Opaque => descend = false,
                Tk::Error => {
                    // An unterminated block comment parses as an ERROR region: nothing after
                    // its `/*` is code.
                    let text = parse::text(n, self.src);
                    if let Some(i) = memchr::memmem::find(text, b"/*") {
                        if memchr::memmem::find(&text[i..], b"*/").is_none() {
                            self.dead_from = self.dead_from.min(n.start_byte() + i);
                        }
                    }
                }
                Tk::Include => {
                    self.visit_include(n);
                    descend = false;
                }
                Tk::MacroBody => {
                    descend = false;
                    let text = parse::text(n, self.src);
                    // Only a body that starts like a header path is decoded and looked at.
                    let header = text
                        .iter()
                        .find(|b| !b.is_ascii_whitespace())
                        .is_some_and(|&b| b == b'<' || b == b'"')
                        && std::str::from_utf8(text)
                            .is_ok_and(|body| self.visit_header_macro(body, n.start_byte()));
                    if !header && !self.cub_namespace_macro(n) {
                        self.widen_masks_in_body(n, text);
                        self.rename_text(text, n.start_byte());
                        // A body whose brackets do not balance is a fragment of a call: its
                        // parse (and so whether its launch could be rewritten) would depend on
                        // the names in it, which the rewrite changes.
                        if self.opts.launch == LaunchStyle::Hip
                            && memchr::memmem::find(text, b"<<<").is_some()
                            && !(brackets_balance(text)
                                && self.macro_launches(text, n.start_byte()))
                        {
                            self.diag(
                                &LAUNCH_IN_MACRO,
                                n.start_byte(),
                                "kernel launch inside a macro body kept as `<<<...>>>`".into(),
                                Some(
                                    "hipcc accepts it; rewrite the macro by hand for other compilers"
                                        .into(),
                                ),
                            );
                        }
                    }
                }
                // The qualifier itself, not a macro the parser was shown it for (`C10_HOST_DEVICE`
                // in a header of host-and-device helpers needs no HIP runtime include).
                Tk::DeviceKeyword => {
                    if self.src.get(n.start_byte()) == Some(&b'_') {
                        self.mark_device(n.start_byte());
                    }
                }
                Tk::Call => {
                    if let Some(config) = parse::launch_config(n, self.src) {
                        self.mark_device(n.start_byte());
                        let before = self.edits.len();
                        if self.opts.launch == LaunchStyle::Hip {
                            self.visit_launch(n, config);
                        }
                        if self.edits.len() == before {
                            self.close_up_chevrons(config);
                        }
                    } else {
                        self.visit_call(n);
                    }
                }
                Tk::Namespace => {
                    let (start, end) = (n.start_byte(), n.end_byte());
                    // The name a namespace alias declares is the project's own
                    // (`namespace cub = hipcub;` in a ROCm branch): renaming it would
                    // redefine the namespace it names.
                    if !declares_namespace_alias(self.src, start, end) {
                        self.rename_namespace(start, end);
                    }
                }
                Tk::Ident => {
                    let start = n.start_byte();
                    if start < self.dead_from
                        && !self.handled.contains(&start)
                        && !self.own_functions.contains(&start)
                        && (self.own_types.is_empty() || !self.own_types.contains(self.node_str(n)))
                        && (self.own_objects.is_empty()
                            || !(n.kind_name() == "identifier"
                                && self.own_objects.contains(self.node_str(n))))
                    {
                        let name = self.node_str(n);
                        if matches!(name, "threadIdx" | "blockIdx" | "blockDim" | "gridDim") {
                            self.mark_device(start);
                            self.cast_auto_index(start);
                        }
                        if name == GRID_CONSTANT {
                            self.remove_grid_constant(start, n.end_byte());
                        } else if !name.is_empty() {
                            let before = self.edits.len();
                            self.rename_ident(name, start, n.end_byte());
                            // HIP's `..._st` and `ihip...` names are struct tags themselves,
                            // as are the renames of CUDA's tags (`CUgraphNode_st`).
                            let tag = name.ends_with("_st")
                                || self.edits.last().is_some_and(|e| {
                                    e.text.ends_with("_st") || e.text.starts_with("ihip")
                                });
                            if self.edits.len() > before && !tag {
                                self.drop_elaborating_keyword(start, n.end_byte());
                            }
                        }
                    }
                }
            }
            i = if descend {
                i + 1
            } else {
                flat.ends[i] as usize
            };
        }
    }

    /// Before hipSOLVER 2.0 (ROCm 6.0) the cuBLAS enums a cuSOLVER call takes must be
    /// hipSOLVER's (`HIPSOLVER_OP_N`, not `HIPBLAS_OP_N`): an enumerator written as an argument
    /// of a call that became a hipSOLVER one takes hipSOLVER's name, and so does a variable passed
    /// there whose declaration in the file has a cuBLAS enum type (its type and an enumerator
    /// initializer). E-g.
    fn solver_enums(&mut self, flat: &Flat) {
        if self.opts.hip_version >= SOLVER_TAKES_HIPBLAS_ENUMS
            || self.opts.libs.lib_for(Family::Cusolver) != Lib::Hip
            || !self.aliases.values().any(|h| h.starts_with("hipsolver"))
        {
            return;
        }
        let hip_name = |t: &str| SOLVER_ENUMS.iter().find(|(c, _)| *c == t).map(|e| e.1);
        let mut wanted: Vec<(usize, &'static str)> = Vec::new();
        let mut vars: HashSet<&str> = HashSet::new();
        for &n in flat.nodes.iter() {
            if n.kind_name() != "call_expression" {
                continue;
            }
            let Some(func) = n.field(FIELDS.function) else {
                continue;
            };
            let name = self.node_str(func);
            if !name.starts_with("cusolver")
                || !self
                    .aliases
                    .get(name)
                    .is_some_and(|h| h.starts_with("hipsolver"))
            {
                continue;
            }
            let Some(args) = n.field(FIELDS.arguments) else {
                continue;
            };
            for a in parse::named_children(args).filter(|a| a.kind_name() == "identifier") {
                let text = self.node_str(a);
                match hip_name(text) {
                    Some(h) => wanted.push((a.start_byte(), h)),
                    None => {
                        vars.insert(text);
                    }
                }
            }
        }
        if !vars.is_empty() {
            for &n in flat.nodes.iter() {
                if !matches!(n.kind_name(), "declaration" | "parameter_declaration") {
                    continue;
                }
                let Some(ty) = n.field(FIELDS.type_) else {
                    continue;
                };
                let Some(h) = hip_name(self.node_str(ty)) else {
                    continue;
                };
                let Some(d) = n.field(FIELDS.declarator) else {
                    continue;
                };
                let (var, value) = if d.kind_name() == "init_declarator" {
                    (d.field(FIELDS.declarator), d.field(FIELDS.value))
                } else {
                    (Some(d), None)
                };
                if !var.is_some_and(|v| vars.contains(self.node_str(v))) {
                    continue;
                }
                wanted.push((ty.start_byte(), h));
                if let Some((v, h)) = value.and_then(|v| hip_name(self.node_str(v)).map(|h| (v, h)))
                {
                    wanted.push((v.start_byte(), h));
                }
            }
        }
        for (start, h) in wanted {
            if let Some(e) = self.edits.iter_mut().find(|e| e.start == start) {
                e.text = h.to_string();
            }
        }
    }

    /// Rebuilds the calls whose shape changes, from their templates and renamed arguments.
    fn finish_call_sites(&mut self) {
        let mut sites = std::mem::take(&mut self.call_sites);
        sites.sort_by_key(|s| s.end - s.start);
        for site in sites {
            let mut args = Vec::with_capacity(site.args.len());
            for &(a, b) in &site.args {
                let mut inner: Vec<Edit> = self
                    .edits
                    .iter()
                    .filter(|e| {
                        e.start >= a
                            && e.end <= b
                            && !(e.start == e.end && (e.start == a || e.start == b))
                    })
                    .map(|e| Edit {
                        start: e.start - a,
                        end: e.end - a,
                        ..e.clone()
                    })
                    .collect();
                let text = edit::apply(&self.src[a..b], &mut inner)
                    .unwrap_or_else(|_| self.src[a..b].to_vec());
                args.push(String::from_utf8_lossy(&text).into_owned());
            }
            // An argument already cast to `void**` is not cast again.
            let mut template = site.template.clone();
            for (k, arg) in args.iter().enumerate() {
                let cast = format!("(void**)(${})", k + 1);
                let compact: String = arg.chars().filter(|c| !c.is_whitespace()).collect();
                if template.contains(&cast) && compact.starts_with("(void**)") {
                    template = template.replace(&cast, &format!("${}", k + 1));
                }
            }
            self.string_symbols(&site, &mut args);
            // A macro argument with a comma (`HIP_SYMBOL(lut<float, 8>)`) is parenthesized, or
            // the preprocessor takes it for two.
            for (k, arg) in args.iter_mut().enumerate() {
                if arg.contains(',') && site.template.contains(&format!("HIP_SYMBOL(${})", k + 1)) {
                    *arg = format!("({arg})");
                }
            }
            let refs: Vec<&str> = args.iter().map(String::as_str).collect();
            if is_c_source(self.file) {
                template = c_casts(&template);
            }
            let layout = self.layout(&site);
            if let Some(text) = hipport_rules::calls::expand_in_layout(&template, &refs, &layout) {
                self.edits
                    .retain(|e| !(e.start >= site.start && e.end <= site.end));
                self.edits
                    .push(Edit::replace(site.start, site.end, text, site.rule));
            }
        }
    }

    /// A symbol given as a string (`cudaMemcpyToSymbol("c_tab", ...)`, removed in CUDA 5.0)
    /// becomes the variable (`HIP_SYMBOL(c_tab)`) where the file declares a `__constant__` or
    /// `__device__` variable of that name; elsewhere it is reported (T017): HIP looks a symbol up
    /// by its address, so the string's would fail the copy at run time (R21-c).
    fn string_symbols(&mut self, site: &CallSite, args: &mut [String]) {
        for (k, arg) in args.iter_mut().enumerate() {
            if !site.template.contains(&format!("HIP_SYMBOL(${})", k + 1)) {
                continue;
            }
            let Some(name) = arg
                .trim()
                .strip_prefix('"')
                .and_then(|a| a.strip_suffix('"'))
                .filter(|a| {
                    a.bytes().next().is_some_and(|b| !b.is_ascii_digit())
                        && a.bytes().all(crate::lexer::is_word_byte)
                })
                .map(str::to_string)
            else {
                continue;
            };
            if declares_device_variable(self.src, &name) || self.header_declares_symbol(&name) {
                *arg = arg.replacen(&format!("\"{name}\""), &name, 1);
                continue;
            }
            let at = site.args[k].0 + (arg.len() - arg.trim_start().len());
            let call = node_name_before(self.src, site.start);
            self.diag(
                &STRING_SYMBOL,
                at,
                format!("`{call}` is given the symbol as a string (\"{name}\"), which CUDA 5.0 removed and HIP does not look up: the copy fails at run time"),
                Some(format!("pass the variable itself (`{name}`, hipport writes `HIP_SYMBOL({name})`) and make its `__constant__`/`__device__` declaration visible here (hipport looks in this file and the quoted includes beside it)")),
            );
        }
    }

    /// Whether a quoted include found beside the file (Rodinia kmeans' `#include
    /// "kmeans_cuda_kernel.cu"`) declares the `__constant__`/`__device__` variable `name`: one
    /// level deep, files of at most 4 MiB. The result then depends on those files.
    fn header_declares_symbol(&mut self, name: &str) -> bool {
        let Some(dir) = std::path::Path::new(self.file).parent() else {
            return false;
        };
        self.looked_for_project_headers = true;
        crate::includes::include_directives(self.src)
            .into_iter()
            .filter(|(_, p)| p.open == '"')
            .any(|(_, p)| {
                let path = dir.join(p.inner.replace('\\', "/"));
                std::fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= 4 << 20)
                    && std::fs::read(&path).is_ok_and(|text| declares_device_variable(&text, name))
            })
    }

    /// Errors and warnings of the translation pass become notes where they sit in a
    /// preprocessor branch hipcc never compiles (`#if __CUDA_ARCH__ >= 800`, `#if
    /// CUDART_VERSION >= 11000`, the `#else` of `#ifdef __HIP_PLATFORM_AMD__` or of a
    /// project's `#ifdef MYLIB_USE_HIP`), naming the directive: the output still builds. A
    /// CUDA name with no HIP form there (T001, T002, T003, T007, T009) stays as it is; what is
    /// renamed there (a T015 call) no longer stops the build; and in a branch that
    /// [`Walk::leave_cuda_arms`] leaves as written, a message does not say that the name
    /// "becomes" its HIP one (R23-f).
    fn soften_in_skipped_branches(&mut self, tree: &Tree) {
        const LEFT_AS_IS: [&str; 5] = [
            UNSUPPORTED.id,
            TOO_NEW.id,
            REMOVED.id,
            UNSUPPORTED_HEADER.id,
            WARP_SYNC_MASK.id,
        ];
        let view = std::cell::OnceCell::new();
        let guarded = std::cell::OnceCell::new();
        let mut dropped: Vec<usize> = Vec::new();
        for i in 0..self.diags.len() {
            let d = &self.diags[i];
            // A call form left for a human in a macro body (T013) matters no more there.
            if d.severity < Severity::Warning && d.id != CALL_IN_MACRO.id {
                continue;
            }
            let view = view.get_or_init(|| {
                crate::analysis::HipccView::new(
                    self.src,
                    tree.root_node(),
                    &self.opts.defines,
                    self.opts.hip_version,
                )
            });
            let Some(skip) = view.skips(self.src, tree.root_node(), d.offset) else {
                continue;
            };
            let why = skip.reason(&self.index);
            let as_written =
                *guarded.get_or_init(|| hip_guarded(self.src)) && names_hip_or_rocm(&skip.text);
            let left = as_written || LEFT_AS_IS.contains(&d.id.as_str());
            let d = &mut self.diags[i];
            d.severity = Severity::Note;
            if as_written {
                // `cublasHgemm` becomes `hipblasHgemm`, which ...: not on a line left as written.
                if let Some(at) = d.message.find("` becomes ") {
                    d.message
                        .replace_range(at + 1..at + "` becomes".len(), " would become");
                }
            }
            d.message.push_str(&if left {
                format!("; hipcc does not compile this branch ({why}), so it is left as it is")
            } else {
                format!("; hipcc does not compile this branch ({why}), so this does not stop the HIP build")
            });
            d.help = Some(
                "nothing to do for HIP unless that branch should be compiled for it; then give it HIP code".into(),
            );
            // The project's own macro under a CUDA name (`#define CUDART_INF_BF16 ...` in an
            // `#if __CUDA_ARCH__ >= 800`), where hipcc never looks: nothing to say.
            let own = d
                .message
                .strip_prefix('`')
                .and_then(|m| m.split_once('`'))
                .is_some_and(|(name, _)| self.defined_anywhere.contains(name));
            if own {
                dropped.push(i);
            }
        }
        for i in dropped.into_iter().rev() {
            self.diags.remove(i);
        }
    }

    /// Leaves the branches hipcc skips under a directive that names HIP or ROCm (the `#else` of
    /// `#if defined(__HIPCC__)`, `#ifndef USE_ROCM` in a ROCm build) as they are: the author's
    /// own CUDA code in a file already ported, which renamed would break the CUDA build and
    /// change nothing for HIP. Reports there are notes that say hipcc skips the branch.
    fn leave_cuda_arms(&mut self, tree: &Tree) {
        let src = self.src;
        if self.edits.is_empty() || !hip_guarded(src) {
            return;
        }
        let view = crate::analysis::HipccView::new(
            src,
            tree.root_node(),
            &self.opts.defines,
            self.opts.hip_version,
        );
        let mut memo: HashMap<usize, bool> = HashMap::new();
        let mut cuda_arm = |offset: usize| {
            let Some(skip) = view.skips(src, tree.root_node(), offset) else {
                return false;
            };
            *memo
                .entry(skip.directive)
                .or_insert_with(|| names_hip_or_rocm(&skip.text))
        };
        // Inserted text (the runtime include) is placed by its own rules; renames go, and
        // leave the counts: one per family and line (a call rewritten whole is several edits).
        // An edit is placed by its first byte of code: one that starts with the indent of its
        // line (the removal of a repeated `#include`, R49-e) starts in whitespace that belongs
        // to the enclosing `#ifndef` node itself, where no branch of it is found.
        let code_at = |e: &Edit| {
            let blank = src[e.start..e.end.min(src.len())]
                .iter()
                .take_while(|b| b.is_ascii_whitespace())
                .count();
            if e.start + blank < e.end {
                e.start + blank
            } else {
                e.start
            }
        };
        let mut dropped: Vec<(usize, String)> = Vec::new();
        self.edits.retain(|e| {
            let keep = e.start == e.end && !e.text.is_empty() || !cuda_arm(code_at(e));
            if !keep {
                dropped.push((e.start, e.rule.clone()));
            }
            keep
        });
        let mut counted: HashSet<(usize, String)> = HashSet::new();
        for (at, rule) in dropped {
            let family = match rule.strip_prefix("call:").and_then(|n| self.db.lookup(n)) {
                Some(m) => m.family.as_str().to_string(),
                // The warp builtins' own rewrites (`warp-sync`, `warp-mask-64`).
                None if rule.starts_with("warp-") => Family::Device.as_str().to_string(),
                None => rule,
            };
            let line = memchr::memchr_iter(b'\n', &src[..at]).count();
            if !counted.insert((line, family.clone())) {
                continue;
            }
            if let Some(n) = self.renames.get_mut(&family) {
                *n = n.saturating_sub(1);
                if *n == 0 {
                    self.renames.remove(&family);
                }
            }
        }
    }

    /// In a file that tests `USE_ROCM` without a build that decides it (no `-D`/`-U`, no
    /// PyTorch include, as in a project header such as vLLM's cuda_compat.h), an error or
    /// warning on a line hipcc would skip with `USE_ROCM` defined says so in its help: PyTorch's
    /// ROCm builds define it, and `-D USE_ROCM` tells hipport.
    fn hint_use_rocm(&mut self, tree: &Tree) {
        if self.opts.defines.iter().any(|d| d.name == "USE_ROCM")
            || memchr::memmem::find(self.src, b"USE_ROCM").is_none()
        {
            return;
        }
        let mut with = self.opts.defines.clone();
        with.push(crate::analysis::Define {
            name: "USE_ROCM".into(),
            value: Some(1),
            undefined: false,
        });
        let view = std::cell::OnceCell::new();
        for i in 0..self.diags.len() {
            if self.diags[i].severity < Severity::Warning {
                continue;
            }
            let view = view.get_or_init(|| {
                crate::analysis::HipccView::new(
                    self.src,
                    tree.root_node(),
                    &with,
                    self.opts.hip_version,
                )
            });
            let Some(skip) = view.skips(self.src, tree.root_node(), self.diags[i].offset) else {
                continue;
            };
            let why = skip.reason(&self.index);
            let hint = format!("a PyTorch ROCm build defines USE_ROCM, and then hipcc skips this line ({why}): if this file is built so, pass `-D USE_ROCM`");
            let d = &mut self.diags[i];
            d.help = Some(match d.help.take() {
                Some(h) => format!("{h}; {hint}"),
                None => hint,
            });
        }
    }

    /// How the arguments of a call site are laid out: what precedes each (after the `(` or the
    /// comma before it) and the closing `)`.
    fn layout(&self, site: &CallSite) -> hipport_rules::calls::Layout<'a> {
        let text = |a: usize, b: usize| -> &'a str {
            let src: &'a [u8] = self.src;
            std::str::from_utf8(src.get(a..b).unwrap_or_default()).unwrap_or("")
        };
        let (open, close) = (site.list.0 + 1, site.list.1.saturating_sub(1));
        let mut before = Vec::with_capacity(site.args.len());
        let mut prev_end = None;
        for &(a, b) in &site.args {
            let from = match prev_end {
                None => open,
                // After the comma that ends the argument before.
                Some(end) => comma_outside_comments(&self.src[end..a]).map_or(a, |i| end + i + 1),
            };
            before.push(text(from, a));
            prev_end = Some(b);
        }
        hipport_rules::calls::Layout {
            before,
            close: text(prev_end.unwrap_or(open), close.max(open)),
        }
    }

    /// Adds `#include <hip/hip_runtime.h>` to a file with device code and no runtime include.
    fn add_runtime_include(&mut self, tree: &Tree) {
        // nvcc puts `cuda_runtime.h` before every `.cu` file, so a host-only `.cu` (or a
        // `.cuh` it includes) may use the runtime's names without an include of its own (K-h);
        // hipcc puts only clang's wrapper there, without `hipError_t` or `hipGetLastError`.
        let implicit = self.uses_runtime_names && is_nvcc_source(self.file);
        if !(self.has_device_code || implicit) || self.has_runtime_include {
            return;
        }
        let eol = crate::edit::line_ending(self.src);
        let at = include_point(self.src, tree);
        let needs_eol_before = at > 0 && self.src[at - 1] != b'\n';
        let include = if self.device_code_is_guarded(tree) {
            format!("#if defined(__HIPCC__){eol}#include <hip/hip_runtime.h>{eol}#endif{eol}")
        } else {
            format!("#include <hip/hip_runtime.h>{eol}")
        };
        let text = format!("{}{include}", if needs_eol_before { eol } else { "" });
        self.edits.push(Edit::insert(at, text, "runtime-include"));
    }

    /// Whether a project header of the tree that the file includes (directly or through its
    /// own includes) includes NVTX's header or rocTX's: converted, it includes
    /// `roctracer/roctx.h`, which declares the file's rocTX calls (verify11 n6).
    fn project_header_declares_roctx(&mut self) -> bool {
        let Some(rel) = self.rel else {
            return false;
        };
        let file = std::path::Path::new(self.file);
        let up = rel.split('/').count();
        let Some(root) = file.ancestors().nth(up) else {
            return false;
        };
        let dir = file.parent().unwrap_or(root);
        // The result depends on the tree's other files.
        self.looked_for_project_headers = true;
        crate::headers::includes_profiler_header(self.src, dir, root)
    }

    /// Adds `#include <roctracer/roctx.h>` (T019) to a file that calls rocTX names (its NVTX
    /// calls, renamed) but includes neither NVTX's header nor rocTX's: its NVTX declarations
    /// came through another header (torch-harmonics' through torch's CUDA headers, R27-d), and
    /// ROCm PyTorch's headers declare no rocTX function.
    fn add_roctx_include(&mut self, tree: &Tree) {
        let Some((first, name, new)) = self.roctx_use.clone() else {
            return;
        };
        if self.has_roctx_include || self.project_header_declares_roctx() {
            return;
        }
        let eol = crate::edit::line_ending(self.src);
        let at = include_point(self.src, tree);
        let needs_eol_before = at > 0 && self.src[at - 1] != b'\n';
        let text = format!(
            "{}#include <roctracer/roctx.h>{eol}",
            if needs_eol_before { eol } else { "" }
        );
        self.edits.push(Edit::insert(at, text, "roctx-include"));
        self.diag(
            &ROCTX_INCLUDE_ADDED,
            first,
            format!(
                "`{name}` becomes rocTX's `{new}`, declared in `roctracer/roctx.h`; the file includes no NVTX or rocTX header (its NVTX declarations came from another one), so hipport added `#include <roctracer/roctx.h>`"
            ),
            Some("link the program with rocTX: `-lroctx64`".to_string()),
        );
    }
}

/// Whether `n` lies in a function body (a compound statement) or in a region tree-sitter could
/// not parse.
fn in_body_or_error(n: Node) -> bool {
    std::iter::successors(n.parent(), |p| p.parent())
        .any(|p| p.is_error() || p.kind_name() == "compound_statement")
}

/// The initializer of the one `const`/`constexpr` declaration of `name` in `src` with an
/// integer literal value (`constexpr unsigned kFull = 0xffffffffu;` -> `0xffffffffu`); `None`
/// when there is no such declaration, or more than one.
/// Whether `name`, declared at `decl`, is neither assigned, incremented nor has its address
/// taken anywhere else in `src` (read by text, so any such use of the name anywhere counts).
fn never_changed(src: &[u8], name: &str, decl: usize) -> bool {
    lexer::whole_words(src, name)
        .filter(|&at| at != decl)
        .all(|at| {
            let after = src[at + name.len()..].trim_ascii_start();
            let before = src[..at].trim_ascii_end();
            let assigned = match after {
                [b'=', b'=', ..] => false,
                [b'=', ..] | [b'+' | b'-', b'+' | b'-', ..] => true,
                [b'+' | b'-' | b'*' | b'/' | b'%' | b'&' | b'|' | b'^', b'=', ..] => true,
                [b'<', b'<', b'=', ..] | [b'>', b'>', b'=', ..] => true,
                _ => false,
            };
            let before_changes = before.ends_with(b"++")
                || before.ends_with(b"--")
                || (before.ends_with(b"&") && !before.ends_with(b"&&"));
            !assigned && !before_changes
        })
}

/// A declaration of a name found in the scopes around a use: the declaration (or parameter)
/// node, the declarator that names it (the whole one: `*opts[2]`, `mask = 0xffffffff`) and
/// the name's identifier.
#[derive(Clone, Copy)]
struct ScopedDecl<'t> {
    decl: Node<'t>,
    declarator: Node<'t>,
    name: Node<'t>,
    /// The block (or file) the name is visible in.
    scope: Node<'t>,
}

/// The identifier a declarator names (`opts` of `*const opts[2]`), through pointers, arrays,
/// references, initializers and parentheses.
fn declarator_identifier(mut d: Node) -> Option<Node> {
    for _ in 0..16 {
        match d.kind_name() {
            "identifier" | "field_identifier" => return Some(d),
            "function_declarator" => return None,
            _ => {}
        }
        d = d
            .field(FIELDS.declarator)
            .or_else(|| parse::named_children(d).find(|c| c.kind_name() != "comment"))?;
    }
    None
}

/// The declaration of `name` visible at `at`, by the scopes around it: the latest one before
/// `at` in the innermost block (a `for` header, a function's parameters, the file) that has
/// one. Two variables of one name in sibling blocks are two declarations (realuser34 R34-d).
fn declaration_in_scope<'t>(src: &[u8], name: &str, at: Node<'t>) -> Option<ScopedDecl<'t>> {
    let pos = at.start_byte();
    let mut cur = at;
    while let Some(p) = cur.parent() {
        let found = match p.kind_name() {
            "compound_statement" | "translation_unit" | "declaration_list" | "for_statement"
            | "for_range_loop" | "if_statement" | "while_statement" | "switch_statement"
            | "condition_clause" => parse::named_children(p)
                .take_while(|c| c.start_byte() < pos)
                .filter(|c| c.end_byte() <= pos || c.kind_name() == "declaration")
                .filter_map(|c| declares(src, c, name, p))
                .last(),
            "function_definition" | "lambda_expression" => {
                let mut d = p.field(FIELDS.declarator);
                while let Some(n) = d.filter(|n| n.kind_name() != "function_declarator") {
                    d = n.field(FIELDS.declarator);
                }
                d.and_then(|f| f.field(FIELDS.parameters)).and_then(|ps| {
                    parse::named_children(ps).find_map(|c| declares(src, c, name, p))
                })
            }
            _ => None,
        };
        if found.is_some() {
            return found;
        }
        cur = p;
    }
    None
}

/// The literal a declaration found by [`declaration_in_scope`] sets its variable to, where the
/// variable is constant (`const`, `constexpr`, or never changed in its scope).
fn scoped_constant(src: &[u8], d: &ScopedDecl) -> Option<String> {
    if d.decl.kind_name() != "declaration" || d.declarator.kind_name() != "init_declarator" {
        return None;
    }
    let value = d.declarator.field(FIELDS.value)?;
    let text = src[value.byte_range()].trim_ascii();
    let literal = text
        .first()
        .is_some_and(|b| b.is_ascii_digit() || *b == b'~' || *b == b'-')
        && text
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || matches!(b, b'~' | b'-' | b'(' | b')' | b' '));
    if !literal || text.len() > 40 {
        return None;
    }
    let head = &src[d.decl.start_byte()..d.declarator.start_byte()];
    let constant = lexer::whole_words(head, "const").next().is_some()
        || lexer::whole_words(head, "constexpr").next().is_some();
    let scope = d.scope.byte_range();
    let name = std::str::from_utf8(&src[d.name.byte_range()]).ok()?;
    if !constant && !never_changed(&src[scope.clone()], name, d.name.start_byte() - scope.start) {
        return None;
    }
    Some(String::from_utf8_lossy(text).into_owned())
}

/// What [`rtc_array_type`] gives for a null pointer (`nullptr`, `NULL`, `0`).
const RTC_NULL: &str = "null";

/// The type of an argument given for a hipRTC string array (`opts`, `&opts[0]`, `v.data()`,
/// `(const char **)x`), written without blanks (`char**`, `constchar*const*`), where the
/// declarations in scope tell it; [`RTC_NULL`] for a null pointer.
fn rtc_array_type(src: &[u8], arg: Node) -> Option<String> {
    let squeeze = |t: &[u8]| -> String {
        String::from_utf8_lossy(t)
            .split(|c: char| c.is_whitespace())
            .collect::<String>()
    };
    match arg.kind_name() {
        "null" | "nullptr" => Some(RTC_NULL.into()),
        "number_literal" if node_text(arg, src) == "0" => Some(RTC_NULL.into()),
        "identifier" if node_text(arg, src) == "NULL" => Some(RTC_NULL.into()),
        "parenthesized_expression" => rtc_array_type(src, arg.named_child(0)?),
        "cast_expression" => {
            let ty = arg.field(FIELDS.type_)?;
            Some(squeeze(&src[ty.byte_range()]))
        }
        "identifier" => {
            let name = node_text(arg, src);
            let d = declaration_in_scope(src, name, arg)?;
            let head = &src[d.decl.start_byte()..d.declarator.start_byte()];
            let mut base = String::new();
            // `static`, `extern` and the like say nothing of the type; `constexpr` makes the
            // array's elements constant.
            let mut constexpr = false;
            for w in String::from_utf8_lossy(head).split(|c: char| c.is_whitespace() || c == ',') {
                match w {
                    "static" | "extern" | "thread_local" | "inline" | "__host__" => {}
                    "constexpr" => constexpr = true,
                    w => base.push_str(w),
                }
            }
            if d.decl.kind_name() == "declaration"
                && d.declarator.start_byte()
                    != d.decl.child_by_field_name("declarator")?.start_byte()
            {
                // A later declarator of several (`char *a, *b[2];`): its own part only.
                base = squeeze(&src[d.decl.field(FIELDS.type_)?.byte_range()]);
                let before_type =
                    &src[d.decl.start_byte()..d.decl.field(FIELDS.type_)?.start_byte()];
                if lexer::whole_words(before_type, "const").next().is_some() {
                    base.insert_str(0, "const");
                }
            }
            let mut own = squeeze(&src[d.declarator.start_byte()..d.name.start_byte()]);
            own.retain(|c| c != '&' && c != '(');
            let array = std::iter::successors(Some(d.name), |n| n.parent())
                .take_while(|n| n.id() != d.declarator.id())
                .chain(std::iter::once(d.declarator))
                .any(|n| n.kind_name() == "array_declarator");
            let vector = base
                .strip_prefix("std::")
                .unwrap_or(&base)
                .strip_prefix("vector<")
                .and_then(|v| v.strip_suffix('>'));
            if vector.is_some() && own.is_empty() && !array {
                // Only through `.data()`, which the caller reads.
                return Some(format!("vector:{}", vector.unwrap_or("")));
            }
            let mut ty = base + &own;
            if array {
                if constexpr {
                    ty.push_str("const");
                }
                ty.push('*');
            }
            Some(ty)
        }
        // `&opts[0]`: the array's own type.
        "pointer_expression" if arg.child(0).is_some_and(|o| node_text(o, src) == "&") => {
            let sub = arg.field(FIELDS.argument)?;
            if sub.kind_name() != "subscript_expression" {
                return None;
            }
            let base = sub.field(FIELDS.argument)?;
            let ty = rtc_array_type(src, base)?;
            ty.ends_with('*').then_some(ty)
        }
        // `v.data()` of a `std::vector<const char*>`.
        "call_expression" => {
            let f = arg.field(FIELDS.function)?;
            if f.kind_name() != "field_expression"
                || f.field(FIELDS.field).map(|x| node_text(x, src)) != Some("data")
            {
                return None;
            }
            let ty = rtc_array_type(src, f.field(FIELDS.argument)?)?;
            ty.strip_prefix("vector:").map(|e| format!("{e}*"))
        }
        _ => None,
    }
}

/// The declarator of `name` in the declaration or parameter `n`, if it declares it.
fn declares<'t>(src: &[u8], n: Node<'t>, name: &str, scope: Node<'t>) -> Option<ScopedDecl<'t>> {
    if !matches!(
        n.kind_name(),
        "declaration" | "parameter_declaration" | "optional_parameter_declaration"
    ) {
        return None;
    }
    let mut cursor = n.walk();
    let found = n
        .children_by_field_name("declarator", &mut cursor)
        .find_map(|d| {
            declarator_identifier(d)
                .filter(|i| &src[i.byte_range()] == name.as_bytes())
                .map(|i| (d, i))
        });
    found.map(|(declarator, name)| ScopedDecl {
        decl: n,
        declarator,
        name,
        scope,
    })
}

/// Whether the identifier at `at` is the first argument of a warp builtin's call: `f(NAME,`
/// (the analysis asks too: `__activemask()` there is the mask the translator wrote, no vote).
pub(crate) fn is_sync_mask_argument(src: &[u8], at: usize) -> bool {
    let mut before = src[..at].trim_ascii_end();
    if !before.ends_with(b"(") {
        return false;
    }
    while let Some(b) = before.strip_suffix(b"(") {
        before = b.trim_ascii_end();
    }
    let start = before.len()
        - before
            .iter()
            .rev()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
    let callee = std::str::from_utf8(&before[start..]).unwrap_or("");
    WARP_SYNC.iter().any(|(s, _)| *s == callee)
        || callee == "__syncwarp"
        || SYNC_FROM_HIP_7.contains(&callee)
        || matches!(callee, "__match_any_sync" | "__match_all_sync")
}

/// What a guard's operand counts, for [`Walk::first_32_lanes_guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum LaneIndex {
    /// The thread of the block: `threadIdx.x`.
    Thread,
    /// The 32-thread warp of the block: `threadIdx.x / 32`.
    Warp,
}

/// The condition of an `if`, without its `condition_clause` and parentheses.
fn if_condition(stmt: Node) -> Option<Node> {
    let c = stmt.field(FIELDS.condition)?;
    let c = match c.kind_name() {
        "condition_clause" => c.field(FIELDS.value).or_else(|| c.named_child(0))?,
        _ => c,
    };
    Some(unparenthesized(c))
}

/// `e` without the parentheses around it.
fn unparenthesized(mut e: Node) -> Node {
    while e.kind_name() == "parenthesized_expression" {
        match e.named_child(0) {
            Some(inner) => e = inner,
            None => break,
        }
    }
    e
}

/// Whether `if` statement `stmt` has no `else` and its body is a `return` (braced or not).
fn returns(stmt: Node) -> bool {
    if stmt.field(FIELDS.alternative).is_some() {
        return false;
    }
    let Some(mut body) = stmt.field(FIELDS.consequence) else {
        return false;
    };
    if body.kind_name() == "compound_statement" {
        let mut stmts = parse::named_children(body).filter(|n| n.kind_name() != "comment");
        match (stmts.next(), stmts.next()) {
            (Some(only), None) => body = only,
            _ => return false,
        }
    }
    body.kind_name() == "return_statement"
}

/// The comparison with its operands swapped (`a < b` is `b > a`).
pub(crate) fn flip_comparison(op: &str) -> &str {
    match op {
        "<" => ">",
        ">" => "<",
        "<=" => ">=",
        ">=" => "<=",
        o => o,
    }
}

/// The integer types a thread index is cast to, written without blanks.
const INT_TYPES: &[&str] = &[
    "int",
    "unsigned",
    "unsignedint",
    "uint",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "long",
    "size_t",
];

/// An expression's text (without blanks) without an integer cast around it: `(int)x`,
/// `static_cast<unsigned>(x)`, `int(x)`, `(x)`.
fn strip_cast(t: &str) -> &str {
    let mut t = t;
    loop {
        let inner = if let Some(rest) = t.strip_prefix("static_cast<") {
            rest.find(">(")
                .and_then(|i| rest[i + 2..].strip_suffix(')'))
        } else if let Some(rest) = t.strip_prefix('(') {
            match rest.find(')') {
                // `(int)x`: an integer type (`(tid)/32` is no cast).
                Some(i) if i + 1 < rest.len() && INT_TYPES.contains(&&rest[..i]) => {
                    Some(&rest[i + 1..])
                }
                _ => t.strip_prefix('(').and_then(|r| r.strip_suffix(')')),
            }
        } else {
            INT_TYPES
                .iter()
                .find_map(|f| t.strip_prefix(f)?.strip_prefix('('))
                .and_then(|r| r.strip_suffix(')'))
        };
        match inner {
            Some(i) if brackets_balance(i.as_bytes()) && !i.is_empty() => t = i,
            _ => return t,
        }
    }
}

/// The value of a decimal or hex integer literal with any `u`/`l` suffix (`32`, `0x20u`).
fn int_literal(t: &str) -> Option<u64> {
    let body = t.trim_end_matches(['u', 'U', 'l', 'L']);
    match body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None if body.bytes().all(|b| b.is_ascii_digit()) => body.parse().ok(),
        None => None,
    }
}

/// Whether `name` is one identifier (`FULL_MASK`), not an expression or a literal.
fn is_plain_identifier(name: &str) -> bool {
    !name.is_empty()
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
}

/// The literal a constant `name` is set to where `src` declares it (`const unsigned mask =
/// 0xffffffff;`, or a local set once and never changed), if it is declared once so.
fn const_initializer(src: &[u8], name: &str) -> Option<String> {
    sole_initializer(src, name, true)
}

/// The initializer of the one declaration of `name` in `src` that is constant (`const`,
/// `constexpr`, or never changed later): a literal only where `literal` is set, else any
/// expression up to the `;` or `,` that ends it (`int tid = threadIdx.x;`).
fn sole_initializer(src: &[u8], name: &str, literal: bool) -> Option<String> {
    if name.is_empty() || !name.bytes().all(lexer::is_word_byte) {
        return None;
    }
    let mut found = None;
    for at in lexer::whole_words(src, name) {
        let rest = src[at + name.len()..].trim_ascii_start();
        let Some(rest) = rest.strip_prefix(b"=") else {
            continue;
        };
        if rest.first() == Some(&b'=') {
            continue;
        }
        let Some(stop) = rest
            .iter()
            .position(|&b| b == b';' || (!literal && b == b','))
        else {
            continue;
        };
        let value = rest[..stop].trim_ascii();
        let stmt_start = src[..at]
            .iter()
            .rposition(|&b| matches!(b, b';' | b'{' | b'}' | b'\n'))
            .map_or(0, |i| i + 1);
        let head: Vec<&[u8]> = src[stmt_start..at]
            .split(|b| b.is_ascii_whitespace())
            .filter(|w| !w.is_empty())
            .collect();
        let constant = head.iter().any(|w| matches!(*w, b"const" | b"constexpr"))
            // A local declared with a literal and never changed (`unsigned mask = 0xffffffff;`).
            || (!head.is_empty() && never_changed(src, name, at));
        let is_literal = value
            .first()
            .is_some_and(|b| b.is_ascii_digit() || *b == b'~' || *b == b'-')
            && value.iter().all(|&b| {
                b.is_ascii_alphanumeric() || matches!(b, b'~' | b'-' | b'(' | b')' | b' ')
            });
        // A declaration, not an assignment in a condition or a call (`if (x) tid = 0;`).
        let declared = literal || !head.iter().any(|w| w.contains(&b'(') || w.contains(&b')'));
        if !constant || (literal && !is_literal) || !declared || value.len() > 40 {
            continue;
        }
        if found.is_some() {
            return None;
        }
        found = Some(String::from_utf8_lossy(value).into_owned());
    }
    found
}

/// How many places of device code a file's walk remembers; with more, the runtime include is
/// added unguarded without asking where they are.
const DEVICE_MARKS: usize = 64;

/// Whether the parentheses, brackets and braces of `text` balance (quotes not considered).
fn brackets_balance(text: &[u8]) -> bool {
    let mut depth = [0i64; 3];
    for &b in text {
        let (i, d) = match b {
            b'(' => (0, 1),
            b')' => (0, -1),
            b'[' => (1, 1),
            b']' => (1, -1),
            b'{' => (2, 1),
            b'}' => (2, -1),
            _ => continue,
        };
        depth[i] += d;
        if depth[i] < 0 {
            return false;
        }
    }
    depth == [0, 0, 0]
}

/// Where a runtime include goes in a file that has none: after an include guard's `#define`
/// when a guard wraps the whole file, then after leading comments and `#pragma once`.
pub(crate) fn include_point(src: &[u8], tree: &Tree) -> usize {
    let children: Vec<Node> = parse::children(tree.root_node()).collect();
    let mut at = 0;
    let mut scope = children.as_slice();
    let guard;
    let significant: Vec<&Node> = children
        .iter()
        .filter(|c| c.kind_name() != "comment")
        .collect();
    if significant.len() == 1 && significant[0].kind_name() == "preproc_ifdef" {
        guard = parse::named_children(*significant[0]).collect::<Vec<_>>();
        scope = guard.as_slice();
        if let Some(def) = scope.iter().position(|c| c.kind_name() == "preproc_def") {
            at = line_end(src, scope[def].end_byte());
            scope = &scope[def + 1..];
        }
    }
    for c in scope {
        match c.kind_name() {
            "comment" => at = line_end(src, c.end_byte()),
            "preproc_call" if node_text(*c, src).contains("once") => {
                at = line_end(src, c.end_byte())
            }
            "identifier" => {}
            _ => break,
        }
    }
    at.min(src.len())
}

/// The first byte after the line that contains `pos` (or `pos` if it ends a line already).
fn line_end(src: &[u8], pos: usize) -> usize {
    if pos > 0 && src.get(pos - 1) == Some(&b'\n') {
        return pos;
    }
    match src[pos.min(src.len())..].iter().position(|&b| b == b'\n') {
        Some(i) => pos + i + 1,
        None => src.len(),
    }
}

/// CUDA headers HIP lacks that declare only a few names, with those names and the HIP header
/// that declares the rest of their family: an include of one whose names the file never uses
/// becomes that header (HIP 5.2.3's hip/amd_detail/amd_hip_cooperative_groups.h declares no
/// `reduce` or `inclusive_scan`; see rules/data/extra-headers.tsv).
const UNUSED_HEADER_FALLBACKS: &[(&str, &[&str], &str)] = &[
    (
        "cooperative_groups/reduce.h",
        &[
            "reduce",
            "reduce_update_async",
            "reduce_store_async",
            "plus",
            "less",
            "greater",
            "bit_and",
            "bit_or",
            "bit_xor",
        ],
        "hip/hip_cooperative_groups.h",
    ),
    (
        "cooperative_groups/scan.h",
        &[
            "inclusive_scan",
            "exclusive_scan",
            "inclusive_scan_update_async",
            "exclusive_scan_update_async",
        ],
        "hip/hip_cooperative_groups.h",
    ),
];

/// The project's namespace that the body `body` of CUB's wrapping macro `name` puts CUB in
/// (`myext` for `CUB_NS_PREFIX namespace myext {`, `CUB_NS_QUALIFIER ::myext::cub` or
/// `CUB_WRAPPED_NAMESPACE myext`; `a::b` for `namespace a { namespace b {`), for the note
/// that names it; `None` for a body of another form.
fn cub_wrapping_namespace(name: &str, body: &[u8]) -> Option<String> {
    let words: Vec<&str> = lexer::identifiers(body)
        .into_iter()
        .filter_map(|r| std::str::from_utf8(&body[r]).ok())
        .collect();
    let ns: Vec<&str> = match name {
        "CUB_NS_PREFIX" => words
            .windows(2)
            .filter(|w| w[0] == "namespace")
            .map(|w| w[1])
            .collect(),
        "CUB_NS_QUALIFIER" => match words.split_last() {
            Some((&"cub", outer)) => outer.to_vec(),
            _ => Vec::new(),
        },
        _ => words,
    };
    (!ns.is_empty()).then(|| ns.join("::"))
}

/// Whether the name at `start..end` is the one a namespace alias declares (`cub` in
/// `namespace cub = hipcub;`).
fn declares_namespace_alias(src: &[u8], start: usize, end: usize) -> bool {
    let after = src[end..].trim_ascii_start();
    if !after.starts_with(b"=") || after.starts_with(b"==") {
        return false;
    }
    let before = src[..start].trim_ascii_end();
    before.strip_suffix(b"namespace").is_some_and(|head| {
        !head
            .last()
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
    })
}

/// Whether the name at `start..end` ends the path of `using namespace a::b;` or of a namespace
/// alias `namespace n = a::b;`, where tree-sitter sees its last segment as a plain identifier.
fn names_namespace(src: &[u8], start: usize, end: usize) -> bool {
    // Cheapest test first: the path ends the statement.
    let after = src[end..].iter().find(|b| !b.is_ascii_whitespace());
    if after != Some(&b';') {
        return false;
    }
    // Back over the qualifiers (`c10::` in `c10::cuda`).
    let (_, i) = qualifiers_before(src, start);
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let before = src[..i].trim_ascii_end();
    // A path from the global namespace: `using namespace ::cuda::std;`.
    let before = before
        .strip_suffix(b"::")
        .map_or(before, <[u8]>::trim_ascii_end);
    if let Some(head) = before.strip_suffix(b"namespace") {
        // `using namespace`, not an identifier that ends in `namespace`.
        let head = match head.last() {
            Some(b) if b.is_ascii_whitespace() => head.trim_ascii_end(),
            _ => return false,
        };
        return head
            .strip_suffix(b"using")
            .is_some_and(|h| !h.last().is_some_and(|&b| ident(b)));
    }
    // `namespace n = a::b;`
    let Some(head) = before.strip_suffix(b"=") else {
        return false;
    };
    let head = head.trim_ascii_end();
    let alias_start = head.iter().rposition(|&b| !ident(b)).map_or(0, |p| p + 1);
    alias_start < head.len() && head[..alias_start].trim_ascii_end().ends_with(b"namespace")
}

/// The `a::b::` qualifiers written right before byte `pos`, innermost first, and where the
/// outermost one starts (`pos` when there are none). A leading `::` (the global namespace,
/// `::cuda::std::uint8_t`) ends them: the word before it, a keyword or a type (`const
/// ::cuda::std::uint8_t`, `return ::cuda::std::get<0>(t)`), qualifies nothing.
fn qualifiers_before(src: &[u8], pos: usize) -> (Vec<&[u8]>, usize) {
    let mut parts: Vec<&[u8]> = Vec::new();
    let mut i = pos;
    loop {
        let mut j = i;
        while j > 0 && src[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        if j < 2 || &src[j - 2..j] != b"::" {
            break;
        }
        let spaced_after = j < i;
        j -= 2;
        let colons = j;
        while j > 0 && src[j - 1].is_ascii_whitespace() {
            j -= 1;
        }
        // `T ::name`, blanks before the `::` but none after: the global namespace's.
        if j < colons && !spaced_after {
            break;
        }
        let end = j;
        while j > 0 && (src[j - 1].is_ascii_alphanumeric() || src[j - 1] == b'_') {
            j -= 1;
        }
        if j == end || is_keyword(&src[j..end]) {
            break;
        }
        parts.push(&src[j..end]);
        i = j;
    }
    (parts, i)
}

/// Whether `word` is a C++ or CUDA keyword that can stand before a global `::name`
/// (`return ::f()`, `const ::T x`, `__device__ ::T f()`), and so is never a qualifier.
fn is_keyword(word: &[u8]) -> bool {
    matches!(
        word,
        b"return"
            | b"const"
            | b"volatile"
            | b"static"
            | b"extern"
            | b"inline"
            | b"constexpr"
            | b"typename"
            | b"using"
            | b"namespace"
            | b"new"
            | b"delete"
            | b"throw"
            | b"case"
            | b"else"
            | b"do"
            | b"friend"
            | b"virtual"
            | b"mutable"
            | b"decltype"
            | b"sizeof"
            | b"co_return"
            | b"co_yield"
            | b"__device__"
            | b"__host__"
            | b"__global__"
            | b"__forceinline__"
            | b"__inline__"
            | b"__noinline__"
            | b"__shared__"
            | b"__constant__"
            | b"__managed__"
    )
}

/// Whether `src` declares a `__constant__` or `__device__` variable called `name` (a
/// declaration whose qualifiers, since the last `;` or brace, name one of those, and where the
/// name is not a function's), so that a string symbol of that name can become the variable.
fn declares_device_variable(src: &[u8], name: &str) -> bool {
    crate::lexer::whole_words(src, name).any(|at| {
        let after = src[at + name.len()..]
            .iter()
            .find(|b| !b.is_ascii_whitespace());
        if matches!(after, Some(b'(') | None) {
            return false;
        }
        let from = src[..at]
            .iter()
            .rposition(|b| matches!(b, b';' | b'{' | b'}' | b'(' | b')' | b'#' | b'"'))
            .map_or(0, |i| i + 1);
        crate::lexer::identifiers(&src[from..at])
            .into_iter()
            .any(|r| matches!(&src[from..at][r], b"__constant__" | b"__device__"))
    })
}

/// The name that ends just before the call's `(` (or the call's first word), for messages.
fn node_name_before(src: &[u8], start: usize) -> String {
    let len = src[start..]
        .iter()
        .take_while(|b| crate::lexer::is_word_byte(**b))
        .count();
    String::from_utf8_lossy(&src[start..start + len]).into_owned()
}

/// The name after the `::` that follows byte `pos` (`atomic` in `std::atomic<int>` from the end
/// of `std`), if any.
/// Whether a name after `cub::` is CUB's API: its classes and functions are all CamelCase
/// (`DeviceScan`, `BlockReduce`, `WarpReduce`, `ThreadLoad`, `Sum`, `KeyValuePair`), where a
/// project's own namespace called `cub` (`foo::cub::tile_items()`, verify8) is not a wrapped
/// CUB and keeps its qualifiers.
fn names_cub_api(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_ascii_uppercase())
}

/// Whether a line ends between the qualifier ending at `pos` and the segment after its `::`
/// (a macro body ending `myext::cub::`, whose next line is other code).
fn newline_before_segment(src: &[u8], pos: usize) -> bool {
    let rest = src.get(pos..).unwrap_or_default();
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let rest = rest.strip_prefix(b"::").unwrap_or(rest);
    rest.iter()
        .take_while(|b| b.is_ascii_whitespace())
        .any(|&b| b == b'\n')
}

/// Whether `src` declares a namespace named `name` with a body (`namespace cub {`,
/// `namespace foo::cub {`; not an alias or a `using`): then its `X::cub::` is that namespace,
/// renamed with its declaration, not a wrapped CUB.
fn declares_namespace(src: &[u8], name: &[u8]) -> bool {
    let skip_blanks = |r: &[u8]| r.iter().take_while(|b| b.is_ascii_whitespace()).count();
    memchr::memmem::find_iter(src, b"namespace").any(|at| {
        let before = at.checked_sub(1).map(|i| src[i]);
        if before.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_') {
            return false;
        }
        let rest = &src[at + b"namespace".len()..];
        let rest = &rest[skip_blanks(rest)..];
        let path_len = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_' || **b == b':')
            .count();
        let after = &rest[path_len..];
        after[skip_blanks(after)..].starts_with(b"{")
            && rest[..path_len]
                .split(|&b| b == b':')
                .any(|segment| segment == name)
    })
}

fn segment_after(src: &[u8], pos: usize) -> Option<&str> {
    let rest = src.get(pos..)?;
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let rest = rest.strip_prefix(b"::")?;
    let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
    let len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    std::str::from_utf8(&rest[..len])
        .ok()
        .filter(|s| !s.is_empty())
}

/// The 64-bit form of a bit operation that takes a 32-bit mask (`__ffs` -> `__ffsll`, `__popc` ->
/// `__popcll`), for its use on a vote (see `widen_ballot_bit_op`).
fn wide_bit_op(name: &str) -> Option<&'static str> {
    match name {
        "__ffs" => Some("__ffsll"),
        "__popc" => Some("__popcll"),
        _ => None,
    }
}

/// What to do instead of `name`, for a help that begins "target a newer HIP, or ...": a
/// `math_constants.h` macro (`CUDART_INF_F`) is written as its value, which HIP `v` compiles
/// (`__int_as_float(0x7f800000U)`, or `INFINITY`); anything else is avoided. G2.
/// What a HIP name the rules date later than its library declares it does at run time before
/// that date (R21-b): the header has it, so a plain "only from" would read like a missing
/// declaration. Facts from the libraries' CHANGELOGs (see `rules/data/extra-*.tsv`).
fn fails_before_dated(hip: &str) -> Option<&'static str> {
    match hip {
        // hipRAND 2.11.0 (ROCm 6.2.0) CHANGELOG: "hiprandCreateGeneratorHost dispatches to the
        // host generator in the rocRAND backend instead of returning with
        // HIPRAND_STATUS_NOT_IMPLEMENTED".
        "hiprandCreateGeneratorHost" => Some(
            "hipRAND declares but, on AMD GPUs (its rocRAND backend), returns `HIPRAND_STATUS_NOT_IMPLEMENTED`",
        ),
        _ => None,
    }
}

fn avoid(name: &str, v: Version) -> String {
    match hipport_rules::math_constants::lookup(name) {
        Some(c) => {
            let std = match (c.std, c.std_header) {
                (Some(s), Some(h)) => {
                    format!(" (or `{s}` from <{h}>, which host code can use as well)")
                }
                (Some(s), None) => format!(" (or `{s}`, which host code can use as well)"),
                _ => String::new(),
            };
            format!("write its value as CUDA's math_constants.h defines it, which HIP {v} compiles: `{}`{std}", c.value)
        }
        None => format!("avoid `{name}`"),
    }
}

/// The libcu++ header that declares `name` written after `scope`, for its atomics: `cuda::`'s
/// `atomic`, `atomic_ref`, `atomic_flag`, the fences and free functions, `memory_order_*` and
/// `thread_scope_*` (`<cuda/atomic>`), and the `cuda::std::` ones (`<cuda/std/atomic>`, whose
/// names the namespace rules keep). None for any other name.
fn libcupp_atomic_header(scope: &str, name: &str) -> Option<&'static str> {
    let atomic =
        name.starts_with("atomic") || name.starts_with("memory_order") || name == "kill_dependency";
    match scope.trim_start_matches("::") {
        "cuda::" if libcupp_atomic_name(name) => Some("cuda/atomic"),
        "cuda::std::" if atomic => Some("cuda/std/atomic"),
        _ => None,
    }
}

/// Whether `name` may be a libcu++ atomic name under `cuda::` (see [`libcupp_atomic_header`]).
fn libcupp_atomic_name(name: &str) -> bool {
    name.starts_with("atomic")
        || name.starts_with("memory_order")
        || name.starts_with("thread_scope")
        || name == "kill_dependency"
}

/// The argument of HIP's clang atomic builtins (`__hip_atomic_fetch_add(p, v, order, scope)`)
/// that stands for a libcu++ memory order or thread scope: `memory_order_relaxed` is
/// `__ATOMIC_RELAXED`, `thread_scope_device` is `__HIP_MEMORY_SCOPE_AGENT` (the macros hipcc
/// 5.2.3 predefines, seen with `hipcc -dM -E`).
fn libcupp_builtin_argument(name: &str) -> Option<String> {
    if let Some(order) = name.strip_prefix("memory_order_") {
        return matches!(
            order,
            "relaxed" | "consume" | "acquire" | "release" | "acq_rel" | "seq_cst"
        )
        .then(|| format!("__ATOMIC_{}", order.to_ascii_uppercase()));
    }
    let scope = match name.strip_prefix("thread_scope_")? {
        "system" => "SYSTEM",
        "device" => "AGENT",
        "block" => "WORKGROUP",
        "thread" => "SINGLETHREAD",
        _ => return None,
    };
    Some(format!("__HIP_MEMORY_SCOPE_{scope}"))
}

/// The `a::b::` scope written right before byte `pos`, e.g. `thrust::` before `cuda`.
fn scope_before(src: &[u8], pos: usize) -> String {
    let (mut parts, _) = qualifiers_before(src, pos);
    parts.reverse();
    let mut out = String::new();
    for p in parts {
        out.push_str(&String::from_utf8_lossy(p));
        out.push_str("::");
    }
    out
}

/// Whether a mapping names a type (`cublasStatus` -> `hipblasStatus_t`, `CUstream` ->
/// `hipStream_t`): CUDA's and HIP's type names end in `_t`, their functions and enumerators do
/// not. Only a type name declared as an object is sure to be the project's: `T cudaFree(0);` may
/// as well be a call behind a macro.
fn names_a_type(m: &Mapping) -> bool {
    [Some(&*m.cuda), m.hip.as_deref(), m.roc.as_deref()]
        .into_iter()
        .flatten()
        .any(|n| n.ends_with("_t"))
}

/// Whether a file includes the legacy cuBLAS header `cublas.h` and not `cublas_v2.h` (which
/// defines `cublasSgemm` as the handle API's `cublasSgemm_v2`).
fn legacy_cublas(src: &[u8]) -> bool {
    memchr::memmem::find(src, b"cublas_v2.h").is_none()
        && [b"<cublas.h>", b"\"cublas.h\""]
            .iter()
            .any(|h| memchr::memmem::find(src, *h).is_some())
}

/// Whether the name at `pos` is reached through an object or a scope (`ctx.cublas_handle()`,
/// `p->curand_gen`, `Caffe::cublas_handle()`): a member or a project's namespace, where the C
/// APIs of the CUDA libraries are never found, so an unknown CUDA-looking name there is no API.
fn member_or_qualified(src: &[u8], pos: usize) -> bool {
    let before = src[..pos.min(src.len())].trim_ascii_end();
    before.ends_with(b".")
        || before.ends_with(b"->")
        || (before.ends_with(b"::") && !scope_before(src, pos).is_empty())
}

/// Where the comma is in the text between two arguments, passing over comments (which may
/// hold commas of their own).
fn comma_outside_comments(between: &[u8]) -> Option<usize> {
    let mut i = 0;
    while i < between.len() {
        match (between[i], between.get(i + 1)) {
            (b',', _) => return Some(i),
            (b'/', Some(b'*')) => {
                i = memchr::memmem::find(&between[i + 2..], b"*/")
                    .map_or(between.len(), |e| i + 2 + e + 2);
            }
            (b'/', Some(b'/')) => {
                i = memchr::memchr(b'\n', &between[i..]).map_or(between.len(), |e| i + e + 1);
            }
            _ => i += 1,
        }
    }
    None
}

/// A `#define`'s value text without a trailing comment: the offset of its first non-blank byte
/// in `raw`, and the value trimmed.
fn define_value_text(raw: &str) -> (usize, &str) {
    let raw = raw
        .find("//")
        .into_iter()
        .chain(raw.find("/*"))
        .min()
        .map_or(raw, |c| &raw[..c]);
    (raw.len() - raw.trim_start().len(), raw.trim())
}

/// Translates one file's bytes.
pub fn translate_source(
    src: &[u8],
    file: &str,
    opts: &Options,
) -> Result<FileResult, TranslateError> {
    let tree = parse::parse(src, opts.parse_budget).map_err(|source| TranslateError::Parse {
        file: file.to_string(),
        source,
    })?;
    translate_tree(src, &tree, file, opts)
}

/// Translates one file given its parse tree.
pub fn translate_tree(
    src: &[u8],
    tree: &Tree,
    file: &str,
    opts: &Options,
) -> Result<FileResult, TranslateError> {
    let mut r = translate_tree_at(src, tree, file, None, opts, None)?;
    crate::analysis::merge_restated(&mut r.diagnostics);
    Ok(r)
}

/// Translates one file that lives at `rel` (relative to the input root), so that includes of
/// files the run renames can follow them. Its diagnostics are not yet merged (see
/// [`crate::analysis::merge_restated`]): a run drops `--allow`ed IDs first, so that allowing
/// one of two reports of a construct leaves the other as it was.
pub fn translate_source_at(
    src: &[u8],
    file: &str,
    rel: &str,
    opts: &Options,
) -> Result<FileResult, TranslateError> {
    let tree = parse::parse(src, opts.parse_budget).map_err(|source| TranslateError::Parse {
        file: file.to_string(),
        source,
    })?;
    translate_tree_at(src, &tree, file, Some(rel), opts, None)
}

/// [`translate_source_at`] given what the project headers the file includes tell its analysis
/// (see [`crate::header_facts::HeaderFacts::for_file`]), where the caller has looked that
/// up already (for the cache key).
pub fn translate_source_with_headers(
    src: &[u8],
    file: &str,
    rel: &str,
    opts: &Options,
    included: crate::analysis::Included,
) -> Result<FileResult, TranslateError> {
    let tree = parse::parse_with_qualifiers(src, opts.parse_budget, included.qualifiers).map_err(
        |source| TranslateError::Parse {
            file: file.to_string(),
            source,
        },
    )?;
    translate_tree_at(src, &tree, file, Some(rel), opts, Some(included))
}

fn translate_tree_at(
    src: &[u8],
    tree: &Tree,
    file: &str,
    rel: Option<&str>,
    opts: &Options,
    included: Option<crate::analysis::Included>,
) -> Result<FileResult, TranslateError> {
    // Without what the caller looked up, the file's headers are read here.
    let taken = match (&included, rel, &opts.header_facts) {
        (None, Some(rel), Some(facts)) => Some((facts, facts.for_file(src, rel))),
        _ => None,
    };
    // Macros the headers define from a test of the platform decide the file's branches as
    // the build's defines do; the command line's own say wins.
    let header_defines = match &included {
        Some(i) => i.defines,
        None => taken.as_ref().map_or(&[][..], |(_, t)| &t.defines),
    };
    let with_headers;
    let opts = if header_defines.is_empty() {
        opts
    } else {
        let mut defines: Vec<crate::analysis::Define> = header_defines
            .iter()
            .filter(|d| !opts.defines.iter().any(|o| o.name == d.name))
            .cloned()
            .collect();
        defines.extend(opts.defines.iter().cloned());
        with_headers = Options {
            defines,
            ..opts.clone()
        };
        &with_headers
    };
    let mut w = Walk::new(src, file, rel, opts);
    let flat = Flat::of_kinds(tree.root_node(), &WALKED_KINDS);
    w.walk(&flat);
    w.report_legacy_launch();
    w.solver_enums(&flat);
    w.remove_callback_conventions();
    w.visit_has_includes(tree);
    w.finish_call_sites();
    w.add_runtime_include(tree);
    w.add_roctx_include(tree);
    w.soften_in_skipped_branches(tree);
    w.leave_cuda_arms(tree);
    w.duplicate_case_labels(tree);
    let parse_errors = parse::error_lines(tree, src);
    // The bodies chosen by `#if` whose arms the analysis read on their own.
    let mut arms_checked: Vec<std::ops::Range<usize>> = Vec::new();
    if opts.analyze {
        let aopts = crate::analysis::AnalysisOptions {
            hip_version: opts.hip_version,
            fix: opts.fix,
            defines: opts.defines.clone(),
        };
        let load = taken.as_ref().map(|(facts, t)| move || facts.functions(t));
        let included = included.unwrap_or_else(|| crate::analysis::Included {
            warp_aliases: taken.as_ref().map_or(&[], |(_, t)| &t.aliases),
            functions: load
                .as_ref()
                .map(|l| l as &dyn Fn() -> Vec<crate::analysis::HeaderFunction>),
            defines: &[],
            qualifiers: &[],
            constants: taken.as_ref().map_or(&[], |(_, t)| &t.constants),
        });
        let mut found =
            crate::analysis::analyze_flat_with(src, tree, &flat, &w.index, file, &aopts, included);
        // Bodies chosen by `#if`/`#else` without braces do not parse: each arm is analysed in a
        // copy of the file where it stands alone, and what that finds is added.
        let bodies = if parse_errors.is_empty() {
            Vec::new()
        } else {
            parse::chosen_bodies(src)
        };
        if !bodies.is_empty() {
            let live = live_arms(src, &bodies, opts);
            let rounds = live.iter().map(Vec::len).max().unwrap_or(0);
            for round in 0..rounds {
                let chosen: Vec<usize> = live
                    .iter()
                    .map(|arms| arms[round.min(arms.len() - 1)])
                    .collect();
                let variant = parse::keep_arms(src, &bodies, &chosen);
                let Ok(vtree) = parse::parse(&variant, opts.parse_budget) else {
                    continue;
                };
                if parse::error_count(&vtree) >= parse::error_count(tree) {
                    continue;
                }
                arms_checked = bodies
                    .iter()
                    .map(|b| b.header.start..b.directives.last().map_or(b.header.end, |d| d.end))
                    .collect();
                let vflat = Flat::of_kinds(vtree.root_node(), &WALKED_KINDS);
                let more = crate::analysis::analyze_flat_with(
                    &variant, &vtree, &vflat, &w.index, file, &aopts, included,
                );
                for mut d in more {
                    if !found
                        .iter()
                        .any(|f| f.id == d.id && f.offset == d.offset && f.message == d.message)
                    {
                        d.fix.clear();
                        found.push(d);
                    }
                }
            }
        }
        // Lane masks passed to the project's own macro (R22-b): the macro decides.
        found
            .retain(|d| d.id != "H003" || !w.own_macro_calls.iter().any(|r| r.contains(&d.offset)));
        let taken = take_half_wave_masks(&mut found, &mut w.edits);
        let kept = keep_one_warp_masks(&found, &mut w.edits);
        if kept > 0 {
            // Their widenings were counted as rewrites.
            let device = Family::Device.as_str();
            if let Some(n) = w.renames.get_mut(device) {
                *n = n.saturating_sub(kept);
                if *n == 0 {
                    w.renames.remove(device);
                }
            }
        }
        // The analysis's note on the branch says it for these masks: one report (R24-f).
        w.diags.retain(|d| {
            !(d.id == "H003" && d.message.contains(RUNNING_LANES_MASK) && taken.contains(&d.offset))
        });
        // H034 describes hipBLAS's `*Ex` interfaces (`hipblasGemmEx_v2`, `HIPBLAS_COMPUTE_*`):
        // with `--blas rocblas` those calls become rocBLAS's, reported as T015 (T3).
        if opts.libs.lib_for(Family::Cublas) == Lib::Roc {
            found.retain(|d| d.id != "H034");
        }
        crate::analysis::apply_suppressions(src, &mut found);
        if let Some(targets) = &opts.targets {
            crate::analysis::fit_to_targets(&mut found, targets);
        }
        if opts.fix {
            for d in &mut found {
                w.edits.append(&mut d.fix.clone());
            }
        }
        guard_index_stand_ins(src, tree, &mut found, &mut w.edits);
        w.diags.extend(found);
    }
    // Unparsed lines that each start with the same macro the file does not define before a
    // declaration (`inline DEV_ONLY int f(...)`, DEV_ONLY from a header outside the input): one
    // note for them all, naming the macro (O1).
    let mut by_macro: Vec<(String, Vec<(usize, usize)>)> = Vec::new();
    for &(a, b) in &parse_errors {
        let line = w.index.line_range(src, a);
        if arms_checked
            .iter()
            .any(|r| r.start < line.end && line.start < r.end)
        {
            continue;
        }
        // A template's head line (`template <typename T>`) comes before the macro's.
        let name = (a..=b)
            .map(|l| &src[w.index.line_range(src, l)])
            .find(|l| !l.trim_ascii_start().starts_with(b"template"))
            .and_then(unknown_qualifier_macro);
        let Some(name) = name else {
            continue;
        };
        // A macro the file defines itself is not what the parser stumbled on (R33-2: `FQ`,
        // defined above, beside a function-like macro in the return type): the note below.
        if w.defined_here.contains(name) || file_defines_macro(src, name).is_some() {
            continue;
        }
        match by_macro.iter_mut().find(|(n, _)| n == name) {
            Some((_, ranges)) => ranges.push((a, b)),
            None => by_macro.push((name.to_string(), vec![(a, b)])),
        }
    }
    for (name, ranges) in &by_macro {
        let offset = w.index.line_range(src, ranges[0].0).start;
        let listed: Vec<String> = ranges
            .iter()
            .map(|&(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}-{b}")
                }
            })
            .collect();
        let ops: Vec<&str> = ranges
            .iter()
            .filter_map(|&(a, b)| {
                let unparsed = w.index.line_range(src, a).start..w.index.line_range(src, b).end;
                warp_op_near(tree, src, unparsed)
            })
            .collect();
        let (lines, each) = match ranges[..] {
            [(a, b)] if a == b => (format!("line {a}"), "a declaration"),
            [_] => (format!("lines {}", listed[0]), "a declaration"),
            _ => (
                format!(
                    "lines {} ({} declarations)",
                    listed.join(", "),
                    ranges.len()
                ),
                "each",
            ),
        };
        let mut message = format!(
            "could not parse {lines}, {each} at the macro `{name}`, which the file does not define (a header outside the input may); renames there were applied, but other rewrites and the hazard checks (warp size, lane masks, inline PTX) may have missed code there",
        );
        let mut severity = Severity::Note;
        if let Some(op) = ops.first() {
            severity = Severity::Warning;
            message.push_str(&format!(" (the function holds warp operations: `{op}`)"));
        }
        w.diag(
            &PARSE_ERROR,
            offset,
            message,
            Some(format!(
                "if `{name}` stands for qualifiers (`#define {name} __device__`), put the header that defines it in the input and include it in this file (hipport reads qualifier macros only from the project headers a file includes: with quotes, or as `<dir/x.h>` found in a directory above the file or its `include/`; a header the file's includers bring in first is not seen); then these functions parse and are checked"
            )),
        );
        w.diags.last_mut().expect("just added").severity = severity;
    }
    for &(a, b) in &parse_errors {
        if by_macro.iter().any(|(_, r)| r.contains(&(a, b))) {
            continue;
        }
        let offset = w.index.line_range(src, a).start;
        let lines = if a == b {
            format!("line {a}")
        } else {
            format!("lines {a}-{b}")
        };
        let line = w.index.line_range(src, a);
        if arms_checked
            .iter()
            .any(|r| r.start < line.end && line.start < r.end)
        {
            // A body chosen by `#if` without braces: each arm was analysed on its own.
            w.diag(
                &PARSE_ERROR,
                offset,
                format!("could not parse {lines} as written (a loop or `if` body chosen by `#if`/`#else`); each arm was checked for hazards on its own, renames were applied, other rewrites may be missing"),
                Some("review these lines in the output; braces around the body let the parser read it".into()),
            );
            continue;
        }
        // A function-like macro of the file used on the first line (`FQ WHEN_INT(I) mod(I x)`,
        // a type the parser sees only as a call) is the likely cause: named (R33-2).
        let first_line = &src[w.index.line_range(src, a)];
        let culprit = lexer::identifiers(first_line).into_iter().find_map(|r| {
            let word = std::str::from_utf8(&first_line[r.clone()]).ok()?;
            (first_line[r.end..].trim_ascii_start().starts_with(b"(")
                && file_defines_macro(src, word) == Some(true))
            .then_some(word)
        });
        let because = match culprit {
            Some(m) => format!(" (it uses the file's function-like macro `{m}(...)`, which the parser reads as a call, not as what it expands to)"),
            None => String::new(),
        };
        w.diag(
            &PARSE_ERROR,
            offset,
            format!("could not parse {lines}{because}; renames there were applied, but other rewrites and the hazard checks (warp size, lane masks, inline PTX) may have missed code there"),
            Some("review these lines in the output".into()),
        );
        // In a function with warp operations, what the checks may have missed is what matters
        // most on 64-lane wavefronts: a warning, not a note.
        let unparsed = offset..w.index.line_range(src, b).end;
        if let Some(op) = warp_op_near(tree, src, unparsed) {
            let d = w.diags.last_mut().expect("just added");
            d.severity = Severity::Warning;
            d.message
                .push_str(&format!(" (the function holds warp operations: `{op}`)"));
            d.help = Some("review these lines by hand for 64-lane wavefronts; braces around a loop or `if` body chosen by `#if`/`#else` let the parser read it".into());
        }
    }
    w.hint_use_rocm(tree);
    crate::analysis::apply_suppressions_in(src, file, &mut w.diags);
    if opts.annotate {
        annotate(&mut w);
    }
    // A name looked for in the file's headers makes the result depend on them, found or not.
    let read_other_files = w.looked_for_project_headers
        || w.header_macros.is_some() && memchr::memmem::find(src, b"include").is_some();
    let Walk {
        mut edits,
        mut diags,
        renames,
        aliases,
        rule_call_args,
        ..
    } = w;
    let overlap = |source| TranslateError::Overlap {
        file: file.to_string(),
        source,
    };
    edit::normalize(&mut edits).map_err(overlap)?;
    if opts.fix {
        mark_fixed(&mut diags, &edits);
    }
    edit::drop_emptied_lines(src, &mut edits);
    let output = edit::apply(src, &mut edits).map_err(overlap)?;
    diags.sort_by_key(|d| (d.offset, d.id.clone()));
    Ok(FileResult {
        output,
        edits,
        diagnostics: diags,
        parse_errors,
        renames,
        aliases,
        read_other_files,
        rule_call_args,
    })
}

/// The rule of the analysis's edits that pass `__activemask()` to a `_sync` builtin that runs on
/// part of a 64-lane wavefront (a row's branch of a `dim3(32, 2)` block): row_warps.rs's
/// `HALF_WAVE_MASK`.
const HALF_WAVE_MASK: &str = "half-wave-mask";

/// What the note of [`Walk::keep_running_lanes`] says the port did.
const RUNNING_LANES_MASK: &str =
    "hipport's port passes it `__activemask()` (the lanes that run it)";

/// Moves the analysis's `__activemask()` masks (see [`HALF_WAVE_MASK`]) from its reports into
/// the translation, whatever `--fix` says, in place of the widening of the same mask: HIP 6.2's
/// `__hip_check_mask` traps where the 64-lane full mask names lanes that do not run the call
/// (R19-f). One that overlaps another rewrite (a `__syncwarp` that became fences) is dropped.
/// Returns where each of those masks starts.
fn take_half_wave_masks(found: &mut [Diagnostic], edits: &mut Vec<Edit>) -> Vec<usize> {
    let mut starts = Vec::new();
    for d in found.iter_mut() {
        if !d.fix.iter().any(|e| e.rule == HALF_WAVE_MASK) {
            continue;
        }
        let (masks, rest): (Vec<Edit>, Vec<Edit>) =
            d.fix.drain(..).partition(|e| e.rule == HALF_WAVE_MASK);
        d.fix = rest;
        for m in masks {
            starts.push(m.start);
            let within = |e: &Edit| m.start <= e.start && e.end <= m.end && e.start < e.end;
            let overlaps = |e: &Edit| e.start < m.end && m.start < e.end || e.start == m.start;
            if edits
                .iter()
                .any(|e| overlaps(e) && !(within(e) && e.rule == "warp-mask-64"))
            {
                continue;
            }
            edits.retain(|e| !(within(e) && e.rule == "warp-mask-64"));
            edits.push(m);
        }
    }
    starts
}

/// Leaves alone the `0xffffffffull` masks that the analysis finds right as they are: in a kernel
/// that every launch runs with blocks of 32 threads, they name lanes 0-31, the lanes that run
/// (H003's note, [`crate::analysis::ONE_WARP_KEPT`]), where the widening to all 64 lanes would
/// trap in HIP's `__hip_check_mask` (realuser44 R44-b). A second conversion of a converted file
/// therefore changes nothing there. Returns how many widenings it dropped.
fn keep_one_warp_masks(found: &[Diagnostic], edits: &mut Vec<Edit>) -> usize {
    let kept: Vec<usize> = found
        .iter()
        .filter(|d| d.id == "H003" && d.message.contains(crate::analysis::ONE_WARP_KEPT))
        .map(|d| d.offset)
        .collect();
    if kept.is_empty() {
        return 0;
    }
    let before = edits.len();
    edits.retain(|e| !(e.rule == "warp-mask-64" && kept.contains(&e.start)));
    before - edits.len()
}

/// The name that `line` (one line, its line break left off) undefines, if it is an `#undef`
/// directive (`#undef NAME`, `# undef NAME // comment`).
fn undef_of(line: &[u8]) -> Option<&[u8]> {
    let rest = line.trim_ascii().strip_prefix(b"#")?.trim_ascii_start();
    let rest = rest.strip_prefix(b"undef")?;
    if !rest.first().is_some_and(u8::is_ascii_whitespace) {
        return None;
    }
    let rest = rest.trim_ascii_start();
    let name_len = rest
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let tail = rest[name_len..].trim_ascii();
    (name_len > 0 && (tail.is_empty() || tail.starts_with(b"//") || tail.starts_with(b"/*")))
        .then_some(&rest[..name_len])
}

/// CUDA's built-in index variables, which HIP's headers declare for the host pass too.
const INDEX_VARIABLES: [&str; 4] = ["threadIdx", "blockIdx", "blockDim", "gridDim"];

/// What the translation puts around the host-side stand-ins for CUDA's index variables.
const HIPCC_GUARD: &str = "#if !defined(__HIPCC__)";

/// The rule of the edits that guard CUDA's index-variable stand-ins from hipcc: header mode keeps
/// them too, since its output goes through hipcc as well.
pub const INDEX_GUARD: &str = "index-guard";

/// Puts `#if !defined(__HIPCC__)` ... `#endif` around each run of host-side stand-ins for CUDA's
/// index variables that the analysis reports as clashing with HIP's (H025: `extern const dim3
/// blockDim; extern const uint3 threadIdx;` under `#ifndef __CUDA_ARCH__`, as in ethminer's
/// cuda_helper.h), whatever `--fix` says: hipcc defines `__HIPCC__` in both passes, so neither
/// sees them, and nvcc still does (hipcc 5.2.3, gfx90a, both passes; realuser24 R24-c). The
/// analysis decides which declarations clash (not in a branch hipcc skips, so a guarded one is
/// not reported again and the output converts to itself); here only declarations that name
/// nothing else and stand on lines of their own (a trailing `//` comment allowed) are guarded,
/// adjacent ones (blank or `//` comment lines between) under one guard. Their reports become
/// notes that say so.
fn guard_index_stand_ins(src: &[u8], tree: &Tree, found: &mut [Diagnostic], edits: &mut Vec<Edit>) {
    let blank = |b: &[u8]| b.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r'));
    let blank_or_comment = |b: &[u8]| {
        let t = b.trim_ascii();
        t.is_empty() || t.starts_with(b"//")
    };
    // Per declaration to guard: its report, its line's start and the end of its line (after
    // the line break, or the end of the file).
    let mut runs: Vec<(Vec<usize>, usize, usize)> = Vec::new();
    for (i, d) in found.iter().enumerate() {
        if d.id != "H025" || d.severity != Severity::Error {
            continue;
        }
        let Some(decl) = index_stand_in_at(tree, src, d.offset) else {
            continue;
        };
        let start = memchr::memrchr(b'\n', &src[..decl.start_byte()]).map_or(0, |i| i + 1);
        let end = decl.end_byte();
        let line_end = memchr::memchr(b'\n', &src[end..]).map_or(src.len(), |i| end + i + 1);
        if !blank(&src[start..decl.start_byte()]) || !blank_or_comment(&src[end..line_end]) {
            continue;
        }
        match runs.last_mut() {
            Some((reports, _, last_end))
                if *last_end <= start
                    && src[*last_end..start]
                        .split(|&c| c == b'\n')
                        .all(blank_or_comment) =>
            {
                reports.push(i);
                *last_end = line_end;
            }
            _ => runs.push((vec![i], start, line_end)),
        }
    }
    let eol = crate::edit::line_ending(src);
    for (reports, start, end) in runs {
        edits.push(Edit::insert(
            start,
            format!("{HIPCC_GUARD}{eol}"),
            INDEX_GUARD,
        ));
        let close = if src[..end].ends_with(b"\n") {
            format!("#endif{eol}")
        } else {
            format!("{eol}#endif{eol}")
        };
        edits.push(Edit::insert(end, close, INDEX_GUARD));
        for i in reports {
            let d = &mut found[i];
            d.severity = Severity::Note;
            d.message.push_str(&format!("; hipport's port guards it with `{HIPCC_GUARD}` (hipcc defines `__HIPCC__` in both passes), so hipcc does not see it"));
            d.help = Some("nothing to do for HIP; nvcc still compiles the declaration".into());
        }
    }
}

/// The declaration that starts at `offset` when it declares CUDA's index variables and nothing
/// else (`extern const dim3 blockDim, gridDim;`).
fn index_stand_in_at<'t>(tree: &'t Tree, src: &[u8], offset: usize) -> Option<Node<'t>> {
    let mut n = tree.root_node().descendant_for_byte_range(offset, offset)?;
    while n.kind_name() != "declaration" {
        n = n.parent().filter(|p| p.start_byte() == offset)?;
    }
    if n.start_byte() != offset {
        return None;
    }
    let mut c = n.walk();
    let mut declarators = n.children_by_field_name("declarator", &mut c).peekable();
    declarators.peek()?;
    declarators
        .all(|mut d| {
            while let Some(inner) = d.field(FIELDS.declarator) {
                d = inner;
            }
            d.kind_name() == "identifier"
                && std::str::from_utf8(&src[d.byte_range()])
                    .is_ok_and(|t| INDEX_VARIABLES.contains(&t))
        })
        .then_some(n)
}

/// Diagnostics whose every fix edit is in the output become notes that say so: what `--fix`
/// repaired is no longer an error to act on (nor counted as one by the exit status).
fn mark_fixed(diags: &mut [Diagnostic], applied: &[Edit]) {
    let done: HashSet<(usize, usize, &str)> = applied
        .iter()
        .map(|e| (e.start, e.end, e.text.as_str()))
        .collect();
    for d in diags.iter_mut().filter(|d| !d.fix.is_empty()) {
        if d.fix
            .iter()
            .all(|e| done.contains(&(e.start, e.end, e.text.as_str())))
        {
            d.severity = Severity::Note;
            d.message.push_str(" (fixed by --fix)");
        }
    }
}

/// The comments [`annotate`] writes above one line for its reports (ID, message), in order: one
/// per ID and message, with " (N times)" where it stands for several (the calls of one macro
/// body, R24-3), and none for a report whose message another report there already holds (a
/// T002 that the T013 of the same name folded in).
fn annotation_texts(reports: &[(&str, &str)]) -> Vec<String> {
    let mut counted: Vec<(&str, &str, usize)> = Vec::new();
    for &(id, message) in reports {
        match counted
            .iter_mut()
            .find(|(i, m, _)| *i == id && *m == message)
        {
            Some(c) => c.2 += 1,
            None => counted.push((id, message, 1)),
        }
    }
    counted
        .iter()
        .filter(|(_, m, _)| {
            !counted
                .iter()
                .any(|(_, other, _)| other.ends_with(&format!(": {m}")))
        })
        .map(|&(id, m, n)| match n {
            1 => format!("{id} {m}"),
            n => format!("{id} {m} ({n} times)"),
        })
        .collect()
}

/// Inserts a `// hipport: ID message` comment above each line with an error diagnostic.
fn annotate(w: &mut Walk) {
    // Keyed by the line a note goes above: the first line of the diagnostic's logical line, since
    // a comment between `\\`-continued lines would end a macro or change a string. One comment
    // per construct: the reports a run shows, with restated ones folded.
    let mut lines: BTreeMap<usize, Vec<(&str, &str)>> = BTreeMap::new();
    let mut shown = w.diags.clone();
    crate::analysis::merge_restated(&mut shown);
    // In the order of the source (a macro body's T013 is found after the renames of its text).
    shown.sort_by_key(|d| (d.line, d.column));
    for d in &shown {
        if d.severity == Severity::Error {
            let at = w.index.line_range(w.src, d.line).start;
            let first = w.index.position(parse::logical_line_start(w.src, at)).0;
            lines
                .entry(first)
                .or_default()
                .push((d.id.as_str(), d.message.as_str()));
        }
    }
    let eol = crate::edit::line_ending(w.src);
    for (line, reports) in lines {
        let msgs = annotation_texts(&reports);
        let range = w.index.line_range(w.src, line);
        let indent: String = w.src[range.clone()]
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .map(|&b| b as char)
            .collect();
        // The comments a run before wrote there stay, and are not written again (idempotence).
        let written: Vec<String> = w.src[..range.start]
            .rsplit(|&b| b == b'\n')
            .skip(1)
            .map_while(|l| {
                let l = l.strip_suffix(b"\r").unwrap_or(l).trim_ascii_start();
                l.strip_prefix(b"// hipport: ")
                    .map(|c| String::from_utf8_lossy(c).into_owned())
            })
            .collect();
        let mut text = String::new();
        for m in msgs {
            let m = m.replace("*/", "* /");
            if !written.contains(&m) {
                text.push_str(&format!("{indent}// hipport: {m}{eol}"));
            }
        }
        if !text.is_empty() {
            w.edits.push(Edit::insert(range.start, text, ANNOTATED.id));
        }
    }
}

/// Whether `n` lies in a preprocessor branch whose condition names HIP, ROCm or AMD (`#if
/// MY_HIP`, `#ifdef USE_ROCM`, `#elif defined(__HIP_PLATFORM_AMD__)`), of either polarity.
/// Whether the `#define` of `name` at `n` holds in every build: no conditional directive
/// around it but an include guard or `#ifndef` of the name itself. Such a macro is the
/// project's under hipcc too; one in a CPU-only branch (`#ifndef WITH_CUDA` / `#define
/// cudaStream_t int`) is not, and follows the renames of the code it stands in for.
fn defined_whatever_the_build(n: Node, name: &str, src: &[u8]) -> bool {
    parse::ancestors(n)
        .into_iter()
        .all(|x| match x.kind_name() {
            "preproc_if" | "preproc_elif" | "preproc_elifdef" | "preproc_else" => false,
            "preproc_ifdef" => {
                let negated = x.child(0).is_some_and(|t| t.kind_name() == "#ifndef");
                let Some(tested) = x.child_by_field_name("name") else {
                    return false;
                };
                let tested = parse::text(tested, src);
                // An include guard: `#ifndef X` whose first line defines `X`.
                let guard = parse::named_children(x)
                    .nth(1)
                    .filter(|d| d.kind_name() == "preproc_def")
                    .and_then(|d| d.child_by_field_name("name"))
                    .is_some_and(|g| parse::text(g, src) == tested);
                negated && (tested == name.as_bytes() || guard)
            }
            _ => true,
        })
}

/// Whether the byte at `at` lies in an `#if`/`#elif` line that already names `new` (`#if
/// defined(__CUDACC__) || defined(__HIPCC__)`): the condition holds for both compilers as
/// written, and the renamed one would test the same name twice.
fn condition_names(src: &[u8], at: usize, new: &str) -> bool {
    let continued = |end: usize| src[..end].trim_ascii_end().ends_with(b"\\");
    // The directive's first line, across `\` continuations.
    let mut start = memchr::memrchr(b'\n', &src[..at]).map_or(0, |i| i + 1);
    while start > 0 && continued(start - 1) {
        start = memchr::memrchr(b'\n', &src[..start - 1]).map_or(0, |i| i + 1);
    }
    let Some(rest) = src[start..].trim_ascii_start().strip_prefix(b"#") else {
        return false;
    };
    let rest = rest.trim_ascii_start();
    if !(rest.starts_with(b"if") || rest.starts_with(b"elif")) {
        return false;
    }
    let mut end = at;
    loop {
        match memchr::memchr(b'\n', &src[end..]) {
            Some(i) if continued(end + i) => end += i + 1,
            Some(i) => break end += i,
            None => break end = src.len(),
        }
    }
    crate::lexer::whole_words(&src[start..end], new)
        .next()
        .is_some()
}

/// Whether a directive's text names HIP or ROCm (any case): the branches it makes hipcc skip
/// are the project's own CUDA code, left as written ([`Walk::leave_cuda_arms`]).
fn names_hip_or_rocm(directive: &str) -> bool {
    let t = directive.to_ascii_lowercase();
    t.contains("hip") || t.contains("rocm")
}

/// Whether an `#if`/`#ifdef`/`#ifndef`/`#elif` line of `src` names HIP or ROCm (any case).
fn hip_guarded(src: &[u8]) -> bool {
    memchr::memchr_iter(b'#', src).any(|at| {
        let line = memchr::memrchr(b'\n', &src[..at]).map_or(0, |l| l + 1);
        if !src[line..at].iter().all(|b| matches!(b, b' ' | b'\t')) {
            return false;
        }
        let end = memchr::memchr(b'\n', &src[at..]).map_or(src.len(), |e| at + e);
        let rest = src[at + 1..end].trim_ascii_start();
        let conditional = rest.starts_with(b"if") || rest.starts_with(b"el");
        conditional
            && (rest.windows(3).any(|w| w.eq_ignore_ascii_case(b"hip"))
                || rest.windows(4).any(|w| w.eq_ignore_ascii_case(b"rocm")))
    })
}

fn in_hip_branch(n: Node, src: &[u8]) -> bool {
    parse::directive_tests(n).any(|c| {
        let t = parse::text(c, src).to_ascii_lowercase();
        ["hip", "rocm", "amd"]
            .iter()
            .any(|w| memchr::memmem::find(&t, w.as_bytes()).is_some())
    })
}

/// The arms of each of `bodies` that hipcc may compile (every arm where that is undecided, the
/// first where none is left), read from a copy of `src` whose loop headers are blank, so that
/// the directives parse.
fn live_arms(src: &[u8], bodies: &[parse::ChosenBody], opts: &Options) -> Vec<Vec<usize>> {
    let all = |b: &parse::ChosenBody| (0..b.arms.len()).collect::<Vec<usize>>();
    let text = parse::without_headers(src, bodies);
    let Ok(tree) = parse::parse(&text, opts.parse_budget) else {
        return bodies.iter().map(all).collect();
    };
    let view =
        crate::analysis::HipccView::new(&text, tree.root_node(), &opts.defines, opts.hip_version);
    bodies
        .iter()
        .map(|b| {
            let arms: Vec<usize> = (0..b.arms.len())
                .filter(|&k| {
                    let a = &b.arms[k];
                    let first =
                        a.start + text[a.clone()].len() - text[a.clone()].trim_ascii_start().len();
                    first >= a.end || view.skips(&text, tree.root_node(), first).is_none()
                })
                .collect();
            if arms.is_empty() {
                vec![0]
            } else {
                arms
            }
        })
        .collect()
}

/// Whether `src` holds a `#define` of `name`: `Some(true)` for a function-like one
/// (`#define WHEN_INT(I) ...`), `Some(false)` for an object-like one, `None` for none.
fn file_defines_macro(src: &[u8], name: &str) -> Option<bool> {
    let mut like = None;
    for at in lexer::whole_words(src, name) {
        let before = src[..at].trim_ascii_end();
        let Some(before) = before.strip_suffix(b"define") else {
            continue;
        };
        if !before.trim_ascii_end().ends_with(b"#") {
            continue;
        }
        let function = src.get(at + name.len()) == Some(&b'(');
        like = Some(like.unwrap_or(false) || function);
    }
    like
}

/// The first warp operation (a shuffle, vote or `__syncwarp`) in the function definition around
/// the lines `unparsed` (byte range) that did not parse, or in those lines where no function
/// definition holds them: a function that parsed after them was checked, and is not named (R6).
/// The macro-like word (capitals, digits and `_`, as `DEV_ONLY` or `STDGPU_HOST_DEVICE`) that
/// `line` has, after any C++ and CUDA qualifiers, before more words of a declaration
/// (`inline DEV_ONLY int`, `DEV_ONLY static float f(`): where tree-sitter fails on such a line, the
/// word is most likely a qualifier macro it cannot see the definition of. None for anything else
/// (a call `CHECK(x);`, a directive, a scope `NS::f`).
fn unknown_qualifier_macro(line: &[u8]) -> Option<&str> {
    const QUALIFIERS: &[&[u8]] = &[
        b"inline",
        b"static",
        b"extern",
        b"constexpr",
        b"virtual",
        b"explicit",
        b"friend",
        b"__host__",
        b"__device__",
        b"__global__",
        b"__forceinline__",
        b"__inline__",
        b"__noinline__",
    ];
    if line.trim_ascii_start().starts_with(b"#") {
        return None;
    }
    let words = lexer::identifiers(line);
    let mut words = words.iter().peekable();
    while words
        .next_if(|w| QUALIFIERS.contains(&&line[(*w).clone()]))
        .is_some()
    {}
    let word = words.next()?;
    let text = &line[word.clone()];
    let macro_like = text.len() > 1
        && text.iter().any(u8::is_ascii_uppercase)
        && text
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_');
    let next = words.next()?;
    // Only blanks between it and the next word: `DEV_ONLY int`, not `CHECK(x)` or `A::b`.
    let between_blank = line[word.end..next.start]
        .iter()
        .all(u8::is_ascii_whitespace);
    (macro_like && between_blank)
        .then(|| std::str::from_utf8(text).ok())
        .flatten()
}

fn warp_op_near<'s>(tree: &Tree, src: &'s [u8], unparsed: Range<usize>) -> Option<&'s str> {
    let at = unparsed.start;
    let node = tree.root_node().descendant_for_byte_range(at, at)?;
    let range = std::iter::once(node)
        .chain(parse::ancestors(node))
        .find(|x| x.kind_name() == "function_definition")
        .map_or(unparsed, |f| f.byte_range());
    let text = &src[range.clone()];
    lexer::identifiers(text).into_iter().find_map(|r| {
        let id = std::str::from_utf8(&src[range.start + r.start..range.start + r.end]).ok()?;
        let warp = [
            "__shfl",
            "__ballot",
            "__activemask",
            "__syncwarp",
            "__match_any",
            "__match_all",
        ]
        .iter()
        .any(|p| id.starts_with(p))
            || matches!(id, "__any" | "__all" | "__any_sync" | "__all_sync");
        warp.then_some(id)
    })
}

/// Whether `file` is CUDA source (`.cu`) or a CUDA header (`.cuh`): what nvcc compiles with
/// `cuda_runtime.h` included first, whatever the file includes itself.
fn is_nvcc_source(file: &str) -> bool {
    std::path::Path::new(file)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("cu") || e.eq_ignore_ascii_case("cuh"))
}

/// Whether `file` is C source (`.c`), where call templates' C++ casts and `nullptr` do not
/// compile.
fn is_c_source(file: &str) -> bool {
    std::path::Path::new(file)
        .extension()
        .is_some_and(|e| e == "c")
}

/// A call template with its C++ casts written as C casts (`reinterpret_cast<T>(x)` ->
/// `(T)(x)`, innermost first) and `nullptr` as `NULL`.
pub fn c_casts(template: &str) -> String {
    let mut t = template.replace("nullptr", "NULL");
    loop {
        let found = ["reinterpret_cast<", "static_cast<", "const_cast<"]
            .iter()
            .filter_map(|k| t.rfind(k).map(|at| (at, k.len())))
            .max();
        let Some((at, len)) = found else { break };
        let ty_start = at + len;
        let Some(close) = t[ty_start..].find(">(").map(|i| ty_start + i) else {
            break;
        };
        let open = close + 1;
        let mut depth = 0;
        let mut end = None;
        for (i, c) in t[open..].char_indices() {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(open + i);
                        break;
                    }
                }
                _ => {}
            }
        }
        let Some(end) = end else { break };
        let ty = t[ty_start..close].trim().to_string();
        let inner = t[open + 1..end].to_string();
        t.replace_range(at..=end, &format!("({ty})({inner})"));
    }
    t
}

/// Whether the text before `at` ends with the keyword `case` (and blanks).
fn follows_case(src: &[u8], at: usize) -> bool {
    let before = src[..at].trim_ascii_end();
    before.len() < at
        && before.ends_with(b"case")
        && before[..before.len() - 4]
            .last()
            .is_none_or(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cuda_looking_names_include_library_prefixes_with_numbers() {
        for name in [
            "cudaFooBar",
            "cuFooBar",
            "curand_foo",
            "curand4",
            "curand8",
            "cufft3_Plan",
            "nvtx3",
            "cublas2X",
        ] {
            assert!(looks_like_cuda(name), "{name}");
        }
        for name in [
            "cuda11", "cuda_ok", "cu2", "cu12x", "curand", "curandom", "cufft3d", "curand2x",
            "nv12", "count4", "c4", "n",
        ] {
            assert!(!looks_like_cuda(name), "{name}");
        }
    }

    #[test]
    fn annotations_say_one_thing_once_per_line() {
        let too_new = "`__shfl_sync` exists in HIP only from 6.2.0; the target is HIP 5.2.3";
        let folded = format!("in a macro body hipport leaves `__shfl_sync` as written; as written, it does not compile: {too_new}");
        let other = "`__ballot_sync` exists in HIP only from 6.2.0; the target is HIP 5.2.3";
        let reports = [
            ("T013", folded.as_str()),
            ("T002", too_new),
            ("T002", other),
            ("T002", too_new),
            ("T002", other),
            ("H001", "a"),
        ];
        assert_eq!(
            annotation_texts(&reports),
            [
                format!("T013 {folded}"),
                format!("T002 {other} (2 times)"),
                "H001 a".to_string()
            ]
        );
    }

    #[test]
    fn arguments_shown_in_a_message_are_on_one_line() {
        assert_eq!(one_line(b" v, \\\n      (l) ^ 1 "), "v, (l) ^ 1");
        assert_eq!(one_line(b"a\\\r\n\tb"), "a b");
        // A backslash that continues no line stays.
        assert_eq!(one_line(b"'\\n'"), "'\\n'");
    }

    #[test]
    fn call_arguments_split_at_top_level_commas_not_inside_template_arguments() {
        let count = |s: &str| call_args(s.as_bytes()).map(|(args, _)| args.len());
        assert_eq!(count("(k<N, M>, attr, SHARED_MEM);"), Some(3));
        assert_eq!(count("(k<A<B, C>, D>, x)"), Some(2));
        assert_eq!(count("(ns::k<T, (N > 4)>, x)"), Some(2));
        assert_eq!(count("( \\\n   k<N>, a, b)"), Some(3));
        assert_eq!(count("(k<(N, 1)>, a, b)"), Some(3));
        // Comparisons and shifts are not template arguments.
        assert_eq!(count("(a < b, c > d)"), Some(2));
        assert_eq!(count("(x<<2, y >> 1)"), Some(2));
        assert_eq!(count("(i<n && j>0, p->q)"), Some(2));
        assert_eq!(count("(p->x<y, z)"), Some(2));
        assert_eq!(count("(1<2, 3>4)"), Some(2));
        assert_eq!(count("(\"a, b\", ',')"), Some(2));
        assert_eq!(count("()"), Some(0));
        assert_eq!(count(" ( \\\n )"), Some(0));
        assert_eq!(count("(a, b"), None);
        assert_eq!(count("x(a)"), None);
        let (args, end) = call_args(b"(k<N, M>, a) + 1").unwrap();
        assert_eq!((args, end), (vec![1..8, 9..11], 12));
    }

    #[test]
    fn a_quoted_cuda_header_name_that_finds_a_project_file_stays() {
        let tmp = tempfile::tempdir().unwrap();
        let src = "#include \"cuda.h\"\n#include \"cublas_v2.h\"\n__global__ void k() {}\n";
        let k = tmp.path().join("src/k.cu");
        std::fs::create_dir_all(k.parent().unwrap()).unwrap();
        let file = k.to_str().unwrap();
        let opts = Options::default();
        // No such file in the tree: CUDA's headers.
        let r = translate_source(src.as_bytes(), file, &opts).unwrap();
        let out = String::from_utf8(r.output).unwrap();
        assert!(
            !out.contains("\"cuda.h\"") && out.contains("hipblas"),
            "{out}"
        );
        // A `cuda.h` beside the file (darknet's): the compiler finds it; it stays, and the
        // result depends on that file.
        std::fs::write(tmp.path().join("src/cuda.h"), "#define BLOCK 512\n").unwrap();
        let r = translate_source(src.as_bytes(), file, &opts).unwrap();
        let out = String::from_utf8(r.output).unwrap();
        assert!(out.contains("#include \"cuda.h\"\n"), "{out}");
        assert!(!out.contains("cublas_v2.h") && r.read_other_files, "{out}");
        // In an include directory the build files name (`-Iinc`), where the run knows them.
        std::fs::remove_file(tmp.path().join("src/cuda.h")).unwrap();
        let opts = Options {
            include_search: Some(Arc::new(crate::includes::IncludeSearch::new(
                vec!["inc".into()],
                ["src/k.cu", "inc/cublas_v2.h"],
            ))),
            ..Options::default()
        };
        let r = translate_source_at(src.as_bytes(), file, "src/k.cu", &opts).unwrap();
        let out = String::from_utf8(r.output).unwrap();
        assert!(out.contains("#include \"cublas_v2.h\"\n"), "{out}");
        assert!(!out.contains("\"cuda.h\""), "{out}");
        // Angle brackets name the system's header.
        let r = translate_source(b"#include <cuda.h>\n", file, &Options::default()).unwrap();
        assert!(!String::from_utf8(r.output).unwrap().contains("cuda.h"));
    }
}
