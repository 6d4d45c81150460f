//! The site's module: the first paint ([`pe_explorer::early`]) with the app itself a chunk of its
//! own wasm, fetched as the first paint starts. Built with the `split` feature, whose
//! `wasm-split-cli` step (`scripts/build_app.sh`) also moves the rarely used views into chunks of
//! their own (`ui::lazy`). `src/bin/whole.rs` is the same app in one module, for the pages that
//! carry every file inside themselves.

#[cfg(feature = "split")]
mod split {
    /// The app: everything only this reaches (Yew, the shell's components, the link's parser, the
    /// reducer) is moved into the chunk `app`, fetched by the first call.
    #[wasm_split_helpers::wasm_split(app, fallible)]
    pub fn app() -> Result<(), wasm_split_helpers::SplitLoaderError> {
        pe_explorer::ui::app::start();
        Ok(())
    }
}

fn main() {
    #[cfg(feature = "split")]
    pe_explorer::early::start(async {
        split::app()
            .await
            .map_err(|e| wasm_bindgen::JsValue::from_str(&e.to_string()))
    });
    // (Built only with the feature; without it, the app at once.)
    #[cfg(not(feature = "split"))]
    pe_explorer::ui::app::start();
}

pe_explorer::app_exports!();
