//! Yew components. Views take the shared settings and hold no arithmetic beyond formatting.

pub mod addition;
pub mod app;
pub mod attention;
pub mod browser;
pub mod chart;
pub mod controls;
pub mod encoding;
pub mod heatmap;
pub mod line_chart;
pub mod norms;
pub mod offsets;
pub mod rotations;
pub mod settings;
pub mod waves;

/// Mounts the app on the page's body.
pub fn start() {
    browser::install_panic_hook();
    yew::Renderer::<app::App>::new().render();
}
