//! The addition view's figure: token embeddings plus the encoding, E + PE, next to the two
//! side by side, [E | PE], on one colour scale.

use std::rc::Rc;

use crate::format::plain;
use crate::math::embedding::{word_embedding, SAMPLE_SENTENCE};
use crate::math::matrix::Dense;
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};

crate::figure_inputs! {
    /// The sample sentence's embeddings and encoding.
    AdditionInputs {
        encoding: Sinusoidal = |s| Sinusoidal::new(s.variant, s.d_model, s.base),
        length: usize = |s| s.length.min(SAMPLE_SENTENCE.len()),
        scale_embeddings: bool = |s| s.scale_embeddings,
        palette: Palette = |s| s.palette,
    }
}

/// E + PE and [E | PE], on one colour scale.
pub fn addition(s: &AdditionInputs) -> (Rc<HeatmapData>, Rc<HeatmapData>) {
    let (sum, concat) = inputs(s);
    let magnitude = sum
        .data
        .iter()
        .chain(&concat.data)
        .fold(1e-9f64, |m, v| m.max(v.abs()));
    (
        Rc::new(heat(sum, s, s.palette, magnitude, false)),
        Rc::new(heat(concat, s, s.palette, magnitude, true)),
    )
}

/// The sample sentence, cut to the sequence length.
fn tokens(length: usize) -> Vec<&'static str> {
    SAMPLE_SENTENCE.iter().take(length).copied().collect()
}

/// The two input matrices: E + PE (n × d) and [E | PE] (n × 2d).
fn inputs(s: &AdditionInputs) -> (Dense, Dense) {
    let e = s.encoding;
    let d = s.encoding.d_model;
    let scale = if s.scale_embeddings {
        (d as f64).sqrt()
    } else {
        1.0
    };
    let words = tokens(s.length);
    let (mut sum, mut concat) = (Vec::new(), Vec::new());
    for (p, w) in words.iter().enumerate() {
        let emb: Vec<f64> = word_embedding(w, d).iter().map(|v| v * scale).collect();
        let pe = e.row(p);
        sum.extend(emb.iter().zip(&pe).map(|(a, b)| a + b));
        concat.extend(&emb);
        concat.extend(&pe);
    }
    let n = words.len();
    (Dense::new(n, d, sum), Dense::new(n, 2 * d, concat))
}

fn heat(
    matrix: Dense,
    s: &AdditionInputs,
    palette: Palette,
    magnitude: f64,
    concat: bool,
) -> HeatmapData {
    let names = tokens(s.length)
        .iter()
        .enumerate()
        .map(|(p, w)| format!("{w} @{p}"))
        .collect();
    HeatmapData {
        matrix: Rc::new(matrix),
        x: Axis::indexed(
            if concat {
                "dimension: embedding (0 … d−1) then encoding (d … 2d−1)"
            } else {
                "dimension"
            },
            "dimension",
        ),
        y: Axis::named("token @ position", "token", names),
        scale: ColorScale::symmetric(palette, magnitude),
        colorbar_title: "value".into(),
        caption: format!(
            "{} · d_model {} · {} · base {}{}",
            if concat {
                "Concatenated [embedding | PE]"
            } else {
                "Embedding + PE"
            },
            s.encoding.d_model,
            s.encoding.variant.id(),
            plain(s.encoding.base),
            if s.scale_embeddings {
                " · embeddings × √d"
            } else {
                ""
            }
        ),
        nouns: ("tokens".into(), "dimensions".into()),
        rule: None,
    }
}
