//! A heatmap chart component: sizes itself to its container, redraws when its data changes,
//! reports the cell under the pointer or keyboard cursor, and exports PNG (2×) and CSV.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement, KeyboardEvent, PointerEvent, ResizeObserver};
use yew::prelude::*;

use super::browser;
use crate::math::matrix::Matrix;
use crate::plot::colormap::ColorScale;
use crate::plot::frame::{Surface, Theme};
use crate::plot::heatmap::{draw, Axis, HeatmapLayout, HeatmapSpec};

/// An `Rc` compared by identity, so memoised data passes through props without deep comparison.
pub struct Shared<T: ?Sized>(pub Rc<T>);

impl<T: ?Sized> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(self.0.clone())
    }
}

impl<T: ?Sized> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

/// Produces (file name, CSV text) on demand, or a message saying why not.
pub type CsvExport = Callback<(), Result<(String, String), String>>;

#[derive(Properties, PartialEq)]
pub struct HeatmapProps {
    /// Canvas element id (tests and the benchmark find the chart by it).
    pub id: AttrValue,
    pub matrix: Shared<dyn Matrix>,
    pub x: Rc<Axis>,
    pub y: Rc<Axis>,
    pub scale: Rc<ColorScale>,
    pub colorbar_title: AttrValue,
    pub caption: AttrValue,
    /// Text alternative: one sentence on what the chart shows.
    pub description: AttrValue,
    /// Plural names of rows and columns, for the averaging note.
    pub row_noun: AttrValue,
    pub col_noun: AttrValue,
    /// File name without extension for downloads.
    pub file_stem: AttrValue,
    #[prop_or_default]
    pub on_cell: Callback<Option<(usize, usize)>>,
    #[prop_or_default]
    pub csv: Option<CsvExport>,
    /// Height as a fraction of the width, within [min_height, max_height] CSS pixels.
    #[prop_or(0.62)]
    pub aspect: f64,
    #[prop_or(260.0)]
    pub min_height: f64,
    #[prop_or(620.0)]
    pub max_height: f64,
}

impl HeatmapProps {
    fn height_for(&self, width: f64) -> f64 {
        (width * self.aspect).clamp(self.min_height, self.max_height)
    }
}

#[function_component(Heatmap)]
pub fn heatmap(props: &HeatmapProps) -> Html {
    let container = use_node_ref();
    let canvas = use_node_ref();
    let overlay = use_node_ref();
    let width = use_state(|| 0.0f64);
    let layout = use_mut_ref(|| None::<HeatmapLayout>);
    let cursor = use_state(|| None::<(usize, usize)>);
    let problem = use_state(|| None::<String>);
    let draws = use_mut_ref(|| 0u64);

    // Follow the container's width.
    {
        let (container, width) = (container.clone(), width.clone());
        use_effect_with((), move |_| {
            let element = container.cast::<HtmlElement>();
            let measure = {
                let width = width.clone();
                move |el: &HtmlElement| {
                    let w = el.client_width() as f64;
                    if w > 0.0 && (w - *width).abs() >= 1.0 {
                        width.set(w);
                    }
                }
            };
            let mut observer = None;
            if let Some(el) = element {
                measure(&el);
                let target = el.clone();
                let callback = Closure::<dyn FnMut()>::new(move || measure(&target));
                if let Ok(obs) = ResizeObserver::new(callback.as_ref().unchecked_ref()) {
                    obs.observe(&el);
                    observer = Some((obs, callback));
                }
            }
            move || {
                if let Some((obs, _callback)) = observer {
                    obs.disconnect();
                }
            }
        });
    }

    // Redraw when the data or the size changes.
    {
        let (canvas, layout, problem, draws) = (
            canvas.clone(),
            layout.clone(),
            problem.clone(),
            draws.clone(),
        );
        let height = props.height_for(*width);
        let deps = (
            props.matrix.clone(),
            props.x.clone(),
            props.y.clone(),
            props.scale.clone(),
            props.caption.clone(),
            *width,
        );
        let spec_props = PropsSnapshot::from(props);
        use_effect_with(deps, move |(_, _, _, _, _, w)| {
            let w = *w;
            if let (Some(el), true) = (canvas.cast::<HtmlCanvasElement>(), w > 0.0) {
                let spec = spec_props.spec();
                match draw(&el, w, height, browser::pixel_ratio(), &spec, &Theme::LIGHT) {
                    Ok(l) => {
                        *layout.borrow_mut() = Some(l);
                        *draws.borrow_mut() += 1;
                        el.set_attribute("data-draws", &draws.borrow().to_string())
                            .ok();
                        browser::mark("heatmap-drawn");
                        if problem.is_some() {
                            problem.set(None);
                        }
                    }
                    Err(e) => problem.set(Some(format!("The chart could not be drawn: {e}"))),
                }
            }
        });
    }

    // Keep the cursor inside the matrix when it shrinks.
    {
        let (cursor, on_cell) = (cursor.clone(), props.on_cell.clone());
        let dims = (props.matrix.0.rows(), props.matrix.0.cols());
        use_effect_with(dims, move |(rows, cols)| {
            if let Some((r, c)) = *cursor {
                if r >= *rows || c >= *cols {
                    let clamped =
                        (*rows > 0 && *cols > 0).then(|| (r.min(rows - 1), c.min(cols - 1)));
                    cursor.set(clamped);
                    on_cell.emit(clamped);
                }
            }
        });
    }

    // Outline the cursor's cell on the overlay.
    {
        let (overlay, layout) = (overlay.clone(), layout.clone());
        let height = props.height_for(*width);
        use_effect_with(
            (*cursor, *width, props.matrix.clone()),
            move |(cell, w, _)| {
                if let Some(el) = overlay.cast::<HtmlCanvasElement>() {
                    draw_cursor(&el, *w, height, *cell, layout.borrow().as_ref());
                }
            },
        );
    }

    let pick = {
        let (layout, cursor, on_cell) = (layout.clone(), cursor.clone(), props.on_cell.clone());
        move |x: f64, y: f64| {
            let cell = layout.borrow().as_ref().and_then(|l| l.cell_at(x, y));
            if cell.is_some() && cell != *cursor {
                cursor.set(cell);
                on_cell.emit(cell);
            }
        }
    };
    let on_pointer_move = {
        let pick = pick.clone();
        Callback::from(move |e: PointerEvent| pick(e.offset_x() as f64, e.offset_y() as f64))
    };
    let on_pointer_down =
        Callback::from(move |e: PointerEvent| pick(e.offset_x() as f64, e.offset_y() as f64));
    let on_pointer_leave = {
        let (cursor, on_cell, canvas) = (cursor.clone(), props.on_cell.clone(), canvas.clone());
        Callback::from(move |_: PointerEvent| {
            let focused = canvas
                .cast::<web_sys::Element>()
                .zip(web_sys::window().and_then(|w| w.document()?.active_element()))
                .is_some_and(|(c, a)| c == a);
            if !focused && cursor.is_some() {
                cursor.set(None);
                on_cell.emit(None);
            }
        })
    };
    let on_key = {
        let (cursor, on_cell) = (cursor.clone(), props.on_cell.clone());
        let (rows, cols) = (props.matrix.0.rows(), props.matrix.0.cols());
        Callback::from(move |e: KeyboardEvent| {
            if rows == 0 || cols == 0 {
                return;
            }
            let jump = if e.shift_key() { 10 } else { 1 };
            let page = (rows / 10).max(1);
            let (r, c) = cursor.unwrap_or((0, 0));
            let next = match e.key().as_str() {
                "ArrowLeft" => (r, c.saturating_sub(jump)),
                "ArrowRight" => (r, (c + jump).min(cols - 1)),
                "ArrowUp" => (r.saturating_sub(jump), c),
                "ArrowDown" => ((r + jump).min(rows - 1), c),
                "PageUp" => (r.saturating_sub(page), c),
                "PageDown" => ((r + page).min(rows - 1), c),
                "Home" => (r, 0),
                "End" => (r, cols - 1),
                "Escape" => {
                    cursor.set(None);
                    on_cell.emit(None);
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            cursor.set(Some(next));
            on_cell.emit(Some(next));
        })
    };

    let on_png = {
        let (problem, snapshot, width) = (problem.clone(), PropsSnapshot::from(props), *width);
        let height = props.height_for(width);
        Callback::from(move |_: MouseEvent| {
            let result = browser::detached_canvas()
                .ok_or_else(|| "the browser could not create a canvas".to_string())
                .and_then(|c| {
                    draw(&c, width, height, 2.0, &snapshot.spec(), &Theme::LIGHT)?;
                    browser::save_png(&format!("{}.png", snapshot.file_stem), &c)
                });
            problem.set(result.err().map(|e| format!("PNG export failed: {e}")));
        })
    };
    let on_csv = props.csv.clone().map(|csv| {
        let problem = problem.clone();
        Callback::from(move |_: MouseEvent| {
            let result = csv
                .emit(())
                .and_then(|(name, text)| browser::save_text(&name, "text/csv", &text));
            problem.set(result.err());
        })
    });

    let height = props.height_for(*width);
    let style = format!("height: {height}px");
    html! {
        <figure class="chart">
            <div class="chart-tools">
                if let Some(on_csv) = on_csv {
                    <button type="button" class="button" onclick={on_csv}
                        aria-label={format!("Download CSV of {}", props.caption)}>
                        { "Download CSV" }
                    </button>
                }
                <button type="button" class="button" onclick={on_png}
                    aria-label={format!("Download PNG of {}", props.caption)}>
                    { "Download PNG" }
                </button>
            </div>
            <div class="chart-stage" ref={container} style={style.clone()}>
                <canvas
                    id={props.id.clone()}
                    ref={canvas}
                    class="chart-canvas"
                    style={style.clone()}
                    tabindex="0"
                    role="img"
                    aria-label={format!("{}. {} Use the arrow keys to read single cells.",
                        props.caption, props.description)}
                    onpointermove={on_pointer_move}
                    onpointerdown={on_pointer_down}
                    onpointerleave={on_pointer_leave}
                    onkeydown={on_key}
                />
                <canvas ref={overlay} class="chart-overlay" style={style} aria-hidden="true" />
            </div>
            if let Some(p) = &*problem {
                <p class="note note-error" role="alert">{ p.clone() }</p>
            }
        </figure>
    }
}

/// The parts of the props a draw needs, owned, for effects and callbacks.
struct PropsSnapshot {
    matrix: Rc<dyn Matrix>,
    x: Rc<Axis>,
    y: Rc<Axis>,
    scale: Rc<ColorScale>,
    colorbar_title: AttrValue,
    caption: AttrValue,
    row_noun: AttrValue,
    col_noun: AttrValue,
    file_stem: AttrValue,
}

impl From<&HeatmapProps> for PropsSnapshot {
    fn from(p: &HeatmapProps) -> Self {
        PropsSnapshot {
            matrix: p.matrix.0.clone(),
            x: p.x.clone(),
            y: p.y.clone(),
            scale: p.scale.clone(),
            colorbar_title: p.colorbar_title.clone(),
            caption: p.caption.clone(),
            row_noun: p.row_noun.clone(),
            col_noun: p.col_noun.clone(),
            file_stem: p.file_stem.clone(),
        }
    }
}

impl PropsSnapshot {
    fn spec(&self) -> HeatmapSpec<'_> {
        let m = &*self.matrix;
        HeatmapSpec {
            matrix: m,
            rows: 0..m.rows(),
            cols: 0..m.cols(),
            x: &self.x,
            y: &self.y,
            scale: &self.scale,
            colorbar_title: &self.colorbar_title,
            caption: &self.caption,
            nouns: (&self.row_noun, &self.col_noun),
        }
    }
}

/// Clears the overlay and outlines `cell` with crosshairs across the plot.
fn draw_cursor(
    canvas: &HtmlCanvasElement,
    width: f64,
    height: f64,
    cell: Option<(usize, usize)>,
    layout: Option<&HeatmapLayout>,
) {
    let Ok(surface) = Surface::prepare(canvas, width, height, browser::pixel_ratio()) else {
        return;
    };
    let ctx = &surface.context;
    let r = surface.ratio;
    ctx.clear_rect(0.0, 0.0, width * r, height * r);
    let (Some((row, col)), Some(l)) = (cell, layout) else {
        return;
    };
    let (x, y, w, h) = l.cell_rect(row, col);
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    ctx.set_line_width(r);
    ctx.set_stroke_style_str("rgba(17, 24, 39, 0.35)");
    ctx.begin_path();
    ctx.move_to(l.left * r, cy * r);
    ctx.line_to((l.left + l.width) * r, cy * r);
    ctx.move_to(cx * r, l.top * r);
    ctx.line_to(cx * r, (l.top + l.height) * r);
    ctx.stroke();
    // At least 8 px across, so a single cell of a large matrix is still visible.
    let (bw, bh) = (w.max(8.0), h.max(8.0));
    ctx.set_line_width(2.0 * r);
    ctx.set_stroke_style_str("#111827");
    ctx.stroke_rect((cx - bw / 2.0) * r, (cy - bh / 2.0) * r, bw * r, bh * r);
    ctx.set_line_width(r);
    ctx.set_stroke_style_str("#ffffff");
    ctx.stroke_rect(
        (cx - bw / 2.0 - 1.5) * r,
        (cy - bh / 2.0 - 1.5) * r,
        (bw + 3.0) * r,
        (bh + 3.0) * r,
    );
}
