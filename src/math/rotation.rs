//! The relative-position property: moving k positions rotates every (sin, cos) pair by k·ω.
//!
//! For a pair (sin pω, cos pω), the matrix M_k = [[cos kω, sin kω], [−sin kω, cos kω]] gives
//! (sin (p+k)ω, cos (p+k)ω), whatever p is. That only works when the two columns share one
//! frequency; which columns form a pair depends on the layout.

use super::sinusoidal::{Sinusoidal, Wave};

/// Which columns are read together as one (sin, cos) pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Pairing {
    /// Each sine with the cosine of the same frequency, wherever the layout puts it.
    #[default]
    Partners,
    /// Columns (2i, 2i+1), as code written for the interleaved layout assumes.
    Adjacent,
}

impl Pairing {
    pub const ALL: [Pairing; 2] = [Pairing::Partners, Pairing::Adjacent];

    pub fn id(self) -> &'static str {
        match self {
            Pairing::Partners => "partners",
            Pairing::Adjacent => "adjacent",
        }
    }

    pub fn from_id(id: &str) -> Option<Pairing> {
        Pairing::ALL.into_iter().find(|p| p.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            Pairing::Partners => "sine with its cosine partner",
            Pairing::Adjacent => "adjacent columns (2i, 2i+1)",
        }
    }
}

/// Two columns read as one point (first, second) on the circle, with the frequency M_k uses.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pair {
    pub first: usize,
    pub second: usize,
    /// The angular frequency of the first column; M_k rotates by k times this.
    pub omega: f64,
}

/// The pairs of columns under a pairing, in order of the first column.
pub fn pairs(encoding: &Sinusoidal, pairing: Pairing) -> Vec<Pair> {
    match pairing {
        Pairing::Partners => (0..encoding.d_model)
            .filter(|&c| encoding.column(c).wave == Wave::Sin)
            .filter_map(|c| {
                encoding.partner(c).map(|p| Pair {
                    first: c,
                    second: p,
                    omega: encoding.column(c).omega,
                })
            })
            .collect(),
        Pairing::Adjacent => (0..encoding.d_model / 2)
            .map(|i| Pair {
                first: 2 * i,
                second: 2 * i + 1,
                omega: encoding.column(2 * i).omega,
            })
            .collect(),
    }
}

/// M_k for angular frequency ω, acting on column vectors (sin, cos).
pub fn rotation(omega: f64, offset: i64) -> [[f64; 2]; 2] {
    let (s, c) = (offset as f64 * omega).sin_cos();
    [[c, s], [-s, c]]
}

/// M·v.
pub fn apply(m: [[f64; 2]; 2], v: [f64; 2]) -> [f64; 2] {
    [
        m[0][0] * v[0] + m[0][1] * v[1],
        m[1][0] * v[0] + m[1][1] * v[1],
    ]
}

/// The result of checking M_k · PE(p) = PE(p + k) on every pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotationCheck {
    /// max over pairs of the Euclidean error |M_k·(a, b)_p − (a, b)_{p+k}|.
    pub max_error: f64,
    /// The pair with the largest error, if there are pairs.
    pub worst: Option<Pair>,
    pub pair_count: usize,
}

/// The error of M_k on one pair at position p.
pub fn pair_error(encoding: &Sinusoidal, pair: Pair, position: usize, offset: i64) -> f64 {
    let p = position as f64;
    let q = p + offset as f64;
    let here = [
        encoding.column(pair.first).value(p),
        encoding.column(pair.second).value(p),
    ];
    let there = [
        encoding.column(pair.first).value(q),
        encoding.column(pair.second).value(q),
    ];
    let moved = apply(rotation(pair.omega, offset), here);
    ((moved[0] - there[0]).powi(2) + (moved[1] - there[1]).powi(2)).sqrt()
}

/// Checks the rotation identity on every pair.
pub fn check(
    encoding: &Sinusoidal,
    pairing: Pairing,
    position: usize,
    offset: i64,
) -> RotationCheck {
    let all = pairs(encoding, pairing);
    let mut result = RotationCheck {
        max_error: 0.0,
        worst: None,
        pair_count: all.len(),
    };
    for pair in all {
        let e = pair_error(encoding, pair, position, offset);
        if e > result.max_error || result.worst.is_none() {
            result.max_error = result.max_error.max(e);
            result.worst = Some(pair);
        }
    }
    result
}

/// A readable subset of at most `max` pair indices, spread evenly from fastest to slowest.
pub fn dial_subset(pair_count: usize, max: usize) -> Vec<usize> {
    if pair_count <= max || max < 2 {
        return (0..pair_count.min(max.max(1))).collect();
    }
    let mut picked: Vec<usize> = (0..max)
        .map(|j| (j as f64 * (pair_count - 1) as f64 / (max - 1) as f64).round() as usize)
        .collect();
    picked.dedup();
    picked
}
