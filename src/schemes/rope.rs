//! Rotary position embedding (RoFormer; GPT-NeoX, LLaMA) and the ways checkpoints extend it:
//! math in `math::rope`, the per-pair figure in `figures::rope`, configs in `rope_config`,
//! views in `ui::schemes`.

use yew::{classes, html, Callback, Html};

use super::{view, Names, Positions, SchemeDef, Views};
use crate::action::Action;
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::figures::schemes::rope_extrapolation;
use crate::format::{file_number, plain};
use crate::math::rope::{RopePairing, RopeScaling};
use crate::snippets::{py, Lib, Library};
use crate::state::{
    Extension, Settings, BETA_FAST, BETA_SLOW, HIGH_FREQ, LOW_FREQ, MSCALE, MSCALE_ALL_DIM,
    ROPE_FACTOR, ROTARY_FRACTION,
};
use crate::ui::controls::{Choice, NumberControl, Segmented};
use crate::ui::schemes::{RopeDistanceView, RopeTableView};
use crate::ui::settings::{choice, numeric, RopeConfigBox};

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
        format!(
            "rope_{}_d{}_len{}_theta{}{scaling}",
            r.pairing.id(),
            s.d_model,
            s.length,
            file_number(s.base)
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, &Lib::of(library))
    }

    fn attention_inputs(&self, s: &Settings, _n: usize, width: usize) -> Positions {
        let r = s.rope();
        Ok(PositionInputs::rotary(
            crate::math::rope::Rope::new(width, s.base, r.pairing, r.scaling)
                .with_rotary_fraction(s.rotary_fraction),
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
                <Choice
                    id="rope-pairing"
                    label="Pairing"
                    options={RopePairing::ALL.iter().map(|p| (p.id().into(), p.label().into())).collect::<Vec<_>>()}
                    selected={s.rope_pairing.id()}
                    on_change={choice(cb, RopePairing::from_id, Action::SetRopePairing)}
                />
                <div class="control">
                    <Segmented name="extension" legend="Context extension"
                        options={Extension::ALL.iter().map(|e| (e.id().into(), e.label().into())).collect::<Vec<_>>()}
                        selected={s.extension.id()}
                        on_change={choice(cb, Extension::from_id, Action::SetExtension)} />
                    if s.extension != Extension::None {
                        <p class="control-help">{ extension_help(s) }</p>
                    }
                </div>
                if s.extension != Extension::None {
                    <NumberControl id="rope-factor" limit={ROPE_FACTOR} value={s.rope_factor}
                        on_change={numeric(cb, Action::SetRopeFactor)} hint="how much longer" />
                }
                if s.extension == Extension::Llama3 {
                    <NumberControl id="rope-low" limit={LOW_FREQ} value={s.rope_low}
                        on_change={numeric(cb, Action::SetRopeLow)} hint="low_freq_factor" />
                    <NumberControl id="rope-high" limit={HIGH_FREQ} value={s.rope_high}
                        on_change={numeric(cb, Action::SetRopeHigh)} hint="high_freq_factor" />
                }
                if s.extension == Extension::Yarn {
                    <NumberControl id="beta-fast" limit={BETA_FAST} value={s.beta_fast}
                        on_change={numeric(cb, Action::SetBetaFast)} hint="beta_fast: left alone above" />
                    <NumberControl id="beta-slow" limit={BETA_SLOW} value={s.beta_slow}
                        on_change={numeric(cb, Action::SetBetaSlow)} hint="beta_slow: interpolated below" />
                    <NumberControl id="mscale" limit={MSCALE} value={s.mscale}
                        on_change={numeric(cb, Action::SetMscale)} hint="DeepSeek's mscale (0: unset)" />
                    <NumberControl id="mscale-all-dim" limit={MSCALE_ALL_DIM} value={s.mscale_all_dim}
                        on_change={numeric(cb, Action::SetMscaleAllDim)} hint="mscale_all_dim (0: unset)" />
                }
                <NumberControl id="rotary-fraction" limit={ROTARY_FRACTION} value={s.rotary_fraction}
                    on_change={numeric(cb, Action::SetRotaryFraction)}
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

/// One sentence on what the chosen extension does, with its numbers.
fn extension_help(s: &Settings) -> String {
    let r = s.rope();
    let o = s.trained_length;
    match s.extension {
        Extension::None => String::new(),
        Extension::Interpolation => format!("positions divided by s = {}", plain(s.rope_factor)),
        Extension::Ntk => format!("base × s^(d/(d−2)) = {}", plain(r.effective_base())),
        Extension::Dynamic => format!(
            "the base grows once the length passes the original {o} (the trained length): now {}",
            plain(r.effective_base())
        ),
        Extension::Llama3 => format!(
            "wavelengths under {o}/{} left alone, over {o}/{} divided by s, a smooth band between \
             (original = the trained length)",
            plain(s.rope_high),
            plain(s.rope_low)
        ),
        Extension::Yarn => format!(
            "a ramp from left alone (more than {} turns over {o}) to interpolated (fewer than {}); \
             cos and sin × {}",
            plain(s.beta_fast),
            plain(s.beta_slow),
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
             # libraries also multiply cos and sin by the attention factor {af}\n",
            f = py(factor),
            o = original,
            bf = py(beta_fast),
            bs = py(beta_slow),
            af = py(rope.attention_factor()),
        ),
        _ => String::new(),
    };
    let layout = match s.rope_pairing {
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
         pad = {}  # dimensions past the rotated pairs are not rotated\n\
         matrix = {cat}([{name}.cos(cols), pad], {axis}=1)  # cos(m·θ), length × d_model\n",
        s.d_model,
        s.length,
        lib.zeros("length", "d_model - 2 * half"),
        rotary = if rope.rotary_dim == s.d_model {
            "d_model".to_string()
        } else {
            rope.rotary_dim.to_string()
        },
    )
}
