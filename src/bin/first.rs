//! The first paint of the pages that carry the app inside themselves (the single file, and the
//! notebook widget that carries it): the site's first paint ([`pe_explorer::early`]), with the
//! app loaded from the page's own copy (`window.peExplorerBundle`, written by
//! `scripts/package.py`), in one module (`src/bin/whole.rs`). The site serves `src/main.rs`.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(inline_js = "
export function load_app() {
  const bundle = window.peExplorerBundle;
  if (!bundle) return Promise.reject(new Error('this page carries no copy of the app'));
  // Its exports become `window.wasmBindings` once it runs (`early::start`), as on the site.
  return bundle.loadApp().then((m) => { window.peExplorerMain = m; });
}")]
extern "C" {
    fn load_app() -> js_sys::Promise;
}

fn main() {
    // Asked for before the chart is drawn: the page decodes the app meanwhile.
    let loading = wasm_bindgen_futures::JsFuture::from(load_app());
    pe_explorer::early::start(async move { loading.await.map(|_| ()) });
}
