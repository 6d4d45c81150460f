//! The figures layer: every scheme's definition, the compare columns, the attention demo's
//! inputs, the norms and the offsets, natively, with the memo keys that decide when a view
//! recomputes.

use pe_explorer::figures::attention::{demo, demo_inputs};
use pe_explorer::figures::compare::ColumnJob;
use pe_explorer::figures::norms::{norms, NormsInputs};
use pe_explorer::figures::offsets::{offset_chart, offsets_csv, OffsetInputs};
use pe_explorer::math::alibi::AlibiHeads;
use pe_explorer::math::chunked::Chunked;
use pe_explorer::math::offsets::ClosedForm;
use pe_explorer::math::sinusoidal::Sinusoidal;
use pe_explorer::plot::colormap::Palette;
use pe_explorer::schemes::inputs::ColumnInputs;
use pe_explorer::schemes::rope::{Extension, RopeSettings};
use pe_explorer::schemes::{snippet, Registered, Scheme, SchemeSettings, Space};
use pe_explorer::snippets::Library;
use pe_explorer::state::Settings;

fn sized(d_model: usize, length: usize) -> Settings {
    Settings {
        d_model,
        length,
        ..Settings::default()
    }
}

/// `s` with its RoPE settings changed by `change`.
fn with_rope(s: &Settings, change: impl FnOnce(&mut RopeSettings)) -> Settings {
    let mut out = s.clone();
    change(&mut out.schemes.rope);
    out
}

/// The numbers of line `n` of a CSV text (0: the header).
fn csv_row(csv: &str, n: usize) -> Vec<f64> {
    csv.lines()
        .nth(n)
        .unwrap()
        .split(',')
        .map(|v| v.parse().unwrap())
        .collect()
}

fn settings(scheme: Scheme) -> Settings {
    Settings {
        scheme,
        d_model: 8,
        length: 12,
        ..Settings::default()
    }
}

#[test]
fn each_scheme_has_one_definition_with_its_own_id() {
    let mut ids: Vec<&str> = Scheme::ALL.iter().map(|s| s.id()).collect();
    for s in Scheme::ALL {
        assert_eq!(Scheme::from_id(s.id()), Some(s));
        assert!(!s.def().names().label.is_empty() && !s.def().names().entry.is_empty());
        // The export names of two schemes never collide.
        let stem = pe_explorer::schemes::file_stem(&settings(s), s, "x");
        assert!(stem.contains(s.id()) || s == Scheme::Sinusoidal, "{stem}");
        // Code that rebuilds the scheme's matrix; M-RoPE's rebuilds its split of the
        // frequencies into time, height and width (its ids depend on the sequence).
        let code = snippet(&settings(s), Library::NumPy);
        let built = if s == Scheme::Mrope {
            "axis ="
        } else {
            "matrix ="
        };
        assert!(code.contains(built), "{s:?}: {code}");
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), Scheme::ALL.len());
}

#[test]
fn every_compare_column_has_a_curve_and_a_square_matrix_of_the_length() {
    for scheme in Scheme::ALL {
        let s = settings(scheme);
        // The compare view draws a line of tokens: the schemes of image patches have no column.
        let Some(column) = scheme.def().column(&s) else {
            assert_ne!(scheme.space(), Space::Line, "{scheme:?}");
            continue;
        };
        let scores = ColumnJob::new(&column).run();
        assert_eq!(scores.matrix.rows(), s.length, "{scheme:?}");
        assert_eq!(scores.matrix.cols(), s.length, "{scheme:?}");
        assert!(!scores.curve.is_empty() && scores.curve.len() <= s.length);
    }
}

#[test]
fn compare_columns_hold_the_hand_derived_values() {
    // Sinusoidal, d = 4, base 10000: ω = 1 and 0.01, so PE(i)·PE(i − 1) = cos 1 + cos 0.01.
    let s = Settings {
        d_model: 4,
        ..settings(Scheme::Sinusoidal)
    };
    let c = ColumnJob::new(&Scheme::Sinusoidal.def().column(&s).expect("a column")).run();
    assert!((c.curve[1] - (1f64.cos() + 0.01f64.cos())).abs() < 1e-12);
    assert!((c.curve[0] - 2.0).abs() < 1e-12);
    // ALiBi: −m·k back, masked ahead (causal); head 0 of 8 has slope 1/2.
    let s = Settings {
        schemes: SchemeSettings {
            alibi: AlibiHeads { heads: 8, head: 0 },
            ..SchemeSettings::default()
        },
        ..settings(Scheme::Alibi)
    };
    let c = ColumnJob::new(&Scheme::Alibi.def().column(&s).expect("a column")).run();
    assert_eq!(c.curve[3], -1.5);
    assert_eq!(c.matrix.value(5, 2), -1.5);
    assert!(c.matrix.value(2, 5).is_nan());
    // None: zero everywhere.
    let c = ColumnJob::new(
        &Scheme::None
            .def()
            .column(&settings(Scheme::None))
            .expect("a column"),
    )
    .run();
    assert!(c.curve.iter().all(|v| *v == 0.0));
}

#[test]
fn memo_keys_change_with_every_input_and_only_then() {
    // Llama 3.1's band edges reach the RoPE column and the demo (they once were left out of a
    // hand-kept key, so the column did not move).
    let a = Settings {
        schemes: SchemeSettings {
            rope: RopeSettings {
                extension: Extension::Llama3,
                factor: 8.0,
                ..RopeSettings::default()
            },
            ..SchemeSettings::default()
        },
        trained_length: 8,
        length: 64,
        ..settings(Scheme::Rope)
    };
    let b = with_rope(&a, |r| r.low_freq = 2.0);
    assert_ne!(a.rope(), b.rope());
    assert_ne!(Scheme::Rope.def().column(&a), Scheme::Rope.def().column(&b));
    let (a2, b2) = (
        Settings {
            attention_position: true,
            ..a.clone()
        },
        Settings {
            attention_position: true,
            ..b.clone()
        },
    );
    assert_ne!(demo_inputs(&a2), demo_inputs(&b2));
    // What a figure does not read leaves its key alone.
    let c = Settings {
        palette: Palette::ALL[1],
        schemes: SchemeSettings {
            alibi: AlibiHeads {
                heads: 4,
                ..a2.schemes.alibi
            },
            ..a2.schemes.clone()
        },
        ..a2.clone()
    };
    assert_eq!(demo_inputs(&a2), demo_inputs(&c));
    assert_eq!(Scheme::Rope.def().column(&a), Scheme::Rope.def().column(&c));
    assert_eq!(NormsInputs::of(&a), NormsInputs::of(&c));
    // Partial rotary reaches the demo's head.
    let d = with_rope(&a2, |r| r.rotary_fraction = 0.5);
    assert_ne!(demo_inputs(&a2), demo_inputs(&d));
    match &Scheme::Rope.def().column(&a) {
        Some(ColumnInputs::Rotary(r, length)) => {
            assert_eq!((r.clone(), *length), (a.rope(), a.length))
        }
        other => panic!("RoPE's column is {other:?}"),
    }
}

#[test]
fn the_demo_ties_without_position_and_comes_apart_with_it() {
    let off = Settings::default();
    assert!(demo(&off).summary_cosine >= pe_explorer::figures::attention::TIE);
    for scheme in [
        Scheme::Sinusoidal,
        Scheme::Learned,
        Scheme::Rope,
        Scheme::T5,
    ] {
        let on = Settings {
            scheme,
            attention_position: true,
            ..Settings::default()
        };
        assert!(
            demo(&on).summary_cosine < pe_explorer::figures::attention::TIE,
            "{scheme:?}"
        );
    }
}

#[test]
fn the_norms_csv_is_the_chart_with_hand_derived_first_row() {
    // PE(0) of the paper's layout is (0, 1, 0, 1, …): length √(d/2).
    let s = sized(8, 5);
    let n = norms(&NormsInputs::of(&s));
    let lines: Vec<&str> = n.csv.lines().collect();
    assert_eq!(
        lines[0],
        "position,pe_norm,word_plus_pe_norm,scaled_word_plus_pe_norm"
    );
    assert_eq!(lines.len(), 1 + 5);
    let first: f64 = lines[1].split(',').nth(1).unwrap().parse().unwrap();
    assert!((first - 2.0).abs() < 1e-8);
    assert_eq!(n.chart.series.len(), 3);
}

#[test]
fn the_offsets_csv_covers_every_offset_of_the_chart() {
    let s = sized(8, 6);
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let form = ClosedForm::job(e, s.length).run();
    let forms = vec![form];
    let inputs = OffsetInputs::of(&s);
    let chart = offset_chart(&inputs, &forms);
    let csv = offsets_csv(&inputs, &chart).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("offset,anchor_"));
    assert!(lines[0].ends_with(",closed_form"));
    assert_eq!(lines.len(), 1 + 2 * 6 - 1);
    // Offset 0 of the closed form is the number of pairs, d/2.
    let zero = lines.iter().find(|l| l.starts_with("0,")).unwrap();
    assert_eq!(
        zero.rsplit(',').next().unwrap().parse::<f64>().unwrap(),
        4.0
    );
}

#[test]
fn scheme_view_tables_hold_hand_derived_rows() {
    use pe_explorer::figures::rotations::{rotation_csv, RotationInputs};
    use pe_explorer::figures::schemes::{BiasInputs, T5DistanceInputs, T5MatrixInputs};
    // ALiBi with 2 heads: slopes 2^(−8/2) = 1/16 and 2^(−16/2) = 1/256, so distance 4 costs
    // 1/4 and 1/64.
    let s = Settings {
        schemes: SchemeSettings {
            alibi: AlibiHeads { heads: 2, head: 0 },
            ..SchemeSettings::default()
        },
        length: 6,
        ..settings(Scheme::Alibi)
    };
    let csv = BiasInputs::of(&s).unwrap().csv();
    assert!(csv.starts_with("distance,head_0,head_1\n"));
    let row = csv_row(&csv, 5);
    assert_eq!(row, vec![4.0, -0.25, -1.0 / 64.0]);
    // T5: one row per relative position from −(L − 1) to L − 1, bucket 0 at distance 0.
    let s = settings(Scheme::T5);
    let csv = T5DistanceInputs::of(&s).csv();
    assert_eq!(csv.lines().count(), 1 + 2 * s.length - 1);
    assert!(csv.lines().any(|l| l.starts_with("0,0,")));
    // T5's bias follows its seed (a memo keyed on the buckets alone would not move).
    let other = Settings {
        learned_seed: 7,
        ..s.clone()
    };
    assert_ne!(T5MatrixInputs::of(&s), T5MatrixInputs::of(&other));
    assert_ne!(T5DistanceInputs::of(&s), T5DistanceInputs::of(&other));
    // Rotations: pair 0 has ω = 1; at p = 0, k = 1 the pair (sin, cos) = (0, 1) turns to
    // (sin 1, cos 1) with no error.
    let s = Settings {
        d_model: 4,
        position: 0,
        offset: 1,
        ..Settings::default()
    };
    let csv = rotation_csv(&RotationInputs::of(&s));
    let row = csv_row(&csv, 1);
    assert_eq!(&row[..4], &[0.0, 0.0, 1.0, 1.0]);
    assert!((row[6] - 1f64.sin()).abs() < 1e-8 && (row[7] - 1f64.cos()).abs() < 1e-8);
    assert!(row[10].abs() < 1e-12);
}

/// `BiasInputs::cards`: ALiBi's head cards share one colour scale, the steepest head's extent,
/// so head 7 (slope 1/256) is drawn pale beside head 0 (slope 1/2); each large heatmap keeps
/// its own.
#[test]
fn the_head_cards_share_one_colour_scale() {
    use pe_explorer::figures::schemes::BiasInputs;
    let s = Settings {
        schemes: SchemeSettings {
            alibi: AlibiHeads { heads: 8, head: 7 },
            ..SchemeSettings::default()
        },
        length: 64,
        ..settings(Scheme::Alibi)
    };
    let k = BiasInputs::of(&s).unwrap();
    let cards = k.cards();
    assert_eq!(cards.len(), 8);
    // Head 0's slope is 1/2: at distance 63 it subtracts 31.5.
    for (_, c) in &cards {
        assert_eq!((c.scale.min, c.scale.max), (-31.5, 31.5));
    }
    // Head 7 on its own scale spans 63/256.
    assert_eq!(k.matrix(7).scale.max, 63.0 / 256.0);
}
