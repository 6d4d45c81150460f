//! Position schemes that add a bias to the attention scores: head h's score of query i and key
//! j becomes q_i·k_j/√d + b_h(i, j). ALiBi, T5's buckets, KERPLE and FIRE are all of this kind;
//! they differ in what b is made of (fixed slopes, a table of learned scalars, two learned
//! numbers per head, a small learned MLP).
//!
//! [`ScoreBias`] is what the trainer needs of such a scheme, and nothing more: the tensors it
//! learns, their initial values, one row of the bias table at a time (so that a long table can
//! be computed a few rows at a time between two looks at the clock), and the gradient of its
//! parameters given the gradient of a row. The trainer's model (`train::model`) calls only
//! these, so a new bias scheme needs no change there. Pure f64 math, no web or trainer
//! dependency: a model of f32 converts its parameters to f64 on the way in and the table back.

use std::fmt::Debug;
use std::ops::Range;

use super::rng::SplitMix64;

/// One learned tensor of a bias scheme.
#[derive(Clone, Debug, PartialEq)]
pub struct BiasTensor {
    /// The name in the exported file (e.g. `kerple.r1`).
    pub name: String,
    /// Its shape (empty for a scalar); matrices are stored `[in, out]`, as everywhere in the
    /// trainer, so a layer is `x @ W + b`.
    pub shape: Vec<usize>,
    /// Whether AdamW's weight decay applies (the trainer's rule: matrices, not biases or
    /// scalars).
    pub decay: bool,
}

impl BiasTensor {
    pub fn new(name: &str, shape: Vec<usize>, decay: bool) -> BiasTensor {
        BiasTensor {
            name: name.into(),
            shape,
            decay,
        }
    }

    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A fixed table a scheme wants exported beside its weights (ALiBi's slopes, T5's bucket of
/// every relative position), so that a script can rebuild the bias without the app's code.
#[derive(Clone, Debug, PartialEq)]
pub struct BiasBuffer {
    pub name: String,
    pub shape: Vec<usize>,
    pub values: Vec<f64>,
    /// Whole numbers (exported as integers).
    pub integer: bool,
}

/// Which row of a bias table: query `query` of a sequence of `len` tokens, in a model of
/// `heads` heads, with or without a causal mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    pub heads: usize,
    pub len: usize,
    pub causal: bool,
    pub query: usize,
}

impl Row {
    pub fn new(heads: usize, len: usize, causal: bool, query: usize) -> Row {
        Row {
            heads,
            len,
            causal,
            query,
        }
    }

    /// The keys the query sees: all `len`, or up to itself under a causal mask.
    pub fn keys(&self) -> Range<usize> {
        visible(self.query, self.len, self.causal)
    }

    /// Where head `h`'s entry for key `j` stands in a row of heads × len: `h·len + j`.
    pub fn cell(&self, h: usize, j: usize) -> usize {
        h * self.len + j
    }

    /// |i − j|, the distance from the query to key `j`.
    pub fn distance(&self, j: usize) -> usize {
        self.query.abs_diff(j)
    }
}

/// A position scheme that adds b_h(i, j) to head h's score of query i and key j.
///
/// Parameters: the scheme's learned tensors ([`tensors`](Self::tensors)) concatenated in that
/// order, as one slice of f64. Tables are laid out row by row: row i holds, for each head h,
/// the biases of keys 0..len, `row[h·len + j]`. Under a causal mask only the keys j ≤ i of a
/// row are written and read. Every method is a pure function of its arguments.
pub trait ScoreBias: Send + Sync + Debug {
    /// The scheme's id: "alibi", "t5", "kerple", "fire".
    fn name(&self) -> &'static str;

    /// The learned tensors (names as exported), possibly none.
    fn tensors(&self, heads: usize) -> Vec<BiasTensor>;

    /// Initial values of tensor `index` of [`tensors`](Self::tensors), drawn from `rng` (the
    /// caller seeds one stream per tensor, so each tensor's values depend on its name only).
    fn init(&self, heads: usize, index: usize, rng: &mut SplitMix64) -> Vec<f64>;

    /// Row `at.query` of the table for keys 0..len: sets `row[h·len + j]` = b_h(i, j) for every
    /// key the query sees (j ≤ i when causal); leaves the rest alone. `row` holds heads × len.
    fn row(&self, params: &[f64], at: Row, row: &mut [f64]);

    /// Adds to `dparams` the gradient that flows back through row `i`, given
    /// `drow[h·len + j]` = ∂loss/∂b_h(i, j) (zero, or ignored, where the query cannot see).
    /// The trainer calls it once per row, in row order, however a pass is cut, so any fixed
    /// order of sums within a row gives the same numbers bit for bit.
    fn row_backward(&self, params: &[f64], at: Row, drow: &[f64], dparams: &mut [f64]);

    /// The work of one table entry (all heads), in multiply-adds, and of its backward: what the
    /// trainer's time estimate and its slicing count.
    fn entry_cost(&self, heads: usize) -> (u64, u64);

    /// The scheme's settings as a JSON object, for the exported file's config (`{}` if none).
    fn config_json(&self) -> String;

    /// Fixed tables worth exporting beside the weights for a model that places `positions`
    /// positions (none by default).
    fn buffers(&self, _heads: usize, _positions: usize, _causal: bool) -> Vec<BiasBuffer> {
        Vec::new()
    }

    /// Puts parameters back in their domain after an optimiser step (KERPLE clamps its two
    /// numbers to at least ε, as the reference does in place); true when something changed.
    /// Nothing by default.
    fn project(&self, _heads: usize, _params: &mut [f64]) -> bool {
        false
    }

    /// The whole table for `len` positions, head-major: `[h][i][j]` (masked entries 0).
    fn table(&self, params: &[f64], heads: usize, len: usize, causal: bool) -> Vec<f64> {
        let mut out = vec![0.0; heads * len * len];
        let mut row = vec![0.0; heads * len];
        for i in 0..len {
            row.fill(0.0);
            self.row(params, Row::new(heads, len, causal, i), &mut row);
            for h in 0..heads {
                out[(h * len + i) * len..][..len].copy_from_slice(&row[h * len..][..len]);
            }
        }
        out
    }

    /// The gradient of the parameters given the whole table's, `dtable[h][i][j]`: adds to
    /// `dparams` (rows in order, as the trainer does them).
    fn table_backward(
        &self,
        params: &[f64],
        heads: usize,
        len: usize,
        causal: bool,
        dtable: &[f64],
        dparams: &mut [f64],
    ) {
        let mut drow = vec![0.0; heads * len];
        for i in 0..len {
            for h in 0..heads {
                drow[h * len..][..len].copy_from_slice(&dtable[(h * len + i) * len..][..len]);
            }
            self.row_backward(params, Row::new(heads, len, causal, i), &drow, dparams);
        }
    }
}

/// The keys query `i` sees among `len`: all of them, or up to itself under a causal mask.
pub fn visible(i: usize, len: usize, causal: bool) -> Range<usize> {
    0..if causal { (i + 1).min(len) } else { len }
}

/// Every parameter count of a scheme's tensors, added up.
pub fn parameter_count(bias: &dyn ScoreBias, heads: usize) -> usize {
    bias.tensors(heads).iter().map(BiasTensor::len).sum()
}
