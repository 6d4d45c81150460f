//! T5's relative position buckets (Raffel et al.): each relative position key − query falls in
//! one of `num_buckets` buckets (exact for small distances, logarithmic up to `max_distance`, all
//! further distances in the last bucket), and each bucket has one learned scalar bias per head.
//!
//! The bucket arithmetic follows Hugging Face's `_relative_position_bucket`, in f32 as torch
//! computes it, so bucket edges land where the library puts them.

use super::bias::Row;
use super::rng::SplitMix64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct T5Buckets {
    pub num_buckets: usize,
    pub max_distance: usize,
    /// Encoder (both directions get their own buckets) or decoder (only the past).
    pub bidirectional: bool,
}

impl Default for T5Buckets {
    fn default() -> Self {
        T5Buckets {
            num_buckets: 32,
            max_distance: 128,
            bidirectional: true,
        }
    }
}

impl T5Buckets {
    /// The bucket of relative position `r` = key position − query position.
    pub fn bucket(&self, r: i64) -> usize {
        let mut buckets = self.num_buckets.max(2) as i64;
        let mut out = 0i64;
        let distance = if self.bidirectional {
            buckets /= 2;
            if r > 0 {
                out += buckets;
            }
            r.unsigned_abs() as i64
        } else {
            (-r.min(0)).max(0)
        };
        let max_exact = (buckets / 2).max(1);
        if distance < max_exact {
            return (out + distance) as usize;
        }
        let last = buckets - 1;
        // As torch: a float32 log of the distance over a float32 of the (float64) log scale.
        let scale = (self.max_distance.max(1) as f64 / max_exact as f64).ln() as f32;
        if scale <= 0.0 {
            // max_distance ≤ max_exact: Hugging Face divides by log(≤ 1) here and gets garbage;
            // the limit of its formula is that every longer distance shares the last bucket.
            return (out + last) as usize;
        }
        let ratio = (distance as f32 / max_exact as f32).ln() / scale;
        // Non-negative and finite; capped before the cast so huge distances cannot overflow.
        let steps = (ratio * (buckets - max_exact) as f32).min(buckets as f32);
        (out + (max_exact + steps as i64).min(last)) as usize
    }

    /// The smallest distance into the past that already lands in the last bucket: every
    /// distance from here on looks the same to the model.
    pub fn saturation_distance(&self) -> i64 {
        let target = self.bucket(-(1 << 40));
        let (mut lo, mut hi) = (0i64, 1i64 << 40);
        // bucket(−d) never decreases as d grows: binary search for the first d in the last one.
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.bucket(-mid) == target {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        lo
    }
}

/// The buckets with one bias each: what T5 adds to the score for a relative position.
#[derive(Clone, Debug, PartialEq)]
pub struct T5Bias {
    pub buckets: T5Buckets,
    pub biases: Vec<f64>,
}

impl T5Bias {
    pub fn seeded(buckets: T5Buckets, seed: u64) -> T5Bias {
        T5Bias {
            buckets,
            biases: bucket_biases(buckets.num_buckets, seed),
        }
    }

    /// The bias for relative position `r` = key − query.
    pub fn at(&self, r: i64) -> f64 {
        let b = self.buckets.bucket(r);
        self.biases[b.min(self.biases.len().saturating_sub(1))]
    }
}

/// One seeded scalar bias per bucket (untrained: N(0, 1)), standing in for T5's learned ones.
pub fn bucket_biases(num_buckets: usize, seed: u64) -> Vec<f64> {
    let mut rng = SplitMix64::new(seed ^ 0x7435_0000);
    (0..num_buckets).map(|_| rng.next_normal()).collect()
}

/// T5's buckets as the trainer's score bias: one learned scalar per (bucket, head) in the
/// tensor `rel_bias` `[num_buckets, heads]`, looked up by the bucket of key − query (both
/// directions get their own buckets unless the model is causal). Initialised N(0, 0.02²), as the
/// trainer's other matrices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct T5Score {
    pub num_buckets: usize,
    pub max_distance: usize,
}

impl T5Score {
    fn buckets(&self, causal: bool) -> T5Buckets {
        T5Buckets {
            num_buckets: self.num_buckets,
            max_distance: self.max_distance,
            bidirectional: !causal,
        }
    }
}

impl super::bias::ScoreBias for T5Score {
    fn name(&self) -> &'static str {
        "t5"
    }

    fn tensors(&self, heads: usize) -> Vec<super::bias::BiasTensor> {
        vec![super::bias::BiasTensor::new(
            "rel_bias",
            vec![self.num_buckets, heads],
            false,
        )]
    }

    fn init(&self, heads: usize, _index: usize, rng: &mut SplitMix64) -> Vec<f64> {
        (0..self.num_buckets * heads)
            .map(|_| 0.02 * rng.next_normal())
            .collect()
    }

    fn row(&self, p: &[f64], at: Row, row: &mut [f64]) {
        let heads = at.heads;
        let buckets = self.buckets(at.causal);
        for j in at.keys() {
            let b = buckets.bucket(j as i64 - at.query as i64);
            for h in 0..heads {
                row[at.cell(h, j)] = p[b * heads + h];
            }
        }
    }

    fn row_backward(&self, _p: &[f64], at: Row, drow: &[f64], dparams: &mut [f64]) {
        let heads = at.heads;
        let buckets = self.buckets(at.causal);
        for j in at.keys() {
            let b = buckets.bucket(j as i64 - at.query as i64);
            for h in 0..heads {
                dparams[b * heads + h] += drow[at.cell(h, j)];
            }
        }
    }

    fn entry_cost(&self, heads: usize) -> (u64, u64) {
        // A bucket (a logarithm and a division) and one look-up per head, either way.
        (16 + heads as u64, 16 + heads as u64)
    }

    fn config_json(&self) -> String {
        format!(
            "{{\"num_buckets\":{},\"max_distance\":{}}}",
            self.num_buckets, self.max_distance
        )
    }

    fn buffers(
        &self,
        _heads: usize,
        positions: usize,
        causal: bool,
    ) -> Vec<super::bias::BiasBuffer> {
        let b = self.buckets(causal);
        let m = positions as i64;
        vec![super::bias::BiasBuffer {
            name: "buffer.t5_buckets".into(),
            shape: vec![(2 * positions).saturating_sub(1)],
            values: (-(m - 1)..m).map(|r| b.bucket(r) as f64).collect(),
            integer: true,
        }]
    }
}
