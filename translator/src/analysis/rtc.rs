//! H059: CUDA device code held in C++ string literals of a file that compiles source at run
//! time (`nvrtcCreateProgram`, which the port turns into `hiprtcCreateProgram`). hipRTC gets
//! those strings as written: hipport renames and checks the file's code, not its strings, so a
//! `__ballot_sync` or `__shfl_sync` there reaches hipRTC unported (OpenMM builds its kernels'
//! warp macros that way).

use super::catalog::RTC_DEVICE_STRING;
use super::Analyzer;
use crate::diag::Severity;

/// Words that mark device code needing a port besides the warp-level operations of
/// [`super::row_warps::WARP_OPS`] (found as identifier prefixes: `__shfl` covers
/// `__shfl_xor_sync`): lane masks (a prefix too), the warp's size and inline assembly (whole
/// words). A kernel string without any of them (a SAXPY) compiles under hipRTC as written.
const MORE_MARKERS: &[(&str, bool)] = &[("__lanemask", true), ("warpSize", false), ("asm", false)];

/// Reports the string literals of the file that hold device code, where the file creates a
/// run-time compiled program.
pub(super) fn device_strings(a: &mut Analyzer) {
    let src = a.src;
    let Some(create) = ["nvrtcCreateProgram", "hiprtcCreateProgram"]
        .iter()
        .filter_map(|c| crate::lexer::whole_words(src, c).next())
        .min()
    else {
        return;
    };
    let line = a.index.position(create).0;
    for (start, content) in literals(src) {
        let text = &src[content];
        // The words found, whole (`__ballot_sync` for the marker `__ballot`), at most three.
        let mut found: Vec<&str> = Vec::new();
        let markers = super::row_warps::WARP_OPS
            .iter()
            .map(|m| (*m, true))
            .chain(MORE_MARKERS.iter().copied());
        for (m, prefix) in markers {
            for i in memchr::memmem::find_iter(text, m.as_bytes()) {
                if i > 0 && crate::lexer::is_word_byte(text[i - 1]) {
                    continue;
                }
                let end = i + text[i..]
                    .iter()
                    .position(|b| !crate::lexer::is_word_byte(*b))
                    .unwrap_or(text.len() - i);
                if end != i + m.len() && !prefix {
                    continue;
                }
                let word = std::str::from_utf8(&text[i..end]).unwrap_or(m);
                if !found.contains(&word) && found.len() < 3 {
                    found.push(word);
                }
            }
        }
        if found.is_empty() {
            continue;
        }
        let names = found
            .iter()
            .map(|n| format!("`{n}`"))
            .collect::<Vec<_>>()
            .join(", ");
        a.report_at(
            &RTC_DEVICE_STRING,
            Severity::Warning,
            start,
            format!("this string holds device code ({names}) that the program created on line {line} compiles at run time: hipport ports the file's code, not its strings, so hipRTC gets it as written"),
            Some("port the string by hand as a .cu file would be ported (write it to a .cu file and run `hipport check` on it): HIP's ballot is 64 bits, the `_sync` warp builtins need ROCm 6.2 or later and 64-bit masks, and CDNA's wavefront has 64 lanes".into()),
            vec![],
        );
    }
}

/// The string literals of C or C++ text outside comments and preprocessor lines: the start of
/// each literal (its prefix) and the range of its content. Raw strings (`R"d(...)d"`) included.
fn literals(src: &[u8]) -> Vec<(usize, std::ops::Range<usize>)> {
    let mut out = Vec::new();
    let n = src.len();
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = src[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && c == b'#' {
            // A directive, with its continuation lines.
            while i < n && !(src[i] == b'\n' && src[i - 1] != b'\\') {
                i += 1;
            }
            continue;
        }
        if !c.is_ascii_whitespace() {
            line_start = false;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'/') {
            while i < n && src[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && src.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < n && !(src[i] == b'*' && src[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(n);
        } else if c == b'\'' {
            i += 1;
            while i < n && src[i] != b'\'' && src[i] != b'\n' {
                i += usize::from(src[i] == b'\\') + 1;
            }
            i += 1;
        } else if c == b'R'
            && src.get(i + 1) == Some(&b'"')
            && (i == 0
                || !crate::lexer::is_word_byte(src[i - 1])
                || matches!(src[i - 1], b'8' | b'L' | b'u' | b'U'))
        {
            // R"delim( ... )delim"
            let open = i + 2;
            let Some(paren) = src[open..n.min(open + 17)].iter().position(|&b| b == b'(') else {
                i += 2;
                continue;
            };
            let delim = &src[open..open + paren];
            let body = open + paren + 1;
            let mut close = Vec::with_capacity(delim.len() + 2);
            close.push(b')');
            close.extend_from_slice(delim);
            close.push(b'"');
            match memchr::memmem::find(&src[body..], &close) {
                Some(e) => {
                    out.push((i, body..body + e));
                    i = body + e + close.len();
                }
                None => return out,
            }
        } else if c == b'"' {
            let body = i + 1;
            let mut j = body;
            while j < n && src[j] != b'"' && src[j] != b'\n' {
                j += usize::from(src[j] == b'\\') + 1;
            }
            out.push((i, body..j.min(n)));
            i = j + 1;
        } else if crate::lexer::is_word_byte(c) {
            // A word, up to a raw string's `R"` prefix; always at least one byte.
            i += 1;
            while i < n
                && crate::lexer::is_word_byte(src[i])
                && !(src[i] == b'R' && src.get(i + 1) == Some(&b'"'))
            {
                i += 1;
            }
        } else {
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::literals;

    #[test]
    fn literals_skip_comments_directives_and_characters() {
        let src = b"#include \"a.h\"\n// \"no\"\nconst char* s = \"x\\\"y\"; char c = '\"';\n/* \"no\" */ auto r = R\"k(a \"b\" )k\"; auto u = u8R\"(z)\";\n";
        let found: Vec<&[u8]> = literals(src).into_iter().map(|(_, r)| &src[r]).collect();
        assert_eq!(found, [&b"x\\\"y"[..], b"a \"b\" ", b"z"]);
    }

    /// An `R"` after a word byte that is no raw-string prefix (`xR"`), cut or damaged text:
    /// the scan always moves on and ends.
    #[test]
    fn literals_end_on_any_text() {
        for src in [
            &b"xR\"a\" yR\"(b)\""[..],
            b"R\"",
            b"R\"abc",
            b"\"",
            b"'",
            b"/*",
            b"#",
        ] {
            let _ = literals(src);
        }
        let found: Vec<usize> = literals(b"xR\"a\"").into_iter().map(|(s, _)| s).collect();
        assert_eq!(found, [2]);
    }
}
