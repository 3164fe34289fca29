//! rulesfix25: rules-data findings of realuser40/realuser39. cuRAND's MTGP32 names that hipRAND
//! spells differently (R40-c), NCCL's window-registration and device APIs that only newer RCCL
//! releases have (R40-b), and the THC headers with an ATen replacement (R39-2). The inputs are
//! written here. Where the output is said to compile, hipcc 5.2.3 with the installed hipRAND
//! shows it (skipped where hipcc is missing, a failure under `CI=true`).

use crate::common;
use common::{cli_convert_in, have_tool, hipcc_compile, reports};
use std::process::Command;

// R40-c ----------------------------------------------------------------------------------------

/// Host set-up of MTGP32 generators as the cuRAND guide writes it: the struct name
/// `mtgp32_kernel_params`, the parameter table, and the generator's size macros.
const MTGP: &str = r#"#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
#include <curand_mtgp32dc_p_11213.h>

__global__ void draw(curandStateMtgp32 *states, unsigned int *out) {
  unsigned int v = curand(&states[blockIdx.x]);
  out[blockIdx.x * blockDim.x + threadIdx.x] = v % MTGPDC_N;
}

int setup(int blocks, unsigned int *out) {
  curandStateMtgp32 *states;
  mtgp32_kernel_params *params;
  static_assert(MTGPDC_MEXP == 11213, "exponent");
  static_assert(MTGPDC_FLOOR_2P <= MTGPDC_CEIL_2P, "sizes");
  static_assert(MTGP32_STATE_SIZE - 1 == MTGP32_STATE_MASK, "state");
  mtgp32_params_fast *table = MTGPDC_PARAM_TABLE;
  cudaMalloc((void **)&states, blocks * sizeof(curandStateMtgp32));
  cudaMalloc((void **)&params, sizeof(mtgp32_kernel_params));
  if (curandMakeMTGP32Constants(table, params) != CURAND_STATUS_SUCCESS) return 1;
  if (curandMakeMTGP32KernelState(states, mtgp32dc_params_fast_11213, params, blocks, 7) !=
      CURAND_STATUS_SUCCESS)
    return 1;
  draw<<<blocks, 256>>>(states, out);
  return 0;
}
"#;

#[test]
fn r40c_mtgp32_struct_and_macros_get_hiprand_names_and_compile() {
    for hip in ["5.2.3", "6.2"] {
        let (tmp, code, err, texts) = cli_convert_in(&[("mt.cu", MTGP)], hip, &[]);
        let out = &texts[0];
        assert_eq!(code, Some(0), "{hip}: {err}");
        assert!(
            !err.contains("error[") && !err.contains("warning["),
            "{hip}: {err}"
        );
        for want in [
            "mtgp32_kernel_params_t *params;",
            "sizeof(mtgp32_kernel_params_t)",
            "v % MTGP_N;",
            "MTGP_MEXP == 11213",
            "MTGP_FLOOR_2P <= MTGP_CEIL_2P",
            "MTGP_STATE - 1 == MTGP_MASK",
            "mtgp32_params_fast_t *table = mtgp32dc_params_fast_11213;",
            "hiprandMakeMTGP32Constants(table, params)",
        ] {
            assert!(out.contains(want), "{hip}: no `{want}` in\n{out}");
        }
        if hip == "5.2.3" && have_tool("hipcc") {
            let dir = tmp.path().join("out");
            if let Err(e) = hipcc_compile(&dir, "mt.cu") {
                panic!("hipcc rejects the output:\n{e}\n{out}");
            }
        }
    }
}

#[test]
fn r40c_name_only_cuda_has_is_reported_and_typedef_stays() {
    let src = r#"#include <curand_kernel.h>
#include <curand_mtgp32_host.h>
int blocks_for(int n) { return n > CURAND_NUM_MTGP32_PARAMS ? CURAND_NUM_MTGP32_PARAMS : n; }
void keep(mtgp32_kernel_params_t *p) { (void)p; }
"#;
    let (_, _, err, texts) = cli_convert_in(&[("n.cu", src)], "6.2", &[]);
    let t001 = reports(&err, "T001");
    assert_eq!(t001.len(), 1, "{err}");
    assert!(t001[0].contains("CURAND_NUM_MTGP32_PARAMS"), "{err}");
    // hipRAND's typedef has the same name: it stays, with nothing reported.
    assert!(
        texts[0].contains("void keep(mtgp32_kernel_params_t *p)"),
        "{}",
        texts[0]
    );
    assert!(!err.contains("mtgp32_kernel_params_t"), "{err}");
}

// R40-b ----------------------------------------------------------------------------------------

/// A kernel on NCCL's device API over a symmetric window, its header written `quoted` or with
/// angle brackets.
fn nccl_device_program(quoted: bool) -> String {
    let inc = if quoted {
        "#include \"nccl_device.h\""
    } else {
        "#include <nccl_device.h>"
    };
    format!(
        r#"#include <nccl.h>
{inc}

__global__ void sum_peers(ncclWindow_t win, size_t offset, ncclDevComm comm, float *out) {{
  ncclLsaBarrierSession<ncclCoopCta> bar(ncclCoopCta(), comm, ncclTeamLsa(comm), comm.lsaBarrier, blockIdx.x);
  float *peer = (float *)ncclGetLsaPointer(win, offset, 1);
  out[threadIdx.x] = peer[threadIdx.x];
}}

int run(ncclComm_t comm, float *buf, size_t bytes) {{
  ncclWindow_t win;
  ncclCommWindowRegister(comm, buf, bytes, &win, NCCL_WIN_COLL_SYMMETRIC);
  ncclDevCommRequirements reqs = NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER;
  ncclDevComm dev;
  ncclDevCommCreate(comm, &reqs, &dev);
  sum_peers<<<1, 64>>>(win, 0, dev, buf);
  ncclDevCommDestroy(comm, &dev);
  ncclCommWindowDeregister(comm, win);
  return 0;
}}
"#
    )
}

/// The names of the T002 reports in `err`, each once.
fn too_new_names(err: &str) -> Vec<String> {
    let mut names: Vec<String> = reports(err, "T002")
        .iter()
        .filter_map(|l| l.split('`').nth(1).map(str::to_string))
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn r40b_window_and_device_api_are_reported_before_the_rccl_that_has_them() {
    const WINDOW: &[&str] = &[
        "NCCL_WIN_COLL_SYMMETRIC",
        "ncclCommWindowDeregister",
        "ncclCommWindowRegister",
        "ncclWindow_t",
    ];
    const DEVICE: &[&str] = &[
        "NCCL_DEV_COMM_REQUIREMENTS_INITIALIZER",
        "ncclCoopCta",
        "ncclDevComm",
        "ncclDevCommCreate",
        "ncclDevCommDestroy",
        "ncclDevCommRequirements",
        "ncclGetLsaPointer",
        "ncclLsaBarrierSession",
        "ncclTeamLsa",
    ];
    for (hip, window_reported) in [("5.2.3", true), ("6.2", true), ("7.1", false)] {
        let src = nccl_device_program(false);
        let (_, code, err, texts) = cli_convert_in(&[("d.cu", &src)], hip, &["--max-shown", "100"]);
        assert_eq!(code, Some(1), "{hip}: {err}");
        let names = too_new_names(&err);
        for n in DEVICE {
            assert!(
                names.iter().any(|m| m == n),
                "{hip}: no T002 for {n}: {err}"
            );
        }
        for n in WINDOW {
            assert_eq!(
                names.iter().any(|m| m == n),
                window_reported,
                "{hip}: T002 for {n}: {err}"
            );
        }
        // RCCL keeps NCCL's names: nothing is renamed.
        assert!(texts[0]
            .contains("ncclCommWindowRegister(comm, buf, bytes, &win, NCCL_WIN_COLL_SYMMETRIC);"));
        assert!(texts[0].contains("#include <rccl/rccl.h>"), "{}", texts[0]);
    }
}

#[test]
fn r40b_nccl_device_header_is_reported_as_without_rocm_counterpart_both_spellings() {
    for quoted in [true, false] {
        let src = nccl_device_program(quoted);
        let (_, _, err, texts) = cli_convert_in(&[("d.cu", &src)], "6.2", &[]);
        let t007 = reports(&err, "T007");
        assert_eq!(t007.len(), 1, "quoted={quoted}: {err}");
        assert!(t007[0].contains("nccl_device.h"), "{err}");
        assert!(reports(&err, "T025").is_empty(), "quoted={quoted}: {err}");
        assert!(texts[0].contains("nccl_device.h"), "{}", texts[0]);
    }
}

#[test]
fn r40b_older_nccl_host_api_stays_silent() {
    // The host API every RCCL has: renamed header, no report (the neighbour of the above).
    let src = r#"#include <nccl.h>
int sum(ncclComm_t comm, float *buf, size_t n, cudaStream_t s) {
  return ncclAllReduce(buf, buf, n, ncclFloat, ncclSum, comm, s) == ncclSuccess ? 0 : 1;
}
"#;
    let (_, code, err, texts) = cli_convert_in(&[("h.cu", src)], "6.2", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(
        reports(&err, "T002").is_empty() && reports(&err, "T001").is_empty(),
        "{err}"
    );
    assert!(texts[0].contains("#include <rccl/rccl.h>"), "{}", texts[0]);
}

// R39-2 ----------------------------------------------------------------------------------------

const THC_ATOMICS: &str = r#"#include <torch/extension.h>
#include <THC/THCAtomics.cuh>

__global__ void accumulate(at::Half *dst, const at::Half *src, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) gpuAtomicAdd(dst + i, src[i]);
}
"#;

#[test]
fn r39_2_thc_atomics_becomes_aten_atomic_without_an_error() {
    let (_, code, err, texts) = cli_convert_in(&[("k.cu", THC_ATOMICS)], "6.2", &[]);
    assert_eq!(code, Some(0), "{err}");
    assert!(reports(&err, "T007").is_empty(), "{err}");
    assert!(
        texts[0].contains("#include <ATen/hip/Atomic.cuh>\n"),
        "{}",
        texts[0]
    );
    assert!(!texts[0].contains("THC"), "{}", texts[0]);
}

#[test]
fn r39_2_other_thc_headers_stay_errors_and_explain_names_the_replacements() {
    let src =
        "#include <THC/THCDeviceUtils.cuh>\n#include <THC/THCNumerics.cuh>\n#include <THC/THC.h>\n";
    let (_, code, err, _) = cli_convert_in(&[("k.cu", src)], "6.2", &[]);
    assert_eq!(code, Some(1), "{err}");
    assert_eq!(reports(&err, "T007").len(), 3, "{err}");
    let explain = |what: &str| {
        let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
            .args(["explain", what])
            .output()
            .unwrap();
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let du = explain("THC/THCDeviceUtils.cuh");
    assert!(
        du.contains("<ATen/cuda/DeviceUtils.cuh>") && du.contains("at::ceil_div"),
        "{du}"
    );
    let nu = explain("THC/THCNumerics.cuh");
    assert!(nu.contains("<ATen/cuda/NumericLimits.cuh>"), "{nu}");
    let at = explain("THC/THCAtomics.cuh");
    assert!(at.contains("becomes ATen/hip/Atomic.cuh"), "{at}");
}
