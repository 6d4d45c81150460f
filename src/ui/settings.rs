//! The settings sidebar: d_model, length, base, variant and palette, shared by every view.

use yew::prelude::*;

use super::controls::{Choice, NumberControl};
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::plot::colormap::Palette;
use crate::state::{Action, Settings, BASE, D_MODEL, LENGTH};

#[derive(Properties, PartialEq)]
pub struct SettingsPanelProps {
    pub settings: Settings,
    pub on_action: Callback<Action>,
}

#[function_component(SettingsPanel)]
pub fn settings_panel(props: &SettingsPanelProps) -> Html {
    let s = &props.settings;
    let act = |f: fn(f64) -> Action| {
        let cb = props.on_action.clone();
        Callback::from(move |v: f64| cb.emit(f(v)))
    };
    let on_variant = {
        let cb = props.on_action.clone();
        Callback::from(move |id: String| {
            if let Some(v) = Variant::from_id(&id) {
                cb.emit(Action::SetVariant(v));
            }
        })
    };
    let on_palette = {
        let cb = props.on_action.clone();
        Callback::from(move |id: String| {
            if let Some(p) = Palette::from_id(&id) {
                cb.emit(Action::SetPalette(p));
            }
        })
    };
    let encoding = Sinusoidal::new(s.variant, s.d_model, s.base);
    let notes: Vec<String> = [encoding.odd_column_note(), encoding.divisor_note()]
        .into_iter()
        .flatten()
        .collect();
    html! {
        <form class="settings" onsubmit={Callback::from(|e: SubmitEvent| e.prevent_default())}>
            <h2 class="settings-title">{ "Settings" }</h2>
            <NumberControl id="d-model" limit={D_MODEL} value={s.d_model as f64}
                on_change={act(Action::SetDModel)} hint="width of each vector" />
            <NumberControl id="length" limit={LENGTH} value={s.length as f64}
                on_change={act(Action::SetLength)} hint="number of positions" />
            <NumberControl id="base" limit={BASE} value={s.base}
                on_change={act(Action::SetBase)} hint="10000 in the paper" />
            <Choice
                id="variant"
                label="Formula variant"
                options={Variant::ALL.iter().map(|v| (v.id().into(), v.label().into())).collect::<Vec<_>>()}
                selected={s.variant.id()}
                on_change={on_variant}
            >
                <p class="control-help">
                    { format!("ω_i = base^(−{})", s.variant.exponent_symbol()) }
                </p>
                { for notes.into_iter().map(|n| html! { <p class="control-help">{ n }</p> }) }
            </Choice>
            <Choice
                id="palette"
                label="Colours"
                options={Palette::ALL.iter().map(|p| (p.id().into(), p.label().into())).collect::<Vec<_>>()}
                selected={s.palette.id()}
                on_change={on_palette}
            />
        </form>
    }
}
