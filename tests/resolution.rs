//! Native tests of a 2-D encoding used on a grid larger than the one it was trained on
//! (`math::resolution`, `figures::resolution`): MAE's `interpolate_pos_embed` (bicubic,
//! facebookresearch/mae `util/pos_embed.py`, commit a9f5c70) against extrapolation, and RoPE
//! positions scaled as EVA-02's `VisionRotaryEmbeddingFast` scales them (baaivision/EVA
//! `EVA-02/asuka/rope.py`, commit 006ca79: `t = arange(ft_seq_len) / ft_seq_len * pt_seq_len`).
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::figures::resolution::{resolution, resolution_csv, ResolutionInputs};
use pe_explorer::math::grid::{cosine, Axial, Grid, GridEncoding, Learned2d, Similarity, SinCos2d};
use pe_explorer::math::resolution::{resized_map, sides, Resize};
use pe_explorer::plot::colormap::Palette;
use pe_explorer::schemes::grid::GridScheme;

fn grid(side: usize) -> Grid {
    Grid::new(side, side).unwrap()
}

// 1×, 2×, 4× the trained side, held to the 64 patches a side the view allows.
#[test]
fn sides_are_the_trained_grid_and_its_multiples_up_to_64() {
    assert_eq!(sides(14, 64), vec![14, 28, 56]);
    assert_eq!(sides(20, 64), vec![20, 40, 64]);
    assert_eq!(sides(40, 64), vec![40, 64]);
    assert_eq!(sides(64, 64), vec![64]);
}

// On the trained grid, extrapolation is the encoding itself: the map equals the view's own
// similarity (`Similarity::between`), and bicubic resizing to the same size is the identity
// (PyTorch's cubic weights at t = 0 are [0, 1, 0, 0]), so both ways agree.
#[test]
fn at_the_trained_size_both_ways_are_the_encoding() {
    let e = GridEncoding::SinCos(SinCos2d::new(16, grid(6), 10_000.0).unwrap());
    let sim = Similarity::of(&e);
    let centre = grid(6).patch(3, 3);
    let ext = resized_map(&e, grid(6), Resize::Extrapolate, centre);
    let int = resized_map(&e, grid(6), Resize::Interpolate, centre);
    for p in 0..36 {
        assert!((ext[p] - sim.between(centre, p)).abs() < 1e-12, "patch {p}");
        assert!(
            (int[p] - ext[p]).abs() < 1e-6,
            "patch {p}: {} vs {}",
            int[p],
            ext[p]
        );
    }
}

// Axial RoPE with D = 4 has one pair per axis at frequency 1 (1/θ^0). Extrapolated on an 8 × 8
// grid from 4 × 4, the right-hand neighbour scores (cos 1 + cos 0)/2 = 0.7701511529; with
// positions scaled by 4/8, (cos 0.5 + 1)/2 = 0.9387912810, and two steps right score what one
// trained step does.
#[test]
fn interpolated_rope_scales_positions_by_trained_over_new() {
    let e = GridEncoding::Axial(Axial::new(4, grid(4), 100.0).unwrap());
    let g = grid(8);
    let centre = g.patch(4, 4);
    let ext = resized_map(&e, g, Resize::Extrapolate, centre);
    let int = resized_map(&e, g, Resize::Interpolate, centre);
    assert!((ext[g.patch(4, 5)] - 0.7701511529).abs() < 1e-9);
    assert!((int[g.patch(4, 5)] - 0.9387912810).abs() < 1e-9);
    assert!((int[g.patch(4, 6)] - 0.7701511529).abs() < 1e-9);
    // Down one row: the row pair turns instead, by the same amount.
    assert!((int[g.patch(5, 4)] - 0.9387912810).abs() < 1e-9);
}

// A learned table extrapolated has no vector past its trained grid: exactly the patches in a
// row or column ≥ the trained side are blank. Interpolated, every patch has one, and the map
// equals the cosine of the bicubic-resized table's rows (`Learned2d::for_grid`).
#[test]
fn learned_table_blank_past_its_grid_unless_resized() {
    let table = Learned2d {
        d_model: 8,
        trained: grid(3),
        seed: 7,
    };
    let e = GridEncoding::Learned {
        table,
        grid: grid(3),
        interpolate: true,
    };
    let g = grid(7);
    let centre = g.patch(3, 3);
    let ext = resized_map(&e, g, Resize::Extrapolate, g.patch(1, 1));
    for (p, v) in ext.iter().enumerate() {
        let (r, c) = g.cell(p);
        assert_eq!(v.is_nan(), r >= 3 || c >= 3, "patch ({r}, {c})");
    }
    assert!((ext[g.patch(1, 1)] - 1.0).abs() < 1e-12);
    let int = resized_map(&e, g, Resize::Interpolate, centre);
    let resized = table.for_grid(g, true);
    let row = |p: usize| &resized[p * 8..(p + 1) * 8];
    for (p, v) in int.iter().enumerate() {
        let want = cosine(row(centre), row(p));
        assert!((v - want).abs() < 1e-9, "patch {p}: {v} vs {want}");
    }
}

fn inputs(scheme: GridScheme, trained: usize) -> ResolutionInputs {
    ResolutionInputs {
        scheme,
        trained,
        head: 0,
        d_model: 64,
        base: 10_000.0,
        seed: 0,
        palette: Palette::default(),
    }
}

// The figure lays the maps out two bands (interpolated above extrapolated) by one column per
// size, each drawn at the largest side; a cell reads back the map and patch it shows, and the
// CSV holds every map's every patch.
#[test]
fn figure_cells_read_back_their_maps() {
    let r = resolution(&inputs(GridScheme::SinCos, 8));
    assert_eq!(r.sides, vec![8, 16, 32]);
    assert_eq!(r.drawn, 32);
    let m = &*r.figure.matrix;
    assert_eq!((m.rows(), m.cols()), (65, 98));
    // Bottom band, middle column (16 × 16 extrapolated), drawn cell (40, 40) → row 4, column 7.
    let (row, col) = (33 + 8, 33 + 14);
    let (map, patch) = r.cell(row, col).unwrap();
    assert_eq!(
        (map.how, map.grid.rows, map.grid.cell(patch)),
        (Resize::Extrapolate, 16, (4, 7))
    );
    assert_eq!(m.value(row, col), map.values[patch]);
    assert!(
        r.cell(32, 0).is_none() && r.cell(0, 32).is_none(),
        "the gaps"
    );
    let csv = resolution_csv(&r).unwrap();
    let lines: Vec<&str> = csv.trim().lines().collect();
    assert_eq!(lines[0], "resize,side,row,column,similarity");
    assert_eq!(lines.len(), 1 + 2 * (64 + 256 + 1024));
}

// The sentence reads its numbers off the maps: extrapolated sin-cos keeps the trained step at
// 4×, interpolated moves a quarter of one, and a learned table leaves 56² − 14² patches blank.
#[test]
fn summary_numbers_come_from_the_maps() {
    let r = resolution(&inputs(GridScheme::SinCos, 14));
    let said = r.summary(GridScheme::SinCos);
    let at = |how, side| r.map(how, side).unwrap().right_of_centre(1);
    let (i1, i4, e4) = (
        at(Resize::Interpolate, 14),
        at(Resize::Interpolate, 56),
        at(Resize::Extrapolate, 56),
    );
    assert!(i4 > i1, "a quarter step is more alike than a whole one");
    assert!(
        (e4 - i1).abs() < 1e-9,
        "extrapolated keeps the trained step"
    );
    for v in [i1, i4] {
        assert!(
            said.contains(&pe_explorer::format::significant(v, 3)),
            "{said}"
        );
    }
    assert!(said.contains("1/4"), "{said}");
    let learned = resolution(&inputs(GridScheme::Learned, 14)).summary(GridScheme::Learned);
    assert!(
        learned.contains(&format!("{} of the 3136 patches", 56 * 56 - 14 * 14)),
        "{learned}"
    );
}
