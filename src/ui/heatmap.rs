//! A heatmap chart component: sizes itself to its container, redraws when its data changes,
//! reports the cell under the pointer or keyboard cursor, zooms and pans (ctrl + wheel, pinch,
//! drag, keys, buttons), and exports PNG (2×, the view shown) and CSV (every cell).

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    AddEventListenerOptions, HtmlCanvasElement, KeyboardEvent, PointerEvent, WheelEvent,
};
use yew::prelude::*;

use crate::main_chart::HEATMAP;

use super::chart::{
    count_draw, mark_plot, matrix_table, use_chart_size, use_theme, ChartTools, CsvExport, Shared,
};
use crate::format::{group_thousands, significant};
use crate::plot::frame::{css, Surface, Theme};
use crate::plot::heatmap::{draw, HeatmapData, HeatmapLayout};
use crate::plot::viewport::{Extent, Viewport};

#[derive(Properties, PartialEq)]
pub struct HeatmapProps {
    /// Canvas element id (tests and the benchmark find the chart by it).
    pub id: AttrValue,
    pub data: Shared<HeatmapData>,
    /// Text alternative: one sentence on what the chart shows.
    pub description: AttrValue,
    /// File name without extension for downloads.
    pub file_stem: AttrValue,
    /// The highlighted cell (row, column), owned by the parent.
    #[prop_or_default]
    pub cursor: Option<(usize, usize)>,
    /// Called with the cell under the pointer or moved to with the keyboard.
    #[prop_or_default]
    pub on_cell: Callback<Option<(usize, usize)>>,
    /// Called with the column of a click or tap (e.g. to pick a dimension elsewhere).
    #[prop_or_default]
    pub on_pick: Option<Callback<usize>>,
    #[prop_or_default]
    pub csv: Option<CsvExport>,
    /// Show the value under the cursor as a line under the chart (for small heatmaps without a
    /// readout of their own); otherwise it is only announced to screen readers.
    #[prop_or_default]
    pub show_value: bool,
    /// Height as a fraction of the width, within [min_height, max_height] CSS pixels.
    #[prop_or(HEATMAP.aspect)]
    pub aspect: f64,
    #[prop_or(HEATMAP.min)]
    pub min_height: f64,
    #[prop_or(HEATMAP.max)]
    pub max_height: f64,
}

impl HeatmapProps {
    fn height_for(&self, width: f64) -> f64 {
        (width * self.aspect).clamp(self.min_height, self.max_height)
    }
}

/// Cells stop growing at about this many CSS pixels when zooming in: the smallest window
/// still shows a few of them.
const MAX_CELL_PX: f64 = 32.0;

/// Zoom per pixel of ctrl + wheel (100 px of wheel: ×1.22).
const WHEEL_ZOOM: f64 = 0.002;

/// A pointer gesture in progress on the plot.
#[derive(Default)]
struct Gesture {
    /// Pointers down: (id, x, y) in CSS pixels relative to the canvas.
    pointers: Vec<(i32, f64, f64)>,
    /// The window and pointer positions when the current gesture began.
    start: Option<(Viewport, Vec<(f64, f64)>)>,
    /// Whether the pointers moved far enough to be a drag rather than a click.
    moved: bool,
}

/// Everything zoom and pan need, shared by the pointer, wheel and key handlers.
#[derive(Clone)]
struct Zoom {
    /// The window shown, updated at once by handlers (several events may arrive per frame).
    live: Rc<RefCell<Viewport>>,
    state: UseStateHandle<Option<Viewport>>,
    rows: Extent,
    cols: Extent,
    layout: Rc<RefCell<Option<HeatmapLayout>>>,
}

impl Zoom {
    fn current(&self) -> Viewport {
        self.live.borrow().clone()
    }

    fn zoomable(&self) -> bool {
        self.rows.len > self.rows.min || self.cols.len > self.cols.min
    }

    fn set(&self, v: Viewport) {
        if v == *self.live.borrow() {
            return;
        }
        *self.live.borrow_mut() = v.clone();
        self.state
            .set((!v.is_full(self.rows, self.cols)).then_some(v));
    }

    fn zoom_at(&self, factor: f64, anchor: (f64, f64)) {
        self.set(self.current().zoom(factor, anchor, self.rows, self.cols));
    }

    /// Zooms around a cell (kept where it is), or around the centre.
    fn zoom_around(&self, factor: f64, cell: Option<(usize, usize)>) {
        let v = self.current();
        let anchor = cell
            .filter(|(r, c)| v.rows.contains(r) && v.cols.contains(c))
            .map_or((0.5, 0.5), |(r, c)| {
                (
                    (r - v.rows.start) as f64 / v.rows.len() as f64,
                    (c - v.cols.start) as f64 / v.cols.len() as f64,
                )
            });
        self.zoom_at(factor, anchor);
    }

    fn reset(&self) {
        self.set(Viewport::full(self.rows.len, self.cols.len));
    }

    /// Where a point falls in the plot, as fractions of its height and width.
    fn anchor(&self, x: f64, y: f64) -> (f64, f64) {
        match &*self.layout.borrow() {
            Some(l) => (
                ((y - l.top) / l.height).clamp(0.0, 1.0),
                ((x - l.left) / l.width).clamp(0.0, 1.0),
            ),
            None => (0.5, 0.5),
        }
    }

    /// Rows and columns per CSS pixel when `v` is shown.
    fn per_pixel(&self, v: &Viewport) -> (f64, f64) {
        match &*self.layout.borrow() {
            Some(l) => (
                v.rows.len() as f64 / l.height.max(1.0),
                v.cols.len() as f64 / l.width.max(1.0),
            ),
            None => (0.0, 0.0),
        }
    }

    /// Follows the pointers of a drag (one) or a pinch (two) from where the gesture began.
    fn follow(&self, start: &Viewport, from: &[(f64, f64)], now: &[(f64, f64)]) {
        let mid = |p: &[(f64, f64)]| {
            let n = p.len().max(1) as f64;
            (
                p.iter().map(|q| q.0).sum::<f64>() / n,
                p.iter().map(|q| q.1).sum::<f64>() / n,
            )
        };
        let (m0, m1) = (mid(from), mid(now));
        let mut v = start.clone();
        if let ([a, b], [c, d]) = (from, now) {
            let (d0, d1) = ((a.0 - b.0).hypot(a.1 - b.1), (c.0 - d.0).hypot(c.1 - d.1));
            if d0 > 1.0 && d1 > 1.0 {
                v = v.zoom(d0 / d1, self.anchor(m0.0, m0.1), self.rows, self.cols);
            }
        }
        let (rows_px, cols_px) = self.per_pixel(&v);
        let pan = (-(m1.1 - m0.1) * rows_px, -(m1.0 - m0.0) * cols_px);
        self.set(v.pan(pan, self.rows, self.cols));
    }
}

/// The fewest rows and columns a window shows, from the plot's size.
fn extents(
    rows: usize,
    cols: usize,
    layout: Option<&HeatmapLayout>,
    width: f64,
    height: f64,
) -> (Extent, Extent) {
    let (w, h) = layout.map_or(
        ((width - 200.0).max(40.0), (height - 110.0).max(40.0)),
        |l| (l.width, l.height),
    );
    (
        Extent::new(rows, (h / MAX_CELL_PX).ceil() as usize),
        Extent::new(cols, (w / MAX_CELL_PX).ceil() as usize),
    )
}

#[function_component(Heatmap)]
pub fn heatmap(props: &HeatmapProps) -> Html {
    let container = use_node_ref();
    let canvas = use_node_ref();
    let overlay = use_node_ref();
    let size = use_chart_size(container.clone());
    let theme = use_theme();
    let height = props.height_for(size.width);
    let layout = use_mut_ref(|| None::<HeatmapLayout>);
    let problem = use_state(|| None::<String>);
    let (rows, cols) = (props.data.matrix.rows(), props.data.matrix.cols());
    let cursor = props.cursor.filter(|(r, c)| *r < rows && *c < cols);

    // The window shown: everything (None) or what the reader zoomed to, kept inside the matrix
    // when its size changes.
    let view_state = use_state(|| None::<Viewport>);
    let (row_extent, col_extent) =
        extents(rows, cols, layout.borrow().as_ref(), size.width, height);
    let view = view_state.as_ref().map_or(Viewport::full(rows, cols), |v| {
        v.fit(row_extent, col_extent)
    });
    let live = use_mut_ref(|| view.clone());
    *live.borrow_mut() = view.clone();
    let zoom = Zoom {
        live,
        state: view_state.clone(),
        rows: row_extent,
        cols: col_extent,
        layout: layout.clone(),
    };
    let gesture = use_mut_ref(Gesture::default);

    // Redraw when the data, the window or the size changes.
    {
        let (canvas, layout, problem) = (canvas.clone(), layout.clone(), problem.clone());
        use_effect_with(
            (props.data.clone(), view.clone(), size, height, theme),
            move |(data, view, size, height, theme)| {
                if let (Some(el), true) = (canvas.cast::<HtmlCanvasElement>(), size.width > 0.0) {
                    match draw(
                        &el,
                        size.width,
                        *height,
                        size.ratio,
                        &data.spec_in(view),
                        theme,
                    ) {
                        Ok(l) => {
                            mark_plot(&el, l.left, l.top, l.width, l.height);
                            let _ = el.set_attribute(
                                "data-view",
                                &format!(
                                    "{}-{},{}-{}",
                                    l.rows.start, l.rows.end, l.cols.start, l.cols.end
                                ),
                            );
                            *layout.borrow_mut() = Some(l);
                            count_draw(&el, "heatmap-drawn");
                            if problem.is_some() {
                                problem.set(None);
                            }
                        }
                        Err(e) => problem.set(Some(format!("The chart could not be drawn: {e}"))),
                    }
                }
            },
        );
    }

    // Outline the cursor's cell on the overlay (redrawn after every heatmap draw, too).
    {
        let (overlay, layout) = (overlay.clone(), layout.clone());
        use_effect_with(
            (
                cursor,
                size,
                height,
                props.data.clone(),
                view.clone(),
                theme,
            ),
            move |(cell, size, height, _, _, theme)| {
                if let Some(el) = overlay.cast::<HtmlCanvasElement>() {
                    draw_cursor(&el, *size, *height, *cell, layout.borrow().as_ref(), theme);
                }
            },
        );
    }

    // Ctrl (⌘) + wheel, and a trackpad pinch (which arrives as one), zoom around the pointer.
    // The listener is not passive, so it may stop the page from zooming instead; a plain wheel
    // still scrolls the page.
    let wheel_zoom = use_mut_ref(|| None::<Zoom>);
    *wheel_zoom.borrow_mut() = Some(zoom.clone());
    {
        let canvas = canvas.clone();
        use_effect_with((), move |_| {
            let listener = Closure::<dyn Fn(WheelEvent)>::new(move |e: WheelEvent| {
                let Some(zoom) = wheel_zoom.borrow().clone() else {
                    return;
                };
                if !(e.ctrl_key() || e.meta_key()) || !zoom.zoomable() {
                    return;
                }
                e.prevent_default();
                let unit = match e.delta_mode() {
                    1 => 16.0,
                    2 => 400.0,
                    _ => 1.0,
                };
                let factor = (e.delta_y() * unit * WHEEL_ZOOM).clamp(-2.0, 2.0).exp();
                zoom.zoom_at(
                    factor,
                    zoom.anchor(e.offset_x() as f64, e.offset_y() as f64),
                );
            });
            let el = canvas.cast::<web_sys::Element>();
            if let Some(el) = &el {
                let options = AddEventListenerOptions::new();
                options.set_passive(false);
                let _ = el.add_event_listener_with_callback_and_add_event_listener_options(
                    "wheel",
                    listener.as_ref().unchecked_ref(),
                    &options,
                );
            }
            move || {
                if let Some(el) = el {
                    let _ = el.remove_event_listener_with_callback(
                        "wheel",
                        listener.as_ref().unchecked_ref(),
                    );
                }
            }
        });
    }

    let position = |e: &PointerEvent| (e.offset_x() as f64, e.offset_y() as f64);
    let on_pointer_down = {
        let (gesture, zoom) = (gesture.clone(), zoom.clone());
        Callback::from(move |e: PointerEvent| {
            if e.pointer_type() == "mouse" && e.button() != 0 {
                return;
            }
            if let Some(target) = e.target_dyn_into::<web_sys::Element>() {
                let _ = target.set_pointer_capture(e.pointer_id());
            }
            let mut g = gesture.borrow_mut();
            let (x, y) = position(&e);
            g.pointers.retain(|p| p.0 != e.pointer_id());
            g.pointers.push((e.pointer_id(), x, y));
            g.start = Some((
                zoom.current(),
                g.pointers.iter().map(|p| (p.1, p.2)).collect(),
            ));
            g.moved = g.pointers.len() > 1;
        })
    };
    let on_pointer_move = {
        let (gesture, zoom, layout, on_cell) = (
            gesture.clone(),
            zoom.clone(),
            layout.clone(),
            props.on_cell.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            let (x, y) = position(&e);
            let mut g = gesture.borrow_mut();
            if let Some(p) = g.pointers.iter_mut().find(|p| p.0 == e.pointer_id()) {
                (p.1, p.2) = (x, y);
                let Some((start, from)) = g.start.clone() else {
                    return;
                };
                let now: Vec<(f64, f64)> = g.pointers.iter().map(|p| (p.1, p.2)).collect();
                let far = from
                    .iter()
                    .zip(&now)
                    .any(|(a, b)| (a.0 - b.0).hypot(a.1 - b.1) > 4.0);
                g.moved |= far;
                // Dragging pans only a zoomed view; over the full view it just reads cells.
                if g.moved && (now.len() > 1 || !start.is_full(zoom.rows, zoom.cols)) {
                    drop(g);
                    zoom.follow(&start, &from, &now);
                    return;
                }
            }
            let cell = layout.borrow().as_ref().and_then(|l| l.cell_at(x, y));
            if cell.is_some() && cell != cursor {
                on_cell.emit(cell);
            }
        })
    };
    let on_pointer_up = {
        let (gesture, zoom, layout, on_cell, on_pick) = (
            gesture.clone(),
            zoom.clone(),
            layout.clone(),
            props.on_cell.clone(),
            props.on_pick.clone(),
        );
        Callback::from(move |e: PointerEvent| {
            let mut g = gesture.borrow_mut();
            let was_click = !g.moved && g.pointers.len() == 1 && e.type_() == "pointerup";
            g.pointers.retain(|p| p.0 != e.pointer_id());
            // A pinch that loses a finger goes on as a drag from here.
            g.start = (!g.pointers.is_empty()).then(|| {
                (
                    zoom.current(),
                    g.pointers.iter().map(|p| (p.1, p.2)).collect(),
                )
            });
            drop(g);
            if was_click {
                let (x, y) = position(&e);
                let cell = layout.borrow().as_ref().and_then(|l| l.cell_at(x, y));
                if let Some((_, col)) = cell {
                    on_cell.emit(cell);
                    if let Some(pick) = &on_pick {
                        pick.emit(col);
                    }
                }
            }
        })
    };
    let on_pointer_leave = {
        let (on_cell, canvas, gesture) = (props.on_cell.clone(), canvas.clone(), gesture.clone());
        Callback::from(move |_: PointerEvent| {
            if !gesture.borrow().pointers.is_empty() {
                return;
            }
            let focused = canvas
                .cast::<web_sys::Element>()
                .zip(web_sys::window().and_then(|w| w.document()?.active_element()))
                .is_some_and(|(c, a)| c == a);
            if !focused && cursor.is_some() {
                on_cell.emit(None);
            }
        })
    };
    let on_key = {
        let (on_cell, on_pick, zoom) = (props.on_cell.clone(), props.on_pick.clone(), zoom.clone());
        Callback::from(move |e: KeyboardEvent| {
            if rows == 0 || cols == 0 {
                return;
            }
            match e.key().as_str() {
                "+" | "=" => {
                    e.prevent_default();
                    zoom.zoom_around(0.5, cursor);
                    return;
                }
                "-" | "_" => {
                    e.prevent_default();
                    zoom.zoom_around(2.0, cursor);
                    return;
                }
                "0" => {
                    e.prevent_default();
                    zoom.reset();
                    return;
                }
                _ => {}
            }
            let Some((r, c)) = cursor else {
                // The first key selects the first visible cell.
                if is_navigation(&e.key()) {
                    e.prevent_default();
                    let v = zoom.current();
                    on_cell.emit(Some((v.rows.start, v.cols.start)));
                }
                return;
            };
            let jump = if e.shift_key() { 10 } else { 1 };
            let page = (zoom.current().rows.len() / 10).max(1);
            let next = match e.key().as_str() {
                "ArrowLeft" => (r, c.saturating_sub(jump)),
                "ArrowRight" => (r, (c + jump).min(cols - 1)),
                "ArrowUp" => (r.saturating_sub(jump), c),
                "ArrowDown" => ((r + jump).min(rows - 1), c),
                "PageUp" => (r.saturating_sub(page), c),
                "PageDown" => ((r + page).min(rows - 1), c),
                "Home" => (r, 0),
                "End" => (r, cols - 1),
                "Enter" | " " => {
                    if let Some(pick) = &on_pick {
                        e.prevent_default();
                        pick.emit(c);
                    }
                    return;
                }
                "Escape" => {
                    on_cell.emit(None);
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            // A zoomed view follows the cursor.
            zoom.set(zoom.current().reveal(next, zoom.rows, zoom.cols));
            on_cell.emit(Some(next));
        })
    };

    let render_png = {
        let (data, view) = (props.data.clone(), view.clone());
        let width = size.width;
        Callback::from(move |c: HtmlCanvasElement| {
            draw(&c, width, height, 2.0, &data.spec_in(&view), &Theme::LIGHT).map(|_| ())
        })
    };

    let table = {
        let data = props.data.clone();
        Callback::from(move |_| {
            matrix_table(
                &*data.matrix,
                &data.caption,
                &|r| format!("{} {}", data.y.unit, data.y.label(r)),
                &|c| data.x.label(c),
            )
        })
    };
    let data = &props.data;
    let summary = cursor.map(|(r, c)| {
        format!(
            "{} {}, {} {}: {}",
            data.y.unit,
            data.y.label(r),
            data.x.unit,
            data.x.label(c),
            significant(data.matrix.value(r, c), 6)
        )
    });
    let style = super::chart::canvas_style(size.width, height);
    let pick_hint = if props.on_pick.is_some() {
        " Enter picks the column."
    } else {
        ""
    };
    let zoom_hint = if zoom.zoomable() {
        " Plus and minus zoom around the cell, 0 shows everything."
    } else {
        ""
    };
    let zoomed = !view.is_full(row_extent, col_extent);
    let zoom_bar = zoom.zoomable().then(|| {
        let button = |label: &'static str, text: &'static str, enabled: bool, action: Callback<MouseEvent>| {
            html! {
                <button type="button" class="button button-small" aria-label={label}
                    disabled={!enabled} onclick={action}>{ text }</button>
            }
        };
        let act = |f: fn(&Zoom, Option<(usize, usize)>)| {
            let zoom = zoom.clone();
            Callback::from(move |_: MouseEvent| f(&zoom, cursor))
        };
        let range = |r: &std::ops::Range<usize>, n: usize, noun: &str| {
            format!(
                "{noun} {}–{} of {}",
                group_thousands(r.start as u64),
                group_thousands(r.end.saturating_sub(1) as u64),
                group_thousands(n as u64)
            )
        };
        let status = if zoomed {
            format!(
                "Showing {} · {}",
                range(&view.rows, rows, &data.nouns.0),
                range(&view.cols, cols, &data.nouns.1)
            )
        } else {
            "Zoom: Ctrl + scroll, pinch, or the + and − keys; drag to pan.".to_string()
        };
        html! {
            <div class="chart-zoom" role="group" aria-label={format!("Zoom {}", data.caption)}>
                { button("Zoom in", "+", view.rows.len() > row_extent.min || view.cols.len() > col_extent.min,
                    act(|z, c| z.zoom_around(0.5, c))) }
                { button("Zoom out", "−", zoomed, act(|z, c| z.zoom_around(2.0, c))) }
                { button("Reset zoom: show everything", "Reset zoom", zoomed, act(|z, _| z.reset())) }
                <span class="chart-zoom-status" aria-live="polite">{ status }</span>
            </div>
        }
    });
    html! {
        <figure class="chart">
            <ChartTools name={data.caption.clone()} file_stem={props.file_stem.clone()}
                csv={props.csv.clone()} render_png={render_png} table={Some(table)} />
            <div class="chart-stage" ref={container} style={style.clone()}>
                <canvas
                    id={props.id.clone()}
                    ref={canvas}
                    class={classes!("chart-canvas", zoomed.then_some("chart-zoomed"))}
                    style={style.clone()}
                    tabindex="0"
                    role="application"
                    aria-roledescription="heatmap"
                    aria-label={format!("{}. {} Arrow keys move between cells.{pick_hint}{zoom_hint}",
                        data.caption, props.description)}
                    onpointermove={on_pointer_move}
                    onpointerdown={on_pointer_down}
                    onpointerup={on_pointer_up.clone()}
                    onpointercancel={on_pointer_up}
                    onpointerleave={on_pointer_leave}
                    onkeydown={on_key}
                />
                <canvas ref={overlay} class="chart-overlay" style={style} aria-hidden="true" />
            </div>
            { zoom_bar.unwrap_or_default() }
            if props.show_value {
                <p class="chart-value" aria-live="polite">
                    { summary.unwrap_or_else(|| "Hover, tap or use the arrow keys to read a value.".into()) }
                </p>
            } else {
                <p class="visually-hidden" aria-live="polite">{ summary.unwrap_or_default() }</p>
            }
            if let Some(p) = &*problem {
                <p class="note note-error" role="alert">{ p.clone() }</p>
            }
        </figure>
    }
}

fn is_navigation(key: &str) -> bool {
    matches!(
        key,
        "ArrowLeft"
            | "ArrowRight"
            | "ArrowUp"
            | "ArrowDown"
            | "PageUp"
            | "PageDown"
            | "Home"
            | "End"
    )
}

/// Clears the overlay and outlines `cell` with crosshairs across the plot.
fn draw_cursor(
    canvas: &HtmlCanvasElement,
    size: super::chart::ChartSize,
    height: f64,
    cell: Option<(usize, usize)>,
    layout: Option<&HeatmapLayout>,
    theme: &Theme,
) {
    let Ok(surface) = Surface::prepare(canvas, size.width, height, size.ratio) else {
        return;
    };
    let ctx = &surface.context;
    let r = surface.ratio;
    ctx.clear_rect(0.0, 0.0, size.width * r, height * r);
    let (Some((row, col)), Some(l)) = (cell, layout) else {
        return;
    };
    if !(l.rows.start..l.rows.end).contains(&row) || !(l.cols.start..l.cols.end).contains(&col) {
        return;
    }
    let (x, y, w, h) = l.cell_rect(row, col);
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    ctx.set_line_width(r);
    ctx.set_global_alpha(0.4);
    ctx.set_stroke_style_str(&css(theme.cursor));
    ctx.begin_path();
    ctx.move_to(l.left * r, cy * r);
    ctx.line_to((l.left + l.width) * r, cy * r);
    ctx.move_to(cx * r, l.top * r);
    ctx.line_to(cx * r, (l.top + l.height) * r);
    ctx.stroke();
    ctx.set_global_alpha(1.0);
    // At least 8 px across, so a single cell of a large matrix is still visible.
    let (bw, bh) = (w.max(8.0), h.max(8.0));
    ctx.set_line_width(2.0 * r);
    ctx.set_stroke_style_str(&css(theme.cursor));
    ctx.stroke_rect((cx - bw / 2.0) * r, (cy - bh / 2.0) * r, bw * r, bh * r);
    ctx.set_line_width(r);
    ctx.set_stroke_style_str(&css(theme.background));
    ctx.stroke_rect(
        (cx - bw / 2.0 - 1.5) * r,
        (cy - bh / 2.0 - 1.5) * r,
        (bw + 3.0) * r,
        (bh + 3.0) * r,
    );
}

#[derive(Properties, PartialEq)]
pub struct MatrixCardProps {
    pub id: AttrValue,
    pub data: Shared<HeatmapData>,
    pub description: AttrValue,
    pub file_stem: AttrValue,
    /// Height in CSS pixels.
    pub height: f64,
    /// The CSV, when it is more than the cells shown (default: the cells).
    #[prop_or_default]
    pub csv: Option<CsvExport>,
}

/// A small heatmap with its own cursor, a visible value readout and a CSV of its cells.
#[function_component(MatrixCard)]
pub fn matrix_card(props: &MatrixCardProps) -> Html {
    let cell = use_state(|| None::<(usize, usize)>);
    let on_cell = {
        let cell = cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let csv: CsvExport = props.csv.clone().unwrap_or_else(|| {
        let (data, stem) = (props.data.clone(), props.file_stem.clone());
        Callback::from(move |_| {
            let (x, y) = (&data.x, &data.y);
            crate::export::labelled_csv(
                &*data.matrix,
                &y.unit,
                |r| y.label(r),
                |c| format!("{}_{}", x.unit, x.label(c)),
            )
            .map(|text| (format!("{stem}.csv"), text))
            .map_err(|e| e.message())
        })
    });
    html! {
        <Heatmap id={props.id.clone()} data={props.data.clone()}
            description={props.description.clone()} file_stem={props.file_stem.clone()}
            cursor={*cell} on_cell={on_cell} csv={Some(csv)} show_value={true}
            aspect={0.0} min_height={props.height} max_height={props.height} />
    }
}
