//! In-source suppressions: `// hipport: allow(H001)` on the diagnostic's line, or alone on the
//! line above (a comment after code covers its own line only, not the next one).
//!
//! The list may name IDs or kebab names, separated by commas (`allow(H001, sync-mask-32bit)`);
//! `allow(all)` silences everything on that line. Block comments work too.

use crate::diag::{Diagnostic, LineIndex};

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

    #[test]
    fn parses_allow_lists() {
        assert_eq!(allowed("x // hipport: allow( H1 ,  b )"), vec!["H1", "b"]);
        assert!(allowed("x // hipport: deny(H1)").is_empty());
        assert!(allowed("x // hipport: allow(H1").is_empty());
    }
}
