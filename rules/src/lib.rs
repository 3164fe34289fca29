//! hipport's rules database: CUDA names and headers with their HIP (and roc*) counterparts.
//!
//! The data lives in `rules/data/*.tsv`: tables produced by the `generate-rules` binary from the
//! facts in `../shared/data`, plus hand-written files (`extra-*.tsv`, `namespaces.tsv`,
//! `calls.tsv`, `hip-absent.tsv`) that add to or correct them. `build.rs` loads the files at build
//! time with the same loader that reads user rule files at run time, and writes the resulting
//! tables as statics with perfect-hash indexes, so [`Database::builtin`] parses nothing. See
//! `rules/README.md` for the formats.

pub mod calls;
pub mod data;
mod db;
pub mod generate;
pub mod math_constants;
mod phf;

pub use calls::{ArgCount, CallRewrite};
pub use db::*;

/// The tables `build.rs` made from `rules/data/*.tsv`.
mod prebuilt {
    use std::borrow::Cow::Borrowed;

    use crate::calls::ArgCount;
    use crate::{
        phf, Absent, Family, HeaderMapping, Mapping, NamespaceMapping, NamespaceScope, Renamed,
    };
    use crate::{Text, Version};

    /// A call rewrite: cuda, argc, template, hip_added, hip_before, source, note.
    pub(crate) type CallRow = (
        &'static str,
        ArgCount,
        &'static str,
        Option<Version>,
        Option<Version>,
        &'static str,
        &'static str,
    );

    const N: Option<Version> = None;

    const fn v(major: u16, minor: u16, patch: u16) -> Option<Version> {
        Some(Version::new(major, minor, patch))
    }

    const fn t(s: Option<&'static str>) -> Option<Text> {
        match s {
            Some(s) => Some(Borrowed(s)),
            None => None,
        }
    }

    #[allow(clippy::too_many_arguments)]
    const fn m(
        cuda: &'static str,
        hip: Option<&'static str>,
        roc: Option<&'static str>,
        family: Family,
        section: &'static str,
        v: [Option<Version>; 12],
        source: &'static str,
        hip_replacement: Option<&'static str>,
        hip_absent_in: Option<Version>,
        roc_args: Option<&'static str>,
    ) -> Mapping {
        Mapping {
            cuda: Borrowed(cuda),
            hip: t(hip),
            roc: t(roc),
            family,
            section: Borrowed(section),
            cuda_added: v[0],
            cuda_deprecated: v[1],
            cuda_changed: v[2],
            cuda_removed: v[3],
            hip_added: v[4],
            hip_deprecated: v[5],
            hip_changed: v[6],
            hip_removed: v[7],
            hip_experimental: v[8],
            roc_added: v[9],
            roc_deprecated: v[10],
            roc_removed: v[11],
            source: Borrowed(source),
            hip_replacement: t(hip_replacement),
            hip_absent_in,
            roc_args: t(roc_args),
        }
    }

    const fn h(
        cuda: &'static str,
        hip: Option<&'static str>,
        roc: Option<&'static str>,
        family: Family,
        source: &'static str,
        hip_added: Option<Version>,
        instead: Option<&'static str>,
    ) -> HeaderMapping {
        HeaderMapping {
            cuda: Borrowed(cuda),
            hip: t(hip),
            roc: t(roc),
            family,
            source: Borrowed(source),
            hip_added,
            instead: t(instead),
        }
    }

    const fn ns(
        cuda: &'static str,
        hip: Option<&'static str>,
        scope: NamespaceScope,
        source: &'static str,
    ) -> NamespaceMapping {
        NamespaceMapping {
            cuda: Borrowed(cuda),
            hip: t(hip),
            scope,
            source: Borrowed(source),
        }
    }

    const fn ab(hip: &'static str, absent_in: Version, source: &'static str) -> Absent {
        Absent {
            hip: Borrowed(hip),
            absent_in,
            source: Borrowed(source),
        }
    }

    const fn rn(
        hip: &'static str,
        renamed: &'static str,
        since: Version,
        source: &'static str,
    ) -> Renamed {
        Renamed {
            hip: Borrowed(hip),
            renamed: Borrowed(renamed),
            since,
            source: Borrowed(source),
        }
    }

    include!(concat!(env!("OUT_DIR"), "/prebuilt.rs"));
}

impl Database {
    /// The database of the embedded data files, pre-built at build time (no parsing at run
    /// time; the call-rewrite templates, a few dozen, are compiled on first use).
    pub fn builtin() -> &'static Database {
        static DB: std::sync::OnceLock<Database> = std::sync::OnceLock::new();
        DB.get_or_init(|| {
            use db::{NameMap, StaticTables, Table};
            let mut calls: NameMap<Vec<CallRewrite>> = NameMap::default();
            for &(cuda, argc, template, added, before, source, note) in &prebuilt::CALLS {
                let rule = CallRewrite::new(cuda, argc, template, added, before, source, note)
                    .unwrap_or_else(|e| panic!("pre-built call rewrite for {cuda}: {e}"));
                calls.entry(cuda.to_string()).or_default().push(rule);
            }
            let tables = StaticTables {
                main: Table::new_static(&prebuilt::MAIN, &prebuilt::MAIN_INDEX),
                torch_v1: Table::new_static(&prebuilt::TORCH_V1, &prebuilt::TORCH_V1_INDEX),
                headers: Table::new_static(&prebuilt::HEADERS, &prebuilt::HEADERS_INDEX),
                torch_v1_headers: Table::new_static(
                    &prebuilt::TORCH_V1_HEADERS,
                    &prebuilt::TORCH_V1_HEADERS_INDEX,
                ),
                namespaces: &prebuilt::NAMESPACES,
                absent: Table::new_static(&prebuilt::ABSENT, &prebuilt::ABSENT_INDEX),
                renamed: Table::new_static(&prebuilt::RENAMED, &prebuilt::RENAMED_INDEX),
            };
            Database::from_static(tables, calls)
        })
    }
}
