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
