//! Addition versus concatenation: token embeddings plus the encoding, next to the two side by
//! side, and what each costs the layer that reads them.

use std::rc::Rc;

use yew::prelude::*;

use super::app::ViewProps;
use super::chart::{CsvExport, Shared};
use super::controls::Toggle;
use super::heatmap::Heatmap;
use super::schemes::SinusoidalOnly;
use super::sinusoidal_stem as file_stem;
use crate::action::Action;
use crate::export::matrix_csv;
use crate::format::{group_thousands, plain};
use crate::math::cost::add_vs_concat;
use crate::math::embedding::{word_embedding, SAMPLE_SENTENCE};
use crate::math::matrix::Dense;
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::state::Settings;

fn stem(s: &Settings, what: &str) -> String {
    let scaled = if s.scale_embeddings { "_scaled" } else { "" };
    format!("{}{scaled}", file_stem(s, what))
}

/// The sample sentence, cut to the sequence length.
fn tokens(length: usize) -> Vec<&'static str> {
    SAMPLE_SENTENCE.iter().take(length).copied().collect()
}

/// The two input matrices: E + PE (n × d) and [E | PE] (n × 2d).
fn inputs(s: &Settings) -> (Dense, Dense) {
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let d = s.d_model;
    let scale = if s.scale_embeddings {
        (d as f64).sqrt()
    } else {
        1.0
    };
    let words = tokens(s.length);
    let (mut sum, mut concat) = (Vec::new(), Vec::new());
    for (p, w) in words.iter().enumerate() {
        let emb: Vec<f64> = word_embedding(w, d).iter().map(|v| v * scale).collect();
        let pe = e.row(p);
        sum.extend(emb.iter().zip(&pe).map(|(a, b)| a + b));
        concat.extend(&emb);
        concat.extend(&pe);
    }
    let n = words.len();
    (Dense::new(n, d, sum), Dense::new(n, 2 * d, concat))
}

fn heat(
    matrix: Dense,
    s: &Settings,
    palette: Palette,
    magnitude: f64,
    concat: bool,
) -> HeatmapData {
    let names = tokens(s.length)
        .iter()
        .enumerate()
        .map(|(p, w)| format!("{w} @{p}"))
        .collect();
    HeatmapData {
        matrix: Rc::new(matrix),
        x: Axis::indexed(
            if concat {
                "dimension: embedding (0 … d−1) then encoding (d … 2d−1)"
            } else {
                "dimension"
            },
            "dimension",
        ),
        y: Axis::named("token @ position", "token", names),
        scale: ColorScale::symmetric(palette, magnitude),
        colorbar_title: "value".into(),
        caption: format!(
            "{} · d_model {} · {} · base {}{}",
            if concat {
                "Concatenated [embedding | PE]"
            } else {
                "Embedding + PE"
            },
            s.d_model,
            s.variant.id(),
            plain(s.base),
            if s.scale_embeddings {
                " · embeddings × √d"
            } else {
                ""
            }
        ),
        nouns: ("tokens".into(), "dimensions".into()),
        rule: None,
    }
}

#[function_component(AdditionView)]
pub fn addition_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let key = (
        s.variant,
        s.d_model,
        s.length.min(SAMPLE_SENTENCE.len()),
        s.base.to_bits(),
        s.scale_embeddings,
        s.palette,
    );
    let both = {
        let settings = s.clone();
        use_memo(key, move |_| {
            let (sum, concat) = inputs(&settings);
            let magnitude = sum
                .data
                .iter()
                .chain(&concat.data)
                .fold(1e-9f64, |m, v| m.max(v.abs()));
            (
                Rc::new(heat(sum, &settings, settings.palette, magnitude, false)),
                Rc::new(heat(concat, &settings, settings.palette, magnitude, true)),
            )
        })
    };
    let sum_cell = use_state(|| None::<(usize, usize)>);
    let concat_cell = use_state(|| None::<(usize, usize)>);
    let csv = |data: Rc<HeatmapData>, name: String| -> CsvExport {
        Callback::from(move |_| {
            matrix_csv(&*data.matrix, "token_position", |c| format!("dim_{c}"))
                .map(|t| (format!("{name}.csv"), t))
                .map_err(|e| e.message())
        })
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
                <Heatmap id="sum-heatmap" data={Shared::new(both.0.clone())}
                    description="Heatmap of the token embeddings plus the positional encoding, one row per token."
                    file_stem={stem(s, "sum")} cursor={*sum_cell}
                    on_cell={{ let c = sum_cell.clone(); Callback::from(move |v| c.set(v)) }}
                    csv={Some(csv(both.0.clone(), stem(s, "sum")))}
                    aspect={0.5} min_height={220.0} max_height={360.0} />
                <Heatmap id="concat-heatmap" data={Shared::new(both.1.clone())}
                    description="Heatmap of the token embeddings and the positional encoding side by side, twice as wide."
                    file_stem={stem(s, "concat")} cursor={*concat_cell}
                    on_cell={{ let c = concat_cell.clone(); Callback::from(move |v| c.set(v)) }}
                    csv={Some(csv(both.1.clone(), stem(s, "concat")))}
                    aspect={0.5} min_height={220.0} max_height={360.0} />
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
