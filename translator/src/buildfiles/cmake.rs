//! CMake: the CUDA language, CUDAToolkit/FindCUDA packages, `CUDA::` targets, CUDA variables and
//! properties, and nvcc flags become their hipcc equivalents.
//!
//! HIP sources compile as CXX with hipcc as the C++ compiler and `hip::device` (see the module
//! documentation of [`super`] for why CMake's HIP language is not used).

use std::collections::BTreeSet;

use crate::diag::Severity;
use hipport_rules::Version;

use super::flags::{self, Context};
use super::text::{self, Sink, Style, Word};
use super::{
    Anchor, BuildOptions, B_ARCH, B_CONSTRUCT, B_FLAG_DROPPED, B_FLAG_MAPPED, B_FLAG_UNMAPPED,
    B_GLOB, B_LANGUAGE, B_LIB_MAPPED, B_LIB_UNMAPPED, B_RDC,
};

/// One argument of a command.
#[derive(Debug, Clone)]
struct Arg {
    /// Start of the argument (its quote or bracket, if any).
    start: usize,
    /// End of the argument.
    end: usize,
    /// Start of the content (after a quote or bracket).
    content_start: usize,
    /// End of the content (before a closing quote or bracket).
    content_end: usize,
    /// The content.
    text: String,
    /// Quoted (`"..."`) argument.
    quoted: bool,
    /// Bracket argument (`[[...]]`): never edited.
    bracket: bool,
}

/// One command invocation.
#[derive(Debug)]
struct Command {
    /// Lowercased name.
    name: String,
    /// Offset of the name.
    start: usize,
    /// Offset after the closing parenthesis.
    end: usize,
    /// Arguments, in order.
    args: Vec<Arg>,
    /// Whether its closing parenthesis was found: the file may end inside it (an unbalanced
    /// parenthesis, an unterminated quote or bracket), which CMake cannot read.
    closed: bool,
}

/// Splits CMake source into commands. Unbalanced input ends the scan early rather than failing.
/// A word that is no command (not followed by `(`, which CMake cannot read) followed by blanks
/// and another word makes the rest of its line no commands: removing a command after such a
/// word (`Y set(...)(x)`) would make the word a command to the next run.
fn commands(src: &str) -> Vec<Command> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'#' {
            i = skip_comment(src, i);
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let name = src[s..i].to_ascii_lowercase();
            let mut j = i;
            while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                j += 1;
            }
            if j < b.len() && b[j] == b'(' {
                let (args, end, closed) = arguments(src, j + 1);
                out.push(Command {
                    name,
                    start: s,
                    end,
                    args,
                    closed,
                });
                i = end;
            } else if j > i && j < b.len() && (b[j].is_ascii_alphabetic() || b[j] == b'_') {
                i = src[j..].find('\n').map_or(b.len(), |p| j + p + 1);
            }
            continue;
        }
        i += 1;
    }
    out
}

/// Whether the file ends inside a bracket comment (`#[[` without its `]]`) outside commands:
/// anything appended to it would be commented out.
fn ends_in_bracket_comment(src: &str, cmds: &[Command]) -> bool {
    let b = src.as_bytes();
    let mut i = cmds.last().map_or(0, |c| c.end);
    while i < b.len() {
        if b[i] == b'#' {
            let end = skip_comment(src, i);
            if end == b.len() && bracket_open(&src[i + 1..]).is_some() {
                let len = bracket_open(&src[i + 1..]).unwrap_or(2);
                let close = format!("]{}]", "=".repeat(len - 2));
                return !src[i + 1 + len..].contains(&close);
            }
            i = end;
        } else {
            i += 1;
        }
    }
    false
}

fn skip_comment(src: &str, i: usize) -> usize {
    let b = src.as_bytes();
    if let Some(len) = bracket_open(&src[i + 1..]) {
        let eq = len - 2;
        let close = format!("]{}]", "=".repeat(eq));
        return src[i + 1 + len..]
            .find(&close)
            .map_or(b.len(), |p| i + 1 + len + p + close.len());
    }
    src[i..].find('\n').map_or(b.len(), |p| i + p + 1)
}

/// Length of a bracket opener `[[` / `[==[` at the start of `s`.
fn bracket_open(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    if b.first() != Some(&b'[') {
        return None;
    }
    let eq = b[1..].iter().take_while(|&&c| c == b'=').count();
    (b.get(1 + eq) == Some(&b'[')).then_some(eq + 2)
}

/// Arguments from `i` (after the opening parenthesis) to the matching `)`, the offset after it
/// and whether it was found (or the file ended first).
fn arguments(src: &str, mut i: usize) -> (Vec<Arg>, usize, bool) {
    let b = src.as_bytes();
    let mut args = Vec::new();
    let mut depth = 0;
    while i < b.len() {
        let c = b[i];
        match c {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' => i = skip_comment(src, i),
            b'(' => {
                depth += 1;
                i += 1;
            }
            b')' => {
                if depth == 0 {
                    return (args, i + 1, true);
                }
                depth -= 1;
                i += 1;
            }
            b'"' => {
                let s = i;
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let e = (i + 1).min(b.len());
                let content_end = i.min(b.len());
                args.push(Arg {
                    start: s,
                    end: e,
                    content_start: s + 1,
                    content_end,
                    text: src[s + 1..content_end].to_string(),
                    quoted: true,
                    bracket: false,
                });
                i = e;
            }
            b'[' if bracket_open(&src[i..]).is_some() => {
                let len = bracket_open(&src[i..]).unwrap_or(2);
                let close = format!("]{}]", "=".repeat(len - 2));
                let (content_end, e) =
                    src[i + len..].find(&close).map_or((b.len(), b.len()), |p| {
                        (i + len + p, i + len + p + close.len())
                    });
                args.push(Arg {
                    start: i,
                    end: e,
                    content_start: i + len,
                    content_end,
                    text: String::new(),
                    quoted: false,
                    bracket: true,
                });
                i = e;
            }
            _ => {
                let s = i;
                let mut genex = 0;
                while i < b.len() {
                    let c = b[i];
                    if c == b'$' && b.get(i + 1) == Some(&b'<') {
                        genex += 1;
                        i += 2;
                        continue;
                    }
                    if c == b'"' {
                        // A quoted part of an unquoted argument (`-DMSG="a b"`) is in it, blanks
                        // and all, as CMake reads it.
                        i += 1;
                        while i < b.len() && b[i] != b'"' {
                            if b[i] == b'\\' {
                                i += 1;
                            }
                            i += 1;
                        }
                    } else if c == b'>' && genex > 0 {
                        genex -= 1;
                    } else if genex == 0
                        && matches!(c, b' ' | b'\t' | b'\r' | b'\n' | b'(' | b')' | b'#')
                    {
                        // CMake's separators, which the arms above consume: a form feed or
                        // vertical tab is part of the argument, as it is to CMake.
                        break;
                    } else if c == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
                let e = i.min(b.len());
                args.push(Arg {
                    start: s,
                    end: e,
                    content_start: s,
                    content_end: e,
                    text: src[s..e].to_string(),
                    quoted: false,
                    bracket: false,
                });
                i = e;
            }
        }
    }
    (args, b.len(), false)
}

/// The include directories of `include_directories(...)` and `target_include_directories(t ...)`
/// (see [`super::include_dirs`]): relative paths and those behind `${CMAKE_CURRENT_SOURCE_DIR}/`
/// or `${CMAKE_CURRENT_LIST_DIR}/` are this file's; those behind `${PROJECT_SOURCE_DIR}/` or
/// `${CMAKE_SOURCE_DIR}/` the root's. `$<BUILD_INTERFACE:...>` is read; other generator
/// expressions and variables are not.
pub(crate) fn include_dirs(src: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    for cmd in commands(src) {
        let args = match cmd.name.as_str() {
            "include_directories" => &cmd.args[..],
            "target_include_directories" => cmd.args.get(1..).unwrap_or_default(),
            _ => continue,
        };
        for a in args {
            for item in a.text.split(';') {
                let mut path = item.trim();
                if path.is_empty()
                    || matches!(
                        path,
                        "SYSTEM" | "BEFORE" | "AFTER" | "PUBLIC" | "PRIVATE" | "INTERFACE"
                    )
                {
                    continue;
                }
                if let Some(inner) = path
                    .strip_prefix("$<BUILD_INTERFACE:")
                    .and_then(|p| p.strip_suffix('>'))
                {
                    path = inner;
                }
                add_anchored(a, path, add);
            }
        }
    }
}

/// Calls `add` with `path`, a directory written in argument `a`, read past the variable that
/// anchors it (`${CMAKE_CURRENT_SOURCE_DIR}/x` is `x` relative to the file).
fn add_anchored(a: &Arg, mut path: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    let mut anchor = Anchor::File;
    for (var, at) in [
        ("${CMAKE_CURRENT_SOURCE_DIR}", Anchor::File),
        ("${CMAKE_CURRENT_LIST_DIR}", Anchor::File),
        ("${PROJECT_SOURCE_DIR}", Anchor::Root),
        ("${CMAKE_SOURCE_DIR}", Anchor::Root),
    ] {
        if let Some(rest) = path.strip_prefix(var) {
            if rest.is_empty() || rest.starts_with('/') {
                path = rest.trim_start_matches('/');
                anchor = at;
                if path.is_empty() {
                    path = ".";
                }
            }
        }
    }
    let at = text::offset_in(&a.text, path).map(|o| a.content_start + o);
    add(path, at, anchor);
}

/// Calls `add` with the source directory of each `add_subdirectory()`, as written (its binary
/// directory, a build path, is not read): where `--rename torch` moved it whole, it follows
/// (verify8 regression 1).
pub(crate) fn subdirectories(src: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    for cmd in commands(src) {
        if cmd.name != "add_subdirectory" {
            continue;
        }
        if let Some(a) = cmd.args.first() {
            add_anchored(a, a.text.trim(), add);
        }
    }
}

/// State carried through one file.
struct State<'a> {
    src: &'a str,
    opts: &'a BuildOptions,
    renames: Vec<(String, String)>,
    /// For a `*.cmake` file: the renames as seen from each directory above it, nearest first
    /// (an `include()`d file's relative source paths resolve against the including
    /// CMakeLists.txt's directory, which this file does not know).
    ancestor_renames: Vec<Vec<(String, String)>>,
    /// The renames from the top of the tree, for `${CMAKE_SOURCE_DIR}/...`.
    root_renames: Vec<(String, String)>,
    /// Moved directories, as seen from this file.
    dirs: Vec<(String, String)>,
    exts: std::collections::BTreeMap<String, String>,
    cuda_lang: bool,
    /// Where the `find_package(hip)` block goes: a command to replace, or a point to insert at.
    block: Option<(usize, usize, bool)>,
    packages: BTreeSet<&'static str>,
    has_targets: bool,
    gpu_sources: bool,
    /// Targets this file defines, by name: whether each is linked on its own (an executable or
    /// a shared or module library) rather than archived into whatever links it.
    linked: std::collections::BTreeMap<String, bool>,
    /// `(target, command)` pairs that already pass `-fgpu-rdc` (`target_compile_options` or
    /// `target_link_options`): a translated file is not given them again.
    rdc_done: BTreeSet<(String, String)>,
    /// The command being translated (an index into the file's commands).
    current: usize,
    /// The first command that names a HIP library target (see [`State::uses_library`]).
    first_library_use: Option<usize>,
    /// Whether a `hip::` target of the `hip` package itself (`hip::host`) replaced a name.
    hip_targets: bool,
    /// Whether a command passes `${CUDA_NVCC_FLAGS}` on (see [`nvcc_flags_variable`]).
    nvcc_flags_read: bool,
    /// Whether the file uses FindCUDA (`find_package(CUDA)`, `cuda_add_*()`, `cuda_compile*()`).
    findcuda_macros: bool,
    /// Whether `CUDA_NVCC_FLAGS` was reported in this file.
    nvcc_flags_reported: bool,
    /// Whether the AMD targets were written (or reported) in a `CUDA_NVCC_FLAGS` that nothing
    /// reads (see [`nvcc_flags_dead`]): its later architecture flags go without a note (R19-1).
    dead_nvcc_arch: std::cell::Cell<bool>,
    /// V18-b: variables of `find_library()` commands dropped because no source uses the
    /// library they find (`find_library(CUDNN_LIB cudnn)`): their links go too.
    dropped_library_vars: BTreeSet<String>,
    /// The architecture variables the file sets and reads, each with its first reader (line,
    /// command): their `set()` stays (see [`architecture_readers`]).
    arch_readers: std::collections::BTreeMap<String, (usize, String)>,
    /// The kept architecture variables reported so far.
    arch_reported: BTreeSet<String>,
    /// The toolchain variables (see [`TOOLCHAIN_VARS`]) the file `set()`s: that `set()` is
    /// reported, the `if()` testing them around it is not again (R22-3).
    toolchain_set: BTreeSet<String>,
    /// The CUDA standard variables left as they are (see [`cuda_std_kept`]).
    cuda_std_kept: BTreeSet<&'static str>,
    /// Whether CUDA is optional here (see [`cuda_optional`]): HIP is then looked for, not required.
    optional: bool,
    /// R38-a: variables that reach `project()` / `enable_language()` (`project(x ${langs})`)
    /// and that a `set()` / `list()` gives the `CUDA` language, each with whether one of
    /// those commands gives it `CXX` as well (see [`language_variables`]).
    cuda_lang_vars: std::collections::BTreeMap<String, bool>,
    /// The `cuda_add_*()` commands (indices into the file's commands): where nothing else says
    /// where the `find_package(hip)` block goes, it goes under the condition they share.
    gpu_targets: Vec<usize>,
    /// Packages a rewritten `find_package()` finds now (`find_package(CCCL)` finds rocthrust and
    /// hipcub): none is found again for the targets that need it.
    provided: BTreeSet<&'static str>,
    /// Whether the file compiles CUDA code (see [`compiles_cuda`]): a file that only links CUDA
    /// libraries (a host program linking `CUDA::cudart`) gets `find_package(hip)` alone, not
    /// the compiler check, `GPU_TARGETS`, `hip::device` and the code appended for HIP sources.
    device_code: bool,
    /// R50-g: the variables a custom command or `execute_process()` reads (`COMMAND nvcc
    /// ${GENCODE} ...`): their architecture flags reach a compiler run by hand, which no
    /// `hip::device` gives targets to.
    custom_vars: BTreeSet<String>,
    /// R50-g: the variables whose values reach targets' compile options, here or in the CMake
    /// files below this one (see [`compile_option_vars`]).
    compile_vars: BTreeSet<String>,
    /// The commands inside a `foreach()` (indices): their architecture flags are
    /// [`loop_arch_flags_once`]'s.
    in_loop: BTreeSet<usize>,
}

impl State<'_> {
    /// Records that the current command now names `lib`'s HIP target: the file must find its
    /// package (or, for `hip::host` and the like, `hip`) before that command.
    fn uses_library(&mut self, lib: &HipTarget) {
        match lib.package {
            Some(p) => {
                self.packages.insert(p);
            }
            None if lib.target.starts_with("hip::") => self.hip_targets = true,
            None => return,
        }
        self.first_library_use.get_or_insert(self.current);
    }

    /// What replaces `lib` for the target HIP release (see [`hip_target`]).
    fn hip_target(&self, lib: &flags::Library) -> HipTarget {
        hip_target(lib, self.opts.hip_version)
    }
}

/// A CMake target that replaces a CUDA library, with the package that provides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct HipTarget {
    /// The imported target (`roc::hipblas`, `hip::host`).
    target: &'static str,
    /// The package to find for it (`None`: the `hip` package's own target).
    package: Option<&'static str>,
    /// The library file's link name, for `find_library()`.
    link: &'static str,
}

/// The first HIP release that ships hipRTC as a library of its own with a CMake package
/// (`libhiprtc.so`, `find_package(hiprtc)`, `hiprtc::hiprtc`). ROCm 5.1's release notes announced
/// the separation of libhiprtc from libamdhip64; HIP 6.x's hipRTC guide ("Deprecation notice")
/// says hipRTC is available as a separate library, libhiprtc.so, its symbols also kept in
/// libamdhip64 for existing applications (Debian packages it as libhiprtc6); HIP 6.4's CHANGELOG
/// ("Upcoming changes") and the HIP 7.0 changes remove them from libamdhip64: an application
/// using hipRTC must link libhiprtc. HIP 5.2.3 (Debian) has no libhiprtc.so: hipRTC is in
/// libamdhip64 there, which `hip::host` links.
const HIPRTC_LIBRARY_FROM: Version = Version::new(6, 0, 0);

/// The CMake target, package and link name that replace `lib` for the target HIP release `hip`:
/// NVRTC becomes `hiprtc::hiprtc` (package `hiprtc`, `libhiprtc`) from
/// [`HIPRTC_LIBRARY_FROM`] on, and the HIP runtime (`hip::host`, `libamdhip64`) before; other
/// libraries are [`flags::LIBRARIES`]' rows.
fn hip_target(lib: &flags::Library, hip: Version) -> HipTarget {
    if lib.cuda.starts_with("nvrtc") {
        return if hip >= HIPRTC_LIBRARY_FROM {
            HipTarget {
                target: "hiprtc::hiprtc",
                package: Some("hiprtc"),
                link: "hiprtc",
            }
        } else {
            HipTarget {
                target: "hip::host",
                package: None,
                link: "amdhip64",
            }
        };
    }
    HipTarget {
        target: lib.cmake_hip,
        package: lib.package,
        link: lib.hip.unwrap_or("amdhip64"),
    }
}

/// Why NVRTC becomes what it does for the target HIP release (see [`hip_target`]), for the
/// help of its finding; `None` for other libraries.
fn hiprtc_help(lib: &flags::Library, hip: Version) -> Option<String> {
    if !lib.cuda.starts_with("nvrtc") {
        return None;
    }
    Some(if hip >= HIPRTC_LIBRARY_FROM {
        format!("HIP {hip} ships hipRTC as libhiprtc (find_package(hiprtc)); HIP 7.0 removed its functions from libamdhip64")
    } else {
        format!("HIP {hip} has hipRTC's functions in libamdhip64, which hip::host links (libhiprtc is its own library from HIP 6.0)")
    })
}

/// Translates a CMake file.
pub(crate) fn translate(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    let kept = cuda_std_kept(src, sink.file(), opts);
    translate_keeping(src, sink, opts, kept);
    loop_arch_flags_once(src, sink, opts);
}

/// R38 (fast_rnnt): an architecture flag of a `foreach` loop's variable
/// (`foreach(A ${ARCHS})` around `string(APPEND CMAKE_CUDA_FLAGS " -gencode
/// arch=compute_${A},code=sm_${A}")`), rewritten to the AMD targets, adds them once per
/// iteration. After the loop, the variable loses every copy and gets them once: `string(REPLACE
/// ...)` and `string(APPEND ...)` for a string (`string(APPEND V ...)`, `set(V "${V} ...")`),
/// `list(REMOVE_ITEM ...)` and `list(APPEND ...)` for a list (`list(APPEND V ...)`, and V18-e's
/// `set(V ${V} ...)`).
fn loop_arch_flags_once(src: &str, sink: &mut Sink, opts: &BuildOptions) {
    if !src.contains("foreach") || opts.offload_arch.is_empty() {
        return;
    }
    let cmds = commands(src);
    let flags: Vec<String> = opts
        .offload_arch
        .iter()
        .map(|a| format!("--offload-arch={a}"))
        .collect();
    let mut open: Vec<usize> = Vec::new();
    for (j, cmd) in cmds.iter().enumerate() {
        match cmd.name.as_str() {
            "foreach" => {
                open.push(j);
                continue;
            }
            "endforeach" => {
                open.pop();
                continue;
            }
            _ => {}
        }
        let Some(&f) = open.last() else { continue };
        let Some(var) = cmds[f].args.first().map(|a| format!("${{{}}}", a.text)) else {
            continue;
        };
        // The command that appends to a variable, and how.
        let (name, list) = match (cmd.name.as_str(), cmd.args.first(), cmd.args.get(1)) {
            ("string", Some(op), Some(v)) if op.text == "APPEND" => (v.text.as_str(), false),
            ("list", Some(op), Some(v)) if op.text == "APPEND" => (v.text.as_str(), true),
            // V18-e: `set(V "${V} -gencode ...")` appends to a string; `set(V ${V} -gencode
            // ...)` (or `"${V}"` as an argument of its own) to a `;`-list.
            ("set", Some(v), Some(value))
                if value.text.starts_with(&format!("${{{}}}", v.text)) =>
            {
                let string = value.quoted && value.text != format!("${{{}}}", v.text);
                (v.text.as_str(), !string)
            }
            _ => continue,
        };
        let arch_of_loop = cmd.args.iter().any(|a| {
            a.text.contains(&var)
                && (a.text.contains("arch=") || a.text.contains("code=") || a.text.contains("sm_"))
        });
        // Rewritten: the note that names the AMD targets is on this command.
        let rewritten = sink.diagnostics().iter().any(|d| {
            d.id == B_ARCH.id
                && d.offset >= cmd.start
                && d.offset < cmd.end
                && d.message.contains("-> `--offload-arch=")
        });
        if !arch_of_loop || !rewritten {
            continue;
        }
        // After the `endforeach()` that closes this loop.
        let mut depth = 0usize;
        let Some(end) = cmds[j..].iter().find(|c| match c.name.as_str() {
            "foreach" => {
                depth += 1;
                false
            }
            "endforeach" if depth == 0 => true,
            "endforeach" => {
                depth -= 1;
                false
            }
            _ => false,
        }) else {
            continue;
        };
        let line_start = src[..cmds[f].start].rfind('\n').map_or(0, |p| p + 1);
        let indent: String = src[line_start..cmds[f].start]
            .chars()
            .take_while(|c| c.is_ascii_whitespace())
            .collect();
        let joined = flags.join(" ");
        // V19-f: a quoted list element that is one `-gencode=arch=...,code=...` word became
        // one element holding every target (`"--offload-arch=gfx90a --offload-arch=gfx1030"`),
        // which `list(REMOVE_ITEM)` cannot match: the targets become elements of their own.
        if list && flags.len() > 1 {
            let first = if cmd.name == "set" { 1 } else { 2 };
            for a in cmd.args.iter().skip(first).filter(|a| {
                a.quoted
                    && a.text.contains(&var)
                    && !a.text.trim().contains(char::is_whitespace)
                    && (a.text.contains("arch=") || a.text.contains("sm_"))
            }) {
                sink.edit_over(a.start, a.end, joined.clone(), B_ARCH.id);
            }
        }
        let text = if list {
            format!("\n{indent}# hipport: the loop added the AMD targets once per iteration.\n{indent}list(REMOVE_ITEM {name} {joined})\n{indent}list(APPEND {name} {joined})")
        } else {
            format!("\n{indent}# hipport: the loop added the AMD targets once per iteration.\n{indent}string(REPLACE \" {joined}\" \"\" {name} \"${{{name}}}\")\n{indent}string(APPEND {name} \" {joined}\")")
        };
        if sink.insert_after(end.end, &text, B_ARCH.id) {
            sink.diag(
                B_ARCH,
                cmds[f].start,
                format!("the AMD targets this loop adds to `{name}` once per iteration are kept once, after the loop"),
                None,
            );
        }
    }
}

/// The variables of the CUDA standard (`CMAKE_CUDA_STANDARD`, `..._REQUIRED`,
/// `CMAKE_CUDA_EXTENSIONS`) that keep their names: those whose C++ counterpart the file names
/// itself (`set(CMAKE_CXX_STANDARD 17)`), which the CUDA one must not clobber. The C++ name is
/// looked for in the file as translated with the CUDA names kept, so that a mention the
/// translation rewrites away (`-arch=sm_CMAKE_CXX_STANDARD`) counts on neither run.
fn cuda_std_kept(src: &str, file: &str, opts: &BuildOptions) -> BTreeSet<&'static str> {
    let mentions = |text: &str, name: &str| {
        text.match_indices(name).any(|(p, _)| {
            (p == 0 || !is_ident(text.as_bytes()[p - 1]))
                && text
                    .as_bytes()
                    .get(p + name.len())
                    .is_none_or(|&c| !is_ident(c))
        })
    };
    let candidates: BTreeSet<&'static str> = RENAMED_VARS
        .iter()
        .filter(|(old, new)| {
            (old.starts_with("CMAKE_CUDA_STANDARD") || old.starts_with("CMAKE_CUDA_EXTENSIONS"))
                && src.contains(old)
                && mentions(src, new)
        })
        .map(|(old, _)| *old)
        .collect();
    if candidates.is_empty() {
        return candidates;
    }
    let mut scratch = Sink::new(src.as_bytes(), file);
    translate_keeping(src, &mut scratch, opts, candidates.clone());
    let (mut edits, _) = scratch.finish();
    let Ok(out) = crate::edit::apply(src.as_bytes(), &mut edits) else {
        return candidates;
    };
    let out = String::from_utf8_lossy(&out);
    candidates
        .into_iter()
        .filter(|old| {
            RENAMED_VARS
                .iter()
                .any(|(o, new)| o == old && mentions(&out, new))
        })
        .collect()
}

/// Translates a CMake file, leaving the CUDA standard variables of `cuda_std_kept` as they are.
fn translate_keeping(
    src: &str,
    sink: &mut Sink,
    opts: &BuildOptions,
    cuda_std_kept: BTreeSet<&'static str>,
) {
    let mut st = State {
        cuda_std_kept,
        src,
        opts,
        renames: text::renames_from(sink.file(), &opts.renamed),
        ancestor_renames: if sink.file().ends_with(".cmake") {
            let mut dir = text::dir_of(sink.file());
            let mut out = Vec::new();
            while !dir.is_empty() {
                dir = text::dir_of(dir);
                let probe = if dir.is_empty() {
                    "_".to_string()
                } else {
                    format!("{dir}/_")
                };
                out.push(text::renames_from(&probe, &opts.renamed));
            }
            out
        } else {
            Vec::new()
        },
        root_renames: opts
            .renamed
            .iter()
            .map(|(o, n)| (o.clone(), n.clone()))
            .collect(),
        dirs: text::dir_renames_from(sink.file(), &opts.renamed),
        exts: text::extension_map(&opts.renamed),
        cuda_lang: false,
        block: None,
        packages: BTreeSet::new(),
        has_targets: false,
        gpu_sources: false,
        linked: Default::default(),
        rdc_done: BTreeSet::new(),
        current: 0,
        first_library_use: None,
        hip_targets: false,
        nvcc_flags_read: false,
        findcuda_macros: false,
        nvcc_flags_reported: false,
        dead_nvcc_arch: std::cell::Cell::new(false),
        dropped_library_vars: BTreeSet::new(),
        arch_readers: Default::default(),
        arch_reported: BTreeSet::new(),
        toolchain_set: BTreeSet::new(),
        optional: false,
        gpu_targets: Vec::new(),
        provided: BTreeSet::new(),
        device_code: false,
        custom_vars: BTreeSet::new(),
        compile_vars: BTreeSet::new(),
        in_loop: BTreeSet::new(),
        cuda_lang_vars: Default::default(),
    };
    let cmds = commands(src);
    st.cuda_lang_vars = language_variables(&cmds);
    st.optional = cuda_optional(&cmds);
    st.arch_readers = architecture_readers(src, &cmds);
    st.toolchain_set = cmds
        .iter()
        .filter(|c| c.name == "set")
        .filter_map(|c| c.args.first())
        .filter(|a| TOOLCHAIN_VARS.contains(&a.text.as_str()))
        .map(|a| a.text.clone())
        .collect();
    st.nvcc_flags_read = cmds.iter().any(reads_nvcc_flags);
    st.device_code = compiles_cuda(&cmds);
    st.custom_vars = cmds
        .iter()
        .filter(|c| {
            matches!(
                c.name.as_str(),
                "add_custom_command" | "add_custom_target" | "execute_process"
            )
        })
        .flat_map(|c| c.args.iter())
        .flat_map(|a| {
            a.text
                .match_indices("${")
                .filter_map(|(p, _)| {
                    let rest = &a.text[p + 2..];
                    rest.find('}').map(|e| rest[..e].to_string())
                })
                .collect::<Vec<_>>()
        })
        .collect();
    if st.device_code && arch_flags_named(src.as_bytes()) {
        let mut texts = vec![src.to_string()];
        if src.contains("add_subdirectory") {
            texts.extend(cmake_files_below(sink.file(), opts.tree_root.as_deref()));
        }
        st.compile_vars = compile_option_vars(&texts);
    }
    let mut depth = 0usize;
    for (i, c) in cmds.iter().enumerate() {
        match c.name.as_str() {
            "foreach" => depth += 1,
            "endforeach" => depth = depth.saturating_sub(1),
            _ if depth > 0 => {
                st.in_loop.insert(i);
            }
            _ => {}
        }
    }
    st.findcuda_macros = cmds.iter().any(|c| {
        c.name.starts_with("cuda_add_")
            || c.name.starts_with("cuda_compile")
            || c.name == "cuda_wrap_srcs"
            || (c.name == "find_package" && c.args.first().is_some_and(|a| a.text == "CUDA"))
    });
    // R36-c: targets made by a function or macro that this file calls, defined in a `.cmake`
    // file it includes (CUDALibrarySamples' `add_cublas_example()`).
    if st.opts.tree_root.is_some()
        && st.device_code
        && !cmds.iter().any(makes_target)
        && cmds.iter().any(|c| c.name == "include")
    {
        let (makers, unresolved) = helper_target_makers(src, sink.file(), &cmds, st.opts);
        // An included file outside the tree (`include(../../cmake/helpers.cmake)` where only
        // the sample was given): a command it may define that names a `.cu` source may make
        // a target. The epilogue does nothing where none does.
        let unknown_maker = |c: &Command| {
            unresolved
                && !CMAKE_FILE_COMMANDS.contains(&c.name.as_str())
                && !c.name.starts_with("target_")
                && !c.name.starts_with("cuda_")
                && c.args.iter().any(|a| {
                    a.text
                        .split(|c: char| c == ';' || c.is_whitespace())
                        .any(|p| p.ends_with(".cu"))
                })
        };
        if cmds
            .iter()
            .any(|c| makers.contains(&c.name) || unknown_maker(c))
        {
            st.has_targets = true;
        }
    }
    for c in &cmds {
        let Some(name) = c.args.first() else { continue };
        match c.name.as_str() {
            "add_executable" | "cuda_add_executable" => {
                st.linked.insert(name.text.clone(), true);
            }
            "add_library" => {
                let kind = c.args.get(1).map_or("", |a| a.text.as_str());
                st.linked
                    .insert(name.text.clone(), matches!(kind, "SHARED" | "MODULE"));
            }
            // A Python module is a MODULE (or SHARED) library unless said STATIC.
            n if PACKAGE_TARGET_MAKERS.contains(&n) => {
                let kind = c.args.get(1).map_or("", |a| a.text.as_str());
                st.linked.insert(name.text.clone(), kind != "STATIC");
            }
            // FindCUDA takes its keywords anywhere among the sources.
            "cuda_add_library" => {
                let shared = c.args[1..]
                    .iter()
                    .any(|a| arg_is(a, "SHARED") || arg_is(a, "MODULE"));
                st.linked.insert(name.text.clone(), shared);
            }
            "target_compile_options" | "target_link_options"
                if c.args.iter().any(|a| a.text == "-fgpu-rdc") =>
            {
                st.rdc_done.insert((name.text.clone(), c.name.clone()));
            }
            _ => {}
        }
    }
    // R22-f: OpenMP in a project whose CUDA now builds as HIP. With hipcc as the C++ compiler
    // (`-DCMAKE_CXX_COMPILER=hipcc`), FindOpenMP asks hipcc's clang, which finds `omp.h` and
    // libomp only where ROCm's OpenMP runtime is installed (ROCm/hip#3069: `hipcc -fopenmp`
    // says "'omp.h' file not found" until rocm-openmp-sdk / openmp-extras is installed).
    if st.device_code {
        if let Some(c) = cmds.iter().find(|c| {
            c.name == "find_package" && c.args.first().is_some_and(|a| a.text == "OpenMP")
        }) {
            sink.diag_as(
                B_CONSTRUCT,
                crate::diag::Severity::Note,
                c.start,
                "OpenMP: where hipcc compiles the project's C++ (`CMAKE_CXX_COMPILER=hipcc`), FindOpenMP tests hipcc's clang, which needs ROCm's OpenMP runtime (omp.h, libomp) to pass".into(),
                Some("install ROCm's OpenMP package (openmp-extras, rocm-openmp-sdk), which puts omp.h and libomp beside hipcc's clang; without it: \"Could NOT find OpenMP_CXX\"".into()),
            );
        }
    }
    let kept = hip_guarded_branches(&cmds);
    for &(header, from, to) in &kept {
        let (start, end) = (cmds[from].start, cmds[to - 1].end);
        let body = &src[start..end];
        if body.contains("CUDA") || body.contains(".cu") {
            let line = src[..cmds[header].start].matches('\n').count() + 1;
            sink.diag(
                B_LANGUAGE,
                start,
                format!(
                    "CUDA build left as it is: this branch runs only when the project's own HIP path (the `{}()` on line {line}) is not taken",
                    cmds[header].name
                ),
                Some("build with the project's HIP path; to port the CUDA branch instead, remove the HIP test and convert again".into()),
            );
        }
    }
    // A file that ends inside a command (an unbalanced parenthesis, an unterminated quote or
    // bracket) is one CMake cannot read. That command is left as it is: what was inserted after
    // it (or appended at the end of the file) would become its arguments, and the next run
    // would read them as such.
    let unclosed = cmds.last().filter(|c| !c.closed);
    let open_comment = unclosed.is_none() && ends_in_bracket_comment(src, &cmds);
    if open_comment {
        sink.diag(
            B_CONSTRUCT,
            src.len(),
            "the file ends inside a bracket comment (`#[[` without `]]`): nothing is added at its end".into(),
            Some("close the comment and convert again".into()),
        );
    }
    if let Some(c) = unclosed {
        sink.diag(
            B_CONSTRUCT,
            c.start,
            format!(
                "the file ends inside `{}(`, which CMake cannot read: the command is left as it is",
                c.name
            ),
            Some("close the command (its parenthesis, quote or bracket) and convert again".into()),
        );
    }
    for i in 0..cmds.len() {
        // A test of the project's own HIP path stays as written: rewritten, it might no longer
        // read as one to the next run.
        if !cmds[i].closed || kept.iter().any(|&(header, _, _)| header == i) {
            continue;
        }
        if kept.iter().any(|&(_, from, to)| (from..to).contains(&i)) {
            // Renamed sources are no longer under their old names: paths follow.
            for a in cmds[i].args.iter().filter(|a| !a.bracket) {
                for (s, e, new) in renamed_sources(&st, &a.text) {
                    sink.edit(a.content_start + s, a.content_start + e, new, B_GLOB.id);
                }
            }
            continue;
        }
        st.current = i;
        command(&mut st, sink, &cmds[i]);
        let tested = cuda_version_tests(src, sink, &cmds, i, nvcc_flags_dead(&st));
        general(&mut st, sink, &cmds[i], &tested);
        drop_emptied(src, sink, &cmds[i]);
        drop_emptied_items(src, sink, &cmds[i]);
    }
    if nvcc_flags_dead(&st) {
        drop_emptied_ifs(src, sink, &cmds);
    }
    drop_dropped_library_guards(src, sink, &cmds, &st.dropped_library_vars);
    // The block must come before the first target compiled from CUDA sources: `link_libraries()`
    // reaches only the targets made after it, and `find_package(CUDAToolkit)` may follow the
    // targets (its imported targets resolve at generate time). A target made before the block
    // gets no `hip::device`: hipcc compiles it for its default architecture alone (R22-i).
    let mut before_target = None;
    if let (true, Some(t), Some((start, end, replace))) =
        (st.cuda_lang, first_cuda_target(&cmds), st.block)
    {
        if start > cmds[t].start {
            let f = cmds
                .iter()
                .position(|c| c.start <= start && start <= c.end)
                .unwrap_or(t);
            let (tc, fc) = (block_openers(&cmds, t), block_openers(&cmds, f));
            let common = tc.iter().zip(&fc).take_while(|(a, b)| a == b).count();
            let at = tc.get(common).copied().unwrap_or(t);
            // Not above a `project()`: HIP is found in a project (a target before it is odd).
            if !cmds[at..=f].iter().any(|c| c.name == "project") {
                if replace {
                    // The package is found again where it was: nothing there changes.
                    let text = if st.optional {
                        let indent = indentation(src, start);
                        format!("if({HIPCC_COMPILER})\n{indent}  {OPTIONAL_HIP}\n{indent}endif()")
                    } else {
                        "find_package(hip REQUIRED)".to_string()
                    };
                    sink.edit_over(start, end, text, B_LANGUAGE.id);
                }
                before_target = Some(indentation(src, cmds[at].start));
                let at = line_start_before(src, cmds[at].start);
                st.block = Some((at, at, false));
            }
        }
    }
    if st.cuda_lang {
        // With no `project()` or `find_package(CUDA)` to hold it, the block opens the file
        // (after a byte-order mark), a line of its own: `\n` before it there would glue it to
        // the file's first command, which CMake does not read.
        let opening = usize::from(src.starts_with('\u{feff}')) * '\u{feff}'.len_utf8();
        // Nothing names the CUDA language or package, but targets use FindCUDA's macros (a
        // subdirectory's file): the block goes under the condition they share, so that a build
        // that skips them (`if(USE_CUDA)` off, a CPU build with g++) still configures.
        let shared = st
            .block
            .is_none()
            .then(|| {
                // A HIP library target named outside the branch is found outside it too.
                let mut inner = st.gpu_targets.clone();
                inner.extend(st.first_library_use);
                inner.sort_unstable();
                shared_branch(&cmds, &inner)
            })
            .flatten();
        if let Some(b) = shared {
            st.block = Some((cmds[b].end, cmds[b].end, false));
        }
        let (start, end, replace) = st.block.unwrap_or((opening, opening, false));
        let indent = match (shared, &before_target) {
            (Some(b), _) => branch_indentation(src, &cmds, b),
            (None, Some(i)) => i.clone(),
            (None, None) => indentation(src, start),
        };
        let targets = format!(
            "set(GPU_TARGETS \"{}\" CACHE STRING \"AMD GPU targets to compile for\")",
            st.opts.offload_arch.join(";")
        );
        // Sources that include Thrust (R21-f): on ROCm it is rocThrust, a package of its own
        // (on rocPRIM), where the CUDA toolkit held it; the device code links it as it links
        // hip::device. Not where the file already names it (or CCCL, whose targets become it).
        let thrust = st.device_code
            && st.opts.thrust_sources
            && super::thrust_note_candidate(src.as_bytes());
        // Both where the sources include Thrust and CUB (V16-c): rocThrust ships no CUB.
        if thrust {
            if !st.opts.cub_only {
                st.packages.insert("rocthrust");
            }
            if st.opts.cub_only || st.opts.cub_too {
                st.packages.insert("hipcub");
            }
        }
        let device_libraries = match (thrust, st.opts.cub_only, st.opts.cub_too) {
            (true, false, false) => "link_libraries(hip::device roc::rocthrust)",
            (true, false, true) => "link_libraries(hip::device roc::rocthrust hip::hipcub)",
            (true, true, _) => "link_libraries(hip::device hip::hipcub)",
            (false, _, _) => "link_libraries(hip::device)",
        };
        let packages = st
            .packages
            .iter()
            .filter(|p| !finds_package(&cmds, p) && !st.provided.contains(*p))
            .map(|p| format!("find_package({p} REQUIRED)"));
        let mut lines = vec![targets];
        if !st.device_code {
            // Host code linking HIP libraries: any C++ compiler, no device code. GPU_TARGETS
            // stays: the first find_package(hip) of the configure step fixes the targets that
            // hip::device compiles for in every directory.
            lines.push(if st.optional {
                OPTIONAL_HIP.to_string()
            } else {
                "find_package(hip REQUIRED)".to_string()
            });
            let packages: Vec<String> = packages.collect();
            if st.optional && !packages.is_empty() {
                lines.push("if(hip_FOUND)".to_string());
                lines.extend(packages.into_iter().map(|p| format!("  {p}")));
                lines.push("endif()".to_string());
            } else {
                lines.extend(packages);
            }
        } else if st.optional {
            // Built without CUDA before when it was not found: built without HIP now when hipcc
            // is not the compiler or the package is missing, and with it otherwise.
            lines.extend(nvcc_dialect(&st, sink, start));
            lines.extend([
                format!("if({HIPCC_COMPILER})"),
                format!("  {OPTIONAL_HIP}"),
                "endif()".to_string(),
                "if(hip_FOUND)".to_string(),
            ]);
            lines.extend(packages.map(|p| format!("  {p}")));
            lines.extend([
                format!("  {device_libraries}"),
                "else()".to_string(),
                "  message(STATUS \"Building without HIP: it needs the hip package and -DCMAKE_CXX_COMPILER=hipcc\")".to_string(),
                "endif()".to_string(),
            ]);
        } else {
            lines.extend([
                format!("if(NOT {HIPCC_COMPILER})"),
                "  message(FATAL_ERROR \"HIP sources compile as CXX: configure with -DCMAKE_CXX_COMPILER=hipcc\")".to_string(),
                "endif()".to_string(),
            ]);
            lines.extend(nvcc_dialect(&st, sink, start));
            lines.extend(["find_package(hip REQUIRED)".to_string()]);
            lines.extend(packages);
            lines.push(device_libraries.to_string());
        }
        let body = lines.join(&format!("\n{indent}"));
        if replace {
            // The package's arguments go with it, with what was rewritten in them.
            sink.edit_over(start, end, body, B_LANGUAGE.id);
        } else if before_target.is_some() {
            sink.insert_after(start, &format!("{indent}{body}\n"), B_LANGUAGE.id);
        } else if st.block.is_none() {
            sink.insert_after(start, &format!("{body}\n"), B_LANGUAGE.id);
        } else if start == end {
            // At the very end of the file (after a last `project()` with no newline) the
            // epilogue follows it there.
            sink.insert_after(start, &format!("\n{indent}{body}"), B_LANGUAGE.id);
        } else {
            sink.edit(start, end, format!("\n{indent}{body}"), B_LANGUAGE.id);
        }
    }
    if !st.cuda_lang {
        find_library_packages(&st, sink, &cmds);
    }
    let epilogue_due = st.has_targets
        && ((st.cuda_lang && st.device_code) || st.gpu_sources)
        && unclosed.is_none()
        && !open_comment
        && !cmds.iter().any(|c| {
            c.name == "get_property" && c.args.first().is_some_and(|a| a.text == "_hipport_targets")
        });
    if epilogue_due {
        let nl = if src.ends_with('\n') || src.is_empty() {
            ""
        } else {
            "\n"
        };
        let properties = cuda_properties_possible(src, sink, &cmds);
        let mut tail = format!("{nl}\n{}", epilogue(&st.exts, properties));
        if st.opts.warp_sync_define {
            tail.push_str(WARP_SYNC_DEFINE);
        }
        // After what else ends the file (options after a last command with no newline).
        sink.insert_after(src.len(), &tail, B_LANGUAGE.id);
    }
}

/// Whether CMake file text `src` may read the files it includes for functions that make
/// targets (R36-c, see [`helper_target_makers`]): its result then depends on them.
pub(super) fn may_read_included_helpers(src: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(src, w).is_some();
    (has(b"include") || has(b"INCLUDE")) && (has(b"CUDA") || has(b".cu"))
}

/// CMake's own commands that take file names without making a target (see
/// [`helper_target_makers`]).
const CMAKE_FILE_COMMANDS: &[&str] = &[
    "set",
    "list",
    "file",
    "install",
    "configure_file",
    "set_source_files_properties",
    "set_property",
    "get_property",
    "source_group",
    "add_custom_command",
    "add_custom_target",
    "message",
    "string",
    "get_filename_component",
    "cmake_path",
    "foreach",
    "if",
    "elseif",
    "while",
    "option",
    "include",
    "add_subdirectory",
    "add_test",
    "get_source_file_property",
    "separate_arguments",
    "execute_process",
    "function",
    "macro",
    "return",
];

/// Whether a command makes a target.
fn makes_target(c: &Command) -> bool {
    matches!(
        c.name.as_str(),
        "add_executable" | "add_library" | "cuda_add_executable" | "cuda_add_library"
    ) || PACKAGE_TARGET_MAKERS.contains(&c.name.as_str())
}

/// The functions and macros (lowercased names) that make a target where they are called
/// (R36-c): those `cmds` define, and those the `.cmake` files it includes define, found in the
/// tree (relative to this file's directory, `${CMAKE_CURRENT_SOURCE_DIR}`,
/// `${CMAKE_CURRENT_LIST_DIR}`, `${PROJECT_SOURCE_DIR}` or `${CMAKE_SOURCE_DIR}`, read as this
/// file's directory or the tree's root; a module named without a path, `include(helpers)`, as
/// `helpers.cmake` anywhere in the tree), and the files those include in turn. A function that
/// calls another such function makes targets too. An included file that makes a target
/// outside a function makes it in the including directory: `include` is then one.
/// Also whether an `include()` names a file (by path) that is not in the tree.
fn helper_target_makers(
    src: &str,
    file: &str,
    cmds: &[Command],
    opts: &BuildOptions,
) -> (BTreeSet<String>, bool) {
    let Some(root) = opts.tree_root.as_deref() else {
        return (BTreeSet::new(), false);
    };
    let mut unresolved = false;
    let dir = root.join(text::dir_of(file));
    let mut bodies: Vec<(String, Vec<String>)> = Vec::new();
    let mut top_level = false;
    collect_definitions(cmds, &mut bodies, &mut None);
    let mut queue: Vec<(std::path::PathBuf, u32)> =
        included_files(src, cmds, &dir, root, &mut unresolved)
            .into_iter()
            .map(|p| (p, 0))
            .collect();
    let mut seen: BTreeSet<std::path::PathBuf> = BTreeSet::new();
    while let Some((path, depth)) = queue.pop() {
        if seen.len() >= 32 || !seen.insert(path.clone()) {
            continue;
        }
        let Some(text) = std::fs::metadata(&path)
            .ok()
            .filter(|m| m.is_file() && m.len() <= 1 << 20)
            .and_then(|_| std::fs::read_to_string(&path).ok())
        else {
            continue;
        };
        let inner = commands(&text);
        let mut outside = Some(false);
        collect_definitions(&inner, &mut bodies, &mut outside);
        top_level |= outside == Some(true);
        if depth < 3 {
            let here = path.parent().map_or(dir.clone(), |p| p.to_path_buf());
            for p in included_files(&text, &inner, &here, root, &mut unresolved) {
                queue.push((p, depth + 1));
            }
        }
    }
    let mut makers: BTreeSet<String> = BTreeSet::new();
    if top_level {
        makers.insert("include".to_string());
    }
    // A function calling a maker is one: as deep as the chain.
    for _ in 0..8 {
        let before = makers.len();
        for (name, called) in &bodies {
            if called.iter().any(|c| {
                makers.contains(c)
                    || matches!(
                        c.as_str(),
                        "add_executable"
                            | "add_library"
                            | "cuda_add_executable"
                            | "cuda_add_library"
                    )
                    || PACKAGE_TARGET_MAKERS.contains(&c.as_str())
            }) {
                makers.insert(name.clone());
            }
        }
        if makers.len() == before {
            break;
        }
    }
    (makers, unresolved)
}

/// Adds each `function()`/`macro()` of `cmds` to `bodies`, with the commands its body calls.
/// `outside`, where given, becomes `Some(true)` when a command outside any definition makes a
/// target.
fn collect_definitions(
    cmds: &[Command],
    bodies: &mut Vec<(String, Vec<String>)>,
    outside: &mut Option<bool>,
) {
    let mut open: Option<(String, Vec<String>)> = None;
    let mut depth = 0usize;
    for c in cmds {
        match c.name.as_str() {
            "function" | "macro" => {
                if depth == 0 {
                    let name = c.args.first().map_or("", |a| a.text.as_str());
                    open = Some((name.to_ascii_lowercase(), Vec::new()));
                }
                depth += 1;
            }
            "endfunction" | "endmacro" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    bodies.extend(open.take());
                }
            }
            _ => match open.as_mut() {
                Some((_, called)) => called.push(c.name.clone()),
                None => {
                    if makes_target(c) {
                        if let Some(o) = outside.as_mut() {
                            *o = true;
                        }
                    }
                }
            },
        }
    }
}

/// The files in the tree (under `root`) that the `include()` commands of `cmds` read, from a
/// CMake file in `dir`. `unresolved` becomes true where one names a `.cmake` file by a path
/// that is not found in the tree.
fn included_files(
    src: &str,
    cmds: &[Command],
    dir: &std::path::Path,
    root: &std::path::Path,
    unresolved: &mut bool,
) -> Vec<std::path::PathBuf> {
    // CMake's own modules (`CheckCXXCompilerFlag`, `GNUInstallDirs`) are named in CamelCase; a
    // project's module by name is looked for where the file sets a module path, or where its
    // name is not such.
    let module_path = src.contains("CMAKE_MODULE_PATH");
    let mut out = Vec::new();
    for c in cmds.iter().filter(|c| c.name == "include") {
        let Some(a) = c.args.first().filter(|a| !a.bracket) else {
            continue;
        };
        let t = a.text.trim();
        if t.is_empty() {
            continue;
        }
        let mut bases: Vec<(&str, Vec<&std::path::Path>)> = Vec::new();
        let mut rest = t;
        let mut from: Vec<&std::path::Path> = vec![dir];
        for (var, here) in [
            ("${CMAKE_CURRENT_SOURCE_DIR}", false),
            ("${CMAKE_CURRENT_LIST_DIR}", false),
            ("${PROJECT_SOURCE_DIR}", true),
            ("${CMAKE_SOURCE_DIR}", true),
        ] {
            if let Some(r) = t.strip_prefix(var) {
                rest = r.trim_start_matches('/');
                if here {
                    from = vec![dir, root];
                }
            }
        }
        if rest.contains('$') {
            *unresolved |= rest.ends_with(".cmake");
            continue;
        }
        bases.push((rest, from));
        for (rel, dirs) in bases {
            let named = rel.contains('/') || rel.ends_with(".cmake");
            if named {
                let found = out.len();
                for d in dirs {
                    let p = d.join(rel);
                    // Within the tree, with `..` read as written (no symbolic links followed).
                    let mut norm = std::path::PathBuf::new();
                    for part in p.components() {
                        match part {
                            std::path::Component::ParentDir => {
                                norm.pop();
                            }
                            std::path::Component::CurDir => {}
                            other => norm.push(other),
                        }
                    }
                    if norm.starts_with(root) && norm.is_file() {
                        out.push(norm);
                        break;
                    }
                }
                *unresolved |= out.len() == found && rel.ends_with(".cmake");
            } else if !rel.is_empty()
                && !rel.contains(['\\', '.'])
                && (module_path || !rel.starts_with(|c: char| c.is_ascii_uppercase()))
            {
                // A module by name: a CMake module (`include(CheckCXXCompilerFlag)`) is none of
                // the tree's; the tree's own is found where it is.
                let want = format!("{rel}.cmake");
                let mut budget = 20_000usize;
                crate::tree_walk::walk_files(root, usize::MAX, |path, _, _| {
                    budget = budget.saturating_sub(1);
                    if budget == 0 {
                        return std::ops::ControlFlow::Break(());
                    }
                    if path.file_name().is_some_and(|n| n == want.as_str()) {
                        out.push(path.to_path_buf());
                        return std::ops::ControlFlow::Break(());
                    }
                    std::ops::ControlFlow::Continue(())
                });
            }
        }
    }
    out
}

/// The `if()`/`elseif()`/`else()` whose branch holds every command of `inner` (indices into
/// `cmds`), the innermost such branch, when there is one; branches inside a `foreach`,
/// `while`, `function`, `macro` or `block` are not looked at (the block would run there again,
/// or not at all).
fn shared_branch(cmds: &[Command], inner: &[usize]) -> Option<usize> {
    // The branches open at each command, outermost first, up to the first other block.
    let mut open: Vec<(bool, usize)> = Vec::new();
    let mut chains: Vec<Vec<usize>> = Vec::new();
    let mut next = inner.iter().copied().peekable();
    for (j, c) in cmds.iter().enumerate() {
        if next.peek() == Some(&j) {
            next.next();
            chains.push(
                open.iter()
                    .take_while(|(is_if, _)| *is_if)
                    .map(|&(_, k)| k)
                    .collect(),
            );
        }
        match c.name.as_str() {
            "if" => open.push((true, j)),
            "elseif" | "else" => {
                if let Some(top) = open.last_mut().filter(|t| t.0) {
                    top.1 = j;
                }
            }
            "foreach" | "while" | "function" | "macro" | "block" => open.push((false, j)),
            "endif" | "endforeach" | "endwhile" | "endfunction" | "endmacro" | "endblock" => {
                open.pop();
            }
            _ => {}
        }
    }
    let first = chains.first()?;
    let common = (0..first.len())
        .take_while(|&d| chains.iter().all(|c| c.get(d) == first.get(d)))
        .count();
    common.checked_sub(1).map(|d| first[d])
}

/// The first `add_executable()`/`add_library()` that lists a CUDA source (`k.cu`, or one behind
/// a generator expression): the target that needs `hip::device` from the block (R22-i).
fn first_cuda_target(cmds: &[Command]) -> Option<usize> {
    cmds.iter().position(|c| {
        matches!(c.name.as_str(), "add_executable" | "add_library")
            && !c
                .args
                .iter()
                .any(|a| arg_is(a, "IMPORTED") || arg_is(a, "ALIAS"))
            && c.args
                .iter()
                .skip(1)
                .any(|a| !a.bracket && a.text.trim_end_matches('>').ends_with(".cu"))
    })
}

/// The commands that open the blocks (`if`, `foreach`, `while`, `function`, `macro`, `block`)
/// holding `cmds[i]`, outermost first; an `if` stands for its `elseif()`/`else()` branches too.
fn block_openers(cmds: &[Command], i: usize) -> Vec<usize> {
    let mut open: Vec<usize> = Vec::new();
    for (j, c) in cmds.iter().enumerate().take(i) {
        match c.name.as_str() {
            "if" | "foreach" | "while" | "function" | "macro" | "block" => open.push(j),
            "endif" | "endforeach" | "endwhile" | "endfunction" | "endmacro" | "endblock" => {
                open.pop();
            }
            _ => {}
        }
    }
    open
}

/// The start of `at`'s line when only blanks come before it there, else `at`.
fn line_start_before(src: &str, at: usize) -> usize {
    let line = src[..at].rfind('\n').map_or(0, |p| p + 1);
    if src[line..at].bytes().all(|b| b == b' ' || b == b'\t') {
        line
    } else {
        at
    }
}

/// The indentation of the commands in the branch that `cmds[b]` opens: that of its first
/// command, or two blanks more than its own where it has none.
fn branch_indentation(src: &str, cmds: &[Command], b: usize) -> String {
    match cmds.get(b + 1) {
        Some(c) if !matches!(c.name.as_str(), "elseif" | "else" | "endif") => {
            indentation(src, c.start)
        }
        _ => format!("{}  ", indentation(src, cmds[b].start)),
    }
}

/// Whether an `if()` argument names the project's own HIP path: a word with a `HIP` or `ROCM`
/// part (`HIP_FOUND`, `hip_FOUND`, `USE_HIP`, `WITH_ROCM`, `${CMAKE_HIP_COMPILER}`), not a
/// library's (`HIPBLAS_FOUND`).
fn names_hip_path(a: &Arg) -> bool {
    !a.bracket
        && a.text
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w.eq_ignore_ascii_case("HIP") || w.eq_ignore_ascii_case("ROCM"))
}

/// The branches of `if()`s that run only when the project's own HIP path is not taken:
/// `(header, first, end)` with the `if`/`elseif` whose condition names it and the command range
/// `first..end` of the branch. After `if(HIP_FOUND)` (or `if(USE_ROCM AND ...)`), those are
/// the `elseif()`/`else()` branches; after `if(NOT USE_HIP)` (`NOT` directly before the HIP word,
/// with `AND` only), the `if` body. A condition with `OR` is not read. hipport leaves such
/// branches as they are: the project builds for AMD GPUs through its own HIP path, and porting
/// the CUDA branch (its `project(... CUDA)`, the code appended for its sources) would change
/// the HIP path too.
fn hip_guarded_branches(cmds: &[Command]) -> Vec<(usize, usize, usize)> {
    let mut out: Vec<(usize, usize, usize)> = Vec::new();
    for (i, c) in cmds.iter().enumerate() {
        if !matches!(c.name.as_str(), "if" | "elseif")
            || out.iter().any(|&(_, from, to)| (from..to).contains(&i))
        {
            continue;
        }
        let args = &c.args;
        if args.iter().any(|a| !a.quoted && a.text == "OR") {
            continue;
        }
        let Some(k) = args.iter().position(names_hip_path) else {
            continue;
        };
        let negated = k > 0 && arg_is(&args[k - 1], "NOT");
        let (end, _) = branch(cmds, i);
        let Some(mut end) = end else { continue };
        if negated {
            if end > i + 1 {
                out.push((i, i + 1, end));
            }
            continue;
        }
        // Every later branch of this if(), to its endif().
        let first = end + 1;
        while cmds[end].name != "endif" {
            match branch(cmds, end).0 {
                Some(e) => end = e,
                None => break,
            }
        }
        if cmds[end].name == "endif" && end > first {
            out.push((i, first, end));
        }
    }
    out
}

/// Whether a file compiles CUDA code rather than only linking CUDA libraries: it enables the
/// CUDA language (`project(... CUDA)`, `enable_language(CUDA)`), uses FindCUDA's macros that
/// compile (`cuda_add_*()`, `cuda_compile*()`), names a `.cu` source or pattern (also inside a
/// generator expression or a `;`-list), makes a source `LANGUAGE CUDA`, or sets or reads CUDA
/// compile settings (`CMAKE_CUDA_*`, `CUDA_NVCC_FLAGS`, `$<COMPILE_LANGUAGE:CUDA>`,
/// `CUDA_ARCHITECTURES`, `CUDA_SEPARABLE_COMPILATION`). A file that adds a subdirectory counts
/// too: the sources there may be CUDA, compiled with what this file finds.
fn compiles_cuda(cmds: &[Command]) -> bool {
    const SETTINGS: &[&str] = &[
        "CMAKE_CUDA_",
        "CUDA_NVCC_FLAGS",
        "COMPILE_LANGUAGE:CUDA",
        "COMPILE_LANG_AND_ID:CUDA",
        "CUDA_ARCHITECTURES",
        "CUDA_SEPARABLE_COMPILATION",
    ];
    cmds.iter().any(|c| {
        let args = &c.args;
        (matches!(c.name.as_str(), "project" | "enable_language")
            && args.iter().any(|a| arg_is(a, "CUDA")))
            || c.name.starts_with("cuda_add_")
            || c.name.starts_with("cuda_compile")
            || c.name == "cuda_wrap_srcs"
            // What this file finds serves the subdirectories' targets too.
            || c.name == "add_subdirectory"
            || args
                .windows(2)
                .any(|w| arg_is(&w[0], "LANGUAGE") && arg_is(&w[1], "CUDA"))
            || args.iter().filter(|a| !a.bracket).any(|a| {
                let t = a.text.as_str();
                // R34-1: a `.cu` file a command handles as data is no source.
                let source = !names_data(c)
                    && (t.contains("*.cu")
                        || t.split(|c: char| c == ';' || c.is_whitespace())
                            .any(|p| p.trim_end_matches('>').ends_with(".cu")));
                source || SETTINGS.iter().any(|s| t.contains(s))
            })
    })
}

/// The test that the C++ compiler can build HIP sources (hipcc, or a clang that is ROCm's).
const HIPCC_COMPILER: &str = "CMAKE_CXX_COMPILER MATCHES \"hipcc|clang\"";

/// The optional search for HIP that replaces an optional `find_package(CUDA)`.
const OPTIONAL_HIP: &str = "find_package(hip QUIET)";

/// Whether the file treats CUDA as optional: no `find_package(CUDA|CUDAToolkit)` says
/// `REQUIRED`, and the file tests what it found (`CUDA_FOUND`, `CUDAToolkit_FOUND`), so it has a
/// path without CUDA (a CPU-only build) that a required HIP would take away.
fn cuda_optional(cmds: &[Command]) -> bool {
    let finds: Vec<&Command> = cmds
        .iter()
        .filter(|c| {
            c.name == "find_package"
                && c.args
                    .first()
                    .is_some_and(|a| a.text == "CUDA" || a.text == "CUDAToolkit")
        })
        .collect();
    !finds.is_empty()
        && finds
            .iter()
            .all(|c| !c.args.iter().any(|a| a.text == "REQUIRED"))
        && cmds.iter().any(|c| {
            c.args.iter().any(|a| {
                !a.bracket
                    && ["CUDA_FOUND", "CUDAToolkit_FOUND"].iter().any(|name| {
                        crate::lexer::whole_words(a.text.as_bytes(), name)
                            .next()
                            .is_some()
                    })
            })
        })
}

/// Whether the file already calls `find_package(name ...)`.
fn finds_package(cmds: &[Command], name: &str) -> bool {
    cmds.iter()
        .any(|c| c.name == "find_package" && c.args.first().is_some_and(|a| a.text == name))
}

/// A file without a CUDA language or package (a subdirectory's CMakeLists.txt, an included
/// `*.cmake`) that now names HIP library targets finds their packages itself, before the first
/// command that names one (outside any `if`/`foreach`/`function` around it, so that every
/// later use sees them): an imported target is visible only in the directory that found it and
/// below, so a `find_package` in the top file after `add_subdirectory`, or none at all, leaves
/// `roc::hipblas` "not found". Finding a package again where a parent found it is harmless
/// (its targets file returns early when they exist).
fn find_library_packages(st: &State, sink: &mut Sink, cmds: &[Command]) {
    let Some(first) = st.first_library_use else {
        return;
    };
    let mut wanted: Vec<&str> = Vec::new();
    if st.hip_targets {
        wanted.push("hip");
    }
    wanted.extend(st.packages.iter().copied());
    wanted.retain(|p| !finds_package(cmds, p) && !st.provided.contains(p));
    if wanted.is_empty() {
        return;
    }
    // The outermost block that holds the first use.
    let mut open: Vec<usize> = Vec::new();
    for (j, c) in cmds.iter().enumerate().take(first) {
        match c.name.as_str() {
            "if" | "foreach" | "while" | "function" | "macro" | "block" => open.push(j),
            "endif" | "endforeach" | "endwhile" | "endfunction" | "endmacro" | "endblock" => {
                open.pop();
            }
            _ => {}
        }
    }
    let at = cmds[open.first().copied().unwrap_or(first)].start;
    let line_start = st.src[..at].rfind('\n').map_or(0, |p| p + 1);
    let indent = indentation(st.src, at);
    let text: String = wanted
        .iter()
        .map(|p| format!("{indent}find_package({p} REQUIRED)\n"))
        .collect();
    if sink.edit(line_start, line_start, text, B_LIB_MAPPED.id) {
        sink.diag(
            B_LIB_MAPPED,
            at,
            format!(
                "{} added: this file links their HIP targets, and an imported target is only visible in the directory that found its package and below",
                wanted
                    .iter()
                    .map(|p| format!("find_package({p})"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            None,
        );
    }
}

/// Appended to a file that defines targets with HIP sources. It compiles those sources as CXX
/// and gives them, and them alone, what nvcc applied to CUDA sources only: the flags of
/// `CMAKE_CUDA_FLAGS` and `CMAKE_CUDA_FLAGS_<CONFIG>` (as this directory ends, as CMake reads
/// them), and each target's options, definitions and include directories behind a CUDA language
/// test (kept in the target, where no source matches it now). A target property's list splits
/// such a generator expression at its `;`: the pieces are joined again until its `$<` and `>`
/// balance. An option's `SHELL:` group, which a source's `COMPILE_OPTIONS` pass on as it is
/// ("no such file or directory: 'SHELL:-DA=1'" from hipcc, CMake 3.25), is split there as CMake
/// splits it in a target's (`separate_arguments` UNIX_COMMAND). `-fgpu-rdc` among the CUDA flags
/// also reaches the link. The sources are those
/// hipport ported: `.cu`, and `.hip` only where it renamed `.cu` sources to `.hip` (see
/// [`epilogue`]); a source that CMake's own HIP language compiles (`LANGUAGE HIP`, or a `.hip`
/// source with HIP enabled) is the project's own and keeps its language and properties.
const EPILOGUE: &str = r#"# hipport: nvcc compiled the CUDA sources; hipcc compiles the HIP sources as CXX. What nvcc
# applied to the CUDA sources alone (CMAKE_CUDA_FLAGS*, $<COMPILE_LANGUAGE:CUDA>) reaches the HIP
# sources alone.
separate_arguments(_hipport_cuda_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS}")
set(_hipport_configs DEBUG RELEASE RELWITHDEBINFO MINSIZEREL ${CMAKE_CONFIGURATION_TYPES} ${CMAKE_BUILD_TYPE})
string(TOUPPER "${_hipport_configs}" _hipport_configs)
list(REMOVE_DUPLICATES _hipport_configs)
foreach(_hipport_config IN LISTS _hipport_configs)
  separate_arguments(_hipport_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS_${_hipport_config}}")
  foreach(_hipport_flag IN LISTS _hipport_flags)
    list(APPEND _hipport_cuda_flags "$<$<CONFIG:${_hipport_config}>:${_hipport_flag}>")
  endforeach()
endforeach()
list(FIND _hipport_cuda_flags -fgpu-rdc _hipport_rdc)
get_property(_hipport_languages GLOBAL PROPERTY ENABLED_LANGUAGES)
list(FIND _hipport_languages HIP _hipport_hip_enabled)
set(_hipport_all_sources)
get_property(_hipport_targets DIRECTORY PROPERTY BUILDSYSTEM_TARGETS)
foreach(_hipport_target IN LISTS _hipport_targets)
  get_target_property(_hipport_listed ${_hipport_target} SOURCES)
  set(_hipport_sources)
  foreach(_hipport_source IN LISTS _hipport_listed)
    if(_hipport_source MATCHES "\\$<|>$")
      # A source behind a generator expression ($<$<BOOL:X>:k.cu>): the path inside it.
      if(_hipport_source MATCHES "(^|[:,])(([A-Za-z]:)?[^:,<>]*\\.(hip|cu))>*$")
        list(APPEND _hipport_sources ${CMAKE_MATCH_2})
      endif()
    elseif(_hipport_source MATCHES "\\.(hip|cu)$")
      list(APPEND _hipport_sources ${_hipport_source})
    endif()
  endforeach()
  foreach(_hipport_source IN LISTS _hipport_sources)
    get_source_file_property(_hipport_language ${_hipport_source} LANGUAGE)
    if(_hipport_language STREQUAL "HIP" OR (NOT _hipport_language AND _hipport_hip_enabled GREATER -1 AND _hipport_source MATCHES "\\.hip$"))
      list(REMOVE_ITEM _hipport_sources ${_hipport_source})
    endif()
  endforeach()
  if(_hipport_sources)
    list(APPEND _hipport_all_sources ${_hipport_sources})
    foreach(_hipport_property COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES)
      get_target_property(_hipport_values ${_hipport_target} ${_hipport_property})
      set(_hipport_entry "")
      foreach(_hipport_piece IN LISTS _hipport_values)
        set(_hipport_entry "${_hipport_entry}${_hipport_piece}")
        string(REGEX MATCHALL "\\$<" _hipport_open "${_hipport_entry}")
        string(REGEX MATCHALL ">" _hipport_close "${_hipport_entry}")
        list(LENGTH _hipport_open _hipport_open)
        list(LENGTH _hipport_close _hipport_close)
        if(_hipport_open GREATER _hipport_close)
          set(_hipport_entry "${_hipport_entry};")
        else()
          if(_hipport_entry MATCHES "COMPILE_LANGUAGE:CUDA>|COMPILE_LANG_AND_ID:CUDA,NVIDIA>")
            string(REPLACE "$<COMPILE_LANGUAGE:CUDA>" "1" _hipport_entry "${_hipport_entry}")
            string(REPLACE "$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>" "1" _hipport_entry "${_hipport_entry}")
            # A source's COMPILE_OPTIONS do not expand SHELL: as a target's do: split it here.
            while(_hipport_property STREQUAL "COMPILE_OPTIONS" AND _hipport_entry MATCHES "(^|[;:])SHELL:([^;>]*)")
              set(_hipport_shell "${CMAKE_MATCH_0}")
              set(_hipport_before "${CMAKE_MATCH_1}")
              separate_arguments(_hipport_split UNIX_COMMAND "${CMAKE_MATCH_2}")
              string(FIND "${_hipport_entry}" "${_hipport_shell}" _hipport_at)
              string(LENGTH "${_hipport_shell}" _hipport_length)
              math(EXPR _hipport_end "${_hipport_at} + ${_hipport_length}")
              string(SUBSTRING "${_hipport_entry}" 0 ${_hipport_at} _hipport_head)
              string(SUBSTRING "${_hipport_entry}" ${_hipport_end} -1 _hipport_tail)
              set(_hipport_entry "${_hipport_head}${_hipport_before}${_hipport_split}${_hipport_tail}")
            endwhile()
            set_property(SOURCE ${_hipport_sources} APPEND PROPERTY ${_hipport_property} "${_hipport_entry}")
          endif()
          set(_hipport_entry "")
        endif()
      endforeach()
    endforeach()
    get_target_property(_hipport_type ${_hipport_target} TYPE)
    if(_hipport_rdc GREATER -1 AND _hipport_type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY)$")
      target_link_options(${_hipport_target} PRIVATE -fgpu-rdc)
    elseif(_hipport_rdc GREATER -1 AND _hipport_type MATCHES "^(STATIC_LIBRARY|OBJECT_LIBRARY)$")
      target_link_options(${_hipport_target} INTERFACE -fgpu-rdc)
    endif()
  endif()
endforeach()
if(_hipport_all_sources)
  list(REMOVE_DUPLICATES _hipport_all_sources)
  set_source_files_properties(${_hipport_all_sources} PROPERTIES LANGUAGE CXX)
  set_property(SOURCE ${_hipport_all_sources} APPEND PROPERTY COMPILE_OPTIONS ${_hipport_cuda_flags})
endif()
"#;

/// [`EPILOGUE`] for the extensions of the sources hipport ported: `.cu`, and the extension
/// `.cu` sources were renamed to when that is `.hip` (`exts` maps old to new extensions).
/// Without `properties` (see [`cuda_properties_possible`]) the part that moves a target's
/// options, definitions and include directories behind a CUDA language test to its HIP
/// sources is left out (R18-2: 40 lines that do nothing there).
fn epilogue(exts: &std::collections::BTreeMap<String, String>, properties: bool) -> String {
    let ported = if exts.get("cu").is_some_and(|e| e == "hip") {
        "hip|cu"
    } else {
        "cu"
    };
    let mut text = EPILOGUE.replace("\\.(hip|cu)", &format!("\\.({ported})"));
    if !properties {
        let from = text.find(EPILOGUE_PROPERTIES_START);
        let to = text.find(EPILOGUE_PROPERTIES_END);
        if let (Some(a), Some(b)) = (from, to) {
            text.replace_range(a..b, "");
        }
    }
    text
}

/// Where the part of [`EPILOGUE`] that reads the targets' properties starts.
const EPILOGUE_PROPERTIES_START: &str =
    "    foreach(_hipport_property COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES)\n";
/// Where the part of [`EPILOGUE`] after the one that reads the targets' properties starts.
const EPILOGUE_PROPERTIES_END: &str = "    get_target_property(_hipport_type ";

/// Whether a target of this file may hold an option, definition or include directory behind a
/// CUDA language test (`$<COMPILE_LANGUAGE:CUDA>`) once converted, which the epilogue moves to
/// its HIP sources. Only a file at the input's root is known to inherit none from a parent
/// directory; it may still hold one in its own text (where no removal took it away, or written
/// by a rewrite: FindCUDA's `OPTIONS`) or in a file
/// it includes (any `include()` but of a CMake module by name, where the file sets no module
/// path).
fn cuda_properties_possible(src: &str, sink: &Sink, cmds: &[Command]) -> bool {
    if sink.file().contains(['/', '\\']) {
        return true;
    }
    let own = ["COMPILE_LANGUAGE:CUDA", "COMPILE_LANG_AND_ID:CUDA"]
        .iter()
        .any(|pat| {
            sink.writes(pat)
                || src
                    .match_indices(pat)
                    .any(|(at, _)| !sink.removed(at, at + pat.len()))
        });
    let includes = cmds.iter().any(|c| {
        c.name == "include"
            && c.args.first().is_none_or(|a| {
                a.bracket
                    || a.text.contains(['/', '\\', '.', '$'])
                    || src.contains("CMAKE_MODULE_PATH")
            })
    });
    own || includes
}

/// Appended after [`EPILOGUE`] when the target HIP (6.2 to 6.4) declares the `_sync` warp
/// builtins only with `HIP_ENABLE_WARP_SYNC_BUILTINS` defined.
const WARP_SYNC_DEFINE: &str = r#"if(_hipport_all_sources)
  # hipport: HIP 6.2 to 6.4 declare the *_sync warp builtins only with this definition.
  set_property(SOURCE ${_hipport_all_sources} APPEND PROPERTY COMPILE_DEFINITIONS HIP_ENABLE_WARP_SYNC_BUILTINS)
endif()
"#;

/// R37-b's rest: `find_package(NCCL ...)` (a project's FindNCCL module, or NCCL's own package)
/// finds nothing on ROCm. RCCL is NCCL's drop-in (the same `nccl*` API): the package becomes
/// `rccl`, without NCCL's version; where no source of the tree uses NCCL (the link name is
/// dropped, see [`flags::unused_library`]) the command goes.
fn nccl_package(st: &State, sink: &mut Sink, cmd: &Command) {
    let Some(first) = cmd.args.first() else {
        return;
    };
    if st.opts.unused_libraries.contains("nccl") {
        if sink.edit(cmd.start, cmd.end, "", B_LIB_MAPPED.id) {
            sink.diag(
                B_LIB_MAPPED,
                cmd.start,
                format!("find_package({}) removed: no source in the tree uses NCCL, and its ROCm drop-in, RCCL, is a package of its own", first.text),
                Some("a source that calls NCCL needs find_package(rccl) and rccl::rccl".into()),
            );
        }
        return;
    }
    if !sink.edit(first.start, first.end, "rccl", B_LIB_MAPPED.id) {
        return;
    }
    // NCCL's version (`find_package(NCCL 2.7 REQUIRED)`) is not RCCL's.
    if let Some(v) = cmd
        .args
        .get(1)
        .filter(|v| !v.quoted && v.text.starts_with(|c: char| c.is_ascii_digit()))
    {
        remove_arg(sink, st.src, v, B_LIB_MAPPED.id);
    }
    sink.diag(
        B_LIB_MAPPED,
        cmd.start,
        format!("find_package({}) -> find_package(rccl): RCCL is NCCL's drop-in on ROCm (the same nccl* API)", first.text),
        Some("link rccl::rccl; rccl's package sets no NCCL_* variables (NCCL_LIBRARIES, NCCL_INCLUDE_DIRS): a link of ${NCCL_LIBRARIES} becomes rccl::rccl".into()),
    );
}

/// A command that passes options (`target_compile_options`, `add_link_options`, ...) all of
/// whose options were removed goes away: `target_compile_options(t)` without a scope and an
/// option is an error, and one with a scope alone does nothing.
///
/// So does a link command all of whose libraries went (`target_link_libraries(f PRIVATE
/// ${CUDNN_LIB})` once the `find_library()` went, see [`find_library_names`]): what is left,
/// `target_link_libraries(f PRIVATE)`, links nothing.
fn drop_emptied(src: &str, sink: &mut Sink, cmd: &Command) {
    let (skip, rule) = match cmd.name.as_str() {
        "target_compile_options" | "target_link_options" => (1, B_FLAG_DROPPED.id),
        "add_compile_options" | "add_link_options" => (0, B_FLAG_DROPPED.id),
        "target_link_libraries" => (1, B_LIB_MAPPED.id),
        "link_libraries" => (0, B_LIB_MAPPED.id),
        _ => return,
    };
    let mut items = cmd.args.iter().skip(skip).filter(|a| {
        a.bracket
            || a.quoted
            || !matches!(
                a.text.as_str(),
                "PRIVATE"
                    | "PUBLIC"
                    | "INTERFACE"
                    | "BEFORE"
                    | "LINK_PRIVATE"
                    | "LINK_PUBLIC"
                    | "LINK_INTERFACE_LIBRARIES"
                    | "debug"
                    | "optimized"
                    | "general"
            )
    });
    let mut any = false;
    let all_removed = items.all(|a| {
        any = true;
        sink.removed(a.start, a.end)
    });
    if any && all_removed {
        let (s, e) = command_line(src, cmd);
        sink.edit_over(s, e, "", rule);
    }
}

/// R33-1: a `set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -gencode ...")` or `list(APPEND
/// CUDA_NVCC_FLAGS ...)` of a dead `CUDA_NVCC_FLAGS` (see [`nvcc_flags_dead`]) whose flags all
/// went goes whole: what is left (`set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS}")`) does nothing.
fn drop_self_assignment(src: &str, sink: &mut Sink, cmd: &Command) {
    let first = match cmd.name.as_str() {
        "set" => 1,
        "list"
            if cmd
                .args
                .first()
                .is_some_and(|a| arg_is(a, "APPEND") || arg_is(a, "PREPEND")) =>
        {
            2
        }
        _ => return,
    };
    let items = &cmd.args[first.min(cmd.args.len())..];
    if items.is_empty() || items.iter().any(|a| a.bracket) {
        return;
    }
    let own = |t: &str| t == "${CUDA_NVCC_FLAGS}";
    let mut any_removed = false;
    let all_gone = items.iter().all(|a| {
        let words = if a.quoted {
            text::blank_words(src, a.content_start, a.content_end, false)
        } else {
            vec![Word {
                start: a.start,
                end: a.end,
                text: a.text.clone(),
                quote: None,
            }]
        };
        words.iter().all(|w| {
            if own(&w.text) {
                return true;
            }
            let gone = sink.removed(w.start, w.end);
            any_removed |= gone;
            gone
        })
    });
    if any_removed && all_gone {
        let (s, e) = command_line(src, cmd);
        sink.edit_over(s, e, "", B_ARCH.id);
    }
}

/// A list element whose flags all went away goes too (`list(APPEND CUDA_NVCC_FLAGS "")` would
/// add an empty element), and so does a `list(APPEND|PREPEND V ...)` left with none. A `set()`
/// keeps its last element: `set(V)` unsets `V` where the original set it.
fn drop_emptied_items(src: &str, sink: &mut Sink, cmd: &Command) {
    let args = &cmd.args;
    let (first, whole) = match cmd.name.as_str() {
        "list"
            if args
                .first()
                .is_some_and(|a| arg_is(a, "APPEND") || arg_is(a, "PREPEND")) =>
        {
            (2, true)
        }
        "set" => (1, false),
        _ => return,
    };
    let items: Vec<&Arg> = args
        .iter()
        .skip(first)
        .take_while(|a| !(arg_is(a, "PARENT_SCOPE") || arg_is(a, "CACHE")))
        .collect();
    if items.is_empty() || items.iter().any(|a| a.bracket) {
        return;
    }
    let emptied: Vec<bool> = items
        .iter()
        .map(|a| {
            if a.quoted {
                a.content_start < a.content_end && sink.emptied(src, a.content_start, a.content_end)
            } else {
                sink.removed(a.start, a.end)
            }
        })
        .collect();
    if !emptied.iter().any(|&e| e) {
        return;
    }
    if emptied.iter().all(|&e| e) {
        if whole {
            let (s, e) = command_line(src, cmd);
            sink.edit_over(s, e, "", B_FLAG_DROPPED.id);
        }
        return;
    }
    for (a, _) in items.iter().zip(&emptied).filter(|(a, &e)| e && a.quoted) {
        let (s, e) = arg_span(src, a);
        sink.edit_over(s, e, "", B_FLAG_DROPPED.id);
    }
}

/// The range of an argument with the blanks before it, or its whole line when it is alone on
/// it (see [`remove_arg`]).
fn arg_span(src: &str, a: &Arg) -> (usize, usize) {
    let b = src.as_bytes();
    let mut s = a.start;
    while s > 0 && (b[s - 1] == b' ' || b[s - 1] == b'\t') {
        s -= 1;
    }
    let mut e = a.end;
    while e < b.len() && (b[e] == b' ' || b[e] == b'\t' || b[e] == b'\r') {
        e += 1;
    }
    if s > 0 && b[s - 1] == b'\n' && b.get(e) == Some(&b'\n') {
        (s, e + 1)
    } else {
        (s, a.end)
    }
}

/// The range of a command, widened to its whole line when nothing else is on it.
fn command_line(src: &str, cmd: &Command) -> (usize, usize) {
    let line_start = src[..cmd.start].rfind('\n').map_or(0, |p| p + 1);
    let line_end = src[cmd.end..]
        .find('\n')
        .map_or(src.len(), |p| cmd.end + p + 1);
    let rest = src[cmd.end..line_end].trim();
    if src[line_start..cmd.start].trim().is_empty() && rest.is_empty() {
        (line_start, line_end)
    } else {
        (cmd.start, cmd.end)
    }
}

fn indentation(src: &str, at: usize) -> String {
    let line_start = src[..at].rfind('\n').map_or(0, |p| p + 1);
    src[line_start..at]
        .chars()
        .take_while(|c| *c == ' ' || *c == '\t')
        .collect()
}

/// Removes an argument with the blanks before it, or its whole line when it is alone on it.
fn remove_arg(sink: &mut Sink, src: &str, a: &Arg, rule: &str) -> bool {
    let (s, e) = arg_span(src, a);
    sink.edit(s, e, "", rule)
}

fn arg_is(a: &Arg, s: &str) -> bool {
    !a.bracket && a.text == s
}

fn is_on(a: Option<&Arg>) -> bool {
    a.is_some_and(|a| {
        matches!(
            a.text.to_ascii_uppercase().as_str(),
            "ON" | "TRUE" | "1" | "YES" | "Y"
        )
    })
}

/// R30-b: hipcc before ROCm 6 (hipcc.pl) puts `-std=c++11` before the flags it is given, so
/// a source CMake gives no standard (nvcc's default, C++14 in CUDA 11, met `cxx_std_11`, and
/// clang's meets it now) compiles as C++11, and C++14 code that nvcc built stops
/// (`auto f()` without a trailing return type). For such a target the HIP block keeps nvcc's
/// dialect where the project and the command line name none: `CMAKE_CXX_STANDARD 14`, which
/// CMake writes out as `-std=gnu++14` after hipcc's. A note at `at` says so.
/// Not where the project gives a standard of its own in any form (verify13 REG-1, R32-2; see
/// [`project_gives_standard`]): CMake writes its standard flag after `CMAKE_CXX_FLAGS`, so
/// `gnu++14` would override a `-std=c++17` there, and a standard the project sets (before or
/// after the block) makes the block and its note pointless.
fn nvcc_dialect(st: &State, sink: &mut Sink, at: usize) -> Vec<String> {
    if st.opts.hip_version >= hipport_rules::Version::new(6, 0, 0)
        || project_gives_standard(st.src, sink.file(), st.opts.tree_root.as_deref())
    {
        return Vec::new();
    }
    sink.diag_as(
        B_LANGUAGE,
        crate::diag::Severity::Note,
        at,
        format!(
            "hipcc {} compiles as C++11 where CMake names no standard, and nvcc compiled as C++14: the project gives no C++ standard, so `set(CMAKE_CXX_STANDARD 14)` is added for a command line that sets none",
            st.opts.hip_version
        ),
        Some("hipcc before ROCm 6 puts `-std=c++11` before the flags it is given; CMake gives none where the compiler's default already meets the target's compile features (`cxx_std_11`)".into()),
    );
    vec![
        "if(NOT CMAKE_CXX_STANDARD)".to_string(),
        "  set(CMAKE_CXX_STANDARD 14)".to_string(),
        "endif()".to_string(),
    ]
}

/// Whether `file` (its text `src`) or the CMake files of its project give a C++ standard (see
/// [`gives_standard`]): the file itself; the `CMakeLists.txt` of each directory above it up to
/// the input's root `root`, whose variables reach it; and the CMake files (`CMakeLists.txt`,
/// `*.cmake`) in and below its directory, which its `add_subdirectory()` and `include()` read.
/// Below it, CMake's own output (`CMakeFiles/`, whose compiler files list every `cxx_std_NN`)
/// and nested git checkouts (a vendored project with a `.git` of its own, which sets standards
/// for its own targets) are passed over; at most 50000 directory entries are looked at and
/// files of at most 1 MiB read.
fn project_gives_standard(src: &str, file: &str, root: Option<&std::path::Path>) -> bool {
    if gives_standard(src) {
        return true;
    }
    let Some(root) = root else {
        return false;
    };
    let read = |path: &std::path::Path| {
        std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() <= 1 << 20)
            && std::fs::read(path).is_ok_and(|b| gives_standard(&String::from_utf8_lossy(&b)))
    };
    let dir = text::dir_of(file);
    // The directories above: `a/b` for `a/b/c/CMakeLists.txt`, then `a`, then the root.
    let mut above = dir;
    while !above.is_empty() {
        above = text::dir_of(above);
        if read(&root.join(above).join("CMakeLists.txt")) {
            return true;
        }
    }
    let base = root.join(dir);
    let own = file.rsplit('/').next().unwrap_or(file);
    let mut checkouts = std::collections::HashMap::new();
    let mut nested_checkout = |rel: &str| {
        let mut d = text::dir_of(rel);
        while !d.is_empty() {
            let is = *checkouts
                .entry(d.to_string())
                .or_insert_with(|| base.join(d).join(".git").exists());
            if is {
                return true;
            }
            d = text::dir_of(d);
        }
        false
    };
    let mut found = false;
    crate::tree_walk::walk_files(&base, 50_000, |path, rel, _| {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let cmake = name == "CMakeLists.txt" || name.ends_with(".cmake");
        if !cmake || rel == own || rel.split('/').any(|c| c == "CMakeFiles") || nested_checkout(rel)
        {
            return std::ops::ControlFlow::Continue(());
        }
        found = read(path);
        if found {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    found
}

/// Whether a build file's translation may read other CMake files for a standard (see
/// [`project_gives_standard`]): it names CUDA and a command that makes the CUDA language or
/// package the HIP block's (`project()`, `enable_language()`, `find_package()`, FindCUDA's
/// `cuda_add_*()` and `cuda_wrap_srcs()`), and gives no standard itself.
pub(super) fn may_read_project_standard(src: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(src, w).is_some();
    has(b"CUDA")
        && [
            &b"project"[..],
            b"PROJECT",
            b"enable_language",
            b"ENABLE_LANGUAGE",
            b"find_package",
            b"FIND_PACKAGE",
            b"cuda_add_",
            b"CUDA_ADD_",
            b"cuda_wrap_srcs",
            b"CUDA_WRAP_SRCS",
        ]
        .iter()
        .any(|w| has(w))
        && !gives_standard(&String::from_utf8_lossy(src))
}

/// Whether CMake text gives its targets a C++ standard of its own, in any form: a value for
/// `CMAKE_CXX_STANDARD` or `CMAKE_CUDA_STANDARD`; the `CXX_STANDARD` or `CUDA_STANDARD`
/// property; a `-std=` of C++14 or newer (or of a variable's value) in `CMAKE_CXX_FLAGS*` or
/// `CMAKE_CUDA_FLAGS*` (`set()`, `string(APPEND)`, `list(APPEND)`), in compile options or
/// definitions (`add_compile_options`, `target_compile_options`, `add_definitions`, the
/// `COMPILE_OPTIONS`/`COMPILE_FLAGS` properties); a compile feature `cxx_std_NN`/`cuda_std_NN`
/// of C++14 or newer. `cxx_std_11` and `-std=c++11` are not: CMake gives no flag for a feature
/// the compiler's default meets, and an older standard is what the HIP block raises.
pub(super) fn gives_standard(src: &str) -> bool {
    if !["STANDARD", "std"].iter().any(|w| src.contains(w)) {
        return false;
    }
    commands(src).iter().any(command_gives_standard)
}

/// Whether one command gives a standard (see [`gives_standard`]).
fn command_gives_standard(cmd: &Command) -> bool {
    let args: Vec<&str> = cmd
        .args
        .iter()
        .filter(|a| !a.bracket)
        .map(|a| a.text.as_str())
        .collect();
    let flags_var = |t: &str| {
        ["CMAKE_CXX_FLAGS", "CMAKE_CUDA_FLAGS"].iter().any(|v| {
            t.strip_prefix(v)
                .is_some_and(|r| r.is_empty() || r.starts_with('_'))
        })
    };
    let std_flag_in = |rest: &[&str]| names_standard_flag(&rest.join(" "));
    match (cmd.name.as_str(), &args[..]) {
        ("set", [var, value, ..])
            if matches!(*var, "CMAKE_CXX_STANDARD" | "CMAKE_CUDA_STANDARD") =>
        {
            !value.is_empty()
        }
        ("set", [var, rest @ ..]) => flags_var(var) && std_flag_in(rest),
        ("string", [op, var, rest @ ..]) => {
            matches!(*op, "APPEND" | "PREPEND") && flags_var(var) && std_flag_in(rest)
        }
        ("list", [op, var, rest @ ..]) => {
            matches!(*op, "APPEND" | "PREPEND" | "INSERT") && flags_var(var) && std_flag_in(rest)
        }
        ("add_compile_options" | "target_compile_options" | "add_definitions", _) => {
            std_flag_in(&args)
        }
        ("target_compile_features", _) => args.iter().any(|a| names_standard_feature(a)),
        (
            "set_target_properties"
            | "set_property"
            | "set_directory_properties"
            | "set_source_files_properties",
            _,
        ) => {
            args.iter().any(|a| {
                matches!(*a, "CXX_STANDARD" | "CUDA_STANDARD") || names_standard_feature(a)
            }) || std_flag_in(&args)
        }
        _ => false,
    }
}

/// Whether a C++ standard of C++14 or newer is named by the compiler flags in `t`: `-std=c++17`,
/// `--std=gnu++1z`, `-std c++17` (nvcc's spelling), also inside a generator expression
/// (`$<$<COMPILE_LANGUAGE:CXX>:-std=c++17>`); a value held in a variable (`-std=${STD}`)
/// counts.
fn names_standard_flag(t: &str) -> bool {
    let words: Vec<&str> = t
        .split(|c: char| c.is_whitespace() || matches!(c, ';' | ':' | '"' | '\''))
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().enumerate().any(|(k, w)| {
        let w = w.trim_end_matches('>');
        let value = match w.trim_start_matches('-').strip_prefix("std") {
            _ if !w.starts_with('-') => None,
            Some(v) => match v.strip_prefix('=') {
                Some(v) => Some(v),
                None if v.is_empty() => words.get(k + 1).map(|n| n.trim_end_matches('>')),
                None => None,
            },
            None => None,
        };
        value.is_some_and(cxx14_or_newer)
    })
}

/// Whether a `-std=` value names C++14 or newer (`c++17`, `gnu++2a`, `c++1y`), or is a
/// variable's value (`${STD}`).
fn cxx14_or_newer(v: &str) -> bool {
    if v.contains('$') {
        return true;
    }
    let Some(n) = v.strip_prefix("c++").or_else(|| v.strip_prefix("gnu++")) else {
        return false;
    };
    !n.is_empty() && !matches!(n, "98" | "03" | "0x" | "11")
}

/// Whether `t` names a compile feature `cxx_std_NN` or `cuda_std_NN` of C++14 or newer (or one
/// whose number is a variable's value).
fn names_standard_feature(t: &str) -> bool {
    ["cxx_std_", "cuda_std_"].iter().any(|p| {
        t.match_indices(p).any(|(at, _)| {
            let before_ok = at == 0 || !is_ident(t.as_bytes()[at - 1]);
            let rest = &t[at + p.len()..];
            let n: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
            before_ok
                && if n.is_empty() {
                    rest.starts_with('$')
                } else {
                    !matches!(n.as_str(), "98" | "03" | "11")
                }
        })
    })
}

/// R18-d: where the sources use Thrust or CUB ([`BuildOptions::thrust_sources`]), a C++ or CUDA
/// standard older than C++14 becomes C++14: `set(CMAKE_CUDA_STANDARD 11)`,
/// `set(CMAKE_CXX_STANDARD 11)`, the `CUDA_STANDARD`/`CXX_STANDARD` properties and the
/// `cxx_std_11`/`cuda_std_11` compile features. rocThrust and hipCUB build on rocPRIM, which
/// needs C++14.
fn thrust_standard(st: &State, sink: &mut Sink, cmd: &Command) {
    if !st.opts.thrust_sources {
        return;
    }
    let old = |a: &Arg| !a.bracket && matches!(a.text.as_str(), "98" | "03" | "11");
    let mut raise = |a: &Arg, new: &str, what: &str| {
        if sink.edit(a.content_start, a.content_end, new, B_FLAG_MAPPED.id) {
            sink.diag(
                B_FLAG_MAPPED,
                a.start,
                format!("{what} `{}` -> `{new}`", a.text),
                Some(flags::THRUST_CXX14_HELP.into()),
            );
        }
    };
    let args = &cmd.args;
    match cmd.name.as_str() {
        "set" => {
            if let [var, value, ..] = &args[..] {
                if matches!(
                    var.text.as_str(),
                    "CMAKE_CUDA_STANDARD" | "CMAKE_CXX_STANDARD"
                ) && old(value)
                {
                    raise(value, "14", &format!("{} standard", var.text));
                }
            }
        }
        "set_target_properties" | "set_property" => {
            for pair in args.windows(2) {
                if matches!(pair[0].text.as_str(), "CUDA_STANDARD" | "CXX_STANDARD")
                    && !pair[0].bracket
                    && old(&pair[1])
                {
                    raise(&pair[1], "14", &format!("{} property", pair[0].text));
                }
            }
        }
        // `cuda_std_NN` is [`cuda_features`]' (it becomes `cxx_std_NN`, raised there).
        "target_compile_features" => {
            for a in args.iter().filter(|a| !a.bracket) {
                if let Some(v) = a.text.strip_prefix("cxx_std_") {
                    if matches!(v, "98" | "03" | "11") {
                        raise(a, "cxx_std_14", "compile feature");
                    }
                }
            }
        }
        _ => {}
    }
}

/// R50-f (groute): `set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -std=c++11")` was meant for the host
/// `.cpp` files (FindCUDA kept it off nvcc with `CUDA_PROPAGATE_HOST_FLAGS OFF`, and nvcc
/// compiled as C++14). The port compiles the HIP sources as CXX, so it reaches them now: where
/// they include Thrust or CUB, whose ROCm ports build on rocPRIM (C++14), a standard older than
/// C++14 in `CMAKE_CXX_FLAGS` or `add_compile_options()` becomes C++14, as nvcc's own does
/// (see [`thrust_standard`] for `CMAKE_CXX_STANDARD`).
fn cxx_flags_standard(st: &State, sink: &mut Sink, cmd: &Command) {
    if !st.opts.thrust_sources || !st.device_code {
        return;
    }
    let args = &cmd.args;
    let from = match cmd.name.as_str() {
        "set" if args.first().is_some_and(|a| a.text == "CMAKE_CXX_FLAGS") => 1,
        "string" | "list"
            if args.first().is_some_and(|a| a.text == "APPEND")
                && args.get(1).is_some_and(|a| a.text == "CMAKE_CXX_FLAGS") =>
        {
            2
        }
        "add_compile_options" => 0,
        _ => return,
    };
    let what = if from == 0 {
        "add_compile_options()"
    } else {
        "CMAKE_CXX_FLAGS"
    };
    for a in args.iter().skip(from).filter(|a| !a.bracket) {
        let t = a.text.as_str();
        let mut at = 0;
        while let Some(p) = t[at..].find("-std=").map(|p| p + at) {
            at = p + 5;
            let lead = if p > 0 && t.as_bytes()[p - 1] == b'-' {
                p - 1
            } else {
                p
            };
            if lead > 0 && !matches!(t.as_bytes()[lead - 1], b' ' | b'\t' | b';' | b'"') {
                continue;
            }
            let end = t[p..]
                .find(|c: char| c.is_whitespace() || c == ';' || c == '"')
                .map_or(t.len(), |e| p + e);
            let old = &t[lead..end];
            let value = &t[p + 5..end];
            let new = match value {
                "c++11" | "c++03" | "c++98" | "c++0x" => "c++14",
                "gnu++11" | "gnu++03" | "gnu++98" | "gnu++0x" => "gnu++14",
                _ => continue,
            };
            let (s, e) = (a.content_start + p + 5, a.content_start + end);
            if sink.edit(s, e, new, B_FLAG_MAPPED.id) {
                sink.diag(
                    B_FLAG_MAPPED,
                    a.content_start + lead,
                    format!("`{old}` -> `-std={new}`: the port compiles the HIP sources as CXX, so {what} reaches them now (nvcc, which compiled them, did not get it)"),
                    Some(flags::THRUST_CXX14_HELP.into()),
                );
            }
        }
    }
}

/// verify13 (last row of REG-1's table): a compile feature of the CUDA language (`cuda_std_17`
/// in `target_compile_features()` or a `COMPILE_FEATURES` property) applies to CUDA sources
/// alone, and the target's sources compile as C++ with hipcc now: without a change the target
/// gets no standard from it (hipcc 5.2.3: C++11) and C++17 code stops building. It becomes the
/// C++ feature of the same number (`cxx_std_17`), `cxx_std_14` where the tree uses Thrust or
/// CUB and the number is older (R18-d, see [`thrust_standard`]).
fn cuda_features(st: &State, sink: &mut Sink, cmd: &Command) {
    if !matches!(
        cmd.name.as_str(),
        "target_compile_features" | "set_property" | "set_target_properties"
    ) {
        return;
    }
    let src = st.src;
    for (i, a) in cmd.args.iter().enumerate().filter(|(_, a)| !a.bracket) {
        // Offsets into the text hold only where it is the source's bytes (no escapes).
        if src.get(a.content_start..a.content_end) != Some(a.text.as_str()) {
            continue;
        }
        // R34-2: `target_compile_features(t PUBLIC cxx_std_17 cuda_std_17)`: the C++ feature
        // is there already, so the CUDA one goes (with the blank before it) rather than
        // becoming a second `cxx_std_17`.
        if cmd.name == "target_compile_features" && i > 0 && !a.quoted {
            if let Some(n) = a.text.strip_prefix("cuda_std_") {
                let same = format!("cxx_std_{n}");
                let raised = st.opts.thrust_sources && matches!(n, "98" | "03" | "11");
                if !raised
                    && n.bytes().all(|c| c.is_ascii_digit())
                    && cmd.args.iter().any(|b| b.text == same)
                {
                    let from = cmd.args[i - 1].end;
                    if sink.edit(from, a.end, "", B_LANGUAGE.id) {
                        sink.diag(
                            B_LANGUAGE,
                            a.start,
                            format!("compile feature `{}` removed: the target's sources compile as C++ with hipcc, and `{same}` is already listed", a.text),
                            None,
                        );
                    }
                    continue;
                }
            }
        }
        for (at, _) in a.text.match_indices("cuda_std_") {
            if at > 0 && is_ident(a.text.as_bytes()[at - 1]) {
                continue;
            }
            let rest = &a.text[at + "cuda_std_".len()..];
            let n = &rest[..rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len())];
            if n.is_empty() || rest[n.len()..].starts_with(|c: char| is_ident(c as u8)) {
                continue;
            }
            let old = &a.text[at..at + "cuda_std_".len() + n.len()];
            let raised = st.opts.thrust_sources && matches!(n, "98" | "03" | "11");
            let new = format!("cxx_std_{}", if raised { "14" } else { n });
            let start = a.content_start + at;
            if !sink.edit(start, start + old.len(), &new, B_LANGUAGE.id) {
                continue;
            }
            if raised {
                sink.diag(
                    B_FLAG_MAPPED,
                    start,
                    format!("compile feature `{old}` -> `{new}`"),
                    Some(flags::THRUST_CXX14_HELP.into()),
                );
            } else {
                sink.diag(
                    B_LANGUAGE,
                    start,
                    format!("compile feature `{old}` -> `{new}`: the target's sources compile as C++ with hipcc, and a CUDA feature no longer applies to them"),
                    Some("without it the target would get no standard from this feature".into()),
                );
            }
        }
    }
}

/// Whether a command's file arguments are data to it, never a target's sources: custom
/// commands and targets but those that run nvcc, `configure_file`, `install`, `message`,
/// `execute_process`, `add_test`, and `file()` but for its `GLOB`s (R34-1).
fn names_data(cmd: &Command) -> bool {
    match cmd.name.as_str() {
        "add_custom_command" | "add_custom_target" | "execute_process" => !cmd
            .args
            .iter()
            .any(|a| a.text.contains("nvcc") || a.text.contains("CUDA_COMPILER")),
        "configure_file" | "install" | "message" | "add_test" => true,
        "file" => !cmd.args.first().is_some_and(|a| a.text.starts_with("GLOB")),
        _ => false,
    }
}

/// The variable a whole argument reads (`${langs}`), if it is one.
fn variable_read(a: &Arg) -> Option<&str> {
    let name = a.text.strip_prefix("${")?.strip_suffix('}')?;
    (!a.bracket && !name.is_empty() && !name.contains(['$', '{', '}'])).then_some(name)
}

/// R38-a: the variables passed whole to `project()` or `enable_language()` (fast_rnnt's
/// `set(languages ${languages} CUDA)` ... `project(fast_rnnt ${languages})`, or
/// `list(APPEND langs CUDA)` ... `project(demo ${langs})`) that a `set()` or `list(APPEND |
/// PREPEND | INSERT)` gives the `CUDA` language, each with whether one of them gives it `CXX`.
fn language_variables(cmds: &[Command]) -> std::collections::BTreeMap<String, bool> {
    let read: BTreeSet<&str> = cmds
        .iter()
        .filter(|c| matches!(c.name.as_str(), "project" | "enable_language"))
        .flat_map(|c| c.args.iter().filter_map(variable_read))
        .collect();
    let mut out = std::collections::BTreeMap::new();
    for c in cmds {
        let Some(values) = language_values(c) else {
            continue;
        };
        let var = values[0].text.as_str();
        if !read.contains(var) {
            continue;
        }
        let values = &values[1..];
        let cuda = values.iter().any(|a| arg_is(a, "CUDA"));
        let cxx = values.iter().any(|a| arg_is(a, "CXX"));
        if cuda || cxx {
            let e = out.entry(var.to_string()).or_insert((false, false));
            e.0 |= cuda;
            e.1 |= cxx;
        }
    }
    out.into_iter()
        .filter(|(_, (cuda, _))| *cuda)
        .map(|(v, (_, cxx))| (v, cxx))
        .collect()
}

/// The variable and the values of a `set()` or of a `list()` that adds items: the variable
/// first. `None` for other commands.
fn language_values(c: &Command) -> Option<&[Arg]> {
    match c.name.as_str() {
        "set" if !c.args.is_empty() => Some(&c.args[..]),
        "list" if c.args.len() >= 2 => {
            let op = c.args[0].text.as_str();
            match op {
                "APPEND" | "PREPEND" => Some(&c.args[1..]),
                // `list(INSERT var index items...)`: the index is not a language.
                "INSERT" if c.args.len() >= 3 => Some(&c.args[1..]),
                _ => None,
            }
        }
        _ => None,
    }
}

/// R38-a: `CUDA` given to a variable that `project()` / `enable_language()` reads goes, as a
/// literal `project(x LANGUAGES CUDA)` does: hipcc compiles the HIP sources as CXX, and with
/// CUDA enabled CMake looks for nvcc (a ROCm machine has none, and where one is present it
/// would compile the HIP sources).
fn language_variable(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let Some(values) = language_values(cmd) else {
        return;
    };
    let var = values[0].text.as_str();
    let Some(&cxx_elsewhere) = st.cuda_lang_vars.get(var) else {
        return;
    };
    let has_cxx = values[1..].iter().any(|a| arg_is(a, "CXX"));
    for a in values[1..].iter().filter(|a| arg_is(a, "CUDA")) {
        let done = if has_cxx || cxx_elsewhere {
            remove_arg(sink, st.src, a, B_LANGUAGE.id)
        } else {
            sink.edit(a.start, a.end, "CXX", B_LANGUAGE.id)
        };
        if done {
            let how = if has_cxx || cxx_elsewhere {
                "removed from"
            } else {
                "-> CXX in"
            };
            sink.diag(
                B_LANGUAGE,
                a.start,
                format!("CUDA language {how} `{var}`, the list of languages this file enables: HIP sources compile as CXX with hipcc, and with CUDA enabled CMake would look for nvcc"),
                Some("configure with -DCMAKE_CXX_COMPILER=hipcc".into()),
            );
        }
    }
}

/// Whether a `find_program()` looks for nvcc (`find_program(HAVE_NVCC nvcc)`,
/// `find_program(NVCC NAMES nvcc nvcc.exe PATHS ...)`).
fn finds_nvcc(cmd: &Command) -> bool {
    cmd.name == "find_program"
        && cmd.args.iter().skip(1).any(|a| {
            let t = a.text.as_str();
            let base = t.rsplit(['/', '\\']).next().unwrap_or(t);
            !a.bracket && matches!(base, "nvcc" | "nvcc.exe")
        })
}

/// Command-specific rewrites.
fn command(st: &mut State, sink: &mut Sink, cmd: &Command) {
    thrust_standard(st, sink, cmd);
    cxx_flags_standard(st, sink, cmd);
    cuda_features(st, sink, cmd);
    language_variable(st, sink, cmd);
    let src = st.src;
    let args = &cmd.args;
    match cmd.name.as_str() {
        // R38-a: a build gated on finding nvcc is skipped on ROCm, with no error.
        "find_program" if finds_nvcc(cmd) => {
            let var = args.first().map_or("", |a| a.text.as_str());
            sink.diag(
                B_CONSTRUCT,
                cmd.start,
                format!("find_program({var} ...) looks for nvcc, which ROCm does not have: what it gates (a GPU build) is skipped there, with no error"),
                Some("look for hipcc instead (find_program(... hipcc)), or use find_package(hip)".into()),
            );
        }
        "project" | "enable_language" => {
            if args
                .iter()
                .filter_map(variable_read)
                .any(|v| st.cuda_lang_vars.contains_key(v))
            {
                st.cuda_lang = true;
                if st.block.is_none() {
                    st.block = Some((cmd.end, cmd.end, false));
                }
            }
            let has_cxx = args.iter().any(|a| arg_is(a, "CXX"));
            for a in args.iter().filter(|a| arg_is(a, "CUDA")) {
                let done = if has_cxx {
                    remove_arg(sink, src, a, B_LANGUAGE.id)
                } else {
                    sink.edit(a.start, a.end, "CXX", B_LANGUAGE.id)
                };
                if done {
                    sink.diag(B_LANGUAGE, a.start, format!("CUDA language removed from {}(): HIP sources compile as CXX with hipcc", cmd.name), Some("configure with -DCMAKE_CXX_COMPILER=hipcc".into()));
                }
                st.cuda_lang = true;
                if st.block.is_none() {
                    st.block = Some((cmd.end, cmd.end, false));
                }
            }
        }
        // A package config (`fooConfig.cmake`) whose users would find CUDA again.
        "find_dependency"
            if args
                .first()
                .and_then(|a| CUDA_PACKAGES.iter().find(|p| arg_is(a, p)))
                .is_some() =>
        {
            let package = &args[0].text;
            sink.diag(
                B_CONSTRUCT,
                cmd.start,
                format!("find_dependency({package}) kept: the ported library's users would look for CUDA again"),
                Some(CUDA_DEPENDENCY_HELP.into()),
            );
        }
        "check_language" if args.iter().any(|a| arg_is(a, "CUDA")) => {
            sink.diag(
                B_CONSTRUCT,
                cmd.start,
                "check_language(CUDA) looks for nvcc, which ROCm does not have".into(),
                Some("check for hipcc (find_program) or find_package(hip) instead".into()),
            );
        }
        "find_package" => {
            let Some(first) = args.first() else { return };
            if first.text == "CUDA" || first.text == "CUDAToolkit" {
                st.cuda_lang = true;
                match st.block {
                    Some((_, _, true)) if st.optional => {
                        let indent = indentation(st.src, cmd.start);
                        sink.edit(
                            cmd.start,
                            cmd.end,
                            format!(
                                "if({HIPCC_COMPILER})\n{indent}  {OPTIONAL_HIP}\n{indent}endif()"
                            ),
                            B_LANGUAGE.id,
                        );
                    }
                    Some((_, _, true)) => {
                        sink.edit(
                            cmd.start,
                            cmd.end,
                            "find_package(hip REQUIRED)",
                            B_LANGUAGE.id,
                        );
                    }
                    _ => st.block = Some((cmd.start, cmd.end, true)),
                }
                if st.optional {
                    sink.diag(B_LANGUAGE, cmd.start, format!("find_package({}) -> find_package(hip QUIET): optional, as CUDA was (the file tests {}_FOUND)", first.text, first.text), Some("configure with -DCMAKE_CXX_COMPILER=hipcc for the HIP build; with another compiler the file builds as it did without CUDA".into()));
                } else if st.device_code {
                    sink.diag(B_LANGUAGE, cmd.start, format!("find_package({}) -> find_package(hip REQUIRED)", first.text), Some("configure with -DCMAKE_CXX_COMPILER=hipcc; GPU_TARGETS picks the AMD targets".into()));
                } else {
                    sink.diag(B_LANGUAGE, cmd.start, format!("find_package({}) -> find_package(hip REQUIRED): the file compiles no CUDA code, so it only links HIP's libraries", first.text), Some("hip::host and the HIP libraries link with any C++ compiler; a file that adds HIP sources needs -DCMAKE_CXX_COMPILER=hipcc and hip::device".into()));
                }
            } else if first.text == "CCCL" {
                cccl_package(st, sink, cmd);
            } else if matches!(first.text.as_str(), "NCCL" | "nccl") && !first.quoted {
                nccl_package(st, sink, cmd);
            } else if matches!(first.text.as_str(), "CUDNN" | "cuDNN" | "cudnn") {
                sink.diag(
                    B_CONSTRUCT,
                    cmd.start,
                    format!("find_package({}) looks for an NVIDIA library", first.text),
                    Some(
                        "ROCm's counterpart of cuDNN is MIOpen (find_package(miopen), MIOpen), whose API differs: the code that calls cuDNN needs a port".into(),
                    ),
                );
            }
        }
        "cuda_add_executable" | "cuda_add_library" => {
            let new = if cmd.name == "cuda_add_executable" {
                "add_executable"
            } else {
                "add_library"
            };
            sink.edit(cmd.start, cmd.start + cmd.name.len(), new, B_LANGUAGE.id);
            st.has_targets = true;
            st.cuda_lang = true;
            st.gpu_targets.push(st.current);
            findcuda_target_arguments(st, sink, cmd);
        }
        "cuda_compile"
        | "cuda_compile_ptx"
        | "cuda_compile_fatbin"
        | "cuda_compile_cubin"
        | "cuda_wrap_srcs" => findcuda_compile(st, sink, cmd),
        "cuda_include_directories" => {
            sink.edit(
                cmd.start,
                cmd.start + cmd.name.len(),
                "include_directories",
                B_LANGUAGE.id,
            );
        }
        "cuda_add_cublas_to_target" => {
            if let Some(t) = args.first() {
                sink.edit(
                    cmd.start,
                    cmd.end,
                    format!("target_link_libraries({} roc::hipblas)", t.text),
                    B_LIB_MAPPED.id,
                );
                if let Some(lib) = flags::library("cublas") {
                    let t = st.hip_target(lib);
                    st.uses_library(&t);
                }
            }
        }
        "add_executable" | "add_library" => st.has_targets = true,
        n if PACKAGE_TARGET_MAKERS.contains(&n) => st.has_targets = true,
        "find_library" => find_library_names(st, sink, cmd),
        "find_path" | "find_file" => cudnn_header_lookup(st, sink, cmd),
        "file"
            if args
                .first()
                .is_some_and(|a| arg_is(a, "GLOB") || arg_is(a, "GLOB_RECURSE")) =>
        {
            renamed_out_of_globs(st, sink, cmd);
        }
        "set" | "list" => {
            let var_idx = usize::from(cmd.name == "list");
            let Some(var) = args.get(var_idx) else { return };
            match var.text.as_str() {
                "CMAKE_CUDA_ARCHITECTURES" | "CUDA_ARCHITECTURES"
                    if cmd.name == "set" && st.arch_readers.contains_key(&var.text) =>
                {
                    let (line, reader) = st.arch_readers[&var.text].clone();
                    if st.arch_reported.insert(var.text.clone()) {
                        sink.diag(
                            B_ARCH,
                            cmd.start,
                            format!(
                                "{} kept: `{reader}` on line {line} reads it, and what the project derives from it (a minimum architecture, a source list) would change without it; it has no effect on hipcc-compiled sources",
                                var.text
                            ),
                            Some(format!(
                                "AMD targets come from GPU_TARGETS ({}); check what the project derives from the NVIDIA architectures",
                                st.opts.offload_arch.join(";")
                            )),
                        );
                    }
                }
                "CMAKE_CUDA_ARCHITECTURES" | "CUDA_ARCHITECTURES" if cmd.name == "set" => {
                    let (s, e) = command_line(src, cmd);
                    if sink.edit(s, e, "", B_ARCH.id) {
                        let vals: Vec<&str> = args[1..].iter().map(|a| a.text.as_str()).collect();
                        sink.diag(
                            B_ARCH,
                            cmd.start,
                            format!(
                                "{} {} removed: AMD targets come from GPU_TARGETS ({})",
                                var.text,
                                vals.join(" "),
                                st.opts.offload_arch.join(";")
                            ),
                            // R43-1: quoted, as `;` ends a shell command, and with the
                            // run's own targets.
                            Some(format!(
                                "override with cmake -DGPU_TARGETS=\"{}\"",
                                st.opts.offload_arch.join(";")
                            )),
                        );
                    }
                }
                "CMAKE_CUDA_SEPARABLE_COMPILATION" if cmd.name == "set" && is_on(args.get(1)) => {
                    let indent = indentation(src, cmd.start);
                    if sink.edit(
                        cmd.start,
                        cmd.end,
                        format!(
                            "add_compile_options(-fgpu-rdc)\n{indent}add_link_options(-fgpu-rdc)"
                        ),
                        B_RDC.id,
                    ) {
                        sink.diag(B_RDC, cmd.start, "CMAKE_CUDA_SEPARABLE_COMPILATION -> -fgpu-rdc on every compile and link".into(), None);
                    }
                }
                v if TOOLCHAIN_VARS.contains(&v) => {
                    sink.diag(
                        B_CONSTRUCT,
                        cmd.start,
                        format!("{} configures NVIDIA's toolchain", var.text),
                        Some("remove it; hipcc is chosen with -DCMAKE_CXX_COMPILER=hipcc".into()),
                    );
                }
                // Its flags are mapped by `general`, after what else is rewritten in them.
                "CUDA_NVCC_FLAGS" => nvcc_flags_variable(st, sink, var.start),
                _ => {}
            }
        }
        "set_target_properties"
        | "set_property"
        | "set_source_files_properties"
        | "set_tests_properties" => properties(st, sink, cmd),
        _ => {}
    }
}

/// The keywords of `find_library()` after its variable: where its names end (`NAMES a b HINTS
/// ...`).
const FIND_LIBRARY_KEYWORDS: &[&str] = &[
    "NAMES",
    "NAMES_PER_DIR",
    "HINTS",
    "PATHS",
    "PATH_SUFFIXES",
    "DOC",
    "REQUIRED",
    "NO_CACHE",
    "REGISTRY_VIEW",
    "VALIDATOR",
    "ENV",
    "NO_DEFAULT_PATH",
    "NO_PACKAGE_ROOT_PATH",
    "NO_CMAKE_PATH",
    "NO_CMAKE_ENVIRONMENT_PATH",
    "NO_SYSTEM_ENVIRONMENT_PATH",
    "NO_CMAKE_SYSTEM_PATH",
    "NO_CMAKE_INSTALL_PREFIX",
    "CMAKE_FIND_ROOT_PATH_BOTH",
    "ONLY_CMAKE_FIND_ROOT_PATH",
    "NO_CMAKE_FIND_ROOT_PATH",
];

/// V19-a: the names a `find_library()` looks for, read as CMake reads them (cmFindBase): the
/// arguments after the variable and after each `NAMES` are names until another keyword (`PATHS
/// ...`, `HINTS ...`, `NO_DEFAULT_PATH`, in any order); with no keyword at all only the first
/// is a name (the short form `find_library(VAR name path...)`, whose others are paths).
fn find_library_args(args: &[Arg]) -> Vec<&Arg> {
    let is_keyword = |a: &Arg| !a.quoted && FIND_LIBRARY_KEYWORDS.contains(&a.text.as_str());
    let rest = args.get(1..).unwrap_or_default();
    if !rest.iter().any(is_keyword) {
        return rest.iter().take(1).collect();
    }
    let mut names = Vec::new();
    let mut naming = true;
    let mut skip_value = false;
    for a in rest {
        if skip_value {
            skip_value = false;
        } else if is_keyword(a) {
            naming = a.text == "NAMES";
            // `ENV X` (of PATHS/HINTS), `DOC "..."`, `REGISTRY_VIEW v`, `VALIDATOR f` take one
            // value each, never a name.
            skip_value = matches!(
                a.text.as_str(),
                "ENV" | "DOC" | "REGISTRY_VIEW" | "VALIDATOR"
            );
        } else if naming {
            names.push(a);
        }
    }
    names
}

/// V19-a: the library a `find_library()` name stands for: CMake looks a name up as given and as
/// `lib<name>.so` / `<name>.lib`, so `libcudnn`, `libcudnn.so.8` and `cudnn.lib` all find
/// cuDNN.
fn library_file_stem(name: &str) -> &str {
    let mut n = name;
    for ext in [".so", ".a", ".dylib", ".lib", ".dll"] {
        if let Some(p) = n.find(ext).filter(|&p| {
            let after = &n[p + ext.len()..];
            p > 0 && (after.is_empty() || (ext == ".so" && after.starts_with('.')))
        }) {
            n = &n[..p];
            break;
        }
    }
    n.strip_prefix("lib").filter(|s| !s.is_empty()).unwrap_or(n)
}

/// `find_library(VAR name ...)` / `find_library(VAR NAMES a b ...)` of a CUDA library (xmrig-cuda's
/// `find_library(CUDA_LIB cuda ...)` and `find_library(CUDA_NVRTC_LIB nvrtc ...)`): each name
/// becomes the HIP library's (`cuda` and `cudart` `amdhip64`, `nvrtc` `hiprtc` or `amdhip64` by
/// release, see [`hip_target`], `cublas` `hipblas`), so the variable is found on ROCm, where it
/// was NOTFOUND and stopped the configure step. A CUDA library with no HIP counterpart is an
/// error (B005), as is one the target release does not ship yet.
fn find_library_names(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let args = &cmd.args;
    let names = find_library_args(args);
    if names.is_empty() {
        return;
    }
    let var = args.first().map_or("", |a| a.text.as_str());
    // V18-b: every name a library no source uses (see [`flags::unused_library`]): the command
    // goes, and with it the variable's links (see [`dropped_library_link`]), which would
    // otherwise link a library nothing calls (or stop the configure step as NOTFOUND).
    let unused: Vec<(String, String)> = names
        .iter()
        .filter_map(|a| {
            (!a.bracket)
                .then(|| flags::unused_library(library_file_stem(&a.text), st.opts))
                .flatten()
        })
        .collect();
    if !names.is_empty() && unused.len() == names.len() && !var.is_empty() {
        let (s, e) = command_line(st.src, cmd);
        if sink.edit_over(s, e, "", B_LIB_MAPPED.id) {
            let (message, help) = &unused[0];
            sink.diag(
                B_LIB_MAPPED,
                cmd.start,
                format!(
                    "find_library({var} {}) removed, with the links of ${{{var}}}: {}",
                    names
                        .iter()
                        .map(|a| a.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" "),
                    message.split_once(": ").map_or(message.as_str(), |m| m.1)
                ),
                Some(format!("{help}; other reads of {var} now see it unset")),
            );
            st.dropped_library_vars.insert(var.to_string());
        }
        return;
    }
    for a in names.into_iter().filter(|a| !a.bracket) {
        let name = a.text.as_str();
        let Some(lib) = flags::library(name) else {
            if let Some((_, info, message, help)) = flags::map_library_name(name) {
                if info.id == B_LIB_UNMAPPED.id {
                    sink.diag(
                        B_LIB_UNMAPPED,
                        a.start,
                        format!(
                            "find_library({var} {name}): {message}, so {var} is NOTFOUND on ROCm"
                        ),
                        help,
                    );
                }
            }
            continue;
        };
        if !shipped(st, sink, lib, name, a.start) {
            continue;
        }
        let new = st.hip_target(lib);
        if sink.edit(a.content_start, a.content_end, new.link, B_LIB_MAPPED.id) {
            let found = "ROCm's libraries are found under <prefix>/lib for each <prefix>/bin on PATH (/opt/rocm/bin); elsewhere pass -DCMAKE_PREFIX_PATH=<rocm>";
            // V21-d: cuDNN's counterpart links, but the code that calls it needs a port: a
            // warning, as for the library's other mentions.
            if let Some(differs) = flags::api_differs(name) {
                sink.diag_as(
                    B_LIB_MAPPED,
                    Severity::Warning,
                    a.start,
                    format!("find_library({var} {name}) -> {}: {differs}", new.link),
                    Some(format!("{}; {found}", flags::API_DIFFERS_HELP)),
                );
                continue;
            }
            let why = hiprtc_help(lib, st.opts.hip_version).unwrap_or_else(|| {
                format!("ROCm has no library named `{name}` (on ROCm this lookup would leave {var} NOTFOUND); `{}` is its HIP counterpart", new.link)
            });
            sink.diag(
                B_LIB_MAPPED,
                a.start,
                format!("find_library({var} {name}) -> {}: {why}", new.link),
                Some(found.into()),
            );
        }
    }
}

/// V21-d: `find_path(VAR cudnn.h ...)` (and `find_file`), the header half of the usual way to
/// find cuDNN. Where a source uses cuDNN it becomes MIOpen, and the sources include
/// `<miopen/miopen.h>` where they included `<cudnn.h>`: the lookup follows them, so that the
/// guard of the variable (`if(NOT VAR) message(FATAL_ERROR ...)`) passes on ROCm. Where none
/// does (cuDNN is dropped, see [`find_library_names`]), a lookup of cuDNN's header alone goes
/// with its guards, like the library's.
fn cudnn_header_lookup(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let names = find_library_args(&cmd.args);
    let var = cmd.args.first().map_or("", |a| a.text.as_str());
    let is_cudnn = |a: &Arg| !a.bracket && a.text == "cudnn.h";
    let Some(header) = names.iter().copied().find(|a| is_cudnn(a)) else {
        return;
    };
    if var.is_empty() {
        return;
    }
    if st.opts.unused_libraries.contains("cudnn") {
        if !names.iter().all(|a| is_cudnn(a)) {
            return;
        }
        let (s, e) = command_line(st.src, cmd);
        if sink.edit_over(s, e, "", B_LIB_MAPPED.id) {
            sink.diag(
                B_LIB_MAPPED,
                cmd.start,
                format!("{}({var} cudnn.h) removed: no source in the tree uses cuDNN, whose library lookup goes too", cmd.name),
                Some(format!("a source that calls cuDNN needs it back; other reads of {var} now see it unset")),
            );
            st.dropped_library_vars.insert(var.to_string());
        }
        return;
    }
    let new = "miopen/miopen.h";
    if sink.edit(
        header.content_start,
        header.content_end,
        new,
        B_LIB_MAPPED.id,
    ) {
        sink.diag(
            B_LIB_MAPPED,
            header.start,
            format!("{}({var} cudnn.h) -> {new}: cuDNN becomes MIOpen, and the sources now include <{new}>, which ROCm installs under <prefix>/include; ROCm has no cudnn.h, so the old lookup would leave {var} NOTFOUND", cmd.name),
            Some("ROCm's headers are found under <prefix>/include for each <prefix>/bin on PATH (/opt/rocm/bin); elsewhere pass -DCMAKE_PREFIX_PATH=<rocm>".into()),
        );
    }
}

/// The targets NVIDIA's CCCL package (`find_package(CCCL)`, or CPM's download of nvidia/cccl)
/// defines, each with what replaces it: ROCm's rocThrust (`roc::rocthrust`, package rocthrust)
/// and hipCUB (`hip::hipcub`, package hipcub). `CCCL::CCCL` is Thrust, CUB and libcu++ together:
/// it becomes both (libcu++ has no ROCm counterpart); `CCCL::libcudacxx` none.
const CCCL_TARGETS: &[(&str, &[HipTarget])] = &[
    ("CCCL::CCCL", &[ROCTHRUST, HIPCUB]),
    ("CCCL::Thrust", &[ROCTHRUST]),
    ("CCCL::CUB", &[HIPCUB]),
    ("CCCL::libcudacxx", &[]),
];

/// rocThrust, which replaces Thrust.
const ROCTHRUST: HipTarget = HipTarget {
    target: "roc::rocthrust",
    package: Some("rocthrust"),
    link: "rocthrust",
};

/// hipCUB, which replaces CUB.
const HIPCUB: HipTarget = HipTarget {
    target: "hip::hipcub",
    package: Some("hipcub"),
    link: "hipcub",
};

/// `find_package(CCCL ...)` becomes `find_package(rocthrust ...)` and `find_package(hipcub ...)`,
/// with its `CONFIG`, `REQUIRED` and `QUIET` (a CCCL version means nothing to them).
fn cccl_package(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let keywords: String = cmd.args[1..]
        .iter()
        .filter(|a| ["CONFIG", "REQUIRED", "QUIET"].iter().any(|k| arg_is(a, k)))
        .map(|a| format!(" {}", a.text))
        .collect();
    let indent = indentation(st.src, cmd.start);
    let text = format!("find_package(rocthrust{keywords})\n{indent}find_package(hipcub{keywords})");
    if sink.edit(cmd.start, cmd.end, text, B_LIB_MAPPED.id) {
        st.provided.extend(["rocthrust", "hipcub"]);
        sink.diag(
            B_LIB_MAPPED,
            cmd.start,
            "find_package(CCCL) -> find_package(rocthrust) and find_package(hipcub): ROCm's Thrust and CUB".into(),
            Some("libcu++ (cuda/std/..., cuda::) has no ROCm counterpart: port code that uses it".into()),
        );
    }
}

/// The `CCCL::` targets of an argument (see [`CCCL_TARGETS`]), and a command that downloads NVIDIA's
/// CCCL, Thrust or CUB (`CPMAddPackage(... GITHUB_REPOSITORY nvidia/cccl ...)`,
/// `FetchContent_Declare`), which builds for nvcc alone: a warning that says to use ROCm's.
fn cccl_targets(st: &mut State, sink: &mut Sink, cmd: &Command, a: &Arg) {
    let t = a.text.as_str();
    let lower = t.to_ascii_lowercase();
    if [
        "nvidia/cccl",
        "nvidia/thrust",
        "nvidia/cub",
        "nvidia/libcudacxx",
    ]
    .iter()
    .any(|r| lower.contains(r))
    {
        sink.diag(
            B_CONSTRUCT,
            a.start,
            format!(
                "{}() downloads NVIDIA's CCCL (Thrust, CUB, libcu++), which builds for nvcc alone",
                &st.src[cmd.start..cmd.start + cmd.name.len()]
            ),
            Some("remove it: ROCm ships rocThrust and hipCUB (find_package(rocthrust), find_package(hipcub)), which the CCCL:: targets become".into()),
        );
    }
    for (pos, _) in t.match_indices("CCCL::") {
        let end = t[pos..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
            .map_or(t.len(), |e| pos + e);
        let name = &t[pos..end];
        let Some((_, targets)) = CCCL_TARGETS.iter().find(|(n, _)| *n == name) else {
            continue;
        };
        // Several targets are several arguments: only where the name is a whole one.
        let whole = !a.quoted && pos == 0 && end == t.len();
        let targets: &[HipTarget] = match targets {
            [] => {
                sink.diag(
                    B_LIB_UNMAPPED,
                    a.content_start + pos,
                    format!("{name} (libcu++) has no ROCm counterpart"),
                    Some("port the code that uses cuda::std and the cuda:: extensions".into()),
                );
                continue;
            }
            [first, ..] if !whole => std::slice::from_ref(first),
            all => all,
        };
        let text: Vec<&str> = targets.iter().map(|h| h.target).collect();
        let text = text.join(" ");
        if sink.edit(
            a.content_start + pos,
            a.content_start + end,
            text.clone(),
            B_LIB_MAPPED.id,
        ) {
            for h in targets {
                st.uses_library(h);
            }
            sink.diag(
                B_LIB_MAPPED,
                a.content_start + pos,
                format!("{name} -> {text}: ROCm's Thrust and CUB"),
                (name == "CCCL::CCCL").then(|| {
                    "libcu++ (cuda/std/..., cuda::) has no ROCm counterpart: port code that uses it"
                        .to_string()
                }),
            );
        }
    }
}

/// The keywords FindCUDA's `cuda_add_executable()`/`cuda_add_library()` take anywhere among the
/// sources and pass on right after the target name, the only place where `add_executable()` and
/// `add_library()` read them (elsewhere they are sources that do not exist).
const FINDCUDA_TARGET_KEYWORDS: &[&str] = &[
    "WIN32",
    "MACOSX_BUNDLE",
    "EXCLUDE_FROM_ALL",
    "STATIC",
    "SHARED",
    "MODULE",
];

/// The configurations whose name among FindCUDA's `OPTIONS` gives the options after it to that
/// configuration alone.
const FINDCUDA_CONFIGS: &[&str] = &["DEBUG", "RELEASE", "MINSIZEREL", "RELWITHDEBINFO"];

/// Whether an argument is one of [`FINDCUDA_TARGET_KEYWORDS`].
fn is_target_keyword(a: &Arg) -> bool {
    !a.bracket && FINDCUDA_TARGET_KEYWORDS.contains(&a.text.as_str())
}

/// The index of the `OPTIONS` keyword of a `cuda_add_executable()`/`cuda_add_library()`: the
/// arguments after it (but keywords) are nvcc options, not sources.
fn findcuda_options(cmd: &Command) -> Option<usize> {
    if !matches!(
        cmd.name.as_str(),
        "cuda_add_executable" | "cuda_add_library"
    ) {
        return None;
    }
    cmd.args
        .iter()
        .skip(1)
        .position(|a| arg_is(a, "OPTIONS"))
        .map(|p| p + 1)
}

/// The arguments of FindCUDA's `cuda_add_executable()`/`cuda_add_library()` that
/// `add_executable()`/`add_library()` read otherwise: its keywords (`STATIC`, `SHARED`,
/// `EXCLUDE_FROM_ALL`, ..., see [`FINDCUDA_TARGET_KEYWORDS`]) move right after the target name,
/// and its `OPTIONS`, which FindCUDA gave to nvcc for the CUDA sources alone, go to a
/// `target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:...>)` after it, mapped to
/// hipcc's flags (a configuration's name among them, `DEBUG -g`, makes the options after it that
/// configuration's): the end of the file gives what that test guards to the target's HIP sources.
/// Options hipport cannot wrap so (a quote, a generator expression, a `;`) stay, with a warning.
fn findcuda_target_arguments(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let src = st.src;
    let args = &cmd.args;
    let Some(name) = args.first() else { return };
    let lead = args[1..]
        .iter()
        .take_while(|a| is_target_keyword(a))
        .count();
    let options_at = findcuda_options(cmd);
    let late: Vec<&Arg> = args[1 + lead..options_at.unwrap_or(args.len())]
        .iter()
        .filter(|a| is_target_keyword(a))
        .collect();
    let mut moved: Vec<&str> = late.iter().map(|a| a.text.as_str()).collect();
    if let Some(k) = options_at {
        let rest = &args[k + 1..];
        let simple = |a: &Arg| {
            !a.bracket
                && !a.text.contains("$<")
                && !a
                    .text
                    .contains(['"', '\\', ';', '>', ' ', '\t', '\r', '\n'])
        };
        if is_target_name(&name.text) && rest.iter().all(simple) {
            // The options, each group with its configuration.
            let mut groups: Vec<(Option<&str>, Vec<&Arg>)> = vec![(None, Vec::new())];
            let mut keywords: Vec<&str> = Vec::new();
            for a in rest {
                if is_target_keyword(a) {
                    keywords.push(&a.text);
                } else if arg_is(a, "OPTIONS") {
                } else if !a.quoted && FINDCUDA_CONFIGS.contains(&a.text.as_str()) {
                    groups.push((Some(&a.text), Vec::new()));
                } else if let Some(g) = groups.last_mut() {
                    g.1.push(a);
                }
            }
            let mut wrapped: Vec<String> = Vec::new();
            let mut notes = Vec::new();
            for (config, group) in &groups {
                let texts: Vec<&str> = group.iter().map(|a| a.text.as_str()).collect();
                let mut done = false;
                let mapped = flags::map_words(&texts, st.opts, Context::Nvcc, &mut done);
                for (_, w) in mapped.applied(&texts) {
                    let w = with_renamed_vars(&w);
                    wrapped.push(match config {
                        Some(c) => format!("$<$<COMPILE_LANGUAGE:CUDA>:$<$<CONFIG:{c}>:{w}>>"),
                        None => format!("$<$<COMPILE_LANGUAGE:CUDA>:{w}>"),
                    });
                }
                notes.extend(mapped.notes.into_iter().map(|n| {
                    let at = group[n.word].start;
                    (n, at)
                }));
            }
            let (s, _) = arg_span(src, &args[k]);
            let e = args.last().map_or(args[k].end, |a| a.end);
            if sink.edit(s, e, "", B_LANGUAGE.id) {
                moved.extend(keywords);
                let indent = indentation(src, cmd.start);
                if !wrapped.is_empty() {
                    sink.insert_after(
                        cmd.end,
                        &format!(
                            "\n{indent}target_compile_options({} PRIVATE {})",
                            name.text,
                            wrapped.join(" ")
                        ),
                        B_LANGUAGE.id,
                    );
                }
                for (n, at) in notes {
                    sink.note(n, at);
                }
                sink.diag(
                    B_LANGUAGE,
                    args[k].start,
                    format!(
                        "{}(... OPTIONS ...) -> target_compile_options({} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:...>): FindCUDA gave them to nvcc for the CUDA sources alone",
                        cmd.name, name.text
                    ),
                    None,
                );
            }
        } else {
            sink.diag(
                B_CONSTRUCT,
                args[k].start,
                format!(
                    "{}(... OPTIONS ...) passes nvcc options, which hipport does not move here (a quote, a generator expression, a `;` or a target name it does not read); add_executable/add_library has no such keyword",
                    cmd.name
                ),
                Some("move the options to target_compile_options() and convert again".into()),
            );
        }
    }
    if !moved.is_empty() {
        let text: String = moved.iter().map(|k| format!(" {k}")).collect();
        // Inserted first: a keyword is removed only once it has its new place.
        if sink.edit(name.end, name.end, text, B_LANGUAGE.id) {
            for a in late {
                remove_arg(sink, src, a, B_LANGUAGE.id);
            }
            sink.diag(
                B_LANGUAGE,
                name.end,
                format!(
                    "{} moved right after the target name: {}() reads it only there, where {}() took it anywhere",
                    moved.join(" "),
                    if cmd.name == "cuda_add_executable" { "add_executable" } else { "add_library" },
                    cmd.name
                ),
                None,
            );
        }
    }
}

/// FindCUDA's `cuda_compile(VAR k.cu ... [STATIC|SHARED|MODULE])` set VAR to the objects nvcc
/// made of the sources, for a target to list (Kaldi's `add_library(l host.cc ${CUDA_OBJS})`):
/// hipcc compiles the sources themselves as CXX there (see [`EPILOGUE`]), so it becomes
/// `set(VAR k.cu ...)`. Kept was `Unknown CMake command "cuda_compile"` with no finding (T-a).
/// With `OPTIONS` (nvcc's, for those sources alone) it stays, with an error, and so do
/// `cuda_compile_ptx`/`_fatbin`/`_cubin` and `cuda_wrap_srcs`, whose NVIDIA code objects (or
/// custom commands) hipcc does not make so.
fn findcuda_compile(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let args = &cmd.args;
    let options = args.iter().skip(1).any(|a| arg_is(a, "OPTIONS"));
    if cmd.name == "cuda_compile" && !options && args.len() > 1 {
        if sink.edit(cmd.start, cmd.start + cmd.name.len(), "set", B_LANGUAGE.id) {
            // Target kinds: the objects' target's, which no target is made of now.
            for a in args[1..]
                .iter()
                .filter(|a| ["STATIC", "SHARED", "MODULE"].iter().any(|k| arg_is(a, k)))
            {
                remove_arg(sink, st.src, a, B_LANGUAGE.id);
            }
            st.cuda_lang = true;
            st.gpu_targets.push(st.current);
            sink.diag(
                B_LANGUAGE,
                cmd.start,
                format!(
                    "cuda_compile({var} ...) -> set({var} ...): the target that lists ${{{var}}} compiles those sources as CXX with hipcc, as it linked the objects nvcc made of them",
                    var = args[0].text
                ),
                None,
            );
        }
        return;
    }
    let help = match cmd.name.as_str() {
        "cuda_compile" if options => "set the variable to the sources (set(VAR k.cu)) and give the options, in hipcc's spelling, to those sources (set_source_files_properties(k.cu PROPERTIES COMPILE_OPTIONS ...))",
        "cuda_wrap_srcs" => "list the .cu sources in the target itself (add_library/add_executable): hipcc compiles them as CXX",
        _ => "make a code object hipModuleLoad reads with add_custom_command(OUTPUT k.hsaco COMMAND ${CMAKE_CXX_COMPILER} --genco --offload-arch=<gfx> -o k.hsaco k.cu); hipcc makes no PTX, cubin or fatbin",
    };
    sink.diag_as(
        B_CONSTRUCT,
        Severity::Error,
        cmd.start,
        format!(
            "{}() is FindCUDA's, which the HIP build does not load (`Unknown CMake command`), and hipport does not translate it{}",
            cmd.name,
            if options { " with OPTIONS" } else { "" }
        ),
        Some(help.into()),
    );
}

/// `file(GLOB|GLOB_RECURSE var patterns...)`: a pattern that matched sources the conversion
/// renamed and no longer matches their new names (thundersvm's `*.c*` with `--rename hip`: the
/// `.hip` kernels drop out of the library silently) gets a pattern for the new extension beside
/// it (`*.c* *.hip`), with a warning (B010); one that cannot (an argument of several patterns, a
/// name without an extension) gets the warning alone. Patterns that name the old extension
/// (`*.cu`) are renamed in place elsewhere (see [`general`]).
fn renamed_out_of_globs(st: &State, sink: &mut Sink, cmd: &Command) {
    let args = &cmd.args;
    let recurse = arg_is(&args[0], "GLOB_RECURSE");
    let matches = |pattern: &str, name: &str| {
        globset::Glob::new(pattern).is_ok_and(|g| g.compile_matcher().is_match(name))
    };
    let mut patterns: Vec<&Arg> = Vec::new();
    let mut k = 2;
    while k < args.len() {
        let a = &args[k];
        if ["LIST_DIRECTORIES", "RELATIVE"]
            .iter()
            .any(|w| arg_is(a, w))
        {
            k += 2;
            continue;
        }
        if !a.bracket
            && !a.text.contains("$<")
            && !["CONFIGURE_DEPENDS", "FOLLOW_SYMLINKS"]
                .iter()
                .any(|w| arg_is(a, w))
        {
            patterns.push(a);
        }
        k += 1;
    }
    let items: Vec<&str> = patterns
        .iter()
        .flat_map(|a| a.text.split(';'))
        .filter(|i| !i.is_empty())
        .collect();
    for a in &patterns {
        let several = a.text.split(';').filter(|i| !i.is_empty()).count() > 1;
        for item in a.text.split(';').filter(|i| !i.is_empty()) {
            let (dir, name) = item.rsplit_once('/').unwrap_or(("", item));
            // Named by its old extension: renamed in place.
            if st.exts.keys().any(|old| {
                name.match_indices(&format!(".{old}")).any(|(p, _)| {
                    name.as_bytes()
                        .get(p + old.len() + 1)
                        .is_none_or(|c| !c.is_ascii_alphanumeric())
                })
            }) {
                continue;
            }
            let local = ["${CMAKE_CURRENT_SOURCE_DIR}", "${CMAKE_CURRENT_LIST_DIR}"]
                .iter()
                .find_map(|v| dir.strip_prefix(v))
                .unwrap_or(dir)
                .trim_start_matches('/');
            let known = !local.contains(['$', '*', '?', '[']);
            let lost = st.renames.iter().find(|(old, new)| {
                let (odir, oname) = old.rsplit_once('/').unwrap_or(("", old));
                let nname = new.rsplit('/').next().unwrap_or(new);
                let here = !known
                    || odir == local
                    || (recurse
                        && !odir.starts_with("..")
                        && (local.is_empty() || odir.starts_with(&format!("{local}/"))));
                here && matches(name, oname)
                    && !matches(name, nname)
                    && !items
                        .iter()
                        .any(|i| matches(i.rsplit('/').next().unwrap_or(i), nname))
            });
            let Some((old, new)) = lost else { continue };
            let old_ext = old.rsplit('.').next().unwrap_or("");
            let new_ext = new.rsplit('.').next().unwrap_or("");
            let added = name.rfind('.').map(|p| {
                let dir_part = &item[..item.len() - name.len()];
                format!("{dir_part}{}.{new_ext}", &name[..p])
            });
            let added = added.filter(|p| {
                !several
                    && matches(
                        p.rsplit('/').next().unwrap_or(p),
                        new.rsplit('/').next().unwrap_or(new),
                    )
            });
            let text = added.as_ref().map(|p| {
                if a.quoted {
                    format!(" \"{p}\"")
                } else {
                    format!(" {p}")
                }
            });
            let inserted = text.is_some_and(|t| sink.edit(a.end, a.end, t, B_GLOB.id));
            match added {
                Some(added) if inserted => {
                    sink.diag(
                        B_GLOB,
                        a.start,
                        format!(
                            "pattern `{item}` matched the .{old_ext} sources, renamed to .{new_ext}, and no longer does: `{added}` added beside it"
                        ),
                        Some(format!("check that it selects the renamed .{new_ext} files and nothing else")),
                    );
                }
                _ => sink.diag(
                    B_GLOB,
                    a.start,
                    format!(
                        "pattern `{item}` matched the .{old_ext} sources, renamed to .{new_ext}, and no longer does: `{old}` is now `{new}`"
                    ),
                    Some(format!("add a pattern for the renamed .{new_ext} files")),
                ),
            }
            break;
        }
    }
}

/// `CUDA_NVCC_FLAGS` set or appended to. FindCUDA's `cuda_add_*()`/`cuda_compile*()` macros
/// passed it to nvcc; CMake's CUDA language never read it. So a file that passes it on itself
/// (`target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${CUDA_NVCC_FLAGS}>)`, which
/// still reaches hipcc through the appended code) gets nothing; one that uses FindCUDA's macros
/// and does not pass it on loses it (a warning, once); one that does neither gets a note, once:
/// another file (a subdirectory) may pass it on, and otherwise it had no effect before either.
fn nvcc_flags_variable(st: &mut State, sink: &mut Sink, at: usize) {
    if st.nvcc_flags_read || st.nvcc_flags_reported {
        return;
    }
    st.nvcc_flags_reported = true;
    let help = "pass it on where the targets are made: target_compile_options(t PRIVATE \
                $<$<COMPILE_LANGUAGE:CUDA>:${CUDA_NVCC_FLAGS}>) reaches the HIP sources alone";
    if st.findcuda_macros {
        sink.diag(
            B_CONSTRUCT,
            at,
            "CUDA_NVCC_FLAGS no longer reaches the compiler: FindCUDA's cuda_add_*() macros passed \
             it to nvcc, and nothing in this file passes it on"
                .into(),
            Some(help.into()),
        );
    } else {
        sink.diag_as(
            B_CONSTRUCT,
            Severity::Note,
            at,
            "CUDA_NVCC_FLAGS is FindCUDA's, and nothing in this file passes it on: it reaches \
             hipcc only where another file does (CMake's CUDA language never read it)"
                .into(),
            Some(help.into()),
        );
    }
}

/// The NVIDIA architecture variables (`CMAKE_CUDA_ARCHITECTURES`, `CUDA_ARCHITECTURES`) that the
/// file both sets and reads for its own logic, each with the first command that reads it: its
/// line and text. tiny-cuda-nn takes `list(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)` and
/// compiles `fully_fused_mlp.cu` only `if(MIN_GPU_ARCH GREATER_EQUAL 70)`: deleting the `set()`
/// would drop that source silently. The variable does nothing to hipcc-compiled sources (CMake
/// reads it for the CUDA language alone, which the port removes), so keeping it is harmless.
/// A read is `${VAR}`, `list(GET|LENGTH|FIND|JOIN|SUBLIST VAR ...)`, `foreach(... IN LISTS VAR)`,
/// `if()` operands compared or tested with `IN_LIST`, or an `if()` testing it whose branch
/// stops the configure (`if(NOT VAR) message(FATAL_ERROR ...)`); `if(VAR)`, `if(NOT VAR)` and
/// `if(DEFINED VAR)` that guard a default, and `set()`/`list()` that change it, are not.
fn architecture_readers(
    src: &str,
    cmds: &[Command],
) -> std::collections::BTreeMap<String, (usize, String)> {
    const OPS: &[&str] = &[
        "IN_LIST",
        "STREQUAL",
        "EQUAL",
        "LESS",
        "GREATER",
        "LESS_EQUAL",
        "GREATER_EQUAL",
        "MATCHES",
        "VERSION_LESS",
        "VERSION_GREATER",
        "VERSION_EQUAL",
        "VERSION_LESS_EQUAL",
        "VERSION_GREATER_EQUAL",
    ];
    let mut out = std::collections::BTreeMap::new();
    for var in ["CMAKE_CUDA_ARCHITECTURES", "CUDA_ARCHITECTURES"] {
        let sets = cmds
            .iter()
            .any(|c| c.name == "set" && c.args.first().is_some_and(|a| arg_is(a, var)));
        if !sets {
            continue;
        }
        let expansion = format!("${{{var}}}");
        let reads = |i: usize, c: &Command| -> bool {
            let own = match c.name.as_str() {
                "set" => c.args.first(),
                "list" => c.args.get(1),
                _ => None,
            }
            .is_some_and(|a| arg_is(a, var));
            let args = &c.args;
            let expanded = args
                .iter()
                .any(|a| !a.bracket && a.text.contains(&expansion));
            match c.name.as_str() {
                "set" if own => false,
                "list" if own => args.first().is_some_and(|a| {
                    matches!(
                        a.text.as_str(),
                        "GET" | "LENGTH" | "FIND" | "JOIN" | "SUBLIST"
                    )
                }),
                "if" | "elseif" | "while" => {
                    expanded
                        || args.iter().enumerate().any(|(k, a)| {
                            arg_is(a, var)
                                && [k.checked_sub(1), Some(k + 1)]
                                    .into_iter()
                                    .flatten()
                                    .filter_map(|j| args.get(j))
                                    .any(|o| OPS.iter().any(|op| arg_is(o, op)))
                        })
                        // `if(NOT VAR) message(FATAL_ERROR ...)` requires it: without the
                        // `set()` the configure stops (verify8).
                        || (c.name != "while"
                            && args.iter().any(|a| arg_is(a, var))
                            && fatal_in_taken_branch(cmds, i, true).is_some())
                }
                "foreach" => {
                    expanded
                        || args
                            .iter()
                            .skip_while(|a| !arg_is(a, "LISTS"))
                            .any(|a| arg_is(a, var))
                }
                // Printing derives nothing (R22-3).
                "message" => false,
                _ => expanded,
            }
        };
        if let Some((_, c)) = cmds.iter().enumerate().find(|(i, c)| reads(*i, c)) {
            let line = src[..c.start].matches('\n').count() + 1;
            let mut text = src[c.start..c.end]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            if text.chars().count() > 60 {
                text = text.chars().take(57).collect::<String>() + "...";
            }
            out.insert(var.to_string(), (line, text));
        }
    }
    out
}

/// Variables that configure NVIDIA's toolchain: their `set()` is reported (B008).
const TOOLCHAIN_VARS: &[&str] = &[
    "CMAKE_CUDA_COMPILER",
    "CMAKE_CUDA_HOST_COMPILER",
    "CUDA_TOOLKIT_ROOT_DIR",
    "CUDAToolkit_ROOT",
    "CUDA_HOST_COMPILER",
];

/// Whether a command reads `${CUDA_NVCC_FLAGS}`, other than a `set()`/`list()` of the variable
/// itself (`set(CUDA_NVCC_FLAGS "${CUDA_NVCC_FLAGS} -O3")`).
fn reads_nvcc_flags(cmd: &Command) -> bool {
    // A message only prints the flags: nothing compiles with them.
    if cmd.name == "message" {
        return false;
    }
    let var = match cmd.name.as_str() {
        "set" => cmd.args.first(),
        "list" => cmd.args.get(1),
        _ => None,
    };
    var.is_none_or(|v| v.text != "CUDA_NVCC_FLAGS")
        && cmd
            .args
            .iter()
            .any(|a| !a.bracket && a.text.contains("${CUDA_NVCC_FLAGS}"))
}

/// Whether a word can name a target that options are given to: CMake's target name characters
/// (letters, digits, `_`, `.`, `+`, `-`, not first) or a variable's value, and nothing the
/// conversion rewrites (a flag, a path or pattern, a `CUDA::` target, a renamed variable, a
/// FindCUDA library variable),
/// which would name another target in the options it inserts and on the next run.
fn is_target_name(t: &str) -> bool {
    let mut rest = t;
    while let Some(p) = rest.find("${") {
        let Some(e) = rest[p..].find('}') else {
            return false;
        };
        if !rest[..p]
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"_.+-".contains(&c))
        {
            return false;
        }
        let var = &rest[p + 2..p + e];
        if findcuda_library(var).is_some() || !var.bytes().all(is_ident) {
            return false;
        }
        rest = &rest[p + e + 1..];
    }
    !t.is_empty()
        && !t.starts_with('-')
        && rest
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || b"_.+-".contains(&c))
        && !RENAMED_VARS
            .iter()
            .any(|(old, new)| t.contains(old) || t.contains(new))
        // CUDA's variables are rewritten, and CMake's own (`CMAKE_CUDA_STANDARD`) name no target.
        && !t.contains("{CUDA")
        && !t.contains("CMAKE_")
}

/// The arguments of `set_target_properties(...)` and `set_property(TARGET ...)` that name the
/// targets (none for other commands). They are names, not flags: none is mapped as one, which
/// would make it a name only to the next run (`-Xcompiler=k` to `k`).
fn property_targets(cmd: &Command) -> std::ops::Range<usize> {
    let args = &cmd.args;
    let upto = |from: usize, stop: &[&str]| {
        let n = args[from..]
            .iter()
            .take_while(|a| !stop.contains(&a.text.as_str()))
            .count();
        from..from + n
    };
    match cmd.name.as_str() {
        "set_target_properties" => upto(0, &["PROPERTIES"]),
        "set_property" if args.first().is_some_and(|a| a.text == "TARGET") => {
            upto(1, &["PROPERTY", "APPEND", "APPEND_STRING"])
        }
        _ => 0..0,
    }
}

/// Whether the command's first argument names the target it makes (`add_library(k ...)`), a
/// name and never a flag, whatever it looks like.
fn names_target(cmd: &Command) -> bool {
    matches!(
        cmd.name.as_str(),
        "add_library"
            | "add_executable"
            | "cuda_add_library"
            | "cuda_add_executable"
            | "add_custom_target"
    ) || PACKAGE_TARGET_MAKERS.contains(&cmd.name.as_str())
}

/// Functions of well-known packages that make a target of the sources they are given, through
/// `add_library()` in the package's own code, which hipport does not see (U-b: extending-jax's
/// `pybind11_add_module(gpu_ops kernels.cc.cu)` got no CXX language for its `.cu` sources, and
/// CMake could not find its link language): pybind11's and nanobind's module functions, FindPython's
/// `Python_add_library()` (lowercase, as command names are read: CMake's are case-insensitive).
const PACKAGE_TARGET_MAKERS: &[&str] = &[
    "pybind11_add_module",
    "nanobind_add_module",
    "python_add_library",
    "python2_add_library",
    "python3_add_library",
];

/// `set_target_properties` / `set_property` / `set_source_files_properties`: CUDA properties.
fn properties(st: &mut State, sink: &mut Sink, cmd: &Command) {
    let args = &cmd.args;
    let targets: Vec<&Arg> = args[property_targets(cmd)].iter().collect();
    // Property names come after `PROPERTIES` / `PROPERTY`: a target or source before it that is
    // named like one (`LANGUAGE`) is none.
    let keyword = if cmd.name == "set_property" {
        "PROPERTY"
    } else {
        "PROPERTIES"
    };
    let names_from = args
        .iter()
        .position(|a| !a.bracket && a.text == keyword)
        .map_or(args.len(), |p| p + 1);
    for (k, a) in args.iter().enumerate().skip(names_from) {
        match a.text.as_str() {
            "LANGUAGE" => {
                if let Some(v) = args.get(k + 1).filter(|v| v.text == "CUDA") {
                    if sink.edit(v.start, v.end, "CXX", B_LANGUAGE.id) {
                        sink.diag(
                            B_LANGUAGE,
                            v.start,
                            "LANGUAGE CUDA -> LANGUAGE CXX: hipcc compiles the source as HIP"
                                .into(),
                            None,
                        );
                    }
                    st.gpu_sources = true;
                }
            }
            "CUDA_STANDARD" | "CUDA_STANDARD_REQUIRED" | "CUDA_EXTENSIONS" => {
                let new = a.text.replace("CUDA_", "CXX_");
                sink.edit(a.start, a.end, new, B_LANGUAGE.id);
            }
            "CUDA_ARCHITECTURES" => {
                sink.diag(
                    B_ARCH,
                    a.start,
                    "CUDA_ARCHITECTURES does not apply to hipcc-compiled targets".into(),
                    Some(format!(
                        "AMD targets come from GPU_TARGETS ({})",
                        st.opts.offload_arch.join(";")
                    )),
                );
            }
            "CUDA_RESOLVE_DEVICE_SYMBOLS" if is_on(args.get(k + 1)) => {
                sink.diag(
                    B_RDC,
                    a.start,
                    "CUDA_RESOLVE_DEVICE_SYMBOLS does nothing with hipcc: there is no device link \
                     in the library; the device code of -fgpu-rdc objects is linked where an \
                     executable or shared library is linked with -fgpu-rdc"
                        .into(),
                    Some(
                        "within this project the -fgpu-rdc link option reaches those links; a \
                         static library of -fgpu-rdc objects linked outside it (g++, another build) \
                         needs hipcc -fgpu-rdc --hip-link --offload-arch=<gfx> there"
                            .into(),
                    ),
                );
            }
            "CUDA_SEPARABLE_COMPILATION" if is_on(args.get(k + 1)) && !targets.is_empty() => {
                let indent = indentation(st.src, cmd.start);
                let mut text = String::new();
                let mut archived = Vec::new();
                // Nor a word named like a source that hipport renamed, before or after (the
                // conversion renames `kernel.cu`, the next run reads `kernel.hip`).
                let named = |t: &&&Arg| {
                    is_target_name(&t.text)
                        && !st.exts.iter().any(|(old, new)| {
                            t.text.ends_with(&format!(".{old}"))
                                || t.text.ends_with(&format!(".{new}"))
                        })
                };
                for t in targets.iter().filter(named) {
                    let t = t.text.as_str();
                    let done = |c: &str| st.rdc_done.contains(&(t.to_string(), c.to_string()));
                    if !done("target_compile_options") {
                        text.push_str(&format!(
                            "\n{indent}target_compile_options({t} PRIVATE -fgpu-rdc)"
                        ));
                    }
                    if done("target_link_options") {
                        continue;
                    }
                    // A static or object library is never linked itself: the executable or
                    // shared library that links it does the device link, so the flag must reach
                    // that link (PUBLIC). A target of another file may be either: PUBLIC too.
                    let scope = if st.linked.get(t) == Some(&true) {
                        "PRIVATE"
                    } else {
                        archived.push(t);
                        "PUBLIC"
                    };
                    text.push_str(&format!(
                        "\n{indent}target_link_options({t} {scope} -fgpu-rdc)"
                    ));
                }
                if text.is_empty() {
                    continue;
                }
                if sink.edit(cmd.end, cmd.end, text, B_RDC.id) {
                    let help = (!archived.is_empty()).then(|| {
                        format!(
                            "the link option of {} is PUBLIC: a static library is not linked itself, \
                             so -fgpu-rdc must reach the link of whatever links it (without it: \
                             undefined reference to `__hip_fatbin`)",
                            archived.join(", ")
                        )
                    });
                    sink.diag(
                        B_RDC,
                        a.start,
                        "CUDA_SEPARABLE_COMPILATION -> -fgpu-rdc on the target's compile and link"
                            .into(),
                        help,
                    );
                }
            }
            _ => {}
        }
    }
}

/// Maps nvcc flags in arguments (unquoted words, and blank-separated words inside quoted ones).
/// An argument the flags are not read from (a bracket argument, one holding a generator
/// expression) and a word holding a quote or a backslash stay in the list as opaque words (see
/// [`leave_opaque`]), so that no flag takes the word after them as its value.
/// Whether `CUDA_NVCC_FLAGS` reaches no compiler: FindCUDA's macros read it, and nothing in
/// the file passes it on (the B008 warning of [`nvcc_flags_variable`]).
fn nvcc_flags_dead(st: &State) -> bool {
    st.findcuda_macros && !st.nvcc_flags_read
}

/// Maps the flags of `args`. `dead`: they are the value of a `CUDA_NVCC_FLAGS` that reaches no
/// compiler (see [`nvcc_flags_dead`]): warp-transducer appends one `-gencode` to it per
/// architecture, and the AMD targets (with their note) are written at the first alone, the
/// later architecture flags removed without one (R19-1).
///
/// `items`: each argument is an element of a list (see [`items`]). There a quoted argument that
/// holds one flag alone stays one flag an element: a flag that becomes several is written as
/// several quoted arguments, and one that goes takes its quotes along (V21-b:
/// `foreach(flag IN ITEMS "-gencode=..." "-gencode=...")` gave one element holding a blank,
/// which clang reads as one target, and an empty `""`).
fn flag_args(
    st: &State,
    sink: &mut Sink,
    args: &[Arg],
    ctx: Context,
    arch: Option<Arch>,
    items: bool,
) {
    let dead = matches!(arch, Some(Arch::DeadNvccFlags));
    let mut words: Vec<Word> = Vec::new();
    for a in args {
        if a.quoted && !a.text.contains("$<") {
            words.extend(text::blank_words(
                st.src,
                a.content_start,
                a.content_end,
                false,
            ));
        } else {
            words.push(Word {
                start: a.start,
                end: a.end,
                text: st.src[a.start..a.end].to_string(),
                quote: None,
            });
        }
    }
    let (mut words, listed) = list_elements(words);
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    // R33-1: in a dead `CUDA_NVCC_FLAGS` no architecture flag gets the AMD targets (the
    // `GPU_TARGETS` of the `hip` package give them): every one goes, with one note.
    let mut done = arch.is_some();
    let mut mapped = flags::map_words(&texts, st.opts, ctx, &mut done);
    if leave_opaque(sink, &words, &mut mapped) {
        return;
    }
    if dead {
        let mut noted = st.dead_nvcc_arch.get();
        mapped.notes.retain(|n| {
            let keep = n.info.id != B_ARCH.id || !noted;
            noted |= n.info.id == B_ARCH.id;
            keep
        });
        st.dead_nvcc_arch.set(noted || done);
        for n in mapped.notes.iter_mut().filter(|n| n.info.id == B_ARCH.id) {
            if n.message.ends_with(" removed") {
                n.message.push_str(": CUDA_NVCC_FLAGS reaches no compiler in the port, and the hip package gives the AMD targets (GPU_TARGETS); this file's other architecture flags in it go too");
                n.help = None;
            }
        }
    }
    if let Some(Arch::HipDevice(var)) = arch {
        let mut noted = false;
        mapped.notes.retain(|n| {
            let keep = n.info.id != B_ARCH.id || !n.message.ends_with(" removed") || !noted;
            noted |= n.info.id == B_ARCH.id && n.message.ends_with(" removed");
            keep
        });
        let targets = st.opts.offload_arch.join(";");
        for n in mapped.notes.iter_mut().filter(|n| n.info.id == B_ARCH.id) {
            if n.message.ends_with(" removed") {
                n.message.push_str(&format!(": `{var}` reaches targets whose HIP sources hip::device compiles for GPU_TARGETS ({targets}), so GPU_TARGETS alone picks the AMD targets; this command's other architecture flags go too"));
                n.help = Some(format!(
                    "configure with cmake -DGPU_TARGETS=\"{targets}\" (or the gfx targets you ship for)"
                ));
            }
        }
    }
    keep_unwrapped_values(&words, &mut mapped);
    supersede_inner_edits(sink, st.src, &words, &mut mapped);
    if items {
        whole_quoted_elements(st.src, args, &mut words, &mut mapped);
    }
    // In a `;`-list a flag that becomes several is several elements, and a removed one takes
    // its `;` along.
    let style = if listed {
        Style::Semicolon
    } else {
        Style::Blank
    };
    text::apply_mapped(sink, st.src, &words, mapped, style);
}

/// For [`flag_args`] over list elements: each changed word that is the whole content of a
/// quoted argument (blanks around it aside) becomes the argument, quotes included; a
/// replacement of several flags is written as that many quoted arguments.
fn whole_quoted_elements(src: &str, args: &[Arg], words: &mut [Word], mapped: &mut flags::Mapped) {
    for (i, act) in mapped.changes.iter_mut() {
        let w = &words[*i];
        let Some(a) = args.iter().find(|a| {
            if !a.quoted || a.bracket || a.text.contains("$<") {
                return false;
            }
            let content = &src[a.content_start..a.content_end];
            let lead = content.len() - content.trim_start().len();
            let trail = content.len() - content.trim_end().len();
            a.content_start + lead == w.start && a.content_end - trail == w.end
        }) else {
            continue;
        };
        match act {
            flags::Action::Replace(v) if v.len() > 1 => {
                let quoted: Vec<String> = v.iter().map(|n| format!("\"{n}\"")).collect();
                *act = flags::Action::Replace(vec![quoted.join(" ")]);
            }
            flags::Action::Remove => {}
            _ => continue,
        }
        words[*i] = Word {
            start: a.start,
            end: a.end,
            text: src[a.start..a.end].to_string(),
            quote: None,
        };
    }
}

/// The words of a flag list with each CMake list (`"-arch=sm_35;--compiler-options;-O2"`,
/// `-O2;-g`) split into its elements, each a flag of its own, and whether any was split.
/// A word with a quote, a backslash (`\;` is no separator), a bracket or a generator
/// expression stays whole (see [`opaque`]).
fn list_elements(words: Vec<Word>) -> (Vec<Word>, bool) {
    let mut out = Vec::with_capacity(words.len());
    let mut listed = false;
    for w in words {
        if w.quote.is_some() || opaque(&w.text) || !w.text.contains(';') {
            out.push(w);
            continue;
        }
        listed = true;
        let mut at = w.start;
        for part in w.text.split(';') {
            if !part.is_empty() {
                out.push(Word {
                    start: at,
                    end: at + part.len(),
                    text: part.to_string(),
                    quote: None,
                });
            }
            at += part.len() + 1;
        }
    }
    (out, listed)
}

/// Whether CMake reads a word of a flag list otherwise than as the flag its text spells: a
/// bracket argument, a generator expression (whose value is mapped on its own, see
/// [`genex_flags`]), or a word holding a quote or a backslash (`a" "b`, an unquoted argument
/// with a quoted part; `-DX=\"y\"` in a quoted one). Rewriting such a word can move where an
/// argument or the command ends (a quote dropped from `-Xcompiler=m" "x`).
fn opaque(word: &str) -> bool {
    word.starts_with('[') || word.contains("$<") || word.contains(['"', '\\'])
}

/// Where the mapping of a list changes an opaque word (see [`opaque`]), or a flag of which it
/// is the value, the list stays as it is, with a warning: a flag and its value are changed
/// together, so no change of the list is kept. Returns whether it was left.
fn leave_opaque(sink: &mut Sink, words: &[Word], mapped: &mut flags::Mapped) -> bool {
    let reached = mapped.changes.iter().find_map(|(i, act)| {
        let writes_opaque = match act {
            flags::Action::Replace(new) => new.iter().any(|n| opaque(n)),
            flags::Action::Remove => false,
        };
        (opaque(&words[*i].text) || writes_opaque).then_some(*i)
    });
    let Some(i) = reached else { return false };
    // The opaque word itself: the changed one, or the value after it.
    let w = words[i..]
        .iter()
        .find(|w| opaque(&w.text))
        .unwrap_or(&words[i]);
    let shown: String = w.text.chars().take(40).collect();
    sink.diag(
        B_FLAG_UNMAPPED,
        w.start,
        format!(
            "nvcc flags of this list left as they are: `{shown}` holds a quote, a backslash or a generator expression, which hipport does not rewrite"
        ),
        Some("write each flag as a plain word (or a quoted argument) and convert again".into()),
    );
    mapped.changes.clear();
    mapped.notes.clear();
    true
}

/// A flag word replaced or removed whole takes along what was rewritten inside it (a renamed
/// source in `-rdc=src/k.cu`, a renamed variable): those edits would clash with its own and
/// leave it to the next run. What it becomes gets the variables' new names. A word it becomes
/// that is written in it, or in the words it consumes (the value of `-Xcompiler=X` or
/// `-Xcompiler X`, kept), keeps the rewrites made inside it there (`${CUDA_LIBRARIES}` mapped,
/// a `CUDA::` target), as a second run would make them.
fn supersede_inner_edits(sink: &mut Sink, src: &str, words: &[Word], mapped: &mut flags::Mapped) {
    let inner: Vec<Vec<crate::edit::Edit>> = mapped
        .changes
        .iter()
        .map(|(i, _)| sink.drop_inside(words[*i].start, words[*i].end))
        .collect();
    let removed: BTreeSet<usize> = mapped
        .changes
        .iter()
        .filter(|(_, act)| *act == flags::Action::Remove)
        .map(|(i, _)| *i)
        .collect();
    let inner_of = |i: usize| -> &[crate::edit::Edit] {
        mapped
            .changes
            .iter()
            .position(|(j, _)| *j == i)
            .map_or(&[], |k| &inner[k])
    };
    let mut replaced: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, act) in &mapped.changes {
        let flags::Action::Replace(new) = act else {
            continue;
        };
        // The word and the removed words right after it: where its new words may be written.
        let mut from: Vec<usize> = vec![*i];
        while removed.contains(&(from[from.len() - 1] + 1)) {
            from.push(from[from.len() - 1] + 1);
        }
        let (mut k, mut at) = (0, words[*i].start);
        let mut out = Vec::with_capacity(new.len());
        for n in new {
            let mut found = None;
            while k < from.len() && found.is_none() && !n.is_empty() {
                let w = &words[from[k]];
                let s = at.max(w.start);
                match src[s..w.end].find(n.as_str()) {
                    Some(p) => found = Some((from[k], s + p)),
                    None => k += 1,
                }
            }
            match found {
                Some((wi, p)) => {
                    let end = p + n.len();
                    let mut t = String::new();
                    let mut pos = p;
                    for e in inner_of(wi).iter().filter(|e| p <= e.start && e.end <= end) {
                        t.push_str(&src[pos..e.start]);
                        t.push_str(&e.text);
                        pos = e.end;
                    }
                    t.push_str(&src[pos..end]);
                    out.push(t);
                    at = end;
                }
                None => {
                    // Not written there (mapped): the search starts over for the next one.
                    (k, at) = (0, words[*i].start);
                    out.push(with_renamed_vars(n));
                }
            }
        }
        replaced.push((*i, out));
    }
    for (i, out) in replaced {
        if let Some((_, act)) = mapped.changes.iter_mut().find(|(j, _)| *j == i) {
            *act = flags::Action::Replace(out);
        }
    }
}

/// `t` with the variables of [`RENAMED_VARS`] renamed, as whole names.
fn with_renamed_vars(t: &str) -> String {
    let mut out = t.to_string();
    for (old, new) in RENAMED_VARS {
        let mut from = 0;
        while let Some(p) = out[from..].find(old).map(|p| from + p) {
            let before = p == 0 || !is_ident(out.as_bytes()[p - 1]);
            let after = out
                .as_bytes()
                .get(p + old.len())
                .is_none_or(|&c| !is_ident(c) || (old.ends_with("FLAGS") && c == b'_'));
            if before && after {
                out.replace_range(p..p + old.len(), new);
                from = p + new.len();
            } else {
                from = p + old.len();
            }
        }
    }
    out
}

/// A flag unwrapped to the word after it (`-Xcompiler X` to `X`: the flag word becomes `X` and
/// `X` goes) is written as the flag word's removal: `X` stays where it is, with what else was
/// rewritten in it (a renamed variable such as `${CUDA_INCLUDE_DIRS}`), which would otherwise
/// clash with its removal and be left to the next run.
fn keep_unwrapped_values(words: &[Word], mapped: &mut flags::Mapped) {
    let changes = std::mem::take(&mut mapped.changes);
    let mut k = 0;
    while k < changes.len() {
        let (i, act) = &changes[k];
        if let (flags::Action::Replace(new), Some((j, flags::Action::Remove))) =
            (act, changes.get(k + 1))
        {
            if *j == i + 1 && new.len() == 1 && words.get(*j).is_some_and(|w| w.text == new[0]) {
                mapped.changes.push((*i, flags::Action::Remove));
                k += 2;
                continue;
            }
        }
        mapped.changes.push(changes[k].clone());
        k += 1;
    }
}

/// Every renamed source an argument names (a quoted one may hold several: `"a.cu b.cu"`), in
/// order, each as [`renamed_source`] finds it in the rest of the argument.
fn renamed_sources(st: &State, t: &str) -> Vec<(usize, usize, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    // Each item of the list (blanks, `;`) on its own, so that none hides another, and every
    // source of an item (`src/k.cu"src/k.cu"`, an unquoted argument with a quoted part).
    for item in t.split([' ', ';', '\t', '\r', '\n']) {
        // A source that ends a generator expression (`$<$<BOOL:X>:k.cu>`) ends before its `>`.
        sources_in(st, item.trim_end_matches('>'), from, &mut out);
        from += item.len() + 1;
    }
    out
}

/// Every renamed source in `item` (at `base` in its argument), in order: a rename found first
/// may lie after another one's (`src/k.cu"kernel.cu"`), which is looked for before it.
fn sources_in(st: &State, item: &str, base: usize, out: &mut Vec<(usize, usize, String)>) {
    let mut at = 0;
    while let Some((s, e, new)) = renamed_source(st, &item[at..]) {
        if s > 0 {
            sources_in(st, &item[at..at + s], base + at, out);
        }
        out.push((base + at + s, base + at + e, new));
        at += e;
    }
}

/// A renamed source a CMake argument names: relative to this file's directory (also behind
/// `${CMAKE_CURRENT_SOURCE_DIR}/`), to the top for `${CMAKE_SOURCE_DIR}/`, and, in a `*.cmake`
/// file, a plain relative path found from a directory above it.
fn renamed_source(st: &State, t: &str) -> Option<(usize, usize, String)> {
    if let Some(m) = text::rename_in(t, &st.renames) {
        return Some(m);
    }
    if let Some(m) = text::rename_in(t, &st.root_renames) {
        if t[..m.0].ends_with("${CMAKE_SOURCE_DIR}/") {
            return Some(m);
        }
    }
    st.ancestor_renames
        .iter()
        .find_map(|r| text::rename_in(t, r).filter(|m| m.0 == 0 || !t[..m.0].ends_with('/')))
}

/// Source paths built with variables (`kernels/hist${n}.cu` in a `function()`): where a renamed
/// source matches the path (each variable read as `*`), its suffix follows the rename; where
/// none does, a warning says the path still names the old suffix (R22-h).
fn variable_sources(
    st: &State,
    sink: &mut Sink,
    t: &str,
    base: usize,
    renamed: &[(usize, usize, String)],
) {
    let mut from = 0;
    for item in t.split([' ', ';', '\t', '\r', '\n']) {
        let at = from;
        from += item.len() + 1;
        let path = item.trim_end_matches('>');
        if !path.contains("${")
            || path.contains(['*', '?', '<'])
            || renamed
                .iter()
                .any(|&(s, e, _)| s < at + path.len() && at < e)
        {
            continue;
        }
        let Some((old, new)) = st
            .exts
            .iter()
            .find(|(old, _)| path.ends_with(&format!(".{old}")))
        else {
            continue;
        };
        let relative = ["${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/"]
            .iter()
            .find_map(|p| path.strip_prefix(p))
            .unwrap_or(path);
        if !relative.contains("${") {
            // A plain path under this directory: [`renamed_sources`] reads those.
            continue;
        }
        let Some(pattern) = variables_as_stars(relative) else {
            continue;
        };
        if pattern.starts_with('*') {
            // Nothing fixed before the first variable: an absolute path or another directory.
            continue;
        }
        let Ok(glob) = globset::Glob::new(&pattern).map(|g| g.compile_matcher()) else {
            continue;
        };
        let matched = std::iter::once(&st.renames)
            .chain(&st.ancestor_renames)
            .flatten()
            .any(|(o, n)| glob.is_match(o) && n.ends_with(&format!(".{new}")));
        let suffix = base + at + path.len() - old.len();
        if matched {
            sink.edit(suffix, base + at + path.len(), new.as_str(), B_GLOB.id);
        } else if !sink.claimed(suffix, base + at + path.len()) {
            sink.diag(
                B_GLOB,
                base + at,
                format!("`{path}` is built from variables and names a .{old} source; no renamed source matches it, so it still says .{old} while the renamed sources say .{new}"),
                Some(format!("if it names a renamed source, write .{new}")),
            );
        }
    }
}

/// `path` with each `${...}` read as `*` and the rest matched literally, or None when a
/// reference does not close.
fn variables_as_stars(path: &str) -> Option<String> {
    let mut out = String::new();
    let mut rest = path;
    while let Some(p) = rest.find("${") {
        out.push_str(&globset::escape(&rest[..p]));
        let mut depth = 0usize;
        let mut end = None;
        for (i, c) in rest[p..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = Some(p + i + 1);
                        break;
                    }
                }
                _ => {}
            }
        }
        if !out.ends_with('*') {
            out.push('*');
        }
        rest = &rest[end?..];
    }
    out.push_str(&globset::escape(rest));
    Some(out)
}

/// The link name of a link item: `nvinfer` for `nvinfer`, `libnvinfer.so`,
/// `/opt/trt/lib/libnvinfer.so.8` or `libnvinfer_static.a`.
fn link_item_stem(item: &str) -> &str {
    let name = item.rsplit('/').next().unwrap_or(item);
    let Some(file) = name.strip_prefix("lib") else {
        return name;
    };
    match file
        .find(".so")
        .or_else(|| file.strip_suffix(".a").map(str::len))
    {
        Some(end) => &file[..end],
        None => name,
    }
}

/// RCCL's include directories, for FindNCCL's `${NCCL_INCLUDE_DIRS}` (finding 6, buildfix29).
const RCCL_INCLUDES: &str = "$<TARGET_PROPERTY:rccl::rccl,INTERFACE_INCLUDE_DIRECTORIES>";

/// Variables renamed wherever they appear. `CMAKE_CUDA_FLAGS*` keep their names: the epilogue
/// (see [`EPILOGUE`]) gives their flags to the HIP sources alone, as nvcc had them.
const RENAMED_VARS: &[(&str, &str)] = &[
    (
        "CMAKE_CUDA_STANDARD_REQUIRED",
        "CMAKE_CXX_STANDARD_REQUIRED",
    ),
    ("CMAKE_CUDA_STANDARD", "CMAKE_CXX_STANDARD"),
    ("CMAKE_CUDA_EXTENSIONS", "CMAKE_CXX_EXTENSIONS"),
    ("CUDAToolkit_FOUND", "hip_FOUND"),
    ("CUDA_FOUND", "hip_FOUND"),
    ("CUDA_INCLUDE_DIRS", "hip_INCLUDE_DIRS"),
    ("CUDAToolkit_INCLUDE_DIRS", "hip_INCLUDE_DIRS"),
];

/// What a FindCUDA library variable (`CUDA_CUBLAS_LIBRARIES`, `CUDA_cufft_LIBRARY`; FindCUDAToolkit
/// sets `CUDA_<lib>_LIBRARY` cache variables such as `CUDA_cublasLt_LIBRARY` too) names: the CUDA
/// library's link name, or `Err(stem)` for a library variable of a name hipport does not know
/// (`CUDA_nvcuvid_LIBRARY`). `None` for other variables.
fn findcuda_library(var: &str) -> Option<Result<&'static str, &str>> {
    if var == "CUDA_LIBRARIES" {
        return Some(Ok("cudart"));
    }
    let rest = var.strip_prefix("CUDA_")?;
    let stem = rest
        .strip_suffix("_LIBRARY")
        .or_else(|| rest.strip_suffix("_LIBRARIES"))
        .filter(|s| !s.is_empty())?;
    Some(match stem.to_ascii_lowercase().as_str() {
        "cuda" | "cuda_driver" => Ok("cuda"),
        _ => flags::link_name(stem).ok_or(stem),
    })
}

/// R50-e: the directory variables FindCUDA and FindCUDAToolkit set (`CUDA_TOOLKIT_TARGET_DIR`,
/// `CUDAToolkit_LIBRARY_DIR`). The port finds the hip package instead, which sets none of them:
/// a path built from one (`${CUDA_TOOLKIT_TARGET_DIR}/lib64/libnvToolsExt.so`) names a file at
/// the root (`/lib64/...`) there.
const FINDCUDA_DIRS: &[&str] = &[
    "CUDA_TOOLKIT_ROOT_DIR",
    "CUDA_TOOLKIT_TARGET_DIR",
    "CUDA_TOOLKIT_INCLUDE",
    "CUDA_SDK_ROOT_DIR",
    "CUDAToolkit_LIBRARY_DIR",
    "CUDAToolkit_LIBRARY_ROOT",
    "CUDAToolkit_TARGET_DIR",
    "CUDAToolkit_BIN_DIR",
];

/// The commands whose arguments are paths the build uses (a link item, an include or link
/// directory, a variable's value): a path into CUDA there is mapped or reported (see
/// [`cuda_directory_item`]). `find_*()` hints, tests and messages are left alone.
const PATH_COMMANDS: &[&str] = &[
    "set",
    "list",
    "target_link_libraries",
    "link_libraries",
    "include_directories",
    "target_include_directories",
    "link_directories",
    "target_link_directories",
];

/// The FindCUDA directory variable a path starts with (see [`FINDCUDA_DIRS`]), and the rest.
fn findcuda_directory(t: &str) -> Option<(&str, &str)> {
    let inner = t.strip_prefix("${")?;
    let end = inner.find('}')?;
    let name = &inner[..end];
    FINDCUDA_DIRS
        .contains(&name)
        .then(|| (name, &inner[end + 1..]))
}

/// R50-e (groute): a path into the CUDA toolkit as one argument of a command that uses paths
/// (see [`PATH_COMMANDS`]). A library file (`${CUDA_TOOLKIT_TARGET_DIR}/lib64/stubs/libcuda.so`,
/// `/usr/local/cuda/lib64/libnvToolsExt.so`) is the library `${CUDA_<lib>_LIBRARY}` names: it
/// becomes the same HIP target (or goes, where no source uses it and ROCm ships it apart). Any
/// other path built from a FindCUDA directory variable is reported: the variable is empty in the
/// port, which no longer runs FindCUDA.
fn cuda_directory_item(st: &mut State, sink: &mut Sink, cmd: &Command, k: usize, a: &Arg) {
    if !PATH_COMMANDS.contains(&cmd.name.as_str()) || a.bracket {
        return;
    }
    // `set(VAR ...)` / `list(APPEND VAR ...)`: the variable's name is no path.
    let first_value = match cmd.name.as_str() {
        "set" => 1,
        "list" => 2,
        _ => 0,
    };
    if k < first_value {
        return;
    }
    let t = a.text.as_str();
    let dir = findcuda_directory(t);
    if dir.is_none() && !flags::is_cuda_path(t) {
        return;
    }
    let file = t.rsplit('/').next().unwrap_or(t);
    let library_file = t.contains('/')
        && file.starts_with("lib")
        && (file.contains(".so") || file.ends_with(".a"));
    let at = a.content_start;
    if library_file {
        let stem = link_item_stem(t);
        let found = match stem {
            "cuda" => Ok("cuda"),
            _ => flags::link_name(stem).ok_or(stem),
        };
        if let Some((message, help)) = found.ok().and_then(|n| flags::unused_library(n, st.opts)) {
            if remove_arg(sink, st.src, a, B_LIB_MAPPED.id) {
                let message =
                    message.replacen("CUDA library `", &format!("`{t}` (CUDA library `"), 1);
                let message = message.replacen("` dropped", "`) dropped", 1);
                sink.diag(B_LIB_MAPPED, at, message, Some(help));
            }
            return;
        }
        let Some(lib) = found.ok().and_then(flags::library) else {
            let (message, help) = match found
                .ok()
                .and_then(|n| flags::map_library_for(n, st.opts.hip_version))
            {
                Some((_, _, m, h)) => (format!("`{t}`: {m}"), h),
                None => (
                    format!("`{t}` is a library of the CUDA toolkit hipport knows no HIP counterpart of{}", dir.map_or(String::new(), |(v, _)| format!(", and `${{{v}}}` is empty in the port (find_package(CUDA) set it)"))),
                    Some("remove the dependency or port the code that uses it".to_string()),
                ),
            };
            sink.diag(B_LIB_UNMAPPED, at, message, help);
            return;
        };
        if !shipped(st, sink, lib, t, at) {
            return;
        }
        let new = st.hip_target(lib);
        if sink.edit(at, at + t.len(), new.target, B_LIB_MAPPED.id) {
            let why = match dir {
                Some((v, _)) => format!(
                    ": `${{{v}}}` is empty in the port, which finds the hip package, not CUDA"
                ),
                None => String::new(),
            };
            sink.diag(
                B_LIB_MAPPED,
                at,
                format!("`{t}` -> {}{why}", new.target),
                found_with(lib, &new, st.opts.hip_version),
            );
            st.uses_library(&new);
        }
        return;
    }
    let Some((var, _)) = dir else {
        return;
    };
    // A file that sets the variable itself keeps its value.
    let sets = |sep: &str| st.src.contains(&format!("set({var}{sep}"));
    if st.toolchain_set.contains(var) || sets(" ") || sets("\n") || sink.claimed(at, at + t.len()) {
        return;
    }
    sink.diag(
        super::B_PATH,
        at,
        format!("`{t}` is built from `${{{var}}}`, which is empty in the port: find_package(CUDA) set it, and the port finds the hip package instead"),
        Some("name the ROCm path this needs (ROCm's libraries come with their packages' targets: hip::host, roc::hipblas), or remove it".into()),
    );
}

/// Whether the target HIP release ships `lib` (named `name` in the file, at byte `at`); where it
/// does not (hipBLASLt before ROCm 5.5), the name stays, no `find_package` is added for it, and
/// an error says why: the package cannot be found there, as the sources' calls are not available.
fn shipped(st: &State, sink: &mut Sink, lib: &flags::Library, name: &str, at: usize) -> bool {
    let hip = st.opts.hip_version;
    let Some(added) = lib.hip_added.filter(|a| *a > hip) else {
        return true;
    };
    let t = st.hip_target(lib);
    let package = t.package.unwrap_or(t.target);
    sink.diag(
        B_LIB_UNMAPPED,
        at,
        format!(
            "`{name}` would become {} (find_package({package})), which HIP {hip} lacks: {package} first shipped in ROCm {}.{}",
            t.target, added.major, added.minor
        ),
        Some(format!(
            "target HIP {}.{} or later (--hip-version), or port the code that uses the library",
            added.major, added.minor
        )),
    );
    false
}

/// The help of a CUDA target's finding: the package its replacement is found with, and for
/// NVRTC why it becomes what it does (see [`hiprtc_help`]).
fn found_with(lib: &flags::Library, new: &HipTarget, hip: Version) -> Option<String> {
    let found = new
        .package
        .map(|p| format!("found with find_package({p} REQUIRED)"));
    match (found, hiprtc_help(lib, hip)) {
        (Some(f), Some(h)) => Some(format!("{f}: {h}")),
        (f, h) => f.or(h),
    }
}

/// Rewrites that apply to any argument of any command.
/// The keywords that end a `COMMAND` of `add_custom_command()`, `add_custom_target()` or
/// `execute_process()`.
const CUSTOM_COMMAND_KEYWORDS: &[&str] = &[
    "COMMAND",
    "OUTPUT",
    "DEPENDS",
    "BYPRODUCTS",
    "WORKING_DIRECTORY",
    "COMMENT",
    "VERBATIM",
    "USES_TERMINAL",
    "MAIN_DEPENDENCY",
    "IMPLICIT_DEPENDS",
    "DEPFILE",
    "JOB_POOL",
    "APPEND",
    "SOURCES",
    "ALL",
    "COMMAND_EXPAND_LISTS",
    "CODEGEN",
    "JOB_SERVER_AWARE",
    "TARGET",
    "PRE_BUILD",
    "PRE_LINK",
    "POST_BUILD",
    "OUTPUT_VARIABLE",
    "RESULT_VARIABLE",
    "ERROR_VARIABLE",
    "OUTPUT_FILE",
    "ERROR_FILE",
    "INPUT_FILE",
    "TIMEOUT",
    "OUTPUT_QUIET",
    "ERROR_QUIET",
];

/// The CUDA compiler as a custom command names it (`${CMAKE_CUDA_COMPILER}`, FindCUDA's
/// `${CUDA_NVCC_EXECUTABLE}`, `nvcc`): the CUDA language is gone from the translated project,
/// so the first is empty there.
fn cuda_compiler_word(t: &str) -> bool {
    matches!(
        t,
        "${CMAKE_CUDA_COMPILER}" | "${CUDA_NVCC_EXECUTABLE}" | "${CUDAToolkit_NVCC_EXECUTABLE}"
    ) || super::make::is_nvcc(t)
}

/// Custom commands (`add_custom_command(... COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_80 -fatbin
/// -o k.fatbin k.cu)`, vectorAddDrv's) that run nvcc: translated whole, the compiler to
/// `${CMAKE_CXX_COMPILER}` (hipcc, as the translated project is configured), nvcc's device-code
/// outputs `-fatbin`/`-cubin` to hipcc's `--genco` (a code object bundle that hipModuleLoad
/// reads, under the name the program loads), its other flags as anywhere else; or, where one
/// flag has no hipcc counterpart (`-ptx`), left whole with an error. Returns the indices of
/// the arguments handled, which no other rewrite touches.
fn custom_nvcc_commands(st: &State, sink: &mut Sink, cmd: &Command) -> BTreeSet<usize> {
    let mut handled = BTreeSet::new();
    if !matches!(
        cmd.name.as_str(),
        "add_custom_command" | "add_custom_target" | "execute_process"
    ) {
        return handled;
    }
    let args = &cmd.args;
    let mut k = 0;
    while k < args.len() {
        if args[k].text != "COMMAND"
            || !args
                .get(k + 1)
                .is_some_and(|a| !a.bracket && cuda_compiler_word(&a.text))
        {
            k += 1;
            continue;
        }
        let first = k + 1;
        let mut end = first + 1;
        while end < args.len() && !CUSTOM_COMMAND_KEYWORDS.contains(&args[end].text.as_str()) {
            end += 1;
        }
        handled.extend(first..end);
        let group = &args[first + 1..end];
        let words: Vec<Word> = group
            .iter()
            .map(|a| Word {
                start: a.start,
                end: a.end,
                text: a.text.clone(),
                quote: a.quoted.then_some('"'),
            })
            .collect();
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let mut done = false;
        let mapped = flags::map_words(&texts, st.opts, Context::Nvcc, &mut done);
        let compiler = &args[first];
        let left = mapped.notes.iter().find(|n| {
            n.info.id == B_FLAG_UNMAPPED.id
                && n.severity.unwrap_or(n.info.severity) == Severity::Error
        });
        if let Some(n) = left {
            sink.diag(
                B_FLAG_UNMAPPED,
                compiler.start,
                format!(
                    "this custom command runs nvcc (`{}`) with `{}`, which hipcc has no counterpart of: the command is left as it is, and it fails in the translated project, which has no CUDA compiler",
                    compiler.text, texts[n.word]
                ),
                Some("rewrite the command for hipcc by hand (`${CMAKE_CXX_COMPILER} --genco --offload-arch=<gfx> -o <file> <source>` writes a code object that hipModuleLoad reads)".into()),
            );
            // Claimed, so that nothing else reports or rewrites the compiler.
            sink.edit(
                compiler.start,
                compiler.end,
                compiler.text.clone(),
                B_FLAG_UNMAPPED.id,
            );
        } else {
            if sink.edit(
                compiler.start,
                compiler.end,
                "${CMAKE_CXX_COMPILER}",
                super::B_COMPILER.id,
            ) {
                sink.diag(
                    super::B_COMPILER,
                    compiler.start,
                    format!("`{}` -> `${{CMAKE_CXX_COMPILER}}`: the custom command runs hipcc, the project's C++ compiler", compiler.text),
                    None,
                );
            }
            text::apply_mapped(sink, st.src, &words, mapped, Style::Blank);
        }
        k = end;
    }
    handled
}

fn general(st: &mut State, sink: &mut Sink, cmd: &Command, version_tested: &[usize]) {
    let custom = custom_nvcc_commands(st, sink, cmd);
    nvidia_tool_commands(st, sink, cmd);
    let mut plain_flags = Vec::new();
    // A variable renamed twice in one command (`set(V "${V} ...")`) is reported once.
    let mut renamed_vars: Vec<&str> = Vec::new();
    let targets = property_targets(cmd);
    for (k, a) in cmd.args.iter().enumerate() {
        cuda_packages_in_string(st.src, sink, a);
        if a.bracket {
            // Kept among the flags as a word of its own (see `flag_args`).
            plain_flags.push(a.clone());
            continue;
        }
        // A compared CUDA version has its own finding (see `cuda_version_tests`).
        let reported = version_tested.contains(&k);
        let t = a.text.as_str();
        let base = a.content_start;
        // `-D` and the definition as two words are the flags' (see `flag_args`).
        if k == 0 || !arg_is(&cmd.args[k - 1], "-D") {
            thrust_definitions(sink, t, base);
        }
        // A `.hip` source is the project's own: hipport renames `.cu` sources, which the file
        // names by their old names.
        // A source behind a generator expression (`$<$<BOOL:X>:k.cu>`) too.
        // R34-1: not where the command only handles the file as data (a custom command that
        // copies an NVRTC kernel, `install(FILES)`, `configure_file`): the epilogue acts on
        // the `.cu` sources of targets alone.
        if (t.trim_end_matches('>').ends_with(".cu") || t.contains("*.cu")) && !names_data(cmd) {
            st.gpu_sources = true;
        }
        // Plain library names given to the linker.
        if matches!(
            cmd.name.as_str(),
            "target_link_libraries" | "link_libraries"
        ) && !a.quoted
        {
            // R37-a/b: a library no source uses, which ROCm lacks or ships as an optional
            // package, goes.
            let item = k > 0 || cmd.name == "link_libraries";
            // V18-b: the variable of a `find_library()` that went (see [`find_library_names`]).
            if let Some(var) = t
                .strip_prefix("${")
                .and_then(|v| v.strip_suffix('}'))
                .filter(|v| item && st.dropped_library_vars.contains(*v))
            {
                if remove_arg(sink, st.src, a, B_LIB_MAPPED.id) {
                    sink.diag(
                        B_LIB_MAPPED,
                        a.start,
                        format!("{t} dropped: its find_library({var} ...) was removed, as no source in the tree uses the library it finds"),
                        Some("a source that calls that library's API needs both back".into()),
                    );
                }
                continue;
            }
            if let Some((message, help)) = flags::unused_library(t, st.opts).filter(|_| item) {
                if remove_arg(sink, st.src, a, B_LIB_MAPPED.id) {
                    sink.diag(B_LIB_MAPPED, a.start, message, Some(help));
                }
                continue;
            }
            if let Some(lib) = flags::library(t) {
                if !shipped(st, sink, lib, t, a.start) {
                    continue;
                }
                let new = st.hip_target(lib);
                if sink.edit(a.start, a.end, new.target, B_LIB_MAPPED.id) {
                    // R37-b's rest: cuDNN -> MIOpen links, but the code does not port with it.
                    match flags::api_differs(t) {
                        Some(why) => sink.diag_as(
                            B_LIB_MAPPED,
                            Severity::Warning,
                            a.start,
                            format!("CUDA library `{t}` -> {}: {why}", new.target),
                            Some(flags::API_DIFFERS_HELP.into()),
                        ),
                        None => sink.diag(
                            B_LIB_MAPPED,
                            a.start,
                            format!("CUDA library `{t}` -> {}", new.target),
                            hiprtc_help(lib, st.opts.hip_version),
                        ),
                    }
                    st.uses_library(&new);
                }
                continue;
            }
            // TensorRT, by name or by file (`libnvinfer.so`, `${TRT_LIB}/libnvinfer.so.8`): no
            // HIP port, so the link cannot work on ROCm (R22-a).
            let stem = link_item_stem(t);
            if flags::TENSORRT_LIBRARIES.contains(&stem) {
                if let Some((_, info, message, help)) = flags::map_library_name(stem) {
                    sink.diag(info, a.start, message, help);
                }
                continue;
            }
            // R37-a: a CUDA library ROCm has no counterpart of (`cusolverMg`), which a
            // source uses: the link cannot work on ROCm.
            if item && !t.contains('$') {
                if let Some((_, info, message, help)) = flags::map_library_name(stem)
                    .filter(|(_, info, _, _)| info.id == B_LIB_UNMAPPED.id)
                {
                    sink.diag(info, a.start, message, help);
                    continue;
                }
            }
        }
        cccl_targets(st, sink, cmd, a);
        // CUDA:: targets, and cuTENSOR's own package's (`cutensor::cutensor`, V20-a).
        let mut at: Vec<usize> = t.match_indices("CUDA::").map(|m| m.0).collect();
        at.extend(t.match_indices("cutensor::").map(|m| m.0));
        at.sort_unstable();
        for pos in at {
            let end = t[pos..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                .map_or(t.len(), |e| pos + e);
            let target = &t[pos..end];
            // R37-a/b: as for a plain name, where the target is a whole argument.
            if let Some((message, help)) = flags::unused_library(target, st.opts) {
                if pos == 0 && end == t.len() && !a.quoted {
                    if remove_arg(sink, st.src, a, B_LIB_MAPPED.id) {
                        sink.diag(B_LIB_MAPPED, a.start, message, Some(help));
                    }
                    continue;
                }
            }
            match flags::library_by_target(target) {
                Some(lib) if !shipped(st, sink, lib, target, base + pos) => {}
                Some(lib) => {
                    let new = st.hip_target(lib);
                    if sink.edit(base + pos, base + end, new.target, B_LIB_MAPPED.id) {
                        sink.diag(
                            B_LIB_MAPPED,
                            base + pos,
                            format!("{target} -> {}", new.target),
                            found_with(lib, &new, st.opts.hip_version),
                        );
                        st.uses_library(&new);
                    }
                }
                None => sink.diag(
                    B_LIB_UNMAPPED,
                    base + pos,
                    format!("{target} has no HIP counterpart"),
                    Some(
                        flags::rocm_offer(target)
                            .map_or("remove the dependency or port the code that uses it", |o| {
                                o.1
                            })
                            .into(),
                    ),
                ),
            }
        }
        // R37-b's rest: FindNCCL's library variable, where NCCL is used (its find_package
        // becomes rccl's, see `nccl_package`).
        if matches!(
            cmd.name.as_str(),
            "target_link_libraries" | "link_libraries"
        ) && (k > 0 || cmd.name == "link_libraries")
            && !a.quoted
            && matches!(
                t,
                "${NCCL_LIBRARIES}" | "${NCCL_LIBRARY}" | "${NCCL_LIB}" | "${NCCL_LIBS}"
            )
        {
            if st.opts.unused_libraries.contains("nccl") {
                if remove_arg(sink, st.src, a, B_LIB_MAPPED.id) {
                    sink.diag(
                        B_LIB_MAPPED,
                        a.start,
                        format!("{t} dropped: no source in the tree uses NCCL"),
                        Some(
                            "a source that calls NCCL needs find_package(rccl) and rccl::rccl"
                                .into(),
                        ),
                    );
                }
            } else if sink.edit(a.start, a.end, "rccl::rccl", B_LIB_MAPPED.id) {
                sink.diag(
                    B_LIB_MAPPED,
                    a.start,
                    format!("{t} -> rccl::rccl"),
                    Some("found with find_package(rccl), which sets no NCCL_* variables".into()),
                );
            }
            continue;
        }
        // Finding 6 (buildfix29): FindNCCL's other variables, where NCCL is used. Its include
        // directory becomes rccl::rccl's (a generator expression, which both include commands
        // take), and `NCCL_FOUND` rccl's `rccl_FOUND`: left, the include path would be empty
        // and every `if(NCCL_FOUND)` branch would be skipped without a word.
        if !st.opts.unused_libraries.contains("nccl") {
            if matches!(
                cmd.name.as_str(),
                "target_include_directories" | "include_directories"
            ) && !a.quoted
                && matches!(t, "${NCCL_INCLUDE_DIRS}" | "${NCCL_INCLUDE_DIR}")
                && sink.edit(a.start, a.end, RCCL_INCLUDES, B_LIB_MAPPED.id)
            {
                sink.diag(
                    B_LIB_MAPPED,
                    a.start,
                    format!("{t} -> rccl::rccl's include directories"),
                    Some("find_package(rccl) sets no NCCL_* variables; the rccl::rccl target carries RCCL's include path".into()),
                );
                continue;
            }
            let mut renamed = false;
            for (pos, _) in t.match_indices("NCCL_FOUND") {
                let before = pos == 0 || !is_ident(t.as_bytes()[pos - 1]);
                let after = t.as_bytes().get(pos + 10).is_none_or(|&c| !is_ident(c));
                if before
                    && after
                    && sink.edit(base + pos, base + pos + 10, "rccl_FOUND", B_LIB_MAPPED.id)
                    && !renamed
                {
                    renamed = true;
                    sink.diag(
                        B_LIB_MAPPED,
                        base + pos,
                        "NCCL_FOUND -> rccl_FOUND".into(),
                        Some("find_package(NCCL) became find_package(rccl), which sets rccl_FOUND; NCCL_FOUND would stay unset".into()),
                    );
                }
            }
        }
        for (pos, _) in t.match_indices("${CUDA_") {
            let Some(close) = t[pos..].find('}').map(|c| pos + c) else {
                continue;
            };
            let var = &t[pos..=close];
            let Some(found) = findcuda_library(&var[2..var.len() - 1]) else {
                continue;
            };
            // R37-b's rest: as for a plain name, where the variable is a whole item of the link
            // (`${CUDA_cublasLt_LIBRARY}`, `${CUDA_cupti_LIBRARY}`).
            let linked = matches!(
                cmd.name.as_str(),
                "target_link_libraries" | "link_libraries"
            ) && (k > 0 || cmd.name == "link_libraries")
                && !a.quoted
                && pos == 0
                && close + 1 == t.len();
            if let Some((message, help)) = found
                .ok()
                .and_then(|n| flags::unused_library(n, st.opts))
                .filter(|_| linked)
            {
                if remove_arg(sink, st.src, a, B_LIB_MAPPED.id) {
                    let message =
                        message.replacen("CUDA library `", &format!("{var} (CUDA library `"), 1);
                    let message = message.replacen("` dropped", "`) dropped", 1);
                    sink.diag(B_LIB_MAPPED, a.start, message, Some(help));
                }
                continue;
            }
            let lib = match found {
                Ok(name) => flags::library(name),
                Err(_) => None,
            };
            let Some(lib) = lib else {
                // A CUDA library without a HIP counterpart: the variable is empty without
                // FindCUDA, so the link would lose it silently.
                let (message, help) = match found
                    .ok()
                    .and_then(|n| flags::map_library_for(n, st.opts.hip_version))
                {
                    Some((_, _, m, h)) => (format!("{var}: {m}"), h),
                    None => (
                        format!("{var} names a CUDA library hipport knows no HIP counterpart of"),
                        Some("remove the dependency or port the code that uses it".to_string()),
                    ),
                };
                sink.diag(B_LIB_UNMAPPED, base + pos, message, help);
                continue;
            };
            if !shipped(st, sink, lib, var, base + pos) {
                continue;
            }
            let new = st.hip_target(lib);
            if sink.edit(base + pos, base + close + 1, new.target, B_LIB_MAPPED.id) {
                sink.diag(
                    B_LIB_MAPPED,
                    base + pos,
                    format!("{var} -> {}", new.target),
                    found_with(lib, &new, st.opts.hip_version),
                );
                st.uses_library(&new);
            }
        }
        cuda_directory_item(st, sink, cmd, k, a);
        for (old, new) in RENAMED_VARS {
            // A file that sets its C++ standard keeps it: the CUDA one is left, without effect.
            if st.cuda_std_kept.contains(old) {
                continue;
            }
            for (pos, _) in t.match_indices(old) {
                let before = pos == 0 || !is_ident(t.as_bytes()[pos - 1]);
                let after = t
                    .as_bytes()
                    .get(pos + old.len())
                    .is_none_or(|&c| !is_ident(c) || (old.ends_with("FLAGS") && c == b'_'));
                if before
                    && after
                    && sink.edit(base + pos, base + pos + old.len(), *new, B_LANGUAGE.id)
                    && !renamed_vars.contains(old)
                {
                    renamed_vars.push(old);
                    sink.diag(B_LANGUAGE, base + pos, format!("{old} -> {new}"), None);
                }
            }
        }
        // Generator expressions for the CUDA language. In a source's own properties the test
        // becomes CXX (the HIP sources compile as CXX). Elsewhere it stays: no source compiles
        // as CUDA now, so the test keeps what it guards off the host C++ sources, and the
        // epilogue gives it to the target's HIP sources alone.
        let on_source = cmd.name == "set_source_files_properties"
            || (cmd.name == "set_property" && cmd.args.first().is_some_and(|f| f.text == "SOURCE"));
        let mut guarded = Vec::new();
        'tests: for pat in ["COMPILE_LANGUAGE:CUDA", "COMPILE_LANG_AND_ID:CUDA,NVIDIA"] {
            for (pos, _) in t.match_indices(pat) {
                let new = "COMPILE_LANGUAGE:CXX";
                let value = guarded_value(t, pos, pos + pat.len());
                if let Some((vs, ve, outer)) = value {
                    // Two tests in one condition guard one value: it is mapped once.
                    if !guarded.contains(&vs) {
                        guarded.push(vs);
                        let whole = outer == 0 && ve + 1 == t.len();
                        if genex_flags(st, sink, a, (vs, ve), whole) {
                            // The whole argument went away.
                            break 'tests;
                        }
                    }
                }
                if on_source {
                    if sink.edit(base + pos, base + pos + pat.len(), new, B_LANGUAGE.id) {
                        sink.diag(
                            B_LANGUAGE,
                            base + pos,
                            format!("$<{pat}> -> $<{new}>: hipcc compiles HIP sources as CXX"),
                            None,
                        );
                    }
                } else if value.is_some_and(|v| v.0 < v.1)
                    && t.as_bytes().get(pos + pat.len()) == Some(&b'>')
                    && !sink.claimed(base + pos, base + pos + pat.len())
                {
                    sink.diag(
                        B_LANGUAGE,
                        base + pos,
                        format!(
                            "$<{pat}> kept: no source compiles as CUDA now, and the end of the \
                             file gives what it guards to each target's HIP sources alone"
                        ),
                        Some(
                            "host C++ sources do not get it, as they did not from nvcc; what a \
                             PUBLIC or INTERFACE scope passes on to targets that link this one \
                             does not reach their HIP sources: repeat it on those targets"
                                .into(),
                        ),
                    );
                }
            }
        }
        // What `message()` prints derives nothing: no warning per line that shows a CUDA
        // variable (R22-3).
        let printed = cmd.name == "message";
        let condition = matches!(cmd.name.as_str(), "if" | "elseif");
        for (pos, _) in t
            .match_indices("CMAKE_CUDA_")
            .filter(|_| !reported && !printed)
        {
            let names = |v: &str| {
                t[pos..].starts_with(v)
                    && !t[pos + v.len()..].starts_with(|c: char| c.is_alphanumeric() || c == '_')
            };
            // A variable the file sets and reads keeps its value (see `architecture_readers`).
            let kept = st.arch_readers.keys().any(|v| names(v))
                // `if(NOT CMAKE_CUDA_HOST_COMPILER)` around its `set()`: one warning, the set's.
                || condition && st.toolchain_set.iter().any(|v| names(v));
            if !sink.claimed(base + pos, base + pos + 11)
                && !kept
                && !matches!(cmd.name.as_str(), "set" | "list")
                && !t[pos..].starts_with("CMAKE_CUDA_FLAGS")
            {
                let end = t[pos..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(t.len(), |e| pos + e);
                sink.diag(B_CONSTRUCT, base + pos, format!("{} belongs to CMake's CUDA language and has no effect on hipcc-compiled code", &t[pos..end]), Some("remove it or use the CXX / GPU_TARGETS equivalent".into()));
            }
        }
        for (pos, _) in t
            .match_indices("CUDAToolkit_")
            .filter(|_| !reported && !printed)
        {
            if !sink.claimed(base + pos, base + pos + 12) {
                let end = t[pos..]
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(t.len(), |e| pos + e);
                sink.diag(B_CONSTRUCT, base + pos, format!("{} is set by find_package(CUDAToolkit)", &t[pos..end]), Some("replace it with the hip package's variables (hip_INCLUDE_DIRS, HIP_VERSION) or remove it".into()));
            }
        }
        // Renamed sources and source patterns.
        let renamed = renamed_sources(st, t);
        for (s, e, new) in &renamed {
            sink.edit(base + s, base + e, new.as_str(), B_GLOB.id);
        }
        if renamed.is_empty() {
            if let Some((s, e, new)) = text::glob_dir_rename(t, &st.dirs) {
                if sink.edit(base + s, base + e, new.as_str(), B_GLOB.id) {
                    sink.diag(
                        B_GLOB,
                        base + s,
                        format!(
                            "pattern `{t}` looks in `{}`, which is now `{new}`",
                            &t[s..e]
                        ),
                        Some("check that it still selects the moved files".into()),
                    );
                }
            }
        }
        // A pattern beside a renamed source in one argument (`"*.cu kernel.cu"`) follows too.
        for (old, new) in &st.exts {
            let pat = format!("*.{old}");
            if t.contains(&pat) {
                // Each pattern of the argument (`*.cu*.cu`, `"a/*.cu b/*.cu"`).
                for (pos, _) in t.match_indices(&pat) {
                    let after = pos + pat.len();
                    if t.as_bytes()
                        .get(after)
                        .is_none_or(|c| !c.is_ascii_alphanumeric())
                        && sink.edit(base + pos + 2, base + after, new.as_str(), B_GLOB.id)
                    {
                        sink.diag(
                            B_GLOB,
                            base + pos,
                            format!("pattern `{t}` names .{old} sources, which are now .{new}"),
                            Some(format!(
                                "check that it still selects the renamed .{new} files"
                            )),
                        );
                    }
                }
            } else if renamed.is_empty()
                && !st.ancestor_renames.is_empty()
                && t.ends_with(&format!(".{old}"))
                && !t.contains(['*', '?', '<'])
                && t.matches('$').count()
                    == usize::from(t.starts_with("${CMAKE_CURRENT_LIST_DIR}/"))
            {
                // A source path of an include()d file that no directory resolves.
                sink.diag(
                        B_GLOB,
                        base,
                        format!("`{t}` names a .{old} source that hipport did not find beside this file or in the directories above it, so it still says .{old} while the renamed sources say .{new}"),
                        Some("if the file exists, rename the path by hand: relative paths in an include()d file resolve against the including CMakeLists.txt's directory".into()),
                    );
            }
        }
        variable_sources(st, sink, t, base, &renamed);
        // FindCUDA's nvcc options went to a command of their own (see
        // `findcuda_target_arguments`).
        let target_name = k == 0 && names_target(cmd);
        if !targets.contains(&k)
            && !target_name
            && !custom.contains(&k)
            && findcuda_options(cmd).is_none_or(|o| k < o)
        {
            plain_flags.push(a.clone());
        }
    }
    // nvcc-only flags anywhere in the command; the values of the variables of nvcc's flags
    // (`CUDA_NVCC_FLAGS`, `CMAKE_CUDA_FLAGS*`, which keep their names and reach the HIP sources
    // through the epilogue) are nvcc's. After the rewrites above, so that a flag word that
    // keeps a value (`-Xcompiler=${CUDA_LIBRARIES}`) keeps what was rewritten in it.
    let var_idx = usize::from(cmd.name == "list");
    let var = match cmd.name.as_str() {
        "set" | "list" => cmd.args.get(var_idx),
        _ => None,
    };
    let nvcc_var =
        var.is_some_and(|v| v.text == "CUDA_NVCC_FLAGS" || v.text.starts_with("CMAKE_CUDA_FLAGS"));
    if nvcc_var {
        let dead = var.is_some_and(|v| v.text == "CUDA_NVCC_FLAGS") && nvcc_flags_dead(st);
        flag_args(
            st,
            sink,
            &cmd.args[var_idx + 1..],
            Context::Nvcc,
            dead.then_some(Arch::DeadNvccFlags),
            items(cmd),
        );
        if dead {
            drop_self_assignment(st.src, sink, cmd);
        }
    } else {
        // R50-g: a variable of this file's (`set(GENCODE_SM70 -gencode=...)`) reaches targets
        // whose HIP sources hip::device compiles for GPU_TARGETS: its architecture flags go,
        // so that GPU_TARGETS alone picks the AMD targets.
        let arch = var
            .filter(|v| {
                st.device_code
                    && st.compile_vars.contains(&v.text)
                    && !st.custom_vars.contains(&v.text)
                    && !st.in_loop.contains(&st.current)
                    && !v.text.starts_with("CMAKE_")
                    && v.text != "GPU_TARGETS"
            })
            .map(|v| Arch::HipDevice(v.text.as_str()));
        flag_args(st, sink, &plain_flags, Context::Any, arch, items(cmd));
    }
}

/// Whether CMake text may name an NVIDIA architecture flag (see [`compile_option_vars`]).
pub(super) fn arch_flags_named(src: &[u8]) -> bool {
    let has = |w: &[u8]| memchr::memmem::find(src, w).is_some();
    has(b"-gencode") || has(b"-arch") || has(b"--generate-code") || has(b"gpu-architecture")
}

/// Whether a CMake file's translation reads the CMake files below it for the readers of its
/// variables (R50-g, see [`compile_option_vars`]): its result then depends on them.
pub(super) fn may_read_arch_readers(src: &[u8]) -> bool {
    memchr::memmem::find(src, b"add_subdirectory").is_some() && arch_flags_named(src)
}

/// The texts of the CMake files (`CMakeLists.txt`, `*.cmake`) in and below the directory of
/// `file` (relative to `root`), but `file` itself and CMake's own output: what its
/// `add_subdirectory()` and `include()` read. At most 200.
fn cmake_files_below(file: &str, root: Option<&std::path::Path>) -> Vec<String> {
    let Some(root) = root else {
        return Vec::new();
    };
    let base = root.join(text::dir_of(file));
    let own = file.rsplit('/').next().unwrap_or(file);
    let mut out = Vec::new();
    crate::tree_walk::walk_files(&base, 20_000, |path, rel, _| {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        let cmake = name == "CMakeLists.txt" || name.ends_with(".cmake");
        if !cmake || rel == own || rel.split('/').any(|c| c == "CMakeFiles") {
            return std::ops::ControlFlow::Continue(());
        }
        if let Ok(t) = std::fs::read_to_string(path) {
            out.push(t);
        }
        if out.len() >= 200 {
            std::ops::ControlFlow::Break(())
        } else {
            std::ops::ControlFlow::Continue(())
        }
    });
    out
}

/// R50-g: the variables whose values reach the compile of a target in `texts` (a CMake file
/// and those below it): read in compile options (`target_compile_options()`,
/// `add_compile_options()`, FindCUDA's `cuda_add_*()`/`cuda_compile*()` arguments, which the
/// port passes on as compile options, the `COMPILE_OPTIONS`/`COMPILE_FLAGS` properties) or in
/// the nvcc flag variables (`CUDA_NVCC_FLAGS`, `CMAKE_CUDA_FLAGS*`), and those that a `set()`
/// or `list(APPEND)`/`string(APPEND)` of such a variable reads (`set(GENCODE ${GENCODE}
/// ${GENCODE_SM70})`).
fn compile_option_vars(texts: &[String]) -> BTreeSet<String> {
    let refs = |args: &[Arg]| -> Vec<String> {
        args.iter()
            .flat_map(|a| {
                a.text
                    .match_indices("${")
                    .filter_map(|(p, _)| {
                        let rest = &a.text[p + 2..];
                        let e = rest.find('}')?;
                        let name = &rest[..e];
                        (!name.is_empty() && name.bytes().all(is_ident)).then(|| name.to_string())
                    })
                    .collect::<Vec<_>>()
            })
            .collect()
    };
    let mut seeds: BTreeSet<String> = BTreeSet::new();
    let mut edges: Vec<(String, Vec<String>)> = Vec::new();
    for t in texts {
        for c in commands(t) {
            let name = c.name.as_str();
            let assigned = match name {
                "set" => c.args.first().map(|a| (a.text.clone(), 1)),
                "list" | "string" if c.args.first().is_some_and(|a| a.text == "APPEND") => {
                    c.args.get(1).map(|a| (a.text.clone(), 2))
                }
                _ => None,
            };
            if let Some((var, from)) = assigned {
                let read = refs(c.args.get(from..).unwrap_or(&[]));
                if var == "CUDA_NVCC_FLAGS" || var.starts_with("CMAKE_CUDA_FLAGS") {
                    seeds.extend(read);
                } else {
                    edges.push((var, read));
                }
                continue;
            }
            let options = matches!(name, "target_compile_options" | "add_compile_options")
                || name.starts_with("cuda_add_")
                || name.starts_with("cuda_compile")
                || (matches!(
                    name,
                    "set_property" | "set_target_properties" | "set_source_files_properties"
                ) && c
                    .args
                    .iter()
                    .any(|a| matches!(a.text.as_str(), "COMPILE_OPTIONS" | "COMPILE_FLAGS")));
            if options {
                seeds.extend(refs(&c.args));
            }
        }
    }
    loop {
        let before = seeds.len();
        for (var, read) in &edges {
            if seeds.contains(var) {
                seeds.extend(read.iter().cloned());
            }
        }
        if seeds.len() == before {
            break;
        }
    }
    seeds
}

/// How [`flag_args`] treats architecture flags other than by mapping them to the run's AMD
/// targets.
#[derive(Clone, Copy)]
enum Arch<'a> {
    /// The value of a `CUDA_NVCC_FLAGS` that reaches no compiler (see [`nvcc_flags_dead`]).
    DeadNvccFlags,
    /// The value of variable `.0`, which reaches targets that hip::device compiles for
    /// GPU_TARGETS (R50-g).
    HipDevice(&'a str),
}

/// Whether each argument of `cmd` is an element of a list (a `foreach` item, a `list()`
/// element, a compile option, one of several values of `set`), not part of a command line a
/// single value holds (`set(CMAKE_CUDA_FLAGS "...")`, `string(APPEND ...)`).
fn items(cmd: &Command) -> bool {
    match cmd.name.as_str() {
        "foreach"
        | "list"
        | "target_compile_options"
        | "add_compile_options"
        | "target_link_options"
        | "add_link_options" => true,
        "set" => {
            cmd.args
                .iter()
                .skip(1)
                .take_while(|a| a.quoted || !matches!(a.text.as_str(), "CACHE" | "PARENT_SCOPE"))
                .count()
                > 1
        }
        _ => false,
    }
}

/// Warns of NVIDIA's tools (`nvprof`, `nsys`, `ncu`, `cuda-memcheck`, ...) that a custom
/// command, target, test or `execute_process` runs (the program after `COMMAND`): ROCm has
/// none of them (see [`text::nvidia_tool`]).
fn nvidia_tool_commands(st: &State, sink: &mut Sink, cmd: &Command) {
    if !matches!(
        cmd.name.as_str(),
        "add_custom_command" | "add_custom_target" | "execute_process" | "add_test"
    ) {
        return;
    }
    for pair in cmd.args.windows(2) {
        let (keyword, program) = (&pair[0], &pair[1]);
        if !arg_is(keyword, "COMMAND") || program.bracket {
            continue;
        }
        if let Some((message, help)) = text::nvidia_tool(&program.text, st.opts.hip_version) {
            sink.diag(B_CONSTRUCT, program.start, message, Some(help));
        }
    }
}

/// Thrust's CUDA backend given as a definition (`target_compile_definitions(t PUBLIC
/// THRUST_DEVICE_SYSTEM=THRUST_DEVICE_SYSTEM_CUDA)`, `add_compile_definitions`, a
/// COMPILE_DEFINITIONS property, a variable that holds definitions) in the text `t` of an
/// argument whose content starts at `base`: becomes rocThrust's HIP system (see
/// [`flags::THRUST_CUDA_SYSTEM`]). The `-D` flag is mapped with the other flags.
fn thrust_definitions(sink: &mut Sink, t: &str, base: usize) {
    let pat = flags::THRUST_CUDA_SYSTEM;
    let b = t.as_bytes();
    for (pos, _) in t.match_indices(pat) {
        let end = pos + pat.len();
        let whole = (pos == 0 || !is_ident(b[pos - 1])) && b.get(end).is_none_or(|&c| !is_ident(c));
        if !whole || t[..pos].ends_with("-D") {
            continue;
        }
        // Only the system's name changes: `..._CUDA` -> `..._HIP`.
        if sink.edit(
            base + end - "CUDA".len(),
            base + end,
            "HIP",
            B_FLAG_MAPPED.id,
        ) {
            sink.diag(
                B_FLAG_MAPPED,
                base + pos,
                flags::thrust_system_message(pat, flags::THRUST_HIP_SYSTEM),
                None,
            );
        }
    }
}

/// CUDA's packages CMake code finds (`find_dependency(CUDAToolkit)`, `find_package(CUDA)`).
const CUDA_PACKAGES: &[&str] = &["CUDAToolkit", "CUDA"];

/// What a package config that finds CUDA's packages should find instead.
const CUDA_DEPENDENCY_HELP: &str = "use find_dependency(hip) (and the HIP libraries' packages, hipblas, hipfft, ...), as the ported build finds them, and hip:: targets for CUDA:: ones";

/// The CUDA package a `find_dependency(`/`find_package(` call names when `after` is what
/// follows the command's name.
fn cuda_package_call(after: &str) -> Option<&'static str> {
    let rest = after.trim_start().strip_prefix('(')?.trim_start();
    let name_len = rest.bytes().take_while(|&c| is_ident(c)).count();
    CUDA_PACKAGES
        .iter()
        .copied()
        .find(|p| *p == &rest[..name_len])
}

/// CMake code in a string or bracket argument that finds CUDA's packages: a package config the
/// build writes (stdgpu's `set(CONFIG_INIT "find_dependency(CUDAToolkit 11.0 REQUIRED)")`, a
/// `file(WRITE ...)` of such code). The ported library's users would look for CUDA again; the
/// text is the project's, so it is reported, not rewritten.
fn cuda_packages_in_string(src: &str, sink: &mut Sink, a: &Arg) {
    if !a.quoted && !a.bracket {
        return;
    }
    // A bracket argument's text is not kept: it is read from the source.
    let text = src.get(a.content_start..a.content_end).unwrap_or("");
    let lower = text.to_ascii_lowercase();
    for call in ["find_dependency", "find_package"] {
        for (pos, _) in lower.match_indices(call) {
            if pos > 0 && is_ident(lower.as_bytes()[pos - 1]) {
                continue;
            }
            let Some(package) = cuda_package_call(&text[pos + call.len()..]) else {
                continue;
            };
            sink.diag(
                B_CONSTRUCT,
                a.content_start + pos,
                format!("this text is CMake code that finds the {package} package (`{call}({package} ...)`): the ported library's users would look for CUDA again"),
                Some(CUDA_DEPENDENCY_HELP.into()),
            );
        }
    }
}

/// CUDA compiler and toolkit version variables. The translated project has no CUDA language and
/// no CUDA package, so they are empty in a HIP build.
const CUDA_VERSION_VARS: &[&str] = &[
    "CMAKE_CUDA_COMPILER_VERSION",
    "CMAKE_CUDA_COMPILER_TOOLKIT_VERSION",
    "CUDAToolkit_VERSION",
    "CUDAToolkit_VERSION_MAJOR",
    "CUDAToolkit_VERSION_MINOR",
    "CUDAToolkit_VERSION_PATCH",
    "CUDA_VERSION",
    "CUDA_VERSION_STRING",
    "CUDA_VERSION_MAJOR",
    "CUDA_VERSION_MINOR",
];

/// The CUDA version variable an argument reads (`VAR`, `${VAR}`, `"${VAR}"`).
fn cuda_version_var(a: &Arg) -> Option<&'static str> {
    if a.bracket {
        return None;
    }
    let t = a.text.trim();
    let name = t
        .strip_prefix("${")
        .and_then(|r| r.strip_suffix('}'))
        .unwrap_or(t);
    CUDA_VERSION_VARS.iter().copied().find(|v| *v == name)
}

/// `a` compared with `b` as CMake's VERSION_* operators do (missing components are 0), or
/// `None` when `b` is not a literal version.
fn compare_versions(a: &str, b: &str) -> Option<std::cmp::Ordering> {
    let parse = |v: &str| -> Option<Vec<u64>> {
        if v.is_empty() {
            return Some(Vec::new());
        }
        v.split('.').map(|c| c.parse().ok()).collect()
    };
    let (a, b) = (parse(a)?, parse(b)?);
    let n = a.len().max(b.len());
    let at = |v: &[u64], i: usize| v.get(i).copied().unwrap_or(0);
    Some(
        (0..n)
            .map(|i| at(&a, i).cmp(&at(&b, i)))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal),
    )
}

/// The value of `left OP right` in `if()` when one side is an empty CUDA version, or `None`
/// when the other side is not a literal (or `op` is not a comparison).
fn empty_version_test(op: &str, other: &str, var_left: bool) -> Option<bool> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    if let Some(rel) = op.strip_prefix("VERSION_") {
        let o = compare_versions("", other)?;
        let o = if var_left { o } else { o.reverse() };
        return match rel {
            "LESS" => Some(o == Less),
            "GREATER" => Some(o == Greater),
            "EQUAL" => Some(o == Equal),
            "LESS_EQUAL" => Some(o != Greater),
            "GREATER_EQUAL" => Some(o != Less),
            _ => None,
        };
    }
    // Numeric comparisons with an operand that is not a number are false.
    matches!(
        op,
        "LESS" | "GREATER" | "EQUAL" | "LESS_EQUAL" | "GREATER_EQUAL"
    )
    .then_some(false)
}

/// Index of the command that ends the branch starting after `i` (the next `elseif`, `else` or
/// `endif` of the same `if`), and the commands directly in that branch.
fn branch(cmds: &[Command], i: usize) -> (Option<usize>, Vec<usize>) {
    let mut depth = 0usize;
    let mut direct = Vec::new();
    for (j, c) in cmds.iter().enumerate().skip(i + 1) {
        match c.name.as_str() {
            "if" | "foreach" | "while" | "function" | "macro" | "block" => depth += 1,
            "endif" | "endforeach" | "endwhile" | "endfunction" | "endmacro" | "endblock"
                if depth > 0 =>
            {
                depth -= 1;
                continue;
            }
            "elseif" | "else" | "endif" if depth == 0 => return (Some(j), direct),
            _ => {}
        }
        if depth == 0 {
            direct.push(j);
        }
    }
    (None, direct)
}

/// A `message(FATAL_ERROR|SEND_ERROR ...)` directly in the branch taken after header `i`
/// (an `if` or `elseif` whose condition is `taken`).
fn fatal_in_taken_branch(cmds: &[Command], i: usize, taken: bool) -> Option<&Command> {
    let (end, direct) = branch(cmds, i);
    let body = if taken {
        direct
    } else {
        match end.map(|e| (e, cmds[e].name.as_str())) {
            Some((e, "else")) => branch(cmds, e).1,
            _ => Vec::new(), // no else(), or an elseif() whose outcome is not known
        }
    };
    body.into_iter().map(|j| &cmds[j]).find(|c| {
        c.name == "message"
            && c.args
                .first()
                .is_some_and(|a| matches!(a.text.as_str(), "FATAL_ERROR" | "SEND_ERROR"))
    })
}

/// V19-b: the guards of a variable whose `find_library()` went (see [`find_library_names`]):
/// `if(NOT CUDNN_LIB) message(FATAL_ERROR ...)` (or the `else()` of `if(CUDNN_LIB)`) now stops
/// every configure step, as the variable is never set. Where the test surely takes such a
/// branch with the variable unset (see [`unset_test`]), its `message(FATAL_ERROR|SEND_ERROR)`
/// goes, and the whole `if() ... endif()` where nothing else was in it.
fn drop_dropped_library_guards(
    src: &str,
    sink: &mut Sink,
    cmds: &[Command],
    vars: &BTreeSet<String>,
) {
    if vars.is_empty() {
        return;
    }
    for i in 0..cmds.len() {
        if cmds[i].name != "if" {
            continue;
        }
        let mut header = i;
        // Every condition before this branch is known to be false.
        let mut reached = true;
        loop {
            let c = &cmds[header];
            let taken = if c.name == "else" {
                Some(true)
            } else {
                unset_test(&c.args, vars)
            };
            let (end, direct) = branch(cmds, header);
            if reached && taken == Some(true) {
                let mut dropped = false;
                for j in direct.iter().copied() {
                    let m = &cmds[j];
                    let fatal = m.name == "message"
                        && m.args.first().is_some_and(|a| {
                            !a.quoted && matches!(a.text.as_str(), "FATAL_ERROR" | "SEND_ERROR")
                        });
                    if !fatal {
                        continue;
                    }
                    let (s, e) = command_line(src, m);
                    if sink.edit_over(s, e, "", B_LIB_MAPPED.id) {
                        dropped = true;
                        let line = src[..cmds[i].start].matches('\n').count() + 1;
                        let names: Vec<&str> = vars
                            .iter()
                            .map(String::as_str)
                            .filter(|v| {
                                cmds[i..=header]
                                    .iter()
                                    .any(|h| h.args.iter().any(|a| mentions_var(&a.text, v)))
                            })
                            .collect();
                        sink.diag_as(
                            B_LIB_MAPPED,
                            crate::diag::Severity::Note,
                            m.start,
                            format!(
                                "message({}) removed: the test on line {line} stops the configure step when {} is unset, and the port removed the find_library() (or find_path()) that set it, as no source in the tree uses that library",
                                m.args[0].text,
                                names.join(", ")
                            ),
                            Some("a source that calls that library's API needs the find_library() and this test back".into()),
                        );
                    }
                }
                // An `if()` with no other branch, left empty: it goes whole.
                if dropped
                    && header == i
                    && end.is_some_and(|e| cmds[e].name == "endif")
                    && direct
                        .iter()
                        .all(|&j| sink.removed(cmds[j].start, cmds[j].end))
                {
                    let (s, _) = command_line(src, &cmds[i]);
                    let (_, e) = command_line(src, &cmds[end.unwrap_or(i)]);
                    sink.edit_over(s, e, "", B_LIB_MAPPED.id);
                }
            }
            reached &= taken == Some(false);
            match end {
                Some(e) if cmds[e].name != "endif" && reached => header = e,
                _ => break,
            }
        }
    }
}

/// Whether `text` (an `if()` argument) names variable `var`: `VAR`, `${VAR}`, `"${VAR}"`.
fn mentions_var(text: &str, var: &str) -> bool {
    text == var || text == format!("${{{var}}}")
}

/// V19-b: the outcome of an `if()`/`elseif()` condition where the variables `unset` are not set
/// (Kleene logic: `None` where it depends on anything else). A variable, its `${}` value
/// (empty), `DEFINED` and `EXISTS` of it are false; `NOT`, `AND`, `OR` combine, in CMake's
/// order. A comparison, a parenthesis or any other test is unknown.
fn unset_test(args: &[Arg], unset: &BTreeSet<String>) -> Option<bool> {
    if args.is_empty()
        || args
            .iter()
            .any(|a| a.bracket || (!a.quoted && (a.text.contains('(') || a.text.contains(')'))))
    {
        return None;
    }
    const UNARY: &[&str] = &[
        "DEFINED",
        "EXISTS",
        "COMMAND",
        "POLICY",
        "TARGET",
        "TEST",
        "IS_DIRECTORY",
        "IS_SYMLINK",
        "IS_ABSOLUTE",
        "IS_READABLE",
        "IS_WRITABLE",
        "IS_EXECUTABLE",
    ];
    const BINARY: &[&str] = &[
        "STREQUAL",
        "STRLESS",
        "STRGREATER",
        "STRLESS_EQUAL",
        "STRGREATER_EQUAL",
        "EQUAL",
        "LESS",
        "GREATER",
        "LESS_EQUAL",
        "GREATER_EQUAL",
        "MATCHES",
        "VERSION_LESS",
        "VERSION_GREATER",
        "VERSION_EQUAL",
        "VERSION_LESS_EQUAL",
        "VERSION_GREATER_EQUAL",
        "IN_LIST",
        "IS_NEWER_THAN",
        "PATH_EQUAL",
    ];
    let kw = |a: &Arg, k: &str| !a.quoted && a.text == k;
    let is_unset = |a: &Arg| {
        unset
            .iter()
            .any(|v| mentions_var(&a.text, v) && !(a.quoted && a.text == *v))
    };
    // The terms, each with the NOTs before it, split by AND/OR.
    let mut ors: Vec<Option<bool>> = Vec::new();
    let mut and: Option<bool> = Some(true);
    let mut i = 0;
    while i < args.len() {
        let mut negate = false;
        while args.get(i).is_some_and(|a| kw(a, "NOT")) {
            negate = !negate;
            i += 1;
        }
        let a = args.get(i)?;
        let term = if !a.quoted && UNARY.contains(&a.text.as_str()) {
            let operand = args.get(i + 1)?;
            i += 2;
            match a.text.as_str() {
                "DEFINED" if !operand.quoted && unset.contains(&operand.text) => Some(false),
                "EXISTS" if is_unset(operand) && operand.text.starts_with("${") => Some(false),
                _ => None,
            }
        } else if args
            .get(i + 1)
            .is_some_and(|b| !b.quoted && BINARY.contains(&b.text.as_str()))
        {
            i += 3;
            None
        } else {
            i += 1;
            is_unset(a).then_some(false)
        };
        let term = term.map(|t| t != negate);
        and = match (and, term) {
            (Some(false), _) | (_, Some(false)) => Some(false),
            (Some(true), Some(true)) => Some(true),
            _ => None,
        };
        match args.get(i) {
            Some(a) if kw(a, "AND") => i += 1,
            Some(a) if kw(a, "OR") => {
                ors.push(and);
                and = Some(true);
                i += 1;
            }
            Some(_) => return None,
            None => {}
        }
    }
    ors.push(and);
    if ors.contains(&Some(true)) {
        Some(true)
    } else if ors.iter().all(|&t| t == Some(false)) {
        Some(false)
    } else {
        None
    }
}

/// R33-1: an `if()` whose branches only set a dead `CUDA_NVCC_FLAGS` (see
/// [`only_sets_nvcc_flags`]), every one of those commands removed, goes whole with its
/// `endif()`: what is left tests a CUDA version for nothing.
fn drop_emptied_ifs(src: &str, sink: &mut Sink, cmds: &[Command]) {
    let mut i = 0;
    while i < cmds.len() {
        if cmds[i].name != "if" || !only_sets_nvcc_flags(cmds, i) {
            i += 1;
            continue;
        }
        let mut depth = 0usize;
        let mut end = None;
        let mut all_removed = true;
        for (j, c) in cmds.iter().enumerate().skip(i + 1) {
            match c.name.as_str() {
                "if" => depth += 1,
                "elseif" | "else" => {}
                "endif" if depth == 0 => {
                    end = Some(j);
                    break;
                }
                "endif" => depth -= 1,
                _ => all_removed &= sink.removed(c.start, c.end),
            }
        }
        let Some(end) = end else { return };
        if all_removed {
            let (s, _) = command_line(src, &cmds[i]);
            let (_, e) = command_line(src, &cmds[end]);
            sink.edit_over(s, e, "", B_ARCH.id);
        }
        i = end + 1;
    }
}

/// Whether the commands from the `if`/`elseif` at `i` to its `endif()` are branches of `if`s
/// and `set()`s or `list(APPEND|PREPEND)`s of `CUDA_NVCC_FLAGS` alone (at least one).
fn only_sets_nvcc_flags(cmds: &[Command], i: usize) -> bool {
    let mut depth = 0usize;
    let mut sets = 0usize;
    for c in &cmds[i + 1..] {
        match c.name.as_str() {
            "if" => depth += 1,
            "elseif" | "else" => {}
            "endif" if depth == 0 => return sets > 0,
            "endif" => depth -= 1,
            "set" if c.args.first().is_some_and(|a| a.text == "CUDA_NVCC_FLAGS") => sets += 1,
            "list"
                if c.args
                    .first()
                    .is_some_and(|a| arg_is(a, "APPEND") || arg_is(a, "PREPEND"))
                    && c.args.get(1).is_some_and(|a| a.text == "CUDA_NVCC_FLAGS") =>
            {
                sets += 1
            }
            _ => return false,
        }
    }
    false
}

/// `if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 11.8)` and the like: in a HIP build the
/// variable is empty, which VERSION_* operators compare as version 0, so the test takes a
/// branch of its own; an error when that branch stops the configure step. Returns the indices
/// of the arguments reported.
///
/// R33-1: where `CUDA_NVCC_FLAGS` reaches no compiler (`dead`, see [`nvcc_flags_dead`]) and
/// the branches the test chooses between only set that variable (warp-ctc's `-gencode` per
/// CUDA release), the outcome changes nothing: the tests are not reported (the variable has
/// its own warning).
fn cuda_version_tests(
    src: &str,
    sink: &mut Sink,
    cmds: &[Command],
    i: usize,
    dead: bool,
) -> Vec<usize> {
    let cmd = &cmds[i];
    if !matches!(cmd.name.as_str(), "if" | "elseif" | "while") {
        return Vec::new();
    }
    let quiet = dead && cmd.name != "while" && only_sets_nvcc_flags(cmds, i);
    let args = &cmd.args;
    let is_op = |a: &Arg| {
        let t = a.text.as_str();
        !a.quoted
            && (t.starts_with("VERSION_")
                || matches!(
                    t,
                    "LESS" | "GREATER" | "EQUAL" | "LESS_EQUAL" | "GREATER_EQUAL"
                ))
    };
    let mut reported = Vec::new();
    for (k, a) in args.iter().enumerate() {
        let Some(var) = cuda_version_var(a) else {
            continue;
        };
        let (op, other, var_left) = match (k.checked_sub(1).map(|p| &args[p]), args.get(k + 1)) {
            (_, Some(op)) if is_op(op) => (op, args.get(k + 2), true),
            (Some(op), _) if is_op(op) => (op, k.checked_sub(2).map(|p| &args[p]), false),
            _ => continue,
        };
        reported.push(k);
        // R41-a: `${VAR}` unquoted expands to no argument at all when VAR is empty: if() then
        // gets `GREATER_EQUAL 11.0` alone and CMake stops configuring. Quoted, it is one empty
        // argument, which the test compares as below (the branch the finding names is taken).
        let unquoted = !a.quoted && a.text.trim().starts_with("${");
        let quoted_now = unquoted
            && sink.edit(
                a.start,
                a.end,
                format!("\"{}\"", a.text.trim()),
                B_CONSTRUCT.id,
            );
        if quiet {
            continue;
        }
        let other_text = other.map_or("", |o| o.text.as_str());
        let test = if var_left {
            format!("{var} {} {other_text}", op.text)
        } else {
            format!("{other_text} {} {var}", op.text)
        };
        let value = other.and_then(|o| {
            (!o.text.contains("${")).then_some(())?;
            empty_version_test(&op.text, &o.text, var_left)
        });
        // The whole condition is this test, or its negation.
        let whole = match args.len() {
            3 => value,
            4 if arg_is(&args[0], "NOT") => value.map(|v| !v),
            _ => None,
        };
        let fatal = whole
            .filter(|_| cmd.name != "while")
            .and_then(|taken| fatal_in_taken_branch(cmds, i, taken).map(|c| (taken, c)));
        let compared = if op.text.starts_with("VERSION_") {
            "compares as version 0"
        } else {
            "is not a number"
        };
        let mut message = format!(
            "`{var}` is empty in a HIP build (no CUDA language or package), so it {compared}"
        );
        if unquoted {
            let rest: Vec<&str> = args
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, x)| x.text.as_str())
                .collect();
            let left = format!("{}({})", cmd.name, rest.join(" "));
            message = if quoted_now {
                format!(
                    "`{var}` is empty in a HIP build (no CUDA language or package): written unquoted, `${{{var}}}` expands to nothing, `{left}` stops the configure step, so hipport quotes it (\"${{{var}}}\"), which {compared}"
                )
            } else {
                format!(
                    "`{var}` is empty in a HIP build (no CUDA language or package): written unquoted, `${{{var}}}` expands to nothing and `{left}` stops the configure step"
                )
            };
            if !quoted_now {
                sink.diag_as(
                    B_CONSTRUCT,
                    Severity::Error,
                    a.content_start,
                    message,
                    Some(format!("quote it (\"${{{var}}}\"), drop the check, or compare hip_VERSION (set by find_package(hip)) in HIP builds")),
                );
                continue;
            }
        }
        match value {
            Some(v) => message.push_str(&format!(": `{test}` is {v}")),
            None => message.push_str(&format!(" in `{test}`")),
        }
        let mut severity = B_CONSTRUCT.severity;
        if let Some((taken, c)) = fatal {
            let line = src[..c.start].matches('\n').count() + 1;
            let branch = if taken {
                "its branch"
            } else {
                "the else() branch"
            };
            message.push_str(&format!(
                " and {branch} stops the configure step (message({}) on line {line})",
                c.args[0].text
            ));
            severity = Severity::Error;
        } else if let Some(taken) = whole {
            let branch = if taken {
                "its branch"
            } else {
                "the other branch"
            };
            message.push_str(&format!(", so {branch} is taken"));
        }
        sink.diag_as(
            B_CONSTRUCT,
            severity,
            a.content_start,
            message,
            Some(
                "drop the check, or compare hip_VERSION (set by find_package(hip)) in HIP builds"
                    .into(),
            ),
        );
    }
    reported
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The `$<...>` expressions of `t`: (offset of `$<`, offset of the matching `>`), in order of
/// their openings. An unclosed one ends at the end of `t`.
fn genex_spans(t: &str) -> Vec<(usize, usize)> {
    let b = t.as_bytes();
    let mut out: Vec<(usize, usize)> = Vec::new();
    let mut open: Vec<usize> = Vec::new();
    let mut k = 0;
    while k < b.len() {
        if b[k] == b'$' && b.get(k + 1) == Some(&b'<') {
            open.push(out.len());
            out.push((k, t.len()));
            k += 2;
            continue;
        }
        if b[k] == b'>' {
            if let Some(i) = open.pop() {
                out[i].1 = k;
            }
        }
        k += 1;
    }
    out
}

/// For the language test `$<COMPILE_LANGUAGE:CUDA>` whose name starts at `pos` and ends at
/// `cond_end` in `t`, the value it guards: `VALUE` of `$<$<COMPILE_LANGUAGE:CUDA>:VALUE>`, also
/// when the test is inside `$<AND:...>` or `$<OR:...>` conditions
/// (`$<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:VALUE>`). Returns the value's start and
/// end, and where the whole conditional expression starts. `None` for anything else (a test
/// under `$<NOT:...>` guards host code).
fn guarded_value(t: &str, pos: usize, cond_end: usize) -> Option<(usize, usize, usize)> {
    let spans = genex_spans(t);
    let mut cur = *spans
        .iter()
        .find(|(o, c)| *o + 2 == pos && *c == cond_end)?;
    loop {
        // The innermost expression around `cur`.
        let parent = spans
            .iter()
            .filter(|(o, c)| *o < cur.0 && *c > cur.1)
            .max_by_key(|(o, _)| *o)
            .copied()?;
        if parent.0 + 2 == cur.0 {
            // `$<COND:VALUE>` with `cur` as its condition.
            return (t.as_bytes().get(cur.1 + 1) == Some(&b':') && parent.1 < t.len()).then_some((
                cur.1 + 2,
                parent.1,
                parent.0,
            ));
        }
        let name = &t[parent.0 + 2..];
        if !(name.starts_with("AND:") || name.starts_with("OR:")) {
            return None;
        }
        cur = parent;
    }
}

/// Maps the nvcc flags of the value a CUDA language test guards (see [`guarded_value`]): flags
/// separated by `;` (or blanks inside a quoted argument), a `SHELL:` group among them. `value`
/// is the value's range in `a.text`; `whole` says whether the conditional expression is the
/// whole argument. Returns true when every flag went away and the whole argument was removed.
fn genex_flags(st: &State, sink: &mut Sink, a: &Arg, value: (usize, usize), whole: bool) -> bool {
    let t = a.text.as_str();
    if !a.quoted && t.contains('"') {
        // An unquoted argument with a quoted part (`x"$<...:-arch=sm_80>"`): its quotes decide
        // where the command ends, and quoting it whole (for a flag that becomes several) or
        // rewriting inside it would move that end.
        return false;
    }
    let (vstart, vend) = value;
    let base = a.content_start;
    let mut words = Vec::new();
    let mut s = vstart;
    for part in t[vstart..vend].split([';', ' ']) {
        // `SHELL:-Xcompiler -fopenmp` is one option group: its words are flags as any others.
        let (skip, part_text) = match part.strip_prefix("SHELL:") {
            Some(rest) => (6, rest),
            None => (0, part),
        };
        if !part_text.is_empty() {
            words.push(Word {
                start: base + s + skip,
                end: base + s + part.len(),
                text: part_text.to_string(),
                quote: None,
            });
        }
        s += part.len() + 1;
    }
    let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
    let mut done = false;
    let mut mapped = flags::map_words(&texts, st.opts, Context::Nvcc, &mut done);
    if leave_opaque(sink, &words, &mut mapped) {
        return false;
    }
    keep_unwrapped_values(&words, &mut mapped);
    supersede_inner_edits(sink, st.src, &words, &mut mapped);
    // Flags that become several are joined with `;`, which CMake reads as separate options
    // (a blank would make them one); removals take the `;` or blanks beside them.
    let style = Style::Semicolon;
    let all_removed = !words.is_empty()
        && mapped.changes.len() == words.len()
        && mapped
            .changes
            .iter()
            .all(|(_, act)| *act == flags::Action::Remove)
        && whole;
    if all_removed
        && remove_arg(
            sink,
            st.src,
            a,
            mapped.notes.first().map_or("B002", |n| n.info.id),
        )
    {
        for n in mapped.notes {
            let at = words[n.word].start;
            sink.note(n, at);
        }
        return true;
    }
    let multi = mapped
        .changes
        .iter()
        .any(|(_, act)| matches!(act, flags::Action::Replace(v) if v.len() > 1));
    // An unquoted argument would be split at that `;`: it is quoted.
    if multi && !a.quoted {
        sink.edit(a.start, a.start, "\"", B_ARCH.id);
        sink.edit(a.end, a.end, "\"", B_ARCH.id);
    }
    text::apply_mapped(sink, st.src, &words, mapped, style);
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buildfiles::{translate_build, BuildKind};
    use crate::edit::apply;

    fn run(src: &str, opts: &BuildOptions) -> (String, Vec<crate::diag::Diagnostic>) {
        let (mut edits, diags) =
            translate_build(BuildKind::CMake, src.as_bytes(), "CMakeLists.txt", opts);
        (
            String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap(),
            diags,
        )
    }

    fn opts() -> BuildOptions {
        BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx1100".into()],
            ..Default::default()
        }
    }

    /// C-b: a custom command that runs nvcc for a device-code file is translated whole (hipcc,
    /// `--genco`, the AMD targets), or, with a flag hipcc lacks, left whole with an error.
    /// R22-f: `find_package(OpenMP)` in a project with CUDA code is one note about hipcc's
    /// clang needing ROCm's OpenMP runtime; a project without CUDA code gets none.
    #[test]
    fn openmp_in_a_cuda_project_is_a_note_about_rocms_openmp_runtime() {
        let src = "project(p LANGUAGES CXX CUDA)\nfind_package(OpenMP REQUIRED)\nadd_executable(p k.cu)\n";
        let (out, diags) = run(src, &opts());
        assert!(out.contains("find_package(OpenMP REQUIRED)\n"), "{out}");
        let notes: Vec<_> = diags
            .iter()
            .filter(|d| d.message.starts_with("OpenMP:"))
            .collect();
        assert_eq!(notes.len(), 1, "{diags:#?}");
        assert_eq!(
            (notes[0].line, notes[0].severity),
            (2, crate::diag::Severity::Note)
        );
        let host =
            "project(p LANGUAGES CXX)\nfind_package(OpenMP REQUIRED)\nadd_executable(p k.cpp)\n";
        let (_, diags) = run(host, &opts());
        assert!(
            !diags.iter().any(|d| d.message.starts_with("OpenMP:")),
            "{diags:#?}"
        );
    }

    #[test]
    fn custom_commands_running_nvcc_are_translated_whole_or_left_whole() {
        let src = "project(p LANGUAGES CXX CUDA)\nadd_custom_command(OUTPUT vadd64.fatbin\n  COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_80 -fatbin -o vadd64.fatbin ${CMAKE_CURRENT_SOURCE_DIR}/vadd.cu\n  DEPENDS vadd.cu)\nadd_custom_command(OUTPUT k.ptx COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_80 -ptx -o k.ptx k.cu COMMAND echo done)\n";
        let (out, diags) = run_fixed(src, &opts());
        assert!(
            out.contains("  COMMAND ${CMAKE_CXX_COMPILER} --offload-arch=gfx90a --offload-arch=gfx1100 --genco -o vadd64.fatbin ${CMAKE_CURRENT_SOURCE_DIR}/vadd.cu\n"),
            "{out}"
        );
        assert!(
            out.contains("add_custom_command(OUTPUT k.ptx COMMAND ${CMAKE_CUDA_COMPILER} -arch=sm_80 -ptx -o k.ptx k.cu COMMAND echo done)"),
            "{out}"
        );
        let line5: Vec<_> = diags.iter().filter(|d| d.line == 5).collect();
        assert_eq!(line5.len(), 1, "{diags:#?}");
        assert_eq!(line5[0].id, "B003");
        assert_eq!(line5[0].severity, Severity::Error);
        assert!(
            line5[0].message.contains("with `-ptx`"),
            "{}",
            line5[0].message
        );
        assert!(
            !diags
                .iter()
                .any(|d| d.message.contains("CMAKE_CUDA_COMPILER belongs")),
            "{diags:#?}"
        );
    }

    #[test]
    fn static_cuda_libraries_become_the_shared_rocm_ones() {
        let src = "project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\nadd_library(k k.cu)\ntarget_link_libraries(k PRIVATE CUDA::cudart_static CUDA::cublas_static CUDA::cublasLt_static CUDA::cusolver_static CUDA::cusparse_static CUDA::cufft_static CUDA::curand_static CUDA::culibos)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("target_link_libraries(k PRIVATE hip::host roc::hipblas roc::hipblaslt roc::hipsolver roc::hipsparse hip::hipfft hip::hiprand hip::host)"),
            "{out}"
        );
        for package in [
            "hipblas",
            "hipblaslt",
            "hipsolver",
            "hipsparse",
            "hipfft",
            "hiprand",
        ] {
            assert!(
                out.contains(&format!("find_package({package} REQUIRED)")),
                "{out}"
            );
        }
        assert!(!diags.iter().any(|d| d.id == "B005"), "{diags:?}");
    }

    #[test]
    fn libraries_a_target_release_lacks_are_reported_not_found() {
        // hipBLASLt first shipped in ROCm 5.5: for HIP 5.2 its package cannot be found.
        let src = "project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\nadd_library(k k.cu)\ntarget_link_libraries(k PRIVATE CUDA::cublas CUDA::cublasLt_static cublasLt)\n";
        let old = BuildOptions {
            hip_version: hipport_rules::Version::new(5, 2, 3),
            ..opts()
        };
        let (out, diags) = run(src, &old);
        assert!(out.contains("find_package(hipblas REQUIRED)"), "{out}");
        assert!(!out.contains("hipblaslt"), "{out}");
        assert!(
            out.contains("PRIVATE roc::hipblas CUDA::cublasLt_static cublasLt)"),
            "{out}"
        );
        let lacking: Vec<_> = diags.iter().filter(|d| d.id == "B005").collect();
        assert_eq!(lacking.len(), 2, "{diags:?}");
        assert!(
            lacking[0]
                .message
                .contains("which HIP 5.2.3 lacks: hipblaslt first shipped in ROCm 5.5"),
            "{}",
            lacking[0].message
        );
        // From 5.5 on the package is found.
        let new = BuildOptions {
            hip_version: hipport_rules::Version::new(5, 5, 0),
            ..opts()
        };
        let (out, diags) = run(src, &new);
        assert!(out.contains("find_package(hipblaslt REQUIRED)"), "{out}");
        assert!(!diags.iter().any(|d| d.id == "B005"), "{diags:?}");
    }

    #[test]
    fn library_releases_agree_with_the_rules_database() {
        let db = hipport_rules::Database::builtin();
        let header = db.header("cublasLt.h").expect("the cublasLt.h row");
        let lt = flags::library("cublasLt").unwrap();
        assert_eq!(lt.hip_added, header.hip_added);
        assert!(lt.hip_added.is_some());
    }

    #[test]
    fn cuda_standard_and_flags_do_not_clobber_the_cxx_ones() {
        let src = "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CUDA_STANDARD 14)\nset(CMAKE_CXX_FLAGS \"-DUSE_FOO=1\")\nset(CMAKE_CUDA_FLAGS \"--use_fast_math\")\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert!(
            out.contains("set(CMAKE_CXX_STANDARD 17)\nset(CMAKE_CUDA_STANDARD 14)\n"),
            "{out}"
        );
        // The CUDA flags stay CUDA's: the epilogue gives them to the HIP sources alone.
        assert!(
            out.contains(
                "set(CMAKE_CXX_FLAGS \"-DUSE_FOO=1\")\nset(CMAKE_CUDA_FLAGS \"-ffast-math\")\n"
            ),
            "{out}"
        );
        // Without a C++ standard of its own, the CUDA one becomes it.
        let (out, _) = run(
            "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_STANDARD 17)\n",
            &BuildOptions::default(),
        );
        assert!(out.contains("set(CMAKE_CXX_STANDARD 17)"), "{out}");
    }

    #[test]
    fn lexes_commands_and_arguments() {
        let cmds = commands("# c\nproject(x LANGUAGES CXX CUDA) #[[ skip(me) ]]\nset(A \"b c\" $<$<CONFIG:Debug>:-g> [[raw]])\n");
        assert_eq!(cmds.len(), 2);
        assert_eq!(
            cmds[1]
                .args
                .iter()
                .map(|a| a.text.as_str())
                .collect::<Vec<_>>(),
            vec!["A", "b c", "$<$<CONFIG:Debug>:-g>", ""]
        );
        assert!(cmds[1].args[3].bracket);
    }

    #[test]
    fn language_and_targets() {
        let src = "cmake_minimum_required(VERSION 3.18)\nproject(saxpy LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\nset(CMAKE_CUDA_ARCHITECTURES 70 80)\nadd_executable(saxpy saxpy.cu)\ntarget_link_libraries(saxpy PRIVATE CUDA::cudart CUDA::cublas)\ntarget_compile_options(saxpy PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math>)\n";
        let (out, diags) = run(src, &opts());
        assert!(out.contains("project(saxpy LANGUAGES CXX)\n"), "{out}");
        assert!(
            out.contains("set(GPU_TARGETS \"gfx90a;gfx1100\" CACHE STRING"),
            "{out}"
        );
        assert!(
            out.contains("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nlink_libraries(hip::device)\n"),
            "{out}"
        );
        assert!(out.contains("link_libraries(hip::device)"), "{out}");
        assert!(!out.contains("CMAKE_CUDA_ARCHITECTURES"), "{out}");
        assert!(
            out.contains("target_link_libraries(saxpy PRIVATE hip::host roc::hipblas)"),
            "{out}"
        );
        assert!(
            out.contains("$<$<COMPILE_LANGUAGE:CUDA>:-ffast-math>"),
            "{out}"
        );
        assert!(
            out.contains(
                "set_source_files_properties(${_hipport_all_sources} PROPERTIES LANGUAGE CXX)"
            ),
            "{out}"
        );
        assert!(diags.iter().any(|d| d.id == "B009" && d.line == 4));
        assert!(diags
            .iter()
            .any(|d| d.id == "B001" && d.line == 7 && d.message.contains("--use_fast_math")));
        // The test stays, so the flag does not reach host .cpp files: the note says so.
        assert!(diags.iter().any(|d| d.id == "B007"
            && d.line == 7
            && d.message.contains("$<COMPILE_LANGUAGE:CUDA> kept")
            && d.help
                .as_deref()
                .is_some_and(|h| h.contains("host C++ sources do not get it"))));
    }

    #[test]
    fn resolve_device_symbols_is_a_note() {
        let src = "project(p CUDA)\nadd_library(k STATIC k.cu)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON\n  CUDA_RESOLVE_DEVICE_SYMBOLS ON)\nset_property(TARGET k PROPERTY CUDA_RESOLVE_DEVICE_SYMBOLS OFF)\n";
        let (out, diags) = run(src, &opts());
        assert!(out.contains("CUDA_RESOLVE_DEVICE_SYMBOLS ON)\ntarget_compile_options(k PRIVATE -fgpu-rdc)\ntarget_link_options(k PUBLIC -fgpu-rdc)\n"), "{out}");
        let found: Vec<(usize, Severity)> = diags
            .iter()
            .filter(|d| d.id == "B013" && d.message.contains("CUDA_RESOLVE_DEVICE_SYMBOLS"))
            .map(|d| (d.line, d.severity))
            .collect();
        assert_eq!(found, [(4, Severity::Note)]);
    }

    #[test]
    fn separable_compilation_and_properties() {
        let src = "project(p CUDA)\nadd_library(k STATIC k.cu)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON CUDA_STANDARD 17)\nset_source_files_properties(a.cpp PROPERTIES LANGUAGE CUDA)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -lineinfo --expt-relaxed-constexpr -Xcompiler -Wall\")\n";
        let (out, diags) = run(src, &opts());
        assert!(out.starts_with("project(p CXX)\n"), "{out}");
        // A static library is not linked itself: the link option must reach its consumers.
        assert!(out.contains("CUDA_SEPARABLE_COMPILATION ON CXX_STANDARD 17)\ntarget_compile_options(k PRIVATE -fgpu-rdc)\ntarget_link_options(k PUBLIC -fgpu-rdc)\n"), "{out}");
        assert!(
            out.contains("set_source_files_properties(a.cpp PROPERTIES LANGUAGE CXX)"),
            "{out}"
        );
        assert!(
            out.contains("set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -Wall\")"),
            "{out}"
        );
        assert!(diags.iter().any(|d| d.id == "B013"
            && d.help
                .as_deref()
                .is_some_and(|h| h.contains("of k is PUBLIC"))));
        // The property stays, and translating the output again adds nothing.
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    #[test]
    fn separable_compilation_links_privately_only_where_the_target_is_linked() {
        let src = "project(p CUDA)\nadd_executable(e e.cu)\nadd_library(s SHARED s.cu)\nadd_library(d d.cu)\nset_property(TARGET e s d PROPERTY CUDA_SEPARABLE_COMPILATION ON)\nset_target_properties(other PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n";
        let (out, _) = run(src, &opts());
        for (t, scope) in [
            ("e", "PRIVATE"),
            ("s", "PRIVATE"),
            ("d", "PUBLIC"),
            ("other", "PUBLIC"),
        ] {
            assert!(
                out.contains(&format!("target_compile_options({t} PRIVATE -fgpu-rdc)\ntarget_link_options({t} {scope} -fgpu-rdc)\n")),
                "{t}: {out}"
            );
        }
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    #[test]
    fn nvcc_flags_in_nested_generator_expressions() {
        let src = "project(p CUDA)\nadd_executable(p k.cu)\ntarget_compile_options(p PRIVATE\n  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>\n  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-G>\n  $<$<AND:$<CONFIG:Release>,$<OR:$<COMPILE_LANGUAGE:CUDA>,$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>>>:--use_fast_math;-Xptxas=-v>\n  $<$<NOT:$<COMPILE_LANGUAGE:CUDA>>:-G>\n  \"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler -fopenmp>\"\n  \"$<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math;--expt-extended-lambda>\"\n  \"$<$<COMPILE_LANGUAGE:CUDA>:-arch=sm_80>\")\ntarget_compile_options(p $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-lineinfo>)\n";
        let (out, diags) = run(src, &opts());
        let expected = "target_compile_options(p PRIVATE\n  $<$<AND:$<COMPILE_LANGUAGE:CUDA>,$<CONFIG:Debug>>:-g>\n  $<$<AND:$<CONFIG:Release>,$<OR:$<COMPILE_LANGUAGE:CUDA>,$<COMPILE_LANG_AND_ID:CUDA,NVIDIA>>>:-ffast-math>\n  $<$<NOT:$<COMPILE_LANGUAGE:CUDA>>:-G>\n  \"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-fopenmp>\"\n  \"$<$<COMPILE_LANGUAGE:CUDA>:-ffast-math>\"\n  \"$<$<COMPILE_LANGUAGE:CUDA>:--offload-arch=gfx90a;--offload-arch=gfx1100>\")\n\n# hipport";
        assert!(out.contains(expected), "{out}");
        let found = |id: &str, line: usize, text: &str| {
            diags
                .iter()
                .filter(|d| d.id == id && d.line == line && d.message.contains(text))
                .count()
        };
        assert_eq!(found("B001", 5, "`-G` -> `-g`"), 1);
        // Two language tests guard one value, which is mapped once.
        assert_eq!(found("B001", 6, "--use_fast_math"), 1);
        assert_eq!(found("B002", 6, "-Xptxas=-v"), 1);
        // Under NOT the value is host code: -G stays.
        assert_eq!(found("B001", 7, "-G"), 0);
        assert_eq!(found("B001", 8, "`-Xcompiler -fopenmp` -> `-fopenmp`"), 1);
        assert_eq!(found("B002", 11, "-lineinfo"), 1);
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    /// T-a: FindCUDA's `cuda_compile(VAR srcs)` becomes `set(VAR srcs)` (the target that lists
    /// the variable compiles the sources); its other compile macros, and `cuda_compile` with
    /// nvcc OPTIONS, are errors at their line (CMake: Unknown CMake command).
    #[test]
    fn findcuda_compile_macros_are_translated_or_reported() {
        let src = "find_package(CUDA REQUIRED)\nCUDA_COMPILE(K_OBJS k.cu SHARED j.cu)\nadd_library(k STATIC host.cc ${K_OBJS})\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("set(K_OBJS k.cu j.cu)\nadd_library(k STATIC host.cc ${K_OBJS})\n"),
            "{out}"
        );
        assert!(!out.contains("CUDA_COMPILE"), "{out}");
        assert!(
            out.ends_with(&epilogue(&Default::default(), false)),
            "{out}"
        );
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B007" && d.line == 2 && d.message.contains("set(K_OBJS")),
            "{diags:#?}"
        );
        assert!(
            !diags.iter().any(|d| d.severity == Severity::Error),
            "{diags:#?}"
        );
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
        // A subdirectory's file with no find_package(CUDA) (Kaldi's) gets HIP too.
        let (out, _) = run(
            "cuda_compile(CUDA_OBJS\n    k.cu\n)\nadd_library(k host.cc ${CUDA_OBJS})\n",
            &opts(),
        );
        assert!(out.contains("find_package(hip REQUIRED)"), "{out}");
        assert!(out.contains("set(CUDA_OBJS\n    k.cu\n)\n"), "{out}");
        let src = "find_package(CUDA)\ncuda_compile(A a.cu OPTIONS -G)\ncuda_compile_ptx(P p.cu)\ncuda_compile_fatbin(F f.cu)\ncuda_compile_cubin(C c.cu)\ncuda_wrap_srcs(t OBJ W w.cu)\nadd_library(k ${A})\n";
        let (out, diags) = run(src, &opts());
        for (line, name) in [
            (2, "cuda_compile()"),
            (3, "cuda_compile_ptx()"),
            (4, "cuda_compile_fatbin()"),
            (5, "cuda_compile_cubin()"),
            (6, "cuda_wrap_srcs()"),
        ] {
            assert!(
                diags.iter().any(|d| d.id == "B008"
                    && d.severity == Severity::Error
                    && d.line == line
                    && d.message.starts_with(name)
                    && d.help.is_some()),
                "{line} {name}: {diags:#?}"
            );
        }
        assert!(out.contains("cuda_compile_ptx(P p.cu)"), "{out}");
    }

    /// R18-2: the part of the epilogue that moves a target's `$<COMPILE_LANGUAGE:CUDA>`
    /// options to its HIP sources is left out of a file at the input's root that has none left
    /// (its only one dropped) and includes no project file; a subdirectory's file (a parent may
    /// add them), one that keeps one, or one that includes a file gets it.
    #[test]
    fn the_epilogue_reads_target_properties_only_where_they_may_be_cuda_ones() {
        let dropped = "project(p LANGUAGES CXX CUDA)\nadd_executable(p k.cu)\ntarget_compile_options(p PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--extended-lambda>)\n";
        let at = |file: &str, src: &str| {
            let (mut edits, _) = translate_build(BuildKind::CMake, src.as_bytes(), file, &opts());
            let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
            let (mut again, _) = translate_build(BuildKind::CMake, out.as_bytes(), file, &opts());
            assert_eq!(apply(out.as_bytes(), &mut again).unwrap(), out.as_bytes());
            out
        };
        let out = at("CMakeLists.txt", dropped);
        assert!(!out.contains("--extended-lambda"), "{out}");
        assert!(
            out.ends_with(&epilogue(&Default::default(), false)),
            "{out}"
        );
        assert!(!out.contains("_hipport_property"), "{out}");
        assert!(out.contains("PROPERTIES LANGUAGE CXX)"), "{out}");
        let full = epilogue(&Default::default(), true);
        assert!(at("sub/CMakeLists.txt", dropped).ends_with(&full));
        let kept = dropped.replace("--extended-lambda", "-DGPU=1");
        assert!(at("CMakeLists.txt", &kept).ends_with(&full));
        for include in [
            "include(cmake/flags.cmake)",
            "include(${X})",
            "include(Flags)\nlist(APPEND CMAKE_MODULE_PATH m)",
        ] {
            let src = format!("{include}\n{dropped}");
            assert!(at("CMakeLists.txt", &src).ends_with(&full), "{include}");
        }
        let src = format!("include(CheckLanguage)\n{dropped}");
        assert!(!at("CMakeLists.txt", &src).contains("_hipport_property"));
        // FindCUDA's OPTIONS become a CUDA language test: the targets' options are read.
        let src = "find_package(CUDA)\ncuda_add_executable(p k.cu OPTIONS -DGPU=1)\n";
        let out = at("CMakeLists.txt", src);
        assert!(out.contains("$<$<COMPILE_LANGUAGE:CUDA>:-DGPU=1>"), "{out}");
        assert!(out.ends_with(&full), "{out}");
    }

    /// U-b: a well-known package's function that makes a target (pybind11_add_module,
    /// nanobind_add_module, Python_add_library) gets the appended code that compiles its `.cu`
    /// sources as CXX, as add_library does; CMake found no link language for it otherwise.
    #[test]
    fn package_target_functions_get_the_epilogue() {
        for make in [
            "pybind11_add_module(gpu_ops k.cu)",
            "nanobind_add_module(gpu_ops NB_STATIC k.cu)",
            "Python_add_library(gpu_ops MODULE WITH_SOABI k.cu)",
            "python3_add_library(gpu_ops k.cu)",
        ] {
            let src = format!("project(p LANGUAGES CXX CUDA)\n{make}\n");
            let (out, _) = run(&src, &opts());
            assert!(
                out.ends_with(&epilogue(&Default::default(), false)),
                "{out}"
            );
            let (again, _) = run(&out, &opts());
            assert_eq!(again, out);
        }
    }

    /// nvcc gave the CUDA flags and the CUDA language's options to the .cu sources only: the
    /// host .cpp files must not get `-ffast-math` (isnan(0/0) would be false) or CUDA defines.
    #[test]
    fn cuda_only_flags_stay_off_host_sources() {
        let src = "project(p LANGUAGES CXX CUDA)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} --use_fast_math\")\nset(CMAKE_CUDA_FLAGS_RELEASE \"${CMAKE_CUDA_FLAGS_RELEASE} -Xcompiler -O3\")\nadd_executable(app main.cpp k.cu)\ntarget_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:--use_fast_math -DIN_CUDA_TU=1>)\ntarget_compile_definitions(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:ON_GPU>)\n";
        let (out, diags) = run(src, &opts());
        assert!(!out.contains("CMAKE_CXX_FLAGS"), "{out}");
        assert!(!out.contains("COMPILE_LANGUAGE:CXX"), "{out}");
        assert!(
            out.contains("set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -ffast-math\")\nset(CMAKE_CUDA_FLAGS_RELEASE \"${CMAKE_CUDA_FLAGS_RELEASE} -O3\")\n"),
            "{out}"
        );
        assert!(
            out.contains("target_compile_options(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-ffast-math -DIN_CUDA_TU=1>)\ntarget_compile_definitions(app PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:ON_GPU>)\n"),
            "{out}"
        );
        assert!(out.ends_with(&epilogue(&Default::default(), true)), "{out}");
        assert!(out.contains("MATCHES \"\\\\.(cu)$\")"), "{out}");
        // The variable the epilogue reads is not reported as having no effect.
        assert!(!diags.iter().any(|d| d.id == "B008"), "{diags:#?}");
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
        // A source's own LANGUAGE test names the language it compiles as now.
        let (out, _) = run(
            "project(p CUDA)\nadd_library(l k.cu)\nset_source_files_properties(k.cu PROPERTIES COMPILE_OPTIONS $<$<COMPILE_LANGUAGE:CUDA>:-O3>)\n",
            &opts(),
        );
        assert!(
            out.contains("COMPILE_OPTIONS $<$<COMPILE_LANGUAGE:CXX>:-O3>)"),
            "{out}"
        );
    }

    #[test]
    fn the_cuda_flags_variable_keeps_its_name() {
        let src =
            "project(p CXX CUDA)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -Xcompiler -Wall\")\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -Wall\")"),
            "{out}"
        );
        // The variable keeps its name (the epilogue reads it): nothing renames it.
        assert!(
            !diags.iter().any(|d| d.message.contains("CMAKE_CXX_FLAGS")),
            "{diags:#?}"
        );
    }

    #[test]
    fn renamed_sources_and_multi_flag_genex() {
        let mut o = opts();
        o.renamed.insert("src/k.cu".into(), "src/k.hip".into());
        let src = "project(p LANGUAGES CUDA CXX)\nadd_executable(p ${CMAKE_CURRENT_SOURCE_DIR}/src/k.cu main.cpp)\nfile(GLOB S src/*.cu)\ntarget_compile_options(p PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-arch=sm_80>)\n";
        let (out, _) = run(src, &o);
        assert!(
            out.contains("add_executable(p ${CMAKE_CURRENT_SOURCE_DIR}/src/k.hip main.cpp)"),
            "{out}"
        );
        assert!(out.contains("file(GLOB S src/*.hip)"), "{out}");
        assert!(
            out.contains(
                "\"$<$<COMPILE_LANGUAGE:CUDA>:--offload-arch=gfx90a;--offload-arch=gfx1100>\""
            ),
            "{out}"
        );
        assert!(out.starts_with("project(p LANGUAGES CXX)\n"), "{out}");
        // The renamed sources are `.hip` now: the appended code looks for both.
        assert!(out.contains("MATCHES \"\\\\.(hip|cu)$\")"), "{out}");
    }

    /// A project with its own HIP path (3D Gaussian splatting's rasterizer): the CUDA branches
    /// that run only when that path is not taken stay as they are (a note each), and the
    /// project's own `.hip` sources are not given to the appended code.
    #[test]
    fn branches_behind_the_projects_own_hip_path_are_left_alone() {
        let src = "cmake_minimum_required(VERSION 3.20)\nproject(R LANGUAGES CXX)\nfind_package(HIP)\nif(HIP_FOUND)\n  project(R LANGUAGES HIP)\nelse()\n  project(R LANGUAGES CUDA)\nendif()\nif(USE_HIP)\n  add_library(HipK hip/k.hip)\nelseif(WITH_CUDA)\n  add_library(CudaK cuda/k.cu)\n  set_target_properties(CudaK PROPERTIES CUDA_ARCHITECTURES \"70;75\")\nelse()\n  target_link_libraries(x cublas)\nendif()\nif(NOT USE_ROCM AND WITH_CUDA)\n  set(CMAKE_CUDA_ARCHITECTURES 70)\nelse()\n  add_library(HipL hip/l.hip)\nendif()\n";
        let (out, diags) = run(src, &opts());
        assert_eq!(out, src);
        let lines: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B007" && d.message.contains("own HIP path"))
            .map(|d| d.line)
            .collect();
        assert_eq!(lines, [7, 12, 18], "{diags:#?}");
        assert_eq!(diags.len(), 3, "{diags:#?}");
        // Outside such a branch the CUDA build is ported; a condition with OR is not read.
        let src = "project(R LANGUAGES CXX CUDA)\nif(USE_HIP OR X)\nelse()\n  add_library(CudaK cuda/k.cu)\nendif()\nadd_library(HipK hip/k.hip)\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.starts_with("project(R LANGUAGES CXX)\nset(GPU_TARGETS"),
            "{out}"
        );
        assert!(out.contains("_hipport_hip_enabled GREATER -1"), "{out}");
        assert_eq!(run(&out, &opts()).0, out);
        // Source paths in a branch left alone follow the renames.
        let mut o = opts();
        o.renamed.insert("cuda/k.cu".into(), "cuda/k.hip".into());
        let src = "if(USE_HIP)\nelse()\n  project(R LANGUAGES CUDA)\n  add_library(CudaK cuda/k.cu)\nendif()\n";
        assert_eq!(run(src, &o).0, src.replace("k.cu", "k.hip"));
        // A file whose only GPU sources are its own `.hip` ones gets nothing appended.
        let src = "project(R LANGUAGES CXX)\nadd_library(HipK hip/k.hip)\n";
        assert_eq!(run(src, &opts()).0, src);
    }

    /// R22-h: a source path built with a variable follows the rename of the files it matches;
    /// one that matches no renamed file gets a warning.
    #[test]
    fn source_paths_built_with_variables_follow_the_renames() {
        let mut o = opts();
        o.renamed
            .insert("kernels/hist_16.cu".into(), "kernels/hist_16.hip".into());
        let src = "project(p LANGUAGES CXX CUDA)\nfunction(add_hist n)\n  add_library(h${n} OBJECT kernels/hist${n}.cu ${CMAKE_CURRENT_SOURCE_DIR}/kernels/hist${n}.cu)\n  add_library(o${n} OBJECT other/k${n}.cu)\nendfunction()\n";
        let (out, diags) = run(src, &o);
        assert!(
            out.contains("add_library(h${n} OBJECT kernels/hist${n}.hip ${CMAKE_CURRENT_SOURCE_DIR}/kernels/hist${n}.hip)"),
            "{out}"
        );
        assert!(
            out.contains("add_library(o${n} OBJECT other/k${n}.cu)"),
            "{out}"
        );
        let warned: Vec<_> = diags.iter().filter(|d| d.id == "B010").collect();
        assert_eq!(warned.len(), 1, "{diags:#?}");
        assert_eq!(warned[0].line, 4);
        assert!(warned[0].message.contains("other/k${n}.cu"), "{diags:#?}");
        assert_eq!(run(&out, &o).0, out);
    }

    #[test]
    fn sources_of_included_files_and_moved_directories() {
        let mut o = opts();
        for (a, b) in [
            ("src/j.cu", "src/j.hip"),
            ("src/k.cu", "src/k.hip"),
            ("csrc/cuda/m.cu", "csrc/hip/m.hip"),
        ] {
            o.renamed.insert(a.into(), b.into());
        }
        // An include()d file: relative paths resolve against the including directory.
        let src = "set(KSRC\n  ${CMAKE_CURRENT_LIST_DIR}/../src/k.cu\n  src/j.cu\n  src/gone.cu)\n";
        let (mut edits, diags) =
            translate_build(BuildKind::CMake, src.as_bytes(), "cmake/sources.cmake", &o);
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
        assert_eq!(
            out,
            "set(KSRC\n  ${CMAKE_CURRENT_LIST_DIR}/../src/k.hip\n  src/j.hip\n  src/gone.cu)\n"
        );
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B010" && d.line == 4 && d.message.contains("did not find")),
            "{diags:#?}"
        );
        // A subdirectory naming a source from the top; a glob over a moved directory.
        let src = "add_library(l ${CMAKE_SOURCE_DIR}/src/k.cu ../src/j.cu)\nfile(GLOB M ${CMAKE_CURRENT_SOURCE_DIR}/../csrc/cuda/*.cu)\n";
        let (mut edits, _) =
            translate_build(BuildKind::CMake, src.as_bytes(), "lib/CMakeLists.txt", &o);
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
        assert!(
            out.starts_with("add_library(l ${CMAKE_SOURCE_DIR}/src/k.hip ../src/j.hip)\nfile(GLOB M ${CMAKE_CURRENT_SOURCE_DIR}/../csrc/hip/*.hip)\n"),
            "{out}"
        );
    }

    #[test]
    fn findcuda_projects() {
        let src = "cmake_minimum_required(VERSION 3.10)\nproject(app CXX)\nfind_package(CUDA REQUIRED)\nset(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O3 -gencode arch=compute_70,code=sm_70)\ncuda_add_executable(app main.cu)\ntarget_link_libraries(app ${CUDA_LIBRARIES} ${CUDA_CUBLAS_LIBRARIES} ${CUDA_curand_LIBRARY})\ninclude_directories(${CUDA_INCLUDE_DIRS})\nstring(APPEND CMAKE_CUDA_FLAGS \" --use_fast_math\")\n";
        let (out, diags) = run(src, &opts());
        assert!(out.contains("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nfind_package(hiprand REQUIRED)\nlink_libraries(hip::device)\n"), "{out}");
        // R33-1: the dead variable's architecture flags go (GPU_TARGETS gives the targets).
        assert!(
            out.contains("set(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS} -O3)"),
            "{out}"
        );
        assert!(out.contains("\nadd_executable(app main.cu)"), "{out}");
        assert!(
            out.contains("target_link_libraries(app hip::host roc::hipblas hip::hiprand)"),
            "{out}"
        );
        assert!(
            out.contains("include_directories(${hip_INCLUDE_DIRS})"),
            "{out}"
        );
        assert!(
            out.contains("string(APPEND CMAKE_CUDA_FLAGS \" -ffast-math\")"),
            "{out}"
        );
        assert!(diags
            .iter()
            .any(|d| d.id == "B008" && d.line == 4 && d.message.contains("CUDA_NVCC_FLAGS")));
    }

    #[test]
    fn findcuda_library_variables_map_by_release() {
        // Each FindCUDA library variable (and FindCUDAToolkit's CUDA_<lib>_LIBRARY cache
        // variables) becomes the HIP target with its package; cuBLASLt's only where the target
        // HIP ships hipBLASLt (ROCm 5.5), else it stays with B005; one without a counterpart
        // (cupti) or unknown to hipport (nvcuvid) is B005 too, never dropped in silence.
        let src = "find_package(CUDA REQUIRED)\ncuda_add_executable(app main.cu)\ntarget_link_libraries(app ${CUDA_LIBRARIES} ${CUDA_CUBLAS_LIBRARIES} ${CUDA_cublasLt_LIBRARY} ${CUDA_cufft_LIBRARY} ${CUDA_curand_LIBRARY} ${CUDA_cusparse_LIBRARY} ${CUDA_cusolver_LIBRARY})\ntarget_link_libraries(app ${CUDA_cupti_LIBRARY} ${CUDA_nvcuvid_LIBRARY} ${CUDA_CUDA_LIBRARY})\n";
        let at = |major, minor| BuildOptions {
            hip_version: hipport_rules::Version::new(major, minor, 0),
            ..opts()
        };
        let (out, diags) = run(src, &at(5, 2));
        assert!(out.contains("target_link_libraries(app hip::host roc::hipblas ${CUDA_cublasLt_LIBRARY} hip::hipfft hip::hiprand roc::hipsparse roc::hipsolver)\n"), "{out}");
        assert!(out.contains("target_link_libraries(app ${CUDA_cupti_LIBRARY} ${CUDA_nvcuvid_LIBRARY} hip::amdhip64)\n"), "{out}");
        assert!(out.contains("find_package(hipblas REQUIRED)\nfind_package(hipfft REQUIRED)\nfind_package(hiprand REQUIRED)\nfind_package(hipsolver REQUIRED)\nfind_package(hipsparse REQUIRED)\n"), "{out}");
        assert!(!out.contains("hipblaslt"), "{out}");
        let b005: Vec<(usize, &str)> = diags
            .iter()
            .filter(|d| d.id == "B005")
            .map(|d| (d.line, d.message.as_str()))
            .collect();
        assert_eq!(b005.len(), 3, "{b005:?}");
        assert!(b005[0].1.contains("${CUDA_cublasLt_LIBRARY}") && b005[0].1.contains("ROCm 5.5"));
        assert!(
            b005[1].1.contains("${CUDA_cupti_LIBRARY}") && b005[1].1.contains("no HIP counterpart")
        );
        assert!(b005[2].1.contains("${CUDA_nvcuvid_LIBRARY}"));
        let (out, diags) = run(src, &at(6, 0));
        assert!(
            out.contains("roc::hipblas roc::hipblaslt hip::hipfft"),
            "{out}"
        );
        assert!(out.contains("find_package(hipblaslt REQUIRED)\n"), "{out}");
        assert_eq!(diags.iter().filter(|d| d.id == "B005").count(), 2);
        assert_eq!(run(&out, &at(6, 0)).0, out);
    }

    #[test]
    fn unmapped_targets_and_toolkit_variables_are_reported() {
        let src = "find_package(CUDAToolkit)\nadd_library(x x.cu)\ntarget_link_libraries(x CUDA::nvjpeg CUDA::cufft)\nmessage(STATUS ${CUDAToolkit_VERSION})\nset(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("target_link_libraries(x CUDA::nvjpeg hip::hipfft)"),
            "{out}"
        );
        assert!(
            out.contains("find_package(hip REQUIRED)\nfind_package(hipfft REQUIRED)\n"),
            "{out}"
        );
        assert!(diags.iter().any(|d| d.id == "B005" && d.line == 3));
        // Printed only (R22-3): no warning.
        assert!(!diags.iter().any(|d| d.id == "B008" && d.line == 4));
        assert!(diags
            .iter()
            .any(|d| d.id == "B008" && d.line == 5 && d.message.contains("CMAKE_CUDA_COMPILER")));
    }

    /// R22-4: the `-gencode` lines of a `set(CUDA_NVCC_FLAGS ...)` list go whole, leaving no
    /// line of blanks behind.
    #[test]
    fn gencode_lines_of_a_list_leave_no_blank_lines() {
        let src = "find_package(CUDA)\nset(\n\tCUDA_NVCC_FLAGS\n\t${CUDA_NVCC_FLAGS};\n\t-O3\n\t-gencode arch=compute_53,code=sm_53\n\t-gencode arch=compute_62,code=sm_62\n  -gencode arch=compute_72,code=sm_72\n)\ncuda_add_library(k SHARED k.cu)\n";
        let (out, _) = run(src, &opts());
        assert!(out.contains("\t-O3\n)\n"), "{out}");
        assert_eq!(run(&out, &opts()).0, out);
    }

    /// R22-a: TensorRT's link items (a file name, plain names) are errors naming TensorRT.
    #[test]
    fn tensorrt_link_items_are_reported() {
        let src = "project(p LANGUAGES CXX CUDA)\nadd_executable(k k.cu)\ntarget_link_libraries(k libnvinfer.so nvinfer_plugin\n  nvonnxparser)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("libnvinfer.so nvinfer_plugin\n  nvonnxparser)"),
            "{out}"
        );
        let trt: Vec<(usize, &str)> = diags
            .iter()
            .filter(|d| d.message.contains("TensorRT is NVIDIA-only"))
            .map(|d| (d.line, d.id.as_str()))
            .collect();
        assert_eq!(trt, [(3, "B005"), (3, "B005"), (4, "B005")], "{diags:#?}");
        assert!(diags
            .iter()
            .filter(|d| d.message.contains("TensorRT"))
            .all(|d| d.severity == crate::diag::Severity::Error));
    }

    #[test]
    fn plain_library_names() {
        let src = "project(p LANGUAGES CXX CUDA)\nadd_executable(p p.cu)\ntarget_link_libraries(p PRIVATE cudart cusparse m)\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.contains("target_link_libraries(p PRIVATE hip::host roc::hipsparse m)"),
            "{out}"
        );
        assert!(out.contains("find_package(hipsparse REQUIRED)"), "{out}");
    }

    #[test]
    fn plain_cmake_is_untouched() {
        let src =
            "project(p CXX)\nadd_executable(p main.cpp)\ntarget_compile_options(p PRIVATE -O2)\n";
        let (edits, diags) =
            translate_build(BuildKind::CMake, src.as_bytes(), "CMakeLists.txt", &opts());
        assert!(edits.is_empty() && diags.is_empty(), "{edits:?} {diags:?}");
    }
    #[test]
    fn flags_appended_to_lists_and_arch_flags_left_in_place() {
        use crate::diag::Severity;
        let src = "foreach(a 70 80)\n  list(APPEND NVCC_FLAGS -gencode arch=compute_${a},code=sm_${a})\n  list(APPEND GEN_FLAGS \"-gencode\")\nendforeach()\nlist(APPEND CUDA_NVCC_FLAGS -lineinfo)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("list(APPEND NVCC_FLAGS --offload-arch=gfx90a --offload-arch=gfx1100)\n"),
            "{out}"
        );
        assert!(
            out.contains("list(APPEND GEN_FLAGS \"-gencode\")\n"),
            "{out}"
        );
        // The emptied list(APPEND) goes; the variable is FindCUDA's, in a file that does not use
        // FindCUDA: a note.
        assert!(!out.contains("CUDA_NVCC_FLAGS"), "{out}");
        assert!(diags
            .iter()
            .any(|d| d.id == "B008" && d.line == 5 && d.severity == Severity::Note));
        let found: Vec<(usize, &str, Severity)> = diags
            .iter()
            .filter(|d| d.id != "B008")
            .map(|d| (d.line, d.id.as_str(), d.severity))
            .collect();
        // The loop adds the AMD targets once per iteration: they are kept once after it.
        assert!(
            out.contains("endforeach()\n# hipport: the loop added the AMD targets once per iteration.\nlist(REMOVE_ITEM NVCC_FLAGS --offload-arch=gfx90a --offload-arch=gfx1100)\nlist(APPEND NVCC_FLAGS --offload-arch=gfx90a --offload-arch=gfx1100)\n"),
            "{out}"
        );
        assert_eq!(
            found,
            [
                (1, "B009", Severity::Note),
                (2, "B009", Severity::Note),
                (3, "B009", Severity::Warning),
                (5, "B002", Severity::Note),
            ]
        );
        assert!(diags
            .iter()
            .any(|d| d.line == 3 && d.message.contains("hipcc rejects it")));
    }
    #[test]
    fn cuda_version_tests_compare_an_empty_version() {
        let src = "project(p LANGUAGES CXX CUDA)\n\
                   if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 11.8)\n  message(FATAL_ERROR \"CUDA 11.8 or newer\")\nendif()\n\
                   if(NOT \"${CUDAToolkit_VERSION}\" VERSION_GREATER_EQUAL \"12.0\")\n  message(STATUS \"old CUDA\")\nendif()\n\
                   if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER 12.0)\n  add_definitions(-DNEW_CUDA)\nelse()\n  if(WIN32)\n    message(FATAL_ERROR \"x\")\n  endif()\n  message(SEND_ERROR \"CUDA 12 needed\")\nendif()\n\
                   if(CUDA_VERSION_MAJOR LESS 11 AND NOT WIN32)\nendif()\n\
                   if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS ${MIN_CUDA})\n  message(FATAL_ERROR \"old\")\nendif()\n\
                   message(STATUS \"${CMAKE_CUDA_COMPILER_VERSION}\")\n";
        let (_, diags) = run(src, &opts());
        let found: Vec<(usize, Severity, &str)> = diags
            .iter()
            .filter(|d| d.id == "B008")
            .map(|d| (d.line, d.severity, d.message.as_str()))
            .collect();
        let expected = [
            (2, Severity::Error, "`CMAKE_CUDA_COMPILER_VERSION` is empty in a HIP build (no CUDA language or package), so it compares as version 0: `CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 11.8` is true and its branch stops the configure step (message(FATAL_ERROR) on line 3)"),
            (5, Severity::Warning, "`CUDAToolkit_VERSION` is empty in a HIP build (no CUDA language or package), so it compares as version 0: `CUDAToolkit_VERSION VERSION_GREATER_EQUAL 12.0` is false, so its branch is taken"),
            (8, Severity::Error, "`CMAKE_CUDA_COMPILER_VERSION` is empty in a HIP build (no CUDA language or package), so it compares as version 0: `CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER 12.0` is false and the else() branch stops the configure step (message(SEND_ERROR) on line 14)"),
            (16, Severity::Warning, "`CUDA_VERSION_MAJOR` is empty in a HIP build (no CUDA language or package), so it is not a number: `CUDA_VERSION_MAJOR LESS 11` is false"),
            (18, Severity::Warning, "`CMAKE_CUDA_COMPILER_VERSION` is empty in a HIP build (no CUDA language or package), so it compares as version 0 in `CMAKE_CUDA_COMPILER_VERSION VERSION_LESS ${MIN_CUDA}`"),
        ];
        assert_eq!(found, expected);
    }

    #[test]
    fn option_commands_left_without_options_go_away() {
        let src = "project(p CUDA)\nadd_executable(p k.cu)\ntarget_compile_options(p $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)\ntarget_compile_options(p PRIVATE\n  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>\n  \"$<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr>\")\nadd_compile_options($<$<COMPILE_LANGUAGE:CUDA>:-Xptxas=-v>)\ntarget_compile_options(p PUBLIC\n  $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>\n  -O2)\n";
        let (out, diags) = run(src, &opts());
        // `target_compile_options(p)` would be an error; the others would do nothing.
        assert!(
            out.contains("add_executable(p k.cu)\ntarget_compile_options(p PUBLIC\n  -O2)\n"),
            "{out}"
        );
        // Each dropped flag is still reported.
        assert_eq!(diags.iter().filter(|d| d.id == "B002").count(), 5);
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    #[test]
    fn versions_compare_as_cmake_does() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        assert_eq!(compare_versions("", "11.8"), Some(Less));
        assert_eq!(compare_versions("", "0.0"), Some(Equal));
        assert_eq!(compare_versions("12.1", "12"), Some(Greater));
        assert_eq!(compare_versions("", "${V}"), None);
        assert_eq!(empty_version_test("VERSION_LESS", "11.8", true), Some(true));
        assert_eq!(
            empty_version_test("VERSION_LESS", "11.8", false),
            Some(false)
        );
        assert_eq!(empty_version_test("VERSION_EQUAL", "0", true), Some(true));
        assert_eq!(empty_version_test("GREATER", "11", false), Some(false));
        assert_eq!(empty_version_test("STREQUAL", "11", true), None);
    }

    #[test]
    fn a_file_without_the_cuda_language_finds_the_packages_of_the_targets_it_links() {
        // A subdirectory's file: the top file has project() and add_subdirectory().
        let src = "add_library(k STATIC k.cu)\nif(WITH_BLAS)\n  foreach(t k)\n    target_link_libraries(${t} PUBLIC cublas ${CUDA_LIBRARIES})\n  endforeach()\nendif()\ntarget_link_libraries(k PUBLIC CUDA::cufft cublas)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.starts_with("add_library(k STATIC k.cu)\nfind_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nfind_package(hipfft REQUIRED)\nif(WITH_BLAS)\n"),
            "{out}"
        );
        assert!(
            out.contains("target_link_libraries(k PUBLIC hip::hipfft roc::hipblas)"),
            "{out}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B004"
                && d.line == 2
                && d.message.starts_with(
                    "find_package(hip), find_package(hipblas), find_package(hipfft) added"
                )),
            "{diags:?}"
        );
        // Idempotent: the second conversion finds nothing to add.
        assert_eq!(run(&out, &opts()).0, out);
        // A package the file already finds is not found again; nothing that needs one, nothing.
        let src = "find_package(hipblas REQUIRED)\ntarget_link_libraries(k PUBLIC cublas)\n";
        assert_eq!(
            run(src, &opts()).0,
            "find_package(hipblas REQUIRED)\ntarget_link_libraries(k PUBLIC roc::hipblas)\n"
        );
        let src = "add_library(k STATIC k.cpp)\ntarget_link_libraries(k PUBLIC m)\n";
        assert_eq!(run(src, &opts()).0, src);
    }

    /// warp-ctc: CUDA found only if present (no REQUIRED, and the file tests CUDA_FOUND) leaves
    /// a CPU-only build; HIP is then looked for the same way, never required. A file that does
    /// not test what it found, or one find that is REQUIRED, still requires HIP.
    #[test]
    fn optional_cuda_becomes_optional_hip() {
        let src = "project(ctc)\nFIND_PACKAGE(CUDA 6.5 QUIET)\noption(WITH_GPU \"gpu\" ${CUDA_FOUND})\nMESSAGE(STATUS \"flags ${CUDA_NVCC_FLAGS}\")\nset(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -O2\")\nif(WITH_GPU)\n  CUDA_ADD_LIBRARY(ctc SHARED a.cu)\n  target_link_libraries(ctc ${CUDA_curand_LIBRARY})\nelse()\n  add_library(ctc SHARED a.cpp)\nendif()\nfind_package(CUDA QUIET)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.starts_with("project(ctc)\nset(GPU_TARGETS \"gfx90a;gfx1100\" CACHE STRING \"AMD GPU targets to compile for\")\nif(CMAKE_CXX_COMPILER MATCHES \"hipcc|clang\")\n  find_package(hip QUIET)\nendif()\nif(hip_FOUND)\n  find_package(hiprand REQUIRED)\n  link_libraries(hip::device)\nelse()\n  message(STATUS \"Building without HIP: it needs the hip package and -DCMAKE_CXX_COMPILER=hipcc\")\nendif()\noption(WITH_GPU \"gpu\" ${hip_FOUND})\n"),
            "{out}"
        );
        assert!(
            out.contains("\nendif()\nif(CMAKE_CXX_COMPILER MATCHES \"hipcc|clang\")\n  find_package(hip QUIET)\nendif()\n"),
            "{out}"
        );
        assert!(
            !out.contains("REQUIRED)\nfind_package(hip") && !out.contains("FATAL_ERROR \"HIP"),
            "{out}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B007"
                && d.line == 2
                && d.message
                    .starts_with("find_package(CUDA) -> find_package(hip QUIET): optional")),
            "{diags:?}"
        );
        // Printing the flags passes them to no compiler: they are still reported as unused.
        assert!(
            diags.iter().any(|d| d.id == "B008"
                && d.message
                    .starts_with("CUDA_NVCC_FLAGS no longer reaches the compiler")),
            "{diags:?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
        for required in [
            "find_package(CUDA QUIET)\ncuda_add_library(k k.cu)\n",
            "find_package(CUDA REQUIRED)\nif(CUDA_FOUND)\n  cuda_add_library(k k.cu)\nendif()\n",
            "find_package(CUDA)\nfind_package(CUDA 11 REQUIRED)\nif(CUDA_FOUND)\n  cuda_add_library(k k.cu)\nendif()\n",
        ] {
            let out = run(required, &opts()).0;
            assert!(out.contains("find_package(hip REQUIRED)") && !out.contains("hip QUIET"), "{out}");
        }
    }

    /// R19-1 (warp-transducer), R33-1: a `CUDA_NVCC_FLAGS` nothing reads loses its
    /// architecture flags with one note (the hip package's GPU_TARGETS give the targets), and
    /// the `set()`/`list()`s left adding nothing go whole. Where the file passes it on, each
    /// list is a flag list of its own, as before.
    #[test]
    fn a_dead_nvcc_flags_variable_loses_its_architecture_flags() {
        let src = "find_package(CUDA)\nset(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -gencode arch=compute_60,code=sm_60\")\nset(CUDA_NVCC_FLAGS \"${CUDA_NVCC_FLAGS} -gencode arch=compute_70,code=sm_70 -gencode arch=compute_80,code=sm_80\")\nlist(APPEND CUDA_NVCC_FLAGS -arch=sm_86)\ncuda_add_library(k SHARED k.cu)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("link_libraries(hip::device)\nadd_library(k SHARED k.cu)\n"),
            "{out}"
        );
        assert_eq!(
            diags.iter().filter(|d| d.id == "B009").count(),
            1,
            "{diags:#?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
        let read = src.replace(
            "cuda_add_library(k SHARED k.cu)\n",
            "add_library(k SHARED k.cu)\ntarget_compile_options(k PRIVATE ${CUDA_NVCC_FLAGS})\n",
        );
        let (out, _) = run(&read, &opts());
        assert_eq!(out.matches("--offload-arch=gfx1100").count(), 3, "{out}");
    }

    /// tiny-cuda-nn: CUDA_NVCC_FLAGS passed on by the project itself still reaches hipcc (no
    /// finding); emptied list elements and lists go.
    #[test]
    fn nvcc_flags_passed_on_by_the_project_are_not_reported() {
        use crate::diag::Severity;
        let src = "project(p LANGUAGES CXX CUDA)\nlist(APPEND CUDA_NVCC_FLAGS \"-Xcompiler=-mf16c\")\nlist(APPEND CUDA_NVCC_FLAGS \"--expt-relaxed-constexpr\")\nlist(APPEND CUDA_NVCC_FLAGS \"--extended-lambda -lineinfo\" -O3 \"-lineinfo\")\nset(CUDA_NVCC_FLAGS \"--expt-relaxed-constexpr\")\nadd_library(k k.cu)\ntarget_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${CUDA_NVCC_FLAGS}>)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("link_libraries(hip::device)\nlist(APPEND CUDA_NVCC_FLAGS \"-mf16c\")\nlist(APPEND CUDA_NVCC_FLAGS -O3)\nset(CUDA_NVCC_FLAGS \"\")\nadd_library(k k.cu)\n"),
            "{out}"
        );
        assert!(!diags.iter().any(|d| d.id == "B008"), "{diags:#?}");
        assert_eq!(run(&out, &opts()).0, out);
        // A blank element was never a flag: it stays (CMake's own modules have some).
        let src = "set(CMAKE_CXX_LINKER_WRAPPER_FLAG \"-Xlinker\" \" \")\nlist(APPEND F \" \")\n";
        assert_eq!(run(src, &opts()).0, src);
        // FindCUDA's macros read it: without them, nothing does here (one warning per file).
        let src = "find_package(CUDA)\nset(CUDA_NVCC_FLAGS -O3)\nlist(APPEND CUDA_NVCC_FLAGS -g)\ncuda_add_library(k k.cu)\n";
        let (_, diags) = run(src, &opts());
        let found: Vec<_> = diags
            .iter()
            .filter(|d| d.id == "B008")
            .map(|d| (d.line, d.severity))
            .collect();
        assert_eq!(found, [(2, Severity::Warning)], "{diags:#?}");
        // A file that neither uses FindCUDA nor passes it on: a note (a subdirectory may).
        let (_, diags) = run(
            "project(p CUDA)\nlist(APPEND CUDA_NVCC_FLAGS -g)\nadd_subdirectory(src)\n",
            &opts(),
        );
        let found: Vec<_> = diags
            .iter()
            .filter(|d| d.id == "B008")
            .map(|d| (d.line, d.severity))
            .collect();
        assert_eq!(found, [(2, Severity::Note)], "{diags:#?}");
    }

    /// tiny-cuda-nn derives a minimum architecture and a source list from
    /// CMAKE_CUDA_ARCHITECTURES: the set() stays (one note), and its readers get no B008.
    #[test]
    fn architectures_the_project_reads_are_kept() {
        use crate::diag::Severity;
        let src = "project(p LANGUAGES CXX CUDA)\nif(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 75 86)\nendif()\nset(CMAKE_CUDA_ARCHITECTURES 80)\nlist(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)\nmessage(STATUS \"Targeting ${CMAKE_CUDA_ARCHITECTURES}\")\n";
        let (out, diags) = run(src, &opts());
        assert!(out.contains("  set(CMAKE_CUDA_ARCHITECTURES 75 86)\nendif()\nset(CMAKE_CUDA_ARCHITECTURES 80)\n"), "{out}");
        let arch: Vec<_> = diags
            .iter()
            .filter(|d| d.id == "B009" || d.id == "B008")
            .map(|d| (d.id.as_str(), d.line, d.severity))
            .collect();
        assert_eq!(arch, [("B009", 3, Severity::Note)], "{diags:#?}");
        assert!(
            diags.iter().any(|d| d.message.contains(
                "`list(GET CMAKE_CUDA_ARCHITECTURES 0 MIN_GPU_ARCH)` on line 6 reads it"
            )),
            "{diags:#?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
        // Guards of a default and changes are not reads: the set() goes.
        let src = "if(NOT CMAKE_CUDA_ARCHITECTURES)\n  set(CMAKE_CUDA_ARCHITECTURES 70)\nendif()\nlist(APPEND CMAKE_CUDA_ARCHITECTURES 80)\n";
        let (out, diags) = run(src, &opts());
        assert!(!out.contains("set(CMAKE_CUDA_ARCHITECTURES"), "{out}");
        assert!(diags
            .iter()
            .any(|d| d.id == "B009" && d.line == 2 && d.message.contains("removed")));
        // A guard that stops the configure without it needs it: the set() stays (verify8).
        let src = "set(CMAKE_CUDA_ARCHITECTURES 70 75)\nif(NOT CMAKE_CUDA_ARCHITECTURES)\n  message(FATAL_ERROR \"set it\")\nendif()\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("set(CMAKE_CUDA_ARCHITECTURES 70 75)\n"),
            "{out}"
        );
        assert!(
            diags
                .iter()
                .any(|d| d.message.contains("on line 2 reads it")),
            "{diags:#?}"
        );
        // A read of a variable the file does not set is still reported.
        let (_, diags) = run(
            "list(GET CMAKE_CUDA_ARCHITECTURES 0 A)\nstring(REPLACE \";\" \" \" A ${CMAKE_CUDA_ARCHITECTURES})\n",
            &opts(),
        );
        assert!(
            diags.iter().any(|d| d.id == "B008" && d.line == 2),
            "{diags:#?}"
        );
    }

    /// R22-3: what `message()` prints derives nothing: no B008 per line that prints a CUDA
    /// variable, no kept `set(CMAKE_CUDA_ARCHITECTURES)` for it (B009 removes it), and one
    /// warning for `if(NOT CMAKE_CUDA_HOST_COMPILER)` around its `set()`, the set's.
    #[test]
    fn printed_cuda_variables_and_guarded_toolchain_sets_are_quiet() {
        let src = "project(p LANGUAGES CXX CUDA)\nfind_package(CUDAToolkit REQUIRED)\n\
                   set(CMAKE_CUDA_ARCHITECTURES 70 80)\n\
                   message(STATUS \"CUDA Architectures: ${CMAKE_CUDA_ARCHITECTURES}\")\n\
                   message(STATUS \"CUDA Compiler: ${CMAKE_CUDA_COMPILER}\")\n\
                   message(STATUS \"CUDA Library Dir: ${CUDAToolkit_LIBRARY_DIR}\")\n\
                   if(NOT CMAKE_CUDA_HOST_COMPILER)\n  set(CMAKE_CUDA_HOST_COMPILER ${CMAKE_CXX_COMPILER} CACHE FILEPATH \"host\")\nendif()\n\
                   if(CMAKE_CUDA_COMPILER_ID STREQUAL \"NVIDIA\")\nendif()\n\
                   add_library(k k.cu)\n";
        let (out, diags) = run(src, &opts());
        let b008: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B008")
            .map(|d| d.line)
            .collect();
        assert_eq!(b008, [8, 10], "{diags:#?}");
        assert!(!out.contains("set(CMAKE_CUDA_ARCHITECTURES"), "{out}");
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B009" && d.line == 3 && d.message.contains("removed")),
            "{diags:#?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
    }

    #[test]
    fn a_command_the_file_ends_inside_is_left_alone() {
        let src = "project(p LANGUAGES CXX CUDA)\nadd_library(k STATIC k.cu)\nset_source_files_properties(a.cpp\n";
        let (out, diags) = run(src, &opts());
        // The language is still replaced; nothing is appended inside the open command.
        assert!(out.contains("find_package(hip REQUIRED)"), "{out}");
        assert!(!out.contains("_hipport_targets"), "{out}");
        assert!(
            out.ends_with("set_source_files_properties(a.cpp\n"),
            "{out}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B008" && d.line == 3),
            "{diags:#?}"
        );
        let (out, diags) = run(&format!("{src})\n#[[ open"), &opts());
        assert!(!out.contains("_hipport_targets"), "{out}");
        assert!(diags.iter().any(|d| d.id == "B008"), "{diags:#?}");
        // Closed, it gets one.
        let (out, _) = run(&format!("{src})\n"), &opts());
        assert!(out.contains("_hipport_targets"), "{out}");
        // Nothing is inserted after it either: it would become its arguments.
        let src = "add_library(k STATIC k.cu)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON \"-arch=sm_80)\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.ends_with("CUDA_SEPARABLE_COMPILATION ON \"-arch=sm_80)\n"),
            "{out}"
        );
        assert!(!out.contains("-fgpu-rdc"), "{out}");
    }

    #[test]
    fn a_replaced_cuda_package_takes_its_rewritten_arguments_along() {
        let src = "project(app CXX)\nfind_package(CUDA REQUIRED -gencode arch=compute_70,code=sm_70)\ncuda_add_executable(app main.cu)\n";
        let (out, _) = run(src, &opts());
        assert!(!out.contains("find_package(CUDA"), "{out}");
        assert!(!out.contains("--offload-arch"), "{out}");
        assert!(out.contains("find_package(hip REQUIRED)\n"), "{out}");
    }

    #[test]
    fn every_renamed_source_of_a_quoted_argument_follows() {
        let mut o = opts();
        for (old, new) in [("kernel.cu", "kernel.hip"), ("src/k.cu", "src/k.hip")] {
            o.renamed.insert(old.into(), new.into());
        }
        let src =
            "set(S \"kernel.cu ${CMAKE_CURRENT_SOURCE_DIR}/src/k.cu\" \"src/k.cu;kernel.cu\")\n";
        let (out, _) = run(src, &o);
        assert!(
            out.contains(
                "\"kernel.hip ${CMAKE_CURRENT_SOURCE_DIR}/src/k.hip\" \"src/k.hip;kernel.hip\""
            ),
            "{out}"
        );
    }

    #[test]
    fn a_pattern_beside_a_renamed_source_follows_the_renames() {
        let mut o = opts();
        o.renamed.insert("kernel.cu".into(), "kernel.hip".into());
        let (out, _) = run("file(GLOB S \"*.cu kernel.cu\")\n", &o);
        assert!(out.contains("\"*.hip kernel.hip\""), "{out}");
    }

    #[test]
    fn a_form_feed_is_part_of_an_argument_as_in_cmake() {
        // It ended an argument without being consumed: the lexer pushed empty arguments until
        // memory ran out.
        let cmds = commands("if(NOT DEFINED A\x0cB)\nset(CMAKE_CUDA_ARCHITECTURES\x0b 80)\n");
        assert_eq!(cmds.len(), 2);
        let texts: Vec<&str> = cmds[0].args.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(texts, ["NOT", "DEFINED", "A\x0cB"]);
        assert_eq!(cmds[1].args[0].text, "CMAKE_CUDA_ARCHITECTURES\x0b");
    }

    #[test]
    fn the_epilogue_is_there_when_its_own_command_is() {
        // A word that names one of its variables elsewhere is not the epilogue.
        let src = "find_package(CUDA _hipport_targets)\ncuda_add_executable(a a.cu)\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.contains("get_property(_hipport_targets DIRECTORY"),
            "{out}"
        );
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    #[test]
    fn property_names_come_after_the_properties_keyword() {
        let src = "add_library(k STATIC k.cu)\nset_property(TARGET(CUDA_SEPARABLE_COMPILATION ON)LANGUAGE CUDA)\nset_target_properties(LANGUAGE CUDA PROPERTIES CUDA_STANDARD 17)\n";
        let (out, _) = run(src, &opts());
        assert!(!out.contains("target_compile_options("), "{out}");
        assert!(out.contains("LANGUAGE CUDA)\n"), "{out}");
        assert!(
            out.contains("(LANGUAGE CUDA PROPERTIES CXX_STANDARD 17)"),
            "{out}"
        );
    }

    #[test]
    fn an_unwrapped_value_keeps_its_renamed_variable() {
        let src = "set(CMAKE_CUDA_FLAGS \"-Xcompiler ${CUDA_INCLUDE_DIRS} -O3\")\nlist(APPEND CUDA_NVCC_FLAGS -Xcompiler CUDA_INCLUDE_DIRS)\ntarget_compile_options(t PRIVATE \"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:-Xcompiler ${CUDA_INCLUDE_DIRS}>\" -Xcompiler -fopenmp)\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.contains("set(CMAKE_CUDA_FLAGS \"${hip_INCLUDE_DIRS} -O3\")\nlist(APPEND CUDA_NVCC_FLAGS hip_INCLUDE_DIRS)\n"),
            "{out}"
        );
        assert!(
            out.contains("\"$<$<COMPILE_LANGUAGE:CUDA>:SHELL:${hip_INCLUDE_DIRS}>\" -fopenmp)"),
            "{out}"
        );
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    #[test]
    fn rdc_options_go_to_words_that_name_targets() {
        let mut o = opts();
        o.renamed.insert("src/k.cu".into(), "src/k.hip".into());
        let src = "add_library(k STATIC k.cu)\nset_property(TARGET k ${PROJECT_NAME}_ops src/*.cu -arch=sm_80 CUDA::cublas ${CUDA_LIBRARIES} src/k.cu ${${CUDA_curand_LIBRARY}} CMAKE_CUDA_STANDARD k${CUDA_INCLUDE_DIRS} PROPERTY CUDA_SEPARABLE_COMPILATION ON)\n";
        let (out, _) = run(src, &o);
        assert!(out.contains(")\ntarget_compile_options(k PRIVATE -fgpu-rdc)\ntarget_link_options(k PUBLIC -fgpu-rdc)\ntarget_compile_options(${PROJECT_NAME}_ops PRIVATE -fgpu-rdc)\ntarget_link_options(${PROJECT_NAME}_ops PUBLIC -fgpu-rdc)\n"), "{out}");
        assert_eq!(out.matches("target_compile_options(").count(), 2, "{out}");
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    #[test]
    fn a_last_project_without_a_newline_gets_the_block_and_the_epilogue() {
        let src = "add_executable(a a.cu)\nproject(p CUDA)";
        let (out, _) = run(src, &opts());
        assert!(
            out.contains("project(p)\nset(GPU_TARGETS")
                || out.contains("project(p CXX)\nset(GPU_TARGETS"),
            "{out}"
        );
        assert!(
            out.contains("link_libraries(hip::device)\n\n# hipport"),
            "{out}"
        );
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
    }

    #[test]
    fn a_flag_rewritten_whole_takes_the_edits_inside_it_along() {
        let mut o = opts();
        o.renamed.insert("src/k.cu".into(), "src/k.hip".into());
        let src = "t(-rdc=src/k.cu \"-arch=sm_\\\"src/k.cu\" -Xcompiler=-I${CUDA_INCLUDE_DIRS})\nfile(GLOB S *.cu*.cu)\n";
        let (out, _) = run(src, &o);
        assert!(out.contains("-I${hip_INCLUDE_DIRS})"), "{out}");
        assert!(out.contains("file(GLOB S *.hip*.hip)"), "{out}");
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    #[test]
    fn a_hip_test_and_options_ending_the_file_stay_as_the_next_run_reads_them() {
        let src =
            "if(${CUDA_CUBLAS_LIBRARIES}HIP)\nelse()\n  target_link_libraries(k cublas)\nendif()\n";
        let (out, _) = run(src, &opts());
        assert_eq!(out, src);
        let src = "add_library(k k.cu)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)";
        let (out, _) = run(src, &opts());
        assert!(
            out.contains("ON)\ntarget_compile_options(k PRIVATE -fgpu-rdc)\ntarget_link_options(k PUBLIC -fgpu-rdc)\n\n# hipport"),
            "{out}"
        );
        let (again, _) = run(&out, &opts());
        assert_eq!(again, out);
        let src = "add_library(k k.cu)\nset_property(TARGET(PROPERTIES LANGUAGE CUDA)CUDA_SEPARABLE_COMPILATION ON)\n";
        let (out, _) = run(src, &opts());
        assert!(out.contains("(PROPERTIES LANGUAGE CUDA)CUDA_SEP"), "{out}");
    }

    #[test]
    fn overlapping_removals_remove_what_they_cover_together() {
        let src = "target_compile_options(t PRIVATE -O2 -expt-relaxed-constexpr $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)\n";
        let (out, _) = run(src, &opts());
        assert_eq!(out, "target_compile_options(t PRIVATE -O2)\n");
        // All of them removed, the command goes.
        let (out, _) = run(&src.replace(" -O2", ""), &opts());
        assert_eq!(out, "");
    }

    #[test]
    fn a_quoted_part_of_an_unquoted_argument_is_in_it() {
        let cmds = commands(
            "add_definitions(-DMSG=\"a b\" x)\nset(F a\"${F} -lineinfo -Xcompiler -Wall\")\n",
        );
        let texts: Vec<&str> = cmds[0].args.iter().map(|a| a.text.as_str()).collect();
        assert_eq!(texts, ["-DMSG=\"a b\"", "x"]);
        assert_eq!(cmds[1].args.len(), 2);
    }

    /// Runs the conversion twice: the first output and its diagnostics, after checking that
    /// the second run changes nothing.
    fn run_fixed(src: &str, opts: &BuildOptions) -> (String, Vec<crate::diag::Diagnostic>) {
        let (out, diags) = run(src, opts);
        let (again, _) = run(&out, opts);
        assert_eq!(again, out, "not a fixed point: {src:?}");
        (out, diags)
    }

    #[test]
    fn a_flag_list_reaching_a_word_with_a_quote_is_left_with_a_warning() {
        let src = "target_compile_options(k PRIVATE -lineinfo -Xcompiler -DMSG=\"a b\")
target_compile_options(k PRIVATE -lineinfo -DMSG=\"a b\")
";
        let (out, diags) = run_fixed(src, &opts());
        // The first list is left whole (its -Xcompiler takes the quoted word along); the
        // second, whose quoted word is not changed, loses -lineinfo.
        assert_eq!(
            out,
            "target_compile_options(k PRIVATE -lineinfo -Xcompiler -DMSG=\"a b\")
target_compile_options(k PRIVATE -DMSG=\"a b\")
"
        );
        let left: Vec<_> = diags.iter().filter(|d| d.id == "B003").collect();
        assert_eq!(left.len(), 1, "{diags:?}");
        assert_eq!(left[0].line, 1);
        assert!(
            left[0].message.contains("`-DMSG=\"a b\"` holds a quote"),
            "{}",
            left[0].message
        );
    }

    #[test]
    fn an_unwrapped_xcompiler_value_keeps_what_was_rewritten_in_it() {
        let src = "project(p CXX CUDA)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -Xcompiler=-I${CUDA_INCLUDE_DIRS},-fPIC\")\nlist(APPEND CUDA_NVCC_FLAGS -Xcompiler=CUDA::cublas)\n";
        let (out, diags) = run_fixed(src, &opts());
        assert!(
            out.contains(
                "set(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -I${hip_INCLUDE_DIRS} -fPIC\")\n"
            ),
            "{out}"
        );
        // The target mapped in the value is found, as where it is written alone.
        assert!(
            out.contains("list(APPEND CUDA_NVCC_FLAGS roc::hipblas)\n"),
            "{out}"
        );
        assert!(out.contains("find_package(hipblas REQUIRED)"), "{out}");
        assert!(
            diags.iter().any(|d| d.id == "B004" && d.line == 3),
            "{diags:?}"
        );
    }

    #[test]
    fn property_targets_are_names_not_flags() {
        let src = "add_library(k STATIC k.cu)\nset_property(TARGET -Xcompiler=k PROPERTY CUDA_SEPARABLE_COMPILATION ON)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n";
        let (out, _) = run_fixed(src, &opts());
        assert!(
            out.contains("set_property(TARGET -Xcompiler=k PROPERTY CUDA_SEPARABLE_COMPILATION ON)\nset_target_properties(k PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\ntarget_compile_options(k PRIVATE -fgpu-rdc)\n"),
            "{out}"
        );
    }

    #[test]
    fn the_cxx_standard_is_looked_for_in_the_converted_file() {
        // A mention that the conversion replaces does not keep the CUDA standard's name.
        let src = "set(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_FLAGS \"-arch=sm_70 -DSTD=CMAKE_CXX_STANDARD\")\n";
        let (out, _) = run_fixed(src, &opts());
        assert!(out.starts_with("set(CMAKE_CUDA_STANDARD 17)\n"), "{out}");
        let src = "set(CMAKE_CUDA_STANDARD 17)\nset(CMAKE_CUDA_FLAGS \"-gencode=arch=compute_70,code=CMAKE_CXX_STANDARD\")\n";
        let (out, _) = run_fixed(src, &opts());
        assert!(out.starts_with("set(CMAKE_CXX_STANDARD 17)\n"), "{out}");
    }

    #[test]
    fn a_stray_word_and_another_end_the_commands_of_their_line() {
        let cmds = commands("Y set(A)\nset(B)\nY $ set(C)\n");
        let names: Vec<&str> = cmds.iter().map(|c| c.args[0].text.as_str()).collect();
        assert_eq!(names, ["B", "C"]);
    }

    #[test]
    fn every_renamed_source_of_a_list_item_is_renamed() {
        let mut o = opts();
        o.renamed.insert("src/k.cu".into(), "src/k.hip".into());
        o.renamed.insert("kernel.cu".into(), "kernel.hip".into());
        let (out, _) = run_fixed("add_library(k src/k.cu\"kernel.cu\")\n", &o);
        assert!(
            out.starts_with("add_library(k src/k.hip\"kernel.hip\")\n"),
            "{out}"
        );
    }

    /// libSGM: FindCUDA takes `STATIC`/`SHARED` (and `EXCLUDE_FROM_ALL`, `WIN32`, ...) anywhere
    /// among the sources; `add_library()` reads them only right after the name (J-a). Its
    /// `OPTIONS`, nvcc's for the CUDA sources, become that target's CUDA-only options.
    #[test]
    fn findcuda_target_keywords_move_after_the_name_and_options_become_cuda_options() {
        let src = "find_package(CUDA REQUIRED)\nCUDA_ADD_LIBRARY(sgm stereo_sgm.cpp ${STEREOSRCS} STATIC)\ncuda_add_library(dyn a.cu SHARED EXCLUDE_FROM_ALL)\ncuda_add_executable(app WIN32 main.cu MACOSX_BUNDLE)\n  cuda_add_library(k k.cu OPTIONS -Xcompiler -fopenmp DEBUG -G RELEASE -DFAST STATIC) # k\ncuda_add_library(q q.cu OPTIONS \"-O3 -g\")\n";
        let (out, diags) = run(src, &opts());
        for line in [
            "\nadd_library(sgm STATIC stereo_sgm.cpp ${STEREOSRCS})\n",
            "\nadd_library(dyn SHARED EXCLUDE_FROM_ALL a.cu)\n",
            "\nadd_executable(app MACOSX_BUNDLE WIN32 main.cu)\n",
            "\n  add_library(k STATIC k.cu)\n  target_compile_options(k PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-fopenmp> $<$<COMPILE_LANGUAGE:CUDA>:$<$<CONFIG:DEBUG>:-g>> $<$<COMPILE_LANGUAGE:CUDA>:$<$<CONFIG:RELEASE>:-DFAST>>) # k\n",
            // Quoted options with blanks are left, said so.
            "\nadd_library(q q.cu OPTIONS \"-O3 -g\")\n",
        ] {
            assert!(out.contains(line), "{line:?} in\n{out}");
        }
        assert!(
            diags.iter().any(|d| d.id == "B007"
                && d.line == 2
                && d.message
                    .starts_with("STATIC moved right after the target name")),
            "{diags:?}"
        );
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B008" && d.line == 6 && d.message.contains("OPTIONS")),
            "{diags:?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
    }

    /// thundersvm: a subdirectory uses `cuda_add_library()` only under `if (USE_CUDA)`; the
    /// compiler check and `find_package(hip REQUIRED)` go under that condition too, so that the
    /// CPU configuration (`-DUSE_CUDA=OFF`, g++) still configures (J-p).
    #[test]
    fn findcuda_targets_under_one_condition_get_the_hip_block_there() {
        let src = "file(GLOB SRC *.c*)\nif (USE_CUDA)\n    if (SHARED)\n        cuda_add_library(a SHARED ${SRC})\n    endif()\n    cuda_add_library(b ${SRC})\nelse ()\n    add_library(a SHARED cpu.cpp)\nendif ()\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.starts_with("file(GLOB SRC *.c*)\nif (USE_CUDA)\n    set(GPU_TARGETS \"gfx90a;gfx1100\" CACHE STRING \"AMD GPU targets to compile for\")\n    if(NOT CMAKE_CXX_COMPILER MATCHES \"hipcc|clang\")\n      message(FATAL_ERROR \"HIP sources compile as CXX: configure with -DCMAKE_CXX_COMPILER=hipcc\")\n    endif()\n    find_package(hip REQUIRED)\n    link_libraries(hip::device)\n    if (SHARED)\n"),
            "{out}"
        );
        assert_eq!(run(&out, &opts()).0, out);
        // A loop in the branch: the block goes before it.
        let (out, _) = run("if(A)\n  foreach(t a b)\n    cuda_add_library(${t} ${t}.cu)\n  endforeach()\nendif()\n", &opts());
        assert!(out.starts_with("if(A)\n  set(GPU_TARGETS"), "{out}");
        // The else branch's own target.
        let (out, _) = run(
            "if(NOT USE_CPU)\nelse()\ncuda_add_library(b b.cu)\nendif()\n",
            &opts(),
        );
        assert!(
            out.starts_with("if(NOT USE_CPU)\nelse()\nset(GPU_TARGETS"),
            "{out}"
        );
        // No branch holds them all (or one is in a loop, or a CUDA library is linked outside
        // it): the block opens the file, as before.
        for src in [
            "if(A)\n  cuda_add_library(a a.cu)\nendif()\nif(A)\n  cuda_add_library(b b.cu)\nendif()\n",
            "if(A)\n  cuda_add_library(a a.cu)\nendif()\ncuda_add_library(b b.cu)\n",
            "foreach(t a b)\n  if(A)\n    cuda_add_library(${t} ${t}.cu)\n  endif()\nendforeach()\n",
            "if(A)\n  cuda_add_library(a a.cu)\nendif()\ntarget_link_libraries(a ${CUDA_CUBLAS_LIBRARIES})\n",
        ] {
            let out = run(src, &opts()).0;
            assert!(out.starts_with("set(GPU_TARGETS"), "{out}");
        }
    }

    /// thundersvm with `--rename hip`: `file(GLOB_RECURSE SRC *.c*)` matched the `.cu` kernels
    /// and not the `.hip` ones they became; the pattern for the new extension is added beside it,
    /// with a warning, never silently lost (J-q).
    #[test]
    fn globs_that_lose_renamed_sources_get_a_pattern_for_the_new_extension() {
        let mut o = opts();
        o.renamed
            .insert("kernel/k.cu".into(), "kernel/k.hip".into());
        o.renamed.insert("src/s.cu".into(), "src/s.hip".into());
        let cases = [
            ("file(GLOB_RECURSE SRC *.c*)\n", "file(GLOB_RECURSE SRC *.c* *.hip)\n"),
            (
                "file(GLOB SRC CONFIGURE_DEPENDS \"${CMAKE_CURRENT_SOURCE_DIR}/src/*.c?\")\n",
                "file(GLOB SRC CONFIGURE_DEPENDS \"${CMAKE_CURRENT_SOURCE_DIR}/src/*.c?\" \"${CMAKE_CURRENT_SOURCE_DIR}/src/*.hip\")\n",
            ),
            (
                "file(GLOB_RECURSE K RELATIVE ${X} kernel/k*)\n",
                "file(GLOB_RECURSE K RELATIVE ${X} kernel/k*)\n",
            ),
            // Not where a renamed source was.
            ("file(GLOB SRC lib/*.c*)\n", "file(GLOB SRC lib/*.c*)\n"),
            // Already selects the new names.
            ("file(GLOB_RECURSE SRC *.c* *.hip)\n", "file(GLOB_RECURSE SRC *.c* *.hip)\n"),
            // Names the old extension: renamed in place.
            ("file(GLOB SRC src/*.cu)\n", "file(GLOB SRC src/*.hip)\n"),
            // Several patterns in one argument: the warning alone.
            ("file(GLOB SRC \"*.cpp;src/*.c*\")\n", "file(GLOB SRC \"*.cpp;src/*.c*\")\n"),
        ];
        for (src, want) in cases {
            let (out, diags) = run(src, &o);
            assert_eq!(out, want, "{src}");
            assert_eq!(run(&out, &o).0, out);
            let warned = diags
                .iter()
                .any(|d| d.id == "B010" && d.message.contains("no longer does"));
            let lost = src.contains("SRC *.c*)") || src.contains(".c?") || src.contains(";");
            assert_eq!(warned, lost, "{src}: {diags:?}");
        }
    }

    /// CudaSift: one list string holds several nvcc flags; each element is mapped on its own,
    /// the arch flag becoming two elements, and the host flags kept (J-e).
    #[test]
    fn list_strings_of_nvcc_flags_are_mapped_element_by_element() {
        let src = "list(APPEND CUDA_NVCC_FLAGS \"-arch=sm_35;--compiler-options;-O2;-DVERBOSE\")\nlist(APPEND CUDA_NVCC_FLAGS \"-lineinfo;-Xptxas;-v\")\nset(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-lineinfo;-O3)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -lineinfo -O3\")\n";
        let (out, diags) = run(src, &opts());
        assert_eq!(
            out,
            "list(APPEND CUDA_NVCC_FLAGS \"--offload-arch=gfx90a;--offload-arch=gfx1100;-O2;-DVERBOSE\")\nset(CUDA_NVCC_FLAGS ${CUDA_NVCC_FLAGS};-O3)\nset(CMAKE_CUDA_FLAGS \"${CMAKE_CUDA_FLAGS} -O3\")\n"
        );
        assert!(
            diags.iter().any(|d| d.id == "B009"
                && d.message
                    .starts_with("nvcc architecture flag `-arch=sm_35` ->")),
            "{diags:?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
    }

    fn at_hip(major: u16, minor: u16) -> BuildOptions {
        BuildOptions {
            hip_version: hipport_rules::Version::new(major, minor, 0),
            ..opts()
        }
    }

    /// NVRTC links hipRTC: before HIP 6.0 its functions are in libamdhip64 (`hip::host`); from
    /// 6.0 on it is libhiprtc with a package of its own, and HIP 7.0 removed the functions from
    /// libamdhip64, so `hip::host` left `hiprtc*` undefined there (L-c, N-a).
    #[test]
    fn nvrtc_becomes_hiprtc_from_hip_6() {
        let src = "cmake_minimum_required(VERSION 3.18)\nproject(rtc LANGUAGES CXX)\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(rtc main.cpp)\ntarget_link_libraries(rtc PRIVATE CUDA::nvrtc CUDA::cuda_driver nvrtc)\n";
        let (out, diags) = run(src, &at_hip(5, 2));
        assert!(
            out.contains("target_link_libraries(rtc PRIVATE hip::host hip::amdhip64 hip::host)"),
            "{out}"
        );
        assert!(!out.contains("hiprtc"), "{out}");
        let note = diags
            .iter()
            .find(|d| d.message == "CUDA::nvrtc -> hip::host")
            .expect("the CUDA::nvrtc note");
        assert!(note.help.as_deref().unwrap_or("").contains("libamdhip64"));
        for (major, minor) in [(6, 0), (6, 2), (7, 0)] {
            let (out, diags) = run(src, &at_hip(major, minor));
            assert!(
                out.contains("find_package(hip REQUIRED)\nfind_package(hiprtc REQUIRED)\n"),
                "{out}"
            );
            assert!(
                out.contains("PRIVATE hiprtc::hiprtc hip::amdhip64 hiprtc::hiprtc)"),
                "{out}"
            );
            assert!(
                diags
                    .iter()
                    .any(|d| d.message == "CUDA::nvrtc -> hiprtc::hiprtc"),
                "{diags:#?}"
            );
            assert_eq!(run(&out, &at_hip(major, minor)).0, out);
        }
        // FindCUDAToolkit's library variable too.
        let src = "project(p LANGUAGES CXX CUDA)\nadd_library(k k.cu)\ntarget_link_libraries(k ${CUDA_nvrtc_LIBRARY})\n";
        let (out, _) = run(src, &at_hip(7, 0));
        assert!(
            out.contains("target_link_libraries(k hiprtc::hiprtc)"),
            "{out}"
        );
        assert!(out.contains("find_package(hiprtc REQUIRED)"), "{out}");
    }

    /// `find_library()` of a CUDA library (xmrig-cuda's `find_library(CUDA_LIB cuda ...)`, L-d)
    /// looks for the HIP library instead: it was NOTFOUND on ROCm and stopped the configure
    /// step. A library without a HIP counterpart is an error.
    #[test]
    fn find_library_of_cuda_libraries_finds_the_hip_ones() {
        let src = "project(dr LANGUAGES CXX CUDA)\nfind_library(CUDA_LIB cuda HINTS /usr/local/cuda/lib64/stubs)\nfind_library(CUDA_NVRTC_LIB nvrtc HINTS /usr/local/cuda/lib64)\nfind_library(BLAS NAMES cublas \"cudart\" foo PATHS /x)\nfind_library(ML nvidia-ml)\nfind_library(Z z)\nadd_library(dr SHARED k.cu)\ntarget_link_libraries(dr PRIVATE ${CUDA_LIB} ${CUDA_NVRTC_LIB} ${BLAS})\n";
        let (out, diags) = run(src, &at_hip(5, 2));
        for line in [
            "find_library(CUDA_LIB amdhip64 HINTS /usr/local/cuda/lib64/stubs)\n",
            "find_library(CUDA_NVRTC_LIB amdhip64 HINTS /usr/local/cuda/lib64)\n",
            "find_library(BLAS NAMES hipblas \"amdhip64\" foo PATHS /x)\n",
            "find_library(ML nvidia-ml)\n",
            "find_library(Z z)\n",
        ] {
            assert!(out.contains(line), "{line}{out}");
        }
        assert!(
            diags.iter().any(|d| d.id == "B005"
                && d.line == 5
                && d.message.contains("ML is NOTFOUND on ROCm")),
            "{diags:#?}"
        );
        assert_eq!(
            diags
                .iter()
                .filter(|d| d.id == "B004" && d.message.starts_with("find_library("))
                .count(),
            4,
            "{diags:#?}"
        );
        let (out, _) = run(src, &at_hip(6, 2));
        assert!(
            out.contains("find_library(CUDA_NVRTC_LIB hiprtc HINTS /usr/local/cuda/lib64)\n"),
            "{out}"
        );
        assert_eq!(run(&out, &at_hip(6, 2)).0, out);
    }

    /// NVIDIA's CCCL package and targets (isoext's `CCCL::CCCL`, N-g) become ROCm's rocThrust and
    /// hipCUB; a download of nvidia/cccl is reported, and libcu++ has no counterpart.
    #[test]
    fn cccl_becomes_rocthrust_and_hipcub() {
        let src = "project(t LANGUAGES CXX CUDA)\nfind_package(CCCL CONFIG REQUIRED)\nadd_library(t SHARED k.cu)\ntarget_link_libraries(t PRIVATE CCCL::CCCL)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("find_package(rocthrust CONFIG REQUIRED)\nfind_package(hipcub CONFIG REQUIRED)\nadd_library(t SHARED k.cu)\ntarget_link_libraries(t PRIVATE roc::rocthrust hip::hipcub)\n"),
            "{out}"
        );
        // Found once, where the package was.
        assert_eq!(out.matches("find_package(rocthrust").count(), 1, "{out}");
        assert!(
            diags
                .iter()
                .any(|d| d.message
                    == "CCCL::CCCL -> roc::rocthrust hip::hipcub: ROCm's Thrust and CUB"),
            "{diags:#?}"
        );
        assert_eq!(run(&out, &opts()).0, out);
        let src = "project(t LANGUAGES CXX CUDA)\nCPMAddPackage(NAME CCCL GITHUB_REPOSITORY nvidia/cccl GIT_TAG v2.6.1)\nadd_library(t SHARED k.cu)\ntarget_link_libraries(t PRIVATE $<BUILD_INTERFACE:CCCL::CCCL> CCCL::Thrust CCCL::CUB CCCL::libcudacxx)\n";
        let (out, diags) = run(src, &opts());
        assert!(
            out.contains("target_link_libraries(t PRIVATE $<BUILD_INTERFACE:roc::rocthrust> roc::rocthrust hip::hipcub CCCL::libcudacxx)\n"),
            "{out}"
        );
        assert!(
            out.contains("find_package(hipcub REQUIRED)\nfind_package(rocthrust REQUIRED)\n"),
            "{out}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B008"
                && d.line == 2
                && d.message
                    .starts_with("CPMAddPackage() downloads NVIDIA's CCCL")),
            "{diags:#?}"
        );
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B005" && d.message.starts_with("CCCL::libcudacxx")),
            "{diags:#?}"
        );
    }

    /// A source behind a generator expression (N-e) follows its rename, and the appended code
    /// reads the path inside the expression.
    #[test]
    fn sources_behind_generator_expressions_follow_renames() {
        let mut o = opts();
        o.renamed.insert("k.cu".into(), "k.hip".into());
        o.renamed.insert("src/a.cu".into(), "src/a.hip".into());
        let src = "project(g LANGUAGES CXX CUDA)\nadd_library(g host.cpp $<$<BOOL:${GPU}>:k.cu> \"$<$<BOOL:${GPU}>:src/a.cu;k.cu>\")\n";
        let (out, _) = run(src, &o);
        assert!(
            out.contains("add_library(g host.cpp $<$<BOOL:${GPU}>:k.hip> \"$<$<BOOL:${GPU}>:src/a.hip;k.hip>\")\n"),
            "{out}"
        );
        assert!(
            out.contains("MATCHES \"(^|[:,])(([A-Za-z]:)?[^:,<>]*\\\\.(hip|cu))>*$\")"),
            "{out}"
        );
        assert_eq!(run(&out, &o).0, out);
    }

    /// A file that compiles no CUDA code (a host program linking `CUDA::cudart`, S2) gets
    /// `find_package(hip)` and its libraries alone: no compiler check, GPU_TARGETS,
    /// `hip::device` or code appended for HIP sources.
    #[test]
    fn host_only_files_get_find_package_hip_alone() {
        let src = "cmake_minimum_required(VERSION 3.18)\nproject(hostonly LANGUAGES CXX)\nfind_package(CUDAToolkit REQUIRED)\nadd_executable(hostonly main.cpp)\ntarget_link_libraries(hostonly PRIVATE CUDA::cudart CUDA::cublas)\n";
        let (out, _) = run(src, &opts());
        assert_eq!(
            out,
            "cmake_minimum_required(VERSION 3.18)\nproject(hostonly LANGUAGES CXX)\nset(GPU_TARGETS \"gfx90a;gfx1100\" CACHE STRING \"AMD GPU targets to compile for\")\nfind_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\nadd_executable(hostonly main.cpp)\ntarget_link_libraries(hostonly PRIVATE hip::host roc::hipblas)\n"
        );
        assert_eq!(run(&out, &opts()).0, out);
        // Optional, as CUDA was.
        let src = "project(h LANGUAGES CXX)\nfind_package(CUDAToolkit)\nadd_executable(h main.cpp)\nif(CUDAToolkit_FOUND)\n  target_link_libraries(h CUDA::cublas)\nendif()\n";
        let (out, _) = run(src, &opts());
        assert!(
            out.starts_with("project(h LANGUAGES CXX)\nset(GPU_TARGETS \"gfx90a;gfx1100\" CACHE STRING \"AMD GPU targets to compile for\")\nfind_package(hip QUIET)\nif(hip_FOUND)\n  find_package(hipblas REQUIRED)\nendif()\nadd_executable(h main.cpp)\nif(hip_FOUND)\n"),
            "{out}"
        );
        assert!(!out.contains("_hipport"), "{out}");
        // A .cu source, a CUDA language or CUDA flags keep the whole block.
        for extra in [
            "add_library(k k.cu)\n",
            "set(CMAKE_CUDA_FLAGS -O3)\n",
            "enable_language(CUDA)\n",
            "add_subdirectory(sub)\n",
        ] {
            let (out, _) = run(&format!("{src}{extra}"), &opts());
            assert!(
                out.contains("link_libraries(hip::device)"),
                "{extra}: {out}"
            );
        }
    }
}
