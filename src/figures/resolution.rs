//! The Image patches view's resolution figure: the centre patch's similarity map on the trained
//! grid and on grids 2× and 4× as large, interpolated (top row) against extrapolated (bottom
//! row), and the sentence that reads the difference off those maps.

use std::rc::Rc;

use crate::export::{labelled_csv, TooLarge};
use crate::format::significant;
use crate::math::grid::{Grid, GridEncoding, MAX_SIDE};
use crate::math::matrix::Dense;
use crate::math::resolution::{sides, Resize, Trained};
use crate::plot::colormap::Palette;
use crate::plot::heatmap::{Axis, HeatmapData};
use crate::schemes::grid::{GridScheme, GridSettings};

use super::patches::similarity_scale;

crate::figure_inputs! {
    /// The scheme on its trained grid, and the colours (not the view's grid: the figure's
    /// grids are the trained one and its multiples).
    ResolutionInputs {
        scheme: GridScheme = |s| s.grid.scheme,
        trained: usize = |s| s.grid.trained,
        head: usize = |s| s.grid.head,
        d_model: usize = |s| s.d_model,
        base: f64 = |s| s.base,
        seed: usize = |s| s.learned_seed,
        palette: Palette = |s| s.palette,
    }
}

impl ResolutionInputs {
    /// The encoding on its trained grid.
    pub fn trained_encoding(&self) -> GridEncoding {
        let settings = GridSettings {
            scheme: self.scheme,
            rows: self.trained,
            cols: self.trained,
            trained: self.trained,
            interpolate: true,
            head: self.head,
            cls: false,
        };
        settings.encoding(self.d_model, self.base, self.seed)
    }
}

/// One map of the figure.
pub struct ResizedMap {
    pub how: Resize,
    pub grid: Grid,
    /// The patch the map is drawn from: the grid's centre when interpolated (the image's
    /// centre), the trained grid's centre when extrapolated (positions keep their meaning, and
    /// a learned table has nothing past its grid).
    pub from: usize,
    /// Row-major, one value per patch.
    pub values: Vec<f64>,
}

impl ResizedMap {
    /// The similarity of the patch the map is drawn from with the one `dc` columns to its
    /// right.
    pub fn right_of_centre(&self, dc: usize) -> f64 {
        let (r, c) = self.grid.cell(self.from);
        if c + dc < self.grid.cols {
            self.values[self.grid.patch(r, c + dc)]
        } else {
            f64::NAN
        }
    }

    /// Patches with no vector (NaN).
    pub fn missing(&self) -> usize {
        self.values.iter().filter(|v| v.is_nan()).count()
    }
}

/// The figure: every map, and the heatmap that lays them out.
pub struct Resolution {
    pub trained: usize,
    pub sides: Vec<usize>,
    /// Interpolated then extrapolated, each side in order.
    pub maps: Vec<ResizedMap>,
    pub figure: Rc<HeatmapData>,
    /// The side every map is drawn at (the largest).
    pub drawn: usize,
}

/// "Interpolated" or "extrapolated".
pub fn how_name(how: Resize) -> &'static str {
    match how {
        Resize::Interpolate => "interpolated",
        Resize::Extrapolate => "extrapolated",
    }
}

impl Resolution {
    pub fn map(&self, how: Resize, side: usize) -> Option<&ResizedMap> {
        self.maps
            .iter()
            .find(|m| m.how == how && m.grid.rows == side)
    }

    /// The map and patch under figure cell (row, col); `None` on the gaps between maps.
    pub fn cell(&self, row: usize, col: usize) -> Option<(&ResizedMap, usize)> {
        let s = self.drawn;
        let (band, r) = (row / (s + 1), row % (s + 1));
        let (column, c) = (col / (s + 1), col % (s + 1));
        if r == s || c == s || band > 1 {
            return None;
        }
        let how = [Resize::Interpolate, Resize::Extrapolate][band];
        let map = self.map(how, *self.sides.get(column)?)?;
        let side = map.grid.rows;
        Some((map, map.grid.patch(r * side / s, c * side / s)))
    }

    /// What the figure shows, computed from its maps: the centre's right neighbour at each
    /// size, and what extrapolation leaves without a vector.
    pub fn summary(&self, scheme: GridScheme) -> String {
        let (Some(&first), Some(&last)) = (self.sides.first(), self.sides.last()) else {
            return String::new();
        };
        let at = |how, side| {
            self.map(how, side)
                .map_or(f64::NAN, |m| m.right_of_centre(1))
        };
        let n = |v: f64| significant(v, 3);
        let factor = last as f64 / first as f64;
        if self.sides.len() < 2 {
            return format!(
                "The trained grid is {first} × {first}, the largest there is here, so there is \
                 no larger grid to show."
            );
        }
        if first < 2 {
            return "A trained grid of one patch has no neighbour to compare: try a larger one."
                .into();
        }
        let big = format!("{last} × {last}");
        let interpolated = format!(
            "Interpolated, the {big} grid maps onto the trained {first} × {first}: the centre's \
             right-hand neighbour scores {} against {} on the trained grid, because one step now \
             covers {} of a trained step.",
            n(at(Resize::Interpolate, last)),
            n(at(Resize::Interpolate, first)),
            if (factor - factor.round()).abs() < 1e-9 {
                format!("1/{}", factor.round())
            } else {
                format!("{} ", significant(1.0 / factor, 2))
            }
        );
        let extrapolated = match scheme {
            GridScheme::Learned => {
                let m = self
                    .map(Resize::Extrapolate, last)
                    .map_or(0, ResizedMap::missing);
                format!(
                    "Extrapolated, a learned table has no row past its trained grid: {m} of the \
                     {} patches have no vector at all (blank).",
                    last * last
                )
            }
            _ => format!(
                "Extrapolated, the neighbour scores {} at every size, the trained step, but \
                 {} of the {} patches sit at positions training never reached.",
                n(at(Resize::Extrapolate, last)),
                last * last - first * first,
                last * last
            ),
        };
        format!("{interpolated} {extrapolated}")
    }
}

/// The maps at 1×, 2× and 4× the trained grid (each at most 64 a side), interpolated and
/// extrapolated, from the centre patch (of the trained grid, when extrapolated), laid out two rows by up to three, each drawn at the
/// largest side (a smaller grid's cells repeated).
pub fn resolution(inputs: &ResolutionInputs) -> Resolution {
    let encoding = inputs.trained_encoding();
    let trained = Trained::new(&encoding);
    let t = encoding.grid().rows;
    let sides = sides(t, MAX_SIDE);
    let mut maps = Vec::new();
    // At the trained size both ways are the encoding itself: one map, in both bands.
    let own = Grid { rows: t, cols: t };
    let at_trained = trained.map(own, Resize::Extrapolate, own.patch(t / 2, t / 2));
    for how in [Resize::Interpolate, Resize::Extrapolate] {
        for &side in &sides {
            let grid = Grid {
                rows: side,
                cols: side,
            };
            let from = match how {
                Resize::Interpolate => grid.patch(side / 2, side / 2),
                Resize::Extrapolate => grid.patch(t / 2, t / 2),
            };
            let values = if side == t {
                at_trained.clone()
            } else {
                trained.map(grid, how, from)
            };
            maps.push(ResizedMap {
                how,
                grid,
                from,
                values,
            });
        }
    }
    let s = *sides.last().unwrap_or(&t);
    let (h, w) = (2 * s + 1, sides.len() * (s + 1) - 1);
    let mut data = vec![f64::NAN; h * w];
    for (band, how) in [Resize::Interpolate, Resize::Extrapolate]
        .iter()
        .enumerate()
    {
        for (column, &side) in sides.iter().enumerate() {
            let Some(m) = maps.iter().find(|m| m.how == *how && m.grid.rows == side) else {
                continue;
            };
            for r in 0..s {
                let row = (band * (s + 1) + r) * w + column * (s + 1);
                for c in 0..s {
                    data[row + c] = m.values[(r * side / s) * side + c * side / s];
                }
            }
        }
    }
    let x_names = {
        let mut out = Vec::new();
        for (i, &side) in sides.iter().enumerate() {
            out.extend((0..s).map(|c| (c * side / s).to_string()));
            if i + 1 < sides.len() {
                out.push(String::new());
            }
        }
        out
    };
    // Each map's first and middle column, labelled with its own column index; each
    // band's middle row, labelled with how it was resized.
    let x_marks = (0..sides.len())
        .flat_map(|i| [0, s / 2].map(|c| i * (s + 1) + c))
        .collect::<Vec<_>>();
    let y_names = {
        let mut out = vec![how_name(Resize::Interpolate).to_string(); s];
        out.push(String::new());
        out.extend(vec![how_name(Resize::Extrapolate).to_string(); s]);
        out
    };
    let sizes = match sides.as_slice() {
        [one] => format!("the {one}-side grid"),
        [rest @ .., last] => format!(
            "the {} and {last}-side grids",
            rest.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        [] => String::new(),
    };
    let figure = Rc::new(HeatmapData {
        scale: similarity_scale(inputs.palette, &data),
        matrix: Rc::new(Dense::new(h, w, data)),
        x: Axis::named(&format!("columns of {sizes}"), "column", x_names).with_marks(x_marks),
        y: Axis::named("", "map", y_names).with_marks(vec![s / 2, s + 1 + s / 2]),
        colorbar_title: "similarity".into(),
        caption: format!(
            "{}: the centre patch's similarity on the trained {t} × {t} grid and larger ones \
             (extrapolated: the trained grid's centre)",
            inputs.scheme.short()
        ),
        nouns: ("rows".into(), "columns".into()),
        rule: None,
    });
    Resolution {
        trained: t,
        sides,
        maps,
        figure,
        drawn: s,
    }
}

/// Every map as CSV: one row per patch of every map (how it was resized, the grid's side, the
/// patch's row and column, its similarity with the centre patch).
pub fn resolution_csv(r: &Resolution) -> Result<String, TooLarge> {
    let rows: usize = r.maps.iter().map(|m| m.values.len()).sum();
    let mut cells = Vec::with_capacity(rows * 4);
    let mut labels = Vec::with_capacity(rows);
    for m in &r.maps {
        for (p, v) in m.values.iter().enumerate() {
            let (row, col) = m.grid.cell(p);
            cells.extend([m.grid.rows as f64, row as f64, col as f64, *v]);
            labels.push(how_name(m.how));
        }
    }
    let names = ["side", "row", "column", "similarity"];
    labelled_csv(
        &Dense::new(rows, 4, cells),
        "resize",
        |i| labels[i].to_string(),
        |c| names[c].to_string(),
    )
}
