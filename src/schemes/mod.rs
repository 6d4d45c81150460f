//! One place per scheme. Everything a scheme owns is reached from its module here: its math
//! (in `math/`), its name and where it enters the model, the file names of its exports, its
//! NumPy/PyTorch snippet, what it hands the attention demo, its compare column, what happens
//! past the trained length, its sidebar settings and its two views.
//!
//! Adding a scheme: write `schemes/<name>.rs` implementing [`SchemeDef`], add its variant and
//! its line in [`Scheme::def`] here, and test it in `tests/<name>.rs`. Nothing else matches on
//! the scheme.

pub mod alibi;
pub mod learned;
pub mod none;
pub mod rope;
pub mod sinusoidal;
pub mod t5;

use yew::{html, BaseComponent, Callback, Html};

use crate::action::{Action, Edit};
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::snippets::Library;
use crate::state::Settings;
use crate::ui::app::ViewProps;
use crate::url::Param;

/// A way of telling a transformer where each token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Scheme {
    /// Fixed sines and cosines added to the embeddings (Vaswani et al., 2017).
    #[default]
    Sinusoidal,
    /// A trained table of vectors added to the embeddings (BERT, GPT-2).
    Learned,
    /// Queries and keys rotated by position (RoFormer; GPT-NeoX, LLaMA).
    Rope,
    /// A linear distance penalty added to the attention scores (BLOOM, MPT).
    Alibi,
    /// A learned bias per bucket of relative distance, added to the scores (T5).
    T5,
    /// No position information at all.
    None,
}

impl Scheme {
    pub const ALL: [Scheme; 6] = [
        Scheme::Sinusoidal,
        Scheme::Learned,
        Scheme::Rope,
        Scheme::Alibi,
        Scheme::T5,
        Scheme::None,
    ];

    pub fn id(self) -> &'static str {
        self.def().names().id
    }

    pub fn from_id(id: &str) -> Option<Scheme> {
        Scheme::ALL.into_iter().find(|s| s.id() == id)
    }

    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    pub fn short(self) -> &'static str {
        self.def().names().short
    }

    pub fn label(self) -> &'static str {
        self.def().names().label
    }

    /// One sentence: where the scheme enters the model.
    pub fn entry(self) -> &'static str {
        self.def().names().entry
    }

    /// Whether the scheme adds vectors to the embeddings (and so has a position × dimension
    /// matrix).
    pub fn is_absolute(self) -> bool {
        self.def().is_absolute()
    }

    /// Whether the scheme uses the base slider.
    pub fn uses_base(self) -> bool {
        self.def().base_hint().is_some()
    }
}

/// A scheme's names.
pub struct Names {
    /// The id in links and file names.
    pub id: &'static str,
    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    pub short: &'static str,
    /// The name in menus, with where it comes from.
    pub label: &'static str,
    /// One sentence: where the scheme enters the model.
    pub entry: &'static str,
}

/// A scheme's two tabs: "Position matrix" and "By distance".
pub struct Views {
    pub matrix: fn(ViewProps) -> Html,
    pub distance: fn(ViewProps) -> Html,
}

/// A view component as a tab of a scheme: `view::<EncodingView>`.
pub fn view<C: BaseComponent<Properties = ViewProps>>(props: ViewProps) -> Html {
    html! { <C ..props /> }
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
            self.names().id
        )
    }
    /// What switching position information on changes in the demo, in the scheme's terms.
    fn attention_switch_text(&self) -> &'static str;
    /// What the compare column is computed from.
    fn column(&self, s: &Settings) -> ColumnInputs;
    /// What happens past the trained length, computed from the settings.
    fn past_trained_length(&self, s: &Settings) -> String;
    /// The link parameters of this scheme's own settings, written after the seed in the order
    /// of [`Scheme::ALL`].
    fn params(&self) -> &'static [Param] {
        &[]
    }
    /// Holds this scheme's own settings to their limits (after every change).
    fn check(&self, _s: &mut Settings) {}
    /// The sidebar settings only this scheme has.
    fn controls(&self, _s: &Settings, _cb: &Callback<Action>) -> Html {
        html! {}
    }
    fn views(&self) -> Views;
}

impl Scheme {
    /// The scheme's definition: the one match on the scheme in the app.
    pub fn def(self) -> &'static dyn SchemeDef {
        match self {
            Scheme::Sinusoidal => &sinusoidal::Def,
            Scheme::Learned => &learned::Def,
            Scheme::Rope => &rope::Def,
            Scheme::Alibi => &alibi::Def,
            Scheme::T5 => &t5::Def,
            Scheme::None => &none::Def,
        }
    }
}

/// Every scheme's own settings held to their limits.
pub fn check(s: &mut Settings) {
    for scheme in Scheme::ALL {
        scheme.def().check(s);
    }
}

/// A control's callback that sets one of a scheme's own numbers (see [`Edit`]).
pub fn edit(
    cb: &Callback<Action>,
    key: &'static str,
    apply: fn(&mut Settings, f64),
) -> Callback<f64> {
    let cb = cb.clone();
    Callback::from(move |value: f64| cb.emit(Action::Edit(Edit { key, value, apply })))
}

/// A choice's callback that sets one of a scheme's own choices by its place among `ids`.
pub fn edit_choice(
    cb: &Callback<Action>,
    key: &'static str,
    ids: &[&'static str],
    apply: fn(&mut Settings, f64),
) -> Callback<String> {
    let (cb, ids) = (cb.clone(), ids.to_vec());
    Callback::from(move |id: String| {
        if let Some(p) = ids.iter().position(|i| *i == id) {
            cb.emit(Action::Edit(Edit {
                key,
                value: p as f64,
                apply,
            }))
        }
    })
}

/// "d128_len100": the width and length, in export file names.
pub fn size(s: &Settings) -> String {
    format!("d{}_len{}", s.d_model, s.length)
}
