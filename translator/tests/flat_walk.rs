//! The fast pre-order walk, child lists, field lookups and ancestor lists (`csrc/flat.c`, reading
//! tree-sitter's subtrees) against the cursor walks and lookups they replace, node for node, over the corpus, the saved fuzz inputs, damaged and deeply
//! nested sources: a tree-sitter upgrade that changes the subtree layout fails here.

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use hipport::parse::{parse, Field, Flat, KindName, KindSet};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = fs::read_dir(dir) else { return };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// The number of field names of the grammar (ids run from 1).
fn field_count() -> u16 {
    hipport::parse::language().field_count() as u16
}

/// Sets of kinds to list: a few the passes react to, every named kind, none.
fn kind_sets() -> &'static [KindSet] {
    static SETS: std::sync::OnceLock<Vec<KindSet>> = std::sync::OnceLock::new();
    SETS.get_or_init(|| {
        let lang = hipport::parse::language();
        let name = |id: u16| lang.node_kind_for_id(id).unwrap_or("ERROR");
        vec![
            KindSet::new(|id| {
                matches!(
                    name(id),
                    "identifier" | "call_expression" | "ERROR" | "preproc_arg" | "__global__"
                )
            }),
            KindSet::new(|id| id == u16::MAX || lang.node_kind_is_named(id)),
            KindSet::new(|_| false),
        ]
    })
}

/// Asserts both walks list the same nodes (identity, kind including aliases, position) and the
/// same subtree ends.
fn same_walk(src: &[u8], what: &str) -> usize {
    let tree = parse(src, Duration::from_secs(60)).unwrap();
    let mut roots = vec![tree.root_node()];
    // Also from inner roots, as the analysis does for macro bodies and subtrees.
    if let Some(c) = tree.root_node().named_child(0) {
        roots.push(c);
    }
    // And from the blocks inside (function bodies, branches), as `walk_subtree` walks them.
    roots.extend(
        Flat::with_cursor(tree.root_node())
            .nodes
            .into_iter()
            .filter(|n| n.kind() == "compound_statement")
            .take(40),
    );
    for root in roots {
        let fast = Flat::new(root);
        let slow = Flat::with_cursor(root);
        assert_eq!(fast.nodes.len(), slow.nodes.len(), "{what}: node count");
        for (i, (a, b)) in fast.nodes.iter().zip(&slow.nodes).enumerate() {
            let key = |n: &tree_sitter::Node| {
                (
                    n.id(),
                    n.kind_id(),
                    n.grammar_id(),
                    n.byte_range(),
                    n.start_position(),
                    n.end_position(),
                    n.is_named(),
                    n.is_extra(),
                )
            };
            assert_eq!(
                key(a),
                key(b),
                "{what}: node {i} ({} vs {})",
                a.kind(),
                b.kind()
            );
            assert_eq!(a.kind_name(), b.kind(), "{what}: node {i}");
        }
        assert_eq!(fast.ends, slow.ends, "{what}: subtree ends");
        assert_eq!(fast.kinds, slow.kinds, "{what}: kind ids");
        assert!(fast
            .nodes
            .iter()
            .zip(&fast.kinds)
            .all(|(n, &k)| n.kind_id() == k));
        // Lists of some kinds only: the same as filtering the cursor's list.
        for keep in kind_sets() {
            let fast = Flat::of_kinds(root, keep);
            let slow = Flat::with_cursor(root).only(keep);
            let ids = |f: &Flat| f.nodes.iter().map(|n| n.id()).collect::<Vec<_>>();
            assert_eq!(ids(&fast), ids(&slow), "{what}: nodes of some kinds");
            assert_eq!(fast.kinds, slow.kinds, "{what}: kinds of some kinds");
            assert_eq!(fast.ends, slow.ends, "{what}: ends among some kinds");
            assert!(fast.kinds[1..].iter().all(|&k| keep.contains(k)));
            assert!(fast
                .nodes
                .iter()
                .zip(&fast.kinds)
                .all(|(n, &k)| n.kind_id() == k));
        }
        // The children of every node, as `Node::children` and `Node::named_children` list them.
        let mut c = root.walk();
        for (i, n) in slow.nodes.iter().enumerate() {
            // The ancestors of one node in 16, as `Node::parent` gives them one by one (up to
            // 64 deep: each step walks down from the root; not in the deeply nested shapes).
            if i % 16 == 0 && src.len() < 8192 && !what.contains("deep") {
                let mut want = Vec::new();
                let mut p = n.parent();
                while let Some(x) = p.filter(|_| want.len() < 64) {
                    want.push((x.id(), x.kind_id(), x.byte_range(), x.start_position()));
                    p = x.parent();
                }
                let got: Vec<_> = hipport::parse::ancestors(*n)
                    .iter()
                    .take(64)
                    .map(|x| (x.id(), x.kind_id(), x.byte_range(), x.start_position()))
                    .collect();
                assert_eq!(got, want, "{what}: ancestors of a {}", n.kind());
            }
            let want: Vec<_> = n
                .children(&mut c)
                .map(|x| (x.id(), x.kind_id(), x.byte_range()))
                .collect();
            let got: Vec<_> = hipport::parse::children(*n)
                .map(|x| (x.id(), x.kind_id(), x.byte_range()))
                .collect();
            assert_eq!(got, want, "{what}: children of a {}", n.kind());
            let want: Vec<_> = n.named_children(&mut c).map(|x| x.id()).collect();
            let got: Vec<_> = hipport::parse::named_children(*n).map(|x| x.id()).collect();
            assert_eq!(got, want, "{what}: named children of a {}", n.kind());
            // The child in every field of the grammar (and field 0, which is none).
            for id in 0..=field_count() {
                let key = |x: Option<tree_sitter::Node>| {
                    x.map(|x| (x.id(), x.kind_id(), x.byte_range(), x.start_position()))
                };
                assert_eq!(
                    key(n.field(id)),
                    key(n.child_by_field_id(id)),
                    "{what}: field {id} of a {}",
                    n.kind()
                );
            }
        }
    }
    tree.root_node().descendant_count()
}

#[test]
fn fast_walk_matches_the_cursor_over_the_corpus_and_fuzz_inputs() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files(&root.join("../corpus"), &mut paths);
    files(&root.join("tests/fuzz-inputs"), &mut paths);
    paths.retain(|p| {
        p.extension()
            .and_then(|e| e.to_str())
            .is_none_or(|e| !matches!(e, "json" | "md" | "py" | "txt" | "toml"))
    });
    paths.sort();
    assert!(paths.len() > 50, "corpus not found: {}", paths.len());
    let mut nodes = 0;
    for p in &paths {
        let src = fs::read(p).unwrap();
        nodes += same_walk(&src, &p.display().to_string());
        // Damaged copies: cut in the middle of a token, or with a stray brace (ERROR nodes). The
        // libFuzzer corpus is damaged already, and large: its inputs are walked as they are.
        if p.parent().is_some_and(|d| d.ends_with("libfuzzer")) {
            continue;
        }
        for cut in [src.len() / 3, src.len() / 2 + 1] {
            let mut d = src[..cut].to_vec();
            d.extend_from_slice(b"{ ( <<< ");
            d.extend_from_slice(&src[cut..]);
            same_walk(&d, &format!("{} damaged at {cut}", p.display()));
        }
    }
    assert!(nodes > 50_000, "{nodes} nodes walked");
}

#[test]
fn fast_walk_matches_on_deep_nesting_and_edge_shapes() {
    let deep = format!(
        "int f() {{ return {}1{}; }}\n",
        "(".repeat(5000),
        ")".repeat(5000)
    );
    same_walk(deep.as_bytes(), "5000-deep parentheses");
    let blocks = format!("void g() {}{}\n", "{".repeat(3000), "}".repeat(3000));
    same_walk(blocks.as_bytes(), "3000-deep blocks");
    for src in [
        &b""[..],
        b"\n\n  ",
        b"int x;",
        b"/* unterminated",
        b"#define A(x) x<<<1,1>>>()\n",
        b"template <typename T> __global__ void k(T *p) { p[threadIdx.x] = T(); }\n",
        b"\xff\xfe\x00int \x00y;",
        b"a b c d e f g h ; ; ; } } } ) ) )",
    ] {
        same_walk(src, &String::from_utf8_lossy(src));
    }
}
