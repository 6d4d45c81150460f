//! What every chart component shares: following its container's size and the screen's pixel
//! ratio, the Download CSV / PNG buttons, and reporting export problems.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, HtmlElement};
use yew::prelude::*;

use super::browser;
use crate::math::chunked::Chunked;
use crate::plot::frame::Theme;

/// An `Rc` compared by identity, so memoised data passes through props without deep comparison.
pub struct Shared<T: ?Sized>(pub Rc<T>);

impl<T: ?Sized> Shared<T> {
    pub fn new(value: Rc<T>) -> Self {
        Shared(value)
    }
}

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

impl<T: ?Sized> std::ops::Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// The colours charts are drawn in on screen (light or dark, provided by the app). Exports are
/// always drawn light, for pasting into notes and slides.
#[hook]
pub fn use_theme() -> Theme {
    use_context::<Theme>().unwrap_or(Theme::LIGHT)
}

/// Produces (file name, CSV text) on demand, or a message saying why not.
pub type CsvExport = Callback<(), Result<(String, String), String>>;

/// An export of the CSV a figure writes when asked, saved as `<stem>.csv`.
pub fn csv_export(stem: String, text: impl Fn() -> Result<String, String> + 'static) -> CsvExport {
    Callback::from(move |_| text().map(|t| (format!("{stem}.csv"), t)))
}

/// A chart's size in CSS pixels and the device pixel ratio it is drawn at.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ChartSize {
    pub width: f64,
    pub ratio: f64,
}

/// Follows the width of `container` (ResizeObserver) and the pixel ratio (which changes when the
/// window moves to another screen or the page is zoomed; both fire a window resize). A chart
/// far down the page is measured, and so drawn (a chart draws once it has a width), only when
/// it comes near the screen or the page is idle (`browser::draw_near_or_idle`): a view of many
/// charts (the attention demo has fifteen) is ready once the ones in sight are drawn.
#[hook]
pub fn use_chart_size(container: NodeRef) -> ChartSize {
    let size = use_state(|| ChartSize {
        width: 0.0,
        ratio: browser::pixel_ratio(),
    });
    {
        let size = size.clone();
        use_effect_with((), move |_| {
            let near = Rc::new(std::cell::Cell::new(false));
            let measure = {
                let (size, container, near) = (size.clone(), container.clone(), near.clone());
                move || {
                    if !near.get() {
                        return;
                    }
                    let Some(el) = container.cast::<HtmlElement>() else {
                        return;
                    };
                    let width = el.get_bounding_client_rect().width();
                    let next = ChartSize {
                        width,
                        ratio: browser::pixel_ratio(),
                    };
                    if width > 0.0
                        && ((width - size.width).abs() >= 0.5 || next.ratio != size.ratio)
                    {
                        size.set(next);
                    }
                }
            };
            let measure = Rc::new(measure);
            let show: Rc<dyn Fn()> = {
                let measure = measure.clone();
                Rc::new(move || {
                    if !near.replace(true) {
                        measure();
                    }
                })
            };
            let el = container.cast::<web_sys::Element>();
            let later = browser::show_when_near(el.as_ref(), show);
            let watch = browser::watch_size(el, true, move || measure());
            move || {
                drop(watch);
                drop(later);
            }
        });
    }
    *size
}

/// Whether the element of `node` has come on or near the screen since it was first drawn (or
/// the page has been idle, or is being printed): the same wait as a chart's far down the page
/// before it draws ([`use_chart_size`]). See [`Later`].
#[hook]
pub fn use_near(node: NodeRef) -> bool {
    let near = use_state_eq(|| false);
    {
        let near = near.clone();
        use_effect_with((), move |_| {
            let show: Rc<dyn Fn()> = Rc::new(move || near.set(true));
            let later = browser::show_when_near(node.cast::<web_sys::Element>().as_ref(), show);
            move || drop(later)
        });
    }
    *near
}

#[derive(Properties, PartialEq)]
pub struct LaterProps {
    pub children: Html,
    /// The height kept for the section while it waits (a CSS length), so that the page does
    /// not move when it comes.
    pub min_height: AttrValue,
}

/// A section far down a view whose numbers take a while to compute, drawn once it comes near
/// the screen or the page is idle ([`use_near`]): its numbers are not computed while the view
/// first draws. Until then it holds its place, empty.
#[function_component(Later)]
pub fn later(props: &LaterProps) -> Html {
    let node = use_node_ref();
    if use_near(node.clone()) {
        return props.children.clone();
    }
    html! {
        <div ref={node} class="later" aria-hidden="true"
            style={format!("min-height: {}", props.min_height)}></div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ChartToolsProps {
    /// What the chart is called, for the buttons' accessible names.
    pub name: AttrValue,
    pub file_stem: AttrValue,
    #[prop_or_default]
    pub csv: Option<CsvExport>,
    /// Draws the chart at 2× into the given canvas, for the PNG download.
    pub render_png: Callback<HtmlCanvasElement, Result<(), String>>,
    /// The chart's numbers as an HTML table, built only when asked for.
    #[prop_or_default]
    pub table: Option<Callback<(), Html>>,
}

/// What a chart on the page exports, for the page's own host (a notebook widget asks for the
/// main chart's numbers and picture): the same callbacks its buttons call.
#[derive(Clone)]
pub struct Exports {
    pub csv: Option<CsvExport>,
    pub render_png: Callback<HtmlCanvasElement, Result<(), String>>,
    pub file_stem: AttrValue,
}

thread_local! {
    /// Every chart's exports on the page now, by the number its tools carry (`data-export`).
    static EXPORTS: std::cell::RefCell<std::collections::HashMap<u32, Exports>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
    /// The next chart's number.
    static NEXT_EXPORT: std::cell::Cell<u32> = const { std::cell::Cell::new(1) };
}

/// The CSV of the chart drawn on the canvas `id`, as its Download CSV gives it: (file name,
/// text).
pub fn chart_csv(id: &str) -> Result<(String, String), String> {
    let exports = exports_of(id).ok_or("the chart is not drawn yet")?;
    let csv = exports.csv.ok_or("this chart has no CSV")?;
    csv.emit(())
}

/// The PNG of the chart drawn on the canvas `id`, as its Download PNG draws it: (file name,
/// `data:` address).
pub fn chart_png(id: &str) -> Result<(String, String), String> {
    let exports = exports_of(id).ok_or("the chart is not drawn yet")?;
    let canvas = browser::detached_canvas().ok_or("the browser could not create a canvas")?;
    exports.render_png.emit(canvas.clone())?;
    let data = canvas
        .to_data_url_with_type("image/png")
        .map_err(|_| "the browser could not encode the PNG")?;
    Ok((format!("{}.png", exports.file_stem), data))
}

/// The exports of the chart drawn on the canvas with `id` (its figure's tools), if it is on the
/// page.
pub fn exports_of(id: &str) -> Option<Exports> {
    let doc = web_sys::window()?.document()?;
    let figure = doc.get_element_by_id(id)?.closest("figure").ok()??;
    let key: u32 = figure
        .query_selector("[data-export]")
        .ok()??
        .get_attribute("data-export")?
        .parse()
        .ok()?;
    EXPORTS.with(|e| e.borrow().get(&key).cloned())
}

/// "Download CSV" and "Download PNG", with a visible message when an export fails.
#[function_component(ChartTools)]
pub fn chart_tools(props: &ChartToolsProps) -> Html {
    let problem = use_state(|| None::<String>);
    // This chart's exports, findable from its canvas (see [`exports_of`]).
    let key = *use_memo((), |_| {
        NEXT_EXPORT.with(|n| {
            let k = n.get();
            n.set(k.wrapping_add(1));
            k
        })
    });
    {
        let exports = Exports {
            csv: props.csv.clone(),
            render_png: props.render_png.clone(),
            file_stem: props.file_stem.clone(),
        };
        EXPORTS.with(|e| e.borrow_mut().insert(key, exports));
        use_effect_with((), move |_| {
            move || {
                EXPORTS.with(|e| e.borrow_mut().remove(&key));
            }
        });
    }
    let table_open = use_state(|| false);
    let on_table = {
        let table_open = table_open.clone();
        Callback::from(move |_: MouseEvent| table_open.set(!*table_open))
    };
    let on_png = {
        let (problem, render, stem) = (
            problem.clone(),
            props.render_png.clone(),
            props.file_stem.clone(),
        );
        Callback::from(move |_: MouseEvent| {
            let result = browser::detached_canvas()
                .ok_or_else(|| "the browser could not create a canvas".to_string())
                .and_then(|c| {
                    render.emit(c.clone())?;
                    browser::save_png(&format!("{stem}.png"), &c)
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
    html! {
        <>
            <div class="chart-tools" data-export={key.to_string()}>
                if let Some(on_csv) = on_csv {
                    <button type="button" class="button" onclick={on_csv}
                        aria-label={format!("Download CSV of {}", props.name)}>
                        { "Download CSV" }
                    </button>
                }
                <button type="button" class="button" onclick={on_png}
                    aria-label={format!("Download PNG of {}", props.name)}>
                    { "Download PNG" }
                </button>
                if props.table.is_some() {
                    <button type="button" class="button" onclick={on_table}
                        aria-expanded={table_open.to_string()}
                        aria-label={format!("Data table of {}", props.name)}>
                        { if *table_open { "Hide table" } else { "Data table" } }
                    </button>
                }
            </div>
            if let (true, Some(table)) = (*table_open, &props.table) {
                <div class="data-table">{ table.emit(()) }</div>
            }
            if let Some(p) = &*problem {
                <p class="note note-error" role="alert">{ p.clone() }</p>
            }
        </>
    }
}

/// Writes where the plot area is (CSS pixels) onto the canvas, for tests and tools.
pub fn mark_plot(canvas: &HtmlCanvasElement, left: f64, top: f64, width: f64, height: f64) {
    let _ = canvas.set_attribute(
        "data-plot",
        &format!("{left:.1} {top:.1} {width:.1} {height:.1}"),
    );
}

/// A chart canvas's inline style: its height, and the width it was drawn for (which print keeps
/// as its largest width: a chart drawn for a phone is not stretched to the paper's width).
pub fn canvas_style(width: f64, height: f64) -> String {
    format!("height: {height}px; --drawn-width: {width}px")
}

/// Counts draws on the canvas (`data-draws`) and records a performance mark.
pub fn count_draw(canvas: &HtmlCanvasElement, mark: &str) {
    let n = canvas
        .get_attribute("data-draws")
        .and_then(|d| d.parse::<u64>().ok())
        .unwrap_or(0);
    let _ = canvas.set_attribute("data-draws", &(n + 1).to_string());
    browser::mark(mark);
}

/// Like `use_memo`, but the value is computed in a later task, after the charts that depend on
/// the same settings have been drawn: a slider drag repaints the main chart first, and a chart
/// further down follows a moment later. Returns the newest finished value (`None` before the
/// first). When the inputs change again before a computation starts, only the newest runs.
#[hook]
pub fn use_deferred<T, D, F>(deps: D, compute: F) -> Option<Rc<T>>
where
    T: 'static,
    D: PartialEq + Clone + 'static,
    F: FnOnce(&D) -> T + 'static,
{
    let value = use_state(|| None::<Rc<T>>);
    let latest = use_mut_ref(|| 0u64);
    {
        let value = value.clone();
        use_effect_with(deps, move |deps| {
            let ticket = {
                let mut n = latest.borrow_mut();
                *n += 1;
                *n
            };
            let deps = deps.clone();
            let run = {
                let latest = latest.clone();
                Closure::once_into_js(move || {
                    if *latest.borrow() == ticket {
                        value.set(Some(Rc::new(compute(&deps))));
                    }
                })
            };
            if let Some(w) = web_sys::window() {
                let _ =
                    w.set_timeout_with_callback_and_timeout_and_arguments_0(run.unchecked_ref(), 0);
            }
            // Superseded (new inputs) or unmounted: the pending computation must not run.
            move || *latest.borrow_mut() += 1
        });
    }
    (*value).clone()
}

/// At most this many rows and columns in a data table (the CSV has everything).
pub const TABLE_ROWS: usize = 40;
pub const TABLE_COLS: usize = 12;

/// An HTML table of a matrix's top-left corner, with a caption saying how much is shown.
pub fn matrix_table(
    matrix: &dyn crate::math::matrix::Matrix,
    caption: &str,
    row_label: &dyn Fn(usize) -> String,
    col_label: &dyn Fn(usize) -> String,
) -> Html {
    let (rows, cols) = (matrix.rows().min(TABLE_ROWS), matrix.cols().min(TABLE_COLS));
    let note = if rows < matrix.rows() || cols < matrix.cols() {
        format!(
            " (the first {rows} of {} rows and {cols} of {} columns; Download CSV has them all)",
            matrix.rows(),
            matrix.cols()
        )
    } else {
        String::new()
    };
    // Whole numbers (T5's buckets, counts) are written as such, not as "17.00" beside "0".
    let whole = (0..rows).all(|r| {
        (0..cols).all(|c| {
            let v = matrix.value(r, c);
            v.fract() == 0.0 && v.abs() < 1e15
        })
    });
    let number = |v: f64| {
        if whole {
            crate::format::plain(v)
        } else {
            crate::format::significant(v, 4)
        }
    };
    html! {
        <table class="numbers">
            <caption>{ format!("{caption}{note}") }</caption>
            <thead><tr>
                <th scope="col"></th>
                { for (0..cols).map(|c| html! { <th scope="col">{ col_label(c) }</th> }) }
            </tr></thead>
            <tbody>
                { for (0..rows).map(|r| html! {
                    <tr>
                        <th scope="row">{ row_label(r) }</th>
                        { for (0..cols).map(|c| html! {
                            <td>{ number(matrix.value(r, c)) }</td>
                        }) }
                    </tr>
                }) }
            </tbody>
        </table>
    }
}

/// Milliseconds of work per slice before the browser gets the main thread back.
const SLICE_MS: f64 = 12.0;

/// The result of a [`Chunked`] job built from `deps`, with the deps it was computed for (they
/// may be older than the current ones while a large job catches up). Small jobs run inside the render, like
/// `use_memo`. Large ones run in slices of about 12 ms with the browser free in between (no
/// long task, however large the settings), and the newest finished result is returned
/// meanwhile (`None` before the first). While one job runs, only the newest request waits:
/// a slider drag gets a fresh result every few slices instead of none until it stops.
#[hook]
pub fn use_chunked<D, J, F>(deps: D, make: F) -> Option<Rc<(D, J::Output)>>
where
    D: PartialEq + Clone + 'static,
    J: Chunked,
    F: Fn(&D) -> J + 'static,
{
    let make = Rc::new(make);
    // Small jobs: computed right here.
    let quick = {
        let make = make.clone();
        use_memo(deps.clone(), move |deps| {
            let job = make(deps);
            job.is_small().then(|| Rc::new((deps.clone(), job.run())))
        })
    };
    let done = use_state(|| None::<Rc<(D, J::Output)>>);
    // The newest request not yet started, and whether a runner is working.
    let pending = use_mut_ref(|| None::<D>);
    let running = use_mut_ref(|| false);
    let alive = use_mut_ref(|| true);
    {
        let (pending, running, alive, done) = (
            pending.clone(),
            running.clone(),
            alive.clone(),
            done.clone(),
        );
        let small = quick.is_some();
        use_effect_with(deps, move |deps| {
            *alive.borrow_mut() = true;
            if !small {
                *pending.borrow_mut() = Some(deps.clone());
                if !*running.borrow() {
                    *running.borrow_mut() = true;
                    let (pending, running, alive) =
                        (pending.clone(), running.clone(), alive.clone());
                    yew::platform::spawn_local(async move {
                        loop {
                            let next = pending.borrow_mut().take();
                            let Some(deps) = next else { break };
                            let mut job = make(&deps);
                            let (len, cost) = (job.len(), job.cost().max(1));
                            // About a millisecond of work between looks at the clock.
                            let step = (1_000_000 / cost).clamp(1, len.max(1));
                            let mut at = 0;
                            while at < len {
                                let start = browser::now();
                                while at < len && browser::now() - start < SLICE_MS {
                                    let end = (at + step).min(len);
                                    job.compute(at..end);
                                    at = end;
                                }
                                if at < len {
                                    browser::next_task().await;
                                    if !*alive.borrow() {
                                        *running.borrow_mut() = false;
                                        return;
                                    }
                                }
                            }
                            // A newer request makes this result stale, but showing it keeps
                            // the chart moving during a drag.
                            done.set(Some(Rc::new((deps, job.finish()))));
                        }
                        *running.borrow_mut() = false;
                    });
                }
            }
            move || *alive.borrow_mut() = false
        });
    }
    quick.as_ref().clone().or_else(|| (*done).clone())
}
