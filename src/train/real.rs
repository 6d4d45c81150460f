//! The number type the model is written over (f32 in the browser, f64 for the finite-difference
//! check) and the few dense kernels every layer is made of.
//!
//! The kernels are written so that the compiler can vectorise them without reordering a sum:
//! row updates are independent lanes (`out += a·w_row`), and dot products keep eight separate
//! accumulators that are added in a fixed order at the end. The result is the same on every run
//! of the same build, which is what "the same seed gives the same numbers, bit for bit" rests on.

use std::fmt::Debug;
use std::ops::{Add, AddAssign, Div, DivAssign, Mul, MulAssign, Neg, Sub, SubAssign};

/// A floating-point scalar: f32 or f64.
pub trait Real:
    Copy
    + Default
    + Debug
    + PartialOrd
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
    + SubAssign
    + MulAssign
    + DivAssign
    + 'static
{
    const ZERO: Self;
    const ONE: Self;
    const NEG_INFINITY: Self;
    fn from_f64(v: f64) -> Self;
    fn to_f64(self) -> f64;
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn tanh(self) -> Self;
    fn is_finite(self) -> bool;
    fn max(self, other: Self) -> Self {
        if other > self {
            other
        } else {
            self
        }
    }
    /// The size-dependent kernels, so that f32 may use hand-written SIMD where it pays.
    fn dot(a: &[Self], b: &[Self]) -> Self {
        dot_lanes(a, b)
    }
    fn axpy(y: &mut [Self], alpha: Self, x: &[Self]) {
        for (y, x) in y.iter_mut().zip(x) {
            *y += alpha * *x;
        }
    }
}

macro_rules! impl_real {
    ($t:ty, $exp:path, $tanh:path, $dot:path) => {
        impl Real for $t {
            const ZERO: Self = 0.0;
            const ONE: Self = 1.0;
            const NEG_INFINITY: Self = <$t>::NEG_INFINITY;
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn exp(self) -> Self {
                $exp(self)
            }
            fn ln(self) -> Self {
                <$t>::ln(self)
            }
            fn sqrt(self) -> Self {
                <$t>::sqrt(self)
            }
            fn tanh(self) -> Self {
                $tanh(self)
            }
            fn dot(a: &[Self], b: &[Self]) -> Self {
                $dot(a, b)
            }
            fn is_finite(self) -> bool {
                <$t>::is_finite(self)
            }
        }
    };
}

impl_real!(f32, f32::exp, tanh_f32, dot_f32);
impl_real!(f64, f64::exp, f64::tanh, dot_lanes);

/// Σ a·b in f32: two f32x4 accumulators in the browser, eight lanes elsewhere.
fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
    #[cfg(target_arch = "wasm32")]
    {
        simd::dot_f32(a, b)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        dot_lanes(a, b)
    }
}

/// tanh for f32 as a rational function of degree 13/6 on [−7.9, 7.9] (Eigen's fast tanh, within
/// a few units in the last place; beyond that range tanh is ±1 in f32). Branch-free, so GELU's
/// loop vectorises; the library tanh cost a quarter of a training step in the browser. f64
/// (the finite-difference check) uses the exact function.
pub fn tanh_f32(x: f32) -> f32 {
    const A: [f32; 7] = [
        4.893_524_6e-3,
        6.372_619_3e-4,
        1.485_722_4e-5,
        5.122_297e-8,
        -8.604_672e-11,
        2.000_188e-13,
        -2.760_768_5e-16,
    ];
    const B: [f32; 4] = [4.893_525e-3, 2.268_434_6e-3, 1.185_347e-4, 1.198_258_4e-6];
    let x = x.clamp(-7.905_311, 7.905_311);
    let x2 = x * x;
    let p = A[6];
    let p = p * x2 + A[5];
    let p = p * x2 + A[4];
    let p = p * x2 + A[3];
    let p = p * x2 + A[2];
    let p = p * x2 + A[1];
    let p = (p * x2 + A[0]) * x;
    let q = ((B[3] * x2 + B[2]) * x2 + B[1]) * x2 + B[0];
    p / q
}

/// Σ a·b with eight independent partial sums (vectorisable, and always summed the same way).
fn dot_lanes<T: Real>(a: &[T], b: &[T]) -> T {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [T::ZERO; 8];
    let chunks = n / 8;
    for c in 0..chunks {
        let (x, y) = (&a[c * 8..c * 8 + 8], &b[c * 8..c * 8 + 8]);
        for l in 0..8 {
            acc[l] += x[l] * y[l];
        }
    }
    for i in chunks * 8..n {
        acc[i % 8] += a[i] * b[i];
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7]))
}

/// `out[n×m] += a[n×k] · b[k×m]`, row-major: the one kernel every dense layer and its
/// backward pass use. Blocks of 4 rows × 8 columns are summed in registers over k.
pub fn gemm<T: Real>(out: &mut [T], a: &[T], b: &[T], n: usize, k: usize, m: usize) {
    assert!(out.len() >= n * m && a.len() >= n * k && b.len() >= k * m);
    strided(out, a, (k, 1), b, n, k, m);
}

/// `out[k×m] += aᵀ · b` for `a[n×k]` and `b[n×m]`: a weight's gradient from a layer's input
/// and output gradient, without transposing the (large) input.
pub fn gemm_at<T: Real>(out: &mut [T], a: &[T], b: &[T], n: usize, k: usize, m: usize) {
    assert!(out.len() >= k * m && a.len() >= n * k && b.len() >= n * m);
    strided(out, a, (1, k), b, k, n, m);
}

/// Rows `rows` of [`gemm_at`]: `out[rows] += (aᵀ · b)[rows]`. When `rows` starts at a multiple
/// of 4 these rows come out exactly as the whole product computes them (the kernels work in
/// blocks of 4 rows from the first), so a weight's gradient can be computed a few rows at a time.
pub fn gemm_at_rows<T: Real>(
    out: &mut [T],
    a: &[T],
    b: &[T],
    n: usize,
    k: usize,
    m: usize,
    rows: std::ops::Range<usize>,
) {
    assert!(rows.end <= k && out.len() >= k * m && a.len() >= n * k && b.len() >= n * m);
    if rows.is_empty() {
        return;
    }
    let (r0, count) = (rows.start, rows.len());
    strided(
        &mut out[r0 * m..rows.end * m],
        &a[r0..],
        (1, k),
        b,
        count,
        n,
        m,
    );
}

/// `out[rows×m] += A · b[inner×m]` where A's element (r, p) is `a[r·rs + p·ps]`.
fn strided<T: Real>(
    out: &mut [T],
    a: &[T],
    (rs, ps): (usize, usize),
    b: &[T],
    rows: usize,
    inner: usize,
    m: usize,
) {
    #[cfg(target_arch = "wasm32")]
    if let (Some(out), Some(a), Some(b)) = (as_f32_mut(out), as_f32(a), as_f32(b)) {
        // SAFETY: the callers checked the lengths.
        unsafe { simd::gemm_f32(out, a, (rs, ps), b, rows, inner, m) };
        return;
    }
    gemm_blocks(out, a, (rs, ps), b, rows, inner, m);
}

#[cfg(target_arch = "wasm32")]
fn as_f32<T: Real>(x: &[T]) -> Option<&[f32]> {
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>())
        // SAFETY: T is f32.
        .then(|| unsafe { std::slice::from_raw_parts(x.as_ptr() as *const f32, x.len()) })
}

#[cfg(target_arch = "wasm32")]
fn as_f32_mut<T: Real>(x: &mut [T]) -> Option<&mut [f32]> {
    (std::any::TypeId::of::<T>() == std::any::TypeId::of::<f32>())
        // SAFETY: T is f32.
        .then(|| unsafe { std::slice::from_raw_parts_mut(x.as_mut_ptr() as *mut f32, x.len()) })
}

const ROWS: usize = 4;
const COLS: usize = 8;

/// The portable kernel (native builds and f64): written so the compiler keeps the 4 × 8 block
/// in vector registers.
fn gemm_blocks<T: Real>(
    out: &mut [T],
    a: &[T],
    (rs, ps): (usize, usize),
    b: &[T],
    n: usize,
    k: usize,
    m: usize,
) {
    let full_cols = m / COLS * COLS;
    let mut i = 0;
    while i + ROWS <= n {
        for j in (0..full_cols).step_by(COLS) {
            let mut acc = [[T::ZERO; COLS]; ROWS];
            for p in 0..k {
                let row = &b[p * m + j..p * m + j + COLS];
                for (r, acc) in acc.iter_mut().enumerate() {
                    let x = a[(i + r) * rs + p * ps];
                    for l in 0..COLS {
                        acc[l] += x * row[l];
                    }
                }
            }
            for (r, acc) in acc.iter().enumerate() {
                for l in 0..COLS {
                    out[(i + r) * m + j + l] += acc[l];
                }
            }
        }
        gemm_tail(out, a, (rs, ps), b, i..i + ROWS, full_cols, k, m);
        i += ROWS;
    }
    gemm_tail(out, a, (rs, ps), b, i..n, 0, k, m);
}

/// Rows `rows`, columns from `from` on, one row update at a time.
#[allow(clippy::too_many_arguments)]
fn gemm_tail<T: Real>(
    out: &mut [T],
    a: &[T],
    (rs, ps): (usize, usize),
    b: &[T],
    rows: std::ops::Range<usize>,
    from: usize,
    k: usize,
    m: usize,
) {
    if from >= m {
        return;
    }
    for r in rows {
        let o = &mut out[r * m + from..(r + 1) * m];
        for p in 0..k {
            T::axpy(o, a[r * rs + p * ps], &b[p * m + from..(p + 1) * m]);
        }
    }
}

#[cfg(target_arch = "wasm32")]
mod simd {
    use core::arch::wasm32::*;

    pub fn dot_f32(a: &[f32], b: &[f32]) -> f32 {
        let n = a.len().min(b.len());
        let chunks = n / 8;
        let (mut s0, mut s1) = (f32x4_splat(0.0), f32x4_splat(0.0));
        for c in 0..chunks {
            // SAFETY: c·8 + 8 ≤ n, inside both slices.
            unsafe {
                let (pa, pb) = (a.as_ptr().add(c * 8), b.as_ptr().add(c * 8));
                s0 = f32x4_add(
                    s0,
                    f32x4_mul(v128_load(pa as *const v128), v128_load(pb as *const v128)),
                );
                s1 = f32x4_add(
                    s1,
                    f32x4_mul(
                        v128_load(pa.add(4) as *const v128),
                        v128_load(pb.add(4) as *const v128),
                    ),
                );
            }
        }
        let s = f32x4_add(s0, s1);
        let mut total = (f32x4_extract_lane::<0>(s) + f32x4_extract_lane::<2>(s))
            + (f32x4_extract_lane::<1>(s) + f32x4_extract_lane::<3>(s));
        for i in chunks * 8..n {
            total += a[i] * b[i];
        }
        total
    }

    /// [`super::gemm_blocks`] with 128-bit SIMD: eight f32x4 accumulators per 4 × 8 block.
    ///
    /// # Safety
    /// `out`, `a` and `b` hold at least n·m, n·k and k·m values.
    pub unsafe fn gemm_f32(
        out: &mut [f32],
        a: &[f32],
        (rs, ps): (usize, usize),
        b: &[f32],
        n: usize,
        k: usize,
        m: usize,
    ) {
        let full_cols = m / 8 * 8;
        let (op, ap, bp) = (out.as_mut_ptr(), a.as_ptr(), b.as_ptr());
        let mut i = 0;
        while i + 4 <= n {
            let mut j = 0;
            while j < full_cols {
                let mut acc = [f32x4_splat(0.0); 8];
                for p in 0..k {
                    let w = bp.add(p * m + j);
                    let (w0, w1) = (
                        v128_load(w as *const v128),
                        v128_load(w.add(4) as *const v128),
                    );
                    for r in 0..4 {
                        let x = f32x4_splat(*ap.add((i + r) * rs + p * ps));
                        acc[2 * r] = f32x4_add(acc[2 * r], f32x4_mul(x, w0));
                        acc[2 * r + 1] = f32x4_add(acc[2 * r + 1], f32x4_mul(x, w1));
                    }
                }
                for r in 0..4 {
                    let o = op.add((i + r) * m + j);
                    let lo = f32x4_add(v128_load(o as *const v128), acc[2 * r]);
                    let hi = f32x4_add(v128_load(o.add(4) as *const v128), acc[2 * r + 1]);
                    v128_store(o as *mut v128, lo);
                    v128_store(o.add(4) as *mut v128, hi);
                }
                j += 8;
            }
            super::gemm_tail(out, a, (rs, ps), b, i..i + 4, full_cols, k, m);
            i += 4;
        }
        super::gemm_tail(out, a, (rs, ps), b, i..n, 0, k, m);
    }
}

/// Writes the `rows × cols` matrix `x` transposed into `out` (`cols × rows`).
pub fn transpose<T: Real>(out: &mut Vec<T>, x: &[T], rows: usize, cols: usize) {
    out.clear();
    out.resize(rows * cols, T::ZERO);
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = x[r * cols + c];
        }
    }
}

/// `out[n×m] = a[n×k] · w[k×m] + bias[m]` (row-major).
pub fn linear<T: Real>(out: &mut [T], a: &[T], w: &[T], bias: &[T], n: usize, k: usize, m: usize) {
    for row in out[..n * m].chunks_exact_mut(m) {
        row.copy_from_slice(&bias[..m]);
    }
    gemm(out, a, w, n, k, m);
}

/// The backward pass of [`linear`]: `da += dout · wᵀ` (if `da` is given), `dw += aᵀ · dout`,
/// `dbias += Σ rows of dout`. Both products go through [`gemm`] on a transposed copy.
#[allow(clippy::too_many_arguments)]
pub fn linear_backward<T: Real>(
    da: Option<&mut [T]>,
    dw: &mut [T],
    dbias: &mut [T],
    dout: &[T],
    a: &[T],
    w: &[T],
    n: usize,
    k: usize,
    m: usize,
) {
    let mut scratch = Vec::new();
    if let Some(da) = da {
        transpose(&mut scratch, w, k, m);
        gemm(da, dout, &scratch, n, m, k);
    }
    gemm_at(dw, a, dout, n, k, m);
    for d_row in dout[..n * m].chunks_exact(m) {
        T::axpy(&mut dbias[..m], T::ONE, d_row);
    }
}
