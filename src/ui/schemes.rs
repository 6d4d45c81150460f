//! The natural pictures of the schemes beyond sinusoidal: their matrix (the learned table,
//! RoPE's cos cache, ALiBi's and T5's score biases) and how they treat distance.

use std::rc::Rc;

use yew::prelude::*;

use super::chart::{csv_export, use_chunked, Shared};
use super::code::CodePanel;
use super::encoding::EncodingView;
use super::file_stem;
use super::heatmap::MatrixCard;
use super::line_chart::LineCard;
use super::offsets::OffsetsView;
use super::parts::RopeExtras;
use super::props::ViewProps;
use crate::action::Action;
use crate::figures::rope::{cache_csv, cos_heatmap};
use crate::figures::schemes::{
    bias_distance, check_permutation, learned_distance, learned_heatmap, rope_distance,
    rope_distance_csv, shift_check, t5_distance, t5_matrices, trained_rule, BiasInputs,
    LearnedDistanceInputs, RopeDistanceInputs, T5DistanceInputs, T5MatrixInputs,
};
use crate::format::{group_thousands, plain};
use crate::main_chart::{bias_lead, panel_lead, MATRIX_CARD, T5_CARD};
use crate::math::rope::RopePairing;
use crate::schemes::rope::Extension;
use crate::schemes::{Registered, Scheme, Space, ViewKind};
use crate::state::View;

/// The "Position matrix" tab: each scheme's own matrix.
#[function_component(MatrixView)]
pub fn matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let kind = s.scheme.views();
    let p = props.clone();
    let view = match kind {
        ViewKind::Sinusoidal => html! { <EncodingView ..p /> },
        ViewKind::Learned => html! { <LearnedMatrixView ..p /> },
        ViewKind::Rope => html! { <RopeTableView ..p /> },
        ViewKind::T5 => html! { <T5MatrixView ..p /> },
        ViewKind::Bias => html! { <BiasMatrixView ..p /> },
        ViewKind::Nothing => none_panel(s.scheme, "matrix"),
        ViewKind::Patches => patches_panel(s.scheme, "matrix", &props.on_action),
    };
    // A scheme with nothing to draw here has no matrix here, so no code rebuilds it.
    let code = (!matches!(kind, ViewKind::Nothing | ViewKind::Patches))
        .then(|| html! { <CodePanel settings={s.clone()} /> });
    html! { <>{ view }{ code }</> }
}

/// The "By distance" tab: how each scheme treats the distance between two positions.
#[function_component(DistanceView)]
pub fn distance_view(props: &ViewProps) -> Html {
    let p = props.clone();
    match props.settings.scheme.views() {
        ViewKind::Sinusoidal => html! { <OffsetsView ..p /> },
        ViewKind::Learned => html! { <LearnedDistanceView ..p /> },
        ViewKind::Rope => html! { <RopeDistanceView ..p /> },
        ViewKind::T5 => html! { <T5DistanceView ..p /> },
        ViewKind::Bias => html! { <BiasDistanceView ..p /> },
        ViewKind::Nothing => none_panel(props.settings.scheme, "distance"),
        ViewKind::Patches => patches_panel(props.settings.scheme, "distance", &props.on_action),
    }
}

/// A panel with a title, a lead paragraph, the scheme's entry point, and content: the page
/// section every scheme view is drawn in.
pub fn panel(id: &str, title: &str, scheme: Scheme, lead: &str, content: Html) -> Html {
    html! {
        <section class="panel" aria-labelledby={format!("{id}-title")}>
            <header class="panel-head">
                <h2 id={format!("{id}-title")}>{ title.to_string() }</h2>
                <p class="panel-lead">{ lead.to_string() }</p>
                <p class="entry"><strong>{ "Where it enters the model: " }</strong>{ scheme.entry() }</p>
            </header>
            { content }
        </section>
    }
}

/// The panel of a scheme of image patches in a tab that draws a line of tokens: what the scheme
/// places, and the way to the view that draws it.
fn patches_panel(scheme: Scheme, what: &str, on_action: &Callback<Action>) -> Html {
    panel(
        &format!("{}-{what}", scheme.id()),
        scheme.label(),
        scheme,
        match scheme.space() {
            Space::Multimodal => {
                "This tab draws positions on a line of tokens. This scheme places text, images \
                 and video in one sequence, each token at a (time, row, column)."
            }
            _ => {
                "This tab draws positions on a line of tokens. This scheme places image patches \
                  on a grid, each at a (row, column)."
            }
        },
        patches_pointer(scheme, on_action),
    )
}

/// Where a scheme of image patches is drawn, with a button that opens it.
pub(crate) fn patches_pointer(scheme: Scheme, on_action: &Callback<Action>) -> Html {
    let open = {
        let cb = on_action.clone();
        Callback::from(move |_: MouseEvent| cb.emit(Action::SetView(View::Patches)))
    };
    html! {
        <div class="explain">
            <p>
                { match scheme.space() {
                    Space::Multimodal => format!("{} numbers every token by its time, row and \
                        column: the Image patches view draws which frequencies follow each, the \
                        ids of a text–image–video sequence and the cos and sin that rotate each \
                        token, with their CSVs.", scheme.short()),
                    _ => format!("{} numbers patches by their row and column: the Image patches \
                        view draws its similarity between patches, its score by 2-D offset and \
                        what happens at a higher resolution, with the matrix's CSV and its code.",
                        scheme.short()),
                } }
            </p>
            <button type="button" id="open-patches" class="button" onclick={open}>{ "Open Image patches" }</button>
        </div>
    }
}

pub(crate) fn none_panel(scheme: Scheme, what: &str) -> Html {
    panel(
        &format!("{}-{what}", scheme.id()),
        "No position information",
        scheme,
        "With no position scheme there is nothing to draw: every position looks the same. The \
         Dog bites man tab shows what that costs: the two sentences cannot be told apart.",
        html! {
            <div class="explain">
                <p>
                    { "A model without positions treats its input as a bag of words. Decoders with \
                       a causal mask are a partial exception: each token sees only the tokens \
                       before it, which leaks some order, and some language models train \
                       successfully this way." }
                </p>
            </div>
        },
    )
}

// ----- learned -----

#[function_component(LearnedMatrixView)]
pub(crate) fn learned_matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let table = s.learned();
    let data = use_memo((table, s.length, s.palette), |(table, length, palette)| {
        learned_heatmap(*table, *length, *palette)
    });
    let missing = s.length.saturating_sub(s.trained_length);
    panel(
        "learned",
        "A learned position table",
        Scheme::Learned,
        &panel_lead(View::Matrix, s).unwrap_or_default(),
        html! {
            <>
                <MatrixCard id="learned-heatmap" data={Shared::new(data)}
                    description="Heatmap of an untrained learned position table; rows past max_len do not exist."
                    file_stem={file_stem(s, "learned")} height={MATRIX_CARD.max} />
                <div class="explain">
                    if missing > 0 {
                        <p class="note note-info">
                            { format!("length is {} but the table has {} rows: the {} positions \
                                below the line do not exist (drawn as undefined). A model with \
                                this table cannot take a longer input at all; BERT stops at 512 \
                                tokens.", s.length, s.trained_length, group_thousands(missing as u64)) }
                        </p>
                    }
                    <p>
                        { "Unlike the sinusoidal encoding, nothing relates one row to the next: \
                           any structure a trained table has (and trained tables do develop smooth, \
                           wave-like patterns) comes from the data. Change the seed in the settings \
                           to draw another table." }
                    </p>
                </div>
            </>
        },
    )
}

#[function_component(LearnedDistanceView)]
pub(crate) fn learned_distance_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let data = use_memo(LearnedDistanceInputs::of(s), learned_distance);
    panel(
        "learned-distance",
        "Learned positions by distance",
        Scheme::Learned,
        &panel_lead(View::Offsets, s).unwrap_or_default(),
        html! {
            <LineCard id="learned-distance-chart" data={Shared::new(data)}
                description="Dot products between rows of the learned table at several offsets; noise except at offset 0."
                file_stem={file_stem(s, "learned_distance")} />
        },
    )
}

// ----- RoPE -----

#[function_component(RopeTableView)]
pub(crate) fn rope_table_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let rope = s.rope();
    let data = use_memo(
        (rope.clone(), s.length, s.palette, trained_rule(s)),
        |(rope, length, palette, rule)| cos_heatmap(rope, *length, *palette, rule.clone()),
    );
    let extrapolation = crate::schemes::rope::extrapolation(&rope, s.length, s.trained_length);
    let layout = match s.schemes.rope.pairing {
        RopePairing::RotateHalf => {
            "dimension i turns together with dimension i + d/2, so the \
            left and right halves of the table repeat the same frequencies"
        }
        RopePairing::Adjacent => {
            "dimensions 2i and 2i+1 turn together, so neighbouring columns \
            repeat the same frequency"
        }
    };
    // The CSV holds the cos and the sin cache as the libraries build them.
    let cache = {
        let (rope, length) = (s.rope(), s.length);
        csv_export(file_stem(s, "rope_cos_sin"), move || {
            cache_csv(&rope, length).map_err(|e| e.message())
        })
    };
    panel(
        "rope",
        "RoPE: rotation angles",
        Scheme::Rope,
        &panel_lead(View::Matrix, s).unwrap_or_default(),
        html! {
            <>
                <MatrixCard id="rope-heatmap" data={Shared::new(data)}
                    description="Heatmap of cos(m·θ) for every position m and dimension: the rotation RoPE applies to queries and keys."
                    file_stem={file_stem(s, "rope_cos")} height={MATRIX_CARD.max} csv={Some(cache)} />
                <div class="explain">
                    <p>{ format!("With the {} pairing, {layout}. The two pairings are the same \
                        rotation applied to dimensions in a different order (the permutation \
                        [0::2] ++ [1::2]): a checkpoint trained with one must be permuted to be \
                        loaded with the other.", s.schemes.rope.pairing.id()) }</p>
                    <p>{ extrapolation }</p>
                </div>
                <RopeExtras settings={Rc::new(s.clone())} on_action={props.on_action.clone()} cache={true} />
            </>
        },
    )
}

#[function_component(RopeDistanceView)]
pub(crate) fn rope_distance_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    // Σ over every pair at every distance: computed a range of distances at a time.
    let curves = use_chunked(RopeDistanceInputs::of(s), RopeDistanceInputs::job);
    let computed = use_memo(curves.map(Shared::new), |curves| {
        curves.as_ref().map(|c| rope_distance(&c.0 .0, &c.0 .1))
    });
    let Some(figure) = (*computed).clone() else {
        return panel(
            "rope-distance",
            "RoPE by distance",
            Scheme::Rope,
            &panel_lead(View::Offsets, s).unwrap_or_default(),
            html! { <p class="muted" role="status">{ format!("Computing the score at {} distances…", plain(s.length as f64)) }</p> },
        );
    };
    let csv_rows = figure.rows.clone();
    let csv = csv_export(file_stem(s, "rope_distance"), move || {
        Ok(rope_distance_csv(&csv_rows))
    });
    let permuted = check_permutation(s);
    let method = if s.schemes.rope.extension == Extension::None {
        "no extension".to_string()
    } else {
        s.schemes.rope.extension.label().to_string()
    };
    let pairs = use_memo(
        (s.rope(), s.trained_length, method.clone()),
        |(rope, trained, method)| crate::figures::rope::pair_frequencies(rope, *trained, method),
    );
    let pairs_csv = {
        let pairs = pairs.clone();
        csv_export(file_stem(s, "rope_pairs"), move || Ok(pairs.csv.clone()))
    };
    panel(
        "rope-distance",
        "RoPE by distance",
        Scheme::Rope,
        &panel_lead(View::Offsets, s).unwrap_or_default(),
        html! {
            <>
                <LineCard id="rope-distance-chart" data={Shared::new(figure.scores.clone())}
                    description="RoPE attention score against relative distance for q = k = 1 and the mean over random vectors."
                    file_stem={file_stem(s, "rope_distance")} csv={Some(csv)} />
                <div class="explain">
                    <p>{ "Shift both positions by the same amount and each pair turns q and k by \
                        the same extra angle: their dot product is unchanged. So the score is a \
                        function of m − n alone, for any q and k." }</p>
                    <p class="callout">{ shift_check(s) }</p>
                    <p>{ permuted }</p>
                </div>
                <LineCard id="rope-bound-chart" data={Shared::new(figure.bound.clone())}
                    description="RoFormer's bound on the magnitude of the score against relative distance, for q = k = 1 and for the random vectors, with the q = k = 1 score beneath it."
                    file_stem={file_stem(s, "rope_bound")} aspect={0.45} />
                <p class="explain" id="rope-bound-text">{ figure.bound_text.clone() }</p>
                <LineCard id="rope-pairs-chart" data={Shared::new(pairs.chart.clone())}
                    description="Each RoPE pair's frequency, plain and with the chosen extension method, marked by what the method does to it, with the frequency that turns once over the trained length."
                    file_stem={file_stem(s, "rope_pairs")} csv={Some(pairs_csv)} />
                <p class="explain" id="rope-pairs-summary">{ pairs.summary.clone() }</p>
                <RopeExtras settings={Rc::new(s.clone())} on_action={props.on_action.clone()} />
            </>
        },
    )
}

// ----- any bias on the scores (ALiBi, …) -----

#[function_component(BiasMatrixView)]
pub(crate) fn bias_matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let inputs = BiasInputs::of(s);
    let main = use_memo(inputs.clone(), |k| {
        k.as_ref().map(|k| Rc::new(k.matrix(k.bias.head)))
    });
    let cards = use_memo(inputs.clone(), |k| {
        k.as_ref()
            .filter(|k| k.bias.heads > 1)
            .map(|k| {
                k.cards()
                    .into_iter()
                    .map(|(h, m)| (h, Rc::new(m)))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default()
    });
    let (Some(k), Some(main)) = (inputs, (*main).clone()) else {
        return html! {};
    };
    let id = s.scheme.id();
    let [lead, about @ ..] = &k.bias.about[..] else {
        return html! {};
    };
    panel(
        id,
        &format!("{}: a bias on the scores", s.scheme.short()),
        s.scheme,
        lead,
        html! {
            <>
                <MatrixCard id={format!("{id}-heatmap")} data={Shared::new(main)}
                    description={format!("Heatmap of the {} bias added to the attention scores of one head, for every query and key.", s.scheme.short())}
                    file_stem={file_stem(s, id)} height={MATRIX_CARD.max} />
                <div class="explain">
                    { for about.iter().map(|p| html! { <p>{ p.clone() }</p> }) }
                </div>
                if k.bias.heads > 1 {
                    <h3 class="section-title">{ format!("Heads {} of {}", cards.iter().map(|(h, _)| h.to_string()).collect::<Vec<_>>().join(", "), k.bias.heads) }</h3>
                    <p class="explain">{ "Heads are numbered from 0 (head 0 is the first). These cards share one colour scale, so a head whose bias stays small is drawn pale beside a steep one; the large heatmap above has its own." }</p>
                    <div class="twin twin-4">
                        { for cards.iter().map(|(h, c)| html! {
                            <MatrixCard id={format!("{id}-head-{h}")} data={Shared::new(c.clone())}
                                description={format!("{} bias of head {h}.", s.scheme.short())}
                                file_stem={file_stem(s, &format!("{id}_head{h}"))} height={240.0} />
                        }) }
                    </div>
                }
            </>
        },
    )
}

#[function_component(BiasDistanceView)]
pub(crate) fn bias_distance_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let inputs = BiasInputs::of(s);
    let data = use_memo(inputs.clone(), |k| k.as_ref().map(bias_distance));
    let (Some(k), Some(data)) = (inputs, (*data).clone()) else {
        return html! {};
    };
    let id = s.scheme.id();
    let what = format!("{id}_distance");
    let far = k.bias.far.clone();
    let lead = bias_lead(View::Offsets, &k.bias).unwrap_or_default();
    let csv = csv_export(file_stem(s, &what), move || Ok(k.csv()));
    panel(
        &format!("{id}-distance"),
        &format!("{} by distance", s.scheme.short()),
        s.scheme,
        &lead,
        html! {
            <>
                <LineCard id={format!("{id}-distance-chart")} data={Shared::new(Rc::new(data))}
                    description={format!("{} bias against distance, one line per head.", s.scheme.short())}
                    file_stem={file_stem(s, &what)} csv={Some(csv)} />
                <div class="explain"><p>{ far }</p></div>
            </>
        },
    )
}

// ----- T5 -----

#[function_component(T5MatrixView)]
pub(crate) fn t5_matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let both = use_memo(T5MatrixInputs::of(s), t5_matrices);
    let t5 = s.schemes.t5;
    let exact = if t5.bidirectional {
        t5.num_buckets / 4
    } else {
        t5.num_buckets / 2
    };
    panel(
        "t5",
        "T5: relative position buckets",
        Scheme::T5,
        &panel_lead(View::Matrix, s).unwrap_or_default(),
        html! {
            <>
                <div class="twin twin-2">
                    <MatrixCard id="t5-buckets" data={Shared::new(both.0.clone())}
                        description="Heatmap of the T5 bucket index for every query and key."
                        file_stem={file_stem(s, "t5_buckets")} height={T5_CARD.max} />
                    <MatrixCard id="t5-bias" data={Shared::new(both.1.clone())}
                        description="Heatmap of the T5 bias added to the scores: one value per bucket."
                        file_stem={file_stem(s, "t5_bias")} height={T5_CARD.max} />
                </div>
                <div class="explain">
                    <p>{ format!("With {} buckets{}, distances 0 … {} each have their own bucket; \
                        larger distances are grouped on a log scale up to {}, and every distance \
                        from {} on falls in the last bucket of its direction.",
                        t5.num_buckets,
                        if t5.bidirectional { " (half for keys before the query, half for keys after)" } else { " (keys after the query all share bucket 0)" },
                        exact.saturating_sub(1), t5.max_distance, group_thousands(t5.saturation_distance() as u64)) }</p>
                </div>
            </>
        },
    )
}

#[function_component(T5DistanceView)]
pub(crate) fn t5_distance_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let inputs = T5DistanceInputs::of(s);
    let data = use_memo(inputs.clone(), t5_distance);
    let csv = csv_export(file_stem(s, "t5_buckets"), move || Ok(inputs.csv()));
    panel(
        "t5-distance",
        "T5 buckets by relative position",
        Scheme::T5,
        &panel_lead(View::Offsets, s).unwrap_or_default(),
        html! {
            <>
                <LineCard id="t5-distance-chart" data={Shared::new(data)}
                    description="T5 bucket index against relative position: a staircase that flattens once every distance shares the last bucket."
                    file_stem={file_stem(s, "t5_buckets")} csv={Some(csv)} />
                <div class="explain">
                    <p>{ format!("Past the max distance ({}) — and so past any trained length \
                        beyond it — every distance lands in the same last bucket: the model can \
                        tell \"far\" but no longer \"how far\", so longer inputs cost it no new \
                        parameters but also give it no new information.", s.schemes.t5.max_distance) }</p>
                </div>
            </>
        },
    )
}

/// For views that explain the sinusoidal encoding only: a note when another scheme is chosen.
#[derive(Properties, PartialEq)]
pub struct SinusoidalOnlyProps {
    pub scheme: Scheme,
    pub on_action: Callback<Action>,
}

#[function_component(SinusoidalOnly)]
pub fn sinusoidal_only(props: &SinusoidalOnlyProps) -> Html {
    if props.scheme == Scheme::Sinusoidal {
        return html! {};
    }
    let on_action = props.on_action.clone();
    let onclick =
        Callback::from(move |_: MouseEvent| on_action.emit(Action::SetScheme(Scheme::Sinusoidal)));
    html! {
        <p class="note note-info scheme-note">
            { format!("This view explains the sinusoidal encoding; the scheme chosen in the settings \
                is {}. ", props.scheme.label()) }
            <button type="button" class="button button-small" {onclick}>{ "Switch to sinusoidal" }</button>
        </p>
    }
}
