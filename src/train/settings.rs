//! What an experiment is asked to do, the limits every value is held to, and the text form it
//! travels in (the page's link and the message to the training worker use the same keys, and
//! both ends read it through the same checks).

use super::tasks::Task;
use crate::format::plain;
use crate::limit::Limit;
use crate::math::rope::RopePairing;
use crate::math::sinusoidal::Variant;
use crate::schemes::kind::Scheme;

/// A position scheme as trained: one of the app's schemes, in the order of [`Scheme::ALL`],
/// and "none" once more with a causal mask (a decoder's mask alone leaks order). Derived from the
/// app's list, so a scheme added there is trained here too; how it enters the model is the
/// scheme's own `trained` (see `schemes::trained`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrainScheme {
    pub scheme: Scheme,
    /// Trained with a causal mask even where the task is an encoder's ("none + causal mask").
    pub masked: bool,
}

impl TrainScheme {
    /// No position information, but a causal mask.
    pub const NONE_CAUSAL: TrainScheme = TrainScheme {
        scheme: Scheme::None,
        masked: true,
    };

    /// A scheme as the app has it.
    pub const fn of(scheme: Scheme) -> TrainScheme {
        TrainScheme {
            scheme,
            masked: false,
        }
    }

    /// Every scheme the trainer compares: none, none with a causal mask, then every other
    /// scheme of [`Scheme::ALL`] in its order.
    pub fn all() -> Vec<TrainScheme> {
        let mut out = vec![TrainScheme::of(Scheme::None), TrainScheme::NONE_CAUSAL];
        out.extend(
            Scheme::ALL
                .into_iter()
                .filter(|s| *s != Scheme::None)
                .map(TrainScheme::of),
        );
        out
    }

    pub fn id(self) -> &'static str {
        if self.masked {
            "causal"
        } else {
            self.scheme.id()
        }
    }

    pub fn from_id(id: &str) -> Option<TrainScheme> {
        TrainScheme::all().into_iter().find(|s| s.id() == id)
    }

    /// Whether this is a baseline without position information (drawn dashed).
    pub fn is_baseline(self) -> bool {
        self.scheme == Scheme::None
    }
}

pub const LAYERS: Limit = Limit {
    name: "layers",
    min: 1.0,
    max: 4.0,
    integer: true,
    log: false,
};
pub const HEADS: Limit = Limit {
    name: "heads",
    min: 1.0,
    max: 4.0,
    integer: true,
    log: false,
};
pub const WIDTH: Limit = Limit {
    name: "d_model",
    min: 16.0,
    max: 128.0,
    integer: true,
    log: true,
};
pub const TRAIN_LENGTH: Limit = Limit {
    name: "training length",
    min: 4.0,
    max: 64.0,
    integer: true,
    log: false,
};
pub const STEPS: Limit = Limit {
    name: "steps",
    min: 10.0,
    max: 10_000.0,
    integer: true,
    log: true,
};
pub const LEARNING_RATE: Limit = Limit {
    name: "learning rate",
    min: 1e-5,
    max: 10.0,
    integer: false,
    log: true,
};
pub const TRAIN_SEED: Limit = Limit {
    name: "seed",
    min: 0.0,
    max: 9_999.0,
    integer: true,
    log: false,
};

/// Everything an experiment depends on.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainSettings {
    pub task: Task,
    /// The schemes compared, in the order of [`TrainScheme::all`], at least one (by default
    /// all of them).
    pub schemes: Vec<TrainScheme>,
    pub layers: usize,
    pub heads: usize,
    /// A multiple of 2·heads (RoPE rotates pairs inside each head).
    pub d_model: usize,
    /// Longest training sequence; the learned table's size; tests run at 1, 2, 4, 8 times it.
    pub train_len: usize,
    pub steps: usize,
    /// Peak learning rate.
    pub lr: f64,
    pub seed: u64,
    /// From the app's sidebar: the base (θ for RoPE), the sinusoidal variant, RoPE's pairing,
    /// T5's buckets.
    pub base: f64,
    pub variant: Variant,
    pub rope_pairing: RopePairing,
    pub t5_buckets: usize,
    pub t5_max_distance: usize,
}

impl Default for TrainSettings {
    fn default() -> Self {
        TrainSettings {
            task: Task::Agent,
            schemes: TrainScheme::all(),
            layers: 2,
            heads: 2,
            d_model: 32,
            train_len: 12,
            steps: 400,
            lr: 3e-3,
            seed: 1,
            base: 10_000.0,
            variant: Variant::Paper,
            rope_pairing: RopePairing::RotateHalf,
            t5_buckets: 32,
            t5_max_distance: 128,
        }
    }
}

/// The keys the Train view owns in a link (the sidebar's own keys carry the rest).
pub const KEYS: [&str; 9] = [
    "task",
    "schemes",
    "layers",
    "attn_heads",
    "width",
    "train_len",
    "steps",
    "lr",
    "train_seed",
];

/// The keys of the sidebar settings an experiment also uses (for the worker's message).
const SHARED_KEYS: [&str; 5] = ["base", "variant", "rope_pairing", "buckets", "max_distance"];

impl TrainSettings {
    /// Sets one value from text, clamping numbers into range, then fits the width to the heads.
    /// Returns a note when a value was changed, or an error (and leaves the setting alone) when
    /// it cannot be read.
    pub fn apply(&mut self, key: &str, value: &str) -> Result<Option<String>, String> {
        let note = self.apply_unfitted(key, value)?;
        let fitted = self.fit_width();
        Ok(match (note, fitted) {
            (Some(a), Some(b)) => Some(format!("{a} {b}")),
            (a, b) => a.or(b),
        })
    }

    /// [`apply`](Self::apply) without fitting the width: a link sets the heads and the width
    /// first and fits once.
    pub fn apply_unfitted(&mut self, key: &str, value: &str) -> Result<Option<String>, String> {
        let number = |limit: Limit| -> Result<(f64, Option<String>), String> {
            let a = limit
                .parse(value)
                .map_err(|e| format!("{key}={}: {e}", short(value)))?;
            Ok((
                a.value,
                a.note.map(|n| format!("{key}={}: {n}", short(value))),
            ))
        };
        let mut note = None;
        match key {
            "task" => {
                self.task = Task::from_id(value).ok_or_else(|| {
                    format!(
                        "task={}: not one of {}; kept {}.",
                        short(value),
                        Task::ALL.map(Task::id).join(", "),
                        self.task.id()
                    )
                })?
            }
            "schemes" => {
                let mut chosen = Vec::new();
                let mut unknown = Vec::new();
                for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    match TrainScheme::from_id(part) {
                        Some(s) => chosen.push(s),
                        None => unknown.push(short(part)),
                    }
                }
                let ordered: Vec<TrainScheme> = TrainScheme::all()
                    .into_iter()
                    .filter(|s| chosen.contains(s))
                    .collect();
                if ordered.is_empty() {
                    return Err(format!(
                        "schemes={}: no scheme named; expected some of {}; kept the current ones.",
                        short(value),
                        TrainScheme::all()
                            .into_iter()
                            .map(TrainScheme::id)
                            .collect::<Vec<_>>()
                            .join(", ")
                    ));
                }
                if !unknown.is_empty() {
                    note = Some(format!("schemes: ignored {}.", unknown.join(", ")));
                }
                self.schemes = ordered;
            }
            "layers" => (self.layers, note) = whole(number(LAYERS)?),
            "attn_heads" => (self.heads, note) = whole(number(HEADS)?),
            "width" => (self.d_model, note) = whole(number(WIDTH)?),
            "train_len" => (self.train_len, note) = whole(number(TRAIN_LENGTH)?),
            "steps" => (self.steps, note) = whole(number(STEPS)?),
            "lr" => (self.lr, note) = number(LEARNING_RATE)?,
            "train_seed" => {
                let (v, n) = number(TRAIN_SEED)?;
                self.seed = v as u64;
                note = n;
            }
            "base" => (self.base, note) = number(crate::limit::BASE)?,
            "variant" => {
                self.variant = Variant::from_id(value)
                    .ok_or_else(|| format!("variant={}: unknown.", short(value)))?
            }
            "rope_pairing" => {
                self.rope_pairing = RopePairing::from_id(value)
                    .ok_or_else(|| format!("rope_pairing={}: unknown.", short(value)))?
            }
            "buckets" => (self.t5_buckets, note) = whole(number(crate::limit::T5_BUCKETS)?),
            "max_distance" => {
                (self.t5_max_distance, note) = whole(number(crate::limit::T5_MAX_DISTANCE)?)
            }
            _ => return Err(format!("Ignored the unknown parameter “{}”.", short(key))),
        }
        Ok(note)
    }

    /// Rounds d_model to a multiple of 2·heads (each head rotates whole pairs under RoPE and
    /// all heads have the same width), saying so when it changes.
    pub fn fit_width(&mut self) -> Option<String> {
        let step = 2 * self.heads.max(1);
        let fitted = ((self.d_model + step / 2) / step * step).clamp(
            (WIDTH.min as usize).div_ceil(step) * step,
            WIDTH.max as usize / step * step,
        );
        (fitted != self.d_model).then(|| {
            let note = format!(
                "d_model {} is not a multiple of 2 × {} heads; using {fitted}.",
                self.d_model, self.heads
            );
            self.d_model = fitted;
            note
        })
    }

    /// The values this view owns that differ from the defaults, as `key=value` pairs (values
    /// are URL-safe: ids and plain numbers).
    pub fn link_pairs(&self) -> Vec<(&'static str, String)> {
        let d = TrainSettings::default();
        let mut out = Vec::new();
        for key in KEYS {
            let (mine, default) = (self.value(key), d.value(key));
            if mine != default {
                out.push((key, mine));
            }
        }
        out
    }

    fn value(&self, key: &str) -> String {
        match key {
            "task" => self.task.id().into(),
            "schemes" => self
                .schemes
                .iter()
                .map(|s| s.id())
                .collect::<Vec<_>>()
                .join(","),
            "layers" => self.layers.to_string(),
            "attn_heads" => self.heads.to_string(),
            "width" => self.d_model.to_string(),
            "train_len" => self.train_len.to_string(),
            "steps" => self.steps.to_string(),
            "lr" => plain(self.lr),
            "train_seed" => self.seed.to_string(),
            "base" => plain(self.base),
            "variant" => self.variant.id().into(),
            "rope_pairing" => self.rope_pairing.id().into(),
            "buckets" => self.t5_buckets.to_string(),
            "max_distance" => self.t5_max_distance.to_string(),
            _ => String::new(),
        }
    }

    /// Every value, for the message that starts the worker.
    pub fn to_message(&self) -> String {
        KEYS.iter()
            .chain(SHARED_KEYS.iter())
            .map(|k| format!("{k}={}", self.value(k)))
            .collect::<Vec<_>>()
            .join("&")
    }

    /// Reads a message (or any `key=value&…` text) over the defaults, through the same checks.
    pub fn from_message(text: &str) -> TrainSettings {
        let mut s = TrainSettings::default();
        for part in text.split('&') {
            if let Some((k, v)) = part.split_once('=') {
                let _ = s.apply(k, v);
            }
        }
        s
    }
}

fn whole((v, note): (f64, Option<String>)) -> (usize, Option<String>) {
    (v as usize, note)
}

fn short(value: &str) -> String {
    crate::format::quoted(value)
}
