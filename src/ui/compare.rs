//! Two schemes side by side under the same sliders: what position alone adds to the score of
//! query i and key j, as a matrix and as a curve of distance, and what happens past the trained
//! length.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::app::ViewProps;
use super::chart::Shared;
use super::file_stem;
use super::heatmap::MatrixCard;
use super::line_chart::LineCard;
use crate::format::{group_thousands, plain};
use crate::math::alibi::bias_at_offset;
use crate::math::learned::LearnedGram;
use crate::math::matrix::Matrix;
use crate::math::offsets::{closed_form_curve, PairStructure, SimilarityMatrix};
use crate::math::scheme::Scheme;
use crate::math::sinusoidal::Sinusoidal;
use crate::math::t5::bucket_biases;
use crate::math::toeplitz::Toeplitz;
use crate::plot::colormap::ColorScale;
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series, SERIES_COLORS};
use crate::state::{Action, Settings};

/// What position alone contributes to the score between query i and key j.
fn position_scores(s: &Settings, scheme: Scheme) -> (Rc<dyn Matrix>, String) {
    let l = s.length;
    match scheme {
        Scheme::Sinusoidal => (
            Rc::new(SimilarityMatrix::new(
                Sinusoidal::new(s.variant, s.d_model, s.base),
                l,
                false,
            )),
            "PE(i)·PE(j)".into(),
        ),
        Scheme::Learned => (
            Rc::new(LearnedGram {
                table: s.learned(),
                length: l,
            }),
            "P(i)·P(j), untrained".into(),
        ),
        Scheme::Rope => {
            let ones = s.rope().distance_curves(l, 2).ones;
            (
                Rc::new(Toeplitz::new(l, move |k| ones[k.unsigned_abs() as usize])),
                "q·k for q = k = 1".into(),
            )
        }
        Scheme::Alibi => {
            let slope = s.alibi_slope();
            (
                Rc::new(Toeplitz::new(l, move |k| bias_at_offset(slope, k, true))),
                format!("bias of head {}", s.alibi_head),
            )
        }
        Scheme::T5 => {
            let (t5, biases) = (s.t5, bucket_biases(s.t5.num_buckets, s.learned_seed as u64));
            (
                Rc::new(Toeplitz::new(l, move |k| {
                    biases[t5.bucket(k).min(biases.len() - 1)]
                })),
                "bias of the bucket".into(),
            )
        }
        Scheme::None => (Rc::new(Toeplitz::new(l, |_| 0.0)), "nothing".into()),
    }
}

/// The same as a function of distance: the score with a key k positions before the query.
fn distance_curve(s: &Settings, scheme: Scheme) -> Vec<f64> {
    let l = s.length;
    match scheme {
        Scheme::Sinusoidal => closed_form_curve(
            &PairStructure::of(&Sinusoidal::new(s.variant, s.d_model, s.base)),
            l,
        ),
        Scheme::Learned => {
            let gram = LearnedGram {
                table: s.learned(),
                length: l,
            };
            let shown = l.min(4096);
            (0..shown).map(|k| gram.value(0, k)).collect()
        }
        Scheme::Rope => s.rope().distance_curves(l, 2).ones,
        Scheme::Alibi => {
            let m = s.alibi_slope();
            (0..l).map(|k| -m * k as f64).collect()
        }
        Scheme::T5 => {
            let biases = bucket_biases(s.t5.num_buckets, s.learned_seed as u64);
            (0..l)
                .map(|k| biases[s.t5.bucket(-(k as i64)).min(biases.len() - 1)])
                .collect()
        }
        Scheme::None => vec![0.0; l],
    }
}

/// What happens past the trained length, in one paragraph computed from the settings.
pub fn past_trained_length(s: &Settings, scheme: Scheme) -> String {
    let t = s.trained_length;
    match scheme {
        Scheme::Learned => format!(
            "Positions {t} and beyond do not exist: the table has {t} rows, so a longer input \
             cannot be encoded at all (BERT stops at 512, GPT-2 at 1024)."
        ),
        Scheme::Sinusoidal => {
            let e = Sinusoidal::new(s.variant, s.d_model, s.base);
            let fresh = (0..e.pair_count())
                .filter(|&i| (t.saturating_sub(1)) as f64 * e.omega(i) < std::f64::consts::TAU)
                .count();
            format!(
                "The formula is defined for every position, but {fresh} of the {} pairs have not \
                 completed one turn within {t} positions: past it they reach angles the model \
                 never saw in training. The vectors exist; whether the model can use them is \
                 another matter.",
                e.pair_count()
            )
        }
        Scheme::Rope => {
            let speeds = s.rope().speeds();
            let fresh = speeds
                .iter()
                .filter(|w| (t.saturating_sub(1)) as f64 * **w < std::f64::consts::TAU)
                .count();
            format!(
                "As with sinusoids, {fresh} of the {} rotation pairs turn further than ever in \
                 training once distances exceed {t}. Position interpolation squeezes long inputs \
                 back into the trained range; NTK-aware scaling slows the slow pairs most.",
                speeds.len()
            )
        }
        Scheme::Alibi => format!(
            "Nothing new appears: the penalty keeps growing linearly, −m·distance, so tokens \
             twice as far back ({}) are penalised twice as hard. ALiBi was designed to \
             extrapolate this way.",
            group_thousands(2 * t as u64)
        ),
        Scheme::T5 => format!(
            "Every distance from {} on shares the last bucket, so past that the model only knows \
             \"far\". Longer inputs need no new parameters, but distances are no longer told apart.",
            group_thousands(s.t5.saturation_distance() as u64)
        ),
        Scheme::None => "Nothing changes: there was no position information to begin with.".into(),
    }
}

#[derive(Properties, PartialEq)]
struct ColumnProps {
    settings: Settings,
    scheme: Scheme,
    side: &'static str,
}

/// One scheme's column: its matrix, its distance curve and its extrapolation.
#[function_component(SchemeColumn)]
fn scheme_column(props: &ColumnProps) -> Html {
    let s = &props.settings;
    let scheme = props.scheme;
    let colour = if props.side == "a" {
        SERIES_COLORS[0]
    } else {
        SERIES_COLORS[3]
    };
    let key = (
        (scheme, props.side),
        (s.d_model, s.length, s.base.to_bits(), s.variant, s.palette),
        (
            s.trained_length,
            s.learned_seed,
            s.rope_pairing,
            s.extension,
            s.rope_factor.to_bits(),
        ),
        (s.alibi_heads, s.alibi_head, s.t5),
    );
    let built = {
        let settings = s.clone();
        use_memo(key, move |_| {
            let (matrix, what) = position_scores(&settings, scheme);
            let curve = distance_curve(&settings, scheme);
            let top = curve
                .iter()
                .filter(|v| v.is_finite())
                .fold(1e-9f64, |m, v| m.max(v.abs()));
            let heat = Rc::new(HeatmapData {
                matrix,
                x: Axis::indexed("key j", "key"),
                y: Axis::indexed("query i", "query"),
                scale: ColorScale::symmetric(settings.palette, top),
                colorbar_title: "score".into(),
                caption: format!("{} · {what}", scheme.label()),
                nouns: ("queries".into(), "keys".into()),
                rule: None,
            });
            let (lo, hi) = curve
                .iter()
                .filter(|v| v.is_finite())
                .fold((0.0f64, 0.0f64), |(a, b), v| (a.min(*v), b.max(*v)));
            let pad = ((hi - lo) * 0.06).max(1e-6);
            let n = curve.len();
            let line = Rc::new(LineChartData {
                series: vec![Series::line(
                    what.clone(),
                    colour,
                    Points::Uniform {
                        x0: 0.0,
                        dx: 1.0,
                        ys: curve,
                    },
                )],
                x: LineAxis::linear(
                    "distance: key positions before the query",
                    0.0,
                    (n.max(2) - 1) as f64,
                ),
                y: LineAxis::linear("score added by position", lo - pad, hi + pad),
                caption: format!(
                    "{} by distance · d_model {} · length {}",
                    scheme.id(),
                    settings.d_model,
                    settings.length
                ),
                guides: (settings.trained_length < settings.length)
                    .then(|| Guide {
                        value: settings.trained_length as f64,
                        label: format!("trained length {}", settings.trained_length),
                        vertical: true,
                    })
                    .into_iter()
                    .collect(),
            });
            (heat, line)
        })
    };
    let side = props.side;
    html! {
        <div class="compare-column">
            <h3 class="section-title">{ scheme.label() }</h3>
            <p class="entry small">{ scheme.entry() }</p>
            <LineCard id={format!("compare-curve-{side}")} data={Shared::new(built.1.clone())}
                description={format!("How {} treats distance: the score position adds for a key k positions back.", scheme.id())}
                file_stem={file_stem(s, &format!("compare_{}_curve", scheme.id()))} aspect={0.6} />
            <MatrixCard id={format!("compare-matrix-{side}")} data={Shared::new(built.0.clone())}
                description={format!("What {} adds to the score of every query and key.", scheme.id())}
                file_stem={file_stem(s, &format!("compare_{}_matrix", scheme.id()))} height={380.0} />
            <div class="explain">
                <h4>{ format!("Past the trained length ({})", group_thousands(s.trained_length as u64)) }</h4>
                <p>{ past_trained_length(s, scheme) }</p>
            </div>
        </div>
    }
}

#[function_component(CompareView)]
pub fn compare_view(props: &ViewProps) -> Html {
    let s = &props.settings;
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
                        between a query and a key, as a curve of distance and as a matrix.",
                        s.d_model, plain(s.length as f64)) }
                </p>
            </header>
            <div class="view-controls">
                <div class="control">
                    <label for="compare-with" class="control-label">{ "Compare with" }</label>
                    <select id="compare-with" class="control-select" onchange={on_change}>
                        { for Scheme::ALL.iter().map(|v| html! {
                            <option value={v.id()} selected={*v == s.compare_with}>{ v.label() }</option>
                        }) }
                    </select>
                </div>
            </div>
            <div class="twin twin-2">
                <SchemeColumn settings={s.clone()} scheme={s.scheme} side="a" />
                <SchemeColumn settings={s.clone()} scheme={s.compare_with} side="b" />
            </div>
        </section>
    }
}
