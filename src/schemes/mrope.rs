//! Qwen2-VL's multimodal RoPE (M-RoPE), as Qwen2-VL, Qwen2.5-VL and Qwen3-VL ship it: each
//! head's frequencies split into time, height and width sections, and the (t, h, w) ids of a
//! sequence of text, images and video. Math in `math::mrope`, views in the Image patches view.

use super::def::{Names, Positions, SchemeDef, ViewKind};
use super::grid::{MropeModel, MROPE_HEAD_DIM};
use crate::math::mrope::{QWEN2_VL_SECTION, QWEN3_VL_SECTION};
use crate::snippets::Library;
use crate::sources::{Source, QWEN25_VL, QWEN2_VL, QWEN2_VL_CODE, QWEN3_VL, QWEN3_VL_CODE};
use crate::state::Settings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "M-RoPE",
            label: "M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL)",
            entry: "Inside every attention layer, like RoPE: each query and key is rotated by its \
                    token's time, row and column, each in its own section of the frequencies. \
                    Text alone has t = h = w and turns as plain 1-D RoPE.",
        }
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!(
            "mrope_{}_{}x{}_f{}",
            s.mrope
                .custom
                .as_ref()
                .map_or(s.mrope.model.id(), |c| c.model.as_str()),
            s.grid.rows,
            s.grid.cols,
            s.mrope.frames
        )
    }

    fn snippet(&self, s: &Settings, _library: Library) -> String {
        format!("import numpy as np\n{}", numpy(s.mrope.model))
    }

    fn attention_inputs(&self, _s: &Settings, _n: usize, _width: usize) -> Positions {
        Err(
            "M-RoPE numbers text, images and video in one sequence; on the demo's sentences \
             (text alone, t = h = w) it is plain 1-D RoPE: choose RoPE to see them, or the \
             Image patches view for its sections and ids."
                .into(),
        )
    }

    fn attention_switch_text(&self) -> &'static str {
        "On text alone M-RoPE is RoPE (t = h = w): choose RoPE in the settings to see the \
         sentences come apart, or the Image patches view for what it does with images and video."
    }

    fn past_trained_length(&self, _s: &Settings) -> String {
        "Text after an image or a video resumes past the block's largest id, so a long image \
         uses fewer positions than its tokens: ids grow with the image's side, not its area."
            .into()
    }

    fn views(&self) -> ViewKind {
        ViewKind::Patches
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[
            &QWEN2_VL,
            &QWEN25_VL,
            &QWEN3_VL,
            &QWEN2_VL_CODE,
            &QWEN3_VL_CODE,
        ]
    }
}

/// Which of t, h and w turns each of the head's frequencies under `model`, and at what inverse
/// frequency, in NumPy (`axis`, `inv_freq`), as transformers' `Qwen2VLRotaryEmbedding` with
/// `mrope_section` (chunked) and Qwen3-VL's `apply_interleaved_mrope` lay them out.
pub fn numpy(model: MropeModel) -> String {
    let (theta, dim) = (crate::snippets::py(model.theta()), MROPE_HEAD_DIM);
    let layout = match model {
        MropeModel::Qwen3Vl => {
            let [t, h, w] = QWEN3_VL_SECTION;
            format!(
                "# Qwen3-VL's apply_interleaved_mrope: T H W T H W … then T, mrope_section [{t}, {h}, {w}]\n\
                 section = [{t}, {h}, {w}]\n\
                 j = np.arange(head_dim // 2)\n\
                 axis = np.full(head_dim // 2, \"t\")\n\
                 axis[(j % 3 == 1) & (j < 3 * section[1])] = \"h\"\n\
                 axis[(j % 3 == 2) & (j < 3 * section[2])] = \"w\"\n"
            )
        }
        _ => {
            let [t, h, w] = QWEN2_VL_SECTION;
            format!(
                "# Qwen2-VL's and Qwen2.5-VL's mrope_section [{t}, {h}, {w}]: chunks of the frequency indices\n\
                 section = [{t}, {h}, {w}]\n\
                 axis = np.repeat([\"t\", \"h\", \"w\"], section)\n"
            )
        }
    };
    format!(
        "# {label}: rope_theta {theta}, head_dim {dim}\n\
         theta, head_dim = {theta}, {dim}\n\
         inv_freq = 1.0 / theta ** (np.arange(0, head_dim, 2, dtype=np.float32) / head_dim)\n\
         {layout}",
        label = model.label()
    )
}
