//! setup.py for PyTorch extensions: `CUDAExtension` stays (ROCm PyTorch builds it with hipcc);
//! the string literals of nvcc flag lists, `libraries` lists and source names change. Other
//! Python files get the nvcc flag lists alone ([`Scope::Jit`]): JIT builds
//! (`torch.utils.cpp_extension.load`/`load_inline`) hand `extra_cuda_cflags` to hipcc on ROCm;
//! a file that uses `cpp_extension` also gets its literals naming renamed sources changed, by
//! the same code as setup.py's ([`renamed_source`]).
//!
//! Only string literals are edited, and only inside lists whose role is known (the value of an
//! `'nvcc'` key, `nvcc=` or `extra_cuda_cflags=` argument, a variable named like `nvcc_flags` or
//! given as such a value, `libraries=`), plus literals that name renamed sources.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use super::flags::{self, Context};
use super::text::{self, Sink, Style, Word};
use super::{Anchor, BuildOptions, B_COMPILER, B_CONSTRUCT, B_GLOB, B_PATH, B_TORCH};

/// A Python token that matters here.
#[derive(Debug, Clone)]
pub(super) enum Tok {
    /// A string literal: span (from its prefix), opening quote offset, content and quote.
    Str {
        start: usize,
        quote_at: usize,
        end: usize,
        content: String,
        quote: char,
        triple: bool,
        prefix: String,
    },
    /// An identifier.
    Ident { start: usize, text: String },
    /// One punctuation character.
    Punct { at: usize, ch: char },
}

/// How a token changes the bracket depth: +1 opens `(`, `[` or `{`, -1 closes one, 0 otherwise.
pub(super) fn nesting(t: &Tok) -> isize {
    match t {
        Tok::Punct {
            ch: '(' | '[' | '{',
            ..
        } => 1,
        Tok::Punct {
            ch: ')' | ']' | '}',
            ..
        } => -1,
        _ => 0,
    }
}

/// Where a token starts.
pub(super) fn tok_start(t: &Tok) -> usize {
    match t {
        Tok::Str { start, .. } | Tok::Ident { start, .. } => *start,
        Tok::Punct { at, .. } => *at,
    }
}

/// Where a token ends.
pub(super) fn tok_end(t: &Tok) -> usize {
    match t {
        Tok::Str { end, .. } => *end,
        Tok::Ident { start, text } => start + text.len(),
        Tok::Punct { at, ch } => at + ch.len_utf8(),
    }
}

/// The tokens of a Python file: string literals, identifiers and punctuation (comments,
/// numbers and blanks are left out).
pub(super) fn tokens(src: &str) -> Vec<Tok> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'#' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &src[s..i];
            let is_prefix = word.len() <= 2 && word.chars().all(|c| "rRbBuUfF".contains(c));
            if is_prefix && i < b.len() && (b[i] == b'"' || b[i] == b'\'') {
                let (tok, e) = string(src, s, i, word);
                out.push(tok);
                i = e;
            } else {
                out.push(Tok::Ident {
                    start: s,
                    text: word.to_string(),
                });
            }
            continue;
        }
        if c == b'"' || c == b'\'' {
            let (tok, e) = string(src, i, i, "");
            out.push(tok);
            i = e;
            continue;
        }
        if c.is_ascii_whitespace() || c.is_ascii_digit() {
            i += 1;
            continue;
        }
        // Explicit line joining (`'-gencode', 'arch=...', \` at a line's end) is blank: the
        // list or statement goes on as if on one line (the fuzz find in fuzzb-s35b: a list
        // read as two runs rewrote its second pair only on a second run).
        if c == b'\\' {
            let next = if b.get(i + 1) == Some(&b'\r') {
                i + 2
            } else {
                i + 1
            };
            if b.get(next) == Some(&b'\n') {
                i = next + 1;
                continue;
            }
        }
        // Multi-byte UTF-8 characters are skipped whole.
        let ch = src[i..].chars().next().unwrap_or(' ');
        out.push(Tok::Punct { at: i, ch });
        i += ch.len_utf8();
    }
    out
}

/// How deeply f-strings nested in replacement fields are read as f-strings; deeper ones are
/// read as plain literals, so that hostile input cannot exhaust the stack.
const MAX_FSTRING_NESTING: usize = 8;

/// A string literal whose prefix starts at `start` and quote at `q`.
fn string(src: &str, start: usize, q: usize, prefix: &str) -> (Tok, usize) {
    string_nested(src, start, q, prefix, 0)
}

/// [`string`] for a literal `level` f-string replacement fields deep.
fn string_nested(src: &str, start: usize, q: usize, prefix: &str, level: usize) -> (Tok, usize) {
    let b = src.as_bytes();
    let quote = b[q];
    let triple = b.len() >= q + 3 && b[q + 1] == quote && b[q + 2] == quote;
    let open = if triple { 3 } else { 1 };
    let fmt = prefix.contains(['f', 'F']) && level < MAX_FSTRING_NESTING;
    let mut i = q + open;
    let content_start = i;
    loop {
        if i >= b.len() {
            break;
        }
        if fmt && b[i] == b'{' {
            if b.get(i + 1) == Some(&b'{') {
                i += 2;
            } else {
                // A replacement field: Python 3.12 lets its expression hold strings in the
                // literal's own quote (`f"{x["k"]}"`), which must not end the literal.
                i = field_end(src, i, quote, triple, level);
            }
            continue;
        }
        if b[i] == b'\\' {
            // The escaped character, or a line continuation (`\\` and CRLF too), raw or not.
            i += if b.get(i + 1) == Some(&b'\r') && b.get(i + 2) == Some(&b'\n') {
                3
            } else {
                2
            };
            continue;
        }
        if !triple && b[i] == b'\n' {
            break;
        }
        if b[i] == quote
            && (!triple || (b.len() >= i + 3 && b[i + 1] == quote && b[i + 2] == quote))
        {
            break;
        }
        i += 1;
    }
    let content_end = i.min(b.len());
    // An unterminated one-line literal ends before its line break, which still ends the line.
    let closed = i < b.len() && b[i] == quote;
    let end = if closed { i + open } else { i }.min(b.len());
    let tok = Tok::Str {
        start,
        quote_at: q,
        end,
        content: src[content_start..content_end].to_string(),
        quote: quote as char,
        triple,
        prefix: prefix.to_string(),
    };
    (tok, end)
}

/// Where the f-string replacement field that opens at `src[open] == '{'` ends: after its `}`,
/// or, in broken input, at the line break (in a one-line literal), the literal's closing quote
/// in its format specification, or the end of the file, where the literal's own scan goes on.
/// Strings in the expression are read whole, whatever their quote; `level` is the f-string
/// nesting depth of the literal that holds the field.
fn field_end(src: &str, open: usize, quote: u8, triple: bool, level: usize) -> usize {
    let b = src.as_bytes();
    let closes = |i: usize| {
        b[i] == quote && (!triple || b.len() >= i + 3 && b[i + 1] == quote && b[i + 2] == quote)
    };
    let field = Field {
        // Too deep to follow: the brace is read as text.
        too_deep: |open| FieldEnd::Skip(open + 1),
        max_level: MAX_FSTRING_NESTING,
        edge: |i, spec| b[i] == b'\n' && !triple || spec && closes(i),
        string: |open, i, level| {
            // A string in the expression, with its prefix letters.
            let mut s = i;
            while s > open + 1 && b[s - 1].is_ascii_alphabetic() && i - s < 2 {
                s -= 1;
            }
            let pre = &src[s..i];
            let pre = if pre.chars().all(|c| "rRbBuUfF".contains(c)) {
                pre
            } else {
                ""
            };
            Some(string_nested(src, s, i, pre, level + 1).1)
        },
    };
    match field.scan(b, open, level) {
        FieldEnd::Closed(e) | FieldEnd::Stopped(e) | FieldEnd::Skip(e) => e,
        FieldEnd::Open => b.len(),
    }
}

/// How an f-string replacement field ends (see [`Field::scan`]).
pub(super) enum FieldEnd {
    /// At its `}`: the byte after it.
    Closed(usize),
    /// At a byte the caller's `edge` stops at, before the field closes.
    Stopped(usize),
    /// Not read (too deep): go on from here, the brace read as text.
    Skip(usize),
    /// At the end of the text, or in a string that does not close.
    Open,
}

/// An f-string replacement field scanner: brackets nest, strings in the expression are read
/// whole (`string` gives the end of the one whose quote is at `i`, in the field opening at
/// `open`, or `None` when it does not close), and after a top-level `:` the format
/// specification is text with nested fields, `max_level` deep. Serves the setup.py tokenizer
/// (over source text) and the reading of literals' values (over their contents).
pub(super) struct Field<T, E, S>
where
    T: Fn(usize) -> FieldEnd,
    E: Fn(usize, bool) -> bool,
    S: Fn(usize, usize, usize) -> Option<usize>,
{
    /// What a field past `max_level` gives.
    pub too_deep: T,
    /// How many format specifications deep fields are read.
    pub max_level: usize,
    /// Whether to stop at byte `i` (in the format specification or not) before the field closes.
    pub edge: E,
    /// The end of the string whose quote is at `i` in the field opening at `open`, `level` deep.
    pub string: S,
}

impl<T, E, S> Field<T, E, S>
where
    T: Fn(usize) -> FieldEnd,
    E: Fn(usize, bool) -> bool,
    S: Fn(usize, usize, usize) -> Option<usize>,
{
    /// Reads the field that opens at `b[open] == '{'`, `level` deep.
    pub fn scan(&self, b: &[u8], open: usize, level: usize) -> FieldEnd {
        if level >= self.max_level {
            return (self.too_deep)(open);
        }
        let mut depth = 0usize;
        // In the format specification (after a top-level `:`): text with nested fields.
        let mut spec = false;
        let mut i = open + 1;
        while i < b.len() {
            let c = b[i];
            if (self.edge)(i, spec) {
                return FieldEnd::Stopped(i);
            }
            if spec {
                match c {
                    b'{' => {
                        match self.scan(b, i, level + 1) {
                            FieldEnd::Closed(e) | FieldEnd::Skip(e) => i = e,
                            other => return other,
                        }
                        continue;
                    }
                    b'}' => return FieldEnd::Closed(i + 1),
                    b'\\' => i += 1,
                    _ => {}
                }
                i += 1;
                continue;
            }
            match c {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' => depth = depth.saturating_sub(1),
                b'}' if depth == 0 => return FieldEnd::Closed(i + 1),
                b'}' => depth -= 1,
                b':' if depth == 0 => spec = true,
                b'\\' => i += 1,
                b'\'' | b'"' => {
                    match (self.string)(open, i, level) {
                        Some(end) => i = end,
                        None => return FieldEnd::Open,
                    }
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        FieldEnd::Open
    }
}

/// The role of a list, from what precedes its `[`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Role {
    Nvcc,
    Libraries,
    /// Linker flags (`extra_ldflags=`, `extra_link_args=`), which JIT builds hand to the linker.
    Link,
    Other,
}

/// What a Python file is to the translator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// setup.py: flag lists, appends, `libraries`, sources, `CUDA_HOME`, `TORCH_CUDA_ARCH_LIST`.
    Setup,
    /// Any other Python file: only what is handed to nvcc (hipcc on ROCm), such as the
    /// `extra_cuda_cflags` of a JIT build, and in a file that uses `cpp_extension` the literals
    /// that name renamed sources (`load(sources=...)`, a kernel file read for `load_inline`).
    Jit,
}

/// Whether a Python file uses `torch.utils.cpp_extension` (`load`, `load_inline`): a JIT build,
/// whose literals naming renamed sources follow the renames as setup.py's do.
pub(crate) fn builds_extension(src: &[u8]) -> bool {
    memchr::memmem::find(src, b"cpp_extension").is_some()
}

/// A Python `import` or `from ... import` statement.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Import {
    /// Leading dots of a relative import (0 for an absolute one).
    pub level: usize,
    /// The dotted module path, split at its dots (empty for `from . import x`).
    pub module: Vec<String>,
    /// The names imported from it (`from m import a, b`), which may be submodules.
    pub names: Vec<String>,
    /// The name the file binds: one for each of `names` (its `as` alias, else the name itself),
    /// and for `import m as a` the alias alone (`import m` binds none: `m` is used dotted).
    pub bound: Vec<String>,
    /// `from m import *`.
    pub star: bool,
    /// The statement's bytes.
    pub span: std::ops::Range<usize>,
}

/// The imports of a Python file, read from its tokens.
pub(crate) fn imports(src: &str) -> Vec<Import> {
    imports_in(&tokens(src))
}

/// The imports among a Python file's tokens (see [`imports`]).
fn imports_in(toks: &[Tok]) -> Vec<Import> {
    let ident = |k: usize| match toks.get(k) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    // A dotted name from token `k`: its parts and the token after it.
    let dotted = |mut k: usize| {
        let mut parts = Vec::new();
        while let Some(name) = ident(k).filter(|n| *n != "import") {
            parts.push(name.to_string());
            k += 1;
            if !punct(k, '.') {
                break;
            }
            k += 1;
        }
        (parts, k)
    };
    let mut out = Vec::new();
    // Tokens before `skip` belong to a statement already read.
    let mut skip = 0;
    for k in 0..toks.len() {
        if k < skip {
            continue;
        }
        match ident(k) {
            Some("import") => {
                let mut j = k + 1;
                loop {
                    let (module, next) = dotted(j);
                    if module.is_empty() {
                        break;
                    }
                    j = next;
                    let mut bound = Vec::new();
                    if ident(j) == Some("as") {
                        bound.extend(ident(j + 1).map(str::to_string));
                        j += 2;
                    }
                    out.push(Import {
                        level: 0,
                        module,
                        names: Vec::new(),
                        bound,
                        star: false,
                        span: tok_start(&toks[k])..tok_end(&toks[j.min(toks.len()) - 1]),
                    });
                    if !punct(j, ',') {
                        break;
                    }
                    j += 1;
                }
                skip = j;
            }
            Some("from") => {
                let mut j = k + 1;
                let mut level = 0;
                while punct(j, '.') {
                    level += 1;
                    j += 1;
                }
                let (module, next) = dotted(j);
                j = next;
                if ident(j) != Some("import") || level == 0 && module.is_empty() {
                    continue;
                }
                j += 1;
                let star = punct(j, '*');
                if punct(j, '(') || star {
                    j += 1;
                }
                let mut names = Vec::new();
                let mut bound = Vec::new();
                while let Some(name) = ident(j).filter(|_| !star) {
                    names.push(name.to_string());
                    j += 1;
                    if ident(j) == Some("as") {
                        bound.push(ident(j + 1).unwrap_or(name).to_string());
                        j += 2;
                    } else {
                        bound.push(name.to_string());
                    }
                    if !punct(j, ',') {
                        break;
                    }
                    j += 1;
                }
                skip = j;
                out.push(Import {
                    level,
                    module,
                    names,
                    bound,
                    star,
                    span: tok_start(&toks[k])..tok_end(&toks[j.min(toks.len()) - 1]),
                });
            }
            _ => {}
        }
    }
    out
}

/// What `torch.utils.cpp_extension` builds with: the extension kinds, the build command and
/// the JIT loaders.
const CPP_EXTENSION_API: &[&str] = &[
    "CUDAExtension",
    "CppExtension",
    "BuildExtension",
    "load",
    "load_inline",
];

/// Whether a Python file builds with `torch.utils.cpp_extension`: its code (not its comments or
/// strings) imports the module or names from it (`from torch.utils.cpp_extension import ...`,
/// `import torch.utils.cpp_extension as ce`, `from torch.utils import cpp_extension`) and, after
/// the import, uses one of [`CPP_EXTENSION_API`] by its imported name or through the module.
pub(crate) fn builds_with_cpp_extension(src: &str) -> bool {
    if !src.contains("cpp_extension") {
        return false;
    }
    let toks = tokens(src);
    let imports = imports_in(&toks);
    let path = ["torch", "utils", "cpp_extension"];
    // Names bound to the API itself, and dotted paths that reach the module.
    let mut direct: HashSet<&str> = HashSet::new();
    let mut modules: Vec<Vec<&str>> = Vec::new();
    for imp in imports.iter().filter(|i| i.level == 0) {
        let from = !imp.names.is_empty() || imp.star;
        if imp.module == path && from {
            let pairs = imp.names.iter().zip(&imp.bound);
            direct.extend(
                pairs
                    .filter(|(n, _)| CPP_EXTENSION_API.contains(&n.as_str()))
                    .map(|(_, b)| b.as_str()),
            );
            if imp.star {
                direct.extend(CPP_EXTENSION_API);
            }
        } else if imp.module == path {
            match imp.bound.first() {
                Some(alias) => modules.push(vec![alias.as_str()]),
                None => modules.push(path.to_vec()),
            }
        } else if imp.module == path[..2] {
            let pairs = imp.names.iter().zip(&imp.bound);
            for (_, b) in pairs.filter(|(n, _)| *n == "cpp_extension") {
                modules.push(vec![b.as_str()]);
            }
        }
    }
    if direct.is_empty() && modules.is_empty() {
        return false;
    }
    let ident = |k: usize| match toks.get(k) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    let dot = |k: usize| matches!(toks.get(k), Some(Tok::Punct { ch: '.', .. }));
    let first_import = imports.iter().map(|i| i.span.start).min().unwrap_or(0);
    (0..toks.len()).any(|k| {
        let at = tok_start(&toks[k]);
        if at < first_import
            || (k > 0 && dot(k - 1))
            || imports.iter().any(|i| i.span.contains(&at))
        {
            return false;
        }
        let Some(name) = ident(k) else { return false };
        direct.contains(name)
            || modules.iter().any(|m| {
                let n = m.len();
                m.iter().enumerate().all(|(i, part)| {
                    ident(k + 2 * i) == Some(part) && (i + 1 == n || dot(k + 2 * i + 1))
                }) && dot(k + 2 * n - 1)
                    && ident(k + 2 * n).is_some_and(|api| CPP_EXTENSION_API.contains(&api))
            })
    })
}

/// Whether a Python file names nvcc or JIT linker flags, which this translator reads in
/// [`Scope::Jit`].
pub(crate) fn may_hold_nvcc_flags(src: &[u8]) -> bool {
    memchr::memmem::find(src, b"extra_cuda_cflags").is_some()
        || memchr::memmem::find(src, b"extra_ldflags").is_some()
        || memchr::memmem::find(src, b"nvcc").is_some()
        || memchr::memmem::find(src, b"NVCC").is_some()
}

/// Where nvcc's flags are in a file: the tokens of values handed to nvcc (`extra_cuda_cflags=...`,
/// `'nvcc': ...`, `nvcc=...`) and the variables such values name.
struct NvccValues {
    /// Per token: inside such a value.
    span: Vec<bool>,
    /// Variables given as (part of) such a value.
    names: HashSet<String>,
}

impl NvccValues {
    fn find(src: &str, toks: &[Tok]) -> NvccValues {
        let mut span = vec![false; toks.len()];
        let mut names = HashSet::new();
        // Bracket depth before each token: outside brackets, a line end ends a statement.
        let mut outer = Vec::with_capacity(toks.len());
        let mut d = 0usize;
        for t in toks {
            outer.push(d);
            d = d.saturating_add_signed(nesting(t));
        }
        let statement_ends = |a: &Tok, b: &Tok| {
            let gap = &src[tok_end(a).min(tok_start(b))..tok_start(b)];
            gap.contains('\n') && !gap.trim_end().ends_with('\\')
        };
        for k in 0..toks.len() {
            let starts = match (&toks[k], toks.get(k + 1), toks.get(k + 2)) {
                (Tok::Ident { text, .. }, Some(Tok::Punct { ch: '=', .. }), next)
                    if text == "extra_cuda_cflags" || text == "nvcc" =>
                {
                    !matches!(next, Some(Tok::Punct { ch: '=', .. }))
                }
                (Tok::Str { content, .. }, Some(Tok::Punct { ch: ':', .. }), _) => {
                    content == "nvcc"
                }
                _ => false,
            };
            if !starts {
                continue;
            }
            let mut depth = 0usize;
            for j in k + 2..toks.len() {
                if depth == 0
                    && outer[k] == 0
                    && j > k + 2
                    && statement_ends(&toks[j - 1], &toks[j])
                {
                    break;
                }
                match &toks[j] {
                    Tok::Punct {
                        ch: ',' | ')' | ']' | '}',
                        ..
                    } if depth == 0 => break,
                    t if nesting(t) != 0 => depth = depth.saturating_add_signed(nesting(t)),
                    Tok::Ident { text, .. } => {
                        let attr_or_call =
                            matches!(
                                toks.get(j + 1),
                                Some(Tok::Punct {
                                    ch: '(' | '.' | '[',
                                    ..
                                })
                            ) || matches!(toks.get(j - 1), Some(Tok::Punct { ch: '.', .. }));
                        let starred = matches!(toks.get(j - 1), Some(Tok::Punct { ch: '*', .. }));
                        let keyword = matches!(
                            text.as_str(),
                            "if" | "else" | "and" | "or" | "not" | "for" | "in" | "None" | "lambda"
                        );
                        if !attr_or_call && !keyword && (depth == 0 || starred) {
                            names.insert(text.clone());
                        }
                    }
                    _ => {}
                }
                span[j] = true;
            }
        }
        NvccValues { span, names }
    }

    /// Whether a variable holds flags for nvcc: named so (`nvcc_flags`) or given as such.
    fn is_nvcc_name(&self, name: &str) -> bool {
        name.to_ascii_lowercase().contains("nvcc") || self.names.contains(name)
    }
}

fn role_before(toks: &[Tok], open: usize, nvcc: &NvccValues) -> Role {
    if nvcc.span[open] {
        return Role::Nvcc;
    }
    let prev = |k: usize| if open >= k { toks.get(open - k) } else { None };
    let named_nvcc = |t: &str| nvcc.is_nvcc_name(t);
    match (prev(1), prev(2), prev(3)) {
        (Some(Tok::Punct { ch: ':', .. }), Some(Tok::Str { content, .. }), _)
            if content == "nvcc" =>
        {
            Role::Nvcc
        }
        (Some(Tok::Punct { ch: ':', .. }), Some(Tok::Str { content, .. }), _)
            if content == "libraries" =>
        {
            Role::Libraries
        }
        (Some(Tok::Punct { ch: '=', .. }), Some(Tok::Ident { text, .. }), _)
            if text == "libraries" =>
        {
            Role::Libraries
        }
        (Some(Tok::Punct { ch: '=', .. }), Some(Tok::Ident { text, .. }), _)
            if text == "extra_ldflags" || text == "extra_link_args" =>
        {
            Role::Link
        }
        (Some(Tok::Punct { ch: '=', .. }), Some(Tok::Ident { text, .. }), _)
            if named_nvcc(text) =>
        {
            Role::Nvcc
        }
        (
            Some(Tok::Punct { ch: '=', .. }),
            Some(Tok::Punct { ch: '+', .. }),
            Some(Tok::Ident { text, .. }),
        ) if named_nvcc(text) => Role::Nvcc,
        // `nvcc_args + [...]`: what is added to nvcc's flags.
        (Some(Tok::Punct { ch: '+', .. }), Some(Tok::Ident { text, .. }), _)
            if named_nvcc(text) && !matches!(prev(3), Some(Tok::Punct { ch: '.', .. })) =>
        {
            Role::Nvcc
        }
        (Some(Tok::Punct { ch: '(', .. }), Some(Tok::Ident { text, .. }), _)
            if text == "extend" =>
        {
            match (prev(3), prev(4)) {
                (Some(Tok::Punct { ch: '.', .. }), Some(Tok::Ident { text, .. }))
                    if named_nvcc(text) =>
                {
                    Role::Nvcc
                }
                _ => Role::Other,
            }
        }
        _ => Role::Other,
    }
}

/// Whether the line holding `at` (a logical line: brackets joined) reads `torch.version.hip`.
fn statement_tests_rocm(src: &str, at: usize) -> bool {
    statement_at(src, at).contains("torch.version.hip")
}

/// The logical line holding `at`: its physical line widened to the brackets around `at`, a
/// few lines each way.
fn statement_at(src: &str, at: usize) -> &str {
    let b = src.as_bytes();
    let mut start = src[..at].rfind('\n').map_or(0, |p| p + 1);
    let mut end = src[at..].find('\n').map_or(src.len(), |p| at + p);
    // Widen to the brackets that hold `at`, a few lines each way.
    for _ in 0..8 {
        let depth: i32 = b[start..end]
            .iter()
            .map(|&c| match c {
                b'(' | b'[' | b'{' => 1,
                b')' | b']' | b'}' => -1,
                _ => 0,
            })
            .sum();
        if depth > 0 && end < src.len() {
            end = src[end + 1..].find('\n').map_or(src.len(), |p| end + 1 + p);
        } else if depth < 0 && start > 0 {
            start = src[..start - 1].rfind('\n').map_or(0, |p| p + 1);
        } else {
            break;
        }
    }
    &src[start..end]
}

/// Translates a setup.py ([`Scope::Setup`]) or the nvcc flags of another Python file
/// ([`Scope::Jit`]).
///
/// In [`Scope::Jit`], `builds` says whether the file's literals naming renamed sources follow
/// (a JIT build, or a module a build imports); `base` is a path in the directory those
/// literals are relative to (the file itself, or the build that imports it).
pub(crate) fn translate(
    src: &str,
    sink: &mut Sink,
    opts: &BuildOptions,
    scope: Scope,
    builds: bool,
    base: &str,
) {
    let toks = tokens(src);
    let nvcc = NvccValues::find(src, &toks);
    let imports = imports_in(&toks);
    let renames = text::renames_from(base, &opts.renamed);
    let dirs = text::dir_renames_from(base, &opts.renamed);
    let exts = text::extension_map(&opts.renamed);
    let (under_module, package_data) = if scope == Scope::Setup {
        (module_joined_sources(&toks), package_data_files(&toks))
    } else {
        (BTreeMap::new(), BTreeMap::new())
    };
    let mut noted_calls: HashSet<(String, usize)> = HashSet::new();
    let jit_build = scope == Scope::Jit && builds;
    // Constants naming a moved directory are rewritten first: the paths built from them, and
    // the names joined to them, are read with their new value.
    let moved_consts = if opts.renamed.is_empty() || !(scope == Scope::Setup || jit_build) {
        BTreeMap::new()
    } else {
        moved_constants(src, &toks, sink, opts, base)
    };
    let const_dirs = if opts.renamed.is_empty() {
        Vec::new()
    } else {
        joined_constant_dirs(src, &toks, &moved_consts)
    };
    let mut in_list = vec![false; toks.len()];
    // V20-d: gcc/g++ links the extension (see [`links_with_host_compiler`]).
    let host_link = scope == Scope::Setup && links_with_host_compiler(&toks);
    // R23-g: the strings removed from torch's `COMMON_NVCC_FLAGS` stay CUDA's (that list is
    // CUDA's on ROCm too): they are marked as read, and the removal is reported.
    if scope == Scope::Setup {
        for k in nvcc_flag_removals(src, &toks, sink) {
            in_list[k] = true;
        }
    }
    // R42-b: a CUDA_HOME test whose other side stops the build.
    let stopped = if scope == Scope::Setup || jit_build {
        cuda_home_stops(src, &toks, sink, opts)
    } else {
        BTreeSet::new()
    };
    let mut stack: Vec<usize> = Vec::new();
    let mut torch_noted = false;
    // R23-i: per list, whether an appended `-gencode` pair already gave it the AMD targets.
    let mut pair_done: BTreeMap<String, bool> = BTreeMap::new();
    // Variables assigned a list that got the `--offload-arch=` flags.
    let mut arch_lists: HashSet<String> = HashSet::new();
    // R29-2 (Megatron): variables joined to a literal list that got them
    // (`['-gencode', 'arch=...'] + extra + cc_flag`), with the token of each such read.
    let mut arch_joined: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct { ch: '[', .. } => stack.push(k),
            Tok::Punct { ch: ']', .. } => {
                if let Some(open) = stack.pop() {
                    if in_list[open + 1..k].iter().any(|&r| r) && removal_list(&toks, open) {
                        continue;
                    }
                    let role = role_before(&toks, open, &nvcc);
                    if scope == Scope::Jit && !matches!(role, Role::Nvcc | Role::Link) {
                        continue;
                    }
                    if let Some(words) = string_list(&toks[open + 1..k]) {
                        for flag in &mut in_list[open + 1..k] {
                            *flag = true;
                        }
                        // A list added to a variable whose assigned list already holds the
                        // AMD targets (`flags += ["-gencode", ...]`) does not repeat them.
                        let mut arch_done = false;
                        let target = list_target(&toks, open);
                        if let Some((name, false)) = &target {
                            arch_done = arch_lists.contains(name);
                        }
                        let had_arch = arch_done;
                        list(src, sink, opts, role, &words, &mut arch_done, host_link);
                        if arch_done && !had_arch {
                            for (name, at) in joined_names(&toks, open, k) {
                                arch_joined.entry(name).or_default().push(at);
                            }
                        }
                        // A list added to one (`flags += [...]`) gets it from the assigned list.
                        if role == Role::Nvcc
                            && opts.warp_sync_define
                            && !matches!(target, Some((_, false)))
                        {
                            match warp_sync_need(src, &toks, open, opts, base) {
                                WarpNeed::Unneeded => {}
                                WarpNeed::Needed => {
                                    warp_sync_flag(src, sink, tok_start(&toks[open]), &words, None)
                                }
                                WarpNeed::Unresolved(file) => warp_sync_flag(
                                    src,
                                    sink,
                                    tok_start(&toks[open]),
                                    &words,
                                    Some(&file),
                                ),
                            }
                        }
                        if let (Some((name, true)), true) = (target, arch_done) {
                            arch_lists.insert(name);
                        }
                    } else if role == Role::Nvcc || scope == Scope::Setup {
                        // `["--threads", nvcc_threads]`: the flag and its computed count go.
                        let ctx = if role == Role::Nvcc {
                            Context::Nvcc
                        } else {
                            Context::Any
                        };
                        threads_with_computed_count(src, &toks, open, sink, opts, ctx);
                        if role != Role::Nvcc {
                            continue;
                        }
                        // A list that also holds computed elements (`"-I" + os.path.join(...)`):
                        // each run of literals between them is a list of flags of its own.
                        let mut arch_done = false;
                        for run in literal_runs(&toks, open) {
                            let mut words = string_list(&toks[run.clone()]).unwrap_or_default();
                            words.retain(|w| !sink.claimed(w.start, w.end));
                            if words.is_empty() {
                                continue;
                            }
                            for flag in &mut in_list[run] {
                                *flag = true;
                            }
                            list(src, sink, opts, role, &words, &mut arch_done, host_link);
                        }
                    }
                }
            }
            // In a JIT build as in setup.py (Megatron's `cpp_extension.CUDA_HOME` handed to a
            // `cuda_dir + "/bin/nvcc"` probe raises TypeError on ROCm before anything builds).
            // Importing the name uses nothing, and a statement that tests ROCm itself
            // (`WITH_CUDA = CUDA_HOME is not None or torch.version.hip`) has its ROCm answer.
            Tok::Ident { start, text }
                if text == "CUDA_HOME"
                    && (scope == Scope::Setup || jit_build)
                    && !stopped.contains(start)
                    && !imports.iter().any(|i| i.span.contains(start))
                    && !statement_tests_rocm(src, *start) =>
            {
                sink.diag(B_CONSTRUCT, *start, "CUDA_HOME is None on ROCm PyTorch".into(), Some("use torch.utils.cpp_extension.ROCM_HOME, or guard with `if torch.version.hip`".into()));
            }
            _ if scope == Scope::Jit => {}
            Tok::Ident { start, text } if text == "CUDAExtension" && !torch_noted => {
                torch_noted = true;
                sink.diag(B_TORCH, *start, "CUDAExtension kept: on ROCm PyTorch it compiles the GPU sources with hipcc".into(), Some("build with a ROCm PyTorch (torch.version.hip set); PYTORCH_ROCM_ARCH is ignored while extra_compile_args['nvcc'] names --offload-arch".into()));
            }
            _ => {}
        }
    }
    // R29-2: a list whose every read is joined to a list that holds the AMD targets gets none
    // from its appended `-gencode` pairs: the command line would list each target twice.
    let mut joined_at: BTreeMap<String, usize> = BTreeMap::new();
    for (name, reads) in &arch_joined {
        if only_joined_reads(&toks, name, reads) {
            pair_done.insert(name.clone(), true);
            joined_at.insert(name.clone(), tok_start(&toks[reads[0]]));
        }
    }
    // Outside lists: `x.append('--use_fast_math')` on an nvcc list, renamed sources, patterns.
    for (k, t) in toks.iter().enumerate() {
        let Tok::Str {
            start,
            quote_at,
            end,
            content,
            quote,
            triple,
            ..
        } = t
        else {
            continue;
        };
        if *triple {
            continue;
        }
        let word = Word {
            start: *quote_at,
            end: *end,
            text: content.clone(),
            quote: Some(*quote),
        };
        let appended = append_context(&toks, k, &nvcc)
            .filter(|&ctx| !in_list[k] && (scope == Scope::Setup || ctx == Context::Nvcc));
        if let Some(ctx) = appended {
            let mut done = false;
            let mapped = flags::map_words(&[content.as_str()], opts, ctx, &mut done);
            // R23-i: `x.append("-gencode")` and, next, `x.append("arch=...")`: hipcc rejects
            // the flag and reads the value as an input file, so the build fails: an error
            // naming both lines.
            if let Some(value_at) = appended_value(&toks, k).filter(|_| {
                matches!(content.as_str(), "-gencode" | "--generate-code")
                    && mapped.changes.is_empty()
            }) {
                let Tok::Str {
                    content: value,
                    prefix: value_prefix,
                    ..
                } = &toks[value_at]
                else {
                    continue;
                };
                // An f-string value (`f"arch=compute_{cc},..."`) is no literal.
                let literal = !value_prefix.contains(['f', 'F']);
                let line = |at: usize| src[..at].matches('\n').count() + 1;
                // Both literal: rewritten as the list form is (`["-gencode", "arch=..."]`):
                // the first append gets the first AMD target, the second the others (or goes);
                // a later pair on the same list, whose targets are given, goes whole.
                let list = match &toks[k - 4] {
                    Tok::Ident { text, .. } => text.clone(),
                    _ => String::new(),
                };
                let joined_line = joined_at.get(&list).map(|&at| line(at));
                let done = pair_done.entry(list).or_insert(false);
                let pair = flags::map_words(
                    &[content.as_str(), value.as_str()],
                    opts,
                    Context::Nvcc,
                    done,
                );
                let first = pair.changes.iter().find(|c| c.0 == 0).map(|c| c.1.clone());
                let stmt = |at: usize| -> Option<(usize, usize)> {
                    // `x.append("v")` from `x` to its `)`, with its line where it stands alone.
                    let Tok::Ident { start: from, .. } = &toks[at - 4] else {
                        return None;
                    };
                    let Some(Tok::Punct { at: close, ch: ')' }) = toks.get(at + 1) else {
                        return None;
                    };
                    let line_start = src[..*from].rfind('\n').map_or(0, |p| p + 1);
                    let line_end = src[*close..]
                        .find('\n')
                        .map_or(src.len(), |p| close + p + 1);
                    let alone = src[line_start..*from].trim().is_empty()
                        && src[close + 1..line_end].trim().is_empty();
                    Some(if alone {
                        (line_start, line_end)
                    } else {
                        (*from, close + 1)
                    })
                };
                let (first_stmt, value_stmt) = (stmt(k), stmt(value_at));
                let rewrote = match (first.filter(|_| literal), first_stmt, value_stmt) {
                    (Some(flags::Action::Replace(v)), Some(_), Some(second)) if !v.is_empty() => {
                        let q = *quote;
                        let lit = |f: &str| format!("{q}{f}{q}");
                        sink.edit(*quote_at, *end, lit(&v[0]), super::B_ARCH.id);
                        let Tok::Str {
                            quote_at: vq,
                            end: ve,
                            ..
                        } = &toks[value_at]
                        else {
                            continue;
                        };
                        match &v[1..] {
                            [] => sink.edit(second.0, second.1, String::new(), super::B_ARCH.id),
                            [one] => sink.edit(*vq, *ve, lit(one), super::B_ARCH.id),
                            more => {
                                let Tok::Ident { start: m, .. } = &toks[value_at - 2] else {
                                    continue;
                                };
                                let items: Vec<String> = more.iter().map(|f| lit(f)).collect();
                                sink.edit(
                                    *m,
                                    tok_end(&toks[value_at + 1]),
                                    format!("extend([{}])", items.join(", ")),
                                    super::B_ARCH.id,
                                )
                            }
                        };
                        Some(format!("`{}`", v.join(" ")))
                    }
                    (Some(flags::Action::Remove), Some(_), Some(second)) => {
                        // `pass` keeps a block that held only the pair (`if ...:`) a block.
                        let Tok::Ident { start: from, .. } = &toks[k - 4] else {
                            continue;
                        };
                        sink.edit(
                            *from,
                            tok_end(&toks[k + 1]),
                            "pass".to_string(),
                            super::B_ARCH.id,
                        );
                        sink.edit(second.0, second.1, String::new(), super::B_ARCH.id);
                        Some(match joined_line {
                            Some(l) => format!("nothing: this list is read only where it is joined to a list that already holds the AMD targets (line {l}), so hipcc would get each target twice"),
                            None => "nothing: the list already holds the AMD targets".to_string(),
                        })
                    }
                    _ => None,
                };
                if let Some(now) = rewrote {
                    sink.diag(
                        super::B_ARCH,
                        *start,
                        format!(
                            "nvcc architecture flag `{content}` (line {}) and its value `{value}` (line {}), appended one at a time -> {now}",
                            line(*start),
                            line(tok_start(&toks[value_at]))
                        ),
                        Some("NVIDIA architectures have no AMD equivalent: list the gfx targets you ship for (hipport --offload-arch)".into()),
                    );
                } else if let Some(n) = mapped.notes.into_iter().next() {
                    sink.diag_as(
                        n.info,
                        crate::diag::Severity::Error,
                        *start,
                        format!(
                            "nvcc architecture flag `{content}` (line {}) and its value `{value}` (line {}), appended one at a time, left in place: hipcc rejects the flag and reads the value as an input file, so the build fails",
                            line(*start),
                            line(tok_start(&toks[value_at]))
                        ),
                        Some(format!(
                            "replace both appends with `{}`",
                            flags::offload_flags(&opts.offload_arch)
                                .iter()
                                .map(|f| format!("append(\"{f}\")"))
                                .collect::<Vec<_>>()
                                .join(", ")
                        )),
                    );
                }
                in_list[value_at] = true;
                continue;
            }
            if !mapped.notes.is_empty() {
                let singles = mapped
                    .changes
                    .iter()
                    .all(|(_, a)| matches!(a, flags::Action::Replace(v) if v.len() == 1));
                let removes = mapped
                    .changes
                    .iter()
                    .any(|(_, a)| matches!(a, flags::Action::Remove));
                if removes {
                    // The whole `x.append('flag')` statement goes (its line, when it stands alone).
                    let Tok::Ident { start: stmt, .. } = &toks[k - 4] else {
                        continue;
                    };
                    let Some(Tok::Punct { at: close, .. }) = toks.get(k + 1) else {
                        continue;
                    };
                    let line_start = src[..*stmt].rfind('\n').map_or(0, |p| p + 1);
                    let line_end = src[*close..]
                        .find('\n')
                        .map_or(src.len(), |p| close + p + 1);
                    let alone = src[line_start..*stmt].trim().is_empty()
                        && src[close + 1..line_end].trim().is_empty();
                    let (s, e) = if alone {
                        (line_start, line_end)
                    } else {
                        (*stmt, close + 1)
                    };
                    let rule = mapped.notes.first().map_or("B002", |n| n.info.id);
                    sink.edit(s, e, "", rule);
                    for n in mapped.notes {
                        sink.note(n, *start);
                    }
                } else if singles {
                    text::apply_mapped(sink, src, &[word], mapped, Style::Blank);
                } else {
                    for n in mapped.notes {
                        sink.note(n.left_as_is(content, "an append() takes one flag"), *start);
                    }
                }
                continue;
            }
        }
        if sink.claimed(*quote_at, *end) {
            continue;
        }
        // A flag-like string a statement tests for (`arg.startswith("-ccbin")`,
        // `"-G" in flags`) is no flag given to anything.
        let tested = tested_for(&toks, k);
        if scope == Scope::Jit {
            if nvcc.span[k] && !in_list[k] && !tested {
                unrewritten_flags(sink, opts, content, *start, Context::Nvcc);
            } else if jit_build
                && !renamed_source(&toks, k, sink, &renames, &dirs, &exts)
                && !sink.claimed(*quote_at, *end)
                && !constant_dir_source(sink, &renames, &const_dirs, content, *quote_at + 1)
            {
                unresolved_source(sink, &renames, content, *start);
            }
            continue;
        }
        if content == "TORCH_CUDA_ARCH_LIST" {
            torch_arch_list(&toks, k, sink, opts);
            continue;
        }
        if let Some(pkg) = package_data.get(&k) {
            // Named relative to its package, as setuptools reads them.
            let in_pkg = format!("{}/{pkg}/package_data", text::dir_of(base));
            let in_pkg = in_pkg.trim_start_matches('/');
            let pkg_renames = text::renames_from(in_pkg, &opts.renamed);
            let pkg_dirs = text::dir_renames_from(in_pkg, &opts.renamed);
            if !renamed_source(&toks, k, sink, &pkg_renames, &pkg_dirs, &exts)
                && !sink.claimed(*quote_at, *end)
            {
                unresolved_source(sink, &pkg_renames, content, *start);
            }
            continue;
        }
        if let Some((dir, call)) = under_module.get(&k) {
            module_source(
                sink,
                &renames,
                content,
                *quote_at + 1,
                dir,
                call,
                &mut noted_calls,
            );
            continue;
        }
        if renamed_source(&toks, k, sink, &renames, &dirs, &exts) {
            continue;
        }
        if !sink.claimed(*quote_at, *end)
            && (constant_dir_source(sink, &renames, &const_dirs, content, *quote_at + 1)
                || unresolved_source(sink, &renames, content, *start))
        {
            continue;
        }
        if flags::is_cuda_path(content) {
            sink.diag(
                B_PATH,
                *start,
                format!("`{content}` is a path into a CUDA installation"),
                Some("ROCm PyTorch finds HIP itself; remove the path".into()),
            );
            continue;
        }
        // nvcc flags in strings hipport cannot rewrite safely (lists built with `+`, f-strings,
        // function arguments) are reported.
        if !in_list[k] && !tested {
            let ctx = if nvcc.span[k] {
                Context::Nvcc
            } else {
                Context::Any
            };
            unrewritten_flags(sink, opts, content, *start, ctx);
        }
    }
    if opts.warp_sync_define && (scope == Scope::Setup || jit_build) {
        missing_warp_sync(src, &toks, sink, opts, base);
    }
    if scope == Scope::Setup || jit_build {
        stale_include_dirs(src, &toks, sink, opts, base, &moved_consts);
        hip_names_of_cuda_sources(&toks, sink, &renames);
        let handled = custom_nvcc_compiler(src, &toks, sink);
        nvcc_probes(src, &toks, sink, &handled);
        renamed_extensions(src, &toks, sink, &exts);
        renamed_suffixes(src, &toks, sink, &opts.renamed);
        renamed_suffix_tuples(src, &toks, sink, &opts.renamed);
    }
}

/// The flags ROCm PyTorch's `torch.utils.cpp_extension.COMMON_HIPCC_FLAGS` disables `__half`
/// with (torch 1.8 to 2.x: `'-D__HIP_NO_HALF_OPERATORS__=1', '-D__HIP_NO_HALF_CONVERSIONS__=1'`,
/// cpp_extension.py); `COMMON_NVCC_FLAGS` is CUDA's list, which a ROCm build does not read.
const HIPCC_HALF_FLAGS: &str = "'-D__HIP_NO_HALF_OPERATORS__=1', '-D__HIP_NO_HALF_CONVERSIONS__=1'";

/// Whether the list opened at `open` is the iterable of a `for NAME in [...]` loop.
fn removal_list(toks: &[Tok], open: usize) -> bool {
    open >= 3
        && matches!(&toks[open - 1], Tok::Ident { text, .. } if text == "in")
        && matches!(&toks[open - 3], Tok::Ident { text, .. } if text == "for")
}

/// R23-g (punica's setup.py): `...COMMON_NVCC_FLAGS.remove(flag)`, directly on a string or in
/// a `for flag in [...]` loop over strings, removes flags from CUDA's list; ROCm PyTorch
/// compiles with `COMMON_HIPCC_FLAGS` (see [`HIPCC_HALF_FLAGS`]), so the removal does nothing
/// there. Where the removal is plain (literal flags, on a module such as `torch_cpp_ext`, a
/// statement of its own), the same removal from `COMMON_HIPCC_FLAGS` in ROCm's spellings
/// follows it, guarded so that it runs on both PyTorch builds (a note); elsewhere a warning
/// says what to remove instead. Returns the tokens of the strings removed (left as written).
fn nvcc_flag_removals(src: &str, toks: &[Tok], sink: &mut Sink) -> Vec<usize> {
    let mut out = Vec::new();
    for k in 0..toks.len().saturating_sub(4) {
        let Tok::Ident { start, text } = &toks[k] else {
            continue;
        };
        if text != "COMMON_NVCC_FLAGS"
            || !matches!(&toks[k + 1], Tok::Punct { ch: '.', .. })
            || !matches!(&toks[k + 2], Tok::Ident { text, .. } if text == "remove")
            || !matches!(&toks[k + 3], Tok::Punct { ch: '(', .. })
        {
            continue;
        }
        // The module the list is read from (`torch_cpp_ext.`, `torch.utils.cpp_extension.`).
        let receiver = k
            .checked_sub(2)
            .filter(|&r| matches!(&toks[r + 1], Tok::Punct { ch: '.', .. }))
            .and_then(|r| {
                let mut first = r;
                while first >= 2
                    && matches!(&toks[first - 1], Tok::Punct { ch: '.', .. })
                    && matches!(&toks[first - 2], Tok::Ident { .. })
                {
                    first -= 2;
                }
                matches!(&toks[r], Tok::Ident { .. })
                    .then(|| tok_start(&toks[first])..tok_end(&toks[r]))
            })
            .filter(|r| {
                src[r.clone()]
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
            });
        let call_start = receiver.as_ref().map_or(*start, |r| r.start);
        let receiver = receiver.map(|r| &src[r]);
        let before = out.len();
        // Where the removal is a statement of its own (a loop's end, the call's line), to
        // write the HIP removal after: `None` where it is not plain.
        let mut after: Option<(usize, usize)> = None;
        let mut plain = true;
        match &toks[k + 4] {
            Tok::Str { .. } if matches!(toks.get(k + 5), Some(Tok::Punct { ch: ')', .. })) => {
                out.push(k + 4);
                after = statement_line(src, call_start, tok_end(&toks[k + 5]));
            }
            Tok::Str { .. } => out.push(k + 4),
            Tok::Ident { text: name, .. } => {
                // The loop over a list of strings that binds `name`, before the call.
                let head = (0..k).rev().find(|&j| {
                    j + 3 < k
                        && matches!(&toks[j], Tok::Ident { text, .. } if text == "for")
                        && matches!(&toks[j + 1], Tok::Ident { text, .. } if text == name)
                        && matches!(&toks[j + 2], Tok::Ident { text, .. } if text == "in")
                        && matches!(&toks[j + 3], Tok::Punct { ch: '[', .. })
                });
                if let Some(j) = head {
                    let mut depth = 0isize;
                    for (i, t) in toks.iter().enumerate().skip(j + 3) {
                        depth += nesting(t);
                        if depth == 1 && i > j + 3 {
                            match t {
                                Tok::Str { .. } => out.push(i),
                                Tok::Punct { ch: ',', .. } => {}
                                _ => plain = false,
                            }
                        } else if depth > 1 {
                            plain = false;
                        }
                        if depth == 0 {
                            break;
                        }
                    }
                    after = loop_end(src, tok_start(&toks[j])).filter(|&(_, at)| at > *start);
                }
            }
            _ => {}
        }
        // ROCm's spellings of the flags removed (each once, in the order written).
        let mut hip: Vec<&str> = Vec::new();
        for &i in &out[before..] {
            let Tok::Str { content, .. } = &toks[i] else {
                continue;
            };
            let flag = content.strip_suffix("=1").unwrap_or(content);
            let spelled = match flag {
                "-D__CUDA_NO_HALF_OPERATORS__" => "-D__HIP_NO_HALF_OPERATORS__=1",
                "-D__CUDA_NO_HALF_CONVERSIONS__" => "-D__HIP_NO_HALF_CONVERSIONS__=1",
                _ => continue,
            };
            if !hip.contains(&spelled) {
                hip.push(spelled);
            }
        }
        if let (true, Some((indent, at)), Some(receiver), false) =
            (plain, after, receiver, hip.is_empty())
        {
            let line = &src[indent..];
            let indent = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
            let unit = if indent.contains('\t') { "\t" } else { "    " };
            let list = hip
                .iter()
                .map(|f| format!("\"{f}\""))
                .collect::<Vec<_>>()
                .join(", ");
            let block = format!(
                "{indent}{HIP_REMOVAL_MARK}\n\
                 {indent}for _hipport_flag in [{list}]:\n\
                 {indent}{unit}if _hipport_flag in getattr({receiver}, \"COMMON_HIPCC_FLAGS\", []):\n\
                 {indent}{unit}{unit}{receiver}.COMMON_HIPCC_FLAGS.remove(_hipport_flag)\n"
            );
            let done = src[at..]
                .trim_start_matches([' ', '\t', '\n', '\r'])
                .starts_with(HIP_REMOVAL_MARK);
            if done || sink.insert_after(at, &block, B_CONSTRUCT.id) {
                sink.diag_as(
                    B_CONSTRUCT,
                    crate::diag::Severity::Note,
                    *start,
                    format!("`COMMON_NVCC_FLAGS.remove(...)` removes nothing from a ROCm build, which compiles with `torch.utils.cpp_extension.COMMON_HIPCC_FLAGS`: {} removed from that list too, where it holds them", hip.join(", ")),
                    Some("the removal after it runs on CUDA and ROCm PyTorch alike (only where the list exists and holds the flag)".into()),
                );
                continue;
            }
        }
        sink.diag(
            B_CONSTRUCT,
            *start,
            "`COMMON_NVCC_FLAGS.remove(...)` removes nothing from a ROCm build: ROCm PyTorch compiles with `torch.utils.cpp_extension.COMMON_HIPCC_FLAGS` instead, whose `__half` switches stay".into(),
            Some(format!("remove {HIPCC_HALF_FLAGS} from COMMON_HIPCC_FLAGS as well (under `if torch.version.hip`), or pass `-U__HIP_NO_HALF_OPERATORS__ -U__HIP_NO_HALF_CONVERSIONS__` in extra_compile_args['nvcc']")),
        );
    }
    out
}

/// The comment that opens the removal from `COMMON_HIPCC_FLAGS` hipport writes (R23-g): a
/// second run finds it after the removal and writes none.
const HIP_REMOVAL_MARK: &str =
    "# hipport: ROCm PyTorch compiles with COMMON_HIPCC_FLAGS, in ROCm's spellings";

/// The line of a call that is a statement of its own (`start..end`, the first thing on its
/// line, nothing but a comment after it): the offset of its line's start (for its indent)
/// and of the next line's start.
fn statement_line(src: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let line_start = src[..start].rfind('\n').map_or(0, |i| i + 1);
    if !src[line_start..start].trim().is_empty() {
        return None;
    }
    let rest_end = src[end..].find('\n').map(|i| end + i)?;
    let rest = src[end..rest_end].trim();
    (rest.is_empty() || rest.starts_with('#')).then_some((line_start, rest_end + 1))
}

/// The end of the body of the loop whose `for` is at `at` (the first thing on its line): the
/// offset of the `for` line's start (for its indent) and of the line after its last body
/// line (blank lines and comments after the body are not its own).
fn loop_end(src: &str, at: usize) -> Option<(usize, usize)> {
    let line_start = src[..at].rfind('\n').map_or(0, |i| i + 1);
    if !src[line_start..at].trim().is_empty() {
        return None;
    }
    let indent = at - line_start;
    let mut pos = src[at..].find('\n').map(|i| at + i + 1)?;
    let mut body_end = pos;
    while pos < src.len() {
        let next = src[pos..].find('\n').map_or(src.len(), |i| pos + i + 1);
        let line = &src[pos..next];
        let text = line.trim_start_matches([' ', '\t']);
        let blank = text.trim().is_empty() || text.starts_with('#');
        if !blank {
            if line.len() - text.len() <= indent {
                break;
            }
            body_end = next;
        }
        pos = next;
    }
    // A body that ends the file without a newline takes none.
    (src[..body_end].ends_with('\n')).then_some((line_start, body_end))
}

/// Whether a literal is a plain file extension (`".cu"`, `".cpp"`).
fn extension_literal(t: &Tok) -> Option<&str> {
    let Tok::Str {
        content,
        prefix,
        triple: false,
        ..
    } = t
    else {
        return None;
    };
    let name = content.strip_prefix('.')?;
    let plain = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '+');
    (plain && !prefix.contains(['f', 'F', 'b', 'B'])).then_some(content.as_str())
}

/// Follows the extensions the run renamed (`.cu` -> `.hip`) where a build selects sources by
/// extension (Z-f: inplace_abn's `find_sources` keeps the files whose `path.splitext` is in
/// `[".cpp", ".cu"]`): a list, tuple or set of extension literals that holds `".cu"` gets
/// `".hip"` beside it, and `name.endswith(".cu")` becomes `name.endswith((".cu", ".hip"))`,
/// each with a note, or the build would silently leave the renamed sources out. Another test
/// of a lone `".cu"` (`ext == ".cu"`) is a warning.
fn renamed_extensions(src: &str, toks: &[Tok], sink: &mut Sink, exts: &BTreeMap<String, String>) {
    if exts.is_empty() {
        return;
    }
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let mut in_lists = vec![false; toks.len()];
    for open in 0..toks.len() {
        let Tok::Punct {
            ch: '[' | '(' | '{',
            ..
        } = toks[open]
        else {
            continue;
        };
        // `(".cpp", ".cu")` is a tuple, not a call's arguments (`f(".cu")`, `x[0](".cu")`).
        let called = open >= 1
            && match &toks[open - 1] {
                Tok::Ident { text, .. } => !matches!(
                    text.as_str(),
                    "in" | "not" | "return" | "and" | "or" | "if" | "else" | "yield" | "for"
                ),
                Tok::Str { .. } => true,
                Tok::Punct { ch, .. } => matches!(ch, ')' | ']'),
            };
        if punct(open, '(') && called {
            continue;
        }
        let elems = list_elements(toks, open);
        let names: Option<Vec<&str>> = elems
            .iter()
            .map(|r| {
                (r.len() == 1)
                    .then(|| extension_literal(&toks[r.start]))
                    .flatten()
            })
            .collect();
        let Some(names) = names.filter(|n| !n.is_empty()) else {
            continue;
        };
        // `(".cu")` is a string in parentheses: a tuple has a comma.
        if punct(open, '(') && elems.len() == 1 && !punct(elems[0].end, ',') {
            continue;
        }
        for r in &elems {
            in_lists[r.start] = true;
        }
        for (old, new) in exts {
            let (old, new) = (format!(".{old}"), format!(".{new}"));
            if names.contains(&new.as_str()) {
                continue;
            }
            let Some(last) = elems
                .iter()
                .zip(&names)
                .rev()
                .find(|(_, n)| **n == old)
                .map(|(r, _)| r.start)
            else {
                continue;
            };
            let Tok::Str { quote, end, .. } = &toks[last] else {
                continue;
            };
            // The list's text, to its closing bracket.
            let mut depth = 0isize;
            let close = toks[open..]
                .iter()
                .find(|t| {
                    depth += nesting(t);
                    depth == 0
                })
                .map_or(*end, tok_end);
            if sink.edit(*end, *end, format!(", {quote}{new}{quote}"), B_GLOB.id) {
                sink.diag_as(
                    B_GLOB,
                    crate::diag::Severity::Note,
                    tok_start(&toks[last]),
                    format!("extension list `{}` gets `{quote}{new}{quote}`: the {old} sources are now {new}", &src[tok_start(&toks[open])..close]),
                    Some(format!("check that the list selects sources; the {old} files it found are the {new} files now")),
                );
            }
        }
    }
    for (k, t) in toks.iter().enumerate() {
        let Some(ext) = extension_literal(t) else {
            continue;
        };
        let Some(new) = ext.strip_prefix('.').and_then(|e| exts.get(e)) else {
            continue;
        };
        if in_lists[k] || !tested_for(toks, k) {
            continue;
        }
        let Tok::Str {
            start, end, quote, ..
        } = t
        else {
            continue;
        };
        let ends_with = sole_endswith_arg(toks, k);
        let text = &src[*start..*end];
        let tuple = format!("({text}, {quote}.{new}{quote})");
        if ends_with && sink.edit(*start, *end, tuple.as_str(), B_GLOB.id) {
            sink.diag_as(
                B_GLOB,
                crate::diag::Severity::Note,
                *start,
                format!(
                    "`endswith({text})` -> `endswith({tuple})`: the {ext} sources are now .{new}"
                ),
                None,
            );
        } else if !sink.claimed(*start, *end) {
            sink.diag(
                B_GLOB,
                *start,
                format!("{text} selects files by the {ext} extension, but the run renamed the {ext} sources to .{new}: it matches none of them now"),
                Some(format!("test for .{new} too where it picks sources")),
            );
        }
    }
}

/// Whether token `k` is the one argument of a `.endswith(...)` call: `name.endswith(".cu")`.
fn sole_endswith_arg(toks: &[Tok], k: usize) -> bool {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    k >= 3
        && punct(k - 1, '(')
        && punct(k + 1, ')')
        && matches!(&toks[k - 2], Tok::Ident { text, .. } if text == "endswith")
        && punct(k - 3, '.')
}

/// Follows the run's renames where a build picks sources by the end of their names (realuser49
/// R49-d: torchsparse's `fpath.endswith('_cuda.cu')` over a glob of the tree, which `--rename
/// torch` leaves matching none of the `*_hip.hip` files): a suffix that renamed sources' old
/// names end with and their new names do not gets the new suffix beside it,
/// `endswith(('_cuda.cu', '_hip.hip'))`, with a note. Bare extensions are
/// [`renamed_extensions`]'s.
/// Whether a string literal (its `prefix` and `content`) may be the end of a file name a rename
/// changes (`"_cuda.cu"`, `".cu"` after a name): plain text holding a dot, no path or pattern.
fn plain_name_end(prefix: &str, content: &str) -> bool {
    !prefix.contains(['f', 'F', 'b', 'B'])
        && content.contains('.')
        && !content.starts_with('.')
        && !content.contains(['/', '\\', '*', '?', '[', '{'])
}

/// The ends that the files whose names ended in `end` have after this run's renames
/// (`_hip.hip` for `_cuda.cu` under `--rename torch`), each once.
fn new_name_ends<'r>(renamed: &'r BTreeMap<String, String>, end: &str) -> Vec<&'r str> {
    let mut news: Vec<&str> = Vec::new();
    for (old, new) in renamed {
        let Some(stem) = old.strip_suffix(end) else {
            continue;
        };
        let Some(suffix) = new.strip_prefix(stem) else {
            continue;
        };
        if suffix != end && !suffix.contains('/') && !news.contains(&suffix) {
            news.push(suffix);
        }
    }
    news
}

fn renamed_suffixes(src: &str, toks: &[Tok], sink: &mut Sink, renamed: &BTreeMap<String, String>) {
    if renamed.is_empty() {
        return;
    }
    for (k, t) in toks.iter().enumerate() {
        let Tok::Str {
            start,
            end,
            content,
            quote,
            triple: false,
            prefix,
            ..
        } = t
        else {
            continue;
        };
        let ends_with = sole_endswith_arg(toks, k);
        if !plain_name_end(prefix, content) || !ends_with || sink.claimed(*start, *end) {
            continue;
        }
        let news = new_name_ends(renamed, content);
        if news.is_empty() {
            continue;
        }
        let text = &src[*start..*end];
        let added: Vec<String> = news.iter().map(|n| format!("{quote}{n}{quote}")).collect();
        let tuple = format!("({text}, {})", added.join(", "));
        if sink.edit(*start, *end, tuple.as_str(), B_GLOB.id) {
            sink.diag_as(
                B_GLOB,
                crate::diag::Severity::Note,
                *start,
                format!(
                    "`endswith({text})` -> `endswith({tuple})`: the sources whose names ended in `{content}` end in {} now",
                    news.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                ),
                None,
            );
        }
    }
}

/// V22-h: [`renamed_suffixes`] for the elements of a tuple that is the one argument of a
/// `.endswith(...)` call (`p.endswith(("_cuda.cu", ".cpp"))`): the new suffixes go at the
/// tuple's end, once, with a note.
fn renamed_suffix_tuples(
    src: &str,
    toks: &[Tok],
    sink: &mut Sink,
    renamed: &BTreeMap<String, String>,
) {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    for open in 3..toks.len() {
        if !(punct(open, '(')
            && punct(open - 1, '(')
            && matches!(&toks[open - 2], Tok::Ident { text, .. } if text == "endswith")
            && punct(open - 3, '.'))
        {
            continue;
        }
        let elems = list_elements(toks, open);
        let Some(last) = elems.last() else {
            continue;
        };
        // The tuple is the call's one argument: its closing parenthesis, then the call's.
        let mut depth = 0isize;
        let Some(close) = toks[open..]
            .iter()
            .position(|t| {
                depth += nesting(t);
                depth == 0
            })
            .map(|p| p + open)
        else {
            continue;
        };
        if !punct(close + 1, ')') {
            continue;
        }
        let mut contents: Vec<&str> = Vec::new();
        let mut quote_of = '"';
        let mut news: Vec<&str> = Vec::new();
        let mut olds: Vec<&str> = Vec::new();
        for r in &elems {
            let Tok::Str {
                start,
                end,
                content,
                quote,
                triple: false,
                prefix,
                ..
            } = &toks[r.start]
            else {
                continue;
            };
            if r.len() != 1 {
                continue;
            }
            contents.push(content.as_str());
            if !plain_name_end(prefix, content) || sink.claimed(*start, *end) {
                continue;
            }
            for suffix in new_name_ends(renamed, content) {
                if !news.contains(&suffix) {
                    news.push(suffix);
                    quote_of = *quote;
                    if !olds.contains(&content.as_str()) {
                        olds.push(content.as_str());
                    }
                }
            }
        }
        news.retain(|n| !contents.contains(n));
        if news.is_empty() {
            continue;
        }
        let after = tok_end(&toks[last.end - 1]);
        let added: Vec<String> = news
            .iter()
            .map(|n| format!("{quote_of}{n}{quote_of}"))
            .collect();
        let text = &src[tok_start(&toks[open])..tok_end(&toks[close])];
        if sink.edit(after, after, format!(", {}", added.join(", ")), B_GLOB.id) {
            sink.diag_as(
                B_GLOB,
                crate::diag::Severity::Note,
                tok_start(&toks[open]),
                format!(
                    "`endswith({text})` gets {}: the sources whose names ended in {} end in {} now",
                    added
                        .iter()
                        .map(|a| format!("`{a}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    olds.iter()
                        .map(|o| format!("`{o}`"))
                        .collect::<Vec<_>>()
                        .join(", "),
                    news.iter()
                        .map(|n| format!("`{n}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                None,
            );
        }
    }
}

/// Functions that look for a program or run a command: `shutil.which`, distutils'
/// `find_executable`, and subprocess's and os's runners.
const PROBES: &[&str] = &[
    "which",
    "find_executable",
    "call",
    "check_call",
    "check_output",
    "run",
    "Popen",
    "getoutput",
    "getstatusoutput",
    "system",
    "popen",
];

/// Warns where a build looks for nvcc (`shutil.which("nvcc")`, `subprocess.call(["nvcc"])`,
/// `os.system("nvcc --version")`, Megatron's `check_output([cuda_dir + "/bin/nvcc", "-V"])`,
/// `os.path.join(CUDA_HOME, "bin", "nvcc")` as the program): a ROCm machine has none, so what
/// the probe gates (nerfacc's `if cuda_toolkit_available(): _C = load(...)`) never runs there,
/// and the port is silently disabled. A statement that also tests `torch.version.hip` or names
/// `hipcc` has its ROCm answer.
fn nvcc_probes(src: &str, toks: &[Tok], sink: &mut Sink, handled: &BTreeSet<usize>) {
    // The lines of the `if` blocks reported here (R23-c).
    let mut probed: BTreeSet<usize> = BTreeSet::new();
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let probe = |k: usize| matches!(toks.get(k), Some(Tok::Ident { text, .. }) if PROBES.contains(&text.as_str()));
    for (k, t) in toks.iter().enumerate() {
        let Tok::Str { start, content, .. } = t else {
            continue;
        };
        if handled.contains(start) {
            continue;
        }
        let program = content.split(' ').next().unwrap_or("");
        let program = program.strip_suffix(".exe").unwrap_or(program);
        let named = program == "nvcc";
        if !named && !program.ends_with("/bin/nvcc") && program != "bin/nvcc" {
            continue;
        }
        // The program is the whole first argument: the literal, or the expression that ends
        // in it (`cuda_dir + "/bin/nvcc"`, `os.path.join(home, "bin", "nvcc")`).
        let Some(first) = program_expression(toks, k) else {
            continue;
        };
        // `probe("nvcc ...")` or `probe(["nvcc", ...])`.
        let called = first >= 2 && punct(first - 1, '(') && probe(first - 2)
            || first >= 3 && punct(first - 1, '[') && punct(first - 2, '(') && probe(first - 3);
        if !called {
            continue;
        }
        let statement = statement_at(src, *start);
        if statement.contains("torch.version.hip") || statement.contains("hipcc") {
            continue;
        }
        let help = "on ROCm test `torch.version.hip` instead (ROCm PyTorch builds with hipcc, under torch.utils.cpp_extension.ROCM_HOME)";
        let at = tok_start(&toks[first]);
        // R29-c: subprocess runs the program itself (no shell) and raises where there is none
        // (FileNotFoundError; TypeError before that where the path is built on CUDA_HOME,
        // None on ROCm PyTorch): the build stops there, outside a `try`, and nothing it gates
        // is skipped.
        let runner = |j: usize| {
            matches!(toks.get(j), Some(Tok::Ident { text, .. })
                if matches!(text.as_str(), "call" | "check_call" | "check_output" | "run" | "Popen"))
        };
        let runs = first >= 2 && punct(first - 1, '(') && runner(first - 2)
            || first >= 3 && punct(first - 1, '[') && punct(first - 2, '(') && runner(first - 3);
        let built = first != k;
        if runs && !statement.contains("shell=True") && runs_on_rocm(src, at, 0) {
            sink.diag_as(
                B_CONSTRUCT,
                crate::diag::Severity::Error,
                at,
                format!(
                    "the build runs nvcc here, which a ROCm machine does not have: this call raises there ({}), so the build stops before it compiles anything",
                    if built {
                        "TypeError where the path is built on CUDA_HOME, which is None on ROCm PyTorch; FileNotFoundError otherwise"
                    } else {
                        "FileNotFoundError"
                    }
                ),
                Some("guard it with `torch.version.hip` (`if torch.version.hip is None:` around the probe and what reads its answer; ROCm PyTorch builds with hipcc, under torch.utils.cpp_extension.ROCM_HOME); the nvcc flags this file chooses by the answer are rewritten for hipcc all the same, for the branch the guard lets run on ROCm".into()),
            );
            continue;
        }
        match gated_block(src, at) {
            // R23-c: the block is skipped on ROCm, and what it sets is read after it.
            Some(g) if !g.read_later.is_empty() => {
                probed.insert(g.line);
                let arch = arch_note(g.arch_test);
                let n = g.read_later.len();
                sink.diag_as(
                    B_CONSTRUCT,
                    crate::diag::Severity::Error,
                    at,
                    format!(
                        "the build looks for nvcc here, which a ROCm machine does not have: the block under `{}` (line {}) is skipped there, and {} it sets {} read after it: NameError on ROCm{arch}",
                        g.test,
                        g.line,
                        shown_reads(&g.read_later),
                        if n == 1 { "is" } else { "are" }
                    ),
                    Some(format!("give {} a value before the test, or test `torch.version.hip` and build without nvcc's version there", if n == 1 { "it" } else { "them" })),
                );
            }
            _ => sink.diag(
                B_CONSTRUCT,
                at,
                "the build looks for nvcc here, which a ROCm machine does not have: what this probe gates is skipped there".into(),
                Some(help.into()),
            ),
        }
    }
    cuda_home_gates(src, sink, &probed);
}

/// Environment variables a custom build reads for the CUDA toolkit's root.
const CUDA_ROOT_VARS: &[&str] = &["CUDAHOME", "CUDA_HOME", "CUDA_PATH", "CUDA_ROOT"];

/// The first token of the call or name chain that ends at token `f` (`os.path.join`,
/// `shutil.which`): walks back over `.`-joined identifiers.
fn chain_start(toks: &[Tok], mut f: usize) -> usize {
    while f >= 2
        && matches!(toks[f - 1], Tok::Punct { ch: '.', .. })
        && matches!(toks[f - 2], Tok::Ident { .. })
    {
        f -= 2;
    }
    f
}

/// The token range `open+1..close` of the bracketed group opened at `open`.
fn group_end(toks: &[Tok], open: usize) -> Option<usize> {
    let mut depth = 0isize;
    for (j, t) in toks.iter().enumerate().skip(open) {
        depth += nesting(t);
        if depth == 0 {
            return Some(j);
        }
    }
    None
}

/// The byte range of the block a line belongs to: the `def` (or `class`) it sits in, from its
/// header line to the next line indented no deeper than that header, or the whole file for a
/// line at the module's level.
fn enclosing_block(src: &str, at: usize) -> std::ops::Range<usize> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let line_start = src[..at].rfind('\n').map_or(0, |p| p + 1);
    let mut ind = indent(&src[line_start..]);
    let mut start = None;
    let mut pos = line_start;
    // Walk up to the `def` header that holds the line.
    while pos > 0 && ind > 0 {
        let prev = src[..pos - 1].rfind('\n').map_or(0, |p| p + 1);
        let l = &src[prev..pos - 1];
        pos = prev;
        let t = l.trim_start();
        if t.is_empty() || t.starts_with('#') || indent(l) >= ind {
            continue;
        }
        ind = indent(l);
        if t.starts_with("def ") || t.starts_with("async def ") {
            start = Some((prev, ind));
            break;
        }
    }
    let Some((start, head)) = start else {
        return 0..src.len();
    };
    let mut end = src.len();
    let mut p = src[start..].find('\n').map_or(src.len(), |q| start + q + 1);
    while p < src.len() {
        let next = src[p..].find('\n').map_or(src.len(), |q| p + q + 1);
        let l = src[p..next].trim_end_matches(['\n', '\r']);
        let t = l.trim_start();
        if !t.is_empty() && !t.starts_with('#') && indent(l) <= head {
            end = p;
            break;
        }
        p = next;
    }
    start..end
}

/// V20-d: whether nvcc (hipcc once converted) only compiles here: a custom `build_ext`
/// (npcuda-example's shape) hands it to `set_executable('compiler_so', ...)` (or `compiler`,
/// `compiler_cxx`) and no `set_executable('linker_so', ...)` names it, so distutils links the
/// extension with the host compiler (gcc/g++). Such a link does not get the HIP runtime from
/// hipcc: `libraries=['cudart']` must become `amdhip64`, not go.
fn links_with_host_compiler(toks: &[Tok]) -> bool {
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let (mut compiles, mut links) = (false, false);
    for k in 0..toks.len() {
        let is_set = matches!(&toks[k], Tok::Ident { text, .. } if text == "set_executable");
        if !is_set || !punct(k + 1, '(') || !punct(k + 3, ',') {
            continue;
        }
        let Some(Tok::Str { content: exe, .. }) = toks.get(k + 2) else {
            continue;
        };
        let Some(close) = group_end(toks, k + 1) else {
            continue;
        };
        let names_nvcc = toks[k + 4..close].iter().any(|t| match t {
            Tok::Str { content, .. } => content == "nvcc" || content.ends_with("/nvcc"),
            Tok::Ident { text, .. } => text.to_ascii_lowercase().contains("nvcc"),
            _ => false,
        });
        match exe.as_str() {
            "compiler_so" | "compiler" | "compiler_cxx" => compiles |= names_nvcc,
            "linker_so" | "linker_exe" => links |= names_nvcc,
            _ => {}
        }
    }
    compiles && !links
}

/// R44-a: the classic custom `build_ext` that compiles `.cu` sources with nvcc in a plain
/// setuptools/Cython build (rmcgibbo's npcuda-example and its many copies): a lookup of nvcc
/// (`pjoin(home, 'bin', 'nvcc')` under `$CUDAHOME`, a `find_in_path('nvcc', PATH)` helper,
/// `shutil.which('nvcc')`) assigned to a name, and `set_executable('compiler_so', ...)` handed
/// that program. On a ROCm machine the lookup finds nothing, and the build raises before it
/// compiles anything. Where both are there, the lookup is converted: it looks for hipcc,
/// under `$ROCM_PATH` where the original read the CUDA root's variable (`/usr/local/cuda`
/// defaults become `/opt/rocm`), and `lib64` joined to that root becomes `lib` (ROCm's and the
/// distributions' HIP libraries are in `lib`); the flag lists are converted elsewhere. A lookup
/// that is assigned but not handed to a compiler this way is reported (B008): the build runs
/// nvcc and hipport did not convert it. Returns the offsets of the literals handled here, which
/// the generic probe warning leaves alone.
fn custom_nvcc_compiler(src: &str, toks: &[Tok], sink: &mut Sink) -> BTreeSet<usize> {
    let mut handled = BTreeSet::new();
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let str_is = |k: usize, s: &str| matches!(toks.get(k), Some(Tok::Str { content, prefix, .. }) if content == s && !prefix.contains(['f', 'F']));
    let defined: HashSet<&str> = toks
        .windows(2)
        .filter_map(|w| match (&w[0], &w[1]) {
            (Tok::Ident { text: d, .. }, Tok::Ident { text, .. }) if d == "def" => {
                Some(text.as_str())
            }
            _ => None,
        })
        .collect();
    // The compilers `set_executable` is handed, where the value names nvcc (`CUDA['nvcc']`,
    // `nvcc`, `self.nvcc_path`): the line of each.
    let mut compiler_lines: Vec<usize> = Vec::new();
    for k in 0..toks.len() {
        let is_set = matches!(&toks[k], Tok::Ident { text, .. } if text == "set_executable");
        if !is_set || !punct(k + 1, '(') || !punct(k + 3, ',') {
            continue;
        }
        let exe = matches!(toks.get(k + 2), Some(Tok::Str { content, .. })
            if matches!(content.as_str(), "compiler_so" | "compiler" | "compiler_cxx"));
        let Some(close) = group_end(toks, k + 1) else {
            continue;
        };
        let names_nvcc = toks[k + 4..close].iter().any(|t| match t {
            Tok::Str { content, .. } => content == "nvcc",
            Tok::Ident { text, .. } => text.to_ascii_lowercase().contains("nvcc"),
            _ => false,
        });
        if exe && names_nvcc {
            compiler_lines.push(src[..tok_start(&toks[k])].matches('\n').count() + 1);
        }
    }
    // The lookups: (literal token, whether its shape is one converted with certainty).
    // (literal token, whether a compiler is handed it, the line that raises where it is missing).
    let mut lookups: Vec<(usize, bool, Option<usize>)> = Vec::new();
    for k in 0..toks.len() {
        let Tok::Str {
            content, prefix, ..
        } = &toks[k]
        else {
            continue;
        };
        if prefix.contains(['f', 'F']) {
            continue;
        }
        if k < 2 {
            continue;
        }
        let named = content == "nvcc" || content == "nvcc.exe";
        let expr_start = if named && punct(k + 1, ')') && punct(k - 1, ',') && str_is(k - 2, "bin")
        {
            // `pjoin(home, 'bin', 'nvcc')`: the call's name chain.
            let mut depth = 0isize;
            let mut j = k;
            loop {
                let Some(p) = j.checked_sub(1) else {
                    break None;
                };
                j = p;
                depth += nesting(&toks[j]);
                if depth > 0 {
                    break (j >= 1 && punct(j, '(') && matches!(toks[j - 1], Tok::Ident { .. }))
                        .then(|| chain_start(toks, j - 1));
                }
            }
        } else if named && punct(k - 1, '(') {
            // `find_in_path('nvcc', ...)`, `shutil.which('nvcc')`
            match &toks[k - 2] {
                Tok::Ident { text, .. }
                    if matches!(text.as_str(), "which" | "find_executable")
                        || defined.contains(text.as_str()) =>
                {
                    Some(chain_start(toks, k - 2))
                }
                _ => None,
            }
        } else if content.ends_with("/bin/nvcc") && punct(k - 1, '+') {
            // `home + '/bin/nvcc'`
            matches!(toks[k - 2], Tok::Ident { .. }).then(|| chain_start(toks, k - 2))
        } else {
            None
        };
        let Some(first) = expr_start else { continue };
        // Assigned to a name (`nvcc = ...`) or a dict key (`{'nvcc': ...}`): a lookup whose
        // answer the build keeps. Probes that run it are nvcc_probes' to report.
        let assigned = first >= 2
            && ((punct(first - 1, '=')
                && matches!(
                    toks[first - 2],
                    Tok::Ident { .. } | Tok::Punct { ch: ']', .. }
                ))
                || (punct(first - 1, ':') && matches!(toks[first - 2], Tok::Str { .. })));
        if !assigned {
            continue;
        }
        // Without a compiler handed the answer, the lookup is this finding's only where a
        // missing nvcc stops the build (`if nvcc is None: raise ...`); a probe whose answer
        // gates a step is nvcc_probes' to report.
        let raises = match &toks[first - 2] {
            Tok::Ident { text, .. } if punct(first - 1, '=') => {
                stops_when_missing(src, tok_start(&toks[k]), text)
            }
            _ => None,
        };
        if compiler_lines.is_empty() && raises.is_none() {
            continue;
        }
        lookups.push((
            k,
            !compiler_lines.is_empty() && !content.ends_with(".exe"),
            raises,
        ));
    }
    if lookups.is_empty() {
        return handled;
    }
    // A file that already names hipcc or tests ROCm has its own answer.
    if src.contains("hipcc") || src.contains("torch.version.hip") || src.contains("ROCM_PATH") {
        return handled;
    }
    let mut converted_blocks: Vec<std::ops::Range<usize>> = Vec::new();
    for &(k, certain, raises) in &lookups {
        let Tok::Str {
            quote_at,
            end,
            content,
            triple,
            ..
        } = &toks[k]
        else {
            continue;
        };
        let at = *quote_at;
        handled.insert(tok_start(&toks[k]));
        if certain && !triple {
            let new = format!("{}hipcc", content.strip_suffix("nvcc").unwrap_or(""));
            if sink.edit(quote_at + 1, end - 1, new, B_COMPILER.id) {
                let block = enclosing_block(src, at);
                if !converted_blocks.contains(&block) {
                    converted_blocks.push(block);
                }
                sink.diag(
                    B_COMPILER,
                    at,
                    format!(
                        "this build compiles .cu sources with the nvcc it finds here (set_executable, line {}): it now looks for hipcc instead",
                        compiler_lines[0]
                    ),
                    Some("hipcc is found under $ROCM_PATH/bin where ROCM_PATH is set, else on PATH (ROCm installs it in /opt/rocm/bin)".into()),
                );
                continue;
            }
        }
        sink.diag(
            B_CONSTRUCT,
            at,
            match (compiler_lines.first(), raises) {
                (Some(l), _) => format!(
                    "the build looks for nvcc here and runs it as the compiler (line {l}): a ROCm machine has none, so the build fails before it compiles anything; hipport did not convert this lookup"
                ),
                (None, r) => format!(
                    "the build looks for nvcc here, which a ROCm machine does not have: the build stops with an error there (line {})",
                    r.unwrap_or(0)
                ),
            },
            Some("look for hipcc instead ($ROCM_PATH/bin/hipcc, or hipcc on PATH) and compile the .cu sources with it".into()),
        );
    }
    // In the blocks converted: the CUDA root's variable becomes ROCM_PATH, its
    // `/usr/local/cuda` default `/opt/rocm`, and `lib64` joined to a root `lib`.
    for k in 0..toks.len() {
        let Tok::Str {
            quote_at,
            end,
            content,
            triple,
            prefix,
            ..
        } = &toks[k]
        else {
            continue;
        };
        if *triple
            || prefix.contains(['f', 'F'])
            || !converted_blocks.iter().any(|b| b.contains(quote_at))
        {
            continue;
        }
        let env_key = CUDA_ROOT_VARS.contains(&content.as_str())
            && ((k >= 2
                && punct(k - 1, '[')
                && matches!(&toks[k - 2], Tok::Ident { text, .. } if text == "environ"))
                || (k >= 2
                    && punct(k - 1, '(')
                    && matches!(&toks[k - 2], Tok::Ident { text, .. } if text == "getenv" || text == "get"))
                || matches!(toks.get(k + 1), Some(Tok::Ident { text, .. }) if text == "in")
                    && matches!(toks.get(k + 2), Some(Tok::Ident { text, .. }) if text == "os" || text == "environ"));
        let new = if env_key {
            "ROCM_PATH"
        } else if content == "/usr/local/cuda" {
            "/opt/rocm"
        } else if content == "lib64" && punct(k + 1, ')') && punct(k - 1, ',') {
            "lib"
        } else {
            continue;
        };
        sink.edit(quote_at + 1, end - 1, new, B_COMPILER.id);
    }
    handled
}

/// The line of the `raise` (or exit) that follows a lookup assigned to `name` where it found
/// nothing: `if name is None: raise ...` or `if not name:` with the stop in its block or after
/// its colon, within a few lines of the lookup.
fn stops_when_missing(src: &str, at: usize, name: &str) -> Option<usize> {
    let first_line = src[..at].matches('\n').count();
    let lines: Vec<&str> = src.lines().collect();
    let tests = [format!("if {name} is None:"), format!("if not {name}:")];
    for (i, l) in lines.iter().enumerate().skip(first_line + 1).take(6) {
        let t = l.trim();
        let Some(test) = tests.iter().find(|p| t.starts_with(p.as_str())) else {
            continue;
        };
        let after = t[test.len()..].trim();
        if !after.is_empty() && !after.starts_with('#') {
            return stops_build(after).then_some(i + 1);
        }
        let (j, next) = lines
            .iter()
            .enumerate()
            .skip(i + 1)
            .find(|(_, l)| !l.trim().is_empty() && !l.trim().starts_with('#'))?;
        return stops_build(next).then_some(j + 1);
    }
    None
}

/// What a line of Python that ends a build does: `raise ...`, `sys.exit(...)`, `exit(...)`,
/// `quit(...)`, `os._exit(...)`.
fn stops_build(stmt: &str) -> bool {
    let t = stmt.trim();
    t == "raise"
        || t.starts_with("raise ")
        || t.starts_with("raise(")
        || ["sys.exit(", "exit(", "quit(", "os._exit("]
            .iter()
            .any(|p| t.starts_with(p))
}

/// R42-b: an `if` that tests `CUDA_HOME is not None` (alone or joined by `and`) and whose
/// `else:` stops the build (`raise`, `sys.exit`), or an `if CUDA_HOME is None:` (alone or
/// joined by `or`) whose body does: ROCm PyTorch's CUDA_HOME is None, so the translated build
/// always stops there. An error (B008); `--fix` makes the test accept ROCm's install
/// (`(CUDA_HOME is not None or ROCM_HOME is not None)`, `ROCM_HOME` imported from
/// `torch.utils.cpp_extension` beside `CUDA_HOME`). Returns the offsets of the `CUDA_HOME`
/// names it reported (their generic B008 goes).
fn cuda_home_stops(
    src: &str,
    toks: &[Tok],
    sink: &mut Sink,
    opts: &BuildOptions,
) -> BTreeSet<usize> {
    let mut out = BTreeSet::new();
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for l in src.split('\n') {
        lines.push((at, l));
        at += l.len() + 1;
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let code = |l: &str| {
        let t = l.trim();
        !t.is_empty() && !t.starts_with('#')
    };
    // The first statement of the block under line `g` (indented deeper than `ind`), or the
    // one after its colon.
    let body_first = |g: usize, ind: usize| -> Option<&str> {
        let head = lines[g].1.trim_end();
        let after = head.split_once(':').map(|x| x.1.trim()).unwrap_or("");
        if !after.is_empty() && !after.starts_with('#') {
            return Some(after);
        }
        lines[g + 1..]
            .iter()
            .map(|(_, l)| *l)
            .find(|l| code(l))
            .filter(|l| indent(l) > ind)
    };
    // Whether ROCM_HOME can be named as `prefix` + ROCM_HOME: an attribute of the module
    // (`cpp_extension.ROCM_HOME`), or imported (or importable beside CUDA_HOME).
    let imported_rocm = toks
        .iter()
        .any(|t| matches!(t, Tok::Ident { text, .. } if text == "ROCM_HOME"));
    // Where `, ROCM_HOME` goes: after `CUDA_HOME` in a `from torch.utils.cpp_extension import`.
    let import_at = imports_in(toks)
        .into_iter()
        .filter(|i| i.level == 0 && i.module == ["torch", "utils", "cpp_extension"])
        .find_map(|i| {
            toks.iter().find_map(|t| match t {
                Tok::Ident { start, text } if text == "CUDA_HOME" && i.span.contains(start) => {
                    Some(*start + text.len())
                }
                _ => None,
            })
        });
    let mut import_added = false;
    for g in 0..lines.len() {
        let (start, l) = lines[g];
        let t = l.trim();
        let Some((keyword, cond)) = ["if ", "elif "]
            .iter()
            .find_map(|k| t.strip_prefix(k).map(|c| (k.len(), c)))
            .and_then(|(k, c)| c.split_once(':').map(|c| (k, c.0)))
        else {
            continue;
        };
        let ind = indent(l);
        let Some(test) = cuda_home_test(cond) else {
            continue;
        };
        let (needle, positive) = (test.name, test.positive);
        // `a and CUDA_HOME is not None` is false whenever that is; `a or CUDA_HOME is None`
        // true. Not where the test already looks at ROCm, nor under another `not`.
        if cond.contains(if positive { " or " } else { " and " })
            || cond.contains("ROCM_HOME")
            || cond.contains("torch.version.hip")
            || cond.contains("not (")
            || has_not(&cond[..test.start])
            || has_not(&cond[test.end..])
        {
            continue;
        }
        let stops = if positive {
            // The `else:` of this `if`: the next line of code at its indentation.
            let next =
                (g + 1..lines.len()).find(|&k| code(lines[k].1) && indent(lines[k].1) <= ind);
            match next {
                Some(k)
                    if indent(lines[k].1) == ind
                        && lines[k].1.trim().starts_with("else")
                        && lines[k].1.trim()[4..].trim_start().starts_with(':') =>
                {
                    body_first(k, ind).is_some_and(stops_build)
                }
                _ => false,
            }
        } else {
            body_first(g, ind).is_some_and(stops_build)
        };
        if !stops {
            continue;
        }
        // The name as written, with its module (`cpp_extension.CUDA_HOME`).
        let cond_at = start + ind + keyword;
        let name_at = cond_at + needle;
        let chain = cond_at + test.start;
        let prefix = &src[cond_at + test.prefix..name_at];
        let test_end = cond_at + test.end;
        let nameable = !prefix.is_empty() || imported_rocm || import_at.is_some();
        let new = match (test.truthy, positive) {
            (false, true) => {
                format!("({prefix}CUDA_HOME is not None or {prefix}ROCM_HOME is not None)")
            }
            (false, false) => format!("({prefix}CUDA_HOME is None and {prefix}ROCM_HOME is None)"),
            // V19-c: `if CUDA_HOME:` / `if not CUDA_HOME:`.
            (true, true) => format!("({prefix}CUDA_HOME or {prefix}ROCM_HOME)"),
            (true, false) => format!("not ({prefix}CUDA_HOME or {prefix}ROCM_HOME)"),
        };
        let what = if positive {
            "its `else` stops the build"
        } else {
            "its block stops the build"
        };
        out.insert(name_at);
        let fixed = opts.fix && nameable && sink.edit(chain, test_end, new.clone(), B_CONSTRUCT.id);
        if fixed && prefix.is_empty() && !imported_rocm && !import_added {
            if let Some(at) = import_at {
                import_added = sink.edit(at, at, ", ROCM_HOME", B_CONSTRUCT.id);
            }
        }
        let message = format!(
            "CUDA_HOME is None on ROCm PyTorch without a CUDA toolkit, so this test fails there and {what}: the port never builds"
        );
        if fixed {
            sink.diag_as(
                B_CONSTRUCT,
                crate::diag::Severity::Note,
                chain,
                format!("{message} (fixed by --fix)"),
                Some(format!("the test now reads `{new}`: ROCM_HOME (torch.utils.cpp_extension) is set on ROCm PyTorch")),
            );
        } else {
            sink.diag_as(
                B_CONSTRUCT,
                crate::diag::Severity::Error,
                chain,
                message,
                Some(if nameable {
                    format!("test `{new}` instead (ROCM_HOME from torch.utils.cpp_extension); `hipport convert --fix` rewrites it")
                } else {
                    format!("test `{new}` instead, with ROCM_HOME imported from torch.utils.cpp_extension")
                }),
            );
        }
    }
    out
}

/// A test of CUDA_HOME in an `if` condition (see [`cuda_home_test`]); offsets in the condition.
struct CudaHomeTest {
    /// Start of the test (its `not`, or the module before the name).
    start: usize,
    /// Start of the name with its module (`cpp_extension.CUDA_HOME`).
    prefix: usize,
    /// Start of `CUDA_HOME`.
    name: usize,
    /// End of the test.
    end: usize,
    /// True where the test holds when CUDA_HOME is set.
    positive: bool,
    /// A truth test (`CUDA_HOME`, `not CUDA_HOME`) rather than a comparison with None.
    truthy: bool,
}

/// R42-b, V19-c: the test of `CUDA_HOME` in condition `cond`: `CUDA_HOME is not None`,
/// `CUDA_HOME is None`, and the truth tests `CUDA_HOME` and `not CUDA_HOME` (a term of its
/// own: at the end or before `and`/`or`), the name possibly reached through its module.
/// Another use of the name (`os.path.exists(CUDA_HOME)`, `CUDA_HOME + "/bin"`) is none.
fn cuda_home_test(cond: &str) -> Option<CudaHomeTest> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let name = cond.match_indices("CUDA_HOME").map(|m| m.0).find(|&p| {
        !cond[..p].ends_with(word) && !cond[p + "CUDA_HOME".len()..].starts_with(word)
    })?;
    let prefix = cond[..name]
        .rfind(|c: char| !(word(c) || c == '.'))
        .map_or(0, |p| p + 1);
    let after = &cond[name + "CUDA_HOME".len()..];
    for (op, positive) in [(" is not None", true), (" is None", false)] {
        if after.starts_with(op) && !after[op.len()..].starts_with(word) {
            return Some(CudaHomeTest {
                start: prefix,
                prefix,
                name,
                end: name + "CUDA_HOME".len() + op.len(),
                positive,
                truthy: false,
            });
        }
    }
    let rest = after.trim_start();
    let alone = rest.is_empty()
        || ["and ", "or ", "and(", "or("]
            .iter()
            .any(|w| rest.starts_with(w) && after.len() > rest.len());
    if !alone {
        return None;
    }
    let before = cond[..prefix].trim_end();
    let negated = before.ends_with("not")
        && !before[..before.len() - 3].ends_with(word)
        && before.len() < prefix;
    Some(CudaHomeTest {
        start: if negated { before.len() - 3 } else { prefix },
        prefix,
        name,
        end: name + "CUDA_HOME".len(),
        positive: !negated,
        truthy: true,
    })
}

/// Whether `text` holds the word `not`.
fn has_not(text: &str) -> bool {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    text.match_indices("not")
        .any(|(p, _)| !text[..p].ends_with(word) && !text[p + 3..].starts_with(word))
}

/// The `if` block a probe of nvcc sits in (see [`gated_block`]).
struct Gate {
    /// The test, as written (`if CUDA_HOME is not None:`).
    test: String,
    /// Its line (1-based).
    line: usize,
    /// The names the block assigns, with the line after the block that reads each first,
    /// where nothing before the test or in an `else` assigns it.
    read_later: Vec<(String, usize)>,
    /// The line of an `if` after the block that tests one of those names and holds nvcc's
    /// architecture flags (`if nvcc_version >= 11.8:` / `-gencode`).
    arch_test: Option<usize>,
}

/// The names a Python line assigns (`x = ...`, `_, v = ...`; not `x == ...`).
fn assigned_names(line: &str) -> Vec<&str> {
    let Some(eq) = line.find('=') else {
        return Vec::new();
    };
    if line[eq + 1..].starts_with('=') || line[..eq].ends_with(['!', '<', '>', '+', '-', '*', '/'])
    {
        return Vec::new();
    }
    let names: Vec<&str> = line[..eq].split(',').map(str::trim).collect();
    let ident = |n: &str| {
        !n.is_empty()
            && !n.starts_with(|c: char| c.is_ascii_digit())
            && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    };
    if names.iter().all(|n| ident(n)) {
        names.into_iter().filter(|n| *n != "_").collect()
    } else {
        Vec::new()
    }
}

/// R23-c: each `if CUDA_HOME is not None:` block (no `else`, and no probe of nvcc in it, which
/// [`nvcc_probes`] reports) whose names the file reads after it: an error at the test, since
/// ROCm PyTorch's CUDA_HOME is None and the read raises NameError.
fn cuda_home_gates(src: &str, sink: &mut Sink, probed: &BTreeSet<usize>) {
    let lines: Vec<&str> = src.lines().collect();
    let mut offset = 0;
    for (g, l) in lines.iter().enumerate() {
        let at = offset + (l.len() - l.trim_start().len());
        offset += l.len() + 1;
        let t = l.trim();
        if probed.contains(&(g + 1))
            || !(t.starts_with("if ") && t.contains("CUDA_HOME") && t.contains("is not None")
                || t == "if CUDA_HOME:")
        {
            continue;
        }
        let Some(gate) = gate_at(&lines, g) else {
            continue;
        };
        if gate.read_later.is_empty() {
            continue;
        }
        sink.diag_as(
            B_CONSTRUCT,
            crate::diag::Severity::Error,
            at,
            format!(
                "CUDA_HOME is None on ROCm PyTorch: this block is skipped there, and {} it sets {} read after it: NameError on ROCm{}",
                shown_reads(&gate.read_later),
                if gate.read_later.len() == 1 { "is" } else { "are" },
                arch_note(gate.arch_test)
            ),
            Some(format!("give {} a value before the test, or test `torch.version.hip` and build without nvcc's version there", if gate.read_later.len() == 1 { "it" } else { "them" })),
        );
    }
}

/// `` `name` (line N) `` for each read after a [`Gate`].
fn shown_reads(reads: &[(String, usize)]) -> String {
    reads
        .iter()
        .map(|(n, l)| format!("`{n}` (line {l})"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a [`Gate::arch_test`] adds to the message.
fn arch_note(line: Option<usize>) -> String {
    line.map_or(String::new(), |l| {
        format!(
            "; the architecture flags under the test of it at line {l} never apply on ROCm either"
        )
    })
}

/// Whether `name` occurs in `line` as a whole identifier.
fn reads_name(line: &str, name: &str) -> bool {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_';
    line.match_indices(name)
        .any(|(i, _)| !line[..i].ends_with(ident) && !line[i + name.len()..].starts_with(ident))
}

/// R23-c (fast-hadamard-transform's setup.py): the `if` whose block holds offset `at` (the
/// line that probes nvcc), and the names that block sets which the file reads after it.
fn gated_block(src: &str, at: usize) -> Option<Gate> {
    let lines: Vec<&str> = src.lines().collect();
    let here = src[..at].matches('\n').count();
    let indent = |l: &str| l.len() - l.trim_start().len();
    let blank = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
    let own = indent(lines.get(here)?);
    let g = (0..here)
        .rev()
        .find(|&i| !blank(lines[i]) && indent(lines[i]) < own)?;
    gate_at(&lines, g)
}

/// Whether the line at offset `at` runs on ROCm as far as the blocks around it tell: not
/// in the body of a `try:` (whose `except` may catch what a probe raises), nor under an `if`,
/// `elif`, `else` or `while` whose test names CUDA_HOME, CUDA_PATH, nvcc or
/// `torch.version.hip` (`if CUDA_HOME is not None:`), and, in a function, at least one of its
/// calls here runs (or none is here: another module may call it).
fn runs_on_rocm(src: &str, at: usize, depth: usize) -> bool {
    let lines: Vec<&str> = src[..at].lines().collect();
    let Some(here) = lines.last() else {
        return true;
    };
    let indent = |l: &str| l.len() - l.trim_start().len();
    let blank = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
    let platform = |l: &str| {
        ["CUDA_HOME", "CUDA_PATH", "nvcc", "torch.version.hip"]
            .iter()
            .any(|w| l.contains(w))
    };
    let mut own = indent(here);
    for (i, l) in lines.iter().enumerate().rev().skip(1) {
        if blank(l) || indent(l) >= own {
            continue;
        }
        own = indent(l);
        let t = l.trim();
        if t == "try:" {
            return false;
        }
        if (t.starts_with("if ") || t.starts_with("elif ") || t.starts_with("while "))
            && platform(t)
        {
            return false;
        }
        if t.starts_with("else") || t.starts_with("elif ") {
            // The `if` this branch belongs to.
            let test = lines[..i]
                .iter()
                .rev()
                .find(|p| !blank(p) && indent(p) <= own)
                .filter(|p| indent(p) == own);
            if test.is_some_and(|p| platform(p)) {
                return false;
            }
        }
        if let Some(rest) = t.strip_prefix("def ") {
            let name = rest.split('(').next().unwrap_or("").trim();
            if name.is_empty() || depth > 3 {
                return true;
            }
            let calls: Vec<usize> = src
                .match_indices(&format!("{name}("))
                .map(|(o, _)| o)
                .filter(|&o| {
                    let before = src[..o].chars().next_back();
                    !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
                        && !src[..o].trim_end().ends_with("def")
                })
                .collect();
            return calls.is_empty() || calls.iter().any(|&c| runs_on_rocm(src, c, depth + 1));
        }
        if own == 0 {
            break;
        }
    }
    true
}

/// The `if` at line index `g` of `lines` as a [`Gate`]; `None` where it is no `if` or has an
/// `else`/`elif`.
fn gate_at(lines: &[&str], g: usize) -> Option<Gate> {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let blank = |l: &str| l.trim().is_empty() || l.trim_start().starts_with('#');
    let test = lines[g].trim();
    if !test.starts_with("if ") || !test.ends_with(':') {
        return None;
    }
    let gi = indent(lines[g]);
    let end = (g + 1..lines.len())
        .find(|&i| !blank(lines[i]) && indent(lines[i]) <= gi)
        .unwrap_or(lines.len());
    if lines.get(end).is_some_and(|l| {
        let t = l.trim_start();
        t.starts_with("else") || t.starts_with("elif")
    }) {
        return None;
    }
    let mut read_later = Vec::new();
    let mut arch_test = None;
    let set: Vec<&str> = lines[g + 1..end]
        .iter()
        .flat_map(|l| assigned_names(l))
        .collect();
    for name in set {
        // An assignment before the test counts where no line after it, up to the test,
        // leaves its block (one in a function above, or in another branch, does not).
        let set_before = (0..g).any(|a| {
            assigned_names(lines[a]).contains(&name)
                && lines[a + 1..=g]
                    .iter()
                    .all(|l| blank(l) || indent(l) >= indent(lines[a]))
        });
        if set_before || read_later.iter().any(|(n, _)| n == name) {
            continue;
        }
        for (i, l) in lines.iter().enumerate().skip(end) {
            if assigned_names(l).contains(&name) && !reads_name(l.split_once('=')?.1, name) {
                break;
            }
            if blank(l) || !reads_name(l, name) {
                continue;
            }
            read_later.push((name.to_string(), i + 1));
            let t = l.trim();
            if t.starts_with("if ") && arch_test.is_none() {
                let body_end = (i + 1..lines.len())
                    .find(|&j| !blank(lines[j]) && indent(lines[j]) <= indent(l))
                    .unwrap_or(lines.len());
                if lines[i + 1..body_end]
                    .iter()
                    .any(|b| b.contains("-gencode") || b.contains("arch=") || b.contains("sm_"))
                {
                    arch_test = Some(i + 1);
                }
            }
            break;
        }
    }
    Some(Gate {
        test: test.to_string(),
        line: g + 1,
        read_later,
        arch_test,
    })
}

/// The first token of the expression that ends with the literal `k` naming nvcc and that
/// starts right after an opening bracket: the literal itself, `cuda_dir + "/bin/nvcc"` (names,
/// dots, `+` and bracketed groups before it), or the `os.path.join(...)` call whose last part
/// it is. `None` where something else comes before it (an argument after the first, `x =`).
fn program_expression(toks: &[Tok], k: usize) -> Option<usize> {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    let mut end = k;
    // The last part of a `join(...)`: the expression is the call.
    if punct(k + 1, ')') && k > 0 && punct(k - 1, ',') {
        let mut depth = 0isize;
        let mut j = k;
        let open = loop {
            j = j.checked_sub(1)?;
            depth += nesting(&toks[j]);
            if depth > 0 {
                break j;
            }
        };
        let join = open
            .checked_sub(1)
            .is_some_and(|f| matches!(&toks[f], Tok::Ident { text, .. } if text == "join"));
        if !join || !punct(open, '(') {
            return None;
        }
        end = open - 1;
    }
    let mut depth = 0isize;
    let mut j = end;
    while j > 0 {
        let prev = &toks[j - 1];
        let step = nesting(prev);
        if depth == 0 && step > 0 {
            return Some(j);
        }
        depth -= step;
        if depth == 0
            && step == 0
            && !matches!(
                prev,
                Tok::Ident { .. } | Tok::Str { .. } | Tok::Punct { ch: '.' | '+', .. }
            )
        {
            return None;
        }
        j -= 1;
    }
    None
}

/// Warns of a literal naming `X.hip` in a file that also names `X.cu` (a ROCm branch's
/// sources, `["spatial.hip", ...] if is_rocm else ["spatial.cu", ...]`) where this run writes
/// no `X.hip`: the project expects PyTorch's hipify to have made it from `X.cu`, and the ROCm
/// build then looks for a file the output lacks.
fn hip_names_of_cuda_sources(toks: &[Tok], sink: &mut Sink, renames: &[(String, String)]) {
    let literals: HashSet<&str> = toks
        .iter()
        .filter_map(|t| match t {
            Tok::Str { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect();
    for t in toks {
        let Tok::Str {
            start,
            content,
            prefix,
            triple: false,
            ..
        } = t
        else {
            continue;
        };
        let Some(stem) = content.strip_suffix(".hip") else {
            continue;
        };
        if stem.is_empty()
            || stem.ends_with('/')
            || content.contains(['*', '{', ' '])
            || prefix.contains(['f', 'F', 'b', 'B'])
        {
            continue;
        }
        let cu = format!("{stem}.cu");
        if !literals.contains(cu.as_str()) {
            continue;
        }
        let rel = cu.strip_prefix("./").unwrap_or(&cu);
        let hip = content.strip_prefix("./").unwrap_or(content);
        let (message, help) = match renames.iter().find(|(o, _)| o == rel) {
            Some((_, new)) if new == hip => continue,
            Some((_, new)) => (
                format!("`{content}` names the HIP port of `{cu}`, which this run writes as `{new}`"),
                "name the file the run writes, or convert with --rename hip, which keeps directories".to_string(),
            ),
            None => (
                format!("`{content}` names the HIP port of `{cu}`, which is not in the output: without --rename, `{cu}` keeps its name"),
                "convert with --rename hip (or --rename torch), which writes the .cu sources as .hip".to_string(),
            ),
        };
        sink.diag(B_GLOB, *start, message, Some(help));
    }
}

/// Whether the string literal at `k` is something a statement tests for rather than a value it
/// passes on: an operand of `==`, `!=`, `in` or `not in`, or the argument of a string method
/// that looks for it (`arg.startswith("-ccbin")`, also given a tuple of such literals).
fn tested_for(toks: &[Tok], k: usize) -> bool {
    let punct =
        |j: usize, c: char| j < toks.len() && matches!(&toks[j], Tok::Punct { ch, .. } if *ch == c);
    let ident = |j: usize, names: &[&str]| {
        j < toks.len()
            && matches!(&toks[j], Tok::Ident { text, .. } if names.contains(&text.as_str()))
    };
    let compared_after = punct(k + 1, '=') && punct(k + 2, '=')
        || punct(k + 1, '!') && punct(k + 2, '=')
        || ident(k + 1, &["in", "not"]);
    let compared_before = k >= 2 && punct(k - 1, '=') && (punct(k - 2, '=') || punct(k - 2, '!'));
    // Back over the other literals of a tuple argument: `("-ccbin", "--compiler-bindir")`.
    let mut j = k;
    while j >= 2 && punct(j - 1, ',') && matches!(toks[j - 2], Tok::Str { .. }) {
        j -= 2;
    }
    let tuple = j >= 1 && punct(j - 1, '(') && j >= 2 && punct(j - 2, '(');
    let open = if tuple { j - 1 } else { j };
    let searched = open >= 3
        && punct(open - 1, '(')
        && ident(
            open - 2,
            &[
                "startswith",
                "endswith",
                "find",
                "rfind",
                "index",
                "rindex",
                "count",
                "removeprefix",
                "removesuffix",
                "partition",
                "rpartition",
                "split",
                "rsplit",
            ],
        )
        && punct(open - 3, '.');
    compared_after || compared_before || searched
}

/// Under renames that move or rename what sources include (`--rename torch`: `cuda/`
/// directories, headers with CUDA code), warns of the include directories hipport cannot follow:
/// an element of an include list it cannot read (`os.path.join(ROOT, SUB, "cuda")`), whose
/// includes were looked up without it, and a directory that moved but is written in parts no
/// rewrite changed. Either may leave includes and include paths stale.
fn stale_include_dirs(
    src: &str,
    toks: &[Tok],
    sink: &mut Sink,
    opts: &BuildOptions,
    base: &str,
    moved_consts: &BTreeMap<String, String>,
) {
    let moves_headers = opts
        .renamed
        .iter()
        .any(|(o, n)| text::dir_of(o) != text::dir_of(n) || !o.ends_with(".cu"));
    if !moves_headers {
        return;
    }
    // Each element's range, with the parts to rewrite (byte range, new text), or the warning
    // to give.
    type Outcome = Result<Vec<(usize, usize, String)>, String>;
    let mut found: Vec<(usize, usize, Outcome)> = Vec::new();
    // Read with the new values of the constants rewritten (`"-I{}/include".format(root)`).
    each_include_element(src, toks, moved_consts, &mut |elem, path| {
        let (Some(first), Some(last)) = (elem.first(), elem.last()) else {
            return;
        };
        let (start, end) = (tok_start(first), tok_end(last));
        let shown = &src[start..end];
        // A path built in the project (a literal in it, a join), not a package's directory
        // (`np.get_include()`), which no rename touches.
        let built = elem.iter().any(|t| {
            matches!(t, Tok::Str { .. }) || matches!(t, Tok::Ident { text, .. } if text == "join")
        });
        match path {
            None if built => {
                let message = format!(
                    "include directory `{shown}` is not one hipport can read: includes were looked up without it, so those that reach renamed headers through it may be stale"
                );
                found.push((start, end, Err(message)));
            }
            Some((p, None)) => {
                let Some(new) = text::moved_dir_path(text::dir_of(base), &p, &opts.moved_dirs)
                else {
                    return;
                };
                // Written in the literals of a join: each takes its own components' new names.
                let inner = path_call_argument(elem).unwrap_or(elem);
                let parts = join_literals(inner)
                    .filter(|v| v.iter().map(|(c, _)| *c).collect::<Vec<_>>().join("/") == p);
                let edits = parts.map(|parts| {
                    let mut new_parts = new.split('/');
                    let mut edits = Vec::new();
                    for (old, at) in parts {
                        let n = old.split('/').count();
                        let text = new_parts.by_ref().take(n).collect::<Vec<_>>().join("/");
                        if text != old {
                            edits.push((at, at + old.len(), text));
                        }
                    }
                    edits
                });
                let message = format!(
                    "include directory `{shown}` names `{p}`, which moved to `{new}`, but it is written in parts that were not rewritten"
                );
                found.push((start, end, edits.ok_or(message)));
            }
            _ => {}
        }
    });
    for (at, end, outcome) in found {
        // A part another rewrite changed (a joined path's `cuda`) is left to it.
        if outcome.is_ok() && sink.claimed(at, end) {
            continue;
        }
        let message = match outcome {
            Ok(edits) => {
                for (s, e, text) in edits {
                    sink.edit(s, e, text, B_GLOB.id);
                }
                continue;
            }
            Err(message) => message,
        };
        sink.diag(
            B_GLOB,
            at,
            message,
            Some("after --rename, check the includes that reach renamed headers through it and the path itself; a literal path or os.path.join of literals is followed".into()),
        );
    }
}

/// Renames a string literal (token `k`) that names a renamed source, as seen from this file's
/// directory: the whole path (`"csrc/k.cu"`, `"./k.cu"`), a bare name or a moved directory name
/// inside `os.path.join(...)`, a glob over a moved directory or over renamed extensions.
/// setup.py's `sources=` and a JIT build's `load(sources=...)` (or a path read for `load_inline`)
/// are read alike. Returns whether nothing else should be done with the literal.
fn renamed_source(
    toks: &[Tok],
    k: usize,
    sink: &mut Sink,
    renames: &[(String, String)],
    dirs: &[(String, String)],
    exts: &BTreeMap<String, String>,
) -> bool {
    let Tok::Str {
        start,
        quote_at,
        content,
        prefix,
        ..
    } = &toks[k]
    else {
        return false;
    };
    let (start, content_at) = (*start, quote_at + 1);
    // The path an f-string names after its leading `{here}/`.
    let path_from = literal_path(content, prefix).map_or(0, |p| content.len() - p.len());
    if let Some((s, e, new)) = text::rename_in(content, renames) {
        let rel = &content[path_from..];
        if s == path_from && e == content.len() || rel.starts_with("./") && s == path_from + 2 {
            sink.edit(content_at + s, content_at + e, new, B_GLOB.id);
            return true;
        }
    }
    // A bare file name in os.path.join('csrc', 'kernel.cu'): rename when exactly one renamed
    // source under this directory has that name.
    let base_matches: Vec<&(String, String)> = renames
        .iter()
        .filter(|(o, _)| {
            !o.starts_with("../")
                && o.rsplit('/').next() == Some(content.as_str())
                && o.contains('/')
        })
        .collect();
    if base_matches.len() == 1 && joined_path(toks, k) {
        let new_base = base_matches[0].1.rsplit('/').next().unwrap_or("");
        sink.edit(content_at, content_at + content.len(), new_base, B_GLOB.id);
        return true;
    }
    // A directory name in os.path.join(here, 'cuda', '*.cu') when every moved directory of
    // that name got the same new one (`--rename torch`: cuda -> hip).
    // Not where the literals before it name a directory that keeps its name (a Python package
    // `pkg/cuda` beside moved `cuda` directories): a renamed source under it kept that part.
    let kept = join_prefix(toks, k).is_some_and(|p| {
        let p = format!("{p}/");
        renames
            .iter()
            .any(|(o, n)| o.starts_with(&p) && n.starts_with(&p))
    });
    if joined_path(toks, k) && !content.contains(['/', '*']) && !kept {
        let names: BTreeSet<&str> = dirs
            .iter()
            .filter(|(o, _)| o.rsplit('/').next() == Some(content.as_str()))
            .filter_map(|(_, n)| n.rsplit('/').next())
            .collect();
        if names.len() == 1 {
            let new = names.into_iter().next().unwrap_or_default();
            if new != content && sink.edit(content_at, content_at + content.len(), new, B_GLOB.id) {
                sink.diag(
                        B_GLOB,
                        start,
                        format!("directory name `{content}` in a joined path -> `{new}`: the `{content}` directories were renamed"),
                        Some(format!("check that the path means a directory of this tree; `{content}` elsewhere should stay")),
                    );
            }
            return true;
        }
    }
    // A file name computed inside a joined path (`f'{name}_cuda.cu'`, `"{}.cu".format(name)`
    // in `os.path.join(here, 'cuda', ...)`) follows the sources it names.
    let computed = prefix.contains(['f', 'F']) || format_call_end(toks, k).is_some();
    if computed && content.contains('{') && joined_path(toks, k) {
        if let Some(done) = computed_file_name(toks, k, sink, renames) {
            return done;
        }
    }
    // A glob over a moved directory or renamed extensions: one note for what was rewritten,
    // which the tree's renames decided (the pattern selects the files it selected before).
    let mut changes: Vec<(usize, usize, String)> = Vec::new();
    let mut why: Vec<String> = Vec::new();
    if let Some((s, e, new)) = text::glob_dir_rename(content, dirs) {
        if sink.edit(content_at + s, content_at + e, new.as_str(), B_GLOB.id) {
            why.push(format!("`{}` is now `{new}`", &content[s..e]));
            changes.push((s, e, new));
        }
    }
    for (old, new) in exts {
        let pat = format!("*.{old}");
        if let Some(pos) = content.find(&pat) {
            if content
                .as_bytes()
                .get(pos + pat.len())
                .is_none_or(|c| !c.is_ascii_alphanumeric())
                && sink.edit(
                    content_at + pos + 2,
                    content_at + pos + pat.len(),
                    new.as_str(),
                    B_GLOB.id,
                )
            {
                why.push(format!("the .{old} sources are now .{new}"));
                changes.push((pos + 2, pos + pat.len(), new.clone()));
            }
        }
    }
    if !changes.is_empty() {
        changes.sort();
        let mut rewritten = content.clone();
        for (s, e, new) in changes.iter().rev() {
            rewritten.replace_range(*s..*e, new);
        }
        sink.diag_as(
            B_GLOB,
            crate::diag::Severity::Note,
            start,
            format!(
                "pattern `{content}` -> `{rewritten}`: {}",
                why.join(" and ")
            ),
            None,
        );
    }
    false
}

/// A file name computed in a joined path (token `k`: `f'{name}_cuda.cu'`, `"{}.cpp".format(n)`
/// in `os.path.join(here, "cuda", ...)`): the renamed sources it may name (those in a directory
/// the join's literal parts end with, whose names start and end as its text does around its
/// fields) decide. When they were all renamed the same way (`ops.cu` -> `ops.hip`, `ops.cpp` ->
/// `ops_hip.cpp`), its literal end follows, or the path would name a file that no longer
/// exists; when they differ, it is a warning. `None` when no renamed source matches.
fn computed_file_name(
    toks: &[Tok],
    k: usize,
    sink: &mut Sink,
    renames: &[(String, String)],
) -> Option<bool> {
    let Tok::Str {
        start,
        quote_at,
        content,
        ..
    } = &toks[k]
    else {
        return None;
    };
    let head = &content[..content.find('{')?];
    let tail = &content[content.rfind('}')? + 1..];
    if head.contains('/') || tail.contains(['/', '*', '{']) || !tail.contains('.') {
        return None;
    }
    let dir = join_parts(toks, k, false)?;
    let in_dir = |o: &str| {
        let d = text::dir_of(o);
        dir.is_empty() || d == dir || d.ends_with(&format!("/{dir}"))
    };
    // Each matching source's name, with the new end of its name (`None`: renamed otherwise).
    let mut ends: BTreeMap<Option<&str>, Vec<(&str, &str)>> = BTreeMap::new();
    for (o, n) in renames {
        let base = o.rsplit('/').next().unwrap_or(o);
        let new_base = n.rsplit('/').next().unwrap_or(n);
        if o.starts_with("../")
            || !in_dir(o)
            || base.len() <= head.len() + tail.len()
            || !base.starts_with(head)
            || !base.ends_with(tail)
        {
            continue;
        }
        let stem = &base[..base.len() - tail.len()];
        let end = new_base.strip_prefix(stem);
        ends.entry(end).or_default().push((base, new_base));
    }
    let at = quote_at + 1 + content.len() - tail.len();
    let one = match ends.first_key_value() {
        None => return None,
        Some((end, files)) if ends.len() == 1 => end.zip(files.first()),
        Some(_) => None,
    };
    match one {
        Some((end, &(o, n))) => {
            if end == tail {
                return Some(false);
            }
            let new = format!("{}{end}", &content[..content.len() - tail.len()]);
            if sink.edit(at, at + tail.len(), end, B_GLOB.id) {
                sink.diag(
                    B_GLOB,
                    *start,
                    format!("file name `{content}` in a joined path -> `{new}`: the sources it names were renamed (`{o}` -> `{n}`)"),
                    Some("check that the path still names the renamed files".into()),
                );
            }
            Some(true)
        }
        None => {
            let shown: Vec<String> = ends
                .values()
                .filter_map(|f| f.first())
                .map(|(o, n)| format!("`{o}` -> `{n}`"))
                .collect();
            sink.diag(
                B_GLOB,
                *start,
                format!("file name `{content}` in a joined path is computed, and the sources it may name were renamed in different ways ({}): it is left as it is, so it may name a file that no longer exists", shown.join(", ")),
                Some("name the renamed files by hand, or convert this package with --rename none".into()),
            );
            Some(true)
        }
    }
}

/// The Python packages a setup.py names in `packages=[...]` (or a tuple), as directories
/// relative to its own: `"pkg.cuda"` is `pkg/cuda`, under the directory that `package_dir={"":
/// "src"}` gives the root package where the file says so.
pub(crate) fn package_dirs(src: &str) -> Vec<String> {
    let toks = tokens(src);
    let ident =
        |k: usize, name: &str| matches!(toks.get(k), Some(Tok::Ident { text, .. }) if text == name);
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let root = package_root(&toks);
    let mut out = Vec::new();
    for k in 0..toks.len() {
        if !(ident(k, "packages") && punct(k + 1, '=') && (punct(k + 2, '[') || punct(k + 2, '(')))
        {
            continue;
        }
        let mut j = k + 3;
        while let Some(name) = plain_string(&toks, j) {
            out.extend(package_path(root, name));
            if !punct(j + 1, ',') {
                break;
            }
            j += 2;
        }
    }
    out
}

/// The string of token `k` when it is a plain literal (no f-string, no bytes).
fn plain_string(toks: &[Tok], k: usize) -> Option<&str> {
    match toks.get(k) {
        Some(Tok::Str {
            content, prefix, ..
        }) if !prefix.contains(['f', 'F', 'b', 'B']) => Some(content.as_str()),
        _ => None,
    }
}

/// Where a setup.py's root package lives, relative to it: the directory `package_dir={"":
/// "src"}` gives, or its own (`""`).
fn package_root(toks: &[Tok]) -> &str {
    let ident =
        |k: usize, name: &str| matches!(toks.get(k), Some(Tok::Ident { text, .. }) if text == name);
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let mut root = "";
    for k in 0..toks.len() {
        if ident(k, "package_dir")
            && punct(k + 1, '=')
            && punct(k + 2, '{')
            && plain_string(toks, k + 3) == Some("")
            && punct(k + 4, ':')
        {
            if let Some(dir) = plain_string(toks, k + 5) {
                root = dir.trim_start_matches("./").trim_end_matches('/');
            }
        }
    }
    root
}

/// The directory of the package named `name` (`"pkg.ops"` is `pkg/ops`) under the root
/// package's directory `root`; `None` for no package name.
fn package_path(root: &str, name: &str) -> Option<String> {
    if name.is_empty() || name.contains(['/', '\\', '*']) {
        return None;
    }
    let path = name.replace('.', "/");
    Some(if root.is_empty() {
        path
    } else {
        format!("{root}/{path}")
    })
}

/// The literals of a setup.py's `package_data={"pkg": ["csrc/k.cu", ...]}` (a list or tuple
/// per package), by token, each with its package's directory relative to the setup.py:
/// setuptools reads those paths relative to the package, so a renamed source they ship is
/// looked up there. The `""` key (every package) is left out.
fn package_data_files(toks: &[Tok]) -> BTreeMap<usize, String> {
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let root = package_root(toks);
    let mut out = BTreeMap::new();
    for k in 0..toks.len() {
        let named = matches!(&toks[k], Tok::Ident { text, .. } if text == "package_data");
        if !(named && punct(k + 1, '=') && punct(k + 2, '{')) {
            continue;
        }
        // `KEY: [..]` pairs, split at the dictionary's top-level commas.
        for pair in list_elements(toks, k + 2) {
            let (Some(key), true) = (
                plain_string(toks, pair.start),
                punct(pair.start + 1, ':')
                    && (punct(pair.start + 2, '[') || punct(pair.start + 2, '(')),
            ) else {
                continue;
            };
            let Some(dir) = package_path(root, key) else {
                continue;
            };
            for elem in list_elements(toks, pair.start + 2) {
                if elem.len() == 1 && plain_string(toks, elem.start).is_some() {
                    out.insert(elem.start, dir.clone());
                }
            }
        }
    }
    out
}

/// The source literals that a helper function joins under a module's directory, by token:
/// OpenMMLab's `make_cuda_ext(name, module, sources)` (mmdetection, mmdet3d, OpenPCDet, ...)
/// builds `os.path.join(*module.split('.'), src)` for each of `sources`, so
/// `make_cuda_ext(module='pkg.ops', sources=['src/k.cu'])` names `pkg/ops/src/k.cu`. A helper is
/// any function of the file whose body joins `*P.split('.')` for one of its parameters `P`;
/// its list arguments are the parameters named `sources...`. Each literal comes with the
/// directory (`pkg/ops`), and the helper's name with the token of the call.
fn module_joined_sources(toks: &[Tok]) -> BTreeMap<usize, (String, (String, usize))> {
    let ident = |k: usize| match toks.get(k) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    // The parameter names of each `def NAME(...)`, where they end, and where the next `def` is.
    let defs: Vec<(usize, &str, usize)> = (0..toks.len())
        .filter(|&k| ident(k) == Some("def") && punct(k + 2, '('))
        .filter_map(|k| Some((k, ident(k + 1)?, k + 2)))
        .collect();
    // name -> (index and name of the module parameter, indices and names of the source ones)
    type Params = Vec<(usize, String)>;
    let mut helpers: BTreeMap<&str, (usize, String, Params)> = BTreeMap::new();
    for (n, &(_, name, open)) in defs.iter().enumerate() {
        let params: Vec<String> = list_elements(toks, open)
            .into_iter()
            .map(|r| match &toks[r] {
                [Tok::Ident { text, .. }, ..] => text.clone(),
                _ => String::new(),
            })
            .collect();
        let body_end = defs.get(n + 1).map_or(toks.len(), |d| d.0);
        // `join(*P.split('.')`
        let module = (open..body_end).find_map(|j| {
            let p = ident(j + 3)?;
            (ident(j) == Some("join")
                && punct(j + 1, '(')
                && punct(j + 2, '*')
                && punct(j + 4, '.')
                && ident(j + 5) == Some("split")
                && punct(j + 6, '(')
                && matches!(toks.get(j + 7), Some(Tok::Str { content, .. }) if content == "."))
            .then_some(p)
        });
        let Some(module) = module else { continue };
        let Some(at) = params.iter().position(|p| p == module) else {
            continue;
        };
        let sources: Vec<(usize, String)> = params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.starts_with("sources"))
            .map(|(i, p)| (i, p.clone()))
            .collect();
        if !sources.is_empty() {
            helpers.insert(name, (at, module.to_string(), sources));
        }
    }
    let mut out = BTreeMap::new();
    if helpers.is_empty() {
        return out;
    }
    for k in 0..toks.len() {
        let Some((module_at, module_name, sources)) = ident(k).and_then(|n| helpers.get(n)) else {
            continue;
        };
        if !punct(k + 1, '(') || k > 0 && (punct(k - 1, '.') || ident(k - 1) == Some("def")) {
            continue;
        }
        let args = list_elements(toks, k + 1);
        // Each argument by the parameter it fills: keyword, else position.
        let named = |r: &std::ops::Range<usize>| match (ident(r.start), punct(r.start + 1, '=')) {
            (Some(name), true) if !punct(r.start + 2, '=') => Some(name),
            _ => None,
        };
        let value = |r: &std::ops::Range<usize>| {
            if named(r).is_some() {
                r.start + 2..r.end
            } else {
                r.clone()
            }
        };
        let arg_for = |index: usize, name: &str| {
            args.iter()
                .find(|r| named(r) == Some(name))
                .or_else(|| args.get(index).filter(|r| named(r).is_none()))
                .map(&value)
        };
        let Some(m) = arg_for(*module_at, module_name) else {
            continue;
        };
        let dir = match &toks[m] {
            [Tok::Str {
                content,
                prefix,
                triple: false,
                ..
            }] if prefix.is_empty() && !content.is_empty() && !content.contains(['/', '{']) => {
                content.replace('.', "/")
            }
            _ => continue,
        };
        for (index, name) in sources {
            let Some(list) = arg_for(*index, name) else {
                continue;
            };
            if !punct(list.start, '[') || !punct(list.end.wrapping_sub(1), ']') {
                continue;
            }
            for elem in list_elements(toks, list.start) {
                if let [Tok::Str {
                    prefix,
                    triple: false,
                    ..
                }] = &toks[elem.clone()]
                {
                    if prefix.is_empty() || prefix.eq_ignore_ascii_case("r") {
                        let call = (ident(k).unwrap_or("").to_string(), k);
                        out.insert(elem.start, (dir.clone(), call));
                    }
                }
            }
        }
    }
    out
}

/// Renames a source literal that a helper joins under directory `dir` (see
/// [`module_joined_sources`]): the part after `dir/` of the new name, when the file stays under
/// it; a warning when it left it. `at` is where the literal's text starts; the first rename
/// of a call (one not yet in `noted`) gets a note saying where its sources were read.
fn module_source(
    sink: &mut Sink,
    renames: &[(String, String)],
    content: &str,
    at: usize,
    dir: &str,
    call: &(String, usize),
    noted: &mut HashSet<(String, usize)>,
) {
    let helper = &call.0;
    let rel = content.strip_prefix("./").unwrap_or(content);
    let skip = content.len() - rel.len();
    let full = format!("{dir}/{rel}");
    let Some((_, new)) = renames.iter().find(|(o, _)| *o == full) else {
        return;
    };
    match new.strip_prefix(&format!("{dir}/")) {
        Some(tail) => {
            if sink.edit(at + skip, at + content.len(), tail, B_GLOB.id) && noted.insert(call.clone())
            {
                sink.diag_as(
                    B_GLOB,
                    crate::diag::Severity::Note,
                    at - 1,
                    format!("`{content}` -> `{tail}`: `{helper}` joins its sources under `{dir}` (its module), where `{full}` is now `{new}`; the call's other renamed sources follow the same way"),
                    None,
                );
            }
        }
        None => sink.diag(
            B_GLOB,
            at - 1,
            format!("`{content}`, which `{helper}` joins under `{dir}`, was renamed to `{new}`, outside that directory"),
            Some("name the new file relative to the module's directory by hand".into()),
        ),
    }
}

/// The module constants of a file: names assigned once, at the start of a line, a plain string
/// literal and nothing else, each with the token index of its literal. A name assigned more
/// than once, or anything else, is not one.
fn string_constants<'a>(src: &str, toks: &'a [Tok]) -> BTreeMap<&'a str, usize> {
    let ident = |k: usize| match toks.get(k) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let mut assigned: BTreeMap<&str, Vec<Option<usize>>> = BTreeMap::new();
    for k in 0..toks.len() {
        let Some(name) = ident(k) else { continue };
        let starts_line = k == 0 || line_break_before(src, toks, k);
        if !starts_line || !punct(k + 1, '=') || punct(k + 2, '=') {
            continue;
        }
        let value = match toks.get(k + 2) {
            Some(Tok::Str {
                prefix,
                triple: false,
                ..
            }) if (prefix.is_empty() || prefix.eq_ignore_ascii_case("r"))
                && (k + 3 == toks.len() || line_break_before(src, toks, k + 3)) =>
            {
                Some(k + 2)
            }
            _ => None,
        };
        assigned.entry(name).or_default().push(value);
    }
    assigned
        .into_iter()
        .filter_map(|(name, values)| match values[..] {
            [Some(k)] => Some((name, k)),
            _ => None,
        })
        .collect()
}

/// The directory a constant's value names: without `./` and a trailing `/`; `None` for an
/// empty one, `.`, or text that is no plain path.
fn constant_dir(value: &str) -> Option<&str> {
    if value.is_empty() || value.contains(['{', '*', '\\']) {
        return None;
    }
    let dir = value
        .strip_prefix("./")
        .unwrap_or(value)
        .trim_end_matches('/');
    (!dir.is_empty() && dir != ".").then_some(dir)
}

/// The directories a file joins names to through a module constant (K-c, Pytorch-Correlation-
/// extension's `project_root = 'src'` ... `[join(project_root, f) for f in source_files]`):
/// the [`string_constants`] that are the first argument of a `join(` call. Each comes as
/// (name, directory, directory after the run), the directory without `./` and a trailing `/`;
/// the last differs where [`moved_constants`] rewrote the constant (`moved`: name -> new value).
fn joined_constant_dirs(
    src: &str,
    toks: &[Tok],
    moved: &BTreeMap<String, String>,
) -> Vec<(String, String, String)> {
    let ident = |k: usize| match toks.get(k) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let joined: BTreeSet<&str> = (0..toks.len())
        .filter(|&j| {
            ident(j) == Some("join")
                && punct(j + 1, '(')
                && (punct(j + 3, ',') || punct(j + 3, ')'))
        })
        .filter_map(|j| ident(j + 2))
        .collect();
    string_constants(src, toks)
        .into_iter()
        .filter(|(name, _)| joined.contains(name))
        .filter_map(|(name, k)| {
            let Tok::Str { content, .. } = &toks[k] else {
                return None;
            };
            let dir = constant_dir(content)?.to_string();
            let after = match moved.get(name) {
                Some(new) => constant_dir(new)?.to_string(),
                None => dir.clone(),
            };
            Some((name.to_string(), dir, after))
        })
        .collect()
}

/// Rewrites the module constants (see [`string_constants`]) that name a directory the run moved
/// whole (Z-d: torch-points-kernels' `ext_src_root = "cuda"` with
/// `glob.glob("{}/src/*.cu".format(ext_src_root))`, after `--rename torch` moved `cuda/` to
/// `hip/`): where every use of the constant is as a directory (see [`ConstantUse`]) its literal
/// takes the new name, with a note, so the paths built from it find the moved sources. Where
/// it is also used otherwise, or only some of the directory's files moved, it is a warning:
/// those paths name a directory that no longer holds them. Returns the rewritten constants,
/// name -> new value.
fn moved_constants(
    src: &str,
    toks: &[Tok],
    sink: &mut Sink,
    opts: &BuildOptions,
    base: &str,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let renames = text::renames_from(base, &opts.renamed);
    let dirs = text::dir_renames_from(base, &opts.renamed);
    for (name, k) in string_constants(src, toks) {
        let Tok::Str {
            start,
            quote_at,
            content,
            ..
        } = &toks[k]
        else {
            continue;
        };
        let Some(dir) = constant_dir(content) else {
            continue;
        };
        // A renamed file's path is left to the rename of paths.
        if renames.iter().any(|(o, _)| o == dir) {
            continue;
        }
        let uses = constant_uses(toks, name, k);
        if !uses.contains(&ConstantUse::Directory) {
            continue;
        }
        let at = quote_at + 1;
        let moved = text::moved_dir_path(text::dir_of(base), content, &opts.moved_dirs);
        let (message, help) = match moved {
            Some(new) if uses.iter().all(|u| *u == ConstantUse::Directory) => {
                if sink.edit(at, at + content.len(), new.as_str(), B_GLOB.id) {
                    sink.diag_as(
                        B_GLOB,
                        crate::diag::Severity::Note,
                        *start,
                        format!(
                            "`{name} = {}` -> `{name} = {}{new}{}`: the file builds paths from `{name}` as a directory, and `{dir}` moved to `{}`",
                            &src[*start..tok_end(&toks[k])],
                            &src[*start..at],
                            &src[at + content.len()..tok_end(&toks[k])],
                            constant_dir(&new).unwrap_or(&new)
                        ),
                        Some(format!("check that the paths built from `{name}` mean this directory")),
                    );
                    out.insert(name.to_string(), new);
                }
                continue;
            }
            Some(new) => (
                format!("`{name}` names `{dir}`, which moved to `{}`, but the file also uses it other than as a directory, so it is left as it is: the paths built from it name a directory that no longer exists", constant_dir(&new).unwrap_or(&new)),
                format!("write `{new}` where `{name}` means that directory"),
            ),
            None => match dirs.iter().find(|(o, _)| o == dir) {
                Some((_, n)) => (
                    format!("`{name}` names `{dir}`, whose renamed files moved to `{n}` while others stay: the paths built from it may name files that are no longer there"),
                    format!("build the paths of the moved files from `{n}`"),
                ),
                None => continue,
            },
        };
        sink.diag(B_GLOB, *start, message, Some(help));
    }
    out
}

/// How a name is used where it is not assigned: as a directory that a path continues from or
/// that names a directory itself, or otherwise.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum ConstantUse {
    /// `join(name, ...)`, `join(here, name)`, `"{}/src".format(name)`, `f"{name}/src"`,
    /// `name + "/src"`, `"-I" + name`, `include_dirs=[name]`.
    Directory,
    /// Anything else (`name.upper()`, `Path(name)`, `print(name)`).
    Other,
}

/// Each use of `name` in the file but its assignment at token `assigned` (see
/// [`ConstantUse`]); attributes (`x.name`) and keyword arguments (`f(name=1)`) are other names.
fn constant_uses(toks: &[Tok], name: &str, assigned: usize) -> Vec<ConstantUse> {
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let mut uses = Vec::new();
    for (j, t) in toks.iter().enumerate() {
        match t {
            Tok::Ident { text, .. } if text == name && j + 2 != assigned => {
                let attribute = j >= 1 && punct(j - 1, '.');
                let keyword = punct(j + 1, '=') && !punct(j + 2, '=');
                if attribute || keyword {
                    continue;
                }
                let use_ = if directory_argument(toks, j)
                    || punct(j + 1, '+')
                        && matches!(toks.get(j + 2), Some(Tok::Str { content, .. }) if content.starts_with('/'))
                    || j >= 2
                        && punct(j - 1, '+')
                        && matches!(&toks[j - 2], Tok::Str { content, .. } if content == "-I" || content.ends_with('/'))
                {
                    ConstantUse::Directory
                } else {
                    ConstantUse::Other
                };
                uses.push(use_);
            }
            Tok::Str {
                content, prefix, ..
            } if prefix.contains(['f', 'F']) => {
                // `f"{name}/src/*.cu"`: a field that names it and nothing else, before a `/`.
                let open = format!("{{{name}");
                let mut from = 0;
                while let Some(p) = content[from..].find(&open) {
                    let at = from + p;
                    from = at + open.len();
                    let after = &content[from..];
                    // `{{name}`: the braces before it pair up, so it is text.
                    let braces = content[..=at].len() - content[..=at].trim_end_matches('{').len();
                    if braces % 2 == 0
                        || after
                            .chars()
                            .next()
                            .is_some_and(|c| c.is_alphanumeric() || c == '_')
                    {
                        continue;
                    }
                    let before = &content[..at];
                    let leads = before.is_empty() || before.ends_with('/') || before == "-I";
                    uses.push(if leads && after.starts_with("}/") {
                        ConstantUse::Directory
                    } else {
                        ConstantUse::Other
                    });
                }
            }
            _ => {}
        }
    }
    uses
}

/// Whether the name at token `j` is a whole element of an include list (`include_dirs=[j]`), a
/// whole argument of a `join(...)` call, or of a `str.format` call whose template puts each of its fields where a path starts or goes on,
/// before a `/` (`"{}/src".format(j)`, `"-I{}/include".format(j)`).
fn directory_argument(toks: &[Tok], j: usize) -> bool {
    let punct = |k: usize, c: char| matches!(toks.get(k), Some(Tok::Punct { ch, .. }) if *ch == c);
    let whole = j >= 1
        && (punct(j - 1, '(') || punct(j - 1, ',') || punct(j - 1, '['))
        && (punct(j + 1, ',') || punct(j + 1, ')') || punct(j + 1, ']'));
    if !whole {
        return false;
    }
    // The `(` of the call it is an argument of.
    let mut depth = 0isize;
    let Some(open) = (0..j).rev().find(|&i| {
        depth += nesting(&toks[i]);
        depth > 0
    }) else {
        return false;
    };
    // An element of an include list (`include_dirs=[root]`) names a directory itself.
    if names_include_list(toks, open) {
        return true;
    }
    if !punct(open, '(') || open == 0 {
        return false;
    }
    match &toks[open - 1] {
        Tok::Ident { text, .. } if text == "join" => true,
        Tok::Ident { text, .. } if text == "format" && open >= 3 && punct(open - 2, '.') => {
            let Tok::Str {
                content, prefix, ..
            } = &toks[open - 3]
            else {
                return false;
            };
            let Some(n) = list_elements(toks, open)
                .iter()
                .position(|r| r.start == j && r.end == j + 1)
            else {
                return false;
            };
            !prefix.contains(['f', 'F', 'b', 'B']) && format_field_leads(content, n)
        }
        _ => false,
    }
}

/// Whether positional field `n` of a `str.format` template appears, and each time where a path
/// starts (the template's start, or after `-I` there) or goes on (after a `/`), before a `/`.
fn format_field_leads(template: &str, n: usize) -> bool {
    let Some((fields, tail)) = format_fields(template) else {
        return false;
    };
    let mut next = 0usize;
    let mut seen = false;
    for (k, (before, field)) in fields.iter().enumerate() {
        let field = field.split([':', '!']).next().unwrap_or("");
        let index = if field.is_empty() {
            next += 1;
            Some(next - 1)
        } else {
            field.parse::<usize>().ok()
        };
        if index == Some(n) {
            // After another field, a value stands before this text.
            let leads = if k == 0 {
                before.is_empty() || before == "-I" || before.ends_with('/')
            } else {
                before.ends_with('/')
            };
            let after = fields.get(k + 1).map_or(tail.as_str(), |f| f.0.as_str());
            if !leads || !after.starts_with('/') {
                return false;
            }
            seen = true;
        }
    }
    seen
}

/// The replacement fields of `str.format` template `template`, in order, each with the literal
/// text before it (`{{` and `}}` read as one brace) and the text between its braces, and the
/// literal text after the last; `None` where a brace is unpaired (a lone `}`, a `{` that does
/// not close).
fn format_fields(template: &str) -> Option<(Vec<(String, &str)>, String)> {
    let mut fields = Vec::new();
    let mut text = String::new();
    let mut rest = template;
    while let Some(i) = rest.find(['{', '}']) {
        text.push_str(&rest[..i]);
        let (c, after) = (rest.as_bytes()[i], &rest[i + 1..]);
        if after.as_bytes().first() == Some(&c) {
            text.push(c as char);
            rest = &after[1..];
            continue;
        }
        if c == b'}' {
            return None;
        }
        let close = after.find('}')?;
        fields.push((std::mem::take(&mut text), &after[..close]));
        rest = &after[close + 1..];
    }
    text.push_str(rest);
    Some((fields, text))
}
/// Renames a literal naming a source (`'kern.cu'`, a bare name the file lists and joins
/// elsewhere) that is a renamed source under exactly one directory of [`joined_constant_dirs`]
/// and stays under it: its name there follows (`'kern.hip'`), with a note. `at` is where the
/// literal's text starts. Says whether it renamed.
fn constant_dir_source(
    sink: &mut Sink,
    renames: &[(String, String)],
    const_dirs: &[(String, String, String)],
    content: &str,
    at: usize,
) -> bool {
    let rel = content.strip_prefix("./").unwrap_or(content);
    if rel.is_empty() || rel.contains(['*', '{', ' ', '\\']) || rel.starts_with(['/', '-']) {
        return false;
    }
    let skip = content.len() - rel.len();
    let found: Vec<(&str, &str, &str, &str)> = const_dirs
        .iter()
        .filter_map(|(name, dir, after)| {
            let full = format!("{dir}/{rel}");
            let (old, new) = renames.iter().find(|(o, _)| *o == full)?;
            let tail = new.strip_prefix(after.as_str())?.strip_prefix('/')?;
            Some((name.as_str(), old.as_str(), new.as_str(), tail))
        })
        .collect();
    let [(name, old, new, tail)] = found[..] else {
        return false;
    };
    if !sink.edit(at + skip, at + content.len(), tail, B_GLOB.id) {
        return false;
    }
    sink.diag_as(
        B_GLOB,
        crate::diag::Severity::Note,
        at - 1,
        format!("`{content}` -> `{tail}`: the file joins names to `{name}` (`{}`), where `{old}` is now `{new}`", &old[..old.len() - rel.len() - 1]),
        Some(format!("check that `{content}` means the file under `{name}`")),
    );
    true
}

/// Warns of a literal naming a source file (`'src/k.cu'`) that is no renamed source as seen
/// from this file's directory while one whose path ends the same way was renamed: the path is
/// joined to a directory in code hipport does not follow (a helper function), so it may name a
/// file that no longer exists. Returns whether it warned.
fn unresolved_source(
    sink: &mut Sink,
    renames: &[(String, String)],
    content: &str,
    at: usize,
) -> bool {
    const SOURCES: &[&str] = &["cu", "cpp", "cc", "cxx", "c", "h", "hpp", "cuh"];
    let rel = content.strip_prefix("./").unwrap_or(content);
    let named_source = rel
        .rsplit_once('.')
        .is_some_and(|(stem, ext)| !stem.is_empty() && SOURCES.contains(&ext))
        && !rel.contains(['*', '{', ' ', '\\'])
        && !rel.starts_with(['/', '-']);
    if !named_source || renames.iter().any(|(o, _)| o == rel) {
        return false;
    }
    let tail = format!("/{rel}");
    let Some((old, new)) = renames
        .iter()
        .find(|(o, _)| o.ends_with(&tail) && !o.starts_with("../"))
    else {
        return false;
    };
    sink.diag(
        B_GLOB,
        at,
        format!("`{content}` names no renamed source from this file's directory, but `{old}` was renamed to `{new}`: if code joins it to a directory hipport does not follow, it names a file that no longer exists"),
        Some("rename it by hand where it means that file".into()),
    );
    true
}

/// The include directories a setup.py or JIT build names (see [`super::include_dirs`]): the
/// elements of a list given as `include_dirs=`, `extra_include_paths=` (any name with `include`
/// in it, or such a dictionary key), and the paths of `-I` flags in string literals (`"-Idir"`,
/// `"-I", "dir"`). See [`each_include_element`] for the elements read.
/// A path written whole in one literal comes with its offset in `src`.
pub(crate) fn include_dirs(src: &str, add: &mut dyn FnMut(&str, Option<usize>, Anchor)) {
    let toks = tokens(src);
    each_include_element(src, &toks, &BTreeMap::new(), &mut |_, path| {
        if let Some((p, at)) = path {
            add(&p, at, Anchor::File);
        }
    });
}

/// A path read from a build: its text, and its offset in the file where one literal holds it whole.
type ReadPath = (String, Option<usize>);

/// Calls `f` with each element of the include directory lists of a Python build (its tokens),
/// and the path it names where hipport can read it (see [`element_path`]), with the offset of
/// a path written whole in one literal. The lists are those given as `include_dirs=` or
/// `extra_include_paths=` (any name with `include` in it, or such a dictionary key), and those
/// of a variable passed so (`include_dirs=dirs`) or named with `include`: its assigned list,
/// `+=` lists, `.extend([...])` and the element of each `.append(x)`/`.insert(i, x)` (mmcv
/// appends `os.path.abspath('./mmcv/ops/csrc/common')` one by one). An element that is a
/// variable assigned one path in the file (`include_dirs = [extensions_dir]`) names that path,
/// or the value `values` gives it (constants rewritten to a new directory).
fn each_include_element(
    src: &str,
    toks: &[Tok],
    values: &BTreeMap<String, String>,
    f: &mut dyn FnMut(&[Tok], Option<ReadPath>),
) {
    let names = include_list_names(toks);
    let mut paths = path_variables(src, toks);
    for (name, value) in values {
        if let Some(v) = paths.get_mut(name.as_str()) {
            *v = Some((value.clone(), None));
        }
    }
    let mut read = |elem: &[Tok]| {
        let path = expr_path(elem, &paths, 0);
        f(elem, path);
    };
    for (k, t) in toks.iter().enumerate() {
        match t {
            Tok::Punct { ch: '[' | '(', .. }
                if names_include_list(toks, k) || named_list(toks, k, &names) =>
            {
                for elem in list_elements(toks, k) {
                    read(&toks[elem]);
                }
            }
            Tok::Ident { text, .. } if names.contains(text.as_str()) => {
                let method = match (toks.get(k + 1), toks.get(k + 2), toks.get(k + 3)) {
                    (
                        Some(Tok::Punct { ch: '.', .. }),
                        Some(Tok::Ident { text: m, .. }),
                        Some(Tok::Punct { ch: '(', .. }),
                    ) => m.as_str(),
                    _ => continue,
                };
                let args = list_elements(toks, k + 3);
                let elem = match (method, &args[..]) {
                    ("append", [x]) | ("insert", [_, x]) => x.clone(),
                    // `insert(0, x)`: numbers are no tokens, so the index leaves an empty
                    // first argument.
                    ("insert", [x]) => x.clone(),
                    _ => continue,
                };
                read(&toks[elem]);
            }
            _ => {}
        }
    }
    include_flags(src, toks, &paths, f);
}

/// The variables whose value a build passes as include directories: those given as the value
/// of a keyword or dictionary key with `include` in its name (`include_dirs=dirs`,
/// `"include_dirs": dirs`), and any variable with `include` in its name.
fn include_list_names(toks: &[Tok]) -> BTreeSet<&str> {
    let named = |t: &str| t.to_ascii_lowercase().contains("include");
    let mut out = BTreeSet::new();
    for (k, t) in toks.iter().enumerate() {
        let Tok::Ident { text, .. } = t else { continue };
        if named(text) {
            out.insert(text.as_str());
            continue;
        }
        // `NAME` right after `include_dirs=` or `"include_dirs":`, alone as the value.
        let ends_value = matches!(
            toks.get(k + 1),
            None | Some(Tok::Punct {
                ch: ',' | ')' | '}',
                ..
            })
        );
        let keyed = k >= 2
            && match (&toks[k - 1], &toks[k - 2]) {
                (Tok::Punct { ch: '=', .. }, Tok::Ident { text: key, .. }) => named(key),
                (Tok::Punct { ch: ':', .. }, Tok::Str { content, .. }) => named(content),
                _ => false,
            };
        if keyed && ends_value {
            out.insert(text.as_str());
        }
    }
    out
}

/// Whether the `[` or `(` at `open` holds elements of a named include list: `NAME = [`,
/// `NAME += [`, `NAME.extend([` / `NAME.extend((` with `NAME` in `names`.
fn named_list(toks: &[Tok], open: usize, names: &BTreeSet<&str>) -> bool {
    let name_at = |j: usize| matches!(toks.get(j), Some(Tok::Ident { text, .. }) if names.contains(text.as_str()));
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    let ident =
        |j: usize, s: &str| matches!(toks.get(j), Some(Tok::Ident { text, .. }) if text == s);
    let is_list = punct(open, '[');
    if open >= 2 && is_list && punct(open - 1, '=') {
        // `NAME = [` (not `==`) or `NAME += [`.
        return name_at(open - 2) || open >= 3 && punct(open - 2, '+') && name_at(open - 3);
    }
    // `NAME.extend([` or `NAME.extend((`.
    open >= 4
        && punct(open - 1, '(')
        && ident(open - 2, "extend")
        && punct(open - 3, '.')
        && name_at(open - 4)
        && (is_list || punct(open, '('))
}

/// Variables assigned a path once in the file (`extensions_dir = os.path.join(this_dir, "csrc")`):
/// the path, read as an include list element is (see [`element_path`]). A variable assigned
/// more than once, or anything else, maps to `None`.
fn path_variables<'a>(src: &str, toks: &'a [Tok]) -> PathVariables<'a> {
    let mut out: PathVariables = BTreeMap::new();
    for (k, t) in toks.iter().enumerate() {
        let Tok::Ident { text, .. } = t else { continue };
        let assigned = matches!(toks.get(k + 1), Some(Tok::Punct { ch: '=', .. }))
            && !matches!(toks.get(k + 2), Some(Tok::Punct { ch: '=', .. }))
            && !matches!(
                toks.get(k.wrapping_sub(1)),
                Some(Tok::Punct { ch: '.', .. })
            );
        if !assigned {
            continue;
        }
        // The value runs to the end of its line, outside brackets.
        let mut depth = 0isize;
        let mut end = k + 2;
        while end < toks.len() {
            let t = &toks[end];
            if depth == 0 && end > k + 2 && line_break_before(src, toks, end) {
                break;
            }
            depth += nesting(t);
            if depth < 0 {
                break;
            }
            end += 1;
        }
        let value = expr_path(&toks[(k + 2).min(end)..end], &out, 0);
        out.entry(text.as_str())
            .and_modify(|v| *v = None)
            .or_insert(value);
    }
    out
}
/// Calls `f` with the `-I` flags of string literals anywhere in a Python build and the path
/// each names where hipport can read it (see [`expr_path`]): the path part of `"-I", dir` and
/// `"-I" + dir`, and the whole flag of `"-Idir"` and `"-I{}".format(dir)`.
fn include_flags(
    src: &str,
    toks: &[Tok],
    paths: &PathVariables,
    f: &mut dyn FnMut(&[Tok], Option<ReadPath>),
) {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    for (k, t) in toks.iter().enumerate() {
        let Tok::Str {
            quote_at,
            content,
            triple: false,
            prefix,
            ..
        } = t
        else {
            continue;
        };
        if prefix.contains(['b', 'B']) {
            continue;
        }
        let Some(rest) = content.strip_prefix("-I") else {
            continue;
        };
        if let Some(end) = format_call_end(toks, k) {
            // `"-I{}".format(os.path.join(here, "include"))`: the flag is the whole call.
            let plain = prefix.is_empty() || prefix.eq_ignore_ascii_case("r");
            let path = plain
                .then(|| formatted(rest, &toks[k..end], paths, 0))
                .flatten()
                .map(|p| (p, None));
            f(&toks[k..end], path);
        } else if rest.trim().is_empty() {
            // `"-I", "dir"` (the next element of the list) or `"-I" + dir`.
            if punct(k + 1, ',') || punct(k + 1, '+') {
                let end = element_end(src, toks, k + 2);
                if end > k + 2 {
                    let elem = &toks[k + 2..end];
                    f(elem, expr_path(elem, paths, 0));
                }
            }
        } else {
            let path = literal_path(rest, prefix).map(|p| {
                (
                    p.to_string(),
                    text::offset_in(content, p).map(|o| quote_at + 1 + o),
                )
            });
            f(&toks[k..=k], path);
        }
    }
}

/// Whether a line ends between token `j - 1` and token `j` (not at a backslash).
fn line_break_before(src: &str, toks: &[Tok], j: usize) -> bool {
    let gap = &src[tok_end(&toks[j - 1])..tok_start(&toks[j])];
    gap.contains('\n')
        && !gap
            .trim_end_matches(['\n', '\r', ' ', '\t'])
            .ends_with('\\')
}

/// One past the last token of the expression that starts at `from`: up to a top-level `,` or
/// `:`, a bracket that closes outside it, or the end of its line outside brackets.
fn element_end(src: &str, toks: &[Tok], from: usize) -> usize {
    let mut depth = 0isize;
    for (j, t) in toks.iter().enumerate().skip(from) {
        if depth == 0 && j > from && line_break_before(src, toks, j) {
            return j;
        }
        depth += nesting(t);
        if depth < 0 || depth == 0 && matches!(t, Tok::Punct { ch: ',' | ':', .. }) {
            return j;
        }
    }
    toks.len()
}

/// One past the `)` of `.format(...)` right after the literal at `k`; `None` otherwise.
fn format_call_end(toks: &[Tok], k: usize) -> Option<usize> {
    let dot = matches!(toks.get(k + 1), Some(Tok::Punct { ch: '.', .. }));
    let name = matches!(toks.get(k + 2), Some(Tok::Ident { text, .. }) if text == "format");
    let open = matches!(toks.get(k + 3), Some(Tok::Punct { ch: '(', .. }));
    if !(dot && name && open) {
        return None;
    }
    let mut depth = 0isize;
    for (j, t) in toks.iter().enumerate().skip(k + 3) {
        depth += nesting(t);
        if depth == 0 {
            return Some(j + 1);
        }
    }
    None
}

/// Variables assigned one path in the file (see [`path_variables`]).
type PathVariables<'a> = BTreeMap<&'a str, Option<ReadPath>>;

/// How deeply [`expr_path`] reads nested expressions (formats of joins of formats).
const EXPR_DEPTH: usize = 16;

/// The path an expression names, relative to this file's directory, where hipport can read
/// it: what [`element_path`] reads, a variable assigned such a path once (`paths`), a join
/// whose later parts are such paths, and a `str.format` call whose fields are
/// (`"{}/include".format(root)`); see [`formatted`].
fn expr_path(elem: &[Tok], paths: &PathVariables, depth: usize) -> Option<ReadPath> {
    if depth > EXPR_DEPTH {
        return None;
    }
    if let [Tok::Ident { text, .. }] = elem {
        return paths.get(text.as_str()).cloned().flatten();
    }
    if let Some(p) = element_path(elem) {
        return Some(p);
    }
    if let [Tok::Str {
        content, prefix, ..
    }, ..] = elem
    {
        let end = format_call_end(elem, 0)?;
        let plain = prefix.is_empty() || prefix.eq_ignore_ascii_case("r");
        return (end == elem.len() && plain)
            .then(|| formatted(content, elem, paths, depth + 1))
            .flatten()
            .map(|p| (p, None));
    }
    joined(elem, paths, depth + 1).map(|p| (p, None))
}

/// The argument ranges of the `join(...)` call that is the whole element (its `)` ends it).
fn join_args(elem: &[Tok]) -> Option<Vec<std::ops::Range<usize>>> {
    if !matches!(elem.last(), Some(Tok::Punct { ch: ')', .. })) {
        return None;
    }
    let open = elem.iter().enumerate().position(|(j, t)| {
        matches!(t, Tok::Punct { ch: '(', .. })
            && matches!(elem.get(j.wrapping_sub(1)), Some(Tok::Ident { text, .. }) if text == "join")
    })?;
    let args = list_elements(elem, open);
    (args.last().map(|r| r.end) == Some(elem.len() - 1)).then_some(args)
}

/// `os.path.join(dir, a, b)` (the whole element) whose parts after the first are paths
/// [`expr_path`] reads; the first part is read too, and where it cannot be, it is the
/// directory (as in [`join_literals`]).
fn joined(elem: &[Tok], paths: &PathVariables, depth: usize) -> Option<String> {
    let args = join_args(elem)?;
    let mut parts = Vec::new();
    for (n, r) in args.into_iter().enumerate() {
        match expr_path(&elem[r], paths, depth) {
            Some((p, _)) => parts.push(p),
            None if n == 0 => {}
            None => return None,
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// The text of `template` (a literal's content, or the part of it after a flag) formatted by
/// the `.format(...)` call that `call` (the literal and the call) holds, where each field is
/// `{}` or `{N}` and its argument a path [`expr_path`] reads. A leading field it cannot read,
/// followed by `/`, is the directory (`"{}/include".format(this_dir)` names `include`).
fn formatted(template: &str, call: &[Tok], paths: &PathVariables, depth: usize) -> Option<String> {
    if depth > EXPR_DEPTH {
        return None;
    }
    let open = 3;
    let args = list_elements(call, open);
    if args
        .last()
        .map_or(call.len() != open + 2, |r| r.end + 1 != call.len())
    {
        return None;
    }
    let values: Vec<Option<String>> = args
        .iter()
        .map(|r| expr_path(&call[r.clone()], paths, depth).map(|(p, _)| p))
        .collect();
    let (fields, tail) = format_fields(template)?;
    let mut out = String::new();
    let mut next = 0usize;
    // A leading field it cannot read, followed by `/`, drops that `/` (the directory).
    let mut skip_slash = false;
    for (k, (before, field)) in fields.iter().enumerate() {
        out.push_str(if skip_slash { &before[1..] } else { before });
        let n = if field.is_empty() {
            next += 1;
            next - 1
        } else {
            field.parse::<usize>().ok()?
        };
        let after = fields.get(k + 1).map_or(tail.as_str(), |f| f.0.as_str());
        skip_slash = false;
        match values.get(n)? {
            Some(v) => out.push_str(v),
            None if out.is_empty() && after.starts_with('/') => skip_slash = true,
            None => return None,
        }
    }
    out.push_str(if skip_slash { &tail[1..] } else { &tail });
    (!out.is_empty()).then_some(out)
}

/// Whether the `[` at `open` starts the value of a name or key with `include` in it
/// (`include_dirs=[`, `extra_include_paths=[`, `"include_dirs": [`, `INCLUDES = [`).
fn names_include_list(toks: &[Tok], open: usize) -> bool {
    if open < 2 {
        return false;
    }
    let named = |t: &str| t.to_ascii_lowercase().contains("include");
    match (&toks[open - 1], &toks[open - 2]) {
        (Tok::Punct { ch: '=', .. }, Tok::Ident { text, .. }) => named(text),
        (Tok::Punct { ch: ':', .. }, Tok::Str { content, .. }) => named(content),
        _ => false,
    }
}

/// The token ranges of the elements of the list opened at `open`, split at its top-level commas.
fn list_elements(toks: &[Tok], open: usize) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = open + 1;
    for (j, t) in toks.iter().enumerate().skip(open + 1) {
        match (t, nesting(t)) {
            (_, -1) if depth == 0 => {
                if from < j {
                    out.push(from..j);
                }
                return out;
            }
            (_, step @ (1 | -1)) => depth = depth.saturating_add_signed(step),
            (Tok::Punct { ch: ',', .. }, _) if depth == 0 => {
                if from < j {
                    out.push(from..j);
                }
                from = j + 1;
            }
            _ => {}
        }
    }
    Vec::new()
}

/// The token ranges of the runs of plain string elements of the list opened at `open`
/// (with the commas between them), split at every other element.
fn literal_runs(toks: &[Tok], open: usize) -> Vec<std::ops::Range<usize>> {
    let mut runs: Vec<std::ops::Range<usize>> = Vec::new();
    let mut current: Option<std::ops::Range<usize>> = None;
    for elem in list_elements(toks, open) {
        let plain = elem.len() == 1
            && matches!(&toks[elem.start], Tok::Str { triple: false, prefix, .. } if !prefix.contains(['b', 'B', 'f', 'F']));
        match (plain, current.as_mut()) {
            (true, Some(run)) => run.end = elem.end,
            (true, None) => current = Some(elem),
            (false, _) => runs.extend(current.take()),
        }
    }
    runs.extend(current);
    runs
}

/// The path an element of a list names, relative to this file's directory: a literal, or
/// `os.path.join(...)` of literals, whose first part may be any expression (the directory); with
/// the offset in the file of a path written whole in one literal.
fn element_path(elem: &[Tok]) -> Option<(String, Option<usize>)> {
    if let Some(inner) = path_call_argument(elem) {
        return element_path(inner);
    }
    match elem {
        [Tok::Str {
            quote_at,
            content,
            prefix,
            triple: false,
            ..
        }] => {
            let p = literal_path(content, prefix)?;
            let at = text::offset_in(content, p).map(|o| quote_at + 1 + o);
            Some((p.to_string(), at))
        }
        _ if pathlib_parts(elem).is_some() => {
            pathlib_parts(elem).map(|parts| (parts.join("/"), None))
        }
        [.., Tok::Punct { ch: ')', .. }] => {
            // The joined path; a path in a single literal (`join(here, "csrc/cuda")`) is
            // written whole there.
            let v = join_literals(elem).filter(|v| !v.is_empty())?;
            let at = match v[..] {
                [(_, at)] => Some(at),
                _ => None,
            };
            Some((v.iter().map(|(c, _)| *c).collect::<Vec<_>>().join("/"), at))
        }
        _ => None,
    }
}

/// The literal parts of `os.path.join(...)` (the whole element), whose first part may be any
/// expression (the directory), each with the offset of its text; `None` when a later part is no
/// plain literal.
fn join_literals(elem: &[Tok]) -> Option<Vec<(&str, usize)>> {
    let args = join_args(elem)?;
    let parts: Vec<Option<(&str, usize)>> = args
        .into_iter()
        .map(|r| match &elem[r] {
            [Tok::Str {
                content,
                prefix,
                quote_at,
                triple: false,
                ..
            }] if prefix.is_empty() || prefix.eq_ignore_ascii_case("r") => {
                Some((content.as_str(), quote_at + 1))
            }
            _ => None,
        })
        .collect();
    match parts.split_first()? {
        (None, rest) => rest.iter().copied().collect(),
        _ => parts.iter().copied().collect(),
    }
}

/// The argument of a call that keeps the path it is given, `os.path.abspath(x)`,
/// `osp.realpath(x)`, `os.path.normpath(x)` (relative paths taken from the directory setup.py
/// runs in, its own), when it is the whole element.
fn path_call_argument(elem: &[Tok]) -> Option<&[Tok]> {
    let open = elem
        .iter()
        .position(|t| matches!(t, Tok::Punct { ch: '(', .. }))?;
    let callee = &elem[..open];
    let Some(Tok::Ident { text, .. }) = callee.last() else {
        return None;
    };
    let dotted = callee
        .iter()
        .all(|t| matches!(t, Tok::Ident { .. } | Tok::Punct { ch: '.', .. }));
    if !dotted || !matches!(text.as_str(), "abspath" | "realpath" | "normpath") {
        return None;
    }
    match &list_elements(elem, open)[..] {
        [arg] if arg.end + 1 == elem.len() => Some(&elem[arg.clone()]),
        _ => None,
    }
}

/// The literals of a pathlib path `base / "a" / "b"` (also inside `str(...)`), whose base is
/// any expression without literals (the directory), in order.
fn pathlib_parts(elem: &[Tok]) -> Option<Vec<&str>> {
    let elem = match elem {
        [Tok::Ident { text, .. }, Tok::Punct { ch: '(', .. }, inner @ .., Tok::Punct { ch: ')', .. }]
            if text == "str" =>
        {
            inner
        }
        _ => elem,
    };
    let mut parts = Vec::new();
    let mut end = elem.len();
    while end >= 2 {
        match (&elem[end - 2], &elem[end - 1]) {
            (
                Tok::Punct { ch: '/', .. },
                Tok::Str {
                    content,
                    prefix,
                    triple: false,
                    ..
                },
            ) if prefix.is_empty() || prefix.eq_ignore_ascii_case("r") => {
                parts.push(content.as_str());
                end -= 2;
            }
            _ => break,
        }
    }
    let head = &elem[..end];
    if parts.is_empty() || head.is_empty() || head.iter().any(|t| matches!(t, Tok::Str { .. })) {
        return None;
    }
    parts.reverse();
    Some(parts)
}

/// The path a literal's text names: itself, or for an f-string `f"{here}/dir"` the part after
/// the leading `{...}/`; `None` for other formatted or byte strings.
fn literal_path<'a>(content: &'a str, prefix: &str) -> Option<&'a str> {
    if prefix.contains(['b', 'B']) {
        return None;
    }
    if prefix.contains(['f', 'F']) {
        let rest = content.strip_prefix('{')?;
        let (_, rest) = rest.split_once("}/")?;
        return (!rest.contains('{')).then_some(rest);
    }
    Some(content)
}

/// Reports the nvcc flags in a string that is not in a list of flags, which hipport leaves as
/// they are.
fn unrewritten_flags(sink: &mut Sink, opts: &BuildOptions, content: &str, at: usize, ctx: Context) {
    let words: Vec<&str> = content.split_whitespace().collect();
    let mut done = false;
    let mapped = flags::map_words(&words, opts, ctx, &mut done);
    for n in mapped.notes {
        let flag = words[n.word];
        sink.note(
            n.left_as_is(flag, "the string is not in a list of flags"),
            at,
        );
    }
}

/// `os.environ["TORCH_CUDA_ARCH_LIST"] = "8.0;8.6+PTX"` (or `setdefault`): ROCm PyTorch reads
/// `PYTORCH_ROCM_ARCH` with AMD targets instead, so the name and a literal value move over.
fn torch_arch_list(toks: &[Tok], k: usize, sink: &mut Sink, opts: &BuildOptions) {
    let Tok::Str { quote_at, .. } = &toks[k] else {
        return;
    };
    let key_at = quote_at + 1;
    sink.edit(
        key_at,
        key_at + "TORCH_CUDA_ARCH_LIST".len(),
        "PYTORCH_ROCM_ARCH".to_string(),
        B_TORCH.id,
    );
    let archs = opts.offload_arch.join(";");
    // The value: the next string after `] =` or `,`, when it is a list of CUDA architectures.
    let value = toks[k + 1..].iter().take(3).find_map(|t| match t {
        Tok::Str {
            quote_at,
            content,
            triple: false,
            ..
        } if !content.is_empty()
            && content
                .chars()
                .all(|c| c.is_ascii_digit() || ". ;+PTXptx".contains(c)) =>
        {
            Some((*quote_at + 1, content.len()))
        }
        _ => None,
    });
    let help = "ROCm PyTorch builds extensions for the gfx targets in PYTORCH_ROCM_ARCH and ignores TORCH_CUDA_ARCH_LIST; set the targets you ship for".to_string();
    match value {
        Some((at, len)) => {
            sink.edit(at, at + len, archs.clone(), B_TORCH.id);
            sink.diag(B_TORCH, key_at, format!("TORCH_CUDA_ARCH_LIST -> PYTORCH_ROCM_ARCH = \"{archs}\""), Some(help));
        }
        None => sink.diag(B_TORCH, key_at, "TORCH_CUDA_ARCH_LIST -> PYTORCH_ROCM_ARCH; its value is not a literal list of CUDA architectures: set AMD gfx targets".into(), Some(help)),
    }
}

/// For a string token `k` that is the only argument of `<var>.append(...)`: the flag context
/// (nvcc's own when the variable holds nvcc flags).
fn append_context(toks: &[Tok], k: usize, nvcc: &NvccValues) -> Option<Context> {
    if k < 4 {
        return None;
    }
    match (
        &toks[k - 1],
        &toks[k - 2],
        &toks[k - 3],
        &toks[k - 4],
        toks.get(k + 1),
    ) {
        (
            Tok::Punct { ch: '(', .. },
            Tok::Ident { text: m, .. },
            Tok::Punct { ch: '.', .. },
            Tok::Ident { text: v, .. },
            Some(Tok::Punct { ch: ')', .. }),
        ) if m == "append" => Some(if nvcc.is_nvcc_name(v) {
            Context::Nvcc
        } else {
            Context::Any
        }),
        _ => None,
    }
}

/// The string token of the `x.append("...")` statement right after the one whose string is
/// token `k` (`x.append("-gencode")`), on the same list `x`; `None` otherwise.
fn appended_value(toks: &[Tok], k: usize) -> Option<usize> {
    let Tok::Ident { text: list, .. } = toks.get(k.checked_sub(4)?)? else {
        return None;
    };
    match toks.get(k + 2..k + 8)? {
        [Tok::Ident { text: next, .. }, Tok::Punct { ch: '.', .. }, Tok::Ident { text: m, .. }, Tok::Punct { ch: '(', .. }, Tok::Str { triple: false, .. }, Tok::Punct { ch: ')', .. }]
            if next == list && m == "append" =>
        {
            Some(k + 6)
        }
        _ => None,
    }
}

/// Whether string token `k` is a part of a joined path: an argument of `os.path.join(...)` /
/// `path.join(...)`, or an operand of pathlib's `/` (`Path(__file__).parent / "cuda" / "k.cu"`;
/// Python divides no string, so a literal beside `/` is a path part).
fn joined_path(toks: &[Tok], k: usize) -> bool {
    let slash = |t: Option<&Tok>| matches!(t, Some(Tok::Punct { ch: '/', .. }));
    if slash(toks.get(k + 1)) || k > 0 && slash(toks.get(k - 1)) {
        return true;
    }
    let mut depth = 0;
    let mut j = k;
    while j > 0 {
        j -= 1;
        match &toks[j] {
            Tok::Punct { ch: ')' | ']', .. } => depth += 1,
            Tok::Punct { ch: '(' | '[', .. } if depth > 0 => depth -= 1,
            Tok::Punct { ch: '(', .. } => {
                return matches!(toks.get(j.wrapping_sub(1)), Some(Tok::Ident { text, .. }) if text == "join");
            }
            Tok::Punct { ch: '[', .. } => return false,
            _ => {}
        }
    }
    false
}

/// The path that the literal arguments of `os.path.join(...)` up to and including the literal
/// at `k` name (`join(here, "pkg", "cuda", ...)` at `"cuda"`: `pkg/cuda`); the first argument
/// may be any expression (the directory). `None` outside a join or after another expression.
fn join_prefix(toks: &[Tok], k: usize) -> Option<String> {
    join_parts(toks, k, true)
}

/// The path that the literal arguments of `os.path.join(...)` before the argument holding
/// token `k` name (`join(here, "cuda", "{}.cu".format(n))` at the format: `cuda`), or with
/// `including`, up to and including the literal at `k` when it is an argument alone (see
/// [`join_prefix`]).
fn join_parts(toks: &[Tok], k: usize, including: bool) -> Option<String> {
    let mut depth = 0;
    let mut j = k;
    let open = loop {
        j = j.checked_sub(1)?;
        match &toks[j] {
            Tok::Punct {
                ch: ')' | ']' | '}',
                ..
            } => depth += 1,
            Tok::Punct {
                ch: '(' | '[' | '{',
                ..
            } if depth > 0 => depth -= 1,
            Tok::Punct { ch: '(', .. } => break j,
            Tok::Punct { ch: '[' | '{', .. } => return None,
            _ => {}
        }
    };
    if !matches!(toks.get(open.wrapping_sub(1)), Some(Tok::Ident { text, .. }) if text == "join") {
        return None;
    }
    let mut parts = Vec::new();
    for (n, arg) in list_elements(toks, open).into_iter().enumerate() {
        if !including && arg.contains(&k) {
            return Some(parts.join("/"));
        }
        let (lit, last) = match &toks[arg.clone()] {
            [Tok::Str {
                content,
                prefix,
                triple: false,
                ..
            }] if prefix.is_empty() || prefix.eq_ignore_ascii_case("r") => {
                (Some(content.as_str()), arg.start == k)
            }
            _ => (None, false),
        };
        match lit {
            Some(c) => parts.push(c),
            None if n == 0 => {}
            None => return None,
        }
        if last {
            return Some(parts.join("/"));
        }
    }
    None
}

/// Drops nvcc's parallel compilation flag from the list opened at `open` where its count is an
/// expression (`nvcc_args + ["--threads", nvcc_threads]`, apex's and flash-attention's
/// `append_nvcc_threads`): hipcc rejects `--threads`, and the count alone would be taken for an
/// input file. Both elements go, with the note the flag mapping gives `--threads N`; `-t`
/// only in a list known to be nvcc's (`ctx`).
fn threads_with_computed_count(
    src: &str,
    toks: &[Tok],
    open: usize,
    sink: &mut Sink,
    opts: &BuildOptions,
    ctx: Context,
) {
    let elems = list_elements(toks, open);
    let literal = |r: &std::ops::Range<usize>| match &toks[r.clone()] {
        [Tok::Str {
            content,
            prefix,
            triple: false,
            ..
        }] if !prefix.contains(['f', 'F', 'b', 'B']) => Some(content.as_str()),
        _ => None,
    };
    let span = |r: &std::ops::Range<usize>| (tok_start(&toks[r.start]), tok_end(&toks[r.end - 1]));
    let mut i = 0;
    while i + 1 < elems.len() {
        let (flag, count) = (&elems[i], &elems[i + 1]);
        let is_flag =
            literal(flag).is_some_and(|f| f == "--threads" || f == "-t" && ctx == Context::Nvcc);
        if !is_flag || literal(count).is_some() {
            i += 1;
            continue;
        }
        let (s, _) = span(flag);
        let (cs, ce) = span(count);
        // A count is a value (`str(n)`, `nproc`), not a list or a keyword argument, whose own
        // rewrites the pair's removal would clash with (and leave to the next run).
        if src[cs..ce].contains(['[', '{', '=']) {
            i += 1;
            continue;
        }
        let words = [literal(flag).unwrap_or_default(), &src[cs..ce]];
        let mapped = flags::map_words(&words, opts, ctx, &mut false);
        let dropped = mapped.changes.len() == 2
            && mapped
                .changes
                .iter()
                .all(|(_, a)| matches!(a, flags::Action::Remove));
        if !dropped {
            i += 1;
            continue;
        }
        // With the comma after the pair, or before it when it ends the list.
        let (from, to) = match (elems.get(i + 2), i.checked_sub(1).map(|p| &elems[p])) {
            (Some(next), _) => (s, span(next).0),
            (None, Some(prev)) => (span(prev).1, ce),
            (None, None) => {
                let comma = matches!(toks.get(count.end), Some(Tok::Punct { ch: ',', .. }));
                (s, if comma { ce + 1 } else { ce })
            }
        };
        let rule = mapped.notes.first().map_or("B002", |n| n.info.id);
        if sink.edit(from, to, "", rule) {
            for n in mapped.notes {
                sink.note(n, s);
            }
        }
        i += 2;
    }
}

/// The words of a list made only of single-line string literals and commas. A word starts at
/// its literal's prefix (`f'...'`, `rf'...'`), so that a removed literal takes its prefix with
/// it ([`apply_list`] writes a replacement after the prefix).
fn string_list(toks: &[Tok]) -> Option<Vec<Word>> {
    let mut words = Vec::new();
    let mut expect_str = true;
    for t in toks {
        match t {
            Tok::Str {
                start,
                end,
                content,
                quote,
                triple: false,
                prefix,
                ..
            } if expect_str && !prefix.contains(['b', 'B']) => {
                words.push(Word {
                    start: *start,
                    end: *end,
                    text: content.clone(),
                    quote: Some(*quote),
                });
                expect_str = false;
            }
            Tok::Punct { ch: ',', .. } if !expect_str => expect_str = true,
            _ => return None,
        }
    }
    (!words.is_empty()).then_some(words)
}

/// The variable the list opened at `open` goes to, and whether it is assigned (`x = [`) rather
/// than added (`x += [`, `x.extend([`, `x + [`).
fn list_target(toks: &[Tok], open: usize) -> Option<(String, bool)> {
    let prev = |n: usize| open.checked_sub(n).and_then(|k| toks.get(k));
    match (prev(1), prev(2), prev(3), prev(4)) {
        (Some(Tok::Punct { ch: '=', .. }), Some(Tok::Ident { text, .. }), before, _) => {
            // Not a keyword argument (`f(x=[`) nor a dictionary value.
            let statement = !matches!(
                before,
                Some(Tok::Punct {
                    ch: '(' | ',' | '.',
                    ..
                })
            );
            statement.then(|| (text.clone(), true))
        }
        (
            Some(Tok::Punct { ch: '=', .. }),
            Some(Tok::Punct { ch: '+', .. }),
            Some(Tok::Ident { text, .. }),
            _,
        ) => Some((text.clone(), false)),
        (
            Some(Tok::Punct { ch: '(', .. }),
            Some(Tok::Ident { text: m, .. }),
            Some(Tok::Punct { ch: '.', .. }),
            Some(Tok::Ident { text, .. }),
        ) if m == "extend" => Some((text.clone(), false)),
        // `nvcc_flags + [...]`: added to the variable's list.
        (Some(Tok::Punct { ch: '+', .. }), Some(Tok::Ident { text, .. }), before, _)
            if !matches!(before, Some(Tok::Punct { ch: '.', .. })) =>
        {
            Some((text.clone(), false))
        }
        _ => None,
    }
}

use super::WARP_SYNC_MACRO;

/// What the sources a nvcc list (or a call) reaches need of `HIP_ENABLE_WARP_SYNC_BUILTINS`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Need {
    /// Every source is known, and none (nor a header it includes) keeps a builtin that needs it.
    No,
    /// A known source keeps one, or the tree is not known.
    Yes,
    /// The sources are not known: computed, passed in, or a file not found.
    Unknown,
}

impl Need {
    /// The need of several reads or calls: any `Yes` is one, all `No` none.
    fn all(needs: impl IntoIterator<Item = Need>) -> Need {
        let mut out = Need::No;
        for n in needs {
            match n {
                Need::Yes => return Need::Yes,
                Need::Unknown => out = Need::Unknown,
                Need::No => {}
            }
        }
        out
    }
}

/// Whether a nvcc list, or a call with none, gets `-DHIP_ENABLE_WARP_SYNC_BUILTINS`.
#[derive(Clone, PartialEq, Eq, Debug)]
enum WarpNeed {
    Unneeded,
    Needed,
    /// R38-1: hipport could not tell which sources the call compiles, and this file of the
    /// tree (relative to the tree's root) keeps a builtin that needs the define.
    Unresolved(String),
}

/// [`WarpNeed`] from what the sources need: where they are not known, the define is added
/// only if some source of the tree keeps a builtin that needs it (R38-1: KNN_CUDA's
/// `"{}.cu".format(name)`, with no warp builtin anywhere, got it).
fn warp_need(need: Need, opts: &BuildOptions) -> WarpNeed {
    match (need, &opts.tree_root) {
        (Need::No, _) => WarpNeed::Unneeded,
        (Need::Unknown, Some(root)) => match tree_warp_source(root) {
            Some(Some(file)) => WarpNeed::Unresolved(file),
            Some(None) => WarpNeed::Unneeded,
            None => WarpNeed::Needed,
        },
        _ => WarpNeed::Needed,
    }
}

/// The source extensions [`tree_warp_source`] reads: what hipcc may compile or include.
const TREE_SOURCE_EXTENSIONS: &[&str] = &[
    "cu", "cuh", "hip", "h", "hpp", "hh", "hxx", "inl", "cpp", "cc", "cxx", "c", "cuinl",
];

/// How many directory entries [`tree_warp_source`] reads at most: past it, the answer is not
/// known.
const TREE_SCAN_ENTRIES: usize = 20_000;

/// The first source of the tree under `root` (in sorted order, hidden directories skipped)
/// that names a builtin needing `HIP_ENABLE_WARP_SYNC_BUILTINS` (see [`warp_sync_named`]),
/// relative to `root`: `Some(None)` where none does, `None` where the tree is too big to read.
pub(super) fn tree_warp_source(root: &std::path::Path) -> Option<Option<String>> {
    fn walk(dir: &std::path::Path, rel: &str, budget: &mut usize) -> Result<Option<String>, ()> {
        let Ok(entries) = std::fs::read_dir(dir) else {
            return Ok(None);
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| e.file_name());
        for e in entries {
            *budget = budget.checked_sub(1).ok_or(())?;
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let path = if rel.is_empty() {
                name.clone()
            } else {
                format!("{rel}/{name}")
            };
            let Ok(kind) = e.file_type() else { continue };
            if kind.is_dir() {
                if let Some(found) = walk(&e.path(), &path, budget)? {
                    return Ok(Some(found));
                }
            } else if name
                .rsplit_once('.')
                .is_some_and(|(_, ext)| TREE_SOURCE_EXTENSIONS.contains(&ext))
                && std::fs::read(e.path()).is_ok_and(|t| warp_sync_named(&t))
            {
                return Ok(Some(path));
            }
        }
        Ok(None)
    }
    let mut budget = TREE_SCAN_ENTRIES;
    walk(root, "", &mut budget).ok()
}

/// Whether the nvcc list opened at token `open` gets the define: none where it is an argument
/// of a `load(...)` or `CUDAExtension(...)` call (directly, or in its `extra_compile_args`
/// dictionary) whose `sources` name files of the tree (read under
/// [`BuildOptions::tree_root`], from the directory of `base`) none of which, nor a header they
/// include by a path hipport finds, uses a builtin that needs `HIP_ENABLE_WARP_SYNC_BUILTINS`
/// (Q1). Sources it cannot resolve are judged by the tree (see [`warp_need`]).
fn warp_sync_need(
    src: &str,
    toks: &[Tok],
    open: usize,
    opts: &BuildOptions,
    base: &str,
) -> WarpNeed {
    if opts.tree_root.is_none() {
        return WarpNeed::Needed;
    }
    // R29-2: a list assigned to a variable (`flags = ['-O3']`) is judged by the reads of the
    // variable up to its next assignment: every one must be an argument of a call whose
    // sources need no define, or join the list to a literal list that gets the define itself
    // (`extra_cuda_cflags=['-O3'] + flags`). A read handed to a function defined here under
    // the same parameter name (Megatron's `def _cpp_extention_load_helper(name, sources,
    // extra_cuda_flags)`) is judged by that function's reads of it.
    let need = if let Some((name, true)) = list_target(toks, open) {
        variable_need(src, toks, open, &name, opts, base)
    } else {
        call_sources_need(src, toks, open, opts, base)
    };
    warp_need(need, opts)
}

/// [`warp_sync_need`] for the list opened at `open` and assigned to `name` (see there).
fn variable_need(
    src: &str,
    toks: &[Tok],
    open: usize,
    name: &str,
    opts: &BuildOptions,
    base: &str,
) -> Need {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    let ident = |j: usize| match toks.get(j) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    // The function whose call's brackets hold token `j`, the bracket, and whether that is
    // its `def`.
    let callee = |j: usize| {
        let mut depth = 0isize;
        for i in (0..j).rev() {
            depth += nesting(&toks[i]);
            if depth > 0 {
                let f = i.checked_sub(1).and_then(ident)?;
                let def = i >= 2 && ident(i - 2) == Some("def");
                return punct(i, '(').then_some((f, i, def));
            }
        }
        None
    };
    let all: Vec<usize> = (0..toks.len())
        .filter(|&j| ident(j) == Some(name) && !(j >= 1 && punct(j - 1, '.')))
        .collect();
    let assignment = |j: usize| punct(j + 1, '=') && !punct(j + 2, '=') && callee(j).is_none();
    let assigned_at = open.saturating_sub(2);
    let end = all
        .iter()
        .copied()
        .find(|&j| j > assigned_at && assignment(j))
        .unwrap_or(toks.len());
    let simple = |j: usize| {
        let joined = j >= 2 && punct(j - 1, '+') && punct(j - 2, ']')
            || punct(j + 1, '+') && punct(j + 2, '[');
        let argument = j >= 1
            && (punct(j - 1, ',')
                || punct(j - 1, '(')
                || punct(j - 1, ':')
                || punct(j - 1, '=') && j >= 2 && ident(j - 2).is_some())
            && (punct(j + 1, ',') || punct(j + 1, ')') || punct(j + 1, '}'));
        if joined {
            Need::No
        } else if argument {
            call_sources_need(src, toks, j, opts, base)
        } else {
            Need::Unknown
        }
    };
    // The body of the function `f` defined here with a parameter `name`: its reads of it.
    let body_reads = |f: &str| -> Option<Vec<usize>> {
        let header = all
            .iter()
            .copied()
            .find(|&j| callee(j).is_some_and(|c| c.0 == f && c.2))?;
        let def_at = tok_start(&toks[callee(header)?.1 - 2]);
        let line_start = src[..def_at].rfind('\n').map_or(0, |p| p + 1);
        let indent = def_at - line_start;
        let mut body_end = src.len();
        let mut at = src[def_at..]
            .find('\n')
            .map_or(src.len(), |p| def_at + p + 1);
        // Past the header's own lines (a parameter list over several lines).
        let header_end = tok_start(&toks[header]);
        while at < src.len() {
            let line = src[at..].split('\n').next().unwrap_or("");
            let t = line.trim_start();
            if at > header_end
                && !t.is_empty()
                && !t.starts_with('#')
                && line.len() - t.len() <= indent
            {
                body_end = at;
                break;
            }
            at += line.len() + 1;
        }
        Some(
            all.iter()
                .copied()
                .filter(|&j| {
                    let o = tok_start(&toks[j]);
                    o > header_end && o < body_end && !callee(j).is_some_and(|c| c.2)
                })
                .collect(),
        )
    };
    let reads: Vec<usize> = all
        .iter()
        .copied()
        .filter(|&j| j > assigned_at && j < end)
        .collect();
    if reads.is_empty() {
        return Need::Unknown;
    }
    Need::all(reads.iter().map(|&j| match callee(j) {
        Some((_, _, true)) => Need::Unknown,
        Some((f, _, false)) => match body_reads(f) {
            Some(body) if body.is_empty() => Need::Unknown,
            Some(body) => Need::all(body.iter().map(|&b| simple(b))),
            None => simple(j),
        },
        None => simple(j),
    }))
}

/// [`warp_sync_need`] for the argument starting at token `open` (a list, or a variable that
/// holds one): what the sources of the call it is an argument of, directly or in its
/// `extra_compile_args` dictionary, need.
fn call_sources_need(
    src: &str,
    toks: &[Tok],
    open: usize,
    opts: &BuildOptions,
    base: &str,
) -> Need {
    let Some(root) = &opts.tree_root else {
        return Need::Yes;
    };
    let enclosing = |at: usize| {
        let mut depth = 0usize;
        for j in (0..at).rev() {
            match nesting(&toks[j]) {
                -1 => depth += 1,
                1 if depth == 0 => return Some(j),
                1 => depth -= 1,
                _ => {}
            }
        }
        None
    };
    // Out through at most one dictionary (`extra_compile_args={"nvcc": [...]}`).
    let mut call = enclosing(open);
    if let Some(j) = call.filter(|&j| matches!(toks[j], Tok::Punct { ch: '{', .. })) {
        call = enclosing(j);
    }
    let Some(call) = call.filter(|&j| matches!(toks[j], Tok::Punct { ch: '(', .. })) else {
        return Need::Unknown;
    };
    if matches!(
        call.checked_sub(1).map(|j| &toks[j]),
        Some(Tok::Ident { text, .. }) if text == "load_inline"
    ) {
        // Its CUDA not known: this file's own strings when they name a `_sync` builtin, else
        // the tree (as in [`inline_warp_need`]).
        return match inline_need(src, toks, call) {
            Need::Unknown if warp_sync_named(src.as_bytes()) => Need::Yes,
            need => need,
        };
    }
    let named = matches!(
        call.checked_sub(1).map(|j| &toks[j]),
        Some(Tok::Ident { text, .. }) if text == "load" || text == "CUDAExtension"
    );
    if !named {
        return Need::Unknown;
    }
    // `sources=` by keyword, else the second positional argument.
    let args = list_elements(toks, call);
    let keyword = |r: &std::ops::Range<usize>| match (&toks[r.start], toks.get(r.start + 1)) {
        (Tok::Ident { text, .. }, Some(Tok::Punct { ch: '=', .. })) => Some(text.as_str()),
        _ => None,
    };
    let sources = args
        .iter()
        .find(|r| keyword(r) == Some("sources"))
        .map(|r| r.start + 2..r.end)
        .or_else(|| args.iter().filter(|r| keyword(r).is_none()).nth(1).cloned());
    let Some(sources) = sources.filter(|r| !r.is_empty()) else {
        return Need::Unknown;
    };
    let dir = root.join(text::dir_of(base));
    let Some(files) = sources_expression(src, toks, sources, &dir, &[]) else {
        return Need::Unknown;
    };
    if files.is_empty() {
        return Need::Unknown;
    }
    let mut seen = HashSet::new();
    Need::all(files.iter().map(|f| {
        if f.is_empty() || f.starts_with('/') || f.contains('{') {
            return Need::Unknown;
        }
        match uses_warp_sync(&dir.join(f), &mut seen) {
            Some(false) => Need::No,
            Some(true) => Need::Yes,
            None => Need::Unknown,
        }
    }))
}

/// R39-1: what the CUDA of the `load_inline(...)` call opened at token `call` needs: its
/// `cuda_sources` (by keyword, else the third positional argument) read where it is string
/// literals and variables (V18-a: `[cuda_src]`, `(cuda_src,)`, `cuda_src + more`), joined by
/// `+` or in a list or tuple, each variable read where this file assigns it such terms once,
/// at the top level. The text judged is the CUDA hipport translates in place: at the targets
/// that need the define it keeps the `_sync` builtins as written. Anything else is not known.
fn inline_need(src: &str, toks: &[Tok], call: usize) -> Need {
    let args = list_elements(toks, call);
    let keyword = |r: &std::ops::Range<usize>| match (&toks[r.start], toks.get(r.start + 1)) {
        (Tok::Ident { text, .. }, Some(Tok::Punct { ch: '=', .. })) => Some(text.as_str()),
        _ => None,
    };
    let Some(value) = args
        .iter()
        .find(|r| keyword(r) == Some("cuda_sources"))
        .map(|r| r.start + 2..r.end)
        .or_else(|| args.iter().filter(|r| keyword(r).is_none()).nth(2).cloned())
        .filter(|r| !r.is_empty())
    else {
        return Need::Unknown;
    };
    let mut texts = Vec::new();
    match inline_texts(src, toks, value, &mut Vec::new(), &mut texts) {
        Some(()) if texts.iter().any(|t| warp_sync_named(t.as_bytes())) => Need::Yes,
        Some(()) if !texts.is_empty() => Need::No,
        _ => Need::Unknown,
    }
}

/// The texts of the string literals the tokens of `range` hold (in `out`), with those of the
/// variables they name (see [`inline_need`]); `within` holds the variables being read. `None`
/// where the range holds anything else: a call, an attribute, an f-string, a variable assigned
/// more than once, added to, or not at the top level.
fn inline_texts<'a>(
    src: &str,
    toks: &'a [Tok],
    range: std::ops::Range<usize>,
    within: &mut Vec<&'a str>,
    out: &mut Vec<&'a str>,
) -> Option<()> {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    for j in range.clone() {
        match &toks[j] {
            Tok::Str {
                content, prefix, ..
            } if !prefix.to_ascii_lowercase().contains('f') => out.push(content.as_str()),
            Tok::Punct {
                ch: '+' | '[' | ']' | '(' | ')' | ',',
                ..
            } => {}
            Tok::Ident { text, .. }
                if !(punct(j + 1, '(')
                    || punct(j + 1, '.')
                    || punct(j + 1, '[')
                    || j > 0 && punct(j - 1, '.')) =>
            {
                let name = text.as_str();
                if within.contains(&name) || within.len() > 4 {
                    return None;
                }
                let value = inline_assignment(src, toks, name)?;
                within.push(name);
                let r = inline_texts(src, toks, value, within, out);
                within.pop();
                r?;
            }
            _ => return None,
        }
    }
    Some(())
}

/// The tokens of the value assigned to `name` by its one top-level assignment in the file
/// (`name = ...` to the end of its line, outside brackets); `None` where it has none, several,
/// or is added to (`name += ...`).
fn inline_assignment(src: &str, toks: &[Tok], name: &str) -> Option<std::ops::Range<usize>> {
    let mut depth = 0isize;
    let mut assigned = Vec::new();
    for (j, t) in toks.iter().enumerate() {
        if depth == 0
            && matches!(t, Tok::Ident { text, .. } if text == name)
            && matches!(toks.get(j + 1), Some(Tok::Punct { ch: '=', .. }))
            && !matches!(toks.get(j + 2), Some(Tok::Punct { ch: '=', .. }))
            && !(j > 0 && matches!(toks[j - 1], Tok::Punct { ch: '.' | ',', .. }))
        {
            assigned.push(j);
        }
        if matches!(t, Tok::Ident { text, .. } if text == name)
            && matches!(toks.get(j + 2), Some(Tok::Punct { ch: '=', .. }))
            && matches!(toks.get(j + 1), Some(Tok::Punct { ch: '+' | '|', .. }))
        {
            return None; // `name += ...`
        }
        depth += nesting(t);
    }
    let [at] = assigned.as_slice() else {
        return None;
    };
    let from = at + 2;
    let mut end = from;
    let mut d = 0isize;
    while end < toks.len() {
        if d == 0
            && end > from
            && src[tok_end(&toks[end - 1])..tok_start(&toks[end])].contains('\n')
        {
            break;
        }
        d += nesting(&toks[end]);
        end += 1;
        if d < 0 {
            return None;
        }
    }
    (end > from).then_some(from..end)
}

/// What a `load_inline(...)` call opened at token `call` needs: [`inline_need`], and where its
/// CUDA is not known, this file's own text when it names a `_sync` builtin (its strings are the
/// likeliest CUDA), else R38-1's rule for unresolved sources ([`warp_need`]).
fn inline_warp_need(src: &str, toks: &[Tok], call: usize, opts: &BuildOptions) -> WarpNeed {
    match inline_need(src, toks, call) {
        Need::Yes => WarpNeed::Needed,
        Need::No => WarpNeed::Unneeded,
        Need::Unknown if warp_sync_named(src.as_bytes()) => WarpNeed::Needed,
        Need::Unknown if opts.tree_root.is_none() => WarpNeed::Unneeded,
        Need::Unknown => warp_need(Need::Unknown, opts),
    }
}

/// The files a `sources` argument (the tokens of `range`) names, relative to this file's
/// directory `dir`: a list (see [`source_paths`]), a `glob.glob(...)` (or `glob(...)`) call
/// whose pattern is a path hipport reads (see [`expr_path`]), its matches in the tree (R35-1:
/// nerfacc's `glob.glob(osp.join(ROOT_DIR, "nerfacc", "cuda", "csrc", "*.cu"))`), or such
/// terms joined by `+`, and a variable assigned such terms in this file (see
/// [`variable_sources`]; `within` holds the variables being read, which add nothing to their
/// own value). `None` where a term is something else, or a glob matches nothing.
fn sources_expression(
    src: &str,
    toks: &[Tok],
    range: std::ops::Range<usize>,
    dir: &std::path::Path,
    within: &[&str],
) -> Option<Vec<String>> {
    let mut terms: Vec<std::ops::Range<usize>> = Vec::new();
    let (mut depth, mut from) = (0isize, range.start);
    for j in range.clone() {
        depth += nesting(&toks[j]);
        if depth == 0 && matches!(toks[j], Tok::Punct { ch: '+', .. }) {
            terms.push(from..j);
            from = j + 1;
        }
    }
    terms.push(from..range.end);
    let ident =
        |j: usize, t: &str| matches!(toks.get(j), Some(Tok::Ident { text, .. }) if text == t);
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    let mut out = Vec::new();
    for t in terms {
        if t.is_empty() {
            return None;
        }
        // The term's last token closes the bracket its first (or its call's) opens.
        let closes_at_end = |open: usize| {
            let mut d = 0isize;
            for (j, tok) in toks.iter().enumerate().take(t.end).skip(open) {
                d += nesting(tok);
                if d == 0 {
                    return j + 1 == t.end;
                }
            }
            false
        };
        if matches!(toks[t.start], Tok::Punct { ch: '[' | '(', .. }) {
            if !closes_at_end(t.start) {
                return None;
            }
            out.extend(source_paths(src, toks, t.start)?);
            continue;
        }
        // R39-1/V17-f: `sorted(glob(...))`, `list(...)`: the files of the one argument.
        if (ident(t.start, "sorted") || ident(t.start, "list") || ident(t.start, "tuple"))
            && punct(t.start + 1, '(')
            && closes_at_end(t.start + 1)
        {
            let args = list_elements(toks, t.start + 1);
            let [inner] = args.as_slice() else {
                return None;
            };
            out.extend(sources_expression(src, toks, inner.clone(), dir, within)?);
            continue;
        }
        if let [Tok::Ident { text: name, .. }] = &toks[t.clone()] {
            if within.contains(&name.as_str()) {
                continue;
            }
            if name != "glob" {
                out.extend(variable_sources(src, toks, name, dir, within)?);
                continue;
            }
        }
        let open =
            if ident(t.start, "glob") && punct(t.start + 1, '.') && ident(t.start + 2, "glob") {
                t.start + 3
            } else if ident(t.start, "glob") {
                t.start + 1
            } else {
                return None;
            };
        if !punct(open, '(') || !closes_at_end(open) {
            return None;
        }
        let args = list_elements(toks, open);
        let first = args.first()?;
        let paths = path_variables(src, toks);
        let pattern = expr_path(&toks[first.clone()], &paths, 0)?.0;
        let matches = glob_in_tree(dir, &pattern)?;
        if matches.is_empty() {
            return None;
        }
        out.extend(matches);
    }
    Some(out)
}

/// R38-1: the files a variable holds that this file assigns (`sources = [...]`, also in
/// several branches), extends (`sources += [...]`, `sources.extend(...)`) and appends to
/// (`sources.append(os.path.join(here, "k.cu"))`), each read as [`sources_expression`]
/// reads a term, all of them together. `None` where a value is something else, the variable
/// is changed otherwise (`sources.insert`, `sources[0] = ...`), is a parameter of a function
/// defined here or a loop's variable, or is never assigned.
fn variable_sources(
    src: &str,
    toks: &[Tok],
    name: &str,
    dir: &std::path::Path,
    within: &[&str],
) -> Option<Vec<String>> {
    if within.len() >= 4 {
        return None;
    }
    let mut inner = within.to_vec();
    inner.push(name);
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    let ident = |j: usize| match toks.get(j) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    // The bracket depth before each token.
    let mut depths = Vec::with_capacity(toks.len());
    let mut d = 0isize;
    for t in toks {
        depths.push(d);
        d += nesting(t);
    }
    // The `(` that holds token `k`.
    let opener = |k: usize| {
        (0..k)
            .rev()
            .find(|&j| depths[j] < depths[k] && nesting(&toks[j]) > 0)
    };
    // One past the value starting at `from`: the end of its line outside brackets.
    let value_end = |from: usize| {
        let mut depth = 0isize;
        let mut end = from;
        while end < toks.len() {
            if depth == 0 && end > from && line_break_before(src, toks, end) {
                break;
            }
            depth += nesting(&toks[end]);
            if depth < 0 {
                break;
            }
            end += 1;
        }
        end
    };
    let paths = path_variables(src, toks);
    let mut out = Vec::new();
    let mut assigned = false;
    for (k, &depth) in depths.iter().enumerate() {
        if ident(k) != Some(name) || k >= 1 && punct(k - 1, '.') {
            continue;
        }
        if depth > 0 {
            // A parameter: what the caller passes is not known.
            let def = opener(k).is_some_and(|o| o >= 2 && ident(o - 2) == Some("def"));
            if def {
                return None;
            }
            continue;
        }
        if k >= 1 && ident(k - 1) == Some("for") {
            return None;
        }
        let from = if punct(k + 1, '=') && !punct(k + 2, '=') {
            assigned = true;
            k + 2
        } else if punct(k + 1, '+') && punct(k + 2, '=') {
            k + 3
        } else if punct(k + 1, '.') && punct(k + 3, '(') {
            let method = ident(k + 2)?;
            let args = list_elements(toks, k + 3);
            let [arg] = args.as_slice() else {
                return None;
            };
            match method {
                "append" => out.push(expr_path(&toks[arg.clone()], &paths, 0)?.0),
                "extend" => out.extend(sources_expression(src, toks, arg.clone(), dir, &inner)?),
                _ => return None,
            }
            continue;
        } else if punct(k + 1, '[') || punct(k + 1, '.') {
            return None;
        } else {
            continue;
        };
        let end = value_end(from);
        if end <= from {
            return None;
        }
        out.extend(sources_expression(src, toks, from..end, dir, &inner)?);
    }
    assigned.then_some(out)
}

/// The files under `dir` that glob `pattern` (relative to `dir`, with `/`) matches, relative to
/// `dir`: `*` and `?` within a name, `**` any depth of directories (a superset where Python's
/// glob is not recursive). `None` where the pattern leaves `dir` or is absolute, or past a
/// budget of directory entries.
fn glob_in_tree(dir: &std::path::Path, pattern: &str) -> Option<Vec<String>> {
    let pattern = pattern.trim_start_matches("./");
    if pattern.is_empty() || pattern.starts_with('/') || pattern.split('/').any(|p| p == "..") {
        return None;
    }
    let parts: Vec<&str> = pattern
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let mut out = Vec::new();
    let mut budget = 4000usize;
    glob_walk(dir, "", &parts, &mut out, &mut budget)?;
    out.sort();
    out.dedup();
    Some(out)
}

/// [`glob_in_tree`] from directory `at` (named `rel` under the glob's base), for the pattern's
/// remaining `parts`.
fn glob_walk(
    at: &std::path::Path,
    rel: &str,
    parts: &[&str],
    out: &mut Vec<String>,
    budget: &mut usize,
) -> Option<()> {
    let Some((&part, rest)) = parts.split_first() else {
        return Some(());
    };
    let join = |name: &str| {
        if rel.is_empty() {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        }
    };
    if part == "**" {
        // Zero directories, then each directory below.
        glob_walk(at, rel, rest, out, budget)?;
        for e in std::fs::read_dir(at).ok()?.flatten() {
            *budget = budget.checked_sub(1)?;
            let name = e.file_name().to_string_lossy().into_owned();
            if e.file_type().is_ok_and(|t| t.is_dir()) && !name.starts_with('.') {
                glob_walk(&e.path(), &join(&name), parts, out, budget)?;
            }
        }
        return Some(());
    }
    if !part.contains(['*', '?', '[']) {
        let p = at.join(part);
        if rest.is_empty() {
            if p.is_file() {
                out.push(join(part));
            }
        } else if p.is_dir() {
            glob_walk(&p, &join(part), rest, out, budget)?;
        }
        return Some(());
    }
    if part.contains('[') {
        return None;
    }
    let Ok(entries) = std::fs::read_dir(at) else {
        return Some(());
    };
    for e in entries.flatten() {
        *budget = budget.checked_sub(1)?;
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || !wildcard_match(part.as_bytes(), name.as_bytes()) {
            continue;
        }
        let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
        if rest.is_empty() {
            if !is_dir {
                out.push(join(&name));
            }
        } else if is_dir {
            glob_walk(&e.path(), &join(&name), rest, out, budget)?;
        }
    }
    Some(())
}

/// Whether `name` matches `pattern` with `*` (any run) and `?` (one character).
fn wildcard_match(pattern: &[u8], name: &[u8]) -> bool {
    match pattern.split_first() {
        None => name.is_empty(),
        Some((b'*', rest)) => (0..=name.len()).any(|k| wildcard_match(rest, &name[k..])),
        Some((b'?', rest)) => !name.is_empty() && wildcard_match(rest, &name[1..]),
        Some((c, rest)) => name.first() == Some(c) && wildcard_match(rest, &name[1..]),
    }
}

/// The files the `sources` list opened at `open` names, relative to this file's directory: its
/// elements read as include list elements are (see [`expr_path`]: literals, and
/// `os.path.join(here, 'src', 'k.cu')`), or a comprehension over a list of literals whose
/// element is such a path of its variable (R20-1, torch-ngp's
/// `[os.path.join(_src_path, 'src', f) for f in ['k.cu', 'b.cpp']]`), one file for each literal.
/// `None` where an element names something else.
fn source_paths(src: &str, toks: &[Tok], open: usize) -> Option<Vec<String>> {
    let paths = path_variables(src, toks);
    let mut out = Vec::new();
    for r in list_elements(toks, open) {
        let elem = &toks[r];
        // A `for` outside the element's brackets makes it a comprehension.
        let mut depth = 0isize;
        let at_for = elem.iter().position(|t| {
            depth += nesting(t);
            depth == 0 && matches!(t, Tok::Ident { text, .. } if text == "for")
        });
        let Some(f) = at_for else {
            out.push(expr_path(elem, &paths, 0)?.0);
            continue;
        };
        let (Some(Tok::Ident { text: var, .. }), Some(Tok::Ident { text: word_in, .. })) =
            (elem.get(f + 1), elem.get(f + 2))
        else {
            return None;
        };
        if word_in != "in" || !matches!(elem.get(f + 3), Some(Tok::Punct { ch: '[' | '(', .. })) {
            return None;
        }
        // The iterated list must end the element (no `if` filter, no second `for`).
        let items = list_elements(elem, f + 3);
        let close = items.last().map_or(f + 4, |i| {
            i.end + usize::from(matches!(elem[i.end], Tok::Punct { ch: ',', .. }))
        });
        if close + 1 != elem.len() || nesting(&elem[close]) != -1 {
            return None;
        }
        for item in items {
            let [Tok::Str {
                content,
                prefix,
                triple: false,
                ..
            }] = &elem[item]
            else {
                return None;
            };
            if !(prefix.is_empty() || prefix.eq_ignore_ascii_case("r")) {
                return None;
            }
            let mut named = paths.clone();
            named.insert(var.as_str(), Some((content.clone(), None)));
            out.push(expr_path(&elem[..f], &named, 0)?.0);
        }
    }
    Some(out)
}

/// How many files [`uses_warp_sync`] reads for one call, at most: past it, the answer is not
/// known.
const WARP_SYNC_FILES: usize = 64;

/// Whether the source at `path`, or a header it includes by a quoted path found beside it,
/// names a builtin HIP 6.2 to 6.4 declare only with `HIP_ENABLE_WARP_SYNC_BUILTINS`: a
/// `__..._sync` warp builtin (`__shfl_xor_sync`, `__ballot_sync`), `__syncwarp`, or cooperative
/// groups (whose tile votes call them). `None` where a file cannot be read. `seen` holds the
/// files read for this call.
fn uses_warp_sync(path: &std::path::Path, seen: &mut HashSet<std::path::PathBuf>) -> Option<bool> {
    // R49-f: the file and the headers it includes are read together, as hipcc reads them for a
    // PyTorch extension (USE_ROCM defined): a name that a live `#define` of any of them
    // replaces (exllamav2's compat.cuh: `#define __shfl_xor_sync(mask, var, laneMask)
    // __shfl_xor(var, laneMask)` under `#if defined(USE_ROCM)`) is no builtin the port keeps.
    let mut texts = Vec::new();
    let mut visited = HashSet::new();
    let complete = extension_texts(path, seen, &mut visited, &mut texts);
    let texts: Vec<Vec<u8>> = texts.iter().map(|t| amd_live(t, true)).collect();
    let defined = defined_names(&texts);
    if texts.iter().any(|t| sync_named_except(t, &defined)) {
        return Some(true);
    }
    complete.then_some(false)
}

/// The texts of the source at `path` and of the headers it includes by a quoted path found
/// beside it, in `out` (each once: `visited`; at most [`WARP_SYNC_FILES`] in all: `seen`).
/// Whether every one was read: a header found elsewhere (an include directory) is not.
fn extension_texts(
    path: &std::path::Path,
    seen: &mut HashSet<std::path::PathBuf>,
    visited: &mut HashSet<std::path::PathBuf>,
    out: &mut Vec<Vec<u8>>,
) -> bool {
    if !visited.insert(path.to_path_buf()) {
        return true;
    }
    seen.insert(path.to_path_buf());
    if seen.len() > WARP_SYNC_FILES {
        return false;
    }
    let Ok(text) = std::fs::read(path) else {
        return false;
    };
    let Some(dir) = path.parent() else {
        return false;
    };
    let mut complete = true;
    let mut headers = Vec::new();
    for line in text.split(|&c| c == b'\n') {
        let line = line.trim_ascii_start();
        let Some(rest) = line.strip_prefix(b"#") else {
            continue;
        };
        let Some(rest) = rest.trim_ascii_start().strip_prefix(b"include") else {
            continue;
        };
        let Some(rest) = rest.trim_ascii_start().strip_prefix(b"\"") else {
            continue;
        };
        let Some(end) = rest.iter().position(|&c| c == b'"') else {
            continue;
        };
        let Ok(name) = std::str::from_utf8(&rest[..end]) else {
            complete = false;
            continue;
        };
        headers.push(dir.join(name));
    }
    out.push(text);
    for header in headers {
        if !header.is_file() {
            complete = false;
            continue;
        }
        complete &= extension_texts(&header, seen, visited, out);
    }
    complete
}

/// R49-f: the names the live `#define`s of `texts` define (function-like or not): hipcc
/// replaces them before it looks for a declaration.
fn defined_names(texts: &[Vec<u8>]) -> BTreeSet<Vec<u8>> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = BTreeSet::new();
    for text in texts {
        for line in text.split(|&c| c == b'\n') {
            let Some(rest) = line.trim_ascii_start().strip_prefix(b"#") else {
                continue;
            };
            let Some(rest) = rest.trim_ascii_start().strip_prefix(b"define") else {
                continue;
            };
            let rest = rest.trim_ascii_start();
            let n = rest.iter().take_while(|&&c| ident(c)).count();
            if n > 0 {
                out.insert(rest[..n].to_vec());
            }
        }
    }
    out
}

/// R49-f (verify22 g3/a): `text` with the arms hipcc skips blanked, where a conditional tests
/// a macro that hipcc (`__HIPCC__`, `__HIP_PLATFORM_AMD__`, `__HIP_PLATFORM_HCC__`) or, with
/// `torch`, PyTorch's ROCm build (`USE_ROCM`, `-DUSE_ROCM=1`) defines: `#ifndef USE_ROCM`, `#if
/// !defined(USE_ROCM)`, the `#else` of `#ifdef USE_ROCM`. Conditions on anything else keep
/// both arms.
fn amd_live(text: &[u8], torch: bool) -> Vec<u8> {
    let defined = |name: &[u8]| {
        matches!(
            name,
            b"__HIPCC__" | b"__HIP_PLATFORM_AMD__" | b"__HIP_PLATFORM_HCC__" | b"__HIP__"
        ) || (torch && name == b"USE_ROCM")
    };
    // What a condition says where it tests one such macro alone: taken or not.
    let judge = |directive: &[u8], cond: &[u8]| -> Option<bool> {
        let c: Vec<u8> = cond
            .iter()
            .copied()
            .filter(|c| !c.is_ascii_whitespace())
            .collect();
        let c = match c.iter().position(|&b| b == b'/') {
            Some(p) if c.get(p + 1).is_some_and(|&b| b == b'/' || b == b'*') => c[..p].to_vec(),
            _ => c,
        };
        match directive {
            b"ifdef" => defined(&c).then_some(true),
            b"ifndef" => defined(&c).then_some(false),
            b"if" | b"elif" => {
                let (neg, rest) = match c.strip_prefix(b"!") {
                    Some(r) => (true, r),
                    None => (false, &c[..]),
                };
                let name = rest
                    .strip_prefix(b"defined(")
                    .and_then(|r| r.strip_suffix(b")"))
                    .or_else(|| rest.strip_prefix(b"defined"))
                    .unwrap_or(rest);
                defined(name).then_some(!neg)
            }
            _ => None,
        }
    };
    // Per open conditional: whether its current arm is dead, and whether an earlier arm was
    // surely taken (`Some(true)`), surely not (`Some(false)`), or not known (`None`).
    let mut stack: Vec<(bool, Option<bool>)> = Vec::new();
    let mut out = Vec::with_capacity(text.len());
    for line in text.split_inclusive(|&c| c == b'\n') {
        let outer_dead = stack.iter().any(|s| s.0);
        let body = line.trim_ascii_start();
        if let Some(rest) = body.strip_prefix(b"#") {
            let rest = rest.trim_ascii_start();
            let n = rest.iter().take_while(|c| c.is_ascii_alphabetic()).count();
            let (directive, cond) = (&rest[..n], rest[n..].trim_ascii());
            match directive {
                b"if" | b"ifdef" | b"ifndef" => {
                    let taken = judge(directive, cond);
                    stack.push((taken == Some(false), taken));
                }
                b"elif" => {
                    if let Some(top) = stack.last_mut() {
                        let taken = match top.1 {
                            Some(true) => Some(false),
                            _ => judge(directive, cond),
                        };
                        let before = top.1;
                        top.0 = taken == Some(false) || before == Some(true);
                        top.1 = match (before, taken) {
                            (Some(true), _) | (_, Some(true)) => Some(true),
                            (Some(false), Some(false)) => Some(false),
                            _ => None,
                        };
                    }
                }
                b"else" => {
                    if let Some(top) = stack.last_mut() {
                        top.0 = top.1 == Some(true);
                        top.1 = Some(true);
                    }
                }
                b"endif" => {
                    stack.pop();
                }
                _ => {}
            }
            if outer_dead || stack.iter().any(|s| s.0) && directive != b"endif" {
                out.extend(line.iter().map(|&c| if c == b'\n' { c } else { b' ' }));
            } else {
                out.extend_from_slice(line);
            }
            continue;
        }
        if outer_dead {
            out.extend(line.iter().map(|&c| if c == b'\n' { c } else { b' ' }));
        } else {
            out.extend_from_slice(line);
        }
    }
    out
}

/// Whether `text` names `__syncwarp`, cooperative groups, or an identifier `__..._sync`, in
/// the code hipcc compiles (see [`hip_live`], [`amd_live`]) and not as a name a `#define` of
/// the text replaces (R49-f).
fn warp_sync_named(text: &[u8]) -> bool {
    let text = amd_live(text, false);
    let defined = defined_names(std::slice::from_ref(&text));
    sync_named_except(&text, &defined)
}

/// [`warp_sync_named`] for a text whose dead arms are already blanked, but for the names in
/// `defined`, which a live `#define` replaces.
fn sync_named_except(text: &[u8], defined: &BTreeSet<Vec<u8>>) -> bool {
    let text = &*hip_live(text);
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    if memchr::memmem::find(text, b"cooperative_groups").is_some() {
        return true;
    }
    let whole = |start: usize, end: usize| {
        (start == 0 || !ident(text[start - 1])) && text.get(end).is_none_or(|&c| !ident(c))
    };
    if memchr::memmem::find_iter(text, b"__syncwarp")
        .any(|at| whole(at, at + 10) && !defined.contains(&b"__syncwarp"[..]))
    {
        return true;
    }
    memchr::memmem::find_iter(text, b"_sync").any(|at| {
        let end = at + 5;
        if text.get(end).is_some_and(|&c| ident(c)) {
            return false;
        }
        let start = text[..at]
            .iter()
            .rposition(|&c| !ident(c))
            .map_or(0, |p| p + 1);
        text[start..].starts_with(b"__") && start + 2 < at && !defined.contains(&text[start..end])
    })
}

/// R42-3: `text` with the lines hipcc never compiles blanked where a condition on
/// `CUDA_VERSION` or `__CUDACC_VER_MAJOR__` decides so, judged as H010 judges it
/// ([`crate::analysis::hipcc_dead_branches`]): the branch of `#if CUDA_VERSION >= N`
/// (PyTorch-Encoding's `WARP_SHFL_XOR` keeps `__shfl_xor_sync` there and `__shfl_xor` in the
/// `#else`), and the `#else` of `#if CUDA_VERSION < N` or `#if !defined(CUDA_VERSION) ||
/// CUDA_VERSION < N` (verify19 V19-e), since HIP defines neither macro.
fn hip_live(text: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    crate::analysis::hipcc_dead_branches(text, &["CUDA_VERSION", "__CUDACC_VER_MAJOR__"])
}

/// Puts `-DHIP_ENABLE_WARP_SYNC_BUILTINS` first in the nvcc list opened at byte `open`, unless
/// the list already defines it: HIP 6.2 to 6.4 declare the `_sync` warp builtins that the
/// translated sources keep only with it, and hipcc gets this list.
fn warp_sync_flag(
    src: &str,
    sink: &mut Sink,
    open: usize,
    words: &[Word],
    unresolved: Option<&str>,
) {
    let Some(first) = words.first() else {
        return;
    };
    if words.iter().any(|w| w.text.contains(WARP_SYNC_MACRO)) {
        return;
    }
    let q = first.quote.unwrap_or('"');
    let at = open + 1;
    let gap = &src[at..first.start];
    let flag = format!("{q}-D{WARP_SYNC_MACRO}{q},");
    // One flag a line when the list is written so, else in front on the same line.
    // Every flag removed (`["--expt-relaxed-constexpr"]`): the list holds the macro alone.
    let all_removed = words.iter().all(|w| sink.removed(w.start, w.end));
    let text = match gap.rfind('\n') {
        Some(nl) => {
            let eol = if gap[..nl].ends_with('\r') {
                "\r\n"
            } else {
                "\n"
            };
            format!("{eol}{}{flag}", &gap[nl + 1..])
        }
        None if all_removed => flag.trim_end_matches(',').to_string(),
        None => format!("{flag} "),
    };
    if sink.edit(at, at, text, B_TORCH.id) {
        // R38-1: on the list's bracket (the flag goes in first), not on a flag of the list.
        warp_sync_added(sink, open, unresolved);
    }
}

/// B011's note that `-DHIP_ENABLE_WARP_SYNC_BUILTINS` was added at byte `at`: because the
/// build's sources keep `_sync` builtins, or (`unresolved`, R38-1) because hipport could not
/// resolve them and that file of the tree keeps one.
fn warp_sync_added(sink: &mut Sink, at: usize, unresolved: Option<&str>) {
    let message = match unresolved {
        None => format!("`-D{WARP_SYNC_MACRO}` added to the hipcc flags: HIP 6.2 to 6.4 declare the `_sync` warp builtins (`__shfl_xor_sync`, `__ballot_sync`, ...) that the port keeps only with it"),
        Some(file) => format!("`-D{WARP_SYNC_MACRO}` added to the hipcc flags: hipport could not read every source this build compiles (a list it cannot evaluate, or files the input lacks), and `{file}` in the tree keeps `_sync` warp builtins (`__shfl_xor_sync`, `__syncwarp`, cooperative groups, ...), which HIP 6.2 to 6.4 declare only with it"),
    };
    let help = match unresolved {
        None => "HIP 7.0 and newer declare them without it; keep it while the extension must build with ROCm 6.2 to 6.4",
        Some(_) => "remove it if this build does not compile that file; HIP 7.0 and newer declare the builtins without it",
    };
    sink.diag(B_TORCH, at, message, Some(help.into()));
}

/// The keyword that hands a call's nvcc flags to hipcc on ROCm PyTorch, and its position when
/// given positionally: `CUDAExtension(name, sources, ...)` passes its keywords to setuptools'
/// `Extension`, whose tenth parameter is `extra_compile_args`; `load(name, sources,
/// extra_cflags, extra_cuda_cflags, ...)`; `load_inline(name, cpp_sources, cuda_sources,
/// functions, extra_cflags, extra_cuda_cflags, ...)`.
fn nvcc_keyword(callee: &str) -> Option<(&'static str, usize)> {
    match callee {
        "CUDAExtension" => Some(("extra_compile_args", 9)),
        "load" => Some(("extra_cuda_cflags", 3)),
        "load_inline" => Some(("extra_cuda_cflags", 5)),
        _ => None,
    }
}

/// R33-b: at HIP 6.2 to 6.4, a `CUDAExtension(...)`, `load(...)` or `load_inline(...)` call
/// whose sources keep `_sync` warp builtins gets `-DHIP_ENABLE_WARP_SYNC_BUILTINS` where it has
/// no nvcc list for [`warp_sync_flag`] to put it in: an `extra_compile_args={'nvcc': [...]}`
/// (`extra_cuda_cflags=[...]`) argument where the call has none, an `'nvcc'` key (`nvcc=` in
/// `dict(...)`) where its dictionary, written in the call or assigned to the variable the call
/// names, has none. Where hipport cannot tell where the flags come from (`**kwargs`, a computed
/// dictionary), a warning names the call. The sources are judged as for the lists
/// ([`call_sources_need`]); `load_inline`'s are this file's strings.
fn missing_warp_sync(src: &str, toks: &[Tok], sink: &mut Sink, opts: &BuildOptions, base: &str) {
    let punct = |j: usize, c: char| matches!(toks.get(j), Some(Tok::Punct { ch, .. }) if *ch == c);
    let ident = |j: usize| match toks.get(j) {
        Some(Tok::Ident { text, .. }) => Some(text.as_str()),
        _ => None,
    };
    // Names bound to cpp_extension's API and to the module itself.
    let imports = imports_in(toks);
    let path = ["torch", "utils", "cpp_extension"];
    let mut api: HashMap<&str, &str> = HashMap::new();
    let mut modules: HashSet<&str> = HashSet::from(["cpp_extension"]);
    for imp in imports.iter().filter(|i| i.level == 0) {
        if imp.module == path {
            for (n, b) in imp.names.iter().zip(&imp.bound) {
                api.insert(b.as_str(), n.as_str());
            }
            if imp.star {
                for n in ["CUDAExtension", "load", "load_inline"] {
                    api.insert(n, n);
                }
            }
            if imp.names.is_empty() {
                if let Some(alias) = imp.bound.first() {
                    modules.insert(alias.as_str());
                }
            }
        }
    }
    let quote = toks
        .iter()
        .find_map(|t| match t {
            Tok::Str {
                quote,
                triple: false,
                prefix,
                ..
            } if prefix.is_empty() => Some(*quote),
            _ => None,
        })
        .unwrap_or('\'');
    let flag = format!("{quote}-D{WARP_SYNC_MACRO}{quote}");
    let keyword_of = |r: &std::ops::Range<usize>| match (ident(r.start), punct(r.start + 1, '=')) {
        (Some(k), true) if !punct(r.start + 2, '=') => Some(k),
        _ => None,
    };
    let starred = |r: &std::ops::Range<usize>| punct(r.start, '*');
    // The text that adds `entry` after the last of `elems` in the brackets opened at `open`:
    // on a line of its own, indented as that element, where it stands on its own line.
    let after_last = |open: usize, elems: &[std::ops::Range<usize>], entry: &str| {
        let Some(last) = elems.last() else {
            return (tok_end(&toks[open]), entry.to_string());
        };
        let first = tok_start(&toks[last.start]);
        let line_start = src[..first].rfind('\n').map_or(0, |p| p + 1);
        let indent = &src[line_start..first];
        let at = tok_end(&toks[last.end - 1]);
        if indent.trim().is_empty() && src[tok_end(&toks[open])..first].contains('\n') {
            let eol = if src[..line_start].ends_with("\r\n") {
                "\r\n"
            } else {
                "\n"
            };
            (at, format!(",{eol}{indent}{entry}"))
        } else {
            (at, format!(", {entry}"))
        }
    };
    let added = |sink: &mut Sink, at: usize, unresolved: Option<&str>| {
        warp_sync_added(sink, at, unresolved);
    };
    let unknown = |sink: &mut Sink, at: usize, why: &str, key: &str| {
        sink.diag_as(
            B_TORCH,
            crate::diag::Severity::Warning,
            at,
            format!("this build's sources keep `_sync` warp builtins, which HIP 6.2 to 6.4 declare only with `{WARP_SYNC_MACRO}`, and hipport could not add it: {why}"),
            Some(format!("add \"-D{WARP_SYNC_MACRO}\" to the flags the call gives hipcc ({key}), or target HIP 7.0, which declares them without it")),
        );
    };
    // Dictionaries already given the key (one variable may serve several calls).
    let mut done: HashSet<usize> = HashSet::new();
    // Adds the `'nvcc'` key to the dictionary opened at `open` (`{` or `dict(`) where it has
    // none; `Err` where it cannot tell.
    let mut dict_key = |sink: &mut Sink,
                        open: usize,
                        call_at: usize,
                        unresolved: Option<&str>|
     -> Result<(), &'static str> {
        let braces = punct(open, '{');
        let elems = list_elements(toks, open);
        let has = elems.iter().any(|r| {
            if braces {
                matches!(&toks[r.start], Tok::Str { content, .. } if content == "nvcc")
                    && punct(r.start + 1, ':')
            } else {
                keyword_of(r) == Some("nvcc")
            }
        });
        if has {
            return Ok(());
        }
        if elems
            .iter()
            .any(|r| starred(r) || braces && !matches!(toks[r.start], Tok::Str { .. }))
        {
            return Err("its extra_compile_args dictionary is built from other values");
        }
        if !done.insert(open) {
            return Ok(());
        }
        let entry = if braces {
            format!("{quote}nvcc{quote}: [{flag}]")
        } else {
            format!("nvcc=[{flag}]")
        };
        let (at, text) = after_last(open, &elems, &entry);
        if sink.edit(at, at, text, B_TORCH.id) {
            added(sink, call_at, unresolved);
        }
        Ok(())
    };
    for k in 0..toks.len() {
        let Some(name) = ident(k) else { continue };
        if !punct(k + 1, '(') || k >= 1 && ident(k - 1) == Some("def") {
            continue;
        }
        let callee = if k >= 2 && punct(k - 1, '.') {
            if !ident(k - 2).is_some_and(|m| modules.contains(m))
                || k >= 3 && punct(k - 3, '.') && ident(k - 2) != Some("cpp_extension")
            {
                continue;
            }
            name
        } else {
            match api.get(name) {
                Some(n) => n,
                None if name == "CUDAExtension" => name,
                None => continue,
            }
        };
        let Some((key, position)) = nvcc_keyword(callee) else {
            continue;
        };
        let call_at = tok_start(&toks[k]);
        let args = list_elements(toks, k + 1);
        if args.is_empty() {
            continue;
        }
        let need = if callee == "load_inline" {
            inline_warp_need(src, toks, k + 1, opts)
        } else {
            warp_need(
                call_sources_need(src, toks, args[0].start, opts, base),
                opts,
            )
        };
        let unresolved = match &need {
            WarpNeed::Unneeded => continue,
            WarpNeed::Needed => None,
            WarpNeed::Unresolved(file) => Some(file.as_str()),
        };
        let positional: Vec<_> = args.iter().filter(|r| keyword_of(r).is_none()).collect();
        let value = args
            .iter()
            .find(|r| keyword_of(r) == Some(key))
            .map(|r| r.start + 2..r.end)
            .or_else(|| positional.get(position).map(|r| (*r).clone()));
        let Some(value) = value else {
            if args.iter().any(starred) {
                unknown(
                    sink,
                    call_at,
                    "the call takes arguments from `*`/`**`, which may hold them",
                    key,
                );
                continue;
            }
            let entry = if callee == "CUDAExtension" {
                format!("{key}={{{quote}nvcc{quote}: [{flag}]}}")
            } else {
                format!("{key}=[{flag}]")
            };
            let (at, text) = after_last(k + 1, &args, &entry);
            if sink.edit(at, at, text, B_TORCH.id) {
                added(sink, call_at, unresolved);
            }
            continue;
        };
        if callee != "CUDAExtension" {
            // A list is given its flag by the pass over lists; a variable, where it is
            // assigned a list.
            continue;
        }
        // The dictionaries the value stands for: written here, or assigned to the variable.
        let single = value.len() == 1;
        let opens: Vec<usize> = match &toks[value.start] {
            Tok::Punct { ch: '{', .. } => vec![value.start],
            Tok::Ident { text, .. } if text == "dict" && punct(value.start + 1, '(') => {
                vec![value.start + 1]
            }
            Tok::Ident { text: var, .. } if single => {
                let assigned: Vec<usize> = (0..toks.len())
                    .filter(|&j| {
                        ident(j) == Some(var.as_str())
                            && punct(j + 1, '=')
                            && !punct(j + 2, '=')
                            && !(j >= 1
                                && matches!(
                                    toks[j - 1],
                                    Tok::Punct {
                                        ch: '.' | ',' | '(',
                                        ..
                                    }
                                ))
                    })
                    .collect();
                // `args['nvcc'] = ...` or `args.update(...)` sets the key elsewhere.
                let changed = (0..toks.len()).any(|j| {
                    ident(j) == Some(var.as_str()) && (punct(j + 1, '[') || punct(j + 1, '.'))
                });
                let dicts: Vec<usize> = assigned
                    .iter()
                    .filter_map(|&j| match &toks[j + 2] {
                        Tok::Punct { ch: '{', .. } => Some(j + 2),
                        Tok::Ident { text, .. } if text == "dict" && punct(j + 3, '(') => {
                            Some(j + 3)
                        }
                        _ => None,
                    })
                    .collect();
                if changed && !assigned.is_empty() && dicts.len() == assigned.len() {
                    // Set by a subscript or method: hipport's list passes see only literals.
                    unknown(
                        sink,
                        call_at,
                        &format!("`{var}` is changed after it is assigned"),
                        "extra_compile_args['nvcc']",
                    );
                    continue;
                }
                if assigned.is_empty() || dicts.len() != assigned.len() {
                    unknown(
                        sink,
                        call_at,
                        &format!("`{var}` is not assigned a dictionary written in this file"),
                        "extra_compile_args['nvcc']",
                    );
                    continue;
                }
                dicts
            }
            Tok::Punct { ch: '[', .. } => {
                // A list goes to the host compiler and to hipcc alike.
                if let Some(words) = string_list(&toks[value.start + 1..value.end - 1]) {
                    warp_sync_flag(src, sink, tok_start(&toks[value.start]), &words, unresolved);
                } else {
                    unknown(
                        sink,
                        call_at,
                        "its extra_compile_args list is built from other values",
                        "extra_compile_args",
                    );
                }
                continue;
            }
            _ => {
                unknown(
                    sink,
                    call_at,
                    "its extra_compile_args is computed",
                    "extra_compile_args['nvcc']",
                );
                continue;
            }
        };
        for open in opens {
            if let Err(why) = dict_key(sink, open, call_at, unresolved) {
                unknown(sink, call_at, why, "extra_compile_args['nvcc']");
            }
        }
    }
}

/// The plain names joined with `+` to the literal list from token `open` (`[`) to `close` (`]`):
/// `a + [...] + b + c` gives `a`, `b` and `c`, each with its token. Not an attribute (`x.a`), a
/// call (`f()`) or a subscript (`a[0]`), whose value is no variable's list.
fn joined_names(toks: &[Tok], open: usize, close: usize) -> Vec<(String, usize)> {
    let plain = |at: usize| -> Option<String> {
        let Some(Tok::Ident { text, .. }) = toks.get(at) else {
            return None;
        };
        let before = at.checked_sub(1).and_then(|b| toks.get(b));
        let after = toks.get(at + 1);
        let attribute = matches!(before, Some(Tok::Punct { ch: '.', .. }));
        let applied = matches!(
            after,
            Some(Tok::Punct {
                ch: '(' | '[' | '.',
                ..
            })
        );
        (!attribute && !applied).then(|| text.clone())
    };
    let plus = |at: usize| matches!(toks.get(at), Some(Tok::Punct { ch: '+', .. }));
    let mut out = Vec::new();
    let mut j = close + 1;
    while plus(j) && !matches!(toks.get(j + 1), Some(Tok::Punct { ch: '=', .. })) {
        let Some(name) = plain(j + 1) else { break };
        out.push((name, j + 1));
        j += 2;
    }
    let mut j = open;
    while j >= 2 && plus(j - 1) {
        let Some(name) = plain(j - 2) else { break };
        out.push((name, j - 2));
        j -= 2;
    }
    out
}

/// Whether every mention of variable `name` is an assignment (`name = ...`), an append to it
/// (`name += ...`, `name.append(...)`, `name.extend(...)`, `name.insert(...)`) or one of the
/// joined reads `reads` (token indexes): no command line gets the list without them.
fn only_joined_reads(toks: &[Tok], name: &str, reads: &[usize]) -> bool {
    toks.iter().enumerate().all(|(i, t)| {
        let Tok::Ident { text, .. } = t else {
            return true;
        };
        if text != name || reads.contains(&i) {
            return true;
        }
        let at = |n: usize| toks.get(i + n);
        let ch = |n: usize, c: char| matches!(at(n), Some(Tok::Punct { ch, .. }) if *ch == c);
        let attribute = i > 0 && matches!(toks[i - 1], Tok::Punct { ch: '.', .. });
        let assigned = ch(1, '=') && !ch(2, '=');
        let added = ch(1, '+') && ch(2, '=');
        let appended = ch(1, '.')
            && matches!(at(2), Some(Tok::Ident { text, .. }) if matches!(text.as_str(), "append" | "extend" | "insert"));
        attribute || assigned || added || appended
    })
}

/// Rewrites one list of literals by its role; `arch_done` says whether the AMD targets are
/// already listed for it (and is set when this list lists them).
fn list(
    src: &str,
    sink: &mut Sink,
    opts: &BuildOptions,
    role: Role,
    words: &[Word],
    arch_done: &mut bool,
    host_link: bool,
) {
    match role {
        Role::Libraries => {
            let mut mapped = flags::Mapped::default();
            for (i, w) in words.iter().enumerate() {
                let runtime = matches!(w.text.as_str(), "cudart" | "cudart_static");
                if host_link && runtime {
                    mapped
                        .changes
                        .push((i, flags::Action::Replace(vec!["amdhip64".into()])));
                    mapped.notes.push(flags::Note {
                        word: i,
                        info: super::B_LIB_MAPPED,
                        message: format!("CUDA library `{}` -> `amdhip64`", w.text),
                        help: Some("this extension is linked by the host compiler (distutils' linker_so, gcc/g++), not by hipcc, so the HIP runtime is linked by name: library_dirs must hold $ROCM_PATH/lib".into()),
                        severity: None,
                    });
                    continue;
                }
                if let Some((action, info, message, help)) = flags::map_library_in(&w.text, opts) {
                    let severity = flags::library_severity(&w.text, &action);
                    if info.id != super::B_LIB_UNMAPPED.id {
                        mapped.changes.push((i, action));
                    }
                    mapped.notes.push(flags::Note {
                        word: i,
                        info,
                        message,
                        help,
                        // R37-b's rest: cuDNN -> MIOpen links; the code is not ported.
                        severity,
                    });
                }
            }
            let units = list_units(src, words, false);
            apply_units(sink, src, words, &units, mapped);
        }
        Role::Nvcc | Role::Link | Role::Other => {
            let ctx = if role == Role::Nvcc {
                Context::Nvcc
            } else {
                Context::Any
            };
            // torch joins the compiler's and linker's flags with blanks into the ninja file, so
            // an element `"--maxrregcount 60"` is two words: each is mapped as the two-element
            // form is. Other lists' strings are not known to reach a command line.
            let units = list_units(src, words, role != Role::Other);
            let texts: Vec<&str> = units.iter().map(|u| u.word.text.as_str()).collect();
            let mut mapped = flags::map_words(&texts, opts, ctx, arch_done);
            // One note for the architecture flags of the list (R20-3).
            let unit_words: Vec<Word> = units.iter().map(|u| u.word.clone()).collect();
            super::make::fold_arch_notes(src, &unit_words, &mut mapped, None);
            apply_units(sink, src, words, &units, mapped);
        }
    }
}

/// One word of a flag list: a whole element, or (`part`) one blank-separated word inside the
/// element `elem` (its span inside the literal, without quotes).
struct Unit {
    word: Word,
    elem: usize,
    part: bool,
}

/// Where the opening quote of the list word `w` (which starts at its prefix) is.
fn quote_of(src: &str, w: &Word) -> usize {
    src[w.start..w.end]
        .find(['"', '\''])
        .map_or(w.start, |p| w.start + p)
}

/// The words of a list's elements: with `split`, an element whose text holds blanks (outside
/// f-string fields) is one word per blank-separated part, as the shell reads the command line
/// torch writes; an element with a quote or a backslash is left whole (its shell words are not
/// its blank-separated parts).
fn list_units(src: &str, words: &[Word], split: bool) -> Vec<Unit> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let q = quote_of(src, w);
        let fmt = src[w.start..q].contains(['f', 'F']);
        let closed = w.end > q + 1 && src.as_bytes()[w.end - 1] == src.as_bytes()[q];
        let content = q + 1..w.end.saturating_sub(1);
        let text = if closed { &src[content.clone()] } else { "" };
        let parts = if split && !text.contains(['\\', '"', '\'']) {
            blank_parts(text, fmt)
        } else {
            Vec::new()
        };
        if parts.len() > 1 {
            out.extend(parts.into_iter().map(|r| Unit {
                word: Word {
                    start: content.start + r.start,
                    end: content.start + r.end,
                    text: text[r].to_string(),
                    quote: None,
                },
                elem: i,
                part: true,
            }));
        } else {
            out.push(Unit {
                word: w.clone(),
                elem: i,
                part: false,
            });
        }
    }
    out
}

/// The blank-separated parts of `text`; with `fmt` (an f-string) a blank inside a `{...}` field
/// separates nothing.
fn blank_parts(text: &str, fmt: bool) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut from = None;
    for (i, c) in text.char_indices() {
        match c {
            '{' if fmt => depth += 1,
            '}' if fmt => depth = depth.saturating_sub(1),
            _ => {}
        }
        let blank = depth == 0 && (c == ' ' || c == '\t');
        match (blank, from) {
            (true, Some(f)) => {
                out.push(f..i);
                from = None;
            }
            (false, None) => from = Some(i),
            _ => {}
        }
    }
    if let Some(f) = from {
        out.push(f..text.len());
    }
    out
}

/// Applies what mapping the `units` of the list `words` gives: changes to whole elements as list
/// elements, a literal's prefix (`f`, `rf`) kept before each literal a replacement writes and
/// removed with the literal; changes to the words inside an element as words of a command line,
/// in the literal, and an element whose words all go as a whole element.
fn apply_units(sink: &mut Sink, src: &str, words: &[Word], units: &[Unit], mapped: flags::Mapped) {
    let removed = |k: usize| {
        mapped
            .changes
            .iter()
            .any(|(j, a)| *j == k && *a == flags::Action::Remove)
    };
    // Elements split into words that all go.
    let gone: Vec<bool> = (0..words.len())
        .map(|i| {
            let mut parts = units
                .iter()
                .enumerate()
                .filter(|(_, u)| u.elem == i && u.part)
                .peekable();
            parts.peek().is_some() && parts.all(|(k, _)| removed(k))
        })
        .collect();
    let mut inner_index = vec![usize::MAX; units.len()];
    let mut inner_words = Vec::new();
    for (k, u) in units.iter().enumerate() {
        if u.part {
            inner_index[k] = inner_words.len();
            inner_words.push(u.word.clone());
        }
    }
    let (mut outer, mut inner) = (flags::Mapped::default(), flags::Mapped::default());
    for (k, action) in mapped.changes {
        let u = &units[k];
        if !u.part {
            outer.changes.push((u.elem, action));
        } else if gone[u.elem] {
            if !outer.changes.iter().any(|(j, _)| *j == u.elem) {
                outer.changes.push((u.elem, flags::Action::Remove));
            }
        } else {
            inner.changes.push((inner_index[k], action));
        }
    }
    for mut n in mapped.notes {
        let u = &units[n.word];
        if u.part && !gone[u.elem] {
            n.word = inner_index[n.word];
            inner.notes.push(n);
        } else {
            n.word = u.elem;
            outer.notes.push(n);
        }
    }
    // A prefixed literal replaced: each literal written keeps the prefix, which a field or a
    // backslash the replacement carries over from the original needs.
    let rule_of = |notes: &[flags::Note], i: usize| {
        notes
            .iter()
            .find(|n| n.word == i)
            .map_or("B001", |n| n.info.id)
            .to_string()
    };
    let mut prefixed = Vec::new();
    outer.changes.retain(|(i, a)| {
        let w = &words[*i];
        let q = quote_of(src, w);
        match (a, w.quote) {
            (flags::Action::Replace(new), Some(quote)) if q > w.start => {
                let prefix = &src[w.start..q];
                let text = new
                    .iter()
                    .map(|n| format!("{quote}{n}{quote}"))
                    .collect::<Vec<_>>()
                    .join(&format!(", {prefix}"));
                prefixed.push((q, w.end, text, *i));
                false
            }
            _ => true,
        }
    });
    for (s, e, text, i) in prefixed {
        sink.edit(s, e, text, &rule_of(&outer.notes, i));
    }
    text::apply_mapped(sink, src, words, outer, Style::PyList);
    if !inner_words.is_empty() {
        text::apply_mapped(sink, src, &inner_words, inner, Style::Blank);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::buildfiles::{translate_build, BuildKind};
    use crate::edit::apply;

    fn run(src: &str, opts: &BuildOptions) -> (String, Vec<crate::diag::Diagnostic>) {
        let (mut edits, diags) =
            translate_build(BuildKind::SetupPy, src.as_bytes(), "ext/setup.py", opts);
        (
            String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap(),
            diags,
        )
    }

    /// Build options whose run renamed the `(old, new)` sources.
    fn renamed_options(renames: &[(&str, &str)]) -> BuildOptions {
        let mut o = BuildOptions::default();
        for (old, new) in renames {
            o.renamed.insert(old.to_string(), new.to_string());
        }
        o
    }

    /// R23-c: a name an `if CUDA_HOME is not None:` block sets and the file reads after it is
    /// a NameError on ROCm: an error at the probe inside the block (or at the test where the
    /// probe is a function's), naming the read and the architecture flags behind it; a value
    /// given before the test, an `else`, or an assignment in a function above changes that.
    #[test]
    fn names_a_cuda_home_block_sets_and_the_file_reads_later_are_errors() {
        let o = BuildOptions::default();
        let probe = "import subprocess\nfrom torch.utils.cpp_extension import CUDA_HOME\nflags = []\nif CUDA_HOME is not None:\n    out = subprocess.check_output([CUDA_HOME + \"/bin/nvcc\", \"-V\"])\n    ver = float(out)\nif ver >= 11.8:\n    flags += [\"-gencode\", \"arch=compute_90,code=sm_90\"]\n";
        let (_, diags) = run(probe, &o);
        let errors: Vec<_> = diags
            .iter()
            .filter(|d| d.severity == crate::diag::Severity::Error)
            .collect();
        assert_eq!(errors.len(), 1, "{diags:#?}");
        assert_eq!(errors[0].line, 5);
        assert!(
            errors[0].message.contains("`ver` (line 7)")
                && errors[0].message.contains("NameError")
                && errors[0].message.contains("at line 7 never apply"),
            "{}",
            errors[0].message
        );
        let called = "import subprocess\nfrom torch.utils.cpp_extension import CUDA_HOME\ndef version(home):\n    raw = subprocess.check_output([home + \"/bin/nvcc\", \"-V\"])\n    ver = raw\n    return raw, ver\n\nif True:\n    if CUDA_HOME is not None:\n        _, ver = version(CUDA_HOME)\n    if ver > 11:\n        pass\n";
        let (_, diags) = run(called, &o);
        assert!(
            diags
                .iter()
                .any(|d| d.severity == crate::diag::Severity::Error
                    && d.line == 9
                    && d.message.contains("`ver` (line 11)")),
            "{diags:#?}"
        );
        for safe in [
            called.replace("if True:\n", "if True:\n    ver = 0\n"),
            called.replace(
                "    if ver > 11:",
                "    else:\n        ver = 0\n    if ver > 11:",
            ),
        ] {
            let (_, diags) = run(&safe, &o);
            assert!(
                !diags.iter().any(|d| d.message.contains("NameError")),
                "{safe}\n{diags:#?}"
            );
        }
    }

    /// R23-i: `cc_flag.append("-gencode")` followed by `cc_flag.append("arch=...")`, both
    /// literal, is rewritten as the list form is: the two appends give the AMD targets (one
    /// target: the second append goes; more than two: `extend`), a later pair on the list goes
    /// (`pass` where it was a block's body), one note each naming both lines; the output is
    /// Python and converts to itself.
    #[test]
    fn a_gencode_appended_apart_from_its_value_is_rewritten_like_the_list_form() {
        let src = "from torch.utils.cpp_extension import CUDAExtension\ncc_flag = []\ncc_flag.append(\"-gencode\")\ncc_flag.append(\"arch=compute_80,code=sm_80\")\nif X:\n    cc_flag.append(\"-gencode\")\n    cc_flag.append('arch=compute_90,code=sm_90')\nCUDAExtension(\"e\", [\"k.cu\"], extra_compile_args={\"nvcc\": cc_flag})\n";
        let opts = |archs: &[&str]| BuildOptions {
            offload_arch: archs.iter().map(|a| a.to_string()).collect(),
            ..Default::default()
        };
        let o = opts(&["gfx90a", "gfx1030"]);
        let (out, diags) = run(src, &o);
        assert!(
            out.contains("cc_flag.append(\"--offload-arch=gfx90a\")\ncc_flag.append(\"--offload-arch=gfx1030\")\nif X:\n    pass\nCUDAExtension("),
            "{out}"
        );
        let arch: Vec<_> = diags.iter().filter(|d| d.id == "B009").collect();
        assert_eq!(arch.len(), 2, "{diags:#?}");
        assert_eq!(
            (arch[0].line, arch[0].severity, arch[1].line),
            (3, crate::diag::Severity::Note, 6)
        );
        assert!(
            arch[0].message.contains("(line 3)")
                && arch[0]
                    .message
                    .contains("`arch=compute_80,code=sm_80` (line 4)"),
            "{}",
            arch[0].message
        );
        assert_eq!(run(&out, &o).0, out);
        let (one, _) = run(src, &opts(&["gfx90a"]));
        assert!(
            one.contains("cc_flag = []\ncc_flag.append(\"--offload-arch=gfx90a\")\nif X:"),
            "{one}"
        );
        let (three, _) = run(src, &opts(&["gfx90a", "gfx942", "gfx1100"]));
        assert!(
            three.contains("cc_flag.append(\"--offload-arch=gfx90a\")\ncc_flag.extend([\"--offload-arch=gfx942\", \"--offload-arch=gfx1100\"])\n"),
            "{three}"
        );
        assert_eq!(
            run(&three, &opts(&["gfx90a", "gfx942", "gfx1100"])).0,
            three
        );
    }

    /// R23-g: a plain removal (literal flags, on a module, a statement of its own) gets the
    /// same removal from `COMMON_HIPCC_FLAGS` after it, in ROCm's spellings, a note; one
    /// inside a line, over a list with a name in it or on a bare imported name keeps the
    /// warning; a second run writes nothing more.
    #[test]
    fn plain_removals_from_cudas_common_flags_remove_rocms_spellings_too() {
        let o = BuildOptions::default();
        let src = "import torch.utils.cpp_extension as ext\nfrom torch.utils.cpp_extension import COMMON_NVCC_FLAGS\nif True:\n    ext.COMMON_NVCC_FLAGS.remove(\"-D__CUDA_NO_HALF_CONVERSIONS__\")  # ok\nfor f in [\"-D__CUDA_NO_HALF_OPERATORS__\", X]:\n    ext.COMMON_NVCC_FLAGS.remove(f)\nCOMMON_NVCC_FLAGS.remove(\"-D__CUDA_NO_HALF_OPERATORS__\")\nx = 1; ext.COMMON_NVCC_FLAGS.remove(\"-D__CUDA_NO_HALF_OPERATORS__\")\n";
        let (out, diags) = run(src, &o);
        let block = "    ext.COMMON_NVCC_FLAGS.remove(\"-D__CUDA_NO_HALF_CONVERSIONS__\")  # ok\n    # hipport: ROCm PyTorch compiles with COMMON_HIPCC_FLAGS, in ROCm's spellings\n    for _hipport_flag in [\"-D__HIP_NO_HALF_CONVERSIONS__=1\"]:\n        if _hipport_flag in getattr(ext, \"COMMON_HIPCC_FLAGS\", []):\n            ext.COMMON_HIPCC_FLAGS.remove(_hipport_flag)\nfor f in";
        assert!(out.contains(block), "{out}");
        assert_eq!(out.matches("_hipport_flag in [").count(), 1, "{out}");
        let b008: Vec<_> = diags
            .iter()
            .filter(|d| d.id == "B008" && d.message.contains("COMMON_HIPCC_FLAGS"))
            .map(|d| (d.line, d.severity))
            .collect();
        use crate::diag::Severity::{Note, Warning};
        assert_eq!(
            b008,
            [(4, Note), (6, Warning), (7, Warning), (8, Warning)],
            "{diags:#?}"
        );
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    /// R23-g: strings removed from torch's `COMMON_NVCC_FLAGS` (in a loop or directly) stay
    /// CUDA's, with a warning at each removal naming `COMMON_HIPCC_FLAGS` and its `=1` values;
    /// the same strings in an nvcc list are still rewritten.
    #[test]
    fn removals_from_cudas_common_flags_are_reported_not_renamed() {
        let src = "import torch.utils.cpp_extension as ext\nfor flag in [\"-D__CUDA_NO_HALF_OPERATORS__\", \"-D__CUDA_NO_HALF_CONVERSIONS__\"]:\n    ext.COMMON_NVCC_FLAGS.remove(flag)\next.COMMON_NVCC_FLAGS.remove(\"-D__CUDA_NO_HALF2_OPERATORS__\")\nargs = {\"nvcc\": [\"-U__CUDA_NO_HALF_OPERATORS__\"]}\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(
            out.contains("for flag in [\"-D__CUDA_NO_HALF_OPERATORS__\", \"-D__CUDA_NO_HALF_CONVERSIONS__\"]:")
                && out.contains("remove(\"-D__CUDA_NO_HALF2_OPERATORS__\")")
                && out.contains("[\"-U__HIP_NO_HALF_OPERATORS__\"]"),
            "{out}"
        );
        let warned: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B008" && d.message.contains("COMMON_HIPCC_FLAGS"))
            .map(|d| d.line)
            .collect();
        assert_eq!(warned, [3, 4], "{diags:#?}");
        assert!(diags.iter().any(|d| d
            .help
            .as_deref()
            .is_some_and(|h| h.contains("-D__HIP_NO_HALF_OPERATORS__=1"))));
        assert!(
            !diags
                .iter()
                .any(|d| d.line <= 4 && matches!(d.id.as_str(), "B001" | "B003")),
            "{diags:#?}"
        );
    }

    /// U-f: pytorch_sparse's `"-l", "cusparse"` (and `"-l cusparse"` in one element, and a JIT
    /// build's `extra_ldflags`) map as `"-lcusparse"`: the link named a library ROCm lacks.
    #[test]
    fn two_word_library_flags_are_mapped() {
        let src = "from torch.utils.cpp_extension import CUDAExtension, load\n\
                   e = CUDAExtension('m', ['k.cu'], extra_link_args=['-lcusparse', '-l', 'cusparse', '-l cublas'])\n\
                   load('j', ['k.cu'], extra_ldflags=['-l', 'curand', '-l', 'cudart'])\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert!(
            out.contains("extra_link_args=['-lhipsparse', '-l', 'hipsparse', '-l hipblas'])"),
            "{out}"
        );
        assert!(out.contains("extra_ldflags=['-l', 'hiprand'])"), "{out}");
        let mapped = |name: &str| {
            diags
                .iter()
                .any(|d| d.id == "B004" && d.message.contains(&format!("`{name}`")))
        };
        assert!(mapped("cusparse") && mapped("cublas") && mapped("curand") && mapped("cudart"));
        let (again, _) = run(&out, &BuildOptions::default());
        assert_eq!(again, out);
    }

    #[test]
    fn removing_the_last_flags_of_a_line_leaves_no_trailing_blank() {
        let src = "from torch.utils.cpp_extension import load\n\
                   m = load(name=\"m\", sources=[\"k.cu\"], extra_cuda_cflags=[\n    \
                   \"-std=c++17\", \"-res-usage\", \"--maxrregcount 60\",\n    \"-O3\"])\n";
        let (out, _) = run(src, &BuildOptions::default());
        assert!(out.contains("    \"-std=c++17\",\n    \"-O3\"])"), "{out}");
        assert!(out.lines().all(|l| l == l.trim_end()), "{out}");
    }

    /// Options of a `--rename torch` run that moved `ext/cuda/` whole to `ext/hip/`.
    fn moved_cuda_options() -> BuildOptions {
        let mut o = renamed_options(&[
            ("ext/cuda/src/k.cu", "ext/cuda/src/k.hip"),
            ("ext/cuda/src/bind.cpp", "ext/cuda/src/bind_hip.cpp"),
            ("ext/cuda/include/u.h", "ext/cuda/include/u_hip.h"),
        ]);
        o.renamed = o
            .renamed
            .into_iter()
            .map(|(k, v)| (k, v.replacen("ext/cuda/", "ext/hip/", 1)))
            .collect();
        for (old, new) in [
            ("ext/cuda", "ext/hip"),
            ("ext/cuda/src", "ext/hip/src"),
            ("ext/cuda/include", "ext/hip/include"),
        ] {
            o.moved_dirs.insert(old.into(), new.into());
        }
        o
    }

    #[test]
    fn a_constant_naming_a_moved_directory_follows_it() {
        // torch-points-kernels: `ext_src_root = "cuda"` read through str.format (Z-d).
        let o = moved_cuda_options();
        let src = "import glob, os\nbase = \"cuda\"\nkeep = 'csrc'\nSRC = glob.glob(\"{}/src/*.cu\".format(base)) + glob.glob(f\"{base}/src/*.cpp\")\nMORE = glob.glob(base + \"/src/*.cu\") + [os.path.join(base, \"src\", \"k.cu\")]\nflags = [\"-I{}/include\".format(base), \"-I\" + keep]\nsetup(include_dirs=[base, os.path.join(base, 'include')])\nnames = [os.path.join(keep, f) for f in ['x.cpp']]\n";
        let (out, diags) = run(src, &o);
        assert!(
            out.contains("base = \"hip\"\nkeep = 'csrc'\n")
                && out.contains("glob.glob(\"{}/src/*.hip\".format(base))")
                && out.contains("glob.glob(base + \"/src/*.hip\")")
                && out.contains("os.path.join(base, \"src\", \"k.hip\")"),
            "{out}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B010"
                && d.line == 2
                && d.severity == crate::diag::Severity::Note
                && d.message.contains("`base = \"cuda\"` -> `base = \"hip\"`")),
            "{diags:#?}"
        );
        // The include flag reads the new value: no warning that it was left stale.
        assert!(
            !diags
                .iter()
                .any(|d| d.severity == crate::diag::Severity::Warning),
            "{diags:#?}"
        );
        let (twice, _) = run(&out, &BuildOptions::default());
        assert_eq!(twice, out);
    }

    #[test]
    fn a_constant_naming_a_moved_directory_and_used_otherwise_is_a_warning() {
        let o = moved_cuda_options();
        let src = "import glob\nbackend = \"cuda\"\nSRC = glob.glob(\"{}/src/*.cu\".format(backend))\nprint(backend.upper())\nlabel = \"cuda\"\nprint(label)\n";
        let (out, diags) = run(src, &o);
        assert!(out.contains("backend = \"cuda\"\n"), "{out}");
        let warned: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B010" && d.severity == crate::diag::Severity::Warning)
            .map(|d| d.line)
            .collect();
        // `label` is never a directory: nothing to say.
        assert_eq!(warned, [2], "{diags:#?}");
    }

    #[test]
    fn extension_lists_and_tests_follow_renamed_extensions() {
        // inplace_abn's `find_sources`: `path.splitext` tested against `[".cpp", ".cu"]` (Z-f).
        let o = renamed_options(&[("ext/src/k.cu", "ext/src/k.hip")]);
        let src = "exts = [\".cpp\", \".cu\"]\nif name.endswith(('.cc', '.cu')): pass\nif name.endswith(\".cu\"): pass\nkinds = {\".cu\", \".cuh\"}\nsuffix = (\".cu\")\nboth = [\".cu\", \".hip\"]\nif ext == \".cu\": pass\nobj = name.replace(\".cu\", \".o\")\n";
        let (out, diags) = run(src, &o);
        assert_eq!(
            out,
            "exts = [\".cpp\", \".cu\", \".hip\"]\nif name.endswith(('.cc', '.cu', '.hip')): pass\nif name.endswith((\".cu\", \".hip\")): pass\nkinds = {\".cu\", \".hip\", \".cuh\"}\nsuffix = (\".cu\")\nboth = [\".cu\", \".hip\"]\nif ext == \".cu\": pass\nobj = name.replace(\".cu\", \".o\")\n"
        );
        let found: Vec<(usize, crate::diag::Severity)> = diags
            .iter()
            .filter(|d| d.id == "B010")
            .map(|d| (d.line, d.severity))
            .collect();
        use crate::diag::Severity::{Note, Warning};
        assert_eq!(
            found,
            [(1, Note), (2, Note), (3, Note), (4, Note), (7, Warning)],
            "{diags:#?}"
        );
        let (twice, _) = run(&out, &o);
        assert_eq!(twice, out);
    }

    #[test]
    fn a_file_name_built_in_an_f_string_follows_the_renamed_sources() {
        // pytorch_scatter/sparse/cluster: `osp.join(dir, 'cuda', f'{name}_cuda.cu')`.
        let mut o = renamed_options(&[
            ("ext/csrc/cuda/add_cuda.cu", "ext/csrc/hip/add_cuda.hip"),
            ("ext/csrc/cuda/mul_cuda.cu", "ext/csrc/hip/mul_cuda.hip"),
        ]);
        o.moved_dirs
            .insert("ext/csrc/cuda".into(), "ext/csrc/hip".into());
        let src = "import os.path as osp\nfrom torch.utils.cpp_extension import CUDAExtension\nfor name in ['add', 'mul']:\n    path = osp.join('csrc', 'cuda', f'{name}_cuda.cu')\n    other = osp.join('csrc', f'{name}_other.cu')\n    label = f'{name}_cuda.cu'\n";
        let (out, diags) = run(src, &o);
        assert!(
            out.contains("path = osp.join('csrc', 'hip', f'{name}_cuda.hip')")
                // No renamed source ends with `_other.cu`, and a label is not a joined path.
                && out.contains("other = osp.join('csrc', f'{name}_other.cu')")
                && out.contains("label = f'{name}_cuda.cu'"),
            "{out}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B010"
                && d.line == 4
                && d.message.contains("-> `{name}_cuda.hip`")),
            "{diags:#?}"
        );
    }

    #[test]
    fn a_file_name_formatted_in_a_joined_path_follows_the_renamed_sources() {
        // KNN_CUDA's JIT build: `os.path.join(csrc, "cuda", "{}.cu".format(name))` (H-f).
        let mut o = renamed_options(&[
            ("ext/csrc/cuda/ops.cu", "ext/csrc/hip/ops.hip"),
            ("ext/csrc/cuda/ops.cpp", "ext/csrc/hip/ops_hip.cpp"),
            ("ext/csrc/cuda/mixed.cc", "ext/csrc/hip/mixed.cc"),
            ("ext/csrc/cuda/other_k.cc", "ext/csrc/hip/other_k_hip.cc"),
        ]);
        o.moved_dirs
            .insert("ext/csrc/cuda".into(), "ext/csrc/hip".into());
        let src = "import os\nfrom torch.utils.cpp_extension import load\ncsrc = os.path.join(os.path.dirname(__file__), 'csrc')\nsrcs = [os.path.join(csrc, 'cuda', '{}.cpp'.format(n)), os.path.join(csrc, 'cuda', '{0}.cu'.format(n))]\nmore = os.path.join(csrc, 'cuda', '{}.cc'.format(n))\nload(name=n, sources=srcs + [more])\n";
        let (out, diags) = run(src, &o);
        assert!(
            out.contains("srcs = [os.path.join(csrc, 'hip', '{}_hip.cpp'.format(n)), os.path.join(csrc, 'hip', '{0}.hip'.format(n))]"),
            "{out}"
        );
        // `mixed.cc` kept its name, `other_k.cc` did not: the name is left, with a warning.
        assert!(out.contains("'{}.cc'.format(n)"), "{out}");
        assert!(
            diags.iter().any(|d| d.id == "B010"
                && d.line == 5
                && d.message.contains("renamed in different ways")),
            "{diags:#?}"
        );
        // Converting the output again changes nothing.
        let mut again = BuildOptions::default();
        again.renamed.clear();
        let (twice, _) = run(&out, &again);
        assert_eq!(twice, out);
    }

    #[test]
    fn package_data_paths_follow_renamed_sources_of_their_package() {
        // KNN_CUDA's setup.py ships the JIT build's sources, named relative to the package (H-f).
        let mut o = renamed_options(&[
            (
                "ext/knn_cuda/csrc/cuda/knn.cu",
                "ext/knn_cuda/csrc/hip/knn.hip",
            ),
            (
                "ext/knn_cuda/csrc/cuda/knn.cpp",
                "ext/knn_cuda/csrc/hip/knn_hip.cpp",
            ),
        ]);
        o.moved_dirs.insert(
            "ext/knn_cuda/csrc/cuda".into(),
            "ext/knn_cuda/csrc/hip".into(),
        );
        let src = "from setuptools import setup\nsetup(name='knn_cuda', packages=['knn_cuda'], package_data={'knn_cuda': ['csrc/cuda/knn.cu', 'csrc/cuda/knn.cpp', 'csrc/cuda/*.cu']})\n";
        let (out, diags) = run(src, &o);
        assert!(
            out.contains("package_data={'knn_cuda': ['csrc/hip/knn.hip', 'csrc/hip/knn_hip.cpp', 'csrc/hip/*.hip']}"),
            "{out}"
        );
        assert!(
            !diags
                .iter()
                .any(|d| d.message.contains("names no renamed source")),
            "{diags:#?}"
        );
    }

    #[test]
    fn branches_only_cuda_pytorch_takes_are_left_alone() {
        let mut o = BuildOptions::default();
        o.renamed
            .insert("ext/csrc/k.cu".into(), "ext/csrc/k.hip".into());
        // mamba/causal-conv1d's shape: a name assigned from torch.version.hip, tested both ways.
        let src = "import torch\nfrom torch.utils.cpp_extension import BuildExtension, CUDAExtension, CUDA_HOME\nHIP_BUILD = bool(torch.version.hip)\nWITH_CUDA = CUDA_HOME is not None or torch.version.hip\nnvcc = [\"-O3\", \"--use_fast_math\"]\nif HIP_BUILD:\n    nvcc += [\"-DNDEBUG\"]\nelse:\n    print(CUDA_HOME)\n    nvcc += [\"--expt-relaxed-constexpr\"]\n    nvcc.append(\"-gencode\")\n    srcs = [\"csrc/k.cu\"]\nif not torch.version.hip: nvcc.append(\"-lineinfo\")\nif torch.version.hip and WITH_CUDA:\n    pass\nelse:\n    nvcc += [\"-lineinfo\"]\n";
        let (out, diags) = run(src, &o);
        assert_eq!(
            out,
            src.replacen("\"--use_fast_math\"", "\"-ffast-math\"", 1)
                .replacen("\"csrc/k.cu\"", "\"csrc/k.hip\"", 1)
                // A condition that tests something else as well decides nothing.
                .replacen("    nvcc += [\"-lineinfo\"]\n", "    nvcc += []\n", 1)
        );
        let ids: Vec<(usize, &str)> = diags.iter().map(|d| (d.line, d.id.as_str())).collect();
        assert_eq!(
            ids,
            [
                (2, "B011"),
                (5, "B001"),
                (6, "B016"),
                (13, "B016"),
                (17, "B002")
            ],
            "{diags:#?}"
        );
        let note = diags.iter().find(|d| d.id == "B016").unwrap();
        assert!(
            note.message
                .starts_with("lines 9-12 run only on CUDA PyTorch (the test on line 6"),
            "{}",
            note.message
        );
    }

    #[test]
    fn torch_cuda_arch_list_becomes_pytorch_rocm_arch() {
        let o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx1100".into()],
            ..BuildOptions::default()
        };
        let src = "import os\nos.environ[\"TORCH_CUDA_ARCH_LIST\"] = \"8.0;8.6+PTX\"\nos.environ.setdefault('TORCH_CUDA_ARCH_LIST', '7.5 8.0')\narchs = os.environ.get(\"TORCH_CUDA_ARCH_LIST\", fallback)\nprint(\"set TORCH_CUDA_ARCH_LIST first\")\n";
        let (out, diags) = run(src, &o);
        assert_eq!(
            out,
            "import os\nos.environ[\"PYTORCH_ROCM_ARCH\"] = \"gfx90a;gfx1100\"\nos.environ.setdefault('PYTORCH_ROCM_ARCH', 'gfx90a;gfx1100')\narchs = os.environ.get(\"PYTORCH_ROCM_ARCH\", fallback)\nprint(\"set TORCH_CUDA_ARCH_LIST first\")\n"
        );
        let lines: Vec<(usize, &str)> = diags.iter().map(|d| (d.line, d.id.as_str())).collect();
        assert_eq!(lines, [(2, "B011"), (3, "B011"), (4, "B011")]);
    }

    #[test]
    fn extension_flags_libraries_and_sources() {
        let mut o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx942".into()],
            ..Default::default()
        };
        o.renamed
            .insert("ext/csrc/kernel.cu".into(), "ext/csrc/kernel.hip".into());
        let src = r#"from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

nvcc_flags = [
    "-O3",
    "--use_fast_math",
    "-lineinfo",
    "-gencode", "arch=compute_80,code=sm_80",
]
nvcc_flags.append('--expt-relaxed-constexpr')

setup(
    name="myext",
    ext_modules=[
        CUDAExtension(
            name="myext._C",
            sources=["csrc/binding.cpp", "csrc/kernel.cu"],
            extra_compile_args={"cxx": ["-O3"], "nvcc": nvcc_flags + ['-Xcompiler', '-fno-gnu-unique']},
            libraries=["cublas", "cudart", 'curand', "nvjpeg"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
"#;
        let (out, diags) = run(src, &o);
        assert!(out.contains("nvcc_flags = [\n    \"-O3\",\n    \"-ffast-math\",\n    \"--offload-arch=gfx90a\", \"--offload-arch=gfx942\",\n]\n"), "{out}");
        assert!(
            !out.contains("nvcc_flags.append('--expt-relaxed-constexpr')"),
            "{out}"
        );
        // clang, which compiles the host code under hipcc, rejects the GCC flag.
        assert!(out.contains("\"nvcc\": nvcc_flags + []}"), "{out}");
        assert!(
            out.contains("sources=[\"csrc/binding.cpp\", \"csrc/kernel.hip\"]"),
            "{out}"
        );
        assert!(
            out.contains("libraries=[\"hipblas\", 'hiprand', \"nvjpeg\"]"),
            "{out}"
        );
        assert!(out.contains("CUDAExtension("), "{out}");
        assert!(diags.iter().any(|d| d.id == "B011" && d.line == 2));
        assert!(diags
            .iter()
            .any(|d| d.id == "B005" && d.message.contains("nvjpeg")));
        assert!(diags.iter().any(|d| d.id == "B002" && d.line == 7));
    }

    /// A library the target HIP does not ship yet keeps its name in `libraries=[...]`.
    #[test]
    fn libraries_follow_the_target_hip() {
        let src = "from torch.utils.cpp_extension import CUDAExtension\nCUDAExtension(name='m', sources=['k.cu'], libraries=['cublas', 'cublasLt'])\n";
        let o = BuildOptions {
            hip_version: hipport_rules::Version::new(5, 2, 3),
            ..Default::default()
        };
        let (out, diags) = run(src, &o);
        assert!(out.contains("libraries=['hipblas', 'cublasLt']"), "{out}");
        assert!(
            diags
                .iter()
                .any(|d| d.id == "B005" && d.message.contains("ROCm 5.5")),
            "{diags:?}"
        );
        let (out, _) = run(src, &BuildOptions::default());
        assert!(out.contains("libraries=['hipblas', 'hipblaslt']"), "{out}");
    }

    #[test]
    fn inline_nvcc_dict_and_append_on_any_list() {
        let o = BuildOptions {
            offload_arch: vec!["gfx942".into()],
            ..Default::default()
        };
        let src = "cc_flag = []\ncc_flag.append('--use_fast_math')\ncc_flag.append(\"-gencode\")\nsetup(ext_modules=[CUDAExtension('e', ['e.cu'], extra_compile_args={'cxx': ['-O2'], 'nvcc': ['-O3', '-gencode=arch=compute_80,code=sm_80', '-gencode=arch=compute_90,code=sm_90', '-G']})])\n";
        let (out, diags) = run(src, &o);
        assert!(out.contains("cc_flag.append('-ffast-math')\n"), "{out}");
        assert!(
            out.contains("cc_flag.append(\"-gencode\")\n"),
            "a one-flag append cannot take the arch list: {out}"
        );
        assert!(diags.iter().any(|d| d.id == "B009"
            && d.line == 3
            && d.severity == crate::diag::Severity::Warning
            && d.message.contains("left in place: hipcc rejects it")));
        assert!(
            out.contains("'nvcc': ['-O3', '--offload-arch=gfx942', '-g']"),
            "{out}"
        );
        assert!(out.contains("'cxx': ['-O2']"), "{out}");
    }

    #[test]
    fn flags_in_computed_lists_are_reported_and_literals_beside_them_rewritten() {
        // The computed element is reported; the literals around it are flags of the same list
        // (the 3D Gaussian splatting rasterizer: `["-Xcompiler", "-fno-gnu-unique", "-I" + ...]`).
        let src = "args = {'nvcc': ['-O3', '-arch=sm_' + str(cc), '--use_fast_math']}\nmore = {'nvcc': ['-Xcompiler', '-fno-gnu-unique', '-I' + os.path.join(here, 'x')]}\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(
            out,
            "args = {'nvcc': ['-O3', '-arch=sm_' + str(cc), '-ffast-math']}\nmore = {'nvcc': ['-I' + os.path.join(here, 'x')]}\n"
        );
        assert!(
            diags.iter().any(|d| d.id == "B009"
                && d.line == 1
                && d.severity == crate::diag::Severity::Warning),
            "{diags:?}"
        );
        assert!(
            diags.iter().any(|d| d.id == "B002"
                && d.line == 2
                && d.message.contains("`-fno-gnu-unique` dropped: clang")),
            "{diags:?}"
        );
    }

    #[test]
    fn flags_left_in_strings_say_what_to_do_and_tests_for_flags_are_not_flags() {
        // pytorch3d's setup.py: the format string is a flag appended later; the other
        // literals are what a statement looks for.
        let src = "CC_arg = \"-ccbin={}\".format(CC)\n\
                   if any(arg.startswith(\"-ccbin\") for arg in nvcc_args): pass\n\
                   if \"-lineinfo\" in nvcc_args or nvcc_args[0] != '-lineinfo': pass\n\
                   if a.endswith((\"-ccbin\", \"--use_fast_math\")) or '-lineinfo' not in b: pass\n\
                   fast = '--use_fast_math' if f else '-O3'\n\
                   nvcc_args.append(CC_arg)\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(out, src);
        let found: Vec<(usize, &str)> =
            diags.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            found,
            [
                (
                    1,
                    "`-ccbin={}` left as it is (not rewritten: the string is not in a list of \
                     flags): hipport drops it where it rewrites a list of flags; make the change \
                     by hand"
                ),
                (
                    5,
                    "`--use_fast_math` left as it is (not rewritten: the string is not in a list \
                     of flags): hipcc takes `-ffast-math` instead; make the change by hand"
                ),
            ]
        );
    }

    #[test]
    fn lists_of_other_things_are_left_alone() {
        let src = "x = ['-O3', '-arch', 'x86_64']\ny = [1, '--use_fast_math']\n";
        let (edits, _) = translate_build(
            BuildKind::SetupPy,
            src.as_bytes(),
            "setup.py",
            &BuildOptions::default(),
        );
        assert!(edits.is_empty(), "{edits:?}");
    }

    #[test]
    fn globs_follow_moved_directories() {
        // `--rename torch` moves ext/csrc/cuda/ to ext/csrc/hip/ and renames .cu to .hip.
        let o = renamed_options(&[
            ("ext/csrc/cuda/k.cu", "ext/csrc/hip/k.hip"),
            ("ext/csrc/cuda/util.cpp", "ext/csrc/hip/util_hip.cpp"),
        ]);
        let src = "import glob, os\nsrcs = glob.glob('csrc/*.cpp') + glob.glob(\"csrc/cuda/*.cu\") + glob.glob('./csrc/cuda/*.cpp')\nsrcs += glob.glob(os.path.join(here, 'csrc', 'cuda', '*.cu'))\n";
        let (out, diags) = run(src, &o);
        assert_eq!(out, "import glob, os\nsrcs = glob.glob('csrc/*.cpp') + glob.glob(\"csrc/hip/*.hip\") + glob.glob('./csrc/hip/*.cpp')\nsrcs += glob.glob(os.path.join(here, 'csrc', 'hip', '*.hip'))\n");
        // What the renames decided is rewritten, and said once per pattern, as a note.
        let found: Vec<(usize, &str, crate::diag::Severity)> = diags
            .iter()
            .filter(|d| d.id == "B010")
            .map(|d| (d.line, d.message.as_str(), d.severity))
            .collect();
        use crate::diag::Severity::{Note, Warning};
        assert_eq!(
            found,
            [
                (2, "pattern `csrc/cuda/*.cu` -> `csrc/hip/*.hip`: `csrc/cuda` is now `csrc/hip` and the .cu sources are now .hip", Note),
                (2, "pattern `./csrc/cuda/*.cpp` -> `./csrc/hip/*.cpp`: `csrc/cuda` is now `csrc/hip`", Note),
                (3, "directory name `cuda` in a joined path -> `hip`: the `cuda` directories were renamed", Warning),
                (3, "pattern `*.cu` -> `*.hip`: the .cu sources are now .hip", Note),
            ],
            "{diags:#?}"
        );
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
    }

    #[test]
    fn os_path_join_names_are_renamed() {
        let mut o = BuildOptions::default();
        o.renamed.insert("csrc/k.cu".into(), "csrc/k.hip".into());
        let (out, _) = run(
            "s = [os.path.join('csrc', 'k.cu'), 'k.cu']\n",
            &BuildOptions {
                renamed: o
                    .renamed
                    .iter()
                    .map(|(a, b)| (format!("ext/{a}"), format!("ext/{b}")))
                    .collect(),
                ..o.clone()
            },
        );
        assert_eq!(out, "s = [os.path.join('csrc', 'k.hip'), 'k.cu']\n");
    }
    #[test]
    fn jit_builds_in_any_python_file() {
        let o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx942".into()],
            ..Default::default()
        };
        let src = r#"import torch
from torch.utils.cpp_extension import load, load_inline

flags = ["-O3", "--use_fast_math"]
flags.append("--expt-relaxed-constexpr")
ops = load(
    name="ops",
    sources=["ops.cpp", "ops_kernel.cu"],
    extra_cflags=["-O3", "-arch", "x86_64"],
    extra_cuda_cflags=flags + ["-gencode=arch=compute_80,code=sm_80", "-lineinfo"],
)
inline = load_inline(
    "inline", cpp_sources=cpp, cuda_sources=cu,
    extra_cuda_cflags=['--expt-relaxed-constexpr', '-arch=sm_80', '-O2'],
)
computed = load("c", ["c.cu"], extra_cuda_cflags=["-O3", "-arch=sm_" + cc])
other = ["--use_fast_math", "-arch=sm_80"]
print("-gencode is an nvcc flag")
nvcc = "/usr/local/cuda/bin/nvcc"
host_flags = ["--use_fast_math"]
"#;
        let (edits, diags) = translate_build(BuildKind::Python, src.as_bytes(), "jit/ops.py", &o);
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits.clone()).unwrap()).unwrap();
        assert_eq!(
            out,
            src.replace(r#"["-O3", "--use_fast_math"]"#, r#"["-O3", "-ffast-math"]"#)
                .replace("flags.append(\"--expt-relaxed-constexpr\")\n", "")
                .replace(
                    r#"["-gencode=arch=compute_80,code=sm_80", "-lineinfo"]"#,
                    r#"["--offload-arch=gfx90a", "--offload-arch=gfx942"]"#
                )
                .replace(
                    "['--expt-relaxed-constexpr', '-arch=sm_80', '-O2']",
                    "['--offload-arch=gfx90a', '--offload-arch=gfx942', '-O2']"
                )
        );
        let found: Vec<(usize, &str)> = diags.iter().map(|d| (d.line, d.id.as_str())).collect();
        assert_eq!(
            found,
            [
                (4, "B001"),
                (5, "B002"),
                (10, "B009"),
                (10, "B002"),
                (14, "B002"),
                (14, "B009"),
                (16, "B009"),
            ]
        );
        assert!(diags[6].message.contains("not rewritten"), "{:?}", diags[6]);
        // The same lists in a setup.py get the same edits and diagnostics.
        let (setup_edits, setup_diags) =
            translate_build(BuildKind::SetupPy, src.as_bytes(), "jit/setup.py", &o);
        let jit: Vec<_> = edits.iter().map(|e| (e.start, e.end, &e.text)).collect();
        let setup: Vec<_> = setup_edits
            .iter()
            .map(|e| (e.start, e.end, &e.text))
            .collect();
        assert!(jit.iter().all(|e| setup.contains(e)), "{setup:?}");
        assert!(found
            .iter()
            .all(|f| setup_diags.iter().any(|d| (d.line, d.id.as_str()) == *f)));
    }

    #[test]
    fn f_string_fields_do_not_end_the_literal() {
        let strings = |src: &str| -> Vec<String> {
            tokens(src)
                .into_iter()
                .filter_map(|t| match t {
                    Tok::Str { start, end, .. } => Some(src[start..end].to_string()),
                    _ => None,
                })
                .collect()
        };
        let src =
            "a = f\"{x[\"k\"]}-{y:'^9}\" + 'next'\nb = rf'{z['q']!r}' f\"{f\"{f\"{1}\"}\"}\"\n";
        assert_eq!(
            strings(src),
            [
                "f\"{x[\"k\"]}-{y:'^9}\"",
                "'next'",
                "rf'{z['q']!r}'",
                "f\"{f\"{f\"{1}\"}\"}\""
            ]
        );
        // An unclosed field ends with its line in a one-line literal; deep nesting is bounded.
        assert_eq!(strings("a = f\"{x\nb = 'c'\n")[1], "'c'");
        let deep = format!("f\"{}\"\nz = 'ok'\n", "{f\"".repeat(5000));
        assert_eq!(strings(&deep).last().unwrap(), "'ok'");
    }

    #[test]
    fn imports_are_read() {
        let src = "import os, build_utils.lists as lists\nfrom .paths import (A,\n    B as b)\nfrom . import srcs\nfrom sources import CUDA_SOURCES\nx = 'import fake'\ny = yield from z\n";
        let got: Vec<(usize, String, String)> = imports(src)
            .into_iter()
            .map(|i| (i.level, i.module.join("."), i.names.join(",")))
            .collect();
        let want = [
            (0, "os", ""),
            (0, "build_utils.lists", ""),
            (1, "paths", "A,B"),
            (1, "", "srcs"),
            (0, "sources", "CUDA_SOURCES"),
        ];
        let want: Vec<(usize, String, String)> = want
            .iter()
            .map(|(l, m, n)| (*l, m.to_string(), n.to_string()))
            .collect();
        assert_eq!(got, want);
    }

    #[test]
    fn cpp_extension_builds_are_told_by_their_code() {
        let yes = |src: &str| builds_with_cpp_extension(src);
        let setup = "setup(name='e', ext_modules=[CUDAExtension('e', ['k.cu'])], cmdclass={'build_ext': BuildExtension})\n";
        // The usual import, and each other form that reaches the module.
        assert!(yes(&format!(
            "from torch.utils.cpp_extension import BuildExtension, CUDAExtension\n{setup}"
        )));
        assert!(yes(&format!("from torch.utils.cpp_extension import (\n    BuildExtension,\n    CUDAExtension,\n)\n{setup}")));
        assert!(yes(&format!(
            "from torch.utils.cpp_extension import *\n{setup}"
        )));
        assert!(yes("from torch.utils.cpp_extension import CppExtension as Ext\nsetup(ext_modules=[Ext('e', ['e.cpp'])])\n"));
        assert!(yes("import torch.utils.cpp_extension as ce\nsetup(ext_modules=[ce.CUDAExtension('e', ['k.cu'])])\n"));
        assert!(yes("from torch.utils import cpp_extension\nm = cpp_extension.load_inline('m', cpp_sources=[''])\n"));
        assert!(yes(
            "from torch.utils import cpp_extension as cx\nm = cx.load('m', ['k.cu'])\n"
        ));
        assert!(yes(
            "import torch.utils.cpp_extension\nm = torch.utils.cpp_extension.load('m', ['k.cu'])\n"
        ));
        // Commented out, or only in strings: no.
        assert!(!yes(&format!("# from torch.utils.cpp_extension import BuildExtension, CUDAExtension\nfrom setuptools import Extension as CUDAExtension\nBuildExtension = None\n{setup}")));
        assert!(!yes("\"\"\"Builds with torch.utils.cpp_extension's CUDAExtension.\"\"\"\nfrom setuptools import setup\nsetup(name='torch_cpp_extension_demo')\n"));
        assert!(!yes(
            "s = 'from torch.utils.cpp_extension import load'\nload = print\nload(s)\n"
        ));
        // Imported but none of the build names used, or the import not of torch's module.
        assert!(!yes(
            "from torch.utils.cpp_extension import CUDA_HOME\nprint(CUDA_HOME)\n"
        ));
        assert!(!yes(
            "from torch.utils.cpp_extension import BuildExtension\n"
        ));
        assert!(!yes(
            "import torch.utils.cpp_extension as ce\nprint(ce.CUDA_HOME, other.load)\n"
        ));
        assert!(!yes(
            "from mylib.cpp_extension import load\nimport torch\nload('x')\n"
        ));
        assert!(!yes(
            "from torch.utils.cpp_extension import load\nimport json\njson.load(f)\n"
        ));
    }

    #[test]
    fn pathlib_include_dirs_are_read() {
        let src = "from torch.utils.cpp_extension import load\nm = load('m', ['m.cu'], extra_include_paths=[str(HERE / 'csrc' / 'inc'), Path(__file__).parent / 'third', 'a' / 'b'])\n";
        let dirs = crate::buildfiles::include_dirs(BuildKind::Python, src.as_bytes(), "ext/jit.py");
        assert_eq!(dirs, ["ext/csrc/inc", "ext/third"]);
    }

    #[test]
    fn jit_builds_report_cuda_home_and_computed_nvcc_probes() {
        // Megatron's fused_kernels/__init__.py: CUDA_HOME (None on ROCm PyTorch) handed to a
        // probe that runs `cuda_dir + "/bin/nvcc"`, in a file that is no setup.py.
        let src = r#"import os, subprocess
from torch.utils import cpp_extension

def nvcc_major(cuda_dir):
    out = subprocess.check_output([cuda_dir + "/bin/nvcc", "-V"], universal_newlines=True)
    return out

def other(home):
    subprocess.run([os.path.join(home, "bin", "nvcc"), "--version"])
    subprocess.run([os.path.join(home, "bin/nvcc")])
    os.system(home + "/bin/nvcc --version")
    subprocess.run(["echo", home + "/bin/nvcc"])
    nvcc = home + "/bin/nvcc"
    subprocess.run([f"{home}/bin/nvcc", "-V"])
    subprocess.run([home + "/bin/nvcc", "-V"]) if not torch.version.hip else None

def load():
    if nvcc_major(cpp_extension.CUDA_HOME) >= 11:
        pass
    return cpp_extension.load(name="k", sources=["k.cu"])
"#;
        let found = |file: &str, kind: BuildKind, src: &str| -> Vec<(usize, usize)> {
            let (_, diags) = translate_build(kind, src.as_bytes(), file, &BuildOptions::default());
            diags
                .iter()
                .filter(|d| d.id == "B008")
                .map(|d| (d.line, d.column))
                .collect()
        };
        let want = [(5, 36), (9, 21), (10, 21), (11, 15), (14, 21), (18, 33)];
        assert_eq!(
            found("megatron/fused_kernels/__init__.py", BuildKind::Python, src),
            want
        );
        assert_eq!(found("setup.py", BuildKind::SetupPy, src), want);
        // `from ... import CUDA_HOME` without nvcc flags in the file: still a build, still read.
        let plain = "from torch.utils.cpp_extension import CUDA_HOME, load\nif CUDA_HOME:\n    m = load(name='k', sources=['k.cu'])\n";
        assert_eq!(found("ext/build.py", BuildKind::Python, plain), [(2, 4)]);
        // A file that builds nothing is not a build.
        let tool = "import subprocess\nCUDA_HOME = '/usr/local/cuda'\nsubprocess.run([CUDA_HOME + '/bin/nvcc', '-V'])\n";
        assert!(found("tools/info.py", BuildKind::Python, tool).is_empty());
    }

    #[test]
    fn python_files_without_nvcc_flags_are_not_touched() {
        let src = "x = ['--use_fast_math']\ny.append('-gencode=arch=compute_80,code=sm_80')\nCUDA_HOME = None\n";
        let (edits, diags) = translate_build(
            BuildKind::Python,
            src.as_bytes(),
            "a.py",
            &BuildOptions::default(),
        );
        assert!(edits.is_empty() && diags.is_empty(), "{edits:?} {diags:?}");
        let bad = b"# caf\xe9\nflags = ['-O3']\n";
        let (_, diags) = translate_build(BuildKind::Python, bad, "b.py", &BuildOptions::default());
        assert!(diags.is_empty(), "{diags:?}");
    }
    #[test]
    fn arch_flags_hipport_leaves_in_place_are_warnings() {
        use crate::diag::Severity;
        let src = r#"cc_flag = []
for cc in ["80", "90"]:
    cc_flag.append("-gencode")
    cc_flag.append(f"arch=compute_{cc},code=sm_{cc}")
cc_flag.append("-gencode=arch=compute_80,code=sm_80")
arch = "-arch=sm_" + str(cc)
nvcc_flags = ["-O3", "-gencode=arch=compute_90,code=sm_90"]
"#;
        let (out, diags) = run(src, &BuildOptions::default());
        let found: Vec<(usize, &str, Severity)> = diags
            .iter()
            .map(|d| (d.line, d.id.as_str(), d.severity))
            .collect();
        assert_eq!(
            found,
            [
                // R23-i: the flag and its value appended apart: the build fails.
                (3, "B009", Severity::Error),
                (5, "B009", Severity::Warning),
                (6, "B009", Severity::Warning),
                (7, "B009", Severity::Note),
            ]
        );
        assert!(diags[0]
            .message
            .contains("hipcc rejects the flag and reads the value"));
        for d in &diags[1..3] {
            assert!(d.message.contains("hipcc rejects it"), "{}", d.message);
        }
        assert!(diags[1].message.contains("an append() takes one flag"));
        assert!(out.contains("cc_flag.append(\"-gencode\")\n"));
        assert!(out.contains("nvcc_flags = [\"-O3\", \"--offload-arch=gfx90a\", "));
    }

    #[test]
    fn jit_linker_flags_are_rewritten_like_libraries() {
        let src = "from torch.utils.cpp_extension import load\nm = load('m', ['m.cpp'], extra_ldflags=['-lcurand', '-L/usr/local/cuda/lib64', '-lcudart'], extra_cflags=['-lcudart'])\nn = load('n', ['n.cpp'], extra_ldflags=[\n    '-lcudart',\n    '-lm',\n])\n";
        let (mut edits, diags) = translate_build(
            BuildKind::Python,
            src.as_bytes(),
            "jit.py",
            &BuildOptions::default(),
        );
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
        assert_eq!(
            out,
            src.replace(
                "['-lcurand', '-L/usr/local/cuda/lib64', '-lcudart']",
                "['-lhiprand']"
            )
            .replace("\n    '-lcudart',\n", "\n")
        );
        let ids: Vec<(usize, &str)> = diags.iter().map(|d| (d.line, d.id.as_str())).collect();
        assert_eq!(ids, [(2, "B004"), (2, "B006"), (2, "B004"), (4, "B004")]);
    }

    #[test]
    fn load_inline_strings_are_left_to_the_inline_pass() {
        // Their CUDA is translated by `translate_inline_sources`, which the driver runs on
        // every Python file; the build-file pass neither edits nor reports them.
        let src = "from torch.utils.cpp_extension import load_inline\ncuda_src = '__global__ void k() { __syncwarp(); }'\nm = load_inline('m', cpp_sources='', cuda_sources=cuda_src)\n";
        let (out, diags) = run(src, &BuildOptions::default());
        assert_eq!(out, src);
        assert!(diags.is_empty(), "{diags:?}");
        let inline = crate::buildfiles::translate_inline_sources(
            src.as_bytes(),
            "ext/setup.py",
            &crate::translate::Options::default(),
        );
        let removed: Vec<&str> = inline.edits.iter().map(|e| &src[e.start..e.end]).collect();
        assert_eq!(removed, ["__syncwarp()"], "{:?}", inline.edits);
    }

    #[test]
    fn lists_added_to_an_arch_list_do_not_repeat_the_targets() {
        let o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx942".into()],
            ..Default::default()
        };
        let src = "from torch.utils.cpp_extension import load\nextra_cuda_cflags = [\"-O3\", \"-arch=sm_80\"]\nif cuda12:\n    extra_cuda_cflags += [\"-gencode\", \"arch=compute_90a,code=sm_90a\"]\n    extra_cuda_cflags.extend([\"-gencode=arch=compute_90,code=sm_90\", \"-lineinfo\"])\nnvcc_extra = [\"-O2\"]\nnvcc_extra += [\"-arch=sm_80\"]\nm = load(\"m\", [\"m.cu\"], extra_cuda_cflags=extra_cuda_cflags)\n";
        let (mut edits, diags) = translate_build(BuildKind::Python, src.as_bytes(), "jit.py", &o);
        let out = String::from_utf8(apply(src.as_bytes(), &mut edits).unwrap()).unwrap();
        assert_eq!(
            out,
            "from torch.utils.cpp_extension import load\nextra_cuda_cflags = [\"-O3\", \"--offload-arch=gfx90a\", \"--offload-arch=gfx942\"]\nif cuda12:\n    extra_cuda_cflags += []\n    extra_cuda_cflags.extend([])\nnvcc_extra = [\"-O2\"]\nnvcc_extra += [\"--offload-arch=gfx90a\", \"--offload-arch=gfx942\"]\nm = load(\"m\", [\"m.cu\"], extra_cuda_cflags=extra_cuda_cflags)\n"
        );
        assert!(diags
            .iter()
            .any(|d| d.id == "B009" && d.line == 4 && d.message.contains("removed")));
        let (again, _) = translate_build(BuildKind::Python, out.as_bytes(), "jit.py", &o);
        assert!(again.is_empty(), "{again:?}");
    }
    #[test]
    fn a_list_added_to_nvcc_flags_is_one_of_nvcc_flags() {
        // apex's `append_nvcc_threads`: what `nvcc_args + [...]` adds reaches nvcc, and the
        // list it is added to already has the HIP 6.2 define.
        let o = BuildOptions {
            warp_sync_define: true,
            ..BuildOptions::default()
        };
        let src = "nvcc_args = [\"-O3\"]\ndef more(nvcc_args, n):\n    return nvcc_args + [\"--use_fast_math\", \"--threads\", n]\nother = flags + [\"-t\", n]\n";
        let (out, diags) = run(src, &o);
        assert_eq!(
            out,
            "nvcc_args = [\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\", \"-O3\"]\ndef more(nvcc_args, n):\n    return nvcc_args + [\"-ffast-math\"]\nother = flags + [\"-t\", n]\n"
        );
        let ids: Vec<(usize, &str)> = diags.iter().map(|d| (d.line, d.id.as_str())).collect();
        // The linker's `-t` in a list that is not nvcc's takes no count: it stays.
        assert_eq!(ids, [(1, "B011"), (3, "B001"), (3, "B002")], "{diags:#?}");
        assert_eq!(diags[2].message, "nvcc flag `--threads n` dropped");
    }

    #[test]
    fn warp_sync_builtins_are_told_by_their_names() {
        for (text, named) in [
            ("v = __shfl_xor_sync(m, v, 1);", true),
            ("unsigned b = __ballot_sync (m, p);", true),
            ("__syncwarp();", true),
            ("namespace cg = cooperative_groups;", true),
            ("__syncthreads(); cudaDeviceSynchronize();", false),
            ("int my_sync = 0; bool _sync; x.do_sync();", false),
            ("__shfl_xor_sync_like(v);", false),
        ] {
            assert_eq!(warp_sync_named(text.as_bytes()), named, "{text}");
        }
    }

    /// The fuzz find of fuzzb-s35b: a `\` that joins a list's lines (`...sm_70', \`) is blank,
    /// so every pair of the list is rewritten in the first run, in LF and CRLF files alike.
    #[test]
    fn a_line_joining_backslash_inside_a_gencode_list_is_blank() {
        for eol in ["\n", "\r\n"] {
            let src = format!("nvcc_args = [{eol}    '-gencode', 'arch=compute_60,code=sm_60',{eol}    '-gencode', 'arch=compute_70,code=sm_70', \\{eol}    '-gencode', 'arch=compute_75,code=sm_75'{eol}]{eol}m = load(name='m', sources=['k.cu'], extra_cuda_cflags=nvcc_args){eol}");
            let o = BuildOptions {
                offload_arch: vec!["gfx90a".into(), "gfx1030".into()],
                ..Default::default()
            };
            let (out, _) = run(&src, &o);
            assert!(!out.contains("-gencode"), "{out}");
            assert_eq!(out.matches("--offload-arch=gfx90a").count(), 1, "{out}");
            assert_eq!(run(&out, &o).0, out);
        }
    }

    /// R20-2, R20-3: the `-gencode` pairs of one list, one a line, become the targets on the
    /// first line; the lines the others leave empty go whole (no line of blanks, which
    /// `git apply --whitespace=error` refuses), and the list gets one note naming them all.
    #[test]
    fn a_gencode_list_becomes_the_targets_with_one_note_and_no_blank_lines() {
        let o = BuildOptions {
            offload_arch: vec!["gfx90a".into(), "gfx1030".into()],
            ..Default::default()
        };
        let src = "nvcc_args = [\n    '-gencode', 'arch=compute_60,code=sm_60',\n    '-gencode', 'arch=compute_70,code=sm_70',\r\n    '-gencode', 'arch=compute_75,code=sm_75'\n]\nargs = ['-O2',\n        '-gencode', 'arch=compute_80,code=sm_80',  # A100\n        '-lineinfo']\nsetup(ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': nvcc_args + args})])\n";
        let (out, diags) = run(src, &o);
        assert_eq!(
            out,
            "nvcc_args = [\n    '--offload-arch=gfx90a', '--offload-arch=gfx1030',\n]\nargs = ['-O2',\n        '--offload-arch=gfx90a', '--offload-arch=gfx1030',  # A100\n        ]\nsetup(ext_modules=[CUDAExtension('k', ['k.cu'], extra_compile_args={'nvcc': nvcc_args + args})])\n"
        );
        let arch: Vec<_> = diags.iter().filter(|d| d.id == "B009").collect();
        assert_eq!(arch.len(), 2, "{diags:?}");
        assert_eq!(arch[0].line, 2);
        assert_eq!(
            arch[0].message,
            "3 nvcc architecture flags (lines 2-4): `-gencode arch=compute_60,code=sm_60`, `-gencode arch=compute_70,code=sm_70`, `-gencode arch=compute_75,code=sm_75` -> `--offload-arch=gfx90a --offload-arch=gfx1030`"
        );
        assert_eq!(run(&out, &o).0, out);
    }

    #[test]
    fn hip_6_2_nvcc_lists_define_the_warp_sync_builtins() {
        let o = BuildOptions {
            offload_arch: vec!["gfx90a".into()],
            warp_sync_define: true,
            ..Default::default()
        };
        let src = "from torch.utils.cpp_extension import CUDAExtension, load\nnvcc_flags = [\n    \"-O3\",\n    \"--expt-relaxed-constexpr\",\n]\nnvcc_flags += [\"-lineinfo\"]\next = CUDAExtension(\"e\", [\"e.cu\"], extra_compile_args={\"cxx\": [\"-O3\"], \"nvcc\": nvcc_flags})\nm = load(\"m\", [\"m.cu\"], extra_cuda_cflags=['--expt-relaxed-constexpr'])\nk = load(\"k\", [\"k.cu\"], extra_cuda_cflags=[\"-O2\", \"-lineinfo\"])\n";
        let (out, diags) = run(src, &o);
        assert_eq!(
            out,
            "from torch.utils.cpp_extension import CUDAExtension, load\nnvcc_flags = [\n    \"-DHIP_ENABLE_WARP_SYNC_BUILTINS\",\n    \"-O3\",\n]\nnvcc_flags += []\next = CUDAExtension(\"e\", [\"e.cu\"], extra_compile_args={\"cxx\": [\"-O3\"], \"nvcc\": nvcc_flags})\nm = load(\"m\", [\"m.cu\"], extra_cuda_cflags=['-DHIP_ENABLE_WARP_SYNC_BUILTINS'])\nk = load(\"k\", [\"k.cu\"], extra_cuda_cflags=[\"-DHIP_ENABLE_WARP_SYNC_BUILTINS\", \"-O2\"])\n"
        );
        let added: Vec<usize> = diags
            .iter()
            .filter(|d| d.id == "B011" && d.message.contains("HIP_ENABLE_WARP_SYNC_BUILTINS"))
            .map(|d| d.line)
            .collect();
        assert_eq!(added, [2, 8, 9]);
        // The host compiler's list does not get it, and a second run adds nothing.
        let (again, _) = run(&out, &o);
        assert_eq!(again, out);
        // Other HIP versions leave the lists without it.
        let (plain, _) = run(src, &BuildOptions::default());
        assert!(!plain.contains("WARP_SYNC"), "{plain}");
    }
}
