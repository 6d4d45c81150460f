//! The scheme views' figures and checks: the learned, RoPE and T5 charts, any scheme's bias, the numbers
//! their checks quote, and the text computed from the settings. No browser dependency; the
//! views in `ui::schemes` only draw what these return.

use std::rc::Rc;

use crate::export::table_csv;
use crate::format::{group_thousands, plain, significant};
use crate::math::learned::INIT_STD;
use crate::math::matrix::{Computed, Matrix};
use crate::math::rope::{half_from_adjacent, Rope, RopeCurves, RopePairing};
use crate::math::toeplitz::Toeplitz;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{
    Guide, LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS,
};
use crate::schemes::rope::{Extension, RopeSettings};
use crate::schemes::{HeadBias, Registered, Scheme};
use crate::state::Settings;

pub fn trained_rule(s: &Settings) -> Option<(usize, String)> {
    (s.trained_length < s.length).then(|| {
        (
            s.trained_length,
            format!("trained length {}", s.trained_length),
        )
    })
}

/// The learned table as a heatmap: untrained rows, and a rule under the last row it has.
pub fn learned_heatmap(
    table: crate::math::learned::Learned,
    length: usize,
    palette: Palette,
) -> HeatmapData {
    HeatmapData {
        matrix: Rc::new(crate::math::learned::LearnedMatrix { table, length }),
        x: Axis::indexed("dimension", "dim"),
        y: Axis::indexed("position", "position"),
        scale: ColorScale::symmetric(palette, 3.0 * INIT_STD),
        colorbar_title: "value".into(),
        caption: format!(
            "Learned positions, untrained (N(0, 0.02²), seed {}) · max_len {} · d_model {}",
            table.seed, table.max_len, table.d_model
        ),
        nouns: ("positions".into(), "dimensions".into()),
        rule: (table.max_len < length).then(|| {
            (
                table.max_len,
                format!("max_len {}: no rows below", table.max_len),
            )
        }),
    }
}

crate::figure_inputs! {
    /// The learned distance chart: the table, the length and the anchors.
    LearnedDistanceInputs {
        table: crate::math::learned::Learned = |s| s.learned(),
        length: usize = |s| s.length,
        anchors: Vec<usize> = |s| s.anchors(),
        d_model: usize = |s| s.d_model,
    }
}

pub fn learned_distance(s: &LearnedDistanceInputs) -> LineChartData {
    let table = s.table;
    let length = s.length.min(table.max_len).max(1);
    let last = length as i64 - 1;
    let stride = (2 * length).div_ceil(400).max(1) as i64;
    let series = s
        .anchors
        .iter()
        .filter(|&&p| p < length)
        .enumerate()
        .map(|(a, &p)| {
            let row = table.row(p).unwrap_or_default();
            let points = (-(p as i64)..=(last - p as i64))
                .filter(|k| k % stride == 0)
                .map(|k| {
                    let other = table.row((p as i64 + k) as usize).unwrap_or_default();
                    (k as f64, row.iter().zip(&other).map(|(x, y)| x * y).sum())
                })
                .collect();
            Series {
                marker: if stride == 1 && length < 120 {
                    Marker::SHAPES[a % 4]
                } else {
                    Marker::None
                },
                ..Series::line(
                    format!("P({p})·P({p}+k)"),
                    SERIES_COLORS[a % 6],
                    Points::Pairs(points),
                )
            }
        })
        .collect::<Vec<_>>();
    let top = (s.d_model as f64) * INIT_STD * INIT_STD * 1.6;
    LineChartData {
        series,
        x: LineAxis::linear("offset k", -(last as f64), last as f64),
        y: LineAxis::linear("P(p)·P(p+k)", -top * 0.5, top),
        caption: format!(
            "Learned table (untrained) · dot products by offset · max_len {} · d_model {}{}",
            table.max_len,
            s.d_model,
            if stride > 1 {
                format!(" · every {stride}th offset")
            } else {
                String::new()
            }
        ),
        guides: vec![Guide {
            value: s.d_model as f64 * INIT_STD * INIT_STD,
            label: format!(
                "expected |P(p)|² = d·0.02² = {}",
                significant(s.d_model as f64 * 4e-4, 3)
            ),
            vertical: false,
        }],
    }
}

/// The T5 view's lead: where the staircase goes flat, computed for the current buckets.
pub fn t5_lead(s: &Settings) -> String {
    let flat = s.schemes.t5.saturation_distance();
    format!(
        "The bucket of each relative position key − query: a staircase with single steps near \
         zero and ever wider steps further out, flat from distance {} on ({} buckets, {}): every \
         distance from there shares the last bucket, whatever max_distance says.",
        crate::format::group_thousands(flat as u64),
        s.schemes.t5.num_buckets,
        if s.schemes.t5.bidirectional {
            "bidirectional"
        } else {
            "causal"
        }
    )
}

/// Measures, live, that a RoPE score depends on m − n only: random q and k at distance Δ, with
/// both positions moved to 0, L/4, L/2 and L − 1 − Δ.
pub fn shift_check(s: &Settings) -> String {
    let rope = s.rope();
    let mut rng = crate::math::rng::SplitMix64::new(11);
    let q: Vec<f64> = (0..s.d_model).map(|_| rng.next_normal()).collect();
    let k: Vec<f64> = (0..s.d_model).map(|_| rng.next_normal()).collect();
    let l = s.length;
    let mut worst = 0.0f64;
    let mut checked = 0;
    for delta in [0, 1, 7, l / 3, l.saturating_sub(1)] {
        let reference = rope.score(&q, delta as f64, &k, 0.0);
        for n in [l / 4, l / 2, l.saturating_sub(1 + delta)] {
            let v = rope.score(&q, (n + delta) as f64, &k, n as f64);
            worst = worst.max((v - reference).abs());
            checked += 1;
        }
    }
    format!(
        "Measured: for random q and k, moving both positions together changes the score by at \
         most {} over {checked} shifts.",
        significant(worst, 2)
    )
}

/// The permutation check of the two pairings, as a sentence with the number.
pub fn check_permutation(s: &Settings) -> String {
    let d = s.d_model;
    let half = crate::math::rope::Rope::new(d, s.base, RopePairing::RotateHalf, s.rope().scaling);
    let adjacent = crate::math::rope::Rope::new(d, s.base, RopePairing::Adjacent, s.rope().scaling);
    let p = half_from_adjacent(d);
    let mut rng = crate::math::rng::SplitMix64::new(7);
    let x: Vec<f64> = (0..d).map(|_| rng.next_normal()).collect();
    let permuted: Vec<f64> = p.iter().map(|&i| x[i]).collect();
    let m = (s.length - 1) as f64;
    let a = half.rotate(&permuted, m);
    let b = adjacent.rotate(&x, m);
    let gap = p
        .iter()
        .enumerate()
        .map(|(j, &i)| (a[j] - b[i]).abs())
        .fold(0.0, f64::max);
    let within = if gap == 0.0 {
        "exactly".to_string()
    } else {
        format!("to within {}", significant(gap, 2))
    };
    format!(
        "RoPE's two ways of pairing dimensions, rotate-half (dimension i turns with i + d/2, as \
         Llama and GPT-NeoX code it) and adjacent (2i with 2i + 1, as the RoFormer paper and \
         GPT-J write it), differ only by the order of dimensions: rotating a random vector at \
         position {m} with rotate-half after permuting it by [0::2] ++ [1::2] matches the \
         adjacent rotation permuted the same way {within}."
    )
}

/// The RoPE distance chart's CSV: `distance, ones_score, random_mean, relative_bound,
/// ones_bound, random_bound` (RoFormer's relative upper bound, and the bound it gives on each
/// score's magnitude; see [`RopeBound`]).
pub fn rope_distance_csv(rows: &[Vec<f64>]) -> String {
    let header = [
        "distance",
        "ones_score",
        "random_mean",
        "relative_bound",
        "ones_bound",
        "random_bound",
    ]
    .map(String::from);
    table_csv(&header, rows.iter().cloned())
}

/// RoFormer's long-term decay (§3.4.3), in the score's own units. Write the score of q and k at
/// distance Δ as Re Σᵢ hᵢ·e^{iΔθᵢ} (hᵢ: pair i of q times pair i of k conjugated) and let
/// S_j = Σ_{i<j} e^{iΔθᵢ}; then |Σᵢ hᵢ·e^{iΔθᵢ}| ≤ (maxᵢ |hᵢ₊₁ − hᵢ|)·Σ_j |S_j|, with h_{d/2} = 0.
/// The paper plots (1/(d/2))·Σ_j |S_j|, the *relative* bound; multiplied by d/2 and by the
/// step factor maxᵢ |hᵢ₊₁ − hᵢ| it bounds the rotated pairs' part of a score. Unrotated
/// dimensions (partial rotary) add a fixed part, added here to the bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RopeBound {
    /// d/2: the rotated pairs.
    pub pairs: usize,
    /// maxᵢ |hᵢ₊₁ − hᵢ| for q = k = 1 (2·f², f the attention factor), and its mean over the
    /// random vectors.
    pub ones_step: f64,
    pub random_step: f64,
    /// The unrotated dimensions' part of each score.
    pub ones_unrotated: f64,
    pub random_unrotated: f64,
}

impl RopeBound {
    pub fn of(rope: &Rope, curves: &RopeCurves) -> RopeBound {
        RopeBound {
            pairs: rope.pair_count(),
            ones_step: 2.0 * rope.attention_factor().powi(2),
            random_step: curves.random_step,
            ones_unrotated: rope.unrotated() as f64,
            random_unrotated: curves.random_unrotated,
        }
    }

    /// The bound on |score| for q = k = 1 at a distance whose relative bound is `relative`.
    pub fn ones(&self, relative: f64) -> f64 {
        self.ones_step * self.pairs as f64 * relative + self.ones_unrotated
    }

    /// The bound on the random vectors' mean score's magnitude.
    pub fn random(&self, relative: f64) -> f64 {
        self.random_step * self.pairs as f64 * relative + self.random_unrotated
    }
}

/// What the bound chart says, with the numbers at distance 0 and at the last distance.
pub fn rope_bound_text(bound: &RopeBound, curves: &RopeCurves) -> String {
    let (Some(&(_, rel0)), Some(&(last, rel_last))) = (curves.decay.first(), curves.decay.last())
    else {
        return String::new();
    };
    let score0 = curves.ones.first().copied().unwrap_or(f64::NAN);
    // Four significant digits, without trailing zeros (2, not 2.000).
    let num = |v: f64, digits: i32| plain(crate::limit::round_significant(v, digits));
    format!(
        "RoFormer (§3.4.3) writes the score as Re Σᵢ hᵢ·e^(i(m−n)θᵢ), where hᵢ is pair i of q \
         times pair i of k conjugated, and proves |Σᵢ hᵢ·e^(i(m−n)θᵢ)| ≤ (maxᵢ |hᵢ₊₁ − hᵢ|)·Σⱼ |Sⱼ|, \
         with Sⱼ the sum of the first j terms e^(i(m−n)θᵢ) and h_(d/2) = 0. So it bounds the \
         score's magnitude, and only Σⱼ |Sⱼ| depends on the distance. The paper's figure plots \
         (1/(d/2))·Σⱼ |Sⱼ|, a relative bound with no unit: {} at distance 0, {} at distance {}. \
         The chart draws the whole bound in the score's units. For q = k = 1 every hᵢ is {}, so \
         maxᵢ |hᵢ₊₁ − hᵢ| = {} (the last step is down to 0): the bound is {} at distance 0, where \
         the score is {}, and {} at distance {}. For the random vectors the step factor averages \
         {}. The bound is far above the score: what it shows is that the cap shrinks, on the \
         whole, as the distance grows.",
        num(rel0, 4),
        num(rel_last, 4),
        plain(last),
        num(bound.ones_step, 4),
        num(bound.ones_step, 4),
        num(bound.ones(rel0), 4),
        num(score0, 4),
        num(bound.ones(rel_last), 4),
        plain(last),
        num(bound.random_step, 4),
    )
}

/// RoFormer's bound on |score| against distance, for q = k = 1 and for the random vectors, with
/// the q = k = 1 score it bounds.
pub fn rope_bound_chart(s: &RopeDistanceInputs, curves: &RopeCurves) -> LineChartData {
    let bound = RopeBound::of(&s.rope, curves);
    let num = |v: f64| plain(crate::limit::round_significant(v, 3));
    // Every distance (drawn through its per-pixel envelope), or the sampled ones as points.
    let uniform = |f: &dyn Fn(f64) -> f64| {
        if curves.decay.len() == curves.ones.len() {
            Points::Uniform {
                x0: 0.0,
                dx: 1.0,
                ys: curves.decay.iter().map(|&(_, r)| f(r)).collect(),
            }
        } else {
            Points::Pairs(curves.decay.iter().map(|&(d, r)| (d, f(r))).collect())
        }
    };
    let series = vec![
        Series {
            width: 2.0,
            ..Series::line(
                format!("bound for q = k = 1: {}·Σ|Sⱼ|", num(bound.ones_step)),
                SERIES_COLORS[2],
                uniform(&|r| bound.ones(r)),
            )
        },
        Series {
            stroke: Stroke::Dashed,
            width: 2.0,
            ..Series::line(
                format!(
                    "bound for the random q = k: {}·Σ|Sⱼ|",
                    num(bound.random_step)
                ),
                SERIES_COLORS[4],
                uniform(&|r| bound.random(r)),
            )
        },
        Series {
            width: 1.2,
            ..Series::line(
                "score, q = k = 1",
                SERIES_COLORS[0],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: curves.ones.clone(),
                },
            )
        },
    ];
    let hi = curves
        .decay
        .iter()
        .map(|&(_, r)| bound.ones(r).max(bound.random(r)))
        .fold(1.0f64, f64::max);
    let lo = curves.ones.iter().copied().fold(0.0f64, f64::min);
    LineChartData {
        series,
        x: LineAxis::linear("distance m − n", 0.0, (s.length - 1).max(1) as f64),
        y: LineAxis::linear("score and its bound", lo - (hi - lo) * 0.03, hi * 1.05),
        caption: format!(
            "RoFormer's bound on |q·k| · d_model {} · θ base {}{}",
            s.d_model,
            plain(s.rope.base),
            s.method
        ),
        guides: Guide::trained(s.trained_length, s.length),
    }
}

/// What the RoPE distance chart is computed from (its memo key).
#[derive(Clone, PartialEq)]
pub struct RopeDistanceInputs {
    pub rope: Rope,
    /// The same RoPE without its extension method, when it has one.
    pub plain: Option<Rope>,
    pub d_model: usize,
    pub length: usize,
    pub trained_length: usize,
    /// The method and its factor, for the caption.
    pub method: String,
}

impl RopeDistanceInputs {
    pub fn of(s: &Settings) -> Self {
        RopeDistanceInputs {
            rope: s.rope(),
            plain: (s.schemes.rope.extension != Extension::None).then(|| {
                let plain = RopeSettings {
                    extension: Extension::None,
                    ..s.schemes.rope.clone()
                };
                plain.rope(s.d_model, s.base, s.trained_length, s.length)
            }),
            d_model: s.d_model,
            length: s.length,
            trained_length: s.trained_length,
            method: match s.schemes.rope.extension {
                Extension::None => String::new(),
                e => format!(" · {} ×{}", e.label(), plain(s.schemes.rope.factor)),
            },
        }
    }
}

impl RopeDistanceInputs {
    /// The curves: Σ over every pair at every distance, with RoFormer's bound at every distance
    /// (the chart and the CSV use all of them), and the plain RoPE's when there is a method.
    pub fn job(&self) -> crate::math::chunked::Sequence<crate::math::rope::RopeCurvesJob> {
        let mut jobs = vec![self.rope.curves_job(self.length, self.length)];
        if let Some(plain) = &self.plain {
            jobs.push(plain.curves_job(self.length, 2));
        }
        crate::math::chunked::Sequence::new(jobs)
    }
}

/// RoPE by distance: the score chart, RoFormer's bound chart and what it says, and the CSV rows.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeDistanceFigure {
    pub scores: Rc<LineChartData>,
    pub bound: Rc<LineChartData>,
    pub bound_text: String,
    pub rows: Rc<Vec<Vec<f64>>>,
}

/// RoPE's score by distance, from the curves of the settings' RoPE and, with an extension, of
/// the same RoPE without it. The first curves must carry the relative bound at every distance
/// for the CSV's bound columns to be complete (NaN where it was not measured).
pub fn rope_distance(s: &RopeDistanceInputs, all: &[RopeCurves]) -> RopeDistanceFigure {
    let rope = &s.rope;
    let curves = &all[0];
    let mut series = vec![
        Series {
            width: 2.0,
            ..Series::line(
                "q = k = 1: Σ 2cos(Δθᵢ)",
                SERIES_COLORS[0],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: curves.ones.clone(),
                },
            )
        },
        Series {
            stroke: Stroke::Dashed,
            ..Series::line(
                format!("mean over {} random q = k", curves.samples),
                SERIES_COLORS[1],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: curves.random.clone(),
                },
            )
        },
    ];
    if let Some(without) = all.get(1) {
        series.push(Series {
            stroke: Stroke::Dashed,
            width: 1.2,
            ..Series::line(
                "q = k = 1 without extension",
                SERIES_COLORS[6],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: without.ones.clone(),
                },
            )
        });
    }
    let (lo, hi) = series
        .iter()
        .flat_map(|s| match &s.points {
            Points::Uniform { ys, .. } => ys.clone(),
            Points::Pairs(p) => p.iter().map(|q| q.1).collect(),
        })
        .fold((0.0f64, 1.0f64), |(a, b), v| (a.min(v), b.max(v)));
    // The relative bound at every distance the job measured it (all of them for the CSV).
    let bound = RopeBound::of(rope, curves);
    let mut relative = vec![f64::NAN; s.length];
    for &(d, r) in &curves.decay {
        if let Some(slot) = relative.get_mut(d as usize) {
            *slot = r;
        }
    }
    let rows = Rc::new(
        (0..s.length)
            .map(|d| {
                let r = relative[d];
                vec![
                    d as f64,
                    curves.ones[d],
                    curves.random[d],
                    r,
                    bound.ones(r),
                    bound.random(r),
                ]
            })
            .collect(),
    );
    let data = LineChartData {
        series,
        x: LineAxis::linear("distance m − n", 0.0, (s.length - 1).max(1) as f64),
        y: LineAxis::linear("score q·k after rotation", lo - (hi - lo) * 0.05, hi * 1.05),
        caption: format!(
            "RoPE score by distance · d_model {} · θ base {}{}",
            s.d_model,
            plain(rope.base),
            s.method
        ),
        guides: Guide::trained(s.trained_length, s.length),
    };
    RopeDistanceFigure {
        scores: Rc::new(data),
        bound: Rc::new(rope_bound_chart(s, curves)),
        bound_text: rope_bound_text(&bound, curves),
        rows,
    }
}

/// A scheme's score bias, for the shared bias views: every head's bias of query i and key j
/// as its module defines it ([`HeadBias`]).
#[derive(Clone, Debug, PartialEq)]
pub struct BiasInputs {
    pub scheme: Scheme,
    pub bias: HeadBias,
    pub length: usize,
    pub trained_length: usize,
    pub palette: Palette,
}

impl BiasInputs {
    /// The chosen scheme's bias, if it adds one to the scores.
    pub fn of(s: &Settings) -> Option<BiasInputs> {
        Some(BiasInputs {
            scheme: s.scheme,
            bias: crate::schemes::bias(s.scheme, s)?,
            length: s.length,
            trained_length: s.trained_length,
            palette: s.palette,
        })
    }

    /// The heads drawn as cards.
    pub fn shown(&self) -> Vec<usize> {
        crate::math::rotation::dial_subset(self.bias.heads, 8)
    }

    /// Head `head`'s bias as a function of the key's offset j − i from the query, for biases
    /// that depend on the distance alone (NaN where masked).
    fn by_offset(&self, head: usize, k: i64) -> f64 {
        let (i, j) = if k >= 0 {
            (0, k as usize)
        } else {
            ((-k) as usize, 0)
        };
        (self.bias.at)(head, i, j).unwrap_or(f64::NAN)
    }

    /// The largest magnitude of head `head`'s bias over the drawn length (sampled), which its
    /// own colour scale spans.
    pub fn extent(&self, head: usize) -> f64 {
        (0..self.length)
            .step_by((self.length / 512).max(1))
            .chain([self.length - 1])
            .filter_map(|i| (self.bias.at)(head, i, 0))
            .fold(0.0f64, |m, v| m.max(v.abs()))
    }

    /// The head cards, on one colour scale (the largest extent among them), so a steep head and
    /// a shallow one look as different as they are.
    pub fn cards(&self) -> Vec<(usize, HeatmapData)> {
        let shown = self.shown();
        let extent = shown.iter().map(|&h| self.extent(h)).fold(0.0, f64::max);
        shown
            .into_iter()
            .map(|h| {
                let mut m = self.matrix(h);
                m.scale = ColorScale::symmetric(self.palette, extent.max(1e-9));
                (h, m)
            })
            .collect()
    }

    /// The matrix of head `head`: exact block means (a Toeplitz matrix) when the bias depends
    /// on the distance alone, one computed cell per pixel otherwise.
    pub fn matrix(&self, head: usize) -> HeatmapData {
        let matrix: Rc<dyn Matrix> = if self.bias.depends_on_query {
            let at = self.bias.at.clone();
            Rc::new(Computed {
                size: self.length,
                at: move |i, j| at(head, i, j).unwrap_or(f64::NAN),
            })
        } else {
            Rc::new(Toeplitz::new(self.length, |k| self.by_offset(head, k)))
        };
        let extent = self.extent(head);
        HeatmapData {
            matrix,
            x: Axis::indexed("key j", "key"),
            y: Axis::indexed("query i", "query"),
            scale: ColorScale::symmetric(self.palette, extent.max(1e-9)),
            colorbar_title: self.bias.unit.into(),
            caption: if self.bias.heads > 1 {
                format!(
                    "{} head {head} of {} · length {}",
                    self.scheme.short(),
                    self.bias.heads,
                    group_thousands(self.length as u64)
                )
            } else {
                format!(
                    "{} · length {}",
                    self.scheme.short(),
                    group_thousands(self.length as u64)
                )
            },
            nouns: ("queries".into(), "keys".into()),
            rule: None,
        }
    }

    /// Queries whose rows the distance chart draws: every one when the bias depends on the
    /// distance alone (they coincide), else the last query.
    fn query(&self) -> usize {
        self.length - 1
    }

    /// Head `h`'s bias at distance `d` = i − j back from the chart's query.
    fn back(&self, h: usize, d: usize) -> f64 {
        let i = self.query();
        if d > i {
            return f64::NAN;
        }
        (self.bias.at)(h, i, i - d).unwrap_or(f64::NAN)
    }

    /// `distance, head_0, head_1, …`: every head's bias at every distance back.
    pub fn csv(&self) -> String {
        let mut header = vec!["distance".to_string()];
        header.extend((0..self.bias.heads).map(|h| format!("head_{h}")));
        let rows = (0..self.length).map(|d| {
            let mut row = vec![d as f64];
            row.extend((0..self.bias.heads).map(|h| self.back(h, d)));
            row
        });
        table_csv(&header, rows)
    }
}

/// Every head's bias against the distance back from the query (up to 12 heads).
pub fn bias_distance(s: &BiasInputs) -> LineChartData {
    let shown = crate::math::rotation::dial_subset(s.bias.heads, 12);
    let last = s.query();
    let step = (last / 2000).max(1);
    let mut low = 0.0f64;
    let mut high = 0.0f64;
    let series = shown
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            let points: Vec<(f64, f64)> = (0..=last)
                .step_by(step)
                .chain([last])
                .map(|d| (d as f64, s.back(h, d)))
                .filter(|(_, v)| v.is_finite())
                .collect();
            for (_, v) in &points {
                low = low.min(*v);
                high = high.max(*v);
            }
            Series::line(
                format!("head {h}"),
                SERIES_COLORS[i % 7],
                Points::Pairs(points),
            )
        })
        .collect();
    let pad = ((high - low) * 0.05).max(1e-9);
    LineChartData {
        series,
        x: LineAxis::linear("distance i − j", 0.0, last.max(1) as f64),
        y: LineAxis::linear("bias added to the score", low - pad, high + pad),
        caption: format!(
            "{} bias by distance · {} heads{}",
            s.scheme.short(),
            s.bias.heads,
            if s.bias.depends_on_query {
                format!(" · query {}", group_thousands(last as u64))
            } else {
                String::new()
            }
        ),
        guides: Guide::trained(s.trained_length, s.length),
    }
}

crate::figure_inputs! {
    /// T5's bucket staircase by relative position.
    T5DistanceInputs {
        bias: crate::math::t5::T5Bias = |s| s.t5_bias(),
        length: usize = |s| s.length,
        trained_length: usize = |s| s.trained_length,
    }
}

impl T5DistanceInputs {
    /// `relative_position, bucket, bias` for every relative position the length allows.
    pub fn csv(&self) -> String {
        let header = ["relative_position", "bucket", "bias"].map(String::from);
        let l = self.length as i64 - 1;
        let rows = (-l..=l).map(|r| {
            vec![
                r as f64,
                self.bias.buckets.bucket(r) as f64,
                self.bias.at(r),
            ]
        });
        table_csv(&header, rows)
    }
}

pub fn t5_distance(s: &T5DistanceInputs) -> LineChartData {
    let t5 = s.bias.buckets;
    let l = s.length as i64 - 1;
    let step = ((2 * l + 1) as usize).div_ceil(4000).max(1);
    // A staircase: each bucket change becomes a vertical step.
    let mut points = Vec::new();
    let mut previous: Option<usize> = None;
    for r in (-l..=l).step_by(step) {
        let b = t5.bucket(r);
        if let Some(p) = previous {
            if p != b {
                points.push((r as f64, p as f64));
            }
        }
        points.push((r as f64, b as f64));
        previous = Some(b);
    }
    let mut guides = vec![Guide {
        value: -(t5.max_distance as f64),
        label: format!("−{}", t5.max_distance),
        vertical: true,
    }];
    if t5.bidirectional {
        guides.push(Guide {
            value: t5.max_distance as f64,
            label: format!("+{}", t5.max_distance),
            vertical: true,
        });
    }
    LineChartData {
        series: vec![Series {
            width: 2.0,
            ..Series::line("bucket", SERIES_COLORS[0], Points::Pairs(points))
        }],
        x: LineAxis::linear(
            "relative position key − query",
            -(l.max(1) as f64),
            l.max(1) as f64,
        ),
        y: LineAxis::linear("bucket", -0.5, t5.num_buckets as f64 - 0.5),
        caption: format!(
            "T5 buckets · {} buckets · max distance {} · {}",
            t5.num_buckets,
            t5.max_distance,
            if t5.bidirectional {
                "bidirectional"
            } else {
                "causal"
            }
        ),
        guides,
    }
}

crate::figure_inputs! {
    /// T5's bucket index and bias for every query and key.
    T5MatrixInputs {
        bias: crate::math::t5::T5Bias = |s| s.t5_bias(),
        length: usize = |s| s.length,
        learned_seed: usize = |s| s.learned_seed,
        palette: Palette = |s| s.palette,
    }
}

/// The bucket matrix (grey) and the bias matrix.
pub fn t5_matrices(s: &T5MatrixInputs) -> (Rc<HeatmapData>, Rc<HeatmapData>) {
    let bias = s.bias.clone();
    let t5 = bias.buckets;
    let top = bias.biases.iter().fold(1e-9f64, |m, b| m.max(b.abs()));
    let kind = if t5.bidirectional {
        "bidirectional"
    } else {
        "causal"
    };
    (
        Rc::new(HeatmapData {
            matrix: Rc::new(Toeplitz::new(s.length, |k| t5.bucket(k) as f64)),
            x: Axis::indexed("key j", "key"),
            y: Axis::indexed("query i", "query"),
            scale: ColorScale::new(Palette::Grey, 0.0, (t5.num_buckets - 1) as f64),
            colorbar_title: "bucket".into(),
            caption: format!(
                "T5 bucket of key − query · {} buckets · max distance {} · {kind}",
                t5.num_buckets, t5.max_distance
            ),
            nouns: ("queries".into(), "keys".into()),
            rule: None,
        }),
        Rc::new(HeatmapData {
            matrix: Rc::new(Toeplitz::new(s.length, move |k| bias.at(k))),
            x: Axis::indexed("key j", "key"),
            y: Axis::indexed("query i", "query"),
            scale: ColorScale::symmetric(s.palette, top),
            colorbar_title: "bias".into(),
            caption: format!(
                "T5 bias (untrained: one N(0, 1) value per bucket, seed {}) · {kind}",
                s.learned_seed
            ),
            nouns: ("queries".into(), "keys".into()),
            rule: None,
        }),
    )
}
