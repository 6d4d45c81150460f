//! Work measured by the side-by-side benchmark (tests/e2e/bench.mjs): the app's own code paths,
//! callable from JavaScript through the exports in `main.rs`.

use crate::math::binning::Bins;
use crate::math::matrix::Matrix;
use crate::math::sinusoidal::{Sinusoidal, SinusoidalMatrix, Variant};

/// Every cell of the paper's `length × d_model` matrix, computed as the heatmap computes it when
/// each cell has a pixel of its own (closed-form block means over one position, one column at a
/// time; f32 out). Returns the sum of the cells, so no work can be skipped.
pub fn sinusoidal_checksum(length: usize, d_model: usize, base: f64) -> f64 {
    let m = SinusoidalMatrix::new(Sinusoidal::new(Variant::Paper, d_model, base), length);
    m.block_means(&Bins::each(0, length), &Bins::each(0, d_model))
        .iter()
        .map(|&v| v as f64)
        .sum()
}
