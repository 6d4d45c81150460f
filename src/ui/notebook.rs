//! The app inside a notebook widget (the Python package in `python/`, an anywidget). Its frame
//! has no address of its own, so the widget hands it the link query (`window.peExplorerQuery`)
//! and sets `window.peExplorerWidget`; the app then talks to the widget with `postMessage` to the
//! parent window, and listens to that window only. Every value it reads is checked.
//!
//! To the widget:
//! - [`STATE`] `{query, link}`: the state as its link query (with the embedding), and the app's
//!   own link for it (as Copy link writes it), after every change;
//! - [`NOTICES`] `{query, notices}`: what reading a [`SET`] query said (clamped or ignored values);
//! - [`FIGURE`] `{query, view, name, csv}`: the main chart's CSV, a moment after each change (the
//!   file its "Download CSV" gives), or `{query, view, problem}` when there is none;
//! - [`RESULTS`] `{name, csv}`: the Train view's held-out table, when it changes;
//! - [`PNG`] `{id, name, data}`: the main chart's PNG (a `data:` address) when asked, or
//!   `{id, problem}`.
//!
//! From the widget: [`SET`] `{query}` (open that link's state) and [`PNG`] `{id}`.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::action::Action;
use crate::main_chart::main_chart;
use crate::state::Settings;
use crate::url::{self, Embed};

pub const STATE: &str = "pe-explorer:state";
pub const NOTICES: &str = "pe-explorer:notices";
pub const FIGURE: &str = "pe-explorer:figure";
pub const RESULTS: &str = "pe-explorer:results";
pub const PNG: &str = "pe-explorer:png";
pub const SET: &str = "pe-explorer:set";

/// The most characters of CSV sent on its own after a change (about 700,000 values, some 6 MB
/// as float64: Jupyter's server closes a kernel's websocket at 10 MiB by default); a larger
/// chart's numbers are left to its Download CSV.
pub const FIGURE_MAX: usize = 8 << 20;

/// The most values of a position matrix sent on their own after a change (its CSV is about
/// 12 characters a value); a larger matrix's numbers are left to its Download CSV.
pub const MATRIX_VALUES_MAX: usize = 1 << 19;

/// How long after the last change the main chart's numbers are sent (ms): a drag sends once.
const FIGURE_DELAY: i32 = 300;

/// Whether this page is a notebook widget's frame.
pub fn active() -> bool {
    web_sys::window()
        .and_then(|w| Reflect::get(&w, &"peExplorerWidget".into()).ok())
        .is_some_and(|v| v.is_truthy())
}

/// Posts `fields` (with `type: kind`) to the widget.
fn post(kind: &str, fields: &[(&str, JsValue)]) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    let message = js_sys::Object::new();
    let _ = Reflect::set(&message, &"type".into(), &kind.into());
    for (k, v) in fields {
        let _ = Reflect::set(&message, &(*k).into(), v);
    }
    // Any origin: a widget's frame is sandboxed, and its parent is the notebook's page.
    let _ = parent.post_message(&message, "*");
}

/// The main chart's CSV as its Download CSV gives it: (file name, text).
fn main_csv(s: &Settings) -> Result<(String, String), String> {
    let chart = main_chart(s).ok_or("this view has no chart of numbers")?;
    super::chart::chart_csv(&chart.id)
}

/// The main chart's PNG as its Download PNG draws it: (file name, `data:` address).
fn main_png(s: &Settings) -> Result<(String, String), String> {
    let chart = main_chart(s).ok_or("this view has no chart")?;
    super::chart::chart_png(&chart.id)
}

/// The Train view's held-out table as its Download CSV gives it, when the view is on screen.
fn results_csv() -> Option<(String, String)> {
    super::chart::chart_csv("train-table-chart").ok()
}

fn text_field(data: &JsValue, key: &str) -> Option<String> {
    Reflect::get(data, &key.into()).ok()?.as_string()
}

/// Listens to the widget and keeps it told. Does nothing outside a widget's frame.
#[hook]
pub fn use_notebook(
    settings: UseReducerHandle<Settings>,
    notices: UseStateHandle<Vec<String>>,
    embed: UseStateHandle<Option<Embed>>,
) {
    let on = active();
    // The newest settings and embed, for the listener (set once) to read.
    let latest = use_mut_ref(|| ((*settings).clone(), (*embed).clone()));
    *latest.borrow_mut() = ((*settings).clone(), (*embed).clone());

    {
        let (settings, notices, embed, latest) = (
            settings.clone(),
            notices.clone(),
            embed.clone(),
            latest.clone(),
        );
        use_effect_with((), move |_| {
            let window = web_sys::window();
            let listener = on.then(|| {
                Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
                    let from_parent = web_sys::window()
                        .and_then(|w| w.parent().ok().flatten())
                        .zip(e.source())
                        .is_some_and(|(p, s)| js_sys::Object::is(&p, &s));
                    if !from_parent {
                        return;
                    }
                    let data = e.data();
                    match text_field(&data, "type").as_deref() {
                        Some(SET) => {
                            let Some(query) = text_field(&data, "query") else {
                                return;
                            };
                            let parsed = url::parse(&query);
                            // The newest embed, not the one of the render that made the
                            // listener.
                            if parsed.embed != latest.borrow().1 {
                                embed.set(parsed.embed.clone());
                            }
                            settings.dispatch(Action::Preset(Box::new(parsed.settings)));
                            notices.set(parsed.notices.clone());
                            let list: js_sys::Array = parsed
                                .notices
                                .iter()
                                .map(|n| JsValue::from_str(n))
                                .collect();
                            post(
                                NOTICES,
                                &[("query", query.into()), ("notices", list.into())],
                            );
                        }
                        Some(PNG) => {
                            let id = Reflect::get(&data, &"id".into()).unwrap_or_default();
                            let s = latest.borrow().0.clone();
                            match main_png(&s) {
                                Ok((name, url)) => post(
                                    PNG,
                                    &[("id", id), ("name", name.into()), ("data", url.into())],
                                ),
                                Err(problem) => {
                                    post(PNG, &[("id", id), ("problem", problem.into())])
                                }
                            }
                        }
                        _ => {}
                    }
                })
            });
            if let (Some(w), Some(l)) = (&window, &listener) {
                let _ = w.add_event_listener_with_callback("message", l.as_ref().unchecked_ref());
            }
            // The Train view's results change without the settings changing: look once a second.
            let sent = Rc::new(RefCell::new(String::new()));
            let poll = on.then(|| {
                Closure::<dyn FnMut()>::new(move || {
                    if let Some((name, csv)) = results_csv() {
                        if *sent.borrow() != csv {
                            post(
                                RESULTS,
                                &[("name", name.into()), ("csv", csv.clone().into())],
                            );
                            *sent.borrow_mut() = csv;
                        }
                    }
                })
            });
            let interval = match (&window, &poll) {
                (Some(w), Some(p)) => w
                    .set_interval_with_callback_and_timeout_and_arguments_0(
                        p.as_ref().unchecked_ref(),
                        1000,
                    )
                    .ok(),
                _ => None,
            };
            move || {
                if let (Some(w), Some(l)) = (&window, &listener) {
                    let _ = w
                        .remove_event_listener_with_callback("message", l.as_ref().unchecked_ref());
                }
                if let (Some(w), Some(i)) = (&window, interval) {
                    w.clear_interval_with_handle(i);
                }
                drop(poll);
            }
        });
    }

    // After every change: the state at once, the main chart's numbers once the drag stops (one
    // pending send, replaced by the next change).
    let timer = use_mut_ref(|| None::<(i32, Closure<dyn FnMut()>)>);
    use_effect_with(((*settings).clone(), (*embed).clone()), move |(s, e)| {
        if on {
            let query = url::to_query(s, e.as_ref());
            let link = url::whole_app_link(s).query;
            post(
                STATE,
                &[("query", query.clone().into()), ("link", link.into())],
            );
            let s = s.clone();
            let mut once = Some(query);
            let send = Closure::<dyn FnMut()>::new(move || {
                let Some(query) = once.take() else {
                    return;
                };
                let view = crate::main_chart::shown_view(&s);
                let values = s.length.saturating_mul(s.d_model);
                let matrix = view == crate::state::View::Matrix && values > MATRIX_VALUES_MAX;
                let view = view.id();
                let csv = if matrix {
                    Err(format!(
                        "the matrix has {values} values, more than the {MATRIX_VALUES_MAX} a \
                         widget sends after each change; use its Download CSV, or a smaller \
                         length or d_model"
                    ))
                } else {
                    main_csv(&s)
                };
                match csv {
                    Ok((name, csv)) if csv.len() <= FIGURE_MAX => post(
                        FIGURE,
                        &[
                            ("query", query.into()),
                            ("view", view.into()),
                            ("name", name.into()),
                            ("csv", csv.into()),
                        ],
                    ),
                    Ok((_, csv)) => post(
                        FIGURE,
                        &[
                            ("query", query.into()),
                            ("view", view.into()),
                            (
                                "problem",
                                format!(
                                    "the chart's CSV is {} characters, more than the {} a widget \
                                     sends; use its Download CSV",
                                    csv.len(),
                                    FIGURE_MAX
                                )
                                .into(),
                            ),
                        ],
                    ),
                    Err(problem) => post(
                        FIGURE,
                        &[
                            ("query", query.into()),
                            ("view", view.into()),
                            ("problem", problem.into()),
                        ],
                    ),
                }
            });
            if let Some(w) = web_sys::window() {
                if let Some((t, _)) = timer.borrow_mut().take() {
                    w.clear_timeout_with_handle(t);
                }
                if let Ok(t) = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                    send.as_ref().unchecked_ref(),
                    FIGURE_DELAY,
                ) {
                    *timer.borrow_mut() = Some((t, send));
                }
            }
        }
    });
}
