//! Yew components. Views take the shared settings and hold no arithmetic beyond formatting.

pub mod addition;
pub mod app;
pub mod attention;
pub mod browser;
pub mod chart;
#[cfg(feature = "split")]
pub mod chunk_load;
pub mod code;
pub mod compare;
pub mod controls;
pub mod embedded;
pub mod encoding;
pub mod heatmap;
pub mod host;
pub mod lazy;
pub mod lesson;
pub mod line_chart;
pub mod lms;
pub mod norms;
pub mod notebook;
pub mod offsets;
pub mod parts;
pub mod patches;
pub mod phone;
pub mod props;
pub mod quiz;
pub mod rope_cache;
pub mod rope_check;
pub mod rotations;
pub mod schemes;
pub mod settings;
pub mod share;
pub mod sources;
pub mod train;
pub mod train_module;
pub mod train_results;
pub mod train_session;
pub mod trainer;
pub mod views;
pub mod waves;

use crate::state::Settings;

/// A file name (without extension) for an export of `what` under the current settings.
pub fn file_stem(s: &Settings, what: &str) -> String {
    crate::schemes::file_stem(s, s.scheme, what)
}

/// The same for the views that always show the sinusoidal encoding, whatever the scheme.
pub fn sinusoidal_stem(s: &Settings, what: &str) -> String {
    crate::schemes::file_stem(s, crate::schemes::Scheme::Sinusoidal, what)
}
