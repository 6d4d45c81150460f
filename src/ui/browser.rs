//! Small wrappers over browser APIs: saving files, new tabs, pixel ratio, performance marks,
//! panics, and the frame an embedded panel sits in.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::{JsCast, JsValue};
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

use crate::embed::Permission;

/// A file the app offered to save, for the way out when a frame's sandbox blocks downloads.
#[derive(Clone, Debug, PartialEq)]
pub struct Saved {
    pub file_name: String,
    /// The text of a text file (CSV, code).
    pub text: Option<String>,
    /// A `data:` address of an image.
    pub image: Option<String>,
    /// Whether the browser was asked to save it (false: known to be blocked, not tried).
    pub tried: bool,
}

thread_local! {
    /// Whether downloads work here, and who hears about saves when they may not (set by an
    /// embedded panel; a page of its own saves without a word).
    static SAVES: RefCell<(Permission, Option<yew::Callback<Saved>>)> =
        const { RefCell::new((Permission::Allowed, None)) };
}

/// Tells the save functions whether downloads work in this frame and who offers the way out.
pub fn watch_saves(permission: Permission, listener: Option<yew::Callback<Saved>>) {
    SAVES.with(|s| *s.borrow_mut() = (permission, listener));
}

/// A file's contents, as the save functions take them.
enum Body<'a> {
    Text(&'a str),
    Bytes(&'a js_sys::Uint8Array),
    /// A picture's `data:` address.
    Image(&'a str),
}

/// Saves a file from this page, through the frame's sandbox (see [`guarded_save`]).
fn save_file(file_name: &str, mime: &str, body: Body) -> Result<(), String> {
    match body {
        Body::Text(text) => guarded_save(file_name, Some(text), None, || {
            save_parts(
                file_name,
                mime,
                &js_sys::Array::of1(&JsValue::from_str(text)),
            )
        }),
        Body::Bytes(bytes) => guarded_save(file_name, None, None, || {
            save_parts(file_name, mime, &js_sys::Array::of1(bytes))
        }),
        Body::Image(url) => guarded_save(file_name, None, Some(url), || {
            click_download(file_name, url)
        }),
    }
}

/// Saves through `save` unless downloads are known to be blocked, and tells the listener when
/// they are or may be.
fn guarded_save(
    file_name: &str,
    text: Option<&str>,
    image: Option<&str>,
    save: impl FnOnce() -> Result<(), String>,
) -> Result<(), String> {
    let (permission, listener) = SAVES.with(|s| s.borrow().clone());
    let tried = permission != Permission::Blocked;
    let result = if tried { save() } else { Ok(()) };
    if let (Some(listener), true) = (listener, permission != Permission::Allowed) {
        listener.emit(Saved {
            file_name: file_name.to_string(),
            text: text.map(str::to_string),
            image: image.map(str::to_string),
            tried,
        });
    }
    result
}

/// Device pixels per CSS pixel (1 when unknown).
pub fn pixel_ratio() -> f64 {
    web_sys::window()
        .map(|w| w.device_pixel_ratio())
        .filter(|r| r.is_finite() && *r > 0.0)
        .unwrap_or(1.0)
}

/// Offers `text` to the user as a file download.
pub fn save_text(file_name: &str, mime: &str, text: &str) -> Result<(), String> {
    save_file(file_name, mime, Body::Text(text))
}

/// Offers bytes to the user as a file download.
pub fn save_bytes(file_name: &str, mime: &str, bytes: &js_sys::Uint8Array) -> Result<(), String> {
    save_file(file_name, mime, Body::Bytes(bytes))
}

fn save_parts(file_name: &str, mime: &str, parts: &js_sys::Array) -> Result<(), String> {
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    let blob = Blob::new_with_buffer_source_sequence_and_options(parts, &options)
        .map_err(|_| "the browser could not create the file".to_string())?;
    let url = Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not create the file".to_string())?;
    let result = click_download(file_name, &url);
    // Some browsers read the blob after the click returns: release it a little later.
    after(30_000.0, move || {
        let _ = Url::revoke_object_url(&url);
    });
    result
}

/// Offers a canvas's pixels as a PNG download.
pub fn save_png(file_name: &str, canvas: &HtmlCanvasElement) -> Result<(), String> {
    let url = canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the browser could not encode the image".to_string())?;
    save_file(file_name, "image/png", Body::Image(&url))
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

/// Milliseconds since the page loaded (`performance.now()`).
pub fn now() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Resolves in a later task (a zero-delay timeout): the browser may paint and handle input
/// in between.
pub async fn next_task() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        if let Some(w) = web_sys::window() {
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

/// Records a performance mark the first time `name` happens (the benchmark reads the first
/// heatmap draw from it).
pub fn mark(name: &str) {
    thread_local! {
        static MARKED: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    // Only the first of each: the timeline keeps every mark, and charts draw thousands of times.
    let first = MARKED.with(|m| {
        let mut m = m.borrow_mut();
        let new = !m.iter().any(|n| n == name);
        if new {
            m.push(name.to_string());
        }
        new
    });
    if let Some(p) = web_sys::window()
        .and_then(|w| w.performance())
        .filter(|_| first)
    {
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

/// The link query a frame without an address of its own (a notebook widget's) was given by its
/// host (`window.peExplorerQuery`), and keeps up to date.
fn held_query() -> Option<String> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &JsValue::from_str("peExplorerQuery"))
        .ok()?
        .as_string()
}

/// The page's query string, without the `?`.
pub fn query() -> String {
    held_query()
        .or_else(|| web_sys::window().and_then(|w| w.location().search().ok()))
        .map(|q| q.trim_start_matches('?').to_string())
        .unwrap_or_default()
}

/// The page's address without its query and fragment. A frame without an address of its own
/// (a notebook widget's) uses the site its host names (`window.peExplorerSite`), or none: its
/// links are then queries alone.
pub fn page_address() -> String {
    if held_query().is_some() {
        return web_sys::window()
            .and_then(|w| js_sys::Reflect::get(&w, &JsValue::from_str("peExplorerSite")).ok())
            .and_then(|s| s.as_string())
            .unwrap_or_default();
    }
    let href = web_sys::window()
        .and_then(|w| w.location().href().ok())
        .unwrap_or_default();
    href.split(['?', '#'])
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The page's address with `query` (without the `?`).
pub fn link(query: &str) -> String {
    if query.is_empty() {
        page_address()
    } else {
        format!("{}?{query}", page_address())
    }
}

/// The address of a frame that shows `query` (an embed's): the settings after `#`, which
/// `index.html` moves into the query before anything reads it. Every embed of one site then
/// loads the same page, which a browser keeps once in its cache for all of them: the page
/// carries the first paint's module (`scripts/inline_module.mjs`), so that is the module
/// downloaded once, as when it was a file of its own.
pub fn frame_link(query: &str) -> String {
    let address = page_address();
    if query.is_empty() || address.is_empty() {
        link(query)
    } else {
        format!("{address}#{query}")
    }
}

/// Replaces the address bar's query without reloading or adding history. Browsers refuse this
/// for some framed or sandboxed documents; the page keeps working either way.
pub fn replace_query(query: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    if held_query().is_some() {
        let _ = js_sys::Reflect::set(
            &window,
            &JsValue::from_str("peExplorerQuery"),
            &JsValue::from_str(query),
        );
        return;
    }
    let hash = window.location().hash().unwrap_or_default();
    let path = window.location().pathname().unwrap_or_default();
    let url = if query.is_empty() {
        format!("{path}{hash}")
    } else {
        format!("{path}?{query}{hash}")
    };
    if let Ok(history) = window.history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&url));
    }
}

/// Copies text to the clipboard; `done` hears whether it worked (it cannot in some sandboxed
/// frames and insecure contexts, where the UI shows the text to copy by hand instead).
pub fn copy_text(text: String, done: yew::Callback<bool>) {
    let Some(clipboard) = web_sys::window().map(|w| w.navigator().clipboard()) else {
        done.emit(false);
        return;
    };
    let promise = clipboard.write_text(&text);
    yew::platform::spawn_local(async move {
        done.emit(wasm_bindgen_futures::JsFuture::from(promise).await.is_ok());
    });
}

/// Copies text to the clipboard and says how it went in `status`: `copied` if it worked,
/// `refused` (what to do by hand) if not.
pub fn copy_with_status(
    text: String,
    status: yew::UseStateHandle<String>,
    copied: String,
    refused: &'static str,
) {
    copy_text(
        text,
        yew::Callback::from(move |ok: bool| {
            status.set(if ok {
                copied.clone()
            } else {
                refused.to_string()
            })
        }),
    );
}

/// Listening for changes of size: of an element (a ResizeObserver) and, if asked, of the window
/// (which also fires when the pixel ratio changes). Dropping it stops listening.
pub struct SizeWatch {
    observer: Option<web_sys::ResizeObserver>,
    window: Option<web_sys::Window>,
    callback: wasm_bindgen::closure::Closure<dyn FnMut()>,
}

/// Calls `changed` whenever `element` changes size and, with `window_resize`, whenever the
/// window is resized, until the returned watch is dropped.
pub fn watch_size(
    element: Option<web_sys::Element>,
    window_resize: bool,
    changed: impl FnMut() + 'static,
) -> SizeWatch {
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut()>::new(changed);
    let observer = element.and_then(|el| {
        let obs = web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
        obs.observe(&el);
        Some(obs)
    });
    let window = web_sys::window().filter(|_| window_resize);
    if let Some(w) = &window {
        let _ = w.add_event_listener_with_callback("resize", callback.as_ref().unchecked_ref());
    }
    SizeWatch {
        observer,
        window,
        callback,
    }
}

impl Drop for SizeWatch {
    fn drop(&mut self) {
        if let Some(obs) = &self.observer {
            obs.disconnect();
        }
        if let Some(w) = &self.window {
            let _ = w.remove_event_listener_with_callback(
                "resize",
                self.callback.as_ref().unchecked_ref(),
            );
        }
    }
}

/// A key handler that closes (calls `close`) on Escape, and lets every other key through.
pub fn close_on_escape(close: yew::Callback<()>) -> yew::Callback<web_sys::KeyboardEvent> {
    yew::Callback::from(move |e: web_sys::KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            close.emit(());
        }
    })
}

/// The window's inner height in CSS pixels, where the browser gives one.
pub fn inner_height(window: &web_sys::Window) -> Option<f64> {
    window.inner_height().ok().and_then(|h| h.as_f64())
}

/// Tells the parent page (when there is one) how tall the content is.
pub fn post_height(height: f64, view: &str) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let message = js_sys::Object::new();
    let _ = js_sys::Reflect::set(
        &message,
        &"type".into(),
        &crate::embed::HEIGHT_MESSAGE.into(),
    );
    let _ = js_sys::Reflect::set(&message, &"height".into(), &height.ceil().into());
    let _ = js_sys::Reflect::set(&message, &"view".into(), &view.into());
    // Any origin: the message holds only a height, and sandboxed frames have no origin to name.
    let _ = parent.post_message(&message, "*");
}

/// The media query of a system that asks for dark colours (`phone::use_media(DARK)` follows it).
pub const DARK: &str = "(prefers-color-scheme: dark)";

/// Whether a media query matches now (false where it cannot be asked).
pub fn media_matches(query: &str) -> bool {
    web_sys::window()
        .and_then(|w| w.match_media(query).ok().flatten())
        .is_some_and(|q| q.matches())
}

/// Sets an attribute on the page's root element (`<html>`).
pub fn set_root_attribute(name: &str, value: &str) {
    if let Some(root) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = root.set_attribute(name, value);
    }
}

/// Where the page keeps a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Store {
    /// The page's local storage.
    Local,
    /// The tab's session storage (kept across reloads, gone when the tab closes).
    Session,
}

/// The store, when it may be used: sandboxed frames without same-origin access throw on the
/// mere lookup, and private modes may refuse writes.
fn storage(store: Store) -> Option<web_sys::Storage> {
    let window = web_sys::window()?;
    match store {
        Store::Local => window.local_storage(),
        Store::Session => window.session_storage(),
    }
    .ok()
    .flatten()
}

/// A saved value, or `None` when there is none or the store is unavailable.
pub fn load(store: Store, key: &str) -> Option<String> {
    storage(store)?.get_item(key).ok().flatten()
}

/// Saves a value; returns whether it was saved.
pub fn save(store: Store, key: &str, value: &str) -> bool {
    storage(store).is_some_and(|s| s.set_item(key, value).is_ok())
}

/// Milliseconds since 1970 (UTC), from the browser's clock.
pub fn clock_ms() -> f64 {
    js_sys::Date::now()
}

/// The length (in UTF-16 code units, as a textarea counts) of the text a paste event carries,
/// read without copying the text out of JavaScript; `None` when the event has no text.
pub fn pasted_length(event: &web_sys::Event) -> Option<f64> {
    let data = js_sys::Reflect::get(event, &JsValue::from_str("clipboardData")).ok()?;
    let get_data = js_sys::Reflect::get(&data, &JsValue::from_str("getData"))
        .ok()?
        .dyn_into::<js_sys::Function>()
        .ok()?;
    let text = get_data
        .call1(&data, &JsValue::from_str("text/plain"))
        .ok()?
        .dyn_into::<js_sys::JsString>()
        .ok()?;
    // `.length` of the string where it is (Reflect.get refuses a primitive string).
    Some(text.length() as f64)
}

/// Whether the page is inside a frame of another page.
pub fn framed() -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.parent() {
        Ok(Some(parent)) => parent != window,
        _ => false,
    }
}

/// Opens `url` in a new tab; false when the browser or the frame's sandbox refused.
pub fn open_tab(url: &str) -> bool {
    let Some(window) = web_sys::window() else {
        return false;
    };
    match window.open_with_url_and_target(url, "_blank") {
        Ok(Some(tab)) => {
            // The new page must not be able to reach back into this one.
            let _ = tab.set_opener(&JsValue::NULL);
            true
        }
        _ => false,
    }
}

/// Moves keyboard focus to the element with `id` once it has been rendered, without scrolling
/// (in a frame, scrolling to it would scroll the page around the frame too).
pub fn focus_later(id: String) {
    let focus = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
            .and_then(|el| el.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = el.focus_with_options(&options);
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(focus.unchecked_ref(), 0);
    }
}

/// Calls `f` once, in a task of its own `ms` milliseconds from now: work that arrives in bursts
/// (several workers' reports) is gathered into one update. Not in an animation frame's
/// callback, whose task also lays out and paints the page: a render there made that task long
/// (dozens of tasks over 50 ms in a training run, against one).
pub fn after(ms: f64, f: impl FnOnce() + 'static) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let call = wasm_bindgen::closure::Closure::once_into_js(f);
    let ms = ms.clamp(0.0, 60_000.0).round() as i32;
    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(call.unchecked_ref(), ms);
}

/// How far from the screen a chart is still drawn at once: two screens' heights below its top
/// and one above (a phone's fling covers about that before the next idle moment).
const NEAR_SCREENS: f64 = 2.0;

/// Whether `el` is on or near the screen: within [`NEAR_SCREENS`] below the viewport's top and
/// one screen above it. While the first paint's page still stands above the app (the app draws
/// its page under it, then takes over), the position counts from the app's own top.
pub fn near_screen(el: &web_sys::Element) -> bool {
    let Some(w) = web_sys::window() else {
        return true;
    };
    // A window not laid out (no height) draws everything at once.
    let Some(screen) = w
        .inner_height()
        .ok()
        .and_then(|h| h.as_f64())
        .filter(|h| *h > 0.0)
    else {
        return true;
    };
    let r = el.get_bounding_client_rect();
    let doc = w.document();
    let app_top = doc
        .as_ref()
        .filter(|d| d.get_element_by_id("early").is_some())
        .and_then(|d| d.get_element_by_id("app-root"))
        .and_then(|root| root.first_element_child())
        .map_or(0.0, |first| first.get_bounding_client_rect().top());
    let top = r.top() - app_top;
    top < NEAR_SCREENS * screen && r.bottom() - app_top > -screen
}

thread_local! {
    /// Charts far down the page, to be drawn when the page is idle (see [`draw_near_or_idle`]).
    static LATER: RefCell<std::collections::VecDeque<Box<dyn FnOnce()>>> =
        RefCell::new(std::collections::VecDeque::new());
    /// Whether an idle callback will draw the next of [`LATER`].
    static LATER_SCHEDULED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Draws the next chart waiting for an idle moment, then waits for the next moment for the
/// one after: one chart per task.
fn draw_next_later() {
    LATER_SCHEDULED.with(|s| s.set(false));
    let next = LATER.with(|l| l.borrow_mut().pop_front());
    if let Some(draw) = next {
        draw();
    }
    if LATER.with(|l| !l.borrow().is_empty()) && !LATER_SCHEDULED.with(|s| s.replace(true)) {
        when_idle(draw_next_later);
    }
}

/// Every chart still waiting, drawn now (the page is about to be printed).
pub fn draw_all_later() {
    while let Some(draw) = LATER.with(|l| l.borrow_mut().pop_front()) {
        draw();
    }
}

/// Calls `show` once `el` is on or near the screen: at once if it is now (or there is no
/// element), otherwise as [`draw_near_or_idle`] says. Keep the watch while it may still call.
pub fn show_when_near(el: Option<&web_sys::Element>, show: Rc<dyn Fn()>) -> Option<NearWatch> {
    match el {
        Some(el) if !near_screen(el) => draw_near_or_idle(el, show),
        _ => {
            show();
            None
        }
    }
}

/// Watches a chart far down the page (`el`): `show` is called once it comes within
/// [`NEAR_SCREENS`] of the screen (IntersectionObserver), or when the page is idle, one chart
/// per idle moment, or before the page is printed, whichever is first (`show` must do nothing
/// the second time). Dropping the watch stops the observer; the idle call stays queued.
pub fn draw_near_or_idle(el: &web_sys::Element, show: Rc<dyn Fn()>) -> Option<NearWatch> {
    {
        let show = show.clone();
        LATER.with(|l| l.borrow_mut().push_back(Box::new(move || show())));
    }
    if !LATER_SCHEDULED.with(|s| s.replace(true)) {
        when_idle(draw_next_later);
    }
    let callback = wasm_bindgen::closure::Closure::<dyn FnMut(js_sys::Array)>::new(
        move |entries: js_sys::Array| {
            let near = entries.iter().any(|e| {
                e.dyn_into::<web_sys::IntersectionObserverEntry>()
                    .is_ok_and(|e| e.is_intersecting())
            });
            if near {
                show();
            }
        },
    );
    let options = web_sys::IntersectionObserverInit::new();
    // The screen, grown by one screen above it and by the rest of `NEAR_SCREENS` below.
    options.set_root_margin(&format!("100% 0px {}% 0px", (NEAR_SCREENS - 1.0) * 100.0));
    let observer = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    )
    .ok()?;
    observer.observe(el);
    Some(NearWatch {
        observer,
        _callback: callback,
    })
}

/// An IntersectionObserver of [`draw_near_or_idle`], stopped when dropped.
pub struct NearWatch {
    observer: web_sys::IntersectionObserver,
    _callback: wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
}

impl Drop for NearWatch {
    fn drop(&mut self) {
        self.observer.disconnect();
    }
}

/// Calls `f` once, when the page is next idle (within 4 s: `requestIdleCallback`), or in 1.5 s
/// where the browser has no idle callback: work the page can wait for, such as fetching what a
/// later tab needs.
pub fn when_idle(f: impl FnOnce() + 'static) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let idle = js_sys::Reflect::get(&w, &JsValue::from_str("requestIdleCallback"))
        .ok()
        .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
    match idle {
        Some(idle) => {
            let options = js_sys::Object::new();
            let _ = js_sys::Reflect::set(&options, &JsValue::from_str("timeout"), &4000.into());
            let call = wasm_bindgen::closure::Closure::once_into_js(f);
            let _ = idle.call2(&w, &call, &options);
        }
        None => after(1500.0, f),
    }
}

/// The page's own copy of the app (`window.peExplorerBundle`), set by pages that carry every
/// file of the app inside themselves: the single file and the notebook widget. `None` on a
/// served site, where the app's files sit next to the page.
pub fn bundle() -> Option<JsValue> {
    let window = web_sys::window()?;
    js_sys::Reflect::get(&window, &JsValue::from_str("peExplorerBundle"))
        .ok()
        .filter(|b| b.is_object())
}

/// Where a file served beside the app (`path`, relative to the page) can be fetched from: the
/// path itself on a served site, or a `data:` address of the bundle's copy in a page that
/// carries the app inside itself.
pub fn file_address(path: &str) -> String {
    let text = bundle()
        .and_then(|b| js_sys::Reflect::get(&b, &JsValue::from_str("files")).ok())
        .and_then(|f| js_sys::Reflect::get(&f, &JsValue::from_str(path)).ok())
        .and_then(|t| t.as_string());
    match text {
        Some(text) => format!(
            "data:text/plain;charset=utf-8,{}",
            String::from(js_sys::encode_uri_component(&text))
        ),
        None => path.to_string(),
    }
}

/// The app takes the page over from the first paint, once its own view is drawn: a
/// student dragging or keying one of the first paint's sliders keeps the focus (it moves to the
/// app's slider of the same setting: the strip's on a phone, the sidebar's otherwise), and the
/// first paint's page and the loading note in index.html go (its failure messages never show
/// once the app is here). Called in the task that drew the view, so no frame shows both or
/// neither; a second call finds nothing to do.
pub fn hand_over() {
    let document = web_sys::window().and_then(|w| w.document());
    let focused = document
        .as_ref()
        .and_then(|d| d.active_element())
        .map(|e| e.id())
        .and_then(|id| id.strip_prefix("early-").map(str::to_string));
    if let (Some(d), Some(id)) = (&document, focused) {
        let target = [format!("quick-{id}-slider"), format!("{id}-slider")]
            .iter()
            .filter_map(|t| d.get_element_by_id(t))
            .find(|e| e.get_client_rects().length() > 0);
        if let Some(e) = target.and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok()) {
            let _ = e.focus();
        }
    }
    for id in ["early", "boot"] {
        if let Some(el) = document.as_ref().and_then(|d| d.get_element_by_id(id)) {
            el.remove();
        }
    }
}
