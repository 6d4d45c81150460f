//! No position information: the baseline the other schemes are measured against.

use super::def::{Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::snippets::Library;
use crate::sources::{Source, HAVIV, KAZEMNEJAD};
use crate::state::Settings;
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "none",
            label: "None",
            entry: "Nowhere: the model sees a bag of words (a decoder's causal mask alone still leaks some \
         order).",
        }
    }
    fn trained_hint(&self) -> Option<&'static str> {
        None
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!("none_{}", super::size(s))
    }

    fn snippet(&self, _s: &Settings, _library: Library) -> String {
        "# No position scheme: there is no matrix to build.\nmatrix = None\n".into()
    }

    fn attention_inputs(&self, _s: &Settings, _n: usize, _width: usize) -> Positions {
        Ok(PositionInputs::default())
    }

    fn attention_switch_text(&self) -> &'static str {
        "The scheme \"none\" has no position information to switch on: choose a scheme in the \
         settings to see the sentences come apart."
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        Some(ColumnInputs::bias(s.length, "nothing", (), |_, _| 0.0))
    }

    fn past_trained_length(&self, _s: &Settings) -> String {
        "Nothing changes: there was no position information to begin with.".into()
    }

    fn views(&self) -> ViewKind {
        ViewKind::Nothing
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&HAVIV, &KAZEMNEJAD]
    }
}

/// Where the scheme enters the model the Train view trains.
pub fn trained(_t: &TrainSettings) -> Position {
    Position::None
}
