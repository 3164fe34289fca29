//! Visual Studio projects (`.vcxproj`) that build CUDA through NVIDIA's build customization
//! (`$(VCTargetsPath)\BuildCustomizations\CUDA 11.8.props`/`.targets`, `CudaCompile` items), and
//! the `.vcxproj.filters` files that sort a project's files into folders.
//!
//! The XML is read textually, as the other build files are: a small scanner finds tags,
//! attribute values and the text of leaf elements, skipping comments, CDATA and processing
//! instructions. Edits only ever replace text inside an attribute value or a leaf element's
//! text, and never write `<`, `&` or a quote, so the output stays well-formed.
//!
//! What is rewritten is what documentation or the compiler's own source establishes: source
//! paths that follow `--rename`; `cudart.lib`/`cudart_static.lib`/`cuda.lib` become
//! `amdhip64.lib` and CUDA's library directory `$(HIP_PATH)\lib` (clang's MSVC toolchain links
//! `amdhip64.lib` from `<HIP install>\lib`, the install found through `HIP_PATH`, which the
//! AMD HIP SDK for Windows sets); CUDA's include directory becomes `$(HIP_PATH)\include`.
//! Everything about compiling the GPU sources (the build customization, `CudaCompile` items and
//! their nvcc settings) is reported (B015) with the hipcc flags that replace the nvcc ones:
//! AMD's Visual Studio integration (HIP-VS) does not document its item types or property
//! names, so hipport does not write them.

use std::collections::BTreeMap;

use super::flags::{self, Action, Context};
use super::text::{self, Sink};
use super::{BuildOptions, B_GLOB, B_LIB_MAPPED, B_LIB_UNMAPPED, B_PATH, B_VS};
use crate::diag::Severity;

/// Where the HIP SDK keeps `amdhip64.lib`, as clang looks for it.
const HIP_LIB_DIR: &str = "$(HIP_PATH)\\lib";
/// Where the HIP SDK keeps its headers, as clang looks for them.
const HIP_INCLUDE_DIR: &str = "$(HIP_PATH)\\include";
/// HIP's runtime import library on Windows.
const HIP_RUNTIME_LIB: &str = "amdhip64.lib";

/// An attribute of a tag: its name and the byte range of its value (without quotes).
struct Attr<'a> {
    name: &'a str,
    start: usize,
    end: usize,
}

/// What the scanner reports, in document order.
enum Event<'a> {
    /// A start tag (or an empty-element tag) with its attributes, at `at`; `parent` is the
    /// enclosing element's name.
    Open {
        name: &'a str,
        at: usize,
        attrs: Vec<Attr<'a>>,
        parent: Option<&'a str>,
    },
    /// A leaf element closed: its name, the start of its start tag, the range of its text, and
    /// the names of the elements around it, innermost first.
    Leaf {
        name: &'a str,
        at: usize,
        text: (usize, usize),
        outer: Vec<&'a str>,
    },
}

/// The tags and leaf texts of an XML document. Malformed input ends the scan where it stops
/// making sense; it never panics.
fn scan(s: &str) -> Vec<Event<'_>> {
    let mut out = Vec::new();
    // Open elements: name, start of the start tag, end of the start tag, whether it has children.
    let mut stack: Vec<(&str, usize, usize, bool)> = Vec::new();
    let mut i = 0;
    while let Some(p) = s[i..].find('<') {
        let lt = i + p;
        let rest = &s[lt..];
        let skip_to = |close: &str| s[lt..].find(close).map(|e| lt + e + close.len());
        let next = if rest.starts_with("<!--") {
            skip_to("-->")
        } else if rest.starts_with("<![CDATA[") {
            skip_to("]]>")
        } else if rest.starts_with("<?") {
            skip_to("?>")
        } else if rest.starts_with("<!") {
            skip_to(">")
        } else if rest.starts_with("</") {
            let Some(gt) = rest.find('>') else { break };
            let name = rest[2..gt].trim();
            if let Some(k) = stack.iter().rposition(|e| e.0 == name) {
                let (n, at, body, children) = stack[k];
                if k == stack.len() - 1 && !children {
                    let outer = stack[..k].iter().rev().map(|e| e.0).collect();
                    out.push(Event::Leaf {
                        name: n,
                        at,
                        text: (body, lt),
                        outer,
                    });
                }
                stack.truncate(k);
            }
            Some(lt + gt + 1)
        } else {
            let Some((name, attrs, end, empty)) = start_tag(s, lt) else {
                break;
            };
            if let Some(top) = stack.last_mut() {
                top.3 = true;
            }
            out.push(Event::Open {
                name,
                at: lt,
                attrs,
                parent: stack.last().map(|e| e.0),
            });
            if !empty {
                stack.push((name, lt, end, false));
            }
            Some(end)
        };
        match next {
            Some(n) if n > i => i = n,
            _ => break,
        }
    }
    out
}

/// Reads the start tag at `lt`: its name, attributes, the offset after it, and whether it is an
/// empty-element tag (`<X ... />`).
fn start_tag(s: &str, lt: usize) -> Option<(&str, Vec<Attr<'_>>, usize, bool)> {
    let b = s.as_bytes();
    let name_end = s[lt + 1..]
        .find(|c: char| c.is_whitespace() || c == '>' || c == '/')
        .map(|e| lt + 1 + e)?;
    let name = &s[lt + 1..name_end];
    if name.is_empty() {
        return None;
    }
    let mut attrs = Vec::new();
    let mut i = name_end;
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        match b.get(i)? {
            b'>' => return Some((name, attrs, i + 1, false)),
            b'/' if b.get(i + 1) == Some(&b'>') => return Some((name, attrs, i + 2, true)),
            _ => {}
        }
        let an_end = s[i..]
            .find(|c: char| c.is_whitespace() || c == '=' || c == '>' || c == '/')
            .map(|e| i + e)?;
        if an_end == i {
            return None;
        }
        let an = &s[i..an_end];
        i = an_end;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            return None;
        }
        i += 1;
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        let q = *b.get(i)?;
        if q != b'"' && q != b'\'' {
            return None;
        }
        let vend = s[i + 1..].find(q as char).map(|e| i + 1 + e)?;
        attrs.push(Attr {
            name: an,
            start: i + 1,
            end: vend,
        });
        i = vend + 1;
    }
}

/// The value of an XML text or attribute with the five predefined entities decoded.
fn unescape(v: &str) -> String {
    v.replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// Translates a `.vcxproj`; `filters` for a `.vcxproj.filters`, where only source paths follow
/// the renames.
pub(crate) fn translate(s: &str, sink: &mut Sink, opts: &BuildOptions, filters: bool) {
    let file = sink.file().to_string();
    let renames = RenameMap::new(&file, &opts.renamed);
    let exts = text::extension_map(&opts.renamed);
    let mut reported_items = false;
    for ev in scan(s) {
        match ev {
            Event::Open {
                name,
                at,
                attrs,
                parent,
            } => {
                for a in &attrs {
                    if a.name == "Include" && parent.is_some() {
                        rename_include(s, sink, a, &renames, &exts);
                    }
                }
                if filters {
                    continue;
                }
                if name == "Import" {
                    if let Some(p) = attrs.iter().find(|a| a.name == "Project") {
                        cuda_import(sink, at, &s[p.start..p.end]);
                    }
                } else if name == "CudaCompile" && !reported_items {
                    if let Some(inc) = attrs.iter().find(|a| a.name == "Include") {
                        reported_items = true;
                        sink.diag(
                            B_VS,
                            at,
                            format!(
                                "`CudaCompile` items (here `{}`) are compiled by nvcc through NVIDIA's CUDA build customization",
                                unescape(&s[inc.start..inc.end])
                            ),
                            Some(
                                "compile them with the AMD HIP SDK instead: move them to the item type of the HIP toolset you build with (AMD's HIP-VS extension), or to a build step that runs hipcc; hipport does not write HIP-VS's item types, which are not documented".to_string(),
                            ),
                        );
                    }
                }
            }
            Event::Leaf {
                name,
                at,
                text: (start, end),
                outer,
            } => {
                if filters {
                    continue;
                }
                let in_cuda = outer.contains(&"CudaCompile");
                if outer.first() == Some(&"CudaCompile") {
                    cuda_setting(s, sink, opts, name, at, start, end);
                } else if in_cuda {
                    // Deeper inside a CudaCompile item: nothing nvcc reads that we map.
                } else if name == "AdditionalDependencies" {
                    libraries(s, sink, start, end, opts);
                } else if name == "AdditionalLibraryDirectories" {
                    directories(s, sink, start, end, Dirs::Lib);
                } else if name == "AdditionalIncludeDirectories" {
                    directories(s, sink, start, end, Dirs::Include);
                } else if !name.to_ascii_lowercase().starts_with("cuda") {
                    let t = &s[start..end];
                    if let Some(p) = cuda_var(t) {
                        sink.diag(
                            B_PATH,
                            start + p,
                            format!("`{name}` names the CUDA toolkit: `{}`", t.trim()),
                            Some(
                                "a HIP SDK machine has no CUDA toolkit; point it at the HIP SDK (`$(HIP_PATH)`) or remove it"
                                    .to_string(),
                            ),
                        );
                    }
                }
            }
        }
    }
}

/// Where a reference to the CUDA toolkit's location starts in `t`, if it holds one.
fn cuda_var(t: &str) -> Option<usize> {
    ["$(CUDA_PATH", "$(CudaToolkit", "$(CUDA_HOME", "$(CUDA_ROOT"]
        .iter()
        .filter_map(|v| t.find(v))
        .min()
}

/// Renamed sources as the project names them: lower-cased path relative to the project's
/// directory (with `/`) -> new path relative to it. Windows paths are case-insensitive.
struct RenameMap {
    map: BTreeMap<String, String>,
}

impl RenameMap {
    fn new(file: &str, renamed: &BTreeMap<String, String>) -> RenameMap {
        let map = text::renames_from(file, renamed)
            .into_iter()
            .map(|(o, n)| (o.to_ascii_lowercase(), n))
            .collect();
        RenameMap { map }
    }

    /// The new spelling of `written` (a path relative to the project, `\` or `/`), or `None`.
    fn get(&self, written: &str) -> Option<String> {
        let slashed = written.replace('\\', "/");
        let key = crate::includes::normalize_rel(&slashed)?.to_ascii_lowercase();
        let new = self.map.get(&key)?;
        let out = crate::includes::rewritten(&slashed, new);
        Some(if written.contains('\\') {
            out.replace('/', "\\")
        } else {
            out
        })
    }
}

/// Follows the renames in an `Include="..."` (a `;`-separated list of paths or globs).
fn rename_include(
    s: &str,
    sink: &mut Sink,
    a: &Attr<'_>,
    renames: &RenameMap,
    exts: &BTreeMap<String, String>,
) {
    let value = &s[a.start..a.end];
    if value.contains('&') || value.contains("$(") || value.contains("%(") {
        return;
    }
    let mut pos = a.start;
    for part in value.split(';') {
        let (lead, path) = (part.len() - part.trim_start().len(), part.trim());
        let at = pos + lead;
        pos += part.len() + 1;
        if path.is_empty() {
            continue;
        }
        if path.contains(['*', '?']) {
            let Some(dot) = path.rfind('.') else { continue };
            let Some(new_ext) = exts.get(&path[dot + 1..].to_ascii_lowercase()) else {
                continue;
            };
            let (s0, e0) = (at + dot + 1, at + path.len());
            if sink.edit(s0, e0, new_ext.clone(), B_GLOB.id) {
                sink.diag(
                    B_GLOB,
                    at,
                    format!(
                        "`{path}` selects sources by extension: `.{}` -> `.{new_ext}`",
                        &path[dot + 1..]
                    ),
                    Some("check that the pattern still selects what it should".to_string()),
                );
            }
            continue;
        }
        if let Some(new) = renames.get(path) {
            if new != path {
                sink.edit(at, at + path.len(), new, "rename");
            }
        }
    }
}

/// Reports an `<Import Project="...">` of NVIDIA's build customization.
fn cuda_import(sink: &mut Sink, at: usize, project: &str) {
    let file = project.rsplit(['\\', '/']).next().unwrap_or(project);
    let lower = file.to_ascii_lowercase();
    if !(lower.starts_with("cuda ") && (lower.ends_with(".props") || lower.ends_with(".targets"))) {
        return;
    }
    sink.diag(
        B_VS,
        at,
        format!("NVIDIA's CUDA build customization `{file}` is imported: it compiles `CudaCompile` items with nvcc from the CUDA toolkit"),
        Some("remove this import (and its .props/.targets partner) when the project builds with the AMD HIP SDK, for example through the HIP-VS extension's `AMD HIP for clang Compiler` platform toolset; hipport does not write that toolset's settings, which are not documented".to_string()),
    );
}

/// The nvcc command-line words that a `CudaCompile` setting stands for, if hipport knows it.
fn setting_flags(name: &str, value: &str) -> Option<Vec<String>> {
    let v = value.trim();
    let on = v.eq_ignore_ascii_case("true");
    let words = |w: &[&str]| Some(w.iter().map(|s| s.to_string()).collect());
    match name {
        "CodeGeneration" => Some(
            v.split(';')
                .filter(|p| !p.trim().is_empty() && !p.contains("%("))
                .map(|p| {
                    let (arch, code) = p.trim().split_once(',').unwrap_or((p.trim(), p.trim()));
                    format!("-gencode=arch={},code={}", arch.trim(), code.trim())
                })
                .collect(),
        ),
        "FastMath" if on => words(&["--use_fast_math"]),
        "GPUDebugInfo" if on => words(&["-G"]),
        "GenerateRelocatableDeviceCode" if on => words(&["-rdc=true"]),
        "GenerateLineInfo" if on => words(&["-lineinfo"]),
        "MaxRegCount" if !v.is_empty() && v != "0" => Some(vec![format!("-maxrregcount={v}")]),
        // R44-1: the other nvcc-only switches of NVIDIA's CudaCompile rule, with the nvcc
        // words each stands for.
        "PtxAsOptionV" if on => words(&["-Xptxas", "-v"]),
        "HostDebugInfo" if on => words(&["-g"]),
        "Keep" if on => words(&["-keep"]),
        "KeepDir" if !v.is_empty() && !v.contains("%(") => {
            Some(vec!["-keep-dir".to_string(), v.to_string()])
        }
        "CudaRuntime" if !v.is_empty() && !v.contains("%(") => {
            Some(vec!["-cudart".to_string(), v.to_ascii_lowercase()])
        }
        "NvccCompilation"
            if matches!(v.to_ascii_lowercase().as_str(), "ptx" | "cubin" | "fatbin") =>
        {
            Some(vec![format!("-{}", v.to_ascii_lowercase())])
        }
        // Words as the command line reads them: `-Xcompiler "/wd 4819"` is two, the quoted
        // value one word with its quotes.
        "AdditionalOptions" => {
            let v = unescape(v);
            Some(
                super::text::blank_words(&v, 0, v.len(), false)
                    .iter()
                    .map(|w| v[w.start..w.end].to_string())
                    .filter(|w| !w.starts_with("%("))
                    .collect(),
            )
        }
        _ => None,
    }
}

/// Reports one nvcc setting of a `CudaCompile` item or item definition, with what hipcc takes
/// instead (through the same flag mapping as the other build files).
fn cuda_setting(
    s: &str,
    sink: &mut Sink,
    opts: &BuildOptions,
    name: &str,
    at: usize,
    start: usize,
    end: usize,
) {
    let value = s[start..end].trim();
    let Some(words) = setting_flags(name, value) else {
        return;
    };
    if words.is_empty() {
        return;
    }
    let refs: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut arch_done = false;
    let mapped = flags::map_words(&refs, opts, Context::Nvcc, &mut arch_done);
    let mut hip: Vec<String> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        match mapped.changes.iter().rev().find(|(k, _)| *k == i) {
            Some((_, Action::Replace(new))) => hip.extend(new.iter().cloned()),
            Some((_, Action::Remove)) => {}
            None => hip.push(w.clone()),
        }
    }
    let unmapped: Vec<&str> = mapped
        .notes
        .iter()
        .filter(|n| n.info.id == "B003" || n.severity == Some(Severity::Warning))
        .map(|n| refs[n.word])
        .collect();
    let nvcc = words.join(" ");
    // Each reason once: the flags of one setting often share one (S1: each extra architecture
    // of `CodeGeneration` says that the AMD targets are listed once).
    let mut why: Vec<String> = Vec::new();
    for h in mapped.notes.iter().filter_map(|n| n.help.clone()) {
        if !why.contains(&h) {
            why.push(h);
        }
    }
    // V20-e: flags hipcc rejects are not "the same flags" (`-ptx`: AMD has no PTX).
    let message = if hip == words && !unmapped.is_empty() {
        format!("`CudaCompile` setting `{name}` (`{value}`, nvcc `{nvcc}`) is read by NVIDIA's build customization only, and hipcc has no `{}`", unmapped.join(" "))
    } else if hip == words {
        format!("`CudaCompile` setting `{name}` (`{value}`) is read by NVIDIA's build customization only; hipcc takes the same flags: `{nvcc}`")
    } else if hip.is_empty() {
        format!("`CudaCompile` setting `{name}` (`{value}`, nvcc `{nvcc}`) is read by NVIDIA's build customization only; hipcc needs nothing in its place")
    } else {
        format!(
            "`CudaCompile` setting `{name}` (`{value}`, nvcc `{nvcc}`) is read by NVIDIA's build customization only; for hipcc use `{}`",
            hip.join(" ")
        )
    };
    let mut help = String::from(if hip == words && !unmapped.is_empty() {
        "give the HIP compile of these sources hipcc's own flags"
    } else if hip.is_empty() {
        "it goes with the CUDA build customization"
    } else {
        "give the hipcc flags to the HIP compile of these sources (the HIP toolset's options, or the hipcc command line)"
    });
    if !unmapped.is_empty() {
        help.push_str(&format!(
            "; hipcc rejects `{}`: replace it by hand",
            unmapped.join(" ")
        ));
    }
    for w in why {
        help.push_str("; ");
        help.push_str(&w);
    }
    sink.diag(B_VS, at, message, Some(help));
}

/// The entries of a `;`-separated list with their byte ranges (trimmed), empty ones left out.
fn entries(s: &str, start: usize, end: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut pos = start;
    for part in s[start..end].split(';') {
        let lead = part.len() - part.trim_start().len();
        let t = part.trim();
        if !t.is_empty() {
            out.push((pos + lead, pos + lead + t.len()));
        }
        pos += part.len() + 1;
    }
    out
}

/// Removes list entry `(a, b)` from the list `start..end` with one of the `;` beside it.
fn remove_entry(s: &str, sink: &mut Sink, start: usize, end: usize, a: usize, b: usize) {
    let after = s[b..end].find(';').map(|p| b + p + 1);
    let before = s[start..a].rfind(';').map(|p| start + p);
    match (after, before) {
        (Some(e), _) => {
            sink.edit(a, e, "", "build");
        }
        (None, Some(p)) => {
            sink.edit(p, b, "", "build");
        }
        (None, None) => {
            sink.edit(a, b, "", "build");
        }
    }
}

/// Rewrites `AdditionalDependencies`: the CUDA runtime and driver libraries become
/// `amdhip64.lib` (once); other CUDA libraries are reported, through the same mapping as the
/// other build files' (a library the target HIP does not ship yet is an error, B005).
fn libraries(s: &str, sink: &mut Sink, start: usize, end: usize, opts: &BuildOptions) {
    if s[start..end].contains('&') {
        return;
    }
    let list = entries(s, start, end);
    let mut have_hip = list
        .iter()
        .any(|&(a, b)| s[a..b].eq_ignore_ascii_case(HIP_RUNTIME_LIB));
    for &(a, b) in &list {
        let entry = &s[a..b];
        let lower = entry.to_ascii_lowercase();
        let Some(stem) = lower.strip_suffix(".lib") else {
            continue;
        };
        match stem {
            "cudart" | "cudart_static" | "cuda" => {
                let help = if stem == "cudart_static" {
                    "the HIP runtime has no static library: amdhip64.lib is the import library of amdhip64 DLL, which the AMD GPU driver installs; clang's MSVC toolchain links it from $(HIP_PATH)\\lib"
                } else {
                    "clang's MSVC toolchain links the HIP runtime as amdhip64.lib from $(HIP_PATH)\\lib; HIP's runtime and driver-style APIs are both in it"
                };
                if have_hip {
                    remove_entry(s, sink, start, end, a, b);
                    sink.diag(
                        B_LIB_MAPPED,
                        a,
                        format!(
                            "CUDA library `{entry}` dropped: `{HIP_RUNTIME_LIB}` is already linked"
                        ),
                        Some(help.to_string()),
                    );
                } else {
                    have_hip = true;
                    sink.edit(a, b, HIP_RUNTIME_LIB, "build");
                    sink.diag(
                        B_LIB_MAPPED,
                        a,
                        format!("CUDA library `{entry}` -> `{HIP_RUNTIME_LIB}`"),
                        Some(help.to_string()),
                    );
                }
            }
            "cudadevrt" => {
                remove_entry(s, sink, start, end, a, b);
                sink.diag(
                    B_LIB_MAPPED,
                    a,
                    format!("CUDA library `{entry}` dropped"),
                    Some(
                        "hip-clang links relocatable device code without a device runtime library"
                            .to_string(),
                    ),
                );
            }
            _ => {
                // The link name as flags.rs knows it (`cublas`, `nvrtc`, `cublasLt`).
                let Some((name, (action, info, message, help))) = flags::link_name(stem)
                    .and_then(|n| Some((n, flags::map_library_for_windows(n, opts.hip_version)?)))
                else {
                    continue;
                };
                if info.id == B_LIB_UNMAPPED.id {
                    // No HIP counterpart, or none in the target release: as in a Makefile.
                    let message = message.replacen(&format!("`{name}`"), &format!("`{entry}`"), 1);
                    sink.diag(B_LIB_UNMAPPED, a, message, help);
                } else if let Action::Replace(new) = action {
                    sink.diag_as(
                        B_LIB_MAPPED,
                        Severity::Warning,
                        a,
                        format!(
                            "CUDA library `{entry}` is `{}` in HIP (not rewritten: the name of its import library in the HIP SDK for Windows is not documented)",
                            new.join(" ")
                        ),
                        Some(format!(
                            "replace it with the {} library the HIP SDK installs under $(HIP_PATH)\\lib",
                            new.join(" ")
                        )),
                    );
                }
            }
        }
    }
}

/// Which list of directories.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Dirs {
    Lib,
    Include,
}

/// Whether a directory entry is the CUDA toolkit's library (`Dirs::Lib`) or include directory.
fn is_cuda_dir(entry: &str, kind: Dirs) -> bool {
    let e = entry.replace('/', "\\").to_ascii_lowercase();
    let e = e.trim_end_matches('\\');
    let root = ["$(cuda_path)", "$(cuda_home)"]
        .iter()
        .find_map(|r| e.strip_prefix(r))
        .or_else(|| {
            // `$(CUDA_PATH_V11_8)`
            let rest = e.strip_prefix("$(cuda_path_v")?;
            rest.find(')').map(|p| &rest[p + 1..])
        });
    match kind {
        Dirs::Lib => {
            e == "$(cudatoolkitlibdir)"
                || root.is_some_and(|r| r == "\\lib\\x64" || r == "\\lib64" || r == "\\lib")
                || e == "$(cudatoolkitdir)lib\\x64"
                || e == "$(cudatoolkitdir)\\lib\\x64"
        }
        Dirs::Include => {
            e == "$(cudatoolkitincludedir)"
                || root.is_some_and(|r| r == "\\include")
                || e == "$(cudatoolkitdir)include"
                || e == "$(cudatoolkitdir)\\include"
        }
    }
}

/// Rewrites CUDA's library or include directory in an `AdditionalLibraryDirectories` /
/// `AdditionalIncludeDirectories` list to the HIP SDK's (once).
fn directories(s: &str, sink: &mut Sink, start: usize, end: usize, kind: Dirs) {
    if s[start..end].contains('&') {
        return;
    }
    let hip = match kind {
        Dirs::Lib => HIP_LIB_DIR,
        Dirs::Include => HIP_INCLUDE_DIR,
    };
    let list = entries(s, start, end);
    let mut have_hip = list.iter().any(|&(a, b)| s[a..b].eq_ignore_ascii_case(hip));
    for &(a, b) in &list {
        let entry = &s[a..b];
        if !is_cuda_dir(entry, kind) {
            if let Some(p) = cuda_var(entry) {
                sink.diag(
                    B_PATH,
                    a + p,
                    format!("directory `{entry}` is in the CUDA toolkit"),
                    Some(format!(
                        "a HIP SDK machine has no CUDA toolkit; point it into the HIP SDK ({hip}) or remove it"
                    )),
                );
            }
            continue;
        }
        let help = match kind {
            Dirs::Lib => "clang finds amdhip64.lib in <HIP install>\\lib; the HIP SDK installer sets HIP_PATH to the install",
            Dirs::Include => "HIP's headers are in <HIP install>\\include; sources that cl.exe (not hipcc) compiles and that include them also need __HIP_PLATFORM_AMD__ in PreprocessorDefinitions",
        };
        if have_hip {
            remove_entry(s, sink, start, end, a, b);
            sink.diag_as(
                B_PATH,
                Severity::Note,
                a,
                format!("CUDA directory `{entry}` dropped: `{hip}` is already listed"),
                Some(help.to_string()),
            );
        } else {
            have_hip = true;
            sink.edit(a, b, hip, "build");
            sink.diag_as(
                B_PATH,
                Severity::Note,
                a,
                format!("CUDA directory `{entry}` -> `{hip}`"),
                Some(help.to_string()),
            );
        }
    }
}

/// The include directories a project names for host and device compiles
/// (`AdditionalIncludeDirectories` of `ClCompile` and `CudaCompile`, `Include` of `CudaCompile`),
/// relative ones only, with `/` (a `$(ProjectDir)` or `$(MSBuildProjectDirectory)\` prefix is
/// read as the project's directory).
pub(crate) fn include_dirs(s: &str, add: &mut dyn FnMut(&str, Option<usize>, super::Anchor)) {
    for ev in scan(s) {
        let Event::Leaf {
            name,
            text: (start, end),
            outer,
            ..
        } = ev
        else {
            continue;
        };
        let cuda_include = name == "Include" && outer.first() == Some(&"CudaCompile");
        if name != "AdditionalIncludeDirectories" && !cuda_include {
            continue;
        }
        for (a, b) in entries(s, start, end) {
            let mut e = s[a..b].to_string();
            for prefix in [
                "$(ProjectDir)",
                "$(MSBuildProjectDirectory)\\",
                "$(MSBuildProjectDirectory)/",
            ] {
                if let Some(rest) = e.strip_prefix(prefix) {
                    e = rest.to_string();
                }
            }
            if e.is_empty() || e.contains("$(") || e.contains("%(") || e.contains('&') {
                continue;
            }
            add(&e.replace('\\', "/"), None, super::Anchor::File);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::{apply, Edit};

    const PROJECT: &str = "\u{feff}<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n\
<Project DefaultTargets=\"Build\" ToolsVersion=\"4.0\" xmlns=\"http://schemas.microsoft.com/developer/msbuild/2003\">\r\n\
  <ImportGroup Label=\"ExtensionSettings\">\r\n\
    <Import Project=\"$(VCTargetsPath)\\BuildCustomizations\\CUDA 11.8.props\" />\r\n\
  </ImportGroup>\r\n\
  <!-- <CudaCompile Include=\"commented.cu\" /> -->\r\n\
  <ItemDefinitionGroup Condition=\"'$(Configuration)|$(Platform)'=='Release|x64'\">\r\n\
    <ClCompile>\r\n\
      <AdditionalIncludeDirectories>..\\common;$(CUDA_PATH)\\include;%(AdditionalIncludeDirectories)</AdditionalIncludeDirectories>\r\n\
    </ClCompile>\r\n\
    <Link>\r\n\
      <AdditionalDependencies>cudart_static.lib;cublas.lib;kernel32.lib;cuda.lib;%(AdditionalDependencies)</AdditionalDependencies>\r\n\
      <AdditionalLibraryDirectories>$(CUDA_PATH)\\lib\\x64;libs</AdditionalLibraryDirectories>\r\n\
    </Link>\r\n\
    <CudaCompile>\r\n\
      <CodeGeneration>compute_80,sm_80;compute_86,sm_86</CodeGeneration>\r\n\
      <FastMath>true</FastMath>\r\n\
      <GPUDebugInfo>false</GPUDebugInfo>\r\n\
      <AdditionalOptions>-Xptxas -v --expt-relaxed-constexpr -Xcompiler &quot;/wd4819&quot; %(AdditionalOptions)</AdditionalOptions>\r\n\
    </CudaCompile>\r\n\
  </ItemDefinitionGroup>\r\n\
  <ItemGroup>\r\n\
    <CudaCompile Include=\"src\\Kernel.cu\" />\r\n\
    <CudaCompile Include=\"src\\other.cu\">\r\n\
      <GPUDebugInfo Condition=\"'$(Configuration)'=='Debug'\">true</GPUDebugInfo>\r\n\
    </CudaCompile>\r\n\
    <ClCompile Include=\"main.cpp\" />\r\n\
    <ClInclude Include=\"src\\kernel.cuh\" />\r\n\
    <None Include=\"src\\*.cu\" />\r\n\
  </ItemGroup>\r\n\
  <ImportGroup Label=\"ExtensionTargets\">\r\n\
    <Import Project=\"$(VCTargetsPath)\\BuildCustomizations\\CUDA 11.8.targets\" />\r\n\
  </ImportGroup>\r\n\
</Project>\r\n";

    fn opts() -> BuildOptions {
        let mut o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx1030".into()],
            ..BuildOptions::default()
        };
        for (a, b) in [
            ("proj/src/kernel.cu", "proj/src/kernel.hip"),
            ("proj/src/other.cu", "proj/src/other.hip"),
        ] {
            o.renamed.insert(a.into(), b.into());
        }
        o
    }

    fn run(src: &str, file: &str, o: &BuildOptions) -> (String, Vec<crate::diag::Diagnostic>) {
        let (mut edits, diags) = super::super::translate_build(
            super::super::classify(std::path::Path::new(file)).unwrap(),
            src.as_bytes(),
            file,
            o,
        );
        let out = apply(src.as_bytes(), &mut edits).unwrap();
        let _: Vec<Edit> = edits;
        (String::from_utf8(out).unwrap(), diags)
    }

    /// N-b: a quoted `-Xcompiler "/wd 4819"` is one value, all MSVC: never suggested to
    /// hipcc, with or without its quotes; cuda-samples' ten architectures say "listed once"
    /// once (S1).
    #[test]
    fn msvc_host_options_and_many_architectures() {
        let project = "<Project>\n<ItemDefinitionGroup>\n<CudaCompile>\n\
            <AdditionalOptions>-Xcompiler &quot;/wd 4819&quot; -O2 %(AdditionalOptions)</AdditionalOptions>\n\
            <CodeGeneration>compute_50,sm_50;compute_52,sm_52;compute_60,sm_60;compute_61,sm_61;compute_70,sm_70;compute_75,sm_75;compute_80,sm_80;compute_86,sm_86;compute_89,sm_89;compute_90,sm_90;</CodeGeneration>\n\
            </CudaCompile>\n</ItemDefinitionGroup>\n</Project>\n";
        let (_, d) = run(project, "p.vcxproj", &opts());
        let at = |s: &str| d.iter().find(|d| d.message.contains(s)).unwrap();
        let o = at("AdditionalOptions");
        assert!(o.message.ends_with("for hipcc use `-O2`"), "{}", o.message);
        assert!(!o.message.contains("/wd 4819\"`"), "{}", o.message);
        let help = at("CodeGeneration").help.clone().unwrap_or_default();
        assert_eq!(help.matches("listed once").count(), 1, "{help}");
    }

    #[test]
    fn sources_libraries_and_directories_are_rewritten() {
        let (out, _) = run(PROJECT, "proj/app.vcxproj", &opts());
        assert!(out.starts_with('\u{feff}'));
        assert!(
            out.contains("<CudaCompile Include=\"src\\kernel.hip\" />\r\n"),
            "{out}"
        );
        assert!(out.contains("<CudaCompile Include=\"src\\other.hip\">\r\n"));
        assert!(out.contains("<ClInclude Include=\"src\\kernel.cuh\" />"));
        assert!(out.contains("<None Include=\"src\\*.hip\" />"));
        assert!(out.contains("commented.cu"), "comments stay");
        assert!(out.contains(
            "<AdditionalDependencies>amdhip64.lib;cublas.lib;kernel32.lib;%(AdditionalDependencies)</AdditionalDependencies>"
        ), "{out}");
        assert!(out.contains(
            "<AdditionalLibraryDirectories>$(HIP_PATH)\\lib;libs</AdditionalLibraryDirectories>"
        ));
        assert!(out.contains(
            "<AdditionalIncludeDirectories>..\\common;$(HIP_PATH)\\include;%(AdditionalIncludeDirectories)</AdditionalIncludeDirectories>"
        ));
        // Everything else is byte for byte the input, CRLF included.
        assert_eq!(out.matches("\r\n").count(), PROJECT.matches("\r\n").count());
        assert!(out.contains("<FastMath>true</FastMath>"));
    }

    #[test]
    fn the_cuda_build_is_reported_with_hipcc_flags() {
        let (_, d) = run(PROJECT, "proj/app.vcxproj", &opts());
        let vs: Vec<_> = d.iter().filter(|d| d.id == "B015").collect();
        let at = |needle: &str| {
            vs.iter()
                .find(|d| d.message.contains(needle))
                .unwrap_or_else(|| panic!("no B015 about {needle}: {vs:#?}"))
        };
        let props = at("CUDA 11.8.props");
        // (The literal's line continuations drop the indentation.)
        assert_eq!(
            (props.line, props.column, props.severity),
            (4, 1, Severity::Warning)
        );
        at("CUDA 11.8.targets");
        let arch = at("CodeGeneration");
        assert!(
            arch.message
                .contains("`--offload-arch=gfx90a --offload-arch=gfx1030`"),
            "{}",
            arch.message
        );
        assert_eq!(arch.line, 16);
        assert!(at("FastMath").message.contains("use `-ffast-math`"));
        // N-b: `/wd4819` is an MSVC option for nvcc's host pass, which clang reads as a file:
        // hipcc gets nothing in its place, and the help says why.
        let opts_diag = at("AdditionalOptions");
        assert!(
            opts_diag
                .message
                .contains("hipcc needs nothing in its place"),
            "{}",
            opts_diag.message
        );
        assert!(opts_diag
            .help
            .as_deref()
            .is_some_and(|h| h.contains("MSVC")));
        // S1: each reason once, however many architectures share it.
        let help = arch.help.clone().unwrap_or_default();
        assert_eq!(help.matches("listed once").count(), 1, "{help}");
        let items = at("`CudaCompile` items (here");
        assert!(
            items.message.contains("src\\Kernel.cu"),
            "{}",
            items.message
        );
        // `GPUDebugInfo` false stands for no flag; true (on the item) is -G, -g for hipcc.
        let g: Vec<_> = vs
            .iter()
            .filter(|d| d.message.contains("GPUDebugInfo"))
            .collect();
        assert_eq!(g.len(), 1);
        assert!(g[0].message.contains("use `-g`"));
        let libs: Vec<_> = d.iter().filter(|d| d.id == "B004").collect();
        assert!(libs
            .iter()
            .any(|d| d.message.contains("`cudart_static.lib` -> `amdhip64.lib`")));
        assert!(libs
            .iter()
            .any(|d| d.message.contains("`cuda.lib` dropped")));
        assert!(libs
            .iter()
            .any(|d| d.message.contains("`cublas.lib` is `hipblas`")
                && d.severity == Severity::Warning));
    }

    #[test]
    fn output_is_well_formed_xml() {
        let (out, _) = run(PROJECT, "proj/app.vcxproj", &opts());
        let py = std::process::Command::new("python3")
            .args(["-c", "import sys, xml.etree.ElementTree as E; E.fromstring(sys.stdin.buffer.read()); print('ok')"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn();
        let Ok(mut child) = py else {
            assert!(std::env::var_os("CI").is_none(), "python3 is needed in CI");
            println!("SKIPPED: python3 not found");
            return;
        };
        use std::io::Write;
        child
            .stdin
            .take()
            .unwrap()
            .write_all(out.as_bytes())
            .unwrap();
        let o = child.wait_with_output().unwrap();
        assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "ok", "{out}");
    }

    #[test]
    fn filters_follow_renames_only() {
        let src = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Project ToolsVersion=\"4.0\">\r\n  <ItemGroup>\r\n    <CudaCompile Include=\"src\\kernel.cu\">\r\n      <Filter>Source Files</Filter>\r\n    </CudaCompile>\r\n  </ItemGroup>\r\n</Project>\r\n";
        let (out, d) = run(src, "proj/app.vcxproj.filters", &opts());
        assert!(out.contains("Include=\"src\\kernel.hip\""));
        assert!(d.is_empty(), "{d:?}");
    }

    #[test]
    fn libraries_the_target_hip_lacks_are_errors_as_in_makefiles() {
        // cuBLASLt's hipBLASLt first shipped with ROCm 5.5: for HIP 5.2 the entry is an error
        // (B005), as `-lcublasLt` is in a Makefile; from 5.5 it is reported with its HIP name.
        let src = "<Project><ItemDefinitionGroup><Link><AdditionalDependencies>cudart.lib;CUBLASLT.lib;cublas.lib;nvml.lib</AdditionalDependencies></Link></ItemDefinitionGroup></Project>";
        let old = BuildOptions {
            hip_version: hipport_rules::Version::new(5, 2, 3),
            ..BuildOptions::default()
        };
        let (out, d) = run(src, "p/app.vcxproj", &old);
        assert!(
            out.contains("<AdditionalDependencies>amdhip64.lib;CUBLASLT.lib;cublas.lib;nvml.lib<"),
            "{out}"
        );
        let lt = d
            .iter()
            .find(|d| d.message.contains("CUBLASLT.lib"))
            .unwrap();
        assert_eq!((lt.id.as_str(), lt.severity), ("B005", Severity::Error));
        assert!(
            lt.message.contains("hipblaslt") && lt.message.contains("ROCm 5.5"),
            "{}",
            lt.message
        );
        let blas = d
            .iter()
            .find(|d| d.message.contains("`cublas.lib`"))
            .unwrap();
        assert_eq!(
            (blas.id.as_str(), blas.severity),
            ("B004", Severity::Warning)
        );
        let nvml = d.iter().find(|d| d.message.contains("`nvml.lib`")).unwrap();
        assert_eq!(nvml.id, "B005");
        // The Makefile gets the same verdict from the same function.
        let (_, md) = super::super::translate_build(
            super::super::BuildKind::Makefile,
            b"app: a.o\n\tg++ a.o -lcublasLt\n",
            "p/Makefile",
            &old,
        );
        assert!(md
            .iter()
            .any(|d| d.id == "B005" && d.message.contains("ROCm 5.5")));
        let new = BuildOptions {
            hip_version: hipport_rules::Version::new(6, 0, 0),
            ..BuildOptions::default()
        };
        let (_, d) = run(src, "p/app.vcxproj", &new);
        let lt = d
            .iter()
            .find(|d| d.message.contains("CUBLASLT.lib"))
            .unwrap();
        assert_eq!((lt.id.as_str(), lt.severity), ("B004", Severity::Warning));
        assert!(lt.message.contains("`hipblaslt` in HIP"), "{}", lt.message);
    }

    #[test]
    fn malformed_input_does_not_panic_or_get_edits_outside_values() {
        for src in [
            "<Project><ItemGroup><CudaCompile Include=\"src\\kernel.cu",
            "<Project <<< >>> </Project>",
            "<A B=x>",
            "</Link><AdditionalDependencies>cudart.lib</AdditionalDependencies>",
            "<!-- unterminated",
            "",
        ] {
            let (out, _) = run(src, "proj/app.vcxproj", &opts());
            assert!(!out.contains('<') || out.len() + 8 >= src.len());
        }
    }

    #[test]
    fn cuda_directories_in_each_spelling() {
        for e in [
            "$(CUDA_PATH)\\lib\\x64",
            "$(CUDA_PATH)/lib/x64",
            "$(CudaToolkitLibDir)",
            "$(CUDA_PATH_V11_8)\\lib\\x64\\",
        ] {
            assert!(is_cuda_dir(e, Dirs::Lib), "{e}");
        }
        assert!(is_cuda_dir("$(CUDA_PATH)\\include", Dirs::Include));
        assert!(!is_cuda_dir("$(CUDA_PATH)\\include", Dirs::Lib));
        assert!(!is_cuda_dir("libs", Dirs::Lib));
    }

    #[test]
    fn include_dirs_are_read_relative_to_the_project() {
        let mut got = Vec::new();
        include_dirs(PROJECT, &mut |p, _, _| got.push(p.to_string()));
        assert_eq!(got, ["../common"]);
        assert_eq!(
            super::super::include_dirs(
                super::super::BuildKind::VisualStudio,
                PROJECT.as_bytes(),
                "proj/app.vcxproj"
            ),
            ["common"]
        );
    }
}
