//! Turns the mapping facts in `../shared/data` into hipport's per-family rule files.
//!
//! The generator is deterministic: the same TSV inputs always give byte-identical outputs, so the
//! committed files can be checked against a fresh run (see the `regenerate` test).

use std::collections::BTreeMap;
use std::path::Path;

use crate::data::{HEADER_COLUMNS, MAPPING_COLUMNS};
use crate::Family;

/// Errors while generating.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// An input file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The path.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// An input line has the wrong shape.
    #[error("{path}:{line}: {reason}")]
    Input {
        /// The path.
        path: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

const API_HEADER: &[&str] = &[
    "family",
    "section",
    "cuda_name",
    "hip_name",
    "cuda_added",
    "cuda_deprecated",
    "cuda_changed",
    "cuda_removed",
    "hip_added",
    "hip_deprecated",
    "hip_changed",
    "hip_removed",
    "hip_experimental",
    "roc_name",
    "roc_added",
    "roc_deprecated",
    "roc_changed",
    "roc_removed",
    "roc_experimental",
    "source_table",
];

fn read(path: &Path) -> Result<String, GenerateError> {
    std::fs::read_to_string(path).map_err(|source| GenerateError::Read {
        path: path.display().to_string(),
        source,
    })
}

fn banner(family: &str, input: &str) -> String {
    format!(
        "# hipport rules, family `{family}`.\n\
         # Generated from ../shared/data/{input} by `cargo run -p hipport-rules --bin generate-rules`.\n\
         # Do not edit by hand: change the generator or the facts, then regenerate.\n"
    )
}

/// Maps a header table's `api` column to a family.
fn header_family(api: &str) -> Family {
    match api {
        "API_DRIVER" => Family::Driver,
        "API_RUNTIME" => Family::Runtime,
        "API_COMPLEX" => Family::Complex,
        "API_BLAS" => Family::Cublas,
        "API_RAND" => Family::Curand,
        "API_DNN" => Family::Cudnn,
        "API_FFT" => Family::Cufft,
        "API_SPARSE" => Family::Cusparse,
        "API_SOLVER" => Family::Cusolver,
        "API_CUB" => Family::Cub,
        "API_RTC" => Family::Rtc,
        "API_CAFFE2" => Family::Torch,
        _ => Family::Header,
    }
}

/// Generates every rule file: returns (file name, contents) pairs, sorted by name.
pub fn generate(shared_data: &Path) -> Result<Vec<(String, String)>, GenerateError> {
    let mut out: BTreeMap<String, String> = BTreeMap::new();

    let api_path = shared_data.join("hipify-api-mappings.tsv");
    let api = read(&api_path)?;
    let api_name = api_path.display().to_string();
    for (i, line) in api.lines().enumerate() {
        let fields: Vec<&str> = line.split('\t').collect();
        let bad = |reason: String| GenerateError::Input {
            path: api_name.clone(),
            line: i + 1,
            reason,
        };
        if i == 0 {
            if fields != API_HEADER {
                return Err(bad("unexpected column names".into()));
            }
            continue;
        }
        if fields.len() != API_HEADER.len() {
            return Err(bad(format!("expected {} fields", API_HEADER.len())));
        }
        let family = Family::parse(fields[0])
            .ok_or_else(|| bad(format!("unknown family `{}`", fields[0])))?;
        let file = format!("{}.tsv", family.as_str());
        let text = out.entry(file).or_insert_with(|| {
            let mut t = banner(family.as_str(), "hipify-api-mappings.tsv");
            t.push_str(&MAPPING_COLUMNS.join("\t"));
            t.push('\n');
            t
        });
        let row = [
            fields[2],  // cuda
            fields[3],  // hip
            fields[13], // roc
            family.as_str(),
            fields[1],  // section
            fields[4],  // cuda_added
            fields[5],  // cuda_deprecated
            fields[6],  // cuda_changed
            fields[7],  // cuda_removed
            fields[8],  // hip_added
            fields[9],  // hip_deprecated
            fields[10], // hip_changed
            fields[11], // hip_removed
            fields[12], // hip_experimental
            fields[14], // roc_added
            fields[15], // roc_deprecated
            fields[17], // roc_removed
            fields[19], // source
        ];
        text.push_str(&row.join("\t"));
        text.push('\n');
    }

    let hdr_path = shared_data.join("hipify-headers.tsv");
    let hdr = read(&hdr_path)?;
    let hdr_name = hdr_path.display().to_string();
    let mut text = banner("header", "hipify-headers.tsv");
    text.push_str(&HEADER_COLUMNS.join("\t"));
    text.push('\n');
    for (i, line) in hdr.lines().enumerate() {
        if i == 0 {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() != 9 {
            return Err(GenerateError::Input {
                path: hdr_name.clone(),
                line: i + 1,
                reason: "expected 9 fields".into(),
            });
        }
        // A header HIPIFY marks unsupported has no HIP counterpart.
        let hip = if fields[5] == "yes" { "" } else { fields[1] };
        let row = [
            fields[0],
            hip,
            fields[2],
            header_family(fields[4]).as_str(),
            "hipify-headers.tsv",
        ];
        text.push_str(&row.join("\t"));
        text.push('\n');
    }
    out.insert("headers.tsv".into(), text);
    Ok(out.into_iter().collect())
}
