//! Every HIP name and header the database can emit for HIP 5.2.3 (runtime, driver, device, complex
//! and header families) must exist in the installed HIP headers, unless `rules/data/hip-absent.tsv`
//! lists it. The list must be exact: a listed name that the headers do have is an error too.
//!
//! Regenerate the list after a table change with `HIPPORT_BLESS=1 cargo test -p hipport-rules
//! --test hip_headers`, then review the diff.
//!
//! Needs the HIP 5.2 development headers (Debian: `libamdhip64-dev`, pulled in by `hipcc`). Device
//! math that hipcc takes from clang's HIP wrapper headers (`__clang_hip_math.h` and its siblings in
//! the resource directory of the clang that HIP 5.2.3 uses) counts as present too.

use std::collections::{BTreeSet, HashSet};
use std::path::{Path, PathBuf};

use hipport_rules::{Availability, Database, Family, Version};

const HIP_INCLUDE: &str = "/usr/include/hip";
/// Where Debian's clang 15, the compiler behind HIP 5.2.3's hipcc, keeps its HIP wrapper headers.
const CLANG_RESOURCE_INCLUDE: &str = "/usr/lib/llvm-15/lib/clang";
const TARGET: Version = Version::new(5, 2, 3);
const CHECKED_FAMILIES: [Family; 5] = [
    Family::Runtime,
    Family::Driver,
    Family::Device,
    Family::Complex,
    Family::Header,
];

fn headers_present() -> bool {
    let ok = Path::new(HIP_INCLUDE).join("hip_runtime_api.h").is_file();
    if ok {
        let version = std::fs::read_to_string(Path::new(HIP_INCLUDE).join("hip_version.h"))
            .unwrap_or_default();
        let major = version.contains("#define HIP_VERSION_MAJOR 5");
        let minor = version.contains("#define HIP_VERSION_MINOR 2");
        if major && minor {
            return true;
        }
        if std::env::var("CI").as_deref() == Ok("true") {
            panic!("{HIP_INCLUDE} holds headers of another HIP release; this test needs HIP 5.2");
        }
        eprintln!("skipping: {HIP_INCLUDE} is not HIP 5.2 (set CI=true to make this a failure)");
        return false;
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("{HIP_INCLUDE}/hip_runtime_api.h is missing: install hipcc (libamdhip64-dev)");
    }
    eprintln!(
        "skipping: HIP headers are missing (apt-get install hipcc; set CI=true to fail instead)"
    );
    false
}

fn identifiers(dir: &Path, out: &mut HashSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let path = e.path();
        if path.is_dir() {
            identifiers(&path, out);
        } else {
            identifiers_in(&path, out);
        }
    }
}

/// The words of one file.
fn identifiers_in(path: &Path, out: &mut HashSet<String>) {
    if let Ok(text) = std::fs::read(path) {
        let text = String::from_utf8_lossy(&text);
        for word in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')) {
            if !word.is_empty() {
                out.insert(word.to_string());
            }
        }
    }
}

fn emittable(status: Availability) -> bool {
    matches!(
        status,
        Availability::Available | Availability::Deprecated { .. } | Availability::Experimental
    )
}

/// The HIP names (and header paths) the database would emit for HIP 5.2.3 if nothing were listed as
/// absent, with whether the installed headers have them.
fn check(db: &Database) -> Vec<(String, bool)> {
    let mut words = HashSet::new();
    identifiers(Path::new(HIP_INCLUDE), &mut words);
    for version in std::fs::read_dir(CLANG_RESOURCE_INCLUDE)
        .into_iter()
        .flatten()
        .flatten()
    {
        let include = version.path().join("include");
        for e in std::fs::read_dir(&include).into_iter().flatten().flatten() {
            let name = e.file_name();
            if name.to_string_lossy().starts_with("__clang_hip_") {
                identifiers_in(&e.path(), &mut words);
            }
        }
    }
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for m in db.mappings() {
        if !CHECKED_FAMILIES.contains(&m.family) {
            continue;
        }
        let mut plain = m.clone();
        plain.hip_absent_in = None;
        if !emittable(plain.status_for(TARGET)) {
            continue;
        }
        let hip = m
            .hip
            .as_deref()
            .expect("emittable names have a HIP name")
            .to_string();
        if seen.insert(hip.clone()) {
            let found = words.contains(&hip);
            out.push((hip, found));
        }
    }
    for h in db.headers() {
        if !CHECKED_FAMILIES.contains(&h.family) || h.is_pattern() {
            continue;
        }
        let Some(hip) = h.hip.as_deref().map(str::to_string) else {
            continue;
        };
        if h.hip_added.is_some_and(|a| a > TARGET) {
            continue;
        }
        if seen.insert(hip.clone()) {
            // A standard C++ header (libcu++'s `cuda/std/limits` becomes `limits`) is the C++
            // library's, not HIP's.
            let found = PathBuf::from("/usr/include").join(&hip).is_file() || std_header(&hip);
            out.push((hip, found));
        }
    }
    out
}

/// Whether `name` is a header of an installed C++ standard library (`/usr/include/c++/<version>/`).
fn std_header(name: &str) -> bool {
    std::fs::read_dir("/usr/include/c++")
        .map(|rd| rd.flatten().any(|e| e.path().join(name).is_file()))
        .unwrap_or(false)
}

#[test]
fn emitted_names_exist_in_hip_5_2_headers() {
    if !headers_present() {
        return;
    }
    let db = Database::builtin();
    let results = check(db);
    assert!(
        results.len() > 1000,
        "expected over a thousand of checked names, got {}",
        results.len()
    );
    let missing: Vec<&str> = results
        .iter()
        .filter(|(_, found)| !found)
        .map(|(n, _)| n.as_str())
        .collect();

    if std::env::var("HIPPORT_BLESS").is_ok() {
        let mut text = String::from(
            "# hipport rules: HIP names and headers that HIPIFY's tables date at or before HIP 5.2.3 but that\n\
             # the HIP 5.2.3 headers (Debian libamdhip64-dev, /usr/include/hip) do not have. The database\n\
             # treats them as unavailable for HIP <= 5.2.3. Written by `HIPPORT_BLESS=1 cargo test -p\n\
             # hipport-rules --test hip_headers`; the test fails when this list and the headers disagree.\n\
             hip\tabsent_in\tsource\n",
        );
        for name in &missing {
            text.push_str(&format!(
                "{name}\t5.2.3\thipport: not found in /usr/include/hip of HIP 5.2.3 (tests/hip_headers.rs)\n"
            ));
        }
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/hip-absent.tsv");
        std::fs::write(&path, text).expect("write hip-absent.tsv");
        eprintln!("wrote {} ({} names)", path.display(), missing.len());
        return;
    }

    let unlisted: Vec<&str> = missing
        .iter()
        .copied()
        .filter(|n| db.absent_in(n).is_none_or(|(v, _)| v < TARGET))
        .collect();
    assert!(
        unlisted.is_empty(),
        "the database emits these names for HIP 5.2.3 but the headers lack them \
         (fix the rule or list them in hip-absent.tsv): {unlisted:?}"
    );
    let stale: Vec<&str> = results
        .iter()
        .filter(|(n, found)| *found && db.absent_in(n).is_some())
        .map(|(n, _)| n.as_str())
        .collect();
    assert!(
        stale.is_empty(),
        "hip-absent.tsv lists names the headers have: {stale:?}"
    );
}

#[test]
fn absent_names_are_not_emitted_for_hip_5_2() {
    let db = Database::builtin();
    let m = db.lookup("cudaErrorLossyQuery").expect("runtime row");
    assert_eq!(m.hip.as_deref(), Some("hipErrorLossyQuery"));
    assert_eq!(
        m.status_for(TARGET),
        Availability::Absent { checked: TARGET }
    );
    // Newer releases are not affected by the 5.2.3 check.
    assert_eq!(m.status_for(Version::new(6, 0, 0)), Availability::Available);
    assert!(db.absent_in("hip/hip_math_constants.h").is_some());
}
