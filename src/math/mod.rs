//! Pure math: encodings and the numbers derived from them. No web dependency; tested natively.

pub mod binning;
pub mod matrix;
pub mod sinusoidal;
