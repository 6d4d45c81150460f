//! The page around an embedded panel, as far as the panel can know it: whether it is in a frame,
//! and what the host script (in the copied embed code) says: where the frame is on the reader's
//! screen, whether the page behind it is dark, and the frame's sandbox. Only the parent window
//! is listened to, and every value is checked before it is used.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use yew::prelude::*;

use super::browser;
use crate::embed::{permission, visible, Permission, Visible, HOST_MESSAGE};

/// What the panel knows about the page around it.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Host {
    /// Inside a frame of another page.
    pub framed: bool,
    /// The host script has spoken at least once.
    pub scripted: bool,
    /// The part of the frame on the reader's screen (frame pixels).
    pub visible: Option<Visible>,
    /// Whether the page behind the frame is dark.
    pub dark: Option<bool>,
    /// The frame's sandbox attribute: `Some(None)` when it has none; `None` when unknown.
    pub sandbox: Option<Option<String>>,
}

impl Host {
    /// Whether a file can be saved from here.
    pub fn downloads(&self) -> Permission {
        permission(
            self.framed,
            self.sandbox.as_ref().map(|s| s.as_deref()),
            "allow-downloads",
        )
    }

    /// Whether a new tab can be opened from here.
    pub fn popups(&self) -> Permission {
        permission(
            self.framed,
            self.sandbox.as_ref().map(|s| s.as_deref()),
            "allow-popups",
        )
    }
}

fn number(data: &JsValue, key: &str) -> Option<f64> {
    js_sys::Reflect::get(data, &key.into())
        .ok()?
        .as_f64()
        .filter(|v| v.is_finite())
}

/// Reads a host message into `host`; `None` when the data is not one.
fn read(data: &JsValue, host: &Host, frame_height: f64) -> Option<Host> {
    let kind = js_sys::Reflect::get(data, &"type".into())
        .ok()?
        .as_string()?;
    if kind != HOST_MESSAGE {
        return None;
    }
    let mut next = host.clone();
    next.scripted = true;
    if let (Some(top), Some(viewport)) = (number(data, "top"), number(data, "viewport")) {
        next.visible = visible(top, viewport, frame_height);
    }
    if let Some(dark) = js_sys::Reflect::get(data, &"dark".into())
        .ok()
        .and_then(|d| d.as_bool())
    {
        next.dark = Some(dark);
    }
    if let Ok(sandbox) = js_sys::Reflect::get(data, &"sandbox".into()) {
        if sandbox.is_null() {
            next.sandbox = Some(None);
        } else if let Some(s) = sandbox.as_string() {
            // An attribute holds a few tokens; anything longer is not one.
            next.sandbox = Some(Some(s.chars().take(512).collect()));
        }
    }
    Some(next)
}

/// The host page as it reports itself, following every report.
#[hook]
pub fn use_host() -> Host {
    let host = use_state(|| Host {
        framed: browser::framed(),
        ..Host::default()
    });
    // The latest value for the listener, which outlives the render that made it.
    let latest = use_mut_ref(|| (*host).clone());
    *latest.borrow_mut() = (*host).clone();
    {
        let (host, latest) = (host.clone(), latest.clone());
        use_effect_with((), move |_| {
            let window = web_sys::window();
            let listener = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(
                move |e: web_sys::MessageEvent| {
                    let Some(window) = web_sys::window() else {
                        return;
                    };
                    let from_parent = match (e.source(), window.parent()) {
                        (Some(source), Ok(Some(parent))) => {
                            JsValue::from(source) == JsValue::from(parent)
                        }
                        _ => false,
                    };
                    if !from_parent {
                        return;
                    }
                    let height = browser::inner_height(&window).unwrap_or(0.0);
                    let current = latest.borrow().clone();
                    if let Some(next) = read(&e.data(), &current, height) {
                        if next != current {
                            *latest.borrow_mut() = next.clone();
                            host.set(next);
                        }
                    }
                },
            );
            if let Some(w) = &window {
                let _ = w
                    .add_event_listener_with_callback("message", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(w) = window {
                    let _ = w.remove_event_listener_with_callback(
                        "message",
                        listener.as_ref().unchecked_ref(),
                    );
                }
                drop(listener);
            }
        });
    }
    {
        let (host, latest) = (host.clone(), latest.clone());
        use_effect_with((), move |_| {
            let framed = latest.borrow().framed;
            let watch = framed.then(|| {
                watch_on_screen(move |seen| {
                    let current = latest.borrow().clone();
                    // The host script, when there is one, knows better.
                    if current.scripted || current.visible == seen {
                        return;
                    }
                    let next = Host {
                        visible: seen,
                        ..current
                    };
                    *latest.borrow_mut() = next.clone();
                    host.set(next);
                })
            });
            move || drop(watch)
        });
    }
    (*host).clone()
}

/// A frame's own view of where it is on the reader's screen, for pages that strip the host
/// script: an invisible layer over the frame's viewport, watched by an IntersectionObserver
/// (whose implicit root is the top-level screen, even across origins), and the frame's own
/// scrolling (a fixed-height frame pages through the panel).
struct OnScreen {
    observer: web_sys::IntersectionObserver,
    layer: web_sys::Element,
    window: web_sys::Window,
    _callback: Closure<dyn FnMut(js_sys::Array)>,
    on_scroll: Closure<dyn FnMut()>,
}

impl Drop for OnScreen {
    fn drop(&mut self) {
        self.observer.disconnect();
        self.layer.remove();
        let _ = self
            .window
            .remove_event_listener_with_callback("scroll", self.on_scroll.as_ref().unchecked_ref());
    }
}

/// Calls `seen` with the part of the frame on the screen, in the frame's page coordinates (as
/// the host script reports it), whenever it moves by about 1 % of the frame's height or the
/// frame scrolls; `None` when none of it is on the screen.
fn watch_on_screen(seen: impl FnMut(Option<Visible>) + 'static) -> Option<OnScreen> {
    let window = web_sys::window()?;
    let document = window.document()?;
    let layer = document.create_element("div").ok()?;
    layer
        .set_attribute(
            "style",
            "position:fixed;inset:0;pointer-events:none;visibility:hidden;z-index:-1",
        )
        .ok()?;
    layer.set_attribute("aria-hidden", "true").ok()?;
    document.body()?.append_child(&layer).ok()?;
    // The last on-screen part in the frame's viewport, and the listener.
    let state = std::rc::Rc::new(std::cell::RefCell::new((None::<(f64, f64)>, seen)));
    let report = {
        let state = state.clone();
        move || {
            let scrolled = web_sys::window()
                .and_then(|w| w.scroll_y().ok())
                .unwrap_or(0.0);
            let mut s = state.borrow_mut();
            let part = s.0.map(|(top, bottom)| Visible {
                top: top + scrolled,
                bottom: bottom + scrolled,
            });
            (s.1)(part);
        }
    };
    let callback = {
        let (state, report) = (state.clone(), report.clone());
        Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
            let Some(entry) = entries
                .iter()
                .last()
                .and_then(|e| e.dyn_into::<web_sys::IntersectionObserverEntry>().ok())
            else {
                return;
            };
            let r = entry.intersection_rect();
            state.borrow_mut().0 =
                (entry.is_intersecting() && r.height() > 0.0).then(|| (r.top(), r.bottom()));
            report();
        })
    };
    let on_scroll = Closure::<dyn FnMut()>::new(report);
    let steps = js_sys::Array::new();
    for i in 0..=100 {
        steps.push(&JsValue::from(f64::from(i) / 100.0));
    }
    let options = web_sys::IntersectionObserverInit::new();
    options.set_threshold(&steps);
    let observer = web_sys::IntersectionObserver::new_with_options(
        callback.as_ref().unchecked_ref(),
        &options,
    )
    .ok()?;
    observer.observe(&layer);
    let _ = window.add_event_listener_with_callback("scroll", on_scroll.as_ref().unchecked_ref());
    Some(OnScreen {
        observer,
        layer,
        window,
        _callback: callback,
        on_scroll,
    })
}
