//! A matrix the heatmap can draw: exact cells for the readout and exports, block means for pixels.

use super::binning::Bins;

/// A read-only matrix of numbers; NaN marks a cell that does not exist (e.g. a learned position
/// past the table).
pub trait Matrix {
    /// Rows and columns.
    fn shape(&self) -> (usize, usize);

    fn rows(&self) -> usize {
        self.shape().0
    }

    fn cols(&self) -> usize {
        self.shape().1
    }

    /// The exact value of one cell.
    fn value(&self, row: usize, col: usize) -> f64;

    /// What a drawn pixel shows when it covers several cells.
    fn summary(&self) -> BlockSummary {
        BlockSummary::Mean
    }

    /// How many neighbouring columns form one unit (2 when sines and cosines interleave). When
    /// columns must be averaged for drawing, they are averaged in whole units.
    fn column_group(&self) -> usize {
        1
    }

    /// Row-major means of each block `rows.range(r) × cols.range(c)`, ignoring undefined cells
    /// (NaN when a whole block is undefined). The default visits every cell; large matrices
    /// override it with something that does not.
    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        let (nr, nc) = (rows.count(), cols.count());
        let mut out = Vec::with_capacity(nr * nc);
        for r in 0..nr {
            for c in 0..nc {
                let (mut sum, mut n) = (0.0, 0usize);
                for row in rows.range(r) {
                    for col in cols.range(c) {
                        let v = self.value(row, col);
                        if !v.is_nan() {
                            sum += v;
                            n += 1;
                        }
                    }
                }
                out.push(if n == 0 {
                    f32::NAN
                } else {
                    (sum / n as f64) as f32
                });
            }
        }
        out
    }
}

/// What one drawn pixel of a large matrix stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockSummary {
    /// The mean of the cells it covers.
    Mean,
    /// One of the cells it covers (for random tables, where a mean hides everything).
    Sample,
    /// The cell at its corner (for functions computed cell by cell, too costly to average).
    Point,
}

/// One cell per block, the block's first (for [`BlockSummary::Sample`] and
/// [`BlockSummary::Point`]).
pub fn point_samples(m: &dyn Matrix, rows: &Bins, cols: &Bins) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows.count() * cols.count());
    for r in 0..rows.count() {
        let row = rows.range(r).start;
        for c in 0..cols.count() {
            out.push(m.value(row, cols.range(c).start) as f32);
        }
    }
    out
}

/// A square matrix computed cell by cell from a function (NaN: undefined), too costly to
/// average: a pixel shows one cell ([`BlockSummary::Point`]).
pub struct Computed<F: Fn(usize, usize) -> f64> {
    pub size: usize,
    pub at: F,
}

impl<F: Fn(usize, usize) -> f64> Matrix for Computed<F> {
    fn shape(&self) -> (usize, usize) {
        (self.size, self.size)
    }
    fn value(&self, row: usize, col: usize) -> f64 {
        (self.at)(row, col)
    }
    fn summary(&self) -> BlockSummary {
        BlockSummary::Point
    }
    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        point_samples(self, rows, cols)
    }
}

/// A small dense matrix held in memory, row-major.
#[derive(Clone, Debug, PartialEq)]
pub struct Dense {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<f64>,
}

impl Dense {
    pub fn new(rows: usize, cols: usize, data: Vec<f64>) -> Dense {
        debug_assert_eq!(data.len(), rows * cols);
        Dense { rows, cols, data }
    }
}

impl Dense {
    /// Cell (row, col), NaN outside.
    pub fn value_at(&self, row: usize, col: usize) -> f64 {
        if row >= self.rows || col >= self.cols {
            return f64::NAN;
        }
        self.data[row * self.cols + col]
    }
}

impl Matrix for Dense {
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }
    fn value(&self, row: usize, col: usize) -> f64 {
        self.value_at(row, col)
    }
}
