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
        let mut pass = OptPass::default();
        loop {
            if let Some(norm) = self.step_part(p, g, lr, &mut pass, &mut |_| true) {
                return norm;
            }
        }
    }

    /// [`step`](Self::step) a range of parameters at a time, from where `pass` stands: the
    /// norm once the step is done, `None` when `go` (told the cost of each range) says stop.
    /// Each parameter is updated on its own and the norm is summed in order, so the pieces
    /// give exactly the numbers of the whole.
    pub fn step_part(
        &mut self,
        p: &mut [T],
        g: &mut [T],
        lr: f64,
        pass: &mut OptPass,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> Option<f64> {
        let n = p.len();
        loop {
            let (start, end) = (pass.at, (pass.at + PIECE).min(n));
            // Counted as the experiment's estimate counts them (see OPTIMISER_COST there).
            let per = match pass.phase {
                Phase::Norm => 2,
                Phase::Clip => 1,
                Phase::Update => 20,
            };
            match pass.phase {
                Phase::Norm => {
                    for x in &g[start..end] {
                        let x = x.to_f64();
                        pass.sum += x * x;
                    }
                }
                Phase::Clip => {
                    if start == 0 {
                        pass.norm = pass.sum.sqrt();
                        if !pass.norm.is_finite() {
                            return Some(pass.norm);
                        }
                    }
                    if pass.norm > CLIP_NORM {
                        let s = T::from_f64(CLIP_NORM / (pass.norm + 1e-6));
                        for x in g[start..end].iter_mut() {
                            *x *= s;
                        }
                    }
                }
                Phase::Update => {
                    if start == 0 {
                        self.steps += 1;
                    }
                    let t = self.steps as i32;
                    let bc1 = 1.0 - BETA1.powi(t);
                    let bc2 = 1.0 - BETA2.powi(t);
                    let (b1, b2) = (T::from_f64(BETA1), T::from_f64(BETA2));
                    let (one_b1, one_b2) = (T::from_f64(1.0 - BETA1), T::from_f64(1.0 - BETA2));
                    let step_size = T::from_f64(lr / bc1);
                    let bc2_sqrt = T::from_f64(bc2.sqrt());
                    let eps = T::from_f64(EPS);
                    let shrink = T::from_f64(lr * WEIGHT_DECAY);
                    for i in start..end {
                        p[i] -= shrink * self.decay[i] * p[i];
                        self.m[i] = b1 * self.m[i] + one_b1 * g[i];
                        self.v[i] = b2 * self.v[i] + one_b2 * g[i] * g[i];
                        let denom = self.v[i].sqrt() / bc2_sqrt + eps;
                        p[i] -= step_size * self.m[i] / denom;
                    }
                }
            }
            if end >= n {
                pass.at = 0;
                match pass.phase {
                    Phase::Norm => pass.phase = Phase::Clip,
                    Phase::Clip => pass.phase = Phase::Update,
                    Phase::Update => return Some(pass.norm),
                }
            } else {
                pass.at = end;
            }
            if !go(((end - start) * per) as u64) {
                return None;
            }
        }
    }
}

/// Parameters per piece of an optimiser step (about a quarter of a millisecond).
const PIECE: usize = 1 << 15;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Phase {
    #[default]
    Norm,
    Clip,
    Update,
}

/// How far an optimiser step has got: the squared norm summed so far, then clipping, then the
/// update.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OptPass {
    phase: Phase,
    at: usize,
    sum: f64,
    norm: f64,
}
