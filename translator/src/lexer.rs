//! A small C lexer for text the parser leaves opaque (macro bodies): finds identifiers while
//! skipping comments, string and character literals, and numbers.

use std::ops::Range;

/// Byte ranges of the identifiers in `text`, outside comments and literals.
pub fn identifiers(text: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut i = 0;
    let n = text.len();
    while i < n {
        let c = text[i];
        if c == b'/' && i + 1 < n && text[i + 1] == b'/' {
            while i < n && text[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && i + 1 < n && text[i + 1] == b'*' {
            i += 2;
            while i + 1 < n && !(text[i] == b'*' && text[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(n);
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < n && text[i] != c && text[i] != b'\n' {
                if text[i] == b'\\' {
                    i += 1;
                }
                i += 1;
            }
            i += 1;
        } else if c.is_ascii_digit() {
            // A number, including suffixes and hex digits (0xffu, 1e-5f).
            while i < n && (text[i].is_ascii_alphanumeric() || text[i] == b'.' || text[i] == b'_') {
                i += 1;
            }
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < n && (text[i].is_ascii_alphanumeric() || text[i] == b'_') {
                i += 1;
            }
            // A string prefix such as u8"..." or L'x' belongs to the literal.
            if i < n
                && (text[i] == b'"' || text[i] == b'\'')
                && matches!(&text[start..i], b"L" | b"u" | b"U" | b"u8" | b"R")
            {
                continue;
            }
            out.push(start..i);
        } else {
            i += 1;
        }
    }
    out
}

/// Whether `b` can be part of an identifier.
pub fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Where `name` stands in `text` as a whole word (no identifier byte just before or after), by
/// text alone: comments and literals included.
pub fn whole_words<'t>(text: &'t [u8], name: &'t str) -> impl Iterator<Item = usize> + 't {
    let len = name.len();
    memchr::memmem::find_iter(text, name.as_bytes())
        .filter(move |_| len > 0)
        .filter(move |&at| {
            let before = at.checked_sub(1).map(|i| text[i]);
            let after = text.get(at + len).copied();
            !before.is_some_and(is_word_byte) && !after.is_some_and(is_word_byte)
        })
}

/// Whether `text` (a call's arguments) names a vote, `__ballot` or `__ballot_sync`, outside
/// comments and literals.
pub fn names_ballot(text: &[u8]) -> bool {
    identifiers(text)
        .into_iter()
        .any(|r| matches!(&text[r], b"__ballot" | b"__ballot_sync"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(t: &str) -> Vec<&str> {
        identifiers(t.as_bytes())
            .into_iter()
            .map(|r| &t[r])
            .collect()
    }

    #[test]
    fn whole_words_skip_longer_names() {
        let t = b"k<<<1,1>>>(); kk(); k_2(); (k)";
        assert_eq!(whole_words(t, "k").collect::<Vec<_>>(), vec![0, 28]);
        assert_eq!(whole_words(t, "").count(), 0);
    }

    #[test]
    fn skips_literals_and_comments() {
        assert_eq!(
            names(r#"cudaMalloc(&p, 4) /* cudaFree */ "cudaMemcpy \" x" 'c' 0x1fu // cudaX"#),
            vec!["cudaMalloc", "p"]
        );
        assert_eq!(
            names("do { cudaError_t e = x; } while (0)"),
            vec!["do", "cudaError_t", "e", "x", "while"]
        );
    }
}
