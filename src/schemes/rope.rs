//! Rotary position embedding (RoFormer; GPT-NeoX, LLaMA) and the ways checkpoints extend it:
//! math in `math::rope`, the per-pair figure in `figures::rope`, configs in `rope_config`,
//! views in `ui::schemes`.

use std::rc::Rc;

use yew::{classes, html, Callback, Html};

use super::{edit, edit_choice, view, Names, Positions, SchemeDef, Views};
use crate::action::Action;
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::figures::schemes::rope_extrapolation;
use crate::format::{file_number, group_thousands, plain, significant};
use crate::limit::{Limit, BASE, D_MODEL, LENGTH, TRAINED_LENGTH};
use crate::math::rope::{Rope, RopePairing, RopeScaling};
use crate::rope_config::{Method, RopeConfig};
use crate::schemes::Scheme;
use crate::snippets::{py, Lib, Library};
use crate::state::Settings;
use crate::ui::controls::{options, Choice, NumberControl, Segmented, Toggle};
use crate::ui::schemes::{RopeDistanceView, RopeTableView};
use crate::ui::settings::RopeConfigBox;
use crate::url::{read_edit, read_edit_choice, read_edit_flag, Param, Read, Value};

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
        s.rope = s.rope.clone().checked();
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
        let truncate = {
            let set = edit(cb, "truncate", |s, x| s.rope.truncate = x != 0.0);
            Callback::from(move |v: bool| set.emit(if v { 1.0 } else { 0.0 }))
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
                        on_change={edit(cb, "factor", |s, x| s.rope.factor = x)}
                        hint={if s.rope.extension == Extension::LongRope { "s: sets the attention factor" } else { "how much longer" }} />
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
                    <div class="control">
                        <Toggle id="rope-truncate" label="truncate: round the ramp's ends to whole pairs"
                            checked={s.rope.truncate} on_change={truncate} />
                    </div>
                }
                if matches!(s.rope.extension, Extension::Yarn | Extension::LongRope) {
                    <NumberControl id="rope-attention-factor" limit={ATTENTION_FACTOR} value={s.rope.attention_factor}
                        on_change={edit(cb, "attention_factor", |s, x| s.rope.attention_factor = x)}
                        hint="attention_factor (0: from the formula)" />
                }
                <NumberControl id="rotary-fraction" limit={ROTARY_FRACTION} value={s.rope.rotary_fraction}
                    on_change={edit(cb, "rotary", |s, x| s.rope.rotary_fraction = x)}
                    hint={rotated_text(s)} />
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

/// A LongRoPE list as the link writes it: each factor's shortest float32 form ("1.02").
fn factors_text(list: &[f64]) -> String {
    list.iter()
        .map(|f| format!("{}", *f as f32))
        .collect::<Vec<_>>()
        .join(",")
}

/// Whether the factor lists fit in a link.
pub fn factors_in_link(r: &RopeSettings) -> bool {
    factors_text(&r.short_factor).len() + factors_text(&r.long_factor).len() <= LINK_FACTORS_MAX
}

fn write_factors(r: &RopeSettings, list: &[f64]) -> Value {
    if list.is_empty() || !factors_in_link(r) {
        Value::Unset
    } else {
        Value::Text(factors_text(list))
    }
}

/// Reads a LongRoPE list from a link: positive numbers separated by commas, each held to
/// [`LONGROPE_FACTOR`] and to float32, at most [`MAX_LONGROPE_FACTORS`] of them.
pub fn read_factors(key: &'static str, text: &str, long: bool) -> Read {
    let parts: Vec<&str> = text
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect();
    let shown: String = text.chars().take(24).collect();
    let mut values = Vec::with_capacity(parts.len().min(MAX_LONGROPE_FACTORS));
    let mut notes = Vec::new();
    for (i, part) in parts.iter().enumerate().take(MAX_LONGROPE_FACTORS) {
        match part.parse::<f64>() {
            Ok(v) if v.is_finite() && v > 0.0 => {
                let a = LONGROPE_FACTOR.accept(v);
                notes.extend(a.note);
                values.push(a.value as f32 as f64);
            }
            _ => {
                return Err(format!(
                    "{key}={shown}: entry {} is not a positive number; kept the default.",
                    i + 1
                ))
            }
        }
    }
    if values.is_empty() {
        return Err(format!("{key}={shown}: no factors; kept the default."));
    }
    if parts.len() > MAX_LONGROPE_FACTORS {
        notes.push(format!(
            "only the first {MAX_LONGROPE_FACTORS} of {} factors are kept.",
            parts.len()
        ));
    }
    Ok((
        Action::SetLongropeFactors {
            long,
            factors: values,
        },
        (!notes.is_empty()).then(|| format!("{key}: {}", notes.join(" "))),
    ))
}

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
    Param { key: "truncate", read: |v, _| read_edit_flag("truncate", v, |s, x| s.rope.truncate = x != 0.0), write: |s| Value::from(s.rope.truncate) },
    Param { key: "attention_factor", read: |v, _| read_edit("attention_factor", v, ATTENTION_FACTOR, |s, x| s.rope.attention_factor = x), write: |s| Value::from(s.rope.attention_factor) },
    Param { key: "short_factor", read: |v, _| read_factors("short_factor", v, false), write: |s| write_factors(&s.rope, &s.rope.short_factor) },
    Param { key: "long_factor", read: |v, _| read_factors("long_factor", v, true), write: |s| write_factors(&s.rope, &s.rope.long_factor) },
    Param { key: "rotary", read: |v, _| read_edit("rotary", v, ROTARY_FRACTION, |s, x| s.rope.rotary_fraction = x), write: |s| Value::from(s.rope.rotary_fraction) },
];

impl RopeConfig {
    /// Sets what this configuration names, and only that: θ, the head width as d_model, the
    /// rotary fraction, the extension method with its parameters, the original length as the
    /// trained length, and a length that shows the extended context (capped at the slider's
    /// end). Returns a sentence for each value that had to be clamped, with its old and new
    /// value (the reducer drops them; the paste box shows them).
    pub fn apply(&self, s: &mut Settings) -> Vec<String> {
        let mut notes = Vec::new();
        let mut clamped_factors = false;
        let mut take = |limit: Limit, key: &str, v: f64| {
            let a = limit.accept(v);
            if let Some(n) = a.note {
                notes.push(format!("{key}: {n}"));
            }
            a.value
        };
        s.scheme = Scheme::Rope;
        if let Some(b) = self.base {
            s.base = take(BASE, "rope_theta", b);
        }
        if let Some(d) = self.head_dim {
            s.d_model = take(D_MODEL, "head width", d) as usize;
        }
        if let Some(f) = self.rotary_fraction {
            s.rope.rotary_fraction = take(ROTARY_FRACTION, "rotary fraction", f);
        }
        let mut times = 1.0;
        if let Some(c) = &self.scaling {
            s.rope.extension = match c.method {
                Method::None => Extension::None,
                Method::Linear => Extension::Interpolation,
                Method::Dynamic => Extension::Dynamic,
                Method::Llama3 => Extension::Llama3,
                Method::Yarn => Extension::Yarn,
                Method::LongRope => Extension::LongRope,
            };
            if c.method != Method::None {
                s.rope.factor = take(ROPE_FACTOR, "factor", c.factor);
                times = s.rope.factor;
            }
            match c.method {
                Method::Llama3 => {
                    s.rope.low_freq = take(LOW_FREQ, "low_freq_factor", c.low);
                    s.rope.high_freq = take(HIGH_FREQ, "high_freq_factor", c.high);
                }
                Method::Yarn => {
                    s.rope.beta_fast = take(BETA_FAST, "beta_fast", c.beta_fast);
                    s.rope.beta_slow = take(BETA_SLOW, "beta_slow", c.beta_slow);
                    s.rope.mscale = take(MSCALE, "mscale", c.mscale);
                    s.rope.mscale_all_dim =
                        take(MSCALE_ALL_DIM, "mscale_all_dim", c.mscale_all_dim);
                    s.rope.truncate = c.truncate;
                }
                Method::LongRope => {
                    let clamp = |v: &[f64]| -> Vec<f64> {
                        v.iter()
                            .map(|f| LONGROPE_FACTOR.accept(*f).value as f32 as f64)
                            .collect()
                    };
                    let (short, long) = (clamp(&c.short_factor), clamp(&c.long_factor));
                    clamped_factors = short != c.short_factor || long != c.long_factor;
                    s.rope.short_factor = short.into();
                    s.rope.long_factor = long.into();
                }
                _ => {}
            }
            if matches!(c.method, Method::Yarn | Method::LongRope) {
                s.rope.attention_factor = match c.attention_factor {
                    Some(a) => take(ATTENTION_FACTOR, "attention_factor", a),
                    None => 0.0,
                };
            }
        }
        if let Some(o) = self.original {
            s.trained_length = take(TRAINED_LENGTH, "trained length", o) as usize;
        }
        if clamped_factors {
            notes.push(format!(
                "Some longrope factors are outside {} … {}; they were clamped to it.",
                plain(LONGROPE_FACTOR.min),
                plain(LONGROPE_FACTOR.max)
            ));
        }
        if self.original.is_some() {
            // The extended context: the trained length times the factor.
            let reach = s.trained_length as f64 * times;
            s.length = LENGTH.accept(reach.min(LENGTH.max)).value as usize;
            if reach > LENGTH.max {
                notes.push(format!(
                    "The config reaches length {}{}, past the view's longest: length set to {}.",
                    group_thousands(reach as u64),
                    if times > 1.0 {
                        " (the trained length times the factor)"
                    } else {
                        ""
                    },
                    group_thousands(LENGTH.max as u64)
                ));
            }
        }
        s.position = s.position.min(s.length - 1);
        s.offset = s.offset.min((s.length - 1).max(1));
        s.rope_m = s.rope_m.min(s.length - 1);
        s.rope_n = s.rope_n.min(s.length - 1);
        notes
    }

    /// What the paste box says once this configuration is applied: what was read and where
    /// from, each value clamped (old and new), and what was not used.
    pub fn report(&self, what: &str) -> String {
        let mut said = vec![format!("Loaded {what}.")];
        if !self.read.is_empty() {
            said.push(format!("Read: {}.", self.read.join("; ")));
        }
        said.extend(self.apply(&mut Settings::default()));
        said.extend(self.notes.iter().cloned());
        said.join(" ")
    }
}

/// The sidebar's count of rotated dimensions (and, for an odd partial width, how it rounds).
fn rotated_text(s: &Settings) -> String {
    let r = s.rope();
    let mut text = format!("{} of {} dimensions rotated", r.rotated_width(), s.d_model);
    if r.rotary_dim < s.d_model && r.rotary_dim % 2 == 1 {
        text.push_str(&format!(
            ": int({} × {}) = {}, {} frequencies over {}",
            s.d_model,
            plain(s.rope.rotary_fraction),
            r.rotary_dim,
            r.pair_count(),
            r.rotary_dim
        ));
    }
    text
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
            "a ramp from left alone (more than {} turns over {o}) to interpolated (fewer than {}), \
             its ends {}; cos and sin × {}",
            plain(s.rope.beta_fast),
            plain(s.rope.beta_slow),
            if s.rope.truncate {
                "rounded to whole pairs (truncate)"
            } else {
                "not rounded (truncate off)"
            },
            significant(r.attention_factor(), 4)
        ),
        Extension::LongRope => {
            let pairs = r.pair_count();
            let (long, list) = r.scaling.longrope_factors().unwrap_or((false, &[]));
            let mut text = if list.is_empty() {
                "no factors loaded: every pair's factor is 1 (load the Phi-3.5 preset or paste \
                 a config)"
                    .to_string()
            } else {
                format!(
                    "each pair divided by its own factor: {} (the length {} is {} the original \
                     {o})",
                    if long { "long_factor" } else { "short_factor" },
                    group_thousands(s.length as u64),
                    if long { "past" } else { "within" }
                )
            };
            if !list.is_empty() && list.len() != pairs {
                text.push_str(&format!(
                    "; the list has {} factors for {pairs} pairs, so {}",
                    list.len(),
                    if list.len() > pairs {
                        format!("only the first {pairs} are used")
                    } else {
                        format!("pairs {} on use 1", list.len())
                    }
                ));
            }
            text.push_str(&format!(
                "; cos and sin × {}",
                significant(r.attention_factor(), 4)
            ));
            if !factors_in_link(&s.rope) {
                text.push_str(&format!(
                    ". The factor lists ({} numbers) are too long for the link: a link to this \
                     page opens with every factor 1",
                    s.rope.short_factor.len() + s.rope.long_factor.len()
                ));
            }
            text
        }
    }
}

/// NumPy or PyTorch code for the cos and sin cache, with the extension method and partial
/// rotary. `positions` holds the cache's rows: any positions may be listed there.
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
                "{} * {} ** (dim / (dim - 2))  # NTK-aware scaling",
                py(s.base),
                py(f)
            ),
        ),
        RopeScaling::DynamicNtk {
            factor, original, ..
        } => (
            "1.0".into(),
            format!(
                "{0} * max({1} * length / {2} - ({1} - 1), 1.0) ** (dim / (dim - 2)) if length > {2} else {0}  # dynamic NTK: grows with the length",
                py(s.base),
                py(factor),
                original,
            ),
        ),
        _ => ("1.0".into(), py(s.base)),
    };
    let method = match &rope.scaling {
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
            f = py(*factor),
            lo = py(*low),
            hi = py(*high),
            o = original,
            pi = if name == "np" { "np.pi" } else { "torch.pi" },
            wh = if name == "np" { "np.where" } else { "torch.where" },
        ),
        RopeScaling::Yarn {
            factor,
            original,
            beta_fast,
            beta_slow,
            truncate,
            ..
        } => format!(
            "# YaRN (factor {f}, original {o}, beta_fast {bf}, beta_slow {bs}, truncate {t}): a ramp from left alone to interpolated\n\
             corr = lambda r: dim * math.log({o} / (r * 2 * math.pi)) / (2 * math.log(base))\n\
             {ends}\
             low, high = max(low, 0), min(high, dim - 1)\n\
             ramp = {name}.clip(({name}.arange(half, {float}) - low) / ((high - low) or 0.001), 0, 1)\n\
             theta = theta / {f} * ramp + theta * (1 - ramp)\n\
             # cos and sin are multiplied by the attention factor {af} (below)\n",
            f = py(*factor),
            o = original,
            bf = py(*beta_fast),
            bs = py(*beta_slow),
            t = if *truncate { "True" } else { "False" },
            ends = if *truncate {
                format!("low, high = math.floor(corr({})), math.ceil(corr({}))  # truncate: whole pairs\n", py(*beta_fast), py(*beta_slow))
            } else {
                format!("low, high = corr({}), corr({})  # truncate=False: the ends are not rounded\n", py(*beta_fast), py(*beta_slow))
            },
            af = py(rope.attention_factor()),
        ),
        RopeScaling::LongRope {
            original,
            short,
            long,
            ..
        } => {
            // The factor of every pair as the app uses it (1 past the end of a list).
            let list = |factors: &[f64]| {
                let values: Vec<String> = (0..rope.pair_count())
                    .map(|i| {
                        let f = factors.get(i).copied().filter(|f| f.is_finite() && *f > 0.0);
                        format!("{}", f.unwrap_or(1.0) as f32)
                    })
                    .collect();
                if name == "np" {
                    format!("np.array([{}], dtype=np.float32).astype(np.float64)", values.join(", "))
                } else {
                    format!("torch.tensor([{}], dtype=torch.float32).double()", values.join(", "))
                }
            };
            format!(
                "# LongRoPE (Phi-3): each pair divided by its own factor, long_factor past the original {o}\n\
                 short_factor = {short}  # float32, as transformers holds them\n\
                 long_factor = {long}\n\
                 theta = theta / (long_factor if length > {o} else short_factor)\n\
                 # cos and sin are multiplied by the attention factor {af} (below)\n",
                o = original,
                short = list(short),
                long = list(long),
                af = py(rope.attention_factor()),
            )
        }
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
    let dim_comment = if rope.rotary_dim < s.d_model {
        format!(
            "  # int(d_model * {}), as transformers truncates it",
            plain(s.rope.rotary_fraction)
        )
    } else if s.d_model % 2 == 1 {
        "  # d_model is odd: its last dimension is not rotated".to_string()
    } else {
        String::new()
    };
    let zeros = if name == "np" {
        "np.zeros((len(positions), d_model - 2 * half))".to_string()
    } else {
        "torch.zeros(len(positions), d_model - 2 * half, dtype=torch.float64)".to_string()
    };
    format!(
        "d_model, length = {}, {}\n\
         dim = {dim}{dim_comment}\n\
         half = {half}  # rotated pairs: len(range(0, dim, 2)); the cache is 2 * half wide\n\
         base = {base}\n\
         scale = {scale}  # position interpolation divides positions by this factor\n\
         theta = base ** (-(2 * {name}.arange(half, {float})) / dim)\n\
         {method}\
         omega = theta * (1.0 / scale)\n\
         positions = {name}.arange(length, {float})\n\
         angles = positions[:, None] * omega[None, :]\n\
         {layout}\
         factor = {af}  # attention factor: YaRN and LongRoPE scale cos and sin by it (1 otherwise)\n\
         keep = {zeros}  # dimensions past the rotated pairs pass through: cos 1, sin 0\n\
         cos = {cat}([factor * {name}.cos(cols), keep + 1], {axis}=1)\n\
         sin = {cat}([factor * {name}.sin(cols), keep], {axis}=1)\n\
         matrix = {cat}([cos, sin], {axis}=1)  # the cos and sin caches, len(positions) × 2·d_model\n",
        s.d_model,
        s.length,
        af = py(rope.attention_factor()),
        dim = rope.freq_dim() as usize,
        half = rope.pair_count(),
    )
}
