//! Fingerprints the translator's own sources, so that cached results of one build are never
//! served by another build whose translation logic differs (the package version alone does not
//! change between development builds), and compiles `csrc/flat.c`, the fast pre-order walk over
//! tree-sitter's subtrees (it needs tree-sitter's private headers, found beside the public ones).

use std::path::Path;

fn visit(dir: &Path, files: &mut Vec<std::path::PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            visit(&p, files);
        } else if p.extension().is_some_and(|x| x == "rs" || x == "c") {
            files.push(p);
        }
    }
}

fn main() {
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=csrc");
    let mut files = Vec::new();
    visit(Path::new("src"), &mut files);
    visit(Path::new("csrc"), &mut files);
    files.sort();
    // FNV-1a over names and contents: stable across runs, no dependencies.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for f in &files {
        let name = f.to_string_lossy();
        let body = std::fs::read(f).unwrap_or_default();
        for b in name
            .as_bytes()
            .iter()
            .chain([0u8].iter())
            .chain(body.iter())
        {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=HIPPORT_BUILD_ID={h:016x}");
    compile_flat();
}

/// Builds `csrc/flat.c` against the tree-sitter sources this build links (`links = "tree-sitter"`
/// exports their `include/` directory; the private headers are in `src/` beside it).
fn compile_flat() {
    let include = std::env::var("DEP_TREE_SITTER_INCLUDE")
        .expect("tree-sitter's build script exports DEP_TREE_SITTER_INCLUDE");
    let private = Path::new(&include).join("../src");
    assert!(
        private.join("subtree.h").exists(),
        "tree-sitter's private headers not found in {}",
        private.display()
    );
    cc::Build::new()
        .std("c11")
        .include(&private)
        .include(&include)
        .warnings(false)
        .file("csrc/flat.c")
        .compile("hipport_flat");
}
