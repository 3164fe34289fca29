//! The roc* columns' release data against an installed roc* library: every rocRAND name the
//! database lets `--rand rocrand` emit for the ROCm release of Debian's rocRAND headers must be
//! declared there, and every name it holds back as newer must not be (so the check is exact both
//! ways, as `hip_headers.rs` is for HIP).
//!
//! Needs Debian's `librocrand-dev` 5.3.3 (rocRAND 2.10.9, installed by `scripts/install-deps.sh`).
//! Without it the test skips with a message; with `CI=true` it fails.

use std::collections::HashSet;
use std::path::Path;

use hipport_rules::{Availability, Database, Family, Version};

const ROCRAND_INCLUDE: &str = "/usr/include/rocrand";
/// The ROCm release of Debian's librocrand-dev 5.3.3.
const ROCM: Version = Version::new(5, 3, 3);

fn rocrand_present() -> bool {
    let version = std::fs::read_to_string(Path::new(ROCRAND_INCLUDE).join("rocrand_version.h"))
        .unwrap_or_default();
    if version.contains("#define ROCRAND_VERSION 201009") {
        return true;
    }
    let why = if version.is_empty() {
        "rocRAND headers are missing (apt-get install librocrand-dev)"
    } else {
        "the rocRAND headers are not rocRAND 2.10.9 (Debian's librocrand-dev 5.3.3)"
    };
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{why}");
    }
    eprintln!("SKIPPED: {why}; set CI=true to fail instead");
    false
}

fn words(dir: &Path) -> HashSet<String> {
    let mut out = HashSet::new();
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        let text = std::fs::read(e.path()).unwrap_or_default();
        let text = String::from_utf8_lossy(&text);
        for w in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            out.insert(w.to_string());
        }
    }
    out
}

#[test]
fn rocrand_names_follow_the_roc_release_columns() {
    if !rocrand_present() {
        return;
    }
    let have = words(Path::new(ROCRAND_INCLUDE));
    let db = Database::builtin();
    let (mut emitted, mut held_back) = (0, 0);
    let mut wrong = Vec::new();
    for m in db.mappings().iter().filter(|m| m.family == Family::Curand) {
        let Some(roc) = m.roc.as_deref() else {
            continue;
        };
        // `rocrand_device::scrambled_sobol32_engine<false>`: the class name is the word.
        let word = roc.split('<').next().unwrap().rsplit("::").next().unwrap();
        let declared = have.contains(word);
        match m.roc_status_for(ROCM) {
            Availability::Available | Availability::Deprecated { .. } => {
                emitted += 1;
                if !declared {
                    wrong.push(format!("{} -> {roc}: emitted, not declared", m.cuda));
                }
            }
            Availability::TooNew { .. } => {
                held_back += 1;
                if declared {
                    wrong.push(format!("{} -> {roc}: held back, but declared", m.cuda));
                }
            }
            other => wrong.push(format!("{} -> {roc}: {other:?}", m.cuda)),
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(emitted > 50 && held_back > 10, "{emitted} {held_back}");
}

#[test]
fn roc_status_reads_the_roc_columns() {
    let db = Database::builtin();
    let m = db.lookup("curandSetGeneratorOrdering").unwrap();
    assert_eq!(
        m.roc_status_for(Version::new(5, 2, 3)),
        Availability::TooNew {
            added: Version::new(5, 5, 0)
        }
    );
    assert_eq!(
        m.roc_status_for(Version::new(6, 2, 0)),
        Availability::Available
    );
    // A row without a roc name is missing whatever the release.
    let m = db.lookup("cublasLtCreate").unwrap();
    assert_eq!(
        m.roc_status_for(Version::new(7, 0, 0)),
        Availability::Missing
    );
}
