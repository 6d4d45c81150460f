//! Rotary position embedding (RoFormer; GPT-NeoX, LLaMA) and the ways checkpoints extend it:
//! math in `math::rope`, its settings in `schemes::rope_settings`, the per-pair figure in
//! `figures::rope`, configs in `rope_config`, views in `ui::schemes`.

use std::rc::Rc;

use super::def::{Control, Names, Panel, Positions, Preset, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use super::kind::Scheme;
pub use super::rope_settings::*;
use crate::format::{file_number, group_thousands, plain, significant};
use crate::limit::{Limit, BASE, D_MODEL, LENGTH, TRAINED_LENGTH};
use crate::math::rope::{Rope, RopePairing, RopeScaling};
use crate::params::{
    read_edit, read_edit_choice, read_edit_flag, Change, ListEdit, Read, SchemeParam, Value,
};
use crate::rope_config::{Method, RopeConfig};
use crate::snippets::{py, Lib, Library};
use crate::sources::{
    Source, DEEPSEEK_V3, LLAMA, LLAMA3, LLAMA_CODE, NEOX, NTK, PI, ROFORMER, ROFORMER_CODE,
    ROPE_UTILS_CODE, YARN,
};
use crate::state::Settings;
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
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

    fn params(&self) -> &'static [SchemeParam] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        s.schemes.rope = s.schemes.rope.clone().checked();
    }

    fn attention_inputs(&self, s: &Settings, _n: usize, width: usize) -> Positions {
        let r = s.rope();
        Ok(PositionInputs::rotary(
            crate::math::rope::Rope::new(width, s.base, r.pairing, r.scaling)
                .with_rotary_fraction(s.schemes.rope.rotary_fraction),
        ))
    }

    fn attention_switch_text(&self) -> &'static str {
        "Switch the position information on: queries and keys are rotated by their positions, \
         so each score now depends on how far apart two words are and in which direction; the \
         outputs change and the summaries move apart."
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        Some(ColumnInputs::Rotary(s.rope(), s.length))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        format!(
            "{} Position interpolation squeezes long inputs back into the trained range; \
             NTK-aware scaling slows the slow pairs most.",
            extrapolation(&s.rope(), s.length, s.trained_length)
        )
    }

    #[rustfmt::skip]
    fn controls(&self, s: &Settings) -> Vec<Control> {
        let r = &s.schemes.rope;
        let preset = |value: f64, text: &'static str| Preset {
            text,
            active: s.base == value,
            value,
        };
        let mut out = vec![
            Control::Presets {
                label: "θ presets",
                key: "base",
                items: vec![
                    preset(10_000.0, "θ = 10,000 (LLaMA 1–2)"),
                    preset(500_000.0, "θ = 500,000 (LLaMA 3)"),
                ],
                apply: |s, x| s.base = BASE.accept(x).value,
            },
            Control::Choice {
                id: "rope-pairing",
                key: "rope_pairing",
                label: "Pairing",
                options: RopePairing::ALL
                    .iter()
                    .map(|p| (p.id(), p.label()))
                    .collect(),
                selected: r.pairing.id(),
                buttons: false,
                help: Vec::new(),
                apply: |s, p| s.schemes.rope.pairing = RopePairing::ALL[p as usize],
            },
            Control::Choice {
                id: "extension",
                key: "extension",
                label: "Context extension",
                options: Extension::ALL.iter().map(|e| (e.id(), e.label())).collect(),
                selected: r.extension.id(),
                buttons: true,
                help: (r.extension != Extension::None)
                    .then(|| extension_help(s))
                    .into_iter()
                    .collect(),
                apply: |s, p| s.schemes.rope.extension = Extension::ALL[p as usize],
            },
        ];
        if r.extension != Extension::None {
            let hint = if r.extension == Extension::LongRope {
                "s: sets the attention factor"
            } else {
                "how much longer"
            };
            out.push(Control::number("rope-factor", "factor", ROPE_FACTOR, r.factor, hint, |s, x| s.schemes.rope.factor = x));
        }
        if r.extension == Extension::Llama3 {
            out.push(Control::number("rope-low", "low_freq", LOW_FREQ, r.low_freq, "low_freq_factor", |s, x| s.schemes.rope.low_freq = x));
            out.push(Control::number("rope-high", "high_freq", HIGH_FREQ, r.high_freq, "high_freq_factor", |s, x| s.schemes.rope.high_freq = x));
        }
        if r.extension == Extension::Yarn {
            out.push(Control::number("beta-fast", "beta_fast", BETA_FAST, r.beta_fast, "beta_fast: left alone above", |s, x| s.schemes.rope.beta_fast = x));
            out.push(Control::number("beta-slow", "beta_slow", BETA_SLOW, r.beta_slow, "beta_slow: interpolated below", |s, x| s.schemes.rope.beta_slow = x));
            out.push(Control::number("mscale", "mscale", MSCALE, r.mscale, "DeepSeek's mscale (0: unset)", |s, x| s.schemes.rope.mscale = x));
            out.push(Control::number("mscale-all-dim", "mscale_all_dim", MSCALE_ALL_DIM, r.mscale_all_dim, "mscale_all_dim (0: unset)", |s, x| s.schemes.rope.mscale_all_dim = x));
            out.push(Control::toggle("rope-truncate", "truncate", "truncate: round the ramp's ends to whole pairs", r.truncate, |s, x| s.schemes.rope.truncate = x != 0.0));
        }
        if matches!(r.extension, Extension::Yarn | Extension::LongRope) {
            out.push(Control::number("rope-attention-factor", "attention_factor", ATTENTION_FACTOR, r.attention_factor, "attention_factor (0: from the formula)", |s, x| s.schemes.rope.attention_factor = x));
        }
        out.push(Control::number("rotary-fraction", "rotary", ROTARY_FRACTION, r.rotary_fraction, rotated_text(s), |s, x| s.schemes.rope.rotary_fraction = x));
        out.push(Control::Panel(Panel::RopeConfig));
        out
    }

    fn views(&self) -> ViewKind {
        ViewKind::Rope
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[
            &ROFORMER,
            &LLAMA,
            &PI,
            &NTK,
            &YARN,
            &LLAMA3,
            &DEEPSEEK_V3,
            &NEOX,
            &ROFORMER_CODE,
            &LLAMA_CODE,
            &ROPE_UTILS_CODE,
        ]
    }
}

/// Which rotation angles are new to a model trained on `trained` positions, at `length`.
pub fn extrapolation(rope: &Rope, length: usize, trained: usize) -> String {
    let pairs = rope.pair_count();
    let unseen = rope.unseen_pairs(length, trained);
    let seen = rope.seen_length(trained);
    let t = group_thousands(trained as u64);
    let now = if length as f64 > seen {
        format!(
            "At length {}, {unseen} of the {pairs} pairs turn further than they ever did in \
             training: the model meets rotation angles it has never seen.",
            group_thousands(length as u64)
        )
    } else {
        format!(
            "At length {} every angle is one the model saw in training.",
            group_thousands(length as u64)
        )
    };
    let reach = if seen.is_infinite() {
        format!("Every pair completed a full turn within {t} positions, so no length is new.")
    } else if rope.scaling == RopeScaling::None {
        format!(
            "Trained on {t} positions, {} of the {pairs} pairs never completed a turn; past {t} \
             they go further. Position interpolation and NTK-aware scaling (in the settings) slow \
             them down.",
            rope.unseen_pairs(usize::MAX, trained)
        )
    } else {
        format!(
            "With {} ×{}, angles stay inside the trained range up to length {}.",
            match rope.scaling {
                RopeScaling::Interpolation(_) => "position interpolation",
                RopeScaling::Ntk(_) => "NTK-aware scaling",
                _ => rope.scaling.id(),
            },
            plain(rope.scaling.factor()),
            group_thousands(seen as u64)
        )
    };
    format!("{now} {reach}")
}

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
    let apply: fn(&mut Settings, Rc<[f64]>) = if long {
        |s, list| s.schemes.rope.long_factor = list
    } else {
        |s, list| s.schemes.rope.short_factor = list
    };
    Ok((
        Change::SetList(ListEdit {
            key,
            values: values.into(),
            apply,
        }),
        (!notes.is_empty()).then(|| format!("{key}: {}", notes.join(" "))),
    ))
}

/// RoPE's link parameters, written after the seed (before ALiBi's and T5's).
#[rustfmt::skip]
pub const PARAMS: &[SchemeParam] = &[
    SchemeParam {
        key: "rope_pairing",
        read: |v, _| read_edit_choice("rope_pairing", v, &RopePairing::ALL.map(RopePairing::id), |s, p| s.schemes.rope.pairing = RopePairing::ALL[p as usize]),
        write: |s| Value::from(s.schemes.rope.pairing.id()),
    },
    SchemeParam {
        key: "extension",
        read: |v, _| read_edit_choice("extension", v, &Extension::ALL.map(Extension::id), |s, p| s.schemes.rope.extension = Extension::ALL[p as usize]),
        write: |s| Value::from(s.schemes.rope.extension.id()),
    },
    SchemeParam { key: "factor", read: |v, _| read_edit("factor", v, ROPE_FACTOR, |s, x| s.schemes.rope.factor = x), write: |s| Value::from(s.schemes.rope.factor) },
    SchemeParam { key: "low_freq", read: |v, _| read_edit("low_freq", v, LOW_FREQ, |s, x| s.schemes.rope.low_freq = x), write: |s| Value::from(s.schemes.rope.low_freq) },
    SchemeParam { key: "high_freq", read: |v, _| read_edit("high_freq", v, HIGH_FREQ, |s, x| s.schemes.rope.high_freq = x), write: |s| Value::from(s.schemes.rope.high_freq) },
    SchemeParam { key: "beta_fast", read: |v, _| read_edit("beta_fast", v, BETA_FAST, |s, x| s.schemes.rope.beta_fast = x), write: |s| Value::from(s.schemes.rope.beta_fast) },
    SchemeParam { key: "beta_slow", read: |v, _| read_edit("beta_slow", v, BETA_SLOW, |s, x| s.schemes.rope.beta_slow = x), write: |s| Value::from(s.schemes.rope.beta_slow) },
    SchemeParam { key: "mscale", read: |v, _| read_edit("mscale", v, MSCALE, |s, x| s.schemes.rope.mscale = x), write: |s| Value::from(s.schemes.rope.mscale) },
    SchemeParam { key: "mscale_all_dim", read: |v, _| read_edit("mscale_all_dim", v, MSCALE_ALL_DIM, |s, x| s.schemes.rope.mscale_all_dim = x), write: |s| Value::from(s.schemes.rope.mscale_all_dim) },
    SchemeParam { key: "truncate", read: |v, _| read_edit_flag("truncate", v, |s, x| s.schemes.rope.truncate = x != 0.0), write: |s| Value::from(s.schemes.rope.truncate) },
    SchemeParam { key: "attention_factor", read: |v, _| read_edit("attention_factor", v, ATTENTION_FACTOR, |s, x| s.schemes.rope.attention_factor = x), write: |s| Value::from(s.schemes.rope.attention_factor) },
    SchemeParam { key: "short_factor", read: |v, _| read_factors("short_factor", v, false), write: |s| write_factors(&s.schemes.rope, &s.schemes.rope.short_factor) },
    SchemeParam { key: "long_factor", read: |v, _| read_factors("long_factor", v, true), write: |s| write_factors(&s.schemes.rope, &s.schemes.rope.long_factor) },
    SchemeParam { key: "rotary", read: |v, _| read_edit("rotary", v, ROTARY_FRACTION, |s, x| s.schemes.rope.rotary_fraction = x), write: |s| Value::from(s.schemes.rope.rotary_fraction) },
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
            s.schemes.rope.rotary_fraction = take(ROTARY_FRACTION, "rotary fraction", f);
        }
        let mut times = 1.0;
        if let Some(c) = &self.scaling {
            s.schemes.rope.extension = match c.method {
                Method::None => Extension::None,
                Method::Linear => Extension::Interpolation,
                Method::Dynamic => Extension::Dynamic,
                Method::Llama3 => Extension::Llama3,
                Method::Yarn => Extension::Yarn,
                Method::LongRope => Extension::LongRope,
            };
            if c.method != Method::None {
                s.schemes.rope.factor = take(ROPE_FACTOR, "factor", c.factor);
                times = s.schemes.rope.factor;
            }
            match c.method {
                Method::Llama3 => {
                    s.schemes.rope.low_freq = take(LOW_FREQ, "low_freq_factor", c.low);
                    s.schemes.rope.high_freq = take(HIGH_FREQ, "high_freq_factor", c.high);
                }
                Method::Yarn => {
                    s.schemes.rope.beta_fast = take(BETA_FAST, "beta_fast", c.beta_fast);
                    s.schemes.rope.beta_slow = take(BETA_SLOW, "beta_slow", c.beta_slow);
                    s.schemes.rope.mscale = take(MSCALE, "mscale", c.mscale);
                    s.schemes.rope.mscale_all_dim =
                        take(MSCALE_ALL_DIM, "mscale_all_dim", c.mscale_all_dim);
                    s.schemes.rope.truncate = c.truncate;
                }
                Method::LongRope => {
                    let clamp = |v: &[f64]| -> Vec<f64> {
                        v.iter()
                            .map(|f| LONGROPE_FACTOR.accept(*f).value as f32 as f64)
                            .collect()
                    };
                    let (short, long) = (clamp(&c.short_factor), clamp(&c.long_factor));
                    clamped_factors = short != c.short_factor || long != c.long_factor;
                    s.schemes.rope.short_factor = short.into();
                    s.schemes.rope.long_factor = long.into();
                }
                _ => {}
            }
            if matches!(c.method, Method::Yarn | Method::LongRope) {
                s.schemes.rope.attention_factor = match c.attention_factor {
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
            plain(s.schemes.rope.rotary_fraction),
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
    match s.schemes.rope.extension {
        Extension::None => String::new(),
        Extension::Interpolation => {
            format!("positions divided by s = {}", plain(s.schemes.rope.factor))
        }
        Extension::Ntk => format!("base × s^(d/(d−2)) = {}", plain(r.effective_base())),
        Extension::Dynamic => format!(
            "the base grows once the length passes the original {o} (the trained length): now {}",
            plain(r.effective_base())
        ),
        Extension::Llama3 => format!(
            "wavelengths under {o}/{} left alone, over {o}/{} divided by s, a smooth band between \
             (original = the trained length)",
            plain(s.schemes.rope.high_freq),
            plain(s.schemes.rope.low_freq)
        ),
        Extension::Yarn => format!(
            "a ramp from left alone (more than {} turns over {o}) to interpolated (fewer than {}), \
             its ends {}; cos and sin × {}",
            plain(s.schemes.rope.beta_fast),
            plain(s.schemes.rope.beta_slow),
            if s.schemes.rope.truncate {
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
            if !factors_in_link(&s.schemes.rope) {
                text.push_str(&format!(
                    ". The factor lists ({} numbers) are too long for the link: a link to this \
                     page opens with every factor 1",
                    s.schemes.rope.short_factor.len() + s.schemes.rope.long_factor.len()
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
    let layout = match s.schemes.rope.pairing {
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
            plain(s.schemes.rope.rotary_fraction)
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

/// Where the scheme enters the model the Train view trains.
pub fn trained(t: &TrainSettings) -> Position {
    Position::Rope {
        base: t.base,
        pairing: t.rope_pairing,
        scaling: crate::math::rope::RopeScaling::None,
    }
}
