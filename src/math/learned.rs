//! Learned absolute positions (BERT, GPT-2): a `max_len × d_model` table, here *untrained*:
//! initialised N(0, 0.02²) as Hugging Face initialises BERT's and GPT-2's (`initializer_range`),
//! from a seed the user picks. (The original BERT drew from a normal truncated at two standard
//! deviations; the original GPT-2 drew its position table with standard deviation 0.01.)
//! Positions at or past `max_len` do not exist.
//!
//! Each cell is drawn from its own (seed, position, dimension) stream, so the table never has to
//! be stored and any size is instant.

use super::binning::Bins;
use super::matrix::Matrix;
use super::rng::SplitMix64;

/// Standard deviation of the initialisation (`initializer_range` of BERT and GPT-2 in Hugging Face).
pub const INIT_STD: f64 = 0.02;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Learned {
    pub max_len: usize,
    pub d_model: usize,
    pub seed: u64,
}

impl Learned {
    pub fn new(max_len: usize, d_model: usize, seed: u64) -> Learned {
        Learned {
            max_len,
            d_model,
            seed,
        }
    }

    /// The table entry, or `None` for a position the table does not have.
    pub fn get(&self, position: usize, dim: usize) -> Option<f64> {
        if position >= self.max_len || dim >= self.d_model {
            return None;
        }
        let index = (position as u64)
            .wrapping_mul(self.d_model as u64)
            .wrapping_add(dim as u64);
        // The cell index is hashed first: seeding with index·γ directly would make neighbouring
        // cells' streams overlap (SplitMix64 itself steps by γ).
        let cell = SplitMix64::new(index).next_u64();
        let mut rng = SplitMix64::new(self.seed.rotate_left(17) ^ cell);
        Some(INIT_STD * rng.next_normal())
    }

    /// The row of one position, or an error that says the table stops earlier.
    pub fn row(&self, position: usize) -> Result<Vec<f64>, String> {
        if position >= self.max_len {
            return Err(format!(
                "position {position} does not exist: the learned table has {} rows \
                 (positions 0 … {})",
                self.max_len,
                self.max_len.saturating_sub(1)
            ));
        }
        Ok((0..self.d_model)
            .map(|c| self.get(position, c).unwrap_or(f64::NAN))
            .collect())
    }
}

/// The learned table shown for `length` positions; rows past `max_len` are undefined (NaN).
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedMatrix {
    pub table: Learned,
    pub length: usize,
}

impl Matrix for LearnedMatrix {
    fn shape(&self) -> (usize, usize) {
        (self.length, self.table.d_model)
    }

    fn value(&self, row: usize, col: usize) -> f64 {
        self.table.get(row, col).unwrap_or(f64::NAN)
    }

    /// Random entries have no structure a mean would show (a mean of many is just grey), so a
    /// pixel shows one entry of the block it covers: its first.
    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        super::matrix::point_samples(self, rows, cols)
    }

    fn summary(&self) -> BlockSummary {
        BlockSummary::Sample
    }
}

pub use super::matrix::BlockSummary;

/// P(i)·P(j) for every pair of positions in the learned table (NaN where a row does not
/// exist): what the table alone contributes to similarity.
#[derive(Clone, Debug, PartialEq)]
pub struct LearnedGram {
    pub table: Learned,
    pub length: usize,
}

/// Most multiply-adds one drawing of a [`LearnedGram`] may take.
const GRAM_WORK: usize = 12_000_000;

impl Matrix for LearnedGram {
    fn shape(&self) -> (usize, usize) {
        (self.length, self.length)
    }

    fn value(&self, row: usize, col: usize) -> f64 {
        match (self.table.row(row), self.table.row(col)) {
            (Ok(a), Ok(b)) if row < self.length && col < self.length => {
                a.iter().zip(&b).map(|(x, y)| x * y).sum()
            }
            _ => f64::NAN,
        }
    }

    /// One sampled cell per pixel (random tables have no structure a mean would show); when
    /// that is still too much work, one sample per group of g × g pixels.
    fn block_means(&self, rows: &Bins, cols: &Bins) -> Vec<f32> {
        let (nr, nc) = (rows.count(), cols.count());
        let d = self.table.d_model.max(1);
        let mut group = 1;
        while (nr / group + 1) * (nc / group + 1) * d > GRAM_WORK && group < nr.max(nc) {
            group += 1;
        }
        let vector = |i: usize| self.table.row(i).ok();
        let row_vecs: Vec<Option<Vec<f64>>> = (0..nr)
            .step_by(group)
            .map(|r| vector(rows.range(r).start))
            .collect();
        let col_positions: Vec<usize> = (0..nc)
            .step_by(group)
            .map(|c| cols.range(c).start)
            .collect();
        // Drawing a row is the costly part (a normal deviate per cell): the full square view
        // has the same positions on both axes, so its rows are drawn once.
        let same = (0..nr)
            .step_by(group)
            .map(|r| rows.range(r).start)
            .eq(col_positions.iter().copied());
        let col_vecs: Vec<Option<Vec<f64>>> = if same {
            row_vecs.clone()
        } else {
            col_positions.into_iter().map(vector).collect()
        };
        // One dot product per block of group × group pixels, copied to each of its pixels.
        let dots: Vec<f32> = row_vecs
            .iter()
            .flat_map(|a| {
                col_vecs.iter().map(move |b| match (a, b) {
                    (Some(a), Some(b)) => a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>() as f32,
                    _ => f32::NAN,
                })
            })
            .collect();
        let block_cols = col_vecs.len();
        let mut out = Vec::with_capacity(nr * nc);
        for r in 0..nr {
            let block_row = &dots[(r / group) * block_cols..][..block_cols];
            out.extend((0..nc).map(|c| block_row[c / group]));
        }
        out
    }

    fn summary(&self) -> BlockSummary {
        BlockSummary::Sample
    }
}
