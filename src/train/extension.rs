//! What the Train view shows of context extension, built from what the worker reported: the
//! runs before and after extension, each method's needle-in-a-haystack heatmap (depth × test
//! length), the fine-tuning curves at the target length, the link to the RoPE view that draws a
//! method's frequencies, and every sentence about which method wins, computed from the run's
//! numbers. Pure: the view only renders these.

use std::rc::Rc;

use super::experiment::{method_rope, Cell, Status, LENGTH_FACTORS};
use super::figures::{label, length_headings, standard_error, style};
use super::protocol::{Progress, RunView};
use super::settings::{Method, TrainScheme, TrainSettings};
use crate::export::format_value;
use crate::format::{plain, significant};
use crate::math::matrix::Dense;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{Guide, LineAxis, LineChartData, Points, Series};
use crate::schemes::kind::Scheme;

/// The experiment as trained, without its extension runs (the main charts and table).
pub fn trained_only(p: &Progress) -> Progress {
    Progress {
        runs: p
            .runs
            .iter()
            .filter(|r| r.scheme.extended.is_none())
            .cloned()
            .collect(),
        ..p.clone()
    }
}

/// The extension runs, zero-shot (`tuned` false) or fine-tuned, in the order of the methods.
pub fn extension_runs(p: &Progress, tuned: bool) -> Vec<&RunView> {
    p.runs
        .iter()
        .filter(|r| r.scheme.extended.is_some_and(|e| e.tuned == tuned))
        .collect()
}

/// The trained runs a zero-shot extension is compared with: every scheme but RoPE itself (its
/// extrapolation is the first method's row) and the learned table, which has no row past L.
pub fn baselines(p: &Progress) -> Vec<&RunView> {
    p.runs
        .iter()
        .filter(|r| {
            r.scheme.extended.is_none()
                && r.scheme != TrainScheme::of(Scheme::Rope)
                && !(r.scheme == TrainScheme::of(Scheme::None)
                    && p.runs.iter().any(|o| o.scheme == TrainScheme::NONE_CAUSAL)
                    && causal_task(p))
        })
        .collect()
}

/// Whether the experiment's task is a decoder's (then "none" and "none + causal" are one model).
fn causal_task(p: &Progress) -> bool {
    TrainSettings::from_message(&p.settings).task.causal()
}

fn accuracy(r: &RunView, c: &Cell) -> Option<f64> {
    (!matches!(r.status, Status::Diverged { .. }) && c.examples > 0)
        .then(|| c.accuracy())
        .flatten()
}

/// Held-out accuracy at each depth (rows, first = the key at the start of the filler) and test
/// length (columns) of one run, with the count of answers behind each cell; `None` for a task
/// without depths.
pub fn needle_heatmap(r: &RunView, s: &TrainSettings, palette: Palette) -> Option<HeatmapData> {
    let depths = s.task.depths();
    if depths < 2 {
        return None;
    }
    let cols = LENGTH_FACTORS.len();
    let mut data = vec![f64::NAN; depths * cols];
    for (j, c) in r.cells.iter().enumerate().take(cols) {
        if matches!(r.status, Status::Diverged { .. }) || c.missing.is_some() {
            continue;
        }
        for (k, &(right, counted)) in c.depths.iter().enumerate().take(depths) {
            if counted > 0 {
                data[k * cols + j] = 100.0 * right as f64 / counted as f64;
            }
        }
    }
    let counted = r
        .cells
        .first()
        .and_then(|c| c.depths.first())
        .map_or(0, |d| d.1);
    Some(HeatmapData {
        matrix: Rc::new(Dense::new(depths, cols, data)),
        x: Axis::named("test length", "length", length_headings(s)),
        y: Axis::named(
            "depth of the key in the filler",
            "depth",
            (0..depths)
                .map(|k| format!("{} %", significant(100.0 * s.task.depth_share(k), 2)))
                .collect(),
        ),
        // The middle colour at chance: a guess is drawn neutral, not half right.
        scale: ColorScale::centred(palette, 0.0, 100.0 * s.task.chance(), 100.0),
        colorbar_title: "accuracy (%)".into(),
        caption: format!(
            "{}: accuracy by depth and length ({counted} answers per cell; the middle colour is \
             chance, {})",
            label(r.scheme),
            format_args!("{} %", significant(100.0 * s.task.chance(), 2))
        ),
        nouns: ("depths".into(), "lengths".into()),
        rule: None,
    })
}

/// Held-out accuracy at the fine-tuning length against the fine-tuning step, one line per
/// method.
pub fn tune_chart(p: &Progress, s: &TrainSettings) -> LineChartData {
    let mut lowest = f64::INFINITY;
    let series: Vec<Series> = extension_runs(p, true)
        .into_iter()
        .map(|r| {
            let (color, marker, stroke) = style(r.scheme);
            let pts: Vec<(f64, f64)> = r
                .curve
                .iter()
                .filter_map(|pt| pt.accuracy.map(|a| (pt.step as f64, 100.0 * a)))
                .collect();
            lowest = pts.iter().map(|p| p.1).fold(lowest, f64::min);
            Series {
                stroke,
                width: 2.0,
                marker,
                ..Series::line(label(r.scheme), color, Points::Pairs(pts))
            }
        })
        .collect();
    // The axis starts 10 points below the lowest point, on a multiple of 10, so that methods
    // that all end near the top are told apart; chance is marked when it is on the axis.
    let from = tune_axis_start(lowest);
    let chance = 100.0 * s.task.chance();
    let below = chance < from;
    // Curves that lie on one another (every method at 100 % from the start) would hide all but
    // the last drawn: the caption names them.
    let hidden: String = crate::plot::lines::coincident(&series)
        .iter()
        .filter_map(|g| {
            let names: Vec<String> = g.iter().map(|&i| series[i].name.clone()).collect();
            crate::format::and_list(&names).map(|l| format!(" · {l} lie on one line"))
        })
        .collect();
    LineChartData {
        x: LineAxis::linear("fine-tuning step", 0.0, s.tune_steps.max(1) as f64),
        y: LineAxis::linear("held-out accuracy (%)", from, 100.0),
        caption: format!(
            "Held-out accuracy at length {} while fine-tuning ({} per point){}{hidden}",
            s.tune_len(),
            super::experiment::CURVE_EXAMPLES,
            if below {
                format!(
                    "; the axis starts at {} % (chance, {} %, is below it)",
                    crate::format::plain(from),
                    significant(chance, 3)
                )
            } else {
                String::new()
            }
        ),
        series,
        guides: if below {
            Vec::new()
        } else {
            vec![Guide {
                value: chance,
                label: format!("chance {} %", significant(chance, 3)),
                vertical: false,
            }]
        },
    }
}

/// Where the fine-tuning chart's accuracy axis starts: 10 points below the lowest point, down
/// to a multiple of 10, and 0 when there are no points yet.
pub fn tune_axis_start(lowest: f64) -> f64 {
    if lowest.is_finite() {
        (((lowest - 10.0) / 10.0).floor() * 10.0).clamp(0.0, 90.0)
    } else {
        0.0
    }
}

/// The RoPE view's address that draws a method's per-pair frequencies for the trained model:
/// one head's width as d_model, θ, the training length as the original, the factor, and the
/// length the model was fine-tuned to. `None` for DroPE (no RoPE left to draw).
pub fn rope_link(s: &TrainSettings, method: Method) -> Option<String> {
    let rope = method_rope(s, method, s.tune_len())?;
    let extension = match method {
        Method::Config => super::experiment::config_settings(s)?.extension,
        _ => method.extension()?,
    };
    let mut q = format!(
        "?scheme=rope&d_model={}&base={}&trained={}&length={}&rope_pairing={}&extension={}",
        rope.d_model,
        plain(rope.base),
        s.train_len,
        s.tune_len(),
        rope.pairing.id(),
        extension.id()
    );
    if method != Method::Extrapolate {
        q.push_str(&format!("&factor={}", plain(rope.scaling.factor())));
    }
    if let Some((_, _)) = rope.scaling.longrope_factors() {
        if let crate::math::rope::RopeScaling::LongRope { short, long, .. } = &rope.scaling {
            let list = |xs: &[f64]| {
                xs.iter()
                    .map(|x| format_value(*x))
                    .collect::<Vec<_>>()
                    .join(",")
            };
            q.push_str(&format!(
                "&short_factor={}&long_factor={}",
                list(short),
                list(long)
            ));
        }
    }
    Some(q)
}

/// Mean accuracy over the test lengths past the training length (the cells with a number).
fn mean_past(r: &RunView) -> Option<(f64, usize)> {
    let cells: Vec<(f64, usize)> = r
        .cells
        .iter()
        .skip(1)
        .filter_map(|c| accuracy(r, c).map(|a| (a, c.counted)))
        .collect();
    (!cells.is_empty()).then(|| {
        let n: usize = cells.iter().map(|c| c.1).sum();
        (
            cells.iter().map(|c| c.0).sum::<f64>() / cells.len() as f64,
            n,
        )
    })
}

/// Accuracy at test length `len`, when it is one of the tested lengths.
fn at_length(r: &RunView, s: &TrainSettings, len: usize) -> Option<f64> {
    let i = LENGTH_FACTORS.iter().position(|f| f * s.train_len == len)?;
    accuracy(r, r.cells.get(i)?)
}

/// Accuracy at the longest test length, with the answers counted.
fn at_longest(r: &RunView) -> Option<(f64, usize)> {
    let c = r.cells.last()?;
    accuracy(r, c).map(|a| (a, c.counted))
}

/// How two accuracies compare, given the answers behind each: "better" or "worse" when they
/// differ by more than twice the standard error of the difference, else "level".
fn compare(a: (f64, usize), b: (f64, usize)) -> std::cmp::Ordering {
    let (ea, eb) = (standard_error(a.0, a.1), standard_error(b.0, b.1));
    let noise = 2.0 * (ea * ea + eb * eb).sqrt().max(1e-9);
    if a.0 - b.0 > noise {
        std::cmp::Ordering::Greater
    } else if b.0 - a.0 > noise {
        std::cmp::Ordering::Less
    } else {
        std::cmp::Ordering::Equal
    }
}

fn percent(a: f64) -> String {
    format!("{} %", significant(100.0 * a, 3))
}

fn find(p: &Progress, method: Method, tuned: bool) -> Option<&RunView> {
    p.runs
        .iter()
        .find(|r| r.scheme == TrainScheme::extended(method, tuned))
}

/// The first step at which a tuned run's curve reaches `level`.
fn steps_to(r: &RunView, level: f64) -> Option<usize> {
    r.curve
        .iter()
        .find(|pt| pt.accuracy.is_some_and(|a| a >= level))
        .map(|pt| pt.step)
}

/// One claim from the papers, tested on this run: what it says, what the numbers here say, and
/// whether they bear it out.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub claim: &'static str,
    pub here: String,
    /// `Some(true)`: reproduced; `Some(false)`: not; `None`: the run cannot tell (a method
    /// missing, a run diverged, or no difference beyond sampling noise where one was claimed).
    pub holds: Option<bool>,
}

/// What the run says about each paper's claim, every sentence computed from its numbers (the
/// summary over the lengths past training is the mean accuracy over them; "better" means by
/// more than twice the standard error of the difference).
pub fn findings(p: &Progress, s: &TrainSettings) -> Vec<Finding> {
    let mut out = Vec::new();
    let done = |r: &&RunView| r.status == Status::Done;
    let zero = |m| find(p, m, false).filter(done);
    let tuned = |m| find(p, m, true).filter(done);
    let longest = LENGTH_FACTORS[LENGTH_FACTORS.len() - 1] * s.train_len;

    // Extrapolation fails past L; interpolation (PI) fixes it, after a short fine-tune.
    if let (Some(x), Some(pi)) = (tuned(Method::Extrapolate), tuned(Method::Pi)) {
        if let (Some(a), Some(b)) = (mean_past(pi), mean_past(x)) {
            let order = compare(a, b);
            out.push(Finding {
                claim: "Position interpolation (Chen et al.): after the same short fine-tune, \
                        interpolated positions beat extrapolated ones.",
                here: format!(
                    "After {} steps at length {}: PI {}, extrapolation {} (mean past length {}).",
                    s.tune_steps,
                    s.tune_len(),
                    percent(a.0),
                    percent(b.0),
                    s.train_len
                ),
                holds: match order {
                    std::cmp::Ordering::Greater => Some(true),
                    std::cmp::Ordering::Less => Some(false),
                    std::cmp::Ordering::Equal => None,
                },
            });
        }
    }
    // NTK-aware and dynamic NTK: some gain with no fine-tuning.
    for m in [Method::Ntk, Method::Dynamic] {
        if let (Some(x), Some(r)) = (zero(Method::Extrapolate), zero(m)) {
            if let (Some(a), Some(b)) = (mean_past(r), mean_past(x)) {
                out.push(Finding {
                    claim: if m == Method::Ntk {
                        "NTK-aware scaling: better than plain RoPE past its length with no \
                         fine-tuning at all."
                    } else {
                        "Dynamic NTK: better than plain RoPE past its length with no \
                         fine-tuning at all."
                    },
                    here: format!(
                        "With no fine-tuning: {} {}, plain RoPE {} (mean past length {}).",
                        m.short(),
                        percent(a.0),
                        percent(b.0),
                        s.train_len
                    ),
                    holds: match compare(a, b) {
                        std::cmp::Ordering::Greater => Some(true),
                        std::cmp::Ordering::Less => Some(false),
                        std::cmp::Ordering::Equal => None,
                    },
                });
            }
        }
    }
    // YaRN: fewer fine-tuning steps than PI.
    if let (Some(y), Some(pi)) = (tuned(Method::Yarn), tuned(Method::Pi)) {
        let last = |r: &RunView| r.curve.iter().rev().find_map(|pt| pt.accuracy);
        if let (Some(fy), Some(fp)) = (last(y), last(pi)) {
            // The level both reach: one point below the lower of the two final accuracies; a
            // level within reach of guessing says nothing about speed. "Within reach": below
            // halfway from chance to every answer right (twice chance was out of reach of a
            // task with 50 % chance, even at 100 %).
            let level = fy.min(fp) - 0.01;
            let chance = s.task.chance();
            let learned = level > (1.0 + chance) / 2.0;
            let (sy, sp) = if learned {
                (steps_to(y, level), steps_to(pi, level))
            } else {
                (None, None)
            };
            let first = |r: &RunView| {
                r.curve
                    .iter()
                    .find(|pt| pt.accuracy.is_some())
                    .map(|pt| pt.step)
            };
            // Above the level at the curve's first point: that is where it started, not a
            // number of steps it took. A head start with no fine-tuning at all when the untuned
            // YaRN is there too; else it got there before the first measurement.
            let head_start = sy.is_some() && sy == first(y);
            let untuned = zero(Method::Yarn).and_then(|z| at_length(z, s, s.tune_len()));
            let here = match (sy, sp) {
                (Some(a), Some(b)) if head_start => format!(
                    "At length {}, YaRN is already at {} or above at its curve's first point \
                     (step {a}), before fine-tuning could do much; PI gets there at step {b}. {}",
                    s.tune_len(),
                    percent(level),
                    match untuned {
                        Some(u) if u >= level => format!(
                            "Untuned, YaRN already scores {} at length {}: a head start with no \
                             fine-tuning, not faster fine-tuning.",
                            percent(u),
                            s.tune_len()
                        ),
                        _ => "It got there before the first measurement, so the run cannot time \
                              it."
                        .to_string(),
                    }
                ),
                (Some(a), Some(b)) => format!(
                    "Steps to reach {} at length {}: YaRN {a}, PI {b}.",
                    percent(level),
                    s.tune_len()
                ),
                _ if !learned => {
                    let near: Vec<&str> = [("YaRN", fy), ("PI", fp)]
                        .into_iter()
                        .filter(|(_, f)| f - 0.01 <= (1.0 + chance) / 2.0)
                        .map(|(name, _)| name)
                        .collect();
                    format!(
                        "Final accuracy at length {}: YaRN {}, PI {}: {} too close to the {} \
                         chance to time.",
                        s.tune_len(),
                        percent(fy),
                        percent(fp),
                        crate::format::and_list(&near).unwrap_or_default(),
                        percent(chance)
                    )
                }
                _ => "The curves do not both reach a common level.".into(),
            };
            out.push(Finding {
                claim: "YaRN (Peng et al.): reaches a given accuracy in fewer fine-tuning steps \
                        than PI (about 2.5× fewer at their scale).",
                here,
                holds: match (sy, sp) {
                    _ if head_start => None,
                    (Some(a), Some(b)) if a < b => Some(true),
                    (Some(a), Some(b)) if a > b => Some(false),
                    _ => None,
                },
            });
        }
    }
    // DroPE: dropping RoPE and recalibrating at L beats the RoPE-scaling methods at long range.
    if let Some(d) = tuned(Method::Drope) {
        let rivals: Vec<(&RunView, (f64, usize))> = [Method::Pi, Method::Ntk, Method::Yarn]
            .into_iter()
            .filter_map(tuned)
            .filter_map(|r| at_longest(r).map(|a| (r, a)))
            .collect();
        let best = rivals
            .iter()
            .copied()
            .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0));
        if let (Some(a), Some((r, b))) = (at_longest(d), best) {
            // A recalibrated model that is at chance at its own length has no rule to carry
            // further: beating rivals that fall below chance is not beating them at anything.
            let idle = super::figures::learned_nothing(s, d);
            let mut here = format!(
                "At length {longest}: DroPE {} (recalibrated at length {}), best of the three \
                 {} {} (fine-tuned at length {}).",
                percent(a.0),
                s.train_len,
                label(r.scheme),
                percent(b.0),
                s.tune_len()
            );
            if idle {
                let own = d.cells.first().and_then(|c| accuracy(d, c)).unwrap_or(0.0);
                here.push_str(&format!(
                    " But DroPE gets only {} right at its own length {}, within sampling noise \
                     of the {} chance: it never learned the task there, so this run cannot \
                     say it beats them.",
                    percent(own),
                    s.train_len,
                    percent(s.task.chance())
                ));
            }
            out.push(Finding {
                claim: "DroPE: a model with RoPE removed and recalibrated at its training \
                        length beats PI, NTK and YaRN at long range, without long training data.",
                here,
                holds: match compare(a, b) {
                    _ if idle => None,
                    std::cmp::Ordering::Greater => Some(true),
                    std::cmp::Ordering::Less => Some(false),
                    std::cmp::Ordering::Equal => None,
                },
            });
        }
    }
    out
}

/// The finished runs with their accuracy at the longest length.
fn scored(runs: Vec<&RunView>) -> Vec<(&RunView, (f64, usize))> {
    runs.into_iter()
        .filter(|r| r.status == Status::Done)
        .filter_map(|r| at_longest(r).map(|a| (r, a)))
        .collect()
}

/// "best X (a %)", and the runs level with it within sampling noise, named beside it: a
/// difference smaller than twice its standard error does not make a winner.
fn best_of(runs: &[(&RunView, (f64, usize))]) -> Option<String> {
    let (top, a) = runs
        .iter()
        .copied()
        .max_by(|x, y| x.1 .0.total_cmp(&y.1 .0))?;
    let level: Vec<String> = runs
        .iter()
        .filter(|(r, b)| r.scheme != top.scheme && compare(a, *b) == std::cmp::Ordering::Equal)
        .map(|(r, b)| format!("{} ({})", label(r.scheme), percent(b.0)))
        .collect();
    let mut text = format!("best {} ({})", label(top.scheme), percent(a.0));
    if !level.is_empty() {
        text.push_str(&format!(
            ", level within sampling noise with {}",
            level.join(", ")
        ));
    }
    Some(text)
}

/// The zero-shot ranking at the longest length, in one sentence: the best and worst method and
/// plain extrapolation, beside the best trained baseline. A "best" names every run level with
/// it within sampling noise, and a baseline that beats every extension is said to.
pub fn summary(p: &Progress, s: &TrainSettings) -> Option<String> {
    let longest = LENGTH_FACTORS[LENGTH_FACTORS.len() - 1] * s.train_len;
    let mut zero = scored(extension_runs(p, false));
    if zero.is_empty() {
        return None;
    }
    zero.sort_by(|a, b| b.1 .0.total_cmp(&a.1 .0));
    let (best, worst) = (zero[0], zero[zero.len() - 1]);
    let mut text = if best.1 .0 == worst.1 .0 {
        format!(
            "With no fine-tuning, at length {longest}: every method scores {}.",
            percent(best.1 .0)
        )
    } else {
        format!(
            "With no fine-tuning, at length {longest}: {}; worst {} ({}).",
            best_of(&zero).unwrap_or_default(),
            label(worst.0.scheme),
            percent(worst.1 .0)
        )
    };
    let tuned = scored(extension_runs(p, true));
    let base = scored(baselines(p))
        .into_iter()
        .max_by(|a, b| a.1 .0.total_cmp(&b.1 .0));
    if let Some((r, a)) = base {
        let beats_all = zero
            .iter()
            .chain(&tuned)
            .all(|(_, b)| compare(a, *b) == std::cmp::Ordering::Greater);
        text.push_str(&format!(
            " The best scheme trained without RoPE reaches {} ({}){}.",
            percent(a.0),
            label(r.scheme),
            if beats_all {
                ", more than every RoPE extension here, fine-tuned or not"
            } else {
                ""
            }
        ));
    }
    if let Some(b) = best_of(&tuned) {
        text.push_str(&format!(" After {} fine-tuning steps: {b}.", s.tune_steps));
    }
    Some(text)
}

/// Every extension cell as CSV: method, fine-tuned or not, test length, depth, accuracy and
/// the answers counted (depth "all" for the whole cell).
pub fn extension_csv(p: &Progress, s: &TrainSettings) -> String {
    let mut out = String::from(
        "run,method,tuned,factor,tune_length,test_length,depth,accuracy,correct,counted\n",
    );
    for r in &p.runs {
        let Some(e) = r.scheme.extended else { continue };
        for c in &r.cells {
            let mut rows = vec![("all".to_string(), c.correct, c.counted)];
            for (k, &(right, counted)) in c.depths.iter().enumerate() {
                rows.push((format_value(s.task.depth_share(k)), right, counted));
            }
            for (depth, right, counted) in rows {
                let acc = if counted > 0 && accuracy(r, c).is_some() {
                    format_value(right as f64 / counted as f64)
                } else {
                    "NaN".into()
                };
                out.push_str(&format!(
                    "{},{},{},{},{},{},{depth},{acc},{right},{counted}\n",
                    r.scheme.id(),
                    e.method.id(),
                    e.tuned,
                    format_value(s.factor),
                    s.tune_len(),
                    c.length,
                ));
            }
        }
    }
    out
}
