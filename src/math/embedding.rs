//! Deterministic token embeddings: each word's vector is derived from the word itself.
//!
//! The word is trimmed and lower-cased, hashed with FNV-1a (64-bit), and the hash seeds a
//! SplitMix64 stream of standard normal deviates scaled by 1/√d, so a vector has norm close to 1.
//! The same word therefore has the same vector in every sentence, on every machine, on every
//! reload; nothing is learned.

use super::rng::{fnv1a, SplitMix64};

/// The normalised form of a word that its embedding is derived from.
pub fn canonical(word: &str) -> String {
    word.trim().to_lowercase()
}

/// The `d`-dimensional embedding of `word`: N(0, 1/d) entries seeded by the word's hash.
pub fn word_embedding(word: &str, d: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(fnv1a(&canonical(word)));
    let scale = 1.0 / (d.max(1) as f64).sqrt();
    (0..d).map(|_| rng.next_normal() * scale).collect()
}

/// A small fixed vocabulary used by the addition-versus-concatenation view.
pub const SAMPLE_SENTENCE: [&str; 8] = ["the", "cat", "sat", "on", "the", "mat", "and", "slept"];
