//! The 2-D schemes of the Image patches view: their list, link ids and names, the settings they
//! share (the grid, the learned table's trained grid, the mixed head), and the encoding the
//! settings describe (`math::grid`). Like `kind.rs`, a floor below the settings.

use super::kind::Scheme;
use crate::limit::{GRID_COLS, GRID_HEAD, GRID_ROWS, GRID_TRAINED};
use crate::math::grid::{
    Axial, Grid, GridEncoding, Learned2d, Mixed, SinCos2d, AXIAL_THETA, MIXED_THETA,
};
use crate::mrope_config::MropeConfig;

/// A position scheme on a grid of image patches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum GridScheme {
    /// MAE/ViT's fixed 2-D sin-cos table.
    #[default]
    SinCos,
    /// ViT's learned table, and what happens when the grid grows.
    Learned,
    /// RoPE-ViT's axial 2-D RoPE.
    Axial,
    /// RoPE-ViT's mixed 2-D RoPE.
    Mixed,
}

impl GridScheme {
    pub const ALL: [GridScheme; 4] = [
        GridScheme::SinCos,
        GridScheme::Learned,
        GridScheme::Axial,
        GridScheme::Mixed,
    ];

    /// The link id.
    pub fn id(self) -> &'static str {
        self.scheme().id()
    }

    pub fn from_id(id: &str) -> Option<GridScheme> {
        GridScheme::ALL.into_iter().find(|g| g.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            GridScheme::SinCos => "2-D sin-cos (MAE, ViT)",
            GridScheme::Learned => "Learned 2-D table (ViT)",
            GridScheme::Axial => "Axial 2-D RoPE (RoPE-ViT)",
            GridScheme::Mixed => "Mixed 2-D RoPE (RoPE-ViT)",
        }
    }

    /// A short name for titles and file names.
    pub fn short(self) -> &'static str {
        match self {
            GridScheme::SinCos => "2-D sin-cos",
            GridScheme::Learned => "learned 2-D",
            GridScheme::Axial => "axial RoPE",
            GridScheme::Mixed => "mixed RoPE",
        }
    }

    pub fn is_rotary(self) -> bool {
        matches!(self, GridScheme::Axial | GridScheme::Mixed)
    }

    /// The app's scheme this is (the scheme list holds every 2-D scheme).
    pub fn scheme(self) -> Scheme {
        match self {
            GridScheme::SinCos => Scheme::VitSinCos,
            GridScheme::Learned => Scheme::VitLearned,
            GridScheme::Axial => Scheme::RopeAxial,
            GridScheme::Mixed => Scheme::RopeMixed,
        }
    }

    /// The 2-D scheme `scheme` is, if it is one.
    pub fn of(scheme: Scheme) -> Option<GridScheme> {
        GridScheme::ALL.into_iter().find(|g| g.scheme() == scheme)
    }
}

/// The head width of the three models (their `mrope_section` sums to 64 frequencies).
pub const MROPE_HEAD_DIM: usize = 128;

/// What a 2-D scheme's attention demo says: the demo's sentences are a line of words, and the
/// scheme numbers patches by row and column.
pub fn not_a_line(short: &str) -> String {
    format!(
        "{short} numbers image patches by their row and column, and the demo's sentences are a \
         line of words: the Image patches view shows what it does, patch by patch."
    )
}

/// The demo's switch text for a scheme that does not run on its sentences.
pub const SWITCH_TEXT: &str = "This scheme places image patches, not the demo's words: choose a \
                               scheme of text in the settings to see the sentences come apart.";

/// A vision-language model whose M-RoPE the view lays out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MropeModel {
    /// Qwen2-VL: chunked sections [16, 24, 24], a video's time is its frame index.
    #[default]
    Qwen2Vl,
    /// Qwen2.5-VL: the same sections, a video's time in seconds × tokens_per_second.
    Qwen25Vl,
    /// Qwen3-VL: interleaved sections [24, 20, 20], each video frame its own block.
    Qwen3Vl,
}

impl MropeModel {
    pub const ALL: [MropeModel; 3] = [
        MropeModel::Qwen2Vl,
        MropeModel::Qwen25Vl,
        MropeModel::Qwen3Vl,
    ];

    /// The link id.
    pub fn id(self) -> &'static str {
        match self {
            MropeModel::Qwen2Vl => "qwen2_vl",
            MropeModel::Qwen25Vl => "qwen2_5_vl",
            MropeModel::Qwen3Vl => "qwen3_vl",
        }
    }

    pub fn from_id(id: &str) -> Option<MropeModel> {
        MropeModel::ALL.into_iter().find(|m| m.id() == id)
    }

    pub fn label(self) -> &'static str {
        match self {
            MropeModel::Qwen2Vl => "Qwen2-VL",
            MropeModel::Qwen25Vl => "Qwen2.5-VL",
            MropeModel::Qwen3Vl => "Qwen3-VL",
        }
    }

    /// `rope_theta` of the published configs (Qwen2-VL-7B and Qwen2.5-VL-7B: 1,000,000;
    /// Qwen3-VL: 5,000,000).
    pub fn theta(self) -> f64 {
        match self {
            MropeModel::Qwen3Vl => 5_000_000.0,
            _ => 1_000_000.0,
        }
    }
}

/// What the Image patches view is set to.
#[derive(Clone, Debug, PartialEq)]
pub struct GridSettings {
    pub scheme: GridScheme,
    /// Rows and columns of patches (ViT-B/16 at 224 px: 14 × 14).
    pub rows: usize,
    pub cols: usize,
    /// The learned table's trained grid is `trained × trained`.
    pub trained: usize,
    /// Resize the learned table to the grid by bicubic interpolation (MAE's
    /// `interpolate_pos_embed`), or use it as it is, so patches past it have no vector.
    pub interpolate: bool,
    /// Mixed RoPE: the head whose angle is drawn.
    pub head: usize,
    /// The matrix CSV starts with the CLS token's row (MAE's `cls_token=True`): zeros for
    /// sin-cos, its own learned row, and no rotation (angles 0) for 2-D RoPE.
    pub cls: bool,
}

/// What the Image patches view's M-RoPE panel is set to (its image is the view's grid).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct MropeSettings {
    pub model: MropeModel,
    /// Ids as transformers 5.24 numbers them, rather than the reference `get_rope_index`.
    pub transformers_rule: bool,
    /// Frames of the video in the sequence (0: none).
    pub frames: usize,
    /// A pasted config.json, used instead of `model` (kept in the link as `mrope_config`).
    pub custom: Option<MropeConfig>,
}

impl MropeSettings {
    /// Qwen2-VL, the reference rule, a video of 3 frames.
    pub fn new() -> MropeSettings {
        MropeSettings {
            frames: 3,
            ..MropeSettings::default()
        }
    }
}

impl Default for GridSettings {
    fn default() -> Self {
        GridSettings {
            scheme: GridScheme::SinCos,
            rows: 14,
            cols: 14,
            trained: 14,
            interpolate: true,
            head: 0,
            cls: false,
        }
    }
}

impl GridSettings {
    /// Every field held to its limit (a link, a preset or a notebook may set any of them).
    pub fn settle(&mut self) {
        let fit = |v: usize, l: crate::limit::Limit| l.accept(v as f64).value as usize;
        self.rows = fit(self.rows, GRID_ROWS);
        self.cols = fit(self.cols, GRID_COLS);
        self.trained = fit(self.trained, GRID_TRAINED);
        self.head = fit(self.head, GRID_HEAD);
    }

    pub fn grid(&self) -> Grid {
        // Held to 1 … 64 by `settle`; the fallback keeps a bad value from reaching the math.
        Grid::new(self.rows, self.cols).unwrap_or(Grid { rows: 1, cols: 1 })
    }

    /// The width the 2-D schemes use: d_model rounded down to a multiple of 4 (at least 4),
    /// since each axis needs whole sine-cosine (or rotation) pairs.
    pub fn width(d_model: usize) -> usize {
        (d_model / 4 * 4).max(4)
    }

    /// The encoding these settings describe, at width `d_model` (see [`GridSettings::width`]),
    /// with the sin-cos table's `base` and the learned table's and mixed angles' `seed`.
    pub fn encoding(&self, d_model: usize, base: f64, seed: usize) -> GridEncoding {
        let (grid, width) = (self.grid(), GridSettings::width(d_model));
        let base = if base.is_finite() && base > 1.0 {
            base
        } else {
            10_000.0
        };
        let learned = || GridEncoding::Learned {
            table: Learned2d {
                d_model: width,
                trained: Grid {
                    rows: self.trained.max(1),
                    cols: self.trained.max(1),
                },
                seed: seed as u64,
            },
            grid,
            interpolate: self.interpolate,
        };
        let made = match self.scheme {
            GridScheme::SinCos => SinCos2d::new(width, grid, base).map(GridEncoding::SinCos),
            GridScheme::Learned => Ok(learned()),
            GridScheme::Axial => Axial::new(width, grid, AXIAL_THETA).map(GridEncoding::Axial),
            GridScheme::Mixed => Mixed::new(
                width,
                grid,
                MIXED_THETA,
                Mixed::head_angle(seed as u64, self.head),
            )
            .map(GridEncoding::Mixed),
        };
        // Every input above is held to its limits, so this cannot fail; the learned table needs
        // no check and is the safe answer if it ever did.
        made.unwrap_or_else(|_| learned())
    }
}
