//! Tick positions for chart axes: round numbers a reader can take in at a glance.

/// A "nice" step (1, 2 or 5 times a power of ten) that splits `span` into at most `max_ticks`.
pub fn nice_step(span: f64, max_ticks: usize) -> f64 {
    if !(span.is_finite() && span > 0.0) {
        return 1.0;
    }
    let rough = span / max_ticks.max(1) as f64;
    let magnitude = 10f64.powf(rough.log10().floor());
    [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|step| *step >= rough)
        .unwrap_or(10.0 * magnitude)
}

/// Round-numbered ticks inside [lo, hi], at most about `max_ticks` of them.
pub fn nice_ticks(lo: f64, hi: f64, max_ticks: usize) -> Vec<f64> {
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    if !(lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    if hi == lo {
        return vec![lo];
    }
    let step = nice_step(hi - lo, max_ticks);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// Ticks for an axis of whole indices `first..=last` (positions, dimensions): whole steps only.
pub fn index_ticks(first: usize, last: usize, max_ticks: usize) -> Vec<usize> {
    if last < first {
        return Vec::new();
    }
    let step = nice_step((last - first).max(1) as f64, max_ticks).max(1.0) as usize;
    let start = first.div_ceil(step) * step;
    (start..=last).step_by(step).collect()
}

/// A tick label without trailing zeros: 0.5, 10, 1e-6, 2.5e5.
pub fn format_tick(v: f64) -> String {
    if v == 0.0 {
        return "0".to_string();
    }
    let a = v.abs();
    if !(1e-3..1e6).contains(&a) {
        let s = format!("{v:e}");
        return s;
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    s.to_string()
}
