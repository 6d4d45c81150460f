//! The Image patches view's M-RoPE figures: a mixed sequence (text, an image, a video, text)
//! laid out as Qwen2-VL, Qwen2.5-VL or Qwen3-VL number it, its (t, h, w) ids as three lines, each
//! frequency's axis (T, H or W), the cos of every token's angle per frequency, and where the
//! reference `get_rope_index` and transformers 5.24 part ways.

use std::rc::Rc;

use crate::math::matrix::Dense;
use crate::math::mrope::{
    frames_as_images, ids_csv, position_ids, Advance, Axis, IdRules, Kind, Layout, Mrope, Segment,
    Time, TokenId, QWEN2_VL_SECTION, QWEN3_VL_SECTION,
};
use crate::mrope_config::MropeConfig;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis as HeatAxis, HeatmapData};
use crate::plot::lines::{LineAxis, LineChartData, Points, Series, Stroke, SERIES_COLORS};
use crate::schemes::grid::{MropeModel, MropeSettings};

/// The largest merged image grid the sequence uses along a side (a 16 × 16 image is already
/// 256 tokens, and a video repeats it per frame).
pub const MAX_MERGED_SIDE: usize = 16;
/// Text tokens before and after the vision blocks.
pub const TEXT_RUN: usize = 2;
/// Head width of the three models (their `mrope_section` sums to 64 frequencies).
pub const HEAD_DIM: usize = crate::schemes::grid::MROPE_HEAD_DIM;

crate::figure_inputs! {
    /// The model, the id rule, the image's merged grid and the video's frames.
    MropeInputs {
        mrope: MropeSettings = |s| s.mrope.clone(),
        merged: (usize, usize) = |s| (
            s.grid.rows.clamp(1, MAX_MERGED_SIDE),
            s.grid.cols.clamp(1, MAX_MERGED_SIDE),
        ),
        palette: Palette = |s| s.palette,
    }
}

impl MropeInputs {
    /// The sequence: text, an image, a video (when it has frames), text; vision sizes in
    /// patches before the `merge` × `merge` merge. Qwen3-VL gives each frame its own block.
    pub fn segments(&self, merge: usize, per_frame: bool) -> Result<Vec<Segment>, String> {
        let (r, c) = self.merged;
        let (h, w) = (merge * r, merge * c);
        let mut s = vec![Segment::Text(TEXT_RUN), Segment::Image { h, w }];
        if self.mrope.frames > 0 {
            s.push(Segment::Video {
                frames: self.mrope.frames,
                h,
                w,
            });
        }
        s.push(Segment::Text(TEXT_RUN));
        if per_frame {
            return frames_as_images(&s);
        }
        Ok(s)
    }

    /// The model's M-RoPE, its id rules (`transformers`: as transformers 5.24 numbers them),
    /// and whether a video is split into frames: the chosen model's, or a pasted config's.
    pub fn plan(
        &self,
        custom: Option<&MropeConfig>,
        transformers: bool,
    ) -> Result<(Mrope, IdRules, bool), String> {
        let advance = if transformers {
            Advance::MaxSide
        } else {
            Advance::PastLargest
        };
        if let Some(c) = custom {
            let time = match c.tokens_per_second {
                Some(tokens_per_second) => Time::Seconds {
                    second_per_grid_t: 1.0,
                    tokens_per_second,
                },
                None => Time::Frame,
            };
            let rules = IdRules {
                spatial_merge_size: c.merge,
                time,
                advance,
            };
            return Ok((c.mrope.clone(), rules, c.model.starts_with("qwen3")));
        }
        let base = match self.mrope.model {
            MropeModel::Qwen25Vl => IdRules::QWEN2_5_VL,
            _ => IdRules::QWEN2_VL,
        };
        let (section, layout) = match self.mrope.model {
            MropeModel::Qwen3Vl => (QWEN3_VL_SECTION, Layout::Interleaved),
            _ => (QWEN2_VL_SECTION, Layout::Chunked),
        };
        let mrope = Mrope::new(HEAD_DIM, self.mrope.model.theta(), section, layout)?;
        Ok((
            mrope,
            IdRules { advance, ..base },
            self.mrope.model == MropeModel::Qwen3Vl,
        ))
    }
}

/// Where the two id rules differ, for the sentence under the chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Seams {
    /// The largest time id of any vision token.
    pub vision_last_t: i64,
    /// The first id of the text after the vision blocks, under the reference and under
    /// transformers 5.24.
    pub next_reference: i64,
    pub next_transformers: i64,
}

/// The M-RoPE figures.
pub struct MropeFigure {
    pub model: MropeModel,
    pub mrope: Mrope,
    pub ids: Vec<TokenId>,
    pub seams: Seams,
    pub chart: Rc<LineChartData>,
    pub cos: Rc<HeatmapData>,
    pub sin: Rc<HeatmapData>,
    /// Every token's angle per frequency, radians (row-major: token, then frequency).
    pub angles: Vec<f64>,
    pub csv: String,
}

impl MropeFigure {
    /// Token `token`'s angle at frequency `j`, radians.
    pub fn angle(&self, token: usize, j: usize) -> Option<f64> {
        let pairs = self.mrope.pair_count();
        (j < pairs)
            .then(|| self.angles.get(token * pairs + j).copied())
            .flatten()
    }
}

/// The ids of the text after the vision blocks start at (the last segment's first token).
fn next_text(ids: &[TokenId]) -> i64 {
    let last = ids.last().map_or(0, |t| t.segment);
    ids.iter().find(|t| t.segment == last).map_or(0, |t| t.t)
}

/// The figures for the chosen model, or a pasted config (`custom`), or why the sequence
/// cannot be laid out.
pub fn mrope_figure(
    inputs: &MropeInputs,
    custom: Option<&MropeConfig>,
) -> Result<MropeFigure, String> {
    let transformers = inputs.mrope.transformers_rule;
    let (mrope, rules, per_frame) = inputs.plan(custom, transformers)?;
    let (_, other_rules, _) = inputs.plan(custom, !transformers)?;
    let segments = inputs.segments(rules.spatial_merge_size, per_frame)?;
    let ids = position_ids(&segments, &rules)?;
    let other = position_ids(&segments, &other_rules)?;
    let (reference, latest) = if transformers {
        (&other, &ids)
    } else {
        (&ids, &other)
    };
    let seams = Seams {
        vision_last_t: ids
            .iter()
            .filter(|t| t.kind != Kind::Text)
            .map(|t| t.t)
            .max()
            .unwrap_or(0),
        next_reference: next_text(reference),
        next_transformers: next_text(latest),
    };
    let n = ids.len();
    let line = |axis: Axis, stroke: Stroke| {
        let ys = ids
            .iter()
            .map(|t| match axis {
                Axis::T => t.t,
                Axis::H => t.h,
                Axis::W => t.w,
            } as f64)
            .collect();
        Series {
            stroke,
            width: 2.0,
            ..Series::line(
                format!("{} id", axis.letter()),
                SERIES_COLORS[axis.index()],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys,
                },
            )
        }
    };
    let top = ids.iter().map(|t| t.t.max(t.h).max(t.w)).max().unwrap_or(0) as f64;
    let rule = if transformers {
        "transformers 5.24"
    } else {
        "reference get_rope_index"
    };
    let chart = Rc::new(LineChartData {
        series: vec![
            line(Axis::T, Stroke::Solid),
            line(Axis::H, Stroke::Dashed),
            line(Axis::W, Stroke::Dotted),
        ],
        x: LineAxis::linear("token", 0.0, (n.max(2) - 1) as f64),
        y: LineAxis::linear("position id", 0.0, top.max(1.0) * 1.08),
        caption: format!(
            "{} · {rule} · {n} tokens",
            custom.map_or(inputs.mrope.model.label(), |c| c.model.as_str())
        ),
        guides: Vec::new(),
    });
    let pairs = mrope.pair_count();
    let mut angles = Vec::with_capacity(n * pairs);
    for t in &ids {
        angles.extend(mrope.angles(t));
    }
    let axes = mrope.axes();
    // The cos and sin tables `apply_multimodal_rotary_pos_emb` multiplies a query and key by:
    // q' = q·cos + rotate_half(q)·sin, per frequency.
    let table = |f: fn(f64) -> f64, name: &str| {
        Rc::new(HeatmapData {
            matrix: Rc::new(Dense::new(n, pairs, angles.iter().map(|a| f(*a)).collect())),
            x: HeatAxis::named(
                "frequency j (its axis: T, H or W), fast to slow",
                "j",
                (0..pairs)
                    .map(|j| format!("{j} {}", axes[j].letter()))
                    .collect(),
            ),
            y: HeatAxis::indexed("token", "token"),
            scale: ColorScale::symmetric(inputs.palette, 1.0),
            colorbar_title: format!("{name}(angle)"),
            caption: format!(
                "{name} of each token's angle per frequency, θ = {}",
                crate::format::plain(mrope.theta())
            ),
            nouns: ("tokens".into(), "frequencies".into()),
            rule: None,
        })
    };
    let (cos, sin) = (table(f64::cos, "cos"), table(f64::sin, "sin"));
    Ok(MropeFigure {
        model: inputs.mrope.model,
        csv: ids_csv(&ids),
        mrope,
        ids,
        seams,
        chart,
        cos,
        sin,
        angles,
    })
}
