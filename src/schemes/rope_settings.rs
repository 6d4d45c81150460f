//! RoPE's own settings (which dimensions rotate together, the extension method with its
//! numbers, the rotary share) and their limits: data the app's settings hold, below the scheme's
//! behaviour in `schemes::rope`.

use std::rc::Rc;

use crate::limit::Limit;
use crate::math::rope::{Rope, RopePairing, RopeScaling};

/// RoPE's own settings: which dimensions rotate together, the extension method with its
/// numbers, and the share of each head that rotates.
#[derive(Clone, Debug, PartialEq)]
pub struct RopeSettings {
    pub pairing: RopePairing,
    /// How positions past the trained length are handled, and by what factor.
    pub extension: Extension,
    pub factor: f64,
    /// Llama 3.1's `low_freq_factor` and `high_freq_factor`.
    pub low_freq: f64,
    pub high_freq: f64,
    /// YaRN's ramp ends (`beta_fast`, `beta_slow`) and DeepSeek's `mscale` and
    /// `mscale_all_dim` (0: not given).
    pub beta_fast: f64,
    pub beta_slow: f64,
    pub mscale: f64,
    pub mscale_all_dim: f64,
    /// YaRN: round the ramp's ends to whole pairs (transformers' default; gpt-oss: false).
    pub truncate: bool,
    /// YaRN and LongRoPE: an explicit `attention_factor` (0: the method's formula).
    pub attention_factor: f64,
    /// LongRoPE's factor per pair, up to the original length and past it (float32 values, as
    /// transformers holds them; empty: 1 for every pair).
    pub short_factor: Rc<[f64]>,
    pub long_factor: Rc<[f64]>,
    /// The share of each head's dimensions rotated (GPT-NeoX's `rotary_pct`, Phi's
    /// `partial_rotary_factor`).
    pub rotary_fraction: f64,
}

impl Default for RopeSettings {
    fn default() -> Self {
        RopeSettings {
            pairing: RopePairing::RotateHalf,
            extension: Extension::None,
            factor: 4.0,
            low_freq: 1.0,
            high_freq: 4.0,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: 0.0,
            mscale_all_dim: 0.0,
            truncate: true,
            attention_factor: 0.0,
            short_factor: Rc::from(Vec::new()),
            long_factor: Rc::from(Vec::new()),
            rotary_fraction: 1.0,
        }
    }
}

impl RopeSettings {
    /// Every number inside its limits, and llama3's band the right way round (it divides by
    /// high − low).
    pub fn checked(self) -> Self {
        let mut r = RopeSettings {
            factor: ROPE_FACTOR.accept(self.factor).value,
            low_freq: LOW_FREQ.accept(self.low_freq).value,
            high_freq: HIGH_FREQ.accept(self.high_freq).value,
            beta_fast: BETA_FAST.accept(self.beta_fast).value,
            beta_slow: BETA_SLOW.accept(self.beta_slow).value,
            mscale: MSCALE.accept(self.mscale).value,
            mscale_all_dim: MSCALE_ALL_DIM.accept(self.mscale_all_dim).value,
            attention_factor: ATTENTION_FACTOR.accept(self.attention_factor).value,
            rotary_fraction: ROTARY_FRACTION.accept(self.rotary_fraction).value,
            ..self
        };
        if r.high_freq <= r.low_freq {
            r.high_freq = (r.low_freq * 2.0).min(HIGH_FREQ.max);
            if r.high_freq <= r.low_freq {
                r.low_freq = r.high_freq / 2.0;
            }
        }
        for list in [&mut r.short_factor, &mut r.long_factor] {
            if list.len() > MAX_LONGROPE_FACTORS
                || list
                    .iter()
                    .any(|f| !(f.is_finite() && LONGROPE_FACTOR.accept(*f).note.is_none()))
            {
                *list = list
                    .iter()
                    .take(MAX_LONGROPE_FACTORS)
                    .map(|f| LONGROPE_FACTOR.accept(*f).value as f32 as f64)
                    .collect();
            }
        }
        r
    }

    /// RoPE at this width and base; `original` is the length the model was trained on and
    /// `length` the current one (dynamic NTK grows the base past the original, and LongRoPE
    /// takes its long factors past it).
    pub fn rope(&self, d_model: usize, base: f64, original: usize, length: usize) -> Rope {
        let factor = self.factor;
        let explicit = (self.attention_factor > 0.0).then_some(self.attention_factor);
        let scaling = match self.extension {
            Extension::None => RopeScaling::None,
            Extension::Interpolation => RopeScaling::Interpolation(factor),
            Extension::Ntk => RopeScaling::Ntk(factor),
            Extension::Dynamic => RopeScaling::DynamicNtk {
                factor,
                original,
                length,
            },
            Extension::Llama3 => RopeScaling::Llama3 {
                factor,
                low: self.low_freq,
                high: self.high_freq,
                original,
            },
            Extension::Yarn => RopeScaling::Yarn {
                factor,
                original,
                beta_fast: self.beta_fast,
                beta_slow: self.beta_slow,
                mscale: self.mscale,
                mscale_all_dim: self.mscale_all_dim,
                attention_factor: explicit,
                truncate: self.truncate,
            },
            Extension::LongRope => RopeScaling::LongRope {
                short: self.short_factor.clone(),
                long: self.long_factor.clone(),
                original,
                length,
                factor,
                attention_factor: explicit,
            },
        };
        Rope::new(d_model, base, self.pairing, scaling).with_rotary_fraction(self.rotary_fraction)
    }
}

/// RoPE's context extension, as chosen in the UI (the factor is a separate setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Extension {
    #[default]
    None,
    Interpolation,
    Ntk,
    /// Hugging Face's "dynamic": NTK with a base that grows with the length past the original.
    Dynamic,
    /// Llama 3.1's "llama3" rescaling.
    Llama3,
    Yarn,
    /// Phi-3's "longrope": a factor per pair, short and long.
    LongRope,
}

impl Extension {
    pub const ALL: [Extension; 7] = [
        Extension::None,
        Extension::Interpolation,
        Extension::Ntk,
        Extension::Dynamic,
        Extension::Llama3,
        Extension::Yarn,
        Extension::LongRope,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Extension::None => "none",
            Extension::Interpolation => "pi",
            Extension::Ntk => "ntk",
            Extension::Dynamic => "dynamic",
            Extension::Llama3 => "llama3",
            Extension::Yarn => "yarn",
            Extension::LongRope => "longrope",
        }
    }

    pub fn from_id(id: &str) -> Option<Extension> {
        Extension::ALL.into_iter().find(|e| e.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            Extension::None => "none",
            Extension::Interpolation => "position interpolation",
            Extension::Ntk => "NTK-aware base",
            Extension::Dynamic => "dynamic NTK",
            Extension::Llama3 => "Llama 3.1 (llama3)",
            Extension::Yarn => "YaRN",
            Extension::LongRope => "LongRoPE (Phi-3)",
        }
    }
}

/// Factors as checkpoints ship them: gpt-oss 32, DeepSeek-V3 40, Phi-3 32 (128K / 4K); past
/// 1,024 is no model's, and a pasted 1e308 is clamped here with a note.
pub const ROPE_FACTOR: Limit = Limit::real("scale factor s", 1.0, 1024.0, true);
pub const LOW_FREQ: Limit = Limit::real("low_freq_factor", 0.5, 64.0, true);
pub const HIGH_FREQ: Limit = Limit::real("high_freq_factor", 0.5, 64.0, true);
pub const BETA_FAST: Limit = Limit::real("beta_fast", 0.1, 128.0, true);
pub const BETA_SLOW: Limit = Limit::real("beta_slow", 0.1, 128.0, true);
pub const MSCALE: Limit = Limit::real("mscale", 0.0, 10.0, false);
pub const MSCALE_ALL_DIM: Limit = Limit::real("mscale_all_dim", 0.0, 10.0, false);
pub const ATTENTION_FACTOR: Limit = Limit::real("attention factor", 0.0, 10.0, false);
pub const ROTARY_FRACTION: Limit = Limit::real("rotary fraction", 0.05, 1.0, false);
/// One LongRoPE factor (Phi-3's run from 1 to about 65).
pub const LONGROPE_FACTOR: Limit = Limit::real("longrope factor", 0.001, 10_000.0, true);
/// A factor per pair of the widest head.
pub const MAX_LONGROPE_FACTORS: usize = 2048;
/// The most characters the two factor lists may take in a link (the whole link is read up to
/// 4,096): longer lists are left out of it, and the sidebar says so.
pub const LINK_FACTORS_MAX: usize = 2400;
