use wasm_bindgen::prelude::*;

fn main() {
    pe_explorer::ui::app::start();
}

/// The sinusoidal matrix computed by the app's own code, for the side-by-side benchmark.
#[wasm_bindgen]
pub fn bench_sinusoidal(length: usize, d_model: usize, base: f64) -> f64 {
    pe_explorer::bench::sinusoidal_checksum(length.min(1 << 16), d_model.min(4096), base)
}

/// Bytes of linear memory the module holds now (the abuse test reports it; it never shrinks).
#[wasm_bindgen]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    {
        (core::arch::wasm32::memory_size(0) * 65_536) as f64
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        0.0
    }
}
