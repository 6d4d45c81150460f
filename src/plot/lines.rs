//! Line charts: axes and grid drawn with plotters, series drawn with the canvas API (dashes,
//! gaps at NaN, marker shapes), dense series reduced to their per-pixel envelope first.

use plotters::prelude::*;
use web_sys::HtmlCanvasElement;

use super::envelope::{bands, m4};
use super::frame::{css, draw_frame, label_width, wrap_text, FrameAxis, Rect, Surface, Theme};
use super::ticks::{fit_ticks, format_tick, nice_ticks};

/// Series colours: the Okabe–Ito palette, distinguishable with the common colour-vision
/// deficiencies (yellow left out: too faint on white).
pub const SERIES_COLORS: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2),
    RGBColor(0xE6, 0x9F, 0x00),
    RGBColor(0x00, 0x9E, 0x73),
    RGBColor(0xD5, 0x5E, 0x00),
    RGBColor(0xCC, 0x79, 0xA7),
    RGBColor(0x56, 0xB4, 0xE9),
    RGBColor(0x33, 0x33, 0x33),
];

/// How a series' line is drawn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stroke {
    Solid,
    Dashed,
    Dotted,
    None,
}

/// The shape drawn at each point; shapes tell series apart without relying on colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Marker {
    None,
    Circle,
    Square,
    Triangle,
    Diamond,
}

impl Marker {
    pub const SHAPES: [Marker; 4] = [
        Marker::Circle,
        Marker::Square,
        Marker::Triangle,
        Marker::Diamond,
    ];
}

/// A series' data.
#[derive(Clone, Debug, PartialEq)]
pub enum Points {
    /// y at x = x0 + i·dx: may be long; drawn through its per-pixel envelope.
    Uniform { x0: f64, dx: f64, ys: Vec<f64> },
    /// Explicit points, drawn as given.
    Pairs(Vec<(f64, f64)>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    pub name: String,
    pub color: RGBColor,
    pub stroke: Stroke,
    /// Line width in CSS pixels.
    pub width: f64,
    pub marker: Marker,
    pub points: Points,
}

impl Series {
    pub fn line(name: impl Into<String>, color: RGBColor, points: Points) -> Series {
        Series {
            name: name.into(),
            color,
            stroke: Stroke::Solid,
            width: 1.6,
            marker: Marker::None,
            points,
        }
    }
}

impl Series {
    /// The series' value at `x`: the sample nearest to x (within half a step for uniform
    /// series, or the nearest listed point).
    pub fn value_at(&self, x: f64) -> Option<f64> {
        match &self.points {
            Points::Uniform { x0, dx, ys } => {
                let i = ((x - x0) / dx).round();
                (i >= 0.0 && (i as usize) < ys.len())
                    .then(|| ys[i as usize])
                    .filter(|v| !v.is_nan())
            }
            Points::Pairs(p) => p
                .iter()
                .filter(|(px, py)| !py.is_nan() && (px - x).abs() <= 0.5)
                .min_by(|a, b| (a.0 - x).abs().total_cmp(&(b.0 - x).abs()))
                .map(|(_, y)| *y),
        }
    }
}

/// One axis: title, range, and whether it is logarithmic (base 10).
#[derive(Clone, Debug, PartialEq)]
pub struct LineAxis {
    pub title: String,
    pub min: f64,
    pub max: f64,
    pub log: bool,
}

impl LineAxis {
    pub fn linear(title: impl Into<String>, min: f64, max: f64) -> LineAxis {
        let (min, max) = widen(min, max);
        LineAxis {
            title: title.into(),
            min,
            max,
            log: false,
        }
    }

    pub fn log(title: impl Into<String>, min: f64, max: f64) -> LineAxis {
        let (lo, hi) = widen(min.max(1e-300).log10(), max.max(1e-300).log10());
        LineAxis {
            title: title.into(),
            min: 10f64.powf(lo),
            max: 10f64.powf(hi),
            log: true,
        }
    }

    /// The coordinate along the axis (log10 for a log axis).
    fn coord(&self, v: f64) -> f64 {
        if self.log {
            if v > 0.0 {
                v.log10()
            } else {
                f64::NAN
            }
        } else {
            v
        }
    }

    fn span(&self) -> (f64, f64) {
        (self.coord(self.min), self.coord(self.max))
    }

    fn ticks(&self, max_ticks: usize) -> Vec<f64> {
        let (lo, hi) = self.span();
        if !self.log {
            return nice_ticks(lo, hi, max_ticks);
        }
        let decades = nice_ticks(lo, hi, max_ticks)
            .into_iter()
            .filter(|t| t.fract() == 0.0)
            .collect::<Vec<_>>();
        if decades.len() >= 2 {
            return decades;
        }
        // Less than two decades in view: 1, 2, 5 × 10^k.
        let mut out = Vec::new();
        for k in (lo.floor() as i32)..=(hi.ceil() as i32) {
            for m in [1.0, 2.0, 5.0] {
                let t = (m * 10f64.powi(k)).log10();
                if t >= lo && t <= hi {
                    out.push(t);
                }
            }
        }
        out
    }

    fn label(&self, t: f64) -> String {
        if self.log {
            // 10^−5 computed as 10^t is 9.999…e−6: round away the last bits first.
            format_tick(crate::limit::round_significant(10f64.powf(t), 12))
        } else {
            format_tick(t)
        }
    }
}

/// Pixels between x ticks at the least: a phone-wide plot of about 300 px gets five or six.
pub const X_TICK_SPACING: f64 = 50.0;

/// The x ticks of `axis` along a plot `plot_width` CSS pixels wide whose labels `measure`
/// measures: the most that fit (one per [`X_TICK_SPACING`] pixels at most), never fewer than two
/// when the axis spans a range.
pub fn x_ticks(axis: &LineAxis, plot_width: f64, measure: impl Fn(&str) -> f64) -> Vec<f64> {
    let (lo, hi) = axis.span();
    fit_ticks(
        plot_width,
        X_TICK_SPACING,
        |n| axis.ticks(n),
        |t| (t - lo) / (hi - lo) * plot_width,
        |t| measure(&axis.label(t)),
    )
}

/// A range that is never empty.
fn widen(min: f64, max: f64) -> (f64, f64) {
    let (min, max) = if min.is_finite() && max.is_finite() {
        (min.min(max), min.max(max))
    } else {
        (0.0, 1.0)
    };
    if max - min < 1e-12 {
        let pad = if min.abs() > 1e-12 {
            min.abs() * 0.05
        } else {
            1.0
        };
        (min - pad, max + pad)
    } else {
        (min, max)
    }
}

/// Groups of two or more series (their indices, in order) whose points are all the same: drawn
/// one over another, only the last of each shows, so a caption should name them.
pub fn coincident(series: &[Series]) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, s) in series.iter().enumerate() {
        let empty = match &s.points {
            Points::Pairs(p) => p.is_empty(),
            Points::Uniform { ys, .. } => ys.is_empty(),
        };
        if empty {
            continue;
        }
        match groups.iter_mut().find(|g| series[g[0]].points == s.points) {
            Some(g) => g.push(i),
            None => groups.push(vec![i]),
        }
    }
    groups.retain(|g| g.len() > 1);
    groups
}

/// A labelled reference line across the plot.
#[derive(Clone, Debug, PartialEq)]
pub struct Guide {
    pub value: f64,
    pub label: String,
    /// Vertical (at an x value) or horizontal (at a y value).
    pub vertical: bool,
}

impl Guide {
    /// A vertical line at the trained length, when the chart reaches past it.
    pub fn trained(trained_length: usize, length: usize) -> Vec<Guide> {
        (trained_length < length)
            .then(|| Guide {
                value: trained_length as f64,
                label: format!("trained length {trained_length}"),
                vertical: true,
            })
            .into_iter()
            .collect()
    }
}

/// Everything a line chart draws, owned so a view can memoise it.
#[derive(Clone, Debug, PartialEq)]
pub struct LineChartData {
    pub series: Vec<Series>,
    pub x: LineAxis,
    pub y: LineAxis,
    pub caption: String,
    pub guides: Vec<Guide>,
}

/// Where the plot landed (CSS pixels) and how to map between pixels and data.
#[derive(Clone, Debug, PartialEq)]
pub struct LineLayout {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    pub x: LineAxis,
    pub y: LineAxis,
    /// What was written: the caption's lines and the x tick labels (for tests and tools).
    pub caption: Vec<String>,
    pub x_labels: Vec<String>,
    /// The canvas's height in CSS pixels: the height asked for, grown by header lines past two
    /// (`grown_height`).
    pub canvas_height: f64,
}

impl LineLayout {
    /// The x value under a horizontal pixel position, if inside the plot.
    pub fn x_at(&self, px: f64) -> Option<f64> {
        let f = (px - self.left) / self.width;
        if !(0.0..=1.0).contains(&f) {
            return None;
        }
        let (lo, hi) = self.x.span();
        let c = lo + f * (hi - lo);
        Some(if self.x.log { 10f64.powf(c) } else { c })
    }

    /// Horizontal CSS pixel of an x value.
    pub fn px(&self, x: f64) -> f64 {
        let (lo, hi) = self.x.span();
        self.left + (self.x.coord(x) - lo) / (hi - lo) * self.width
    }

    /// Vertical CSS pixel of a y value.
    pub fn py(&self, y: f64) -> f64 {
        let (lo, hi) = self.y.span();
        self.top + self.height - (self.y.coord(y) - lo) / (hi - lo) * self.height
    }
}

const LINE: f64 = 18.0;

/// Header lines (caption and legend) a chart's asked-for height already makes room for.
pub const HEADER_LINES: usize = 2;

/// The canvas height of a line chart asked to be `height` tall whose caption and legend take
/// `lines` lines: each line past `HEADER_LINES` adds its own height, so the plot keeps the height
/// it has on a wide screen (four legend rows on a phone had left the dot-product plot 80 px).
pub fn grown_height(height: f64, lines: usize) -> f64 {
    height + LINE * lines.saturating_sub(HEADER_LINES) as f64
}
const TICK_FONT: f64 = 12.0;
const TITLE_FONT: f64 = 13.0;

/// Draws the chart on `canvas` (`width × height` CSS pixels at `ratio`) and returns its layout.
pub fn draw(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
    ratio: f64,
    data: &LineChartData,
    theme: &Theme,
) -> Result<LineLayout, String> {
    // Measured first, sized once: the caption and legend decide the height.
    let measure = Surface::as_it_is(canvas, width, height, ratio)?;
    // Every line and marker at least 3:1 against the background (dark grey turns light grey on a
    // dark page; colours that already contrast stay as they are).
    let colors: Vec<RGBColor> = data
        .series
        .iter()
        .map(|s| theme.readable(s.color))
        .collect();

    // The caption wraps (a phone is narrower than "… · θ base 10000"), then the legend.
    let caption = wrap_text(&data.caption, width - 16.0, |t| {
        measure.text_width(t, TITLE_FONT)
    });
    let legend = legend_rows(&measure, &data.series, width - 16.0);
    let lines = caption.len() + legend.len();
    let header = 8.0 + LINE * lines as f64;
    // Caption and legend lines past the first two (a phone's narrow width wraps them) make the
    // canvas taller instead of the plot shorter.
    let height = grown_height(height, lines);
    let surface = Surface::prepare(canvas, width, height, ratio)?;
    surface.clear(theme.background)?;
    let labelled = |axis: &LineAxis, ticks: Vec<f64>| -> Vec<(f64, String)> {
        ticks.into_iter().map(|t| (t, axis.label(t))).collect()
    };
    let (x_lo, x_hi) = data.x.span();
    let (y_lo, y_hi) = data.y.span();
    let y_axis = FrameAxis {
        start: y_lo,
        end: y_hi,
        ticks: labelled(
            &data.y,
            data.y
                .ticks(((height - header - 60.0) / 40.0).max(2.0) as usize),
        ),
        title: &data.y.title,
    };
    let y_area = label_width(&surface, &y_axis, TICK_FONT).max(14.0) + 34.0;
    let plot = Rect::inset(&surface, (header, 14.0, 44.0, y_area));
    // As many x ticks as the plot's width holds with their labels apart.
    let x_ticks = x_ticks(&data.x, plot.width, |t| surface.text_width(t, TICK_FONT));
    let x_axis = FrameAxis {
        start: x_lo,
        end: x_hi,
        ticks: labelled(&data.x, x_ticks),
        title: &data.x.title,
    };
    draw_frame(
        &surface,
        plot,
        &x_axis,
        &y_axis,
        Some(theme.grid),
        theme,
        (TICK_FONT, TITLE_FONT),
    );
    let layout = LineLayout {
        left: plot.left,
        top: plot.top,
        width: plot.width,
        height: plot.height,
        x: data.x.clone(),
        y: data.y.clone(),
        caption: caption.clone(),
        x_labels: x_axis.ticks.iter().map(|(_, l)| l.clone()).collect(),
        canvas_height: height,
    };

    let ctx = &surface.context;
    let r = surface.ratio;
    ctx.save();
    ctx.begin_path();
    ctx.rect(
        layout.left * r,
        layout.top * r,
        layout.width * r,
        layout.height * r,
    );
    ctx.clip();
    for guide in &data.guides {
        draw_guide(&surface, &layout, guide, theme);
    }
    let anchors: Vec<(f64, bool, f64)> = data
        .guides
        .iter()
        .map(|g| {
            let at = if g.vertical {
                layout.px(g.value)
            } else {
                layout.py(g.value)
            };
            (at, g.vertical, surface.text_width(&g.label, TICK_FONT))
        })
        .collect();
    let plot_box = (layout.left, layout.top, layout.width, layout.height);
    for (guide, (x, y)) in data
        .guides
        .iter()
        .zip(place_guide_labels(&anchors, plot_box, TICK_FONT))
    {
        surface.text(&guide.label, x, y, TICK_FONT, theme.muted, "left");
    }
    for (series, color) in data.series.iter().zip(&colors) {
        draw_series(&surface, &layout, series, *color, theme.background);
    }
    ctx.restore();

    for (i, line) in caption.iter().enumerate() {
        surface.text(
            line,
            8.0,
            6.0 + LINE * i as f64,
            TITLE_FONT,
            theme.text,
            "left",
        );
    }
    for (row, items) in legend.iter().enumerate() {
        let y = 6.0 + LINE * (caption.len() + row) as f64;
        for (x, series) in items {
            let color = data
                .series
                .iter()
                .position(|s| std::ptr::eq(s, *series))
                .map_or(series.color, |i| colors[i]);
            swatch(&surface, series, color, *x, y + 7.0, theme.background);
            surface.text(&series.name, x + 26.0, y, TICK_FONT, theme.text, "left");
        }
    }
    Ok(layout)
}

/// Legend entries laid out in rows no wider than `max_width`: (x, series) per row.
fn legend_rows<'a>(
    surface: &Surface,
    series: &'a [Series],
    max_width: f64,
) -> Vec<Vec<(f64, &'a Series)>> {
    let mut rows: Vec<Vec<(f64, &Series)>> = Vec::new();
    let mut x = 8.0;
    for s in series {
        let w = 26.0 + surface.text_width(&s.name, TICK_FONT) + 18.0;
        if rows.is_empty() || (x + w > max_width && x > 8.0) {
            rows.push(Vec::new());
            x = 8.0;
        }
        if let Some(row) = rows.last_mut() {
            row.push((x, s));
        }
        x += w;
    }
    rows
}

fn dash(surface: &Surface, stroke: Stroke) {
    let r = surface.ratio;
    let pattern: Vec<f64> = match stroke {
        Stroke::Dashed => vec![6.0 * r, 4.0 * r],
        Stroke::Dotted => vec![1.5 * r, 3.0 * r],
        _ => vec![],
    };
    let array = js_sys::Array::new();
    for v in pattern {
        array.push(&v.into());
    }
    let _ = surface.context.set_line_dash(&array);
}

fn draw_series(
    surface: &Surface,
    layout: &LineLayout,
    series: &Series,
    color: RGBColor,
    background: RGBColor,
) {
    let ctx = &surface.context;
    let r = surface.ratio;
    let points: Vec<(f64, f64)> = match &series.points {
        Points::Uniform { x0, dx, ys } => m4(
            *x0,
            *dx,
            ys,
            (layout.x.min, layout.x.max),
            (layout.width * r) as usize,
        ),
        Points::Pairs(p) => p.clone(),
    };
    // A series with several points per pixel column draws as a band between each column's
    // lowest and highest value (see `bands`): a dashed polyline of thousands of steep
    // segments costs the browser a lot to rasterise and shows nothing more.
    let dense = match &series.points {
        Points::Uniform { dx, .. } => {
            let visible = (layout.x.max - layout.x.min) / dx.abs().max(f64::MIN_POSITIVE);
            visible > 2.0 * layout.width * r
        }
        Points::Pairs(_) => false,
    };
    let color = css(color);
    if let (true, Points::Uniform { x0, dx, ys }, false) =
        (dense, &series.points, series.stroke == Stroke::None)
    {
        let columns = (layout.width * r).round().max(1.0) as usize;
        let half = series.width * r / 2.0;
        ctx.set_fill_style_str(&color);
        ctx.begin_path();
        for (c, band) in bands(*x0, *dx, ys, (layout.x.min, layout.x.max), columns)
            .into_iter()
            .enumerate()
        {
            if let Some((lo, hi)) = band {
                let (top, bottom) = (layout.py(hi) * r - half, layout.py(lo) * r + half);
                ctx.rect(layout.left * r + c as f64, top, 1.0, bottom - top);
            }
        }
        ctx.fill();
    } else if series.stroke != Stroke::None {
        ctx.set_stroke_style_str(&color);
        ctx.set_line_width(series.width * r);
        ctx.set_line_join("round");
        dash(surface, series.stroke);
        ctx.begin_path();
        let mut pen_down = false;
        for &(x, y) in &points {
            let (sx, sy) = (layout.px(x) * r, layout.py(y) * r);
            if !(sx.is_finite() && sy.is_finite()) {
                pen_down = false;
                continue;
            }
            if pen_down {
                ctx.line_to(sx, sy);
            } else {
                ctx.move_to(sx, sy);
                pen_down = true;
            }
        }
        ctx.stroke();
        dash(surface, Stroke::Solid);
    }
    if series.marker != Marker::None {
        ctx.set_fill_style_str(&color);
        ctx.set_stroke_style_str(&css(background));
        ctx.set_line_width(r);
        for &(x, y) in &points {
            let (sx, sy) = (layout.px(x) * r, layout.py(y) * r);
            if sx.is_finite() && sy.is_finite() {
                marker(surface, series.marker, sx, sy, 4.0 * r);
            }
        }
    }
}

fn marker(surface: &Surface, shape: Marker, x: f64, y: f64, size: f64) {
    let ctx = &surface.context;
    ctx.begin_path();
    match shape {
        Marker::None => return,
        Marker::Circle => {
            let _ = ctx.arc(x, y, size, 0.0, std::f64::consts::TAU);
        }
        Marker::Square => ctx.rect(x - size * 0.85, y - size * 0.85, size * 1.7, size * 1.7),
        Marker::Triangle => {
            ctx.move_to(x, y - size * 1.1);
            ctx.line_to(x + size, y + size * 0.8);
            ctx.line_to(x - size, y + size * 0.8);
            ctx.close_path();
        }
        Marker::Diamond => {
            ctx.move_to(x, y - size * 1.2);
            ctx.line_to(x + size, y);
            ctx.line_to(x, y + size * 1.2);
            ctx.line_to(x - size, y);
            ctx.close_path();
        }
    }
    ctx.fill();
    ctx.stroke();
}

fn swatch(
    surface: &Surface,
    series: &Series,
    color: RGBColor,
    x: f64,
    y: f64,
    background: RGBColor,
) {
    let ctx = &surface.context;
    let r = surface.ratio;
    if series.stroke != Stroke::None {
        ctx.set_stroke_style_str(&css(color));
        ctx.set_line_width(series.width.max(1.5) * r);
        dash(surface, series.stroke);
        ctx.begin_path();
        ctx.move_to(x * r, y * r);
        ctx.line_to((x + 20.0) * r, y * r);
        ctx.stroke();
        dash(surface, Stroke::Solid);
    }
    if series.marker != Marker::None {
        ctx.set_fill_style_str(&css(color));
        ctx.set_stroke_style_str(&css(background));
        ctx.set_line_width(r);
        marker(surface, series.marker, (x + 10.0) * r, y * r, 4.0 * r);
    }
}

fn draw_guide(surface: &Surface, layout: &LineLayout, guide: &Guide, theme: &Theme) {
    let ctx = &surface.context;
    let r = surface.ratio;
    ctx.set_stroke_style_str(&css(theme.muted));
    ctx.set_line_width(r);
    dash(surface, Stroke::Dashed);
    ctx.begin_path();
    let (x0, y0, x1, y1) = if guide.vertical {
        let x = layout.px(guide.value);
        (x, layout.top, x, layout.top + layout.height)
    } else {
        let y = layout.py(guide.value);
        (layout.left, y, layout.left + layout.width, y)
    };
    ctx.move_to(x0 * r, y0 * r);
    ctx.line_to(x1 * r, y1 * r);
    ctx.stroke();
    dash(surface, Stroke::Solid);
}

/// Where the guides' labels go (their top-left corners), so that no two overlap: `guides` are
/// (pixel where the line crosses its axis, vertical?, label width), `plot` is (left, top, width,
/// height) and `text` the labels' height. A horizontal line's label sits above it at the plot's
/// right, else at its left, else below it (the data of a rising curve is more often in the way
/// there); a vertical line's label right of it at the top,
/// else left of it, else a line lower. Labels are placed in order; one with no free spot inside
/// the plot takes its first spot inside it ("length = 200" had been written over
/// "2π·base ≈ 188.5").
pub fn place_guide_labels(
    guides: &[(f64, bool, f64)],
    (left, top, width, height): (f64, f64, f64, f64),
    text: f64,
) -> Vec<(f64, f64)> {
    const PAD: f64 = 4.0;
    let (right, bottom) = (left + width, top + height);
    let mut placed: Vec<(f64, f64, f64)> = Vec::new();
    let mut out = Vec::with_capacity(guides.len());
    for &(at, vertical, w) in guides {
        let spots: Vec<(f64, f64)> = if vertical {
            (0..3)
                .flat_map(|row| {
                    let y = top + PAD + row as f64 * (text + PAD);
                    [(at + PAD, y), (at - PAD - w, y)]
                })
                .collect()
        } else {
            let (above, below) = (at - PAD - text, at + PAD);
            let (at_right, at_left) = (right - PAD - w, left + PAD);
            vec![
                (at_right, above),
                (at_left, above),
                (at_right, below),
                (at_left, below),
            ]
        };
        let inside = |&(x, y): &(f64, f64)| {
            x >= left - 0.5 && x + w <= right + 0.5 && y >= top - 0.5 && y + text <= bottom + 0.5
        };
        let free = |&(x, y): &(f64, f64)| {
            placed.iter().all(|&(px, py, pw)| {
                x + w + 2.0 <= px
                    || px + pw + 2.0 <= x
                    || y + text + 2.0 <= py
                    || py + text + 2.0 <= y
            })
        };
        let spot = spots
            .iter()
            .find(|s| inside(s) && free(s))
            .or_else(|| spots.iter().find(|s| inside(s)))
            .unwrap_or(&spots[0]);
        placed.push((spot.0, spot.1, w));
        out.push(*spot);
    }
    out
}
