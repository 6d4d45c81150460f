//! On a phone (600 CSS px wide or less): the one to three settings that move the view's chart
//! most, in a strip fixed to the bottom of the screen so that the chart and the slider that
//! moves it are both in sight; every other setting sits in a sheet that the strip opens.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::browser;
use super::controls::{NumberControl, Toggle};
use crate::action::Action;
use crate::state::{Limit, Settings, View, BASE, D_MODEL, LENGTH};

/// Widths at which the page takes its phone layout (the same as the stylesheet's).
pub const PHONE: &str = "(max-width: 600px)";

/// Whether a media query matches now, following changes (rotation, resizing).
#[hook]
pub fn use_media(query: &'static str) -> bool {
    let matches = use_state(|| browser::media_matches(query));
    {
        let matches = matches.clone();
        use_effect_with(query, move |query| {
            let list = web_sys::window().and_then(|w| w.match_media(query).ok().flatten());
            let listener = {
                let (matches, list) = (matches.clone(), list.clone());
                Closure::<dyn FnMut()>::new(move || {
                    matches.set(list.as_ref().is_some_and(|l| l.matches()))
                })
            };
            if let Some(l) = &list {
                let _ =
                    l.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(l) = list {
                    let _ = l.remove_event_listener_with_callback(
                        "change",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    *matches
}

/// One control of the strip: id, limit, current value, and the action a new value makes.
pub type MainControl = (&'static str, Limit, f64, fn(f64) -> Action);

/// The settings a view's chart follows most directly, at most three.
pub fn main_controls(s: &Settings) -> Vec<MainControl> {
    let view = match s.view {
        View::Lesson => crate::learn::lesson::step(s.lesson).view,
        v => v,
    };
    let d = (
        "d-model",
        D_MODEL,
        s.d_model as f64,
        Action::SetDModel as fn(f64) -> Action,
    );
    let l = (
        "length",
        LENGTH,
        s.length as f64,
        Action::SetLength as fn(f64) -> Action,
    );
    let b = ("base", BASE, s.base, Action::SetBase as fn(f64) -> Action);
    match view {
        View::Matrix | View::Norms => vec![l, d],
        View::Offsets | View::Compare => vec![l, b],
        View::Waves => vec![b, d],
        View::Rotations => vec![
            (
                "position",
                s.position_limit(),
                s.position as f64,
                Action::SetPosition as fn(f64) -> Action,
            ),
            (
                "offset",
                s.offset_limit(),
                s.offset as f64,
                Action::SetOffset as fn(f64) -> Action,
            ),
        ],
        View::Addition => vec![d],
        // The demo's main setting is a switch (see the strip).
        View::Attention => Vec::new(),
        View::Lesson | View::Quiz | View::Train => Vec::new(),
    }
}

#[derive(Properties, PartialEq)]
pub struct StripProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
    /// Opens the settings sheet.
    pub on_settings: Callback<MouseEvent>,
    pub expanded: bool,
}

/// The strip at the bottom of a phone's screen: the view's main sliders and "All settings".
#[function_component(QuickStrip)]
pub fn quick_strip(props: &StripProps) -> Html {
    let controls = main_controls(&props.settings);
    let s = &props.settings;
    let view = match s.view {
        View::Lesson => crate::learn::lesson::step(s.lesson).view,
        v => v,
    };
    let switch = (view == View::Attention).then(|| {
        let cb = props.on_action.clone();
        html! {
            <Toggle id="quick-position" label={format!("position ({})", s.scheme.short())}
                checked={s.attention_position}
                on_change={Callback::from(move |v| cb.emit(Action::SetAttentionPosition(v)))} />
        }
    });
    html! {
        <div class="quick-strip" role="region" aria-label="Main settings of this view">
            <div class="quick-controls" data-count={controls.len().to_string()}>
                { for controls.into_iter().map(|(id, limit, value, action)| {
                    let cb = props.on_action.clone();
                    html! {
                        <NumberControl id={format!("quick-{id}")} {limit} {value} compact={true}
                            on_change={Callback::from(move |v| cb.emit(action(v)))} />
                    }
                }) }
                { switch.unwrap_or_default() }
            </div>
            <button type="button" class="button quick-settings" id="quick-settings"
                aria-controls="settings-sheet" aria-expanded={props.expanded.to_string()}
                onclick={props.on_settings.clone()}>
                { "All settings" }
            </button>
        </div>
    }
}
