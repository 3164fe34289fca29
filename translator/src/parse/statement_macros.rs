//! Statement macros called without a `;`: `CHECK_CUSPARSE(cusparseCreate(&h))` on a line of its
//! own, where the macro's body supplies the `;` (`#define CHECK_CUSPARSE(x) do { ... } while (0);`)
//! or is a block (`{ ... }`). tree-sitter sees a call expression that runs on into the next
//! statement (`CHECK(x) float* d;` becomes a product with an ERROR in it, `CHECK(x) k<<<...>>>()`
//! a launch of `CHECK(x)`), so the parse is redone with a `;` shown in a blank after the call.
//!
//! The heuristic is narrow: the name is a function-like macro of the file whose body ends with
//! `;` or `}`, or, when the file does not define it, an all-caps name (`CUDA_CHECK`); the call
//! starts a statement inside a function body; it is followed, past blanks and comments, by a
//! line break and then a name, a keyword, a directive, or by a `}`. The caller keeps the new
//! tree only when it has fewer errors than the first.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

/// The offsets of blanks that should be shown to tree-sitter as `;`, one after each statement
/// macro call of `src` (as tree-sitter sees it) that lacks its `;`, in `tree`, a parse of it.
pub(super) fn semicolon_slots(src: &[u8], tree: &Tree) -> Vec<usize> {
    let macros = StatementMacros::new(src);
    let root = tree.root_node();
    let mut slots = Vec::new();
    for id in crate::lexer::identifiers(src) {
        if !macros.names(&src[id.clone()]) {
            continue;
        }
        let Some(call) = called_at(root, id) else {
            continue;
        };
        if !macros.is_call(call) {
            continue;
        }
        if let Some(slot) = blank_before_next_statement(src, call.end_byte()) {
            slots.push(slot);
        }
    }
    slots
}

/// The heuristic of this module for one file.
pub(super) struct StatementMacros<'s> {
    src: &'s [u8],
    defined: HashMap<&'s [u8], bool>,
    /// Object-like macros that stand for another name (`#define TORCH_CHECK AT_CHECK`).
    aliases: HashMap<&'s [u8], &'s [u8]>,
}

impl<'s> StatementMacros<'s> {
    /// The statement macros of `src`.
    pub(super) fn new(src: &'s [u8]) -> Self {
        let (defined, aliases) = statement_macros(src);
        StatementMacros {
            src,
            defined,
            aliases,
        }
    }

    /// Whether `word` names a macro whose calls may stand without a `;`: through the names it
    /// stands for (warp-rnnt's fallback `#define TORCH_CHECK AT_CHECK` leaves `TORCH_CHECK(c, m)`
    /// a call of the all-caps `AT_CHECK`).
    fn names(&self, word: &[u8]) -> bool {
        let mut word: &[u8] = word;
        for _ in 0..8 {
            match self.defined.get(word) {
                Some(true) => return true,
                Some(false) => match self.aliases.get(word) {
                    Some(&to) => word = to,
                    None => return false,
                },
                None => return all_caps(word),
            }
        }
        false
    }

    /// Whether `call` is a call of such a macro that starts a statement in a function body.
    fn is_call(&self, call: Node) -> bool {
        let Some(name) = call.child_by_field_name("function") else {
            return false;
        };
        name.kind() == "identifier"
            && self.names(&self.src[name.byte_range()])
            && starts_statement(self.src, name.start_byte(), true)
            && self.src.get(call.end_byte().wrapping_sub(1)) == Some(&b')')
            && in_function_body(call)
    }

    /// Whether `missing`, a MISSING node, is the `;` a statement macro's call does without
    /// (`CHECK(x)` as a block's last statement, with no blank left to show a `;` in).
    pub(super) fn supplies(&self, missing: Node) -> bool {
        missing.kind() == ";"
            && missing
                .parent()
                .is_some_and(|p| p.kind() == "expression_statement")
            && missing
                .prev_sibling()
                .is_some_and(|call| call.kind() == "call_expression" && self.is_call(call))
    }
}

/// The macros `src` defines, each with whether one of its definitions is function-like and ends
/// with `;` or `}` (so that a call needs no `;` of its own; object-like ones map to `false`), and
/// the object-like ones whose body is one name, with that name.
type Defined<'s> = (HashMap<&'s [u8], bool>, HashMap<&'s [u8], &'s [u8]>);

/// The macros `src` defines (see [`Defined`]).
fn statement_macros(src: &[u8]) -> Defined<'_> {
    let mut out: HashMap<&[u8], bool> = HashMap::new();
    let mut aliases: HashMap<&[u8], &[u8]> = HashMap::new();
    for hit in memchr::memmem::find_iter(src, b"define") {
        let start = super::logical_line_start(src, hit);
        let head = src[start..hit].trim_ascii();
        if !head.starts_with(b"#") || !head[1..].trim_ascii().is_empty() {
            continue;
        }
        let rest = &src[hit + b"define".len()..logical_line_end(src, hit)];
        if !rest.first().is_some_and(|b| matches!(b, b' ' | b'\t')) {
            continue;
        }
        let rest = rest.trim_ascii_start();
        let name_len = rest
            .iter()
            .take_while(|b| crate::lexer::is_word_byte(**b))
            .count();
        if name_len == 0 || rest[0].is_ascii_digit() {
            continue;
        }
        let name = &rest[..name_len];
        let ends_statement = rest.get(name_len) == Some(&b'(')
            && memchr::memchr(b')', &rest[name_len..]).is_some_and(|p| {
                matches!(last_code_byte(&rest[name_len + p + 1..]), Some(b';' | b'}'))
            });
        *out.entry(name).or_insert(false) |= ends_statement;
        let body = rest[name_len..].trim_ascii();
        if rest.get(name_len) != Some(&b'(')
            && !body.is_empty()
            && !body[0].is_ascii_digit()
            && body.iter().all(|b| crate::lexer::is_word_byte(*b))
        {
            aliases.insert(name, body);
        }
    }
    (out, aliases)
}

/// Where the directive whose `define` (or other word) is at `at` ends: the line break that no
/// `\` continues.
pub(super) fn logical_line_end(src: &[u8], at: usize) -> usize {
    let mut from = at;
    loop {
        let Some(nl) = memchr::memchr(b'\n', &src[from..]).map(|e| from + e) else {
            return src.len();
        };
        let line = &src[..nl];
        if !line.strip_suffix(b"\r").unwrap_or(line).ends_with(b"\\") {
            return nl;
        }
        from = nl + 1;
    }
}

/// The last byte of a macro body that is neither a blank, a comment nor a line continuation.
fn last_code_byte(body: &[u8]) -> Option<u8> {
    let mut last = None;
    let mut i = 0;
    while i < body.len() {
        match body[i] {
            b'/' if body.get(i + 1) == Some(&b'/') => break,
            b'/' if body.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&body[i + 2..], b"*/").map_or(body.len(), |e| i + 4 + e);
                continue;
            }
            b'"' | b'\'' => {
                let quote = body[i];
                i += 1;
                while i < body.len() && body[i] != quote {
                    i += if body[i] == b'\\' { 2 } else { 1 };
                }
                last = Some(quote);
            }
            b'\\' if matches!(&body[i + 1..], [] | [b'\n', ..] | [b'\r', b'\n', ..]) => {}
            b if b.is_ascii_whitespace() => {}
            b => last = Some(b),
        }
        i += 1;
    }
    last
}

/// Whether `word` is an all-caps macro-style name (`CUDA_CHECK`, `CHECK2`).
fn all_caps(word: &[u8]) -> bool {
    word.len() >= 2
        && word[0].is_ascii_uppercase()
        && word
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
}

/// Whether a name at `at` begins a statement by the code before it: a `;`, a brace, the `)` of
/// an `if`/`for`/`while` head, a label's `:`, `else` or `do`; with `line_start`, also nothing but
/// blanks before it on its line (otherwise line breaks are read past).
pub(super) fn starts_statement(src: &[u8], at: usize, line_start: bool) -> bool {
    let before = if line_start {
        let mut i = at;
        while i > 0 && matches!(src[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        &src[..i]
    } else {
        src[..at].trim_ascii_end()
    };
    match before.last() {
        None | Some(b'\n' | b';' | b'{' | b'}' | b')') => true,
        Some(b':') => !before.ends_with(b"::"),
        Some(_) => {
            let word = before
                .iter()
                .rev()
                .take_while(|b| crate::lexer::is_word_byte(**b))
                .count();
            matches!(&before[before.len() - word..], b"else" | b"do")
        }
    }
}

/// The call expression whose function is the identifier at `name`, when there is one.
fn called_at(root: Node<'_>, name: std::ops::Range<usize>) -> Option<Node<'_>> {
    let id = root.descendant_for_byte_range(name.start, name.end)?;
    if id.kind() != "identifier" || id.byte_range() != name {
        return None;
    }
    let call = id.parent()?;
    (call.kind() == "call_expression" && call.child_by_field_name("function") == Some(id))
        .then_some(call)
}

/// Whether `n` stands in a function body (a `compound_statement`).
fn in_function_body(n: Node) -> bool {
    std::iter::successors(n.parent(), Node::parent).any(|p| p.kind() == "compound_statement")
}

/// A blank (space, tab or carriage return) between the call ending at `end` and the next
/// statement, outside comments, when what follows is a next statement: past a line break, a
/// name or a directive; or a `}`.
fn blank_before_next_statement(src: &[u8], end: usize) -> Option<usize> {
    let mut slot = None;
    let mut new_line = false;
    let mut i = end;
    while i < src.len() {
        match src[i] {
            b' ' | b'\t' | b'\r' => {
                slot.get_or_insert(i);
                i += 1;
            }
            b'\n' => {
                new_line = true;
                i += 1;
            }
            b'/' if src.get(i + 1) == Some(&b'/') => {
                i = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |e| i + e);
            }
            b'/' if src.get(i + 1) == Some(&b'*') => {
                i = memchr::memmem::find(&src[i + 2..], b"*/").map_or(src.len(), |e| i + 4 + e);
            }
            b'}' => return slot,
            b if new_line
                && (crate::lexer::is_word_byte(b) || b == b'#')
                && !b.is_ascii_digit() =>
            {
                return slot;
            }
            _ => return None,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_that_supply_their_end_are_told_apart() {
        let src = b"#define A(x) do { f(x); } while (0); // checked\n\
                    #define B(x) { f(x); } /* block */\n\
                    #define C(x) do { f(x); } while (0)\n\
                    #define D(x) \\\n  do { \\\n    f(x); \\\n  } while (0);\n\
                    #define E f();\n\
                    #  define F(x, y) g(x, \"}\")\n";
        let (m, _) = statement_macros(src);
        let get = |n: &str| m.get(n.as_bytes()).copied();
        assert_eq!(get("A"), Some(true));
        assert_eq!(get("B"), Some(true));
        assert_eq!(get("C"), Some(false));
        assert_eq!(get("D"), Some(true));
        assert_eq!(get("E"), Some(false), "object-like");
        assert_eq!(get("F"), Some(false));
        assert!(all_caps(b"CUDA_CHECK") && all_caps(b"C10_CHECK2"));
        assert!(!all_caps(b"Check") && !all_caps(b"X") && !all_caps(b"_CHECK"));
    }

    /// An object-like macro that stands for another name is a statement macro where that name
    /// is one (warp-rnnt's `#define TORCH_CHECK AT_CHECK`, whose calls had no `;`).
    #[test]
    fn aliases_of_statement_macros_are_statement_macros() {
        let src = b"#ifndef TORCH_CHECK\n#define TORCH_CHECK AT_CHECK\n#endif\n\
                    #define CHECK_OK(x) { ok(x); }\n#define MY_CHECK CHECK_OK\n\
                    #define Plain(x) f(x)\n#define ALIAS_PLAIN Plain\n#define N 4\n\
                    #define LOOP_A LOOP_B\n#define LOOP_B LOOP_A\n";
        let m = StatementMacros::new(src);
        assert!(m.names(b"TORCH_CHECK"));
        assert!(m.names(b"MY_CHECK"));
        assert!(!m.names(b"ALIAS_PLAIN"));
        assert!(!m.names(b"N"));
        assert!(!m.names(b"LOOP_A"));
    }

    #[test]
    fn the_semicolon_goes_in_the_first_blank_before_the_next_statement() {
        let src = b"CHECK(x)\n  next;\nCHECK(x) // c\nnext;\nCHECK(x)\nnext;\nCHECK(x) }\nCHECK(x)\n  + 1;\nCHECK(x)\n  ;";
        let at = |n: usize| {
            memchr::memmem::find_iter(src, b"CHECK(x)")
                .nth(n)
                .map(|s| s + b"CHECK(x)".len())
                .unwrap()
        };
        assert_eq!(blank_before_next_statement(src, at(0)), Some(at(0) + 1));
        assert_eq!(blank_before_next_statement(src, at(1)), Some(at(1)));
        assert_eq!(blank_before_next_statement(src, at(2)), None, "no blank");
        assert_eq!(blank_before_next_statement(src, at(3)), Some(at(3)));
        assert_eq!(blank_before_next_statement(src, at(4)), None, "an operator");
        assert_eq!(blank_before_next_statement(src, at(5)), None, "its `;`");
    }
}
