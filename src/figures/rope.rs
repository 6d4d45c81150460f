//! RoPE's frequencies pair by pair: what an extension method leaves alone, interpolates, ramps
//! or rebases, against the length the model was trained on.

use crate::export::{format_value, table_csv, TooLarge, MAX_CSV_CELLS};
use crate::format::{group_thousands, plain, significant};
use crate::math::rope::{Rope, RopePairing, Treatment};
use crate::plot::lines::{
    Guide, LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS,
};

/// The chart, its CSV, and a one-sentence count.
pub struct PairFrequencies {
    pub chart: std::rc::Rc<LineChartData>,
    pub csv: String,
    pub summary: String,
}

const TREATMENTS: [Treatment; 5] = [
    Treatment::Kept,
    Treatment::Interpolated,
    Treatment::Ramped,
    Treatment::Rebased,
    Treatment::Rescaled,
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
        // "new base" (NTK) and "own factor" (LongRoPE) never appear together: they share the
        // fourth shape and colour.
        let k = k.min(3);
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
            rope.rotated_width()
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
    let list = match rope.scaling.longrope_factors() {
        Some((true, _)) => " LongRoPE uses long_factor: the length is past the original.",
        Some((false, _)) => " LongRoPE uses short_factor: the length is within the original.",
        None => "",
    };
    let summary = format!(
        "Of {pairs} pairs: {}.{list}{}",
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
        chart: std::rc::Rc::new(chart),
        csv,
        summary,
    }
}

// ----- Check your own numbers -----

/// One pairing's side of [`score_check`].
#[derive(Clone, Debug, PartialEq)]
pub struct PairingCheck {
    pub pairing: RopePairing,
    /// q rotated for position m, k rotated for position n.
    pub q_rotated: Vec<f64>,
    pub k_rotated: Vec<f64>,
    /// Per dimension, the cos and sin it is multiplied by at m and at n, as the libraries'
    /// caches hold them (times the attention factor; 1 and 0 past the rotated width).
    pub cos_m: Vec<f64>,
    pub sin_m: Vec<f64>,
    pub cos_n: Vec<f64>,
    pub sin_n: Vec<f64>,
    /// q_m·k_n, the rotated dot product (before any 1/√d).
    pub score: f64,
    /// The same score with the positions moved to (m − n, 0).
    pub relative_score: f64,
}

impl PairingCheck {
    /// |score − relative score|: rounding error only, since RoPE sees only m − n.
    pub fn relative_gap(&self) -> f64 {
        (self.score - self.relative_score).abs()
    }
}

/// Everything the "check your own numbers" panel shows, for both pairings of one RoPE.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoreCheck {
    pub m: usize,
    pub n: usize,
    /// The query and key used, d_model long.
    pub q: Vec<f64>,
    pub k: Vec<f64>,
    pub d_model: usize,
    pub rotary_dim: usize,
    pub attention_factor: f64,
    /// q·k without RoPE.
    pub plain_score: f64,
    /// Rotate-half (GPT-NeoX, Hugging Face) and adjacent (RoFormer, GPT-J, Meta).
    pub half: PairingCheck,
    pub adjacent: PairingCheck,
    /// The per-dimension table: [`CHECK_HEADER`], one row per dimension.
    pub rows: Vec<Vec<f64>>,
    /// The table as CSV (nine significant digits).
    pub csv: String,
}

/// The per-dimension table's columns.
pub const CHECK_HEADER: [&str; 15] = [
    "dim",
    "q",
    "k",
    "rotate_half_q_rotated",
    "rotate_half_k_rotated",
    "rotate_half_cos_m",
    "rotate_half_sin_m",
    "rotate_half_cos_n",
    "rotate_half_sin_n",
    "adjacent_q_rotated",
    "adjacent_k_rotated",
    "adjacent_cos_m",
    "adjacent_sin_m",
    "adjacent_cos_n",
    "adjacent_sin_n",
];

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

fn pairing_check(rope: &Rope, q: &[f64], k: &[f64], m: usize, n: usize) -> PairingCheck {
    let (mf, nf) = (m as f64, n as f64);
    let d = rope.d_model;
    let (q_rotated, k_rotated) = (rope.rotate(q, mf), rope.rotate(k, nf));
    let at = |position: f64| -> (Vec<f64>, Vec<f64>) {
        (0..d).map(|dim| rope.cos_sin(position, dim)).unzip()
    };
    let ((cos_m, sin_m), (cos_n, sin_n)) = (at(mf), at(nf));
    PairingCheck {
        pairing: rope.pairing,
        score: dot(&q_rotated, &k_rotated),
        relative_score: rope.score(q, mf - nf, k, 0.0),
        q_rotated,
        k_rotated,
        cos_m,
        sin_m,
        cos_n,
        sin_n,
    }
}

/// RoPE applied to a query at position m and a key at position n, under both pairings: `rope`
/// as the settings build it (scaling, attention factor, partial rotary) and the same with the
/// other pairing. `q` and `k` are padded with zeros or cut to d_model (the caller says so).
pub fn score_check(rope: &Rope, q: &[f64], k: &[f64], m: usize, n: usize) -> ScoreCheck {
    let d = rope.d_model;
    let fit = |v: &[f64]| {
        let mut out: Vec<f64> = v.iter().copied().take(d).collect();
        out.resize(d, 0.0);
        out
    };
    let (q, k) = (fit(q), fit(k));
    let half = pairing_check(&rope.with_pairing(RopePairing::RotateHalf), &q, &k, m, n);
    let adjacent = pairing_check(&rope.with_pairing(RopePairing::Adjacent), &q, &k, m, n);
    let rows: Vec<Vec<f64>> = (0..d)
        .map(|i| {
            let mut row = vec![i as f64, q[i], k[i]];
            for p in [&half, &adjacent] {
                row.extend([
                    p.q_rotated[i],
                    p.k_rotated[i],
                    p.cos_m[i],
                    p.sin_m[i],
                    p.cos_n[i],
                    p.sin_n[i],
                ]);
            }
            row
        })
        .collect();
    let header = CHECK_HEADER.map(String::from);
    let csv = table_csv(&header, rows.iter().cloned());
    ScoreCheck {
        m,
        n,
        plain_score: dot(&q, &k),
        d_model: d,
        rotary_dim: 2 * rope.pair_count(),
        attention_factor: rope.attention_factor(),
        q,
        k,
        half,
        adjacent,
        rows,
        csv,
    }
}

/// The cos and sin caches as Hugging Face builds them (`cos_cached`, `sin_cached`), already
/// multiplied by the attention factor, laid out by the rope's pairing (rotate-half:
/// `cat(freqs, freqs)`; adjacent: each θ twice), one row per position 0 .. length − 1:
/// `position, cos_0 … cos_{d−1}, sin_0 … sin_{d−1}`. Dimensions past the rotated width pass
/// through (cos 1, sin 0). Refused past [`MAX_CSV_CELLS`] values.
pub fn cache_csv(rope: &Rope, length: usize) -> Result<String, TooLarge> {
    cache_csv_at(rope, 0..length)
}

/// The same cache at the listed positions only (any positions, in the order given).
pub fn cache_csv_at(
    rope: &Rope,
    positions: impl ExactSizeIterator<Item = usize>,
) -> Result<String, TooLarge> {
    let d = rope.d_model;
    let cells = positions.len().saturating_mul(d.saturating_mul(2));
    if cells > MAX_CSV_CELLS {
        return Err(TooLarge { cells });
    }
    let mut out = String::with_capacity(cells * 13 + d * 16 + 16);
    out.push_str("position");
    for wave in ["cos", "sin"] {
        for dim in 0..d {
            out.push_str(&format!(",{wave}_{dim}"));
        }
    }
    out.push('\n');
    // θ of each dimension's pair, computed once (the same products as `Rope::cos_sin`).
    let thetas: Vec<Option<f64>> = (0..d)
        .map(|dim| rope.pair_of(dim).map(|i| rope.theta(i)))
        .collect();
    let f = rope.attention_factor();
    let mut sines = Vec::with_capacity(d);
    for position in positions {
        out.push_str(&position.to_string());
        sines.clear();
        let at = rope.scaled_position(position as f64);
        for theta in &thetas {
            let (c, s) = match theta {
                Some(t) => {
                    let (s, c) = (at * t).sin_cos();
                    (f * c, f * s)
                }
                None => (1.0, 0.0),
            };
            out.push(',');
            out.push_str(&format_value(c));
            sines.push(s);
        }
        for s in &sines {
            out.push(',');
            out.push_str(&format_value(*s));
        }
        out.push('\n');
    }
    Ok(out)
}

/// The most positions [`read_positions`] keeps.
pub const MAX_CACHE_POSITIONS: usize = 256;

/// The last position listed for the cache: float32 holds every whole number up to 2²⁴, and
/// transformers turns positions into float32 before multiplying them by θ.
pub const MAX_CACHE_POSITION: usize = (1 << 24) - 1;

/// Reads a list of positions for the cache ("0, 1, 4095, 131071"): whole numbers from 0 to
/// [`MAX_CACHE_POSITION`], separated by commas or spaces, at most [`MAX_CACHE_POSITIONS`].
/// Refuses text that is not such a list, with a sentence; notes what was changed.
pub fn read_positions(text: &str) -> Result<crate::limit::Accepted<Vec<usize>>, String> {
    let limit = crate::limit::Limit::linear("position", 0.0, MAX_CACHE_POSITION as f64);
    let a = crate::limit::parse_list(text, limit, MAX_CACHE_POSITIONS)?;
    Ok(crate::limit::Accepted {
        value: a.value.iter().map(|p| *p as usize).collect(),
        note: a.note,
    })
}

/// The cos and sin cache at the positions listed in `text`, for RoPE as a sequence long enough
/// to reach the last of them has it (LongRoPE's choice of list and dynamic NTK's base depend on
/// that length): `rope_for(length)` is the settings' RoPE at a length, `view_length` the view's.
/// Gives the CSV, and a sentence saying what it holds.
pub fn cache_at_positions(
    text: &str,
    view_length: usize,
    rope_for: impl Fn(usize) -> Rope,
) -> Result<(String, String), String> {
    let positions = read_positions(text)?;
    let last = positions.value.iter().copied().max().unwrap_or(0);
    let length = view_length.max(last + 1);
    let rope = rope_for(length);
    let csv = cache_csv_at(&rope, positions.value.iter().copied()).map_err(|e| e.message())?;
    let how = match &rope.scaling {
        crate::math::rope::RopeScaling::LongRope { .. } => match rope.scaling.longrope_factors() {
            Some((true, _)) => ", with long_factor".to_string(),
            _ => ", with short_factor".to_string(),
        },
        crate::math::rope::RopeScaling::DynamicNtk { .. } => {
            format!(
                ", the base grown to {}",
                significant(rope.effective_base(), 9)
            )
        }
        _ => String::new(),
    };
    let mut sentence = format!(
        "{} {}: cos and sin as a sequence of {} positions has them{how}.",
        positions.value.len(),
        if positions.value.len() == 1 {
            "row"
        } else {
            "rows"
        },
        group_thousands(length as u64)
    );
    if let Some(note) = positions.note {
        sentence = format!("{note} {sentence}");
    }
    Ok((csv, sentence))
}

/// RoPE's cos(m·θᵢ) cache as a heatmap, with the trained length's rule when the view is longer.
pub fn cos_heatmap(
    rope: &Rope,
    length: usize,
    palette: crate::plot::colormap::Palette,
    rule: Option<(usize, String)>,
) -> crate::plot::heatmap::HeatmapData {
    use crate::plot::heatmap::Axis;
    crate::plot::heatmap::HeatmapData {
        matrix: std::rc::Rc::new(rope.cos_table(length)),
        x: Axis::indexed("dimension of q and k", "dim"),
        y: Axis::indexed("position m", "position"),
        scale: crate::plot::colormap::ColorScale::symmetric(palette, 1.0),
        colorbar_title: "cos(m·θ)".into(),
        caption: format!(
            "RoPE cos(m·θᵢ) cache · {} · d_model {} · θ base {}{}",
            rope.pairing.id(),
            rope.d_model,
            plain(rope.base),
            match rope.scaling.id() {
                "none" => String::new(),
                id => format!(" · {id} ×{}", plain(rope.scaling.factor())),
            }
        ),
        nouns: ("positions".into(), "dimensions".into()),
        rule,
    }
}
