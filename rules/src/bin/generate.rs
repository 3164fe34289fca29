//! Regenerates `rules/data/*.tsv` from `../shared/data`: `generate-rules [SHARED_DATA] [OUT_DIR]`.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut args = std::env::args().skip(1);
    let input = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("../../shared/data"));
    let out = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("data"));
    let files = match hipport_rules::generate::generate(&input) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    for (name, text) in files {
        let path = out.join(&name);
        if let Err(e) = std::fs::write(&path, text) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return ExitCode::from(2);
        }
        println!("wrote {}", path.display());
    }
    ExitCode::SUCCESS
}
