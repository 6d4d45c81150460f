//! A heatmap of any [`Matrix`]: pixels written through `ImageData` at (at most) canvas resolution,
//! axes and a colour bar drawn with plotters.

use std::ops::Range;
use std::rc::Rc;

use wasm_bindgen::{Clamped, JsCast};
use web_sys::{HtmlCanvasElement, ImageData};

use super::colormap::ColorScale;
use super::frame::{
    css, draw_frame, draw_right_scale, label_width, wrap_text, FrameAxis, Rect, Surface, Theme,
};
use super::ticks::{format_tick, index_ticks, nice_ticks};
use super::viewport::Viewport;
use crate::math::binning::Bins;
use crate::math::matrix::{BlockSummary, Matrix};

/// One axis of a heatmap.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    pub title: String,
    /// What one row or column is called ("position"), for readouts.
    pub unit: String,
    /// Names of the rows or columns (tokens); `None` labels them by index.
    pub names: Option<Vec<String>>,
    /// The only rows or columns that get a tick, when a figure chooses them (small multiples:
    /// each map's first, middle and last); `None` lets the axis choose.
    pub marks: Option<Vec<usize>>,
}

impl Axis {
    pub fn indexed(title: &str, unit: &str) -> Axis {
        Axis {
            title: title.to_string(),
            unit: unit.to_string(),
            names: None,
            marks: None,
        }
    }

    pub fn named(title: &str, unit: &str, names: Vec<String>) -> Axis {
        Axis {
            title: title.to_string(),
            unit: unit.to_string(),
            names: Some(names),
            marks: None,
        }
    }

    /// The axis with ticks at `marks` only.
    pub fn with_marks(mut self, marks: Vec<usize>) -> Axis {
        self.marks = Some(marks);
        self
    }

    fn ticks(&self, window: &Range<usize>, max_ticks: usize) -> Vec<usize> {
        if let Some(marks) = &self.marks {
            return marks
                .iter()
                .copied()
                .filter(|m| window.contains(m))
                .collect();
        }
        match &self.names {
            Some(_) if window.len() <= max_ticks * 2 => window.clone().collect(),
            _ => index_ticks(window.start, window.end.saturating_sub(1), max_ticks),
        }
    }

    /// The frame's axis over the cells `shown`, each centred on its index, with at most
    /// `max_ticks` labelled ticks; `last_first` runs it from the last cell to the first.
    fn frame(&self, shown: &Range<usize>, max_ticks: usize, last_first: bool) -> FrameAxis<'_> {
        let (first, last) = (shown.start as f64 - 0.5, shown.end as f64 - 0.5);
        let (start, end) = if last_first {
            (last, first)
        } else {
            (first, last)
        };
        FrameAxis {
            start,
            end,
            ticks: self
                .ticks(shown, max_ticks)
                .into_iter()
                .map(|t| (t as f64, self.label(t)))
                .collect(),
            title: &self.title,
        }
    }

    /// The label of row or column `index`: its name, or the index itself.
    pub fn label(&self, index: usize) -> String {
        match &self.names {
            Some(names) => names.get(index).cloned().unwrap_or_default(),
            None => index.to_string(),
        }
    }
}

/// A heatmap's content, owned, so a view can memoise it and hand it to the chart component.
pub struct HeatmapData {
    pub matrix: Rc<dyn Matrix>,
    pub x: Axis,
    pub y: Axis,
    pub scale: ColorScale,
    pub colorbar_title: String,
    pub caption: String,
    /// Plural names of rows and columns, for the averaging note.
    pub nouns: (String, String),
    /// A labelled horizontal rule above a row (e.g. the trained length).
    pub rule: Option<(usize, String)>,
}

impl HeatmapData {
    /// The whole matrix, drawn.
    pub fn spec(&self) -> HeatmapSpec<'_> {
        let m = &*self.matrix;
        self.spec_in(&Viewport::full(m.rows(), m.cols()))
    }

    /// The part of the matrix inside `view`, drawn.
    pub fn spec_in(&self, view: &Viewport) -> HeatmapSpec<'_> {
        HeatmapSpec {
            matrix: &*self.matrix,
            rows: view.rows.clone(),
            cols: view.cols.clone(),
            x: &self.x,
            y: &self.y,
            scale: &self.scale,
            colorbar_title: &self.colorbar_title,
            caption: &self.caption,
            nouns: (&self.nouns.0, &self.nouns.1),
            rule: self.rule.as_ref().map(|(r, l)| (*r, l.as_str())),
        }
    }
}

/// Everything a heatmap draws.
pub struct HeatmapSpec<'a> {
    pub matrix: &'a dyn Matrix,
    /// The visible rows and columns.
    pub rows: Range<usize>,
    pub cols: Range<usize>,
    /// The axis along the columns (x) and along the rows (y, first row at the top).
    pub x: &'a Axis,
    pub y: &'a Axis,
    pub scale: &'a ColorScale,
    pub colorbar_title: &'a str,
    /// A caption drawn above the plot, so exported images say what they show.
    pub caption: &'a str,
    /// What one row and one column are called, plural ("positions", "dimensions").
    pub nouns: (&'a str, &'a str),
    /// A labelled horizontal rule above a row.
    pub rule: Option<(usize, &'a str)>,
}

/// Where the cells landed, in CSS pixels, and how many cells each drawn pixel block averages.
#[derive(Clone, Debug, PartialEq)]
pub struct HeatmapLayout {
    pub left: f64,
    pub top: f64,
    pub width: f64,
    pub height: f64,
    pub rows: Bins,
    pub cols: Bins,
}

impl HeatmapLayout {
    /// The cell under a point, if the point is inside the plot.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<(usize, usize)> {
        let fx = (x - self.left) / self.width;
        let fy = (y - self.top) / self.height;
        if !(0.0..1.0).contains(&fx) || !(0.0..1.0).contains(&fy) {
            return None;
        }
        let row = self.rows.start + (fy * (self.rows.end - self.rows.start) as f64) as usize;
        let col = self.cols.start + (fx * (self.cols.end - self.cols.start) as f64) as usize;
        Some((row.min(self.rows.end - 1), col.min(self.cols.end - 1)))
    }

    /// The rectangle (left, top, width, height) a cell occupies.
    pub fn cell_rect(&self, row: usize, col: usize) -> (f64, f64, f64, f64) {
        let cw = self.width / (self.cols.end - self.cols.start).max(1) as f64;
        let rh = self.height / (self.rows.end - self.rows.start).max(1) as f64;
        (
            self.left + (col.saturating_sub(self.cols.start)) as f64 * cw,
            self.top + (row.saturating_sub(self.rows.start)) as f64 * rh,
            cw,
            rh,
        )
    }

    /// A sentence for the chart when a pixel stands for several cells; `None` otherwise.
    pub fn block_note(
        &self,
        row_noun: &str,
        col_noun: &str,
        summary: BlockSummary,
    ) -> Option<String> {
        let note = self.averaging_note(row_noun, col_noun)?;
        Some(match summary {
            BlockSummary::Mean => note,
            BlockSummary::Sample => note
                .replace("is the mean of", "shows the first of")
                .replace(
                    '.',
                    " it covers (a sample: the table is random, so a mean would be grey).",
                ),
            BlockSummary::Point => note
                .replace("is the mean of", "shows the first of")
                .replace('.', " it covers (each cell is computed on its own)."),
        })
    }

    /// A sentence for the chart when a pixel shows the mean of several cells; `None` otherwise.
    pub fn averaging_note(&self, row_noun: &str, col_noun: &str) -> Option<String> {
        let many = |bins: &Bins| match bins.sizes() {
            (a, b) if a == b => a.to_string(),
            (a, b) => format!("{a}–{b}"),
        };
        let (r, c) = (self.rows.sizes().1 > 1, self.cols.sizes().1 > 1);
        let (rn, cn) = (many(&self.rows), many(&self.cols));
        match (r, c) {
            (false, false) => None,
            (true, false) => Some(format!("Each pixel row is the mean of {rn} {row_noun}.")),
            (false, true) => Some(format!("Each pixel column is the mean of {cn} {col_noun}.")),
            (true, true) => Some(format!(
                "Each pixel is the mean of {rn} {row_noun} × {cn} {col_noun}."
            )),
        }
    }
}

const LINE_HEIGHT: f64 = 18.0;
const X_AREA: f64 = 46.0;
const COLORBAR_AREA: f64 = 78.0;
const COLORBAR_AREA_NARROW: f64 = 62.0;
const TICK_FONT: f64 = 12.0;
const TITLE_FONT: f64 = 13.0;

/// Draws the heatmap onto `canvas`, sized `width × height` CSS pixels at `ratio` device pixels
/// each, and returns where the cells are.
pub fn draw(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
    ratio: f64,
    spec: &HeatmapSpec,
    theme: &Theme,
) -> Result<HeatmapLayout, String> {
    let surface = Surface::prepare(canvas, width, height, ratio)?;
    let rows = spec.rows.start.min(spec.matrix.rows())..spec.rows.end.min(spec.matrix.rows());
    let cols = spec.cols.start.min(spec.matrix.cols())..spec.cols.end.min(spec.matrix.cols());
    // Columns averaged in groups (sin/cos pairs) start at a group boundary, zoomed or not.
    let group = spec.matrix.column_group().max(1);
    let cols = cols.start - cols.start % group..cols.end;
    let r = surface.ratio;
    surface.clear(theme.background)?;
    let colorbar_area = if width < 480.0 {
        COLORBAR_AREA_NARROW
    } else {
        COLORBAR_AREA
    };
    // The caption (wrapped to fit) and one line for the averaging note sit above the plot, so
    // the plot does not move when the note appears.
    let caption = wrap(&surface, spec.caption, width - 16.0, TITLE_FONT);
    let header = 8.0 + LINE_HEIGHT * (caption.len() + 1) as f64;

    // The first row at the top.
    let y_axis = spec
        .y
        .frame(&rows, ((height - 80.0) / 28.0).max(2.0) as usize, true);
    let mut x_axis = spec
        .x
        .frame(&cols, ((width - 140.0) / 70.0).max(2.0) as usize, false);
    let y_area = label_width(&surface, &y_axis, TICK_FONT) + 34.0;
    let plot = Rect::inset(&surface, (header, colorbar_area + 6.0, X_AREA, y_area));
    if spec.x.names.is_some() {
        // Named columns narrower than their names: shortened, or every other one named.
        let span = x_axis.end - x_axis.start;
        let at: Vec<f64> = x_axis
            .ticks
            .iter()
            .map(|(v, _)| plot.left + (v - x_axis.start) / span * plot.width)
            .collect();
        let names: Vec<String> = x_axis.ticks.iter().map(|(_, l)| l.clone()).collect();
        let fitted =
            crate::plot::ticks::fit_names(&at, &names, |t| surface.text_width(t, TICK_FONT));
        for (tick, name) in x_axis.ticks.iter_mut().zip(fitted) {
            tick.1 = name;
        }
    }
    let (plot_w, plot_h) = (
        ((plot.width * r).round() as usize).max(1),
        ((plot.height * r).round() as usize).max(1),
    );
    let layout = HeatmapLayout {
        left: plot.left,
        top: plot.top,
        width: plot.width,
        height: plot.height,
        rows: Bins::fit(rows.start, rows.end, plot_h),
        cols: Bins::grouped(cols.start, cols.end, plot_w, spec.matrix.column_group()),
    };

    if !rows.is_empty() && !cols.is_empty() {
        let means = spec.matrix.block_means(&layout.rows, &layout.cols);
        let size = (layout.cols.count() as u32, layout.rows.count() as u32);
        let device = (plot.left * r, plot.top * r, plot_w as f64, plot_h as f64);
        // A short last column bin still gets a full bin's width; the clip trims the overhang.
        let stretched = device.2 * layout.cols.span() as f64 / cols.len() as f64;
        // Cells bigger than pixels keep hard edges; averaged bins stretched by less than 2×
        // are smoothed instead of alternating 1- and 2-pixel columns.
        let upscaled = |bins: &Bins, pixels: usize| bins.sizes().1 == 1 && bins.count() < pixels;
        let smooth = !upscaled(&layout.rows, plot_h) && !upscaled(&layout.cols, plot_w);
        blit(
            &surface,
            &spec.scale.paint(&means),
            size,
            (device.0, device.1, stretched, device.3),
            device,
            smooth,
        )?;
    }

    draw_frame(
        &surface,
        plot,
        &x_axis,
        &y_axis,
        None,
        theme,
        (TICK_FONT, TITLE_FONT),
    );
    for (i, line) in caption.iter().enumerate() {
        surface.text(
            line,
            8.0,
            6.0 + LINE_HEIGHT * i as f64,
            TITLE_FONT,
            theme.text,
            "left",
        );
    }
    if let Some((row, label)) = spec.rule {
        if rows.contains(&row) {
            let y = layout.top + layout.height * (row - rows.start) as f64 / rows.len() as f64;
            let ctx = &surface.context;
            ctx.set_stroke_style_str(&css(theme.cursor));
            ctx.set_line_width(1.5 * r);
            let dashes = js_sys::Array::of2(&(6.0 * r).into(), &(4.0 * r).into());
            let _ = ctx.set_line_dash(&dashes);
            ctx.begin_path();
            ctx.move_to(layout.left * r, y * r);
            ctx.line_to((layout.left + layout.width) * r, y * r);
            ctx.stroke();
            let _ = ctx.set_line_dash(&js_sys::Array::new());
            let w = surface.text_width(label, TICK_FONT) + 8.0;
            ctx.set_fill_style_str(&css(theme.background));
            ctx.fill_rect((layout.left + 4.0) * r, (y + 2.0) * r, w * r, 16.0 * r);
            surface.text(
                label,
                layout.left + 8.0,
                y + 3.0,
                TICK_FONT,
                theme.text,
                "left",
            );
        }
    }
    if let Some(note) = layout.block_note(spec.nouns.0, spec.nouns.1, spec.matrix.summary()) {
        // The note shares its line with the colour bar's title: on a narrow chart it is said
        // in fewer words rather than run into it.
        let title = surface.text_width(spec.colorbar_title, TICK_FONT);
        let room = (width - colorbar_area + 2.0).min(width - title - 2.0) - 16.0;
        let note = if surface.text_width(&note, TICK_FONT) > room {
            compact_note(&note)
        } else {
            note
        };
        surface.text(
            &note,
            8.0,
            7.0 + LINE_HEIGHT * caption.len() as f64,
            TICK_FONT,
            theme.muted,
            "left",
        );
    }

    let bar_left = width - colorbar_area + 10.0;
    let bar = Rect {
        left: (bar_left * r).round() / r,
        top: plot.top,
        width: ((colorbar_area - 10.0 - 44.0) * r).round() / r,
        height: plot.height,
    };
    draw_colorbar(&surface, bar, spec, theme)?;
    Ok(layout)
}

/// An averaging note in fewer words: "Pixel: mean of 2 rows × 3 columns."
pub fn compact_note(note: &str) -> String {
    note.replacen("Each pixel row", "Pixel row", 1)
        .replacen("Each pixel column", "Pixel column", 1)
        .replacen("Each pixel", "Pixel", 1)
        .replacen(" is the mean of ", ": mean of ", 1)
        .replacen(" shows the first of ", ": first of ", 1)
}

/// The colour bar: the scale's colours from max (top) to min, its ticks, and its title.
fn draw_colorbar(
    surface: &Surface,
    bar: Rect,
    spec: &HeatmapSpec,
    theme: &Theme,
) -> Result<(), String> {
    let (min, max) = (spec.scale.min, spec.scale.max);
    let steps = 256u32;
    let colors: Vec<f32> = (0..steps)
        .map(|k| (max - (max - min) * k as f64 / (steps - 1) as f64) as f32)
        .collect();
    let r = surface.ratio;
    let rect = (bar.left * r, bar.top * r, bar.width * r, bar.height * r);
    blit(
        surface,
        &spec.scale.paint(&colors),
        (1, steps),
        rect,
        rect,
        true,
    )?;
    let scale = FrameAxis {
        start: min,
        end: max,
        ticks: nice_ticks(min, max, 5)
            .into_iter()
            .map(|v| (v, format_tick(v)))
            .collect(),
        title: "",
    };
    draw_right_scale(surface, bar, &scale, theme, TICK_FONT);
    // Over the bar, moved left as far as it needs to stay inside the canvas.
    let title_width = surface.text_width(spec.colorbar_title, TICK_FONT);
    surface.text(
        spec.colorbar_title,
        (bar.left - 4.0).min(surface.width - title_width - 2.0),
        bar.top - 18.0,
        TICK_FONT,
        theme.text,
        "left",
    );
    Ok(())
}

/// Draws RGBA pixels of size `size` stretched onto `dest` (device pixels), clipped to `clip`;
/// nearest neighbour unless `smooth`.
fn blit(
    surface: &Surface,
    rgba: &[u8],
    size: (u32, u32),
    dest: (f64, f64, f64, f64),
    clip: (f64, f64, f64, f64),
    smooth: bool,
) -> Result<(), String> {
    let image = ImageData::new_with_u8_clamped_array_and_sh(Clamped(rgba), size.0, size.1)
        .map_err(|_| "could not create the image".to_string())?;
    let scratch = scratch_canvas()?;
    // Resized only when the image's size changes (prepare): putImageData replaces every pixel,
    // and resizing a canvas to its own size costs a new backing store at each draw.
    let sctx = Surface::prepare(&scratch, size.0 as f64, size.1 as f64, 1.0)?.context;
    sctx.put_image_data(&image, 0.0, 0.0)
        .map_err(|_| "could not write the image".to_string())?;
    let ctx = &surface.context;
    ctx.save();
    ctx.begin_path();
    ctx.rect(clip.0, clip.1, clip.2, clip.3);
    ctx.clip();
    ctx.set_image_smoothing_enabled(smooth);
    let drawn = ctx.draw_image_with_html_canvas_element_and_dw_and_dh(
        &scratch, dest.0, dest.1, dest.2, dest.3,
    );
    ctx.restore();
    drawn.map_err(|_| "could not draw the image".to_string())
}

thread_local! {
    static SCRATCH: std::cell::RefCell<Option<HtmlCanvasElement>> = const { std::cell::RefCell::new(None) };
}

/// One off-screen canvas reused by every blit.
fn scratch_canvas() -> Result<HtmlCanvasElement, String> {
    SCRATCH.with(|cell| {
        if let Some(c) = cell.borrow().as_ref() {
            return Ok(c.clone());
        }
        let canvas = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|e| e.dyn_into::<HtmlCanvasElement>().ok())
            .ok_or("could not create a canvas")?;
        *cell.borrow_mut() = Some(canvas.clone());
        Ok(canvas)
    })
}

/// A caption in lines no wider than `max_width` (see [`wrap_text`]).
fn wrap(surface: &Surface, text: &str, max_width: f64, size: f64) -> Vec<String> {
    wrap_text(text, max_width, |t| surface.text_width(t, size))
}

/// The heatmap of the encoding matrix, with its axes and caption.
pub fn encoding_heatmap(
    encoding: crate::math::sinusoidal::Sinusoidal,
    length: usize,
    palette: super::colormap::Palette,
) -> HeatmapData {
    HeatmapData {
        matrix: Rc::new(crate::math::sinusoidal::SinusoidalMatrix::new(
            encoding, length,
        )),
        x: Axis::indexed("dimension (column)", "dimension"),
        y: Axis::indexed("position (row)", "position"),
        scale: ColorScale::symmetric(palette, 1.0),
        colorbar_title: "PE value".into(),
        caption: format!(
            "Sinusoidal PE ({}) · d_model {} · length {} · base {}",
            encoding.variant.id(),
            encoding.d_model,
            length,
            crate::format::plain(encoding.base)
        ),
        nouns: ("positions".into(), "dimensions".into()),
        rule: None,
    }
}
