//! The position schemes the app compares; what each one is and does is in `crate::schemes`.

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
        self.def().id()
    }

    pub fn from_id(id: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    pub fn short(self) -> &'static str {
        self.def().short()
    }

    pub fn label(self) -> &'static str {
        self.def().label()
    }

    /// One sentence: where the scheme enters the model.
    pub fn entry(self) -> &'static str {
        self.def().entry()
    }

    /// Whether the scheme adds vectors to the embeddings (and so has a position × dimension
    /// matrix).
    pub fn is_absolute(self) -> bool {
        self.def().is_absolute()
    }

    /// Whether the scheme uses the base slider.
    pub fn uses_base(self) -> bool {
        self.def().base_hint().is_some()
    }
}
