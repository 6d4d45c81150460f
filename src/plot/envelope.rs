//! Downsampling a dense series to what a canvas can show without hiding its extremes.
//!
//! For each pixel column the series keeps its first, smallest, largest and last value in their
//! original order (the "M4" reduction), so the drawn polyline covers exactly the same pixels as
//! the full series would, at a cost proportional to the width instead of the length.

/// Points (x, y) of `ys` sampled at x = x0 + i·dx, reduced to at most four per pixel column for
/// a plot that maps `x_range` onto `pixels` columns. NaN values are kept (they break the line).
pub fn m4(x0: f64, dx: f64, ys: &[f64], x_range: (f64, f64), pixels: usize) -> Vec<(f64, f64)> {
    let pixels = pixels.max(1);
    let span = x_range.1 - x_range.0;
    if ys.len() <= 4 * pixels || span.is_nan() || span <= 0.0 {
        return ys
            .iter()
            .enumerate()
            .map(|(i, y)| (x0 + i as f64 * dx, *y))
            .collect();
    }
    let column = |x: f64| (((x - x_range.0) / span) * pixels as f64).floor() as i64;
    let mut out = Vec::with_capacity(4 * pixels + 8);
    let mut i = 0;
    while i < ys.len() {
        let x = x0 + i as f64 * dx;
        if ys[i].is_nan() {
            out.push((x, f64::NAN));
            while i < ys.len() && ys[i].is_nan() {
                i += 1;
            }
            continue;
        }
        let col = column(x);
        let start = i;
        let (mut lo, mut hi) = (i, i);
        while i < ys.len() && !ys[i].is_nan() && column(x0 + i as f64 * dx) == col {
            if ys[i] < ys[lo] {
                lo = i;
            }
            if ys[i] > ys[hi] {
                hi = i;
            }
            i += 1;
        }
        let last = i - 1;
        let mut keep = [start, lo, hi, last];
        keep.sort_unstable();
        let mut previous = usize::MAX;
        for k in keep {
            if k != previous {
                out.push((x0 + k as f64 * dx, ys[k]));
                previous = k;
            }
        }
    }
    out
}

/// For a series far denser than the plot (several points per pixel column), the vertical range
/// a polyline through every point would cover in each of `pixels` columns: the column's own
/// lowest and highest value, widened to reach the last point of the column before and the first
/// of the column after (the segments joining them cross the boundary). `None` where a column
/// holds no finite value. Drawn as one thin bar per column: the same pixels as the polyline, at
/// a fraction of the cost to rasterise.
pub fn bands(
    x0: f64,
    dx: f64,
    ys: &[f64],
    x_range: (f64, f64),
    pixels: usize,
) -> Vec<Option<(f64, f64)>> {
    let pixels = pixels.max(1);
    let span = x_range.1 - x_range.0;
    let mut out: Vec<Option<(f64, f64)>> = vec![None; pixels];
    if span.is_nan() || span <= 0.0 {
        return out;
    }
    let mut widen = |c: usize, y: f64| {
        if y.is_finite() {
            out[c] = Some(match out[c] {
                Some((lo, hi)) => (lo.min(y), hi.max(y)),
                None => (y, y),
            });
        }
    };
    let mut previous: Option<(usize, f64)> = None;
    for (i, &y) in ys.iter().enumerate() {
        let f = (x0 + i as f64 * dx - x_range.0) / span;
        if !(0.0..=1.0).contains(&f) || !y.is_finite() {
            previous = None;
            continue;
        }
        let c = ((f * pixels as f64) as usize).min(pixels - 1);
        widen(c, y);
        if let Some((pc, py)) = previous {
            if pc != c {
                // The joining segment crosses from column pc into c.
                widen(pc, y);
                widen(c, py);
            }
        }
        previous = Some((c, y));
    }
    out
}
