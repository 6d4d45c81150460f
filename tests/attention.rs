//! Without position information one attention head cannot tell "dog bites man" from "man bites
//! dog"; with the sinusoidal encoding added it can.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::attention::{
    cosine, match_words, mean_pool, parse_sentence, relation, run, same_words, Head, Positional,
    Relation, MAX_WORDS,
};
use pe_explorer::math::embedding::word_embedding;
use pe_explorer::math::matrix::Dense;
use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};

fn words(s: &str) -> Vec<String> {
    parse_sentence(s).unwrap()
}

fn added(pe: &Dense) -> Positional<'_> {
    Positional {
        added: Some(pe),
        ..Default::default()
    }
}

fn encoding(n: usize, d: usize) -> Dense {
    let e = Sinusoidal::new(Variant::Paper, d, 10_000.0);
    Dense::new(n, d, (0..n).flat_map(|p| e.row(p)).collect())
}

#[test]
fn without_position_sentence_b_is_exactly_sentence_a_permuted() {
    for (a, b, d) in [
        ("dog bites man", "man bites dog", 16),
        ("the dog saw the cat", "the cat saw the dog", 32),
        ("a b c d e f", "f e d c b a", 8),
    ] {
        let head = Head::seeded(d);
        let (ta, tb) = (words(a), words(b));
        let (pa, pb) = (
            run(&head, &ta, 1.0, &Positional::default()),
            run(&head, &tb, 1.0, &Positional::default()),
        );
        // Every word's output is bit-for-bit the same in both sentences.
        let matches = match_words(&pa, &pb);
        assert_eq!(matches.len(), ta.len());
        for m in &matches {
            assert_eq!(m.max_difference, 0.0, "{a} / {b}: {}", m.word);
            let row = |p: &pe_explorer::math::attention::Pass, i: usize| {
                p.outputs.data[i * d..(i + 1) * d].to_vec()
            };
            assert_eq!(row(&pa, m.position_a), row(&pb, m.position_b));
        }
        // The order-free summaries are equal, so their cosine is 1.
        assert_eq!(mean_pool(&pa.outputs), mean_pool(&pb.outputs));
        let c = cosine(&mean_pool(&pa.outputs), &mean_pool(&pb.outputs));
        assert_eq!(format!("{c:.6}"), "1.000000");
    }
}

#[test]
fn with_the_encoding_added_the_sentences_differ() {
    for scale in [1.0, 4.0] {
        let d = 16;
        let head = Head::seeded(d);
        let (ta, tb) = (words("dog bites man"), words("man bites dog"));
        let pe = encoding(3, d);
        let (pa, pb) = (
            run(&head, &ta, scale, &added(&pe)),
            run(&head, &tb, scale, &added(&pe)),
        );
        let matches = match_words(&pa, &pb);
        assert!(
            matches.iter().any(|m| m.max_difference > 1e-6),
            "{matches:?}"
        );
        let c = cosine(&mean_pool(&pa.outputs), &mean_pool(&pb.outputs));
        assert!(c < 1.0 - 1e-9, "summary cosine {c}");
        assert_ne!(pa.weights, pb.weights);
    }
}

#[test]
fn attention_rows_are_probabilities() {
    let head = Head::seeded(24);
    let t = words("the quick brown fox jumps over the lazy dog");
    let pe = encoding(t.len(), 24);
    let pass = run(
        &head,
        &t,
        2.0,
        &Positional {
            added: Some(&pe),
            ..Default::default()
        },
    );
    let n = t.len();
    for i in 0..n {
        let row = &pass.weights.data[i * n..(i + 1) * n];
        assert!(row.iter().all(|w| (0.0..=1.0).contains(w)));
        assert!((row.iter().sum::<f64>() - 1.0).abs() < 1e-12, "row {i}");
    }
    // softmax(Q·Kᵀ/√d): recompute one score by hand.
    let q0 = &pass.q.data[0..24];
    let k1 = &pass.k.data[24..48];
    let s: f64 = q0.iter().zip(k1).map(|(a, b)| a * b).sum::<f64>() / 24f64.sqrt();
    assert!((pass.scores.data[1] - s).abs() < 1e-12);
}

#[test]
fn words_and_weights_are_deterministic() {
    assert_eq!(word_embedding("Dog", 8), word_embedding("dog", 8));
    assert_eq!(word_embedding("dog", 8), word_embedding("dog", 8));
    assert_ne!(word_embedding("dog", 8), word_embedding("man", 8));
    assert_eq!(Head::seeded(8), Head::seeded(8));
    assert_ne!(Head::seeded(8).w_q, Head::seeded(8).w_k);
    // Entries are N(0, 1/d): a long vector has norm close to 1.
    let v = word_embedding("transformer", 4096);
    let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    assert!((norm - 1.0).abs() < 0.05, "{norm}");
}

#[test]
fn sentences_are_checked() {
    assert_eq!(words(" Dog, bites  man. "), ["dog", "bites", "man"]);
    assert!(parse_sentence("").is_err());
    assert!(parse_sentence("  ...  ").is_err());
    let long = vec!["w"; MAX_WORDS + 1].join(" ");
    assert!(parse_sentence(&long).unwrap_err().contains("at most 16"));
    assert!(parse_sentence(&"x".repeat(40)).is_err());
    assert!(same_words(&words("dog bites man"), &words("man bites dog")));
    let rel = |a: &str, b: &str| relation(&words(a), &words(b));
    assert_eq!(rel("dog bites man", "man bites dog"), Relation::Reversed);
    assert_eq!(rel("dog bites man", "bites dog man"), Relation::Reordered);
    assert_eq!(rel("dog bites man", "Dog bites man."), Relation::Identical);
    assert_eq!(
        rel("dog bites man", "man bites man"),
        Relation::DifferentWords
    );
    assert!(!same_words(
        &words("dog bites man"),
        &words("man bites man")
    ));
}

#[test]
fn each_scheme_breaks_or_keeps_the_tie_where_it_should() {
    use pe_explorer::math::alibi::bias;
    use pe_explorer::math::rope::{Rope, RopePairing, RopeScaling};
    let d = 16;
    let head = Head::seeded(d);
    let (ta, tb) = (words("dog bites man"), words("man bites dog"));
    let summary = |pos: &Positional| {
        let (pa, pb) = (run(&head, &ta, 4.0, pos), run(&head, &tb, 4.0, pos));
        cosine(&mean_pool(&pa.outputs), &mean_pool(&pb.outputs))
    };
    // RoPE rotates q and k by position: the scores depend on signed distance, order matters.
    let rope = Rope::new(d, 10_000.0, RopePairing::RotateHalf, RopeScaling::None);
    let with_rope = Positional {
        rope: Some(&rope),
        ..Default::default()
    };
    assert!(summary(&with_rope) < 1.0 - 1e-9);
    // RoPE leaves the word vectors alone, and on a repeated word its scores depend only on the
    // signed distance j − i: the score matrix is constant along every diagonal.
    let same = words("echo echo echo echo echo");
    let plain = run(&head, &same, 4.0, &Positional::default());
    let turned = run(&head, &same, 4.0, &with_rope);
    assert_eq!(turned.input.data, plain.input.data);
    let n = same.len();
    let score = |i: usize, j: usize| turned.scores.data[i * n + j];
    for i in 1..n {
        for j in 1..n {
            assert!(
                (score(i, j) - score(i - 1, j - 1)).abs() < 1e-12,
                "({i}, {j})"
            );
        }
    }
    assert!(
        (score(0, 1) - score(1, 0)).abs() > 1e-6,
        "direction matters"
    );
    assert!(
        (score(0, 0) - plain.scores.data[0]).abs() < 1e-12,
        "no turn at distance 0"
    );
    // A symmetric ALiBi bias (−m·|i−j|) keeps every distance of a reversed sentence: still a tie.
    let sym = Dense::new(
        3,
        3,
        (0..9)
            .map(|c| bias(0.5, c / 3, c % 3, false).unwrap())
            .collect(),
    );
    let mirror = Positional {
        bias: Some(&sym),
        ..Default::default()
    };
    assert_eq!(format!("{:.6}", summary(&mirror)), "1.000000");
    // A bias is added to the scores and nowhere else.
    let unbiased = run(&head, &ta, 4.0, &Positional::default());
    let biased = run(&head, &ta, 4.0, &mirror);
    for (c, (b, u)) in biased
        .scores
        .data
        .iter()
        .zip(&unbiased.scores.data)
        .enumerate()
    {
        assert!((b - u - sym.data[c]).abs() < 1e-12, "score {c}");
    }
    assert_eq!(biased.input.data, unbiased.input.data);
    // The causal mask alone (no position at all) already leaks order.
    let causal = Positional {
        causal: true,
        ..Default::default()
    };
    assert!(summary(&causal) < 1.0 - 1e-9);
    // Masked keys get no weight; rows still add up to 1.
    let pass = run(&head, &ta, 1.0, &causal);
    assert_eq!(pass.weights.data[1], 0.0);
    assert!(pass.scores.data[1].is_nan());
    assert!((pass.weights.data[3..6].iter().sum::<f64>() - 1.0).abs() < 1e-12);
}
