//! A view module's side of the boundary (the shell's is [`super::remote`]): the views a module
//! draws, mounted in an element the shell gives it, each a Yew app of its own that reads the
//! settings from the link's query and sends back what its view asks for.
//!
//! A module's binary (`src/bin/view_*.rs`) writes its exports with [`view_module_exports!`]: each
//! calls the function here of the same name, with the module's own registry of views.

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::JsValue;
use web_sys::Element;
use yew::prelude::*;

use super::props::{ViewProps, ViewRenderer};
use crate::action::Action;
use crate::plot::frame::Theme;
use crate::state::{Settings, View};
use crate::url;

/// What the shell gave a mount, and the way back to it.
#[derive(Properties, Clone)]
pub struct RootProps {
    pub view: View,
    pub settings: Settings,
    pub dark: bool,
    pub registry: ViewRenderer,
    pub send: js_sys::Function,
}

impl PartialEq for RootProps {
    fn eq(&self, other: &RootProps) -> bool {
        self.view == other.view
            && self.settings == other.settings
            && self.dark == other.dark
            && self.send == other.send
    }
}

/// Sends a message to the shell (see [`super::remote::read_message`]).
fn send(to: &js_sys::Function, kind: &str, value: &str) {
    let _ = to.call2(
        &JsValue::NULL,
        &JsValue::from_str(kind),
        &JsValue::from_str(value),
    );
}

/// Sends a message to the app from outside any mounted view (see [`super::remote::listen`]);
/// nothing where there is no app to hear it.
pub fn to_shell(kind: &str, value: &str) {
    if let Some(f) = super::browser::view_loader_fn("shell") {
        send(&f, kind, value);
    }
}

/// A view module's start (its binary's `main`): its panics reported as the app's are, and its
/// files saved through the app, which knows whether the frame's sandbox lets them through and
/// offers the way out when it may not.
pub fn start() {
    super::browser::install_panic_hook();
    super::browser::save_through_app();
}

/// One mounted view: its theme, and its actions turned into messages for the shell.
#[function_component(Root)]
fn root(props: &RootProps) -> Html {
    // Actions emitted before the shell's answer arrives build on each other, as the shell's
    // reducer would have applied them (cleared at every render: the shell's settings are then
    // the latest).
    let pending = use_mut_ref(|| None::<Rc<Settings>>);
    *pending.borrow_mut() = None;
    let on_action = {
        let (to, settings) = (props.send.clone(), props.settings.clone());
        Callback::from(move |a: Action| match a {
            Action::SetView(v) => send(&to, "view", v.id()),
            Action::PickScheme(s) => send(&to, "pick", s.id()),
            a => {
                let current = pending
                    .borrow()
                    .clone()
                    .unwrap_or_else(|| Rc::new(settings.clone()));
                let next = yew::Reducible::reduce(current, a);
                send(&to, "settings", &url::to_query(&next, None));
                *pending.borrow_mut() = Some(next);
            }
        })
    };
    // The first render is on the page, charts drawn (effects run after the children's): the
    // app may take over from the first paint.
    {
        let to = props.send.clone();
        use_effect_with((), move |_| send(&to, "drawn", ""));
    }
    let theme = if props.dark {
        Theme::DARK
    } else {
        Theme::LIGHT
    };
    html! {
        <ContextProvider<Theme> context={theme}>
        <ContextProvider<ViewRenderer> context={props.registry}>
            { (props.registry.0)(props.view, ViewProps { settings: props.settings.clone(), on_action }) }
        </ContextProvider<ViewRenderer>>
        </ContextProvider<Theme>>
    }
}

/// A mounted view: its app and the props it was last drawn with.
type Mount = (yew::AppHandle<Root>, RootProps);

thread_local! {
    /// The module's mounts, by id (a slot is emptied when its view closes).
    static MOUNTS: RefCell<Vec<Option<Mount>>> =
        const { RefCell::new(Vec::new()) };
}

/// Mounts `view` in `element` with the settings of `query`; the id for [`update`] and
/// [`unmount`]. A view this module does not draw, or a query that does not read, draws what the
/// registry gives for it (nothing) rather than failing: the shell never asks for one.
pub fn mount(
    registry: ViewRenderer,
    element: Element,
    view: &str,
    query: &str,
    dark: bool,
    to: js_sys::Function,
) -> u32 {
    let props = RootProps {
        view: View::from_id(view).unwrap_or_default(),
        settings: url::parse_whole(query).settings,
        dark,
        registry,
        send: to,
    };
    let handle = yew::Renderer::<Root>::with_root_and_props(element, props.clone()).render();
    MOUNTS.with(|m| {
        let mut m = m.borrow_mut();
        let free = m.iter().position(Option::is_none);
        let slot = Some((handle, props));
        match free {
            Some(i) => {
                m[i] = slot;
                i as u32
            }
            None => {
                m.push(slot);
                (m.len() - 1) as u32
            }
        }
    })
}

/// Draws mount `id` with new settings or colours (an unknown id is ignored).
pub fn update(id: u32, query: &str, dark: bool) {
    MOUNTS.with(|m| {
        if let Some(Some((handle, props))) = m.borrow_mut().get_mut(id as usize) {
            let settings = url::parse_whole(query).settings;
            if settings != props.settings || dark != props.dark {
                props.settings = settings;
                props.dark = dark;
                handle.update(props.clone());
            }
        }
    });
}

/// Removes mount `id` from the page (an unknown id is ignored).
pub fn unmount(id: u32) {
    let taken = MOUNTS.with(|m| m.borrow_mut().get_mut(id as usize).and_then(Option::take));
    if let Some((handle, _)) = taken {
        handle.destroy();
    }
}

/// A chart's file for the app (a module's `chart_csv` and `chart_png` exports, asked by
/// `remote::chart_file`): [file name, text or `data:` address].
pub fn chart_file(id: &str, png: bool) -> Result<Vec<String>, String> {
    let (name, body) = if png {
        super::chart::chart_png(id)?
    } else {
        super::chart::chart_csv(id)?
    };
    Ok(vec![name, body])
}

/// The exports every view module's binary has (`mount`, `update`, `unmount`, `chart_csv`,
/// `chart_png`; see `ui::remote`), drawing with `$views`, the module's registry
/// (`fn(View, ViewProps) -> Html`).
#[macro_export]
macro_rules! view_module_exports {
    ($views:path) => {
        /// Draws `view` in `element` with the settings of the link query `query`; its mount's id.
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn mount(
            element: ::web_sys::Element,
            view: &str,
            query: &str,
            dark: bool,
            send: ::js_sys::Function,
        ) -> u32 {
            $crate::ui::module::mount(
                $crate::ui::props::ViewRenderer($views),
                element,
                view,
                query,
                dark,
                send,
            )
        }

        /// Draws mount `id` with new settings or colours.
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn update(id: u32, query: &str, dark: bool) {
            $crate::ui::module::update(id, query, dark);
        }

        /// Removes mount `id` from the page.
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn unmount(id: u32) {
            $crate::ui::module::unmount(id);
        }

        /// The CSV of a chart this module drew, for the app (the notebook widget's figures).
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn chart_csv(id: &str) -> Result<Vec<String>, String> {
            $crate::ui::module::chart_file(id, false)
        }

        /// The PNG of a chart this module drew, for the app.
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn chart_png(id: &str) -> Result<Vec<String>, String> {
            $crate::ui::module::chart_file(id, true)
        }
    };
}
