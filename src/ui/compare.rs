//! Two schemes side by side under the same sliders: what position alone adds to the score of
//! query i and key j, as a matrix and as a curve of distance, and what happens past the trained
//! length.

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::chart::{use_chunked, Shared};
use super::heatmap::MatrixCard;
use super::line_chart::LineCard;
use super::props::ViewProps;
use crate::action::Action;
use crate::figures::compare::{column_charts, column_frame, ColumnJob};
use crate::format::{and_list, group_thousands, plain};
use crate::schemes::file_stem;
use crate::schemes::inputs::ColumnInputs;
use crate::schemes::{score_biases, Registered, Scheme};
use crate::state::Settings;

#[derive(Properties, PartialEq)]
struct ColumnProps {
    settings: Settings,
    scheme: Scheme,
    /// What the column is computed from (the scheme's, for these settings).
    inputs: ColumnInputs,
    side: &'static str,
}

/// One scheme's column: its matrix, its distance curve and its extrapolation.
#[function_component(SchemeColumn)]
fn scheme_column(props: &ColumnProps) -> Html {
    let s = &props.settings;
    let scheme = props.scheme;
    let computed = use_chunked(props.inputs.clone(), ColumnJob::new);
    let built = use_memo(
        (
            computed.clone().map(Shared::new),
            props.side,
            s.palette,
            (s.length, s.trained_length, s.d_model),
        ),
        |(computed, side, ..)| {
            let computed = computed.as_ref()?;
            Some(column_charts(
                &computed.0 .1,
                &column_frame(s, scheme, side),
            ))
        },
    );
    let side = props.side;
    let Some((heat, line)) = (*built).clone() else {
        return html! {
            <div class="compare-column">
                <h3 class="section-title">{ scheme.label() }</h3>
                <p class="muted" role="status">{ format!("Computing {} at {} distances…", scheme.id(), plain(s.length as f64)) }</p>
            </div>
        };
    };
    html! {
        <div class="compare-column">
            <h3 class="section-title">{ scheme.label() }</h3>
            <p class="entry small">{ scheme.entry() }</p>
            <LineCard id={format!("compare-curve-{side}")} data={Shared::new(line)}
                description={format!("How {} treats distance: the score position adds for a key k positions back.", scheme.id())}
                file_stem={file_stem(s, scheme, "compare_curve")} aspect={0.6} />
            <MatrixCard id={format!("compare-matrix-{side}")} data={Shared::new(heat)}
                description={format!("What {} adds to the score of every query and key.", scheme.id())}
                file_stem={file_stem(s, scheme, "compare_matrix")} height={380.0} />
            <div class="explain">
                <h4>{ format!("Past the trained length ({})", group_thousands(s.trained_length as u64)) }</h4>
                <p>{ scheme.def().past_trained_length(s) }</p>
            </div>
        </div>
    }
}

/// "ALiBi, T5, KERPLE and FIRE": the schemes that add a bias to the scores (their column is that
/// bias).
fn bias_schemes(s: &Settings) -> String {
    let names: Vec<&str> = score_biases(&s.train_settings())
        .into_iter()
        .map(|(x, _)| x.short())
        .collect();
    and_list(&names).unwrap_or_else(|| "the bias schemes".into())
}

#[function_component(CompareView)]
pub fn compare_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let partner = s.compare_partner();
    let on_change = {
        let cb = props.on_action.clone();
        Callback::from(move |e: Event| {
            let select: HtmlSelectElement = e.target_unchecked_into();
            if let Some(v) = Scheme::from_id(&select.value()) {
                cb.emit(Action::SetCompareWith(v));
            }
        })
    };
    html! {
        <section class="panel" aria-labelledby="compare-title">
            <header class="panel-head">
                <h2 id="compare-title">{ "Compare schemes" }</h2>
                <p class="panel-lead">
                    { format!("The scheme from the settings next to another, under the same d_model \
                        ({}) and length ({}): what position alone adds to the attention score \
                        between a query and a key, as a curve of distance and as a matrix. \
                        Sinusoidal and learned vectors are added to the input, so what they add \
                        is the position–position term PE(i)·PE(j), shown as if W_Q·W_Kᵀ were the \
                        identity; RoPE is shown for q = k = the all-ones vector; {} add \
                        exactly the bias shown.",
                        s.d_model, plain(s.length as f64), bias_schemes(s)) }
                </p>
            </header>
            <div class="view-controls">
                <div class="control">
                    <label for="compare-with" class="control-label">{ "Compare with" }</label>
                    <select id="compare-with" class="control-select" onchange={on_change}>
                        { for Scheme::on_a_line().map(|v| html! {
                            <option value={v.id()} selected={v == partner}>{ v.label() }</option>
                        }) }
                    </select>
                </div>
            </div>
            <div class="twin twin-2">
                { column(s, s.scheme, "a", &props.on_action) }
                { column(s, partner, "b", &props.on_action) }
            </div>
        </section>
    }
}

/// A scheme's column, or, for a scheme of image patches (which places no line of tokens), where
/// to see it instead.
fn column(s: &Settings, scheme: Scheme, side: &'static str, on_action: &Callback<Action>) -> Html {
    match crate::schemes::column(scheme, s) {
        Some(inputs) => html! {
            <SchemeColumn settings={s.clone()} {scheme} {inputs} {side} />
        },
        None => html! {
            <div class="compare-column">
                <h3 class="section-title">{ scheme.label() }</h3>
                <p class="entry small">{ scheme.entry() }</p>
                { super::schemes::patches_pointer(scheme, on_action) }
            </div>
        },
    }
}
