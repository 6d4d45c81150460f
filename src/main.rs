//! The app as the site serves it: the shell, whose rarely used views are modules of their own
//! (`src/bin/view_*.rs`). `src/bin/whole.rs` is the same app in one module, for the pages that
//! carry every file inside themselves.

fn main() {
    pe_explorer::ui::app::start();
}

pe_explorer::app_exports!();
