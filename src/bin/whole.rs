//! The app in one module, every view drawn by it: what the single file and the notebook widget
//! carry (scripts/package.sh builds it). The site serves `src/main.rs`, the shell, instead.

fn main() {
    pe_explorer::ui::app::start_whole();
}

pe_explorer::app_exports!();
