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

/// `ColorScale::centred`: the palette's middle colour (white in the diverging ones) sits at the
/// centre given (chance, 10 %, on a needle map), its ends at the range's ends, and each side
/// spreads over its half of the palette.
#[test]
fn a_centred_scale_puts_the_middle_colour_at_its_centre() {
    for palette in Palette::ALL {
        let scale = ColorScale::centred(palette, 0.0, 10.0, 100.0);
        assert_eq!(scale.color(10.0), palette.at(0.5), "{palette:?}");
        assert_eq!(scale.color(0.0), palette.at(0.0));
        assert_eq!(scale.color(100.0), palette.at(1.0));
        // 55 is halfway from the centre to the top: three quarters of the palette.
        let near = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).all(|(x, y)| x.abs_diff(y) <= 3);
        assert!(near(scale.color(55.0), palette.at(0.75)), "{palette:?}");
        // The pixels agree with the colours.
        let px = scale.paint(&[10.0, 55.0]);
        assert_eq!(&px[0..3], &scale.color(10.0));
    }
    // A centre at an end, or past it, still gives a scale.
    let edge = ColorScale::centred(Palette::BlueRed, 0.0, 0.0, 100.0);
    assert_eq!(edge.color(0.0), Palette::BlueRed.at(0.5));
    assert_eq!(edge.color(100.0), Palette::BlueRed.at(1.0));
}
