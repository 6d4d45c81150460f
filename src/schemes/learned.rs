//! A learned table of absolute positions (BERT, GPT-2), shown untrained: math in
//! `math::learned`, views in `ui::schemes`.

use super::def::{Control, Names, Positions, SchemeDef, ViewKind};
use super::inputs::{ColumnInputs, PositionInputs};
use crate::snippets::Library;
use crate::sources::{Source, BERT, BERT_CODE, GEHRING, GPT2, GPT2_CODE};
use crate::state::Settings;
use crate::train::position::Position;
use crate::train::settings::TrainSettings;

pub struct Def;

impl SchemeDef for Def {
    fn names(&self) -> Names {
        Names {
            short: "learned",
            label: "Learned absolute (BERT, GPT-2)",
            entry:
                "Added to the token embeddings once, before the first layer, like the sinusoidal \
         encoding, but each position's vector is a trained parameter.",
        }
    }
    fn is_absolute(&self) -> bool {
        true
    }
    fn trained_hint(&self) -> Option<&'static str> {
        Some("max_len: rows of the table")
    }

    fn file_stem(&self, s: &Settings) -> String {
        format!(
            "learned_d{}_len{}_max{}_seed{}",
            s.d_model, s.length, s.trained_length, s.learned_seed
        )
    }

    fn snippet(&self, s: &Settings, library: Library) -> String {
        code(s, library)
    }

    fn attention_inputs(&self, s: &Settings, n: usize, width: usize) -> Positions {
        // The table the matrix view shows; the head reads its first `width` columns.
        let table = s.learned();
        if n > s.trained_length {
            return Err(format!(
                "A sentence has {n} words but the learned table has only {} positions (the \
                 trained length). There is no vector for position {}, so the model cannot run: \
                 BERT fails the same way past 512 tokens (PyTorch raises an IndexError in the \
                 embedding lookup).",
                s.trained_length, s.trained_length
            ));
        }
        PositionInputs::added(n, width, |p| {
            table.row(p).map(|mut r| {
                r.truncate(width);
                r
            })
        })
    }

    fn attention_input_text(&self, _s: &Settings, n: usize) -> String {
        format!("Rows 0 … {} of the learned table added.", n - 1)
    }

    fn attention_switch_text(&self) -> &'static str {
        super::sinusoidal::Def.attention_switch_text()
    }

    fn column(&self, s: &Settings) -> Option<ColumnInputs> {
        Some(ColumnInputs::Table(s.learned(), s.length))
    }

    fn past_trained_length(&self, s: &Settings) -> String {
        let t = s.trained_length;
        format!(
            "Positions {t} and beyond do not exist: the table has {t} rows, so a longer input \
             cannot be encoded at all (BERT stops at 512, GPT-2 at 1024)."
        )
    }

    fn controls(&self, s: &Settings) -> Vec<Control> {
        vec![Control::seed(s, "draws another untrained table")]
    }

    fn views(&self) -> ViewKind {
        ViewKind::Learned
    }

    fn sources(&self) -> &'static [&'static Source] {
        &[&GEHRING, &BERT, &GPT2, &BERT_CODE, &GPT2_CODE]
    }
}

/// The app's untrained table in NumPy (bit for bit), or torch's own initialisation.
fn code(s: &Settings, library: Library) -> String {
    let t = s.learned();
    if library == Library::PyTorch {
        return format!(
            "# An untrained learned table, nn.Embedding(max_len, d_model) initialised as Hugging\n\
             # Face initialises BERT and GPT-2: N(0, 0.02²). torch's generator is not the app's,\n\
             # so the numbers differ; the NumPy snippet reproduces the app's table exactly.\n\
             max_len, d_model, length = {}, {}, {}\n\
             table = torch.nn.Embedding(max_len, d_model)\n\
             torch.nn.init.normal_(table.weight, mean=0.0, std=0.02)\n\
             matrix = table(torch.arange(min(length, max_len))).detach()  # no rows past max_len\n",
            t.max_len, t.d_model, s.length
        );
    }
    format!(
        "# The app's untrained table: every cell is N(0, 0.02²) from its own SplitMix64 stream,\n\
         # seeded by (seed, position·d_model + dimension). Positions ≥ max_len do not exist (NaN).\n\
         max_len, d_model, length, seed = {}, {}, {}, {}\n\
         {NUMPY_TABLE}\
         rows = min(length, max_len)\n\
         matrix = np.full((length, d_model), np.nan)\n\
         matrix[:rows] = learned_table(rows, d_model, seed)\n",
        t.max_len, t.d_model, s.length, t.seed
    )
}

/// NumPy's `learned_table(rows, d_model, seed)`: the first `rows` rows of the app's seeded
/// table ([`crate::math::learned::Learned::get`]), every cell from its own SplitMix64 stream.
/// The 1-D table's snippet and the 2-D table's (a trained grid's patches, row-major) share it.
pub const NUMPY_TABLE: &str = "def splitmix(state):
    state = state + np.uint64(0x9E3779B97F4A7C15)
    z = (state ^ (state >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return state, z ^ (z >> np.uint64(31))
def unit(bits):  # 53 random bits, never exactly 0
    return ((bits >> np.uint64(11)).astype(np.float64) + 0.5) / 2.0**53
def learned_table(rows, d_model, seed):
    with np.errstate(over=\"ignore\"):  # 64-bit arithmetic wraps, as intended
        cell = np.arange(rows * d_model, dtype=np.uint64).reshape(rows, d_model)
        key = np.uint64(((seed << 17) | (seed >> 47)) & 0xFFFFFFFFFFFFFFFF)  # rotate left 17
        _, hashed = splitmix(cell)  # hash the cell index first
        state, a = splitmix(key ^ hashed)
        state, b = splitmix(state)
    return 0.02 * np.sqrt(-2.0 * np.log(unit(a))) * np.cos(2.0 * np.pi * unit(b))  # Box–Muller
";

/// Where the scheme enters the model the Train view trains.
pub fn trained(_t: &TrainSettings) -> Position {
    Position::Learned
}
