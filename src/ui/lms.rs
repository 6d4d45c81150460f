//! The page's end of an LMS that launched the app as a SCORM 1.2 package (`lms=scorm12` in the
//! link the package's manifest opens). Finds the LMS's run-time API as the standard asks (up the
//! parent frames, then the opener's), starts the session, reads what the LMS kept for a learner
//! who comes back, writes what `learn::scorm` computes, commits at each answer and finishes once
//! when the page goes. Every refusal of the LMS comes back as a sentence for the learner. Without
//! an API the app is the plain app.

use std::cell::RefCell;

use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::browser;
use crate::format::quoted;
use crate::learn::scorm::{self, Mode};
use crate::state::View;
use crate::url::Parsed;

struct Session {
    api: JsValue,
    mode: Mode,
    /// The mastery score: the LMS's (`cmi.student_data.mastery_score`), else the package's.
    mastery: Option<f64>,
    /// The package's own parameters, kept in the address the app rewrites.
    params: String,
    started_ms: f64,
    /// What the LMS kept from an earlier session (`cmi.suspend_data`), as it was at launch.
    suspend: String,
    status: String,
    /// `cmi.core.lesson_mode` is `review` or `browse`: the LMS records nothing.
    review: bool,
    finished: bool,
    _on_hide: Option<Closure<dyn FnMut()>>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// Whether the link asked for an LMS that was not there (the app then says so once).
    static MISSING: RefCell<bool> = const { RefCell::new(false) };
    /// Why the LMS's session is over, when it is (the page reloaded inside the LMS, or came back
    /// from the browser's back-forward cache, after LMSFinish).
    static ENDED: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// What a learner reads once the LMS's session is over.
const ENDED_TEXT: &str = "This activity's session with your course has ended (the page was \
    reloaded or left): nothing more is recorded here. Open the activity again from your course \
    to go on; your answers so far are kept there.";

/// The window's `API` object, if it has one that can be read (another origin's cannot).
fn api_of(win: &JsValue) -> Option<JsValue> {
    let api = Reflect::get(win, &"API".into()).ok()?;
    let init = Reflect::get(&api, &"LMSInitialize".into()).ok()?;
    init.is_function().then_some(api)
}

/// SCORM 1.2's API discovery: this window and up to 500 parents, then the opener and its
/// parents, then the top window's opener.
fn find_api() -> Option<JsValue> {
    let window = web_sys::window()?;
    let climb = |start: JsValue| -> Option<JsValue> {
        let mut win = start;
        for _ in 0..500 {
            if let Some(api) = api_of(&win) {
                return Some(api);
            }
            let parent = Reflect::get(&win, &"parent".into()).ok()?;
            if parent.is_null() || parent.is_undefined() || js_sys::Object::is(&parent, &win) {
                return None;
            }
            win = parent;
        }
        None
    };
    let opener_of = |win: &JsValue| -> Option<JsValue> {
        let opener = Reflect::get(win, &"opener".into()).ok()?;
        (!opener.is_null() && !opener.is_undefined()).then_some(opener)
    };
    let top = Reflect::get(&window, &"top".into()).ok();
    climb(window.clone().into())
        .or_else(|| climb(opener_of(&window)?))
        // A package framed inside an LMS's pop-up: the pop-up's opener.
        .or_else(|| climb(opener_of(top.as_ref()?)?))
}

/// Calls the API's `name` with string arguments; the string it returns.
fn call(api: &JsValue, name: &str, args: &[&str]) -> Result<String, String> {
    let f: Function = Reflect::get(api, &name.into())
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| format!("the LMS has no {name}"))?;
    let args: js_sys::Array = args.iter().map(|a| JsValue::from_str(a)).collect();
    let out = f
        .apply(api, &args)
        .map_err(|e| format!("the LMS's {name} failed: {}", js_message(&e)))?;
    Ok(out
        .as_string()
        .unwrap_or_else(|| out.as_bool().map_or_else(String::new, |b| b.to_string())))
}

fn js_message(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| Reflect::get(e, &"message".into()).ok()?.as_string())
        .unwrap_or_else(|| "no reason given".into())
}

/// The LMS's last error as a sentence.
fn last_error(api: &JsValue, what: &str) -> String {
    let code = call(api, "LMSGetLastError", &[]).unwrap_or_default();
    let text = call(api, "LMSGetErrorString", &[&code]).unwrap_or_default();
    let diagnostic = call(api, "LMSGetDiagnostic", &[&code]).unwrap_or_default();
    let mut out = format!("The LMS refused {what}");
    if !code.is_empty() && code != "0" {
        out.push_str(&format!(" (error {code}"));
        if !text.is_empty() {
            out.push_str(&format!(": {text}"));
        }
        out.push(')');
    }
    if !diagnostic.is_empty() && diagnostic != text {
        out.push_str(&format!(". {}", diagnostic.trim_end_matches('.')));
    }
    out.push('.');
    out
}

fn ok(result: &str) -> bool {
    result == "true"
}

/// Starts the LMS session when the link launches the app as a package and an LMS is there.
/// Called once, before the first render, with the settings the link opens.
pub fn connect(link: &Parsed) {
    let Some(launch) = &link.lms else {
        return;
    };
    let (settings, params, package_mastery) = (&link.settings, launch.query(), launch.mastery);
    let Some(api) = find_api() else {
        MISSING.with(|m| *m.borrow_mut() = true);
        return;
    };
    if !call(&api, "LMSInitialize", &[""]).is_ok_and(|r| ok(&r)) {
        // The LMS is there but will not start again: its session already ended (a reload
        // inside the LMS ends it, as LMSFinish ran when the page went).
        ENDED.with(|e| {
            *e.borrow_mut() = Some(format!(
                "{ENDED_TEXT} ({})",
                last_error(&api, "to start again").trim_end_matches('.')
            ))
        });
        return;
    }
    let get = |key: &str| call(&api, "LMSGetValue", &[key]).unwrap_or_default();
    let mode = match settings.view {
        View::Quiz if settings.exam => Mode::Exam,
        View::Lesson => Mode::Lesson,
        _ => Mode::View,
    };
    let mastery = scorm::mastery(&get("cmi.student_data.mastery_score")).or(package_mastery);
    let suspend = get("cmi.suspend_data");
    let status = get("cmi.core.lesson_status");
    let review = matches!(get("cmi.core.lesson_mode").as_str(), "review" | "browse");
    // The page going (closed, reloaded, or the LMS moving on) ends the session, once; a page
    // the browser brings back from its back-forward cache says so.
    let on_hide = web_sys::window().map(|w| {
        let hide = Closure::<dyn FnMut()>::new(finish);
        let _ = w.add_event_listener_with_callback("pagehide", hide.as_ref().unchecked_ref());
        hide
    });
    if let Some(w) = web_sys::window() {
        let show = Closure::<dyn FnMut(web_sys::Event)>::new(|e: web_sys::Event| {
            let persisted = Reflect::get(&e, &"persisted".into())
                .ok()
                .is_some_and(|p| p.is_truthy());
            if persisted && !active() {
                ENDED.with(|x| *x.borrow_mut() = Some(ENDED_TEXT.to_string()));
            }
        });
        let _ = w.add_event_listener_with_callback("pageshow", show.as_ref().unchecked_ref());
        show.forget();
    }
    SESSION.with(|s| {
        *s.borrow_mut() = Some(Session {
            api,
            mode,
            mastery,
            params,
            started_ms: browser::clock_ms(),
            suspend,
            status,
            review,
            finished: false,
            _on_hide: on_hide,
        })
    });
    // A first launch is under way from now on; a view is done by being opened.
    let first = match mode {
        Mode::View => "completed",
        Mode::Exam | Mode::Lesson => "incomplete",
    };
    let untouched = SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .is_some_and(|s| matches!(s.status.as_str(), "" | "not attempted" | "browsed"))
    });
    if untouched || mode == Mode::View {
        let _ = report(&[("cmi.core.lesson_status".into(), first.into())]);
    }
}

/// Whether an LMS session is open.
pub fn active() -> bool {
    SESSION.with(|s| s.borrow().as_ref().is_some_and(|s| !s.finished))
}

thread_local! {
    /// Whether the place the LMS kept for a returning learner has been opened.
    static RESUMED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// True the first time it is asked in a page: the view that asks first opens the question or
/// step the LMS kept, and no later visit to the view moves the learner again.
pub fn take_resume() -> bool {
    !RESUMED.with(|r| r.replace(true))
}

/// Whether the link asked for an LMS that this page could not find.
pub fn missing() -> bool {
    MISSING.with(|m| *m.borrow())
}

/// Why the LMS's session is over, when it ended before the page did.
pub fn ended() -> Option<String> {
    ENDED.with(|e| e.borrow().clone())
}

/// Whether the LMS opened the activity to review or browse it: it records nothing then.
pub fn reviewing() -> bool {
    SESSION.with(|s| s.borrow().as_ref().is_some_and(|s| s.review))
}

/// The package's mode, when an LMS session is open.
pub fn mode() -> Option<Mode> {
    SESSION.with(|s| s.borrow().as_ref().map(|s| s.mode))
}

/// The mastery score the exam is passed against, when there is one.
pub fn mastery() -> Option<f64> {
    SESSION.with(|s| s.borrow().as_ref().and_then(|s| s.mastery))
}

/// What the LMS kept from an earlier session (empty on a first launch).
pub fn suspend_data() -> Option<String> {
    SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .map(|s| s.suspend.clone())
            .filter(|t| !t.is_empty())
    })
}

/// The package's own parameters for the address the app rewrites (empty outside an LMS).
pub fn link_params() -> Option<String> {
    SESSION.with(|s| s.borrow().as_ref().map(|s| s.params.clone()))
}

/// The learner's clock, in minutes ahead of UTC.
pub fn utc_offset_minutes() -> f64 {
    -js_sys::Date::new_0().get_timezone_offset()
}

/// Sets `values`, then the session time, then commits: what a learner did is in the LMS when
/// this returns `Ok`. A value the LMS refuses does not stop the others or the commit; `Err`
/// says, for the learner, everything it refused. Does nothing outside an LMS session or when the
/// LMS opened the activity for review; says so once the session has ended.
pub fn report(values: &[(String, String)]) -> Result<(), String> {
    if let Some(e) = ended() {
        return Err(e);
    }
    // The API and the start, copied out: the LMS's calls run with nothing of ours borrowed (an
    // LMS that removes the frame inside LMSCommit makes the page go, which calls `finish`).
    let Some((api, started, review)) = SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .filter(|s| !s.finished)
            .map(|s| (s.api.clone(), s.started_ms, s.review))
    }) else {
        return match SESSION.with(|s| s.borrow().is_some()) {
            true => Err(ENDED_TEXT.to_string()),
            false => Ok(()),
        };
    };
    if review {
        return Ok(());
    }
    let time = scorm::timespan(browser::clock_ms() - started);
    let all = values
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .chain([("cmi.core.session_time", time.as_str())]);
    let mut refused: Vec<String> = Vec::new();
    let mut status = None;
    for (key, value) in all {
        match call(&api, "LMSSetValue", &[key, value]) {
            Ok(r) if ok(&r) => {
                if key == "cmi.core.lesson_status" {
                    status = Some(value.to_string());
                }
            }
            Ok(_) => refused.push(last_error(&api, &format!("{key} = “{}”", quoted(value)))),
            Err(e) => refused.push(format!("{e}.")),
        }
    }
    if let Some(status) = status {
        SESSION.with(|s| {
            if let Some(s) = s.borrow_mut().as_mut() {
                s.status = status;
            }
        });
    }
    match call(&api, "LMSCommit", &[""]) {
        Ok(r) if ok(&r) => {}
        Ok(_) => refused.push(last_error(&api, "to save (LMSCommit)")),
        Err(e) => refused.push(format!("{e}.")),
    }
    match refused.len() {
        0 => Ok(()),
        1 => Err(refused.remove(0)),
        n => Err(format!(
            "{} It refused {} more values as well.",
            refused.remove(0),
            n - 1
        )),
    }
}

/// Ends the session: the exit and the session time, then `LMSFinish`, once.
pub fn finish() {
    let Some((api, started, status, review)) = SESSION.with(|s| {
        let mut session = s.borrow_mut();
        let s = session.as_mut().filter(|s| !s.finished)?;
        s.finished = true;
        Some((s.api.clone(), s.started_ms, s.status.clone(), s.review))
    }) else {
        return;
    };
    if !review {
        // A learner who leaves before the end comes back to where they were.
        let done = matches!(status.as_str(), "passed" | "failed" | "completed");
        let exit = if done { "" } else { "suspend" };
        let time = scorm::timespan(browser::clock_ms() - started);
        let _ = call(&api, "LMSSetValue", &["cmi.core.exit", exit]);
        let _ = call(&api, "LMSSetValue", &["cmi.core.session_time", &time]);
    }
    let _ = call(&api, "LMSFinish", &[""]);
}
