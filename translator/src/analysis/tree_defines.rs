//! Whether anything besides a file may define a macro the file defines only where hipcc skips
//! (DeepSpeed's `#if __CUDA_ARCH__ >= 530` / `#define PTX_AVAILABLE`): another file of the input
//! tree, in a branch hipcc may compile (a `.cu` that writes `#define PTX_AVAILABLE` before its
//! include of the header), or a build file of the tree (`nvcc -DPTX_AVAILABLE` in a Makefile,
//! `add_definitions(-DPTX_AVAILABLE)`, `define_macros=[("PTX_AVAILABLE", None)]`). Only where
//! nothing can is the name undefined under hipcc, and code under `#ifdef` of it a branch hipcc
//! never compiles (verify12 REG-1, REG-2).
//!
//! The tree is walked once per run, at the first question, and only the files whose text
//! `#define`s a name asked about are parsed, each judged as [`HipccView`] judges branches.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::{Define, HipccView};

/// Source files of a tree read at most: past this the tree is not known, and every name may
/// be defined.
const MAX_FILES: usize = 50_000;

/// Files larger than this are not read (a name one of them defines is taken as defined).
const MAX_FILE_BYTES: u64 = 4 << 20;

/// Build-file text read at most, all files together.
const MAX_BUILD_BYTES: usize = 32 << 20;

/// The extensions of the sources whose `#define`s count.
const SOURCE_EXTENSIONS: &[&str] = &[
    "cu", "cuh", "h", "hh", "hpp", "hxx", "c", "cc", "cpp", "cxx", "inl", "cuinl", "tcc", "inc",
    "ipp",
];

/// Files that pass compiler flags besides those [`crate::buildfiles::classify`] knows: shell
/// scripts, Bazel's, SCons'.
fn other_build_file(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".sh", ".bzl", ".bazel", ".cfg"]
        .iter()
        .any(|e| lower.ends_with(e))
        || matches!(
            name,
            "BUILD" | "SConstruct" | "SConscript" | "configure" | "configure.ac" | "build"
        )
}

/// The tree's `#define`d names and build text, read once.
struct Scan {
    /// Name -> the sources whose text `#define`s it.
    sources: HashMap<String, Vec<PathBuf>>,
    /// The text of the tree's build files, one after the other.
    build_text: Vec<u8>,
    /// Whether the whole tree was read (no limit reached).
    complete: bool,
}

/// What the input tree and its build files define, asked name by name (see the module's text).
pub struct TreeDefines {
    root: PathBuf,
    /// The command line's `-D`/`-U` (with what the project's `setup.py` implies).
    defines: Vec<Define>,
    budget: Duration,
    scan: OnceLock<Scan>,
    memo: Mutex<HashMap<String, bool>>,
}

impl TreeDefines {
    /// The tree under `root`, judged with the build's `defines`.
    pub fn new(root: PathBuf, defines: Vec<Define>, budget: Duration) -> TreeDefines {
        TreeDefines {
            root,
            defines,
            budget,
            scan: OnceLock::new(),
            memo: Mutex::new(HashMap::new()),
        }
    }

    /// Whether something may define `name` where hipcc compiles: the command line (`-D`), a
    /// build file of the tree that names it (read literally: `-DNAME`, or the name as a word,
    /// as CMake's `target_compile_definitions(t PRIVATE NAME)` and setup.py's `define_macros`
    /// write it), or a source of the tree with a `#define` of it that hipcc compiles or may
    /// compile (under a condition undecided for hipcc, or none). True also where the tree
    /// could not be read in full.
    pub fn may_define(&self, name: &str) -> bool {
        if self.defines.iter().any(|d| d.name == name && !d.undefined) {
            return true;
        }
        if let Some(&known) = self
            .memo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
        {
            return known;
        }
        let scan = self.scan.get_or_init(|| scan(&self.root));
        let found = !scan.complete
            || names_word(&scan.build_text, name)
            || scan
                .sources
                .get(name)
                .is_some_and(|files| files.iter().any(|f| self.defines_live(f, name)));
        self.memo
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(name.to_string(), found);
        found
    }

    /// Whether the source at `path` has a definition of `name` that hipcc may compile, with HIP's
    /// headers before ROCm 6.0 (which define `__HIP_PLATFORM_HCC__`) or after.
    fn defines_live(&self, path: &std::path::Path, name: &str) -> bool {
        let Ok(text) = std::fs::read(path) else {
            return true;
        };
        let Ok(tree) = crate::parse::parse(&text, self.budget) else {
            return true;
        };
        [
            hipport_rules::Version::new(5, 7, 0),
            hipport_rules::Version::new(6, 4, 0),
        ]
        .into_iter()
        .any(|v| HipccView::new(&text, tree.root_node(), &self.defines, v).may_define(name))
    }
}

/// Reads the tree under `root`: the names each source `#define`s, and the build files' text.
fn scan(root: &std::path::Path) -> Scan {
    let mut out = Scan {
        sources: HashMap::new(),
        build_text: Vec::new(),
        complete: true,
    };
    let mut read = 0usize;
    crate::tree_walk::walk_files(root, usize::MAX, |path, _, len| {
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            return ControlFlow::Continue(());
        };
        let source = path
            .extension()
            .and_then(|e| e.to_str())
            .is_some_and(|e| SOURCE_EXTENSIONS.contains(&e.to_ascii_lowercase().as_str()));
        let build =
            !source && (crate::buildfiles::classify(path).is_some() || other_build_file(name));
        if !source && !build {
            return ControlFlow::Continue(());
        }
        read += 1;
        if read > MAX_FILES
            || len > MAX_FILE_BYTES
            || build && out.build_text.len() + len as usize > MAX_BUILD_BYTES
        {
            out.complete = false;
            return ControlFlow::Break(());
        }
        let Ok(text) = std::fs::read(path) else {
            return ControlFlow::Continue(());
        };
        if build {
            out.build_text.extend_from_slice(&text);
            out.build_text.push(b'\n');
        } else {
            for n in defined_names(&text) {
                let files = out.sources.entry(n).or_default();
                if files.last().map(PathBuf::as_path) != Some(path) {
                    files.push(path.to_path_buf());
                }
            }
        }
        ControlFlow::Continue(())
    });
    out
}

/// Whether `text` names `name` as a word, or glued to `-D` or `/D` (`-DNAME`, `-DNAME=1`).
fn names_word(text: &[u8], name: &str) -> bool {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    memchr::memmem::find_iter(text, name.as_bytes()).any(|at| {
        let end = at + name.len();
        let after = text.get(end).is_none_or(|&b| !ident(b));
        let before = at == 0
            || !ident(text[at - 1])
            || at >= 2 && text[at - 1] == b'D' && matches!(text[at - 2], b'-' | b'/');
        before && after
    })
}

/// The directives of `text`, each a logical line (continuations joined) after its `#`, with
/// blanks and a `//` comment at the end trimmed. Only lines that start with `#` are read.
fn directives(text: &[u8]) -> impl Iterator<Item = String> + '_ {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    memchr::memchr_iter(b'#', text).filter_map(move |hash| {
        let line_start = memchr::memrchr(b'\n', &text[..hash]).map_or(0, |i| i + 1);
        if !text[line_start..hash].iter().all(blank) {
            return None;
        }
        let mut d = String::new();
        let mut at = hash + 1;
        loop {
            let end = memchr::memchr(b'\n', &text[at..]).map_or(text.len(), |i| at + i);
            let line = String::from_utf8_lossy(&text[at..end]);
            let line = line.trim_end();
            match line.strip_suffix('\\') {
                Some(head) if end < text.len() => {
                    d.push_str(head);
                    d.push(' ');
                    at = end + 1;
                }
                _ => {
                    d.push_str(line);
                    break;
                }
            }
        }
        if let Some(c) = d.find("//") {
            d.truncate(c);
        }
        Some(d.trim().to_string())
    })
}

/// The names `text` `#define`s.
fn defined_names(text: &[u8]) -> Vec<String> {
    if memchr::memmem::find(text, b"define").is_none() {
        return Vec::new();
    }
    let mut out: Vec<String> = Vec::new();
    for d in directives(text) {
        if let Some(name) = defined_name(&d) {
            if !out.iter().any(|n| n == name) {
                out.push(name.to_string());
            }
        }
    }
    out
}

/// The name directive `d` (after its `#`) defines, if it is a `#define`.
fn defined_name(d: &str) -> Option<&str> {
    let rest = d.strip_prefix("define")?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some(first_word(rest.trim_start())).filter(|n| !n.is_empty())
}

/// The names `text` tests in a conditional directive (`#ifdef NAME`, `#if defined(NAME)`,
/// `#if NAME >= 2`) and defines only under a condition that names a macro hipcc's own view
/// decides (`#if __CUDA_ARCH__ >= 530`, `#ifndef __HIP_PLATFORM_AMD__`), each `#define` of
/// them so: the file's own switches, which may be off under hipcc (DeepSpeed's
/// `PTX_AVAILABLE`). A name also defined elsewhere in the file (an include guard, a default
/// under `#ifndef NAME`) is none.
pub(crate) fn own_switches(text: &[u8]) -> Vec<String> {
    if memchr::memmem::find(text, b"define").is_none()
        || memchr::memmem::find(text, b"#if").is_none()
    {
        return Vec::new();
    }
    let mut tested: HashSet<String> = HashSet::new();
    // Open conditionals: whether the chain's conditions name a platform macro.
    let mut open: Vec<bool> = Vec::new();
    // Name -> whether every definition so far is under a platform condition.
    let mut defined: Vec<(String, bool)> = Vec::new();
    let platform = |cond: &str| {
        cond.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .any(super::eval::platform_macro)
    };
    for d in directives(text) {
        let word = first_word(&d);
        let cond = d[word.len()..].trim();
        match word {
            "ifdef" | "ifndef" => {
                let name = first_word(cond);
                tested.insert(name.to_string());
                open.push(platform(name));
            }
            "if" => {
                tested.extend(condition_names(cond).map(str::to_string));
                open.push(platform(cond));
            }
            "elif" | "elifdef" | "elifndef" => {
                tested.extend(condition_names(cond).map(str::to_string));
                if let Some(p) = open.last_mut() {
                    *p |= platform(cond);
                }
            }
            "endif" => {
                open.pop();
            }
            _ => {
                if let Some(name) = defined_name(&d) {
                    let under = open.iter().any(|&p| p);
                    match defined.iter_mut().find(|(n, _)| n == name) {
                        Some((_, all)) => *all &= under,
                        None => defined.push((name.to_string(), under)),
                    }
                }
            }
        }
    }
    defined
        .into_iter()
        .filter(|(name, all)| *all && tested.contains(name) && !super::eval::platform_macro(name))
        .map(|(name, _)| name)
        .collect()
}

/// The names `text` tests in the conditions around a `#define` of a macro that only nvcc (or
/// CUDA's library headers) defines (`#ifdef EDITOR_HINTS` / `#define __CUDA_ARCH__ 520`, a
/// definition for an editor's or a tool's sake): where nothing else in the tree or its build
/// defines such a name, hipcc skips the branch, and the CUDA macro stays undefined under hipcc
/// (realuser34 R34-c). Names the file defines itself, and names hipcc's own view decides, are
/// none.
pub(crate) fn cuda_macro_guards(text: &[u8]) -> Vec<String> {
    if memchr::memmem::find(text, b"define").is_none()
        || memchr::memmem::find(text, b"#if").is_none()
    {
        return Vec::new();
    }
    let cuda_macro = |name: &str| {
        super::eval::CUDA_ONLY_MACROS.contains(&name)
            || super::eval::LIBRARY_VERSION_MACROS.contains(&name)
    };
    // Open conditionals: the names each chain's conditions test so far.
    let mut open: Vec<Vec<String>> = Vec::new();
    let mut guards: Vec<String> = Vec::new();
    let mut defined: HashSet<String> = HashSet::new();
    for d in directives(text) {
        let word = first_word(&d);
        let cond = d[word.len()..].trim();
        match word {
            "ifdef" | "ifndef" => open.push(vec![first_word(cond).to_string()]),
            "if" => open.push(condition_names(cond).map(str::to_string).collect()),
            "elif" | "elifdef" | "elifndef" => {
                if let Some(names) = open.last_mut() {
                    names.extend(condition_names(cond).map(str::to_string));
                }
            }
            "endif" => {
                open.pop();
            }
            _ => {
                let Some(name) = defined_name(&d) else {
                    continue;
                };
                defined.insert(name.to_string());
                if cuda_macro(name) {
                    for n in open.iter().flatten() {
                        if !n.is_empty() && !guards.contains(n) {
                            guards.push(n.clone());
                        }
                    }
                }
            }
        }
    }
    guards.retain(|n| !defined.contains(n) && !super::eval::platform_macro(n));
    guards
}

/// The names in preprocessor condition `cond` (`defined` and numbers left out).
fn condition_names(cond: &str) -> impl Iterator<Item = &str> {
    cond.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && *w != "defined" && !w.as_bytes()[0].is_ascii_digit())
}

/// The names `text` tests in conditional directives: `#ifdef NAME`, `#ifndef NAME`, and every
/// name in an `#if`/`#elif` condition (`defined(NAME)`, `NAME >= 2`).
pub(crate) fn tested_names(text: &[u8]) -> HashSet<String> {
    let mut out = HashSet::new();
    if memchr::memmem::find(text, b"#").is_none() {
        return out;
    }
    for d in directives(text) {
        let word = first_word(&d);
        let cond = d[word.len()..].trim();
        match word {
            "ifdef" | "ifndef" | "elifdef" | "elifndef" => {
                let name = first_word(cond);
                if !name.is_empty() {
                    out.insert(name.to_string());
                }
            }
            "if" | "elif" => out.extend(condition_names(cond).map(str::to_string)),
            _ => {}
        }
    }
    out
}

/// The identifier `s` starts with (empty where it starts otherwise).
fn first_word(s: &str) -> &str {
    let end = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(s.len());
    let w = &s[..end];
    if w.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        ""
    } else {
        w
    }
}

/// `text`, a source, with the lines blanked that hipcc never compiles because a preprocessor
/// condition that names one of `names` decides so (CUDA's version macros, which HIP does not
/// define): each condition is judged as H010 judges it ([`HipccView`]), so `#if CUDA_VERSION >=
/// 9000` skips its branch, and `#if CUDA_VERSION < 9000`, `#if !defined(CUDA_VERSION) ||
/// CUDA_VERSION < 9000` skip their `#else` (verify19 V19-e), where the file does not define the
/// macro itself. Borrowed where nothing is blanked.
pub(crate) fn hipcc_dead_branches<'a>(
    text: &'a [u8],
    names: &[&str],
) -> std::borrow::Cow<'a, [u8]> {
    use std::borrow::Cow;
    let named = |t: &[u8]| {
        names
            .iter()
            .any(|m| memchr::memmem::find(t, m.as_bytes()).is_some())
    };
    if !named(text) || memchr::memmem::find(text, b"#").is_none() {
        return Cow::Borrowed(text);
    }
    let Ok(tree) = crate::parse::parse(text, Duration::from_secs(2)) else {
        return Cow::Borrowed(text);
    };
    let root = tree.root_node();
    let view = HipccView::new(text, root, &[], hipport_rules::Version::new(6, 2, 0));
    let mut out: Option<Vec<u8>> = None;
    let mut at = 0;
    for line in text.split_inclusive(|&b| b == b'\n') {
        let start = at;
        at += line.len();
        let lead = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if lead == line.len() || line[lead] == b'#' {
            continue;
        }
        let dead = view
            .skips(text, root, start + lead)
            .is_some_and(|b| named(b.text.as_bytes()));
        if dead {
            let o = out.get_or_insert_with(|| text.to_vec());
            for b in &mut o[start..at] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
    }
    out.map_or(Cow::Borrowed(text), Cow::Owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_text_names_a_macro_as_a_word_or_after_minus_d() {
        for yes in [
            "nvcc -DPTX_AVAILABLE -c k.cu",
            "add_definitions(-DPTX_AVAILABLE=1)",
            "target_compile_definitions(k PRIVATE PTX_AVAILABLE)",
            "define_macros=[('PTX_AVAILABLE', None)]",
            "cl /DPTX_AVAILABLE k.cpp",
        ] {
            assert!(names_word(yes.as_bytes(), "PTX_AVAILABLE"), "{yes}");
        }
        for no in [
            "-DPTX_AVAILABLE_X",
            "NO_PTX_AVAILABLE",
            "-DXPTX_AVAILABLE",
            "",
        ] {
            assert!(!names_word(no.as_bytes(), "PTX_AVAILABLE"), "{no}");
        }
    }

    #[test]
    fn tested_and_defined_names_are_read_from_directives() {
        let text = b"#if __CUDA_ARCH__ >= 530 && \\\n  !defined(NO_PTX)\n  #  define PTX_OK 1\n\
#endif\n#ifdef PTX_OK // x\n#elif defined FOO\n#endif\n#define F(x) x\nint define_me;\n";
        let tested = tested_names(text);
        for n in ["__CUDA_ARCH__", "NO_PTX", "PTX_OK", "FOO"] {
            assert!(tested.contains(n), "{n}: {tested:?}");
        }
        assert!(!tested.contains("defined") && !tested.contains("530"));
        assert_eq!(defined_names(text), ["PTX_OK", "F"]);
        assert_eq!(own_switches(text), ["PTX_OK"]);
    }

    #[test]
    fn conditions_around_a_cuda_macro_definition_are_guards() {
        // realuser34 R34-c: an editor block's switch, and a project's, around `__CUDA_ARCH__`.
        let text = b"#ifndef K_H\n#define K_H\n#ifdef EDITOR_HINTS\n#define __CUDA_ARCH__ 520\n\
#endif\n#if defined(OLD_TK) && !defined(__HIPCC__)\n#define CUDA_VERSION 9000\n#endif\n\
#ifdef OTHER\n#define NOT_CUDA 1\n#endif\n#endif\n";
        assert_eq!(cuda_macro_guards(text), ["EDITOR_HINTS", "OLD_TK"]);
        // A switch the file defines itself, and the editors' and platform macros, are none.
        let own = b"#define HINTS\n#ifdef HINTS\n#define __CUDA_ARCH__ 520\n#endif\n\
#ifdef __INTELLISENSE__\n#define __CUDA_ARCH__ 520\n#endif\n";
        assert!(cuda_macro_guards(own).is_empty());
        // A switch that only an editor block turns on is the file's own, off under hipcc.
        let editor = b"#ifdef __INTELLISENSE__\n#define FAST\n#endif\n#ifdef FAST\n#endif\n";
        assert_eq!(own_switches(editor), ["FAST"]);
    }

    #[test]
    fn guards_defaults_and_project_conditions_make_no_own_switch() {
        for none in [
            "#ifndef K_H\n#define K_H\n#endif\n",
            "#ifndef BLOCK\n#define BLOCK 256\n#endif\n#if BLOCK > 128\n#endif\n",
            "#ifdef MY_OPT\n#define FAST\n#endif\n#ifdef FAST\n#endif\n",
            "#if __CUDA_ARCH__ >= 530\n#define FAST\n#endif\n#define FAST 2\n#ifdef FAST\n#endif\n",
            "#if __CUDA_ARCH__ >= 530\n#define UNTESTED\n#endif\n",
        ] {
            assert!(own_switches(none.as_bytes()).is_empty(), "{none}");
        }
        let nested = "#ifndef K_H\n#define K_H\n#ifndef __HIP_PLATFORM_AMD__\n#if X\n\
#define FAST\n#endif\n#endif\n#ifdef FAST\n#endif\n#endif\n";
        assert_eq!(own_switches(nested.as_bytes()), ["FAST"]);
    }
}
