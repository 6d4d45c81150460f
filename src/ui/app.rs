//! The page: header, the settings sidebar, the tabs and the view they select.

use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::addition::AdditionView;
use super::attention::AttentionView;
use super::compare::CompareView;
use super::norms::NormsView;
use super::rotations::RotationsView;
use super::schemes::{DistanceView, MatrixView};
use super::settings::SettingsPanel;
use super::waves::WavesView;
use crate::state::{Action, Settings, View};

/// What every view receives: the settings and a way to change them.
#[derive(Properties, PartialEq)]
pub struct ViewProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
}

/// The view component for a tab.
pub fn view_html(view: View, props: ViewProps) -> Html {
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Matrix => html! { <MatrixView {settings} {on_action} /> },
        View::Attention => html! { <AttentionView {settings} {on_action} /> },
        View::Offsets => html! { <DistanceView {settings} {on_action} /> },
        View::Waves => html! { <WavesView {settings} {on_action} /> },
        View::Rotations => html! { <RotationsView {settings} {on_action} /> },
        View::Norms => html! { <NormsView {settings} {on_action} /> },
        View::Addition => html! { <AdditionView {settings} {on_action} /> },
        View::Compare => html! { <CompareView {settings} {on_action} /> },
    }
}

#[function_component(App)]
pub fn app() -> Html {
    let settings = use_reducer(Settings::default);
    let on_action = {
        let settings = settings.clone();
        Callback::from(move |a: Action| settings.dispatch(a))
    };
    let current = settings.view;
    html! {
        <div class="app">
            <header class="site-header">
                <div class="brand">
                    <h1>{ "Positional Encoding Explorer" }</h1>
                    <p class="tagline">
                        { "How a transformer knows where each token sits, computed live in your browser." }
                    </p>
                </div>
            </header>
            <div class="layout">
                <aside class="sidebar" aria-label="Settings">
                    <SettingsPanel settings={(*settings).clone()} on_action={on_action.clone()} />
                </aside>
                <main class="content" id="main">
                    <Tabs current={current} on_action={on_action.clone()} />
                    <div class="tab-panel" role="tabpanel" id={format!("panel-{}", current.id())}
                        aria-labelledby={format!("tab-{}", current.id())}>
                        { view_html(current, ViewProps { settings: (*settings).clone(), on_action }) }
                    </div>
                </main>
            </div>
            <footer class="site-footer">
                <p>{ "Every number on this page is computed in your browser by the app's own Rust code (compiled to WebAssembly); nothing is sent anywhere." }</p>
            </footer>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct TabsProps {
    current: View,
    on_action: Callback<Action>,
}

/// The view tabs: click, or arrow keys / Home / End when a tab has focus.
#[function_component(Tabs)]
fn tabs(props: &TabsProps) -> Html {
    let on_key = {
        let (current, on_action) = (props.current, props.on_action.clone());
        Callback::from(move |e: KeyboardEvent| {
            let i = View::ALL.iter().position(|v| *v == current).unwrap_or(0);
            let n = View::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" => (i + 1) % n,
                "ArrowLeft" => (i + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            on_action.emit(Action::SetView(View::ALL[next]));
            focus_tab(View::ALL[next]);
        })
    };
    html! {
        <nav class="tabs" role="tablist" aria-label="Views" onkeydown={on_key}>
            { for View::ALL.iter().map(|&v| {
                let selected = v == props.current;
                let on_action = props.on_action.clone();
                html! {
                    <button
                        type="button"
                        role="tab"
                        id={format!("tab-{}", v.id())}
                        class={classes!("tab", selected.then_some("tab-selected"))}
                        aria-selected={selected.to_string()}
                        aria-controls={selected.then(|| format!("panel-{}", v.id()))}
                        tabindex={if selected { "0" } else { "-1" }}
                        onclick={Callback::from(move |_| on_action.emit(Action::SetView(v)))}
                    >
                        { v.label() }
                    </button>
                }
            }) }
        </nav>
    }
}

/// Moves keyboard focus to a tab once it has been rendered.
fn focus_tab(view: View) {
    let id = format!("tab-{}", view.id());
    let focus = wasm_bindgen::closure::Closure::once_into_js(move || {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
        {
            use wasm_bindgen::JsCast;
            if let Ok(el) = el.dyn_into::<web_sys::HtmlElement>() {
                let _ = el.focus();
            }
        }
    });
    if let Some(w) = web_sys::window() {
        use wasm_bindgen::JsCast;
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(focus.unchecked_ref(), 0);
    }
}
