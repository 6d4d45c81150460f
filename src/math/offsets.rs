//! Dot products between encoding vectors: by offset from an anchor position, the closed form
//! Σᵢ cos(k·ωᵢ), and the position × position similarity matrix.
//!
//! For a sine and a cosine sharing one frequency, sin(pω)·sin(qω) + cos(pω)·cos(qω) =
//! cos((q − p)·ω): the product depends only on the offset. The anchor curves here are computed
//! as real dot products of encoding rows, so the chart *shows* that they coincide with the
//! closed form rather than assuming it.

use std::ops::Range;
use std::rc::Rc;

use super::binning::Bins;
use super::chunked::Chunked;
use super::matrix::Matrix;
use super::sinusoidal::{Column, Sinusoidal, Wave};
use super::toeplitz::Toeplitz;
use super::walk::PairWalk;
use super::wave::add_wave_means;

/// The columns of an encoding sorted by role.
#[derive(Clone, Debug, PartialEq)]
pub struct PairStructure {
    /// Angular frequencies of complete sin/cos pairs.
    pub pairs: Vec<f64>,
    /// The (sine, cosine) columns of each complete pair.
    pub columns: Vec<(usize, usize)>,
    /// Columns with no partner of the same frequency (the lone sine of an odd interleaved width).
    pub lone: Vec<Column>,
}

impl PairStructure {
    pub fn of(encoding: &Sinusoidal) -> PairStructure {
        let count = encoding.pair_count();
        let mut has = vec![(false, false); count];
        let mut lone = Vec::new();
        let columns = encoding.columns();
        for c in &columns {
            if let Some(i) = c.pair {
                match c.wave {
                    Wave::Sin => has[i].0 = true,
                    Wave::Cos => has[i].1 = true,
                    Wave::Zero => {}
                }
            }
        }
        let mut pairs = Vec::with_capacity(count);
        let mut where_ = vec![(usize::MAX, usize::MAX); count];
        for (c, col) in columns.iter().enumerate() {
            match (col.pair, col.wave) {
                (Some(i), Wave::Sin) => where_[i].0 = c,
                (Some(i), Wave::Cos) => where_[i].1 = c,
                _ => {}
            }
        }
        let mut pair_columns = Vec::with_capacity(count);
        for (i, (sin, cos)) in has.iter().enumerate() {
            if *sin && *cos {
                pairs.push(encoding.omega(i));
                pair_columns.push(where_[i]);
            }
        }
        for c in columns {
            if let Some(i) = c.pair {
                if !(has[i].0 && has[i].1) {
                    lone.push(c);
                }
            }
        }
        PairStructure {
            pairs,
            columns: pair_columns,
            lone,
        }
    }

    /// |PE(q)|²: one per complete pair, plus the lone columns' squares.
    pub fn norm_squared(&self, position: usize) -> f64 {
        let p = position as f64;
        self.pairs.len() as f64 + self.lone.iter().map(|c| c.value(p).powi(2)).sum::<f64>()
    }
}

/// PE(p) · PE(q), straight from the formula.
pub fn dot(encoding: &Sinusoidal, p: usize, q: usize) -> f64 {
    let (p, q) = (p as f64, q as f64);
    encoding
        .columns()
        .iter()
        .map(|c| c.value(p) * c.value(q))
        .sum()
}

/// |PE(p)|, straight from the formula.
pub fn norm(encoding: &Sinusoidal, position: usize) -> f64 {
    dot(encoding, position, position).sqrt()
}

/// The closed form Σᵢ cos(k·ωᵢ) over complete pairs.
pub fn closed_form(encoding: &Sinusoidal, offset: i64) -> f64 {
    let k = offset as f64;
    PairStructure::of(encoding)
        .pairs
        .iter()
        .map(|w| (k * w).cos())
        .sum()
}

/// An anchor position's encoding in the pair basis, plus its lone columns.
struct AnchorRow {
    sin: Vec<f64>,
    cos: Vec<f64>,
    lone: Vec<f64>,
}

impl AnchorRow {
    fn new(structure: &PairStructure, position: usize) -> Self {
        let p = position as f64;
        let (sin, cos) = structure.pairs.iter().map(|w| (p * w).sin_cos()).unzip();
        AnchorRow {
            sin,
            cos,
            lone: structure.lone.iter().map(|c| c.value(p)).collect(),
        }
    }

    /// The lone columns' part of PE(p)·PE(q).
    fn lone_dot(&self, structure: &PairStructure, q: usize) -> f64 {
        let q = q as f64;
        structure
            .lone
            .iter()
            .zip(&self.lone)
            .map(|(c, v)| v * c.value(q))
            .sum()
    }
}

/// The closed form Σᵢ cos(kωᵢ) for k = 0..length.
pub fn closed_form_curve(structure: &PairStructure, length: usize) -> Vec<f64> {
    let mut out = Vec::with_capacity(length);
    extend_closed_form(structure, 0..length, &mut out);
    out
}

/// Appends Σᵢ cos(kωᵢ) for the offsets k in `range` to `out`.
fn extend_closed_form(structure: &PairStructure, range: Range<usize>, out: &mut Vec<f64>) {
    let mut walk = PairWalk::new(&structure.pairs, range.start, 1);
    for _ in range {
        out.push(walk.sum_cos());
        walk.advance();
    }
}

/// PE(p)·PE(p + k) for every anchor p and every k with 0 ≤ p + k < length, as real dot products
/// of encoding rows: `result[a][k + length − 1]`, NaN outside.
pub fn anchor_curves(encoding: &Sinusoidal, length: usize, anchors: &[usize]) -> Vec<Vec<f64>> {
    let structure = PairStructure::of(encoding);
    let length = length.max(1);
    let rows: Vec<AnchorRow> = anchors
        .iter()
        .map(|&p| AnchorRow::new(&structure, p))
        .collect();
    let mut out = vec![vec![f64::NAN; 2 * length - 1]; anchors.len()];
    let mut walk = PairWalk::new(&structure.pairs, 0, 1);
    for q in 0..length {
        for (a, &p) in anchors.iter().enumerate() {
            if p < length {
                let v = walk.dot(&rows[a].sin, &rows[a].cos) + rows[a].lone_dot(&structure, q);
                out[a][q + length - 1 - p] = v;
            }
        }
        walk.advance();
    }
    out
}

/// v·PE(q) for q = start, start + stride, … below `length`, in O(pairs) per position.
pub fn dot_with_rows(
    encoding: &Sinusoidal,
    v: &[f64],
    length: usize,
    start: usize,
    stride: usize,
) -> Vec<f64> {
    let structure = PairStructure::of(encoding);
    let at = |c: usize| v.get(c).copied().unwrap_or(0.0);
    let row = AnchorRow {
        sin: structure.columns.iter().map(|(s, _)| at(*s)).collect(),
        cos: structure.columns.iter().map(|(_, c)| at(*c)).collect(),
        lone: Vec::new(),
    };
    let lone: Vec<(Column, f64)> = (0..encoding.d_model)
        .map(|c| (c, encoding.column(c)))
        .filter(|(c, col)| {
            col.wave != Wave::Zero && !structure.columns.iter().any(|(s, k)| s == c || k == c)
        })
        .map(|(c, col)| (col, at(c)))
        .collect();
    let mut walk = PairWalk::new(&structure.pairs, start, stride.max(1));
    let mut out = Vec::new();
    while walk.position() < length {
        let q = walk.position() as f64;
        out.push(
            walk.dot(&row.sin, &row.cos) + lone.iter().map(|(c, w)| w * c.value(q)).sum::<f64>(),
        );
        walk.advance();
    }
    out
}

/// One measured dot product PE(p)·PE(p + k).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measured {
    pub offset: i64,
    pub dot: f64,
    /// The same as a cosine similarity.
    pub cosine: f64,
}

/// What the offset chart shows: the closed form at every offset, and for each anchor real dot
/// products at a sample of offsets spread over its whole range.
#[derive(Clone, Debug, PartialEq)]
pub struct OffsetCurves {
    pub length: usize,
    pub anchors: Vec<usize>,
    /// `closed[k + length − 1]` = Σᵢ cos(k·ωᵢ), for k in −(length − 1) ..= length − 1.
    pub closed: Vec<f64>,
    /// Number of complete pairs: the closed form at k = 0, and its normaliser.
    pub pair_count: usize,
    pub measured: Vec<Vec<Measured>>,
}

impl OffsetCurves {
    /// The offsets on the x axis: −(length − 1) ..= length − 1.
    pub fn offsets(&self) -> std::ops::RangeInclusive<i64> {
        let l = self.length as i64 - 1;
        -l..=l
    }

    /// Index of offset `k` in `closed`.
    pub fn index(&self, k: i64) -> Option<usize> {
        let i = k + self.length as i64 - 1;
        (0..self.closed.len() as i64)
            .contains(&i)
            .then_some(i as usize)
    }

    /// The closed form at offset `k`, as a dot product or divided by the pairs' |PE|².
    pub fn closed_at(&self, k: i64, normalised: bool) -> f64 {
        let v = self.index(k).map_or(f64::NAN, |i| self.closed[i]);
        if normalised {
            v / self.pair_count.max(1) as f64
        } else {
            v
        }
    }

    /// The largest |measured − closed form| over every measured point (dot products).
    pub fn largest_gap(&self) -> f64 {
        self.comparison().1
    }

    /// How many measured points were compared with the closed form (both finite), and the
    /// largest gap among them.
    pub fn comparison(&self) -> (usize, f64) {
        self.measured
            .iter()
            .flatten()
            .map(|m| (m.dot - self.closed_at(m.offset, false)).abs())
            .filter(|g| g.is_finite())
            .fold((0, 0.0), |(n, worst), g| (n + 1, f64::max(worst, g)))
    }
}

/// The closed form Σᵢ cos(kωᵢ) for k = 0..length, computed once and shared by the offset chart
/// and the similarity matrix.
#[derive(Clone, Debug, PartialEq)]
pub struct ClosedForm {
    pub encoding: Sinusoidal,
    pub length: usize,
    pub structure: PairStructure,
    /// `half[k]` for k = 0..length (the closed form is even in k).
    pub half: Vec<f64>,
}

impl ClosedForm {
    pub fn new(encoding: Sinusoidal, length: usize) -> ClosedForm {
        let mut form = ClosedForm::job(encoding, length);
        form.compute(0..form.length);
        form
    }

    /// The same computation, to be done a range of offsets at a time.
    pub fn job(encoding: Sinusoidal, length: usize) -> ClosedForm {
        let length = length.max(1);
        ClosedForm {
            encoding,
            length,
            structure: PairStructure::of(&encoding),
            half: Vec::with_capacity(length),
        }
    }
}

impl Chunked for ClosedForm {
    type Output = Rc<ClosedForm>;

    fn len(&self) -> usize {
        self.length
    }

    fn cost(&self) -> usize {
        self.structure.pairs.len().max(1)
    }

    fn compute(&mut self, range: Range<usize>) {
        extend_closed_form(&self.structure, range, &mut self.half);
    }

    fn finish(self) -> Rc<ClosedForm> {
        Rc::new(self)
    }
}

/// The closed form at every offset and up to `samples` measured dot products per anchor. Each
/// anchor's sample positions are shifted a little so markers of different anchors interleave.
pub fn offset_curves(
    encoding: &Sinusoidal,
    length: usize,
    anchors: &[usize],
    samples: usize,
) -> OffsetCurves {
    offset_curves_from(&ClosedForm::new(*encoding, length), anchors, samples)
}

/// [`offset_curves`] reusing a computed closed form.
pub fn offset_curves_from(form: &ClosedForm, anchors: &[usize], samples: usize) -> OffsetCurves {
    let (structure, length, half) = (&form.structure, form.length, &form.half);
    let anchors: Vec<usize> = anchors.iter().map(|&p| p.min(length - 1)).collect();
    let mut closed = Vec::with_capacity(2 * length - 1);
    closed.extend(half.iter().skip(1).rev());
    closed.extend(half);

    let samples = samples.max(2);
    let stride = if length <= samples {
        1
    } else {
        (length - 1).div_ceil(samples - 1)
    };
    let measured = anchors
        .iter()
        .enumerate()
        .map(|(a, &p)| {
            let row = AnchorRow::new(structure, p);
            let norm_p = structure.norm_squared(p).sqrt();
            let start = if stride > 1 {
                a * stride / (anchors.len() + 1)
            } else {
                0
            };
            let mut walk = PairWalk::new(&structure.pairs, start, stride);
            let mut out = Vec::new();
            while walk.position() < length {
                let q = walk.position();
                let dot = walk.dot(&row.sin, &row.cos) + row.lone_dot(structure, q);
                out.push(Measured {
                    offset: q as i64 - p as i64,
                    dot,
                    cosine: dot / (norm_p * structure.norm_squared(q).sqrt()),
                });
                walk.advance();
            }
            out
        })
        .collect();
    OffsetCurves {
        length,
        anchors,
        closed,
        pair_count: structure.pairs.len(),
        measured,
    }
}

/// The position × position matrix of PE(r)·PE(c) (or its cosine), drawn from the offset curve.
#[derive(Clone, Debug, PartialEq)]
pub struct SimilarityMatrix {
    pub encoding: Sinusoidal,
    pub length: usize,
    pub normalised: bool,
    form: Rc<ClosedForm>,
    /// The closed form laid out as a matrix, for O(1) block sums.
    toeplitz: Toeplitz,
}

impl SimilarityMatrix {
    pub fn new(encoding: Sinusoidal, length: usize, normalised: bool) -> SimilarityMatrix {
        SimilarityMatrix::from_closed(Rc::new(ClosedForm::new(encoding, length)), normalised)
    }

    /// The matrix of an already computed closed form.
    pub fn from_closed(form: Rc<ClosedForm>, normalised: bool) -> SimilarityMatrix {
        let (encoding, length) = (form.encoding, form.length);
        let toeplitz = Toeplitz::new(length, |k| form.half[k.unsigned_abs() as usize]);
        SimilarityMatrix {
            encoding,
            length,
            normalised,
            form,
            toeplitz,
        }
    }

    /// The largest magnitude a cell can have (for the colour scale).
    pub fn magnitude(&self) -> f64 {
        if self.normalised {
            1.0
        } else {
            self.form.structure.pairs.len() as f64 + self.form.structure.lone.len() as f64
        }
    }
}

impl SimilarityMatrix {
    /// A cell from the closed form and the lone columns (what the CSV writes): the same value as
    /// [`Matrix::value`] to about 1e-12, at O(1) cost instead of O(d).
    pub fn table_value(&self, row: usize, col: usize) -> f64 {
        if row >= self.length || col >= self.length {
            return f64::NAN;
        }
        let k = col.abs_diff(row);
        let mut v = self.form.half[k];
        let (r, c) = (row as f64, col as f64);
        v += self
            .form
            .structure
            .lone
            .iter()
            .map(|col| col.value(r) * col.value(c))
            .sum::<f64>();
        if self.normalised {
            v /= (self.form.structure.norm_squared(row) * self.form.structure.norm_squared(col))
                .sqrt();
        }
        v
    }
}

/// The similarity matrix read through [`SimilarityMatrix::table_value`], for exports.
pub struct SimilarityTable<'a>(pub &'a SimilarityMatrix);

impl Matrix for SimilarityTable<'_> {
    fn shape(&self) -> (usize, usize) {
        (self.0.length, self.0.length)
    }
    fn value(&self, row: usize, col: usize) -> f64 {
        self.0.table_value(row, col)
    }
}

impl Matrix for SimilarityMatrix {
    fn shape(&self) -> (usize, usize) {
        (self.length, self.length)
    }

    fn value(&self, row: usize, col: usize) -> f64 {
        if row >= self.length || col >= self.length {
            return f64::NAN;
        }
        let v = dot(&self.encoding, row, col);
        if self.normalised {
            v / (norm(&self.encoding, row) * norm(&self.encoding, col))
        } else {
            v
        }
    }

    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        let (nr, nc) = (rows.count(), cols.count());
        // The lone columns' part is separable: mean over rows times mean over columns.
        let lone: Vec<(Vec<f64>, Vec<f64>)> = self
            .form
            .structure
            .lone
            .iter()
            .map(|c| {
                let (mut r, mut k) = (vec![0.0; nr], vec![0.0; nc]);
                add_wave_means(c.wave, c.omega, rows, &mut r);
                add_wave_means(c.wave, c.omega, cols, &mut k);
                (r, k)
            })
            .collect();
        let centre_norm = |bins: &Bins, k: usize| {
            let r = bins.range(k);
            self.form
                .structure
                .norm_squared((r.start + r.end - 1) / 2)
                .sqrt()
        };
        let row_norms: Vec<f64> = (0..nr).map(|k| centre_norm(rows, k)).collect();
        let col_norms: Vec<f64> = (0..nc).map(|k| centre_norm(cols, k)).collect();
        let mut out = self.toeplitz.block_means(rows, cols);
        for r in 0..nr {
            for c in 0..nc {
                let mut v = out[r * nc + c] as f64;
                v += lone.iter().map(|(a, b)| a[r] * b[c]).sum::<f64>();
                if self.normalised {
                    v /= row_norms[r] * col_norms[c];
                }
                out[r * nc + c] = v as f32;
            }
        }
        out
    }
}
