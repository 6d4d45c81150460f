//! MAE/ViT's fixed 2-D sin-cos table (`get_2d_sincos_pos_embed`): half the width encodes the
//! patch's column, half its row. Math in `math::grid::SinCos2d`, views in the Image patches view.

use super::def::{Names, Positions, SchemeDef, ViewKind};
use super::grid::GridScheme;
use crate::snippets::Library;
use crate::sources::{Source, DOSOVITSKIY, MAE, MAE_CODE};
use crate::state::Settings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: GridScheme::SinCos.short(),
            label: GridScheme::SinCos.label(),
            entry: "Added to the patch embeddings once, before the first layer: a fixed table \
                    whose first half encodes the patch's column and second half its row.",
        }
    }
    fn is_absolute(&self) -> bool {
        true
    }
    fn base_hint(&self) -> Option<&'static str> {
        Some("ω_k = 1/base^(k/(D/4)) on each axis")
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        super::grid_stem(s, GridScheme::SinCos)
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        super::grid_snippet(s, GridScheme::SinCos, library)
    }

    fn attention_inputs(&self, _s: &Settings, _n: usize, _width: usize) -> Positions {
        Err(super::grid::not_a_line(GridScheme::SinCos.short()))
    }

    fn attention_input_text(&self, _s: &Settings, _n: usize) -> String {
        super::grid::not_a_line(GridScheme::SinCos.short())
    }

    fn attention_switch_text(&self) -> &'static str {
        super::grid::SWITCH_TEXT
    }

    fn past_trained_length(&self, _s: &Settings) -> String {
        "A formula has no trained grid: a larger image gets its positions from the same sines \
         and cosines, and MAE resizes the table by bicubic interpolation only when it loads a \
         checkpoint for another resolution."
            .into()
    }

    fn views(&self) -> ViewKind {
        ViewKind::Patches
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&MAE, &DOSOVITSKIY, &MAE_CODE]
    }
}

/// MAE's `get_2d_sincos_pos_embed` in NumPy, float32 as MAE computes it: `matrix`, one row per
/// patch in row-major order (the code before it sets `D`, `rows` and `cols`).
pub fn numpy(base: f64) -> String {
    format!(
        "# MAE's get_2d_sincos_pos_embed (facebookresearch/mae util/pos_embed.py), for a\n\
         # rows × cols grid, in float32 as MAE computes it.\n\
         base = {base}\n\
         def sincos_1d(dim, pos):\n    \
             omega = np.arange(dim // 2, dtype=np.float32)\n    \
             omega /= dim / 2.0\n    \
             omega = 1.0 / base**omega\n    \
             out = np.einsum(\"m,d->md\", pos.reshape(-1), omega)\n    \
             return np.concatenate([np.sin(out), np.cos(out)], axis=1)\n\
         # meshgrid(grid_w, grid_h): the column comes first, so MAE's emb_h is the column half.\n\
         grid_w, grid_h = np.meshgrid(np.arange(cols, dtype=np.float32), np.arange(rows, dtype=np.float32))\n\
         matrix = np.concatenate([sincos_1d(D // 2, grid_w), sincos_1d(D // 2, grid_h)], axis=1)\n",
        base = crate::snippets::py(base.clamp(1.0 + f64::EPSILON, 1e12))
    )
}

/// The same table in PyTorch, float32, with MAE's steps on torch tensors (MAE itself builds it
/// in NumPy and copies it into a frozen `nn.Parameter`).
pub fn torch(base: f64) -> String {
    format!(
        "# MAE's get_2d_sincos_pos_embed (facebookresearch/mae util/pos_embed.py) on torch\n\
         # tensors, float32; MAE copies the result into pos_embed with requires_grad=False.\n\
         base = {base}\n\
         def sincos_1d(dim, pos):\n    \
             omega = torch.arange(dim // 2, dtype=torch.float32) / (dim / 2.0)\n    \
             omega = 1.0 / base**omega\n    \
             out = torch.outer(pos.reshape(-1), omega)\n    \
             return torch.cat([torch.sin(out), torch.cos(out)], dim=1)\n\
         # meshgrid(grid_w, grid_h): the column comes first, so MAE's emb_h is the column half.\n\
         grid_w, grid_h = torch.meshgrid(torch.arange(cols, dtype=torch.float32), torch.arange(rows, dtype=torch.float32), indexing=\"xy\")\n\
         matrix = torch.cat([sincos_1d(D // 2, grid_w), sincos_1d(D // 2, grid_h)], dim=1)\n",
        base = crate::snippets::py(base.clamp(1.0 + f64::EPSILON, 1e12))
    )
}
