//! rulesfix25: rules-data findings of realuser40/realuser39. cuRAND's MTGP32 names that hipRAND
//! spells differently (R40-c), NCCL's window-registration and device APIs that only newer RCCL
//! releases have (R40-b), and the THC headers with an ATen replacement (R39-2). The inputs are
//! written here. Where the output is said to compile, hipcc 5.2.3 with the installed hipRAND
//! shows it (skipped where hipcc is missing, a failure under `CI=true`).

mod common;
use common::{cli_convert_in, have_tool, hipcc_compile, reports};

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
