//! What the Train view draws, built from what the worker reported: the loss and accuracy
//! curves, the held-out table (as a heatmap and as CSV), attention maps, and the trained
//! learned table beside the sinusoidal one with their position × position similarities.
//! Pure: the view only renders these.

use std::rc::Rc;

use super::experiment::{Cell, Status, LENGTH_FACTORS};
use super::protocol::{Progress, RunView};
use super::settings::{TrainScheme, TrainSettings};
use crate::export::format_value;
use crate::format::{group_thousands, significant};
use crate::math::matrix::Dense;
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::colormap::{ColorScale, Palette};
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::plot::lines::{
    Guide, LineAxis, LineChartData, Marker, Points, Series, Stroke, SERIES_COLORS,
};
use crate::schemes::Registered;

/// A scheme's name in the Train view's charts and tables: the app's short name, and "none +
/// causal mask" for the masked baseline.
pub fn label(scheme: TrainScheme) -> &'static str {
    if let Some(e) = scheme.extended {
        e.method.label(e.tuned)
    } else if scheme.masked {
        "none + causal mask"
    } else {
        scheme.scheme.short()
    }
}

/// The colour, marker and dash of a scheme, the same in every chart. The seven colours go to
/// the first seven schemes (baselines dashed); the ones after them take the colours again,
/// from the first scheme with a position, dotted and with the next marker.
pub fn style(scheme: TrainScheme) -> (plotters::style::RGBColor, Marker, Stroke) {
    // An extension method: a colour and marker of its own, in the order of the methods.
    if let Some(e) = scheme.extended {
        let i = super::settings::Method::ALL
            .iter()
            .position(|m| *m == e.method)
            .unwrap_or(super::settings::Method::ALL.len());
        let stroke = if e.tuned {
            Stroke::Solid
        } else {
            Stroke::Dashed
        };
        return (
            SERIES_COLORS[i % SERIES_COLORS.len()],
            Marker::SHAPES[i % Marker::SHAPES.len()],
            stroke,
        );
    }
    let all = TrainScheme::all();
    let i = all.iter().position(|x| *x == scheme).unwrap_or(0);
    let n = SERIES_COLORS.len();
    let baselines = all.iter().filter(|s| s.is_baseline()).count();
    let (colour, round, stroke) = if i < n {
        let stroke = if scheme.is_baseline() {
            Stroke::Dashed
        } else {
            Stroke::Solid
        };
        (i, 0, stroke)
    } else {
        let again = i - n;
        (
            baselines + again % (n - baselines),
            1 + again / (n - baselines),
            Stroke::Dotted,
        )
    };
    let marker = Marker::SHAPES[(i + round) % Marker::SHAPES.len()];
    (SERIES_COLORS[colour % n], marker, stroke)
}

fn series(r: &RunView, points: Vec<(f64, f64)>, markers: bool) -> Series {
    let (color, marker, stroke) = style(r.scheme);
    Series {
        stroke,
        width: 2.0,
        marker: if markers { marker } else { Marker::None },
        ..Series::line(label(r.scheme), color, Points::Pairs(points))
    }
}

/// Training loss per step, one line per scheme, on a log axis (cross-entropy in nats).
pub fn loss_chart(p: &Progress, s: &TrainSettings) -> LineChartData {
    let mut lo: f64 = 1.0;
    let mut hi: f64 = (s.task.vocab().len() as f64).ln();
    let series = p
        .runs
        .iter()
        .map(|r| {
            let pts: Vec<(f64, f64)> = r
                .curve
                .iter()
                .map(|pt| (pt.step as f64, pt.loss.max(1e-4)))
                .collect();
            for (_, y) in &pts {
                lo = lo.min(*y);
                hi = hi.max(*y);
            }
            series(r, pts, false)
        })
        .collect();
    LineChartData {
        series,
        x: LineAxis::linear("training step", 0.0, s.steps as f64),
        y: LineAxis::log("training loss (cross-entropy, nats)", lo, hi),
        caption: format!("Training loss, {}", s.task.label().to_lowercase()),
        guides: vec![Guide {
            value: (s.task.vocab().len() as f64).ln(),
            label: format!("uniform guess, ln {}", s.task.vocab().len()),
            vertical: false,
        }],
    }
}

/// Held-out accuracy at the training length while training, with chance marked.
pub fn accuracy_chart(p: &Progress, s: &TrainSettings) -> LineChartData {
    let series = p
        .runs
        .iter()
        .map(|r| {
            let pts = r
                .curve
                .iter()
                .filter_map(|pt| pt.accuracy.map(|a| (pt.step as f64, 100.0 * a)))
                .collect();
            series(r, pts, true)
        })
        .collect();
    LineChartData {
        series,
        x: LineAxis::linear("training step", 0.0, s.steps as f64),
        y: LineAxis::linear("held-out accuracy (%)", 0.0, 100.0),
        caption: format!(
            "Held-out accuracy at length {} while training ({} per point)",
            s.train_len,
            super::experiment::CURVE_EXAMPLES
        ),
        guides: vec![Guide {
            value: 100.0 * s.task.chance(),
            label: format!("chance {} %", significant(100.0 * s.task.chance(), 3)),
            vertical: false,
        }],
    }
}

/// The text of one results cell: "99.7 %", "no embedding exists", "diverged at step 57",
/// "…" while it is being measured.
pub fn cell_text(r: &RunView, c: &Cell) -> String {
    if let Status::Diverged { step } = r.status {
        return format!("diverged at step {step}");
    }
    if let Some(m) = &c.missing {
        return if m.contains("no embedding exists") {
            "no embedding exists".into()
        } else {
            m.clone()
        };
    }
    match c.accuracy() {
        Some(a) if c.examples > 0 => format!("{} %", significant(100.0 * a, 3)),
        _ => "…".into(),
    }
}

/// "1,000 sentences" / "640 of 1,000 sequences"; with the answers the share is over when a
/// sequence holds more than one ("400 sequences, 800 answers": a passkey of two digits).
pub fn cell_count(s: &TrainSettings, c: &Cell) -> String {
    let noun = if s.task == super::tasks::Task::Agent {
        "sentences"
    } else {
        "sequences"
    };
    let mut text = if c.examples >= super::experiment::heldout_size(s.task) {
        format!("{} {noun}", group_thousands(c.examples as u64))
    } else {
        format!(
            "{} of {} {noun}",
            group_thousands(c.examples as u64),
            group_thousands(super::experiment::heldout_size(s.task) as u64)
        )
    };
    if c.counted > 0 && c.counted != c.examples {
        text.push_str(&format!(", {} answers", group_thousands(c.counted as u64)));
    }
    text
}

/// Whether a cell's accuracy lies below the task's chance level by more than sampling noise
/// explains: three standard errors of a binomial count at chance.
pub fn is_below_chance(chance: f64, c: &Cell) -> bool {
    let Some(a) = c.accuracy() else {
        return false;
    };
    c.counted > 0 && a < chance - 3.0 * standard_error(chance, c.counted)
}

/// The standard error of a share `p` measured on `n` answers, √(p(1 − p)/n): the unit every
/// sentence about noise in the Train view counts in (at least one answer is assumed).
pub fn standard_error(p: f64, n: usize) -> f64 {
    (p * (1.0 - p) / n.max(1) as f64).sqrt()
}

/// For a result below chance, what the run's own numbers say about it: not a guess (a guess
/// scores chance), but a consistent answer from a rule that is wrong at this length, and for
/// the agent task how often that answer was the other noun. `None` for other cells.
pub fn below_chance(s: &TrainSettings, r: &RunView, c: &Cell) -> Option<String> {
    if matches!(r.status, Status::Diverged { .. }) || c.examples == 0 {
        return None;
    }
    let chance = s.task.chance();
    if !is_below_chance(chance, c) {
        return None;
    }
    let accuracy = c.accuracy()?;
    let percent = |v: f64| format!("{} %", significant(100.0 * v, 3));
    let factor = c.length / s.train_len.max(1);
    let at = if factor == 1 {
        format!("length {} (trained)", c.length)
    } else {
        format!("length {} ({factor}×)", c.length)
    };
    let guess = match s.task {
        super::tasks::Task::Agent => "picking one of the sentence's two nouns at random",
        _ => "a guess among the ten letters",
    };
    // Far below (at most half of chance) the model is consistently wrong; just below, it
    // leans that way.
    let strong = accuracy <= chance / 2.0;
    let noise = 3.0 * standard_error(chance, c.counted);
    let mut text = format!(
        "{} at {at}: {} right, below the {} that {guess} gets. {}",
        capitalised(label(r.scheme)),
        percent(accuracy),
        percent(chance),
        if strong {
            "That is not guessing: a guess scores about chance.".to_string()
        } else {
            format!(
                "That is more than sampling noise: a guess would land within {} points of \
                 chance.",
                significant(100.0 * noise, 2)
            )
        },
    );
    // A run that never learned had no right rule to lose.
    let verdict = match (learned_nothing(s, r), strong) {
        (true, _) => {
            "it never learned the task at its own length (above), and here it leans \
                      towards the wrong answer."
        }
        (false, true) => "it answers consistently, with a rule that is wrong at this length.",
        (false, false) => "it leans towards a rule that is wrong at this length.",
    };
    match s.task.rival_name() {
        Some(rival) => {
            let share = c.rival as f64 / c.counted.max(1) as f64;
            text.push_str(&format!(
                " It names {rival} in {} of the {} {}: {verdict}",
                percent(share),
                group_thousands(c.counted as u64),
                if c.counted == 1 { "answer" } else { "answers" },
            ));
        }
        None => text.push_str(&format!(" The model {}", verdict.trim_start_matches("it "))),
    }
    Some(text)
}

/// "sinusoidal" → "Sinusoidal". The labels are ASCII: the ASCII upper case keeps the Unicode
/// case tables (about 12 KB of the app module) out of the build.
fn capitalised(text: &str) -> String {
    let mut text = text.to_string();
    if let Some(first) = text.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    text
}

/// Every result below chance in the held-out table, explained (see [`below_chance`]).
pub fn below_chance_notes(p: &Progress, s: &TrainSettings) -> Vec<String> {
    // On a causal task "none" already has the mask: its row and the masked one are one model.
    let twins = s.task.causal()
        && p.runs
            .iter()
            .any(|r| r.scheme == TrainScheme::of(crate::schemes::kind::Scheme::None))
        && p.runs.iter().any(|r| r.scheme == TrainScheme::NONE_CAUSAL);
    let same = twins.then(|| {
        "On this task every model is a decoder (each token sees only those before it), so “none” \
         and “none + causal mask” are the same model trained on the same batches: their rows \
         match."
            .to_string()
    });
    same.into_iter()
        .chain(p.runs.iter().flat_map(|r| {
            never_learned(s, r)
                .into_iter()
                .chain(r.cells.iter().filter_map(move |c| below_chance(s, r, c)))
        }))
        .collect()
}

/// Whether a run never learned the task: at its own training length it does not beat chance by
/// more than twice the standard error (the claims box's rule).
pub fn learned_nothing(s: &TrainSettings, r: &RunView) -> bool {
    let Some(c) = r.cells.first().filter(|c| c.examples > 0) else {
        return false;
    };
    let Some(a) = c.accuracy() else {
        return false;
    };
    let chance = s.task.chance();
    r.status == Status::Done && a <= chance + 2.0 * standard_error(chance, c.counted)
}

/// For a run that never learned the task (see [`learned_nothing`]), the sentence that says so,
/// with the numbers, and the reason the scheme's definition gives when it has one: a bias that
/// sees only |i − j| cannot tell direction without a causal mask.
pub fn never_learned(s: &TrainSettings, r: &RunView) -> Option<String> {
    if !learned_nothing(s, r) {
        return None;
    }
    let c = r.cells.first()?;
    let chance = s.task.chance();
    let noise = 2.0 * standard_error(chance, c.counted);
    let percent = |v: f64| format!("{} %", significant(100.0 * v, 3));
    let mut text = format!(
        "{} never learned the task: at its own training length ({}) it gets {} right, within \
         sampling noise of the {} chance (a guess lands within {} points of it).",
        capitalised(label(r.scheme)),
        s.train_len,
        percent(c.accuracy()?),
        percent(chance),
        significant(100.0 * noise, 2)
    );
    let causal = s.task.causal() || r.scheme.masked;
    if let (false, Some(sees)) = (causal, r.scheme.scheme.def().direction_blind()) {
        text.push_str(&format!(
            " Without a causal mask it sees only {sees}: a word as far before another as \
             after it looks the same to it, so it cannot tell which came first{}.",
            if s.task == super::tasks::Task::Agent {
                ", and “dog bites man” reads like “man bites dog”"
            } else {
                ""
            }
        ));
    }
    text.push_str(" Its scores at longer lengths measure no learned rule.");
    Some(text)
}

/// The test lengths, as column headings: "12 (trained)", "24", …
pub fn length_headings(s: &TrainSettings) -> Vec<String> {
    LENGTH_FACTORS
        .iter()
        .map(|f| {
            let l = f * s.train_len;
            if *f == 1 {
                format!("{l} (trained)")
            } else {
                format!("{l} ({f}×)")
            }
        })
        .collect()
}

/// The held-out table as a heatmap (scheme × test length, accuracy in %); cells without a
/// number are drawn as undefined.
pub fn results_heatmap(p: &Progress, s: &TrainSettings, palette: Palette) -> HeatmapData {
    let cols = LENGTH_FACTORS.len();
    let mut data = Vec::with_capacity(p.runs.len() * cols);
    for r in &p.runs {
        for i in 0..cols {
            let v = r
                .cells
                .get(i)
                .filter(|c| c.examples > 0 && !matches!(r.status, Status::Diverged { .. }))
                .and_then(Cell::accuracy)
                .map_or(f64::NAN, |a| 100.0 * a);
            data.push(v);
        }
    }
    HeatmapData {
        matrix: Rc::new(Dense::new(p.runs.len(), cols, data)),
        x: Axis::named("test length", "length", length_headings(s)),
        y: Axis::named(
            "scheme",
            "scheme",
            p.runs.iter().map(|r| label(r.scheme).to_string()).collect(),
        ),
        // The middle colour at chance (50 % on the agent task, 10 % on the letter tasks).
        scale: ColorScale::centred(palette, 0.0, 100.0 * s.task.chance(), 100.0),
        colorbar_title: "held-out accuracy (%)".into(),
        caption: format!(
            "Held-out accuracy by scheme and test length, {} (trained at length {})",
            s.task.label(),
            s.train_len
        ),
        nouns: ("schemes".into(), "lengths".into()),
        rule: None,
    }
}

/// The held-out table as CSV: one row per scheme and test length.
pub fn results_csv(p: &Progress, s: &TrainSettings) -> String {
    let mut out =
        String::from("scheme,test_length,trained_length,accuracy,correct,counted,examples,note\n");
    for r in &p.runs {
        for c in &r.cells {
            let note = match (&r.status, &c.missing) {
                (Status::Diverged { step }, _) => format!("diverged at step {step}"),
                (_, Some(m)) => m.replace(',', ";"),
                _ => String::new(),
            };
            out.push_str(&format!(
                "{},{},{},{},{},{},{},{}\n",
                r.scheme.id(),
                c.length,
                s.train_len,
                c.accuracy().map_or("NaN".into(), format_value),
                c.correct,
                c.counted,
                c.examples,
                note
            ));
        }
    }
    out
}

/// Every point of every curve as CSV.
pub fn curves_csv(p: &Progress) -> String {
    let mut out = String::from("scheme,step,loss,heldout_accuracy\n");
    for r in &p.runs {
        for pt in &r.curve {
            out.push_str(&format!(
                "{},{},{},{}\n",
                r.scheme.id(),
                pt.step,
                format_value(pt.loss),
                pt.accuracy.map_or("NaN".into(), format_value)
            ));
        }
    }
    out
}

/// The attention maps the worker sent for one sequence: `layers × heads` matrices of T × T.
#[derive(Clone, Debug, PartialEq)]
pub struct Maps {
    pub run: usize,
    pub layers: usize,
    pub heads: usize,
    pub tokens: Vec<u32>,
    /// (predicted token, probability) at every position.
    pub predictions: Vec<(u32, f64)>,
    pub weights: Vec<f32>,
}

impl Maps {
    /// Reads the worker's header text and data; `None` if they do not fit together.
    pub fn parse(text: &str, weights: Vec<f32>) -> Option<Maps> {
        let mut l = text.lines();
        let run = l.next()?.parse().ok()?;
        let layers: usize = l.next()?.parse().ok()?;
        let heads: usize = l.next()?.parse().ok()?;
        let t: usize = l.next()?.parse().ok()?;
        let tokens: Vec<u32> = l
            .next()?
            .split(',')
            .map(|x| x.parse().ok())
            .collect::<Option<_>>()?;
        let predictions = l
            .next()
            .unwrap_or("")
            .split(';')
            .filter_map(|p| {
                let (a, b) = p.split_once(',')?;
                Some((a.parse().ok()?, b.parse().ok()?))
            })
            .collect();
        (tokens.len() == t && weights.len() == layers * heads * t * t).then_some(Maps {
            run,
            layers,
            heads,
            tokens,
            predictions,
            weights,
        })
    }

    /// Head `head` of layer `layer` as a query × key heatmap.
    pub fn heatmap(
        &self,
        layer: usize,
        head: usize,
        words: &[String],
        palette: Palette,
        caption: String,
    ) -> HeatmapData {
        let t = self.tokens.len();
        let start = (layer * self.heads + head) * t * t;
        let data = self.weights.get(start..start + t * t).map_or_else(
            || vec![f64::NAN; t * t],
            |w| w.iter().map(|&x| x as f64).collect(),
        );
        HeatmapData {
            matrix: Rc::new(Dense::new(t, t, data)),
            x: Axis::named("key (attended to)", "key", words.to_vec()),
            y: Axis::named("query", "query", words.to_vec()),
            scale: ColorScale::new(palette, 0.0, 1.0),
            colorbar_title: "attention weight".into(),
            caption,
            nouns: ("queries".into(), "keys".into()),
            rule: None,
        }
    }
}

/// A `rows × cols` table (learned or sinusoidal positions) as a heatmap.
pub fn table_heatmap(
    values: &[f64],
    rows: usize,
    cols: usize,
    palette: Palette,
    caption: String,
) -> HeatmapData {
    let magnitude = values.iter().fold(1e-9_f64, |m, v| m.max(v.abs()));
    HeatmapData {
        matrix: Rc::new(Dense::new(rows, cols, values.to_vec())),
        x: Axis::indexed("dimension", "dim"),
        y: Axis::indexed("position", "pos"),
        scale: ColorScale::symmetric(palette, magnitude),
        colorbar_title: "value".into(),
        caption,
        nouns: ("positions".into(), "dimensions".into()),
        rule: None,
    }
}

/// The cosine similarity of every pair of rows (position × position).
pub fn similarity(values: &[f64], rows: usize, cols: usize) -> Vec<f64> {
    let row = |i: usize| &values[i * cols..(i + 1) * cols];
    let norms: Vec<f64> = (0..rows)
        .map(|i| row(i).iter().map(|x| x * x).sum::<f64>().sqrt())
        .collect();
    let mut out = vec![0.0; rows * rows];
    for i in 0..rows {
        for j in 0..rows {
            let dot: f64 = row(i).iter().zip(row(j)).map(|(a, b)| a * b).sum();
            let n = norms[i] * norms[j];
            out[i * rows + j] = if n > 0.0 { dot / n } else { 0.0 };
        }
    }
    out
}

/// A position × position similarity matrix as a heatmap (−1 … 1).
pub fn similarity_heatmap(
    values: &[f64],
    rows: usize,
    palette: Palette,
    caption: String,
) -> HeatmapData {
    HeatmapData {
        matrix: Rc::new(Dense::new(rows, rows, values.to_vec())),
        x: Axis::indexed("position", "pos"),
        y: Axis::indexed("position", "pos"),
        scale: ColorScale::symmetric(palette, 1.0),
        colorbar_title: "cosine similarity".into(),
        caption,
        nouns: ("positions".into(), "positions".into()),
        rule: None,
    }
}

/// The sinusoidal table the experiment's sinusoidal model adds: `train_len × d_model`.
pub fn sinusoidal_table(s: &TrainSettings) -> Vec<f64> {
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    (0..s.train_len)
        .flat_map(|p| (0..s.d_model).map(move |c| (p, c)))
        .map(|(p, c)| e.value(p, c))
        .collect()
}

/// The mean cosine similarity of neighbouring positions minus that of positions far apart:
/// positive when nearby positions have become alike (structure), near 0 for noise.
pub fn neighbour_contrast(sim: &[f64], rows: usize) -> f64 {
    if rows < 4 {
        return 0.0;
    }
    let mean = |pairs: Vec<(usize, usize)>| {
        let n = pairs.len().max(1) as f64;
        pairs.iter().map(|&(i, j)| sim[i * rows + j]).sum::<f64>() / n
    };
    let near = mean((0..rows - 1).map(|i| (i, i + 1)).collect());
    let far = mean(
        (0..rows)
            .flat_map(|i| (0..rows).map(move |j| (i, j)))
            .filter(|(i, j)| i.abs_diff(*j) >= rows / 2)
            .collect(),
    );
    near - far
}

/// One scheme's answers to "the dog bites the man ?" and "the man bites the dog ?".
#[derive(Clone, Debug, PartialEq)]
pub struct DogAndManRow {
    pub scheme: TrainScheme,
    /// The answer word and its probability, per sentence.
    pub answers: [Option<(String, f64)>; 2],
    pub verdict: &'static str,
}

/// The rows of the dog/man table: each answer, and whether the model tells them apart.
pub fn dog_and_man_rows(runs: &[RunView]) -> Vec<DogAndManRow> {
    use super::tasks::Task;
    runs.iter()
        .map(|r| {
            let answer = |i: usize| {
                r.dog_and_man
                    .get(i)
                    .map(|(t, p)| (Task::Agent.word(*t).to_string(), *p))
            };
            let answers = [answer(0), answer(1)];
            let verdict = match &answers {
                [Some((a, _)), Some((b, _))] if a == "dog" && b == "man" => {
                    "tells them apart, both right"
                }
                [Some((a, _)), Some((b, _))] if a != b => "tells them apart, but answers wrongly",
                [Some(_), Some(_)] => "same answer for both: cannot tell them apart",
                _ => "—",
            };
            DogAndManRow {
                scheme: r.scheme,
                answers,
                verdict,
            }
        })
        .collect()
}

/// The dog/man table as CSV.
pub fn dog_and_man_csv(runs: &[RunView]) -> String {
    let mut out = String::from(
        "scheme,answer_dog_bites_man,probability_dog_bites_man,answer_man_bites_dog,probability_man_bites_dog,verdict\n",
    );
    for r in dog_and_man_rows(runs) {
        let part = |a: &Option<(String, f64)>| match a {
            Some((w, p)) => format!("{w},{}", format_value(*p)),
            None => ",NaN".to_string(),
        };
        out.push_str(&format!(
            "{},{},{},{}\n",
            r.scheme.id(),
            part(&r.answers[0]),
            part(&r.answers[1]),
            r.verdict.replace(',', ";")
        ));
    }
    out
}
