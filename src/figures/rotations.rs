//! The rotations view's figures: each pair of the encoding at p as a point on a dial, the
//! rotation by k·ω that carries it to p + k, and the table of every pair with its error.

use crate::export::table_csv;
use crate::format::{plain, significant};
use crate::math::rotation::{apply, dial_subset, pair_error, pairs, rotation, Pair, Pairing};
use crate::math::sinusoidal::Sinusoidal;
use crate::plot::dials::{columns_for, height_for, Dial, DialsData};

crate::figure_inputs! {
    /// The encoding, the pairing, the position and the offset.
    RotationInputs {
        encoding: Sinusoidal = |s| Sinusoidal::new(s.variant, s.d_model, s.base),
        pairing: Pairing = |s| s.pairing,
        position: usize = |s| s.position,
        offset: usize = |s| s.offset,
    }
}

/// Every pair at p, rotated by k·ω, and at p + k, with the error of the rotation.
pub fn rotation_csv(s: &RotationInputs) -> String {
    let e = s.encoding;
    let (p, k) = (s.position, s.offset);
    let header = [
        "pair",
        "first_col",
        "second_col",
        "omega",
        "first_at_p",
        "second_at_p",
        "first_rotated",
        "second_rotated",
        "first_at_p_plus_k",
        "second_at_p_plus_k",
        "error",
    ]
    .map(String::from);
    let rows = pairs(&e, s.pairing)
        .into_iter()
        .enumerate()
        .map(|(i, pair)| {
            let here = values(&e, pair, p);
            let moved = apply(rotation(pair.omega, k as i64), here);
            let there = values(&e, pair, p + k);
            vec![
                i as f64,
                pair.first as f64,
                pair.second as f64,
                pair.omega,
                here[0],
                here[1],
                moved[0],
                moved[1],
                there[0],
                there[1],
                pair_error(&e, pair, p, k as i64),
            ]
        });
    table_csv(&header, rows)
}

/// Dials drawn at most (a spread from fastest to slowest when there are more pairs).
const MAX_DIALS: usize = 12;

pub fn values(e: &Sinusoidal, pair: Pair, position: usize) -> [f64; 2] {
    let p = position as f64;
    [
        e.column(pair.first).value(p),
        e.column(pair.second).value(p),
    ]
}

/// The dials for the current settings, and which pair index each shows.
pub fn dials(s: &RotationInputs, all: &[Pair], selected: usize) -> (DialsData, Vec<usize>) {
    let e = s.encoding;
    let mut shown = dial_subset(all.len(), MAX_DIALS);
    if selected < all.len() && !shown.contains(&selected) {
        shown.push(selected);
        shown.sort_unstable();
    }
    let (p, k) = (s.position, s.offset as i64);
    let dials = shown
        .iter()
        .map(|&i| {
            let pair = all[i];
            let here = values(&e, pair, p);
            Dial {
                title: format!("pair {i}: cols {}, {}", pair.first, pair.second),
                subtitle: format!(
                    "ω = {} · θ = pω = {}",
                    significant(pair.omega, 3),
                    significant(p as f64 * pair.omega, 3)
                ),
                here,
                predicted: apply(rotation(pair.omega, k), here),
                there: values(&e, pair, p + s.offset),
            }
        })
        .collect();
    let data = DialsData {
        dials,
        caption: format!(
            "Pairs at p = {p} and p + k = {} · {} · {} · d_model {} · base {}",
            p + s.offset,
            s.encoding.variant.id(),
            s.pairing.label(),
            s.encoding.d_model,
            plain(s.encoding.base)
        ),
        selected: shown.iter().position(|&i| i == selected),
    };
    (data, shown)
}

/// Dials on a narrow chart (a phone, where fewer than three columns fit): this many, spread from
/// the fastest to the slowest of those chosen (with the selected pair), so that the dials and
/// their sliders share one screen.
const NARROW_DIALS: usize = 4;

/// A narrow chart is laid out as if this wide (two columns of dials) and drawn scaled to fit.
const NARROW_LAYOUT: f64 = 272.0;

/// The dials kept on a narrow chart, and which pair each shows.
fn narrow(data: DialsData, shown: Vec<usize>) -> (DialsData, Vec<usize>) {
    let mut keep = dial_subset(data.dials.len(), NARROW_DIALS);
    if let Some(sel) = data.selected.filter(|s| !keep.contains(s)) {
        // The selected pair replaces the kept dial nearest to it.
        if let Some(nearest) = keep.iter_mut().min_by_key(|k| k.abs_diff(sel)) {
            *nearest = sel;
        }
        keep.sort_unstable();
    }
    let selected = data
        .selected
        .and_then(|sel| keep.iter().position(|&k| k == sel));
    let dials = keep.iter().map(|&k| data.dials[k].clone()).collect();
    let shown = keep.iter().map(|&k| shown[k]).collect();
    (
        DialsData {
            dials,
            selected,
            ..data
        },
        shown,
    )
}

/// The dials as drawn at a width: the data (fewer dials on a narrow chart), which pair each
/// shows, the width they are laid out for and its height, and the scale from it to the screen
/// (the same for the height, the drawing and the hit test).
#[derive(Clone, Debug, PartialEq)]
pub struct DialsAt {
    pub data: DialsData,
    pub shown: Vec<usize>,
    pub layout: f64,
    pub layout_height: f64,
    pub scale: f64,
}

impl DialsAt {
    /// The height on screen, in CSS pixels.
    pub fn height(&self) -> f64 {
        self.layout_height * self.scale
    }
}

/// The rotation view's dials for a chart `width` CSS pixels wide (0 before it is measured).
pub fn dials_at(s: &RotationInputs, all: &[Pair], selected: usize, width: f64) -> DialsAt {
    let (data, shown) = dials(s, all, selected);
    let is_narrow = width > 0.0 && columns_for(width) < 3;
    let (data, shown) = if is_narrow {
        narrow(data, shown)
    } else {
        (data, shown)
    };
    let layout = if is_narrow {
        width.max(NARROW_LAYOUT)
    } else {
        width
    };
    let scale = if layout > 0.0 { width / layout } else { 1.0 };
    let layout_height = height_for(layout, data.dials.len(), &data.caption);
    DialsAt {
        data,
        shown,
        layout,
        layout_height,
        scale,
    }
}
