//! A 2-D encoding trained on one grid, used on a larger one: the two ways models do it, and the
//! similarity map of one patch that shows the difference.
//!
//! - [`Resize::Interpolate`] maps the new grid onto the trained range. An added table (2-D
//!   sin-cos or learned) is resized by bicubic interpolation, as MAE's `interpolate_pos_embed`
//!   does when it fine-tunes at a higher resolution (facebookresearch/mae `util/pos_embed.py`,
//!   commit a9f5c70). A 2-D RoPE's positions are scaled by trained / new, as EVA-02's
//!   `VisionRotaryEmbeddingFast` computes `t = arange(ft_seq_len) / ft_seq_len * pt_seq_len`
//!   (baaivision/EVA `EVA-02/asuka/rope.py`, commit 006ca79).
//! - [`Resize::Extrapolate`] keeps the positions: a formula is evaluated past the trained grid
//!   (RoPE-ViT computes its angles for the new grid this way), and a learned table has no
//!   vector past it.

use super::grid::{cosine, cubic_taps, mean_pair_cos, Grid, GridEncoding};

/// How an encoding trained on one grid meets a larger one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resize {
    Interpolate,
    Extrapolate,
}

/// Mean over pairs of cos(sx·dx·f_x + sy·dy·f_y): the similarity at offset (dx, dy) of a
/// scheme whose pairs turn at `freqs` and whose positions are scaled by `scale`, for every
/// patch of `grid` against patch `from`.
fn rotary_map(freqs: &[(f64, f64)], grid: Grid, from: usize, scale: (f64, f64)) -> Vec<f64> {
    let (fr, fc) = grid.cell(from);
    let offsets = |n: usize, at: usize, s: f64| -> Vec<f64> {
        (0..n).map(|i| (i as f64 - at as f64) * s).collect()
    };
    mean_pair_cos(
        freqs,
        &offsets(grid.cols, fc, scale.0),
        &offsets(grid.rows, fr, scale.1),
    )
}

/// v·a and v·v, four running sums each (a chunk's length is a multiple of 4).
fn dot_and_norm(v: &[f64], a: &[f64]) -> (f64, f64) {
    let (mut d, mut m) = ([0.0; 4], [0.0; 4]);
    for (x, y) in v.chunks_exact(4).zip(a.chunks_exact(4)) {
        for i in 0..4 {
            d[i] += x[i] * y[i];
            m[i] += x[i] * x[i];
        }
    }
    (d.iter().sum(), m.iter().sum())
}

/// The cosine similarity of every patch's vector with patch `from`'s, for a table given on
/// its trained grid (`table`: `[patch][dim]`, row-major), resized or not. Resized one target
/// row at a time (the columns first, then the rows, as PyTorch's separable bicubic filter does),
/// so a wide table on a large grid is never held whole. NaN where a patch has no vector.
fn table_map(
    table: &[f64],
    dims: usize,
    trained: Grid,
    target: Grid,
    from: usize,
    how: Resize,
) -> Vec<f64> {
    let (ar, ac) = target.cell(from);
    match how {
        Resize::Extrapolate => {
            let row = |r: usize, c: usize| {
                (r < trained.rows && c < trained.cols).then(|| {
                    let p = trained.patch(r, c);
                    &table[p * dims..(p + 1) * dims]
                })
            };
            let Some(anchor) = row(ar, ac) else {
                return vec![f64::NAN; target.patches()];
            };
            (0..target.patches())
                .map(|p| {
                    let (r, c) = target.cell(p);
                    row(r, c).map_or(f64::NAN, |v| cosine(anchor, v))
                })
                .collect()
        }
        Resize::Interpolate => {
            // A few dimensions at a time, so the half-resized table stays in cache: along the
            // columns (trained rows × target columns), then along the rows, one target row at
            // a time, adding each patch's part of the two dot products as it goes.
            const CHUNK: usize = 32;
            let n = target.patches();
            let (mut dot, mut norm, mut anchor_norm) = (vec![0.0; n], vec![0.0; n], 0.0);
            let col_taps: Vec<_> = (0..target.cols)
                .map(|c| cubic_taps(c, trained.cols, target.cols))
                .collect();
            let row_taps: Vec<_> = (0..target.rows)
                .map(|r| cubic_taps(r, trained.rows, target.rows))
                .collect();
            let axpy = |out: &mut [f64], w: f64, x: &[f64]| {
                out.iter_mut().zip(x).for_each(|(o, x)| *o += w * x);
            };
            let mut wide = vec![0.0; trained.rows * target.cols * CHUNK];
            let mut block = vec![0.0; target.cols * CHUNK];
            for start in (0..dims).step_by(CHUNK) {
                let k = CHUNK.min(dims - start);
                wide.iter_mut().for_each(|x| *x = 0.0);
                for r in 0..trained.rows {
                    for (c, (idx, w)) in col_taps.iter().enumerate() {
                        let out = &mut wide[(r * target.cols + c) * CHUNK..][..k];
                        for (i, wi) in idx.iter().zip(w) {
                            axpy(
                                out,
                                *wi,
                                &table[(r * trained.cols + i) * dims + start..][..k],
                            );
                        }
                    }
                }
                let row = |r: usize, block: &mut [f64]| {
                    block.iter_mut().for_each(|x| *x = 0.0);
                    let (idx, w) = &row_taps[r];
                    let span = target.cols * CHUNK;
                    for (i, wi) in idx.iter().zip(w) {
                        axpy(block, *wi, &wide[i * span..][..span]);
                    }
                };
                row(ar, &mut block);
                let anchor = block[ac * CHUNK..][..k].to_vec();
                anchor_norm += anchor.iter().map(|x| x * x).sum::<f64>();
                for r in 0..target.rows {
                    row(r, &mut block);
                    for c in 0..target.cols {
                        let v = &block[c * CHUNK..][..k];
                        let p = target.patch(r, c);
                        let (d, m) = dot_and_norm(v, &anchor);
                        dot[p] += d;
                        norm[p] += m;
                    }
                }
            }
            // The cosine from its two sums, NaN where a vector is zero (as `grid::cosine`).
            (0..n)
                .map(|p| {
                    let den = (norm[p] * anchor_norm).sqrt();
                    if den > 0.0 && den.is_finite() {
                        dot[p] / den
                    } else {
                        f64::NAN
                    }
                })
                .collect()
        }
    }
}

/// An encoding on the grid it was trained on, with its table of vectors drawn once (an added
/// scheme's), ready to be used on larger grids.
pub struct Trained<'a> {
    encoding: &'a GridEncoding,
    /// `[patch][dim]` on the trained grid (sin-cos and the learned table).
    table: Vec<f64>,
}

impl<'a> Trained<'a> {
    pub fn new(encoding: &'a GridEncoding) -> Trained<'a> {
        let table = match encoding {
            GridEncoding::SinCos(_) => encoding.vectors().unwrap_or_default(),
            GridEncoding::Learned { table, .. } => table.table(),
            GridEncoding::Axial(_) | GridEncoding::Mixed(_) => Vec::new(),
        };
        Trained { encoding, table }
    }

    /// Patch `from`'s similarity with every patch of `target` (row-major), the encoding used
    /// on `target` as `how` says. The similarity is the one the patch views draw: the cosine
    /// of two added vectors, or a 2-D RoPE's mean over pairs of cos(angle difference) (a
    /// query and key of ones).
    pub fn map(&self, target: Grid, how: Resize, from: usize) -> Vec<f64> {
        let (e, t) = (self.encoding, self.encoding.grid());
        let from = from.min(target.patches() - 1);
        let scale = match how {
            Resize::Interpolate => (
                t.cols as f64 / target.cols as f64,
                t.rows as f64 / target.rows as f64,
            ),
            Resize::Extrapolate => (1.0, 1.0),
        };
        match (e, how) {
            (GridEncoding::Axial(_) | GridEncoding::Mixed(_), _) => {
                let freqs = e.pair_frequencies().unwrap_or_default();
                rotary_map(&freqs, target, from, scale)
            }
            // sin a sin b + cos a cos b = cos(a − b): one pair per frequency and axis.
            (GridEncoding::SinCos(s), Resize::Extrapolate) => {
                let quarter = s.d_model / 4;
                let w = |k: usize| s.omega(k) as f64;
                let freqs: Vec<(f64, f64)> = (0..quarter)
                    .map(|k| (w(k), 0.0))
                    .chain((0..quarter).map(|k| (0.0, w(k))))
                    .collect();
                rotary_map(&freqs, target, from, scale)
            }
            _ => table_map(&self.table, e.width(), t, target, from, how),
        }
    }
}

/// [`Trained::map`] for one grid.
pub fn resized_map(trained: &GridEncoding, target: Grid, how: Resize, from: usize) -> Vec<f64> {
    Trained::new(trained).map(target, how, from)
}

/// The sides a resolution figure draws: the trained side at 1×, 2× and 4×, each held to
/// `max`, without repeats.
pub fn sides(trained: usize, max: usize) -> Vec<usize> {
    let mut out: Vec<usize> = [1, 2, 4]
        .iter()
        .map(|k| (trained.max(1) * k).min(max.max(1)))
        .collect();
    out.dedup();
    out
}
