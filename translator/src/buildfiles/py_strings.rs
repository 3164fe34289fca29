//! Python string literals as text for another translator: the value of one or more adjacent
//! literals (`"a" "b"`, `"a" + "b"`), decoded from their escapes, with a map from every byte of
//! the value back to the bytes of the Python file that wrote it; and the way back, edits on the
//! value turned into edits on the file, their text written the way each literal needs it.
//!
//! [`super::inline`] uses it for the CUDA that `load_inline` builds from Python strings. The
//! tokens come from [`super::setup_py`]'s tokenizer; nothing here reads Python beyond a literal.

use std::ops::Range;

/// How one literal is written: its quote, whether it is triple-quoted, raw (`r"..."`: no
/// escapes) or formatted (`f"..."`: `{...}` fields, `{{`/`}}` for braces).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    /// `"` or `'`.
    pub quote: char,
    /// `"""` / `'''`.
    pub triple: bool,
    /// An `r` prefix.
    pub raw: bool,
    /// An `f` prefix.
    pub fmt: bool,
}

impl Form {
    /// The form a prefix and quote give; `None` for bytes (`b"..."`), which are not text.
    pub(crate) fn new(prefix: &str, quote: char, triple: bool) -> Option<Form> {
        if prefix.contains(['b', 'B']) {
            return None;
        }
        Some(Form {
            quote,
            triple,
            raw: prefix.contains(['r', 'R']),
            fmt: prefix.contains(['f', 'F']),
        })
    }

    /// `text` written inside a literal of this form so that it reads back as `text`.
    pub(crate) fn encode(&self, text: &str) -> Result<String, RawError> {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            match c {
                '{' | '}' if self.fmt => {
                    out.push(c);
                    out.push(c);
                }
                _ if self.raw => {
                    // A raw literal has no escapes: a backslash would join the next character,
                    // a quote or (in one line) a line break would end the literal.
                    if c == '\\' {
                        return Err(RawError::Backslash);
                    }
                    if c == self.quote {
                        return Err(RawError::Quote(c));
                    }
                    if !self.triple && matches!(c, '\n' | '\r') {
                        return Err(RawError::LineBreak);
                    }
                    out.push(c);
                }
                '\\' => out.push_str("\\\\"),
                '\n' if !self.triple => out.push_str("\\n"),
                '\r' if !self.triple => out.push_str("\\r"),
                _ if c == self.quote => {
                    out.push('\\');
                    out.push(c);
                }
                _ => out.push(c),
            }
        }
        Ok(out)
    }
}

/// Why a literal's value could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum DecodeError {
    /// `\N{NAME}` needs Unicode's name table.
    #[error("a `\\N{{...}}` escape, which hipport does not decode")]
    NamedEscape {
        /// Where the escape starts in the file.
        at: usize,
    },
    /// `\ud800`..`\udfff` is no character of UTF-8 text.
    #[error("an escape of a lone surrogate, which is not UTF-8 text")]
    Surrogate {
        /// Where the escape starts in the file.
        at: usize,
    },
    /// An f-string field without its `}`.
    #[error("an f-string field without its closing `}}`")]
    OpenField {
        /// Where the field starts in the file.
        at: usize,
    },
}

impl DecodeError {
    /// Where the trouble is in the file.
    pub(crate) fn at(&self) -> usize {
        match self {
            DecodeError::NamedEscape { at }
            | DecodeError::Surrogate { at }
            | DecodeError::OpenField { at } => *at,
        }
    }
}

/// Why a replacement cannot be written into a raw literal (the only kind that cannot take any
/// text).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum RawError {
    /// A raw literal cannot escape a backslash.
    #[error("the new text holds a backslash, which a raw string cannot escape")]
    Backslash,
    /// A raw literal cannot escape its own quote.
    #[error("the new text holds the string's own quote `{0}`, which a raw string cannot escape")]
    Quote(char),
    /// A one-line raw literal cannot hold a line break.
    #[error("the new text holds a line break, which a one-line raw string cannot hold")]
    LineBreak,
}

/// Why an edit on a value has no edit on the file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(crate) enum MapError {
    /// An end of the edit falls inside the text one escape sequence writes.
    #[error("the text it changes is partly written as an escape sequence")]
    InsideEscape,
    /// The edit would drop or move an f-string's `{...}` field, which is Python, not text.
    #[error("it would drop an f-string's `{{...}}` field or move it out of the f-string")]
    Field,
    /// The new text cannot be written in the literal.
    #[error("{0}")]
    Raw(#[from] RawError),
    /// Removing the text would join what is left on either side into something else: an
    /// octal escape with the digit after it (`\\1` and `2` read `\\12`), a backslash with the
    /// character after it, or quotes into the literal's closing quotes.
    #[error(
        "removing it would join what is left around it into another escape or a closing quote"
    )]
    Joins,
}

/// What a piece of the value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Characters written as they are: value and file bytes correspond one to one.
    Verbatim,
    /// One escape sequence (or a raw string's backslash pair, or an f-string's `{{`): its value
    /// bytes cannot be split. A line continuation (`\` at a line end) has no value bytes.
    Escape,
    /// An f-string field `{...}`, shown to the translator as a placeholder name.
    Field,
}

/// What an escape sequence would take into itself if text written after it began with it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Absorbs {
    /// Nothing: the sequence is complete (`\\n`, `\\x41`, `\\101`).
    Nothing,
    /// An octal digit: `\\1` and `\\12` take up to three.
    OctalDigit,
    /// Any character: a backslash left alone before an f-string's `{` (`f"\\{x}"`).
    Any,
}

/// A piece of the value and the file bytes that write it.
#[derive(Clone, Debug)]
struct Unit {
    value: Range<usize>,
    src: Range<usize>,
    kind: Kind,
    /// Index of its literal in [`Value::forms`].
    lit: usize,
    /// For an escape, what it would take from text written right after it.
    absorbs: Absorbs,
}

/// The value of adjacent literals, with the map back to the file.
#[derive(Clone, Debug, Default)]
pub(crate) struct Value {
    /// The decoded text (f-string fields replaced by placeholder names).
    pub text: String,
    units: Vec<Unit>,
    forms: Vec<Form>,
    /// Each literal's content (between its quotes) in the file.
    contents: Vec<Range<usize>>,
    /// The source text of each f-string field (`{n * 2}`), by placeholder number.
    fields: Vec<String>,
}

/// The start of the placeholder names the translator sees for f-string fields.
const PLACEHOLDER: &str = "hipport_field_";

/// The placeholder for the `n`th f-string field: a name, which C parses where a field usually
/// stands (a size, a type, a constant).
fn placeholder(n: usize) -> String {
    format!("{PLACEHOLDER}{n}")
}

/// The placeholders in `text`: each one's byte range and number.
fn placeholders(text: &str) -> Vec<(Range<usize>, usize)> {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(PLACEHOLDER).map(|i| from + i) {
        let digits = i + PLACEHOLDER.len();
        let end = digits
            + b[digits..]
                .iter()
                .take_while(|c| c.is_ascii_digit())
                .count();
        let whole = (i == 0 || !ident(b[i - 1])) && b.get(end).is_none_or(|&c| !ident(c));
        if let (true, Ok(n)) = (whole, text[digits..end].parse()) {
            out.push((i..end, n));
        }
        from = end.max(i + 1);
    }
    out
}

impl Value {
    /// Appends the literal whose content (between the quotes) is `content` of `src`.
    pub(crate) fn push(
        &mut self,
        src: &str,
        content: Range<usize>,
        form: Form,
    ) -> Result<(), DecodeError> {
        let lit = self.forms.len();
        let text = &src[content.clone()];
        let b = text.as_bytes();
        let base = content.start;
        let mut i = 0;
        // Start of the verbatim run in progress.
        let mut run = 0;
        while i < b.len() {
            let c = b[i];
            let special = c == b'\\' || form.fmt && (c == b'{' || c == b'}');
            if !special {
                i += 1;
                continue;
            }
            self.verbatim(text, base, run..i, lit);
            let mut absorbs = Absorbs::Nothing;
            let (len, decoded, kind) =
                if c == b'\\' && form.fmt && matches!(b.get(i + 1), Some(b'{' | b'}')) {
                    // `\{` in an f-string (raw or not): the backslash is text, the brace starts a
                    // field or a `{{` (Python reads `f"\{x}"` as a backslash and `x`).
                    absorbs = Absorbs::Any;
                    (1, "\\".to_string(), Kind::Escape)
                } else if c == b'\\' && form.raw {
                    // `\` and the next character stay as they are, together.
                    let n = text[i + 1..].chars().next().map_or(0, char::len_utf8);
                    (1 + n, text[i..i + 1 + n].to_string(), Kind::Escape)
                } else if c == b'\\' {
                    let (len, decoded) = escape(&text[i..], base + i)?;
                    if len < 4 && b.get(i + 1).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                        absorbs = Absorbs::OctalDigit;
                    }
                    (len, decoded, Kind::Escape)
                } else if b.get(i + 1) == Some(&c) {
                    (2, (c as char).to_string(), Kind::Escape)
                } else if c == b'}' {
                    // A lone `}` is a syntax error in Python; keep it as text.
                    (1, "}".to_string(), Kind::Verbatim)
                } else {
                    let len =
                        field_len(&text[i..]).ok_or(DecodeError::OpenField { at: base + i })?;
                    self.fields.push(text[i..i + len].to_string());
                    (len, placeholder(self.fields.len() - 1), Kind::Field)
                };
            let at = self.text.len();
            self.text.push_str(&decoded);
            self.units.push(Unit {
                value: at..self.text.len(),
                src: base + i..base + i + len,
                kind,
                lit,
                absorbs,
            });
            i += len;
            run = i;
        }
        self.verbatim(text, base, run..b.len(), lit);
        self.forms.push(form);
        self.contents.push(content);
        Ok(())
    }

    /// Appends the verbatim run `range` of a literal's `text` (which starts at `base`).
    fn verbatim(&mut self, text: &str, base: usize, range: Range<usize>, lit: usize) {
        if range.is_empty() {
            return;
        }
        let at = self.text.len();
        self.text.push_str(&text[range.clone()]);
        self.units.push(Unit {
            value: at..self.text.len(),
            src: base + range.start..base + range.end,
            kind: Kind::Verbatim,
            lit,
            absorbs: Absorbs::Nothing,
        });
    }

    /// `text` (a message about the value) with f-string placeholders shown as the fields they
    /// stand for.
    pub(crate) fn show(&self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut pos = 0;
        for (r, n) in placeholders(text) {
            if let Some(f) = self.fields.get(n) {
                out.push_str(&text[pos..r.start]);
                out.push_str(f);
                pos = r.end;
            }
        }
        out + &text[pos..]
    }

    /// `text` written in literal `lit`: escaped for its form, with the placeholders of fields
    /// written as the fields themselves (only an f-string can hold them).
    fn write(&self, text: &str, lit: usize) -> Result<String, MapError> {
        let form = self.forms[lit];
        let mut out = String::with_capacity(text.len());
        let mut pos = 0;
        for (r, n) in placeholders(text) {
            let Some(f) = self.fields.get(n) else {
                continue;
            };
            if !form.fmt {
                return Err(MapError::Field);
            }
            out.push_str(&form.encode(&text[pos..r.start])?);
            out.push_str(f);
            pos = r.end;
        }
        out.push_str(&form.encode(&text[pos..])?);
        Ok(out)
    }

    /// Whether the value has no literal.
    pub(crate) fn is_empty(&self) -> bool {
        self.forms.is_empty()
    }

    /// The file offset that writes value offset `v`: the byte itself in verbatim text, else the
    /// start of its escape sequence or field; the end of the last literal for the value's end.
    pub(crate) fn file_offset(&self, v: usize) -> usize {
        let k = self.units.partition_point(|u| u.value.end <= v);
        match self.units.get(k) {
            Some(u) if u.kind == Kind::Verbatim => {
                u.src.start + (v.max(u.value.start) - u.value.start)
            }
            Some(u) => u.src.start,
            None => self
                .units
                .last()
                .map(|u| u.src.end)
                .or_else(|| self.contents.last().map(|c| c.end))
                .unwrap_or(0),
        }
    }

    /// The file edits that replace `start..end` of the value with `text`: one per literal the
    /// range touches, the new text in the first, written for its form.
    pub(crate) fn map_edit(
        &self,
        start: usize,
        end: usize,
        text: &str,
    ) -> Result<Vec<(usize, usize, String)>, MapError> {
        if start == end {
            // An insertion goes before the piece at `start` (after the last one at the end).
            let k = self.units.partition_point(|u| u.value.end <= start);
            let (at, lit) = match self.units.get(k) {
                Some(u) if u.kind == Kind::Verbatim => {
                    (u.src.start + (start - u.value.start), u.lit)
                }
                Some(u) if u.value.start == start => (u.src.start, u.lit),
                Some(_) => return Err(MapError::InsideEscape),
                None => match (self.units.last(), self.contents.last()) {
                    (Some(u), _) => (u.src.end, u.lit),
                    (None, Some(c)) => (c.end, self.contents.len() - 1),
                    (None, None) => return Ok(Vec::new()),
                },
            };
            let new = self.guard(at, at, lit, self.write(text, lit)?)?;
            return Ok(vec![(at, at, new)]);
        }
        // Every piece with a byte in the range, and the empty ones strictly inside it (pieces
        // are in value order: the first is found by bisection).
        let first = self.units.partition_point(|u| u.value.end <= start);
        let touched = self.units[first..]
            .iter()
            .take_while(|u| u.value.start < end);
        // Per literal touched: its file range and its index.
        let mut spans: Vec<(usize, usize, usize)> = Vec::new();
        // A field the edit replaces must come back in its new text (a call rewritten whole).
        let kept: Vec<usize> = placeholders(text).into_iter().map(|(_, n)| n).collect();
        for u in touched {
            let (s, e) = match u.kind {
                Kind::Field => {
                    let n = placeholders(&self.text[u.value.clone()])
                        .first()
                        .map(|p| p.1);
                    if start > u.value.start
                        || end < u.value.end
                        || !n.is_some_and(|n| kept.contains(&n))
                    {
                        return Err(MapError::Field);
                    }
                    (u.src.start, u.src.end)
                }
                Kind::Escape if start > u.value.start || end < u.value.end => {
                    return Err(MapError::InsideEscape)
                }
                Kind::Escape => (u.src.start, u.src.end),
                Kind::Verbatim => (
                    u.src.start + (start.max(u.value.start) - u.value.start),
                    u.src.start + (end.min(u.value.end) - u.value.start),
                ),
            };
            match spans.last_mut() {
                Some(last) if last.2 == u.lit => last.1 = e,
                _ => spans.push((s, e, u.lit)),
            }
        }
        let mut out = Vec::with_capacity(spans.len());
        for (k, (s, e, lit)) in spans.into_iter().enumerate() {
            let new = if k == 0 {
                self.write(text, lit)?
            } else {
                String::new()
            };
            out.push((s, e, self.guard(s, e, lit, new)?));
        }
        Ok(out)
    }
}

impl Value {
    /// `new`, written over the file bytes `s..e` of literal `lit`, checked against what stays
    /// around it: text after a short octal escape that starts with an octal digit gets that
    /// digit as `\\x3N` (`\\1` then `7` would read `\\17`); what would join a lone backslash, or
    /// make quotes of a triple-quoted literal close it, is an error.
    fn guard(&self, s: usize, e: usize, lit: usize, mut new: String) -> Result<String, MapError> {
        let form = self.forms[lit];
        let content = self.contents[lit].clone();
        // The piece holding the last byte kept before the edit (an escape ends there).
        let before = (s > content.start)
            .then(|| self.units.partition_point(|u| u.src.end < s))
            .and_then(|k| self.units.get(k))
            .filter(|u| u.lit == lit && u.src.start < s);
        // The piece holding the first byte kept after the edit, and that byte's value offset.
        let j = self.units.partition_point(|u| u.src.end <= e);
        let after = self
            .units
            .get(j)
            .filter(|u| u.lit == lit && u.src.start <= e && e < content.end);
        let next: Option<char> = match (new.chars().next(), after) {
            (Some(c), _) => Some(c),
            (None, Some(u)) if u.kind == Kind::Verbatim => self.text
                [u.value.start + (e - u.src.start)..]
                .chars()
                .next(),
            // An escape or a field starts with `\` or `{`.
            (None, Some(_)) => Some('\\'),
            (None, None) => None,
        };
        match before.map(|u| u.absorbs) {
            Some(Absorbs::OctalDigit) if next.is_some_and(|c| c.is_digit(8)) => {
                if new.is_empty() {
                    return Err(MapError::Joins);
                }
                new = format!("\\x3{}", &new[..1]) + &new[1..];
            }
            Some(Absorbs::Any)
                if !new.is_empty() || after.is_none_or(|u| u.kind == Kind::Verbatim) =>
            {
                return Err(MapError::Joins);
            }
            _ => {}
        }
        // Quotes left on both sides of a removal, in a triple-quoted literal, may close it.
        if form.triple && new.is_empty() {
            let q = form.quote;
            let run_before = before.filter(|u| u.kind == Kind::Verbatim).map_or(0, |u| {
                self.text[u.value.start..u.value.start + (s - u.src.start)]
                    .chars()
                    .rev()
                    .take_while(|&c| c == q)
                    .count()
            });
            let run_after = match after {
                None if e >= content.end => 3,
                Some(u) if u.kind == Kind::Verbatim => self.text
                    [u.value.start + (e - u.src.start)..u.value.end]
                    .chars()
                    .take_while(|&c| c == q)
                    .count(),
                _ => 0,
            };
            if run_before > 0 && run_before + run_after >= 3 {
                return Err(MapError::Joins);
            }
        }
        Ok(new)
    }
}

/// The length in the file and the value of the escape sequence at the start of `s` (which
/// starts with `\`); `at` is its file offset.
fn escape(s: &str, at: usize) -> Result<(usize, String), DecodeError> {
    let b = s.as_bytes();
    let Some(&c) = b.get(1) else {
        return Ok((1, "\\".into()));
    };
    let simple = |v: char| Ok((2, v.to_string()));
    match c {
        b'\n' => Ok((2, String::new())),
        b'\r' if b.get(2) == Some(&b'\n') => Ok((3, String::new())),
        b'\r' => Ok((2, String::new())),
        b'\\' => simple('\\'),
        b'\'' => simple('\''),
        b'"' => simple('"'),
        b'a' => simple('\x07'),
        b'b' => simple('\x08'),
        b'f' => simple('\x0c'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        b'v' => simple('\x0b'),
        b'0'..=b'7' => {
            let n = b[1..]
                .iter()
                .take(3)
                .take_while(|d| (b'0'..=b'7').contains(d))
                .count();
            let code = u32::from_str_radix(&s[1..1 + n], 8).unwrap_or(0);
            let ch = char::from_u32(code).ok_or(DecodeError::Surrogate { at })?;
            Ok((1 + n, ch.to_string()))
        }
        b'x' | b'u' | b'U' => {
            let n = match c {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let digits = s
                .get(2..2 + n)
                .filter(|d| d.bytes().all(|d| d.is_ascii_hexdigit()));
            match digits {
                // Python rejects a short escape; kept as text here.
                None => Ok((2, s[..2].to_string())),
                Some(d) => {
                    let code = u32::from_str_radix(d, 16).unwrap_or(u32::MAX);
                    let ch = char::from_u32(code).ok_or(DecodeError::Surrogate { at })?;
                    Ok((2 + n, ch.to_string()))
                }
            }
        }
        b'N' => Err(DecodeError::NamedEscape { at }),
        _ => {
            // An unknown escape keeps its backslash.
            let n = s[1..].chars().next().map_or(0, char::len_utf8);
            Ok((1 + n, s[..1 + n].to_string()))
        }
    }
}

/// The length of the f-string field at the start of `s` (`{` up to its `}`), or `None` when
/// it does not close. Brackets nest; strings in the expression are skipped whole, whatever
/// their quote (Python 3.12 allows the literal's own, `f"{x["k"]}"`); after a top-level `:`
/// the format specification is text with nested fields (`{x:'>{w}}`).
fn field_len(s: &str) -> Option<usize> {
    field_len_at(s, 0)
}

/// [`field_len`] for a field `level` format specifications deep; past a few levels (which
/// Python itself refuses) the field counts as open, so hostile input cannot exhaust the stack.
fn field_len_at(s: &str, level: usize) -> Option<usize> {
    use super::setup_py::{Field, FieldEnd};
    let b = s.as_bytes();
    let field = Field {
        too_deep: |_| FieldEnd::Open,
        max_level: 5,
        edge: |_, _| false,
        string: |_, i, _| quoted_len(&b[i..], b[i]).map(|n| i + n),
    };
    match field.scan(b, 0, level) {
        FieldEnd::Closed(e) => Some(e),
        _ => None,
    }
}

/// The length of the string literal at the start of `b` (at its quote `q`), escapes and
/// triple quotes included; `None` when it does not close.
fn quoted_len(b: &[u8], q: u8) -> Option<usize> {
    let triple = b.len() >= 3 && b[1] == q && b[2] == q;
    let open = if triple { 3 } else { 1 };
    let mut i = open;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == q && (!triple || b.len() >= i + 3 && b[i + 1] == q && b[i + 2] == q) {
            return Some(i + open);
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value of the string literals of `src`, read with the setup.py tokenizer.
    fn value(src: &str) -> Value {
        let mut v = Value::default();
        for t in crate::buildfiles::setup_py::tokens(src) {
            if let crate::buildfiles::setup_py::Tok::Str {
                quote_at,
                end,
                quote,
                triple,
                prefix,
                ..
            } = t
            {
                let open = if triple { 3 } else { 1 };
                v.push(
                    src,
                    quote_at + open..end - open,
                    Form::new(&prefix, quote, triple).unwrap(),
                )
                .unwrap();
            }
        }
        v
    }

    /// `src` with `edits` applied.
    fn apply(src: &str, mut edits: Vec<(usize, usize, String)>) -> String {
        edits.sort();
        let mut out = String::new();
        let mut pos = 0;
        for (s, e, t) in edits {
            out.push_str(&src[pos..s]);
            out.push_str(&t);
            pos = e;
        }
        out + &src[pos..]
    }

    #[test]
    fn escapes_decode_and_map_back() {
        let src = r#"x = "a\tb\x41\u00e9\101\\\"\q\
c""#;
        let v = value(src);
        assert_eq!(v.text, "a\tbAéA\\\"\\qc");
        // `c` comes after the line continuation, `b` right after the tab's escape.
        assert_eq!(
            v.file_offset(v.text.find('c').unwrap()),
            src.find('c').unwrap()
        );
        assert_eq!(v.file_offset(2), src.find('b').unwrap());
        // Inside the two bytes of `é` there is no file position of its own.
        let e = v.text.find('é').unwrap();
        assert_eq!(v.file_offset(e + 1), src.find("\\u00e9").unwrap());
        assert_eq!(v.map_edit(e + 1, e + 2, "x"), Err(MapError::InsideEscape));
    }

    #[test]
    fn replacements_are_escaped_for_their_literal() {
        let src = "s = 'cudaFree(p);'\n";
        let v = value(src);
        let edits = v.map_edit(0, 8, "hip'Free\\\n").unwrap();
        assert_eq!(apply(src, edits), "s = 'hip\\'Free\\\\\\n(p);'\n");
        let raw = "s = r'cudaFree(p);'\n";
        let v = value(raw);
        assert_eq!(
            v.map_edit(0, 8, "a\nb"),
            Err(MapError::Raw(RawError::LineBreak))
        );
        assert_eq!(
            apply(raw, v.map_edit(0, 8, "hipFree").unwrap()),
            "s = r'hipFree(p);'\n"
        );
        let tri = "s = \"\"\"\ncudaFree(p);\n\"\"\"\n";
        let v = value(tri);
        let edits = v.map_edit(1, 1, "#include <hip/hip_runtime.h>\n").unwrap();
        assert_eq!(
            apply(tri, edits),
            "s = \"\"\"\n#include <hip/hip_runtime.h>\ncudaFree(p);\n\"\"\"\n"
        );
    }

    #[test]
    fn edits_across_literals_are_split() {
        let src = "s = ('#include <cuda.h>\\n' \"int x;\\n\")\n";
        let v = value(src);
        assert_eq!(v.text, "#include <cuda.h>\nint x;\n");
        // Replace `cuda.h>\nint` with `hip.h>\nlong`: the first literal takes the new text.
        let s = v.text.find("cuda").unwrap();
        let e = v.text.find(" x").unwrap();
        let edits = v.map_edit(s, e, "hip.h>\nlong").unwrap();
        assert_eq!(edits.len(), 2);
        assert_eq!(
            apply(src, edits),
            "s = ('#include <hip.h>\\nlong' \" x;\\n\")\n"
        );
    }

    #[test]
    fn f_string_fields_are_placeholders_that_edits_avoid() {
        let src = "s = f'__global__ void k() {{ float b[{n * 2}]; cudaFree({ptr!r:>{w}}); }}'\n";
        let v = value(src);
        assert_eq!(
            v.text,
            "__global__ void k() { float b[hipport_field_0]; cudaFree(hipport_field_1); }"
        );
        let at = v.text.find("cudaFree").unwrap();
        let edits = v.map_edit(at, at + 8, "hipFree{x}").unwrap();
        assert!(apply(src, edits).contains("hipFree{{x}}({ptr!r:>{w}})"));
        let field = v.text.find("hipport_field_1").unwrap();
        assert_eq!(v.map_edit(at, field + 3, ""), Err(MapError::Field));
        assert_eq!(v.file_offset(field + 4), src.find("{ptr").unwrap());
        // A call rewritten whole keeps its field: the placeholder goes back as the field.
        let call_end = v.text.find("); }").unwrap() + 1;
        let edits = v
            .map_edit(at, call_end, "hipFree(hipport_field_1, {0})")
            .unwrap();
        assert!(
            apply(src, edits).contains("; hipFree({ptr!r:>{w}}, {{0}}); }}'"),
            "{src}"
        );
        assert_eq!(
            v.map_edit(at, call_end, "hipFree(hipport_field_10)"),
            Err(MapError::Field)
        );
        assert_eq!(
            v.show("`cudaFree(hipport_field_1)` and hipport_field_12"),
            "`cudaFree({ptr!r:>{w}})` and hipport_field_12"
        );
        // Only an f-string can take a field back.
        let two = "s = f'a{x}' 'b'\n";
        let v = value(two);
        assert_eq!(v.text, "ahipport_field_0b");
        assert_eq!(
            v.map_edit(v.text.len(), v.text.len(), "hipport_field_0"),
            Err(MapError::Field)
        );
        let mut open = Value::default();
        let bad = "f'{x'";
        assert_eq!(
            open.push(bad, 2..4, Form::new("f", '\'', false).unwrap()),
            Err(DecodeError::OpenField { at: 2 })
        );
    }

    #[test]
    fn fields_hold_strings_in_any_quote_and_format_specs() {
        // `f"{d["k"]}"` (Python 3.12), a fill character that is a quote, nested fields.
        let src = "s = f\"a{d[\"k\"]}b{x:'>{w}}c{f\"{y}\"}d\"\n";
        let v = value(src);
        assert_eq!(v.text, "ahipport_field_0bhipport_field_1chipport_field_2d");
        assert_eq!(v.show("hipport_field_1"), "{x:'>{w}}");
        assert_eq!(field_len("{x"), None);
        assert_eq!(field_len("{x[\"}\"]}"), Some(8));
        let deep = format!("{}{}", "{x:".repeat(100), "}".repeat(100));
        assert_eq!(field_len(&deep), None);
    }

    #[test]
    fn a_backslash_before_an_f_string_brace_is_text() {
        // Python reads `f"\{x}"` and `rf"\{x}"` as a backslash and the field.
        for src in [
            "s = f'\\{x} cudaFree(0);'\n",
            "s = rf'\\{x} cudaFree(0);'\n",
        ] {
            let v = value(src);
            assert_eq!(v.text, "\\hipport_field_0 cudaFree(0);", "{src}");
            let at = v.text.find("cuda").unwrap();
            assert_eq!(
                apply(src, v.map_edit(at, at + 4, "hip").unwrap()),
                src.replace("cuda", "hip")
            );
            // Text between the backslash and the brace would be escaped by it.
            assert_eq!(v.map_edit(1, 1, "x"), Err(MapError::Joins), "{src}");
        }
    }

    #[test]
    fn edits_never_join_what_is_left_around_them() {
        // A digit after a short octal escape is written `\x3N` (`\1` + `7` would read `\17`);
        // a removal that would leave one after it is refused.
        let src = "s = '\\1x7'\n";
        let v = value(src);
        assert_eq!(v.text, "\u{1}x7");
        assert_eq!(
            apply(src, v.map_edit(1, 2, "7").unwrap()),
            "s = '\\1\\x377'\n"
        );
        assert_eq!(
            apply(src, v.map_edit(1, 1, "0y").unwrap()),
            "s = '\\1\\x30yx7'\n"
        );
        assert_eq!(v.map_edit(1, 2, ""), Err(MapError::Joins));
        // A full octal escape takes no more digits.
        let v = value("s = '\\101x7'\n");
        assert_eq!(
            apply("s = '\\101x7'\n", v.map_edit(1, 2, "").unwrap()),
            "s = '\\1017'\n"
        );
        // Quotes that a removal would run together close a triple-quoted literal.
        let src = "s = \"\"\"a\"\"b\"c\"\"\"\n";
        let v = value(src);
        assert_eq!(v.text, "a\"\"b\"c");
        let b = v.text.find('b').unwrap();
        assert_eq!(v.map_edit(b, b + 1, ""), Err(MapError::Joins));
        let c = v.text.find('c').unwrap();
        assert_eq!(v.map_edit(c, c + 1, ""), Err(MapError::Joins));
        assert_eq!(
            apply(src, v.map_edit(b, b + 1, "x").unwrap()),
            "s = \"\"\"a\"\"x\"c\"\"\"\n"
        );
        let src = "s = \"\"\"a\"b\"\"\"\n";
        let v = value(src);
        assert_eq!(v.map_edit(2, 3, ""), Err(MapError::Joins));
        assert_eq!(
            apply(src, v.map_edit(0, 1, "").unwrap()),
            "s = \"\"\"\"b\"\"\"\n"
        );
    }

    #[test]
    fn undecodable_escapes_are_errors() {
        let mut v = Value::default();
        let src = r"'\N{DASH}'";
        assert_eq!(
            v.push(src, 1..src.len() - 1, Form::new("", '\'', false).unwrap()),
            Err(DecodeError::NamedEscape { at: 1 })
        );
        let src = r"'\ud800'";
        assert!(matches!(
            Value::default().push(src, 1..7, Form::new("", '\'', false).unwrap()),
            Err(DecodeError::Surrogate { at: 1 })
        ));
        assert!(Form::new("rb", '"', false).is_none());
    }
}
