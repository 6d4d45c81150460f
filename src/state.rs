//! The app's settings and the limits every user-supplied value is held to (the reducer is in
//! `action`).

use crate::math::learned::Learned;
use crate::math::rope::Rope;
use crate::math::rotation::Pairing;
use crate::math::sinusoidal::{Sinusoidal, Variant, Wave};
use crate::math::t5::T5Bias;
use crate::plot::colormap::Palette;
use crate::schemes::grid::{GridSettings, MropeSettings};
use crate::schemes::kind::{Scheme, SchemeSettings};
use crate::train::settings::TrainSettings;

pub use crate::limit::{
    nearest_stop, parse_list, round_significant, Accepted, Limit, ALIBI_HEADS, BASE, D_MODEL,
    LENGTH, SEED, SLIDER_STEPS, T5_BUCKETS, T5_MAX_DISTANCE, TRAINED_LENGTH,
};

/// The views of the app, one per tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum View {
    #[default]
    Matrix,
    Attention,
    Offsets,
    Waves,
    Rotations,
    Norms,
    Addition,
    Compare,
    /// The guided lesson: one step of the story at a time, each with a live view.
    Lesson,
    /// Questions, some answered by setting the sliders.
    Quiz,
    /// Tiny transformers trained in the page, one per scheme.
    Train,
    /// Positions on a grid of image patches: the 2-D schemes of vision transformers.
    Patches,
}

impl View {
    /// In the order of the tabs: the lesson first, the quiz last.
    pub const ALL: [View; 12] = [
        View::Lesson,
        View::Matrix,
        View::Attention,
        View::Offsets,
        View::Waves,
        View::Rotations,
        View::Norms,
        View::Addition,
        View::Compare,
        View::Patches,
        View::Train,
        View::Quiz,
    ];

    /// The identifier used in URLs and element ids.
    pub fn id(self) -> &'static str {
        match self {
            View::Matrix => "heatmap",
            View::Attention => "attention",
            View::Offsets => "offsets",
            View::Waves => "waves",
            View::Rotations => "rotations",
            View::Norms => "norms",
            View::Addition => "addition",
            View::Compare => "compare",
            View::Lesson => "lesson",
            View::Quiz => "quiz",
            View::Train => "train",
            View::Patches => "patches",
        }
    }

    pub fn from_id(id: &str) -> Option<View> {
        View::ALL.into_iter().find(|v| v.id() == id)
    }

    /// The chunk of the app's own wasm that draws the view, where the shell does not: its name,
    /// which is also its file's (`app/split_NAME.wasm`; see `ui::lazy`, which lists the same).
    /// The views few pages open on: the 1-D views but the matrix, the lesson with the quiz, the
    /// 2-D views, and Train.
    pub fn chunk(self) -> Option<&'static str> {
        match self {
            View::Attention => Some("attention"),
            View::Offsets => Some("offsets"),
            View::Waves => Some("waves"),
            View::Rotations => Some("rotations"),
            View::Norms => Some("norms"),
            View::Addition => Some("addition"),
            View::Compare => Some("compare"),
            View::Lesson | View::Quiz => Some("learn"),
            View::Patches => Some("patches"),
            View::Train => Some("train"),
            View::Matrix => None,
        }
    }

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            View::Matrix => "Position matrix",
            View::Attention => "Dog bites man",
            View::Offsets => "By distance",
            View::Waves => "Waves & wavelengths",
            View::Rotations => "Rotations",
            View::Norms => "Norms & scale",
            View::Addition => "Add or concatenate",
            View::Compare => "Compare schemes",
            View::Lesson => "Lesson",
            View::Quiz => "Quiz",
            View::Train => "Train it yourself",
            View::Patches => "Image patches",
        }
    }
}

/// Light or dark colours: following the system, the page the panel is embedded in, or chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ThemeChoice {
    #[default]
    Auto,
    Light,
    Dark,
    /// Embedded: the colours of the page around the frame, as its host script reports them
    /// (the system's until it does, or where there is no script).
    Host,
}

impl ThemeChoice {
    pub const ALL: [ThemeChoice; 4] = [
        ThemeChoice::Auto,
        ThemeChoice::Light,
        ThemeChoice::Dark,
        ThemeChoice::Host,
    ];

    /// The choices of the page header's switch (following a host page means nothing there).
    pub const SWITCH: [ThemeChoice; 3] = [ThemeChoice::Auto, ThemeChoice::Light, ThemeChoice::Dark];

    pub fn id(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
            ThemeChoice::Host => "host",
        }
    }

    pub fn from_id(id: &str) -> Option<ThemeChoice> {
        ThemeChoice::ALL.into_iter().find(|t| t.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "System",
            ThemeChoice::Light => "Light",
            ThemeChoice::Dark => "Dark",
            ThemeChoice::Host => "Follow the page",
        }
    }

    /// Whether the colours are dark, given the system's preference and what the host page
    /// said (`None`: no host page, or it said nothing).
    pub fn is_dark(self, system_dark: bool, host_dark: Option<bool>) -> bool {
        match self {
            ThemeChoice::Auto => system_dark,
            ThemeChoice::Light => false,
            ThemeChoice::Dark => true,
            ThemeChoice::Host => host_dark.unwrap_or(system_dark),
        }
    }
}

/// What the offset chart compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum OffsetSeries {
    /// Several anchor positions under the current base.
    #[default]
    Anchors,
    /// The closed form under up to three bases.
    Bases,
}

impl OffsetSeries {
    pub const ALL: [OffsetSeries; 2] = [OffsetSeries::Anchors, OffsetSeries::Bases];

    /// The link's word (`compare=`) and the controls' value.
    pub const fn id(self) -> &'static str {
        match self {
            OffsetSeries::Anchors => "anchors",
            OffsetSeries::Bases => "bases",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            OffsetSeries::Anchors => "anchor positions",
            OffsetSeries::Bases => "bases",
        }
    }

    pub fn from_id(id: &str) -> Option<OffsetSeries> {
        OffsetSeries::ALL.into_iter().find(|s| s.id() == id)
    }
}

/// At most this many anchors, dimensions, or bases in a list.
pub const MAX_ANCHORS: usize = 5;
pub const MAX_DIMS: usize = 6;
pub const MAX_BASES: usize = 3;

/// Everything the controls set. The views derive all they draw from this.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Width of each encoding vector (columns of the heatmap).
    pub d_model: usize,
    /// Number of positions (rows of the heatmap).
    pub length: usize,
    /// Base of the geometric progression of wavelengths (10000 in the paper).
    pub base: f64,
    /// Which formula variant builds the matrix.
    pub variant: Variant,
    /// Colour scale of every heatmap.
    pub palette: Palette,
    /// The view on screen.
    pub view: View,
    /// Offset chart: anchor positions; `None` means 0, L/4 and L/2 for the current length.
    pub anchors: Option<Vec<usize>>,
    /// Offset chart and similarity matrix: cosine similarity instead of the dot product.
    pub normalised: bool,
    /// Offset chart: anchors under one base, or the closed form under several bases.
    pub offset_series: OffsetSeries,
    /// Offset chart: the bases compared.
    pub bases: Vec<f64>,
    /// Waves chart: the dimensions drawn; `None` means a default spread.
    pub dims: Option<Vec<usize>>,
    /// Rotations: the position p whose pairs are drawn.
    pub position: usize,
    /// Rotations: the offset k the rotation moves by.
    pub offset: usize,
    /// Rotations: the frequency pair whose matrix M_k is shown.
    pub pair: usize,
    /// Rotations: which columns are read as one (sin, cos) pair.
    pub pairing: Pairing,
    /// Multiply token embeddings by √d_model before adding the encoding, as the paper does.
    pub scale_embeddings: bool,
    /// Attention demo: the two sentences compared (already checked by `parse_sentence`).
    pub sentences: [String; 2],
    /// Attention demo: whether the head is told where each token is.
    pub attention_position: bool,
    /// Attention demo: which sentence (0 = A, 1 = B) the step-by-step follows.
    pub trace: usize,
    /// The position scheme every view shows.
    pub scheme: Scheme,
    /// The length a model was trained on: marked on the charts, and the learned table's size.
    pub trained_length: usize,
    /// Seed of the (untrained) learned table.
    pub learned_seed: usize,
    /// The settings each scheme owns (RoPE's pairing and extension, ALiBi's heads, T5's
    /// buckets, …).
    pub schemes: SchemeSettings,
    /// Attention demo: mask keys after the query (a decoder) or not (an encoder).
    pub causal: bool,
    /// Compare view: the scheme chosen to show next to the current one; `None` shows the
    /// default partner (see [`Settings::compare_partner`]).
    pub compare_with: Option<Scheme>,
    /// Light or dark page and charts.
    pub theme: ThemeChoice,
    /// The lesson step shown (1-based).
    pub lesson: usize,
    /// The quiz question shown (1-based).
    pub question: usize,
    /// The quiz as an exam: answers are recorded, and checked only when the student submits.
    pub exam: bool,
    /// The Train view's experiment (its sidebar-owned fields are filled from the settings above
    /// when it runs: see [`Settings::train_settings`]).
    pub train: TrainSettings,
    /// Start the experiment when the Train view opens (a link that re-runs it).
    pub train_run: bool,
    /// Sinusoidal, t2t variant: fairseq's `padding_idx` (token i reads table row
    /// padding_idx + 1 + i; row padding_idx is zeros). Ignored by the other variants.
    pub padding_idx: Option<usize>,
    /// RoPE's "check your own numbers": the query and key as typed (checked numbers, not yet
    /// fitted to d_model: see [`Settings::rope_check_vectors`]); `None` uses the seeded pair.
    pub rope_q: Option<Vec<f64>>,
    pub rope_k: Option<Vec<f64>>,
    /// The same check: the query's position m and the key's position n (inside the length).
    pub rope_m: usize,
    pub rope_n: usize,
    /// The Image patches view: its 2-D scheme, the grid, and the schemes' own settings.
    pub grid: GridSettings,
    /// Its M-RoPE panel: the model, the id rule and the video's frames.
    pub mrope: MropeSettings,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            d_model: 128,
            length: 100,
            base: 10_000.0,
            variant: Variant::Paper,
            palette: Palette::BlueRed,
            view: View::Matrix,
            anchors: None,
            normalised: false,
            offset_series: OffsetSeries::Anchors,
            bases: vec![100.0, 10_000.0, 1_000_000.0],
            dims: None,
            position: 3,
            offset: 5,
            pair: 0,
            pairing: Pairing::Partners,
            scale_embeddings: true,
            sentences: ["dog bites man".into(), "man bites dog".into()],
            attention_position: false,
            trace: 0,
            scheme: Scheme::Sinusoidal,
            trained_length: 512,
            learned_seed: 1,
            schemes: SchemeSettings::default(),
            causal: false,
            compare_with: None,
            theme: ThemeChoice::Auto,
            lesson: 1,
            question: 1,
            exam: false,
            train: TrainSettings::default(),
            train_run: false,
            padding_idx: None,
            rope_q: None,
            rope_k: None,
            rope_m: 5,
            rope_n: 2,
            grid: GridSettings::default(),
            mrope: MropeSettings::new(),
        }
    }
}

impl Settings {
    /// The anchors in use: the chosen ones inside 0..length, or 0, L/4, L/2.
    pub fn anchors(&self) -> Vec<usize> {
        let last = self.length - 1;
        let out: Vec<usize> = match &self.anchors {
            Some(a) if !a.is_empty() => a.iter().map(|&p| p.min(last)).collect(),
            _ => vec![0, self.length / 4, self.length / 2],
        };
        distinct(out)
    }

    /// The dimensions the waves chart draws: the chosen ones inside the width, or the first
    /// pair, one a quarter of the way in and one halfway.
    pub fn dims(&self) -> Vec<usize> {
        let last = self.d_model - 1;
        let out: Vec<usize> = match &self.dims {
            Some(d) if !d.is_empty() => d.iter().map(|&c| c.min(last)).collect(),
            _ => {
                // The first pair (sine and its cosine partner, wherever the layout puts it), and
                // the sines of the pairs a quarter and half of the way along.
                let e = Sinusoidal::new(self.variant, self.d_model, self.base);
                let pairs = e.pair_count();
                let sine_of = |i: usize| {
                    (0..self.d_model)
                        .find(|&c| e.column(c).pair == Some(i) && e.column(c).wave == Wave::Sin)
                        .unwrap_or(0)
                };
                let mut d = vec![0];
                d.extend(e.partner(0));
                d.extend([sine_of(pairs / 4), sine_of(pairs / 2)]);
                d
            }
        };
        distinct(out)
    }

    /// The scheme the compare view sets beside the chosen one: the one picked, or else RoPE,
    /// or sinusoidal when the chosen scheme is RoPE (a scheme beside itself shows nothing).
    pub fn compare_partner(&self) -> Scheme {
        self.compare_with.unwrap_or(if self.scheme == Scheme::Rope {
            Scheme::Sinusoidal
        } else {
            Scheme::Rope
        })
    }

    /// The defaults, keeping how the reader sees the page (theme, palette) and where they are in
    /// the lesson and the quiz: the starting point of a lesson step, a quiz task, or a view a
    /// quiz answer links to.
    pub fn fresh(&self) -> Settings {
        Settings {
            theme: self.theme,
            palette: self.palette,
            lesson: self.lesson,
            question: self.question,
            exam: self.exam,
            ..Settings::default()
        }
    }

    /// The experiment the Train view runs: its own choices, with the base, the sinusoidal
    /// variant, RoPE's pairing and T5's buckets taken from the sidebar.
    pub fn train_settings(&self) -> TrainSettings {
        TrainSettings {
            base: self.base,
            variant: self.variant,
            rope_pairing: self.schemes.rope.pairing,
            t5_buckets: self.schemes.t5.num_buckets,
            t5_max_distance: self.schemes.t5.max_distance,
            ..self.train.clone()
        }
    }

    /// RoPE with the current width, base and RoPE settings.
    pub fn rope(&self) -> Rope {
        self.schemes
            .rope
            .rope(self.d_model, self.base, self.trained_length, self.length)
    }

    /// The sinusoidal encoding with the current variant, width and base, and fairseq's padding
    /// index when the variant is t2t (the only layout that has one).
    pub fn sinusoidal(&self) -> Sinusoidal {
        let padding = if self.variant == Variant::T2t {
            self.padding_idx
        } else {
            None
        };
        Sinusoidal::new(self.variant, self.d_model, self.base).with_padding_idx(padding)
    }

    /// The limits of the RoPE check's positions m and n.
    pub fn rope_m_limit(&self) -> Limit {
        Limit::linear("position m", 0.0, (self.length - 1) as f64)
    }

    pub fn rope_n_limit(&self) -> Limit {
        Limit::linear("position n", 0.0, (self.length - 1) as f64)
    }

    /// The RoPE check's query and key, d_model long: as typed (padded with zeros or cut, with a
    /// note saying which) or, when nothing was typed, the pair seeded by `learned_seed`.
    pub fn rope_check_vectors(&self) -> [Accepted<Vec<f64>>; 2] {
        let (q, k) = crate::math::rope::seeded_pair(self.d_model, self.learned_seed as u64);
        let fit = |typed: &Option<Vec<f64>>, seeded: Vec<f64>, name: &str| match typed {
            Some(v) => crate::limit::fit_vector(v, self.d_model, name),
            None => Accepted {
                value: seeded,
                note: None,
            },
        };
        [fit(&self.rope_q, q, "q"), fit(&self.rope_k, k, "k")]
    }

    /// The learned table: `trained_length` rows of width d_model.
    pub fn learned(&self) -> Learned {
        Learned::new(self.trained_length, self.d_model, self.learned_seed as u64)
    }

    /// T5's buckets with their seeded biases (the seed is the learned table's).
    pub fn t5_bias(&self) -> T5Bias {
        T5Bias::seeded(self.schemes.t5, self.learned_seed as u64)
    }

    /// The limit of the ALiBi head picker.
    pub fn alibi_head_limit(&self) -> Limit {
        Limit::linear("head", 0.0, (self.schemes.alibi.heads.max(1) - 1) as f64)
    }

    /// The limit of the rotation view's position.
    pub fn position_limit(&self) -> Limit {
        Limit::linear("position p", 0.0, (self.length - 1) as f64)
    }

    /// The limit of the rotation view's offset.
    pub fn offset_limit(&self) -> Limit {
        Limit::linear("offset k", 0.0, (self.length - 1).max(1) as f64)
    }
}

/// The values in order of first appearance, each once.
pub(crate) fn distinct<T: PartialEq>(values: Vec<T>) -> Vec<T> {
    let mut out = Vec::with_capacity(values.len());
    for v in values {
        if !out.contains(&v) {
            out.push(v);
        }
    }
    out
}
