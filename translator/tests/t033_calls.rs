//! T033 at each call (V22-c): a file with cuTENSOR 1.x's handle calls (which fit hipTensor 1.x,
//! a note) and, later, cuTENSOR 2.x's (which do not, a warning) reports both, whichever comes
//! first.

use crate::common;
use common::{convert_exact, diags};

const LEGACY: &str = "\
// cuTENSOR 1.x
struct Legacy {
  cutensorHandle_t *handle_ = nullptr;
  void init() { cutensorCreate(&handle_); }
  ~Legacy() { if (handle_) cutensorDestroy(handle_); }
};
";

const V2: &str = "\
// cuTENSOR 2.x
int run_v2() {
  cutensorHandle_t handle;
  cutensorCreate(&handle);
  cutensorDestroy(handle);
  return 0;
}
";

/// (severity[T033], line) of `src`'s T033 reports at HIP 6.2, in line order.
fn t033(src: &str) -> Vec<(String, usize)> {
    let (_, err) = convert_exact(&[("t.cu", src)], &["--hip-version", "6.2"]);
    let mut found: Vec<(String, usize)> = diags(&err, "t.cu")
        .into_iter()
        .filter(|d| d.0.ends_with("[T033]"))
        .map(|d| (d.0, d.1))
        .collect();
    found.sort_by_key(|d| d.1);
    found
}

#[test]
fn a_1x_call_before_a_2x_call_does_not_hide_the_2x_warning() {
    let src = format!("#include <cutensor.h>\n{LEGACY}{V2}");
    let found = t033(&src);
    let note = |l| ("note[T033]".to_string(), l);
    let warning = |l| ("warning[T033]".to_string(), l);
    assert_eq!(
        found,
        vec![note(5), note(6), warning(11), warning(12)],
        "{found:?}"
    );
    // The other order gives the same reports.
    let src = format!("#include <cutensor.h>\n{V2}{LEGACY}");
    let found = t033(&src);
    assert_eq!(
        found,
        vec![warning(5), warning(6), note(12), note(13)],
        "{found:?}"
    );
}

#[test]
fn a_repeated_2x_call_is_reported_at_each_place() {
    let src = format!("#include <cutensor.h>\n{V2}int again() {{\n  cutensorHandle_t h;\n  cutensorCreate(&h);\n  return 0;\n}}\n");
    let (_, err) = convert_exact(&[("t.cu", &src)], &["--hip-version", "6.2"]);
    // The second `cutensorCreate` (line 11) folds into the first's report.
    assert!(
        err.contains("the same in 1 more place of this file: line 11"),
        "{err}"
    );
}
