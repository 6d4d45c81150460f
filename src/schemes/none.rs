//! No position information: the baseline the other schemes are measured against.

use yew::Html;

use super::SchemeDef;
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::snippets::Library;
use crate::state::Settings;
use crate::ui::app::ViewProps;
use crate::ui::schemes::none_panel;

pub struct Def;

impl SchemeDef for Def {
    fn id(&self) -> &'static str {
        "none"
    }
    fn short(&self) -> &'static str {
        "none"
    }
    fn label(&self) -> &'static str {
        "None"
    }
    fn entry(&self) -> &'static str {
        "Nowhere: the model sees a bag of words (a decoder's causal mask alone still leaks some \
         order)."
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!("none_d{}_len{}", s.d_model, s.length)
    }

    fn snippet(&self, _s: &Settings, _library: Library) -> String {
        "# No position scheme: there is no matrix to build.\nmatrix = None\n".into()
    }

    fn attention_inputs(
        &self,
        _s: &Settings,
        _n: usize,
        _width: usize,
    ) -> Result<PositionInputs, String> {
        Ok(PositionInputs::default())
    }

    fn attention_switch_text(&self) -> &'static str {
        "The scheme \"none\" has no position information to switch on: choose a scheme in the \
         settings to see the sentences come apart."
    }

    fn column(&self, s: &Settings) -> ColumnInputs {
        ColumnInputs::bias(s.length, "nothing", |_| 0.0)
    }

    fn past_trained_length(&self, _s: &Settings) -> String {
        "Nothing changes: there was no position information to begin with.".into()
    }

    fn matrix_view(&self, _props: ViewProps) -> Html {
        none_panel("matrix")
    }

    fn distance_view(&self, _props: ViewProps) -> Html {
        none_panel("distance")
    }
}
