//! The heatmap's pixels: `paint` gives every value the colour `color` gives it, and the colour
//! scale maps its ends and its middle to the palette's.

use pe_explorer::plot::colormap::{ColorScale, Palette};

#[test]
fn paint_matches_color_for_every_kind_of_value() {
    for palette in Palette::ALL {
        let scale = ColorScale::symmetric(palette, 1.0);
        let mut values: Vec<f32> = (0..=2000).map(|k| -1.2 + 2.4 * k as f32 / 2000.0).collect();
        values.extend([
            f32::NAN,
            f32::INFINITY,
            f32::NEG_INFINITY,
            0.0,
            -0.0,
            1e30,
            -1e30,
        ]);
        let pixels = scale.paint(&values);
        assert_eq!(pixels.len(), values.len() * 4);
        for (v, px) in values.iter().zip(pixels.chunks_exact(4)) {
            let [r, g, b] = scale.color(*v as f64);
            assert_eq!(px, [r, g, b, 255], "{palette:?} at {v}");
        }
        // The ends and the middle of the range are the palette's ends and middle.
        assert_eq!(scale.color(-1.0), palette.at(0.0));
        assert_eq!(scale.color(1.0), palette.at(1.0));
        assert_eq!(scale.color(5.0), palette.at(1.0));
        assert_eq!(scale.color(f64::NAN), palette.undefined());
    }
    // A scale with no span paints everything in its middle colour.
    let flat = ColorScale::new(Palette::BlueRed, 2.0, 2.0);
    assert_eq!(flat.color(2.0), flat.color(-7.0));
}
