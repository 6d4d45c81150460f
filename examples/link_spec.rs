//! Writes what the notebook widget's Python package knows of the link (see `src/link_spec.rs`):
//! `cargo run --example link_spec > python/src/pe_explorer/spec.json`.

fn main() {
    print!("{}", pe_explorer::link_spec::json());
}
