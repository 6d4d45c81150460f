//! RoPE-ViT's axial 2-D RoPE (`compute_axial_cis`): the first quarter of the width's pairs turn
//! with the patch's column, the next with its row. Math in `math::grid::Axial`, views in the
//! Image patches view.

use super::def::{Names, Positions, SchemeDef, ViewKind};
use super::grid::GridScheme;
use crate::math::grid::AXIAL_THETA;
use crate::snippets::Library;
use crate::sources::{Source, EVA02_CODE, ROPE_VIT, ROPE_VIT_CODE};
use crate::state::Settings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: GridScheme::Axial.short(),
            label: GridScheme::Axial.label(),
            entry: "Inside every attention layer: queries and keys are rotated, half their pairs \
                    by the patch's column and half by its row.",
        }
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        super::grid_stem(s, GridScheme::Axial)
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        super::grid_snippet(s, GridScheme::Axial, library)
    }

    fn attention_inputs(&self, _s: &Settings, _n: usize, _width: usize) -> Positions {
        Err(super::grid::not_a_line(GridScheme::Axial.short()))
    }

    fn attention_switch_text(&self) -> &'static str {
        super::grid::SWITCH_TEXT
    }

    fn past_trained_length(&self, _s: &Settings) -> String {
        "A formula: a larger image's patches turn by larger angles, which training never \
         showed (RoPE-ViT's extrapolation); EVA-02 instead scales the positions by trained / new, \
         so the angles stay within the trained range."
            .into()
    }

    fn views(&self) -> ViewKind {
        ViewKind::Patches
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&ROPE_VIT, &ROPE_VIT_CODE, &EVA02_CODE]
    }
}

/// RoPE-ViT's `compute_axial_cis` as angles in radians, float32: `matrix`, one row per patch,
/// one column per pair.
pub fn numpy() -> String {
    format!(
        "# RoPE-ViT's compute_axial_cis (naver-ai/rope-vit), as angles in radians, float32:\n\
         # torch.polar(1, matrix) is its freqs_cis. Pairs are adjacent dimensions (2j, 2j+1).\n\
         theta = {theta}\n\
         freqs = 1.0 / (theta ** (np.arange(0, D, 4)[: D // 4].astype(np.float32) / D))\n\
         t = np.arange(rows * cols, dtype=np.float32)\n\
         t_x, t_y = t % cols, np.floor(t / cols)\n\
         matrix = np.concatenate([np.outer(t_x, freqs), np.outer(t_y, freqs)], axis=1)\n",
        theta = crate::snippets::py(AXIAL_THETA)
    )
}

/// RoPE-ViT's `compute_axial_cis` in PyTorch, as it is written: `freqs_cis`, and its angles as
/// `matrix`.
pub fn torch() -> String {
    format!(
        "# RoPE-ViT's compute_axial_cis (naver-ai/rope-vit self-attn/rope_self_attn.py).\n\
         theta = {theta}\n\
         freqs = 1.0 / (theta ** (torch.arange(0, D, 4)[: (D // 4)].float() / D))\n\
         t = torch.arange(rows * cols, dtype=torch.float32)\n\
         t_x = (t % cols).float()\n\
         t_y = torch.div(t, cols, rounding_mode=\"floor\").float()\n\
         freqs_x, freqs_y = torch.outer(t_x, freqs), torch.outer(t_y, freqs)\n\
         freqs_cis = torch.cat([torch.polar(torch.ones_like(freqs_x), freqs_x),\n                       \
             torch.polar(torch.ones_like(freqs_y), freqs_y)], dim=-1)\n\
         matrix = torch.cat([freqs_x, freqs_y], dim=-1)  # the angles, in radians\n",
        theta = crate::snippets::py(AXIAL_THETA)
    )
}
