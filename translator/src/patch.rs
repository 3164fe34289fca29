//! Unified diffs that `git apply` and `patch -p1` accept.

use similar::TextDiff;

/// The unified diff of one file, with `a/` and `b/` paths; empty when nothing changed.
pub fn file_diff(rel_path: &str, old: &[u8], new: &[u8]) -> Vec<u8> {
    file_diff_renamed(rel_path, rel_path, old, new)
}

/// The diff of a file that may also move from `old_path` to `new_path` (git's rename headers,
/// which `git apply` follows); empty when neither the name nor the text changed.
pub fn file_diff_renamed(old_path: &str, new_path: &str, old: &[u8], new: &[u8]) -> Vec<u8> {
    if old == new && old_path == new_path {
        return Vec::new();
    }
    let mut out = format!("diff --git a/{old_path} b/{new_path}\n").into_bytes();
    if old_path != new_path {
        out.extend_from_slice(format!("rename from {old_path}\nrename to {new_path}\n").as_bytes());
        if old == new {
            return out;
        }
    }
    let diff = TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .diff_lines(old, new);
    let a = format!("a/{old_path}");
    let b = format!("b/{new_path}");
    diff.unified_diff()
        .context_radius(3)
        .header(&a, &b)
        .to_writer(&mut out)
        .expect("writing to a Vec cannot fail");
    out
}

/// The diff that creates a new file at `rel_path`.
pub fn new_file_diff(rel_path: &str, new: &[u8]) -> Vec<u8> {
    let mut out =
        format!("diff --git a/{rel_path} b/{rel_path}\nnew file mode 100644\n").into_bytes();
    if new.is_empty() {
        return out;
    }
    let lines = new.split_inclusive(|&b| b == b'\n').count();
    out.extend_from_slice(
        format!("--- /dev/null\n+++ b/{rel_path}\n@@ -0,0 +1,{lines} @@\n").as_bytes(),
    );
    for line in new.split_inclusive(|&b| b == b'\n') {
        out.push(b'+');
        out.extend_from_slice(line);
        if !line.ends_with(b"\n") {
            out.extend_from_slice(b"\n\\ No newline at end of file\n");
        }
    }
    out
}

/// One change: first old line, the old lines, the new lines.
type Change<'a> = (usize, Vec<&'a [u8]>, Vec<Vec<u8>>);

/// The unified diff of one file from the edits that made its new text: `edits` are `(start, end,
/// replacement)` on `old`, sorted and disjoint (as [`crate::edit::apply`] leaves them). The lines
/// the edits touch are the changed lines, so this takes time linear in the file, where a general
/// diff of two texts can take quadratic time (many identical lines all changed the same way).
pub fn edits_diff(rel_path: &str, old: &[u8], edits: &[(usize, usize, &[u8])]) -> Vec<u8> {
    const CONTEXT: usize = 3;
    let mut starts = vec![0usize];
    starts.extend(
        old.iter()
            .enumerate()
            .filter(|&(i, &b)| b == b'\n' && i + 1 < old.len())
            .map(|(i, _)| i + 1),
    );
    let n = if old.is_empty() { 0 } else { starts.len() };
    let line_start = |i: usize| if i < n { starts[i] } else { old.len() };
    let line_of = |off: usize| starts.partition_point(|&s| s <= off) - 1;
    // Blocks of whole old lines touched by edits: (first line, end line, first edit, end edit).
    let mut blocks: Vec<(usize, usize, usize, usize)> = Vec::new();
    for (k, &(start, end, new)) in edits.iter().enumerate() {
        let a = if start < old.len() {
            line_of(start)
        } else if n > 0 && !old.ends_with(b"\n") {
            n - 1 // appending to a last line that has no newline
        } else {
            n
        };
        let b = if end > start {
            line_of(end - 1) + 1
        } else if start < old.len() && start == line_start(a) && new.ends_with(b"\n") {
            // Whole lines put before a line: that line is no part of the change (an edit on
            // it, or on the next one, must not show it as removed and added again).
            a
        } else {
            (a + 1).min(n)
        };
        match blocks.last_mut() {
            Some(last) if a <= last.1 => {
                last.1 = last.1.max(b);
                last.3 = k + 1;
            }
            _ => blocks.push((a, b, k, k + 1)),
        }
    }
    // Changes: (first old line, old lines, new lines), common leading/trailing lines trimmed.
    let mut changes: Vec<Change> = Vec::new();
    for &(a, b, e0, e1) in &blocks {
        let (from, to) = (line_start(a), line_start(b));
        let mut text = Vec::new();
        let mut pos = from;
        for &(start, end, new) in &edits[e0..e1] {
            text.extend_from_slice(&old[pos..start]);
            text.extend_from_slice(new);
            pos = end;
        }
        text.extend_from_slice(&old[pos..to]);
        let olds: Vec<&[u8]> = old[from..to].split_inclusive(|&c| c == b'\n').collect();
        let news: Vec<&[u8]> = text.split_inclusive(|&c| c == b'\n').collect();
        let p = olds.iter().zip(&news).take_while(|(x, y)| x == y).count();
        let s = olds[p..]
            .iter()
            .rev()
            .zip(news[p..].iter().rev())
            .take_while(|(x, y)| x == y)
            .count();
        let (o, w) = (&olds[p..olds.len() - s], &news[p..news.len() - s]);
        if !o.is_empty() || !w.is_empty() {
            changes.push((a + p, o.to_vec(), w.iter().map(|l| l.to_vec()).collect()));
        }
    }
    if changes.is_empty() {
        return Vec::new();
    }
    let mut out =
        format!("diff --git a/{rel_path} b/{rel_path}\n--- a/{rel_path}\n+++ b/{rel_path}\n")
            .into_bytes();
    let range = |start: usize, len: usize| {
        if len == 1 {
            format!("{}", start + 1)
        } else if len == 0 {
            format!("{start},0")
        } else {
            format!("{},{len}", start + 1)
        }
    };
    let line = |out: &mut Vec<u8>, tag: u8, l: &[u8]| {
        out.push(tag);
        out.extend_from_slice(l);
        if !l.ends_with(b"\n") {
            out.extend_from_slice(b"\n\\ No newline at end of file\n");
        }
    };
    let old_line = |i: usize| &old[line_start(i)..line_start(i + 1)];
    let mut delta: isize = 0;
    let mut i = 0;
    while i < changes.len() {
        // Changes closer than twice the context share a hunk.
        let mut j = i + 1;
        while j < changes.len()
            && changes[j].0 <= changes[j - 1].0 + changes[j - 1].1.len() + 2 * CONTEXT
        {
            j += 1;
        }
        let first = changes[i].0;
        let last_end = changes[j - 1].0 + changes[j - 1].1.len();
        let from = first.saturating_sub(CONTEXT);
        let to = (last_end + CONTEXT).min(n);
        let growth: isize = changes[i..j]
            .iter()
            .map(|c| c.2.len() as isize - c.1.len() as isize)
            .sum();
        let new_from = (from as isize + delta) as usize;
        let old_len = to - from;
        let new_len = (old_len as isize + growth) as usize;
        out.extend_from_slice(
            format!(
                "@@ -{} +{} @@\n",
                range(from, old_len),
                range(new_from, new_len)
            )
            .as_bytes(),
        );
        let mut at = from;
        for (start, olds, news) in &changes[i..j] {
            for k in at..*start {
                line(&mut out, b' ', old_line(k));
            }
            for l in olds {
                line(&mut out, b'-', l);
            }
            for l in news {
                line(&mut out, b'+', l);
            }
            at = start + olds.len();
        }
        for k in at..to {
            line(&mut out, b' ', old_line(k));
        }
        delta += growth;
        i = j;
    }
    out
}

/// Colours a unified diff for a terminal: headers bold, removals red, additions green.
pub fn colorize(patch: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(patch.len() + patch.len() / 8);
    for line in patch.split_inclusive(|&b| b == b'\n') {
        let color: &[u8] =
            if line.starts_with(b"diff ") || line.starts_with(b"--- ") || line.starts_with(b"+++ ")
            {
                b"\x1b[1m"
            } else if line.starts_with(b"@@") {
                b"\x1b[36m"
            } else if line.starts_with(b"-") {
                b"\x1b[31m"
            } else if line.starts_with(b"+") {
                b"\x1b[32m"
            } else {
                b""
            };
        if color.is_empty() {
            out.extend_from_slice(line);
        } else {
            let (body, nl) = match line.strip_suffix(b"\n") {
                Some(b) => (b, &b"\n"[..]),
                None => (line, &b""[..]),
            };
            out.extend_from_slice(color);
            out.extend_from_slice(body);
            out.extend_from_slice(b"\x1b[0m");
            out.extend_from_slice(nl);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_change_no_diff() {
        assert!(file_diff("x.cu", b"a\n", b"a\n").is_empty());
    }

    #[test]
    fn diff_has_git_headers_and_missing_newline_hint() {
        let d = String::from_utf8(file_diff("d/x.cu", b"a\nb", b"a\nc")).unwrap();
        assert!(
            d.starts_with("diff --git a/d/x.cu b/d/x.cu\n--- a/d/x.cu\n+++ b/d/x.cu\n"),
            "{d}"
        );
        assert!(
            d.contains("-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"),
            "{d}"
        );
    }

    /// Applies `edits` and checks that the linear diff equals the general one.
    fn same_as_general(old: &[u8], edits: &[(usize, usize, &[u8])]) {
        let mut new = Vec::new();
        let mut pos = 0;
        for &(s, e, t) in edits {
            new.extend_from_slice(&old[pos..s]);
            new.extend_from_slice(t);
            pos = e;
        }
        new.extend_from_slice(&old[pos..]);
        let a = String::from_utf8(edits_diff("x.cu", old, edits)).unwrap();
        let b = String::from_utf8(file_diff("x.cu", old, &new)).unwrap();
        assert_eq!(a, b, "old {:?}", String::from_utf8_lossy(old));
    }

    #[test]
    fn edits_diff_matches_the_general_diff() {
        let src = b"#include <cuda.h>\nint a;\nint b;\nint c;\nint d;\nint e;\nint f;\nint g;\nint h;\nint i;\nint j;\ncudaFree(0);\nint k;\n";
        same_as_general(src, &[(10, 14, b"hip/hip_runtime")]);
        same_as_general(src, &[(10, 14, b"hip"), (82, 86, b"hip")]);
        same_as_general(src, &[(0, 0, b"// top\n"), (82, 90, b"hipFree")]);
        // An include put before a line that stays, with an edit on the next line (R21-1), or
        // on that line itself.
        let include = &b"#include <hip/hip_runtime.h>\n"[..];
        same_as_general(src, &[(18, 18, include), (25, 28, b"long")]);
        same_as_general(src, &[(18, 18, include), (18, 21, b"long")]);
        same_as_general(
            src,
            &[(18, 18, include), (18, 18, b"// x\n"), (32, 35, b"long")],
        );
        same_as_general(src, &[(src.len(), src.len(), b"// end\n")]);
        same_as_general(src, &[(18, 24, b"long a;\nint a2;\n")]);
        same_as_general(src, &[(18, 25, b"")]);
        same_as_general(src, &[(14, 14, b"")]);
        // No newline at the end, before and after.
        same_as_general(b"a\nb", &[(2, 3, b"c")]);
        same_as_general(b"a\nb", &[(3, 3, b"\n")]);
        same_as_general(b"a\nb\n", &[(3, 4, b"")]);
        same_as_general(b"", &[(0, 0, b"x\n")]);
        same_as_general(b"a\r\nb\r\n", &[(0, 1, b"c")]);
    }

    #[test]
    fn edits_diff_is_linear_on_many_identical_changed_lines() {
        let line = b"void f(float *p) { if (p) { cudaFree(p); } }\n";
        let src = line.repeat(40_000);
        let edits: Vec<(usize, usize, &[u8])> = (0..40_000)
            .map(|i| (i * line.len() + 28, i * line.len() + 32, &b"hip"[..]))
            .collect();
        let start = std::time::Instant::now();
        let d = edits_diff("x.cu", &src, &edits);
        assert!(start.elapsed() < std::time::Duration::from_secs(5));
        let text = String::from_utf8(d).unwrap();
        assert!(text.starts_with(
            "diff --git a/x.cu b/x.cu\n--- a/x.cu\n+++ b/x.cu\n@@ -1,40000 +1,40000 @@\n-void"
        ));
        assert_eq!(
            text.matches("\n+void f(float *p) { if (p) { hipFree(p); } }")
                .count(),
            40_000
        );
    }
}
