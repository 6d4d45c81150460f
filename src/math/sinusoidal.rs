//! The sinusoidal encoding of "Attention Is All You Need" and the formula variants libraries use.
//!
//! Every column of the encoding matrix is one wave of position: `sin(pos·ω)`, `cos(pos·ω)` or (for
//! the zero-padded odd column of the split-halves libraries) zero. A variant decides which wave
//! sits in which column and which angular frequency ω each wave has. Everything the app draws or
//! exports goes through [`Sinusoidal::column`], so the formula text shown to the student and the
//! numbers are produced by the same code.

use std::fmt;

use super::binning::Bins;
use super::matrix::Matrix;
pub use super::wave::{wavelength, Column, Wave, WaveMatrix};

/// How a library lays out and scales the sinusoids.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// Interleaved: column 2i is sin, 2i+1 is cos, ω_i = base^(−2i/d). The paper, pytorch/examples,
    /// the Annotated Transformer.
    #[default]
    Paper,
    /// [sin | cos] halves with the paper's frequencies: the paper's columns reordered as
    /// `[0::2] ++ [1::2]` (GPT-J's `create_sinusoidal_positions`, the TensorFlow tutorial).
    Split,
    /// [sin | cos] halves with ω_i = base^(−i/(d/2 − 1)), zero-padded when d is odd
    /// (tensor2tensor's `get_timing_signal_1d`, fairseq's `SinusoidalPositionalEmbedding`).
    T2t,
    /// Interleaved, but with the exponent 2·(2i)/d: the bug of tutorials whose loop variable
    /// already steps by two and is then doubled again.
    TutorialBug,
}

impl Variant {
    pub const ALL: [Variant; 4] = [
        Variant::Paper,
        Variant::Split,
        Variant::T2t,
        Variant::TutorialBug,
    ];

    /// The stable identifier used in URLs and file names.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Paper => "paper",
            Variant::Split => "split",
            Variant::T2t => "t2t",
            Variant::TutorialBug => "tutorial-bug",
        }
    }

    pub fn from_id(id: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == id)
    }

    /// A short human name for selectors and legends.
    pub fn label(self) -> &'static str {
        match self {
            Variant::Paper => "paper: interleaved sin/cos",
            Variant::Split => "split: [sin | cos] halves",
            Variant::T2t => "t2t: halves, tensor2tensor frequencies",
            Variant::TutorialBug => "tutorial-bug: exponent doubled",
        }
    }

    /// One paragraph for the student: what the variant is and who uses it.
    pub fn description(self) -> &'static str {
        match self {
            Variant::Paper => {
                "The formula of the original paper. Even columns hold sines, odd columns hold \
                 cosines, and each sine shares its frequency with the cosine right after it. \
                 pytorch/examples and the Annotated Transformer build exactly this matrix."
            }
            Variant::Split => {
                "The same sines and cosines as the paper, but all sines first and all cosines \
                 second. It is the paper's matrix with its columns reordered, so a model cannot \
                 tell the difference. GPT-J's create_sinusoidal_positions and the TensorFlow \
                 transformer tutorial lay it out this way."
            }
            Variant::T2t => {
                "Sines first, cosines second, and the exponent is i/(d/2 − 1) instead of the \
                 paper's i/(d/2), so the slowest pair reaches the full base. These are slightly different \
                 frequencies, not just a reordering. tensor2tensor's get_timing_signal_1d and \
                 fairseq's SinusoidalPositionalEmbedding compute this."
            }
            Variant::TutorialBug => {
                "A common mistake: the loop variable already steps by two (0, 2, 4, …) and the \
                 code doubles it again, writing base^(2·i/d) with i = 0, 2, 4, … The frequencies \
                 fall twice as fast, half of the columns end up almost constant, and the slowest \
                 wavelength becomes 2π·base^(2 − 4/d) (close to 2π·base² for large d) instead of \
                 2π·base^(1 − 2/d)."
            }
        }
    }

    /// How the exponent of ω is written for this variant, with `i` the pair index.
    pub fn exponent_symbol(self) -> &'static str {
        match self {
            Variant::Paper | Variant::Split => "2i/d",
            Variant::T2t => "i/(d/2 − 1)",
            Variant::TutorialBug => "2·(2i)/d",
        }
    }

    /// The exponent as the formula label shows it for `d_model`: t2t's divisor with the
    /// max(·, 1) guard the numbers use where d/2 − 1 would be 0.
    pub fn exponent_for(self, d_model: usize) -> &'static str {
        match self {
            Variant::T2t if d_model / 2 <= 1 => "i/max(d/2 − 1, 1)",
            v => v.exponent_symbol(),
        }
    }

    /// Sines and cosines alternate column by column.
    pub fn is_interleaved(self) -> bool {
        matches!(self, Variant::Paper | Variant::TutorialBug)
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// The exponent e of ω = base^(−e), kept as the fraction it is written as.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Exponent {
    pub numerator: u64,
    pub denominator: u64,
}

impl Exponent {
    pub fn value(self) -> f64 {
        self.numerator as f64 / self.denominator as f64
    }
}

/// A sinusoidal encoding with fixed width, base and variant.
///
/// Parameters are taken as given; the UI clamps them (d_model ≥ 2, base > 1) before they get here,
/// and the functions stay finite for any input anyway.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sinusoidal {
    pub variant: Variant,
    pub d_model: usize,
    pub base: f64,
}

impl Sinusoidal {
    pub fn new(variant: Variant, d_model: usize, base: f64) -> Self {
        Sinusoidal {
            variant,
            d_model,
            base,
        }
    }

    /// How many columns hold sines: ⌈d/2⌉, except t2t's ⌊d/2⌋ (it pads the odd column with zeros).
    fn sine_count(&self) -> usize {
        if self.variant == Variant::T2t {
            self.d_model / 2
        } else {
            self.d_model.div_ceil(2)
        }
    }

    /// Number of distinct frequencies: one per sine column.
    pub fn pair_count(&self) -> usize {
        self.sine_count()
    }

    /// The exponent of pair `i` as the variant writes it.
    pub fn exponent(&self, pair: usize) -> Exponent {
        let d = self.d_model.max(1) as u64;
        let i = pair as u64;
        match self.variant {
            Variant::Paper | Variant::Split => Exponent {
                numerator: 2 * i,
                denominator: d,
            },
            // tensor2tensor guards the divisor with max(·, 1); fairseq would divide by zero at d = 2.
            Variant::T2t => Exponent {
                numerator: i,
                denominator: (d / 2).saturating_sub(1).max(1),
            },
            Variant::TutorialBug => Exponent {
                numerator: 4 * i,
                denominator: d,
            },
        }
    }

    /// Angular frequency ω_i = base^(−e_i) of pair `i`, in radians per position.
    pub fn omega(&self, pair: usize) -> f64 {
        self.base.powf(-self.exponent(pair).value())
    }

    /// What column `dim` holds.
    pub fn column(&self, dim: usize) -> Column {
        let d = self.d_model;
        let (wave, pair) = if self.variant.is_interleaved() {
            let wave = if dim % 2 == 0 { Wave::Sin } else { Wave::Cos };
            (wave, Some(dim / 2))
        } else {
            // Split keeps every paper column (the sine half is the larger one when d is odd);
            // t2t has d/2 of each and pads the odd column with zeros.
            let sines = self.sine_count();
            let cosines = d / 2;
            if dim < sines {
                (Wave::Sin, Some(dim))
            } else if dim < sines + cosines {
                (Wave::Cos, Some(dim - sines))
            } else {
                (Wave::Zero, None)
            }
        };
        let omega = pair.map_or(0.0, |i| self.omega(i));
        Column { wave, pair, omega }
    }

    /// The column holding the other half (sin ↔ cos) of `dim`'s pair, if it has one.
    pub fn partner(&self, dim: usize) -> Option<usize> {
        if dim >= self.d_model {
            return None;
        }
        let other = if self.variant.is_interleaved() {
            dim ^ 1
        } else {
            let sines = self.sine_count();
            match self.column(dim).wave {
                Wave::Sin => dim + sines,
                Wave::Cos => dim - sines,
                Wave::Zero => return None,
            }
        };
        let (a, b) = (self.column(dim), self.column(other.min(self.d_model - 1)));
        (other < self.d_model && a.pair == b.pair && a.wave != b.wave).then_some(other)
    }

    /// All columns, left to right.
    pub fn columns(&self) -> Vec<Column> {
        (0..self.d_model).map(|dim| self.column(dim)).collect()
    }

    /// PE(position, dim).
    pub fn value(&self, position: usize, dim: usize) -> f64 {
        self.column(dim).value(position as f64)
    }

    /// The encoding vector of one position.
    pub fn row(&self, position: usize) -> Vec<f64> {
        let p = position as f64;
        self.columns().iter().map(|c| c.value(p)).collect()
    }

    /// What the UI says about the column d_model leaves over when it is odd; `None` when even.
    pub fn odd_column_note(&self) -> Option<String> {
        if self.d_model % 2 == 0 {
            return None;
        }
        let last = self.d_model - 1;
        if self.column(last).wave == Wave::Zero {
            return Some(format!(
                "d_model is odd: column {last} is all zeros, the padding tensor2tensor and \
                 fairseq add so that the width comes out right."
            ));
        }
        // The sine without a partner: last for the interleaved layouts, the end of the sine
        // half for split.
        let lone = (0..self.d_model)
            .find(|&c| self.column(c).wave == Wave::Sin && self.partner(c).is_none())
            .unwrap_or(last);
        Some(format!(
            "d_model is odd: column {lone} is a sine with no cosine partner, which is what the \
             formula gives when it is evaluated for every column."
        ))
    }

    /// What the UI says when t2t's divisor d/2 − 1 would be zero (d_model 2 or 3).
    pub fn divisor_note(&self) -> Option<String> {
        (self.variant == Variant::T2t && self.d_model / 2 <= 1).then(|| {
            format!(
                "With d_model = {}, d/2 − 1 is 0. Like tensor2tensor, the app divides by \
                 max(d/2 − 1, 1) = 1; fairseq's version would divide by zero here.",
                self.d_model
            )
        })
    }

    /// The formula of one cell with the numbers filled in.
    pub fn explain(&self, position: usize, dim: usize) -> CellFormula {
        let column = self.column(dim);
        CellFormula {
            position,
            dim,
            column,
            exponent: column.pair.map(|i| self.exponent(i)),
            base: self.base,
            angle: position as f64 * column.omega,
            value: column.value(position as f64),
        }
    }
}

/// Everything the hover readout says about one cell, computed by the same code as the matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellFormula {
    pub position: usize,
    pub dim: usize,
    pub column: Column,
    pub exponent: Option<Exponent>,
    pub base: f64,
    pub angle: f64,
    pub value: f64,
}

/// The `length × d_model` encoding matrix, computed on demand.
#[derive(Clone, Debug, PartialEq)]
pub struct SinusoidalMatrix {
    pub encoding: Sinusoidal,
    pub waves: WaveMatrix,
}

impl SinusoidalMatrix {
    pub fn new(encoding: Sinusoidal, length: usize) -> Self {
        let group = if encoding.variant.is_interleaved() {
            2
        } else {
            1
        };
        SinusoidalMatrix {
            encoding,
            waves: WaveMatrix::new(encoding.columns(), length, group),
        }
    }
}

impl Matrix for SinusoidalMatrix {
    fn rows(&self) -> usize {
        self.waves.rows()
    }
    fn cols(&self) -> usize {
        self.waves.cols()
    }
    fn value(&self, row: usize, col: usize) -> f64 {
        self.waves.value(row, col)
    }
    fn column_group(&self) -> usize {
        self.waves.column_group()
    }
    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        self.waves.block_means(rows, cols)
    }
}
