//! What the page and the training worker say to each other, as plain text both ends parse with
//! the same code (and the native tests check): commands one way, progress reports the other.
//! Large arrays (attention maps, weights, the exported file) travel beside the text as typed
//! arrays.

use super::experiment::{owners, Answer, Cell, Experiment, Part, Point, Status};
use super::settings::{TrainScheme, TrainSettings};

/// From the page to the worker.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start a new experiment (replacing any other): the runs of it that the part owns.
    Start(TrainSettings, Part),
    /// Stretch the finished experiment's RoPE model with these settings' extension methods
    /// (the worker starts its part of the experiment anew if it holds another one, or holds
    /// extensions but neither the RoPE run nor its weights, sent beside the command).
    Extend(TrainSettings, Part),
    Pause,
    Resume,
    /// Forget the experiment.
    Stop,
    /// Attention maps and predictions of scheme `run` on `tokens`.
    Maps {
        run: usize,
        tokens: Vec<u32>,
    },
    /// One trained tensor of scheme `run`.
    Tensor {
        run: usize,
        name: String,
    },
    /// The `.safetensors` file of scheme `run`.
    Export {
        run: usize,
    },
    /// Benchmark: time `steps` optimiser steps of the first scheme of these settings (after a
    /// warm-up), on batches as training draws them or of `fixed` tokens each.
    Bench {
        settings: TrainSettings,
        steps: usize,
        fixed: Option<usize>,
    },
}

impl Command {
    pub fn to_text(&self) -> String {
        match self {
            Command::Start(s, p) => format!("start {}\n{}", p.id(), s.to_message()),
            Command::Extend(s, p) => format!("extend {}\n{}", p.id(), s.to_message()),
            Command::Pause => "pause".into(),
            Command::Resume => "resume".into(),
            Command::Stop => "stop".into(),
            Command::Maps { run, tokens } => format!("maps\n{run}\n{}", join(tokens)),
            Command::Tensor { run, name } => format!("tensor\n{run}\n{name}"),
            Command::Export { run } => format!("export\n{run}"),
            Command::Bench {
                settings,
                steps,
                fixed,
            } => format!(
                "bench\n{steps}\n{}\n{}",
                fixed.map_or("-".to_string(), |f| f.to_string()),
                settings.to_message()
            ),
        }
    }

    /// Reads a command; anything malformed is `None` (the worker ignores it).
    pub fn from_text(text: &str) -> Option<Command> {
        let mut lines = text.lines();
        let (kind, part) = {
            let first = lines.next()?;
            let (kind, part) = first.split_once(' ').unwrap_or((first, ""));
            // No part: the whole experiment.
            (kind, Part::from_id(part).unwrap_or(Part::WHOLE))
        };
        let mut next_usize = || lines.next()?.trim().parse::<usize>().ok();
        Some(match kind {
            "start" => Command::Start(
                TrainSettings::from_message(text.split_once('\n').map_or("", |(_, rest)| rest)),
                part,
            ),
            "extend" => Command::Extend(
                TrainSettings::from_message(text.split_once('\n').map_or("", |(_, rest)| rest)),
                part,
            ),
            "pause" => Command::Pause,
            "resume" => Command::Resume,
            "stop" => Command::Stop,
            "maps" => {
                let run = next_usize()?;
                let tokens = text
                    .lines()
                    .nth(2)
                    .unwrap_or("")
                    .split(',')
                    .filter(|t| !t.is_empty())
                    .map(|t| t.trim().parse::<u32>().ok())
                    .collect::<Option<Vec<_>>>()?;
                (!tokens.is_empty()).then_some(())?;
                Command::Maps { run, tokens }
            }
            "tensor" => {
                let run = next_usize()?;
                let name = text.lines().nth(2)?.to_string();
                Command::Tensor { run, name }
            }
            "export" => Command::Export { run: next_usize()? },
            "bench" => {
                let mut l = text.lines().skip(1);
                let steps = l.next()?.parse::<usize>().ok()?.clamp(1, 10_000);
                let fixed = l.next()?.parse::<usize>().ok().map(|f| f.clamp(4, 512));
                let settings = TrainSettings::from_message(l.next().unwrap_or(""));
                Command::Bench {
                    settings,
                    steps,
                    fixed,
                }
            }
            _ => return None,
        })
    }
}

fn join<T: ToString>(xs: &[T]) -> String {
    xs.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Where the experiment stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Phase {
    #[default]
    Idle,
    Training,
    Paused,
    Done,
}

impl Phase {
    fn id(self) -> &'static str {
        match self {
            Phase::Idle => "idle",
            Phase::Training => "training",
            Phase::Paused => "paused",
            Phase::Done => "done",
        }
    }
    fn from_id(s: &str) -> Option<Phase> {
        [Phase::Idle, Phase::Training, Phase::Paused, Phase::Done]
            .into_iter()
            .find(|p| p.id() == s)
    }
}

/// What the page knows about one scheme's run.
#[derive(Clone, Debug, PartialEq)]
pub struct RunView {
    pub scheme: TrainScheme,
    pub status: Status,
    pub step: usize,
    pub curve: Vec<Point>,
    pub cells: Vec<Cell>,
    /// Answers to "the dog bites the man ?" and "the man bites the dog ?" (agent task, once
    /// trained).
    pub dog_and_man: Vec<Answer>,
}

impl RunView {
    /// A run of `scheme` before its first report: training, at step 0, nothing measured yet.
    pub fn new(scheme: TrainScheme) -> RunView {
        RunView {
            scheme,
            status: Status::Training,
            step: 0,
            curve: Vec::new(),
            cells: Vec::new(),
            dog_and_man: Vec::new(),
        }
    }
}

/// What the page knows about the experiment: rebuilt from reports.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Progress {
    /// The settings message of the experiment these runs belong to.
    pub settings: String,
    pub phase: Phase,
    pub runs: Vec<RunView>,
    /// Training time so far (paused time not counted), milliseconds.
    pub elapsed_ms: f64,
    /// The part of `elapsed_ms` spent before this command: the training an Extend run
    /// continues from (0 for a run that started from scratch).
    pub earlier_ms: f64,
    /// Work done and to do, in token passes (a training token counts three: forward and
    /// backward).
    pub work_done: f64,
    pub work_total: f64,
    /// Training steps taken over all schemes.
    pub steps_done: usize,
}

impl Progress {
    /// Before a run: one empty run of each chosen scheme (the Train view's empty charts).
    pub fn empty(s: &crate::train::settings::TrainSettings) -> Progress {
        Progress {
            runs: s
                .schemes
                .iter()
                .map(|&scheme| RunView::new(scheme))
                .collect(),
            ..Progress::default()
        }
    }

    /// Optimiser steps per second over all schemes.
    pub fn steps_per_second(&self) -> Option<f64> {
        (self.elapsed_ms > 0.0 && self.steps_done > 0)
            .then(|| self.steps_done as f64 / (self.elapsed_ms / 1000.0))
    }

    /// Seconds left at the pace so far.
    pub fn seconds_left(&self) -> Option<f64> {
        (self.work_done > 0.0 && self.elapsed_ms > 0.0).then(|| {
            (self.work_total - self.work_done).max(0.0) * self.elapsed_ms / self.work_done / 1000.0
        })
    }

    /// Applies a report, appending new curve points. A report for another experiment resets.
    pub fn apply(&mut self, text: &str) {
        let mut lines = text.lines();
        let Some(header) = lines.next() else { return };
        let fields: Vec<&str> = header.split(' ').collect();
        if fields.len() < 6 || fields[0] != "progress" {
            return;
        }
        let settings = lines.next().unwrap_or("").to_string();
        if settings != self.settings {
            *self = Progress {
                settings,
                ..Progress::default()
            };
        }
        self.phase = Phase::from_id(fields[1]).unwrap_or(Phase::Idle);
        self.elapsed_ms = num(fields[2]);
        self.work_done = num(fields[3]);
        self.work_total = num(fields[4]);
        self.steps_done = fields[5].parse().unwrap_or(0);
        self.earlier_ms = fields.get(6).map_or(0.0, |f| num(f)).max(0.0);
        for line in lines {
            let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
            let mut parts = rest.splitn(2, ' ');
            let Some(i) = parts.next().and_then(|x| x.parse::<usize>().ok()) else {
                continue;
            };
            let body = parts.next().unwrap_or("");
            if kind == "run" {
                let f: Vec<&str> = body.split(' ').collect();
                let Some(scheme) = f.first().and_then(|id| TrainScheme::from_id(id)) else {
                    continue;
                };
                while self.runs.len() <= i {
                    self.runs.push(RunView::new(scheme));
                }
                let r = &mut self.runs[i];
                r.scheme = scheme;
                r.step = f.get(2).and_then(|x| x.parse().ok()).unwrap_or(0);
                r.status = match f.get(1).copied() {
                    Some("testing") => Status::Testing,
                    Some("waiting") => Status::Waiting,
                    Some("done") => Status::Done,
                    Some("diverged") => Status::Diverged { step: r.step },
                    _ => Status::Training,
                };
                continue;
            }
            let Some(r) = self.runs.get_mut(i) else {
                continue;
            };
            match kind {
                "points" => {
                    for p in body.split(';').filter(|p| !p.is_empty()) {
                        let v: Vec<&str> = p.split(',').collect();
                        if let [step, loss, acc] = v[..] {
                            let (Ok(step), loss) = (step.parse::<usize>(), num(loss)) else {
                                continue;
                            };
                            let accuracy = acc.parse::<f64>().ok().filter(|a| a.is_finite());
                            // Never a point that cannot be drawn, never one twice.
                            if loss.is_finite() && r.curve.last().is_none_or(|l| l.step < step) {
                                r.curve.push(Point {
                                    step,
                                    loss,
                                    accuracy,
                                });
                            }
                        }
                    }
                }
                "cells" => {
                    r.cells = body
                        .split(';')
                        .filter(|c| !c.is_empty())
                        .filter_map(|c| {
                            let v: Vec<&str> = c.splitn(7, ',').collect();
                            let numbers: Vec<usize> = v
                                .get(5)?
                                .split('/')
                                .filter_map(|x| x.parse().ok())
                                .collect();
                            Some(Cell {
                                length: v.first()?.parse().ok()?,
                                correct: v.get(1)?.parse().ok()?,
                                counted: v.get(2)?.parse().ok()?,
                                examples: v.get(3)?.parse().ok()?,
                                rival: v.get(4)?.parse().ok()?,
                                depths: numbers.chunks_exact(2).map(|p| (p[0], p[1])).collect(),
                                missing: v.get(6).filter(|m| !m.is_empty()).map(|m| m.to_string()),
                            })
                        })
                        .collect();
                }
                "answers" => {
                    r.dog_and_man = body
                        .split(';')
                        .filter_map(|a| {
                            let (t, p) = a.split_once(',')?;
                            Some((t.parse().ok()?, num(p)))
                        })
                        .collect();
                }
                _ => {}
            }
        }
    }
}

/// The one picture of an experiment trained in parts, one [`Progress`] per worker (worker `k`
/// trains the runs [`Part::new(k, n)`](Part) owns, as [`owners`] deals them): of the experiment `settings` names, each
/// run as its owner reported it; training while any part trains (or has not yet reported on
/// these settings), paused while any is paused, done when all are done; the time is the
/// longest part's (they run side by side), the work and the steps are summed.
pub fn merge(parts: &[Progress], settings: &str) -> Progress {
    let n = parts.len().max(1);
    let current = |p: &&Progress| p.settings == settings;
    let s = TrainSettings::from_message(settings);
    let owners = owners(&s, n);
    let runs = s
        .runs()
        .into_iter()
        .enumerate()
        .map(|(i, scheme)| {
            parts
                .get(owners.get(i).copied().unwrap_or(0))
                .filter(current)
                .and_then(|p| p.runs.get(i))
                .filter(|r| r.scheme == scheme)
                .cloned()
                .unwrap_or_else(|| RunView::new(scheme))
        })
        .collect();
    let phases: Vec<Phase> = parts
        .iter()
        .map(|p| {
            if current(&p) {
                p.phase
            } else {
                Phase::Training
            }
        })
        .collect();
    let phase = [Phase::Training, Phase::Paused, Phase::Idle]
        .into_iter()
        .find(|ph| phases.contains(ph))
        .unwrap_or(Phase::Done);
    let mine = || parts.iter().filter(current);
    Progress {
        settings: settings.to_string(),
        phase,
        runs,
        elapsed_ms: mine().map(|p| p.elapsed_ms).fold(0.0, f64::max),
        earlier_ms: mine().map(|p| p.earlier_ms).fold(0.0, f64::max),
        work_done: mine().map(|p| p.work_done).sum(),
        work_total: mine().map(|p| p.work_total).sum(),
        steps_done: mine().map(|p| p.steps_done).sum(),
    }
}

fn num(s: &str) -> f64 {
    s.parse().unwrap_or(f64::NAN)
}

/// How far each run's curve has been reported, so reports carry only new points.
#[derive(Clone, Debug, Default)]
pub struct Reporter {
    sent: Vec<usize>,
}

impl Reporter {
    /// A progress report: the header (with the time so far, and the part of it spent before
    /// this command), the settings line, then per run its status, new curve points, held-out
    /// cells and (when known) its dog/man answers.
    pub fn report(
        &mut self,
        e: &Experiment,
        phase: Phase,
        (elapsed_ms, earlier_ms): (f64, f64),
        answers: &[Vec<Answer>],
    ) -> String {
        let (done, total) = e.work();
        let steps: usize = e.shown().map(|r| r.step).sum();
        let mut out = format!(
            "progress {} {elapsed_ms:.1} {done} {total} {steps} {earlier_ms:.1}\n{}\n",
            phase.id(),
            e.settings.to_message()
        );
        // Counted by the part's own runs; named by their places in the whole experiment.
        self.sent.resize(e.runs.len(), 0);
        for (k, r) in e.runs.iter().enumerate().filter(|(_, r)| !r.hidden) {
            let i = r.index;
            let status = match r.status {
                Status::Waiting => "waiting",
                Status::Training => "training",
                Status::Testing => "testing",
                Status::Done => "done",
                Status::Diverged { .. } => "diverged",
            };
            out.push_str(&format!("run {i} {} {status} {}\n", r.scheme.id(), r.step));
            let new = &r.curve[self.sent[k].min(r.curve.len())..];
            if !new.is_empty() {
                let pts: Vec<String> = new
                    .iter()
                    .map(|p| {
                        let acc = p.accuracy.map_or("-".to_string(), |a| format!("{a}"));
                        format!("{},{},{acc}", p.step, p.loss)
                    })
                    .collect();
                out.push_str(&format!("points {i} {}\n", pts.join(";")));
                self.sent[k] = r.curve.len();
            }
            let cells: Vec<String> = r
                .cells
                .iter()
                .map(|c| {
                    let depths: Vec<String> =
                        c.depths.iter().map(|(a, b)| format!("{a}/{b}")).collect();
                    format!(
                        "{},{},{},{},{},{},{}",
                        c.length,
                        c.correct,
                        c.counted,
                        c.examples,
                        c.rival,
                        depths.join("/"),
                        c.missing.as_deref().unwrap_or("").replace([';', '\n'], " ")
                    )
                })
                .collect();
            out.push_str(&format!("cells {i} {}\n", cells.join(";")));
            if let Some(a) = answers.get(k).filter(|a| !a.is_empty()) {
                let a: Vec<String> = a.iter().map(|(t, p)| format!("{t},{p}")).collect();
                out.push_str(&format!("answers {i} {}\n", a.join(";")));
            }
        }
        out
    }
}
