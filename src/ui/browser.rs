//! Small wrappers over browser APIs: saving files, pixel ratio, performance marks, panics.

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

/// Device pixels per CSS pixel (1 when unknown).
pub fn pixel_ratio() -> f64 {
    web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0)
}

/// Offers `text` to the user as a file download.
pub fn save_text(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| "the browser could not create the file".to_string())?;
    let url = Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not create the file".to_string())?;
    let result = click_download(file_name, &url);
    // Some browsers read the blob after the click returns: release it a little later.
    let revoke = wasm_bindgen::closure::Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&url);
    });
    if let Some(w) = web_sys::window() {
        let _ =
            w.set_timeout_with_callback_and_timeout_and_arguments_0(revoke.unchecked_ref(), 30_000);
    }
    result
}

/// Offers a canvas's pixels as a PNG download.
pub fn save_png(file_name: &str, canvas: &HtmlCanvasElement) -> Result<(), String> {
    let url = canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the browser could not encode the image".to_string())?;
    click_download(file_name, &url)
}

fn click_download(file_name: &str, href: &str) -> Result<(), String> {
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or("no document")?;
    let anchor = document
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
        .ok_or("could not create a link")?;
    anchor.set_href(href);
    anchor.set_download(file_name);
    anchor.click();
    Ok(())
}

/// A fresh canvas that is not in the page (for exports).
pub fn detached_canvas() -> Option<HtmlCanvasElement> {
    web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into()
        .ok()
}

/// Records a performance mark (the benchmark listens for these).
pub fn mark(name: &str) {
    if let Some(p) = web_sys::window().and_then(|w| w.performance()) {
        let _ = p.mark(name);
    }
}

/// Logs panics to the console and shows a plain notice instead of leaving a dead page silently.
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&JsValue::from_str(&format!("pe-explorer panicked: {info}")));
        let Some(document) = web_sys::window().and_then(|w| w.document()) else {
            return;
        };
        if let (Ok(banner), Some(body)) = (document.create_element("div"), document.body()) {
            banner.set_class_name("fatal");
            banner.set_attribute("role", "alert").ok();
            banner.set_text_content(Some(
                "Something went wrong inside the app. Reload the page to start again; \
                 the console has the details.",
            ));
            let _ = body.prepend_with_node_1(&banner);
        }
    }));
}
