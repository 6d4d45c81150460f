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
            s.rope.extension,
            s.rope.factor,
            s.rope.low_freq,
            s.rope.high_freq
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
            ds.rope.extension,
            ds.rope.mscale,
            ds.rope.mscale_all_dim
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
    assert_eq!(
        (c.method, c.factor, c.original, c.beta_fast, c.beta_slow),
        (Method::Yarn, 4.0, Some(32768), 32.0, 1.0)
    );
    let v5 = RopeConfig::from_json(
        r#"{"head_dim": 128, "max_position_embeddings": 131072, "rope_parameters": {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0, "original_max_position_embeddings": 8192}}"#,
    )
    .unwrap();
    assert_eq!(
        (v5.method, v5.base, v5.head_dim, v5.original),
        (Method::Llama3, 500_000.0, Some(128), Some(8192))
    );
    let linear = RopeConfig::from_json(
        r#"{"max_position_embeddings": 4096, "rope_scaling": {"type": "linear", "factor": 2}}"#,
    )
    .unwrap();
    assert_eq!(
        applied(linear).rope().scaling,
        RopeScaling::Interpolation(2.0)
    );
    let explicit =
        RopeConfig::from_json(r#"{"rope_type": "yarn", "factor": 4, "attention_factor": 1.5}"#)
            .unwrap();
    assert_eq!(
        explicit.notes.len(),
        1,
        "an unused key is said, not silently dropped"
    );
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
        ("{\"rope_theta\": 1e999}", "positive"),
        ("{\"rope_scaling\": {\"type\": \"longrope\", \"factor\": 4}}", "longrope"),
        ("{\"rope_scaling\": {\"type\": \"yarn\", \"factor\": 0.5}}", "at least 1"),
        ("{\"rope_scaling\": {\"rope_type\": \"llama3\", \"factor\": 8, \"low_freq_factor\": 4, \"high_freq_factor\": 1}}", "larger"),
        ("{\"partial_rotary_factor\": 3}", "rotary fraction"),
        ("{\"a\": tru}", "not valid JSON"),
        ("{\"a\": \"\\u12\"}", "not valid JSON"),
        ("{\"a\": 1} trailing", "after the JSON"),
        (deep.as_str(), "nested too deeply"),
        (huge.as_str(), "longer than"),
    ] {
        let err = RopeConfig::from_json(text).expect_err(text.get(..40).unwrap_or(text));
        assert!(err.contains(needle), "{needle:?} not in {err:?}");
        assert!(err.chars().count() < 200, "{err}");
    }
    // NaN from Python's json.dumps is read as "no number": the default applies.
    let c = RopeConfig::from_json(
        r#"{"rope_theta": NaN, "rope_scaling": {"type": "dynamic", "factor": 2}}"#,
    )
    .unwrap();
    assert_eq!(c.base, 10_000.0);
    assert_eq!(Json::parse("\"a\\u00e9\"").unwrap(), Json::Str("aé".into()));
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
        kind in prop::sample::select(vec!["linear", "dynamic", "llama3", "yarn", "default", "x", ""]),
        frac in "[0-9.e+-]{1,6}",
    ) {
        let text = format!(
            r#"{{"rope_theta": {theta}, "head_dim": 64, "partial_rotary_factor": {frac}, "rope_scaling": {{"type": "{kind}", "factor": {factor}, "original_max_position_embeddings": 4096}}}}"#
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
