//! "Check your own numbers": a query and a key (typed, pasted, or seeded), their positions m and
//! n, and RoPE applied to them under both pairings with the sidebar's RoPE, so an engineer can
//! compare the rotated vectors, the cos/sin used and the scores against their own code. All the
//! arithmetic is in `figures::rope` (natively tested); this view only formats it.

use std::rc::Rc;

use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

use super::browser;
use super::controls::NumberControl;
use crate::action::Action;
use crate::figures::rope::{cache_csv, score_check, PairingCheck, ScoreCheck};
use crate::format::significant;
use crate::limit::{parse_vector, vector_to_text};
use crate::schemes::file_stem;
use crate::schemes::Scheme;
use crate::state::Settings;

/// Rows of the per-dimension table shown before "show all".
const FIRST_ROWS: usize = 16;

#[derive(Properties, PartialEq)]
pub struct RopeCheckProps {
    pub settings: Rc<Settings>,
    pub on_action: Callback<Action>,
}

/// What the RoPE views draw below their charts: the cache at chosen positions (the matrix view)
/// and the check of your own numbers; a part of its own, fetched after the view (`ui::parts`).
#[derive(Properties, PartialEq, Clone)]
pub struct RopeExtrasProps {
    pub settings: Rc<Settings>,
    pub on_action: Callback<Action>,
    /// Whether the cache at chosen positions comes first.
    #[prop_or_default]
    pub cache: bool,
}

pub fn rope_extras(props: RopeExtrasProps) -> Html {
    html! {
        <>
            if props.cache {
                <super::rope_cache::RopeCacheAt settings={(*props.settings).clone()} />
            }
            <RopeCheck settings={props.settings} on_action={props.on_action} />
        </>
    }
}

/// A vector as the field shows it: shortest round-trip numbers, comma separated.
fn vector_text(v: &[f64]) -> String {
    vector_to_text(v, ", ")
}

/// Scores and table values: enough digits to compare with float64 code.
fn num(v: f64) -> String {
    significant(v, 9)
}

#[function_component(RopeCheck)]
pub fn rope_check(props: &RopeCheckProps) -> Html {
    let s = &*props.settings;
    let rope = s.rope();
    let [q, k] = s.rope_check_vectors();
    let (m, n) = (s.rope_m, s.rope_n);
    let check = use_memo(
        (rope.clone(), q.value.clone(), k.value.clone(), m, n),
        |(rope, q, k, m, n)| score_check(rope, q, k, *m, *n),
    );
    let show_all = use_state(|| false);
    let problem = use_state(|| None::<String>);

    let on_action = props.on_action.clone();
    let set = |f: fn(Option<Vec<f64>>) -> Action| {
        let cb = on_action.clone();
        Callback::from(move |v: Vec<f64>| cb.emit(f(Some(v))))
    };
    let act = |f: fn(f64) -> Action| super::settings::numeric(&on_action, f);
    let on_seeded = {
        let cb = on_action.clone();
        Callback::from(move |_: MouseEvent| {
            cb.emit(Action::SetRopeQ(None));
            cb.emit(Action::SetRopeK(None));
        })
    };
    let toggle_all = {
        let show_all = show_all.clone();
        Callback::from(move |_: MouseEvent| show_all.set(!*show_all))
    };
    let stem = format!("{}_m{m}_n{n}", file_stem(s, Scheme::Rope, "rope_check"));
    let on_table_csv = {
        let (check, problem, name) = (check.clone(), problem.clone(), format!("{stem}.csv"));
        Callback::from(move |_: MouseEvent| {
            problem.set(browser::save_text(&name, "text/csv", &check.csv).err());
        })
    };
    let on_cache_csv = {
        let (problem, length) = (problem.clone(), s.length);
        let name = format!("{}.csv", file_stem(s, Scheme::Rope, "rope_cos_sin_cache"));
        Callback::from(move |_: MouseEvent| {
            let result = cache_csv(&rope, length)
                .map_err(|e| e.message())
                .and_then(|text| browser::save_text(&name, "text/csv", &text));
            problem.set(result.err());
        })
    };

    let seeded = s.rope_q.is_none() && s.rope_k.is_none();
    let shown_rows = if *show_all {
        check.rows.len()
    } else {
        FIRST_ROWS.min(check.rows.len())
    };
    let passing = check.d_model - check.rotary_dim;

    html! {
        <section class="rope-check" aria-labelledby="rope-check-title">
            <h3 id="rope-check-title">{ "Check your own numbers" }</h3>
            <p>
                { "Paste one attention head's query and key from your own model, taken before \
                   RoPE (head_dim numbers each; set d_model, base, scaling and rotary fraction in \
                   the sidebar as your config has them), and their positions m and n. Your \
                   rotated q and k, cos and sin should match the columns of the pairing your code \
                   uses (rotate_half: Hugging Face, GPT-NeoX; adjacent pairs: RoFormer, GPT-J, \
                   Meta's LLaMA), and your q·k before the 1/√d scaling its score, to about 6 \
                   significant digits in float32. The score at (m − n, 0) is the same, since \
                   RoPE sees only the distance." }
            </p>
            <div class="rope-check-inputs">
                <VectorField id="rope-check-q" name="q" label="query q (before RoPE)"
                    value={vector_text(s.rope_q.as_deref().unwrap_or(&q.value))}
                    typed={s.rope_q.is_some()} fit_note={q.note.clone()}
                    on_change={set(Action::SetRopeQ)} />
                <VectorField id="rope-check-k" name="k" label="key k (before RoPE)"
                    value={vector_text(s.rope_k.as_deref().unwrap_or(&k.value))}
                    typed={s.rope_k.is_some()} fit_note={k.note.clone()}
                    on_change={set(Action::SetRopeK)} />
            </div>
            <div class="view-controls">
                <button type="button" class="button" onclick={on_seeded} disabled={seeded}
                    aria-describedby="rope-check-seeded">
                    { "Use a seeded pair" }
                </button>
                <span id="rope-check-seeded" class="muted small">
                    { format!("{}: normal entries rounded to 3 decimals, from the seed {} (the \
                        sidebar's seed).",
                        if seeded { "Using the seeded pair" } else { "The seeded pair" },
                        s.learned_seed) }
                </span>
            </div>
            <div class="view-controls">
                <div class="control-inline">
                    <NumberControl id="rope-check-m" limit={s.rope_m_limit()} value={m as f64}
                        on_change={act(Action::SetRopeM)} hint="the query's position" />
                </div>
                <div class="control-inline">
                    <NumberControl id="rope-check-n" limit={s.rope_n_limit()} value={n as f64}
                        on_change={act(Action::SetRopeN)} hint="the key's position" />
                </div>
            </div>
            { scores_table(&check) }
            <p class="muted small">
                { format!("{} of {} dimensions rotated{}; attention factor {} (cos and sin \
                    include it).",
                    check.rotary_dim, check.d_model,
                    if passing > 0 {
                        format!(" (dimensions {} to {} pass through: cos 1, sin 0)",
                            check.rotary_dim, check.d_model - 1)
                    } else {
                        String::new()
                    },
                    significant(check.attention_factor, 9)) }
            </p>
            <DimsTable check={check.clone()} shown={shown_rows} />
            <div class="chart-tools">
                if check.rows.len() > FIRST_ROWS {
                    <button type="button" class="button" onclick={toggle_all}
                        aria-expanded={show_all.to_string()} aria-controls="rope-check-dims">
                        { if *show_all {
                            format!("Show the first {FIRST_ROWS} dimensions")
                        } else {
                            format!("Show all {} dimensions", check.rows.len())
                        } }
                    </button>
                }
                <button type="button" class="button" onclick={on_table_csv}>
                    { "Download the per-dimension table (CSV)" }
                </button>
                <button type="button" class="button" onclick={on_cache_csv}>
                    { "Download the cos/sin cache (CSV)" }
                </button>
            </div>
            <p class="muted small">
                { format!("The cache CSV is cos_cached and sin_cached as Hugging Face builds them \
                    for the sidebar's {} pairing: one row per position 0 … {}, the columns \
                    cos_0 … cos_{d} then sin_0 … sin_{d}.",
                    s.schemes.rope.pairing.id(), s.length - 1, d = check.d_model - 1) }
            </p>
            if let Some(p) = &*problem {
                <p class="note note-error" role="alert">{ p.clone() }</p>
            }
        </section>
    }
}

/// The scores under both pairings, and q·k without RoPE.
fn scores_table(c: &ScoreCheck) -> Html {
    let rel = c.m as i64 - c.n as i64;
    let cells = |f: fn(&PairingCheck) -> f64| {
        html! {
            <>
                <td>{ num(f(&c.half)) }</td>
                <td>{ num(f(&c.adjacent)) }</td>
            </>
        }
    };
    html! {
        <table class="numbers rope-check-scores" id="rope-check-scores">
            <caption>{ format!("Scores for q at m = {} and k at n = {} (no 1/√d)", c.m, c.n) }</caption>
            <thead>
                <tr>
                    <th scope="col">{ "score" }</th>
                    <th scope="col">{ "rotate-half (GPT-NeoX, Hugging Face)" }</th>
                    <th scope="col">{ "adjacent (RoFormer, GPT-J, Meta)" }</th>
                </tr>
            </thead>
            <tbody>
                <tr>
                    <th scope="row">{ format!("q_m · k_n at ({}, {})", c.m, c.n) }</th>
                    { cells(|p| p.score) }
                </tr>
                <tr>
                    <th scope="row">{ format!("q · k at (m − n, 0) = ({rel}, 0)") }</th>
                    { cells(|p| p.relative_score) }
                </tr>
                <tr>
                    <th scope="row">{ "difference" }</th>
                    <td>{ significant(c.half.relative_gap(), 2) }</td>
                    <td>{ significant(c.adjacent.relative_gap(), 2) }</td>
                </tr>
                <tr>
                    <th scope="row">{ "q · k without RoPE" }</th>
                    <td colspan="2">{ num(c.plain_score) }</td>
                </tr>
            </tbody>
        </table>
    }
}

#[derive(Properties, PartialEq)]
struct DimsTableProps {
    check: Rc<ScoreCheck>,
    /// Rows the table holds: the first 16, or all.
    shown: usize,
}

/// Rows drawn beyond those in view, above and below, so that scrolling shows no gap.
const OVERSCAN: usize = 12;
/// Rows in view at once, at most (the scroller is 480 px high; a row about 30 px).
const IN_VIEW: usize = 24;
/// A row's height before it can be measured, in CSS pixels.
const ROW_PX: f64 = 30.0;

/// The per-dimension table: the first `shown` rows in a scroller that draws only the rows in
/// view (with empty rows of the right height for the rest), so that d_model 4,096 costs what
/// 40 rows cost. Its rows keep their numbers for assistive technology (`aria-rowindex`, of
/// `aria-rowcount`); the CSV has every row.
#[function_component(DimsTable)]
fn dims_table(props: &DimsTableProps) -> Html {
    let c = &props.check;
    let scroller = use_node_ref();
    let top = use_state(|| 0.0f64);
    let row_px = use_state(|| ROW_PX);
    let onscroll = {
        let (scroller, top) = (scroller.clone(), top.clone());
        Callback::from(move |_: Event| {
            if let Some(el) = scroller.cast::<web_sys::Element>() {
                top.set(el.scroll_top() as f64);
            }
        })
    };
    // The real row height, once a row is drawn (fonts and zoom decide it).
    {
        let (scroller, row_px) = (scroller.clone(), row_px.clone());
        use_effect_with(props.shown, move |_| {
            let measured = scroller
                .cast::<web_sys::Element>()
                .and_then(|el| el.query_selector("tbody tr[aria-rowindex]").ok().flatten())
                .map(|row| row.get_bounding_client_rect().height())
                .filter(|h| *h > 1.0);
            if let Some(h) = measured {
                if (h - *row_px).abs() > 0.5 {
                    row_px.set(h);
                }
            }
        });
    }
    let shown = props.shown.min(c.rows.len());
    let first = ((*top / *row_px) as usize)
        .saturating_sub(OVERSCAN)
        .min(shown);
    let last = (first + IN_VIEW + 2 * OVERSCAN).min(shown);
    let spacer = |rows: usize| {
        (rows > 0).then(|| {
            html! {
                <tr class="rope-check-spacer" aria-hidden="true"
                    style={format!("height:{}px", rows as f64 * *row_px)}>
                    <td colspan="15"></td>
                </tr>
            }
        })
    };
    let sub = ["q rotated", "k rotated", "cos m", "sin m", "cos n", "sin n"];
    html! {
        <div class="table-scroll rope-check-dims" id="rope-check-dims" role="region" tabindex="0"
            ref={scroller} onscroll={onscroll}
            aria-label="Per-dimension table: q, k, and for each pairing q and k rotated with the cos and sin used at m and n">
            <table class="numbers" aria-rowcount={(shown + 2).to_string()}>
                <caption>
                    { if shown > IN_VIEW {
                        format!("Per dimension, all {} (scroll the table for more)", shown)
                    } else {
                        format!("Per dimension, {} of {} shown", shown, c.rows.len())
                    } }
                </caption>
                <thead>
                    <tr aria-rowindex="1">
                        <td></td>
                        <th scope="colgroup" colspan="2">{ "input" }</th>
                        <th scope="colgroup" colspan="6">{ "rotate-half" }</th>
                        <th scope="colgroup" colspan="6">{ "adjacent" }</th>
                    </tr>
                    <tr aria-rowindex="2">
                        <th scope="col">{ "dim" }</th>
                        <th scope="col">{ "q" }</th>
                        <th scope="col">{ "k" }</th>
                        { for sub.iter().chain(sub.iter()).map(|h| html! { <th scope="col">{ *h }</th> }) }
                    </tr>
                </thead>
                <tbody>
                    { spacer(first).unwrap_or_default() }
                    { for c.rows[first..last].iter().enumerate().map(|(i, row)| html! {
                        <tr aria-rowindex={(first + i + 3).to_string()}>
                            <th scope="row">{ row[0] as usize }</th>
                            { for row[1..].iter().map(|v| html! { <td>{ significant(*v, 7) }</td> }) }
                        </tr>
                    }) }
                    { spacer(shown - last).unwrap_or_default() }
                </tbody>
            </table>
        </div>
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Note {
    Info(String),
    Error(String),
}

#[derive(Properties, PartialEq)]
struct VectorFieldProps {
    id: AttrValue,
    /// "q" or "k", for messages.
    name: AttrValue,
    label: AttrValue,
    /// The vector in use, as text.
    value: AttrValue,
    /// Typed by the user (otherwise seeded).
    typed: bool,
    /// What fitting the typed vector to d_model did, if anything.
    fit_note: Option<String>,
    on_change: Callback<Vec<f64>>,
}

/// A text area for a vector: read when it loses focus; refused text keeps the previous vector
/// and says why next to the field.
#[function_component(VectorField)]
fn vector_field(props: &VectorFieldProps) -> Html {
    // A note and the field value it was written for: it disappears when the vector changes
    // some other way (the seeded pair, a link, d_model).
    let note = use_state(|| None::<(AttrValue, Note)>);
    let note_id = format!("{}-note", props.id);
    let hint_id = format!("{}-hint", props.id);
    let on_change = {
        let (cb, note, name, current) = (
            props.on_change.clone(),
            note.clone(),
            props.name.clone(),
            props.value.clone(),
        );
        Callback::from(move |e: Event| {
            let area: HtmlTextAreaElement = e.target_unchecked_into();
            match parse_vector(&area.value(), &name) {
                Ok(accepted) => {
                    let text = AttrValue::from(vector_text(&accepted.value));
                    note.set(accepted.note.map(|n| (text, Note::Info(n))));
                    cb.emit(accepted.value);
                }
                // The text stays as typed, to be corrected; the previous vector is still used.
                Err(message) => note.set(Some((current.clone(), Note::Error(message)))),
            }
        })
    };
    let local = (*note)
        .as_ref()
        .filter(|(for_value, _)| *for_value == props.value)
        .map(|(_, n)| n.clone());
    let (note_class, note_text) = match (local, &props.fit_note) {
        (Some(Note::Error(t)), _) => ("note note-error", t),
        (Some(Note::Info(t)), Some(fit)) => ("note note-info", format!("{t} {fit}")),
        (Some(Note::Info(t)), None) => ("note note-info", t),
        (None, Some(fit)) => ("note note-info", fit.clone()),
        (None, None) => ("note", String::new()),
    };
    html! {
        <div class="list-field rope-check-field">
            <label for={props.id.clone()} class="control-label">{ props.label.clone() }</label>
            <textarea id={props.id.clone()} class="rope-check-text" rows="3" spellcheck="false"
                autocomplete="off" value={props.value.clone()} onchange={on_change}
                aria-describedby={format!("{hint_id} {note_id}")} />
            <span id={hint_id} class="control-hint">
                { if props.typed {
                    "As typed. Numbers separated by commas or spaces; applied when you leave the field."
                } else {
                    "The seeded vector. Paste your own (commas or spaces); applied when you leave the field."
                } }
            </span>
            <p id={note_id} class={note_class} role="status" aria-live="polite">{ note_text }</p>
        </div>
    }
}
