//! The quiz: one question at a time, instant feedback with the reason and a link to the view
//! that shows it, a score, and progress saved in the browser (when the page may save).

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::app::{view_html, ViewProps};
use super::browser;
use super::controls::{step_list, StepItem};
use crate::action::Action;
use crate::learn::quiz::{
    is_right_choice, question, see_preset, task_preset, Checked, Kind, Progress, QUESTIONS,
};
use crate::url;

/// Where the progress is saved.
const STORAGE_KEY: &str = "pe-explorer.quiz.v1";

/// What the student did on the question on screen.
#[derive(Clone, PartialEq, Default)]
struct Attempt {
    question: usize,
    picked: Option<usize>,
    typed: String,
    result: Option<Checked>,
}

#[function_component(QuizView)]
pub fn quiz_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let total = QUESTIONS.len();
    let n = s.question.clamp(1, total);
    let q = question(n);
    let progress = use_state(|| Progress::parse(&browser::load(STORAGE_KEY).unwrap_or_default()));
    // Whether this page may save (sandboxed frames without same-origin access may not).
    let saves = use_state(|| browser::save(STORAGE_KEY, &progress.to_text()));
    let attempt = use_state(Attempt::default);
    let here = if attempt.question == n {
        (*attempt).clone()
    } else {
        Attempt {
            question: n,
            ..Attempt::default()
        }
    };

    let record = {
        let (progress, saves) = (progress.clone(), saves.clone());
        move |id: &'static str, correct: bool| {
            let mut p = (*progress).clone();
            p.record(id, correct);
            saves.set(browser::save(STORAGE_KEY, &p.to_text()));
            progress.set(p);
        }
    };
    let go = |m: usize| {
        let (cb, settings) = (props.on_action.clone(), s.clone());
        Callback::from(move |_: MouseEvent| {
            // A task opens on its starting view; a choice keeps the sliders as they are.
            cb.emit(match question(m).kind {
                Kind::Task { .. } => Action::Preset(Box::new(task_preset(m, &settings))),
                Kind::Choice { .. } => Action::SetQuestion(m),
            })
        })
    };
    // Previous and Next stay focusable at the ends but do nothing there (a disabled button
    // would drop keyboard focus to the page).
    let back = if n > 1 { go(n - 1) } else { Callback::noop() };
    let next = if n < total {
        go(n + 1)
    } else {
        Callback::noop()
    };
    // Clearing every answer asks first.
    let confirming = use_state(|| false);
    let ask = {
        let confirming = confirming.clone();
        Callback::from(move |_: MouseEvent| confirming.set(true))
    };
    let cancel = {
        let confirming = confirming.clone();
        Callback::from(move |_: MouseEvent| confirming.set(false))
    };
    let start_over = {
        let (progress, saves, attempt) = (progress.clone(), saves.clone(), attempt.clone());
        let (cb, confirming) = (props.on_action.clone(), confirming.clone());
        Callback::from(move |_: MouseEvent| {
            saves.set(browser::save(STORAGE_KEY, ""));
            progress.set(Progress::default());
            attempt.set(Attempt::default());
            confirming.set(false);
            cb.emit(Action::SetQuestion(1));
        })
    };

    let body = match &q.kind {
        Kind::Choice { options, answer: _ } => {
            let pick = |i: usize| {
                let (attempt, here) = (attempt.clone(), here.clone());
                Callback::from(move |_: Event| {
                    attempt.set(Attempt {
                        picked: Some(i),
                        result: None,
                        ..here.clone()
                    })
                })
            };
            let check = {
                let (attempt, here, record) = (attempt.clone(), here.clone(), record.clone());
                Callback::from(move |_: MouseEvent| {
                    if let Some(i) = here.picked {
                        let correct = is_right_choice(q, i);
                        record(q.id, correct);
                        attempt.set(Attempt {
                            result: Some(Checked {
                                correct,
                                message: String::new(),
                            }),
                            ..here.clone()
                        });
                    }
                })
            };
            html! {
                <>
                    <fieldset class="quiz-options">
                        <legend class="quiz-prompt">{ q.prompt }</legend>
                        { for options.iter().enumerate().map(|(i, text)| {
                            let id = format!("quiz-option-{i}");
                            html! {
                                <div class="quiz-option">
                                    <input type="radio" name={format!("quiz-{}", q.id)} id={id.clone()}
                                        value={i.to_string()} checked={here.picked == Some(i)} onchange={pick(i)} />
                                    <label for={id}>{ *text }</label>
                                </div>
                            }
                        }) }
                    </fieldset>
                    <div class="quiz-actions">
                        <button type="button" class="button button-primary" id="quiz-check"
                            disabled={here.picked.is_none()} onclick={check}>
                            { "Check answer" }
                        </button>
                    </div>
                </>
            }
        }
        Kind::Task {
            input, check, view, ..
        } => {
            let on_input = {
                let (attempt, here) = (attempt.clone(), here.clone());
                Callback::from(move |e: InputEvent| {
                    let el: HtmlInputElement = e.target_unchecked_into();
                    attempt.set(Attempt {
                        typed: el.value(),
                        result: None,
                        ..here.clone()
                    })
                })
            };
            let run = {
                let (attempt, here, record) = (attempt.clone(), here.clone(), record.clone());
                let (settings, check) = (s.clone(), *check);
                move || {
                    let result = check(&settings, &here.typed);
                    record(q.id, result.correct);
                    attempt.set(Attempt {
                        result: Some(result),
                        ..here.clone()
                    });
                }
            };
            let on_check = {
                let run = run.clone();
                Callback::from(move |_: MouseEvent| run())
            };
            let on_key = Callback::from(move |e: KeyboardEvent| {
                if e.key() == "Enter" {
                    run()
                }
            });
            let setup = {
                let (cb, settings) = (props.on_action.clone(), s.clone());
                Callback::from(move |_: MouseEvent| {
                    cb.emit(Action::Preset(Box::new(task_preset(n, &settings))))
                })
            };
            html! {
                <>
                    <p class="quiz-prompt" id="quiz-prompt">{ q.prompt }</p>
                    <p class="muted small">
                        { format!("Use the sliders in the settings and the “{}” view below; then check.", view.label()) }
                    </p>
                    <div class="quiz-actions">
                        if let Some(label) = input {
                            <label for="quiz-input" class="control-label">{ *label }</label>
                            <input id="quiz-input" class="control-field quiz-input" type="text" inputmode="numeric"
                                autocomplete="off" value={here.typed.clone()} oninput={on_input} onkeydown={on_key} />
                        }
                        <button type="button" class="button button-primary" id="quiz-check" onclick={on_check}>
                            { "Check my settings" }
                        </button>
                        <button type="button" class="button" id="quiz-setup" onclick={setup}>
                            { "Reset the task" }
                        </button>
                    </div>
                </>
            }
        }
    };

    let feedback = here.result.as_ref().map(|r| {
        let see = see_preset(q, s);
        let link = browser::link(&url::to_link(&see, None).query);
        // After a wrong choice, which one was right.
        let right = match q.kind {
            Kind::Choice { options, answer } if !r.correct => {
                Some(format!(" The answer: “{}”.", options[answer]))
            }
            _ => None,
        };
        html! {
            <div class={classes!("quiz-feedback", if r.correct { "quiz-right" } else { "quiz-wrong" })}
                id="quiz-feedback">
                <p><strong>{ if r.correct { "Correct." } else { "Not yet." } }</strong>
                    { (!r.message.is_empty()).then(|| format!(" {}", r.message)) }{ right }</p>
                <p>{ q.explanation }</p>
                <p><a href={link} target="_blank" rel="noopener" class="quiz-see">
                    { format!("See it in “{}” (opens a new tab)", q.see.0.label()) }
                </a></p>
            </div>
        }
    });

    let task_view = match q.kind {
        Kind::Task { view, .. } => html! {
            <div class="quiz-view" data-view={view.id()}>
                { view_html(view, ViewProps { settings: s.clone(), on_action: props.on_action.clone() }) }
            </div>
        },
        Kind::Choice { .. } => html! {},
    };

    let map = QUESTIONS
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let (state, said) = match progress.get(item.id) {
                Some(true) => ("quiz-step-right", "answered correctly"),
                Some(false) => ("quiz-step-wrong", "answered wrongly"),
                None => ("", "not answered"),
            };
            StepItem {
                label: format!("Question {}, {said}", i + 1),
                state,
                title: None,
            }
        })
        .collect();
    html! {
        <>
            <section class="panel quiz" aria-labelledby="quiz-title">
                <header class="panel-head">
                    <h2 id="quiz-title">{ "Quiz" }</h2>
                    <p class="panel-lead">
                        { format!("{total} questions: some multiple choice, some tasks you solve with the sliders and \
                            the views, checked by the app's own math. Answer in any order and as often as you like; \
                            your last answer to each counts.") }
                    </p>
                </header>
                <div class="quiz-status">
                    <p class="quiz-score" id="quiz-score" aria-live="polite">
                        { format!("Score: {} of {total}", progress.score()) }
                        <span class="muted">{ format!(" · {} answered", progress.answered()) }</span>
                    </p>
                    <progress class="lesson-progress" max={total.to_string()} value={progress.score().to_string()}
                        aria-labelledby="quiz-score" />
                    if *saves {
                        <p class="muted small">{ "Progress is saved in this browser." }</p>
                    } else {
                        <p class="muted small" id="quiz-no-storage">
                            { "This page may not save here (a sandboxed frame or private mode): progress lasts until you leave." }
                        </p>
                    }
                </div>
                { step_list("Questions", "quiz-map", map, n, go) }
                <div class="quiz-card" data-question={q.id}>
                    <p class="lesson-count">{ format!("Question {n} of {total}") }
                        { matches!(q.kind, Kind::Task { .. }).then_some(" · task") }</p>
                    { body }
                    // Always on the page, so screen readers announce what is put in it.
                    <div class="quiz-live" role="status" aria-live="polite">
                        { feedback.unwrap_or_default() }
                    </div>
                    <div class="lesson-nav">
                        <button type="button" class="button" id="quiz-back" aria-disabled={(n == 1).then_some("true")} onclick={back}>
                            { "← Previous" }
                        </button>
                        <button type="button" class="button" id="quiz-next" aria-disabled={(n == total).then_some("true")} onclick={next}>
                            { "Next question →" }
                        </button>
                        if *confirming {
                            <span class="quiz-confirm" role="group" aria-label="Clear every answer?">
                                <p>{ "Clear every answer?" }</p>
                                <button type="button" class="button" id="quiz-start-over-yes" onclick={start_over}>{ "Yes, start over" }</button>
                                <button type="button" class="button" id="quiz-start-over-no" onclick={cancel}>{ "Keep my answers" }</button>
                            </span>
                        } else {
                            <button type="button" class="button" id="quiz-start-over" onclick={ask}>
                                { "Start over" }
                            </button>
                        }
                    </div>
                </div>
            </section>
            { task_view }
        </>
    }
}
