//! One self-attention head, softmax(Q·Kᵀ/√d_k)·V, run on two sentences, to show that without
//! position information it cannot tell "dog bites man" from "man bites dog".
//!
//! Every sum over tokens adds its terms in sorted order, so the result does not depend on the
//! order of the tokens at all: without position, sentence B's outputs are *exactly* (bit for bit)
//! sentence A's outputs permuted, not merely equal up to rounding.

use super::embedding::{canonical, word_embedding};
use super::matrix::Dense;
use super::rng::SplitMix64;
use super::rope::Rope;

/// At most this many words per sentence.
pub const MAX_WORDS: usize = 16;
/// The demo runs at most this wide; wider `d_model` values use this width (the UI says so).
pub const DEMO_MAX_WIDTH: usize = 64;

/// Splits a sentence into words, or says plainly why it cannot.
pub fn parse_sentence(text: &str) -> Result<Vec<String>, String> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| c.is_ascii_punctuation())
                .to_string()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return Err("Type at least one word.".into());
    }
    if words.len() > MAX_WORDS {
        return Err(format!(
            "That is {} words; the demo takes at most {MAX_WORDS}.",
            words.len()
        ));
    }
    if let Some(long) = words.iter().find(|w| w.chars().count() > 32) {
        let shown: String = long.chars().take(20).collect();
        return Err(format!("“{shown}…” is longer than 32 characters."));
    }
    Ok(words.iter().map(|w| canonical(w)).collect())
}

/// A sum that does not depend on the order of its terms: they are added smallest first.
pub fn sum_sorted(terms: &mut [f64]) -> f64 {
    terms.sort_unstable_by(f64::total_cmp);
    terms.iter().sum()
}

/// The head's fixed weights: W_Q, W_K, W_V, each `width × width`, entries N(0, 1/width) from
/// fixed seeds, so every reload and every machine gets the same head.
#[derive(Clone, Debug, PartialEq)]
pub struct Head {
    pub width: usize,
    pub w_q: Dense,
    pub w_k: Dense,
    pub w_v: Dense,
}

impl Head {
    pub fn seeded(width: usize) -> Head {
        let make = |seed: u64| {
            let mut rng = SplitMix64::new(seed ^ (width as u64).wrapping_mul(0x9E37_79B9));
            let scale = 1.0 / (width.max(1) as f64).sqrt();
            Dense::new(
                width,
                width,
                (0..width * width)
                    .map(|_| rng.next_normal() * scale)
                    .collect(),
            )
        };
        Head {
            width,
            w_q: make(0x5157_0001),
            w_k: make(0x4B45_0002),
            w_v: make(0x5641_0003),
        }
    }
}

/// `x · w` for row-major matrices.
pub fn matmul(x: &Dense, w: &Dense) -> Dense {
    let (n, m, k) = (x.rows, w.cols, x.cols.min(w.rows));
    let mut out = vec![0.0; n * m];
    for i in 0..n {
        for t in 0..k {
            let a = x.data[i * x.cols + t];
            for j in 0..m {
                out[i * m + j] += a * w.data[t * m + j];
            }
        }
    }
    Dense::new(n, m, out)
}

/// How position information reaches the head; each scheme uses one of these places.
#[derive(Clone, Copy, Debug, Default)]
pub struct Positional<'a> {
    /// Vectors added to the (scaled) embeddings, n × width: sinusoidal, learned.
    pub added: Option<&'a Dense>,
    /// Rotation of every query and key by its position: RoPE.
    pub rope: Option<&'a Rope>,
    /// Biases added to the scores, n × n (NaN masks a key): ALiBi, T5.
    pub bias: Option<&'a Dense>,
    /// Hide every key after its query (a decoder).
    pub causal: bool,
}

/// Every intermediate of one pass through the head, for the step-by-step view.
#[derive(Clone, Debug, PartialEq)]
pub struct Pass {
    pub tokens: Vec<String>,
    /// Token embeddings (after the optional √d scale).
    pub embeddings: Dense,
    /// What enters the head: embeddings, plus the position encoding when it is on.
    pub input: Dense,
    /// Queries and keys (rotated by position when RoPE is used).
    pub q: Dense,
    pub k: Dense,
    pub v: Dense,
    /// The bias added to the scores, if any (n × n).
    pub bias: Option<Dense>,
    /// Q·Kᵀ/√d_k + bias (n × n), before softmax; NaN where a key is masked.
    pub scores: Dense,
    /// softmax of each row of the scores: the attention weights.
    pub weights: Dense,
    /// weights · V (n × width).
    pub outputs: Dense,
}

/// Runs the head on `tokens`, with position information entering where `position` says.
pub fn run(head: &Head, tokens: &[String], embed_scale: f64, position: &Positional) -> Pass {
    let (n, d) = (tokens.len(), head.width);
    let embeddings = Dense::new(
        n,
        d,
        tokens
            .iter()
            .flat_map(|t| word_embedding(t, d).into_iter().map(|v| v * embed_scale))
            .collect(),
    );
    let mut input = embeddings.clone();
    if let Some(pe) = position.added {
        for (x, p) in input.data.iter_mut().zip(&pe.data) {
            *x += p;
        }
    }
    let (mut q, mut k, v) = (
        matmul(&input, &head.w_q),
        matmul(&input, &head.w_k),
        matmul(&input, &head.w_v),
    );
    if let Some(rope) = position.rope {
        for (m, (qr, kr)) in q
            .data
            .chunks_mut(d.max(1))
            .zip(k.data.chunks_mut(d.max(1)))
            .enumerate()
        {
            let (rq, rk) = (rope.rotate(qr, m as f64), rope.rotate(kr, m as f64));
            qr.copy_from_slice(&rq);
            kr.copy_from_slice(&rk);
        }
    }
    let scale = 1.0 / (d.max(1) as f64).sqrt();
    let mut scores = vec![0.0; n * n];
    for i in 0..n {
        for j in 0..n {
            let bias = position.bias.map_or(0.0, |b| b.value_at(i, j));
            scores[i * n + j] = if (position.causal && j > i) || bias.is_nan() {
                f64::NAN
            } else {
                let mut terms: Vec<f64> = (0..d)
                    .map(|c| q.data[i * d + c] * k.data[j * d + c])
                    .collect();
                sum_sorted(&mut terms) * scale + bias
            };
        }
    }
    let mut weights = vec![0.0; n * n];
    for i in 0..n {
        let row = &scores[i * n..(i + 1) * n];
        let max = row
            .iter()
            .filter(|s| !s.is_nan())
            .cloned()
            .fold(f64::NEG_INFINITY, f64::max);
        // Masked keys get no weight; a row can never be fully masked (a query sees itself).
        let exps: Vec<f64> = row
            .iter()
            .map(|s| if s.is_nan() { 0.0 } else { (s - max).exp() })
            .collect();
        let total = sum_sorted(&mut exps.clone());
        for (j, e) in exps.iter().enumerate() {
            weights[i * n + j] = if total > 0.0 { e / total } else { 0.0 };
        }
    }
    let mut outputs = vec![0.0; n * d];
    for i in 0..n {
        for c in 0..d {
            let mut terms: Vec<f64> = (0..n)
                .map(|j| weights[i * n + j] * v.data[j * d + c])
                .collect();
            outputs[i * d + c] = sum_sorted(&mut terms);
        }
    }
    Pass {
        tokens: tokens.to_vec(),
        embeddings,
        input,
        q,
        k,
        v,
        bias: position.bias.cloned(),
        scores: Dense::new(n, n, scores),
        weights: Dense::new(n, n, weights),
        outputs: Dense::new(n, d, outputs),
    }
}

/// The order-free summary of a sentence: the mean of its output vectors.
pub fn mean_pool(outputs: &Dense) -> Vec<f64> {
    (0..outputs.cols)
        .map(|c| {
            let mut column: Vec<f64> = (0..outputs.rows)
                .map(|r| outputs.data[r * outputs.cols + c])
                .collect();
            sum_sorted(&mut column) / outputs.rows.max(1) as f64
        })
        .collect()
}

/// Cosine similarity of two vectors (0 when either is zero).
pub fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        (dot / (na * nb)).clamp(-1.0, 1.0)
    }
}

/// One word that occurs in both sentences, and how far apart its two outputs are.
#[derive(Clone, Debug, PartialEq)]
pub struct WordMatch {
    pub word: String,
    pub position_a: usize,
    pub position_b: usize,
    /// max over dimensions of |output_A − output_B|.
    pub max_difference: f64,
}

/// Pairs each word of A with the same word in B (the i-th occurrence with the i-th) and
/// compares their outputs.
pub fn match_words(a: &Pass, b: &Pass) -> Vec<WordMatch> {
    let d = a.outputs.cols.min(b.outputs.cols);
    let mut used = vec![false; b.tokens.len()];
    let mut out = Vec::new();
    for (i, word) in a.tokens.iter().enumerate() {
        let Some(j) = (0..b.tokens.len()).find(|&j| !used[j] && &b.tokens[j] == word) else {
            continue;
        };
        used[j] = true;
        let diff = (0..d)
            .map(|c| {
                (a.outputs.data[i * a.outputs.cols + c] - b.outputs.data[j * b.outputs.cols + c])
                    .abs()
            })
            .fold(0.0, f64::max);
        out.push(WordMatch {
            word: word.clone(),
            position_a: i,
            position_b: j,
            max_difference: diff,
        });
    }
    out
}

/// Whether the two sentences hold the same words, each as often (one is a reordering of the
/// other).
/// How sentence B relates to sentence A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Relation {
    /// The same words in the same order.
    Identical,
    /// The same words in exactly the reverse order: every distance |i − j| is kept.
    Reversed,
    /// The same words in another order.
    Reordered,
    /// Not the same multiset of words.
    DifferentWords,
}

pub fn relation(a: &[String], b: &[String]) -> Relation {
    if a == b {
        Relation::Identical
    } else if !same_words(a, b) {
        Relation::DifferentWords
    } else if a.iter().eq(b.iter().rev()) {
        Relation::Reversed
    } else {
        Relation::Reordered
    }
}

pub fn same_words(a: &[String], b: &[String]) -> bool {
    let mut x = a.to_vec();
    let mut y = b.to_vec();
    x.sort();
    y.sort();
    x == y
}
