//! One panel embedded in another page: no page chrome, the height told to the parent page, the
//! main controls beside the main chart, the settings where the reader is looking, and a way
//! out whenever the frame's sandbox stops something (a new tab, a download).

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};
use yew::prelude::*;

use super::browser::{self, Saved};
use super::host::Host;
use super::phone::{use_media, use_sheet, Place, QuickStrip, SettingsSheet, PHONE};
use super::props::{use_view_renderer, ViewProps};
use super::settings::SettingsPanel;
use super::sources::SourcesBlock;
use crate::action::Action;
use crate::embed::{Permission, Show};
use crate::main_chart::TALL_CHART;
use crate::state::Settings;
use crate::url::{self, Embed};

#[derive(Properties, PartialEq)]
pub struct EmbedProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
    pub embed: Embed,
    pub banner: Html,
    pub host: Host,
}

/// What the sandbox stopped, and the way out offered.
#[derive(Clone, Debug, PartialEq)]
enum WayOut {
    /// A new tab: the link to copy.
    Tab(String),
    /// A download.
    Save(Saved),
}

/// Moves the marker attribute `name` (valueless) within `root` to `to`, off the element that had
/// it; touches nothing when it is already there.
fn move_mark(root: &Element, name: &str, to: Option<&Element>) {
    let marked = root.query_selector(&format!("[{name}]")).ok().flatten();
    if marked.as_ref() != to {
        if let Some(old) = marked {
            let _ = old.remove_attribute(name);
        }
        if let Some(new) = to {
            let _ = new.set_attribute(name, "");
        }
    }
}

/// Finds the view's main chart (its first canvas), marks its figure `data-main-chart` and its
/// panel's title `data-main-title`, says on `root` whether there is one (`data-chart`), and
/// keeps `strip` (when given) right under the chart's drawing, or right above it when the chart
/// is taller than [`TALL_CHART`]. A control in the strip that has focus keeps it.
fn place_main_chart(root: &Element, strip: Option<&Element>) {
    let canvas = root
        .query_selector("canvas:not(.chart-overlay)")
        .ok()
        .flatten();
    let closest = |c: &Element, selector: &str| c.closest(selector).ok().flatten();
    let figure = canvas
        .as_ref()
        .and_then(|c| closest(c, "figure").or_else(|| c.parent_element()));
    // A chart that opens a pair meant to be read together (`.twin-pair`: the attention demo's
    // sentence A beside sentence B) brings its partner: the pair is the main chart.
    let pair = figure.as_ref().and_then(|f| {
        let twin = f
            .parent_element()
            .filter(|p| p.matches(".twin-pair").unwrap_or(false))?;
        (twin.first_element_child().as_ref() == Some(f)).then_some(twin)
    });
    let chart = pair.clone().or(figure);
    move_mark(root, "data-main-chart", chart.as_ref());
    // Its panel's title stays with it in a compact embed.
    let title = chart
        .as_ref()
        .and_then(|c| closest(c, ".panel"))
        .and_then(|p| p.query_selector(":scope > .panel-head > h2").ok().flatten());
    move_mark(root, "data-main-title", title.as_ref());
    let found = if chart.is_some() { "main" } else { "none" };
    if root.get_attribute("data-chart").as_deref() != Some(found) {
        let _ = root.set_attribute("data-chart", found);
    }
    let Some(strip) = strip else {
        return;
    };
    // The drawing itself: the strip goes between it and the chart's buttons.
    let stage = pair
        .or_else(|| canvas.as_ref().and_then(|c| closest(c, ".chart-stage")))
        .or(chart);
    // Taking an element out of the page takes its focus away: a reader's key presses on the
    // strip's slider would go nowhere after a move.
    let focused = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.active_element())
        .filter(|e| strip.contains(Some(e)))
        .and_then(|e| e.dyn_into::<HtmlElement>().ok());
    match &stage {
        Some(c) if c.get_bounding_client_rect().height() > TALL_CHART => {
            if c.previous_element_sibling().as_ref() != Some(strip) {
                let _ = c.before_with_node_1(strip);
            }
        }
        Some(c) => {
            if c.next_element_sibling().as_ref() != Some(strip) {
                let _ = c.after_with_node_1(strip);
            }
        }
        None => {
            if strip.parent_element().as_ref() != Some(root) {
                let _ = root.prepend_with_node_1(strip);
            }
        }
    }
    if let Some(el) = focused {
        let active = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.active_element());
        if active.as_ref() != Some(el.as_ref()) {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            let _ = el.focus_with_options(&options);
        }
    }
}

/// Keeps the main chart marked (and the strip beside it) through every change of the view, and
/// of its size: the chart's height decides the strip's side, and it can settle after the chart's
/// first drawing with no element added or removed (which is all the mutation observer sees).
#[hook]
pub fn use_main_chart(root: NodeRef, strip: Option<Element>) {
    {
        let (root, strip) = (root.clone(), strip.clone());
        use_effect(move || {
            if let Some(r) = root.cast::<Element>() {
                place_main_chart(&r, strip.as_ref());
            }
        });
    }
    use_effect_with((), move |_| {
        let element = root.cast::<Element>();
        let callback = {
            let (element, strip) = (element.clone(), strip.clone());
            Closure::<dyn FnMut()>::new(move || {
                if let Some(r) = &element {
                    place_main_chart(r, strip.as_ref());
                }
            })
        };
        let observer = element.as_ref().and_then(|r| {
            let o = web_sys::MutationObserver::new(callback.as_ref().unchecked_ref()).ok()?;
            let options = web_sys::MutationObserverInit::new();
            options.set_child_list(true);
            options.set_subtree(true);
            o.observe_with_options(r, &options).ok()?;
            Some(o)
        });
        let resized = browser::watch_size(element.clone(), false, move || {
            if let Some(r) = &element {
                place_main_chart(r, strip.as_ref());
            }
        });
        move || {
            if let Some(o) = observer {
                o.disconnect();
            }
            drop(callback);
            drop(resized);
        }
    });
}

/// Whether the panel is taller than its frame for good (a fixed-height frame, where no script
/// sizes it): then, on a touch screen, swipes scroll the page and the panel scrolls with its
/// own buttons, so the page never gets stuck in the frame.
#[hook]
fn use_paged(framed: bool) -> bool {
    let paged = use_state(|| false);
    {
        let paged = paged.clone();
        use_effect_with(framed, move |framed| {
            let framed = *framed;
            let generation = Rc::new(std::cell::Cell::new(0u32));
            let check = {
                let generation = generation.clone();
                move || {
                    let Some(window) = web_sys::window() else {
                        return;
                    };
                    // Decide once the size has held for a moment: the frame's first height is
                    // replaced as soon as a host script hears from the panel.
                    generation.set(generation.get().wrapping_add(1));
                    let mine = generation.get();
                    let (generation, paged) = (generation.clone(), paged.clone());
                    let decide = Closure::once_into_js(move || {
                        if generation.get() != mine {
                            return;
                        }
                        let Some(w) = web_sys::window() else {
                            return;
                        };
                        let inner = browser::inner_height(&w).unwrap_or(0.0);
                        let content = w
                            .document()
                            .and_then(|d| d.document_element())
                            .map_or(0.0, |e| e.scroll_height() as f64);
                        let now = framed && inner > 0.0 && content > inner + 2.0;
                        if *paged != now {
                            paged.set(now);
                        }
                    });
                    let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(
                        decide.unchecked_ref(),
                        700,
                    );
                }
            };
            check();
            let root = web_sys::window()
                .and_then(|w| w.document())
                .and_then(|d| d.document_element());
            let watch = browser::watch_size(root, true, check);
            move || {
                generation.set(generation.get().wrapping_add(1));
                drop(watch);
            }
        });
    }
    browser::set_root_attribute("data-paged", if *paged { "true" } else { "false" });
    *paged
}

/// Posts the panel's height to the parent page whenever it changes.
#[hook]
fn use_post_height(root: NodeRef, view: &'static str) {
    use_effect_with(view, move |view| {
        let id = *view;
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
        let watch = browser::watch_size(root.cast::<Element>(), false, post);
        move || drop(watch)
    });
}

/// The page's vertical position of the last pointer press (document pixels), for placing a
/// notice where the reader is looking.
#[hook]
fn use_last_press() -> Rc<std::cell::Cell<f64>> {
    let cell = use_memo((), |_| std::cell::Cell::new(0.0));
    {
        let cell = cell.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn FnMut(web_sys::PointerEvent)>::new(
                move |e: web_sys::PointerEvent| {
                    let scroll = web_sys::window()
                        .and_then(|w| w.scroll_y().ok())
                        .unwrap_or(0.0);
                    cell.set(e.client_y() as f64 + scroll);
                },
            );
            let window = web_sys::window();
            if let Some(w) = &window {
                let _ = w.add_event_listener_with_callback_and_bool(
                    "pointerdown",
                    listener.as_ref().unchecked_ref(),
                    true,
                );
            }
            move || {
                if let Some(w) = window {
                    let _ = w.remove_event_listener_with_callback_and_bool(
                        "pointerdown",
                        listener.as_ref().unchecked_ref(),
                        true,
                    );
                }
                drop(listener);
            }
        });
    }
    cell
}

/// Where a notice about the element that has focus (or was last pressed) should go, in the
/// panel's pixels, and that element (to give focus back to).
fn anchor(last_press: f64) -> (f64, Option<HtmlElement>) {
    let document = web_sys::window().and_then(|w| w.document());
    let scroll = web_sys::window()
        .and_then(|w| w.scroll_y().ok())
        .unwrap_or(0.0);
    let active = document
        .and_then(|d| d.active_element())
        .and_then(|e| e.dyn_into::<HtmlElement>().ok())
        .filter(|e| !matches!(e.tag_name().as_str(), "BODY" | "HTML"));
    match active {
        Some(el) => (el.get_bounding_client_rect().bottom() + scroll, Some(el)),
        None => (last_press, None),
    }
}

/// One panel, no page chrome, filling its frame; it tells the parent page its height.
#[function_component(EmbedPage)]
pub fn embed_page(props: &EmbedProps) -> Html {
    let root = use_node_ref();
    let main = use_node_ref();
    let embed = &props.embed;
    let host = &props.host;
    let view = embed.view;
    let view_html = use_view_renderer();
    use_post_height(root.clone(), view.id());
    browser::set_root_attribute("data-embed", "true");
    let phone = use_media(PHONE);
    let framed = host.framed;
    let paged = use_paged(framed);
    let (open, show_sheet, hide_sheet) = use_sheet();
    // The strip sits under the chart in a frame (the bottom of a tall frame is nowhere near the
    // reader) and in a compact embed; fixed to the bottom of the screen only in a panel opened
    // on a phone on its own.
    let inline = embed.controls && (embed.show == Show::Chart || (phone && framed));
    let strip_host = use_memo((), |_| {
        let el = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("div").ok());
        if let Some(el) = &el {
            el.set_class_name("quick-host");
        }
        el
    });
    use_main_chart(
        main.clone(),
        inline.then(|| (*strip_host).clone()).flatten(),
    );

    // What the sandbox stops, and the way out.
    let way_out = use_state(|| None::<(WayOut, f64)>);
    let give_back = use_mut_ref(|| None::<HtmlElement>);
    let last_press = use_last_press();
    let offer = {
        let (way_out, give_back, last_press) =
            (way_out.clone(), give_back.clone(), last_press.clone());
        Rc::new(move |w: WayOut| {
            let (y, el) = anchor(last_press.get());
            *give_back.borrow_mut() = el;
            way_out.set(Some((w, y)));
            browser::focus_later("way-out-first".into());
        })
    };
    let open_or_offer = {
        let (offer, popups) = (offer.clone(), host.popups());
        Rc::new(move |url: String| {
            if popups == Permission::Blocked || !browser::open_tab(&url) {
                offer(WayOut::Tab(url));
            }
        })
    };
    {
        let offer = offer.clone();
        use_effect_with(host.downloads(), move |permission| {
            let listener = Callback::from(move |saved: Saved| offer(WayOut::Save(saved)));
            browser::watch_saves(*permission, Some(listener));
            || browser::watch_saves(Permission::Allowed, None)
        });
    }
    let close_way_out = {
        let (way_out, give_back) = (way_out.clone(), give_back.clone());
        Callback::from(move |_: ()| {
            way_out.set(None);
            if let Some(el) = give_back.borrow_mut().take() {
                let options = web_sys::FocusOptions::new();
                options.set_prevent_scroll(true);
                let _ = el.focus_with_options(&options);
            }
        })
    };

    // Buttons that lead to another view open the whole app there, in a new tab: this frame
    // shows one view. Actions made in the same event before it (the Train button first picks
    // its task) are carried over.
    let pending = use_mut_ref(|| None::<Rc<Settings>>);
    *pending.borrow_mut() = None;
    let on_action = {
        let (dispatch, settings, pending, open_or_offer) = (
            props.on_action.clone(),
            props.settings.clone(),
            pending.clone(),
            open_or_offer.clone(),
        );
        Callback::from(move |a: Action| {
            // A panel shows one view: a scheme picked in its settings stays there (the panel
            // points to the view that draws it).
            let a = match a {
                Action::PickScheme(x) => Action::SetScheme(x),
                a => a,
            };
            let current = pending
                .borrow()
                .clone()
                .unwrap_or_else(|| Rc::new(settings.clone()));
            if let Action::SetView(v) = &a {
                if *v != view {
                    let target = yew::Reducible::reduce(current, a);
                    open_or_offer(browser::link(&url::whole_app_link(&target).query));
                    return;
                }
            }
            *pending.borrow_mut() = Some(yew::Reducible::reduce(current, a.clone()));
            dispatch.emit(a);
        })
    };
    // Links that open a new tab go through the same check when the sandbox may stop them.
    let on_click = {
        let (open_or_offer, popups) = (open_or_offer.clone(), host.popups());
        Callback::from(move |e: MouseEvent| {
            if popups == Permission::Allowed {
                return;
            }
            let link = e
                .target()
                .and_then(|t| t.dyn_into::<Element>().ok())
                .and_then(|t| t.closest("a[target=_blank]").ok().flatten())
                .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok());
            if let Some(a) = link {
                e.prevent_default();
                open_or_offer(a.href());
            }
        })
    };

    let full = browser::link(&url::whole_app_link(&props.settings).query);
    // A phone's sheet covers what the reader sees: the screen, or the part of the frame the
    // host script reports, or the whole of a fixed-height frame; without any of these it opens
    // in the page under the strip.
    let place = match (inline, phone, host.visible, paged) {
        (false, _, _, _) => Place::Screen,
        (true, true, Some(v), _) => Place::Frame(v),
        (true, _, _, true) => Place::Screen,
        (true, _, _, false) => Place::Inline,
    };
    let settings = props.settings.clone();
    let sheet = html! {
        <SettingsSheet settings={settings.clone()} on_action={on_action.clone()}
            place={place} open={open} on_close={hide_sheet.clone()} />
    };
    let strip = html! {
        <QuickStrip settings={settings.clone()} on_action={on_action.clone()}
            on_settings={show_sheet.clone()} expanded={open} inline={inline} />
    };
    let portal = match (inline, &*strip_host) {
        (true, Some(el)) => create_portal(
            html! {
                <>
                    { strip.clone() }
                    if place == Place::Inline { { sheet.clone() } }
                </>
            },
            el.clone(),
        ),
        _ => html! {},
    };
    let show = embed.show.id();
    html! {
        <div class="embed" ref={root} data-show={show}
            data-controls={if embed.controls { "all" } else { "none" }} onclick={on_click}>
            { props.banner.clone() }
            if embed.controls && !inline && !phone {
                <details class="embed-controls" open=true>
                    <summary>{ "Settings" }</summary>
                    <SettingsPanel settings={settings.clone()} on_action={on_action.clone()} />
                </details>
            }
            if embed.controls && ((phone && !inline) || (inline && place != Place::Inline)) {
                { sheet.clone() }
            }
            <main id="main" class="embed-main" ref={main}>
                { view_html(view, ViewProps { settings: settings.clone(), on_action: on_action.clone() }) }
                <SourcesBlock view={settings.view} lesson={settings.lesson} scheme={settings.scheme} />
            </main>
            { portal }
            // A notebook widget's frame has no address: the way to the whole app exists only
            // where the widget names a hosted copy.
            if full.contains("://") {
                <p class="embed-footer">
                    <a href={full} target="_blank" rel="noopener">{ "Open in the Positional Encoding Explorer" }</a>
                </p>
            }
            if embed.controls && phone && !inline {
                { strip }
            }
            if paged {
                <PageButtons />
            }
            if let Some((w, y)) = &*way_out {
                <WayOutBox way={w.clone()} top={*y} visible={host.visible}
                    on_close={close_way_out} on_open={Callback::from({
                        let open_or_offer = open_or_offer.clone();
                        move |url: String| open_or_offer(url)
                    })} full={browser::link(&url::whole_app_link(&props.settings).query)} />
            }
        </div>
    }
}

/// Scrolls a fixed-height frame's panel by most of a screen, up or down.
fn page(direction: f64) {
    if let Some(w) = web_sys::window() {
        let height = browser::inner_height(&w).unwrap_or(400.0);
        let options = web_sys::ScrollToOptions::new();
        options.set_top(direction * height * 0.8);
        options.set_behavior(web_sys::ScrollBehavior::Smooth);
        w.scroll_by_with_scroll_to_options(&options);
    }
}

/// The two buttons that scroll a panel taller than its fixed-height frame (on touch screens,
/// where a swipe scrolls the page around the frame instead).
#[function_component(PageButtons)]
fn page_buttons() -> Html {
    html! {
        <div class="page-bar" role="group" aria-label="Scroll this panel">
            <button type="button" class="button" id="page-up" aria-label="Scroll the panel up"
                onclick={Callback::from(|_: MouseEvent| page(-1.0))}>{ "▲" }</button>
            <button type="button" class="button" id="page-down" aria-label="Scroll the panel down"
                onclick={Callback::from(|_: MouseEvent| page(1.0))}>{ "▼ More" }</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct WayOutProps {
    way: WayOut,
    /// Where it goes (panel pixels), near what the reader just used.
    top: f64,
    visible: Option<crate::embed::Visible>,
    on_close: Callback<()>,
    /// Opens a link in a new tab (or says it cannot).
    on_open: Callback<String>,
    /// The whole app in the panel's state.
    full: String,
}

/// What the sandbox stopped and what to do instead: the link to copy, the data to copy, the
/// image to save by hand.
#[function_component(WayOutBox)]
fn way_out_box(props: &WayOutProps) -> Html {
    let status = use_state(String::new);
    let copy = |text: String, what: &'static str| {
        let status = status.clone();
        Callback::from(move |_: MouseEvent| {
            browser::copy_with_status(
                text.clone(),
                status.clone(),
                format!("{what} copied to the clipboard."),
                "The clipboard is closed to this panel too: select the text and copy it.",
            );
        })
    };
    let on_key = browser::close_on_escape(props.on_close.clone());
    let close = props.on_close.reform(|_: MouseEvent| ());
    let select = Callback::from(|e: FocusEvent| {
        if let Some(t) = e.target_dyn_into::<web_sys::HtmlTextAreaElement>() {
            t.select();
        }
    });
    // The way out's own button (the first focused), then Close.
    let actions = |onclick: Callback<MouseEvent>, label: &'static str| {
        html! {
            <div class="way-out-actions">
                <button type="button" class="button button-primary" id="way-out-first"
                    {onclick}>{ label }</button>
                <button type="button" class="button" onclick={close.clone()}>{ "Close" }</button>
            </div>
        }
    };
    // Near the reader: under what they pressed, inside the part of the frame they see.
    let top = match props.visible {
        Some(v) => props
            .top
            .clamp(v.top + 8.0, (v.bottom - 280.0).max(v.top + 8.0)),
        None => props.top + 8.0,
    };
    let (title, body) = match &props.way {
        WayOut::Tab(url) => (
            "This page does not let the panel open a new tab.".to_string(),
            html! {
                <>
                    <p>{ "Copy the link and open it in a new tab yourself:" }</p>
                    <textarea class="way-out-text" readonly=true rows="3" value={url.clone()}
                        aria-label="Link to the explorer" onfocus={select.clone()} />
                    { actions(copy(url.clone(), "The link"), "Copy the link") }
                </>
            },
        ),
        WayOut::Save(saved) => {
            let title = if saved.tried {
                format!(
                    "If {} did not download, this page does not let the panel save files.",
                    saved.file_name
                )
            } else {
                format!(
                    "This page does not let the panel save files, so {} was not downloaded.",
                    saved.file_name
                )
            };
            let body = match (&saved.text, &saved.image) {
                (Some(text), _) => {
                    // A very large table is only copied, not shown.
                    let shown = (text.len() <= 200_000).then(|| text.clone());
                    html! {
                        <>
                            <p>{ "Copy the data instead and paste it into a file or a spreadsheet:" }</p>
                            if let Some(t) = shown {
                                <textarea class="way-out-text" readonly=true rows="5" value={t}
                                    aria-label={format!("Text of {}", saved.file_name)}
                                    onfocus={select.clone()} />
                            }
                            { actions(copy(text.clone(), "The data"), "Copy the data") }
                        </>
                    }
                }
                (None, Some(image)) => html! {
                    <>
                        <p>{ "Press and hold the image (or right-click it) to save it:" }</p>
                        <img class="way-out-image" src={image.clone()}
                            alt={format!("The chart as {}", saved.file_name)} />
                        <div class="way-out-actions">
                            <button type="button" class="button" id="way-out-first" onclick={close.clone()}>{ "Close" }</button>
                        </div>
                    </>
                },
                (None, None) => {
                    let (on_open, full) = (props.on_open.clone(), props.full.clone());
                    html! {
                        <>
                            <p>{ "Open the explorer in a tab of its own and save it there." }</p>
                            { actions(
                                Callback::from(move |_: MouseEvent| on_open.emit(full.clone())),
                                "Open the explorer",
                            ) }
                        </>
                    }
                }
            };
            (title, body)
        }
    };
    html! {
        <div class="way-out" role="dialog" aria-labelledby="way-out-title" onkeydown={on_key}
            style={format!("top:{top:.0}px")}>
            <p class="way-out-title" id="way-out-title">{ title }</p>
            { body }
            <p class="note" role="status" aria-live="polite">{ (*status).clone() }</p>
        </div>
    }
}
