//! What every chart shares: colours, fonts, the canvas set-up for sharp HiDPI drawing.

use plotters::prelude::*;
use plotters::style::FontFamily;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// The page's system font stack, used for chart text too.
pub const FONT: &str =
    "system-ui, -apple-system, \"Segoe UI\", Roboto, \"Helvetica Neue\", Arial, sans-serif";

/// Chart colours.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    pub background: RGBColor,
    pub text: RGBColor,
    pub muted: RGBColor,
    pub axis: RGBColor,
    pub grid: RGBColor,
    /// Cursors and highlights drawn over the data.
    pub cursor: RGBColor,
    /// Backgrounds of small multiples (the dials), plain and selected.
    pub panel: RGBColor,
    pub panel_selected: RGBColor,
}

impl Theme {
    pub const LIGHT: Theme = Theme {
        background: RGBColor(0xff, 0xff, 0xff),
        text: RGBColor(0x1d, 0x26, 0x33),
        muted: RGBColor(0x4b, 0x55, 0x63),
        axis: RGBColor(0x9a, 0xa3, 0xaf),
        grid: RGBColor(0xe8, 0xeb, 0xef),
        cursor: RGBColor(0x11, 0x18, 0x27),
        panel: RGBColor(0xf8, 0xfa, 0xfc),
        panel_selected: RGBColor(0xee, 0xf4, 0xfb),
    };

    pub const DARK: Theme = Theme {
        background: RGBColor(0x16, 0x1b, 0x22),
        text: RGBColor(0xe6, 0xed, 0xf3),
        muted: RGBColor(0xa7, 0xb1, 0xbd),
        axis: RGBColor(0x5d, 0x68, 0x75),
        grid: RGBColor(0x2a, 0x31, 0x3a),
        cursor: RGBColor(0xf3, 0xf4, 0xf6),
        panel: RGBColor(0x1f, 0x25, 0x2d),
        panel_selected: RGBColor(0x1d, 0x2d, 0x44),
    };
}

/// A canvas prepared for drawing at `ratio` device pixels per CSS pixel.
pub struct Surface {
    pub canvas: HtmlCanvasElement,
    pub context: CanvasRenderingContext2d,
    /// Size in CSS pixels.
    pub width: f64,
    pub height: f64,
    /// Device pixels per CSS pixel.
    pub ratio: f64,
}

impl Surface {
    /// Sizes the canvas backing store to `width × height` CSS pixels at `ratio` (which clears it).
    pub fn prepare(
        canvas: &HtmlCanvasElement,
        width: f64,
        height: f64,
        ratio: f64,
    ) -> Result<Surface, String> {
        let ratio = if ratio.is_finite() && ratio > 0.0 {
            ratio.min(4.0)
        } else {
            1.0
        };
        let (w, h) = (
            (width * ratio).round().max(1.0) as u32,
            (height * ratio).round().max(1.0) as u32,
        );
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        let context = canvas
            .get_context("2d")
            .map_err(|_| "the canvas has no 2D context".to_string())?
            .ok_or("the canvas has no 2D context")?
            .dyn_into::<CanvasRenderingContext2d>()
            .map_err(|_| "the canvas has no 2D context".to_string())?;
        context.set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0).ok();
        Ok(Surface {
            canvas: canvas.clone(),
            context,
            width,
            height,
            ratio,
        })
    }

    /// Device pixels for a CSS length.
    pub fn px(&self, css: f64) -> i32 {
        (css * self.ratio).round() as i32
    }

    pub fn backend(&self) -> Result<CanvasBackend, String> {
        CanvasBackend::with_canvas_object(self.canvas.clone())
            .ok_or_else(|| "the canvas has no 2D context".to_string())
    }

    /// Width in CSS pixels of `text` at `size` CSS pixels in the chart font.
    pub fn text_width(&self, text: &str, size: f64) -> f64 {
        self.context.set_font(&format!("{size}px {FONT}"));
        self.context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.0)
    }

    /// Writes `text` with its top at (x, y) CSS pixels; `align` is "left", "right" or "center".
    pub fn text(&self, text: &str, x: f64, y: f64, size: f64, color: RGBColor, align: &str) {
        let ctx = &self.context;
        let r = self.ratio;
        ctx.set_font(&format!("{}px {FONT}", size * r));
        ctx.set_fill_style_str(&css(color));
        ctx.set_text_align(align);
        ctx.set_text_baseline("top");
        let _ = ctx.fill_text(text, x * r, y * r);
    }

    /// A text style at `size` CSS pixels.
    pub fn font(&self, size: f64, color: RGBColor) -> TextStyle<'static> {
        (FontFamily::Name(FONT), size * self.ratio)
            .into_font()
            .color(&color)
    }
}

/// Any plotters error as a message.
pub fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// A linear axis whose ticks we choose ourselves (plotters' own f64 ticks can land between
/// whole indices). `start` maps to the bottom or left edge; it may be larger than `end`.
#[derive(Clone, Debug, PartialEq)]
pub struct TickedAxis {
    pub start: f64,
    pub end: f64,
    pub ticks: Vec<f64>,
}

impl TickedAxis {
    pub fn new(start: f64, end: f64, ticks: Vec<f64>) -> TickedAxis {
        TickedAxis { start, end, ticks }
    }
}

impl plotters::coord::ranged1d::Ranged for TickedAxis {
    type FormatOption = plotters::coord::ranged1d::DefaultFormatting;
    type ValueType = f64;

    fn map(&self, value: &f64, limit: (i32, i32)) -> i32 {
        let span = self.end - self.start;
        if span == 0.0 {
            return (limit.0 + limit.1) / 2;
        }
        let t = (value - self.start) / span;
        (limit.0 as f64 + t * (limit.1 - limit.0) as f64).round() as i32
    }

    fn key_points<Hint: plotters::coord::ranged1d::KeyPointHint>(&self, hint: Hint) -> Vec<f64> {
        if hint.weight().allow_light_points() {
            Vec::new()
        } else {
            self.ticks.clone()
        }
    }

    fn range(&self) -> std::ops::Range<f64> {
        self.start..self.end
    }
}

/// A CSS colour for a plotters colour.
pub fn css(c: RGBColor) -> String {
    format!("rgb({},{},{})", c.0, c.1, c.2)
}
