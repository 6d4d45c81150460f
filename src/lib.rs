//! Positional Encoding Explorer: transformer positional encodings computed and drawn in the browser.

pub mod action;
pub mod bench;
pub mod early;
pub mod embed;
pub mod export;
pub mod figures;
pub mod format;
pub mod learn;
pub mod limit;
pub mod link_spec;
pub mod main_chart;
pub mod math;
pub mod mrope_config;
pub mod params;
pub mod plot;
pub mod rope_config;
pub mod schemes;
pub mod snippets;
pub mod sources;
pub mod state;
pub mod touch;
pub mod train;
pub mod ui;
pub mod url;
