//! Pure math: encodings and the numbers derived from them. No web dependency; tested natively.

pub mod alibi;
pub mod attention;
pub mod bias;
pub mod binning;
pub mod chunked;
pub mod cost;
pub mod embedding;
pub mod fire;
pub mod grid;
pub mod kernels;
pub mod kerple;
pub mod learned;
pub mod matrix;
pub mod mrope;
pub mod offsets;
pub mod resolution;
pub mod rng;
pub mod rope;
pub mod rotation;
pub mod sinusoidal;
pub mod t5;
pub mod toeplitz;
pub mod walk;
pub mod wave;
