//! Context extension in the trainer: the tables each method runs with (against the RoPE views'
//! own `RopeSettings::rope` and against Hugging Face transformers' `_compute_*_parameters`,
//! re-derived here independently), the fine-tune's gradients with each method in place (finite
//! differences, and HIPS autograd over pe_model.py), the passkey task the extension is measured
//! on, the experiment's equivalences (extending at the start or afterwards, extrapolation and
//! plain RoPE, the fine-tunes' shared batches), and what travels between the worker and the page.

use pe_explorer::math::rng::SplitMix64;
use pe_explorer::math::rope::{RopePairing, RopeScaling};
use pe_explorer::schemes::Scheme;
use pe_explorer::train::experiment::{
    batch_of, heldout_size, longest_test, method_rope, model_config, model_config_at, run_steps,
    Experiment, Run, Status, LENGTH_FACTORS,
};
use pe_explorer::train::model::{Model, Position, Tape};
use pe_explorer::train::protocol::{Command, Phase, Progress, Reporter};
use pe_explorer::train::real::Real;
use pe_explorer::train::safetensors::{self, Data, Entry};
use pe_explorer::train::settings::{Method, TrainScheme, TrainSettings};
use pe_explorer::train::tasks::{Example, Task, DEPTHS, KEY, QUERY};
use std::f64::consts::PI;

// ---------------------------------------------------------------------------------------------
// Hugging Face transformers' `modeling_rope_utils`, line by line in f64 (independent of
// src/math/rope.rs). Each returns (inv_freq over the head's dim, attention_factor).

/// `_compute_default_rope_parameters`: 1 / base^(arange(0, dim, 2) / dim).
fn hf_default(base: f64, dim: usize) -> Vec<f64> {
    (0..dim)
        .step_by(2)
        .map(|i| 1.0 / base.powf(i as f64 / dim as f64))
        .collect()
}

/// YaRN's `linear_ramp_factor(low, high, dim // 2)` over `find_correction_range(beta_fast,
/// beta_slow, dim, base, original)` with `truncate` (floor and ceil), β_fast 32, β_slow 1.
fn hf_yarn_ramp(base: f64, dim: usize, original: f64) -> Vec<f64> {
    let correction = |rotations: f64| {
        (dim as f64 * (original / (rotations * 2.0 * PI)).ln()) / (2.0 * base.ln())
    };
    let (low, high) = (correction(32.0).floor(), correction(1.0).ceil());
    let (low, high) = (low.max(0.0), high.min(dim as f64 - 1.0));
    let high = if low == high { high + 0.001 } else { high };
    (0..dim / 2)
        .map(|i| ((i as f64 - low) / (high - low)).clamp(0.0, 1.0))
        .collect()
}

/// transformers' inverse frequencies and attention factor for `method` at factor `s`, the
/// model trained on `original` positions and run on `seq_len`. Static NTK has no `rope_type`
/// of its own there: bloc97's base·s^(dim/(dim−2)) with the default frequencies. LongRoPE's
/// factors are the experiment's rule: short 1, long s^ramp (YaRN's ramp), held in float32.
fn hf(
    method: Method,
    base: f64,
    dim: usize,
    s: f64,
    original: usize,
    seq_len: usize,
) -> (Vec<f64>, f64) {
    let (d, old) = (dim as f64, original as f64);
    match method {
        Method::Extrapolate => (hf_default(base, dim), 1.0),
        // `_compute_linear_scaling_rope_parameters`: inv_freq / factor.
        Method::Pi => (hf_default(base, dim).iter().map(|f| f / s).collect(), 1.0),
        Method::Ntk => (hf_default(base * s.powf(d / (d - 2.0)), dim), 1.0),
        // `_compute_dynamic_ntk_parameters`: seq_len at least max_position_embeddings.
        Method::Dynamic => {
            let seq = (seq_len as f64).max(old);
            let grown = base * ((s * seq / old) - (s - 1.0)).powf(d / (d - 2.0));
            (hf_default(grown, dim), 1.0)
        }
        // `_compute_yarn_parameters` with get_mscale(factor) = 0.1·ln(factor) + 1.
        Method::Yarn => {
            let ramp = hf_yarn_ramp(base, dim, old);
            let inv = (0..dim)
                .step_by(2)
                .zip(ramp)
                .map(|(i, r)| {
                    let pos_freq = base.powf(i as f64 / d);
                    let (extrapolation, interpolation) = (1.0 / pos_freq, 1.0 / (s * pos_freq));
                    let extrapolation_factor = 1.0 - r;
                    interpolation * (1.0 - extrapolation_factor)
                        + extrapolation * extrapolation_factor
                })
                .collect();
            let attention = if s <= 1.0 { 1.0 } else { 0.1 * s.ln() + 1.0 };
            (inv, attention)
        }
        // `_compute_llama3_parameters` with low_freq_factor 1, high_freq_factor 4.
        Method::Llama3 => {
            let (low, high) = (1.0, 4.0);
            let (low_wavelen, high_wavelen) = (old / low, old / high);
            let inv = hf_default(base, dim)
                .into_iter()
                .map(|inv| {
                    let wavelen = 2.0 * PI / inv;
                    let llama = if wavelen > low_wavelen { inv / s } else { inv };
                    let smooth = (old / wavelen - low) / (high - low);
                    let smoothed = (1.0 - smooth) * llama / s + smooth * llama;
                    if wavelen >= high_wavelen && wavelen <= low_wavelen {
                        smoothed
                    } else {
                        llama
                    }
                })
                .collect();
            (inv, 1.0)
        }
        // `_compute_longrope_parameters`: long factors once seq_len > original.
        Method::LongRope => {
            let (short, long) = longrope_factors(base, dim, s, original);
            let ext = if seq_len > original { long } else { short };
            let inv = (0..dim)
                .step_by(2)
                .zip(ext)
                .map(|(i, e)| 1.0 / (e * base.powf(i as f64 / d)))
                .collect();
            let attention = if s <= 1.0 {
                1.0
            } else {
                (1.0 + s.ln() / old.ln()).sqrt()
            };
            (inv, attention)
        }
        Method::Drope | Method::Config => {
            unreachable!("DroPE has no rotation; a pasted config is its named method")
        }
    }
}

/// The experiment's LongRoPE factors by its rule: short all 1, long s^ramp, as float32.
fn longrope_factors(base: f64, dim: usize, s: f64, original: usize) -> (Vec<f64>, Vec<f64>) {
    let ramp = hf_yarn_ramp(base, dim, original as f64);
    let short = vec![1.0; dim / 2];
    let long = ramp.iter().map(|r| s.powf(*r) as f32 as f64).collect();
    (short, long)
}

fn rope_methods() -> impl Iterator<Item = Method> {
    Method::ALL.into_iter().filter(|m| *m != Method::Drope)
}

fn settings(
    d_model: usize,
    heads: usize,
    base: f64,
    factor: f64,
    train_len: usize,
) -> TrainSettings {
    TrainSettings {
        task: Task::Passkey,
        d_model,
        heads,
        layers: 1,
        train_len,
        base,
        factor,
        extend: Method::ALL.to_vec(),
        ..TrainSettings::default()
    }
}

/// The model's cos and sin tables against `f·cos(p·θᵢ)`, `f·sin(p·θᵢ)` at every position.
fn tables_agree<T: Real>(label: &str, model: &Model<T>, inv: &[f64], f: f64, tolerance: f64) {
    let b = model.buffers();
    let pairs = inv.len();
    assert_eq!(b.rope_pairs.len(), pairs, "{label}: pairs");
    assert_eq!(
        b.rope_cos.len(),
        model.max_positions * pairs,
        "{label}: cos rows"
    );
    for p in 0..model.max_positions {
        for (i, theta) in inv.iter().enumerate() {
            let angle = p as f64 * theta;
            let (cos, sin) = (
                b.rope_cos[p * pairs + i].to_f64(),
                b.rope_sin[p * pairs + i].to_f64(),
            );
            assert!(
                (cos - f * angle.cos()).abs() <= tolerance
                    && (sin - f * angle.sin()).abs() <= tolerance,
                "{label}: position {p}, pair {i}: model ({cos}, {sin}), expected ({}, {})",
                f * angle.cos(),
                f * angle.sin()
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 1. The frequencies each method trains and tests with.

#[test]
fn every_methods_tables_are_the_rope_views_and_hugging_faces() {
    // (d_model, heads, base, factor, train_len, pairing): a fast head whose YaRN ramp is all
    // but one pair, a small base, a long original whose ramp spans nine pairs, three heads.
    let combos = [
        (16, 1, 10_000.0, 4.0, 8, RopePairing::RotateHalf),
        (32, 2, 500.0, 2.5, 6, RopePairing::Adjacent),
        (64, 1, 10_000.0, 8.0, 64, RopePairing::RotateHalf),
        (48, 3, 100.0, 16.0, 12, RopePairing::RotateHalf),
    ];
    for (d_model, heads, base, factor, train_len, pairing) in combos {
        let s = TrainSettings {
            rope_pairing: pairing,
            ..settings(d_model, heads, base, factor, train_len)
        };
        let dim = d_model / heads;
        let mut lengths: Vec<usize> = LENGTH_FACTORS.iter().map(|f| f * train_len).collect();
        lengths.push(s.tune_len());
        for method in rope_methods() {
            for &length in &lengths {
                let label = format!(
                    "{} d{d_model}/{heads} θ{base} s{factor} L{train_len} at {length}",
                    method.id()
                );
                let rope = method_rope(&s, method, length).unwrap();
                for tuned in [false, true] {
                    let config = model_config_at(&s, TrainScheme::extended(method, tuned), length);
                    let Position::Rope {
                        base: b,
                        pairing: p,
                        ref scaling,
                    } = config.position
                    else {
                        panic!("{label}: not RoPE: {:?}", config.position);
                    };
                    assert_eq!(
                        (b, p, scaling),
                        (rope.base, rope.pairing, &rope.scaling),
                        "{label}"
                    );
                }
                let config = model_config_at(&s, TrainScheme::extended(method, false), length);
                let model: Model<f64> = Model::new(config.clone(), longest_test(&s));
                // The RoPE views' own angles and attention factor, exactly.
                let views: Vec<f64> = (0..rope.pair_count()).map(|i| rope.angle(1.0, i)).collect();
                let b = model.buffers();
                for p in 0..model.max_positions {
                    for i in 0..rope.pair_count() {
                        let (sin, cos) = rope.angle(p as f64, i).sin_cos();
                        let f = rope.attention_factor();
                        assert_eq!(
                            (
                                b.rope_cos[p * views.len() + i],
                                b.rope_sin[p * views.len() + i]
                            ),
                            (f * cos, f * sin),
                            "{label}: position {p}, pair {i} against the RoPE view"
                        );
                    }
                }
                let pairs: Vec<(usize, usize)> = (0..dim / 2)
                    .map(|i| match pairing {
                        RopePairing::RotateHalf => (i, i + dim / 2),
                        RopePairing::Adjacent => (2 * i, 2 * i + 1),
                    })
                    .collect();
                assert_eq!(b.rope_pairs, &pairs[..], "{label}: pairs");
                // Hugging Face's, derived independently; in f64 and in the f32 the trainer uses.
                let (inv, f) = hf(method, base, dim, factor, train_len, length);
                assert!(
                    (rope.attention_factor() - f).abs() < 1e-12,
                    "{label}: attention factor"
                );
                tables_agree(&label, &model, &inv, f, 1e-9);
                let single: Model<f32> = Model::new(config, longest_test(&s));
                tables_agree(&label, &single, &inv, f, 2e-5);
            }
        }
        // DroPE: no rotation at all.
        let drope = model_config_at(&s, TrainScheme::extended(Method::Drope, true), s.tune_len());
        assert_eq!(drope.position, Position::None);
        assert!(method_rope(&s, Method::Drope, train_len).is_none());
    }
}

#[test]
fn longrope_takes_its_short_factors_up_to_the_training_length_and_its_long_ones_past_it() {
    for (d_model, base, factor, train_len) in [(64, 10_000.0, 8.0, 64), (16, 100.0, 4.0, 8)] {
        let s = settings(d_model, 1, base, factor, train_len);
        let (short, long) = longrope_factors(base, d_model, factor, train_len);
        // The rule gives the slow pairs the whole factor and leaves the fast ones alone.
        assert_eq!(long[0], 1.0);
        assert_eq!(*long.last().unwrap(), factor as f32 as f64);
        let attention = (1.0 + factor.ln() / (train_len as f64).ln()).sqrt();
        for length in [
            1,
            train_len / 2,
            train_len,
            train_len + 1,
            2 * train_len,
            8 * train_len,
        ] {
            let rope = method_rope(&s, Method::LongRope, length).unwrap();
            let (past, used) = rope.scaling.longrope_factors().unwrap();
            assert_eq!(past, length > train_len, "length {length}");
            let want = if length > train_len { &long } else { &short };
            assert_eq!(used, &want[..], "length {length}");
            // √(1 + ln s / ln L) at every length, short factors or long.
            assert!(
                (rope.attention_factor() - attention).abs() < 1e-12,
                "length {length}"
            );
            let model: Model<f64> = Model::new(
                model_config_at(&s, TrainScheme::extended(Method::LongRope, false), length),
                8 * train_len,
            );
            assert!((model.buffers().rope_cos[0] - attention).abs() < 1e-12);
        }
    }
}

#[test]
fn dynamic_ntk_keeps_the_base_up_to_the_training_length_and_grows_it_past() {
    let s = settings(16, 1, 10_000.0, 4.0, 8);
    let base_at = |length| {
        method_rope(&s, Method::Dynamic, length)
            .unwrap()
            .effective_base()
    };
    assert_eq!(base_at(4), 10_000.0);
    assert_eq!(base_at(8), 10_000.0);
    assert!(base_at(9) > 10_000.0);
    assert!(base_at(64) > base_at(32) && base_at(32) > base_at(16));
}

// ---------------------------------------------------------------------------------------------
// 2. The fine-tune's gradients with each method in place.

/// The settings of the gradient checks: factor 3, so the fine-tune runs at 18 tokens, three
/// times the original 6; YaRN's attention factor 1.11, LongRoPE's 1.26.
fn grad_settings() -> TrainSettings {
    TrainSettings {
        task: Task::Passkey,
        d_model: 16,
        heads: 2,
        layers: 2,
        train_len: 6,
        base: 100.0,
        factor: 3.0,
        tune_steps: 5,
        extend: Method::ALL.to_vec(),
        ..TrainSettings::default()
    }
}

/// The fine-tune's model (at the fine-tuning length; DroPE at the training length without
/// RoPE), moved off its initial point, and a batch: sequences of three lengths, past the
/// original 6, or for a method that depends on the length all of the length its tables are
/// built for (so a reader that rebuilds them from `rope_scaling` at the sequence's length sees
/// the same ones).
fn tuned_model<T: Real>(s: &TrainSettings, method: Method) -> (Model<T>, Vec<T>, Vec<Example>) {
    let scheme = TrainScheme::extended(method, true);
    let config = model_config(s, scheme);
    let model: Model<T> = Model::new(config, longest_test(s));
    let mut params = model.init(7);
    let mut rng = SplitMix64::new(99);
    for p in params.iter_mut() {
        *p += T::from_f64(0.05 * rng.next_normal());
    }
    let n = s.tune_len();
    let lengths = if method.by_length() {
        [n, n, n]
    } else {
        [7, n, 12]
    };
    let mut data = SplitMix64::new(5);
    let examples = lengths
        .iter()
        .map(|&len| s.task.sample(&mut data, len))
        .collect();
    (model, params, examples)
}

#[test]
fn the_fine_tune_path_uses_each_method_at_the_fine_tuning_length() {
    let s = grad_settings();
    assert_eq!(s.tune_len(), 18);
    for method in Method::ALL {
        let scheme = TrainScheme::extended(method, true);
        let c = model_config(&s, scheme);
        assert_eq!(run_steps(&s, scheme), 5);
        assert_eq!(run_steps(&s, TrainScheme::extended(method, false)), 0);
        match method_rope(&s, method, s.tune_len()) {
            Some(rope) => {
                let want = model_config_at(&s, scheme, s.tune_len());
                assert_eq!(c, want, "{}", method.id());
                let Position::Rope { scaling, .. } = &c.position else {
                    unreachable!()
                };
                assert_eq!(*scaling, rope.scaling, "{}", method.id());
            }
            None => assert_eq!(c.position, Position::None),
        }
    }
    // The checks below run with a scaled position: an attention factor ≠ 1, a grown base.
    let yarn = method_rope(&s, Method::Yarn, 18).unwrap();
    assert!(yarn.attention_factor() > 1.1);
    let longrope = method_rope(&s, Method::LongRope, 18).unwrap();
    assert!(longrope.attention_factor() > 1.2);
    assert!(
        method_rope(&s, Method::Dynamic, 18)
            .unwrap()
            .effective_base()
            > 100.0
    );
    assert!(
        matches!(method_rope(&s, Method::Pi, 18).unwrap().scaling, RopeScaling::Interpolation(f) if f == 3.0)
    );
}

#[test]
fn fine_tune_gradients_with_each_method_match_finite_differences() {
    let s = grad_settings();
    for method in Method::ALL {
        let (model, params, examples) = tuned_model::<f64>(&s, method);
        let batch = batch_of(&examples);
        let mut tape = Tape::default();
        model.forward(&params, &batch, &mut tape).unwrap();
        let mut grads = vec![0.0; params.len()];
        model.backward(&params, &batch, &mut tape, &mut grads);
        let loss = |p: &[f64]| {
            let mut t = Tape::default();
            model.forward(p, &batch, &mut t).unwrap().loss
        };
        let mut worst: f64 = 0.0;
        for t in &model.layout.tensors {
            let mut picks = SplitMix64::new(t.offset as u64);
            for _ in 0..t.len().min(8) {
                let i = t.offset + (picks.next_u64() % t.len() as u64) as usize;
                let h = 1e-5;
                let (mut up, mut down) = (params.clone(), params.clone());
                up[i] += h;
                down[i] -= h;
                let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
                let err = (numeric - grads[i]).abs() / (numeric.abs() + grads[i].abs()).max(1e-7);
                assert!(
                    err < 1e-5 || (numeric - grads[i]).abs() < 1e-9,
                    "{} {}[{}]: backward {} vs finite difference {}",
                    method.id(),
                    t.name,
                    i - t.offset,
                    grads[i],
                    numeric
                );
                worst = worst.max(err);
            }
        }
        eprintln!("{}: worst relative error {worst:.2e}", method.id());
    }
}

/// A dump for tests/python/grad_check.py: the fine-tune's model with its scaled tables in its
/// buffers, the batch, the loss and every gradient.
fn dump<T: Real>(s: &TrainSettings, method: Method) -> Vec<u8> {
    let (model, params, examples) = tuned_model::<T>(s, method);
    let batch = batch_of(&examples);
    let mut tape = Tape::default();
    let loss = model.forward(&params, &batch, &mut tape).unwrap().loss;
    let mut grads = vec![T::ZERO; params.len()];
    model.backward(&params, &batch, &mut tape, &mut grads);
    let mut entries = safetensors::model_entries(&model, &params);
    for t in &model.layout.tensors {
        entries.push(Entry {
            name: format!("grad.{}", t.name),
            shape: t.shape.clone(),
            data: Data::real(&grads[t.range()]),
        });
    }
    for (i, e) in examples.iter().enumerate() {
        let mut pair =
            safetensors::examples_entries(&format!("batch.{i}"), std::slice::from_ref(e));
        for entry in &mut pair {
            entry.shape.remove(0);
        }
        entries.extend(pair);
    }
    let names: Vec<String> = model
        .layout
        .tensors
        .iter()
        .map(|t| safetensors::json_string(&t.name))
        .collect();
    let scheme = TrainScheme::extended(method, true).id();
    // The config without `rope_scaling`: pe_model.py then runs on the exported buffers, the
    // tables this model trained with (tested against transformers' formulas above), so the
    // check is of the backward pass alone, whatever the script computes from a config.
    let mut plain = model.clone();
    if let Position::Rope { scaling, .. } = &mut plain.config.position {
        *scaling = RopeScaling::None;
    }
    let config = safetensors::config_json(&plain, &scheme, s.task.id(), &s.task.vocab());
    assert!(!config.contains("rope_scaling"));
    safetensors::write(
        &entries,
        &[
            ("config", config),
            ("trained", format!("[{}]", names.join(","))),
            ("loss", format!("{loss:e}")),
        ],
    )
}

/// Runs tests/python/grad_check.py (HIPS autograd over static/train/pe_model.py) on dumps.
fn autograd_agrees(tag: &str, files: Vec<Vec<u8>>) {
    let dir = std::env::temp_dir().join(format!("pe-explorer-ext-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paths: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let p = dir.join(format!("{i}.safetensors"));
            std::fs::write(&p, bytes).unwrap();
            p.display().to_string()
        })
        .collect();
    let out = std::process::Command::new("python3")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/grad_check.py"
        ))
        .args(&paths)
        .output()
        .expect("python3 is needed: run `bash scripts/setup.sh --test` first");
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{text}");
    assert!(
        !text.contains("No module named"),
        "numpy and autograd are needed: run `bash scripts/setup.sh --test` first.\n{text}"
    );
    assert!(out.status.success(), "autograd disagrees:\n{text}");
    assert!(
        text.contains(&format!("all {} models agree", files.len())),
        "{text}"
    );
}

#[test]
fn fine_tune_gradients_with_each_method_match_autograd() {
    let s = grad_settings();
    let mut files: Vec<Vec<u8>> = Method::ALL.iter().map(|&m| dump::<f64>(&s, m)).collect();
    files.extend(Method::ALL.iter().map(|&m| dump::<f32>(&s, m)));
    autograd_agrees("methods", files);
}

// ---------------------------------------------------------------------------------------------
// 3. The passkey task.

fn token(word: &str) -> u32 {
    Task::Passkey.encode(&[word]).unwrap()[0]
}

fn is_digit(t: u32) -> bool {
    Task::Passkey.word(t).parse::<u8>().is_ok()
}

/// Where the key is, checking the example's shape: filler, "key d1 d2", filler, "? d1", with
/// the targets d1 at the "?" and d2 at the d1 after it, nothing else asked.
fn key_position(e: &Example) -> usize {
    let n = e.tokens.len();
    assert_eq!(e.targets.len(), n);
    let keys: Vec<usize> = (0..n).filter(|&i| e.tokens[i] == token(KEY)).collect();
    assert_eq!(keys.len(), 1, "one key in {:?}", e.tokens);
    let k = keys[0];
    let (d1, d2) = (e.tokens[k + 1], e.tokens[k + 2]);
    assert!(is_digit(d1) && is_digit(d2));
    assert_eq!(&e.tokens[n - 2..], &[token(QUERY), d1]);
    assert_eq!(e.targets[n - 2], Some(d1));
    assert_eq!(e.targets[n - 1], Some(d2));
    assert!(e.targets[..n - 2].iter().all(Option::is_none));
    // Everything else is filler: no digit, key or query.
    for (i, &t) in e.tokens.iter().enumerate() {
        if i < k || (i > k + 2 && i < n - 2) {
            assert!(
                !is_digit(t) && t != token(KEY) && t != token(QUERY),
                "{:?}",
                e.tokens
            );
        }
    }
    k
}

#[test]
fn passkey_examples_ask_for_the_two_key_digits_at_the_last_two_positions() {
    let mut rng = SplitMix64::new(3);
    for len in [5, 6, 8, 13, 64] {
        for _ in 0..50 {
            let e = Task::Passkey.sample(&mut rng, len);
            assert_eq!(e.tokens.len(), len);
            assert!(key_position(&e) <= len - 5);
        }
    }
    assert_eq!(Task::Passkey.min_length(), 5);
}

#[test]
fn heldout_example_i_hides_its_key_at_depth_bin_i_mod_8() {
    assert_eq!(DEPTHS, 8);
    for len in [5, 8, 16, 32, 64] {
        let filler = len - 5;
        let set = Task::Passkey.heldout(11, len, 40);
        assert_eq!(set.len(), 40);
        for (i, e) in set.iter().enumerate() {
            assert_eq!(e.tokens.len(), len);
            let k = i % DEPTHS;
            let before = key_position(e);
            // k/7 of the filler before the key, to the nearest token.
            let exact = k as f64 * filler as f64 / 7.0;
            assert!(
                (before as f64 - exact).abs() <= 0.5,
                "length {len}, example {i}: key after {before} filler tokens, depth {k}/7 is {exact}"
            );
            if k == 0 {
                assert_eq!(before, 0);
            }
            if k == 7 {
                assert_eq!(before, filler);
            }
        }
        // The keys vary: not the same two digits everywhere.
        let keys: std::collections::HashSet<_> = set.iter().map(|e| e.targets[len - 2]).collect();
        assert!(keys.len() > 3, "length {len}");
    }
    assert!((Task::Passkey.depth_share(7) - 1.0).abs() < 1e-15);
    assert_eq!(Task::Passkey.depth_share(0), 0.0);
}

#[test]
fn passkey_chance_is_one_in_ten() {
    assert!((Task::Passkey.chance() - 0.1).abs() < 1e-12);
    let set = Task::Passkey.heldout(1, 32, 80);
    assert!((Task::Passkey.chance_on(&set) - 0.1).abs() < 1e-12);
}

// ---------------------------------------------------------------------------------------------
// 4. The experiment.

/// A tiny passkey experiment: learned and RoPE, 20 steps at length 6; extrapolation, the two
/// methods that depend on the length, YaRN (attention factor ≠ 1) and DroPE, at factor 2
/// (fine-tuned at 12 tokens) for 5 steps.
fn tiny() -> TrainSettings {
    TrainSettings {
        task: Task::Passkey,
        schemes: vec![
            TrainScheme::of(Scheme::Learned),
            TrainScheme::of(Scheme::Rope),
        ],
        layers: 1,
        heads: 2,
        d_model: 16,
        train_len: 6,
        steps: 20,
        seed: 2,
        extend: vec![
            Method::Extrapolate,
            Method::Dynamic,
            Method::Yarn,
            Method::LongRope,
            Method::Drope,
        ],
        factor: 2.0,
        tune_steps: 5,
        ..TrainSettings::default()
    }
}

type Curve = Vec<(usize, u64, Option<u64>)>;

fn curve(r: &Run) -> Curve {
    r.curve
        .iter()
        .map(|p| (p.step, p.loss.to_bits(), p.accuracy.map(f64::to_bits)))
        .collect()
}

/// The tiny experiment, trained once for every test here, and what was seen on the way.
struct Trained {
    e: Experiment,
    /// Some extension run was waiting for the RoPE model.
    waiting_seen: bool,
    /// The page, rebuilt from a report now and then and at the end.
    page: Progress,
    /// Reports applied while training.
    reports: usize,
}

/// The whole experiment run a piece at a time (stopping after every piece), checking at each
/// stop that an extension run holds the tables of the length it works at (the fine-tuning
/// length while it trains, a cell's length while that cell fills), and now and then that a
/// report rebuilds every run's status and cells on the page.
fn trained() -> Trained {
    {
        let s = tiny();
        let mut e = Experiment::new(s.clone());
        let count = heldout_size(s.task);
        let (mut waiting_seen, mut pieces, mut reports) = (false, 0usize, 0);
        let (mut reporter, mut page) = (Reporter::default(), Progress::default());
        while e.advance(&mut |_| false) {
            pieces += 1;
            for r in &e.runs {
                let Some(ext) = r.scheme.extended else {
                    continue;
                };
                waiting_seen |= r.status == Status::Waiting;
                let at = match r.status {
                    Status::Training if ext.method == Method::Drope => Some(s.train_len),
                    Status::Training => Some(s.tune_len()),
                    Status::Testing => r
                        .cells
                        .iter()
                        .find(|c| c.examples > 0 && c.examples < count)
                        .map(|c| c.length),
                    _ => None,
                };
                if let Some(length) = at {
                    assert_eq!(
                        r.model.config,
                        model_config_at(&s, r.scheme, length),
                        "{} at length {length}",
                        r.scheme.id()
                    );
                }
            }
            if pieces % 97 == 0 {
                page.apply(&reporter.report(&e, Phase::Training, (1.0, 0.0), &[]));
                reports += 1;
                for (mine, theirs) in e.runs.iter().zip(&page.runs) {
                    assert_eq!(mine.scheme, theirs.scheme);
                    assert_eq!(mine.status, theirs.status, "{}", mine.scheme.id());
                    assert_eq!(mine.cells, theirs.cells, "{}", mine.scheme.id());
                }
            }
        }
        page.apply(&reporter.report(&e, Phase::Done, (2.0, 0.0), &[]));
        Trained {
            e,
            waiting_seen,
            page,
            reports,
        }
    }
}

/// The experiment is trained once (a piece at a time, which takes a while) for every check of
/// it; each check is a function of its own below.
#[test]
fn the_trained_experiment() {
    let t = trained();
    tests_each_method_with_the_tables_of_each_length(&t);
    is_the_same_extended_at_the_start_or_afterwards(&t);
    every_fine_tune_but_dropes_sees_the_same_batches(&t);
    passkey_cells_count_each_depth_and_the_depths_sum_to_the_cell(&t);
    reports_with_depths_rebuild_the_same_cells_on_the_page(&t);
}

fn tests_each_method_with_the_tables_of_each_length(t: &Trained) {
    let (e, s) = (&t.e, &t.e.settings);
    assert!(t.waiting_seen, "the extension runs wait for the RoPE model");
    assert!(e.finished());
    assert_eq!(e.runs.len(), 2 + 2 * s.extend.len());
    let longest = longest_test(s);
    for r in &e.runs {
        assert_eq!(r.status, Status::Done, "{}", r.scheme.id());
        let Some(ext) = r.scheme.extended else {
            continue;
        };
        assert_eq!(
            r.step,
            if ext.tuned { s.tune_steps } else { 0 },
            "{}",
            r.scheme.id()
        );
        assert_eq!(r.curve.len(), r.step);
        if ext.method == Method::Drope {
            assert!(r.model.buffers().rope_cos.is_empty());
            continue;
        }
        // The last cell tested was the longest: a method that depends on the length holds
        // that length's tables; Hugging Face's numbers in the f32 the trainer runs in.
        let (inv, f) = hf(
            ext.method,
            s.base,
            s.d_model / s.heads,
            s.factor,
            s.train_len,
            longest,
        );
        tables_agree(&r.scheme.id(), &r.model, &inv, f, 2e-5);
    }
}

fn is_the_same_extended_at_the_start_or_afterwards(t: &Trained) {
    let s = tiny();
    let e = &t.e;
    // The same experiment with its extension added afterwards: bit for bit the same.
    let mut later = Experiment::new(s.base());
    later.run_to_end();
    assert_eq!(later.runs.len(), 2);
    assert!(later.extend(s.clone()));
    later.run_to_end();
    assert_eq!(later.settings, s);
    assert_eq!(e.runs.len(), later.runs.len());
    for (a, b) in e.runs.iter().zip(&later.runs) {
        assert_eq!(a.scheme, b.scheme);
        assert_eq!(a.cells, b.cells, "{}", a.scheme.id());
        assert_eq!(curve(a), curve(b), "{}", a.scheme.id());
        assert_eq!(a.params, b.params, "{}", a.scheme.id());
    }
    let find = |scheme: TrainScheme| e.runs.iter().find(|r| r.scheme == scheme).unwrap();
    // Zero-shot extrapolation is the trained RoPE model as it is.
    let rope = find(TrainScheme::of(Scheme::Rope));
    let extrapolated = find(TrainScheme::extended(Method::Extrapolate, false));
    assert_eq!(extrapolated.cells, rope.cells);
    assert_eq!(extrapolated.params, rope.params);
    // Every zero-shot run holds the trained weights; every tuned one moved from them.
    for r in &e.runs {
        match r.scheme.extended {
            Some(x) if !x.tuned => assert_eq!(r.params, rope.params, "{}", r.scheme.id()),
            Some(_) => assert_ne!(r.params, rope.params, "{}", r.scheme.id()),
            None => {}
        }
    }
    // Extending again replaces the extension runs (none twice), waiting for nothing: the RoPE
    // model is trained, so the next piece of work launches them from its weights.
    assert!(later.extend(s.clone()));
    assert_eq!(later.runs.len(), e.runs.len());
    assert!(later.runs[2..]
        .iter()
        .all(|r| r.status == Status::Waiting && r.curve.is_empty() && r.step == 0));
    // Fewer methods, another factor: accepted, and only those runs.
    let other = TrainSettings {
        extend: vec![Method::Pi, Method::Yarn],
        factor: 4.0,
        tune_steps: 0,
        ..s.clone()
    };
    assert!(later.extend(other.clone()));
    let ids: Vec<String> = later.runs.iter().map(|r| r.scheme.id()).collect();
    assert_eq!(ids, ["learned", "rope", "rope+pi", "rope+yarn"]);
    // Anything else differing is another experiment: refused, nothing changed.
    for changed in [
        TrainSettings {
            steps: 21,
            ..s.clone()
        },
        TrainSettings {
            seed: 3,
            ..s.clone()
        },
        TrainSettings {
            lr: 1e-3,
            ..s.clone()
        },
        TrainSettings {
            train_len: 10,
            ..s.clone()
        },
        TrainSettings {
            task: Task::Copy,
            ..s.clone()
        },
        TrainSettings {
            base: 500.0,
            ..s.clone()
        },
        TrainSettings {
            schemes: vec![TrainScheme::of(Scheme::Rope)],
            ..s.clone()
        },
    ] {
        assert!(!later.extend(changed.clone()), "{changed:?}");
        assert_eq!(later.settings, other);
        assert_eq!(later.runs.len(), 4);
    }
}

fn every_fine_tune_but_dropes_sees_the_same_batches(t: &Trained) {
    let s = tiny();
    let tuned_not_drope = |r: &&Run| {
        r.scheme
            .extended
            .is_some_and(|x| x.tuned && x.method != Method::Drope)
    };
    let fresh = Experiment::new(s.clone());
    let tuned: Vec<Run> = fresh.runs.iter().filter(tuned_not_drope).cloned().collect();
    assert_eq!(tuned.len(), s.extend.len() - 1);
    let batches =
        |mut r: Run| -> Vec<_> { (0..s.tune_steps).map(|_| r.next_batch(&s, None)).collect() };
    let first = batches(tuned[0].clone());
    for b in &first {
        // Every sequence at the fine-tuning length.
        assert!(b.starts.windows(2).all(|w| w[1] - w[0] == s.tune_len()));
    }
    for r in &tuned[1..] {
        assert_eq!(batches(r.clone()), first, "{}", r.scheme.id());
    }
    // After training each took as many from the same stream: the next batch is the same
    // (drawn at the fine-tuning length: testing rebuilt the length-dependent runs' tables for
    // the longest test, at which next_batch would otherwise draw).
    let next: Vec<_> =
        t.e.runs
            .iter()
            .filter(tuned_not_drope)
            .map(|r| r.clone().next_batch(&s, Some(s.tune_len())))
            .collect();
    assert_eq!(next.len(), tuned.len());
    assert!(next.windows(2).all(|w| w[0] == w[1]));
    // DroPE recalibrates on batches as training draws them, up to the training length.
    let drope = fresh
        .runs
        .iter()
        .find(|r| r.scheme == TrainScheme::extended(Method::Drope, true))
        .unwrap();
    let b = drope.clone().next_batch(&s, None);
    assert!(b.starts.windows(2).all(|w| w[1] - w[0] <= s.train_len));
}

#[test]
fn without_rope_among_the_schemes_there_is_nothing_to_extend() {
    let s = TrainSettings {
        schemes: vec![
            TrainScheme::of(Scheme::Sinusoidal),
            TrainScheme::of(Scheme::Alibi),
        ],
        ..tiny()
    };
    assert!(!s.extends());
    assert_eq!(s.runs(), s.schemes);
    let e = Experiment::new(s.clone());
    assert!(e.runs.iter().all(|r| r.scheme.extended.is_none()));
    assert_eq!(e.runs.len(), 2);
    // No fine-tuning steps: zero-shot runs only.
    let zero = TrainSettings {
        tune_steps: 0,
        ..tiny()
    };
    assert!(zero
        .runs()
        .iter()
        .all(|r| r.extended.is_none_or(|x| !x.tuned)));
    assert_eq!(zero.runs().len(), 2 + zero.extend.len());
}

fn passkey_cells_count_each_depth_and_the_depths_sum_to_the_cell(t: &Trained) {
    let e = &t.e;
    let count = heldout_size(Task::Passkey);
    for r in &e.runs {
        for c in &r.cells {
            assert_eq!(c.depths.len(), DEPTHS, "{}", r.scheme.id());
            if c.missing.is_some() {
                assert_eq!(c.counted, 0);
                continue;
            }
            assert_eq!(c.examples, count);
            // Two answers (the key's two digits) per example, count/8 examples per depth.
            assert_eq!(c.counted, 2 * count);
            assert!(
                c.depths.iter().all(|d| d.1 == 2 * count / DEPTHS),
                "{:?}",
                c.depths
            );
            assert_eq!(c.depths.iter().map(|d| d.0).sum::<usize>(), c.correct);
            assert_eq!(c.depths.iter().map(|d| d.1).sum::<usize>(), c.counted);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 5. What travels between the worker and the page.

fn reports_with_depths_rebuild_the_same_cells_on_the_page(t: &Trained) {
    // Checked at each report while training (see `trained`); here the last report.
    assert!(t.reports > 5, "{} reports", t.reports);
    let (e, page) = (&t.e, &t.page);
    assert_eq!(page.phase, Phase::Done);
    assert_eq!(page.runs.len(), e.runs.len());
    for (mine, theirs) in e.runs.iter().zip(&page.runs) {
        assert_eq!(mine.scheme, theirs.scheme);
        assert_eq!(mine.status, theirs.status);
        assert_eq!(mine.cells, theirs.cells, "{}", mine.scheme.id());
        assert!(mine.cells.iter().all(|c| c.depths.len() == DEPTHS));
        assert_eq!(mine.curve.len(), theirs.curve.len());
    }
    // The learned table's missing cells keep their reason beside their depths.
    let missing = page.runs[0].cells[1].missing.as_deref().unwrap();
    assert!(missing.contains("no embedding"), "{missing}");
    // And one cell by hand: depths travel as correct/counted pairs, in order.
    let mut one = e.clone();
    one.runs.truncate(1);
    one.runs[0].cells[0].depths = (0..DEPTHS).map(|k| (k, 2 * k + 1)).collect();
    one.runs[0].cells[0].missing = Some("a reason, with commas, and/slashes".into());
    let mut p = Progress::default();
    p.apply(&Reporter::default().report(&one, Phase::Done, (0.0, 0.0), &[]));
    assert_eq!(p.runs[0].cells, one.runs[0].cells);
}

#[test]
fn the_extend_command_and_the_extension_ids_round_trip() {
    let s = TrainSettings {
        extend: vec![Method::Pi, Method::Yarn, Method::Drope],
        factor: 2.5,
        tune_steps: 7,
        ..tiny()
    };
    let c = Command::Extend(s.clone(), pe_explorer::train::experiment::Part::WHOLE);
    assert_eq!(Command::from_text(&c.to_text()), Some(c));
    assert_eq!(TrainSettings::from_message(&s.to_message()), s);
    for method in Method::ALL {
        for tuned in [false, true] {
            let scheme = TrainScheme::extended(method, tuned);
            assert_eq!(TrainScheme::from_id(&scheme.id()), Some(scheme));
        }
    }
    assert_eq!(TrainScheme::extended(Method::Pi, true).id(), "rope+pi+ft");
    assert_eq!(
        TrainScheme::from_id("rope+pi+ft"),
        Some(TrainScheme::extended(Method::Pi, true))
    );
    assert_eq!(TrainScheme::from_id("rope+bogus"), None);
    assert_eq!(TrainScheme::from_id("rope+drope+ft+ft"), None);
    // A link naming an unknown method keeps the known ones and says what it ignored.
    let mut t = TrainSettings::default();
    let note = t.apply("extend", "pi,bogus").unwrap();
    assert_eq!(t.extend, vec![Method::Pi]);
    assert!(note.is_some_and(|n| n.contains("bogus")));
    // In the methods' own order, each once.
    t.apply("extend", "yarn,pi,yarn").unwrap();
    assert_eq!(t.extend, vec![Method::Pi, Method::Yarn]);
    t.apply("extend", "all").unwrap();
    assert_eq!(t.extend, Method::ALL.to_vec());
    let pairs = t.link_pairs();
    assert!(pairs
        .iter()
        .any(|(k, v)| *k == "extend" && v.split(',').count() == 8));
}

/// A pasted config's rope_scaling, read by the RoPE paste box's code, runs the trained model
/// exactly as the method of the same name does at the same factor (the trained θ, head width and
/// length standing in for the config's), at every length; what cannot be applied is refused.
#[test]
fn a_pasted_config_applies_its_method_as_the_method_of_the_same_name_does() {
    let configs = [
        (
            Method::Llama3,
            r#"{"hidden_size": 4096, "num_attention_heads": 32, "rope_theta": 500000.0,
               "rope_scaling": {"factor": 4.0, "low_freq_factor": 1.0, "high_freq_factor": 4.0,
               "original_max_position_embeddings": 8192, "rope_type": "llama3"}}"#,
        ),
        (
            Method::Yarn,
            r#"{"rope_type": "yarn", "factor": 4, "original_max_position_embeddings": 32768}"#,
        ),
        (
            Method::Pi,
            r#"{"rope_scaling": {"type": "linear", "factor": 4}}"#,
        ),
        (
            Method::Dynamic,
            r#"{"rope_scaling": {"rope_type": "dynamic", "factor": 4}}"#,
        ),
    ];
    for (method, json) in configs {
        let mut s = settings(32, 2, 10_000.0, 4.0, 8);
        s.apply("rope_config", json).unwrap();
        assert!(!s.rope_config.contains('\n'), "kept on one line");
        assert!(s
            .runs()
            .contains(&TrainScheme::extended(Method::Config, true)));
        for length in [8, 16, 32, 64] {
            let pasted = method_rope(&s, Method::Config, length).unwrap();
            let named = method_rope(&s, method, length).unwrap();
            for i in 0..pasted.pair_count() {
                assert_eq!(
                    pasted.angle(5.0, i),
                    named.angle(5.0, i),
                    "{method:?} pair {i} at length {length}"
                );
            }
            assert_eq!(pasted.attention_factor(), named.attention_factor());
            assert_eq!(
                model_config_at(&s, TrainScheme::extended(Method::Config, false), length).position,
                model_config_at(&s, TrainScheme::extended(method, false), length).position
            );
        }
        // The link and the worker's message carry it.
        let back = TrainSettings::from_message(&s.to_message());
        assert_eq!(back.rope_config, s.rope_config);
    }
    let mut s = TrainSettings::default();
    for bad in [
        r#"{"rope_theta": 10000}"#,
        r#"{"rope_scaling": {"rope_type": "default"}}"#,
        r#"{"rope_scaling": {"rope_type": "yarn", "factor": 4}, "x": "a&b"}"#,
        "not json",
    ] {
        assert!(s.apply("rope_config", bad).is_err(), "{bad}");
        assert_eq!(s.rope_config, "", "a refused paste changes nothing");
    }
    let long = format!(
        r#"{{"rope_type": "longrope", "short_factor": [{}], "long_factor": [1]}}"#,
        vec!["1.0"; 2000].join(",")
    );
    assert!(s.apply("rope_config", &long).is_err());
}

/// A finished run with one held-out cell at the longest length: `correct` of 500 answers.
fn finished(scheme: TrainScheme, correct: usize) -> pe_explorer::train::protocol::RunView {
    let mut r = pe_explorer::train::protocol::RunView::new(scheme);
    r.status = pe_explorer::train::experiment::Status::Done;
    r.cells = vec![pe_explorer::train::experiment::Cell {
        length: 96,
        correct,
        counted: 500,
        examples: 50,
        rival: 0,
        missing: None,
        depths: Vec::new(),
    }];
    r
}

// `extension::summary` names no winner the run cannot tell apart (issue 29 #2): at 500 answers
// each, 79.2 % and 78.5 % differ by 0.7 points against twice the standard error of the
// difference, 2·√(0.792·0.208/500 + 0.785·0.215/500) ≈ 5.2 points: level. And a scheme trained
// without RoPE that beats every extension by more than that is said to.
#[test]
fn the_extension_summary_names_ties_and_a_baseline_that_beats_every_extension() {
    use pe_explorer::train::extension::summary;
    let progress = Progress {
        runs: vec![
            finished(TrainScheme::of(Scheme::Kerple), 489),
            finished(TrainScheme::extended(Method::LongRope, true), 396),
            finished(TrainScheme::extended(Method::Llama3, true), 392),
            finished(TrainScheme::extended(Method::Pi, true), 300),
            finished(TrainScheme::extended(Method::Pi, false), 150),
            finished(TrainScheme::extended(Method::Yarn, false), 200),
        ],
        ..Progress::default()
    };
    let text = summary(&progress, &tiny()).expect("a summary");
    assert!(
        text.contains("best RoPE + LongRoPE, tuned (79.2 %)"),
        "{text}"
    );
    assert!(text.contains("level within sampling noise with"), "{text}");
    assert!(text.contains("llama3"), "{text}");
    assert!(
        !text.contains("noise with PI"),
        "PI is clearly behind: {text}"
    );
    assert!(
        text.contains("more than every RoPE extension here"),
        "{text}"
    );
}

// The fine-tuning chart's accuracy axis starts 10 points below its lowest point, on a multiple
// of 10: curves that all sit in 76–100 % get 60–100 %, not 0–100 % (issue 29 #12).
#[test]
fn tune_chart_axis_starts_near_its_lowest_point() {
    use pe_explorer::train::extension::tune_axis_start;
    assert_eq!(tune_axis_start(76.0), 60.0);
    assert_eq!(tune_axis_start(96.5), 80.0);
    assert_eq!(tune_axis_start(100.0), 90.0);
    assert_eq!(tune_axis_start(5.0), 0.0);
    assert_eq!(tune_axis_start(f64::INFINITY), 0.0, "no points yet");
}

// ---------------------------------------------------------------------------------------------
// The claims box (`train::extension::findings`): a verdict only where the run can give one.

/// A finished run of `scheme` with `cells` (correct of counted, at 1×, 2×, 4×, 8× the training
/// length) and an accuracy curve of (step, accuracy) points.
fn claimed(
    s: &TrainSettings,
    scheme: TrainScheme,
    cells: [(usize, usize); 4],
    curve: &[(usize, f64)],
) -> pe_explorer::train::protocol::RunView {
    use pe_explorer::train::experiment::{Cell, Point};
    let mut r = pe_explorer::train::protocol::RunView::new(scheme);
    r.status = Status::Done;
    r.cells = cells
        .iter()
        .zip(LENGTH_FACTORS)
        .map(|(&(correct, counted), f)| Cell {
            length: f * s.train_len,
            correct,
            counted,
            examples: counted,
            rival: 0,
            missing: None,
            depths: Vec::new(),
        })
        .collect();
    r.curve = curve
        .iter()
        .map(|&(step, a)| Point {
            step,
            loss: 0.1,
            accuracy: Some(a),
        })
        .collect();
    r
}

/// The claims box's finding about the paper whose claim starts with `who`.
fn claim<'a>(
    found: &'a [pe_explorer::train::extension::Finding],
    who: &str,
) -> &'a pe_explorer::train::extension::Finding {
    found
        .iter()
        .find(|f| f.claim.starts_with(who))
        .unwrap_or_else(|| panic!("no claim about {who}"))
}

#[test]
fn the_claims_box_gives_no_verdict_on_a_head_start_or_on_a_model_that_never_learned() {
    use pe_explorer::train::extension::findings;
    let s = TrainSettings {
        extend: vec![Method::Pi, Method::Yarn, Method::Ntk, Method::Drope],
        tune_steps: 60,
        ..TrainSettings::default()
    };
    assert_eq!(s.task.chance(), 0.5);
    let x = |m, tuned| TrainScheme::extended(m, tuned);
    let full = [(400, 400); 4];
    let p = Progress {
        settings: s.to_message(),
        runs: vec![
            // YaRN is at 100 % from its curve's first point; PI gets there at step 18.
            claimed(
                &s,
                x(Method::Yarn, true),
                full,
                &[(3, 1.0), (6, 1.0), (60, 1.0)],
            ),
            claimed(
                &s,
                x(Method::Pi, true),
                full,
                &[(3, 0.7), (18, 1.0), (60, 1.0)],
            ),
            claimed(
                &s,
                x(Method::Yarn, false),
                [(400, 400), (400, 400), (400, 400), (300, 400)],
                &[],
            ),
            // DroPE at chance at its own length, "beating" rivals that fall below chance.
            claimed(
                &s,
                x(Method::Drope, true),
                [(200, 400), (196, 400), (194, 400), (194, 400)],
                &[],
            ),
            claimed(
                &s,
                x(Method::Ntk, true),
                [(400, 400), (300, 400), (100, 400), (40, 400)],
                &[],
            ),
        ],
        ..Progress::default()
    };
    let f = findings(&p, &s);
    let yarn = claim(&f, "YaRN");
    assert_eq!(yarn.holds, None, "{}", yarn.here);
    assert!(yarn.here.contains("head start"), "{}", yarn.here);
    // 100 % is the ceiling, not "too close to chance".
    assert!(!yarn.here.contains("chance"), "{}", yarn.here);
    // The untuned YaRN's own score at the fine-tuning length (48 = 4 × 12): all 400.
    assert!(
        yarn.here.contains("Untuned, YaRN already scores 100 %"),
        "{}",
        yarn.here
    );
    // Untuned below that level: not "a head start with no fine-tuning", but too early to time.
    let mut q = p.clone();
    q.runs[2] = claimed(
        &s,
        x(Method::Yarn, false),
        [(400, 400), (390, 400), (300, 400), (200, 400)],
        &[],
    );
    let early = findings(&q, &s);
    let early = claim(&early, "YaRN");
    assert_eq!(early.holds, None);
    assert!(
        early.here.contains("before the first measurement"),
        "{}",
        early.here
    );
    assert!(!early.here.contains("no fine-tuning"), "{}", early.here);
    let drope = claim(&f, "DroPE");
    assert_eq!(drope.holds, None, "{}", drope.here);
    assert!(drope.here.contains("never learned"), "{}", drope.here);
}
