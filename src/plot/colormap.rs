//! Colour scales for signed values: diverging palettes centred on zero, and their lookup tables.

/// A colour scale. The diverging ones are from ColorBrewer and readable with the common forms of
/// colour blindness; the grey one survives printing in black and white.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Palette {
    /// Blue for negative, white at zero, red for positive (ColorBrewer RdBu).
    #[default]
    BlueRed,
    /// Purple for negative, white at zero, orange for positive (ColorBrewer PuOr).
    PurpleOrange,
    /// Black for the minimum through grey to white for the maximum.
    Grey,
}

pub type Rgb = [u8; 3];

const BLUE_RED: [Rgb; 11] = [
    [0x05, 0x30, 0x61],
    [0x21, 0x66, 0xac],
    [0x43, 0x93, 0xc3],
    [0x92, 0xc5, 0xde],
    [0xd1, 0xe5, 0xf0],
    [0xf7, 0xf7, 0xf7],
    [0xfd, 0xdb, 0xc7],
    [0xf4, 0xa5, 0x82],
    [0xd6, 0x60, 0x4d],
    [0xb2, 0x18, 0x2b],
    [0x67, 0x00, 0x1f],
];

const PURPLE_ORANGE: [Rgb; 11] = [
    [0x2d, 0x00, 0x4b],
    [0x54, 0x27, 0x88],
    [0x80, 0x73, 0xac],
    [0xb2, 0xab, 0xd2],
    [0xd8, 0xda, 0xeb],
    [0xf7, 0xf7, 0xf7],
    [0xfe, 0xe0, 0xb6],
    [0xfd, 0xb8, 0x63],
    [0xe0, 0x82, 0x14],
    [0xb3, 0x58, 0x06],
    [0x7f, 0x3b, 0x08],
];

const GREY: [Rgb; 2] = [[0x10, 0x10, 0x10], [0xf8, 0xf8, 0xf8]];

/// Entries in a lookup table.
pub const LUT_SIZE: usize = 256;

impl Palette {
    pub const ALL: [Palette; 3] = [Palette::BlueRed, Palette::PurpleOrange, Palette::Grey];

    pub fn id(self) -> &'static str {
        match self {
            Palette::BlueRed => "blue-red",
            Palette::PurpleOrange => "purple-orange",
            Palette::Grey => "grey",
        }
    }

    pub fn from_id(id: &str) -> Option<Palette> {
        Palette::ALL.into_iter().find(|p| p.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            Palette::BlueRed => "Blue – white – red",
            Palette::PurpleOrange => "Purple – white – orange",
            Palette::Grey => "Greyscale (for print)",
        }
    }

    fn stops(self) -> &'static [Rgb] {
        match self {
            Palette::BlueRed => &BLUE_RED,
            Palette::PurpleOrange => &PURPLE_ORANGE,
            Palette::Grey => &GREY,
        }
    }

    /// The colour at `t` in [0, 1], interpolated linearly between the palette's stops.
    pub fn at(self, t: f64) -> Rgb {
        let stops = self.stops();
        let t = if t.is_nan() { 0.5 } else { t.clamp(0.0, 1.0) };
        let x = t * (stops.len() - 1) as f64;
        let i = (x.floor() as usize).min(stops.len() - 2);
        let f = x - i as f64;
        let (a, b) = (stops[i], stops[i + 1]);
        let mix = |k: usize| (a[k] as f64 + (b[k] as f64 - a[k] as f64) * f).round() as u8;
        [mix(0), mix(1), mix(2)]
    }

    /// What the two ends look like, in words: ("blue", "red").
    pub fn end_names(self) -> (&'static str, &'static str) {
        match self {
            Palette::BlueRed => ("Blue", "red"),
            Palette::PurpleOrange => ("Purple", "orange"),
            Palette::Grey => ("Black", "white"),
        }
    }

    /// The colour a table shows for cells that do not exist.
    pub fn undefined(self) -> Rgb {
        match self {
            Palette::Grey => [0xc8, 0x5a, 0x2a],
            _ => [0x8a, 0x8f, 0x98],
        }
    }
}

/// The table step of a (non-NaN) value on [`min`, `max`]: the nearest of the `LUT_SIZE` steps,
/// values outside the range at the ends. (Adding ½ and truncating rounds a non-negative number
/// as `round` does, without the library call `round` costs in WebAssembly.)
fn step(min: f64, max: f64, value: f64) -> usize {
    let span = max - min;
    let t = if span > 0.0 {
        (value - min) / span
    } else {
        0.5
    };
    (t.clamp(0.0, 1.0) * (LUT_SIZE - 1) as f64 + 0.5) as usize
}

/// A lookup table mapping a value range onto a palette, `LUT_SIZE` colours wide.
#[derive(Clone, Debug, PartialEq)]
pub struct ColorScale {
    pub palette: Palette,
    pub min: f64,
    pub max: f64,
    table: Vec<Rgb>,
}

impl ColorScale {
    pub fn new(palette: Palette, min: f64, max: f64) -> ColorScale {
        ColorScale::with_table(palette, min, max, |k| k as f64 / (LUT_SIZE - 1) as f64)
    }

    /// A scale whose table step `k` takes the palette's colour at `t(k)`.
    fn with_table(palette: Palette, min: f64, max: f64, t: impl Fn(usize) -> f64) -> ColorScale {
        ColorScale {
            palette,
            min,
            max,
            table: (0..LUT_SIZE).map(|k| palette.at(t(k))).collect(),
        }
    }

    /// A scale over [`min`, `max`] whose middle colour (white, in the diverging palettes) sits at
    /// `centre` instead of halfway: each side spreads over its half of the palette. Chance, for
    /// accuracies: below it one hue, above it the other.
    pub fn centred(palette: Palette, min: f64, centre: f64, max: f64) -> ColorScale {
        // The table step the centre falls on takes the middle colour exactly.
        let c = step(min, max, centre.clamp(min, max));
        let last = LUT_SIZE - 1;
        ColorScale::with_table(palette, min, max, |k| match k.cmp(&c) {
            std::cmp::Ordering::Less => 0.5 * k as f64 / c as f64,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Greater => 0.5 + 0.5 * (k - c) as f64 / (last - c) as f64,
        })
    }

    /// A scale centred on zero: [−m, m].
    pub fn symmetric(palette: Palette, magnitude: f64) -> ColorScale {
        ColorScale::new(palette, -magnitude, magnitude)
    }

    /// The table entry of a (non-NaN) value (see [`step`]).
    fn index(&self, value: f64) -> usize {
        step(self.min, self.max, value)
    }

    /// The colour of a value; values outside the range take the end colours.
    pub fn color(&self, value: f64) -> Rgb {
        if value.is_nan() {
            return self.palette.undefined();
        }
        self.table[self.index(value)]
    }

    /// RGBA pixels (opaque) for a row-major grid of values: the same colours as [`color`],
    /// written into a buffer sized once.
    ///
    /// [`color`]: ColorScale::color
    pub fn paint(&self, values: &[f32]) -> Vec<u8> {
        let opaque = |[r, g, b]: Rgb| [r, g, b, 255];
        let lut: Vec<[u8; 4]> = self.table.iter().map(|&c| opaque(c)).collect();
        let undefined = opaque(self.palette.undefined());
        let mut out = vec![0u8; values.len() * 4];
        for (pixel, &v) in out.chunks_exact_mut(4).zip(values) {
            let rgba = if v.is_nan() {
                undefined
            } else {
                lut[self.index(v as f64).min(LUT_SIZE - 1)]
            };
            pixel.copy_from_slice(&rgba);
        }
        out
    }
}
