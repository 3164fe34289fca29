//! Lookups, choices, versions, overrides and reports over the built-in database.

use hipport_rules::{
    Availability, Choices, Database, Family, Lib, NamespaceScope, RuleError, Target, TorchApi,
    Version,
};

fn v(s: &str) -> Version {
    Version::parse(s).unwrap()
}

#[test]
fn builtin_has_every_table() {
    let db = Database::builtin();
    assert!(db.mappings().len() > 8900);
    assert_eq!(
        db.lookup("cudaMalloc").unwrap().hip.as_deref(),
        Some("hipMalloc")
    );
    assert_eq!(
        db.header("cuda_runtime.h").unwrap().hip.as_deref(),
        Some("hip/hip_runtime.h")
    );
    assert_eq!(
        db.lookup("nvtxRangePushA").unwrap().hip.as_deref(),
        Some("roctxRangePushA")
    );
    assert_eq!(db.lookup("nvtxRangePushA").unwrap().family, Family::Nvtx);
    assert!(db.lookup("nvtxRangePushW").unwrap().hip.is_none());
    // nvToolsExt.h's plain names are macros of the A forms (R27-d).
    for (plain, roctx) in [
        ("nvtxRangePush", "roctxRangePushA"),
        ("nvtxMark", "roctxMarkA"),
        ("nvtxRangeStart", "roctxRangeStartA"),
    ] {
        assert_eq!(db.lookup(plain).unwrap().hip.as_deref(), Some(roctx));
    }
    assert!(db.lookup("nvtxNameOsThread").unwrap().hip.is_none());
    assert_eq!(
        db.lookup("nvtxRangeEnd").unwrap().hip.as_deref(),
        Some("roctxRangeStop")
    );
}

#[test]
fn hand_written_rows_correct_the_tables() {
    let db = Database::builtin();
    let host_alloc = db.lookup("cudaHostAlloc").unwrap();
    assert_eq!(host_alloc.hip.as_deref(), Some("hipHostMalloc"));
    assert!(host_alloc.source.contains("hipHostAlloc"));
    assert_eq!(
        db.lookup("cudaDevAttrMaxBlocksPerMultiprocessor")
            .unwrap()
            .hip
            .as_deref(),
        Some("hipDeviceAttributeMaxBlocksPerMultiProcessor")
    );
    assert_eq!(
        db.lookup("cudaHostAllocMapped").unwrap().hip.as_deref(),
        Some("hipHostMallocMapped")
    );
    assert_eq!(
        db.lookup("cudaFreeHost").unwrap().hip.as_deref(),
        Some("hipHostFree")
    );
    assert_eq!(
        db.lookup("__nv_bfloat16").unwrap().hip.as_deref(),
        Some("__hip_bfloat16")
    );
    assert_eq!(
        db.lookup("__nv_bfloat162").unwrap().hip.as_deref(),
        Some("__hip_bfloat162")
    );
    // cuFFT Xt names HIPIFY leaves without a HIP name, from hipFFT 6.0.
    let xt = db.lookup("cufftXtMakePlanMany").unwrap();
    assert_eq!(xt.hip.as_deref(), Some("hipfftXtMakePlanMany"));
    assert_eq!(xt.hip_added, Some(v("6.0.0")));
    // CUDA 12's name for cudaGetDeviceProperties (its header #defines the one as the other).
    assert_eq!(
        db.lookup("cudaGetDeviceProperties_v2")
            .unwrap()
            .hip
            .as_deref(),
        Some("hipGetDeviceProperties")
    );
    // cuBLAS's status text: HIPIFY names only rocBLAS's function; hipBLAS has had its own since 4.3.
    let status_text = db.lookup("cublasGetStatusString").unwrap();
    assert_eq!(status_text.hip.as_deref(), Some("hipblasStatusToString"));
    assert_eq!(status_text.hip_added, Some(v("4.3.0")));
    // Rows without a hand-written correction keep the HIPIFY facts.
    assert_eq!(
        db.lookup("cudaDevAttrClockRate").unwrap().hip.as_deref(),
        Some("hipDeviceAttributeClockRate")
    );
}

#[test]
fn warp_sync_builtins_need_hip_6_2() {
    let db = Database::builtin();
    for name in [
        "__shfl_sync",
        "__shfl_down_sync",
        "__ballot_sync",
        "__any_sync",
        "__all_sync",
        "__activemask",
    ] {
        let m = db.lookup(name).unwrap();
        assert_eq!(m.hip.as_deref(), Some(name), "{name} keeps its name");
        assert_eq!(
            m.status_for(v("5.2.3")),
            Availability::TooNew { added: v("6.2.0") },
            "{name}"
        );
        assert_eq!(m.status_for(v("6.2.0")), Availability::Available, "{name}");
    }
    // HIP's 7.0 changelog: "Added warp level primitives: __syncwarp and reduce intrinsics".
    for name in ["__syncwarp", "__reduce_add_sync", "__reduce_xor_sync"] {
        let m = db.lookup(name).unwrap();
        assert_eq!(
            m.status_for(v("6.4.0")),
            Availability::TooNew { added: v("7.0.0") },
            "{name}"
        );
        assert_eq!(m.status_for(v("7.0.0")), Availability::Available, "{name}");
    }
    assert_eq!(
        db.lookup("__uni_sync").unwrap().status_for(v("7.0.0")),
        Availability::Missing
    );
}

#[test]
fn status_follows_versions() {
    let db = Database::builtin();
    // hipProfilerStart: added 1.6.0, deprecated 3.0.0.
    let m = db.lookup("cudaProfilerStart").unwrap();
    assert_eq!(m.status_for(v("2.0")), Availability::Available);
    assert_eq!(
        m.status_for(v("1.0")),
        Availability::TooNew { added: v("1.6.0") }
    );
    assert!(
        matches!(m.status_for(v("5.2.3")), Availability::Deprecated { since, .. } if since == v("3.0.0"))
    );
    // A deprecated name with a recorded replacement.
    let m = db.lookup("cuMemAllocHost").unwrap();
    assert_eq!(
        m.status_for(v("5.2.3")),
        Availability::Deprecated {
            since: v("3.0.0"),
            replacement: Some("hipHostMalloc".into())
        }
    );
    // Removed names (the HIPIFY snapshot records none, so use a rule file that does).
    let cols = hipport_rules::data::MAPPING_COLUMNS.join("\t");
    let row = "cudaOld\thipOld\t\truntime\tTest\t\t\t\t\t1.0\t4.0\t\t5.0\t\t\t\t\tt";
    let db2 = db
        .with_overrides(&[("old.tsv", &format!("{cols}\n{row}\n"))])
        .unwrap();
    let m = db2.lookup("cudaOld").unwrap();
    assert_eq!(
        m.status_for(v("5.0")),
        Availability::Removed { removed: v("5.0") }
    );
    assert_eq!(
        m.status_for(v("4.5")),
        Availability::Deprecated {
            since: v("4.0"),
            replacement: None
        }
    );
    // Experimental names.
    let exp = db
        .mappings()
        .iter()
        .find(|m| m.hip_experimental.is_some() && m.hip_removed.is_none() && m.hip.is_some())
        .expect("the tables record experimental names");
    assert_eq!(exp.status_for(v("7.0.0")), Availability::Experimental);
    assert_eq!(db.lookup("cudaThisIsNotAName"), None);
}

#[test]
fn choices_pick_the_library_column() {
    let db = Database::builtin();
    let default = Choices::default();
    assert_eq!(default.torch_api, TorchApi::V2);
    let Target::Name { name, lib, .. } = db.target("cublasSgemm", &default) else {
        panic!("cublasSgemm maps")
    };
    assert_eq!((name, lib), ("hipblasSgemm", Lib::Hip));
    let roc = Choices {
        blas: Lib::Roc,
        ..Choices::default()
    };
    let Target::Name { name, .. } = db.target("cublasSgemm", &roc) else {
        panic!()
    };
    assert_eq!(name, "rocblas_sgemm");
    // cuDNN always goes to MIOpen (the roc column), never to the obsolete hipDNN names.
    let m = db.lookup("cudnnCreate").unwrap();
    let Target::Name { name, lib, .. } = db.target("cudnnCreate", &default) else {
        panic!()
    };
    assert_eq!((Some(name), lib), (m.roc.as_deref(), Lib::Roc));
    assert_eq!(name, "miopenCreate");
    // The runtime ignores library choices.
    let Target::Name { name, .. } = db.target("cudaMalloc", &roc) else {
        panic!()
    };
    assert_eq!(name, "hipMalloc");
    // A name the chosen library lacks is Unsupported, with the mapping attached.
    let only_hip = db
        .mappings()
        .iter()
        .find(|m| m.family == Family::Cublas && m.hip.is_some() && m.roc.is_none())
        .unwrap();
    assert!(matches!(
        db.target(&only_hip.cuda, &roc),
        Target::Unsupported { lib: Lib::Roc, .. }
    ));
    assert!(matches!(
        db.target(&only_hip.cuda, &default),
        Target::Name { .. }
    ));
    // `curand4`, which HIPIFY's table lacks, follows `--rand` as its neighbours do.
    let Target::Name { name, .. } = db.target("curand4", &default) else {
        panic!("curand4 maps")
    };
    assert_eq!(name, "hiprand4");
    let rocrand = Choices {
        rand: Lib::Roc,
        ..Choices::default()
    };
    let Target::Name { name, .. } = db.target("curand4", &rocrand) else {
        panic!()
    };
    assert_eq!(name, "rocrand4");
    assert_eq!(db.target("not_a_cuda_name", &default), Target::Unknown);
    assert_eq!(
        db.target("cudaMalloc", &default).mapping().unwrap().cuda,
        "cudaMalloc"
    );
}

#[test]
fn torch_api_versions() {
    let db = Database::builtin();
    let v1 = Choices {
        torch_api: TorchApi::V1,
        ..Choices::default()
    };
    let v2 = Choices::default();
    // v2 keeps the names.
    assert_eq!(db.target("getCurrentCUDAStream", &v2), Target::Unknown);
    assert_eq!(
        db.target("C10_CUDA_KERNEL_LAUNCH_CHECK", &v2),
        Target::Unknown
    );
    // v1 renames them.
    let Target::Name { name, .. } = db.target("getCurrentCUDAStream", &v1) else {
        panic!()
    };
    assert_eq!(name, "getCurrentHIPStreamMasqueradingAsCUDA");
    let Target::Name { name, .. } = db.target("C10_CUDA_KERNEL_LAUNCH_CHECK", &v1) else {
        panic!()
    };
    assert_eq!(name, "C10_HIP_KERNEL_LAUNCH_CHECK");
    // CUDA names still resolve under v1.
    let Target::Name { name, .. } = db.target("cudaMalloc", &v1) else {
        panic!()
    };
    assert_eq!(name, "hipMalloc");
    // Headers: v2 moves c10 headers to c10/hip, v1 to the masquerading headers.
    assert_eq!(
        db.header_for("c10/cuda/CUDAGuard.h", &v2)
            .unwrap()
            .hip
            .as_deref(),
        Some("c10/hip/HIPGuard.h")
    );
    assert_eq!(
        db.header_for("c10/cuda/CUDAGuard.h", &v1)
            .unwrap()
            .hip
            .as_deref(),
        Some("ATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h")
    );
    // ATen/cuda headers move the same way for both versions.
    for c in [&v1, &v2] {
        let h = db.header_for("ATen/cuda/CUDAContext.h", c).unwrap();
        assert_eq!(
            h.hip_for("ATen/cuda/CUDAContext.h").as_deref(),
            Some("ATen/hip/HIPContext.h")
        );
    }
    let h = db.header("ATen/cuda/detail/IndexUtils.cuh").unwrap();
    assert_eq!(
        h.hip_for("ATen/cuda/detail/IndexUtils.cuh").as_deref(),
        Some("ATen/hip/detail/IndexUtils.cuh")
    );
    // Only `CUDA` and `cuda` are respelled, as PyTorch's build does: `Cuda` stays.
    let h = db
        .header("ATen/cuda/detail/PhiloxCudaStateRaw.cuh")
        .unwrap();
    assert_eq!(
        h.hip_for("ATen/cuda/detail/PhiloxCudaStateRaw.cuh")
            .as_deref(),
        Some("ATen/hip/detail/PhiloxCudaStateRaw.cuh")
    );
    // ATen/native/cuda moves to ATen/native/hip.
    let h = db.header("ATen/native/cuda/KernelUtils.cuh").unwrap();
    assert_eq!(
        h.hip_for("ATen/native/cuda/KernelUtils.cuh").as_deref(),
        Some("ATen/native/hip/KernelUtils.cuh")
    );
    // Namespaces follow the choice too.
    assert_eq!(
        db.namespace_for("c10::cuda", &v1).unwrap().hip.as_deref(),
        Some("c10::hip")
    );
    assert_eq!(
        db.namespace_for("c10::cuda", &v2).unwrap().hip.as_deref(),
        Some("c10::cuda")
    );
    assert!(
        db.namespace("c10::cuda").is_none(),
        "no unconditional c10::cuda rule"
    );
}

#[test]
fn header_rules_and_patterns() {
    let db = Database::builtin();
    let hip = |p: &str| db.header(p).and_then(|h| h.hip_for(p));
    assert_eq!(hip("cuda_bf16.h").as_deref(), Some("hip/hip_bf16.h"));
    assert_eq!(
        db.header("cuda_bf16.h").unwrap().hip_added,
        Some(v("6.0.0"))
    );
    assert_eq!(
        hip("cooperative_groups.h").as_deref(),
        Some("hip/hip_cooperative_groups.h")
    );
    assert_eq!(
        hip("cooperative_groups/memcpy_async.h").as_deref(),
        Some("hip/hip_cooperative_groups.h")
    );
    // Exact rows beat the pattern: HIP has no cg::reduce.
    assert_eq!(hip("cooperative_groups/reduce.h"), None);
    assert_eq!(hip("nvToolsExt.h").as_deref(), Some("roctracer/roctx.h"));
    assert_eq!(
        hip("nvtx3/nvToolsExt.h").as_deref(),
        Some("roctracer/roctx.h")
    );
    assert_eq!(
        hip("thrust/device_vector.h").as_deref(),
        Some("thrust/device_vector.h")
    );
    assert_eq!(
        hip("thrust/system/cuda/execution_policy.h").as_deref(),
        Some("thrust/system/hip/execution_policy.h")
    );
    assert_eq!(
        hip("cub/block/block_reduce.cuh").as_deref(),
        Some("hipcub/hipcub.hpp")
    );
    assert_eq!(
        hip("curand_kernel.h").as_deref(),
        Some("hiprand/hiprand_kernel.h")
    );
    // Known, but no HIP counterpart.
    for p in [
        "mma.h",
        "cuda_fp8.h",
        "cuda/std/atomic",
        "cuda/pipeline",
        "THC/THC.h",
        "THCUNN/THCUNN.h",
        "cutlass/gemm/device/gemm.h",
        "cute/tensor.hpp",
    ] {
        let h = db.header(p).unwrap_or_else(|| panic!("{p} is known"));
        assert!(h.hip.is_none(), "{p}");
    }
    // Header availability by HIP release.
    let bf16 = db.header("cuda_bf16.h").unwrap();
    assert_eq!(
        db.header_status(bf16, v("5.2.3")),
        Availability::TooNew { added: v("6.0.0") }
    );
    assert_eq!(db.header_status(bf16, v("6.2.0")), Availability::Available);
    let consts = db.header("math_constants.h").unwrap();
    assert_eq!(
        db.header_status(consts, v("5.2.3")),
        Availability::Absent {
            checked: v("5.2.3")
        }
    );
    assert_eq!(
        db.header_status(db.header("mma.h").unwrap(), v("6.2.0")),
        Availability::Missing
    );
    assert_eq!(
        db.header_status(db.header("cuda_runtime.h").unwrap(), v("5.2.3")),
        Availability::Available
    );
    // A user's own header is unknown.
    assert!(db.header("mylib/cuda_helpers.h").is_none());
}

#[test]
fn namespaces() {
    let db = Database::builtin();
    assert_eq!(db.namespace("cub").unwrap().hip.as_deref(), Some("hipcub"));
    assert_eq!(
        db.namespace("thrust::cuda::par").unwrap().hip.as_deref(),
        Some("thrust::hip::par")
    );
    assert_eq!(
        db.namespace("thrust::cuda").unwrap().hip.as_deref(),
        Some("thrust::hip")
    );
    assert_eq!(
        db.namespace("thrust::cuda").unwrap().scope,
        NamespaceScope::All
    );
    assert!(db.namespace("nvcuda::wmma").unwrap().hip.is_none());
    assert!(db.namespace("std").is_none());
}

#[test]
fn reverse_lookup_explains_hip_names() {
    let db = Database::builtin();
    let cuda: Vec<&str> = db.reverse("hipMalloc").iter().map(|m| &*m.cuda).collect();
    assert!(cuda.contains(&"cudaMalloc"), "{cuda:?}");
    assert!(cuda.contains(&"cuMemAlloc"), "{cuda:?}");
    let host: Vec<&str> = db
        .reverse("hipHostMalloc")
        .iter()
        .map(|m| &*m.cuda)
        .collect();
    assert!(
        host.contains(&"cudaHostAlloc") && host.contains(&"cudaMallocHost"),
        "{host:?}"
    );
    assert!(db
        .reverse("rocblas_sgemm")
        .iter()
        .any(|m| m.cuda == "cublasSgemm"));
    assert!(db
        .reverse("HIPStreamMasqueradingAsCUDA")
        .iter()
        .any(|m| m.cuda == "CUDAStream"));
    assert!(db.reverse("hipNoSuchThing").is_empty());
}

#[test]
fn stats_count_each_family() {
    let db = Database::builtin();
    let stats = db.stats();
    let get = |f: Family| stats.iter().find(|s| s.family == f).unwrap().clone();
    let total: usize = stats
        .iter()
        .filter(|s| s.family != Family::Header)
        .map(|s| s.total)
        .sum();
    assert_eq!(total, db.mappings().len() + db.torch_v1_mappings().len());
    for s in &stats {
        assert_eq!(s.mapped + s.unsupported, s.total, "{:?}", s.family);
        assert!(s.experimental <= s.mapped && s.deprecated <= s.mapped);
    }
    let rt = get(Family::Runtime);
    let expected = db
        .mappings()
        .iter()
        .filter(|m| m.family == Family::Runtime && (m.hip.is_some() || m.roc.is_some()))
        .count();
    assert_eq!(rt.mapped, expected);
    // The five calls rocTX has (nvtxRangePushA, nvtxRangePop, nvtxMarkA, nvtxRangeStartA,
    // nvtxRangeEnd), nvtxRangeId_t, and nvToolsExt.h's plain-name macros of the first, third and
    // fourth (nvtxRangePush, nvtxMark, nvtxRangeStart).
    assert_eq!(get(Family::Nvtx).mapped, 9);
    assert_eq!(
        get(Family::Header).total,
        db.headers().len() + db.torch_v1_headers().len()
    );
}

#[test]
fn user_overrides_add_and_replace_rules() {
    let base = Database::builtin();
    let simple = "# my project\ncuda\thip\ncudaMalloc\tmyHipMalloc\nmyCudaHelper\tmyHipHelper\n";
    let full_header =
        "cuda\thip\troc\tfamily\tsource\nmy/cuda_util.h\tmy/hip_util.h\t\theader\tproject\n";
    let calls = "cuda\targc\ttemplate\thip_added\thip_before\tsource\tnote\nmyLaunch\t2\tmyHipLaunch($2, $1)\t\t\tproject\t\n";
    let db = base
        .with_overrides(&[("a.tsv", simple), ("b.tsv", full_header), ("c.tsv", calls)])
        .unwrap();
    let m = db.lookup("cudaMalloc").unwrap();
    assert_eq!(m.hip.as_deref(), Some("myHipMalloc"));
    assert_eq!(
        m.family,
        Family::Runtime,
        "the short format keeps the overridden family"
    );
    assert_eq!(m.source, "a.tsv:3");
    assert_eq!(
        db.lookup("myCudaHelper").unwrap().hip.as_deref(),
        Some("myHipHelper")
    );
    assert_eq!(
        db.header("my/cuda_util.h").unwrap().hip.as_deref(),
        Some("my/hip_util.h")
    );
    assert_eq!(
        db.calls("myLaunch")[0].apply(&["a", "b"]).unwrap(),
        "myHipLaunch(b, a)"
    );
    // The built-in database is unchanged.
    assert_eq!(
        base.lookup("cudaMalloc").unwrap().hip.as_deref(),
        Some("hipMalloc")
    );
    // A family column in the short format.
    let db = base
        .with_overrides(&[("d.tsv", "cuda\thip\tfamily\nfoo\tbar\tcublas\n")])
        .unwrap();
    assert_eq!(db.lookup("foo").unwrap().family, Family::Cublas);
}

fn err(files: &[(&str, &str)]) -> String {
    match Database::builtin().with_overrides(files) {
        Ok(_) => panic!("expected an error"),
        Err(e @ RuleError::BadLine { .. }) => e.to_string(),
    }
}

#[test]
fn bad_rule_files_name_file_and_line() {
    assert_eq!(
        err(&[("rules/x.tsv", "# c\ncuda\tto\nfoo\tbar\n")]),
        format!(
            "rules/x.tsv:2: the first line must name the columns of a known format: {}",
            err_formats()
        )
    );
    assert_eq!(
        err(&[("x.tsv", "cuda\thip\nfoo\tbar\tbaz\n")]),
        "x.tsv:2: expected 2 tab-separated fields, found 3"
    );
    assert_eq!(
        err(&[("x.tsv", "cuda\thip\n\tbar\n")]),
        "x.tsv:2: the `cuda` column is empty"
    );
    assert_eq!(
        err(&[("x.tsv", "cuda\thip\nfoo \tbar\n")]),
        "x.tsv:2: field `foo ` has leading or trailing spaces"
    );
    assert!(err(&[("x.tsv", "cuda\thip\tfamily\nfoo\tbar\tgpu\n")])
        .starts_with("x.tsv:2: unknown family `gpu`"));
    assert_eq!(
        err(&[(
            "x.tsv",
            "cuda\thip\troc\tfamily\thip_added\tsource\nfoo.h\tbar.h\t\theader\tsix\ts\n"
        )]),
        "x.tsv:2: column `hip_added`: `six` is not a version like 6.2.0"
    );
    assert_eq!(
        err(&[("x.tsv", "cuda\thip\tscope\tsource\ncub\thipcub\tsome\ts\n")]),
        "x.tsv:2: unknown scope `some` (known: all, torch-v1, torch-v2)"
    );
    assert_eq!(
        err(&[(
            "x.tsv",
            "cuda\targc\ttemplate\thip_added\thip_before\tsource\tnote\nf\t2\tg($3)\t\t\ts\t\n"
        )]),
        "x.tsv:2: template uses `$3` but the rule is for 2 arguments"
    );
    assert_eq!(
        err(&[(
            "x.tsv",
            "cuda\targc\ttemplate\thip_added\thip_before\tsource\tnote\nf\ttwo\tg($1)\t\t\ts\t\n"
        )]),
        "x.tsv:2: column `argc`: `two` is not N, N+ or *"
    );
    assert!(err(&[(
        "x.tsv",
        "cuda\thip\troc\tfamily\tsource\nthrust/*/x.h\tt\t\theader\ts\n"
    )])
    .starts_with("x.tsv:2: header pattern"));
    assert_eq!(
        err(&[("empty.tsv", "# nothing\n")]),
        "empty.tsv:1: no column line: the file has no rules"
    );
    // The first bad file stops the load; earlier good files do not hide it.
    assert!(err(&[
        ("ok.tsv", "cuda\thip\na\tb\n"),
        ("bad.tsv", "cuda\thip\nc\n")
    ])
    .starts_with("bad.tsv:2:"));
}

fn err_formats() -> String {
    use hipport_rules::data::*;
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

#[test]
fn every_hand_written_row_names_its_source() {
    for f in hipport_rules::data::DATA_FILES
        .iter()
        .filter(|f| !f.generated)
    {
        let rules = hipport_rules::data::parse_file(f.name, f.text).unwrap();
        for m in &rules.mappings {
            assert!(!m.source.is_empty(), "{}: {} has no source", f.name, m.cuda);
        }
        for h in &rules.headers {
            assert!(!h.source.is_empty(), "{}: {} has no source", f.name, h.cuda);
        }
        for n in &rules.namespaces {
            assert!(!n.source.is_empty(), "{}: {} has no source", f.name, n.cuda);
        }
    }
}

#[test]
fn prebuilt_tables_equal_the_runtime_parse() {
    // `Database::builtin()` comes from tables that build.rs made; parsing the embedded files at
    // run time with the same loader must give the same database, row for row and lookup for lookup.
    let parsed = Database::from_embedded().unwrap();
    let built = Database::builtin();
    assert_eq!(parsed.mappings(), built.mappings());
    assert_eq!(parsed.torch_v1_mappings(), built.torch_v1_mappings());
    assert_eq!(parsed.headers(), built.headers());
    assert_eq!(parsed.torch_v1_headers(), built.torch_v1_headers());
    assert_eq!(parsed.namespaces(), built.namespaces());
    assert_eq!(parsed.absent_list(), built.absent_list());
    assert_eq!(parsed.all_calls(), built.all_calls());
    assert_eq!(parsed.stats(), built.stats());
    for m in parsed.mappings() {
        assert_eq!(built.lookup(&m.cuda), Some(m), "{}", m.cuda);
        for argc in 0..6 {
            for hip in ["5.2.3", "6.2", "6.4"] {
                assert_eq!(
                    parsed.call_for(&m.cuda, argc, v(hip)),
                    built.call_for(&m.cuda, argc, v(hip))
                );
            }
        }
    }
    for m in parsed.torch_v1_mappings() {
        assert_eq!(built.torch_v1(&m.cuda), Some(m), "{}", m.cuda);
    }
    for h in parsed.headers() {
        assert_eq!(built.header(&h.cuda), Some(h), "{}", h.cuda);
    }
    for a in parsed.absent_list() {
        assert_eq!(built.absent_in(&a.hip), parsed.absent_in(&a.hip));
    }
    for name in [
        "",
        "x",
        "cudaMallocX",
        "hipMalloc",
        "thrust/cuda/foo.h",
        "ATen/cuda/X.h",
    ] {
        assert_eq!(built.lookup(name), parsed.lookup(name));
        assert_eq!(built.header(name), parsed.header(name));
    }
    // Overrides on the pre-built tables behave as on parsed ones.
    let files = [(
        "u.tsv",
        "cuda\thip\nmyCudaHelper\tmyHipHelper\ncudaMalloc\tmyTrackedHipMalloc\n",
    )];
    let a = parsed.with_overrides(&files).unwrap();
    let b = built.with_overrides(&files).unwrap();
    assert_eq!(a.mappings(), b.mappings());
    assert_eq!(
        b.lookup("cudaMalloc").unwrap().hip.as_deref(),
        Some("myTrackedHipMalloc")
    );
    assert_eq!(
        b.lookup("myCudaHelper").unwrap().hip.as_deref(),
        Some("myHipHelper")
    );
}

#[test]
fn names_added_after_a_lookup_are_found() {
    // Looking names up first reads how the table's names begin; a name added later that begins
    // like none of them, and a one-letter name, must still be found.
    let base = Database::builtin();
    for name in ["zqFrobnicate", "q"] {
        assert!(base.lookup(name).is_none(), "{name} is not a built-in name");
    }
    let db = base
        .with_overrides(&[(
            "z.tsv",
            "cuda\thip\tfamily\nzqFrobnicate\thipZq\tcublas\nq\thipQ\tcublas\n",
        )])
        .unwrap();
    assert_eq!(
        db.lookup("zqFrobnicate").and_then(|m| m.hip.as_deref()),
        Some("hipZq")
    );
    assert_eq!(db.lookup("q").and_then(|m| m.hip.as_deref()), Some("hipQ"));
    assert_eq!(
        db.lookup("cudaMalloc").and_then(|m| m.hip.as_deref()),
        Some("hipMalloc")
    );
    let mut grown = db.clone();
    assert!(grown.lookup("zzNew").is_none());
    let mut m = db.lookup("zqFrobnicate").unwrap().clone();
    m.cuda = "zzNew".into();
    grown.add_mapping(m);
    assert_eq!(
        grown.lookup("zzNew").and_then(|m| m.hip.as_deref()),
        Some("hipZq")
    );
}

#[test]
fn tensor_op_gemm_algorithm_hints_become_the_default_algorithm() {
    let db = Database::builtin();
    for name in [
        "CUBLAS_GEMM_DEFAULT_TENSOR_OP",
        "CUBLAS_GEMM_DFALT_TENSOR_OP",
    ] {
        assert_eq!(
            db.lookup(name).and_then(|m| m.hip.as_deref()),
            Some("HIPBLAS_GEMM_DEFAULT"),
            "{name}"
        );
    }
}

#[test]
fn cublas_status_codes_keep_their_meaning_in_rocblas() {
    let db = Database::builtin();
    let roc = Choices {
        blas: Lib::Roc,
        ..Choices::default()
    };
    let name = |cuda: &str, c: &Choices| match db.target(cuda, c) {
        Target::Name { name, .. } => Some(name.to_string()),
        _ => None,
    };
    // hipBLAS's rocBLAS backend reads memory_error as ALLOC_FAILED and not_implemented as
    // NOT_SUPPORTED; HIPIFY's positional pairing had not_implemented and perf_degraded.
    assert_eq!(
        name("CUBLAS_STATUS_ALLOC_FAILED", &roc).as_deref(),
        Some("rocblas_status_memory_error")
    );
    assert_eq!(
        name("CUBLAS_STATUS_NOT_SUPPORTED", &roc).as_deref(),
        Some("rocblas_status_not_implemented")
    );
    // rocBLAS has no status for these: reported, not renamed to another failure's name.
    for cuda in [
        "CUBLAS_STATUS_EXECUTION_FAILED",
        "CUBLAS_STATUS_MAPPING_ERROR",
    ] {
        assert!(
            matches!(db.target(cuda, &roc), Target::Unsupported { .. }),
            "{cuda}"
        );
        assert!(name(cuda, &Choices::default()).is_some(), "{cuda}");
    }
    // A status switch over every cuBLAS status must not get two equal case labels.
    let mut seen = std::collections::HashSet::new();
    for m in db
        .mappings()
        .iter()
        .filter(|m| m.cuda.starts_with("CUBLAS_STATUS_"))
    {
        if let Some(r) = name(&m.cuda, &roc) {
            assert!(seen.insert(r.clone()), "{} repeats {r}", m.cuda);
        }
    }
}

#[test]
fn cublaslt_names_and_header_need_hipblaslt() {
    let db = Database::builtin();
    for cuda in [
        "cublasLtMatrixLayout_t",
        "cublasLtMatrixLayoutOpaque_t",
        "cublasLtHandle_t",
    ] {
        let m = db.lookup(cuda).unwrap();
        assert_eq!(
            m.status_for(v("5.2.3")),
            Availability::TooNew { added: v("5.5.0") },
            "{cuda}"
        );
        assert_eq!(m.status_for(v("6.2")), Availability::Available, "{cuda}");
    }
    let h = db.header("cublasLt.h").unwrap();
    assert_eq!(
        h.hip_for("cublasLt.h").as_deref(),
        Some("hipblaslt/hipblaslt.h")
    );
    assert_eq!(h.hip_added, Some(v("5.5.0")));
}

#[test]
fn nvtx_cpp_api_is_reported_not_renamed_to_roctx() {
    let db = Database::builtin();
    let hip = |p: &str| db.header(p).and_then(|h| h.hip_for(p));
    // rocTX has only the C API: the C++ header has no counterpart, its C header and siblings do.
    assert_eq!(hip("nvtx3/nvtx3.hpp"), None);
    assert!(db.header("nvtx3/nvtx3.hpp").is_some());
    assert_eq!(
        hip("nvtx3/nvToolsExtCuda.h").as_deref(),
        Some("roctracer/roctx.h")
    );
    for m in ["NVTX3_FUNC_RANGE", "NVTX3_FUNC_RANGE_IN"] {
        let m = db.lookup(m).unwrap();
        assert_eq!((m.family, m.hip.as_deref()), (Family::Nvtx, None));
    }
}

#[test]
fn cusolver_status_codes_keep_their_meaning_in_rocsolver() {
    let db = Database::builtin();
    let roc = Choices {
        solver: Lib::Roc,
        ..Choices::default()
    };
    let rocm52 = v("5.2.3");
    let mut seen = std::collections::HashMap::new();
    for m in db
        .mappings()
        .iter()
        .filter(|m| m.cuda.starts_with("CUSOLVER_STATUS_"))
    {
        if let Target::Name { name, .. } = db.target(&m.cuda, &roc) {
            if let Some(other) = seen.insert(name.to_string(), m.cuda.to_string()) {
                panic!("{} and {other} both become {name}", m.cuda);
            }
        }
    }
    assert_eq!(
        seen.get("rocblas_status_not_implemented")
            .map(String::as_str),
        Some("CUSOLVER_STATUS_NOT_SUPPORTED")
    );
    for cuda in [
        "CUSOLVER_STATUS_EXECUTION_FAILED",
        "CUSOLVER_STATUS_MAPPING_ERROR",
        "CUSOLVER_STATUS_ZERO_PIVOT",
    ] {
        assert!(
            matches!(db.target(cuda, &roc), Target::Unsupported { .. }),
            "{cuda}"
        );
    }
    // rocBLAS's memory_error and invalid_handle are as old as rocSOLVER.
    for cuda in [
        "CUSOLVER_STATUS_ALLOC_FAILED",
        "CUSOLVER_STATUS_NOT_INITIALIZED",
    ] {
        let m = db.lookup(cuda).unwrap();
        assert_eq!(m.roc_status_for(rocm52), Availability::Available, "{cuda}");
    }
}

#[test]
fn hipblas_v2_names_lose_their_suffix_from_hip_7() {
    let db = Database::builtin();
    let default = Choices::default();
    let at = |cuda: &str, hip: &str| match db.target_for(cuda, &default, v(hip)) {
        Target::Name { name, .. } => name.to_string(),
        t => panic!("{cuda} maps: {t:?}"),
    };
    // hipBLAS 2.x (ROCm 6.0-6.4) spells the hipDataType API with `_v2`; hipBLAS 3.0 (ROCm 7.0)
    // has only that API, under the plain names.
    assert_eq!(at("cublasGemmEx", "6.4.0"), "hipblasGemmEx_v2");
    assert_eq!(at("cublasGemmEx", "7.0.0"), "hipblasGemmEx");
    assert_eq!(at("cublasCaxpy_v2", "7.2.0"), "hipblasCaxpy");
    assert_eq!(at("cublasCaxpy_v2_64", "6.2.0"), "hipblasCaxpy_v2_64");
    assert_eq!(at("cublasCaxpy_v2_64", "7.0.0"), "hipblasCaxpy_64");
    // Names without `_v2` and other families are untouched, and `target` keeps the table's name.
    assert_eq!(at("cublasSgemm", "7.0.0"), "hipblasSgemm");
    assert_eq!(
        at("cudaStreamGetCaptureInfo_v2", "7.0.0"),
        "hipStreamGetCaptureInfo_v2"
    );
    let Target::Name { name, .. } = db.target("cublasGemmEx", &default) else {
        panic!()
    };
    assert_eq!(name, "hipblasGemmEx_v2");
    // The roc column is never respelled.
    let roc = Choices {
        blas: Lib::Roc,
        ..Choices::default()
    };
    let Target::Name { name, .. } = db.target_for("cublasGemmEx", &roc, v("7.0.0")) else {
        panic!()
    };
    assert_eq!(name, "rocblas_gemm_ex");
    // Every `_v2` HIP name of hipBLAS in the tables has a renamed row.
    for m in db.mappings() {
        if let Some(hip) = m.hip.as_deref() {
            if hip.starts_with("hipblas") && (hip.ends_with("_v2") || hip.ends_with("_v2_64")) {
                assert_ne!(db.hip_spelling(hip, v("7.0.0")), hip, "{hip}");
            }
        }
    }
}

#[test]
fn a_user_file_can_add_a_renamed_name() {
    let db = Database::builtin()
        .with_overrides(&[(
            "mine.tsv",
            "hip\trenamed\tsince\tsource\nhipMalloc\thipMallocNew\t9.1.0\tmy note\n",
        )])
        .unwrap();
    assert_eq!(db.hip_spelling("hipMalloc", v("9.0.0")), "hipMalloc");
    assert_eq!(db.hip_spelling("hipMalloc", v("9.1.0")), "hipMallocNew");
    let err = Database::builtin()
        .with_overrides(&[("bad.tsv", "hip\trenamed\tsince\tsource\nhipX\t\t7.0.0\tx\n")])
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("bad.tsv:2") && err.contains("`renamed` column is empty"),
        "{err}"
    );
}

#[test]
fn hip_7_memset_node_params_and_per_library_headers() {
    let db = Database::builtin();
    let default = Choices::default();
    let name = |cuda: &str, hip: &str| match db.target_for(cuda, &default, v(hip)) {
        Target::Name { name, .. } => name.to_string(),
        t => panic!("{cuda}: {t:?}"),
    };
    assert_eq!(
        name("CUDA_MEMSET_NODE_PARAMS", "6.4.0"),
        "HIP_MEMSET_NODE_PARAMS"
    );
    assert_eq!(name("CUDA_MEMSET_NODE_PARAMS", "7.0.0"), "hipMemsetParams");
    assert_eq!(
        name("CUDA_MEMSET_NODE_PARAMS_v1", "7.2.0"),
        "hipMemsetParams"
    );
    // The top-level compatibility wrappers are not written.
    for (cuda, hip) in [
        ("cublas_api.h", "hipblas/hipblas.h"),
        ("cusparse_v2.h", "hipsparse/hipsparse.h"),
        ("cusolverSp.h", "hipsolver/hipsolver.h"),
        ("cusolverRf.h", "hipsolver/hipsolver.h"),
    ] {
        assert_eq!(db.header(cuda).unwrap().hip.as_deref(), Some(hip), "{cuda}");
    }
}

/// `extra-cudnn.tsv` records whether MIOpen's function takes the cuDNN call's arguments (E-d):
/// `same`, or what differs, read from the `roc_args` column (also by the pre-built tables).
#[test]
fn cudnn_rows_record_whether_miopen_takes_the_same_arguments() {
    let parsed = Database::from_embedded().unwrap();
    for db in [Database::builtin(), &parsed] {
        let fwd = db.lookup("cudnnConvolutionForward").unwrap();
        assert_eq!(fwd.roc.as_deref(), Some("miopenConvolutionForward"));
        assert!(fwd
            .roc_args
            .as_deref()
            .is_some_and(|d| d.contains("workspace last")));
        let create = db.lookup("cudnnCreate").unwrap();
        assert_eq!(create.roc_args.as_deref(), Some("same"));
        // E-k: MIOpen's filters are tensor descriptors.
        let filter = db.lookup("cudnnCreateFilterDescriptor").unwrap();
        assert_eq!(filter.roc.as_deref(), Some("miopenCreateTensorDescriptor"));
        assert_eq!(filter.roc_args.as_deref(), Some("same"));
        // Rows without the column record nothing.
        assert_eq!(db.lookup("cudaMalloc").unwrap().roc_args, None);
    }
}

/// Every `math_constants.h` macro the rules map (`CUDART_INF_F` -> `HIP_INF_F`) has its value in
/// `math-constants.tsv`, and every row there is such a macro, with a body that names no other.
#[test]
fn math_constants_cover_the_mapped_cudart_macros() {
    let db = Database::builtin();
    let rows: Vec<_> = hipport_rules::math_constants::all().collect();
    assert_eq!(rows.len(), 95);
    for c in &rows {
        let m = db
            .lookup(c.cuda)
            .unwrap_or_else(|| panic!("{} not in the rules", c.cuda));
        assert_eq!(
            m.hip.as_deref(),
            Some(&*c.cuda.replacen("CUDART_", "HIP_", 1))
        );
        assert!(!c.value.contains("CUDART_"), "{c:?}");
    }
    for m in db.mappings().iter().filter(|m| {
        m.cuda.starts_with("CUDART_") && m.hip.as_deref().is_some_and(|h| h.starts_with("HIP_"))
    }) {
        assert!(
            hipport_rules::math_constants::lookup(&m.cuda).is_some(),
            "{}",
            m.cuda
        );
    }
}

/// The standard spellings name their header (`FLT_MAX` is <cfloat>'s, which hip_runtime.h does
/// not bring).
#[test]
fn math_constants_standard_spellings_name_their_header() {
    for c in hipport_rules::math_constants::all() {
        assert_eq!(c.std.is_some(), c.std_header.is_some(), "{c:?}");
    }
    let max = hipport_rules::math_constants::lookup("CUDART_MAX_NORMAL_F").expect("row");
    assert_eq!(
        (max.value, max.std, max.std_header),
        (
            "__int_as_float(0x7f7fffffU)",
            Some("FLT_MAX"),
            Some("cfloat")
        )
    );
}

/// R46-1: a header row may name what ROCm offers in its place (`instead`), and rows without the
/// column record nothing.
#[test]
fn header_rows_read_what_rocm_offers_instead() {
    let db = Database::builtin();
    let nvml = db.header("nvml.h").unwrap();
    assert!(nvml.hip.is_none());
    assert!(nvml.instead.as_deref().unwrap().contains("AMD SMI"));
    assert!(db
        .header("nvjpeg.h")
        .and_then(|h| h.instead.as_deref())
        .unwrap()
        .contains("rocJPEG"));
    assert_eq!(db.header("cuda_egl_interop.h").unwrap().instead, None);
    let over = db
        .with_overrides(&[(
            "mine.tsv",
            "cuda\thip\troc\tfamily\thip_added\tsource\tinstead\nvendor_x.h\t\t\truntime\t\tmine\tuse libY\n",
        )])
        .unwrap();
    assert_eq!(
        over.header("vendor_x.h").unwrap().instead.as_deref(),
        Some("use libY")
    );
    // cuTENSOR is hipTensor's, from ROCm 5.7 (R46-a).
    let t = db.header("cutensor.h").unwrap();
    // hipTensor 1.x's `hiptensor.hpp`; 2.0 (ROCm 7.0) spells it `hiptensor.h`.
    assert_eq!(t.hip.as_deref(), Some("hiptensor/hiptensor.hpp"));
    assert_eq!(t.hip_added, Some(hipport_rules::Version::new(5, 7, 0)));
    assert_eq!(
        db.hip_spelling(
            "hiptensor/hiptensor.hpp",
            hipport_rules::Version::new(6, 4, 0)
        ),
        "hiptensor/hiptensor.hpp"
    );
    assert_eq!(
        db.hip_spelling(
            "hiptensor/hiptensor.hpp",
            hipport_rules::Version::new(7, 0, 0)
        ),
        "hiptensor/hiptensor.h"
    );
    assert_eq!(t.family, hipport_rules::Family::Cutensor);
}
