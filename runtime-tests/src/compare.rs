//! Comparisons of kernel outputs with CPU references: relative L2 error under a per-type bound
//! for floating point (NaN never passes), exact equality for integers.

/// Relative L2 bounds per element type.
#[derive(Clone, Copy, Debug)]
pub struct Tol;

impl Tol {
    /// fp32 results.
    pub const F32: f64 = 1e-5;
    /// fp16 and bf16 results.
    pub const HALF: f64 = 1e-2;
    /// fp64 results.
    pub const F64: f64 = 1e-12;
}

/// Relative L2 error of `got` against `want` (both as f64), or an error naming the first NaN or
/// a length mismatch.
pub fn rel_l2(what: &str, got: &[f64], want: &[f64]) -> Result<f64, String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} values, expected {}",
            got.len(),
            want.len()
        ));
    }
    if let Some(i) = got.iter().position(|v| !v.is_finite()) {
        return Err(format!("{what}[{i}] = {} (expected {})", got[i], want[i]));
    }
    let mut num = 0.0f64;
    let mut den = 0.0f64;
    for (g, w) in got.iter().zip(want) {
        num += (g - w) * (g - w);
        den += w * w;
    }
    Ok(if den == 0.0 {
        num.sqrt()
    } else {
        (num / den).sqrt()
    })
}

fn check_l2(what: &str, got: &[f64], want: &[f64], tol: f64) -> Result<(), String> {
    let err = rel_l2(what, got, want)?;
    if err <= tol {
        return Ok(());
    }
    let (i, d) = got
        .iter()
        .zip(want)
        .map(|(g, w)| (g - w).abs())
        .enumerate()
        .fold(
            (0, 0.0f64),
            |acc, (i, d)| if d > acc.1 { (i, d) } else { acc },
        );
    Err(format!(
        "{what}: relative L2 error {err:.3e} > {tol:.0e}; worst at [{i}]: got {}, expected {} (|diff| {d:.3e})",
        got[i], want[i]
    ))
}

/// Compares f32 outputs (an f64 reference is allowed, as `want`) under relative L2 `tol`.
pub fn check_f32(what: &str, got: &[f32], want: &[f64], tol: f64) -> Result<(), String> {
    let g: Vec<f64> = got.iter().map(|&v| v as f64).collect();
    check_l2(what, &g, want, tol)
}

/// Compares f64 outputs under relative L2 `tol`.
pub fn check_f64(what: &str, got: &[f64], want: &[f64], tol: f64) -> Result<(), String> {
    check_l2(what, got, want, tol)
}

/// Compares integer outputs exactly.
pub fn check_exact<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} values, expected {}",
            got.len(),
            want.len()
        ));
    }
    let bad: Vec<usize> = (0..got.len()).filter(|&i| got[i] != want[i]).collect();
    match bad.first() {
        None => Ok(()),
        Some(&i) => Err(format!(
            "{what}: {} of {} values differ; first at [{i}]: got {:?}, expected {:?}",
            bad.len(),
            got.len(),
            got[i],
            want[i]
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nan_never_passes_and_bounds_apply() {
        assert!(check_f32("x", &[1.0, f32::NAN], &[1.0, 2.0], 1.0).is_err());
        assert!(check_f32("x", &[1.0, 2.0], &[1.0, 2.0], 0.0).is_ok());
        assert!(check_f32("x", &[1.0, 2.001], &[1.0, 2.0], 1e-5).is_err());
        assert!(check_f32("x", &[1.0, 2.000001], &[1.0, 2.0], 1e-5).is_ok());
        assert!(check_f32("x", &[1.0], &[1.0, 2.0], 1.0).is_err());
        assert!(check_exact("i", &[1, 2, 3], &[1, 2, 4]).is_err());
        assert!(check_exact("i", &[1, 2, 3], &[1, 2, 3]).is_ok());
    }
}
