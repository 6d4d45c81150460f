//! The tabs' registry: which component draws each view. Above every view file; the page (`app`,
//! `embedded`) draws through it, and hands it down as a [`super::props::ViewRenderer`].

use yew::prelude::*;

use super::lazy;
use super::props::ViewProps;
use super::schemes::MatrixView;
use super::train::TrainView;
use crate::state::View;

/// The shell's registry: the view component for a tab, or, for a lazy view, the component that
/// draws it from its chunk in the build the site serves ([`super::lazy`]).
pub fn view_html(view: View, props: ViewProps) -> Html {
    if lazy::holds(view) {
        return lazy::draw(view, props);
    }
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Matrix => html! { <MatrixView {settings} {on_action} /> },
        // Every other view is lazy.
        _ => html! {},
    }
}

/// Every view drawn at once, the Train view reading the run held around the pages (the app in
/// one module, and tests that mount the app).
pub fn every_view_html(view: View, props: ViewProps) -> Html {
    match view {
        View::Train => html! { <TrainView ..props /> },
        _ => view_html(view, props),
    }
}
