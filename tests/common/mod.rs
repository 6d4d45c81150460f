//! Helpers shared by several test files, each of which includes this module with `mod common;`
//! (a file uses only some of them).
#![allow(dead_code)]

use pe_explorer::math::rope::RopeScaling;
use pe_explorer::schemes::Scheme;
use pe_explorer::train::settings::TrainScheme;

/// YaRN by `factor` over `original` positions with transformers' defaults otherwise: β_fast 32,
/// β_slow 1, no DeepSeek mscale, the attention factor from its formula; `truncate` rounds the
/// ramp's ends to whole pairs (transformers' default, `"truncate": false` for gpt-oss).
pub fn yarn_scaling(factor: f64, original: usize, truncate: bool) -> RopeScaling {
    RopeScaling::Yarn {
        factor,
        original,
        beta_fast: 32.0,
        beta_slow: 1.0,
        mscale: 0.0,
        mscale_all_dim: 0.0,
        attention_factor: None,
        truncate,
    }
}

/// The trainer's entries for `schemes`, in that order, each as the app trains it by default.
pub fn train_schemes(schemes: &[Scheme]) -> Vec<TrainScheme> {
    schemes.iter().map(|&s| TrainScheme::of(s)).collect()
}
