//! hipTensor's headers by release: 1.x (ROCm 5.7 to 6.4) installs `hiptensor/hiptensor.hpp` and
//! `hiptensor_types.hpp`, 2.0 (ROCm 7.0) `hiptensor/hiptensor.h` and `hiptensor_types.h`; and
//! cuTENSOR 1.x's `cutensorInit`, which hipTensor has no form of (verify23 V23-f).

use crate::common;
use common::{cli_convert_in, reports};

/// A cuTENSOR 1.x program's start, in the shape of NVIDIA's 1.x samples: a handle the caller
/// declares, initialised in place.
const INIT_CU: &str = r#"#include <cutensor.h>
#include <cutensor/types.h>

int run(const int64_t *ext) {
  cutensorHandle_t handle;
  cutensorInit(&handle);
  cutensorTensorDescriptor_t d;
  cutensorInitTensorDescriptor(&handle, &d, 2, ext, nullptr, CUDA_R_32F, CUTENSOR_OP_IDENTITY);
  return 0;
}
"#;

#[test]
fn the_includes_follow_the_target_release() {
    for (hip, api, types) in [
        (
            "5.7",
            "hiptensor/hiptensor.hpp",
            "hiptensor/hiptensor_types.hpp",
        ),
        (
            "6.4",
            "hiptensor/hiptensor.hpp",
            "hiptensor/hiptensor_types.hpp",
        ),
        (
            "7.0",
            "hiptensor/hiptensor.h",
            "hiptensor/hiptensor_types.h",
        ),
        (
            "7.1",
            "hiptensor/hiptensor.h",
            "hiptensor/hiptensor_types.h",
        ),
    ] {
        let (_, _, err, out) = cli_convert_in(&[("t.cu", INIT_CU)], hip, &[]);
        let want = format!("#include <{api}>\n#include <{types}>\n");
        assert!(out[0].starts_with(&want), "HIP {hip}: {}\n{err}", out[0]);
    }
}

#[test]
fn cutensor_init_is_reported_with_the_hiptensor_create_route() {
    let (_, code, err, out) = cli_convert_in(&[("t.cu", INIT_CU)], "6.2", &[]);
    // The call stays as written (hipTensor has no such function), and the run says so.
    assert!(out[0].contains("  cutensorInit(&handle);"), "{}", out[0]);
    assert_eq!(code, Some(1), "{err}");
    let t001 = reports(&err, "T001");
    assert!(
        t001.len() == 1 && t001[0].starts_with("error[T001]: `cutensorInit` "),
        "{err}"
    );
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["explain", "cutensorInit"])
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("hiptensorCreate(&handle)"), "{text}");
    // The other 1.x calls are still renamed, so only the one call is left to do by hand.
    assert!(
        out[0].contains("hiptensorInitTensorDescriptor(&handle, &d,"),
        "{}",
        out[0]
    );
    assert!(reports(&err, "T007").is_empty(), "{err}");
}
