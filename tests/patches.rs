//! Native tests of the Image patches view's figures (`figures::patches`): the similarity figure
//! holds each patch's map where the view says it does, the CSVs are the encodings' own numbers,
//! and every grid size and scheme a link can ask for draws.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::figures::patches::{
    encoding_csv, offset_map, patch_map, patches, random_query, spread, PatchInputs, MAX_TILES,
};
use pe_explorer::main_chart::main_chart;
use pe_explorer::math::grid::{Axial, Grid, SinCos2d, AXIAL_THETA};
use pe_explorer::schemes::grid::GridScheme;
use pe_explorer::state::{Settings, View};

fn settings(scheme: GridScheme, rows: usize, cols: usize) -> Settings {
    let mut s = Settings {
        view: View::Patches,
        d_model: 32,
        ..Settings::default()
    };
    s.grid.scheme = scheme;
    s.grid.rows = rows;
    s.grid.cols = cols;
    s
}

#[test]
fn spread_keeps_the_ends() {
    assert_eq!(spread(5, 16), vec![0, 1, 2, 3, 4]);
    let s = spread(64, 16);
    assert_eq!((s.len(), s[0], s[15]), (16, 0, 63));
}

// Each small map is one patch's similarity with every patch: the figure cell at (row, col)
// inside tile (i, j) is between(source of the tile, patch (row, col)); gaps are blank.
#[test]
fn the_figure_holds_each_patch_map_in_its_tile() {
    let s = settings(GridScheme::SinCos, 3, 4);
    let f = patches(&PatchInputs::of(&s));
    let m = &*f.figure.matrix;
    assert_eq!((m.rows(), m.cols()), (3 * 4 - 1, 4 * 5 - 1));
    let g = Grid { rows: 3, cols: 4 };
    // Tile (1, 2) is patch (1, 2); its cell (2, 3) is patch (2, 3).
    let (row, col) = (4 + 2, 2 * 5 + 3);
    assert_eq!(f.cell(row, col), Some((g.patch(1, 2), g.patch(2, 3))));
    assert_eq!(
        m.value(row, col),
        f.similarity.between(g.patch(1, 2), g.patch(2, 3))
    );
    assert_eq!(f.cell(3, 0), None);
    assert!(m.value(3, 0).is_nan());
    // Every patch is most like itself.
    for p in 0..g.patches() {
        assert!((f.similarity.between(p, p) - 1.0).abs() < 1e-9);
    }
}

#[test]
fn large_grids_draw_at_most_sixteen_maps_a_side() {
    for scheme in GridScheme::ALL {
        let s = settings(scheme, 64, 40);
        let f = patches(&PatchInputs::of(&s));
        assert!(f.tile_rows.len() <= MAX_TILES && f.tile_cols.len() <= MAX_TILES);
        assert_eq!(*f.tile_rows.last().unwrap(), 63);
        let chart = main_chart(&s).expect("the view has a first chart");
        assert_eq!(chart.id, "patches-chart");
    }
}

// The vectors CSV is MAE's table row by row; the angles CSV is RoPE-ViT's angles.
#[test]
fn csvs_are_the_encodings_numbers() {
    let s = settings(GridScheme::SinCos, 2, 3);
    let f = patches(&PatchInputs::of(&s));
    let csv = encoding_csv(&f.encoding, false).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 6);
    assert!(lines[0].starts_with("patch,dim_0,dim_1,"));
    let table = SinCos2d::new(32, Grid { rows: 2, cols: 3 }, 10_000.0).unwrap();
    let row5: Vec<f64> = lines[6]
        .split(',')
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    for (got, want) in row5.iter().zip(table.row(5)) {
        assert!((got - want).abs() < 1e-8);
    }

    let s = settings(GridScheme::Axial, 3, 4);
    let f = patches(&PatchInputs::of(&s));
    let csv = encoding_csv(&f.encoding, false).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert!(lines[0].starts_with("patch,pair_0,"));
    assert_eq!(lines[0].split(',').count(), 1 + 16);
    let axial = Axial::new(32, Grid { rows: 3, cols: 4 }, AXIAL_THETA).unwrap();
    let row7: Vec<f64> = lines[8]
        .split(',')
        .skip(1)
        .map(|v| v.parse().unwrap())
        .collect();
    for (j, got) in row7.iter().enumerate() {
        assert!((got - axial.angle(7, j)).abs() < 1e-8);
    }
}

#[test]
fn maps_and_offsets_are_one_at_zero_offset() {
    for scheme in GridScheme::ALL {
        let s = settings(scheme, 5, 7);
        let f = patches(&PatchInputs::of(&s));
        let m = patch_map(&f.similarity, 12, s.palette);
        let (r, c) = (12 / 7, 12 % 7);
        assert!((m.matrix.value(r, c) - 1.0).abs() < 1e-9, "{scheme:?}");
        let o = &f.offsets.matrix;
        assert!((o.value(4, 6) - 1.0).abs() < 1e-9, "{scheme:?}");
        if scheme.is_rotary() {
            let q = random_query(32, 1);
            let r = offset_map(&f.encoding, &f.similarity, Some(&q), s.palette);
            assert!((r.matrix.value(4, 6) - 1.0).abs() < 1e-9);
        }
    }
}

// A width that is not a multiple of 4 is used as the multiple of 4 below it.
#[test]
fn odd_widths_are_fitted_not_refused() {
    let mut s = settings(GridScheme::Mixed, 4, 4);
    s.d_model = 2;
    assert_eq!(PatchInputs::of(&s).width(), 4);
    s.d_model = 130;
    assert_eq!(PatchInputs::of(&s).width(), 128);
    let f = patches(&PatchInputs::of(&s));
    assert!(f.similarity.between(0, 5).is_finite());
}

// The M-RoPE panel's sequence: 2 text tokens, an image of 4 × 4 patches (2 × 2 merged), a video
// of 3 such frames, 2 text tokens. By hand, Qwen2-VL's reference `get_rope_index`: text 0, 1;
// image t = 2, h, w ∈ {2, 3}; the video starts past the image's largest id (3): t = 4, 5, 6,
// h, w ∈ {4, 5}; the closing text starts at 7. transformers 5.24 advances by max(h, w)/2 = 2
// after each block: the video starts at 4 and the text at 6, a time id the video's last frame
// holds. Qwen2.5-VL's video times are 4 + ⌊{0, 1, 2}·1.0·2⌋ = 4, 6, 8: the reference text
// starts at 9, transformers' still at 6.
#[test]
fn mrope_sequence_and_where_the_rules_part() {
    use pe_explorer::figures::mrope::{mrope_figure, MropeInputs};
    use pe_explorer::schemes::grid::MropeModel;
    let mut s = settings(GridScheme::SinCos, 2, 2);
    s.mrope.frames = 3;
    for (model, transformers, last_t, next) in [
        (MropeModel::Qwen2Vl, false, 6, 7),
        (MropeModel::Qwen2Vl, true, 6, 6),
        (MropeModel::Qwen25Vl, false, 8, 9),
        (MropeModel::Qwen25Vl, true, 8, 6),
    ] {
        s.mrope.model = model;
        s.mrope.transformers_rule = transformers;
        let f = mrope_figure(&MropeInputs::of(&s), None).unwrap();
        assert_eq!(f.ids.len(), 2 + 4 + 12 + 2);
        assert_eq!(f.seams.vision_last_t, last_t, "{model:?} {transformers}");
        let shown = if transformers {
            f.seams.next_transformers
        } else {
            f.seams.next_reference
        };
        assert_eq!(shown, next, "{model:?} {transformers}");
        assert_eq!(f.ids.last().unwrap().t, next + 1);
        let csv: Vec<&str> = f.csv.lines().collect();
        assert_eq!(csv[0], "token,kind,t,h,w");
        assert_eq!(csv[3], "2,image,2,2,2");
        // Text alone turns every frequency by its position: plain 1-D RoPE.
        let cos = &f.cos.matrix;
        for j in 0..64 {
            let plain = (1.0 * f.mrope.inv_freq(j)).cos();
            assert!((cos.value(1, j) - plain).abs() < 1e-12);
        }
    }
    // Qwen3-VL: interleaved sections, each frame its own block with time id 0 inside it.
    s.mrope.model = MropeModel::Qwen3Vl;
    s.mrope.transformers_rule = false;
    let f = mrope_figure(&MropeInputs::of(&s), None).unwrap();
    let axes: String = f.mrope.axes()[..6].iter().map(|a| a.letter()).collect();
    assert_eq!(axes, "THWTHW");
}

// A pasted config is read as the chosen model is set: Qwen2-VL-7B's config.json (hidden_size
// 3584 over 28 heads: head_dim 128; rope_scaling.mrope_section [16, 24, 24]; rope_theta 1e6)
// lays out the same ids and bands as the Qwen2-VL entry of the list. Qwen2.5-VL adds
// tokens_per_second; Qwen3-VL nests text_config with mrope_interleaved.
#[test]
fn pasted_mrope_configs_are_read_or_refused() {
    use pe_explorer::figures::mrope::{mrope_figure, MropeInputs};
    use pe_explorer::math::mrope::Layout;
    use pe_explorer::mrope_config::MropeConfig;
    use pe_explorer::schemes::grid::MropeModel;
    let qwen2 = r#"{"architectures": ["Qwen2VLForConditionalGeneration"], "model_type": "qwen2_vl",
        "hidden_size": 3584, "num_attention_heads": 28, "rope_theta": 1000000.0,
        "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
        "vision_config": {"spatial_merge_size": 2, "patch_size": 14}}"#;
    let c = MropeConfig::from_json(qwen2).unwrap();
    assert_eq!(
        (c.mrope.head_dim(), c.mrope.section(), c.merge),
        (128, [16, 24, 24], 2)
    );
    assert_eq!(c.mrope.layout(), Layout::Chunked);
    assert!(c.report().contains("qwen2_vl"));
    let mut s = settings(GridScheme::SinCos, 3, 2);
    s.mrope.model = MropeModel::Qwen2Vl;
    let listed = mrope_figure(&MropeInputs::of(&s), None).unwrap();
    let pasted = mrope_figure(&MropeInputs::of(&s), Some(&c)).unwrap();
    assert_eq!(listed.ids, pasted.ids);
    assert_eq!(listed.mrope.axes(), pasted.mrope.axes());

    let qwen25 = r#"{"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
        "rope_theta": 1000000.0, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
        "vision_config": {"spatial_merge_size": 2, "tokens_per_second": 2}}"#;
    let c = MropeConfig::from_json(qwen25).unwrap();
    s.mrope.model = MropeModel::Qwen25Vl;
    let listed = mrope_figure(&MropeInputs::of(&s), None).unwrap();
    assert_eq!(
        listed.ids,
        mrope_figure(&MropeInputs::of(&s), Some(&c)).unwrap().ids
    );

    let qwen3 = r#"{"model_type": "qwen3_vl", "text_config": {"model_type": "qwen3_vl_text",
        "head_dim": 128, "rope_theta": 5000000, "rope_scaling": {"mrope_interleaved": true,
        "mrope_section": [24, 20, 20], "rope_type": "default"}}, "vision_config": {"spatial_merge_size": 2}}"#;
    let c = MropeConfig::from_json(qwen3).unwrap();
    assert_eq!(c.mrope.layout(), Layout::Interleaved);
    assert_eq!(c.mrope.theta(), 5_000_000.0);

    for (bad, says) in [
        ("not json", ""),
        ("[1, 2]", "JSON object"),
        (r#"{"rope_theta": 10000}"#, "mrope_section"),
        (
            r#"{"rope_scaling": {"mrope_section": [16, 24]}}"#,
            "three whole numbers",
        ),
        (
            r#"{"head_dim": 128, "rope_scaling": {"mrope_section": [16, 24, 20]}}"#,
            "64",
        ),
        (
            r#"{"rope_scaling": {"mrope_section": [16, 24, 24]}, "vision_config": {"spatial_merge_size": 0}}"#,
            "spatial_merge_size",
        ),
    ] {
        let e = MropeConfig::from_json(bad).unwrap_err();
        assert!(e.contains(says), "{bad}: {e}");
    }
}

// The tables a query and key are turned by (`apply_multimodal_rotary_pos_emb`: q·cos +
// rotate_half(q)·sin). Qwen2-VL, chunked [16, 24, 24], θ = 10⁶: the first image token after two
// text tokens has (t, h, w) = (2, 2, 2), and frequency 16 is the first H one, at
// 10⁶^(−32/128) = 1/31.6227766: angle 0.0632455532, sin 0.0632034, cos 0.9980007.
#[test]
fn mrope_sin_and_cos_tables_turn_by_each_tokens_own_id() {
    use pe_explorer::figures::mrope::{mrope_figure, MropeInputs};
    let s = settings(GridScheme::SinCos, 2, 2);
    let f = mrope_figure(&MropeInputs::of(&s), None).unwrap();
    let a = f.angle(2, 16).unwrap();
    assert!((a - 0.0632455532).abs() < 1e-9, "{a}");
    assert!((f.sin.matrix.value(2, 16) - 0.0632034).abs() < 1e-6);
    assert!((f.cos.matrix.value(2, 16) - 0.9980007).abs() < 1e-6);
    // Every cell: sin² + cos² = 1, and each is its own token's angle.
    for token in 0..f.ids.len() {
        for j in 0..64 {
            let (c, sn) = (f.cos.matrix.value(token, j), f.sin.matrix.value(token, j));
            assert!((c * c + sn * sn - 1.0).abs() < 1e-12);
            let want = f.mrope.angles(&f.ids[token])[j];
            assert_eq!(f.angle(token, j), Some(want));
        }
    }
    assert_eq!(f.angle(0, 64), None, "no frequency 64 in a 128-wide head");
}

// `get_2d_sincos_pos_embed(…, cls_token=True)` puts a row of zeros before the patches; the
// learned table's CLS row is its own (the table's row after the trained grid's patches) and
// `interpolate_pos_embed` keeps it as it is; RoPE-ViT turns only the patches (angles 0).
#[test]
fn cls_row_comes_first_as_each_reference_writes_it() {
    use pe_explorer::math::learned::Learned;
    for (scheme, header) in [
        (GridScheme::SinCos, "dim_0"),
        (GridScheme::Learned, "dim_0"),
        (GridScheme::Axial, "pair_0"),
    ] {
        let mut s = settings(scheme, 3, 5);
        s.grid.trained = 2;
        let f = patches(&PatchInputs::of(&s));
        let with = encoding_csv(&f.encoding, true).unwrap();
        let without = encoding_csv(&f.encoding, false).unwrap();
        let (w, wo): (Vec<&str>, Vec<&str>) = (with.lines().collect(), without.lines().collect());
        assert_eq!(w.len(), wo.len() + 1, "{scheme:?}: one more row");
        assert!(w[0].starts_with(&format!("patch,{header},")));
        assert_eq!(
            &w[2..],
            &wo[1..],
            "{scheme:?}: the patches follow unchanged"
        );
        let cls: Vec<f64> = w[1]
            .split(',')
            .skip(1)
            .map(|v| v.parse().unwrap())
            .collect();
        assert!(w[1].starts_with("cls,"));
        match scheme {
            GridScheme::Learned => {
                // Row 4 of the seeded table (after the 2 × 2 trained grid's patches 0–3),
                // the same when the table is resized to 3 × 5.
                let t = Learned::new(5, s.d_model / 4 * 4, s.learned_seed as u64);
                for (d, v) in cls.iter().enumerate() {
                    assert!((v - t.get(4, d).unwrap()).abs() < 1e-9);
                }
                assert!(cls.iter().any(|v| *v != 0.0));
            }
            _ => assert!(cls.iter().all(|v| *v == 0.0), "{scheme:?}: {cls:?}"),
        }
    }
}

// A narrow chart says its averaging note in fewer words (it shares a line with the colour
// bar's title), with the same numbers.
#[test]
fn averaging_note_has_a_compact_form() {
    use pe_explorer::plot::heatmap::compact_note;
    assert_eq!(
        compact_note("Each pixel is the mean of 1–2 rows × 2 columns."),
        "Pixel: mean of 1–2 rows × 2 columns."
    );
    assert_eq!(
        compact_note("Each pixel row is the mean of 2 tokens."),
        "Pixel row: mean of 2 tokens."
    );
    assert_eq!(
        compact_note("Each pixel column shows the first of 3 keys."),
        "Pixel column: first of 3 keys."
    );
}
