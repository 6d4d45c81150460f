//! The page: read the settings from the address, keep the address in step with them, and show
//! either the whole app (header, settings, tabs) or, embedded, one panel that sizes itself.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlElement, KeyboardEvent, ResizeObserver};
use yew::prelude::*;

use super::addition::AdditionView;
use super::attention::AttentionView;
use super::browser;
use super::compare::CompareView;
use super::lesson::LessonView;
use super::norms::NormsView;
use super::phone::{use_media, QuickStrip, PHONE};
use super::quiz::QuizView;
use super::rotations::RotationsView;
use super::schemes::{DistanceView, MatrixView};
use super::settings::SettingsPanel;
use super::train::TrainView;
use super::train_session::TrainHost;
use super::waves::WavesView;
use crate::action::Action;
use crate::plot::frame::Theme;
use crate::state::{Settings, ThemeChoice, View};
use crate::url::{self, Embed};

/// What every view receives: the settings and a way to change them.
#[derive(Properties, PartialEq, Clone)]
pub struct ViewProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
}

/// The view component for a tab.
pub fn view_html(view: View, props: ViewProps) -> Html {
    let ViewProps {
        settings,
        on_action,
    } = props;
    match view {
        View::Matrix => html! { <MatrixView {settings} {on_action} /> },
        View::Attention => html! { <AttentionView {settings} {on_action} /> },
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

/// Whether the system asks for dark colours, following changes.
#[hook]
fn use_prefers_dark() -> bool {
    let dark = use_state(browser::prefers_dark);
    {
        let dark = dark.clone();
        use_effect_with((), move |_| {
            let query = browser::dark_query();
            let listener = Closure::<dyn FnMut()>::new(move || dark.set(browser::prefers_dark()));
            if let Some(q) = &query {
                let _ =
                    q.add_event_listener_with_callback("change", listener.as_ref().unchecked_ref());
            }
            move || {
                if let Some(q) = query {
                    let _ = q.remove_event_listener_with_callback(
                        "change",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }
    *dark
}

#[function_component(App)]
pub fn app() -> Html {
    let start = use_memo((), |_| url::parse(&browser::query()));
    let settings = {
        let s = start.settings.clone();
        use_reducer(move || s)
    };
    let notices = use_state(|| start.notices.clone());
    let embed = start.embed.clone();
    let on_action = {
        let settings = settings.clone();
        Callback::from(move |a: Action| settings.dispatch(a))
    };

    // Keep the address in step with the settings, so every state is a link.
    {
        let embed = embed.clone();
        use_effect_with((*settings).clone(), move |s| {
            browser::replace_query(&url::to_link(s, embed.as_ref()).query);
        });
    }

    let system_dark = use_prefers_dark();
    let dark = match settings.theme {
        ThemeChoice::Auto => system_dark,
        ThemeChoice::Light => false,
        ThemeChoice::Dark => true,
    };
    use_effect_with(dark, |dark| {
        browser::set_root_attribute("data-theme", if *dark { "dark" } else { "light" });
    });
    let theme = if dark { Theme::DARK } else { Theme::LIGHT };
    // The first-paint module's page goes once this one (and its heatmap) has been drawn: effects
    // run after the children's, in the same task, so no frame shows both or neither.
    use_effect_with((), |_| {
        if let Some(early) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("early"))
        {
            early.remove();
        }
    });
    let on_dismiss = {
        let notices = notices.clone();
        Callback::from(move |_: MouseEvent| notices.set(Vec::new()))
    };
    let banner = html! { <Notices notices={(*notices).clone()} on_dismiss={on_dismiss} /> };

    let message = AttrValue::from(settings.train_settings().to_message());
    html! {
        <ContextProvider<Theme> context={theme}>
            <TrainHost {message} on_action={on_action.clone()}>
                if let Some(e) = embed {
                    <EmbedPage settings={(*settings).clone()} {on_action} embed={e} {banner} />
                } else {
                    <FullPage settings={(*settings).clone()} {on_action} {banner} />
                }
            </TrainHost>
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

/// The settings sheet's state on a phone: whether it is open, and callbacks that open it (moving
/// focus into it) and close it (moving focus back to the button that opened it).
#[hook]
fn use_sheet() -> (bool, Callback<MouseEvent>, Callback<()>) {
    let open = use_state(|| false);
    let show = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| {
            open.set(true);
            focus_later("sheet-close".into());
        })
    };
    let hide = {
        let open = open.clone();
        Callback::from(move |_: ()| {
            open.set(false);
            focus_later("quick-settings".into());
        })
    };
    (*open, show, hide)
}

#[derive(Properties, PartialEq)]
struct SheetProps {
    settings: Settings,
    on_action: Callback<Action>,
    phone: bool,
    open: bool,
    on_close: Callback<()>,
}

/// The settings: a sidebar on wider screens; on a phone, a sheet over the page, opened from the
/// strip at the bottom and closed with Done or Escape.
#[function_component(SettingsSheet)]
fn settings_sheet(props: &SheetProps) -> Html {
    let on_key = {
        let close = props.on_close.clone();
        Callback::from(move |e: KeyboardEvent| {
            if e.key() == "Escape" {
                e.prevent_default();
                close.emit(());
            }
        })
    };
    let done = {
        let close = props.on_close.clone();
        Callback::from(move |_: MouseEvent| close.emit(()))
    };
    let sheet = props.phone;
    html! {
        <aside class={classes!("sidebar", sheet.then_some("sheet"))} id="settings-sheet"
            aria-label="Settings" role={sheet.then_some("dialog")}
            aria-modal={sheet.then_some("true")} hidden={sheet && !props.open}
            onkeydown={on_key}>
            if sheet {
                <div class="sheet-head">
                    <p class="sheet-title">{ "Settings" }</p>
                    <button type="button" class="button button-primary" id="sheet-close" onclick={done}>
                        { "Done" }
                    </button>
                </div>
            }
            <SettingsPanel settings={props.settings.clone()} on_action={props.on_action.clone()} />
        </aside>
    }
}

#[function_component(FullPage)]
fn full_page(props: &PageProps) -> Html {
    let current = props.settings.view;
    let phone = use_media(PHONE);
    let (open, show, hide) = use_sheet();
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
                    phone={phone} open={open} on_close={hide} />
                <main class="content" id="main" tabindex="-1">
                    <Tabs current={current} on_action={props.on_action.clone()} />
                    <div class="tab-panel" role="tabpanel" id={format!("panel-{}", current.id())}
                        aria-labelledby={format!("tab-{}", current.id())}>
                        { view_html(current, ViewProps { settings: props.settings.clone(), on_action: props.on_action.clone() }) }
                    </div>
                </main>
            </div>
            <footer class="site-footer">
                <p>{ "Every number on this page is computed in your browser by the app's own Rust code (compiled to WebAssembly); nothing is sent anywhere." }</p>
            </footer>
            if phone {
                <QuickStrip settings={props.settings.clone()} on_action={props.on_action.clone()}
                    on_settings={show} expanded={open} />
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct EmbedProps {
    settings: Settings,
    on_action: Callback<Action>,
    embed: Embed,
    banner: Html,
}

/// One panel, no page chrome, filling its frame; it tells the parent page its height.
#[function_component(EmbedPage)]
fn embed_page(props: &EmbedProps) -> Html {
    let root = use_node_ref();
    let view = props.embed.view;
    {
        let root = root.clone();
        use_effect_with(view, move |view| {
            let id = view.id();
            let post = {
                let root = root.clone();
                move || {
                    if let Some(el) = root.cast::<HtmlElement>() {
                        browser::post_height(el.scroll_height() as f64, id);
                    }
                }
            };
            post();
            // Browsers may hold back layout callbacks in a frame from another origin while the
            // page is busy: post again a little later whatever happens, so the parent always
            // learns the settled height.
            for delay in [300, 1200, 3000] {
                let again = Closure::once_into_js(post.clone());
                if let Some(w) = web_sys::window() {
                    let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(
                        again.unchecked_ref(),
                        delay,
                    );
                }
            }
            let callback = Closure::<dyn FnMut()>::new(post);
            let observer = root.cast::<HtmlElement>().and_then(|el| {
                let obs = ResizeObserver::new(callback.as_ref().unchecked_ref()).ok()?;
                obs.observe(&el);
                Some(obs)
            });
            move || {
                if let Some(obs) = observer {
                    obs.disconnect();
                }
                drop(callback);
            }
        });
    }
    let full = browser::link(&url::to_link(&props.settings, None).query);
    browser::set_root_attribute("data-embed", "true");
    let phone = use_media(PHONE);
    let (open, show, hide) = use_sheet();
    html! {
        <div class="embed" ref={root}>
            { props.banner.clone() }
            if props.embed.controls && phone {
                <SettingsSheet settings={props.settings.clone()} on_action={props.on_action.clone()}
                    phone={true} open={open} on_close={hide} />
            } else if props.embed.controls {
                <details class="embed-controls" open=true>
                    <summary>{ "Settings" }</summary>
                    <SettingsPanel settings={props.settings.clone()} on_action={props.on_action.clone()} />
                </details>
            }
            <main id="main" class="embed-main">
                { view_html(view, ViewProps { settings: props.settings.clone(), on_action: props.on_action.clone() }) }
            </main>
            <p class="embed-footer">
                <a href={full} target="_blank" rel="noopener">{ "Open in the Positional Encoding Explorer" }</a>
            </p>
            if props.embed.controls && phone {
                <QuickStrip settings={props.settings.clone()} on_action={props.on_action.clone()}
                    on_settings={show} expanded={open} />
            }
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ShareProps {
    settings: Settings,
}

/// "Copy link" and "Copy embed code": copies to the clipboard and shows the text, which can be
/// copied by hand where the clipboard is not available.
#[function_component(Share)]
fn share(props: &ShareProps) -> Html {
    let shown = use_state(|| None::<(String, String)>);
    let status = use_state(String::new);
    let offer = |label: &'static str, text: String| {
        let (shown, status) = (shown.clone(), status.clone());
        Callback::from(move |_: MouseEvent| {
            shown.set(Some((label.to_string(), text.clone())));
            let status = status.clone();
            browser::copy_text(
                text.clone(),
                Callback::from(move |ok: bool| {
                    status.set(if ok {
                        "Copied to the clipboard.".into()
                    } else {
                        "Select the text and copy it.".into()
                    })
                }),
            );
        })
    };
    let link = browser::link(&url::to_link(&props.settings, None).query);
    let embed = embed_code(&props.settings);
    let close = {
        let shown = shown.clone();
        Callback::from(move |_: MouseEvent| shown.set(None))
    };
    html! {
        <div class="share">
            <button type="button" class="button" onclick={offer("Link to this view", link)}>{ "Copy link" }</button>
            <button type="button" class="button" onclick={offer("Embed code for this panel", embed)}>{ "Copy embed code" }</button>
            if let Some((label, text)) = &*shown {
                <div class="share-box" role="dialog" aria-label={label.clone()}>
                    <label for="share-text" class="control-label">{ label.clone() }</label>
                    <textarea id="share-text" readonly=true rows="4" value={text.clone()}
                        onfocus={Callback::from(|e: FocusEvent| {
                            let t: web_sys::HtmlTextAreaElement = e.target_unchecked_into();
                            t.select();
                        })} />
                    <p class="note" role="status" aria-live="polite">{ (*status).clone() }</p>
                    <button type="button" class="button button-small" onclick={close}>{ "Close" }</button>
                </div>
            }
        </div>
    }
}

/// The `<iframe>` (and the few lines that size it) a teacher pastes into a course page.
pub fn embed_code(s: &Settings) -> String {
    let embed = Embed {
        view: s.view,
        controls: true,
    };
    let src = browser::link(&url::to_link(s, Some(&embed)).query);
    format!(
        "<iframe src=\"{src}\" title=\"Positional Encoding Explorer: {}\" \
         style=\"width:100%;height:720px;border:0\" loading=\"lazy\" \
         sandbox=\"allow-scripts allow-downloads allow-popups\"></iframe>\n\
         <script>addEventListener(\"message\",function(e){{var d=e.data;\
         if(!d||d.type!==\"{}\")return;document.querySelectorAll(\"iframe\").forEach(\
         function(f){{if(f.contentWindow===e.source)f.style.height=d.height+\"px\"}})}});</script>",
        s.view.label(),
        browser::HEIGHT_MESSAGE
    )
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
            { for ThemeChoice::ALL.iter().map(|&t| {
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
            focus_later(format!("tab-{}", View::ALL[next].id()));
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

/// Moves keyboard focus to an element once it has been rendered.
fn focus_later(id: String) {
    let focus = Closure::once_into_js(move || {
        if let Some(el) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(&id))
            .and_then(|el| el.dyn_into::<HtmlElement>().ok())
        {
            let _ = el.focus();
        }
    });
    if let Some(w) = web_sys::window() {
        let _ = w.set_timeout_with_callback_and_timeout_and_arguments_0(focus.unchecked_ref(), 0);
    }
}
