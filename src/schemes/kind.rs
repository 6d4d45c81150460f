//! The list of position schemes and the settings each one owns: the floor from which every other
//! part of the crate names a scheme (the settings, links, the trainer's list). It knows nothing of
//! what a scheme does; that is each scheme's module, reached through [`super::Registered`].
//!
//! Adding a scheme here means: its variant, its place in [`Scheme::ALL`], its id, and (when it
//! has settings of its own) a field of [`SchemeSettings`].

use super::rope_settings::RopeSettings;
use crate::math::alibi::AlibiHeads;
use crate::math::fire::FireView;
use crate::math::kerple::Kerple;
use crate::math::t5::T5Buckets;

/// A way of telling a transformer where each token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scheme {
    /// Fixed sines and cosines added to the embeddings (Vaswani et al., 2017).
    #[default]
    Sinusoidal,
    /// A trained table of vectors added to the embeddings (BERT, GPT-2).
    Learned,
    /// Queries and keys rotated by position (RoFormer; GPT-NeoX, LLaMA).
    Rope,
    /// A linear distance penalty added to the attention scores (BLOOM, MPT).
    Alibi,
    /// A learned bias per bucket of relative distance, added to the scores (T5).
    T5,
    /// A logarithmic distance penalty with two learned numbers per head (KERPLE-log).
    Kerple,
    /// A small network of the distance, normalised by the query's position (FIRE).
    Fire,
    /// No position information at all.
    None,
}

impl Scheme {
    /// Every scheme, in the order of the menus, the links and the trainer's tables.
    pub const ALL: [Scheme; 8] = [
        Scheme::Sinusoidal,
        Scheme::Learned,
        Scheme::Rope,
        Scheme::Alibi,
        Scheme::T5,
        Scheme::Kerple,
        Scheme::Fire,
        Scheme::None,
    ];

    /// The id in links, file names and the trainer's messages.
    pub fn id(self) -> &'static str {
        match self {
            Scheme::Sinusoidal => "sinusoidal",
            Scheme::Learned => "learned",
            Scheme::Rope => "rope",
            Scheme::Alibi => "alibi",
            Scheme::T5 => "t5",
            Scheme::Kerple => "kerple",
            Scheme::Fire => "fire",
            Scheme::None => "none",
        }
    }

    pub fn from_id(id: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.id() == id)
    }
}

/// The settings only one scheme has (the shared ones, such as d_model, the base or the seed, are
/// the app's: see `state::Settings`).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct SchemeSettings {
    pub rope: RopeSettings,
    pub alibi: AlibiHeads,
    pub t5: T5Buckets,
    pub kerple: Kerple,
    pub fire: FireView,
}
