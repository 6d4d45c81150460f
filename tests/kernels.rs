//! The inner loops agree with straightforward sums: natively (the scalar version) and in
//! headless Chromium (the SIMD version), with lengths that exercise every tail.

use pe_explorer::math::kernels::{dot2, rotate, sum};

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

fn data(n: usize, seed: f64) -> Vec<f64> {
    (0..n)
        .map(|i| ((i as f64 + seed) * 0.731).sin() * 3.0)
        .collect()
}

#[test]
fn sums_dots_and_rotations_match_plain_loops() {
    for n in [0, 1, 2, 3, 4, 5, 7, 8, 63, 512, 1023] {
        let (a, b, c, d) = (data(n, 1.0), data(n, 2.0), data(n, 3.0), data(n, 4.0));
        let plain_sum: f64 = a.iter().sum();
        assert!((sum(&a) - plain_sum).abs() < 1e-9, "sum, n = {n}");
        let plain_dot: f64 = (0..n).map(|i| a[i] * b[i] + c[i] * d[i]).sum();
        assert!(
            (dot2(&a, &b, &c, &d) - plain_dot).abs() < 1e-9,
            "dot2, n = {n}"
        );

        let angles = data(n, 5.0);
        let (cos, sin): (Vec<f64>, Vec<f64>) = angles.iter().map(|t| (t.cos(), t.sin())).unzip();
        let (mut re, mut im) = (a.clone(), b.clone());
        rotate(&mut re, &mut im, &cos, &sin);
        for i in 0..n {
            let want_re = a[i] * cos[i] - b[i] * sin[i];
            let want_im = a[i] * sin[i] + b[i] * cos[i];
            assert!(
                (re[i] - want_re).abs() < 1e-12 && (im[i] - want_im).abs() < 1e-12,
                "rotate, n = {n}, i = {i}"
            );
        }
    }
}

/// Asserts that every entry `got[r·cols + c]` (f32) is, to 1e-4 relative, Σ term(r, c, t) over
/// t < `inner`, summed in f64.
fn sums_match(
    what: &str,
    got: &[f32],
    (rows, cols, inner): (usize, usize, usize),
    term: impl Fn(usize, usize, usize) -> f64,
) {
    for r in 0..rows {
        for c in 0..cols {
            let want: f64 = (0..inner).map(|t| term(r, c, t)).sum();
            let got = got[r * cols + c] as f64;
            assert!(
                (got - want).abs() < 1e-4 * (1.0 + want.abs()),
                "{what} at ({r}, {c}): {got} vs {want}"
            );
        }
    }
}

/// The trainer's matrix product (4 × 8 blocks; 128-bit SIMD for f32 in the browser) against a
/// triple loop in f64, for shapes that leave every kind of tail, accumulating into what is
/// there; and the linear layer's backward pass against its definition.
#[test]
fn the_trainers_matrix_products_match_triple_loops() {
    use pe_explorer::train::real::{gemm, linear_backward};
    for (n, k, m) in [
        (1, 1, 1),
        (4, 8, 8),
        (5, 3, 9),
        (7, 17, 23),
        (12, 32, 96),
        (9, 128, 25),
    ] {
        let a: Vec<f32> = data(n * k, 1.0).iter().map(|&x| x as f32).collect();
        let b: Vec<f32> = data(k * m, 2.0).iter().map(|&x| x as f32).collect();
        let start: Vec<f32> = data(n * m, 3.0).iter().map(|&x| x as f32).collect();
        let mut out = start.clone();
        gemm(&mut out, &a, &b, n, k, m);
        for i in 0..n {
            for j in 0..m {
                let want = start[i * m + j] as f64
                    + (0..k)
                        .map(|p| a[i * k + p] as f64 * b[p * m + j] as f64)
                        .sum::<f64>();
                let got = out[i * m + j] as f64;
                assert!(
                    (got - want).abs() < 1e-4 * (1.0 + want.abs()),
                    "{n}×{k}×{m} at ({i}, {j}): {got} vs {want}"
                );
            }
        }
        // y = a·b + bias: da = dy·bᵀ, db = aᵀ·dy, dbias = Σ rows of dy.
        let dy: Vec<f32> = data(n * m, 4.0).iter().map(|&x| x as f32).collect();
        let (mut da, mut dw, mut dbias) =
            (vec![0.0f32; n * k], vec![0.0f32; k * m], vec![0.0f32; m]);
        linear_backward(Some(&mut da), &mut dw, &mut dbias, &dy, &a, &b, n, k, m);
        let shape = format!("{n}×{k}×{m}");
        sums_match(&format!("{shape} da"), &da, (n, k, m), |i, p, j| {
            dy[i * m + j] as f64 * b[p * m + j] as f64
        });
        sums_match(&format!("{shape} dw"), &dw, (k, m, n), |p, j, i| {
            a[i * k + p] as f64 * dy[i * m + j] as f64
        });
        sums_match(&format!("{shape} dbias"), &dbias, (1, m, n), |_, j, i| {
            dy[i * m + j] as f64
        });
    }
}

#[test]
fn the_fast_f32_tanh_is_within_a_few_ulp_of_the_exact_one() {
    use pe_explorer::train::real::tanh_f32;
    let mut worst: f64 = 0.0;
    for i in -200_000..=200_000 {
        let x = i as f32 * 1e-4;
        let exact = (x as f64).tanh();
        let err = (tanh_f32(x) as f64 - exact).abs();
        worst = worst.max(err / exact.abs().max(1e-30).max(f32::EPSILON as f64 * 1e-3));
        assert!(
            err <= 4.0 * f32::EPSILON as f64 * exact.abs().max(1e-6),
            "tanh({x}): {} vs {exact}",
            tanh_f32(x)
        );
    }
    assert_eq!(tanh_f32(30.0), 1.0);
    assert_eq!(tanh_f32(-1e30), -1.0);
    assert!(tanh_f32(f32::NAN).is_nan() || tanh_f32(f32::NAN).abs() <= 1.0);
    assert!(worst < 1e-6, "worst relative error {worst}");
}

#[test]
fn the_f32_dot_product_agrees_with_a_plain_sum() {
    use pe_explorer::train::real::Real;
    for n in [0, 1, 7, 8, 9, 16, 31, 100] {
        let a: Vec<f32> = data(n, 1.0).iter().map(|&x| x as f32).collect();
        let b: Vec<f32> = data(n, 2.0).iter().map(|&x| x as f32).collect();
        let want: f64 = a.iter().zip(&b).map(|(x, y)| *x as f64 * *y as f64).sum();
        assert!(
            (<f32 as Real>::dot(&a, &b) as f64 - want).abs() < 1e-4 * (1.0 + want.abs()),
            "n = {n}"
        );
    }
}
