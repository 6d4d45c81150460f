//! What an experiment is asked to do, the limits every value is held to, and the text form it
//! travels in (the page's link and the message to the training worker use the same keys, and
//! both ends read it through the same checks).

use super::tasks::Task;
use crate::format::plain;
use crate::limit::Limit;
use crate::math::rope::RopePairing;
use crate::math::sinusoidal::Variant;
use crate::schemes::kind::Scheme;
use crate::schemes::rope_settings::Extension;

/// A position scheme as trained: one of the app's schemes, in the order of [`Scheme::ALL`],
/// and "none" once more with a causal mask (a decoder's mask alone leaks order). Derived from the
/// app's list, so a scheme added there is trained here too; how it enters the model is the
/// scheme's own `trained` (see `schemes::trained`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TrainScheme {
    pub scheme: Scheme,
    /// Trained with a causal mask even where the task is an encoder's ("none + causal mask").
    pub masked: bool,
    /// A RoPE model stretched past its training length after training (see [`Method`]).
    pub extended: Option<Extended>,
}

/// A context-extension method applied to the trained RoPE model: as it stands ("zero-shot"),
/// or after a short fine-tune with the method in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Extended {
    pub method: Method,
    pub tuned: bool,
}

/// How a RoPE model trained at length L is run on longer sequences. Every method but plain
/// extrapolation and DroPE is the RoPE views' own [`RopeSettings::rope`] (one implementation of
/// each formula), at the experiment's factor, with L as the original length.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Nothing changes: positions past L get angles the model never saw.
    Extrapolate,
    /// Position interpolation (Chen et al. 2023): m → m/s.
    Pi,
    /// NTK-aware scaling: θ → θ·s^(d/(d−2)).
    Ntk,
    /// Dynamic NTK: the base grows with the current length past L.
    Dynamic,
    /// YaRN (Peng et al. 2023): NTK-by-parts and the attention factor 0.1·ln s + 1.
    Yarn,
    /// Llama 3.1's by-parts rule.
    Llama3,
    /// LongRoPE-style: a factor per pair (here set by a rule, not searched) and the attention
    /// factor √(1 + ln s / ln L).
    LongRope,
    /// DroPE (2025): RoPE removed after training (cos 1, sin 0), recalibrated at length L.
    Drope,
    /// The `rope_scaling` of a config.json the student pasted (its own method and numbers; the
    /// trained model's θ, head width and length L stand in for the config's).
    Config,
}

impl Method {
    pub const ALL: [Method; 8] = [
        Method::Extrapolate,
        Method::Pi,
        Method::Ntk,
        Method::Dynamic,
        Method::Yarn,
        Method::Llama3,
        Method::LongRope,
        Method::Drope,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Method::Extrapolate => "extrapolate",
            Method::Pi => "pi",
            Method::Ntk => "ntk",
            Method::Dynamic => "dynamic",
            Method::Yarn => "yarn",
            Method::Llama3 => "llama3",
            Method::LongRope => "longrope",
            Method::Drope => "drope",
            Method::Config => "config",
        }
    }

    pub fn from_id(id: &str) -> Option<Method> {
        Method::ALL
            .into_iter()
            .chain([Method::Config])
            .find(|m| m.id() == id)
    }

    /// The RoPE views' extension of the same name (`None` for DroPE, which removes RoPE).
    pub fn extension(self) -> Option<Extension> {
        Some(match self {
            Method::Extrapolate => Extension::None,
            Method::Pi => Extension::Interpolation,
            Method::Ntk => Extension::Ntk,
            Method::Dynamic => Extension::Dynamic,
            Method::Yarn => Extension::Yarn,
            Method::Llama3 => Extension::Llama3,
            Method::LongRope => Extension::LongRope,
            Method::Drope | Method::Config => return None,
        })
    }

    /// Short name, for tables and legends.
    pub fn short(self) -> &'static str {
        match self {
            Method::Extrapolate => "extrapolate",
            Method::Pi => "PI",
            Method::Ntk => "NTK",
            Method::Dynamic => "dynamic NTK",
            Method::Yarn => "YaRN",
            Method::Llama3 => "llama3",
            Method::LongRope => "LongRoPE",
            Method::Drope => "DroPE",
            Method::Config => "your config",
        }
    }

    /// The row's label, zero-shot or fine-tuned.
    pub fn label(self, tuned: bool) -> &'static str {
        match (self, tuned) {
            (Method::Extrapolate, false) => "RoPE, extrapolated",
            (Method::Extrapolate, true) => "RoPE, extrapolated + tuned",
            (Method::Pi, false) => "RoPE + PI",
            (Method::Pi, true) => "RoPE + PI, tuned",
            (Method::Ntk, false) => "RoPE + NTK",
            (Method::Ntk, true) => "RoPE + NTK, tuned",
            (Method::Dynamic, false) => "RoPE + dynamic NTK",
            (Method::Dynamic, true) => "RoPE + dynamic NTK, tuned",
            (Method::Yarn, false) => "RoPE + YaRN",
            (Method::Yarn, true) => "RoPE + YaRN, tuned",
            (Method::Llama3, false) => "RoPE + llama3",
            (Method::Llama3, true) => "RoPE + llama3, tuned",
            (Method::LongRope, false) => "RoPE + LongRoPE",
            (Method::LongRope, true) => "RoPE + LongRoPE, tuned",
            (Method::Drope, false) => "RoPE dropped (DroPE)",
            (Method::Drope, true) => "DroPE, recalibrated",
            (Method::Config, false) => "RoPE + your config",
            (Method::Config, true) => "RoPE + your config, tuned",
        }
    }

    /// Where the method comes from.
    pub fn source(self) -> &'static str {
        match self {
            Method::Extrapolate => "plain RoPE (Su et al. 2021) run past its training length",
            Method::Pi => "Chen et al. 2023, arXiv 2306.15595",
            Method::Ntk => "bloc97 2023 (“NTK-aware scaled RoPE”)",
            Method::Dynamic => "emozilla 2023; Hugging Face “dynamic”",
            Method::Yarn => "Peng et al. 2023, arXiv 2309.00071",
            Method::Llama3 => "Llama 3.1 (Meta 2024); Hugging Face “llama3”",
            Method::LongRope => "Ding et al. 2024, arXiv 2402.13753 (factors by rule here)",
            Method::Drope => "DroPE 2025, arXiv 2512.12167",
            Method::Config => "the rope_scaling of the config.json pasted below",
        }
    }

    /// Whether the rotation depends on the current length (then each test length gets its own
    /// tables): dynamic NTK, and LongRoPE's short and long factors.
    pub fn by_length(self) -> bool {
        matches!(self, Method::Dynamic | Method::LongRope | Method::Config)
    }
}

impl TrainScheme {
    /// No position information, but a causal mask.
    pub const NONE_CAUSAL: TrainScheme = TrainScheme {
        scheme: Scheme::None,
        masked: true,
        extended: None,
    };

    /// A scheme as the app has it.
    pub const fn of(scheme: Scheme) -> TrainScheme {
        TrainScheme {
            scheme,
            masked: false,
            extended: None,
        }
    }

    /// The trained RoPE model with `method` applied (`tuned`: then fine-tuned).
    pub const fn extended(method: Method, tuned: bool) -> TrainScheme {
        TrainScheme {
            scheme: Scheme::Rope,
            masked: false,
            extended: Some(Extended { method, tuned }),
        }
    }

    /// Every scheme the trainer compares: none, none with a causal mask, then every other
    /// scheme of a line of tokens ([`Scheme::on_a_line`]) in its order.
    pub fn all() -> Vec<TrainScheme> {
        let mut out = vec![TrainScheme::of(Scheme::None), TrainScheme::NONE_CAUSAL];
        out.extend(
            Scheme::on_a_line()
                .filter(|s| *s != Scheme::None)
                .map(TrainScheme::of),
        );
        out
    }

    pub fn id(self) -> String {
        match self.extended {
            Some(e) => format!("rope+{}{}", e.method.id(), if e.tuned { "+ft" } else { "" }),
            None if self.masked => "causal".into(),
            None => self.scheme.id().into(),
        }
    }

    /// A trained scheme's id, or an extension's (`rope+pi`, `rope+pi+ft`).
    pub fn from_id(id: &str) -> Option<TrainScheme> {
        if let Some(rest) = id.strip_prefix("rope+") {
            let (method, tuned) = match rest.strip_suffix("+ft") {
                Some(m) => (m, true),
                None => (rest, false),
            };
            return Method::from_id(method).map(|m| TrainScheme::extended(m, tuned));
        }
        TrainScheme::all().into_iter().find(|s| s.id() == id)
    }

    /// Whether this is a baseline without position information (drawn dashed).
    pub fn is_baseline(self) -> bool {
        self.scheme == Scheme::None && self.extended.is_none()
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
/// The factor s a context-extension method stretches RoPE by.
pub const EXTEND_FACTOR: Limit = Limit {
    name: "extension factor",
    min: 1.0,
    max: 16.0,
    integer: false,
    log: true,
};
/// Fine-tuning steps after the extension (0: zero-shot only).
pub const TUNE_STEPS: Limit = Limit {
    name: "fine-tuning steps",
    min: 0.0,
    max: 1_000.0,
    integer: true,
    log: false,
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
    /// Context-extension methods applied to the trained RoPE model afterwards, in the order of
    /// [`Method::ALL`] (none: no extension step).
    pub extend: Vec<Method>,
    /// The factor s of every method; the fine-tune runs at s·L tokens (at most the longest
    /// test), DroPE's recalibration at L.
    pub factor: f64,
    /// Fine-tuning steps for each method (0: zero-shot only).
    pub tune_steps: usize,
    /// A pasted config.json (or its `rope_scaling` alone), on one line: applied to the trained
    /// RoPE model as one more method (empty: none).
    pub rope_config: String,
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
            extend: Vec::new(),
            factor: 4.0,
            tune_steps: 60,
            rope_config: String::new(),
        }
    }
}

/// The keys the Train view owns in a link (the sidebar's own keys carry the rest).
pub const KEYS: [&str; 13] = [
    "task",
    "schemes",
    "layers",
    "attn_heads",
    "width",
    "train_len",
    "steps",
    "lr",
    "train_seed",
    "extend",
    "extend_factor",
    "tune_steps",
    "rope_config",
];

/// The keys of the sidebar settings an experiment also uses (for the worker's message).
const SHARED_KEYS: [&str; 5] = ["base", "variant", "rope_pairing", "buckets", "max_distance"];

impl TrainSettings {
    /// The runs of the experiment: the schemes trained, then (when it extends RoPE) each
    /// method zero-shot and, with fine-tuning steps, each method tuned.
    pub fn runs(&self) -> Vec<TrainScheme> {
        let mut out = self.schemes.clone();
        if self.extends() {
            for tuned in [false, true] {
                if tuned && self.tune_steps == 0 {
                    continue;
                }
                out.extend(
                    self.methods()
                        .into_iter()
                        .map(|m| TrainScheme::extended(m, tuned)),
                );
            }
        }
        out
    }

    /// The methods applied: the chosen ones, then a pasted config's.
    pub fn methods(&self) -> Vec<Method> {
        let mut out = self.extend.clone();
        if !self.rope_config.is_empty() {
            out.push(Method::Config);
        }
        out
    }

    /// Whether the experiment extends its trained RoPE model (it needs RoPE among the schemes).
    pub fn extends(&self) -> bool {
        !self.methods().is_empty() && self.schemes.contains(&TrainScheme::of(Scheme::Rope))
    }

    /// The length the extended models are fine-tuned at: s·L, at most the longest test.
    pub fn tune_len(&self) -> usize {
        let longest = self.train_len * 8;
        ((self.factor * self.train_len as f64).round() as usize).clamp(self.train_len, longest)
    }

    /// The same experiment without its extension step: what is trained before it.
    pub fn base(&self) -> TrainSettings {
        TrainSettings {
            extend: Vec::new(),
            factor: TrainSettings::default().factor,
            tune_steps: TrainSettings::default().tune_steps,
            rope_config: String::new(),
            ..self.clone()
        }
    }

    /// Whether two experiments' messages train the same models (they may differ in the
    /// extension step alone, which keeps the trained models and re-extends them).
    pub fn same_training(a: &str, b: &str) -> bool {
        a == b || TrainSettings::from_message(a).base() == TrainSettings::from_message(b).base()
    }

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
                let (ordered, unknown) = read_ids(value, &TrainScheme::all(), |id| {
                    TrainScheme::from_id(id).map(|s| vec![s])
                });
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
            "extend" => {
                let (ordered, unknown) = read_ids(value, &Method::ALL, |id| match id {
                    "all" => Some(Method::ALL.to_vec()),
                    _ => Method::from_id(id).map(|m| vec![m]),
                });
                if !unknown.is_empty() {
                    note = Some(format!(
                        "extend: ignored {}; the methods are {}.",
                        unknown.join(", "),
                        Method::ALL.map(Method::id).join(", ")
                    ));
                }
                self.extend = ordered;
            }
            "extend_factor" => (self.factor, note) = number(EXTEND_FACTOR)?,
            "tune_steps" => (self.tune_steps, note) = whole(number(TUNE_STEPS)?),
            "rope_config" => self.rope_config = read_rope_config(value)?,
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

    /// The text the link holds for `key` (one of [`KEYS`]).
    pub fn value(&self, key: &str) -> String {
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
            "extend" => self
                .extend
                .iter()
                .map(|m| m.id())
                .collect::<Vec<_>>()
                .join(","),
            "extend_factor" => plain(self.factor),
            "tune_steps" => self.tune_steps.to_string(),
            "rope_config" => self.rope_config.clone(),
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

/// The longest pasted config kept (Phi-3's two lists of 48 factors fit several times over).
pub const MAX_ROPE_CONFIG: usize = 4000;

/// A pasted config.json for the extension step: it must read as the RoPE config paste box
/// reads it and name an extension method; kept on one line (it travels in the worker's
/// message and the link). Empty clears it.
pub fn read_rope_config(value: &str) -> Result<String, String> {
    let one_line: String = value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let text = one_line.trim();
    if text.is_empty() {
        return Ok(String::new());
    }
    if text.len() > MAX_ROPE_CONFIG {
        return Err(format!(
            "rope_config: {} characters, more than the {MAX_ROPE_CONFIG} kept; paste only its \
             rope_scaling.",
            text.len()
        ));
    }
    if text.contains('&') {
        return Err("rope_config: a config.json has no “&”; kept the current one.".into());
    }
    let config =
        crate::rope_config::RopeConfig::from_json(text).map_err(|e| format!("rope_config: {e}"))?;
    match config.scaling {
        Some(c) if c.method != crate::rope_config::Method::None => Ok(text.to_string()),
        _ => Err(
            "rope_config: it has no rope_scaling (or rope_type default): nothing to apply to the \
             trained model."
                .into(),
        ),
    }
}

/// A comma-separated list of ids: the ones named, in the order of `all` (each once), and the
/// parts that name nothing, quoted.
fn read_ids<T: PartialEq + Copy>(
    value: &str,
    all: &[T],
    named: impl Fn(&str) -> Option<Vec<T>>,
) -> (Vec<T>, Vec<String>) {
    let mut chosen = Vec::new();
    let mut unknown = Vec::new();
    for part in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        match named(part) {
            Some(xs) => chosen.extend(xs),
            None => unknown.push(short(part)),
        }
    }
    let ordered = all.iter().copied().filter(|x| chosen.contains(x)).collect();
    (ordered, unknown)
}

fn whole((v, note): (f64, Option<String>)) -> (usize, Option<String>) {
    (v as usize, note)
}

fn short(value: &str) -> String {
    crate::format::quoted(value)
}
