//! RoPE as checkpoints ship it, against the formulas of Hugging Face transformers'
//! `modeling_rope_utils` (`_compute_default_rope_parameters`, `_compute_linear_scaling_rope_parameters`,
//! `_compute_dynamic_ntk_parameters`, `_compute_llama3_parameters`, `_compute_yarn_parameters`,
//! `_compute_longrope_parameters`), its config standardisation (`RotaryEmbeddingConfigMixin.
//! standardize_rope_params`), and the partial rotary of GPT-NeoX, Phi and Phi-3
//! (`apply_rotary_pos_emb` with `rotary_dim = cos.shape[-1]`). The reference functions below
//! follow that code line by line (in f64), independently of `src/math/rope.rs`; the inverse
//! frequencies must agree to 1e-6 relative and the cos/sin caches (times the attention factor,
//! as the libraries apply it) to 1e-4, at positions up to 32,767.
//!
//! Version followed: transformers `main` as of v5 (2025–26), the code that has YaRN's
//! `truncate` (added with gpt-oss) and `rope_parameters`. The stored snapshot of
//! huggingface/transformers here (commit ef46806, a v4.4x `modeling_rope_utils.py`) predates
//! both, so the current functions were read from verbatim copies of v5's file and of its
//! `RotaryEmbeddingConfigMixin`. Where the versions differ in a way shipped configs hit, this
//! follows the current code:
//! - YaRN's `factor` is the config's `factor`; only when it is null is it
//!   `max_position_embeddings / original_max_position_embeddings`. (Some v4 releases, from
//!   DeepSeek-V3's support on, replaced an explicit factor by that ratio whenever
//!   `original_max_position_embeddings` was present, which turns Qwen2.5's ×4 into ×1.)
//! - longrope likewise: `factor` if given, else the ratio (Phi-3 gives none: 131,072 / 4,096 =
//!   32); its short and long factors are float32 tensors; long_factor is used when the sequence
//!   is longer than `original_max_position_embeddings`.
//! - `truncate` (default true) floors and ceils YaRN's correction range; gpt-oss sets false.
//! - An odd rotary width `dim = int(head_dim · partial_rotary_factor)` gives
//!   `len(arange(0, dim, 2)) = ⌈dim/2⌉` frequencies base^(−2i/dim) and a cache `2·⌈dim/2⌉` wide,
//!   all of it rotated.

mod common;

use pe_explorer::math::rope::{Rope, RopePairing, RopeScaling, Treatment};
use std::f64::consts::PI;

/// `1.0 / (base ** (torch.arange(0, dim, 2) / dim))`.
fn default_inv_freq(base: f64, dim: usize) -> Vec<f64> {
    (0..dim)
        .step_by(2)
        .map(|i| 1.0 / base.powf(i as f64 / dim as f64))
        .collect()
}

fn llama3_inv_freq(base: f64, dim: usize, factor: f64, low: f64, high: f64, old: f64) -> Vec<f64> {
    let (low_freq_wavelen, high_freq_wavelen) = (old / low, old / high);
    default_inv_freq(base, dim)
        .into_iter()
        .map(|inv| {
            let wavelen = 2.0 * PI / inv;
            // inv_freq_llama = where(wavelen > low_freq_wavelen, inv_freq / factor, inv_freq)
            let llama = if wavelen > low_freq_wavelen {
                inv / factor
            } else {
                inv
            };
            let smooth_factor = (old / wavelen - low) / (high - low);
            let smoothed = (1.0 - smooth_factor) * llama / factor + smooth_factor * llama;
            // is_medium_freq = ~(wavelen < high_freq_wavelen) * ~(wavelen > low_freq_wavelen)
            let is_medium = wavelen >= high_freq_wavelen && wavelen <= low_freq_wavelen;
            if is_medium {
                smoothed
            } else {
                llama
            }
        })
        .collect()
}

fn get_mscale(scale: f64, mscale: f64) -> f64 {
    if scale <= 1.0 {
        1.0
    } else {
        0.1 * mscale * scale.ln() + 1.0
    }
}

/// (inv_freq, attention_factor) as `_compute_yarn_parameters`, with `truncate` as
/// `find_correction_range` takes it (floor and ceil the correction dimensions, or not).
#[allow(clippy::too_many_arguments)]
fn yarn(
    base: f64,
    dim: usize,
    factor: f64,
    original: f64,
    beta_fast: f64,
    beta_slow: f64,
    mscale: Option<(f64, f64)>,
    truncate: bool,
) -> (Vec<f64>, f64) {
    let attention_factor = match mscale {
        Some((m, all)) => get_mscale(factor, m) / get_mscale(factor, all),
        None => get_mscale(factor, 1.0),
    };
    let find_correction_dim = |num_rotations: f64| {
        (dim as f64 * (original / (num_rotations * 2.0 * PI)).ln()) / (2.0 * base.ln())
    };
    let (mut low, mut high) = (
        find_correction_dim(beta_fast),
        find_correction_dim(beta_slow),
    );
    if truncate {
        low = low.floor();
        high = high.ceil();
    }
    let (low, high) = (low.max(0.0), high.min(dim as f64 - 1.0));
    let (min, max) = (low, if low == high { high + 0.001 } else { high });
    let pos_freqs: Vec<f64> = (0..dim)
        .step_by(2)
        .map(|i| base.powf(i as f64 / dim as f64))
        .collect();
    // linear_ramp_factor(low, high, dim // 2): torch.arange(dim // 2) - min, over max - min.
    let inv = pos_freqs
        .iter()
        .enumerate()
        .map(|(i, pf)| {
            let extrapolation = 1.0 / pf;
            let interpolation = 1.0 / (factor * pf);
            let ramp = ((i as f64 - min) / (max - min)).clamp(0.0, 1.0);
            let extrapolation_factor = 1.0 - ramp;
            interpolation * (1.0 - extrapolation_factor) + extrapolation * extrapolation_factor
        })
        .collect();
    (inv, attention_factor)
}

fn dynamic(base: f64, dim: usize, factor: f64, max_pos: f64, seq_len: f64) -> Vec<f64> {
    let seq_len = if seq_len > max_pos { seq_len } else { max_pos };
    let base = base
        * ((factor * seq_len / max_pos) - (factor - 1.0)).powf(dim as f64 / (dim as f64 - 2.0));
    default_inv_freq(base, dim)
}

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

/// Frequencies to 1e-6; caches cos(m·θ)·f and sin(m·θ)·f to 1e-4 at positions up to 32,767;
/// and the rotation of a vector equals the libraries' q·cos + rotate_half(q)·sin.
/// A partial rotation: `rope` turns `rotary_dim` dimensions as `pairs` pairs and passes
/// `unrotated` through, with transformers' default frequencies over the rotated width (θ `base`)
/// and no attention factor.
fn partial_agrees(
    label: &str,
    rope: &Rope,
    base: f64,
    (rotary_dim, pairs, unrotated): (usize, usize, usize),
) {
    assert_eq!(
        (rope.rotary_dim, rope.pair_count(), rope.unrotated()),
        (rotary_dim, pairs, unrotated),
        "{label}"
    );
    agrees(label, rope, &default_inv_freq(base, rotary_dim), 1.0);
}

fn agrees(label: &str, rope: &Rope, inv: &[f64], attention_factor: f64) {
    assert_eq!(rope.pair_count(), inv.len(), "{label}: pairs");
    for (i, want) in inv.iter().enumerate() {
        let got = rope.theta(i) * rope.scaled_position(1.0);
        assert!(
            close(got, *want, 1e-6),
            "{label}: inv_freq[{i}] = {got}, HF {want}"
        );
    }
    assert!(
        close(rope.attention_factor(), attention_factor, 1e-9),
        "{label}: attention factor"
    );
    for m in [0usize, 1, 7, 100, 2047, 4096, 8191, 8192, 16_384, 32_767] {
        for (i, theta) in inv.iter().enumerate() {
            let want = (m as f64 * theta).cos() * attention_factor;
            let got = rope.angle(m as f64, i).cos() * rope.attention_factor();
            assert!(
                (got - want).abs() <= 1e-4,
                "{label}: cos cache at m = {m}, pair {i}"
            );
            let want = (m as f64 * theta).sin() * attention_factor;
            let got = rope.angle(m as f64, i).sin() * rope.attention_factor();
            assert!(
                (got - want).abs() <= 1e-4,
                "{label}: sin cache at m = {m}, pair {i}"
            );
        }
    }
    // q·cos + rotate_half(q)·sin on the rotated dimensions (rotate-half layout); the rest pass.
    let d = rope.d_model;
    let half = inv.len();
    let q: Vec<f64> = (0..d).map(|j| ((j * 7 + 3) % 11) as f64 - 5.0).collect();
    let m = 12_345.0;
    let rotated = rope.rotate(&q, m);
    for j in 0..d {
        let want = if j < 2 * half {
            let (theta, partner) = (
                inv[j % half],
                if j < half { -q[j + half] } else { q[j - half] },
            );
            (q[j] * (m * theta).cos() + partner * (m * theta).sin()) * attention_factor
        } else {
            q[j]
        };
        assert!(
            (rotated[j] - want).abs() <= 1e-4 * (1.0 + want.abs()),
            "{label}: rotated[{j}]"
        );
    }
}

#[test]
fn llama_3_1_8b() {
    // config.json: rope_theta 500000, head_dim 128 (4096 / 32), rope_scaling {factor 8,
    // low_freq_factor 1, high_freq_factor 4, original_max_position_embeddings 8192}.
    let scaling = RopeScaling::Llama3 {
        factor: 8.0,
        low: 1.0,
        high: 4.0,
        original: 8192,
    };
    let rope = Rope::new(128, 500_000.0, RopePairing::RotateHalf, scaling);
    agrees(
        "Llama 3.1 8B",
        &rope,
        &llama3_inv_freq(500_000.0, 128, 8.0, 1.0, 4.0, 8192.0),
        1.0,
    );
    // The fast pairs are left alone, the slow ones divided by 8, a band in between.
    assert_eq!(rope.treatment(0), Treatment::Kept);
    assert_eq!(rope.treatment(63), Treatment::Interpolated);
    assert!((0..64).any(|i| rope.treatment(i) == Treatment::Ramped));
}

#[test]
fn yarn_with_factors_4_and_16_and_deepseeks_mscale() {
    // The app's YaRN with transformers' defaults (rotate-half), checked against the reference.
    let yarn_agrees = |label: &str, base: f64, dim: usize, factor: f64, original: usize| {
        let rope = Rope::new(
            dim,
            base,
            RopePairing::RotateHalf,
            common::yarn_scaling(factor, original, true),
        );
        let (inv, af) = yarn(base, dim, factor, original as f64, 32.0, 1.0, None, true);
        agrees(label, &rope, &inv, af);
        (rope, af)
    };
    // Qwen2.5-style: θ 1e6, head_dim 128, factor 4 over 32,768.
    let (_, af) = yarn_agrees("YaRN ×4", 1e6, 128, 4.0, 32_768);
    assert!(close(af, 0.1 * 4f64.ln() + 1.0, 1e-12));
    // θ 10000, head_dim 64, factor 16 over 4,096.
    let (r16, _) = yarn_agrees("YaRN ×16", 10_000.0, 64, 16.0, 4096);
    assert_eq!(r16.treatment(0), Treatment::Kept);
    assert_eq!(r16.treatment(31), Treatment::Interpolated);
    assert!((0..32).any(|i| r16.treatment(i) == Treatment::Ramped));
    // DeepSeek-V3: factor 40, mscale = mscale_all_dim = 1, so the factor cancels to 1.
    let ds = Rope::new(
        64,
        10_000.0,
        RopePairing::RotateHalf,
        RopeScaling::Yarn {
            factor: 40.0,
            original: 4096,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: 1.0,
            mscale_all_dim: 1.0,
            attention_factor: None,
            truncate: true,
        },
    );
    let (inv, af) = yarn(
        10_000.0,
        64,
        40.0,
        4096.0,
        32.0,
        1.0,
        Some((1.0, 1.0)),
        true,
    );
    assert!(close(af, 1.0, 1e-12));
    agrees("DeepSeek YaRN ×40", &ds, &inv, af);
}

#[test]
fn dynamic_ntk_below_and_above_the_original_maximum() {
    for (length, label) in [(2048, "below"), (4096, "at"), (16_384, "above")] {
        let rope = Rope::new(
            128,
            10_000.0,
            RopePairing::RotateHalf,
            RopeScaling::DynamicNtk {
                factor: 2.0,
                original: 4096,
                length,
            },
        );
        agrees(
            &format!("dynamic NTK {label}"),
            &rope,
            &dynamic(10_000.0, 128, 2.0, 4096.0, length as f64),
            1.0,
        );
        let changed = (0..64).any(|i| rope.treatment(i) != Treatment::Kept);
        assert_eq!(changed, length > 4096, "{label}");
    }
}

#[test]
fn linear_interpolation() {
    let rope = Rope::new(
        64,
        10_000.0,
        RopePairing::RotateHalf,
        RopeScaling::Interpolation(4.0),
    );
    let inv: Vec<f64> = default_inv_freq(10_000.0, 64)
        .iter()
        .map(|x| x / 4.0)
        .collect();
    agrees("linear ×4", &rope, &inv, 1.0);
    assert!((0..32).all(|i| rope.treatment(i) == Treatment::Interpolated));
}

#[test]
fn partial_rotary_fractions_of_gpt_neox_and_phi() {
    // GPT-NeoX-20B: head_dim 96, rotary_pct 0.25 → int(96 · 0.25) = 24 dimensions rotated.
    let neox = Rope::new(96, 10_000.0, RopePairing::RotateHalf, RopeScaling::None)
        .with_rotary_fraction(0.25);
    partial_agrees("GPT-NeoX rotary_pct 0.25", &neox, 10_000.0, (24, 12, 72));
    // Phi-2: head_dim 80, partial_rotary_factor 0.4 → 32.
    let phi = Rope::new(80, 10_000.0, RopePairing::RotateHalf, RopeScaling::None)
        .with_rotary_fraction(0.4);
    partial_agrees(
        "Phi-2 partial_rotary_factor 0.4",
        &phi,
        10_000.0,
        (32, 16, 48),
    );
    // int() truncates: 0.4 of 70 is 28, and 0.33 of 64 is 21: an odd width, which transformers
    // spreads as arange(0, 21, 2), 11 frequencies over 21, a cache 22 wide, 22 dimensions turned.
    assert_eq!(
        Rope::new(70, 1e4, RopePairing::RotateHalf, RopeScaling::None)
            .with_rotary_fraction(0.4)
            .rotary_dim,
        28
    );
    let odd =
        Rope::new(64, 1e4, RopePairing::RotateHalf, RopeScaling::None).with_rotary_fraction(0.33);
    partial_agrees("rotary fraction 0.33 of 64", &odd, 1e4, (21, 11, 42));
}

/// (inv_freq, attention_factor) as `_compute_longrope_parameters`: `factor` as given, or
/// `max_position_embeddings / original_max_position_embeddings`; the attention factor
/// √(1 + ln factor / ln original) (1 when factor ≤ 1); `ext_factors = torch.tensor(long_factor
/// if seq_len > original else short_factor, dtype=float32)`; `inv_freq = 1 / (ext_factors ·
/// base^(arange(0, dim, 2) / dim))`.
#[allow(clippy::too_many_arguments)]
fn longrope(
    base: f64,
    dim: usize,
    short_factor: &[f64],
    long_factor: &[f64],
    factor: Option<f64>,
    max_position_embeddings: f64,
    original: f64,
    seq_len: usize,
) -> (Vec<f64>, f64) {
    let factor = factor.unwrap_or(max_position_embeddings / original);
    let attention_factor = if factor <= 1.0 {
        1.0
    } else {
        (1.0 + factor.ln() / original.ln()).sqrt()
    };
    let ext: Vec<f64> = if seq_len as f64 > original {
        long_factor
    } else {
        short_factor
    }
    .iter()
    .map(|x| *x as f32 as f64)
    .collect();
    let inv = (0..dim)
        .step_by(2)
        .zip(&ext)
        .map(|(i, e)| 1.0 / (e * base.powf(i as f64 / dim as f64)))
        .collect();
    (inv, attention_factor)
}

/// The numbers of the JSON list that follows `key` in `text` (read without the app's parser).
fn json_list(text: &str, key: &str) -> Vec<f64> {
    let start = text.find(&format!("\"{key}\"")).expect(key);
    let open = start + text[start..].find('[').unwrap() + 1;
    let close = open + text[open..].find(']').unwrap();
    text[open..close]
        .split(',')
        .map(|x| x.trim().parse::<f64>().unwrap())
        .collect()
}

/// The settings a pasted config gives, applied to the defaults.
fn pasted(json: &str) -> pe_explorer::state::Settings {
    let c = pe_explorer::rope_config::RopeConfig::from_json(json).unwrap_or_else(|e| panic!("{e}"));
    let mut s = pe_explorer::state::Settings::default();
    c.apply(&mut s);
    s
}

/// How many of `inv` the rope gets wrong by more than 1e-6 relative, and the largest error.
fn wrong(rope: &Rope, inv: &[f64]) -> (usize, f64) {
    let errors: Vec<f64> = inv
        .iter()
        .enumerate()
        .map(|(i, w)| (rope.theta(i) * rope.scaled_position(1.0) - w).abs() / w.abs())
        .collect();
    (
        errors.iter().filter(|e| **e > 1e-6).count(),
        errors.iter().copied().fold(0.0, f64::max),
    )
}

#[test]
fn qwen2_5_1m_reads_theta_ten_million_and_a_million_positions() {
    // Qwen/Qwen2.5-7B-Instruct-1M config.json (the RoPE part): no rope_scaling.
    let s = pasted(
        r#"{"model_type": "qwen2", "hidden_size": 3584, "num_attention_heads": 28, "max_position_embeddings": 1010000, "rope_theta": 10000000.0}"#,
    );
    assert_eq!(
        (s.base, s.d_model, s.trained_length, s.length),
        (1e7, 128, 1_010_000, 65_536)
    );
    let rope = s.rope();
    agrees("Qwen2.5-1M", &rope, &default_inv_freq(1e7, 128), 1.0);
    // θ read as 1,000,000 (the old range's end) gets 63 of the 64 frequencies wrong.
    let capped = Rope::new(128, 1e6, RopePairing::RotateHalf, RopeScaling::None);
    assert_eq!(wrong(&capped, &default_inv_freq(1e7, 128)).0, 63);
}

#[test]
fn gpt_oss_yarn_without_truncation() {
    let s = pasted(
        r#"{"head_dim":64,"rope_theta":150000,"rope_scaling":{"rope_type":"yarn","factor":32.0,"beta_fast":32.0,"beta_slow":1.0,"original_max_position_embeddings":4096,"truncate":false}}"#,
    );
    assert!(!s.schemes.rope.truncate);
    assert_eq!((s.d_model, s.base, s.trained_length), (64, 150_000.0, 4096));
    let rope = s.rope();
    let (inv, af) = yarn(150_000.0, 64, 32.0, 4096.0, 32.0, 1.0, None, false);
    assert!(close(af, 0.1 * 32f64.ln() + 1.0, 1e-12));
    agrees("gpt-oss YaRN ×32, truncate false", &rope, &inv, af);
    // Truncating the ramp (the default) moves several pairs by a lot: the setting matters.
    let (truncated, _) = yarn(150_000.0, 64, 32.0, 4096.0, 32.0, 1.0, None, true);
    let differ = inv
        .iter()
        .zip(&truncated)
        .filter(|(a, b)| ((*a - *b) / *a).abs() > 0.01)
        .count();
    assert!(differ >= 5, "{differ} pairs differ");
}

#[test]
fn phi_3_5_longrope_short_and_long_factors() {
    let json = pe_explorer::rope_config::PRESETS
        .iter()
        .find(|p| p.id == "phi-3.5-mini")
        .expect("a Phi-3.5 preset")
        .json;
    let (short, long) = (
        json_list(json, "short_factor"),
        json_list(json, "long_factor"),
    );
    assert_eq!((short.len(), long.len()), (48, 48));
    let mut s = pasted(json);
    assert_eq!(
        (s.d_model, s.base, s.trained_length, s.length),
        (96, 10_000.0, 4096, 65_536)
    );
    // Past the original 4,096 positions: long_factor, and √(1 + ln 32 / ln 4096).
    let (inv, af) = longrope(10_000.0, 96, &short, &long, None, 131_072.0, 4096.0, 65_536);
    assert!(close(af, (1.0 + 32f64.ln() / 4096f64.ln()).sqrt(), 1e-12));
    agrees("Phi-3.5 longrope, long", &s.rope(), &inv, af);
    assert!((0..48).all(|i| s.rope().treatment(i) != Treatment::Ramped));
    // Up to the original: short_factor, the same attention factor.
    s.length = 4096;
    let (inv, af2) = longrope(10_000.0, 96, &short, &long, None, 131_072.0, 4096.0, 4096);
    assert_eq!(af, af2);
    agrees("Phi-3.5 longrope, short", &s.rope(), &inv, af);
    // An explicit factor wins over the ratio (current transformers).
    let explicit = Rope::new(
        96,
        10_000.0,
        RopePairing::RotateHalf,
        RopeScaling::LongRope {
            short: short.clone().into(),
            long: long.clone().into(),
            original: 4096,
            length: 8192,
            factor: 8.0,
            attention_factor: None,
        },
    );
    let (inv, af) = longrope(
        10_000.0,
        96,
        &short,
        &long,
        Some(8.0),
        131_072.0,
        4096.0,
        8192,
    );
    agrees("longrope, explicit factor 8", &explicit, &inv, af);
}

#[test]
fn an_odd_partial_width_spreads_thirteen_frequencies_over_twenty_five() {
    // partial_rotary_factor 0.4 of head_dim 64: dim = int(25.6) = 25, arange(0, 25, 2) gives 13
    // frequencies base^(−2i/25), the cache is 26 wide and 26 dimensions turn.
    let s = pasted(r#"{"head_dim": 64, "partial_rotary_factor": 0.4, "rope_theta": 10000.0}"#);
    let rope = s.rope();
    partial_agrees("partial 0.4 of 64", &rope, 10_000.0, (25, 13, 38));
    // Pairs of rotate-half are (i, i + 13); the check panel counts the same 26 dimensions.
    assert_eq!(rope.pair_dims(12), (12, 25));
    let check = pe_explorer::figures::rope::score_check(&rope, &[1.0; 64], &[1.0; 64], 3, 1);
    assert_eq!(check.rotary_dim, 26);
    // The old reading (12 frequencies over 24) got every pair but the first wrong.
    let old: Vec<f64> = default_inv_freq(10_000.0, 24);
    assert!(old
        .iter()
        .zip(default_inv_freq(10_000.0, 25))
        .skip(1)
        .all(|(a, b)| ((a - b) / b).abs() > 1e-3));
}
