//! Tiny transformers trained in the browser, to test what each position scheme does: the tasks,
//! the model with its hand-written backward pass, AdamW, experiments that compare schemes, and
//! the export of a trained model. Pure Rust, no web dependency; the Train view runs it in a Web
//! Worker (`src/bin/worker.rs`).

pub mod experiment;
pub mod extension;
pub mod figures;
pub mod model;
pub mod optim;
pub mod position;
pub mod protocol;
pub mod real;
pub mod safetensors;
pub mod settings;
pub mod tasks;
