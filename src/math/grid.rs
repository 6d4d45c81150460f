//! Positions on a grid of image patches: the 2-D encodings of vision transformers, each as its
//! reference code computes it, and the two numbers the patch views draw from them: how similar
//! two patches' positions are, and the score of a query and key at a 2-D offset.
//!
//! - [`SinCos2d`]: MAE's fixed table, `get_2d_sincos_pos_embed` (facebookresearch/mae
//!   `util/pos_embed.py`, commit a9f5c70). Its `grid = meshgrid(grid_w, grid_h)` puts the
//!   column first, so channels `[0, D/2)` encode the column (the code calls them `emb_h`) and
//!   `[D/2, D)` the row, each as `[sin(p·ω) ‖ cos(p·ω)]` with ω_k = 1/10000^(k/(D/4)).
//! - [`Learned2d`]: a learned table drawn N(0, 0.02²) from a seed, as ViT initialises it, and
//!   resized as MAE's `interpolate_pos_embed` does: `F.interpolate(mode='bicubic',
//!   align_corners=False)` ([`bicubic_resize`]), or not resized, so patches past the trained
//!   grid have no vector.
//! - [`Axial`]: RoPE-ViT's `compute_axial_cis` (naver-ai/rope-vit `self-attn/rope_self_attn.py`,
//!   commit 2df6a96): adjacent pairs (2j, 2j+1); patch i sits at t_x = i mod W, t_y = ⌊i / W⌋;
//!   the first D/4 pairs turn with t_x and the next D/4 with t_y, at 1/θ^(4k/D), θ = 100.
//! - [`Mixed`]: RoPE-ViT's `init_2d_freqs` and `compute_mixed_cis` (same file): θ = 10, one
//!   angle a_h per head; pair k < D/4 turns with (t_x, t_y)·mag_k(cos a_h, sin a_h) and pair
//!   D/4 + k with (t_x, t_y)·mag_k(−sin a_h, cos a_h). The paper learns these frequencies; here
//!   they stay at their initial values, drawn from a seed.
//!
//! The references compute in float32, and so does this module where it matters (angles up to
//! 63 rad lose 4·10⁻⁶ in float32): a CSV of ours equals theirs to float32 rounding.

use super::learned::Learned;
use super::rng::SplitMix64;

/// The most rows or columns of patches (a 1,024-px image in 16-px patches).
pub const MAX_SIDE: usize = 64;

/// A grid of patches, numbered row-major: patch i is at row ⌊i / cols⌋, column i mod cols.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    pub rows: usize,
    pub cols: usize,
}

impl Grid {
    /// A grid of 1 … [`MAX_SIDE`] rows and columns, or a plain refusal.
    pub fn new(rows: usize, cols: usize) -> Result<Grid, String> {
        for (name, n) in [("rows", rows), ("columns", cols)] {
            if n == 0 || n > MAX_SIDE {
                return Err(format!(
                    "a grid of {rows} × {cols} patches: {name} must be 1 to {MAX_SIDE}"
                ));
            }
        }
        Ok(Grid { rows, cols })
    }

    pub fn patches(&self) -> usize {
        self.rows * self.cols
    }

    /// (row, column) of patch `i`.
    pub fn cell(&self, i: usize) -> (usize, usize) {
        (i / self.cols, i % self.cols)
    }

    /// The patch at (row, column).
    pub fn patch(&self, row: usize, col: usize) -> usize {
        row * self.cols + col
    }
}

/// `1 / base^(num/den)` as the references compute it in float32: the exponent rounded to
/// float32, the power rounded to float32, then the reciprocal in float32.
fn inverse_power_f32(base: f64, num: usize, den: usize) -> f32 {
    let exponent = num as f32 / den as f32;
    let power = (base as f32 as f64).powf(exponent as f64) as f32;
    1.0 / power
}

/// MAE's 2-D sin-cos table for a grid of rows × columns (MAE's own is square).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SinCos2d {
    /// The embedding width D, a multiple of 4.
    pub d_model: usize,
    pub grid: Grid,
    /// The base of the frequencies (10,000 in MAE).
    pub base: f64,
}

impl SinCos2d {
    pub fn new(d_model: usize, grid: Grid, base: f64) -> Result<SinCos2d, String> {
        if d_model < 4 || d_model % 4 != 0 {
            return Err(format!(
                "2-D sin-cos needs a width that is a multiple of 4 (a sine and a cosine for each \
                 of the two axes); {d_model} is not"
            ));
        }
        if !(base.is_finite() && base > 1.0) {
            return Err(format!("the base must be above 1; {base} is not"));
        }
        Ok(SinCos2d {
            d_model,
            grid,
            base,
        })
    }

    /// ω_k in float32, k < D/4.
    pub fn omega(&self, k: usize) -> f32 {
        inverse_power_f32(self.base, k, self.d_model / 4)
    }

    /// Which axis channel `dim` encodes, and whether it is a sine: `(is_row, k, is_sin)`.
    pub fn channel(&self, dim: usize) -> (bool, usize, bool) {
        let (half, quarter) = (self.d_model / 2, self.d_model / 4);
        let is_row = dim >= half;
        let within = dim % half;
        (is_row, within % quarter, within < quarter)
    }

    /// The table's entry for `patch`, channel `dim`.
    pub fn value(&self, patch: usize, dim: usize) -> f64 {
        let (row, col) = self.grid.cell(patch);
        let (is_row, k, is_sin) = self.channel(dim);
        let p = if is_row { row } else { col } as f32;
        let angle = (p * self.omega(k)) as f64;
        let v = if is_sin { angle.sin() } else { angle.cos() };
        v as f32 as f64
    }

    /// One patch's vector.
    pub fn row(&self, patch: usize) -> Vec<f64> {
        (0..self.d_model).map(|d| self.value(patch, d)).collect()
    }

    /// Every patch's vector, row-major: [`SinCos2d::value`] with each ω computed once.
    pub fn table(&self) -> Vec<f64> {
        let quarter = self.d_model / 4;
        let omegas: Vec<f32> = (0..quarter).map(|k| self.omega(k)).collect();
        let mut out = Vec::with_capacity(self.grid.patches() * self.d_model);
        for patch in 0..self.grid.patches() {
            let (row, col) = self.grid.cell(patch);
            for p in [col, row] {
                let angles = omegas.iter().map(|w| (p as f32 * w) as f64);
                out.extend(angles.clone().map(|a| a.sin() as f32 as f64));
                out.extend(angles.map(|a| a.cos() as f32 as f64));
            }
        }
        out
    }
}

/// A learned 2-D table drawn N(0, 0.02²) from a seed for the grid it was trained on.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Learned2d {
    pub d_model: usize,
    pub trained: Grid,
    pub seed: u64,
}

impl Learned2d {
    /// The trained table's entry at (row, col): the 1-D learned table's row for the patch's
    /// row-major index (each cell its own seeded stream, so any part is drawn without the rest).
    pub fn value(&self, row: usize, col: usize, dim: usize) -> f64 {
        Learned::new(self.trained.patches(), self.d_model, self.seed)
            .get(self.trained.patch(row, col), dim)
            .unwrap_or(f64::NAN)
    }

    /// The table as `[row][col][dim]`, row-major.
    pub fn table(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.trained.patches() * self.d_model);
        for r in 0..self.trained.rows {
            for c in 0..self.trained.cols {
                out.extend((0..self.d_model).map(|d| self.value(r, c, d)));
            }
        }
        out
    }

    /// The table for a `target` grid: resized by bicubic interpolation, or, without it, the
    /// trained cells only (NaN where the trained grid has no patch).
    pub fn for_grid(&self, target: Grid, interpolate: bool) -> Vec<f64> {
        if interpolate {
            return bicubic_resize(&self.table(), self.trained, target, self.d_model);
        }
        let mut out = Vec::with_capacity(target.patches() * self.d_model);
        for r in 0..target.rows {
            for c in 0..target.cols {
                if r < self.trained.rows && c < self.trained.cols {
                    out.extend((0..self.d_model).map(|d| self.value(r, c, d)));
                } else {
                    out.extend(std::iter::repeat_n(f64::NAN, self.d_model));
                }
            }
        }
        out
    }
}

/// PyTorch's cubic convolution weights for a fraction t (`get_cubic_upsample_coefficients`,
/// A = −0.75, aten/src/ATen/native/UpSample.h).
pub fn cubic_weights(t: f64) -> [f64; 4] {
    const A: f64 = -0.75;
    let near = |x: f64| ((A + 2.0) * x - (A + 3.0)) * x * x + 1.0;
    let far = |x: f64| ((A * x - 5.0 * A) * x + 8.0 * A) * x - 4.0 * A;
    [far(t + 1.0), near(t), near(1.0 - t), far(2.0 - t)]
}

/// Where output index `dst` samples the input, and its four input indices and weights:
/// `area_pixel_compute_source_index` with `align_corners=False` (not clamped for cubic), the
/// input index clamped at the edges (`upsample_get_value_bounded`).
pub fn cubic_taps(dst: usize, input: usize, output: usize) -> ([usize; 4], [f64; 4]) {
    let scale = input as f64 / output as f64;
    let real = scale * (dst as f64 + 0.5) - 0.5;
    let floor = real.floor();
    let w = cubic_weights(real - floor);
    let at = |o: i64| (floor as i64 + o).clamp(0, input as i64 - 1) as usize;
    ([at(-1), at(0), at(1), at(2)], w)
}

/// A `[row][col][dim]` table resized from grid `from` to grid `to` as
/// `F.interpolate(…, mode='bicubic', align_corners=False)` does, each axis by its own scale.
pub fn bicubic_resize(table: &[f64], from: Grid, to: Grid, dims: usize) -> Vec<f64> {
    // Along columns first, then rows: the cubic filter is separable, as PyTorch's is.
    let mut wide = vec![0.0; from.rows * to.cols * dims];
    for c in 0..to.cols {
        let (idx, w) = cubic_taps(c, from.cols, to.cols);
        for r in 0..from.rows {
            for d in 0..dims {
                let v: f64 = (0..4)
                    .map(|i| w[i] * table[(r * from.cols + idx[i]) * dims + d])
                    .sum();
                wide[(r * to.cols + c) * dims + d] = v;
            }
        }
    }
    let mut out = vec![0.0; to.rows * to.cols * dims];
    for r in 0..to.rows {
        let (idx, w) = cubic_taps(r, from.rows, to.rows);
        for c in 0..to.cols {
            for d in 0..dims {
                let v: f64 = (0..4)
                    .map(|i| w[i] * wide[(idx[i] * to.cols + c) * dims + d])
                    .sum();
                out[(r * to.cols + c) * dims + d] = v;
            }
        }
    }
    out
}

/// RoPE-ViT's axial 2-D RoPE for a head of width `head_dim` (a multiple of 4).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Axial {
    pub head_dim: usize,
    pub grid: Grid,
    /// θ, 100 in RoPE-ViT's axial models.
    pub theta: f64,
}

/// θ of RoPE-ViT's axial models (`rope_axial_deit_*`).
pub const AXIAL_THETA: f64 = 100.0;
/// θ of RoPE-ViT's mixed models (`rope_mixed_deit_*`).
pub const MIXED_THETA: f64 = 10.0;

fn check_head(head_dim: usize, theta: f64) -> Result<(), String> {
    if head_dim < 4 || head_dim % 4 != 0 {
        return Err(format!(
            "2-D RoPE needs a head width that is a multiple of 4 (pairs for each of the two \
             axes); {head_dim} is not"
        ));
    }
    if !(theta.is_finite() && theta > 1.0) {
        return Err(format!("θ must be above 1; {theta} is not"));
    }
    Ok(())
}

impl Axial {
    pub fn new(head_dim: usize, grid: Grid, theta: f64) -> Result<Axial, String> {
        check_head(head_dim, theta)?;
        Ok(Axial {
            head_dim,
            grid,
            theta,
        })
    }

    /// Frequency of axis pair k < D/4, in float32: `1/θ^(4k/D)`.
    pub fn frequency(&self, k: usize) -> f32 {
        inverse_power_f32(self.theta, 4 * k, self.head_dim)
    }

    pub fn pairs(&self) -> usize {
        self.head_dim / 2
    }

    /// The angle of pair `j` at `patch`, radians (float32, as `torch.outer` computes it).
    pub fn angle(&self, patch: usize, j: usize) -> f64 {
        let quarter = self.head_dim / 4;
        let (row, col) = self.grid.cell(patch);
        let (t, k) = if j < quarter {
            (col, j)
        } else {
            (row, j - quarter)
        };
        (t as f32 * self.frequency(k)) as f64
    }
}

/// RoPE-ViT's mixed 2-D RoPE for one head: frequencies drawn at their initial values.
#[derive(Clone, Debug, PartialEq)]
pub struct Mixed {
    pub head_dim: usize,
    pub grid: Grid,
    pub theta: f64,
    /// The head's angle a_h, radians.
    pub angle: f64,
    /// Per pair, the (x, y) frequency in float32.
    freqs: Vec<(f32, f32)>,
}

impl Mixed {
    pub fn new(head_dim: usize, grid: Grid, theta: f64, angle: f64) -> Result<Mixed, String> {
        check_head(head_dim, theta)?;
        let quarter = head_dim / 4;
        let a = angle as f32;
        let (cos, sin) = (a.cos(), a.sin());
        let (cos90, sin90) = (
            (std::f32::consts::FRAC_PI_2 + a).cos(),
            (std::f32::consts::FRAC_PI_2 + a).sin(),
        );
        let mag = |k: usize| inverse_power_f32(theta, 4 * k, head_dim);
        let mut freqs: Vec<(f32, f32)> =
            (0..quarter).map(|k| (mag(k) * cos, mag(k) * sin)).collect();
        freqs.extend((0..quarter).map(|k| (mag(k) * cos90, mag(k) * sin90)));
        Ok(Mixed {
            head_dim,
            grid,
            theta,
            angle,
            freqs,
        })
    }

    /// Head `head`'s angle drawn from `seed`: uniform in [0, 2π), as `torch.rand(1) * 2π` is.
    pub fn head_angle(seed: u64, head: usize) -> f64 {
        let stream = SplitMix64::new(head as u64).next_u64();
        std::f64::consts::TAU * SplitMix64::new(seed.rotate_left(29) ^ stream).next_unit()
    }

    /// Pair `j`'s (x, y) frequency.
    pub fn frequency(&self, j: usize) -> (f64, f64) {
        let (fx, fy) = self.freqs[j];
        (fx as f64, fy as f64)
    }

    pub fn pairs(&self) -> usize {
        self.head_dim / 2
    }

    /// The angle of pair `j` at `patch`: t_x·f_x + t_y·f_y in float32.
    pub fn angle(&self, patch: usize, j: usize) -> f64 {
        let (row, col) = self.grid.cell(patch);
        let (fx, fy) = self.freqs[j];
        ((col as f32 * fx) + (row as f32 * fy)) as f64
    }
}

/// One of the four grid encodings, with what the patch views ask of it.
#[derive(Clone, Debug, PartialEq)]
pub enum GridEncoding {
    SinCos(SinCos2d),
    /// A learned table for `grid`, from its trained grid (interpolated or not).
    Learned {
        table: Learned2d,
        grid: Grid,
        interpolate: bool,
    },
    Axial(Axial),
    Mixed(Mixed),
}

impl GridEncoding {
    pub fn grid(&self) -> Grid {
        match self {
            GridEncoding::SinCos(e) => e.grid,
            GridEncoding::Learned { grid, .. } => *grid,
            GridEncoding::Axial(e) => e.grid,
            GridEncoding::Mixed(e) => e.grid,
        }
    }

    /// Whether it rotates queries and keys (RoPE) rather than being added to the input.
    pub fn is_rotary(&self) -> bool {
        matches!(self, GridEncoding::Axial(_) | GridEncoding::Mixed(_))
    }

    /// Whether the similarity of two patches depends only on their offset (every scheme but
    /// the learned table).
    pub fn shift_invariant(&self) -> bool {
        !matches!(self, GridEncoding::Learned { .. })
    }

    /// Each rotation pair's (x, y) frequency, for a 2-D RoPE: an axial pair turns with one
    /// axis only. `None` for an additive scheme.
    pub fn pair_frequencies(&self) -> Option<Vec<(f64, f64)>> {
        match self {
            GridEncoding::Axial(e) => {
                let quarter = e.head_dim / 4;
                let f = |k: usize| e.frequency(k) as f64;
                Some(
                    (0..quarter)
                        .map(|k| (f(k), 0.0))
                        .chain((0..quarter).map(|k| (0.0, f(k))))
                        .collect(),
                )
            }
            GridEncoding::Mixed(e) => Some((0..e.pairs()).map(|j| e.frequency(j)).collect()),
            _ => None,
        }
    }

    /// Position vectors of every patch, row-major (additive schemes), or `None` (RoPE).
    pub fn vectors(&self) -> Option<Vec<f64>> {
        match self {
            GridEncoding::SinCos(e) => Some(e.table()),
            GridEncoding::Learned {
                table,
                grid,
                interpolate,
            } => Some(table.for_grid(*grid, *interpolate)),
            _ => None,
        }
    }

    /// The CLS token's row of the matrix CSV (MAE's `cls_token=True`): zeros for sin-cos
    /// (`np.zeros([1, embed_dim])`), the learned table's row after the trained grid's patches
    /// (kept as it is when the table is resized, as `interpolate_pos_embed` keeps it), and
    /// angles of 0 for 2-D RoPE (RoPE-ViT turns the patches only).
    pub fn cls_row(&self) -> Vec<f64> {
        match self {
            GridEncoding::Learned { table, .. } => {
                let rows = table.trained.patches();
                let t = Learned::new(rows + 1, table.d_model, table.seed);
                (0..table.d_model)
                    .map(|d| t.get(rows, d).unwrap_or(f64::NAN))
                    .collect()
            }
            GridEncoding::Axial(_) | GridEncoding::Mixed(_) => vec![0.0; self.width() / 2],
            GridEncoding::SinCos(e) => vec![0.0; e.d_model],
        }
    }

    /// The width of a position vector, or of a head.
    pub fn width(&self) -> usize {
        match self {
            GridEncoding::SinCos(e) => e.d_model,
            GridEncoding::Learned { table, .. } => table.d_model,
            GridEncoding::Axial(e) => e.head_dim,
            GridEncoding::Mixed(e) => e.head_dim,
        }
    }

    /// The angle of every pair at every patch (RoPE), one row per patch.
    pub fn angles(&self) -> Option<Vec<Vec<f64>>> {
        let angle: &dyn Fn(usize, usize) -> f64 = match self {
            GridEncoding::Axial(e) => &|p, j| e.angle(p, j),
            GridEncoding::Mixed(e) => &|p, j| e.angle(p, j),
            _ => return None,
        };
        let pairs = self.width() / 2;
        let rows = (0..self.grid().patches()).map(|p| (0..pairs).map(|j| angle(p, j)).collect());
        Some(rows.collect())
    }
}

/// q·R(φ)q over |q|² for pairs of `q` turned by φ_j = dx·f_x + dy·f_y: each pair scores
/// |q_pair|² cos φ_j.
pub fn rotary_score(freqs: &[(f64, f64)], q: &[f64], dx: f64, dy: f64) -> f64 {
    let (mut score, mut norm) = (0.0, 0.0);
    for (pair, (fx, fy)) in q.chunks_exact(2).zip(freqs) {
        let sq = pair[0] * pair[0] + pair[1] * pair[1];
        score += sq * (dx * fx + dy * fy).cos();
        norm += sq;
    }
    if norm > 0.0 {
        score / norm
    } else {
        0.0
    }
}

/// Mean over pairs of cos(x·f_x + y·f_y), for every y of `ys` (rows) and x of `xs` (columns),
/// row-major: by angle addition (cos(a + b) = cos a cos b − sin a sin b) from one (sin, cos)
/// table per axis, so rows·cols·pairs multiply-adds but only (rows + cols)·pairs sines.
pub fn mean_pair_cos(freqs: &[(f64, f64)], xs: &[f64], ys: &[f64]) -> Vec<f64> {
    let pairs = freqs.len();
    let table = |at: &[f64], axis: fn(&(f64, f64)) -> f64| -> Vec<(f64, f64)> {
        at.iter()
            .flat_map(|t| freqs.iter().map(move |f| (t * axis(f)).sin_cos()))
            .collect()
    };
    let (xt, yt) = (table(xs, |f| f.0), table(ys, |f| f.1));
    let mut out = Vec::with_capacity(xs.len() * ys.len());
    for y in yt.chunks_exact(pairs.max(1)).take(ys.len()) {
        for x in xt.chunks_exact(pairs.max(1)).take(xs.len()) {
            let sum: f64 = x
                .iter()
                .zip(y)
                .map(|((sa, ca), (sb, cb))| ca * cb - sa * sb)
                .sum();
            out.push(sum / pairs.max(1) as f64);
        }
    }
    out
}

/// Σ_k cos(t·ω_k) for t in −(n − 1) … n − 1 (index t + n − 1).
fn cos_sums(omegas: &[f64], n: usize) -> Vec<f64> {
    (0..2 * n - 1)
        .map(|i| {
            let t = i as f64 - (n as f64 - 1.0);
            omegas.iter().map(|w| (t * w).cos()).sum()
        })
        .collect()
}

/// Cosine similarity of two vectors (NaN when either is missing or zero).
pub fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let (mut ab, mut aa, mut bb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        ab += x * y;
        aa += x * x;
        bb += y * y;
    }
    let den = (aa * bb).sqrt();
    if den > 0.0 && den.is_finite() {
        ab / den
    } else {
        f64::NAN
    }
}

/// Every patch's similarity with every other, computed once: by offset where the scheme is
/// shift-invariant ((2R − 1) × (2C − 1) numbers), else from the vectors.
pub struct Similarity {
    grid: Grid,
    by_offset: Option<Vec<f64>>,
    vectors: Vec<f64>,
    width: usize,
}

impl Similarity {
    pub fn of(e: &GridEncoding) -> Similarity {
        let grid = e.grid();
        let (w, h) = (2 * grid.cols - 1, 2 * grid.rows - 1);
        // A column term plus a row term (sin-cos, axial RoPE): two 1-D tables, not R·C·D cosines.
        let separable = |omegas: Vec<f64>| {
            let (cols, rows) = (cos_sums(&omegas, grid.cols), cos_sums(&omegas, grid.rows));
            let n = (2 * omegas.len()) as f64;
            let mut t = Vec::with_capacity(w * h);
            for r in &rows {
                t.extend(cols.iter().map(|c| (c + r) / n));
            }
            t
        };
        let by_offset = match e {
            GridEncoding::SinCos(s) => Some(separable(
                (0..s.d_model / 4).map(|k| s.omega(k) as f64).collect(),
            )),
            GridEncoding::Axial(a) => Some(separable(
                (0..a.head_dim / 4).map(|k| a.frequency(k) as f64).collect(),
            )),
            GridEncoding::Mixed(m) => {
                let offsets = |n: usize| -> Vec<f64> {
                    (0..2 * n - 1)
                        .map(|i| i as f64 - (n as f64 - 1.0))
                        .collect()
                };
                let freqs: Vec<(f64, f64)> = (0..m.pairs()).map(|j| m.frequency(j)).collect();
                Some(mean_pair_cos(
                    &freqs,
                    &offsets(grid.cols),
                    &offsets(grid.rows),
                ))
            }
            GridEncoding::Learned { .. } => None,
        };
        // Unit vectors, so a similarity is one dot product.
        let width = e.width();
        let vectors = if by_offset.is_none() {
            let mut v = e.vectors().unwrap_or_default();
            for row in v.chunks_exact_mut(width) {
                let norm = row.iter().map(|x| x * x).sum::<f64>().sqrt();
                let scale = if norm > 0.0 && norm.is_finite() {
                    1.0 / norm
                } else {
                    f64::NAN
                };
                row.iter_mut().for_each(|x| *x *= scale);
            }
            v
        } else {
            Vec::new()
        };
        Similarity {
            grid,
            by_offset,
            vectors,
            width,
        }
    }

    /// Patch `a`'s similarity with every patch of row `r`, as one slice of the offset table
    /// (shift-invariant schemes only).
    pub fn row_from(&self, a: usize, r: usize) -> Option<&[f64]> {
        let g = self.grid;
        let t = self.by_offset.as_ref()?;
        let (ra, ca) = g.cell(a);
        let start = (r + g.rows - 1 - ra) * (2 * g.cols - 1) + (g.cols - 1 - ca);
        t.get(start..start + g.cols)
    }

    /// The similarity at offset (dx, dy) of a shift-invariant scheme.
    pub fn at_offset(&self, dx: i64, dy: i64) -> Option<f64> {
        let g = self.grid;
        let (x, y) = (dx + g.cols as i64 - 1, dy + g.rows as i64 - 1);
        let inside =
            (0..2 * g.cols as i64 - 1).contains(&x) && (0..2 * g.rows as i64 - 1).contains(&y);
        let t = self.by_offset.as_ref()?;
        inside.then(|| t[y as usize * (2 * g.cols - 1) + x as usize])
    }

    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The similarity of patches `a` and `b`.
    pub fn between(&self, a: usize, b: usize) -> f64 {
        let g = self.grid;
        match &self.by_offset {
            Some(t) => {
                let ((ra, ca), (rb, cb)) = (g.cell(a), g.cell(b));
                let dx = cb + g.cols - 1 - ca;
                let dy = rb + g.rows - 1 - ra;
                t[dy * (2 * g.cols - 1) + dx]
            }
            None => {
                let w = self.width;
                let (va, vb) = (
                    &self.vectors[a * w..(a + 1) * w],
                    &self.vectors[b * w..(b + 1) * w],
                );
                // Unit vectors, widths a multiple of 4: two equal halves for the SIMD kernel.
                let half = w / 2;
                super::kernels::dot2(&va[..half], &vb[..half], &va[half..], &vb[half..])
            }
        }
    }
}
