//! H054 and a check written as the argument of a project's own checking function or macro
//! whose name starts with `cuda` (`cudaCheck(cudaGetLastError())`, llm.c and SGEMM_CUDA;
//! realuser51 R51-b): the check runs before that call, right after the launch.

use crate::common;
use common::{cli_convert, reports};

fn launch_then(check: &str) -> String {
    format!(
        "\
#include <cstdio>
#include <cuda_runtime.h>
void cudaCheck(cudaError_t e, const char *file, int line) {{
  if (e != cudaSuccess) {{ printf(\"%s:%d %s\\n\", file, line, cudaGetErrorString(e)); }}
}}
#define cudaCheck(err) (cudaCheck(err, __FILE__, __LINE__))
__global__ void k(float *p) {{ p[threadIdx.x] = 0.f; }}
void run(float *p, int n) {{
  k<<<n / 256, 256>>>(p);
{check}
}}
"
    )
}

#[test]
fn a_check_inside_a_cuda_named_helper_is_right_after_the_launch() {
    let (_, err, _) = cli_convert(
        &[("k.cu", &launch_then("  cudaCheck(cudaGetLastError());"))],
        &[],
    );
    assert!(reports(&err, "H054").is_empty(), "{err}");
}

#[test]
fn a_runtime_call_before_the_checking_helper_still_hides_the_launch_error() {
    let src = launch_then("  cudaDeviceSynchronize();\n  cudaCheck(cudaGetLastError());");
    let (_, err, _) = cli_convert(&[("k.cu", &src)], &[]);
    let h054 = reports(&err, "H054");
    assert!(
        h054.len() == 1 && h054[0].contains("`cudaDeviceSynchronize` on line 10"),
        "{err}"
    );
}
