//! A trained model as a `.safetensors` file: an 8-byte little-endian header length, a JSON
//! header naming every tensor (dtype, shape, byte range) plus string metadata, then the raw
//! little-endian data. The format is Hugging Face's; `static/train/pe_model.py` reads it with
//! NumPy alone (or `safetensors.torch.load_file`).
//!
//! The file holds the weights (names and `[in, out]` layout as in [`super::model::Layout`]), the
//! fixed tables the scheme uses (`buffer.*`: the sinusoidal table, RoPE's cos and sin and its
//! pairs, ALiBi's slopes, T5's bucket of every relative position; KERPLE and FIRE have none:
//! their learned tensors and the config say it all), and the held-out test sets
//! (`heldout.<length>.tokens` and `.targets`, −1 where nothing is asked), so that the script
//! reproduces the held-out accuracy the page shows.

use super::experiment::{Experiment, Run};
use super::model::{Model, Position};
use super::real::Real;
use super::tasks::Example;
pub use crate::export::json_string;
use crate::math::rope::RopeScaling;

/// One tensor to write.
pub enum Data {
    F32(Vec<f32>),
    F64(Vec<f64>),
    I32(Vec<i32>),
}

impl Data {
    /// Values of the model's own number type: F32 for f32, F64 for f64.
    pub fn real<T: Real>(x: &[T]) -> Data {
        if std::mem::size_of::<T>() == 4 {
            Data::F32(x.iter().map(|v| v.to_f64() as f32).collect())
        } else {
            Data::F64(x.iter().map(|v| v.to_f64()).collect())
        }
    }
}

pub struct Entry {
    pub name: String,
    pub shape: Vec<usize>,
    pub data: Data,
}

/// Serialises entries and string metadata.
pub fn write(entries: &[Entry], metadata: &[(&str, String)]) -> Vec<u8> {
    let mut header = String::from("{\"__metadata__\":{");
    header.push_str(
        &metadata
            .iter()
            .map(|(k, v)| format!("{}:{}", json_string(k), json_string(v)))
            .collect::<Vec<_>>()
            .join(","),
    );
    header.push('}');
    let mut data = Vec::new();
    for e in entries {
        let start = data.len();
        let dtype = match &e.data {
            Data::F32(x) => {
                for v in x {
                    data.extend_from_slice(&v.to_le_bytes());
                }
                "F32"
            }
            Data::F64(x) => {
                for v in x {
                    data.extend_from_slice(&v.to_le_bytes());
                }
                "F64"
            }
            Data::I32(x) => {
                for v in x {
                    data.extend_from_slice(&v.to_le_bytes());
                }
                "I32"
            }
        };
        let shape = e
            .shape
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(",");
        header.push_str(&format!(
            ",{}:{{\"dtype\":\"{dtype}\",\"shape\":[{shape}],\"data_offsets\":[{start},{}]}}",
            json_string(&e.name),
            data.len()
        ));
    }
    header.push('}');
    // The data should start 8-byte aligned: pad the header with spaces.
    while header.len() % 8 != 0 {
        header.push(' ');
    }
    let mut out = Vec::with_capacity(8 + header.len() + data.len());
    out.extend_from_slice(&(header.len() as u64).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(&data);
    out
}

/// The model's architecture as JSON (the `config` metadata entry).
pub fn config_json<T: Real>(model: &Model<T>, scheme: &str, task: &str, vocab: &[&str]) -> String {
    let c = &model.config;
    let position = match &c.position {
        Position::None => "\"none\"".to_string(),
        Position::Sinusoidal { variant, base } => {
            format!(
                "\"sinusoidal\",\"variant\":\"{}\",\"base\":{base}",
                variant.id()
            )
        }
        Position::Learned => "\"learned\"".to_string(),
        Position::Rope {
            base,
            pairing,
            scaling,
        } => {
            let mut out = format!("\"rope\",\"pairing\":\"{}\",\"base\":{base}", pairing.id());
            if let Some(hf) = scaling.hf_json() {
                out.push_str(&format!(",\"rope_scaling\":{hf}"));
            }
            // The length the buffers were computed for, where the method depends on it.
            if let RopeScaling::DynamicNtk { length, .. } | RopeScaling::LongRope { length, .. } =
                scaling
            {
                out.push_str(&format!(",\"rope_tables_length\":{length}"));
            }
            out
        }
        // The scheme's name, then its settings' members beside it (as T5's always were).
        Position::Bias(b) => {
            let settings = b.config_json();
            let members = settings
                .trim()
                .trim_start_matches('{')
                .trim_end_matches('}')
                .trim();
            if members.is_empty() {
                json_string(b.name())
            } else {
                format!("{},{members}", json_string(b.name()))
            }
        }
    };
    let vocab = vocab
        .iter()
        .map(|w| json_string(w))
        .collect::<Vec<_>>()
        .join(",");
    format!(
        "{{\"task\":{},\"scheme\":{},\"vocab\":[{vocab}],\"d_model\":{},\"heads\":{},\
         \"layers\":{},\"mlp_hidden\":{},\"max_len\":{},\"max_positions\":{},\"causal\":{},\
         \"position\":{position},\"norm\":\"pre-LN\",\"ln_eps\":1e-5,\"activation\":\"gelu_tanh\"}}",
        json_string(task),
        json_string(scheme),
        c.d_model,
        c.heads,
        c.layers,
        c.hidden(),
        c.max_len,
        model.max_positions,
        c.causal
    )
}

/// The weights and the scheme's fixed tables, as entries.
pub fn model_entries<T: Real>(model: &Model<T>, params: &[T]) -> Vec<Entry> {
    let mut out: Vec<Entry> = model
        .layout
        .tensors
        .iter()
        .map(|t| Entry {
            name: t.name.clone(),
            shape: t.shape.clone(),
            data: Data::real(&params[t.range()]),
        })
        .collect();
    let b = model.buffers();
    if !b.pe.is_empty() {
        out.push(Entry {
            name: "buffer.sinusoidal".into(),
            shape: vec![model.max_positions, model.config.d_model],
            data: Data::real(b.pe),
        });
    }
    if !b.rope_pairs.is_empty() {
        let pairs = b.rope_pairs.len();
        out.push(Entry {
            name: "buffer.rope_cos".into(),
            shape: vec![model.max_positions, pairs],
            data: Data::real(b.rope_cos),
        });
        out.push(Entry {
            name: "buffer.rope_sin".into(),
            shape: vec![model.max_positions, pairs],
            data: Data::real(b.rope_sin),
        });
        out.push(Entry {
            name: "buffer.rope_pairs".into(),
            shape: vec![pairs, 2],
            data: Data::I32(
                b.rope_pairs
                    .iter()
                    .flat_map(|&(a, c)| [a as i32, c as i32])
                    .collect(),
            ),
        });
    }
    let c = &model.config;
    if let Some(bias) = c.position.bias() {
        for buffer in bias.buffers(c.heads, model.max_positions, c.causal) {
            let data = if buffer.integer {
                Data::I32(buffer.values.iter().map(|&x| x as i32).collect())
            } else {
                let values: Vec<T> = buffer.values.iter().map(|&x| T::from_f64(x)).collect();
                Data::real(&values)
            };
            out.push(Entry {
                name: buffer.name,
                shape: buffer.shape,
                data,
            });
        }
    }
    out
}

/// A set of equal-length examples as two `[count, length]` tensors.
pub fn examples_entries(prefix: &str, examples: &[Example]) -> Vec<Entry> {
    let len = examples.first().map_or(0, |e| e.tokens.len());
    let tokens = examples
        .iter()
        .flat_map(|e| e.tokens.iter().map(|&t| t as i32))
        .collect();
    let targets = examples
        .iter()
        .flat_map(|e| e.targets.iter().map(|t| t.map_or(-1, |t| t as i32)))
        .collect();
    vec![
        Entry {
            name: format!("{prefix}.tokens"),
            shape: vec![examples.len(), len],
            data: Data::I32(tokens),
        },
        Entry {
            name: format!("{prefix}.targets"),
            shape: vec![examples.len(), len],
            data: Data::I32(targets),
        },
    ]
}

/// Everything about one trained scheme: weights, tables, held-out sets and the accuracies the
/// page shows for them.
pub fn export_run(e: &Experiment, run: &Run) -> Vec<u8> {
    let s = &e.settings;
    let mut entries = model_entries(&run.model, &run.params);
    let mut accuracy = Vec::new();
    for (cell, set) in run.cells.iter().zip(&e.heldout) {
        if let (Some(a), true) = (cell.accuracy(), cell.examples == set.len()) {
            entries.extend(examples_entries(&format!("heldout.{}", cell.length), set));
            accuracy.push(format!(
                "\"{}\":{{\"accuracy\":{a},\"correct\":{},\"counted\":{}}}",
                cell.length, cell.correct, cell.counted
            ));
        }
    }
    let metadata = [
        ("format", "pe-explorer tiny transformer 1".to_string()),
        (
            "config",
            config_json(&run.model, &run.scheme.id(), s.task.id(), &s.task.vocab()),
        ),
        ("heldout_accuracy", format!("{{{}}}", accuracy.join(","))),
        ("settings", s.to_message()),
        ("steps", run.step.to_string()),
    ];
    write(&entries, &metadata)
}
