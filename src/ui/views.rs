//! The tabs' registry: which component draws each view. Above every view file; the page (`app`,
//! `embedded`) draws through it, and hands it down as a [`super::props::ViewRenderer`].

use yew::prelude::*;

use super::addition::AdditionView;
use super::attention::AttentionView;
use super::compare::CompareView;
use super::lesson::LessonView;
use super::norms::NormsView;
use super::patches::PatchesView;
use super::props::ViewProps;
use super::quiz::QuizView;
use super::remote::RemoteView;
use super::rotations::RotationsView;
use super::schemes::{DistanceView, MatrixView};
use super::train::TrainView;
use super::waves::WavesView;
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
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Matrix => html! { <MatrixView {settings} {on_action} /> },
        View::Attention => html! { <AttentionView {settings} {on_action} /> },
        View::Patches => html! {},
        View::Offsets => html! { <DistanceView {settings} {on_action} /> },
        View::Waves => html! { <WavesView {settings} {on_action} /> },
        View::Rotations => html! { <RotationsView {settings} {on_action} /> },
        View::Norms => html! { <NormsView {settings} {on_action} /> },
        View::Addition => html! { <AdditionView {settings} {on_action} /> },
        View::Compare => html! { <CompareView {settings} {on_action} /> },
        View::Lesson => html! { <LessonView {settings} {on_action} /> },
        View::Quiz => html! { <QuizView {settings} {on_action} /> },
        View::Train => html! {},
    }
}
