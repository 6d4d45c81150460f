//! What every view receives, and the one way a view draws another: the floor every view file
//! stands on, below the tab registry (`views`) and the page (`app`).

use std::cell::RefCell;

use yew::prelude::*;

use crate::action::Action;
use crate::state::{Settings, View};

/// What every view receives: the settings and a way to change them.
#[derive(Properties, PartialEq, Clone)]
pub struct ViewProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
}

/// Draws any view: the tab registry's `views::view_html`, handed down as a context so that the
/// lesson and the quiz can show the view a step asks for without importing the registry that
/// lists them.
#[derive(Clone, Copy)]
pub struct ViewRenderer(pub fn(View, ViewProps) -> Html);

impl PartialEq for ViewRenderer {
    /// There is one registry: any two are the same.
    fn eq(&self, _: &ViewRenderer) -> bool {
        true
    }
}

/// Draws `view` with `props` through the registry above (nothing outside an app page).
#[hook]
pub fn use_view_renderer() -> impl Fn(View, ViewProps) -> Html {
    let renderer = use_context::<ViewRenderer>();
    move |view, props| renderer.map(|r| (r.0)(view, props)).unwrap_or_default()
}

thread_local! {
    /// The app's way to its reducer, for what lives outside its tree of components (the Train
    /// view's run, which its chunk mounts in a root of its own: `train_module`).
    static TO_APP: RefCell<Option<Callback<Action>>> = const { RefCell::new(None) };
}

/// Gives what lives outside the app's tree the app's way to its reducer (the app calls it).
pub fn listen_app(on_action: Callback<Action>) {
    TO_APP.with(|t| *t.borrow_mut() = Some(on_action));
}

/// Sends `action` to the app, if one listens.
pub fn to_app(action: Action) {
    let to = TO_APP.with(|t| t.borrow().clone());
    if let Some(to) = to {
        to.emit(action);
    }
}
