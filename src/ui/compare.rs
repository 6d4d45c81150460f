//! Two schemes side by side under the same sliders: what position alone adds to the score of
//! query i and key j, as a matrix and as a curve of distance, and what happens past the trained
//! length.

use std::rc::Rc;

use web_sys::HtmlSelectElement;
use yew::prelude::*;

use super::app::ViewProps;
use super::chart::{use_chunked, Shared};
use super::heatmap::MatrixCard;
use super::line_chart::LineCard;
use crate::action::Action;
use crate::export::file_stem;
use crate::format::{group_thousands, plain};
use crate::math::alibi::bias_at_offset;
use crate::math::chunked::Chunked;
use crate::math::learned::{Learned, LearnedGram};
use crate::math::matrix::Matrix;
use crate::math::offsets::{ClosedForm, SimilarityMatrix};
use crate::math::rope::RopeCurvesJob;
use crate::math::scheme::Scheme;
use crate::math::sinusoidal::Sinusoidal;
use crate::math::toeplitz::Toeplitz;
use crate::plot::colormap::ColorScale;
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series, SERIES_COLORS};
use crate::state::Settings;

/// Longest learned distance curve, in multiply-adds (each point draws a row of the table).
const LEARNED_CURVE_WORK: usize = 4_000_000;

/// The settings `scheme` reads here, everything else at its default: a memo keyed on this
/// recomputes a column only when something it shows changes.
pub(crate) fn column_inputs(s: &Settings, scheme: Scheme) -> Settings {
    let mut k = Settings {
        length: s.length,
        trained_length: s.trained_length,
        palette: s.palette,
        ..Settings::default()
    };
    match scheme {
        Scheme::Sinusoidal => (k.variant, k.d_model, k.base) = (s.variant, s.d_model, s.base),
        Scheme::Learned => (k.d_model, k.learned_seed) = (s.d_model, s.learned_seed),
        Scheme::Rope => {
            (k.d_model, k.base, k.rope_pairing) = (s.d_model, s.base, s.rope_pairing);
            (k.extension, k.rope_factor) = (s.extension, s.rope_factor);
        }
        Scheme::Alibi => (k.alibi_heads, k.alibi_head) = (s.alibi_heads, s.alibi_head),
        Scheme::T5 => (k.t5, k.learned_seed) = (s.t5, s.learned_seed),
        Scheme::None => {}
    }
    k
}

/// What position alone contributes to the score between query i and key j (a matrix), and the
/// same as a curve of distance k = i − j ≥ 0 (a key k positions before the query).
struct PositionScores {
    matrix: Rc<dyn Matrix>,
    curve: Vec<f64>,
    what: String,
}

/// Lays a curve of distance along the diagonals: `past[k]` for a key k positions back,
/// `future(k)` for a key k positions ahead.
fn relative(
    length: usize,
    past: Vec<f64>,
    what: String,
    future: Box<dyn Fn(i64) -> f64>,
) -> PositionScores {
    let curve = Rc::new(past);
    let lookup = curve.clone();
    PositionScores {
        matrix: Rc::new(Toeplitz::new(length, move |k| {
            if k <= 0 {
                lookup[k.unsigned_abs() as usize]
            } else {
                future(k)
            }
        })),
        curve: Rc::try_unwrap(curve).unwrap_or_else(|rc| (*rc).clone()),
        what,
    }
}

/// A column's scores. The sinusoidal and RoPE curves are sums over every pair at every
/// distance (over a hundred million terms at the largest sizes), so they are computed a range
/// of distances at a time; the others are quick.
enum ColumnJob {
    Sinusoidal(ClosedForm),
    Rope(RopeCurvesJob, usize),
    Learned(LearnedCurve),
    /// Computed when the job is made (one value per distance).
    Ready(PositionScores),
}

/// The learned table's curve P(k)·P(0), query k against the first key: each row is d_model
/// fresh normal deviates, so long curves are drawn a range of rows at a time.
struct LearnedCurve {
    table: Learned,
    length: usize,
    shown: usize,
    first: Vec<f64>,
    curve: Vec<f64>,
}

impl ColumnJob {
    fn new(s: &Settings, scheme: Scheme) -> ColumnJob {
        match scheme {
            Scheme::Sinusoidal => ColumnJob::Sinusoidal(ClosedForm::job(
                Sinusoidal::new(s.variant, s.d_model, s.base),
                s.length,
            )),
            Scheme::Rope => ColumnJob::Rope(s.rope().curves_job(s.length, 2), s.length),
            Scheme::Learned => {
                let table = s.learned();
                // Not a function of distance: the curve is P(k)·P(0), query k and the first key.
                let shown = s
                    .length
                    .min(table.max_len)
                    .min((LEARNED_CURVE_WORK / table.d_model.max(1)).max(64));
                ColumnJob::Learned(LearnedCurve {
                    first: table.row(0).unwrap_or_default(),
                    curve: Vec::with_capacity(shown),
                    table,
                    length: s.length,
                    shown,
                })
            }
            // Biases: one value per distance, ready at once.
            Scheme::Alibi => {
                let m = s.alibi_slope();
                ColumnJob::Ready(relative(
                    s.length,
                    (0..s.length).map(|k| -m * k as f64).collect(),
                    format!("bias of head {}", s.alibi_head),
                    Box::new(move |k| bias_at_offset(m, k, true)),
                ))
            }
            Scheme::T5 => {
                let t5 = s.t5_bias();
                let bias = move |k: i64| t5.at(k);
                ColumnJob::Ready(relative(
                    s.length,
                    (0..s.length).map(|k| bias(-(k as i64))).collect(),
                    "bias of the bucket".into(),
                    Box::new(bias),
                ))
            }
            Scheme::None => ColumnJob::Ready(relative(
                s.length,
                vec![0.0; s.length],
                "nothing".into(),
                Box::new(|_| 0.0),
            )),
        }
    }
}

impl Chunked for ColumnJob {
    type Output = PositionScores;

    fn len(&self) -> usize {
        match self {
            ColumnJob::Sinusoidal(j) => j.len(),
            ColumnJob::Rope(j, _) => j.len(),
            ColumnJob::Learned(j) => j.shown,
            ColumnJob::Ready(_) => 1,
        }
    }

    fn cost(&self) -> usize {
        match self {
            ColumnJob::Sinusoidal(j) => j.cost(),
            ColumnJob::Rope(j, _) => j.cost(),
            // A normal deviate (a logarithm, a cosine) costs about forty multiply-adds.
            ColumnJob::Learned(j) => 40 * j.table.d_model.max(1),
            ColumnJob::Ready(_) => 1,
        }
    }

    fn compute(&mut self, range: std::ops::Range<usize>) {
        match self {
            ColumnJob::Sinusoidal(j) => j.compute(range),
            ColumnJob::Rope(j, _) => j.compute(range),
            ColumnJob::Learned(j) => j.curve.extend(range.map(|k| match j.table.row(k) {
                Ok(row) => row.iter().zip(&j.first).map(|(x, y)| x * y).sum(),
                Err(_) => f64::NAN,
            })),
            ColumnJob::Ready(_) => {}
        }
    }

    fn finish(self) -> PositionScores {
        match self {
            ColumnJob::Sinusoidal(j) => {
                let form = j.finish();
                PositionScores {
                    curve: form.half.clone(),
                    matrix: Rc::new(SimilarityMatrix::from_closed(form, false)),
                    what: "PE(i)·PE(j)".into(),
                }
            }
            ColumnJob::Rope(j, length) => {
                // q·k for q = k = 1 depends on |m − n| only (cos is even): the same both ways.
                let ones = j.finish().ones;
                let mirror = ones.clone();
                relative(
                    length,
                    ones,
                    "q·k for q = k = 1".into(),
                    Box::new(move |k| mirror[k as usize]),
                )
            }
            ColumnJob::Learned(j) => PositionScores {
                matrix: Rc::new(LearnedGram {
                    table: j.table,
                    length: j.length,
                }),
                curve: j.curve,
                what: "P(i)·P(j), untrained".into(),
            },
            ColumnJob::Ready(scores) => scores,
        }
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
        Scheme::Rope => format!(
            "{} Position interpolation squeezes long inputs back into the trained range; \
             NTK-aware scaling slows the slow pairs most.",
            super::schemes::rope_extrapolation(&s.rope(), s.length, t)
        ),
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
    let computed = use_chunked((column_inputs(s, scheme), scheme), |(settings, scheme)| {
        ColumnJob::new(settings, *scheme)
    });
    let built = use_memo(
        (computed.clone().map(Shared::new), props.side),
        move |(computed, _)| {
            let computed = computed.as_ref()?;
            let ((settings, scheme), scores) = &*computed.0;
            let scheme = *scheme;
            let PositionScores {
                matrix,
                curve,
                what,
            } = scores;
            let (matrix, curve, what) = (matrix.clone(), curve.clone(), what.clone());
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
            Some((heat, line))
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
                        between a query and a key, as a curve of distance and as a matrix. \
                        Sinusoidal and learned vectors are added to the input, so what they add \
                        is the position–position term PE(i)·PE(j), shown as if W_Q·W_Kᵀ were the \
                        identity; RoPE is shown for q = k = the all-ones vector; ALiBi and T5 add \
                        exactly the bias shown.",
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
