//! Browser tests of the app's components, run in headless Chromium by wasm-bindgen-test:
//! the app mounts, paints a heatmap, repaints when a slider moves, and survives every extreme.
#![cfg(target_arch = "wasm32")]

use pe_explorer::ui::app::App;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

/// A mounted app in its own 1200 px wide container, styled by the app's real stylesheet.
struct Mounted {
    host: Element,
    app: Option<yew::AppHandle<App>>,
}

impl Mounted {
    fn unmount(mut self) {
        if let Some(app) = self.app.take() {
            app.destroy();
        }
        self.host.remove();
    }
}

impl std::ops::Deref for Mounted {
    type Target = Element;
    fn deref(&self) -> &Element {
        &self.host
    }
}

async fn mount() -> Mounted {
    let document = document();
    // The app keeps its state in the address; each test starts from a clean one.
    let window = web_sys::window().unwrap();
    let path = window.location().pathname().unwrap();
    window
        .history()
        .unwrap()
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&path))
        .unwrap();
    if document.get_element_by_id("app-css").is_none() {
        let style = document.create_element("style").unwrap();
        style.set_id("app-css");
        style.set_text_content(Some(include_str!("../static/style.css")));
        document.head().unwrap().append_child(&style).unwrap();
    }
    let host = document.create_element("div").unwrap();
    host.set_attribute("style", "width: 1200px").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    let app = yew::Renderer::<App>::with_root(host.clone()).render();
    yew::scheduler::flush().await;
    Mounted {
        host,
        app: Some(app),
    }
}

async fn sleep(ms: i32) {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
}

fn find<T: JsCast>(host: &Element, selector: &str) -> T {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element {selector}"))
        .dyn_into()
        .unwrap()
}

fn draws(canvas: &HtmlCanvasElement) -> u64 {
    canvas
        .get_attribute("data-draws")
        .and_then(|d| d.parse().ok())
        .unwrap_or(0)
}

/// Lets yew render and effects run, until the heatmap has drawn more than `before` times.
async fn settle(canvas: &HtmlCanvasElement, before: u64) {
    for _ in 0..100 {
        yew::scheduler::flush().await;
        if draws(canvas) > before {
            return;
        }
        sleep(20).await;
    }
    panic!("the heatmap did not redraw (still {} draws)", draws(canvas));
}

/// The pixels inside the chart's plot rectangle (its `data-plot` attribute), and how many
/// distinct colours they hold. Axes, caption and colour bar are outside, so a blank plot has one.
fn pixels(canvas: &HtmlCanvasElement) -> (Vec<u8>, usize) {
    let plot: Vec<f64> = canvas
        .get_attribute("data-plot")
        .expect("the chart says where its plot is")
        .split(' ')
        .map(|v| v.parse().unwrap())
        .collect();
    let k = canvas.width() as f64 / canvas.get_bounding_client_rect().width();
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(
            (plot[0] * k).ceil() + 1.0,
            (plot[1] * k).ceil() + 1.0,
            (plot[2] * k).floor() - 2.0,
            (plot[3] * k).floor() - 2.0,
        )
        .unwrap()
        .data()
        .0;
    let mut colours: Vec<u32> = data
        .chunks_exact(4)
        .map(|p| u32::from_be_bytes([p[0], p[1], p[2], p[3]]))
        .collect();
    colours.sort_unstable();
    colours.dedup();
    (data, colours.len())
}

fn slide(input: &HtmlInputElement, value: &str) {
    input.set_value(value);
    input
        .dispatch_event(&web_sys::Event::new("input").unwrap())
        .unwrap();
}

fn type_value(input: &HtmlInputElement, value: &str) {
    input.set_value(value);
    input
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
}

#[wasm_bindgen_test]
async fn the_app_mounts_and_paints_the_heatmap() {
    let host = mount().await;
    let canvas: HtmlCanvasElement = find(&host, "#encoding-heatmap");
    settle(&canvas, 0).await;
    let (_, colours) = pixels(&canvas);
    // A blank plot has one colour; 100 × 128 waves have hundreds.
    assert!(colours > 200, "only {colours} distinct colours in the plot");
    assert!(host.text_content().unwrap().contains("The encoding matrix"));
    host.unmount();
}

#[wasm_bindgen_test]
async fn moving_the_d_model_slider_repaints_the_heatmap() {
    let host = mount().await;
    let canvas: HtmlCanvasElement = find(&host, "#encoding-heatmap");
    settle(&canvas, 0).await;
    let (before, _) = pixels(&canvas);
    let slider: HtmlInputElement = find(&host, "#d-model-slider");
    let field: HtmlInputElement = find(&host, "#d-model-value");
    let n = draws(&canvas);
    slide(&slider, "300");
    settle(&canvas, n).await;
    let (after, _) = pixels(&canvas);
    assert_ne!(before, after, "the pixels did not change");
    assert_ne!(
        field.value(),
        "128",
        "the number field did not follow the slider"
    );
    host.unmount();
}

#[wasm_bindgen_test]
async fn typed_values_are_clamped_or_refused_with_a_visible_note() {
    let host = mount().await;
    let canvas: HtmlCanvasElement = find(&host, "#encoding-heatmap");
    settle(&canvas, 0).await;
    let field: HtmlInputElement = find(&host, "#d-model-value");

    let n = draws(&canvas);
    type_value(&field, "99999");
    settle(&canvas, n).await;
    let note: Element = find(&host, "#d-model-note");
    assert_eq!(field.value(), "4096");
    assert!(note.text_content().unwrap().contains("above the maximum"));

    type_value(&field, "twelve");
    yew::scheduler::flush().await;
    sleep(20).await;
    assert_eq!(
        field.value(),
        "4096",
        "a refused value must not stay in the field"
    );
    assert!(note.text_content().unwrap().contains("is not a number"));
    host.unmount();
}

#[wasm_bindgen_test]
async fn every_extreme_renders() {
    let host = mount().await;
    let canvas: HtmlCanvasElement = find(&host, "#encoding-heatmap");
    settle(&canvas, 0).await;
    let field = |id: &str| -> HtmlInputElement { find(&host, &format!("#{id}-value")) };
    for (d, len, base) in [
        ("2", "1", "10"),
        ("4096", "65536", "100000000"),
        ("3", "65536", "10"),
        ("4096", "2", "100000000"),
    ] {
        for (id, value) in [("d-model", d), ("length", len), ("base", base)] {
            let n = draws(&canvas);
            let input = field(id);
            if input.value() == value {
                continue;
            }
            type_value(&input, value);
            settle(&canvas, n).await;
        }
        let (_, colours) = pixels(&canvas);
        assert!(colours >= 2, "({d}, {len}, {base}) drew an empty plot");
        assert!(
            host.query_selector(".chart .note-error").unwrap().is_none(),
            "({d}, {len}, {base}) reported a drawing error"
        );
    }
    host.unmount();
}

/// Under every scheme, clicks every tab and moves d_model on each: a hook called conditionally
/// or any other panic in a view fails here (these tests run a debug build, where Yew checks hook
/// order).
#[wasm_bindgen_test]
async fn every_view_renders_and_survives_a_setting_change() {
    let host = mount().await;
    let tabs = host.query_selector_all("[role=tab]").unwrap();
    assert!(tabs.length() >= 8, "only {} tabs", tabs.length());
    for scheme in pe_explorer::schemes::Scheme::ALL.map(|s| s.id()) {
        let select: web_sys::HtmlSelectElement = find(&host, "#scheme");
        select.set_value(scheme);
        select
            .dispatch_event(&web_sys::Event::new("change").unwrap())
            .unwrap();
        yew::scheduler::flush().await;
        visit_every_tab(&host, scheme).await;
    }
    host.unmount();
}

/// Whether the scheme with this id places image patches (or a multimodal sequence), not a line.
fn on_a_grid(scheme: &str) -> bool {
    use pe_explorer::schemes::{Scheme, Space};
    Scheme::from_id(scheme).is_some_and(|s| s.space() != Space::Line)
}

async fn visit_every_tab(host: &Element, scheme: &str) {
    let tabs = host.query_selector_all("[role=tab]").unwrap();
    // The views first, under the scheme; the lesson (which sets its own scheme) and the quiz last.
    let mut order: Vec<web_sys::HtmlElement> = (0..tabs.length())
        .map(|i| tabs.get(i).unwrap().dyn_into().unwrap())
        .collect();
    order.sort_by_key(|t| ["tab-lesson", "tab-quiz"].contains(&t.id().as_str()));
    for (i, tab) in order.iter().enumerate() {
        let id = tab.id();
        tab.click();
        yew::scheduler::flush().await;
        sleep(30).await;
        yew::scheduler::flush().await;
        let panel = host
            .query_selector("[role=tabpanel]")
            .unwrap()
            .expect("a tab panel");
        let expected = match id.as_str() {
            // A multiple-choice question has no chart; the quiz card is what must be there.
            "tab-quiz" => ".quiz-card",
            "tab-lesson" => ".lesson-view canvas",
            // Nothing is drawn before Train is pressed (the end-to-end tests train).
            "tab-train" => "#train-start",
            // A scheme of image patches is drawn by the Image patches view: the tabs of a line
            // of tokens point there.
            "tab-heatmap" | "tab-offsets" if on_a_grid(scheme) => "#open-patches",
            _ => "canvas",
        };
        assert!(
            panel.query_selector(expected).unwrap().is_some()
                || (scheme == "none" && expected == "canvas"),
            "{id} shows no {expected} under {scheme}"
        );
        let field: HtmlInputElement = find(host, "#d-model-value");
        type_value(&field, if i % 2 == 0 { "64" } else { "33" });
        yew::scheduler::flush().await;
        sleep(30).await;
        yew::scheduler::flush().await;
    }
}
