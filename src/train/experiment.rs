//! An experiment: one task, several position schemes, the same initial weights and the same
//! batches for all of them, trained a step at a time (round robin, so every curve grows
//! together) and then tested on held-out sets at 1, 2, 4 and 8 times the training length.

use super::model::{Batch, Model, ModelConfig, Position, Stats, Tape};
use super::optim::{schedule, AdamW};
use super::settings::{TrainScheme, TrainSettings};
use super::tasks::{dog_and_man, Example, Task};
use crate::math::rng::SplitMix64;

/// Sequences per training step.
pub const BATCH: usize = 16;
/// Held-out sequences per cell of the results table.
pub const HELDOUT: usize = 1000;
/// Held-out sequences behind each point of the accuracy curve.
pub const CURVE_EXAMPLES: usize = 200;
/// Points on the accuracy curve (evaluated every steps/20 steps).
pub const CURVE_POINTS: usize = 20;
/// Test lengths as multiples of the training length.
pub const LENGTH_FACTORS: [usize; 4] = [1, 2, 4, 8];
/// Sequences per evaluation slice: small enough to return within a few milliseconds.
const EVAL_SLICE: usize = 50;

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
    tape: Tape<f32>,
    pub step: usize,
    pub curve: Vec<Point>,
    pub status: Status,
    pub cells: Vec<Cell>,
}

/// Everything an experiment holds.
#[derive(Clone, Debug)]
pub struct Experiment {
    pub settings: TrainSettings,
    pub runs: Vec<Run>,
    curve_set: Vec<Example>,
    /// Held-out sets, one per test length.
    pub heldout: Vec<Vec<Example>>,
}

/// The model a scheme trains, for these settings.
pub fn model_config(s: &TrainSettings, scheme: TrainScheme) -> ModelConfig {
    let position = match scheme {
        TrainScheme::None | TrainScheme::NoneCausal => Position::None,
        TrainScheme::Sinusoidal => Position::Sinusoidal {
            variant: s.variant,
            base: s.base,
        },
        TrainScheme::Learned => Position::Learned,
        TrainScheme::Rope => Position::Rope {
            base: s.base,
            pairing: s.rope_pairing,
        },
        TrainScheme::Alibi => Position::Alibi,
        TrainScheme::T5 => Position::T5 {
            num_buckets: s.t5_buckets,
            max_distance: s.t5_max_distance,
        },
    };
    ModelConfig {
        vocab: s.task.vocab().len(),
        d_model: s.d_model,
        heads: s.heads,
        layers: s.layers,
        max_len: s.train_len,
        causal: s.task.causal() || scheme == TrainScheme::NoneCausal,
        position,
    }
}

/// The longest sequence any test uses.
pub fn longest_test(s: &TrainSettings) -> usize {
    s.train_len * LENGTH_FACTORS[LENGTH_FACTORS.len() - 1]
}

/// Packs examples into a batch.
pub fn batch_of(examples: &[Example]) -> Batch {
    let mut b = Batch::new();
    for e in examples {
        b.push(&e.tokens, &e.targets);
    }
    b
}

impl Run {
    fn new(s: &TrainSettings, scheme: TrainScheme) -> Run {
        let model = Model::new(model_config(s, scheme), longest_test(s));
        let params = model.init(s.seed);
        let total = model.layout.total;
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
            // The same stream for every scheme: they all see the same batches.
            data: SplitMix64::new(s.seed ^ 0x0DA7_A000),
            tape: Tape::default(),
            step: 0,
            curve: Vec::new(),
            status: Status::Training,
            cells,
        }
    }

    /// Forward over examples (in slices), returning correct and counted.
    pub fn evaluate(&mut self, examples: &[Example]) -> Result<Stats, String> {
        let mut total = Stats::default();
        for chunk in examples.chunks(EVAL_SLICE) {
            let st = self
                .model
                .forward(&self.params, &batch_of(chunk), &mut self.tape)?;
            total.correct += st.correct;
            total.counted += st.counted;
        }
        Ok(total)
    }

    /// One optimiser step on the next batch.
    /// The next training batch: `BATCH` sequences of lengths drawn up to the training length,
    /// or all of exactly `fixed` tokens (for benchmarks that compare like with like).
    pub fn next_batch(&mut self, s: &TrainSettings, fixed: Option<usize>) -> Batch {
        let examples: Vec<Example> = (0..BATCH)
            .map(|_| match fixed {
                Some(n) => s.task.sample(&mut self.data, n),
                None => s.task.sample_train(&mut self.data, s.train_len),
            })
            .collect();
        batch_of(&examples)
    }

    /// One optimiser step on `batch`: forward, backward, AdamW at the scheduled rate. Returns
    /// the batch's loss, or `None` (and marks the run diverged) when the loss or the weights
    /// stop being finite or the loss grows past any sensible value.
    pub fn optimise(&mut self, s: &TrainSettings, batch: &Batch) -> Option<f64> {
        let diverged = |r: &mut Run| {
            r.status = Status::Diverged { step: r.step };
            None
        };
        let Ok(stats) = self.model.forward(&self.params, batch, &mut self.tape) else {
            return diverged(self);
        };
        let limit = (4.0 * (self.model.config.vocab as f64).ln()).max(10.0);
        if !stats.loss.is_finite() || stats.loss > limit {
            return diverged(self);
        }
        self.grads.fill(0.0);
        self.model
            .backward(&self.params, batch, &self.tape, &mut self.grads);
        let lr = schedule(s.lr, self.step, s.steps);
        let norm = self.opt.step(&mut self.params, &mut self.grads, lr);
        if !norm.is_finite() || self.params.iter().any(|p| !p.is_finite()) {
            return diverged(self);
        }
        self.step += 1;
        Some(stats.loss)
    }

    fn train_step(&mut self, s: &TrainSettings, curve_set: &[Example]) {
        let batch = self.next_batch(s, None);
        let Some(loss) = self.optimise(s, &batch) else {
            return;
        };
        let every = (s.steps / CURVE_POINTS).max(1);
        let accuracy = (self.step % every == 0 || self.step == s.steps)
            .then(|| self.evaluate(curve_set).ok())
            .flatten()
            .filter(|st| st.counted > 0)
            .map(|st| st.correct as f64 / st.counted as f64);
        self.curve.push(Point {
            step: self.step,
            loss,
            accuracy,
        });
        if self.step >= s.steps {
            self.status = Status::Testing;
        }
    }

    /// Like [`Run::evaluate`], also counting the wrong answers that name the task's rival.
    pub fn evaluate_rivals(
        &mut self,
        task: Task,
        examples: &[Example],
    ) -> Result<(Stats, usize), String> {
        let mut total = Stats::default();
        let mut rival = 0;
        for chunk in examples.chunks(EVAL_SLICE) {
            let st = self
                .model
                .forward(&self.params, &batch_of(chunk), &mut self.tape)?;
            total.correct += st.correct;
            total.counted += st.counted;
            let mut row = 0;
            for e in chunk {
                for target in &e.targets {
                    if let Some(t) = *target {
                        let (answer, _) = self.model.prediction(&self.tape, row);
                        if answer != t && task.rival(&e.tokens, t) == Some(answer) {
                            rival += 1;
                        }
                    }
                    row += 1;
                }
            }
        }
        Ok((total, rival))
    }

    /// Evaluates the next slice of the first unfinished cell; false when the table is full.
    fn test_slice(&mut self, task: Task, heldout: &[Vec<Example>]) -> bool {
        let Some(c) = self
            .cells
            .iter()
            .position(|c| c.missing.is_none() && c.examples < HELDOUT)
        else {
            self.status = Status::Done;
            return false;
        };
        let from = self.cells[c].examples;
        let to = (from + EVAL_SLICE).min(heldout[c].len());
        match self.evaluate_rivals(task, &heldout[c][from..to]) {
            Ok((st, rival)) => {
                let cell = &mut self.cells[c];
                cell.correct += st.correct;
                cell.counted += st.counted;
                cell.rival += rival;
                cell.examples = to;
            }
            Err(e) => self.cells[c].missing = Some(e),
        }
        true
    }

    /// The model's answer at the last position of each sequence, with its probability.
    pub fn answers(&mut self, sequences: &[Vec<u32>]) -> Vec<Answer> {
        sequences
            .iter()
            .map(|tokens| {
                let mut b = Batch::new();
                b.push(tokens, &vec![None; tokens.len()]);
                match self.model.forward(&self.params, &b, &mut self.tape) {
                    Ok(_) => self.model.prediction(&self.tape, tokens.len() - 1),
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
        self.model.forward(&self.params, &b, &mut self.tape).ok()?;
        let (t, c) = (tokens.len(), &self.model.config);
        let mut maps = Vec::with_capacity(c.layers * c.heads * t * t);
        for l in 0..c.layers {
            for h in 0..c.heads {
                maps.extend_from_slice(self.tape.attention(l, 0, h, t)?);
            }
        }
        let preds = (0..t)
            .map(|i| self.model.prediction(&self.tape, i))
            .collect();
        Some((maps, preds))
    }

    /// A named tensor of the trained weights.
    pub fn tensor(&self, name: &str) -> Option<(&[f32], &[usize])> {
        let t = self.model.layout.tensor(name)?;
        Some((&self.params[t.range()], &t.shape))
    }
}

impl Experiment {
    pub fn new(settings: TrainSettings) -> Experiment {
        let s = &settings;
        let runs = s.schemes.iter().map(|&sc| Run::new(s, sc)).collect();
        let curve_set = s
            .task
            .heldout(s.seed ^ 0xC0_0000, s.train_len, CURVE_EXAMPLES);
        let heldout = LENGTH_FACTORS
            .iter()
            .map(|f| s.task.heldout(s.seed, f * s.train_len, HELDOUT))
            .collect();
        Experiment {
            settings,
            runs,
            curve_set,
            heldout,
        }
    }

    /// One unit of work: a training step for every scheme still training, or else one slice
    /// of held-out testing. Returns false when everything is done.
    pub fn tick(&mut self) -> bool {
        let s = &self.settings;
        let mut trained = false;
        for run in &mut self.runs {
            if run.status == Status::Training {
                run.train_step(s, &self.curve_set);
                trained = true;
            }
        }
        if trained {
            return true;
        }
        for run in &mut self.runs {
            if run.status == Status::Testing && run.test_slice(s.task, &self.heldout) {
                return true;
            }
        }
        false
    }

    /// Runs to the end (native tests and benchmarks).
    pub fn run_to_end(&mut self) {
        while self.tick() {}
    }

    /// Steps taken over all schemes, and steps asked for.
    pub fn progress(&self) -> (usize, usize) {
        let total = self.settings.steps * self.runs.len();
        let done = self
            .runs
            .iter()
            .map(|r| match r.status {
                Status::Training => r.step,
                _ => self.settings.steps,
            })
            .sum();
        (done, total)
    }

    /// Work done and in all, in token passes (a training token counts three: forward and
    /// backward), for the time-left estimate.
    pub fn work(&self) -> (f64, f64) {
        let s = &self.settings;
        let per_step = 3.0 * BATCH as f64 * (s.task.min_length() + s.train_len) as f64 / 2.0;
        let (mut done, mut total) = (0.0, 0.0);
        for r in &self.runs {
            let test: f64 = r
                .cells
                .iter()
                .filter(|c| c.missing.is_none())
                .map(|c| (HELDOUT * c.length) as f64)
                .sum();
            let train = per_step * s.steps as f64;
            total += train + test;
            done += match r.status {
                Status::Training => per_step * r.step as f64,
                Status::Diverged { .. } => train + test,
                _ => {
                    let tested: f64 = r
                        .cells
                        .iter()
                        .filter(|c| c.missing.is_none())
                        .map(|c| (c.examples * c.length) as f64)
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
