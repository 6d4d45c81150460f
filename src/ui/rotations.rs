//! Rotations: each (sin, cos) pair as a point on a dial, the rotation M_k that moves it k
//! positions on, and the live check that M_k·PE(p) = PE(p + k) for every pair.

use std::rc::Rc;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{HtmlCanvasElement, PointerEvent};
use yew::prelude::*;

use super::chart::{
    count_draw, csv_export, mark_plot, use_chart_size, use_theme, ChartTools, CsvExport,
};
use super::controls::{NumberControl, Segmented};
use super::props::ViewProps;
use super::schemes::SinusoidalOnly;
use super::sinusoidal_stem as file_stem;
use crate::action::Action;
use crate::figures::rotations::{dials_at, rotation_csv, values, DialsAt, RotationInputs};
use crate::format::significant;
use crate::math::rotation::{apply, check, pairs, rotation, Pair, Pairing};
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::plot::dials::{dial_at, draw, height_for};
use crate::plot::frame::Theme;
use crate::state::Settings;

fn stem(s: &Settings) -> String {
    format!(
        "{}_{}_p{}_k{}",
        file_stem(s, "rotations"),
        s.pairing.id(),
        s.position,
        s.offset
    )
}

#[function_component(RotationsView)]
pub fn rotations_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let all = pairs(&e, s.pairing);
    let selected = s.pair.min(all.len().saturating_sub(1));
    let playing = use_state(|| false);

    // Play: move the position on a few times a second.
    {
        let on_action = props.on_action.clone();
        use_effect_with(*playing, move |playing| {
            let mut handle = None;
            if *playing {
                let tick =
                    Closure::<dyn FnMut()>::new(move || on_action.emit(Action::StepPosition(1)));
                if let Some(w) = web_sys::window() {
                    handle = w
                        .set_interval_with_callback_and_timeout_and_arguments_0(
                            tick.as_ref().unchecked_ref(),
                            120,
                        )
                        .ok()
                        .map(|id| (id, tick));
                }
            }
            move || {
                if let (Some((id, _tick)), Some(w)) = (handle, web_sys::window()) {
                    w.clear_interval_with_handle(id);
                }
            }
        });
    }

    let on_action = props.on_action.clone();
    let act = |f: fn(f64) -> Action| super::settings::numeric(&on_action, f);
    let on_pairing = {
        let cb = on_action.clone();
        Callback::from(move |v: String| {
            if let Some(p) = Pairing::from_id(&v) {
                cb.emit(Action::SetPairing(p));
            }
        })
    };
    let on_pick = {
        let cb = on_action.clone();
        Callback::from(move |i: usize| cb.emit(Action::SetPair(i)))
    };
    let toggle_play = {
        let playing = playing.clone();
        Callback::from(move |_: MouseEvent| playing.set(!*playing))
    };

    let result = check(&e, s.pairing, s.position, s.offset as i64);
    let csv = {
        let inputs = RotationInputs::of(s);
        csv_export(stem(s), move || Ok(rotation_csv(&inputs)))
    };

    html! {
        <section class="panel" aria-labelledby="rotations-title">
            <header class="panel-head">
                <h2 id="rotations-title">{ "Rotations: the relative-position property" }</h2>
                <p class="panel-lead">
                    { "Read a sine and the cosine of the same frequency together and they are a \
                       point on a circle at angle θ = p·ω. Moving k positions on turns every point \
                       by k·ω, whatever p is, so one fixed rotation M_k per pair maps PE(p) to \
                       PE(p + k)." }
                </p>
            </header>
            <SinusoidalOnly scheme={s.scheme} on_action={props.on_action.clone()} />
            <div class="view-controls">
                <div class="control-inline">
                    <NumberControl id="position" limit={s.position_limit()} value={s.position as f64}
                        on_change={act(Action::SetPosition)} hint="the position p" />
                </div>
                <div class="control-inline">
                    <NumberControl id="offset" limit={s.offset_limit()} value={s.offset as f64}
                        on_change={act(Action::SetOffset)} hint="the offset k" />
                </div>
                <Segmented name="pairing" legend="Read as pairs"
                    options={Pairing::ALL.iter().map(|p| (p.id().into(), p.label().into())).collect::<Vec<_>>()}
                    selected={s.pairing.id()} on_change={on_pairing} />
                <button type="button" class="button button-primary" onclick={toggle_play}
                    aria-pressed={playing.to_string()}>
                    { "Play: move p" }
                </button>
            </div>
            <div class="panel-body">
                <DialsChart settings={s.clone()} pairs={Rc::new(all.clone())} selected={selected}
                    on_pick={on_pick} csv={csv} />
                <aside class="panel-side">
                    <MatrixBox settings={s.clone()} pair={all.get(selected).copied()} index={selected}
                        live={!*playing} />
                    <div class="explain">
                        <p class="callout">
                            { format!("max over {} pairs of |M_k·PE(p) − PE(p+k)| = {}",
                                result.pair_count, significant(result.max_error, 2)) }
                        </p>
                        { check_text(s, result.max_error, result.worst) }
                    </div>
                </aside>
            </div>
        </section>
    }
}

/// What the student should conclude from the check's number.
fn check_text(s: &Settings, error: f64, worst: Option<Pair>) -> Html {
    if error < 1e-9 {
        html! {
            <>
                <p>
                    { "That is rounding error: the same matrix M_k moves every pair from p to p + k. \
                       It depends on k but not on p, which is why a model can learn to attend \
                       \"k tokens back\" with one linear map." }
                </p>
                <p class="muted">
                    { "The error grows slowly with p because the angle p·ω is itself rounded to \
                       16 significant digits (about 1e-11 near p = 65,536)." }
                </p>
            </>
        }
    } else {
        let worst = worst.map_or(String::new(), |w| {
            format!(" The worst pair is columns {} and {}.", w.first, w.second)
        });
        let layout = match s.variant {
            Variant::Split | Variant::T2t => format!(
                "In the {} layout, columns 2i and 2i+1 are two sines (or two cosines) of \
                 different frequencies, so no rotation moves them along together. This variant's \
                 partners are column i and column i + {}: choose \"sine with its cosine \
                 partner\".",
                s.variant.id(),
                Sinusoidal::new(s.variant, s.d_model, s.base)
                    .partner(0)
                    .unwrap_or(s.d_model / 2)
            ),
            _ => "These columns do not share one frequency.".into(),
        };
        html! { <p>{ format!("The identity fails here.{worst} {layout}") }</p> }
    }
}

#[derive(Properties, PartialEq)]
struct MatrixBoxProps {
    settings: Settings,
    pair: Option<Pair>,
    index: usize,
    /// Announce changes to screen readers (off while Play moves p several times a second).
    live: bool,
}

/// M_k for the selected pair with its numbers, and the product next to the actual values.
#[function_component(MatrixBox)]
fn matrix_box(props: &MatrixBoxProps) -> Html {
    let s = &props.settings;
    let Some(pair) = props.pair else {
        return html! { <div class="readout"><p class="muted">{ "No complete pair at this width." }</p></div> };
    };
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let k = s.offset as i64;
    let m = rotation(pair.omega, k);
    let here = values(&e, pair, s.position);
    let moved = apply(m, here);
    let there = values(&e, pair, s.position + s.offset);
    let n = |v: f64| significant(v, 6);
    html! {
        <div class="readout" aria-live={if props.live { "polite" } else { "off" }}>
            <h3 class="readout-title">
                { format!("M_k for pair {} (k = {}, ω = {})", props.index, k, significant(pair.omega, 6)) }
            </h3>
            <div class="matrix-eq" role="img" aria-label={format!(
                "M_k equals [[cos kω, sin kω], [minus sin kω, cos kω]] = [[{}, {}], [{}, {}]]",
                n(m[0][0]), n(m[0][1]), n(m[1][0]), n(m[1][1]))}>
                <span class="matrix-name">{ "M_k =" }</span>
                <table class="matrix">
                    <tr><td>{ n(m[0][0]) }</td><td>{ n(m[0][1]) }</td></tr>
                    <tr><td>{ n(m[1][0]) }</td><td>{ n(m[1][1]) }</td></tr>
                </table>
            </div>
            <p class="muted small">{ "= [[cos kω, sin kω], [−sin kω, cos kω]]" }</p>
            <dl class="readout-list">
                <dt>{ format!("PE(p) cols {}, {}", pair.first, pair.second) }</dt>
                <dd>{ format!("({}, {})", n(here[0]), n(here[1])) }</dd>
                <dt>{ "M_k · PE(p)" }</dt>
                <dd>{ format!("({}, {})", n(moved[0]), n(moved[1])) }</dd>
                <dt>{ "PE(p + k)" }</dt>
                <dd>{ format!("({}, {})", n(there[0]), n(there[1])) }</dd>
            </dl>
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct DialsProps {
    settings: Settings,
    pairs: Rc<Vec<Pair>>,
    selected: usize,
    on_pick: Callback<usize>,
    csv: CsvExport,
}

/// The dials canvas: sized to its container, redrawn when settings change; click picks a pair.
#[function_component(DialsChart)]
fn dials_chart(props: &DialsProps) -> Html {
    let container = use_node_ref();
    let canvas = use_node_ref();
    let size = use_chart_size(container.clone());
    let theme = use_theme();
    let DialsAt {
        data,
        shown,
        layout,
        layout_height,
        scale,
    } = dials_at(
        &RotationInputs::of(&props.settings),
        &props.pairs,
        props.selected,
        size.width,
    );
    let height = layout_height * scale;
    {
        let canvas = canvas.clone();
        let data = data.clone();
        use_effect_with(
            (data, size, layout.to_bits(), theme),
            move |(data, size, layout, theme)| {
                let layout = f64::from_bits(*layout);
                if let (Some(el), true) = (canvas.cast::<HtmlCanvasElement>(), size.width > 0.0) {
                    let layout_height = height_for(layout, data.dials.len(), &data.caption);
                    let scale = size.width / layout;
                    if draw(&el, layout, layout_height, size.ratio * scale, data, theme).is_ok() {
                        // The dials fill the canvas: the whole of it is the "plot".
                        mark_plot(&el, 0.0, 0.0, size.width, layout_height * scale);
                        count_draw(&el, "dials-drawn");
                    }
                }
            },
        );
    }
    let on_pointer = {
        let (on_pick, shown, count) = (props.on_pick.clone(), shown.clone(), data.dials.len());
        let caption = data.caption.clone();
        Callback::from(move |e: PointerEvent| {
            let (x, y) = (e.offset_x() as f64 / scale, e.offset_y() as f64 / scale);
            if let Some(i) = dial_at(layout, count, &caption, x, y) {
                on_pick.emit(shown[i]);
            }
        })
    };
    let render_png = {
        let data = data.clone();
        Callback::from(move |c: HtmlCanvasElement| {
            draw(&c, layout, layout_height, 2.0, &data, &Theme::LIGHT)
        })
    };
    let style = super::chart::canvas_style(size.width, height);
    html! {
        <figure class="chart">
            <ChartTools name={data.caption.clone()} file_stem={stem(&props.settings)}
                csv={Some(props.csv.clone())} render_png={render_png} />
            <div class="chart-stage" ref={container} style={style.clone()}>
                <canvas id="rotation-dials" ref={canvas} class="chart-canvas chart-clickable"
                    style={style} role="img"
                    aria-label={format!("{}. Each dial is the unit circle; a dot marks the pair at \
                        p, a cross where the rotation M_k sends it, a ring the pair at p + k. \
                        Click a dial to show its matrix.", data.caption)}
                    onpointerdown={on_pointer} />
            </div>
            <p class="muted small chart-note">
                { format!("Showing {} of {} pairs, from the fastest to the slowest. Click a dial to \
                    choose the pair whose matrix is shown; the pair number below it picks any pair.",
                    data.dials.len(), props.pairs.len()) }
            </p>
            <PairPicker count={props.pairs.len()} selected={props.selected} on_pick={props.on_pick.clone()} />
        </figure>
    }
}

#[derive(Properties, PartialEq)]
struct PairPickerProps {
    count: usize,
    selected: usize,
    on_pick: Callback<usize>,
}

/// A number field for the pair whose matrix is shown (keyboard access to every pair).
#[function_component(PairPicker)]
fn pair_picker(props: &PairPickerProps) -> Html {
    if props.count == 0 {
        return html! {};
    }
    let on_pick = props.on_pick.clone();
    html! {
        <super::controls::NumberControl
            id="pair"
            limit={crate::state::Limit::linear("pair", 0.0, (props.count - 1) as f64)}
            value={props.selected as f64}
            on_change={Callback::from(move |v: f64| on_pick.emit(v as usize))}
            hint="the pair whose matrix is shown" />
    }
}
