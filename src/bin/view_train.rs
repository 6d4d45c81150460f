//! The Train view's module: tiny transformers trained in the page, fetched by the app when the
//! view first opens (see `ui::remote` for the shell's side, `ui::module` and `ui::train_module`
//! for this one). It keeps the training run between the view's visits.

use pe_explorer::state::View;
use pe_explorer::ui::module;
use pe_explorer::ui::props::{ViewProps, ViewRenderer};
use pe_explorer::ui::train_module::{self, ModuleTrainView};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

fn main() {
    pe_explorer::ui::browser::install_panic_hook();
}

/// The views this module draws.
fn views(view: View, props: ViewProps) -> Html {
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Train => html! { <ModuleTrainView {settings} {on_action} /> },
        _ => html! {},
    }
}

#[wasm_bindgen]
pub fn mount(
    element: web_sys::Element,
    view: &str,
    query: &str,
    dark: bool,
    send: js_sys::Function,
) -> u32 {
    module::mount(ViewRenderer(views), element, view, query, dark, send)
}

#[wasm_bindgen]
pub fn update(id: u32, query: &str, dark: bool) {
    module::update(id, query, dark);
}

#[wasm_bindgen]
pub fn unmount(id: u32) {
    module::unmount(id);
}

/// The CSV of a chart this module drew, for the app (the notebook widget's figures).
#[wasm_bindgen]
pub fn chart_csv(id: &str) -> Result<Vec<String>, String> {
    module::chart_file(id, false)
}

/// The PNG of a chart this module drew, for the app.
#[wasm_bindgen]
pub fn chart_png(id: &str) -> Result<Vec<String>, String> {
    module::chart_file(id, true)
}

/// The app's settings, whenever they change: the training run hears them between the view's
/// visits too.
#[wasm_bindgen]
pub fn settings(query: &str) {
    train_module::settings(query);
}
