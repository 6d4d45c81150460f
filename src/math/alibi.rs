//! ALiBi (Press et al., "Train Short, Test Long"): no position vectors at all; each head adds
//! −m·(i − j) to the score of query i and key j, with a fixed slope m per head.

use super::bias::{Row, ScoreBias};

/// The slopes of `heads` heads exactly as the reference `get_slopes`: for a power of two n, a
/// geometric sequence starting at 2^(−8/n) with that ratio; otherwise the slopes of the closest
/// smaller power of two followed by every other slope of the next power of two.
pub fn slopes(heads: usize) -> Vec<f64> {
    fn power_of_two(n: usize) -> Vec<f64> {
        let start = 2f64.powf(-(2f64.powf(-((n as f64).log2() - 3.0))));
        (0..n).map(|i| start * start.powi(i as i32)).collect()
    }
    if heads == 0 {
        return Vec::new();
    }
    if heads.is_power_of_two() {
        return power_of_two(heads);
    }
    let closest = 1usize << (usize::BITS - 1 - heads.leading_zeros());
    let mut out = power_of_two(closest);
    out.extend(
        slopes(2 * closest)
            .into_iter()
            .step_by(2)
            .take(heads - closest),
    );
    out
}

/// The largest slope: for a power-of-two count the first head's, otherwise one of the heads
/// taken from the next power of two (12 heads: 2^(−1/2), the second half's first).
pub fn steepest(slopes: &[f64]) -> f64 {
    slopes.iter().copied().fold(0.0, f64::max)
}

/// The bias of query i for key j. Causal (as in the paper): −m·(i − j) for j ≤ i, and no value
/// (the key is masked) for j > i. Bidirectional (as encoder adaptations use): −m·|i − j|.
pub fn bias(slope: f64, query: usize, key: usize, causal: bool) -> Option<f64> {
    if causal && key > query {
        return None;
    }
    Some(-slope * query.abs_diff(key) as f64)
}

/// The bias as a function of k = key − query, for Toeplitz matrices; NaN where masked.
pub fn bias_at_offset(slope: f64, offset: i64, causal: bool) -> f64 {
    if causal && offset > 0 {
        f64::NAN
    } else {
        -slope * offset.unsigned_abs() as f64
    }
}

/// The sidebar's ALiBi settings: how many heads, and which one is drawn on its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AlibiHeads {
    pub heads: usize,
    pub head: usize,
}

impl Default for AlibiHeads {
    fn default() -> Self {
        AlibiHeads { heads: 8, head: 0 }
    }
}

impl AlibiHeads {
    /// The slopes of every head, as `get_slopes`.
    pub fn slopes(&self) -> Vec<f64> {
        slopes(self.heads)
    }

    /// The slope of the head drawn on its own.
    pub fn slope(&self) -> f64 {
        let s = self.slopes();
        s.get(self.head.min(s.len().saturating_sub(1)))
            .copied()
            .unwrap_or(0.0)
    }
}

/// ALiBi as the trainer's score bias: −m_h·|i − j| (keys after the query are masked in a
/// causal model, so this is −m_h·(i − j) there), slopes as [`slopes`]. Nothing is learned.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AlibiBias;

impl ScoreBias for AlibiBias {
    fn name(&self) -> &'static str {
        "alibi"
    }

    fn tensors(&self, _heads: usize) -> Vec<super::bias::BiasTensor> {
        Vec::new()
    }

    fn init(&self, _heads: usize, _index: usize, _rng: &mut super::rng::SplitMix64) -> Vec<f64> {
        Vec::new()
    }

    fn row(&self, _p: &[f64], at: Row, row: &mut [f64]) {
        for (h, m) in slopes(at.heads).into_iter().enumerate() {
            for j in at.keys() {
                row[at.cell(h, j)] = -m * at.distance(j) as f64;
            }
        }
    }

    /// Nothing is learned.
    fn row_backward(&self, _p: &[f64], _at: Row, _drow: &[f64], _dparams: &mut [f64]) {}

    fn entry_cost(&self, heads: usize) -> (u64, u64) {
        (heads as u64, 0)
    }

    fn config_json(&self) -> String {
        "{}".into()
    }

    fn buffers(
        &self,
        heads: usize,
        _positions: usize,
        _causal: bool,
    ) -> Vec<super::bias::BiasBuffer> {
        vec![super::bias::BiasBuffer {
            name: "buffer.alibi_slopes".into(),
            shape: vec![heads],
            values: slopes(heads),
            integer: false,
        }]
    }
}
