//! Measures how long parsing the embedded rules takes: `cargo run --release -p hipport-rules
//! --example startup [-- --once]`. Prints the first (cold) parse and the fastest of 20 more.

fn main() {
    let start = std::time::Instant::now();
    let db = hipport_rules::Database::builtin();
    let cold = start.elapsed();
    if std::env::args().any(|a| a == "--once") {
        println!("{} mappings: first parse {cold:?}", db.mappings().len());
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
        "{} mappings, {} headers: first parse {cold:?}, fastest of 20 {best:?}",
        db.mappings().len(),
        db.headers().len()
    );
}
