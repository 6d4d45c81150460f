//! The RoPE cache at positions the user lists ("0, 1, 4095, 131071"), past the view's length if
//! need be, as a CSV. The numbers come from `figures::rope::cache_at_positions`.

use yew::prelude::*;

use super::browser;
use crate::figures::rope::{cache_at_positions, MAX_CACHE_POSITION, MAX_CACHE_POSITIONS};
use crate::format::group_thousands;
use crate::state::Settings;

#[derive(Properties, PartialEq)]
pub struct RopeCacheProps {
    pub settings: Settings,
}

/// A field for positions and a button that downloads the cos/sin cache at them.
#[function_component(RopeCacheAt)]
pub fn rope_cache_at(props: &RopeCacheProps) -> Html {
    let field = use_node_ref();
    let note = use_state(|| None::<(bool, String)>);
    let on_download = {
        let (field, note, s) = (field.clone(), note.clone(), props.settings.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(input) = field.cast::<web_sys::HtmlInputElement>() else {
                return;
            };
            let name = format!("{}.csv", super::file_stem(&s, "rope_cos_sin_at_positions"));
            let rope_for = |length| {
                s.schemes
                    .rope
                    .rope(s.d_model, s.base, s.trained_length, length)
            };
            match cache_at_positions(&input.value(), s.length, rope_for)
                .and_then(|(csv, said)| browser::save_text(&name, "text/csv", &csv).map(|_| said))
            {
                Ok(said) => note.set(Some((true, said))),
                Err(e) => note.set(Some((false, e))),
            }
        })
    };
    html! {
        <div class="list-field rope-cache-at">
            <label for="rope-cache-positions" class="control-label">
                { "The cos/sin cache at these positions" }
            </label>
            <div class="view-controls">
                <input id="rope-cache-positions" ref={field} type="text" class="control-list"
                    autocomplete="off" spellcheck="false" placeholder="0, 1, 4095, 131071"
                    aria-describedby="rope-cache-hint rope-cache-note" />
                <button type="button" class="button" id="rope-cache-download" onclick={on_download}>
                    { "Download (CSV)" }
                </button>
            </div>
            <span id="rope-cache-hint" class="control-hint">
                { format!("Up to {MAX_CACHE_POSITIONS} positions from 0 to {}, past the view's \
                    length too (float32 holds every whole position up to there): one row each, \
                    position, cos_0 … then sin_0 …, as the table's CSV.",
                    group_thousands(MAX_CACHE_POSITION as u64)) }
            </span>
            <p id="rope-cache-note" role="status"
                class={classes!("note", note.as_ref().map(|(ok, _)| if *ok { "note-info" } else { "note-error" }))}>
                { note.as_ref().map(|(_, t)| t.clone()).unwrap_or_default() }
            </p>
        </div>
    }
}
