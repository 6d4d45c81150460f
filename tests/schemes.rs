//! The schemes beyond sinusoidal: RoPE, ALiBi, T5 buckets, the learned table, and the Toeplitz
//! matrices that draw the score biases.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::alibi::{bias, slopes, steepest};
use pe_explorer::math::binning::Bins;
use pe_explorer::math::learned::{Learned, LearnedGram, INIT_STD};
use pe_explorer::math::matrix::{Dense, Matrix};
use pe_explorer::math::rng::SplitMix64;
use pe_explorer::math::rope::{half_from_adjacent, Rope, RopePairing, RopeScaling};
use pe_explorer::math::t5::T5Buckets;
use pe_explorer::math::toeplitz::Toeplitz;
use proptest::prelude::*;

fn random(n: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed);
    (0..n).map(|_| rng.next_normal()).collect()
}

fn norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

#[test]
fn rope_preserves_vector_norms() {
    for pairing in RopePairing::ALL {
        for d in [2, 7, 64, 128] {
            let rope = Rope::new(d, 10_000.0, pairing, RopeScaling::None);
            let x = random(d, d as u64);
            for m in [0.0, 1.0, 37.0, 4095.0, 65_535.0] {
                assert!(
                    (norm(&rope.rotate(&x, m)) - norm(&x)).abs() < 1e-10,
                    "{pairing:?} d={d} m={m}"
                );
            }
        }
    }
}

#[test]
fn rope_scores_depend_only_on_the_relative_position() {
    for pairing in RopePairing::ALL {
        let rope = Rope::new(64, 10_000.0, pairing, RopeScaling::None);
        let (q, k) = (random(64, 1), random(64, 2));
        for delta in [-50.0, -3.0, 0.0, 1.0, 17.0, 300.0] {
            let reference = rope.score(&q, 1000.0 + delta, &k, 1000.0);
            for n in [0.0, 5.0, 123.0, 4000.0] {
                let s = rope.score(&q, n + delta, &k, n);
                assert!(
                    (s - reference).abs() < 1e-9,
                    "{pairing:?} Δ={delta} n={n}: {s} vs {reference}"
                );
            }
        }
    }
}

#[test]
fn the_two_pairings_agree_after_the_permutation() {
    // rotate-half(x[P]) = adjacent(x)[P] with P = [0::2] ++ [1::2].
    for d in [2, 8, 64, 9] {
        let half = Rope::new(d, 500_000.0, RopePairing::RotateHalf, RopeScaling::None);
        let adjacent = Rope::new(d, 500_000.0, RopePairing::Adjacent, RopeScaling::None);
        let p = half_from_adjacent(d);
        let x = random(d, 7);
        let permuted: Vec<f64> = p.iter().map(|&i| x[i]).collect();
        for m in [0.0, 3.0, 250.0] {
            let a = half.rotate(&permuted, m);
            let b: Vec<f64> = {
                let r = adjacent.rotate(&x, m);
                p.iter().map(|&i| r[i]).collect()
            };
            for (u, v) in a.iter().zip(&b) {
                assert!((u - v).abs() < 1e-12, "d={d} m={m}");
            }
        }
    }
}

#[test]
fn rope_curves_by_hand() {
    // d = 4, base 100: θ = 1 and 0.1. q = k = 1: score(Δ) = 2 cos Δ + 2 cos 0.1Δ.
    let rope = Rope::new(4, 100.0, RopePairing::RotateHalf, RopeScaling::None);
    assert!((rope.theta(1) - 0.1).abs() < 1e-15);
    let want = 2.0 * 3f64.cos() + 2.0 * 0.3f64.cos();
    assert!((rope.ones_score(3.0) - want).abs() < 1e-12);
    let ones = [1.0; 4];
    assert!((rope.score(&ones, 10.0, &ones, 7.0) - want).abs() < 1e-12);
    // Decay bound for d = 4: |S₁| = 1 and |S₂| = |e^{iΔ} + e^{i0.1Δ}| = 2|cos(0.45Δ)|.
    for delta in [0.0f64, 3.0, 7.5] {
        let want = (1.0 + 2.0 * (0.45 * delta).cos().abs()) / 2.0;
        assert!(
            (rope.decay_bound(delta) - want).abs() < 1e-12,
            "Δ = {delta}"
        );
    }
    // Decay bound at Δ = 0: (1/h)·Σ_{j=1}^{h} j = (h + 1)/2.
    let wide = Rope::new(128, 10_000.0, RopePairing::Adjacent, RopeScaling::None);
    assert!((wide.decay_bound(0.0) - 32.5).abs() < 1e-9);
    assert!(
        wide.decay_bound(200.0) < wide.decay_bound(0.0) / 2.0,
        "the bound decays"
    );
}

#[test]
fn context_extension_by_interpolation_and_ntk() {
    let base = Rope::new(128, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    let pi = Rope::new(
        128,
        10_000.0,
        RopePairing::RotateHalf,
        RopeScaling::Interpolation(4.0),
    );
    let ntk = Rope::new(
        128,
        10_000.0,
        RopePairing::RotateHalf,
        RopeScaling::Ntk(4.0),
    );
    // Interpolation: position 400 looks like position 100.
    for i in [0, 10, 63] {
        assert!((pi.angle(400.0, i) - base.angle(100.0, i)).abs() < 1e-12);
    }
    // NTK: θ' = θ·s^(d/(d−2)); the fastest pair is unchanged, the slowest slows by about s.
    let expected = 10_000.0 * 4f64.powf(128.0 / 126.0);
    assert!((ntk.effective_base() - expected).abs() < 1e-6 * expected);
    assert_eq!(ntk.theta(0), 1.0);
    let slowdown = base.theta(63) / ntk.theta(63);
    assert!((slowdown - 4.0).abs() < 1e-9, "{slowdown}");
    // The cos table is cos(angle).
    let table = pi.cos_table(50);
    for (m, dim) in [(0, 0), (13, 5), (49, 70)] {
        let want = pi.angle(m as f64, pi.pair_of(dim).unwrap()).cos();
        assert!((table.value(m, dim) - want).abs() < 1e-12);
    }
}

#[test]
fn alibi_slopes_match_the_reference() {
    let eight = slopes(8);
    for (i, s) in eight.iter().enumerate() {
        assert!(
            (s - 0.5f64.powi(i as i32 + 1)).abs() < 1e-15,
            "head {i}: {s}"
        );
    }
    let twelve = slopes(12);
    assert_eq!(twelve.len(), 12);
    assert_eq!(&twelve[..8], &eight[..]);
    for (got, want) in twelve[8..].iter().zip([0.707, 0.354, 0.177, 0.088]) {
        assert!((got - want).abs() < 5e-4, "{got} vs {want}");
    }
    assert!((slopes(1)[0] - 1.0 / 256.0).abs() < 1e-15);
    // The steepest head is the first for 8 heads, but one of the extra heads for 12.
    assert_eq!(steepest(&eight), 0.5);
    assert!((steepest(&twelve) - 0.5f64.sqrt()).abs() < 1e-15);
    for n in 1..=64 {
        let s = slopes(n);
        assert_eq!(s.len(), n);
        assert!(s.iter().all(|x| *x > 0.0 && *x <= 1.0));
    }
    assert_eq!(bias(0.5, 5, 2, true), Some(-1.5));
    assert_eq!(bias(0.5, 2, 5, true), None, "future keys are masked");
    assert_eq!(bias(0.5, 2, 5, false), Some(-1.5));
}

#[test]
fn t5_buckets_at_known_values() {
    let bi = T5Buckets {
        num_buckets: 32,
        max_distance: 128,
        bidirectional: true,
    };
    for (r, want) in [
        (7, 23),
        (8, 24),
        (90, 30),
        (91, 31),
        (-91, 15),
        (0, 0),
        (-1, 1),
        (1, 17),
    ] {
        assert_eq!(bi.bucket(r), want, "bidirectional r = {r}");
    }
    let causal = T5Buckets {
        bidirectional: false,
        ..bi
    };
    for r in [0, 1, 5, 1000] {
        assert_eq!(causal.bucket(r), 0, "causal r = {r}");
    }
    assert_eq!(causal.bucket(-113), 31);
    assert_eq!(causal.bucket(-100_000), 31);
    // Distances past the saturation point all share the last bucket.
    let sat = causal.saturation_distance();
    assert_eq!(causal.bucket(-sat), 31);
    assert_ne!(causal.bucket(-(sat - 1)), 31);
}

proptest! {
    /// Every setting the sliders allow, including the degenerate ones where Hugging Face's
    /// formula divides by log(1): the bucket stays in range and never falls as distance grows.
    #[test]
    fn t5_buckets_stay_in_range_and_grow_with_distance(
        num_buckets in 2usize..=128,
        // Half the cases at or below max_exact, where the formula degenerates.
        max_distance in prop_oneof![1usize..=64, 1usize..=65_536],
        bidirectional: bool,
        start in 0i64..100_000,
    ) {
        let t = T5Buckets { num_buckets, max_distance, bidirectional };
        let mut previous = (t.bucket(-start), t.bucket(start));
        for d in start + 1..start + 40 {
            let now = (t.bucket(-d), t.bucket(d));
            prop_assert!(now.0 < num_buckets && now.1 < num_buckets, "{:?} at ±{}: {:?}", t, d, now);
            prop_assert!(now.0 >= previous.0, "past buckets fall at {} for {:?}", d, t);
            if bidirectional {
                prop_assert!(now.1 >= previous.1, "future buckets fall at {} for {:?}", d, t);
            }
            previous = now;
        }
        prop_assert!(t.bucket(-(1 << 40)) < num_buckets);
    }
}

#[test]
fn t5_degenerate_settings_put_every_longer_distance_in_the_last_bucket() {
    // 32 buckets each way → max_exact 8; max_distance 8 would make Hugging Face divide by zero.
    let t = T5Buckets {
        num_buckets: 32,
        max_distance: 8,
        bidirectional: true,
    };
    assert_eq!(t.bucket(-7), 7, "still exact below max_exact");
    assert_eq!(t.bucket(-8), 15);
    assert_eq!(t.bucket(9), 31);
    // Two buckets in both directions: only the sign of the offset is left.
    let two = T5Buckets {
        num_buckets: 2,
        max_distance: 1,
        bidirectional: true,
    };
    assert_eq!((two.bucket(-5), two.bucket(0), two.bucket(5)), (0, 0, 1));
}

#[test]
fn rope_unseen_angles_follow_the_length_and_the_scaling() {
    // d = 4, base 100: θ = 1 and 0.1. Trained on 10 positions, pair 0 turned 9 rad (a full
    // turn: every angle seen), pair 1 only 0.9 rad.
    let plain = Rope::new(4, 100.0, RopePairing::RotateHalf, RopeScaling::None);
    assert_eq!(plain.seen_length(10), 10.0);
    assert_eq!(plain.unseen_pairs(10, 10), 0);
    assert_eq!(plain.unseen_pairs(11, 10), 1);
    // Interpolation ×4 slows pair 1 to 0.025 rad per position: 0.9 rad is reached at 36.
    let pi = Rope {
        scaling: RopeScaling::Interpolation(4.0),
        ..plain
    };
    // NTK ×4 at d = 4: base 100·4² = 1600, θ₁ = 1/40, the same as interpolation for pair 1.
    let ntk = Rope {
        scaling: RopeScaling::Ntk(4.0),
        ..plain
    };
    for scaled in [pi, ntk] {
        assert_eq!(scaled.seen_length(10), 37.0, "{:?}", scaled.scaling);
        assert_eq!(scaled.unseen_pairs(37, 10), 0);
        assert_eq!(scaled.unseen_pairs(38, 10), 1);
    }
    // Once every pair has turned fully in training, no length is out of range.
    assert_eq!(plain.seen_length(100), f64::INFINITY);
    assert_eq!(plain.unseen_pairs(65_536, 100), 0);
}

#[test]
fn the_learned_gram_samples_real_dot_products() {
    // Small: one exact dot product per pixel; rows past max_len are undefined.
    let small = LearnedGram {
        table: Learned::new(30, 16, 3),
        length: 40,
    };
    let (rows, cols) = (Bins::fit(0, 40, 20), Bins::fit(0, 40, 20));
    let pixels = small.block_means(&rows, &cols);
    for r in 0..rows.count() {
        for c in 0..cols.count() {
            let want = small.value(rows.range(r).start, cols.range(c).start);
            let got = pixels[r * cols.count() + c];
            assert!(
                (want.is_nan() && got.is_nan()) || (got as f64 - want).abs() < 1e-6,
                "pixel ({r}, {c}): {got} vs {want}"
            );
        }
    }
    // Too much work for a dot product per pixel: blocks of pixels share one real dot product.
    let big = LearnedGram {
        table: Learned::new(4096, 4096, 1),
        length: 3000,
    };
    let (rows, cols) = (Bins::fit(0, 3000, 300), Bins::fit(0, 3000, 300));
    let pixels = big.block_means(&rows, &cols);
    let n = cols.count();
    let distinct: std::collections::BTreeSet<u32> = pixels.iter().map(|v| v.to_bits()).collect();
    assert!(
        distinct.len() < pixels.len() / 4,
        "{} distinct",
        distinct.len()
    );
    // The top-left pixel is the real P(0)·P(0) = |P(0)|².
    assert!((pixels[0] as f64 - big.value(0, 0)).abs() < 1e-6);
    assert_eq!(pixels[1], pixels[0], "a block shares its sample");
    assert!(pixels[n * (rows.count() - 1) + n - 1].is_finite());
}

#[test]
fn the_learned_table_is_seeded_and_stops_at_max_len() {
    let a = Learned::new(512, 64, 1);
    let b = Learned::new(512, 64, 1);
    let c = Learned::new(512, 64, 2);
    assert_eq!(a.row(10).unwrap(), b.row(10).unwrap());
    assert_ne!(a.row(10).unwrap(), c.row(10).unwrap());
    assert!(a.get(512, 0).is_none());
    assert!(a.row(512).unwrap_err().contains("does not exist"));
    assert!(a.get(511, 63).is_some());
    let values: Vec<f64> = (0..512).flat_map(|p| a.row(p).unwrap()).collect();
    let mean = values.iter().sum::<f64>() / values.len() as f64;
    let std = (values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64).sqrt();
    assert!(
        mean.abs() < 0.001 && (std - INIT_STD).abs() < 0.001,
        "mean {mean}, std {std}"
    );
}

#[test]
fn toeplitz_block_means_skip_masked_cells() {
    let slope = 0.25;
    let m = Toeplitz::new(40, |k| {
        pe_explorer::math::alibi::bias_at_offset(slope, k, true)
    });
    assert!(m.value(3, 10).is_nan());
    assert_eq!(m.value(10, 3), -1.75);
    let dense = Dense::new(40, 40, (0..1600).map(|i| m.value(i / 40, i % 40)).collect());
    for (rows, cols) in [
        (Bins::each(0, 40), Bins::each(0, 40)),
        (Bins::fit(0, 40, 7), Bins::fit(0, 40, 9)),
    ] {
        let fast = m.block_means(&rows, &cols);
        let slow = dense.block_means(&rows, &cols);
        for (a, b) in fast.iter().zip(&slow) {
            assert!(
                (a.is_nan() && b.is_nan()) || (a - b).abs() < 1e-5,
                "{a} vs {b}"
            );
        }
    }
}

#[test]
fn rope_distance_curves_match_their_formulas() {
    for scaling in [
        RopeScaling::None,
        RopeScaling::Interpolation(4.0),
        RopeScaling::Ntk(8.0),
    ] {
        let rope = Rope::new(65, 10_000.0, RopePairing::Adjacent, scaling.clone());
        let curves = rope.distance_curves(700, 50);
        for delta in [0usize, 1, 17, 400, 699] {
            assert!(
                (curves.ones[delta] - rope.ones_score(delta as f64)).abs() < 1e-9,
                "{scaling:?} Δ={delta}"
            );
        }
        for &(delta, bound) in &curves.decay {
            assert!(
                (bound - rope.decay_bound(delta)).abs() < 1e-9,
                "{scaling:?} Δ={delta}"
            );
        }
        assert!(curves.decay.len() <= 52);
        // The random mean starts near d (E[q·q] = d) and is even in Δ by construction.
        assert!(
            (curves.random[0] - 65.0).abs() < 10.0,
            "{}",
            curves.random[0]
        );
    }
}
