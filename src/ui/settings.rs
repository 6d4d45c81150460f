//! The settings sidebar: the scheme and its own settings, d_model, length, base, and the colour
//! scale, shared by every view.

use std::rc::Rc;

use yew::prelude::*;

use super::controls::{options, Choice, NumberControl, Segmented, Toggle};
use crate::action::Action;
use crate::format::group_thousands;
use crate::params::Edit;
use crate::plot::colormap::Palette;
use crate::rope_config::{RopeConfig, MAX_TEXT, PRESETS};
use crate::schemes::{Control, Panel, Registered, Scheme};
use crate::state::{Settings, View, BASE, D_MODEL, LENGTH, SEED, TRAINED_LENGTH};

#[derive(Properties, PartialEq)]
pub(crate) struct RopeConfigProps {
    pub on_action: Callback<Action>,
}

/// Published configurations one click away, and a box that reads a pasted config.json. The box
/// is a plain textarea the app leaves alone while the user types or pastes (no state per
/// keystroke): it is read only when Apply is pressed, and a paste longer than the reader takes
/// is refused before it reaches the box.
#[function_component(RopeConfigBox)]
pub(crate) fn rope_config_box(props: &RopeConfigProps) -> Html {
    let area = use_node_ref();
    // (applied, sentence, how many sentences so far: a repeated sentence is still news).
    let message = use_state(|| None::<(bool, String, u32)>);
    let said = use_mut_ref(|| 0u32);
    let say = {
        let (message, said) = (message.clone(), said.clone());
        Rc::new(move |ok: bool, text: String| {
            *said.borrow_mut() += 1;
            message.set(Some((ok, text, *said.borrow())));
        })
    };
    let on_preset = {
        let (cb, say) = (props.on_action.clone(), say.clone());
        Callback::from(move |id: String| {
            if let (Some(p), Some(c)) = (
                PRESETS.iter().find(|p| p.id == id),
                crate::rope_config::preset(&id),
            ) {
                say(true, c.report(&format!("{} ({})", p.name, p.source)));
                cb.emit(Action::ApplyRope(Box::new(c)));
            }
        })
    };
    let on_paste = {
        let say = say.clone();
        Callback::from(move |e: Event| {
            if let Some(n) = super::browser::pasted_length(&e).filter(|n| *n > MAX_TEXT as f64) {
                e.prevent_default();
                say(
                    false,
                    format!(
                        "That paste is {} characters, longer than {} KB, the most this box \
                         reads, so it was not pasted. Nothing was changed.",
                        group_thousands(n as u64),
                        MAX_TEXT / 1024
                    ),
                );
            }
        })
    };
    let on_apply = {
        let (cb, say, area) = (props.on_action.clone(), say.clone(), area.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(box_) = area.cast::<web_sys::HtmlTextAreaElement>() else {
                return;
            };
            // Measured before the text is copied out of the page: a full box was cut.
            let held = box_.text_length() as usize;
            if held >= MAX_TEXT {
                say(
                    false,
                    format!(
                        "The box is full ({} characters): the text is longer than {} KB, the \
                         most this box reads, and was cut. Nothing was changed.",
                        group_thousands(held as u64),
                        MAX_TEXT / 1024
                    ),
                );
                return;
            }
            match RopeConfig::from_json(&box_.value()) {
                Ok(c) => {
                    say(true, c.report("the pasted configuration"));
                    cb.emit(Action::ApplyRope(Box::new(c)));
                }
                Err(e) => say(false, e),
            }
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
                <textarea id="rope-config" ref={area} rows="5" spellcheck="false" class="rope-config-text"
                    maxlength={MAX_TEXT.to_string()} autocomplete="off"
                    placeholder={r#"{"rope_theta": 500000.0, "rope_scaling": {"rope_type": "llama3", ...}}"#}
                    onpaste={on_paste} />
                <button type="button" class="button button-small" id="rope-config-apply" onclick={on_apply}>{ "Apply" }</button>
            </details>
            if let Some((ok, m, n)) = &*message {
                <p class={classes!("note", if *ok { "note-info" } else { "note-error" })} role="status"
                    id="rope-config-note" data-count={n.to_string()}>{ m.clone() }</p>
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

/// The sidebar settings the chosen scheme declares, each turned into an [`Edit`] it defines;
/// with `only`, just those with these ids, compact (the phone's strip).
pub(crate) fn scheme_controls(s: &Settings, cb: &Callback<Action>, only: Option<&[&str]>) -> Html {
    let compact = only.is_some();
    // In the strip, ids of their own (the sheet holds the same settings).
    let el = |id: &'static str| -> AttrValue {
        if compact {
            format!("quick-{id}").into()
        } else {
            id.into()
        }
    };
    let edit = |key: &'static str, apply: fn(&mut Settings, f64)| {
        let cb = cb.clone();
        Callback::from(move |value: f64| cb.emit(Action::Edit(Edit { key, value, apply })))
    };
    let help = |lines: &[String]| -> Html {
        lines
            .iter()
            .map(|n| html! { <p class="control-help">{ n.clone() }</p> })
            .collect()
    };
    s.scheme
        .def()
        .controls(s)
        .into_iter()
        .filter(|c| only.is_none_or(|ids| c.id().is_some_and(|id| ids.contains(&id))))
        .map(|c| match c {
            Control::Number {
                id,
                key,
                limit,
                value,
                hint,
                apply,
            } => html! {
                <NumberControl id={el(id)} {limit} {value} on_change={edit(key, apply)} hint={hint} {compact} />
            },
            Control::Toggle {
                id,
                key,
                label,
                on,
                apply,
            } => {
                let set = edit(key, apply);
                html! {
                    <div class="control">
                        <Toggle id={el(id)} {label} checked={on}
                            on_change={Callback::from(move |v: bool| set.emit(if v { 1.0 } else { 0.0 }))} />
                    </div>
                }
            }
            Control::Choice {
                id,
                key,
                label,
                options,
                selected,
                buttons,
                help: lines,
                apply,
            } => {
                let ids: Vec<&'static str> = options.iter().map(|(i, _)| *i).collect();
                let set = edit(key, apply);
                let on_change = Callback::from(move |picked: String| {
                    if let Some(p) = ids.iter().position(|i| *i == picked) {
                        set.emit(p as f64)
                    }
                });
                let options: Vec<(AttrValue, AttrValue)> = options
                    .into_iter()
                    .map(|(i, t)| (i.into(), t.into()))
                    .collect();
                if buttons {
                    html! {
                        <div class="control">
                            <Segmented name={el(id)} legend={label} {options} {selected} {on_change} />
                            if !compact { { help(&lines) } }
                        </div>
                    }
                } else {
                    html! {
                        <Choice id={el(id)} {label} {selected} {options} {on_change}>
                            if !compact { { help(&lines) } }
                        </Choice>
                    }
                }
            }
            Control::Presets {
                label,
                key,
                items,
                apply,
            } => html! {
                <div class="control presets" role="group" aria-label={label}>
                    { for items.into_iter().map(|p| {
                        let (set, value) = (edit(key, apply), p.value);
                        html! {
                            <button type="button" class={classes!("button", "button-small", p.active.then_some("button-active"))}
                                aria-pressed={p.active.to_string()}
                                onclick={Callback::from(move |_| set.emit(value))}>
                                { p.text }
                            </button>
                        }
                    }) }
                </div>
            },
            Control::Panel(Panel::RopeConfig) => html! { <RopeConfigBox on_action={cb.clone()} /> },
        })
        .collect()
}

#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsPanelProps) -> Html {
    let s = &props.settings;
    let cb = &props.on_action;
    let def = s.scheme.def();
    let palette = html! {
        <Choice id="palette" label="Colours" selected={s.palette.id()}
            options={options(&Palette::ALL, Palette::id, Palette::label)}
            on_change={choice(cb, Palette::from_id, Action::SetPalette)} />
    };
    // The patch grid draws the view's 2-D scheme (the app's scheme when that is one): of the 1-D
    // settings only the width and the sin-cos base apply to it. A scheme of a line picked here
    // opens the position matrix.
    // The app's scheme (a scheme picked here opens the view that draws it).
    let scheme_menu = html! {
        <Choice id="scheme" label="Position scheme" selected={s.scheme.id()}
            options={options(&Scheme::ALL, Scheme::id, Scheme::label)}
            on_change={choice(cb, Scheme::from_id, Action::PickScheme)}>
            <p class="control-help">{ s.scheme.entry() }</p>
        </Choice>
    };
    if crate::main_chart::shown_view(s) == View::Patches {
        let base_hint = if s.grid.scheme == crate::schemes::grid::GridScheme::SinCos {
            "2-D sin-cos: 10000 in MAE"
        } else {
            "2-D sin-cos only (axial RoPE's θ is 100, mixed RoPE's 10)"
        };
        return html! {
            <form class="settings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
                <h2 class="settings-title">{ "Settings" }</h2>
                { scheme_menu.clone() }
                <NumberControl id="d-model" limit={D_MODEL} value={s.d_model as f64}
                    on_change={numeric(cb, Action::SetDModel)} hint="width of each vector or head" />
                <NumberControl id="base" limit={BASE} value={s.base}
                    on_change={numeric(cb, Action::SetBase)} hint={base_hint} />
                <NumberControl id="seed" limit={SEED} value={s.learned_seed as f64}
                    on_change={numeric(cb, Action::SetLearnedSeed)} hint="the learned table and mixed RoPE's angles" />
                { palette }
                <p class="control-help">{ "The grid, and the 2-D scheme beside a scheme of text, are set in the view." }</p>
            </form>
        };
    }
    html! {
        <form class="settings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <h2 class="settings-title">{ "Settings" }</h2>
            { scheme_menu }
            <NumberControl id="d-model" limit={D_MODEL} value={s.d_model as f64}
                on_change={numeric(cb, Action::SetDModel)} hint="width of each vector" />
            <NumberControl id="length" limit={LENGTH} value={s.length as f64}
                on_change={numeric(cb, Action::SetLength)} hint="number of positions" />
            if let Some(hint) = def.base_hint() {
                <NumberControl id="base" limit={BASE} value={s.base}
                    on_change={numeric(cb, Action::SetBase)} {hint} />
            }
            { scheme_controls(s, cb, None) }
            if let Some(hint) = def.trained_hint() {
                <NumberControl id="trained-length" limit={TRAINED_LENGTH} value={s.trained_length as f64}
                    on_change={numeric(cb, Action::SetTrainedLength)} {hint} />
            }
            { palette }
        </form>
    }
}
