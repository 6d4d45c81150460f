//! FIRE (Li et al., ICLR 2024): a bias f_θ(ψ(i − j) / ψ(max(L, i))) on the scores, with
//! ψ(x) = ln(c·x + 1) and f_θ a small MLP, from "Functional Interpolation for Relative Positions
//! Improves Long Context Transformers". Math in `math::fire` (also the trainer's, where c, the
//! threshold's multiplier and the MLP are learned); the views draw a seeded, untrained MLP
//! through the shared bias views.

use std::rc::Rc;

use super::def::{Control, HeadBias, Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::format::{file_number, group_thousands, plain, significant};
use crate::limit::Limit;
use crate::math::fire::{normalized_distance, Fire, WIDTH};
use crate::params::{read_edit, SchemeParam, Value};
use crate::snippets::{py, Library};
use crate::sources::{Source, FIRE_PAPER};
use crate::state::Settings;
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

/// The log transform's scale c (0.1 in the paper's code).
pub const FIRE_C: Limit = Limit::real("c", 0.001, 100.0, true);
/// The threshold L (512 in the paper's code, for 2,048-token training).
pub const FIRE_THRESHOLD: Limit = Limit::real("threshold L", 1.0, 1_048_576.0, true);
/// The MLP's outputs: one per head.
pub const FIRE_HEADS: Limit = Limit {
    name: "heads",
    min: 1.0,
    max: 16.0,
    integer: true,
    log: false,
};

pub struct Def;

impl Def {
    /// The seeded MLP the views draw.
    fn fire(s: &Settings) -> Fire {
        let f = s.schemes.fire;
        Fire::seeded(f.heads, WIDTH, f.c, f.threshold, s.learned_seed as u64)
    }
}

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "FIRE",
            label: "FIRE functional bias (2024)",
            entry: "Added to the attention scores in every layer: a small learned network maps \
                the distance, divided by the query's position, to one bias per head.",
        }
    }

    fn direction_blind(&self) -> Option<&'static str> {
        Some(
            "the distance |i − j| (below its threshold L, where every query shares one normaliser)",
        )
    }

    fn file_stem(&self, s: &Settings) -> String {
        let f = s.schemes.fire;
        format!(
            "fire_heads{}_head{}_c{}_L{}_len{}_seed{}",
            f.heads,
            f.head,
            file_number(f.c),
            file_number(f.threshold),
            s.length,
            s.learned_seed
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        let f = Def::fire(s);
        let v = s.schemes.fire;
        let list = |xs: &[f64]| xs.iter().map(|x| py(*x)).collect::<Vec<_>>().join(", ");
        let (lib, nan, arr, float) = match library {
            Library::NumPy => ("np", "np.nan", "np.array", "dtype=np.float64"),
            Library::PyTorch => (
                "torch",
                "float(\"nan\")",
                "torch.tensor",
                "dtype=torch.float64",
            ),
        };
        let relu = if library == Library::NumPy {
            "np.maximum(x[..., None] * W1[0] + b1, 0)"
        } else {
            "torch.relu(x[..., None] * W1[0] + b1)"
        };
        format!(
            "# FIRE as the paper's reference code, with the app's seeded (untrained) MLP:\n\
             # Linear(1, {WIDTH}) -> ReLU -> Linear({WIDTH}, heads), stored [in, out].\n\
             c, L, eps, length, heads, head = {}, {}, 1e-6, {}, {}, {}\n\
             W1 = {arr}([[{}]], {float})\n\
             b1 = {arr}([{}], {float})\n\
             W2 = {arr}([{}], {float}).reshape({WIDTH}, heads)\n\
             b2 = {arr}([{}], {float})\n\
             i = {lib}.arange(length, {float})[:, None]  # query\n\
             j = {lib}.arange(length, {float})[None, :]  # key\n\
             psi = lambda x: {lib}.log({lib}.abs(c * x) + 1)\n\
             x = psi(i - j) / (psi({lib}.maximum(i, {arr}(L, {float}))) + eps)  # in [0, 1) for j <= i\n\
             hidden = {relu}\n\
             bias = hidden @ W2 + b2  # length x length x heads\n\
             matrix = {lib}.where(j <= i, bias[..., head], {nan})  # causal: future keys masked\n",
            py(v.c),
            py(v.threshold),
            s.length,
            v.heads,
            v.head,
            list(&f.w1),
            list(&f.b1),
            list(&f.w2),
            list(&f.b2),
        )
    }

    fn params(&self) -> &'static [SchemeParam] {
        PARAMS
    }

    fn check(&self, s: &mut Settings) {
        let f = &mut s.schemes.fire;
        f.heads = FIRE_HEADS.accept(f.heads as f64).value as usize;
        f.head = f.head.min(f.heads - 1);
        f.c = FIRE_C.accept(f.c).value;
        f.threshold = FIRE_THRESHOLD.accept(f.threshold).value;
    }

    fn attention_inputs(&self, s: &Settings, n: usize, _width: usize) -> Positions {
        let (fire, head, causal) = (Def::fire(s), s.schemes.fire.head, s.causal);
        Ok(PositionInputs::bias(n, |i, j| {
            if causal && j > i {
                f64::NAN
            } else {
                fire.head_bias(i, j, head)
            }
        }))
    }

    fn attention_input_text(&self, s: &Settings, _n: usize) -> String {
        format!(
            "FIRE adds nothing here: it enters later, inside attention (head {} of its seeded \
             MLP).",
            s.schemes.fire.head
        )
    }

    fn attention_switch_text(&self) -> &'static str {
        super::alibi::Def.attention_switch_text()
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        Some(ColumnInputs::matrix(
            s.length,
            format!("bias of head {}", s.schemes.fire.head),
            (Def::fire(s), s.schemes.fire.head),
            |(fire, head), i, j| {
                if j > i {
                    f64::NAN
                } else {
                    fire.head_bias(i, j, *head)
                }
            },
        ))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        let v = s.schemes.fire;
        let t = s.trained_length;
        let input = |query: usize, back: usize| {
            significant(
                normalized_distance(v.c, v.threshold, query, query - back),
                3,
            )
        };
        format!(
            "Nothing the network has not seen: its input ψ(i − j)/ψ(max(L, i)) never passes 1, \
             and past the threshold L = {} each query divides by its own position. At query {} \
             (twice the trained length) a key {} back gives {}, where at query {} the first key \
             gave {}: distances are interpolated, not extrapolated, and far ones are squeezed \
             together.",
            group_thousands(v.threshold as u64),
            group_thousands(2 * t as u64),
            group_thousands(t as u64),
            input(2 * t, t),
            group_thousands(t as u64),
            input(t, t)
        )
    }

    #[rustfmt::skip]
    fn controls(&self, s: &Settings) -> Vec<Control> {
        let f = s.schemes.fire;
        vec![
            Control::number("fire-c", "fire_c", FIRE_C, f.c, "c in ψ(x) = ln(c·x + 1): 0.1 in the paper", |s, x| s.schemes.fire.c = x),
            Control::number("fire-threshold", "fire_L", FIRE_THRESHOLD, f.threshold, "threshold L: 512 in the paper", |s, x| s.schemes.fire.threshold = x),
            Control::number("fire-heads", "fire_heads", FIRE_HEADS, f.heads as f64, "the MLP's outputs, one per head", |s, x| s.schemes.fire.heads = x as usize),
            Control::number("fire-head", "fire_head", Limit::linear("head", 0.0, (f.heads.max(1) - 1) as f64), f.head as f64, "the head shown alone", |s, x| s.schemes.fire.head = x as usize),
            Control::seed(s, "draws another untrained MLP"),
        ]
    }

    fn views(&self) -> ViewKind {
        ViewKind::Bias
    }

    fn bias(&self, s: &Settings) -> Option<HeadBias> {
        let fire = Rc::new(Def::fire(s));
        let v = s.schemes.fire;
        let at = {
            let fire = fire.clone();
            move |h: usize, i: usize, j: usize| (j <= i).then(|| fire.head_bias(i, j, h))
        };
        Some(HeadBias {
            heads: v.heads,
            head: v.head,
            key: self.file_stem(s),
            at: Rc::new(at),
            unit: "bias",
            about: vec![
                "FIRE learns its bias: a small network f (one input, 32 hidden units, one \
                 output per head) reads the distance i − j after a log transform, divided by the \
                 same transform of the query's position, and returns the bias. Here the network \
                 is untrained, drawn from the seed, so the shape is arbitrary; what the picture \
                 shows is where the network is asked about. The masked upper triangle (future \
                 keys) is drawn as undefined."
                    .into(),
                format!(
                    "The network's input is ψ(i − j) / ψ(max(L, i)), ψ(x) = ln({}·x + 1), L = {}: \
                     below the threshold every query divides by ψ(L), so near the start the bias \
                     depends on distance alone (the matrix's stripes run parallel); past L each \
                     row divides by its own position and the stripes fan out.",
                    plain(v.c),
                    group_thousands(v.threshold as u64)
                ),
            ],
            far: {
                let last = s.length - 1;
                let input = |back: usize| {
                    significant(normalized_distance(v.c, v.threshold, last, last - back), 3)
                };
                format!(
                    "However far back a key is, the network's input never passes 1: at query {}, \
                     a key {} back gives {} and the first key {}. FIRE squeezes long distances \
                     into the range the network was trained on instead of extrapolating.",
                    group_thousands(last as u64),
                    group_thousands((last / 2) as u64),
                    input(last / 2),
                    input(last)
                )
            },
            depends_on_query: true,
        })
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&FIRE_PAPER]
    }
}

/// FIRE's link parameters.
#[rustfmt::skip]
pub const PARAMS: &[SchemeParam] = &[
    SchemeParam { key: "fire_c", read: |v, _| read_edit("fire_c", v, FIRE_C, |s, x| s.schemes.fire.c = x), write: |s| Value::from(s.schemes.fire.c) },
    SchemeParam { key: "fire_L", read: |v, _| read_edit("fire_L", v, FIRE_THRESHOLD, |s, x| s.schemes.fire.threshold = x), write: |s| Value::from(s.schemes.fire.threshold) },
    SchemeParam { key: "fire_heads", read: |v, _| read_edit("fire_heads", v, FIRE_HEADS, |s, x| s.schemes.fire.heads = x as usize), write: |s| Value::from(s.schemes.fire.heads) },
    SchemeParam { key: "fire_head", read: |v, s| read_edit("fire_head", v, Limit::linear("head", 0.0, (s.schemes.fire.heads.max(1) - 1) as f64), |s, x| s.schemes.fire.head = x as usize), write: |s| Value::from(s.schemes.fire.head) },
];

/// c, the threshold's multiplier and the MLP learned, shared by the layers; the threshold
/// starts at the training length (see `math::fire::FireBias`).
pub fn trained(t: &TrainSettings) -> Position {
    Position::Bias(std::sync::Arc::new(crate::math::fire::FireBias::new(
        t.train_len as f64,
    )))
}
