//! What every chart shares: colours, fonts, the canvas set-up for sharp HiDPI drawing.

use plotters::prelude::*;
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

/// WCAG's relative luminance of an sRGB colour.
pub fn luminance(c: RGBColor) -> f64 {
    let lin = |v: u8| {
        let v = v as f64 / 255.0;
        if v <= 0.039_28 {
            v / 12.92
        } else {
            ((v + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * lin(c.0) + 0.7152 * lin(c.1) + 0.0722 * lin(c.2)
}

/// WCAG's contrast ratio of two colours (1 … 21).
pub fn contrast(a: RGBColor, b: RGBColor) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Strokes and markers must stand at least this far from the background (WCAG 1.4.11).
pub const GRAPHIC_CONTRAST: f64 = 3.0;

impl Theme {
    /// `color`, or the nearest mix of it with the theme's text colour that reaches 3:1 against
    /// the background.
    pub fn readable(&self, color: RGBColor) -> RGBColor {
        let mix = |t: f64| {
            let m = |a: u8, b: u8| (a as f64 + (b as f64 - a as f64) * t).round() as u8;
            RGBColor(
                m(color.0, self.text.0),
                m(color.1, self.text.1),
                m(color.2, self.text.2),
            )
        };
        (0..=20)
            .map(|i| mix(i as f64 / 20.0))
            .find(|c| contrast(*c, self.background) >= GRAPHIC_CONTRAST)
            .unwrap_or(self.text)
    }
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
    /// Sizes the canvas backing store to `width × height` CSS pixels at `ratio` (which clears it
    /// when the size changes).
    pub fn prepare(
        canvas: &HtmlCanvasElement,
        width: f64,
        height: f64,
        ratio: f64,
    ) -> Result<Surface, String> {
        let surface = Surface::as_it_is(canvas, width, height, ratio)?;
        let (w, h) = (
            (width * surface.ratio).round().max(1.0) as u32,
            (height * surface.ratio).round().max(1.0) as u32,
        );
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        surface
            .context
            .set_transform(1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
            .ok();
        Ok(surface)
    }

    /// The surface without touching the canvas's size: for measuring text before the height
    /// is known (resizing a canvas twice a draw costs two new backing stores).
    pub fn as_it_is(
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
        let context = canvas
            .get_context("2d")
            .map_err(|_| "the canvas has no 2D context".to_string())?
            .ok_or("the canvas has no 2D context")?
            .dyn_into::<CanvasRenderingContext2d>()
            .map_err(|_| "the canvas has no 2D context".to_string())?;
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

    /// Fills the whole canvas with `color` (through plotters' canvas backend).
    pub fn clear(&self, color: RGBColor) -> Result<(), String> {
        self.backend()?
            .into_drawing_area()
            .fill(&color)
            .map_err(err)
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
        self.text_at(text, (x, y), size, color, (align, "top"));
    }

    /// Writes `text` at (x, y) CSS pixels (in the current transform) with the canvas's
    /// (textAlign, textBaseline).
    pub fn text_at(
        &self,
        text: &str,
        (x, y): (f64, f64),
        size: f64,
        color: RGBColor,
        (align, baseline): (&str, &str),
    ) {
        let ctx = &self.context;
        let r = self.ratio;
        ctx.set_font(&format!("{}px {FONT}", size * r));
        ctx.set_fill_style_str(&css(color));
        ctx.set_text_align(align);
        ctx.set_text_baseline(baseline);
        let _ = ctx.fill_text(text, x * r, y * r);
    }
}

/// Splits a caption into lines no wider than `max_width` as `measure` measures text: at its
/// " · " separators first, and inside a part that is still too wide, between words. Nothing is
/// cut off; a single word wider than the line keeps a line of its own.
pub fn wrap_text(text: &str, max_width: f64, measure: impl Fn(&str) -> f64) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    // Appends `piece` to the last line after `joint` if the result fits, else starts a line.
    let place =
        |lines: &mut Vec<String>, piece: &str, joint: &str, fresh: bool| match lines.last_mut() {
            Some(line) if !fresh && measure(&format!("{line}{joint}{piece}")) <= max_width => {
                line.push_str(joint);
                line.push_str(piece);
            }
            _ => lines.push(piece.to_string()),
        };
    for part in text.split(" · ") {
        if measure(part) <= max_width {
            place(&mut lines, part, " · ", false);
            continue;
        }
        // Too wide on its own: word by word, the first word on a new line.
        for (i, word) in part.split(' ').filter(|w| !w.is_empty()).enumerate() {
            place(&mut lines, word, " ", i == 0);
        }
    }
    lines
}

/// Any plotters error as a message.
pub fn err<E: std::fmt::Debug>(e: E) -> String {
    format!("{e:?}")
}

/// A rectangle in CSS pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    /// The rectangle between the given margins of a `width × height` area, with its edges on
    /// whole device pixels (so images drawn into it are not resampled).
    pub fn inset(surface: &Surface, (top, right, bottom, left): (f64, f64, f64, f64)) -> Rect {
        let r = surface.ratio;
        let edge = |css: f64| (css * r).round() / r;
        let (l, t) = (edge(left), edge(top));
        let (rr, b) = (
            edge(surface.width - right).max(l + 1.0 / r),
            edge(surface.height - bottom).max(t + 1.0 / r),
        );
        Rect {
            left: l,
            top: t,
            width: rr - l,
            height: b - t,
        }
    }

    pub fn right(&self) -> f64 {
        self.left + self.width
    }

    pub fn bottom(&self) -> f64 {
        self.top + self.height
    }
}

/// One axis of a chart frame: `start` maps to the left (x) or bottom (y) edge of the plot and
/// `end` to the other (either may be larger); ticks are values with their labels.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameAxis<'a> {
    pub start: f64,
    pub end: f64,
    pub ticks: Vec<(f64, String)>,
    pub title: &'a str,
}

impl FrameAxis<'_> {
    /// Where `v` falls between `from` (the start edge) and `to` (the end edge), in pixels.
    fn place(&self, v: f64, from: f64, to: f64) -> f64 {
        let span = self.end - self.start;
        if span == 0.0 {
            return (from + to) / 2.0;
        }
        from + (v - self.start) / span * (to - from)
    }
}

const TICK: f64 = 4.0;
const GAP: f64 = 4.0;

/// Width the labels of a y axis need, for the left margin.
pub fn label_width(surface: &Surface, axis: &FrameAxis, size: f64) -> f64 {
    axis.ticks
        .iter()
        .map(|(_, l)| surface.text_width(l, size))
        .fold(12.0, f64::max)
}

/// Draws a chart frame around `plot`: the left and bottom axis lines, ticks with their labels,
/// the axis titles (the y title turned upright), and optional grid lines. All text goes
/// through the canvas directly: measuring it never touches the page's layout.
pub fn draw_frame(
    surface: &Surface,
    plot: Rect,
    x: &FrameAxis,
    y: &FrameAxis,
    grid: Option<RGBColor>,
    theme: &Theme,
    (tick_size, title_size): (f64, f64),
) {
    let ctx = &surface.context;
    let r = surface.ratio;
    let line = |x0: f64, y0: f64, x1: f64, y1: f64| {
        // Centred on device pixels, so a 1-pixel line is sharp.
        let snap = |v: f64| (v * r).floor() + 0.5;
        ctx.move_to(snap(x0), snap(y0));
        ctx.line_to(snap(x1), snap(y1));
    };
    let xs: Vec<(f64, &str)> = x
        .ticks
        .iter()
        .map(|(v, l)| (x.place(*v, plot.left, plot.right()), l.as_str()))
        .filter(|(p, _)| (plot.left - 0.5..=plot.right() + 0.5).contains(p))
        .collect();
    let ys: Vec<(f64, &str)> = y
        .ticks
        .iter()
        .map(|(v, l)| (y.place(*v, plot.bottom(), plot.top), l.as_str()))
        .filter(|(p, _)| (plot.top - 0.5..=plot.bottom() + 0.5).contains(p))
        .collect();
    ctx.set_line_width(r);
    if let Some(grid) = grid {
        ctx.set_stroke_style_str(&css(grid));
        ctx.begin_path();
        for (px, _) in &xs {
            line(*px, plot.top, *px, plot.bottom());
        }
        for (py, _) in &ys {
            line(plot.left, *py, plot.right(), *py);
        }
        ctx.stroke();
    }
    ctx.set_stroke_style_str(&css(theme.axis));
    ctx.begin_path();
    line(plot.left, plot.top, plot.left, plot.bottom());
    line(plot.left, plot.bottom(), plot.right(), plot.bottom());
    for (px, _) in &xs {
        line(*px, plot.bottom(), *px, plot.bottom() + TICK);
    }
    for (py, _) in &ys {
        line(plot.left - TICK, *py, plot.left, *py);
    }
    ctx.stroke();
    for (px, label) in &xs {
        surface.text(
            label,
            *px,
            plot.bottom() + TICK + GAP,
            tick_size,
            theme.muted,
            "center",
        );
    }
    let widest = ys
        .iter()
        .map(|(_, l)| surface.text_width(l, tick_size))
        .fold(0.0, f64::max);
    for (py, label) in &ys {
        surface.text_at(
            label,
            (plot.left - TICK - GAP, *py),
            tick_size,
            theme.muted,
            ("right", "middle"),
        );
    }
    let x_title_top = plot.bottom() + TICK + GAP + tick_size + 8.0;
    surface.text(
        x.title,
        plot.left + plot.width / 2.0,
        x_title_top,
        title_size,
        theme.text,
        "center",
    );
    let y_title_x = plot.left - TICK - GAP - widest - 8.0 - title_size / 2.0;
    let (size, centre) = fit_y_title(
        surface.text_width(y.title, title_size),
        title_size,
        (plot.top, plot.bottom()),
        surface.height,
    );
    ctx.save();
    let _ = ctx.translate(y_title_x * r, centre * r);
    let _ = ctx.rotate(-std::f64::consts::FRAC_PI_2);
    surface.text_at(y.title, (0.0, 0.0), size, theme.text, ("center", "middle"));
    ctx.restore();
}

/// The smallest size a y-axis title shrinks to.
pub const MIN_TITLE: f64 = 9.0;

/// Where an upright y-axis title `width` long at `size` goes beside a plot spanning `top …
/// bottom` on a canvas `canvas_height` tall: its size and the y of its centre. Centred on the
/// plot when it fits; else it starts level with the plot's top and runs down past the plot into
/// the free corner left of the x axis (never up into the caption and legend); and when even that
/// is too short, it shrinks to fit (not below `MIN_TITLE`).
pub fn fit_y_title(
    width: f64,
    size: f64,
    (top, bottom): (f64, f64),
    canvas_height: f64,
) -> (f64, f64) {
    if width <= bottom - top {
        return (size, (top + bottom) / 2.0);
    }
    let room = (canvas_height - 2.0 - top).max(1.0);
    let fitted = if width > room {
        (size * room / width).max(MIN_TITLE).min(size)
    } else {
        size
    };
    // Text width scales with its size.
    let long = width * fitted / size;
    (fitted, top + long / 2.0)
}

/// The ticks and labels of a vertical scale drawn on the right of `bar` (a colour bar).
pub fn draw_right_scale(
    surface: &Surface,
    bar: Rect,
    axis: &FrameAxis,
    theme: &Theme,
    tick_size: f64,
) {
    let ctx = &surface.context;
    let r = surface.ratio;
    ctx.set_line_width(r);
    ctx.set_stroke_style_str(&css(theme.axis));
    ctx.begin_path();
    let snap = |v: f64| (v * r).floor() + 0.5;
    let mut labels = Vec::new();
    for (v, label) in &axis.ticks {
        let py = axis.place(*v, bar.bottom(), bar.top);
        if !(bar.top - 0.5..=bar.bottom() + 0.5).contains(&py) {
            continue;
        }
        ctx.move_to(snap(bar.right()), snap(py));
        ctx.line_to(snap(bar.right() + 3.0), snap(py));
        labels.push((py, label));
    }
    ctx.stroke();
    for (py, label) in labels {
        surface.text_at(
            label,
            (bar.right() + 3.0 + GAP, py),
            tick_size,
            theme.muted,
            ("left", "middle"),
        );
    }
}

/// A CSS colour for a plotters colour.
pub fn css(c: RGBColor) -> String {
    format!("rgb({},{},{})", c.0, c.1, c.2)
}
