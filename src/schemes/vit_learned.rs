//! ViT's learned table of patch positions, drawn untrained from the seed as ViT initialises it,
//! and MAE's bicubic resize when the grid grows. Math in `math::grid::Learned2d`, views in the
//! Image patches view.

use super::def::{Names, Positions, SchemeDef, ViewKind};
use super::grid::{GridScheme, GridSettings};
use crate::snippets::Library;
use crate::sources::{Source, DOSOVITSKIY, MAE, MAE_CODE};
use crate::state::Settings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: GridScheme::Learned.short(),
            label: GridScheme::Learned.label(),
            entry: "Added to the patch embeddings once, before the first layer: one trained \
                    vector per patch of the grid the model was trained on.",
        }
    }
    fn is_absolute(&self) -> bool {
        true
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        super::grid_stem(s, GridScheme::Learned)
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        super::grid_snippet(s, GridScheme::Learned, library)
    }

    fn attention_inputs(&self, _s: &Settings, _n: usize, _width: usize) -> Positions {
        Err(super::grid::not_a_line(GridScheme::Learned.short()))
    }

    fn attention_input_text(&self, _s: &Settings, _n: usize) -> String {
        super::grid::not_a_line(GridScheme::Learned.short())
    }

    fn attention_switch_text(&self) -> &'static str {
        super::grid::SWITCH_TEXT
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        let t = s.grid.trained;
        format!(
            "The table has {t} × {t} rows: a larger image has patches with no vector, so MAE \
             resizes the table by bicubic interpolation (interpolate_pos_embed), keeping the \
             CLS token's row."
        )
    }

    fn views(&self) -> ViewKind {
        ViewKind::Patches
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&DOSOVITSKIY, &MAE, &MAE_CODE]
    }
}

/// The app's untrained table on the grid `g`, resized as MAE's `interpolate_pos_embed` does (or
/// left blank past the trained grid), in NumPy: `matrix`, one row per patch.
pub fn numpy(g: &GridSettings, seed: usize) -> String {
    format!(
        "# The app's untrained ViT table for a {t} × {t} grid: the 1-D learned table's first\n\
         # {t}·{t} rows, one per patch in row-major order, N(0, 0.02²) from the seed.\n\
         trained, seed, interpolate = {t}, {seed}, {interp}\n\
         {table}\
         table = learned_table(trained * trained, D, seed).reshape(trained, trained, D)\n\
         def cubic(t, A=-0.75):  # PyTorch's get_cubic_upsample_coefficients\n    \
             near = lambda x: ((A + 2) * x - (A + 3)) * x * x + 1\n    \
             far = lambda x: ((A * x - 5 * A) * x + 8 * A) * x - 4 * A\n    \
             return [far(t + 1), near(t), near(1 - t), far(2 - t)]\n\
         def resize(table, axis, n_out):  # F.interpolate(mode=\"bicubic\", align_corners=False), one axis\n    \
             n_in = table.shape[axis]\n    \
             src = (np.arange(n_out) + 0.5) * (n_in / n_out) - 0.5\n    \
             i0 = np.floor(src).astype(int)\n    \
             w = cubic(src - i0)\n    \
             shape = [1] * table.ndim\n    \
             shape[axis] = n_out\n    \
             out = 0.0\n    \
             for k in range(4):\n        \
                 idx = np.clip(i0 - 1 + k, 0, n_in - 1)\n        \
                 out = out + w[k].reshape(shape) * np.take(table, idx, axis=axis)\n    \
             return out\n\
         if interpolate:  # MAE's interpolate_pos_embed, each axis by its own scale\n    \
             grid = resize(resize(table, 1, cols), 0, rows)\n\
         else:  # no interpolation: patches past the trained grid have no vector\n    \
             grid = np.full((rows, cols, D), np.nan)\n    \
             r, c = min(rows, trained), min(cols, trained)\n    \
             grid[:r, :c] = table[:r, :c]\n\
         matrix = grid.reshape(rows * cols, D)\n",
        t = g.trained,
        interp = if g.interpolate { "True" } else { "False" },
        table = super::learned::NUMPY_TABLE,
    )
}

/// The same in PyTorch: the app's table (drawn by the NumPy function, since torch's generator is
/// not the app's) resized by `F.interpolate(mode="bicubic", align_corners=False)` itself, as
/// MAE's `interpolate_pos_embed` calls it.
pub fn torch(g: &GridSettings, seed: usize) -> String {
    format!(
        "# The app's untrained ViT table for a {t} × {t} grid (N(0, 0.02²) from the seed; torch's\n\
         # generator is not the app's, so the table is drawn in NumPy), resized as MAE's\n\
         # interpolate_pos_embed resizes it: F.interpolate, bicubic, align_corners=False.\n\
         import numpy as np\n\
         import torch.nn.functional as F\n\
         trained, seed, interpolate = {t}, {seed}, {interp}\n\
         {table}\
         table = torch.from_numpy(learned_table(trained * trained, D, seed)).float()\n\
         table = table.reshape(1, trained, trained, D).permute(0, 3, 1, 2)  # (1, D, h, w)\n\
         if interpolate:\n    \
             grid = F.interpolate(table, size=(rows, cols), mode=\"bicubic\", align_corners=False)\n\
         else:  # no interpolation: patches past the trained grid have no vector\n    \
             grid = torch.full((1, D, rows, cols), float(\"nan\"))\n    \
             r, c = min(rows, trained), min(cols, trained)\n    \
             grid[:, :, :r, :c] = table[:, :, :r, :c]\n\
         matrix = grid.permute(0, 2, 3, 1).reshape(rows * cols, D)\n",
        t = g.trained,
        interp = if g.interpolate { "True" } else { "False" },
        table = super::learned::NUMPY_TABLE,
    )
}
