//! Addition versus concatenation: token embeddings plus the encoding, next to the two side by
//! side, and what each costs the layer that reads them.

use std::rc::Rc;

use yew::prelude::*;

use super::chart::{CsvExport, Shared};
use super::controls::Toggle;
use super::heatmap::Heatmap;
use super::props::ViewProps;
use super::schemes::SinusoidalOnly;
use super::sinusoidal_stem as file_stem;
use crate::action::Action;
use crate::export::matrix_csv;
use crate::figures::addition::{addition, AdditionInputs};
use crate::format::group_thousands;
use crate::main_chart::ADDITION;
use crate::math::cost::add_vs_concat;
use crate::math::embedding::SAMPLE_SENTENCE;
use crate::plot::heatmap::HeatmapData;
use crate::state::Settings;

fn stem(s: &Settings, what: &str) -> String {
    let scaled = if s.scale_embeddings { "_scaled" } else { "" };
    format!("{}{scaled}", file_stem(s, what))
}

#[function_component(AdditionView)]
pub fn addition_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let both = use_memo(AdditionInputs::of(s), addition);
    let sum_cell = use_state(|| None::<(usize, usize)>);
    let concat_cell = use_state(|| None::<(usize, usize)>);
    let csv = |data: Rc<HeatmapData>, name: String| -> CsvExport {
        Callback::from(move |_| {
            matrix_csv(&*data.matrix, "token_position", |c| format!("dim_{c}"))
                .map(|t| (format!("{name}.csv"), t))
                .map_err(|e| e.message())
        })
    };
    // The sum's or the concatenation's heatmap (`what`): its id, file and CSV, its own cursor.
    let heatmap = |what: &str,
                   data: &Rc<HeatmapData>,
                   cell: &UseStateHandle<Option<(usize, usize)>>,
                   description: &'static str| {
        let on_cell = {
            let c = cell.clone();
            Callback::from(move |v| c.set(v))
        };
        html! {
            <Heatmap id={format!("{what}-heatmap")} data={Shared::new(data.clone())}
                {description} file_stem={stem(s, what)} cursor={**cell} {on_cell}
                csv={Some(csv(data.clone(), stem(s, what)))}
                aspect={ADDITION.aspect} min_height={ADDITION.min} max_height={ADDITION.max} />
        }
    };
    let on_scale = {
        let cb = props.on_action.clone();
        Callback::from(move |v: bool| cb.emit(Action::SetScaleEmbeddings(v)))
    };
    let d = s.d_model as u64;
    let n = both.0.matrix.rows() as u64;
    let (add, cat) = add_vs_concat(d, d);
    let extra_params = cat.parameters - add.parameters;
    let cut = s.length < SAMPLE_SENTENCE.len();

    html! {
        <section class="panel" aria-labelledby="addition-title">
            <header class="panel-head">
                <h2 id="addition-title">{ "Add or concatenate?" }</h2>
                <p class="panel-lead">
                    { format!("The sentence \"{}\": each token's embedding (derived from the word) \
                        and its position's encoding, added into one vector of width d, or placed \
                        side by side in a vector of width 2d.", SAMPLE_SENTENCE.join(" ")) }
                </p>
            </header>
            <SinusoidalOnly scheme={s.scheme} on_action={props.on_action.clone()} />
            <div class="view-controls">
                <Toggle id="scale-embeddings-add" label="Scale embeddings by √d_model"
                    checked={s.scale_embeddings} on_change={on_scale} />
                if cut {
                    <p class="note note-info">
                        { format!("length is {}, so only the first {} tokens are used.", s.length, s.length) }
                    </p>
                }
            </div>
            <div class="twin">
                { heatmap("sum", &both.0, &sum_cell,
                    "Heatmap of the token embeddings plus the positional encoding, one row per token.") }
                { heatmap("concat", &both.1, &concat_cell,
                    "Heatmap of the token embeddings and the positional encoding side by side, twice as wide.") }
            </div>
            <div class="panel-body">
                <table class="numbers cost">
                    <caption>{ format!("The next layer: a projection to d_model = {d} outputs (like W_Q), reading d or 2d inputs") }</caption>
                    <thead>
                        <tr><th scope="col">{ "" }</th><th scope="col">{ "added (width d)" }</th>
                            <th scope="col">{ "concatenated (width 2d)" }</th></tr>
                    </thead>
                    <tbody>
                        <tr><th scope="row">{ "parameters (weights + biases)" }</th>
                            <td>{ group_thousands(add.parameters) }</td><td>{ group_thousands(cat.parameters) }</td></tr>
                        <tr><th scope="row">{ "multiply-adds per token" }</th>
                            <td>{ group_thousands(add.macs_per_token) }</td><td>{ group_thousands(cat.macs_per_token) }</td></tr>
                        <tr><th scope="row">{ format!("multiply-adds for {n} tokens") }</th>
                            <td>{ group_thousands(add.macs_per_token * n) }</td><td>{ group_thousands(cat.macs_per_token * n) }</td></tr>
                        <tr><th scope="row">{ "parameters of Q, K and V together" }</th>
                            <td>{ group_thousands(3 * add.parameters) }</td><td>{ group_thousands(3 * cat.parameters) }</td></tr>
                    </tbody>
                </table>
                <div class="explain">
                    <p>
                        { format!("Concatenating doubles the width every following layer reads: \
                            {} more parameters in this one projection alone, and twice the \
                            multiply-adds for every token.", group_thousands(extra_params)) }
                    </p>
                    <p>
                        { "Addition keeps the width, and the model loses less than it seems: in \
                           many dimensions (the slow columns: the right end of an interleaved \
                           matrix, the end of each half of a split one) the encoding is almost \
                           constant, so those carry the word nearly untouched, while the fast \
                           columns on the left carry the position. Learned layers can read both \
                           out of the sum." }
                    </p>
                    <p class="muted">
                        { "Without the √d_model scaling the embedding entries are tiny next to the \
                           ±1 of the encoding: switch it off and the sum looks like the encoding alone." }
                    </p>
                </div>
            </div>
        </section>
    }
}
