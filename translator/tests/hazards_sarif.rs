//! SARIF output of the hazard corpus, validated against the SARIF 2.1.0 JSON schema
//! (`tests/data/sarif-schema-2.1.0.json`, see `tests/data/README.md`) and checked for what
//! GitHub code scanning relies on.

use std::path::Path;
use std::time::Duration;

use hipport::analysis::{self, AnalysisOptions};
use hipport::diag::Diagnostic;
use hipport_rules::Version;
use serde_json::Value;

fn schema() -> Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sarif-schema-2.1.0.json");
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn corpus_diagnostics() -> Vec<Diagnostic> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/hazards");
    let opts = AnalysisOptions {
        hip_version: Version::new(6, 4, 0),
        fix: true,
        ..AnalysisOptions::default()
    };
    let mut all = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "cu" || e == "cuh" || e == "py")
        })
        .collect();
    names.sort();
    for p in names {
        let src = std::fs::read(&p).unwrap();
        let rel = format!(
            "corpus/hazards/{}",
            p.file_name().unwrap().to_string_lossy()
        );
        if p.extension().unwrap() == "py" {
            all.extend(analysis::analyze_python(&src, &rel));
        } else {
            let tree = hipport::parse::parse(&src, Duration::from_secs(10)).unwrap();
            all.extend(analysis::analyze(&src, &tree, &rel, &opts));
        }
    }
    all
}

fn validate(log: &Value) {
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).expect("the SARIF schema compiles");
    let errors: Vec<String> = validator
        .iter_errors(log)
        .map(|e| format!("{} at {}", e, e.instance_path))
        .take(20)
        .collect();
    assert!(
        errors.is_empty(),
        "SARIF schema violations:\n{}",
        errors.join("\n")
    );
}

#[test]
fn corpus_sarif_is_valid_sarif_2_1_0() {
    let diags = corpus_diagnostics();
    assert!(diags.len() > 50);
    let log = hipport::sarif::to_sarif(&diags, Some("file:///work/project/"), "0.1.0");
    validate(&log);
    let without_root = hipport::sarif::to_sarif(&diags, None, "0.1.0");
    validate(&without_root);
}

#[test]
fn the_macros_the_run_assumed_are_recorded_in_the_runs_property_bag() {
    let diags = corpus_diagnostics();
    let mut log = hipport::sarif::to_sarif(&diags, Some("file:///work/project/"), "0.1.0");
    assert!(log["runs"][0].get("properties").is_none());
    let defines = ["USE_ROCM".to_string(), "LEVEL=2".to_string()];
    hipport::sarif::record_macros(&mut log, &defines, &["LEGACY".to_string()]);
    validate(&log);
    let props = &log["runs"][0]["properties"];
    assert_eq!(props["defines"], serde_json::json!(["USE_ROCM", "LEVEL=2"]));
    assert_eq!(props["undefines"], serde_json::json!(["LEGACY"]));
}

#[test]
fn schema_rejects_broken_logs() {
    // The validator really checks: a result without a message, and a bad level, are rejected.
    let diags = corpus_diagnostics();
    let mut log = hipport::sarif::to_sarif(&diags, None, "0.1.0");
    log["runs"][0]["results"][0]
        .as_object_mut()
        .unwrap()
        .remove("message");
    let schema = schema();
    let validator = jsonschema::validator_for(&schema).unwrap();
    assert!(!validator.is_valid(&log));
    let mut log = hipport::sarif::to_sarif(&diags, None, "0.1.0");
    log["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!validator.is_valid(&log));
}

#[test]
fn github_code_scanning_fields() {
    let diags = corpus_diagnostics();
    let log = hipport::sarif::to_sarif(&diags, Some("file:///src"), "1.2.3");
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    let driver = &run["tool"]["driver"];
    assert_eq!(driver["name"], "hipport");
    assert_eq!(driver["version"], "1.2.3");
    assert_eq!(run["originalUriBaseIds"]["SRCROOT"]["uri"], "file:///src/");
    let rules = driver["rules"].as_array().unwrap();
    // Every hazard rule is described, with its stable id, name, texts and default level.
    for info in analysis::DIAGS {
        let r = rules
            .iter()
            .find(|r| r["id"] == info.id)
            .unwrap_or_else(|| panic!("{} missing from rules", info.id));
        assert_eq!(r["name"], info.name);
        assert_eq!(r["shortDescription"]["text"], info.summary);
        assert_eq!(r["help"]["text"], info.explain);
        assert!(!r["fullDescription"]["text"].as_str().unwrap().is_empty());
        assert_eq!(r["defaultConfiguration"]["level"], info.severity.as_str());
    }
    let results = run["results"].as_array().unwrap();
    assert_eq!(results.len(), diags.len());
    let mut fingerprints = std::collections::HashSet::new();
    for (res, d) in results.iter().zip(&diags) {
        let idx = res["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[idx]["id"], res["ruleId"]);
        assert_eq!(res["ruleId"], d.id.as_str());
        assert_eq!(res["level"], d.severity.as_str());
        let loc = &res["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(uri.starts_with("corpus/hazards/"), "{uri}");
        assert_eq!(loc["artifactLocation"]["uriBaseId"], "SRCROOT");
        assert_eq!(loc["region"]["startLine"], d.line as u64);
        assert_eq!(loc["region"]["startColumn"], d.column as u64);
        let fp = res["partialFingerprints"]["hipportFingerprint/v1"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(fingerprints.insert(fp), "duplicate fingerprint");
        if !d.fix.is_empty() {
            let reps = &res["fixes"][0]["artifactChanges"][0]["replacements"];
            assert_eq!(reps.as_array().unwrap().len(), d.fix.len());
            assert_eq!(
                reps[0]["deletedRegion"]["byteOffset"],
                d.fix[0].start as u64
            );
        }
    }
    // Serializes to JSON text and back unchanged.
    let text = serde_json::to_string_pretty(&log).unwrap();
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(back, log);
}
