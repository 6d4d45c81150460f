//! The training worker: runs one experiment at a time off the page's thread, a slice of about
//! 40 ms at a time, cut by the clock wherever the work is (so that pause, stop and new settings
//! are heard between slices, and the page can end the worker at once), and reports
//! progress to the page every 100 ms or so. Built by trunk as its own wasm module, which the
//! browser fetches only when the Train view starts a worker.

use std::cell::RefCell;

use js_sys::{Float32Array, Object, Reflect, Uint8Array};
use pe_explorer::train::experiment::{Answer, Experiment, Status};
use pe_explorer::train::model::Tape;
use pe_explorer::train::protocol::{Command, Phase, Reporter};
use pe_explorer::train::safetensors;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{DedicatedWorkerGlobalScope, MessageChannel, MessageEvent};

/// Longest stretch of work between two looks at the message queue.
const SLICE_MS: f64 = 40.0;
/// Shortest time between two progress reports while training.
const REPORT_MS: f64 = 100.0;

#[derive(Default)]
struct State {
    experiment: Option<Experiment>,
    phase: Phase,
    reporter: Reporter,
    /// Training time so far, ms (pauses not counted).
    elapsed: f64,
    /// The part of `elapsed` before the current command (an Extend's earlier training).
    earlier: f64,
    last_report: f64,
    answers: Vec<Vec<Answer>>,
    /// A slice is queued on the channel.
    queued: bool,
    /// The trained RoPE run's weights have been sent to the page (for the other parts).
    rope_sent: bool,
}

thread_local! {
    static STATE: RefCell<State> = RefCell::new(State::default());
    static CHANNEL: Option<MessageChannel> = MessageChannel::new().ok();
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn now() -> f64 {
    js_sys::Date::now()
}

/// Sub-millisecond clock for the benchmark (`performance.now()`).
fn performance_now() -> f64 {
    scope()
        .performance()
        .map_or_else(js_sys::Date::now, |p| p.now())
}

/// Posts `{kind, text, data}` to the page.
fn post(kind: &str, text: &str, data: Option<&JsValue>) {
    let msg = Object::new();
    let _ = Reflect::set(&msg, &"kind".into(), &kind.into());
    let _ = Reflect::set(&msg, &"text".into(), &text.into());
    if let Some(d) = data {
        let _ = Reflect::set(&msg, &"data".into(), d);
    }
    let _ = scope().post_message(&msg);
}

/// Queues the next slice behind whatever messages are already waiting.
fn queue_slice() {
    STATE.with_borrow_mut(|s| {
        if s.queued {
            return;
        }
        s.queued = true;
        CHANNEL.with(|c| match c {
            Some(c) => {
                let _ = c.port2().post_message(&JsValue::NULL);
            }
            None => {
                let f = Closure::once_into_js(run_slice);
                let _ = scope()
                    .set_timeout_with_callback_and_timeout_and_arguments_0(f.unchecked_ref(), 0);
            }
        });
    });
}

fn report(s: &mut State) {
    if let Some(e) = &s.experiment {
        let text = s
            .reporter
            .report(e, s.phase, (s.elapsed, s.earlier), &s.answers);
        post("progress", &text, None);
    }
    s.last_report = now();
}

fn run_slice() {
    let again = STATE.with_borrow_mut(|s| {
        s.queued = false;
        if s.phase != Phase::Training {
            return false;
        }
        let Some(e) = s.experiment.as_mut() else {
            return false;
        };
        let start = now();
        let deadline = performance_now() + SLICE_MS;
        // Asked after every piece of work (a quarter of a millisecond at most, at any size):
        // once the slice's time is up, the work stops where it is and goes on next slice.
        let mut stopped = false;
        let more = e.advance(&mut |_| {
            stopped = stopped || performance_now() >= deadline;
            !stopped
        });
        if !more {
            s.answers = e.dog_and_man();
            s.phase = Phase::Done;
        }
        s.elapsed += now() - start;
        if !s.rope_sent && e.part.count > 1 {
            if let Some(r) = e.trained_rope() {
                let diverged = matches!(r.status, Status::Diverged { .. });
                let text = format!(
                    "{}\n{}\n{}",
                    r.index,
                    if diverged { "diverged" } else { "done" },
                    e.settings.base().to_message()
                );
                post(
                    "rope",
                    &text,
                    Some(&Float32Array::from(&r.params[..]).into()),
                );
                s.rope_sent = true;
            }
        }
        if !more || now() - s.last_report >= REPORT_MS {
            report(s);
        }
        more
    });
    if again {
        queue_slice();
    }
}

/// A command, with the trained RoPE run's weights and whether it diverged when the page sent
/// them beside it.
fn handle(text: &str, rope: Option<(Vec<f32>, bool)>) {
    let Some(command) = Command::from_text(text) else {
        post("error", "The worker did not understand a message.", None);
        return;
    };
    let mut start = false;
    STATE.with_borrow_mut(|s| match command {
        Command::Start(settings, part) => {
            *s = State {
                experiment: Some(Experiment::start_part(settings, part)),
                phase: Phase::Training,
                ..State::default()
            };
            report(s);
            start = true;
        }
        Command::Extend(settings, part) => {
            // The trained models are kept; only the extension runs are (re)made (from the RoPE
            // weights sent beside the command, in a part that did not train them). Another
            // experiment (or none: the page was reloaded) is trained first, then extended.
            let rope = rope.as_ref().map(|(p, diverged)| (&p[..], *diverged));
            let kept = s
                .experiment
                .as_mut()
                .is_some_and(|e| e.extend_part(settings.clone(), part, rope));
            let experiment = if kept {
                s.experiment.take()
            } else {
                Some(Experiment::start_part(settings, part))
            };
            *s = State {
                experiment,
                phase: Phase::Training,
                // Every point again: the page starts a new picture for the new settings.
                reporter: Reporter::default(),
                elapsed: if kept { s.elapsed } else { 0.0 },
                earlier: if kept { s.elapsed } else { 0.0 },
                rope_sent: kept && s.rope_sent,
                ..State::default()
            };
            report(s);
            start = true;
        }
        Command::Pause => {
            if s.phase == Phase::Training {
                s.phase = Phase::Paused;
                report(s);
            }
        }
        Command::Resume => {
            if s.phase == Phase::Paused {
                s.phase = Phase::Training;
                report(s);
                start = true;
            }
        }
        Command::Stop => *s = State::default(),
        Command::Maps { run, tokens } => {
            let found = s
                .experiment
                .as_mut()
                .and_then(|e| e.run_mut(run))
                .and_then(|r| {
                    let (c, maps) = (r.model.config.clone(), r.attention_maps(&tokens)?);
                    Some((c, maps))
                });
            match found {
                Some((c, (maps, preds))) => {
                    let preds: Vec<String> =
                        preds.iter().map(|(t, p)| format!("{t},{p}")).collect();
                    let head = format!(
                        "{run}\n{}\n{}\n{}\n{}\n{}",
                        c.layers,
                        c.heads,
                        tokens.len(),
                        tokens
                            .iter()
                            .map(|t| t.to_string())
                            .collect::<Vec<_>>()
                            .join(","),
                        preds.join(";")
                    );
                    post("maps", &head, Some(&Float32Array::from(&maps[..]).into()));
                }
                None => post("maps-missing", &format!("{run}"), None),
            }
        }
        Command::Tensor { run, name } => {
            let found = s
                .experiment
                .as_ref()
                .and_then(|e| e.run(run))
                .and_then(|r| r.tensor(&name));
            if let Some((values, shape)) = found {
                let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
                let head = format!("{run}\n{name}\n{}", dims.join(","));
                post("tensor", &head, Some(&Float32Array::from(values).into()));
            }
        }
        Command::Bench {
            settings,
            steps,
            fixed,
        } => {
            // Timed here, where the training runs: each step's batch is drawn before its clock
            // starts, so only forward, backward and the optimiser are counted.
            let mut e = Experiment::new(settings);
            let s = e.settings.clone();
            let mut tape = Tape::default();
            if let Some(run) = e.runs.first_mut() {
                let mut times = Vec::with_capacity(steps);
                for i in 0..steps + 10 {
                    let batch = run.next_batch(&s, fixed);
                    let t = performance_now();
                    run.optimise(&s, &batch, &mut tape);
                    if i >= 10 {
                        times.push(performance_now() - t);
                    }
                }
                let text: Vec<String> = times.iter().map(|t| format!("{t}")).collect();
                post("bench", &text.join(","), None);
            }
        }
        Command::Export { run } => {
            if let Some(e) = &s.experiment {
                if let Some(r) = e.run(run) {
                    let bytes = safetensors::export_run(e, r);
                    let name = format!(
                        "pe-train-{}-{}-seed{}.safetensors",
                        e.settings.task.id(),
                        r.scheme.id(),
                        e.settings.seed
                    );
                    post("export", &name, Some(&Uint8Array::from(&bytes[..]).into()));
                }
            }
        }
    });
    if start {
        queue_slice();
    }
}

fn main() {
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(|e: MessageEvent| {
        let data = e.data();
        if let Some(text) = data.as_string() {
            handle(&text, None);
        } else if let Some(text) = Reflect::get(&data, &"text".into())
            .ok()
            .and_then(|t| t.as_string())
        {
            let array = Reflect::get(&data, &"data".into())
                .ok()
                .and_then(|d| d.dyn_into::<Float32Array>().ok())
                .map(|a| a.to_vec());
            let diverged = Reflect::get(&data, &"diverged".into())
                .ok()
                .and_then(|d| d.as_bool())
                .unwrap_or(false);
            handle(&text, array.map(|a| (a, diverged)));
        }
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    CHANNEL.with(|c| {
        if let Some(c) = c {
            let tick = Closure::<dyn FnMut()>::new(run_slice);
            c.port1().set_onmessage(Some(tick.as_ref().unchecked_ref()));
            tick.forget();
        }
    });
    // Messages sent before this point were lost: the page waits for this one.
    post("ready", "", None);
}
