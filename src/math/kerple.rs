//! KERPLE (Chi et al., NeurIPS 2022, "KERPLE: Kernelized Relative Positional Embedding for
//! Length Extrapolation"), its logarithmic variant: each head adds
//!
//!   b_h(i, j) = −r1_h · ln(1 + r2_h · |i − j|),   r1_h, r2_h > 0 learned,
//!
//! to the score of query i and key j: a conditionally positive definite kernel, shifted and
//! made into a bias. Like ALiBi it only ever lowers a score with distance, but logarithmically,
//! so far keys are not pushed away without end; r2 sets where the curve bends, r1 how deep it
//! goes. Under a causal mask the distance is i − j (the reference builds `tril(i − j)`).
//!
//! The trainer's version follows the reference `ParallelKerpleLog`: `bias_p` (r1) starts
//! uniform in [0, 2), `bias_a` (r2) uniform in [0, 1), and both are clamped to at least
//! ε = 0.01 before every use (the reference clamps the parameters' data in place at each
//! forward, so the clamped value is what is trained on).

use super::bias::{BiasTensor, Row, ScoreBias};
use super::rng::SplitMix64;

/// The reference's ε (1e-2) as its float32 parameters hold it after the clamp: exactly
/// representable in f32 and f64 alike, so a clamped f32 parameter read back as f64 is exactly
/// ε (and is still trained, as the reference's is).
pub const EPS: f64 = 0.01f32 as f64;

/// The KERPLE-log bias at `distance` = |i − j|: −r1 · ln(1 + r2 · distance) (as given: no clamp).
pub fn kerple_log(r1: f64, r2: f64, distance: f64) -> f64 {
    -r1 * (1.0 + r2 * distance).ln()
}

/// KERPLE-log's two numbers for one head, for the app's views (the trainer learns one pair per
/// head). The defaults are the means of the reference's initialisation, r1 ~ U[0, 2) and
/// r2 ~ U[0, 1): r1 = 1, r2 = 0.5, a bias of −ln 1.5 ≈ −0.41 at distance 1 and −ln 51 ≈ −3.9
/// at distance 100.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Kerple {
    /// The depth (the reference's `bias_p`).
    pub r1: f64,
    /// The bend (the reference's `bias_a`).
    pub r2: f64,
}

impl Default for Kerple {
    fn default() -> Self {
        Kerple { r1: 1.0, r2: 0.5 }
    }
}

impl Kerple {
    /// The bias at a distance, with r1 and r2 clamped to at least ε as the reference uses them.
    pub fn at_distance(&self, distance: f64) -> f64 {
        kerple_log(self.r1.max(EPS), self.r2.max(EPS), distance)
    }

    /// The bias of query i for key j: none where a causal mask hides the key.
    pub fn bias(&self, query: usize, key: usize, causal: bool) -> Option<f64> {
        (!causal || key <= query).then(|| self.at_distance(query.abs_diff(key) as f64))
    }
}

/// KERPLE-log as the trainer's score bias: tensors `kerple.r1` and `kerple.r2`, `[heads]` each,
/// shared by all layers (the reference builds one `ParallelKerpleLog` and hands it to every
/// layer).
///
/// The clamp: the forward pass uses max(r, ε), and the gradient reaches a parameter where
/// r ≥ ε; [`project`](ScoreBias::project), which the trainer calls after every optimiser step,
/// clamps the stored values to ε as the reference does in place. So a parameter pushed below ε
/// is trained on at ε and can come back, as in the reference, rather than stuck below ε with
/// no gradient.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct KerpleLog;

impl ScoreBias for KerpleLog {
    fn name(&self) -> &'static str {
        "kerple"
    }

    fn tensors(&self, heads: usize) -> Vec<BiasTensor> {
        vec![
            BiasTensor::new("kerple.r1", vec![heads], false),
            BiasTensor::new("kerple.r2", vec![heads], false),
        ]
    }

    /// r1 = 2·U[0, 1), r2 = U[0, 1) (`torch.rand(heads) * scale`), clamped to ε as the
    /// reference's first forward pass leaves them.
    fn init(&self, heads: usize, index: usize, rng: &mut SplitMix64) -> Vec<f64> {
        let scale = if index == 0 { 2.0 } else { 1.0 };
        (0..heads)
            .map(|_| (scale * rng.next_unit()).max(EPS))
            .collect()
    }

    fn row(&self, p: &[f64], at: Row, row: &mut [f64]) {
        let (r1, r2) = p.split_at(at.heads);
        for h in 0..at.heads {
            let (a, b) = (r1[h].max(EPS), r2[h].max(EPS));
            for j in at.keys() {
                row[at.cell(h, j)] = kerple_log(a, b, at.distance(j) as f64);
            }
        }
    }

    fn row_backward(&self, p: &[f64], at: Row, drow: &[f64], dparams: &mut [f64]) {
        let heads = at.heads;
        let (r1, r2) = p.split_at(heads);
        for h in 0..heads {
            let (a, b) = (r1[h].max(EPS), r2[h].max(EPS));
            let (mut d1, mut d2) = (0.0, 0.0);
            for j in at.keys() {
                let g = drow[at.cell(h, j)];
                let d = at.distance(j) as f64;
                let inner = 1.0 + b * d;
                // ∂/∂r1 = −ln(1 + r2·d); ∂/∂r2 = −r1·d / (1 + r2·d).
                d1 -= g * inner.ln();
                d2 -= g * a * d / inner;
            }
            if r1[h] >= EPS {
                dparams[h] += d1;
            }
            if r2[h] >= EPS {
                dparams[heads + h] += d2;
            }
        }
    }

    fn entry_cost(&self, heads: usize) -> (u64, u64) {
        // A logarithm (about 16) per head; the backward adds a division.
        (16 * heads as u64, 24 * heads as u64)
    }

    fn config_json(&self) -> String {
        format!("{{\"eps\":{EPS}}}")
    }

    fn project(&self, _heads: usize, params: &mut [f64]) -> bool {
        let mut changed = false;
        for p in params.iter_mut().filter(|p| **p < EPS) {
            *p = EPS;
            changed = true;
        }
        changed
    }
}
