//! Text on the canvas at phone widths: captions wrap instead of being cut off, and axes get
//! enough ticks (at least two, as many as the labels leave room for).
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::plot::frame::{fit_y_title, wrap_text, MIN_TITLE};
use pe_explorer::plot::lines::{
    grown_height, place_guide_labels, x_ticks, LineAxis, X_TICK_SPACING,
};
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

/// `plot::frame::fit_y_title`: an upright y title never runs up into the caption and legend.
#[test]
fn a_long_y_title_runs_down_past_the_plot_or_shrinks_never_up() {
    // The plot spans 100 … 250 on a 300-px canvas.
    let plot = (100.0, 250.0);
    // A short title is centred on the plot, at its size.
    assert_eq!(fit_y_title(80.0, 13.0, plot, 300.0), (13.0, 175.0));
    // "PE(p)·PE(p+k), dot product" (190 px) is longer than the plot: it starts at the plot's
    // top and ends above the canvas's bottom, at full size.
    let (size, centre) = fit_y_title(190.0, 13.0, plot, 300.0);
    assert_eq!(size, 13.0);
    assert_eq!(centre - 95.0, 100.0);
    assert!(centre + 95.0 <= 298.0);
    // Longer than the plot's top to the canvas's bottom (198 px): it shrinks to fit.
    let (size, centre) = fit_y_title(396.0, 13.0, plot, 300.0);
    assert!((size - 6.5_f64.max(MIN_TITLE)).abs() < 1e-9, "{size}");
    let long = 396.0 * size / 13.0;
    assert!((centre - long / 2.0 - 100.0).abs() < 1e-9);
    // Never below the smallest size, and never grown.
    assert_eq!(fit_y_title(5_000.0, 13.0, plot, 300.0).0, MIN_TITLE);
    assert_eq!(
        fit_y_title(210.0, 13.0, plot, 300.0).0,
        13.0 * 198.0 / 210.0
    );
}

/// `plot::lines::place_guide_labels`: guide labels never overlap.
#[test]
fn guide_labels_close_together_do_not_overlap() {
    let plot = (40.0, 60.0, 300.0, 200.0);
    let text = 12.0;
    let overlaps = |a: (f64, f64, f64), b: (f64, f64, f64)| {
        a.0 < b.0 + b.2 && b.0 < a.0 + a.2 && a.1 < b.1 + text && b.1 < a.1 + text
    };
    // The wavelengths chart at base 30 and length 200: 2π·base ≈ 188.5 and length = 200 lie
    // 3 px apart on its log axis; 2π ≈ 6.28 far below.
    let guides = [
        (240.0, false, 60.0),
        (80.0, false, 110.0),
        (77.0, false, 80.0),
    ];
    let spots = place_guide_labels(&guides, plot, text);
    // A lone guide keeps the old spot: above its line at the plot's right.
    assert_eq!(spots[0], (40.0 + 300.0 - 4.0 - 60.0, 240.0 - 4.0 - 12.0));
    let boxes: Vec<_> = spots
        .iter()
        .zip(&guides)
        .map(|(s, g)| (s.0, s.1, g.2))
        .collect();
    for i in 0..boxes.len() {
        let b = boxes[i];
        assert!(
            b.0 >= 40.0 && b.0 + b.2 <= 340.0 && b.1 >= 60.0 && b.1 + text <= 260.0,
            "{b:?}"
        );
        for c in &boxes[..i] {
            assert!(!overlaps(b, *c), "{b:?} over {c:?}");
        }
    }
    // Two vertical guides 10 px apart: the second label goes left of its line or lower.
    let spots = place_guide_labels(&[(200.0, true, 90.0), (210.0, true, 90.0)], plot, text);
    assert_eq!(spots[0], (204.0, 64.0));
    assert!(!overlaps(
        (spots[0].0, spots[0].1, 90.0),
        (spots[1].0, spots[1].1, 90.0)
    ));
}

/// `plot::lines::grown_height`: caption and legend lines past two make the canvas taller.
#[test]
fn a_long_legend_makes_the_chart_taller_not_its_plot_shorter() {
    assert_eq!(grown_height(240.0, 1), 240.0);
    assert_eq!(grown_height(240.0, 2), 240.0);
    // The dot-product chart on a phone: two caption lines and four legend rows.
    assert_eq!(grown_height(240.0, 6), 240.0 + 4.0 * 18.0);
}

/// `plot::ticks::fit_names`: named columns keep their names apart on a phone.
#[test]
fn named_columns_shorten_or_thin_their_names_instead_of_running_together() {
    let names: Vec<String> = ["12 (trained)", "24 (2×)", "48 (4×)", "96 (8×)"]
        .map(String::from)
        .to_vec();
    // A desktop's held-out table: 150 px a column, every name whole.
    let wide = [75.0, 225.0, 375.0, 525.0];
    assert_eq!(
        pe_explorer::plot::ticks::fit_names(&wide, &names, seven),
        names
    );
    // A phone's: 60 px a column; "12 (trained)" is 84 px: the numbers alone.
    let phone = [30.0, 90.0, 150.0, 210.0];
    assert_eq!(
        pe_explorer::plot::ticks::fit_names(&phone, &names, seven),
        ["12", "24", "48", "96"]
    );
    // Narrower still (10 px a column): every other number, then every fourth.
    let tight = [5.0, 15.0, 25.0, 35.0];
    let fitted = pe_explorer::plot::ticks::fit_names(&tight, &names, seven);
    assert_eq!(fitted[0], "12");
    let shown: Vec<usize> = (0..4).filter(|&i| !fitted[i].is_empty()).collect();
    for w in shown.windows(2) {
        assert!(tight[w[1]] - tight[w[0]] >= 14.0 + LABEL_GAP, "{fitted:?}");
    }
}

/// `plot::lines::coincident`: series drawn one over another are found, so a caption can name
/// them (four fine-tuning curves at 100 % had shown as one).
#[test]
fn curves_on_one_line_are_found() {
    use pe_explorer::plot::lines::{coincident, Points, Series};
    use plotters::style::RGBColor;
    let at = |pts: &[(f64, f64)]| Points::Pairs(pts.to_vec());
    let full = [(3.0, 100.0), (6.0, 100.0)];
    let c = RGBColor(0, 0, 0);
    let series = vec![
        Series::line("PI", c, at(&full)),
        Series::line("YaRN", c, at(&[(3.0, 90.0), (6.0, 100.0)])),
        Series::line("llama3", c, at(&full)),
        Series::line("LongRoPE", c, at(&full)),
        Series::line("empty", c, at(&[])),
        Series::line("empty too", c, at(&[])),
    ];
    assert_eq!(coincident(&series), vec![vec![0, 2, 3]]);
    assert!(coincident(&series[..2]).is_empty());
}
