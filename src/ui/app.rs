//! The page: header, the settings sidebar and the views.

use yew::prelude::*;

use super::encoding::EncodingView;
use super::settings::SettingsPanel;
use crate::state::{Action, Settings};

#[function_component(App)]
pub fn app() -> Html {
    let settings = use_reducer(Settings::default);
    let on_action = {
        let settings = settings.clone();
        Callback::from(move |a: Action| settings.dispatch(a))
    };
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
                    <SettingsPanel settings={(*settings).clone()} on_action={on_action} />
                </aside>
                <main class="content" id="main">
                    <EncodingView settings={(*settings).clone()} />
                </main>
            </div>
            <footer class="site-footer">
                <p>{ "Every number on this page is computed in your browser by the app's own Rust code (compiled to WebAssembly); nothing is sent anywhere." }</p>
            </footer>
        </div>
    }
}
