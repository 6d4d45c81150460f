//! A line chart component: sizes itself, redraws when its data changes, shows a vertical guide
//! at the x under the pointer (or moved with the arrow keys), and exports PNG (2×) and CSV.

use web_sys::{HtmlCanvasElement, KeyboardEvent, PointerEvent};
use yew::prelude::*;

use crate::main_chart::LINES;

use super::chart::{
    canvas_style, count_draw, mark_plot, use_chart_size, use_theme, ChartSize, ChartTools,
    CsvExport, Shared,
};
use crate::plot::frame::{Surface, Theme};
use crate::plot::lines::{draw, LineChartData, LineLayout, Points};

#[derive(Properties, PartialEq)]
pub struct LineChartProps {
    pub id: AttrValue,
    pub data: Shared<LineChartData>,
    /// Text alternative: one sentence on what the chart shows.
    pub description: AttrValue,
    pub file_stem: AttrValue,
    /// The x value marked by the guide, owned by the parent.
    #[prop_or_default]
    pub cursor: Option<f64>,
    /// Called with the x under the pointer or moved to with the arrow keys.
    #[prop_or_default]
    pub on_x: Callback<Option<f64>>,
    /// How far one arrow-key press moves the guide (Shift: ten times as far).
    #[prop_or(1.0)]
    pub x_step: f64,
    /// Round cursor positions to whole numbers (offsets, positions).
    #[prop_or(true)]
    pub whole_x: bool,
    #[prop_or_default]
    pub csv: Option<CsvExport>,
    /// Show every series' value at the cursor under the chart.
    #[prop_or_default]
    pub show_values: bool,
    #[prop_or(LINES.aspect)]
    pub aspect: f64,
    #[prop_or(LINES.min)]
    pub min_height: f64,
    #[prop_or(LINES.max)]
    pub max_height: f64,
}

#[function_component(LineChart)]
pub fn line_chart(props: &LineChartProps) -> Html {
    let container = use_node_ref();
    let canvas = use_node_ref();
    let overlay = use_node_ref();
    let size = use_chart_size(container.clone());
    let theme = use_theme();
    let height = (size.width * props.aspect).clamp(props.min_height, props.max_height);
    let layout = use_mut_ref(|| None::<LineLayout>);
    let problem = use_state(|| None::<String>);
    // The height the last draw gave the canvas: `height`, grown by a long caption or legend.
    let drawn = use_state(|| height);

    {
        let (canvas, overlay, container) = (canvas.clone(), overlay.clone(), container.clone());
        let (layout, problem, drawn) = (layout.clone(), problem.clone(), drawn.clone());
        use_effect_with(
            (props.data.clone(), size, height, theme),
            move |(data, size, height, theme)| {
                if let (Some(el), true) = (canvas.cast::<HtmlCanvasElement>(), size.width > 0.0) {
                    match draw(&el, size.width, *height, size.ratio, data, theme) {
                        Ok(l) => {
                            // Sized at once, before the page is painted; the state only keeps
                            // the next render's styles the same.
                            let style = canvas_style(size.width, l.canvas_height);
                            for node in [&canvas, &overlay, &container] {
                                if let Some(e) = node.cast::<web_sys::Element>() {
                                    if e.get_attribute("style").as_deref() != Some(&style) {
                                        let _ = e.set_attribute("style", &style);
                                    }
                                }
                            }
                            if *drawn != l.canvas_height {
                                drawn.set(l.canvas_height);
                            }
                            mark_plot(&el, l.left, l.top, l.width, l.height);
                            let _ = el.set_attribute("data-caption", &l.caption.join("\n"));
                            let _ = el.set_attribute("data-x-ticks", &l.x_labels.join("|"));
                            *layout.borrow_mut() = Some(l);
                            count_draw(&el, "chart-drawn");
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
    {
        let (overlay, layout) = (overlay.clone(), layout.clone());
        use_effect_with(
            (
                props.cursor.map(f64::to_bits),
                size,
                height,
                props.data.clone(),
                theme,
            ),
            move |(bits, size, height, _, theme)| {
                if let Some(el) = overlay.cast::<HtmlCanvasElement>() {
                    let x = bits.map(f64::from_bits);
                    let layout = layout.borrow();
                    let height = layout.as_ref().map_or(*height, |l| l.canvas_height);
                    draw_guide(&el, *size, height, x, layout.as_ref(), theme);
                }
            },
        );
    }

    let whole = props.whole_x;
    let snap = move |x: f64| if whole { x.round() } else { x };
    let on_pointer = {
        let (layout, on_x) = (layout.clone(), props.on_x.clone());
        Callback::from(move |e: PointerEvent| {
            if let Some(x) = layout
                .borrow()
                .as_ref()
                .and_then(|l| l.x_at(e.offset_x() as f64))
            {
                on_x.emit(Some(snap(x)));
            }
        })
    };
    let on_leave = {
        let (on_x, canvas) = (props.on_x.clone(), canvas.clone());
        Callback::from(move |e: PointerEvent| {
            // A finger lifted leaves the chart at once: what it tapped stays read.
            if e.pointer_type() == "touch" {
                return;
            }
            let focused = canvas
                .cast::<web_sys::Element>()
                .zip(web_sys::window().and_then(|w| w.document()?.active_element()))
                .is_some_and(|(c, a)| c == a);
            if !focused {
                on_x.emit(None);
            }
        })
    };
    let on_key = {
        let (on_x, cursor, step) = (props.on_x.clone(), props.cursor, props.x_step);
        let (min, max) = (props.data.x.min, props.data.x.max);
        Callback::from(move |e: KeyboardEvent| {
            let jump = if e.shift_key() { 10.0 * step } else { step };
            let from = cursor.unwrap_or(snap((min + max) / 2.0));
            let next = match e.key().as_str() {
                "ArrowLeft" | "ArrowDown" => from - jump,
                "ArrowRight" | "ArrowUp" => from + jump,
                "Home" => min,
                "End" => max,
                "Escape" => {
                    on_x.emit(None);
                    return;
                }
                _ => return,
            };
            e.prevent_default();
            on_x.emit(Some(snap(next.clamp(min, max))));
        })
    };
    let render_png = {
        let (data, width) = (props.data.clone(), size.width);
        Callback::from(move |c: HtmlCanvasElement| {
            draw(&c, width, height, 2.0, &data, &Theme::LIGHT).map(|_| ())
        })
    };

    let table = {
        let data = props.data.clone();
        Callback::from(move |_| series_table(&data))
    };
    let style = canvas_style(size.width, *drawn);
    html! {
        <figure class="chart">
            <ChartTools name={props.data.caption.clone()} file_stem={props.file_stem.clone()}
                csv={props.csv.clone()} render_png={render_png} table={Some(table)} />
            <div class="chart-stage" ref={container} style={style.clone()}>
                <canvas
                    id={props.id.clone()}
                    ref={canvas}
                    class="chart-canvas"
                    style={style.clone()}
                    tabindex="0"
                    role="application"
                    aria-roledescription="line chart"
                    aria-label={format!("{}. {} Left and right arrow keys move the reading line.",
                        props.data.caption, props.description)}
                    onpointermove={on_pointer.clone()}
                    onpointerdown={on_pointer}
                    onpointerleave={on_leave}
                    onkeydown={on_key}
                />
                <canvas ref={overlay} class="chart-overlay" style={style} aria-hidden="true" />
            </div>
            if props.show_values {
                <p class="chart-value" aria-live="polite">{ values_text(&props.data, props.cursor) }</p>
            }
            if let Some(p) = &*problem {
                <p class="note note-error" role="alert">{ p.clone() }</p>
            }
        </figure>
    }
}

/// "x = 12: series a 0.5 · series b −1.2" for the reading line.
fn values_text(data: &LineChartData, x: Option<f64>) -> String {
    let Some(x) = x else {
        return "Hover, tap or use the arrow keys to read values.".into();
    };
    let values: Vec<String> = data
        .series
        .iter()
        .filter_map(|s| {
            s.value_at(x)
                .map(|v| format!("{} {}", s.name, crate::format::significant(v, 6)))
        })
        .collect();
    format!(
        "{} = {}: {}",
        data.x.title,
        crate::format::plain(x),
        if values.is_empty() {
            "no value here".to_string()
        } else {
            values.join(" · ")
        }
    )
}

#[derive(Properties, PartialEq)]
pub struct LineCardProps {
    pub id: AttrValue,
    pub data: Shared<LineChartData>,
    pub description: AttrValue,
    pub file_stem: AttrValue,
    #[prop_or_default]
    pub csv: Option<CsvExport>,
    #[prop_or(LINES.aspect)]
    pub aspect: f64,
}

/// The chart's series as CSV: the x axis, then one column per series, one row per x of the
/// first uniform series (or of every listed point). Values missing at an x are written NaN.
pub fn series_csv(data: &LineChartData) -> String {
    let xs: Vec<f64> = match data.series.iter().find_map(|s| match &s.points {
        Points::Uniform { x0, dx, ys } => Some((0..ys.len()).map(|i| x0 + i as f64 * dx).collect()),
        Points::Pairs(_) => None,
    }) {
        Some(xs) => xs,
        None => {
            let mut xs: Vec<f64> = data
                .series
                .iter()
                .flat_map(|s| match &s.points {
                    Points::Pairs(p) => p.iter().map(|(x, _)| *x).collect::<Vec<_>>(),
                    Points::Uniform { .. } => Vec::new(),
                })
                .collect();
            xs.sort_by(f64::total_cmp);
            xs.dedup();
            xs
        }
    };
    let name = |t: &str| t.replace([',', '"', '\n'], " ");
    let mut out = std::iter::once(name(&data.x.title))
        .chain(data.series.iter().map(|s| name(&s.name)))
        .collect::<Vec<_>>()
        .join(",");
    out.push('\n');
    for x in xs {
        out.push_str(&crate::format::plain(x));
        for s in &data.series {
            out.push(',');
            out.push_str(&crate::export::format_value(
                s.value_at(x).unwrap_or(f64::NAN),
            ));
        }
        out.push('\n');
    }
    out
}

/// A line chart with its own reading line, a visible readout of every series there, and a CSV
/// (the given one, or the series themselves).
#[function_component(LineCard)]
pub fn line_card(props: &LineCardProps) -> Html {
    let cursor = use_state(|| None::<f64>);
    let on_x = {
        let cursor = cursor.clone();
        Callback::from(move |x| cursor.set(x))
    };
    let csv = props.csv.clone().unwrap_or_else(|| {
        let (data, stem) = (props.data.clone(), props.file_stem.clone());
        Callback::from(move |_| Ok((format!("{stem}.csv"), series_csv(&data))))
    });
    html! {
        <LineChart id={props.id.clone()} data={props.data.clone()}
            description={props.description.clone()} file_stem={props.file_stem.clone()}
            cursor={*cursor} on_x={on_x} csv={Some(csv)} show_values={true}
            aspect={props.aspect} />
    }
}

/// Clears the overlay and draws a vertical line at `x`.
fn draw_guide(
    canvas: &HtmlCanvasElement,
    size: ChartSize,
    height: f64,
    x: Option<f64>,
    layout: Option<&LineLayout>,
    theme: &Theme,
) {
    let Ok(surface) = Surface::prepare(canvas, size.width, height, size.ratio) else {
        return;
    };
    let (ctx, r) = (&surface.context, surface.ratio);
    ctx.clear_rect(0.0, 0.0, size.width * r, height * r);
    let (Some(x), Some(l)) = (x, layout) else {
        return;
    };
    let px = l.px(x);
    if !(l.left..=l.left + l.width).contains(&px) {
        return;
    }
    ctx.set_stroke_style_str(&crate::plot::frame::css(theme.cursor));
    ctx.set_line_width(r);
    ctx.begin_path();
    ctx.move_to(px * r, l.top * r);
    ctx.line_to(px * r, (l.top + l.height) * r);
    ctx.stroke();
}

/// An HTML table of the series at up to 40 evenly spaced x values.
fn series_table(data: &LineChartData) -> Html {
    let (lo, hi) = (data.x.min, data.x.max);
    let steps = 40usize;
    let xs: Vec<f64> = (0..steps)
        .map(|i| lo + (hi - lo) * i as f64 / (steps - 1) as f64)
        .map(|x| x.round())
        .collect::<Vec<_>>()
        .into_iter()
        .fold(Vec::new(), |mut v, x| {
            if v.last() != Some(&x) {
                v.push(x);
            }
            v
        });
    html! {
        <table class="numbers">
            <caption>{ format!("{} (values at {} points of the x axis; Download CSV has them all)", data.caption, xs.len()) }</caption>
            <thead><tr>
                <th scope="col">{ data.x.title.clone() }</th>
                { for data.series.iter().map(|s| html! { <th scope="col">{ s.name.clone() }</th> }) }
            </tr></thead>
            <tbody>
                { for xs.iter().map(|&x| html! {
                    <tr>
                        <th scope="row">{ crate::format::plain(x) }</th>
                        { for data.series.iter().map(|s| html! {
                            <td>{ s.value_at(x).map_or("—".to_string(), |v| crate::format::significant(v, 4)) }</td>
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}
