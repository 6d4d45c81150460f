//! FIRE (Li et al., ICLR 2024, "Functional Interpolation for Relative Positions Improves Long
//! Context Transformers", arXiv 2310.04418): the bias of query i and key j is a small learned
//! function of their distance, normalised by the query's position,
//!
//!   b(i, j) = f_θ( ψ(i − j) / ψ(max(L, i)) ),   ψ(x) = ln(c·x + 1),
//!
//! where f_θ is an MLP from one number to one value per head (Linear(1, 32) → ReLU →
//! Linear(32, heads), shared by the heads). Dividing by the query's own (transformed) position
//! keeps the MLP's input in [0, 1] at any length: a model trained on short sequences meets no
//! input it has never seen at longer ones ("progressive interpolation"). The threshold L keeps
//! short sequences from being stretched over the whole range: below L the normaliser is
//! constant, so near the start the bias depends on the distance alone. The paper's model is a
//! decoder (j ≤ i).
//!
//! As in the paper's reference code (its appendix): c is learned (initially 0.1) and applied as
//! ln(|c·x| + 1); L = |L_multiplier · init_L| with L_multiplier learned (initially 1) and init_L
//! fixed; the normaliser is ψ(max(i, L)) + ε with ε = 1e-6; the MLP is 32 wide. The reference
//! computes the same formula for keys after the query too (|c·(i − j)| is symmetric), which is
//! what a model without a causal mask uses here.

use super::bias::{BiasTensor, Row, ScoreBias};
use super::rng::SplitMix64;

/// Added to the normaliser (the reference's `eps`).
pub const EPS: f64 = 1e-6;
/// The MLP's hidden width (the reference's `mlp_width`).
pub const WIDTH: usize = 32;
/// c's initial value (the reference's `init_c`).
pub const INIT_C: f64 = 0.1;
/// The reference's `init_L`, for 2,048-token training: the app's views use it as their default
/// threshold.
pub const PAPER_INIT_L: f64 = 512.0;

/// ψ(x) = ln(|c·x| + 1): close to c·x for small distances, logarithmic for large ones, which
/// spreads out the local positions the model most needs to tell apart.
pub fn psi(c: f64, x: f64) -> f64 {
    ((c * x).abs() + 1.0).ln()
}

/// ∂ψ/∂c at x.
fn psi_dc(c: f64, x: f64) -> f64 {
    sign(c * x) * x / ((c * x).abs() + 1.0)
}

/// ∂ψ/∂x at x.
fn psi_dx(c: f64, x: f64) -> f64 {
    sign(c * x) * c / ((c * x).abs() + 1.0)
}

/// The sign, 0 at 0 (the derivative of |x| that torch and autograd use).
fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        0.0
    }
}

/// The normaliser of query i: ψ(max(i, L)) + ε.
pub fn normaliser(c: f64, threshold: f64, query: usize) -> f64 {
    psi(c, (query as f64).max(threshold)) + EPS
}

/// What the MLP is given for query i and key j: ψ(i − j) / (ψ(max(i, L)) + ε), in [0, 1) for
/// j ≤ i.
pub fn normalized_distance(c: f64, threshold: f64, query: usize, key: usize) -> f64 {
    psi(c, query as f64 - key as f64) / normaliser(c, threshold, query)
}

/// A uniform deviate in (−bound, bound), as `nn.init.uniform_(-bound, bound)`.
fn uniform(rng: &mut SplitMix64, bound: f64) -> f64 {
    bound * (2.0 * rng.next_unit() - 1.0)
}

/// The MLP's weights, borrowed: `w1` `[1, width]`, `b1` `[width]`, `w2` `[width, heads]`,
/// `b2` `[heads]` (stored `[in, out]`: hidden = relu(x·w1 + b1), out = hidden @ w2 + b2).
#[derive(Clone, Copy, Debug)]
pub struct Mlp<'a> {
    pub w1: &'a [f64],
    pub b1: &'a [f64],
    pub w2: &'a [f64],
    pub b2: &'a [f64],
}

/// The MLP's gradients, in the same layout.
pub struct MlpGrad<'a> {
    pub w1: &'a mut [f64],
    pub b1: &'a mut [f64],
    pub w2: &'a mut [f64],
    pub b2: &'a mut [f64],
}

impl Mlp<'_> {
    pub fn width(&self) -> usize {
        self.b1.len()
    }

    pub fn heads(&self) -> usize {
        self.b2.len()
    }

    /// The MLP at `x`: writes one value per head into `out`.
    pub fn forward(&self, x: f64, out: &mut [f64]) {
        let heads = self.heads();
        out[..heads].copy_from_slice(self.b2);
        for k in 0..self.width() {
            let hidden = (self.w1[k] * x + self.b1[k]).max(0.0);
            if hidden > 0.0 {
                for (o, w) in out[..heads].iter_mut().zip(&self.w2[k * heads..]) {
                    *o += hidden * w;
                }
            }
        }
    }

    /// Output `head` of [`forward`](Self::forward) alone, the same number: the same products
    /// added in the same order.
    pub fn forward_head(&self, x: f64, head: usize) -> f64 {
        let heads = self.heads();
        let mut out = self.b2[head];
        for k in 0..self.width() {
            let hidden = (self.w1[k] * x + self.b1[k]).max(0.0);
            if hidden > 0.0 {
                out += hidden * self.w2[k * heads + head];
            }
        }
        out
    }

    /// Given ∂loss/∂out at `x`, adds the weights' gradients to `grad` and returns ∂loss/∂x.
    /// ReLU passes the gradient where its input is positive (0 at 0, as torch).
    pub fn backward(&self, x: f64, dout: &[f64], grad: &mut MlpGrad) -> f64 {
        let heads = self.heads();
        let mut dx = 0.0;
        for (b, g) in grad.b2.iter_mut().zip(dout) {
            *b += g;
        }
        for k in 0..self.width() {
            let pre = self.w1[k] * x + self.b1[k];
            if pre <= 0.0 {
                continue;
            }
            let w2 = &self.w2[k * heads..(k + 1) * heads];
            let dw2 = &mut grad.w2[k * heads..(k + 1) * heads];
            let mut dhidden = 0.0;
            for h in 0..heads {
                dw2[h] += pre * dout[h];
                dhidden += w2[h] * dout[h];
            }
            grad.w1[k] += dhidden * x;
            grad.b1[k] += dhidden;
            dx += dhidden * self.w1[k];
        }
        dx
    }
}

/// FIRE's settings in the app's views: the MLP's outputs (heads), the head drawn alone, c and
/// the threshold L (the paper's code starts from c = 0.1 and L = 512). The weights are drawn
/// from the app's seed ([`Fire::seeded`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FireView {
    pub heads: usize,
    pub head: usize,
    pub c: f64,
    pub threshold: f64,
}

impl Default for FireView {
    fn default() -> Self {
        FireView {
            heads: 4,
            head: 0,
            c: INIT_C,
            threshold: PAPER_INIT_L,
        }
    }
}

/// FIRE with its weights, for the app's views (untrained: seeded) and tests.
#[derive(Clone, Debug, PartialEq)]
pub struct Fire {
    /// The log transform's scale c.
    pub c: f64,
    /// The threshold L (already |L_multiplier · init_L|).
    pub threshold: f64,
    pub w1: Vec<f64>,
    pub b1: Vec<f64>,
    pub w2: Vec<f64>,
    pub b2: Vec<f64>,
}

impl Fire {
    /// An untrained FIRE: the MLP drawn as PyTorch's `nn.Linear` draws it (weights and biases
    /// uniform in ±1/√fan_in: ±1 for the first layer, ±1/√width for the second) from a stream
    /// seeded by `seed`.
    pub fn seeded(heads: usize, width: usize, c: f64, threshold: f64, seed: u64) -> Fire {
        let mut rng = SplitMix64::new(seed ^ 0xF1DE_0000);
        let second = 1.0 / (width.max(1) as f64).sqrt();
        let mut draw = |n: usize, bound: f64| -> Vec<f64> {
            (0..n).map(|_| uniform(&mut rng, bound)).collect()
        };
        Fire {
            c,
            threshold,
            w1: draw(width, 1.0),
            b1: draw(width, 1.0),
            w2: draw(width * heads, second),
            b2: draw(heads, second),
        }
    }

    pub fn heads(&self) -> usize {
        self.b2.len()
    }

    pub fn mlp(&self) -> Mlp<'_> {
        Mlp {
            w1: &self.w1,
            b1: &self.b1,
            w2: &self.w2,
            b2: &self.b2,
        }
    }

    /// The bias of query i for key j, one value per head, into `out`.
    pub fn bias_into(&self, query: usize, key: usize, out: &mut [f64]) {
        let x = normalized_distance(self.c, self.threshold, query, key);
        self.mlp().forward(x, out);
    }

    /// The bias of query i for key j in head `head` alone (the views draw one head at a time).
    pub fn head_bias(&self, query: usize, key: usize, head: usize) -> f64 {
        let x = normalized_distance(self.c, self.threshold, query, key);
        self.mlp().forward_head(x, head)
    }

    /// The bias of query i for key j, one value per head.
    pub fn bias(&self, query: usize, key: usize) -> Vec<f64> {
        let mut out = vec![0.0; self.heads()];
        self.bias_into(query, key, &mut out);
        out
    }
}

/// FIRE as the trainer's score bias, shared by all layers: tensors `fire.c` and
/// `fire.L_multiplier` (scalars), `fire.mlp.0.weight` `[1, 32]`, `fire.mlp.0.bias` `[32]`,
/// `fire.mlp.2.weight` `[32, heads]`, `fire.mlp.2.bias` `[heads]` (the names of the reference's
/// `nn.Sequential`, matrices stored `[in, out]`).
///
/// `init_l` is the fixed part of the threshold, and the trainer sets it to the model's training
/// length. The paper trains on 2,048 tokens with init_L = 512: positions past a quarter of the
/// training length already normalise by their own position. Our models train on 4 to 64 tokens,
/// where a quarter is 1 to 16 positions, so nearly every training position would be "long
/// context" and the MLP would rarely see distances on a fixed scale. With L = the training
/// length, every training query shares one normaliser ψ(L), the MLP learns the bias as a
/// function of distance on inputs in [0, ψ(L − 1)/ψ(L)), and only past the training length does
/// the query's own position take over and map longer distances back into [0, 1), the range it
/// was trained on: the interpolation FIRE is built for, starting exactly where extrapolation
/// would. L_multiplier is learned, so training can still move the threshold.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FireBias {
    pub init_l: f64,
    pub width: usize,
    pub init_c: f64,
}

impl FireBias {
    /// FIRE as the reference sets it up (width 32, c = 0.1), with the threshold's fixed part.
    pub fn new(init_l: f64) -> FireBias {
        FireBias {
            init_l,
            width: WIDTH,
            init_c: INIT_C,
        }
    }

    /// The parameters' parts: c, L_multiplier, and the MLP.
    fn parts<'a>(&self, p: &'a [f64], heads: usize) -> (f64, f64, Mlp<'a>) {
        let w = self.width;
        let (w1, rest) = p[2..].split_at(w);
        let (b1, rest) = rest.split_at(w);
        let (w2, b2) = rest.split_at(w * heads);
        (p[0], p[1], Mlp { w1, b1, w2, b2 })
    }

    /// The threshold L = |L_multiplier · init_L|.
    pub fn threshold(&self, l_multiplier: f64) -> f64 {
        (l_multiplier * self.init_l).abs()
    }

    /// The view's FIRE for trained parameters (laid out as [`ScoreBias::tensors`]).
    pub fn trained(&self, params: &[f64], heads: usize) -> Fire {
        let (c, m, mlp) = self.parts(params, heads);
        Fire {
            c,
            threshold: self.threshold(m),
            w1: mlp.w1.to_vec(),
            b1: mlp.b1.to_vec(),
            w2: mlp.w2.to_vec(),
            b2: mlp.b2.to_vec(),
        }
    }
}

impl ScoreBias for FireBias {
    fn name(&self) -> &'static str {
        "fire"
    }

    fn tensors(&self, heads: usize) -> Vec<BiasTensor> {
        let w = self.width;
        vec![
            BiasTensor::new("fire.c", vec![], false),
            BiasTensor::new("fire.L_multiplier", vec![], false),
            BiasTensor::new("fire.mlp.0.weight", vec![1, w], true),
            BiasTensor::new("fire.mlp.0.bias", vec![w], false),
            BiasTensor::new("fire.mlp.2.weight", vec![w, heads], true),
            BiasTensor::new("fire.mlp.2.bias", vec![heads], false),
        ]
    }

    /// c = init_c, L_multiplier = 1, the MLP as `nn.Linear` (uniform in ±1/√fan_in).
    fn init(&self, heads: usize, index: usize, rng: &mut SplitMix64) -> Vec<f64> {
        let second = 1.0 / (self.width.max(1) as f64).sqrt();
        let (n, bound) = match index {
            0 => return vec![self.init_c],
            1 => return vec![1.0],
            2 | 3 => (self.width, 1.0),
            4 => (self.width * heads, second),
            _ => (heads, second),
        };
        (0..n).map(|_| uniform(rng, bound)).collect()
    }

    fn row(&self, p: &[f64], at: Row, row: &mut [f64]) {
        let (c, m, mlp) = self.parts(p, at.heads);
        let i = at.query;
        let n = normaliser(c, self.threshold(m), i);
        let mut out = vec![0.0; at.heads];
        for j in at.keys() {
            mlp.forward(psi(c, i as f64 - j as f64) / n, &mut out);
            for (h, &o) in out.iter().enumerate() {
                row[at.cell(h, j)] = o;
            }
        }
    }

    fn row_backward(&self, p: &[f64], at: Row, drow: &[f64], dparams: &mut [f64]) {
        let (heads, i) = (at.heads, at.query);
        let (c, m, mlp) = self.parts(p, heads);
        let threshold = self.threshold(m);
        let top = (i as f64).max(threshold);
        let n = psi(c, top) + EPS;
        let w = self.width;
        let (dcm, rest) = dparams.split_at_mut(2);
        let (w1, rest) = rest.split_at_mut(w);
        let (b1, rest) = rest.split_at_mut(w);
        let (w2, b2) = rest.split_at_mut(w * heads);
        let mut grad = MlpGrad { w1, b1, w2, b2 };
        let mut dout = vec![0.0; heads];
        // x = u / n with u = ψ(i − j): ∂x/∂u = 1/n, ∂x/∂n = −u/n² (n is the row's, summed).
        let (mut dc, mut dn) = (0.0, 0.0);
        for j in at.keys() {
            for (h, d) in dout.iter_mut().enumerate() {
                *d = drow[at.cell(h, j)];
            }
            let distance = i as f64 - j as f64;
            let u = psi(c, distance);
            let x = u / n;
            let dx = mlp.backward(x, &dout, &mut grad);
            dc += dx / n * psi_dc(c, distance);
            dn -= dx * u / (n * n);
        }
        // n = ψ(max(i, L)) + ε: through c, and through L where the threshold is the larger
        // (half of it at a tie, as torch's and autograd's maximum split it).
        dc += dn * psi_dc(c, top);
        let share = if threshold > i as f64 {
            1.0
        } else if threshold == i as f64 {
            0.5
        } else {
            0.0
        };
        let dl = share * dn * psi_dx(c, top);
        dcm[0] += dc;
        // L = |m · init_L|: ∂L/∂m = sign(m · init_L) · init_L.
        dcm[1] += dl * sign(m * self.init_l) * self.init_l;
    }

    fn entry_cost(&self, heads: usize) -> (u64, u64) {
        // Per entry: a logarithm and a division, the first layer (2 per hidden unit) and the
        // second (one per hidden unit and head); the backward does about twice the work.
        let w = self.width as u64;
        let forward = 24 + 2 * w + w * heads as u64;
        (forward, 2 * forward)
    }

    fn config_json(&self) -> String {
        format!(
            "{{\"mlp_width\":{},\"init_c\":{},\"init_L\":{},\"eps\":{EPS:e}}}",
            self.width, self.init_c, self.init_l
        )
    }
}
