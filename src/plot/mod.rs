//! Drawing: colour scales and ticks (pure), and functions that draw plain data onto a canvas.

pub mod colormap;
pub mod dials;
pub mod envelope;
pub mod frame;
pub mod heatmap;
pub mod lines;
pub mod ticks;
pub mod viewport;
