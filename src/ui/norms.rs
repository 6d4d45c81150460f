//! Norms and scale: how long the encoding vectors are, and what that means next to token
//! embeddings (which the paper multiplies by √d_model before adding).

use yew::prelude::*;

use super::app::ViewProps;
use super::chart::{CsvExport, Shared};
use super::controls::Toggle;
use super::line_chart::LineChart;
use super::schemes::SinusoidalOnly;
use super::sinusoidal_stem as file_stem;
use crate::action::Action;
use crate::export::table_csv;
use crate::format::{plain, significant};
use crate::math::embedding::{word_embedding, SAMPLE_SENTENCE};
use crate::math::offsets::{dot_with_rows, norm, PairStructure};
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series, Stroke, SERIES_COLORS};
use crate::state::Settings;

/// The word whose embedding is added to every position in the chart.
const WORD: &str = "the";

/// Work (positions × pairs) above which the chart samples every k-th position.
const MAX_WORK: usize = 8_000_000;

/// The positions drawn: every one, or every `stride`-th when the sequence is very long.
fn stride(s: &Settings) -> usize {
    (s.length * (s.d_model / 2).max(1))
        .div_ceil(MAX_WORK)
        .max(1)
}

fn length_of(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Norms at the drawn positions: |PE(p)|, |e + PE(p)| and |√d·e + PE(p)|, from
/// |a·e + PE|² = a²|e|² + 2a·(e·PE) + |PE|², with e·PE(p) from the pair walk.
fn norm_rows(s: &Settings) -> Vec<(usize, [f64; 3])> {
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let structure = PairStructure::of(&e);
    let word = word_embedding(WORD, s.d_model);
    let word_sq = length_of(&word).powi(2);
    let step = stride(s);
    let dots = dot_with_rows(&e, &word, s.length, 0, step);
    let scale = (s.d_model as f64).sqrt();
    dots.iter()
        .enumerate()
        .map(|(j, dot)| {
            let p = j * step;
            let pe = structure.norm_squared(p);
            let sum = |a: f64| (a * a * word_sq + 2.0 * a * dot + pe).max(0.0).sqrt();
            (p, [pe.sqrt(), sum(1.0), sum(scale)])
        })
        .collect()
}

fn norms_chart(s: &Settings) -> LineChartData {
    let rows = norm_rows(s);
    let step = stride(s) as f64;
    let pick = |j: usize| -> Vec<f64> { rows.iter().map(|r| r.1[j]).collect() };
    let top = rows
        .iter()
        .flat_map(|r| r.1.iter())
        .cloned()
        .fold(1.0, f64::max);
    let pairs = Sinusoidal::new(s.variant, s.d_model, s.base)
        .pair_count()
        .min(s.d_model / 2);
    let guide = (pairs.max(1) as f64).sqrt();
    let uniform = |ys| Points::Uniform {
        x0: 0.0,
        dx: step,
        ys,
    };
    LineChartData {
        series: vec![
            Series {
                width: 2.2,
                ..Series::line("|PE(p)|", SERIES_COLORS[0], uniform(pick(0)))
            },
            Series {
                stroke: Stroke::Dashed,
                ..Series::line(
                    format!("|e(\"{WORD}\") + PE(p)|"),
                    SERIES_COLORS[1],
                    uniform(pick(1)),
                )
            },
            Series::line(
                format!("|√d·e(\"{WORD}\") + PE(p)|"),
                SERIES_COLORS[2],
                uniform(pick(2)),
            ),
        ],
        x: LineAxis::linear("position p", 0.0, (s.length - 1) as f64),
        y: LineAxis::linear("length of the vector", 0.0, top * 1.12),
        caption: format!(
            "Vector lengths · {} · d_model {} · base {}{}",
            s.variant.id(),
            s.d_model,
            plain(s.base),
            if step > 1.0 {
                format!(" · every {step}th position")
            } else {
                String::new()
            }
        ),
        guides: vec![Guide {
            value: guide,
            label: format!("√(pairs) = √{pairs} = {}", significant(guide, 4)),
            vertical: false,
        }],
    }
}

#[function_component(NormsView)]
pub fn norms_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let data = {
        let settings = s.clone();
        use_memo(
            (s.variant, s.d_model, s.length, s.base.to_bits()),
            move |_| norms_chart(&settings),
        )
    };
    let cursor = use_state(|| None::<f64>);
    let csv: CsvExport = {
        let settings = s.clone();
        Callback::from(move |_| {
            let header = [
                "position",
                "pe_norm",
                "word_plus_pe_norm",
                "scaled_word_plus_pe_norm",
            ]
            .map(String::from);
            let rows = norm_rows(&settings)
                .into_iter()
                .map(|(p, r)| vec![p as f64, r[0], r[1], r[2]]);
            Ok((
                format!("{}.csv", file_stem(&settings, "norms")),
                table_csv(&header, rows),
            ))
        })
    };
    let d = s.d_model;
    let words: Vec<Vec<f64>> = SAMPLE_SENTENCE
        .iter()
        .map(|w| word_embedding(w, d))
        .collect();
    let mean = |k: f64| words.iter().map(|v| k * length_of(v)).sum::<f64>() / words.len() as f64;
    let sqrt_d = (d as f64).sqrt();
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let pe = norm(&e, 0);
    let on_scale = {
        let cb = props.on_action.clone();
        Callback::from(move |v: bool| cb.emit(Action::SetScaleEmbeddings(v)))
    };
    let odd = d % 2 == 1;
    html! {
        <section class="panel" aria-labelledby="norms-title">
            <header class="panel-head">
                <h2 id="norms-title">{ "Norms and scale" }</h2>
                <p class="panel-lead">
                    { "Each sine-cosine pair contributes sin² + cos² = 1 to the squared length, \
                       so every encoding vector has the same length, √(number of pairs) (√(d/2) \
                       for an even d_model): position does not make a vector longer, only point \
                       it elsewhere." }
                </p>
            </header>
            <SinusoidalOnly scheme={s.scheme} on_action={props.on_action.clone()} />
            <div class="panel-body">
                <LineChart
                    id="norms-chart"
                    data={Shared::new(data)}
                    description="Line chart of the length of the encoding vector at each position, alone and added to a word embedding."
                    file_stem={file_stem(s, "norms")}
                    cursor={*cursor}
                    on_x={{ let c = cursor.clone(); Callback::from(move |v| c.set(v)) }}
                    csv={Some(csv)}
                />
                <aside class="panel-side">
                    <table class="numbers">
                        <caption>{ format!("Typical lengths at d_model = {d}") }</caption>
                        <tbody>
                            <tr><th scope="row">{ "token embedding, entries N(0, 1/d)" }</th>
                                <td>{ significant(mean(1.0), 4) }</td></tr>
                            <tr><th scope="row">{ "× √d_model, as in the paper" }</th>
                                <td>{ significant(mean(sqrt_d), 4) }</td></tr>
                            <tr><th scope="row">{ "positional encoding" }</th>
                                <td>{ significant(pe, 4) }</td></tr>
                        </tbody>
                    </table>
                    <p class="muted small">
                        { format!("Embeddings: the mean over the {} words of a sample sentence, each \
                            vector derived from its word.", SAMPLE_SENTENCE.len()) }
                    </p>
                    <div class="explain">
                        <p>
                            { format!("Embeddings initialised with entries of variance 1/d have length \
                                about 1, while the encoding has length {}: added as they are, position \
                                would drown the word. Multiplying the embedding by √d_model = {} makes \
                                the two comparable, which is what the paper does.",
                                significant(pe, 3), significant(sqrt_d, 4)) }
                        </p>
                        if odd {
                            <p>
                                { if s.variant == crate::math::sinusoidal::Variant::T2t {
                                    "With an odd d_model, t2t pads one column with zeros, so every \
                                     vector still has the same length √(⌊d/2⌋)."
                                } else {
                                    "With an odd d_model the lengths wobble: one sine has no cosine \
                                     partner, and its square is not balanced by one."
                                } }
                            </p>
                        }
                        <Toggle id="scale-embeddings" label="Scale embeddings by √d_model (used by the add-or-concatenate view)"
                            checked={s.scale_embeddings} on_change={on_scale} />
                    </div>
                </aside>
            </div>
        </section>
    }
}
