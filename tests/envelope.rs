//! The envelope keeps every pixel column's extremes, in order, and shrinks long series.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::plot::envelope::{bands, m4};

#[test]
fn short_series_pass_through() {
    let ys = [1.0, 2.0, 3.0];
    assert_eq!(
        m4(0.0, 1.0, &ys, (0.0, 2.0), 100),
        vec![(0.0, 1.0), (1.0, 2.0), (2.0, 3.0)]
    );
}

#[test]
fn long_series_keep_each_columns_extremes() {
    let n = 100_000;
    let ys: Vec<f64> = (0..n)
        .map(|i| ((i as f64) * 0.37).sin() * (1.0 + i as f64 / n as f64))
        .collect();
    let pixels = 500;
    let pts = m4(0.0, 1.0, &ys, (0.0, (n - 1) as f64), pixels);
    assert!(pts.len() <= 4 * pixels + 4, "{} points", pts.len());
    assert!(pts.windows(2).all(|w| w[0].0 < w[1].0), "x stays in order");
    let per = (n - 1) as f64 / pixels as f64;
    for col in 0..pixels {
        let (a, b) = (
            (col as f64 * per).ceil() as usize,
            (((col + 1) as f64 * per).ceil() as usize).min(n),
        );
        if a >= b {
            continue;
        }
        let max = ys[a..b].iter().cloned().fold(f64::MIN, f64::max);
        let min = ys[a..b].iter().cloned().fold(f64::MAX, f64::min);
        let kept: Vec<f64> = pts
            .iter()
            .filter(|p| p.0 >= a as f64 && p.0 < b as f64)
            .map(|p| p.1)
            .collect();
        assert!(kept.contains(&max) && kept.contains(&min), "column {col}");
    }
}

#[test]
fn gaps_survive() {
    let mut ys = vec![1.0; 10_000];
    for y in &mut ys[4000..6000] {
        *y = f64::NAN;
    }
    let pts = m4(0.0, 1.0, &ys, (0.0, 9999.0), 100);
    assert_eq!(pts.iter().filter(|p| p.1.is_nan()).count(), 1);
}

#[test]
fn bands_cover_every_point_and_join_neighbouring_columns() {
    // 10,000 points of a fast wave on 100 columns.
    let ys: Vec<f64> = (0..10_000)
        .map(|i| (i as f64 * 0.37).sin() * (i as f64 / 10_000.0))
        .collect();
    let b = bands(0.0, 1.0, &ys, (0.0, 9_999.0), 100);
    assert_eq!(b.len(), 100);
    for (i, y) in ys.iter().enumerate() {
        let c = ((i as f64 / 9_999.0 * 100.0) as usize).min(99);
        let (lo, hi) = b[c].expect("every column has points");
        assert!(lo <= *y && *y <= hi, "point {i} outside its column's band");
    }
    // Neighbouring bands overlap or touch: the drawn band has no vertical gaps.
    for w in b.windows(2) {
        let ((lo0, hi0), (lo1, hi1)) = (w[0].unwrap(), w[1].unwrap());
        assert!(lo1 <= hi0 && lo0 <= hi1, "{:?}", w);
    }
    // A slow ramp gives thin, increasing bands; NaN leaves a column empty.
    let mut ramp: Vec<f64> = (0..1000).map(|i| i as f64).collect();
    ramp[500..520].iter_mut().for_each(|v| *v = f64::NAN);
    let r = bands(0.0, 1.0, &ramp, (0.0, 999.0), 100);
    assert_eq!(r[0], Some((0.0, 10.0)));
    assert!(r[50].is_none() || r[50].unwrap().0 >= 520.0 || r[50].unwrap().1 < 500.0);
    assert_eq!(r[51], None);
}

/// Dark mode: every series colour of the line charts stands 3:1 against either background once
/// the theme has made it readable; colours that already do are left alone.
#[test]
fn chart_strokes_are_readable_in_both_themes() {
    use pe_explorer::plot::frame::{contrast, Theme, GRAPHIC_CONTRAST};
    use pe_explorer::plot::lines::SERIES_COLORS;
    for theme in [Theme::LIGHT, Theme::DARK] {
        for c in SERIES_COLORS {
            let r = theme.readable(c);
            assert!(
                contrast(r, theme.background) >= GRAPHIC_CONTRAST,
                "{c:?} → {r:?}"
            );
            if contrast(c, theme.background) >= GRAPHIC_CONTRAST {
                assert_eq!(r, c);
            }
        }
    }
    // The closed-form line's dark grey becomes light on the dark page.
    let grey = SERIES_COLORS[6];
    assert!(contrast(grey, Theme::DARK.background) < 2.0);
    assert!(contrast(Theme::DARK.readable(grey), Theme::DARK.background) >= 3.0);
}
