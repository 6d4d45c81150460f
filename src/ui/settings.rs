//! The settings sidebar: the scheme and its own settings, d_model, length, base, and the colour
//! scale, shared by every view.

use yew::prelude::*;

use super::controls::{Choice, NumberControl, Segmented, Toggle};
use crate::action::Action;
use crate::format::plain;
use crate::math::rope::RopePairing;
use crate::math::scheme::Scheme;
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::plot::colormap::Palette;
use crate::rope_config::{RopeConfig, PRESETS};
use crate::state::{
    Extension, Settings, ALIBI_HEADS, BASE, BETA_FAST, BETA_SLOW, D_MODEL, HIGH_FREQ, LENGTH,
    LOW_FREQ, MSCALE, MSCALE_ALL_DIM, ROPE_FACTOR, ROTARY_FRACTION, SEED, T5_BUCKETS,
    T5_MAX_DISTANCE, TRAINED_LENGTH,
};

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

#[derive(Properties, PartialEq)]
struct RopeConfigProps {
    on_action: Callback<Action>,
}

/// Published configurations one click away, and a box that reads a pasted config.json.
#[function_component(RopeConfigBox)]
fn rope_config_box(props: &RopeConfigProps) -> Html {
    let text = use_state(String::new);
    let message = use_state(|| None::<(bool, String)>);
    let apply = |c: RopeConfig,
                 what: String,
                 message: UseStateHandle<Option<(bool, String)>>,
                 cb: Callback<Action>| {
        let mut said = vec![format!("Loaded {what}.")];
        said.extend(c.notes.clone());
        cb.emit(Action::ApplyRope(Box::new(c)));
        message.set(Some((true, said.join(" "))));
    };
    let on_preset = {
        let (cb, message) = (props.on_action.clone(), message.clone());
        Callback::from(move |id: String| {
            if let (Some(p), Some(c)) = (
                PRESETS.iter().find(|p| p.id == id),
                crate::rope_config::preset(&id),
            ) {
                apply(
                    c,
                    format!("{} ({})", p.name, p.source),
                    message.clone(),
                    cb.clone(),
                );
            }
        })
    };
    let on_input = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let t: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            text.set(t.value());
        })
    };
    let on_apply = {
        let (cb, message, text) = (props.on_action.clone(), message.clone(), text.clone());
        Callback::from(move |_: MouseEvent| match RopeConfig::from_json(&text) {
            Ok(c) => apply(
                c,
                "the pasted configuration".into(),
                message.clone(),
                cb.clone(),
            ),
            Err(e) => message.set(Some((false, e))),
        })
    };
    let mut options: Vec<(AttrValue, AttrValue)> =
        vec![("".into(), "Load a published model's RoPE…".into())];
    options.extend(
        PRESETS
            .iter()
            .map(|p| (AttrValue::from(p.id), AttrValue::from(p.name))),
    );
    html! {
        <>
            <Choice id="rope-preset" label="Model presets" options={options} selected="" on_change={on_preset} />
            <details class="control rope-paste">
                <summary>{ "Paste your config" }</summary>
                <label for="rope-config" class="control-label">{ "config.json, or its rope_scaling / rope_parameters" }</label>
                <textarea id="rope-config" rows="5" spellcheck="false" class="rope-config-text"
                    placeholder={r#"{"rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", ...}}"#}
                    value={(*text).clone()} oninput={on_input} />
                <button type="button" class="button button-small" id="rope-config-apply" onclick={on_apply}>{ "Apply" }</button>
            </details>
            if let Some((ok, m)) = &*message {
                <p class={classes!("note", if *ok { "note-info" } else { "note-error" })} role="status" id="rope-config-note">{ m.clone() }</p>
            }
        </>
    }
}

#[derive(Properties, PartialEq)]
pub struct SettingsPanelProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
}

/// A callback that turns a number into an action.
fn numeric(cb: &Callback<Action>, f: fn(f64) -> Action) -> Callback<f64> {
    let cb = cb.clone();
    Callback::from(move |v: f64| cb.emit(f(v)))
}

/// A callback that turns a choice's id into an action, ignoring unknown ids.
fn choice<T: 'static>(
    cb: &Callback<Action>,
    parse: fn(&str) -> Option<T>,
    f: fn(T) -> Action,
) -> Callback<String> {
    let cb = cb.clone();
    Callback::from(move |id: String| {
        if let Some(v) = parse(&id) {
            cb.emit(f(v));
        }
    })
}

#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsPanelProps) -> Html {
    let s = &props.settings;
    let cb = &props.on_action;
    html! {
        <form class="settings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <h2 class="settings-title">{ "Settings" }</h2>
            <Choice
                id="scheme"
                label="Position scheme"
                options={Scheme::ALL.iter().map(|v| (v.id().into(), v.label().into())).collect::<Vec<_>>()}
                selected={s.scheme.id()}
                on_change={choice(cb, Scheme::from_id, Action::SetScheme)}
            >
                <p class="control-help">{ s.scheme.entry() }</p>
            </Choice>
            <NumberControl id="d-model" limit={D_MODEL} value={s.d_model as f64}
                on_change={numeric(cb, Action::SetDModel)} hint="width of each vector" />
            <NumberControl id="length" limit={LENGTH} value={s.length as f64}
                on_change={numeric(cb, Action::SetLength)} hint="number of positions" />
            if s.scheme.uses_base() {
                <NumberControl id="base" limit={BASE} value={s.base}
                    on_change={numeric(cb, Action::SetBase)}
                    hint={if s.scheme == Scheme::Rope { "θ: 10000, or 500000 in LLaMA 3" } else { "10000 in the paper" }} />
            }
            { scheme_settings(s, cb) }
            if s.scheme != Scheme::None {
                <NumberControl id="trained-length" limit={TRAINED_LENGTH} value={s.trained_length as f64}
                    on_change={numeric(cb, Action::SetTrainedLength)}
                    hint={if s.scheme == Scheme::Learned { "max_len: rows of the table" } else { "marked on the charts" }} />
            }
            <Choice
                id="palette"
                label="Colours"
                options={Palette::ALL.iter().map(|p| (p.id().into(), p.label().into())).collect::<Vec<_>>()}
                selected={s.palette.id()}
                on_change={choice(cb, Palette::from_id, Action::SetPalette)}
            />
        </form>
    }
}

/// The settings only one scheme has.
fn scheme_settings(s: &Settings, cb: &Callback<Action>) -> Html {
    match s.scheme {
        Scheme::Sinusoidal => {
            let encoding = Sinusoidal::new(s.variant, s.d_model, s.base);
            let notes: Vec<String> = [encoding.odd_column_note(), encoding.divisor_note()]
                .into_iter()
                .flatten()
                .collect();
            html! {
                <Choice
                    id="variant"
                    label="Formula variant"
                    options={Variant::ALL.iter().map(|v| (v.id().into(), v.label().into())).collect::<Vec<_>>()}
                    selected={s.variant.id()}
                    on_change={choice(cb, Variant::from_id, Action::SetVariant)}
                >
                    <p class="control-help">
                        { format!("ω_i = base^(−{})", s.variant.exponent_for(s.d_model)) }
                    </p>
                    { for notes.into_iter().map(|n| html! { <p class="control-help">{ n }</p> }) }
                </Choice>
            }
        }
        Scheme::Learned => html! {
            <NumberControl id="seed" limit={SEED} value={s.learned_seed as f64}
                on_change={numeric(cb, Action::SetLearnedSeed)} hint="draws another untrained table" />
        },
        Scheme::Rope => {
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
        Scheme::Alibi => html! {
            <>
                <NumberControl id="alibi-heads" limit={ALIBI_HEADS} value={s.alibi_heads as f64}
                    on_change={numeric(cb, Action::SetAlibiHeads)} hint="attention heads" />
                <NumberControl id="alibi-head" limit={s.alibi_head_limit()} value={s.alibi_head as f64}
                    on_change={numeric(cb, Action::SetAlibiHead)} hint="the head shown alone" />
            </>
        },
        Scheme::T5 => {
            let toggle = {
                let cb = cb.clone();
                Callback::from(move |v: bool| cb.emit(Action::SetT5Bidirectional(v)))
            };
            html! {
                <>
                    <NumberControl id="t5-buckets" limit={T5_BUCKETS} value={s.t5.num_buckets as f64}
                        on_change={numeric(cb, Action::SetT5Buckets)} hint="32 in T5" />
                    <NumberControl id="t5-max-distance" limit={T5_MAX_DISTANCE} value={s.t5.max_distance as f64}
                        on_change={numeric(cb, Action::SetT5MaxDistance)} hint="128 in T5" />
                    <NumberControl id="seed" limit={SEED} value={s.learned_seed as f64}
                        on_change={numeric(cb, Action::SetLearnedSeed)} hint="draws other untrained bucket biases" />
                    <div class="control">
                        <Toggle id="t5-bidirectional" label="Bidirectional (encoder)"
                            checked={s.t5.bidirectional} on_change={toggle} />
                    </div>
                </>
            }
        }
        Scheme::None => html! {},
    }
}
