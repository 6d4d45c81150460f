//! The guided lesson: one step at a time, its paragraph above the live view it sets up.

use std::cell::{Cell, RefCell};

use yew::prelude::*;

use super::browser;
use super::controls::{step_list, StepItem};
use super::lms;
use super::props::{use_view_renderer, ViewProps};
use crate::action::Action;
use crate::learn::lesson::{clamp, step, STEPS};
use crate::learn::scorm::{self, Mode};
use crate::state::View;

thread_local! {
    /// In a package that launches the lesson: the steps seen, in this visit and the earlier ones
    /// the LMS kept.
    static SEEN: RefCell<Option<Vec<bool>>> = const { RefCell::new(None) };
    /// The step the link opened, which a returning learner leaves at once (not seen).
    static PASSING: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The steps seen so far, with step `n` now, and what the LMS refused when told.
fn tell_lms(n: usize) -> (usize, Option<String>) {
    let seen = SEEN.with(|seen| {
        let mut seen = seen.borrow_mut();
        let list = seen.get_or_insert_with(|| {
            lms::suspend_data()
                .and_then(|t| scorm::read_lesson_suspend(&t))
                .map_or_else(|| vec![false; STEPS.len()], |(_, seen)| seen)
        });
        if let Some(slot) = list.get_mut(n - 1) {
            *slot = true;
        }
        list.clone()
    });
    let values = [
        (
            "cmi.suspend_data".to_string(),
            scorm::lesson_suspend(n, &seen),
        ),
        ("cmi.core.lesson_location".to_string(), n.to_string()),
        (
            "cmi.core.lesson_status".to_string(),
            scorm::lesson_status(&seen).to_string(),
        ),
    ];
    (
        seen.iter().filter(|s| **s).count(),
        lms::report(&values).err(),
    )
}

#[function_component(LessonView)]
pub fn lesson_view(props: &ViewProps) -> Html {
    let render = use_view_renderer();
    let s = &props.settings;
    let n = clamp(s.lesson);
    let total = STEPS.len();
    let current = step(n);
    let go = |m: usize| {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::GoToStep(m)))
    };
    // At the first step Back stays focusable but does nothing (a disabled button would drop
    // keyboard focus to the page).
    let back = if n > 1 { go(n - 1) } else { Callback::noop() };
    let to_quiz = {
        let cb = props.on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::SetView(View::Quiz)))
    };
    // In a package that launches the lesson: a returning learner opens where they were, and
    // the LMS hears of every step seen.
    let in_lms = lms::mode() == Some(Mode::Lesson);
    let seen = use_state(|| 0usize);
    let problem = use_state(|| None::<String>);
    {
        let cb = props.on_action.clone();
        use_effect_with((), move |_| {
            if in_lms && lms::take_resume() {
                let kept = lms::suspend_data().and_then(|t| scorm::read_lesson_suspend(&t));
                if let Some((m, _)) = kept.filter(|(m, _)| *m != n) {
                    PASSING.set(Some(n));
                    cb.emit(Action::GoToStep(m));
                }
            }
        });
    }
    {
        let (seen, problem) = (seen.clone(), problem.clone());
        use_effect_with(n, move |n| {
            if in_lms && lms::active() && PASSING.take() != Some(*n) {
                let (count, refused) = tell_lms(*n);
                seen.set(count);
                problem.set(refused);
            }
        });
    }
    let steps = STEPS
        .iter()
        .enumerate()
        .map(|(i, st)| StepItem {
            label: format!("Step {}: {}", i + 1, st.title),
            state: if i + 1 < n { "lesson-step-done" } else { "" },
            title: Some(st.title),
        })
        .collect();
    html! {
        <>
            <section class="panel lesson" aria-labelledby="lesson-title">
                <div class="lesson-head">
                    <p class="lesson-count" id="lesson-count">{ format!("Lesson · step {n} of {total}") }</p>
                    <progress class="lesson-progress" max={total.to_string()} value={n.to_string()}
                        aria-labelledby="lesson-count" />
                </div>
                <h2 id="lesson-title">{ current.title }</h2>
                <p class="lesson-text">{ current.text(s) }</p>
                <p class="lesson-try"><strong>{ "Try this: " }</strong>{ current.try_this }</p>
                <div class="lesson-nav">
                    <button type="button" class="button" id="lesson-back" aria-disabled={(n == 1).then_some("true")} onclick={back}>
                        { "← Back" }
                    </button>
                    if n < total {
                        <button type="button" class="button button-primary" id="lesson-next" onclick={go(n + 1)}>
                            { "Next →" }
                        </button>
                    } else {
                        <button type="button" class="button button-primary" id="lesson-quiz" onclick={to_quiz}>
                            { "Take the quiz →" }
                        </button>
                    }
                    <button type="button" class="button" id="lesson-reset" onclick={go(n)}
                        title="Put the view and sliders back as this step set them">
                        { "Reset this step" }
                    </button>
                    if current.view == View::Attention || n == total {
                        <button type="button" class="button" id="lesson-train"
                            onclick={super::attention::to_train(&props.on_action)}>
                            { "Train it yourself →" }
                        </button>
                    }
                    <a class="lesson-link" href={browser::link(&format!("lesson={n}"))} target="_blank" rel="noopener">
                        { "Link to this step" }
                    </a>
                </div>
                if let Some(p) = (*problem).clone().or_else(lms::ended) {
                    <p class="quiz-lms-problem" role="alert" id="lesson-lms-problem">{ p }</p>
                } else if in_lms && lms::reviewing() {
                    <p class="muted small" id="lesson-lms">{ "Your course opened this lesson to review it: nothing is recorded." }</p>
                } else if in_lms {
                    <p class="muted small" id="lesson-lms">
                        { format!("Your course records the lesson as complete once you have seen every step: {} of {total} so far.", *seen) }
                    </p>
                }
                { step_list("Lesson steps", "", steps, n, go) }
            </section>
            <div class="lesson-view" data-step={n.to_string()} data-view={current.view.id()}>
                { render(current.view, ViewProps { settings: s.clone(), on_action: props.on_action.clone() }) }
            </div>
        </>
    }
}
