//! The app as the site serves it: the shell, built with the `split` feature, whose rarely used
//! views come from chunks of its own wasm (`ui::lazy`). `src/bin/whole.rs` is the same app in one
//! module, for the pages that carry every file inside themselves.

fn main() {
    pe_explorer::ui::app::start();
}

pe_explorer::app_exports!();
