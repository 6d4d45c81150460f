//! The shared controls: a logarithmic slider with an exact number field, and labelled selects.

use web_sys::{HtmlInputElement, HtmlSelectElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use crate::format::plain as fmt;
use crate::state::{nearest_stop, round_significant, Limit};
use crate::touch::TouchGuard;

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
    /// A small version for the phone's control strip: no range labels or hint line.
    #[prop_or_default]
    pub compact: bool,
}

/// A setting with a logarithmic slider (live while dragging) and a field for exact values.
/// Typed values are clamped or refused with a visible note; the stored value is always valid.
#[function_component(NumberControl)]
pub fn number_control(props: &NumberControlProps) -> Html {
    let note = use_state(|| None::<Note>);
    let limit = props.limit;
    // Keyed on everything that shapes the track: position and offset limits follow the length.
    let stops = use_memo(
        (
            limit.name,
            limit.min.to_bits(),
            limit.max.to_bits(),
            limit.log,
            limit.integer,
        ),
        move |_| limit.stops(),
    );
    let (slider_id, field_id, hint_id, note_id) = (
        format!("{}-slider", props.id),
        format!("{}-value", props.id),
        format!("{}-hint", props.id),
        format!("{}-note", props.id),
    );

    let set_stop = {
        let (on_change, note, stops) = (props.on_change.clone(), note.clone(), stops.clone());
        move |index: usize| {
            if note.is_some() {
                note.set(None);
            }
            if let Some(v) = stops.get(index.min(stops.len().saturating_sub(1))) {
                on_change.emit(*v);
            }
        }
    };
    let position = nearest_stop(&stops, props.value);
    let touch = use_mut_ref(TouchGuard::default);
    let on_slide = {
        let (set_stop, touch) = (set_stop.clone(), touch.clone());
        Callback::from(move |e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            let index = input.value().parse::<usize>().unwrap_or(0);
            // A touch not yet known to drag along the slider: hold the value back.
            match touch.borrow_mut().slide(index) {
                Some(i) => set_stop(i),
                None => input.set_value(&position.to_string()),
            }
        })
    };
    let on_touch_down = {
        let touch = touch.clone();
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() == "touch" {
                touch
                    .borrow_mut()
                    .down(f64::from(e.client_x()), f64::from(e.client_y()));
            }
        })
    };
    let on_touch_move = {
        let (set_stop, touch) = (set_stop.clone(), touch.clone());
        Callback::from(move |e: PointerEvent| {
            let held = touch
                .borrow_mut()
                .moved(f64::from(e.client_x()), f64::from(e.client_y()));
            if let Some(i) = held {
                set_stop(i);
            }
        })
    };
    let on_touch_up = {
        let (set_stop, touch) = (set_stop.clone(), touch.clone());
        Callback::from(move |_: PointerEvent| {
            let held = touch.borrow_mut().up();
            if let Some(i) = held {
                set_stop(i);
            }
        })
    };
    // The browser took the touch for a scroll: the value stays as it was.
    let on_touch_cancel = {
        let touch = touch.clone();
        Callback::from(move |_: PointerEvent| touch.borrow_mut().cancel())
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

    let (note_class, note_text) = match &*note {
        Some(Note::Info(t)) => ("note note-info", t.clone()),
        Some(Note::Error(t)) => ("note note-error", t.clone()),
        None => ("note", String::new()),
    };
    let value_text = fmt(props.value);
    let described = if props.hint.is_empty() || props.compact {
        note_id.clone()
    } else {
        format!("{hint_id} {note_id}")
    };

    html! {
        <div class={classes!("control", props.compact.then_some("control-compact"))}>
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
                onpointerdown={on_touch_down}
                onpointermove={on_touch_move}
                onpointerup={on_touch_up}
                onpointercancel={on_touch_cancel}
            />
            if !props.compact {
                <div class="control-range">
                    <span aria-hidden="true">{ fmt(limit.min) }</span>
                    <span id={hint_id} class="control-hint">{ props.hint.clone() }</span>
                    <span aria-hidden="true">{ fmt(limit.max) }</span>
                </div>
            }
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

/// The (id, label) options of an enum's values, for a [`Choice`].
pub fn options<T: Copy>(
    all: &[T],
    id: fn(T) -> &'static str,
    label: fn(T) -> &'static str,
) -> Vec<(AttrValue, AttrValue)> {
    all.iter()
        .map(|&v| (id(v).into(), label(v).into()))
        .collect()
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

#[derive(Properties, PartialEq)]
pub struct ToggleProps {
    pub id: AttrValue,
    pub label: AttrValue,
    pub checked: bool,
    pub on_change: Callback<bool>,
}

/// A labelled checkbox.
#[function_component(Toggle)]
pub fn toggle(props: &ToggleProps) -> Html {
    let on_change = {
        let cb = props.on_change.clone();
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            cb.emit(input.checked());
        })
    };
    html! {
        <label class="toggle" for={props.id.clone()}>
            <input id={props.id.clone()} type="checkbox" checked={props.checked} onchange={on_change} />
            <span>{ props.label.clone() }</span>
        </label>
    }
}

#[derive(Properties, PartialEq)]
pub struct SegmentedProps {
    /// The group's name (also its `name` attribute).
    pub name: AttrValue,
    pub legend: AttrValue,
    /// (value, text) pairs.
    pub options: Vec<(AttrValue, AttrValue)>,
    pub selected: AttrValue,
    pub on_change: Callback<String>,
}

/// A row of radio buttons styled as a segmented control (arrow keys move between them).
#[function_component(Segmented)]
pub fn segmented(props: &SegmentedProps) -> Html {
    html! {
        <fieldset class="segmented">
            <legend class="control-label">{ props.legend.clone() }</legend>
            <div class="segmented-options">
                { for props.options.iter().map(|(value, text)| {
                    let id = format!("{}-{}", props.name, value);
                    let (cb, v) = (props.on_change.clone(), value.to_string());
                    html! {
                        <>
                            <input type="radio" id={id.clone()} name={props.name.clone()}
                                value={value.clone()} checked={*value == props.selected}
                                onchange={Callback::from(move |_: Event| cb.emit(v.clone()))} />
                            <label for={id}>{ text.clone() }</label>
                        </>
                    }
                }) }
            </div>
        </fieldset>
    }
}

#[derive(Properties, PartialEq)]
pub struct ListFieldProps {
    pub id: AttrValue,
    pub label: AttrValue,
    /// The list as currently used, shown in the field.
    pub value: AttrValue,
    pub limit: Limit,
    pub max_items: usize,
    pub on_change: Callback<Vec<f64>>,
    #[prop_or_default]
    pub hint: AttrValue,
}

/// A text field for a short list of numbers ("0, 25, 50"), checked like every other value.
#[function_component(ListField)]
pub fn list_field(props: &ListFieldProps) -> Html {
    let note = use_state(|| None::<Note>);
    let note_id = format!("{}-note", props.id);
    let on_change = {
        let (cb, note, limit, max, current) = (
            props.on_change.clone(),
            note.clone(),
            props.limit,
            props.max_items,
            props.value.clone(),
        );
        Callback::from(move |e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            match crate::state::parse_list(&input.value(), limit, max) {
                Ok(accepted) => {
                    input.set_value(
                        &accepted
                            .value
                            .iter()
                            .map(|v| fmt(*v))
                            .collect::<Vec<_>>()
                            .join(", "),
                    );
                    note.set(accepted.note.map(Note::Info));
                    cb.emit(accepted.value);
                }
                Err(message) => {
                    input.set_value(&current);
                    note.set(Some(Note::Error(message)));
                }
            }
        })
    };
    let (note_class, note_text) = match &*note {
        Some(Note::Info(t)) => ("note note-info", t.clone()),
        Some(Note::Error(t)) => ("note note-error", t.clone()),
        None => ("note", String::new()),
    };
    html! {
        <div class="list-field">
            <label for={props.id.clone()} class="control-label">{ props.label.clone() }</label>
            <input id={props.id.clone()} class="control-list" type="text" autocomplete="off"
                spellcheck="false" value={props.value.clone()} onchange={on_change}
                aria-describedby={note_id.clone()} />
            if !props.hint.is_empty() {
                <span class="control-hint">{ props.hint.clone() }</span>
            }
            <p id={note_id} class={note_class} role="status" aria-live="polite">{ note_text }</p>
        </div>
    }
}

/// One button of a [`step_list`].
pub struct StepItem {
    /// The accessible name (the button shows only the number).
    pub label: String,
    /// A class for the item's state (done, answered right or wrong), or "".
    pub state: &'static str,
    /// A tooltip, if any.
    pub title: Option<&'static str>,
}

/// Numbered buttons, one per step of a sequence (the lesson's steps, the quiz's questions),
/// the current one (1-based) marked with `aria-current="step"`; `go(m)` opens step m.
pub fn step_list(
    name: &'static str,
    class: &'static str,
    items: Vec<StepItem>,
    current: usize,
    go: impl Fn(usize) -> Callback<MouseEvent>,
) -> Html {
    html! {
        <nav aria-label={name}>
            <ol class={classes!("lesson-steps", class)}>
                { for items.into_iter().enumerate().map(|(i, item)| {
                    let m = i + 1;
                    let here = m == current;
                    html! {
                        <li>
                            <button type="button" class={classes!("lesson-step", item.state, here.then_some("lesson-step-here"))}
                                aria-current={here.then_some("step")} aria-label={item.label}
                                title={item.title} onclick={go(m)}>
                                { m }
                            </button>
                        </li>
                    }
                }) }
            </ol>
        </nav>
    }
}
