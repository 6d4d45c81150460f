//! "Check your own numbers" for RoPE: rotations done by hand, the score's dependence on m − n
//! only (both pairings, with YaRN, llama3 and partial rotary), the two pairings as permutations
//! of each other, the cos/sin cache CSV, the typed-vector parser on hostile input, and the
//! settings and reducer that hold the check's values.
#![cfg(not(target_arch = "wasm32"))]

mod common;

use std::rc::Rc;

use pe_explorer::action::Action;
use pe_explorer::export::MAX_CSV_CELLS;
use pe_explorer::figures::rope::{cache_csv, score_check, ScoreCheck, CHECK_HEADER};
use pe_explorer::limit::{fit_vector, parse_vector, VECTOR_MAX_LEN};
use pe_explorer::math::rope::{seeded_pair, Rope, RopePairing, RopeScaling};
use pe_explorer::params::Edit;
use pe_explorer::schemes::rope::Extension;
use pe_explorer::state::Settings;
use yew::Reducible;

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

fn assert_vec(got: &[f64], want: &[f64], tol: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: length");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(close(*g, *w, tol), "{what}[{i}] = {g}, expected {w}");
    }
}

// ----- By hand -----
//
// d = 4, base 10000: θ₀ = 10000⁰ = 1, θ₁ = 10000^(−2/4) = 0.01. q = k = (1, 1, 0, 0), m = 3, n = 1.
//
// Rotate-half pairs (0, 2) with θ₀ and (1, 3) with θ₁; each pair (a, b) = (1, 0) becomes
// (cos φ, sin φ):
//   q at 3 = (cos 3, cos 0.03, sin 3, sin 0.03)
//          = (−0.9899924966, 0.9995500337, 0.1411200081, 0.0299955002)
//   k at 1 = (cos 1, cos 0.01, sin 1, sin 0.01)
//          = (0.5403023059, 0.9999500004, 0.8414709848, 0.0099998333)
//   q·k = cos(3 − 1) + cos(0.03 − 0.01) = cos 2 + cos 0.02 = 0.5836531701
// Adjacent pairs (0, 1) with θ₀ and (2, 3) with θ₁; the pair (1, 1) becomes
// (cos φ − sin φ, cos φ + sin φ), the pair (0, 0) stays 0:
//   q at 3 = (cos 3 − sin 3, cos 3 + sin 3, 0, 0) = (−1.1311125047, −0.8488724885, 0, 0)
//   k at 1 = (cos 1 − sin 1, cos 1 + sin 1, 0, 0) = (−0.3011686789, 1.3817732907, 0, 0)
//   q·k = 2·cos 2 = −0.8322936731
// Without RoPE q·k = 2.

fn by_hand() -> ScoreCheck {
    let rope = Rope::new(4, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    score_check(&rope, &[1.0, 1.0, 0.0, 0.0], &[1.0, 1.0, 0.0, 0.0], 3, 1)
}

#[test]
fn rotate_half_by_hand() {
    let c = by_hand();
    assert_eq!(c.half.pairing, RopePairing::RotateHalf);
    assert_vec(
        &c.half.q_rotated,
        &[-0.9899924966, 0.9995500337, 0.1411200081, 0.0299955002],
        1e-9,
        "half q",
    );
    assert_vec(
        &c.half.k_rotated,
        &[0.5403023059, 0.9999500004, 0.8414709848, 0.0099998333],
        1e-9,
        "half k",
    );
    assert!(close(c.half.score, 0.5836531701, 1e-9), "{}", c.half.score);
    assert!(close(c.half.relative_score, 0.5836531701, 1e-9));
    // cos/sin per dimension, laid out cat(freqs, freqs): dims 0 and 2 use θ₀, 1 and 3 use θ₁.
    assert_vec(
        &c.half.cos_m,
        &[-0.9899924966, 0.9995500337, -0.9899924966, 0.9995500337],
        1e-9,
        "half cos m",
    );
    assert_vec(
        &c.half.sin_n,
        &[0.8414709848, 0.0099998333, 0.8414709848, 0.0099998333],
        1e-9,
        "half sin n",
    );
    assert!(close(c.plain_score, 2.0, 0.0));
    assert_eq!((c.m, c.n, c.d_model, c.rotary_dim), (3, 1, 4, 4));
    assert_eq!(c.attention_factor, 1.0);
}

#[test]
fn adjacent_by_hand() {
    let c = by_hand();
    assert_eq!(c.adjacent.pairing, RopePairing::Adjacent);
    assert_vec(
        &c.adjacent.q_rotated,
        &[-1.1311125047, -0.8488724885, 0.0, 0.0],
        1e-9,
        "adjacent q",
    );
    assert_vec(
        &c.adjacent.k_rotated,
        &[-0.3011686789, 1.3817732907, 0.0, 0.0],
        1e-9,
        "adjacent k",
    );
    assert!(close(c.adjacent.score, -0.8322936731, 1e-9));
    assert!(close(c.adjacent.relative_score, -0.8322936731, 1e-9));
    // Each θ twice: dims 0, 1 use θ₀; 2, 3 use θ₁.
    assert_vec(
        &c.adjacent.cos_m,
        &[-0.9899924966, -0.9899924966, 0.9995500337, 0.9995500337],
        1e-9,
        "adjacent cos m",
    );
    assert_vec(
        &c.adjacent.sin_m,
        &[0.1411200081, 0.1411200081, 0.0299955002, 0.0299955002],
        1e-9,
        "adjacent sin m",
    );
}

#[test]
fn the_table_and_its_csv() {
    let c = by_hand();
    assert_eq!(c.rows.len(), 4);
    assert!(c.rows.iter().all(|r| r.len() == CHECK_HEADER.len()));
    let lines: Vec<&str> = c.csv.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(lines[0], CHECK_HEADER.join(","));
    // dim 0: q 1, k 1, half q rotated cos 3 (nine significant digits), half k rotated cos 1, …
    assert!(
        lines[1].starts_with("0,1.00000000,1.00000000,-0.989992497,0.540302306,"),
        "{}",
        lines[1]
    );
    let cells: Vec<f64> = lines[1].split(',').map(|v| v.parse().unwrap()).collect();
    assert_eq!(cells.len(), CHECK_HEADER.len());
    assert!(close(cells[9], -1.1311125047, 1e-8), "adjacent q rotated");
}

#[test]
fn the_same_result_whatever_the_rope_s_own_pairing() {
    let half = Rope::new(16, 500.0, RopePairing::RotateHalf, RopeScaling::None);
    let adjacent = half.with_pairing(RopePairing::Adjacent);
    let (q, k) = seeded_pair(16, 3);
    assert_eq!(
        score_check(&half, &q, &k, 9, 4),
        score_check(&adjacent, &q, &k, 9, 4)
    );
}

#[test]
fn short_and_long_vectors_are_fitted_to_d_model() {
    let rope = Rope::new(4, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    let short = score_check(&rope, &[1.0, 1.0], &[1.0, 1.0, 0.0, 0.0, 9.0, 9.0], 3, 1);
    assert_eq!(short, by_hand());
}

// ----- The score depends on m − n only -----

fn ropes() -> Vec<(&'static str, Rope)> {
    let d = 64;
    vec![
        (
            "plain",
            Rope::new(d, 10_000.0, RopePairing::RotateHalf, RopeScaling::None),
        ),
        (
            "yarn",
            Rope::new(
                d,
                10_000.0,
                RopePairing::RotateHalf,
                common::yarn_scaling(4.0, 512, true),
            ),
        ),
        (
            "llama3",
            Rope::new(
                d,
                500_000.0,
                RopePairing::Adjacent,
                RopeScaling::Llama3 {
                    factor: 8.0,
                    low: 1.0,
                    high: 4.0,
                    original: 256,
                },
            ),
        ),
        (
            "partial rotary 0.25, linear ×2",
            Rope::new(
                d,
                10_000.0,
                RopePairing::RotateHalf,
                RopeScaling::Interpolation(2.0),
            )
            .with_rotary_fraction(0.25),
        ),
        (
            "partial rotary 0.4 of 30 (12 rotated), dynamic",
            Rope::new(
                30,
                10_000.0,
                RopePairing::Adjacent,
                RopeScaling::DynamicNtk {
                    factor: 2.0,
                    original: 128,
                    length: 1000,
                },
            )
            .with_rotary_fraction(0.4),
        ),
    ]
}

#[test]
fn score_at_m_n_equals_score_at_m_minus_n_zero() {
    for (name, rope) in ropes() {
        let (q, k) = seeded_pair(rope.d_model, 11);
        for (m, n) in [(5, 2), (0, 0), (700, 250), (3, 40), (999, 998), (1, 999)] {
            let c = score_check(&rope, &q, &k, m, n);
            for p in [&c.half, &c.adjacent] {
                assert!(
                    p.relative_gap() <= 1e-9,
                    "{name} {:?} at ({m}, {n}): {} vs {}",
                    p.pairing,
                    p.score,
                    p.relative_score
                );
                // Also against a fresh computation at a shifted pair of positions.
                let r = rope.with_pairing(p.pairing);
                let shifted = r.score(&q, (m + 123) as f64, &k, (n + 123) as f64);
                assert!(close(p.score, shifted, 1e-9), "{name}: shift by 123");
            }
        }
    }
}

#[test]
fn the_attention_factor_scales_the_score_by_its_square() {
    let (_, yarn) = ropes().remove(1);
    let f = yarn.attention_factor();
    assert!(close(f, 0.1 * 4f64.ln() + 1.0, 1e-15));
    let (q, k) = seeded_pair(64, 5);
    let plain = Rope {
        scaling: RopeScaling::None,
        ..yarn
    };
    let c = score_check(&yarn, &q, &k, 0, 0);
    // At m = n = 0 the rotation is the identity: only the factor is left.
    assert!(close(c.half.score, f * f * c.plain_score, 1e-9));
    assert!(close(
        score_check(&plain, &q, &k, 0, 0).half.score,
        c.plain_score,
        1e-12
    ));
}

#[test]
fn the_cache_formula_gives_the_rotated_vectors() {
    for (name, rope) in ropes() {
        let (q, k) = seeded_pair(rope.d_model, 2);
        let c = score_check(&rope, &q, &k, 37, 12);
        for p in [&c.half, &c.adjacent] {
            let r = rope.with_pairing(p.pairing);
            assert_vec(&r.rotate_by_cache(&q, 37.0), &p.q_rotated, 1e-12, name);
            assert_vec(&r.rotate_by_cache(&k, 12.0), &p.k_rotated, 1e-12, name);
            // Past the rotated width: cos 1, sin 0, the entries as they were.
            let r = c.rotary_dim;
            assert!(p.cos_m[r..].iter().all(|v| *v == 1.0), "{name}");
            assert!(p.sin_m[r..].iter().all(|v| *v == 0.0), "{name}");
            assert_eq!(p.q_rotated[r..], q[r..], "{name}");
        }
    }
}

// ----- The two pairings are one rotation on permuted dimensions -----

#[test]
fn half_and_adjacent_are_permutations_of_each_other() {
    for (name, rope) in ropes() {
        let perm = rope.half_from_adjacent();
        assert_eq!(perm.len(), rope.d_model);
        let mut sorted = perm.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..rope.d_model).collect::<Vec<_>>(), "{name}");
        let (q, k) = seeded_pair(rope.d_model, 8);
        let c = score_check(&rope, &q, &k, 40, 7);
        // The caches hold the same numbers, rearranged.
        for (j, &i) in perm.iter().enumerate() {
            assert_eq!(c.half.cos_m[j], c.adjacent.cos_m[i], "{name} cos, dim {j}");
            assert_eq!(c.half.sin_n[j], c.adjacent.sin_n[i], "{name} sin, dim {j}");
        }
        // Rotate-half on the permuted vectors is the adjacent rotation, permuted.
        let pq: Vec<f64> = perm.iter().map(|&i| q[i]).collect();
        let pk: Vec<f64> = perm.iter().map(|&i| k[i]).collect();
        let permuted = score_check(&rope, &pq, &pk, 40, 7);
        for (j, &i) in perm.iter().enumerate() {
            assert!(close(
                permuted.half.q_rotated[j],
                c.adjacent.q_rotated[i],
                1e-12
            ));
            assert!(close(
                permuted.half.k_rotated[j],
                c.adjacent.k_rotated[i],
                1e-12
            ));
        }
        assert!(close(permuted.half.score, c.adjacent.score, 1e-9), "{name}");
        // Without permuting, the two pairings generally disagree (different pairs rotate).
        assert!((c.half.score - c.adjacent.score).abs() > 1e-6, "{name}");
    }
}

#[test]
fn the_permutation_by_hand() {
    let rope = Rope::new(6, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    assert_eq!(rope.half_from_adjacent(), vec![0, 2, 4, 1, 3, 5]);
    // Only the first 4 of 8 rotated: the last 4 stay where they are.
    let partial = Rope::new(8, 10_000.0, RopePairing::RotateHalf, RopeScaling::None)
        .with_rotary_fraction(0.5);
    assert_eq!(partial.half_from_adjacent(), vec![0, 2, 1, 3, 4, 5, 6, 7]);
}

// ----- The cos/sin cache -----

#[test]
fn cache_csv_shape_and_a_known_cell_with_yarn() {
    let (_, yarn) = ropes().remove(1);
    let d = yarn.d_model;
    let text = cache_csv(&yarn, 10).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11);
    let header: Vec<&str> = lines[0].split(',').collect();
    assert_eq!(header.len(), 1 + 2 * d);
    assert_eq!(
        (
            header[0],
            header[1],
            header[d],
            header[d + 1],
            header[2 * d]
        ),
        ("position", "cos_0", "cos_63", "sin_0", "sin_63")
    );
    for (p, line) in lines[1..].iter().enumerate() {
        let cells: Vec<&str> = line.split(',').collect();
        assert_eq!(cells.len(), 1 + 2 * d);
        assert_eq!(cells[0], p.to_string());
    }
    // Position 1, dim 0: pair 0 is left alone by YaRN (θ₀ = 1), times the attention factor
    // f = 0.1·ln 4 + 1 = 1.138629436: f·cos 1 = 0.615204110, f·sin 1 = 0.958123633.
    let row1: Vec<&str> = lines[2].split(',').collect();
    assert_eq!(row1[1], "0.615204110");
    assert_eq!(row1[1 + d], "0.958123633");
    // Rotate-half: dim d/2 repeats dim 0; position 0: cos = f, sin = 0.
    assert_eq!(row1[1 + d / 2], row1[1]);
    let row0: Vec<&str> = lines[1].split(',').collect();
    assert_eq!(row0[1], "1.13862944");
    assert_eq!(row0[1 + d], "0");
    // Adjacent: each θ twice, dims 0 and 1 the same.
    let adjacent = cache_csv(&yarn.with_pairing(RopePairing::Adjacent), 3).unwrap();
    let a1: Vec<&str> = adjacent.lines().nth(2).unwrap().split(',').collect();
    assert_eq!((a1[1], a1[2]), ("0.615204110", "0.615204110"));
    assert_ne!(a1[3], a1[1]);
}

#[test]
fn cache_csv_agrees_with_the_check_and_passes_dimensions_through() {
    for (name, rope) in ropes() {
        let d = rope.d_model;
        let text = cache_csv(&rope, 50).unwrap();
        let (q, k) = seeded_pair(d, 1);
        let c = score_check(&rope, &q, &k, 49, 17);
        let p = if rope.pairing == RopePairing::RotateHalf {
            &c.half
        } else {
            &c.adjacent
        };
        let cells = |line: usize| -> Vec<f64> {
            text.lines()
                .nth(line + 1)
                .unwrap()
                .split(',')
                .map(|v| v.parse().unwrap())
                .collect()
        };
        let (at_m, at_n) = (cells(49), cells(17));
        for dim in 0..d {
            assert!(close(at_m[1 + dim], p.cos_m[dim], 1e-8), "{name} cos_{dim}");
            assert!(
                close(at_m[1 + d + dim], p.sin_m[dim], 1e-8),
                "{name} sin_{dim}"
            );
            assert!(close(at_n[1 + dim], p.cos_n[dim], 1e-8), "{name} cos_{dim}");
            if dim >= c.rotary_dim {
                assert_eq!((at_m[1 + dim], at_m[1 + d + dim]), (1.0, 0.0), "{name}");
            }
        }
    }
}

#[test]
fn cache_csv_refuses_too_many_cells() {
    let rope = Rope::new(1024, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    // 2048 × 2·1024 = 4,194,304 = the limit: accepted; one more position is not.
    assert_eq!(2048 * 2 * 1024, MAX_CSV_CELLS);
    let err = cache_csv(&rope, 2049).unwrap_err();
    assert_eq!(err.cells, 2049 * 2048);
    assert!(err.message().contains("4,196,352"));
    let wide = Rope::new(4096, 10_000.0, RopePairing::Adjacent, RopeScaling::None);
    assert!(cache_csv(&wide, 65_536).is_err());
    assert_eq!(cache_csv(&rope, 0).unwrap().lines().count(), 1);
}

// ----- The parser -----

#[test]
fn parser_reads_lists() {
    let ok = |t: &str| parse_vector(t, "q").unwrap().value;
    assert_eq!(ok("0.1, -2, 3e-1"), vec![0.1, -2.0, 0.3]);
    assert_eq!(ok("0.1 -2 3e-1"), vec![0.1, -2.0, 0.3]);
    assert_eq!(ok("  0.1,,  -2 ;\n3e-1\t"), vec![0.1, -2.0, 0.3]);
    assert_eq!(ok("[0.1, -2, 0.3]"), vec![0.1, -2.0, 0.3]);
    assert_eq!(ok("(1, 2)"), vec![1.0, 2.0]);
    // The page's own minus sign, and a no-break space.
    assert_eq!(ok("−1.5\u{a0}2"), vec![-1.5, 2.0]);
    assert_eq!(ok("+.5 5. -0"), vec![0.5, 5.0, 0.0]);
    assert!(ok("-0")[0].is_sign_positive());
    assert_eq!(ok("1e6 -1e6"), vec![1e6, -1e6]);
    assert!(parse_vector("1, 2", "q").unwrap().note.is_none());
}

#[test]
fn parser_refuses_hostile_input_with_a_plain_message() {
    let refused = |t: &str| parse_vector(t, "q").unwrap_err();
    for empty in ["", "   ", ",,,", "[]", "\n\t"] {
        assert!(
            refused(empty).contains("Type the numbers of q"),
            "{empty:?}"
        );
    }
    for word in [
        "nan",
        "NaN",
        "-nan",
        "inf",
        "-Infinity",
        "+inf",
        "1, nan, 2",
    ] {
        let m = refused(word);
        assert!(m.contains("not a finite number"), "{word}: {m}");
        assert!(m.contains("q is unchanged"), "{word}: {m}");
    }
    for big in ["1e400", "-1e400", "1000001", "1e7", "2, 3, -5e6"] {
        let m = refused(big);
        assert!(m.contains("too large"), "{big}: {m}");
    }
    for junk in [
        "abc",
        "0x10",
        "1_000",
        "1.2.3",
        "１, ２",
        "😀",
        "1,2,three",
        "e5",
        "--1",
    ] {
        let m = refused(junk);
        assert!(m.contains("not a number"), "{junk}: {m}");
    }
    // The bad entry is named by its place, and long text is cut on a character boundary.
    let m = refused("1, 2, ☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃☃");
    assert!(m.contains("entry 3"), "{m}");
    assert!(m.contains('…') && m.chars().count() < 120, "{m}");
    // Far too much text is refused before it is read.
    let huge = "1 ".repeat(300_000);
    assert!(refused(&huge).contains("longer than 500,000 characters"));
}

#[test]
fn parser_keeps_at_most_4096_numbers_and_fitting_says_what_it_did() {
    let text = vec!["0.123456789"; 10_000].join(", ");
    let a = parse_vector(&text, "k").unwrap();
    assert_eq!(a.value.len(), VECTOR_MAX_LEN);
    assert!(a.note.unwrap().contains("10,000 numbers typed"));
    let cut = fit_vector(&a.value, 128, "k");
    assert_eq!(cut.value.len(), 128);
    let note = cut.note.unwrap();
    assert!(
        note.contains("only the first 128 are used") && note.contains("3968"),
        "{note}"
    );
    let padded = fit_vector(&[1.0, 2.0, 3.0], 8, "q");
    assert_eq!(padded.value, vec![1.0, 2.0, 3.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
    assert!(padded
        .note
        .unwrap()
        .contains("the last 5 dimensions are set to 0"));
    assert!(fit_vector(&[1.0, 2.0], 2, "q").note.is_none());
}

// ----- Settings and reducer -----

fn reduce(s: Settings, actions: Vec<Action>) -> Settings {
    let mut s = Rc::new(s);
    for a in actions {
        s = s.reduce(a);
    }
    (*s).clone()
}

#[test]
fn defaults_use_the_seeded_pair_at_5_and_2() {
    let s = Settings::default();
    assert_eq!(
        (s.rope_q.clone(), s.rope_k.clone(), s.rope_m, s.rope_n),
        (None, None, 5, 2)
    );
    let [q, k] = s.rope_check_vectors();
    let (sq, sk) = seeded_pair(s.d_model, s.learned_seed as u64);
    assert_eq!((q.value, k.value), (sq.clone(), sk.clone()));
    assert!(q.note.is_none() && k.note.is_none());
    // Deterministic, three decimals, different q and k, a different pair for another seed.
    assert_eq!(seeded_pair(s.d_model, 1), (sq.clone(), sk.clone()));
    assert!(sq
        .iter()
        .all(|v| close((v * 1000.0).round() / 1000.0, *v, 0.0)));
    assert_ne!(sq, sk);
    assert_ne!(seeded_pair(s.d_model, 2).0, sq);
    let other = reduce(s, vec![Action::SetLearnedSeed(2.0)]);
    assert_eq!(other.rope_check_vectors()[0].value, seeded_pair(128, 2).0);
}

#[test]
fn the_reducer_validates_typed_vectors_again() {
    let s = reduce(
        Settings::default(),
        vec![
            Action::SetRopeQ(Some(vec![1.0, 2.0])),
            Action::SetDModel(4.0),
        ],
    );
    assert_eq!(s.rope_q, Some(vec![1.0, 2.0]));
    let [q, k] = s.rope_check_vectors();
    assert_eq!(q.value, vec![1.0, 2.0, 0.0, 0.0]);
    assert!(q.note.unwrap().contains("set to 0"));
    assert_eq!(k.value.len(), 4);
    // Refused values leave the setting alone.
    for bad in [vec![f64::NAN], vec![1.0, f64::INFINITY], vec![2e6]] {
        let t = reduce(s.clone(), vec![Action::SetRopeQ(Some(bad))]);
        assert_eq!(t.rope_q, Some(vec![1.0, 2.0]));
    }
    // Too long: cut to 4096. Empty or None: back to the seeded pair.
    let long = reduce(s.clone(), vec![Action::SetRopeK(Some(vec![0.5; 5000]))]);
    assert_eq!(long.rope_k.as_ref().map(Vec::len), Some(VECTOR_MAX_LEN));
    assert_eq!(
        reduce(s.clone(), vec![Action::SetRopeQ(Some(vec![]))]).rope_q,
        None
    );
    assert_eq!(reduce(s, vec![Action::SetRopeQ(None)]).rope_q, None);
}

#[test]
fn positions_stay_inside_the_length() {
    let s = reduce(
        Settings::default(),
        vec![Action::SetRopeM(1e9), Action::SetRopeN(-4.0)],
    );
    assert_eq!((s.rope_m, s.rope_n), (99, 0));
    let s = reduce(s, vec![Action::SetRopeN(f64::NAN), Action::SetRopeN(42.4)]);
    assert_eq!(s.rope_n, 42);
    let s = reduce(s, vec![Action::SetLength(10.0)]);
    assert_eq!((s.rope_m, s.rope_n), (9, 9));
}

#[test]
fn the_check_uses_the_sidebar_rope() {
    let s = reduce(
        Settings::default(),
        vec![
            Action::SetDModel(32.0),
            Action::Edit(Edit {
                key: "extension",
                value: 5.0,
                apply: |s, _| s.schemes.rope.extension = Extension::Yarn,
            }),
            Action::Edit(Edit {
                key: "rotary",
                value: 0.5,
                apply: |s, v| s.schemes.rope.rotary_fraction = v,
            }),
        ],
    );
    let [q, k] = s.rope_check_vectors();
    let c = score_check(&s.rope(), &q.value, &k.value, s.rope_m, s.rope_n);
    assert_eq!(c.rotary_dim, 16);
    assert!(c.attention_factor > 1.0);
    assert!(c.half.relative_gap() <= 1e-9 && c.adjacent.relative_gap() <= 1e-9);
}

#[test]
fn vectors_written_as_text_read_back_exactly() {
    use pe_explorer::limit::vector_to_text;
    let (q, _) = seeded_pair(64, 9);
    let odd = vec![1.0, -0.25, 1e-7, 123456.789, 0.1 + 0.2, -1e6, 0.0, 3.0];
    for v in [q, odd] {
        for sep in [", ", ","] {
            let text = vector_to_text(&v, sep);
            assert_eq!(parse_vector(&text, "q").unwrap().value, v, "{text}");
        }
    }
    assert_eq!(vector_to_text(&[1.0, -0.5, 2e-7], ","), "1,-0.5,2e-7");
}
