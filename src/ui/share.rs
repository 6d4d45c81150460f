//! "Copy link" and "Copy embed code": each copies at once and shows the text (to copy by hand
//! where the clipboard is closed). The embed dialog chooses what the panel shows, its colours
//! and the kind of code; it closes with Close, Escape or a click outside it.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::browser;
use crate::embed::{embed_code, CodeKind, Content};
use crate::state::{Settings, ThemeChoice, View};
use crate::url::{self, Embed};

/// Which of the two the dialog shows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Offer {
    Link,
    Embed,
}

impl Offer {
    fn button(self) -> &'static str {
        match self {
            Offer::Link => "share-link",
            Offer::Embed => "share-embed",
        }
    }
}

/// The embed dialog's choices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EmbedChoice {
    pub content: Content,
    pub theme: ThemeChoice,
    pub code: CodeKind,
}

impl EmbedChoice {
    /// What the dialog starts with for a view: the chart and its controls where the view has
    /// a chart to move, the whole panel for the lesson, the quiz and training.
    pub fn default_for(view: View) -> EmbedChoice {
        let content = match view {
            View::Lesson | View::Quiz | View::Train => Content::WholePanel,
            _ => Content::ChartAndControls,
        };
        EmbedChoice {
            content,
            theme: ThemeChoice::Host,
            code: CodeKind::Sized,
        }
    }
}

/// The link a panel embedded with `choice` opens.
pub fn embed_link(s: &Settings, choice: EmbedChoice) -> String {
    let (show, controls) = choice.content.show_controls();
    let embed = Embed {
        view: s.view,
        controls,
        show,
    };
    let mut s = s.clone();
    s.theme = choice.theme;
    browser::frame_link(&url::to_link(&s, Some(&embed)).query)
}

/// The code a teacher pastes for the current view and settings.
pub fn code_for(s: &Settings, choice: EmbedChoice) -> String {
    embed_code(
        &embed_link(s, choice),
        &format!("Positional Encoding Explorer: {}", s.view.label()),
        choice.content,
        choice.code,
    )
}

#[derive(Properties, PartialEq)]
pub struct ShareProps {
    pub settings: Settings,
}

#[function_component(Share)]
pub fn share(props: &ShareProps) -> Html {
    let shown = use_state(|| None::<Offer>);
    let choice = use_state(|| EmbedChoice::default_for(props.settings.view));
    let status = use_state(String::new);
    let root = use_node_ref();
    let text = match *shown {
        Some(Offer::Link) => browser::link(&url::to_link(&props.settings, None).query),
        Some(Offer::Embed) => code_for(&props.settings, *choice),
        None => String::new(),
    };
    let copy = {
        let status = status.clone();
        move |text: String| {
            browser::copy_with_status(
                text,
                status.clone(),
                "Copied to the clipboard.".into(),
                "Select the text and copy it.",
            );
        }
    };
    let offer = |what: Offer| {
        let (shown, choice, settings, copy) = (
            shown.clone(),
            choice.clone(),
            props.settings.clone(),
            copy.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let fresh = EmbedChoice::default_for(settings.view);
            choice.set(fresh);
            shown.set(Some(what));
            copy(match what {
                Offer::Link => browser::link(&url::to_link(&settings, None).query),
                Offer::Embed => code_for(&settings, fresh),
            });
            browser::focus_later("share-text".into());
        })
    };
    // Close, or Escape: focus goes back to the button that opened the dialog.
    let close = {
        let shown = shown.clone();
        Callback::from(move |_: ()| {
            if let Some(what) = *shown {
                browser::focus_later(what.button().into());
            }
            shown.set(None);
        })
    };
    // A press outside closes it too, leaving focus where the press put it.
    {
        let (shown, root) = (shown.clone(), root.clone());
        use_effect_with(shown.is_some(), move |open| {
            let listener = open.then(|| {
                Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
                    let inside = e
                        .target()
                        .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
                        .zip(root.cast::<Element>())
                        .is_some_and(|(t, r)| r.contains(Some(&t)));
                    if !inside {
                        shown.set(None);
                    }
                })
            });
            let document = web_sys::window().and_then(|w| w.document());
            if let (Some(d), Some(l)) = (&document, &listener) {
                let _ = d.add_event_listener_with_callback_and_bool(
                    "pointerdown",
                    l.as_ref().unchecked_ref(),
                    true,
                );
            }
            move || {
                if let (Some(d), Some(l)) = (document, listener) {
                    let _ = d.remove_event_listener_with_callback_and_bool(
                        "pointerdown",
                        l.as_ref().unchecked_ref(),
                        true,
                    );
                }
            }
        });
    }
    let on_key = browser::close_on_escape(close.clone());
    let set = |f: fn(&mut EmbedChoice, usize), i: usize| {
        let (choice, settings, copy) = (choice.clone(), props.settings.clone(), copy.clone());
        Callback::from(move |_: Event| {
            let mut c = *choice;
            f(&mut c, i);
            choice.set(c);
            copy(code_for(&settings, c));
        })
    };
    let group = |legend: &'static str,
                 name: &'static str,
                 labels: Vec<&'static str>,
                 chosen: usize,
                 f: fn(&mut EmbedChoice, usize)| {
        html! {
            <fieldset class="share-choice">
                <legend class="control-label">{ legend }</legend>
                { for labels.iter().enumerate().map(|(i, label)| {
                    let id = format!("share-{name}-{i}");
                    html! {
                        <div class="share-option">
                            <input type="radio" id={id.clone()} name={format!("share-{name}")}
                                checked={i == chosen} onchange={set(f, i)} />
                            <label for={id}>{ *label }</label>
                        </div>
                    }
                }) }
            </fieldset>
        }
    };
    const THEMES: [ThemeChoice; 3] = [ThemeChoice::Host, ThemeChoice::Light, ThemeChoice::Dark];
    let c = *choice;
    let pos = |i: Option<usize>| i.unwrap_or(0);
    let options = html! {
        <div class="share-choices">
            { group("What to show", "content", Content::ALL.iter().map(|c| c.label()).collect(),
                pos(Content::ALL.iter().position(|x| *x == c.content)),
                |c, i| c.content = Content::ALL[i]) }
            { group("Colours", "theme", THEMES.iter().map(|t| t.label()).collect(),
                pos(THEMES.iter().position(|x| *x == c.theme)),
                |c, i| c.theme = THEMES[i]) }
            { group("Code", "code", CodeKind::ALL.iter().map(|k| k.label()).collect(),
                pos(CodeKind::ALL.iter().position(|x| *x == c.code)),
                |c, i| c.code = CodeKind::ALL[i]) }
        </div>
    };
    let hint = match (*shown, c.code) {
        (Some(Offer::Embed), CodeKind::Sized) => Some(
            "Paste it where the page takes HTML with scripts. The script sizes the frame to \
             the panel and tells it the page's colours and which part the reader sees.",
        ),
        (Some(Offer::Embed), CodeKind::Fixed) => Some(
            "For sites that strip scripts. The frame keeps its height; on a touch screen a \
             swipe scrolls the page, and the panel scrolls with its own buttons. Without the \
             script, \u{201c}Follow the page\u{201d} follows the reader's system instead.",
        ),
        _ => None,
    };
    let label = match *shown {
        Some(Offer::Link) => "Link to this view",
        _ => "Embed code for this panel",
    };
    html! {
        <div class="share" ref={root}>
            <button type="button" class="button" id="share-link" onclick={offer(Offer::Link)}
                aria-expanded={(*shown == Some(Offer::Link)).to_string()}>{ "Copy link" }</button>
            <button type="button" class="button" id="share-embed" onclick={offer(Offer::Embed)}
                aria-expanded={(*shown == Some(Offer::Embed)).to_string()}>{ "Copy embed code" }</button>
            if shown.is_some() {
                <div class="share-box" role="dialog" aria-label={label} onkeydown={on_key}>
                    if *shown == Some(Offer::Embed) { { options } }
                    <label for="share-text" class="control-label">{ label }</label>
                    <textarea id="share-text" readonly=true
                        rows={if *shown == Some(Offer::Embed) { "6" } else { "3" }} value={text}
                        onfocus={Callback::from(|e: FocusEvent| {
                            let t: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
                            t.select();
                        })} />
                    if let Some(h) = hint {
                        <p class="note muted">{ h }</p>
                    }
                    <p class="note" role="status" aria-live="polite">{ (*status).clone() }</p>
                    <button type="button" class="button button-small" id="share-close"
                        onclick={Callback::from(move |_: MouseEvent| close.emit(()))}>{ "Close" }</button>
                </div>
            }
        </div>
    }
}
