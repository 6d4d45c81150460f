//! The Image patches view's figures: the ViT similarity figure (every patch's similarity with
//! every other, one small map per patch, as Dosovitskiy et al. draw it in Fig. 7), one patch's
//! map large, the score by 2-D offset, and the CSVs (the position vectors or the rotation
//! angles, one row per patch).

use std::rc::Rc;

use crate::export::{labelled_csv, TooLarge};
use crate::math::grid::{rotary_score, GridEncoding, Similarity};
use crate::math::matrix::{Dense, Matrix};
use crate::math::rng::SplitMix64;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::schemes::grid::{GridScheme, GridSettings};
use crate::snippets::Library;

crate::figure_inputs! {
    /// The encoding on the grid and the colours.
    PatchInputs {
        grid: GridSettings = |s| s.grid.clone(),
        d_model: usize = |s| s.d_model,
        base: f64 = |s| s.base,
        seed: usize = |s| s.learned_seed,
        palette: Palette = |s| s.palette,
    }
}

impl PatchInputs {
    pub fn encoding(&self) -> GridEncoding {
        self.grid.encoding(self.d_model, self.base, self.seed)
    }

    pub fn width(&self) -> usize {
        GridSettings::width(self.d_model)
    }
}

/// The most small maps drawn along one side of the figure (a larger grid shows every k-th
/// patch's map).
pub const MAX_TILES: usize = 16;

/// Work (drawn cells × width) above which the learned table's figure shows fewer maps: its
/// similarities are dot products, not a lookup by offset.
const MAX_LEARNED_WORK: usize = 32_000_000;

/// The similarity figure and what the view reads from it.
pub struct Patches {
    pub scheme: GridScheme,
    pub encoding: Rc<GridEncoding>,
    pub similarity: Rc<Similarity>,
    /// The patches (row indices, column indices) whose maps the figure draws.
    pub tile_rows: Vec<usize>,
    pub tile_cols: Vec<usize>,
    pub figure: Rc<HeatmapData>,
    pub offsets: Rc<HeatmapData>,
}

/// The colours of a similarity chart: −1 to 1 when some value is negative, else from the
/// lowest value to 1, so that a chart of positive similarities (sin-cos at a large width stays
/// above 0.4) still shows its shape.
pub fn similarity_scale(palette: Palette, values: &[f64]) -> ColorScale {
    let lo = values
        .iter()
        .copied()
        .filter(|v| v.is_finite())
        .fold(f64::INFINITY, f64::min);
    if (0.0..1.0 - 1e-9).contains(&lo) {
        ColorScale::new(palette, lo, 1.0)
    } else {
        ColorScale::symmetric(palette, 1.0)
    }
}

/// Up to `max` indices spread evenly over `0..n`, first and last included.
pub fn spread(n: usize, max: usize) -> Vec<usize> {
    if n <= max {
        return (0..n).collect();
    }
    let k = max.max(2);
    (0..k).map(|i| i * (n - 1) / (k - 1)).collect()
}

impl Patches {
    /// The patch whose small map holds figure cell (row, col), and the patch that cell is
    /// within that map; `None` on the gaps between maps.
    pub fn cell(&self, row: usize, col: usize) -> Option<(usize, usize)> {
        let g = self.similarity.grid();
        let (tr, r) = (row / (g.rows + 1), row % (g.rows + 1));
        let (tc, c) = (col / (g.cols + 1), col % (g.cols + 1));
        if r == g.rows || c == g.cols {
            return None;
        }
        let source = g.patch(*self.tile_rows.get(tr)?, *self.tile_cols.get(tc)?);
        Some((source, g.patch(r, c)))
    }
}

/// The similarity figure, its maps and the offset map.
pub fn patches(inputs: &PatchInputs) -> Patches {
    let encoding = inputs.encoding();
    let similarity = Similarity::of(&encoding);
    let g = encoding.grid();
    let mut max = MAX_TILES;
    if !encoding.shift_invariant() {
        while max > 2 {
            let cells = (max.min(g.rows) * (g.rows + 1)) * (max.min(g.cols) * (g.cols + 1));
            if cells * inputs.width() <= MAX_LEARNED_WORK {
                break;
            }
            max /= 2;
        }
    }
    let (tile_rows, tile_cols) = (spread(g.rows, max), spread(g.cols, max));
    let (h, w) = (
        tile_rows.len() * (g.rows + 1) - 1,
        tile_cols.len() * (g.cols + 1) - 1,
    );
    let mut data = vec![f64::NAN; h * w];
    for (ti, &sr) in tile_rows.iter().enumerate() {
        for (tj, &sc) in tile_cols.iter().enumerate() {
            let source = g.patch(sr, sc);
            for r in 0..g.rows {
                let at = (ti * (g.rows + 1) + r) * w + tj * (g.cols + 1);
                let cells = &mut data[at..at + g.cols];
                match similarity.row_from(source, r) {
                    Some(row) => cells.copy_from_slice(row),
                    None => {
                        for (c, cell) in cells.iter_mut().enumerate() {
                            *cell = similarity.between(source, g.patch(r, c));
                        }
                    }
                }
            }
        }
    }
    let names = |tiles: &[usize], side: usize| -> Vec<String> {
        let mut out = Vec::new();
        for (i, t) in tiles.iter().enumerate() {
            out.extend((0..side).map(|_| t.to_string()));
            if i + 1 < tiles.len() {
                out.push(String::new());
            }
        }
        out
    };
    let shown = if tile_rows.len() < g.rows || tile_cols.len() < g.cols {
        format!(", {} × {} of them shown", tile_rows.len(), tile_cols.len())
    } else {
        String::new()
    };
    let scale = similarity_scale(inputs.palette, &data);
    let figure = Rc::new(HeatmapData {
        matrix: Rc::new(Dense::new(h, w, data)),
        x: Axis::named("the patch's column", "column", names(&tile_cols, g.cols)),
        y: Axis::named("the patch's row", "row", names(&tile_rows, g.rows)),
        scale: scale.clone(),
        colorbar_title: "similarity".into(),
        caption: format!(
            "{}: each small map is one patch's similarity with all {} patches{shown}",
            inputs.grid.scheme.short(),
            g.patches()
        ),
        nouns: ("rows".into(), "columns".into()),
        rule: None,
    });
    let offsets = offset_map(&encoding, &similarity, None, inputs.palette);
    Patches {
        scheme: inputs.grid.scheme,
        encoding: Rc::new(encoding),
        similarity: Rc::new(similarity),
        tile_rows,
        tile_cols,
        figure,
        offsets,
    }
}

/// One patch's similarity with every patch, as a rows × columns map.
pub fn patch_map(similarity: &Similarity, patch: usize, palette: Palette) -> Rc<HeatmapData> {
    let g = similarity.grid();
    let patch = patch.min(g.patches() - 1);
    let (pr, pc) = g.cell(patch);
    let data: Vec<f64> = (0..g.patches())
        .map(|q| similarity.between(patch, q))
        .collect();
    Rc::new(HeatmapData {
        scale: similarity_scale(palette, &data),
        matrix: Rc::new(Dense::new(g.rows, g.cols, data)),
        x: Axis::indexed("column", "column"),
        y: Axis::indexed("row", "row"),
        colorbar_title: "similarity".into(),
        caption: format!("Patch (row {pr}, column {pc}) against every patch"),
        nouns: ("rows".into(), "columns".into()),
        rule: None,
    })
}

/// A seeded query for the random-q score: one N(0, 1) entry per dimension.
pub fn random_query(width: usize, seed: usize) -> Vec<f64> {
    let mut rng = SplitMix64::new(0x2d_9a7c ^ seed as u64);
    (0..width).map(|_| rng.next_normal()).collect()
}

/// The score by 2-D offset (Δx across, Δy down, 0 in the middle): with `query` `None`, q = k
/// = 1 (the similarity); with a query, q = k = that query (RoPE). The learned table has no
/// single value per offset: its map is the mean over every pair of patches at that offset.
pub fn offset_map(
    e: &GridEncoding,
    similarity: &Similarity,
    query: Option<&[f64]>,
    palette: Palette,
) -> Rc<HeatmapData> {
    let g = e.grid();
    let (w, h) = (2 * g.cols - 1, 2 * g.rows - 1);
    let mut data = vec![f64::NAN; w * h];
    if e.shift_invariant() {
        let freqs = e.pair_frequencies();
        for dy in 0..h {
            for dx in 0..w {
                let (ox, oy) = (dx as i64 - g.cols as i64 + 1, dy as i64 - g.rows as i64 + 1);
                data[dy * w + dx] = match (query, &freqs) {
                    (Some(q), Some(f)) => Some(rotary_score(f, q, ox as f64, oy as f64)),
                    _ => similarity.at_offset(ox, oy),
                }
                .unwrap_or(f64::NAN);
            }
        }
    } else {
        // Means over anchors spread over the grid (every pair would be N² dot products).
        let (mut sum, mut n) = (vec![0.0; w * h], vec![0usize; w * h]);
        for ar in spread(g.rows, 4) {
            for ac in spread(g.cols, 4) {
                let a = g.patch(ar, ac);
                for r in 0..g.rows {
                    for c in 0..g.cols {
                        let v = similarity.between(a, g.patch(r, c));
                        if v.is_finite() {
                            let i = (r + g.rows - 1 - ar) * w + (c + g.cols - 1 - ac);
                            sum[i] += v;
                            n[i] += 1;
                        }
                    }
                }
            }
        }
        for i in 0..w * h {
            if n[i] > 0 {
                data[i] = sum[i] / n[i] as f64;
            }
        }
    }
    let names = |side: usize| -> Vec<String> {
        (0..2 * side - 1)
            .map(|i| (i as i64 - side as i64 + 1).to_string())
            .collect()
    };
    let what = match (query.is_some(), e.shift_invariant()) {
        (true, _) => "score of a random q = k by offset",
        (false, true) => "similarity by offset",
        (false, false) => "mean similarity by offset (over patches spread across the grid)",
    };
    Rc::new(HeatmapData {
        scale: similarity_scale(palette, &data),
        matrix: Rc::new(Dense::new(h, w, data)),
        x: Axis::named("Δx (columns to the right)", "Δx", names(g.cols)),
        y: Axis::named("Δy (rows down)", "Δy", names(g.rows)),
        colorbar_title: "score".into(),
        caption: format!("{what}, 1 at offset (0, 0)"),
        nouns: ("rows".into(), "columns".into()),
        rule: None,
    })
}

/// The encoding as CSV, one row per patch in row-major order (after the CLS token's row, named
/// `cls`, when `cls`): an additive scheme's vectors (one column per dimension, `dim_0` …), or a
/// 2-D RoPE's angles in radians (one column per pair, `pair_0` …).
pub fn encoding_csv(e: &GridEncoding, cls: bool) -> Result<String, TooLarge> {
    let patches = e.grid().patches();
    let mut flat = if cls { e.cls_row() } else { Vec::new() };
    let (columns, column): (usize, fn(usize) -> String) = match e.angles() {
        Some(angles) => {
            let pairs = angles.first().map_or(0, Vec::len);
            flat.extend(angles.into_iter().flatten());
            (pairs, |j| format!("pair_{j}"))
        }
        None => {
            flat.extend(e.vectors().unwrap_or_default());
            (e.width(), |d| format!("dim_{d}"))
        }
    };
    let rows = patches + usize::from(cls);
    let m = Dense::new(rows, columns, flat);
    let name = |r: usize| match (cls, r) {
        (true, 0) => "cls".to_string(),
        (true, r) => (r - 1).to_string(),
        (false, r) => r.to_string(),
    };
    labelled_csv(&m, "patch", name, column)
}

/// A map as CSV: one row per row, one column per column.
pub fn map_csv(data: &HeatmapData, first: &str) -> Result<String, TooLarge> {
    let m: &dyn Matrix = &*data.matrix;
    labelled_csv(
        m,
        first,
        |r| data.y.label(r),
        |c| format!("{}_{}", data.x.unit, data.x.label(c)),
    )
}

/// NumPy or PyTorch code that rebuilds the first chart's CSV (`matrix`: one row per patch), computed as
/// the references compute it: MAE's functions in float32, RoPE-ViT's angles in float32, the
/// app's seeded table with its SplitMix64 streams and PyTorch's bicubic resize (each scheme's
/// module writes its part: `schemes::patch_snippet`).
pub fn snippet(inputs: &PatchInputs, library: Library) -> String {
    crate::schemes::patch_snippet(
        &inputs.grid,
        inputs.d_model,
        inputs.base,
        inputs.seed,
        library,
    )
}
