//! Native tests of the sinusoidal encoding against hand-derived values and its properties.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::sinusoidal::{Sinusoidal, Variant, Wave};

const TOL: f64 = 1e-9;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn assert_row(enc: Sinusoidal, position: usize, expected: &[f64]) {
    let row = enc.row(position);
    assert_eq!(row.len(), expected.len(), "width of {enc:?}");
    for (dim, (got, want)) in row.iter().zip(expected).enumerate() {
        assert!(
            close(*got, *want, TOL),
            "{} PE({position}, {dim}) = {got}, expected {want}",
            enc.variant
        );
    }
}

#[test]
fn position_zero_is_sin_zero_cos_one() {
    for d in [2, 4, 7, 128, 1024] {
        let row = Sinusoidal::new(Variant::Paper, d, 10_000.0).row(0);
        for (dim, v) in row.iter().enumerate() {
            let want = if dim % 2 == 0 { 0.0 } else { 1.0 };
            assert_eq!(*v, want, "PE(0, {dim}) at d = {d}");
        }
    }
}

// Hand-derived: d = 4, base = 10000 gives ω₀ = 10000⁰ = 1 and ω₁ = 10000^(−2/4) = 0.01.
// sin 1 = 0.8414709848, cos 1 = 0.5403023059, sin 0.01 = 0.0099998333, cos 0.01 = 0.9999500004,
// sin 2 = 0.9092974268, cos 2 = −0.4161468365, sin 0.02 = 0.0199986667, cos 0.02 = 0.9998000067.
#[test]
fn paper_d4_by_hand() {
    let enc = Sinusoidal::new(Variant::Paper, 4, 10_000.0);
    assert_row(
        enc,
        1,
        &[0.8414709848, 0.5403023059, 0.0099998333, 0.9999500004],
    );
    assert_row(
        enc,
        2,
        &[0.9092974268, -0.4161468365, 0.0199986667, 0.9998000067],
    );
}

#[test]
fn split_d4_by_hand() {
    let enc = Sinusoidal::new(Variant::Split, 4, 10_000.0);
    assert_row(
        enc,
        1,
        &[0.8414709848, 0.0099998333, 0.5403023059, 0.9999500004],
    );
}

// t2t at d = 4: d/2 − 1 = 1, so ω_i = 10000^(−i): 1 and 1e-4.
// sin 1e-4 = 0.0000999999998, cos 1e-4 = 0.999999995.
#[test]
fn t2t_d4_by_hand() {
    let enc = Sinusoidal::new(Variant::T2t, 4, 10_000.0);
    assert_row(
        enc,
        1,
        &[0.8414709848, 0.0000999999998, 0.5403023059, 0.999999995],
    );
}

// The doubled exponent at d = 4: ω₁ = 10000^(−4/4) = 1e-4 instead of 0.01.
#[test]
fn tutorial_bug_d4_by_hand() {
    let enc = Sinusoidal::new(Variant::TutorialBug, 4, 10_000.0);
    assert_row(
        enc,
        1,
        &[0.8414709848, 0.5403023059, 0.0000999999998, 0.999999995],
    );
}

#[test]
fn frequencies_per_variant_d8() {
    let base = 10_000.0_f64;
    // Paper and split: 10000^(−2i/8) = 1, 0.1, 0.01, 0.001.
    for v in [Variant::Paper, Variant::Split] {
        let enc = Sinusoidal::new(v, 8, base);
        for (i, want) in [1.0, 0.1, 0.01, 0.001].iter().enumerate() {
            assert!(close(enc.omega(i), *want, 1e-15), "{v} ω_{i}");
        }
    }
    // t2t: 10000^(−i/3) = 1, 0.0464158883, 0.00215443469, 1e-4.
    let t2t = Sinusoidal::new(Variant::T2t, 8, base);
    for (i, want) in [1.0, 0.0464158883, 0.00215443469, 1e-4].iter().enumerate() {
        assert!(close(t2t.omega(i), *want, 1e-10), "t2t ω_{i}");
    }
    // Tutorial bug: 10000^(−4i/8) = 1, 0.01, 1e-4, 1e-6.
    let bug = Sinusoidal::new(Variant::TutorialBug, 8, base);
    for (i, want) in [1.0, 0.01, 1e-4, 1e-6].iter().enumerate() {
        assert!(close(bug.omega(i), *want, 1e-15), "tutorial-bug ω_{i}");
    }
}

#[test]
fn paper_wavelengths_run_geometrically_from_two_pi_towards_two_pi_base() {
    let enc = Sinusoidal::new(Variant::Paper, 512, 10_000.0);
    let n = enc.pair_count();
    let ratio = 10_000f64.powf(2.0 / 512.0);
    let first = enc.column(0).wavelength();
    assert!(close(first, std::f64::consts::TAU, 1e-12));
    for i in 1..n {
        let q = enc.column(2 * i).wavelength() / enc.column(2 * i - 2).wavelength();
        assert!(close(q, ratio, 1e-12), "pair {i}: ratio {q}");
    }
    let last = enc.column(2 * n - 1).wavelength();
    assert!(last < std::f64::consts::TAU * 10_000.0 && last > std::f64::consts::TAU * 9_000.0);
}

#[test]
fn t2t_slowest_pair_reaches_the_full_base() {
    let enc = Sinusoidal::new(Variant::T2t, 128, 10_000.0);
    assert!(close(enc.omega(63), 1e-4, 1e-18));
}

#[test]
fn every_row_norm_is_sqrt_half_d_for_even_d() {
    for variant in Variant::ALL {
        for d in [2, 4, 16, 128, 1024] {
            let enc = Sinusoidal::new(variant, d, 10_000.0);
            for position in [0, 1, 7, 100, 4095, 65_535] {
                let norm = enc.row(position).iter().map(|v| v * v).sum::<f64>().sqrt();
                let want = (d as f64 / 2.0).sqrt();
                assert!(
                    close(norm, want, 1e-9),
                    "{variant} d={d} p={position}: {norm}"
                );
            }
        }
    }
}

#[test]
fn split_is_the_paper_with_columns_reordered() {
    for d in [2, 5, 8, 127, 256] {
        let paper = Sinusoidal::new(Variant::Paper, d, 500.0);
        let split = Sinusoidal::new(Variant::Split, d, 500.0);
        let order: Vec<usize> = (0..d).step_by(2).chain((1..d).step_by(2)).collect();
        for position in [0, 3, 99] {
            let p = paper.row(position);
            let s = split.row(position);
            let reordered: Vec<f64> = order.iter().map(|&c| p[c]).collect();
            assert_eq!(s, reordered, "d = {d}, position {position}");
        }
    }
}

#[test]
fn odd_width_paper_ends_with_a_lone_sine() {
    // d = 5: ω = 10000^(−2i/5) for i = 0, 1, 2.
    let enc = Sinusoidal::new(Variant::Paper, 5, 10_000.0);
    let last = enc.column(4);
    assert_eq!(last.wave, Wave::Sin);
    assert!(close(last.omega, 10_000f64.powf(-0.8), 1e-15));
    assert_eq!(enc.row(3).len(), 5);
    assert!(enc.odd_column_note().unwrap().contains("no cosine partner"));
}

#[test]
fn odd_width_t2t_pads_with_zeros_like_fairseq() {
    let enc = Sinusoidal::new(Variant::T2t, 5, 10_000.0);
    // d // 2 = 2 pairs, divisor max(2 − 1, 1) = 1: ω = 1, 1e-4.
    assert_row(
        enc,
        1,
        &[
            0.8414709848,
            0.0000999999998,
            0.5403023059,
            0.999999995,
            0.0,
        ],
    );
    for position in [0, 17, 4000] {
        assert_eq!(enc.value(position, 4), 0.0);
    }
    assert!(enc.odd_column_note().unwrap().contains("zeros"));
    assert!(Sinusoidal::new(Variant::T2t, 6, 10_000.0)
        .odd_column_note()
        .is_none());
}

#[test]
fn d_model_two_is_one_unit_circle() {
    for variant in Variant::ALL {
        let enc = Sinusoidal::new(variant, 2, 10_000.0);
        assert_eq!(enc.pair_count(), 1, "{variant}");
        for position in [0, 1, 2, 1000] {
            let p = position as f64;
            assert_row(enc, position, &[p.sin(), p.cos()]);
        }
    }
}

#[test]
fn t2t_explains_its_divisor_guard_at_small_widths() {
    for d in [2, 3] {
        let note = Sinusoidal::new(Variant::T2t, d, 1e4)
            .divisor_note()
            .unwrap();
        assert!(note.contains("max(d/2 − 1, 1)"), "{note}");
    }
    assert!(Sinusoidal::new(Variant::T2t, 4, 1e4)
        .divisor_note()
        .is_none());
    assert!(Sinusoidal::new(Variant::Paper, 2, 1e4)
        .divisor_note()
        .is_none());
}

#[test]
fn values_stay_finite_at_the_extremes() {
    for variant in Variant::ALL {
        for d in [2, 3, 4096] {
            for base in [10.0, 1e6] {
                let enc = Sinusoidal::new(variant, d, base);
                for dim in [0, d / 2, d - 1] {
                    for position in [0, 65_535] {
                        let v = enc.value(position, dim);
                        assert!(
                            v.is_finite() && v.abs() <= 1.0,
                            "{variant} {d} {base} {dim}"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn explain_uses_the_same_numbers_as_the_matrix() {
    let enc = Sinusoidal::new(Variant::T2t, 128, 10_000.0);
    let f = enc.explain(37, 70);
    assert_eq!(f.column.wave, Wave::Cos);
    assert_eq!(f.column.pair, Some(6));
    let e = f.exponent.unwrap();
    assert_eq!((e.numerator, e.denominator), (6, 63));
    assert_eq!(f.value, enc.value(37, 70));
    assert!(close(f.angle, 37.0 * 10_000f64.powf(-6.0 / 63.0), 1e-12));
}

#[test]
fn variant_ids_round_trip() {
    for v in Variant::ALL {
        assert_eq!(Variant::from_id(v.id()), Some(v));
    }
    assert_eq!(Variant::from_id("Paper"), None);
}

#[test]
fn every_column_with_a_partner_has_the_same_frequency_and_the_other_wave() {
    for variant in Variant::ALL {
        for d in [2, 3, 8, 9, 64] {
            let enc = Sinusoidal::new(variant, d, 10_000.0);
            let mut partnered = 0;
            for dim in 0..d {
                if let Some(p) = enc.partner(dim) {
                    partnered += 1;
                    let (a, b) = (enc.column(dim), enc.column(p));
                    assert_eq!(a.omega, b.omega, "{variant} d={d} dim {dim} ↔ {p}");
                    assert_ne!(a.wave, b.wave);
                    assert_eq!(enc.partner(p), Some(dim));
                }
            }
            assert_eq!(partnered, 2 * (d / 2), "{variant} d={d}");
        }
    }
}

#[test]
fn the_benchmark_computes_every_cell() {
    // Σ over p < 3, two columns of d = 2 (ω = 1): sin 0 + sin 1 + sin 2 + cos 0 + cos 1 + cos 2.
    let want: f64 = (0..3).map(|p| (p as f64).sin() + (p as f64).cos()).sum();
    let got = pe_explorer::bench::sinusoidal_checksum(3, 2, 10_000.0);
    assert!((got - want).abs() < 1e-6, "{got} vs {want}");
}

// ----- fairseq's padding_idx (t2t layout) -----

// fairseq: get_embedding(num_embeddings, 4, padding_idx=1) at base 10000 has half_dim = 2, so
// ω = 10000^(−i/(2−1)) = 1 and 1e-4, columns [sin ω₀r, sin ω₁r, cos ω₀r, cos ω₁r]; row 1 is zeroed;
// make_positions gives token i the row 1 + 1 + i. Token 0 reads row 2:
// sin 2 = 0.9092974268, sin 2e-4 = 0.000199999998667, cos 2 = −0.4161468365, cos 2e-4 = 0.99999998.
// Token 1 reads row 3: sin 3 = 0.1411200081, sin 3e-4 = 0.0002999999955, cos 3 = −0.9899924966,
// cos 3e-4 = 0.999999955.
fn close_rows(got: &[f64], want: &[f64], what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: width");
    for (dim, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, *w, TOL), "{what} dim {dim}: {g}, expected {w}");
    }
}

#[test]
fn fairseq_padding_idx_shifts_tokens_by_hand() {
    let plain = Sinusoidal::new(Variant::T2t, 4, 10_000.0);
    let fairseq = plain.with_padding_idx(Some(1));
    assert_eq!(fairseq.row_of_token(0), 2);
    close_rows(
        &fairseq.token_row(0),
        &[0.9092974268, 0.000199999998667, -0.4161468365, 0.99999998],
        "token 0",
    );
    close_rows(
        &fairseq.token_row(1),
        &[0.1411200081, 0.0002999999955, -0.9899924966, 0.999999955],
        "token 1",
    );
    // Token 0 with padding is exactly the unpadded table's row 2.
    assert_eq!(fairseq.token_row(0), plain.row(2));
    assert_eq!(fairseq.token_row(0), plain.table_row(2));
    // The weights: row 0 is sin 0, cos 0; row 1 (padding_idx) is all zeros; row 2 as above.
    assert_eq!(fairseq.table_row(0), vec![0.0, 0.0, 1.0, 1.0]);
    assert_eq!(fairseq.table_row(1), vec![0.0; 4]);
    assert_eq!(fairseq.table_row(2), plain.row(2));
    for dim in 0..4 {
        assert_eq!(fairseq.table_value(1, dim), 0.0);
        assert_eq!(fairseq.token_value(0, dim), plain.value(2, dim));
    }
    // The formula of a column is unchanged: padding only moves rows.
    assert_eq!(fairseq.columns(), plain.columns());
    let note = fairseq.padding_note().unwrap();
    assert!(
        note.contains("starts at row 2") && note.contains("row 1 of the weights"),
        "{note}"
    );
    assert!(plain.padding_note().is_none());
}

#[test]
fn fairseq_padding_zero_row_and_odd_zero_column() {
    let e = Sinusoidal::new(Variant::T2t, 5, 10_000.0).with_padding_idx(Some(3));
    assert_eq!(e.table_row(3), vec![0.0; 5]);
    for r in [0, 1, 2, 4, 10, 1000] {
        assert_eq!(e.table_row(r)[4], 0.0, "odd column, row {r}");
    }
    for t in [0, 1, 7, 500] {
        let row = e.token_row(t);
        assert_eq!(row[4], 0.0, "odd column, token {t}");
        // Never the zero row: a cosine is there.
        assert!(row[2].abs() + row[3].abs() > 0.0);
        assert_eq!(e.row_of_token(t), t + 4);
    }
}

#[test]
fn fairseq_padding_matrix_shows_the_tokens() {
    use pe_explorer::math::binning::Bins;
    use pe_explorer::math::matrix::Matrix;
    use pe_explorer::math::sinusoidal::SinusoidalMatrix;
    let e = Sinusoidal::new(Variant::T2t, 8, 10_000.0).with_padding_idx(Some(1));
    let m = SinusoidalMatrix::new(e, 50);
    assert_eq!((m.rows(), m.cols()), (50, 8));
    for t in [0, 1, 49] {
        for c in 0..8 {
            assert!(close(m.value(t, c), e.token_value(t, c), 1e-12));
        }
    }
    // Block means (one bin per cell, and bins of several rows) average the tokens' rows.
    for (rows, cols) in [
        (Bins::each(0, 50), Bins::each(0, 8)),
        (Bins::fit(0, 50, 7), Bins::fit(0, 8, 3)),
    ] {
        let means = m.block_means(&rows, &cols);
        for r in 0..rows.count() {
            for c in 0..cols.count() {
                let (mut sum, mut n) = (0.0, 0.0);
                for t in rows.range(r) {
                    for d in cols.range(c) {
                        sum += e.token_value(t, d);
                        n += 1.0;
                    }
                }
                let got = means[r * cols.count() + c] as f64;
                assert!(
                    close(got, sum / n, 1e-5),
                    "block ({r}, {c}): {got} vs {}",
                    sum / n
                );
            }
        }
    }
    // The readout reads the same row as the matrix.
    let f = e.explain(0, 0);
    assert_eq!((f.position, f.row), (0, 2));
    assert!(close(f.value, m.value(0, 0), 1e-15));
    assert!(close(f.angle, 2.0, 1e-15));
}

#[test]
fn no_padding_idx_leaves_everything_as_today() {
    use pe_explorer::math::matrix::Matrix;
    use pe_explorer::math::sinusoidal::SinusoidalMatrix;
    for v in Variant::ALL {
        for d in [4, 5, 64] {
            let e = Sinusoidal::new(v, d, 10_000.0);
            assert_eq!(e.with_padding_idx(None), e);
            assert_eq!(e.padding_idx, None);
            for p in [0, 1, 2, 99] {
                assert_eq!(e.row_of_token(p), p);
                assert_eq!(e.token_row(p), e.row(p));
                assert_eq!(e.table_row(p), e.row(p));
                let f = e.explain(p, 1);
                assert_eq!((f.position, f.row), (p, p));
            }
            let m = SinusoidalMatrix::new(e, 20);
            assert_eq!(m.value(3, 1), e.value(3, 1));
        }
    }
}

#[test]
fn settings_apply_padding_idx_only_to_t2t() {
    use pe_explorer::action::Action;
    use pe_explorer::state::Settings;
    use std::rc::Rc;
    use yew::Reducible;
    let s = Rc::new(Settings::default());
    assert_eq!(s.padding_idx, None);
    assert_eq!(
        s.sinusoidal(),
        Sinusoidal::new(s.variant, s.d_model, s.base)
    );
    let s = s.reduce(Action::SetPaddingIdx(Some(1.0)));
    assert_eq!(s.padding_idx, Some(1));
    // The paper's layout has no padding row.
    assert_eq!(s.sinusoidal().padding_idx, None);
    let t2t = s.clone().reduce(Action::SetVariant(Variant::T2t));
    assert_eq!(t2t.sinusoidal().padding_idx, Some(1));
    assert_eq!(t2t.sinusoidal().token_row(0), t2t.sinusoidal().row(2));
    // Held to 0 ..= 1024, rounded; NaN falls to the minimum; None clears it.
    assert_eq!(
        t2t.clone()
            .reduce(Action::SetPaddingIdx(Some(5000.0)))
            .padding_idx,
        Some(1024)
    );
    assert_eq!(
        t2t.clone()
            .reduce(Action::SetPaddingIdx(Some(-3.0)))
            .padding_idx,
        Some(0)
    );
    assert_eq!(
        t2t.clone()
            .reduce(Action::SetPaddingIdx(Some(2.6)))
            .padding_idx,
        Some(3)
    );
    assert_eq!(
        t2t.clone()
            .reduce(Action::SetPaddingIdx(Some(f64::NAN)))
            .padding_idx,
        Some(0)
    );
    assert_eq!(t2t.reduce(Action::SetPaddingIdx(None)).padding_idx, None);
}
