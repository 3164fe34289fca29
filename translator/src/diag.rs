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

/// Diagnostics reported at severities besides their default one, and which (the default is
/// the [`DiagInfo`]'s). `explain` lists them all, so that its severity line is true of every
/// report of an ID. Gathered from the places that set a report's severity:
/// - a hazard report the translation pass restates takes the higher severity of the two
///   (`analysis::merge`), and a header's H001 no function of it uses is a warning or a note;
/// - a translation report of a CUDA name the target lacks is a note in a branch hipcc never
///   compiles (T001-T003, T007, T009), and T001/T002 are warnings where the name may never
///   compile at all (a template parameter, an include for newer releases);
/// - T024 is a note where it removes stale outputs, a warning where it keeps edited ones; a
///   cuda-samples or cutil include (T025) is a note; T030 names a package's header as a warning;
/// - a build-file flag left as it is (`left_as_is`) is a warning; a note's flag where hipcc
///   accepts it, and paths or constructs in a condition the ROCm build skips, are notes;
///   constructs the build cannot do without are errors;
/// - hazards whose severity depends on the code (the corpus's expected reports).
///
/// Hazard (H) reports at error or warning level that are not Python's are also notes in a
/// branch hipcc never compiles (see [`severities`]), so those are not listed here.
const ALSO_REPORTED: &[(&str, &[Severity])] = &[
    ("H001", &[Severity::Warning]),
    ("H002", &[Severity::Warning]),
    ("H003", &[Severity::Warning]),
    ("H007", &[Severity::Error]),
    ("H008", &[Severity::Error, Severity::Warning]),
    ("H009", &[Severity::Error]),
    ("H010", &[Severity::Error]),
    ("H011", &[Severity::Error]),
    ("H013", &[Severity::Error]),
    ("H014", &[Severity::Error]),
    ("H015", &[Severity::Error]),
    ("H024", &[Severity::Error]),
    ("H028", &[Severity::Error, Severity::Warning]),
    ("H029", &[Severity::Error]),
    ("H033", &[Severity::Error]),
    ("H035", &[Severity::Warning]),
    ("H043", &[Severity::Warning]),
    ("H044", &[Severity::Warning]),
    ("H045", &[Severity::Warning]),
    ("H047", &[Severity::Warning]),
    ("H048", &[Severity::Warning]),
    ("H049", &[Severity::Warning]),
    ("H051", &[Severity::Error]),
    ("T001", &[Severity::Warning, Severity::Note]),
    ("T002", &[Severity::Warning, Severity::Note]),
    ("T003", &[Severity::Note]),
    ("T007", &[Severity::Note]),
    ("T009", &[Severity::Note]),
    ("T024", &[Severity::Note]),
    ("T025", &[Severity::Note]),
    ("T030", &[Severity::Warning]),
    ("T033", &[Severity::Note]),
    ("B001", &[Severity::Warning]),
    ("B002", &[Severity::Warning]),
    ("B003", &[Severity::Warning, Severity::Note]),
    ("B004", &[Severity::Warning]),
    ("B006", &[Severity::Error, Severity::Note]),
    ("B008", &[Severity::Error, Severity::Note]),
    ("B009", &[Severity::Warning]),
    ("B010", &[Severity::Note]),
    ("B012", &[Severity::Warning]),
    ("B013", &[Severity::Warning]),
];

/// Hazards only Python files give, at severities of their own (no branches to skip).
const PYTHON_HAZARDS: &[&str] = &["H030", "H031", "H032"];

/// Every severity a diagnostic kind is reported at: its default first, then the others, most
/// serious first (`--deny` aside, which makes any report an error).
pub fn severities(info: &DiagInfo) -> Vec<Severity> {
    let mut out = vec![info.severity];
    let mut also: Vec<Severity> = ALSO_REPORTED
        .iter()
        .filter(|(id, _)| *id == info.id)
        .flat_map(|(_, s)| s.iter().copied())
        .collect();
    if info.id.starts_with('H')
        && info.severity != Severity::Note
        && !PYTHON_HAZARDS.contains(&info.id)
    {
        also.push(Severity::Note);
    }
    also.sort_unstable_by(|a, b| b.cmp(a));
    for s in also {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The severities of [`severities`] in words: `warning`, `warning or note`, `error, warning or
/// note`.
pub fn severities_text(info: &DiagInfo) -> String {
    let all: Vec<&str> = severities(info).into_iter().map(Severity::as_str).collect();
    match all.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        _ => all.join(""),
    }
}

/// Why an entry of an allow or deny list (`--allow`, `--deny`, `allow`/`deny` in hipport.toml)
/// names no diagnostic this hipport knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UnknownEntry {
    /// Shaped like an ID (`H123`) or a name (`warp-size-64`) that this hipport does not know. A
    /// later hipport may know it (a hipport.toml is shared by everyone who converts the tree,
    /// whatever their version), so this is a warning: the entry has no effect in this run.
    Later(String),
    /// No version's ID or name can look like this (`H0O1`, `H01`, `Warp Size`): an error.
    Invalid(String),
}

/// The letters diagnostic IDs start with: hazards, translation, build files, doctor.
const ID_LETTERS: &[u8] = b"HTBD";

/// Checks one entry of an allow or deny list: `None` when it names a diagnostic this hipport
/// knows (an ID in any case, or a name), else why not, in words for the user (the caller says
/// where the entry came from).
pub fn check_list_entry(entry: &str) -> Option<UnknownEntry> {
    if find(entry).is_some() {
        return None;
    }
    let b = entry.as_bytes();
    let id_shaped = b.len() == 4
        && ID_LETTERS.contains(&b[0].to_ascii_uppercase())
        && b[1..].iter().all(u8::is_ascii_digit);
    let name_shaped = b.first().is_some_and(u8::is_ascii_lowercase)
        && b.iter()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == b'-')
        && !entry.ends_with('-')
        && !entry.contains("--");
    let all = catalog();
    let lower = entry.to_ascii_lowercase();
    // A name one key away from a known ID (`h0o1`) is that ID mistyped, not a later name.
    let near_id = all
        .iter()
        .any(|d| edit_distance(&lower, &d.id.to_ascii_lowercase()) <= 1);
    let hint = nearest(entry)
        .map(|n| format!(" Did you mean {n}?"))
        .unwrap_or_default();
    if id_shaped || (name_shaped && !near_id) {
        let what = if id_shaped { "ID" } else { "name" };
        Some(UnknownEntry::Later(format!(
            "this hipport ({}) knows no diagnostic {what} `{entry}`, so the entry has no effect in this run. It is a warning rather than an error because a later hipport may know `{entry}`; check its spelling (`hipport explain {entry}` says whether this version knows it).{hint}",
            env!("CARGO_PKG_VERSION")
        )))
    } else {
        Some(UnknownEntry::Invalid(format!(
            "`{entry}` is neither a diagnostic ID (a letter and three digits, as in H001) nor a diagnostic name (lower-case words joined by `-`, as in warp-size-32), so no hipport version knows it.{hint}"
        )))
    }
}

/// The known ID or name closest to `entry` (at most two keys away, ignoring case).
pub fn nearest(entry: &str) -> Option<&'static str> {
    let lower = entry.to_ascii_lowercase();
    catalog()
        .into_iter()
        .flat_map(|d| [d.id, d.name])
        .map(|k| (edit_distance(&lower, &k.to_ascii_lowercase()), k))
        .filter(|&(d, _)| d <= 2)
        .min_by_key(|&(d, _)| d)
        .map(|(_, k)| k)
}

/// Levenshtein distance between two strings, by characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != *cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
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
    fn severities_list_the_default_first() {
        let t024 = find("T024").unwrap();
        assert_eq!(severities_text(t024), "warning or note");
        let h001 = find("H001").unwrap();
        assert_eq!(severities_text(h001), "error, warning or note");
        // One severity: as before.
        let t008 = find("T008").unwrap();
        assert_eq!(severities_text(t008), "note");
        // A Python hazard keeps its own.
        assert_eq!(severities(find("H031").unwrap()), vec![Severity::Note]);
        // Every ID the table names exists.
        for (id, _) in ALSO_REPORTED {
            assert!(find(id).is_some(), "{id}");
        }
    }

    #[test]
    fn list_entries_are_checked_against_the_catalogue() {
        // Known IDs in any case, and names, pass.
        assert_eq!(check_list_entry("H001"), None);
        assert_eq!(check_list_entry("h001"), None);
        assert_eq!(check_list_entry("warp-size-32"), None);
        // A letter O for a zero can be no version's ID: an error that names the likely ID.
        match check_list_entry("H0O1") {
            Some(UnknownEntry::Invalid(m)) => assert!(m.contains("Did you mean H001?"), "{m}"),
            other => panic!("{other:?}"),
        }
        // So is a lower-case spelling of it, though it is shaped like a name.
        assert!(matches!(
            check_list_entry("h0o1"),
            Some(UnknownEntry::Invalid(_))
        ));
        for bad in [
            "H01",
            "H0001",
            "X001",
            "Warp-Size-32",
            "warp size",
            "",
            "warp--size",
        ] {
            assert!(
                matches!(check_list_entry(bad), Some(UnknownEntry::Invalid(_))),
                "{bad:?}"
            );
        }
        // Well-formed but unknown: a later version may know it.
        for later in ["H999", "t998", "B997", "warp-size-128"] {
            assert!(
                matches!(check_list_entry(later), Some(UnknownEntry::Later(_))),
                "{later:?}"
            );
        }
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
