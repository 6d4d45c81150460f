//! The Train view's module: tiny transformers trained in the page, fetched by the app when the
//! view first opens (see `ui::remote` for the shell's side, `ui::module` and `ui::train_module`
//! for this one). It keeps the training run between the view's visits.

use pe_explorer::state::View;
use pe_explorer::ui::props::ViewProps;
use pe_explorer::ui::train_module::{self, ModuleTrainView};
use wasm_bindgen::prelude::*;
use yew::prelude::*;

fn main() {
    pe_explorer::ui::module::start();
}

/// The views this module draws.
fn views(view: View, props: ViewProps) -> Html {
    match view {
        View::Train => html! { <ModuleTrainView ..props /> },
        _ => html! {},
    }
}

pe_explorer::view_module_exports!(views);

/// The app's settings, whenever they change: the training run hears them between the view's
/// visits too.
#[wasm_bindgen]
pub fn settings(query: &str) {
    train_module::settings(query);
}
