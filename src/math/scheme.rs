//! The position schemes the app compares, and where each one enters the model.

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
    /// No position information at all.
    None,
}

impl Scheme {
    pub const ALL: [Scheme; 6] = [
        Scheme::Sinusoidal,
        Scheme::Learned,
        Scheme::Rope,
        Scheme::Alibi,
        Scheme::T5,
        Scheme::None,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Scheme::Sinusoidal => "sinusoidal",
            Scheme::Learned => "learned",
            Scheme::Rope => "rope",
            Scheme::Alibi => "alibi",
            Scheme::T5 => "t5",
            Scheme::None => "none",
        }
    }

    pub fn from_id(id: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    pub fn short(self) -> &'static str {
        match self {
            Scheme::Sinusoidal => "sinusoidal",
            Scheme::Learned => "learned",
            Scheme::Rope => "RoPE",
            Scheme::Alibi => "ALiBi",
            Scheme::T5 => "T5",
            Scheme::None => "none",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Scheme::Sinusoidal => "Sinusoidal (Transformer, 2017)",
            Scheme::Learned => "Learned absolute (BERT, GPT-2)",
            Scheme::Rope => "RoPE rotary (RoFormer, LLaMA)",
            Scheme::Alibi => "ALiBi linear bias (BLOOM, MPT)",
            Scheme::T5 => "T5 relative buckets",
            Scheme::None => "None",
        }
    }

    /// One sentence: where the scheme enters the model.
    pub fn entry(self) -> &'static str {
        match self {
            Scheme::Sinusoidal => {
                "Added to the token embeddings once, before the first layer: every vector \
                 carries its absolute position."
            }
            Scheme::Learned => {
                "Added to the token embeddings once, before the first layer, like the \
                 sinusoidal encoding, but each position's vector is a trained parameter."
            }
            Scheme::Rope => {
                "Rotates the queries and keys inside every attention layer, so the score of \
                 query m and key n depends on m − n; values and embeddings are untouched."
            }
            Scheme::Alibi => {
                "Added to the attention scores in every layer: a penalty that grows linearly \
                 with the distance between query and key, with a fixed slope per head."
            }
            Scheme::T5 => {
                "Added to the attention scores in every layer: one learned scalar per bucket of \
                 relative distance (and per head)."
            }
            Scheme::None => {
                "Nowhere: the model sees a bag of words (a decoder's causal mask alone still \
                 leaks some order)."
            }
        }
    }

    /// Whether the scheme adds vectors to the embeddings (and so has a position × dimension
    /// matrix).
    pub fn is_absolute(self) -> bool {
        matches!(self, Scheme::Sinusoidal | Scheme::Learned)
    }

    /// Whether the scheme uses the base slider.
    pub fn uses_base(self) -> bool {
        matches!(self, Scheme::Sinusoidal | Scheme::Rope)
    }
}
