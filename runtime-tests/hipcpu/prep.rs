//! Source preparation for compiling translated HIP files against hipcpu (the host HIP runtime in
//! `runtime-tests/hipcpu`).
//!
//! hipcpu defines `__shared__` as `thread_local`, which gives static shared memory one copy per
//! running block. A dynamic shared memory declaration, `extern __shared__ T name[];`, would become
//! an `extern thread_local` array that nothing defines, so the linker rejects it. This module
//! rewrites those declarations before compiling:
//!
//! - inside a function: `T* name = reinterpret_cast<T*>(::hipcpu::detail::dynamic_shared())`;
//! - at namespace scope or inside a macro body: `[[maybe_unused]] static ::hipcpu::DynamicShared<T> name`,
//!   an object that converts to the running block's buffer wherever it is used.
//!
//! Alignment attributes on the declaration are dropped (the buffer is 64-byte aligned). Comments,
//! string literals and line numbers are preserved. Use it as a module:
//! `#[path = "../hipcpu/prep.rs"] mod hipcpu_prep;`.

/// Rewrites every `extern __shared__ T name[];` declaration in `src` for hipcpu.
pub fn rewrite_extern_shared(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len() + 64);
    let mut copied = 0; // bytes of src already copied to out
    let mut i = 0;
    let mut braces: Vec<bool> = Vec::new(); // true: namespace-like brace (namespace, extern "C")
    let mut stmt_start: Option<usize> = None; // first code byte after the last ; { } or directive
    let mut at_line_start = true;
    let mut in_directive = false;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            // A directive ends at a newline that is not escaped by a backslash.
            if in_directive && !ends_with_backslash(&b[..i]) {
                in_directive = false;
                stmt_start = None;
            }
            at_line_start = true;
            i += 1;
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            i = skip_line_comment(b, i);
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i = skip_block_comment(b, i);
            continue;
        }
        if c == b' ' || c == b'\t' || c == b'\r' {
            i += 1;
            continue;
        }
        if at_line_start && c == b'#' {
            in_directive = true;
        }
        at_line_start = false;
        if c == b'"' || (c == b'\'' && (i == 0 || !is_ident(b[i - 1]))) {
            i = skip_quoted(b, i);
            continue;
        }
        if !in_directive {
            let start = *stmt_start.get_or_insert(i);
            match c {
                b'{' => {
                    braces.push(namespace_like(&src[start..i]));
                    stmt_start = None;
                }
                b'}' => {
                    braces.pop();
                    stmt_start = None;
                }
                b';' => stmt_start = None,
                _ => {}
            }
        }
        if is_ident_start(c) {
            let end = ident_end(b, i);
            if &src[i..end] == "extern" && (i == 0 || !is_ident(b[i - 1])) {
                if let Some((decl_end, ty, name)) = parse_extern_shared(src, end, in_directive) {
                    let function_scope = !in_directive && braces.iter().any(|ns| !ns);
                    out.push_str(&src[copied..i]);
                    if function_scope {
                        out.push_str(&format!(
                            "{ty}* {name} = reinterpret_cast<{ty}*>(::hipcpu::detail::dynamic_shared())"
                        ));
                    } else {
                        out.push_str(&format!(
                            "[[maybe_unused]] static ::hipcpu::DynamicShared<{ty}> {name}"
                        ));
                    }
                    // Keep the line count (and macro continuations) of the original text.
                    for _ in src[i..decl_end].matches('\n') {
                        out.push_str(if in_directive { " \\\n" } else { "\n" });
                    }
                    copied = decl_end;
                    i = decl_end;
                    continue;
                }
            }
            i = end;
            continue;
        }
        i += 1;
    }
    out.push_str(&src[copied..]);
    out
}

/// Parses `__shared__ <type> <name>[]` after an `extern` that ends at `from`. Returns the end of the
/// declaration (before its `;`), the element type and the name.
fn parse_extern_shared(
    src: &str,
    from: usize,
    in_directive: bool,
) -> Option<(usize, String, String)> {
    let b = src.as_bytes();
    let mut i = skip_space(b, from);
    let end = ident_end(b, i);
    if &src[i..end] != "__shared__" {
        return None;
    }
    i = end;
    // The declaration runs to `;` (or, inside a macro body, to the end of the directive).
    let mut j = i;
    let mut depth = 0i32;
    while j < b.len() {
        match b[j] {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth -= 1,
            b';' if depth == 0 => break,
            b'\n' if in_directive && !ends_with_backslash(&b[..j]) => break,
            b'{' | b'}' => return None,
            _ => {}
        }
        j += 1;
    }
    let decl = strip_attributes(&src[i..j]);
    let decl = decl.trim_end();
    let decl = decl
        .strip_suffix(']')?
        .trim_end()
        .strip_suffix('[')?
        .trim_end();
    let name_start = decl
        .char_indices()
        .rev()
        .take_while(|(_, ch)| ch.is_ascii_alphanumeric() || *ch == '_')
        .last()
        .map(|(k, _)| k)?;
    let name = &decl[name_start..];
    let ty = decl[..name_start]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    if ty.is_empty() || name.is_empty() || name.as_bytes()[0].is_ascii_digit() {
        return None;
    }
    Some((j, ty, name.to_string()))
}

/// Removes `__align__(..)`, `alignas(..)`, `__attribute__((..))` and comments, and joins continued lines.
fn strip_attributes(decl: &str) -> String {
    let b = decl.as_bytes();
    let mut out = String::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            i = skip_line_comment(b, i);
            continue;
        }
        if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            i = skip_block_comment(b, i);
            out.push(' ');
            continue;
        }
        if b[i] == b'\\' {
            out.push(' ');
            i += 1;
            continue;
        }
        if is_ident_start(b[i]) && (i == 0 || !is_ident(b[i - 1])) {
            let end = ident_end(b, i);
            let word = &decl[i..end];
            if matches!(
                word,
                "__align__" | "alignas" | "__attribute__" | "__declspec"
            ) {
                let open = skip_space(b, end);
                if b.get(open) == Some(&b'(') {
                    i = matching_paren(b, open);
                    out.push(' ');
                    continue;
                }
            }
            out.push_str(word);
            i = end;
            continue;
        }
        out.push(b[i] as char);
        i += 1;
    }
    out
}

/// Whether the statement text before a `{` opens a namespace or a linkage block.
fn namespace_like(stmt: &str) -> bool {
    let words: Vec<&str> = stmt.split_whitespace().collect();
    match words.as_slice() {
        ["namespace", ..] | ["inline", "namespace", ..] => true,
        ["extern", lang, ..] => lang.starts_with('"'),
        _ => false,
    }
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && is_ident(b[i]) {
        i += 1;
    }
    i
}

fn skip_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_whitespace() || b[i] == b'\\') {
        i += 1;
    }
    i
}

fn ends_with_backslash(before: &[u8]) -> bool {
    let trimmed = before.strip_suffix(b"\r").unwrap_or(before);
    trimmed.last() == Some(&b'\\')
}

fn skip_line_comment(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && b[i] != b'\n' {
        i += 1;
    }
    i
}

fn skip_block_comment(b: &[u8], i: usize) -> usize {
    let mut j = i + 2;
    while j + 1 < b.len() && !(b[j] == b'*' && b[j + 1] == b'/') {
        j += 1;
    }
    (j + 2).min(b.len())
}

fn skip_quoted(b: &[u8], i: usize) -> usize {
    let quote = b[i];
    let mut j = i + 1;
    while j < b.len() && b[j] != quote && b[j] != b'\n' {
        if b[j] == b'\\' {
            j += 1;
        }
        j += 1;
    }
    (j + 1).min(b.len())
}

fn matching_paren(b: &[u8], open: usize) -> usize {
    let mut depth = 0i32;
    let mut j = open;
    while j < b.len() {
        match b[j] {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    b.len()
}
