//! The natural pictures of the schemes beyond sinusoidal: their matrix (the learned table,
//! RoPE's cos cache, ALiBi's and T5's score biases) and how they treat distance.

use std::rc::Rc;

use yew::prelude::*;

use super::app::ViewProps;
use super::chart::{use_chunked, CsvExport, Shared};
use super::code::CodePanel;
use super::file_stem;
use super::heatmap::MatrixCard;
use super::line_chart::LineCard;
use crate::action::Action;
use crate::export::table_csv;
use crate::format::{group_thousands, plain, significant};
use crate::math::alibi::{bias_at_offset, steepest};
use crate::math::chunked::Sequence;
use crate::math::learned::{LearnedMatrix, INIT_STD};
use crate::math::rope::{half_from_adjacent, Rope, RopeCurves, RopePairing, RopeScaling};
use crate::math::scheme::Scheme;
use crate::math::toeplitz::Toeplitz;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{
    Guide, LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS,
};
use crate::state::{Extension, Settings};

/// The "Position matrix" tab: each scheme's own matrix.
#[function_component(MatrixView)]
pub fn matrix_view(props: &ViewProps) -> Html {
    let (settings, on_action) = (props.settings.clone(), props.on_action.clone());
    let code = html! { <CodePanel settings={settings.clone()} /> };
    if settings.scheme == Scheme::None {
        return settings.scheme.def().matrix_view(ViewProps {
            settings,
            on_action,
        });
    }
    let view = settings.scheme.def().matrix_view(ViewProps {
        settings,
        on_action,
    });
    html! { <>{ view }{ code }</> }
}

/// The "By distance" tab: how each scheme treats the distance between two positions.
#[function_component(DistanceView)]
pub fn distance_view(props: &ViewProps) -> Html {
    let (settings, on_action) = (props.settings.clone(), props.on_action.clone());
    settings.scheme.def().distance_view(ViewProps {
        settings,
        on_action,
    })
}

/// A panel with a title, a lead paragraph, the scheme's entry point, and content.
fn panel(id: &str, title: &str, scheme: Scheme, lead: &str, content: Html) -> Html {
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

pub(crate) fn none_panel(what: &str) -> Html {
    panel(
        &format!("none-{what}"),
        "No position information",
        Scheme::None,
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

fn trained_rule(s: &Settings) -> Option<(usize, String)> {
    (s.trained_length < s.length).then(|| {
        (
            s.trained_length,
            format!("trained length {}", s.trained_length),
        )
    })
}

// ----- learned -----

#[function_component(LearnedMatrixView)]
pub(crate) fn learned_matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let table = s.learned();
    let data = use_memo((table, s.length, s.palette), |(table, length, palette)| {
        HeatmapData {
            matrix: Rc::new(LearnedMatrix {
                table: *table,
                length: *length,
            }),
            x: Axis::indexed("dimension", "dim"),
            y: Axis::indexed("position", "position"),
            scale: ColorScale::symmetric(*palette, 3.0 * INIT_STD),
            colorbar_title: "value".into(),
            caption: format!(
                "Learned positions, untrained (N(0, 0.02²), seed {}) · max_len {} · d_model {}",
                table.seed, table.max_len, table.d_model
            ),
            nouns: ("positions".into(), "dimensions".into()),
            rule: (table.max_len < *length).then(|| {
                (
                    table.max_len,
                    format!("max_len {}: no rows below", table.max_len),
                )
            }),
        }
    });
    let missing = s.length.saturating_sub(s.trained_length);
    panel(
        "learned",
        "A learned position table",
        Scheme::Learned,
        "BERT and GPT-2 do not compute their position vectors: they learn one vector per \
         position, a table with max_len rows (512 in BERT, 1024 in GPT-2). This one is \
         untrained: random numbers drawn the way Hugging Face starts those models, N(0, 0.02²) \
         (the original BERT truncated that normal at ±2σ; the original GPT-2 used σ = 0.01 for \
         positions). Training would shape it; the app does not pretend to.",
        html! {
            <>
                <MatrixCard id="learned-heatmap" data={Shared::new(data)}
                    description="Heatmap of an untrained learned position table; rows past max_len do not exist."
                    file_stem={file_stem(s, "learned")} height={460.0} />
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
    let key = (s.learned(), s.length, s.anchors());
    let data = {
        let settings = s.clone();
        use_memo(key, move |_| learned_distance(&settings))
    };
    panel(
        "learned-distance",
        "Learned positions by distance",
        Scheme::Learned,
        "The dot product of two rows of the table, P(p)·P(p+k), for a few anchors p: without \
         training there is no relation between positions, so only k = 0 (a row with itself) \
         stands out, and the curves of different anchors do not coincide.",
        html! {
            <LineCard id="learned-distance-chart" data={Shared::new(data)}
                description="Dot products between rows of the learned table at several offsets; noise except at offset 0."
                file_stem={file_stem(s, "learned_distance")} />
        },
    )
}

fn learned_distance(s: &Settings) -> LineChartData {
    let table = s.learned();
    let length = s.length.min(table.max_len).max(1);
    let last = length as i64 - 1;
    let stride = (2 * length).div_ceil(400).max(1) as i64;
    let series = s
        .anchors()
        .iter()
        .filter(|&&p| p < length)
        .enumerate()
        .map(|(a, &p)| {
            let row = table.row(p).unwrap_or_default();
            let points = (-(p as i64)..=(last - p as i64))
                .filter(|k| k % stride == 0)
                .map(|k| {
                    let other = table.row((p as i64 + k) as usize).unwrap_or_default();
                    (k as f64, row.iter().zip(&other).map(|(x, y)| x * y).sum())
                })
                .collect();
            Series {
                marker: if stride == 1 && length < 120 {
                    Marker::SHAPES[a % 4]
                } else {
                    Marker::None
                },
                ..Series::line(
                    format!("P({p})·P({p}+k)"),
                    SERIES_COLORS[a % 6],
                    Points::Pairs(points),
                )
            }
        })
        .collect::<Vec<_>>();
    let top = (s.d_model as f64) * INIT_STD * INIT_STD * 1.6;
    LineChartData {
        series,
        x: LineAxis::linear("offset k", -(last as f64), last as f64),
        y: LineAxis::linear("P(p)·P(p+k)", -top * 0.5, top),
        caption: format!(
            "Learned table (untrained) · dot products by offset · max_len {} · d_model {}{}",
            table.max_len,
            s.d_model,
            if stride > 1 {
                format!(" · every {stride}th offset")
            } else {
                String::new()
            }
        ),
        guides: vec![Guide {
            value: s.d_model as f64 * INIT_STD * INIT_STD,
            label: format!(
                "expected |P(p)|² = d·0.02² = {}",
                significant(s.d_model as f64 * 4e-4, 3)
            ),
            vertical: false,
        }],
    }
}

// ----- RoPE -----

#[function_component(RopeTableView)]
pub(crate) fn rope_table_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let rope = s.rope();
    let data = use_memo(
        (rope, s.length, s.palette, trained_rule(s)),
        |(rope, length, palette, rule)| HeatmapData {
            matrix: Rc::new(rope.cos_table(*length)),
            x: Axis::indexed("dimension of q and k", "dim"),
            y: Axis::indexed("position m", "position"),
            scale: ColorScale::symmetric(*palette, 1.0),
            colorbar_title: "cos(m·θ)".into(),
            caption: format!(
                "RoPE cos(m·θᵢ) cache · {} · d_model {} · θ base {}{}",
                rope.pairing.id(),
                rope.d_model,
                plain(rope.base),
                match rope.scaling.id() {
                    "none" => String::new(),
                    id => format!(" · {id} ×{}", plain(rope.scaling.factor())),
                }
            ),
            nouns: ("positions".into(), "dimensions".into()),
            rule: rule.clone(),
        },
    );
    let extrapolation = rope_extrapolation(&rope, s.length, s.trained_length);
    let layout = match s.rope_pairing {
        RopePairing::RotateHalf => {
            "dimension i turns together with dimension i + d/2, so the \
            left and right halves of the table repeat the same frequencies"
        }
        RopePairing::Adjacent => {
            "dimensions 2i and 2i+1 turn together, so neighbouring columns \
            repeat the same frequency"
        }
    };
    panel(
        "rope",
        "RoPE: rotation angles",
        Scheme::Rope,
        "RoPE adds nothing to the embeddings. Inside attention, every query and key is split into \
         pairs of dimensions and pair i is turned by the angle m·θᵢ at position m, θᵢ = \
         base^(−2i/d). The table is cos(m·θᵢ), the cache the libraries precompute.",
        html! {
            <>
                <MatrixCard id="rope-heatmap" data={Shared::new(data)}
                    description="Heatmap of cos(m·θ) for every position m and dimension: the rotation RoPE applies to queries and keys."
                    file_stem={file_stem(s, "rope_cos")} height={460.0} />
                <div class="explain">
                    <p>{ format!("With the {} pairing, {layout}. The two pairings are the same \
                        rotation applied to dimensions in a different order (the permutation \
                        [0::2] ++ [1::2]): a checkpoint trained with one must be permuted to be \
                        loaded with the other.", s.rope_pairing.id()) }</p>
                    <p>{ extrapolation }</p>
                </div>
            </>
        },
    )
}

/// Which rotation angles are new to a model trained on `trained` positions, at `length`.
pub fn rope_extrapolation(rope: &Rope, length: usize, trained: usize) -> String {
    let pairs = rope.pair_count();
    let unseen = rope.unseen_pairs(length, trained);
    let seen = rope.seen_length(trained);
    let t = group_thousands(trained as u64);
    let now = if length as f64 > seen {
        format!(
            "At length {}, {unseen} of the {pairs} pairs turn further than they ever did in \
             training: the model meets rotation angles it has never seen.",
            group_thousands(length as u64)
        )
    } else {
        format!(
            "At length {} every angle is one the model saw in training.",
            group_thousands(length as u64)
        )
    };
    let reach = if seen.is_infinite() {
        format!("Every pair completed a full turn within {t} positions, so no length is new.")
    } else if rope.scaling == RopeScaling::None {
        format!(
            "Trained on {t} positions, {} of the {pairs} pairs never completed a turn; past {t} \
             they go further. Position interpolation and NTK-aware scaling (in the settings) slow \
             them down.",
            rope.unseen_pairs(usize::MAX, trained)
        )
    } else {
        format!(
            "With {} ×{}, angles stay inside the trained range up to length {}.",
            match rope.scaling {
                RopeScaling::Interpolation(_) => "position interpolation",
                _ => "NTK-aware scaling",
            },
            plain(rope.scaling.factor()),
            group_thousands(seen as u64)
        )
    };
    format!("{now} {reach}")
}

const ROPE_DISTANCE_LEAD: &str = "Rotating q by m·θ and k by n·θ leaves q·k depending only on \
    m − n. Here, the score of q = k = (1, …, 1) against the distance, the mean over random \
    vectors, and RoFormer's bound on the score's magnitude, a bound that itself decays with \
    distance.";

/// The T5 view's lead: where the staircase goes flat, computed for the current buckets.
fn t5_lead(s: &Settings) -> String {
    let flat = s.t5.saturation_distance();
    format!(
        "The bucket of each relative position key − query: a staircase with single steps near \
         zero and ever wider steps further out, flat from distance {} on ({} buckets, {}): every \
         distance from there shares the last bucket, whatever max_distance says.",
        crate::format::group_thousands(flat as u64),
        s.t5.num_buckets,
        if s.t5.bidirectional {
            "bidirectional"
        } else {
            "causal"
        }
    )
}

#[function_component(RopeDistanceView)]
pub(crate) fn rope_distance_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    // Σ over every pair at every distance: computed a range of distances at a time.
    let curves = use_chunked(RopeDistanceInputs::of(s), |k| {
        let mut jobs = vec![k.rope.curves_job(k.length, 1024)];
        if let Some(plain) = k.plain {
            jobs.push(plain.curves_job(k.length, 2));
        }
        Sequence::new(jobs)
    });
    let computed = use_memo(curves.map(Shared::new), |curves| {
        curves.as_ref().map(|c| rope_distance(&c.0 .0, &c.0 .1))
    });
    let Some((data, csv_rows)) = (*computed).clone() else {
        return panel(
            "rope-distance",
            "RoPE by distance",
            Scheme::Rope,
            ROPE_DISTANCE_LEAD,
            html! { <p class="muted" role="status">{ format!("Computing the score at {} distances…", plain(s.length as f64)) }</p> },
        );
    };
    let csv: CsvExport = {
        let (rows, name) = (csv_rows, file_stem(s, "rope_distance"));
        Callback::from(move |_| {
            let header = ["distance", "ones_score", "random_mean"].map(String::from);
            Ok((
                format!("{name}.csv"),
                table_csv(&header, rows.iter().cloned()),
            ))
        })
    };
    let permuted = check_permutation(s);
    let method = if s.extension == Extension::None {
        "no extension".to_string()
    } else {
        s.extension.label().to_string()
    };
    let pairs = use_memo(
        (s.rope(), s.trained_length, method.clone()),
        |(rope, trained, method)| crate::figures::rope::pair_frequencies(rope, *trained, method),
    );
    let pairs_csv: CsvExport = {
        let (pairs, name) = (pairs.clone(), file_stem(s, "rope_pairs"));
        Callback::from(move |_| Ok((format!("{name}.csv"), pairs.csv.clone())))
    };
    panel(
        "rope-distance",
        "RoPE by distance",
        Scheme::Rope,
        ROPE_DISTANCE_LEAD,
        html! {
            <>
                <LineCard id="rope-distance-chart" data={Shared::new(data)}
                    description="RoPE attention score against relative distance for q = k = 1, the mean over random vectors, and the long-term decay bound."
                    file_stem={file_stem(s, "rope_distance")} csv={Some(csv)} />
                <div class="explain">
                    <p>{ "Shift both positions by the same amount and each pair turns q and k by \
                        the same extra angle: their dot product is unchanged. So the score is a \
                        function of m − n alone, for any q and k." }</p>
                    <p class="callout">{ shift_check(s) }</p>
                    <p>{ permuted }</p>
                    <p class="muted">{ "The bound is not the score itself, nor a rate or an \
                        average: it caps the magnitude of the score at each distance, and the cap \
                        shrinks as the distance grows, which is RoFormer's argument that distant \
                        tokens interact less." }</p>
                </div>
                <LineCard id="rope-pairs-chart" data={Shared::new(Rc::new(pairs.chart.clone()))}
                    description="Each RoPE pair's frequency, plain and with the chosen extension method, marked by what the method does to it, with the frequency that turns once over the trained length."
                    file_stem={file_stem(s, "rope_pairs")} csv={Some(pairs_csv)} />
                <p class="explain" id="rope-pairs-summary">{ pairs.summary.clone() }</p>
            </>
        },
    )
}

/// Measures, live, that a RoPE score depends on m − n only: random q and k at distance Δ, with
/// both positions moved to 0, L/4, L/2 and L − 1 − Δ.
fn shift_check(s: &Settings) -> String {
    let rope = s.rope();
    let mut rng = crate::math::rng::SplitMix64::new(11);
    let q: Vec<f64> = (0..s.d_model).map(|_| rng.next_normal()).collect();
    let k: Vec<f64> = (0..s.d_model).map(|_| rng.next_normal()).collect();
    let l = s.length;
    let mut worst = 0.0f64;
    let mut checked = 0;
    for delta in [0, 1, 7, l / 3, l.saturating_sub(1)] {
        let reference = rope.score(&q, delta as f64, &k, 0.0);
        for n in [l / 4, l / 2, l.saturating_sub(1 + delta)] {
            let v = rope.score(&q, (n + delta) as f64, &k, n as f64);
            worst = worst.max((v - reference).abs());
            checked += 1;
        }
    }
    format!(
        "Measured: for random q and k, moving both positions together changes the score by at \
         most {} over {checked} shifts.",
        significant(worst, 2)
    )
}

/// The permutation check of the two pairings, as a sentence with the number.
fn check_permutation(s: &Settings) -> String {
    let d = s.d_model;
    let half = crate::math::rope::Rope::new(d, s.base, RopePairing::RotateHalf, s.rope().scaling);
    let adjacent = crate::math::rope::Rope::new(d, s.base, RopePairing::Adjacent, s.rope().scaling);
    let p = half_from_adjacent(d);
    let mut rng = crate::math::rng::SplitMix64::new(7);
    let x: Vec<f64> = (0..d).map(|_| rng.next_normal()).collect();
    let permuted: Vec<f64> = p.iter().map(|&i| x[i]).collect();
    let m = (s.length - 1) as f64;
    let a = half.rotate(&permuted, m);
    let b = adjacent.rotate(&x, m);
    let gap = p
        .iter()
        .enumerate()
        .map(|(j, &i)| (a[j] - b[i]).abs())
        .fold(0.0, f64::max);
    let within = if gap == 0.0 {
        "exactly".to_string()
    } else {
        format!("to within {}", significant(gap, 2))
    };
    format!(
        "The two pairings differ only by the order of dimensions: rotating a random vector at \
         position {m} with rotate-half after permuting it by [0::2] ++ [1::2] matches the \
         adjacent rotation permuted the same way {within}."
    )
}

/// What the RoPE distance chart is computed from (its memo key).
#[derive(Clone, PartialEq)]
struct RopeDistanceInputs {
    rope: Rope,
    /// The same RoPE without its extension method, when it has one.
    plain: Option<Rope>,
    d_model: usize,
    length: usize,
    trained_length: usize,
    /// The method and its factor, for the caption.
    method: String,
}

impl RopeDistanceInputs {
    fn of(s: &Settings) -> Self {
        RopeDistanceInputs {
            rope: s.rope(),
            plain: (s.extension != Extension::None).then(|| {
                Rope::new(s.d_model, s.base, s.rope_pairing, Default::default())
                    .with_rotary_fraction(s.rotary_fraction)
            }),
            d_model: s.d_model,
            length: s.length,
            trained_length: s.trained_length,
            method: match s.extension {
                Extension::None => String::new(),
                e => format!(" · {} ×{}", e.label(), plain(s.rope_factor)),
            },
        }
    }
}

/// The chart and CSV rows of RoPE's score by distance, from the curves of the settings' RoPE
/// and, with an extension, of the same RoPE without it.
fn rope_distance(
    s: &RopeDistanceInputs,
    all: &[RopeCurves],
) -> (Rc<LineChartData>, Rc<Vec<Vec<f64>>>) {
    let rope = s.rope;
    let curves = &all[0];
    let mut series = vec![
        Series {
            width: 2.0,
            ..Series::line(
                "q = k = 1: Σ 2cos(Δθᵢ)",
                SERIES_COLORS[0],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: curves.ones.clone(),
                },
            )
        },
        Series {
            stroke: Stroke::Dashed,
            ..Series::line(
                format!("mean over {} random q = k", curves.samples),
                SERIES_COLORS[1],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: curves.random.clone(),
                },
            )
        },
        Series {
            stroke: Stroke::Dotted,
            width: 2.2,
            ..Series::line(
                "decay bound (RoFormer)",
                SERIES_COLORS[2],
                Points::Pairs(curves.decay.clone()),
            )
        },
    ];
    if let Some(without) = all.get(1) {
        series.push(Series {
            stroke: Stroke::Dashed,
            width: 1.2,
            ..Series::line(
                "q = k = 1 without extension",
                SERIES_COLORS[6],
                Points::Uniform {
                    x0: 0.0,
                    dx: 1.0,
                    ys: without.ones.clone(),
                },
            )
        });
    }
    let (lo, hi) = series
        .iter()
        .flat_map(|s| match &s.points {
            Points::Uniform { ys, .. } => ys.clone(),
            Points::Pairs(p) => p.iter().map(|q| q.1).collect(),
        })
        .fold((0.0f64, 1.0f64), |(a, b), v| (a.min(v), b.max(v)));
    let rows = Rc::new(
        (0..s.length)
            .map(|d| vec![d as f64, curves.ones[d], curves.random[d]])
            .collect(),
    );
    let data = LineChartData {
        series,
        x: LineAxis::linear("distance m − n", 0.0, (s.length - 1).max(1) as f64),
        y: LineAxis::linear("score q·k after rotation", lo - (hi - lo) * 0.05, hi * 1.05),
        caption: format!(
            "RoPE score by distance · d_model {} · θ base {}{}",
            s.d_model,
            plain(rope.base),
            s.method
        ),
        guides: (s.trained_length < s.length)
            .then(|| Guide {
                value: s.trained_length as f64,
                label: format!("trained length {}", s.trained_length),
                vertical: true,
            })
            .into_iter()
            .collect(),
    };
    (Rc::new(data), rows)
}

// ----- ALiBi -----

fn alibi_matrix(s: &Settings, slope: f64, head: usize, palette: Palette) -> HeatmapData {
    let length = s.length;
    HeatmapData {
        matrix: Rc::new(Toeplitz::new(length, |k| bias_at_offset(slope, k, true))),
        x: Axis::indexed("key j", "key"),
        y: Axis::indexed("query i", "query"),
        scale: ColorScale::symmetric(palette, (slope * (length - 1).max(1) as f64).max(1e-9)),
        colorbar_title: "bias".into(),
        caption: format!(
            "ALiBi head {head} · slope {} · causal",
            significant(slope, 4)
        ),
        nouns: ("queries".into(), "keys".into()),
        rule: None,
    }
}

#[function_component(AlibiMatrixView)]
pub(crate) fn alibi_matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let slopes = s.alibi_slopes();
    let key = (s.length, s.alibi_heads, s.alibi_head, s.palette);
    let main = {
        let settings = s.clone();
        use_memo(key, move |_| {
            alibi_matrix(
                &settings,
                settings.alibi_slope(),
                settings.alibi_head,
                settings.palette,
            )
        })
    };
    let shown: Vec<usize> = crate::math::rotation::dial_subset(slopes.len(), 8);
    let cards = {
        let settings = s.clone();
        let shown = shown.clone();
        use_memo((key, shown.clone()), move |_| {
            shown
                .iter()
                .map(|&h| {
                    Rc::new(alibi_matrix(
                        &settings,
                        settings.alibi_slopes()[h],
                        h,
                        settings.palette,
                    ))
                })
                .collect::<Vec<_>>()
        })
    };
    let list = slopes
        .iter()
        .map(|v| significant(*v, 3))
        .collect::<Vec<_>>()
        .join(", ");
    panel(
        "alibi",
        "ALiBi: a bias on the scores",
        Scheme::Alibi,
        "ALiBi gives the model no position vectors at all. Each head adds −m·(i − j) to the score \
         of query i and key j: the further back the key, the larger the penalty. The masked \
         upper triangle (future keys, in a decoder) is drawn as undefined.",
        html! {
            <>
                <MatrixCard id="alibi-heatmap" data={Shared::new(main)}
                    description="Heatmap of the ALiBi bias added to the attention scores of one head: zero on the diagonal, falling linearly with distance; future keys masked."
                    file_stem={file_stem(s, "alibi")} height={460.0} />
                <div class="explain">
                    <p>{ format!("Slopes for {} heads (the reference get_slopes): {list}.", slopes.len()) }</p>
                    <p>{ "For a power-of-two head count the slopes are a geometric sequence \
                        starting at 2^(−8/n); otherwise the slopes of the next smaller power of \
                        two are followed by every other slope of the next larger one. Steep \
                        heads look only at recent tokens; shallow heads can reach far back." }</p>
                </div>
                <h3 class="section-title">{ format!("Heads {} of {}", shown.iter().map(|h| h.to_string()).collect::<Vec<_>>().join(", "), slopes.len()) }</h3>
                <div class="twin twin-4">
                    { for cards.iter().zip(&shown).map(|(c, h)| html! {
                        <MatrixCard id={format!("alibi-head-{h}")} data={Shared::new(c.clone())}
                            description={format!("ALiBi bias of head {h}.")}
                            file_stem={file_stem(s, &format!("alibi_head{h}"))} height={240.0} />
                    }) }
                </div>
            </>
        },
    )
}

#[function_component(AlibiDistanceView)]
pub(crate) fn alibi_distance_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let data = {
        let settings = s.clone();
        use_memo((s.length, s.alibi_heads, s.trained_length), move |_| {
            alibi_distance(&settings)
        })
    };
    let csv: CsvExport = {
        let settings = s.clone();
        Callback::from(move |_| {
            let slopes = settings.alibi_slopes();
            let mut header = vec!["distance".to_string()];
            header.extend((0..slopes.len()).map(|h| format!("head_{h}")));
            let rows = (0..settings.length).map(|d| {
                let mut row = vec![d as f64];
                row.extend(slopes.iter().map(|m| -m * d as f64));
                row
            });
            Ok((
                format!("{}.csv", file_stem(&settings, "alibi_distance")),
                table_csv(&header, rows),
            ))
        })
    };
    let far = 2 * s.trained_length;
    let steep = steepest(&s.alibi_slopes());
    panel(
        "alibi-distance",
        "ALiBi by distance",
        Scheme::Alibi,
        "The bias of every head against the distance i − j: straight lines, one slope per head.",
        html! {
            <>
                <LineCard id="alibi-distance-chart" data={Shared::new(data)}
                    description="ALiBi bias against distance, one line per head."
                    file_stem={file_stem(s, "alibi_distance")} csv={Some(csv)} />
                <div class="explain">
                    <p>{ format!("Past the trained length the lines simply continue: at distance {} \
                        the steepest head subtracts {} from the score, twice what it did at the \
                        trained length. Nothing new appears, which is why ALiBi extrapolates \
                        gracefully: far tokens just fade further.", far, plain(steep * far as f64)) }</p>
                </div>
            </>
        },
    )
}

fn alibi_distance(s: &Settings) -> LineChartData {
    let slopes = s.alibi_slopes();
    let shown = crate::math::rotation::dial_subset(slopes.len(), 12);
    let last = (s.length - 1).max(1) as f64;
    let series = shown
        .iter()
        .enumerate()
        .map(|(i, &h)| {
            Series::line(
                format!("head {h} (m = {})", significant(slopes[h], 3)),
                SERIES_COLORS[i % 7],
                Points::Pairs(vec![(0.0, 0.0), (last, -slopes[h] * last)]),
            )
        })
        .collect();
    let bottom = -steepest(&slopes).max(f64::MIN_POSITIVE) * last;
    LineChartData {
        series,
        x: LineAxis::linear("distance i − j", 0.0, last),
        y: LineAxis::linear("bias added to the score", bottom * 1.05, -bottom * 0.05),
        caption: format!("ALiBi bias by distance · {} heads", slopes.len()),
        guides: (s.trained_length < s.length)
            .then(|| Guide {
                value: s.trained_length as f64,
                label: format!("trained length {}", s.trained_length),
                vertical: true,
            })
            .into_iter()
            .collect(),
    }
}

// ----- T5 -----

#[function_component(T5MatrixView)]
pub(crate) fn t5_matrix_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let key = (s.t5, s.length, s.learned_seed, s.palette);
    let both = {
        let settings = s.clone();
        use_memo(key, move |_| {
            let bias = settings.t5_bias();
            let t5 = bias.buckets;
            let top = bias.biases.iter().fold(1e-9f64, |m, b| m.max(b.abs()));
            let kind = if t5.bidirectional {
                "bidirectional"
            } else {
                "causal"
            };
            (
                Rc::new(HeatmapData {
                    matrix: Rc::new(Toeplitz::new(settings.length, |k| t5.bucket(k) as f64)),
                    x: Axis::indexed("key j", "key"),
                    y: Axis::indexed("query i", "query"),
                    scale: ColorScale::new(Palette::Grey, 0.0, (t5.num_buckets - 1) as f64),
                    colorbar_title: "bucket".into(),
                    caption: format!(
                        "T5 bucket of key − query · {} buckets · max distance {} · {kind}",
                        t5.num_buckets, t5.max_distance
                    ),
                    nouns: ("queries".into(), "keys".into()),
                    rule: None,
                }),
                Rc::new(HeatmapData {
                    matrix: Rc::new(Toeplitz::new(settings.length, move |k| bias.at(k))),
                    x: Axis::indexed("key j", "key"),
                    y: Axis::indexed("query i", "query"),
                    scale: ColorScale::symmetric(settings.palette, top),
                    colorbar_title: "bias".into(),
                    caption: format!(
                        "T5 bias (untrained: one N(0, 1) value per bucket, seed {}) · {kind}",
                        settings.learned_seed
                    ),
                    nouns: ("queries".into(), "keys".into()),
                    rule: None,
                }),
            )
        })
    };
    let t5 = s.t5;
    let exact = if t5.bidirectional {
        t5.num_buckets / 4
    } else {
        t5.num_buckets / 2
    };
    panel(
        "t5",
        "T5: relative position buckets",
        Scheme::T5,
        "T5 sorts every relative position key − query into a bucket and adds one learned scalar per \
         bucket to the score. Nearby distances get a bucket each; further ones share \
         logarithmically wider buckets; everything beyond max distance shares the last one.",
        html! {
            <>
                <div class="twin twin-2">
                    <MatrixCard id="t5-buckets" data={Shared::new(both.0.clone())}
                        description="Heatmap of the T5 bucket index for every query and key."
                        file_stem={file_stem(s, "t5_buckets")} height={420.0} />
                    <MatrixCard id="t5-bias" data={Shared::new(both.1.clone())}
                        description="Heatmap of the T5 bias added to the scores: one value per bucket."
                        file_stem={file_stem(s, "t5_bias")} height={420.0} />
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
    let data = {
        let settings = s.clone();
        use_memo((s.t5, s.length, s.trained_length), move |_| {
            t5_distance(&settings)
        })
    };
    let csv: CsvExport = {
        let settings = s.clone();
        Callback::from(move |_| {
            let bias = settings.t5_bias();
            let header = ["relative_position", "bucket", "bias"].map(String::from);
            let l = settings.length as i64 - 1;
            let rows = (-l..=l).map(|r| vec![r as f64, bias.buckets.bucket(r) as f64, bias.at(r)]);
            Ok((
                format!("{}.csv", file_stem(&settings, "t5_buckets")),
                table_csv(&header, rows),
            ))
        })
    };
    panel(
        "t5-distance",
        "T5 buckets by relative position",
        Scheme::T5,
        &t5_lead(s),
        html! {
            <>
                <LineCard id="t5-distance-chart" data={Shared::new(data)}
                    description="T5 bucket index against relative position: a staircase that flattens once every distance shares the last bucket."
                    file_stem={file_stem(s, "t5_buckets")} csv={Some(csv)} />
                <div class="explain">
                    <p>{ format!("Past the max distance ({}) — and so past any trained length \
                        beyond it — every distance lands in the same last bucket: the model can \
                        tell \"far\" but no longer \"how far\", so longer inputs cost it no new \
                        parameters but also give it no new information.", s.t5.max_distance) }</p>
                </div>
            </>
        },
    )
}

fn t5_distance(s: &Settings) -> LineChartData {
    let t5 = s.t5;
    let l = s.length as i64 - 1;
    let step = ((2 * l + 1) as usize).div_ceil(4000).max(1);
    // A staircase: each bucket change becomes a vertical step.
    let mut points = Vec::new();
    let mut previous: Option<usize> = None;
    for r in (-l..=l).step_by(step) {
        let b = t5.bucket(r);
        if let Some(p) = previous {
            if p != b {
                points.push((r as f64, p as f64));
            }
        }
        points.push((r as f64, b as f64));
        previous = Some(b);
    }
    let mut guides = vec![Guide {
        value: -(t5.max_distance as f64),
        label: format!("−{}", t5.max_distance),
        vertical: true,
    }];
    if t5.bidirectional {
        guides.push(Guide {
            value: t5.max_distance as f64,
            label: format!("+{}", t5.max_distance),
            vertical: true,
        });
    }
    LineChartData {
        series: vec![Series {
            width: 2.0,
            ..Series::line("bucket", SERIES_COLORS[0], Points::Pairs(points))
        }],
        x: LineAxis::linear(
            "relative position key − query",
            -(l.max(1) as f64),
            l.max(1) as f64,
        ),
        y: LineAxis::linear("bucket", -0.5, t5.num_buckets as f64 - 0.5),
        caption: format!(
            "T5 buckets · {} buckets · max distance {} · {}",
            t5.num_buckets,
            t5.max_distance,
            if t5.bidirectional {
                "bidirectional"
            } else {
                "causal"
            }
        ),
        guides,
    }
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
