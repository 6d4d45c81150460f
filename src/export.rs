//! Data out: CSV text and file names for what the charts show. Pure; the UI only saves the text.

use std::fmt::Write;

use crate::format::{group_thousands, significant};
use crate::math::matrix::Matrix;

/// A JSON string literal (the .safetensors header, the notebook package's link spec).
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The most cells a CSV export writes (4096 × 1024, about 45 MB of text).
pub const MAX_CSV_CELLS: usize = 4096 * 1024;

/// A number with nine significant digits (an exponent for tiny or huge magnitudes); "NaN" for
/// a cell that does not exist.
pub fn format_value(v: f64) -> String {
    significant(v, 9)
}

/// Why an export was not written.
#[derive(Clone, Debug, PartialEq)]
pub struct TooLarge {
    pub cells: usize,
}

impl TooLarge {
    pub fn message(&self) -> String {
        format!(
            "This matrix has {} values; CSV export stops at {} (4096 positions × 1024 \
             dimensions). Make length or d_model smaller and try again.",
            group_thousands(self.cells as u64),
            group_thousands(MAX_CSV_CELLS as u64)
        )
    }
}

/// The whole matrix as CSV: a header row (`first_header`, then one name per column), then one
/// row per matrix row starting with its index.
pub fn matrix_csv(
    matrix: &dyn Matrix,
    first_header: &str,
    column_name: impl Fn(usize) -> String,
) -> Result<String, TooLarge> {
    labelled_csv(matrix, first_header, |r| r.to_string(), column_name)
}

/// A matrix as CSV with named rows and columns: header `first_header,<column names>`, then one
/// line per row starting with its name (names are quoted when they contain a comma or quote).
pub fn labelled_csv(
    matrix: &dyn Matrix,
    first_header: &str,
    row_name: impl Fn(usize) -> String,
    column_name: impl Fn(usize) -> String,
) -> Result<String, TooLarge> {
    let (rows, cols) = (matrix.rows(), matrix.cols());
    let cells = rows.saturating_mul(cols);
    if cells > MAX_CSV_CELLS {
        return Err(TooLarge { cells });
    }
    let mut out = String::with_capacity(cells * 13 + cols * 8 + 64);
    out.push_str(&quote(first_header));
    for c in 0..cols {
        out.push(',');
        out.push_str(&quote(&column_name(c)));
    }
    out.push('\n');
    for r in 0..rows {
        out.push_str(&quote(&row_name(r)));
        for c in 0..cols {
            out.push(',');
            out.push_str(&format_value(matrix.value(r, c)));
        }
        out.push('\n');
    }
    Ok(out)
}

/// A CSV field, quoted when it needs to be.
fn quote(field: &str) -> String {
    if field.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", field.replace('"', "\"\""))
    } else {
        field.to_string()
    }
}

/// A table as CSV: the header, then one line per row; the first column is an index written as
/// a whole number, the others as values (nine significant digits, "NaN" where undefined).
pub fn table_csv(header: &[String], rows: impl IntoIterator<Item = Vec<f64>>) -> String {
    let mut out = header.join(",");
    out.push('\n');
    for row in rows {
        for (i, v) in row.iter().enumerate() {
            if i > 0 {
                out.push(',');
                out.push_str(&format_value(*v));
            } else {
                let _ = write!(out, "{}", *v as i64);
            }
        }
        out.push('\n');
    }
    out
}
