//! The fast block means used for drawing agree with brute-force averages of exact cells.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::binning::Bins;
use pe_explorer::math::matrix::{Dense, Matrix};
use pe_explorer::math::sinusoidal::{Sinusoidal, SinusoidalMatrix, Variant, Wave};
use pe_explorer::math::wave::add_wave_means;
use proptest::prelude::*;

fn brute_force(m: &SinusoidalMatrix, rows: &Bins, cols: &Bins) -> Vec<f32> {
    let dense = Dense::new(
        m.rows(),
        m.cols(),
        (0..m.rows())
            .flat_map(|r| (0..m.cols()).map(move |c| (r, c)))
            .map(|(r, c)| m.value(r, c))
            .collect(),
    );
    dense.block_means(rows, cols)
}

#[test]
fn bins_cover_every_index_once_with_sizes_differing_by_at_most_one() {
    let bins = Bins::fit(5, 105, 7);
    assert_eq!(bins.count(), 7);
    assert_eq!(bins.sizes(), (14, 15));
    let covered: Vec<usize> = (0..bins.count()).flat_map(|k| bins.range(k)).collect();
    assert_eq!(covered, (5..105).collect::<Vec<_>>());
    for k in 0..bins.count() {
        assert!((14..=15).contains(&bins.range(k).len()));
        for i in bins.range(k) {
            assert_eq!(bins.bin_of(i), Some(k), "index {i}");
        }
    }
    assert_eq!(bins.bin_of(4), None);
    assert_eq!(bins.bin_of(105), None);
    let small = Bins::fit(0, 3, 1000);
    assert_eq!((small.count(), small.sizes()), (3, (1, 1)));
}

#[test]
fn grouped_bins_keep_pairs_together() {
    let bins = Bins::grouped(0, 1023, 440, 2);
    assert_eq!(
        bins.sizes(),
        (3, 4),
        "stride 4; the last bin holds the 3 columns left over"
    );
    for k in 0..bins.count() - 1 {
        let r = bins.range(k);
        assert_eq!((r.start % 2, r.len()), (0, 4));
    }
    assert_eq!(bins.count(), 256);
    assert_eq!(bins.span(), 1024);
    assert_eq!(bins.bin_of(1022), Some(255));
    // Fewer columns than pixels: one bin each, whatever the group.
    assert_eq!(Bins::grouped(0, 300, 440, 2).sizes(), (1, 1));
}

#[test]
fn one_bin_per_cell_reproduces_the_exact_matrix() {
    let m = SinusoidalMatrix::new(Sinusoidal::new(Variant::Paper, 64, 10_000.0), 300);
    let means = m.block_means(&Bins::each(0, 300), &Bins::each(0, 64));
    for r in 0..300 {
        for c in 0..64 {
            let exact = m.value(r, c) as f32;
            assert!((means[r * 64 + c] - exact).abs() < 1e-6, "({r}, {c})");
        }
    }
}

#[test]
fn long_runs_stay_accurate_in_f64() {
    // 65,536 positions in bins of one and of two sizes: the rotation recurrence must agree with
    // direct means of sin and cos to near the rounding of p·ω itself.
    for omega in [1.0, 0.7, 1e-3, 2.5e-5] {
        for bins in [Bins::each(0, 65_536), Bins::fit(0, 65_536, 40_000)] {
            for wave in [Wave::Sin, Wave::Cos] {
                let mut fast = vec![0.0; bins.count()];
                add_wave_means(wave, omega, &bins, &mut fast);
                let worst = (0..bins.count())
                    .map(|k| {
                        let r = bins.range(k);
                        let n = r.len() as f64;
                        let direct: f64 = r.map(|p| wave.at(p as f64 * omega)).sum::<f64>() / n;
                        (fast[k] - direct).abs()
                    })
                    .fold(0.0, f64::max);
                assert!(worst < 1e-10, "ω = {omega} {wave:?}: worst error {worst}");
            }
        }
    }
}

#[test]
fn one_pixel_per_cell_is_exact_far_along() {
    // The walk along positions is re-anchored on exact values, so its error stays at rounding
    // level even 65,000 positions in, with the fastest and slowest frequencies of d = 1024.
    let m = SinusoidalMatrix::new(Sinusoidal::new(Variant::Paper, 1024, 10_000.0), 65_536);
    let (rows, cols) = (Bins::each(64_900, 65_536), Bins::each(0, 1024));
    let fast = m.block_means(&rows, &cols);
    assert_eq!(fast.len(), 636 * 1024);
    let mut worst = 0.0f64;
    for (k, v) in fast.iter().enumerate() {
        let (r, c) = (64_900 + k / 1024, k % 1024);
        worst = worst.max((*v as f64 - m.value(r, c)).abs());
    }
    assert!(worst < 1e-6, "largest error {worst}");
}

proptest! {
    #[test]
    fn block_means_match_brute_force(
        variant in prop::sample::select(Variant::ALL.to_vec()),
        d in 2usize..40,
        length in 1usize..400,
        base in 10.0f64..1e6,
        // Many positions per pixel (closed-form means), a few (the walk along positions,
        // averaged) and one each (the walk alone).
        max_rows in prop_oneof![1usize..80, 100usize..200, 400usize..500],
        max_cols in 1usize..50,
        start_frac in 0.0f64..1.0,
    ) {
        let m = SinusoidalMatrix::new(Sinusoidal::new(variant, d, base), length);
        let start = ((length - 1) as f64 * start_frac) as usize;
        let rows = Bins::fit(start, length, max_rows);
        let cols = Bins::grouped(0, d, max_cols, 2);
        let fast = m.block_means(&rows, &cols);
        let slow = brute_force(&m, &rows, &cols);
        prop_assert_eq!(fast.len(), slow.len());
        for (i, (a, b)) in fast.iter().zip(&slow).enumerate() {
            prop_assert!((a - b).abs() < 1e-5, "cell {}: {} vs {}", i, a, b);
        }
    }
}
