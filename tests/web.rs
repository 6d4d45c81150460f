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

/// Mounts a fresh app in its own 1200 px wide container and returns the container.
async fn mount() -> Element {
    let host = document().create_element("div").unwrap();
    host.set_attribute("style", "width: 1200px").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    yew::Renderer::<App>::with_root(host.clone()).render();
    yew::scheduler::flush().await;
    host
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

/// The canvas's pixels, and how many distinct colours they hold.
fn pixels(canvas: &HtmlCanvasElement) -> (Vec<u8>, usize) {
    let ctx: CanvasRenderingContext2d = canvas
        .get_context("2d")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    let data = ctx
        .get_image_data(0.0, 0.0, canvas.width() as f64, canvas.height() as f64)
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
    // A blank or single-colour canvas has a handful of colours; the matrix has hundreds.
    assert!(
        colours > 200,
        "only {colours} distinct colours on the canvas"
    );
    assert!(host.text_content().unwrap().contains("The encoding matrix"));
    host.remove();
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
    host.remove();
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
    host.remove();
}

#[wasm_bindgen_test]
async fn every_extreme_renders() {
    let host = mount().await;
    let canvas: HtmlCanvasElement = find(&host, "#encoding-heatmap");
    settle(&canvas, 0).await;
    let field = |id: &str| -> HtmlInputElement { find(&host, &format!("#{id}-value")) };
    for (d, len, base) in [
        ("2", "1", "10"),
        ("4096", "65536", "1000000"),
        ("3", "65536", "10"),
        ("4096", "1", "1000000"),
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
        assert!(colours > 3, "({d}, {len}, {base}) drew an empty chart");
        assert!(
            host.query_selector(".chart .note-error").unwrap().is_none(),
            "({d}, {len}, {base}) reported a drawing error"
        );
    }
    host.remove();
}
