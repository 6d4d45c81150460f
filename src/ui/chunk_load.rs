//! What a view drawn from a chunk (`ui::lazy`) and a part of a view drawn from one
//! (`ui::parts`) share, in a split build: where the chunk's load stands, started when the
//! component is first drawn and again by Try again, and the note that says it failed.

use std::fmt::Display;
use std::future::Future;

use yew::prelude::*;

/// Where a chunk's load stands: on its way, here (with what draws from it), or failed.
pub enum Stage<D> {
    Loading,
    Ready(D),
    Failed,
}

/// The stage of chunk `key`'s load, and the Try again that loads it again after a failure.
/// `loaded` finds what the chunk draws if it is here (drawn at once from the first render),
/// `load` fetches it, and `remember` keeps what it brought for the next component that needs
/// it. A failure's reason goes to the console, after `what` the chunk is; the reader is told
/// what to do ([`failed_note`]).
#[hook]
pub fn use_chunk<K, D, E, F, L>(
    key: K,
    what: fn(K) -> String,
    loaded: fn(K) -> Option<D>,
    load: L,
    remember: fn(K, D),
) -> (UseStateHandle<Stage<D>>, Callback<MouseEvent>)
where
    K: PartialEq + Copy + 'static,
    D: Copy + 'static,
    E: Display,
    F: Future<Output = Result<D, E>> + 'static,
    L: FnOnce(K) -> F + 'static,
{
    let stage = use_state(|| loaded(key).map_or(Stage::Loading, Stage::Ready));
    let attempt = use_state(|| 0_u32);
    {
        let stage = stage.clone();
        use_effect_with((key, *attempt), move |(key, _)| {
            let key = *key;
            if let Some(draw) = loaded(key) {
                // Set only after a load elsewhere (the idle walk, another component).
                if !matches!(*stage, Stage::Ready(_)) {
                    stage.set(Stage::Ready(draw));
                }
            } else {
                stage.set(Stage::Loading);
                wasm_bindgen_futures::spawn_local(async move {
                    match load(key).await {
                        Ok(draw) => {
                            remember(key, draw);
                            stage.set(Stage::Ready(draw));
                        }
                        Err(why) => {
                            web_sys::console::warn_1(&format!("{}: {why}", what(key)).into());
                            stage.set(Stage::Failed);
                        }
                    }
                });
            }
        });
    }
    let retry = Callback::from(move |_: MouseEvent| attempt.set(*attempt + 1));
    (stage, retry)
}

/// What stands in place of a chunk's view or part that did not come: `text` says what to do,
/// and Try again loads it again.
pub fn failed_note(text: &'static str, retry: Callback<MouseEvent>) -> Html {
    html! {
        <div class="note note-error view-failed" role="alert">
            <p>{ text }</p>
            <button type="button" class="button button-small" onclick={retry}>{ "Try again" }</button>
        </div>
    }
}
