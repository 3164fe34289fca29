//! Diagnostics: what hipport tells the user, with stable IDs, positions and help.
//!
//! Every diagnostic kind is described once by a [`DiagInfo`] in a module's `DIAGS` table; the
//! catalogue in [`catalog`] gathers them for `hipport explain` and SARIF rule metadata.

use serde::Serialize;
use std::fmt;

use crate::edit::Edit;

/// How serious a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Advisory.
    Note,
    /// Likely wrong or slow; needs review.
    Warning,
    /// Will not compile, or is wrong on AMD.
    Error,
}

impl Severity {
    /// Lowercase name, as printed.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Note => "note",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }

    /// Parses `note`, `warning` or `error`.
    pub fn parse(s: &str) -> Option<Severity> {
        match s {
            "note" => Some(Severity::Note),
            "warning" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            _ => None,
        }
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The description of one diagnostic kind, shared by every instance of it.
#[derive(Debug)]
pub struct DiagInfo {
    /// Stable ID, e.g. `T001` or `H001`.
    pub id: &'static str,
    /// Short kebab-case name, e.g. `warp-size-32`.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// One-line summary.
    pub summary: &'static str,
    /// The `hipport explain` page (plain text, several paragraphs).
    pub explain: &'static str,
}

/// One finding at one place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Diagnostic {
    /// Stable ID from a [`DiagInfo`].
    pub id: String,
    /// Severity of this instance.
    pub severity: Severity,
    /// Path as shown to the user (relative to the input root where possible).
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in bytes.
    pub column: usize,
    /// Byte offset in the file (not serialized in reports).
    #[serde(skip)]
    pub offset: usize,
    /// What is wrong.
    pub message: String,
    /// What to do about it.
    pub help: Option<String>,
    /// Edits that fix it, applied only with `--fix`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fix: Vec<Edit>,
}

/// Maps byte offsets to 1-based line and column numbers.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// Indexes the line starts of `src`. A UTF-8 byte order mark (Visual Studio writes one) is
    /// not part of the first line: editors do not show it, so columns there count from after it.
    pub fn new(src: &[u8]) -> LineIndex {
        let first = if src.starts_with(b"\xef\xbb\xbf") {
            3
        } else {
            0
        };
        let mut starts = vec![first];
        starts.extend(memchr::memchr_iter(b'\n', src).map(|i| i + 1));
        LineIndex { starts }
    }

    /// 1-based (line, column) of a byte offset (an offset inside a leading BOM is column 1).
    pub fn position(&self, offset: usize) -> (usize, usize) {
        let line = self.starts.partition_point(|&s| s <= offset).max(1);
        (line, offset.saturating_sub(self.starts[line - 1]) + 1)
    }

    /// Byte range of a 1-based line, without its line ending.
    pub fn line_range(&self, src: &[u8], line: usize) -> std::ops::Range<usize> {
        let start = self.starts.get(line - 1).copied().unwrap_or(src.len());
        let mut end = self.starts.get(line).map(|&s| s - 1).unwrap_or(src.len());
        if end > start && src.get(end - 1) == Some(&b'\r') {
            end -= 1;
        }
        start..end.max(start)
    }

    /// Number of lines.
    pub fn lines(&self) -> usize {
        self.starts.len()
    }
}

impl Diagnostic {
    /// Builds a diagnostic at `offset` of `src`, using a line index for the position.
    pub fn at(
        info: &DiagInfo,
        file: &str,
        index: &LineIndex,
        offset: usize,
        message: impl Into<String>,
        help: Option<String>,
    ) -> Diagnostic {
        let (line, column) = index.position(offset);
        Diagnostic {
            id: info.id.to_string(),
            severity: info.severity,
            file: file.to_string(),
            line,
            column,
            offset,
            message: message.into(),
            help,
            fix: Vec::new(),
        }
    }

    /// Renders the diagnostic the way rustc does: header, location, source line, caret, help.
    pub fn render(&self, src: Option<&[u8]>, color: bool) -> String {
        self.render_with(src, color, &[])
    }

    /// Renders the diagnostic, with a note listing the other lines of its file that have the same
    /// finding (see [`fold_repeats`]).
    fn render_with(&self, src: Option<&[u8]>, color: bool, also: &[usize]) -> String {
        let (red, yellow, cyan, bold, reset) = if color {
            (
                "\x1b[1;31m",
                "\x1b[1;33m",
                "\x1b[1;36m",
                "\x1b[1m",
                "\x1b[0m",
            )
        } else {
            ("", "", "", "", "")
        };
        let sev_color = match self.severity {
            Severity::Error => red,
            Severity::Warning => yellow,
            Severity::Note => cyan,
        };
        let gutter = self.line.to_string().len();
        let pad = " ".repeat(gutter);
        let mut out = format!(
            "{sev_color}{}[{}]{reset}{bold}: {}{reset}\n{pad}{cyan}-->{reset} {}:{}:{}\n",
            self.severity, self.id, self.message, self.file, self.line, self.column
        );
        if let Some(src) = src {
            let index = LineIndex::new(src);
            let range = index.line_range(src, self.line);
            let text = String::from_utf8_lossy(&src[range.clone()]).replace('\t', "    ");
            let before = &src[range.start..(range.start + self.column - 1).min(range.end)];
            let caret_col = String::from_utf8_lossy(before)
                .replace('\t', "    ")
                .chars()
                .count();
            out.push_str(&format!(
                "{pad} {cyan}|{reset}\n{cyan}{}{reset} {cyan}|{reset} {}\n{pad} {cyan}|{reset} {}{sev_color}^{reset}\n",
                self.line,
                text,
                " ".repeat(caret_col)
            ));
        }
        if !also.is_empty() {
            const LISTED: usize = 8;
            let mut lines: Vec<String> = also.iter().take(LISTED).map(|l| l.to_string()).collect();
            if also.len() > LISTED {
                lines.push(format!("and {} more", also.len() - LISTED));
            }
            let (places, word) = match also.len() {
                1 => ("1 more place".to_string(), "line"),
                n => (format!("{n} more places"), "lines"),
            };
            out.push_str(&format!(
                "{pad} {cyan}={reset} {bold}note{reset}: the same in {places} of this file: {word} {}\n",
                lines.join(", ")
            ));
        }
        if let Some(help) = &self.help {
            out.push_str(&format!("{pad} {cyan}={reset} {bold}help{reset}: {help}\n"));
        }
        out
    }

    /// Whether `other` reports the same finding in the same words (at another place).
    pub fn same_finding(&self, other: &Diagnostic) -> bool {
        self.id == other.id
            && self.severity == other.severity
            && self.file == other.file
            && self.message == other.message
            && self.help == other.help
    }
}

/// A diagnostic shown once for every place of its file that has the same finding.
#[derive(Debug)]
pub struct Folded<'a> {
    /// The first place.
    pub first: &'a Diagnostic,
    /// Lines of the other places, in order, each once.
    pub also: Vec<usize>,
    /// How many diagnostics this one stands for.
    pub count: usize,
}

impl Folded<'_> {
    /// Renders the first place in full and the others as a list of lines.
    pub fn render(&self, src: Option<&[u8]>, color: bool) -> String {
        self.first.render_with(src, color, &self.also)
    }
}

/// Folds repeats of one finding (same ID, severity, file, message and help) into the first, so a
/// text report says a thing once per file instead of once per call; order is kept.
pub fn fold_repeats<'a>(diags: impl IntoIterator<Item = &'a Diagnostic>) -> Vec<Folded<'a>> {
    let mut out: Vec<Folded<'a>> = Vec::new();
    let mut groups: std::collections::HashMap<(&str, &str, &str), Vec<usize>> =
        std::collections::HashMap::new();
    for d in diags {
        let slots = groups
            .entry((d.file.as_str(), d.id.as_str(), d.message.as_str()))
            .or_default();
        match slots
            .iter()
            .copied()
            .find(|&i| out[i].first.same_finding(d))
        {
            Some(i) => {
                let f = &mut out[i];
                f.count += 1;
                f.also.push(d.line);
            }
            None => {
                slots.push(out.len());
                out.push(Folded {
                    first: d,
                    also: Vec::new(),
                    count: 1,
                });
            }
        }
    }
    for f in &mut out {
        let first = f.first.line;
        f.also.sort_unstable();
        f.also.dedup();
        f.also.retain(|&l| l != first);
    }
    out
}

/// Every diagnostic kind hipport knows, for `explain` and SARIF.
pub fn catalog() -> Vec<&'static DiagInfo> {
    let mut all: Vec<&'static DiagInfo> = Vec::new();
    for table in crate::DIAG_TABLES {
        all.extend(table.iter());
    }
    all
}

/// Finds a diagnostic kind by ID (case-insensitive) or by name.
pub fn find(id_or_name: &str) -> Option<&'static DiagInfo> {
    catalog()
        .into_iter()
        .find(|d| d.id.eq_ignore_ascii_case(id_or_name) || d.name == id_or_name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_and_lines() {
        let src = b"ab\r\ncd\nef";
        let idx = LineIndex::new(src);
        assert_eq!(idx.position(0), (1, 1));
        assert_eq!(idx.position(4), (2, 1));
        assert_eq!(idx.position(8), (3, 2));
        assert_eq!(&src[idx.line_range(src, 1)], b"ab");
        assert_eq!(&src[idx.line_range(src, 3)], b"ef");
    }

    #[test]
    fn a_byte_order_mark_is_not_part_of_the_first_line() {
        let src = b"\xef\xbb\xbfint x;\r\ny";
        let idx = LineIndex::new(src);
        assert_eq!(idx.position(0), (1, 1));
        assert_eq!(idx.position(3), (1, 1));
        assert_eq!(idx.position(7), (1, 5));
        assert_eq!(idx.position(11), (2, 1));
        assert_eq!(&src[idx.line_range(src, 1)], b"int x;");
        let d = Diagnostic::at(
            &DiagInfo {
                id: "T000",
                name: "test",
                severity: Severity::Note,
                summary: "",
                explain: "",
            },
            "a.cu",
            &idx,
            7,
            "m",
            None,
        );
        assert_eq!((d.line, d.column), (1, 5));
        assert!(
            d.render(Some(src), false)
                .contains("1 | int x;\n  |     ^\n"),
            "{}",
            d.render(Some(src), false)
        );
    }

    #[test]
    fn catalog_ids_are_unique_and_explained() {
        let all = catalog();
        let mut ids: Vec<_> = all.iter().map(|d| d.id).collect();
        ids.sort();
        let n = ids.len();
        ids.dedup();
        assert_eq!(ids.len(), n, "duplicate diagnostic IDs");
        for d in all {
            assert!(!d.explain.trim().is_empty(), "{} has no explain page", d.id);
        }
    }
}
