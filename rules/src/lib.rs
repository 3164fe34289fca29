//! hipport's rules database: CUDA names and headers with their HIP (and roc*) counterparts.
//!
//! The data lives in `rules/data/*.tsv`, produced by the `generate-rules` binary from the facts in
//! `../shared/data` plus the hand-written files whose names start with `extra-`. The files are
//! embedded at build time; [`Database::builtin`] parses them once, lazily.

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

pub mod data;
pub mod generate;

/// A release number such as `6.2.0`, compared numerically.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Version {
    /// Major release.
    pub major: u16,
    /// Minor release.
    pub minor: u16,
    /// Patch release.
    pub patch: u16,
}

impl Version {
    /// Builds a version from its parts.
    pub const fn new(major: u16, minor: u16, patch: u16) -> Self {
        Version {
            major,
            minor,
            patch,
        }
    }

    /// Parses `X`, `X.Y` or `X.Y.Z`; `None` for anything else.
    pub fn parse(text: &str) -> Option<Version> {
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        let mut parts = text.split('.');
        let major = parts.next()?.parse().ok()?;
        let minor = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        let patch = match parts.next() {
            Some(p) => p.parse().ok()?,
            None => 0,
        };
        if parts.next().is_some() {
            return None;
        }
        Some(Version::new(major, minor, patch))
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The API family a mapping belongs to, used for counts and library choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// CUDA runtime API (`cuda*`).
    Runtime,
    /// CUDA driver API (`cu*`).
    Driver,
    /// Device functions and intrinsics.
    Device,
    /// NVRTC.
    Rtc,
    /// cuComplex.
    Complex,
    /// CUB.
    Cub,
    /// cuFFT.
    Cufft,
    /// cuBLAS.
    Cublas,
    /// cuRAND.
    Curand,
    /// cuSPARSE.
    Cusparse,
    /// cuSOLVER.
    Cusolver,
    /// cuDNN.
    Cudnn,
    /// NVTX (profiler annotations).
    Nvtx,
    /// PyTorch extension API.
    Torch,
    /// Headers.
    Header,
}

impl Family {
    /// All families, in display order.
    pub const ALL: [Family; 15] = [
        Family::Runtime,
        Family::Driver,
        Family::Device,
        Family::Rtc,
        Family::Complex,
        Family::Cub,
        Family::Cufft,
        Family::Cublas,
        Family::Curand,
        Family::Cusparse,
        Family::Cusolver,
        Family::Cudnn,
        Family::Nvtx,
        Family::Torch,
        Family::Header,
    ];

    /// The lowercase name used in data files and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Family::Runtime => "runtime",
            Family::Driver => "driver",
            Family::Device => "device",
            Family::Rtc => "rtc",
            Family::Complex => "complex",
            Family::Cub => "cub",
            Family::Cufft => "cufft",
            Family::Cublas => "cublas",
            Family::Curand => "curand",
            Family::Cusparse => "cusparse",
            Family::Cusolver => "cusolver",
            Family::Cudnn => "cudnn",
            Family::Nvtx => "nvtx",
            Family::Torch => "torch",
            Family::Header => "header",
        }
    }

    /// Parses the lowercase name.
    pub fn parse(name: &str) -> Option<Family> {
        Family::ALL.iter().copied().find(|f| f.as_str() == name)
    }
}

impl fmt::Display for Family {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One CUDA name and what it becomes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mapping {
    /// The CUDA name.
    pub cuda: String,
    /// The HIP name; `None` when HIP has no equivalent.
    pub hip: Option<String>,
    /// The roc* library name (rocBLAS, rocSPARSE, ..., MIOpen for cuDNN), if any.
    pub roc: Option<String>,
    /// The family.
    pub family: Family,
    /// The section of the source table, e.g. `Memory Management`.
    pub section: String,
    /// CUDA release that added the name.
    pub cuda_added: Option<Version>,
    /// CUDA release that deprecated it.
    pub cuda_deprecated: Option<Version>,
    /// CUDA release that changed its signature or meaning.
    pub cuda_changed: Option<Version>,
    /// CUDA release that removed it.
    pub cuda_removed: Option<Version>,
    /// HIP release that added the HIP name.
    pub hip_added: Option<Version>,
    /// HIP release that deprecated the HIP name.
    pub hip_deprecated: Option<Version>,
    /// HIP release that changed the HIP name's signature or meaning.
    pub hip_changed: Option<Version>,
    /// HIP release that removed the HIP name.
    pub hip_removed: Option<Version>,
    /// HIP release from which the HIP name exists as experimental.
    pub hip_experimental: Option<Version>,
    /// roc* release that added the roc name.
    pub roc_added: Option<Version>,
    /// roc* release that deprecated the roc name.
    pub roc_deprecated: Option<Version>,
    /// roc* release that removed the roc name.
    pub roc_removed: Option<Version>,
    /// Where the fact comes from (a HIPIFY table, or hipport's own note).
    pub source: String,
}

/// A CUDA header and the header that replaces it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderMapping {
    /// The CUDA header as written in `#include`, e.g. `cuda_runtime.h`.
    pub cuda: String,
    /// The HIP header; `None` when HIP has none.
    pub hip: Option<String>,
    /// The roc* library header, if any.
    pub roc: Option<String>,
    /// The family the header belongs to.
    pub family: Family,
    /// Where the fact comes from.
    pub source: String,
}

/// Errors from reading rule files.
#[derive(Debug, thiserror::Error)]
pub enum RuleError {
    /// A line of a rule file could not be read.
    #[error("{file}:{line}: {reason}")]
    BadLine {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        reason: String,
    },
}

/// The whole database: name and header lookups.
#[derive(Debug, Default)]
pub struct Database {
    mappings: Vec<Mapping>,
    by_cuda: HashMap<String, usize>,
    headers: Vec<HeaderMapping>,
    header_by_cuda: HashMap<String, usize>,
}

impl Database {
    /// The database built from the embedded data files, parsed once per process.
    pub fn builtin() -> &'static Database {
        static DB: OnceLock<Database> = OnceLock::new();
        DB.get_or_init(|| {
            let mut db = Database::default();
            for (name, text) in data::FILES {
                db.load_str(name, text)
                    .unwrap_or_else(|e| panic!("embedded rule file is invalid: {e}"));
            }
            db
        })
    }

    /// Adds the rules of one data file (format chosen by the file's header line).
    pub fn load_str(&mut self, file: &str, text: &str) -> Result<(), RuleError> {
        let (mappings, headers) = data::parse_file(file, text)?;
        for m in mappings {
            self.add_mapping(m);
        }
        for h in headers {
            self.add_header(h);
        }
        Ok(())
    }

    /// Adds or replaces a mapping. A later row for the same CUDA name wins unless it
    /// has no HIP name and the earlier one does (the tables list some names twice).
    pub fn add_mapping(&mut self, m: Mapping) {
        match self.by_cuda.get(&m.cuda) {
            Some(&i) => {
                if m.hip.is_some() || self.mappings[i].hip.is_none() {
                    self.mappings[i] = m;
                }
            }
            None => {
                self.by_cuda.insert(m.cuda.clone(), self.mappings.len());
                self.mappings.push(m);
            }
        }
    }

    /// Adds or replaces a header mapping.
    pub fn add_header(&mut self, h: HeaderMapping) {
        match self.header_by_cuda.get(&h.cuda) {
            Some(&i) => self.headers[i] = h,
            None => {
                self.header_by_cuda
                    .insert(h.cuda.clone(), self.headers.len());
                self.headers.push(h);
            }
        }
    }

    /// The mapping for a CUDA name.
    pub fn lookup(&self, cuda: &str) -> Option<&Mapping> {
        self.by_cuda.get(cuda).map(|&i| &self.mappings[i])
    }

    /// The mapping for a CUDA header path as written in an include.
    pub fn header(&self, cuda: &str) -> Option<&HeaderMapping> {
        self.header_by_cuda.get(cuda).map(|&i| &self.headers[i])
    }

    /// Every mapping, in load order.
    pub fn mappings(&self) -> &[Mapping] {
        &self.mappings
    }

    /// Every header mapping, in load order.
    pub fn headers(&self) -> &[HeaderMapping] {
        &self.headers
    }
}
