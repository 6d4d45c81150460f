//! The Train view in its chunk of the shell (`ui::lazy`). The training run outlives the view:
//! leaving the tab leaves it training, and a change of settings anywhere ends a run that belongs
//! to the old ones. The shell holds no training code (it would carry the trainer's protocol and
//! the workers' driver), so the chunk holds the run in a root of its own, mounted with the first
//! view and kept for the page's life, which hears every change of the app's settings
//! ([`settings`], through `lazy::notify`) and sends its actions to the app (`props::to_app`);
//! each mounted view reads the run from it.

use std::cell::RefCell;

use yew::prelude::*;

use super::props::ViewProps;
use super::train::TrainView;
use super::train_session::{TrainHost, TrainSession};
use crate::state::Settings;

#[derive(Properties, PartialEq, Clone)]
struct HostProps {
    settings: Settings,
}

thread_local! {
    /// The run's root, once a view has opened.
    static HOST: RefCell<Option<(yew::AppHandle<Host>, HostProps)>> = const { RefCell::new(None) };
    /// The run as its root last published it, and the views that read it.
    static SESSION: RefCell<Option<TrainSession>> = const { RefCell::new(None) };
    static READERS: RefCell<Vec<(u32, Callback<()>)>> = const { RefCell::new(Vec::new()) };
    static NEXT_READER: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// The run's root: the app's `TrainHost`, its actions sent to the app.
#[function_component(Host)]
fn host(props: &HostProps) -> Html {
    let on_action = Callback::from(super::props::to_app);
    let message = AttrValue::from(props.settings.train_settings().to_message());
    html! {
        <TrainHost {message} {on_action}>
            <Publish />
        </TrainHost>
    }
}

/// Hands the run to the views whenever it changes.
#[function_component(Publish)]
fn publish() -> Html {
    let session = use_context::<TrainSession>();
    use_effect_with(session, |session| {
        SESSION.with(|s| *s.borrow_mut() = session.clone());
        let readers: Vec<Callback<()>> =
            READERS.with(|r| r.borrow().iter().map(|(_, c)| c.clone()).collect());
        for r in readers {
            r.emit(());
        }
    });
    html! {}
}

/// The app's settings now: the run's root hears them, if there is one.
pub fn settings(settings: Settings) {
    HOST.with(|h| {
        if let Some((handle, props)) = h.borrow_mut().as_mut() {
            if settings != props.settings {
                props.settings = settings;
                handle.update(props.clone());
            }
        }
    });
}

/// Mounts the run's root, once, in an element of its own that the page never shows.
fn ensure_host(settings: &Settings) {
    HOST.with(|h| {
        if h.borrow().is_some() {
            return;
        }
        let element = web_sys::window().and_then(|w| w.document()).and_then(|d| {
            let el = d.create_element("div").ok()?;
            el.set_attribute("hidden", "").ok()?;
            el.set_attribute("data-module", "train-run").ok()?;
            d.body()?.append_child(&el).ok()?;
            Some(el)
        });
        let Some(element) = element else { return };
        let props = HostProps {
            settings: settings.clone(),
        };
        let handle = yew::Renderer::<Host>::with_root_and_props(element, props.clone()).render();
        *h.borrow_mut() = Some((handle, props));
    });
}

/// The Train view with the module's run.
#[function_component(ModuleTrainView)]
pub fn module_train_view(props: &ViewProps) -> Html {
    let session = use_state(|| SESSION.with(|s| s.borrow().clone()));
    {
        let (session, settings) = (session.clone(), props.settings.clone());
        use_effect_with((), move |_| {
            ensure_host(&settings);
            let id = NEXT_READER.with(|n| {
                let id = n.get();
                n.set(id + 1);
                id
            });
            let reader = Callback::from(move |_| session.set(SESSION.with(|s| s.borrow().clone())));
            // The run may have been published before this view listened.
            reader.emit(());
            READERS.with(|r| r.borrow_mut().push((id, reader)));
            move || READERS.with(|r| r.borrow_mut().retain(|(i, _)| *i != id))
        });
    }
    match (*session).clone() {
        Some(s) => html! {
            <ContextProvider<TrainSession> context={s}>
                <TrainView settings={props.settings.clone()} on_action={props.on_action.clone()} />
            </ContextProvider<TrainSession>>
        },
        None => html! {},
    }
}
