//! Build files: setup.py (PyTorch `CUDAExtension`), CMake, Makefiles and Visual Studio projects
//! (`vcxproj`: what the HIP SDK's layout establishes is rewritten, the CUDA build is reported),
//! ported to hipcc (Meson builds' CUDA is reported, not converted); the
//! nvcc flags that other Python files hand to PyTorch's JIT builds; and the CUDA those files
//! hand to `load_inline` as Python strings ([`translate_inline_sources`], a pass of its own
//! that the driver runs beside [`translate_build`] on Python files).
//!
//! Each translator is a pure function from the original bytes to byte-range [`Edit`]s plus
//! [`Diagnostic`]s, like the source rewriting passes, so the project driver can apply, diff and
//! report them the same way. Only the places that are about CUDA change; everything else is kept
//! byte for byte.
//!
//! CMake output compiles HIP sources as CXX with hipcc as the C++ compiler and `hip::device` from
//! `find_package(hip)`, which works with Debian's HIP packages as well as ROCm's (CMake's own HIP
//! language needs `<rocm>/lib/cmake/hip-lang`, which Debian installs elsewhere).

mod cargo;
mod cmake;
mod cmake_sources;
mod flags;
mod inline;
mod make;
mod make_host;
mod make_rdc;
mod meson;
mod py_strings;
mod setup_py;
mod shell;
mod text;
mod vcxproj;

pub use inline::{settle_warp_sync_help, translate_inline_sources, InlineResult};

use std::collections::BTreeMap;
use std::path::Path;

use crate::diag::{DiagInfo, Diagnostic, Severity};
use crate::edit::Edit;

/// Which kind of build file a path is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BuildKind {
    /// A Python `setup.py` (PyTorch C++/CUDA extensions).
    SetupPy,
    /// `CMakeLists.txt` or a `*.cmake` script.
    CMake,
    /// A Makefile (`Makefile`, `makefile`, `GNUmakefile`, their `Makefile.linux`-style variants
    /// for `make -f`, `*.makefile`, `*.mk`, `*.mak`, `*.make`; see [`is_makefile_name`]).
    Makefile,
    /// A Visual Studio project (`*.vcxproj`) or its `*.vcxproj.filters`.
    #[serde(rename = "vcxproj")]
    VisualStudio,
    /// A Meson build (`meson.build`): its CUDA is reported, not converted.
    Meson,
    /// A shell build script (`build.sh`, `*.bash`): its command lines that run nvcc are
    /// converted as a Makefile's recipe lines are. A Windows script (`*.bat`, `*.cmd`, `*.ps1`)
    /// has those lines reported.
    Shell,
    /// Any other Python file: only its nvcc flag lists change (`extra_cuda_cflags` of
    /// `torch.utils.cpp_extension.load`/`load_inline`, `'nvcc'` lists), as in setup.py, and
    /// in a JIT build the names of renamed sources (the strings `load_inline` compiles are
    /// [`translate_inline_sources`]'s).
    Python,
}

impl BuildKind {
    /// Whether files of this kind are build files by their name (setup.py, CMake, Makefiles),
    /// rather than Python code that may hold a JIT build.
    pub fn is_build_file(self) -> bool {
        self != BuildKind::Python
    }
}

/// Classifies a path by its file name. `FILE.prehip` is the backup an `--in-place` run keeps
/// (V15-c): never a build file, or a second run would convert the backup and move the original
/// to `FILE.prehip.prehip`.
pub fn classify(path: &Path) -> Option<BuildKind> {
    let name = path.file_name()?.to_str()?;
    if name.ends_with(".prehip") {
        return None;
    }
    match name {
        "setup.py" => Some(BuildKind::SetupPy),
        "CMakeLists.txt" => Some(BuildKind::CMake),
        "Makefile" | "makefile" | "GNUmakefile" => Some(BuildKind::Makefile),
        "meson.build" => Some(BuildKind::Meson),
        _ if name.ends_with(".cmake") => Some(BuildKind::CMake),
        _ if is_vs_project(name) => Some(BuildKind::VisualStudio),
        _ if name.ends_with(".py") => Some(BuildKind::Python),
        _ if is_makefile_name(name) => Some(BuildKind::Makefile),
        _ if name.ends_with(".sh") || name.ends_with(".bash") => Some(BuildKind::Shell),
        // R44-d's rest: Windows scripts, whose nvcc lines are reported.
        _ if shell::is_windows_script(name) => Some(BuildKind::Shell),
        _ => None,
    }
}

/// Whether a file name (other than the three make reads by itself) is a Makefile by its name:
/// what projects hand to `make -f` or `include` (LAMMPS' `Makefile.linux`, which includes
/// `Nvidia.makefile`; `make.mk`, nmake's `*.mak`, `rules.make`; the `make.inc` that MAGMA's
/// and LAPACK's Makefiles include, with its `make.inc.openblas`-style templates; `make.config`).
/// Autotools' `Makefile.am` and `Makefile.in` are Makefiles too: automake copies the rules and variables it does not know
/// into `Makefile.in` as they are, and configure copies that to `Makefile` with only its
/// `@VAR@`s substituted, so their nvcc rules are make text that hipport ports the same way.
/// Editor and patch leftovers (`Makefile.orig`, `Makefile.rej`, `Makefile.bak`, `Makefile~`)
/// and documents (`Makefile.md`) are not: converting them would only add noise; nor is a name
/// with a second extension (`Makefile.inc.cu` is a source). `CMakeFiles/Makefile.cmake` is
/// CMake's and is classified as CMake before this is asked.
fn is_makefile_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    if lower.ends_with('~') {
        return false;
    }
    let variant = ["makefile.", "gnumakefile."].iter().any(|stem| {
        lower.strip_prefix(stem).is_some_and(|ext| {
            !ext.is_empty()
                && !ext.contains('.')
                && !matches!(ext, "orig" | "rej" | "bak" | "swp" | "md" | "rst" | "html")
        })
    });
    let included = lower == "make.inc" || lower == "make.config" || lower.starts_with("make.inc.");
    variant
        || included
        || [".makefile", ".mk", ".mak", ".make"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

/// Whether a file name is a Visual Studio C++ project or its filters file (any case: Windows
/// names are case-insensitive).
fn is_vs_project(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".vcxproj") || lower.ends_with(".vcxproj.filters")
}

/// The AMD targets used when nothing else is chosen: CDNA2 (MI200), CDNA3 (MI300), RDNA2
/// (Radeon PRO W6800 / RX 6800-6900) and RDNA3 (RX 7900), the GPUs ROCm lists as supported.
/// The macro with which HIP 6.2 to 6.4 declare the `_sync` warp builtins.
pub(crate) const WARP_SYNC_MACRO: &str = "HIP_ENABLE_WARP_SYNC_BUILTINS";

pub const DEFAULT_OFFLOAD_ARCH: &[&str] = &["gfx90a", "gfx942", "gfx1030", "gfx1100"];

/// [`DEFAULT_OFFLOAD_ARCH`] without the targets the HIP release `hip` cannot build: gfx942
/// (MI300) came with ROCm 6.0 (HIP 5.2.3's clang 15 rejects it: "invalid target ID"), gfx1100
/// (RDNA3) with ROCm 5.5 (HIP 5.2.3 has no device library for it).
pub fn default_offload_arch(hip: hipport_rules::Version) -> Vec<String> {
    let v = hipport_rules::Version::new;
    DEFAULT_OFFLOAD_ARCH
        .iter()
        .filter(|a| match **a {
            "gfx942" => hip >= v(6, 0, 0),
            "gfx1100" => hip >= v(5, 5, 0),
            _ => true,
        })
        .map(|s| s.to_string())
        .collect()
}

/// What the build-file translators need to know about the rest of the conversion.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// AMD GPU targets that replace NVIDIA architectures (`--offload-arch=` values).
    pub offload_arch: Vec<String>,
    /// Renamed sources: old path -> new path, both relative to the project root, with `/`.
    pub renamed: BTreeMap<String, String>,
    /// Directories the renames moved whole (`--rename torch`: `csrc/cuda` -> `csrc/hip`), old
    /// -> new, relative to the root: no file is left under the old path (see [`moved_dirs`]).
    /// Include directories in or under them follow.
    pub moved_dirs: BTreeMap<String, String>,
    /// Python modules that builds import (a `sources.py` holding a setup.py's source lists),
    /// relative to the root, each with the importing build's path: their literals naming
    /// renamed sources follow, read relative to that build's directory (see [`python_helpers`]).
    pub python_helpers: BTreeMap<String, String>,
    /// The target HIP declares the `_sync` warp builtins the translated sources keep only with
    /// `HIP_ENABLE_WARP_SYNC_BUILTINS` defined (6.2 to 6.4): CMake gives it to the HIP sources,
    /// Makefiles to hipcc, setup.py and JIT builds to their nvcc lists.
    pub warp_sync_define: bool,
    /// The target HIP release: CMake finds a library's package only where that release ships
    /// the library (hipBLASLt from 5.5).
    pub hip_version: hipport_rules::Version,
    /// The input tree's root on disk, where setup.py and JIT builds read the sources a call
    /// names: with [`Self::warp_sync_define`], a `load()`/`CUDAExtension` call whose sources (and
    /// the headers they include) use no `_sync` warp builtin gets no define. `None`: not known,
    /// and every nvcc list gets it.
    pub tree_root: Option<std::path::PathBuf>,
    /// The tree's sources include Thrust or CUB (R18-d), whose ROCm ports (rocThrust, hipCUB)
    /// build on rocPRIM, which needs C++14: nvcc's `-std=c++11` (or older) becomes
    /// `-std=c++14`. Found under [`Self::tree_root`] when that is known (see
    /// [`tree_uses_thrust`]).
    pub thrust_sources: bool,
    /// Set with [`Self::thrust_sources`] where the CUDA sources a CMake file lists include CUB
    /// and no Thrust (verify10 REG3): the file finds and links hipCUB (`hip::hipcub`), not
    /// rocThrust, which ships no CUB.
    #[doc(hidden)]
    pub cub_only: bool,
    /// Set with [`Self::thrust_sources`] where the CUDA sources a CMake file lists include CUB
    /// beside Thrust (V16-c): the file finds and links hipCUB as well as rocThrust.
    #[doc(hidden)]
    pub cub_too: bool,
    /// Set by a Makefile's translation for its own lines, empty elsewhere: the variables it
    /// sets to a path into a CUDA install, recognised by that value whatever their name
    /// (VanitySearch's `CUDA = /usr/local/cuda-8.0`, BitCrack's `CUDA_INCLUDE =
    /// ${CUDA_HOME}/include`), each with the path, the variables it is built on read as theirs
    /// (see [`flags::is_cuda_path_in`]).
    #[doc(hidden)]
    pub cuda_path_vars: BTreeMap<String, String>,
    /// R37-a/b: CUDA libraries this build file links that no source of the tree uses (see
    /// [`unused_libraries`]): a link name ROCm lacks (`cusolverMg`) or whose HIP package is
    /// optional (`cublasLt`) is dropped, with a note, where no source calls its API.
    pub unused_libraries: std::collections::BTreeSet<&'static str>,
    /// `--fix`: rewrites that change what a build does beyond its CUDA spellings (R42-b's
    /// `CUDA_HOME is not None` test that stops the build on ROCm) are made, not only reported.
    pub fix: bool,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            offload_arch: DEFAULT_OFFLOAD_ARCH.iter().map(|s| s.to_string()).collect(),
            renamed: BTreeMap::new(),
            moved_dirs: BTreeMap::new(),
            python_helpers: BTreeMap::new(),
            warp_sync_define: false,
            hip_version: crate::translate::NEWEST_HIP,
            tree_root: None,
            thrust_sources: false,
            cub_only: false,
            cub_too: false,
            cuda_path_vars: BTreeMap::new(),
            unused_libraries: Default::default(),
            fix: false,
        }
    }
}

/// Whether a source under `root` includes a Thrust or CUB header (`#include <thrust/...>`,
/// `"cub/..."`): their ROCm ports need C++14 (see [`BuildOptions::thrust_sources`]). Read once
/// per root and run; hidden directories are skipped, and at most 20000 files of at most 4 MiB
/// are read.
pub fn tree_uses_thrust(root: &Path) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashMap<std::path::PathBuf, bool>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(&found) = seen.lock().ok().and_then(|m| m.get(root).copied()).as_ref() {
        return found;
    }
    let mut budget = 20_000usize;
    let mut found = false;
    crate::tree_walk::walk_files(root, usize::MAX, |path, _, len| {
        let source = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
            matches!(
                e,
                "cu" | "cuh" | "h" | "hh" | "hpp" | "hxx" | "cpp" | "cc" | "cxx" | "c" | "inl"
            )
        });
        if !source || budget == 0 {
            return std::ops::ControlFlow::Continue(());
        }
        budget -= 1;
        found = len <= 4 << 20 && std::fs::read(path).is_ok_and(|b| includes_thrust(&b));
        if found {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    if let Ok(mut m) = seen.lock() {
        m.insert(root.to_path_buf(), found);
    }
    found
}

/// R37-a/b: CUDA link names that a port drops where no source uses the library, each with the
/// words its API begins with (`cusolverMg` for `cusolverMgCreate` and `cusolverMg.h`). These are
/// libraries ROCm has no counterpart of (hipSOLVER has no multi-GPU API, NPP, nvJPEG, cuFFTW's
/// FFTW interface, cuFile, NVML, CUPTI), cuBLASLt, whose HIP port, hipBLASLt, is a package
/// of its own that ROCm 5.5 first shipped and that not every install has, cuDNN, whose ROCm
/// counterpart MIOpen has another API, and NCCL, whose drop-in RCCL is a package of its own.
pub(crate) const DROPPABLE_LIBRARIES: &[(&str, &[&str])] = &[
    ("cusolverMg", &["cusolverMg"]),
    ("cublasLt", &["cublasLt", "CUBLASLT"]),
    ("cublasLt_static", &["cublasLt", "CUBLASLT"]),
    ("cufftw", &["cufftw", "fftw"]),
    ("nvjpeg", &["nvjpeg", "nvJpeg", "NVJPEG"]),
    ("nvjpeg_static", &["nvjpeg", "nvJpeg", "NVJPEG"]),
    ("cufile", &["cuFile", "cufile", "CU_FILE"]),
    ("cufile_rdma", &["cuFile", "cufile", "CU_FILE"]),
    ("nvml", &["nvml", "NVML"]),
    ("nvidia-ml", &["nvml", "NVML"]),
    ("cupti", &["cupti", "CUPTI"]),
    ("cupti_static", &["cupti", "CUPTI"]),
    ("nppc", &["npp", "NPP"]),
    ("nppial", &["npp", "NPP"]),
    ("nppicc", &["npp", "NPP"]),
    ("nppidei", &["npp", "NPP"]),
    ("nppif", &["npp", "NPP"]),
    ("nppig", &["npp", "NPP"]),
    ("nppim", &["npp", "NPP"]),
    ("nppist", &["npp", "NPP"]),
    ("nppisu", &["npp", "NPP"]),
    ("nppitc", &["npp", "NPP"]),
    ("npps", &["npp", "NPP"]),
    // R37-b's rest: MIOpen is no drop-in for cuDNN, and RCCL (a drop-in for NCCL) is a package
    // of its own.
    ("cudnn", &["cudnn", "CUDNN"]),
    ("nccl", &["nccl", "NCCL"]),
    ("nccl_static", &["nccl", "NCCL"]),
    // R50-e: roctx64 is roctracer's, a package not every ROCm install has.
    ("nvToolsExt", &["nvtx", "NVTX", "nvToolsExt"]),
];

/// The API words of a droppable library, given as a link name or a `CUDA::` target (see
/// [`DROPPABLE_LIBRARIES`]).
pub(crate) fn droppable(name: &str) -> Option<&'static str> {
    let name = name.strip_prefix("CUDA::").unwrap_or(name);
    // V21-c: cuDNN 8/9's split libraries are cuDNN's.
    let name = if flags::cudnn_part(name) {
        "cudnn"
    } else {
        name
    };
    DROPPABLE_LIBRARIES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(n, _)| *n)
}

/// Whether build file `src` names a library the port may drop (see [`unused_libraries`]): its
/// translation then depends on the tree's sources.
pub fn may_drop_libraries(src: &[u8]) -> bool {
    DROPPABLE_LIBRARIES
        .iter()
        .any(|(n, _)| memchr::memmem::find(src, n.as_bytes()).is_some())
}

/// R37-a/b: the libraries of [`DROPPABLE_LIBRARIES`] that build file `src` names and that no
/// source under `root` uses: no word of their API starts an identifier, a header name or a
/// macro in any C, C++ or CUDA source. Read once per root and run, with the budget of
/// [`tree_uses_thrust`].
pub fn unused_libraries(src: &[u8], root: &Path) -> std::collections::BTreeSet<&'static str> {
    use std::collections::{BTreeSet, HashMap};
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashMap<std::path::PathBuf, BTreeSet<&'static str>>>> =
        OnceLock::new();
    let named: Vec<&(&str, &[&str])> = DROPPABLE_LIBRARIES
        .iter()
        .filter(|(n, _)| memchr::memmem::find(src, n.as_bytes()).is_some())
        .collect();
    if named.is_empty() {
        return BTreeSet::new();
    }
    let seen = SEEN.get_or_init(Default::default);
    let cached = seen.lock().ok().and_then(|m| m.get(root).cloned());
    let used = cached.unwrap_or_else(|| {
        let words: BTreeSet<&'static str> = DROPPABLE_LIBRARIES
            .iter()
            .flat_map(|(_, w)| w.iter().copied())
            .collect();
        let mut used = BTreeSet::new();
        let mut budget = 20_000usize;
        crate::tree_walk::walk_files(root, usize::MAX, |path, _, len| {
            let source = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                matches!(
                    e,
                    "cu" | "cuh"
                        | "h"
                        | "hh"
                        | "hpp"
                        | "hxx"
                        | "cpp"
                        | "cc"
                        | "cxx"
                        | "c"
                        | "inl"
                        | "hip"
                )
            });
            if !source || budget == 0 || len > 4 << 20 {
                return std::ops::ControlFlow::Continue(());
            }
            budget -= 1;
            if let Ok(text) = std::fs::read(path) {
                for w in &words {
                    if !used.contains(w) && starts_a_word(&text, w.as_bytes()) {
                        used.insert(*w);
                    }
                }
            }
            std::ops::ControlFlow::Continue(())
        });
        // Out of budget: what was not read may use anything.
        if budget == 0 {
            used = words;
        }
        if let Ok(mut m) = seen.lock() {
            m.insert(root.to_path_buf(), used.clone());
        }
        used
    });
    named
        .into_iter()
        .filter(|(_, w)| !w.iter().any(|w| used.contains(w)))
        .map(|(n, _)| *n)
        .collect()
}

/// Whether `word` occurs in `text` where no identifier character comes just before it.
fn starts_a_word(text: &[u8], word: &[u8]) -> bool {
    memchr::memmem::find_iter(text, word)
        .any(|at| at == 0 || !(text[at - 1].is_ascii_alphanumeric() || text[at - 1] == b'_'))
}

/// Whether CMake file `src` may list CUDA sources that [`cmake_sources::use_thrust`] reads: it
/// makes targets of `.cu` files and may get rocThrust (see [`thrust_note_candidate`]).
fn cmake_lists_cuda_sources(src: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(src, w).is_some();
    has(b".cu") && (has(b"add_executable") || has(b"add_library")) && thrust_note_candidate(src)
}

/// Whether a source's text includes a Thrust or CUB header.
fn includes_thrust(text: &[u8]) -> bool {
    let (thrust, cub) = thrust_and_cub(text);
    thrust || cub
}

/// Whether a source's text includes a Thrust header, and whether it includes a CUB header.
fn thrust_and_cub(text: &[u8]) -> (bool, bool) {
    let (mut thrust, mut cub) = (false, false);
    for at in memchr::memmem::find_iter(text, b"include") {
        let rest = &text[at + b"include".len()..];
        let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        let path = line.trim_ascii_start();
        thrust |= path.starts_with(b"<thrust/") || path.starts_with(b"\"thrust/");
        cub |= path.starts_with(b"<cub/") || path.starts_with(b"\"cub/");
    }
    (thrust, cub)
}

/// Whether the translation of build file `src` reads the tree for Thrust or CUB (see
/// [`tree_uses_thrust`]), so that its result depends on files other than `src`: it may name a
/// C++ standard older than C++14 (`-std=c++11`, `CMAKE_CXX_STANDARD 11`, `cxx_std_11`), which
/// such a tree raises; such a file that builds CUDA also gets the rocThrust note (R21-f, see
/// [`thrust_note_candidate`]). Other build files do not read the tree for the note alone: a
/// re-run would then read every source of a tree without Thrust (up to the scan's budget)
/// where it now reads none. A CMake file that lists `.cu` sources reads those alone (R21-f,
/// see [`cmake_sources::use_thrust`]): its result depends on them too. So does a Makefile's
/// whose recipes run a host compiler: it reads the sources they compile for CUDA headers
/// (R30-a, see [`make_host::may_read_host_sources`]). So does a CMake file's that may get the
/// HIP block: for HIP before 6.0 it reads the project's other CMake files for a C++ standard
/// (verify13 REG-1, see [`cmake::may_read_project_standard`]). So does a CMake file's that
/// adds subdirectories and names architecture flags: it reads their CMake files for the
/// readers of its variables (R50-g, see [`cmake::may_read_arch_readers`]).
pub fn may_name_old_standard(src: &[u8]) -> bool {
    names_old_standard(src)
        || cmake_lists_cuda_sources(src)
        || make_host::may_read_host_sources(src)
        || cmake::may_read_project_standard(src)
        || cmake::may_read_included_helpers(src)
        || cmake::may_read_arch_readers(src)
}

/// Whether a CMake file or Makefile may get the note that Thrust and CUB are ROCm packages of
/// their own (R21-f): it builds CUDA (`nvcc` in a Makefile, `CUDA` in a CMake file) and names
/// neither rocThrust, hipCUB nor NVIDIA's CCCL (whose targets become theirs).
pub(super) fn thrust_note_candidate(src: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(src, w).is_some();
    (has(b"nvcc") || has(b"CUDA"))
        && ![&b"rocthrust"[..], b"hipcub", b"CCCL", b"rocprim"]
            .iter()
            .any(|w| has(w))
}

/// R21-f: the note on a CMakeLists.txt or a Makefile that builds CUDA, in a tree whose sources
/// include Thrust or CUB. CUDA ships both; ROCm's ports, rocThrust and hipCUB, are packages of
/// their own on rocPRIM (rocThrust's "How to use rocThrust in a CMake project": rocprim and
/// rocthrust packages, `roc::rocthrust`; hipCUB's `hip::hipcub`), header-only, installed under
/// ROCm's include directory, which hipcc reads (Debian: librocthrust-dev and libhipcub-dev, both
/// depending on librocprim-dev, packages.debian.org).
/// `cub_only`: the CMake file's CUDA sources include CUB and no Thrust, and it links hipCUB
/// (verify10 REG3), which the help then names.
/// `cub_too`: they include CUB beside Thrust (V16-c), and it links both.
fn thrust_note(
    kind: BuildKind,
    s: &str,
    file: &str,
    sink: &mut text::Sink,
    cub_only: bool,
    cub_too: bool,
) {
    let cmake_lists = file.rsplit('/').next() == Some("CMakeLists.txt");
    let word = match kind {
        BuildKind::CMake if cmake_lists => "CUDA",
        BuildKind::Makefile => "nvcc",
        _ => return,
    };
    if !thrust_note_candidate(s.as_bytes()) {
        return;
    }
    // The first line that names CUDA outside a comment.
    let mut start = 0;
    let mut at = None;
    for line in s.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        if let Some(k) = code.find(word) {
            at = Some(start + k);
            break;
        }
        start += line.len();
    }
    let Some(at) = at else {
        return;
    };
    let help = match kind {
        BuildKind::CMake if cub_only => "install hipCUB and rocPRIM (ROCm's hipcub and rocprim packages; Debian's libhipcub-dev); where this file compiles device code hipport finds and links hipCUB (`find_package(hipcub REQUIRED)`, `hip::hipcub`)",
        BuildKind::CMake if cub_too => "install rocThrust, hipCUB and rocPRIM (ROCm's rocthrust, hipcub and rocprim packages; Debian's librocthrust-dev, libhipcub-dev); where this file compiles device code hipport finds and links both, rocThrust for Thrust and hipCUB for CUB (`find_package(rocthrust REQUIRED)`, `find_package(hipcub REQUIRED)`, `roc::rocthrust hip::hipcub`)",
        BuildKind::CMake => "install rocThrust, hipCUB and rocPRIM (ROCm's rocthrust, hipcub and rocprim packages; Debian's librocthrust-dev, libhipcub-dev); where this file compiles device code hipport finds and links rocThrust (`find_package(rocthrust REQUIRED)`, `roc::rocthrust`): CUB needs `find_package(hipcub REQUIRED CONFIG)` and `hip::hipcub` too",
        _ => "install rocThrust, hipCUB and rocPRIM (ROCm's rocthrust, hipcub and rocprim packages; Debian's librocthrust-dev, libhipcub-dev): they are headers under ROCm's include directory, which hipcc reads (`-I$(ROCM_PATH)/include` where ROCm is elsewhere), and need no library to link",
    };
    sink.diag(
        B_LIB_MAPPED,
        at,
        "the sources include Thrust or CUB, which come with CUDA: on ROCm they are rocThrust and hipCUB, packages of their own (on rocPRIM)".into(),
        Some(help.into()),
    );
}

/// Whether build file `src` may name a C++ standard older than C++14 (`-std=c++11`,
/// `CMAKE_CXX_STANDARD 11`, `cxx_std_11`), which a tree using Thrust or CUB raises: only then is
/// the tree read for them for that.
fn names_old_standard(src: &[u8]) -> bool {
    let flags = [
        &b"++11"[..],
        b"++03",
        b"++98",
        b"++0x",
        b"std_11",
        b"std_98",
        b"std_03",
    ]
    .iter()
    .any(|w| memchr::memmem::find(src, w).is_some());
    // `CMAKE_CXX_STANDARD 11`, `CUDA_STANDARD "98"`: the value after the name.
    flags
        || memchr::memmem::find_iter(src, b"STANDARD").any(|at| {
            let rest = &src[at + b"STANDARD".len()..];
            let value = rest.trim_ascii_start();
            let value = value.strip_prefix(b"\"").unwrap_or(value);
            value.len() < rest.len()
                && [&b"11"[..], b"98", b"03"]
                    .iter()
                    .any(|v| value.starts_with(v))
        })
}

/// Translates one build file. `file` is its path relative to the project root (with `/`); it is
/// used to resolve renamed sources and to label diagnostics.
/// The B017 warning for a Cargo build script that compiles CUDA (see [`cargo`]).
pub fn cargo_build_script(
    file: &str,
    src: &[u8],
    shown: &str,
    offload_arch: &[String],
) -> Vec<Diagnostic> {
    if !cargo::is_build_script(file) {
        return Vec::new();
    }
    cargo::build_script_diags(src, shown, offload_arch)
}

pub fn translate_build(
    kind: BuildKind,
    src: &[u8],
    file: &str,
    opts: &BuildOptions,
) -> (Vec<Edit>, Vec<Diagnostic>) {
    let mut sink = text::Sink::new(src, file);
    // Where the tree is known, whether its sources use Thrust or CUB (R18-d).
    let with_thrust;
    // The tree is read only for a file that may name an old standard.
    let opts = if !opts.thrust_sources
        && names_old_standard(src)
        && opts.tree_root.as_deref().is_some_and(tree_uses_thrust)
    {
        with_thrust = BuildOptions {
            thrust_sources: true,
            ..opts.clone()
        };
        &with_thrust
    } else if let Some((thrust, cub)) =
        (kind == BuildKind::CMake && !opts.thrust_sources && cmake_lists_cuda_sources(src))
            .then(|| {
                opts.tree_root.as_deref().map_or((false, false), |root| {
                    std::str::from_utf8(src)
                        .map_or((false, false), |s| cmake_sources::use_thrust(s, file, root))
                })
            })
            .filter(|&(t, c)| t || c)
    {
        // The sources this file lists include Thrust (R21-f): rocThrust is found and linked,
        // and needs C++14 as in R18-d; CUB alone, hipCUB (verify10 REG3).
        with_thrust = BuildOptions {
            thrust_sources: true,
            cub_only: cub && !thrust,
            cub_too: cub && thrust,
            ..opts.clone()
        };
        &with_thrust
    } else {
        opts
    };
    // R37-a/b: libraries named here that no source of the tree uses.
    let with_unused;
    let opts = match opts.tree_root.as_deref() {
        Some(root) if opts.unused_libraries.is_empty() && may_drop_libraries(src) => {
            with_unused = BuildOptions {
                unused_libraries: unused_libraries(src, root),
                ..opts.clone()
            };
            &with_unused
        }
        _ => opts,
    };
    // R40-1: a Makefile or CMake file gives hipcc the warp-sync define only where a source of
    // the tree keeps a `_sync` warp builtin (which sources such a file compiles is not read, so
    // the tree decides, as for a setup.py whose sources hipport cannot resolve; a tree too big
    // to read keeps the define).
    let without_warp;
    let opts = if opts.warp_sync_define
        && matches!(
            kind,
            BuildKind::CMake | BuildKind::Makefile | BuildKind::Shell
        )
        && opts
            .tree_root
            .as_deref()
            .is_some_and(|root| setup_py::tree_warp_source(root) == Some(None))
    {
        without_warp = BuildOptions {
            warp_sync_define: false,
            ..opts.clone()
        };
        &without_warp
    } else {
        opts
    };
    // Most Python files build nothing: only those that name nvcc flags are read, and those that
    // build an extension or that a build imports where they name `CUDA_HOME` or, under renames,
    // at all (their source lists follow the renames).
    let helper_of = opts.python_helpers.get(file);
    let builds = helper_of.is_some() || reads_include_dirs(kind, src);
    // A build that names `CUDA_HOME` is read for it too (None on ROCm PyTorch).
    let names_cuda_home = memchr::memmem::find(src, b"CUDA_HOME").is_some();
    if kind == BuildKind::Python
        && !setup_py::may_hold_nvcc_flags(src)
        && !(builds && (names_cuda_home || !opts.renamed.is_empty() || opts.warp_sync_define))
    {
        return sink.finish();
    }
    let s = String::from_utf8_lossy(src);
    // Offsets only line up with the bytes when the text is valid UTF-8; a lossy copy of invalid
    // input has different lengths, so such files get a diagnostic and no edits.
    if s.len() != src.len() {
        sink.diag(
            B_CONSTRUCT,
            0,
            "build file is not valid UTF-8; it was left unchanged".to_string(),
            None,
        );
        return sink.finish();
    }
    if matches!(kind, BuildKind::SetupPy | BuildKind::Python) {
        // R49-b: setup.py's functions used only there too (a JIT helper file's functions may
        // be imported elsewhere).
        let parts = crate::analysis::cuda_only_spans(src, kind == BuildKind::SetupPy);
        sink.leave_cuda_only(parts.into_iter().map(|p| (p.range, p.decided_at, p.helper)));
    }
    match kind {
        BuildKind::SetupPy => {
            setup_py::translate(&s, &mut sink, opts, setup_py::Scope::Setup, true, file)
        }
        BuildKind::Python => {
            let base = helper_of.map_or(file, String::as_str);
            setup_py::translate(&s, &mut sink, opts, setup_py::Scope::Jit, builds, base)
        }
        BuildKind::CMake => cmake::translate(&s, &mut sink, opts),
        BuildKind::Makefile => make::translate(&s, &mut sink, opts),
        BuildKind::VisualStudio => {
            let filters = file.to_ascii_lowercase().ends_with(".filters");
            vcxproj::translate(&s, &mut sink, opts, filters)
        }
        BuildKind::Meson => meson::translate(&s, &mut sink, opts),
        BuildKind::Shell => shell::translate(&s, &mut sink, opts),
    }
    hiptensor_archs(&s, &mut sink, opts);
    if opts.thrust_sources {
        thrust_note(kind, &s, file, &mut sink, opts.cub_only, opts.cub_too);
    }
    if !opts.moved_dirs.is_empty() && builds {
        moved_include_dirs(kind, &s, &mut sink, opts);
    }
    sink.finish()
}

/// Whether hipTensor builds for `arch`: AMD's CDNA GPUs alone (gfx908, gfx90a, gfx94x, gfx950).
fn hiptensor_supports(arch: &str) -> bool {
    matches!(arch, "gfx908" | "gfx90a" | "gfx950") || arch.starts_with("gfx94")
}

/// R46-a(a): a build that links hipTensor (cuTENSOR's port, or hipTensor named already) for a GPU
/// hipTensor does not support (an RDNA gfx10/gfx11 Radeon, from --offload-arch or the file's own
/// arch flags and GPU_TARGETS/CMAKE_HIP_ARCHITECTURES) gets one warning, at the library's first
/// mention, naming those GPUs.
fn hiptensor_archs(s: &str, sink: &mut text::Sink, opts: &BuildOptions) {
    let lower = s.to_ascii_lowercase();
    let at = ["cutensor", "hiptensor"]
        .iter()
        .filter_map(|n| lower.find(n))
        .min();
    let Some(at) = at else {
        return;
    };
    if !sink.writes("hiptensor") && !lower.contains("hiptensor") {
        return;
    }
    let mut archs: Vec<String> = opts.offload_arch.clone();
    archs.extend(offload_archs(s.as_bytes()));
    archs.sort();
    archs.dedup();
    let unsupported: Vec<&str> = archs
        .iter()
        .map(String::as_str)
        .filter(|a| a.starts_with("gfx") && !hiptensor_supports(a))
        .collect();
    if unsupported.is_empty() {
        return;
    }
    sink.diag_as(
        B_LIB_MAPPED,
        crate::diag::Severity::Warning,
        at,
        format!(
            "hipTensor (cuTENSOR's port) is built for AMD's CDNA GPUs (gfx908, gfx90a, gfx94x, gfx950) through ROCm 7.0, not for {} that this build targets",
            unsupported.join(", ")
        ),
        Some(if unsupported.iter().all(|a| a.starts_with("gfx11") || a.starts_with("gfx12")) {
            "hipTensor's development documentation adds RDNA3/RDNA4 (gfx11, gfx12): check that the hipTensor you build against lists these GPUs, or drop them from the build of the code that calls hipTensor".into()
        } else {
            "drop those targets from the build of the code that calls hipTensor, or keep that code off them (no hipTensor release is built for RDNA2 or older Radeon GPUs; only its development documentation adds RDNA3/RDNA4)".into()
        }),
    );
}

/// Whether include directories are read from a file of this kind: build files, and Python files
/// that build an extension.
fn reads_include_dirs(kind: BuildKind, src: &[u8]) -> bool {
    kind != BuildKind::Python || setup_py::builds_extension(src)
}

/// Calls `add` with each include directory a build file names, as written, with its offset in
/// `s` where it is written whole, and what it is relative to.
fn each_include_dir(kind: BuildKind, s: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    match kind {
        BuildKind::SetupPy | BuildKind::Python => setup_py::include_dirs(s, add),
        BuildKind::CMake => cmake::include_dirs(s, add),
        BuildKind::Makefile => make::include_dirs(s, add),
        BuildKind::VisualStudio => vcxproj::include_dirs(s, add),
        BuildKind::Meson | BuildKind::Shell => {}
    }
}

/// Include directories in directories that moved whole take their new names, the same way in
/// every kind of build file, and so do the directories a build enters (`add_subdirectory`,
/// `make -C`): the kind's reader finds them, [`text::moved_dir_path`] rewrites them.
/// A path some other rewrite already changed (a joined path's `cuda` part) is left to it.
fn moved_include_dirs(kind: BuildKind, s: &str, sink: &mut text::Sink, opts: &BuildOptions) {
    let file = sink.file().to_string();
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    let mut follow = |path: &str, at: Option<usize>, anchor: Anchor| {
        let Some(at) = at else { return };
        if resolve_dir(&file, path, anchor).is_none() {
            return;
        }
        let base = match anchor {
            Anchor::File => text::dir_of(&file),
            Anchor::Root => "",
        };
        if let Some(new) = text::moved_dir_path(base, path, &opts.moved_dirs) {
            edits.push((at, at + path.len(), new));
        }
    };
    each_include_dir(kind, s, &mut follow);
    // The directories the build enters (`add_subdirectory(cuda)`, `$(MAKE) -C cuda`) follow too.
    match kind {
        BuildKind::CMake => cmake::subdirectories(s, &mut follow),
        BuildKind::Makefile => make::entered_dirs(s, &mut follow),
        _ => {}
    }
    for (start, end, new) in edits {
        sink.edit(start, end, new, B_GLOB.id);
    }
}

/// Whether a setup.py builds a PyTorch extension with `torch.utils.cpp_extension` (whose ROCm
/// build passes `-DUSE_ROCM=1` to hipcc): its code, not its comments or strings, imports it and
/// uses `CUDAExtension`, `CppExtension`, `BuildExtension`, `load` or `load_inline`.
pub fn builds_with_torch(src: &[u8]) -> bool {
    setup_py::builds_with_cpp_extension(&String::from_utf8_lossy(src))
}

/// The PyTorch build script in `dir` (see [`builds_with_torch`]): `setup.py`, else the first by
/// name of the other `setup*.py` scripts that build with `torch.utils.cpp_extension`
/// (GPTQ-for-LLaMa's `setup_cuda.py`, R33-c), which hipport ports as it ports setup.py.
pub fn torch_build_file(dir: &Path) -> Option<std::path::PathBuf> {
    let builds = |p: &Path| std::fs::read(p).is_ok_and(|t| builds_with_torch(&t));
    let setup = dir.join("setup.py");
    if builds(&setup) {
        return Some(setup);
    }
    let mut others: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
        .ok()?
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("setup") && n.ends_with(".py") && n != "setup.py")
        })
        .collect();
    others.sort();
    others.into_iter().find(|p| p.is_file() && builds(p))
}

/// The directories a setup.py (`file`, relative to the root) names as Python packages in
/// `packages=[...]`, relative to the root: `--rename torch` keeps their names, since Python
/// imports them by name.
pub fn python_package_dirs(src: &[u8], file: &str) -> Vec<String> {
    let dir = text::dir_of(file);
    setup_py::package_dirs(&String::from_utf8_lossy(src))
        .into_iter()
        .map(|p| {
            if dir.is_empty() {
                p
            } else {
                format!("{dir}/{p}")
            }
        })
        .collect()
}

/// The Python modules that builds import, each with the path of the build that imports it
/// (directly or through other such modules): the modules a setup.py or a file using
/// `cpp_extension` imports, found among `py_files` (the tree's `.py` files, relative to the
/// root) as Python finds them, absolute imports from the build's directory (the script's, first
/// on `sys.path`), relative ones from the importing file's. `read` gives a file's bytes; a file
/// it cannot give imports nothing. Other Python files are not read for sources.
pub fn python_helpers(
    py_files: &[&str],
    read: &mut dyn FnMut(&str) -> Option<Vec<u8>>,
) -> BTreeMap<String, String> {
    let known: std::collections::HashSet<&str> = py_files.iter().copied().collect();
    let mut builds: Vec<(String, String)> = Vec::new();
    for f in py_files {
        let kind = classify(Path::new(f));
        let Some(src) = read(f) else { continue };
        if kind == Some(BuildKind::SetupPy) || setup_py::builds_extension(&src) {
            builds.push((f.to_string(), f.to_string()));
        }
    }
    let is_build: std::collections::HashSet<String> = builds.iter().map(|b| b.0.clone()).collect();
    let mut helpers: BTreeMap<String, String> = BTreeMap::new();
    let mut pending = builds;
    while let Some((file, build)) = pending.pop() {
        let Some(src) = read(&file) else { continue };
        let Ok(s) = std::str::from_utf8(&src) else {
            continue;
        };
        for imp in setup_py::imports(s) {
            let mut dir = if imp.level == 0 {
                text::dir_of(&build).to_string()
            } else {
                text::dir_of(&file).to_string()
            };
            for _ in 1..imp.level.max(1) {
                dir = text::dir_of(&dir).to_string();
            }
            let mut module = dir;
            for part in &imp.module {
                module = if module.is_empty() {
                    part.clone()
                } else {
                    format!("{module}/{part}")
                };
            }
            let mut candidates = Vec::new();
            if !imp.module.is_empty() {
                candidates.push(format!("{module}.py"));
                candidates.push(format!("{module}/__init__.py"));
            }
            candidates.extend(imp.names.iter().map(|n| format!("{module}/{n}.py")));
            for c in candidates {
                let c = c.trim_start_matches('/').to_string();
                if known.contains(c.as_str()) && !is_build.contains(&c) && !helpers.contains_key(&c)
                {
                    helpers.insert(c.clone(), build.clone());
                    pending.push((c, build.clone()));
                }
            }
        }
    }
    helpers
}

/// The directories that `renamed` (old -> new, relative to the root) moved whole, old -> new:
/// every file under the old path went to the same new one, and none of `remaining` (every path
/// of the tree after the renames, relative to the root) lies under it.
pub fn moved_dirs<'a>(
    renamed: &BTreeMap<String, String>,
    remaining: impl IntoIterator<Item = &'a str>,
) -> BTreeMap<String, String> {
    let mut moved: BTreeMap<String, String> =
        text::dir_renames_from("", renamed).into_iter().collect();
    if moved.is_empty() {
        return moved;
    }
    for path in remaining {
        let mut dir = text::dir_of(path);
        while !dir.is_empty() {
            moved.remove(dir);
            dir = text::dir_of(dir);
        }
    }
    moved
}

/// The directories a build file names as include paths, relative to the project root (`/`
/// separated, `""` for the root), in the order written: setup.py's and JIT builds' `include_dirs`
/// / `extra_include_paths` lists and `-I` flags, CMake's `include_directories` and
/// `target_include_directories`, a Makefile's `-I` flags. `file` is the build file's path relative
/// to the root; a path is taken relative to its directory (behind `${CMAKE_CURRENT_SOURCE_DIR}/`,
/// `$(CURDIR)/` or `os.path.join(here, ...)` too). Paths hipport cannot resolve (absolute ones,
/// those behind other variables, those leaving the root) are left out.
pub fn include_dirs(kind: BuildKind, src: &[u8], file: &str) -> Vec<String> {
    if !reads_include_dirs(kind, src) {
        return Vec::new();
    }
    let Ok(s) = std::str::from_utf8(src) else {
        return Vec::new();
    };
    let mut out: Vec<String> = Vec::new();
    each_include_dir(kind, s, &mut |path, _, anchor| {
        if let Some(d) = resolve_dir(file, path, anchor) {
            if !out.contains(&d) {
                out.push(d);
            }
        }
    });
    out
}

/// What a path a build file names is relative to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Anchor {
    /// The build file's directory.
    File,
    /// The project root (`${PROJECT_SOURCE_DIR}`, `${CMAKE_SOURCE_DIR}`).
    Root,
}

/// `path` as a directory relative to the project root, or `None` when it cannot be resolved.
fn resolve_dir(file: &str, path: &str, anchor: Anchor) -> Option<String> {
    let path = path.trim();
    if path.starts_with('/') || path.contains(['$', '{', '}', '*', '\\']) || path.contains(':') {
        return None;
    }
    let base = match anchor {
        Anchor::File => text::dir_of(file),
        Anchor::Root => "",
    };
    crate::includes::normalize_rel(&format!("{base}/{path}"))
}

/// AMD targets a (translated) build file compiles for: `--offload-arch=` values, `GPU_TARGETS`,
/// `AMDGPU_TARGETS`, `CMAKE_HIP_ARCHITECTURES` / `HIP_ARCHITECTURES` and `PYTORCH_ROCM_ARCH`
/// settings. Sorted, without duplicates.
pub fn offload_archs(src: &[u8]) -> Vec<String> {
    let s = String::from_utf8_lossy(src);
    let mut out = std::collections::BTreeSet::new();
    let bytes = s.as_bytes();
    let take_gfx = |from: usize,
                    out: &mut std::collections::BTreeSet<String>,
                    stop_at_line: bool| {
        // Collect gfx names until the end of the statement (line or closing parenthesis).
        let mut i = from;
        while i < bytes.len() {
            let c = bytes[i];
            if c == b')' || (stop_at_line && c == b'\n') {
                break;
            }
            if s[i..].starts_with("gfx") {
                let end = s[i..]
                    .find(|c: char| !c.is_ascii_alphanumeric() && c != ':' && c != '+' && c != '-')
                    .map_or(s.len(), |e| i + e);
                let name = s[i..end]
                    .split(':')
                    .next()
                    .unwrap_or("")
                    .trim_end_matches(['+', '-']);
                if name.len() > 3 {
                    out.insert(name.to_string());
                }
                i = end;
                continue;
            }
            i += 1;
        }
    };
    for key in ["--offload-arch=", "--amdgpu-target="] {
        for (pos, _) in s.match_indices(key) {
            let start = pos + key.len();
            let end = s[start..]
                .find(|c: char| {
                    c.is_whitespace() || c == '"' || c == '\'' || c == ')' || c == ',' || c == '>'
                })
                .map_or(s.len(), |e| start + e);
            for a in s[start..end].split([',', ';']) {
                let a = a.split(':').next().unwrap_or("");
                if a.starts_with("gfx") {
                    out.insert(a.to_string());
                }
            }
        }
    }
    for key in [
        "GPU_TARGETS",
        "AMDGPU_TARGETS",
        "HIP_ARCHITECTURES",
        "PYTORCH_ROCM_ARCH",
        "OFFLOAD_ARCH",
    ] {
        for (pos, _) in s.match_indices(key) {
            take_gfx(pos + key.len(), &mut out, true);
        }
    }
    out.into_iter().collect()
}

/// nvcc flag rewritten to its hipcc spelling.
pub(crate) static B_FLAG_MAPPED: &DiagInfo = &DIAGS[0];
/// nvcc flag with no hipcc counterpart, removed.
pub(crate) static B_FLAG_DROPPED: &DiagInfo = &DIAGS[1];
/// nvcc-only flag left in place.
pub(crate) static B_FLAG_UNMAPPED: &DiagInfo = &DIAGS[2];
/// CUDA library replaced by its HIP counterpart.
pub(crate) static B_LIB_MAPPED: &DiagInfo = &DIAGS[3];
/// CUDA library without a HIP counterpart.
pub(crate) static B_LIB_UNMAPPED: &DiagInfo = &DIAGS[4];
/// Path into a CUDA installation.
pub(crate) static B_PATH: &DiagInfo = &DIAGS[5];
/// CUDA language in CMake replaced.
pub(crate) static B_LANGUAGE: &DiagInfo = &DIAGS[6];
/// CUDA-specific construct that was not translated.
pub(crate) static B_CONSTRUCT: &DiagInfo = &DIAGS[7];
/// NVIDIA architectures replaced by AMD targets.
pub(crate) static B_ARCH: &DiagInfo = &DIAGS[8];
/// A pattern over CUDA source names.
pub(crate) static B_GLOB: &DiagInfo = &DIAGS[9];
/// PyTorch's CUDAExtension kept.
pub(crate) static B_TORCH: &DiagInfo = &DIAGS[10];
/// nvcc replaced by hipcc.
pub(crate) static B_COMPILER: &DiagInfo = &DIAGS[11];
/// CUDA separable compilation replaced by `-fgpu-rdc`.
pub(crate) static B_RDC: &DiagInfo = &DIAGS[12];
/// Part of the CUDA in `load_inline`'s Python strings that hipport does not translate.
pub(crate) static B_INLINE: &DiagInfo = &DIAGS[13];
/// A Visual Studio project's CUDA build setting, reported with its HIP replacement.
pub(crate) static B_VS: &DiagInfo = &DIAGS[14];
/// Python build code that runs only on CUDA PyTorch, left as it is.
pub(crate) static B_CUDA_ONLY: &DiagInfo = &DIAGS[15];
/// A Cargo build script that compiles CUDA, copied as it is.
pub(crate) static B_CARGO: &DiagInfo = &DIAGS[16];

/// Diagnostics of the build-file translators.
pub const DIAGS: &[DiagInfo] = &[
    DiagInfo {
        id: "B001",
        name: "nvcc-flag-mapped",
        severity: Severity::Note,
        summary: "nvcc flag rewritten to its hipcc spelling",
        explain: "hipcc drives clang, which spells several nvcc options differently: --use_fast_math is\n\
                  -ffast-math, -rdc=true is -fgpu-rdc, -Xcompiler X passes X straight through, --ftz=true is\n\
                  -fgpu-flush-denormals-to-zero, --default-stream per-thread is -fgpu-default-stream=per-thread.\n\
                  hipport rewrites these in place. -ffast-math is broader than nvcc's --use_fast_math: it also\n\
                  assumes there are no NaNs or infinities.",
    },
    DiagInfo {
        id: "B002",
        name: "nvcc-flag-dropped",
        severity: Severity::Note,
        summary: "nvcc flag with no hipcc counterpart removed",
        explain: "Some nvcc options exist only because of NVIDIA's toolchain: -lineinfo, -Xptxas (ptxas is\n\
                  NVIDIA's assembler), --expt-relaxed-constexpr and --expt-extended-lambda (HIP-Clang allows\n\
                  both by default), -ccbin, -maxrregcount, and the fatbinary and build-speed options of\n\
                  recent CUDA releases (-Xfatbin, --compress-mode, --split-compile,\n\
                  -static-global-template-stub, --allow-unsupported-compiler, nvcc's parallel\n\
                  compilation --threads N). hipcc rejects them, so hipport removes them.\n\
                  -maxrregcount changes occupancy: use __launch_bounds__ on the kernel to limit registers.",
    },
    DiagInfo {
        id: "B003",
        name: "nvcc-flag-unmapped",
        severity: Severity::Error,
        summary: "nvcc-only flag left in place",
        explain: "The flag is nvcc's and hipcc does not accept it, but hipport has no safe rewrite for it\n\
                  (for example -ptx or -cubin, which ask for NVIDIA code objects). Replace or remove it by\n\
                  hand; the build fails until you do. A -U or -D of one of CUDA's fp16/bf16 switches that\n\
                  HIP's headers have no counterpart of (__CUDA_NO_BFLOAT16_CONVERSIONS__ and the other\n\
                  bfloat16 ones, -D__CUDA_NO_HALF2_OPERATORS__) also stays: hipcc accepts it, but it switches\n\
                  nothing, so the finding is a note for -U and a warning for -D. Those HIP has are renamed\n\
                  (B001): -U__CUDA_NO_HALF_OPERATORS__ becomes -U__HIP_NO_HALF_OPERATORS__, which ROCm\n\
                  PyTorch defines for every extension.",
    },
    DiagInfo {
        id: "B004",
        name: "cuda-library-mapped",
        severity: Severity::Note,
        summary: "CUDA library replaced by its HIP counterpart",
        explain: "CUDA math libraries have HIP wrappers with the same shape: cublas -> hipblas, curand ->\n\
                  hiprand, cufft -> hipfft, cusparse -> hipsparse, cusolver -> hipsolver, nccl -> rccl (a\n\
                  drop-in: CMake's find_package(NCCL) becomes find_package(rccl) and ${NCCL_LIBRARIES}\n\
                  rccl::rccl), nvToolsExt -> roctx64, cutensor -> hiptensor (hipTensor, ROCm 5.7 and later;\n\
                  an older --hip-version keeps the name with B005, as for cublasLt before 5.5). cudnn -> MIOpen is a warning: MIOpen's API differs\n\
                  from cuDNN's, so the code that calls cuDNN needs a port by hand. A library no source of\n\
                  the tree uses that ROCm lacks or ships as a package of its own (cuBLASLt, cuDNN, NCCL,\n\
                  NPP, nvJPEG, ...) is dropped with a note: a link name, a CUDA:: target, a FindCUDA\n\
                  variable such as ${CUDA_cublasLt_LIBRARY}, a Makefile -l flag, setup.py's libraries=\n\
                  (and find_package(NCCL) with NCCL), a CMake find_library(VAR cudnn) whose every name is\n\
                  such a library (NAMES, file names such as libcudnn.so, PATHS/HINTS in any order), with\n\
                  the links of ${VAR} and the `message(FATAL_ERROR)` of a guard that would now always\n\
                  stop the configure step (`if(NOT VAR)`). cudart is dropped because hipcc links the HIP\n\
                  runtime (libamdhip64) itself; where a Makefile links with the host compiler instead\n\
                  ($(CXX), g++), -lcudart becomes -lamdhip64. In CMake CUDA::cudart becomes hip::host, and\n\
                  CUDA::nvrtc hip::host before HIP 6.0 (libamdhip64 holds hipRTC) and hiprtc::hiprtc\n\
                  (find_package(hiprtc)) from 6.0 on, where hipRTC is libhiprtc (HIP 7.0 removed it from\n\
                  libamdhip64); find_library() of a CUDA library looks for the HIP one, and NVIDIA's CCCL\n\
                  becomes rocThrust and hipCUB (roc::rocthrust, hip::hipcub). Thrust and CUB come with\n\
                  CUDA, but not with HIP: where the sources include them, a CMakeLists.txt or Makefile that\n\
                  builds CUDA gets a note saying to install rocThrust and hipCUB (on rocPRIM) and, in\n\
                  CMake, to find and link them.\n\
                  A Makefile's own list of library names that it makes -l flags of ($(LIBS:%=-l%),\n\
                  $(addprefix -l,$(LIBS)), $(foreach l,$(LIBS),-l$(l)), -l$(LIB)) is mapped the same way, cudart to amdhip64; where\n\
                  the variable is also read otherwise (ifeq, a list of files) the names stay and the\n\
                  finding is a warning: change them by hand where they are link names.\n\
                  FindNCCL's variables follow find_package(NCCL) to rccl: ${NCCL_LIBRARIES} becomes\n\
                  rccl::rccl, ${NCCL_INCLUDE_DIRS} its include directories, NCCL_FOUND rccl_FOUND.\n\
                  A CUDA library file in CMake (${CUDA_TOOLKIT_TARGET_DIR}/lib64/stubs/libcuda.so,\n\
                  /usr/local/cuda/lib64/libcublas.so) is the library its FindCUDA variable names: it becomes\n\
                  the same HIP target (the driver stub hip::amdhip64), or goes as above; find_package(hip)\n\
                  sets none of FindCUDA's directory variables, so the path would name a file at the root.\n\
                  A build that links hipTensor (cuTENSOR's port) for a GPU hipTensor is not built for\n\
                  (through ROCm 7.0 it supports CDNA alone: gfx908, gfx90a, gfx94x, gfx950; its\n\
                  development documentation adds RDNA3/RDNA4, gfx11 and gfx12, never gfx10) gets one\n\
                  warning per file naming those GPUs.",
    },
    DiagInfo {
        id: "B005",
        name: "cuda-library-unmapped",
        severity: Severity::Error,
        summary: "CUDA library with no HIP counterpart",
        explain: "Libraries such as nvJPEG, NPP, cuFile or NVML have no HIP wrapper that hipport knows of.\n\
                  The reference is left in place and the link fails on ROCm until the code using it is\n\
                  ported or removed. Its help names what ROCm offers where it has a library of another\n\
                  API: AMD SMI (amd_smi/amdsmi.h, -lamd_smi) or, on older ROCm, ROCm SMI (rocm_smi/\n\
                  rocm_smi.h, -lrocm_smi64) for NVML; rocJPEG (ROCm 6.3 and later, decode only) for\n\
                  nvJPEG; RPP (rpp.h, -lrpp) for much of NPP's image part. NPP's libraries (nppc, nppif,\n\
                  nppig, ...) are one error per file, which lists the others with their lines.\n\
                  It is also reported for a library the target HIP release does\n\
                  not ship yet (cuBLASLt's hipBLASLt first shipped in ROCm 5.5): the name stays (in\n\
                  CMake, Makefiles and setup.py), and CMake gets no find_package() for it, since that\n\
                  release cannot find the package; target the release that ships it with --hip-version.",
    },
    DiagInfo {
        id: "B006",
        name: "cuda-install-path",
        severity: Severity::Warning,
        summary: "path into a CUDA installation",
        explain: "-L/usr/local/cuda/lib64, -I$(CUDA_HOME)/include and similar point at NVIDIA's toolkit,\n\
                  which a ROCm machine does not have. hipport removes them from compiler and linker flags;\n\
                  hipcc finds HIP's own headers and libraries. Where a Makefile hands the flags to a host\n\
                  compiler or linker instead (a $(CXX) or g++ recipe, or a variable such as CXXFLAGS or\n\
                  LDLIBS that one reads), they become HIP's: -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include\n\
                  (HIP's headers stop with an #error without the platform macro) and -L$(ROCM_PATH)/lib,\n\
                  with ROCM_PATH ?= /opt/rocm added to the file; a library path rewritten so (-L, -Wl,-rpath,)\n\
                  (also -Wl,-rpath=PATH and -Xlinker -rpath -Xlinker PATH, each in its own spelling)\n\
                  is a note (rewritten, check it), an include path a warning. A host compile recipe with no CUDA\n\
                  include path (CUDA was on the compiler's default path) whose source, or a project\n\
                  header it includes, includes a CUDA header the port turns into a HIP one gets the same\n\
                  -D__HIP_PLATFORM_AMD__ -I$(ROCM_PATH)/include after its program, with a note naming\n\
                  that header. A Makefile variable set to a CUDA\n\
                  install path counts as one whatever its name (CUDA = /usr/local/cuda-8.0, or\n\
                  CUDA_INCLUDE = ${CUDA_HOME}/include read in -I${CUDA_INCLUDE}). Other uses (variables, rpaths in\n\
                  scripts) are reported for review. Paths into NVIDIA's HPC SDK (/opt/nvidia/hpc_sdk,\n\
                  $(NVHPC_SDK), the MPI and NCCL under its comm_libs/) are reported too, and left as\n\
                  they are: point them at the system's MPI (mpicxx --showme:incdirs) and at RCCL.\n\
                  In CMake, a path built from a directory variable FindCUDA or FindCUDAToolkit set\n\
                  (${CUDA_TOOLKIT_ROOT_DIR}/samples/common/inc, ${CUDAToolkit_LIBRARY_DIR}/...) is a warning\n\
                  where the file does not set the variable itself: the port finds the hip package, which\n\
                  sets none of them, so the path starts at the root.",
    },
    DiagInfo {
        id: "B007",
        name: "cmake-cuda-language",
        severity: Severity::Note,
        summary: "CMake CUDA language replaced: HIP sources compile as CXX with hipcc",
        explain: "The translated CMake project drops the CUDA language, finds the `hip` package and links\n\
                  every target with hip::device, and marks the HIP sources LANGUAGE CXX (also a source\n\
                  named inside a generator expression, $<$<BOOL:X>:k.cu>). A file that compiles no CUDA\n\
                  code (no CUDA language, .cu source or CUDA flags: a host program linking CUDA::cudart,\n\
                  in a file that adds no subdirectory) gets GPU_TARGETS and find_package(hip) with its\n\
                  libraries alone. Configure the project with\n\
                  hipcc as the C++ compiler: cmake -DCMAKE_CXX_COMPILER=hipcc. The AMD targets come from\n\
                  GPU_TARGETS (override with -DGPU_TARGETS=\"gfx90a;gfx1030\", quoted for the shell). CMake's own HIP language is not used\n\
                  because it needs <rocm>/lib/cmake/hip-lang, which Debian's HIP packages do not provide.\n\
                  What nvcc applied to the CUDA sources alone still reaches the HIP sources alone: CMAKE_CUDA_FLAGS\n\
                  and CMAKE_CUDA_FLAGS_<CONFIG> keep their names, $<COMPILE_LANGUAGE:CUDA> stays in target\n\
                  options, definitions and include directories (no source compiles as CUDA now, so host\n\
                  .cpp files do not get them), and code appended to the file gives both to each target's\n\
                  ported sources (.cu, or the .hip ones they were renamed to) as source properties. What a\n\
                  PUBLIC or INTERFACE scope passes on to other targets does not reach their HIP sources;\n\
                  nor does a .cpp file that was made LANGUAGE CUDA get them: repeat such flags there by\n\
                  hand. A project with a HIP path of its own keeps it: the branches of an if() that run\n\
                  only when that path is not taken (the else() of if(HIP_FOUND) or if(USE_ROCM), the body\n\
                  of if(NOT USE_HIP)) are left as they are, with this note, and .hip sources that CMake's\n\
                  HIP language compiles keep their language and properties. Where CUDA was optional\n\
                  (no find_package(CUDA) says REQUIRED and the file tests CUDA_FOUND, as a project with a\n\
                  CPU-only build does), HIP is optional too: find_package(hip QUIET) runs only with\n\
                  hipcc as the compiler, CUDA_FOUND becomes hip_FOUND, and with another compiler the\n\
                  project configures as it did without CUDA.\n\
                  For --hip-version before 6.0 the block also sets CMAKE_CXX_STANDARD 14 where nothing\n\
                  set it: hipcc before ROCm 6 puts -std=c++11 before its flags, and CMake gives no\n\
                  standard where the compiler's default meets the targets' compile features, so code\n\
                  nvcc built at its default (C++14) would compile as C++11. Not where the project gives a\n\
                  standard of its own in its CMake files (the file, those of the directories above it, and\n\
                  those in and below its directory): CMAKE_CXX_STANDARD or CMAKE_CUDA_STANDARD set\n\
                  anywhere, the CXX_STANDARD or CUDA_STANDARD property, -std=c++14 or newer in\n\
                  CMAKE_CXX_FLAGS, CMAKE_CUDA_FLAGS or compile options, or a cxx_std_NN / cuda_std_NN\n\
                  compile feature of 14 or more (CMake writes its standard after CMAKE_CXX_FLAGS, so\n\
                  gnu++14 would override a -std=c++17 there). A cuda_std_NN compile feature becomes\n\
                  cxx_std_NN: the target's sources compile as C++ now, and a CUDA feature would give\n\
                  them no standard.",
    },
    DiagInfo {
        id: "B008",
        name: "cuda-build-construct",
        severity: Severity::Warning,
        summary: "CUDA-specific build construct that was not translated",
        explain: "The build file uses something CUDA-specific that hipport does not rewrite (for example\n\
                  CMAKE_CUDA_COMPILER, FindCUDA macros, CUDAToolkit_* variables or CUDA_HOME in setup.py or a JIT build).\n\
                  Review it by hand. A FindCUDA macro hipport does not translate (cuda_compile_ptx,\n\
                  cuda_compile_fatbin, cuda_compile_cubin, cuda_wrap_srcs, cuda_compile with OPTIONS) is an\n\
                  error: the HIP build does not load FindCUDA, so CMake stops at an unknown command.\n\
                  Variables a Makefile recipe that ran nvcc gives the compiler, set in a file the Makefile\n\
                  includes (Kaldi's kaldi.mk), reach hipcc unseen: they must hold hipcc's flags.\n\
                  CUDA compiler and toolkit versions (CMAKE_CUDA_COMPILER_VERSION,\n\
                  CUDAToolkit_VERSION, CUDA_VERSION, ...) are empty in the HIP build, and if() compares an\n\
                  empty version as 0: `VERSION_LESS 11.8` is true, `VERSION_GREATER 12` false, and LESS or\n\
                  GREATER on an empty value false. The finding names the branch taken; it is an error when\n\
                  that branch is a message(FATAL_ERROR) or message(SEND_ERROR), which stops configuring.\n\
                  A setup.py or JIT build that looks for nvcc (shutil.which('nvcc'), subprocess.call(['nvcc']),\n\
                  os.system('nvcc --version'), [cuda_dir + '/bin/nvcc', '-V']) finds none on a ROCm machine, so what the probe gates (a\n\
                  load() of the extension) is skipped there without a word: test torch.version.hip (ROCm\n\
                  PyTorch builds with hipcc, from torch.utils.cpp_extension.ROCM_HOME) instead.\n\
                  A probe that subprocess runs without a shell (check_output([cuda_dir + '/bin/nvcc',\n\
                  '-V']), call, run, Popen), outside a try, is an error: it raises there (FileNotFoundError,\n\
                  or TypeError where the path is built on CUDA_HOME, which is None on ROCm PyTorch), and\n\
                  the build stops before anything is compiled. Guard it with torch.version.hip.\n\
                  A lookup of nvcc whose answer stops the build where it finds none (`if nv is None:\n\
                  raise ...`) says so. The custom build_ext that hands a looked-up nvcc to\n\
                  set_executable('compiler_so', ...) for .cu sources (npcuda-example) is converted to look\n\
                  for hipcc (B012); where its shape is not certain, the lookup is reported: the build runs\n\
                  nvcc and was not converted. A shell build script's line that runs nvcc through a\n\
                  variable ($NVCC), or that its conversion leaves running nvcc, is reported too, as is\n\
                  each line of a Windows script (.bat, .cmd, .ps1) that runs nvcc (itself, %NVCC%,\n\
                  $env:NVCC): those scripts are not converted.\n\
                  An `if ... CUDA_HOME is not None:` whose `else:` raises or exits (or an `if CUDA_HOME is\n\
                  None:` whose block does) is an error: CUDA_HOME is None on ROCm PyTorch without a CUDA\n\
                  toolkit, so the build always stops. --fix tests `(CUDA_HOME is not None or ROCM_HOME is\n\
                  not None)` there, with ROCM_HOME imported from torch.utils.cpp_extension. The truth\n\
                  tests (`if CUDA_HOME:` with such an else, `if not CUDA_HOME: raise`) are the same error;\n\
                  --fix tests `(CUDA_HOME or ROCM_HOME)` / `not (CUDA_HOME or ROCM_HOME)`.\n\
                  NVIDIA's tools a Makefile recipe or CMake custom command runs (nvprof, nsys, ncu,\n\
                  cuda-memcheck, compute-sanitizer, cuda-gdb) are not on a ROCm machine: the finding\n\
                  names ROCm's (rocprofv3 from ROCm 6.2, rocprof before; AddressSanitizer with xnack+\n\
                  targets for the memory checkers; rocgdb).\n\
                  Meson builds (meson.build) are not converted: each use of Meson's cuda language, of\n\
                  dependency('cuda'), of cuda_args and of Meson's CUDA module is reported with what\n\
                  replaces it (hipcc as the C++ compiler, dependency('hip', method: 'cmake') and the HIP\n\
                  libraries' packages, the flags in hipcc's spelling in cpp_args).",
    },
    DiagInfo {
        id: "B009",
        name: "gpu-architectures",
        severity: Severity::Note,
        summary: "NVIDIA architectures replaced by AMD targets",
        explain: "sm_XX / compute_XX have no AMD equivalent. hipport replaces architecture flags and\n\
                  CUDA_ARCHITECTURES settings with the AMD targets given by --offload-arch (by default\n\
                  gfx90a, gfx942, gfx1030 and gfx1100, less those the --hip-version release cannot\n\
                  build: gfx942 needs HIP 6.0, gfx1100 HIP 5.5). `hipport doctor` shows the gfx name\n\
                  of each GPU.\n\
                  A Makefile's $(foreach sm,$(SMS),-gencode arch=compute_$(sm),code=sm_$(sm)) becomes the\n\
                  --offload-arch= list. Where it cannot rewrite a flag (a -gencode whose value is\n\
                  appended separately, such a loop that writes other words too, an\n\
                  append() that would need several flags, a flag in a string built by hand, an -arch\n\
                  value it cannot read), the flag stays and the diagnostic is a warning: hipcc rejects\n\
                  -gencode and --generate-code as unknown arguments; -arch newer clang rejects and clang\n\
                  15 ignores with a warning, building for no AMD target. Replace it with\n\
                  --offload-arch=<gfx> by hand.\n\
                  Flags a CMake foreach() appends per architecture (string(APPEND V \" -gencode\n\
                  arch=compute_${A},code=sm_${A}\"), set(V \"${V} ...\"), list(APPEND V ...)) would add the AMD\n\
                  targets once per iteration: after the loop, V loses the copies and gets them once.\n\
                  A CMake file that sets CMAKE_CUDA_ARCHITECTURES and also reads it (list(GET ...),\n\
                  ${CMAKE_CUDA_ARCHITECTURES}, IN_LIST, a comparison) keeps the set(), with a note naming\n\
                  the first reader: what the project derives from it (a minimum architecture, the sources\n\
                  it compiles) keeps its value, and the variable has no effect on hipcc-compiled sources.\n\
                  A variable of a CMake file whose targets compile HIP sources through hip::device\n\
                  (set(GENCODE_SM70 -gencode=...), read by cuda_add_executable(... OPTIONS ${GENCODE}) or\n\
                  target_compile_options) loses its architecture flags, with one note a command: hip::device\n\
                  compiles for GPU_TARGETS, so -DGPU_TARGETS alone picks the AMD targets. A variable a\n\
                  custom command or execute_process() reads keeps the --offload-arch= list.",
    },
    DiagInfo {
        id: "B010",
        name: "cuda-source-pattern",
        severity: Severity::Warning,
        summary: "pattern over CUDA source names",
        explain: "A glob or pattern rule names CUDA sources by extension (*.cu, %.cu, .SUFFIXES: .cu and\n\
                  suffix rules such as .cu.o:). hipport rewrites the extension when the sources were\n\
                  renamed, and the directory part of a glob over a directory --rename torch moved\n\
                  (csrc/cuda/*.cu -> csrc/hip/*.hip); check that the pattern still selects what it should.\n\
                  In setup.py, Python builds and Makefiles (a %.cu or *.cu pattern, a suffix rule) a\n\
                  pattern rewritten so is a note, since the tree's renames decided it; there a warning says what hipport could not follow: a directory name in a\n\
                  joined path renamed by its name alone, or, under renames that move headers, an include\n\
                  directory it cannot read or a moved one written in parts it does not rewrite; a source\n\
                  literal that names no renamed file from the build's directory while a renamed file's\n\
                  path ends with it (joined to a directory by code hipport does not follow); and a\n\
                  ROCm branch's X.hip where the file also names X.cu and the run writes no X.hip (convert\n\
                  with --rename hip). Sources that OpenMMLab's make_cuda_ext(name, module, sources) joins\n\
                  under module.split('.') are read under that directory and follow the renames.\n\
                  A source path in an include()d *.cmake file resolves against the including\n\
                  CMakeLists.txt's directory, which hipport does not know: it looks beside the file and in\n\
                  the directories above it, and reports a path it finds nowhere. A CMake file(GLOB) pattern\n\
                  that matched renamed sources without naming their extension (*.c*) and no longer matches\n\
                  their new names gets a pattern for the new extension beside it (*.c* *.hip), or, where\n\
                  it cannot (several patterns in one argument), the warning alone.",
    },
    DiagInfo {
        id: "B011",
        name: "torch-cuda-extension",
        severity: Severity::Note,
        summary: "PyTorch CUDAExtension kept: it builds with hipcc on ROCm PyTorch",
        explain: "On a ROCm build of PyTorch, torch.utils.cpp_extension.CUDAExtension and BuildExtension\n\
                  compile the extension's GPU sources with hipcc and pass extra_compile_args['nvcc'] to it,\n\
                  so the names stay. hipport rewrites the flags in that list to hipcc spellings and the\n\
                  library names to HIP libraries. JIT builds (torch.utils.cpp_extension.load and\n\
                  load_inline) likewise hand extra_cuda_cflags to hipcc: those lists are rewritten the same\n\
                  way in any Python file. For --hip-version 6.2 to 6.4 each such list also gets\n\
                  -DHIP_ENABLE_WARP_SYNC_BUILTINS first, since those releases declare the _sync warp\n\
                  builtins the port keeps only with it; a call whose sources keep them and that has no\n\
                  such list gets one (extra_compile_args={'nvcc': [...]}, an 'nvcc' key in its\n\
                  dictionary, extra_cuda_cflags=[...]), or a warning where hipport cannot tell where its\n\
                  flags come from (**kwargs, a computed dictionary). Sources are read from the call: literals,\n\
                  joins and formats of literals, globs, and a variable this file assigns, extends (+=, .extend)\n\
                  and appends to; where hipport cannot resolve them (a parameter, a path computed otherwise), the\n\
                  define is added only if some source of the tree keeps a _sync builtin, and the note names it.\n\
                  A source whose H003 note asked for the define names the build file that now gives it. The CUDA\n\
                  in load_inline's strings is translated and checked as a .cu file is; what is not is reported\n\
                  as B014.",
    },
    DiagInfo {
        id: "B012",
        name: "nvcc-compiler",
        severity: Severity::Note,
        summary: "nvcc replaced by hipcc",
        explain: "The compiler driver nvcc becomes hipcc, which accepts most of nvcc's common options\n\
                  (-O3, -std=c++17, -c, -o, -I, -D) and compiles .hip and .cu files as HIP. This is done in\n\
                  Makefiles, CMake, shell build scripts (*.sh: the lines that run nvcc), and in a setup.py\n\
                  whose custom build_ext compiles .cu sources with an nvcc it looks up (now hipcc, under\n\
                  $ROCM_PATH or on PATH).",
    },
    DiagInfo {
        id: "B013",
        name: "separable-compilation",
        severity: Severity::Note,
        summary: "CUDA separable compilation replaced by -fgpu-rdc",
        explain: "Relocatable device code (nvcc -rdc=true, -dc, CMake CUDA_SEPARABLE_COMPILATION) is\n\
                  -fgpu-rdc for hipcc, on both the compile and the link line. hip-clang has no separate\n\
                  device-link step: the link of the -fgpu-rdc objects links their device code, and it must\n\
                  be hipcc -fgpu-rdc --hip-link --offload-arch=<gfx> for each target (g++, or hipcc without\n\
                  -fgpu-rdc, fails with undefined __hip_fatbin; hipcc -dlink links a program and fails).\n\
                  In a Makefile that compiles relocatable device code, hipport makes nvcc's device-link\n\
                  command (-dlink, --device-link) write an empty object instead (hipcc -x c++ -c /dev/null\n\
                  -o <its output>), so the rules and links that name that object still work, and gives\n\
                  each link that reads the relocatable objects (a $(CXX)/g++ link becomes hipcc, an\n\
                  nvcc link gets the flags) -fgpu-rdc --hip-link, and the targets where the compiles\n\
                  name them; -lcudart and CUDA library paths on it are dropped. These rewrites are\n\
                  notes. A device-link command among other shell commands is left as it is, and\n\
                  fails; a Makefile that compiles relocatable device code but has no link of it that\n\
                  hipport reads (the objects are archived for a link elsewhere, or the link is in a\n\
                  shape it does not follow) gets a warning: that link needs the flags above. In CMake,\n\
                  CUDA_RESOLVE_DEVICE_SYMBOLS does nothing: the device code is linked where an\n\
                  executable or shared library links with -fgpu-rdc.",
    },
    DiagInfo {
        id: "B014",
        name: "load-inline-source",
        severity: Severity::Note,
        summary: "CUDA in a load_inline string that hipport does not translate",
        explain: "torch.utils.cpp_extension.load_inline(name, cpp_sources, cuda_sources, ...) compiles C++\n\
                  and CUDA held in Python strings. hipport translates and checks the string literals that\n\
                  reach cpp_sources and cuda_sources (by keyword or position) as it does a .cu file:\n\
                  literals in the call, in a list or tuple there, or assigned to a variable the call names\n\
                  anywhere in the file (adjacent literals and + between literals make one text;\n\
                  textwrap.dedent(...) and .strip() are read through). Renames, includes and hazard\n\
                  diagnostics (H0xx) land on the Python file's lines; new text is escaped for its\n\
                  literal (quotes, backslashes, line breaks in a one-line string, braces in an f-string).\n\
                  This note marks what is left: a source read from a file at run time (convert that file\n\
                  instead), formatted with .format() or %, passed in from elsewhere or otherwise computed;\n\
                  a string with a \\N{...} escape; a bytes literal (b\"...\"), which load_inline cannot\n\
                  take; and an edit hipport cannot write back: one that would split an escape sequence,\n\
                  change an f-string's {...} field, put a backslash, the quote or a line break into a raw\n\
                  string, or join what is left around it (an octal escape such as \\1 with a digit after\n\
                  it, quotes with the closing quotes of a triple-quoted string). ROCm PyTorch still\n\
                  renames CUDA names in these strings when it builds them, but nothing else: make other\n\
                  changes by hand. The sources of CuPy's RawKernel(code, name) and RawModule(code=...)\n\
                  and PyCUDA's SourceModule(source) and DynamicSourceModule(source) are found the same\n\
                  way and checked, not translated (CuPy's ROCm build compiles them with hipRTC as\n\
                  written; PyCUDA has no ROCm backend): this note says so once per library.",
    },
    DiagInfo {
        id: "B015",
        name: "visual-studio-cuda",
        severity: Severity::Warning,
        summary: "Visual Studio CUDA build setting reported, not rewritten",
        explain: "Visual Studio projects (.vcxproj) build CUDA through NVIDIA's build customization: an\n\
                  <Import> of $(VCTargetsPath)\\BuildCustomizations\\CUDA <version>.props and .targets,\n\
                  CudaCompile items, and nvcc settings on them (CodeGeneration, FastMath, GPUDebugInfo,\n\
                  GenerateRelocatableDeviceCode, GenerateLineInfo, MaxRegCount, PtxAsOptionV, HostDebugInfo,\n\
                  Keep, KeepDir, CudaRuntime, NvccCompilation, AdditionalOptions). A machine\n\
                  with the AMD HIP SDK for Windows has no nvcc. AMD's Visual Studio extension (HIP-VS,\n\
                  https://rocm.docs.amd.com/projects/hip-vs/) adds the platform toolsets `AMD HIP for clang\n\
                  Compiler` and `AMD HIP for nvcc Compiler`, but its documentation does not give the item\n\
                  types or property names a project file uses, so hipport does not write them. It reports\n\
                  each CUDA import, the CudaCompile items, and each nvcc setting with the hipcc flags that\n\
                  replace it, through the same flag mapping as other build files (compute_80,sm_80 becomes\n\
                  --offload-arch=<gfx> for each target given with --offload-arch; FastMath -ffast-math;\n\
                  GPUDebugInfo -g; GenerateRelocatableDeviceCode -fgpu-rdc; -Xptxas and --expt-* need\n\
                  nothing). Move the sources to the HIP toolset, or to a build step that runs hipcc, and\n\
                  give it those flags. What hipport does rewrite: Include paths follow --rename (also in\n\
                  .vcxproj.filters); cudart.lib, cudart_static.lib and cuda.lib in AdditionalDependencies\n\
                  become amdhip64.lib (the HIP runtime has no static library; amdhip64.lib imports the\n\
                  DLL that the AMD driver installs); $(CUDA_PATH)\\lib\\x64 and $(CudaToolkitLibDir) in\n\
                  AdditionalLibraryDirectories become $(HIP_PATH)\\lib, and $(CUDA_PATH)\\include in\n\
                  AdditionalIncludeDirectories $(HIP_PATH)\\include. The HIP SDK installer sets HIP_PATH,\n\
                  and clang's MSVC toolchain links amdhip64.lib from <HIP_PATH>\\lib. Host sources that\n\
                  cl.exe compiles and that include HIP headers also need __HIP_PLATFORM_AMD__ in their\n\
                  PreprocessorDefinitions. Other CUDA libraries (cublas.lib, ...) are reported with their\n\
                  HIP names, not rewritten: the names of the HIP SDK's import libraries are not documented.",
    },
    DiagInfo {
        id: "B016",
        name: "cuda-only-python-branch",
        severity: Severity::Note,
        summary: "Python build code that runs only on CUDA PyTorch, left as it is",
        explain: "A setup.py or JIT build that already has a ROCm path tells the two builds apart with\n\
                  torch.version.hip (or a name assigned from it: HIP_BUILD = bool(torch.version.hip),\n\
                  IS_HIP_EXTENSION). Code in the branch ROCm PyTorch never takes is left as it is: the\n\
                  `else` of `if torch.version.hip:` (and each later `elif`), and the body of\n\
                  `if not torch.version.hip:`, `if torch.version.hip is None:` or `if torch.version.cuda:`.\n\
                  Its nvcc flags are not rewritten and its CUDA_HOME uses and -gencode flags are not\n\
                  reported, since they never reach hipcc; source paths that name renamed files still\n\
                  follow the renames. This note says which lines were left and which test decides them.\n\
                  A condition that tests something else as well (`torch.version.hip and args.fast`)\n\
                  decides nothing: both of its branches are translated. `ROCM_HOME is not None` beside\n\
                  the test tests nothing else: every ROCm build that compiles has it.",
    },
    DiagInfo {
        id: "B017",
        name: "cargo-build-script-cuda",
        severity: Severity::Warning,
        summary: "Cargo build script that compiles CUDA, copied as it is",
        explain: "hipport ports no Rust. A Cargo build script (build.rs) that compiles the crate's CUDA\n\
                  kernels is copied as it is, so the HIP tree still runs nvcc: the script runs nvcc\n\
                  (Command::new(\"nvcc\")), uses a crate that does (bindgen_cuda, cudaforge and their\n\
                  KernelBuilder, cc's .cuda(true)), passes nvcc's -arch=sm_XX, --ptx or -gencode, or\n\
                  links a CUDA library (cargo:rustc-link-lib=dylib=cudart). One warning per script names\n\
                  what was found. To port it: kernels the crate loads at run time (PTX) become code\n\
                  objects, `hipcc --genco --offload-arch=gfx90a -o k.hsaco k.cu`, loaded with\n\
                  hipModuleLoad and hipModuleGetFunction; kernels linked into the crate are built with\n\
                  `hipcc -c -fPIC --offload-arch=...`; amdhip64 (in /opt/rocm/lib) replaces cudart.\n\
                  A script that names hipcc or amdhip64 has a ROCm path of its own and gets no warning.",
    },
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Only a file that may name a standard before C++14 has its result depend on the tree's
    /// sources (and stays out of the cache): not every CMake file that sets a standard.
    #[test]
    fn old_standards_are_told_from_others() {
        for old in [
            &b"NVCCFLAGS = -std=c++11 -O3"[..],
            b"set(CMAKE_CUDA_STANDARD 11)",
            b"set_property(TARGET t PROPERTY CXX_STANDARD \"98\")",
            b"target_compile_features(t PUBLIC cxx_std_11)",
        ] {
            assert!(names_old_standard(old), "{}", String::from_utf8_lossy(old));
        }
        for new in [
            &b"set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CXX_STANDARD_REQUIRED ON)"[..],
            b"NVCCFLAGS = -std=c++17",
            b"set(CMAKE_CUDA_STANDARD 14)",
        ] {
            assert!(!names_old_standard(new), "{}", String::from_utf8_lossy(new));
        }
        // A build of CUDA does not read the tree for the rocThrust note alone (R21-f).
        assert!(!may_name_old_standard(
            b"NVCCFLAGS = -std=c++17\nall:\n\tnvcc k.cu"
        ));
        assert!(!may_name_old_standard(
            b"find_package(rocthrust)\nenable_language(CUDA)\nset(CMAKE_CXX_STANDARD 17)"
        ));
        // A CMake file that may get the C++14 block of HIP before 6.0 reads the project's
        // other CMake files for a standard (verify13 REG-1): its result is not cached.
        assert!(may_name_old_standard(
            b"find_package(rocthrust)\nenable_language(CUDA)"
        ));
    }

    #[test]
    fn classifies_build_files() {
        assert_eq!(classify(Path::new("a/setup.py")), Some(BuildKind::SetupPy));
        assert_eq!(
            classify(Path::new("CMakeLists.txt")),
            Some(BuildKind::CMake)
        );
        assert_eq!(
            classify(Path::new("cmake/cuda.cmake")),
            Some(BuildKind::CMake)
        );
        assert_eq!(
            classify(Path::new("GNUmakefile")),
            Some(BuildKind::Makefile)
        );
        assert_eq!(classify(Path::new("rules.mk")), Some(BuildKind::Makefile));
        // X-c: the files projects hand to `make -f` or `include` are Makefiles by their names.
        for name in [
            "lib/gpu/Makefile.linux",
            "Nvidia.makefile",
            "makefile.win",
            "GNUmakefile.cuda",
            "Makefile.am",
            "Makefile.in",
            "build.MAK",
            "rules.make",
            "config.mk",
            "make.inc",
            "make.inc-examples/make.inc.openblas",
            "make.config",
        ] {
            assert_eq!(
                classify(Path::new(name)),
                Some(BuildKind::Makefile),
                "{name}"
            );
        }
        for name in [
            "Makefile.orig",
            "Makefile.rej",
            "Makefile~",
            "Makefile.",
            "makefile_notes.txt",
            "mkfile.c",
            "Makefile.inc.cu",
            "Makefile.md",
            "make.cu",
            "make.h",
        ] {
            assert_ne!(
                classify(Path::new(name)),
                Some(BuildKind::Makefile),
                "{name}"
            );
        }
        assert_eq!(
            classify(Path::new("CMakeFiles/Makefile.cmake")),
            Some(BuildKind::CMake)
        );
        assert_eq!(classify(Path::new("jit/ops.py")), Some(BuildKind::Python));
        assert!(!BuildKind::Python.is_build_file() && BuildKind::SetupPy.is_build_file());
        assert_eq!(classify(Path::new("main.cu")), None);
        assert_eq!(classify(Path::new("setup.cfg")), None);
    }

    #[test]
    fn default_targets_follow_the_hip_release() {
        let v = hipport_rules::Version::new;
        assert_eq!(default_offload_arch(v(5, 2, 3)), ["gfx90a", "gfx1030"]);
        assert_eq!(
            default_offload_arch(v(5, 7, 0)),
            ["gfx90a", "gfx1030", "gfx1100"]
        );
        assert_eq!(default_offload_arch(v(6, 2, 0)), DEFAULT_OFFLOAD_ARCH);
    }

    #[test]
    fn finds_offload_archs() {
        let src = b"HIPFLAGS = --offload-arch=gfx90a --offload-arch=gfx1100:xnack-\nset(GPU_TARGETS \"gfx942;gfx90a\" CACHE STRING \"\")\n";
        assert_eq!(offload_archs(src), vec!["gfx1100", "gfx90a", "gfx942"]);
        assert!(offload_archs(b"NVCCFLAGS = -arch=sm_80").is_empty());
    }

    #[test]
    fn a_directory_moves_whole_only_when_nothing_is_left_in_it() {
        let renamed: BTreeMap<String, String> = [
            ("csrc/cuda/k.cu", "csrc/hip/k.hip"),
            ("csrc/cuda/x/u.cuh", "csrc/hip/x/u.cuh"),
        ]
        .into_iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
        let after = ["csrc/hip/k.hip", "csrc/hip/x/u.cuh", "setup.py"];
        let moved = moved_dirs(&renamed, after);
        assert_eq!(
            moved.into_iter().collect::<Vec<_>>(),
            [
                ("csrc/cuda".to_string(), "csrc/hip".to_string()),
                ("csrc/cuda/x".to_string(), "csrc/hip/x".to_string())
            ]
        );
        let left = after.into_iter().chain(["csrc/cuda/vendored.h"]);
        let moved = moved_dirs(&renamed, left);
        assert_eq!(moved.keys().collect::<Vec<_>>(), ["csrc/cuda/x"]);
    }

    #[test]
    fn the_device_link_warning_is_the_one_b013_explains() {
        let mut done = false;
        let opts = BuildOptions {
            offload_arch: vec![],
            ..Default::default()
        };
        let m = flags::map_words(
            &["-dlink", "a.o", "-o", "dlink.o"],
            &opts,
            flags::Context::Nvcc,
            &mut done,
        );
        let n = &m.notes[0];
        assert_eq!((n.info.id, n.severity), ("B013", Some(Severity::Warning)));
        assert_eq!(B_RDC.severity, Severity::Note);
        assert!(B_RDC.explain.contains("-dlink"));
        assert!(B_RDC
            .explain
            .contains("among other shell commands is left as it is, and\nfails"));
    }

    #[test]
    fn diag_table_matches_statics() {
        assert_eq!(B_RDC.id, "B013");
        assert_eq!(B_FLAG_MAPPED.id, "B001");
    }
}
