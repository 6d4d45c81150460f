//! The sinusoidal encoding of "Attention Is All You Need" and its formula variants: math in
//! `math::sinusoidal`, views in `ui::encoding` and `ui::offsets`.

use super::def::{Control, Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::format::{file_number, plain};
use crate::limit::PADDING_IDX;
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::snippets::{py, Lib, Library};
use crate::sources::{
    Source, ANNOTATED_CODE, FAIRSEQ_CODE, GPTJ_CODE, PYTORCH_EXAMPLES_CODE, T2T_CODE,
    TF_TUTORIAL_CODE, VASWANI,
};
use crate::state::Settings;
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "sinusoidal",
            label: "Sinusoidal (Transformer, 2017)",
            entry: "Added to the token embeddings once, before the first layer: every vector carries its \
         absolute position.",
        }
    }
    fn is_absolute(&self) -> bool {
        true
    }
    fn base_hint(&self) -> Option<&'static str> {
        Some("10000 in the paper")
    }

    fn file_stem(&self, s: &Settings) -> String {
        let (variant, size) = (s.variant.id(), super::size(s));
        format!("{variant}_{size}_base{}", file_number(s.base))
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, &Lib::of(library))
    }

    fn attention_inputs(&self, s: &Settings, n: usize, width: usize) -> Positions {
        let e =
            Sinusoidal::new(s.variant, width, s.base).with_padding_idx(s.sinusoidal().padding_idx);
        PositionInputs::added(n, width, |p| Ok(e.token_row(p)))
    }

    fn attention_input_text(&self, s: &Settings, n: usize) -> String {
        format!(
            "The sinusoidal encoding of positions 0 … {} added ({}, base {}).",
            n - 1,
            s.variant.id(),
            plain(s.base)
        )
    }

    fn attention_switch_text(&self) -> &'static str {
        "Switch the position information on: each word's vector now carries its position, the \
         scores change, the outputs change, and the summaries move apart."
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        Some(ColumnInputs::Closed(
            Sinusoidal::new(s.variant, s.d_model, s.base),
            s.length,
        ))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        let t = s.trained_length;
        let e = Sinusoidal::new(s.variant, s.d_model, s.base);
        let fresh = (0..e.pair_count())
            .filter(|&i| (t.saturating_sub(1)) as f64 * e.omega(i) < std::f64::consts::TAU)
            .count();
        format!(
            "The formula is defined for every position, but {fresh} of the {} pairs have not \
             completed one turn within {t} positions: past it they reach angles the model never \
             saw in training. The vectors exist; whether the model can use them is another \
             matter.",
            e.pair_count()
        )
    }

    fn controls(&self, s: &Settings) -> Vec<Control> {
        let encoding = s.sinusoidal();
        let mut help = vec![format!(
            "ω_i = base^(−{})",
            s.variant.exponent_for(s.d_model)
        )];
        help.extend(
            [
                encoding.odd_column_note(),
                encoding.divisor_note(),
                encoding.padding_note(),
            ]
            .into_iter()
            .flatten(),
        );
        let mut out = vec![Control::Choice {
            id: "variant",
            key: "variant",
            label: "Formula variant",
            options: Variant::ALL.iter().map(|v| (v.id(), v.label())).collect(),
            selected: s.variant.id(),
            buttons: false,
            help,
            apply: |s, p| s.variant = Variant::ALL[p as usize],
        }];
        // fairseq's padding row exists only in its own (t2t) layout.
        if s.variant == Variant::T2t {
            out.push(Control::toggle(
                "padding-idx-on",
                "padding_idx",
                "fairseq's padding_idx",
                s.padding_idx.is_some(),
                |s, x| s.padding_idx = (x != 0.0).then_some(1),
            ));
            if let Some(p) = s.padding_idx {
                out.push(Control::number(
                    "padding-idx",
                    "padding_idx",
                    PADDING_IDX,
                    p as f64,
                    "1 in fairseq's dictionaries",
                    |s, x| s.padding_idx = Some(x as usize),
                ));
            }
        }
        out
    }

    fn views(&self) -> ViewKind {
        ViewKind::Sinusoidal
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[
            &VASWANI,
            &T2T_CODE,
            &FAIRSEQ_CODE,
            &GPTJ_CODE,
            &PYTORCH_EXAMPLES_CODE,
            &ANNOTATED_CODE,
            &TF_TUTORIAL_CODE,
        ]
    }
}

/// NumPy or PyTorch code for the matrix, in the chosen variant's layout.
fn code(s: &Settings, lib: &Lib) -> String {
    let Lib {
        name,
        float,
        cat,
        axis,
    } = *lib;
    let (count, exponent, note) = match s.variant {
        Variant::Paper | Variant::Split => ("(d_model + 1) // 2", "(2 * i) / d_model", ""),
        Variant::TutorialBug => (
            "(d_model + 1) // 2",
            "(2 * (2 * i)) / d_model",
            "# The tutorial bug: the column index 2i is doubled again (the paper's exponent is 2i/d).\n",
        ),
        Variant::T2t => ("d_model // 2", "i / max(d_model // 2 - 1, 1)", ""),
    };
    let zeros = lib.zeros("length", "d_model");
    let build = match s.variant {
        Variant::Paper | Variant::TutorialBug => format!(
            "pe = {zeros}\n\
             pe[:, 0::2] = {name}.sin(pos * omega)\n\
             pe[:, 1::2] = {name}.cos(pos * omega[: d_model // 2])\n"
        ),
        Variant::Split => format!(
            "# The paper's columns reordered: all sines, then all cosines.\n\
             pe = {cat}([{name}.sin(pos * omega), {name}.cos(pos * omega[: d_model // 2])], {axis}=1)\n"
        ),
        Variant::T2t => format!(
            "pe = {cat}([{name}.sin(pos * omega), {name}.cos(pos * omega)], {axis}=1)\n\
             if d_model % 2:  # tensor2tensor and fairseq pad an odd width with zeros\n    \
             pe = {cat}([pe, {}], {axis}=1)\n",
            lib.zeros("length", "1")
        ),
    };
    // fairseq numbers tokens from padding_idx + 1 (the t2t layout is fairseq's).
    let (first, padding) = match s.sinusoidal().padding_idx {
        Some(p) => (
            format!(" + {}", p + 1),
            format!(
                "# fairseq's padding_idx = {p}: token i reads table row {p} + 1 + i, and row {p} is \
                 zeros.\n# The same rows: SinusoidalPositionalEmbedding.get_embedding({p} + 1 + \
                 length, d_model, padding_idx={p})[{p} + 1:] (fairseq fixes base 10000).\n"
            ),
        ),
        None => (String::new(), String::new()),
    };
    format!(
        "d_model, length, base = {}, {}, {}  # variant: {}\n\
         {note}{padding}\
         i = {name}.arange({count}, {float})\n\
         omega = base ** (-({exponent}))\n\
         pos = {name}.arange(length, {float})[:, None]{first}\n\
         {build}\
         matrix = pe  # length × d_model, as in the app's CSV\n",
        s.d_model,
        s.length,
        py(s.base),
        s.variant.id()
    )
}

/// Where the scheme enters the model the Train view trains.
pub fn trained(t: &TrainSettings) -> Position {
    Position::Sinusoidal {
        variant: t.variant,
        base: t.base,
    }
}
