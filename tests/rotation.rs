//! The relative-position property: M_k maps every pair at p to the same pair at p + k.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::rotation::{apply, check, dial_subset, pairs, rotation, Pairing};
use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};

#[test]
fn the_identity_holds_for_every_pair_of_every_variant() {
    for variant in Variant::ALL {
        for d in [2, 8, 128, 513] {
            let enc = Sinusoidal::new(variant, d, 10_000.0);
            for (p, k) in [(0, 1), (3, 7), (100, -40), (500, 2000)] {
                let result = check(&enc, Pairing::Partners, p, k);
                assert_eq!(result.pair_count, d / 2);
                assert!(
                    result.max_error < 1e-12,
                    "{variant} d={d} p={p} k={k}: {}",
                    result.max_error
                );
            }
        }
    }
}

#[test]
fn reading_adjacent_columns_breaks_it_for_the_split_layouts() {
    for variant in [Variant::Split, Variant::T2t] {
        let enc = Sinusoidal::new(variant, 64, 10_000.0);
        let result = check(&enc, Pairing::Adjacent, 10, 3);
        assert!(result.max_error > 0.1, "{variant}: {}", result.max_error);
    }
    // For the interleaved layouts adjacent columns are the partners.
    let enc = Sinusoidal::new(Variant::Paper, 64, 10_000.0);
    assert_eq!(
        pairs(&enc, Pairing::Adjacent),
        pairs(&enc, Pairing::Partners)
    );
}

#[test]
fn the_rotation_matrix_by_hand() {
    // ω = 1, k = 2: [[cos 2, sin 2], [−sin 2, cos 2]] applied to (sin 1, cos 1) gives (sin 3, cos 3).
    let m = rotation(1.0, 2);
    assert!((m[0][0] - 2f64.cos()).abs() < 1e-15 && (m[1][0] + 2f64.sin()).abs() < 1e-15);
    let v = apply(m, [1f64.sin(), 1f64.cos()]);
    assert!((v[0] - 3f64.sin()).abs() < 1e-15 && (v[1] - 3f64.cos()).abs() < 1e-15);
}

#[test]
fn dial_subsets_span_fastest_to_slowest() {
    assert_eq!(dial_subset(4, 12), vec![0, 1, 2, 3]);
    let s = dial_subset(512, 12);
    assert_eq!(s.len(), 12);
    assert_eq!((s[0], s[11]), (0, 511));
    assert!(s.windows(2).all(|w| w[0] < w[1]));
}
