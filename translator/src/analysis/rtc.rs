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
///
/// A file whose whole text is string literals (xmrig-cuda's `CryptonightR.cu`, one raw string
/// that `const char* src = \n#include "CryptonightR.cu"\n;` pulls into an initializer) is such
/// a program's source too, wherever the program is created (realuser32 R32-b).
pub(super) fn device_strings(a: &mut Analyzer) {
    let src = a.src;
    let lits = literals(src);
    let create = ["nvrtcCreateProgram", "hiprtcCreateProgram"]
        .iter()
        .filter_map(|c| crate::lexer::whole_words(src, c).next())
        .min();
    let whence = match create {
        Some(create) => format!(
            "the program created on line {} compiles at run time",
            a.index.position(create).0
        ),
        None if string_fragment(src, &lits) => "a program compiles at run time (this file is only a string, for a file that includes it to hand to the compiler)".to_string(),
        None => return,
    };
    for (k, (start, content)) in lits.iter().enumerate() {
        let (start, text) = (*start, &src[content.clone()]);
        // A message the program prints is never the program's source (verify3 regression 3).
        if printed(src, &lits, k) {
            continue;
        }
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
            format!("this string holds device code ({names}) that {whence}: hipport ports the file's code, not its strings, so hipRTC gets it as written"),
            Some("port the string by hand as a .cu file would be ported (write it to a .cu file and run `hipport check` on it): HIP's ballot is 64 bits, the `_sync` warp builtins need ROCm 6.2 or later and 64-bit masks, and CDNA's wavefront has 64 lanes".into()),
            vec![],
        );
    }
}

/// Whether `src`, with its string literals `lits` (from [`literals`]), is nothing but those
/// literals, blanks and comments between them: a fragment of a program's source text meant to
/// be included into an initializer (`const char* src =\n#include "kernel.cu"\n;`).
fn string_fragment(src: &[u8], lits: &[(usize, std::ops::Range<usize>)]) -> bool {
    if lits.is_empty() {
        return false;
    }
    let mut at = 0;
    for (start, content) in lits {
        if !blank(&src[at..*start]) {
            return false;
        }
        // Past the closing quote: `)delim"` of a raw string, `"` of another.
        at = if src[*start] == b'R' {
            let delim = content.start - start - 3;
            content.end + delim + 2
        } else {
            content.end + 1
        };
        if at > src.len() || src[at - 1] != b'"' {
            return false;
        }
    }
    blank(&src[at..])
}

/// Whether `text` holds only blanks and comments.
fn blank(text: &[u8]) -> bool {
    let mut i = 0;
    while i < text.len() {
        if text[i..].starts_with(b"//") {
            i += memchr::memchr(b'\n', &text[i..]).unwrap_or(text.len() - i);
        } else if text[i..].starts_with(b"/*") {
            match memchr::memmem::find(&text[i + 2..], b"*/") {
                Some(e) => i += e + 4,
                None => return false,
            }
        } else if text[i].is_ascii_whitespace() {
            i += 1;
        } else {
            return false;
        }
    }
    true
}

/// Calls that print their arguments: a string passed to them is a message, not device code.
const OUTPUT_CALLS: &[&str] = &[
    "printf", "fprintf", "vprintf", "vfprintf", "dprintf", "puts", "fputs", "perror", "print",
    "println",
];

/// Calls that format into a buffer or a string: a string passed to them is a message unless it
/// reads as code (a program source can be made with `snprintf` from a template).
const FORMAT_CALLS: &[&str] = &["sprintf", "snprintf", "vsprintf", "vsnprintf", "format"];

/// Whether literal `k` of `lits` (from [`literals`]) is printed or formatted as a message: an
/// argument of a printing call (`fprintf(stderr, "...")`, `fmt::print`), of a formatting call
/// where it does not read as code, or streamed to `std::cout`, `std::cerr` or `std::clog`.
fn printed(src: &[u8], lits: &[(usize, std::ops::Range<usize>)], k: usize) -> bool {
    let (start, content) = &lits[k];
    let text = &src[content.clone()];
    let code = [&b"__global__"[..], b"__device__", b";"]
        .iter()
        .any(|w| memchr::memmem::find(text, w).is_some());
    // Back from the literal to the unclosed `(` of its call, or to the start of its statement,
    // stepping over the literals before it.
    let mut i = *start;
    let mut before = k;
    let mut depth = 0usize;
    let mut streamed = false;
    let floor = start.saturating_sub(8192);
    while i > floor {
        if before > 0 && lits[before - 1].1.end >= i {
            before -= 1;
            i = lits[before].0;
            continue;
        }
        i -= 1;
        match src[i] {
            b')' | b']' => depth += 1,
            b'(' | b'[' if depth > 0 => depth -= 1,
            b'(' if !streamed => {
                let name = word_before(src, i);
                return OUTPUT_CALLS.contains(&name) || (FORMAT_CALLS.contains(&name) && !code);
            }
            b'[' | b'(' => return false,
            b';' | b'{' | b'}' if depth == 0 => break,
            b'<' if depth == 0 && i > 0 && src[i - 1] == b'<' => {
                streamed = true;
                i -= 1;
            }
            _ => {}
        }
    }
    if !streamed {
        return false;
    }
    // The statement starts with a standard output stream.
    let stmt = String::from_utf8_lossy(&src[i..*start]);
    let first = stmt
        .trim_start_matches(|c: char| c == ';' || c == '{' || c == '}' || c.is_whitespace())
        .trim_start_matches("std::");
    ["cout", "cerr", "clog", "wcout", "wcerr"].iter().any(|s| {
        first
            .strip_prefix(s)
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
    })
}

/// The identifier that ends right before byte `i` (spaces skipped), without its `std::` or
/// `fmt::` qualifier: the name of the call whose `(` is at `i`.
fn word_before(src: &[u8], i: usize) -> &str {
    let mut end = i;
    while end > 0 && src[end - 1].is_ascii_whitespace() {
        end -= 1;
    }
    let mut begin = end;
    while begin > 0 && crate::lexer::is_word_byte(src[begin - 1]) {
        begin -= 1;
    }
    std::str::from_utf8(&src[begin..end]).unwrap_or("")
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
    use super::{literals, printed};

    /// verify3 regression 3: messages printed, formatted or streamed to std::cerr are not the
    /// program's source; a string passed elsewhere, a code template formatted into a buffer
    /// and a string assigned to a map entry are.
    #[test]
    fn printed_strings_are_messages() {
        let cases: &[(&str, bool)] = &[
            ("fprintf(stderr, \"no __shfl_sync\\n\");", true),
            ("printf(\"%s\", \"__ballot_sync\");", true),
            ("std::printf(\"__ballot_sync %d\", f(1));", true),
            ("snprintf(buf, 64, \"uses __shfl_sync: %d\", n);", true),
            (
                "std::cerr << \"x\" << f(2) << \"__ballot_sync\" << std::endl;",
                true,
            ),
            ("  cout<<\"__any_sync\";", true),
            (
                "snprintf(buf, 64, \"__device__ int f() { return __shfl_sync(m, v, 0); }\");",
                false,
            ),
            (
                "defines[\"BALLOT(var)\"] = \"__ballot_sync(0xffffffff, var)\";",
                false,
            ),
            ("ss << \"__ballot_sync\";", false),
            (
                "nvrtcCreateProgram(&p, \"__shfl_sync\", \"k.cu\", 0, 0, 0);",
                false,
            ),
            ("std::string s = std::string(\"__shfl_sync\");", false),
        ];
        for (stmt, want) in cases {
            let src = format!("void f() {{\n  int x = 0;\n  {stmt}\n}}\n");
            let b = src.as_bytes();
            let lits = literals(b);
            let k = lits
                .iter()
                .position(|(_, r)| b[r.clone()].windows(5).any(|w| w == b"_sync"))
                .expect("a warp literal");
            assert_eq!(printed(b, &lits, k), *want, "{stmt}");
        }
    }

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
