//! Property tests over the full ranges the sliders and the URL allow (d_model 2 … 4096, length
//! 1 … 65,536, base 10 … 10⁸, trained length up to 1,048,576, every variant, pairing and
//! extension with factors up to 1,024): every value the views draw is finite, and the norms are
//! what the formulas say.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use pe_explorer::math::alibi::slopes;
use pe_explorer::math::binning::Bins;
use pe_explorer::math::learned::Learned;
use pe_explorer::math::matrix::Matrix;
use pe_explorer::math::offsets::{ClosedForm, PairStructure};
use pe_explorer::math::rope::{Rope, RopePairing, RopeScaling};
use pe_explorer::math::sinusoidal::{Sinusoidal, SinusoidalMatrix, Variant};
use pe_explorer::math::t5::{T5Bias, T5Buckets};
use proptest::prelude::*;

fn variant() -> impl Strategy<Value = Variant> {
    prop::sample::select(Variant::ALL.to_vec())
}

/// Bases spread over the whole range on a log scale, plus the two ends exactly.
fn base() -> impl Strategy<Value = f64> {
    prop_oneof![
        (1.0f64..8.0).prop_map(|e| 10f64.powf(e)),
        Just(10.0),
        Just(100_000_000.0),
    ]
}

fn width() -> impl Strategy<Value = usize> {
    prop_oneof![2usize..64, 64usize..=4096, Just(4096)]
}

fn length() -> impl Strategy<Value = usize> {
    prop_oneof![1usize..200, 200usize..=65_536, Just(65_536)]
}

fn scaling() -> impl Strategy<Value = RopeScaling> {
    let factor = || prop_oneof![1.0f64..=64.0, Just(1024.0)];
    let original = || prop_oneof![1usize..4096, Just(1_048_576)];
    prop_oneof![
        Just(RopeScaling::None),
        factor().prop_map(RopeScaling::Interpolation),
        factor().prop_map(RopeScaling::Ntk),
        (factor(), original(), 1usize..=65_536).prop_map(|(factor, original, length)| {
            RopeScaling::DynamicNtk {
                factor,
                original,
                length,
            }
        }),
        (factor(), original()).prop_map(|(factor, original)| RopeScaling::Llama3 {
            factor,
            low: 1.0,
            high: 4.0,
            original
        }),
        (factor(), original(), any::<bool>()).prop_map(|(factor, original, truncate)| {
            common::yarn_scaling(factor, original, truncate)
        }),
        (
            factor(),
            original(),
            1usize..=65_536,
            prop::collection::vec(0.001f64..10_000.0, 0..64)
        )
            .prop_map(|(factor, original, length, f)| RopeScaling::LongRope {
                short: f.clone().into(),
                long: f.iter().rev().copied().collect::<Vec<_>>().into(),
                original,
                length,
                factor,
                attention_factor: None,
            }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(120))]

    #[test]
    fn sinusoidal_rows_are_finite_bounded_and_have_the_expected_norm(
        v in variant(), d in width(), b in base(), p in 0usize..65_536,
    ) {
        let e = Sinusoidal::new(v, d, b);
        let row = e.row(p);
        prop_assert_eq!(row.len(), d);
        prop_assert!(row.iter().all(|x| x.is_finite() && x.abs() <= 1.0));
        // Each (sin, cos) pair contributes sin² + cos² = 1; a lone column (odd widths) at most 1.
        let pairs = PairStructure::of(&e).pairs.len() as f64;
        let norm_sq: f64 = row.iter().map(|x| x * x).sum();
        prop_assert!(norm_sq >= pairs - 1e-9 && norm_sq <= pairs + 1.0 + 1e-9, "{} vs {}", norm_sq, pairs);
        if d % 2 == 0 {
            prop_assert!((norm_sq - d as f64 / 2.0).abs() < 1e-9 * d as f64);
        }
    }

    #[test]
    fn heatmap_pixels_are_finite_means_inside_the_value_range(
        v in variant(), d in width(), b in base(), l in length(),
        w in 1usize..700, h in 1usize..500,
    ) {
        let m = SinusoidalMatrix::new(Sinusoidal::new(v, d, b), l);
        let (rows, cols) = (Bins::fit(0, l, h), Bins::fit(0, d, w));
        let pixels = m.block_means(&rows, &cols);
        prop_assert_eq!(pixels.len(), rows.count() * cols.count());
        prop_assert!(pixels.iter().all(|x| x.is_finite() && x.abs() <= 1.0 + 1e-6));
    }

    #[test]
    fn offset_curves_are_finite_and_peak_at_zero(
        v in variant(), d in width(), b in base(), l in 1usize..4096,
    ) {
        let form = ClosedForm::new(Sinusoidal::new(v, d, b), l);
        let pairs = form.structure.pairs.len() as f64;
        prop_assert_eq!(form.half.len(), l);
        prop_assert!((form.half[0] - pairs).abs() < 1e-9 * pairs.max(1.0));
        prop_assert!(form.half.iter().all(|x| x.is_finite() && x.abs() <= pairs + 1e-9));
    }

    #[test]
    fn rope_keeps_norms_and_its_curves_are_finite(
        d in width(), b in base(), s in scaling(), pairing in prop::sample::select(RopePairing::ALL.to_vec()),
        p in 0.0f64..65_536.0, seed in any::<u64>(), fraction in prop_oneof![Just(1.0), 0.05f64..=1.0],
    ) {
        let rope = Rope::new(d, b, pairing, s).with_rotary_fraction(fraction);
        let mut rng = pe_explorer::math::rng::SplitMix64::new(seed);
        let x: Vec<f64> = (0..d).map(|_| rng.next_normal()).collect();
        let turned = rope.rotate(&x, p);
        let norm = |v: &[f64]| v.iter().map(|a| a * a).sum::<f64>().sqrt();
        prop_assert!(turned.iter().all(|a| a.is_finite()));
        // Rotation keeps the norm of each pair; the attention factor scales the rotated ones.
        let f = rope.attention_factor();
        prop_assert!(f.is_finite() && f > 0.0);
        let rotated = rope.rotated_width();
        prop_assert!((norm(&turned[..rotated]) - f * norm(&x[..rotated])).abs() < 1e-9 * (f * norm(&x)).max(1.0));
        prop_assert_eq!(&turned[rotated..], &x[rotated..]);
        prop_assert!(rope.rotated_width() <= d);
        let curves = rope.distance_curves(64, 8);
        // At distance 0 every pair adds 2·f² and every unrotated dimension 1.
        let f2 = rope.attention_factor().powi(2);
        let at_zero = 2.0 * f2 * rope.pair_count() as f64 + rope.unrotated() as f64;
        prop_assert!((curves.ones[0] - at_zero).abs() < 1e-9 * at_zero);
        prop_assert!(curves.ones.iter().chain(&curves.random).all(|a| a.is_finite()));
        prop_assert!(curves.decay.iter().all(|(x, y)| x.is_finite() && y.is_finite()));
    }

    #[test]
    fn alibi_slopes_are_positive_and_at_most_one(heads in 1usize..=64) {
        let m = slopes(heads);
        prop_assert_eq!(m.len(), heads);
        prop_assert!(m.iter().all(|s| s.is_finite() && *s > 0.0 && *s <= 1.0));
    }

    #[test]
    fn t5_and_learned_values_are_finite(
        buckets in 2usize..=128, max_distance in 1usize..=65_536, bidirectional in any::<bool>(),
        r in -65_536i64..=65_536, seed in any::<u64>(), d in width(), rows in 1usize..=65_536,
    ) {
        let t5 = T5Bias::seeded(T5Buckets { num_buckets: buckets, max_distance, bidirectional }, seed);
        prop_assert!(t5.at(r).is_finite());
        let table = Learned::new(rows, d, seed);
        let row = table.row(rows - 1).unwrap();
        prop_assert!(row.iter().all(|x| x.is_finite()));
        prop_assert!(table.row(rows).is_err());
    }
}

/// The trained length is also the learned table's max_len: at 1,048,576 rows of width 4,096
/// (4·10⁹ cells) the views must still compute only the rows they show.
#[test]
fn a_learned_table_of_a_million_rows_costs_only_the_rows_shown() {
    use pe_explorer::figures::compare::ColumnJob;
    use pe_explorer::figures::schemes::{learned_distance, LearnedDistanceInputs};
    use pe_explorer::math::chunked::Chunked;
    use pe_explorer::math::learned::LearnedMatrix;
    use pe_explorer::schemes::inputs::ColumnInputs;
    let s = pe_explorer::state::Settings {
        trained_length: 1_048_576,
        d_model: 4096,
        length: 2000,
        ..Default::default()
    };
    let start = std::time::Instant::now();
    let table = s.learned();
    let m = LearnedMatrix {
        table,
        length: s.length,
    };
    let pixels = m.block_means(&Bins::fit(0, s.length, 400), &Bins::fit(0, 4096, 600));
    assert!(pixels.iter().all(|v| v.is_finite()));
    let chart = learned_distance(&LearnedDistanceInputs::of(&s));
    assert!(!chart.series.is_empty());
    let _ = ColumnJob::new(&ColumnInputs::Table(table, s.length)).run();
    // Row by row over the table would be 4·10⁹ draws, minutes; the rows shown take well under
    // a second even in a debug build.
    assert!(
        start.elapsed().as_secs_f64() < 20.0,
        "{:?}",
        start.elapsed()
    );
}
