//! `hipport.toml`: a project's own rules and diagnostic settings, kept at the root of the tree it
//! converts, so that everyone who converts the tree gets the same result without long command lines.
//!
//! ```toml
//! rules = ["hip/extra-rules.tsv"]        # rule files (rules/README.md formats), relative to this file
//! allow = ["H021"]                       # diagnostics to silence, as with --allow
//! deny = ["H001"]                        # diagnostics to raise to errors, as with --deny
//!
//! [rename]                               # CUDA name = HIP name ("" = no HIP equivalent)
//! cudaLegacyHelper = "hipLegacyHelper"
//! myCheckCuda = { hip = "myCheckHip", family = "runtime" }
//!
//! [headers]                              # CUDA header = HIP header
//! "mylib/cuda_utils.cuh" = "mylib/hip_utils.cuh"
//! ```
//!
//! Command-line `--rules` files apply after the file's, so the command line wins.

use std::collections::BTreeMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

/// The file name looked for at each input root.
pub const FILE_NAME: &str = "hipport.toml";

/// Why a `hipport.toml` could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file exists but cannot be read.
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    /// The file is not valid, with the place and the reason.
    #[error("{path}:{line}:{column}: {reason}")]
    Invalid {
        path: PathBuf,
        line: usize,
        column: usize,
        reason: String,
    },
}

/// A loaded `hipport.toml`.
#[derive(Debug, Clone, Default)]
pub struct ProjectConfig {
    /// Where it was read from.
    pub path: PathBuf,
    /// Rule files, resolved against the file's directory, each with its text.
    pub rule_files: Vec<(PathBuf, String)>,
    /// The `[rename]` and `[headers]` tables as rule text in the formats of rules/README.md,
    /// named after the file; `None` when both tables are empty.
    pub inline_rules: Option<(String, String)>,
    /// Diagnostic IDs or names to silence.
    pub allow: Vec<String>,
    /// Diagnostic IDs or names to raise to errors.
    pub deny: Vec<String>,
    /// Macros the HIP build defines (`defines = ["USE_ROCM"]`, as `--define`), then those it
    /// leaves undefined (`undefines = ["USE_ROCM"]`, as `--undefine`); each name at most once.
    pub defines: Vec<crate::analysis::Define>,
    /// What the file holds that does no harm but likely is not what its author meant (an
    /// `allow`/`deny` entry this hipport does not know, which a later one may), each as
    /// `path:line:column: reason`, for the caller to print as warnings.
    pub warnings: Vec<String>,
}

impl ProjectConfig {
    /// Every rule text this file contributes, in the order they apply, as (name, text) pairs for
    /// `Database::with_overrides` and the cache fingerprint.
    pub fn rule_texts(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = self
            .rule_files
            .iter()
            .map(|(p, t)| (p.display().to_string(), t.clone()))
            .collect();
        v.extend(self.inline_rules.clone());
        v
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    rules: Vec<Spanned<String>>,
    #[serde(default)]
    allow: Vec<Spanned<String>>,
    #[serde(default)]
    deny: Vec<Spanned<String>>,
    #[serde(default)]
    defines: Vec<Spanned<String>>,
    #[serde(default)]
    undefines: Vec<Spanned<String>>,
    #[serde(default)]
    rename: BTreeMap<Spanned<String>, Spanned<RenameValue>>,
    #[serde(default)]
    headers: BTreeMap<Spanned<String>, Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RenameValue {
    Name(String),
    Full {
        hip: String,
        #[serde(default)]
        family: Option<String>,
    },
}

/// Families a `[rename]` row may name (those of rules/README.md).
const FAMILIES: &[&str] = &[
    "runtime", "driver", "device", "rtc", "complex", "cub", "cufft", "cublas", "curand",
    "cusparse", "cusolver", "cudnn", "nvtx", "torch", "header",
];

/// Loads `dir/hipport.toml`; `Ok(None)` when there is none.
pub fn load(dir: &Path) -> Result<Option<ProjectConfig>, ConfigError> {
    let path = dir.join(FILE_NAME);
    let text = match std::fs::read(&path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            invalid_at(&path, "", at, "the file is not valid UTF-8".into())
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(source) => return Err(ConfigError::Read { path, source }),
    };
    parse(&path, &text).map(Some)
}

/// The `hipport.toml` of each input directory (file inputs have none), each directory once.
pub fn load_for_inputs(inputs: &[PathBuf]) -> Result<Vec<ProjectConfig>, ConfigError> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for dir in inputs.iter().filter(|p| p.is_dir()) {
        let key = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if seen.contains(&key) {
            continue;
        }
        seen.push(key);
        out.extend(load(dir)?);
    }
    Ok(out)
}

/// Parses the text of a `hipport.toml` found at `path` (rule files are read relative to it).
pub fn parse(path: &Path, text: &str) -> Result<ProjectConfig, ConfigError> {
    let raw: Raw = toml::from_str(text).map_err(|e| {
        let at = e.span().map_or(0, |s| s.start);
        invalid_at(path, text, at, e.message().trim().to_string())
    })?;
    let base = path.parent().unwrap_or(Path::new("."));
    let mut rule_files = Vec::new();
    for f in &raw.rules {
        let file = base.join(f.get_ref());
        let body = std::fs::read_to_string(&file).map_err(|e| {
            invalid_at(
                path,
                text,
                f.span().start,
                format!("cannot read rule file {}: {e}", file.display()),
            )
        })?;
        rule_files.push((file, body));
    }
    let name = path.display().to_string();
    let mut rows = String::new();
    // Rows without a family keep the family of the rule they override; the two kinds need
    // sections of their own.
    let (mut plain, mut with_family) = (String::new(), String::new());
    for (cuda, value) in &raw.rename {
        check_name(path, text, cuda.span(), cuda.get_ref(), false)?;
        let (hip, family) = match value.get_ref() {
            RenameValue::Name(h) => (h.as_str(), None),
            RenameValue::Full { hip, family } => (hip.as_str(), family.as_deref()),
        };
        check_name(path, text, value.span(), hip, true)?;
        match family {
            None => plain.push_str(&format!("{}\t{hip}\n", cuda.get_ref())),
            Some(f) if FAMILIES.contains(&f) => {
                with_family.push_str(&format!("{}\t{hip}\t{f}\n", cuda.get_ref()))
            }
            Some(f) => {
                return Err(invalid_at(
                    path,
                    text,
                    value.span().start,
                    format!("unknown family `{f}` (one of: {})", FAMILIES.join(", ")),
                ))
            }
        }
    }
    if !plain.is_empty() {
        rows.push_str("# [rename]\ncuda\thip\n");
        rows.push_str(&plain);
    }
    if !with_family.is_empty() {
        rows.push_str("# [rename] with families\ncuda\thip\tfamily\n");
        rows.push_str(&with_family);
    }
    if !raw.headers.is_empty() {
        rows.push_str("# [headers]\ncuda\thip\troc\tfamily\tsource\n");
        for (cuda, hip) in &raw.headers {
            check_name(path, text, cuda.span(), cuda.get_ref(), false)?;
            check_name(path, text, hip.span(), hip.get_ref(), true)?;
            let (line, _) = line_col(text, cuda.span().start);
            rows.push_str(&format!(
                "{}\t{}\t\theader\t{name}:{line}\n",
                cuda.get_ref(),
                hip.get_ref()
            ));
        }
    }
    let mut defines = Vec::new();
    for d in &raw.defines {
        let define = crate::analysis::Define::parse(d.get_ref())
            .map_err(|r| invalid_at(path, text, d.span().start, r))?;
        defines.push(define);
    }
    for d in &raw.undefines {
        let undefine = crate::analysis::Define::parse_undefine(d.get_ref())
            .map_err(|r| invalid_at(path, text, d.span().start, r))?;
        if defines.iter().any(|x| x.name == undefine.name) {
            let reason = format!("`{}` is in both `defines` and `undefines`", undefine.name);
            return Err(invalid_at(path, text, d.span().start, reason));
        }
        defines.push(undefine);
    }
    // An entry no version can know is an error; one a later version may know, a warning
    // (see [`crate::diag::check_list_entry`]).
    let mut warnings = Vec::new();
    for (list, entries) in [("allow", &raw.allow), ("deny", &raw.deny)] {
        for e in entries {
            match crate::diag::check_list_entry(e.get_ref()) {
                None => {}
                Some(crate::diag::UnknownEntry::Invalid(why)) => {
                    let reason = format!("`{}` in `{list}`: {why}", e.get_ref());
                    return Err(invalid_at(path, text, e.span().start, reason));
                }
                Some(crate::diag::UnknownEntry::Later(why)) => {
                    let (line, column) = line_col(text, e.span().start);
                    warnings.push(format!(
                        "{}:{line}:{column}: `{}` in `{list}`: {why}",
                        path.display(),
                        e.get_ref()
                    ));
                }
            }
        }
    }
    Ok(ProjectConfig {
        path: path.to_path_buf(),
        rule_files,
        inline_rules: (!rows.is_empty()).then(|| (format!("{name} (inline)"), rows)),
        allow: raw.allow.into_iter().map(Spanned::into_inner).collect(),
        deny: raw.deny.into_iter().map(Spanned::into_inner).collect(),
        defines,
        warnings,
    })
}

/// Names go into tab-separated rule text: no tabs, line breaks or spaces; only a HIP name may be
/// empty (no equivalent).
fn check_name(
    path: &Path,
    text: &str,
    span: Range<usize>,
    name: &str,
    may_be_empty: bool,
) -> Result<(), ConfigError> {
    let reason = if name.is_empty() && !may_be_empty {
        Some("an empty CUDA name".to_string())
    } else if name.chars().any(char::is_whitespace) {
        Some(format!("`{name}` contains white space"))
    } else {
        None
    };
    match reason {
        Some(r) => Err(invalid_at(path, text, span.start, r)),
        None => Ok(()),
    }
}

fn invalid_at(path: &Path, text: &str, at: usize, reason: String) -> ConfigError {
    let (line, column) = line_col(text, at);
    ConfigError::Invalid {
        path: path.to_path_buf(),
        line,
        column,
        reason,
    }
}

/// 1-based line and column (in characters) of byte offset `at`.
fn line_col(text: &str, at: usize) -> (usize, usize) {
    let mut end = at.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let before = &text[..end];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    (line, column)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(text: &str) -> (usize, usize, String) {
        match parse(Path::new("/p/hipport.toml"), text) {
            Err(ConfigError::Invalid {
                line,
                column,
                reason,
                ..
            }) => (line, column, reason),
            other => panic!("expected an error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn tables_become_rule_text() {
        let c = parse(
            Path::new("/p/hipport.toml"),
            "allow = [\"H021\"]\n[rename]\ncudaFoo = \"hipFoo\"\nmyCuda = { hip = \"myHip\", family = \"device\" }\nnoHip = \"\"\n[headers]\n\"a/cuda.h\" = \"a/hip.h\"\n",
        )
        .unwrap();
        assert_eq!(c.allow, vec!["H021"]);
        let (name, rows) = c.inline_rules.unwrap();
        assert_eq!(name, "/p/hipport.toml (inline)");
        assert_eq!(
            rows,
            "# [rename]\ncuda\thip\ncudaFoo\thipFoo\nnoHip\t\n\
             # [rename] with families\ncuda\thip\tfamily\nmyCuda\tmyHip\tdevice\n\
             # [headers]\ncuda\thip\troc\tfamily\tsource\na/cuda.h\ta/hip.h\t\theader\t/p/hipport.toml:7\n"
        );
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        let (l, c, r) = invalid("allow = [\"H001\"]\nrulez = []\n");
        assert_eq!((l, c), (2, 1));
        assert!(r.contains("unknown field `rulez`"), "{r}");
        let (l, _, r) =
            invalid("[rename]\ncudaA = \"hipA\"\ncudaB = { hip = \"x\", family = \"cuda\" }\n");
        assert_eq!(l, 3);
        assert!(r.contains("unknown family `cuda`"), "{r}");
        let (l, _, r) = invalid("[rename]\n\"cuda X\" = \"hipX\"\n");
        assert_eq!(l, 2);
        assert!(r.contains("white space"), "{r}");
        let (l, _, r) = invalid("rules = [\"missing.tsv\"]\n");
        assert_eq!(l, 1);
        assert!(r.contains("cannot read rule file /p/missing.tsv"), "{r}");
        let (l, c, _) = invalid("allow = [\n  \"H001\",\n  3,\n]\n");
        assert_eq!((l, c), (3, 3));
        let (l, c, r) = invalid("defines = [\"USE_ROCM\",\n  \"9LEVEL\"]\n");
        assert_eq!((l, c), (2, 3));
        assert!(r.contains("`9LEVEL` is not a macro name"), "{r}");
    }

    #[test]
    fn unknown_allow_and_deny_entries_name_their_place() {
        // A letter O for a zero: no version's ID, an error at the entry.
        let (l, c, r) = invalid("rules = []\nallow = [\"H021\",\n  \"H0O1\"]\n");
        assert_eq!((l, c), (3, 3));
        assert!(r.contains("`H0O1` in `allow`") && r.contains("H001"), "{r}");
        let (l, _, r) = invalid("deny = [\"warp size\"]\n");
        assert_eq!(l, 1);
        assert!(r.contains("`warp size` in `deny`"), "{r}");
        // A well-formed ID this version does not know: a warning with its place, and the
        // entry is kept (a later version may know it).
        let c = parse(
            Path::new("/p/hipport.toml"),
            "allow = [\"H001\"]\ndeny = [\"H999\"]\n",
        )
        .unwrap();
        assert_eq!(c.deny, vec!["H999"]);
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
        assert!(
            c.warnings[0].starts_with("/p/hipport.toml:2:9: `H999` in `deny`: "),
            "{}",
            c.warnings[0]
        );
        // Known IDs and names give nothing.
        let c = parse(
            Path::new("/p/hipport.toml"),
            "allow = [\"h001\", \"warp-size-32\"]\n",
        )
        .unwrap();
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    }

    #[test]
    fn defines_are_read_with_their_values() {
        let c = parse(
            Path::new("/p/hipport.toml"),
            "defines = [\"USE_ROCM\", \"LEVEL=2\"]\n",
        )
        .unwrap();
        let got: Vec<(&str, Option<i64>)> = c
            .defines
            .iter()
            .map(|d| (d.name.as_str(), d.value))
            .collect();
        assert_eq!(got, [("USE_ROCM", Some(1)), ("LEVEL", Some(2))]);
    }

    #[test]
    fn undefines_are_read_after_the_defines() {
        let c = parse(
            Path::new("/p/hipport.toml"),
            "defines = [\"LEVEL=2\"]\nundefines = [\"USE_ROCM\"]\n",
        )
        .unwrap();
        let got: Vec<(&str, bool)> = c
            .defines
            .iter()
            .map(|d| (d.name.as_str(), d.undefined))
            .collect();
        assert_eq!(got, [("LEVEL", false), ("USE_ROCM", true)]);
        let (l, c, r) =
            invalid("defines = [\"USE_ROCM\"]\nundefines = [\"LEVEL\", \"USE_ROCM\"]\n");
        assert_eq!((l, c), (2, 23));
        assert!(r.contains("both `defines` and `undefines`"), "{r}");
        let (l, _, r) = invalid("undefines = [\"USE_ROCM=1\"]\n");
        assert_eq!(l, 1);
        assert!(r.contains("without a value"), "{r}");
    }
}
