//! What a scheme hands the figures that show every scheme: the attention demo's head
//! ([`PositionInputs`]) and the compare view's column ([`ColumnInputs`]). Plain data, below the
//! figures that compute from it.

use std::any::Any;
use std::fmt::Debug;
use std::rc::Rc;

use crate::math::learned::Learned;
use crate::math::matrix::Dense;
use crate::math::rope::Rope;
use crate::math::sinusoidal::Sinusoidal;

/// What a scheme hands the head for one sentence (owned; see [`Positional`] for the roles).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PositionInputs {
    pub added: Option<Dense>,
    pub rope: Option<Rope>,
    pub bias: Option<Dense>,
}

impl PositionInputs {
    /// Vectors added to the inputs: row `p` for the token at position `p`.
    pub fn added(
        n: usize,
        width: usize,
        row: impl Fn(usize) -> Result<Vec<f64>, String>,
    ) -> Result<Self, String> {
        let mut data = Vec::with_capacity(n * width);
        for p in 0..n {
            data.extend(row(p)?);
        }
        Ok(PositionInputs {
            added: Some(Dense::new(n, width, data)),
            ..Default::default()
        })
    }

    /// A bias added to the score of query i and key j.
    pub fn bias(n: usize, at: impl Fn(usize, usize) -> f64) -> Self {
        PositionInputs {
            bias: Some(Dense::new(
                n,
                n,
                (0..n * n).map(|c| at(c / n, c % n)).collect(),
            )),
            ..Default::default()
        }
    }

    /// Queries and keys rotated inside the head.
    pub fn rotary(rope: Rope) -> Self {
        PositionInputs {
            rope: Some(rope),
            ..Default::default()
        }
    }
}

/// What a column is computed from: the scheme's own object and the length.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnInputs {
    /// PE(i)·PE(j) in closed form (added encodings with a formula).
    Closed(Sinusoidal, usize),
    /// q·k for q = k = 1 under the rotation.
    Rotary(Rope, usize),
    /// P(i)·P(j) of a table drawn row by row.
    Table(Learned, usize),
    /// A bias on the scores (any bias scheme fits here): laid along the diagonals when it
    /// depends on the distance alone.
    Bias {
        bias: Rc<dyn BiasFn>,
        length: usize,
        what: String,
    },
}

impl ColumnInputs {
    /// A bias `at(params, j − i)` (negative: the key is before the query). The memo compares
    /// the parameters, not the curve, so a render that changes nothing costs nothing.
    pub fn bias<P: PartialEq + Debug + 'static>(
        length: usize,
        what: impl Into<String>,
        params: P,
        at: fn(&P, i64) -> f64,
    ) -> Self {
        ColumnInputs::Bias {
            bias: Rc::new(Bias {
                params,
                at: At::Offset(at),
            }),
            length,
            what: what.into(),
        }
    }

    /// A bias `at(params, i, j)` that depends on the query's position as well as the distance.
    pub fn matrix<P: PartialEq + Debug + 'static>(
        length: usize,
        what: impl Into<String>,
        params: P,
        at: fn(&P, usize, usize) -> f64,
    ) -> Self {
        ColumnInputs::Bias {
            bias: Rc::new(Bias {
                params,
                at: At::Cell(at),
            }),
            length,
            what: what.into(),
        }
    }
}

/// A score bias of query i and key j (NaN where the key is masked).
pub trait BiasFn: Debug {
    fn at(&self, query: usize, key: usize) -> f64;
    /// Whether it depends on the signed distance j − i alone (then it is laid along the
    /// diagonals).
    fn by_distance(&self) -> bool;
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same bias: same function, same parameters.
    fn same(&self, other: &dyn BiasFn) -> bool;
}

impl PartialEq for dyn BiasFn {
    fn eq(&self, other: &Self) -> bool {
        self.same(other)
    }
}

/// A bias function, of the signed distance or of the query and key, with its parameters.
#[derive(Debug)]
struct Bias<P> {
    params: P,
    at: At<P>,
}

#[derive(Debug)]
enum At<P> {
    Offset(fn(&P, i64) -> f64),
    Cell(fn(&P, usize, usize) -> f64),
}

impl<P> PartialEq for At<P> {
    fn eq(&self, other: &At<P>) -> bool {
        match (self, other) {
            (At::Offset(a), At::Offset(b)) => std::ptr::fn_addr_eq(*a, *b),
            (At::Cell(a), At::Cell(b)) => std::ptr::fn_addr_eq(*a, *b),
            _ => false,
        }
    }
}

impl<P: PartialEq + Debug + 'static> BiasFn for Bias<P> {
    fn at(&self, query: usize, key: usize) -> f64 {
        match self.at {
            At::Offset(f) => f(&self.params, key as i64 - query as i64),
            At::Cell(f) => f(&self.params, query, key),
        }
    }

    fn by_distance(&self) -> bool {
        matches!(self.at, At::Offset(_))
    }

    fn as_any(&self) -> &dyn Any {
        self
    }

    fn same(&self, other: &dyn BiasFn) -> bool {
        other
            .as_any()
            .downcast_ref::<Self>()
            .is_some_and(|o| o.params == self.params && o.at == self.at)
    }
}
