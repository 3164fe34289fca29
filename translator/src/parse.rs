//! Parsing with tree-sitter-cuda: one parser per thread, a time budget per file.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Language, Node, ParseOptions, ParseState, Parser, Tree};

/// The grammar hipport parses with.
pub fn language() -> Language {
    tree_sitter_cuda::LANGUAGE.into()
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parsing gave up.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The time budget ran out.
    #[error("parsing took longer than {0:?}; the file was skipped")]
    Timeout(Duration),
    /// tree-sitter returned no tree.
    #[error("the parser returned no tree")]
    NoTree,
}

/// Parses `src`, giving up after `budget`.
pub fn parse(src: &[u8], budget: Duration) -> Result<Tree, ParseError> {
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(&language())
                .expect("tree-sitter-cuda ABI is compatible");
            p
        });
        let start = Instant::now();
        let mut progress = |_: &ParseState| {
            if start.elapsed() > budget {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        };
        let options = ParseOptions::new().progress_callback(&mut progress);
        let len = src.len();
        let mut read = |offset: usize, _| {
            if offset < len {
                &src[offset..]
            } else {
                &[][..]
            }
        };
        let tree = parser.parse_with_options(&mut read, None, Some(options));
        match tree {
            Some(t) => Ok(t),
            None => {
                parser.reset();
                if start.elapsed() > budget {
                    Err(ParseError::Timeout(budget))
                } else {
                    Err(ParseError::NoTree)
                }
            }
        }
    })
}

/// 1-based line ranges (inclusive) of the ERROR and MISSING nodes in a tree, merged.
pub fn error_lines(tree: &Tree) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    if !tree.root_node().has_error() {
        return out;
    }
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let descend = node.has_error() && !node.is_error() && !node.is_missing();
        if node.is_error() || node.is_missing() {
            let (a, b) = (node.start_position().row + 1, node.end_position().row + 1);
            match out.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Counts ERROR and MISSING nodes, for the "no more errors after translation" property.
pub fn error_count(tree: &Tree) -> usize {
    fn walk(n: Node, acc: &mut usize) {
        if n.is_error() || n.is_missing() {
            *acc += 1;
        }
        if n.has_error() {
            let mut c = n.walk();
            for ch in n.children(&mut c) {
                walk(ch, acc);
            }
        }
    }
    let mut acc = 0;
    walk(tree.root_node(), &mut acc);
    acc
}

/// The text of a node as bytes.
pub fn text<'a>(node: Node, src: &'a [u8]) -> &'a [u8] {
    &src[node.byte_range()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_a_launch() {
        let src = b"__global__ void k(int *x) { x[0] = 1; }\nvoid f(int *x) { k<<<1, 1>>>(x); }\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            !tree.root_node().has_error(),
            "{}",
            tree.root_node().to_sexp()
        );
        assert!(tree.root_node().to_sexp().contains("kernel_call_syntax"));
        assert!(error_lines(&tree).is_empty());
    }

    #[test]
    fn reports_error_lines() {
        let src = b"int a;\nint b = ;\n}\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(!error_lines(&tree).is_empty());
        assert!(error_count(&tree) > 0);
    }
}
