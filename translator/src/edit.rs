//! Edits as byte ranges on the original text, collected first and applied once.
//!
//! Every rewrite in hipport is an [`Edit`]; bytes outside all edits are copied unchanged, so CRLF,
//! tabs, a BOM and invalid UTF-8 survive translation exactly.

use serde::Serialize;

/// Replace `start..end` of the original bytes with `text`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// First byte replaced.
    pub start: usize,
    /// One past the last byte replaced (equal to `start` for an insertion).
    pub end: usize,
    /// Replacement text.
    pub text: String,
    /// The rule (or diagnostic ID) that produced the edit, for reports.
    pub rule: String,
}

impl Edit {
    /// A replacement of `start..end`.
    pub fn replace(
        start: usize,
        end: usize,
        text: impl Into<String>,
        rule: impl Into<String>,
    ) -> Edit {
        Edit {
            start,
            end,
            text: text.into(),
            rule: rule.into(),
        }
    }

    /// An insertion at `at`.
    pub fn insert(at: usize, text: impl Into<String>, rule: impl Into<String>) -> Edit {
        Edit::replace(at, at, text, rule)
    }
}

/// Two edits claim overlapping bytes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("edits overlap: {first_rule} at {first_start}..{first_end} and {second_rule} at {second_start}..{second_end}")]
pub struct OverlapError {
    /// Rule of the first edit.
    pub first_rule: String,
    /// Start of the first edit.
    pub first_start: usize,
    /// End of the first edit.
    pub first_end: usize,
    /// Rule of the second edit.
    pub second_rule: String,
    /// Start of the second edit.
    pub second_start: usize,
    /// End of the second edit.
    pub second_end: usize,
}

/// Sorts edits, drops exact duplicates, and resolves overlaps: an edit wholly inside an earlier,
/// larger one is dropped (the larger rewrite already covers it); a partial overlap is an error.
pub fn normalize(edits: &mut Vec<Edit>) -> Result<(), OverlapError> {
    // By start; at one start, insertions before replacements (so an insertion in front of a
    // renamed name survives), then the larger replacement first.
    edits.sort_by(|a, b| {
        a.start
            .cmp(&b.start)
            .then((b.start == b.end).cmp(&(a.start == a.end)))
            .then(b.end.cmp(&a.end))
            .then(a.text.cmp(&b.text))
    });
    edits.dedup_by(|b, a| a.start == b.start && a.end == b.end && a.text == b.text);
    let mut kept: Vec<Edit> = Vec::with_capacity(edits.len());
    for e in edits.drain(..) {
        if let Some(last) = kept.last() {
            let insertion_at_same_point =
                e.start == e.end && last.start == last.end && e.start == last.start;
            if e.start < last.end || insertion_at_same_point && e.text == last.text {
                if e.end <= last.end && last.start < last.end {
                    continue; // contained in the previous replacement
                }
                if !insertion_at_same_point {
                    return Err(OverlapError {
                        first_rule: last.rule.clone(),
                        first_start: last.start,
                        first_end: last.end,
                        second_rule: e.rule,
                        second_start: e.start,
                        second_end: e.end,
                    });
                }
                continue;
            }
        }
        kept.push(e);
    }
    *edits = kept;
    Ok(())
}

/// The line ending text inserted into `src` should use: CRLF when the file has any, else LF.
pub fn line_ending(src: &[u8]) -> &'static str {
    if memchr::memmem::find(src, b"\r\n").is_some() {
        "\r\n"
    } else {
        "\n"
    }
}

/// Widens each deletion that empties its line (nothing else on it but blanks, and no other edit
/// on it) to the whole line with its line break, so a removed statement leaves no blank line
/// behind (which `git apply` reports as a whitespace error). `edits` must be normalized.
pub fn drop_emptied_lines(src: &[u8], edits: &mut [Edit]) {
    let blank = |b: &[u8]| b.iter().all(|c| matches!(c, b' ' | b'\t' | b'\r'));
    for i in 0..edits.len() {
        let e = &edits[i];
        if !e.text.is_empty() || e.start == e.end || e.end > src.len() {
            continue;
        }
        // A deletion that takes its line break already took its line; the next line (a blank
        // one, say) is not its to take.
        if src[e.end - 1] == b'\n' {
            continue;
        }
        let line_start = src[..e.start]
            .iter()
            .rposition(|&c| c == b'\n')
            .map_or(0, |p| p + 1);
        let Some(nl) = src[e.end..].iter().position(|&c| c == b'\n') else {
            continue;
        };
        let line_end = e.end + nl + 1;
        // The deletion itself may span lines; what is left of its first and last lines must be
        // blank, and the line must not have been blank already.
        if !blank(&src[line_start..e.start]) || !blank(&src[e.end..line_end - 1]) {
            continue;
        }
        // Sorted and disjoint: only the neighbours can reach into the line.
        let others = (i > 0 && edits[i - 1].end >= line_start)
            || edits.get(i + 1).is_some_and(|o| o.start <= line_end);
        if others {
            continue;
        }
        let e = &mut edits[i];
        e.start = line_start;
        e.end = line_end;
    }
}

/// Applies edits to `src`; the edits are normalized first.
pub fn apply(src: &[u8], edits: &mut Vec<Edit>) -> Result<Vec<u8>, OverlapError> {
    normalize(edits)?;
    let extra: usize = edits.iter().map(|e| e.text.len()).sum();
    let mut out = Vec::with_capacity(src.len() + extra);
    let mut pos = 0;
    for e in edits.iter() {
        out.extend_from_slice(&src[pos..e.start]);
        out.extend_from_slice(e.text.as_bytes());
        pos = e.end;
    }
    out.extend_from_slice(&src[pos..]);
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deletion_that_empties_its_line_takes_the_line() {
        let src = b"a();\n    b();\n  c(); d();\n\n";
        // `b();` alone on its line: the line goes. `c();` shares its line: only it goes.
        let mut edits = vec![
            Edit::replace(9, 13, "", "r"),
            Edit::replace(16, 20, "", "r"),
        ];
        normalize(&mut edits).unwrap();
        drop_emptied_lines(src, &mut edits);
        assert_eq!(apply(src, &mut edits).unwrap(), b"a();\n   d();\n\n");
        // CRLF, and a line another edit also touches, which is left as it is.
        let src = b"x\r\n  y;\r\nz\r\n";
        let mut edits = vec![Edit::replace(5, 7, "", "r")];
        drop_emptied_lines(src, &mut edits);
        assert_eq!(apply(src, &mut edits).unwrap(), b"x\r\nz\r\n");
        let mut edits = vec![Edit::replace(5, 7, "", "r"), Edit::insert(3, "w", "r")];
        normalize(&mut edits).unwrap();
        drop_emptied_lines(src, &mut edits);
        assert_eq!(apply(src, &mut edits).unwrap(), b"x\r\nw  \r\nz\r\n");
    }

    #[test]
    fn a_deletion_of_a_whole_line_keeps_the_blank_line_after_it() {
        let src = b"#include <a.h>\n#include <b.h>\n\nint x;\n";
        let mut edits = vec![Edit::replace(15, 30, "", "r")];
        normalize(&mut edits).unwrap();
        drop_emptied_lines(src, &mut edits);
        assert_eq!(
            apply(src, &mut edits).unwrap(),
            b"#include <a.h>\n\nint x;\n"
        );
    }

    #[test]
    fn applies_in_order_and_keeps_other_bytes() {
        let src = b"a\r\nbb\tcc\xff";
        let mut edits = vec![Edit::replace(3, 5, "XX", "r"), Edit::insert(0, "<", "r")];
        assert_eq!(apply(src, &mut edits).unwrap(), b"<a\r\nXX\tcc\xff");
    }

    #[test]
    fn contained_edit_is_dropped_partial_overlap_is_error() {
        let mut edits = vec![
            Edit::replace(0, 10, "x", "big"),
            Edit::replace(2, 4, "y", "small"),
        ];
        assert_eq!(apply(b"0123456789", &mut edits).unwrap(), b"x");
        let mut edits = vec![Edit::replace(0, 5, "x", "a"), Edit::replace(3, 8, "y", "b")];
        let err = apply(b"0123456789", &mut edits).unwrap_err();
        assert_eq!(
            (err.first_rule.as_str(), err.second_rule.as_str()),
            ("a", "b")
        );
    }

    #[test]
    fn insertion_before_a_replacement_at_the_same_point_is_kept() {
        let mut edits = vec![
            Edit::replace(0, 3, "hipX", "rename"),
            Edit::insert(0, "f(", "launch"),
        ];
        assert_eq!(apply(b"cuX<<<", &mut edits).unwrap(), b"f(hipX<<<");
    }

    #[test]
    fn duplicate_edits_collapse() {
        let mut edits = vec![Edit::replace(1, 2, "z", "a"), Edit::replace(1, 2, "z", "b")];
        assert_eq!(apply(b"abc", &mut edits).unwrap(), b"azc");
    }
}
