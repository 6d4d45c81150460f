//! The norms view's figure: how long the sinusoidal vectors are, alone and added to a word's
//! embedding (plain and scaled by √d_model), with its CSV.

use crate::export::table_csv;
use crate::format::{plain, significant};
use crate::math::embedding::word_embedding;
use crate::math::offsets::{dot_with_rows, PairStructure};
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series, Stroke, SERIES_COLORS};

crate::figure_inputs! {
    /// The encoding and the length.
    NormsInputs {
        encoding: Sinusoidal = |s| Sinusoidal::new(s.variant, s.d_model, s.base),
        length: usize = |s| s.length,
    }
}

/// The chart and its CSV (one row per drawn position).
pub struct Norms {
    pub chart: std::rc::Rc<LineChartData>,
    pub csv: String,
}

/// The norms figure.
pub fn norms(s: &NormsInputs) -> Norms {
    let header = [
        "position",
        "pe_norm",
        "word_plus_pe_norm",
        "scaled_word_plus_pe_norm",
    ]
    .map(String::from);
    let rows = norm_rows(s)
        .into_iter()
        .map(|(p, r)| vec![p as f64, r[0], r[1], r[2]]);
    Norms {
        chart: std::rc::Rc::new(norms_chart(s)),
        csv: table_csv(&header, rows),
    }
}

/// The word whose embedding is added to every position in the chart.
pub const WORD: &str = "the";

/// Work (positions × pairs) above which the chart samples every k-th position.
const MAX_WORK: usize = 8_000_000;

/// The positions drawn: every one, or every `stride`-th when the sequence is very long.
fn stride(s: &NormsInputs) -> usize {
    (s.length * (s.encoding.d_model / 2).max(1))
        .div_ceil(MAX_WORK)
        .max(1)
}

pub fn length_of(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Norms at the drawn positions: |PE(p)|, |e + PE(p)| and |√d·e + PE(p)|, from
/// |a·e + PE|² = a²|e|² + 2a·(e·PE) + |PE|², with e·PE(p) from the pair walk.
fn norm_rows(s: &NormsInputs) -> Vec<(usize, [f64; 3])> {
    let e = s.encoding;
    let structure = PairStructure::of(&e);
    let word = word_embedding(WORD, s.encoding.d_model);
    let word_sq = length_of(&word).powi(2);
    let step = stride(s);
    let dots = dot_with_rows(&e, &word, s.length, 0, step);
    let scale = (s.encoding.d_model as f64).sqrt();
    dots.iter()
        .enumerate()
        .map(|(j, dot)| {
            let p = j * step;
            let pe = structure.norm_squared(p);
            let sum = |a: f64| (a * a * word_sq + 2.0 * a * dot + pe).max(0.0).sqrt();
            (p, [pe.sqrt(), sum(1.0), sum(scale)])
        })
        .collect()
}

fn norms_chart(s: &NormsInputs) -> LineChartData {
    let rows = norm_rows(s);
    let step = stride(s) as f64;
    let pick = |j: usize| -> Vec<f64> { rows.iter().map(|r| r.1[j]).collect() };
    let top = rows
        .iter()
        .flat_map(|r| r.1.iter())
        .cloned()
        .fold(1.0, f64::max);
    let pairs = s.encoding.pair_count().min(s.encoding.d_model / 2);
    let guide = (pairs.max(1) as f64).sqrt();
    let uniform = |ys| Points::Uniform {
        x0: 0.0,
        dx: step,
        ys,
    };
    LineChartData {
        series: vec![
            Series {
                width: 2.2,
                ..Series::line("|PE(p)|", SERIES_COLORS[0], uniform(pick(0)))
            },
            Series {
                stroke: Stroke::Dashed,
                ..Series::line(
                    format!("|e(\"{WORD}\") + PE(p)|"),
                    SERIES_COLORS[1],
                    uniform(pick(1)),
                )
            },
            Series::line(
                format!("|√d·e(\"{WORD}\") + PE(p)|"),
                SERIES_COLORS[2],
                uniform(pick(2)),
            ),
        ],
        x: LineAxis::linear("position p", 0.0, (s.length - 1) as f64),
        y: LineAxis::linear("length of the vector", 0.0, top * 1.12),
        caption: format!(
            "Vector lengths · {} · d_model {} · base {}{}",
            s.encoding.variant.id(),
            s.encoding.d_model,
            plain(s.encoding.base),
            if step > 1.0 {
                format!(" · every {step}th position")
            } else {
                String::new()
            }
        ),
        guides: vec![Guide {
            value: guide,
            label: format!("√(pairs) = √{pairs} = {}", significant(guide, 4)),
            vertical: false,
        }],
    }
}
