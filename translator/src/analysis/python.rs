//! Python checks (PyTorch code next to CUDA extensions): `torch.cuda.profiler`,
//! `torch.cuda.nvtx` and `torch.version.cuda`.
//!
//! A textual pass: strings and comments are blanked first (keeping offsets), then module paths
//! and their import aliases are matched on identifier boundaries. For `torch.version.cuda` the
//! statements and blocks are read from indentation, to tell a test that refuses ROCm from one
//! that only picks a branch, and uses that a `torch.version.hip` test has already decided.

use std::collections::HashSet;

use super::catalog::{TORCH_NVTX, TORCH_PROFILER, TORCH_VERSION_CUDA};
use crate::diag::{DiagInfo, Diagnostic, LineIndex, Severity};

/// Analyzes one Python file.
pub fn analyze_python(src: &[u8], file: &str) -> Vec<Diagnostic> {
    let code = blank_strings_and_comments(src);
    let index = LineIndex::new(src);
    let mut out = Vec::new();
    let mut report = |info: &DiagInfo, sev: Severity, at: usize, msg: String, help: &str| {
        let mut d = Diagnostic::at(info, file, &index, at, msg, Some(help.to_string()));
        d.severity = sev;
        out.push(d);
    };

    // Import aliases.
    let mut profiler_mods: HashSet<String> = HashSet::from(["torch.cuda.profiler".to_string()]);
    let mut profiler_funcs: HashSet<String> = HashSet::new();
    let mut nvtx_mods: HashSet<String> = HashSet::from(["torch.cuda.nvtx".to_string()]);
    for line in code.split(|&b| b == b'\n') {
        let line = String::from_utf8_lossy(line);
        let words: Vec<&str> = line
            .split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')')
            .filter(|w| !w.is_empty())
            .collect();
        match words.as_slice() {
            ["import", module, "as", alias, ..] => {
                if *module == "torch.cuda.profiler" {
                    profiler_mods.insert(alias.to_string());
                } else if *module == "torch.cuda.nvtx" {
                    nvtx_mods.insert(alias.to_string());
                }
            }
            ["from", "torch.cuda", "import", rest @ ..] => {
                let mut i = 0;
                while i < rest.len() {
                    let name = rest[i];
                    let alias = if rest.get(i + 1) == Some(&"as") {
                        i += 2;
                        rest.get(i).copied().unwrap_or(name)
                    } else {
                        name
                    };
                    match name {
                        "profiler" => {
                            profiler_mods.insert(alias.to_string());
                        }
                        "nvtx" => {
                            nvtx_mods.insert(alias.to_string());
                        }
                        _ => {}
                    }
                    i += 1;
                }
            }
            ["from", "torch.cuda.profiler", "import", rest @ ..] => {
                let mut i = 0;
                while i < rest.len() {
                    let name = rest[i];
                    let alias = if rest.get(i + 1) == Some(&"as") {
                        i += 2;
                        rest.get(i).copied().unwrap_or(name)
                    } else {
                        name
                    };
                    if matches!(name, "start" | "stop" | "profile") {
                        profiler_funcs.insert(alias.to_string());
                    }
                    i += 1;
                }
            }
            _ => {}
        }
    }

    // Uses.
    for m in &profiler_mods {
        for f in ["start", "stop", "profile"] {
            for at in find_calls(&code, &format!("{m}.{f}")) {
                report(
                    &TORCH_PROFILER,
                    Severity::Error,
                    at,
                    format!("`{m}.{f}()` calls hipProfilerStart/Stop on ROCm, which return hipErrorNotSupported, so PyTorch raises"),
                    "skip it on ROCm (`if torch.version.hip is None`), or use torch.profiler / rocprof range selection",
                );
            }
        }
    }
    for f in &profiler_funcs {
        for at in find_calls(&code, f) {
            report(
                &TORCH_PROFILER,
                Severity::Error,
                at,
                format!("`{f}()` from torch.cuda.profiler calls hipProfilerStart/Stop on ROCm, which return hipErrorNotSupported, so PyTorch raises"),
                "skip it on ROCm (`if torch.version.hip is None`), or use torch.profiler / rocprof range selection",
            );
        }
    }
    for at in find_calls(&code, "torch.cuda.cudart().cudaProfilerStart")
        .into_iter()
        .chain(find_calls(&code, "torch.cuda.cudart().cudaProfilerStop"))
    {
        report(
            &TORCH_PROFILER,
            Severity::Error,
            at,
            "`torch.cuda.cudart().cudaProfiler*()` maps to hipProfilerStart/Stop on ROCm, which return hipErrorNotSupported".into(),
            "skip it on ROCm (`if torch.version.hip is None`)",
        );
    }
    let mut nvtx_seen = false;
    for m in &nvtx_mods {
        for at in find_attr_uses(&code, m) {
            if nvtx_seen {
                break;
            }
            nvtx_seen = true;
            report(
                &TORCH_NVTX,
                Severity::Note,
                at,
                format!("`{m}` ranges are emitted as rocTX markers on ROCm: they show in rocprof traces with marker tracing, not in Nsight"),
                "profile with rocprofv3 --marker-trace (or rocprof --roctx-trace) instead of nsys",
            );
        }
    }
    let uses = find_word(&code, "torch.version.cuda");
    // The statement structure is read only for files that use it.
    let flow = Flow::new(if uses.is_empty() { &[] } else { &code });
    for at in uses {
        match flow.version_cuda(at) {
            CudaVersionUse::Decided => {}
            CudaVersionUse::Value => report(
                &TORCH_VERSION_CUDA,
                Severity::Warning,
                at,
                "`torch.version.cuda` is None on ROCm builds of PyTorch".into(),
                "test torch.cuda.is_available() for a GPU and torch.version.hip for ROCm",
            ),
            CudaVersionUse::Assert => report(
                &TORCH_VERSION_CUDA,
                Severity::Warning,
                at,
                "`assert torch.version.cuda is not None` fails on ROCm builds of PyTorch, where torch.version.cuda is None".into(),
                "accept ROCm too (`... is not None or torch.version.hip is not None`), or assert torch.cuda.is_available()",
            ),
            CudaVersionUse::Refuses { what, in_else: false } => report(
                &TORCH_VERSION_CUDA,
                Severity::Warning,
                at,
                format!("`torch.version.cuda` is None on ROCm builds of PyTorch, so this branch {what} there"),
                "let ROCm through: test torch.version.hip as well (`torch.version.cuda is None and torch.version.hip is None`), or torch.cuda.is_available() for a GPU",
            ),
            CudaVersionUse::Refuses { what, in_else: true } => report(
                &TORCH_VERSION_CUDA,
                Severity::Warning,
                at,
                format!("`torch.version.cuda` is None on ROCm builds of PyTorch, so the `else` branch of this test {what} there"),
                "handle ROCm before the `else`: `elif torch.version.hip is not None:`",
            ),
            CudaVersionUse::Skip => report(
                &TORCH_VERSION_CUDA,
                Severity::Warning,
                at,
                "`torch.version.cuda` is None on ROCm builds of PyTorch, so this condition skips the test there".into(),
                "skip on `torch.version.cuda is None and torch.version.hip is None`, or on `not torch.cuda.is_available()`",
            ),
        }
    }
    out.sort_by_key(|d| d.offset);
    out
}

/// Replaces string literal contents and comments with spaces, keeping newlines and offsets.
fn blank_strings_and_comments(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let mut i = 0;
    while i < src.len() {
        match src[i] {
            b'#' => {
                while i < src.len() && src[i] != b'\n' {
                    out[i] = b' ';
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                let triple = src.get(i..i + 3) == Some(&[q, q, q][..]);
                let open = if triple { 3 } else { 1 };
                i += open;
                while i < src.len() {
                    if src[i] == b'\\' {
                        out[i] = b' ';
                        if i + 1 < src.len() && src[i + 1] != b'\n' {
                            out[i + 1] = b' ';
                        }
                        i += 2;
                        continue;
                    }
                    if triple {
                        if src.get(i..i + 3) == Some(&[q, q, q][..]) {
                            i += 3;
                            break;
                        }
                    } else if src[i] == q {
                        i += 1;
                        break;
                    } else if src[i] == b'\n' {
                        break; // unterminated
                    }
                    if src[i] != b'\n' {
                        out[i] = b' ';
                    }
                    i += 1;
                }
            }
            _ => i += 1,
        }
    }
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Offsets where `word` occurs on identifier boundaries (a `.` before it counts as a boundary
/// only when `word` is not itself an attribute of something else).
fn find_word(code: &[u8], word: &str) -> Vec<usize> {
    let w = word.as_bytes();
    let mut out = Vec::new();
    if w.is_empty() || code.len() < w.len() {
        return out;
    }
    for i in 0..=code.len() - w.len() {
        if &code[i..i + w.len()] != w {
            continue;
        }
        let before_ok = i == 0 || !(is_ident(code[i - 1]) || code[i - 1] == b'.');
        let after_ok = code.get(i + w.len()).is_none_or(|&b| !is_ident(b));
        if before_ok && after_ok {
            out.push(i);
        }
    }
    out
}

/// Offsets of `path(` (a call, blanks allowed before the parenthesis).
fn find_calls(code: &[u8], path: &str) -> Vec<usize> {
    find_word(code, path)
        .into_iter()
        .filter(|&i| {
            let mut j = i + path.len();
            while j < code.len() && code[j] == b' ' {
                j += 1;
            }
            code.get(j) == Some(&b'(')
        })
        .collect()
}

/// Offsets of `module.attr` uses.
fn find_attr_uses(code: &[u8], module: &str) -> Vec<usize> {
    find_word(code, module)
        .into_iter()
        .filter(|&i| code.get(i + module.len()) == Some(&b'.'))
        .collect()
}

/// How one `torch.version.cuda` is used, as far as ROCm builds (where it is None) are concerned.
#[derive(Debug, PartialEq, Eq)]
enum CudaVersionUse {
    /// Its value is used (parsed, tested for truth): wrong on ROCm.
    Value,
    /// `assert torch.version.cuda is not None`: fails on ROCm.
    Assert,
    /// A test skipped on `torch.version.cuda is None` (`pytest.mark.skipif`, `unittest.skipIf`).
    Skip,
    /// An `is None` / `is not None` test whose ROCm branch refuses or skips (`what` says how).
    Refuses {
        /// "raises", "exits", "returns early", "skips", ...
        what: &'static str,
        /// The refusal is in the `else` branch of an `is not None` test.
        in_else: bool,
    },
    /// Used where ROCm is told apart (a `torch.version.hip` test decides the branch), or an
    /// `is None` test that does not refuse ROCm.
    Decided,
}

/// One logical line of the blanked code: physical lines joined inside brackets, strings and
/// after a backslash.
#[derive(Debug, Clone, Copy)]
struct Stmt {
    /// Offset of its first non-blank byte.
    start: usize,
    /// Offset after its last non-blank byte.
    end: usize,
    /// Bytes of leading whitespace on its first line.
    indent: usize,
}

/// The statement structure of a Python file, read from indentation (enough to find the
/// `if`/`elif`/`else` chain and the block around a use).
struct Flow<'a> {
    code: &'a [u8],
    stmts: Vec<Stmt>,
    /// Names that stand for a ROCm test: `IS_HIP_EXTENSION`, and names assigned an expression
    /// that reads `torch.version.hip`.
    hip_names: Vec<String>,
}

impl<'a> Flow<'a> {
    fn new(code: &'a [u8]) -> Flow<'a> {
        let stmts = statements(code);
        let mut flow = Flow {
            code,
            stmts,
            hip_names: vec!["IS_HIP_EXTENSION".to_string()],
        };
        // In file order: a name assigned from an earlier one (`b = a`) stands for a test too.
        for k in 0..flow.stmts.len() {
            if let Some((name, value)) = assignment(flow.text(k)) {
                if flow.mentions_hip(value) {
                    flow.hip_names
                        .push(String::from_utf8_lossy(name).into_owned());
                }
            }
        }
        flow
    }

    /// The statements `NAME = VALUE` (not `==`), in file order: each name and value.
    fn assignments(&self) -> impl Iterator<Item = (&'a [u8], &'a [u8])> + '_ {
        (0..self.stmts.len()).filter_map(|k| assignment(self.text(k)))
    }

    fn text(&self, k: usize) -> &'a [u8] {
        &self.code[self.stmts[k].start..self.stmts[k].end]
    }

    /// The statement holding offset `at`.
    fn stmt_at(&self, at: usize) -> Option<usize> {
        let k = self
            .stmts
            .partition_point(|s| s.start <= at)
            .checked_sub(1)?;
        (at < self.stmts[k].end).then_some(k)
    }

    /// The statement's first word (`if`, `elif`, `else`, `assert`, ...).
    fn keyword(&self, k: usize) -> &'a [u8] {
        let t = self.text(k);
        &t[..t.iter().take_while(|&&b| is_ident(b)).count()]
    }

    /// For a compound statement: the offsets of its condition (after the keyword, up to the
    /// colon that ends the header) and of the colon.
    fn header(&self, k: usize) -> Option<(std::ops::Range<usize>, usize)> {
        let s = self.stmts[k];
        let from = s.start + self.keyword(k).len();
        let mut depth = 0i32;
        for i in from..s.end {
            match self.code[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth -= 1,
                b':' if depth == 0 && self.code.get(i + 1) != Some(&b'=') => {
                    return Some((from..i, i));
                }
                _ => {}
            }
        }
        None
    }

    /// The condition of an `if`/`elif`/`while` header.
    fn condition(&self, k: usize) -> Option<&'a [u8]> {
        if !matches!(self.keyword(k), b"if" | b"elif" | b"while") {
            return None;
        }
        self.header(k).map(|(r, _)| &self.code[r])
    }

    /// Whether code reads `torch.version.hip` or a name that stands for it.
    fn mentions_hip(&self, text: &[u8]) -> bool {
        !find_word(text, "torch.version.hip").is_empty()
            || self
                .hip_names
                .iter()
                .any(|n| !find_word(text, n).is_empty())
    }

    fn condition_tests_hip(&self, k: usize) -> bool {
        self.condition(k).is_some_and(|c| self.mentions_hip(c))
    }

    /// The block header that statement `k` is in.
    fn parent(&self, k: usize) -> Option<usize> {
        let indent = self.stmts[k].indent;
        (0..k).rev().find(|&p| self.stmts[p].indent < indent)
    }

    /// The other members of the `if`/`elif`/`else` chain that `k` belongs to: those before it
    /// (nearest first) or after it.
    fn chain(&self, k: usize, before: bool) -> Vec<usize> {
        let indent = self.stmts[k].indent;
        let mut out = Vec::new();
        if before {
            if !matches!(self.keyword(k), b"elif" | b"else") {
                return out;
            }
            for p in (0..k).rev() {
                let s = self.stmts[p];
                if s.indent > indent {
                    continue;
                }
                if s.indent < indent {
                    break;
                }
                match self.keyword(p) {
                    b"elif" => out.push(p),
                    b"if" => {
                        out.push(p);
                        break;
                    }
                    _ => {
                        out.clear(); // an `else` of a `for`, `while` or `try`
                        break;
                    }
                }
            }
        } else {
            for p in k + 1..self.stmts.len() {
                let s = self.stmts[p];
                if s.indent > indent {
                    continue;
                }
                if s.indent < indent || !matches!(self.keyword(p), b"elif" | b"else") {
                    break;
                }
                out.push(p);
            }
        }
        out
    }

    /// Whether the condition of header `k` lets its body run only where `torch.version.cuda` is
    /// set (`if torch.version.cuda:`, `if torch.version.cuda is not None:`).
    fn condition_needs_cuda(&self, k: usize) -> bool {
        self.condition(k).is_some_and(|c| {
            find_word(c, "torch.version.cuda").into_iter().any(|i| {
                let tail = c[i + "torch.version.cuda".len()..].trim_ascii_start();
                !starts_with_words(tail, &[b"is", b"None"])
            })
        })
    }

    /// Whether statement `k` runs only after a test chose its branch with ROCm in mind: a
    /// `torch.version.hip` test in the same statement, in the header of a block around it or in
    /// an earlier condition of an `if`/`elif`/`else` chain it is in; or a block around it that
    /// runs only where `torch.version.cuda` is set (that test is judged where it is).
    fn decided(&self, k: usize) -> bool {
        if self.mentions_hip(self.text(k)) {
            return true;
        }
        let mut c = k;
        loop {
            if self
                .chain(c, true)
                .into_iter()
                .any(|p| self.condition_tests_hip(p))
            {
                return true;
            }
            let Some(p) = self.parent(c) else {
                return false;
            };
            if self.condition_tests_hip(p) || self.condition_needs_cuda(p) {
                return true;
            }
            c = p;
        }
    }

    /// How the first refusing statement of the body of header `k` refuses, if one does.
    fn body_refuses(&self, k: usize) -> Option<&'static str> {
        let (_, colon) = self.header(k)?;
        let inline = self.code[colon + 1..self.stmts[k].end].trim_ascii();
        if !inline.is_empty() {
            return refusal(inline);
        }
        let indent = self.stmts[k].indent;
        let body = self.stmts.get(k + 1).filter(|s| s.indent > indent)?.indent;
        self.stmts[k + 1..]
            .iter()
            .enumerate()
            .take_while(|(_, s)| s.indent > indent)
            .filter(|(_, s)| s.indent == body)
            .find_map(|(j, _)| refusal(self.text(k + 1 + j)))
    }

    /// Classifies the `torch.version.cuda` at `at`.
    fn version_cuda(&self, at: usize) -> CudaVersionUse {
        let Some(k) = self.stmt_at(at) else {
            return CudaVersionUse::Value;
        };
        if self.decided(k) {
            return CudaVersionUse::Decided;
        }
        let end = self.stmts[k].end;
        let tail = self.code[at + "torch.version.cuda".len()..end].trim_ascii_start();
        let test_is_none = starts_with_words(tail, &[b"is", b"None"]);
        let test_not_none = starts_with_words(tail, &[b"is", b"not", b"None"]);
        if !test_is_none && !test_not_none {
            // A value read or a truth test: a later `elif torch.version.hip` may still take ROCm.
            let in_condition =
                self.condition(k).is_some() && self.header(k).is_some_and(|(r, _)| r.contains(&at));
            if in_condition
                && self
                    .chain(k, false)
                    .into_iter()
                    .any(|p| self.condition_tests_hip(p))
            {
                return CudaVersionUse::Decided;
            }
            return CudaVersionUse::Value;
        }
        let before = self.code[self.stmts[k].start..at].trim_ascii_end();
        // `@pytest.mark.skipif(torch.version.cuda is None, ...)`, `unittest.skipIf(...)`,
        // `unittest.skipUnless(torch.version.cuda is not None, ...)`.
        if (test_is_none && (before.ends_with(b"skipif(") || before.ends_with(b"skipIf(")))
            || (test_not_none && before.ends_with(b"skipUnless("))
        {
            return CudaVersionUse::Skip;
        }
        let kw = self.keyword(k);
        if kw == b"assert" {
            let cond = top_level_until(self.text(k), b',');
            if test_not_none && !has_top_level_word(cond, b"or") {
                return CudaVersionUse::Assert;
            }
            return CudaVersionUse::Decided;
        }
        let Some((cond, _)) = self.header(k).filter(|(r, _)| r.contains(&at)) else {
            return CudaVersionUse::Decided; // a value kept for later (`is_rocm = ... is None`)
        };
        if !matches!(kw, b"if" | b"elif") || has_word(&self.code[cond.start..at], b"not") {
            return CudaVersionUse::Decided;
        }
        let cond = &self.code[cond];
        if test_is_none && !has_top_level_word(cond, b"and") {
            if let Some(what) = self.body_refuses(k) {
                return CudaVersionUse::Refuses {
                    what,
                    in_else: false,
                };
            }
        }
        if test_not_none && !has_top_level_word(cond, b"or") {
            let later = self.chain(k, false);
            if !later.iter().any(|&p| self.condition_tests_hip(p)) {
                if let Some(what) = later
                    .iter()
                    .find(|&&p| self.keyword(p) == b"else")
                    .and_then(|&p| self.body_refuses(p))
                {
                    return CudaVersionUse::Refuses {
                        what,
                        in_else: true,
                    };
                }
            }
        }
        CudaVersionUse::Decided
    }
}

/// Which build a condition's truth picks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Side {
    /// True exactly on ROCm PyTorch (`torch.version.hip`, `HIP_BUILD = bool(torch.version.hip)`).
    Rocm,
    /// True exactly on CUDA PyTorch (`not torch.version.hip`, `torch.version.hip is None`).
    Cuda,
}

impl Side {
    fn flip(self) -> Side {
        match self {
            Side::Rocm => Side::Cuda,
            Side::Cuda => Side::Rocm,
        }
    }
}

/// Strips blanks and the brackets around a whole expression.
fn unwrap_parens(mut t: &[u8]) -> &[u8] {
    loop {
        t = t.trim_ascii();
        if t.first() == Some(&b'(') && t.last() == Some(&b')') {
            // Only when the first bracket closes at the end.
            let mut depth = 0i32;
            let closes_at_end = t.iter().enumerate().all(|(i, &b)| {
                match b {
                    b'(' | b'[' | b'{' => depth += 1,
                    b')' | b']' | b'}' => depth -= 1,
                    _ => {}
                }
                depth > 0 || i == t.len() - 1
            });
            if closes_at_end {
                t = &t[1..t.len() - 1];
                continue;
            }
        }
        return t;
    }
}

/// Which build the truth of condition `cond` (blanked code) picks, when it is exactly a ROCm
/// test: `torch.version.hip` (or `torch.version.cuda`, or a name assigned such a test) alone,
/// negated with `not`, compared with `None`, or wrapped in `bool(...)` or `True if ... else
/// False`. `names` are such names with their side. A condition that also tests something else
/// (`torch.version.hip and args.fast`) picks no build.
fn side_of(cond: &[u8], names: &[(String, Side)]) -> Option<Side> {
    let t = unwrap_parens(cond);
    if let Some(rest) = t.strip_prefix(b"not") {
        if rest.first().is_some_and(|&b| !is_ident(b)) {
            return side_of(rest, names).map(Side::flip);
        }
    }
    if let Some(inner) = t.strip_prefix(b"bool(").and_then(|r| r.strip_suffix(b")")) {
        return side_of(inner, names);
    }
    if has_top_level_word(t, b"or") {
        // `os.getenv("CUDA_VERSION") or torch.version.cuda` (AutoAWQ): an environment variable a
        // user sets to force the build, beside one exact test, is that test's side.
        let parts = split_top_level(t, b"or");
        let env = |c: &[u8]| {
            let c = unwrap_parens(c);
            [&b"os.getenv("[..], b"os.environ.get(", b"os.environ["]
                .iter()
                .any(|p| c.starts_with(p))
        };
        let sides: Vec<Option<Side>> = parts
            .iter()
            .filter(|c| !env(c))
            .map(|c| side_of(c, names))
            .collect();
        return match sides[..] {
            [Some(side)] if parts.len() > 1 => Some(side),
            _ => None,
        };
    }
    if has_top_level_word(t, b"and") {
        // `torch.version.hip is not None and ROCM_HOME is not None`: what every ROCm build that
        // can compile an extension has set up decides nothing; anything else tested beside
        // the build does.
        let rest: Vec<&[u8]> = split_top_level(t, b"and")
            .into_iter()
            .filter(|c| !rocm_set_up(c))
            .collect();
        return match rest[..] {
            [c] if !has_top_level_word(c, b"and") => side_of(c, names).filter(|s| *s == Side::Rocm),
            _ => None,
        };
    }
    // `True if C else False`.
    let ternary = t
        .strip_prefix(b"True")
        .and_then(|r| r.strip_prefix(b" if "))
        .and_then(|r| r.strip_suffix(b"False"))
        .and_then(|r| r.trim_ascii_end().strip_suffix(b" else"));
    if let Some(c) = ternary {
        return side_of(c, names);
    }
    // `X is not None`, `X is None`, `X != None`, `X == None`.
    for (op, keep) in [
        (&b" is not None"[..], true),
        (b" != None", true),
        (b" is None", false),
        (b" == None", false),
    ] {
        if let Some(x) = t.strip_suffix(op) {
            return side_of(x, names).map(|s| if keep { s } else { s.flip() });
        }
    }
    match t {
        b"torch.version.hip" | b"IS_HIP_EXTENSION" => Some(Side::Rocm),
        b"torch.version.cuda" => Some(Side::Cuda),
        _ => names
            .iter()
            .find(|(n, _)| n.as_bytes() == t)
            .map(|&(_, side)| side),
    }
}

/// Whether condition `c` holds on every ROCm build of PyTorch that can compile an extension:
/// `ROCM_HOME is not None` (also `!= None`, `bool(ROCM_HOME)`, `ROCM_HOME` alone), which
/// `torch.utils.cpp_extension` sets from the ROCm installation it builds with.
fn rocm_set_up(c: &[u8]) -> bool {
    let t = unwrap_parens(c);
    let t = t
        .strip_prefix(b"bool(")
        .and_then(|r| r.strip_suffix(b")"))
        .map_or(t, unwrap_parens);
    let t = t
        .strip_suffix(b" is not None")
        .or_else(|| t.strip_suffix(b" != None"))
        .map_or(t, unwrap_parens);
    t == b"ROCM_HOME"
        || t == b"cpp_extension.ROCM_HOME"
        || t == b"torch.utils.cpp_extension.ROCM_HOME"
}

/// A part of a Python file that runs only on CUDA builds of PyTorch (see [`cuda_only_spans`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct CudaOnly {
    /// The byte range of the code.
    pub range: std::ops::Range<usize>,
    /// The offset of the header of the test that sends ROCm elsewhere.
    pub decided_at: usize,
    /// For a function all of whose uses are in such parts: its name, the offset of its `def`,
    /// and the offsets of those uses.
    pub helper: Option<(String, usize, Vec<usize>)>,
}

/// The parts of a Python file that run only on CUDA builds of PyTorch: the body of an `if`/`elif`
/// whose condition is true exactly on CUDA (`if not torch.version.hip:`, `if torch.version.hip is
/// None:`, `if not HIP_BUILD:` where `HIP_BUILD = bool(torch.version.hip)`), and each later
/// `elif`/`else` of a chain with a condition true exactly on ROCm (`if torch.version.hip: ...
/// else: <here>`). Each part is a byte range of the body with the offset of the header that
/// decides it. Conditions that test anything else as well decide nothing.
///
/// With `helpers`, also the bodies (header included) of the file's top-level functions whose
/// every use is in such a part (R49-b: causal-conv1d's `get_cuda_bare_metal_version`, called
/// only in the `else:` of `if HIP_BUILD:`); a function used only from such functions counts too. A function that is not used in the file, or that
/// is decorated (the decorator may register it), is not one.
pub(crate) fn cuda_only_spans(src: &[u8], helpers: bool) -> Vec<CudaOnly> {
    let mut out: Vec<CudaOnly> = cuda_only_chains(src)
        .into_iter()
        .map(|(range, decided_at)| CudaOnly {
            range,
            decided_at,
            helper: None,
        })
        .collect();
    if !helpers || out.is_empty() {
        return out;
    }
    let code = blank_strings_and_comments(src);
    let stmts = statements(&code);
    // Top-level functions: name, `def` offset, whole range (header and body).
    let mut defs: Vec<(String, usize, std::ops::Range<usize>)> = Vec::new();
    for (k, s) in stmts.iter().enumerate() {
        let text = &code[s.start..s.end];
        if s.indent != 0 || !starts_with_words(text, &[b"def"]) {
            continue;
        }
        if k > 0 && code[stmts[k - 1].start] == b'@' {
            continue;
        }
        let rest = text[3..].trim_ascii_start();
        let len = rest.iter().take_while(|&&b| is_ident(b)).count();
        if len == 0 {
            continue;
        }
        let name = String::from_utf8_lossy(&rest[..len]).into_owned();
        let end = stmts[k + 1..]
            .iter()
            .take_while(|t| t.indent > 0)
            .last()
            .map_or(s.end, |t| t.end);
        defs.push((name, s.start, s.start..end));
    }
    let mut done = vec![false; defs.len()];
    loop {
        let mut grew = false;
        for (d, (name, def_at, whole)) in defs.iter().enumerate() {
            if done[d] {
                continue;
            }
            // A name defined twice is not told apart.
            if defs.iter().filter(|o| &o.0 == name).count() > 1 {
                continue;
            }
            let uses: Vec<usize> = find_word(&code, name)
                .into_iter()
                .filter(|at| !whole.contains(at))
                .collect();
            let Some(&first) = uses.first() else {
                continue;
            };
            let holder = |at: usize| out.iter().find(|p| p.range.contains(&at));
            if !uses.iter().all(|&at| holder(at).is_some()) {
                continue;
            }
            let decided_at = holder(first).map_or(0, |p| p.decided_at);
            out.push(CudaOnly {
                range: whole.clone(),
                decided_at,
                helper: Some((name.clone(), *def_at, uses)),
            });
            done[d] = true;
            grew = true;
        }
        if !grew {
            break;
        }
    }
    out
}

/// The `if`/`elif`/`else` parts of [`cuda_only_spans`], each with its deciding header.
fn cuda_only_chains(src: &[u8]) -> Vec<(std::ops::Range<usize>, usize)> {
    if memchr::memmem::find(src, b"version.").is_none()
        && memchr::memmem::find(src, b"IS_HIP_EXTENSION").is_none()
    {
        return Vec::new();
    }
    let code = blank_strings_and_comments(src);
    let flow = Flow::new(&code);
    // Names assigned an exact ROCm or CUDA test, in file order.
    let mut names: Vec<(String, Side)> = Vec::new();
    for (name, value) in flow.assignments() {
        if let Some(side) = side_of(value, &names) {
            names.push((String::from_utf8_lossy(name).into_owned(), side));
        }
    }
    let side = |k: usize| flow.condition(k).and_then(|c| side_of(c, &names));
    let mut out: Vec<(std::ops::Range<usize>, usize)> = Vec::new();
    for k in 0..flow.stmts.len() {
        let keyword = flow.keyword(k);
        if !matches!(keyword, b"if" | b"elif" | b"else") {
            continue;
        }
        let decider = if side(k) == Some(Side::Cuda) {
            Some(k)
        } else {
            flow.chain(k, true)
                .into_iter()
                .find(|&p| side(p) == Some(Side::Rocm))
        };
        let (Some(decider), Some((_, colon))) = (decider, flow.header(k)) else {
            continue;
        };
        let s = flow.stmts[k];
        let body = if code[colon + 1..s.end].trim_ascii().is_empty() {
            let last = flow.stmts[k + 1..]
                .iter()
                .take_while(|t| t.indent > s.indent)
                .last();
            match last {
                Some(last) => flow.stmts[k + 1].start..last.end,
                None => continue,
            }
        } else {
            colon + 1..s.end
        };
        if out.last().is_some_and(|(r, _)| r.end >= body.end) {
            continue; // inside a part already found
        }
        out.push((body, flow.stmts[decider].start));
    }
    out
}

/// The logical lines of blanked code (see [`Stmt`]).
fn statements(code: &[u8]) -> Vec<Stmt> {
    let mut out = Vec::new();
    let n = code.len();
    let mut i = 0;
    while i < n {
        let line_start = i;
        let mut j = i;
        while j < n && matches!(code[j], b' ' | b'\t' | b'\x0c' | b'\r') {
            j += 1;
        }
        if j >= n {
            break;
        }
        if code[j] == b'\n' {
            i = j + 1;
            continue;
        }
        let start = j;
        let mut depth = 0i32;
        let mut k = j;
        while k < n {
            match code[k] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' | b'}' => depth = (depth - 1).max(0),
                b'\\' if code.get(k + 1) == Some(&b'\n') => k += 1,
                b'\\' if code.get(k + 1..k + 3) == Some(b"\r\n") => k += 2,
                q @ (b'"' | b'\'') => {
                    // Contents are blanked: the next quote of the same kind closes it.
                    if code.get(k..k + 3) == Some(&[q, q, q][..]) {
                        k = memchr::memmem::find(&code[k + 3..], &[q, q, q])
                            .map_or(n, |p| k + 3 + p + 2);
                    } else {
                        k += 1;
                        while k < n && code[k] != q && code[k] != b'\n' {
                            k += 1;
                        }
                        if k < n && code[k] == b'\n' {
                            continue;
                        }
                    }
                }
                b'\n' if depth == 0 => break,
                _ => {}
            }
            k += 1;
        }
        let end = k.min(n);
        let trimmed = code[start..end].trim_ascii_end().len();
        out.push(Stmt {
            start,
            end: start + trimmed,
            indent: start - line_start,
        });
        i = end + 1;
    }
    out
}

/// How a statement refuses to go on, if it does: raises, exits, returns early or skips.
fn refusal(stmt: &[u8]) -> Option<&'static str> {
    let words: Vec<&[u8]> = stmt
        .split(|b| !is_ident(*b) && *b != b'.')
        .filter(|w| !w.is_empty())
        .collect();
    let call = |name: &[u8]| {
        stmt.starts_with(name) && stmt[name.len()..].trim_ascii_start().first() == Some(&b'(')
    };
    match words.first().copied()? {
        b"raise" => Some("raises"),
        b"return" if matches!(words.get(1..), Some([] | [b"None"] | [b"False"])) => {
            Some("returns early")
        }
        b"continue" | b"break" if words.len() == 1 => Some("skips ahead"),
        _ if [
            "sys.exit",
            "exit",
            "quit",
            "os._exit",
            "os.abort",
            "pytest.exit",
        ]
        .iter()
        .any(|f| call(f.as_bytes())) =>
        {
            Some("exits")
        }
        _ if ["pytest.skip", "self.skipTest"]
            .iter()
            .any(|f| call(f.as_bytes())) =>
        {
            Some("skips")
        }
        _ => None,
    }
}

/// Whether `text` starts with these words, separated by blanks and ending on a word boundary.
fn starts_with_words(text: &[u8], words: &[&[u8]]) -> bool {
    let mut t = text;
    for (n, w) in words.iter().enumerate() {
        if n > 0 {
            let trimmed = t.trim_ascii_start();
            if trimmed.len() == t.len() {
                return false;
            }
            t = trimmed;
        }
        if !t.starts_with(w) {
            return false;
        }
        t = &t[w.len()..];
    }
    t.first().is_none_or(|&b| !is_ident(b))
}

/// `text` up to the first `stop` outside brackets.
fn top_level_until(text: &[u8], stop: u8) -> &[u8] {
    let mut depth = 0i32;
    for (i, &b) in text.iter().enumerate() {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if b == stop && depth == 0 => return &text[..i],
            _ => {}
        }
    }
    text
}

/// Whether `word` occurs in `text` on identifier boundaries.
pub(super) fn has_word(text: &[u8], word: &[u8]) -> bool {
    memchr::memmem::find_iter(text, word).any(|i| {
        (i == 0 || !is_ident(text[i - 1]) && text[i - 1] != b'.')
            && text.get(i + word.len()).is_none_or(|&b| !is_ident(b))
    })
}

/// A statement `NAME = VALUE` (not `==`): the name and the value.
fn assignment(text: &[u8]) -> Option<(&[u8], &[u8])> {
    let name_len = text.iter().take_while(|&&b| is_ident(b)).count();
    let rest = text[name_len..].trim_ascii_start();
    (name_len > 0 && rest.first() == Some(&b'=') && rest.get(1) != Some(&b'='))
        .then(|| (&text[..name_len], &rest[1..]))
}

/// Splits `text` at each `word` outside brackets (`a or b or c` at `or`).
fn split_top_level<'t>(text: &'t [u8], word: &[u8]) -> Vec<&'t [u8]> {
    let mut depth = 0i32;
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < text.len() {
        match text[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth == 0
                && text[i..].starts_with(word)
                && (i == 0 || !is_ident(text[i - 1]))
                && text.get(i + word.len()).is_none_or(|&b| !is_ident(b)) =>
            {
                out.push(&text[start..i]);
                i += word.len();
                start = i;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out.push(&text[start..]);
    out
}

/// Whether condition `cond` holds on a ROCm build of PyTorch: `Some(true)` where a test of
/// `torch.version.hip` (directly or through `names`, which hold one) makes it so, `Some(false)`
/// where such a test rules it out, `None` where it is not decided. In `A and B`, a ROCm test
/// beside conditions it cannot judge (`ROCM_HOME is not None`) counts as holding: what a ROCm
/// build sets up.
fn holds_on_rocm(cond: &[u8], names: &[(String, bool)], depth: usize) -> Option<bool> {
    if depth > 16 {
        return None;
    }
    let t = unwrap_parens(cond);
    let ternary = t
        .strip_prefix(b"True")
        .and_then(|r| r.strip_prefix(b" if "))
        .and_then(|r| r.strip_suffix(b"False"))
        .and_then(|r| r.trim_ascii_end().strip_suffix(b" else"));
    if let Some(c) = ternary {
        return holds_on_rocm(c, names, depth + 1);
    }
    let ors = split_top_level(t, b"or");
    if ors.len() > 1 {
        let v: Vec<Option<bool>> = ors
            .iter()
            .map(|x| holds_on_rocm(x, names, depth + 1))
            .collect();
        return if v.contains(&Some(true)) {
            Some(true)
        } else if v.iter().all(|x| *x == Some(false)) {
            Some(false)
        } else {
            None
        };
    }
    let ands = split_top_level(t, b"and");
    if ands.len() > 1 {
        let v: Vec<Option<bool>> = ands
            .iter()
            .map(|x| holds_on_rocm(x, names, depth + 1))
            .collect();
        return if v.contains(&Some(false)) {
            Some(false)
        } else if v.contains(&Some(true)) {
            Some(true)
        } else {
            None
        };
    }
    if let Some(rest) = t.strip_prefix(b"not") {
        if rest.first().is_some_and(|&b| !is_ident(b)) {
            return holds_on_rocm(rest, names, depth + 1).map(|v| !v);
        }
    }
    if let Some((_, v)) = names.iter().find(|(n, _)| n.as_bytes() == t) {
        return Some(*v);
    }
    side_of(t, &[]).map(|side| side == Side::Rocm)
}

/// The macros a setup.py adds to `define_macros` only for ROCm builds of PyTorch: `('NAME',
/// VALUE)` tuples added in a block that runs on ROCm (under `if torch.version.hip:`, under `if
/// is_rocm_pytorch:` where that name holds such a test, or in the `else` of a CUDA test), with
/// the value `#if` reads (`None` and no value: 1; a string or number holding an integer; else
/// none).
pub(crate) fn rocm_define_macros(src: &[u8]) -> Vec<(String, Option<i64>)> {
    if memchr::memmem::find(src, b"define_macros").is_none()
        || memchr::memmem::find(src, b"version.hip").is_none()
            && memchr::memmem::find(src, b"IS_HIP_EXTENSION").is_none()
    {
        return Vec::new();
    }
    let code = blank_strings_and_comments(src);
    let flow = Flow::new(&code);
    // Names assigned a test of the build, in file order (a later test wins).
    let mut names: Vec<(String, bool)> = Vec::new();
    for (name, value) in flow.assignments() {
        if !flow.mentions_hip(value) {
            continue;
        }
        if let Some(v) = holds_on_rocm(value, &names, 0) {
            let name = String::from_utf8_lossy(name).into_owned();
            names.retain(|(n, _)| *n != name);
            names.push((name, v));
        }
    }
    // Whether block header `k` lets a ROCm build in, and whether it tests the build at all.
    let header = |k: usize| -> Option<(bool, bool)> {
        let keyword = flow.keyword(k);
        let mut tested = false;
        if matches!(keyword, b"elif" | b"else") {
            for p in flow.chain(k, true) {
                let c = flow.condition(p)?;
                tested |= flow.mentions_hip(c);
                if holds_on_rocm(c, &names, 0)? {
                    return Some((false, tested));
                }
            }
        }
        match keyword {
            b"if" | b"elif" => {
                let c = flow.condition(k)?;
                Some((holds_on_rocm(c, &names, 0)?, tested || flow.mentions_hip(c)))
            }
            b"else" => Some((true, tested)),
            // Other blocks (`try`, `with`, `for`, `def`) run as their parents do.
            _ => Some((true, false)),
        }
    };
    let mut out: Vec<(String, Option<i64>)> = Vec::new();
    for k in 0..flow.stmts.len() {
        let text = flow.text(k);
        if !text.starts_with(b"define_macros") {
            continue;
        }
        // Every enclosing block must let a ROCm build in, and one of them must test for it.
        let mut on_rocm = true;
        let mut tested = false;
        let mut p = flow.parent(k);
        while let Some(h) = p {
            match header(h) {
                Some((true, t)) => tested |= t,
                _ => {
                    on_rocm = false;
                    break;
                }
            }
            p = flow.parent(h);
        }
        if !on_rocm || !tested {
            continue;
        }
        let s = flow.stmts[k];
        for (name, value) in macro_tuples(&src[s.start..s.end]) {
            if !out.iter().any(|(n, _)| *n == name) {
                out.push((name, value));
            }
        }
    }
    out
}

/// The `('NAME', VALUE)` tuples written in `text` (the literal source of a statement).
fn macro_tuples(text: &[u8]) -> Vec<(String, Option<i64>)> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(open) = text[i..].iter().position(|&b| b == b'(').map(|o| o + i) {
        i = open + 1;
        let rest = text[open + 1..].trim_ascii_start();
        let Some(&q) = rest.first().filter(|&&b| b == b'\'' || b == b'"') else {
            continue;
        };
        let Some(end) = rest[1..].iter().position(|&b| b == q) else {
            break;
        };
        let name = &rest[1..1 + end];
        if name.is_empty() || !name.iter().all(|&b| is_ident(b)) {
            continue;
        }
        let after = rest[end + 2..].trim_ascii_start();
        let Some(after) = after.strip_prefix(b",") else {
            continue;
        };
        let close = after.iter().position(|&b| b == b')').unwrap_or(after.len());
        let raw = std::str::from_utf8(&after[..close]).unwrap_or("").trim();
        let value = if raw == "None" || raw.is_empty() {
            Some(1)
        } else {
            raw.trim_matches(['\'', '"']).parse::<i64>().ok()
        };
        out.push((String::from_utf8_lossy(name).into_owned(), value));
    }
    out
}

/// Whether `word` occurs in `text` outside brackets.
fn has_top_level_word(text: &[u8], word: &[u8]) -> bool {
    let mut depth = 0i32;
    let mut masked = text.to_vec();
    for b in &mut masked {
        match *b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            _ if depth > 0 => *b = b' ',
            _ => {}
        }
    }
    has_word(&masked, word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn define_macros_added_for_rocm_builds_are_read() {
        let setup = b"import torch\nfrom torch.utils.cpp_extension import ROCM_HOME\n\
define_macros = [('ALWAYS', None)]\n\
is_rocm_pytorch = False\n\
try:\n    is_rocm_pytorch = True if ((torch.version.hip is not None) and (ROCM_HOME is not None)) else False\nexcept ImportError:\n    pass\n\
if is_rocm_pytorch or torch.cuda.is_available():\n    if is_rocm_pytorch:\n        define_macros += [('MY_WITH_HIP', None), (\"LEVEL\", '2')]\n    define_macros += [('MY_WITH_GPU', None)]\n\
if torch.version.hip is None:\n    define_macros.append(('CUDA_ONLY', None))\nelse:\n    define_macros.append(('HIP_ELSE', 'x'))\n\
if os.getenv('FAST'):\n    define_macros.append(('FAST', None))\n";
        assert_eq!(
            rocm_define_macros(setup),
            [
                ("MY_WITH_HIP".to_string(), Some(1)),
                ("LEVEL".to_string(), Some(2)),
                ("MY_WITH_GPU".to_string(), Some(1)),
                ("HIP_ELSE".to_string(), None),
            ]
        );
        // Without a test of the build, nothing is read.
        assert!(rocm_define_macros(b"define_macros = [('X', None)]\n").is_empty());
    }

    #[test]
    fn a_rocm_test_beside_rocm_home_picks_the_build() {
        // simple-knn's shape: the name is assigned under a version check, the ROCm test sits
        // beside `ROCM_HOME is not None`, which every ROCm build that compiles has.
        let src = "is_rocm = False\nif TORCH_MAJOR > 1:\n  is_rocm = True if ((torch.version.hip is not None) and (ROCM_HOME is not None)) else False\ndef get_sources():\n    if is_rocm:\n        return ['a.hip']\n    else:\n        return ['a.cu']\nfast = torch.version.hip and ROCM_HOME and args.fast\nif fast:\n    x = 1\nelse:\n    y = 2\nif bool(ROCM_HOME) and not torch.version.hip:\n    z = 3\nelse:\n    w = 4\n";
        let spans: Vec<&str> = cuda_only_spans(src.as_bytes(), false)
            .into_iter()
            .map(|p| &src[p.range])
            .collect();
        // Beside anything else the test decides nothing; a CUDA test beside ROCM_HOME is no
        // test of the build either (ROCM_HOME is unset there).
        assert_eq!(spans, ["return ['a.cu']"]);
    }

    #[test]
    fn cuda_only_spans_follow_exact_rocm_tests() {
        let spans = |src: &str| -> Vec<(String, usize)> {
            cuda_only_spans(src.as_bytes(), false)
                .into_iter()
                .map(|p| {
                    (
                        src[p.range].to_string(),
                        src[..p.decided_at].lines().count() + 1,
                    )
                })
                .collect()
        };
        let src = "IS_ROCM = torch.version.hip is not None\nIS_CUDA = not IS_ROCM\nOTHER = torch.version.hip and x\nif IS_ROCM:\n    a = 1\nelif y:\n    b = 2\nelse:\n    c = 3\n    d = 4\nif IS_CUDA:\n    e = 5\nif (torch.version.cuda): f = 6\nif OTHER:\n    g = 7\nelse:\n    h = 8\nrocm = True if (torch.version.hip is not None) else False\nif rocm == 1:\n    i = 9\nelse:\n    j = 10\nif not rocm:\n    k = 11\n";
        assert_eq!(
            spans(src),
            [
                ("b = 2".to_string(), 4),
                ("c = 3\n    d = 4".to_string(), 4),
                ("e = 5".to_string(), 11),
                (" f = 6".to_string(), 13),
                ("k = 11".to_string(), 23),
            ]
        );
        // A test in a string or a comment decides nothing.
        assert!(spans("s = 'if torch.version.hip:'\n# if not torch.version.hip:\nif x:\n    y = 1\nelse:\n    z = 2\n").is_empty());
        // An environment variable that forces the build, beside the exact test (AutoAWQ).
        let src = "CUDA_VERSION = os.getenv('CUDA_VERSION', None) or torch.version.cuda\nif CUDA_VERSION:\n    a = 1\nMIXED = os.getenv('X') or torch.version.cuda or other\nif MIXED:\n    b = 2\n";
        assert_eq!(spans(src), [("a = 1".to_string(), 2)]);
    }

    fn ids(src: &str) -> Vec<(String, usize, Severity)> {
        analyze_python(src.as_bytes(), "t.py")
            .into_iter()
            .map(|d| (d.id, d.line, d.severity))
            .collect()
    }

    #[test]
    fn profiler_calls_direct_and_aliased() {
        let src = "import torch\n\
                   import torch.cuda.profiler as prof\n\
                   from torch.cuda.profiler import start as pstart\n\
                   torch.cuda.profiler.start()\n\
                   prof.stop()\n\
                   pstart()\n\
                   with torch.cuda.profiler.profile():\n    pass\n";
        let got = ids(src);
        assert_eq!(
            got,
            vec![
                ("H030".into(), 4, Severity::Error),
                ("H030".into(), 5, Severity::Error),
                ("H030".into(), 6, Severity::Error),
                ("H030".into(), 7, Severity::Error),
            ]
        );
    }

    #[test]
    fn strings_and_comments_do_not_count() {
        let src = "# torch.cuda.profiler.start()\nx = 'torch.version.cuda'\ny = \"\"\"\ntorch.cuda.profiler.stop()\n\"\"\"\n";
        assert!(ids(src).is_empty(), "{:?}", ids(src));
    }

    #[test]
    fn non_utf8_lines_do_not_panic() {
        let src = b"x = '\xe9\xe9' ; v = torch.version.cuda  # \xff\n";
        let d = analyze_python(src, "t.py");
        assert_eq!(d.len(), 1);
        assert_eq!(d[0].column, 16);
    }

    #[test]
    fn version_cuda_and_nvtx() {
        let src = "import torch\n\
                   from torch.cuda import nvtx\n\
                   major = int(torch.version.cuda.split('.')[0])\n\
                   is_rocm = torch.version.cuda is None\n\
                   nvtx.range_push('fwd')\n\
                   nvtx.range_pop()\n\
                   my.torch.version.cuda_thing = 1\n";
        let got = ids(src);
        assert_eq!(
            got,
            vec![
                ("H032".into(), 3, Severity::Warning),
                ("H031".into(), 5, Severity::Note),
            ]
        );
    }

    fn messages(src: &str) -> Vec<(usize, String)> {
        analyze_python(src.as_bytes(), "t.py")
            .into_iter()
            .map(|d| (d.line, d.message))
            .collect()
    }

    #[test]
    fn version_cuda_tests_that_refuse_rocm() {
        let src = r#"import sys, pytest, torch
assert torch.version.cuda is not None, "needs CUDA"
if torch.version.cuda is None:
    raise RuntimeError("needs CUDA")
if torch.version.cuda is None or sys.platform == "win32": sys.exit(1)
def build():
    if torch.version.cuda is None:
        print("no CUDA")
        return
    if torch.version.cuda is not None:
        pass
    else:
        raise ImportError("CUDA only")
@pytest.mark.skipif(
    torch.version.cuda is None, reason="CUDA"
)
def test_x():
    pass
"#;
        let got = messages(src);
        let lines: Vec<usize> = got.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [2, 3, 5, 7, 10, 15], "{got:#?}");
        let ends = [
            "fails on ROCm builds of PyTorch, where torch.version.cuda is None",
            "so this branch raises there",
            "so this branch exits there",
            "so this branch returns early there",
            "so the `else` branch of this test raises there",
            "so this condition skips the test there",
        ];
        for ((_, m), end) in got.iter().zip(ends) {
            assert!(m.ends_with(end), "{m}");
        }
        assert!(ids(src)
            .iter()
            .all(|d| d.0 == "H032" && d.2 == Severity::Warning));
    }

    #[test]
    fn version_cuda_tests_that_pick_a_branch() {
        let src = r#"import torch
is_rocm = torch.version.cuda is None
if torch.version.cuda is None:  # CPU or ROCm
    print("no CUDA toolkit")
if torch.version.cuda is not None:
    major = int(torch.version.cuda.split(".")[0])
else:
    major = 0
if torch.version.cuda is None and torch.version.hip is None:
    raise RuntimeError("needs a GPU build")
assert torch.version.cuda is not None or torch.version.hip is not None
if torch.version.cuda is not None or use_cpu:
    pass
else:
    raise SystemExit(1)
if not torch.version.cuda is None:
    pass
"#;
        assert!(ids(src).is_empty(), "{:?}", ids(src));
    }

    #[test]
    fn version_cuda_after_a_hip_test_in_the_chain() {
        let src = r#"import sys, torch
from torch.utils.cpp_extension import IS_HIP_EXTENSION
if torch.version.hip is not None:
    backend = "rocm"
elif torch.version.cuda:
    backend = "cuda" + torch.version.cuda
else:
    backend = "cpu"
if torch.cuda.is_available() and torch.version.hip:
    pass
elif torch.version.cuda is None:
    raise RuntimeError("no GPU")
ON_ROCM = torch.version.hip is not None
if ON_ROCM:
    pass
else:
    if debug:
        print(float(torch.version.cuda))
if IS_HIP_EXTENSION:
    pass
elif torch.version.cuda is None:
    sys.exit(1)
if torch.version.cuda:
    pass
elif torch.version.hip:
    pass
if debug:
    pass
elif torch.version.cuda:
    pass
v = float(torch.version.cuda)
"#;
        assert_eq!(
            ids(src),
            vec![
                ("H032".into(), 29, Severity::Warning),
                ("H032".into(), 31, Severity::Warning),
            ]
        );
    }
}
