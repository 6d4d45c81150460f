//! The first paint: what the page runs first, with no Yew. When the address asks for a view it
//! knows ([`main_chart::early`]), it draws that view's main chart live, with the app's own figure
//! and plot code ([`main_chart::main_chart`]), and gives it the sliders the phone's strip gives
//! it. Meanwhile the app arrives, and takes the page over once its own chart is drawn (it removes
//! `#early`, and moves the focus to its own slider). Any other address only waits for the app. On
//! a slow phone the chart appears well before the whole app has arrived.
//!
//! The site's module (`src/main.rs`) is this code with the app a chunk of its own wasm, fetched
//! as the first paint starts; the single file's first-paint module (`src/bin/first.rs`) loads the
//! app the page carries. [`start`] is the same for both.

use std::cell::RefCell;
use std::rc::Rc;

use std::future::Future;

use crate::format::plain;
use crate::limit::nearest_stop;
use crate::main_chart::{
    early, early_knobs, main_chart, Chart, Early, Knob, MainChart, TALL_CHART,
};
use crate::plot::frame::Theme;
use crate::plot::{dials, heatmap, lines};
use crate::state::{Settings, ThemeChoice, View};
use crate::touch::TouchGuard;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlInputElement};

#[wasm_bindgen(inline_js = "
// Every file a chunk of the site's wasm needs, asked for at once: the app's own chunk, and the
// chunk of a view drawn from one (src/ui/lazy.rs) when the page opens on it. The site's page
// does it (index.html, peExplorerPreload: it lists the files); a page that carries the app
// inside itself has no chunks and no such function.
export function preload_chunk(name) {
  if (!window.peExplorerBundle) window.peExplorerPreload?.(name);
}
// The app has started: its exports become the page's `window.wasmBindings` (the benchmarks'
// and the tests'). Until then they wait in `peExplorerMain`: the site's page puts its module's
// there, the single file's first paint (src/bin/first.rs) the app module's.
export function announce_app() {
  if (window.peExplorerMain) window.wasmBindings = window.peExplorerMain;
}")]
extern "C" {
    fn preload_chunk(name: &str);
    fn announce_app();
}

fn media(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|m| m.matches())
}

fn element(doc: &Document, tag: &str, class: &str, parent: &Element) -> Option<Element> {
    let el = doc.create_element(tag).ok()?;
    if !class.is_empty() {
        el.set_class_name(class);
    }
    parent.append_child(&el).ok()?;
    Some(el)
}

/// A row of buttons as the app draws a choice (its labels, the chosen one marked).
fn buttons(
    doc: &Document,
    parent: &Element,
    class: &str,
    chosen: &str,
    choices: &[(&str, bool)],
) -> Option<()> {
    for (label, on) in choices {
        let class = if *on {
            format!("{class} {chosen}")
        } else {
            class.to_string()
        };
        element(doc, "button", &class, parent)?.set_text_content(Some(label));
    }
    Some(())
}

/// A stand-in for the app's controls until it arrives: drawn where they will be (so nothing
/// moves), but inert, out of the accessibility tree and out of the tab order.
fn placeholder(el: &Element) {
    let _ = el.set_attribute("inert", "");
    let _ = el.set_attribute("aria-hidden", "true");
    if el.tag_name() == "BUTTON" {
        let _ = el.set_attribute("tabindex", "-1");
    }
    if let Ok(buttons) = el.query_selector_all("button") {
        for i in 0..buttons.length() {
            if let Some(b) = buttons.get(i).and_then(|b| b.dyn_into::<Element>().ok()) {
                let _ = b.set_attribute("tabindex", "-1");
            }
        }
    }
}

/// The page's colours, as the app picks them (a host's colours are the app's to learn).
fn theme(s: &Settings) -> Theme {
    if s.theme.is_dark(media("(prefers-color-scheme: dark)"), None) {
        Theme::DARK
    } else {
        Theme::LIGHT
    }
}

/// Draws the chart at its stage's current width, at the height the view gives it.
fn paint(canvas: &HtmlCanvasElement, chart: &MainChart, theme: &Theme) {
    let width = canvas
        .parent_element()
        .map_or(600.0, |p| p.get_bounding_client_rect().width())
        .max(200.0_f64);
    let height = chart.height(width);
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    let _ = canvas.set_attribute("style", &format!("width:{width}px;height:{height}px"));
    if let Some(stage) = canvas.parent_element() {
        let _ = stage.set_attribute("style", &format!("height:{height}px"));
    }
    let drawn = match &chart.chart {
        Chart::Heatmap(data) => {
            heatmap::draw(canvas, width, height, ratio, &data.spec(), theme).map(|_| ())
        }
        // A long caption or legend makes the canvas taller, as in the app.
        Chart::Lines(data) => lines::draw(canvas, width, height, ratio, data, theme).map(|l| {
            let grown = l.canvas_height;
            if grown != height {
                let _ = canvas.set_attribute("style", &format!("width:{width}px;height:{grown}px"));
                if let Some(stage) = canvas.parent_element() {
                    let _ = stage.set_attribute("style", &format!("height:{grown}px"));
                }
            }
        }),
        Chart::Dials(d) => {
            let at = d.at(width);
            let (layout, h) = (at.layout, at.layout_height);
            dials::draw(canvas, layout, h, ratio * at.scale, &at.data, theme)
        }
    };
    if drawn.is_ok() {
        let n = canvas
            .get_attribute("data-draws")
            .and_then(|d| d.parse::<u32>().ok())
            .unwrap_or(0);
        let _ = canvas.set_attribute("data-draws", &(n + 1).to_string());
    }
}

/// The page's link query (with its `?`): the address's or, in a frame that has no address of its
/// own (a notebook widget's), the one its host wrote into `window.peExplorerQuery`.
fn page_query(w: &web_sys::Window) -> String {
    js_sys::Reflect::get(w, &"peExplorerQuery".into())
        .ok()
        .and_then(|q| q.as_string())
        .map(|q| format!("?{}", q.trim_start_matches('?')))
        .unwrap_or_else(|| w.location().search().unwrap_or_default())
}

/// Keeps the address in step with a slider: the same parameters, with `key`'s new value (the
/// app starts from the address, and writes it in its own order once it is there).
fn write_address(key: &str, value: f64) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let query = page_query(&w);
    let mut parts: Vec<String> = query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && p.split('=').next() != Some(key))
        .map(str::to_string)
        .collect();
    parts.push(format!("{key}={value}"));
    if js_sys::Reflect::has(&w, &"peExplorerQuery".into()).unwrap_or(false) {
        let _ = js_sys::Reflect::set(&w, &"peExplorerQuery".into(), &parts.join("&").into());
        return;
    }
    let path = w.location().pathname().unwrap_or_default();
    if let Ok(h) = w.history() {
        let url = format!("{path}?{}", parts.join("&"));
        let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// The early page: the chart in the app's own frame (the header and the settings beside it on a
/// wide screen, the strip at the bottom of a phone's), with the view's main sliders.
fn build(doc: &Document, early: Early, chart: MainChart) -> Option<()> {
    let body = doc.body()?;
    let root = doc.document_element()?;
    let theme = theme(&early.settings);
    let dark = theme == Theme::DARK;
    let _ = root.set_attribute("data-theme", if dark { "dark" } else { "light" });
    let embedded = early.embed.is_some();
    let phone = media("(max-width: 600px)");
    let (app, content, controls);
    if embedded {
        app = element(doc, "div", "embed early", &body)?;
        // The options as the app's panel says them: its styles show the main chart alone, or
        // without its buttons and fields, from these (ui/embedded.rs).
        let show = if early.show_chart { "chart" } else { "panel" };
        let _ = app.set_attribute("data-show", show);
        let _ = app.set_attribute("data-controls", if early.controls { "all" } else { "none" });
        content = element(doc, "main", "embed-main", &app)?;
        if early.show_chart {
            let _ = content.set_attribute("data-chart", "main");
        }
        controls = None;
    } else {
        app = element(doc, "div", "app early", &body)?;
        let header = element(doc, "header", "site-header", &app)?;
        let brand = element(doc, "div", "brand", &header)?;
        element(doc, "h1", "", &brand)?.set_text_content(Some("Positional Encoding Explorer"));
        element(doc, "p", "tagline", &brand)?.set_text_content(Some(
            "How a transformer knows where each token sits, computed live in your browser.",
        ));
        // The app's header tools and tabs, inert until the app arrives: the chart sits where
        // the app's will.
        let tools = element(doc, "div", "header-tools", &header)?;
        let share = element(doc, "div", "share", &tools)?;
        for label in ["Copy link", "Copy embed code"] {
            element(doc, "button", "button", &share)?.set_text_content(Some(label));
        }
        let switch = element(doc, "div", "theme-switch", &tools)?;
        let theme = early.settings.theme;
        let choices = ThemeChoice::SWITCH.map(|t| (t.label(), t == theme));
        buttons(
            doc,
            &switch,
            "button button-small",
            "button-active",
            &choices,
        )?;
        placeholder(&tools);
        let layout = element(doc, "div", "layout", &app)?;
        // The settings' landmark only where it holds them (a phone's sliders are in the strip).
        let side = element(
            doc,
            if phone { "div" } else { "aside" },
            "sidebar early-side",
            &layout,
        )?;
        if !phone {
            let _ = side.set_attribute("aria-label", "Settings");
        }
        content = element(doc, "main", "content", &layout)?;
        let tabs = element(doc, "nav", "tabs", &content)?;
        let view = early.settings.view;
        let choices = View::ALL.map(|v| (v.label(), v == view));
        buttons(doc, &tabs, "tab", "tab-selected", &choices)?;
        placeholder(&tabs);
        controls = (!phone)
            .then(|| element(doc, "div", "settings", &side))
            .flatten();
    }
    app.set_id("early");
    // The early page is the start: the loading note goes.
    if let Some(boot) = doc.get_element_by_id("boot") {
        boot.remove();
    }
    // A lesson step: its count and title above the step's view, as the lesson shows them.
    let content = if early.settings.view == View::Lesson {
        let n = early.settings.lesson;
        let total = crate::learn::lesson::STEPS.len();
        // In a tab panel as the app's (an embed's main is one already), so that a phone's
        // layout orders the step's view as the app's: its chart first, then the view's text.
        let content = if embedded {
            content
        } else {
            element(doc, "div", "tab-panel", &content)?
        };
        let lesson = element(doc, "section", "panel lesson", &content)?;
        let head = element(doc, "div", "lesson-head", &lesson)?;
        element(doc, "p", "lesson-count", &head)?
            .set_text_content(Some(&format!("Lesson · step {n} of {total}")));
        let progress = element(doc, "progress", "lesson-progress", &head)?;
        let _ = progress.set_attribute("max", &total.to_string());
        let _ = progress.set_attribute("value", &n.to_string());
        let _ = progress.set_attribute("aria-hidden", "true");
        element(doc, "h2", "", &lesson)?
            .set_text_content(Some(crate::learn::lesson::step(n).title));
        element(doc, "div", "lesson-view", &content)?
    } else {
        content
    };
    let panel = element(doc, "section", "panel", &content)?;
    let head = element(doc, "header", "panel-head", &panel)?;
    let title = element(doc, "h2", "", &head)?;
    title.set_text_content(Some(&chart.title));
    // A compact embed keeps the chart's figure and the panel's title, as the app marks them.
    let chart_only = embedded && early.show_chart;
    if chart_only {
        let _ = title.set_attribute("data-main-title", "");
    }
    // The app's panel head, so that on a wide screen the chart starts where the app's will.
    if let Some((lead, entry)) = &chart.head {
        element(doc, "p", "panel-lead", &head)?.set_text_content(Some(lead));
        if let Some(entry) = entry {
            let p = element(doc, "p", "entry", &head)?;
            element(doc, "strong", "", &p)?.set_text_content(Some("Where it enters the model: "));
            p.append_with_str_1(entry).ok()?;
        }
    }
    if let Some(label) = chart.action {
        let actions = element(doc, "div", "train-actions", &panel)?;
        element(doc, "button", "button button-primary", &actions)?.set_text_content(Some(label));
        placeholder(&actions);
    }
    // The app's panel body, where the chart has the readout and explanation beside it (they come
    // with the app).
    let body = if chart.side {
        Some(element(doc, "div", "panel-body", &panel)?)
    } else {
        None
    };
    let holder = if let Some(class) = chart.twin {
        let twin = element(doc, "div", class, &panel)?;
        element(doc, "div", chart.card.0, &twin)?
    } else {
        body.clone().unwrap_or_else(|| panel.clone())
    };
    for (tag, class, text) in &chart.card.1 {
        element(doc, tag, class, &holder)?.set_text_content(Some(text));
    }
    // Where the app's panel has a head, its chart's figure too: the export buttons above the
    // chart (below it on a phone), inert until the app arrives.
    let holder = if chart.head.is_some() || chart_only {
        let figure = element(doc, "figure", "chart", &holder)?;
        if chart_only {
            let _ = figure.set_attribute("data-main-chart", "");
        }
        let tools = element(doc, "div", "chart-tools", &figure)?;
        for label in ["Download CSV", "Download PNG", "Data table"] {
            element(doc, "button", "button", &tools)?.set_text_content(Some(label));
        }
        placeholder(&tools);
        figure
    } else {
        holder
    };
    if let Some(body) = &body {
        element(doc, "aside", "panel-side", body)?;
    }
    let stage = element(doc, "div", "chart-stage", &holder)?;
    let canvas: HtmlCanvasElement = element(doc, "canvas", "chart-canvas", &stage)?
        .dyn_into()
        .ok()?;
    canvas.set_id(&format!("early-{}", chart.id));
    let _ = canvas.set_attribute("data-early", &chart.id);
    let _ = canvas.set_attribute("role", "img");
    let _ = canvas.set_attribute(
        "aria-label",
        &format!("{} (loading the rest of the app)", chart.title),
    );
    paint(&canvas, &chart, &theme);
    let knobs = early_knobs(&early.settings);
    if knobs.is_empty() || !early.controls {
        return Some(());
    }
    // As the app's strip: on a phone fixed to the bottom of the screen (under the chart in an
    // embed), with "All settings" (inert until the app arrives); beside the chart otherwise.
    let strip = |parent: &Element, class: &str| -> Option<Element> {
        let strip = element(doc, "div", class, parent)?;
        let _ = strip.set_attribute("role", "region");
        let _ = strip.set_attribute("aria-label", "Main settings of this view");
        let inner = element(doc, "div", "quick-controls", &strip)?;
        let _ = inner.set_attribute("data-count", &knobs.len().to_string());
        let more = element(doc, "button", "button quick-settings", &strip)?;
        more.set_text_content(Some("All settings"));
        placeholder(&more);
        Some(inner)
    };
    let (controls, compact) = match controls {
        Some(c) => (c, false),
        None if embedded => {
            let inner = strip(&holder, "quick-strip quick-inline")?;
            // Above a tall chart, as the app places it, so that the controls and the chart's
            // top share a screen. Placed once: a slider here that makes the chart cross the
            // line (the patch grid's rows) leaves the strip where it was until the app places
            // it, which moves the chart at the hand-over.
            if stage.get_bounding_client_rect().height() > TALL_CHART {
                if let Some(strip) = inner.parent_element() {
                    let _ = stage.before_with_node_1(&strip);
                }
            }
            (inner, true)
        }
        None => (strip(&app, "quick-strip")?, true),
    };
    let state = Rc::new(RefCell::new(early.settings));
    for knob in knobs {
        let Knob {
            id,
            key,
            limit,
            value,
            ..
        } = knob;
        let class = if compact {
            "control control-compact"
        } else {
            "control"
        };
        let control = element(doc, "div", class, &controls)?;
        let head = element(doc, "div", "control-head", &control)?;
        let label = element(doc, "label", "control-label", &head)?;
        let input_id = format!("early-{id}");
        let _ = label.set_attribute("for", &input_id);
        label.set_text_content(Some(limit.name));
        // The value as the app's box shows it (read only until the app arrives).
        let shown: HtmlInputElement = element(doc, "input", "control-value", &head)?
            .dyn_into()
            .ok()?;
        shown.set_read_only(true);
        shown.set_tab_index(-1);
        let _ = shown.set_attribute("aria-hidden", "true");
        shown.set_value(&plain(value));
        let input: HtmlInputElement = element(doc, "input", "control-slider", &control)?
            .dyn_into()
            .ok()?;
        input.set_id(&input_id);
        input.set_type("range");
        let stops = limit.stops();
        input.set_min("0");
        input.set_max(&(stops.len() - 1).to_string());
        input.set_value(&nearest_stop(&stops, value).to_string());
        let _ = input.set_attribute(
            "aria-valuetext",
            &format!("{} = {}", limit.name, plain(value)),
        );
        let (state, shown, name, canvas_id) =
            (state.clone(), shown.clone(), limit.name, canvas.id());
        // The stop the slider's value is at: where a held-back touch puts it back.
        let at = Rc::new(std::cell::Cell::new(nearest_stop(&stops, value)));
        let apply = {
            let (input, at) = (input.clone(), at.clone());
            Rc::new(move |i: usize| {
                at.set(i);
                let v = stops[i.min(stops.len() - 1)];
                let mut s = state.borrow_mut();
                knob.apply(&mut s, v);
                // The value and the address follow the slider whatever the chart does: the app
                // starts from them.
                write_address(key, v);
                shown.set_value(&plain(v));
                let _ = input.set_attribute("aria-valuetext", &format!("{} = {}", name, plain(v)));
                // The canvas is looked up, not held: once the app has taken over it is gone.
                let Some(canvas) = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.get_element_by_id(&canvas_id))
                    .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
                else {
                    return;
                };
                match main_chart(&s) {
                    // (Painting sets the canvas's style afresh, fading and all.)
                    Some(chart) => paint(&canvas, &chart, &theme),
                    // Too large to compute at once here: the app computes it in slices. Until
                    // then the chart shown is faded, not passed off as the new one.
                    None => {
                        let style = canvas.get_attribute("style").unwrap_or_default();
                        if !style.contains("opacity") {
                            let _ = canvas.set_attribute("style", &format!("{style};opacity:0.35"));
                        }
                    }
                }
            })
        };
        // A vertical swipe that starts on the slider scrolls the page and leaves the value alone,
        // as the app's sliders do.
        let guard = Rc::new(RefCell::new(TouchGuard::default()));
        let on_input = {
            let (guard, apply) = (guard.clone(), apply.clone());
            Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
                let Some(input) = ev
                    .target()
                    .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
                else {
                    return;
                };
                let i = input.value().parse::<usize>().unwrap_or(0);
                let slid = guard.borrow_mut().slide(i);
                match slid {
                    Some(i) => apply(i),
                    None => input.set_value(&at.get().to_string()),
                }
            })
        };
        let listen = |event: &str, f: Box<dyn FnMut(web_sys::PointerEvent)>| {
            let f = Closure::<dyn FnMut(web_sys::PointerEvent)>::wrap(f);
            let _ = input.add_event_listener_with_callback(event, f.as_ref().unchecked_ref());
            f.forget();
        };
        let position =
            |e: &web_sys::PointerEvent| (f64::from(e.client_x()), f64::from(e.client_y()));
        {
            let guard = guard.clone();
            listen(
                "pointerdown",
                Box::new(move |e| {
                    if e.pointer_type() == "touch" {
                        let (x, y) = position(&e);
                        guard.borrow_mut().down(x, y);
                    }
                }),
            );
        }
        {
            let (guard, apply) = (guard.clone(), apply.clone());
            listen(
                "pointermove",
                Box::new(move |e| {
                    let (x, y) = position(&e);
                    let held = guard.borrow_mut().moved(x, y);
                    if let Some(i) = held {
                        apply(i);
                    }
                }),
            );
        }
        {
            let (guard, apply) = (guard.clone(), apply.clone());
            listen(
                "pointerup",
                Box::new(move |_| {
                    let held = guard.borrow_mut().up();
                    if let Some(i) = held {
                        apply(i);
                    }
                }),
            );
        }
        {
            let guard = guard.clone();
            listen(
                "pointercancel",
                Box::new(move |_| guard.borrow_mut().cancel()),
            );
        }
        let _ = input.add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref());
        on_input.forget();
    }
    Some(())
}

/// The value of `key` in an address's query, read plainly.
fn param<'a>(query: &'a str, key: &str) -> Option<&'a str> {
    let query = query.strip_prefix('?').unwrap_or(query);
    query
        .split('&')
        .find_map(|p| p.strip_prefix(key)?.strip_prefix('='))
}

/// The view an address opens (its `embed`, else its `view`), read as plainly as the first paint
/// reads one; `None` leaves it to the app.
fn first_view(query: &str) -> Option<View> {
    View::from_id(param(query, "embed").or_else(|| param(query, "view"))?)
}

/// The chunks of the app's wasm the page's first view is drawn from: its own, and for the
/// lesson (`?lesson=N`, or its tab) its step's view's too.
fn first_chunks(query: &str) -> Vec<&'static str> {
    let step = param(query, "lesson");
    let view = first_view(query).or(step.map(|_| View::Lesson));
    let mut chunks: Vec<&'static str> = view.and_then(View::chunk).into_iter().collect();
    if view == Some(View::Lesson) {
        // A hint only: a step the app reads otherwise fetches its view's chunk when drawn.
        let n = step.and_then(|n| n.parse::<usize>().ok()).unwrap_or(1);
        let shown = crate::learn::lesson::step(n).view.chunk();
        chunks.extend(shown.filter(|c| !chunks.contains(c)));
    }
    chunks
}

/// The name of the chunk of the site's wasm that holds the app itself (`src/main.rs`).
pub const APP_CHUNK: &str = "app";

/// Runs the first paint while `loading` brings the app: the app's files are asked for first
/// (the network works while the chart is drawn), then the chart is drawn, then `loading` runs
/// to its end. A failure says so in the page.
pub fn start(loading: impl Future<Output = Result<(), JsValue>> + 'static) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = page_query(&window);
    // The app's chunk, and the chunk of a view drawn from one when the page opens on it.
    preload_chunk(APP_CHUNK);
    for name in first_chunks(&query) {
        preload_chunk(name);
    }
    if let (Some(doc), Some(e)) = (window.document(), early(&query)) {
        if let Some(chart) = main_chart(&e.settings) {
            let _ = build(&doc, e, chart);
        }
    }
    wasm_bindgen_futures::spawn_local(async move {
        match loading.await {
            Ok(()) => announce_app(),
            Err(e) => failed(&e),
        }
    });
}

/// The app could not be loaded: index.html's note says why in a frame that may not load the
/// files (no CORS); otherwise a plain note.
fn failed(e: &JsValue) {
    web_sys::console::error_1(e);
    let said = web_sys::window()
        .and_then(|w| js_sys::Reflect::get(&w, &"peExplorerBootFailed".into()).ok())
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
        .is_some_and(|f| f.call0(&JsValue::NULL).is_ok());
    if said {
        return;
    }
    if let Some(doc) = web_sys::window().and_then(|w| w.document()) {
        if let Some(body) = doc.body() {
            if let Some(p) = element(&doc, "p", "fatal", &body) {
                let _ = p.set_attribute("role", "alert");
                p.set_text_content(Some(
                    "The app could not be loaded. Check the connection and reload the page.",
                ));
            }
        }
    }
}
