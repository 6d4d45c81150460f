//! The page: read the settings from the address, keep the address in step with them, and show
//! either the whole app (header, settings, tabs) or, embedded, one panel that sizes itself.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::KeyboardEvent;
use yew::prelude::*;

use super::browser;
use super::embedded::{use_main_chart, EmbedPage};
use super::host::use_host;
use super::phone::{use_media, use_sheet, Place, QuickStrip, SettingsSheet, PHONE};
use super::props::{use_view_renderer, ViewProps, ViewRenderer};
use super::share::Share;
use super::sources::SourcesBlock;
use super::train_session::TrainHost;
use crate::action::Action;
use crate::plot::frame::Theme;
use crate::state::{Settings, ThemeChoice, View};
use crate::url;

/// A window event and its listener.
type Listener = (&'static str, Closure<dyn FnMut()>);

/// Whether the page is being printed (charts are drawn light for paper).
#[hook]
fn use_printing() -> bool {
    let printing = use_state(|| false);
    {
        let printing = printing.clone();
        use_effect_with((), move |_| {
            let window = web_sys::window();
            let listeners: Vec<Listener> = [("beforeprint", true), ("afterprint", false)]
                .into_iter()
                .map(|(event, on)| {
                    let printing = printing.clone();
                    (
                        event,
                        Closure::<dyn FnMut()>::new(move || {
                            // Every chart on paper: those far down are drawn now.
                            if on {
                                browser::draw_all_later();
                            }
                            printing.set(on)
                        }),
                    )
                })
                .collect();
            if let Some(w) = &window {
                for (event, l) in &listeners {
                    let _ = w.add_event_listener_with_callback(event, l.as_ref().unchecked_ref());
                }
            }
            move || {
                if let Some(w) = window {
                    for (event, l) in &listeners {
                        let _ = w
                            .remove_event_listener_with_callback(event, l.as_ref().unchecked_ref());
                    }
                }
            }
        });
    }
    *printing
}

/// Mounts the app in a root of its own at the end of the page's body (`display: contents`, so the
/// layout is the body's): Yew empties the element it mounts in, and the first paint's page (with
/// the focus a student may have put on its slider) must stay until the app has drawn its own.
pub fn start() {
    // The shell: its lazy views are drawn from chunks, fetched when first opened or when the
    // page is idle.
    mount(AppProps {
        registry: ViewRenderer(super::views::view_html),
        chunks: true,
        run: None,
    });
    super::lazy::prefetch();
}

/// Mounts the app with `props` (see [`start`]).
fn mount(props: AppProps) {
    browser::install_panic_hook();
    // A SCORM package's launch: the LMS session starts before the first render, so the views
    // read what the LMS kept for a learner who comes back.
    super::lms::connect(&url::parse(&browser::query()));
    let root = web_sys::window().and_then(|w| w.document()).and_then(|d| {
        let root = d.create_element("div").ok()?;
        root.set_id("app-root");
        let _ = root.set_attribute("style", "display: contents");
        d.body()?.append_child(&root).ok()?;
        Some(root)
    });
    match root {
        Some(root) => yew::Renderer::<App>::with_root_and_props(root, props).render(),
        None => yew::Renderer::<App>::with_props(props).render(),
    };
}

/// The app module's exports (the side-by-side benchmark's and the abuse test's), written into
/// each binary that is the app: `src/main.rs` and `src/bin/whole.rs`.
#[macro_export]
macro_rules! app_exports {
    () => {
        /// The sinusoidal matrix computed by the app's own code, for the side-by-side benchmark.
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn bench_sinusoidal(length: usize, d_model: usize, base: f64) -> f64 {
            $crate::bench::sinusoidal_checksum(length.min(1 << 16), d_model.min(4096), base)
        }

        /// Bytes of linear memory the module holds now (the abuse test reports it; it never shrinks).
        #[::wasm_bindgen::prelude::wasm_bindgen]
        pub fn wasm_memory_bytes() -> f64 {
            #[cfg(target_arch = "wasm32")]
            {
                (core::arch::wasm32::memory_size(0) * 65_536) as f64
            }
            #[cfg(not(target_arch = "wasm32"))]
            {
                0.0
            }
        }
    };
}

/// The app in one module, every view drawn by it (the single file and the notebook widget,
/// which carry every file inside the page: chunks there would only add files).
pub fn start_whole() {
    mount(AppProps::default());
}

/// Which views the page draws with: the shell's registry, whose lazy views are drawn from
/// chunks, or (the default, for tests that mount the app) every view drawn at once.
#[derive(Properties)]
pub struct AppProps {
    pub registry: ViewRenderer,
    /// Whether lazy views are drawn from chunks (the registry is the shell's; `ui::lazy`).
    pub chunks: bool,
    /// What holds the training run around the pages, where the Train view is drawn at once
    /// (the Train view's chunk holds its own).
    pub run: Option<RunHolder>,
}

/// Wraps the pages in what holds the training run: the experiment's message, the way to the
/// settings, the pages.
pub type RunHolder = fn(AttrValue, Callback<Action>, Html) -> Html;

/// The training run held around the pages (see [`AppProps::run`]).
fn hold_run(message: AttrValue, on_action: Callback<Action>, children: Html) -> Html {
    html! { <TrainHost {message} {on_action}>{ children }</TrainHost> }
}

impl PartialEq for AppProps {
    /// The app is mounted once, with props that never change.
    fn eq(&self, other: &AppProps) -> bool {
        self.chunks == other.chunks && self.run.is_some() == other.run.is_some()
    }
}

impl Default for AppProps {
    fn default() -> AppProps {
        AppProps {
            registry: ViewRenderer(super::views::every_view_html),
            chunks: false,
            run: Some(hold_run),
        }
    }
}

#[function_component(App)]
pub fn app(props: &AppProps) -> Html {
    let start = use_memo((), |_| url::parse(&browser::query()));
    let settings = {
        let s = start.settings.clone();
        use_reducer(move || s)
    };
    let notices = use_state(|| start.notices.clone());
    // A notebook widget can open another view; everywhere else the embed is the link's.
    let embed_state = use_state(|| start.embed.clone());
    super::notebook::use_notebook(settings.clone(), notices.clone(), embed_state.clone());
    let embed = (*embed_state).clone();
    let on_action = {
        let settings = settings.clone();
        Callback::from(move |a: Action| settings.dispatch(a))
    };

    // Keep the address in step with the settings, so every state is a link.
    {
        let embed = embed.clone();
        use_effect_with((*settings).clone(), move |s| {
            let query = url::to_link(s, embed.as_ref()).query;
            // A package's launch parameters stay, so a reload inside the LMS is still one.
            match super::lms::link_params() {
                Some(lms) if query.is_empty() => browser::replace_query(&lms),
                Some(lms) => browser::replace_query(&format!("{query}&{lms}")),
                None => browser::replace_query(&query),
            }
        });
    }

    // Whether the system asks for dark colours, following changes.
    let system_dark = use_media(browser::DARK);
    let host = use_host();
    let printing = use_printing();
    let dark = settings.theme.is_dark(system_dark, host.dark) && !printing;
    use_effect_with(dark, |dark| {
        browser::set_root_attribute("data-theme", if *dark { "dark" } else { "light" });
    });
    let theme = if dark { Theme::DARK } else { Theme::LIGHT };
    // The first paint's page goes once this one (and its chart) has been drawn: effects
    // run after the children's, in the same task (`browser::hand_over`). A view drawn from a
    // chunk hands over once drawn (`lazy`).
    let shown = match &embed {
        Some(e) => e.view,
        None => settings.view,
    };
    // The lesson shows its step's view.
    let first_view = match shown {
        View::Lesson => crate::learn::lesson::step(settings.lesson).view,
        v => v,
    };
    let waits = props.chunks && (super::lazy::is_lazy(first_view) || super::lazy::is_lazy(shown));
    use_effect_with((), move |_| {
        if !waits {
            browser::hand_over();
        } else if let Some(w) = web_sys::window() {
            // However the view's chunk fares (the student opened another tab before it came),
            // the first paint's page goes within 15 s.
            let later = Closure::once_into_js(browser::hand_over);
            let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                later.unchecked_ref(),
                15_000,
            );
        }
    });
    let on_dismiss = {
        let notices = notices.clone();
        Callback::from(move |_: MouseEvent| notices.set(Vec::new()))
    };
    let banner = html! { <Notices notices={(*notices).clone()} on_dismiss={on_dismiss} /> };

    // The Train view's chunk, whose run outlives the view, sends its actions here and hears
    // every change.
    let chunks = props.chunks;
    {
        let on_action = on_action.clone();
        use_effect_with((), move |_| {
            if chunks {
                super::props::listen_app(on_action);
            }
        });
    }
    use_effect_with((*settings).clone(), move |s| {
        if chunks {
            super::lazy::notify(s);
        }
    });

    let pages = html! {
        if let Some(e) = embed {
            <EmbedPage settings={(*settings).clone()} on_action={on_action.clone()} embed={e} {banner} {host} />
        } else {
            <FullPage settings={(*settings).clone()} on_action={on_action.clone()} {banner} />
        }
    };
    let pages = match props.run {
        Some(hold) => hold(
            AttrValue::from(settings.train_settings().to_message()),
            on_action,
            pages,
        ),
        None => pages,
    };
    html! {
        <ContextProvider<Theme> context={theme}>
        <ContextProvider<ViewRenderer> context={props.registry}>
            { pages }
        </ContextProvider<ViewRenderer>>
        </ContextProvider<Theme>>
    }
}

#[derive(Properties, PartialEq)]
struct NoticesProps {
    notices: Vec<String>,
    on_dismiss: Callback<MouseEvent>,
}

/// What the address asked for that could not be done as asked, in plain words (as text: nothing
/// from the address is ever inserted as markup).
#[function_component(Notices)]
fn notices(props: &NoticesProps) -> Html {
    if props.notices.is_empty() {
        return html! {};
    }
    html! {
        <div class="notices" role="status">
            <p class="notices-title">{ "Some settings in the link were changed:" }</p>
            <ul>
                { for props.notices.iter().map(|n| html! { <li>{ crate::format::escape_controls(n) }</li> }) }
            </ul>
            <button type="button" class="button button-small" onclick={props.on_dismiss.clone()}>
                { "Dismiss" }
            </button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct PageProps {
    settings: Settings,
    on_action: Callback<Action>,
    banner: Html,
}

#[function_component(FullPage)]
fn full_page(props: &PageProps) -> Html {
    let current = props.settings.view;
    let view_html = use_view_renderer();
    let phone = use_media(PHONE);
    let (open, show, hide) = use_sheet();
    let panel = use_node_ref();
    use_main_chart(panel.clone(), None);
    html! {
        <div class="app">
            <a class="skip-link" href="#main">{ "Skip to the charts" }</a>
            <header class="site-header">
                <div class="brand">
                    <h1>{ "Positional Encoding Explorer" }</h1>
                    <p class="tagline">
                        { "How a transformer knows where each token sits, computed live in your browser." }
                    </p>
                </div>
                <div class="header-tools">
                    <Share settings={props.settings.clone()} />
                    <ThemeSwitch theme={props.settings.theme} on_action={props.on_action.clone()} />
                </div>
                // What the address, Copy link and the embed code leave out, if anything.
                if let Some(note) = url::left_out_note(&url::to_link(&props.settings, None).left_out) {
                    <p class="note note-info link-note" id="link-note" role="status">{ note }</p>
                }
            </header>
            { props.banner.clone() }
            <div class="layout">
                <SettingsSheet settings={props.settings.clone()} on_action={props.on_action.clone()}
                    place={if phone { Place::Screen } else { Place::Side }} open={open} on_close={hide} />
                <main class="content" id="main" tabindex="-1">
                    <Tabs current={current} on_action={props.on_action.clone()} />
                    <div class="tab-panel" role="tabpanel" id={format!("panel-{}", current.id())}
                        aria-labelledby={format!("tab-{}", current.id())} ref={panel}>
                        { view_html(current, ViewProps { settings: props.settings.clone(), on_action: props.on_action.clone() }) }
                        <SourcesBlock view={current} lesson={props.settings.lesson} scheme={props.settings.scheme} />
                    </div>
                </main>
            </div>
            <footer class="site-footer">
                <p>{ "Every number on this page is computed in your browser by the app's own Rust code (compiled to WebAssembly); nothing is sent anywhere." }</p>
                <p class="print-only">{ format!("Live at {}", browser::link(&url::whole_app_link(&props.settings).query)) }</p>
            </footer>
            if phone {
                <QuickStrip settings={props.settings.clone()} on_action={props.on_action.clone()}
                    on_settings={show} expanded={open} />
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ThemeProps {
    theme: ThemeChoice,
    on_action: Callback<Action>,
}

/// System / Light / Dark.
#[function_component(ThemeSwitch)]
fn theme_switch(props: &ThemeProps) -> Html {
    html! {
        <div class="theme-switch" role="group" aria-label="Colour theme">
            { for ThemeChoice::SWITCH.iter().map(|&t| {
                let cb = props.on_action.clone();
                let on = t == props.theme;
                html! {
                    <button type="button" class={classes!("button", "button-small", on.then_some("button-active"))}
                        aria-pressed={on.to_string()}
                        onclick={Callback::from(move |_| cb.emit(Action::SetTheme(t)))}>
                        { t.label() }
                    </button>
                }
            }) }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct TabsProps {
    current: View,
    on_action: Callback<Action>,
}

/// The view tabs: click, or arrow keys / Home / End when a tab has focus.
#[function_component(Tabs)]
fn tabs(props: &TabsProps) -> Html {
    let on_key = {
        let (current, on_action) = (props.current, props.on_action.clone());
        Callback::from(move |e: KeyboardEvent| {
            let i = View::ALL.iter().position(|v| *v == current).unwrap_or(0);
            let n = View::ALL.len();
            let next = match e.key().as_str() {
                "ArrowRight" => (i + 1) % n,
                "ArrowLeft" => (i + n - 1) % n,
                "Home" => 0,
                "End" => n - 1,
                _ => return,
            };
            e.prevent_default();
            on_action.emit(Action::SetView(View::ALL[next]));
            browser::focus_later(format!("tab-{}", View::ALL[next].id()));
        })
    };
    html! {
        <nav class="tabs" role="tablist" aria-label="Views" onkeydown={on_key}>
            { for View::ALL.iter().map(|&v| {
                let selected = v == props.current;
                let on_action = props.on_action.clone();
                html! {
                    <button
                        type="button"
                        role="tab"
                        id={format!("tab-{}", v.id())}
                        class={classes!("tab", selected.then_some("tab-selected"))}
                        aria-selected={selected.to_string()}
                        aria-controls={selected.then(|| format!("panel-{}", v.id()))}
                        tabindex={if selected { "0" } else { "-1" }}
                        onclick={Callback::from(move |_| on_action.emit(Action::SetView(v)))}
                    >
                        { v.label() }
                    </button>
                }
            }) }
        </nav>
    }
}
