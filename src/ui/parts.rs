//! Parts of a view drawn from chunks of their own: what a view shows below its first screen and
//! its first paint's chart (the RoPE check, a training run's results), in a split build fetched
//! once the view has drawn (see [`parts!`]; the views' own chunks are `ui::lazy`'s). This module
//! knows the parts it draws, not the views that draw them.

use yew::prelude::*;

/// Parts of a view that its first screen does not need, each drawn from a chunk of its own (in
/// a split build): a component `$part` with the props `$props`, which draws `$draw` once the
/// chunk `$chunk` is here, an empty place meanwhile, and a note with Try again if it does not
/// come. The page does not wait for a part: the first paint gives way when the view is drawn,
/// and the part fills in below. Its chunk is fetched when a view first draws it or asks for it
/// ([`fetch`]), or by the idle walk (`lazy::prefetch`) after the views' chunks. `$draw` is a
/// plain function, called by the part's component only once its chunk is here: it must call no
/// hook itself, but draw a component that does. A part drawn only inside the views of one
/// chunk is named after it (`train_held_out` inside `train`): it always loads after that chunk,
/// so its pack leaves out the files that chunk's pack holds (`scripts/chunks.mjs`).
macro_rules! parts {
    ($($part:ident => $chunk:ident: $props:ty => $draw:path),* $(,)?) => {
        $(
            #[function_component($part)]
            pub fn $chunk(props: &$props) -> Html {
                #[cfg(feature = "split")]
                let html = parted::use_part(props.clone(), stringify!($chunk), part_points::$chunk);
                #[cfg(not(feature = "split"))]
                let html = $draw(props.clone());
                html
            }
        )*

        #[cfg(feature = "split")]
        mod part_points {
            use super::*;

            $(
                #[wasm_split_helpers::wasm_split($chunk, fallible)]
                pub fn $chunk() -> Result<fn($props) -> Html, wasm_split_helpers::SplitLoaderError> {
                    Ok($draw)
                }
            )*

            /// Every part's chunk, one after another, until `pause` says a view waits for its
            /// own or a fetch fails; each part is then drawn at once.
            pub async fn load_all(pause: fn() -> bool) {
                $(
                    if pause() {
                        return;
                    }
                    match $chunk().await {
                        Ok(draw) => parted::remember(stringify!($chunk), draw),
                        Err(_) => return,
                    }
                )*
            }

            /// One part's chunk, fetched now.
            pub fn fetch(part: Part) {
                wasm_bindgen_futures::spawn_local(async move {
                    match part {
                        $(Part::$part => {
                            if let Ok(draw) = $chunk().await {
                                parted::remember(stringify!($chunk), draw);
                            }
                        })*
                    }
                });
            }
        }

        /// The parts, to fetch one before it is drawn ([`fetch`]).
        #[derive(Clone, Copy, Debug, PartialEq)]
        pub enum Part {
            $($part),*
        }
    };
}

parts! {
    RopeExtras => rope_extras: crate::ui::rope_check::RopeExtrasProps => crate::ui::rope_check::rope_extras,
    TrainHeldOut => train_held_out: crate::ui::train_results::HeldOutProps => crate::ui::train_results::held_out,
}

/// Fetches a part's chunk before it is drawn: a view whose part comes with the user's next step
/// (Train's results, once a run starts) asks for it when it is drawn, so that the part is there
/// by then. Nothing without the `split` feature.
pub fn fetch(part: Part) {
    #[cfg(feature = "split")]
    part_points::fetch(part);
    #[cfg(not(feature = "split"))]
    let _ = part;
}

/// Every part's chunk, for the idle walk over the chunks (`lazy::prefetch`), which passes its
/// check for a view that waits for its own chunk as `pause`.
pub async fn load_all(pause: fn() -> bool) {
    #[cfg(feature = "split")]
    part_points::load_all(pause).await;
    #[cfg(not(feature = "split"))]
    let _ = pause;
}

/// The parts' chunks (see [`parts!`]): the same loader as the views', but nothing waits for them.
#[cfg(feature = "split")]
mod parted {
    use std::any::Any;
    use std::cell::RefCell;
    use std::future::Future;

    use wasm_split_helpers::SplitLoaderError;
    use yew::prelude::*;

    use crate::ui::chunk_load::{failed_note, use_chunk, Stage};

    thread_local! {
        /// The parts whose chunk is here, by chunk name: each a `fn(Props) -> Html`.
        static LOADED: RefCell<Vec<(&'static str, Box<dyn Any>)>> = const { RefCell::new(Vec::new()) };
    }

    fn loaded<P: 'static>(name: &str) -> Option<fn(P) -> Html> {
        LOADED.with(|l| {
            l.borrow()
                .iter()
                .find(|(n, _)| *n == name)
                .and_then(|(_, d)| d.downcast_ref::<fn(P) -> Html>().copied())
        })
    }

    pub(super) fn remember<P: 'static>(name: &'static str, draw: fn(P) -> Html) {
        LOADED.with(|l| {
            let mut l = l.borrow_mut();
            if !l.iter().any(|(n, _)| *n == name) {
                l.push((name, Box::new(draw)));
            }
        });
    }

    /// The part drawn from its chunk `name`, which `load` fetches (once; a failed fetch is tried
    /// again by Try again).
    #[hook]
    pub fn use_part<P, F>(props: P, name: &'static str, load: fn() -> F) -> Html
    where
        P: 'static,
        F: Future<Output = Result<fn(P) -> Html, SplitLoaderError>> + 'static,
    {
        let (stage, retry) = use_chunk(
            name,
            |name| format!("the chunk {name}"),
            loaded::<P>,
            move |_| load(),
            remember::<P>,
        );
        match &*stage {
            Stage::Ready(draw) => draw(props),
            Stage::Loading => html! { <div class="lazy-part" aria-busy="true"></div> },
            Stage::Failed => failed_note(
                "This part of the view could not be loaded right now. Check the connection and try again.",
                retry,
            ),
        }
    }
}
