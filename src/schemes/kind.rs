//! The list of position schemes and the settings each one owns: the floor from which every other
//! part of the crate names a scheme (the settings, links, the trainer's list). It knows nothing of
//! what a scheme does; that is each scheme's module, reached through [`super::Registered`].
//!
//! Adding a scheme here means: its variant, its place in [`Scheme::ALL`], its id, the positions
//! it reads ([`Scheme::space`]), and (when it has settings of its own) a field of
//! [`SchemeSettings`].

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
    /// MAE/ViT's fixed 2-D sin-cos table, added to the patch embeddings.
    VitSinCos,
    /// ViT's learned table of patch positions, and what happens when the grid grows.
    VitLearned,
    /// RoPE-ViT's axial 2-D RoPE: half the pairs turn with the column, half with the row.
    RopeAxial,
    /// RoPE-ViT's mixed 2-D RoPE: every pair turns with a direction of its own.
    RopeMixed,
    /// Qwen2-VL's multimodal RoPE: time, height and width sections of the frequencies.
    Mrope,
    /// No position information at all.
    None,
}

/// Where a scheme places a token: the positions its formulas read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Space {
    /// One index on a line of tokens (every scheme of text models).
    Line,
    /// The (row, column) of an image patch on a grid, in row-major order.
    Grid,
    /// (time, row, column): text, images and video in one sequence (M-RoPE).
    Multimodal,
}

impl Scheme {
    /// Every scheme, in the order of the menus, the links and the trainer's tables.
    pub const ALL: [Scheme; 13] = [
        Scheme::Sinusoidal,
        Scheme::Learned,
        Scheme::Rope,
        Scheme::Alibi,
        Scheme::T5,
        Scheme::Kerple,
        Scheme::Fire,
        Scheme::VitSinCos,
        Scheme::VitLearned,
        Scheme::RopeAxial,
        Scheme::RopeMixed,
        Scheme::Mrope,
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
            Scheme::VitSinCos => "vit_sincos",
            Scheme::VitLearned => "vit_learned",
            Scheme::RopeAxial => "rope_axial",
            Scheme::RopeMixed => "rope_mixed",
            Scheme::Mrope => "mrope",
            Scheme::None => "none",
        }
    }

    /// The positions the scheme reads: the views, the trainer and the compare view show the
    /// schemes whose space they draw.
    pub fn space(self) -> Space {
        match self {
            Scheme::VitSinCos | Scheme::VitLearned | Scheme::RopeAxial | Scheme::RopeMixed => {
                Space::Grid
            }
            Scheme::Mrope => Space::Multimodal,
            Scheme::Sinusoidal
            | Scheme::Learned
            | Scheme::Rope
            | Scheme::Alibi
            | Scheme::T5
            | Scheme::Kerple
            | Scheme::Fire
            | Scheme::None => Space::Line,
        }
    }

    /// The schemes of a line of tokens, in the order of [`Scheme::ALL`].
    pub fn on_a_line() -> impl Iterator<Item = Scheme> {
        Scheme::ALL.into_iter().filter(|s| s.space() == Space::Line)
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
