//! The offsets view's figure: the dot product PE(p)·PE(p + k) by offset k, measured at anchors
//! and in closed form, or the closed form under several bases, with its CSV.

use std::rc::Rc;

use crate::export::table_csv;
use crate::format::plain;
use crate::math::offsets::{
    anchor_curves, closed_form, offset_curves_from, ClosedForm, OffsetCurves, PairStructure,
};
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::lines::{LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS};
use crate::state::{OffsetSeries, Settings};

/// Everything the chart reads besides the closed forms: with them, the memo key.
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetInputs {
    pub anchors: Vec<usize>,
    pub normalised: bool,
    pub offset_series: OffsetSeries,
}

impl OffsetInputs {
    pub fn of(s: &Settings) -> Self {
        OffsetInputs {
            anchors: s.anchors(),
            normalised: s.normalised,
            offset_series: s.offset_series,
        }
    }

    fn anchors(&self) -> Vec<usize> {
        self.anchors.clone()
    }
}

/// Measured dot products drawn per anchor.
const SAMPLES: usize = 48;

/// Largest amount of work (positions × pairs × series) a CSV export of the curves may take.
const MAX_CSV_WORK: usize = 400_000_000;

/// The chart data and the numbers beside it, for one set of settings.
pub struct OffsetChart {
    /// What it was computed for (a large computation may still be catching up with the
    /// sliders): the encoding and the length.
    pub encoding: Sinusoidal,
    pub length: usize,
    pub data: Rc<LineChartData>,
    pub curves: OffsetCurves,
    /// The closed form under each compared base (Bases mode).
    pub bases: Vec<(f64, Vec<f64>)>,
}

/// The chart from the closed forms: the encoding's own first, then one per compared base.
pub fn offset_chart(s: &OffsetInputs, forms: &[Rc<ClosedForm>]) -> OffsetChart {
    let form = &forms[0];
    let (encoding, length) = (form.encoding, form.length);
    let anchors: Vec<usize> = s.anchors().iter().map(|&p| p.min(length - 1)).collect();
    let curves = offset_curves_from(form, &anchors, SAMPLES);
    let l = length as f64 - 1.0;
    let norm_by = |pairs: usize| {
        if s.normalised {
            pairs.max(1) as f64
        } else {
            1.0
        }
    };
    let mut series = Vec::new();
    let mut bases = Vec::new();
    match s.offset_series {
        OffsetSeries::Anchors => {
            let n = norm_by(curves.pair_count);
            series.push(Series {
                width: 1.3,
                ..Series::line(
                    if s.normalised {
                        "Σᵢ cos(k·ωᵢ) / n (closed form)"
                    } else {
                        "Σᵢ cos(k·ωᵢ) (closed form)"
                    },
                    SERIES_COLORS[6],
                    Points::Uniform {
                        x0: -l,
                        dx: 1.0,
                        ys: curves.closed.iter().map(|v| v / n).collect(),
                    },
                )
            });
            for (a, (&p, measured)) in curves.anchors.iter().zip(&curves.measured).enumerate() {
                series.push(Series {
                    name: format!("PE({p})·PE({p}+k), measured"),
                    color: SERIES_COLORS[a % 6],
                    stroke: Stroke::None,
                    width: 1.0,
                    marker: Marker::SHAPES[a % 4],
                    points: Points::Pairs(
                        measured
                            .iter()
                            .map(|m| {
                                let v = if s.normalised { m.cosine } else { m.dot };
                                (m.offset as f64, v)
                            })
                            .collect(),
                    ),
                });
            }
        }
        OffsetSeries::Bases => {
            let strokes = [Stroke::Solid, Stroke::Dashed, Stroke::Dotted];
            for (i, form) in forms.iter().skip(1).enumerate() {
                let b = form.encoding.base;
                let c = offset_curves_from(form, &[], 2);
                let n = norm_by(c.pair_count);
                let ys: Vec<f64> = c.closed.iter().map(|v| v / n).collect();
                series.push(Series {
                    stroke: strokes[i % 3],
                    ..Series::line(
                        format!("base {}", plain(b)),
                        SERIES_COLORS[i % 6],
                        Points::Uniform {
                            x0: -l,
                            dx: 1.0,
                            ys: ys.clone(),
                        },
                    )
                });
                bases.push((b, ys));
            }
        }
    }
    let (lo, hi) = series
        .iter()
        .flat_map(|s| match &s.points {
            Points::Uniform { ys, .. } => ys.clone(),
            Points::Pairs(p) => p.iter().map(|(_, y)| *y).collect(),
        })
        .filter(|v| v.is_finite())
        .fold((0.0f64, 0.0f64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let pad = (hi - lo).max(1e-9) * 0.06;
    let what = if s.normalised {
        "cosine similarity"
    } else {
        "dot product"
    };
    let data = LineChartData {
        series,
        x: LineAxis::linear("offset k", -l, l),
        y: LineAxis::linear(format!("PE(p)·PE(p+k), {what}"), lo - pad, hi + pad),
        caption: format!(
            "{} by offset · {} · d_model {} · length {} · base {}",
            if s.normalised {
                "Cosine similarity"
            } else {
                "Dot product"
            },
            encoding.variant.id(),
            encoding.d_model,
            length,
            plain(encoding.base)
        ),
        guides: Vec::new(),
    };
    OffsetChart {
        encoding,
        length,
        data: Rc::new(data),
        curves,
        bases,
    }
}

/// The CSV of the offset chart: `offset`, then one column per series.
pub fn offsets_csv(s: &OffsetInputs, chart: &OffsetChart) -> Result<String, String> {
    // Everything from what the chart was computed for, so the file matches the chart.
    let (encoding, length) = (chart.encoding, chart.length);
    let l = length as i64 - 1;
    match s.offset_series {
        OffsetSeries::Anchors => {
            let anchors = &chart.curves.anchors;
            let work = length * chart.curves.pair_count.max(1) * anchors.len().max(1);
            if work > MAX_CSV_WORK {
                return Err(format!(
                    "Exporting every offset for {} anchors at this size means about {} \
                     multiply-adds; make length or d_model smaller.",
                    anchors.len(),
                    crate::format::large(work as f64)
                ));
            }
            let curves = anchor_curves(&encoding, length, anchors);
            let structure = PairStructure::of(&encoding);
            let norm_at = |q: usize| structure.norm_squared(q).sqrt();
            let mut header = vec!["offset".to_string()];
            header.extend(anchors.iter().map(|p| format!("anchor_{p}")));
            header.push("closed_form".into());
            let n = chart.curves.pair_count.max(1) as f64;
            let rows = (-l..=l).map(|k| {
                let i = (k + l) as usize;
                let mut row = vec![k as f64];
                for (a, &p) in anchors.iter().enumerate() {
                    let v = curves[a][i];
                    let q = p as i64 + k;
                    row.push(if s.normalised && (0..=l).contains(&q) {
                        v / (norm_at(p) * norm_at(q as usize))
                    } else {
                        v
                    });
                }
                let c = chart.curves.closed[i];
                row.push(if s.normalised { c / n } else { c });
                row
            });
            Ok(table_csv(&header, rows))
        }
        OffsetSeries::Bases => {
            let mut header = vec!["offset".to_string()];
            header.extend(
                chart
                    .bases
                    .iter()
                    .map(|(b, _)| format!("base_{}", plain(*b))),
            );
            let rows = (-l..=l).map(|k| {
                let i = (k + l) as usize;
                let mut row = vec![k as f64];
                row.extend(chart.bases.iter().map(|(_, ys)| ys[i]));
                row
            });
            Ok(table_csv(&header, rows))
        }
    }
}

/// The closed form at offset k, divided by the number of complete pairs when normalised.
pub fn closed_value(e: &Sinusoidal, k: i64, normalised: bool) -> f64 {
    let v = closed_form(e, k);
    if normalised {
        v / PairStructure::of(e).pairs.len().max(1) as f64
    } else {
        v
    }
}

/// The bases the offsets view compares (none when it shows anchors), as bits (a memo key).
pub fn compared_bases(s: &Settings) -> Vec<u64> {
    match s.offset_series {
        OffsetSeries::Anchors => Vec::new(),
        OffsetSeries::Bases => s.bases.iter().map(|b| b.to_bits()).collect(),
    }
}

/// The offsets view's closed forms at every offset: the encoding's, then each compared base's.
/// At the largest sizes this is over a hundred million rotations: the view runs it in slices.
pub fn closed_forms_job(
    e: Sinusoidal,
    length: usize,
    bases: &[u64],
) -> crate::math::chunked::Sequence<ClosedForm> {
    let mut jobs = vec![ClosedForm::job(e, length)];
    jobs.extend(bases.iter().map(|b| {
        ClosedForm::job(
            Sinusoidal::new(e.variant, e.d_model, f64::from_bits(*b)),
            length,
        )
    }));
    crate::math::chunked::Sequence::new(jobs)
}
