//! One place per scheme. Everything a scheme owns is reached from its module here: its names
//! and where it enters the model, the file names of its exports, its NumPy/PyTorch snippet,
//! what it hands the attention demo, its compare column, what happens past the trained length,
//! its sidebar settings (as data), its link parameters, the views that draw it and its sources.
//!
//! The floors, bottom up: [`kind`] (the list and the settings each scheme owns, which
//! `state::Settings` holds), [`def`] and [`inputs`] (the contract and its data), one module per
//! scheme, and this registry. Nothing here imports the figures, the reducer, the link or the UI.
//!
//! Adding a scheme: its variant, id, space and settings in [`kind`], `schemes/<name>.rs`
//! implementing [`SchemeDef`], and its line in `with_def!` and [`trained`] here. A scheme of
//! image patches also names its [`grid::GridScheme`] and writes its part of
//! [`patch_snippet`].

pub mod alibi;
pub mod def;
pub mod fire;
pub mod grid;
pub mod inputs;
pub mod kerple;
pub mod kind;
pub mod learned;
pub mod mrope;
pub mod none;
pub mod rope;
pub mod rope_axial;
pub mod rope_mixed;
pub mod rope_settings;
pub mod sinusoidal;
pub mod t5;
pub mod vit_learned;
pub mod vit_sincos;

pub use def::{Control, HeadBias, Names, Panel, Positions, Preset, SchemeDef, ViewKind};
pub use kind::{Scheme, SchemeSettings, Space};

use grid::{GridScheme, GridSettings};

use std::sync::Arc;

use crate::math::bias::ScoreBias;
use crate::snippets::Library;
use crate::sources::Source;
use crate::state::{Settings, View};
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

/// The one match from a scheme to its module's definition. Calls a [`SchemeDef`] method on it
/// without going through its vtable
/// (`with_def!(scheme, |d| d.views())`): a module that asks one thing of a scheme links that
/// method only, not every scheme's whole definition (the site's main module, the first paint, stays small).
macro_rules! with_def {
    ($scheme:expr, |$d:ident| $body:expr) => {
        match $scheme {
            Scheme::Sinusoidal => {
                let $d = &sinusoidal::Def;
                $body
            }
            Scheme::Learned => {
                let $d = &learned::Def;
                $body
            }
            Scheme::Rope => {
                let $d = &rope::Def;
                $body
            }
            Scheme::Alibi => {
                let $d = &alibi::Def;
                $body
            }
            Scheme::T5 => {
                let $d = &t5::Def;
                $body
            }
            Scheme::Kerple => {
                let $d = &kerple::Def;
                $body
            }
            Scheme::Fire => {
                let $d = &fire::Def;
                $body
            }
            Scheme::VitSinCos => {
                let $d = &vit_sincos::Def;
                $body
            }
            Scheme::VitLearned => {
                let $d = &vit_learned::Def;
                $body
            }
            Scheme::RopeAxial => {
                let $d = &rope_axial::Def;
                $body
            }
            Scheme::RopeMixed => {
                let $d = &rope_mixed::Def;
                $body
            }
            Scheme::Mrope => {
                let $d = &mrope::Def;
                $body
            }
            Scheme::None => {
                let $d = &none::Def;
                $body
            }
        }
    };
}

/// What every scheme says about itself, reached from its variant. A trait (not inherent
/// methods) so that a file using it names this module: the floors below cannot.
pub trait Registered: Copy {
    /// The scheme's definition, as a trait object (the questions below, and the free functions
    /// after them, ask it through `with_def!`, which holds the one match on the scheme).
    fn def(self) -> &'static dyn SchemeDef;

    /// The name inside a sentence: "with RoPE", "with sinusoidal".
    fn short(self) -> &'static str;

    fn label(self) -> &'static str;

    /// One sentence: where the scheme enters the model.
    fn entry(self) -> &'static str;

    /// Whether the scheme adds vectors to the embeddings (and so has a position × dimension
    /// matrix).
    fn is_absolute(self) -> bool;

    /// Whether the scheme uses the base slider.
    fn uses_base(self) -> bool;

    /// Which views draw it.
    fn views(self) -> ViewKind;
}

impl Registered for Scheme {
    fn def(self) -> &'static dyn SchemeDef {
        with_def!(self, |d| d)
    }

    fn short(self) -> &'static str {
        with_def!(self, |d| d.names().short)
    }

    fn label(self) -> &'static str {
        with_def!(self, |d| d.names().label)
    }

    fn entry(self) -> &'static str {
        with_def!(self, |d| d.names().entry)
    }

    fn is_absolute(self) -> bool {
        with_def!(self, |d| d.is_absolute())
    }

    fn uses_base(self) -> bool {
        with_def!(self, |d| d.base_hint().is_some())
    }

    fn views(self) -> ViewKind {
        with_def!(self, |d| d.views())
    }
}

/// What the attention demo's head gets from the scheme for a sentence of `n` tokens at `width`
/// ([`SchemeDef::attention_inputs`], without the vtable).
pub fn attention_inputs(scheme: Scheme, s: &Settings, n: usize, width: usize) -> Positions {
    with_def!(scheme, |d| d.attention_inputs(s, n, width))
}

/// What the compare view's column computes for the scheme ([`SchemeDef::column`], without the
/// vtable).
pub fn column(scheme: Scheme, s: &Settings) -> Option<inputs::ColumnInputs> {
    with_def!(scheme, |d| d.column(s))
}

/// The scheme's bias on the attention scores with these settings, if it adds one
/// ([`SchemeDef::bias`], without the vtable).
pub fn bias(scheme: Scheme, s: &Settings) -> Option<HeadBias> {
    with_def!(scheme, |d| d.bias(s))
}

/// Where `scheme` enters the model the Train view trains, with these settings: each scheme's
/// module says (`<name>::trained`). A match of its own rather than a method of [`SchemeDef`], so
/// the training worker links these functions and none of the rest of a scheme's definition;
/// a new scheme does not compile until it has its line here. `None` for the schemes of image
/// patches: the trained tasks are lines of tokens (the trainer lists only
/// [`Scheme::on_a_line`]).
pub fn trained(scheme: Scheme, t: &TrainSettings) -> Option<Position> {
    Some(match scheme {
        Scheme::Sinusoidal => sinusoidal::trained(t),
        Scheme::Learned => learned::trained(t),
        Scheme::Rope => rope::trained(t),
        Scheme::Alibi => alibi::trained(t),
        Scheme::T5 => t5::trained(t),
        Scheme::Kerple => kerple::trained(t),
        Scheme::Fire => fire::trained(t),
        Scheme::None => none::trained(t),
        Scheme::VitSinCos
        | Scheme::VitLearned
        | Scheme::RopeAxial
        | Scheme::RopeMixed
        | Scheme::Mrope => return None,
    })
}

/// The schemes that enter the model as a bias on the attention scores, each with its bias, for
/// these settings (what the compare view and the Train view say of "the bias schemes").
pub fn score_biases(t: &TrainSettings) -> Vec<(Scheme, Arc<dyn ScoreBias>)> {
    Scheme::ALL
        .into_iter()
        .filter_map(|s| match trained(s, t)? {
            Position::Bias(b) => Some((s, b)),
            _ => None,
        })
        .collect()
}

/// Every scheme's own settings held to their limits.
pub fn check(s: &mut Settings) {
    for scheme in Scheme::ALL {
        with_def!(scheme, |d| d.check(s));
    }
}

/// "d128_len100": the width and length, in export file names.
pub fn size(s: &Settings) -> String {
    format!("d{}_len{}", s.d_model, s.length)
}

/// A file name (without extension) for an export of `what`, naming the settings `scheme` reads,
/// so two figures from different settings never share a name.
pub fn file_stem(s: &Settings, scheme: Scheme, what: &str) -> String {
    format!("pe_{what}_{}", scheme.def().file_stem(s))
}

/// The snippet for the current settings.
pub fn snippet(s: &Settings, library: Library) -> String {
    let imports = match library {
        Library::NumPy => "import math\nimport numpy as np\n",
        Library::PyTorch => "import math\nimport torch\n",
    };
    let body = s.scheme.def().snippet(s, library);
    format!(
        "# Positional Encoding Explorer: {}\n{imports}\n{body}",
        s.scheme.label()
    )
}

/// "vit_sincos_14x14_d128": a 2-D scheme's grid and width, in export file names.
pub fn grid_stem(s: &Settings, scheme: GridScheme) -> String {
    let g = &s.grid;
    format!(
        "{}_{}x{}_d{}",
        scheme.id(),
        g.rows,
        g.cols,
        GridSettings::width(s.d_model)
    )
}

/// Code that rebuilds a 2-D scheme's matrix on the grid `g` at width `d_model`: `matrix`, one
/// row per patch in row-major order (after the CLS token's row when `g.cls`): the vectors of an
/// additive scheme, the angles of a rotary one. Each scheme's module writes its part.
pub fn patch_snippet(
    g: &GridSettings,
    d_model: usize,
    base: f64,
    seed: usize,
    library: Library,
) -> String {
    let (d, rows, cols) = (GridSettings::width(d_model), g.rows, g.cols);
    let torch = library == Library::PyTorch;
    let import = if torch {
        "import torch"
    } else {
        "import numpy as np"
    };
    let head = format!("{import}\nD, rows, cols = {d}, {rows}, {cols}\n");
    let body = match (g.scheme, torch) {
        (GridScheme::SinCos, false) => vit_sincos::numpy(base),
        (GridScheme::SinCos, true) => vit_sincos::torch(base),
        (GridScheme::Learned, false) => vit_learned::numpy(g, seed),
        (GridScheme::Learned, true) => vit_learned::torch(g, seed),
        (GridScheme::Axial, false) => rope_axial::numpy(),
        (GridScheme::Axial, true) => rope_axial::torch(),
        (GridScheme::Mixed, false) => rope_mixed::numpy(g, seed),
        (GridScheme::Mixed, true) => rope_mixed::torch(g, seed),
    };
    let cls = match (g.cls, g.scheme, torch) {
        (false, ..) => "",
        (true, GridScheme::SinCos, false) => "# MAE's cls_token=True: a row of zeros first.\n\
             matrix = np.concatenate([np.zeros([1, D], dtype=np.float32), matrix], axis=0)\n",
        (true, GridScheme::SinCos, true) => "# MAE's cls_token=True: a row of zeros first.\n\
             matrix = torch.cat([torch.zeros(1, D), matrix], dim=0)\n",
        (true, GridScheme::Learned, false) => "# The CLS token's own row, the table's row after the trained grid's patches\n\
             # (interpolate_pos_embed keeps it as it is).\n\
             matrix = np.concatenate([learned_table(trained * trained + 1, D, seed)[-1:], matrix], axis=0)\n",
        (true, GridScheme::Learned, true) => "# The CLS token's own row, the table's row after the trained grid's patches\n\
             # (interpolate_pos_embed keeps it as it is).\n\
             cls = torch.from_numpy(learned_table(trained * trained + 1, D, seed)[-1:]).float()\n\
             matrix = torch.cat([cls, matrix], dim=0)\n",
        (true, _, false) => "# RoPE-ViT turns the patches only: the CLS token's angles are 0.\n\
             matrix = np.concatenate([np.zeros([1, matrix.shape[1]], dtype=np.float32), matrix], axis=0)\n",
        (true, _, true) => "# RoPE-ViT turns the patches only: the CLS token's angles are 0.\n\
             matrix = torch.cat([torch.zeros(1, matrix.shape[1]), matrix], dim=0)\n",
    };
    head + &body + cls
}

/// A 2-D scheme's snippet for the settings (its grid as the Image patches view shows it).
fn grid_snippet(s: &Settings, scheme: GridScheme, library: Library) -> String {
    let g = GridSettings {
        scheme,
        ..s.grid.clone()
    };
    patch_snippet(&g, s.d_model, s.base, s.learned_seed, library)
}

/// The sources of `view` showing `scheme` (see [`crate::sources::sources`]).
pub fn sources(view: View, lesson_view: View, scheme: Scheme) -> Vec<&'static Source> {
    crate::sources::sources(view, lesson_view, scheme, |s| s.def().sources())
}
