//! The settings sidebar: the scheme and its own settings, d_model, length, base, and the colour
//! scale, shared by every view.

use yew::prelude::*;

use super::controls::{options, Choice, NumberControl};
use crate::action::Action;
use crate::plot::colormap::Palette;
use crate::rope_config::{RopeConfig, PRESETS};
use crate::schemes::Scheme;
use crate::state::{Settings, BASE, D_MODEL, LENGTH, TRAINED_LENGTH};

#[derive(Properties, PartialEq)]
pub(crate) struct RopeConfigProps {
    pub on_action: Callback<Action>,
}

/// Published configurations one click away, and a box that reads a pasted config.json.
#[function_component(RopeConfigBox)]
pub(crate) fn rope_config_box(props: &RopeConfigProps) -> Html {
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
pub(crate) fn numeric(cb: &Callback<Action>, f: fn(f64) -> Action) -> Callback<f64> {
    let cb = cb.clone();
    Callback::from(move |v: f64| cb.emit(f(v)))
}

/// A callback that turns a choice's id into an action, ignoring unknown ids.
pub(crate) fn choice<T: 'static>(
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
    let def = s.scheme.def();
    html! {
        <form class="settings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <h2 class="settings-title">{ "Settings" }</h2>
            <Choice id="scheme" label="Position scheme" selected={s.scheme.id()}
                options={options(&Scheme::ALL, Scheme::id, Scheme::label)}
                on_change={choice(cb, Scheme::from_id, Action::SetScheme)}>
                <p class="control-help">{ s.scheme.entry() }</p>
            </Choice>
            <NumberControl id="d-model" limit={D_MODEL} value={s.d_model as f64}
                on_change={numeric(cb, Action::SetDModel)} hint="width of each vector" />
            <NumberControl id="length" limit={LENGTH} value={s.length as f64}
                on_change={numeric(cb, Action::SetLength)} hint="number of positions" />
            if let Some(hint) = def.base_hint() {
                <NumberControl id="base" limit={BASE} value={s.base}
                    on_change={numeric(cb, Action::SetBase)} {hint} />
            }
            { def.controls(s, cb) }
            if let Some(hint) = def.trained_hint() {
                <NumberControl id="trained-length" limit={TRAINED_LENGTH} value={s.trained_length as f64}
                    on_change={numeric(cb, Action::SetTrainedLength)} {hint} />
            }
            <Choice id="palette" label="Colours" selected={s.palette.id()}
                options={options(&Palette::ALL, Palette::id, Palette::label)}
                on_change={choice(cb, Palette::from_id, Action::SetPalette)} />
        </form>
    }
}
