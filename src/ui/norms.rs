//! Norms and scale: how long the encoding vectors are, and what that means next to token
//! embeddings (which the paper multiplies by √d_model before adding).

use yew::prelude::*;

use super::chart::{CsvExport, Shared};
use super::controls::Toggle;
use super::line_chart::LineChart;
use super::props::ViewProps;
use super::schemes::SinusoidalOnly;
use super::sinusoidal_stem as file_stem;
use crate::action::Action;
use crate::figures::norms::{length_of, norms, NormsInputs};
use crate::format::significant;
use crate::main_chart::panel_lead;
use crate::math::embedding::{word_embedding, SAMPLE_SENTENCE};
use crate::math::offsets::norm;
use crate::math::sinusoidal::Sinusoidal;

#[function_component(NormsView)]
pub fn norms_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let figure = use_memo(NormsInputs::of(s), norms);
    let data = figure.chart.clone();
    let cursor = use_state(|| None::<f64>);
    let csv: CsvExport = {
        let (figure, name) = (figure.clone(), format!("{}.csv", file_stem(s, "norms")));
        Callback::from(move |_| Ok((name.clone(), figure.csv.clone())))
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
                <p class="panel-lead">{ panel_lead(crate::state::View::Norms, s) }</p>
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
