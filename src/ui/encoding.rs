//! The encoding-matrix view: the heatmap of PE, a readout of the cell under the cursor, and a
//! short explanation whose numbers are computed from the current settings.

use yew::prelude::*;

use super::chart::{CsvExport, Shared};
use super::file_stem;
use super::heatmap::Heatmap;
use super::props::ViewProps;
use crate::export::matrix_csv;
use crate::format::{large, plain, significant};
use crate::math::sinusoidal::{CellFormula, Sinusoidal, Wave};
pub use crate::plot::heatmap::encoding_heatmap;
use crate::schemes::Registered;

#[function_component(EncodingView)]
pub fn encoding_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let encoding = s.sinusoidal();
    let data = use_memo((encoding, s.length, s.palette), |(e, length, palette)| {
        encoding_heatmap(*e, *length, *palette)
    });
    let cell = use_state(|| None::<(usize, usize)>);
    let on_cell = {
        let cell = cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let stem = file_stem(s, "sinusoidal");
    let csv: CsvExport = {
        let (data, stem) = (data.clone(), stem.clone());
        Callback::from(move |_| {
            matrix_csv(&*data.matrix, "position", |c| format!("dim_{c}"))
                .map(|text| (format!("{stem}.csv"), text))
                .map_err(|e| e.message())
        })
    };
    let readout = cell
        .filter(|(r, c)| *r < s.length && *c < s.d_model)
        .map(|(r, c)| encoding.explain(r, c));

    html! {
        <section class="panel" aria-labelledby="encoding-title">
            <header class="panel-head">
                <h2 id="encoding-title">{ "The encoding matrix" }</h2>
                <p class="panel-lead">
                    { crate::main_chart::panel_lead(crate::state::View::Matrix, s) }
                </p>
                <p class="entry"><strong>{ "Where it enters the model: " }</strong>{ crate::schemes::Scheme::Sinusoidal.entry() }</p>
            </header>
            <div class="panel-body">
                <Heatmap
                    id="encoding-heatmap"
                    data={Shared::new(data)}
                    description={format!(
                        "Heatmap of the {} by {} sinusoidal encoding matrix: rows are positions, \
                         columns are dimensions, colour is the value from −1 to 1.",
                        s.length, s.d_model)}
                    file_stem={stem}
                    cursor={*cell}
                    on_cell={on_cell}
                    csv={Some(csv)}
                />
                <aside class="panel-side">
                    <Readout formula={readout} encoding={encoding} />
                    <Explanation encoding={encoding} length={s.length} />
                </aside>
            </div>
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct ReadoutProps {
    formula: Option<CellFormula>,
    encoding: Sinusoidal,
}

/// Everything about the cell under the cursor, with the formula's numbers filled in.
#[function_component(Readout)]
fn readout(props: &ReadoutProps) -> Html {
    let Some(f) = props.formula else {
        return html! {
            <div class="readout" aria-live="polite">
                <h3 class="readout-title">{ "Read one cell" }</h3>
                <p class="muted">
                    { "Hover over the heatmap, tap it, or focus it (Tab) and use the arrow keys." }
                </p>
            </div>
        };
    };
    let e = props.encoding;
    let base = plain(e.base);
    let wave = f.column.wave;
    let role = match (wave, f.column.pair) {
        (Wave::Zero, _) | (_, None) => "padding column, always 0".to_string(),
        (w, Some(i)) => match e.partner(f.dim) {
            Some(p) => format!(
                "{} of pair i = {i}; its {} partner is dimension {p}",
                w.name(),
                if w == Wave::Sin { "cosine" } else { "sine" }
            ),
            None => format!("{} of pair i = {i}, with no partner", w.name()),
        },
    };
    let rows: Vec<(&str, String)> = match (f.column.pair, f.exponent) {
        (Some(_), Some(x)) => vec![
            ("value", significant(f.value, 9)),
            ("column", role),
            (
                "ω",
                format!(
                    "{base}^(−{}) = {base}^(−{}/{}) = {} rad per position",
                    e.variant.exponent_for(e.d_model),
                    x.numerator,
                    x.denominator,
                    significant(f.column.omega, 6)
                ),
            ),
            (
                "wavelength",
                format!("2π/ω = {} positions", significant(f.column.wavelength(), 5)),
            ),
            (
                "formula",
                format!(
                    "PE({}, {}) = {}({} × {}) = {}({}) = {}",
                    f.position,
                    f.dim,
                    wave.name(),
                    f.position,
                    significant(f.column.omega, 6),
                    wave.name(),
                    significant(f.angle, 6),
                    significant(f.value, 7)
                ),
            ),
        ],
        _ => vec![("value", "0".into()), ("column", role)],
    };
    html! {
        <div class="readout" aria-live="polite">
            <h3 class="readout-title">
                { format!("position {}, dimension {}", f.position, f.dim) }
            </h3>
            <dl class="readout-list">
                { for rows.into_iter().map(|(k, v)| html! {
                    <><dt>{ k }</dt><dd>{ v }</dd></>
                }) }
            </dl>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct ExplanationProps {
    encoding: Sinusoidal,
    length: usize,
}

/// What the student is looking at, with facts computed from the current settings.
#[function_component(Explanation)]
fn explanation(props: &ExplanationProps) -> Html {
    let e = props.encoding;
    let pairs = e.pair_count();
    let omegas: Vec<f64> = (0..pairs).map(|i| e.omega(i)).collect();
    let fastest = omegas.iter().cloned().fold(0.0, f64::max);
    let slowest = omegas.iter().cloned().fold(f64::INFINITY, f64::min);
    let last = props.length.saturating_sub(1) as f64;
    // A pair that turns by less than a quarter circle over the whole sequence looks constant.
    let still = omegas
        .iter()
        .filter(|w| **w * last < std::f64::consts::FRAC_PI_2)
        .count();
    html! {
        <div class="explain">
            <h3>{ "What you are looking at" }</h3>
            <p>
                if pairs == 1 {
                    { format!("With d_model = {}, there is a single pair of columns: one \
                        sine and one cosine with a wavelength of {} positions.",
                        e.d_model, significant(std::f64::consts::TAU / fastest, 4)) }
                } else {
                    { format!("Column pairs turn at {} different speeds. The fastest pair has \
                        a wavelength of {} positions; each further pair is slower by the same \
                        factor, down to {} positions for the slowest.",
                        pairs,
                        significant(std::f64::consts::TAU / fastest, 4),
                        large(std::f64::consts::TAU / slowest)) }
                }
            </p>
            <p>
                { format!("Over {}, {} of the {} turn by less than a quarter circle, so \
                    their columns look almost constant: they only start to matter in longer \
                    sequences.",
                    count(props.length, "position", "these"), still, count(pairs, "pair", "")) }
            </p>
            <p>{ e.variant.description() }</p>
            <p class="muted" id="matrix-try-it">
                { crate::learn::lesson::matrix_try_it(e.base, e.variant) }
            </p>
        </div>
    }
}

/// "1 position", "these 100 positions", "1 pair", "64 pairs".
fn count(n: usize, noun: &str, these: &str) -> String {
    match (n, these.is_empty()) {
        (1, true) => format!("1 {noun}"),
        (1, false) => format!("a single {noun}"),
        (_, true) => format!("{n} {noun}s"),
        (_, false) => format!("{these} {n} {noun}s"),
    }
}
