//! The first paint. This small module (no Yew) is what the page loads first: when the address
//! asks for the encoding heatmap (the default view), it draws that heatmap live, with the app's
//! own drawing code, and gives it its two main sliders. Then it loads the full app, which takes
//! the page over once its own heatmap is drawn (it removes `#early`). Any other address only
//! loads the app. On a slow phone the chart appears well before the whole app has arrived.

use std::cell::RefCell;
use std::rc::Rc;

use pe_explorer::limit::{nearest_stop, Limit, BASE, D_MODEL, LENGTH};
use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};
use pe_explorer::plot::colormap::Palette;
use pe_explorer::plot::frame::Theme;
use pe_explorer::plot::heatmap::{draw, encoding_heatmap};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Document, Element, HtmlCanvasElement, HtmlInputElement};

#[wasm_bindgen(inline_js = "
export function load_app() {
  const base = document.baseURI;
  return import(new URL('app/pe-explorer.js', base).href)
    .then((m) => m.default({ module_or_path: new URL('app/pe-explorer_bg.wasm', base) })
      .then(() => { window.wasmBindings = m; }));
}")]
extern "C" {
    fn load_app() -> js_sys::Promise;
}

/// What the first paint draws: the settings a link may give the default view.
#[derive(Clone, Debug)]
struct Early {
    d_model: usize,
    length: usize,
    base: f64,
    variant: Variant,
    palette: Palette,
    dark: bool,
}

/// The early settings, if the address asks for nothing else (anything else is the app's job,
/// including every notice about a bad value).
fn read(query: &str) -> Option<Early> {
    let mut e = Early {
        d_model: 128,
        length: 100,
        base: 10_000.0,
        variant: Variant::Paper,
        palette: Palette::BlueRed,
        dark: media("(prefers-color-scheme: dark)"),
    };
    let number = |limit: Limit, v: &str| -> Option<f64> {
        let a = limit.parse(v).ok()?;
        a.note.is_none().then_some(a.value)
    };
    for part in query
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty())
    {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        match k {
            "view" if v == "heatmap" => {}
            "scheme" if v == "sinusoidal" => {}
            "d_model" => e.d_model = number(D_MODEL, v)? as usize,
            "length" => e.length = number(LENGTH, v)? as usize,
            "base" => e.base = number(BASE, v)?,
            "variant" => e.variant = Variant::from_id(v)?,
            "palette" => e.palette = Palette::from_id(v)?,
            "theme" => {
                e.dark = match v {
                    "dark" => true,
                    "light" => false,
                    "auto" => e.dark,
                    _ => return None,
                }
            }
            _ => return None,
        }
    }
    Some(e)
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

/// Draws the heatmap at the canvas's current width, as the app's heatmap would.
fn paint(canvas: &HtmlCanvasElement, e: &Early) {
    let width = canvas
        .parent_element()
        .map_or(600.0, |p| p.get_bounding_client_rect().width())
        .max(200.0_f64);
    let height = (width * 0.62).clamp(260.0, 620.0);
    let ratio = web_sys::window().map_or(1.0, |w| w.device_pixel_ratio());
    let data = encoding_heatmap(
        Sinusoidal::new(e.variant, e.d_model, e.base),
        e.length,
        e.palette,
    );
    let theme = if e.dark { Theme::DARK } else { Theme::LIGHT };
    let _ = canvas.set_attribute("style", &format!("width:{width}px;height:{height}px"));
    if draw(canvas, width, height, ratio, &data.spec(), &theme).is_ok() {
        let n = canvas
            .get_attribute("data-draws")
            .and_then(|d| d.parse::<u32>().ok())
            .unwrap_or(0);
        let _ = canvas.set_attribute("data-draws", &(n + 1).to_string());
    }
}

/// The address after a slider moved: the same parameters with the new values.
fn query_of(e: &Early, original: &str) -> String {
    let mut parts: Vec<String> = original
        .trim_start_matches('?')
        .split('&')
        .filter(|p| !p.is_empty() && !p.starts_with("d_model=") && !p.starts_with("length="))
        .map(str::to_string)
        .collect();
    if e.length != 100 {
        parts.push(format!("length={}", e.length));
    }
    if e.d_model != 128 {
        parts.push(format!("d_model={}", e.d_model));
    }
    parts.join("&")
}

/// The early page: title, the heatmap, and the length and d_model sliders (in the phone's
/// bottom strip on a narrow screen, beside the chart otherwise).
fn build(doc: &Document, early: Early, query: String) -> Option<()> {
    let body = doc.body()?;
    let root = doc.document_element()?;
    let _ = root.set_attribute("data-theme", if early.dark { "dark" } else { "light" });
    let app = element(doc, "div", "app early", &body)?;
    app.set_id("early");
    // The early page is the start: the loading note goes.
    if let Some(boot) = doc.get_element_by_id("boot") {
        boot.remove();
    }
    let header = element(doc, "header", "site-header", &app)?;
    let brand = element(doc, "div", "brand", &header)?;
    element(doc, "h1", "", &brand)?.set_text_content(Some("Positional Encoding Explorer"));
    element(doc, "p", "tagline", &brand)?.set_text_content(Some(
        "How a transformer knows where each token sits, computed live in your browser.",
    ));
    let layout = element(doc, "div", "layout", &app)?;
    let phone = media("(max-width: 600px)");
    let side = element(doc, "aside", "sidebar early-side", &layout)?;
    let _ = side.set_attribute("aria-label", "Settings");
    let main = element(doc, "main", "content", &layout)?;
    let panel = element(doc, "section", "panel", &main)?;
    let head = element(doc, "header", "panel-head", &panel)?;
    element(doc, "h2", "", &head)?.set_text_content(Some("The encoding matrix"));
    let stage = element(doc, "div", "chart-stage", &panel)?;
    let canvas: HtmlCanvasElement = element(doc, "canvas", "chart-canvas", &stage)?
        .dyn_into()
        .ok()?;
    canvas.set_id("early-heatmap");
    let _ = canvas.set_attribute("role", "img");
    let _ = canvas.set_attribute(
        "aria-label",
        "Heatmap of the sinusoidal encoding matrix (loading the rest of the app)",
    );
    let controls = if phone {
        element(doc, "div", "quick-strip", &app)?
    } else {
        element(doc, "div", "settings", &side)?
    };
    let state = Rc::new(RefCell::new(early));
    paint(&canvas, &state.borrow());
    for (limit, id) in [(LENGTH, "early-length"), (D_MODEL, "early-d-model")] {
        let control = element(doc, "div", "control", &controls)?;
        let label = element(doc, "label", "control-label", &control)?;
        let _ = label.set_attribute("for", id);
        label.set_text_content(Some(limit.name));
        let input: HtmlInputElement = element(doc, "input", "control-slider", &control)?
            .dyn_into()
            .ok()?;
        input.set_id(id);
        input.set_type("range");
        let stops = limit.stops();
        input.set_min("0");
        input.set_max(&(stops.len() - 1).to_string());
        let current = if limit.name == "length" {
            state.borrow().length
        } else {
            state.borrow().d_model
        };
        input.set_value(&nearest_stop(&stops, current as f64).to_string());
        let (state, canvas, query, is_length) = (
            state.clone(),
            canvas.clone(),
            query.clone(),
            limit.name == "length",
        );
        let on_input = Closure::<dyn FnMut(web_sys::Event)>::new(move |ev: web_sys::Event| {
            let Some(input) = ev
                .target()
                .and_then(|t| t.dyn_into::<HtmlInputElement>().ok())
            else {
                return;
            };
            let i = input.value().parse::<usize>().unwrap_or(0);
            let v = stops[i.min(stops.len() - 1)] as usize;
            {
                let mut s = state.borrow_mut();
                if is_length {
                    s.length = v;
                } else {
                    s.d_model = v;
                }
            }
            paint(&canvas, &state.borrow());
            // The app starts from the address: keep it in step.
            if let Some(w) = web_sys::window() {
                let q = query_of(&state.borrow(), &query);
                let path = w.location().pathname().unwrap_or_default();
                let url = if q.is_empty() {
                    path
                } else {
                    format!("{path}?{q}")
                };
                if let Ok(h) = w.history() {
                    let _ = h.replace_state_with_url(&JsValue::NULL, "", Some(&url));
                }
            }
        });
        let _ = input.add_event_listener_with_callback("input", on_input.as_ref().unchecked_ref());
        on_input.forget();
    }
    Some(())
}

fn main() {
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = window.location().search().unwrap_or_default();
    if let (Some(doc), Some(early)) = (window.document(), read(&query)) {
        let _ = build(&doc, early, query);
    }
    let loading = load_app();
    wasm_bindgen_futures::spawn_local(async move {
        if let Err(e) = wasm_bindgen_futures::JsFuture::from(loading).await {
            web_sys::console::error_1(&e);
            // index.html's note says why in a frame that may not load the files (no CORS).
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
    });
}
