//! Text on the canvas at phone widths: captions wrap instead of being cut off, and axes get
//! enough ticks (at least two, as many as the labels leave room for).
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::plot::frame::wrap_text;
use pe_explorer::plot::lines::{x_ticks, LineAxis, X_TICK_SPACING};
use pe_explorer::plot::ticks::{index_ticks, nice_ticks, LABEL_GAP};
use proptest::prelude::*;

/// A stand-in for the canvas font: 7 px per character.
fn seven(text: &str) -> f64 {
    7.0 * text.chars().count() as f64
}

#[test]
fn a_short_range_never_gets_a_single_tick() {
    // Length 50: offsets 0 … 49. With two ticks asked the old step (50) left only 0.
    assert_eq!(nice_ticks(0.0, 49.0, 2), vec![0.0, 20.0, 40.0]);
    assert_eq!(nice_ticks(0.0, 49.0, 1), vec![0.0, 20.0, 40.0]);
    assert_eq!(index_ticks(0, 49, 2), vec![0, 20, 40]);
    assert_eq!(index_ticks(0, 1, 1), vec![0, 1]);
    assert_eq!(index_ticks(3, 3, 4), vec![3]);
    let t = nice_ticks(0.1, 0.9, 1);
    assert!(t.len() >= 2, "{t:?}");
    // Ranges that already had enough keep their ticks.
    assert_eq!(
        nice_ticks(0.0, 100.0, 5),
        vec![0.0, 20.0, 40.0, 60.0, 80.0, 100.0]
    );
    assert_eq!(nice_ticks(2.0, 2.0, 5), vec![2.0]);
    assert!(nice_ticks(f64::NAN, 1.0, 5).is_empty());
}

#[test]
fn phone_width_axes_get_several_readable_ticks() {
    // The RoPE distance chart at length 50 on a 390-px phone: a plot about 290 px wide.
    let axis = LineAxis::linear("distance m − n", 0.0, 49.0);
    let labels = |t: &[f64]| t.iter().map(|v| v.to_string()).collect::<Vec<_>>();
    let phone = x_ticks(&axis, 290.0, seven);
    assert_eq!(labels(&phone), ["0", "10", "20", "30", "40"]);
    // A desktop-wide plot: more, but never closer than the spacing.
    let wide = x_ticks(&axis, 1000.0, seven);
    assert_eq!(wide.len(), 10, "{wide:?}");
    // Long labels (length 65,536) spread out so they do not touch: at least a label's width
    // plus a gap between tick centres.
    let long = LineAxis::linear("distance", 0.0, 65_535.0);
    for width in [200.0, 290.0, 600.0, 1200.0] {
        let t = x_ticks(&long, width, seven);
        assert!(t.len() >= 2, "{width}: {t:?}");
        let px = |v: f64| v / 65_535.0 * width;
        for w in t.windows(2) {
            let label = seven(&pe_explorer::plot::ticks::format_tick(w[1]));
            assert!(px(w[1]) - px(w[0]) >= label + LABEL_GAP, "{width}: {t:?}");
            assert!(
                px(w[1]) - px(w[0]) >= X_TICK_SPACING - 1e-9,
                "{width}: {t:?}"
            );
        }
    }
    // A log axis (wavelengths from 2π to 2π·10⁴) keeps its decades.
    let log = LineAxis::log("wavelength", std::f64::consts::TAU, 62_832.0);
    let t = x_ticks(&log, 290.0, seven);
    assert!(t.len() >= 3, "{t:?}");
}

#[test]
fn a_caption_wraps_at_its_separators_and_keeps_every_word() {
    let caption = "RoPE score by distance · d_model 128 · θ base 10000";
    let lines = wrap_text(caption, 200.0, seven);
    assert_eq!(
        lines,
        ["RoPE score by distance", "d_model 128 · θ base 10000"]
    );
    // Wide enough: one line, as before.
    assert_eq!(wrap_text(caption, 1000.0, seven), [caption]);
    // A part wider than the line breaks between words.
    let lines = wrap_text("Held-out accuracy by scheme and test length", 140.0, seven);
    assert!(lines.iter().all(|l| seven(l) <= 140.0), "{lines:?}");
    assert_eq!(
        lines.join(" "),
        "Held-out accuracy by scheme and test length"
    );
}

proptest! {
    /// Whatever the caption and width, nothing is lost and no line is wider than the width
    /// unless it is a single word that is.
    #[test]
    fn wrapping_loses_nothing(
        parts in prop::collection::vec("[a-zθ0-9]{1,12}( [a-z0-9]{1,9}){0,4}", 1..6),
        width in 30.0f64..400.0,
    ) {
        let caption = parts.join(" · ");
        let lines = wrap_text(&caption, width, seven);
        for l in &lines {
            prop_assert!(seven(l) <= width || !l.contains(' '), "{l:?} at {width}");
        }
        let words = |t: &str| t.split([' ', '·']).filter(|w| !w.is_empty()).map(String::from).collect::<Vec<_>>();
        prop_assert_eq!(words(&lines.join(" ")), words(&caption));
    }
}
