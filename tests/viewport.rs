//! Zoom and pan of a heatmap window: the arithmetic behind wheel, drag, pinch and keys.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::plot::viewport::{Extent, Viewport};
use proptest::prelude::*;

fn inside(v: &Viewport, rows: Extent, cols: Extent) -> bool {
    v.rows.end <= rows.len
        && v.cols.end <= cols.len
        && v.rows.len() >= rows.min.min(rows.len)
        && v.cols.len() >= cols.min.min(cols.len)
}

#[test]
fn zooming_in_keeps_the_point_under_the_pointer() {
    let (rows, cols) = (Extent::new(65_536, 8), Extent::new(4096, 8));
    let full = Viewport::full(65_536, 4096);
    // Zoom in 4× around the point a quarter down and three quarters across.
    let v = full.zoom(0.25, (0.25, 0.75), rows, cols);
    assert_eq!(v.rows.len(), 16_384);
    assert_eq!(v.cols.len(), 1024);
    // The row under the pointer was 16,384 before and is still a quarter down the window.
    assert_eq!(v.rows.start + v.rows.len() / 4, 16_384);
    assert_eq!(v.cols.start + 3 * v.cols.len() / 4, 3072);
    // Zooming back out by the same factor around the same point restores the full view.
    assert_eq!(v.zoom(4.0, (0.25, 0.75), rows, cols), full);
}

#[test]
fn zooming_in_reaches_single_cells_and_stops_at_the_minimum() {
    let (rows, cols) = (Extent::new(65_536, 12), Extent::new(4096, 20));
    let mut v = Viewport::full(65_536, 4096);
    for _ in 0..200 {
        v = v.zoom(0.5, (0.5, 0.5), rows, cols);
    }
    assert_eq!((v.rows.len(), v.cols.len()), (12, 20));
    // A small window still moves by whole cells under repeated small steps.
    let w = v.zoom(1.01, (0.5, 0.5), rows, cols);
    assert_eq!((w.rows.len(), w.cols.len()), (13, 21));
}

#[test]
fn panning_stops_at_the_edges_and_reveal_moves_the_least() {
    let (rows, cols) = (Extent::new(100, 1), Extent::new(50, 1));
    let v = Viewport {
        rows: 10..30,
        cols: 0..10,
    };
    assert_eq!(v.pan((-100.0, 3.4), rows, cols).rows, 0..20);
    assert_eq!(v.pan((-100.0, 3.4), rows, cols).cols, 3..13);
    assert_eq!(v.pan((1e9, 1e9), rows, cols).rows, 80..100);
    assert_eq!(v.reveal((35, 5), rows, cols).rows, 16..36);
    assert_eq!(v.reveal((3, 5), rows, cols).rows, 3..23);
    assert_eq!(v.reveal((20, 5), rows, cols), v);
}

#[test]
fn a_window_survives_the_matrix_shrinking() {
    let v = Viewport {
        rows: 900..1000,
        cols: 0..64,
    };
    let fitted = v.fit(Extent::new(120, 4), Extent::new(16, 4));
    assert_eq!(fitted.rows, 20..120);
    assert_eq!(fitted.cols, 0..16);
    // An empty matrix gives an empty window, without panicking.
    let empty = v.zoom(0.5, (0.5, 0.5), Extent::new(0, 4), Extent::new(0, 4));
    assert!(empty.rows.is_empty() && empty.cols.is_empty());
}

proptest! {
    /// Any sequence of zooms, pans and reveals on any size keeps the window inside the matrix
    /// and at least the minimum size.
    #[test]
    fn the_window_always_stays_inside(
        n_rows in 1usize..70_000, n_cols in 1usize..5000,
        min_rows in 1usize..40, min_cols in 1usize..40,
        steps in prop::collection::vec((0u8..3, -2.0f64..2.0, 0.0f64..1.0, 0.0f64..1.0), 1..40),
    ) {
        let (rows, cols) = (Extent::new(n_rows, min_rows), Extent::new(n_cols, min_cols));
        let mut v = Viewport::full(n_rows, n_cols);
        for (kind, a, fy, fx) in steps {
            v = match kind {
                0 => v.zoom(2f64.powf(a * 3.0), (fy, fx), rows, cols),
                1 => v.pan((a * n_rows as f64, a * n_cols as f64), rows, cols),
                _ => v.reveal(((fy * n_rows as f64) as usize, (fx * n_cols as f64) as usize), rows, cols),
            };
            prop_assert!(inside(&v, rows, cols), "{:?}", v);
        }
    }
}
