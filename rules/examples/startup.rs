//! Measures start-up of the rules database: `cargo run --release -p hipport-rules --example
//! startup [-- --once]`. Prints the first `Database::builtin()` (pre-built tables, no parsing)
//! and, for comparison, the fastest of 20 run-time parses of the same embedded files.

fn main() {
    let start = std::time::Instant::now();
    let db = hipport_rules::Database::builtin();
    let hit = db.lookup("cudaMalloc").is_some();
    let cold = start.elapsed();
    if std::env::args().any(|a| a == "--once") {
        println!(
            "{} mappings: first builtin() and lookup {cold:?} ({hit})",
            db.mappings().len()
        );
        return;
    }
    let mut best = std::time::Duration::MAX;
    for _ in 0..20 {
        let t = std::time::Instant::now();
        let fresh = hipport_rules::Database::from_embedded().expect("embedded rules parse");
        best = best.min(t.elapsed());
        drop(fresh);
    }
    println!(
        "{} mappings, {} headers: first builtin() {cold:?}; run-time parse, fastest of 20 {best:?}",
        db.mappings().len(),
        db.headers().len()
    );
}
