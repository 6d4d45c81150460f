//! T5's relative buckets with a learned bias per bucket: math in `math::t5`, views in
//! `ui::schemes`.

use super::def::{Control, Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::format::group_thousands;
use crate::params::{read_edit, read_edit_flag, SchemeParam, Value};
use crate::snippets::Library;
use crate::sources::{Source, SHAW, T5, T5_CODE};
use crate::state::{Settings, T5_BUCKETS, T5_MAX_DISTANCE};
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "T5",
            label: "T5 relative buckets",
            entry: "Added to the attention scores in every layer: one learned scalar per bucket of relative \
         distance (and per head).",
        }
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!(
            "t5_b{}_max{}_{}_len{}_seed{}",
            s.schemes.t5.num_buckets,
            s.schemes.t5.max_distance,
            if s.schemes.t5.bidirectional {
                "bi"
            } else {
                "causal"
            },
            s.length,
            s.learned_seed
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, library)
    }

    fn params(&self) -> &'static [SchemeParam] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        s.schemes.t5.num_buckets =
            T5_BUCKETS.accept(s.schemes.t5.num_buckets as f64).value as usize;
        s.schemes.t5.max_distance = T5_MAX_DISTANCE
            .accept(s.schemes.t5.max_distance as f64)
            .value as usize;
    }

    fn attention_inputs(&self, s: &Settings, n: usize, _width: usize) -> Positions {
        let t5 = s.t5_bias();
        Ok(PositionInputs::bias(n, |i, j| t5.at(j as i64 - i as i64)))
    }

    fn attention_switch_text(&self) -> &'static str {
        super::alibi::Def.attention_switch_text()
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        let t5 = s.t5_bias();
        Some(ColumnInputs::bias(
            s.length,
            "bias of the bucket",
            t5,
            |t5, k| t5.at(k),
        ))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        format!(
            "Every distance from {} on shares the last bucket, so past that the model only knows \
             \"far\". Longer inputs need no new parameters, but distances are no longer told apart.",
            group_thousands(s.schemes.t5.saturation_distance() as u64)
        )
    }

    #[rustfmt::skip]
    fn controls(&self, s: &Settings) -> Vec<Control> {
        let t = s.schemes.t5;
        vec![
            Control::number("t5-buckets", "buckets", T5_BUCKETS, t.num_buckets as f64, "32 in T5", |s, x| s.schemes.t5.num_buckets = x as usize),
            Control::number("t5-max-distance", "max_distance", T5_MAX_DISTANCE, t.max_distance as f64, "128 in T5", |s, x| s.schemes.t5.max_distance = x as usize),
            Control::seed(s, "draws other untrained bucket biases"),
            Control::toggle("t5-bidirectional", "bidirectional", "Bidirectional (encoder)", t.bidirectional, |s, x| s.schemes.t5.bidirectional = x != 0.0),
        ]
    }

    fn views(&self) -> ViewKind {
        ViewKind::T5
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&T5, &SHAW, &T5_CODE]
    }
}

/// Hugging Face's bucket function (PyTorch), or the same in NumPy.
fn code(s: &Settings, library: Library) -> String {
    let t = s.schemes.t5;
    let bidirectional = if t.bidirectional { "True" } else { "False" };
    if library == Library::PyTorch {
        return format!(
            "# Hugging Face's own function computes the same buckets:\n\
             from transformers.models.schemes.t5.modeling_t5 import T5Attention\n\
             length = {}\n\
             query = torch.arange(length)[:, None]\n\
             key = torch.arange(length)[None, :]\n\
             matrix = T5Attention._relative_position_bucket(\n    \
                 key - query, bidirectional={bidirectional}, num_buckets={}, max_distance={})\n",
            s.length, t.num_buckets, t.max_distance
        );
    }
    format!(
        "def relative_position_bucket(r, bidirectional, num_buckets, max_distance):\n    \
             # Hugging Face's _relative_position_bucket in NumPy, with float32 logs like torch\n    \
             out = np.zeros_like(r)\n    \
             if bidirectional:\n        \
                 num_buckets //= 2\n        \
                 out += (r > 0).astype(r.dtype) * num_buckets\n        \
                 r = np.abs(r)\n    \
             else:\n        \
                 r = -np.minimum(r, 0)\n    \
             max_exact = max(num_buckets // 2, 1)\n    \
             scale = np.float32(math.log(max_distance / max_exact))\n    \
             if scale <= 0:  # max_distance <= max_exact: all longer distances share the last bucket\n        \
                 large = np.full_like(r, num_buckets - 1)\n    \
             else:\n        \
                 ratio = np.log(np.maximum(r, max_exact).astype(np.float32) / np.float32(max_exact))\n        \
                 large = max_exact + (ratio / scale * np.float32(num_buckets - max_exact)).astype(r.dtype)\n    \
             large = np.minimum(large, num_buckets - 1)\n    \
             return out + np.where(r < max_exact, r, large)\n\
         length = {}\n\
         query = np.arange(length)[:, None]\n\
         key = np.arange(length)[None, :]\n\
         matrix = relative_position_bucket(key - query, {bidirectional}, {}, {})\n",
        s.length, t.num_buckets, t.max_distance
    )
}

/// T5's link parameters.
#[rustfmt::skip]
pub const PARAMS: &[SchemeParam] = &[
    SchemeParam { key: "buckets", read: |v, _| read_edit("buckets", v, T5_BUCKETS, |s, x| s.schemes.t5.num_buckets = x as usize), write: |s| Value::from(s.schemes.t5.num_buckets) },
    SchemeParam { key: "max_distance", read: |v, _| read_edit("max_distance", v, T5_MAX_DISTANCE, |s, x| s.schemes.t5.max_distance = x as usize), write: |s| Value::from(s.schemes.t5.max_distance) },
    SchemeParam { key: "bidirectional", read: |v, _| read_edit_flag("bidirectional", v, |s, x| s.schemes.t5.bidirectional = x != 0.0), write: |s| Value::from(s.schemes.t5.bidirectional) },
];

/// Where the scheme enters the model the Train view trains.
pub fn trained(t: &TrainSettings) -> Position {
    Position::Bias(std::sync::Arc::new(crate::math::t5::T5Score {
        num_buckets: t.t5_buckets,
        max_distance: t.t5_max_distance,
    }))
}
