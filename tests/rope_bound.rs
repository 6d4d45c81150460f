//! RoFormer's long-term decay bound as the RoPE distance view draws it: the relative bound the
//! paper plots, and the bound it gives on |score| for q = k = 1 and for the random vectors,
//! checked against values derived by hand and against the scores it must stay above.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use pe_explorer::figures::schemes::{
    rope_bound_text, rope_distance, rope_distance_csv, RopeBound, RopeDistanceInputs,
};
use pe_explorer::math::rng::SplitMix64;
use pe_explorer::math::rope::{abel_step, Rope, RopePairing, RopeScaling, RANDOM_VECTORS};

fn inputs(rope: Rope, length: usize) -> RopeDistanceInputs {
    RopeDistanceInputs {
        d_model: rope.d_model,
        rope,
        plain: None,
        length,
        trained_length: 512,
        method: String::new(),
    }
}

#[test]
fn the_step_factor_by_hand() {
    // q = k = 1: every pair's product is (1 + i)(1 − i) = 2; the last step goes to h_{d/2} = 0.
    assert_eq!(abel_step(&[(2.0, 0.0); 5]), 2.0);
    // h = 1, 4, then 0: steps 3 and 4.
    assert_eq!(abel_step(&[(1.0, 0.0), (4.0, 0.0)]), 4.0);
    // Complex products: |(0, 0) − (1, 1)| = √2, then |0 − 0| = 0.
    assert!((abel_step(&[(1.0, 1.0), (0.0, 0.0)]) - 2f64.sqrt()).abs() < 1e-15);
    assert_eq!(abel_step(&[]), 0.0);
}

#[test]
fn bound_for_d4_by_hand() {
    // d = 4, base 100: θ = 1 and 0.1. |S₁| = 1 and |S₂| = |e^{iΔ} + e^{i0.1Δ}| = 2|cos 0.45Δ|, so
    // the relative bound is (1 + 2|cos 0.45Δ|)/2 and the bound for q = k = 1 is
    // 2·(|S₁| + |S₂|) = 2 + 4|cos 0.45Δ|, above the score 2 cos Δ + 2 cos 0.1Δ.
    let rope = Rope::new(4, 100.0, RopePairing::RotateHalf, RopeScaling::None);
    let length = 40;
    let curves = rope.distance_curves(length, length);
    assert_eq!(curves.decay.len(), length, "the bound at every distance");
    let figure = rope_distance(&inputs(rope, length), &[curves]);
    for (d, row) in figure.rows.iter().enumerate() {
        let delta = d as f64;
        let c = (0.45 * delta).cos().abs();
        assert_eq!(row[0], delta);
        assert!(
            (row[3] - (1.0 + 2.0 * c) / 2.0).abs() < 1e-12,
            "relative at {d}"
        );
        assert!(
            (row[4] - (2.0 + 4.0 * c)).abs() < 1e-12,
            "ones bound at {d}"
        );
        let score = 2.0 * delta.cos() + 2.0 * (0.1 * delta).cos();
        assert!((row[1] - score).abs() < 1e-9);
        assert!(
            row[1].abs() <= row[4] + 1e-12,
            "the bound is above the score at {d}"
        );
    }
    // Distance 0: bound 6, score 4; distance 3: 2 + 4|cos 1.35| = 2.8760…, score ≈ −0.069.
    assert!((figure.rows[0][4] - 6.0).abs() < 1e-12);
    assert!(
        (figure.rows[3][4] - 2.876_027).abs() < 1e-6,
        "{}",
        figure.rows[3][4]
    );
    // The CSV carries the three bound columns: at distance 0, relative 1.5 and bound 6.
    let csv = rope_distance_csv(&figure.rows);
    let mut lines = csv.lines();
    assert_eq!(
        lines.next(),
        Some("distance,ones_score,random_mean,relative_bound,ones_bound,random_bound")
    );
    let first: Vec<f64> = lines
        .next()
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(&first[..2], &[0.0, 4.0]);
    assert_eq!(&first[3..5], &[1.5, 6.0]);
    assert!(first[5] >= first[2].abs());
}

#[test]
fn at_distance_zero_the_bound_is_d_over_2_times_d_over_2_plus_one() {
    // d = 128: |S_j| = j at Δ = 0, so Σ_j |S_j| = 64·65/2 = 2080, the relative bound 32.5, the
    // bound for q = k = 1 2·2080 = 4160, 32.5 times the score 128.
    let rope = Rope::new(128, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    let curves = rope.distance_curves(100, 100);
    let bound = RopeBound::of(&rope, &curves);
    assert_eq!(bound.ones_step, 2.0);
    assert!((curves.decay[0].1 - 32.5).abs() < 1e-12);
    assert!((bound.ones(32.5) - 4160.0).abs() < 1e-9);
    let text = rope_bound_text(&bound, &curves);
    for said in ["32.5", "4160", "128", "at distance 99"] {
        assert!(text.contains(said), "{said} in: {text}");
    }
    assert!(!text.contains("caps the magnitude"));
}

#[test]
fn the_random_step_is_the_mean_over_the_drawn_vectors() {
    // Redraw the view's 32 random q = k from the same seed: hᵢ = q_{2i}² + q_{2i+1}² (times the
    // attention factor squared), the step max |hᵢ₊₁ − hᵢ| with h_{d/2} = 0, averaged.
    for (d, scaling) in [
        (8, RopeScaling::None),
        (64, common::yarn_scaling(4.0, 4096, true)),
    ] {
        let rope = Rope::new(d, 10_000.0, RopePairing::Adjacent, scaling);
        let f2 = rope.attention_factor().powi(2);
        let mut rng = SplitMix64::new(0x524F_5045);
        let mut mean = 0.0;
        for _ in 0..RANDOM_VECTORS {
            let h: Vec<f64> = (0..d / 2)
                .map(|_| {
                    let (a, b) = (rng.next_normal(), rng.next_normal());
                    f2 * (a * a + b * b)
                })
                .collect();
            let mut step: f64 = 0.0;
            for i in 0..h.len() {
                let next = h.get(i + 1).copied().unwrap_or(0.0);
                step = step.max((next - h[i]).abs());
            }
            mean += step / RANDOM_VECTORS as f64;
        }
        let curves = rope.distance_curves(10, 10);
        assert!((curves.random_step - mean).abs() < 1e-12, "d = {d}");
    }
}

#[test]
fn the_bounds_stay_above_the_scores_they_bound() {
    let yarn = common::yarn_scaling(8.0, 256, true);
    let ropes = [
        Rope::new(64, 10_000.0, RopePairing::RotateHalf, RopeScaling::None),
        Rope::new(
            33,
            500.0,
            RopePairing::Adjacent,
            RopeScaling::Interpolation(4.0),
        ),
        Rope::new(128, 10_000.0, RopePairing::RotateHalf, yarn),
        Rope::new(80, 10_000.0, RopePairing::RotateHalf, RopeScaling::Ntk(4.0))
            .with_rotary_fraction(0.4),
    ];
    for rope in ropes {
        let length = 2000;
        let curves = rope.distance_curves(length, length);
        let figure = rope_distance(&inputs(rope.clone(), length), &[curves]);
        for row in figure.rows.iter() {
            assert!(row[1].abs() <= row[4] * (1.0 + 1e-12), "{rope:?}: {row:?}");
            assert!(row[2].abs() <= row[5] * (1.0 + 1e-12), "{rope:?}: {row:?}");
            let pairs = rope.pair_count() as f64;
            assert!(row[3] * pairs >= 1.0 - 1e-9, "Σ|S_j| ≥ |S₁| = 1");
        }
        // …and they shrink: the mean bound over the last tenth is below the bound at 0.
        let tail: f64 = figure.rows[9 * length / 10..]
            .iter()
            .map(|r| r[4])
            .sum::<f64>()
            / (length / 10) as f64;
        assert!(tail < figure.rows[0][4] / 2.0, "{rope:?}");
    }
}
