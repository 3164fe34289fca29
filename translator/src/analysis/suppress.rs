//! In-source suppressions: `// hipport: allow(H001)` on the diagnostic's line, or alone on the
//! line above (a comment after code covers its own line only, not the next one).
//!
//! The list may name IDs or kebab names, separated by commas (`allow(H001, sync-mask-32bit)`);
//! `allow(all)` silences everything on that line. Block comments work too.
//!
//! An entry that names no diagnostic hipport knows (`allow(H01)`, `allow(sync-mask-32)`)
//! suppresses nothing: [`apply_suppressions_in`] reports it (T027), so that a mistyped entry is
//! not taken for an acknowledged hazard.

use crate::diag::{DiagInfo, Diagnostic, LineIndex, Severity};

/// T027: an entry of a `hipport: allow(...)` comment that names no diagnostic.
pub const UNKNOWN_ALLOW: DiagInfo = DiagInfo {
    id: "T027",
    name: "unknown-allow-entry",
    severity: Severity::Warning,
    summary: "A `hipport: allow(...)` comment names no diagnostic hipport knows, so it suppresses nothing",
    explain: "A `// hipport: allow(...)` comment (`# hipport: allow(...)` in Python) silences the diagnostics it names on its line, or on the line below when the comment stands alone. It names them by ID (`H001`, any case) or by name (`warp-size-32`), or says `all`. An entry that is neither, a typo such as `H01`, `H0O1` or `sync-mask-32` (for `sync-mask-32bit`), an ID this version of hipport does not have (one a later version added), or an ID followed by words (`allow(H001 reduction is per 32)`), matches nothing: the diagnostic it was meant for is still reported, and the comment reads as if the hazard had been looked at. hipport reports each such entry at the entry, with the known ID or name closest to it where one is close.\n\nWhat to do: correct the entry (the report's ID, or its name from `hipport explain ID`), or remove it. A reason belongs after the closing parenthesis: `// hipport: allow(H001) reduction over 32-lane segments`.",
};

/// The diagnostics of this module.
pub const DIAGS: &[DiagInfo] = &[UNKNOWN_ALLOW];

/// [`apply_suppressions`], then reports ([`UNKNOWN_ALLOW`]) each entry of a `hipport:
/// allow(...)` comment of `src` (the file shown as `file`) that names no diagnostic, unless
/// `diags` already holds that report (a file that passes through two steps that apply
/// suppressions gets it once).
pub fn apply_suppressions_in(src: &[u8], file: &str, diags: &mut Vec<Diagnostic>) {
    apply_suppressions(src, diags);
    let mut index = None;
    for (offset, entry) in allow_entries(src) {
        if known(&entry) {
            continue;
        }
        let index = index.get_or_insert_with(|| LineIndex::new(src));
        let message = format!(
            "`{entry}` in this `hipport: allow(...)` names no diagnostic this hipport ({}) knows, so it suppresses nothing",
            env!("CARGO_PKG_VERSION")
        );
        let first = entry.split_whitespace().next().unwrap_or_default();
        let help = match suggestion(&entry) {
            _ if first != entry && known(first) => format!(
                "an entry is one ID or name: write the reason after the parenthesis, `hipport: allow({first}) {}`",
                entry[first.len()..].trim_start()
            ),
            Some(k) => format!("did you mean `{k}`? (`hipport explain {k}` describes it)"),
            None => "name a diagnostic by the ID a report shows (`H001`) or by its name (`warp-size-32`); `hipport explain ID` tells whether this hipport knows one".into(),
        };
        let d = Diagnostic::at(&UNKNOWN_ALLOW, file, index, offset, message, Some(help));
        if !diags
            .iter()
            .any(|o| o.id == d.id && o.file == d.file && o.line == d.line && o.message == d.message)
        {
            diags.push(d);
        }
    }
}

/// Whether an allow entry names something: `all`, a diagnostic's ID (any case) or its name.
fn known(entry: &str) -> bool {
    entry.eq_ignore_ascii_case("all") || crate::diag::find(entry).is_some()
}

/// The known ID or name an unknown entry most likely meant: one at most two keys away, else
/// the one name the entry begins (`sync-mask-32` for `sync-mask-32bit`) or that begins it.
fn suggestion(entry: &str) -> Option<&'static str> {
    let lower = entry.to_ascii_lowercase();
    let id_shaped = |t: &str| {
        let b = t.as_bytes();
        b.len() == 4 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit)
    };
    if let Some(n) = crate::diag::nearest(entry) {
        // An ID this hipport lacks (`H999`, perhaps a later version's) is no typo of one two
        // digits away (`H009`); one digit off (`H0011`, `H101`) may be.
        let apart = lower
            .bytes()
            .zip(n.to_ascii_lowercase().bytes())
            .filter(|(a, b)| a != b)
            .count();
        if !(id_shaped(entry) && id_shaped(n) && apart > 1) {
            return Some(n);
        }
        return None;
    }
    if lower.len() < 5 {
        return None;
    }
    let names: Vec<&'static str> = crate::diag::catalog()
        .into_iter()
        .map(|d| d.name)
        .filter(|n| n.starts_with(lower.as_str()) || lower.starts_with(n))
        .collect();
    match names[..] {
        [one] => Some(one),
        _ => None,
    }
}

/// Each entry of the `hipport: allow(...)` comments of `src`, with its offset: those after a
/// comment opener (`//`, `/*`, `#`, or a line of a block comment) on the line, not the text
/// of a string that happens to hold the words.
fn allow_entries(src: &[u8]) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(src, b"hipport:") {
        let line_start = src[..at]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let line_end = src[at..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(src.len(), |i| at + i);
        let before = String::from_utf8_lossy(&src[line_start..at]);
        let in_comment = before.contains("//")
            || before.contains("/*")
            || before.contains('#')
            || before.trim_start().starts_with('*')
            || before.trim().is_empty();
        if !in_comment {
            continue;
        }
        let rest = &src[at + "hipport:".len()..line_end];
        let Ok(rest) = std::str::from_utf8(rest) else {
            continue;
        };
        let t = rest.trim_start();
        let Some(after) = t.strip_prefix("allow") else {
            continue;
        };
        let after = after.trim_start();
        let Some(list) = after.strip_prefix('(') else {
            continue;
        };
        let Some(end) = list.find(')') else { continue };
        let list_at = at + "hipport:".len() + (rest.len() - list.len());
        let mut pos = 0;
        for part in list[..end].split(',') {
            let trimmed = part.trim();
            if !trimmed.is_empty() {
                let lead = part.len() - part.trim_start().len();
                out.push((list_at + pos + lead, trimmed.to_string()));
            }
            pos += part.len() + 1;
        }
    }
    out
}

/// Drops the diagnostics that an `hipport: allow(...)` comment on their line, or alone on the
/// line above, names by ID or by name.
pub fn apply_suppressions(src: &[u8], diags: &mut Vec<Diagnostic>) {
    if diags.is_empty() || memchr::memmem::find(src, b"hipport:").is_none() {
        return;
    }
    let index = LineIndex::new(src);
    diags.retain(|d| {
        let mut lines = vec![d.line];
        if d.line > 1 {
            lines.push(d.line - 1);
        }
        !lines.iter().any(|&l| {
            if l == 0 || l > index.lines() {
                return false;
            }
            let text = String::from_utf8_lossy(&src[index.line_range(src, l)]);
            (l == d.line || comment_only(&text)) && allowed(&text).iter().any(|a| matches(a, d))
        })
    });
}

/// Whether the line is only a comment that starts with `hipport:` (`// hipport: ...`,
/// `/* hipport: ... */`, Python's `# hipport: ...`), the form that covers the line below.
fn comment_only(line: &str) -> bool {
    let t = line.trim_start();
    let body = t
        .strip_prefix("//")
        .or_else(|| t.strip_prefix("/*"))
        .or_else(|| t.strip_prefix('#'));
    body.is_some_and(|b| b.trim_start().starts_with("hipport:"))
}

/// The entries of every `hipport: allow(...)` on one line.
fn allowed(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(i) = rest.find("hipport:") {
        rest = &rest[i + "hipport:".len()..];
        let t = rest.trim_start();
        let Some(after) = t.strip_prefix("allow") else {
            continue;
        };
        let Some(after) = after.trim_start().strip_prefix('(') else {
            continue;
        };
        let Some(end) = after.find(')') else { continue };
        out.extend(
            after[..end]
                .split(',')
                .map(|s| s.trim().to_string())
                .filter(|s| !s.is_empty()),
        );
        rest = &after[end..];
    }
    out
}

fn matches(entry: &str, d: &Diagnostic) -> bool {
    if entry.eq_ignore_ascii_case("all") || entry.eq_ignore_ascii_case(&d.id) {
        return true;
    }
    // A kebab name: look it up in hipport's catalogue, then in this module's table.
    let by_name = crate::diag::find(entry)
        .map(|i| i.id)
        .or_else(|| super::DIAGS.iter().find(|i| i.name == entry).map(|i| i.id));
    by_name.is_some_and(|id| id.eq_ignore_ascii_case(&d.id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::Severity;

    fn diag(id: &str, line: usize) -> Diagnostic {
        Diagnostic {
            id: id.into(),
            severity: Severity::Error,
            file: "f.cu".into(),
            line,
            column: 1,
            offset: 0,
            message: String::new(),
            help: None,
            fix: vec![],
        }
    }

    #[test]
    fn allow_on_same_line_line_above_by_id_and_name() {
        let src = b"int a; // hipport: allow(H001)\n\
                    // hipport: allow(sync-mask-32bit, H004)\n\
                    int b;\n\
                    int c;\n\
                    /* hipport: allow(all) */ int d;\n";
        let mut d = vec![
            diag("H001", 1), // same line: dropped
            diag("H002", 1), // not listed: kept
            diag("H003", 3), // line above, by name: dropped
            diag("H004", 3), // line above, by id: dropped
            diag("H001", 4), // line above has nothing: kept
            diag("H009", 5), // all: dropped
        ];
        apply_suppressions(src, &mut d);
        let kept: Vec<(&str, usize)> = d.iter().map(|d| (d.id.as_str(), d.line)).collect();
        assert_eq!(kept, vec![("H002", 1), ("H001", 4)]);
    }

    #[test]
    fn a_comment_after_code_covers_only_its_own_line() {
        let src = b"int a = x % 32; // hipport: allow(H001)
                    int b = y % 32;
                    #define W 32 // hipport: allow(H001)
                    int c = z % 32;
                    # hipport: allow(H001)
                    int d = w % 32;
";
        let mut d = vec![
            diag("H001", 1), // its own line: dropped
            diag("H001", 2), // the comment above follows code: kept
            diag("H001", 3), // its own line: dropped
            diag("H001", 4), // the comment above follows a directive: kept
            diag("H001", 6), // a Python comment alone above: dropped
        ];
        apply_suppressions(src, &mut d);
        let kept: Vec<usize> = d.iter().map(|d| d.line).collect();
        assert_eq!(kept, vec![2, 4]);
    }

    /// `(line, entry, help)` of each T027 report.
    fn unknown(src: &[u8], diags: &mut Vec<Diagnostic>) -> Vec<(usize, String, String)> {
        apply_suppressions_in(src, "f.cu", diags);
        diags
            .iter()
            .filter(|d| d.id == "T027")
            .map(|d| {
                let entry = d.message.split('`').nth(1).unwrap().to_string();
                (d.line, entry, d.help.clone().unwrap())
            })
            .collect()
    }

    #[test]
    fn an_entry_that_names_no_diagnostic_is_reported_with_the_closest_name() {
        let src = b"int a; // hipport: allow(H01)\n\
                    // hipport: allow(sync-mask-32, H999)\n\
                    int b;\n\
                    /* hipport: allow(Warp-Size-32) */ int c;\n\
                    int d; // hipport: allow(H001 the reduction is per 32 lanes)\n\
                    # hipport: allow(H0O1)\n";
        let mut d = vec![diag("H001", 1), diag("H003", 3)];
        let found = unknown(src, &mut d);
        let got: Vec<(usize, &str, &str)> = found
            .iter()
            .map(|(l, e, h)| (*l, e.as_str(), h.as_str()))
            .collect();
        let near = |k: &str| format!("did you mean `{k}`? (`hipport explain {k}` describes it)");
        let (h001, sync, ws) = (near("H001"), near("sync-mask-32bit"), near("warp-size-32"));
        let reason = "an entry is one ID or name: write the reason after the parenthesis, `hipport: allow(H001) the reduction is per 32 lanes`";
        assert_eq!(got[0], (1, "H01", h001.as_str()));
        assert_eq!(got[1], (2, "sync-mask-32", sync.as_str()));
        // An ID this version lacks is no typo of H009.
        assert_eq!(got[2].0, 2);
        assert_eq!(got[2].1, "H999");
        assert!(
            got[2].2.starts_with("name a diagnostic by the ID"),
            "{}",
            got[2].2
        );
        assert_eq!(got[3], (4, "Warp-Size-32", ws.as_str()));
        assert_eq!(got[4], (5, "H001 the reduction is per 32 lanes", reason));
        assert_eq!(got[5], (6, "H0O1", h001.as_str()));
        assert_eq!(got.len(), 6);
        // None of them suppressed what it meant to.
        assert!(d.iter().any(|d| d.id == "H001") && d.iter().any(|d| d.id == "H003"));
        // Where the report points: the entry itself.
        let t = d.iter().find(|d| d.id == "T027").unwrap();
        assert_eq!((t.line, t.column, t.severity), (1, 26, Severity::Warning));
    }

    #[test]
    fn known_entries_strings_and_a_second_pass_report_nothing_more() {
        let src = b"int a; // hipport: allow(h001, warp-size-32, all, T001, B004)\n\
                    const char *s = \"hipport: allow(H01)\";\n\
                    int b; // hipport: allow(H01)\n";
        let mut d = Vec::new();
        assert_eq!(unknown(src, &mut d).len(), 1, "{d:?}");
        // The translator applies suppressions to a file's diagnostics twice: one report.
        assert_eq!(unknown(src, &mut d).len(), 1, "{d:?}");
        // A file without a `hipport:` comment is left alone.
        let mut none = vec![diag("H001", 1)];
        apply_suppressions_in(b"int a = x % 32;\n", "f.cu", &mut none);
        assert_eq!(none.len(), 1);
    }

    #[test]
    fn parses_allow_lists() {
        assert_eq!(allowed("x // hipport: allow( H1 ,  b )"), vec!["H1", "b"]);
        assert!(allowed("x // hipport: deny(H1)").is_empty());
        assert!(allowed("x // hipport: allow(H1").is_empty());
    }
}
