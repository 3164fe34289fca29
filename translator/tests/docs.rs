//! The documentation names only what exists, and what exists is documented: diagnostic IDs in
//! the READMEs and `explain` pages are in the catalogue, every hazard case has its README row
//! and every row a file, every rules data file is in the rules README, and the options of
//! `convert`, `check` and `doctor` are the ones the README lists.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn read(rel: &str) -> String {
    fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

/// Words shaped like a diagnostic ID (`H001`, `B014`): a capital of a family, three digits, and
/// no letter or digit on either side.
fn id_words(text: &str) -> BTreeSet<String> {
    let b = text.as_bytes();
    let mut out = BTreeSet::new();
    for i in 0..b.len().saturating_sub(3) {
        let word_edge = |j: Option<usize>| {
            j.and_then(|j| b.get(j))
                .is_none_or(|c| !c.is_ascii_alphanumeric())
        };
        if b"BDHT".contains(&b[i])
            && b[i + 1..i + 4].iter().all(u8::is_ascii_digit)
            && word_edge(i.checked_sub(1))
            && word_edge(Some(i + 4))
        {
            out.insert(text[i..i + 4].to_string());
        }
    }
    out
}

#[test]
fn every_id_the_docs_and_explain_pages_mention_exists() {
    let known: BTreeSet<&str> = hipport::diag::catalog().iter().map(|d| d.id).collect();
    let mut texts: Vec<(String, String)> =
        ["README.md", "corpus/hazards/README.md", "rules/README.md"]
            .iter()
            .map(|f| (f.to_string(), read(f)))
            .collect();
    for d in hipport::diag::catalog() {
        texts.push((
            format!("explain {}", d.id),
            format!("{} {}", d.summary, d.explain),
        ));
    }
    let mut missing = Vec::new();
    for (name, text) in &texts {
        for id in id_words(text) {
            if !known.contains(id.as_str()) {
                missing.push(format!("{name}: {id}"));
            }
        }
    }
    assert!(missing.is_empty(), "IDs not in the catalogue: {missing:?}");
    // The scan finds what it should, so an empty result above means something.
    let readme = id_words(&texts[0].1);
    assert!(
        readme.contains("T006") && readme.contains("B015"),
        "{readme:?}"
    );
}

#[test]
fn every_hazard_case_has_a_readme_row_and_every_row_a_case() {
    let dir = repo().join("corpus/hazards");
    let mut files = BTreeSet::new();
    for e in fs::read_dir(&dir).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        let is_case = e.file_type().unwrap().is_file()
            && name != "README.md"
            && !(name.starts_with("expected") && name.ends_with(".txt"));
        if is_case {
            files.insert(name);
        }
    }
    let rows: BTreeSet<String> = read("corpus/hazards/README.md")
        .lines()
        .filter_map(|l| l.strip_prefix("| "))
        .filter_map(|l| l.split(" |").next())
        .map(|f| f.trim().to_string())
        .filter(|f| f != "file" && f != "---")
        .collect();
    let no_row: Vec<_> = files.difference(&rows).collect();
    let no_file: Vec<_> = rows.difference(&files).collect();
    assert!(
        no_row.is_empty(),
        "cases without a row in corpus/hazards/README.md: {no_row:?}"
    );
    assert!(no_file.is_empty(), "rows without a case file: {no_file:?}");
    assert!(files.len() > 30, "{files:?}");
}

#[test]
fn every_rules_data_file_is_in_the_rules_readme() {
    let readme = read("rules/README.md");
    let mut missing = Vec::new();
    let mut n = 0;
    for e in fs::read_dir(repo().join("rules/data")).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        if name.ends_with(".tsv") {
            n += 1;
            if !readme.contains(&format!("`{name}`")) {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "rules/data files rules/README.md does not list: {missing:?}"
    );
    assert!(n > 20, "{n} data files");
}

/// The long options `hipport SUB --help` lists.
fn help_options(sub: &str) -> BTreeSet<String> {
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args([sub, "--help"])
        .output()
        .expect("hipport runs");
    assert!(o.status.success());
    String::from_utf8(o.stdout)
        .unwrap()
        .lines()
        .filter_map(|l| {
            // `  -o, --out <OUT>  ...` or `      --in-place  ...`.
            let l = l.trim_start();
            let l = match l.as_bytes() {
                [b'-', c, b',', b' ', ..] if c.is_ascii_alphabetic() => &l[4..],
                _ => l,
            };
            let name: String = l
                .strip_prefix("--")?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            Some(format!("--{name}"))
        })
        .filter(|o| o != "--help")
        .collect()
}

/// The long options in a README synopsis: the text from `start` to `end`.
fn synopsis_options(readme: &str, start: &str, end: &str) -> BTreeSet<String> {
    let from = readme
        .find(start)
        .unwrap_or_else(|| panic!("README has no `{start}`"));
    let text = &readme[from..];
    let text = &text[..text[start.len()..].find(end).unwrap() + start.len()];
    let mut out = BTreeSet::new();
    for (i, _) in text.match_indices("--") {
        let name: String = text[i + 2..]
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect();
        out.insert(format!("--{name}"));
    }
    out
}

#[test]
fn the_readme_synopses_list_exactly_the_options_of_each_command() {
    let readme = read("README.md");
    for (sub, start, end) in [
        ("convert", "hipport convert PATH...", "```"),
        ("check", "`hipport check PATH...", "`"),
        ("doctor", "`hipport doctor [", "`"),
    ] {
        let help = help_options(sub);
        let doc = synopsis_options(&readme, start, end);
        assert!(help.len() >= 3, "{sub}: {help:?}");
        assert_eq!(
            doc, help,
            "README synopsis of `hipport {sub}` (left) vs --help (right)"
        );
    }
}
