//! The main chart of every view: the first chart in the view (the one a phone shows on top, and a
//! compact embed shows alone), computed from the settings alone. The view draws it with these
//! data, and the first paint (`src/early.rs`) draws the same data, with the same plot code,
//! before the app has arrived. No browser dependency: tested natively.

use std::rc::Rc;

use crate::action::Action;
use crate::figures::addition::{addition, AdditionInputs};
use crate::figures::attention::{card, demo_inputs, keys, run_demo};
use crate::figures::compare::{column_charts, column_frame, ColumnJob};
use crate::figures::norms::{norms, NormsInputs};
use crate::figures::offsets::{closed_forms_job, compared_bases, offset_chart, OffsetInputs};
use crate::figures::patches::PatchInputs;
use crate::figures::rope::cos_heatmap;
use crate::figures::rotations::{dials_at, DialsAt, RotationInputs};
use crate::figures::schemes::{
    bias_distance, learned_distance, learned_heatmap, rope_distance, t5_distance, t5_lead,
    t5_matrices, trained_rule, BiasInputs, LearnedDistanceInputs, RopeDistanceInputs,
    T5DistanceInputs, T5MatrixInputs,
};
use crate::limit::{GRID_COLS, GRID_ROWS};
use crate::math::chunked::Chunked;
use crate::math::rotation::Pair;
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::plot::colormap::Palette;
use crate::plot::heatmap::{encoding_heatmap, HeatmapData};
use crate::plot::lines::LineChartData;
use crate::schemes::{HeadBias, Registered, Scheme, ViewKind};
use crate::state::{Limit, Settings, ThemeChoice, View, BASE, D_MODEL, LENGTH};

/// A chart's height for a width, in CSS pixels: `width × aspect` within `[min, max]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Size {
    pub aspect: f64,
    pub min: f64,
    pub max: f64,
}

impl Size {
    pub const fn new(aspect: f64, min: f64, max: f64) -> Size {
        Size { aspect, min, max }
    }

    /// A fixed height.
    pub const fn fixed(height: f64) -> Size {
        Size {
            aspect: 0.0,
            min: height,
            max: height,
        }
    }

    pub fn height(&self, width: f64) -> f64 {
        (width * self.aspect).clamp(self.min, self.max)
    }
}

/// A large heatmap (the encoding matrix): the `Heatmap` component's default size.
pub const HEATMAP: Size = Size::new(0.62, 260.0, 620.0);
/// A line chart: the `LineChart` component's default size.
pub const LINES: Size = Size::new(0.5, 240.0, 460.0);
/// The waves view's strip of the encoding matrix (the dimension picker).
pub const PICKER: Size = Size::new(0.22, 170.0, 240.0);
/// The Train view's loss and accuracy charts.
pub const TRAIN: Size = Size::new(0.62, 260.0, 460.0);
/// The add-or-concatenate view's two heatmaps.
pub const ADDITION: Size = Size::new(0.5, 220.0, 360.0);
/// The compare view's distance curves.
pub const COMPARE: Size = Size::new(0.6, 240.0, 460.0);
/// A scheme's matrix card.
pub const MATRIX_CARD: Size = Size::fixed(460.0);
/// The Image patches view's similarity figure (square: a grid of small square maps).
pub const PATCHES: Size = Size::new(1.0, 260.0, 620.0);
/// T5's two cards side by side.
pub const T5_CARD: Size = Size::fixed(420.0);

/// What is drawn.
#[derive(Clone)]
pub enum Chart {
    Heatmap(Rc<HeatmapData>),
    Lines(Rc<LineChartData>),
    /// The rotation view's dials: laid out for the width they are drawn at.
    Dials(Rc<Dials>),
}

/// What the rotation view's dials are drawn from.
#[derive(Clone, Debug, PartialEq)]
pub struct Dials {
    pub inputs: RotationInputs,
    pub pairs: Vec<Pair>,
    pub selected: usize,
}

impl Dials {
    pub fn of(s: &Settings) -> Dials {
        let pairs = crate::math::rotation::pairs(&s.sinusoidal(), s.pairing);
        Dials {
            inputs: RotationInputs::of(s),
            selected: s.pair.min(pairs.len().saturating_sub(1)),
            pairs,
        }
    }

    pub fn at(&self, width: f64) -> DialsAt {
        dials_at(&self.inputs, &self.pairs, self.selected, width)
    }
}

/// A view's main chart: the canvas id the view gives it, the panel's title, the data and the
/// size the view draws it at.
#[derive(Clone)]
pub struct MainChart {
    pub id: String,
    pub title: String,
    pub chart: Chart,
    pub size: Size,
    /// The class of the row of cards it is the first of (`twin twin-2`: two side by side on a wide
    /// screen), if it is in one.
    pub twin: Option<&'static str>,
    /// The button the view shows above its chart on a phone (the Train view's "Train").
    pub action: Option<&'static str>,
    /// The class of the card it is drawn in (inside the row), and what the card shows above
    /// it: (tag, class, text).
    pub card: (&'static str, Vec<(&'static str, &'static str, String)>),
    /// What the panel's head says under the title, as the app's panel does: the view's lead
    /// paragraph and where the scheme enters the model. On a wide screen the chart sits below
    /// them (on a phone, above).
    pub head: Option<(String, Option<&'static str>)>,
    /// Whether the app draws the chart in a panel body with a column beside it (the readout and
    /// the explanation), which leaves the chart the rest of a wide screen's row.
    pub side: bool,
}

impl MainChart {
    /// Its height at a width, in CSS pixels.
    pub fn height(&self, width: f64) -> f64 {
        match &self.chart {
            Chart::Dials(d) => d.at(width).height(),
            _ => self.size.height(width),
        }
    }

    fn new(id: impl Into<String>, title: impl Into<String>, chart: Chart, size: Size) -> Self {
        MainChart {
            id: id.into(),
            title: title.into(),
            chart,
            size,
            twin: None,
            action: None,
            card: ("", Vec::new()),
            head: None,
            side: false,
        }
    }

    /// With the panel head's lead paragraph, and the scheme's entry point if the panel names it.
    fn with_head(self, lead: String, scheme: Option<Scheme>) -> Self {
        MainChart {
            head: Some((lead, scheme.map(|s| s.entry()))),
            ..self
        }
    }
}

/// The lead paragraph of a view's panel (the app's panel and the first paint's say the same),
/// for the views whose first paint lays out the panel's head: the Position matrix and the
/// distance views of every scheme with a chart on a line of tokens, but the sinusoidal one's
/// distance view (whose controls sit above the chart), and the norms (whose head the first
/// paint lays out with the sinusoidal scheme only: another scheme's note sits above its chart).
pub fn panel_lead(view: View, s: &Settings) -> Option<String> {
    Some(match (view, s.scheme.views()) {
        (View::Matrix, ViewKind::Sinusoidal) => {
            let (negative, positive) = s.palette.end_names();
            format!(
                "Each row is the vector added to the token at that position; each column is one \
                 wave running down the positions. {negative} is −1, {positive} is +1."
            )
        }
        (View::Matrix, ViewKind::Learned) => "BERT and GPT-2 do not compute their position \
             vectors: they learn one vector per position, a table with max_len rows (512 in \
             BERT, 1024 in GPT-2). This one is untrained: random numbers drawn the way Hugging \
             Face starts those models, N(0, 0.02²) (the original BERT truncated that normal at \
             ±2σ; the original GPT-2 used σ = 0.01 for positions). Training would shape it; the \
             app does not pretend to."
            .into(),
        (View::Matrix, ViewKind::Rope) => "RoPE adds nothing to the embeddings. Inside \
             attention, every query and key is split into pairs of dimensions and pair i is \
             turned by the angle m·θᵢ at position m, θᵢ = base^(−2i/d). The table is cos(m·θᵢ), \
             the cache the libraries precompute."
            .into(),
        (View::Matrix, ViewKind::T5) => "T5 sorts every relative position key − query into a \
             bucket and adds one learned scalar per bucket to the score. Nearby distances get a \
             bucket each; further ones share logarithmically wider buckets; everything beyond \
             max distance shares the last one."
            .into(),
        (View::Matrix | View::Offsets, ViewKind::Bias) => {
            bias_lead(view, &BiasInputs::of(s)?.bias)?
        }
        (View::Offsets, ViewKind::Learned) => "The dot product of two rows of the table, \
             P(p)·P(p+k), for a few anchors p: without training there is no relation between \
             positions, so only k = 0 (a row with itself) stands out, and the curves of \
             different anchors do not coincide."
            .into(),
        (View::Offsets, ViewKind::Rope) => "Rotating q by m·θ and k by n·θ leaves q·k \
             depending only on m − n. Here, the score of q = k = (1, …, 1) against the distance \
             and the mean over random vectors; below, RoFormer's bound on the score's magnitude, \
             which itself shrinks with distance."
            .into(),
        (View::Offsets, ViewKind::T5) => t5_lead(s),
        (View::Norms, _) => "Each sine-cosine pair contributes sin² + cos² \
             = 1 to the squared length, so every encoding vector has the same length, √(number \
             of pairs) (√(d/2) for an even d_model): position does not make a vector longer, \
             only point it elsewhere."
            .into(),
        _ => return None,
    })
}

/// [`panel_lead`] of a scheme's bias on the scores, from the bias a view already holds.
pub fn bias_lead(view: View, bias: &HeadBias) -> Option<String> {
    match view {
        View::Matrix => bias.about.first().cloned(),
        View::Offsets if bias.depends_on_query => Some(
            "The bias of every head against the distance i − j back from the last query (it \
             also depends on where the query is)."
                .into(),
        ),
        View::Offsets => {
            Some("The bias of every head against the distance i − j, one line per head.".into())
        }
        _ => None,
    }
}

/// The view the settings show (a lesson step shows its own).
pub fn shown_view(s: &Settings) -> View {
    match s.view {
        View::Lesson => crate::learn::lesson::step(s.lesson).view,
        v => v,
    }
}

/// The main chart of the view `s` shows, if it draws one without the student's doing anything
/// (the lesson's step and a quiz task draw their view's).
pub fn main_chart(s: &Settings) -> Option<MainChart> {
    let kind = s.scheme.views();
    Some(match (shown_view(s), kind) {
        (View::Matrix, ViewKind::Sinusoidal) => MainChart {
            side: true,
            ..MainChart::new(
                "encoding-heatmap",
                "The encoding matrix",
                Chart::Heatmap(Rc::new(encoding_heatmap(
                    s.sinusoidal(),
                    s.length,
                    s.palette,
                ))),
                HEATMAP,
            )
        }
        .with_head(panel_lead(View::Matrix, s)?, Some(Scheme::Sinusoidal)),
        (View::Matrix, ViewKind::Learned) => MainChart::new(
            "learned-heatmap",
            "A learned position table",
            Chart::Heatmap(Rc::new(learned_heatmap(s.learned(), s.length, s.palette))),
            MATRIX_CARD,
        )
        .with_head(panel_lead(View::Matrix, s)?, Some(Scheme::Learned)),
        (View::Matrix, ViewKind::Rope) => MainChart::new(
            "rope-heatmap",
            "RoPE: rotation angles",
            Chart::Heatmap(Rc::new(cos_heatmap(
                &s.rope(),
                s.length,
                s.palette,
                trained_rule(s),
            ))),
            MATRIX_CARD,
        )
        .with_head(panel_lead(View::Matrix, s)?, Some(Scheme::Rope)),
        (View::Matrix, ViewKind::T5) => MainChart {
            twin: Some("twin twin-2"),
            ..MainChart::new(
                "t5-buckets",
                "T5: relative position buckets",
                Chart::Heatmap(t5_matrices(&T5MatrixInputs::of(s)).0),
                T5_CARD,
            )
        }
        .with_head(panel_lead(View::Matrix, s)?, Some(Scheme::T5)),
        (View::Matrix, ViewKind::Bias) => {
            let k = BiasInputs::of(s)?;
            MainChart::new(
                format!("{}-heatmap", s.scheme.id()),
                bias_title(s),
                Chart::Heatmap(Rc::new(k.matrix(k.bias.head))),
                MATRIX_CARD,
            )
            .with_head(bias_lead(View::Matrix, &k.bias)?, Some(s.scheme))
        }
        (View::Offsets, ViewKind::Sinusoidal) => {
            let inputs = OffsetInputs::of(s);
            let job = closed_forms_job(s.sinusoidal(), s.length, &compared_bases(s));
            let forms = job.is_small().then(|| job.run())?;
            MainChart::new(
                "offsets-chart",
                "Dot product by offset",
                Chart::Lines(offset_chart(&inputs, &forms).data),
                LINES,
            )
        }
        (View::Offsets, ViewKind::Learned) => MainChart::new(
            "learned-distance-chart",
            "Learned positions by distance",
            Chart::Lines(Rc::new(learned_distance(&LearnedDistanceInputs::of(s)))),
            LINES,
        )
        .with_head(panel_lead(View::Offsets, s)?, Some(Scheme::Learned)),
        (View::Offsets, ViewKind::Rope) => {
            let inputs = RopeDistanceInputs::of(s);
            let job = inputs.job();
            let curves = job.is_small().then(|| job.run())?;
            MainChart::new(
                "rope-distance-chart",
                "RoPE by distance",
                Chart::Lines(rope_distance(&inputs, &curves).scores),
                LINES,
            )
            .with_head(panel_lead(View::Offsets, s)?, Some(Scheme::Rope))
        }
        (View::Offsets, ViewKind::T5) => MainChart::new(
            "t5-distance-chart",
            "T5 buckets by relative position",
            Chart::Lines(Rc::new(t5_distance(&T5DistanceInputs::of(s)))),
            LINES,
        )
        .with_head(panel_lead(View::Offsets, s)?, Some(Scheme::T5)),
        (View::Offsets, ViewKind::Bias) => {
            let k = BiasInputs::of(s)?;
            MainChart::new(
                format!("{}-distance-chart", s.scheme.id()),
                format!("{} by distance", s.scheme.short()),
                Chart::Lines(Rc::new(bias_distance(&k))),
                LINES,
            )
            .with_head(bias_lead(View::Offsets, &k.bias)?, Some(s.scheme))
        }
        // The waves themselves (the column picker sits under them).
        (View::Waves, _) => MainChart::new(
            "waves-chart",
            "Waves and wavelengths",
            Chart::Lines(Rc::new(crate::figures::waves::waves_chart(
                &crate::figures::waves::WavesInputs::of(s),
            ))),
            LINES,
        ),
        (View::Norms, kind) => {
            let chart = MainChart {
                side: true,
                ..MainChart::new(
                    "norms-chart",
                    "Norms and scale",
                    Chart::Lines(norms(&NormsInputs::of(s)).chart),
                    LINES,
                )
            };
            // Another scheme's note sits above the chart: the app's.
            match kind {
                ViewKind::Sinusoidal => chart.with_head(panel_lead(View::Norms, s)?, None),
                _ => chart,
            }
        }
        (View::Attention, _) => {
            let demo = run_demo(&demo_inputs(s));
            let pass = &demo.passes[0];
            MainChart {
                twin: Some("twin twin-2"),
                ..MainChart::new(
                    "attention-a",
                    "Dog bites man, man bites dog",
                    Chart::Heatmap(card(
                        &pass.weights,
                        "Attention weights, sentence A (rows: queries)".into(),
                        &pass.tokens,
                        keys(&pass.tokens),
                        s.palette,
                        Some(1.0),
                    )),
                    Size::fixed(attention_card_height(pass.tokens.len())),
                )
            }
        }
        (View::Rotations, _) => MainChart::new(
            "rotation-dials",
            "Rotations: the relative-position property",
            Chart::Dials(Rc::new(Dials::of(s))),
            LINES,
        ),
        (View::Compare, _) => {
            let job = ColumnJob::new(&crate::schemes::column(s.scheme, s)?);
            let scores = job.is_small().then(|| job.run())?;
            let (_, line) = column_charts(&scores, &column_frame(s, s.scheme, "a"));
            MainChart {
                twin: Some("twin twin-2"),
                card: (
                    "compare-column",
                    vec![
                        ("h3", "section-title", s.scheme.label().into()),
                        ("p", "entry small", s.scheme.entry().into()),
                    ],
                ),
                ..MainChart::new(
                    "compare-curve-a",
                    "Compare schemes",
                    Chart::Lines(line),
                    COMPARE,
                )
            }
        }
        (View::Addition, _) => MainChart {
            twin: Some("twin"),
            ..MainChart::new(
                "sum-heatmap",
                "Add or concatenate?",
                Chart::Heatmap(addition(&AdditionInputs::of(s)).0),
                ADDITION,
            )
        },
        (View::Patches, _) => MainChart::new(
            "patches-chart",
            "Image patches: positions in 2-D",
            Chart::Heatmap(crate::figures::patches::patches(&PatchInputs::of(s)).figure),
            PATCHES,
        ),
        (View::Train, _) => MainChart {
            twin: Some("twin twin-2"),
            action: Some("Train"),
            ..MainChart::new(
                "train-loss",
                "Train it yourself",
                Chart::Lines(Rc::new({
                    let t = s.train_settings();
                    crate::train::figures::loss_chart(
                        &crate::train::protocol::Progress::empty(&t),
                        &t,
                    )
                })),
                TRAIN,
            )
        },
        _ => return None,
    })
}

/// The bias schemes' matrix title.
pub fn bias_title(s: &Settings) -> String {
    format!("{}: a bias on the scores", s.scheme.short())
}

/// The waves view's picker: the encoding matrix (as the waves themselves read it: no padding
/// row), at most 200 positions.
pub fn picker(e: Sinusoidal, length: usize, palette: Palette) -> HeatmapData {
    encoding_heatmap(e, length.min(200), palette)
}

/// The attention demo's card height for a sentence of `rows` tokens.
pub fn attention_card_height(rows: usize) -> f64 {
    (112.0 + 26.0 * rows as f64).min(520.0)
}

/// What the first paint reads from an address: the settings and, embedded, the one view.
#[derive(Clone, Debug, PartialEq)]
pub struct Early {
    pub settings: Settings,
    pub embed: Option<View>,
    /// An embedded panel's options: its main chart alone (`show=chart`), and without its
    /// controls (`controls=none`).
    pub show_chart: bool,
    pub controls: bool,
}

/// The address's settings, when it asks only for what the first paint knows: the view or
/// embedded panel and its options, the scheme, the lesson's step or the quiz's question,
/// d_model, length, base, variant, palette and theme, each valid as written. Anything else (an
/// unknown key, a value the app would clamp or refuse with a notice) is the app's to read and
/// to say: `None`, and the page waits for the app. When it reads a link, it reads the same settings as
/// [`crate::url::parse`] (a native test holds the two together).
pub fn early(query: &str) -> Option<Early> {
    let query = query.strip_prefix('?').unwrap_or(query);
    if query.len() > 512 {
        return None;
    }
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        // Escapes, repeats and empty values are the app's.
        if v.is_empty() || part.contains('%') || part.contains('+') {
            return None;
        }
        if pairs.iter().any(|(key, _)| *key == k) {
            return None;
        }
        pairs.push((k, v));
    }
    let get = |key: &str| pairs.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let embed = match get("embed") {
        Some(v) => Some(View::from_id(v)?),
        None => None,
    };
    let view = match (embed, get("view")) {
        (Some(e), None) => e,
        (None, Some(v)) => View::from_id(v)?,
        // A step alone opens the lesson on it.
        (None, None) if get("lesson").is_some() => View::Lesson,
        (None, None) => View::Matrix,
        (Some(_), Some(_)) => return None,
    };
    let number = |limit: crate::limit::Limit, v: &str| -> Option<f64> {
        let a = limit.parse(v).ok()?;
        a.note.is_none().then_some(a.value)
    };
    if view == View::Quiz {
        // A question's text is the quiz's first screen: the app's.
        return None;
    }
    // As the app reads a link: the lesson's step first (it sets the sliders), then the rest.
    let mut s = Settings::default();
    if view == View::Lesson {
        let steps = crate::learn::lesson::STEPS.len();
        let n = match get("lesson") {
            Some(v) => v
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=steps).contains(n))?,
            None => 1,
        };
        s = crate::learn::lesson::preset(n, &s);
    }
    for (k, v) in &pairs {
        match *k {
            "view" | "embed" => {}
            // An embedded panel's options, as the app reads them.
            "show" if embed.is_some() && matches!(*v, "chart" | "panel") => {}
            "controls" if embed.is_some() && matches!(*v, "none" | "all") => {}
            "lesson" if view == View::Lesson => {}
            "scheme" => s.scheme = Scheme::from_id(v)?,
            "d_model" => s.d_model = number(D_MODEL, v)? as usize,
            "length" => s.length = number(LENGTH, v)? as usize,
            "base" => s.base = number(BASE, v)?,
            "variant" => s.variant = Variant::from_id(v)?,
            "palette" => s.palette = Palette::from_id(v)?,
            "theme" => s.theme = ThemeChoice::from_id(v)?,
            _ => return None,
        }
    }
    // What every change ends with in the app (a scheme of image patches is the grid's scheme).
    s.settle();
    s.view = view;
    Some(Early {
        settings: s,
        embed,
        show_chart: get("show") == Some("chart"),
        controls: get("controls") != Some("none"),
    })
}

/// One control of the phone's strip and of the first paint: id, limit, current value, and the
/// action a new value makes.
pub type MainControl = (&'static str, Limit, f64, fn(f64) -> Action);

/// What the strip shows and names first, as [`strip_plan`] gives it.
pub type StripPlan = (View, &'static [&'static str]);

/// The view whose sliders the phone's strip shows, and the controls the lesson step or quiz
/// task on screen names ("Set d_model to 16", "step through the heads"), which the strip shows
/// first: a quiz task is done in its own view.
pub fn strip_plan(s: &Settings) -> StripPlan {
    match s.view {
        View::Quiz => crate::learn::quiz::task_view(s.question).unwrap_or((View::Quiz, &[])),
        _ => plan_but_quiz(s),
    }
}

/// [`strip_plan`] for every page but the quiz's, which the first paint never draws (a
/// question's text is the quiz's first screen, the app's): so the first paint's module does not
/// carry the quiz's questions, which the quiz's plan reads.
fn plan_but_quiz(s: &Settings) -> StripPlan {
    match s.view {
        View::Lesson => {
            let step = crate::learn::lesson::step(s.lesson);
            (step.view, step.strip)
        }
        v => (v, &[]),
    }
}

/// The controls of the phone's strip: those the step or task on screen names, then the ones
/// its view's chart follows most directly, at most two in all (more do not fit a phone's width
/// beside "All settings"). These are the sliders; a named scheme setting is drawn by the strip.
pub fn main_controls(s: &Settings) -> Vec<MainControl> {
    controls_of(s, strip_plan(s))
}

fn controls_of(s: &Settings, (view, named): StripPlan) -> Vec<MainControl> {
    let own = view_controls(view, s);
    if named.is_empty() {
        return own;
    }
    let named = &named[..named.len().min(STRIP_MAX)];
    let room = STRIP_MAX - settings_of(s, named).len();
    let mut out = pick(&catalogue(s), named);
    for c in own {
        if out.len() >= room {
            break;
        }
        if !out.iter().any(|o| o.0 == c.0) {
            out.push(c);
        }
    }
    out
}

/// The scheme's own settings the step or task on screen names ("step through the heads"),
/// which the strip draws beside [`main_controls`]' sliders: ids of `SchemeDef::controls`.
pub fn strip_settings(s: &Settings) -> Vec<&'static str> {
    settings_of(s, strip_plan(s).1)
}

fn settings_of(s: &Settings, named: &[&'static str]) -> Vec<&'static str> {
    let sliders = catalogue(s);
    named
        .iter()
        .take(STRIP_MAX)
        .copied()
        // The mixed scheme's head is a slider, and nothing where the scheme has no heads.
        .filter(|id| !sliders.iter().any(|c| c.0 == *id) && *id != "grid-head")
        .collect()
}

/// A chart taller than this (CSS pixels) gets an embedded panel's strip above it rather than
/// below, so that the controls and the chart's top still share a phone's screen (the rotation
/// dials): the app's panel and the first paint's place it alike.
pub const TALL_CHART: f64 = 480.0;

/// The most controls the phone's strip holds.
pub const STRIP_MAX: usize = 2;

/// Every slider the strip can show: d_model, the length, the base, the position and offset of
/// the rotation view, the patch grid's rows and columns.
fn catalogue(s: &Settings) -> Vec<MainControl> {
    let mut all = vec![
        (
            "d-model",
            D_MODEL,
            s.d_model as f64,
            Action::SetDModel as fn(f64) -> Action,
        ),
        ("length", LENGTH, s.length as f64, Action::SetLength),
        ("base", BASE, s.base, Action::SetBase),
        (
            "position",
            s.position_limit(),
            s.position as f64,
            Action::SetPosition,
        ),
        (
            "offset",
            s.offset_limit(),
            s.offset as f64,
            Action::SetOffset,
        ),
        (
            "grid-rows",
            GRID_ROWS,
            s.grid.rows as f64,
            Action::SetGridRows,
        ),
        (
            "grid-cols",
            GRID_COLS,
            s.grid.cols as f64,
            Action::SetGridCols,
        ),
    ];
    // Mixed 2-D RoPE's head: a slider only where the scheme has heads.
    if s.grid.scheme == crate::schemes::grid::GridScheme::Mixed {
        all.push((
            "grid-head",
            crate::limit::GRID_HEAD,
            s.grid.head as f64,
            Action::SetGridHead,
        ));
    }
    all
}

/// The settings a view's chart follows most directly, at most two.
fn view_controls(view: View, s: &Settings) -> Vec<MainControl> {
    // Only what moves the chart: a bias on the scores has no width and no base.
    let (scheme, partner) = (s.scheme, s.compare_partner());
    let width_matters = scheme.is_absolute() || scheme.uses_base();
    let ids: &[&str] = match view {
        // A scheme of image patches is drawn by the Image patches view: these tabs point there.
        View::Matrix | View::Offsets if scheme.space() != crate::schemes::Space::Line => &[],
        View::Matrix if !width_matters => &["length"],
        View::Offsets if !scheme.uses_base() => &["length"],
        View::Compare if !scheme.uses_base() && !partner.uses_base() => &["length"],
        View::Matrix | View::Norms => &["length", "d-model"],
        View::Offsets | View::Compare => &["length", "base"],
        View::Waves => &["base", "d-model"],
        View::Rotations => &["position", "offset"],
        View::Addition => &["d-model"],
        View::Patches => &["grid-rows", "grid-cols"],
        // The demo's main setting is a switch (see the strip).
        View::Attention => &[],
        View::Lesson | View::Quiz | View::Train => &[],
    };
    pick(&catalogue(s), ids)
}

/// The controls of `all` named by `ids`, in that order.
fn pick(all: &[MainControl], ids: &[&str]) -> Vec<MainControl> {
    ids.iter()
        .filter_map(|id| all.iter().find(|c| c.0 == *id).copied())
        .collect()
}

/// A slider of the first paint: the strip's control (id, limit, value, action) and the link's
/// key. It sets what the app's reducer sets for the action ([`Settings::set_number`], then
/// [`Settings::settle`]) without linking the rest of the reducer.
pub struct Knob {
    pub id: &'static str,
    pub key: &'static str,
    pub limit: Limit,
    pub value: f64,
    pub action: fn(f64) -> Action,
}

impl Knob {
    /// The settings after the slider moved to `v`.
    pub fn apply(&self, s: &mut Settings, v: f64) {
        s.set_number(&(self.action)(v));
        s.settle();
    }
}

/// The first paint's sliders: the phone strip's, each with the link key the app reads.
pub fn early_knobs(s: &Settings) -> Vec<Knob> {
    controls_of(s, plan_but_quiz(s))
        .into_iter()
        .filter_map(|(id, limit, value, action)| {
            let key = match id {
                "d-model" => "d_model",
                "length" => "length",
                "base" => "base",
                "position" => "p",
                "offset" => "k",
                "grid-rows" => "grid_h",
                "grid-cols" => "grid_w",
                _ => return None,
            };
            Some(Knob {
                id,
                key,
                limit,
                value,
                action,
            })
        })
        .collect()
}
