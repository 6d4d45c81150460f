//! RoPE's frequencies pair by pair: what an extension method leaves alone, interpolates, ramps
//! or rebases, against the length the model was trained on.

use crate::format::{group_thousands, plain, significant};
use crate::math::rope::{Rope, Treatment};
use crate::plot::lines::{
    Guide, LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS,
};

/// The chart, its CSV, and a one-sentence count.
pub struct PairFrequencies {
    pub chart: LineChartData,
    pub csv: String,
    pub summary: String,
}

const TREATMENTS: [Treatment; 4] = [
    Treatment::Kept,
    Treatment::Interpolated,
    Treatment::Ramped,
    Treatment::Rebased,
];

/// θᵢ per pair, plain and as the method leaves it (radians per position, log scale), the
/// method's points marked by what it does to them, and the frequency that makes one full turn
/// over the trained length.
pub fn pair_frequencies(rope: &Rope, trained: usize, method: &str) -> PairFrequencies {
    let pairs = rope.pair_count();
    let scaled = |i: usize| rope.theta(i) * rope.scaled_position(1.0);
    let plain_series = Series {
        stroke: Stroke::Dashed,
        ..Series::line(
            "plain RoPE θᵢ",
            SERIES_COLORS[6],
            Points::Pairs(
                (0..pairs)
                    .map(|i| (i as f64, rope.original_theta(i)))
                    .collect(),
            ),
        )
    };
    let mut series = vec![plain_series];
    let mut counts = Vec::new();
    for (k, t) in TREATMENTS.iter().enumerate() {
        let pts: Vec<(f64, f64)> = (0..pairs)
            .filter(|&i| rope.treatment(i) == *t)
            .map(|i| (i as f64, scaled(i)))
            .collect();
        if pts.is_empty() {
            continue;
        }
        counts.push(format!("{} {}", pts.len(), t.label()));
        series.push(Series {
            stroke: Stroke::None,
            marker: Marker::SHAPES[k],
            ..Series::line(
                format!("{method}: {}", t.label()),
                SERIES_COLORS[k],
                Points::Pairs(pts),
            )
        });
    }
    let all: Vec<f64> = (0..pairs)
        .flat_map(|i| [rope.original_theta(i), scaled(i)])
        .filter(|v| *v > 0.0 && v.is_finite())
        .collect();
    let turn = std::f64::consts::TAU / trained.max(1) as f64;
    let lo = all.iter().copied().fold(turn, f64::min);
    let hi = all.iter().copied().fold(turn, f64::max);
    let chart = LineChartData {
        series,
        x: LineAxis::linear("pair i", 0.0, pairs.saturating_sub(1).max(1) as f64),
        y: LineAxis::log("θᵢ, radians per position", lo, hi),
        caption: format!(
            "RoPE frequencies by pair · {method} · θ = {} · {} rotated dimensions",
            plain(rope.base),
            rope.rotary_dim
        ),
        guides: vec![Guide {
            value: turn,
            label: format!(
                "one turn over the trained length {}",
                group_thousands(trained as u64)
            ),
            vertical: false,
        }],
    };
    let mut csv = String::from(
        "pair,first_dim,second_dim,theta,theta_scaled,wavelength,wavelength_scaled,treatment\n",
    );
    for i in 0..pairs {
        let (a, b) = rope.pair_dims(i);
        let (t0, t1) = (rope.original_theta(i), scaled(i));
        csv.push_str(&format!(
            "{i},{a},{b},{},{},{},{},{}\n",
            significant(t0, 9),
            significant(t1, 9),
            significant(std::f64::consts::TAU / t0, 9),
            significant(std::f64::consts::TAU / t1, 9),
            rope.treatment(i).label()
        ));
    }
    let af = rope.attention_factor();
    let summary = format!(
        "Of {pairs} pairs: {}.{}",
        counts.join(", "),
        if (af - 1.0).abs() > 1e-12 {
            format!(
                " cos and sin are multiplied by the attention factor {}.",
                significant(af, 5)
            )
        } else {
            String::new()
        }
    );
    PairFrequencies {
        chart,
        csv,
        summary,
    }
}
