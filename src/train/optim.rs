//! AdamW exactly as `torch.optim.AdamW` updates (decoupled weight decay first, then the
//! bias-corrected step), with the gradient clipped to a global norm of 1 beforehand and a
//! learning rate that warms up linearly and then follows a cosine down to a tenth.

use super::model::Tensor;
use super::real::Real;

pub const BETA1: f64 = 0.9;
pub const BETA2: f64 = 0.999;
pub const EPS: f64 = 1e-8;
pub const WEIGHT_DECAY: f64 = 0.01;
pub const CLIP_NORM: f64 = 1.0;
/// Share of the steps spent warming up.
pub const WARMUP: f64 = 0.05;

/// The learning rate at `step` (0-based) of `steps`.
pub fn schedule(peak: f64, step: usize, steps: usize) -> f64 {
    let steps = steps.max(1) as f64;
    let warm = (WARMUP * steps).max(1.0);
    let s = step as f64;
    if s < warm {
        return peak * (s + 1.0) / warm;
    }
    let t = ((s - warm) / (steps - warm).max(1.0)).clamp(0.0, 1.0);
    peak * (0.1 + 0.9 * 0.5 * (1.0 + (std::f64::consts::PI * t).cos()))
}

/// The optimiser's state for one parameter vector.
#[derive(Clone, Debug)]
pub struct AdamW<T> {
    m: Vec<T>,
    v: Vec<T>,
    /// 1 where weight decay applies, 0 elsewhere.
    decay: Vec<T>,
    pub steps: usize,
}

impl<T: Real> AdamW<T> {
    pub fn new(tensors: &[Tensor], total: usize) -> AdamW<T> {
        let mut decay = vec![T::ZERO; total];
        for t in tensors.iter().filter(|t| t.decay) {
            decay[t.range()].fill(T::ONE);
        }
        AdamW {
            m: vec![T::ZERO; total],
            v: vec![T::ZERO; total],
            decay,
            steps: 0,
        }
    }

    /// Clips `g` to the global norm, then takes one step at learning rate `lr`. Returns the
    /// norm before clipping (infinite or NaN when the gradient is).
    pub fn step(&mut self, p: &mut [T], g: &mut [T], lr: f64) -> f64 {
        let norm = g
            .iter()
            .map(|x| {
                let x = x.to_f64();
                x * x
            })
            .sum::<f64>()
            .sqrt();
        if !norm.is_finite() {
            return norm;
        }
        if norm > CLIP_NORM {
            let s = T::from_f64(CLIP_NORM / (norm + 1e-6));
            for x in g.iter_mut() {
                *x *= s;
            }
        }
        self.steps += 1;
        let t = self.steps as i32;
        let bc1 = 1.0 - BETA1.powi(t);
        let bc2 = 1.0 - BETA2.powi(t);
        let (b1, b2) = (T::from_f64(BETA1), T::from_f64(BETA2));
        let (one_b1, one_b2) = (T::from_f64(1.0 - BETA1), T::from_f64(1.0 - BETA2));
        let step_size = T::from_f64(lr / bc1);
        let bc2_sqrt = T::from_f64(bc2.sqrt());
        let eps = T::from_f64(EPS);
        let shrink = T::from_f64(lr * WEIGHT_DECAY);
        for i in 0..p.len() {
            p[i] -= shrink * self.decay[i] * p[i];
            self.m[i] = b1 * self.m[i] + one_b1 * g[i];
            self.v[i] = b2 * self.v[i] + one_b2 * g[i] * g[i];
            let denom = self.v[i].sqrt() / bc2_sqrt + eps;
            p[i] -= step_size * self.m[i] / denom;
        }
        norm
    }
}
