//! ALiBi's linear distance penalty (BLOOM, MPT): math in `math::alibi`, views in `ui::schemes`.

use yew::{html, Callback, Html};

use super::{edit, view, Names, Positions, SchemeDef, Views};
use crate::action::Action;
use crate::figures::attention::PositionInputs;
use crate::figures::compare::ColumnInputs;
use crate::format::group_thousands;
use crate::math::alibi::{bias, bias_at_offset};
use crate::snippets::{Lib, Library};
use crate::state::{Settings, ALIBI_HEADS};
use crate::ui::controls::NumberControl;
use crate::ui::schemes::{AlibiDistanceView, AlibiMatrixView};
use crate::url::{read_edit, Param, Value};

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            id: "alibi",
            short: "ALiBi",
            label: "ALiBi linear bias (BLOOM, MPT)",
            entry: "Added to the attention scores in every layer: a penalty that grows linearly with the \
         distance between query and key, with a fixed slope per head.",
        }
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!(
            "alibi_heads{}_head{}_len{}",
            s.alibi_heads, s.alibi_head, s.length
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, &Lib::of(library))
    }

    fn params(&self) -> &'static [Param] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        s.alibi_heads = ALIBI_HEADS.accept(s.alibi_heads as f64).value as usize;
        s.alibi_head = s.alibi_head.min(s.alibi_heads - 1);
    }

    fn attention_inputs(&self, s: &Settings, n: usize, _width: usize) -> Positions {
        let (slope, causal) = (s.alibi_slope(), s.causal);
        Ok(PositionInputs::bias(n, |i, j| {
            bias(slope, i, j, causal).unwrap_or(f64::NAN)
        }))
    }

    fn attention_switch_text(&self) -> &'static str {
        "Switch the position information on: the word vectors stay as they are, but every score \
         gets a bias that depends on where the key is relative to the query; the weights change, \
         the outputs change, and the summaries move apart."
    }

    fn column(&self, s: &Settings) -> ColumnInputs {
        let m = s.alibi_slope();
        ColumnInputs::bias(
            s.length,
            format!("bias of head {}", s.alibi_head),
            m,
            |m, k| bias_at_offset(*m, k, true),
        )
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        format!(
            "Nothing new appears: the penalty keeps growing linearly, −m·distance, so tokens twice \
             as far back ({}) are penalised twice as hard. ALiBi was designed to extrapolate this \
             way.",
            group_thousands(2 * s.trained_length as u64)
        )
    }

    fn controls(&self, s: &Settings, cb: &Callback<Action>) -> Html {
        html! {
            <>
                <NumberControl id="alibi-heads" limit={ALIBI_HEADS} value={s.alibi_heads as f64}
                    on_change={edit(cb, "heads", |s, x| s.alibi_heads = x as usize)} hint="attention heads" />
                <NumberControl id="alibi-head" limit={s.alibi_head_limit()} value={s.alibi_head as f64}
                    on_change={edit(cb, "head", |s, x| s.alibi_head = x as usize)} hint="the head shown alone" />
            </>
        }
    }

    fn views(&self) -> Views {
        Views {
            matrix: view::<AlibiMatrixView>,
            distance: view::<AlibiDistanceView>,
        }
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
        s.alibi_heads,
        s.alibi_head,
        s.length,
        float = lib.float
    )
}

/// ALiBi's link parameters: the head count, then the head shown (checked against the count).
#[rustfmt::skip]
pub const PARAMS: &[Param] = &[
    Param { key: "heads", read: |v, _| read_edit("heads", v, ALIBI_HEADS, |s, x| s.alibi_heads = x as usize), write: |s| Value::from(s.alibi_heads) },
    Param { key: "head", read: |v, s| read_edit("head", v, s.alibi_head_limit(), |s, x| s.alibi_head = x as usize), write: |s| Value::from(s.alibi_head) },
];
