//! `hipport doctor`: what HIP, GPUs and PyTorch this machine has.

use crate::diag::DiagInfo;

/// Diagnostics of the doctor.
pub const DIAGS: &[DiagInfo] = &[];
