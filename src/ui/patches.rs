//! The Image patches view: a vision transformer's positions on a grid of patches. The ViT
//! similarity figure (one small map per patch), one patch's map large with its numbers, and the
//! score by 2-D offset, for MAE's 2-D sin-cos, ViT's learned table, and RoPE-ViT's axial and
//! mixed 2-D RoPE.

use std::rc::Rc;

use yew::prelude::*;

use super::chart::{csv_export, Later, Shared};
use super::code::CodeSection;
use super::controls::{options, Choice, NumberControl, Segmented, Toggle};
use super::heatmap::Heatmap;
use super::line_chart::LineChart;
use super::props::ViewProps;
use crate::action::Action;
use crate::figures::mrope::{mrope_figure, MropeInputs, TEXT_RUN};
use crate::figures::patches::{
    encoding_csv, map_csv, offset_map, patch_map, patches, random_query, snippet, PatchInputs,
};
use crate::figures::resolution::{how_name, resolution, resolution_csv, ResolutionInputs};
use crate::format::significant;
use crate::limit::{FRAMES, GRID_COLS, GRID_HEAD, GRID_ROWS, GRID_TRAINED};
use crate::main_chart::PATCHES;
use crate::math::grid::{AXIAL_THETA, MIXED_THETA};
use crate::math::mrope::Layout;
use crate::mrope_config::MropeConfig;
use crate::schemes::grid::{GridScheme, GridSettings, MropeModel};
use crate::schemes::Scheme;
use crate::snippets::Library;

/// What each scheme's similarity map shows, in a sentence or two.
fn explanation(
    scheme: GridScheme,
    interpolate: bool,
    trained: usize,
    rows: usize,
    cols: usize,
) -> String {
    match scheme {
        GridScheme::SinCos => {
            "Half of each vector encodes the patch's column and half its row, so \
            the similarity of two patches is the mean of a column term and a row term. A patch \
            in the same row has a row term of 1, the largest there is: that is why each map is a \
            cross through its patch. (MAE's code names the column half emb_h: its meshgrid puts \
            the column first.)"
                .into()
        }
        GridScheme::Learned => {
            let grown = rows > trained || cols > trained;
            let how = if !grown {
                "Untrained, the table is noise: every patch is alike only to itself. Training is \
                 what gives ViT's maps their rows and columns."
                    .to_string()
            } else if interpolate {
                format!(
                    "The grid is larger than the {trained} × {trained} the table was trained on, \
                     so it is resized by bicubic interpolation (MAE's interpolate_pos_embed, \
                     each axis by its own scale): neighbours now share the blurred value of \
                     the same trained cell, and each map shows a bright blob around its patch."
                )
            } else {
                format!(
                    "The grid is larger than the {trained} × {trained} the table was trained \
                     on, and without interpolation the patches past it have no vector at all: \
                     they are blank."
                )
            };
            format!("ViT's table starts as N(0, 0.02²) noise, drawn here from the seed. {how}")
        }
        GridScheme::Axial => format!(
            "Axial RoPE turns the first half of each head's pairs by the patch's column and the \
             second half by its row (θ = {AXIAL_THETA}), so a query and key of ones score the \
             mean of a column term and a row term: a cross again, now in the attention score \
             itself, and only the offset matters."
        ),
        GridScheme::Mixed => format!(
            "Mixed RoPE turns every pair by a mix of column and row, along a direction drawn for \
             each head (θ = {MIXED_THETA}): the first half along the head's angle, the second at \
             right angles to it. Diagonal offsets get their own frequencies, which axial RoPE \
             cannot give. The paper learns these frequencies; here they keep their initial \
             values."
        ),
    }
}

#[function_component(PatchesView)]
pub fn patches_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let inputs = PatchInputs::of(s);
    let figure = use_memo(inputs.clone(), patches);
    let g = figure.similarity.grid();
    let centre = g.patch(g.rows / 2, g.cols / 2);
    let selected = use_state(|| None::<usize>);
    let picked = selected.filter(|p| *p < g.patches()).unwrap_or(centre);
    let figure_cell = use_state(|| None::<(usize, usize)>);
    let map_cell = use_state(|| None::<(usize, usize)>);
    let random = use_state(|| false);
    let map = use_memo((inputs.clone(), picked), {
        let sim = figure.similarity.clone();
        move |(i, p)| patch_map(&sim, *p, i.palette)
    });
    let rotary = inputs.grid.scheme.is_rotary();
    let random_map = use_memo((inputs.clone(), *random && rotary), {
        let (e, sim) = (figure.encoding.clone(), figure.similarity.clone());
        move |(i, on)| {
            on.then(|| {
                let q = random_query(i.width(), i.seed);
                offset_map(&e, &sim, Some(&q), i.palette)
            })
        }
    });
    let offsets = (*random_map)
        .clone()
        .unwrap_or_else(|| figure.offsets.clone());

    let act = |f: fn(f64) -> Action| {
        let cb = props.on_action.clone();
        Callback::from(move |v: f64| cb.emit(f(v)))
    };
    let on_scheme = {
        let cb = props.on_action.clone();
        Callback::from(move |id: String| {
            if let Some(g) = GridScheme::from_id(&id) {
                cb.emit(Action::SetGridScheme(g))
            }
        })
    };
    let on_interpolate = {
        let cb = props.on_action.clone();
        Callback::from(move |v: bool| cb.emit(Action::SetGridInterpolate(v)))
    };
    let on_cls = {
        let cb = props.on_action.clone();
        Callback::from(move |v: bool| cb.emit(Action::SetGridCls(v)))
    };
    let on_figure_cell = {
        let (cell, selected, fig) = (figure_cell.clone(), selected.clone(), figure.clone());
        Callback::from(move |c: Option<(usize, usize)>| {
            cell.set(c);
            if let Some((source, _)) = c.and_then(|(r, col)| fig.cell(r, col)) {
                selected.set(Some(source));
            }
        })
    };
    let on_map_cell = {
        let cell = map_cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let on_query = {
        let random = random.clone();
        Callback::from(move |v: String| random.set(v == "random"))
    };

    let scheme = inputs.grid.scheme;
    let width = inputs.width();
    let stem = |what: &str| format!("{}_{}x{}_d{}_{what}", scheme.id(), g.rows, g.cols, width);
    let encoding_export = {
        let (e, cls) = (figure.encoding.clone(), inputs.grid.cls);
        csv_export(stem(if rotary { "angles" } else { "vectors" }), move || {
            encoding_csv(&e, cls).map_err(|e| e.message())
        })
    };
    let map_export = {
        let m = map.clone();
        csv_export(stem(&format!("patch{picked}_similarity")), move || {
            map_csv(&m, "row").map_err(|e| e.message())
        })
    };
    let offset_export = {
        let m = offsets.clone();
        csv_export(stem("by_offset"), move || {
            map_csv(&m, "dy").map_err(|e| e.message())
        })
    };

    let (pr, pc) = g.cell(picked);
    let figure_reading = figure_cell
        .and_then(|(r, c)| figure.cell(r, c))
        .map(|(a, b)| {
            let ((ar, ac), (br, bc)) = (g.cell(a), g.cell(b));
            format!(
                "Patch (row {ar}, column {ac}) against patch (row {br}, column {bc}): {}",
                significant(figure.similarity.between(a, b), 4)
            )
        });
    let map_reading = map_cell
        .filter(|(r, c)| *r < g.rows && *c < g.cols)
        .map(|(r, c)| {
            format!(
                "Row {r}, column {c}: similarity {} with patch (row {pr}, column {pc})",
                significant(figure.similarity.between(picked, g.patch(r, c)), 4)
            )
        });
    let fitted = (width != s.d_model).then(|| {
        format!(
            "d_model {} is used as {width}: each axis needs whole pairs, so the width is a \
             multiple of 4.",
            s.d_model
        )
    });
    let what = if rotary {
        "the score of a query and key of ones, over its value at offset 0"
    } else {
        "the cosine similarity of the two position vectors"
    };

    html! {
        <>
        <section class="panel" aria-labelledby="patches-title">
            <header class="panel-head">
                <h2 id="patches-title">{ "Image patches: positions in 2-D" }</h2>
                { mrope_pointer(s.scheme) }
                <p class="panel-lead">
                    { format!("A vision transformer cuts an image into a grid of patches and reads \
                       them row by row. Each small map below is one patch: its colour at every \
                       other patch is {what} (1 at the patch itself; the colour bar gives the numbers).") }
                </p>
            </header>
            <div class="patch-controls">
                <Choice id="grid-scheme" label="2-D scheme"
                    options={options(&GridScheme::ALL, GridScheme::id, GridScheme::label)}
                    selected={scheme.id()} on_change={on_scheme} />
                <NumberControl id="grid-rows" limit={GRID_ROWS} value={g.rows as f64}
                    on_change={act(Action::SetGridRows)} hint="patches down the image (224 px in 16-px patches: 14)" />
                <NumberControl id="grid-cols" limit={GRID_COLS} value={g.cols as f64}
                    on_change={act(Action::SetGridCols)} hint="patches across" />
                if scheme == GridScheme::Learned {
                    <NumberControl id="grid-trained" limit={GRID_TRAINED} value={inputs.grid.trained as f64}
                        on_change={act(Action::SetGridTrained)} hint="the square grid the table was trained on" />
                    <Toggle id="grid-interpolate" label="Resize the table by bicubic interpolation (MAE)"
                        checked={inputs.grid.interpolate} on_change={on_interpolate} />
                }
                if scheme == GridScheme::Mixed {
                    <NumberControl id="grid-head" limit={GRID_HEAD} value={inputs.grid.head as f64}
                        on_change={act(Action::SetGridHead)} hint="each head draws its own direction" />
                }
                <Toggle id="grid-cls" label="Start the CSV with the CLS token's row"
                    checked={inputs.grid.cls} on_change={on_cls} />
            </div>
            <div class="panel-body">
                <div class="panel-main">
                    <Heatmap
                        id="patches-chart"
                        data={Shared::new(figure.figure.clone())}
                        description={format!(
                            "Grid of {} small heatmaps, one per patch of a {} by {} grid: each shows \
                             that patch's similarity with every patch under {}.",
                            figure.tile_rows.len() * figure.tile_cols.len(), g.rows, g.cols, scheme.label())}
                        file_stem={stem("similarity_figure")}
                        cursor={*figure_cell}
                        on_cell={on_figure_cell}
                        csv={Some(encoding_export)}
                        aspect={PATCHES.aspect}
                        min_height={PATCHES.min}
                        max_height={PATCHES.max}
                    />
                    <p class="readout-line" aria-live="polite">
                        { figure_reading.unwrap_or_else(|| "Hover, tap or use the arrow keys on a small map to read it large below.".into()) }
                    </p>
                </div>
                <aside class="panel-side">
                    <div class="explain">
                        <p>{ explanation(scheme, inputs.grid.interpolate, inputs.grid.trained, g.rows, g.cols) }</p>
                        if let Some(f) = fitted { <p class="muted small">{ f }</p> }
                    </div>
                    <div class="patch-large">
                    <h3 class="section-title">{ format!("Patch (row {pr}, column {pc}), large") }</h3>
                    <Heatmap
                        id="patch-map"
                        data={Shared::new((*map).clone())}
                        description={format!("Heatmap of patch row {pr}, column {pc}'s similarity with every patch of the grid.")}
                        file_stem={stem(&format!("patch{picked}_similarity"))}
                        cursor={*map_cell}
                        on_cell={on_map_cell}
                        csv={Some(map_export)}
                        aspect={g.rows as f64 / g.cols as f64}
                        min_height={160.0}
                        max_height={360.0}
                    />
                    <p class="readout-line" aria-live="polite">
                        { map_reading.unwrap_or_else(|| "Hover or tap a cell for its number.".into()) }
                    </p>
                    </div>
                </aside>
            </div>
            <div class="panel-body">
                <div class="panel-main">
                    <h3 class="section-title">{ "Score by 2-D offset" }</h3>
                    if rotary {
                        <Segmented name="patch-query" legend="Query and key"
                            options={vec![("ones".into(), "q = k = 1".into()), ("random".into(), "random q = k (seeded)".into())]}
                            selected={if *random { "random" } else { "ones" }} on_change={on_query} />
                    }
                    <Heatmap
                        id="patch-offsets"
                        data={Shared::new(offsets.clone())}
                        description="Heatmap of the score against the 2-D offset between query and key patches: Δx across, Δy down, offset 0 in the middle."
                        file_stem={stem("by_offset")}
                        csv={Some(offset_export)}
                        show_value={true}
                        aspect={(2 * g.rows - 1) as f64 / (2 * g.cols - 1) as f64}
                        min_height={200.0}
                        max_height={420.0}
                    />
                </div>
                <aside class="panel-side">
                    <p class="explain">
                        { match (scheme, *random) {
                            (GridScheme::Mixed, _) => "Which directions can the scheme tell apart? Mixed RoPE's bands run along its head's angle, so diagonal offsets score differently from straight ones.",
                            (GridScheme::Axial, false) => "Axial RoPE's score is a column term plus a row term: the map is a cross, and offsets along a diagonal are told apart only through their two axes.",
                            (GridScheme::Axial, true) => "A random query weighs the pairs unevenly, so the cross is lopsided, but still made of a column term and a row term.",
                            (GridScheme::SinCos, _) => "Added to the input, the sin-cos table's dot product depends only on the offset: the same cross, the same for every patch.",
                            (GridScheme::Learned, _) => "A learned table has no one value per offset: this is the mean over patches spread across the grid. Untrained, only offset 0 stands out.",
                        } }
                    </p>
                    <p class="muted small">
                        { format!("Width {width} ({} pairs per axis). The CSV of the first chart holds {}{}.",
                            width / 4,
                            if rotary { "each patch's rotation angles in radians, one column per pair" }
                            else { "each patch's position vector, one row per patch in row-major order" },
                            match (inputs.grid.cls, rotary) {
                                (false, _) => "",
                                (true, true) => ", after the CLS token's row of zeros (RoPE-ViT does not turn it)",
                                (true, false) if scheme == GridScheme::Learned => ", after the CLS token's own row (resizing keeps it as it is)",
                                (true, false) => ", after the CLS token's row of zeros (MAE's cls_token=True)",
                            }) }
                    </p>
                </aside>
            </div>
            // Its maps on grids up to 4× the trained one take longest of this view: computed
            // once the section comes near the screen or the page is idle. Its place meanwhile is
            // as tall as the section (measured: 1,096 px at 390 px wide, 685 px at 1,400).
            <Later min_height="max(43rem, calc(1255px - 40.7vw))">
                <Resolution settings={props.settings.clone()} on_action={props.on_action.clone()} />
            </Later>
        </section>
        <PatchCode inputs={inputs.clone()} />
        <MropePanel settings={props.settings.clone()} on_action={props.on_action.clone()} />
        </>
    }
}

/// When M-RoPE is the scheme chosen in the settings: where on this page it is drawn (its section
/// follows the ViT figures), with a button that goes there.
fn mrope_pointer(scheme: Scheme) -> Html {
    if scheme != Scheme::Mrope {
        return html! {};
    }
    let go = Callback::from(|_: MouseEvent| {
        if let Some(e) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id("mrope-title"))
        {
            e.scroll_into_view();
        }
        super::browser::focus_later("mrope-title".into());
    });
    html! {
        <p class="panel-lead">
            { "M-RoPE, the scheme in the settings, has its own section below the ViT figures: \
               its time, height and width sections and the ids of a text–image–video sequence. " }
            <button type="button" class="button button-small" onclick={go}>{ "Go to M-RoPE" }</button>
        </p>
    }
}

/// What each scheme does on a grid larger than the one it was trained on, in a sentence.
fn resolution_explanation(scheme: GridScheme) -> &'static str {
    match scheme {
        GridScheme::SinCos => {
            "Interpolated, MAE's interpolate_pos_embed resizes the trained \
            table by bicubic interpolation, as it does for fine-tuning at a higher resolution. \
            Extrapolated, the formula gives every new position a vector of its own."
        }
        GridScheme::Learned => {
            "Interpolated, MAE's interpolate_pos_embed resizes the trained \
            table by bicubic interpolation. A learned table has no formula to extrapolate: past \
            its grid there is nothing."
        }
        GridScheme::Axial | GridScheme::Mixed => {
            "Interpolated, positions are scaled by trained \
            / new, as EVA-02's VisionRotaryEmbeddingFast scales them. Extrapolated, RoPE-ViT \
            computes its angles for the new grid: the same frequencies at positions it never \
            trained on."
        }
    }
}

/// The same scheme on its trained grid and on grids 2× and 4× as large: interpolated against
/// extrapolated.
#[function_component(Resolution)]
fn resolution_section(props: &ViewProps) -> Html {
    let inputs = ResolutionInputs::of(&props.settings);
    let figure = use_memo(inputs.clone(), resolution);
    let cell = use_state(|| None::<(usize, usize)>);
    let on_cell = {
        let cell = cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let on_trained = {
        let cb = props.on_action.clone();
        Callback::from(move |v: f64| cb.emit(Action::SetGridTrained(v)))
    };
    let scheme = inputs.scheme;
    let t = figure.trained;
    let stem = format!(
        "{}_trained{t}_d{}_resolution",
        scheme.id(),
        GridSettings::width(inputs.d_model)
    );
    let export = {
        let f = figure.clone();
        csv_export(stem.clone(), move || {
            resolution_csv(&f).map_err(|e| e.message())
        })
    };
    let reading = cell.and_then(|(r, c)| figure.cell(r, c)).map(|(m, p)| {
        let (pr, pc) = m.grid.cell(p);
        let (fr, fc) = m.grid.cell(m.from);
        format!(
            "{} × {} grid, {}: patch (row {pr}, column {pc}) against patch (row {fr}, column {fc}): {}",
            m.grid.rows, m.grid.cols, how_name(m.how), significant(m.values[p], 4)
        )
    });
    let sizes = figure
        .sides
        .iter()
        .map(|s| format!("{s} × {s}"))
        .collect::<Vec<_>>()
        .join(", ");
    html! {
        <div class="panel-body resolution">
            <div class="panel-main">
                <h3 class="section-title">{ "At a higher resolution: interpolate or extrapolate?" }</h3>
                <NumberControl id="resolution-trained" limit={GRID_TRAINED} value={t as f64}
                    on_change={on_trained} hint="the square grid the model was trained on" />
                <Heatmap
                    id="patch-resolution"
                    data={Shared::new(figure.figure.clone())}
                    description={format!(
                        "{} small heatmaps in two rows: the centre patch's similarity on grids of \
                         {sizes} under {}, interpolated in the top row and extrapolated in the bottom row.",
                        2 * figure.sides.len(), scheme.label())}
                    file_stem={stem}
                    cursor={*cell}
                    on_cell={on_cell}
                    csv={Some(export)}
                    aspect={2.0 / figure.sides.len() as f64}
                    min_height={300.0}
                    max_height={520.0}
                />
                <p class="readout-line" aria-live="polite">
                    { reading.unwrap_or_else(|| "Hover, tap or use the arrow keys on a map for its number.".into()) }
                </p>
            </div>
            <aside class="panel-side">
                <p class="explain">{ resolution_explanation(scheme) }</p>
                <p class="explain">{ figure.summary(scheme) }</p>
            </aside>
        </div>
    }
}

/// M-RoPE: how a vision-language model numbers text, an image and a video in one sequence,
/// and which frequencies each of the three ids turns.
#[function_component(MropePanel)]
fn mrope_panel(props: &ViewProps) -> Html {
    let s = &props.settings;
    let inputs = MropeInputs::of(s);
    // A pasted config is a setting (kept in the link as `mrope_config`).
    let custom = s.mrope.custom.clone();
    let message = use_state(|| None::<(bool, String)>);
    {
        // Back on the model list (a model picked, or the config cleared): no sentence of a paste.
        let message = message.clone();
        use_effect_with(custom.is_some(), move |pasted| {
            if !*pasted {
                message.set(None);
            }
        });
    }
    let area = use_node_ref();
    let figure = use_memo(inputs.clone(), |i| {
        mrope_figure(i, i.mrope.custom.as_ref()).map(Rc::new)
    });
    let on_apply = {
        let (cb, message, area) = (props.on_action.clone(), message.clone(), area.clone());
        Callback::from(move |_: MouseEvent| {
            let Some(text) = area
                .cast::<web_sys::HtmlTextAreaElement>()
                .map(|a| a.value())
            else {
                return;
            };
            match MropeConfig::from_json(&text) {
                Ok(c) => {
                    message.set(Some((true, c.report())));
                    cb.emit(Action::SetMropeConfig(Some(Box::new(c))));
                }
                Err(e) => message.set(Some((false, format!("{e} Nothing was changed.")))),
            }
        })
    };
    let on_clear = {
        let (cb, message) = (props.on_action.clone(), message.clone());
        Callback::from(move |_: MouseEvent| {
            cb.emit(Action::SetMropeConfig(None));
            message.set(None);
        })
    };
    // What is in use: the last paste's sentence, or (opened from a link) the config's own.
    let said = match (&*message, &custom) {
        (Some(m), _) => Some(m.clone()),
        (None, Some(c)) => Some((true, c.report())),
        (None, None) => None,
    };
    let paste = html! {
        <details class="control rope-paste mrope-paste" open={custom.is_some()}>
            <summary>{ "Paste a Qwen2-VL, Qwen2.5-VL or Qwen3-VL config.json" }</summary>
            <label for="mrope-config" class="control-label">{ "config.json" }</label>
            <textarea id="mrope-config" ref={area} rows="6" spellcheck="false" autocomplete="off"
                maxlength={crate::rope_config::MAX_TEXT.to_string()} class="rope-config-text"
                placeholder={r#"{"model_type": "qwen2_vl", "rope_scaling": {"mrope_section": [16, 24, 24]}, ...}"#} />
            <div class="code-tools">
                <button type="button" class="button" onclick={on_apply}>{ "Apply" }</button>
                if custom.is_some() {
                    <button type="button" class="button" onclick={on_clear}>{ "Back to the model list" }</button>
                }
            </div>
            <p class={classes!("note", if said.as_ref().is_some_and(|m| !m.0) { "note-error" } else { "note-info" })}
                role="status" aria-live="polite" id="mrope-config-note">
                { said.as_ref().map(|m| m.1.clone()).unwrap_or_default() }
                { match (&custom, &said) {
                    (Some(_), Some((true, _))) => " The pasted config is kept in the link; picking a model from the list replaces it.".to_string(),
                    (Some(c), _) => format!(" In use: {}'s pasted config, kept in the link.", c.model),
                    _ => String::new(),
                } }
            </p>
        </details>
    };
    let cursor = use_state(|| None::<f64>);
    let show_sin = use_state(|| false);
    let on_table = {
        let show_sin = show_sin.clone();
        Callback::from(move |v: String| show_sin.set(v == "sin"))
    };
    let table_cell = use_state(|| None::<(usize, usize)>);
    let on_table_cell = {
        let cell = table_cell.clone();
        Callback::from(move |c| cell.set(c))
    };
    let on_model = {
        let cb = props.on_action.clone();
        Callback::from(move |id: String| {
            if let Some(m) = MropeModel::from_id(&id) {
                cb.emit(Action::SetMropeModel(m))
            }
        })
    };
    let on_rule = {
        let cb = props.on_action.clone();
        Callback::from(move |v: String| cb.emit(Action::SetMropeRule(v == "transformers")))
    };
    let on_frames = {
        let cb = props.on_action.clone();
        Callback::from(move |v: f64| cb.emit(Action::SetFrames(v)))
    };
    let m = &inputs.mrope;
    let (r, c) = inputs.merged;
    // Qwen3-VL (or a pasted Qwen3-VL config) splits a video into one block per frame.
    let per_frame = match &m.custom {
        Some(c) => c.model.starts_with("qwen3"),
        None => m.model == MropeModel::Qwen3Vl,
    };
    let controls = html! {
        <div class="patch-controls">
            <Choice id="mrope-model" label="Model"
                options={options(&MropeModel::ALL, MropeModel::id, MropeModel::label)}
                selected={m.model.id()} on_change={on_model} />
            <NumberControl id="mrope-frames" limit={FRAMES} value={m.frames as f64}
                on_change={on_frames} hint="frames of the video (0: no video)" />
            { paste }
            <Segmented name="mrope-rule" legend="Ids as numbered by"
                options={vec![("reference".into(), "the reference code".into()), ("transformers".into(), "transformers 5.24".into())]}
                selected={if m.transformers_rule { "transformers" } else { "reference" }} on_change={on_rule} />
        </div>
    };
    let body = match &*figure {
        Err(e) => {
            html! { <p class="note error" role="alert">{ format!("This sequence cannot be laid out: {e}") }</p> }
        }
        Ok(f) => {
            let model = m.custom.as_ref().map_or(m.model.id(), |c| c.model.as_str());
            let stem = format!("{}_{}x{}_f{}", model.replace(' ', "_"), r, c, m.frames);
            let ids_export = {
                let text = f.csv.clone();
                csv_export(format!("{stem}_ids"), move || Ok(text.clone()))
            };
            let table_export = {
                let data = if *show_sin {
                    f.sin.clone()
                } else {
                    f.cos.clone()
                };
                let name = format!("{stem}_{}", if *show_sin { "sin" } else { "cos" });
                csv_export(name, move || {
                    map_csv(&data, "token").map_err(|e| e.message())
                })
            };
            let section = f.mrope.section();
            let layout = match f.mrope.layout() {
                Layout::Chunked => format!(
                    "in three blocks: frequencies 0–{} follow T, {}–{} H and {}–{} W (mrope_section {:?})",
                    section[0] - 1, section[0], section[0] + section[1] - 1,
                    section[0] + section[1], f.mrope.pair_count() - 1, section),
                Layout::Interleaved => format!(
                    "interleaved T, H, W, T, H, W, … and the last {} all T (mrope_section {:?}), so each \
                     axis gets fast and slow frequencies alike",
                    f.mrope.pair_count() - 3 * section[1].min(section[2]), section),
            };
            let seams = &f.seams;
            let overlap = seams.next_transformers <= seams.vision_last_t;
            let side = r.max(c);
            let seam_text = if m.frames > 0 && seams.next_reference == seams.next_transformers {
                format!("Both rules start the closing text at t = {}. transformers 5.24 moves on by \
                         the block's larger side ({side} tokens) where the reference moves past the \
                         block's largest id; the two part when the video's time ids run past its \
                         side: more frames, or a smaller grid.", seams.next_reference)
            } else if m.frames == 0 {
                format!(
                    "With no video, both rules start the closing text at t = {}: for an image \
                         they agree.",
                    seams.next_reference
                )
            } else {
                format!("The vision tokens reach t = {}. The reference code starts the closing text at \
                         t = {} (past every id the blocks hold); transformers 5.24 starts it at t = {}{}.",
                    seams.vision_last_t, seams.next_reference, seams.next_transformers,
                    if overlap { ", so text reuses time ids the video holds" } else { "" })
            };
            html! {
                <>
                    <LineChart
                        id="mrope-ids"
                        data={Shared::new(f.chart.clone())}
                        description={format!("Line chart of the t, h and w position ids of each of the {} tokens of the sequence.", f.ids.len())}
                        file_stem={format!("{stem}_ids")}
                        cursor={*cursor}
                        on_x={{ let c = cursor.clone(); Callback::from(move |v| c.set(v)) }}
                        csv={Some(ids_export)}
                    />
                    <p class="explain">{ seam_text }</p>
                    <h3 class="section-title">{ "Which id each frequency follows" }</h3>
                    <ol class="mrope-bands" aria-label={format!("The {} frequencies of a head and the axis each follows", f.mrope.pair_count())}>
                        { for f.mrope.axes().iter().enumerate().map(|(j, a)| html! {
                            <li class={classes!("band", format!("band-{}", a.letter().to_lowercase()))}
                                title={format!("frequency {j}: {}", a.letter())}>{ a.letter() }</li>
                        }) }
                    </ol>
                    <p class="explain">{ format!("{} splits the {} frequencies of a {}-wide head {layout}. \
                        Text has t = h = w, so for text alone every frequency turns by the same position: \
                        plain 1-D RoPE.", m.custom.as_ref().map_or(m.model.label(), |c| c.model.as_str()),
                        f.mrope.pair_count(), f.mrope.head_dim()) }</p>
                    <h3 class="section-title">{ "What rotates each token's query and key" }</h3>
                    <Segmented name="mrope-table" legend="Table"
                        options={vec![("cos".into(), "cos".into()), ("sin".into(), "sin".into())]}
                        selected={if *show_sin { "sin" } else { "cos" }} on_change={on_table} />
                    <Heatmap
                        id="mrope-cos"
                        data={Shared::new(if *show_sin { f.sin.clone() } else { f.cos.clone() })}
                        description={format!("Heatmap of the {} of every token's rotation angle at every frequency: rows are tokens, columns frequencies.", if *show_sin { "sine" } else { "cosine" })}
                        file_stem={format!("{stem}_{}", if *show_sin { "sin" } else { "cos" })}
                        cursor={*table_cell}
                        on_cell={on_table_cell}
                        csv={Some(table_export)}
                        min_height={220.0}
                        max_height={480.0}
                    />
                    <p class="readout-line" aria-live="polite">
                        { table_cell.and_then(|(token, j)| {
                            let id = f.ids.get(token)?;
                            let a = f.angle(token, j)?;
                            Some(format!(
                                "Token {token} ({}, t = {}, h = {}, w = {}), frequency {j} ({}): angle {} rad, cos {}, sin {}. \
                                 Its query and key become q·cos + rotate_half(q)·sin.",
                                id.kind.id(), id.t, id.h, id.w, f.mrope.axis_of(j).letter(),
                                significant(a, 6), significant(a.cos(), 6), significant(a.sin(), 6)))
                        }).unwrap_or_else(|| "Hover, tap or use the arrow keys on the table for a token's angle, cos and sin.".into()) }
                    </p>
                </>
            }
        }
    };
    html! {
        <section class="panel" aria-labelledby="mrope-title">
            <header class="panel-head">
                <h2 id="mrope-title" tabindex="-1">{ "Images and video in a language model: M-RoPE" }</h2>
                <p class="panel-lead">
                    { format!("Qwen's vision-language models give every token three ids, time, \
                       height and width, and split each head's frequencies between them. The \
                       sequence here: {TEXT_RUN} text tokens, an image of {} × {} patches (merged \
                       2 × 2 into {r} × {c} tokens), a video of {} frames of the same size, and \
                       {TEXT_RUN} more text tokens.", 2 * r, 2 * c, m.frames) }
                </p>
                if per_frame && m.frames > 0 {
                    <p class="panel-lead">
                        { "Qwen3-VL gives each frame a block of its own and writes the frame's time \
                           as text before it (\"<0.5 seconds>\", between the previous frame's \
                           <|vision_end|> and this frame's <|vision_start|>). Those text tokens \
                           move every later id on by their count, which depends on the tokenizer: \
                           this view leaves them out, so here each frame starts right after the \
                           previous one." }
                    </p>
                }
            </header>
            { controls }
            { body }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct PatchCodeProps {
    inputs: PatchInputs,
}

/// The NumPy or PyTorch code that rebuilds the first chart's CSV.
#[function_component(PatchCode)]
fn patch_code(props: &PatchCodeProps) -> Html {
    let library = use_state(|| Library::NumPy);
    let code = use_memo((props.inputs.clone(), *library), |(inputs, library)| {
        snippet(inputs, *library)
    });
    html! {
        <CodeSection title="The same numbers in your own code" code={(*code).clone()}
            lead="This code rebuilds the first chart's CSV with the current settings, computed \
                  as the reference code computes it; its matrix has one row per patch. The \
                  app's test suite runs the NumPy version and checks it against the CSV; the \
                  PyTorch version (F.interpolate itself for the learned table) is checked by \
                  scripts/check_torch.py, where PyTorch is installed.">
            { super::code::library_switch("patch-code-library", &library) }
        </CodeSection>
    }
}
