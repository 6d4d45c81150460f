//! The page's end of the training worker: starts it (from `worker_loader.js` next to the page;
//! inside a sandboxed frame whose opaque origin may not start a worker from a URL, from a Blob
//! that loads the same files by absolute address; in a page that carries the app inside itself,
//! from that page's bundle), queues commands until it says it is
//! ready, hands its messages to the view, and stops it when dropped.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Float32Array, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, MessageEvent, Url, Worker};
use yew::Callback;

use crate::train::protocol::Command;

/// A message from the worker.
#[derive(Clone, Debug)]
pub enum FromWorker {
    Progress(String),
    Maps(String, Vec<f32>),
    Tensor(String, Vec<f32>),
    Export(String, Uint8Array),
    /// The trained RoPE run's weights (`index`, `done` or `diverged`, the base settings), for
    /// the workers that extend it without having trained it.
    Rope(String, Float32Array),
    /// The worker could not start or stopped with an error.
    Failed(String),
}

pub struct Trainer {
    worker: Worker,
    ready: Rc<Cell<bool>>,
    pending: Rc<RefCell<Vec<JsValue>>>,
    blob_url: Option<String>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(web_sys::Event)>,
}

fn field(msg: &JsValue, name: &str) -> JsValue {
    Reflect::get(msg, &name.into()).unwrap_or(JsValue::UNDEFINED)
}

/// The directory of the page's base address, ending in `/`.
fn base_directory() -> Option<String> {
    let base = web_sys::window()?.document()?.base_uri().ok()??;
    Url::new_with_base(".", &base).ok().map(|u| u.href())
}

fn start_worker() -> Result<(Worker, Option<String>), String> {
    // A page that carries the app inside itself (the single file, the notebook widget) makes
    // the worker from its own copy of the worker's files.
    if let Some(bundle) = super::browser::bundle() {
        let make = Reflect::get(&bundle, &"worker".into())
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok())
            .ok_or("this page's copy of the app has no training worker")?;
        return make
            .call0(&bundle)
            .ok()
            .and_then(|w| w.dyn_into::<Worker>().ok())
            .map(|w| (w, None))
            .ok_or_else(|| "this browser refused to start a Web Worker here".to_string());
    }
    let dir = base_directory().ok_or("the page has no address")?;
    if let Ok(w) = Worker::new(&format!("{dir}worker_loader.js")) {
        return Ok((w, None));
    }
    // A sandboxed frame: a worker from a Blob, loading the same files by absolute address.
    let script = format!(
        "importScripts({0:?} + \"worker.js\");wasm_bindgen({{module_or_path: {0:?} + \"worker_bg.wasm\"}});",
        dir
    );
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let blob = Blob::new_with_str_sequence_and_options(&Array::of1(&script.into()), &options)
        .map_err(|_| "the browser could not create the worker's script")?;
    let url = Url::create_object_url_with_blob(&blob)
        .map_err(|_| "the browser could not create the worker's script")?;
    match Worker::new(&url) {
        Ok(w) => Ok((w, Some(url))),
        Err(e) => {
            let _ = Url::revoke_object_url(&url);
            Err(format!(
                "this browser refused to start a Web Worker here ({})",
                e.as_string()
                    .or_else(|| Reflect::get(&e, &"message".into()).ok()?.as_string())
                    .unwrap_or_else(|| "no reason given".into())
            ))
        }
    }
}

impl Trainer {
    pub fn spawn(on: Callback<FromWorker>) -> Result<Trainer, String> {
        let (worker, blob_url) = start_worker()?;
        let ready = Rc::new(Cell::new(false));
        let pending: Rc<RefCell<Vec<JsValue>>> = Rc::default();
        let on_message = {
            let (ready, pending, worker, on) =
                (ready.clone(), pending.clone(), worker.clone(), on.clone());
            Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
                let msg = e.data();
                let kind = field(&msg, "kind").as_string().unwrap_or_default();
                let text = field(&msg, "text").as_string().unwrap_or_default();
                let floats = || {
                    field(&msg, "data")
                        .dyn_into::<Float32Array>()
                        .map(|a| a.to_vec())
                        .unwrap_or_default()
                };
                match kind.as_str() {
                    "ready" => {
                        ready.set(true);
                        for m in pending.borrow_mut().drain(..) {
                            let _ = worker.post_message(&m);
                        }
                    }
                    "progress" => on.emit(FromWorker::Progress(text)),
                    "maps" => on.emit(FromWorker::Maps(text, floats())),
                    "tensor" => on.emit(FromWorker::Tensor(text, floats())),
                    "export" => {
                        if let Ok(bytes) = field(&msg, "data").dyn_into::<Uint8Array>() {
                            on.emit(FromWorker::Export(text, bytes));
                        }
                    }
                    "rope" => {
                        if let Ok(params) = field(&msg, "data").dyn_into::<Float32Array>() {
                            on.emit(FromWorker::Rope(text, params));
                        }
                    }
                    "error" => on.emit(FromWorker::Failed(text)),
                    _ => {}
                }
            })
        };
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        let on_error = Closure::<dyn FnMut(web_sys::Event)>::new(move |e: web_sys::Event| {
            e.prevent_default();
            let detail = Reflect::get(&e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
                .unwrap_or_else(|| "its files could not be loaded".into());
            on.emit(FromWorker::Failed(format!(
                "The training worker stopped: {detail}."
            )));
        });
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Trainer {
            worker,
            ready,
            pending,
            blob_url,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    /// Sends a command now, or as soon as the worker is ready.
    pub fn send(&self, command: &Command) {
        self.send_with(command, None);
    }

    /// Sends a command with the trained RoPE run's weights beside it and whether it diverged
    /// (`{text, data, diverged}`).
    pub fn send_with(&self, command: &Command, rope: Option<(&Float32Array, bool)>) {
        let text: JsValue = command.to_text().into();
        let message = match rope {
            Some((params, diverged)) => {
                let o = js_sys::Object::new();
                let _ = Reflect::set(&o, &"text".into(), &text);
                let _ = Reflect::set(&o, &"data".into(), params);
                let _ = Reflect::set(&o, &"diverged".into(), &diverged.into());
                o.into()
            }
            None => text,
        };
        if self.ready.get() {
            let _ = self.worker.post_message(&message);
        } else {
            self.pending.borrow_mut().push(message);
        }
    }
}

impl Drop for Trainer {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
        if let Some(url) = &self.blob_url {
            let _ = Url::revoke_object_url(url);
        }
    }
}
