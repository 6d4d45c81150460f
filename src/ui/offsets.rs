//! Dot product by offset: PE(p)·PE(p+k) for several anchors against the closed form
//! Σᵢ cos(k·ωᵢ), or the closed form under several bases; and the position × position
//! similarity matrix.

use std::rc::Rc;

use yew::prelude::*;

use super::chart::{use_chunked, use_deferred, CsvExport, Shared};
use super::controls::{options, ListField, Segmented, Toggle};
use super::file_stem;
use super::heatmap::Heatmap;
use super::line_chart::LineChart;
use super::props::ViewProps;
use crate::action::Action;
use crate::export::matrix_csv;
use crate::figures::offsets::{
    closed_forms_job, closed_value, compared_bases, offset_chart, offsets_csv, OffsetInputs,
};
use crate::format::{plain, significant};
use crate::math::offsets::{dot, norm, ClosedForm, SimilarityMatrix, SimilarityTable};
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::colormap::ColorScale;
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::schemes::Registered;
use crate::state::{Limit, OffsetSeries, Settings, BASE, MAX_ANCHORS, MAX_BASES};

#[function_component(OffsetsView)]
pub fn offsets_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let encoding = Sinusoidal::new(s.variant, s.d_model, s.base);
    // The closed form at every offset: for the encoding, and for each base compared. At the
    // largest sizes this is over a hundred million rotations, computed in slices.
    let forms = use_chunked((encoding, s.length, compared_bases(s)), |(e, l, bases)| {
        closed_forms_job(*e, *l, bases)
    });
    let Some(computed) = forms else {
        return html! {
            <section class="panel" aria-labelledby="offsets-title">
                <h2 id="offsets-title">{ "Dot product by offset" }</h2>
                <p class="muted" role="status">{ format!("Computing Σᵢ cos(k·ωᵢ) at {} offsets…", s.length) }</p>
            </section>
        };
    };
    html! { <OffsetsBody settings={s.clone()} on_action={props.on_action.clone()} computed={Shared::new(computed)} /> }
}

/// The closed forms of the encoding and of each compared base, with what they were computed
/// for (encoding, length, compared bases).
type Forms = ((Sinusoidal, usize, Vec<u64>), Vec<Rc<ClosedForm>>);

#[derive(Properties, PartialEq)]
struct BodyProps {
    settings: Settings,
    on_action: Callback<Action>,
    computed: Shared<Forms>,
}

/// Everything in the view once the closed forms exist.
#[function_component(OffsetsBody)]
fn offsets_body(props: &BodyProps) -> Html {
    let s = &props.settings;
    let computed = props.computed.clone();
    let forms = &computed.1;
    let chart = use_memo(
        (computed.clone(), OffsetInputs::of(s)),
        move |(computed, inputs)| offset_chart(inputs, &computed.1),
    );
    let cursor = use_state(|| None::<f64>);
    let on_x = {
        let cursor = cursor.clone();
        Callback::from(move |x| cursor.set(x))
    };
    let csv: CsvExport = {
        let (inputs, chart) = (OffsetInputs::of(s), chart.clone());
        let name = format!("{}.csv", file_stem(s, "offsets"));
        Callback::from(move |_| offsets_csv(&inputs, &chart).map(|text| (name.clone(), text)))
    };

    let on_action = props.on_action.clone();
    let on_series = {
        let cb = on_action.clone();
        Callback::from(move |v: String| {
            if let Some(series) = OffsetSeries::from_id(&v) {
                cb.emit(Action::SetOffsetSeries(series))
            }
        })
    };
    let on_anchors = {
        let cb = on_action.clone();
        Callback::from(move |v: Vec<f64>| {
            cb.emit(Action::SetAnchors(v.iter().map(|x| *x as usize).collect()))
        })
    };
    let on_bases = {
        let cb = on_action.clone();
        Callback::from(move |v: Vec<f64>| cb.emit(Action::SetBases(v)))
    };
    let on_normalised = {
        let cb = on_action.clone();
        Callback::from(move |v: bool| cb.emit(Action::SetNormalised(v)))
    };
    let anchors_text = s
        .anchors()
        .iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let bases_text = s
        .bases
        .iter()
        .map(|b| plain(*b))
        .collect::<Vec<_>>()
        .join(", ");
    let position_limit = Limit::linear("anchor position", 0.0, (s.length - 1) as f64);
    // Only points with both a measured and a closed-form value are compared.
    let (measured_count, gap) = chart.curves.comparison();
    let anchors_mode = s.offset_series == OffsetSeries::Anchors;

    html! {
        <section class="panel" aria-labelledby="offsets-title" data-computed-d-model={computed.0 .0 .0.d_model.to_string()}>
            <header class="panel-head">
                <h2 id="offsets-title">{ "Dot product by offset" }</h2>
                <p class="panel-lead">
                    { "Take the encoding of a position p and of a position k steps later. Their \
                       dot product does not depend on where p is, only on the offset k: every \
                       anchor's measured points fall on the same curve, Σᵢ cos(k·ωᵢ)." }
                </p>
                <p class="entry"><strong>{ "Where it enters the model: " }</strong>{ crate::schemes::Scheme::Sinusoidal.entry() }</p>
            </header>
            <div class="view-controls">
                <Segmented name="offset-series" legend="Compare"
                    options={options(&OffsetSeries::ALL, OffsetSeries::id, OffsetSeries::label)}
                    selected={s.offset_series.id()}
                    on_change={on_series} />
                if anchors_mode {
                    <ListField id="anchors" label="Anchor positions p" value={anchors_text}
                        limit={position_limit} max_items={MAX_ANCHORS} on_change={on_anchors}
                        hint={format!("up to {MAX_ANCHORS}, 0 … {}", s.length - 1)} />
                } else {
                    <ListField id="bases" label="Bases" value={bases_text} limit={BASE}
                        max_items={MAX_BASES} on_change={on_bases}
                        hint={format!("up to {MAX_BASES}, {} … {}", plain(BASE.min), plain(BASE.max))} />
                }
                <Toggle id="normalised" label="Normalise (cosine similarity)"
                    checked={s.normalised} on_change={on_normalised} />
            </div>
            <div class="panel-body">
                <LineChart
                    id="offsets-chart"
                    data={Shared::new(chart.data.clone())}
                    description="Line chart of the dot product between the encodings of positions p and p + k against the offset k."
                    file_stem={file_stem(s, "offsets")}
                    cursor={*cursor}
                    on_x={on_x}
                    csv={Some(csv)}
                />
                <aside class="panel-side">
                    <OffsetReadout settings={s.clone()} offset={cursor.map(|x| x as i64)} />
                    <div class="explain">
                        if anchors_mode {
                            <p class="callout">
                                { format!("Largest gap between a measured dot product and the closed \
                                    form, over {measured_count} measured points: {}.",
                                    significant(gap, 2)) }
                            </p>
                            if gap > 1e-6 {
                                <p>
                                    { "The gap is not zero: with an odd d_model one sine column \
                                       has no cosine partner, and its product sin(pω)·sin((p+k)ω) \
                                       depends on p, not only on k. Every complete pair still \
                                       follows the closed form." }
                                </p>
                            } else {
                                <p>
                                    { "Zero up to rounding: for each pair, sin(pω)·sin((p+k)ω) + \
                                       cos(pω)·cos((p+k)ω) = cos(kω), whatever p is." }
                                </p>
                            }
                        } else {
                            <p>
                                { "A larger base stretches every wavelength, so the curve stays \
                                   high for longer: distant positions look more alike. A small \
                                   base makes the similarity fall off fast and ripple." }
                            </p>
                        }
                        <p>
                            { format!("At k = 0 the closed form is n = {}, the number of complete \
                                pairs (each adds sin² + cos² = 1 to |PE(p)|²); normalised, the line \
                                is divided by n. The curve is symmetric in k because cosine is \
                                even.", chart.curves.pair_count) }
                        </p>
                        <p class="muted">
                            { "The line is the formula; each marker is a real dot product of two \
                               rows of the matrix, computed separately." }
                        </p>
                    </div>
                </aside>
            </div>
            <SimilaritySection settings={s.clone()} form={Shared::new(forms[0].clone())} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct OffsetReadoutProps {
    settings: Settings,
    offset: Option<i64>,
}

/// The exact values at the offset under the reading line.
#[function_component(OffsetReadout)]
fn offset_readout(props: &OffsetReadoutProps) -> Html {
    let s = &props.settings;
    let Some(k) = props.offset else {
        return html! {
            <div class="readout">
                <h3 class="readout-title">{ "Read one offset" }</h3>
                <p class="muted">{ "Hover over or tap the chart, or focus it and use the arrow keys." }</p>
            </div>
        };
    };
    let encoding = Sinusoidal::new(s.variant, s.d_model, s.base);
    let cosine =
        |p: usize, q: usize| dot(&encoding, p, q) / (norm(&encoding, p) * norm(&encoding, q));
    let value = |p: usize, q: usize| {
        if s.normalised {
            cosine(p, q)
        } else {
            dot(&encoding, p, q)
        }
    };
    let rows: Vec<(String, String)> = match s.offset_series {
        OffsetSeries::Anchors => {
            let closed = closed_value(&encoding, k, s.normalised);
            let mut rows = vec![("Σᵢ cos(kωᵢ)".to_string(), significant(closed, 9))];
            for p in s.anchors() {
                let q = p as i64 + k;
                let v = if (0..s.length as i64).contains(&q) {
                    significant(value(p, q as usize), 9)
                } else {
                    "outside the sequence".into()
                };
                rows.push((format!("PE({p})·PE({q})"), v));
            }
            rows
        }
        OffsetSeries::Bases => s
            .bases
            .iter()
            .map(|&b| {
                let e = Sinusoidal::new(s.variant, s.d_model, b);
                let v = closed_value(&e, k, s.normalised);
                (format!("base {}", plain(b)), significant(v, 9))
            })
            .collect(),
    };
    html! {
        <div class="readout" aria-live="polite">
            <h3 class="readout-title">{ format!("offset k = {k}") }</h3>
            <dl class="readout-list">
                { for rows.into_iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
            </dl>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct SimilarityProps {
    settings: Settings,
    form: Shared<ClosedForm>,
}

/// The position × position similarity heatmap, with what it shows.
#[function_component(SimilaritySection)]
fn similarity_section(props: &SimilarityProps) -> Html {
    let s = &props.settings;
    // Drawn a moment after the offset chart, so dragging a slider repaints that chart first.
    let computed = use_deferred(
        (props.form.clone(), s.normalised, s.palette),
        |(form, normalised, palette)| {
            let m = Rc::new(SimilarityMatrix::from_closed(form.0.clone(), *normalised));
            let e = m.encoding;
            let heat = HeatmapData {
                matrix: m.clone(),
                x: Axis::indexed("position q", "q"),
                y: Axis::indexed("position p", "p"),
                scale: ColorScale::symmetric(*palette, m.magnitude()),
                colorbar_title: if *normalised {
                    "cosine"
                } else {
                    "PE(p)·PE(q)"
                }
                .into(),
                caption: format!(
                    "{} of every pair of positions · {} · d_model {} · base {}",
                    if *normalised {
                        "Cosine similarity"
                    } else {
                        "Dot product"
                    },
                    e.variant.id(),
                    e.d_model,
                    plain(e.base)
                ),
                nouns: ("positions".into(), "positions".into()),
                rule: None,
            };
            (m, Rc::new(heat))
        },
    );
    match computed {
        Some(c) => html! { <SimilarityBody settings={s.clone()} computed={Shared::new(c)} /> },
        None => {
            html! { <div class="panel-body panel-body-second chart-pending" aria-busy="true"></div> }
        }
    }
}

/// A similarity matrix and its heatmap, computed together.
type Similarity = (Rc<SimilarityMatrix>, Rc<HeatmapData>);

#[derive(Properties, PartialEq)]
struct SimilarityBodyProps {
    settings: Settings,
    computed: Shared<Similarity>,
}

/// The similarity heatmap once it has been computed (a separate component, so its hooks run on
/// every render whether or not the computation has finished).
#[function_component(SimilarityBody)]
fn similarity_body(props: &SimilarityBodyProps) -> Html {
    let s = &props.settings;
    let (matrix, heat) = (*props.computed).clone();
    let cell = use_state(|| None::<(usize, usize)>);
    let on_cell = {
        let cell = cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let csv: CsvExport = {
        let (matrix, name) = (matrix.clone(), file_stem(s, "similarity"));
        Callback::from(move |_| {
            matrix_csv(&SimilarityTable(&matrix), "position", |c| {
                format!("pos_{c}")
            })
            .map(|text| (format!("{name}.csv"), text))
            .map_err(|e| e.message())
        })
    };
    let readout = cell
        .filter(|(p, q)| *p < s.length && *q < s.length)
        .map(|(p, q)| {
            use crate::math::matrix::Matrix;
            (p, q, matrix.value(p, q))
        });
    html! {
        <div class="panel-body panel-body-second">
            <Heatmap
                id="similarity-heatmap"
                data={Shared::new(heat)}
                description="Heatmap of the dot product between the encodings of every pair of positions; it is constant along each diagonal."
                file_stem={file_stem(s, "similarity")}
                cursor={*cell}
                on_cell={on_cell}
                csv={Some(csv)}
                aspect={0.8}
            />
            <aside class="panel-side">
                <div class="readout" aria-live="polite">
                    if let Some((p, q, v)) = readout {
                        <h3 class="readout-title">{ format!("p = {p}, q = {q}") }</h3>
                        <dl class="readout-list">
                            <dt>{ "offset" }</dt><dd>{ format!("k = q − p = {}", q as i64 - p as i64) }</dd>
                            <dt>{ "value" }</dt><dd>{ significant(v, 9) }</dd>
                        </dl>
                    } else {
                        <h3 class="readout-title">{ "The whole similarity matrix" }</h3>
                        <p class="muted">{ "Hover a cell to read PE(p)·PE(q)." }</p>
                    }
                </div>
                <div class="explain">
                    <p>
                        { "Row p, column q holds PE(p)·PE(q). Because the value depends only on \
                           q − p, every diagonal is one colour: the matrix is symmetric and \
                           Toeplitz. The bright main diagonal is each position with itself." }
                    </p>
                    <p class="muted">
                        { "A model reading these products can tell near from far, but the product \
                           alone does not say whether q comes before or after p: the curve is \
                           symmetric." }
                    </p>
                </div>
            </aside>
        </div>
    }
}
