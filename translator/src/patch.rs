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
}
