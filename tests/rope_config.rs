//! Reading a model's RoPE settings from pasted JSON: the published presets, a bare
//! rope_scaling object, transformers v5's rope_parameters, and hostile text, which is refused
//! with a sentence and never panics. Then what applying one does to the app's settings.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::action::Action;
use pe_explorer::math::rope::{RopeScaling, Treatment};
use pe_explorer::rope_config::{preset, Json, Method, RopeConfig, PRESETS};
use pe_explorer::schemes::rope::Extension;
use pe_explorer::schemes::Scheme;
use pe_explorer::state::Settings;
use proptest::prelude::*;
use std::rc::Rc;
use yew::Reducible;

fn applied(c: RopeConfig) -> Settings {
    (*Rc::new(Settings::default()).reduce(Action::ApplyRope(Box::new(c)))).clone()
}

#[test]
fn every_preset_reads_and_llama_3_1_sets_what_its_config_says() {
    for p in PRESETS {
        let c = RopeConfig::from_json(p.json).unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert!(c.notes.is_empty(), "{}: {:?}", p.name, c.notes);
    }
    let s = applied(preset("llama-3.1-8b").unwrap());
    assert_eq!(s.scheme, Scheme::Rope);
    assert_eq!(
        (s.d_model, s.base, s.trained_length),
        (128, 500_000.0, 8192)
    );
    assert_eq!(
        (
            s.schemes.rope.extension,
            s.schemes.rope.factor,
            s.schemes.rope.low_freq,
            s.schemes.rope.high_freq
        ),
        (Extension::Llama3, 8.0, 1.0, 4.0)
    );
    assert_eq!(s.length, 65_536, "8 × 8,192, capped at the slider's end");
    assert_eq!(
        s.rope().scaling,
        RopeScaling::Llama3 {
            factor: 8.0,
            low: 1.0,
            high: 4.0,
            original: 8192
        }
    );
    // Treatments follow the llama3 rule on wavelengths: below original/high left alone, above
    // original/low interpolated, in between ramped.
    let rope = s.rope();
    for i in 0..rope.pair_count() {
        let wavelen = std::f64::consts::TAU / rope.original_theta(i);
        let want = if wavelen < 8192.0 / 4.0 {
            Treatment::Kept
        } else if wavelen > 8192.0 {
            Treatment::Interpolated
        } else {
            Treatment::Ramped
        };
        assert_eq!(rope.treatment(i), want, "pair {i}");
    }
    // DeepSeek's rotary head width, NeoX's rotary_pct and base key, Phi's fraction.
    let ds = applied(preset("deepseek-v3").unwrap());
    assert_eq!(
        (
            ds.d_model,
            ds.schemes.rope.extension,
            ds.schemes.rope.mscale,
            ds.schemes.rope.mscale_all_dim
        ),
        (64, Extension::Yarn, 1.0, 1.0)
    );
    assert!((ds.rope().attention_factor() - 1.0).abs() < 1e-12);
    let neox = applied(preset("gpt-neox-20b").unwrap());
    assert_eq!(
        (neox.d_model, neox.rope().rotary_dim, neox.base),
        (96, 24, 10_000.0)
    );
    assert_eq!(applied(preset("phi-2").unwrap()).rope().rotary_dim, 32);
}

#[test]
fn a_bare_rope_scaling_object_and_rope_parameters_are_read_too() {
    let c = RopeConfig::from_json(
        r#"{"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}"#,
    )
    .unwrap();
    let sc = c.scaling.clone().unwrap();
    assert_eq!(
        (sc.method, sc.factor, c.original, sc.beta_fast, sc.beta_slow),
        (Method::Yarn, 4.0, Some(32768.0), 32.0, 1.0)
    );
    // A bare object names neither θ nor a head width: those are left as they were.
    assert_eq!((c.base, c.head_dim), (None, None));
    let v5 = RopeConfig::from_json(
        r#"{"head_dim": 128, "max_position_embeddings": 131072, "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}"#,
    )
    .unwrap();
    assert_eq!(
        (
            v5.scaling.as_ref().map(|s| s.method),
            v5.base,
            v5.head_dim,
            v5.original
        ),
        (
            Some(Method::Llama3),
            Some(500_000.0),
            Some(128.0),
            Some(8192.0)
        )
    );
    let linear = RopeConfig::from_json(
        r#"{"max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2}}"#,
    )
    .unwrap();
    assert_eq!(
        applied(linear).rope().scaling,
        RopeScaling::Interpolation(2.0)
    );
    // An explicit attention_factor is used, as transformers uses it; a key the app does not
    // read is said, not silently dropped.
    let explicit = RopeConfig::from_json(
        r#"{"rope_scaling": {"rope_type": "yarn", "factor": 4, "attention_factor": 1.5, "finetuned": true}}"#,
    )
    .unwrap();
    assert_eq!(
        explicit.scaling.as_ref().unwrap().attention_factor,
        Some(1.5)
    );
    assert_eq!(explicit.notes, ["Not used from rope_scaling: finetuned."]);
    let mut s = Settings::default();
    explicit.apply(&mut s);
    assert_eq!(s.rope().attention_factor(), 1.5);
}

#[test]
fn hostile_or_malformed_json_is_refused_in_plain_words() {
    let deep = "[".repeat(10_000);
    let huge = format!("{{\"a\": \"{}\"}}", "x".repeat(300_000));
    for (text, needle) in [
        ("", "not valid JSON"),
        ("{", "not valid JSON"),
        ("[1, 2, 3]", "JSON object"),
        ("{\"rope_theta\": -5}", "positive"),
        ("{\"rope_theta\": 1e999}", "not a finite number"),
        ("{\"rope_scaling\": {\"type\": \"longrope\", \"factor\": 4}}", "longrope needs short_factor and long_factor"),
        ("{\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 0.5}}", "at least 1"),
        ("{\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, \"low_freq_factor\": 4, \"high_freq_factor\": 1}}", "larger"),
        ("{\"partial_rotary_factor\": 3}", "rotary fraction"),
        ("{\"a\": tru}", "not valid JSON"),
        ("{\"a\": \"\\u12\"}", "not valid JSON"),
        ("{\"a\": 1} trailing", "after the JSON"),
        (deep.as_str(), "nested too deeply"),
        (huge.as_str(), "longer than"),
        // Issue 19: each of these used to be "Loaded".
        ("{}", "Nothing here sets RoPE"),
        ("{\"model_type\":\"bert\",\"vocab_size\":30522}", "Nothing here sets RoPE"),
        ("{\"rope_theta\":\"500000\",\"rope_scaling\":{\"type\":\"linear\",\"factor\":\"4\"}}", "rope_theta is the text “500000”, not a number"),
        ("{\"rope_scaling\":{\"type\":\"linear\",\"factor\":\"4\"}}", "factor is the text “4”, not a number"),
        ("{\"rope_theta\": NaN}", "rope_theta is NaN, not a finite number"),
        ("{\"rope_theta\": 1e4, \"rope_scaling\": {\"type\": \"yarn\", \"factor\": Infinity}}", "factor is Infinity, not a finite number"),
        ("{\"rope_scaling\": {\"rope_type\": 3, \"factor\": 2}}", "rope_type must be a name such as “yarn”, not 3"),
        ("{\"rope_theta\": 1e4, \"rope_scaling\": \"yarn\"}", "rope_scaling must be an object"),
        ("{\"rope_scaling\": {\"rope_type\": \"yarn\", \"original_max_position_embeddings\": 4096}}", "yarn needs a factor"),
        ("{\"rope_scaling\": {\"rope_type\": \"llama3\", \"low_freq_factor\": 1, \"high_freq_factor\": 4}}", "llama3 needs a factor"),
        ("{\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8}}", "llama3 needs low_freq_factor"),
        ("{\"rope_scaling\": {\"rope_type\": \"linear\"}}", "linear needs a factor"),
        ("{\"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 2], \"long_factor\": [1, 2]}}", "longrope needs a factor"),
        ("{\"head_dim\": 96, \"max_position_embeddings\": 8192, \"original_max_position_embeddings\": 4096, \"rope_scaling\": {\"type\": \"longrope\", \"short_factor\": [1, 2], \"long_factor\": [1, 2]}}", "short_factor has 2 numbers"),
        ("{\"rope_scaling\": {\"type\": \"longrope\", \"factor\": 4, \"short_factor\": [1, -2], \"long_factor\": [1, 2]}}", "short_factor[1] is -2"),
        ("{\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 4, \"truncate\": \"false\"}}", "truncate must be true or false"),
        ("{\"rope_scaling\": {\"type\": \"mrope\"}}", "rope_type “mrope” is not one the app computes"),
        ("{\"rope_scaling\": {\"factor\": 4}}", "rope_scaling has no rope_type"),
        ("{\"factor\": 4}", "no rope_type"),
        ("{\"rope_parameters\": {\"full_attention\": {\"rope_type\": \"default\"}, \"sliding_attention\": {\"rope_type\": \"default\"}}}", "differs by layer type"),
    ] {
        let err = RopeConfig::from_json(text).expect_err(text.get(..40).unwrap_or(text));
        assert!(err.contains(needle), "{needle:?} not in {err:?}");
        assert!(err.chars().count() < 240, "{err}");
        assert!(err.ends_with('.'), "{err}");
    }
    // A byte-order mark before the JSON is skipped.
    let c = RopeConfig::from_json("\u{feff}{\"rope_theta\": 500000}").unwrap();
    assert_eq!(c.base, Some(500_000.0));
    assert_eq!(Json::parse("\"a\\u00e9\"").unwrap(), Json::Str("aé".into()));
}

#[test]
fn an_applied_paste_says_what_it_read_and_each_value_it_clamped() {
    let qwen = RopeConfig::from_json(
        r#"{"hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 1010000, "rope_theta": 10000000.0}"#,
    )
    .unwrap();
    let report = qwen.report("the pasted configuration");
    for part in [
        "Loaded the pasted configuration.",
        "θ 10,000,000 (rope_theta)",
        "head_dim 128 = hidden_size 3584 / num_attention_heads 28",
        "no rope_scaling: plain RoPE",
        "trained length 1,010,000 (max_position_embeddings)",
        "The config reaches length 1,010,000",
        "length set to 65,536",
    ] {
        assert!(report.contains(part), "{part:?} not in {report:?}");
    }
    // Clamped values say old and new.
    let absurd = RopeConfig::from_json(
        r#"{"head_dim": 1e308, "rope_theta": 1e12, "rope_scaling": {"type": "linear", "factor": 1e308}, "max_position_embeddings": 4e6}"#,
    )
    .unwrap();
    let report = absurd.report("x");
    for part in [
        "head width: 1e308 is above the maximum for d_model (2 … 4096); using 4096.",
        "rope_theta: 1000000000000 is above the maximum for base (10 … 100000000); using 100000000.",
        "The config reaches length 1,073,741,824 (the trained length times the factor)",
        "factor: 1e308 is above the maximum for scale factor s (1 … 1024); using 1024.",
        "trained length: 4000000 is above the maximum for trained length (1 … 1048576); using 1048576.",
    ] {
        assert!(report.contains(part), "{part:?} not in {report:?}");
    }
    let s = applied(absurd);
    assert_eq!(
        (s.d_model, s.base, s.schemes.rope.factor, s.trained_length),
        (4096, 1e8, 1024.0, 1_048_576)
    );
    // A floor division is said as one.
    let odd = RopeConfig::from_json(r#"{"hidden_size": 3000, "num_attention_heads": 7}"#).unwrap();
    assert_eq!(odd.head_dim, Some(428.0));
    assert!(odd.read.iter().any(|r| r == "head_dim 428 = hidden_size 3000 // num_attention_heads 7 (rounded down)"), "{:?}", odd.read);
    assert!(odd
        .read
        .iter()
        .any(|r| r.contains("θ 10,000 (no rope_theta: transformers' default)")));
}

#[test]
fn a_paste_changes_only_what_it_names() {
    let mut start = Settings {
        d_model: 64,
        base: 500_000.0,
        trained_length: 8192,
        ..Settings::default()
    };
    start.schemes.rope.extension = Extension::Llama3;
    start.schemes.rope.factor = 8.0;
    let start = start;
    let apply = |json: &str| {
        let mut s = start.clone();
        RopeConfig::from_json(json).unwrap().apply(&mut s);
        s
    };
    // θ, the width, the method and its factor after a paste.
    let rope = |json: &str| {
        let s = apply(json);
        let r = &s.schemes.rope;
        (s.base, s.d_model, r.extension, r.factor)
    };
    // θ alone: θ changes, nothing else of RoPE's.
    assert_eq!(
        rope(r#"{"rope_theta": 1000000}"#),
        (1e6, 64, Extension::Llama3, 8.0)
    );
    // A bare rope_scaling: the method changes, θ and the width stay.
    assert_eq!(
        rope(r#"{"rope_type": "linear", "factor": 2}"#),
        (500_000.0, 64, Extension::Interpolation, 2.0)
    );
    // A whole config without rope_scaling: plain RoPE, θ 10,000 when it gives none.
    let s = apply(r#"{"hidden_size": 4096, "num_attention_heads": 32}"#);
    assert_eq!(
        (s.base, s.d_model, s.schemes.rope.extension),
        (10_000.0, 128, Extension::None)
    );
    // `"rope_scaling": null` names plain RoPE.
    let s = apply(r#"{"rope_scaling": null, "rope_theta": 10000}"#);
    assert_eq!(s.schemes.rope.extension, Extension::None);
}

#[test]
fn current_transformers_rules_for_factors_and_original_lengths() {
    // YaRN: an explicit factor wins over max_position_embeddings / original (Qwen2.5 ×4 over
    // 32,768 with max_position_embeddings 32,768 stays ×4).
    let s = applied(preset("qwen2.5-yarn").unwrap());
    assert_eq!((s.schemes.rope.factor, s.trained_length), (4.0, 32_768));
    // longrope without a factor: max_position_embeddings / original; a root-level original
    // (Phi-3) wins over rope_scaling's.
    let c = RopeConfig::from_json(
        r#"{"head_dim": 4, "max_position_embeddings": 8192, "original_max_position_embeddings": 1024, "rope_scaling": {"type": "longrope", "original_max_position_embeddings": 2048, "short_factor": [1, 2], "long_factor": [3, 4]}}"#,
    )
    .unwrap();
    assert_eq!(c.original, Some(1024.0));
    assert_eq!(c.scaling.as_ref().unwrap().factor, 8.0);
    // The old name of longrope.
    let su = RopeConfig::from_json(
        r#"{"rope_scaling": {"type": "su", "factor": 2, "short_factor": [1], "long_factor": [2]}}"#,
    )
    .unwrap();
    assert_eq!(su.scaling.unwrap().method, Method::LongRope);
    // Dynamic NTK grows from max_position_embeddings, as transformers' does.
    let d = RopeConfig::from_json(
        r#"{"max_position_embeddings": 4096, "rope_scaling": {"type": "dynamic", "factor": 2, "original_max_position_embeddings": 2048}}"#,
    )
    .unwrap();
    assert_eq!(d.original, Some(4096.0));
    // llama3 with an original length past the old 65,536 range keeps it.
    let l = applied(
        RopeConfig::from_json(
            r#"{"rope_scaling": {"rope_type": "llama3", "factor": 8, "low_freq_factor": 1, "high_freq_factor": 4, "original_max_position_embeddings": 131072}}"#,
        )
        .unwrap(),
    );
    assert_eq!(l.trained_length, 131_072);
    // Factors are held as float32, as torch.tensor(..., dtype=float32) holds them.
    let f = RopeConfig::from_json(
        r#"{"rope_scaling": {"type": "longrope", "factor": 2, "short_factor": [1.02], "long_factor": [1.0199999809265137]}}"#,
    )
    .unwrap();
    let sc = f.scaling.unwrap();
    assert_eq!(sc.short_factor, sc.long_factor);
    assert_eq!(sc.short_factor[0], 1.02f32 as f64);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn no_text_makes_the_reader_panic(text in "\\PC{0,200}") {
        let _ = RopeConfig::from_json(&text);
    }

    #[test]
    fn json_like_text_never_panics_and_applies_to_valid_settings(
        theta in prop_oneof![Just("NaN".to_string()), Just("-1".to_string()), Just("1e308".to_string()), "[0-9.e+-]{1,8}"],
        factor in "[0-9.e+-]{1,6}",
        kind in prop::sample::select(vec!["linear", "dynamic", "llama3", "yarn", "longrope", "default", "x", ""]),
        frac in "[0-9.e+-]{1,6}",
    ) {
        let text = format!(
            r#"{{"rope_theta": {theta}, "head_dim": 64, "partial_rotary_factor": {frac}, "rope_scaling": {{"type": "{kind}", "factor": {factor}, "original_max_position_embeddings": 4096, "low_freq_factor": 1, "high_freq_factor": 4, "truncate": false, "short_factor": [{factor}], "long_factor": [{factor}]}}}}"#
        );
        if let Ok(c) = RopeConfig::from_json(&text) {
            let s = applied(c);
            let rope = s.rope();
            prop_assert!(rope.pair_count() >= 1 && rope.rotary_dim <= s.d_model);
            for i in 0..rope.pair_count() {
                prop_assert!(rope.theta(i).is_finite() && rope.theta(i) > 0.0);
            }
            prop_assert!(rope.attention_factor().is_finite());
        }
    }
}

#[test]
fn longrope_factors_travel_in_the_link_when_they_fit_and_are_left_out_when_not() {
    use pe_explorer::schemes::rope::factors_in_link;
    use pe_explorer::url::{parse, to_query};
    // Phi-3.5's 48 + 48 factors: in the link, as float32's shortest forms, and back exactly.
    let s = applied(preset("phi-3.5-mini").unwrap());
    let q = to_query(&s, None);
    assert!(q.contains("short_factor=1,1.02,1.03,1.03,1.05"), "{q}");
    assert!(q.contains("long_factor=1.08,1.11,1.14,1.34"), "{q}");
    assert!(q.len() < 4096, "{} characters", q.len());
    let back = parse(&q);
    assert!(back.notices.is_empty(), "{:?}", back.notices);
    assert_eq!(back.settings, s);
    assert_eq!(back.settings.rope().theta(47), s.rope().theta(47));
    // A head of 4,096 has 2,048 pairs: the lists do not fit, the link leaves them out, and the
    // sidebar says so (a link then opens with every factor 1).
    let many = vec!["1.2345678"; 2048].join(", ");
    let wide = RopeConfig::from_json(&format!(
        r#"{{"head_dim": 4096, "rope_scaling": {{"type": "longrope", "factor": 2, "short_factor": [{many}], "long_factor": [{many}]}}}}"#
    ))
    .unwrap();
    let s = applied(wide);
    assert_eq!(s.schemes.rope.short_factor.len(), 2048);
    assert!(!factors_in_link(&s.schemes.rope));
    let q = to_query(&s, None);
    assert!(
        !q.contains("short_factor") && q.contains("extension=longrope"),
        "{}",
        &q[..200.min(q.len())]
    );
}
