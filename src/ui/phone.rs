//! On a phone (600 CSS px wide or less): the one to three settings that move the view's chart
//! most, in a strip fixed to the bottom of the screen so that the chart and the slider that
//! moves it are both in sight; every other setting sits in a sheet that the strip opens.
//!
//! In a frame the bottom of the screen is not the reader's: there the strip sits right under
//! the chart (`inline`), and the sheet opens over the part of the frame the reader sees, or in
//! the page under the strip when the panel cannot know which part that is.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::browser;
use super::controls::{NumberControl, Toggle};
use super::settings::SettingsPanel;
use crate::action::Action;
use crate::embed::Visible;
use crate::schemes::Registered;
use crate::state::{Settings, View};

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

pub use crate::main_chart::{main_controls, MainControl};

#[derive(Properties, PartialEq)]
pub struct StripProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
    /// Opens the settings sheet.
    pub on_settings: Callback<MouseEvent>,
    pub expanded: bool,
    /// In the page under the chart (in a frame, or a compact embed) rather than fixed to the
    /// bottom of the screen.
    #[prop_or_default]
    pub inline: bool,
}

/// The strip at the bottom of a phone's screen (or under the chart, `inline`): the view's main
/// sliders and "All settings".
#[function_component(QuickStrip)]
pub fn quick_strip(props: &StripProps) -> Html {
    let controls = main_controls(&props.settings);
    let s = &props.settings;
    // The scheme's own settings a lesson step or quiz task names ("step through the heads").
    let named_scheme = crate::main_chart::strip_settings(s);
    let extra = (!named_scheme.is_empty())
        .then(|| super::settings::scheme_controls(s, &props.on_action, Some(&named_scheme)));
    // And a view's own switches a step or task names ("switch to comparing bases").
    let views_own: Html = named_scheme
        .iter()
        .filter_map(|id| view_strip_control(id, s, &props.on_action))
        .collect();
    let count = controls.len() + named_scheme.len();
    // The attention demo's switch, in its view and in a lesson step or quiz task on it.
    let on_attention = crate::main_chart::strip_plan(s).0 == View::Attention
        || crate::main_chart::shown_view(s) == View::Attention;
    let switch = on_attention.then(|| {
        let cb = props.on_action.clone();
        html! {
            <Toggle id="quick-position" label={format!("position ({})", s.scheme.short())}
                checked={s.attention_position}
                on_change={Callback::from(move |v| cb.emit(Action::SetAttentionPosition(v)))} />
        }
    });
    html! {
        <div class={classes!("quick-strip", props.inline.then_some("quick-inline"))}
            role="region" aria-label="Main settings of this view">
            <div class="quick-controls" data-count={count.to_string()}>
                { for controls.into_iter().map(|(id, limit, value, action)| {
                    let cb = props.on_action.clone();
                    html! {
                        <NumberControl id={format!("quick-{id}")} {limit} {value} compact={true}
                            on_change={Callback::from(move |v| cb.emit(action(v)))} />
                    }
                }) }
                { switch.unwrap_or_default() }
                { extra.unwrap_or_default() }
                { views_own }
            </div>
            <button type="button" class="button quick-settings" id="quick-settings"
                aria-controls="settings-sheet" aria-expanded={props.expanded.to_string()}
                onclick={props.on_settings.clone()}>
                { "All settings" }
            </button>
        </div>
    }
}

/// A view's own switch for the strip, by the id a lesson step or quiz task names it with
/// (`strip`): the offsets view's anchors-or-bases choice, the √d_model scaling, the 2-D scheme.
/// `None` for ids the strip draws elsewhere (sliders, a scheme's settings).
fn view_strip_control(id: &str, s: &Settings, on_action: &Callback<Action>) -> Option<Html> {
    use super::controls::{options, Choice};
    use crate::schemes::grid::GridScheme;
    use crate::state::OffsetSeries;
    let cb = on_action.clone();
    Some(match id {
        "offset-series" => html! {
            // The short words: "anchor positions" was cut off in the strip's narrow select.
            <Choice id="quick-offset-series" label="Compare"
                options={options(&OffsetSeries::ALL, OffsetSeries::id, OffsetSeries::id)}
                selected={s.offset_series.id()}
                on_change={Callback::from(move |v: String| {
                    if let Some(series) = OffsetSeries::from_id(&v) {
                        cb.emit(Action::SetOffsetSeries(series))
                    }
                })} />
        },
        "scale-embeddings" => html! {
            <Toggle id="quick-scale-embeddings" label="×√d_model"
                checked={s.scale_embeddings}
                on_change={Callback::from(move |v| cb.emit(Action::SetScaleEmbeddings(v)))} />
        },
        "grid-scheme" => html! {
            <Choice id="quick-grid-scheme" label="2-D scheme"
                options={options(&GridScheme::ALL, GridScheme::id, GridScheme::short)}
                selected={s.grid.scheme.id()}
                on_change={Callback::from(move |id: String| {
                    if let Some(g) = GridScheme::from_id(&id) {
                        cb.emit(Action::SetGridScheme(g))
                    }
                })} />
        },
        _ => return None,
    })
}

/// The settings sheet's state: whether it is open, and callbacks that open it (moving focus
/// into it) and close it (moving focus back to the button that opened it).
#[hook]
pub fn use_sheet() -> (bool, Callback<MouseEvent>, Callback<()>) {
    let open = use_state(|| false);
    let show = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| {
            open.set(true);
            browser::focus_later("sheet-close".into());
        })
    };
    let hide = {
        let open = open.clone();
        Callback::from(move |_: ()| {
            open.set(false);
            browser::focus_later("quick-settings".into());
        })
    };
    (*open, show, hide)
}

/// Where the settings are shown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Place {
    /// The sidebar beside the view (wide screens).
    Side,
    /// A sheet over the whole screen (a phone; or a fixed-height frame, whose screen is the
    /// frame).
    Screen,
    /// A sheet over the part of a frame that the reader sees, as the host script reports it.
    Frame(Visible),
    /// Under the strip, in the page (a frame whose visible part is unknown).
    Inline,
}

#[derive(Properties, PartialEq)]
pub struct SheetProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
    pub place: Place,
    pub open: bool,
    pub on_close: Callback<()>,
}

/// The settings: a sidebar on wider screens; elsewhere a sheet, opened from the strip and
/// closed with Done or Escape.
#[function_component(SettingsSheet)]
pub fn settings_sheet(props: &SheetProps) -> Html {
    let on_key = browser::close_on_escape(props.on_close.clone());
    let done = props.on_close.reform(|_: MouseEvent| ());
    let sheet = props.place != Place::Side;
    // Over the page (modal) on the screen or over the visible part of a frame; in the page's
    // flow under the strip otherwise.
    let modal = matches!(props.place, Place::Screen | Place::Frame(_));
    let (class, style) = match props.place {
        Place::Side => ("", None),
        Place::Screen => ("sheet", None),
        Place::Frame(v) => (
            "sheet sheet-frame",
            Some(format!(
                "top:{:.0}px;height:{:.0}px",
                v.top,
                v.height().max(320.0)
            )),
        ),
        Place::Inline => ("sheet sheet-inline", None),
    };
    html! {
        <aside class={classes!("sidebar", class)} id="settings-sheet" style={style}
            aria-label="Settings" role={modal.then_some("dialog")}
            aria-modal={modal.then_some("true")} hidden={sheet && !props.open}
            onkeydown={on_key}>
            if sheet {
                <div class="sheet-head">
                    <p class="sheet-title">{ "Settings" }</p>
                    <button type="button" class="button button-primary" id="sheet-close" onclick={done}>
                        { "Done" }
                    </button>
                </div>
            }
            <SettingsPanel settings={props.settings.clone()} on_action={props.on_action.clone()} />
        </aside>
    }
}
