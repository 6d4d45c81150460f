//! The tabs' registry: which component draws each view. Above every view file; the page (`app`,
//! `embedded`) draws through it, and hands it down as a [`super::props::ViewRenderer`].

use yew::prelude::*;

use super::lazy;
use super::patches::PatchesView;
use super::props::ViewProps;
use super::remote::RemoteView;
use super::schemes::MatrixView;
use super::train::TrainView;
use crate::state::View;

/// The shell's registry: the view component for a tab, or, for a view of a module of its own,
/// the component that fetches the module and has it draw the view ([`super::remote`]).
pub fn view_html(view: View, props: ViewProps) -> Html {
    if view.module().is_some() {
        let ViewProps {
            settings,
            on_action,
        } = props;
        // Keyed by view: two views of modules side by side in the tabs are two mounts.
        return html! { <RemoteView key={view.id()} {view} {settings} {on_action} /> };
    }
    shell_view_html(view, props)
}

/// Every view drawn here, the modules' too: for tests that mount the app in one module.
pub fn every_view_html(view: View, props: ViewProps) -> Html {
    match view {
        View::Patches => {
            html! { <PatchesView ..props /> }
        }
        View::Train => {
            html! { <TrainView ..props /> }
        }
        _ => shell_view_html(view, props),
    }
}

/// The views the shell draws itself (a view of a module draws nothing here).
fn shell_view_html(view: View, props: ViewProps) -> Html {
    // The views few pages open on: from chunks of their own in the build the site serves.
    if lazy::holds(view) {
        return lazy::draw(view, props);
    }
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Matrix => html! { <MatrixView {settings} {on_action} /> },
        // The rest: a module's (drawn by `RemoteView`) or a chunk's (by `lazy::draw`).
        _ => html! {},
    }
}
