//! Where a scheme enters the trained model, with its own settings: what each scheme's
//! `schemes::trained` answers, below the schemes, and what the model (`train::model`) builds
//! from. Plain data over the math.

use std::sync::Arc;

use crate::math::bias::ScoreBias;
use crate::math::rope::{RopePairing, RopeScaling};
use crate::math::sinusoidal::Variant;

/// Where the position information comes from, with the scheme's own settings.
#[derive(Clone, Debug)]
pub enum Position {
    None,
    Sinusoidal {
        variant: Variant,
        base: f64,
    },
    Learned,
    Rope {
        base: f64,
        pairing: RopePairing,
        /// How it is stretched past the training length (none while training; a
        /// context-extension method afterwards).
        scaling: RopeScaling,
    },
    /// A bias added to the attention scores (ALiBi, T5, KERPLE, FIRE, ...).
    Bias(Arc<dyn ScoreBias>),
}

impl Position {
    /// The score bias, for a bias scheme.
    pub fn bias(&self) -> Option<&dyn ScoreBias> {
        match self {
            Position::Bias(b) => Some(b.as_ref()),
            _ => None,
        }
    }
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        match (self, other) {
            (Position::None, Position::None) | (Position::Learned, Position::Learned) => true,
            (
                Position::Sinusoidal { variant, base },
                Position::Sinusoidal {
                    variant: v,
                    base: b,
                },
            ) => variant == v && base == b,
            (
                Position::Rope {
                    base,
                    pairing,
                    scaling,
                },
                Position::Rope {
                    base: b,
                    pairing: p,
                    scaling: s,
                },
            ) => base == b && pairing == p && scaling == s,
            // A bias scheme is its name and its settings (what the exported config records).
            (Position::Bias(a), Position::Bias(b)) => {
                a.name() == b.name() && a.config_json() == b.config_json()
            }
            _ => false,
        }
    }
}
