//! Numeric tests of every corpus kernel: each launcher runs on fresh random inputs (seed printed),
//! outputs are poisoned beforehand (NaN for floats, 0xDEADBEEF for integers), and every element is
//! compared with a CPU reference written here. See `runtime_tests::run_kernel` for the backends.

use half::{bf16, f16};
use runtime_tests::{check_exact, check_f32, check_f64, launched, run_kernel, KernelLib, Rng, Tol};

const POISON: i32 = 0xDEAD_BEEFu32 as i32;
const POISON_U: u32 = 0xDEAD_BEEF;

fn nan(n: usize) -> Vec<f32> {
    vec![f32::NAN; n]
}

fn widen(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| x as f64).collect()
}

#[test]
fn vector_add() {
    run_kernel("vector_add", |k: &KernelLib, r: &mut Rng| {
        let f: unsafe extern "C" fn(*const f32, *const f32, *mut f32, i32) -> i32 =
            unsafe { k.get("vector_add_f32")? };
        let n = r.usize_in(1, 5000);
        let (a, b) = (r.vec_f32(n, -10.0, 10.0), r.vec_f32(n, -10.0, 10.0));
        let mut c = nan(n);
        launched("vector_add_f32", unsafe {
            f(a.as_ptr(), b.as_ptr(), c.as_mut_ptr(), n as i32)
        })?;
        let want: Vec<f64> = (0..n).map(|i| (a[i] + b[i]) as f64).collect();
        check_f32("c", &c, &want, Tol::F32)
    });
}

#[test]
fn saxpy_grid_stride() {
    run_kernel("saxpy_grid_stride", |k, r| {
        let f: unsafe extern "C" fn(f32, *const f32, *mut f32, i32) -> i32 =
            unsafe { k.get("saxpy_f32")? };
        let n = r.usize_in(1, 200_000);
        let a = r.f32_in(-3.0, 3.0);
        let x = r.vec_f32(n, -1.0, 1.0);
        let y0 = r.vec_f32(n, -1.0, 1.0);
        let mut y = y0.clone();
        launched("saxpy_f32", unsafe {
            f(a, x.as_ptr(), y.as_mut_ptr(), n as i32)
        })?;
        let want: Vec<f64> = (0..n)
            .map(|i| a as f64 * x[i] as f64 + y0[i] as f64)
            .collect();
        check_f32("y", &y, &want, Tol::F32)
    });
}

#[test]
fn activations() {
    run_kernel("activations", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("activation_f32")? };
        let n = r.usize_in(1, 4000);
        let x = r.vec_f32(n, -6.0, 6.0);
        for op in 0..3 {
            let mut y = nan(n);
            launched("activation_f32", unsafe {
                f(x.as_ptr(), y.as_mut_ptr(), n as i32, op)
            })?;
            let want: Vec<f64> = x
                .iter()
                .map(|&v| {
                    let v = v as f64;
                    match op {
                        0 => v.max(0.0),
                        1 => {
                            0.5 * v
                                * (1.0
                                    + (0.797_884_560_802_865_4 * (v + 0.044715 * v * v * v)).tanh())
                        }
                        _ => v / (1.0 + (-v).exp()),
                    }
                })
                .collect();
            check_f32(&format!("op {op}"), &y, &want, Tol::F32)?;
        }
        let mut y = nan(4);
        let rc = unsafe { f(x.as_ptr(), y.as_mut_ptr(), 4.min(n as i32), 7) };
        if rc == 0 {
            return Err("activation_f32 accepted op 7".into());
        }
        Ok(())
    });
}

#[test]
fn bit_ops() {
    run_kernel("bit_ops", |k, r| {
        let f: unsafe extern "C" fn(*const u32, *mut u32, i32) -> i32 =
            unsafe { k.get("bit_ops_u32")? };
        let n = r.usize_in(1, 3000);
        let mut x: Vec<u32> = (0..n).map(|_| r.next_u32() >> r.usize_in(0, 31)).collect();
        x[0] = 0;
        let mut out = vec![POISON_U; 4 * n];
        launched("bit_ops_u32", unsafe {
            f(x.as_ptr(), out.as_mut_ptr(), n as i32)
        })?;
        let mut want = Vec::with_capacity(4 * n);
        for &v in &x {
            let (pc, lz, rev) = (v.count_ones(), v.leading_zeros(), v.reverse_bits());
            want.extend([
                pc,
                lz,
                rev,
                v.wrapping_mul(2_654_435_761) ^ (rev >> 7) ^ ((pc << 8) | lz),
            ]);
        }
        check_exact("out", &out, &want)
    });
}

#[test]
fn reduce_sum_shared() {
    run_kernel("reduce_sum_shared", |k, r| {
        let f: unsafe extern "C" fn(*const f32, i32, *mut f32) -> i32 =
            unsafe { k.get("reduce_sum_f32")? };
        for n in [1, 511, 512, 513, r.usize_in(1000, 300_000)] {
            let x = r.vec_f32(n, 0.0, 1.0);
            let mut s = f32::NAN;
            launched("reduce_sum_f32", unsafe { f(x.as_ptr(), n as i32, &mut s) })?;
            let want: f64 = x.iter().map(|&v| v as f64).sum();
            check_f32(&format!("sum of {n}"), &[s], &[want], Tol::F32)?;
        }
        Ok(())
    });
}

#[test]
fn reduce_max_shared() {
    run_kernel("reduce_max_shared", |k, r| {
        let f: unsafe extern "C" fn(*const i32, i32, *mut i32) -> i32 =
            unsafe { k.get("reduce_max_i32")? };
        for n in [1, 255, r.usize_in(256, 100_000)] {
            let x = r.vec_i32(n, -1_000_000, 1_000_000);
            let mut m = POISON;
            launched("reduce_max_i32", unsafe { f(x.as_ptr(), n as i32, &mut m) })?;
            check_exact(
                &format!("max of {n}"),
                &[m],
                &[*x.iter().max().unwrap_or(&i32::MIN)],
            )?;
        }
        Ok(())
    });
}

/// Reference for kernels that divide each segment of `seg` elements by its sum.
fn segment_normalize(x: &[f32], seg: usize) -> (Vec<f64>, Vec<f64>) {
    let sums: Vec<f64> = x
        .chunks(seg)
        .map(|c| c.iter().map(|&v| v as f64).sum())
        .collect();
    let out = x
        .iter()
        .enumerate()
        .map(|(i, &v)| v as f64 / sums[i / seg])
        .collect();
    (out, sums)
}

type Normalize = unsafe extern "C" fn(*const f32, *mut f32, *mut f32, i32) -> i32;

fn check_segment_normalize(k: &KernelLib, r: &mut Rng, symbol: &str) -> Result<(), String> {
    let f: Normalize = unsafe { k.get(symbol)? };
    // At least two segments: with one, a kernel that hard-codes 32 lanes gives the right answer
    // on a 64-lane wavefront too, and the wave64 run would pass when it is expected to fail.
    let n = r.usize_in(33, 20_000);
    let x = r.vec_f32(n, 0.5, 1.5);
    let mut out = nan(n);
    let mut sums = nan(n.div_ceil(32));
    launched(symbol, unsafe {
        f(x.as_ptr(), out.as_mut_ptr(), sums.as_mut_ptr(), n as i32)
    })?;
    let (want, want_sums) = segment_normalize(&x, 32);
    check_f32("segment sums", &sums, &want_sums, Tol::F32)?;
    check_f32("out", &out, &want, Tol::F32)
}

#[test]
fn warp_reduce_hardcoded32() {
    run_kernel("warp_reduce_hardcoded32", |k, r| {
        check_segment_normalize(k, r, "warp_segment_normalize32_f32")
    });
}

#[test]
fn warp_segment_portable() {
    run_kernel("warp_segment_portable", |k, r| {
        check_segment_normalize(k, r, "warp_segment_normalize_f32")
    });
}

#[test]
fn warp_reduce_portable() {
    run_kernel("warp_reduce_portable", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("warp_block_normalize_f32")? };
        for block in [64usize, 128, 256, 1024] {
            let n = r.usize_in(1, 20_000);
            let x = r.vec_f32(n, 0.5, 1.5);
            let mut out = nan(n);
            let mut sums = nan(n.div_ceil(block));
            launched("warp_block_normalize_f32", unsafe {
                f(
                    x.as_ptr(),
                    out.as_mut_ptr(),
                    sums.as_mut_ptr(),
                    n as i32,
                    block as i32,
                )
            })?;
            let (want, want_sums) = segment_normalize(&x, block);
            check_f32(&format!("block {block} sums"), &sums, &want_sums, Tol::F32)?;
            check_f32(&format!("block {block} out"), &out, &want, Tol::F32)?;
        }
        Ok(())
    });
}

fn segmented_inclusive_scan(x: &[i32], seg: usize) -> Vec<i32> {
    let mut out = Vec::with_capacity(x.len());
    for c in x.chunks(seg) {
        let mut acc = 0i32;
        for &v in c {
            acc = acc.wrapping_add(v);
            out.push(acc);
        }
    }
    out
}

#[test]
fn warp_scan_portable() {
    run_kernel("warp_scan_portable", |k, r| {
        let f: unsafe extern "C" fn(*const i32, *mut i32, i32, i32) -> i32 =
            unsafe { k.get("block_inclusive_scan_i32")? };
        for block in [32usize, 64, 256, 1024] {
            let n = r.usize_in(1, 10_000);
            let x = r.vec_i32(n, -100, 100);
            let mut out = vec![POISON; n];
            launched("block_inclusive_scan_i32", unsafe {
                f(x.as_ptr(), out.as_mut_ptr(), n as i32, block as i32)
            })?;
            check_exact(
                &format!("block {block}"),
                &out,
                &segmented_inclusive_scan(&x, block),
            )?;
        }
        Ok(())
    });
}

#[test]
fn warp_scan_hardcoded32() {
    run_kernel("warp_scan_hardcoded32", |k, r| {
        let f: unsafe extern "C" fn(*const i32, *mut i32, i32) -> i32 =
            unsafe { k.get("block_inclusive_scan32_i32")? };
        let n = r.usize_in(300, 10_000);
        let x = r.vec_i32(n, -100, 100);
        let mut out = vec![POISON; n];
        launched("block_inclusive_scan32_i32", unsafe {
            f(x.as_ptr(), out.as_mut_ptr(), n as i32)
        })?;
        check_exact("scan", &out, &segmented_inclusive_scan(&x, 256))
    });
}

#[test]
fn ballot_count_hardcoded32() {
    run_kernel("ballot_count_hardcoded32", |k, r| {
        let f: unsafe extern "C" fn(*const i32, *mut i32, *mut i32, *mut i32, i32) -> i32 =
            unsafe { k.get("compact_positive32_i32")? };
        let n = r.usize_in(100, 10_000);
        let x = r.vec_i32(n, -50, 50);
        let mut out = vec![POISON; n];
        let mut counts = vec![POISON; n.div_ceil(32)];
        let mut kept = POISON;
        launched("compact_positive32_i32", unsafe {
            f(
                x.as_ptr(),
                out.as_mut_ptr(),
                counts.as_mut_ptr(),
                &mut kept,
                n as i32,
            )
        })?;
        let want_counts: Vec<i32> = x
            .chunks(32)
            .map(|c| c.iter().filter(|&&v| v > 0).count() as i32)
            .collect();
        check_exact("per-warp counts", &counts, &want_counts)?;
        let mut positives: Vec<i32> = x.iter().copied().filter(|&v| v > 0).collect();
        check_exact("kept", &[kept], &[positives.len() as i32])?;
        let mut got = out[..positives.len()].to_vec();
        got.sort_unstable();
        positives.sort_unstable();
        check_exact("compacted values (sorted)", &got, &positives)
    });
}

#[test]
fn block_count_portable() {
    run_kernel("block_count_portable", |k, r| {
        let f: unsafe extern "C" fn(*const i32, *mut i32, *mut i32, i32, i32) -> i32 =
            unsafe { k.get("block_compact_i32")? };
        for block in [64usize, 128, 256] {
            let n = r.usize_in(1, 5000);
            let x = r.vec_i32(n, -50, 50);
            let blocks = n.div_ceil(block);
            let mut out = vec![POISON; blocks * block];
            let mut counts = vec![POISON; blocks];
            launched("block_compact_i32", unsafe {
                f(
                    x.as_ptr(),
                    out.as_mut_ptr(),
                    counts.as_mut_ptr(),
                    n as i32,
                    block as i32,
                )
            })?;
            let mut want = vec![0; blocks * block];
            let mut want_counts = Vec::new();
            for (b, c) in x.chunks(block).enumerate() {
                let kept: Vec<i32> = c.iter().copied().filter(|&v| v > 0).collect();
                want[b * block..b * block + kept.len()].copy_from_slice(&kept);
                want_counts.push(kept.len() as i32);
            }
            check_exact(&format!("block {block} counts"), &counts, &want_counts)?;
            check_exact(&format!("block {block} out"), &out, &want)?;
        }
        Ok(())
    });
}

#[test]
fn histogram_int_atomic() {
    run_kernel("histogram_int_atomic", |k, r| {
        let f: unsafe extern "C" fn(*const u8, i32, *mut u32) -> i32 =
            unsafe { k.get("histogram256_u8")? };
        let n = r.usize_in(1, 100_000);
        // Skewed bytes so that some bins collide often.
        let data: Vec<u8> = (0..n)
            .map(|_| (r.next_u32() % 256).min(r.next_u32() % 256) as u8)
            .collect();
        let mut hist = vec![POISON_U; 256];
        launched("histogram256_u8", unsafe {
            f(data.as_ptr(), n as i32, hist.as_mut_ptr())
        })?;
        let mut want = vec![0u32; 256];
        for &b in &data {
            want[b as usize] += 1;
        }
        check_exact("hist", &hist, &want)
    });
}

#[test]
fn histogram_float_atomic() {
    run_kernel("histogram_float_atomic", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *const f32, i32, f32, f32, i32, *mut f32) -> i32 =
            unsafe { k.get("weighted_histogram_f32")? };
        let n = r.usize_in(1, 50_000);
        let bins = r.usize_in(1, 100);
        let (lo, hi) = (-2.0f32, 3.0f32);
        let x = r.vec_f32(n, -3.0, 4.0);
        let w = r.vec_f32(n, 0.0, 1.0);
        let mut hist = nan(bins);
        launched("weighted_histogram_f32", unsafe {
            f(
                x.as_ptr(),
                w.as_ptr(),
                n as i32,
                lo,
                hi,
                bins as i32,
                hist.as_mut_ptr(),
            )
        })?;
        let mut want = vec![0f64; bins];
        for i in 0..n {
            let v = x[i];
            if v >= lo && v < hi {
                let b = (((v - lo) / (hi - lo) * bins as f32) as usize).min(bins - 1);
                want[b] += w[i] as f64;
            }
        }
        check_f32("hist", &hist, &want, Tol::F32)
    });
}

fn matmul_ref(a: &[f32], b: &[f32], m: usize, n: usize, kk: usize) -> Vec<f64> {
    let mut c = vec![0f64; m * n];
    for i in 0..m {
        for j in 0..n {
            c[i * n + j] = (0..kk)
                .map(|p| a[i * kk + p] as f64 * b[p * n + j] as f64)
                .sum();
        }
    }
    c
}

#[test]
fn matmul_tiled() {
    run_kernel("matmul_tiled", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *const f32, *mut f32, i32, i32, i32) -> i32 =
            unsafe { k.get("matmul_tiled_f32")? };
        let (m, n, kk) = (r.usize_in(1, 80), r.usize_in(1, 80), r.usize_in(1, 80));
        let a = r.vec_f32(m * kk, -1.0, 1.0);
        let b = r.vec_f32(kk * n, -1.0, 1.0);
        let mut c = nan(m * n);
        launched("matmul_tiled_f32", unsafe {
            f(
                a.as_ptr(),
                b.as_ptr(),
                c.as_mut_ptr(),
                m as i32,
                n as i32,
                kk as i32,
            )
        })?;
        check_f32(
            &format!("C ({m}x{n}x{kk})"),
            &c,
            &matmul_ref(&a, &b, m, n, kk),
            Tol::F32,
        )
    });
}

#[test]
fn transpose_padded() {
    run_kernel("transpose_padded", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("transpose_f32")? };
        let (rows, cols) = (r.usize_in(1, 200), r.usize_in(1, 200));
        let a = r.vec_f32(rows * cols, -1.0, 1.0);
        let mut t = nan(rows * cols);
        launched("transpose_f32", unsafe {
            f(a.as_ptr(), t.as_mut_ptr(), rows as i32, cols as i32)
        })?;
        let mut want = vec![0f32; rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                want[j * rows + i] = a[i * cols + j];
            }
        }
        let (g, w): (Vec<u32>, Vec<u32>) = (
            t.iter().map(|v| v.to_bits()).collect(),
            want.iter().map(|v| v.to_bits()).collect(),
        );
        check_exact(&format!("transpose {rows}x{cols} (bits)"), &g, &w)
    });
}

/// Storage types of the PyTorch-style kernels: 0 f32, 1 f16, 2 bf16.
#[derive(Clone, Copy, Debug)]
enum Dtype {
    F32,
    F16,
    Bf16,
}

impl Dtype {
    const ALL: [Dtype; 3] = [Dtype::F32, Dtype::F16, Dtype::Bf16];
    fn code(self) -> i32 {
        self as i32
    }
    fn tol(self) -> f64 {
        match self {
            Dtype::F32 => Tol::F32,
            _ => Tol::HALF,
        }
    }
    /// Rounds to the storage type (returned as f32 values).
    fn round(self, v: &[f32]) -> Vec<f32> {
        match self {
            Dtype::F32 => v.to_vec(),
            Dtype::F16 => v.iter().map(|&x| f16::from_f32(x).to_f32()).collect(),
            Dtype::Bf16 => v.iter().map(|&x| bf16::from_f32(x).to_f32()).collect(),
        }
    }
    fn encode(self, v: &[f32]) -> Vec<u8> {
        match self {
            Dtype::F32 => v.iter().flat_map(|x| x.to_ne_bytes()).collect(),
            Dtype::F16 => v
                .iter()
                .flat_map(|&x| f16::from_f32(x).to_bits().to_ne_bytes())
                .collect(),
            Dtype::Bf16 => v
                .iter()
                .flat_map(|&x| bf16::from_f32(x).to_bits().to_ne_bytes())
                .collect(),
        }
    }
    /// An output buffer of `n` NaNs in this type.
    fn poisoned(self, n: usize) -> Vec<u8> {
        self.encode(&nan(n))
    }
    fn decode(self, b: &[u8]) -> Vec<f32> {
        match self {
            Dtype::F32 => b
                .chunks(4)
                .map(|c| f32::from_ne_bytes([c[0], c[1], c[2], c[3]]))
                .collect(),
            Dtype::F16 => b
                .chunks(2)
                .map(|c| f16::from_bits(u16::from_ne_bytes([c[0], c[1]])).to_f32())
                .collect(),
            Dtype::Bf16 => b
                .chunks(2)
                .map(|c| bf16::from_bits(u16::from_ne_bytes([c[0], c[1]])).to_f32())
                .collect(),
        }
    }
}

#[test]
fn softmax_dispatch() {
    run_kernel("softmax_dispatch", |k, r| {
        let f: unsafe extern "C" fn(*const u8, *mut u8, i32, i32, i32) -> i32 =
            unsafe { k.get("softmax_forward")? };
        for dt in Dtype::ALL {
            let (rows, cols) = (r.usize_in(1, 40), r.usize_in(1, 700));
            let x = dt.round(&r.vec_f32(rows * cols, -8.0, 8.0));
            let input = dt.encode(&x);
            let mut out = dt.poisoned(rows * cols);
            launched("softmax_forward", unsafe {
                f(
                    input.as_ptr(),
                    out.as_mut_ptr(),
                    rows as i32,
                    cols as i32,
                    dt.code(),
                )
            })?;
            let mut want = Vec::with_capacity(rows * cols);
            for row in x.chunks(cols) {
                let m = row.iter().fold(f64::MIN, |a, &v| a.max(v as f64));
                let s: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
                want.extend(row.iter().map(|&v| (v as f64 - m).exp() / s));
            }
            check_f32(
                &format!("{dt:?} {rows}x{cols}"),
                &dt.decode(&out),
                &want,
                dt.tol(),
            )?;
        }
        let mut out = [0u8; 16];
        if unsafe { f([0u8; 16].as_ptr(), out.as_mut_ptr(), 1, 4, 9) } == 0 {
            return Err("softmax_forward accepted dtype 9".into());
        }
        Ok(())
    });
}

/// Row-wise LayerNorm in f64: the outputs, and each row's mean and reciprocal deviation.
fn layer_norm_ref(
    x: &[f32],
    g: &[f32],
    b: &[f32],
    cols: usize,
    eps: f64,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    let (mut y, mut means, mut rstds) = (Vec::new(), Vec::new(), Vec::new());
    for row in x.chunks(cols) {
        let m = row.iter().map(|&v| v as f64).sum::<f64>() / cols as f64;
        let var = row.iter().map(|&v| (v as f64 - m).powi(2)).sum::<f64>() / cols as f64;
        let rs = 1.0 / (var + eps).sqrt();
        means.push(m);
        rstds.push(rs);
        y.extend(
            row.iter()
                .enumerate()
                .map(|(j, &v)| (v as f64 - m) * rs * g[j] as f64 + b[j] as f64),
        );
    }
    (y, means, rstds)
}

#[test]
fn layer_norm_dispatch() {
    run_kernel("layer_norm_dispatch", |k, r| {
        type LayerNorm = unsafe extern "C" fn(
            *const u8,
            *const u8,
            *const u8,
            *mut u8,
            *mut f32,
            *mut f32,
            i32,
            i32,
            f32,
            i32,
        ) -> i32;
        let f: LayerNorm = unsafe { k.get("layer_norm_forward")? };
        for dt in Dtype::ALL {
            let (rows, cols) = (r.usize_in(1, 30), r.usize_in(1, 1000));
            let eps = 1e-5f32;
            let x = dt.round(&r.vec_f32(rows * cols, -3.0, 5.0));
            let g = dt.round(&r.vec_f32(cols, 0.5, 1.5));
            let b = dt.round(&r.vec_f32(cols, -0.5, 0.5));
            let (xe, ge, be) = (dt.encode(&x), dt.encode(&g), dt.encode(&b));
            let mut y = dt.poisoned(rows * cols);
            let (mut mean, mut rstd) = (nan(rows), nan(rows));
            launched("layer_norm_forward", unsafe {
                f(
                    xe.as_ptr(),
                    ge.as_ptr(),
                    be.as_ptr(),
                    y.as_mut_ptr(),
                    mean.as_mut_ptr(),
                    rstd.as_mut_ptr(),
                    rows as i32,
                    cols as i32,
                    eps,
                    dt.code(),
                )
            })?;
            let (wy, wm, wr) = layer_norm_ref(&x, &g, &b, cols, eps as f64);
            check_f32(&format!("{dt:?} mean"), &mean, &wm, Tol::F32)?;
            check_f32(&format!("{dt:?} rstd"), &rstd, &wr, 1e-4)?;
            check_f32(
                &format!("{dt:?} y {rows}x{cols}"),
                &dt.decode(&y),
                &wy,
                dt.tol().max(1e-4),
            )?;
        }
        Ok(())
    });
}

/// 32-lane code throughout (lane masks of 31, shifts by 5, 32 partials, XOR reductions from
/// 16): right on 64-lane wavefronts too, whatever the block size.
#[test]
fn layer_norm_halves_hardcoded32() {
    run_kernel("layer_norm_halves_hardcoded32", |k, r| {
        type LayerNorm = unsafe extern "C" fn(
            *const f32,
            *const f32,
            *const f32,
            *mut f32,
            i32,
            i32,
            i32,
        ) -> i32;
        let f: LayerNorm = unsafe { k.get("layer_norm_halves_f32")? };
        for threads in [32, 64, 96, 256, 1024] {
            let (rows, cols) = (r.usize_in(1, 20), r.usize_in(1, 2000));
            let x = r.vec_f32(rows * cols, -3.0, 5.0);
            let g = r.vec_f32(cols, 0.5, 1.5);
            let b = r.vec_f32(cols, -0.5, 0.5);
            let mut y = nan(rows * cols);
            launched("layer_norm_halves_f32", unsafe {
                f(
                    x.as_ptr(),
                    g.as_ptr(),
                    b.as_ptr(),
                    y.as_mut_ptr(),
                    rows as i32,
                    cols as i32,
                    threads,
                )
            })?;
            let want = layer_norm_ref(&x, &g, &b, cols, 1e-5).0;
            check_f32(
                &format!("{threads} threads, {rows}x{cols}"),
                &y,
                &want,
                1e-4,
            )?;
        }
        Ok(())
    });
}

#[test]
fn stencil_1d() {
    run_kernel("stencil_1d", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, *const f32) -> i32 =
            unsafe { k.get("stencil_1d_f32")? };
        let n = r.usize_in(1, 10_000);
        let x = r.vec_f32(n, -1.0, 1.0);
        let w = r.vec_f32(7, -1.0, 1.0);
        let mut y = nan(n);
        launched("stencil_1d_f32", unsafe {
            f(x.as_ptr(), y.as_mut_ptr(), n as i32, w.as_ptr())
        })?;
        let want: Vec<f64> = (0..n as i64)
            .map(|i| {
                (-3..=3i64)
                    .filter(|o| (0..n as i64).contains(&(i + o)))
                    .map(|o| w[(o + 3) as usize] as f64 * x[(i + o) as usize] as f64)
                    .sum()
            })
            .collect();
        check_f32("y", &y, &want, Tol::F32)
    });
}

#[test]
fn stencil_2d_jacobi() {
    run_kernel("stencil_2d_jacobi", |k, r| {
        let f: unsafe extern "C" fn(*mut f32, i32, i32, i32) -> i32 =
            unsafe { k.get("jacobi_2d_f32")? };
        let (nx, ny, iters) = (r.usize_in(3, 70), r.usize_in(3, 70), r.usize_in(1, 20));
        let g0 = r.vec_f32(nx * ny, 0.0, 1.0);
        let mut g = g0.clone();
        launched("jacobi_2d_f32", unsafe {
            f(g.as_mut_ptr(), nx as i32, ny as i32, iters as i32)
        })?;
        let mut u: Vec<f64> = widen(&g0);
        for _ in 0..iters {
            let mut v = u.clone();
            for y in 1..ny - 1 {
                for x in 1..nx - 1 {
                    let at = |yy: usize, xx: usize| u[yy * nx + xx];
                    v[y * nx + x] =
                        0.25 * (at(y, x - 1) + at(y, x + 1) + at(y - 1, x) + at(y + 1, x));
                }
            }
            u = v;
        }
        check_f32(&format!("grid {nx}x{ny} after {iters}"), &g, &u, Tol::F32)
    });
}

#[test]
fn bitonic_sort() {
    run_kernel("bitonic_sort", |k, r| {
        let f: unsafe extern "C" fn(*mut u32, i32) -> i32 = unsafe { k.get("bitonic_sort_u32")? };
        for log in [9usize, 10, r.usize_in(11, 15)] {
            let n = 1usize << log;
            let mut keys: Vec<u32> = (0..n).map(|_| r.next_u32() % (n as u32 * 2)).collect();
            let mut want = keys.clone();
            want.sort_unstable();
            launched("bitonic_sort_u32", unsafe {
                f(keys.as_mut_ptr(), n as i32)
            })?;
            check_exact(&format!("sorted {n}"), &keys, &want)?;
        }
        let mut odd = vec![3u32; 600];
        if unsafe { f(odd.as_mut_ptr(), 600) } == 0 {
            return Err("bitonic_sort_u32 accepted n = 600".into());
        }
        Ok(())
    });
}

#[test]
fn spmv_csr() {
    run_kernel("spmv_csr", |k, r| {
        type Spmv = unsafe extern "C" fn(
            i32,
            i32,
            i32,
            *const i32,
            *const i32,
            *const f32,
            *const f32,
            *mut f32,
        ) -> i32;
        for sym in ["spmv_csr_scalar_f32", "spmv_csr_vector_f32"] {
            let f: Spmv = unsafe { k.get(sym)? };
            let (rows, cols) = (r.usize_in(1, 500), r.usize_in(1, 500));
            let mut row_ptr = vec![0i32];
            let (mut col_idx, mut vals) = (Vec::new(), Vec::new());
            for _ in 0..rows {
                // Some empty rows, some longer than a wavefront.
                let nnz = if r.usize_in(0, 9) == 0 {
                    0
                } else {
                    r.usize_in(1, 150.min(cols))
                };
                for _ in 0..nnz {
                    col_idx.push(r.usize_in(0, cols - 1) as i32);
                    vals.push(r.f32_in(-1.0, 1.0));
                }
                row_ptr.push(col_idx.len() as i32);
            }
            let x = r.vec_f32(cols, -1.0, 1.0);
            let mut y = nan(rows);
            launched(sym, unsafe {
                f(
                    rows as i32,
                    cols as i32,
                    vals.len() as i32,
                    row_ptr.as_ptr(),
                    col_idx.as_ptr(),
                    vals.as_ptr(),
                    x.as_ptr(),
                    y.as_mut_ptr(),
                )
            })?;
            let want: Vec<f64> = (0..rows)
                .map(|i| {
                    (row_ptr[i] as usize..row_ptr[i + 1] as usize)
                        .map(|j| vals[j] as f64 * x[col_idx[j] as usize] as f64)
                        .sum()
                })
                .collect();
            check_f32(sym, &y, &want, Tol::F32)?;
        }
        Ok(())
    });
}

#[test]
fn curand_uniform() {
    run_kernel("curand_uniform", |k, r| {
        let f: unsafe extern "C" fn(u64, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("curand_uniform_f32")? };
        let (threads, per) = (1024usize, 64usize);
        let seed = r.next_u64();
        let mut a = nan(threads * per);
        let mut b = nan(threads * per);
        launched("curand_uniform_f32", unsafe {
            f(seed, a.as_mut_ptr(), threads as i32, per as i32)
        })?;
        launched("curand_uniform_f32", unsafe {
            f(seed, b.as_mut_ptr(), threads as i32, per as i32)
        })?;
        // curand_uniform returns values in (0, 1]; the sequence itself is generator specific, so the
        // checks are the range, the first two moments (1/2 and 1/12, each within about 10 standard
        // errors for 65536 draws), that each thread has its own subsequence, and determinism.
        if let Some(i) = a.iter().position(|&v| !(v > 0.0 && v <= 1.0)) {
            return Err(format!("draw {i} = {} is outside (0, 1]", a[i]));
        }
        let n = a.len() as f64;
        let mean = a.iter().map(|&v| v as f64).sum::<f64>() / n;
        let var = a.iter().map(|&v| (v as f64 - mean).powi(2)).sum::<f64>() / n;
        if (mean - 0.5).abs() > 0.011 || (var - 1.0 / 12.0).abs() > 0.003 {
            return Err(format!(
                "mean {mean:.5} / variance {var:.5} are not those of U(0,1]"
            ));
        }
        let first: Vec<u32> = (0..threads).map(|t| a[t].to_bits()).collect();
        let mut distinct = first.clone();
        distinct.sort_unstable();
        distinct.dedup();
        if distinct.len() < threads * 99 / 100 {
            return Err(format!(
                "only {} distinct first draws over {threads} threads",
                distinct.len()
            ));
        }
        let (ab, bb): (Vec<u32>, Vec<u32>) = (
            a.iter().map(|v| v.to_bits()).collect(),
            b.iter().map(|v| v.to_bits()).collect(),
        );
        check_exact("same seed, same draws", &bb, &ab)
    });
}

#[test]
fn cublas_sgemm() {
    run_kernel("cublas_sgemm", |k, r| {
        let f: unsafe extern "C" fn(
            *const f32,
            *const f32,
            *mut f32,
            i32,
            i32,
            i32,
            f32,
            f32,
        ) -> i32 = unsafe { k.get("cublas_sgemm_rowmajor")? };
        let (m, n, kk) = (r.usize_in(1, 64), r.usize_in(1, 64), r.usize_in(1, 64));
        let (alpha, beta) = (r.f32_in(-2.0, 2.0), r.f32_in(-1.0, 1.0));
        let a = r.vec_f32(m * kk, -1.0, 1.0);
        let b = r.vec_f32(kk * n, -1.0, 1.0);
        let c0 = r.vec_f32(m * n, -1.0, 1.0);
        let mut c = c0.clone();
        launched("cublas_sgemm_rowmajor", unsafe {
            f(
                a.as_ptr(),
                b.as_ptr(),
                c.as_mut_ptr(),
                m as i32,
                n as i32,
                kk as i32,
                alpha,
                beta,
            )
        })?;
        let ab = matmul_ref(&a, &b, m, n, kk);
        let want: Vec<f64> = (0..m * n)
            .map(|i| alpha as f64 * ab[i] + beta as f64 * c0[i] as f64)
            .collect();
        check_f32("C", &c, &want, Tol::F32)
    });
}

#[test]
fn cub_block_reduce() {
    run_kernel("cub_block_reduce", |k, r| {
        let f: unsafe extern "C" fn(*const i32, i32, *mut i32, *mut i32) -> i32 =
            unsafe { k.get("cub_block_sum_max_i32")? };
        let n = r.usize_in(1, 20_000);
        let x = r.vec_i32(n, -1000, 1000);
        let blocks = n.div_ceil(512);
        let (mut sums, mut maxes) = (vec![POISON; blocks], vec![POISON; blocks]);
        launched("cub_block_sum_max_i32", unsafe {
            f(x.as_ptr(), n as i32, sums.as_mut_ptr(), maxes.as_mut_ptr())
        })?;
        let want_sums: Vec<i32> = x.chunks(512).map(|c| c.iter().sum()).collect();
        // Items past the end count as 0, also for the maximum.
        let want_max: Vec<i32> = x
            .chunks(512)
            .map(|c| {
                let m = *c.iter().max().unwrap_or(&0);
                if c.len() < 512 {
                    m.max(0)
                } else {
                    m
                }
            })
            .collect();
        check_exact("sums", &sums, &want_sums)?;
        check_exact("maxes", &maxes, &want_max)
    });
}

fn check_block_sums(k: &KernelLib, r: &mut Rng, symbol: &str, block: usize) -> Result<(), String> {
    let f: unsafe extern "C" fn(*const f32, i32, *mut f32) -> i32 = unsafe { k.get(symbol)? };
    let n = r.usize_in(1, 30_000);
    let x = r.vec_f32(n, 0.0, 1.0);
    let mut sums = nan(n.div_ceil(block));
    launched(symbol, unsafe {
        f(x.as_ptr(), n as i32, sums.as_mut_ptr())
    })?;
    let want: Vec<f64> = x
        .chunks(block)
        .map(|c| c.iter().map(|&v| v as f64).sum())
        .collect();
    check_f32("block sums", &sums, &want, Tol::F32)
}

#[test]
fn cub_warp_reduce() {
    run_kernel("cub_warp_reduce", |k, r| {
        check_block_sums(k, r, "cub_warp_block_sums_f32", 256)
    });
}

#[test]
fn coop_groups_reduce() {
    run_kernel("coop_groups_reduce", |k, r| {
        check_block_sums(k, r, "cg_block_sums_f32", 256)
    });
}

#[test]
fn coop_groups_tile16() {
    run_kernel("coop_groups_tile16", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, *mut i32, i32) -> i32 =
            unsafe { k.get("cg_tile16_f32")? };
        let n = r.usize_in(1, 10_000);
        let x = r.vec_f32(n, -1.0, 1.0);
        let mut out = nan(n);
        let mut counts = vec![POISON; n.div_ceil(16)];
        launched("cg_tile16_f32", unsafe {
            f(x.as_ptr(), out.as_mut_ptr(), counts.as_mut_ptr(), n as i32)
        })?;
        let mut want = Vec::new();
        let mut want_counts = Vec::new();
        for c in x.chunks(16) {
            let m = c.iter().fold(f32::MIN, |a, &v| a.max(v));
            want.extend(c.iter().map(|&v| (v - m) as f64));
            want_counts.push(c.iter().filter(|&&v| v > 0.0).count() as i32);
        }
        check_exact("positive counts", &counts, &want_counts)?;
        check_f32("x - tile max", &out, &want, Tol::F32)
    });
}

#[test]
fn half_math() {
    run_kernel("half_math", |k, r| {
        let haxpy: unsafe extern "C" fn(i32, f32, *const u16, *mut u16) -> i32 =
            unsafe { k.get("haxpy_f16")? };
        let conv: unsafe extern "C" fn(i32, *const f32, *mut u16, f32) -> i32 =
            unsafe { k.get("float_to_half_scaled")? };
        let n = r.usize_in(1, 5001);
        let a = f16::from_f32(r.f32_in(-2.0, 2.0)).to_f32();
        let x: Vec<f16> = (0..n).map(|_| f16::from_f32(r.f32_in(-4.0, 4.0))).collect();
        let y0: Vec<f16> = (0..n).map(|_| f16::from_f32(r.f32_in(-4.0, 4.0))).collect();
        let xb: Vec<u16> = x.iter().map(|v| v.to_bits()).collect();
        let mut yb: Vec<u16> = y0.iter().map(|v| v.to_bits()).collect();
        launched("haxpy_f16", unsafe {
            haxpy(n as i32, a, xb.as_ptr(), yb.as_mut_ptr())
        })?;
        let got: Vec<f32> = yb.iter().map(|&b| f16::from_bits(b).to_f32()).collect();
        let want: Vec<f64> = (0..n)
            .map(|i| a as f64 * x[i].to_f64() + y0[i].to_f64())
            .collect();
        check_f32(&format!("haxpy n={n}"), &got, &want, Tol::HALF)?;

        let s = r.f32_in(0.5, 2.0);
        let v = r.vec_f32(n, -100.0, 100.0);
        let mut h = vec![f16::NAN.to_bits(); n];
        launched("float_to_half_scaled", unsafe {
            conv(n as i32, v.as_ptr(), h.as_mut_ptr(), s)
        })?;
        // Round-to-nearest conversion is exact to specify: compare bit patterns.
        let want_bits: Vec<u16> = v.iter().map(|&x| f16::from_f32(x * s).to_bits()).collect();
        check_exact("float_to_half_scaled (bits)", &h, &want_bits)
    });
}

#[test]
fn bf16_math() {
    run_kernel("bf16_math", |k, r| {
        let fma: unsafe extern "C" fn(i32, *const f32, *const f32, *const f32, *mut u16) -> i32 =
            unsafe { k.get("bf16_fma")? };
        let dot: unsafe extern "C" fn(i32, *const u16, *const u16, *mut f32) -> i32 =
            unsafe { k.get("bf16_dot")? };
        let n = r.usize_in(1, 5000);
        let (a, b, c) = (
            r.vec_f32(n, -4.0, 4.0),
            r.vec_f32(n, -4.0, 4.0),
            r.vec_f32(n, -4.0, 4.0),
        );
        let mut out = vec![bf16::NAN.to_bits(); n];
        launched("bf16_fma", unsafe {
            fma(
                n as i32,
                a.as_ptr(),
                b.as_ptr(),
                c.as_ptr(),
                out.as_mut_ptr(),
            )
        })?;
        let r16 = |v: f32| bf16::from_f32(v).to_f64();
        let got: Vec<f32> = out.iter().map(|&b| bf16::from_bits(b).to_f32()).collect();
        let want: Vec<f64> = (0..n).map(|i| r16(a[i]) * r16(b[i]) + r16(c[i])).collect();
        check_f32("bf16 fma", &got, &want, Tol::HALF)?;

        let x: Vec<u16> = (0..n)
            .map(|_| bf16::from_f32(r.f32_in(0.0, 1.0)).to_bits())
            .collect();
        let y: Vec<u16> = (0..n)
            .map(|_| bf16::from_f32(r.f32_in(0.0, 1.0)).to_bits())
            .collect();
        let mut d = f32::NAN;
        launched("bf16_dot", unsafe {
            dot(n as i32, x.as_ptr(), y.as_ptr(), &mut d)
        })?;
        let want: f64 = (0..n)
            .map(|i| bf16::from_bits(x[i]).to_f64() * bf16::from_bits(y[i]).to_f64())
            .sum();
        check_f32("bf16 dot (float accumulation)", &[d], &[want], Tol::F32)
    });
}

#[test]
fn streams_events() {
    run_kernel("streams_events", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, i32, f32, f32, *mut f32) -> i32 =
            unsafe { k.get("streams_pipeline_f32")? };
        let n = r.usize_in(1, 100_000);
        let chunks = r.usize_in(1, 9);
        let (scale, shift) = (r.f32_in(-2.0, 2.0), r.f32_in(-1.0, 1.0));
        let x = r.vec_f32(n, -1.0, 1.0);
        let mut y = nan(n);
        let mut ms = f32::NAN;
        launched("streams_pipeline_f32", unsafe {
            f(
                x.as_ptr(),
                y.as_mut_ptr(),
                n as i32,
                chunks as i32,
                scale,
                shift,
                &mut ms,
            )
        })?;
        if !(ms >= 0.0 && ms.is_finite()) {
            return Err(format!("elapsed time {ms} ms"));
        }
        let want: Vec<f64> = x
            .iter()
            .map(|&v| (v as f64 * scale as f64 + shift as f64).powi(2))
            .collect();
        check_f32(&format!("{chunks} chunks"), &y, &want, Tol::F32)
    });
}

#[test]
fn dynamic_shared() {
    run_kernel("dynamic_shared", |k, r| {
        let rev: unsafe extern "C" fn(*const i32, *mut i32, i32, i32) -> i32 =
            unsafe { k.get("segment_reverse_i32")? };
        let rank: unsafe extern "C" fn(*const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("rank_in_block_f32")? };
        for block in [32usize, 96, 256] {
            let n = r.usize_in(1, 3000);
            let x = r.vec_i32(n, i32::MIN, i32::MAX);
            let mut out = vec![POISON; n];
            launched("segment_reverse_i32", unsafe {
                rev(x.as_ptr(), out.as_mut_ptr(), n as i32, block as i32)
            })?;
            let want: Vec<i32> = x
                .chunks(block)
                .flat_map(|c| c.iter().rev().copied())
                .collect();
            check_exact(&format!("reverse, block {block}"), &out, &want)?;

            let v = r.vec_f32(n, -1.0, 1.0);
            let mut o = nan(n);
            launched("rank_in_block_f32", unsafe {
                rank(v.as_ptr(), o.as_mut_ptr(), n as i32, block as i32)
            })?;
            let want: Vec<f64> = v
                .chunks(block)
                .flat_map(|c| {
                    c.iter()
                        .map(move |&a| (a * c.iter().filter(|&&b| b < a).count() as f32) as f64)
                })
                .collect();
            check_f32(&format!("rank, block {block}"), &o, &want, Tol::F32)?;
        }
        Ok(())
    });
}

#[test]
fn constant_memory() {
    run_kernel("constant_memory", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, *const f32, i32, *const f32) -> i32 =
            unsafe { k.get("fir_poly_f32")? };
        for _ in 0..2 {
            let n = r.usize_in(1, 5000);
            let ntaps = r.usize_in(1, 32);
            let taps = r.vec_f32(ntaps, -0.5, 0.5);
            let poly = r.vec_f32(6, -1.0, 1.0);
            let x = r.vec_f32(n, -1.0, 1.0);
            let mut y = nan(n);
            launched("fir_poly_f32", unsafe {
                f(
                    x.as_ptr(),
                    y.as_mut_ptr(),
                    n as i32,
                    taps.as_ptr(),
                    taps.len() as i32,
                    poly.as_ptr(),
                )
            })?;
            let want: Vec<f64> = (0..n)
                .map(|i| {
                    let acc: f64 = (0..taps.len())
                        .filter(|&t| t <= i)
                        .map(|t| taps[t] as f64 * x[i - t] as f64)
                        .sum();
                    poly.iter().rev().fold(0.0, |p, &c| p * acc + c as f64)
                })
                .collect();
            check_f32(&format!("{} taps", taps.len()), &y, &want, Tol::F32)?;
        }
        let mut y = nan(4);
        if unsafe {
            f(
                [0f32; 4].as_ptr(),
                y.as_mut_ptr(),
                4,
                [0f32; 40].as_ptr(),
                33,
                [0f32; 6].as_ptr(),
            )
        } == 0
        {
            return Err("fir_poly_f32 accepted 33 taps".into());
        }
        Ok(())
    });
}

#[test]
fn texture_object() {
    run_kernel("texture_object", |k, r| {
        let f: unsafe extern "C" fn(*const f32, i32, *const i32, *mut f32, i32) -> i32 =
            unsafe { k.get("texture_gather_f32")? };
        let len = r.usize_in(1, 4096);
        let table = r.vec_f32(len, -10.0, 10.0);
        let n = r.usize_in(1, 10_000);
        let idx = r.vec_i32(n, 0, len as i32 - 1);
        let mut out = nan(n);
        launched("texture_gather_f32", unsafe {
            f(
                table.as_ptr(),
                len as i32,
                idx.as_ptr(),
                out.as_mut_ptr(),
                n as i32,
            )
        })?;
        let want: Vec<f64> = idx.iter().map(|&i| table[i as usize] as f64).collect();
        check_f32("gather", &out, &want, 0.0)
    });
}

#[test]
fn launch_bounds() {
    run_kernel("launch_bounds", |k, r| {
        let clamp: unsafe extern "C" fn(*const f32, *mut f32, i32, f32, f32, f32) -> i32 =
            unsafe { k.get("clamp_scale_f32")? };
        let diff: unsafe extern "C" fn(*const f32, *const f32, *mut f32, i32) -> i32 =
            unsafe { k.get("abs_diff_f32")? };
        let n = r.usize_in(1, 10_000);
        let x = r.vec_f32(n, -3.0, 3.0);
        let (lo, hi, s) = (r.f32_in(-2.0, 0.0), r.f32_in(0.0, 2.0), r.f32_in(0.5, 4.0));
        let mut y = nan(n);
        launched("clamp_scale_f32", unsafe {
            clamp(x.as_ptr(), y.as_mut_ptr(), n as i32, lo, hi, s)
        })?;
        let want: Vec<f64> = x.iter().map(|&v| (v.max(lo).min(hi) * s) as f64).collect();
        check_f32("clamp_scale", &y, &want, Tol::F32)?;
        let z = r.vec_f32(n, -3.0, 3.0);
        let mut d = nan(n);
        launched("abs_diff_f32", unsafe {
            diff(x.as_ptr(), z.as_ptr(), d.as_mut_ptr(), n as i32)
        })?;
        let want: Vec<f64> = (0..n).map(|i| (x[i] - z[i]).abs() as f64).collect();
        check_f32("abs_diff", &d, &want, Tol::F32)
    });
}

#[test]
fn prefix_sum_blelloch() {
    run_kernel("prefix_sum_blelloch", |k, r| {
        let f: unsafe extern "C" fn(*const i32, *mut i32, i32) -> i32 =
            unsafe { k.get("exclusive_scan_i32")? };
        for n in [1usize, 256, 257, r.usize_in(1000, 200_000)] {
            let x = r.vec_i32(n, -100, 100);
            let mut out = vec![POISON; n];
            launched("exclusive_scan_i32", unsafe {
                f(x.as_ptr(), out.as_mut_ptr(), n as i32)
            })?;
            let mut acc = 0i32;
            let want: Vec<i32> = x
                .iter()
                .map(|&v| {
                    let before = acc;
                    acc = acc.wrapping_add(v);
                    before
                })
                .collect();
            check_exact(&format!("exclusive scan of {n}"), &out, &want)?;
        }
        Ok(())
    });
}

#[test]
fn double_dot() {
    run_kernel("double_dot", |k, r| {
        let f: unsafe extern "C" fn(i32, f64, *const f64, *mut f64, *mut f64) -> i32 =
            unsafe { k.get("daxpy_ddot_f64")? };
        let n = r.usize_in(1, 100_000);
        let a = r.unit_f64() * 4.0 - 2.0;
        let x = r.vec_f64(n, -1.0, 1.0);
        let y0 = r.vec_f64(n, -1.0, 1.0);
        let mut y = y0.clone();
        let mut d = f64::NAN;
        launched("daxpy_ddot_f64", unsafe {
            f(n as i32, a, x.as_ptr(), y.as_mut_ptr(), &mut d)
        })?;
        let wy: Vec<f64> = (0..n).map(|i| a.mul_add(x[i], y0[i])).collect();
        check_f64("y", &y, &wy, 0.0)?;
        let wd: f64 = (0..n).map(|i| x[i] * wy[i]).sum();
        check_f64("dot", &[d], &[wd], Tol::F64)
    });
}

#[test]
fn atomic_cas_float_max() {
    run_kernel("atomic_cas_float_max", |k, r| {
        type Stats = unsafe extern "C" fn(
            *const f32,
            *const i32,
            i32,
            i32,
            *mut f32,
            *mut i32,
            *mut i32,
        ) -> i32;
        let f: Stats = unsafe { k.get("bucket_stats_f32")? };
        let n = r.usize_in(1, 20_000);
        let buckets = r.usize_in(1, 64);
        let vals = r.vec_f32(n, -100.0, 100.0);
        let keys = r.vec_i32(n, 0, buckets as i32 - 1);
        let mut bmax = vec![f32::NEG_INFINITY; buckets];
        let mut bmin = vec![i32::MAX; buckets];
        let mut last = POISON;
        launched("bucket_stats_f32", unsafe {
            f(
                vals.as_ptr(),
                keys.as_ptr(),
                n as i32,
                buckets as i32,
                bmax.as_mut_ptr(),
                bmin.as_mut_ptr(),
                &mut last,
            )
        })?;
        let mut wmax = vec![f32::NEG_INFINITY; buckets];
        let mut wmin = vec![i32::MAX; buckets];
        for i in 0..n {
            let b = keys[i] as usize;
            wmax[b] = wmax[b].max(vals[i]);
            wmin[b] = wmin[b].min(i as i32);
        }
        let bits = |v: &[f32]| v.iter().map(|x| x.to_bits()).collect::<Vec<u32>>();
        check_exact("bucket max (bits)", &bits(&bmax), &bits(&wmax))?;
        check_exact("bucket first index", &bmin, &wmin)?;
        if !(0..n as i32).contains(&last) {
            return Err(format!("atomicExch left {last}, not an element index"));
        }
        Ok(())
    });
}

#[test]
fn softmax_warp_hardcoded32() {
    run_kernel("softmax_warp_hardcoded32", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("softmax_warp32_f32")? };
        let (rows, cols) = (r.usize_in(8, 300), r.usize_in(1, 256));
        let x = r.vec_f32(rows * cols, -5.0, 5.0);
        let mut y = nan(rows * cols);
        launched("softmax_warp32_f32", unsafe {
            f(x.as_ptr(), y.as_mut_ptr(), rows as i32, cols as i32)
        })?;
        let mut want = Vec::new();
        for row in x.chunks(cols) {
            let m = row.iter().fold(f64::MIN, |a, &v| a.max(v as f64));
            let s: f64 = row.iter().map(|&v| (v as f64 - m).exp()).sum();
            want.extend(row.iter().map(|&v| (v as f64 - m).exp() / s));
        }
        check_f32(&format!("{rows}x{cols}"), &y, &want, Tol::F32)?;
        if unsafe { f(x.as_ptr(), y.as_mut_ptr(), 1, 257) } == 0 {
            return Err("softmax_warp32_f32 accepted 257 columns".into());
        }
        Ok(())
    });
}

#[test]
fn row_center_warp_rows_hardcoded32() {
    run_kernel("row_center_warp_rows_hardcoded32", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("row_center_warp_rows_f32")? };
        // At least two rows, so some block holds a second row that shares a 64-lane wavefront.
        let (rows, cols) = (r.usize_in(2, 300), r.usize_in(1, 128));
        let x = r.vec_f32(rows * cols, -5.0, 5.0);
        let mut y = nan(rows * cols);
        launched("row_center_warp_rows_f32", unsafe {
            f(x.as_ptr(), y.as_mut_ptr(), rows as i32, cols as i32)
        })?;
        let mut want = Vec::new();
        for row in x.chunks(cols) {
            let mean = row.iter().map(|&v| v as f64).sum::<f64>() / cols as f64;
            want.extend(row.iter().map(|&v| v as f64 - mean));
        }
        check_f32(&format!("{rows}x{cols}"), &y, &want, Tol::F32)?;
        if unsafe { f(x.as_ptr(), y.as_mut_ptr(), 1, 129) } == 0 {
            return Err("row_center_warp_rows_f32 accepted 129 columns".into());
        }
        Ok(())
    });
}

#[test]
fn gemv_warp_hardcoded32() {
    run_kernel("gemv_warp_hardcoded32", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("gemv_warp32_f32")? };
        let (rows, cols) = (r.usize_in(1, 300), r.usize_in(1, 300));
        let a = r.vec_f32(rows * cols, -1.0, 1.0);
        let x = r.vec_f32(cols, -1.0, 1.0);
        let mut y = nan(rows);
        launched("gemv_warp32_f32", unsafe {
            f(
                a.as_ptr(),
                x.as_ptr(),
                y.as_mut_ptr(),
                rows as i32,
                cols as i32,
            )
        })?;
        check_f32(
            &format!("{rows}x{cols}"),
            &y,
            &matmul_ref(&a, &x, rows, 1, cols),
            Tol::F32,
        )
    });
}

#[test]
fn nbody_tiled() {
    run_kernel("nbody_tiled", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, f32) -> i32 =
            unsafe { k.get("nbody_accel_f32")? };
        let n = r.usize_in(1, 300);
        let soft = 0.1f32;
        let mut pos = Vec::with_capacity(4 * n);
        for _ in 0..n {
            pos.extend([
                r.f32_in(-1.0, 1.0),
                r.f32_in(-1.0, 1.0),
                r.f32_in(-1.0, 1.0),
                r.f32_in(0.5, 1.0),
            ]);
        }
        let mut acc = nan(3 * n);
        launched("nbody_accel_f32", unsafe {
            f(pos.as_ptr(), acc.as_mut_ptr(), n as i32, soft)
        })?;
        let e2 = (soft * soft) as f64;
        let mut want = vec![0f64; 3 * n];
        for i in 0..n {
            for j in 0..n {
                let d: Vec<f64> = (0..3)
                    .map(|c| pos[4 * j + c] as f64 - pos[4 * i + c] as f64)
                    .collect();
                let r2 = d.iter().map(|v| v * v).sum::<f64>() + e2;
                let s = pos[4 * j + 3] as f64 / (r2 * r2.sqrt());
                for c in 0..3 {
                    want[3 * i + c] += d[c] * s;
                }
            }
        }
        check_f32(&format!("{n} bodies"), &acc, &want, Tol::F32)
    });
}

#[test]
fn bias_act_2d_grid() {
    run_kernel("bias_act_2d_grid", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *const f32, *mut f32, i32, i32, f32) -> i32 =
            unsafe { k.get("bias_leaky_f32")? };
        for features in [
            4 * r.usize_in(1, 100),
            4 * r.usize_in(1, 100) + r.usize_in(1, 3),
        ] {
            let batch = r.usize_in(1, 50);
            let slope = r.f32_in(0.0, 0.3);
            let x = r.vec_f32(batch * features, -1.0, 1.0);
            let b = r.vec_f32(features, -0.5, 0.5);
            let mut y = nan(batch * features);
            launched("bias_leaky_f32", unsafe {
                f(
                    x.as_ptr(),
                    b.as_ptr(),
                    y.as_mut_ptr(),
                    batch as i32,
                    features as i32,
                    slope,
                )
            })?;
            let want: Vec<f64> = (0..batch * features)
                .map(|i| {
                    let v = x[i] + b[i % features];
                    (if v > 0.0 { v } else { v * slope }) as f64
                })
                .collect();
            check_f32(&format!("{batch}x{features}"), &y, &want, Tol::F32)?;
        }
        Ok(())
    });
}

#[test]
fn fast_math_sigmoid() {
    run_kernel("fast_math_sigmoid", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, *mut f32, *mut f32, i32) -> i32 =
            unsafe { k.get("sigmoid_fast_f32")? };
        let n = r.usize_in(1, 10_000);
        let x = r.vec_f32(n, -12.0, 12.0);
        let (mut fast, mut acc, mut soft) = (nan(n), nan(n), nan(n));
        launched("sigmoid_fast_f32", unsafe {
            f(
                x.as_ptr(),
                fast.as_mut_ptr(),
                acc.as_mut_ptr(),
                soft.as_mut_ptr(),
                n as i32,
            )
        })?;
        let sig: Vec<f64> = x
            .iter()
            .map(|&v| 1.0 / (1.0 + (-(v as f64)).exp()))
            .collect();
        let sp: Vec<f64> = x
            .iter()
            .map(|&v| {
                if v > 15.0 {
                    v as f64
                } else {
                    (1.0 + (v as f64).exp()).ln()
                }
            })
            .collect();
        check_f32("accurate sigmoid", &acc, &sig, Tol::F32)?;
        check_f32("fast sigmoid", &fast, &sig, Tol::F32)?;
        check_f32("fast softplus", &soft, &sp, Tol::F32)
    });
}

#[test]
fn pitched_2d() {
    run_kernel("pitched_2d", |k, r| {
        let f: unsafe extern "C" fn(*const f32, *mut f32, i32, i32) -> i32 =
            unsafe { k.get("box_blur_pitched_f32")? };
        let (w, h) = (r.usize_in(1, 150), r.usize_in(1, 150));
        let img = r.vec_f32(w * h, 0.0, 1.0);
        let mut out = nan(w * h);
        launched("box_blur_pitched_f32", unsafe {
            f(img.as_ptr(), out.as_mut_ptr(), w as i32, h as i32)
        })?;
        let mut want = vec![0f64; w * h];
        for y in 0..h as i64 {
            for x in 0..w as i64 {
                let mut s = 0.0;
                for dy in -1..=1i64 {
                    for dx in -1..=1i64 {
                        let yy = (y + dy).clamp(0, h as i64 - 1) as usize;
                        let xx = (x + dx).clamp(0, w as i64 - 1) as usize;
                        s += img[yy * w + xx] as f64;
                    }
                }
                want[y as usize * w + x as usize] = s / 9.0;
            }
        }
        check_f32(&format!("{w}x{h}"), &out, &want, Tol::F32)
    });
}

/// Every manifest entry has a test in this file (the list below is checked against the manifest).
#[test]
fn every_corpus_kernel_has_a_test() {
    let src = include_str!("kernels.rs");
    let missing: Vec<&str> = runtime_tests::manifest()
        .iter()
        .map(|e| e.name.as_str())
        .filter(|name| !src.contains(&format!("run_kernel(\"{name}\"")))
        .collect();
    assert!(missing.is_empty(), "no numeric test for {missing:?}");
}
