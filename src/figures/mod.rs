//! Figures: settings in, chart data and its CSV out, with no browser dependency. The views only
//! render what these return (natively tested in `tests/`).

pub mod attention;
pub mod compare;
pub mod rope;
