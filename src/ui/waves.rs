//! Waves and wavelengths: chosen columns drawn as functions of position, and every pair's
//! wavelength on a logarithmic axis, from 2π up towards 2π·base.

use std::f64::consts::TAU;

use yew::prelude::*;

use super::chart::{CsvExport, Shared};
use super::controls::ListField;
use super::heatmap::Heatmap;
use super::line_chart::LineChart;
use super::props::ViewProps;
use super::schemes::SinusoidalOnly;
use super::sinusoidal_stem as file_stem;
use crate::action::Action;
use crate::export::table_csv;
use crate::figures::waves::{
    dim_label, wavelength_chart, waves_chart, WavelengthInputs, WavesInputs,
};
use crate::format::{large, plain, significant};
use crate::main_chart::{picker, PICKER};
use crate::math::sinusoidal::Sinusoidal;
use crate::state::{Limit, MAX_DIMS};

#[function_component(WavesView)]
pub fn waves_view(props: &ViewProps) -> Html {
    let s = &props.settings;
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    let dims = s.dims();
    let waves = use_memo(WavesInputs::of(s), waves_chart);
    let lambdas = use_memo(WavelengthInputs::of(s), wavelength_chart);
    let picker = use_memo((e, s.length.min(200), s.palette), |(e, l, p)| {
        picker(*e, *l, *p)
    });
    let wave_x = use_state(|| None::<f64>);
    let lambda_x = use_state(|| None::<f64>);
    let cell = use_state(|| None::<(usize, usize)>);

    let on_action = props.on_action.clone();
    let on_dims = {
        let cb = on_action.clone();
        Callback::from(move |v: Vec<f64>| {
            cb.emit(Action::SetDims(v.iter().map(|x| *x as usize).collect()))
        })
    };
    let on_pick = {
        let cb = on_action.clone();
        Callback::from(move |c: usize| cb.emit(Action::ToggleDim(c)))
    };
    let dims_text = dims
        .iter()
        .map(|d| d.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    let waves_csv: CsvExport = {
        let (settings, dims) = (s.clone(), dims.clone());
        Callback::from(move |_| {
            let e = Sinusoidal::new(settings.variant, settings.d_model, settings.base);
            let columns: Vec<_> = dims.iter().map(|&d| e.column(d)).collect();
            let mut header = vec!["position".to_string()];
            header.extend(dims.iter().map(|d| format!("dim_{d}")));
            let rows = (0..settings.length).map(|p| {
                let mut row = vec![p as f64];
                row.extend(columns.iter().map(|c| c.value(p as f64)));
                row
            });
            Ok((
                format!("{}.csv", file_stem(&settings, "waves")),
                table_csv(&header, rows),
            ))
        })
    };
    let lambda_csv: CsvExport = {
        let settings = s.clone();
        Callback::from(move |_| {
            let e = Sinusoidal::new(settings.variant, settings.d_model, settings.base);
            let header = ["pair", "omega", "wavelength"].map(String::from);
            let rows = (0..e.pair_count()).map(|i| vec![i as f64, e.omega(i), TAU / e.omega(i)]);
            Ok((
                format!("{}.csv", file_stem(&settings, "wavelengths")),
                table_csv(&header, rows),
            ))
        })
    };

    let wave_readout = wave_x.map(|x| {
        let p = x.max(0.0) as usize;
        let rows: Vec<(String, String)> = dims
            .iter()
            .map(|&d| (format!("dim {d}"), significant(e.value(p, d), 7)))
            .collect();
        (p, rows)
    });
    let lambda_readout = lambda_x.and_then(|x| {
        let i = x.round().max(0.0) as usize;
        (i < e.pair_count()).then(|| {
            let w = e.omega(i);
            let x = e.exponent(i);
            (i, w, x, TAU / w)
        })
    });
    let pairs = e.pair_count();
    let slowest = TAU / e.omega(pairs.saturating_sub(1));
    let longer = (0..pairs)
        .filter(|&i| TAU / e.omega(i) > s.length as f64)
        .count();

    html! {
        <section class="panel" aria-labelledby="waves-title">
            <header class="panel-head">
                <h2 id="waves-title">{ "Waves and wavelengths" }</h2>
                <p class="panel-lead">
                    { "Every column of the matrix is a sine or cosine of the position. Pick \
                       columns by typing their numbers or by clicking the small heatmap under \
                       the waves, and watch how much faster the left columns turn than the \
                       right ones." }
                </p>
            </header>
            <SinusoidalOnly scheme={s.scheme} on_action={props.on_action.clone()} />
            <div class="view-controls">
                <ListField id="dims" label="Dimensions" value={dims_text}
                    limit={Limit::linear("dimension", 0.0, (s.d_model - 1) as f64)}
                    max_items={MAX_DIMS} on_change={on_dims}
                    hint={format!("up to {MAX_DIMS}, 0 … {}; click a column below to add or remove it", s.d_model - 1)} />
            </div>
            <div class="panel-body">
                <LineChart
                    id="waves-chart"
                    data={Shared::new(waves)}
                    description="Line chart of the chosen columns of the encoding matrix against the position; sines solid, cosines dashed."
                    file_stem={file_stem(s, "waves")}
                    cursor={*wave_x}
                    on_x={{ let x = wave_x.clone(); Callback::from(move |v| x.set(v)) }}
                    csv={Some(waves_csv)}
                />
                <aside class="panel-side">
                    <div class="readout" aria-live="polite">
                        if let Some((p, rows)) = wave_readout {
                            <h3 class="readout-title">{ format!("position {p}") }</h3>
                            <dl class="readout-list">
                                { for rows.into_iter().map(|(k, v)| html! { <><dt>{ k }</dt><dd>{ v }</dd></> }) }
                            </dl>
                        } else {
                            <h3 class="readout-title">{ "Read one position" }</h3>
                            <p class="muted">{ "Hover over or tap the chart, or focus it and use the arrow keys." }</p>
                        }
                    </div>
                    <div class="explain">
                        <p>
                            { "A sine and its cosine partner share one frequency (the partner is the \
                               next column in the interleaved layouts and half the width away in \
                               the split ones): together they are the two coordinates of a point \
                               going round a circle, one lap every wavelength λ = 2π/ω positions." }
                        </p>
                        <ul class="dims-list">
                            { for dims.iter().map(|&d| html! {
                                <li>{ format!("{}: {} laps over these {} positions", dim_label(&e, d),
                                    laps(e.column(d).wavelength(), s.length), s.length) }</li>
                            }) }
                        </ul>
                    </div>
                </aside>
            </div>
            <div class="picker">
                <Heatmap
                    id="waves-picker"
                    data={Shared::new(picker)}
                    description="The encoding matrix; click a column (or press Enter on it) to add or remove that dimension in the waves chart."
                    file_stem={file_stem(s, "matrix")}
                    cursor={*cell}
                    on_cell={{ let cell = cell.clone(); Callback::from(move |c| cell.set(c)) }}
                    on_pick={Some(on_pick)}
                    aspect={PICKER.aspect}
                    min_height={PICKER.min}
                    max_height={PICKER.max}
                />
            </div>
            <div class="panel-body panel-body-second">
                <LineChart
                    id="wavelengths-chart"
                    data={Shared::new(lambdas)}
                    description="Wavelength of every frequency pair on a logarithmic axis, from 2π up towards 2π times the base."
                    file_stem={file_stem(s, "wavelengths")}
                    cursor={*lambda_x}
                    on_x={{ let x = lambda_x.clone(); Callback::from(move |v| x.set(v)) }}
                    csv={Some(lambda_csv)}
                />
                <aside class="panel-side">
                    <div class="readout" aria-live="polite">
                        if let Some((i, w, x, l)) = lambda_readout {
                            <h3 class="readout-title">{ format!("pair i = {i}") }</h3>
                            <dl class="readout-list">
                                <dt>{ "ω" }</dt>
                                <dd>{ format!("{}^(−{}/{}) = {}", plain(s.base), x.numerator, x.denominator, significant(w, 6)) }</dd>
                                <dt>{ "wavelength" }</dt><dd>{ format!("{} positions", significant(l, 6)) }</dd>
                            </dl>
                        } else {
                            <h3 class="readout-title">{ "Read one pair" }</h3>
                            <p class="muted">{ "Hover over or tap the chart, or focus it and use the arrow keys." }</p>
                        }
                    </div>
                    <div class="explain">
                        <p>
                            { format!("On a logarithmic axis the wavelengths lie on a straight line: \
                                each pair's wavelength is the previous one times the same factor, \
                                from 2π ≈ 6.28 to {} positions for the slowest pair.", large(slowest)) }
                        </p>
                        <p>{ longer_text(longer, pairs, s.length) }</p>
                    </div>
                </aside>
            </div>
        </section>
    }
}

/// What the pairs slower than the sequence do, in a sentence that reads right for none, one and
/// many.
fn longer_text(longer: usize, pairs: usize, length: usize) -> String {
    match longer {
        0 => format!(
            "None of the {pairs} pairs has a wavelength longer than the sequence (the line \
             labelled length): every pair completes at least one lap over these {length} \
             positions, so none of them on its own goes once from the first position to the \
             last without coming round again."
        ),
        1 => format!(
            "1 of the {pairs} pairs has a wavelength longer than the sequence (the line labelled \
             length): over these positions it never completes a lap, and its values alone tell \
             positions apart."
        ),
        n => format!(
            "{n} of the {pairs} pairs have a wavelength longer than the sequence (the line \
             labelled length): over these positions they never complete a lap, and their values \
             alone tell positions apart uniquely."
        ),
    }
}

/// How many laps a wave of this wavelength makes over `length` positions, for people.
fn laps(wavelength: f64, length: usize) -> String {
    if !wavelength.is_finite() {
        return "0 (constant)".into();
    }
    let n = (length.saturating_sub(1)) as f64 / wavelength;
    significant(n, 3)
}
