//! The CUDA that PyTorch's `load_inline` builds from Python strings, translated and checked like
//! a `.cu` file.
//!
//! `torch.utils.cpp_extension.load_inline(name, cpp_sources, cuda_sources, ...)` writes its
//! strings to files and compiles them (with hipcc on ROCm PyTorch, which renames CUDA names but
//! sees no wave64 hazard). Here the string literals that reach `cpp_sources` and `cuda_sources`
//! are found with [`super::setup_py`]'s tokenizer: literals in the call (named `load_inline`,
//! through its module, or by an import alias), in a list or tuple there, or assigned to a
//! variable the call names (anywhere in the file, chained and unpacking assignments included;
//! adjacent literals and `+` between them make one text). Each text is decoded ([`super::py_strings`]), translated by
//! [`crate::translate::translate_source`] with the run's options (hazard analysis included), and
//! the edits and diagnostics are mapped back to the Python file. What cannot be followed (a
//! string read from a file, formatted, passed in from elsewhere) or written back (an edit on an
//! escape sequence or an f-string field) is a note ([`B_INLINE`]).

use std::collections::{BTreeMap, HashMap, HashSet};
use std::ops::Range;

use super::py_strings::{Form, MapError, Value};
use super::setup_py::{nesting, tok_end, tok_start, tokens, Tok};
use super::B_INLINE;
use crate::diag::{Diagnostic, LineIndex};
use crate::edit::Edit;
use crate::translate::{self, Options};

/// What translating the `load_inline` strings of one Python file gives.
#[derive(Debug, Default)]
pub struct InlineResult {
    /// Edits on the Python file, sorted.
    pub edits: Vec<Edit>,
    /// Diagnostics, positioned in the Python file: the translation's and hazards found in the
    /// strings, and notes on what was not translated.
    pub diagnostics: Vec<Diagnostic>,
    /// Renames applied, by API family, as [`translate::FileResult::renames`].
    pub renames: BTreeMap<String, usize>,
}

/// Which argument of which call a string reaches: `load_inline`'s, or the source of a call
/// outside PyTorch ([`RawApi`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Cpp,
    Cuda,
    Raw(RawApi),
}

impl Role {
    fn arg(self) -> &'static str {
        match self {
            Role::Cpp => "cpp_sources",
            Role::Cuda => "cuda_sources",
            Role::Raw(api) => api.arg(),
        }
    }

    /// The call, as messages name it.
    fn call(self) -> &'static str {
        match self {
            Role::Cpp | Role::Cuda => "load_inline",
            Role::Raw(api) => api.name(),
        }
    }

    /// Where a source hipport cannot handle in the string may go instead.
    fn move_help(self) -> &'static str {
        match self {
            Role::Cpp | Role::Cuda => "move the source into a .cu file that `load` builds",
            Role::Raw(_) => "keep a copy of the CUDA in a .cu file and run hipport on it",
        }
    }
}

/// A call outside PyTorch that compiles CUDA held in a Python string: CuPy's `RawKernel(code,
/// name)` and `RawModule(code=...)`, and PyCUDA's `SourceModule(source)` and
/// `DynamicSourceModule(source)`. Their strings are checked like a `.cu` file (hazards at the
/// Python lines), not translated: CuPy's ROCm build hands the code to hipRTC as written (its
/// `compiler._convert_to_hip_source` renames nothing from HIP 4.4 on), so CUDA names hipport
/// would rename are the user's to port, and PyCUDA has no ROCm backend to run a port.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RawApi {
    RawKernel,
    RawModule,
    SourceModule,
    DynamicSourceModule,
}

impl RawApi {
    /// The API a call name names, where the file uses its library (`cupy`, `pycuda`).
    fn named(name: &str, cupy: bool, pycuda: bool) -> Option<RawApi> {
        match name {
            "RawKernel" if cupy => Some(RawApi::RawKernel),
            "RawModule" if cupy => Some(RawApi::RawModule),
            "SourceModule" if pycuda => Some(RawApi::SourceModule),
            "DynamicSourceModule" if pycuda => Some(RawApi::DynamicSourceModule),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            RawApi::RawKernel => "RawKernel",
            RawApi::RawModule => "RawModule",
            RawApi::SourceModule => "SourceModule",
            RawApi::DynamicSourceModule => "DynamicSourceModule",
        }
    }

    /// The keyword of the source argument (which is also the first positional one).
    fn arg(self) -> &'static str {
        match self {
            RawApi::RawKernel | RawApi::RawModule => "code",
            RawApi::SourceModule | RawApi::DynamicSourceModule => "source",
        }
    }

    fn is_pycuda(self) -> bool {
        matches!(self, RawApi::SourceModule | RawApi::DynamicSourceModule)
    }
}

/// Why a value reaching `load_inline` is not a string hipport can read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opaque {
    /// `open(...).read()`, `Path.read_text()`: the text is in another file.
    ReadsFile,
    /// `"...".format(...)`, `"..." % x`: the text is built at run time.
    Formatted,
    /// A name with no assignment in this file (a parameter, an import).
    Untraced,
    /// A name unpacked from a value that is not a tuple or list of as many literal elements as
    /// there are names (`a, b = make()`).
    Unpacked,
    /// Any other expression.
    Computed,
}

/// What an argument expression comes to.
#[derive(Debug)]
enum Found {
    /// Adjacent literals (token indexes), one text.
    Literals(Vec<usize>),
    /// A value hipport cannot read, at a token range.
    Opaque(Opaque, Range<usize>),
}

/// Translates and checks the strings that reach `load_inline` calls in a Python file, and checks
/// (without translating) those that reach CuPy's and PyCUDA's source calls ([`RawApi`]). `file`
/// labels the diagnostics. Files that name none of these calls, or are not UTF-8, give nothing.
pub fn translate_inline_sources(src: &[u8], file: &str, opts: &Options) -> InlineResult {
    let mut out = InlineResult::default();
    let has = |w: &[u8]| memchr::memmem::find(src, w).is_some();
    let cupy = has(b"cupy") && (has(b"RawKernel") || has(b"RawModule"));
    let pycuda = has(b"pycuda") && has(b"SourceModule");
    if !has(b"load_inline") && !cupy && !pycuda {
        return out;
    }
    let Ok(s) = std::str::from_utf8(src) else {
        return out;
    };
    let toks = tokens(s);
    let index = LineIndex::new(src);
    let mut reader = Reader::new(s, &toks);
    reader.raw = (cupy, pycuda);
    // One note per library, at its first call.
    let mut raw_noted: HashSet<bool> = HashSet::new();
    // Each group of literals once, with the argument it reaches first.
    let mut groups: Vec<(Vec<usize>, Role)> = Vec::new();
    let mut seen_groups: HashSet<usize> = HashSet::new();
    let mut seen_opaque: HashSet<(usize, usize)> = HashSet::new();
    for (call, api) in reader.calls() {
        let call_line = index.position(tok_start(&toks[call])).0;
        let Arguments { sources, spread } = reader.arguments(call, api);
        let mut found: Vec<(Role, Found)> = Vec::new();
        // `load_inline(name, **kwargs)`: the sources are in a dictionary hipport does not read.
        let main = api.map_or(Role::Cuda, Role::Raw);
        if !sources.iter().any(|(role, _)| *role == main) {
            if let Some(r) = spread {
                found.push((main, Found::Opaque(Opaque::Computed, r)));
            }
        }
        if let Some(api) = api {
            if !sources.is_empty() && raw_noted.insert(api.is_pycuda()) {
                out.diagnostics
                    .push(raw_note(api, file, &index, tok_start(&toks[call])));
            }
        }
        for (role, expr) in sources {
            let mut reached = Vec::new();
            reader.reach(expr, 0, &mut HashSet::new(), &mut reached);
            found.extend(reached.into_iter().map(|f| (role, f)));
        }
        for (role, f) in found {
            match f {
                Found::Literals(lits) => {
                    if seen_groups.insert(lits[0]) {
                        groups.push((lits, role));
                    }
                }
                Found::Opaque(why, range) => {
                    if seen_opaque.insert((range.start, range.end)) {
                        out.diagnostics.push(opaque_note(
                            s, &toks, &index, file, role, why, range, call_line,
                        ));
                    }
                }
            }
        }
    }
    for (lits, role) in groups {
        translate_group(s, &toks, &lits, role, &index, file, opts, &mut out);
    }
    out.edits
        .sort_by(|a, b| a.start.cmp(&b.start).then(a.end.cmp(&b.end)));
    out.diagnostics
        .sort_by_key(|d| (d.offset, d.id.clone(), d.message.clone()));
    out
}

/// Translates one text made of the literals `lits` and maps the result back into `out`.
#[allow(clippy::too_many_arguments)]
fn translate_group(
    s: &str,
    toks: &[Tok],
    lits: &[usize],
    role: Role,
    index: &LineIndex,
    file: &str,
    opts: &Options,
    out: &mut InlineResult,
) {
    let mut value = Value::default();
    for &k in lits {
        let Tok::Str {
            quote_at,
            end,
            quote,
            triple,
            prefix,
            ..
        } = &toks[k]
        else {
            continue;
        };
        let open = if *triple { 3 } else { 1 };
        // An unterminated literal (invalid Python) is left alone.
        let closing = quote.to_string().repeat(open);
        if *end < quote_at + 2 * open || !s[..*end].ends_with(closing.as_str()) {
            return;
        }
        let content = quote_at + open..end - open;
        let Some(form) = Form::new(prefix, *quote, *triple) else {
            // `load_inline` joins its sources as text: bytes are an error there, not CUDA.
            out.diagnostics.push(Diagnostic::at(
                B_INLINE,
                file,
                index,
                *quote_at,
                format!(
                    "this `{}` string of `{call}` is a bytes literal (`{prefix}`), which `{call}` cannot join with its text: hipport leaves it as written",
                    role.arg(),
                    call = role.call()
                ),
                Some("write it as a str literal (no `b` prefix)".into()),
            ));
            return;
        };
        if let Err(e) = value.push(s, content, form) {
            out.diagnostics.push(Diagnostic::at(
                B_INLINE,
                file,
                index,
                e.at(),
                format!(
                    "this `{}` string of `{}` is neither translated nor checked: it holds {e}",
                    role.arg(),
                    role.call()
                ),
                Some(format!(
                    "write the character itself, or {}",
                    role.move_help()
                )),
            ));
            return;
        }
    }
    if value.is_empty() {
        return;
    }
    // torch's load/load_inline pass -DUSE_ROCM=1 to hipcc, as its setup.py builds do; the
    // reports stay unmerged until the run has applied --allow/--deny.
    let mut jit = opts.clone();
    let checked_only = matches!(role, Role::Raw(_));
    if !checked_only && !jit.defines.iter().any(|d| d.name == "USE_ROCM") {
        jit.defines.push(crate::analysis::Define {
            name: "USE_ROCM".into(),
            value: Some(1),
            undefined: false,
        });
    }
    let r = match translate::translate_source_at(value.text.as_bytes(), file, file, &jit) {
        Ok(r) => r,
        Err(e) => {
            let at = value.file_offset(0);
            out.diagnostics.push(Diagnostic::at(
                B_INLINE,
                file,
                index,
                at,
                format!(
                    "this `{}` string of `{}` could not be translated: {e}",
                    role.arg(),
                    role.call()
                ),
                Some(role.move_help().into()),
            ));
            return;
        }
    };
    let value_index = LineIndex::new(value.text.as_bytes());
    let mut renames = r.renames;
    // load_inline puts the runtime's includes before `cuda_sources` itself (hipified to
    // hip/hip_runtime.h on ROCm), so the include a source file would get is left out.
    // A string only checked keeps its text: no edit, no rename.
    let edits = if checked_only { &[][..] } else { &r.edits[..] };
    if checked_only {
        renames.clear();
    }
    for e in edits.iter().filter(|e| e.rule != "runtime-include") {
        match value.map_edit(e.start, e.end, &e.text) {
            Ok(mapped) => out.edits.extend(
                mapped
                    .into_iter()
                    .map(|(a, b, t)| Edit::replace(a, b, t, e.rule.as_str())),
            ),
            Err(why) => {
                if let Some(n) = renames.get_mut(&e.rule) {
                    *n = n.saturating_sub(1);
                }
                out.diagnostics
                    .push(skipped_note(&value, e, &why, index, file, role));
            }
        }
    }
    renames.retain(|_, n| *n > 0);
    for (family, n) in renames {
        *out.renames.entry(family).or_default() += n;
    }
    for mut d in r.diagnostics {
        if d.id == "H003"
            && d.message
                .contains("only when HIP_ENABLE_WARP_SYNC_BUILTINS")
        {
            d.help = match role {
                Role::Raw(api) if !api.is_pycuda() => Some(CUPY_WARP_SYNC_HELP.into()),
                Role::Raw(_) => d.help,
                _ => Some(JIT_WARP_SYNC_HELP.into()),
            };
        }
        let at = value.file_offset(d.offset);
        let (line, column) = index.position(at);
        d.file = file.to_string();
        d.offset = at;
        d.line = line;
        d.column = column;
        let to_file_line = |l: usize| {
            let v = value_index.line_range(value.text.as_bytes(), l).start;
            index.position(value.file_offset(v)).0
        };
        d.message = value.show(&file_lines(&d.message, value_index.lines(), to_file_line));
        d.help = d
            .help
            .map(|h| value.show(&file_lines(&h, value_index.lines(), to_file_line)));
        let fix: Option<Vec<Edit>> = d
            .fix
            .iter()
            .filter(|_| !checked_only)
            .map(|e| {
                let mapped = value.map_edit(e.start, e.end, &e.text).ok()?;
                Some(
                    mapped
                        .into_iter()
                        .map(|(a, b, t)| Edit::replace(a, b, t, e.rule.as_str()))
                        .collect::<Vec<_>>(),
                )
            })
            .collect::<Option<Vec<Vec<Edit>>>>()
            .map(|v| v.into_iter().flatten().collect());
        // A fix that has no place in the Python file (or in a string only checked) was not
        // applied after all.
        let fix = fix.filter(|f| !checked_only || f.is_empty());
        if fix.is_none() || checked_only {
            if let Some(m) = d.message.strip_suffix(" (fixed by --fix)") {
                d.message = m.to_string();
                d.severity = crate::diag::find(&d.id).map_or(d.severity, |i| i.severity);
            }
        }
        d.fix = fix.unwrap_or_default();
        out.diagnostics.push(d);
    }
}

/// The help of the HIP 6.2/6.3 note on `_sync` warp builtins (H003) in a `load_inline` string.
/// PyTorch's `cpp_extension` puts `-DHIP_ENABLE_WARP_SYNC_BUILTINS=1` in the flags it gives hipcc
/// for every `load`/`load_inline` build (`COMMON_HIPCC_FLAGS`) in recent releases: torch 2.9 has
/// it, the 2.5 line and older do not (the releases between were not checked). So the call is not
/// changed, and the note says which torch needs the flag.
const JIT_WARP_SYNC_HELP: &str = "ROCm PyTorch 2.9 and later define HIP_ENABLE_WARP_SYNC_BUILTINS for load/load_inline builds themselves; with an older torch add extra_cuda_cflags=[\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\"] to the call, or target HIP 7.0, where the builtins are on by default";

/// [`JIT_WARP_SYNC_HELP`] where the build-file pass added the define to this file's calls
/// (see [`settle_warp_sync_help`]).
const JIT_WARP_SYNC_ADDED_HELP: &str = "ROCm PyTorch 2.9 and later define HIP_ENABLE_WARP_SYNC_BUILTINS for load/load_inline builds themselves; for an older torch hipport added \"-DHIP_ENABLE_WARP_SYNC_BUILTINS\" to the call's extra_cuda_cflags (B011); keep it while the code must build with ROCm 6.2 to 6.4, or target HIP 7.0, where the builtins are on by default";

/// V18-a: H003's help in a `load_inline` string says hipport added the define only where the
/// build-file pass of the same file (`build`, its diagnostics) did: a B011 note that it was
/// added, and no B011 warning that it could not be.
pub fn settle_warp_sync_help(inline: &mut [Diagnostic], build: &[Diagnostic]) {
    let b011 =
        |d: &&Diagnostic| d.id == "B011" && d.message.contains("HIP_ENABLE_WARP_SYNC_BUILTINS");
    let added = build
        .iter()
        .filter(b011)
        .any(|d| d.message.contains("` added to the hipcc flags"));
    let failed = build
        .iter()
        .filter(b011)
        .any(|d| d.message.contains("hipport could not add it"));
    if !added || failed {
        return;
    }
    for d in inline.iter_mut() {
        if d.id == "H003" && d.help.as_deref() == Some(JIT_WARP_SYNC_HELP) {
            d.help = Some(JIT_WARP_SYNC_ADDED_HELP.into());
        }
    }
}

/// The help of the HIP 6.2/6.3 note on `_sync` warp builtins (H003) in a CuPy string: hipRTC
/// gets the options the call passes, and CuPy adds no such define.
const CUPY_WARP_SYNC_HELP: &str = "pass options=(\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\",) to the call on ROCm, or target HIP 7.0, where the builtins are on by default";

/// The note on the first call of a library whose strings are checked, not translated.
fn raw_note(api: RawApi, file: &str, index: &LineIndex, at: usize) -> Diagnostic {
    let name = api.name();
    let (message, help) = if api.is_pycuda() {
        (
            format!("PyCUDA has no ROCm backend: hipport checks the CUDA this `{name}` compiles (hazards at the Python lines) and leaves it as written"),
            "port the host code to CuPy (`cupy.RawModule`, which CuPy's ROCm build compiles with hipRTC) or to HIP Python (`hip.hiprtc`), and the CUDA with it",
        )
    } else {
        (
            format!("CuPy's ROCm build compiles the CUDA of this `{name}` with hipRTC as written: hipport checks it (hazards at the Python lines) and leaves it as written"),
            "hipRTC takes CUDA's kernel syntax; rename CUDA runtime or library names in the string by hand, and fix what the hazards say",
        )
    };
    Diagnostic::at(B_INLINE, file, index, at, message, Some(help.into()))
}

/// `text` with its references to lines of the string (`line 4`, `lines 4-6`) turned into lines
/// of the Python file; `lines` is the string's line count.
fn file_lines(text: &str, lines: usize, to_file_line: impl Fn(usize) -> usize) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("line") {
        let after_word = &rest[i + 4..];
        let (word_end, after) = match after_word.strip_prefix("s ") {
            Some(a) => (i + 6, a),
            None => match after_word.strip_prefix(' ') {
                Some(a) => (i + 5, a),
                None => {
                    out.push_str(&rest[..i + 4]);
                    rest = after_word;
                    continue;
                }
            },
        };
        let word_start_ok = i == 0 || !rest.as_bytes()[i - 1].is_ascii_alphanumeric();
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        let n: Option<usize> = after[..digits].parse().ok();
        match n.filter(|n| word_start_ok && (1..=lines).contains(n)) {
            Some(n) => {
                out.push_str(&rest[..word_end]);
                out.push_str(&to_file_line(n).to_string());
                rest = &after[digits..];
                // `lines 4-6`: the second number too.
                if let Some(tail) = rest.strip_prefix('-') {
                    let d2 = tail.bytes().take_while(u8::is_ascii_digit).count();
                    if let Some(m) = tail[..d2].parse().ok().filter(|m| (1..=lines).contains(m)) {
                        out.push('-');
                        out.push_str(&to_file_line(m).to_string());
                        rest = &tail[d2..];
                    }
                }
            }
            None => {
                out.push_str(&rest[..word_end]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// The note for a translation edit that has no place in the Python file.
fn skipped_note(
    value: &Value,
    e: &Edit,
    why: &MapError,
    index: &LineIndex,
    file: &str,
    role: Role,
) -> Diagnostic {
    let short = |t: &str| {
        let t = t.trim();
        let line = t.lines().next().unwrap_or("");
        if line.chars().count() > 48 || line.len() < t.len() {
            format!("{}...", line.chars().take(48).collect::<String>())
        } else {
            line.to_string()
        }
    };
    let old = value.show(value.text.get(e.start..e.end).unwrap_or(""));
    let new = value.show(&e.text);
    let what = match (old.is_empty(), new.is_empty()) {
        (true, _) => format!("inserting `{}`", short(&new)),
        (false, true) => format!("removing `{}`", short(&old)),
        (false, false) => format!("`{}` -> `{}`", short(&old), short(&new)),
    };
    Diagnostic::at(
        B_INLINE,
        file,
        index,
        value.file_offset(e.start),
        format!(
            "{what} is not applied in this `{}` string of `{}`: {why}",
            role.arg(),
            role.call()
        ),
        Some("make the change by hand; ROCm PyTorch renames CUDA names in these strings when it builds them, nothing else".into()),
    )
}

/// The note for a value hipport cannot read.
#[allow(clippy::too_many_arguments)]
fn opaque_note(
    s: &str,
    toks: &[Tok],
    index: &LineIndex,
    file: &str,
    role: Role,
    why: Opaque,
    range: Range<usize>,
    call_line: usize,
) -> Diagnostic {
    let at = tok_start(&toks[range.start]);
    let end = tok_end(&toks[range.end - 1]).max(at);
    let mut text: String = s[at..end].split_whitespace().collect::<Vec<_>>().join(" ");
    if text.chars().count() > 60 {
        text = format!("{}...", text.chars().take(60).collect::<String>());
    }
    let arg = role.arg();
    let call = role.call();
    let moved = match role {
        Role::Raw(_) => role.move_help(),
        _ => "move the CUDA into a .cu file that `load` builds",
    };
    let (message, help) = match why {
        Opaque::ReadsFile => (
            format!("`{text}` gives `{call}` (line {call_line}) its `{arg}` from a file at run time: hipport does not translate or check it here"),
            "convert that file with hipport too: a source with a .cu/.cuh/.cpp name in the tree is translated and checked like any other".to_string(),
        ),
        Opaque::Formatted => (
            format!("`{text}` builds the `{arg}` of `{call}` (line {call_line}) by formatting at run time: hipport does not translate or check it"),
            "write the CUDA as a plain or f-string literal, or run `hipport check` on a copy of the formatted text".to_string(),
        ),
        Opaque::Untraced => (
            format!("`{text}`, the `{arg}` of `{call}` (line {call_line}), is not assigned a string literal in this file: hipport does not translate or check it"),
            format!("assign the string literal to it in this file, or {moved}"),
        ),
        Opaque::Unpacked => (
            format!("`{text}` is unpacked into several names, one of which is the `{arg}` of `{call}` (line {call_line}), and is not a tuple of as many values: hipport does not translate or check it"),
            format!("assign the string literal to that name on its own (`cu = \"\"\"...\"\"\"`), or {moved}"),
        ),
        Opaque::Computed => (
            format!("`{text}`, the `{arg}` of `{call}` (line {call_line}), is computed: hipport does not translate or check it"),
            format!("give `{call}` string literals (or variables assigned them), or {moved}"),
        ),
    };
    Diagnostic::at(B_INLINE, file, index, at, message, Some(help))
}

/// The arguments of one `load_inline` call that may carry sources.
struct Arguments {
    /// `cpp_sources` and `cuda_sources`, by keyword or position.
    sources: Vec<(Role, Range<usize>)>,
    /// The last `*args` or `**kwargs` argument.
    spread: Option<Range<usize>>,
}

/// Reads `load_inline` calls and what their arguments come to.
struct Reader<'a> {
    src: &'a str,
    toks: &'a [Tok],
    /// Bracket depth before each token.
    depth: Vec<usize>,
    /// The values each name is assigned by statements of the file.
    assigned: HashMap<&'a str, Vec<Assigned>>,
    /// The names calls of `load_inline` use: `load_inline` and its import aliases
    /// (`from torch.utils.cpp_extension import load_inline as jit_inline`).
    call_names: HashSet<&'a str>,
    /// Names whose values have been followed already: following them again, for another
    /// call, finds the same literals (each translated once) and notes (each given once), so
    /// a file of many calls and reassignments is read in linear time.
    followed: std::cell::RefCell<HashSet<&'a str>>,
    /// Whether the file uses CuPy and PyCUDA, whose source calls ([`RawApi`]) are read too.
    raw: (bool, bool),
}

/// What a statement assigns to one name, as a token range.
#[derive(Clone, Debug)]
enum Assigned {
    /// The whole value (`a = ...`, `a = b = ...`, `a += ...`) or its element for this name
    /// (`a, b = "...", "..."`).
    Value(Range<usize>),
    /// The value of an unpacking that cannot be split by name (`a, b = make()`).
    Unpacked(Range<usize>),
}

/// How deep brackets and names are followed: deeper values are noted as computed (a file of
/// thousands of nested brackets or chained names must not exhaust the stack).
const MAX_DEPTH: usize = 32;

/// Functions that return their string argument's text (re-indented): `textwrap.dedent(...)`.
const PASS_THROUGH: &[&str] = &["dedent", "cleandoc", "str"];

impl<'a> Reader<'a> {
    fn new(src: &'a str, toks: &'a [Tok]) -> Reader<'a> {
        let mut depth = Vec::with_capacity(toks.len());
        let mut d = 0usize;
        for t in toks {
            depth.push(d);
            d = d.saturating_add_signed(nesting(t));
        }
        let mut r = Reader {
            src,
            toks,
            depth,
            assigned: HashMap::new(),
            call_names: HashSet::new(),
            followed: Default::default(),
            raw: (false, false),
        };
        r.assigned = r.assignments();
        r.call_names = r.call_names();
        r
    }

    fn ident(&self, k: usize) -> Option<&str> {
        match self.toks.get(k) {
            Some(Tok::Ident { text, .. }) => Some(text),
            _ => None,
        }
    }

    fn punct(&self, k: usize, c: char) -> bool {
        matches!(self.toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c)
    }

    /// The token that closes the bracket opened at `open`.
    fn close_of(&self, open: usize) -> Option<usize> {
        let d = self.depth[open];
        (open + 1..self.toks.len()).find(|&j| self.depth[j] == d + 1 && nesting(&self.toks[j]) < 0)
    }

    /// The `load_inline` identifiers (or aliases) of calls (not of a definition
    /// `def load_inline(`). `ext.load_inline(...)` after `import torch.utils.cpp_extension as
    /// ext` and `cpp_extension.load_inline(...)` name it as it is; an alias is a call only
    /// where it is not an attribute (`jit_inline(...)`, not `x.jit_inline(...)`).
    /// With the `load_inline` calls come CuPy's and PyCUDA's source calls (`cp.RawKernel(`,
    /// `SourceModule(`), each with its [`RawApi`].
    fn calls(&self) -> Vec<(usize, Option<RawApi>)> {
        (0..self.toks.len())
            .filter(|&k| {
                self.punct(k + 1, '(')
                    && (k == 0 || !matches!(self.ident(k - 1), Some("def" | "class")))
            })
            .filter_map(|k| {
                let n = self.ident(k)?;
                if n == "load_inline"
                    || self.call_names.contains(n) && !self.punct(k.wrapping_sub(1), '.')
                {
                    return Some((k, None));
                }
                RawApi::named(n, self.raw.0, self.raw.1).map(|api| (k, Some(api)))
            })
            .collect()
    }

    /// The names that `load_inline` is imported or assigned as: `from ...cpp_extension import
    /// load_inline as X` and `X = <module>.load_inline` (or `X = load_inline`).
    fn call_names(&self) -> HashSet<&'a str> {
        let mut out = HashSet::new();
        let toks = self.toks;
        for k in 0..toks.len() {
            if self.ident(k) != Some("load_inline") {
                continue;
            }
            // `import ..., load_inline as X` (in a `from` import, in or out of parentheses).
            if self.ident(k + 1) == Some("as") {
                if let Some(Tok::Ident { text, .. }) = toks.get(k + 2) {
                    out.insert(text.as_str());
                }
                continue;
            }
            // `X = load_inline` / `X = torch.utils.cpp_extension.load_inline`, the whole value.
            let mut j = k;
            while j >= 2 && self.punct(j - 1, '.') && self.ident(j - 2).is_some() {
                j -= 2;
            }
            let ends_statement = k + 1 == toks.len() || self.line_break_before(k + 1);
            if ends_statement && j >= 2 && self.punct(j - 1, '=') && self.starts_statement(j - 2) {
                if let Some(Tok::Ident { text, .. }) = toks.get(j - 2) {
                    out.insert(text.as_str());
                }
            }
        }
        out.remove("load_inline");
        out
    }

    /// The top-level comma-separated token ranges between the bracket at `open` and its close.
    fn elements(&self, open: usize) -> Vec<Range<usize>> {
        let Some(close) = self.close_of(open) else {
            return Vec::new();
        };
        let inner = self.depth[open] + 1;
        let mut out = Vec::new();
        let mut from = open + 1;
        for j in open + 1..=close {
            if j == close || self.depth[j] == inner && self.punct(j, ',') {
                if from < j {
                    out.push(from..j);
                }
                from = j + 1;
            }
        }
        out
    }

    /// The `cpp_sources` and `cuda_sources` arguments of the call named at `call`, by
    /// keyword or position (`load_inline(name, cpp_sources, cuda_sources, ...)`), or the
    /// source argument of `api`'s call (`RawKernel(code, name)`), and the last `*args` or
    /// `**kwargs` argument, which may hold them.
    fn arguments(&self, call: usize, api: Option<RawApi>) -> Arguments {
        let mut out = Vec::new();
        let mut spread = None;
        let mut position = 0;
        for arg in self.elements(call + 1) {
            let keyword = match self.ident(arg.start) {
                Some(name) if self.punct(arg.start + 1, '=') && arg.len() > 2 => Some(name),
                _ => None,
            };
            if self.punct(arg.start, '*') {
                // `*args` / `**kwargs`: nothing here to read, and positions are lost.
                position = usize::MAX;
                spread = Some(arg);
                continue;
            }
            let role = match (keyword, api) {
                (Some(k), Some(api)) => (k == api.arg()).then_some(Role::Raw(api)),
                (Some("cpp_sources"), None) => Some(Role::Cpp),
                (Some("cuda_sources"), None) => Some(Role::Cuda),
                (Some(_), None) => None,
                (None, _) => {
                    let p = position;
                    position = position.saturating_add(1);
                    match (p, api) {
                        (0, Some(api)) => Some(Role::Raw(api)),
                        (1, None) => Some(Role::Cpp),
                        (2, None) => Some(Role::Cuda),
                        _ => None,
                    }
                }
            };
            let value = if keyword.is_some() {
                arg.start + 2..arg.end
            } else {
                arg
            };
            if let Some(role) = role {
                out.push((role, value));
            }
        }
        Arguments {
            sources: out,
            spread,
        }
    }

    /// What the expression `r` comes to, into `out`; `names` are the variables being followed,
    /// `level` how many brackets and names deep `r` is.
    fn reach(
        &self,
        r: Range<usize>,
        level: usize,
        names: &mut HashSet<&'a str>,
        out: &mut Vec<Found>,
    ) {
        if r.is_empty() {
            return;
        }
        if level > MAX_DEPTH {
            out.push(Found::Opaque(Opaque::Computed, r));
            return;
        }
        // A bracketed whole: a list or tuple of sources, or parentheses.
        if nesting(&self.toks[r.start]) > 0 && self.close_of(r.start) == Some(r.end - 1) {
            let elems = self.elements(r.start);
            let tuple = elems.len() != 1 || self.punct(r.end - 2, ',') || !self.punct(r.start, '(');
            if tuple {
                for e in elems {
                    self.reach(e, level + 1, names, out);
                }
            } else {
                self.reach(r.start + 1..r.end - 1, level + 1, names, out);
            }
            return;
        }
        // Parts joined by `+` at this level; adjacent literal parts are one text.
        let parts = self.split_top(r.clone(), '+');
        let mut run: Vec<usize> = Vec::new();
        for part in parts {
            match self.literal_part(part.clone()) {
                Some(lits) => run.extend(lits),
                None => {
                    if !run.is_empty() {
                        out.push(Found::Literals(std::mem::take(&mut run)));
                    }
                    self.reach_other(part, level, names, out);
                }
            }
        }
        if !run.is_empty() {
            out.push(Found::Literals(run));
        }
    }

    /// The literals of a part made of adjacent string literals, optionally followed by a
    /// method call on them other than `format` (`"""...""".strip()`).
    fn literal_part(&self, r: Range<usize>) -> Option<Vec<usize>> {
        let lits: Vec<usize> = r
            .clone()
            .take_while(|&j| matches!(self.toks[j], Tok::Str { .. }))
            .collect();
        let after = r.start + lits.len();
        let text_method = after == r.end
            || self.punct(after, '.')
                && self
                    .ident(after + 1)
                    .is_some_and(|m| m != "format" && m != "format_map")
                && self.punct(after + 2, '(')
                && self.close_of(after + 2) == Some(r.end - 1);
        (!lits.is_empty() && text_method).then_some(lits)
    }

    /// A part that is not literals: a variable, a pass-through call, or something opaque.
    fn reach_other(
        &self,
        r: Range<usize>,
        level: usize,
        names: &mut HashSet<&'a str>,
        out: &mut Vec<Found>,
    ) {
        if r.is_empty() {
            return;
        }
        // `*more` in a list or tuple: the entries of `more`.
        if self.punct(r.start, '*') && r.len() > 1 {
            self.reach(r.start + 1..r.end, level + 1, names, out);
            return;
        }
        if let (1, Some(Tok::Ident { text: name, .. })) = (r.len(), self.toks.get(r.start)) {
            if name == "None" || !names.insert(name) {
                return;
            }
            match self.assigned.get(name.as_str()) {
                None => out.push(Found::Opaque(Opaque::Untraced, r)),
                Some(values) => {
                    if self.followed.borrow_mut().insert(name) {
                        for v in values {
                            match v {
                                Assigned::Value(v) => self.reach(v.clone(), level + 1, names, out),
                                Assigned::Unpacked(v) => {
                                    out.push(Found::Opaque(Opaque::Unpacked, v.clone()))
                                }
                            }
                        }
                    }
                }
            }
            names.remove(name.as_str());
            return;
        }
        // `textwrap.dedent(x)`, `str(x)`: the argument's text.
        let call = (r.start..r.end).find(|&j| self.punct(j, '('));
        if let Some(open) = call {
            let name = open.checked_sub(1).and_then(|j| self.ident(j));
            let head_is_name = (r.start..open).all(|j| {
                self.ident(j).is_some() && (j == open - 1 || self.punct(j + 1, '.'))
                    || self.punct(j, '.')
            });
            let args = self.elements(open);
            if head_is_name
                && name.is_some_and(|n| PASS_THROUGH.contains(&n))
                && self.close_of(open) == Some(r.end - 1)
                && args.len() == 1
            {
                self.reach(args[0].clone(), level + 1, names, out);
                return;
            }
        }
        let words: Vec<&str> = r.clone().filter_map(|j| self.ident(j)).collect();
        let why = if words
            .iter()
            .any(|w| matches!(*w, "open" | "read" | "read_text" | "readlines"))
        {
            Opaque::ReadsFile
        } else if r.clone().any(|j| self.punct(j, '%'))
            || words.iter().any(|w| matches!(*w, "format" | "format_map"))
        {
            Opaque::Formatted
        } else {
            Opaque::Computed
        };
        out.push(Found::Opaque(why, r));
    }

    /// The values statements of this file assign to names: `name = ...`, `name: str = ...`,
    /// `name += ...`, chained `a = b = ...` (each name the value) and unpacking
    /// `a, b = x, y` (each name its element; [`Assigned::Unpacked`] where the value is not a
    /// tuple or list of as many elements).
    fn assignments(&self) -> HashMap<&'a str, Vec<Assigned>> {
        let mut out: HashMap<&'a str, Vec<Assigned>> = HashMap::new();
        for k in 0..self.toks.len() {
            let opens = self.punct(k, '(') || self.punct(k, '[');
            if self.ident(k).is_none() && !opens || !self.starts_statement(k) {
                continue;
            }
            // The target lists, each followed by its `=`, and where the value starts.
            let mut targets: Vec<Vec<&'a str>> = Vec::new();
            let mut j = k;
            loop {
                let mut names = Vec::new();
                // `(a, b) = ...` / `[a, b] = ...`: the names inside the brackets.
                let close = (self.punct(j, '(') || self.punct(j, '['))
                    .then(|| self.close_of(j))
                    .flatten();
                let mut t = if close.is_some() { j + 1 } else { j };
                while let Some(Tok::Ident { text, .. }) = self.toks.get(t) {
                    names.push(text.as_str());
                    t += 1;
                    if !self.punct(t, ',') {
                        break;
                    }
                    t += 1;
                }
                if let Some(c) = close {
                    if t != c {
                        break;
                    }
                    t = c + 1;
                }
                if names.is_empty() {
                    break;
                }
                if targets.is_empty() && names.len() == 1 {
                    if self.punct(t, ':') {
                        // An annotation: up to its `=`.
                        while t < self.toks.len()
                            && self.depth[t] >= self.depth[k]
                            && !(self.depth[t] == self.depth[k] && self.punct(t, '='))
                            && !self.line_break_before(t)
                        {
                            t += 1;
                        }
                    } else if self.punct(t, '+') {
                        t += 1;
                    }
                }
                if !self.punct(t, '=') || self.punct(t + 1, '=') || self.line_break_before(t) {
                    break;
                }
                targets.push(names);
                j = t + 1;
                // An augmented assignment has one target.
                if self.punct(t - 1, '+') {
                    break;
                }
            }
            if targets.is_empty() {
                continue;
            }
            let from = j;
            let mut end = from;
            while end < self.toks.len()
                && self.depth[end] >= self.depth[k]
                && !(end > from && self.depth[end] == self.depth[k] && self.line_break_before(end))
                && !(self.depth[end] == self.depth[k] && self.punct(end, ';'))
            {
                end += 1;
            }
            if from >= end {
                continue;
            }
            for names in targets {
                if let [name] = names[..] {
                    out.entry(name)
                        .or_default()
                        .push(Assigned::Value(from..end));
                    continue;
                }
                let elems = self.unpacked(from..end);
                match elems.filter(|e| e.len() == names.len()) {
                    Some(elems) => {
                        for (name, e) in names.into_iter().zip(elems) {
                            out.entry(name).or_default().push(Assigned::Value(e));
                        }
                    }
                    None => {
                        for name in names {
                            out.entry(name)
                                .or_default()
                                .push(Assigned::Unpacked(from..end));
                        }
                    }
                }
            }
        }
        out
    }

    /// The pieces of `r` between the `sep` punctuation at `r`'s own nesting level (the last
    /// piece may be empty).
    fn split_top(&self, r: Range<usize>, sep: char) -> Vec<Range<usize>> {
        let outer = self.depth[r.start];
        let mut pieces = Vec::new();
        let mut from = r.start;
        for j in r.clone() {
            if self.depth[j] == outer && self.punct(j, sep) {
                pieces.push(from..j);
                from = j + 1;
            }
        }
        pieces.push(from..r.end);
        pieces
    }

    /// The elements of a value that unpacking splits by position: a bare tuple (`x, y`) or one
    /// bracketed tuple or list (`(x, y)`, `[x, y]`); `None` for anything else or a starred
    /// element (`*rest`), whose place is not known.
    fn unpacked(&self, r: Range<usize>) -> Option<Vec<Range<usize>>> {
        let bracketed = nesting(&self.toks[r.start]) > 0
            && self.close_of(r.start) == Some(r.end - 1)
            && !self.punct(r.start, '{');
        let elems = if bracketed {
            self.elements(r.start)
        } else {
            // A trailing comma (`x, y,`) ends no further element.
            let mut out = self.split_top(r.clone(), ',');
            out.pop_if(|last| last.start == last.end);
            out
        };
        let single = elems.len() == 1 && !bracketed && !self.punct(r.end - 1, ',');
        if single || elems.iter().any(|e| self.punct(e.start, '*')) {
            return None;
        }
        Some(elems)
    }

    /// Whether a line break (not a `\` continuation) separates token `k` from the one before.
    fn line_break_before(&self, k: usize) -> bool {
        if k == 0 {
            return true;
        }
        let gap = &self.src
            [tok_end(&self.toks[k - 1]).min(tok_start(&self.toks[k]))..tok_start(&self.toks[k])];
        gap.contains('\n')
            && !gap
                .trim_end_matches([' ', '\t', '\r', '\n'])
                .ends_with('\\')
    }

    /// Whether token `k` starts a statement: outside brackets, after a line break, a `;` or the
    /// `:` of a compound statement on one line (`with open(p) as f: src = f.read()`).
    fn starts_statement(&self, k: usize) -> bool {
        self.depth[k] == 0
            && (self.line_break_before(k)
                || self.punct(k.wrapping_sub(1), ';')
                || self.punct(k.wrapping_sub(1), ':'))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::apply;

    fn run(src: &str) -> (String, InlineResult) {
        let opts = Options {
            hip_version: hipport_rules::Version::new(5, 2, 3),
            ..Options::default()
        };
        let r = translate_inline_sources(src.as_bytes(), "jit.py", &opts);
        let out = String::from_utf8(apply(src.as_bytes(), &mut r.edits.clone()).unwrap()).unwrap();
        (out, r)
    }

    fn ids(r: &InlineResult) -> Vec<(usize, &str)> {
        r.diagnostics
            .iter()
            .map(|d| (d.line, d.id.as_str()))
            .collect()
    }

    #[test]
    fn a_literal_in_the_call_is_translated() {
        let src = "from torch.utils.cpp_extension import load_inline\nm = load_inline('m', '', '__global__ void k(float* p) { p[threadIdx.x] = 0; }\\nvoid run(float* p) { k<<<1, 64>>>(p); cudaDeviceSynchronize(); }', functions=['run'])\n";
        let (out, r) = run(src);
        assert_eq!(
            out,
            src.replace("cudaDeviceSynchronize", "hipDeviceSynchronize")
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(r.renames.values().sum::<usize>(), 1, "{:?}", r.renames);
    }

    #[test]
    fn variables_lists_and_concatenations_are_followed() {
        let src = r##"import textwrap
from torch.utils.cpp_extension import load_inline

HEADER: str = "#include <cuda_runtime.h>\n"
unrelated = "cudaMalloc is only named here"

def build():
    kernels = ("__global__ void a(float* p) { p[0] = 1; }\n"
               "void launch_a(float* p, cudaStream_t s) { a<<<1, 1, 0, s>>>(p); }\n")
    kernels += "void sync() { cudaDeviceSynchronize(); }\n"
    more = [textwrap.dedent("""
        void copy(float* d, const float* h) { cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); }
    """), 'cudaError_t last() { return cudaGetLastError(); }']
    return load_inline("m", ["void launch_a(float*, cudaStream_t);"], (HEADER + kernels, *more))
"##;
        let (out, r) = run(src);
        let want = src
            .replace("cuda_runtime.h", "hip/hip_runtime.h")
            .replace("cudaStream_t", "hipStream_t")
            .replace("cudaDeviceSynchronize", "hipDeviceSynchronize")
            .replace("cudaMemcpy", "hipMemcpy")
            .replace("cudaError_t", "hipError_t")
            .replace("cudaGetLastError", "hipGetLastError");
        // `*more` is read through the name, its list like any other.
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(out.matches("hipStream_t").count(), 2, "{out}");
        assert!(out.contains("unrelated = \"cudaMalloc is only named here\""));
        assert_eq!(out, want);
    }

    #[test]
    fn lists_dedent_and_positional_arguments() {
        let src = r#"from torch.utils.cpp_extension import load_inline
import textwrap
m = load_inline(
    "m",
    'cudaStream_t current();',
    [
        textwrap.dedent("""
            void copy(float* d, const float* h) { cudaMemcpy(d, h, 4, cudaMemcpyHostToDevice); }
        """),
        'cudaError_t last() { return cudaGetLastError(); }'.strip(),
    ],
)
"#;
        let (out, r) = run(src);
        assert_eq!(
            out,
            src.replace("cudaStream_t", "hipStream_t")
                .replace("cudaMemcpy", "hipMemcpy")
                .replace("cudaError_t", "hipError_t")
                .replace("cudaGetLastError", "hipGetLastError")
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    }

    #[test]
    fn escapes_stay_escapes_and_positions_count_them() {
        // A C string's `\n` is `\\n` in a plain Python string; the Python `\n` ends C lines.
        let src = "from torch.utils.cpp_extension import load_inline\nsrc = '__global__ void k(int* o) {\\n  printf(\"lane %d\\\\n\", threadIdx.x); int lane = threadIdx.x % 32; o[lane] = 1;\\n}\\n'\nload_inline('k', '', src)\n";
        let (out, r) = run(src);
        assert_eq!(
            out,
            src.replace(", threadIdx.x)", ", (unsigned)threadIdx.x)")
        );
        assert!(out.contains("printf(\"lane %d\\\\n\""), "{out}");
        let d = r
            .diagnostics
            .iter()
            .find(|d| d.id == "H001")
            .expect("the lane index hazard");
        let line2 = src.lines().nth(1).unwrap();
        assert_eq!((d.line, d.column), (2, line2.find("32").unwrap() + 1));
        let shown = d.render(Some(src.as_bytes()), false);
        assert!(shown.contains(line2), "{shown}");
    }

    #[test]
    fn raw_and_one_line_strings_take_only_what_they_can_hold() {
        // `--annotate` puts a comment line above each error: a plain one-line string gets it
        // with a `\n` escape, a raw one cannot hold the line break.
        let src = "from torch.utils.cpp_extension import load_inline\nplain = '__global__ void k(int* o) { int lane = threadIdx.x % 32; o[lane] = 0; }'\nraw = r'__global__ void q(int* o) { int lane = threadIdx.x % 32; o[lane] = 0; cudaDeviceSynchronize(); }'\nload_inline('k', '', [plain, raw])\n";
        let opts = Options {
            hip_version: hipport_rules::Version::new(5, 2, 3),
            annotate: true,
            ..Options::default()
        };
        let r = translate_inline_sources(src.as_bytes(), "jit.py", &opts);
        let out = String::from_utf8(apply(src.as_bytes(), &mut r.edits.clone()).unwrap()).unwrap();
        assert!(
            out.contains("plain = '// hipport: H001 `threadIdx.x % 32` computes"),
            "{out}"
        );
        let plain = out.lines().nth(1).unwrap();
        assert!(plain.contains("\\n__global__ void k"), "{plain}");
        assert!(out.contains("raw = r'__global__ void q(int* o) { int lane = threadIdx.x % 32; o[lane] = 0; hipDeviceSynchronize(); }'"), "{out}");
        let skipped: Vec<&Diagnostic> = r.diagnostics.iter().filter(|d| d.id == "B014").collect();
        assert_eq!(skipped.len(), 1, "{skipped:?}");
        assert_eq!(skipped[0].line, 3);
        assert!(
            skipped[0]
                .message
                .contains("a line break, which a one-line raw string cannot hold"),
            "{}",
            skipped[0].message
        );
    }

    #[test]
    fn f_strings_keep_their_fields() {
        let src = r#"from torch.utils.cpp_extension import load_inline
def build(block, mask):
    src = f"""
__global__ void k(float* p) {{
  float v = p[threadIdx.x];
  v += __shfl_down_sync(0xffffffff, v, {block // 2});
  v += __shfl_xor_sync({mask}, v, 1);
  p[threadIdx.x] = v;
}}
void run(float* p, cudaStream_t s) {{ k<<<1, {block}, 0, s>>>(p); cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, {block} * 4); }}
"""
    return load_inline("k", "", src)
"#;
        let (out, r) = run(src);
        assert!(out.contains("v += __shfl_down(v, {block // 2});"), "{out}");
        assert!(out.contains("hipStream_t s) {{ k<<<1, {block}, 0, s>>>(p); hipFuncSetAttribute(reinterpret_cast<const void*>(k), hipFuncAttributeMaxDynamicSharedMemorySize, {block} * 4); }}"), "{out}");
        // The mask is Python: HIP 5.2.3 cannot take it, and the message shows it as written.
        let t009 = r.diagnostics.iter().find(|d| d.id == "T009").unwrap();
        assert_eq!(t009.line, 7);
        assert!(
            t009.message.contains("with mask `{mask}`"),
            "{}",
            t009.message
        );
        assert!(!out.contains("hipport_field"));
    }

    #[test]
    fn hazards_land_on_the_python_lines_and_a_second_run_changes_nothing() {
        let src = r#"from torch.utils.cpp_extension import load_inline

cuda_src = """
#include <cuda_runtime.h>

__inline__ __device__ float warp_sum(float v) {
  for (int offset = 16; offset > 0; offset >>= 1)
    v += __shfl_xor_sync(0xffffffff, v, offset);
  return v;
}
"""

module = load_inline(name="ws", cpp_sources="", cuda_sources=cuda_src)
"#;
        let (out, r) = run(src);
        let found: Vec<(usize, &str)> = ids(&r);
        assert!(found.contains(&(7, "H001")), "{found:?}");
        assert!(out.contains("#include <hip/hip_runtime.h>\n"), "{out}");
        assert!(out.contains("v += __shfl_xor(v, offset);"), "{out}");
        let (again, r2) = run(&out);
        assert_eq!(again, out);
        assert!(r2.edits.is_empty(), "{:?}", r2.edits);
        assert!(ids(&r2).contains(&(7, "H001")));
    }

    #[test]
    fn what_cannot_be_read_is_noted() {
        let src = r#"from torch.utils.cpp_extension import load_inline
import pathlib
def load_inline(*args, **kwargs):
    pass
def build(param, opts):
    with open("k.cu") as f: text = f.read()
    fmt = "__global__ void k() {{ int x = {}; }}".format(3)
    a = load_inline("a", "", text)
    b = load_inline("b", "", [param, fmt, pathlib.Path("k.cu").read_text(), None])
    c = load_inline("c", **opts)
"#;
        let (out, r) = run(src);
        assert_eq!(out, src);
        let notes: Vec<(usize, &str)> = r
            .diagnostics
            .iter()
            .map(|d| (d.line, &d.message[..d.message.find(' ').unwrap()]))
            .collect();
        assert_eq!(
            notes,
            [
                (6, "`f.read()`"),
                (7, "`\"__global__"),
                (9, "`param`,"),
                (9, "`pathlib.Path(\"k.cu\").read_text()`"),
                (10, "`**opts`,"),
            ]
        );
        assert!(r.diagnostics.iter().all(|d| d.id == "B014"));
        assert!(r.diagnostics[0].message.contains("from a file at run time"));
        assert!(r.diagnostics[1].message.contains("by formatting"));
        assert!(r.diagnostics[2]
            .message
            .contains("not assigned a string literal"));
    }

    #[test]
    fn aliases_and_module_attributes_name_the_call() {
        let src = r#"from torch.utils.cpp_extension import load_inline as jit_inline
import torch.utils.cpp_extension as ext
from torch.utils import cpp_extension
build = cpp_extension.load_inline
a = jit_inline("a", "", "void f() { cudaDeviceSynchronize(); }")
b = ext.load_inline("b", "", "cudaStream_t s;")
c = cpp_extension.load_inline(name="c", cpp_sources="", cuda_sources="cudaEvent_t e;")
d = build("d", "", "cudaError_t r;")
e = other.jit_inline("e", "", "cudaFree(0);")
"#;
        let (out, r) = run(src);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        for renamed in [
            "hipDeviceSynchronize",
            "hipStream_t",
            "hipEvent_t",
            "hipError_t",
        ] {
            assert!(out.contains(renamed), "{renamed}: {out}");
        }
        // An attribute of another object named like the alias is not the call.
        assert!(
            out.contains("other.jit_inline(\"e\", \"\", \"cudaFree(0);\")"),
            "{out}"
        );
    }

    #[test]
    fn chained_and_unpacked_assignments_are_followed() {
        let src = r#"from torch.utils.cpp_extension import load_inline
kernel = shared = """
__global__ void k(float* p) { p[0] = 1; }
void run(float* p, cudaStream_t s) { k<<<1, 1, 0, s>>>(p); }
"""
cpp, cu = "void run(float*, cudaStream_t);", """
void sync() { cudaDeviceSynchronize(); }
"""
(h, g) = ['cudaEvent_t e;', "cudaError_t err;"]
cu += "void last() { cudaGetLastError(); }\n"
left, right = make_sources()
one, two = "cudaFree(0);"
a = load_inline("a", cpp, cu)
b = load_inline("b", h, [g, shared])
c = load_inline("c", "", kernel)
d = load_inline("d", left, right)
e = load_inline("e", "", two)
"#;
        let (out, r) = run(src);
        let want = src
            .replace("cudaStream_t", "hipStream_t")
            .replace("cudaDeviceSynchronize", "hipDeviceSynchronize")
            .replace("cudaEvent_t", "hipEvent_t")
            .replace("cudaError_t", "hipError_t")
            .replace("cudaGetLastError", "hipGetLastError");
        assert_eq!(out, want);
        // What cannot be split by name is noted at its value, once per value.
        let notes: Vec<(usize, &str)> = r
            .diagnostics
            .iter()
            .map(|d| (d.line, d.id.as_str()))
            .collect();
        assert_eq!(notes, [(11, "B014"), (12, "B014")], "{:?}", r.diagnostics);
        assert!(r.diagnostics[0]
            .message
            .contains("is unpacked into several names"));
        assert!(r.diagnostics[0].message.starts_with("`make_sources()`"));
    }

    #[test]
    fn f_strings_that_reuse_their_quote_in_a_field() {
        // Python 3.12 (PEP 701): a field's expression may hold strings in the literal's own
        // quote. They belong to the field: the literal goes on after them.
        let src = r#"from torch.utils.cpp_extension import load_inline
cfg = {"n": 4, "name": "k"}
src = f"__global__ void {cfg["name"]}(float* p) {{ p[{cfg["n"]}] = 0; }} void s() {{ cudaDeviceSynchronize(); }}"
tag = f"{cfg["name"]:'>8} {f"{cfg["n"]}"}" "cudaMalloc stays: not a source"
more = f'void run(cudaStream_t s) {{ {cfg['name']}<<<1, 64, 0, s>>>(nullptr); }}'
m = load_inline("m", "", [src, more])
"#;
        let (out, r) = run(src);
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
        assert_eq!(
            out,
            src.replace("cudaDeviceSynchronize", "hipDeviceSynchronize")
                .replace("cudaStream_t", "hipStream_t")
        );
    }

    #[test]
    fn warp_sync_builtins_on_hip_6_2_name_the_torch_that_defines_them() {
        let src = "from torch.utils.cpp_extension import load_inline\nsrc = '__device__ float f(float v) { return __shfl_xor_sync(0xffffffffffffffffull, v, 1); }'\nload_inline('m', '', src)\n";
        for (hip, noted) in [
            ((6, 2, 0), true),
            ((6, 3, 0), true),
            ((6, 4, 0), true),
            ((7, 0, 0), false),
        ] {
            let opts = Options {
                hip_version: hipport_rules::Version::new(hip.0, hip.1, hip.2),
                ..Options::default()
            };
            let r = translate_inline_sources(src.as_bytes(), "jit.py", &opts);
            let notes: Vec<&Diagnostic> = r.diagnostics.iter().filter(|d| d.id == "H003").collect();
            assert_eq!(
                notes.len(),
                usize::from(noted),
                "{hip:?}: {:?}",
                r.diagnostics
            );
            if noted {
                assert_eq!(notes[0].line, 2);
                assert_eq!(notes[0].help.as_deref(), Some(JIT_WARP_SYNC_HELP));
            }
            // The call itself is left as written: torch 2.9 defines the macro.
            assert!(r.edits.is_empty(), "{:?}", r.edits);
        }
    }

    /// N-c: CUDA in CuPy's `RawKernel`/`RawModule(code=...)` and PyCUDA's `SourceModule`/
    /// `DynamicSourceModule` strings is checked at the Python lines and left as written, with
    /// one note per library; a name that is not the library's call, or a file that does not use
    /// the library, gives nothing.
    #[test]
    fn cupy_and_pycuda_sources_are_checked_not_translated() {
        let cupy = "import cupy as cp\nsrc = r'''\nextern \"C\" __global__ void count(const float *x, unsigned *out) {\n    unsigned m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0.f);\n    if ((threadIdx.x & 31) == 0) out[threadIdx.x / 32] = __popc(m);\n    cudaDeviceSynchronize();\n}\n'''\nk = cp.RawKernel(src, 'count')\nmod = cp.RawModule(options=('-O3',), code=\"__global__ void g(int *p) { p[threadIdx.x % 32] = 0; }\")\nfrom_file = cp.RawModule(path='k.cubin')\n";
        let (out, r) = run(cupy);
        assert_eq!(out, cupy, "checked strings are not changed");
        assert!(r.edits.is_empty() && r.renames.is_empty(), "{r:?}");
        assert_eq!(
            ids(&r),
            [
                (4, "H004"),
                (5, "H001"),
                (5, "H001"),
                (5, "H004"),
                (6, "H012"),
                (9, "B014"),
                (10, "H001"),
            ],
            "{:#?}",
            r.diagnostics
        );
        assert!(r
            .diagnostics
            .iter()
            .all(|d| d.fix.is_empty() && !d.message.contains("fixed by --fix")));
        let note = r.diagnostics.iter().find(|d| d.id == "B014").unwrap();
        assert!(
            note.message.contains("`RawKernel` with hipRTC"),
            "{}",
            note.message
        );

        let pycuda = "import pycuda.autoinit\nfrom pycuda.compiler import DynamicSourceModule, SourceModule\nmod = DynamicSourceModule('''\n__global__ void child(int *p) { p[threadIdx.x] = 1; }\n__global__ void parent(int *p) { if (threadIdx.x == 0) child<<<1, 32>>>(p); }\n''')\nother = SourceModule(source=\"__global__ void h(int *p) { p[threadIdx.x & 31] = 0; }\", options=[])\n";
        let (out, r) = run(pycuda);
        assert_eq!(out, pycuda);
        assert_eq!(
            ids(&r),
            [(3, "B014"), (5, "H012"), (7, "H001")],
            "{:#?}",
            r.diagnostics
        );
        assert!(r.diagnostics[0]
            .message
            .starts_with("PyCUDA has no ROCm backend"));

        // Not the libraries' calls: a class of that name, a file without CuPy or PyCUDA.
        for src in [
            "import cupy\nclass RawKernel(object):\n    pass\n",
            "def SourceModule(s):\n    return s\nSourceModule('__global__ void k(int *p) { p[threadIdx.x & 31] = 0; }')\n",
        ] {
            let (_, r) = run(src);
            assert!(r.diagnostics.is_empty(), "{src}: {:?}", r.diagnostics);
        }
        // A source hipport cannot read is noted with the call's name.
        let (_, r) = run("import cupy\ndef make(code):\n    return cupy.RawKernel(code, 'k')\n");
        assert_eq!(ids(&r), [(3, "B014"), (3, "B014")], "{:#?}", r.diagnostics);
        assert!(
            r.diagnostics[1]
                .message
                .contains("the `code` of `RawKernel` (line 3)"),
            "{:#?}",
            r.diagnostics
        );
    }

    #[test]
    fn deep_and_broken_input_is_bounded() {
        let mut src = String::from("from torch.utils.cpp_extension import load_inline\n");
        for i in 0..5000 {
            src.push_str(&format!("v{} = v{i}\n", i + 1));
        }
        src.push_str("v0 = '__global__ void k() { cudaDeviceSynchronize(); }'\n");
        src.push_str(&format!(
            "load_inline('m', '', {}v5000{})\n",
            "(".repeat(20_000),
            ")".repeat(20_000)
        ));
        src.push_str(
            "load_inline('n', '', v40)\nload_inline('o', '', v3)\nload_inline('p', '', [\n",
        );
        let (out, r) = run(&src);
        // Three names deep is followed; forty is past the limit, and so are the brackets.
        assert_eq!(out.matches("hipDeviceSynchronize").count(), 1);
        let computed = r
            .diagnostics
            .iter()
            .filter(|d| d.message.contains("is computed"))
            .count();
        assert_eq!(computed, 2, "{:?}", r.diagnostics);
    }

    #[test]
    fn cut_and_damaged_files_never_panic_and_edits_apply() {
        let base = r#"from torch.utils.cpp_extension import load_inline
src = f'''
__global__ void k(float* p) {{ p[{i}] = __shfl_xor_sync(0xffffffff, p[0], 16); }}\n\N{BULLET} \x41\u00e9
'''
m = load_inline('m', r"cudaStream_t s();", [src, 'cudaFree(0);\
' "x" + src], functions=['k'])
"#;
        for cut in 0..=base.len() {
            if !base.is_char_boundary(cut) {
                continue;
            }
            for tail in ["", "'", "\"\"\"", "{", "\\", ")", "]"] {
                let src = format!("{}{tail}", &base[..cut]);
                let r = translate_inline_sources(src.as_bytes(), "f.py", &Options::default());
                let mut edits = r.edits.clone();
                assert!(
                    apply(src.as_bytes(), &mut edits).is_ok(),
                    "{src:?}: {:?}",
                    r.edits
                );
                for d in &r.diagnostics {
                    assert!(d.offset <= src.len(), "{d:?}");
                }
            }
        }
    }

    #[test]
    fn crlf_files_continue_one_line_strings() {
        // A `\` before a CRLF line end continues a one-line string, as before an LF.
        let src = "from torch.utils.cpp_extension import load_inline\r\nsrc = 'cudaStream_t s; \\\r\ncudaFree(0);'\r\nload_inline('m', '', src)\r\n";
        let (out, r) = run(src);
        assert_eq!(
            out,
            src.replace("cudaStream_t", "hipStream_t")
                .replace("cudaFree", "hipFree")
        );
        assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    }

    #[test]
    fn file_line_references() {
        let to = |l: usize| l + 10;
        assert_eq!(
            file_lines("could not parse lines 2-3; see line 1 and outline 2", 5, to),
            "could not parse lines 12-13; see line 11 and outline 2"
        );
        assert_eq!(
            file_lines("line 9 of 5, lines", 5, to),
            "line 9 of 5, lines"
        );
    }
}
