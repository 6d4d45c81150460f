//! The transformer that is trained: token embedding, the position scheme where its reference
//! model puts it, `layers` pre-LayerNorm blocks (multi-head self-attention, then a GELU MLP of
//! width 4·d_model, each added back to the residual stream), a final LayerNorm and a linear
//! read-out to the task's tokens. The forward pass keeps what the backward pass needs (a
//! "tape"); each backward step is written out by hand next to its forward, in the manner of
//! llm.c, and checked against an independent automatic differentiation (HIPS autograd) and
//! against finite differences.
//!
//! Where each scheme enters:
//! - sinusoidal, learned: a vector added to the token embedding, once, before the first block;
//! - RoPE: queries and keys rotated pair by pair inside every attention layer;
//! - ALiBi: −m_h·|i − j| added to head h's scores in every layer (slopes as `get_slopes`);
//! - T5: one trained scalar per (bucket of j − i, head) added to the scores, shared by all
//!   layers as in T5;
//! - none: nowhere (a causal mask may still be on).
//!
//! Parameters live in one flat vector; [`Layout`] names every tensor in it, with its shape, in
//! the order the export writes them. Matrices are stored `[in, out]`, so a layer is `x @ W + b`.

use super::real::{linear, linear_backward, Real};
use crate::math::alibi;
use crate::math::rng::{fnv1a, SplitMix64};
use crate::math::rope::{Rope, RopePairing, RopeScaling};
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::math::t5::T5Buckets;

/// Where the position information comes from, with the scheme's own settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Position {
    None,
    Sinusoidal {
        variant: Variant,
        base: f64,
    },
    Learned,
    Rope {
        base: f64,
        pairing: RopePairing,
    },
    Alibi,
    T5 {
        num_buckets: usize,
        max_distance: usize,
    },
}

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
    rel: Option<Span>,
    blocks: Vec<BlockSpans>,
    lnf_g: Span,
    lnf_b: Span,
    w_head: Span,
    b_head: Span,
}

impl Layout {
    fn new(c: &ModelConfig) -> Layout {
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
        let rel = match c.position {
            Position::T5 { num_buckets, .. } => {
                Some(add("rel_bias".into(), vec![num_buckets, c.heads], false))
            }
            _ => None,
        };
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
            rel,
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
    /// Where each sequence's attention matrices start in `probs` of a block.
    att_starts: Vec<usize>,
    counted: usize,
}

impl<T: Real> Tape<T> {
    /// The attention weights of head `head` in block `layer` for sequence `seq` (T × T, row =
    /// query).
    pub fn attention(&self, layer: usize, seq: usize, head: usize, len: usize) -> Option<&[T]> {
        let start = *self.att_starts.get(seq)? + head * len * len;
        self.blocks.get(layer)?.probs.get(start..start + len * len)
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
    /// ALiBi slopes per head.
    slopes: Vec<T>,
    /// T5: the bucket of every relative position j − i, indexed by j − i + max_positions − 1.
    buckets: Vec<usize>,
}

/// The fixed tables of a model's scheme (empty where the scheme has none).
pub struct Buffers<'a, T> {
    pub pe: &'a [T],
    pub rope_cos: &'a [T],
    pub rope_sin: &'a [T],
    pub rope_pairs: &'a [(usize, usize)],
    pub slopes: &'a [T],
    pub buckets: &'a [usize],
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
        let (d, dh, heads) = (config.d_model, config.head_dim(), config.heads);
        let mut pe = Vec::new();
        let (mut rope_cos, mut rope_sin, mut rope_pairs) = (Vec::new(), Vec::new(), Vec::new());
        let mut slopes = Vec::new();
        let mut buckets = Vec::new();
        match config.position {
            Position::Sinusoidal { variant, base } => {
                let enc = Sinusoidal::new(variant, d, base);
                pe = (0..max_positions)
                    .flat_map(|p| (0..d).map(move |c| (p, c)))
                    .map(|(p, c)| T::from_f64(enc.value(p, c)))
                    .collect();
            }
            Position::Rope { base, pairing } => {
                let rope = Rope::new(dh, base, pairing, RopeScaling::None);
                let pairs = rope.pair_count();
                rope_pairs = (0..pairs).map(|i| rope.pair_dims(i)).collect();
                for p in 0..max_positions {
                    for i in 0..pairs {
                        let angle = rope.angle(p as f64, i);
                        rope_cos.push(T::from_f64(angle.cos()));
                        rope_sin.push(T::from_f64(angle.sin()));
                    }
                }
            }
            Position::Alibi => {
                slopes = alibi::slopes(heads).into_iter().map(T::from_f64).collect();
            }
            Position::T5 {
                num_buckets,
                max_distance,
            } => {
                let b = T5Buckets {
                    num_buckets,
                    max_distance,
                    bidirectional: !config.causal,
                };
                let m = max_positions as i64;
                buckets = (-(m - 1)..m).map(|r| b.bucket(r)).collect();
            }
            Position::None | Position::Learned => {}
        }
        Model {
            config,
            layout,
            max_positions,
            pe,
            rope_cos,
            rope_sin,
            rope_pairs,
            slopes,
            buckets,
        }
    }

    pub fn buffers(&self) -> Buffers<'_, T> {
        Buffers {
            pe: &self.pe,
            rope_cos: &self.rope_cos,
            rope_sin: &self.rope_sin,
            rope_pairs: &self.rope_pairs,
            slopes: &self.slopes,
            buckets: &self.buckets,
        }
    }

    /// Initial weights: every tensor drawn from its own stream, seeded by the seed and the
    /// tensor's name, so models that differ only in their position scheme start from the same
    /// shared weights. Matrices N(0, 0.02²) (the two that write into the residual stream scaled
    /// by 1/√(2·layers), as GPT-2); token embeddings N(0, 1); LayerNorm gains 1; biases 0.
    pub fn init(&self, seed: u64) -> Vec<T> {
        let mut p = vec![T::ZERO; self.layout.total];
        let residual = 0.02 / (2.0 * self.config.layers.max(1) as f64).sqrt();
        for t in &self.layout.tensors {
            let mut rng = SplitMix64::new(seed ^ fnv1a(&t.name));
            let std = if t.name == "tok_emb" {
                1.0
            } else if t.name.ends_with("out.weight") || t.name.ends_with("proj.weight") {
                residual
            } else if t.name.ends_with("ln1.weight")
                || t.name.ends_with("ln2.weight")
                || t.name == "ln_f.weight"
            {
                p[t.range()].fill(T::ONE);
                continue;
            } else if t.shape.len() == 1 {
                continue;
            } else {
                0.02
            };
            for v in &mut p[t.range()] {
                *v = T::from_f64(std * rng.next_normal());
            }
        }
        p
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
        let c = &self.config;
        let longest = batch.longest();
        if !self.covers(longest) {
            return Err(match c.position {
                Position::Learned => format!(
                    "no embedding exists for position {}: the learned table has {} rows",
                    c.max_len, c.max_len
                ),
                _ => format!("sequences longer than {} positions", self.max_positions),
            });
        }
        let (d, n, v, h4) = (c.d_model, batch.tokens.len(), c.vocab, c.hidden());
        let lay = &self.layout;
        tape.blocks.resize_with(c.layers, BlockTape::default);
        tape.att_starts.clear();
        let mut at = 0;
        for (_, len) in batch.spans() {
            tape.att_starts.push(at);
            at += c.heads * len * len;
        }
        let att_total = at;

        // Embeddings (plus the absolute position vectors).
        let mut x = vec![T::ZERO; n * d];
        let tok = lay.tok.of(p);
        for (start, len) in batch.spans() {
            for t in 0..len {
                let i = start + t;
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

        for (l, spans) in lay.blocks.iter().enumerate() {
            let bt = &mut tape.blocks[l];
            bt.x_in = x;
            resize(&mut bt.ln1, n * d);
            resize(&mut bt.ln1_mean, n);
            resize(&mut bt.ln1_rstd, n);
            layer_norm(
                &mut bt.ln1,
                &mut bt.ln1_mean,
                &mut bt.ln1_rstd,
                &bt.x_in,
                spans.ln1_g.of(p),
                spans.ln1_b.of(p),
                d,
            );
            resize(&mut bt.qkv, n * 3 * d);
            linear(
                &mut bt.qkv,
                &bt.ln1,
                spans.w_qkv.of(p),
                spans.b_qkv.of(p),
                n,
                d,
                3 * d,
            );
            if !self.rope_pairs.is_empty() {
                self.rotate(&mut bt.qkv, batch, false);
            }
            resize(&mut bt.probs, att_total);
            resize(&mut bt.att, n * d);
            self.attend(p, batch, &tape.att_starts, bt);
            let mut mid = bt.x_in.clone();
            let mut proj = vec![T::ZERO; n * d];
            linear(
                &mut proj,
                &bt.att,
                spans.w_o.of(p),
                spans.b_o.of(p),
                n,
                d,
                d,
            );
            for (m, o) in mid.iter_mut().zip(&proj) {
                *m += *o;
            }
            bt.x_mid = mid;
            resize(&mut bt.ln2, n * d);
            resize(&mut bt.ln2_mean, n);
            resize(&mut bt.ln2_rstd, n);
            layer_norm(
                &mut bt.ln2,
                &mut bt.ln2_mean,
                &mut bt.ln2_rstd,
                &bt.x_mid,
                spans.ln2_g.of(p),
                spans.ln2_b.of(p),
                d,
            );
            resize(&mut bt.fc, n * h4);
            linear(
                &mut bt.fc,
                &bt.ln2,
                spans.w_fc.of(p),
                spans.b_fc.of(p),
                n,
                d,
                h4,
            );
            resize(&mut bt.act, n * h4);
            resize(&mut bt.act_slope, n * h4);
            for ((a, slope), &u) in bt.act.iter_mut().zip(&mut bt.act_slope).zip(&bt.fc) {
                (*a, *slope) = gelu_parts(u);
            }
            let mut out = bt.x_mid.clone();
            linear(
                &mut proj,
                &bt.act,
                spans.w_proj.of(p),
                spans.b_proj.of(p),
                n,
                h4,
                d,
            );
            for (o, m) in out.iter_mut().zip(&proj) {
                *o += *m;
            }
            x = out;
        }

        tape.x_out = x;
        resize(&mut tape.lnf, n * d);
        resize(&mut tape.lnf_mean, n);
        resize(&mut tape.lnf_rstd, n);
        layer_norm(
            &mut tape.lnf,
            &mut tape.lnf_mean,
            &mut tape.lnf_rstd,
            &tape.x_out,
            lay.lnf_g.of(p),
            lay.lnf_b.of(p),
            d,
        );
        resize(&mut tape.probs, n * v);
        linear(
            &mut tape.probs,
            &tape.lnf,
            lay.w_head.of(p),
            lay.b_head.of(p),
            n,
            d,
            v,
        );
        // Softmax in place, and the loss on the positions that have a target.
        let mut loss = 0.0f64;
        let (mut correct, mut counted) = (0, 0);
        for i in 0..n {
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
                loss -= row[t].to_f64().max(f64::MIN_POSITIVE).ln();
                counted += 1;
                if best == t {
                    correct += 1;
                }
            }
        }
        tape.counted = counted;
        Ok(Stats {
            loss: if counted > 0 {
                loss / counted as f64
            } else {
                0.0
            },
            correct,
            counted,
        })
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

    /// Rotates each head's query and key pairs by position (`inverse`: back, for gradients).
    fn rotate(&self, qkv: &mut [T], batch: &Batch, inverse: bool) {
        let c = &self.config;
        let (d, dh) = (c.d_model, c.head_dim());
        let pairs = self.rope_pairs.len();
        for (start, len) in batch.spans() {
            for t in 0..len {
                let row = &mut qkv[(start + t) * 3 * d..(start + t + 1) * 3 * d];
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
    }

    /// The position term added to head h's score of query i and key j (0 without one).
    fn score_bias(&self, p: &[T], h: usize, i: usize, j: usize) -> T {
        match self.config.position {
            Position::Alibi => -self.slopes[h] * T::from_f64(i.abs_diff(j) as f64),
            Position::T5 { .. } => {
                let rel = self.layout.rel.map(|s| s.of(p)).unwrap_or(&[]);
                let b = self.buckets[j + self.max_positions - 1 - i];
                rel.get(b * self.config.heads + h)
                    .copied()
                    .unwrap_or(T::ZERO)
            }
            _ => T::ZERO,
        }
    }

    fn attend(&self, p: &[T], batch: &Batch, att_starts: &[usize], bt: &mut BlockTape<T>) {
        let c = &self.config;
        let (d, dh) = (c.d_model, c.head_dim());
        let scale = T::from_f64(1.0 / (dh as f64).sqrt());
        let qkv = &bt.qkv;
        for (s, (start, len)) in batch.spans().enumerate() {
            for h in 0..c.heads {
                let probs = &mut bt.probs[att_starts[s] + h * len * len..][..len * len];
                for i in 0..len {
                    let q = &qkv[(start + i) * 3 * d + h * dh..][..dh];
                    let row = &mut probs[i * len..(i + 1) * len];
                    let visible = if c.causal { i + 1 } else { len };
                    let mut max = T::NEG_INFINITY;
                    for (j, slot) in row.iter_mut().enumerate().take(visible) {
                        let k = &qkv[(start + j) * 3 * d + d + h * dh..][..dh];
                        let sc = T::dot(q, k) * scale + self.score_bias(p, h, i, j);
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
        }
    }

    /// The backward pass of the last forward: adds the gradient of the mean loss to `g`.
    pub fn backward(&self, p: &[T], batch: &Batch, tape: &Tape<T>, g: &mut [T]) {
        let c = &self.config;
        let lay = &self.layout;
        let (d, n, v, h4) = (c.d_model, batch.tokens.len(), c.vocab, c.hidden());
        if tape.counted == 0 {
            return;
        }
        let inv = T::from_f64(1.0 / tape.counted as f64);
        let mut dlogits = vec![T::ZERO; n * v];
        for i in 0..n {
            if let Some(target) = batch.targets[i] {
                let row = &mut dlogits[i * v..(i + 1) * v];
                row.copy_from_slice(&tape.probs[i * v..(i + 1) * v]);
                row[(target as usize).min(v - 1)] -= T::ONE;
                for r in row.iter_mut() {
                    *r *= inv;
                }
            }
        }
        let mut dz = vec![T::ZERO; n * d];
        {
            let (gw, gb) = split2(g, lay.w_head, lay.b_head);
            linear_backward(
                Some(&mut dz),
                gw,
                gb,
                &dlogits,
                &tape.lnf,
                lay.w_head.of(p),
                n,
                d,
                v,
            );
        }
        let mut dx = vec![T::ZERO; n * d];
        {
            let (gg, gb) = split2(g, lay.lnf_g, lay.lnf_b);
            layer_norm_backward(
                &mut dx,
                gg,
                gb,
                &dz,
                &tape.x_out,
                &tape.lnf_mean,
                &tape.lnf_rstd,
                lay.lnf_g.of(p),
                d,
            );
        }

        for (l, spans) in lay.blocks.iter().enumerate().rev() {
            let bt = &tape.blocks[l];
            // MLP: out = mid + gelu(ln2(mid)·W_fc + b_fc)·W_proj + b_proj.
            let mut dact = vec![T::ZERO; n * h4];
            {
                let (gw, gb) = split2(g, spans.w_proj, spans.b_proj);
                linear_backward(
                    Some(&mut dact),
                    gw,
                    gb,
                    &dx,
                    &bt.act,
                    spans.w_proj.of(p),
                    n,
                    h4,
                    d,
                );
            }
            for (da, &slope) in dact.iter_mut().zip(&bt.act_slope) {
                *da *= slope;
            }
            let mut dln2 = vec![T::ZERO; n * d];
            {
                let (gw, gb) = split2(g, spans.w_fc, spans.b_fc);
                linear_backward(
                    Some(&mut dln2),
                    gw,
                    gb,
                    &dact,
                    &bt.ln2,
                    spans.w_fc.of(p),
                    n,
                    d,
                    h4,
                );
            }
            // dx now holds d(out); the residual passes it straight to d(mid).
            {
                let (gg, gb) = split2(g, spans.ln2_g, spans.ln2_b);
                layer_norm_backward(
                    &mut dx,
                    gg,
                    gb,
                    &dln2,
                    &bt.x_mid,
                    &bt.ln2_mean,
                    &bt.ln2_rstd,
                    spans.ln2_g.of(p),
                    d,
                );
            }
            // Attention: mid = x_in + att·W_o + b_o.
            let mut datt = vec![T::ZERO; n * d];
            {
                let (gw, gb) = split2(g, spans.w_o, spans.b_o);
                linear_backward(
                    Some(&mut datt),
                    gw,
                    gb,
                    &dx,
                    &bt.att,
                    spans.w_o.of(p),
                    n,
                    d,
                    d,
                );
            }
            let mut dqkv = vec![T::ZERO; n * 3 * d];
            self.attend_backward(batch, &tape.att_starts, bt, &datt, &mut dqkv, g);
            if !self.rope_pairs.is_empty() {
                self.rotate(&mut dqkv, batch, true);
            }
            let mut dln1 = vec![T::ZERO; n * d];
            {
                let (gw, gb) = split2(g, spans.w_qkv, spans.b_qkv);
                linear_backward(
                    Some(&mut dln1),
                    gw,
                    gb,
                    &dqkv,
                    &bt.ln1,
                    spans.w_qkv.of(p),
                    n,
                    d,
                    3 * d,
                );
            }
            {
                let (gg, gb) = split2(g, spans.ln1_g, spans.ln1_b);
                layer_norm_backward(
                    &mut dx,
                    gg,
                    gb,
                    &dln1,
                    &bt.x_in,
                    &bt.ln1_mean,
                    &bt.ln1_rstd,
                    spans.ln1_g.of(p),
                    d,
                );
            }
        }

        // Embeddings.
        for (start, len) in batch.spans() {
            for t in 0..len {
                let i = start + t;
                let row = &dx[i * d..(i + 1) * d];
                let id = (batch.tokens[i] as usize).min(v - 1);
                T::axpy(&mut lay.tok.of_mut(g)[id * d..(id + 1) * d], T::ONE, row);
                if let Some(pos) = lay.pos {
                    T::axpy(&mut pos.of_mut(g)[t * d..(t + 1) * d], T::ONE, row);
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn attend_backward(
        &self,
        batch: &Batch,
        att_starts: &[usize],
        bt: &BlockTape<T>,
        datt: &[T],
        dqkv: &mut [T],
        g: &mut [T],
    ) {
        let c = &self.config;
        let (d, dh) = (c.d_model, c.head_dim());
        let scale = T::from_f64(1.0 / (dh as f64).sqrt());
        let qkv = &bt.qkv;
        let mut dp = Vec::new();
        let mut dq = Vec::new();
        for (s, (start, len)) in batch.spans().enumerate() {
            for h in 0..c.heads {
                let probs = &bt.probs[att_starts[s] + h * len * len..][..len * len];
                for i in 0..len {
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
                    for (j, &w) in row.iter().enumerate() {
                        let ds = w * (dp[j] - weighted);
                        if let (Position::T5 { .. }, Some(rel)) = (&c.position, self.layout.rel) {
                            let b = self.buckets[j + self.max_positions - 1 - i];
                            rel.of_mut(g)[b * c.heads + h] += ds;
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
    }
}

/// Two disjoint tensors of the gradient vector, mutably (the first must come first).
fn split2<T>(g: &mut [T], a: Span, b: Span) -> (&mut [T], &mut [T]) {
    debug_assert!(a.at + a.len <= b.at);
    let (left, right) = g.split_at_mut(b.at);
    (&mut left[a.at..a.at + a.len], &mut right[..b.len])
}
