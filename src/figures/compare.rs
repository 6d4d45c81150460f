//! The compare view's columns: what position alone adds to the score of query i and key j, as
//! a matrix and as a curve of distance, for any scheme. Each scheme says what its column is
//! computed from ([`ColumnInputs`]); that value is also the memo key, so a column recomputes
//! exactly when something it reads changes.

use std::rc::Rc;

use crate::math::chunked::Chunked;
use crate::math::learned::{Learned, LearnedGram};
use crate::math::matrix::Computed;
use crate::math::matrix::Matrix;
use crate::math::offsets::{ClosedForm, SimilarityMatrix};
use crate::math::rope::RopeCurvesJob;
use crate::math::toeplitz::Toeplitz;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series, SERIES_COLORS};
use crate::schemes::inputs::ColumnInputs;
use crate::schemes::Scheme;
use crate::state::Settings;

/// Longest learned distance curve, in multiply-adds (each point draws a row of the table).
const LEARNED_CURVE_WORK: usize = 4_000_000;

/// What position alone contributes to the score between query i and key j (a matrix), and the
/// same as a curve of distance k = i − j ≥ 0 (a key k positions before the query).
pub struct PositionScores {
    pub matrix: Rc<dyn Matrix>,
    pub curve: Vec<f64>,
    pub what: String,
}

/// Lays a curve of distance along the diagonals: `past[k]` for a key k positions back,
/// `ahead[k − 1]` for a key k positions ahead.
fn relative(past: Vec<f64>, ahead: Vec<f64>, what: String) -> PositionScores {
    let length = past.len();
    let curve = Rc::new(past);
    let lookup = curve.clone();
    PositionScores {
        matrix: Rc::new(Toeplitz::new(length, move |k| {
            if k <= 0 {
                lookup[k.unsigned_abs() as usize]
            } else {
                ahead.get(k as usize - 1).copied().unwrap_or(f64::NAN)
            }
        })),
        curve: Rc::try_unwrap(curve).unwrap_or_else(|rc| (*rc).clone()),
        what,
    }
}

/// A column's scores. The sinusoidal and RoPE curves are sums over every pair at every
/// distance (over a hundred million terms at the largest sizes), so they are computed a range
/// of distances at a time; the others are quick.
pub enum ColumnJob {
    Closed(ClosedForm),
    Rotary(RopeCurvesJob),
    Table(LearnedCurve),
    Ready(PositionScores),
}

/// The learned table's curve P(k)·P(0), query k against the first key: each row is d_model
/// fresh normal deviates, so long curves are drawn a range of rows at a time.
pub struct LearnedCurve {
    table: Learned,
    length: usize,
    shown: usize,
    first: Vec<f64>,
    curve: Vec<f64>,
}

impl ColumnJob {
    pub fn new(inputs: &ColumnInputs) -> ColumnJob {
        match inputs {
            ColumnInputs::Closed(e, length) => ColumnJob::Closed(ClosedForm::job(*e, *length)),
            ColumnInputs::Rotary(r, length) => ColumnJob::Rotary(r.curves_job(*length, 2)),
            ColumnInputs::Table(table, length) => {
                // Not a function of distance: the curve is P(k)·P(0), query k and the first key.
                let shown = (*length)
                    .min(table.max_len)
                    .min((LEARNED_CURVE_WORK / table.d_model.max(1)).max(64));
                ColumnJob::Table(LearnedCurve {
                    first: table.row(0).unwrap_or_default(),
                    curve: Vec::with_capacity(shown),
                    table: *table,
                    length: *length,
                    shown,
                })
            }
            ColumnInputs::Bias { bias, length, what } if bias.by_distance() => {
                let past = (0..*length).map(|k| bias.at(k, 0)).collect();
                let ahead = (1..*length).map(|k| bias.at(0, k)).collect();
                ColumnJob::Ready(relative(past, ahead, what.clone()))
            }
            ColumnInputs::Bias { bias, length, what } => {
                // Not a function of distance alone: the curve is the last query's row.
                let last = length.saturating_sub(1);
                ColumnJob::Ready(PositionScores {
                    curve: (0..*length).map(|k| bias.at(last, last - k)).collect(),
                    matrix: Rc::new(Computed {
                        size: *length,
                        at: {
                            let bias = bias.clone();
                            move |i, j| bias.at(i, j)
                        },
                    }),
                    what: format!("{what} (last query)"),
                })
            }
        }
    }
}

impl Chunked for ColumnJob {
    type Output = PositionScores;

    fn len(&self) -> usize {
        match self {
            ColumnJob::Closed(j) => j.len(),
            ColumnJob::Rotary(j) => j.len(),
            ColumnJob::Table(j) => j.shown,
            ColumnJob::Ready(_) => 1,
        }
    }

    fn cost(&self) -> usize {
        match self {
            ColumnJob::Closed(j) => j.cost(),
            ColumnJob::Rotary(j) => j.cost(),
            // A normal deviate (a logarithm, a cosine) costs about forty multiply-adds.
            ColumnJob::Table(j) => 40 * j.table.d_model.max(1),
            ColumnJob::Ready(_) => 1,
        }
    }

    fn compute(&mut self, range: std::ops::Range<usize>) {
        match self {
            ColumnJob::Closed(j) => j.compute(range),
            ColumnJob::Rotary(j) => j.compute(range),
            ColumnJob::Table(j) => j.curve.extend(range.map(|k| match j.table.row(k) {
                Ok(row) => row.iter().zip(&j.first).map(|(x, y)| x * y).sum(),
                Err(_) => f64::NAN,
            })),
            ColumnJob::Ready(_) => {}
        }
    }

    fn finish(self) -> PositionScores {
        match self {
            ColumnJob::Closed(j) => {
                let form = j.finish();
                PositionScores {
                    curve: form.half.clone(),
                    matrix: Rc::new(SimilarityMatrix::from_closed(form, false)),
                    what: "PE(i)·PE(j)".into(),
                }
            }
            ColumnJob::Rotary(j) => {
                // q·k for q = k = 1 depends on |m − n| only (cos is even): the same both ways.
                let ones = j.finish().ones;
                let ahead = ones.iter().skip(1).copied().collect();
                relative(ones, ahead, "q·k for q = k = 1".into())
            }
            ColumnJob::Table(j) => PositionScores {
                matrix: Rc::new(LearnedGram {
                    table: j.table,
                    length: j.length,
                }),
                curve: j.curve,
                what: "P(i)·P(j), untrained".into(),
            },
            ColumnJob::Ready(scores) => scores,
        }
    }
}

/// What the column draws besides its scores.
pub struct ColumnFrame<'a> {
    pub label: &'a str,
    pub id: &'a str,
    pub d_model: usize,
    pub length: usize,
    pub trained_length: usize,
    pub palette: Palette,
    pub colour: plotters::style::RGBColor,
}

/// The frame of the compare view's column on `side` ("a": the scheme from the settings, "b": its
/// partner).
pub fn column_frame(s: &Settings, scheme: Scheme, side: &str) -> ColumnFrame<'static> {
    use crate::schemes::Registered;
    ColumnFrame {
        label: scheme.label(),
        id: scheme.id(),
        d_model: s.d_model,
        length: s.length,
        trained_length: s.trained_length,
        palette: s.palette,
        colour: if side == "a" {
            SERIES_COLORS[0]
        } else {
            SERIES_COLORS[3]
        },
    }
}

/// The column's matrix and its distance curve (the curve's CSV is the chart's own).
pub fn column_charts(
    scores: &PositionScores,
    f: &ColumnFrame,
) -> (Rc<HeatmapData>, Rc<LineChartData>) {
    let PositionScores {
        matrix,
        curve,
        what,
    } = scores;
    let top = curve
        .iter()
        .filter(|v| v.is_finite())
        .fold(1e-9f64, |m, v| m.max(v.abs()));
    let heat = Rc::new(HeatmapData {
        matrix: matrix.clone(),
        x: Axis::indexed("key j", "key"),
        y: Axis::indexed("query i", "query"),
        scale: ColorScale::symmetric(f.palette, top),
        colorbar_title: "score".into(),
        caption: format!("{} · {what}", f.label),
        nouns: ("queries".into(), "keys".into()),
        rule: None,
    });
    let (lo, hi) = curve
        .iter()
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
    let pad = ((hi - lo) * 0.06).max(1e-6);
    let n = curve.len();
    let line = Rc::new(LineChartData {
        series: vec![Series::line(
            what.clone(),
            f.colour,
            Points::Uniform {
                x0: 0.0,
                dx: 1.0,
                ys: curve.clone(),
            },
        )],
        x: LineAxis::linear(
            "distance: key positions before the query",
            0.0,
            (n.max(2) - 1) as f64,
        ),
        y: LineAxis::linear("score added by position", lo - pad, hi + pad),
        caption: format!(
            "{} by distance · d_model {} · length {}",
            f.id, f.d_model, f.length
        ),
        guides: Guide::trained(f.trained_length, f.length),
    });
    (heat, line)
}
