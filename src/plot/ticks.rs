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

/// The next smaller "nice" step: 50 → 20 → 10 → 5 → 2 → 1 → 0.5 …
fn smaller_step(step: f64) -> f64 {
    let magnitude = 10f64.powf(step.log10().floor());
    let mantissa = (step / magnitude).round();
    if mantissa >= 5.0 {
        step * 0.4
    } else {
        step * 0.5
    }
}

/// Round-numbered ticks inside [lo, hi], at most about `max_ticks` of them, and never fewer
/// than two when the range is not a single value (a step as wide as the range would leave one
/// tick: 0 … 49 with two ticks asked gives 0, 20, 40, not 0 alone).
pub fn nice_ticks(lo: f64, hi: f64, max_ticks: usize) -> Vec<f64> {
    let (lo, hi) = if lo <= hi { (lo, hi) } else { (hi, lo) };
    if !(lo.is_finite() && hi.is_finite()) {
        return Vec::new();
    }
    if hi == lo {
        return vec![lo];
    }
    let ticks = |step: f64| -> Vec<f64> {
        let first = (lo / step).ceil() as i64;
        let last = (hi / step).floor() as i64;
        (first..=last).map(|k| k as f64 * step).collect()
    };
    let mut step = nice_step(hi - lo, max_ticks);
    let mut out = ticks(step);
    // Each smaller step at least halves the gap; by a step of half the range there are two.
    for _ in 0..8 {
        if out.len() >= 2 {
            break;
        }
        step = smaller_step(step);
        out = ticks(step);
    }
    out
}

/// Ticks for an axis of whole indices `first..=last` (positions, dimensions): whole steps only,
/// and two or more whenever `last > first`.
pub fn index_ticks(first: usize, last: usize, max_ticks: usize) -> Vec<usize> {
    if last < first {
        return Vec::new();
    }
    let mut step = nice_step((last - first).max(1) as f64, max_ticks).max(1.0);
    loop {
        let whole = step.round().max(1.0) as usize;
        let start = first.div_ceil(whole) * whole;
        let out: Vec<usize> = (start..=last).step_by(whole).collect();
        if out.len() >= 2 || whole == 1 {
            return out;
        }
        step = smaller_step(step);
    }
}

/// The ticks to draw along `span_px` pixels: the most (one per `min_spacing` pixels at most)
/// whose labels do not touch. `candidates(n)` gives about n ticks, `to_px` places a tick and
/// `label_px` measures its label. At least the candidates for two ticks.
pub fn fit_ticks(
    span_px: f64,
    min_spacing: f64,
    candidates: impl Fn(usize) -> Vec<f64>,
    to_px: impl Fn(f64) -> f64,
    label_px: impl Fn(f64) -> f64,
) -> Vec<f64> {
    let most = (span_px / min_spacing.max(1.0)).floor().clamp(2.0, 40.0) as usize;
    for n in (2..=most).rev() {
        let ticks = candidates(n);
        let widest = ticks.iter().map(|&t| label_px(t)).fold(0.0, f64::max);
        let closest = ticks
            .windows(2)
            .map(|w| (to_px(w[1]) - to_px(w[0])).abs())
            .fold(f64::INFINITY, f64::min);
        if closest >= widest + LABEL_GAP {
            return ticks;
        }
    }
    candidates(2)
}

/// Clear space between neighbouring tick labels, in CSS pixels.
pub const LABEL_GAP: f64 = 12.0;

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

/// Labels of named cells (centred at `positions`, pixels) that fit side by side: as they are
/// when none touches the next; else each shortened to what comes before " (" ("12 (trained)" →
/// "12"); else every other one left blank, then every fourth, … until none touches. A phone's
/// held-out table had run "12 (trained)" into "24 (2×)".
pub fn fit_names(
    positions: &[f64],
    labels: &[String],
    measure: impl Fn(&str) -> f64,
) -> Vec<String> {
    let fits = |labels: &[String]| {
        let shown: Vec<(f64, f64)> = positions
            .iter()
            .zip(labels)
            .filter(|(_, l)| !l.is_empty())
            .map(|(&p, l)| (p, measure(l)))
            .collect();
        shown
            .windows(2)
            .all(|w| (w[1].0 - w[0].0).abs() >= (w[0].1 + w[1].1) / 2.0 + LABEL_GAP)
    };
    if fits(labels) {
        return labels.to_vec();
    }
    let short: Vec<String> = labels
        .iter()
        .map(|l| l.split(" (").next().unwrap_or(l).to_string())
        .collect();
    let mut every = 2;
    let mut out = short.clone();
    while !fits(&out) && every < labels.len().max(2) * 2 {
        out = short
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i % every == 0 {
                    l.clone()
                } else {
                    String::new()
                }
            })
            .collect();
        every *= 2;
    }
    out
}
