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
///
/// # fairseq's `padding_idx`
///
/// fairseq's `SinusoidalPositionalEmbedding.get_embedding(num_embeddings, embedding_dim,
/// padding_idx)` builds the t2t table (rows are positions r = 0, 1, …) and then zeroes the
/// whole row `padding_idx`; `make_positions` numbers the non-padding tokens from
/// `padding_idx + 1`, so token i of a sequence without padding reads row `padding_idx + 1 + i`.
/// With a padding index set:
/// - [`Sinusoidal::column`], [`Sinusoidal::value`] and [`Sinusoidal::row`] stay the formula
///   at a table row r (what every other view reads, unchanged);
/// - [`Sinusoidal::table_row`] is row r of fairseq's weights (row `padding_idx` all zeros);
/// - [`Sinusoidal::token_row`] is what token i gets, row `padding_idx + 1 + i`;
/// - the app's matrix ([`SinusoidalMatrix`]) shows the tokens: its row i is `token_row(i)`, so
///   it starts at table row `padding_idx + 1` and never shows the zero row (which only exists
///   in the weights, for padding tokens), and [`Sinusoidal::explain`] reads the same rows.
///
/// Without a padding index everything is as in the paper: token i reads row i.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sinusoidal {
    pub variant: Variant,
    pub d_model: usize,
    pub base: f64,
    /// fairseq's `padding_idx` (t2t variant; `None` everywhere else): see above.
    pub padding_idx: Option<usize>,
}

impl Sinusoidal {
    pub fn new(variant: Variant, d_model: usize, base: f64) -> Self {
        Sinusoidal {
            variant,
            d_model,
            base,
            padding_idx: None,
        }
    }

    /// The same encoding with fairseq's `padding_idx` (meant for the t2t layout, which is
    /// fairseq's; the shift and the zero row are applied whatever the variant).
    pub fn with_padding_idx(self, padding_idx: Option<usize>) -> Self {
        Sinusoidal {
            padding_idx,
            ..self
        }
    }

    /// The table row token i reads: `padding_idx + 1 + i` (fairseq's `make_positions`), or i.
    pub fn row_of_token(&self, token: usize) -> usize {
        match self.padding_idx {
            Some(p) => token.saturating_add(p).saturating_add(1),
            None => token,
        }
    }

    /// Row r of the weights: the formula at position r, all zeros at `padding_idx`.
    pub fn table_row(&self, row: usize) -> Vec<f64> {
        if self.padding_idx == Some(row) {
            vec![0.0; self.d_model]
        } else {
            self.row(row)
        }
    }

    /// One cell of the weights (0 on the padding row).
    pub fn table_value(&self, row: usize, dim: usize) -> f64 {
        if self.padding_idx == Some(row) {
            0.0
        } else {
            self.value(row, dim)
        }
    }

    /// The encoding of token i (0-based, no padding in the sequence): table row
    /// [`Sinusoidal::row_of_token`]`(i)`.
    pub fn token_row(&self, token: usize) -> Vec<f64> {
        self.table_row(self.row_of_token(token))
    }

    /// One cell of [`Sinusoidal::token_row`].
    pub fn token_value(&self, token: usize, dim: usize) -> f64 {
        self.table_value(self.row_of_token(token), dim)
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

    /// What the UI says about fairseq's padding index, when one is set.
    pub fn padding_note(&self) -> Option<String> {
        self.padding_idx.map(|p| {
            format!(
                "padding_idx = {p}, as fairseq numbers positions: token i reads table row \
                 {p} + 1 + i, so the matrix starts at row {} (sin and cos of {} · ω); row {p} \
                 of the weights is all zeros and only padding tokens read it.",
                p + 1,
                p + 1
            )
        })
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

    /// The formula of one cell of the matrix (token `position`, column `dim`) with the numbers
    /// filled in; with a padding index the formula is evaluated at the token's table row.
    pub fn explain(&self, position: usize, dim: usize) -> CellFormula {
        let column = self.column(dim);
        let row = self.row_of_token(position);
        CellFormula {
            position,
            row,
            dim,
            column,
            exponent: column.pair.map(|i| self.exponent(i)),
            base: self.base,
            angle: row as f64 * column.omega,
            value: self.token_value(position, dim),
        }
    }
}

/// Everything the hover readout says about one cell, computed by the same code as the matrix.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellFormula {
    /// The token's position (the matrix row).
    pub position: usize,
    /// The table row the formula is evaluated at: `position`, or `padding_idx + 1 + position`
    /// with fairseq's padding index.
    pub row: usize,
    pub dim: usize,
    pub column: Column,
    pub exponent: Option<Exponent>,
    pub base: f64,
    pub angle: f64,
    pub value: f64,
}

/// The `length × d_model` encoding matrix, computed on demand: row i is the encoding of token i
/// ([`Sinusoidal::token_row`]), so with fairseq's padding index it starts at table row
/// `padding_idx + 1`.
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
    fn shape(&self) -> (usize, usize) {
        (self.waves.rows(), self.waves.cols())
    }
    fn value(&self, row: usize, col: usize) -> f64 {
        self.waves.value(self.encoding.row_of_token(row), col)
    }
    fn column_group(&self) -> usize {
        self.waves.column_group()
    }
    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        // The tokens' rows are table rows shifted by padding_idx + 1; the bins cut the same way
        // wherever they start, and the padding row (before the first token) is never covered.
        let shift = self.encoding.row_of_token(0);
        let mut shifted = *rows;
        shifted.start += shift;
        shifted.end += shift;
        self.waves.block_means(&shifted, cols)
    }
}
