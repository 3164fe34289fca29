//! SARIF 2.1.0 output, in the shape GitHub code scanning accepts.
//!
//! A report format above [`crate::diag`]: every diagnostic kind in [`crate::diag::catalog`]
//! becomes a `reportingDescriptor` (stable `id`, kebab `name`, summary, explain page, default
//! level), every [`Diagnostic`] a `result` pointing at its rule by id and index, with a
//! relative artifact URI, a region, a `partialFingerprints` entry that survives line shifts, and
//! its autofix edits as SARIF `fixes`.

use std::collections::HashMap;

use serde_json::{json, Value};

use crate::diag::{DiagInfo, Diagnostic, Severity};

/// The URI base id results are relative to when a root is given.
pub const SRCROOT: &str = "SRCROOT";

/// The schema URI written into the log.
pub const SCHEMA_URI: &str = "https://json.schemastore.org/sarif-2.1.0.json";

/// SARIF level of a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// Builds a SARIF 2.1.0 log with one run.
///
/// `root_uri`, when given (a URI such as `file:///work/project/`, or an absolute directory path),
/// is recorded as the `SRCROOT` base that the relative result URIs resolve against.
/// `tool_version` is hipport's version. Columns are byte columns (exact for ASCII lines).
pub fn to_sarif(diags: &[Diagnostic], root_uri: Option<&str>, tool_version: &str) -> Value {
    let catalog = crate::diag::catalog();
    let mut rules: Vec<Value> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for info in &catalog {
        index.insert(info.id.to_string(), rules.len());
        rules.push(rule(info));
    }
    // Diagnostics whose kind is not in the catalogue still need a rule to point at.
    for d in diags {
        if !index.contains_key(&d.id) {
            index.insert(d.id.clone(), rules.len());
            rules.push(json!({
                "id": d.id,
                "shortDescription": { "text": d.id },
                "defaultConfiguration": { "level": level(d.severity) },
            }));
        }
    }

    let mut seen: HashMap<String, usize> = HashMap::new();
    let results: Vec<Value> = diags
        .iter()
        .map(|d| {
            let mut text = d.message.clone();
            if let Some(help) = &d.help {
                text.push_str("\nhelp: ");
                text.push_str(help);
            }
            let (uri, relative) = file_uri(&d.file);
            let mut artifact = json!({ "uri": uri });
            if relative && root_uri.is_some() {
                artifact["uriBaseId"] = json!(SRCROOT);
            }
            // Fingerprint: rule, file and message, plus an occurrence number for repeats,
            // so that results keep their identity when lines move.
            let key = format!("{}\u{0}{}\u{0}{}", d.id, d.file, d.message);
            let n = seen.entry(key.clone()).or_insert(0);
            *n += 1;
            let fingerprint = format!("{:016x}:{}", fnv1a(key.as_bytes()), n);
            let mut result = json!({
                "ruleId": d.id,
                "ruleIndex": index[&d.id],
                "level": level(d.severity),
                "message": { "text": text },
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": artifact,
                        "region": {
                            "startLine": d.line.max(1),
                            "startColumn": d.column.max(1),
                        }
                    }
                }],
                "partialFingerprints": { "hipportFingerprint/v1": fingerprint },
            });
            if !d.fix.is_empty() {
                let replacements: Vec<Value> = d
                    .fix
                    .iter()
                    .map(|e| {
                        json!({
                            "deletedRegion": {
                                "byteOffset": e.start,
                                "byteLength": e.end.saturating_sub(e.start),
                            },
                            "insertedContent": { "text": e.text },
                        })
                    })
                    .collect();
                result["fixes"] = json!([{
                    "description": { "text": format!("hipport --fix ({})", d.id) },
                    "artifactChanges": [{
                        "artifactLocation": result["locations"][0]["physicalLocation"]["artifactLocation"].clone(),
                        "replacements": replacements,
                    }],
                }]);
            }
            result
        })
        .collect();

    let mut run = json!({
        "tool": {
            "driver": {
                "name": "hipport",
                "version": tool_version,
                "semanticVersion": tool_version,
                "rules": rules,
            }
        },
        "columnKind": "unicodeCodePoints",
        "results": results,
    });
    if let Some(root) = root_uri {
        // Accept a URI or a plain directory path.
        let mut root = if root.contains("://") {
            root.to_string()
        } else {
            file_uri(root).0
        };
        if !root.ends_with('/') {
            root.push('/');
        }
        run["originalUriBaseIds"] = json!({ SRCROOT: { "uri": root } });
    }
    json!({
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [run],
    })
}

/// Records in `log`'s run the macros the run assumed (as the JSON report's `defines` and
/// `undefines`: `NAME` or `NAME=VALUE`, and names left undefined), in the run's property bag
/// (SARIF 2.1.0 `run.properties`, a property bag), since they decide which
/// preprocessor branches were judged compiled and so which results there are.
pub fn record_macros(log: &mut Value, defines: &[String], undefines: &[String]) {
    if let Some(run) = log["runs"].get_mut(0) {
        run["properties"] = json!({ "defines": defines, "undefines": undefines });
    }
}

/// The `reportingDescriptor` of one diagnostic kind.
fn rule(info: &DiagInfo) -> Value {
    let first_paragraph = info
        .explain
        .split("\n\n")
        .next()
        .unwrap_or(info.summary)
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let tag = match info.id.chars().next() {
        Some('H') => "porting-hazard",
        Some('T') => "translation",
        Some('B') => "build",
        Some('D') => "environment",
        _ => "hipport",
    };
    json!({
        "id": info.id,
        "name": info.name,
        "shortDescription": { "text": info.summary },
        "fullDescription": { "text": first_paragraph },
        "help": { "text": info.explain },
        "defaultConfiguration": { "level": level(info.severity) },
        "properties": {
            "tags": ["portability", "hip", tag],
            "problem.severity": match info.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Note => "recommendation",
            },
        },
    })
}

/// A file path as a URI reference: relative paths stay relative (forward slashes, escaped);
/// absolute paths become `file://` URIs.
fn file_uri(path: &str) -> (String, bool) {
    let p = path.replace('\\', "/");
    let p = p.strip_prefix("./").unwrap_or(&p);
    let absolute = p.starts_with('/') || p.as_bytes().get(1) == Some(&b':');
    let escaped = escape(p);
    if absolute {
        let sep = if escaped.starts_with('/') { "" } else { "/" };
        (format!("file://{sep}{escaped}"), false)
    } else {
        (escaped, true)
    }
}

/// Percent-encodes everything but unreserved characters, `/` and `:`.
fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// 64-bit FNV-1a, for stable fingerprints.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn root_as_path_or_uri() {
        let a = to_sarif(&[], Some("/work/my project"), "0.1.0");
        assert_eq!(
            a["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"],
            "file:///work/my%20project/"
        );
        let b = to_sarif(&[], Some("file:///x"), "0.1.0");
        assert_eq!(
            b["runs"][0]["originalUriBaseIds"]["SRCROOT"]["uri"],
            "file:///x/"
        );
        assert!(to_sarif(&[], None, "0.1.0")["runs"][0]
            .get("originalUriBaseIds")
            .is_none());
    }

    #[test]
    fn uris() {
        assert_eq!(file_uri("src/a b.cu"), ("src/a%20b.cu".into(), true));
        assert_eq!(file_uri(".\\src\\k.cu"), ("src/k.cu".into(), true));
        assert_eq!(file_uri("/abs/k.cu"), ("file:///abs/k.cu".into(), false));
        assert_eq!(file_uri("C:\\x\\k.cu"), ("file:///C:/x/k.cu".into(), false));
    }

    #[test]
    fn fingerprints_ignore_lines_but_count_repeats() {
        let d = |line| Diagnostic {
            id: "H001".into(),
            severity: Severity::Error,
            file: "k.cu".into(),
            line,
            column: 3,
            offset: 0,
            message: "m".into(),
            help: None,
            fix: vec![],
        };
        let a = to_sarif(&[d(1), d(9)], None, "0.1.0");
        let b = to_sarif(&[d(5)], None, "0.1.0");
        let fp = |v: &Value, i: usize| {
            v["runs"][0]["results"][i]["partialFingerprints"]["hipportFingerprint/v1"].clone()
        };
        assert_eq!(fp(&a, 0), fp(&b, 0));
        assert_ne!(fp(&a, 0), fp(&a, 1));
    }
}
