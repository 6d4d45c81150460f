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

use yew::{html, Callback, Html};

use crate::action::Action;
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::snippets::Library;
use crate::state::Settings;
use crate::ui::app::ViewProps;

pub use crate::math::scheme::Scheme;

/// What a scheme is and does, for every part of the app that shows it.
pub trait SchemeDef: Sync {
    /// The id in links and file names.
    fn id(&self) -> &'static str;
    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    fn short(&self) -> &'static str;
    /// The name in menus, with where it comes from.
    fn label(&self) -> &'static str;
    /// One sentence: where the scheme enters the model.
    fn entry(&self) -> &'static str;
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
    /// What the attention demo's head gets for a sentence of `n` tokens at `width`, or why the
    /// model cannot run.
    fn attention_inputs(
        &self,
        s: &Settings,
        n: usize,
        width: usize,
    ) -> Result<PositionInputs, String>;
    /// What switching position information on changes in the demo, in the scheme's terms.
    fn attention_switch_text(&self) -> &'static str;
    /// What the compare column is computed from.
    fn column(&self, s: &Settings) -> ColumnInputs;
    /// What happens past the trained length, computed from the settings.
    fn past_trained_length(&self, s: &Settings) -> String;
    /// The sidebar settings only this scheme has.
    fn controls(&self, _s: &Settings, _cb: &Callback<Action>) -> Html {
        html! {}
    }
    /// The "Position matrix" tab.
    fn matrix_view(&self, props: ViewProps) -> Html;
    /// The "By distance" tab.
    fn distance_view(&self, props: ViewProps) -> Html;
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
