//! CSV export: header, row count and precision of the values a user downloads.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::export::{format_value, matrix_csv, MAX_CSV_CELLS};
use pe_explorer::format::{duration, group_thousands, quoted};
use pe_explorer::math::matrix::{Dense, Matrix};
use pe_explorer::math::sinusoidal::{Sinusoidal, SinusoidalMatrix, Variant};

fn significant_digits(s: &str) -> usize {
    let mantissa = s.split(['e', 'E']).next().unwrap();
    mantissa
        .chars()
        .filter(|c| c.is_ascii_digit())
        .collect::<String>()
        .trim_start_matches('0')
        .len()
}

#[test]
fn values_keep_at_least_seven_significant_digits() {
    for v in [
        0.8414709848078965,
        -0.4161468365471424,
        1.0,
        9.9998e-5,
        1.23456789e-9,
        -0.5,
    ] {
        let s = format_value(v);
        assert!(significant_digits(&s) >= 7, "{v} → {s}");
        let back: f64 = s.parse().unwrap();
        assert!((back - v).abs() <= v.abs() * 1e-8, "{v} → {s} → {back}");
    }
    assert_eq!(format_value(0.0), "0");
    assert_eq!(format_value(f64::NAN), "NaN");
}

#[test]
fn csv_has_a_header_and_one_row_per_position() {
    let m = SinusoidalMatrix::new(Sinusoidal::new(Variant::Paper, 6, 10_000.0), 5);
    let csv = matrix_csv(&m, "position", |c| format!("dim_{c}")).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "position,dim_0,dim_1,dim_2,dim_3,dim_4,dim_5");
    assert_eq!(lines.len(), 1 + 5);
    for (r, line) in lines[1..].iter().enumerate() {
        let fields: Vec<&str> = line.split(',').collect();
        assert_eq!(fields.len(), 7);
        assert_eq!(fields[0], r.to_string());
        for (c, f) in fields[1..].iter().enumerate() {
            let v: f64 = f.parse().unwrap();
            assert!((v - m.value(r, c)).abs() < 1e-8, "({r}, {c})");
        }
    }
}

#[test]
fn the_largest_required_matrix_still_exports() {
    // length 4096 × d_model 1024 is the biggest export the app promises.
    let m = SinusoidalMatrix::new(Sinusoidal::new(Variant::Paper, 1024, 1e4), 4096);
    assert!(m.rows() * m.cols() <= MAX_CSV_CELLS);
    let csv = matrix_csv(&m, "position", |c| format!("dim_{c}")).unwrap();
    assert_eq!(csv.lines().count(), 4097);
}

#[test]
fn oversized_exports_are_refused_with_a_message() {
    let m = Dense::new(1, 0, vec![]);
    assert!(matrix_csv(&m, "position", |c| c.to_string()).is_ok());
    let big = SinusoidalMatrix::new(Sinusoidal::new(Variant::Paper, 4096, 1e4), 65_536);
    let err = matrix_csv(&big, "position", |c| c.to_string()).unwrap_err();
    assert_eq!(err.cells, 4096 * 65_536);
    assert!(err.message().contains("268,435,456"));
    assert_eq!(group_thousands(1000u64), "1,000");
    assert_eq!(group_thousands(999u64), "999");
}

#[test]
fn file_names_name_the_settings_of_the_scheme_shown() {
    use pe_explorer::math::alibi::AlibiHeads;
    use pe_explorer::schemes::file_stem;
    use pe_explorer::schemes::rope::{Extension, RopeSettings};
    use pe_explorer::schemes::{Scheme, SchemeSettings};
    use pe_explorer::state::Settings;
    let base = Settings::default();
    assert_eq!(
        file_stem(&base, Scheme::Sinusoidal, "sinusoidal"),
        "pe_sinusoidal_paper_d128_len100_base10000"
    );
    // Every setting a scheme reads changes its file name; others leave it alone.
    let variants: Vec<(Scheme, Settings)> = vec![
        (
            Scheme::Learned,
            Settings {
                learned_seed: 2,
                ..base.clone()
            },
        ),
        (
            Scheme::Learned,
            Settings {
                trained_length: 64,
                ..base.clone()
            },
        ),
        (
            Scheme::Rope,
            Settings {
                schemes: SchemeSettings {
                    rope: RopeSettings {
                        extension: Extension::Ntk,
                        ..base.schemes.rope.clone()
                    },
                    ..base.schemes.clone()
                },
                ..base.clone()
            },
        ),
        (
            Scheme::Rope,
            Settings {
                base: 500_000.0,
                ..base.clone()
            },
        ),
        (
            Scheme::Alibi,
            Settings {
                schemes: SchemeSettings {
                    alibi: AlibiHeads {
                        head: 3,
                        ..base.schemes.alibi
                    },
                    ..base.schemes.clone()
                },
                ..base.clone()
            },
        ),
        (
            Scheme::T5,
            Settings {
                schemes: SchemeSettings {
                    t5: pe_explorer::math::t5::T5Buckets {
                        max_distance: 64,
                        ..base.schemes.t5
                    },
                    ..base.schemes.clone()
                },
                ..base.clone()
            },
        ),
        (
            Scheme::T5,
            Settings {
                learned_seed: 9,
                ..base.clone()
            },
        ),
    ];
    for (scheme, changed) in &variants {
        let (a, b) = (
            file_stem(&base, *scheme, "x"),
            file_stem(changed, *scheme, "x"),
        );
        assert_ne!(a, b, "{scheme:?}");
        assert!(
            b.chars()
                .all(|c| c.is_ascii_alphanumeric() || "_-.".contains(c)),
            "{b}"
        );
    }
    let other_seed = Settings {
        learned_seed: 2,
        ..base.clone()
    };
    assert_eq!(
        file_stem(&base, Scheme::Alibi, "x"),
        file_stem(&other_seed, Scheme::Alibi, "x")
    );
}

#[test]
fn durations_read_as_people_say_them() {
    for (seconds, text) in [
        (0.4, "under a second"),
        (7.3, "7 s"),
        (44.0, "45 s"),
        (59.0, "1 min"),
        (200.0, "3 min 20 s"),
        (1500.0, "25 min"),
        (7800.0, "2 h 10 min"),
        (23_288.0, "6 h 30 min"),
        (50_000.0, "14 h"),
        (280_000.0, "3 days 6 h"),
    ] {
        assert_eq!(duration(seconds), text, "{seconds} s");
    }
    assert_eq!(duration(f64::NAN), "an unknown time");
}

#[test]
fn quoted_text_is_short_and_shows_control_characters() {
    assert_eq!(quoted("agent\0"), "agent\\u0000");
    assert_eq!(quoted("a\tb"), "a\\u0009b");
    assert_eq!(quoted(&"x".repeat(30)), format!("{}…", "x".repeat(24)));
    assert_eq!(quoted("<script>"), "<script>");
}
