//! The quiz, in two modes. Practice: one question at a time, instant feedback with the reason
//! and a link to the view that shows it, a score, and progress saved in the browser (when the
//! page may save). Exam (`exam=1` in the link): answers are recorded but neither checked nor
//! revealed until the student submits; then the score, the right answers and the reasons
//! appear, with a plain-text summary to copy and hand in.

use std::cell::RefCell;

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::browser::{self, Store};
use super::controls::{step_list, StepItem};
use super::lms;
use super::props::{use_view_renderer, ViewProps};
use crate::action::Action;
use crate::learn::quiz::{
    check_summary, check_task, is_right_choice, question, see_preset, task_preset, Answer, Checked,
    Exam, Kind, Progress, Question, Timing, QUESTIONS,
};
use crate::learn::scorm::{self, Mode};
use crate::state::{Settings, View};
use crate::url;

/// Where the practice progress is saved.
const STORAGE_KEY: &str = "pe-explorer.quiz.v1";
/// Where an exam in progress is kept: this tab's session, so a reload keeps the answers and
/// the clock, and a new tab starts a new exam.
const EXAM_KEY: &str = "pe-explorer.quiz.exam.v1";
/// A submitted exam, kept apart (in the tab's and the browser's storage): an edit of the
/// exam's own record that un-submits it does not reopen it.
const SUBMITTED_KEY: &str = "pe-explorer.quiz.exam.submitted.v1";
/// The attempt submitted before the newest one in this browser, which the newest summary names.
const EARLIER_KEY: &str = "pe-explorer.quiz.exam.earlier.v1";

/// An earlier attempt than `exam` submitted in this browser, the latest if several are kept.
fn earlier_attempt(exam: &Exam) -> Option<Exam> {
    [EARLIER_KEY, SUBMITTED_KEY]
        .into_iter()
        .filter_map(|key| browser::load(Store::Local, key))
        .filter_map(|t| Exam::parse(&t, &grade))
        // Submitted before this one started (an attempt in another tab that overlapped this
        // one is not "earlier"), the latest of those.
        .filter(|e| e.submitted_ms.is_some_and(|done| done <= exam.started_ms))
        .max_by(|a, b| a.started_ms.total_cmp(&b.started_ms))
}

thread_local! {
    /// The exam, for pages that may not use session storage: it then lasts while the page does.
    static EXAM_MEMORY: RefCell<Option<String>> = const { RefCell::new(None) };
}

/// Checks a recorded task from the settings it was recorded with.
fn grade(n: usize, settings: &str, typed: &str) -> Checked {
    check_task(n, &url::parse(settings).settings, typed)
}

/// The exam kept for this page or tab, or a new one starting now; with the question an LMS
/// kept for a learner who comes back. In an LMS, what it kept is the exam (a tab's storage may
/// hold another attempt's).
fn load_exam() -> (Exam, Option<usize>) {
    let memory = EXAM_MEMORY
        .with(|m| m.borrow().clone())
        .and_then(|t| Exam::parse(&t, &grade));
    if lms::mode() == Some(Mode::Exam) {
        if let Some(exam) = memory {
            return (exam, None);
        }
        if let Some((exam, n)) =
            lms::suspend_data().and_then(|t| scorm::read_exam_suspend(&t, &grade))
        {
            return (exam, Some(n));
        }
        return (Exam::new(browser::clock_ms()), None);
    }
    let exam = browser::load(Store::Session, EXAM_KEY)
        .and_then(|t| Exam::parse(&t, &grade))
        .or(memory)
        .unwrap_or_else(|| Exam::new(browser::clock_ms()));
    // The same exam, once submitted, stays submitted.
    let sealed = [Store::Session, Store::Local]
        .into_iter()
        .filter_map(|store| browser::load(store, SUBMITTED_KEY))
        .filter_map(|t| Exam::parse(&t, &grade))
        .find(|e| e.submitted() && e.started_ms == exam.started_ms);
    match sealed {
        Some(sealed) if !exam.submitted() => (sealed, None),
        _ => (exam, None),
    }
}

/// Notes in the exam under way in this tab, if any, that the practice quiz was opened.
fn note_practice() {
    let Some(mut exam) =
        browser::load(Store::Session, EXAM_KEY).and_then(|t| Exam::parse(&t, &grade))
    else {
        return;
    };
    if exam.practice_opened(browser::clock_ms()) {
        let text = exam.to_text();
        EXAM_MEMORY.with(|m| *m.borrow_mut() = Some(text.clone()));
        browser::save(Store::Session, EXAM_KEY, &text);
    }
}

/// Keeps the exam, with the question on screen: in this page, in the tab's storage, and in the
/// LMS when there is one (the graded report only when `graded`, at submission). Whether the
/// browser saved it beyond this page's life, and what the LMS refused or could not keep, if
/// anything.
fn keep_exam(exam: &Exam, on_screen: usize, graded: bool) -> (bool, Option<String>) {
    let text = exam.to_text();
    EXAM_MEMORY.with(|m| *m.borrow_mut() = Some(text.clone()));
    let saved = browser::save(Store::Session, EXAM_KEY, &text);
    if exam.submitted() {
        // The attempt this one replaces in the browser's record is kept for its summary.
        if let Some(before) = earlier_attempt(exam) {
            browser::save(Store::Local, EARLIER_KEY, &before.to_text());
        }
        for store in [Store::Session, Store::Local] {
            browser::save(store, SUBMITTED_KEY, &text);
        }
    }
    if lms::mode() != Some(Mode::Exam) {
        return (saved, None);
    }
    // What the LMS keeps of a task: its settings within TASK_SETTINGS_MAX characters (the
    // longest values left out, and named), its typed number within TYPED_MAX.
    let left_out = std::cell::RefCell::new(Vec::<String>::new());
    let kept = exam.map_tasks(|n, settings, typed| {
        let link = url::to_link_within(
            &url::parse(settings).settings,
            None,
            scorm::TASK_SETTINGS_MAX,
        );
        if !link.left_out.is_empty() {
            left_out
                .borrow_mut()
                .push(format!("question {n} ({})", link.left_out.join(", ")));
        }
        (link.query, typed.chars().take(scorm::TYPED_MAX).collect())
    });
    let (suspend, dropped) = scorm::exam_suspend(&kept, on_screen);
    let mut values = vec![
        ("cmi.suspend_data".to_string(), suspend),
        (
            "cmi.core.lesson_location".to_string(),
            on_screen.to_string(),
        ),
    ];
    if graded {
        // The score from the answers as given, not as the LMS keeps them.
        values.extend(scorm::exam_report(
            exam,
            lms::mastery(),
            lms::utc_offset_minutes(),
        ));
    }
    let mut problem = lms::report(&values).err();
    let mut lost = left_out.into_inner();
    lost.extend(
        dropped
            .iter()
            .map(|n| format!("question {n} (all of them)")),
    );
    if problem.is_none() && !lost.is_empty() {
        problem = Some(format!(
            "Your course keeps at most {} characters of an exam, so some settings of your \
             answers are not kept there: {}. Graded now, they count in full; if you leave and come \
             back before submitting, those answers are graded without them.",
            scorm::SUSPEND_LIMIT,
            lost.join("; ")
        ));
    }
    (saved || lms::active(), problem)
}

/// What the student did on the question on screen.
#[derive(Clone, PartialEq, Default)]
struct Attempt {
    question: usize,
    picked: Option<usize>,
    typed: String,
    result: Option<Checked>,
}

/// The settings question `m` opens with: its own starting point, or in an exam the settings a
/// task's answer was recorded with (so what was handed in is what is on screen).
fn opening(m: usize, s: &Settings, exam: &Exam) -> Settings {
    if s.exam {
        if let Some(Answer::Task { settings, .. }) = exam.answer(m) {
            let mut r = url::parse(settings).settings;
            r.view = View::Quiz;
            (r.question, r.exam) = (m, true);
            (r.theme, r.palette, r.lesson) = (s.theme, s.palette, s.lesson);
            return r;
        }
    }
    task_preset(m, s)
}

/// The verdict, message, right answer, reason and link shown for a checked answer (in an exam,
/// after submission: a wrong answer is final there, not "not yet").
fn feedback(q: &Question, s: &Settings, verdict: Option<&Checked>, answered: bool) -> Html {
    let see = see_preset(q, s);
    let link = browser::link(&url::whole_app_link(&see).query);
    let correct = verdict.is_some_and(|r| r.correct);
    let message = verdict.map(|r| r.message.clone()).filter(|m| !m.is_empty());
    // After a wrong (or missing) choice, which one was right.
    let right = match q.kind {
        Kind::Choice { options, answer } if !correct => {
            Some(format!(" The answer: “{}”.", options[answer]))
        }
        _ => None,
    };
    let head = match (answered, correct) {
        (false, _) => "Not answered.",
        (true, true) => "Correct.",
        (true, false) if s.exam => "Wrong.",
        (true, false) => "Not yet.",
    };
    html! {
        <div class={classes!("quiz-feedback", if correct { "quiz-right" } else { "quiz-wrong" })}
            id="quiz-feedback">
            <p><strong>{ head }</strong>
                { message.map(|m| format!(" {m}")) }{ right }</p>
            <p>{ q.explanation }</p>
            <p><a href={link} target="_blank" rel="noopener" class="quiz-see">
                { format!("See it in “{}” (opens a new tab)", q.see.0.label()) }
            </a></p>
        </div>
    }
}

#[function_component(QuizView)]
pub fn quiz_view(props: &ViewProps) -> Html {
    let render = use_view_renderer();
    let s = &props.settings;
    let total = QUESTIONS.len();
    let n = s.question.clamp(1, total);
    let q = question(n);
    let progress = use_state(|| {
        Progress::parse(&browser::load(Store::Local, STORAGE_KEY).unwrap_or_default())
    });
    // Whether this page may save (sandboxed frames without same-origin access may not).
    let saves = use_state(|| browser::save(Store::Local, STORAGE_KEY, &progress.to_text()));
    let exam_mode = s.exam;
    // Kept from the start, so a reload keeps the clock (only in exam mode).
    let start = use_memo((), move |_| {
        let (exam, resume) = load_exam();
        let kept = if exam_mode {
            keep_exam(&exam, resume.unwrap_or(n), false)
        } else {
            (true, None)
        };
        (exam, resume, kept)
    });
    let exam = use_state(|| start.0.clone());
    let exam_saves = use_state(|| start.2 .0);
    // What the LMS refused, said to the student.
    let lms_problem = use_state(|| start.2 .1.clone());
    // The practice quiz opened while an exam is under way in this tab: the exam notes it.
    use_effect_with((), move |_| {
        if !exam_mode {
            note_practice();
        }
    });
    // When the question on screen appeared (an answer's latency runs from here).
    let shown_at = use_memo(n, |_| browser::clock_ms());
    // A learner who comes back to a package's exam opens where they were.
    {
        let (cb, settings, resume) = (props.on_action.clone(), s.clone(), start.1);
        let kept = start.0.clone();
        use_effect_with((), move |_| {
            if let Some(m) = resume.filter(|_| lms::take_resume()) {
                if m != settings.question {
                    cb.emit(Action::Preset(Box::new(opening(m, &settings, &kept))));
                }
            }
        });
    }
    // In a package, the LMS keeps the question on screen too.
    {
        let (exam, exam_saves, lms_problem) =
            (exam.clone(), exam_saves.clone(), lms_problem.clone());
        use_effect_with(n, move |n| {
            if exam_mode && lms::active() && !exam.submitted() {
                let (saved, problem) = keep_exam(&exam, *n, false);
                exam_saves.set(saved);
                lms_problem.set(problem);
            }
        });
    }
    let submitted = exam_mode && exam.submitted();
    let attempt = use_state(Attempt::default);
    let here = if attempt.question == n {
        (*attempt).clone()
    } else {
        let typed = match exam.answer(n) {
            Some(Answer::Task { typed, .. }) if exam_mode => typed.clone(),
            _ => String::new(),
        };
        Attempt {
            question: n,
            typed,
            ..Attempt::default()
        }
    };

    let record = {
        let (progress, saves) = (progress.clone(), saves.clone());
        move |id: &'static str, correct: bool| {
            let mut p = (*progress).clone();
            p.record(id, correct);
            saves.set(browser::save(Store::Local, STORAGE_KEY, &p.to_text()));
            progress.set(p);
        }
    };
    // An exam answer: kept, never checked in front of the student.
    let record_exam = {
        let (exam, exam_saves, lms_problem) =
            (exam.clone(), exam_saves.clone(), lms_problem.clone());
        let shown_at = *shown_at;
        move |n: usize, answer: Answer| {
            let mut e = (*exam).clone();
            let now = browser::clock_ms();
            let timing = Timing {
                at_ms: now,
                latency_ms: (now - shown_at).max(0.0),
            };
            if e.record(n, answer, timing) {
                let (saved, problem) = keep_exam(&e, n, false);
                exam_saves.set(saved);
                lms_problem.set(problem);
                exam.set(e);
            }
        }
    };
    let go = |m: usize| {
        let (cb, settings, exam) = (props.on_action.clone(), s.clone(), (*exam).clone());
        Callback::from(move |_: MouseEvent| {
            cb.emit(Action::Preset(Box::new(opening(m, &settings, &exam))))
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
    // Clearing every answer (practice) and submitting (exam) ask first.
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
        let settings = s.clone();
        Callback::from(move |_: MouseEvent| {
            saves.set(browser::save(Store::Local, STORAGE_KEY, ""));
            progress.set(Progress::default());
            attempt.set(Attempt::default());
            confirming.set(false);
            cb.emit(Action::Preset(Box::new(task_preset(1, &settings))));
        })
    };
    let submit = {
        let (exam, exam_saves, confirming) = (exam.clone(), exam_saves.clone(), confirming.clone());
        let lms_problem = lms_problem.clone();
        Callback::from(move |_: MouseEvent| {
            let mut e = (*exam).clone();
            e.submit(browser::clock_ms(), &grade);
            let (saved, problem) = keep_exam(&e, n, true);
            exam_saves.set(saved);
            lms_problem.set(problem);
            exam.set(e);
            confirming.set(false);
        })
    };
    // What the live region says after an exam answer is recorded.
    let recorded_note = use_state(String::new);

    let body = match &q.kind {
        Kind::Choice { options, answer: _ } => {
            let recorded = match exam.answer(n) {
                Some(Answer::Choice(i)) if exam_mode => Some(*i),
                _ => None,
            };
            let pick = |i: usize| {
                let (attempt, here) = (attempt.clone(), here.clone());
                let (record_exam, note) = (record_exam.clone(), recorded_note.clone());
                Callback::from(move |_: Event| {
                    if exam_mode {
                        record_exam(n, Answer::Choice(i));
                        note.set(format!(
                            "Answer recorded: option {}. You can change it until you submit.",
                            i + 1
                        ));
                    } else {
                        attempt.set(Attempt {
                            picked: Some(i),
                            result: None,
                            ..here.clone()
                        })
                    }
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
            let chosen = if exam_mode { recorded } else { here.picked };
            html! {
                <>
                    <fieldset class="quiz-options" disabled={submitted}>
                        <legend class="quiz-prompt">{ q.prompt }</legend>
                        { for options.iter().enumerate().map(|(i, text)| {
                            let id = format!("quiz-option-{i}");
                            html! {
                                <div class="quiz-option">
                                    <input type="radio" name={format!("quiz-{}", q.id)} id={id.clone()}
                                        value={i.to_string()} checked={chosen == Some(i)} onchange={pick(i)} />
                                    <label for={id}>{ *text }</label>
                                </div>
                            }
                        }) }
                    </fieldset>
                    if !exam_mode {
                        <div class="quiz-actions">
                            <button type="button" class="button button-primary" id="quiz-check"
                                disabled={here.picked.is_none()} onclick={check}>
                                { "Check answer" }
                            </button>
                        </div>
                    } else if !submitted {
                        <p class="muted small" id="quiz-recorded">
                            { if recorded.is_some() {
                                "Your answer is recorded. Pick another to change it, until you submit."
                            } else {
                                "Pick an answer: it is recorded, and checked only when you submit."
                            } }
                        </p>
                    }
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
                let (record_exam, note) = (record_exam.clone(), recorded_note.clone());
                let (settings, check) = (s.clone(), *check);
                move || {
                    if exam_mode {
                        if !submitted {
                            // Nothing is checked until submission: the settings are kept and
                            // checked then.
                            let typed: String = here.typed.chars().take(64).collect();
                            record_exam(
                                n,
                                Answer::Task {
                                    settings: url::to_query(&settings, None),
                                    typed,
                                },
                            );
                            note.set(
                                "Your settings are recorded. Change them and record again to \
                                 replace them, until you submit."
                                    .into(),
                            );
                        }
                        return;
                    }
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
            let recorded = exam_mode && exam.answer(n).is_some();
            html! {
                <>
                    <p class="quiz-prompt" id="quiz-prompt">{ q.prompt }</p>
                    <p class="muted small">
                        { format!("Use the sliders in the settings and the “{}” view below; then {}.",
                            view.label(), if exam_mode { "record your answer" } else { "check" }) }
                    </p>
                    <div class="quiz-actions">
                        if let Some(label) = input {
                            <label for="quiz-input" class="control-label">{ *label }</label>
                            <input id="quiz-input" class="control-field quiz-input" type="text" inputmode="text"
                                autocomplete="off" value={here.typed.clone()} oninput={on_input} onkeydown={on_key}
                                disabled={submitted} />
                        }
                        if !exam_mode {
                            <button type="button" class="button button-primary" id="quiz-check" onclick={on_check}>
                                { "Check my settings" }
                            </button>
                        } else if !submitted {
                            <button type="button" class="button button-primary" id="quiz-record" onclick={on_check}>
                                { if recorded { "Record again" } else { "Record my answer" } }
                            </button>
                        }
                        <button type="button" class="button" id="quiz-setup" onclick={setup}>
                            { "Reset the task" }
                        </button>
                    </div>
                    if exam_mode && !submitted {
                        <p class="muted small" id="quiz-recorded">
                            { if recorded {
                                "An answer is recorded for this task (the settings it was recorded with are on screen when you come back)."
                            } else {
                                "Nothing recorded yet: set up the view, then record your answer. It is checked only when you submit."
                            } }
                        </p>
                    }
                </>
            }
        }
    };

    // Practice: the feedback of the last check. Exam: nothing until submission, then every
    // question's verdict.
    let shown = if exam_mode {
        submitted.then(|| {
            let result = match exam.answer(n) {
                Some(Answer::Task { .. }) => exam.result(n).cloned(),
                Some(Answer::Choice(i)) => Some(Checked {
                    correct: is_right_choice(q, *i),
                    message: String::new(),
                }),
                None => None,
            };
            feedback(q, s, result.as_ref(), result.is_some())
        })
    } else {
        here.result.as_ref().map(|r| feedback(q, s, Some(r), true))
    };
    let live = if exam_mode && !submitted {
        html! { <p class="visually-hidden">{ (*recorded_note).clone() }</p> }
    } else {
        shown.unwrap_or_default()
    };

    let task_view = match q.kind {
        Kind::Task { view, .. } => html! {
            <div class="quiz-view" data-view={view.id()}>
                { render(view, ViewProps { settings: s.clone(), on_action: props.on_action.clone() }) }
            </div>
        },
        Kind::Choice { .. } => html! {},
    };

    let map = QUESTIONS
        .iter()
        .enumerate()
        .map(|(i, item)| {
            let verdict = if exam_mode {
                match (exam.verdict(i + 1), exam.answer(i + 1).is_some()) {
                    (Some(v), _) => Some(Some(v)),
                    (None, true) => Some(None),
                    (None, false) => None,
                }
            } else {
                progress.get(item.id).map(Some)
            };
            let (state, said) = match verdict {
                Some(Some(true)) => ("quiz-step-right", "answered correctly"),
                Some(Some(false)) => ("quiz-step-wrong", "answered wrongly"),
                Some(None) => ("quiz-step-answered", "answered"),
                None => ("", "not answered"),
            };
            StepItem {
                label: format!("Question {}, {said}", i + 1),
                state,
                title: None,
            }
        })
        .collect();

    let lead = if submitted {
        "Submitted: your answers are fixed. Each question now says whether your answer was right, \
         gives the right answer and why. Copy the summary and hand it in."
            .to_string()
    } else if exam_mode {
        format!(
            "Exam: {total} questions, some multiple choice, some tasks you solve with the sliders \
             and the views. Your answers are recorded, not checked: change any of them until you \
             submit. Then the score, the right answers and the reasons appear, and you can copy \
             a summary for your teacher. The clock started when you opened the exam."
        )
    } else {
        format!(
            "{total} questions: some multiple choice, some tasks you solve with the sliders and \
             the views, checked by the app's own math. Answer in any order and as often as you \
             like; your last answer to each counts."
        )
    };
    let unanswered = total - exam.answered();
    let status = if exam_mode {
        html! {
            <div class="quiz-status">
                if let (true, Some(score)) = (submitted, exam.score()) {
                    <p class="quiz-score" id="quiz-score" aria-live="polite">
                        { format!("Score: {score} of {total}") }
                        <span class="muted">{ format!(" · submitted after {}",
                            crate::learn::quiz::duration_text(exam.time_taken_ms().unwrap_or(0.0))) }</span>
                    </p>
                    <progress class="lesson-progress" max={total.to_string()} value={score.to_string()}
                        aria-labelledby="quiz-score" />
                } else {
                    <p class="quiz-score" id="quiz-answered" aria-live="polite">
                        { format!("Answered: {} of {total}", exam.answered()) }
                    </p>
                    <progress class="lesson-progress" max={total.to_string()} value={exam.answered().to_string()}
                        aria-labelledby="quiz-answered" />
                    if *confirming {
                        <span class="quiz-confirm" role="group" aria-label="Submit your answers?">
                            <p>{ if unanswered > 0 {
                                format!("{unanswered} of {total} questions have no answer. Submit anyway? Answers cannot change after this.")
                            } else {
                                "Submit your answers? They cannot change after this.".to_string()
                            } }</p>
                            <button type="button" class="button button-primary" id="quiz-submit-yes" onclick={submit}>{ "Yes, submit" }</button>
                            <button type="button" class="button" id="quiz-submit-no" onclick={cancel.clone()}>{ "Not yet" }</button>
                        </span>
                    } else {
                        <button type="button" class="button button-primary" id="quiz-submit" onclick={ask.clone()}>
                            { "Submit answers" }
                        </button>
                    }
                }
                if let Some(problem) = &*lms_problem {
                    <p class="quiz-lms-problem" role="alert" id="quiz-lms-problem">
                        { format!("{problem} Your answers are kept in this page: record the answer again, or tell your teacher.") }
                    </p>
                } else if lms::active() {
                    <p class="muted small" id="quiz-lms">
                        { if submitted {
                            "Your score and each answer are in your course's gradebook."
                        } else {
                            "Your course keeps each answer as you record it, and records the score when you submit. You can leave and come back."
                        } }
                    </p>
                } else if let Some(ended) = lms::ended() {
                    <p class="quiz-lms-problem" role="alert" id="quiz-lms-ended">{ ended }</p>
                } else if lms::reviewing() {
                    <p class="muted small" id="quiz-lms">
                        { "Your course opened this exam to review it: nothing is recorded." }
                    </p>
                } else if lms::missing() {
                    <p class="muted small" id="quiz-lms-missing">
                        { "This course package was opened outside its LMS: nothing goes to a gradebook." }
                    </p>
                }
                if !*exam_saves {
                    <p class="muted small" id="quiz-no-storage">
                        { "This page may not save here (a sandboxed frame or private mode): your answers last until you leave or reload it." }
                    </p>
                }
                <SummaryCheck />
            </div>
        }
    } else {
        html! {
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
        }
    };
    let summary = if submitted {
        let link = browser::link("view=quiz&exam=1");
        // An exam submitted earlier in this browser (another tab's, or this tab's before its
        // storage was cleared) is named in the summary.
        let earlier = earlier_attempt(&exam);
        html! { <ExamSummary text={exam.summary_after(&link, earlier.as_ref()).unwrap_or_default()} /> }
    } else {
        html! {}
    };

    html! {
        <>
            <section class={classes!("panel", "quiz", exam_mode.then_some("quiz-exam"))} aria-labelledby="quiz-title">
                <header class="panel-head">
                    <h2 id="quiz-title">{ if exam_mode { "Quiz · exam" } else { "Quiz" } }</h2>
                    <p class="panel-lead">{ lead }</p>
                </header>
                { status }
                { summary }
                { step_list("Questions", "quiz-map", map, n, go) }
                <div class="quiz-card" data-question={q.id}>
                    <p class="lesson-count">{ format!("Question {n} of {total}") }
                        { matches!(q.kind, Kind::Task { .. }).then_some(" · task") }</p>
                    { body }
                    // Always on the page, so screen readers announce what is put in it.
                    <div class="quiz-live" role="status" aria-live="polite">
                        { live }
                    </div>
                    <div class="lesson-nav">
                        <button type="button" class="button" id="quiz-back" aria-disabled={(n == 1).then_some("true")} onclick={back}>
                            { "← Previous" }
                        </button>
                        <button type="button" class="button" id="quiz-next" aria-disabled={(n == total).then_some("true")} onclick={next}>
                            { "Next question →" }
                        </button>
                        if !exam_mode {
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
                        }
                    </div>
                </div>
            </section>
            { task_view }
        </>
    }
}

#[derive(Properties, PartialEq)]
struct SummaryProps {
    text: String,
}

/// The submitted exam's summary as plain text, with a button that copies it.
#[function_component(ExamSummary)]
fn exam_summary(props: &SummaryProps) -> Html {
    let status = use_state(String::new);
    let on_copy = {
        let (status, text) = (status.clone(), props.text.clone());
        Callback::from(move |_: MouseEvent| {
            browser::copy_with_status(
                text.clone(),
                status.clone(),
                "Copied to the clipboard.".into(),
                "The clipboard is not available here: select the text above and copy it.",
            );
        })
    };
    html! {
        <div class="quiz-summary">
            <label for="quiz-summary" class="control-label">{ "Summary to hand in" }</label>
            <textarea id="quiz-summary" class="quiz-summary-text" readonly={true} rows="10"
                value={props.text.clone()} />
            <div class="quiz-actions">
                <button type="button" class="button button-primary" id="quiz-copy-summary" onclick={on_copy}>
                    { "Copy summary" }
                </button>
                <p class="note" role="status" aria-live="polite" id="quiz-copy-status">{ (*status).clone() }</p>
            </div>
        </div>
    }
}

/// For teachers: paste a summary and the app says whether its lines are the ones it wrote.
#[function_component(SummaryCheck)]
fn summary_check() -> Html {
    let said = use_state(|| None::<Result<String, String>>);
    let on_input = {
        let said = said.clone();
        Callback::from(move |e: InputEvent| {
            let area: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
            let text = area.value();
            said.set((!text.trim().is_empty()).then(|| check_summary(&text)));
        })
    };
    html! {
        <details class="quiz-check">
            <summary>{ "For teachers: check a summary" }</summary>
            <label for="quiz-check-text" class="control-label">{ "Paste a student's summary" }</label>
            <textarea id="quiz-check-text" class="quiz-summary-text" rows="5" oninput={on_input} />
            <p class="note" role="status" aria-live="polite" id="quiz-check-result">
                { match &*said {
                    Some(Ok(d)) => format!("Its lines are those the app wrote with digest {d}. The digest catches slips and casual edits; a browser-only exam cannot stop a determined student (the LMS package can)."),
                    Some(Err(e)) => e.clone(),
                    None => String::new(),
                } }
            </p>
        </details>
    }
}
