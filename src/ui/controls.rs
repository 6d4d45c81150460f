//! The shared controls: a logarithmic slider with an exact number field, and labelled selects.

use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent};
use yew::prelude::*;

use crate::format::plain as fmt;
use crate::state::{nearest_stop, round_significant, Limit};

#[derive(Clone, Debug, PartialEq)]
enum Note {
    Info(String),
    Error(String),
}

#[derive(Properties, PartialEq)]
pub struct NumberControlProps {
    /// Element id prefix; the slider, field, hint and note derive their ids from it.
    pub id: AttrValue,
    pub limit: Limit,
    pub value: f64,
    pub on_change: Callback<f64>,
    /// A few words under the slider saying what the setting means.
    #[prop_or_default]
    pub hint: AttrValue,
}

/// A setting with a logarithmic slider (live while dragging) and a field for exact values.
/// Typed values are clamped or refused with a visible note; the stored value is always valid.
#[function_component(NumberControl)]
pub fn number_control(props: &NumberControlProps) -> Html {
    let note = use_state(|| None::<Note>);
    let limit = props.limit;
    let stops = use_memo(limit.name, move |_| limit.stops());
    let (slider_id, field_id, hint_id, note_id) = (
        format!("{}-slider", props.id),
        format!("{}-value", props.id),
        format!("{}-hint", props.id),
        format!("{}-note", props.id),
    );

    let on_slide = {
        let (on_change, note, stops) = (props.on_change.clone(), note.clone(), stops.clone());
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let index = input.value().parse::<usize>().unwrap_or(0);
            if note.is_some() {
                note.set(None);
            }
            if let Some(v) = stops.get(index.min(stops.len().saturating_sub(1))) {
                on_change.emit(*v);
            }
        })
    };

    let commit = {
        let (on_change, note) = (props.on_change.clone(), note.clone());
        let current = props.value;
        move |input: &HtmlInputElement, text: &str| match limit.parse(text) {
            Ok(accepted) => {
                input.set_value(&fmt(accepted.value));
                note.set(accepted.note.map(Note::Info));
                on_change.emit(accepted.value);
            }
            Err(message) => {
                input.set_value(&fmt(current));
                note.set(Some(Note::Error(message)));
            }
        }
    };

    let on_field_change = {
        let commit = commit.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            commit(&input, &input.value());
        })
    };

    // Arrow keys step the exact field from what is typed in it: by one for whole numbers, to the
    // next three-digit value (about 10 %) for the base.
    let on_field_key = {
        let current = props.value;
        Callback::from(move |e: KeyboardEvent| {
            let direction = match e.key().as_str() {
                "ArrowUp" => 1.0,
                "ArrowDown" => -1.0,
                _ => return,
            };
            e.prevent_default();
            let input: HtmlInputElement = e.target_unchecked_into();
            let from = limit.parse(&input.value()).map_or(current, |a| a.value);
            let next = if limit.integer {
                from + direction
            } else {
                round_significant(from * 1.1f64.powf(direction), 3)
            };
            commit(&input, &fmt(next.clamp(limit.min, limit.max)));
        })
    };

    let position = nearest_stop(&stops, props.value);
    let (note_class, note_text) = match &*note {
        Some(Note::Info(t)) => ("note note-info", t.clone()),
        Some(Note::Error(t)) => ("note note-error", t.clone()),
        None => ("note", String::new()),
    };
    let value_text = fmt(props.value);
    let described = if props.hint.is_empty() {
        note_id.clone()
    } else {
        format!("{hint_id} {note_id}")
    };

    html! {
        <div class="control">
            <div class="control-head">
                <label for={field_id.clone()} class="control-label">{ limit.name }</label>
                <input
                    id={field_id}
                    class="control-value"
                    type="text"
                    inputmode="decimal"
                    autocomplete="off"
                    spellcheck="false"
                    aria-label={format!("{} value", limit.name)}
                    aria-describedby={described.clone()}
                    value={value_text.clone()}
                    onchange={on_field_change}
                    onkeydown={on_field_key}
                />
            </div>
            <input
                id={slider_id}
                class="control-slider"
                type="range"
                min="0"
                max={(stops.len() - 1).to_string()}
                step="1"
                value={position.to_string()}
                aria-label={format!("{} slider", limit.name)}
                aria-valuetext={format!("{} = {}", limit.name, value_text)}
                aria-describedby={described}
                oninput={on_slide}
            />
            <div class="control-range">
                <span aria-hidden="true">{ fmt(limit.min) }</span>
                <span id={hint_id} class="control-hint">{ props.hint.clone() }</span>
                <span aria-hidden="true">{ fmt(limit.max) }</span>
            </div>
            <p id={note_id} class={note_class} role="status" aria-live="polite">{ note_text }</p>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ChoiceProps {
    pub id: AttrValue,
    pub label: AttrValue,
    /// (value, text) pairs.
    pub options: Vec<(AttrValue, AttrValue)>,
    pub selected: AttrValue,
    pub on_change: Callback<String>,
    #[prop_or_default]
    pub children: Html,
}

/// A labelled `<select>`; children are shown under it (an explanation of the choice).
#[function_component(Choice)]
pub fn choice(props: &ChoiceProps) -> Html {
    let on_change = {
        let cb = props.on_change.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            cb.emit(select.value());
        })
    };
    html! {
        <div class="control">
            <label for={props.id.clone()} class="control-label">{ props.label.clone() }</label>
            <select id={props.id.clone()} class="control-select" onchange={on_change}>
                { for props.options.iter().map(|(value, text)| html! {
                    <option value={value.clone()} selected={*value == props.selected}>
                        { text.clone() }
                    </option>
                }) }
            </select>
            { props.children.clone() }
        </div>
    }
}
