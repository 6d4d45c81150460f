//! A walk along positions q = start, start + stride, … carrying e^{i·q·ωᵢ} for many
//! frequencies at once: one complex multiplication per frequency per step (SIMD in the
//! browser), re-anchored on exact sin/cos so the error stays near 1e-14 at any length.

use super::kernels;

/// How often a walk is re-anchored with exact sin/cos (keeps its error near 1e-14).
const REANCHOR: usize = 256;

/// e^{i·q·ωᵢ} for every complete pair, at positions q = start, start + stride, …
pub struct PairWalk<'a> {
    omegas: &'a [f64],
    start: usize,
    stride: usize,
    steps: usize,
    re: Vec<f64>,
    im: Vec<f64>,
    step_re: Vec<f64>,
    step_im: Vec<f64>,
}

impl<'a> PairWalk<'a> {
    pub fn new(omegas: &'a [f64], start: usize, stride: usize) -> Self {
        let turn = stride as f64;
        let mut walk = PairWalk {
            omegas,
            start,
            stride,
            steps: 0,
            re: vec![0.0; omegas.len()],
            im: vec![0.0; omegas.len()],
            step_re: omegas.iter().map(|w| (turn * w).cos()).collect(),
            step_im: omegas.iter().map(|w| (turn * w).sin()).collect(),
        };
        walk.anchor();
        walk
    }

    pub fn position(&self) -> usize {
        self.start + self.steps * self.stride
    }

    fn anchor(&mut self) {
        let q = self.position() as f64;
        for (i, w) in self.omegas.iter().enumerate() {
            let (s, c) = (q * w).sin_cos();
            self.re[i] = c;
            self.im[i] = s;
        }
    }

    pub fn advance(&mut self) {
        self.steps += 1;
        if self.steps % REANCHOR == 0 {
            self.anchor();
        } else {
            kernels::rotate(&mut self.re, &mut self.im, &self.step_re, &self.step_im);
        }
    }

    /// Σᵢ cos(qωᵢ): the closed form at offset q.
    pub fn sum_cos(&self) -> f64 {
        kernels::sum(&self.re)
    }

    /// Σᵢ (a_sin[i]·sin(qωᵢ) + a_cos[i]·cos(qωᵢ)): a fixed vector, written in the pair basis,
    /// dotted with the pairs at the current position.
    pub fn dot(&self, a_sin: &[f64], a_cos: &[f64]) -> f64 {
        kernels::dot2(a_sin, &self.im, a_cos, &self.re)
    }

    /// (cos qωᵢ, sin qωᵢ) for every pair at the current position.
    pub fn phasors(&self) -> (&[f64], &[f64]) {
        (&self.re, &self.im)
    }
}
