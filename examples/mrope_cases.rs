//! The Image patches view's M-RoPE sequences (text, an image, a video, text), the position ids
//! the app gives them under the "transformers 5.24" rule and every token's angle per frequency,
//! one JSON object per line, for `scripts/check_mrope.py` (which calls transformers' own
//! `get_rope_index` and rotary embedding where transformers is installed):
//! `cargo run --example mrope_cases`.

use pe_explorer::figures::mrope::{mrope_figure, MropeInputs};
use pe_explorer::math::mrope::{position_ids, Segment};
use pe_explorer::schemes::grid::MropeModel;
use pe_explorer::state::Settings;

fn main() {
    // (model, merged rows, merged columns, frames); Qwen3-VL separates a video's frames with
    // timestamp text, which the view does not lay out, so its cases have one frame at most.
    let cases = [
        (MropeModel::Qwen2Vl, 2, 2, 3),
        (MropeModel::Qwen2Vl, 3, 5, 0),
        (MropeModel::Qwen2Vl, 1, 1, 6),
        (MropeModel::Qwen2Vl, 4, 2, 2),
        (MropeModel::Qwen25Vl, 2, 2, 3),
        (MropeModel::Qwen25Vl, 5, 3, 4),
        (MropeModel::Qwen25Vl, 2, 6, 1),
        (MropeModel::Qwen3Vl, 3, 3, 0),
        (MropeModel::Qwen3Vl, 2, 5, 1),
        (MropeModel::Qwen3Vl, 6, 4, 0),
    ];
    for (model, rows, cols, frames) in cases {
        let mut s = Settings::default();
        s.grid.rows = rows;
        s.grid.cols = cols;
        s.mrope.model = model;
        s.mrope.frames = frames;
        s.mrope.transformers_rule = true;
        s.settle();
        let inputs = MropeInputs::of(&s);
        let (mrope, rules, per_frame) = inputs.plan(None, true).expect("a model's plan");
        let figure = mrope_figure(&inputs, None).expect("the view's figures");
        let angles: Vec<String> = figure
            .angles
            .chunks(mrope.pair_count())
            .map(|row| {
                let row: Vec<String> = row.iter().map(|a| format!("{a:?}")).collect();
                format!("[{}]", row.join(", "))
            })
            .collect();
        let [st, sh, sw] = mrope.section();
        let m = rules.spatial_merge_size;
        let laid = inputs.segments(m, per_frame).expect("the view's sequence");
        let ids = position_ids(&laid, &rules).expect("ids");
        let segments: Vec<String> = inputs
            .segments(m, false)
            .expect("the view's sequence")
            .iter()
            .map(|seg| match seg {
                Segment::Text(n) => format!("{{\"kind\": \"text\", \"n\": {n}}}"),
                Segment::Image { h, w } => {
                    format!("{{\"kind\": \"image\", \"h\": {h}, \"w\": {w}}}")
                }
                Segment::Video { frames, h, w } => {
                    format!("{{\"kind\": \"video\", \"t\": {frames}, \"h\": {h}, \"w\": {w}}}")
                }
            })
            .collect();
        let tokens_per_second = match model {
            MropeModel::Qwen25Vl => "2",
            _ => "null",
        };
        let thw: Vec<String> = ids
            .iter()
            .map(|i| format!("[{}, {}, {}]", i.t, i.h, i.w))
            .collect();
        println!(
            "{{\"name\": \"{} {rows}x{cols} merged, {frames} frames\", \"model\": \"{}\", \"merge\": {m}, \"tokens_per_second\": {tokens_per_second}, \"head_dim\": {}, \"theta\": {:?}, \"section\": [{st}, {sh}, {sw}], \"segments\": [{}], \"ids\": [{}], \"angles\": [{}]}}",
            model.label(),
            model.id(),
            mrope.head_dim(),
            mrope.theta(),
            segments.join(", "),
            thw.join(", "),
            angles.join(", ")
        );
    }
}
