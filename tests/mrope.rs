//! M-RoPE (Qwen2-VL, Qwen2.5-VL, Qwen3-VL): which axis each frequency follows in the chunked and
//! interleaved layouts, the (t, h, w) ids of mixed text/image/video sequences under the reference
//! `get_rope_index` and under the rule measured with transformers 5.24, and the refusal of bad
//! settings with a sentence that names the value. Every expected value is derived by hand in
//! the comments from the reference code named above each test.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::math::mrope::{
    frames_as_images, ids_csv, position_ids, Advance, Axis, IdRules, Kind, Layout, Mrope, Segment,
    Time, TokenId, MAX_TOKENS, QWEN2_VL_SECTION, QWEN3_VL_SECTION,
};

/// (t, h, w) of every token.
fn thw(ids: &[TokenId]) -> Vec<(i64, i64, i64)> {
    ids.iter().map(|i| (i.t, i.h, i.w)).collect()
}

/// The frequency indices of one axis.
fn indices(m: &Mrope, axis: Axis) -> Vec<usize> {
    (0..m.pair_count())
        .filter(|&j| m.axis_of(j) == axis)
        .collect()
}

fn rules(time: Time, advance: Advance) -> IdRules {
    IdRules {
        spatial_merge_size: 2,
        time,
        advance,
    }
}

fn err<T: std::fmt::Debug>(r: Result<T, String>) -> String {
    match r {
        Ok(v) => panic!("expected a refusal, got {v:?}"),
        Err(e) => e,
    }
}

// Reference: transformers `apply_multimodal_rotary_pos_emb` (models/qwen2_vl/modeling_qwen2_vl.py,
// v4.45.0). cos is cat(freqs, freqs), 128 wide; split by mrope_section * 2 = [16, 24, 24, 16, 24,
// 24], chunk i from axis i % 3. The first half: dims 0..16 from T, 16..40 from H, 40..64 from W;
// the second half repeats it for dims 64..128, i.e. the same frequency indices.
#[test]
fn chunked_split_16_24_24_of_head_dim_128() {
    let m = Mrope::new(128, 1_000_000.0, QWEN2_VL_SECTION, Layout::Chunked).unwrap();
    assert_eq!(m.pair_count(), 64);
    assert_eq!(indices(&m, Axis::T), (0..16).collect::<Vec<_>>());
    assert_eq!(indices(&m, Axis::H), (16..40).collect::<Vec<_>>());
    assert_eq!(indices(&m, Axis::W), (40..64).collect::<Vec<_>>());
    // Dimension 64 + j is rotated with dimension j, and the second chunk group gives it j's axis.
    assert_eq!(m.axis_of(64 + 15), Axis::T);
    assert_eq!(m.axis_of(64 + 16), Axis::H);
    assert_eq!(m.axis_of(64 + 40), Axis::W);
    assert_eq!(m.axes().len(), 64);
}

// Reference: `Qwen3VLTextRotaryEmbedding.apply_interleaved_mrope`, transformers v4.57.0. freqs_t
// starts as T everywhere; H overwrites slice(1, 3·20 = 60, 3) = 1, 4, …, 58 (20 indices), W
// overwrites slice(2, 60, 3) = 2, 5, …, 59 (20 indices). T keeps 0, 3, …, 57 (20) and the tail
// 60, 61, 62, 63 (4): 24 in all.
#[test]
fn interleaved_split_24_20_20_of_head_dim_128() {
    let m = Mrope::new(128, 5_000_000.0, QWEN3_VL_SECTION, Layout::Interleaved).unwrap();
    let h = vec![
        1, 4, 7, 10, 13, 16, 19, 22, 25, 28, 31, 34, 37, 40, 43, 46, 49, 52, 55, 58,
    ];
    let w = vec![
        2, 5, 8, 11, 14, 17, 20, 23, 26, 29, 32, 35, 38, 41, 44, 47, 50, 53, 56, 59,
    ];
    let t = vec![
        0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30, 33, 36, 39, 42, 45, 48, 51, 54, 57, 60, 61, 62, 63,
    ];
    assert_eq!(indices(&m, Axis::H), h);
    assert_eq!(indices(&m, Axis::W), w);
    assert_eq!(indices(&m, Axis::T), t);
    assert_eq!((t.len(), h.len(), w.len()), (24, 20, 20));
}

// Reference: transformers `_compute_default_rope_parameters` (modeling_rope_utils.py, v4.45.0),
// inv_freq = 1/θ^(arange(0, d, 2)/d), and the two split functions above: with t = h = w = p every
// axis gives p, so whichever axis index j follows, angle_j = p · inv_freq_j, plain 1-D RoPE.
#[test]
fn text_alone_is_plain_rope_in_both_layouts() {
    let heads = [
        Mrope::new(128, 1_000_000.0, [16, 24, 24], Layout::Chunked).unwrap(),
        Mrope::new(128, 10_000.0, [24, 20, 20], Layout::Interleaved).unwrap(),
        Mrope::new(16, 10_000.0, [2, 3, 3], Layout::Chunked).unwrap(),
        Mrope::new(16, 500_000.0, [4, 2, 2], Layout::Interleaved).unwrap(),
    ];
    for m in &heads {
        let (d, theta) = (m.head_dim() as f64, m.theta());
        for p in [0i64, 1, 7, 1000, 65_535] {
            let id = TokenId {
                index: 0,
                kind: Kind::Text,
                segment: 0,
                t: p,
                h: p,
                w: p,
            };
            let a = m.angles(&id);
            assert_eq!(a.len(), m.pair_count());
            for (j, &got) in a.iter().enumerate() {
                let want = 1.0 / theta.powf(2.0 * j as f64 / d) * p as f64;
                assert!(
                    (got - want).abs() <= 1e-12 * want.abs().max(1.0),
                    "{:?} p {p} j {j}: {got} vs {want}",
                    m.layout()
                );
            }
        }
    }
}

// Reference: as above, with axes that differ. θ = 10⁴, d = 128: inv_freq_j = 10^(−4·2j/128) =
// 10^(−j/16). Token (t, h, w) = (2, 3, 5).
// Chunked [16, 24, 24]: j 0 is T: 2·1 = 2; j 16 is H: 3·10^(−1) = 0.3; j 40 is W: 5·10^(−2.5).
// Interleaved [24, 20, 20]: j 1 is H: 3·10^(−1/16); j 2 is W: 5·10^(−2/16); j 60 is T:
// 2·10^(−60/16) = 2·10^(−3.75).
#[test]
fn each_frequency_takes_its_own_axis() {
    let id = TokenId {
        index: 0,
        kind: Kind::Image,
        segment: 0,
        t: 2,
        h: 3,
        w: 5,
    };
    let close = |a: f64, b: f64| assert!((a - b).abs() <= 1e-12, "{a} vs {b}");
    let c = Mrope::new(128, 10_000.0, [16, 24, 24], Layout::Chunked).unwrap();
    let a = c.angles(&id);
    close(a[0], 2.0);
    close(a[16], 0.3);
    close(a[40], 5.0 * 10f64.powf(-2.5));
    let i = Mrope::new(128, 10_000.0, [24, 20, 20], Layout::Interleaved).unwrap();
    let a = i.angles(&id);
    close(a[0], 2.0);
    close(a[1], 3.0 * 10f64.powf(-1.0 / 16.0));
    close(a[2], 5.0 * 10f64.powf(-2.0 / 16.0));
    close(a[60], 2.0 * 10f64.powf(-3.75));
}

// Reference: transformers `Qwen2VLForConditionalGeneration.get_rope_index`, v4.45.0.
// Text 0, 1 (st_idx 0). The 4×4 image merges (m = 2) to 2×2; text_len + st_idx = 2 is added to
// (t, h, w) = (0, row, col): row-major (2,2,2), (2,2,3), (2,3,2), (2,3,3). Its largest id is 3,
// so the text after it starts at 4: 4, 5.
#[test]
fn text_image_text_under_the_reference_rule() {
    let seq = [
        Segment::Text(2),
        Segment::Image { h: 4, w: 4 },
        Segment::Text(2),
    ];
    let ids = position_ids(&seq, &IdRules::QWEN2_VL).unwrap();
    assert_eq!(
        thw(&ids),
        vec![
            (0, 0, 0),
            (1, 1, 1),
            (2, 2, 2),
            (2, 2, 3),
            (2, 3, 2),
            (2, 3, 3),
            (4, 4, 4),
            (5, 5, 5),
        ]
    );
    let kinds: Vec<Kind> = ids.iter().map(|i| i.kind).collect();
    use Kind::{Image as I, Text as T};
    assert_eq!(kinds, vec![T, T, I, I, I, I, T, T]);
    let segs: Vec<usize> = ids.iter().map(|i| i.segment).collect();
    assert_eq!(segs, vec![0, 0, 1, 1, 1, 1, 2, 2]);
    assert!(ids.iter().enumerate().all(|(n, i)| i.index == n));
}

/// The 12 ids of a video of 3 frames of 2×2 merged patches starting at 2, frame f at time 2 + dt[f].
fn video_at_2(dt: [i64; 3]) -> Vec<(i64, i64, i64)> {
    let mut v = Vec::new();
    for d in dt {
        for r in 0..2 {
            for c in 0..2 {
                v.push((2 + d, 2 + r, 2 + c));
            }
        }
    }
    v
}

// The measured example: text(2), a video of 3 frames of 4×4 patches (merged 2×2), text(1).
// The video starts at 2 under every rule (text 0, 1 before it).
// - Qwen2-VL time (transformers `Qwen2VLForConditionalGeneration.get_rope_index`, v4.45.0):
//   t = 2 + f = 2, 3, 4; h, w = 2 + row, 2 + col.
// - Qwen2.5-VL time (`Qwen2_5_VLForConditionalGeneration.get_rope_index`, transformers v4.49.0):
//   t = 2 + ⌊f · 1.0 · 2⌋ = 2, 4, 6.
// - Reference advance: the next text is the video's largest id + 1: 4 + 1 = 5 (Qwen2-VL time),
//   6 + 1 = 7 (Qwen2.5-VL time).
// - transformers 5.24 advance (measured by our users): 2 + max(4, 4)/2 = 4 under both time
//   rules, an id the video's last frame (t = 4) or middle frame (t = 4) already holds.
#[test]
fn measured_video_example_under_all_four_rules() {
    let seq = [
        Segment::Text(2),
        Segment::Video {
            frames: 3,
            h: 4,
            w: 4,
        },
        Segment::Text(1),
    ];
    let cases = [
        (Time::Frame, Advance::PastLargest, [0, 1, 2], 5),
        (Time::QWEN2_5_VL, Advance::PastLargest, [0, 2, 4], 7),
        (Time::Frame, Advance::MaxSide, [0, 1, 2], 4),
        (Time::QWEN2_5_VL, Advance::MaxSide, [0, 2, 4], 4),
    ];
    for (time, advance, dt, after) in cases {
        let ids = position_ids(&seq, &rules(time, advance)).unwrap();
        let mut want = vec![(0, 0, 0), (1, 1, 1)];
        want.extend(video_at_2(dt));
        want.push((after, after, after));
        assert_eq!(thw(&ids), want, "{time:?} {advance:?}");
        assert!(ids[2..14].iter().all(|i| i.kind == Kind::Video));
        assert_eq!(ids[14].kind, Kind::Text);
    }
    // Written out for the reference Qwen2-VL case, the video's first and last tokens:
    let ids = position_ids(&seq, &IdRules::QWEN2_VL).unwrap();
    assert_eq!((ids[2].t, ids[2].h, ids[2].w), (2, 2, 2));
    assert_eq!((ids[13].t, ids[13].h, ids[13].w), (4, 3, 3));
}

// Reference: `Qwen2_5_VLForConditionalGeneration.get_rope_index`, transformers v4.49.0: an image
// is laid out with second_per_grid_t = 0, so its time index is 0·0·tokens_per_second = 0 and
// every token has t = start. Text(3) then an image of 4×6 patches (merged 2×3): start 3, t = 3,
// h = 3, 4, w = 3, 4, 5, whatever tokens_per_second is.
#[test]
fn a_qwen2_5_image_sits_at_its_start_whatever_tokens_per_second() {
    let seq = [Segment::Text(3), Segment::Image { h: 4, w: 6 }];
    for tps in [2.0, 25.0, 0.5] {
        let time = Time::Seconds {
            second_per_grid_t: 1.0,
            tokens_per_second: tps,
        };
        let ids = position_ids(&seq, &rules(time, Advance::PastLargest)).unwrap();
        assert_eq!(
            thw(&ids[3..]),
            vec![
                (3, 3, 3),
                (3, 3, 4),
                (3, 3, 5),
                (3, 4, 3),
                (3, 4, 4),
                (3, 4, 5),
            ],
            "tokens_per_second {tps}"
        );
    }
}

// Reference: `Qwen2_5_VLForConditionalGeneration.get_rope_index`, transformers v4.49.0:
// `(range · second_per_grid_t · tokens_per_second).long()` truncates. second_per_grid_t 0.75,
// tokens_per_second 2: frames 0..4 give 0, 1.5, 3.0, 4.5, truncated 0, 1, 3, 4 (all exact in
// binary). A video of 2×2 patches is one token per frame, starting at 0; the text after it
// starts at 4 + 1 = 5.
#[test]
fn qwen2_5_time_ids_are_truncated() {
    let seq = [
        Segment::Video {
            frames: 4,
            h: 2,
            w: 2,
        },
        Segment::Text(1),
    ];
    let time = Time::Seconds {
        second_per_grid_t: 0.75,
        tokens_per_second: 2.0,
    };
    let ids = position_ids(&seq, &rules(time, Advance::PastLargest)).unwrap();
    assert_eq!(
        thw(&ids),
        vec![(0, 0, 0), (1, 0, 0), (3, 0, 0), (4, 0, 0), (5, 5, 5)]
    );
}

// transformers 5.24 (measured) against the reference `get_rope_index` (v4.45.0) for an image:
// text(2), an image of 4×6 patches (merged 2×3), text(1). The image starts at 2; its largest id
// is w = 2 + 2 = 4, so the reference continues at 5; 5.24 continues at 2 + max(4, 6)/2 = 5 too.
// For a single frame the two advance rules agree.
#[test]
fn for_an_image_both_advance_rules_agree() {
    let seq = [
        Segment::Text(2),
        Segment::Image { h: 4, w: 6 },
        Segment::Text(1),
    ];
    for advance in [Advance::PastLargest, Advance::MaxSide] {
        let ids = position_ids(&seq, &rules(Time::Frame, advance)).unwrap();
        assert_eq!(thw(&ids[8..]), vec![(5, 5, 5)], "{advance:?}");
    }
}

// Reference: `Qwen3VLModel.get_rope_index`, transformers v4.57.0, repeats each video's grid_thw
// grid_t times with t set to 1, one block per frame. Text(1) then a video of 2 frames of 4×4
// patches: under the reference rule the first frame starts at 1 (t = 1, h, w = 1..2, largest
// 2), the second at 3 (t = 3, h, w = 3..4): each frame's time index is 0.
#[test]
fn qwen3_splits_a_video_into_one_block_per_frame() {
    let seq = [
        Segment::Text(1),
        Segment::Video {
            frames: 2,
            h: 4,
            w: 4,
        },
    ];
    let split = frames_as_images(&seq).unwrap();
    assert_eq!(
        split,
        vec![
            Segment::Text(1),
            Segment::Image { h: 4, w: 4 },
            Segment::Image { h: 4, w: 4 },
        ]
    );
    let ids = position_ids(&split, &IdRules::QWEN2_VL).unwrap();
    assert_eq!(
        thw(&ids),
        vec![
            (0, 0, 0),
            (1, 1, 1),
            (1, 1, 2),
            (1, 2, 1),
            (1, 2, 2),
            (3, 3, 3),
            (3, 3, 4),
            (3, 4, 3),
            (3, 4, 4),
        ]
    );
    assert_eq!(
        err(frames_as_images(&[Segment::Video {
            frames: usize::MAX,
            h: 2,
            w: 2
        }])),
        format!(
            "Splitting segment 0 (a video of {} frames of 2×2 patches) into frames gives more \
             than 65536 blocks; this view lays out at most 65536 tokens.",
            usize::MAX
        )
    );
}

// Refusals name the value. The section sentence is the one the brief asked for: [16, 24, 20]
// sums to 60; head_dim 128 has 128/2 = 64 pairs.
#[test]
fn bad_settings_are_refused_with_the_value_named() {
    assert_eq!(
        err(Mrope::new(128, 1e4, [16, 24, 20], Layout::Chunked)),
        "mrope_section [16, 24, 20] sums to 60, but head_dim 128 has 64 frequency pairs."
    );
    assert!(
        err(Mrope::new(127, 1e4, [21, 21, 21], Layout::Chunked)).contains("head_dim 127 is odd")
    );
    assert!(err(Mrope::new(0, 1e4, [0, 0, 0], Layout::Chunked)).contains("got 0"));
    assert!(err(Mrope::new(1 << 20, 1e4, [1 << 19, 0, 0], Layout::Chunked)).contains("1048576"));
    for theta in [0.0, 1.0, -5.0, f64::NAN, f64::INFINITY] {
        assert!(err(Mrope::new(128, theta, [16, 24, 24], Layout::Chunked)).contains("rope_theta"));
    }
    // Sums that would overflow a usize are still refused, not a panic.
    assert!(err(Mrope::new(128, 1e4, [usize::MAX, 1, 0], Layout::Chunked)).contains("sums to"));
    // Interleaved: H's last slot would be 3·24 − 2 = 70 > 63, so [16, 24, 24] does not fit 64
    // pairs (transformers would silently give H only 21 indices: 1, 4, …, 61).
    let e = err(Mrope::new(128, 1e4, [16, 24, 24], Layout::Interleaved));
    assert!(e.contains("3 × 24 ≤ 65"), "{e}");
    // W: 3·s_w ≤ 64, so s_w 21 (last slot 62) fits and s_w 22 (last slot 65) does not.
    assert!(Mrope::new(128, 1e4, [22, 21, 21], Layout::Interleaved).is_ok());
    assert!(err(Mrope::new(128, 1e4, [21, 21, 22], Layout::Interleaved)).contains("3 × 22"));
}

// Sizes a vision encoder cannot produce, empty segments and a sequence past MAX_TOKENS are
// refused with a sentence naming the segment and the value.
#[test]
fn bad_sequences_are_refused_with_the_value_named() {
    let ref_rules = IdRules::QWEN2_VL;
    assert_eq!(
        err(position_ids(
            &[Segment::Text(1), Segment::Image { h: 5, w: 4 }],
            &ref_rules
        )),
        "In segment 1 (an image of 5×4 patches), the height 5 is not divisible by \
         spatial_merge_size 2: the vision encoder merges 2×2 patches into one token."
    );
    assert!(err(position_ids(
        &[Segment::Video {
            frames: 2,
            h: 4,
            w: 7
        }],
        &ref_rules
    ))
    .contains("the width 7"));
    assert!(err(position_ids(
        &[Segment::Text(2), Segment::Text(0)],
        &ref_rules
    ))
    .contains("segment 1 (text of 0 tokens) is empty"));
    assert!(
        err(position_ids(&[Segment::Image { h: 0, w: 4 }], &ref_rules))
            .contains("an image of 0×4 patches")
    );
    assert!(err(position_ids(
        &[Segment::Video {
            frames: 0,
            h: 4,
            w: 4
        }],
        &ref_rules
    ))
    .contains("a video of 0 frames"));
    let no_merge = IdRules {
        spatial_merge_size: 0,
        ..ref_rules
    };
    assert!(err(position_ids(&[Segment::Text(1)], &no_merge)).contains("spatial_merge_size"));
    // 65536 + 1 tokens.
    assert_eq!(
        err(position_ids(
            &[Segment::Text(MAX_TOKENS), Segment::Text(1)],
            &ref_rules
        )),
        "The sequence has 65537 tokens; this view lays out at most 65536."
    );
    // Exactly the limit is accepted.
    assert_eq!(
        position_ids(&[Segment::Text(MAX_TOKENS)], &ref_rules)
            .unwrap()
            .len(),
        MAX_TOKENS
    );
    // Grids whose token count overflows a usize are counted, not multiplied into a panic.
    // (2^63 rows × 2^63 columns would overflow; usize::MAX − 1 is even.)
    let huge = Segment::Video {
        frames: usize::MAX,
        h: usize::MAX - 1,
        w: usize::MAX - 1,
    };
    assert!(err(position_ids(&[huge], &ref_rules)).starts_with("The sequence has "));
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        let time = Time::Seconds {
            second_per_grid_t: bad,
            tokens_per_second: 2.0,
        };
        assert!(err(position_ids(
            &[Segment::Text(1)],
            &rules(time, Advance::PastLargest)
        ))
        .contains("second_per_grid_t"));
    }
    // Time ids past 2^53: frame 1 · 1e300 · 2.
    let time = Time::Seconds {
        second_per_grid_t: 1e300,
        tokens_per_second: 2.0,
    };
    let video = Segment::Video {
        frames: 2,
        h: 2,
        w: 2,
    };
    assert_eq!(
        err(position_ids(&[video], &rules(time, Advance::PastLargest))),
        "In segment 0 (a video of 2 frames of 2×2 patches), frame 1's time index (frame × \
         second_per_grid_t × tokens_per_second) passes the largest position 9007199254740992; \
         lower second_per_grid_t or tokens_per_second."
    );
}

// The CSV the view offers for download. Text(1) then an image of 2×2 patches (one merged
// token): text at 0, the image starting at 1: (1, 1, 1).
#[test]
fn csv_has_the_header_and_one_row_per_token() {
    let ids = position_ids(
        &[Segment::Text(1), Segment::Image { h: 2, w: 2 }],
        &IdRules::QWEN2_VL,
    )
    .unwrap();
    assert_eq!(
        ids_csv(&ids),
        "token,kind,t,h,w\n0,text,0,0,0\n1,image,1,1,1\n"
    );
    let video = position_ids(
        &[Segment::Video {
            frames: 1,
            h: 2,
            w: 2,
        }],
        &IdRules::QWEN2_5_VL,
    )
    .unwrap();
    assert_eq!(ids_csv(&video).lines().nth(1), Some("0,video,0,0,0"));
    assert_eq!(ids_csv(&[]), "token,kind,t,h,w\n");
}

// A pasted config in the link (`mrope_config`): `MropeConfig::to_link` writes model_type,
// head_dim, rope_theta, the three sections, the layout, spatial_merge_size and tokens_per_second
// when given; `from_link` reads that back to the same config and refuses what a paste would be
// refused for.
#[test]
fn a_pasted_config_reads_back_from_its_link_and_a_bad_one_is_refused_with_its_reason() {
    use pe_explorer::mrope_config::MropeConfig;
    let qwen25 = r#"{"model_type": "qwen2_5_vl", "hidden_size": 3584, "num_attention_heads": 28,
        "rope_theta": 1000000.0, "rope_scaling": {"type": "mrope", "mrope_section": [16, 24, 24]},
        "vision_config": {"spatial_merge_size": 2, "tokens_per_second": 2}}"#;
    let qwen3 = r#"{"model_type": "qwen3_vl", "text_config": {"head_dim": 128,
        "rope_parameters": {"rope_theta": 5000000, "mrope_section": [24, 20, 20],
        "mrope_interleaved": true}}, "vision_config": {"spatial_merge_size": 2}}"#;
    let odd = r#"{"model_type": "my model!", "rope_theta": 12345.678901234,
        "rope_scaling": {"mrope_section": [2, 3, 3]}}"#;
    for (json, link) in [
        (qwen25, "qwen2_5_vl,128,1000000,16,24,24,chunked,2,2"),
        (qwen3, "qwen3_vl,128,5000000,24,20,20,interleaved,2"),
        // No head_dim: twice the section's sum; no model name the link can carry as it is:
        // only its letters; θ as the link writes it.
        (odd, "mymodel,16,12345.678901,2,3,3,chunked,2"),
    ] {
        let pasted = MropeConfig::from_json(json).unwrap();
        assert_eq!(pasted.to_link(), link);
        assert_eq!(MropeConfig::from_link(link), Ok(pasted));
    }
    let no_name =
        MropeConfig::from_json(r#"{"rope_scaling": {"mrope_section": [2, 3, 3]}}"#).unwrap();
    assert_eq!(no_name.to_link(), ",16,10000,2,3,3,chunked,2");
    assert_eq!(MropeConfig::from_link(&no_name.to_link()), Ok(no_name));
    for (bad, reason) in [
        ("qwen2_vl,128,1000000,16,24,24", "expected 8 or 9"),
        ("qwen2_vl,128,1000000,16,24,25,chunked,2", "sums to 65"),
        ("qwen2_vl,127,1000000,16,24,24,chunked,2", "is odd"),
        ("qwen2_vl,128,1,16,24,24,chunked,2", "greater than 1"),
        ("qwen2_vl,128,NaN,16,24,24,chunked,2", "not a number"),
        (
            "qwen2_vl,128,1000000,16,24,24,diagonal,2",
            "not chunked or interleaved",
        ),
        (
            "qwen2_vl,128,1000000,16,24,24,chunked,9",
            "spatial_merge_size",
        ),
        (
            "qwen2_vl,128,1000000,16,24,24,chunked,2,0",
            "tokens_per_second",
        ),
        ("qwen 2,128,1000000,16,24,24,chunked,2", "model name"),
        (
            "qwen3_vl,128,5000000,24,30,10,interleaved,2",
            "does not fit the interleaved",
        ),
        ("qwen2_vl,128,1000000,0,32,32,chunked,2", "from 1 to"),
    ] {
        let said = err(MropeConfig::from_link(bad));
        assert!(said.contains(reason), "{bad}: {said}");
    }
    // A paste with an empty section entry is refused as its link would be.
    for bad in [
        r#"{"rope_scaling": {"mrope_section": [null, 32, 32]}}"#,
        r#"{"rope_scaling": {"mrope_section": [0, 32, 32]}}"#,
    ] {
        let said = err(MropeConfig::from_json(bad));
        assert!(said.contains("mrope_section entry"), "{bad}: {said}");
    }
}
