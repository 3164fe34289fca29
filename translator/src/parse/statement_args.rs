//! Statements passed as a macro's argument: apex's and Megatron's
//! `DISPATCH_HALF_AND_BFLOAT(x.scalar_type(), "name", fn<scalar_t>(a, b); );`, whose macro
//! pastes its `__VA_ARGS__` into a block (`do { using scalar_t = at::Half; __VA_ARGS__; } while
//! (0)`, or a `switch` with one `case` per type). tree-sitter reads a call whose arguments hold a
//! `;` and gives up on the whole call (a T008 note in every file that uses such a macro).
//!
//! Where a call that starts a statement in a function body has a `;` among its own arguments
//! (outside nested parentheses, brackets, braces, template arguments and launch
//! configurations), and the parse has an error inside the call, the parse is redone with the
//! call shown as the call of its leading arguments followed by a block of the statements:
//! `{NAME(x.scalar_type(), "name");fn<scalar_t>(a, b); }` at the same offsets (a `{` in the blank
//! before the name, the `,` before the statements made `)`, a `;` in a blank after it, the call's
//! `)` made `}`). The statements are then parsed, renamed and checked as the code they are. The
//! caller keeps the new tree only when it has fewer errors than the first.

use std::ops::Range;

use tree_sitter::Tree;

/// A byte that hides comments and literals in [`code_view`]: neither a word byte, a blank nor
/// punctuation.
const HIDDEN: u8 = 0x01;

/// One call rewritten by [`block_edits`]: its span (the name to the `)`), and the bytes to show.
pub(super) struct Rewrite {
    pub(super) span: Range<usize>,
    pub(super) edits: Vec<(usize, u8)>,
}

/// The rewrites of the calls of `src` (as tree-sitter sees it) that pass statements as an
/// argument, where `tree`, a parse of `src`, has an error inside the call.
pub(super) fn block_edits(src: &[u8], tree: &Tree) -> Vec<Rewrite> {
    if memchr::memchr(b';', src).is_none() {
        return Vec::new();
    }
    let errors = error_spans(tree);
    if errors.is_empty() {
        return Vec::new();
    }
    let code = code_view(src);
    let depths = brace_depths(&code);
    let mut out: Vec<Rewrite> = Vec::new();
    // Bytes already shown otherwise.
    let mut used: Vec<usize> = Vec::new();
    // Where an enclosing rewritten call's statements begin: a nested call there starts a
    // statement too (`OUTER(t, "n", INNER(u, "m", f(); ); )`).
    let mut statement_starts: Vec<usize> = Vec::new();
    for id in crate::lexer::identifiers(&code) {
        if depths[id.start] == 0
            || !super::statement_macros::starts_statement(&code, id.start, false)
                && !statement_starts.contains(&id.start)
        {
            continue;
        }
        let Some((open, close, boundary)) = statement_call(&code, id.clone(), 0) else {
            continue;
        };
        let span = id.start..close + 1;
        if !errors
            .iter()
            .any(|e| e.start < span.end && span.start <= e.end)
        {
            continue;
        }
        let in_block = !after_control_head(&code, id.start);
        let Some(edits) = edits_for(src, &code, id.start, boundary.unwrap_or(open), close, &used)
            .or_else(|| {
                in_block
                    .then(|| bare_edits_for(src, &code, boundary.unwrap_or(open), close, &used))
                    .flatten()
            })
        else {
            continue;
        };
        used.extend(edits.iter().map(|e| e.0));
        statement_starts.push(skip_blanks(&code, boundary.unwrap_or(open) + 1));
        out.push(Rewrite { span, edits });
    }
    out
}

/// Where the call named at `name` in `code` passes statements: its `(`, its `)` and the `,`
/// after its last leading argument (`None` when the statements are its only argument). The
/// statements hold a `;` of the call's own, or are one call that passes statements itself
/// (apex's nested `DISPATCH(t0, 0, "adam", DISPATCH(t1, 1, "adam", f(...); ))`).
fn statement_call(
    code: &[u8],
    name: Range<usize>,
    depth: usize,
) -> Option<(usize, usize, Option<usize>)> {
    if depth > 8
        || matches!(
            &code[name.clone()],
            b"for" | b"if" | b"switch" | b"while" | b"return" | b"sizeof" | b"decltype"
        )
    {
        return None;
    }
    let open = skip_blanks(code, name.end);
    if code.get(open) != Some(&b'(') {
        return None;
    }
    let close = crate::parse::matching_paren(code, open, false)?;
    if let Some(semicolon) = top_level_semicolon(code, open + 1, close) {
        return Some((open, close, last_top_level_comma(code, open + 1, semicolon)));
    }
    // The last argument, a call that passes statements, and nothing after it.
    let comma = last_top_level_comma(code, open + 1, close);
    let last = skip_blanks(code, comma.unwrap_or(open) + 1);
    let len = code[last..close]
        .iter()
        .take_while(|b| crate::lexer::is_word_byte(**b))
        .count();
    if len == 0 || code[last].is_ascii_digit() {
        return None;
    }
    let (_, inner_close, _) = statement_call(code, last..last + len, depth + 1)?;
    (skip_blanks(code, inner_close + 1) == close).then_some((open, close, comma))
}

/// Whether the statement at `at` is the body of a control statement (`if (c) NAME(...)`,
/// `else NAME(...)`), where its statements must stay in one block.
fn after_control_head(code: &[u8], at: usize) -> bool {
    let before = code[..at].trim_ascii_end();
    match before.last() {
        Some(b')') => true,
        Some(b) if crate::lexer::is_word_byte(*b) => true,
        _ => false,
    }
}

/// The bytes to show for a call named at `name`, whose statements follow `boundary` (a `,`, or
/// the call's `(` when its only argument is statements) and whose `)` is at `close`, as
/// `{NAME(leading);statements}`; `None` when there are not enough blanks (outside `used`) to
/// write the block's braces in.
fn edits_for(
    src: &[u8],
    code: &[u8],
    name: usize,
    boundary: usize,
    close: usize,
    used: &[usize],
) -> Option<Vec<(usize, u8)>> {
    let blank =
        |i: usize| matches!(src[i], b' ' | b'\t') && code[i] == src[i] && !used.contains(&i);
    let statements = skip_blanks(code, boundary + 1);
    let mut after: Vec<usize> = (boundary + 1..statements).filter(|&i| blank(i)).collect();
    let mut edits = Vec::new();
    let open_brace = match name.checked_sub(1) {
        Some(b) if blank(b) => b,
        _ if after.len() >= 2 || src[boundary] == b'(' && !after.is_empty() => {
            after.pop().expect("not empty")
        }
        _ => return None,
    };
    edits.push((open_brace, b'{'));
    if src[boundary] == b'(' {
        // `NAME;{statements}`
        edits.push((boundary, b';'));
    } else {
        // `NAME(leading);{statements}`
        edits.push((*after.first()?, b';'));
        edits.push((boundary, b')'));
    }
    if let Some(slot) = last_semicolon_slot(code, statements, close, &blank) {
        edits.push((slot, b';'));
    }
    edits.push((close, b'}'));
    Some(edits)
}

/// [`edits_for`] without the braces, where there are no blanks for them and the call stands
/// in a block: `NAME(leading); statements;`, the call's `)` a blank, or the last statement's
/// `;`.
fn bare_edits_for(
    src: &[u8],
    code: &[u8],
    boundary: usize,
    close: usize,
    used: &[usize],
) -> Option<Vec<(usize, u8)>> {
    let blank =
        |i: usize| matches!(src[i], b' ' | b'\t') && code[i] == src[i] && !used.contains(&i);
    let statements = skip_blanks(code, boundary + 1);
    let mut edits = Vec::new();
    if src[boundary] == b'(' {
        edits.push((boundary, b';'));
    } else {
        let semicolon = (boundary + 1..statements).find(|&i| blank(i))?;
        edits.push((semicolon, b';'));
        edits.push((boundary, b')'));
    }
    let ends = (statements..close)
        .rev()
        .find(|&i| !code[i].is_ascii_whitespace())
        .is_none_or(|l| matches!(code[l], b';' | b'}'));
    edits.push((close, if ends { b' ' } else { b';' }));
    Some(edits)
}

/// A blank before the call's `)` at `close` for the `;` of a last statement that lacks one (the
/// macro's body supplies it), where there is one.
fn last_semicolon_slot(
    code: &[u8],
    statements: usize,
    close: usize,
    blank: &dyn Fn(usize) -> bool,
) -> Option<usize> {
    let last = (statements..close)
        .rev()
        .find(|&i| !code[i].is_ascii_whitespace())?;
    if matches!(code[last], b';' | b'}') {
        return None;
    }
    (last + 1..close).find(|&i| blank(i))
}

/// The byte ranges of the ERROR and MISSING nodes of `tree` (a MISSING node's is empty).
fn error_spans(tree: &Tree) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    if !tree.root_node().has_error() {
        return out;
    }
    let mut stack = vec![tree.root_node()];
    while let Some(n) = stack.pop() {
        if n.is_error() || n.is_missing() {
            out.push(n.byte_range());
            continue;
        }
        if n.has_error() {
            let mut c = n.walk();
            stack.extend(n.children(&mut c));
        }
    }
    out
}

/// `src` with comments, string and character literals and directive lines hidden (each byte
/// but a line break becomes [`HIDDEN`]), at the same offsets.
fn code_view(src: &[u8]) -> Vec<u8> {
    let mut out = src.to_vec();
    let n = src.len();
    let hide = |out: &mut [u8], r: Range<usize>| {
        for b in &mut out[r] {
            if *b != b'\n' {
                *b = HIDDEN;
            }
        }
    };
    let mut i = 0;
    let mut line_start = true;
    while i < n {
        let c = src[i];
        if line_start && c == b'#' {
            let end = super::statement_macros::logical_line_end(src, i);
            hide(&mut out, i..end);
            i = end;
            continue;
        }
        if c == b'/' && src.get(i + 1) == Some(&b'/') {
            let end = memchr::memchr(b'\n', &src[i..]).map_or(n, |e| i + e);
            hide(&mut out, i..end);
            i = end;
        } else if c == b'/' && src.get(i + 1) == Some(&b'*') {
            let end = memchr::memmem::find(&src[i + 2..], b"*/").map_or(n, |e| i + 4 + e);
            hide(&mut out, i..end);
            i = end;
        } else if c == b'"' || (c == b'\'' && !(i > 0 && src[i - 1].is_ascii_digit())) {
            let start = i;
            i += 1;
            while i < n && src[i] != c && src[i] != b'\n' {
                i += if src[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(n);
            hide(&mut out, start..i);
        } else {
            if c == b'\n' {
                line_start = true;
            } else if !matches!(c, b' ' | b'\t' | b'\r') {
                line_start = false;
            }
            i += 1;
        }
    }
    out
}

/// The brace depth before each byte of `code`.
fn brace_depths(code: &[u8]) -> Vec<u32> {
    let mut depth = 0u32;
    code.iter()
        .map(|&b| {
            let here = depth;
            match b {
                b'{' => depth += 1,
                b'}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            here
        })
        .collect()
}

fn skip_blanks(code: &[u8], mut i: usize) -> usize {
    while i < code.len() && code[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The first `;` in `code[from..to]` outside nested parentheses, brackets and braces.
fn top_level_semicolon(code: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut depth = 0i32;
    for (i, &b) in code.iter().enumerate().take(to).skip(from) {
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b';' if depth == 0 => return Some(i),
            _ => {}
        }
    }
    None
}

/// The last `,` in `code[from..to]` that separates the call's arguments: outside nested
/// parentheses, brackets, braces, template arguments (`pair<a, b>`) and launch configurations
/// (`k<<<g, b>>>`).
fn last_top_level_comma(code: &[u8], from: usize, to: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut angles = 0i32;
    let mut launches = 0i32;
    let mut last = None;
    let mut i = from;
    while i < to {
        let b = code[i];
        if code[i..to].starts_with(b"<<<") {
            launches += 1;
            i += 3;
            continue;
        }
        if launches > 0 && code[i..to].starts_with(b">>>") {
            launches -= 1;
            i += 3;
            continue;
        }
        match b {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b']' | b'}' => depth -= 1,
            b'<' if depth == 0 => {
                let prev = code[from..i].trim_ascii_end().last().copied();
                let next = code.get(i + 1).copied();
                if prev.is_some_and(crate::lexer::is_word_byte)
                    && !matches!(next, Some(b'<' | b'='))
                {
                    angles += 1;
                }
            }
            b'>' if depth == 0 && angles > 0 && code[i - 1] != b'-' => angles -= 1,
            b',' if depth == 0 && angles == 0 && launches == 0 => last = Some(i),
            _ => {}
        }
        i += 1;
    }
    last
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(src: &str) -> String {
        let mut p = tree_sitter::Parser::new();
        p.set_language(&super::super::language()).unwrap();
        let first = p.parse(src, None).unwrap();
        let mut out = src.as_bytes().to_vec();
        for r in block_edits(src.as_bytes(), &first) {
            for (at, b) in r.edits {
                out[at] = b;
            }
        }
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_statements_become_a_block_after_the_leading_arguments() {
        assert_eq!(
            shown("void f() {\n  D(t(), \"n\", g<T>(a, b); );\n}\n"),
            "void f() {\n {D(t(), \"n\");g<T>(a, b); };\n}\n"
        );
        assert_eq!(
            shown("void f() {\n  D(t, \"n\",\n    using A = P<T, int>::type;\n    k<<<1, 2>>>(a) )\n}\n"),
            "void f() {\n {D(t, \"n\")\n;   using A = P<T, int>::type;\n    k<<<1, 2>>>(a);}\n}\n"
        );
        assert_eq!(
            shown("void f() {\n  RUN( g(a); h(b); );\n}\n"),
            "void f() {\n {RUN; g(a); h(b); };\n}\n"
        );
        // No blank before the name: the braces go after the comma, or there are none.
        assert_eq!(
            shown("void f() {\n{D(t, \"n\",  g(a););}\n}\n"),
            "void f() {\n{D(t, \"n\");{g(a);};}\n}\n"
        );
        assert_eq!(
            shown("void f() {\n{D(t,\"n\", g(a););}\n}\n"),
            "void f() {\n{D(t,\"n\");g(a); ;}\n}\n"
        );
        // A call that passes statements as the statements of another.
        assert_eq!(
            shown("void f() {\n  D(t, 0, \"n\",\n    D(u, 1, \"n\", g(a); ))\n}\n"),
            "void f() {\n {D(t, 0, \"n\")\n;  {D(u, 1, \"n\");g(a); }}\n}\n"
        );
    }

    #[test]
    fn calls_without_statements_are_left_alone() {
        for src in [
            "void f() {\n  D(t, \"n\", ([&] { g(a); }));\n}\n",
            "void f() {\n  D(t, \"n\", [&] { g(a); });\n}\n",
            "void f() {\n  for (int i = 0; i < n; i++) g(i);\n}\n",
            "void f() {\n  D(t, \"n;\", g(a) /* ; */);\n}\n",
            "#define D(x) g(x; y)\n",
        ] {
            assert_eq!(shown(src), src);
        }
    }
}
