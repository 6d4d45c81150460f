//! KERPLE-log (Chi et al., NeurIPS 2022): a bias −r1·ln(1 + r2·|i − j|) on the scores, the
//! logarithmic kernel of "KERPLE: Kernelized Relative Positional Embedding for Length
//! Extrapolation". Math in `math::kerple` (also the trainer's, where r1 and r2 are learned per
//! head); drawn by the shared bias views.

use std::rc::Rc;

use super::def::{Control, HeadBias, Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::format::{file_number, group_thousands, plain, significant};
use crate::limit::Limit;
use crate::params::{read_edit, SchemeParam, Value};
use crate::snippets::{py, Library};
use crate::sources::{Source, KERPLE_CODE, KERPLE_PAPER};
use crate::state::Settings;
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

/// r1 and r2 as the sliders hold them: the reference clamps both to at least 0.01.
pub const R1: Limit = Limit::real("r1", 0.01, 100.0, true);
pub const R2: Limit = Limit::real("r2", 0.01, 100.0, true);

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "KERPLE",
            label: "KERPLE-log kernel bias (2022)",
            entry: "Added to the attention scores in every layer: a penalty that grows with the \
                logarithm of the distance between query and key, −r1·ln(1 + r2·|i − j|), with \
                r1 and r2 learned per head.",
        }
    }

    fn direction_blind(&self) -> Option<&'static str> {
        Some("the distance |i − j|")
    }

    fn file_stem(&self, s: &Settings) -> String {
        let k = s.schemes.kerple;
        format!(
            "kerple_r1{}_r2{}_len{}",
            file_number(k.r1),
            file_number(k.r2),
            s.length
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        let k = s.schemes.kerple;
        let (lib, nan, float) = match library {
            Library::NumPy => ("np", "np.nan", "dtype=np.float64"),
            Library::PyTorch => (
                "torch",
                "torch.tensor(float(\"nan\"), dtype=torch.float64)",
                "dtype=torch.float64",
            ),
        };
        format!(
            "# KERPLE-log as the reference ParallelKerpleLog: bias_p = r1, bias_a = r2, each\n\
             # clamped to at least 0.01, on the causal distance tril(i - j).\n\
             r1, r2, length = {}, {}, {}\n\
             i = {lib}.arange(length, {float})[:, None]  # query\n\
             j = {lib}.arange(length, {float})[None, :]  # key\n\
             bias = -max(r1, 0.01) * {lib}.log(1 + max(r2, 0.01) * (i - j).clip(min=0))\n\
             matrix = {lib}.where(j <= i, bias, {nan})  # causal: future keys masked\n",
            py(k.r1),
            py(k.r2),
            s.length
        )
    }

    fn params(&self) -> &'static [SchemeParam] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        let k = &mut s.schemes.kerple;
        k.r1 = R1.accept(k.r1).value;
        k.r2 = R2.accept(k.r2).value;
    }

    fn attention_inputs(&self, s: &Settings, n: usize, _width: usize) -> Positions {
        let (k, causal) = (s.schemes.kerple, s.causal);
        Ok(PositionInputs::bias(n, |i, j| {
            k.bias(i, j, causal).unwrap_or(f64::NAN)
        }))
    }

    fn attention_switch_text(&self) -> &'static str {
        super::alibi::Def.attention_switch_text()
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        Some(ColumnInputs::bias(
            s.length,
            "bias",
            s.schemes.kerple,
            |k, offset| {
                if offset > 0 {
                    f64::NAN
                } else {
                    k.at_distance(offset.unsigned_abs() as f64)
                }
            },
        ))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        let k = s.schemes.kerple;
        let t = s.trained_length as f64;
        format!(
            "Nothing new appears, and the penalty grows ever more slowly: at twice the trained \
             length ({}) it is {} against {} at the trained length, a logarithm where ALiBi's \
             line would double. Far keys fade but are never pushed away without end.",
            group_thousands(2 * s.trained_length as u64),
            significant(k.at_distance(2.0 * t), 4),
            significant(k.at_distance(t), 4)
        )
    }

    #[rustfmt::skip]
    fn controls(&self, s: &Settings) -> Vec<Control> {
        let k = s.schemes.kerple;
        vec![
            Control::number("kerple-r1", "r1", R1, k.r1, "depth: how far the bias falls", |s, x| s.schemes.kerple.r1 = x),
            Control::number("kerple-r2", "r2", R2, k.r2, "bend: where the fall turns logarithmic", |s, x| s.schemes.kerple.r2 = x),
        ]
    }

    fn views(&self) -> ViewKind {
        ViewKind::Bias
    }

    fn bias(&self, s: &Settings) -> Option<HeadBias> {
        let k = s.schemes.kerple;
        let t = s.trained_length as f64;
        Some(HeadBias {
            heads: 1,
            head: 0,
            key: self.file_stem(s),
            at: Rc::new(move |_, i, j| k.bias(i, j, true)),
            unit: "bias",
            about: vec![
                "KERPLE adds −r1·ln(1 + r2·(i − j)) to the score of query i and key j: like \
                 ALiBi a penalty that grows with distance, but logarithmically, so it is steep \
                 near the query and nearly flat far away. r1 sets how deep it goes, r2 where it \
                 bends; a trained model learns both for every head. The masked upper triangle \
                 (future keys, in a decoder) is drawn as undefined."
                    .into(),
                format!(
                    "With r1 = {} and r2 = {}: distance 1 costs {}, distance 10 costs {}, \
                     distance 100 costs {}.",
                    plain(k.r1),
                    plain(k.r2),
                    significant(-k.at_distance(1.0), 4),
                    significant(-k.at_distance(10.0), 4),
                    significant(-k.at_distance(100.0), 4)
                ),
            ],
            far: format!(
                "Past the trained length the curve keeps falling, ever more slowly: at distance \
                 {} it is {}, only {} below its value at the trained length. A kernel that \
                 flattens like this is what the paper credits for extrapolating.",
                group_thousands(2 * s.trained_length as u64),
                significant(k.at_distance(2.0 * t), 4),
                significant(k.at_distance(t) - k.at_distance(2.0 * t), 3)
            ),
            depends_on_query: false,
        })
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&KERPLE_PAPER, &KERPLE_CODE]
    }
}

/// KERPLE's link parameters.
#[rustfmt::skip]
pub const PARAMS: &[SchemeParam] = &[
    SchemeParam { key: "r1", read: |v, _| read_edit("r1", v, R1, |s, x| s.schemes.kerple.r1 = x), write: |s| Value::from(s.schemes.kerple.r1) },
    SchemeParam { key: "r2", read: |v, _| read_edit("r2", v, R2, |s, x| s.schemes.kerple.r2 = x), write: |s| Value::from(s.schemes.kerple.r2) },
];

/// r1 and r2 learned per head (from the reference's initialisation), shared by the layers.
pub fn trained(_t: &TrainSettings) -> Position {
    Position::Bias(std::sync::Arc::new(crate::math::kerple::KerpleLog))
}
