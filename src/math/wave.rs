//! Waves of position: a column that is sin(p·ω), cos(p·ω) or zero, and a matrix of such columns
//! drawn through closed-form block means (the sinusoidal encoding, RoPE's cos table).

use super::binning::{for_each_mean_phasor, Bins};
use super::matrix::Matrix;
use super::walk::PairWalk;

/// Which wave a column holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wave {
    Sin,
    Cos,
    /// The padding column of the split-halves libraries when d_model is odd.
    Zero,
}

impl Wave {
    pub fn name(self) -> &'static str {
        match self {
            Wave::Sin => "sin",
            Wave::Cos => "cos",
            Wave::Zero => "0",
        }
    }

    /// The wave evaluated at an angle.
    pub fn at(self, angle: f64) -> f64 {
        match self {
            Wave::Sin => angle.sin(),
            Wave::Cos => angle.cos(),
            Wave::Zero => 0.0,
        }
    }
}

/// One column of the encoding matrix: a wave of position with one angular frequency.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Column {
    pub wave: Wave,
    /// The frequency index i; `None` for a zero column.
    pub pair: Option<usize>,
    /// Angular frequency in radians per position (0 for a zero column).
    pub omega: f64,
}

impl Column {
    pub fn value(&self, position: f64) -> f64 {
        self.wave.at(position * self.omega)
    }

    /// Wavelength in positions, 2π/ω; infinite for a zero column.
    pub fn wavelength(&self) -> f64 {
        wavelength(self.omega)
    }
}

/// Wavelength in positions of a wave with angular frequency ω.
pub fn wavelength(omega: f64) -> f64 {
    if omega > 0.0 {
        std::f64::consts::TAU / omega
    } else {
        f64::INFINITY
    }
}

/// A `length × columns` matrix whose every column is a wave of the row index.
#[derive(Clone, Debug, PartialEq)]
pub struct WaveMatrix {
    pub columns: Vec<Column>,
    pub length: usize,
    /// Neighbouring columns that form one unit when averaged for drawing (2 for interleaved
    /// sin/cos).
    pub group: usize,
}

impl WaveMatrix {
    pub fn new(columns: Vec<Column>, length: usize, group: usize) -> WaveMatrix {
        WaveMatrix {
            columns,
            length,
            group,
        }
    }
}

/// Largest row bin (positions per pixel row) drawn by walking every position: below this,
/// summing a few exact cells beats a closed-form mean per cell.
const WALK_MAX_BIN: usize = 2;

impl WaveMatrix {
    /// Block means when every row bin holds a few positions: walk the positions in order,
    /// turning every column's phasor one step (SIMD), read sin or cos off it, and average the
    /// positions of each bin. Row-major and one complex multiplication per cell, instead of a
    /// strided closed-form pass per column.
    fn walk_rows(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        let (nr, nc) = (rows.count(), cols.count());
        let omegas: Vec<f64> = self.columns.iter().map(|c| c.omega).collect();
        let pick = |w: Wave| -> Vec<f64> {
            self.columns
                .iter()
                .map(|c| f64::from(u8::from(c.wave == w)))
                .collect()
        };
        let (on_sin, on_cos) = (pick(Wave::Sin), pick(Wave::Cos));
        let single = cols.sizes().1 <= 1 && nc == self.columns.len();
        let mut at = rows.start;
        let mut walk = PairWalk::new(&omegas, at, 1);
        let mut acc = vec![0.0f64; nc];
        let mut out = Vec::with_capacity(nr * nc);
        for r in 0..nr {
            let span = rows.range(r);
            if span.start != at {
                walk = PairWalk::new(&omegas, span.start, 1);
            }
            at = span.end;
            if span.len() == 1 && single {
                // One position per pixel row: the cells themselves.
                let (re, im) = walk.phasors();
                out.extend((0..nc).map(|j| (on_sin[j] * im[j] + on_cos[j] * re[j]) as f32));
                walk.advance();
                continue;
            }
            let n = span.len().max(1) as f64;
            acc.iter_mut().for_each(|a| *a = 0.0);
            for _ in span {
                let (re, im) = walk.phasors();
                if single {
                    for (j, a) in acc.iter_mut().enumerate() {
                        *a += on_sin[j] * im[j] + on_cos[j] * re[j];
                    }
                } else {
                    for (c, a) in acc.iter_mut().enumerate() {
                        let dims = cols.range(c);
                        let k = dims.len().max(1) as f64;
                        let sum: f64 = dims.map(|j| on_sin[j] * im[j] + on_cos[j] * re[j]).sum();
                        *a += sum / k;
                    }
                }
                walk.advance();
            }
            out.extend(acc.iter().map(|a| (a / n) as f32));
        }
        out
    }
}

impl Matrix for WaveMatrix {
    fn shape(&self) -> (usize, usize) {
        (self.length, self.columns.len())
    }

    fn value(&self, row: usize, col: usize) -> f64 {
        self.columns
            .get(col)
            .map_or(f64::NAN, |c| c.value(row as f64))
    }

    fn column_group(&self) -> usize {
        self.group
    }

    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        if rows.sizes().1 <= WALK_MAX_BIN {
            return self.walk_rows(rows, cols);
        }
        let (nr, nc) = (rows.count(), cols.count());
        let mut out = vec![0.0f32; nr * nc];
        let mut sums = vec![0.0f64; nr];
        for c in 0..nc {
            sums.iter_mut().for_each(|s| *s = 0.0);
            let dims = cols.range(c);
            let n = dims.len() as f64;
            // Neighbouring columns of one frequency (an interleaved sin/cos pair) share a walk:
            // it gives the means of both waves at once.
            let columns = &self.columns[dims];
            let mut k = 0;
            while k < columns.len() {
                let omega = columns[k].omega;
                let (mut sin, mut cos) = (0.0, 0.0);
                while k < columns.len() && columns[k].omega.to_bits() == omega.to_bits() {
                    match columns[k].wave {
                        Wave::Sin => sin += 1.0,
                        Wave::Cos => cos += 1.0,
                        Wave::Zero => {}
                    }
                    k += 1;
                }
                add_weighted_means(omega, (sin, cos), rows, &mut sums);
            }
            for (r, sum) in sums.iter().enumerate() {
                out[r * nc + c] = (sum / n) as f32;
            }
        }
        out
    }
}

/// Adds to `out[k]` the mean of `wave(p·ω)` over the positions of bin `k`, for every bin.
pub fn add_wave_means(wave: Wave, omega: f64, bins: &Bins, out: &mut [f64]) {
    let weights = match wave {
        Wave::Sin => (1.0, 0.0),
        Wave::Cos => (0.0, 1.0),
        Wave::Zero => return,
    };
    add_weighted_means(omega, weights, bins, out);
}

/// Adds to `out[k]` `sin ×` the mean of sin(p·ω) plus `cos ×` that of cos(p·ω) over the
/// positions of bin `k`, for every bin: one walk for both waves of a frequency.
fn add_weighted_means(omega: f64, (sin, cos): (f64, f64), bins: &Bins, out: &mut [f64]) {
    if sin == 0.0 && cos == 0.0 {
        return;
    }
    for_each_mean_phasor(omega, bins, out.len(), |k, (re, im)| {
        out[k] += sin * im + cos * re;
    });
}
