//! The transformer that is trained: token embedding, the position scheme where its reference
//! model puts it, `layers` pre-LayerNorm blocks (multi-head self-attention, then a GELU MLP of
//! width 4·d_model, each added back to the residual stream), a final LayerNorm and a linear
//! read-out to the task's tokens. The forward pass keeps what the backward pass needs (a
//! "tape"); each backward kernel is written out by hand next to its forward kernel, in the
//! manner of llm.c, and checked against an independent automatic differentiation (HIPS autograd)
//! and against finite differences.
//!
//! Both passes are lists of stages (`Op`: a layer's matrix product, its attention, a LayerNorm,
//! a weight's gradient), each applied a range of rows at a time. [`Model::forward_part`] and
//! [`Model::backward_part`] go on from where a [`Pass`] stands until their `go` says stop, so the
//! worker can stop within a quarter of a millisecond of work at any model size. Where a pass is
//! cut changes no number: rows are cut at multiples of 4, where the matrix kernels' blocks
//! start, and sums over rows keep their order.
//!
//! Where each scheme enters:
//! - sinusoidal, learned: a vector added to the token embedding, once, before the first block;
//! - RoPE: queries and keys rotated pair by pair inside every attention layer;
//! - a score bias ([`ScoreBias`]: ALiBi, T5, KERPLE, FIRE): b_h(i, j) added to head h's score
//!   of query i and key j in every layer. One table of b for the batch's longest sequence is
//!   computed at the start of each forward pass (a stage of its own, a few rows at a time: FIRE
//!   runs an MLP per entry), every sequence reads its corner of it, the backward pass of
//!   attention adds up ∂loss/∂b in a table of the same shape, and a last stage turns that into
//!   the scheme's parameter gradients (a learned scheme's parameters are shared by all layers,
//!   as T5's are). The model knows nothing else about these schemes;
//! - none: nowhere (a causal mask may still be on).
//!
//! Parameters live in one flat vector; [`Layout`] names every tensor in it, with its shape, in
//! the order the export writes them. Matrices are stored `[in, out]`, so a layer is `x @ W + b`.

use std::ops::Range;

use super::real::{gemm, gemm_at_rows, linear, transpose, Real};
use crate::math::bias::{parameter_count, visible, Row};
use crate::math::rng::{fnv1a, SplitMix64};
use crate::math::rope::Rope;
use crate::math::sinusoidal::Sinusoidal;

pub use super::position::Position;

/// The architecture.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelConfig {
    /// Input tokens and output classes (the tasks predict tokens of their own vocabulary).
    pub vocab: usize,
    pub d_model: usize,
    pub heads: usize,
    pub layers: usize,
    /// Rows of the learned position table: the training length.
    pub max_len: usize,
    /// Mask keys after the query (a decoder).
    pub causal: bool,
    pub position: Position,
}

impl ModelConfig {
    pub fn head_dim(&self) -> usize {
        self.d_model / self.heads.max(1)
    }
    pub fn hidden(&self) -> usize {
        4 * self.d_model
    }

    /// Whether the score bias has parameters to train (then the backward pass keeps the
    /// gradient of its table and has a stage that turns it into theirs).
    fn learned_bias(&self) -> bool {
        self.position
            .bias()
            .is_some_and(|b| parameter_count(b, self.heads) > 0)
    }

    /// The stages of a forward or backward pass, in order.
    fn schedule(&self, backward: bool) -> Vec<Op> {
        let rope = matches!(self.position, Position::Rope { .. });
        let layers = self.layers;
        let mut ops = Vec::with_capacity(6 + 12 * layers);
        if backward {
            ops.extend([Op::DLogits, Op::DHead, Op::DHeadW, Op::DLnF]);
            for l in (0..layers).rev() {
                ops.extend([
                    Op::DProj(l),
                    Op::DProjW(l),
                    Op::DFc(l),
                    Op::DFcW(l),
                    Op::DLn2(l),
                    Op::DOut(l),
                    Op::DOutW(l),
                    Op::DAttend(l),
                ]);
                if rope {
                    ops.push(Op::DRotate(l));
                }
                ops.extend([Op::DQkv(l), Op::DQkvW(l), Op::DLn1(l)]);
            }
            ops.push(Op::DEmbed);
            if self.learned_bias() {
                ops.push(Op::DBias);
            }
        } else {
            if self.position.bias().is_some() {
                ops.push(Op::Bias);
            }
            ops.push(Op::Embed);
            for l in 0..layers {
                ops.extend([Op::Ln1(l), Op::Qkv(l)]);
                if rope {
                    ops.push(Op::Rotate(l));
                }
                ops.extend([
                    Op::Attend(l),
                    Op::Out(l),
                    Op::Ln2(l),
                    Op::Fc(l),
                    Op::Gelu(l),
                    Op::Proj(l),
                ]);
            }
            ops.extend([Op::LnF, Op::Head, Op::Softmax]);
        }
        ops
    }

    /// What a stage works on, and what one item costs (for `rows` tokens).
    fn unit(&self, op: Op, rows: usize) -> Unit {
        let c = self;
        let (d, h4, v) = (c.d_model as u64, c.hidden() as u64, c.vocab as u64);
        let dh = c.head_dim() as u64;
        let (heads, n) = (c.heads as u64, rows as u64);
        let bias_cost = || {
            self.position
                .bias()
                .map_or((0, 0), |b| b.entry_cost(self.heads))
        };
        match op {
            Op::Bias => Unit::Table(bias_cost().0),
            Op::DBias => Unit::Table(bias_cost().1),
            Op::Embed => Unit::Rows(d),
            Op::Ln1(_) | Op::Ln2(_) | Op::LnF => Unit::Rows(4 * d),
            Op::Qkv(_) => Unit::Rows(3 * d * d),
            Op::Rotate(_) | Op::DRotate(_) => Unit::Rows(2 * d),
            // Per query-key pair and head: a dot product, an exponential, a weighted sum.
            Op::Attend(_) => Unit::Queries(heads * (2 * dh + 16)),
            Op::Out(_) => Unit::Rows(d * d),
            Op::Fc(_) | Op::Proj(_) => Unit::Rows(h4 * d),
            Op::Gelu(_) => Unit::Rows(16 * h4),
            Op::Head => Unit::Rows(d * v),
            Op::Softmax | Op::DLogits => Unit::Rows(3 * v),
            Op::DHead => Unit::Rows(d * v + v),
            Op::DHeadW => Unit::WeightRows(c.d_model, n * v),
            Op::DLnF | Op::DLn2(_) | Op::DLn1(_) => Unit::Rows(8 * d),
            Op::DProj(_) => Unit::Rows(h4 * d + d + h4),
            Op::DProjW(_) => Unit::WeightRows(c.hidden(), n * d),
            Op::DFc(_) => Unit::Rows(h4 * d + h4),
            Op::DFcW(_) => Unit::WeightRows(c.d_model, n * h4),
            Op::DOut(_) => Unit::Rows(d * d + d),
            Op::DOutW(_) => Unit::WeightRows(c.d_model, n * d),
            Op::DAttend(_) => Unit::Queries(heads * (4 * dh + 8)),
            Op::DQkv(_) => Unit::Rows(3 * d * d + 3 * d),
            Op::DQkvW(_) => Unit::WeightRows(c.d_model, n * 3 * d),
            Op::DEmbed => Unit::Rows(2 * d),
        }
    }

    /// The cost of a forward pass over `tokens` tokens whose attention computes `pairs`
    /// query-key pairs (see [`attended_pairs`]) and whose score-bias table has `entries`
    /// entries (the pairs of the batch's longest sequence, for a bias scheme), and with
    /// `backward` of its backward pass too, in the units the passes report to their `go`.
    pub fn pass_cost(&self, tokens: f64, pairs: f64, entries: f64, backward: bool) -> f64 {
        let mut ops = self.schedule(false);
        if backward {
            ops.extend(self.schedule(true));
        }
        // For one token: a weight row's cost grows with the tokens, as a row's or a query's does.
        ops.iter()
            .map(|&op| match self.unit(op, 1) {
                Unit::Rows(per) => tokens * per as f64,
                Unit::WeightRows(k, per_token) => k as f64 * per_token as f64 * tokens,
                Unit::Queries(per_pair) => pairs * per_pair as f64,
                Unit::Table(per_entry) => entries * per_entry as f64,
            })
            .sum()
    }
}

/// A tensor inside the flat parameter vector.
#[derive(Clone, Debug, PartialEq)]
pub struct Tensor {
    pub name: String,
    pub shape: Vec<usize>,
    pub offset: usize,
    /// AdamW's weight decay applies (matrices and embeddings, not biases or LayerNorm gains).
    pub decay: bool,
}

impl Tensor {
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
    pub fn range(&self) -> std::ops::Range<usize> {
        self.offset..self.offset + self.len()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Default)]
struct Span {
    at: usize,
    len: usize,
}

impl Span {
    fn of<'a, T>(&self, p: &'a [T]) -> &'a [T] {
        &p[self.at..self.at + self.len]
    }
    fn of_mut<'a, T>(&self, p: &'a mut [T]) -> &'a mut [T] {
        &mut p[self.at..self.at + self.len]
    }
}

#[derive(Clone, Debug, Default)]
struct BlockSpans {
    ln1_g: Span,
    ln1_b: Span,
    w_qkv: Span,
    b_qkv: Span,
    w_o: Span,
    b_o: Span,
    ln2_g: Span,
    ln2_b: Span,
    w_fc: Span,
    b_fc: Span,
    w_proj: Span,
    b_proj: Span,
}

/// Every tensor of a model, by name, in export order.
#[derive(Clone, Debug)]
pub struct Layout {
    pub tensors: Vec<Tensor>,
    pub total: usize,
    tok: Span,
    pos: Option<Span>,
    /// A score bias's parameters, all of its tensors (in the order it lists them).
    bias: Option<Span>,
    blocks: Vec<BlockSpans>,
    lnf_g: Span,
    lnf_b: Span,
    w_head: Span,
    b_head: Span,
}

impl Layout {
    pub fn new(c: &ModelConfig) -> Layout {
        let mut tensors = Vec::new();
        let mut at = 0;
        let mut add = |name: String, shape: Vec<usize>, decay: bool| {
            let t = Tensor {
                name,
                shape,
                offset: at,
                decay,
            };
            let span = Span { at, len: t.len() };
            at += t.len();
            tensors.push(t);
            span
        };
        let (d, v, h) = (c.d_model, c.vocab, c.hidden());
        let tok = add("tok_emb".into(), vec![v, d], true);
        let pos = matches!(c.position, Position::Learned)
            .then(|| add("pos_emb".into(), vec![c.max_len, d], true));
        let bias = c.position.bias().map(|b| {
            let spans: Vec<Span> = b
                .tensors(c.heads)
                .into_iter()
                .map(|t| add(t.name, t.shape, t.decay))
                .collect();
            let at = spans.first().map_or(0, |s| s.at);
            Span {
                at,
                len: spans.iter().map(|s| s.len).sum(),
            }
        });
        let blocks = (0..c.layers)
            .map(|l| {
                let mut n = |s: &str, shape: Vec<usize>, decay: bool| {
                    add(format!("blocks.{l}.{s}"), shape, decay)
                };
                BlockSpans {
                    ln1_g: n("ln1.weight", vec![d], false),
                    ln1_b: n("ln1.bias", vec![d], false),
                    w_qkv: n("attn.qkv.weight", vec![d, 3 * d], true),
                    b_qkv: n("attn.qkv.bias", vec![3 * d], false),
                    w_o: n("attn.out.weight", vec![d, d], true),
                    b_o: n("attn.out.bias", vec![d], false),
                    ln2_g: n("ln2.weight", vec![d], false),
                    ln2_b: n("ln2.bias", vec![d], false),
                    w_fc: n("mlp.fc.weight", vec![d, h], true),
                    b_fc: n("mlp.fc.bias", vec![h], false),
                    w_proj: n("mlp.proj.weight", vec![h, d], true),
                    b_proj: n("mlp.proj.bias", vec![d], false),
                }
            })
            .collect();
        let lnf_g = add("ln_f.weight".into(), vec![d], false);
        let lnf_b = add("ln_f.bias".into(), vec![d], false);
        let w_head = add("head.weight".into(), vec![d, v], true);
        let b_head = add("head.bias".into(), vec![v], false);
        Layout {
            tensors,
            total: at,
            tok,
            pos,
            bias,
            blocks,
            lnf_g,
            lnf_b,
            w_head,
            b_head,
        }
    }

    pub fn tensor(&self, name: &str) -> Option<&Tensor> {
        self.tensors.iter().find(|t| t.name == name)
    }
}

/// A batch of sequences packed end to end.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Batch {
    pub tokens: Vec<u32>,
    pub targets: Vec<Option<u32>>,
    /// Where each sequence starts, plus the end: sequence s is `starts[s]..starts[s + 1]`.
    pub starts: Vec<usize>,
}

impl Batch {
    pub fn new() -> Batch {
        Batch {
            starts: vec![0],
            ..Batch::default()
        }
    }

    pub fn push(&mut self, tokens: &[u32], targets: &[Option<u32>]) {
        self.tokens.extend_from_slice(tokens);
        self.targets.extend_from_slice(targets);
        self.starts.push(self.tokens.len());
    }

    pub fn sequences(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    fn spans(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        self.starts.windows(2).map(|w| (w[0], w[1] - w[0]))
    }

    pub fn longest(&self) -> usize {
        self.spans().map(|(_, n)| n).max().unwrap_or(0)
    }
}

/// What one forward pass measured.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    /// Mean cross-entropy over the positions with a target (nats).
    pub loss: f64,
    pub correct: usize,
    pub counted: usize,
}

#[derive(Clone, Debug, Default)]
struct BlockTape<T> {
    x_in: Vec<T>,
    ln1: Vec<T>,
    ln1_mean: Vec<T>,
    ln1_rstd: Vec<T>,
    /// Queries and keys after rotation (RoPE), values.
    qkv: Vec<T>,
    /// Attention weights: for each sequence, `heads` matrices of T × T.
    probs: Vec<T>,
    att: Vec<T>,
    x_mid: Vec<T>,
    ln2: Vec<T>,
    ln2_mean: Vec<T>,
    ln2_rstd: Vec<T>,
    fc: Vec<T>,
    act: Vec<T>,
    /// GELU's derivative at each pre-activation (computed with the value: one tanh each).
    act_slope: Vec<T>,
}

/// The gradients the backward pass carries from one step to the next (scratch, kept so that a
/// pass can stop between two steps and go on later).
#[derive(Clone, Debug, Default)]
struct GradTape<T> {
    dlogits: Vec<T>,
    /// The gradient at the final LayerNorm's output.
    dz: Vec<T>,
    /// The gradient of the residual stream.
    dx: Vec<T>,
    dact: Vec<T>,
    dln2: Vec<T>,
    datt: Vec<T>,
    dqkv: Vec<T>,
    dln1: Vec<T>,
    /// The current layer's weight, transposed.
    wt: Vec<T>,
    /// ∂loss/∂(score bias), laid out as the table (summed over sequences and layers, in f64).
    dbias: Vec<f64>,
    /// The score bias's parameter gradient, gathered in f64 and added to the gradient at the
    /// end of the last row.
    dbias_params: Vec<f64>,
}

/// The activations of the last forward pass.
#[derive(Clone, Debug, Default)]
pub struct Tape<T> {
    blocks: Vec<BlockTape<T>>,
    x_out: Vec<T>,
    lnf: Vec<T>,
    lnf_mean: Vec<T>,
    lnf_rstd: Vec<T>,
    /// Softmax of the logits, row per token.
    pub probs: Vec<T>,
    /// Where each sequence's attention matrices start in `probs` of a block, and their total.
    att_starts: Vec<usize>,
    att_total: usize,
    /// Each token's position within its sequence, and which sequence it is in.
    pos: Vec<usize>,
    row_seq: Vec<usize>,
    /// A sublayer's output before it joins the residual stream.
    proj: Vec<T>,
    /// The score-bias table of this pass (empty without one): for the batch's longest sequence,
    /// `bias_len` positions, row by row, each row `heads × bias_len` (`[i][h][j]`).
    bias: Vec<T>,
    bias_len: usize,
    /// The score bias's parameters in f64 (as its math takes them), and one row in f64.
    bias_params: Vec<f64>,
    bias_row: Vec<f64>,
    counted: usize,
    grad: GradTape<T>,
}

impl<T: Real> Tape<T> {
    /// The attention weights of head `head` in block `layer` for sequence `seq` (T × T, row =
    /// query).
    pub fn attention(&self, layer: usize, seq: usize, head: usize, len: usize) -> Option<&[T]> {
        let start = *self.att_starts.get(seq)? + head * len * len;
        self.blocks.get(layer)?.probs.get(start..start + len * len)
    }
}

/// One stage of a pass, applied to a range of its items: token rows (for attention, the
/// queries: each row's keys are the rows of its sequence it sees); or, for a weight's gradient
/// (`…W`), rows of that weight (its input dimensions). Cutting a stage at any item (rows at multiples of 4, where the matrix kernels'
/// row blocks start) gives exactly the numbers of doing it at once, so a pass can stop between
/// two ranges and go on later with the same result, bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    /// Rows of the score-bias table.
    Bias,
    Embed,
    Ln1(usize),
    Qkv(usize),
    Rotate(usize),
    Attend(usize),
    Out(usize),
    Ln2(usize),
    Fc(usize),
    Gelu(usize),
    Proj(usize),
    LnF,
    Head,
    Softmax,
    DLogits,
    DHead,
    DHeadW,
    DLnF,
    DProj(usize),
    DProjW(usize),
    DFc(usize),
    DFcW(usize),
    DLn2(usize),
    DOut(usize),
    DOutW(usize),
    DAttend(usize),
    DRotate(usize),
    DQkv(usize),
    DQkvW(usize),
    DLn1(usize),
    DEmbed,
    /// Rows of the score-bias table, back to its parameters.
    DBias,
}

/// What a stage's items are, with the cost of one (in multiply-adds, roughly: elementwise
/// work counts a few per value).
enum Unit {
    Rows(u64),
    /// Rows of a weight's gradient: how many, and the cost of one.
    WeightRows(usize, u64),
    /// Query rows (token rows whose attention is computed): the cost of one query-key pair.
    Queries(u64),
    /// Rows of the score-bias table (of the batch's longest sequence): the cost of one entry.
    Table(u64),
}

/// Work between two looks at the clock, in multiply-adds (about a quarter of a millisecond).
pub const CHUNK_COST: u64 = 1 << 20;

/// How far a forward or backward pass has got, so that it can stop and go on later.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Pass {
    op: usize,
    at: usize,
    loss: f64,
    correct: usize,
    counted: usize,
}

impl Pass {
    pub fn started(&self) -> bool {
        self.op > 0 || self.at > 0
    }
}

/// Query-key pairs a sequence's attention computes (each query sees the keys up to itself
/// under a causal mask).
pub fn attended_pairs(len: usize, causal: bool) -> u64 {
    let len = len as u64;
    if causal {
        len * (len + 1) / 2
    } else {
        len * len
    }
}

const LN_EPS: f64 = 1e-5;

/// The model: its configuration, parameter layout and the fixed position tables.
#[derive(Clone, Debug)]
pub struct Model<T> {
    pub config: ModelConfig,
    pub layout: Layout,
    /// Longest sequence the tables cover.
    pub max_positions: usize,
    /// Sinusoidal: `max_positions × d_model`.
    pe: Vec<T>,
    /// RoPE: cos and sin of position × pair angle, `max_positions × head_dim/2`, and the two
    /// dimensions of each pair within a head.
    rope_cos: Vec<T>,
    rope_sin: Vec<T>,
    rope_pairs: Vec<(usize, usize)>,
}

/// The fixed tables of a model's scheme (empty where the scheme has none).
pub struct Buffers<'a, T> {
    pub pe: &'a [T],
    pub rope_cos: &'a [T],
    pub rope_sin: &'a [T],
    pub rope_pairs: &'a [(usize, usize)],
}

fn gelu_parts<T: Real>(u: T) -> (T, T) {
    // GPT-2's tanh approximation: 0.5·u·(1 + tanh(√(2/π)·(u + 0.044715·u³))); returns the value
    // and its derivative.
    let c = T::from_f64((2.0 / std::f64::consts::PI).sqrt());
    let k = T::from_f64(0.044715);
    let half = T::from_f64(0.5);
    let inner = c * (u + k * u * u * u);
    let t = inner.tanh();
    let value = half * u * (T::ONE + t);
    let slope = half * (T::ONE + t)
        + half * u * (T::ONE - t * t) * c * (T::ONE + T::from_f64(3.0) * k * u * u);
    (value, slope)
}

fn layer_norm<T: Real>(
    out: &mut [T],
    mean: &mut [T],
    rstd: &mut [T],
    x: &[T],
    g: &[T],
    b: &[T],
    d: usize,
) {
    let inv_d = T::from_f64(1.0 / d as f64);
    for i in 0..x.len() / d {
        let row = &x[i * d..(i + 1) * d];
        let mut m = T::ZERO;
        for &v in row {
            m += v;
        }
        m *= inv_d;
        let mut var = T::ZERO;
        for &v in row {
            var += (v - m) * (v - m);
        }
        var *= inv_d;
        let r = T::ONE / (var + T::from_f64(LN_EPS)).sqrt();
        let o = &mut out[i * d..(i + 1) * d];
        for j in 0..d {
            o[j] = (row[j] - m) * r * g[j] + b[j];
        }
        mean[i] = m;
        rstd[i] = r;
    }
}

/// Adds the LayerNorm's input gradient to `dx` and its parameter gradients to `dg`, `db`.
#[allow(clippy::too_many_arguments)]
fn layer_norm_backward<T: Real>(
    dx: &mut [T],
    dg: &mut [T],
    db: &mut [T],
    dout: &[T],
    x: &[T],
    mean: &[T],
    rstd: &[T],
    g: &[T],
    d: usize,
) {
    let inv_d = T::from_f64(1.0 / d as f64);
    for i in 0..x.len() / d {
        let (row, drow) = (&x[i * d..(i + 1) * d], &dout[i * d..(i + 1) * d]);
        let (m, r) = (mean[i], rstd[i]);
        let mut mean_dxhat = T::ZERO;
        let mut mean_dxhat_xhat = T::ZERO;
        for j in 0..d {
            let xhat = (row[j] - m) * r;
            let dxhat = drow[j] * g[j];
            mean_dxhat += dxhat;
            mean_dxhat_xhat += dxhat * xhat;
            dg[j] += drow[j] * xhat;
            db[j] += drow[j];
        }
        mean_dxhat *= inv_d;
        mean_dxhat_xhat *= inv_d;
        let o = &mut dx[i * d..(i + 1) * d];
        for j in 0..d {
            let xhat = (row[j] - m) * r;
            let dxhat = drow[j] * g[j];
            o[j] += r * (dxhat - mean_dxhat - xhat * mean_dxhat_xhat);
        }
    }
}

fn resize<T: Real>(v: &mut Vec<T>, n: usize) {
    v.clear();
    v.resize(n, T::ZERO);
}

impl<T: Real> Model<T> {
    /// A model whose position tables reach `max_positions` (the longest test sequence).
    pub fn new(config: ModelConfig, max_positions: usize) -> Model<T> {
        let layout = Layout::new(&config);
        let (d, dh) = (config.d_model, config.head_dim());
        let mut pe = Vec::new();
        let (mut rope_cos, mut rope_sin, mut rope_pairs) = (Vec::new(), Vec::new(), Vec::new());
        match config.position {
            Position::Sinusoidal { variant, base } => {
                let enc = Sinusoidal::new(variant, d, base);
                pe = (0..max_positions)
                    .flat_map(|p| (0..d).map(move |c| (p, c)))
                    .map(|(p, c)| T::from_f64(enc.value(p, c)))
                    .collect();
            }
            Position::Rope {
                base,
                pairing,
                ref scaling,
            } => {
                // A context-extension method's angles and attention factor (cos and sin
                // scaled by it, as transformers does), from the RoPE views' own code.
                let rope = Rope::new(dh, base, pairing, scaling.clone());
                let (pairs, factor) = (rope.pair_count(), rope.attention_factor());
                rope_pairs = (0..pairs).map(|i| rope.pair_dims(i)).collect();
                for p in 0..max_positions {
                    for i in 0..pairs {
                        let angle = rope.angle(p as f64, i);
                        rope_cos.push(T::from_f64(factor * angle.cos()));
                        rope_sin.push(T::from_f64(factor * angle.sin()));
                    }
                }
            }
            Position::None | Position::Learned | Position::Bias(_) => {}
        }
        Model {
            config,
            layout,
            max_positions,
            pe,
            rope_cos,
            rope_sin,
            rope_pairs,
        }
    }

    pub fn buffers(&self) -> Buffers<'_, T> {
        Buffers {
            pe: &self.pe,
            rope_cos: &self.rope_cos,
            rope_sin: &self.rope_sin,
            rope_pairs: &self.rope_pairs,
        }
    }

    /// Initial weights: every tensor drawn from its own stream, seeded by the seed and the
    /// tensor's name, so models that differ only in their position scheme start from the same
    /// shared weights. Matrices N(0, 0.02²) (the two that write into the residual stream scaled
    /// by 1/√(2·layers), as GPT-2); token embeddings N(0, 1); LayerNorm gains 1; biases 0; a
    /// score bias's tensors as that scheme draws them ([`ScoreBias::init`]).
    pub fn init(&self, seed: u64) -> Vec<T> {
        let mut p = vec![T::ZERO; self.layout.total];
        for t in &self.layout.tensors {
            self.init_tensor(&mut p[t.range()], seed, t);
        }
        p
    }

    /// One tensor's initial values (see [`init`](Self::init)): they depend on the seed, the
    /// tensor's name and the number of layers only.
    pub fn init_tensor(&self, p: &mut [T], seed: u64, t: &Tensor) {
        let residual = 0.02 / (2.0 * self.config.layers.max(1) as f64).sqrt();
        let mut rng = SplitMix64::new(seed ^ fnv1a(&t.name));
        if let Some(bias) = self.config.position.bias() {
            let heads = self.config.heads;
            if let Some(k) = bias.tensors(heads).iter().position(|b| b.name == t.name) {
                for (v, x) in p.iter_mut().zip(bias.init(heads, k, &mut rng)) {
                    *v = T::from_f64(x);
                }
                return;
            }
        }
        let std = if t.name == "tok_emb" {
            1.0
        } else if t.name.ends_with("out.weight") || t.name.ends_with("proj.weight") {
            residual
        } else if t.name.ends_with("ln1.weight")
            || t.name.ends_with("ln2.weight")
            || t.name == "ln_f.weight"
        {
            p.fill(T::ONE);
            return;
        } else if t.shape.len() == 1 {
            p.fill(T::ZERO);
            return;
        } else {
            0.02
        };
        for v in p.iter_mut() {
            *v = T::from_f64(std * rng.next_normal());
        }
    }

    /// Puts the score bias's parameters back in their domain after an optimiser step (KERPLE's
    /// clamp, see [`ScoreBias::project`]); nothing for other schemes.
    pub fn project(&self, p: &mut [T]) {
        let (Some(bias), Some(span)) = (self.config.position.bias(), self.layout.bias) else {
            return;
        };
        let mut values: Vec<f64> = span.of(p).iter().map(|x| x.to_f64()).collect();
        if bias.project(self.config.heads, &mut values) {
            for (t, x) in span.of_mut(p).iter_mut().zip(values) {
                *t = T::from_f64(x);
            }
        }
    }

    /// Whether the model can place a token at `position` (a learned table has `max_len` rows;
    /// the fixed tables were built for `max_positions`).
    pub fn covers(&self, length: usize) -> bool {
        match self.config.position {
            Position::Learned => length <= self.config.max_len,
            _ => length <= self.max_positions,
        }
    }

    /// The forward pass over a batch, keeping the activations in `tape`. Fails (without
    /// computing anything) if a sequence is longer than the model can place.
    pub fn forward(&self, p: &[T], batch: &Batch, tape: &mut Tape<T>) -> Result<Stats, String> {
        let mut pass = Pass::default();
        loop {
            if let Some(done) = self.forward_part(p, batch, tape, &mut pass, &mut |_| true) {
                return done;
            }
        }
    }

    /// The backward pass of the last forward: adds the gradient of the mean loss to `g`.
    pub fn backward(&self, p: &[T], batch: &Batch, tape: &mut Tape<T>, g: &mut [T]) {
        let mut pass = Pass::default();
        while !self.backward_part(p, batch, tape, g, &mut pass, &mut |_| true) {}
    }

    /// Goes on with a forward pass from where `pass` stands, until it is done (`Some`) or `go`,
    /// told the cost of each piece of work, says stop (`None`: call again to go on).
    pub fn forward_part(
        &self,
        p: &[T],
        batch: &Batch,
        tape: &mut Tape<T>,
        pass: &mut Pass,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> Option<Result<Stats, String>> {
        if !pass.started() {
            if let Err(e) = self.check_lengths(batch) {
                return Some(Err(e));
            }
            self.prepare(batch, tape);
        }
        let ops = self.config.schedule(false);
        if !self.drive(&ops, batch, pass, go, |op, rows, pass| {
            self.forward_op(op, p, batch, tape, rows, pass)
        }) {
            return None;
        }
        Some(Ok(Stats {
            loss: if pass.counted > 0 {
                pass.loss / pass.counted as f64
            } else {
                0.0
            },
            correct: pass.correct,
            counted: pass.counted,
        }))
    }

    /// Goes on with the backward pass of the last forward (see [`forward_part`]); true when it
    /// is done.
    ///
    /// [`forward_part`]: Self::forward_part
    pub fn backward_part(
        &self,
        p: &[T],
        batch: &Batch,
        tape: &mut Tape<T>,
        g: &mut [T],
        pass: &mut Pass,
        go: &mut dyn FnMut(u64) -> bool,
    ) -> bool {
        if tape.counted == 0 {
            return true;
        }
        let ops = self.config.schedule(true);
        self.drive(&ops, batch, pass, go, |op, rows, _| {
            self.backward_op(op, p, batch, tape, g, rows)
        })
    }

    /// Runs the stages from where `pass` stands, a range of items at a time, asking `go` after
    /// each; true when the last stage is done.
    fn drive(
        &self,
        ops: &[Op],
        batch: &Batch,
        pass: &mut Pass,
        go: &mut dyn FnMut(u64) -> bool,
        mut apply: impl FnMut(Op, Range<usize>, &mut Pass),
    ) -> bool {
        while let Some(&op) = ops.get(pass.op) {
            let (end, items, cost) = self.chunk(op, batch, pass.at);
            apply(op, pass.at..end, pass);
            if end >= items {
                pass.op += 1;
                pass.at = 0;
            } else {
                pass.at = end;
            }
            if !go(cost) {
                return pass.op >= ops.len();
            }
        }
        true
    }

    /// The next range of a stage from `start`: where it ends, how many items the stage has,
    /// and what the range costs. Rows go in multiples of 4.
    fn chunk(&self, op: Op, batch: &Batch, start: usize) -> (usize, usize, u64) {
        let n = batch.tokens.len();
        let rows = |items: usize, per: u64| {
            let take = ((CHUNK_COST / per.max(1)) as usize)
                .max(1)
                .next_multiple_of(4);
            let end = (start + take).min(items);
            (end, items, (end - start) as u64 * per)
        };
        match self.config.unit(op, n) {
            Unit::Rows(per) => rows(n, per),
            Unit::WeightRows(k, per) => rows(k, per),
            Unit::Queries(per_pair) => {
                let (mut end, mut cost) = (start, 0);
                while end < n && (end == start || cost < CHUNK_COST) {
                    cost += per_pair * self.keys_seen(batch, end) as u64;
                    end += 1;
                }
                (end, n, cost)
            }
            Unit::Table(per_entry) => {
                let len = batch.longest();
                let (mut end, mut cost) = (start, 0);
                while end < len && (end == start || cost < CHUNK_COST) {
                    cost += per_entry * visible(end, len, self.config.causal).len() as u64;
                    end += 1;
                }
                (end, len, cost)
            }
        }
    }

    /// The keys token row `i` attends to: the rows of its sequence up to itself under a causal
    /// mask, all of them otherwise.
    fn keys_seen(&self, batch: &Batch, i: usize) -> usize {
        let s = batch.starts.partition_point(|&x| x <= i).saturating_sub(1);
        let start = batch.starts[s];
        if self.config.causal {
            i - start + 1
        } else {
            batch.starts.get(s + 1).map_or(1, |end| end - start)
        }
    }

    fn check_lengths(&self, batch: &Batch) -> Result<(), String> {
        if self.covers(batch.longest()) {
            return Ok(());
        }
        let c = &self.config;
        Err(match c.position {
            Position::Learned => format!(
                "no embedding exists for position {}: the learned table has {} rows",
                c.max_len, c.max_len
            ),
            _ => format!("sequences longer than {} positions", self.max_positions),
        })
    }

    /// Sizes the tape for a batch: the blocks, where each sequence's attention matrices go,
    /// each token's position, and the first layer's input.
    fn prepare(&self, batch: &Batch, tape: &mut Tape<T>) {
        let c = &self.config;
        tape.blocks.resize_with(c.layers, BlockTape::default);
        tape.att_starts.clear();
        tape.pos.clear();
        tape.row_seq.clear();
        let mut at = 0;
        for (s, (_, len)) in batch.spans().enumerate() {
            tape.att_starts.push(at);
            at += c.heads * len * len;
            tape.pos.extend(0..len);
            tape.row_seq.extend(std::iter::repeat_n(s, len));
        }
        tape.att_total = at;
        if c.position.bias().is_some() {
            tape.bias_len = batch.longest();
            resize(&mut tape.bias, c.heads * tape.bias_len * tape.bias_len);
        }
        resize(stream(tape, 0), batch.tokens.len() * c.d_model);
    }

    fn forward_op(
        &self,
        op: Op,
        p: &[T],
        batch: &Batch,
        tape: &mut Tape<T>,
        r: Range<usize>,
        pass: &mut Pass,
    ) {
        let c = &self.config;
        let lay = &self.layout;
        let (d, n, v, h4) = (c.d_model, batch.tokens.len(), c.vocab, c.hidden());
        let first = r.start == 0;
        let rows = r.len();
        let (a, b) = (r.start, r.end);
        match op {
            Op::Bias => {
                let Some(bias) = c.position.bias() else {
                    return;
                };
                let (heads, len) = (c.heads, tape.bias_len);
                if first {
                    let params = lay.bias.map_or(&[][..], |s| s.of(p));
                    tape.bias_params.clear();
                    tape.bias_params.extend(params.iter().map(|v| v.to_f64()));
                    tape.bias_row.clear();
                    tape.bias_row.resize(heads * len, 0.0);
                }
                for i in r {
                    let at = Row::new(heads, len, c.causal, i);
                    bias.row(&tape.bias_params, at, &mut tape.bias_row);
                    let row = &mut tape.bias[i * heads * len..(i + 1) * heads * len];
                    for (t, &v) in row.iter_mut().zip(&tape.bias_row) {
                        *t = T::from_f64(v);
                    }
                }
            }
            Op::Embed => {
                let tok = lay.tok.of(p);
                let Tape {
                    blocks, x_out, pos, ..
                } = tape;
                let x = blocks.first_mut().map_or(x_out, |b| &mut b.x_in);
                for i in r {
                    let t = pos[i];
                    let id = (batch.tokens[i] as usize).min(v - 1);
                    let row = &mut x[i * d..(i + 1) * d];
                    row.copy_from_slice(&tok[id * d..(id + 1) * d]);
                    let extra: Option<&[T]> = match (&c.position, lay.pos) {
                        (Position::Sinusoidal { .. }, _) => Some(&self.pe[t * d..(t + 1) * d]),
                        (Position::Learned, Some(pos)) => Some(&pos.of(p)[t * d..(t + 1) * d]),
                        _ => None,
                    };
                    if let Some(e) = extra {
                        for (r, e) in row.iter_mut().zip(e) {
                            *r += *e;
                        }
                    }
                }
            }
            Op::Ln1(l) | Op::Ln2(l) => {
                let spans = &lay.blocks[l];
                let bt = &mut tape.blocks[l];
                let (out, mean, rstd, x, gain, bias) = if let Op::Ln1(_) = op {
                    (
                        &mut bt.ln1,
                        &mut bt.ln1_mean,
                        &mut bt.ln1_rstd,
                        &bt.x_in,
                        spans.ln1_g,
                        spans.ln1_b,
                    )
                } else {
                    (
                        &mut bt.ln2,
                        &mut bt.ln2_mean,
                        &mut bt.ln2_rstd,
                        &bt.x_mid,
                        spans.ln2_g,
                        spans.ln2_b,
                    )
                };
                if first {
                    resize(out, n * d);
                    resize(mean, n);
                    resize(rstd, n);
                }
                layer_norm(
                    &mut out[a * d..b * d],
                    &mut mean[a..b],
                    &mut rstd[a..b],
                    &x[a * d..b * d],
                    gain.of(p),
                    bias.of(p),
                    d,
                );
            }
            Op::Qkv(l) => {
                let spans = &lay.blocks[l];
                let bt = &mut tape.blocks[l];
                if first {
                    resize(&mut bt.qkv, n * 3 * d);
                }
                linear(
                    &mut bt.qkv[a * 3 * d..b * 3 * d],
                    &bt.ln1[a * d..b * d],
                    spans.w_qkv.of(p),
                    spans.b_qkv.of(p),
                    rows,
                    d,
                    3 * d,
                );
            }
            Op::Rotate(l) => {
                let bt = &mut tape.blocks[l];
                self.rotate(&mut bt.qkv, &tape.pos, r, false);
            }
            Op::Attend(l) => {
                let bt = &mut tape.blocks[l];
                if first {
                    resize(&mut bt.probs, tape.att_total);
                    resize(&mut bt.att, n * d);
                }
                let table = c.position.bias().map(|_| (&tape.bias[..], tape.bias_len));
                for i in r {
                    let s = tape.row_seq[i];
                    self.attend(batch, s, i, tape.att_starts[s], table, bt);
                }
            }
            Op::Out(l) | Op::Proj(l) => {
                let spans = &lay.blocks[l];
                let (here, next) = tape.blocks.split_at_mut(l + 1);
                let bt = &mut here[l];
                // Attention's output (into the middle of the block) or the MLP's (into the
                // next block, or the final LayerNorm).
                let (out, input, k, w, bias, residual) = match op {
                    Op::Out(_) => (&mut bt.x_mid, &bt.att, d, spans.w_o, spans.b_o, &bt.x_in),
                    _ => (
                        next.first_mut().map_or(&mut tape.x_out, |b| &mut b.x_in),
                        &bt.act,
                        h4,
                        spans.w_proj,
                        spans.b_proj,
                        &bt.x_mid,
                    ),
                };
                if first {
                    resize(out, n * d);
                    resize(&mut tape.proj, n * d);
                }
                let proj = &mut tape.proj[a * d..b * d];
                linear(proj, &input[a * k..b * k], w.of(p), bias.of(p), rows, k, d);
                // The sublayer's output joins the residual stream.
                for ((o, x), y) in out[a * d..b * d]
                    .iter_mut()
                    .zip(&residual[a * d..b * d])
                    .zip(proj.iter())
                {
                    *o = *x + *y;
                }
            }
            Op::Fc(l) => {
                let spans = &lay.blocks[l];
                let bt = &mut tape.blocks[l];
                if first {
                    resize(&mut bt.fc, n * h4);
                }
                linear(
                    &mut bt.fc[a * h4..b * h4],
                    &bt.ln2[a * d..b * d],
                    spans.w_fc.of(p),
                    spans.b_fc.of(p),
                    rows,
                    d,
                    h4,
                );
            }
            Op::Gelu(l) => {
                let bt = &mut tape.blocks[l];
                if first {
                    resize(&mut bt.act, n * h4);
                    resize(&mut bt.act_slope, n * h4);
                }
                let range = a * h4..b * h4;
                for ((value, slope), &u) in bt.act[range.clone()]
                    .iter_mut()
                    .zip(&mut bt.act_slope[range.clone()])
                    .zip(&bt.fc[range])
                {
                    (*value, *slope) = gelu_parts(u);
                }
            }
            Op::LnF => {
                if first {
                    resize(&mut tape.lnf, n * d);
                    resize(&mut tape.lnf_mean, n);
                    resize(&mut tape.lnf_rstd, n);
                }
                layer_norm(
                    &mut tape.lnf[a * d..b * d],
                    &mut tape.lnf_mean[a..b],
                    &mut tape.lnf_rstd[a..b],
                    &tape.x_out[a * d..b * d],
                    lay.lnf_g.of(p),
                    lay.lnf_b.of(p),
                    d,
                );
            }
            Op::Head => {
                if first {
                    resize(&mut tape.probs, n * v);
                }
                linear(
                    &mut tape.probs[a * v..b * v],
                    &tape.lnf[a * d..b * d],
                    lay.w_head.of(p),
                    lay.b_head.of(p),
                    rows,
                    d,
                    v,
                );
            }
            Op::Softmax => {
                // Softmax in place, and the loss on the positions that have a target.
                for i in r {
                    let row = &mut tape.probs[i * v..(i + 1) * v];
                    let mut best = 0;
                    for j in 1..v {
                        if row[j] > row[best] {
                            best = j;
                        }
                    }
                    let max = row[best];
                    let mut sum = T::ZERO;
                    for r in row.iter_mut() {
                        *r = (*r - max).exp();
                        sum += *r;
                    }
                    for r in row.iter_mut() {
                        *r /= sum;
                    }
                    if let Some(target) = batch.targets[i] {
                        let t = (target as usize).min(v - 1);
                        pass.loss -= row[t].to_f64().max(f64::MIN_POSITIVE).ln();
                        pass.counted += 1;
                        if best == t {
                            pass.correct += 1;
                        }
                    }
                }
                if b == n {
                    tape.counted = pass.counted;
                }
            }
            _ => {}
        }
    }

    /// The predicted token and its probability at row `i` of the last forward pass.
    pub fn prediction(&self, tape: &Tape<T>, i: usize) -> (u32, f64) {
        let v = self.config.vocab;
        let row = &tape.probs[i * v..(i + 1) * v];
        let mut best = 0;
        for j in 1..v {
            if row[j] > row[best] {
                best = j;
            }
        }
        (best as u32, row[best].to_f64())
    }

    /// Rotates each head's query and key pairs in rows `r` by position (`inverse`: back, for
    /// gradients).
    fn rotate(&self, qkv: &mut [T], pos: &[usize], r: Range<usize>, inverse: bool) {
        let c = &self.config;
        let (d, dh) = (c.d_model, c.head_dim());
        let pairs = self.rope_pairs.len();
        for i in r {
            let t = pos[i];
            let row = &mut qkv[i * 3 * d..(i + 1) * 3 * d];
            let cos = &self.rope_cos[t * pairs..(t + 1) * pairs];
            let sin = &self.rope_sin[t * pairs..(t + 1) * pairs];
            for part in 0..2 {
                for h in 0..c.heads {
                    let base = part * d + h * dh;
                    for (i, &(a, b)) in self.rope_pairs.iter().enumerate() {
                        let (x, y) = (row[base + a], row[base + b]);
                        let s = if inverse { -sin[i] } else { sin[i] };
                        row[base + a] = x * cos[i] - y * s;
                        row[base + b] = x * s + y * cos[i];
                    }
                }
            }
        }
    }

    /// Attention of token row `row`, the query at its place in sequence `s` (whose matrices
    /// start at `att_start` in the block's `probs`), in every head; `table` is the score-bias
    /// table and its length, for a bias scheme.
    fn attend(
        &self,
        batch: &Batch,
        s: usize,
        row: usize,
        att_start: usize,
        table: Option<(&[T], usize)>,
        bt: &mut BlockTape<T>,
    ) {
        let c = &self.config;
        let (d, dh) = (c.d_model, c.head_dim());
        let scale = T::from_f64(1.0 / (dh as f64).sqrt());
        let qkv = &bt.qkv;
        let start = batch.starts[s];
        let len = batch.starts[s + 1] - start;
        let i = row - start;
        for h in 0..c.heads {
            let probs = &mut bt.probs[att_start + h * len * len..][..len * len];
            let q = &qkv[(start + i) * 3 * d + h * dh..][..dh];
            let row = &mut probs[i * len..(i + 1) * len];
            let visible = if c.causal { i + 1 } else { len };
            let bias = table.map(|(t, n)| &t[(i * c.heads + h) * n..][..n]);
            let mut max = T::NEG_INFINITY;
            for (j, slot) in row.iter_mut().enumerate().take(visible) {
                let k = &qkv[(start + j) * 3 * d + d + h * dh..][..dh];
                let mut sc = T::dot(q, k) * scale;
                if let Some(b) = bias {
                    sc += b[j];
                }
                *slot = sc;
                max = max.max(sc);
            }
            let mut sum = T::ZERO;
            for slot in row.iter_mut().take(visible) {
                *slot = (*slot - max).exp();
                sum += *slot;
            }
            for slot in row.iter_mut().take(visible) {
                *slot /= sum;
            }
            let out = &mut bt.att[(start + i) * d + h * dh..][..dh];
            for (j, &w) in row.iter().enumerate().take(visible) {
                let vv = &qkv[(start + j) * 3 * d + 2 * d + h * dh..][..dh];
                T::axpy(out, w, vv);
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn backward_op(
        &self,
        op: Op,
        p: &[T],
        batch: &Batch,
        tape: &mut Tape<T>,
        g: &mut [T],
        r: Range<usize>,
    ) {
        let c = &self.config;
        let lay = &self.layout;
        let (d, n, v, h4) = (c.d_model, batch.tokens.len(), c.vocab, c.hidden());
        let first = r.start == 0;
        let (a, b) = (r.start, r.end);
        let gr = &mut tape.grad;
        match op {
            Op::DLogits => {
                if first {
                    resize(&mut gr.dlogits, n * v);
                    if c.learned_bias() {
                        gr.dbias.clear();
                        gr.dbias
                            .resize(c.heads * tape.bias_len * tape.bias_len, 0.0);
                    }
                }
                let inv = T::from_f64(1.0 / tape.counted as f64);
                for i in r {
                    if let Some(target) = batch.targets[i] {
                        let row = &mut gr.dlogits[i * v..(i + 1) * v];
                        row.copy_from_slice(&tape.probs[i * v..(i + 1) * v]);
                        row[(target as usize).min(v - 1)] -= T::ONE;
                        for r in row.iter_mut() {
                            *r *= inv;
                        }
                    }
                }
            }
            // A linear layer's input gradient and its bias gradient, by rows:
            // d(input) = d(output)·Wᵀ, d(bias) = Σ rows of d(output).
            Op::DHead | Op::DProj(_) | Op::DFc(_) | Op::DOut(_) | Op::DQkv(_) => {
                let (w, bias, k, m) = match op {
                    Op::DHead => (lay.w_head, lay.b_head, d, v),
                    Op::DProj(l) => (lay.blocks[l].w_proj, lay.blocks[l].b_proj, h4, d),
                    Op::DFc(l) => (lay.blocks[l].w_fc, lay.blocks[l].b_fc, d, h4),
                    Op::DOut(l) => (lay.blocks[l].w_o, lay.blocks[l].b_o, d, d),
                    Op::DQkv(l) => (lay.blocks[l].w_qkv, lay.blocks[l].b_qkv, d, 3 * d),
                    _ => return,
                };
                let (din, dout) = match op {
                    Op::DHead => (&mut gr.dz, &gr.dlogits),
                    Op::DProj(_) => (&mut gr.dact, &gr.dx),
                    Op::DFc(_) => (&mut gr.dln2, &gr.dact),
                    Op::DOut(_) => (&mut gr.datt, &gr.dx),
                    _ => (&mut gr.dln1, &gr.dqkv),
                };
                if first {
                    transpose(&mut gr.wt, w.of(p), k, m);
                    resize(din, n * k);
                }
                let dout = &dout[a * m..b * m];
                gemm(&mut din[a * k..b * k], dout, &gr.wt, r.len(), m, k);
                let gb = bias.of_mut(g);
                for d_row in dout.chunks_exact(m) {
                    T::axpy(&mut gb[..m], T::ONE, d_row);
                }
                if let Op::DProj(l) = op {
                    // Through GELU: times its slope at the pre-activation.
                    let slope = &tape.blocks[l].act_slope[a * k..b * k];
                    for (da, &s) in din[a * k..b * k].iter_mut().zip(slope) {
                        *da *= s;
                    }
                }
            }
            // A weight's gradient, by rows of the weight: dW = inputᵀ·d(output).
            Op::DHeadW | Op::DProjW(_) | Op::DFcW(_) | Op::DOutW(_) | Op::DQkvW(_) => {
                let (w, input, dout, k, m) = match op {
                    Op::DHeadW => (lay.w_head, &tape.lnf, &gr.dlogits, d, v),
                    Op::DProjW(l) => (lay.blocks[l].w_proj, &tape.blocks[l].act, &gr.dx, h4, d),
                    Op::DFcW(l) => (lay.blocks[l].w_fc, &tape.blocks[l].ln2, &gr.dact, d, h4),
                    Op::DOutW(l) => (lay.blocks[l].w_o, &tape.blocks[l].att, &gr.dx, d, d),
                    Op::DQkvW(l) => (lay.blocks[l].w_qkv, &tape.blocks[l].ln1, &gr.dqkv, d, 3 * d),
                    _ => return,
                };
                gemm_at_rows(w.of_mut(g), input, dout, n, k, m, r);
            }
            Op::DLnF | Op::DLn2(_) | Op::DLn1(_) => {
                let (gain, bias, dout, x, mean, rstd) = match op {
                    Op::DLnF => (
                        lay.lnf_g,
                        lay.lnf_b,
                        &gr.dz,
                        &tape.x_out,
                        &tape.lnf_mean,
                        &tape.lnf_rstd,
                    ),
                    Op::DLn2(l) => {
                        let bt = &tape.blocks[l];
                        let s = &lay.blocks[l];
                        (
                            s.ln2_g,
                            s.ln2_b,
                            &gr.dln2,
                            &bt.x_mid,
                            &bt.ln2_mean,
                            &bt.ln2_rstd,
                        )
                    }
                    Op::DLn1(l) => {
                        let bt = &tape.blocks[l];
                        let s = &lay.blocks[l];
                        (
                            s.ln1_g,
                            s.ln1_b,
                            &gr.dln1,
                            &bt.x_in,
                            &bt.ln1_mean,
                            &bt.ln1_rstd,
                        )
                    }
                    _ => return,
                };
                if first && op == Op::DLnF {
                    resize(&mut gr.dx, n * d);
                }
                // The residual passes the gradient on unchanged; the LayerNorm adds its own.
                let (gg, gb) = split2(g, gain, bias);
                layer_norm_backward(
                    &mut gr.dx[a * d..b * d],
                    gg,
                    gb,
                    &dout[a * d..b * d],
                    &x[a * d..b * d],
                    &mean[a..b],
                    &rstd[a..b],
                    gain.of(p),
                    d,
                );
            }
            Op::DAttend(l) => {
                if first {
                    resize(&mut gr.dqkv, n * 3 * d);
                }
                let bt = &tape.blocks[l];
                // In row order, as the whole pass goes: every key's and value's gradient (and
                // each score bias's) adds up its queries' shares in the same order.
                let len = tape.bias_len;
                let mut dbias = c.learned_bias().then_some((&mut gr.dbias[..], len));
                for i in r {
                    let s = tape.row_seq[i];
                    let at = tape.att_starts[s];
                    let db = dbias.as_mut().map(|(t, n)| (&mut t[..], *n));
                    self.attend_backward(batch, s, i, at, bt, &gr.datt, &mut gr.dqkv, db);
                }
            }
            Op::DBias => {
                let (Some(bias), Some(span)) = (c.position.bias(), lay.bias) else {
                    return;
                };
                let (heads, len) = (c.heads, tape.bias_len);
                if first {
                    gr.dbias_params.clear();
                    gr.dbias_params.resize(span.len, 0.0);
                }
                for i in a..b {
                    let at = Row::new(heads, len, c.causal, i);
                    let drow = &gr.dbias[i * heads * len..(i + 1) * heads * len];
                    bias.row_backward(&tape.bias_params, at, drow, &mut gr.dbias_params);
                }
                if b >= len {
                    for (g, &d) in span.of_mut(g).iter_mut().zip(&gr.dbias_params) {
                        *g += T::from_f64(d);
                    }
                }
            }
            Op::DRotate(_) => self.rotate(&mut gr.dqkv, &tape.pos, r, true),
            Op::DEmbed => {
                for i in r {
                    let t = tape.pos[i];
                    let row = &gr.dx[i * d..(i + 1) * d];
                    let id = (batch.tokens[i] as usize).min(v - 1);
                    T::axpy(&mut lay.tok.of_mut(g)[id * d..(id + 1) * d], T::ONE, row);
                    if let Some(pos) = lay.pos {
                        T::axpy(&mut pos.of_mut(g)[t * d..(t + 1) * d], T::ONE, row);
                    }
                }
            }
            _ => {}
        }
    }

    /// The backward pass of token row `row`'s attention (the query at its place in sequence
    /// `s`), in every head: adds to `dqkv` (and, with `dbias`, to the gradient of the score-bias
    /// table, given with its length).
    #[allow(clippy::too_many_arguments)]
    fn attend_backward(
        &self,
        batch: &Batch,
        s: usize,
        row: usize,
        att_start: usize,
        bt: &BlockTape<T>,
        datt: &[T],
        dqkv: &mut [T],
        mut dbias: Option<(&mut [f64], usize)>,
    ) {
        let c = &self.config;
        let (d, dh) = (c.d_model, c.head_dim());
        let scale = T::from_f64(1.0 / (dh as f64).sqrt());
        let qkv = &bt.qkv;
        let mut dp = Vec::new();
        let mut dq = Vec::new();
        let start = batch.starts[s];
        let len = batch.starts[s + 1] - start;
        let i = row - start;
        for h in 0..c.heads {
            let probs = &bt.probs[att_start + h * len * len..][..len * len];
            let visible = if c.causal { i + 1 } else { len };
            let row = &probs[i * len..i * len + visible];
            let dout = &datt[(start + i) * d + h * dh..][..dh];
            // dP_ij = dout_i · v_j, dv_j += P_ij · dout_i.
            dp.clear();
            let mut weighted = T::ZERO;
            for (j, &w) in row.iter().enumerate() {
                let vj = &qkv[(start + j) * 3 * d + 2 * d + h * dh..][..dh];
                let x = T::dot(dout, vj);
                dp.push(x);
                weighted += w * x;
                T::axpy(
                    &mut dqkv[(start + j) * 3 * d + 2 * d + h * dh..][..dh],
                    w,
                    dout,
                );
            }
            let qi = (start + i) * 3 * d + h * dh;
            dq.clear();
            dq.resize(dh, T::ZERO);
            // Softmax: dS_ij = P_ij·(dP_ij − Σ_j' P_ij'·dP_ij').
            let mut db = dbias
                .as_mut()
                .map(|(t, n)| &mut t[(i * c.heads + h) * *n..][..*n]);
            for (j, &w) in row.iter().enumerate() {
                let ds = w * (dp[j] - weighted);
                // The bias is added to the score as it is: its gradient is dS.
                if let Some(db) = db.as_mut() {
                    db[j] += ds.to_f64();
                }
                // dq_i += dS·k_j/√dh (summed here, added once below); dk_j += dS·q_i/√dh.
                let dsc = ds * scale;
                let kj = (start + j) * 3 * d + d + h * dh;
                T::axpy(&mut dq, dsc, &qkv[kj..kj + dh]);
                T::axpy(&mut dqkv[kj..kj + dh], dsc, &qkv[qi..qi + dh]);
            }
            T::axpy(&mut dqkv[qi..qi + dh], T::ONE, &dq);
        }
    }
}

/// The residual stream entering block `l` (the final LayerNorm's input after the last block).
fn stream<T>(tape: &mut Tape<T>, l: usize) -> &mut Vec<T> {
    match tape.blocks.get_mut(l) {
        Some(b) => &mut b.x_in,
        None => &mut tape.x_out,
    }
}

/// Two disjoint tensors of the gradient vector, mutably (the first must come first).
fn split2<T>(g: &mut [T], a: Span, b: Span) -> (&mut [T], &mut [T]) {
    debug_assert!(a.at + a.len <= b.at);
    let (left, right) = g.split_at_mut(b.at);
    (&mut left[a.at..a.at + a.len], &mut right[..b.len])
}
