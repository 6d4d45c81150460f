//! A heatmap chart component: sizes itself to its container, redraws when its data changes,
//! reports the cell under the pointer or keyboard cursor, and exports PNG (2×) and CSV.

use web_sys::{HtmlCanvasElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use super::chart::{
    count_draw, mark_plot, matrix_table, use_chart_size, use_theme, ChartTools, CsvExport, Shared,
};
use crate::format::significant;
use crate::plot::frame::{css, Surface, Theme};
use crate::plot::heatmap::{draw, HeatmapData, HeatmapLayout};

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
    let size = use_chart_size(container.clone());
    let theme = use_theme();
    let height = props.height_for(size.width);
    let layout = use_mut_ref(|| None::<HeatmapLayout>);
    let problem = use_state(|| None::<String>);
    let (rows, cols) = (props.data.matrix.rows(), props.data.matrix.cols());
    let cursor = props.cursor.filter(|(r, c)| *r < rows && *c < cols);

    // Redraw when the data or the size changes.
    {
        let (canvas, layout, problem) = (canvas.clone(), layout.clone(), problem.clone());
        use_effect_with(
            (props.data.clone(), size, height, theme),
            move |(data, size, height, theme)| {
                if let (Some(el), true) = (canvas.cast::<HtmlCanvasElement>(), size.width > 0.0) {
                    match draw(&el, size.width, *height, size.ratio, &data.spec(), theme) {
                        Ok(l) => {
                            mark_plot(&el, l.left, l.top, l.width, l.height);
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
            (cursor, size, height, props.data.clone(), theme),
            move |(cell, size, height, _, theme)| {
                if let Some(el) = overlay.cast::<HtmlCanvasElement>() {
                    draw_cursor(&el, *size, *height, *cell, layout.borrow().as_ref(), theme);
                }
            },
        );
    }

    let on_pointer = {
        let (layout, on_cell, on_pick) =
            (layout.clone(), props.on_cell.clone(), props.on_pick.clone());
        Callback::from(move |e: PointerEvent| {
            let cell = layout
                .borrow()
                .as_ref()
                .and_then(|l| l.cell_at(e.offset_x() as f64, e.offset_y() as f64));
            if cell.is_some() && cell != cursor {
                on_cell.emit(cell);
            }
            if let (Some((_, col)), "pointerdown", Some(pick)) =
                (cell, e.type_().as_str(), &on_pick)
            {
                pick.emit(col);
            }
        })
    };
    let on_pointer_leave = {
        let (on_cell, canvas) = (props.on_cell.clone(), canvas.clone());
        Callback::from(move |_: PointerEvent| {
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
        let (on_cell, on_pick) = (props.on_cell.clone(), props.on_pick.clone());
        Callback::from(move |e: KeyboardEvent| {
            if rows == 0 || cols == 0 {
                return;
            }
            let Some((r, c)) = cursor else {
                // The first key selects the first cell, wherever it points.
                if is_navigation(&e.key()) {
                    e.prevent_default();
                    on_cell.emit(Some((0, 0)));
                }
                return;
            };
            let jump = if e.shift_key() { 10 } else { 1 };
            let page = (rows / 10).max(1);
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
            on_cell.emit(Some(next));
        })
    };

    let render_png = {
        let data = props.data.clone();
        let width = size.width;
        Callback::from(move |c: HtmlCanvasElement| {
            draw(&c, width, height, 2.0, &data.spec(), &Theme::LIGHT).map(|_| ())
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
    let style = format!("height: {height}px");
    let pick_hint = if props.on_pick.is_some() {
        " Enter picks the column."
    } else {
        ""
    };
    html! {
        <figure class="chart">
            <ChartTools name={data.caption.clone()} file_stem={props.file_stem.clone()}
                csv={props.csv.clone()} render_png={render_png} table={Some(table)} />
            <div class="chart-stage" ref={container} style={style.clone()}>
                <canvas
                    id={props.id.clone()}
                    ref={canvas}
                    class="chart-canvas"
                    style={style.clone()}
                    tabindex="0"
                    role="application"
                    aria-roledescription="heatmap"
                    aria-label={format!("{}. {} Arrow keys move between cells.{pick_hint}",
                        data.caption, props.description)}
                    onpointermove={on_pointer.clone()}
                    onpointerdown={on_pointer}
                    onpointerleave={on_pointer_leave}
                    onkeydown={on_key}
                />
                <canvas ref={overlay} class="chart-overlay" style={style} aria-hidden="true" />
            </div>
            if props.show_value {
                <p class="chart-value" aria-live="polite">
                    { summary.unwrap_or_else(|| "Hover or use the arrow keys to read a value.".into()) }
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
}

/// A small heatmap with its own cursor, a visible value readout and a CSV of its cells.
#[function_component(MatrixCard)]
pub fn matrix_card(props: &MatrixCardProps) -> Html {
    let cell = use_state(|| None::<(usize, usize)>);
    let on_cell = {
        let cell = cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let csv: CsvExport = {
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
    };
    html! {
        <Heatmap id={props.id.clone()} data={props.data.clone()}
            description={props.description.clone()} file_stem={props.file_stem.clone()}
            cursor={*cell} on_cell={on_cell} csv={Some(csv)} show_value={true}
            aspect={0.0} min_height={props.height} max_height={props.height} />
    }
}
