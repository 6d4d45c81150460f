//! Dot products by offset: every anchor's curve is the closed form, the similarity matrix is
//! symmetric and Toeplitz, and its drawn block means match brute force.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::binning::Bins;
use pe_explorer::math::matrix::{Dense, Matrix};
use pe_explorer::math::offsets::{
    anchor_curves, closed_form, dot, norm, offset_curves, PairStructure, SimilarityMatrix,
};
use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};

#[test]
fn every_anchor_curve_equals_the_closed_form() {
    for variant in Variant::ALL {
        for (d, length) in [(2, 50), (16, 300), (128, 700), (64, 1000)] {
            let enc = Sinusoidal::new(variant, d, 10_000.0);
            let anchors = [0, length / 4, length / 2, length - 1];
            let curves = anchor_curves(&enc, length, &anchors);
            let shown = offset_curves(&enc, length, &anchors, 40);
            for (a, &p) in anchors.iter().enumerate() {
                for k in shown.offsets() {
                    let q = p as i64 + k;
                    let got = curves[a][shown.index(k).unwrap()];
                    if !(0..length as i64).contains(&q) {
                        assert!(got.is_nan(), "{variant} p={p} k={k} outside should be NaN");
                        continue;
                    }
                    let want = closed_form(&enc, k);
                    assert!(
                        (got - want).abs() < 1e-9,
                        "{variant} d={d} p={p} k={k}: {got} vs {want}"
                    );
                    assert!((shown.closed_at(k, false) - want).abs() < 1e-9);
                    // …and it is a real dot product of two rows.
                    let direct = dot(&enc, p, q as usize);
                    assert!((got - direct).abs() < 1e-9, "{variant} d={d} p={p} k={k}");
                }
                // The chart's measured points are dot products too, spread over the range.
                let m = &shown.measured[a];
                assert!((2..=41).contains(&m.len()), "{} points", m.len());
                for point in m {
                    let q = (p as i64 + point.offset) as usize;
                    assert!((point.dot - dot(&enc, p, q)).abs() < 1e-9);
                }
            }
            assert!(shown.largest_gap() < 1e-9, "{variant} d={d}");
        }
    }
}

#[test]
fn the_closed_form_by_hand() {
    // d = 4, base 10000: ω = 1 and 0.01, so Σ cos(kω) at k = 3 is cos 3 + cos 0.03.
    let enc = Sinusoidal::new(Variant::Paper, 4, 10_000.0);
    let want = 3f64.cos() + 0.03f64.cos();
    assert!((closed_form(&enc, 3) - want).abs() < 1e-15);
    assert!(
        (closed_form(&enc, -3) - want).abs() < 1e-15,
        "the closed form is even in k"
    );
    assert_eq!(
        closed_form(&enc, 0),
        2.0,
        "k = 0 gives the number of pairs, |PE|²"
    );
}

#[test]
fn an_odd_interleaved_width_breaks_offset_only_dependence_and_curves_show_it() {
    // The lone sine contributes sin(pω)·sin((p+k)ω), which depends on p.
    let enc = Sinusoidal::new(Variant::Paper, 5, 10.0);
    let curves = anchor_curves(&enc, 40, &[0, 10]);
    let i = 5 + 40 - 1;
    let (a, b) = (curves[0][i], curves[1][i]);
    assert!(
        (a - b).abs() > 1e-3,
        "curves for p = 0 and p = 10 coincide: {a} vs {b}"
    );
    assert!((a - dot(&enc, 0, 5)).abs() < 1e-12);
    assert!((b - dot(&enc, 10, 15)).abs() < 1e-12);
    let shown = offset_curves(&enc, 40, &[0, 10], 40);
    assert!(
        shown.largest_gap() > 1e-3,
        "the chart's gap number shows it"
    );
}

#[test]
fn norms_are_sqrt_half_d_and_cosine_curves_peak_at_one() {
    for variant in Variant::ALL {
        let enc = Sinusoidal::new(variant, 64, 10_000.0);
        for p in [0, 5, 999] {
            assert!((norm(&enc, p) - 32f64.sqrt()).abs() < 1e-12);
        }
        let curves = offset_curves(&enc, 200, &[0, 50, 100], 200);
        assert!((curves.closed_at(0, true) - 1.0).abs() < 1e-12);
        for a in 0..3 {
            let at_zero = curves.measured[a].iter().find(|m| m.offset == 0).unwrap();
            assert!((at_zero.cosine - 1.0).abs() < 1e-12);
            assert!(curves.measured[a].iter().all(|m| m.cosine <= 1.0 + 1e-12));
        }
        assert_eq!(PairStructure::of(&enc).pairs.len(), 32);
    }
}

#[test]
fn the_similarity_matrix_is_symmetric_and_toeplitz() {
    for variant in [Variant::Paper, Variant::T2t] {
        let m = SimilarityMatrix::new(Sinusoidal::new(variant, 32, 100.0), 60, false);
        for r in 0..60 {
            for c in 0..60 {
                let v = m.value(r, c);
                assert!((v - m.value(c, r)).abs() < 1e-12, "symmetric at ({r}, {c})");
                if r > 0 && c > 0 {
                    assert!(
                        (v - m.value(r - 1, c - 1)).abs() < 1e-9,
                        "Toeplitz at ({r}, {c})"
                    );
                }
            }
        }
    }
}

#[test]
fn similarity_block_means_match_brute_force() {
    for (variant, d, normalised) in [
        (Variant::Paper, 16, false),
        (Variant::Paper, 16, true),
        (Variant::Split, 9, false),
        (Variant::Paper, 7, false),
        (Variant::T2t, 7, true),
    ] {
        let m = SimilarityMatrix::new(Sinusoidal::new(variant, d, 50.0), 90, normalised);
        let dense = Dense::new(
            90,
            90,
            (0..90 * 90).map(|i| m.value(i / 90, i % 90)).collect(),
        );
        for (rows, cols) in [
            (Bins::each(0, 90), Bins::each(0, 90)),
            (Bins::fit(0, 90, 13), Bins::fit(0, 90, 7)),
            (Bins::fit(10, 90, 9), Bins::fit(0, 90, 30)),
        ] {
            let fast = m.block_means(&rows, &cols);
            let slow = dense.block_means(&rows, &cols);
            // Normalised blocks with a lone column divide by the block centre's norm: close,
            // not exact, since that norm varies by less than 1/d.
            let tol = if normalised && d % 2 == 1 { 0.05 } else { 1e-6 };
            for (i, (a, b)) in fast.iter().zip(&slow).enumerate() {
                assert!((a - b).abs() < tol, "{variant} d={d} cell {i}: {a} vs {b}");
            }
        }
    }
}

#[test]
fn the_exported_table_equals_the_dot_products() {
    for (variant, d, normalised) in [
        (Variant::Paper, 16, false),
        (Variant::Paper, 9, true),
        (Variant::T2t, 9, false),
    ] {
        let m = SimilarityMatrix::new(Sinusoidal::new(variant, d, 500.0), 70, normalised);
        for r in (0..70).step_by(7) {
            for c in 0..70 {
                assert!(
                    (m.table_value(r, c) - m.value(r, c)).abs() < 1e-9,
                    "{variant} d={d} ({r}, {c})"
                );
            }
        }
    }
}

#[test]
fn computing_in_ranges_gives_the_same_curves() {
    use pe_explorer::math::chunked::{Chunked, Sequence};
    use pe_explorer::math::offsets::ClosedForm;
    use pe_explorer::math::rope::{Rope, RopePairing, RopeScaling};
    let e = Sinusoidal::new(Variant::Paper, 96, 10_000.0);
    let whole = ClosedForm::new(e, 1500);
    let mut job = ClosedForm::job(e, 1500);
    for r in [0..7, 7..300, 300..301, 301..1500] {
        job.compute(r);
    }
    let pieces = job.finish();
    assert_eq!(pieces.half.len(), 1500);
    for (a, b) in whole.half.iter().zip(&pieces.half) {
        assert!((a - b).abs() < 1e-9, "{a} vs {b}");
    }
    // Two jobs in sequence, split across their boundary.
    let e2 = Sinusoidal::new(Variant::Paper, 96, 500.0);
    let mut both = Sequence::new(vec![ClosedForm::job(e, 100), ClosedForm::job(e2, 50)]);
    assert_eq!(both.len(), 150);
    both.compute(0..90);
    both.compute(90..120);
    both.compute(120..150);
    let forms = both.finish();
    assert!((forms[1].half[49] - ClosedForm::new(e2, 50).half[49]).abs() < 1e-9);
    // RoPE's curves, the decay samples included.
    let rope = Rope::new(64, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    let whole = rope.distance_curves(1000, 40);
    let mut job = rope.curves_job(1000, 40);
    job.compute(0..333);
    job.compute(333..1000);
    let pieces = job.finish();
    assert_eq!(pieces.decay.len(), whole.decay.len());
    for (a, b) in whole.random.iter().zip(&pieces.random) {
        assert!((a - b).abs() < 1e-9);
    }
}
