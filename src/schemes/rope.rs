//! Rotary position embedding (RoFormer; GPT-NeoX, LLaMA) and the ways checkpoints extend it:
//! math in `math::rope`, the per-pair figure in `figures::rope`, configs in `rope_config`,
//! views in `ui::schemes`.

use yew::{classes, html, Callback, Html};

use super::{edit, edit_choice, view, Names, Positions, SchemeDef, Views};
use crate::action::Action;
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::figures::schemes::rope_extrapolation;
use crate::format::{file_number, plain};
use crate::limit::{Limit, BASE, D_MODEL, LENGTH, TRAINED_LENGTH};
use crate::math::rope::{Rope, RopePairing, RopeScaling};
use crate::rope_config::RopeConfig;
use crate::schemes::Scheme;
use crate::snippets::{py, Lib, Library};
use crate::state::Settings;
use crate::ui::controls::{options, Choice, NumberControl, Segmented};
use crate::ui::schemes::{RopeDistanceView, RopeTableView};
use crate::ui::settings::RopeConfigBox;
use crate::url::{read_edit, read_edit_choice, Param, Value};

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            id: "rope",
            short: "RoPE",
            label: "RoPE rotary (RoFormer, LLaMA)",
            entry: "Rotates the queries and keys inside every attention layer, so the score of query m and \
         key n depends on m − n; values and embeddings are untouched.",
        }
    }
    fn base_hint(&self) -> Option<&'static str> {
        Some("θ: 10000, or 500000 in LLaMA 3")
    }

    fn file_stem(&self, s: &Settings) -> String {
        let r = s.rope();
        let scaling = match r.scaling.id() {
            "none" => String::new(),
            id => format!("_{id}{}", file_number(r.scaling.factor())),
        };
        let (pairing, size) = (r.pairing.id(), super::size(s));
        format!(
            "rope_{pairing}_{size}_theta{}{scaling}",
            file_number(s.base)
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, &Lib::of(library))
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        s.rope = s.rope.checked();
    }

    fn attention_inputs(&self, s: &Settings, _n: usize, width: usize) -> Positions {
        let r = s.rope();
        Ok(PositionInputs::rotary(
            crate::math::rope::Rope::new(width, s.base, r.pairing, r.scaling)
                .with_rotary_fraction(s.rope.rotary_fraction),
        ))
    }

    fn attention_switch_text(&self) -> &'static str {
        "Switch the position information on: queries and keys are rotated by their positions, \
         so each score now depends on how far apart two words are and in which direction; the \
         outputs change and the summaries move apart."
    }

    fn column(&self, s: &Settings) -> ColumnInputs {
        ColumnInputs::Rotary(s.rope(), s.length)
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        format!(
            "{} Position interpolation squeezes long inputs back into the trained range; \
             NTK-aware scaling slows the slow pairs most.",
            rope_extrapolation(&s.rope(), s.length, s.trained_length)
        )
    }

    fn controls(&self, s: &Settings, cb: &Callback<Action>) -> Html {
        let preset = |value: f64, text: &'static str| {
            let cb = cb.clone();
            html! {
                <button type="button" class={classes!("button", "button-small", (s.base == value).then_some("button-active"))}
                    aria-pressed={(s.base == value).to_string()}
                    onclick={Callback::from(move |_| cb.emit(Action::SetBase(value)))}>
                    { text }
                </button>
            }
        };
        html! {
            <>
                <div class="control presets" role="group" aria-label="θ presets">
                    { preset(10_000.0, "θ = 10,000 (LLaMA 1–2)") }
                    { preset(500_000.0, "θ = 500,000 (LLaMA 3)") }
                </div>
                <Choice id="rope-pairing" label="Pairing" selected={s.rope.pairing.id()}
                    options={options(&RopePairing::ALL, RopePairing::id, RopePairing::label)}
                    on_change={edit_choice(cb, "rope_pairing", &RopePairing::ALL.map(RopePairing::id), |s, p| s.rope.pairing = RopePairing::ALL[p as usize])} />
                <div class="control">
                    <Segmented name="extension" legend="Context extension"
                        options={Extension::ALL.iter().map(|e| (e.id().into(), e.label().into())).collect::<Vec<_>>()}
                        selected={s.rope.extension.id()}
                        on_change={edit_choice(cb, "extension", &Extension::ALL.map(Extension::id), |s, p| s.rope.extension = Extension::ALL[p as usize])} />
                    if s.rope.extension != Extension::None {
                        <p class="control-help">{ extension_help(s) }</p>
                    }
                </div>
                if s.rope.extension != Extension::None {
                    <NumberControl id="rope-factor" limit={ROPE_FACTOR} value={s.rope.factor}
                        on_change={edit(cb, "factor", |s, x| s.rope.factor = x)} hint="how much longer" />
                }
                if s.rope.extension == Extension::Llama3 {
                    <NumberControl id="rope-low" limit={LOW_FREQ} value={s.rope.low_freq}
                        on_change={edit(cb, "low_freq", |s, x| s.rope.low_freq = x)} hint="low_freq_factor" />
                    <NumberControl id="rope-high" limit={HIGH_FREQ} value={s.rope.high_freq}
                        on_change={edit(cb, "high_freq", |s, x| s.rope.high_freq = x)} hint="high_freq_factor" />
                }
                if s.rope.extension == Extension::Yarn {
                    <NumberControl id="beta-fast" limit={BETA_FAST} value={s.rope.beta_fast}
                        on_change={edit(cb, "beta_fast", |s, x| s.rope.beta_fast = x)} hint="beta_fast: left alone above" />
                    <NumberControl id="beta-slow" limit={BETA_SLOW} value={s.rope.beta_slow}
                        on_change={edit(cb, "beta_slow", |s, x| s.rope.beta_slow = x)} hint="beta_slow: interpolated below" />
                    <NumberControl id="mscale" limit={MSCALE} value={s.rope.mscale}
                        on_change={edit(cb, "mscale", |s, x| s.rope.mscale = x)} hint="DeepSeek's mscale (0: unset)" />
                    <NumberControl id="mscale-all-dim" limit={MSCALE_ALL_DIM} value={s.rope.mscale_all_dim}
                        on_change={edit(cb, "mscale_all_dim", |s, x| s.rope.mscale_all_dim = x)} hint="mscale_all_dim (0: unset)" />
                }
                <NumberControl id="rotary-fraction" limit={ROTARY_FRACTION} value={s.rope.rotary_fraction}
                    on_change={edit(cb, "rotary", |s, x| s.rope.rotary_fraction = x)}
                    hint={format!("{} of {} dimensions rotated", s.rope().rotary_dim, s.d_model)} />
                <RopeConfigBox on_action={cb.clone()} />
            </>
        }
    }

    fn views(&self) -> Views {
        Views {
            matrix: view::<RopeTableView>,
            distance: view::<RopeDistanceView>,
        }
    }
}

/// RoPE's own settings: which dimensions rotate together, the extension method with its
/// numbers, and the share of each head that rotates.
#[derive(Clone, Copy, Debug, PartialEq)]
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
            rotary_fraction: ROTARY_FRACTION.accept(self.rotary_fraction).value,
            ..self
        };
        if r.high_freq <= r.low_freq {
            r.high_freq = (r.low_freq * 2.0).min(HIGH_FREQ.max);
            if r.high_freq <= r.low_freq {
                r.low_freq = r.high_freq / 2.0;
            }
        }
        r
    }

    /// RoPE at this width and base; `original` is the length the model was trained on and
    /// `length` the current one (dynamic NTK grows the base past the original).
    pub fn rope(&self, d_model: usize, base: f64, original: usize, length: usize) -> Rope {
        let factor = self.factor;
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
                attention_factor: None,
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
}

impl Extension {
    pub const ALL: [Extension; 6] = [
        Extension::None,
        Extension::Interpolation,
        Extension::Ntk,
        Extension::Dynamic,
        Extension::Llama3,
        Extension::Yarn,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Extension::None => "none",
            Extension::Interpolation => "pi",
            Extension::Ntk => "ntk",
            Extension::Dynamic => "dynamic",
            Extension::Llama3 => "llama3",
            Extension::Yarn => "yarn",
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
        }
    }
}

pub const ROPE_FACTOR: Limit = Limit::real("scale factor s", 1.0, 64.0, true);
pub const LOW_FREQ: Limit = Limit::real("low_freq_factor", 0.5, 64.0, true);
pub const HIGH_FREQ: Limit = Limit::real("high_freq_factor", 0.5, 64.0, true);
pub const BETA_FAST: Limit = Limit::real("beta_fast", 0.1, 128.0, true);
pub const BETA_SLOW: Limit = Limit::real("beta_slow", 0.1, 128.0, true);
pub const MSCALE: Limit = Limit::real("mscale", 0.0, 10.0, false);
pub const MSCALE_ALL_DIM: Limit = Limit::real("mscale_all_dim", 0.0, 10.0, false);
pub const ROTARY_FRACTION: Limit = Limit::real("rotary fraction", 0.05, 1.0, false);

/// RoPE's link parameters, written after the seed (before ALiBi's and T5's).
#[rustfmt::skip]
pub const PARAMS: &[Param] = &[
    Param {
        key: "rope_pairing",
        read: |v, _| read_edit_choice("rope_pairing", v, &RopePairing::ALL.map(RopePairing::id), |s, p| s.rope.pairing = RopePairing::ALL[p as usize]),
        write: |s| Value::from(s.rope.pairing.id()),
    },
    Param {
        key: "extension",
        read: |v, _| read_edit_choice("extension", v, &Extension::ALL.map(Extension::id), |s, p| s.rope.extension = Extension::ALL[p as usize]),
        write: |s| Value::from(s.rope.extension.id()),
    },
    Param { key: "factor", read: |v, _| read_edit("factor", v, ROPE_FACTOR, |s, x| s.rope.factor = x), write: |s| Value::from(s.rope.factor) },
    Param { key: "low_freq", read: |v, _| read_edit("low_freq", v, LOW_FREQ, |s, x| s.rope.low_freq = x), write: |s| Value::from(s.rope.low_freq) },
    Param { key: "high_freq", read: |v, _| read_edit("high_freq", v, HIGH_FREQ, |s, x| s.rope.high_freq = x), write: |s| Value::from(s.rope.high_freq) },
    Param { key: "beta_fast", read: |v, _| read_edit("beta_fast", v, BETA_FAST, |s, x| s.rope.beta_fast = x), write: |s| Value::from(s.rope.beta_fast) },
    Param { key: "beta_slow", read: |v, _| read_edit("beta_slow", v, BETA_SLOW, |s, x| s.rope.beta_slow = x), write: |s| Value::from(s.rope.beta_slow) },
    Param { key: "mscale", read: |v, _| read_edit("mscale", v, MSCALE, |s, x| s.rope.mscale = x), write: |s| Value::from(s.rope.mscale) },
    Param { key: "mscale_all_dim", read: |v, _| read_edit("mscale_all_dim", v, MSCALE_ALL_DIM, |s, x| s.rope.mscale_all_dim = x), write: |s| Value::from(s.rope.mscale_all_dim) },
    Param { key: "rotary", read: |v, _| read_edit("rotary", v, ROTARY_FRACTION, |s, x| s.rope.rotary_fraction = x), write: |s| Value::from(s.rope.rotary_fraction) },
];

impl RopeConfig {
    /// Sets RoPE as this configuration has it: θ, the head width as d_model, the rotary
    /// fraction, the extension method with its parameters, the original length as the trained
    /// length, and a length that shows the extended context (capped at the slider's end).
    pub fn apply(&self, s: &mut Settings) {
        use crate::rope_config::Method;
        s.scheme = Scheme::Rope;
        s.base = BASE.accept(self.base).value;
        if let Some(d) = self.head_dim {
            s.d_model = D_MODEL.accept(d as f64).value as usize;
        }
        s.rope.rotary_fraction = ROTARY_FRACTION.accept(self.rotary_fraction).value;
        s.rope.extension = match self.method {
            Method::None => Extension::None,
            Method::Linear => Extension::Interpolation,
            Method::Dynamic => Extension::Dynamic,
            Method::Llama3 => Extension::Llama3,
            Method::Yarn => Extension::Yarn,
        };
        s.rope.factor = ROPE_FACTOR.accept(self.factor.max(1.0)).value;
        s.rope.low_freq = LOW_FREQ.accept(self.low).value;
        s.rope.high_freq = HIGH_FREQ.accept(self.high).value;
        s.rope.beta_fast = BETA_FAST.accept(self.beta_fast).value;
        s.rope.beta_slow = BETA_SLOW.accept(self.beta_slow).value;
        s.rope.mscale = MSCALE.accept(self.mscale).value;
        s.rope.mscale_all_dim = MSCALE_ALL_DIM.accept(self.mscale_all_dim).value;
        if let Some(o) = self.original {
            s.trained_length = TRAINED_LENGTH.accept(o as f64).value as usize;
            let shown = if self.method == Method::None {
                o as f64
            } else {
                o as f64 * self.factor
            };
            s.length = LENGTH.accept(shown.min(LENGTH.max)).value as usize;
        }
        s.position = s.position.min(s.length - 1);
        s.offset = s.offset.min((s.length - 1).max(1));
    }
}

/// One sentence on what the chosen extension does, with its numbers.
fn extension_help(s: &Settings) -> String {
    let r = s.rope();
    let o = s.trained_length;
    match s.rope.extension {
        Extension::None => String::new(),
        Extension::Interpolation => format!("positions divided by s = {}", plain(s.rope.factor)),
        Extension::Ntk => format!("base × s^(d/(d−2)) = {}", plain(r.effective_base())),
        Extension::Dynamic => format!(
            "the base grows once the length passes the original {o} (the trained length): now {}",
            plain(r.effective_base())
        ),
        Extension::Llama3 => format!(
            "wavelengths under {o}/{} left alone, over {o}/{} divided by s, a smooth band between \
             (original = the trained length)",
            plain(s.rope.high_freq),
            plain(s.rope.low_freq)
        ),
        Extension::Yarn => format!(
            "a ramp from left alone (more than {} turns over {o}) to interpolated (fewer than {}); \
             cos and sin × {}",
            plain(s.rope.beta_fast),
            plain(s.rope.beta_slow),
            crate::format::significant(r.attention_factor(), 4)
        ),
    }
}

/// NumPy or PyTorch code for the cos cache, with the extension method and partial rotary.
fn code(s: &Settings, lib: &Lib) -> String {
    let Lib {
        name,
        float,
        cat,
        axis,
    } = *lib;
    let rope = s.rope();
    let (scale, base) = match rope.scaling {
        RopeScaling::Interpolation(f) => (py(f), py(s.base)),
        RopeScaling::Ntk(f) => (
            "1.0".into(),
            format!(
                "{} * {} ** (d_model / (d_model - 2))  # NTK-aware scaling",
                py(s.base),
                py(f)
            ),
        ),
        RopeScaling::DynamicNtk {
            factor,
            original,
            length,
        } => (
            "1.0".into(),
            format!(
                "{0} * max({1} * {2} / {3} - ({1} - 1), 1.0) ** ({4} / ({4} - 2)) if {2} > {3} else {0}  # dynamic NTK",
                py(s.base),
                py(factor),
                length,
                original,
                2 * rope.pair_count()
            ),
        ),
        _ => ("1.0".into(), py(s.base)),
    };
    let method = match rope.scaling {
        RopeScaling::Llama3 {
            factor,
            low,
            high,
            original,
        } => format!(
            "# Llama 3.1's \"llama3\" rescaling (factor {f}, low {lo}, high {hi}, original {o})\n\
             wavelen = 2 * {pi} / theta\n\
             smooth = ({o} / wavelen - {lo}) / ({hi} - {lo})\n\
             theta = {wh}(wavelen < {o} / {hi}, theta, {wh}(wavelen > {o} / {lo}, theta / {f}, (1 - smooth) * theta / {f} + smooth * theta))\n",
            f = py(factor),
            lo = py(low),
            hi = py(high),
            o = original,
            pi = if name == "np" { "np.pi" } else { "torch.pi" },
            wh = if name == "np" { "np.where" } else { "torch.where" },
        ),
        RopeScaling::Yarn {
            factor,
            original,
            beta_fast,
            beta_slow,
            ..
        } => format!(
            "# YaRN (factor {f}, original {o}, beta_fast {bf}, beta_slow {bs}): a ramp from left alone to interpolated\n\
             import math\n\
             corr = lambda r: 2 * half * math.log({o} / (r * 2 * math.pi)) / (2 * math.log(base))\n\
             low, high = max(math.floor(corr({bf})), 0), min(math.ceil(corr({bs})), 2 * half - 1)\n\
             ramp = {name}.clip(({name}.arange(half, {float}) - low) / ((high - low) or 0.001), 0, 1)\n\
             theta = theta / {f} * ramp + theta * (1 - ramp)\n\
             # cos and sin are multiplied by the attention factor {af} (below)\n",
            f = py(factor),
            o = original,
            bf = py(beta_fast),
            bs = py(beta_slow),
            af = py(rope.attention_factor()),
        ),
        _ => String::new(),
    };
    let layout = match s.rope.pairing {
        RopePairing::RotateHalf => format!(
            "# rotate-half (GPT-NeoX, LLaMA in Hugging Face): the cache repeats [θ | θ]\n\
             cols = {cat}([angles, angles], {axis}=1)\n"
        ),
        RopePairing::Adjacent => format!(
            "# adjacent pairs (GPT-J, RoFormer, Meta's LLaMA): each θ twice, side by side\n\
             cols = {}\n",
            if name == "np" {
                "np.repeat(angles, 2, axis=1)"
            } else {
                "torch.repeat_interleave(angles, 2, dim=1)"
            }
        ),
    };
    format!(
        "d_model, length = {}, {}\n\
         base = {base}\n\
         scale = {scale}  # position interpolation divides positions by this factor\n\
         half = {rotary} // 2  # rotated pairs\n\
         theta = base ** (-(2 * {name}.arange(half, {float})) / (2 * half))\n\
         {method}\
         omega = theta * (1.0 / scale)\n\
         angles = {name}.arange(length, {float})[:, None] * omega[None, :]\n\
         {layout}\
         factor = {af}  # attention factor: YaRN scales cos and sin by it (1 otherwise)\n\
         keep = {}  # dimensions past the rotated pairs pass through: cos 1, sin 0\n\
         cos = {cat}([factor * {name}.cos(cols), keep + 1], {axis}=1)\n\
         sin = {cat}([factor * {name}.sin(cols), keep], {axis}=1)\n\
         matrix = {cat}([cos, sin], {axis}=1)  # the cos and sin caches, length × 2·d_model\n",
        s.d_model,
        s.length,
        lib.zeros("length", "d_model - 2 * half"),
        af = py(rope.attention_factor()),
        rotary = if rope.rotary_dim == s.d_model {
            "d_model".to_string()
        } else {
            rope.rotary_dim.to_string()
        },
    )
}
