//! Changes to the settings and the reducer that applies them. It sits above `state` and `learn`
//! (a lesson step or a quiz task is a preset of settings), so neither imports the other's user.

use std::rc::Rc;

use yew::Reducible;

use crate::limit::{FRAMES, GRID_COLS, GRID_HEAD, GRID_ROWS, GRID_TRAINED};
use crate::math::attention::parse_sentence;
use crate::math::rotation::Pairing;
use crate::math::sinusoidal::Variant;
use crate::params::{Change, Edit, ListEdit};
use crate::plot::colormap::Palette;
use crate::schemes::grid::{GridScheme, MropeModel};
use crate::schemes::{Scheme, Space};
use crate::state::{
    distinct, OffsetSeries, Settings, ThemeChoice, View, BASE, D_MODEL, LENGTH, MAX_ANCHORS,
    MAX_BASES, MAX_DIMS, SEED, TRAINED_LENGTH,
};

/// A change to the settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    SetDModel(f64),
    SetLength(f64),
    SetBase(f64),
    SetVariant(Variant),
    SetPalette(Palette),
    SetView(View),
    SetAnchors(Vec<usize>),
    SetNormalised(bool),
    SetOffsetSeries(OffsetSeries),
    SetBases(Vec<f64>),
    SetDims(Vec<usize>),
    /// Adds a dimension to the waves chart, or removes it if it is there.
    ToggleDim(usize),
    SetPosition(f64),
    /// Moves the rotation view's position on by `n`, wrapping at the end of the sequence.
    StepPosition(usize),
    SetOffset(f64),
    SetPair(usize),
    SetPairing(Pairing),
    SetScaleEmbeddings(bool),
    /// Replaces sentence 0 (A) or 1 (B); ignored unless `parse_sentence` accepts the text.
    SetSentence(usize, String),
    SetAttentionPosition(bool),
    SetTrace(usize),
    SetScheme(Scheme),
    /// A scheme chosen in the settings: as [`Action::SetScheme`], and a tab that draws the
    /// scheme's own views moves to the one that can draw it (the Image patches view for a
    /// scheme of patches, the position matrix for a scheme of a line of tokens).
    PickScheme(Scheme),
    SetTrainedLength(f64),
    SetLearnedSeed(f64),
    /// A change to a setting a scheme owns, defined in the scheme's module.
    Edit(Edit),
    /// Applies a model's RoPE configuration (a preset or a pasted config.json).
    ApplyRope(Box<crate::rope_config::RopeConfig>),
    /// A change to a list a scheme owns (LongRoPE's factors per pair), defined in its module.
    EditList(ListEdit),
    SetCausal(bool),
    SetCompareWith(Scheme),
    SetTheme(ThemeChoice),
    /// Opens a lesson step (1-based, clamped) with the view and sliders it sets.
    GoToStep(usize),
    /// Opens a quiz question (1-based, clamped).
    SetQuestion(usize),
    /// The quiz as an exam (answers checked only when submitted) or as practice.
    SetExam(bool),
    /// Replaces every setting at once (a lesson step's or a quiz task's starting point).
    Preset(Box<Settings>),
    /// Sets one of the Train view's values from text (checked as a link's value is).
    SetTrain(&'static str, String),
    /// Whether a link to the Train view starts its experiment.
    SetTrainRun(bool),
    /// fairseq's `padding_idx` for the t2t variant (`None`: no padding row).
    SetPaddingIdx(Option<f64>),
    /// The RoPE check's query and key as typed (`None`: the seeded pair); ignored unless every
    /// entry is finite and at most 10⁶ in magnitude, cut to 4,096 entries.
    SetRopeQ(Option<Vec<f64>>),
    SetRopeK(Option<Vec<f64>>),
    /// The RoPE check's positions m (query) and n (key), clamped to the length.
    SetRopeM(f64),
    SetRopeN(f64),
    /// The Image patches view's scheme.
    SetGridScheme(GridScheme),
    /// Rows and columns of the patch grid, clamped to 1 … 64.
    SetGridRows(f64),
    SetGridCols(f64),
    /// The side of the learned table's trained grid.
    SetGridTrained(f64),
    /// Resize the learned table by interpolation, or not.
    SetGridInterpolate(bool),
    /// Mixed RoPE's head.
    SetGridHead(f64),
    /// Start the matrix CSV with the CLS token's row.
    SetGridCls(bool),
    /// M-RoPE: the model, the id rule (transformers 5.24 or the reference), the video's frames.
    SetMropeModel(MropeModel),
    SetMropeRule(bool),
    SetFrames(f64),
    /// A pasted config.json for the M-RoPE panel (`None`: back to the model list).
    SetMropeConfig(Option<Box<crate::mrope_config::MropeConfig>>),
}

impl From<Change> for Action {
    fn from(c: Change) -> Action {
        match c {
            Change::Set(e) => Action::Edit(e),
            Change::SetList(e) => Action::EditList(e),
        }
    }
}

/// A typed vector as the RoPE check stores it: `Some(None)` to go back to the seeded pair,
/// `None` when the values are refused (the setting is left alone).
fn checked_vector(v: Option<Vec<f64>>) -> Option<Option<Vec<f64>>> {
    match v {
        None => Some(None),
        Some(v) if v.is_empty() => Some(None),
        Some(mut v) => {
            v.truncate(crate::limit::VECTOR_MAX_LEN);
            crate::limit::vector_is_valid(&v).then_some(Some(v))
        }
    }
}

impl Settings {
    /// The strip's numeric settings (d_model, length, base, the rotation view's p and k), held to
    /// their limits: the reducer's arms for them, and what the first paint's sliders do.
    /// Anything else is left as it is.
    pub fn set_number(&mut self, a: &Action) {
        match *a {
            Action::SetDModel(v) => self.d_model = D_MODEL.accept(v).value as usize,
            Action::SetLength(v) => self.length = LENGTH.accept(v).value as usize,
            Action::SetBase(v) => self.base = BASE.accept(v).value,
            Action::SetPosition(v) => {
                self.position = self.position_limit().accept(v).value as usize
            }
            Action::SetOffset(v) => self.offset = self.offset_limit().accept(v).value as usize,
            Action::SetGridRows(v) => self.grid.rows = GRID_ROWS.accept(v).value as usize,
            Action::SetGridCols(v) => self.grid.cols = GRID_COLS.accept(v).value as usize,
            _ => {}
        }
    }

    /// What every change ends with: each scheme's own settings held to their limits, and the
    /// settings that depend on the length kept inside it (the first paint's sliders end with it
    /// too).
    pub fn settle(&mut self) {
        crate::schemes::check(self);
        self.position = self.position.min(self.length - 1);
        self.offset = self.offset.min((self.length - 1).max(1));
        self.rope_m = self.rope_m.min(self.length - 1);
        self.rope_n = self.rope_n.min(self.length - 1);
        self.grid.settle();
        // A scheme of image patches is the one the Image patches view draws.
        if let Some(g) = GridScheme::of(self.scheme) {
            self.grid.scheme = g;
        }
        self.mrope.frames = FRAMES.accept(self.mrope.frames as f64).value as usize;
    }
}

impl Reducible for Settings {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let mut next = (*self).clone();
        // The controls validate first; the reducer clamps again so no path can store a bad value.
        match action {
            a @ (Action::SetDModel(_)
            | Action::SetLength(_)
            | Action::SetBase(_)
            | Action::SetPosition(_)
            | Action::SetOffset(_)
            | Action::SetGridRows(_)
            | Action::SetGridCols(_)) => next.set_number(&a),
            Action::SetVariant(v) => next.variant = v,
            Action::SetPalette(p) => next.palette = p,
            // Opening the lesson opens its current step as the step sets it up.
            Action::SetView(View::Lesson) if self.view != View::Lesson => {
                next = crate::learn::lesson::preset(self.lesson, &self)
            }
            Action::SetView(v) => next.view = v,
            Action::GoToStep(n) => next = crate::learn::lesson::preset(n, &self),
            Action::SetQuestion(n) => {
                next.question = n.clamp(1, crate::learn::quiz::QUESTIONS.len())
            }
            Action::SetExam(e) => next.exam = e,
            Action::Preset(s) => next = *s,
            Action::SetAnchors(a) => {
                let a = distinct(a.into_iter().take(MAX_ANCHORS).collect());
                next.anchors = (!a.is_empty()).then_some(a);
            }
            Action::SetNormalised(n) => next.normalised = n,
            Action::SetOffsetSeries(s) => next.offset_series = s,
            Action::SetBases(b) => {
                let b: Vec<f64> = b
                    .into_iter()
                    .map(|v| BASE.accept(v).value)
                    .take(MAX_BASES)
                    .collect();
                if !b.is_empty() {
                    next.bases = b;
                }
            }
            Action::SetDims(d) => {
                let d: Vec<usize> = d.into_iter().take(MAX_DIMS).collect();
                next.dims = (!d.is_empty()).then_some(d);
            }
            Action::ToggleDim(c) => {
                let mut d = self.dims();
                if let Some(i) = d.iter().position(|x| *x == c) {
                    if d.len() > 1 {
                        d.remove(i);
                    }
                } else {
                    if d.len() >= MAX_DIMS {
                        d.remove(0);
                    }
                    d.push(c.min(self.d_model - 1));
                }
                next.dims = Some(d);
            }
            Action::StepPosition(n) => next.position = (self.position + n) % self.length,
            Action::SetPair(p) => next.pair = p,
            Action::SetPairing(p) => next.pairing = p,
            Action::SetScaleEmbeddings(v) => next.scale_embeddings = v,
            Action::SetSentence(i, text) => {
                if let (Some(slot), Ok(words)) = (next.sentences.get_mut(i), parse_sentence(&text))
                {
                    *slot = words.join(" ");
                }
            }
            Action::SetAttentionPosition(v) => next.attention_position = v,
            Action::SetTrace(i) => next.trace = i.min(1),
            Action::SetScheme(v) => next.scheme = v,
            Action::PickScheme(v) => {
                next.scheme = v;
                let on_a_line = v.space() == Space::Line;
                next.view = match self.view {
                    View::Matrix | View::Offsets if !on_a_line => View::Patches,
                    View::Patches if on_a_line => View::Matrix,
                    view => view,
                };
            }
            Action::SetTrainedLength(v) => {
                next.trained_length = TRAINED_LENGTH.accept(v).value as usize
            }
            Action::SetLearnedSeed(v) => next.learned_seed = SEED.accept(v).value as usize,
            Action::Edit(e) => (e.apply)(&mut next, e.value),
            Action::ApplyRope(c) => {
                c.apply(&mut next);
            }
            Action::EditList(e) => (e.apply)(&mut next, e.values),
            Action::SetCausal(c) => next.causal = c,
            Action::SetCompareWith(v) => next.compare_with = Some(v),
            Action::SetTheme(t) => next.theme = t,
            Action::SetTrain(key, value) => {
                let _ = next.train.apply(key, &value);
            }
            Action::SetTrainRun(r) => next.train_run = r,
            Action::SetPaddingIdx(p) => {
                next.padding_idx = p.map(|v| crate::limit::PADDING_IDX.accept(v).value as usize)
            }
            Action::SetRopeQ(v) => {
                if let Some(v) = checked_vector(v) {
                    next.rope_q = v;
                }
            }
            Action::SetRopeK(v) => {
                if let Some(v) = checked_vector(v) {
                    next.rope_k = v;
                }
            }
            Action::SetRopeM(v) => next.rope_m = self.rope_m_limit().accept(v).value as usize,
            Action::SetRopeN(v) => next.rope_n = self.rope_n_limit().accept(v).value as usize,
            // The view's 2-D scheme is the app's scheme when that is one of image patches.
            Action::SetGridScheme(g) => {
                next.grid.scheme = g;
                if next.scheme.space() == Space::Grid {
                    next.scheme = g.scheme();
                }
            }
            Action::SetGridTrained(v) => next.grid.trained = GRID_TRAINED.accept(v).value as usize,
            Action::SetGridInterpolate(v) => next.grid.interpolate = v,
            Action::SetGridHead(v) => next.grid.head = GRID_HEAD.accept(v).value as usize,
            Action::SetGridCls(v) => next.grid.cls = v,
            // A model picked from the list replaces a pasted config.
            Action::SetMropeModel(m) => {
                next.mrope.model = m;
                next.mrope.custom = None;
            }
            Action::SetMropeConfig(c) => next.mrope.custom = c.map(|c| *c),
            Action::SetMropeRule(t) => next.mrope.transformers_rule = t,
            Action::SetFrames(v) => next.mrope.frames = FRAMES.accept(v).value as usize,
        }
        next.settle();
        if next == *self {
            self
        } else {
            Rc::new(next)
        }
    }
}
