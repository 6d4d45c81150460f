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
use super::rotations::RotationsView;
use super::schemes::{DistanceView, MatrixView};
use super::train::TrainView;
use super::waves::WavesView;
use crate::state::View;

/// The view component for a tab.
pub fn view_html(view: View, props: ViewProps) -> Html {
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Matrix => html! { <MatrixView {settings} {on_action} /> },
        View::Attention => html! { <AttentionView {settings} {on_action} /> },
        View::Patches => html! { <PatchesView {settings} {on_action} /> },
        View::Offsets => html! { <DistanceView {settings} {on_action} /> },
        View::Waves => html! { <WavesView {settings} {on_action} /> },
        View::Rotations => html! { <RotationsView {settings} {on_action} /> },
        View::Norms => html! { <NormsView {settings} {on_action} /> },
        View::Addition => html! { <AdditionView {settings} {on_action} /> },
        View::Compare => html! { <CompareView {settings} {on_action} /> },
        View::Lesson => html! { <LessonView {settings} {on_action} /> },
        View::Quiz => html! { <QuizView {settings} {on_action} /> },
        View::Train => html! { <TrainView {settings} {on_action} /> },
    }
}
