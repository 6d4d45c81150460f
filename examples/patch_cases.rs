//! The Image patches view's matrix CSV and its NumPy and PyTorch code for a spread of settings,
//! one JSON object per line, for `scripts/check_torch.py` (which runs the PyTorch code against
//! the CSV where PyTorch is installed): `cargo run --example patch_cases`.

use pe_explorer::export::json_string as quoted;
use pe_explorer::figures::patches::{encoding_csv, snippet, PatchInputs};
use pe_explorer::schemes::grid::GridScheme;
use pe_explorer::snippets::Library;
use pe_explorer::state::Settings;

fn main() {
    // (scheme, rows, cols, d_model, trained side, interpolate, head, CLS row, base)
    let cases = [
        (
            GridScheme::SinCos,
            14,
            14,
            128,
            14,
            true,
            0,
            false,
            10_000.0,
        ),
        (GridScheme::SinCos, 5, 9, 64, 14, true, 0, true, 100.0),
        (GridScheme::Learned, 14, 14, 32, 7, true, 0, false, 10_000.0),
        (GridScheme::Learned, 6, 11, 16, 4, true, 0, true, 10_000.0),
        (GridScheme::Learned, 9, 5, 16, 4, false, 0, false, 10_000.0),
        (GridScheme::Learned, 3, 3, 16, 8, true, 0, false, 10_000.0),
        (GridScheme::Axial, 14, 14, 128, 14, true, 0, false, 10_000.0),
        (GridScheme::Axial, 8, 3, 66, 14, true, 0, true, 10_000.0),
        (GridScheme::Mixed, 14, 14, 64, 14, true, 3, false, 10_000.0),
        (GridScheme::Mixed, 4, 10, 32, 14, true, 0, true, 10_000.0),
    ];
    for (scheme, rows, cols, d_model, trained, interpolate, head, cls, base) in cases {
        let mut s = Settings {
            d_model,
            base,
            ..Settings::default()
        };
        s.grid.scheme = scheme;
        s.grid.rows = rows;
        s.grid.cols = cols;
        s.grid.trained = trained;
        s.grid.interpolate = interpolate;
        s.grid.head = head;
        s.grid.cls = cls;
        s.settle();
        let inputs = PatchInputs::of(&s);
        let csv = encoding_csv(&inputs.encoding(), cls).expect("a small grid");
        let name = format!(
            "{} {rows}x{cols} d{d_model} trained {trained} interpolate {interpolate} head {head} cls {cls} base {base}",
            scheme.id()
        );
        println!(
            "{{\"name\": {}, \"numpy\": {}, \"torch\": {}, \"csv\": {}}}",
            quoted(&name),
            quoted(&snippet(&inputs, Library::NumPy)),
            quoted(&snippet(&inputs, Library::PyTorch)),
            quoted(&csv)
        );
    }
}
