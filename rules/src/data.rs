//! The embedded rule files and the reader for their tab-separated formats.
//!
//! A rule file is UTF-8 text: `#` lines and blank lines are comments, the first other line names
//! the columns, and each following line is one rule. The column line chooses the format; a later
//! column line starts a new section in another format (the torch files hold names, then headers):
//!
//! | columns | format |
//! |---|---|
//! | [`MAPPING_COLUMNS`] (optionally followed by `hip_replacement`, or by `hip_replacement roc_args`) | name mappings |
//! | [`HEADER_COLUMNS`] or [`HEADER_COLUMNS_VERSIONED`] (optionally followed by `instead`) | header mappings |
//! | [`SIMPLE_COLUMNS`] (optionally followed by `family`) | name mappings, short form for user files |
//! | [`NAMESPACE_COLUMNS`] | namespace mappings |
//! | [`CALL_COLUMNS`] | call-shape rewrites |
//! | [`ABSENT_COLUMNS`] | HIP names missing from a release's headers |
//! | [`RENAMED_COLUMNS`] | HIP names a later release spells differently |

use crate::calls::{ArgCount, CallRewrite};
use crate::{
    Family, HeaderMapping, Mapping, NamespaceMapping, NamespaceScope, Renamed, RuleError, Text,
    Version,
};

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

/// Column names of a header-mapping file that records the HIP release of the HIP header.
pub const HEADER_COLUMNS_VERSIONED: &[&str] =
    &["cuda", "hip", "roc", "family", "hip_added", "source"];

/// Column names of the short user format: a CUDA name and its HIP name.
pub const SIMPLE_COLUMNS: &[&str] = &["cuda", "hip"];

/// Column names of a namespace file.
pub const NAMESPACE_COLUMNS: &[&str] = &["cuda", "hip", "scope", "source"];

/// Column names of a call-rewrite file.
pub const CALL_COLUMNS: &[&str] = &[
    "cuda",
    "argc",
    "template",
    "hip_added",
    "hip_before",
    "source",
    "note",
];

/// Column names of a file listing HIP names absent from a release's installed headers.
pub const ABSENT_COLUMNS: &[&str] = &["hip", "absent_in", "source"];

/// Column names of a file listing HIP names that a later release spells differently.
pub const RENAMED_COLUMNS: &[&str] = &["hip", "renamed", "since", "source"];

/// Which table of the database a file's name mappings belong to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Table {
    /// The main table, used whatever the choices.
    Main,
    /// PyTorch extension rules used only with [`crate::TorchApi::V1`].
    TorchV1,
}

/// One embedded data file.
#[derive(Clone, Copy, Debug)]
pub struct DataFile {
    /// File name under `rules/data`.
    pub name: &'static str,
    /// Contents.
    pub text: &'static str,
    /// Whether the generator writes it (true) or it is written by hand (false).
    pub generated: bool,
    /// Which table its name mappings go to.
    pub table: Table,
}

macro_rules! data_file {
    ($name:literal, $generated:expr) => {
        data_file!($name, $generated, Table::Main)
    };
    ($name:literal, $generated:expr, $table:expr) => {
        DataFile {
            name: $name,
            text: include_str!(concat!("../data/", $name)),
            generated: $generated,
            table: $table,
        }
    };
}

/// Every embedded data file, in load order: generated tables first, then the hand-written
/// `extra-*` files that add to or correct them, then the other hand-written files.
pub const DATA_FILES: &[DataFile] = &[
    data_file!("runtime.tsv", true),
    data_file!("driver.tsv", true),
    data_file!("device.tsv", true),
    data_file!("rtc.tsv", true),
    data_file!("complex.tsv", true),
    data_file!("cub.tsv", true),
    data_file!("cufft.tsv", true),
    data_file!("cublas.tsv", true),
    data_file!("curand.tsv", true),
    data_file!("cusparse.tsv", true),
    data_file!("cusolver.tsv", true),
    data_file!("cudnn.tsv", true),
    data_file!("headers.tsv", true),
    data_file!("torch-v2.tsv", true),
    data_file!("torch-v1.tsv", true, Table::TorchV1),
    data_file!("extra-runtime.tsv", false),
    data_file!("extra-driver.tsv", false),
    data_file!("extra-rtc.tsv", false),
    data_file!("extra-device.tsv", false),
    data_file!("extra-cublas.tsv", false),
    data_file!("extra-curand.tsv", false),
    data_file!("extra-cufft.tsv", false),
    data_file!("extra-cusolver.tsv", false),
    data_file!("extra-cusparse.tsv", false),
    data_file!("extra-cudnn.tsv", false),
    data_file!("extra-nccl.tsv", false),
    data_file!("extra-nvtx.tsv", false),
    data_file!("extra-cutensor.tsv", false),
    data_file!("extra-headers.tsv", false),
    data_file!("namespaces.tsv", false),
    data_file!("calls.tsv", false),
    data_file!("hip-absent.tsv", false),
    data_file!("hip-renamed.tsv", true),
    data_file!("extra-renamed.tsv", false),
];

/// The embedded data files as (file name, contents), in load order.
pub const FILES: &[(&str, &str)] = &{
    let mut out = [("", ""); DATA_FILES.len()];
    let mut i = 0;
    while i < DATA_FILES.len() {
        out[i] = (DATA_FILES[i].name, DATA_FILES[i].text);
        i += 1;
    }
    out
};

/// The rules read from one file.
#[derive(Clone, Debug, Default)]
pub struct RuleSet {
    /// Name mappings.
    pub mappings: Vec<Mapping>,
    /// Header mappings.
    pub headers: Vec<HeaderMapping>,
    /// Namespace mappings.
    pub namespaces: Vec<NamespaceMapping>,
    /// Call-shape rewrites.
    pub calls: Vec<CallRewrite>,
    /// HIP names absent from a release's headers: (name, release, source).
    pub absent: Vec<(String, Version, String)>,
    /// HIP names spelled differently from a release on.
    pub renamed: Vec<Renamed>,
    /// Whether the mappings came from the short `cuda hip` format (family not given).
    pub simple: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    Mapping { replacement: bool, roc_args: bool },
    Header { versioned: bool, instead: bool },
    Simple { family: bool },
    Namespace,
    Call,
    Absent,
    Renamed,
}

fn opt(s: &str) -> Option<Text> {
    (!s.is_empty()).then(|| Text::Owned(s.to_string()))
}

fn format_of(cols: &[&str]) -> Option<Format> {
    if cols == MAPPING_COLUMNS {
        return Some(Format::Mapping {
            replacement: false,
            roc_args: false,
        });
    }
    let n = MAPPING_COLUMNS.len();
    if cols.len() > n && cols[..n] == *MAPPING_COLUMNS && cols[n] == "hip_replacement" {
        match &cols[n + 1..] {
            [] => {
                return Some(Format::Mapping {
                    replacement: true,
                    roc_args: false,
                })
            }
            ["roc_args"] => {
                return Some(Format::Mapping {
                    replacement: true,
                    roc_args: true,
                })
            }
            _ => {}
        }
    }
    if cols == HEADER_COLUMNS {
        return Some(Format::Header {
            versioned: false,
            instead: false,
        });
    }
    if cols == HEADER_COLUMNS_VERSIONED {
        return Some(Format::Header {
            versioned: true,
            instead: false,
        });
    }
    if cols.len() == HEADER_COLUMNS_VERSIONED.len() + 1
        && cols[..HEADER_COLUMNS_VERSIONED.len()] == *HEADER_COLUMNS_VERSIONED
        && cols[HEADER_COLUMNS_VERSIONED.len()] == "instead"
    {
        return Some(Format::Header {
            versioned: true,
            instead: true,
        });
    }
    if cols == SIMPLE_COLUMNS {
        return Some(Format::Simple { family: false });
    }
    if cols == ["cuda", "hip", "family"] {
        return Some(Format::Simple { family: true });
    }
    if cols == NAMESPACE_COLUMNS {
        return Some(Format::Namespace);
    }
    if cols == CALL_COLUMNS {
        return Some(Format::Call);
    }
    if cols == ABSENT_COLUMNS {
        return Some(Format::Absent);
    }
    if cols == RENAMED_COLUMNS {
        return Some(Format::Renamed);
    }
    None
}

fn known_formats() -> String {
    [
        MAPPING_COLUMNS,
        HEADER_COLUMNS,
        HEADER_COLUMNS_VERSIONED,
        SIMPLE_COLUMNS,
        NAMESPACE_COLUMNS,
        CALL_COLUMNS,
        ABSENT_COLUMNS,
        RENAMED_COLUMNS,
    ]
    .iter()
    .map(|c| format!("`{}`", c.join(" ")))
    .collect::<Vec<_>>()
    .join(", ")
}

/// Parses one rule file. Errors name the file and the 1-based line.
pub fn parse_file(file: &str, text: &str) -> Result<RuleSet, RuleError> {
    let mut out = RuleSet::default();
    // Generated rows are about 130 bytes; reserving up front avoids copying rows as the list grows.
    out.mappings.reserve(text.len() / 128);
    let mut format: Option<(Format, usize)> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let raw = raw.strip_suffix('\r').unwrap_or(raw);
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        // Split on tabs in one pass over the bytes (faster than `split` for many short fields).
        let mut buf = [""; 24];
        let mut count = 0;
        let mut start = 0;
        for (i, &byte) in raw.as_bytes().iter().enumerate() {
            if byte == b'\t' {
                if count < buf.len() {
                    buf[count] = &raw[start..i];
                }
                count += 1;
                start = i + 1;
            }
        }
        if count < buf.len() {
            buf[count] = &raw[start..];
        }
        count += 1;
        let fields = &buf[..count.min(buf.len())];
        let bad = |reason: String| RuleError::BadLine {
            file: file.to_string(),
            line,
            reason,
        };
        // A column line starts a section; a file may hold several (e.g. names, then headers).
        let maybe_columns = matches!(fields[0], "cuda" | "hip");
        if let Some(f) = maybe_columns.then(|| format_of(fields)).flatten() {
            format = Some((f, fields.len()));
            if let Format::Simple { .. } = f {
                out.simple = true;
            }
            continue;
        }
        let Some((fmt, ncols)) = format else {
            let f = format_of(fields).ok_or_else(|| {
                bad(format!(
                    "the first line must name the columns of a known format: {}",
                    known_formats()
                ))
            })?;
            format = Some((f, fields.len()));
            if let Format::Simple { .. } = f {
                out.simple = true;
            }
            continue;
        };
        if count != ncols {
            return Err(bad(format!(
                "expected {ncols} tab-separated fields, found {count}"
            )));
        }
        if fields[0].trim().is_empty() {
            return Err(bad(format!(
                "the `{}` column is empty",
                if matches!(fmt, Format::Absent | Format::Renamed) {
                    "hip"
                } else {
                    "cuda"
                }
            )));
        }
        let spaced =
            |f: &&&str| f.starts_with(char::is_whitespace) || f.ends_with(char::is_whitespace);
        if let Some(f) = fields.iter().find(spaced) {
            return Err(bad(format!("field `{f}` has leading or trailing spaces")));
        }
        let version = |idx: usize, col: &str| -> Result<Option<Version>, RuleError> {
            let s = fields[idx];
            if s.is_empty() {
                return Ok(None);
            }
            Version::parse(s)
                .map(Some)
                .ok_or_else(|| bad(format!("column `{col}`: `{s}` is not a version like 6.2.0")))
        };
        let family = |idx: usize| {
            Family::parse(fields[idx]).ok_or_else(|| {
                bad(format!(
                    "unknown family `{}` (known: {})",
                    fields[idx],
                    Family::ALL.map(|f| f.as_str()).join(", ")
                ))
            })
        };
        match fmt {
            Format::Mapping {
                replacement,
                roc_args,
            } => {
                let v = |idx: usize| version(idx, MAPPING_COLUMNS[idx]);
                out.mappings.push(Mapping {
                    cuda: fields[0].to_string().into(),
                    hip: opt(fields[1]),
                    roc: opt(fields[2]),
                    family: family(3)?,
                    section: fields[4].to_string().into(),
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
                    source: fields[17].to_string().into(),
                    hip_replacement: if replacement { opt(fields[18]) } else { None },
                    hip_absent_in: None,
                    roc_args: if roc_args { opt(fields[19]) } else { None },
                });
            }
            Format::Header { versioned, instead } => {
                let (hip_added, source) = if versioned {
                    (version(4, "hip_added")?, fields[5])
                } else {
                    (None, fields[4])
                };
                let cuda = fields[0];
                if cuda.contains('*') && !(cuda.ends_with("/*") && cuda.matches('*').count() == 1) {
                    return Err(bad(format!(
                        "header pattern `{cuda}`: a `*` may only appear once, as the last path part (`dir/*`)"
                    )));
                }
                let hip = fields[1];
                if (hip.contains('*') || hip.contains('%')) && !cuda.ends_with("/*") {
                    return Err(bad(format!(
                        "`*` and `%` in the hip column need a pattern (`dir/*`) in the cuda column, found `{cuda}`"
                    )));
                }
                out.headers.push(HeaderMapping {
                    cuda: cuda.to_string().into(),
                    hip: opt(hip),
                    roc: opt(fields[2]),
                    family: family(3)?,
                    source: source.to_string().into(),
                    hip_added,
                    instead: if instead { opt(fields[6]) } else { None },
                });
            }
            Format::Simple { family: has_family } => {
                let fam = if has_family { Some(family(2)?) } else { None };
                out.mappings.push(Mapping {
                    cuda: fields[0].to_string().into(),
                    hip: opt(fields[1]),
                    roc: None,
                    family: fam.unwrap_or(Family::Runtime),
                    section: if has_family {
                        Text::Borrowed("")
                    } else {
                        SIMPLE_NO_FAMILY.into()
                    },
                    cuda_added: None,
                    cuda_deprecated: None,
                    cuda_changed: None,
                    cuda_removed: None,
                    hip_added: None,
                    hip_deprecated: None,
                    hip_changed: None,
                    hip_removed: None,
                    hip_experimental: None,
                    roc_added: None,
                    roc_deprecated: None,
                    roc_removed: None,
                    source: format!("{file}:{line}").into(),
                    hip_replacement: None,
                    hip_absent_in: None,
                    roc_args: None,
                });
            }
            Format::Namespace => {
                let scope = NamespaceScope::parse(fields[2]).ok_or_else(|| {
                    bad(format!(
                        "unknown scope `{}` (known: all, torch-v1, torch-v2)",
                        fields[2]
                    ))
                })?;
                out.namespaces.push(NamespaceMapping {
                    cuda: fields[0].to_string().into(),
                    hip: opt(fields[1]),
                    scope,
                    source: fields[3].to_string().into(),
                });
            }
            Format::Call => {
                let argc = ArgCount::parse(fields[1]).ok_or_else(|| {
                    bad(format!("column `argc`: `{}` is not N, N+ or *", fields[1]))
                })?;
                let rule = CallRewrite::new(
                    fields[0],
                    argc,
                    fields[2],
                    version(3, "hip_added")?,
                    version(4, "hip_before")?,
                    fields[5],
                    fields[6],
                )
                .map_err(bad)?;
                out.calls.push(rule);
            }
            Format::Absent => {
                let v = version(1, "absent_in")?
                    .ok_or_else(|| bad("column `absent_in` is empty".to_string()))?;
                out.absent
                    .push((fields[0].to_string(), v, fields[2].to_string()));
            }
            Format::Renamed => {
                let since = version(2, "since")?
                    .ok_or_else(|| bad("column `since` is empty".to_string()))?;
                if fields[1].trim().is_empty() {
                    return Err(bad("the `renamed` column is empty".to_string()));
                }
                out.renamed.push(Renamed {
                    hip: fields[0].to_string().into(),
                    renamed: fields[1].to_string().into(),
                    since,
                    source: fields[3].to_string().into(),
                });
            }
        }
    }
    if format.is_none() {
        return Err(RuleError::BadLine {
            file: file.to_string(),
            line: text.lines().count().max(1),
            reason: "no column line: the file has no rules".into(),
        });
    }
    Ok(out)
}

/// The `section` given to rows of the short `cuda hip` format, whose family is taken from the
/// rule they override.
pub(crate) const SIMPLE_NO_FAMILY: &str = "(user rule)";
