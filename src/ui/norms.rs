//! Norms and scale: how long the encoding vectors are, and what that means next to token
//! embeddings (which the paper multiplies by √d_model before adding).

use yew::prelude::*;

use super::app::ViewProps;
use super::chart::{CsvExport, Shared};
use super::controls::Toggle;
use super::line_chart::LineChart;
use crate::export::table_csv;
use crate::format::{file_number, plain, significant};
use crate::math::embedding::{word_embedding, SAMPLE_SENTENCE};
use crate::math::offsets::norm;
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series, Stroke, SERIES_COLORS};
use crate::state::{Action, Settings};

/// The word whose embedding is added to every position in the chart.
const WORD: &str = "the";

fn stem(s: &Settings) -> String {
    format!(
        "pe_norms_{}_d{}_len{}_base{}",
        s.variant.id(),
        s.d_model,
        s.length,
        file_number(s.base)
    )
}

fn length_of(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum::<f64>().sqrt()
}

/// Norms at each position: PE alone, and PE plus the word's embedding unscaled and scaled.
fn norm_rows(s: &Settings) -> Vec<[f64; 3]> {
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let word = word_embedding(WORD, s.d_model);
    let scale = (s.d_model as f64).sqrt();
    (0..s.length)
        .map(|p| {
            let pe = e.row(p);
            let sum = |k: f64| -> f64 {
                length_of(
                    &pe.iter()
                        .zip(&word)
                        .map(|(a, b)| a + k * b)
                        .collect::<Vec<_>>(),
                )
            };
            [norm(&e, p), sum(1.0), sum(scale)]
        })
        .collect()
}

fn norms_chart(s: &Settings) -> LineChartData {
    let rows = norm_rows(s);
    let pick = |j: usize| -> Vec<f64> { rows.iter().map(|r| r[j]).collect() };
    let top = rows
        .iter()
        .flat_map(|r| r.iter())
        .cloned()
        .fold(1.0, f64::max);
    let half = (s.d_model as f64 / 2.0).sqrt();
    LineChartData {
        series: vec![
            Series {
                width: 2.2,
                ..Series::line(
                    "|PE(p)|",
                    SERIES_COLORS[0],
                    Points::Uniform {
                        x0: 0.0,
                        dx: 1.0,
                        ys: pick(0),
                    },
                )
            },
            Series {
                stroke: Stroke::Dashed,
                ..Series::line(
                    format!("|e(\"{WORD}\") + PE(p)|"),
                    SERIES_COLORS[1],
                    Points::Uniform {
                        x0: 0.0,
                        dx: 1.0,
                        ys: pick(1),
                    },
                )
            },
            Series::line(
                format!("|√d·e(\"{WORD}\") + PE(p)|"),
                SERIES_COLORS[2],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: pick(2),
                },
            ),
        ],
        x: LineAxis::linear("position p", 0.0, (s.length - 1) as f64),
        y: LineAxis::linear("length of the vector", 0.0, top * 1.12),
        caption: format!(
            "Vector lengths · {} · d_model {} · base {}",
            s.variant.id(),
            s.d_model,
            plain(s.base)
        ),
        guides: vec![Guide {
            value: half,
            label: format!("√(d/2) = {}", significant(half, 4)),
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
                .enumerate()
                .map(|(p, r)| vec![p as f64, r[0], r[1], r[2]]);
            Ok((format!("{}.csv", stem(&settings)), table_csv(&header, rows)))
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
                    { "Each pair contributes sin² + cos² = 1 to the squared length, so every \
                       encoding vector has the same length √(d/2): position does not make a \
                       vector longer, only point it elsewhere." }
                </p>
            </header>
            <div class="panel-body">
                <LineChart
                    id="norms-chart"
                    data={Shared::new(data)}
                    description="Line chart of the length of the encoding vector at each position, alone and added to a word embedding."
                    file_stem={stem(s)}
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
                                { "With an odd d_model the lengths can wobble: the interleaved \
                                   variants end with a lone sine, whose square is not balanced by a \
                                   cosine." }
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
