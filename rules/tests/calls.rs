//! Every rule in `rules/data/calls.tsv`, applied to a hand-written call, with the expected HIP call
//! written out by hand. The table must cover the rules exactly: a rule added, removed or changed
//! without updating this table fails.

use hipport_rules::{Database, Version};

/// (CUDA function, argc as written in calls.tsv, hip_before, arguments, expected HIP call).
const CASES: &[(&str, &str, &str, &[&str], &str)] = &[
    ("cudaMemcpyToSymbol", "3+", "", &["d_coeffs", "h_coeffs", "sizeof(h_coeffs)"], "hipMemcpyToSymbol(HIP_SYMBOL(d_coeffs), h_coeffs, sizeof(h_coeffs))"),
    ("cudaMemcpyFromSymbol", "3+", "", &["&h", "d_count", "sizeof(int)", "0", "cudaMemcpyDeviceToHost"], "hipMemcpyFromSymbol(&h, HIP_SYMBOL(d_count), sizeof(int), 0, cudaMemcpyDeviceToHost)"),
    ("cudaMemcpyToSymbolAsync", "3", "", &["table", "src", "n"], "hipMemcpyToSymbolAsync(HIP_SYMBOL(table), src, n, 0, hipMemcpyHostToDevice)"),
    ("cudaMemcpyToSymbolAsync", "4", "", &["table", "src", "n", "off"], "hipMemcpyToSymbolAsync(HIP_SYMBOL(table), src, n, off, hipMemcpyHostToDevice)"),
    ("cudaMemcpyToSymbolAsync", "5+", "", &["table", "src", "n", "0", "kind", "s"], "hipMemcpyToSymbolAsync(HIP_SYMBOL(table), src, n, 0, kind, s)"),
    ("cudaMemcpyFromSymbolAsync", "3", "", &["dst", "table", "n"], "hipMemcpyFromSymbolAsync(dst, HIP_SYMBOL(table), n, 0, hipMemcpyDeviceToHost)"),
    ("cudaMemcpyFromSymbolAsync", "4", "", &["dst", "table", "n", "8"], "hipMemcpyFromSymbolAsync(dst, HIP_SYMBOL(table), n, 8, hipMemcpyDeviceToHost)"),
    ("cudaMemcpyFromSymbolAsync", "5+", "", &["dst", "table", "n", "8", "kind"], "hipMemcpyFromSymbolAsync(dst, HIP_SYMBOL(table), n, 8, kind)"),
    ("cudaGetSymbolAddress", "2", "", &["(void**)&p", "d_buf"], "hipGetSymbolAddress((void**)&p, HIP_SYMBOL(d_buf))"),
    ("cudaGetSymbolSize", "2", "", &["&bytes", "d_buf"], "hipGetSymbolSize(&bytes, HIP_SYMBOL(d_buf))"),
    ("cudaGraphAddMemcpyNodeToSymbol", "9", "", &["&node", "graph", "nullptr", "0", "d_scale", "&h", "sizeof(float)", "0", "hipMemcpyHostToDevice"], "hipGraphAddMemcpyNodeToSymbol(&node, graph, nullptr, 0, (const void*)&d_scale, &h, sizeof(float), 0, hipMemcpyHostToDevice)"),
    ("cudaGraphAddMemcpyNodeFromSymbol", "9", "", &["&node", "graph", "deps", "1", "&h", "ns::d_scale", "4", "0", "kind"], "hipGraphAddMemcpyNodeFromSymbol(&node, graph, deps, 1, &h, (const void*)&ns::d_scale, 4, 0, kind)"),
    ("cudaGraphMemcpyNodeSetParamsToSymbol", "6", "", &["node", "(const void*)&d_scale", "&h", "4", "0", "kind"], "hipGraphMemcpyNodeSetParamsToSymbol(node, (const void*)&d_scale, &h, 4, 0, kind)"),
    ("cudaGraphMemcpyNodeSetParamsFromSymbol", "6", "", &["node", "&h", "d_scale", "4", "0", "kind"], "hipGraphMemcpyNodeSetParamsFromSymbol(node, &h, (const void*)&d_scale, 4, 0, kind)"),
    ("cudaGraphExecMemcpyNodeSetParamsToSymbol", "7", "", &["exec", "node", "d_table", "src", "64", "0", "kind"], "hipGraphExecMemcpyNodeSetParamsToSymbol(exec, node, (const void*)&d_table, src, 64, 0, kind)"),
    ("cudaGraphExecMemcpyNodeSetParamsFromSymbol", "7", "", &["exec", "node", "dst", "d_table", "64", "0", "kind"], "hipGraphExecMemcpyNodeSetParamsFromSymbol(exec, node, dst, (const void*)&d_table, 64, 0, kind)"),
    ("cudaFuncSetAttribute", "3", "", &["gemm<float>", "cudaFuncAttributeMaxDynamicSharedMemorySize", "smem"], "hipFuncSetAttribute(reinterpret_cast<const void*>(gemm<float>), cudaFuncAttributeMaxDynamicSharedMemorySize, smem)"),
    ("cudaFuncGetAttributes", "2", "", &["&attr", "kernel"], "hipFuncGetAttributes(&attr, reinterpret_cast<const void*>(kernel))"),
    ("cudaFuncSetCacheConfig", "2", "", &["kernel", "cudaFuncCachePreferShared"], "hipFuncSetCacheConfig(reinterpret_cast<const void*>(kernel), cudaFuncCachePreferShared)"),
    ("cudaFuncSetSharedMemConfig", "2", "", &["kernel", "cfg"], "hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(kernel), cfg)"),
    ("cudaLaunchKernel", "4+", "", &["kernel", "grid", "block", "args"], "hipLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args)"),
    ("cudaLaunchCooperativeKernel", "4", "", &["k", "g", "b", "args"], "hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), g, b, args, 0, 0)"),
    ("cudaLaunchCooperativeKernel", "5", "", &["k", "g", "b", "args", "shm"], "hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), g, b, args, shm, 0)"),
    ("cudaLaunchCooperativeKernel", "6", "", &["k", "g", "b", "args", "shm", "stream"], "hipLaunchCooperativeKernel(reinterpret_cast<const void*>(k), g, b, args, shm, stream)"),
    ("cudaOccupancyMaxActiveBlocksPerMultiprocessor", "4", "", &["&n", "k", "256", "0"], "hipOccupancyMaxActiveBlocksPerMultiprocessor(&n, reinterpret_cast<const void*>(k), 256, 0)"),
    ("cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", "5", "", &["&n", "k", "256", "0", "f"], "hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, reinterpret_cast<const void*>(k), 256, 0, f)"),
    ("cudaMallocPitch", "4", "", &["&d", "&pitch", "w", "h"], "hipMallocPitch((void**)(&d), &pitch, w, h)"),
    ("cudaMemPrefetchAsync", "5", "", &["p", "n", "loc", "0", "s"], "hipMemPrefetchAsync_v2(p, n, loc, 0, s)"),
    ("cudaHostGetDevicePointer", "3", "", &["&dp", "hp", "0"], "hipHostGetDevicePointer((void**)(&dp), hp, 0)"),
    ("cudaMalloc3DArray", "3", "", &["&arr", "&desc", "extent"], "hipMalloc3DArray(&arr, &desc, extent, 0)"),
    ("cudaSignalExternalSemaphoresAsync", "3", "", &["&sem", "&params", "1"], "hipSignalExternalSemaphoresAsync(&sem, &params, 1, 0)"),
    ("cudaWaitExternalSemaphoresAsync", "3", "", &["&sem", "&params", "1"], "hipWaitExternalSemaphoresAsync(&sem, &params, 1, 0)"),
    ("cudaLaunchCooperativeKernelMultiDevice", "2", "", &["list", "2"], "hipLaunchCooperativeKernelMultiDevice(list, 2, 0)"),
    ("cudaStreamGetCaptureInfo", "6", "", &["s", "&st", "&id", "&g", "&deps", "&n"], "hipStreamGetCaptureInfo_v2(s, &st, &id, &g, &deps, &n)"),
    ("cudaOccupancyMaxPotentialBlockSize", "3", "", &["&g", "&b", "k"], "hipOccupancyMaxPotentialBlockSize(&g, &b, reinterpret_cast<const void*>(k), 0, 0)"),
    ("cudaOccupancyMaxPotentialBlockSize", "4", "", &["&g", "&b", "k", "smem"], "hipOccupancyMaxPotentialBlockSize(&g, &b, reinterpret_cast<const void*>(k), smem, 0)"),
    ("cudaOccupancyMaxPotentialBlockSize", "5", "", &["&g", "&b", "k", "smem", "1024"], "hipOccupancyMaxPotentialBlockSize(&g, &b, reinterpret_cast<const void*>(k), smem, 1024)"),
    ("cudaMallocHost", "2", "", &["(void**)&h", "bytes"], "hipHostMalloc((void**)&h, bytes, hipHostMallocDefault)"),
    ("cudaMallocHost", "3", "", &["&h", "bytes", "cudaHostAllocMapped"], "hipHostMalloc(&h, bytes, cudaHostAllocMapped)"),
    ("cudaHostAlloc", "3", "", &["&h", "n * sizeof(float)", "cudaHostAllocPortable"], "hipHostMalloc(&h, n * sizeof(float), cudaHostAllocPortable)"),
    ("cuMemHostAlloc", "3", "", &["&p", "size", "CU_MEMHOSTALLOC_DEVICEMAP"], "hipHostMalloc(&p, size, CU_MEMHOSTALLOC_DEVICEMAP)"),
    ("cuMemAllocHost", "2", "", &["&p", "size"], "hipHostMalloc(&p, size, hipHostMallocDefault)"),
    ("cudaEventCreate", "2", "", &["&ev", "cudaEventDisableTiming"], "hipEventCreateWithFlags(&ev, cudaEventDisableTiming)"),
    ("cudaStreamWaitEvent", "2", "", &["s", "ev"], "hipStreamWaitEvent(s, ev, 0)"),
    ("cuMemcpyHtoD", "3", "", &["dptr", "host", "n"], "hipMemcpyHtoD(dptr, const_cast<void*>(static_cast<const void*>(host)), n)"),
    ("cuMemcpyHtoDAsync", "4", "", &["dptr", "host", "n", "s"], "hipMemcpyHtoDAsync(dptr, const_cast<void*>(static_cast<const void*>(host)), n, s)"),
    ("cudaGraphInstantiate", "3", "", &["&exec", "graph", "0"], "hipGraphInstantiateWithFlags(&exec, graph, 0)"),
    ("cudaGraphInstantiate", "2", "", &["&exec", "graph"], "hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0)"),
    ("cuGraphInstantiate", "3", "", &["&exec", "graph", "0"], "hipGraphInstantiateWithFlags(&exec, graph, 0)"),
    ("cuOccupancyMaxPotentialBlockSize", "6", "", &["&g", "&b", "f", "NULL", "smem", "0"], "hipModuleOccupancyMaxPotentialBlockSize(&g, &b, f, smem, 0)"),
    ("cuOccupancyMaxPotentialBlockSizeWithFlags", "7", "", &["&g", "&b", "f", "NULL", "smem", "0", "fl"], "hipModuleOccupancyMaxPotentialBlockSizeWithFlags(&g, &b, f, smem, 0, fl)"),
    ("__shfl_sync", "3+", "6.2.0", &["0xffffffff", "v", "0"], "__shfl(v, 0)"),
    ("__shfl_up_sync", "3+", "6.2.0", &["FULL", "v", "1", "16"], "__shfl_up(v, 1, 16)"),
    ("__shfl_down_sync", "3+", "6.2.0", &["0xffffffff", "sum", "offset"], "__shfl_down(sum, offset)"),
    ("__shfl_xor_sync", "3+", "6.2.0", &["0xffffffff", "x", "mask"], "__shfl_xor(x, mask)"),
    ("__ballot_sync", "2", "6.2.0", &["0xffffffff", "x > 0"], "__ballot(x > 0)"),
    ("__any_sync", "2", "6.2.0", &["0xffffffff", "found"], "__any(found)"),
    ("__all_sync", "2", "6.2.0", &["0xffffffff", "ok"], "__all(ok)"),
    ("__activemask", "0", "6.2.0", &[], "__ballot(1)"),
    ("__float2bfloat16_rn", "1", "", &["acc * scale"], "__float2bfloat16(acc * scale)"),
    ("__floats2bfloat162_rn", "2", "", &["v.x", "v.y"], "__float22bfloat162_rn(make_float2(v.x, v.y))"),
    ("__float2bfloat162_rn", "1", "", &["next()"], "__bfloat162bfloat162(__float2bfloat16(next()))"),
    // `$<NAME:J:K>` lookups are filled in with `buf` here (the translator finds the value).
    ("cusparseSpSV_solve", "9", "6.0.0", &["h", "op", "&one", "L", "x", "y", "CUDA_R_64F", "alg", "sv"], "hipsparseSpSV_solve(h, op, &one, L, x, y, CUDA_R_64F, alg, sv, buf)"),
    ("cusparseSpSM_solve", "10", "6.2.0", &["h", "op", "op", "&one", "L", "B", "C", "CUDA_R_64F", "alg", "sm"], "hipsparseSpSM_solve(h, op, op, &one, L, B, C, CUDA_R_64F, alg, sm, buf)"),
    ("cusparseSpSM_solve", "10", "", &["h", "op", "op", "&one", "L", "B", "C", "CUDA_R_64F", "alg", "sm"], "hipsparseSpSM_solve(h, op, op, &one, L, B, C, CUDA_R_64F, alg, sm, buf)"),
];

#[test]
fn every_rule_rewrites_its_example() {
    let db = Database::builtin();
    for (cuda, argc, before, args, expected) in CASES {
        let rule = db
            .calls(cuda)
            .iter()
            .find(|r| {
                r.argc.to_string() == *argc
                    && r.hip_before.map(|v| v.to_string()).unwrap_or_default() == *before
            })
            .unwrap_or_else(|| panic!("no rule {cuda} argc {argc} hip_before `{before}`"));
        let template = rule.resolve(&mut |_| Some("buf".to_string())).unwrap();
        assert_eq!(
            hipport_rules::calls::expand(&template, args).as_deref(),
            Some(*expected),
            "{cuda} argc {argc}"
        );
        assert!(
            !rule.source.is_empty(),
            "{cuda}: every rule names its source"
        );
    }
}

#[test]
fn the_table_covers_exactly_the_rules() {
    let db = Database::builtin();
    let mut in_db: Vec<String> = db
        .all_calls()
        .iter()
        .map(|r| {
            format!(
                "{} {} {}",
                r.cuda,
                r.argc,
                r.hip_before.map(|v| v.to_string()).unwrap_or_default()
            )
        })
        .collect();
    let mut in_table: Vec<String> = CASES
        .iter()
        .map(|(c, a, b, _, _)| format!("{c} {a} {b}"))
        .collect();
    in_db.sort();
    in_table.sort();
    assert_eq!(in_db, in_table);
    assert!(in_db.len() >= 40, "calls.tsv should hold at least 40 rules");
}

#[test]
fn argument_counts_choose_the_rule() {
    let db = Database::builtin();
    let v = Version::new(5, 2, 3);
    // One argument: no rule, the plain rename is enough.
    assert!(db.call_for("cudaEventCreate", 1, v).is_none());
    assert_eq!(
        db.call_for("cudaEventCreate", 2, v).unwrap().callee(),
        "hipEventCreateWithFlags"
    );
    // Exact counts win over `N+`.
    assert_eq!(
        db.call_for("cudaMemcpyToSymbolAsync", 4, v)
            .unwrap()
            .argc
            .to_string(),
        "4"
    );
    assert_eq!(
        db.call_for("cudaMemcpyToSymbolAsync", 6, v)
            .unwrap()
            .argc
            .to_string(),
        "5+"
    );
    assert!(db.call_for("cudaMemcpyToSymbol", 2, v).is_none());
    // Too few arguments for the template: no rewrite.
    let rule = &db.calls("cudaLaunchCooperativeKernel")[0];
    assert_eq!(rule.apply(&["k", "g"]), None);
}

#[test]
fn warp_fallbacks_apply_only_before_hip_6_2() {
    let db = Database::builtin();
    let old = Version::new(5, 2, 3);
    let new = Version::new(6, 2, 0);
    let r = db
        .call_for("__shfl_down_sync", 3, old)
        .expect("fallback for HIP 5.2");
    assert_eq!(r.apply(&["m", "v", "1"]).unwrap(), "__shfl_down(v, 1)");
    assert!(!r.note.is_empty(), "the mask-dropping rules carry a note");
    assert!(db.call_for("__shfl_down_sync", 3, new).is_none());
    assert!(db.call_for("__activemask", 0, new).is_none());
    // Rules with no upper bound hold for newer releases too.
    assert!(db.call_for("cudaMallocHost", 2, new).is_some());
    // And rules are not used before their HIP function exists.
    assert!(db
        .call_for("cudaGraphInstantiate", 3, Version::new(4, 5, 0))
        .is_none());
}

#[test]
fn rewritten_callees_exist_for_hip_5_2() {
    // Every HIP function a rule calls is either a database name available for HIP 5.2.3 or one of
    // the maskless warp builtins.
    let db = Database::builtin();
    let v = Version::new(5, 2, 3);
    for r in db.all_calls() {
        if !r.applies_to(v) {
            continue;
        }
        let callee = r.callee();
        let known = db.reverse(callee).iter().any(|m| {
            matches!(
                m.status_for(v),
                hipport_rules::Availability::Available
                    | hipport_rules::Availability::Deprecated { .. }
            )
        });
        let builtin = [
            "__shfl",
            "__shfl_up",
            "__shfl_down",
            "__shfl_xor",
            "__ballot",
            "__any",
            "__all",
        ];
        assert!(
            known || builtin.contains(&callee),
            "{}: callee {callee} unknown for HIP 5.2.3",
            r.cuda
        );
    }
}

#[test]
fn lookups_fall_back_to_their_default_or_to_no_rewrite() {
    let db = Database::builtin();
    let args = [
        "h",
        "op",
        "op",
        "&one",
        "L",
        "B",
        "C",
        "CUDA_R_64F",
        "alg",
        "sm",
    ];
    // Before HIP 6.2 the solve needs the analysis buffer: without it, no rewrite.
    let old = db
        .call_for("cusparseSpSM_solve", 10, Version::new(5, 2, 3))
        .unwrap();
    assert_eq!(old.lookups().len(), 1);
    assert_eq!(old.resolve(&mut |_| None), None);
    assert_eq!(old.apply(&args), None);
    // From 6.2 hipSPARSE ignores it: nullptr where it is not found.
    let new = db
        .call_for("cusparseSpSM_solve", 10, Version::new(6, 2, 0))
        .unwrap();
    let t = new.resolve(&mut |_| None).unwrap();
    assert_eq!(
        hipport_rules::calls::expand(&t, &args).unwrap(),
        "hipsparseSpSM_solve(h, op, op, &one, L, B, C, CUDA_R_64F, alg, sm, nullptr)"
    );
    let l = &new.lookups()[0];
    assert_eq!(
        (l.callee.as_str(), l.key, l.take),
        ("cusparseSpSM_analysis", 10, 11)
    );
    // From 6.0 hipsparseSpSV_solve takes cuSPARSE's arguments: a plain rename.
    assert!(db
        .call_for("cusparseSpSV_solve", 9, Version::new(6, 0, 0))
        .is_none());
    assert!(db
        .call_for("cusparseSpSV_solve", 9, Version::new(5, 2, 3))
        .is_some());
}
