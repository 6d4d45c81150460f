//! The Image patches view's module: the 2-D and multimodal schemes' view, fetched by the app
//! when the view first opens (see `ui::remote` for the shell's side, `ui::module` for this one).

use pe_explorer::state::View;
use pe_explorer::ui::patches::PatchesView;
use pe_explorer::ui::props::ViewProps;
use yew::prelude::*;

fn main() {
    pe_explorer::ui::module::start();
}

/// The views this module draws.
fn views(view: View, props: ViewProps) -> Html {
    match view {
        View::Patches => html! { <PatchesView ..props /> },
        _ => html! {},
    }
}

pe_explorer::view_module_exports!(views);
