//! What adding versus concatenating the position costs the layer that reads the result.

/// Size and work of one dense layer `width_in → width_out` (with bias).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayerCost {
    pub width_in: u64,
    pub width_out: u64,
    pub parameters: u64,
    /// Multiply-adds for one token.
    pub macs_per_token: u64,
}

impl LayerCost {
    pub fn dense(width_in: u64, width_out: u64) -> LayerCost {
        LayerCost {
            width_in,
            width_out,
            parameters: width_in * width_out + width_out,
            macs_per_token: width_in * width_out,
        }
    }
}

/// The first layer after the input when the position is added (input width d) and when it is
/// concatenated (input width 2d), for `outputs` output features.
pub fn add_vs_concat(d_model: u64, outputs: u64) -> (LayerCost, LayerCost) {
    (
        LayerCost::dense(d_model, outputs),
        LayerCost::dense(2 * d_model, outputs),
    )
}
