//! ALiBi's linear distance penalty (BLOOM, MPT): math in `math::alibi`, drawn by the shared
//! bias views.

use std::rc::Rc;

use super::def::{Control, HeadBias, Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::format::{group_thousands, plain, significant};
use crate::math::alibi::{bias, bias_at_offset};
use crate::params::{read_edit, SchemeParam, Value};
use crate::snippets::{Lib, Library};
use crate::sources::{Source, ALIBI, ALIBI_CODE};
use crate::state::{Settings, ALIBI_HEADS};
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "ALiBi",
            label: "ALiBi linear bias (BLOOM, MPT)",
            entry: "Added to the attention scores in every layer: a penalty that grows linearly with the \
         distance between query and key, with a fixed slope per head.",
        }
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!(
            "alibi_heads{}_head{}_len{}",
            s.schemes.alibi.heads, s.schemes.alibi.head, s.length
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, &Lib::of(library))
    }

    fn params(&self) -> &'static [SchemeParam] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        let a = &mut s.schemes.alibi;
        a.heads = ALIBI_HEADS.accept(a.heads as f64).value as usize;
        a.head = a.head.min(a.heads - 1);
    }

    fn attention_inputs(&self, s: &Settings, n: usize, _width: usize) -> Positions {
        let (slope, causal) = (s.schemes.alibi.slope(), s.causal);
        Ok(PositionInputs::bias(n, |i, j| {
            bias(slope, i, j, causal).unwrap_or(f64::NAN)
        }))
    }

    fn attention_switch_text(&self) -> &'static str {
        "Switch the position information on: the word vectors stay as they are, but every score \
         gets a bias that depends on where the key is relative to the query; the weights change, \
         the outputs change, and the summaries move apart."
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        let m = s.schemes.alibi.slope();
        Some(ColumnInputs::bias(
            s.length,
            format!("bias of head {}", s.schemes.alibi.head),
            m,
            |m, k| bias_at_offset(*m, k, true),
        ))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        format!(
            "Nothing new appears: the penalty keeps growing linearly, −m·distance, so tokens twice \
             as far back ({}) are penalised twice as hard. ALiBi was designed to extrapolate this \
             way.",
            group_thousands(2 * s.trained_length as u64)
        )
    }

    fn direction_blind(&self) -> Option<&'static str> {
        Some("the distance |i − j|")
    }

    #[rustfmt::skip]
    fn controls(&self, s: &Settings) -> Vec<Control> {
        let a = s.schemes.alibi;
        vec![
            Control::number("alibi-heads", "heads", ALIBI_HEADS, a.heads as f64, "attention heads", |s, x| s.schemes.alibi.heads = x as usize),
            Control::number("alibi-head", "head", s.alibi_head_limit(), a.head as f64, "the head shown alone (0 is the first)", |s, x| s.schemes.alibi.head = x as usize),
        ]
    }

    fn views(&self) -> ViewKind {
        ViewKind::Bias
    }

    fn bias(&self, s: &Settings) -> Option<HeadBias> {
        let slopes = s.schemes.alibi.slopes();
        let list = slopes
            .iter()
            .map(|v| significant(*v, 3))
            .collect::<Vec<_>>()
            .join(", ");
        let steep = slopes.iter().copied().fold(0.0, f64::max);
        let (trained, last) = (s.trained_length, s.length.saturating_sub(1));
        let far = match last > trained {
            // The chart reaches past the trained length: speak of its last distance.
            true => format!(
                "Past the trained length ({}, marked) the lines simply continue: at distance {}, \
                 the chart's last, the steepest head subtracts {} from the score, {}× what it did \
                 at the trained length.",
                group_thousands(trained as u64),
                group_thousands(last as u64),
                plain(steep * last as f64),
                significant(last as f64 / trained.max(1) as f64, 3)
            ),
            false => format!(
                "This chart ends at distance {}, inside the trained length ({}). Past it the \
                 lines simply continue: at distance {} the steepest head would subtract {} from \
                 the score, twice what it does at the trained length (set the length above {} \
                 to see it).",
                group_thousands(last as u64),
                group_thousands(trained as u64),
                group_thousands(2 * trained as u64),
                plain(steep * 2.0 * trained as f64),
                group_thousands(trained as u64)
            ),
        };
        Some(HeadBias {
            heads: slopes.len(),
            head: s.schemes.alibi.head,
            key: self.file_stem(s),
            at: Rc::new(move |h, i, j| bias(slopes[h], i, j, true)),
            unit: "bias",
            about: vec![
                "ALiBi gives the model no position vectors at all. Each head adds −m·(i − j) to \
                 the score of query i and key j: the further back the key, the larger the \
                 penalty. The masked upper triangle (future keys, in a decoder) is drawn as \
                 undefined."
                    .into(),
                format!(
                    "Slopes for {} heads (the reference get_slopes): {list}.",
                    s.schemes.alibi.heads
                ),
                "For a power-of-two head count the slopes are a geometric sequence starting at \
                 2^(−8/n); otherwise the slopes of the next smaller power of two are followed by \
                 every other slope of the next larger one. Steep heads look only at recent \
                 tokens; shallow heads can reach far back."
                    .into(),
            ],
            far: format!(
                "{far} Nothing new appears: far tokens just fade further, which is why ALiBi's \
                 paper found it extrapolates gracefully in language modelling. The bias depends \
                 on |i − j| only, so without a causal mask it cannot tell a word before from a \
                 word after (the Train view's task shows what that costs)."
            ),
            depends_on_query: false,
        })
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&ALIBI, &ALIBI_CODE]
    }
}

/// NumPy or PyTorch code for one head's bias matrix.
fn code(s: &Settings, lib: &Lib) -> String {
    let name = lib.name;
    let nan = if name == "np" {
        "np.nan"
    } else {
        "float(\"nan\")"
    };
    let where_ = if name == "np" {
        "np.where"
    } else {
        "torch.where"
    };
    let nan_value = if name == "np" {
        nan.to_string()
    } else {
        format!("torch.tensor({nan}, dtype=torch.float64)")
    };
    format!(
        "def get_slopes(n):  # as in the ALiBi reference code\n    \
             def power_of_2(n):\n        \
                 start = 2 ** (-(2 ** -(math.log2(n) - 3)))\n        \
                 return [start * start**i for i in range(n)]\n    \
             if math.log2(n).is_integer():\n        \
                 return power_of_2(n)\n    \
             closest = 2 ** math.floor(math.log2(n))\n    \
             return power_of_2(closest) + get_slopes(2 * closest)[0::2][: n - closest]\n\
         heads, head, length = {}, {}, {}\n\
         slope = get_slopes(heads)[head]\n\
         i = {name}.arange(length, {float})[:, None]  # query\n\
         j = {name}.arange(length, {float})[None, :]  # key\n\
         matrix = {where_}(j <= i, -slope * (i - j), {nan_value})  # causal: future keys masked\n",
        s.schemes.alibi.heads,
        s.schemes.alibi.head,
        s.length,
        float = lib.float
    )
}

/// ALiBi's link parameters: the head count, then the head shown (checked against the count).
#[rustfmt::skip]
pub const PARAMS: &[SchemeParam] = &[
    SchemeParam { key: "heads", read: |v, _| read_edit("heads", v, ALIBI_HEADS, |s, x| s.schemes.alibi.heads = x as usize), write: |s| Value::from(s.schemes.alibi.heads) },
    SchemeParam { key: "head", read: |v, s| read_edit("head", v, s.alibi_head_limit(), |s, x| s.schemes.alibi.head = x as usize), write: |s| Value::from(s.schemes.alibi.head) },
];

/// Where the scheme enters the model the Train view trains.
pub fn trained(_t: &TrainSettings) -> Position {
    Position::Bias(std::sync::Arc::new(crate::math::alibi::AlibiBias))
}
