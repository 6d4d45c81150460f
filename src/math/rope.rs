//! Rotary position embedding (RoPE, Su et al. "RoFormer"): queries and keys are rotated pair by
//! pair by m·θᵢ at position m, θᵢ = base^(−2i/d), so q·k depends on positions only through m − n.
//!
//! Two pairings are in use: rotate-half pairs dimension i with i + d/2 (GPT-NeoX; LLaMA in
//! Hugging Face transformers); adjacent pairs 2i with 2i+1 (GPT-J, RoFormer, Meta's original
//! LLaMA code). They are the same rotation on dimensions permuted by [0::2] ++ [1::2].

use std::rc::Rc;

use super::chunked::Chunked;
use super::wave::{Column, Wave, WaveMatrix};

/// Which dimensions RoPE rotates together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum RopePairing {
    /// (i, i + d/2).
    #[default]
    RotateHalf,
    /// (2i, 2i + 1).
    Adjacent,
}

impl RopePairing {
    pub const ALL: [RopePairing; 2] = [RopePairing::RotateHalf, RopePairing::Adjacent];

    pub fn id(self) -> &'static str {
        match self {
            RopePairing::RotateHalf => "rotate-half",
            RopePairing::Adjacent => "adjacent",
        }
    }

    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|p| p.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            RopePairing::RotateHalf => "rotate-half (i, i+d/2): GPT-NeoX, LLaMA in HF",
            RopePairing::Adjacent => "adjacent (2i, 2i+1): GPT-J, RoFormer, Meta LLaMA",
        }
    }
}

/// How RoPE is stretched to run past the length it was trained on: the methods checkpoints ship,
/// each computed as Hugging Face transformers' `modeling_rope_utils` computes it.
#[derive(Clone, Debug, PartialEq, Default)]
pub enum RopeScaling {
    #[default]
    None,
    /// Position interpolation (Chen et al.; HF "linear"): positions are divided by `s`.
    Interpolation(f64),
    /// NTK-aware scaling (static): the base becomes base·s^(d/(d−2)).
    Ntk(f64),
    /// Dynamic NTK (HF "dynamic"): past the original maximum, the base grows with the current
    /// length L: base·((s·L/original) − (s − 1))^(d/(d−2)); up to it, nothing changes.
    DynamicNtk {
        factor: f64,
        original: usize,
        length: usize,
    },
    /// Llama 3.1's "llama3": pairs whose wavelength is shorter than original/high are left
    /// alone, longer than original/low are divided by the factor, and in between a smooth mix.
    Llama3 {
        factor: f64,
        low: f64,
        high: f64,
        original: usize,
    },
    /// YaRN (Peng et al.): pairs that turn more than `beta_fast` times over the original length
    /// are left alone, fewer than `beta_slow` times are interpolated, a linear ramp between; cos
    /// and sin are scaled by the attention factor 0.1·ln(s) + 1 (or as `mscale` says).
    Yarn {
        factor: f64,
        original: usize,
        beta_fast: f64,
        beta_slow: f64,
        /// DeepSeek's `mscale` and `mscale_all_dim` (0: not given).
        mscale: f64,
        mscale_all_dim: f64,
        /// An explicit `attention_factor`, which overrides the formula.
        attention_factor: Option<f64>,
        /// Round the ramp's ends to whole pairs (floor and ceil), as transformers does unless
        /// the config says `"truncate": false` (gpt-oss).
        truncate: bool,
    },
    /// LongRoPE (Phi-3, Phi-3.5, Phi-4-mini; HF "longrope"): pair i's frequency is divided by
    /// its own factor, from `long` once the current length passes the original maximum and
    /// from `short` up to it; cos and sin are scaled by √(1 + ln s / ln original).
    LongRope {
        /// One factor per pair (a missing one counts as 1; transformers holds them in float32).
        short: Rc<[f64]>,
        long: Rc<[f64]>,
        original: usize,
        /// The current length: `long` is used past `original`.
        length: usize,
        /// The scale s of the attention factor (the config's `factor`, or
        /// max_position_embeddings / original).
        factor: f64,
        /// An explicit `attention_factor`, which overrides the formula.
        attention_factor: Option<f64>,
    },
}

impl RopeScaling {
    pub fn id(&self) -> &'static str {
        match self {
            RopeScaling::None => "none",
            RopeScaling::Interpolation(_) => "pi",
            RopeScaling::Ntk(_) => "ntk",
            RopeScaling::DynamicNtk { .. } => "dynamic",
            RopeScaling::Llama3 { .. } => "llama3",
            RopeScaling::Yarn { .. } => "yarn",
            RopeScaling::LongRope { .. } => "longrope",
        }
    }

    pub fn factor(&self) -> f64 {
        match *self {
            RopeScaling::None => 1.0,
            RopeScaling::Interpolation(s) | RopeScaling::Ntk(s) => s,
            RopeScaling::DynamicNtk { factor, .. }
            | RopeScaling::Llama3 { factor, .. }
            | RopeScaling::Yarn { factor, .. }
            | RopeScaling::LongRope { factor, .. } => factor,
        }
    }

    /// The method in Hugging Face's `rope_scaling` form (what a config.json ships), `None` for
    /// plain RoPE. Static NTK has no `rope_type` of its own in transformers (a checkpoint states
    /// the larger `rope_theta` instead): it is written as `"ntk"`, which pe_model.py reads.
    pub fn hf_json(&self) -> Option<String> {
        let list = |xs: &[f64]| {
            xs.iter()
                .map(|x| format!("{x}"))
                .collect::<Vec<_>>()
                .join(",")
        };
        let optional =
            |name: &str, v: Option<f64>| v.map(|v| format!(",\"{name}\":{v}")).unwrap_or_default();
        Some(match self {
            RopeScaling::None => return None,
            RopeScaling::Interpolation(s) => format!("{{\"rope_type\":\"linear\",\"factor\":{s}}}"),
            RopeScaling::Ntk(s) => format!("{{\"rope_type\":\"ntk\",\"factor\":{s}}}"),
            RopeScaling::DynamicNtk {
                factor, original, ..
            } => format!(
                "{{\"rope_type\":\"dynamic\",\"factor\":{factor},\
                 \"original_max_position_embeddings\":{original}}}"
            ),
            RopeScaling::Llama3 {
                factor,
                low,
                high,
                original,
            } => format!(
                "{{\"rope_type\":\"llama3\",\"factor\":{factor},\"low_freq_factor\":{low},\
                 \"high_freq_factor\":{high},\"original_max_position_embeddings\":{original}}}"
            ),
            RopeScaling::Yarn {
                factor,
                original,
                beta_fast,
                beta_slow,
                mscale,
                mscale_all_dim,
                attention_factor,
                truncate,
            } => format!(
                "{{\"rope_type\":\"yarn\",\"factor\":{factor},\
                 \"original_max_position_embeddings\":{original},\"beta_fast\":{beta_fast},\
                 \"beta_slow\":{beta_slow},\"truncate\":{truncate}{}{}{}}}",
                optional("mscale", (*mscale > 0.0).then_some(*mscale)),
                optional(
                    "mscale_all_dim",
                    (*mscale_all_dim > 0.0).then_some(*mscale_all_dim)
                ),
                optional("attention_factor", *attention_factor),
            ),
            RopeScaling::LongRope {
                short,
                long,
                original,
                factor,
                attention_factor,
                ..
            } => format!(
                "{{\"rope_type\":\"longrope\",\"factor\":{factor},\
                 \"original_max_position_embeddings\":{original},\"short_factor\":[{}],\
                 \"long_factor\":[{}]{}}}",
                list(short),
                list(long),
                optional("attention_factor", *attention_factor),
            ),
        })
    }

    /// LongRoPE's factors in use at the current length: `(long?, factors)`.
    pub fn longrope_factors(&self) -> Option<(bool, &[f64])> {
        match self {
            RopeScaling::LongRope {
                short,
                long,
                original,
                length,
                ..
            } => {
                let past = length > original;
                Some((past, if past { long } else { short }))
            }
            _ => None,
        }
    }
}

/// What a scaling method does to one frequency pair, compared with plain RoPE.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Treatment {
    /// The same frequency as without scaling.
    Kept,
    /// Divided by the whole factor (interpolated).
    Interpolated,
    /// Somewhere in between (Llama 3's smooth band, YaRN's ramp).
    Ramped,
    /// Changed by a new base (NTK): slower, by an amount that grows with the pair.
    Rebased,
    /// Divided by a factor of its own (LongRoPE's per-pair lists).
    Rescaled,
}

impl Treatment {
    pub fn label(self) -> &'static str {
        match self {
            Treatment::Kept => "left alone",
            Treatment::Interpolated => "interpolated",
            Treatment::Ramped => "ramped",
            Treatment::Rebased => "new base",
            Treatment::Rescaled => "own factor",
        }
    }
}

/// YaRN's `get_mscale`.
fn yarn_mscale(scale: f64, mscale: f64) -> f64 {
    if scale <= 1.0 {
        1.0
    } else {
        0.1 * mscale * scale.ln() + 1.0
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Rope {
    pub d_model: usize,
    /// θ, the base of the frequencies (10000 in RoFormer and LLaMA 1–2; 500000 in LLaMA 3).
    pub base: f64,
    pub pairing: RopePairing,
    pub scaling: RopeScaling,
    /// Hugging Face's `dim`: all of d_model, or GPT-NeoX's `rotary_pct` and Phi's
    /// `partial_rotary_factor` times d, truncated to a whole number as the libraries do. An odd
    /// partial width is rounded up by the cache: ⌈dim/2⌉ pairs turn (see [`Rope::pair_count`]).
    pub rotary_dim: usize,
}

impl Rope {
    pub fn new(d_model: usize, base: f64, pairing: RopePairing, scaling: RopeScaling) -> Rope {
        Rope {
            d_model,
            base,
            pairing,
            scaling,
            rotary_dim: d_model,
        }
    }

    /// Rotates only the first ⌊fraction·d⌋ dimensions (`int(head_dim * partial_rotary_factor)`).
    pub fn with_rotary_fraction(self, fraction: f64) -> Rope {
        let f = if fraction.is_finite() {
            fraction.clamp(0.0, 1.0)
        } else {
            1.0
        };
        Rope {
            rotary_dim: ((self.d_model as f64 * f) as usize).min(self.d_model),
            ..self
        }
    }

    /// Number of rotated pairs; the dimensions past them (an odd last one, or everything past
    /// the rotary fraction) are left as they are. A partial width `dim` gives
    /// `len(arange(0, dim, 2))` = ⌈dim/2⌉ frequencies, a cache 2·⌈dim/2⌉ wide and that many
    /// dimensions turned, as transformers computes it (0.4 of 64: dim 25, 13 pairs, 26 turned).
    /// A whole odd d_model turns ⌊d/2⌋ pairs and leaves its last dimension alone.
    pub fn pair_count(&self) -> usize {
        if self.rotary_dim < self.d_model {
            self.rotary_dim.div_ceil(2)
        } else {
            self.d_model / 2
        }
    }

    /// The dimensions turned: twice the pairs.
    pub fn rotated_width(&self) -> usize {
        2 * self.pair_count()
    }

    /// The width the frequencies are spread over (HF's `dim`): θᵢ = base^(−2i/dim). A partial
    /// width as it is (odd or even); the whole width rounded down to even.
    pub fn freq_dim(&self) -> f64 {
        let dim = if self.rotary_dim < self.d_model {
            self.rotary_dim
        } else {
            2 * self.pair_count()
        };
        dim.max(1) as f64
    }

    /// The base actually used (NTK scaling raises it; dynamic NTK only past the original
    /// maximum, by an amount that grows with the current length).
    pub fn effective_base(&self) -> f64 {
        let d = self.freq_dim();
        match self.scaling {
            RopeScaling::Ntk(s) if d > 2.0 => self.base * s.powf(d / (d - 2.0)),
            RopeScaling::DynamicNtk {
                factor,
                original,
                length,
            } if d > 2.0 && length > original && original > 0 => {
                let grow = factor * length as f64 / original as f64 - (factor - 1.0);
                self.base * grow.max(1.0).powf(d / (d - 2.0))
            }
            _ => self.base,
        }
    }

    /// θᵢ of plain RoPE on the rotated width: base^(−2i/d).
    pub fn original_theta(&self, pair: usize) -> f64 {
        self.base.powf(-(2.0 * pair as f64) / self.freq_dim())
    }

    /// θᵢ in radians per position, as the scaling method leaves it (position interpolation
    /// divides the positions instead: see [`Rope::scaled_position`]).
    pub fn theta(&self, pair: usize) -> f64 {
        let d = self.freq_dim();
        let plain = self.original_theta(pair);
        match self.scaling {
            RopeScaling::None | RopeScaling::Interpolation(_) => plain,
            RopeScaling::Ntk(_) | RopeScaling::DynamicNtk { .. } => {
                self.effective_base().powf(-(2.0 * pair as f64) / d)
            }
            RopeScaling::Llama3 {
                factor,
                low,
                high,
                original,
            } => {
                let wavelen = std::f64::consts::TAU / plain;
                let (low_wavelen, high_wavelen) = (original as f64 / low, original as f64 / high);
                if wavelen < high_wavelen {
                    plain
                } else if wavelen > low_wavelen {
                    plain / factor
                } else {
                    let smooth = (original as f64 / wavelen - low) / (high - low);
                    (1.0 - smooth) * plain / factor + smooth * plain
                }
            }
            RopeScaling::Yarn {
                factor,
                original,
                beta_fast,
                beta_slow,
                truncate,
                ..
            } => {
                let keep = 1.0 - self.yarn_ramp(beta_fast, beta_slow, original, truncate, pair);
                plain / factor * (1.0 - keep) + plain * keep
            }
            RopeScaling::LongRope { .. } => plain / self.longrope_factor(pair),
        }
    }

    /// LongRoPE's factor for pair i at the current length (1 past the end of its list, or for
    /// a value that is not a positive number).
    pub fn longrope_factor(&self, pair: usize) -> f64 {
        self.scaling
            .longrope_factors()
            .and_then(|(_, f)| f.get(pair).copied())
            .filter(|f| f.is_finite() && *f > 0.0)
            .unwrap_or(1.0)
    }

    /// YaRN's ramp for pair i: 0 where the pair is left alone, 1 where it is interpolated
    /// (`linear_ramp_factor` between the correction range of beta_fast and beta_slow, its ends
    /// floored and ceiled when `truncate`).
    pub fn yarn_ramp(
        &self,
        beta_fast: f64,
        beta_slow: f64,
        original: usize,
        truncate: bool,
        pair: usize,
    ) -> f64 {
        let dim = self.freq_dim();
        let correction = |rotations: f64| {
            dim * (original.max(1) as f64 / (rotations * std::f64::consts::TAU)).ln()
                / (2.0 * self.base.ln())
        };
        let (low, high) = (correction(beta_fast), correction(beta_slow));
        let (low, high) = if truncate {
            (low.floor(), high.ceil())
        } else {
            (low, high)
        };
        let (low, high) = (low.max(0.0), high.min(dim - 1.0));
        let high = if low == high { high + 0.001 } else { high };
        ((pair as f64 - low) / (high - low)).clamp(0.0, 1.0)
    }

    /// The factor cos and sin are multiplied by (YaRN's attention temperature, LongRoPE's
    /// √(1 + ln s / ln original); 1 otherwise).
    pub fn attention_factor(&self) -> f64 {
        match self.scaling {
            RopeScaling::Yarn {
                factor,
                mscale,
                mscale_all_dim,
                attention_factor,
                ..
            } => attention_factor.unwrap_or(if mscale > 0.0 && mscale_all_dim > 0.0 {
                yarn_mscale(factor, mscale) / yarn_mscale(factor, mscale_all_dim)
            } else {
                yarn_mscale(factor, 1.0)
            }),
            RopeScaling::LongRope {
                factor,
                original,
                attention_factor,
                ..
            } => attention_factor.unwrap_or(if factor <= 1.0 || original < 2 {
                // ln 1 = 0: the formula has no value for an original length of 1.
                1.0
            } else {
                (1.0 + factor.ln() / (original as f64).ln()).sqrt()
            }),
            _ => 1.0,
        }
    }

    /// What the method does to pair i, against plain RoPE.
    pub fn treatment(&self, pair: usize) -> Treatment {
        let ratio = self.theta(pair) * self.scaled_position(1.0) / self.original_theta(pair);
        let s = self.scaling.factor();
        match self.scaling {
            RopeScaling::Ntk(_) | RopeScaling::DynamicNtk { .. } if (ratio - 1.0).abs() > 1e-12 => {
                Treatment::Rebased
            }
            RopeScaling::LongRope { .. } if (ratio - 1.0).abs() > 1e-12 => Treatment::Rescaled,
            _ if (ratio - 1.0).abs() <= 1e-12 => Treatment::Kept,
            _ if (ratio * s - 1.0).abs() <= 1e-9 => Treatment::Interpolated,
            _ => Treatment::Ramped,
        }
    }

    /// The position the rotation uses (position interpolation divides it).
    pub fn scaled_position(&self, position: f64) -> f64 {
        match self.scaling {
            RopeScaling::Interpolation(s) if s > 0.0 => position / s,
            _ => position,
        }
    }

    /// The angle pair `i` is turned by at position m.
    pub fn angle(&self, position: f64, pair: usize) -> f64 {
        self.scaled_position(position) * self.theta(pair)
    }

    /// The two dimensions rotated together as pair `i`.
    pub fn pair_dims(&self, pair: usize) -> (usize, usize) {
        match self.pairing {
            RopePairing::RotateHalf => (pair, pair + self.pair_count()),
            RopePairing::Adjacent => (2 * pair, 2 * pair + 1),
        }
    }

    /// The pair a dimension belongs to, if it is rotated.
    pub fn pair_of(&self, dim: usize) -> Option<usize> {
        let h = self.pair_count();
        if dim >= 2 * h {
            return None;
        }
        Some(match self.pairing {
            RopePairing::RotateHalf => dim % h,
            RopePairing::Adjacent => dim / 2,
        })
    }

    /// `x` rotated for position m: each pair (a, b) becomes (a cos − b sin, b cos + a sin).
    pub fn rotate(&self, x: &[f64], position: f64) -> Vec<f64> {
        let mut out = x.to_vec();
        for i in 0..self.pair_count() {
            let (a, b) = self.pair_dims(i);
            if b >= x.len() {
                continue;
            }
            let (s, c) = self.angle(position, i).sin_cos();
            let f = self.attention_factor();
            out[a] = (x[a] * c - x[b] * s) * f;
            out[b] = (x[b] * c + x[a] * s) * f;
        }
        out
    }

    /// The attention score of query `q` at position m and key `k` at position n, rotated.
    pub fn score(&self, q: &[f64], m: f64, k: &[f64], n: f64) -> f64 {
        let (q, k) = (self.rotate(q, m), self.rotate(k, n));
        q.iter().zip(&k).map(|(a, b)| a * b).sum()
    }

    /// Dimensions left unrotated (an odd last one; everything past a rotary fraction).
    pub fn unrotated(&self) -> usize {
        self.d_model - self.rotated_width()
    }

    /// The score for q = k = (1, …, 1) at relative distance m − n: f²·Σᵢ 2·cos((m − n)θᵢ) (f the
    /// attention factor), plus 1 for each unrotated dimension.
    pub fn ones_score(&self, distance: f64) -> f64 {
        let pairs: f64 = (0..self.pair_count())
            .map(|i| 2.0 * (self.scaled_position(distance) * self.theta(i)).cos())
            .sum();
        self.attention_factor().powi(2) * pairs + self.unrotated() as f64
    }

    /// RoFormer's *relative* upper bound at relative distance m − n (§3.4.3, its Figure 2):
    /// (1/(d/2))·Σ_{j=1}^{d/2} |S_j| with S_j = Σ_{i<j} e^{i(m−n)θᵢ}. It is not a bound on the
    /// score: the paper proves |Σᵢ hᵢ·e^{i(m−n)θᵢ}| ≤ (maxᵢ |hᵢ₊₁ − hᵢ|)·Σ_j |S_j|, which is
    /// [`abel_step`]·(d/2)·this, with hᵢ pair i of q times pair i of k conjugated.
    pub fn decay_bound(&self, distance: f64) -> f64 {
        let h = self.pair_count();
        if h == 0 {
            return 0.0;
        }
        let (mut re, mut im, mut total) = (0.0, 0.0, 0.0);
        for i in 0..h {
            let (s, c) = (self.scaled_position(distance) * self.theta(i)).sin_cos();
            re += c;
            im += s;
            total += (re * re + im * im).sqrt();
        }
        total / h as f64
    }

    /// The cos table cos(m·θ) laid out like the library's cache (rotate-half repeats the
    /// frequencies [θ | θ]; adjacent interleaves them), `length` positions by d_model columns.
    pub fn cos_table(&self, length: usize) -> WaveMatrix {
        let columns = (0..self.d_model)
            .map(|dim| match self.pair_of(dim) {
                Some(i) => Column {
                    wave: Wave::Cos,
                    pair: Some(i),
                    // angle = (m / s)·θ: a wave of m with ω = θ·(1/s).
                    omega: self.theta(i) * self.scaled_position(1.0),
                },
                None => Column {
                    wave: Wave::Zero,
                    pair: None,
                    omega: 0.0,
                },
            })
            .collect();
        let group = match self.pairing {
            RopePairing::Adjacent => 2,
            RopePairing::RotateHalf => 1,
        };
        WaveMatrix::new(columns, length, group)
    }
}

impl Rope {
    /// The same RoPE (width, base, scaling, attention factor, rotary width) with another pairing.
    pub fn with_pairing(&self, pairing: RopePairing) -> Rope {
        Rope {
            pairing,
            ..self.clone()
        }
    }

    /// The cos and sin dimension `dim` is multiplied by at `position`, as Hugging Face's
    /// `cos_cached`/`sin_cached` hold them: f·cos(angle) and f·sin(angle) of the dimension's pair
    /// (f the attention factor; rotate-half lays the pairs out as `cat(freqs, freqs)`, adjacent
    /// repeats each θ twice). A dimension past the rotated width passes through: (1, 0).
    pub fn cos_sin(&self, position: f64, dim: usize) -> (f64, f64) {
        match self.pair_of(dim) {
            Some(i) => {
                let (s, c) = self.angle(position, i).sin_cos();
                let f = self.attention_factor();
                (f * c, f * s)
            }
            None => (1.0, 0.0),
        }
    }

    /// `x` rotated the way the libraries write it: `x·cos + rotate(x)·sin` with the cached cos
    /// and sin of [`Rope::cos_sin`], where rotate-half's `rotate_half(x)` is `cat(−x₂, x₁)` and
    /// adjacent's `rotate_every_two(x)` is (−x₂ᵢ₊₁, x₂ᵢ) pair by pair. The same numbers as
    /// [`Rope::rotate`], computed independently (a cross-check).
    pub fn rotate_by_cache(&self, x: &[f64], position: f64) -> Vec<f64> {
        (0..x.len())
            .map(|dim| {
                let (c, s) = self.cos_sin(position, dim);
                let rotated = match self.pair_of(dim) {
                    Some(i) => {
                        let (a, b) = self.pair_dims(i);
                        if b >= x.len() {
                            return x[dim];
                        }
                        if dim == a {
                            -x[b]
                        } else {
                            x[a]
                        }
                    }
                    None => 0.0,
                };
                x[dim] * c + rotated * s
            })
            .collect()
    }

    /// The permutation [0::2] ++ [1::2] on the rotated width, every dimension past it in place:
    /// `result[j]` is the index in the adjacent layout of what the rotate-half layout holds at
    /// j. Rotating `x` permuted this way with rotate-half gives the adjacent rotation of `x`,
    /// permuted the same way.
    pub fn half_from_adjacent(&self) -> Vec<usize> {
        let rotated = self.rotated_width();
        let mut p = half_from_adjacent(rotated);
        p.extend(rotated..self.d_model);
        p
    }
}

/// The permutation [0::2] ++ [1::2] (an odd last, unrotated dimension stays last): `result[j]`
/// is the index in the adjacent layout of what the rotate-half layout holds at j.
pub fn half_from_adjacent(d: usize) -> Vec<usize> {
    let rotated = d - d % 2;
    (0..rotated)
        .step_by(2)
        .chain((1..rotated).step_by(2))
        .chain(rotated..d)
        .collect()
}

/// The factor of RoFormer's bound that depends on q and k: maxᵢ |hᵢ₊₁ − hᵢ| over the pairs'
/// products hᵢ = q_pair_i·conj(k_pair_i) as (re, im), with h after the last pair taken as 0 (the
/// paper's Abel summation sets h_{d/2} = 0). For q = k = 1 every hᵢ is 2, so the factor is 2.
pub fn abel_step(h: &[(f64, f64)]) -> f64 {
    h.iter()
        .zip(h.iter().skip(1).copied().chain([(0.0, 0.0)]))
        .map(|(a, b)| (b.0 - a.0).hypot(b.1 - a.1))
        .fold(0.0, f64::max)
}

/// RoPE's score as a function of the relative distance Δ = m − n, for Δ = 0 .. length − 1.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeCurves {
    /// q = k = (1, …, 1): Σᵢ 2·cos(Δθᵢ) (+1 for an unrotated odd dimension).
    pub ones: Vec<f64>,
    /// The mean score over random vectors q = k ~ N(0, I): Σᵢ wᵢ·cos(Δθᵢ) with wᵢ the sampled
    /// mean of q_a² + q_b² over the pair.
    pub random: Vec<f64>,
    /// RoFormer's relative upper bound (1/(d/2))·Σ_j |S_j| at a sample of distances:
    /// (Δ, relative bound).
    pub decay: Vec<(f64, f64)>,
    /// How many random vectors the mean uses.
    pub samples: usize,
    /// The mean over those vectors of [`abel_step`] (with the attention factor), and of their
    /// unrotated dimensions' part of the score: the bound on the mean's magnitude is
    /// random_step·Σ_j |S_j| + random_unrotated.
    pub random_step: f64,
    pub random_unrotated: f64,
}

/// Random vectors averaged for [`RopeCurves::random`].
pub const RANDOM_VECTORS: usize = 32;

impl Rope {
    /// Angular speed of each pair per position (θᵢ, divided by the interpolation factor).
    pub fn speeds(&self) -> Vec<f64> {
        (0..self.pair_count())
            .map(|i| self.theta(i) * self.scaled_position(1.0))
            .collect()
    }

    /// For each pair, the largest angle the unscaled model produced on `trained` positions, or
    /// `None` when that already covered a full turn (every angle was seen).
    fn trained_reach(&self, trained: usize) -> impl Iterator<Item = Option<f64>> + '_ {
        let unscaled = Rope {
            scaling: RopeScaling::None,
            ..self.clone()
        };
        (0..self.pair_count()).map(move |i| {
            let reach = trained.saturating_sub(1) as f64 * unscaled.theta(i);
            (reach < std::f64::consts::TAU).then_some(reach)
        })
    }

    /// Pairs whose angle at the last of `length` positions (with the scaling applied) lies
    /// beyond anything training on `trained` positions produced.
    pub fn unseen_pairs(&self, length: usize, trained: usize) -> usize {
        let last = length.saturating_sub(1) as f64;
        self.trained_reach(trained)
            .enumerate()
            .filter(
                |(i, reach)| matches!(reach, Some(r) if self.angle(last, *i) > r * (1.0 + 1e-12)),
            )
            .count()
    }

    /// The longest input whose every angle (with the scaling applied) stays inside what
    /// training on `trained` positions produced; infinite when every pair turned fully.
    pub fn seen_length(&self, trained: usize) -> f64 {
        let speeds = self.speeds();
        self.trained_reach(trained)
            .zip(speeds)
            .filter_map(|(reach, speed)| reach.map(|r| (r / speed * (1.0 + 1e-12)).floor() + 1.0))
            .fold(f64::INFINITY, f64::min)
    }

    /// The curves for Δ = 0 .. length − 1; the decay bound at no more than `decay_points`
    /// distances (it needs an O(d) partial sum at each).
    pub fn distance_curves(&self, length: usize, decay_points: usize) -> RopeCurves {
        self.curves_job(length, decay_points).run()
    }

    /// The same computation, to be done a range of distances at a time.
    pub fn curves_job(&self, length: usize, decay_points: usize) -> RopeCurvesJob {
        let speeds = self.speeds();
        let h = speeds.len();
        let mut rng = super::rng::SplitMix64::new(0x524F_5045);
        let mut weights = vec![0.0; h];
        let mut odd = 0.0;
        let f2 = self.attention_factor().powi(2);
        let mut random_step = 0.0;
        // For q = k each pair's product hᵢ = q_pair·conj(q_pair) = |q_pair|² (real).
        let mut products = vec![(0.0, 0.0); h];
        for _ in 0..RANDOM_VECTORS {
            for (w, hi) in weights.iter_mut().zip(products.iter_mut()) {
                let (a, b) = (rng.next_normal(), rng.next_normal());
                *w += f2 * (a * a + b * b) / RANDOM_VECTORS as f64;
                *hi = (f2 * (a * a + b * b), 0.0);
            }
            random_step += abel_step(&products) / RANDOM_VECTORS as f64;
            for _ in 0..self.unrotated() {
                odd += rng.next_normal().powi(2) / RANDOM_VECTORS as f64;
            }
        }
        RopeCurvesJob {
            zeros: vec![0.0; h],
            speeds,
            weights,
            odd,
            f2,
            extra: self.unrotated() as f64,
            decay_stride: length.div_ceil(decay_points.max(1)).max(1),
            length,
            curves: RopeCurves {
                ones: Vec::with_capacity(length),
                random: Vec::with_capacity(length),
                decay: Vec::new(),
                samples: RANDOM_VECTORS,
                random_step,
                random_unrotated: odd,
            },
        }
    }
}

/// [`Rope::distance_curves`], a range of distances at a time.
pub struct RopeCurvesJob {
    speeds: Vec<f64>,
    weights: Vec<f64>,
    zeros: Vec<f64>,
    odd: f64,
    /// The attention factor squared (scales every rotated pair's part of a score).
    f2: f64,
    extra: f64,
    decay_stride: usize,
    length: usize,
    curves: RopeCurves,
}

impl Chunked for RopeCurvesJob {
    type Output = RopeCurves;

    fn len(&self) -> usize {
        self.length
    }

    fn cost(&self) -> usize {
        // The bound's partial sums cost about as much again where they are taken.
        let h = self.speeds.len().max(1);
        2 * h + 2 * h / self.decay_stride
    }

    fn compute(&mut self, range: std::ops::Range<usize>) {
        let h = self.speeds.len();
        let mut walk = super::walk::PairWalk::new(&self.speeds, range.start, 1);
        let c = &mut self.curves;
        for delta in range {
            c.ones.push(2.0 * self.f2 * walk.sum_cos() + self.extra);
            c.random
                .push(walk.dot(&self.zeros, &self.weights) + self.odd);
            if delta % self.decay_stride == 0 || delta + 1 == self.length {
                let (re, im) = walk.phasors();
                let (mut sr, mut si, mut total) = (0.0, 0.0, 0.0);
                for (c, s) in re.iter().zip(im) {
                    sr += c;
                    si += s;
                    total += (sr * sr + si * si).sqrt();
                }
                c.decay
                    .push((delta as f64, if h > 0 { total / h as f64 } else { 0.0 }));
            }
            walk.advance();
        }
    }

    fn finish(self) -> RopeCurves {
        self.curves
    }
}

/// A deterministic query and key of width `d_model` for checking RoPE by hand: standard normal
/// entries from SplitMix64 seeded with `seed` (q first, then k), rounded to three decimals so
/// the numbers shown are exactly the numbers used and can be pasted into other code as they are.
pub fn seeded_pair(d_model: usize, seed: u64) -> (Vec<f64>, Vec<f64>) {
    let mut rng = super::rng::SplitMix64::new(seed ^ 0x5143_4B56);
    let mut draw = || {
        (0..d_model)
            .map(|_| (rng.next_normal() * 1000.0).round() / 1000.0 + 0.0)
            .collect::<Vec<f64>>()
    };
    let q = draw();
    let k = draw();
    (q, k)
}
