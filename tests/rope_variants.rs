//! RoPE as checkpoints ship it, against the formulas of Hugging Face transformers'
//! `modeling_rope_utils` (`_compute_default_rope_parameters`, `_compute_linear_scaling_rope_parameters`,
//! `_compute_dynamic_ntk_parameters`, `_compute_llama3_parameters`, `_compute_yarn_parameters`)
//! and the GPT-NeoX / Phi partial rotary classes. The reference functions below follow that
//! code line by line (in f64), independently of `src/math/rope.rs`; the inverse frequencies
//! must agree to 1e-6 relative and the cos/sin caches (times the attention factor, as the
//! libraries apply it) to 1e-4, at positions up to 32,767.

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

/// (inv_freq, attention_factor) as `_compute_yarn_parameters` (truncate = True).
fn yarn(
    base: f64,
    dim: usize,
    factor: f64,
    original: f64,
    beta_fast: f64,
    beta_slow: f64,
    mscale: Option<(f64, f64)>,
) -> (Vec<f64>, f64) {
    let attention_factor = match mscale {
        Some((m, all)) => get_mscale(factor, m) / get_mscale(factor, all),
        None => get_mscale(factor, 1.0),
    };
    let find_correction_dim = |num_rotations: f64| {
        (dim as f64 * (original / (num_rotations * 2.0 * PI)).ln()) / (2.0 * base.ln())
    };
    let low = find_correction_dim(beta_fast).floor().max(0.0);
    let high = find_correction_dim(beta_slow).ceil().min(dim as f64 - 1.0);
    let (min, max) = (low, if low == high { high + 0.001 } else { high });
    let pos_freqs: Vec<f64> = (0..dim)
        .step_by(2)
        .map(|i| base.powf(i as f64 / dim as f64))
        .collect();
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
    // Qwen2.5-style: θ 1e6, head_dim 128, factor 4 over 32,768.
    let r4 = Rope::new(
        128,
        1e6,
        RopePairing::RotateHalf,
        RopeScaling::Yarn {
            factor: 4.0,
            original: 32_768,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: 0.0,
            mscale_all_dim: 0.0,
            attention_factor: None,
        },
    );
    let (inv, af) = yarn(1e6, 128, 4.0, 32_768.0, 32.0, 1.0, None);
    assert!(close(af, 0.1 * 4f64.ln() + 1.0, 1e-12));
    agrees("YaRN ×4", &r4, &inv, af);
    // θ 10000, head_dim 64, factor 16 over 4,096.
    let r16 = Rope::new(
        64,
        10_000.0,
        RopePairing::RotateHalf,
        RopeScaling::Yarn {
            factor: 16.0,
            original: 4096,
            beta_fast: 32.0,
            beta_slow: 1.0,
            mscale: 0.0,
            mscale_all_dim: 0.0,
            attention_factor: None,
        },
    );
    let (inv, af) = yarn(10_000.0, 64, 16.0, 4096.0, 32.0, 1.0, None);
    agrees("YaRN ×16", &r16, &inv, af);
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
        },
    );
    let (inv, af) = yarn(10_000.0, 64, 40.0, 4096.0, 32.0, 1.0, Some((1.0, 1.0)));
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
    assert_eq!(
        (neox.rotary_dim, neox.pair_count(), neox.unrotated()),
        (24, 12, 72)
    );
    agrees(
        "GPT-NeoX rotary_pct 0.25",
        &neox,
        &default_inv_freq(10_000.0, 24),
        1.0,
    );
    // Phi-2: head_dim 80, partial_rotary_factor 0.4 → 32.
    let phi = Rope::new(80, 10_000.0, RopePairing::RotateHalf, RopeScaling::None)
        .with_rotary_fraction(0.4);
    assert_eq!(phi.rotary_dim, 32);
    agrees(
        "Phi-2 partial_rotary_factor 0.4",
        &phi,
        &default_inv_freq(10_000.0, 32),
        1.0,
    );
    // int() truncates: 0.4 of 70 is 28, and 0.33 of 64 is 21 (an odd width: 10 pairs, the 21st
    // dimension and the rest unrotated).
    assert_eq!(
        Rope::new(70, 1e4, RopePairing::RotateHalf, RopeScaling::None)
            .with_rotary_fraction(0.4)
            .rotary_dim,
        28
    );
    let odd =
        Rope::new(64, 1e4, RopePairing::RotateHalf, RopeScaling::None).with_rotary_fraction(0.33);
    assert_eq!(
        (odd.rotary_dim, odd.pair_count(), odd.unrotated()),
        (21, 10, 44)
    );
}
