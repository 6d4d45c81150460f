//! The visible part of a heatmap: a window of rows and columns that the reader zooms and pans.
//! Pure arithmetic on index ranges; the chart component turns wheel, drag, pinch and keys into
//! calls here.

use std::ops::Range;

/// One axis of the matrix: how many indices it has, and the fewest a window may show (so a
/// fully zoomed-in cell stays a readable size instead of filling the whole plot).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extent {
    pub len: usize,
    pub min: usize,
}

impl Extent {
    pub fn new(len: usize, min: usize) -> Extent {
        Extent {
            len,
            min: min.clamp(1, len.max(1)),
        }
    }
}

/// The rows and columns shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Viewport {
    pub rows: Range<usize>,
    pub cols: Range<usize>,
}

impl Viewport {
    /// Everything.
    pub fn full(rows: usize, cols: usize) -> Viewport {
        Viewport {
            rows: 0..rows,
            cols: 0..cols,
        }
    }

    pub fn is_full(&self, rows: Extent, cols: Extent) -> bool {
        self.rows == (0..rows.len) && self.cols == (0..cols.len)
    }

    /// Zooms both axes by `factor` (below 1 zooms in), keeping the point at fractions
    /// (`fy`, `fx`) of the window where it is, as a map does under the pointer.
    pub fn zoom(&self, factor: f64, (fy, fx): (f64, f64), rows: Extent, cols: Extent) -> Viewport {
        Viewport {
            rows: zoom_axis(&self.rows, factor, fy, rows),
            cols: zoom_axis(&self.cols, factor, fx, cols),
        }
    }

    /// Moves the window by (`dy`, `dx`) indices (positive: towards higher indices), stopping at
    /// the edges.
    pub fn pan(&self, (dy, dx): (f64, f64), rows: Extent, cols: Extent) -> Viewport {
        Viewport {
            rows: shift(&self.rows, dy, rows),
            cols: shift(&self.cols, dx, cols),
        }
    }

    /// The smallest move that brings `cell` into view.
    pub fn reveal(&self, (row, col): (usize, usize), rows: Extent, cols: Extent) -> Viewport {
        let axis = |r: &Range<usize>, i: usize, e: Extent| {
            let r = fit(r, e);
            let i = i.min(e.len.saturating_sub(1));
            if i < r.start {
                i..i + r.len()
            } else if i >= r.end {
                i + 1 - r.len()..i + 1
            } else {
                r
            }
        };
        Viewport {
            rows: axis(&self.rows, row, rows),
            cols: axis(&self.cols, col, cols),
        }
    }

    /// The same window inside a matrix that may have changed size: kept where it fits, moved
    /// or shrunk where it does not.
    pub fn fit(&self, rows: Extent, cols: Extent) -> Viewport {
        Viewport {
            rows: fit(&self.rows, rows),
            cols: fit(&self.cols, cols),
        }
    }
}

fn fit(r: &Range<usize>, e: Extent) -> Range<usize> {
    let len = r.len().clamp(e.min, e.len.max(e.min)).min(e.len);
    let start = r.start.min(e.len - len);
    start..start + len
}

fn zoom_axis(r: &Range<usize>, factor: f64, anchor: f64, e: Extent) -> Range<usize> {
    let r = fit(r, e);
    if e.len == 0 || !factor.is_finite() || factor <= 0.0 {
        return r;
    }
    let len = r.len() as f64;
    let mut target = (len * factor).round();
    // Rounding must not stall a small window: every step in or out changes it by one at least.
    if factor < 1.0 && target >= len {
        target = len - 1.0;
    } else if factor > 1.0 && target <= len {
        target = len + 1.0;
    }
    let new_len = (target.max(0.0) as usize).max(e.min).min(e.len);
    let anchor = if anchor.is_nan() {
        0.5
    } else {
        anchor.clamp(0.0, 1.0)
    };
    let point = r.start as f64 + anchor * len;
    let start = (point - anchor * new_len as f64).round().max(0.0) as usize;
    let start = start.min(e.len - new_len);
    start..start + new_len
}

fn shift(r: &Range<usize>, by: f64, e: Extent) -> Range<usize> {
    let r = fit(r, e);
    if !by.is_finite() {
        return r;
    }
    let room = (e.len - r.len()) as f64;
    let start = (r.start as f64 + by).round().clamp(0.0, room) as usize;
    start..start + r.len()
}
