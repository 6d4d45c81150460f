//! Train it yourself: tiny transformers trained in a Web Worker, one per position scheme, on a
//! task chosen to ask one thing of position: the settings and the curves. What a run shows below
//! them (held-out accuracy at longer lengths, attention maps, learned tables, answers to "dog
//! bites man", the models to download) is `train_results`, a part of its own (`ui::parts`). The
//! run itself lives above the view (`train_session`), so leaving the view keeps it.

use std::rc::Rc;

use yew::prelude::*;

use super::chart::{CsvExport, Shared};
use super::controls::{Choice, NumberControl};
use super::line_chart::LineChart;
use super::props::ViewProps;
use super::train_results::{stem, MapsProps};
use super::train_session::TrainSession;
use crate::action::Action;
use crate::format::{and_list, duration, plain, significant};
use crate::main_chart::TRAIN;
use crate::schemes::{score_biases, Registered, Scheme};
use crate::train::experiment::{estimate_seconds, heldout_size, Part, Status};
use crate::train::extension as stretch;
use crate::train::figures::{self, label};

use crate::train::protocol::{Command, Phase, Progress, RunView};
use crate::train::settings::{
    TrainScheme, TrainSettings, HEADS, LAYERS, LEARNING_RATE, STEPS, TRAIN_LENGTH, TRAIN_SEED,
    WIDTH,
};
use crate::train::tasks::{dog_and_man, Task};

/// The sequences the attention maps can be drawn for.
fn examples(s: &TrainSettings) -> Vec<(String, Vec<u32>)> {
    let mut out = Vec::new();
    if s.task == Task::Agent {
        for (i, tokens) in dog_and_man().into_iter().enumerate() {
            let name = if i == 0 {
                "the dog bites the man ?"
            } else {
                "the man bites the dog ?"
            };
            out.push((name.to_string(), tokens));
        }
    }
    let set = s.task.heldout(s.seed, s.train_len, 4);
    for (i, e) in set.iter().enumerate() {
        out.push((
            format!("held-out example {} (length {})", i + 1, s.train_len),
            e.tokens.clone(),
        ));
    }
    let long = s.task.heldout(s.seed, 2 * s.train_len, 1);
    if let Some(e) = long.first() {
        out.push((
            format!("held-out example at twice the length ({})", 2 * s.train_len),
            e.tokens.clone(),
        ));
    }
    out
}

/// Longest run a link may start without a press, in seconds (estimated).
const LINK_RUN_LIMIT_S: f64 = 60.0;

/// Which bias schemes learn their own numbers, and that the layers share them: "T5, KERPLE and
/// FIRE learn their biases' numbers, shared by every layer."
fn learned_biases(ts: &TrainSettings) -> String {
    let names: Vec<&str> = score_biases(ts)
        .into_iter()
        .filter(|(_, b)| !b.tensors(ts.heads).is_empty())
        .map(|(s, _)| s.short())
        .collect();
    match and_list(&names) {
        None => String::new(),
        Some(list) if names.len() == 1 => {
            format!("{list} learns its bias's numbers, shared by every layer.")
        }
        Some(list) => format!("{list} learn their biases' numbers, shared by every layer."),
    }
}

#[function_component(TrainView)]
pub fn train_view(props: &ViewProps) -> Html {
    let Some(session) = use_context::<TrainSession>() else {
        return html! { <p class="note note-error">{ "The training run is not available here." }</p> };
    };
    let s = &props.settings;
    let ts = s.train_settings();
    let message = ts.to_message();
    let board = session.board.clone();
    let send = session.send.clone();
    let example = use_state(|| 0usize);
    let layer = use_state(|| None::<usize>);
    let estimate = *use_memo(ts.clone(), estimate_seconds);

    // A link with run=1 starts the experiment when the view first opens, unless it would take
    // more than a minute: then the view says so and waits for a press.
    {
        let (send, run, settings) = (send.clone(), s.train_run, ts.clone());
        let (acted, fresh) = (
            session.link_acted.clone(),
            board.progress.settings.is_empty(),
        );
        use_effect_with((), move |_| {
            if run && fresh && !acted.get() && estimate <= LINK_RUN_LIMIT_S {
                send.emit(Command::Start(settings, Part::WHOLE));
            }
            acted.set(true);
            // A run's results, a part of their own, are fetched now (after the view is
            // drawn), so that they are here when a run starts.
            super::parts::fetch(super::parts::Part::TrainHeldOut);
        });
    }
    // Once trained: the attention maps of the chosen example (unless they are here from
    // before the view was left), and the learned table.
    let phase = board.progress.phase;
    let examples_list = use_memo(message.clone(), |_| examples(&ts));
    let chosen = (*example).min(examples_list.len().saturating_sub(1));
    {
        let (send, tokens) = (send.clone(), examples_list.get(chosen).map(|e| e.1.clone()));
        let schemes = board
            .progress
            .runs
            .iter()
            .map(|r| r.scheme)
            .collect::<Vec<_>>();
        let have = |tokens: &[u32]| {
            (0..schemes.len())
                .filter(|&i| schemes[i].extended.is_none())
                .all(|i| {
                    board
                        .maps
                        .get(i)
                        .and_then(|m| m.as_ref())
                        .is_some_and(|m| m.tokens == tokens)
                })
        };
        let have_maps = tokens.as_deref().is_some_and(have);
        let have_learned = board.learned.is_some();
        use_effect_with(
            (phase == Phase::Done, chosen, message.clone()),
            move |(done, _, _)| {
                if *done {
                    if let Some(tokens) = tokens.filter(|_| !have_maps) {
                        // The trained models' maps (an extension's attention is its RoPE
                        // model's, stretched: not drawn).
                        for run in (0..schemes.len()).filter(|&i| schemes[i].extended.is_none()) {
                            send.emit(Command::Maps {
                                run,
                                tokens: tokens.clone(),
                            });
                        }
                    }
                    let learned = schemes
                        .iter()
                        .position(|s| *s == TrainScheme::of(Scheme::Learned));
                    if let Some(run) = learned.filter(|_| !have_learned) {
                        send.emit(Command::Tensor {
                            run,
                            name: "pos_emb".into(),
                        });
                    }
                }
            },
        );
    }

    let set = |key: &'static str| {
        let cb = props.on_action.clone();
        Callback::from(move |v: f64| cb.emit(Action::SetTrain(key, plain(v))))
    };
    let on_task = {
        let cb = props.on_action.clone();
        Callback::from(move |v: String| cb.emit(Action::SetTrain("task", v)))
    };
    let toggle_scheme = |scheme: TrainScheme| {
        let (cb, current) = (props.on_action.clone(), ts.schemes.clone());
        Callback::from(move |_: Event| {
            let mut next: Vec<String> = current.iter().map(|s| s.id()).collect();
            if let Some(i) = next.iter().position(|id| *id == scheme.id()) {
                if next.len() > 1 {
                    next.remove(i);
                }
            } else {
                next.push(scheme.id());
            }
            cb.emit(Action::SetTrain("schemes", next.join(",")));
        })
    };
    let start = {
        let (send, cb, settings) = (send.clone(), props.on_action.clone(), ts.clone());
        Callback::from(move |_: MouseEvent| {
            send.emit(Command::Start(settings.clone(), Part::WHOLE));
            cb.emit(Action::SetTrainRun(true));
        })
    };
    let pause = {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Command::Pause))
    };
    let resume = {
        let send = send.clone();
        Callback::from(move |_: MouseEvent| send.emit(Command::Resume))
    };
    let cancel = {
        let (clear, cb) = (session.clear.clone(), props.on_action.clone());
        Callback::from(move |_: MouseEvent| {
            clear.emit(());
            cb.emit(Action::SetTrainRun(false));
        })
    };

    let p = &board.progress;
    // The board holds this experiment when everything but the extension step agrees (choosing
    // other methods keeps the trained models on screen until Extend is pressed).
    let current = !p.settings.is_empty() && TrainSettings::same_training(&p.settings, &message);
    let running = current && phase == Phase::Training;
    let paused = current && phase == Phase::Paused;
    let started = current && !p.runs.is_empty();
    let declined = s.train_run && estimate > LINK_RUN_LIMIT_S;

    html! {
        <section class="panel train" aria-labelledby="train-title"
            data-phase={if current { format!("{phase:?}").to_lowercase() } else { "idle".to_string() }}>
            <header class="panel-head">
                <h2 id="train-title">{ "Train it yourself" }</h2>
                <p class="panel-lead">
                    { "Every claim about trained models, as an experiment you run: one small \
                       transformer per position scheme, all starting from the same weights and \
                       seeing the same batches, trained here in your browser (in a background \
                       worker, on your CPU), then tested on held-out data at the training length \
                       and at 2, 4 and 8 times it." }
                </p>
            </header>
            <div class="train-setup">
                <div class="train-controls">
                    <Choice id="train-task" label="Task"
                        options={Task::ALL.iter().map(|t| (AttrValue::from(t.id()), AttrValue::from(t.label()))).collect::<Vec<_>>()}
                        selected={AttrValue::from(ts.task.id())} on_change={on_task}>
                        <p class="control-hint">{ ts.task.explanation() }</p>
                    </Choice>
                    <fieldset class="train-schemes">
                        <legend class="control-label">{ "Schemes to compare" }</legend>
                        { for TrainScheme::all().into_iter().map(|sc| {
                            let id = format!("train-scheme-{}", sc.id());
                            html! {
                                <label class="toggle" for={id.clone()}>
                                    <input id={id} type="checkbox" checked={ts.schemes.contains(&sc)}
                                        onchange={toggle_scheme(sc)} />
                                    <span>{ label(sc) }</span>
                                </label>
                            }
                        }) }
                        <p class="control-hint">
                            { format!("The sidebar's settings apply: base {} (θ for RoPE), the {} \
                                sinusoidal variant, RoPE's {} pairing, T5's {} buckets up to distance {}. \
                                {} The task's mask: {}.",
                                plain(ts.base), ts.variant.id(), ts.rope_pairing.id(), ts.t5_buckets,
                                ts.t5_max_distance, learned_biases(&ts),
                                if ts.task.causal() { "causal (a decoder) for every scheme" }
                                else { "none (an encoder), except where a scheme says causal" }) }
                        </p>
                    </fieldset>
                </div>
                <div class="train-controls train-numbers">
                    <NumberControl id="train-layers" limit={LAYERS} value={ts.layers as f64} on_change={set("layers")}
                        hint="Transformer blocks (pre-LayerNorm: attention, then an MLP of width 4·d_model)." />
                    <NumberControl id="train-heads" limit={HEADS} value={ts.heads as f64} on_change={set("attn_heads")}
                        hint="Attention heads per block." />
                    <NumberControl id="train-width" limit={WIDTH} value={ts.d_model as f64} on_change={set("width")}
                        hint="Model width; a multiple of 2 × heads." />
                    <NumberControl id="train-length" limit={TRAIN_LENGTH} value={ts.train_len as f64} on_change={set("train_len")}
                        hint="Longest training sequence: the learned table's size." />
                    <NumberControl id="train-steps" limit={STEPS} value={ts.steps as f64} on_change={set("steps")}
                        hint="Optimiser steps per scheme, 16 sequences each." />
                    <NumberControl id="train-lr" limit={LEARNING_RATE} value={ts.lr} on_change={set("lr")}
                        hint="Peak learning rate of AdamW (warm-up, then cosine decay)." />
                    <NumberControl id="train-seed" limit={TRAIN_SEED} value={ts.seed as f64} on_change={set("train_seed")}
                        hint="Weights, batches and held-out data: the same seed gives the same numbers." />
                </div>
            </div>
            <div class="train-actions" role="group" aria-label="Training">
                if running {
                    <button type="button" class="button button-primary" id="train-stop" onclick={pause}>{ "Stop" }</button>
                } else if paused {
                    <button type="button" class="button button-primary" id="train-resume" onclick={resume}>{ "Resume" }</button>
                    <button type="button" class="button" id="train-start" onclick={start}>{ "Train again" }</button>
                } else {
                    <button type="button" class="button button-primary" id="train-start" onclick={start}>
                        { if started { "Train again" } else { "Train" } }
                    </button>
                }
                if started {
                    <button type="button" class="button" id="train-cancel" onclick={cancel}>{ "Clear" }</button>
                }
                <ProgressLine progress={p.clone()} current={current} />
            </div>
            if let Some(f) = &board.failure {
                <p class="note note-error" role="alert">{ f.clone() }</p>
            }
            if !started && declined {
                <p class="note note-info" id="train-declined" role="status">
                    { format!("This link asks to train at once, but these settings would take about \
                        {} (more than a minute), so nothing started. Press Train to run them; Stop \
                        pauses at any time.", duration(estimate)) }
                </p>
            }
            if !started {
                <p class="muted" id="train-estimate">{ format!("Press Train: {} × {} steps, then each \
                    model is tested on {} held-out {} at {} lengths. Estimated time: about {} (from the \
                    models' size and the speed measured on an idle 2-core laptop; a busy machine or a \
                    phone can take two or three times as long). The curves appear below as they are trained.",
                    if ts.schemes.len() == 1 { "one scheme".to_string() } else { format!("{} schemes", ts.schemes.len()) },
                    crate::format::group_thousands(ts.steps as u64),
                    crate::format::group_thousands(heldout_size(ts.task) as u64),
                    if ts.task == Task::Agent { "sentences" } else { "sequences" },
                    crate::train::experiment::LENGTH_FACTORS.len(),
                    duration(estimate)) }</p>
            }
            // Drawn (empty) before training starts, so the first report only fills them in.
            <Results started={started} send={send.clone()} on_action={props.on_action.clone()} maps={MapsProps {
                board: board.clone(),
                settings: ts.clone(),
                palette: s.palette,
                examples: examples_list.clone(),
                chosen,
                on_example: { let e = example.clone(); Callback::from(move |i| e.set(i)) },
                layer: *layer,
                on_layer: { let l = layer.clone(); Callback::from(move |i| l.set(Some(i))) },
            }} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ProgressProps {
    progress: Progress,
    current: bool,
}

/// "Training: step 120 of 400 for each scheme · 56 steps/s · about 12 s left", with a bar; a
/// finished run says which schemes diverged, and at which step.
#[function_component(ProgressLine)]
fn progress_line(props: &ProgressProps) -> Html {
    let p = &props.progress;
    if !props.current || p.runs.is_empty() {
        return html! { <p class="train-status" role="status" aria-live="polite"></p> };
    }
    let settings = TrainSettings::from_message(&p.settings);
    // While the trained models train, their steps; then the extensions' fine-tune.
    let base_training = p
        .runs
        .iter()
        .any(|r| r.scheme.extended.is_none() && r.status == Status::Training);
    let tuning: Vec<&RunView> = p
        .runs
        .iter()
        .filter(|r| r.scheme.extended.is_some() && r.status == Status::Training)
        .collect();
    let (steps, of) = if !base_training && !tuning.is_empty() {
        let steps = tuning.iter().map(|r| r.step).min().unwrap_or(0);
        (steps, settings.tune_steps)
    } else {
        let base = p.runs.iter().filter(|r| r.scheme.extended.is_none());
        let steps = base.clone().map(|r| r.step).min().unwrap_or(0);
        (
            steps,
            base.map(|r| r.step).max().unwrap_or(0).max(settings.steps),
        )
    };
    let testing = p.runs.iter().any(|r| r.status == Status::Testing);
    let diverged: Vec<String> = p
        .runs
        .iter()
        .filter_map(|r| match r.status {
            Status::Diverged { step } => Some(format!("{} at step {step}", label(r.scheme))),
            _ => None,
        })
        .collect();
    let what = match p.phase {
        Phase::Done if diverged.len() == p.runs.len() => {
            format!("Diverged: {}", diverged.join(", "))
        }
        Phase::Done if !diverged.is_empty() => format!(
            "Diverged: {}; the other {} finished",
            diverged.join(", "),
            p.runs.len() - diverged.len()
        ),
        Phase::Done => "Done".to_string(),
        Phase::Paused => format!("Stopped at step {steps} of {of}"),
        _ if !base_training && !tuning.is_empty() => {
            format!("Fine-tuning the extended RoPE models: step {steps} of {of} for each method")
        }
        _ if testing => "Testing on held-out data".to_string(),
        _ => format!("Training: step {steps} of {of} for each scheme"),
    };
    let mut parts = vec![what];
    if p.phase != Phase::Done && !diverged.is_empty() {
        parts.push(format!("diverged: {}", diverged.join(", ")));
    }
    if let Some(r) = p.steps_per_second() {
        parts.push(format!("{} steps/s (all schemes)", significant(r, 3)));
    }
    match (p.phase, p.seconds_left()) {
        (Phase::Training, Some(left)) => parts.push(format!("about {} left", duration(left))),
        // An Extend run counts from its own start: the training it continues is said apart.
        (Phase::Done, _) if p.earlier_ms > 0.0 => parts.push(format!(
            "took {}, after {} of training",
            duration((p.elapsed_ms - p.earlier_ms).max(0.0) / 1000.0),
            duration(p.earlier_ms / 1000.0)
        )),
        (Phase::Done, _) => parts.push(format!("took {}", duration(p.elapsed_ms / 1000.0))),
        _ => {}
    }
    let fraction = if p.work_total > 0.0 {
        p.work_done / p.work_total
    } else {
        0.0
    };
    html! {
        <div class="train-progress">
            <progress max="1" value={fraction.clamp(0.0, 1.0).to_string()} aria-label="Training progress" />
            <p class="train-status" role="status" aria-live="polite">{ parts.join(" · ") }</p>
        </div>
    }
}

#[derive(Properties)]
struct ResultsProps {
    /// Whether the board holds this experiment's runs; if not, empty charts of the chosen
    /// schemes are shown.
    started: bool,
    /// The board, settings and choices, handed on to the attention maps once trained.
    maps: MapsProps,
    send: Callback<Command>,
    on_action: Callback<Action>,
}

impl PartialEq for ResultsProps {
    fn eq(&self, o: &Self) -> bool {
        self.started == o.started
            && self.maps == o.maps
            && Rc::ptr_eq(&self.maps.examples, &o.maps.examples)
    }
}

#[function_component(Results)]
fn results(props: &ResultsProps) -> Html {
    let maps = &props.maps;
    let s = &maps.settings;
    let placeholder;
    let all = if props.started {
        &maps.board.progress
    } else {
        placeholder = Progress::empty(s);
        &placeholder
    };
    // The trained models; their extensions have a section of their own.
    let trained = stretch::trained_only(all);
    let p = &trained;
    // Keyed on the runs alone: a report that only moves the clock (or an extension's) redraws
    // nothing here.
    let of_runs = |runs: &Vec<RunView>| Progress {
        runs: runs.clone(),
        ..Progress::default()
    };
    let loss = use_memo((p.runs.clone(), s.clone()), move |(r, s)| {
        figures::loss_chart(&of_runs(r), s)
    });
    let accuracy = use_memo((p.runs.clone(), s.clone()), move |(r, s)| {
        figures::accuracy_chart(&of_runs(r), s)
    });
    let loss_cursor = use_state(|| None::<f64>);
    let acc_cursor = use_state(|| None::<f64>);
    let curves_csv: CsvExport = {
        let (p, name) = (p.clone(), stem(s, "curves"));
        Callback::from(move |_| Ok((format!("{name}.csv"), figures::curves_csv(&p))))
    };

    html! {
        <>
            <div class="twin twin-2">
                <LineChart id="train-loss" data={Shared::new(loss)}
                    description="Line chart of each scheme's training loss against the training step."
                    file_stem={stem(s, "loss")} cursor={*loss_cursor} whole_x={true}
                    on_x={{ let c = loss_cursor.clone(); Callback::from(move |v| c.set(v)) }}
                    csv={Some(curves_csv.clone())} show_values={true} aspect={TRAIN.aspect} min_height={TRAIN.min} max_height={TRAIN.max} />
                <LineChart id="train-accuracy" data={Shared::new(accuracy)}
                    description="Line chart of each scheme's held-out accuracy at the training length against the training step, with chance marked."
                    file_stem={stem(s, "accuracy")} cursor={*acc_cursor} whole_x={true}
                    on_x={{ let c = acc_cursor.clone(); Callback::from(move |v| c.set(v)) }}
                    csv={Some(curves_csv)} show_values={true} aspect={TRAIN.aspect} min_height={TRAIN.min} max_height={TRAIN.max} />
            </div>

            if props.started {
                <super::parts::TrainHeldOut maps={maps.clone()}
                    send={props.send.clone()} on_action={props.on_action.clone()} />
            }
        </>
    }
}
