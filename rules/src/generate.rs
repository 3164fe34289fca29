//! Turns the mapping facts in `../shared/data` into hipport's per-family rule files.
//!
//! The generator is deterministic: the same TSV inputs always give byte-identical outputs, so the
//! committed files can be checked against a fresh run (see the `regenerate` test).

use std::collections::BTreeMap;
use std::path::Path;

use crate::data::{HEADER_COLUMNS, MAPPING_COLUMNS, RENAMED_COLUMNS};
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

/// Why the hipBLAS `_v2` names are renamed from HIP 7.0 on.
const HIPBLAS_V3_SOURCE: &str = "hipBLAS 3.0.0 (ROCm 7.0.0) made the HIPBLAS_V2 API (hipDataType, hipComplex, hipblasComputeType_t) its only API, under the names without `_v2`; its hipblas.h declares no `_v2` function (changelog and header in ROCm/rocm-libraries projects/hipblas)";

/// The hipBLAS 3.0 name of a hipBLAS 2.x `_v2` function (`hipblasGemmEx_v2` -> `hipblasGemmEx`,
/// `hipblasCaxpy_v2_64` -> `hipblasCaxpy_64`), or `None` for any other name.
fn hipblas_v3_name(hip: &str) -> Option<String> {
    let rest = hip.strip_prefix("hipblas")?;
    if let Some(base) = rest.strip_suffix("_v2") {
        return Some(format!("hipblas{base}"));
    }
    rest.strip_suffix("_v2_64")
        .map(|base| format!("hipblas{base}_64"))
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

    let mut renamed: BTreeMap<String, String> = BTreeMap::new();
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
        if let Some(plain) = hipblas_v3_name(fields[3]) {
            renamed.insert(fields[3].to_string(), plain);
        }
    }
    let mut text = format!(
        "# hipport rules: HIP names that a later release spells differently.\n\
         # Generated from ../shared/data/hipify-api-mappings.tsv by `cargo run -p hipport-rules --bin generate-rules`.\n\
         # Do not edit by hand: change the generator or the facts, then regenerate.\n\
         # From `since` on, a rule whose HIP name is `hip` writes `renamed` instead.\n{}\n",
        RENAMED_COLUMNS.join("\t")
    );
    for (hip, plain) in &renamed {
        text.push_str(&[hip.as_str(), plain, "7.0.0", HIPBLAS_V3_SOURCE].join("\t"));
        text.push('\n');
    }
    out.insert("hip-renamed.tsv".into(), text);

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

    let (v2, v1) = torch(shared_data)?;
    out.insert("torch-v2.tsv".into(), v2);
    out.insert("torch-v1.tsv".into(), v1);
    Ok(out.into_iter().collect())
}

/// Why a PyTorch hipify rule is left out of hipport's torch tables, or `None` to keep it.
///
/// The torch tables hold only facts about the PyTorch extension API (`c10`/`ATen` headers and,
/// for v1, the `...MasqueradingAsCUDA` names). Everything else in PyTorch's tables is either a
/// plain CUDA fact (the HIPIFY tables are the source of truth for those) or a rule that is wrong
/// for extension code:
/// - `MATH_TRANSPILATIONS` turn host `std::max`/`std::ceil`/... into `::max`/`::ceil` (hazard H26);
/// - `CUDA_VERSION` -> `TORCH_HIP_VERSION` changes the number space of a version check (H25);
/// - `CAFFE2_*` rules rewrite Caffe2's own paths and turn a user's `HIP_CHECK` into `CUDA_CHECK`;
/// - rules that rename a user macro or build switch (`USE_CUDA`, `#define MAX_NUM_BLOCKS`, the
///   `TORCH_CUDA_*_API` export macros used to build torch itself) or an environment variable or
///   option string (`CUDA_LAUNCH_BLOCKING`, `pinned_use_cuda_host_register`);
/// - rules that go from HIP back to CUDA (`c10::hip::...` -> `c10::cuda::...`);
/// - third-party libraries (gloo, NVSHMEM, MAGMA) and cuDNN -> MIOpen names, which are not torch
///   API (the cuDNN table covers MIOpen);
/// - bare namespaces (`c10::cuda`, `cuda::compat::`), which live in `namespaces.tsv`;
/// - the generic `CUDA_*_MAP` dictionaries, which restate HIPIFY facts.
fn torch_exclusion(dict: &str, cuda: &str, hip: &str) -> Option<&'static str> {
    const USER_MACROS: &[&str] = &[
        "USE_CUDA",
        "TORCH_CUDA_CPP_API",
        "TORCH_CUDA_CU_API",
        "CUDA_LAUNCH_BLOCKING",
        "CUDA_LAUNCH_BLOCKING=1",
        "pinned_use_cuda_host_register",
        "cudaHostAllocator",
        "cudaDeviceAllocator",
    ];
    if dict == "MATH_TRANSPILATIONS" {
        return Some("host std:: math rewritten to ::, wrong on the host (H26)");
    }
    if dict.starts_with("CAFFE2_") {
        return Some("Caffe2 rule");
    }
    if dict != "C10_MAPPINGS" && dict != "PYTORCH_SPECIFIC_MAPPINGS" {
        return Some("generic CUDA fact, covered by the HIPIFY tables");
    }
    if cuda == "CUDA_VERSION" {
        return Some("version macro changes number space (H25)");
    }
    if cuda.starts_with("define ") || USER_MACROS.contains(&cuda) {
        return Some("renames a user macro, build switch or option string");
    }
    if cuda.starts_with("c10::hip::") || cuda.starts_with("hip::") {
        return Some("goes from HIP back to CUDA");
    }
    let third_party = ["gloo", "nvshmem", "NVSHMEM", "magma", "cudnn", "CUDNN"];
    if third_party.iter().any(|p| cuda.starts_with(p)) {
        return Some("third-party library, not the torch extension API");
    }
    if hip.is_empty() {
        return Some("no HIP name");
    }
    if cuda.ends_with("::") || cuda == "c10::cuda" {
        return Some("namespace rule, see namespaces.tsv");
    }
    if cuda.ends_with(".hpp") && !cuda.contains('/') {
        return Some("PyTorch test helper");
    }
    None
}

fn is_header_path(s: &str) -> bool {
    s.contains('/') && [".h", ".cuh", ".hpp"].iter().any(|e| s.ends_with(e))
}

/// Reads one PyTorch mapping table: (dict, cuda, hip, version tag) rows after the column line.
fn torch_rows(path: &Path) -> Result<Vec<[String; 4]>, GenerateError> {
    let text = read(path)?;
    let mut rows = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() != 7 {
            return Err(GenerateError::Input {
                path: path.display().to_string(),
                line: i + 1,
                reason: "expected 7 fields".into(),
            });
        }
        rows.push([
            f[0].to_string(),
            f[1].trim().to_string(),
            f[2].trim().to_string(),
            f[6].to_string(),
        ]);
    }
    Ok(rows)
}

/// Generates `torch-v2.tsv` (from the v2 table: header moves only) and `torch-v1.tsv` (from the
/// torch 2.10.0 rows of the specific table: masquerading names and headers). Later rows win, as
/// in PyTorch's hipify, where `PYTORCH_SPECIFIC_MAPPINGS` is applied after `C10_MAPPINGS`.
fn torch(shared_data: &Path) -> Result<(String, String), GenerateError> {
    // PyTorch's hipify applies C10_MAPPINGS before PYTORCH_SPECIFIC_MAPPINGS, so the latter win.
    let dict_order = |rows: &mut Vec<[String; 4]>| {
        rows.sort_by_key(|r| usize::from(r[0] == "PYTORCH_SPECIFIC_MAPPINGS"));
    };
    let mut v2_rows = torch_rows(&shared_data.join("torch-hipify-v2-mappings.tsv"))?;
    let mut v1_rows = torch_rows(&shared_data.join("torch-specific-mappings.tsv"))?;
    dict_order(&mut v2_rows);
    dict_order(&mut v1_rows);

    let mut v2_headers: Vec<(String, String, String)> = Vec::new();
    for [dict, cuda, hip, _] in &v2_rows {
        if torch_exclusion(dict, cuda, hip).is_some() || !is_header_path(cuda) {
            continue;
        }
        upsert(
            &mut v2_headers,
            cuda,
            hip,
            format!("torch-hipify-v2-mappings.tsv {dict}"),
        );
    }

    let mut v1_names: Vec<(String, String, String)> = Vec::new();
    let mut v1_headers: Vec<(String, String, String)> = Vec::new();
    for [dict, cuda, hip, version] in &v1_rows {
        if version != "2.10.0" || torch_exclusion(dict, cuda, hip).is_some() {
            continue;
        }
        let source = format!("torch-specific-mappings.tsv {dict} (torch 2.10.0)");
        if is_header_path(cuda) {
            upsert(&mut v1_headers, cuda, hip, source);
        } else {
            upsert(&mut v1_names, cuda, hip, source);
        }
    }

    let header_rows = |rows: &[(String, String, String)]| {
        let mut t = HEADER_COLUMNS.join("\t");
        t.push('\n');
        for (cuda, hip, source) in rows {
            t.push_str(&[cuda.as_str(), hip, "", "torch", source].join("\t"));
            t.push('\n');
        }
        t
    };

    let mut v2 = banner("torch", "torch-hipify-v2-mappings.tsv");
    v2.push_str(
        "# PyTorch extension API v2 (torch >= 2.11, the default): names such as at::cuda::*,\n\
         # c10::cuda::* and C10_CUDA_KERNEL_LAUNCH_CHECK stay as they are; only headers move.\n",
    );
    v2.push_str(&header_rows(&v2_headers));

    let mut v1 = banner("torch", "torch-specific-mappings.tsv");
    v1.push_str(
        "# PyTorch extension API v1 (torch <= 2.10): c10/ATen CUDA names become their\n\
         # ...MasqueradingAsCUDA (or HIP) counterparts. Used only when the v1 API is chosen.\n",
    );
    v1.push_str(&MAPPING_COLUMNS.join("\t"));
    v1.push('\n');
    for (cuda, hip, source) in &v1_names {
        let section = if hip.contains("MasqueradingAsCUDA") {
            "Masquerading names"
        } else {
            "c10 names"
        };
        let mut row = vec![cuda.as_str(), hip, "", "torch", section];
        row.extend(std::iter::repeat_n("", 12));
        row.push(source);
        v1.push_str(&row.join("\t"));
        v1.push('\n');
    }
    v1.push_str(&header_rows(&v1_headers));
    Ok((v2, v1))
}

/// Inserts or replaces (keeping the first position) the row for `cuda`.
fn upsert(rows: &mut Vec<(String, String, String)>, cuda: &str, hip: &str, source: String) {
    match rows.iter_mut().find(|r| r.0 == cuda) {
        Some(r) => {
            r.1 = hip.to_string();
            r.2 = source;
        }
        None => rows.push((cuda.to_string(), hip.to_string(), source)),
    }
}
