//! The waves view's figures: chosen columns of the encoding as functions of position, and
//! every pair's wavelength.

use std::f64::consts::TAU;

use crate::format::{large, plain, significant};
use crate::math::sinusoidal::{Sinusoidal, Variant, Wave};
use crate::plot::lines::{
    Guide, LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS,
};

crate::figure_inputs! {
    /// The chosen columns drawn against position.
    WavesInputs {
        encoding: Sinusoidal = |s| Sinusoidal::new(s.variant, s.d_model, s.base),
        length: usize = |s| s.length,
        dims: Vec<usize> = |s| s.dims(),
    }
}

crate::figure_inputs! {
    /// Every pair's wavelength.
    WavelengthInputs {
        encoding: Sinusoidal = |s| Sinusoidal::new(s.variant, s.d_model, s.base),
        length: usize = |s| s.length,
    }
}

/// "dim 12 · sin · λ = 14.9".
pub fn dim_label(e: &Sinusoidal, dim: usize) -> String {
    let c = e.column(dim);
    match c.wave {
        Wave::Zero => format!("dim {dim} · zero padding"),
        w => format!(
            "dim {dim} · {} · λ = {}",
            w.name(),
            significant(c.wavelength(), 4)
        ),
    }
}

pub fn waves_chart(s: &WavesInputs) -> LineChartData {
    let e = s.encoding;
    let series = s
        .dims
        .iter()
        .enumerate()
        .map(|(i, &dim)| {
            let column = e.column(dim);
            Series {
                stroke: if column.wave == Wave::Cos {
                    Stroke::Dashed
                } else {
                    Stroke::Solid
                },
                ..Series::line(
                    dim_label(&e, dim),
                    SERIES_COLORS[i % 6],
                    Points::Uniform {
                        x0: 0.0,
                        dx: 1.0,
                        ys: (0..s.length).map(|p| column.value(p as f64)).collect(),
                    },
                )
            }
        })
        .collect();
    LineChartData {
        series,
        x: LineAxis::linear("position", 0.0, (s.length - 1) as f64),
        y: LineAxis::linear("PE(position, dim)", -1.08, 1.08),
        caption: format!(
            "Columns as waves of position · {} · d_model {} · base {}",
            s.encoding.variant.id(),
            s.encoding.d_model,
            plain(s.encoding.base)
        ),
        guides: Vec::new(),
    }
}

pub fn wavelengths(e: &Sinusoidal) -> Vec<(f64, f64)> {
    (0..e.pair_count())
        .map(|i| (i as f64, TAU / e.omega(i)))
        .collect()
}

pub fn wavelength_chart(s: &WavelengthInputs) -> LineChartData {
    let e = s.encoding;
    let points = wavelengths(&e);
    let few = points.len() <= 64;
    let mut series = vec![Series {
        marker: if few { Marker::Circle } else { Marker::None },
        width: 2.0,
        ..Series::line(
            format!("{} (this variant)", s.encoding.variant.id()),
            SERIES_COLORS[0],
            Points::Pairs(points.clone()),
        )
    }];
    if !matches!(s.encoding.variant, Variant::Paper | Variant::Split) {
        let paper = Sinusoidal::new(Variant::Paper, s.encoding.d_model, s.encoding.base);
        series.push(Series {
            stroke: Stroke::Dashed,
            ..Series::line(
                "paper, for comparison",
                SERIES_COLORS[6],
                Points::Pairs(wavelengths(&paper)),
            )
        });
    }
    let top = points
        .iter()
        .map(|p| p.1)
        .fold(TAU * s.encoding.base, f64::max)
        .max(s.length as f64);
    LineChartData {
        series,
        x: LineAxis::linear("pair i", 0.0, (points.len().max(2) - 1) as f64),
        y: LineAxis::log("wavelength 2π/ωᵢ (positions)", TAU / 1.6, top * 1.8),
        caption: format!(
            "Wavelength of each pair · {} · d_model {} · base {}",
            s.encoding.variant.id(),
            s.encoding.d_model,
            plain(s.encoding.base)
        ),
        guides: vec![
            Guide {
                value: TAU,
                label: "2π ≈ 6.28".into(),
                vertical: false,
            },
            Guide {
                value: TAU * s.encoding.base,
                label: format!("2π·base ≈ {}", large(TAU * s.encoding.base)),
                vertical: false,
            },
            Guide {
                value: s.length as f64,
                label: format!("length = {}", s.length),
                vertical: false,
            },
        ],
    }
}
