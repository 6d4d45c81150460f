//! The guided lesson: one step at a time, its paragraph above the live view it sets up.

use yew::prelude::*;

use super::browser;
use super::controls::{step_list, StepItem};
use super::props::{use_view_renderer, ViewProps};
use crate::action::Action;
use crate::learn::lesson::{clamp, step, STEPS};
use crate::state::View;

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
                <p class="lesson-text">{ current.text }</p>
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
                { step_list("Lesson steps", "", steps, n, go) }
            </section>
            <div class="lesson-view" data-step={n.to_string()} data-view={current.view.id()}>
                { render(current.view, ViewProps { settings: s.clone(), on_action: props.on_action.clone() }) }
            </div>
        </>
    }
}
