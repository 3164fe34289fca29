//! The embedded rule files and the reader for their tab-separated format.
//!
//! A rule file is UTF-8 text: `#` lines are comments, the first other line names the columns, and
//! each following line is one rule. Files whose columns start with `cuda\thip\troc\tsection` hold
//! name mappings; files whose columns are `cuda\thip\troc\tfamily\tsource` hold header mappings.

use crate::{Family, HeaderMapping, Mapping, RuleError, Version};

/// Column names of a name-mapping file, in order.
pub const MAPPING_COLUMNS: &[&str] = &[
    "cuda",
    "hip",
    "roc",
    "family",
    "section",
    "cuda_added",
    "cuda_deprecated",
    "cuda_changed",
    "cuda_removed",
    "hip_added",
    "hip_deprecated",
    "hip_changed",
    "hip_removed",
    "hip_experimental",
    "roc_added",
    "roc_deprecated",
    "roc_removed",
    "source",
];

/// Column names of a header-mapping file, in order.
pub const HEADER_COLUMNS: &[&str] = &["cuda", "hip", "roc", "family", "source"];

/// The embedded data files: (file name, contents).
pub const FILES: &[(&str, &str)] = &[
    ("runtime.tsv", include_str!("../data/runtime.tsv")),
    ("driver.tsv", include_str!("../data/driver.tsv")),
    ("device.tsv", include_str!("../data/device.tsv")),
    ("rtc.tsv", include_str!("../data/rtc.tsv")),
    ("complex.tsv", include_str!("../data/complex.tsv")),
    ("cub.tsv", include_str!("../data/cub.tsv")),
    ("cufft.tsv", include_str!("../data/cufft.tsv")),
    ("cublas.tsv", include_str!("../data/cublas.tsv")),
    ("curand.tsv", include_str!("../data/curand.tsv")),
    ("cusparse.tsv", include_str!("../data/cusparse.tsv")),
    ("cusolver.tsv", include_str!("../data/cusolver.tsv")),
    ("cudnn.tsv", include_str!("../data/cudnn.tsv")),
    ("headers.tsv", include_str!("../data/headers.tsv")),
];

fn opt(s: &str) -> Option<String> {
    (!s.is_empty()).then(|| s.to_string())
}

fn version(file: &str, line: usize, col: &str, s: &str) -> Result<Option<Version>, RuleError> {
    if s.is_empty() {
        return Ok(None);
    }
    Version::parse(s)
        .map(Some)
        .ok_or_else(|| RuleError::BadLine {
            file: file.to_string(),
            line,
            reason: format!("column `{col}`: `{s}` is not a version like 6.2.0"),
        })
}

/// Parses one rule file into name mappings and header mappings.
pub fn parse_file(file: &str, text: &str) -> Result<(Vec<Mapping>, Vec<HeaderMapping>), RuleError> {
    let mut mappings = Vec::new();
    let mut headers = Vec::new();
    let mut columns: Option<Vec<&str>> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split('\t').collect();
        let bad = |reason: String| RuleError::BadLine {
            file: file.to_string(),
            line,
            reason,
        };
        let Some(cols) = &columns else {
            if fields != MAPPING_COLUMNS && fields != HEADER_COLUMNS {
                return Err(bad(format!(
                    "the first line must name the columns: `{}` or `{}`",
                    MAPPING_COLUMNS.join(" "),
                    HEADER_COLUMNS.join(" ")
                )));
            }
            columns = Some(fields);
            continue;
        };
        if fields.len() != cols.len() {
            return Err(bad(format!(
                "expected {} tab-separated fields, found {}",
                cols.len(),
                fields.len()
            )));
        }
        if fields[0].is_empty() {
            return Err(bad("the `cuda` column is empty".into()));
        }
        let family = Family::parse(fields[3])
            .ok_or_else(|| bad(format!("unknown family `{}`", fields[3])))?;
        if cols.len() == HEADER_COLUMNS.len() {
            headers.push(HeaderMapping {
                cuda: fields[0].to_string(),
                hip: opt(fields[1]),
                roc: opt(fields[2]),
                family,
                source: fields[4].to_string(),
            });
        } else {
            let v = |idx: usize| version(file, line, MAPPING_COLUMNS[idx], fields[idx]);
            mappings.push(Mapping {
                cuda: fields[0].to_string(),
                hip: opt(fields[1]),
                roc: opt(fields[2]),
                family,
                section: fields[4].to_string(),
                cuda_added: v(5)?,
                cuda_deprecated: v(6)?,
                cuda_changed: v(7)?,
                cuda_removed: v(8)?,
                hip_added: v(9)?,
                hip_deprecated: v(10)?,
                hip_changed: v(11)?,
                hip_removed: v(12)?,
                hip_experimental: v(13)?,
                roc_added: v(14)?,
                roc_deprecated: v(15)?,
                roc_removed: v(16)?,
                source: fields[17].to_string(),
            });
        }
    }
    Ok((mappings, headers))
}
