//! The contract every scheme's module fulfils ([`SchemeDef`]), and the plain data it answers
//! with: its names, its sidebar settings as [`Control`]s the UI draws, the family of views that
//! show it ([`ViewKind`]), and the properties the shared views ask about. No scheme is named
//! here, and nothing here draws: the UI reads this data.

use std::rc::Rc;

use super::inputs::{ColumnInputs, PositionInputs};
use crate::limit::Limit;
use crate::params::SchemeParam;
use crate::snippets::Library;
use crate::sources::Source;
use crate::state::Settings;

/// A scheme's names.
pub struct Names {
    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    pub short: &'static str,
    /// The name in menus, with where it comes from.
    pub label: &'static str,
    /// One sentence: where the scheme enters the model.
    pub entry: &'static str,
}

/// The views that draw a scheme in the "Position matrix" and "By distance" tabs. A scheme that
/// adds a score bias of a new kind can use [`ViewKind::Bias`] and needs no view of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewKind {
    /// The encoding matrix and the dot product by offset.
    Sinusoidal,
    /// The table and its rows' dot products.
    Learned,
    /// The cos cache, the score by distance, the extension methods and the check.
    Rope,
    /// The bucket matrix and staircase.
    T5,
    /// Any bias on the scores ([`SchemeDef::bias`]): the bias of one head and of several, and
    /// every head's bias against distance.
    Bias,
    /// Nothing to draw.
    Nothing,
    /// A scheme of image patches or of a multimodal sequence: drawn on the grid of the Image
    /// patches view, not on a line of tokens.
    Patches,
}

/// What a shared bias view draws: `heads` heads whose bias for query i and key j is
/// `at(h, i, j)` (`None`: the key is masked), with the head shown alone.
#[derive(Clone)]
pub struct HeadBias {
    pub heads: usize,
    /// The head drawn alone.
    pub head: usize,
    /// What the memo compares: every setting the bias reads (the export's file stem does).
    pub key: String,
    pub at: Rc<dyn Fn(usize, usize, usize) -> Option<f64>>,
    /// What the colour scale and axes call a value.
    pub unit: &'static str,
    /// Paragraphs under the matrix (how the bias is made) and under the curves (what happens
    /// at long distances).
    pub about: Vec<String>,
    pub far: String,
    /// Whether the bias depends on the query's position as well as the distance (then the
    /// curves are drawn for the last query).
    pub depends_on_query: bool,
}

impl PartialEq for HeadBias {
    fn eq(&self, other: &HeadBias) -> bool {
        self.key == other.key && self.heads == other.heads && self.head == other.head
    }
}

impl std::fmt::Debug for HeadBias {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "HeadBias({}, {} heads)", self.key, self.heads)
    }
}

/// A UI panel a scheme needs beyond plain numbers and choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Panel {
    /// Paste a model's `config.json` (RoPE).
    RopeConfig,
}

/// One preset button: its text, whether it is the current value, and the edit it makes.
#[derive(Clone, Debug, PartialEq)]
pub struct Preset {
    pub text: &'static str,
    pub active: bool,
    pub value: f64,
}

/// One of a scheme's sidebar settings, as data: the UI draws it and turns a change into the
/// edit `apply` describes (`key` names it in links and in the reducer's equality).
#[derive(Clone, Debug)]
pub enum Control {
    /// A number held to a limit.
    Number {
        id: &'static str,
        key: &'static str,
        limit: Limit,
        value: f64,
        hint: String,
        apply: fn(&mut Settings, f64),
    },
    /// On or off.
    Toggle {
        id: &'static str,
        key: &'static str,
        label: &'static str,
        on: bool,
        apply: fn(&mut Settings, f64),
    },
    /// One of a few (`apply` gets its place in `options`), as a drop-down or a row of buttons,
    /// with lines of help under it.
    Choice {
        id: &'static str,
        key: &'static str,
        label: &'static str,
        options: Vec<(&'static str, &'static str)>,
        selected: &'static str,
        buttons: bool,
        help: Vec<String>,
        apply: fn(&mut Settings, f64),
    },
    /// Buttons that each set one value.
    Presets {
        label: &'static str,
        key: &'static str,
        items: Vec<Preset>,
        apply: fn(&mut Settings, f64),
    },
    Panel(Panel),
}

impl Control {
    /// The element id of a number, switch or choice (the strip names them by it).
    pub fn id(&self) -> Option<&'static str> {
        match self {
            Control::Number { id, .. }
            | Control::Toggle { id, .. }
            | Control::Choice { id, .. } => Some(id),
            Control::Presets { .. } | Control::Panel(_) => None,
        }
    }

    /// A number held to `limit`, set by `apply`.
    pub fn number(
        id: &'static str,
        key: &'static str,
        limit: Limit,
        value: f64,
        hint: impl Into<String>,
        apply: fn(&mut Settings, f64),
    ) -> Control {
        Control::Number {
            id,
            key,
            limit,
            value,
            hint: hint.into(),
            apply,
        }
    }

    /// On or off, set by `apply` (1 or 0).
    pub fn toggle(
        id: &'static str,
        key: &'static str,
        label: &'static str,
        on: bool,
        apply: fn(&mut Settings, f64),
    ) -> Control {
        Control::Toggle {
            id,
            key,
            label,
            on,
            apply,
        }
    }

    /// The app's seed (shared by the schemes that draw untrained numbers).
    pub fn seed(s: &Settings, hint: &'static str) -> Control {
        Control::number(
            "seed",
            "seed",
            crate::limit::SEED,
            s.learned_seed as f64,
            hint,
            |s, x| s.learned_seed = x as usize,
        )
    }
}

/// What the attention demo's head gets for a sentence, or why the model cannot run.
pub type Positions = Result<PositionInputs, String>;

/// What a scheme is and does, for every part of the app that shows it.
pub trait SchemeDef: Sync {
    fn names(&self) -> Names;
    /// Whether the scheme adds vectors to the embeddings (a position × dimension matrix).
    fn is_absolute(&self) -> bool {
        false
    }
    /// What the scheme sees, when without a causal mask it sees only |i − j| (a key as far after
    /// the query as another is before it gets the same bias), so that it cannot tell direction
    /// and a reversed sentence can tie: "the distance |i − j|".
    fn direction_blind(&self) -> Option<&'static str> {
        None
    }
    /// The base slider's hint, when the scheme uses the base.
    fn base_hint(&self) -> Option<&'static str> {
        None
    }
    /// The trained-length slider's hint (the slider is hidden when `None`).
    fn trained_hint(&self) -> Option<&'static str> {
        Some("marked on the charts")
    }
    /// The settings an export's file name records, so two exports never share a name.
    fn file_stem(&self, s: &Settings) -> String;
    /// Code that rebuilds the "Position matrix" view's matrix.
    fn snippet(&self, s: &Settings, library: Library) -> String;
    /// What the attention demo's head gets for a sentence of `n` tokens at `width`.
    fn attention_inputs(&self, s: &Settings, n: usize, width: usize) -> Positions;
    /// The demo's "+ position" step for a sentence of `n` tokens, when position is on.
    fn attention_input_text(&self, _s: &Settings, _n: usize) -> String {
        format!(
            "{} adds nothing here: it enters later, inside attention.",
            self.names().short
        )
    }
    /// What switching position information on changes in the demo, in the scheme's terms.
    fn attention_switch_text(&self) -> &'static str;
    /// What the compare column is computed from (`None`: the scheme places no line of tokens,
    /// and the compare view, which draws one, leaves it out).
    fn column(&self, _s: &Settings) -> Option<ColumnInputs> {
        None
    }
    /// What happens past the trained length, computed from the settings.
    fn past_trained_length(&self, s: &Settings) -> String;
    /// The link parameters of this scheme's own settings, written after the seed in the order
    /// of `Scheme::ALL`.
    fn params(&self) -> &'static [SchemeParam] {
        &[]
    }
    /// Holds this scheme's own settings to their limits (after every change).
    fn check(&self, _s: &mut Settings) {}
    /// The sidebar settings only this scheme has.
    fn controls(&self, _s: &Settings) -> Vec<Control> {
        Vec::new()
    }
    /// The views that draw it.
    fn views(&self) -> ViewKind;
    /// The bias the shared bias views draw (schemes that add one to the scores).
    fn bias(&self, _s: &Settings) -> Option<HeadBias> {
        None
    }
    /// Its papers and the code the app follows, the first its own paper.
    fn sources(&self) -> &'static [&'static Source];
}
