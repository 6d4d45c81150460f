//! Views drawn from chunks of the shell's own wasm: in the build the site serves (the `split`
//! feature), `wasm-split-cli` moves the code only such a view reaches (its components, their
//! Yew glue, what they alone compute) out of the shell into a file of its own, fetched when the
//! view first opens or when the page is idle. The chunk shares the shell's memory, its Yew and
//! its settings: the view is a component of the app like any other, only later. Without the
//! feature (the single file, the notebook widget, the tests) every view is drawn at once.
//!
//! Which views are lazy is [`is_lazy`]: the views few pages open on (see "View chunks" in
//! `docs/architecture.md`).

use yew::prelude::*;

use super::props::ViewProps;
use crate::state::{Settings, View};

/// The chunks: for each lazy view, the split point that loads it and the component it draws.
/// Each entry becomes, in a split build, a `#[wasm_split]` function whose body (and all it alone
/// reaches) `wasm-split-cli` moves into a chunk named after it.
macro_rules! chunks {
    ($($view:ident => $chunk:ident::$name:ident: $component:path),* $(,)?) => {
        /// Each view drawn by [`draw`], and its chunk (`View::chunk` says the same).
        pub const CHUNKS: &[(View, &str)] = &[$((View::$view, stringify!($chunk))),*];

        /// Whether `view` is one of the views drawn by [`draw`].
        pub fn holds(view: View) -> bool {
            matches!(view, $(View::$view)|*)
        }

        /// Draws one of the chunks' views: from its chunk in a split build, at once otherwise
        /// (nothing for any other view).
        pub fn draw(view: View, props: ViewProps) -> Html {
            match view {
                $(View::$view => {
                    #[cfg(feature = "split")]
                    let html = chunked::view_html(view, props);
                    #[cfg(not(feature = "split"))]
                    let html = html! { <$component ..props /> };
                    html
                })*
                _ => html! {},
            }
        }

        #[cfg(feature = "split")]
        mod split_points {
            use super::chunked::Draw;
            use super::*;

            $(
                #[wasm_split_helpers::wasm_split($chunk, fallible)]
                fn $name() -> Result<Draw, wasm_split_helpers::SplitLoaderError> {
                    Ok(|props: ViewProps| html! { <$component ..props /> })
                }
            )*

            /// The view's component, once its chunk is here (fetched by the first call; a
            /// failed fetch is tried again by the next).
            pub async fn load(view: View) -> Result<Draw, String> {
                let loaded = match view {
                    $(View::$view => $name().await,)*
                    _ => return Err(format!("the view {} has no chunk", view.id())),
                };
                loaded.map_err(|e| e.to_string())
            }

            /// The Train view's run hears the app's settings (see [`super::notify`]).
            #[wasm_split_helpers::wasm_split(train, fallible)]
            pub fn train_settings(
                settings: crate::state::Settings,
            ) -> Result<(), wasm_split_helpers::SplitLoaderError> {
                crate::ui::train_module::settings(settings);
                Ok(())
            }

            /// Every chunk (see [`super::prefetch`]).
            pub fn load_all() {
                // One after another: the views of one chunk share its load, and the first
                // failure (offline) ends the walk; a view's tab tries again when opened. A
                // view opened meanwhile has the line to itself: the walk stops before its
                // next chunk and starts again (past the chunks it has) once the view is drawn.
                wasm_bindgen_futures::spawn_local(async {
                    $(
                        if super::chunked::pause_for_views() {
                            return;
                        }
                        match $name().await {
                            Ok(draw) => super::chunked::remember(View::$view, draw),
                            Err(_) => return,
                        }
                    )*
                    // Then the views' parts (`ui::parts`), as long as no view waits.
                    crate::ui::parts::load_all(super::chunked::pause_for_views).await;
                });
            }
        }
    };
}

chunks! {
    Attention => attention::attention: crate::ui::attention::AttentionView,
    Offsets => offsets::offsets: crate::ui::schemes::DistanceView,
    Waves => waves::waves: crate::ui::waves::WavesView,
    Rotations => rotations::rotations: crate::ui::rotations::RotationsView,
    Norms => norms::norms: crate::ui::norms::NormsView,
    Addition => addition::addition: crate::ui::addition::AdditionView,
    Compare => compare::compare: crate::ui::compare::CompareView,
    Lesson => learn::lesson: crate::ui::lesson::LessonView,
    Quiz => learn::quiz: crate::ui::quiz::QuizView,
    Patches => patches::patches: crate::ui::patches::PatchesView,
    Train => train::train: crate::ui::train_module::ModuleTrainView,
}

/// Whether `view` is drawn from a chunk fetched on first use.
pub fn is_lazy(view: View) -> bool {
    cfg!(feature = "split") && holds(view)
}

/// The app's settings now, to the Train view's run once its chunk is here (the run outlives
/// the view: a change of settings anywhere ends a run that belongs to the old ones).
pub fn notify(settings: &Settings) {
    #[cfg(feature = "split")]
    if chunked::is_loaded(View::Train) {
        let settings = settings.clone();
        wasm_bindgen_futures::spawn_local(async move {
            // The chunk is here: this runs as soon as its split point's own loader has
            // resolved (a microtask or two).
            let _ = split_points::train_settings(settings).await;
        });
    }
    #[cfg(not(feature = "split"))]
    let _ = settings;
}

/// Every chunk, fetched and compiled when the page is idle after the app has drawn, so that a
/// tab opened later draws at once. Not while a view waits for its own chunk: the others would
/// share the line with it, and their compiling the processor with its first draw.
pub fn prefetch() {
    #[cfg(feature = "split")]
    super::browser::when_idle(split_points::load_all);
}

#[cfg(feature = "split")]
mod chunked {
    use std::cell::{Cell, RefCell};

    use yew::prelude::*;

    use super::split_points::load;
    use crate::action::Action;
    use crate::state::{Settings, View};
    use crate::ui::browser;
    use crate::ui::chunk_load::{failed_note, use_chunk, Stage};
    use crate::ui::props::ViewProps;

    /// Draws a view, once its chunk is here.
    pub type Draw = fn(ViewProps) -> Html;

    thread_local! {
        /// The views whose chunk is here: drawn at once on every later visit.
        static LOADED: RefCell<Vec<(View, Draw)>> = const { RefCell::new(Vec::new()) };
        /// How many lazy views are waiting for their chunk now.
        static WAITING: Cell<u32> = const { Cell::new(0) };
        /// Whether the walk over every chunk waits for the views that wait.
        static PREFETCH: Cell<bool> = const { Cell::new(false) };
    }

    /// Whether the walk over every chunk stops for a view that waits for its own; it is then
    /// walked again once none waits.
    pub fn pause_for_views() -> bool {
        let waiting = WAITING.with(Cell::get) > 0;
        if waiting {
            PREFETCH.with(|p| p.set(true));
        }
        waiting
    }

    /// A view waits no more for its chunk (it is drawn, failed or gone): uncounted if it was
    /// counted, and the first paint's page goes once none waits (a lesson step's view, itself
    /// from a chunk, is drawn first).
    fn stop_waiting(waiting: &RefCell<bool>) {
        if waiting.replace(false) {
            WAITING.with(|w| w.set(w.get().saturating_sub(1)));
        }
        if WAITING.with(Cell::get) == 0 {
            browser::hand_over();
            if PREFETCH.with(|p| p.replace(false)) {
                browser::when_idle(super::split_points::load_all);
            }
        }
    }

    pub fn is_loaded(view: View) -> bool {
        loaded(view).is_some()
    }

    fn loaded(view: View) -> Option<Draw> {
        LOADED.with(|l| l.borrow().iter().find(|(v, _)| *v == view).map(|(_, d)| *d))
    }

    pub fn remember(view: View, draw: Draw) {
        LOADED.with(|l| {
            let mut l = l.borrow_mut();
            if !l.iter().any(|(v, _)| *v == view) {
                l.push((view, draw));
            }
        });
    }

    /// The view drawn from its chunk.
    pub fn view_html(view: View, props: ViewProps) -> Html {
        let ViewProps {
            settings,
            on_action,
        } = props;
        // Keyed by view: two lazy views one after the other in the tabs are two loads.
        html! { <LazyView key={view.id()} {view} {settings} {on_action} /> }
    }

    #[derive(Properties, PartialEq)]
    pub struct LazyProps {
        pub view: View,
        pub settings: Settings,
        pub on_action: Callback<Action>,
    }

    /// A view drawn from its chunk: fetched on first use, then drawn as any view is. Its first
    /// draw ends the first paint when the page opened on it.
    #[function_component(LazyView)]
    fn lazy_view(props: &LazyProps) -> Html {
        let (stage, retry) = use_chunk(
            props.view,
            |view| format!("the {} view's chunk", view.id()),
            loaded,
            load,
            remember,
        );
        // Whether this view is counted in `WAITING`: while its chunk is on its way. Once the
        // view is on the page (or the reason it is not), the app takes over from the first
        // paint, if it has not yet and no other view waits for its chunk. Effects run after the
        // children's: the view's charts are drawn.
        let waiting = use_mut_ref(|| false);
        let settled = !matches!(*stage, Stage::Loading);
        use_effect_with(settled, move |settled| {
            if !*settled && !waiting.replace(true) {
                WAITING.with(|w| w.set(w.get() + 1));
            }
            if *settled {
                stop_waiting(&waiting);
            }
            // Gone before its chunk came (another tab): it waits no more.
            move || {
                if *waiting.borrow() {
                    stop_waiting(&waiting);
                }
            }
        });
        let props = ViewProps {
            settings: props.settings.clone(),
            on_action: props.on_action.clone(),
        };
        match &*stage {
            Stage::Ready(draw) => draw(props),
            Stage::Loading => html! { <div class="lazy-view" aria-busy="true"></div> },
            Stage::Failed => failed_note(
                "This view could not be loaded right now. Check the connection and try again; if it keeps failing, reload the page.",
                retry,
            ),
        }
    }
}
