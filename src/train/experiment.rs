//! An experiment: one task, several position schemes, the same initial weights and the same
//! batches for all of them, trained a step at a time (round robin, so every curve grows
//! together) and then tested on held-out sets at 1, 2, 4 and 8 times the training length.
//!
//! The work goes a little at a time: [`Experiment::advance`] does as much as its `go` allows
//! and returns, and the next call goes on from the same point — inside a training step (its
//! forward and backward passes stop between two pieces of a stage) or a held-out batch. Where
//! the work stops changes no number: every piece computes exactly what the whole would.

use super::model::{attended_pairs, Batch, Model, ModelConfig, Pass, Position, Stats, Tape};
use super::optim::{schedule, AdamW, OptPass};
use super::settings::{Method, TrainScheme, TrainSettings};
use super::tasks::{dog_and_man, Example, Task};
use crate::math::rng::SplitMix64;
use crate::math::rope::Rope;
use crate::schemes::kind::Scheme;
use crate::schemes::rope_settings::RopeSettings;

/// Sequences per training step.
pub const BATCH: usize = 16;
/// A fine-tune's peak learning rate, as a share of the experiment's.
pub const TUNE_LR: f64 = 1.0 / 3.0;
/// Held-out sequences per cell of the results table.
pub const HELDOUT: usize = 1000;
/// Held-out sequences per test length for a task with depths (the passkey: 50 at each of its
/// eight depths; its sequences run to eight times the training length).
pub const HELDOUT_DEPTHS: usize = 400;

/// Held-out sequences per cell of the results table, for this task.
pub fn heldout_size(task: Task) -> usize {
    if task.depths() > 1 {
        HELDOUT_DEPTHS
    } else {
        HELDOUT
    }
}
/// Held-out sequences behind each point of the accuracy curve.
pub const CURVE_EXAMPLES: usize = 200;
/// Points on the accuracy curve (evaluated every steps/20 steps).
pub const CURVE_POINTS: usize = 20;
/// Test lengths as multiples of the training length.
pub const LENGTH_FACTORS: [usize; 4] = [1, 2, 4, 8];
/// Held-out sequences are evaluated in groups of this many (the groups decide which rows the
/// matrix kernels treat as a group's last, so they are fixed: results never depend on how the
/// work was cut).
const EVAL_GROUP: usize = 50;
/// Tokens per evaluation batch, about: a group is cut into batches of this size where a cut
/// keeps the kernels' row blocks where the whole group has them (see [`eval_batch_end`]).
const EVAL_ROWS: usize = 1024;
/// The optimiser's cost per parameter, in the units of [`ModelConfig::pass_cost`] (as the
/// optimiser reports it: a square root and a division each count about 20 multiply-adds).
const OPTIMISER_COST: f64 = 23.0;

/// Cost units (about one multiply-add each) the training worker gets through per second, and
/// the fixed cost of one training step of one scheme, in seconds. Measured in headless Chromium
/// on the 2-core development machine (`ONLY=estimate bash scripts/bench.sh`: it times whole
/// experiments from the smallest to the largest settings in the page and fits these two
/// numbers), so [`estimate_seconds`] is what that machine takes; a faster laptop takes less.
pub const WORK_PER_SECOND: f64 = 4.3e9;
pub const STEP_OVERHEAD_S: f64 = 2.5e-3;

/// A predicted token and its probability.
pub type Answer = (u32, f64);

/// One point of a training curve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    /// Steps taken.
    pub step: usize,
    /// Training loss of that step's batch (nats).
    pub loss: f64,
    /// Held-out accuracy at the training length, where measured.
    pub accuracy: Option<f64>,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Status {
    /// An extension of the RoPE model, waiting for that model to finish training.
    Waiting,
    Training,
    /// Training finished; the held-out table is being filled.
    Testing,
    Done,
    /// The loss became infinite or NaN, or grew past any sensible value, at this step.
    Diverged {
        step: usize,
    },
}

/// One held-out cell: accuracy at one test length, or why there is none.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub length: usize,
    /// Correct predictions and how many were counted (positions with a target).
    pub correct: usize,
    pub counted: usize,
    /// Sequences evaluated so far.
    pub examples: usize,
    /// Wrong answers that named the task's rival (see [`Task::rival`]): the other noun.
    pub rival: usize,
    /// Set when the model cannot run at this length (a learned table's missing rows).
    pub missing: Option<String>,
    /// Correct and counted at each depth of the task's held-out examples (the passkey's
    /// needle-in-a-haystack cells; empty for a task without depths).
    pub depths: Vec<(usize, usize)>,
}

impl Cell {
    pub fn accuracy(&self) -> Option<f64> {
        (self.missing.is_none() && self.counted > 0)
            .then(|| self.correct as f64 / self.counted as f64)
    }
}

/// One scheme being trained.
#[derive(Clone, Debug)]
pub struct Run {
    pub scheme: TrainScheme,
    pub model: Model<f32>,
    pub params: Vec<f32>,
    grads: Vec<f32>,
    opt: AdamW<f32>,
    data: SplitMix64,
    pub step: usize,
    pub curve: Vec<Point>,
    pub status: Status,
    pub cells: Vec<Cell>,
    /// The length the model's position tables are built for (see [`Run::run_at`]).
    length: usize,
    /// Where the run stands in the settings' [`runs`](TrainSettings::runs) (reports, maps and
    /// exports name it so, whichever part of the experiment holds it).
    pub index: usize,
    /// A private copy of the RoPE run that another part reports: trained (or adopted) here
    /// only for its weights, which this part's extensions start from.
    pub hidden: bool,
}

/// An evaluation under way: the next example, the batch being run and how far its forward
/// pass got.
#[derive(Clone, Debug, Default)]
struct Eval {
    next: usize,
    batch: Option<(Batch, usize, Pass)>,
    stats: Stats,
}

/// Where a training step stands.
#[derive(Clone, Debug)]
enum StepStage {
    Forward(Pass),
    Backward(Pass, f64),
    Optimise(OptPass, f64),
    /// The optimiser has stepped; the accuracy curve's point is being measured.
    Curve(Eval, f64),
}

/// The work in hand between two calls of [`Experiment::advance`].
#[derive(Clone, Debug)]
enum Busy {
    Step {
        run: usize,
        batch: Batch,
        stage: StepStage,
    },
    Test {
        run: usize,
        eval: Eval,
    },
}

/// Everything an experiment holds.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub settings: TrainSettings,
    pub runs: Vec<Run>,
    curve_set: Vec<Example>,
    /// The tuned extensions' curve set, at the fine-tuning length.
    tune_set: Vec<Example>,
    /// Held-out sets, one per test length.
    pub heldout: Vec<Vec<Example>>,
    /// The activations of the pass under way (one at a time, whatever the run).
    tape: Tape<f32>,
    /// The run whose training step comes next.
    turn: usize,
    busy: Option<Busy>,
    /// What [`Experiment::start`] left to set up: the next run and tensor to draw, and the
    /// held-out sets still to make.
    setup: Option<(usize, usize)>,
    /// Which of the settings' runs this experiment trains.
    pub part: Part,
}

/// The most workers an experiment is split over: past four, a tiny model's runs gain little and
/// each worker holds its own copy of the app's trainer.
pub const MAX_WORKERS: usize = 4;

/// How many workers train an experiment of `runs` runs on a machine of `cores` cores: one per
/// core, at most [`MAX_WORKERS`], never more than there are runs, one on a single core.
pub fn worker_count(cores: usize, runs: usize) -> usize {
    cores.clamp(1, MAX_WORKERS).min(runs.max(1))
}

/// Which of an experiment's runs one of `count` workers trains ([`owners`]: dealt by cost, so
/// that the workers finish together). Each run's numbers depend only on the settings and its
/// scheme, so any split gives the serial run's numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Part {
    pub index: usize,
    pub count: usize,
}

impl Part {
    /// The whole experiment, in one worker.
    pub const WHOLE: Part = Part { index: 0, count: 1 };

    /// Worker `index` of `count` (clamped into range).
    pub fn new(index: usize, count: usize) -> Part {
        let count = count.max(1);
        Part {
            index: index.min(count - 1),
            count,
        }
    }

    /// The worker of `count` that trains run `run` of `s`.
    pub fn owner(s: &TrainSettings, count: usize, run: usize) -> usize {
        owners(s, count)
            .get(run)
            .copied()
            .unwrap_or(run % count.max(1))
    }

    /// Whether this part trains each of `s`'s runs.
    pub fn owned(self, s: &TrainSettings) -> Vec<bool> {
        owners(s, self.count)
            .into_iter()
            .map(|k| k == self.index)
            .collect()
    }

    /// `index/count`, as commands carry it.
    pub fn id(self) -> String {
        format!("{}/{}", self.index, self.count)
    }

    pub fn from_id(s: &str) -> Option<Part> {
        let (i, n) = s.split_once('/')?;
        let (i, n) = (i.trim().parse().ok()?, n.trim().parse::<usize>().ok()?);
        (n >= 1 && i < n).then_some(Part { index: i, count: n })
    }
}

/// The worker (of `count`) that trains each of `s`'s runs, dealt by estimated time (a run's
/// [`RunCost`] at [`WORK_PER_SECOND`] plus [`STEP_OVERHEAD_S`] a step): longest first, each to
/// the worker with the least so far (ties to the lower index, so every worker and the page
/// deal alike). The trained schemes are dealt first, on their own; the RoPE run's extensions,
/// which run after them, are dealt again from zero, so Extend keeps the trained models where
/// they are and spreads its own work. Dealt in turn (run `i` to worker `i % count`), the two
/// workers of a 2-core machine had finished far apart: ALiBi and FIRE, or T5 and FIRE, together.
pub fn owners(s: &TrainSettings, count: usize) -> Vec<usize> {
    let count = count.max(1);
    let runs = s.runs();
    let mut owner = vec![0; runs.len()];
    if count == 1 {
        return owner;
    }
    let seconds = |sc: TrainScheme| {
        let c = RunCost::new(s, sc);
        let steps = run_steps(s, sc);
        (c.training(steps, steps) + c.testing()) / WORK_PER_SECOND + steps as f64 * STEP_OVERHEAD_S
    };
    for extensions in [false, true] {
        let mut phase: Vec<(usize, f64)> = runs
            .iter()
            .enumerate()
            .filter(|(_, sc)| sc.extended.is_some() == extensions)
            .map(|(i, &sc)| (i, seconds(sc)))
            .collect();
        phase.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut load = vec![0.0_f64; count];
        for (i, t) in phase {
            let k = (0..count)
                .min_by(|&a, &b| load[a].total_cmp(&load[b]).then(a.cmp(&b)))
                .unwrap_or(0);
            owner[i] = k;
            load[k] += t;
        }
    }
    owner
}

/// The model a scheme trains, for these settings; an extended RoPE model as it runs on
/// sequences of `length` tokens (dynamic NTK and LongRoPE depend on it).
pub fn model_config_at(s: &TrainSettings, scheme: TrainScheme, length: usize) -> ModelConfig {
    let position = match scheme.extended {
        // A trained scheme is one of a line of tokens (`TrainSettings::all`), so it has one.
        None => crate::schemes::trained(scheme.scheme, s).unwrap_or(Position::None),
        Some(e) => match method_rope(s, e.method, length) {
            Some(rope) => Position::Rope {
                base: rope.base,
                pairing: rope.pairing,
                scaling: rope.scaling,
            },
            // DroPE: the trained weights with RoPE taken out.
            None => Position::None,
        },
    };
    ModelConfig {
        vocab: s.task.vocab().len(),
        d_model: s.d_model,
        heads: s.heads,
        layers: s.layers,
        max_len: s.train_len,
        causal: s.task.causal() || scheme.masked,
        position,
    }
}

/// The model a scheme trains: an extended RoPE model as it is fine-tuned (at the fine-tuning
/// length), every other at the training length.
pub fn model_config(s: &TrainSettings, scheme: TrainScheme) -> ModelConfig {
    model_config_at(s, scheme, run_length(s, scheme))
}

/// The length a run trains at: the fine-tuning length for a tuned extension (DroPE
/// recalibrates at the training length, as its paper does), else the training length.
fn run_length(s: &TrainSettings, scheme: TrainScheme) -> usize {
    match scheme.extended {
        Some(e) if e.tuned && e.method != Method::Drope => s.tune_len(),
        _ => s.train_len,
    }
}

/// Training steps a run takes: the experiment's, the fine-tune's for a tuned extension, none
/// for a zero-shot one.
pub fn run_steps(s: &TrainSettings, scheme: TrainScheme) -> usize {
    match scheme.extended {
        None => s.steps,
        Some(e) if e.tuned => s.tune_steps,
        Some(_) => 0,
    }
}

/// The RoPE a context-extension method runs with at the current `length`, from the RoPE
/// views' own settings ([`RopeSettings::rope`]: one implementation of each formula), at the
/// experiment's factor, the head's width and θ, with the training length as the original;
/// `None` for DroPE, which removes RoPE. LongRoPE's per-pair factors are set by a rule here
/// (its paper searches them): 1 up to the original length; past it s^r, r being YaRN's ramp
/// for the pair (0 for pairs that turn 32 times or more in L, 1 for those that turn less than
/// once), so the slow pairs are interpolated by the whole factor and the fast ones left alone.
pub fn method_rope(s: &TrainSettings, method: Method, length: usize) -> Option<Rope> {
    let head = s.d_model / s.heads.max(1);
    if method == Method::Config {
        return Some(config_settings(s)?.rope(head, s.base, s.train_len, length));
    }
    let extension = method.extension()?;
    let mut r = RopeSettings {
        pairing: s.rope_pairing,
        extension,
        factor: s.factor,
        ..RopeSettings::default()
    };
    if method == Method::LongRope {
        let plain = r.rope(head, s.base, s.train_len, length);
        let pairs = plain.pair_count();
        let (fast, slow) = (r.beta_fast, r.beta_slow);
        r.short_factor = vec![1.0; pairs].into();
        r.long_factor = (0..pairs)
            .map(|i| {
                let ramp = plain.yarn_ramp(fast, slow, s.train_len, true, i);
                s.factor.powf(ramp) as f32 as f64
            })
            .collect();
    }
    Some(r.checked().rope(head, s.base, s.train_len, length))
}

/// The RoPE settings a pasted config names, read by the config paste box's own code
/// (`RopeConfig::apply`); the trained model's pairing and whole rotation stand in for the
/// config's (as do its θ, head width and training length, given to `rope` by the caller).
pub fn config_settings(s: &TrainSettings) -> Option<RopeSettings> {
    let config = crate::rope_config::RopeConfig::from_json(&s.rope_config).ok()?;
    let mut scratch = crate::state::Settings::default();
    config.apply(&mut scratch);
    Some(
        RopeSettings {
            pairing: s.rope_pairing,
            rotary_fraction: 1.0,
            ..scratch.schemes.rope
        }
        .checked(),
    )
}

/// The longest sequence any test uses.
pub fn longest_test(s: &TrainSettings) -> usize {
    s.train_len * LENGTH_FACTORS[LENGTH_FACTORS.len() - 1]
}

/// The tuned extensions' curve set (empty without them).
fn tune_set(s: &TrainSettings) -> Vec<Example> {
    if s.extends() && s.tune_steps > 0 {
        s.task
            .heldout(s.seed ^ 0x7E_C000, s.tune_len(), CURVE_EXAMPLES)
    } else {
        Vec::new()
    }
}

/// Packs examples into a batch.
pub fn batch_of(examples: &[Example]) -> Batch {
    let mut b = Batch::new();
    for e in examples {
        b.push(&e.tokens, &e.targets);
    }
    b
}

/// Where the evaluation batch that starts at example `from` ends. Held-out examples go in
/// groups of [`EVAL_GROUP`], each once a single batch; a group is now cut into batches of about
/// [`EVAL_ROWS`] tokens, but only after a sequence that ends a multiple of 4 tokens into the
/// group. The matrix kernels work in blocks of 4 rows from a batch's first and treat its last
/// (tokens mod 4) rows apart, so every row is computed exactly as in the whole group.
fn eval_batch_end(examples: &[Example], from: usize) -> usize {
    batch_end(|k| examples[k].tokens.len(), examples.len(), from)
}

/// [`eval_batch_end`] for `count` examples whose lengths `length` tells.
fn batch_end(length: impl Fn(usize) -> usize, count: usize, from: usize) -> usize {
    let group_end = ((from / EVAL_GROUP + 1) * EVAL_GROUP).min(count);
    let into_group: usize = (from - from % EVAL_GROUP..from).map(&length).sum();
    let (mut end, mut rows) = (from, 0);
    while end < group_end {
        rows += length(end);
        end += 1;
        if rows >= EVAL_ROWS && (into_group + rows) % 4 == 0 {
            break;
        }
    }
    end
}

/// How many evaluation batches `count` examples of `len` tokens make (each computes its own
/// score-bias table).
fn eval_batches(count: usize, len: usize) -> usize {
    let (mut from, mut batches) = (0, 0);
    while from < count {
        from = batch_end(|_| len, count, from);
        batches += 1;
    }
    batches
}

/// Token count, attended query-key pairs and score-bias table entries (the pairs of the
/// longest sequence) of the average training batch (lengths are drawn evenly from the task's
/// shortest to the training length).
fn expected_batch(s: &TrainSettings, causal: bool) -> (f64, f64, f64) {
    let lo = s.task.min_length();
    let hi = s.train_len.max(lo);
    let count = (hi - lo + 1) as f64;
    let tokens: f64 = (lo..=hi).map(|l| l as f64).sum::<f64>() / count;
    let pairs: f64 = (lo..=hi)
        .map(|l| attended_pairs(l, causal) as f64)
        .sum::<f64>()
        / count;
    // The longest of BATCH draws is at most k with probability ((k − lo + 1)/count)^BATCH.
    let at_most = |k: usize| ((k + 1 - lo) as f64 / count).powi(BATCH as i32);
    let entries: f64 = (lo..=hi)
        .map(|k| {
            let below = if k > lo { at_most(k - 1) } else { 0.0 };
            (at_most(k) - below) * attended_pairs(k, causal) as f64
        })
        .sum();
    (BATCH as f64 * tokens, BATCH as f64 * pairs, entries)
}

/// The curve's points that measure accuracy in the first `step` of `steps` steps: every
/// `steps / 20` steps and the last.
fn curve_evaluations(step: usize, steps: usize) -> usize {
    let every = (steps / CURVE_POINTS).max(1);
    step / every + usize::from(step == steps && steps % every != 0)
}

/// What one run's work costs: a training step (on the average batch, with the optimiser), one
/// measurement of the accuracy curve, and the held-out test of a sequence at each test length
/// (`None` where the model cannot run; a score bias's table, computed once per evaluation
/// batch, shared out among the batch's sequences).
struct RunCost {
    step: f64,
    curve: f64,
    test: Vec<Option<f64>>,
    heldout: usize,
}

impl RunCost {
    fn new(s: &TrainSettings, scheme: TrainScheme) -> RunCost {
        let c = model_config(s, scheme);
        let (tokens, pairs, entries) = match run_length(s, scheme) {
            // A tuned extension's batches are all of the fine-tuning length.
            n if n != s.train_len => (
                (BATCH * n) as f64,
                (BATCH as u64 * attended_pairs(n, c.causal)) as f64,
                0.0,
            ),
            _ => expected_batch(s, c.causal),
        };
        let params = super::model::Layout::new(&c).total as f64;
        // `count` sequences of `len` tokens, evaluated in the evaluation's batches.
        let evaluate = |count: usize, len: usize| {
            let pairs = attended_pairs(len, c.causal) as f64;
            count as f64 * c.pass_cost(len as f64, pairs, 0.0, false)
                + eval_batches(count, len) as f64 * c.pass_cost(0.0, 0.0, pairs, false)
        };
        let heldout = heldout_size(s.task);
        RunCost {
            heldout,
            step: c.pass_cost(tokens, pairs, entries, true) + OPTIMISER_COST * params,
            curve: evaluate(CURVE_EXAMPLES, curve_length(s, scheme)),
            test: LENGTH_FACTORS
                .iter()
                .map(|f| f * s.train_len)
                .map(|len| {
                    // A learned table has no rows past the training length.
                    (!matches!(c.position, Position::Learned) || len <= s.train_len)
                        .then(|| evaluate(heldout, len) / heldout as f64)
                })
                .collect(),
        }
    }

    /// Training up to `step` of `steps`: the steps and the curve's measurements among them.
    fn training(&self, step: usize, steps: usize) -> f64 {
        step as f64 * self.step + curve_evaluations(step, steps) as f64 * self.curve
    }

    fn testing(&self) -> f64 {
        self.test
            .iter()
            .flatten()
            .map(|t| self.heldout as f64 * t)
            .sum()
    }
}

/// The length of the sequences behind a run's accuracy curve: the training length, or for a
/// tuned extension the length it is being stretched to.
fn curve_length(s: &TrainSettings, scheme: TrainScheme) -> usize {
    match scheme.extended {
        Some(_) => s.tune_len(),
        None => s.train_len,
    }
    .max(s.task.min_length())
}

/// The whole experiment's work, in cost units (about one multiply-add each).
pub fn planned_work(s: &TrainSettings) -> f64 {
    s.runs()
        .into_iter()
        .map(|sc| {
            let c = RunCost::new(s, sc);
            let steps = run_steps(s, sc);
            c.training(steps, steps) + c.testing()
        })
        .sum()
}

/// How long the experiment takes on the machine the rates were measured on, in seconds: its
/// work at [`WORK_PER_SECOND`], plus [`STEP_OVERHEAD_S`] per training step of each scheme.
pub fn estimate_seconds(s: &TrainSettings) -> f64 {
    let steps: usize = s.runs().into_iter().map(|sc| run_steps(s, sc)).sum();
    planned_work(s) / WORK_PER_SECOND + steps as f64 * STEP_OVERHEAD_S
}

impl Run {
    fn new(s: &TrainSettings, scheme: TrainScheme) -> Run {
        let model = Model::new(model_config(s, scheme), longest_test(s));
        let total = model.layout.total;
        // Drawn by the experiment's set-up.
        let params = vec![0.0; total];
        let opt = AdamW::new(&model.layout.tensors, total);
        let cells = LENGTH_FACTORS
            .iter()
            .map(|f| {
                let length = f * s.train_len;
                Cell {
                    length,
                    correct: 0,
                    counted: 0,
                    examples: 0,
                    rival: 0,
                    depths: vec![
                        (0, 0);
                        if s.task.depths() > 1 {
                            s.task.depths()
                        } else {
                            0
                        }
                    ],
                    missing: (!model.covers(length)).then(|| {
                        format!(
                            "no embedding exists: the learned table has {} rows",
                            s.train_len
                        )
                    }),
                }
            })
            .collect();
        Run {
            scheme,
            model,
            params,
            grads: vec![0.0; total],
            opt,
            // The same stream for every scheme: they all see the same batches (and every
            // tuned extension the same fine-tuning batches).
            data: SplitMix64::new(match scheme.extended {
                Some(_) => s.seed ^ 0x7E_0000_0DA7_A000,
                None => s.seed ^ 0x0DA7_A000,
            }),
            step: 0,
            curve: Vec::new(),
            status: if scheme.extended.is_some() {
                Status::Waiting
            } else {
                Status::Training
            },
            cells,
            length: run_length(s, scheme),
            index: 0,
            hidden: false,
        }
    }

    /// Run `index` of the settings' runs; `hidden` when only its weights are wanted here.
    fn at(s: &TrainSettings, scheme: TrainScheme, index: usize, hidden: bool) -> Run {
        Run {
            index,
            hidden,
            ..Run::new(s, scheme)
        }
    }

    /// Builds the model's position tables for sequences of `length` tokens, where the method
    /// depends on the length (dynamic NTK, LongRoPE); nothing otherwise.
    fn run_at(&mut self, s: &TrainSettings, length: usize) {
        let by_length = self.scheme.extended.is_some_and(|e| e.method.by_length());
        if by_length && self.length != length {
            self.model = Model::new(model_config_at(s, self.scheme, length), longest_test(s));
            self.length = length;
        }
    }

    /// Forward over examples (in the evaluation's batches), returning correct and counted.
    pub fn evaluate(&mut self, examples: &[Example]) -> Result<Stats, String> {
        let (mut tape, mut eval) = (Tape::default(), Eval::default());
        loop {
            if let Some(done) = self.evaluate_part(examples, &mut tape, &mut eval, &mut |_| true) {
                return done;
            }
        }
    }

    /// Goes on with an evaluation of `examples` until it is done (`Some`: the totals, or the
    /// first error) or `go` says stop (`None`).
    fn evaluate_part(
        &mut self,
        examples: &[Example],
        tape: &mut Tape<f32>,
        eval: &mut Eval,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Result<Stats, String>> {
        loop {
            match self.evaluate_batch(None, examples, tape, eval, go)? {
                Err(e) => return Some(Err(e)),
                Ok((st, _)) => {
                    eval.stats.correct += st.correct;
                    eval.stats.counted += st.counted;
                }
            }
            if eval.next >= examples.len() {
                return Some(Ok(eval.stats));
            }
            if !go(0) {
                return None;
            }
        }
    }

    /// Goes on with the next evaluation batch from `eval.next`: its counts when it is done (and
    /// `eval.next` moves past it), `None` when `go` says stop first. With `task`, also the
    /// wrong answers that name the task's rival (see [`Task::rival`]).
    fn evaluate_batch(
        &mut self,
        task: Option<Task>,
        examples: &[Example],
        tape: &mut Tape<f32>,
        eval: &mut Eval,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Result<(Stats, Scan), String>> {
        let (batch, end, pass) = eval.batch.get_or_insert_with(|| {
            let end = eval_batch_end(examples, eval.next);
            (batch_of(&examples[eval.next..end]), end, Pass::default())
        });
        let result = self
            .model
            .forward_part(&self.params, batch, tape, pass, go)?;
        let (start, end) = (eval.next, *end);
        eval.next = end;
        eval.batch = None;
        Some(result.map(|st| {
            let scan = task.map_or_else(Scan::default, |task| {
                self.scan(task, &examples[start..end], start, tape)
            });
            (st, scan)
        }))
    }

    /// Wrong answers that name the task's rival, and correct and counted answers at each depth,
    /// in the last forward pass over `examples` (the first being held-out example `first`).
    fn scan(&self, task: Task, examples: &[Example], first: usize, tape: &Tape<f32>) -> Scan {
        let depths = task.depths();
        let mut scan = Scan {
            rival: 0,
            depths: vec![(0, 0); if depths > 1 { depths } else { 0 }],
        };
        let mut row = 0;
        for (k, e) in examples.iter().enumerate() {
            for target in &e.targets {
                if let Some(t) = *target {
                    let (answer, _) = self.model.prediction(tape, row);
                    if answer != t && task.rival(&e.tokens, t) == Some(answer) {
                        scan.rival += 1;
                    }
                    if let Some(d) = scan.depths.get_mut((first + k) % depths) {
                        d.0 += usize::from(answer == t);
                        d.1 += 1;
                    }
                }
                row += 1;
            }
        }
        scan
    }

    /// The next training batch: `BATCH` sequences of lengths drawn up to the training length,
    /// or all of exactly `fixed` tokens (for benchmarks that compare like with like).
    pub fn next_batch(&mut self, s: &TrainSettings, fixed: Option<usize>) -> Batch {
        // A tuned extension fine-tunes on sequences of the length it is stretched to.
        let fixed = fixed.or_else(|| {
            let n = run_length(s, self.scheme);
            (n != s.train_len).then_some(n)
        });
        let examples: Vec<Example> = (0..BATCH)
            .map(|_| match fixed {
                Some(n) => s.task.sample(&mut self.data, n),
                None => s.task.sample_train(&mut self.data, s.train_len),
            })
            .collect();
        batch_of(&examples)
    }

    /// One optimiser step on `batch`, all at once (benchmarks): forward, backward, AdamW at the
    /// scheduled rate. Returns the batch's loss, or `None` (and marks the run diverged) when
    /// the loss or the weights stop being finite or the loss grows past any sensible value.
    pub fn optimise(
        &mut self,
        s: &TrainSettings,
        batch: &Batch,
        tape: &mut Tape<f32>,
    ) -> Option<f64> {
        let mut stage = StepStage::Forward(Pass::default());
        match self.step_part(s, batch, tape, &mut stage, &mut |_| true)? {
            StepEnd::Stepped(loss) => Some(loss),
            StepEnd::Diverged => None,
        }
    }

    fn diverge(&mut self) -> Option<StepEnd> {
        self.status = Status::Diverged { step: self.step };
        Some(StepEnd::Diverged)
    }

    /// Goes on with a training step on `batch` up to the optimiser's update: `Some` once the
    /// weights have moved (or the run diverged), `None` when `go` says stop first.
    fn step_part(
        &mut self,
        s: &TrainSettings,
        batch: &Batch,
        tape: &mut Tape<f32>,
        stage: &mut StepStage,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> Option<StepEnd> {
        loop {
            match stage {
                StepStage::Forward(pass) => {
                    let Ok(stats) = self
                        .model
                        .forward_part(&self.params, batch, tape, pass, go)?
                    else {
                        return self.diverge();
                    };
                    let limit = (4.0 * (self.model.config.vocab as f64).ln()).max(10.0);
                    if !stats.loss.is_finite() || stats.loss > limit {
                        return self.diverge();
                    }
                    self.grads.fill(0.0);
                    *stage = StepStage::Backward(Pass::default(), stats.loss);
                    if !go(0) {
                        return None;
                    }
                }
                StepStage::Backward(pass, loss) => {
                    if !self.model.backward_part(
                        &self.params,
                        batch,
                        tape,
                        &mut self.grads,
                        pass,
                        go,
                    ) {
                        return None;
                    }
                    *stage = StepStage::Optimise(OptPass::default(), *loss);
                    if !go(0) {
                        return None;
                    }
                }
                StepStage::Optimise(pass, loss) => {
                    let loss = *loss;
                    let lr = schedule(self.peak_lr(s), self.step, run_steps(s, self.scheme));
                    let norm =
                        self.opt
                            .step_part(&mut self.params, &mut self.grads, lr, pass, go)?;
                    // A score bias's parameters go back to their domain (KERPLE's clamp to ε).
                    self.model.project(&mut self.params);
                    if !norm.is_finite() || self.params.iter().any(|p| !p.is_finite()) {
                        return self.diverge();
                    }
                    self.step += 1;
                    *stage = StepStage::Curve(Eval::default(), loss);
                    return Some(StepEnd::Stepped(loss));
                }
                StepStage::Curve(..) => return None,
            }
        }
    }

    /// The learning rate's peak: the experiment's, a third of it for a fine-tune (which starts
    /// from trained weights).
    fn peak_lr(&self, s: &TrainSettings) -> f64 {
        if self.scheme.extended.is_some() {
            s.lr * TUNE_LR
        } else {
            s.lr
        }
    }

    /// Whether the step just taken puts a point on the accuracy curve.
    fn measures_curve(&self, s: &TrainSettings) -> bool {
        let steps = run_steps(s, self.scheme);
        let every = (steps / CURVE_POINTS).max(1);
        self.step % every == 0 || self.step == steps
    }

    /// Adds the step's point to the curve, and moves on to testing after the last step.
    fn finish_step(&mut self, s: &TrainSettings, loss: f64, accuracy: Option<Stats>) {
        let accuracy = accuracy
            .filter(|st| st.counted > 0)
            .map(|st| st.correct as f64 / st.counted as f64);
        self.curve.push(Point {
            step: self.step,
            loss,
            accuracy,
        });
        if self.step >= run_steps(s, self.scheme) {
            self.status = Status::Testing;
        }
    }

    /// The first held-out cell still to fill.
    fn cell_to_test(&self, heldout: usize) -> Option<usize> {
        self.cells
            .iter()
            .position(|c| c.missing.is_none() && c.examples < heldout)
    }

    /// The model's answer at the last position of each sequence, with its probability.
    pub fn answers(&mut self, sequences: &[Vec<u32>]) -> Vec<Answer> {
        let mut tape = Tape::default();
        sequences
            .iter()
            .map(|tokens| {
                let mut b = Batch::new();
                b.push(tokens, &vec![None; tokens.len()]);
                match self.model.forward(&self.params, &b, &mut tape) {
                    Ok(_) => self.model.prediction(&tape, tokens.len() - 1),
                    Err(_) => (0, f64::NAN),
                }
            })
            .collect()
    }

    /// Attention weights of every layer and head for one sequence (layer-major, then head;
    /// each T × T, row = query), and the prediction at every position.
    pub fn attention_maps(&mut self, tokens: &[u32]) -> Option<(Vec<f32>, Vec<Answer>)> {
        let mut b = Batch::new();
        b.push(tokens, &vec![None; tokens.len()]);
        let mut tape = Tape::default();
        self.model.forward(&self.params, &b, &mut tape).ok()?;
        let (t, c) = (tokens.len(), &self.model.config);
        let mut maps = Vec::with_capacity(c.layers * c.heads * t * t);
        for l in 0..c.layers {
            for h in 0..c.heads {
                maps.extend_from_slice(tape.attention(l, 0, h, t)?);
            }
        }
        let preds = (0..t).map(|i| self.model.prediction(&tape, i)).collect();
        Some((maps, preds))
    }

    /// A named tensor of the trained weights.
    pub fn tensor(&self, name: &str) -> Option<(&[f32], &[usize])> {
        let t = self.model.layout.tensor(name)?;
        Some((&self.params[t.range()], &t.shape))
    }
}

/// What a held-out batch shows beyond its totals: wrong answers naming the rival, and
/// correct and counted at each depth.
#[derive(Clone, Debug, Default)]
struct Scan {
    rival: usize,
    depths: Vec<(usize, usize)>,
}

/// How a training step's optimiser part ended.
enum StepEnd {
    Stepped(f64),
    Diverged,
}

impl Experiment {
    /// An experiment ready to train (its weights drawn and its held-out sets made).
    pub fn new(settings: TrainSettings) -> Experiment {
        let mut e = Experiment::start(settings);
        while e.set_up(&mut |_| true) {}
        e
    }

    /// An experiment whose weights and held-out sets are made by [`advance`](Self::advance),
    /// a piece at a time, before it trains (drawing them takes the largest models about
    /// 0.3 s).
    pub fn start(settings: TrainSettings) -> Experiment {
        Experiment::start_part(settings, Part::WHOLE)
    }

    /// [`start`](Self::start) for the runs `part` owns, plus a hidden copy of the RoPE run
    /// when one of them is its extension and another part owns it.
    pub fn start_part(settings: TrainSettings, part: Part) -> Experiment {
        let s = &settings;
        let all = s.runs();
        let mine = part.owned(s);
        let owns = |i: usize| mine.get(i).copied().unwrap_or(false);
        let needs_rope = all
            .iter()
            .enumerate()
            .any(|(i, sc)| sc.extended.is_some() && owns(i));
        let runs = all
            .into_iter()
            .enumerate()
            .filter(|&(i, sc)| owns(i) || (needs_rope && sc == TrainScheme::of(Scheme::Rope)))
            .map(|(i, sc)| Run::at(s, sc, i, !owns(i)))
            .collect();
        let curve_set = s
            .task
            .heldout(s.seed ^ 0xC0_0000, s.train_len, CURVE_EXAMPLES);
        let tune_set = tune_set(s);
        Experiment {
            settings,
            runs,
            curve_set,
            tune_set,
            heldout: Vec::new(),
            tape: Tape::default(),
            turn: 0,
            busy: None,
            setup: Some((0, 0)),
            part,
        }
    }

    /// The runs this part reports (all but a hidden RoPE copy).
    pub fn shown(&self) -> impl Iterator<Item = &Run> {
        self.runs.iter().filter(|r| !r.hidden)
    }

    /// Run `index` of the settings' runs, if this part reports it.
    pub fn run(&self, index: usize) -> Option<&Run> {
        self.shown().find(|r| r.index == index)
    }

    pub fn run_mut(&mut self, index: usize) -> Option<&mut Run> {
        self.runs.iter_mut().find(|r| !r.hidden && r.index == index)
    }

    /// The trained RoPE run this part reports, once its training is over: what the parts
    /// without it start their extensions from.
    pub fn trained_rope(&self) -> Option<&Run> {
        self.shown().find(|r| {
            r.scheme == TrainScheme::of(Scheme::Rope)
                && !matches!(r.status, Status::Training | Status::Waiting)
        })
    }

    /// Goes on setting up: true while there is more to do (and `go` said stop).
    fn set_up(&mut self, go: &mut dyn FnMut(u64) -> bool) -> bool {
        while let Some((run, tensor)) = self.setup {
            let s = &self.settings;
            if run < self.runs.len() && self.runs[run].scheme.extended.is_some() {
                // An extension gets the trained RoPE model's weights once it is trained.
                self.setup = Some((run + 1, 0));
            } else if run < self.runs.len() {
                let (before, rest) = self.runs.split_at_mut(run);
                let r = &mut rest[0];
                let t = &r.model.layout.tensors[tensor];
                // Every scheme starts from the same weights where it has the same tensor: copy
                // it from an earlier run (the same numbers as drawing it again).
                let earlier = before.iter().find_map(|b| {
                    b.tensor(&t.name)
                        .filter(|(_, shape)| **shape == t.shape[..])
                });
                let cost = match earlier {
                    Some((values, _)) => {
                        r.params[t.range()].copy_from_slice(values);
                        t.len()
                    }
                    None => {
                        r.model.init_tensor(&mut r.params[t.range()], s.seed, t);
                        40 * t.len()
                    }
                };
                let next = if tensor + 1 < r.model.layout.tensors.len() {
                    (run, tensor + 1)
                } else {
                    (run + 1, 0)
                };
                self.setup = Some(next);
                if !go(cost as u64) {
                    return true;
                }
            } else {
                let k = self.heldout.len();
                let Some(f) = LENGTH_FACTORS.get(k) else {
                    self.setup = None;
                    break;
                };
                let len = f * s.train_len;
                let count = heldout_size(s.task);
                self.heldout.push(s.task.heldout(s.seed, len, count));
                if !go((count * len * 40) as u64) {
                    return true;
                }
            }
        }
        false
    }

    /// Works until everything is done (false) or `go`, told the cost of each piece of work,
    /// says stop (true: call again to go on from the same point). Every scheme takes a
    /// training step in turn; once none is training, each one's held-out cells are filled.
    pub fn advance(&mut self, go: &mut dyn FnMut(u64) -> bool) -> bool {
        if self.set_up(go) {
            return true;
        }
        loop {
            let busy = match self.busy.take() {
                Some(b) => b,
                None => match self.next_work() {
                    Some(b) => b,
                    None => return false,
                },
            };
            if let Some(paused) = self.work_on(busy, go) {
                self.busy = Some(paused);
                return true;
            }
            if !go(0) {
                return true;
            }
        }
    }

    /// What comes next: the next training step in turn, or else the next run's testing.
    fn next_work(&mut self) -> Option<Busy> {
        self.launch_extensions();
        let training = |r: &Run| r.status == Status::Training;
        let n = self.runs.len();
        let next = (self.turn..n)
            .chain(0..self.turn.min(n))
            .find(|&i| training(&self.runs[i]));
        if let Some(run) = next {
            let batch = self.runs[run].next_batch(&self.settings, None);
            return Some(Busy::Step {
                run,
                batch,
                stage: StepStage::Forward(Pass::default()),
            });
        }
        let run = self.runs.iter().position(|r| r.status == Status::Testing)?;
        Some(Busy::Test {
            run,
            eval: Eval::default(),
        })
    }

    /// Once the RoPE model is trained, its extensions start from its weights: zero-shot ones go
    /// straight to testing, tuned ones to their fine-tune. If it diverged, so do they.
    fn launch_extensions(&mut self) {
        let Some(base) = self
            .runs
            .iter()
            .position(|r| r.scheme == TrainScheme::of(Scheme::Rope))
        else {
            return;
        };
        let status = self.runs[base].status;
        if matches!(status, Status::Training | Status::Waiting) {
            return;
        }
        let s = &self.settings;
        for i in 0..self.runs.len() {
            if self.runs[i].status != Status::Waiting {
                continue;
            }
            if let Status::Diverged { .. } = status {
                self.runs[i].status = status;
                continue;
            }
            let params = self.runs[base].params.clone();
            let r = &mut self.runs[i];
            r.params = params;
            let tuned = r.scheme.extended.is_some_and(|e| e.tuned) && s.tune_steps > 0;
            r.status = if tuned {
                Status::Training
            } else {
                Status::Testing
            };
        }
    }

    /// Adds (or replaces) the context-extension step of a finished experiment: `settings` are
    /// this experiment's but for the extension's own values. False (nothing changed) when they
    /// differ in anything else: the page then starts a whole new experiment.
    pub fn extend(&mut self, settings: TrainSettings) -> bool {
        self.extend_part(settings, Part::WHOLE, None)
    }

    /// [`extend`](Self::extend) for the extension runs `part` owns. A part without the
    /// trained RoPE run takes its weights from `rope` (the RoPE run's params and whether it
    /// diverged, as the part that trained it reported them); without them, false.
    pub fn extend_part(
        &mut self,
        settings: TrainSettings,
        part: Part,
        rope: Option<(&[f32], bool)>,
    ) -> bool {
        if settings.base() != self.settings.base() || self.setup.is_some() || part != self.part {
            return false;
        }
        let mine = part.owned(&settings);
        let added: Vec<(usize, TrainScheme)> = settings
            .runs()
            .into_iter()
            .enumerate()
            .filter(|&(i, sc)| sc.extended.is_some() && mine.get(i).copied().unwrap_or(false))
            .collect();
        let rope_scheme = TrainScheme::of(Scheme::Rope);
        let has_rope = self.runs.iter().any(|r| r.scheme == rope_scheme);
        let mut adopted = None;
        if !added.is_empty() && !has_rope {
            let Some(index) = settings.runs().iter().position(|&sc| sc == rope_scheme) else {
                return false;
            };
            let mut r = Run::at(&settings, rope_scheme, index, true);
            match rope {
                Some((params, diverged)) if params.len() == r.params.len() => {
                    r.params.copy_from_slice(params);
                    r.status = if diverged {
                        Status::Diverged { step: 0 }
                    } else {
                        Status::Done
                    };
                }
                _ => return false,
            }
            adopted = Some(r);
        }
        self.busy = None;
        self.runs.retain(|r| r.scheme.extended.is_none());
        self.runs.extend(adopted);
        self.settings = settings;
        let s = &self.settings;
        let added: Vec<Run> = added
            .into_iter()
            .map(|(i, sc)| Run::at(s, sc, i, false))
            .collect();
        self.runs.extend(added);
        self.runs.sort_by_key(|r| r.index);
        self.tune_set = tune_set(s);
        true
    }

    /// Goes on with one piece of work; `Some` (the same work, further on) when `go` stopped it.
    fn work_on(&mut self, busy: Busy, go: &mut dyn FnMut(u64) -> bool) -> Option<Busy> {
        let s = &self.settings;
        match busy {
            Busy::Step {
                run,
                batch,
                mut stage,
            } => {
                let r = &mut self.runs[run];
                loop {
                    if let StepStage::Curve(ref mut eval, loss) = stage {
                        let set = if r.scheme.extended.is_some() {
                            &self.tune_set
                        } else {
                            &self.curve_set
                        };
                        let st = r.evaluate_part(set, &mut self.tape, eval, go);
                        let Some(result) = st else {
                            return Some(Busy::Step { run, batch, stage });
                        };
                        r.finish_step(s, loss, result.ok());
                        self.turn = run + 1;
                        return None;
                    }
                    match r.step_part(s, &batch, &mut self.tape, &mut stage, go) {
                        None => return Some(Busy::Step { run, batch, stage }),
                        Some(StepEnd::Diverged) => {
                            self.turn = run + 1;
                            return None;
                        }
                        Some(StepEnd::Stepped(loss)) if !r.measures_curve(s) => {
                            r.finish_step(s, loss, None);
                            self.turn = run + 1;
                            return None;
                        }
                        // The curve's point is measured next, in its own pieces.
                        Some(StepEnd::Stepped(_)) => {
                            if !go(0) {
                                return Some(Busy::Step { run, batch, stage });
                            }
                        }
                    }
                }
            }
            Busy::Test { run, mut eval } => {
                let r = &mut self.runs[run];
                let count = heldout_size(s.task);
                while let Some(c) = r.cell_to_test(count) {
                    if eval.next == 0 && eval.batch.is_none() {
                        eval.next = r.cells[c].examples;
                        r.run_at(s, r.cells[c].length);
                    }
                    let heldout = &self.heldout[c];
                    let Some(result) =
                        r.evaluate_batch(Some(s.task), heldout, &mut self.tape, &mut eval, go)
                    else {
                        return Some(Busy::Test { run, eval });
                    };
                    let cell = &mut r.cells[c];
                    match result {
                        Ok((st, scan)) => {
                            cell.correct += st.correct;
                            cell.counted += st.counted;
                            cell.rival += scan.rival;
                            for (d, add) in cell.depths.iter_mut().zip(scan.depths) {
                                d.0 += add.0;
                                d.1 += add.1;
                            }
                            cell.examples = eval.next.min(count);
                        }
                        Err(e) => cell.missing = Some(e),
                    }
                    if cell.examples >= count || cell.missing.is_some() {
                        eval = Eval::default();
                    }
                    if !go(0) {
                        return Some(Busy::Test { run, eval });
                    }
                }
                r.status = Status::Done;
                None
            }
        }
    }

    /// Runs to the end (native tests and benchmarks).
    pub fn run_to_end(&mut self) {
        while self.advance(&mut |_| true) {}
    }

    /// Work done and in all, in the cost units of [`planned_work`]: the progress bar and the
    /// time left at the pace so far.
    pub fn work(&self) -> (f64, f64) {
        let s = &self.settings;
        let (mut done, mut total) = (0.0, 0.0);
        for r in self.shown() {
            let cost = RunCost::new(s, r.scheme);
            let steps = run_steps(s, r.scheme);
            let train = cost.training(steps, steps);
            let test = cost.testing();
            total += train + test;
            done += match r.status {
                Status::Waiting => 0.0,
                Status::Training => cost.training(r.step, steps),
                Status::Diverged { .. } => train + test,
                _ => {
                    let tested: f64 = r
                        .cells
                        .iter()
                        .zip(&cost.test)
                        .filter_map(|(c, t)| t.map(|t| c.examples as f64 * t))
                        .sum();
                    train + tested
                }
            };
        }
        (done, total)
    }

    pub fn finished(&self) -> bool {
        self.runs
            .iter()
            .all(|r| matches!(r.status, Status::Done | Status::Diverged { .. }))
    }

    /// Each trained model's answer to "the dog bites the man ?" and "the man bites the dog ?"
    /// (agent task only).
    pub fn dog_and_man(&mut self) -> Vec<Vec<Answer>> {
        if self.settings.task != Task::Agent {
            return Vec::new();
        }
        let sentences = dog_and_man().to_vec();
        self.runs
            .iter_mut()
            .map(|r| r.answers(&sentences))
            .collect()
    }
}
