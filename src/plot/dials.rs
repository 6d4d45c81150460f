//! Dials: one small unit circle per frequency pair, showing the pair at position p as a point,
//! where M_k sends it, and the pair's actual value at p + k.

use std::f64::consts::{PI, TAU};

use web_sys::HtmlCanvasElement;

use super::frame::{css, wrap_text, Surface, Theme};
use super::lines::SERIES_COLORS;

/// One pair: values are (first column, second column) = (sin, cos) for a true pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Dial {
    pub title: String,
    pub subtitle: String,
    /// The pair at position p.
    pub here: [f64; 2],
    /// M_k applied to `here`.
    pub predicted: [f64; 2],
    /// The pair at position p + k.
    pub there: [f64; 2],
}

#[derive(Clone, Debug, PartialEq)]
pub struct DialsData {
    pub dials: Vec<Dial>,
    pub caption: String,
    /// The dial drawn emphasised (the pair whose matrix is shown).
    pub selected: Option<usize>,
}

const CELL_MIN: f64 = 132.0;
const LABELS: f64 = 54.0;
const LINE: f64 = 18.0;

/// Lines kept for `caption` at `width` CSS pixels, so it wraps instead of being cut off on a
/// narrow screen: estimated at 7.8 px a character (more than the chart font's average at 13 px),
/// from one to four.
pub fn caption_lines(width: f64, caption: &str) -> usize {
    let chars = caption.chars().count() as f64;
    ((chars * 7.8) / (width - 16.0).max(40.0))
        .ceil()
        .clamp(1.0, 4.0) as usize
}

/// The caption's lines and the legend's row, above the dials.
fn header(width: f64, caption: &str) -> f64 {
    LINE * caption_lines(width, caption) as f64 + 36.0
}

/// Columns of dials that fit `width` CSS pixels.
pub fn columns_for(width: f64) -> usize {
    ((width - 8.0) / CELL_MIN).floor().max(1.0) as usize
}

/// The height `count` dials under `caption` need at `width` CSS pixels.
pub fn height_for(width: f64, count: usize, caption: &str) -> f64 {
    let cols = columns_for(width);
    let cell = (width - 8.0) / cols as f64;
    header(width, caption) + count.div_ceil(cols) as f64 * (cell + LABELS - 12.0) + 8.0
}

/// The dial under a point, if any.
pub fn dial_at(width: f64, count: usize, caption: &str, x: f64, y: f64) -> Option<usize> {
    let cols = columns_for(width);
    let cell = (width - 8.0) / cols as f64;
    let top = header(width, caption);
    if y < top || x < 4.0 {
        return None;
    }
    let col = ((x - 4.0) / cell) as usize;
    let row = ((y - top) / (cell + LABELS - 12.0)) as usize;
    let i = row * cols + col;
    (col < cols && i < count).then_some(i)
}

/// Draws every dial on `canvas`.
pub fn draw(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
    ratio: f64,
    data: &DialsData,
    theme: &Theme,
) -> Result<(), String> {
    let surface = Surface::prepare(canvas, width, height, ratio)?;
    let ctx = &surface.context;
    let r = surface.ratio;
    ctx.set_fill_style_str(&css(theme.background));
    ctx.fill_rect(0.0, 0.0, width * r, height * r);
    let room = caption_lines(width, &data.caption);
    let mut lines = wrap_text(&data.caption, width - 16.0, |t| surface.text_width(t, 13.0));
    if lines.len() > room {
        let rest = lines.split_off(room - 1).join(" · ");
        lines.push(rest);
    }
    for (i, line) in lines.iter().enumerate() {
        surface.text(line, 8.0, 6.0 + LINE * i as f64, 13.0, theme.text, "left");
    }
    legend(&surface, theme, 12.0 + LINE * room as f64);

    let cols = columns_for(width);
    let cell = (width - 8.0) / cols as f64;
    let radius = (cell / 2.0 - 16.0).max(8.0);
    for (i, dial) in data.dials.iter().enumerate() {
        let (col, row) = (i % cols, i / cols);
        let cx = 4.0 + cell * (col as f64 + 0.5);
        let top = header(width, &data.caption) + row as f64 * (cell + LABELS - 12.0);
        let cy = top + radius + 6.0;
        draw_dial(
            &surface,
            dial,
            cx,
            cy,
            radius,
            data.selected == Some(i),
            theme,
        );
        surface.text(
            &dial.title,
            cx,
            cy + radius + 8.0,
            12.0,
            theme.text,
            "center",
        );
        for (j, line) in dial.subtitle.split(" · ").enumerate() {
            let y = cy + radius + 23.0 + 13.0 * j as f64;
            surface.text(line, cx, y, 11.0, theme.muted, "center");
        }
    }
    Ok(())
}

fn legend(surface: &Surface, theme: &Theme, y: f64) {
    let items = [("at p", 0usize), ("M_k applied", 1), ("actual at p + k", 2)];
    let mut x = 10.0;
    for (label, kind) in items {
        mark(surface, theme, kind, x + 5.0, y + 7.0, 4.5);
        surface.text(label, x + 16.0, y, 12.0, theme.text, "left");
        x += 22.0 + surface.text_width(label, 12.0) + 16.0;
    }
}

/// 0: filled dot (here); 1: cross (predicted); 2: ring (there).
fn mark(surface: &Surface, theme: &Theme, kind: usize, x: f64, y: f64, size: f64) {
    let (ctx, r) = (&surface.context, surface.ratio);
    let (x, y, s) = (x * r, y * r, size * r);
    ctx.begin_path();
    match kind {
        0 => {
            ctx.set_fill_style_str(&css(theme.readable(SERIES_COLORS[0])));
            let _ = ctx.arc(x, y, s, 0.0, TAU);
            ctx.fill();
        }
        1 => {
            ctx.set_stroke_style_str(&css(theme.readable(SERIES_COLORS[3])));
            ctx.set_line_width(2.0 * r);
            ctx.move_to(x - s, y - s);
            ctx.line_to(x + s, y + s);
            ctx.move_to(x + s, y - s);
            ctx.line_to(x - s, y + s);
            ctx.stroke();
        }
        _ => {
            ctx.set_stroke_style_str(&css(theme.readable(SERIES_COLORS[2])));
            ctx.set_line_width(2.0 * r);
            let _ = ctx.arc(x, y, s * 1.5, 0.0, TAU);
            ctx.stroke();
        }
    }
}

fn draw_dial(
    surface: &Surface,
    dial: &Dial,
    cx: f64,
    cy: f64,
    radius: f64,
    selected: bool,
    theme: &Theme,
) {
    let (ctx, r) = (&surface.context, surface.ratio);
    // Background and the unit circle.
    ctx.set_fill_style_str(&css(if selected {
        theme.panel_selected
    } else {
        theme.panel
    }));
    ctx.begin_path();
    let _ = ctx.arc(cx * r, cy * r, (radius + 10.0) * r, 0.0, TAU);
    ctx.fill();
    if selected {
        ctx.set_stroke_style_str(&css(theme.readable(SERIES_COLORS[0])));
        ctx.set_line_width(2.0 * r);
        ctx.stroke();
    }
    ctx.set_stroke_style_str(&css(theme.axis));
    ctx.set_line_width(r);
    ctx.begin_path();
    let _ = ctx.arc(cx * r, cy * r, radius * r, 0.0, TAU);
    ctx.stroke();
    ctx.set_stroke_style_str(&css(theme.grid));
    ctx.begin_path();
    ctx.move_to((cx - radius) * r, cy * r);
    ctx.line_to((cx + radius) * r, cy * r);
    ctx.move_to(cx * r, (cy - radius) * r);
    ctx.line_to(cx * r, (cy + radius) * r);
    ctx.stroke();

    // A pair (first, second) = (sin θ, cos θ) sits at angle θ: x = second, y = first.
    let at = |v: [f64; 2]| (cx + radius * v[1], cy - radius * v[0]);
    let (hx, hy) = at(dial.here);
    let (px, py) = at(dial.predicted);
    let (tx, ty) = at(dial.there);

    // The turn from here to the prediction, drawn just inside the circle.
    let a0 = dial.here[0].atan2(dial.here[1]);
    let a1 = dial.predicted[0].atan2(dial.predicted[1]);
    let mut sweep = a1 - a0;
    if sweep < 0.0 {
        sweep += TAU;
    }
    if sweep > 1e-3 && sweep < TAU - 1e-3 {
        ctx.set_stroke_style_str("rgba(213, 94, 0, 0.55)");
        ctx.set_line_width(2.0 * r);
        ctx.begin_path();
        // Canvas angles run clockwise with y down: negate.
        let _ = ctx.arc_with_anticlockwise(
            cx * r,
            cy * r,
            (radius - 7.0) * r,
            -a0,
            -(a0 + sweep.min(2.0 * PI - 1e-6)),
            true,
        );
        ctx.stroke();
    }
    // Radius to the current point.
    ctx.set_stroke_style_str("rgba(0, 114, 178, 0.5)");
    ctx.set_line_width(r);
    ctx.begin_path();
    ctx.move_to(cx * r, cy * r);
    ctx.line_to(hx * r, hy * r);
    ctx.stroke();
    mark(surface, theme, 2, tx, ty, 4.0);
    mark(surface, theme, 1, px, py, 4.0);
    mark(surface, theme, 0, hx, hy, 4.0);
}
