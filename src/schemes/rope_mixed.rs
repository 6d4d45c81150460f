//! RoPE-ViT's mixed 2-D RoPE (`init_2d_freqs`, `compute_mixed_cis`): every pair turns with a
//! direction of its own on the grid, set by one angle per head. Math in `math::grid::Mixed`,
//! views in the Image patches view.

use super::def::{Names, Positions, SchemeDef, ViewKind};
use super::grid::{GridScheme, GridSettings};
use crate::math::grid::{Mixed, MIXED_THETA};
use crate::snippets::Library;
use crate::sources::{Source, ROPE_VIT, ROPE_VIT_CODE};
use crate::state::Settings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: GridScheme::Mixed.short(),
            label: GridScheme::Mixed.label(),
            entry: "Inside every attention layer: queries and keys are rotated, each pair by \
                    its own mix of the patch's column and row (learned in the paper).",
        }
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        super::grid_stem(s, GridScheme::Mixed)
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        super::grid_snippet(s, GridScheme::Mixed, library)
    }

    fn attention_inputs(&self, _s: &Settings, _n: usize, _width: usize) -> Positions {
        Err(super::grid::not_a_line(GridScheme::Mixed.short()))
    }

    fn attention_switch_text(&self) -> &'static str {
        super::grid::SWITCH_TEXT
    }

    fn past_trained_length(&self, _s: &Settings) -> String {
        "A formula with learned frequencies: a larger image's patches turn by larger angles \
         along every pair's direction, which training never showed."
            .into()
    }

    fn views(&self) -> ViewKind {
        ViewKind::Patches
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&ROPE_VIT, &ROPE_VIT_CODE]
    }
}

/// RoPE-ViT's `init_2d_freqs` and `compute_mixed_cis` for the head `g.head`, as angles in
/// radians, float32: `matrix`, one row per patch, one column per pair.
pub fn numpy(g: &GridSettings, seed: usize) -> String {
    let angle = Mixed::head_angle(seed as u64, g.head) as f32;
    format!(
        "# RoPE-ViT's init_2d_freqs and compute_mixed_cis (naver-ai/rope-vit), as angles in\n\
         # radians, float32. The head's angle is the app's draw for seed {seed}, head {h}\n\
         # (RoPE-ViT draws torch.rand(1) * 2π and then learns the frequencies).\n\
         theta, a = {theta}, np.float32({angle:?})\n\
         mag = 1.0 / (theta ** (np.arange(0, D, 4)[: D // 4].astype(np.float32) / D))\n\
         fx = np.concatenate([mag * np.cos(a), mag * np.cos(np.pi / 2 + a)])\n\
         fy = np.concatenate([mag * np.sin(a), mag * np.sin(np.pi / 2 + a)])\n\
         t = np.arange(rows * cols, dtype=np.float32)\n\
         t_x, t_y = t % cols, np.floor(t / cols)\n\
         matrix = np.outer(t_x, fx) + np.outer(t_y, fy)\n",
        h = g.head,
        theta = crate::snippets::py(MIXED_THETA),
    )
}

/// RoPE-ViT's `init_2d_freqs` and `compute_mixed_cis` in PyTorch for one head, its angle the
/// app's draw: `matrix`, the angles.
pub fn torch(g: &GridSettings, seed: usize) -> String {
    let angle = Mixed::head_angle(seed as u64, g.head) as f32;
    format!(
        "# RoPE-ViT's init_2d_freqs and compute_mixed_cis (naver-ai/rope-vit) for one head.\n\
         # Its angle is the app's draw for seed {seed}, head {h} (RoPE-ViT: torch.rand(1) * 2π;\n\
         # the frequencies are then learned).\n\
         theta, angles = {theta}, torch.tensor([{angle:?}])\n\
         mag = 1 / (theta ** (torch.arange(0, D, 4)[: (D // 4)].float() / D))\n\
         fx = torch.cat([mag * torch.cos(angles), mag * torch.cos(torch.pi / 2 + angles)], dim=-1)\n\
         fy = torch.cat([mag * torch.sin(angles), mag * torch.sin(torch.pi / 2 + angles)], dim=-1)\n\
         t = torch.arange(rows * cols, dtype=torch.float32)\n\
         t_x = (t % cols).float()\n\
         t_y = torch.div(t, cols, rounding_mode=\"floor\").float()\n\
         matrix = t_x.unsqueeze(-1) @ fx.unsqueeze(-2) + t_y.unsqueeze(-1) @ fy.unsqueeze(-2)\n\
         freqs_cis = torch.polar(torch.ones_like(matrix), matrix)\n",
        h = g.head,
        theta = crate::snippets::py(MIXED_THETA),
    )
}
