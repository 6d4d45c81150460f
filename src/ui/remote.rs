//! The shell's side of a view module: a view drawn by a wasm module of its own, fetched when its
//! tab (or embed) first opens, or earlier when the network is idle (see "View modules" in
//! `docs/architecture.md`).
//!
//! The boundary is the link. The shell hands the module an element of the page, the view's id,
//! the settings as the link's query ([`crate::url::to_query`], read back by
//! [`crate::url::parse_whole`]) and whether the charts are dark; the module hands back what the view asked for:
//! a tab (`view`), a scheme picked in the settings (`pick`), or the settings the rest of its
//! actions led to (`settings`, a query again), and once that its first render is on the page
//! (`drawn`). The rest of the boundary (a module that keeps state between visits, the charts'
//! files) is below. Nothing else crosses: the two modules have separate memories, and neither
//! calls the other's code.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::Element;
use yew::prelude::*;

use super::browser;
use super::chart::use_theme;
use crate::action::Action;
use crate::plot::frame::Theme;
use crate::schemes::Scheme;
use crate::state::{Settings, View};
use crate::url;

/// The loader's function `name` (`load(name)` gives a promise of the module, fetched once;
/// `prefetch(names)` fetches them when the page is idle; see [`browser::view_loader`]).
fn loader(name: &str) -> Result<js_sys::Function, JsValue> {
    browser::view_loader_fn(name).ok_or_else(|| JsValue::from_str("this page has no view loader"))
}

fn load_view_module(name: &str) -> Result<js_sys::Promise, JsValue> {
    loader("load")?
        .call1(&JsValue::NULL, &JsValue::from_str(name))?
        .dyn_into::<js_sys::Promise>()
        .map_err(|_| JsValue::from_str("the view loader gave no promise"))
}

/// Calls the module's export `name` with `args`.
fn call(module: &JsValue, name: &str, args: &[&JsValue]) -> Result<JsValue, JsValue> {
    let f: js_sys::Function = js_sys::Reflect::get(module, &JsValue::from_str(name))?
        .dyn_into()
        .map_err(|_| JsValue::from_str("the view module lacks an export"))?;
    let list = js_sys::Array::new();
    for a in args {
        list.push(a);
    }
    f.apply(&JsValue::NULL, &list)
}

fn mount_view(
    module: &JsValue,
    element: &Element,
    view: &str,
    query: &str,
    dark: bool,
    send: &js_sys::Function,
) -> Result<u32, JsValue> {
    let id = call(
        module,
        "mount",
        &[
            element.as_ref(),
            &JsValue::from_str(view),
            &JsValue::from_str(query),
            &JsValue::from_bool(dark),
            send.as_ref(),
        ],
    )?;
    id.as_f64()
        .map(|x| x as u32)
        .ok_or_else(|| JsValue::from_str("the view module gave no mount"))
}

fn update_view(module: &JsValue, id: u32, query: &str, dark: bool) -> Result<JsValue, JsValue> {
    call(
        module,
        "update",
        &[
            &JsValue::from(id),
            &JsValue::from_str(query),
            &JsValue::from_bool(dark),
        ],
    )
}

fn unmount_view(module: &JsValue, id: u32) -> Result<JsValue, JsValue> {
    call(module, "unmount", &[&JsValue::from(id)])
}

/// Every view module, fetched and compiled when the page is idle after the app has drawn, so
/// that a tab opened later draws at once.
pub fn prefetch() {
    let names: js_sys::Array = View::ALL
        .into_iter()
        .filter_map(View::module)
        .map(JsValue::from_str)
        .collect();
    if let Ok(f) = loader("prefetch") {
        let _ = f.call1(&JsValue::NULL, &names);
    }
}

/// Tells every module that keeps something between its views' visits the app's settings now.
pub fn notify(settings: &Settings) {
    if let Ok(f) = loader("notify") {
        let _ = f.call1(
            &JsValue::NULL,
            &JsValue::from_str(&url::to_query(settings, None)),
        );
    }
}

/// Gives such modules a way to the app for as long as the page lives (`on_action` hears what
/// they send, read as [`read_message`] reads it).
pub fn listen(on_action: Callback<Action>) {
    let Some(views) = browser::view_loader() else {
        return;
    };
    let hear = Closure::<dyn Fn(String, String)>::new(move |kind: String, value: String| {
        if let Some(a) = read_message(&kind, &value) {
            on_action.emit(a);
        }
    });
    let _ = js_sys::Reflect::set(&views, &JsValue::from_str("shell"), hear.as_ref());
    // A module's files, saved as the app saves its own (the frame's sandbox and the way out
    // are the app's to know).
    let save = Closure::<dyn Fn(String, String, JsValue) -> Result<(), JsValue>>::new(
        |name: String, mime: String, body: JsValue| {
            browser::save_for_module(&name, &mime, &body).map_err(|e| JsValue::from_str(&e))
        },
    );
    let _ = js_sys::Reflect::set(&views, &JsValue::from_str("save"), save.as_ref());
    // The page's whole life: the app is never unmounted.
    hear.forget();
    save.forget();
}

/// A chart's file, as its Download button gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum File {
    Csv,
    Png,
}

/// The file of the chart drawn on the canvas `id`, wherever it is drawn: by the app, or by a
/// view module (asked through its `chart_csv` or `chart_png` export): (file name, text or
/// `data:` address).
pub fn chart_file(id: &str, file: File) -> Result<(String, String), String> {
    let here = match file {
        File::Csv => super::chart::chart_csv(id),
        File::Png => super::chart::chart_png(id),
    };
    if here.is_ok() {
        return here;
    }
    let module = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id(id))
        .and_then(|e| e.closest(".remote-view[data-module]").ok().flatten())
        .and_then(|e| e.get_attribute("data-module"));
    let Some(name) = module else {
        return here;
    };
    let ready = loader("module")
        .and_then(|f| f.call1(&JsValue::NULL, &JsValue::from_str(&name)))
        .ok()
        .filter(JsValue::is_object)
        .ok_or("the chart's view is still loading")?;
    let export = match file {
        File::Csv => "chart_csv",
        File::Png => "chart_png",
    };
    let got = call(&ready, export, &[&JsValue::from_str(id)]).map_err(|e| describe(&e))?;
    let pair = js_sys::Array::from(&got);
    match (pair.get(0).as_string(), pair.get(1).as_string()) {
        (Some(name), Some(body)) => Ok((name, body)),
        _ => Err("the view module gave no file".into()),
    }
}

/// What a module sends back, read into the action the shell's own view would have emitted (a
/// tab and a scheme picked in the settings as themselves, so that the page around the view, an
/// embedded panel, treats them as it treats its own; anything else as the settings it led to,
/// read without the link's length limit, the lesson step and quiz question kept).
pub fn read_message(kind: &str, value: &str) -> Option<Action> {
    match kind {
        "view" => View::from_id(value).map(Action::SetView),
        "pick" => Scheme::from_id(value).map(Action::PickScheme),
        "settings" => Some(Action::FromModule(Box::new(
            url::parse_whole(value).settings,
        ))),
        _ => None,
    }
}

#[derive(Properties, PartialEq)]
pub struct RemoteProps {
    pub view: View,
    pub settings: Settings,
    pub on_action: Callback<Action>,
}

/// Where the module stands: being fetched, drawing (the module and its mount's id), or failed.
#[derive(Clone, PartialEq)]
enum Stage {
    Loading,
    Ready(JsValue),
    Failed(String),
}

/// A view drawn by its module: fetched on first use, mounted in an element of this component,
/// kept in step with the settings and the theme, unmounted when the tab closes.
#[function_component(RemoteView)]
pub fn remote_view(props: &RemoteProps) -> Html {
    let name = props.view.module().unwrap_or("");
    // The settings as the module reads them, written once a render.
    let query = url::to_query(&props.settings, None);
    let host = use_node_ref();
    let stage = use_state(|| Stage::Loading);
    let attempt = use_state(|| 0_u32);
    let dark = use_theme() == Theme::DARK;
    // The latest callback, read by the module's messages (which outlive any one render).
    let on_action = use_mut_ref(|| props.on_action.clone());
    *on_action.borrow_mut() = props.on_action.clone();
    let mounted = use_mut_ref(|| None::<(JsValue, u32)>);

    {
        let stage = stage.clone();
        use_effect_with((name, *attempt), move |(name, _)| {
            let name = *name;
            stage.set(Stage::Loading);
            match load_view_module(name) {
                Ok(promise) => wasm_bindgen_futures::spawn_local(async move {
                    match wasm_bindgen_futures::JsFuture::from(promise).await {
                        Ok(module) => stage.set(Stage::Ready(module)),
                        Err(e) => stage.set(Stage::Failed(describe(&e))),
                    }
                }),
                Err(e) => stage.set(Stage::Failed(describe(&e))),
            }
        });
    }

    // Mount once the module is here; unmount when the view or the module changes, or the tab
    // closes.
    {
        let (host, mounted, on_action, stage_handle) = (
            host.clone(),
            mounted.clone(),
            on_action.clone(),
            stage.clone(),
        );
        let view = props.view;
        let first = (query.clone(), dark);
        use_effect_with(((*stage).clone(), view), move |(stage, view)| {
            if let (Stage::Ready(module), Some(element)) = (stage, host.cast::<Element>()) {
                let send =
                    Closure::<dyn Fn(String, String)>::new(move |kind: String, value: String| {
                        // The view's first render is on the page (its charts drawn): the app
                        // takes over from the first paint, if it has not yet.
                        if kind == "drawn" {
                            browser::hand_over();
                        } else if let Some(a) = read_message(&kind, &value) {
                            let cb = on_action.borrow().clone();
                            cb.emit(a);
                        }
                    });
                let (query, dark) = first;
                if let Ok(isolate) = loader("isolate") {
                    let _ = isolate.call1(&JsValue::NULL, &element);
                }
                match mount_view(
                    module,
                    &element,
                    view.id(),
                    &query,
                    dark,
                    send.as_ref().unchecked_ref(),
                ) {
                    Ok(id) => *mounted.borrow_mut() = Some((module.clone(), id)),
                    Err(e) => stage_handle.set(Stage::Failed(describe(&e))),
                }
                let mounted = mounted.clone();
                return Box::new(move || {
                    if let Some((module, id)) = mounted.borrow_mut().take() {
                        let _ = unmount_view(&module, id);
                    }
                    drop(send);
                }) as Box<dyn FnOnce()>;
            }
            Box::new(|| ()) as Box<dyn FnOnce()>
        });
    }

    // A view that cannot be drawn still ends the first paint: the page says why, live.
    let failed = matches!(*stage, Stage::Failed(_));
    use_effect_with(failed, |failed| {
        if *failed {
            browser::hand_over();
        }
    });

    // Every later change of the settings or the theme.
    {
        let mounted = mounted.clone();
        use_effect_with((query, dark), move |(query, dark)| {
            if let Some((module, id)) = &*mounted.borrow() {
                let _ = update_view(module, *id, query, *dark);
            }
        });
    }

    let retry = {
        let attempt = attempt.clone();
        Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1))
    };
    let (busy, note) = match &*stage {
        Stage::Loading => (true, html! {}),
        Stage::Ready(_) => (false, html! {}),
        Stage::Failed(why) => (
            false,
            html! {
                <div class="note note-error remote-failed" role="alert">
                    <p>{ format!("This view could not be loaded ({why}). Check the connection and try again.") }</p>
                    <button type="button" class="button button-small" onclick={retry}>{ "Try again" }</button>
                </div>
            },
        ),
    };
    html! {
        <>
            { note }
            <div class="remote-view" ref={host} data-module={name}
                aria-busy={busy.then_some("true")}></div>
        </>
    }
}

/// A JS error in a sentence.
fn describe(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            js_sys::Reflect::get(e, &JsValue::from_str("message"))
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| "unknown error".into())
}
