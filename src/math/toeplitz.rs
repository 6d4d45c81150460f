//! Matrices whose cell (row, col) depends only on col − row: attention-score biases (ALiBi, T5)
//! and the similarity of sinusoidal encodings. Block means for drawing cost O(1) per pixel through
//! double prefix sums; undefined cells (NaN, e.g. masked future keys) are left out of the means.

use super::binning::Bins;
use super::matrix::Matrix;

/// A `length × length` matrix with cell (r, c) = f(c − r).
#[derive(Clone, Debug, PartialEq)]
pub struct Toeplitz {
    pub length: usize,
    /// f(k) at index k + length − 1, for k = −(length − 1) ..= length − 1. NaN: undefined.
    values: Vec<f64>,
    /// Double prefix sums of the defined values and of the count of defined values.
    sums: Vec<f64>,
    counts: Vec<f64>,
}

impl Toeplitz {
    /// The matrix of `f` over every offset k = col − row.
    pub fn new(length: usize, f: impl Fn(i64) -> f64) -> Toeplitz {
        let length = length.max(1);
        let l = length as i64 - 1;
        Toeplitz::from_values(length, (-l..=l).map(f).collect())
    }

    /// The matrix from f(k) listed for k = −(length − 1) ..= length − 1.
    pub fn from_values(length: usize, values: Vec<f64>) -> Toeplitz {
        let double = |x: &dyn Fn(f64) -> f64| {
            let mut first = Vec::with_capacity(values.len() + 1);
            let mut running = 0.0;
            first.push(0.0);
            for v in &values {
                running += x(*v);
                first.push(running);
            }
            let mut second = Vec::with_capacity(first.len() + 1);
            let mut running = 0.0;
            second.push(0.0);
            for v in &first {
                running += v;
                second.push(running);
            }
            second
        };
        let sums = double(&|v| if v.is_nan() { 0.0 } else { v });
        let counts = double(&|v| if v.is_nan() { 0.0 } else { 1.0 });
        Toeplitz {
            length,
            values,
            sums,
            counts,
        }
    }

    /// f(k), NaN outside the matrix or where undefined.
    pub fn at(&self, k: i64) -> f64 {
        let i = k + self.length as i64 - 1;
        if (0..self.values.len() as i64).contains(&i) {
            self.values[i as usize]
        } else {
            f64::NAN
        }
    }

    /// Σ and count of the defined cells in rows r0..r1 × cols c0..c1.
    fn block(&self, r0: usize, r1: usize, c0: usize, c1: usize) -> (f64, f64) {
        let l = self.length;
        let g = |table: &[f64]| {
            table[c1 + l - r0] - table[c1 + l - r1] - table[c0 + l - r0] + table[c0 + l - r1]
        };
        (g(&self.sums), g(&self.counts))
    }
}

impl Matrix for Toeplitz {
    fn shape(&self) -> (usize, usize) {
        (self.length, self.length)
    }

    fn value(&self, row: usize, col: usize) -> f64 {
        if row >= self.length || col >= self.length {
            return f64::NAN;
        }
        self.at(col as i64 - row as i64)
    }

    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        let mut out = Vec::with_capacity(rows.count() * cols.count());
        for r in 0..rows.count() {
            let rr = rows.range(r);
            for c in 0..cols.count() {
                let cr = cols.range(c);
                let (sum, count) = self.block(rr.start, rr.end, cr.start, cr.end);
                // Counts are whole numbers held exactly in f64; below one half means none.
                out.push(if count < 0.5 {
                    f32::NAN
                } else {
                    (sum / count) as f32
                });
            }
        }
        out
    }
}
