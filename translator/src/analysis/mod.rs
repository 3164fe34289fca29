//! Hazard analysis: porting problems that renaming cannot fix, found on the ORIGINAL CUDA tree.
//!
//! Sits above [`crate::parse`] and [`crate::diag`]: it reads a tree-sitter-cuda tree, never
//! rewrites it, and returns [`Diagnostic`]s (with optional autofix [`crate::edit::Edit`]s on the
//! original bytes). Each rule has a stable `H###` ID described in [`DIAGS`]; `hipport explain`
//! shows its page. Macro bodies are opaque text to tree-sitter, so each `#define` body is parsed
//! again on its own and checked by the same rules, with positions mapped back. Python files get
//! a small textual pass ([`analyze_python`]).

mod catalog;
mod eval;
mod last_error;
mod lds;
mod merge;
mod min_max;
mod partial_waves;
pub(crate) use partial_waves::ONE_WARP_KEPT;
mod python;
pub(crate) use python::cuda_only_spans;
mod row_warps;
mod rtc;
mod rules;
mod suppress;
mod tree_defines;
pub use tree_defines::TreeDefines;
pub(crate) use tree_defines::{cuda_macro_guards, hipcc_dead_branches, own_switches, tested_names};

use crate::parse::{Field, FIELDS};
use std::collections::{HashMap, HashSet};
use std::ops::Range;
use std::rc::Rc;
use std::sync::LazyLock;
use std::time::Duration;

use hipport_rules::Version;
use tree_sitter::{Node, Tree};

use crate::diag::{DiagInfo, Diagnostic, LineIndex, Severity};
use crate::edit::Edit;
use crate::parse::{Flat, KindName, KindTable};

pub use catalog::DIAGS;
pub(crate) use eval::{platform_macro, CUDA_ONLY_MACROS, LIBRARY_VERSION_MACROS};
pub use merge::merge_restated;
pub use python::analyze_python;
pub(crate) use python::rocm_define_macros;
pub(crate) use rules::warp_size_name;
pub use rules::{built_for_amd, h040_module_file};
pub use suppress::{apply_suppressions, apply_suppressions_in, DIAGS as SUPPRESSION_DIAGS};

/// A macro the HIP build defines (`--define USE_ROCM`, `-DNAME=2`), or leaves undefined
/// (`--undefine USE_ROCM`), so that preprocessor branches it decides are judged as hipcc will
/// compile them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Define {
    /// The macro's name.
    pub name: String,
    /// Its value in `#if`: 1 when none is given, `None` for a value that is not an integer
    /// (`-D TORCH_EXTENSION_NAME=my_ext`: defined, but `#if` on it stays undecided).
    pub value: Option<i64>,
    /// `-U NAME`: the build does not define the name, whatever hipcc or PyTorch would.
    pub undefined: bool,
}

impl std::fmt::Display for Define {
    /// `NAME` for the value 1 given by default (and for an undefined name), else `NAME=VALUE`
    /// (`NAME=?` for one that is not an integer).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.value {
            _ if self.undefined => write!(f, "{}", self.name),
            Some(1) => write!(f, "{}", self.name),
            Some(v) => write!(f, "{}={v}", self.name),
            None => write!(f, "{}=?", self.name),
        }
    }
}

impl Define {
    /// Reads `NAME` or `NAME=VALUE`, as `-D` takes them; the error says why not.
    pub fn parse(text: &str) -> Result<Define, String> {
        let (name, value) = match text.split_once('=') {
            Some((n, v)) => {
                let v = v.trim();
                let value = eval::parse_int(v)
                    .filter(|&(v, _)| i64::try_from(v).is_ok())
                    .map(|(v, _)| v as i64);
                (n.trim(), value)
            }
            None => (text.trim(), Some(1)),
        };
        let ident = name
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphabetic() || b == b'_')
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if !ident {
            return Err(format!("`{text}`: `{name}` is not a macro name"));
        }
        Ok(Define {
            name: name.to_string(),
            value,
            undefined: false,
        })
    }

    /// Reads `NAME` as `-U` takes it: a name the build leaves undefined.
    pub fn parse_undefine(text: &str) -> Result<Define, String> {
        if text.contains('=') {
            return Err(format!("`{text}`: -U takes a macro name without a value"));
        }
        Ok(Define {
            value: None,
            undefined: true,
            ..Define::parse(text)?
        })
    }
}

/// What the analysis targets and whether it computes autofixes.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The HIP release the port targets; decides, e.g., whether `_sync` warp builtins exist.
    pub hip_version: Version,
    /// Attach autofix edits to diagnostics (left empty otherwise).
    pub fix: bool,
    /// Macros the HIP build defines.
    pub defines: Vec<Define>,
}

impl Default for AnalysisOptions {
    /// HIP 6.4 (the newest release the rules date in full), no fixes.
    fn default() -> Self {
        AnalysisOptions {
            hip_version: Version::new(6, 4, 0),
            fix: false,
            defines: Vec::new(),
        }
    }
}

impl AnalysisOptions {
    /// Whether the target HIP has the 64-bit-mask `_sync` warp builtins (6.2 and newer).
    pub fn has_sync_builtins(&self) -> bool {
        self.hip_version >= Version::new(6, 2, 0)
    }
}

/// Analyzes one C, C++ or CUDA file; `tree` must be the tree-sitter-cuda parse of `src`.
///
/// Diagnostics come back sorted by position, one per (rule, position).
pub fn analyze(src: &[u8], tree: &Tree, file: &str, opts: &AnalysisOptions) -> Vec<Diagnostic> {
    let flat = Flat::of_kinds(tree.root_node(), &ANALYZED_KINDS);
    analyze_flat(src, tree, &flat, &LineIndex::new(src), file, opts)
}

/// Whether the analysis looks at nodes of kind `id` when it walks a tree (a node list for
/// [`analyze_flat`] must hold at least these).
pub fn reacts_to(id: u16) -> bool {
    KINDS.reacts_to(id) || rules::GROUPS.reacts_to(id)
}

/// The kinds of [`reacts_to`].
static ANALYZED_KINDS: LazyLock<crate::parse::KindSet> =
    LazyLock::new(|| crate::parse::KindSet::new(reacts_to));

/// [`analyze`] given the tree's nodes in pre-order (all of them, or at least those of the kinds
/// in [`reacts_to`]) and the file's line index as well (the translator makes both once for its
/// own pass and this one).
pub fn analyze_flat(
    src: &[u8],
    tree: &Tree,
    flat: &Flat,
    index: &LineIndex,
    file: &str,
    opts: &AnalysisOptions,
) -> Vec<Diagnostic> {
    analyze_flat_with(src, tree, flat, index, file, opts, Included::default())
}

/// A macro that a project header the file includes defines as `warpSize` for the HIP build
/// (`#define WARP_SIZE warpSize` under `USE_ROCM` in vLLM's `cuda_compat.h`): H002 reads its
/// uses in the including file as uses of `warpSize`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeaderAlias {
    /// The macro's name.
    pub name: String,
    /// The header that defines it, relative to the input root.
    pub header: String,
    /// The line of the definition in that header (1-based).
    pub line: usize,
    /// Where the `#include` that brings it in starts in the including file: uses before it
    /// do not see it.
    pub after: usize,
    /// Whether the header fixes it at 32 (`constexpr int WARP_SIZE = 32;`) rather than
    /// defining it as `warpSize`: H001 then judges the including file's uses (R22-e).
    pub fixed_32: bool,
}

/// How a device function of a project header treats a 64-lane wavefront, with the functions of
/// that header it calls: H001 reads a call of it from an including file as it reads a call of a
/// function of the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SegmentReach {
    /// Every shuffle passes a width of 32 or less, and there are no votes: it works on 32-lane
    /// segments.
    Segments,
    /// Segments, some of them kept only by a small xor distance.
    XorSegments,
    /// A shuffle over the whole wavefront, a vote, or a read of the wavefront's size.
    Wavefront,
}

/// A device function a project header defines that does warp-level work (see
/// [`SegmentReach`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HeaderFunction {
    /// The function's name.
    pub name: String,
    /// How it treats a 64-lane wavefront.
    pub reach: SegmentReach,
    /// Whether it only hands parameters on as the width or lane distance of its shuffles, so
    /// that a call's wavefront depends on what the caller passes.
    pub shuffle_wrapper: Option<ShuffleWrapper>,
    /// Whether it (or a function of its file it calls) runs `_sync` builtins with the full
    /// mask, which the port widens to 64 lanes: a caller's branch that only the first 32 threads
    /// take then traps at HIP 6.2+ (realuser24 R24-f, qsim's `WarpReduce`).
    pub full_mask_sync: bool,
}

/// A device function whose warp-level work is shuffles that take their width, or (xor shuffles
/// without a width) their lane distance, from its parameters: `shfl_xor(float x, int delta) {
/// return __shfl_xor_sync(~0u, x, delta); }` (FlashInfer), `SHFL_XOR(T v, int m, int width =
/// warpSize)` (PyTorch-Encoding). A call keeps to 32-lane segments where it passes a width of 32
/// or less, or an xor distance below 32 to a wrapper without a width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ShuffleWrapper {
    /// The position of the parameter that holds the width, if the shuffles take one.
    pub width: Option<usize>,
    /// The position of the parameter that holds the lane distance of xor shuffles without a
    /// width.
    pub xor_distance: Option<usize>,
    /// Whether the shuffles are `_sync` ones (HIP 6.2's mask check applies).
    pub sync: bool,
    /// The width parameter's default where it has one: `Some(None)` for `warpSize` (a call
    /// that leaves it out shuffles as the builtin without a width does), `Some(Some(w))` for a
    /// constant.
    pub width_default: Option<Option<i64>>,
    /// For up, down and xor shuffles, the parameter that holds the lane distance, with the
    /// builtin's direction (`"up"`, `"down"`, `"xor"`).
    pub distance: Option<(usize, &'static str)>,
}

/// What the project headers a file includes tell its analysis (found by
/// [`crate::header_facts`]).
#[derive(Clone, Copy, Default)]
pub struct Included<'h> {
    /// Macros defined as `warpSize` for the HIP build (H002).
    pub warp_aliases: &'h [HeaderAlias],
    /// Their device functions that do warp-level work (H001's segment code): asked for only
    /// where the file has an H001 finding.
    pub functions: Option<&'h dyn Fn() -> Vec<HeaderFunction>>,
    /// Macros they define from a test of the platform (`MY_HIP` from `__HIPCC__`), as defines
    /// for the file's own branches (see [`HipccView::decided`]).
    pub defines: &'h [Define],
    /// Their qualifier macros, as `#define` lines the file is parsed with (see
    /// [`crate::parse::parse_with_qualifiers`]).
    pub qualifiers: &'h [u8],
    /// The integer constants they fix (`static const int tblock_size = 32;`), with their
    /// values: the block sizes of the file's launches that name one (realuser48 R48-c).
    pub constants: &'h [(String, i64)],
}

/// [`analyze_flat`] for a file that includes project headers which define macros as
/// `warpSize` or device functions that do warp-level work (`included`).
pub fn analyze_flat_with(
    src: &[u8],
    tree: &Tree,
    flat: &Flat,
    index: &LineIndex,
    file: &str,
    opts: &AnalysisOptions,
    included: Included,
) -> Vec<Diagnostic> {
    debug_assert!(flat.nodes.first() == Some(&tree.root_node()));
    let mut out = Vec::new();
    let macros = {
        let mut a = Analyzer::new(src, file, opts, index, None, &mut out);
        a.header_aliases = included.warp_aliases;
        a.header_functions = included.functions;
        a.header_constants = included.constants;
        a.collect(flat);
        a.check(flat);
        rules::cluster_dims(&mut a);
        a.finish();
        // The bodies of macros defined in branches hipcc skips (`#ifndef USE_ROCM`).
        let skipped: HashMap<usize, String> = a
            .macros
            .values()
            .flatten()
            .filter_map(|m| m.body.as_ref())
            .filter_map(|b| {
                let root = tree.root_node();
                let n = root.descendant_for_byte_range(b.start, b.start)?;
                let why = a.skip_reason(n).or_else(|| {
                    let m = a
                        .macros
                        .values()
                        .flatten()
                        .find(|m| m.body_range.start == b.start)?;
                    replaced_for_hipcc(&a, root, m)
                })?;
                Some((b.start, why))
            })
            .collect();
        let constants = file_constants(&a);
        let segments = segment_macros(&a);
        let segment_uses = row_warps::segment_macro_uses(&mut a);
        // The bodies of macros defined in a branch for HIP that hipcc takes, and used in no
        // function of this file: where this file uses one, its uses say whether the width fits
        // ([`segment_macros`]; a `warpSize` reduction through it keeps the warning, verify12
        // REG-3).
        let hip_branch: HashSet<usize> = a
            .macros
            .values()
            .flatten()
            .filter(|m| m.live == Some(true))
            .filter(|m| {
                !a.funcs.iter().any(|f| {
                    code_words(a.text(f.node).as_bytes(), &m.name)
                        .next()
                        .is_some()
                })
            })
            .filter_map(|m| m.body.as_ref())
            .filter(|b| {
                tree.root_node()
                    .descendant_for_byte_range(b.start, b.start)
                    .is_some_and(|n| in_hip_branch(src, n))
            })
            .map(|b| b.start)
            .collect();
        let mut macros = std::mem::take(&mut a.macros);
        if !constants.is_empty() {
            Rc::make_mut(&mut macros).constants = constants;
        }
        (macros, skipped, segments, hip_branch, segment_uses)
    };
    let (macros, skipped, segments, hip_branch, segment_uses) = macros;
    // Macro bodies: parse each again as the body of a function, and run the same rules on it.
    // Whether the file does warp-level work (read once, and only for a file with macro bodies).
    let mut file_warp_code = None;
    for m in macros.values().flatten() {
        let Some(body) = &m.body else { continue };
        let file_warp_code = *file_warp_code.get_or_insert_with(|| rules::has_warp_markers(src));
        let mut a = Analyzer::new(&body.text, file, opts, index, Some(body.origin()), &mut out);
        a.macros = Rc::clone(&macros);
        a.in_macro = Some(m.name.clone());
        a.macro_skipped = skipped.get(&body.start).cloned();
        a.macro_in_segments = segments.contains(&body.start);
        a.macro_segment_uses = segment_uses.contains(&body.start);
        a.macro_hip_branch = hip_branch.contains(&body.start);
        a.file_warp_code = file_warp_code;
        let body_flat = Flat::of_kinds(body.tree.root_node(), &ANALYZED_KINDS);
        a.collect(&body_flat);
        a.check(&body_flat);
        a.finish();
    }
    out.sort_by(|a, b| a.offset.cmp(&b.offset).then(a.id.cmp(&b.id)));
    out.dedup_by(|b, a| a.offset == b.offset && a.id == b.id);
    out
}

/// Whether `n` sits in a conditional branch whose directive tests for HIP or ROCm by name
/// (`#ifdef USE_ROCM`, `#if defined(__HIP_PLATFORM_AMD__)`, the `#else` of `#ifndef
/// USE_ROCM`): code its authors wrote for HIP (read where hipcc is known to compile it).
fn in_hip_branch(src: &[u8], n: Node) -> bool {
    crate::parse::ancestors(n).into_iter().any(|x| {
        let test = match x.kind_name() {
            "preproc_if" | "preproc_elif" => x.field(FIELDS.condition),
            "preproc_ifdef" | "preproc_elifdef" => x.field(FIELDS.name),
            _ => None,
        };
        let Some(t) = test.and_then(|t| std::str::from_utf8(&src[t.byte_range()]).ok()) else {
            return false;
        };
        let up = t.to_ascii_uppercase();
        if !(up.contains("HIP") || up.contains("ROCM")) || up.contains("__HIP_PLATFORM_HCC__") {
            return false;
        }
        // The side the test names HIP on: its own branch, or the `#else` of a negated test.
        let negated = x.child(0).is_some_and(|d| {
            std::str::from_utf8(&src[d.byte_range()]).is_ok_and(|d| d.ends_with("ifndef"))
        }) || t.trim_start().starts_with('!');
        let in_alt = x
            .field(FIELDS.alternative)
            .is_some_and(|alt| alt.byte_range().contains(&n.start_byte()));
        in_alt == negated
    })
}

/// The bodies (by start offset) of the file's macros that shuffle with a width of 32 and are
/// used only in device functions that place lanes within 32 (`lane = t & 31`, `t % 32`) or
/// number rows of 32: the width is those functions' own 32-lane segment, as where the shuffle
/// is written in the function (pytorch_sparse's `#ifdef USE_ROCM` `SHFL_DOWN_SYNC(mask, v, d)
/// __shfl_down(v, d, 32)`, realuser29 R29-1).
fn segment_macros(a: &Analyzer) -> HashSet<usize> {
    let mut out = HashSet::new();
    for m in a.macros.values().flatten() {
        let Some(body) = &m.body else { continue };
        let text = &body.text;
        if memchr::memmem::find(text, b"__shfl").is_none()
            || memchr::memmem::find(text, b"32").is_none()
        {
            continue;
        }
        let mut used = false;
        let all = a.funcs.iter().filter(|f| f.device).all(|f| {
            let t = a.text(f.node);
            if code_words(t.as_bytes(), &m.name).next().is_none() {
                return true;
            }
            used = true;
            f.node.field(FIELDS.body).is_some_and(|b| {
                rules::within_32(a.text(b)) || row_warps::row_index_of_32(a, b).is_some()
            })
        });
        if used && all {
            out.insert(body.start);
        }
    }
    out
}

/// The file-wide constants with an integer value (`const int SHARED_MEM = 96 * 1024;`, the only
/// file-wide declaration of the name) that the file's macro bodies name, with their values.
/// Only bodies that launch or configure kernels are read (the shared memory a launch macro
/// requests, H023): looking every name of every body up costs a tenth of the analysis.
fn file_constants(a: &Analyzer) -> HashMap<String, i64> {
    let mut out = HashMap::new();
    let mut seen = HashSet::new();
    let launches = |t: &[u8]| {
        memchr::memmem::find(t, b"<<<").is_some()
            || memchr::memmem::find(t, b"FuncSetAttribute").is_some()
            || memchr::memmem::find(t, b"LaunchKernel").is_some()
    };
    let bodies = a.macros.values().flatten().filter_map(|m| m.body.as_ref());
    for body in bodies.filter(|b| launches(&b.text)) {
        for id in crate::lexer::identifiers(&body.text) {
            let Ok(name) = std::str::from_utf8(&body.text[id]) else {
                continue;
            };
            if !seen.insert(name.to_string()) || a.macros.get(name).is_some() {
                continue;
            }
            let Some(decls) = a.decls.get(name) else {
                continue;
            };
            let mut file_wide = decls
                .iter()
                .filter(|d| d.scope.start == 0 && d.scope.end >= a.src.len());
            if let (Some(d), None) = (file_wide.next(), file_wide.next()) {
                if let Some(v) = d
                    .init
                    .filter(|_| d.constant && !d.pointer)
                    .and_then(|i| a.eval(i))
                {
                    out.insert(name.to_string(), v);
                }
            }
        }
    }
    out
}

/// The object-like macros a file (a project header) defines as `warpSize` in a branch hipcc may
/// compile, each with the offset of its `#define`, as H002 finds them within one file;
/// `tree` must be the tree-sitter-cuda parse of `src`.
pub fn warp_size_aliases(src: &[u8], tree: &Tree, opts: &AnalysisOptions) -> Vec<(String, usize)> {
    let flat = Flat::of_kinds(tree.root_node(), &ANALYZED_KINDS);
    let index = LineIndex::new(src);
    let mut out = Vec::new();
    let mut a = Analyzer::new(src, "", opts, &index, None, &mut out);
    a.collect(&flat);
    std::mem::take(&mut a.warp_size_aliases)
}

/// The device functions a file (a project header) defines that do warp-level work, and how
/// each treats a 64-lane wavefront with the functions of the file it calls.
pub fn segment_functions(src: &[u8], tree: &Tree, opts: &AnalysisOptions) -> Vec<HeaderFunction> {
    let flat = Flat::of_kinds(tree.root_node(), &ANALYZED_KINDS);
    let index = LineIndex::new(src);
    let mut out = Vec::new();
    let mut a = Analyzer::new(src, "", opts, &index, None, &mut out);
    a.collect(&flat);
    a.check(&flat);
    let mut out = row_warps::function_reaches(&a);
    // Its function-like macros that are one width-32 shuffle (pytorch_sparse's ROCm
    // `SHFL_DOWN` in utils.cuh) keep to 32-lane segments as such a function does.
    for name in a.macros.by_name.keys() {
        if !out.iter().any(|f| &f.name == name) && row_warps::width32_shuffle_macro(&a, name) {
            out.push(HeaderFunction {
                name: name.clone(),
                reach: SegmentReach::Segments,
                shuffle_wrapper: None,
                full_mask_sync: false,
            });
        }
    }
    out
}

/// A preprocessor branch that hipcc never compiles, and the directive that decides it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedBranch {
    /// Where the deciding directive starts (`#if`, `#elif`, `#ifdef`, ...).
    pub directive: usize,
    /// The directive's first line as written, e.g. `#if __CUDA_ARCH__ >= 800`.
    pub text: String,
    /// Whether the directive's condition holds under hipcc: true when hipcc takes an earlier
    /// branch of the chain (so this `#elif`/`#else` is skipped), false when the branch's own
    /// condition is false.
    pub condition_holds: bool,
}

/// How hipcc sees a file's preprocessor branches, judged as H010/H011 judge conditions: the
/// CUDA-only macros are undefined, `__HIP_PLATFORM_AMD__` and friends are defined, the build's
/// `defines` count, and so do the file's own macros where hipcc surely compiles their
/// definitions (`#if defined(__HIPCC__)` around `#define MY_HIP 1`) or surely skips every one.
/// A definition whose branch is undecided, or a name the file `#undef`s, decides nothing.
pub struct HipccView {
    macros: Macros,
}

impl HipccView {
    /// Reads the file's macro definitions in order (each judged with those before it).
    pub fn new(src: &[u8], root: Node, defines: &[Define], hip: Version) -> HipccView {
        let mut macros = Macros {
            build: build_defines(src, defines),
            platform_hcc: hip < eval::PLATFORM_HCC_REMOVED,
            undefs: undefined_names(src),
            ..Macros::default()
        };
        if memchr::memmem::find(src, b"define").is_some() {
            crate::parse::walk_subtree(root, |n| {
                let kind = n.kind_name();
                if kind == "preproc_def" || kind == "preproc_function_def" {
                    if let Some(m) = plain_macro(src, n, &macros) {
                        macros.by_name.entry(m.name.clone()).or_default().push(m);
                    }
                    return crate::parse::Visit::Skip;
                }
                crate::parse::Visit::Descend
            });
        }
        HipccView { macros }
    }

    /// The object-like macros the file defines in conditional code that hipcc's view decides
    /// (`#if defined(__HIPCC__)` / `#define MY_HIP 1`), and the CUDA-only macros it defines
    /// anywhere (a HIP shim's `#define __CUDA_ARCH__ 1300`), as the defines (or `-U`s, where
    /// hipcc skips every definition) they amount to for a file that includes this one.
    pub fn decided(&self) -> Vec<Define> {
        let mut out: Vec<Define> = Vec::new();
        for (name, defs) in &self.macros.by_name {
            let cuda_only = eval::CUDA_ONLY_MACROS.contains(&name.as_str())
                || eval::LIBRARY_VERSION_MACROS.contains(&name.as_str());
            if defs.iter().any(|d| d.function_like)
                || !(cuda_only || defs.iter().any(|d| d.conditional))
            {
                continue;
            }
            match self.macros.defined_here(name) {
                Some(true) => out.push(Define {
                    name: name.clone(),
                    value: defs.iter().find(|d| d.live == Some(true)).and_then(|d| {
                        if d.body_range.is_empty() {
                            Some(1)
                        } else {
                            d.value
                        }
                    }),
                    undefined: false,
                }),
                Some(false) => out.push(Define {
                    name: name.clone(),
                    value: None,
                    undefined: true,
                }),
                None => {}
            }
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out
    }

    /// Whether the file has a definition of `name` that hipcc compiles or may compile (its
    /// branch is taken or undecided).
    pub fn may_define(&self, name: &str) -> bool {
        self.macros
            .by_name
            .get(name)
            .is_some_and(|defs| defs.iter().any(|d| d.live != Some(false)))
    }

    /// The branch hipcc skips at byte `offset` of the file (whose tree's root is `root`), if any.
    pub fn skips(&self, src: &[u8], root: Node, offset: usize) -> Option<SkippedBranch> {
        let node = root.descendant_for_byte_range(offset, offset)?;
        let (directive, condition_holds) = rules::skipping_directive(node, src, &self.macros)?;
        Some(SkippedBranch::new(src, directive, condition_holds))
    }
}

/// Definition `n` as [`HipccView`] reads it: its name, whether hipcc compiles it, and, where
/// it surely does, the value of a body that is one integer literal.
fn plain_macro(src: &[u8], n: Node, macros: &Macros) -> Option<Macro> {
    let name = std::str::from_utf8(&src[n.field(FIELDS.name)?.byte_range()]).ok()?;
    let function_like = n.kind_name() == "preproc_function_def";
    let value_node = n.field(FIELDS.value);
    let body_range = value_node.map_or(n.end_byte()..n.end_byte(), |v| v.byte_range());
    let live = rules::hip_live(n, src, macros);
    // A default (`#ifndef N` / `#define N 0`) is no value: a build may define the name otherwise.
    let value = value_node
        .filter(|_| !function_like && live == Some(true))
        .and_then(|v| int_literal_body(&src[v.byte_range()]))
        .map(|(v, _)| v as i64);
    Some(Macro {
        name: name.to_string(),
        value,
        full_mask_32: false,
        body_range,
        body: None,
        function_like,
        live,
        conditional: rules::under_condition(n, src, macros),
    })
}

/// Why hipcc expands another body in place of macro `m`'s: after it comes an `#undef` of its
/// name that hipcc compiles under a condition (`#if defined(__HIP_PLATFORM_AMD__)`), then a
/// definition hipcc compiles (LAMMPS redefines its texture fetches as loads so; realuser10 Y1).
fn replaced_for_hipcc(a: &Analyzer, root: Node, m: &Macro) -> Option<String> {
    if !a.macros.undefs.contains(&m.name) {
        return None;
    }
    let later = a
        .macros
        .by_name
        .get(&m.name)?
        .iter()
        .find(|d| d.body_range.start > m.body_range.end && d.live == Some(true))?;
    let between = &a.src[m.body_range.end..later.body_range.start];
    let undef = undefs_of(between, &m.name).next()? + m.body_range.end;
    let node = root.descendant_for_byte_range(undef, undef)?;
    if rules::hip_live(node, a.src, &a.macros) != Some(true)
        || !rules::under_condition(node, a.src, &a.macros)
    {
        return None;
    }
    let line = a.index.position(undef).0;
    Some(format!(
        "hipcc reads the `#undef {}` on line {line} and expands the definition after it",
        m.name
    ))
}

impl SkippedBranch {
    fn new(src: &[u8], directive: Node, condition_holds: bool) -> SkippedBranch {
        let rest = &src[directive.start_byte()..];
        let line = &rest[..memchr::memchr(b'\n', rest).unwrap_or(rest.len())];
        SkippedBranch {
            directive: directive.start_byte(),
            text: String::from_utf8_lossy(line).trim_end().to_string(),
            condition_holds,
        }
    }

    /// Why hipcc skips the branch, as reports say it: "`#ifndef USE_ROCM` on line 19 is false
    /// under hipcc" (`index` is the file's).
    pub fn reason(&self, index: &LineIndex) -> String {
        let line = index.position(self.directive).0;
        let why = if self.condition_holds {
            "is true under hipcc, which compiles an earlier branch instead"
        } else {
            "is false under hipcc"
        };
        format!("`{}` on line {line} {why}", self.text)
    }
}

/// The macros the build defines for a file: `defines`, and `USE_ROCM` where the file includes
/// PyTorch headers (it is built as a PyTorch extension, whose ROCm build defines it).
fn build_defines(src: &[u8], defines: &[Define]) -> Vec<Define> {
    let mut build = defines.to_vec();
    if includes_torch(src) && !build.iter().any(|d| d.name == "USE_ROCM") {
        build.push(Define {
            name: "USE_ROCM".into(),
            value: Some(1),
            undefined: false,
        });
    }
    build
}

/// Whether the file includes PyTorch headers.
fn includes_torch(src: &[u8]) -> bool {
    [
        &b"<torch/"[..],
        b"\"torch/",
        b"<ATen/",
        b"\"ATen/",
        b"<c10/",
        b"\"c10/",
    ]
    .iter()
    .any(|p| memchr::memmem::find(src, p).is_some())
}

/// Analyzes one file by name: `.py` files with [`analyze_python`], everything else parsed with
/// tree-sitter-cuda (within `budget`) and [`analyze`]d; suppression comments are applied.
pub fn analyze_source(
    src: &[u8],
    file: &str,
    opts: &AnalysisOptions,
    budget: Duration,
) -> Result<Vec<Diagnostic>, crate::parse::ParseError> {
    let mut diags = if file.ends_with(".py") {
        analyze_python(src, file)
    } else {
        let tree = crate::parse::parse(src, budget)?;
        analyze(src, &tree, file, opts)
    };
    apply_suppressions_in(src, file, &mut diags);
    Ok(diags)
}

/// Whether an expression is a full lane mask in any spelling: `0xffffffff`, `0xFFFFFFFFu`,
/// `~0`, `~0u`, `-1`, `~0ull`, `0xffffffffffffffffull`, casts of those. The translator's
/// `_sync` -> non-`_sync` rewrite for HIP < 6.2 and this analysis must agree on it: hazard H003
/// stays silent on exactly these masks when targeting HIP < 6.2.
pub fn is_full_lane_mask(expr: Node, src: &[u8]) -> bool {
    eval::mask_value(expr, src).is_some_and(|m| m.is_full_32() || m.is_full_64())
}

/// [`is_full_lane_mask`] where the mask may be the name of an object-like macro of the file
/// (`#define FULL_MASK 0xffffffff`), given by its body text in `defines`.
pub fn is_full_lane_mask_with(expr: Node, src: &[u8], defines: &HashMap<String, String>) -> bool {
    mask_with(expr, src, defines)
        .or_else(|| returned_mask(expr, src))
        .is_some_and(|m| m.is_full_32() || m.is_full_64())
}

/// The mask a call without arguments of a function of the file returns when the function's
/// body is one `return` of a mask constant (QUDA's `__device__ constexpr unsigned int
/// warp_converged_mask() { return 0xffffffff; }`, realuser16 T-c): a call the translator may
/// drop with the mask, since such a body has no effects. Every definition of the name must agree.
fn returned_mask(expr: Node, src: &[u8]) -> Option<eval::Mask> {
    let mut e = expr;
    while e.kind_name() == "parenthesized_expression" {
        e = e.named_child(0)?;
    }
    if e.kind_name() != "call_expression"
        || e.field(FIELDS.arguments)
            .is_none_or(|a| crate::parse::named_children(a).next().is_some())
    {
        return None;
    }
    let mut f = e.field(FIELDS.function)?;
    while f.kind_name() == "qualified_identifier" {
        f = f.field(FIELDS.name)?;
    }
    if f.kind_name() != "identifier" {
        return None;
    }
    let name = &src[f.byte_range()];
    let root = crate::parse::ancestors(e).into_iter().last()?;
    let mut found: Option<Option<eval::Mask>> = None;
    crate::parse::walk_subtree(root, |x| match x.kind_name() {
        "function_definition" => {
            let mut d = x.field(FIELDS.declarator);
            while let Some(n) = d.filter(|n| n.kind_name() != "function_declarator") {
                d = n.field(FIELDS.declarator);
            }
            let named = d
                .and_then(|d| d.field(FIELDS.declarator))
                .is_some_and(|n| &src[n.byte_range()] == name);
            if named {
                let body = x.field(FIELDS.body);
                let statements: Vec<Node> = body
                    .map(|b| crate::parse::named_children(b).collect())
                    .unwrap_or_default();
                let value = match statements.as_slice() {
                    [r] if r.kind_name() == "return_statement" => {
                        r.named_child(0).and_then(|v| eval::mask_value(v, src))
                    }
                    _ => None,
                };
                let same = found.is_none_or(|f| f.is_some() && f == value);
                found = Some(value.filter(|_| same));
                if found.is_some_and(|f| f.is_none()) {
                    return crate::parse::Visit::Stop;
                }
            }
            crate::parse::Visit::Skip
        }
        // Code inside functions and expressions defines no function.
        "compound_statement" | "expression_statement" | "declaration" => crate::parse::Visit::Skip,
        _ => crate::parse::Visit::Descend,
    });
    found.flatten()
}

/// Whether a mask (or the object-like macro of the file it names) is the full mask of 32 lanes
/// in any spelling, `0xffffffff`, `~0u`, `-1`, `uint32_t(-1)`, `0xffffffffull`: a 32-lane warp's
/// "every lane", which the translator widens to the 64-bit full mask for HIP's `_sync` builtins
/// (and which H003 therefore leaves to it).
pub fn is_narrow_full_mask_with(expr: Node, src: &[u8], defines: &HashMap<String, String>) -> bool {
    mask_with(expr, src, defines).is_some_and(|m| m.is_full_32())
}

/// The mask an expression denotes, or the body of the object-like macro it names.
fn mask_with(expr: Node, src: &[u8], defines: &HashMap<String, String>) -> Option<eval::Mask> {
    let mut e = expr;
    while e.kind_name() == "parenthesized_expression" {
        e = e.named_child(0)?;
    }
    if e.kind_name() != "identifier" {
        return eval::mask_value(expr, src);
    }
    let name = std::str::from_utf8(&src[e.byte_range()]).unwrap_or("");
    let body = define_value(defines, name)?;
    let text = format!("void __hipport_macro_body__(void) {{\n{body}\n;}}\n");
    let tree = crate::parse::parse(text.as_bytes(), Duration::from_secs(2)).ok()?;
    let m = macro_expression(tree.root_node())?;
    eval::mask_value(m, text.as_bytes())
}

/// The mask constant expression `text` denotes, parsed on its own: its bits, and whether its
/// type is 64-bit (`(0xffffffffu)` is `(0xffff_ffff, false)`, `(~0ull)` is `(u64::MAX, true)`);
/// `None` where it is not made of literals, `~`, `-`, casts, parentheses and the bit operators
/// between them ([`folded_mask`]) only (the text of a macro call after expansion, V17-b).
pub fn text_mask(text: &[u8]) -> Option<(u64, bool)> {
    if text.is_empty()
        || text.len() > 4096
        || text.iter().any(|&b| matches!(b, b';' | b'{' | b'}' | b'#'))
    {
        return None;
    }
    let mut wrapped = b"void __hipport_macro_body__(void) {\n".to_vec();
    wrapped.extend_from_slice(text);
    wrapped.extend_from_slice(b"\n;}\n");
    let tree = crate::parse::parse(&wrapped, Duration::from_secs(1)).ok()?;
    if tree.root_node().has_error() {
        return None;
    }
    let m = folded_mask(macro_expression(tree.root_node())?, &wrapped, 0)?;
    Some((m.value, m.wide))
}

/// Whether `n` is (in parentheses) an integer literal of an unsigned type: a `u` suffix, or a
/// hexadecimal or octal value (whose type is unsigned where its top bit is set).
fn unsigned_literal(n: Node, src: &[u8]) -> bool {
    let mut e = n;
    while e.kind_name() == "parenthesized_expression" {
        match e.named_child(0) {
            Some(c) => e = c,
            None => return false,
        }
    }
    let t = &src[e.byte_range()];
    e.kind_name() == "number_literal"
        && (t.iter().any(|b| matches!(b, b'u' | b'U')) || t.len() > 1 && t[0] == b'0')
}

/// The mask constant expression `n` denotes, as [`eval::mask_value`] reads it, with the bit
/// operators `|`, `&`, `^`, `<<` and `>>` between such constants folded (`(0xffff0000u) |
/// (0x0000ffffu)`, what `MASK2(0xffff0000u, 0x0000ffffu)` expands to; verify18 V18-d). A 32-bit
/// operand with its top bit set beside a 64-bit one gives `None`: whether it is sign-extended
/// depends on a signedness this does not follow.
fn folded_mask(n: Node, src: &[u8], depth: u32) -> Option<eval::Mask> {
    if depth > 64 {
        return None;
    }
    let bits = |v: u64, wide: bool| if wide { v } else { v & 0xffff_ffff };
    match n.kind_name() {
        "parenthesized_expression" => folded_mask(n.named_child(0)?, src, depth + 1),
        "unary_expression" => {
            let op = &src[n.field(FIELDS.operator)?.byte_range()];
            let inner = folded_mask(n.field(FIELDS.argument)?, src, depth + 1)?;
            let value = match op {
                b"~" => !inner.value,
                b"-" => inner.value.wrapping_neg(),
                b"+" => inner.value,
                _ => return None,
            };
            Some(eval::Mask {
                value: bits(value, inner.wide),
                wide: inner.wide,
            })
        }
        "binary_expression" => {
            let op = &src[n.field(FIELDS.operator)?.byte_range()];
            let l = folded_mask(n.field(FIELDS.left)?, src, depth + 1)?;
            let r = folded_mask(n.field(FIELDS.right)?, src, depth + 1)?;
            let top_bit = |m: &eval::Mask| !m.wide && m.value & 0x8000_0000 != 0;
            match op {
                b"|" | b"&" | b"^" => {
                    if l.wide != r.wide && (top_bit(&l) || top_bit(&r)) {
                        return None;
                    }
                    let value = match op {
                        b"|" => l.value | r.value,
                        b"&" => l.value & r.value,
                        _ => l.value ^ r.value,
                    };
                    let wide = l.wide || r.wide;
                    Some(eval::Mask {
                        value: bits(value, wide),
                        wide,
                    })
                }
                b"<<" | b">>" => {
                    // The result has the left operand's type; a count past its width, or a
                    // right shift of a negative value or one whose sign is unknown (`~0 >> 16`
                    // shifts an `int`, -1), is not folded.
                    let width = if l.wide { 64 } else { 32 };
                    let count = u32::try_from(r.value).ok().filter(|&c| c < width)?;
                    let value = if op == b"<<" {
                        l.value << count
                    } else if (top_bit(&l) || l.wide && l.value >> 63 != 0)
                        && !unsigned_literal(n.field(FIELDS.left)?, src)
                    {
                        return None;
                    } else {
                        l.value >> count
                    };
                    Some(eval::Mask {
                        value: bits(value, l.wide),
                        wide: l.wide,
                    })
                }
                _ => None,
            }
        }
        _ => eval::mask_value(n, src),
    }
}

/// Whether macro body `body` is a lone integer literal (`0xffffffffu`, `64`), which the
/// analysis reads without parsing it.
pub fn is_int_literal(body: &[u8]) -> bool {
    int_literal_body(body).is_some()
}

/// Whether lane mask `call` is a call without arguments of function-like macro `m` whose body
/// is the 32-lane full mask (`#define ALL_LANES() (0xffffffffu)`, or naming an object-like
/// macro that is): the translator widens it for HIP 6.2 and later, the body or the call
/// (`widen_macro_call_mask`; V17-b), so its 32-bit type is not reported.
fn widened_macro_call(a: &Analyzer, call: Node, m: &Macro) -> bool {
    let no_args = call
        .field(FIELDS.arguments)
        .is_some_and(|args| args.named_child_count() == 0);
    let Some(body) = m.body.as_ref().filter(|_| no_args && m.function_like) else {
        return false;
    };
    let Some(text) = body.text.get(body.prefix..body.prefix + body.len) else {
        return false;
    };
    let mut expanded = Vec::with_capacity(text.len());
    let mut last = 0;
    for id in crate::lexer::identifiers(text) {
        let name = std::str::from_utf8(&text[id.clone()]).unwrap_or("");
        if a.macros
            .get(name)
            .is_some_and(|d| !d.function_like && d.full_mask_32)
        {
            expanded.extend_from_slice(&text[last..id.start]);
            expanded.extend_from_slice(b"0xffffffffu");
            last = id.end;
        }
    }
    expanded.extend_from_slice(&text[last..]);
    text_mask(&expanded).is_some_and(|(value, wide)| eval::Mask { value, wide }.is_full_32())
}

/// The body of object-like macro `name` in `defines`, through macros whose body is only
/// another such macro's name (`#define FULL UINT32_MAX`, `#define MASK FULL_MASK`), a few
/// steps deep: the value the compiler sees at a use of `name`.
pub fn define_value<'d>(defines: &'d HashMap<String, String>, name: &str) -> Option<&'d str> {
    let mut body = defines.get(name)?.as_str();
    for _ in 0..8 {
        let inner = body.trim().trim_matches(['(', ')']).trim();
        let alias = !inner.is_empty()
            && !inner.starts_with(|c: char| c.is_ascii_digit())
            && inner.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        match defines.get(inner).filter(|_| alias && inner != name) {
            Some(next) => body = next.as_str(),
            None => break,
        }
    }
    Some(body)
}

/// Where a macro body's reparsed text sits in the original file.
#[derive(Clone, Copy, Debug)]
struct Origin {
    /// Bytes of wrapper text before the body.
    prefix: usize,
    /// Offset of the body in the original file.
    start: usize,
    /// Body length.
    len: usize,
}

impl Origin {
    fn map(&self, off: usize) -> usize {
        let rel = off.saturating_sub(self.prefix).min(self.len);
        self.start + rel
    }
}

/// A `#define` seen in the file.
#[derive(Clone)]
struct Macro {
    name: String,
    /// Object-like macro: its integer value, where the body is a constant expression.
    value: Option<i64>,
    /// Whether the body is (only) a full 32-bit lane mask such as `0xffffffff`.
    full_mask_32: bool,
    /// Byte range of the body in the original file.
    body_range: Range<usize>,
    /// The reparsed body, if any.
    body: Option<MacroBody>,
    /// Function-like macro.
    function_like: bool,
    /// Whether hipcc compiles the definition: `Some(false)` in a branch it skips, `Some(true)`
    /// where every enclosing condition is decided and lets it in, `None` where one is undecided.
    live: Option<bool>,
    /// Whether a conditional directive other than an include guard encloses the definition
    /// (read only by [`HipccView`]).
    conditional: bool,
}

/// A macro body parsed on its own inside a wrapper function.
#[derive(Clone)]
struct MacroBody {
    text: Vec<u8>,
    tree: Tree,
    prefix: usize,
    start: usize,
    len: usize,
}

impl MacroBody {
    fn origin(&self) -> Origin {
        Origin {
            prefix: self.prefix,
            start: self.start,
            len: self.len,
        }
    }
}

/// Macro table: several definitions of one name are possible (in #if branches).
#[derive(Clone, Default)]
struct Macros {
    by_name: HashMap<String, Vec<Macro>>,
    /// What the build defines (see [`build_defines`]): `USE_ROCM` in a PyTorch extension's
    /// ROCm build, which plain hipcc does not define.
    build: Vec<Define>,
    /// Whether HIP's headers still define `__HIP_PLATFORM_HCC__` (releases before 6.0).
    platform_hcc: bool,
    /// Names the file `#undef`s: where they are defined is not read (see [`Macros::defined_here`]).
    undefs: HashSet<String>,
    /// The values of the file-wide integer constants that macro bodies name (Marlin's
    /// `SHARED_MEM` in its launch macro), read with the file: a body's analyzer sees only the body.
    constants: HashMap<String, i64>,
}

impl Macros {
    fn values(&self) -> impl Iterator<Item = &Vec<Macro>> {
        self.by_name.values()
    }

    /// The value of an object-like macro, when every definition hipcc may compile agrees.
    fn value(&self, name: &str) -> Option<i64> {
        let defs = self.by_name.get(name)?;
        let mut live = defs.iter().filter(|d| d.live != Some(false));
        let first = live.next()?;
        if first.function_like {
            return None;
        }
        let v = first.value?;
        live.all(|d| d.value == Some(v)).then_some(v)
    }

    /// The file's definition of `name`: the first one hipcc may compile, else the first.
    fn get(&self, name: &str) -> Option<&Macro> {
        let defs = self.by_name.get(name)?;
        defs.iter()
            .find(|d| d.live != Some(false))
            .or_else(|| defs.first())
    }

    /// Whether the file's own definitions of `name` make it defined under hipcc: `Some(true)`
    /// where one is compiled for sure, `Some(false)` where hipcc skips every one (or the file
    /// has none), `None` where that is undecided.
    fn defined_here(&self, name: &str) -> Option<bool> {
        if self.undefs.contains(name) {
            return None;
        }
        let Some(defs) = self.by_name.get(name) else {
            return Some(false);
        };
        if defs.iter().any(|d| d.live == Some(true)) {
            Some(true)
        } else if defs.iter().all(|d| d.live == Some(false)) {
            Some(false)
        } else {
            None
        }
    }
}

/// The type aliases `src` declares with `typedef T NAME;` or `using NAME = T;` (one name, no
/// braces), read by text: name to the aliased type with its blanks normalized.
fn type_aliases(src: &[u8]) -> HashMap<String, String> {
    let mut out = HashMap::new();
    let word_at = |i: usize| i == 0 || !(src[i - 1].is_ascii_alphanumeric() || src[i - 1] == b'_');
    for (kw, using) in [(&b"typedef"[..], false), (&b"using"[..], true)] {
        for at in memchr::memmem::find_iter(src, kw) {
            if !word_at(at) {
                continue;
            }
            let rest = &src[at + kw.len()..];
            let Some(end) = rest.iter().position(|&b| b == b';') else {
                continue;
            };
            let Ok(decl) = std::str::from_utf8(&rest[..end]) else {
                continue;
            };
            if decl.contains(['{', '}', '(', '#', ',']) || !decl.starts_with(char::is_whitespace) {
                continue;
            }
            let (name, ty) = if using {
                let Some((name, ty)) = decl.split_once('=') else {
                    continue;
                };
                (name.trim(), ty)
            } else {
                let decl = decl.trim_end();
                let cut = decl
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |i| i + 1);
                (&decl[cut..], &decl[..cut])
            };
            let ty = norm_ws(ty.trim());
            if !name.is_empty()
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && !ty.is_empty()
            {
                out.entry(name.to_string()).or_insert(ty);
            }
        }
    }
    out
}

/// Whether hazard `id` concerns a build for the AMD `targets` (`gfx90a`, ...): H052 (texture
/// units) only where an MI300 (gfx94x) is among them, H055 (a warp size of 64) only where an RDNA
/// GPU (gfx10 to gfx12) is; every other hazard always.
pub fn concerns_targets(id: &str, targets: &[String]) -> bool {
    let any = |prefixes: &[&str]| {
        targets
            .iter()
            .any(|t| prefixes.iter().any(|p| t.trim().starts_with(p)))
    };
    match id {
        "H052" => any(&["gfx94"]),
        "H055" => any(&["gfx10", "gfx11", "gfx12"]),
        _ => true,
    }
}

/// Fits the findings of a file to the AMD targets the user chose (`--offload-arch`): those of
/// GPUs left out are dropped ([`concerns_targets`]), and where no target runs 64-lane
/// wavefronts (RDNA only: gfx10, gfx11, gfx12) the 64-lane hazards (H001, H004's and H048's
/// wavefront findings) become notes without fixes: they would matter only on CDNA or GCN.
/// H023 (shared memory) names the targets' LDS limits ([`lds::fit`]).
pub fn fit_to_targets(found: &mut Vec<Diagnostic>, targets: &[String]) {
    found.retain(|d| concerns_targets(&d.id, targets));
    lds::fit(found, targets);
    rules::fit_wmma_help(found, targets);
    let wave64 = targets.iter().any(|t| {
        let t = t.trim();
        ["gfx6", "gfx7", "gfx8", "gfx9"]
            .iter()
            .any(|p| t.starts_with(p))
    });
    if wave64 || targets.is_empty() {
        return;
    }
    for d in found.iter_mut() {
        let wave_hazard = d.id == catalog::WARP_WIDE_ROWS.id
            || d.message.contains(rules::WAVE_NOTE)
            || d.message.contains("lanes 32-63");
        if wave_hazard && d.severity != Severity::Note {
            d.severity = Severity::Note;
            d.fix.clear();
            d.message.push_str(&format!(
                " (no target of --offload-arch {} runs 64-lane wavefronts)",
                targets.join(",")
            ));
        }
    }
}

/// The `#undef` directives of `src`: where each word `undef` is and the name it undefines.
fn undefs(src: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    memchr::memmem::find_iter(src, b"undef").filter_map(move |at| {
        let before = src[..at].iter().rev().find(|b| !matches!(b, b' ' | b'\t'));
        if before != Some(&b'#') {
            return None;
        }
        let rest = &src[at + 5..];
        let blank = rest
            .iter()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let len = rest[blank..]
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        (blank > 0 && len > 0).then(|| (at, &rest[blank..blank + len]))
    })
}

/// Where `src` `#undef`s `name`.
fn undefs_of<'s>(src: &'s [u8], name: &'s str) -> impl Iterator<Item = usize> + 's {
    undefs(src).filter_map(move |(at, n)| (n == name.as_bytes()).then_some(at))
}

/// The names `src` `#undef`s.
fn undefined_names(src: &[u8]) -> HashSet<String> {
    undefs(src)
        .map(|(_, n)| String::from_utf8_lossy(n).into_owned())
        .collect()
}

/// A declared variable or parameter.
#[derive(Clone)]
struct Decl<'t> {
    /// The type specifier node (e.g. `unsigned`, `uint32_t`, `float`).
    ty: Node<'t>,
    /// Normalized type text (single spaces).
    ty_text: String,
    /// Declared through a pointer declarator.
    pointer: bool,
    /// Array dimensions (size expressions; `None` for `[]`).
    dims: Vec<Option<Node<'t>>>,
    /// Initializer value, if any.
    init: Option<Node<'t>>,
    /// The whole declaration.
    decl: Node<'t>,
    /// Number of declarators in the declaration.
    declarators: usize,
    /// The scope the name is visible in (function body or file).
    scope: Range<usize>,
    /// `const` or `constexpr`.
    constant: bool,
    /// A function parameter.
    param: bool,
}

/// A function definition and whether it is device code.
#[derive(Clone, Copy)]
struct Func<'t> {
    node: Node<'t>,
    device: bool,
    /// A kernel: `__global__` among its qualifiers (launched, never called).
    kernel: bool,
    /// Device code that may also be host code: `__host__ __device__`, or qualified by a macro
    /// of the file that tree-sitter was shown as blanks.
    maybe_host: bool,
}

/// Node kinds the analysis walker and its helpers look for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum K {
    Other,
    FunctionDefinition,
    Declaration,
    Define,
    Call,
    Identifier,
    FieldIdentifier,
    DeviceQualifier,
    Error,
    Scope,
    PointerDeclarator,
    ReferenceDeclarator,
    ArrayDeclarator,
    FunctionDeclarator,
    InitDeclarator,
    Parameter,
    QualifierLike,
    Modifier,
}

static KINDS: LazyLock<KindTable<K>> = LazyLock::new(|| {
    KindTable::new(
        K::Other,
        &[
            ("function_definition", K::FunctionDefinition),
            ("declaration", K::Declaration),
            ("field_declaration", K::Declaration),
            ("preproc_def", K::Define),
            ("preproc_function_def", K::Define),
            ("call_expression", K::Call),
            ("identifier", K::Identifier),
            ("field_identifier", K::FieldIdentifier),
            ("__global__", K::DeviceQualifier),
            ("__device__", K::DeviceQualifier),
            ("ERROR", K::Error),
            ("compound_statement", K::Scope),
            ("for_statement", K::Scope),
            ("field_declaration_list", K::Scope),
            ("pointer_declarator", K::PointerDeclarator),
            ("reference_declarator", K::ReferenceDeclarator),
            ("array_declarator", K::ArrayDeclarator),
            ("function_declarator", K::FunctionDeclarator),
            ("init_declarator", K::InitDeclarator),
            ("parameter_declaration", K::Parameter),
            ("optional_parameter_declaration", K::Parameter),
            ("type_qualifier", K::QualifierLike),
            ("storage_class_specifier", K::QualifierLike),
            ("attribute_specifier", K::QualifierLike),
            ("ms_pointer_modifier", K::Modifier),
        ],
    )
});

/// The `declarator` field as the id type `children_by_field_id` takes.
static DECLARATOR_ID: LazyLock<std::num::NonZeroU16> = LazyLock::new(|| {
    crate::parse::language()
        .field_id_for_name("declarator")
        .expect("the grammar has a `declarator` field")
});

/// The per-file (or per-macro-body) state of the analysis.
struct Analyzer<'a, 't> {
    src: &'a [u8],
    /// `src` as text, when it is valid UTF-8 (node texts are then slices at char boundaries).
    src_text: Option<&'a str>,
    file: &'a str,
    opts: &'a AnalysisOptions,
    index: &'a LineIndex,
    origin: Option<Origin>,
    out: &'a mut Vec<Diagnostic>,
    macros: Rc<Macros>,
    decls: Decls<'a, 't>,
    funcs: Vec<Func<'t>>,
    /// Name of the macro whose body this analyzer reads.
    in_macro: Option<String>,
    /// The macro body being analysed is defined in a branch hipcc skips: its errors are notes.
    macro_skipped: Option<String>,
    /// The macro body being analysed is used only in functions that place lanes within 32
    /// (`lane = t & 31`): a width of 32 there is the code's own segment (see
    /// [`segment_macros`]).
    macro_in_segments: bool,
    /// The macro body being analysed shuffles within 32-lane segments at each of its uses, all
    /// in segment code (see [`row_warps::segment_macro_uses`]): its H001 findings are dropped.
    macro_segment_uses: bool,
    /// The macro body being analysed is defined in a branch for HIP that hipcc takes (`#ifdef
    /// USE_ROCM`, `#if defined(__HIP_PLATFORM_AMD__)`): the project's own port.
    macro_hip_branch: bool,
    /// Object-like macros defined as `warpSize` in a branch hipcc may compile (`#define
    /// WARP_SIZE warpSize` under `USE_ROCM`), with the offset of the definition: H002 reads
    /// their uses as uses of `warpSize`.
    warp_size_aliases: Vec<(String, usize)>,
    /// Macros defined as `warpSize` in the project headers the file includes (see
    /// [`HeaderAlias`]); empty for macro bodies.
    header_aliases: &'a [HeaderAlias],
    /// Device functions with warp-level work in the project headers the file includes, read
    /// at the first question.
    header_functions: Option<&'a dyn Fn() -> Vec<HeaderFunction>>,
    header_functions_read: std::cell::OnceCell<Vec<HeaderFunction>>,
    /// The integer constants the project headers the file includes fix (see
    /// [`Included::constants`]).
    header_constants: &'a [(String, i64)],
    /// The file launches a kernel cooperatively somewhere.
    cooperative_launch: bool,
    /// Keys of "report once" diagnostics already emitted.
    once: HashSet<(String, usize)>,
    /// Shared arrays sized 32 (declaration start -> reported?).
    shared32: HashMap<usize, bool>,
    /// `__popc`/`__ffs` renames to the 64-bit builtins (the edit's start) with the 32-bit
    /// variables of their operand (name, start of the declaration's type): a rename is kept only
    /// where `--fix` widens every one of them (see [`rules::finish`]).
    wide_counts: Vec<(usize, Vec<(String, usize)>)>,
    /// For macro-body analyzers: whether the whole file does warp-level work.
    file_warp_code: bool,
    /// Static shared memory per function (function start, or usize::MAX for file scope).
    shared_total: HashMap<usize, i64>,
    /// CUB warp primitives used at their default width (decided in `finish`, once every
    /// warp-size diagnostic of the file is known).
    cub_default: Vec<(Node<'t>, &'static str, usize)>,
    /// Whether the text has a conditional directive (read at the first question).
    pp_branches: std::cell::OnceCell<bool>,
    /// Whether the text names `CUdeviceptr` (read at the first question).
    names_deviceptr: std::cell::OnceCell<bool>,
    /// Whether the text names `half2` (read at the first question).
    names_half2: std::cell::OnceCell<bool>,
    /// Whether the text names `__hisinf` (read at the first question).
    names_hisinf: std::cell::OnceCell<bool>,
    /// Whether the text names a 32-thread tile's type or call (read at the first question).
    names_tile: std::cell::OnceCell<bool>,
    /// Whether the text names `dim3` (read at the first question).
    names_dim3: std::cell::OnceCell<bool>,
    /// Whether the text names a vote builtin (read at the first question).
    names_vote: std::cell::OnceCell<bool>,
    /// Whether the text names clusters (read at the first question).
    names_cluster: std::cell::OnceCell<bool>,
    /// Whether the file declares a `warpSize` of its own (read at the first question).
    own_warp_size: std::cell::OnceCell<bool>,
    /// Whether the text can hold a last-error check (read at the first question).
    names_last_error: std::cell::OnceCell<bool>,
    /// Whether the text launches a kernel with `<<<` (read at the first question).
    names_launch: std::cell::OnceCell<bool>,
    /// Whether the text names `cudaMemsetParams` (read at the first question).
    names_memset_params: std::cell::OnceCell<bool>,
    /// Kernel parameters' values from the file's launches, by kernel start and parameter name
    /// (names that are no parameter too).
    launch_arguments: std::cell::RefCell<HashMap<(usize, &'a str), Option<u64>>>,
    /// The file's macros that read the last error (H054; read at the first question).
    last_error_checks: std::cell::OnceCell<Vec<String>>,
    /// H054's launches, runtime calls and checks in host code, with the start of the function
    /// holding each, in source order.
    last_error_events: Vec<(usize, last_error::Event<'a>)>,
    /// The file's type aliases (`typedef unsigned int U32;`, `using mask_t = unsigned;`), name
    /// to aliased type (read at the first question).
    type_aliases: std::cell::OnceCell<HashMap<String, String>>,
    /// Whether the file has its own `min`/`max` or `std::min` in scope (H047).
    own_min_max: std::cell::OnceCell<bool>,
    /// The kernels the text launches with `<<<...>>>`, and whether each launch's block is 32
    /// threads wide (H048, and H001's findings in such kernels).
    launches: Vec<(String, bool)>,
    /// Whether [`Analyzer::eval`] reads template parameters' values from the file's
    /// instantiations (see `eval::Eval::template_parameter`): only for the rules that ask.
    instantiate: std::cell::Cell<bool>,
    /// The kernels the text launches with blocks 32 threads wide and several rows, each with
    /// the rows as written and the launch's line (H048).
    row_launches: Vec<(String, String, usize)>,
    /// The names that give those launches' blocks their width of 32 (`dim3(WARP_SIZE, 2)`),
    /// each with the kernel and the launch's line.
    row_widths: Vec<(String, String, usize)>,
    /// Where the shuffles start that H048 gives a width of 32.
    row_width_fixes: Vec<usize>,
    /// Every call, in source order: its start, the function it names, and for a warp operation
    /// how it treats a 64-lane wavefront.
    calls: Vec<(usize, &'a str, Option<row_warps::Lanes>)>,
}

impl<'a, 't> Analyzer<'a, 't> {
    fn new(
        src: &'a [u8],
        file: &'a str,
        opts: &'a AnalysisOptions,
        index: &'a LineIndex,
        origin: Option<Origin>,
        out: &'a mut Vec<Diagnostic>,
    ) -> Self {
        Analyzer {
            src,
            src_text: std::str::from_utf8(src).ok(),
            file,
            opts,
            index,
            origin,
            out,
            macros: Rc::new(Macros {
                build: build_defines(src, &opts.defines),
                platform_hcc: opts.hip_version < eval::PLATFORM_HCC_REMOVED,
                undefs: undefined_names(src),
                ..Macros::default()
            }),
            decls: Decls::new(src),
            funcs: Vec::new(),
            in_macro: None,
            macro_skipped: None,
            macro_in_segments: false,
            macro_segment_uses: false,
            macro_hip_branch: false,
            warp_size_aliases: Vec::new(),
            header_aliases: &[],
            header_functions: None,
            header_functions_read: std::cell::OnceCell::new(),
            header_constants: &[],
            cooperative_launch: false,
            once: HashSet::new(),
            shared32: HashMap::new(),
            wide_counts: Vec::new(),
            shared_total: HashMap::new(),
            file_warp_code: false,
            cub_default: Vec::new(),
            pp_branches: std::cell::OnceCell::new(),
            names_deviceptr: std::cell::OnceCell::new(),
            names_half2: std::cell::OnceCell::new(),
            names_hisinf: std::cell::OnceCell::new(),
            names_tile: std::cell::OnceCell::new(),
            names_dim3: std::cell::OnceCell::new(),
            names_vote: std::cell::OnceCell::new(),
            names_cluster: std::cell::OnceCell::new(),
            own_warp_size: std::cell::OnceCell::new(),
            names_last_error: std::cell::OnceCell::new(),
            last_error_checks: std::cell::OnceCell::new(),
            names_launch: std::cell::OnceCell::new(),
            names_memset_params: std::cell::OnceCell::new(),
            launch_arguments: std::cell::RefCell::new(HashMap::new()),
            last_error_events: Vec::new(),
            type_aliases: std::cell::OnceCell::new(),
            own_min_max: std::cell::OnceCell::new(),
            launches: Vec::new(),
            instantiate: std::cell::Cell::new(false),
            row_launches: Vec::new(),
            row_widths: Vec::new(),
            row_width_fixes: Vec::new(),
            calls: Vec::new(),
        }
    }

    /// The device functions with warp-level work of the project headers the file includes.
    fn header_functions(&self) -> &[HeaderFunction] {
        match self.header_functions {
            Some(load) => self.header_functions_read.get_or_init(load),
            None => &[],
        }
    }

    /// Whether the text names `half2` (`__half2`, `half2`): without it no `.x` is a half's (H043).
    fn names_half2(&self) -> bool {
        self.names(&self.names_half2, b"half2")
    }

    /// Whether the text names `__hisinf`: without it no comparison tests its sign (H043).
    fn names_hisinf(&self) -> bool {
        self.names(&self.names_hisinf, b"__hisinf")
    }

    /// Whether the text names `tiled_partition` or `thread_block_tile`: without it no function's
    /// warp-level work is on tiles (H001's tile slots).
    pub(super) fn names_tile(&self) -> bool {
        *self.names_tile.get_or_init(|| {
            [&b"tiled_partition"[..], b"thread_block_tile"]
                .iter()
                .any(|n| memchr::memmem::find(self.src, n).is_some())
        })
    }

    /// Whether the text names `CUdeviceptr`: without it no operand can be one (H042).
    fn names_deviceptr(&self) -> bool {
        self.names(&self.names_deviceptr, b"CUdeviceptr")
    }

    /// Whether the text reads the last error (`cudaGetLastError`, `C10_CUDA_KERNEL_LAUNCH_CHECK`):
    /// without it there is no check for H054.
    fn names_last_error(&self) -> bool {
        *self
            .names_last_error
            .get_or_init(|| last_error::names_check(self.src))
    }

    /// Whether the text launches a kernel with `<<<`: without it no kernel parameter has a value
    /// from a launch.
    fn names_launch(&self) -> bool {
        self.names(&self.names_launch, b"<<<")
    }

    /// Whether the text names `cudaMemsetParams`: without it no initializer is one (H057).
    fn names_memset_params(&self) -> bool {
        self.names(&self.names_memset_params, b"cudaMemsetParams")
    }

    /// The type `ty` names after the file's `typedef`/`using` aliases (Gunrock's `typedef
    /// cudaDeviceProp device_properties_t;`), so rules that know a CUDA type see through them.
    fn unalias(&self, ty: &str) -> String {
        let aliases = self.type_aliases.get_or_init(|| type_aliases(self.src));
        let mut ty = ty
            .trim_start_matches("const ")
            .trim_start_matches("struct ");
        for _ in 0..4 {
            match aliases.get(ty) {
                Some(t) => ty = t.trim_start_matches("const ").trim_start_matches("struct "),
                None => break,
            }
        }
        ty.to_string()
    }

    /// Whether `ty` is a 32-bit integer type, directly or through the file's aliases of it.
    fn is_32bit(&self, ty: &str) -> bool {
        let aliases = self.type_aliases.get_or_init(|| type_aliases(self.src));
        let mut ty = ty;
        for _ in 0..4 {
            if rules::is_32bit_type(ty) {
                return true;
            }
            match aliases.get(ty.trim_start_matches("const ")) {
                Some(t) => ty = t,
                None => return false,
            }
        }
        false
    }

    /// Whether the text names a vote builtin (`__ballot`, `__activemask`, `__match_any_sync`):
    /// without one no function of the file returns a ballot (H004).
    fn names_vote(&self) -> bool {
        *self.names_vote.get_or_init(|| {
            [&b"__ballot"[..], b"__activemask", b"__match_a"]
                .iter()
                .any(|n| memchr::memmem::find(self.src, n).is_some())
        })
    }

    /// Whether the text names `dim3`: without it no variable holds a block shape (H048).
    fn names_dim3(&self) -> bool {
        self.names(&self.names_dim3, b"dim3")
    }

    /// Whether the text names thread-block clusters (`Cluster`, `CLUSTER`, `cluster`): without
    /// it no identifier is one of H051's.
    fn names_cluster(&self) -> bool {
        *self.names_cluster.get_or_init(|| {
            memchr::memmem::find(self.src, b"luster").is_some()
                || memchr::memmem::find(self.src, b"LUSTER").is_some()
        })
    }

    /// Whether the file declares or assigns a `warpSize` of its own (`constexpr int warpSize =
    /// 32;`, a parameter `int warpSize = 32`): that name then is the project's constant, which
    /// shadows HIP's, and no question about HIP's `warpSize` applies to it.
    pub(super) fn own_warp_size(&self) -> bool {
        *self.own_warp_size.get_or_init(|| {
            let src = self.src;
            const TYPES: &[&[u8]] = &[
                b"int",
                b"unsigned",
                b"long",
                b"short",
                b"auto",
                b"const",
                b"constexpr",
            ];
            crate::lexer::whole_words(src, "warpSize").any(|at| {
                let line = memchr::memrchr(b'\n', &src[..at]).map_or(0, |l| l + 1);
                if memchr::memmem::find(&src[line..at], b"//").is_some() {
                    return false;
                }
                // A declaration: a type word before it, and `=`, `;`, `,` or `)` after it.
                let after = src[at + "warpSize".len()..].trim_ascii_start();
                let before = src[..at].trim_ascii_end();
                let word = before
                    .iter()
                    .rev()
                    .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                    .count();
                let word = &before[before.len() - word..];
                (TYPES.contains(&word) || word.ends_with(b"_t"))
                    && (after.starts_with(b"=") && !after.starts_with(b"==")
                        || after.first().is_some_and(|b| b";,)".contains(b)))
            })
        })
    }

    /// Whether the text holds `needle`, searched once and kept in `cell`.
    fn names(&self, cell: &std::cell::OnceCell<bool>, needle: &[u8]) -> bool {
        *cell.get_or_init(|| memchr::memmem::find(self.src, needle).is_some())
    }

    /// Whether the text has an `#if`, `#ifdef`, `#ifndef` or `#elif...` directive: without one,
    /// no code sits in a preprocessor branch, and [`rules::hip_compiles`] need not walk up.
    fn has_pp_branches(&self) -> bool {
        *self.pp_branches.get_or_init(|| {
            memchr::memchr_iter(b'#', self.src).any(|i| {
                let rest = &self.src[i + 1..];
                let blank = rest
                    .iter()
                    .take_while(|&&b| b == b' ' || b == b'\t')
                    .count();
                rest[blank..].starts_with(b"if") || rest[blank..].starts_with(b"elif")
            })
        })
    }

    /// Text of a node.
    fn text(&self, n: Node) -> &'a str {
        node_text(self.src, self.src_text, n)
    }

    /// The file's definition of macro `name` in force at `node`: for a name the file `#undef`s,
    /// the last definition hipcc may compile before the node, unless an `#undef` between them
    /// cancels it (V17-c: `#define M 0xffffffff` / `#undef M` / `#define M 0x0000ffff` is
    /// partial at a use after the second); else [`Macros::get`]'s.
    fn macro_at(&self, name: &str, node: Node) -> Option<&Macro> {
        if self.origin.is_some() || !self.macros.undefs.contains(name) {
            return self.macros.get(name);
        }
        let at = node.start_byte();
        let defs = self.macros.by_name.get(name)?;
        match defs
            .iter()
            .rev()
            .find(|d| d.live != Some(false) && d.body_range.end <= at)
        {
            None => self.macros.get(name),
            Some(d) => undefs_of(&self.src[d.body_range.end..at], name)
                .next()
                .is_none()
                .then_some(d),
        }
    }

    /// Maps an offset in `src` to the original file.
    fn map(&self, off: usize) -> usize {
        match self.origin {
            Some(o) => o.map(off),
            None => off,
        }
    }

    /// Emits a diagnostic at `node`.
    fn report(
        &mut self,
        info: &DiagInfo,
        severity: Severity,
        node: Node,
        message: String,
        help: Option<String>,
        fix: Vec<Edit>,
    ) {
        // Any report in a branch hipcc never compiles says so, once, in this one place: an
        // error or warning there becomes a note, and a note keeps its severity (realuser11 A2).
        // A report on a directive (H011 on an `#elif` never reached) says so in its own words.
        let mut severity = severity;
        let mut message = message;
        if !message.contains(" (HIP does not compile this: ")
            && (severity == Severity::Error
                || !crate::parse::in_directive(self.src, node.start_byte()))
        {
            let why = match &self.macro_skipped {
                Some(why) => Some(why.clone()),
                None if self.origin.is_none() => self.skip_reason(node),
                None => None,
            };
            if let Some(why) = why {
                severity = Severity::Note;
                message.push_str(&format!(" (HIP does not compile this: {why})"));
            }
        }
        self.report_at(info, severity, node.start_byte(), message, help, fix);
    }

    /// Why hipcc skips the branch holding `node` (of the file's own tree), in the words the
    /// translator uses: "`#ifndef USE_ROCM` on line 19 is false under hipcc".
    fn skip_reason(&self, node: Node) -> Option<String> {
        if !self.has_pp_branches() {
            return None;
        }
        let (directive, holds) = rules::skipping_directive(node, self.src, &self.macros)?;
        Some(SkippedBranch::new(self.src, directive, holds).reason(self.index))
    }

    /// Emits a diagnostic at byte `at` of `src`.
    fn report_at(
        &mut self,
        info: &DiagInfo,
        severity: Severity,
        at: usize,
        message: String,
        help: Option<String>,
        mut fix: Vec<Edit>,
    ) {
        let off = self.map(at);
        let mut d = Diagnostic::at(info, self.file, self.index, off, message, help);
        d.severity = severity;
        if let Some(name) = &self.in_macro {
            d.message
                .push_str(&format!(" (in the body of macro `{name}`)"));
        }
        if self.opts.fix {
            if let Some(o) = self.origin {
                for e in &mut fix {
                    e.start = o.map(e.start);
                    e.end = o.map(e.end);
                }
            }
            d.fix = fix;
        }
        self.out.push(d);
    }

    /// True the first time `key` is seen with `scope`.
    fn first(&mut self, key: &str, scope: usize) -> bool {
        self.once.insert((key.to_string(), scope))
    }

    /// The innermost function definition containing `at`.
    fn func_at(&self, at: usize) -> Option<Func<'t>> {
        // `funcs` is in source order; the innermost container is the last one starting before.
        let end = self.funcs.partition_point(|f| f.node.start_byte() <= at);
        self.funcs[..end]
            .iter()
            .rev()
            .take(64)
            .find(|f| at < f.node.end_byte())
            .copied()
    }

    /// Whether `at` lies in device code (`__global__` or `__device__` function).
    fn in_device(&self, at: usize) -> bool {
        self.func_at(at).is_some_and(|f| f.device)
    }

    /// Whether `at` lies in code that runs on the device only (not `__host__ __device__`).
    fn in_device_only(&self, at: usize) -> bool {
        self.func_at(at).is_some_and(|f| f.device && !f.maybe_host)
    }

    /// Whether the file defines a function named `name` (a body, not a declaration): calls
    /// to a CUDA builtin's name then reach the project's own code.
    fn defines_function(&self, name: &str) -> bool {
        self.funcs
            .iter()
            .any(|f| self.function_name(f.node) == Some(name))
    }

    /// Whether the function definition starting at byte `start` is a kernel.
    fn is_kernel_at(&self, start: usize) -> bool {
        let i = self.funcs.partition_point(|f| f.node.start_byte() < start);
        self.funcs
            .get(i)
            .is_some_and(|f| f.node.start_byte() == start && f.kernel)
    }

    /// The name a function definition declares (`k` for `__global__ void k(...)`), when it is a
    /// plain identifier.
    fn function_name(&self, def: Node) -> Option<&'a str> {
        let mut d = def.field(FIELDS.declarator);
        while let Some(n) = d {
            if KINDS.of(n) == K::FunctionDeclarator {
                // A method defined in its class (`__device__ static T reduce(...)`) too, and an
                // explicit specialisation (`template <> void reduce<Op::kSum, 2>(float* v)`),
                // by its template's name: its calls (`reduce<Op::kSum, n>(v)`) name that
                // (realuser31 R31-d, lightseq's `warpReduce`).
                let mut d = n.field(FIELDS.declarator)?;
                // An out-of-line definition (`__device__ short ns::f(...) { }`, `Class::method`,
                // `a::b::f`) by its last name: its calls name that (realuser48 R48-a).
                while d.kind_name() == "qualified_identifier" {
                    d = d.field(FIELDS.name)?;
                }
                let d = match d.kind_name() {
                    "template_function" => d.field(FIELDS.name)?,
                    _ => d,
                };
                return matches!(d.kind_name(), "identifier" | "field_identifier")
                    .then(|| self.text(d));
            }
            d = n.field(FIELDS.declarator);
        }
        None
    }

    /// The declaration of `name` visible at `at` (the latest preceding one in scope).
    fn lookup(&self, name: &str, at: usize) -> Option<Decl<'t>> {
        // Declarations of one name are in source order: start from the last one before `at`.
        let decls = self.decls.get(name)?;
        let end = decls.partition_point(|d| d.decl.start_byte() <= at);
        decls[..end]
            .iter()
            .rev()
            .find(|d| d.scope.start <= at && at < d.scope.end)
            .cloned()
    }

    /// Pass 1: declarations, functions, macros, file-wide facts, over the tree in pre-order.
    fn collect(&mut self, flat: &Flat<'t>) {
        let f = &*FIELDS;
        // Calls and names are read for cooperative launches only when the text has one.
        let cooperative_names = memchr::memmem::find(self.src, b"LaunchCooperativeKernel")
            .or_else(|| memchr::memmem::find(self.src, b"cudaLaunchAttributeCooperative"))
            .is_some();
        // The scopes (blocks, `for` statements, class bodies, functions) around the node being
        // visited, with the index past each one's nodes: a declaration's scope is the innermost,
        // found without walking up its parents (`Node::parent` searches down from the root).
        let mut scopes: Vec<(u32, Range<usize>)> = Vec::new();
        // Device-qualifier macros of the file that tree-sitter was shown as blanks.
        let user = crate::parse::user_qualifier_macros(self.src);
        let hidden: Vec<&[u8]> = user
            .iter()
            .filter(|m| m.hidden_device)
            .map(|m| m.name)
            .collect();
        // Macros that make host-and-device code, whatever tree-sitter was shown for them.
        let host: Vec<&[u8]> = user.iter().filter(|m| m.host).map(|m| m.name).collect();
        for (i, ((&node, &kind), &end)) in flat
            .nodes
            .iter()
            .zip(&flat.kinds)
            .zip(&flat.ends)
            .enumerate()
        {
            while scopes.last().is_some_and(|s| s.0 as usize <= i) {
                scopes.pop();
            }
            let group = KINDS.get(kind);
            match group {
                K::FunctionDefinition => {
                    let shown = crate::parse::children(node).any(|c| match KINDS.of(c) {
                        K::DeviceQualifier => true,
                        K::Error => self.text(c).contains("__device__"),
                        _ => false,
                    });
                    let hidden_device = !shown
                        && !hidden.is_empty()
                        && crate::parse::qualified_by(
                            self.src,
                            node.start_byte(),
                            node.field(f.declarator)
                                .map_or(node.start_byte(), |d| d.start_byte()),
                            &hidden,
                        );
                    let maybe_host = hidden_device
                        || crate::parse::children(node).any(|c| c.kind_name() == "__host__")
                        || (!host.is_empty()
                            && crate::parse::qualified_by(
                                self.src,
                                node.start_byte(),
                                node.field(f.declarator)
                                    .map_or(node.start_byte(), |d| d.start_byte()),
                                &host,
                            ));
                    self.funcs.push(Func {
                        node,
                        device: shown || hidden_device,
                        kernel: crate::parse::children(node).any(|c| c.kind_name() == "__global__"),
                        maybe_host,
                    });
                    // Its parameters are in its declarator: a name it declares is in that text.
                    let holds = node.field(f.declarator).map_or(0..0, |d| d.byte_range());
                    self.decls.pending.push(Pending {
                        node,
                        scope: 0..0,
                        holds,
                    });
                }
                K::Declaration => {
                    let scope = scopes.last().map_or(0..self.src.len(), |s| s.1.clone());
                    self.decls.pending.push(Pending {
                        node,
                        scope,
                        holds: node.byte_range(),
                    });
                }
                K::Define => self.collect_macro(node),
                K::Call if cooperative_names => {
                    if let Some(f) = node.field(f.function) {
                        let name = self.text(f);
                        if name.contains("LaunchCooperativeKernel") {
                            self.cooperative_launch = true;
                        }
                    }
                }
                K::Identifier if cooperative_names => {
                    let t = self.text(node);
                    if t.contains("LaunchCooperativeKernel")
                        || t == "cudaLaunchAttributeCooperative"
                    {
                        self.cooperative_launch = true;
                    }
                }
                _ => {}
            }
            if matches!(group, K::Scope | K::FunctionDefinition) {
                scopes.push((end, node.byte_range()));
            }
        }
    }

    fn collect_macro(&mut self, node: Node<'t>) {
        let Some(name) = node.field(FIELDS.name) else {
            return;
        };
        let name = self.text(name).to_string();
        let function_like = node.kind_name() == "preproc_function_def";
        let value_node = node.field(FIELDS.value);
        let body_range = value_node
            .map(|v| v.byte_range())
            .unwrap_or(node.end_byte()..node.end_byte());
        let live = if self.origin.is_none() && self.has_pp_branches() {
            rules::hip_live(node, self.src, &self.macros)
        } else {
            Some(true).filter(|_| self.origin.is_none())
        };
        let mut m = Macro {
            name: name.clone(),
            value: None,
            full_mask_32: false,
            body_range: body_range.clone(),
            body: None,
            function_like,
            live,
            conditional: false,
        };
        if let Some(v) = value_node {
            let body_text = &self.src[v.byte_range()];
            // `#define WARP_SIZE warpSize`, or an expression of it (`(1024 / warpSize)`).
            if !function_like
                && self.origin.is_none()
                && code_words(body_text, "warpSize").next().is_some()
                && rules::hip_compiles(self, node) != Some(false)
            {
                self.warp_size_aliases
                    .push((name.clone(), node.start_byte()));
            }
            let literal = self.origin.is_none().then(|| int_literal_body(body_text));
            if let Some(lit) = literal.flatten() {
                // A lone integer (`#define TILE 64`, the commonest body): no rule fires on it,
                // so its value is read without parsing it as a function body.
                if !function_like {
                    let (value, wide) = lit;
                    m.value = Some(value as i64);
                    m.full_mask_32 = eval::Mask::of_literal(value, wide).is_full_32();
                }
            } else if body_text.len() <= 64 * 1024 && self.origin.is_none() {
                let prefix = b"void __hipport_macro_body__(void) {\n";
                let mut text = prefix.to_vec();
                text.extend_from_slice(body_text);
                text.extend_from_slice(b"\n;}\n");
                if let Some(tree) = parse_body(&text) {
                    let root = tree.root_node();
                    if !function_like {
                        if let Some(expr) = macro_expression(root) {
                            let ev = eval::Eval {
                                src: &text,
                                macros: &self.macros,
                                decls: None,
                                templates: false,
                                bound: None,
                            };
                            m.value = ev.int(expr);
                            m.full_mask_32 = eval::is_full_mask_32(expr, &text);
                        }
                    }
                    m.body = Some(MacroBody {
                        text: text.clone(),
                        tree,
                        prefix: prefix.len(),
                        start: v.start_byte(),
                        len: v.byte_range().len(),
                    });
                }
            }
        }
        Rc::make_mut(&mut self.macros)
            .by_name
            .entry(name)
            .or_default()
            .push(m);
    }

    /// Pass 2: run every rule on every node (in pre-order, as a cursor walks them).
    fn check(&mut self, flat: &Flat<'t>) {
        for (&node, &kind) in flat.nodes.iter().zip(&flat.kinds) {
            rules::visit(self, node, kind);
        }
    }

    /// File-level checks after the walk.
    fn finish(&mut self) {
        if self.origin.is_none() {
            rtc::device_strings(self);
            // Launches written in macro bodies, as the walk noted those written out (V17-e).
            row_warps::macro_launches(self);
        }
        rules::finish(self);
        // After every rule: it turns their reports in kernels of one 32-thread block into notes.
        partial_waves::finish(self);
    }

    /// Integer value of a constant expression, using macros and constant declarations.
    fn eval(&self, n: Node) -> Option<i64> {
        if n.kind_name() == "type_identifier" {
            // A constant read as a type: `dim3 block(ROW, ROWS);` parses as the declaration of
            // a function whose parameter types are `ROW` and `ROWS` (realuser35 R35-d).
            let name = self.text(n);
            if let Some(v) = self.macros.value(name) {
                return Some(v);
            }
            let d = self.lookup(name, n.start_byte())?;
            return (d.constant
                && !d.pointer
                && d.init.is_some_and(|i| i.kind_name() != "type_identifier"))
            .then(|| self.eval(d.init?))
            .flatten();
        }
        eval::Eval {
            src: self.src,
            macros: &self.macros,
            decls: Some(&self.decls),
            templates: self.instantiate.get(),
            bound: None,
        }
        .int(n)
    }

    /// The values of `n` in each instantiation the file writes of the template around it, where
    /// `n` reads one of its non-type parameters (`W >> 1` in `template <int W>` for
    /// `warp_sum<32>` and `warp_sum<8>`: 16 and 4; realuser39 R39-b).
    fn eval_instantiations(&self, n: Node) -> Option<Vec<i64>> {
        let base = eval::Eval {
            src: self.src,
            macros: &self.macros,
            decls: Some(&self.decls),
            templates: true,
            bound: None,
        };
        let mut ids: Vec<&str> = Vec::new();
        crate::parse::walk_subtree(n, |x| {
            if x.kind_name() == "identifier" {
                ids.push(self.text(x));
            }
            crate::parse::Visit::Descend
        });
        let (name, values) = ids
            .into_iter()
            .find_map(|id| Some((id, base.template_parameter_values(n, id)?)))?;
        values
            .into_iter()
            .map(|v| {
                eval::Eval {
                    bound: Some((name, v)),
                    ..base
                }
                .int(n)
            })
            .collect()
    }
}

/// Declarations and parameters by name, in source order. Collecting them costs a good share of
/// the analysis and most files never look one up, so the walk only notes where they are, and a
/// name's declarations are read when it is first looked up, from the places whose text holds it.
struct Decls<'a, 't> {
    src: &'a [u8],
    src_text: Option<&'a str>,
    /// Declarations with their scopes, and function definitions (for their parameters), in
    /// pre-order.
    pending: Vec<Pending<'t>>,
    /// The names looked up so far, with their declarations (none: `None`).
    by_name: std::cell::RefCell<HashMap<String, Option<Rc<[Decl<'t>]>>>>,
    /// Template parameters' values from the file's instantiations, by the template
    /// declaration's start and the parameter's place (see `eval::Eval::template_parameter`).
    templates: std::cell::RefCell<HashMap<(usize, usize), Option<i64>>>,
}

type DeclMap<'a, 't> = HashMap<&'a str, Vec<Decl<'t>>>;

/// A declaration or function definition whose declarations are read when a name is looked up.
struct Pending<'t> {
    node: Node<'t>,
    /// Where its declarations are visible (unused for a function definition).
    scope: Range<usize>,
    /// The text that holds every name it declares: the whole declaration, or a function's
    /// declarator (its parameters).
    holds: Range<usize>,
}

impl<'a, 't> Decls<'a, 't> {
    fn new(src: &'a [u8]) -> Self {
        Decls {
            src,
            src_text: std::str::from_utf8(src).ok(),
            pending: Vec::new(),
            by_name: std::cell::RefCell::new(HashMap::new()),
            templates: std::cell::RefCell::new(HashMap::new()),
        }
    }

    fn text(&self, n: Node) -> &'a str {
        node_text(self.src, self.src_text, n)
    }

    /// The declarations of `name`, in source order.
    fn get(&self, name: &str) -> Option<Rc<[Decl<'t>]>> {
        if let Some(found) = self.by_name.borrow().get(name) {
            return found.clone();
        }
        let found = self.build(name).remove(name).map(Rc::from);
        self.by_name
            .borrow_mut()
            .insert(name.to_string(), found.clone());
        found
    }

    /// The declarations of the places whose text holds `name` (a declaration of `name` holds
    /// it), by name; reading the others' declarators was most of the cost of a lookup.
    fn build(&self, name: &str) -> DeclMap<'a, 't> {
        let f = &*FIELDS;
        let mut map = DeclMap::new();
        // Where the name occurs in the file as a whole word (overlapping occurrences too), read
        // once: a place holds the name when one of them lies within its text. A name token is
        // never next to a letter, digit, `_` or `$` (the lexer would have taken it in), so
        // `i` is not looked for in `int`. (Every text holds the empty name, which a missing
        // identifier has.)
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b == b'$';
        let bytes = name.as_bytes();
        let (open, close) = (
            bytes.first().is_some_and(|&b| word(b)),
            bytes.last().is_some_and(|&b| word(b)),
        );
        let finder = memchr::memmem::Finder::new(bytes);
        let mut at = Vec::new();
        let mut from = 0;
        while let Some(i) = finder.find(&self.src[from..]).filter(|_| !name.is_empty()) {
            let p = from + i;
            let before = p.checked_sub(1).map(|q| self.src[q]);
            let after = self.src.get(p + bytes.len()).copied();
            if !(open && before.is_some_and(word) || close && after.is_some_and(word)) {
                at.push(p);
            }
            from = p + 1;
        }
        if at.is_empty() && !name.is_empty() {
            return map;
        }
        let holds = |r: &Range<usize>| {
            let first = at.partition_point(|&p| p < r.start);
            name.is_empty() || at.get(first).is_some_and(|&p| p + name.len() <= r.end)
        };
        for p in &self.pending {
            let (node, scope) = (p.node, &p.scope);
            if !holds(&p.holds) {
                continue;
            }
            if KINDS.of(node) == K::FunctionDefinition {
                if let Some(decl) = node.field(f.declarator) {
                    let body = node
                        .field(f.body)
                        .map(|b| b.byte_range())
                        .unwrap_or_else(|| node.byte_range());
                    self.collect_params(&mut map, decl, body);
                }
            } else {
                self.collect_decl(&mut map, node, scope.clone());
            }
        }
        map
    }

    fn collect_params(&self, map: &mut DeclMap<'a, 't>, declarator: Node<'t>, body: Range<usize>) {
        // Find the parameter_list of the (possibly nested) function declarator.
        let f = &*FIELDS;
        let mut n = declarator;
        for _ in 0..8 {
            if KINDS.of(n) == K::FunctionDeclarator {
                break;
            }
            match n.field(f.declarator) {
                Some(c) => n = c,
                None => return,
            }
        }
        let Some(params) = n.field(f.parameters) else {
            return;
        };
        for p in crate::parse::named_children(params) {
            if KINDS.of(p) != K::Parameter {
                continue;
            }
            let Some(ty) = p.field(f.type_) else {
                continue;
            };
            if let Some(d) = p.field(f.declarator) {
                let (name, pointer, dims) = declarator_name(d);
                if let Some(name) = name {
                    let name = self.text(name);
                    let decl = Decl {
                        ty,
                        ty_text: norm_ws(self.text(ty)),
                        pointer,
                        dims,
                        init: None,
                        decl: p,
                        declarators: 1,
                        scope: body.clone(),
                        constant: has_qualifier(p, self.src, "const"),
                        param: true,
                    };
                    map.entry(name).or_default().push(decl);
                }
            }
        }
    }

    fn collect_decl(&self, map: &mut DeclMap<'a, 't>, node: Node<'t>, scope: Range<usize>) {
        let f = &*FIELDS;
        let Some(ty) = node.field(f.type_) else {
            return;
        };
        let mut c = node.walk();
        let declarators: Vec<Node<'t>> =
            node.children_by_field_id(*DECLARATOR_ID, &mut c).collect();
        let constant =
            has_qualifier(node, self.src, "const") || has_qualifier(node, self.src, "constexpr");
        for d in &declarators {
            let (target, init) = if KINDS.of(*d) == K::InitDeclarator {
                (d.field(f.declarator), d.field(f.value))
            } else {
                (Some(*d), None)
            };
            let Some(target) = target else { continue };
            let (name, pointer, dims) = declarator_name(target);
            let Some(name) = name else { continue };
            if KINDS.of(target) == K::FunctionDeclarator {
                continue;
            }
            let name = self.text(name);
            let decl = Decl {
                ty,
                ty_text: norm_ws(self.text(ty)),
                pointer,
                dims,
                init,
                decl: node,
                declarators: declarators.len(),
                scope: scope.clone(),
                constant,
                param: false,
            };
            map.entry(name).or_default().push(decl);
        }
    }
}

/// Where `name` stands in `text` as a whole word in code: [`crate::lexer::whole_words`] without
/// the hits in comments and in string or character literals. A word in a comment (`// scan the
/// row`, a launch commented out) says nothing of the code, so no verdict may depend on it
/// (verify16 V16-b: a comment naming the kernel `scan` hid its launch's width).
pub(super) fn code_words<'t>(text: &'t [u8], name: &'t str) -> impl Iterator<Item = usize> + 't {
    let mut skipped: Option<Vec<Range<usize>>> = None;
    crate::lexer::whole_words(text, name).filter(move |&at| {
        let spans = skipped.get_or_insert_with(|| not_code(text));
        let i = spans.partition_point(|r| r.end <= at);
        !spans.get(i).is_some_and(|r| r.contains(&at))
    })
}

/// The byte ranges of `text` that are not code: comments, and string and character literals
/// (raw strings included), in order. A quote in a number (`1'000`) is a digit separator.
/// Jumps from one `/`, `"` or `'` to the next (SIMD), since code between them needs no look.
pub(super) fn not_code(text: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let n = text.len();
    let mut i = 0;
    while let Some(k) = memchr::memchr3(b'/', b'"', b'\'', &text[i..]) {
        let start = i + k;
        let c = text[start];
        i = start;
        if c == b'/' && text.get(i + 1) == Some(&b'/') {
            // A line comment, continued by a backslash at the line's end.
            while i < n && text[i] != b'\n' {
                if text[i] == b'\\' && text.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                i += 1;
            }
            out.push(start..i);
        } else if c == b'/' && text.get(i + 1) == Some(&b'*') {
            i = memchr::memmem::find(&text[i + 2..], b"*/").map_or(n, |e| i + 4 + e);
            out.push(start..i);
        } else if c == b'/' {
            i += 1;
        } else if c == b'\'' && in_number(text, i) {
            // A digit separator.
            i += 1;
        } else if c == b'"' && raw_prefix(text, i).is_some() {
            // A raw string: R"delim( ... )delim".
            let from = raw_prefix(text, i).unwrap_or(i);
            let open = i + 1;
            let paren = text[open..].iter().take(17).position(|&b| b == b'(');
            match paren {
                Some(p) => {
                    let mut close = Vec::with_capacity(p + 2);
                    close.push(b')');
                    close.extend_from_slice(&text[open..open + p]);
                    close.push(b'"');
                    let body = open + p + 1;
                    i = memchr::memmem::find(&text[body..], &close)
                        .map_or(n, |e| body + e + close.len());
                    out.push(from..i);
                }
                None => {
                    i += 1;
                    out.push(from..i);
                }
            }
        } else {
            i += 1;
            while i < n && text[i] != c && text[i] != b'\n' {
                if text[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i = (i + 1).min(n);
            out.push(start..i);
        }
    }
    out
}

/// Whether the `'` at `at` stands inside a number (`1'000`, `0xFF'FF`): the run of word bytes,
/// dots and quotes before it starts with a digit (or a dot and a digit), and a digit or letter
/// follows.
fn in_number(text: &[u8], at: usize) -> bool {
    if !text.get(at + 1).is_some_and(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let mut j = at;
    while j > 0 && (crate::lexer::is_word_byte(text[j - 1]) || matches!(text[j - 1], b'.' | b'\''))
    {
        j -= 1;
    }
    let run = &text[j..at];
    run.first().is_some_and(|b| b.is_ascii_digit())
        || run.first() == Some(&b'.') && run.get(1).is_some_and(|b| b.is_ascii_digit())
}

/// Where the raw-string prefix (`R`, `LR`, `uR`, `UR`, `u8R`) of the `"` at `at` starts, if
/// that `"` opens a raw string.
fn raw_prefix(text: &[u8], at: usize) -> Option<usize> {
    let mut j = at;
    while j > 0 && crate::lexer::is_word_byte(text[j - 1]) {
        j -= 1;
    }
    matches!(&text[j..at], b"R" | b"LR" | b"uR" | b"UR" | b"u8R").then_some(j)
}

/// Text of a node of `src` (`src_text`: the same bytes, when they are UTF-8).
fn node_text<'a>(src: &'a [u8], src_text: Option<&'a str>, n: Node) -> &'a str {
    match src_text {
        Some(t) => t.get(n.byte_range()).unwrap_or(""),
        None => std::str::from_utf8(&src[n.byte_range()]).unwrap_or(""),
    }
}

/// The tree of a macro body in its wrapper function. The same bodies come back file after file
/// (every source of a project defining its own `CUDA_CHECK`), so each worker thread keeps the
/// trees it has made, up to a megabyte of text, and parses a body it has seen only once.
fn parse_body(text: &[u8]) -> Option<Tree> {
    const LIMIT: usize = 1 << 20;
    /// Trees by body text, and the bytes of text held.
    type Store = (HashMap<Box<[u8]>, Tree>, usize);
    thread_local! {
        static TREES: std::cell::RefCell<Store> = std::cell::RefCell::new((HashMap::new(), 0));
    }
    TREES.with(|t| {
        let mut t = t.borrow_mut();
        if let Some(tree) = t.0.get(text) {
            return Some(tree.clone());
        }
        let tree = crate::parse::parse(text, Duration::from_secs(2)).ok()?;
        if t.1 + text.len() > LIMIT {
            *t = (HashMap::new(), 0);
        }
        t.1 += text.len();
        t.0.insert(text.into(), tree.clone());
        Some(tree)
    })
}

/// A macro body that is one integer literal (decimal, octal or hex digits, then `u`/`l`
/// suffixes): its value and whether it is 64-bit, as the parser and [`eval::parse_int`] read it.
fn int_literal_body(body: &[u8]) -> Option<(u64, bool)> {
    let t = body.trim_ascii();
    let digits = match t {
        [b'0', b'x' | b'X', rest @ ..] => rest,
        _ => t,
    };
    let n = digits.iter().take_while(|b| b.is_ascii_hexdigit()).count();
    let hex = digits.len() != t.len();
    let ok = n > 0
        && t[0].is_ascii_digit()
        && (hex || digits[..n].iter().all(u8::is_ascii_digit))
        && digits[n..].len() <= 3
        && digits[n..]
            .iter()
            .all(|b| matches!(b, b'u' | b'U' | b'l' | b'L'));
    if !ok {
        return None;
    }
    eval::parse_int(std::str::from_utf8(t).ok()?)
}

/// The expression a macro body consists of, in its wrapper function.
fn macro_expression(root: Node) -> Option<Node> {
    let f = root.named_child(0)?;
    if f.kind_name() != "function_definition" {
        return None;
    }
    let body = f.field(FIELDS.body)?;
    let first = body.named_child(0)?;
    if first.kind_name() == "expression_statement" {
        first.named_child(0)
    } else {
        None
    }
}

/// The name identifier of a declarator, whether it goes through a pointer, and array sizes.
pub(super) fn declarator_name(d: Node) -> (Option<Node>, bool, Vec<Option<Node>>) {
    let mut n = d;
    let mut pointer = false;
    let mut dims = Vec::new();
    let f = &*FIELDS;
    for _ in 0..16 {
        let kind = KINDS.of(n);
        match kind {
            K::Identifier | K::FieldIdentifier => return (Some(n), pointer, dims),
            K::PointerDeclarator => pointer = true,
            K::ArrayDeclarator => dims.insert(0, n.field(f.size)),
            _ => {}
        }
        let next = n.field(f.declarator).or_else(|| {
            let x = crate::parse::named_children(n).find(|c| {
                // `type_qualifier` or `ms_pointer_modifier`.
                !(KINDS.of(*c) == K::Modifier || is_type_qualifier(*c))
            });
            x
        });
        match next {
            Some(x) => n = x,
            None => break,
        }
    }
    (None, pointer, dims)
}

/// Whether a declaration carries a qualifier or storage class such as `const` or `__shared__`.
fn has_qualifier(n: Node, src: &[u8], q: &str) -> bool {
    // A node whose text lacks the word has no child that is it (most declarations).
    let q = q.as_bytes();
    let text = src.get(n.byte_range()).unwrap_or_default();
    if q.first()
        .is_some_and(|&b| !memchr::memchr_iter(b, text).any(|i| text[i..].starts_with(q)))
    {
        return false;
    }
    let found = crate::parse::children(n)
        .any(|ch| KINDS.of(ch) == K::QualifierLike && &src[ch.byte_range()] == q);
    found
}

/// Whether a node is a `type_qualifier`.
fn is_type_qualifier(n: Node) -> bool {
    static TYPE_QUALIFIER: LazyLock<KindTable<bool>> =
        LazyLock::new(|| KindTable::new(false, &[("type_qualifier", true)]));
    TYPE_QUALIFIER.of(n)
}

/// Collapses runs of whitespace to one space.
fn norm_ws(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests;
