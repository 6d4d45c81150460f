//! Native tests of the 2-D patch encodings (`math::grid`) against hand-derived values and the
//! reference functions they follow: MAE's `get_2d_sincos_pos_embed` (facebookresearch/mae
//! `util/pos_embed.py`, commit a9f5c70), PyTorch's bicubic `F.interpolate` as MAE's
//! `interpolate_pos_embed` calls it, and RoPE-ViT's `compute_axial_cis`, `init_2d_freqs` and
//! `compute_mixed_cis` (naver-ai/rope-vit `self-attn/rope_self_attn.py`, commit 2df6a96).
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::grid::{
    bicubic_resize, cosine, cubic_weights, rotary_score, Axial, Grid, GridEncoding, Learned2d,
    Mixed, Similarity, SinCos2d, AXIAL_THETA, MAX_SIDE, MIXED_THETA,
};

/// The references compute in float32: agreement is to float32 rounding.
const F32: f64 = 1e-6;

fn grid(rows: usize, cols: usize) -> Grid {
    Grid::new(rows, cols).expect("a valid grid")
}

// `get_2d_sincos_pos_embed`: D = 8 gives D/4 = 2 frequencies, ω₀ = 1 and ω₁ = 10000^(−1/2) =
// 0.01. Channels 0–3 encode the column ("emb_h" in the code, from grid[0] = the w meshgrid),
// 4–7 the row, each as [sin ω₀p, sin ω₁p, cos ω₀p, cos ω₁p]. Patch 5 of a 2 × 3 grid is row 1,
// column 2: sin 2 = 0.9092974268, sin 0.02 = 0.0199986667, cos 2 = −0.4161468365,
// cos 0.02 = 0.9998000067, sin 1 = 0.8414709848, sin 0.01 = 0.0099998333,
// cos 1 = 0.5403023059, cos 0.01 = 0.9999500004.
#[test]
fn sincos_2d_by_hand_column_half_first() {
    let e = SinCos2d::new(8, grid(2, 3), 10_000.0).unwrap();
    let want = [
        0.9092974268,
        0.0199986667,
        -0.4161468365,
        0.9998000067,
        0.8414709848,
        0.0099998333,
        0.5403023059,
        0.9999500004,
    ];
    for (d, (got, w)) in e.row(5).iter().zip(want).enumerate() {
        assert!((got - w).abs() < F32, "PE(patch 5, {d}) = {got}, want {w}");
    }
    // Patch 1 is row 0, column 1: the column half moves, the row half is at position 0.
    let p1 = e.row(1);
    assert!((p1[0] - 1f64.sin()).abs() < F32);
    assert_eq!(&p1[4..], &[0.0, 0.0, 1.0, 1.0]);
}

// Patches are numbered row-major, as `grid.reshape([2, 1, H, W])` flattens them.
#[test]
fn patches_run_row_major() {
    let g = grid(3, 5);
    assert_eq!(g.cell(7), (1, 2));
    assert_eq!(g.patch(1, 2), 7);
    assert_eq!(g.patches(), 15);
}

// PE(p)·PE(q) = Σ_k cos(Δx ω_k) + Σ_k cos(Δy ω_k) (sin a sin b + cos a cos b = cos(a − b)), and
// |PE|² = D/2: the closed form the views use equals the cosine of the table's own rows.
#[test]
fn sincos_similarity_depends_on_the_offset_only() {
    let g = grid(4, 5);
    let e = SinCos2d::new(16, g, 10_000.0).unwrap();
    let enc = GridEncoding::SinCos(e);
    let sim = Similarity::of(&enc);
    for a in 0..g.patches() {
        for b in 0..g.patches() {
            let direct = cosine(&e.row(a), &e.row(b));
            assert!(
                (sim.between(a, b) - direct).abs() < 1e-5,
                "patches {a}, {b}: {} vs {direct}",
                sim.between(a, b)
            );
        }
    }
}

// Why the ViT figure shows a cross: the similarity is the mean of a column term and a row term,
// and the row term is 1 (its largest) for a patch in the same row.
#[test]
fn sincos_similarity_is_a_cross() {
    let e = Similarity::of(&GridEncoding::SinCos(
        SinCos2d::new(64, grid(9, 9), 10_000.0).unwrap(),
    ));
    for dx in -8..=8i64 {
        let same_row = e.at_offset(dx, 0).unwrap();
        for dy in -8..=8i64 {
            let other = e.at_offset(dx, dy).unwrap();
            assert!(same_row >= other - 1e-12, "Δ = ({dx}, {dy})");
        }
    }
    assert!((e.at_offset(0, 0).unwrap() - 1.0).abs() < 1e-12);
}

// PyTorch's cubic weights (`get_cubic_upsample_coefficients`, A = −0.75). By hand at t = 0.5:
// near(0.5) = (1.25·0.5 − 2.25)·0.25 + 1 = 0.59375 and far(1.5) = −0.09375.
#[test]
fn cubic_weights_by_hand() {
    assert_eq!(cubic_weights(0.0), [0.0, 1.0, 0.0, 0.0]);
    let w = cubic_weights(0.5);
    for (got, want) in w.iter().zip([-0.09375, 0.59375, 0.59375, -0.09375]) {
        assert!((got - want).abs() < 1e-15);
    }
    for t in [0.1, 0.25, 0.75, 0.9] {
        assert!((cubic_weights(t).iter().sum::<f64>() - 1.0).abs() < 1e-12);
    }
}

// `F.interpolate([[0, 1]], size=4, mode='bicubic', align_corners=False)`, by hand: output 0
// samples −0.25 (scale 0.5), so t = 0.75 with taps clamped to 0, 0, 0, 1:
// 1.10546875·a − 0.10546875·b; output 1 samples 0.25: 0.7734375·a + 0.2265625·b.
// [0, 1] → [−0.10546875, 0.2265625, 0.7734375, 1.10546875] (PyTorch's overshoot at the edges).
#[test]
fn bicubic_upsample_by_hand() {
    let out = bicubic_resize(&[0.0, 1.0], grid(1, 2), grid(1, 4), 1);
    let want = [-0.10546875, 0.2265625, 0.7734375, 1.10546875];
    for (got, w) in out.iter().zip(want) {
        assert!((got - w).abs() < 1e-12, "{out:?}");
    }
    // The same along rows, and per axis on a non-square grid.
    let col = bicubic_resize(&[0.0, 1.0], grid(2, 1), grid(4, 3), 1);
    for r in 0..4 {
        for c in 0..3 {
            assert!((col[r * 3 + c] - want[r]).abs() < 1e-12);
        }
    }
}

#[test]
fn bicubic_same_size_is_the_identity() {
    let t = Learned2d {
        d_model: 6,
        trained: grid(5, 7),
        seed: 3,
    };
    let table = t.table();
    let same = bicubic_resize(&table, t.trained, t.trained, 6);
    for (a, b) in table.iter().zip(&same) {
        assert!((a - b).abs() < 1e-15);
    }
}

// ViT's table is N(0, 0.02²); without interpolation, patches past the trained grid have none.
#[test]
fn learned_table_spread_and_extrapolation() {
    let t = Learned2d {
        d_model: 64,
        trained: grid(8, 8),
        seed: 7,
    };
    let table = t.table();
    let n = table.len() as f64;
    let mean = table.iter().sum::<f64>() / n;
    let sd = (table.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / n).sqrt();
    assert!(
        mean.abs() < 0.002 && (sd - 0.02).abs() < 0.002,
        "mean {mean}, sd {sd}"
    );
    let big = grid(16, 16);
    let plain = t.for_grid(big, false);
    assert!(plain[..64].iter().all(|v| v.is_finite()));
    let past = big.patch(0, 8) * 64;
    assert!(plain[past..past + 64].iter().all(|v| v.is_nan()));
    let interp = t.for_grid(big, true);
    assert!(interp.iter().all(|v| v.is_finite()));
    let sim = Similarity::of(&GridEncoding::Learned {
        table: t,
        grid: big,
        interpolate: false,
    });
    assert!(sim.between(0, big.patch(0, 8)).is_nan());
}

// `compute_axial_cis(dim=8, θ=100)`: freqs = 1/100^(arange(0, 8, 4)/8) = [1, 0.1]; patch 7 of a
// 3 × 4 grid has t_x = 7 mod 4 = 3, t_y = ⌊7/4⌋ = 1: angles [3, 0.3, 1, 0.1].
#[test]
fn axial_angles_by_hand() {
    let e = Axial::new(8, grid(3, 4), AXIAL_THETA).unwrap();
    let got: Vec<f64> = (0..4).map(|j| e.angle(7, j)).collect();
    for (g, w) in got.iter().zip([3.0, 0.3, 1.0, 0.1]) {
        assert!((g - w).abs() < F32, "{got:?}");
    }
}

// `init_2d_freqs` with angle 0: fx = [mag, mag·cos 90°], fy = [0, mag·sin 90°], so mixed RoPE
// at a_h = 0 is axial RoPE with the same θ; at a_h = 45° the first pairs turn along the diagonal.
#[test]
fn mixed_at_angle_zero_is_axial_and_at_45_degrees_diagonal() {
    let g = grid(6, 6);
    let mixed = Mixed::new(16, g, MIXED_THETA, 0.0).unwrap();
    let axial = Axial::new(16, g, MIXED_THETA).unwrap();
    for p in 0..g.patches() {
        for j in 0..8 {
            assert!(
                (mixed.angle(p, j) - axial.angle(p, j)).abs() < 1e-5,
                "{p} {j}"
            );
        }
    }
    let diag =
        GridEncoding::Mixed(Mixed::new(16, g, MIXED_THETA, std::f64::consts::FRAC_PI_4).unwrap());
    let GridEncoding::Mixed(m) = &diag else {
        unreachable!()
    };
    // Pair 0 (mag 1): the angle at (col 1, row 1) is 2·cos 45° = √2, and at (col 1, row −1) … 0.
    assert!((m.angle(g.patch(1, 1), 0) - 2f64.sqrt()).abs() < F32);
    // The two diagonals (1, ±1) tie at any head angle (their projections on the head's two
    // directions are the same up to sign), but mixed RoPE tells (2, 1) from (2, −1), which axial
    // RoPE (a column term plus a row term) cannot.
    let tilted = Similarity::of(&GridEncoding::Mixed(
        Mixed::new(16, g, MIXED_THETA, 0.3).unwrap(),
    ));
    let straight = Similarity::of(&GridEncoding::Axial(axial));
    let gap = |s: &Similarity| (s.at_offset(2, 1).unwrap() - s.at_offset(2, -1).unwrap()).abs();
    assert!(gap(&tilted) > 1e-3, "{}", gap(&tilted));
    assert!(gap(&straight) < 1e-12);
}

// A query and key of ones: each pair scores |q_pair|² cos φ = 2 cos φ, so the normalised score
// is the mean cosine, the similarity the views draw (axial: a column table plus a row table;
// mixed: by angle addition); a random q scores 1 at offset 0.
#[test]
fn rope_offset_score_of_ones_is_the_similarity() {
    let g = grid(8, 8);
    for e in [
        GridEncoding::Axial(Axial::new(32, g, AXIAL_THETA).unwrap()),
        GridEncoding::Mixed(Mixed::new(32, g, MIXED_THETA, 0.7).unwrap()),
    ] {
        let (freqs, sim) = (e.pair_frequencies().unwrap(), Similarity::of(&e));
        let ones = vec![1.0; 32];
        for (dx, dy) in [(0, 0), (1, 0), (3, -2), (-7, 7)] {
            let a = rotary_score(&freqs, &ones, dx as f64, dy as f64);
            let b = sim.at_offset(dx, dy).unwrap();
            assert!((a - b).abs() < 1e-12);
        }
        let q: Vec<f64> = (0..32)
            .map(|i| ((i * 37 % 11) as f64 - 5.0) / 3.0)
            .collect();
        assert!((rotary_score(&freqs, &q, 0.0, 0.0) - 1.0).abs() < 1e-12);
    }
}

#[test]
fn bad_sizes_are_refused_plainly() {
    assert!(Grid::new(0, 4)
        .unwrap_err()
        .contains("rows must be 1 to 64"));
    assert!(Grid::new(4, MAX_SIDE + 1).is_err());
    assert!(SinCos2d::new(6, grid(2, 2), 10_000.0)
        .unwrap_err()
        .contains("multiple of 4"));
    assert!(Axial::new(10, grid(2, 2), 100.0).is_err());
    assert!(Mixed::new(16, grid(2, 2), f64::NAN, 0.0).is_err());
}

// The whole table (ω computed once per frequency) is every patch's `row`, bit for bit: the
// CSV, the similarity figure and the resolution figure read the same numbers.
#[test]
fn sincos_table_is_its_rows() {
    let e = SinCos2d::new(12, grid(3, 4), 500.0).unwrap();
    let rows: Vec<f64> = (0..12).flat_map(|p| e.row(p)).collect();
    assert_eq!(e.table(), rows);
}
