//! Prints the tree-sitter tree of a file: `cargo run --example sexp FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: sexp FILE");
    let src = std::fs::read(&path).expect("readable file");
    let tree = hipport::parse::parse(&src, std::time::Duration::from_secs(10)).expect("parse");
    let mut cursor = tree.walk();
    let mut depth = 0usize;
    loop {
        let n = cursor.node();
        let field = cursor
            .field_name()
            .map(|f| format!("{f}: "))
            .unwrap_or_default();
        let text = if n.child_count() == 0 {
            format!(" {:?}", String::from_utf8_lossy(&src[n.byte_range()]))
        } else {
            String::new()
        };
        println!(
            "{}{}{}{} [{}..{}]{}",
            "  ".repeat(depth),
            field,
            if n.is_named() { "" } else { "'" },
            n.kind(),
            n.start_byte(),
            n.end_byte(),
            text
        );
        if cursor.goto_first_child() {
            depth += 1;
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            depth -= 1;
        }
    }
}
