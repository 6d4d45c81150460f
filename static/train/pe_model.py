"""Load a model trained in the Positional Encoding Explorer and reproduce its held-out accuracy.

    python3 pe_model.py model.safetensors            # NumPy
    python3 pe_model.py model.safetensors --torch    # PyTorch, if installed

The file is a .safetensors file exported by the app's Train view. It holds:
  * the weights, stored [in, out] so that every layer is  y = x @ W + b:
      tok_emb [vocab, d]            token embedding
      pos_emb [max_len, d]          learned positions (scheme "learned" only)
      rel_bias [buckets, heads]     T5's bias per bucket and head (scheme "t5" only)
      kerple.r1, kerple.r2 [heads]  KERPLE-log: bias -r1*ln(1 + r2*|i - j|), r1 and r2 used as
                                    max(r, eps) (scheme "kerple" only; eps in the config)
      fire.c, fire.L_multiplier []  FIRE (scheme "fire" only): bias mlp(psi(i - j) / (psi(max(i, L))
      fire.mlp.0.weight [1, 32], fire.mlp.0.bias [32]     + eps)), psi(x) = ln(|c*x| + 1),
      fire.mlp.2.weight [32, heads], fire.mlp.2.bias [heads]   L = |L_multiplier * init_L|,
                                    mlp = Linear(1, 32), ReLU, Linear(32, heads)
      blocks.<l>.ln1.weight/.bias   LayerNorm before attention (pre-LN)
      blocks.<l>.attn.qkv.weight/.bias   [d, 3d]: queries, keys, values, heads side by side
      blocks.<l>.attn.out.weight/.bias   [d, d]
      blocks.<l>.ln2.weight/.bias   LayerNorm before the MLP
      blocks.<l>.mlp.fc.weight/.bias     [d, 4d], then GELU (tanh approximation)
      blocks.<l>.mlp.proj.weight/.bias   [4d, d]
      ln_f.weight/.bias, head.weight [d, vocab], head.bias
  * the scheme's fixed tables, as the app computed them:
      buffer.sinusoidal [positions, d]        added to the token embeddings
      buffer.rope_cos, buffer.rope_sin [positions, head_dim/2], buffer.rope_pairs [head_dim/2, 2]
      buffer.alibi_slopes [heads]             bias −slope·|i − j| on head h's scores
      buffer.t5_buckets [2·positions − 1]     bucket of key − query, at index (j − i) + positions − 1
  * held-out sets: heldout.<length>.tokens and .targets [count, length] (target −1: not asked)
  * metadata: "config" (architecture and vocabulary, JSON) and "heldout_accuracy" (what the page
    showed).

A RoPE model run with a context-extension method has "rope_scaling" in its config, in Hugging
Face's form (rope_type linear, dynamic, yarn, llama3, longrope; "ntk" for static NTK, which
transformers has no type for). The script then computes the cos and sin tables itself for each
held-out length, as transformers' modeling_rope_utils does (in float64, then in the weights'
type): dynamic NTK and LongRoPE depend on the length of the sequences run. Where the exported
buffers were computed for the same length ("rope_tables_length" for those two, every length for
the others), its tables must equal them. DroPE's models have position "none".

The model: x = tok_emb[tokens] (+ position vectors); per block  x += attn(ln1(x));
x += mlp(ln2(x)); logits = ln_f(x) @ head.weight + head.bias. Attention scores are
q·k/sqrt(head_dim) (+ the ALiBi, T5, KERPLE or FIRE bias), queries and keys rotated first under RoPE, keys after the
query masked when the config says causal. ALiBi's slopes, T5's buckets, KERPLE's r1 and r2 and
FIRE's MLP are shared by all layers. LayerNorm eps 1e-5.

Needs only NumPy (the app's tests run it that way); with --torch the same code runs on PyTorch
tensors.
"""

import json
import math
import struct
import sys

import numpy as np

DTYPES = {"F32": np.float32, "I32": np.int32, "F64": np.float64, "I64": np.int64}


def load(path):
    """Reads a .safetensors file: ({name: numpy array}, {metadata key: value})."""
    with open(path, "rb") as f:
        raw = f.read()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n].decode("utf-8"))
    meta = header.pop("__metadata__", {})
    base = 8 + n
    tensors = {}
    for name, info in header.items():
        start, end = info["data_offsets"]
        dtype = np.dtype(DTYPES[info["dtype"]]).newbyteorder("<")
        tensors[name] = np.frombuffer(raw[base + start : base + end], dtype=dtype).reshape(
            info["shape"]
        )
    return tensors, meta


class Ops:
    """The few array operations the model needs, for NumPy-like modules or PyTorch."""

    def __init__(self, xp):
        self.xp = xp
        self.torch = getattr(xp, "__name__", "") == "torch"

    def const(self, a, dtype=None):
        if self.torch:
            t = self.xp.as_tensor(np.asarray(a))
            return t.to(dtype) if dtype is not None else t
        return np.asarray(a)

    def index(self, a):
        return self.xp.as_tensor(np.asarray(a, dtype=np.int64)) if self.torch else np.asarray(a)

    def max(self, x, axis):
        return self.xp.amax(x, dim=axis, keepdim=True) if self.torch else self.xp.max(x, axis=axis, keepdims=True)

    def sum(self, x, axis):
        return x.sum(dim=axis, keepdim=True) if self.torch else self.xp.sum(x, axis=axis, keepdims=True)

    def mean(self, x, axis):
        return x.mean(dim=axis, keepdim=True) if self.torch else self.xp.mean(x, axis=axis, keepdims=True)

    def cat(self, xs, axis):
        return self.xp.cat(xs, dim=axis) if self.torch else self.xp.concatenate(xs, axis=axis)

    def swap(self, x, a, b):
        return x.transpose(a, b) if self.torch else self.xp.swapaxes(x, a, b)

    def where(self, mask, x, fill):
        if self.torch:
            return self.xp.where(self.const(mask), x, self.xp.full_like(x, fill))
        return self.xp.where(mask, x, fill)

    def clamp_min(self, x, lo):
        """max(x, lo), its gradient passed where x >= lo (as torch's clamp)."""
        return self.xp.clamp(x, min=lo) if self.torch else self.xp.where(x >= lo, x, lo)

    def maximum(self, a, b):
        return self.xp.maximum(a, b)

    def relu(self, x):
        return self.xp.relu(x) if self.torch else self.xp.where(x > 0, x, 0.0)

    def abs(self, x):
        return self.xp.abs(x)

    def log(self, x):
        return self.xp.log(x)


def layer_norm(o, x, g, b, eps=1e-5):
    mu = o.mean(x, -1)
    var = o.mean((x - mu) ** 2, -1)
    return (x - mu) / o.xp.sqrt(var + eps) * g + b


def gelu(o, u):
    return 0.5 * u * (1.0 + o.xp.tanh(math.sqrt(2.0 / math.pi) * (u + 0.044715 * u**3)))


def softmax(o, s):
    e = o.xp.exp(s - o.max(s, -1))
    return e / o.sum(e, -1)


def rotate(o, x, cos, sin, pairs):
    """RoPE on [..., T, head_dim]: each pair (a, b) turned by the position's angle."""
    a, b = pairs[:, 0], pairs[:, 1]
    xa, xb = x[..., o.index(a)], x[..., o.index(b)]
    ra = xa * cos - xb * sin
    rb = xa * sin + xb * cos
    order = np.argsort(np.concatenate([a, b]))
    return o.cat([ra, rb], -1)[..., o.index(order)]


def rope_pairs(cfg):
    """The dimensions each pair turns together, [head_dim/2, 2]."""
    h = cfg["d_model"] // cfg["heads"] // 2
    if cfg["pairing"] == "adjacent":
        return np.array([(2 * i, 2 * i + 1) for i in range(h)])
    return np.array([(i, i + h) for i in range(h)])


def yarn_mscale(scale, mscale):
    return 1.0 if scale <= 1 else 0.1 * mscale * math.log(scale) + 1.0


def rope_frequencies(cfg, length):
    """θ of each pair, the position divisor and the attention factor of the config's
    rope_scaling, for sequences of `length` tokens."""
    h = cfg["d_model"] // cfg["heads"] // 2
    dim = float(2 * h)
    base = float(cfg["base"])
    rs = cfg.get("rope_scaling") or {}
    kind = rs.get("rope_type", rs.get("type", "default"))
    factor = float(rs.get("factor", 1.0))
    original = rs.get("original_max_position_embeddings") or cfg["max_positions"]
    plain = [base ** (-(2.0 * i) / dim) for i in range(h)]
    divisor, attention = 1.0, 1.0
    if kind == "linear":
        theta, divisor = plain, factor
    elif kind in ("ntk", "dynamic"):
        grown = base
        if kind == "ntk" and dim > 2:
            grown = base * factor ** (dim / (dim - 2.0))
        elif kind == "dynamic" and dim > 2 and length > original > 0:
            # transformers divides by max_position_embeddings here, the app by the original length.
            grow = factor * length / original - (factor - 1.0)
            grown = base * max(grow, 1.0) ** (dim / (dim - 2.0))
        theta = [grown ** (-(2.0 * i) / dim) for i in range(h)]
    elif kind == "llama3":
        low, high = float(rs["low_freq_factor"]), float(rs["high_freq_factor"])
        theta = []
        for p in plain:
            wavelen = math.tau / p
            if wavelen < original / high:
                theta.append(p)
            elif wavelen > original / low:
                theta.append(p / factor)
            else:
                smooth = (original / wavelen - low) / (high - low)
                theta.append((1.0 - smooth) * p / factor + smooth * p)
    elif kind == "yarn":
        def correction(rotations):
            return dim * math.log(max(original, 1) / (rotations * math.tau)) / (2.0 * math.log(base))

        lo, hi = correction(float(rs.get("beta_fast") or 32)), correction(float(rs.get("beta_slow") or 1))
        if rs.get("truncate", True):
            lo, hi = math.floor(lo), math.ceil(hi)
        lo, hi = max(lo, 0.0), min(hi, dim - 1.0)
        if lo == hi:
            hi += 0.001
        theta = []
        for i, p in enumerate(plain):
            keep = 1.0 - min(max((i - lo) / (hi - lo), 0.0), 1.0)
            theta.append(p / factor * (1.0 - keep) + p * keep)
        mscale, all_dim = float(rs.get("mscale") or 0), float(rs.get("mscale_all_dim") or 0)
        if "attention_factor" in rs:
            attention = float(rs["attention_factor"])
        elif mscale and all_dim:
            attention = yarn_mscale(factor, mscale) / yarn_mscale(factor, all_dim)
        else:
            attention = yarn_mscale(factor, 1.0)
    elif kind == "longrope":
        factors = rs["long_factor"] if length > original else rs["short_factor"]
        theta = []
        for i, p in enumerate(plain):
            f = float(factors[i]) if i < len(factors) else 1.0
            theta.append(p / (f if math.isfinite(f) and f > 0 else 1.0))
        if "attention_factor" in rs:
            attention = float(rs["attention_factor"])
        elif factor > 1 and original >= 2:
            attention = math.sqrt(1.0 + math.log(factor) / math.log(original))
    elif kind == "default":
        theta = plain
    else:
        raise ValueError(f"unknown rope_type {kind!r}")
    return theta, divisor, attention


def rope_tables(cfg, length, rows, dtype):
    """f·cos(angle) and f·sin(angle) [rows, head_dim/2] at positions 0 .. rows − 1 for sequences
    of `length` tokens (f the attention factor), computed in float64 with the C library's cos and
    sin (as the app does), then in `dtype`."""
    theta, divisor, f = rope_frequencies(cfg, length)
    angles = [[m / divisor * t for t in theta] for m in range(rows)]
    cos = np.array([[f * math.cos(a) for a in row] for row in angles], dtype=np.float64)
    sin = np.array([[f * math.sin(a) for a in row] for row in angles], dtype=np.float64)
    return cos.astype(dtype), sin.astype(dtype)


def check_rope_tables(tensors, cfg, lengths):
    """Compares this script's tables with the exported ones at every held-out length they were
    computed for; exits when they differ by more than float32 rounding."""
    if cfg["position"] != "rope" or "rope_scaling" not in cfg:
        return
    cos_b, sin_b = tensors["buffer.rope_cos"], tensors["buffer.rope_sin"]
    if not np.array_equal(np.asarray(tensors["buffer.rope_pairs"]), rope_pairs(cfg)):
        sys.exit("rope_pairs: the exported pairs are not the config's pairing")
    kind = cfg["rope_scaling"].get("rope_type", cfg["rope_scaling"].get("type"))
    if kind in ("dynamic", "longrope"):
        lengths = [n for n in lengths if n == cfg.get("rope_tables_length")]
    if not lengths:
        sys.exit(f"rope tables: no held-out length matches the exported tables' ({cfg.get('rope_tables_length')})")
    rows = cos_b.shape[0]
    for n in lengths:
        ulps = 0
        for mine, theirs in zip(rope_tables(cfg, n, rows, cos_b.dtype), (cos_b, sin_b)):
            gap = np.abs(mine.astype(np.float64) - theirs) / np.spacing(np.abs(theirs).astype(theirs.dtype))
            ulps = max(ulps, float(np.max(gap)))
        # Both round the same float64 value; the C library's cos and sin may differ by one ulp.
        if ulps > 1:
            sys.exit(f"rope tables ({kind}) at length {n}: {ulps:.3g} ulp from buffer.rope_cos/sin: not this config's")
        print(f"rope tables ({kind}) at length {n}: equal to buffer.rope_cos/sin to float32 precision (largest gap {ulps:.0f} ulp)")


def kerple_bias(o, W, cfg, t, dtype=None):
    """KERPLE-log's bias [heads, T, T]: -r1 * ln(1 + r2 * |i - j|), each head's r1 and r2 used as
    max(r, eps), as the reference clamps them (Chi et al. 2022, ParallelKerpleLog)."""
    eps = cfg["eps"]
    r1 = o.clamp_min(W["kerple.r1"], eps)[:, None, None]
    r2 = o.clamp_min(W["kerple.r2"], eps)[:, None, None]
    pos = np.arange(t, dtype=np.float64)
    distance = o.const(np.abs(pos[:, None] - pos[None, :])[None], dtype)
    return -r1 * o.log(1.0 + r2 * distance)


def fire_bias(o, W, cfg, t, dtype=None):
    """FIRE's bias [heads, T, T] (Li et al. 2024, the reference code of its appendix): the MLP of
    psi(i - j) / (psi(max(i, L)) + eps), psi(x) = ln(|c*x| + 1), L = |L_multiplier * init_L|."""
    c, m = W["fire.c"], W["fire.L_multiplier"]
    pos = np.arange(t, dtype=np.float64)
    rel = o.const(pos[:, None] - pos[None, :], dtype)  # i - j: query minus key
    threshold = o.abs(m * cfg["init_L"])
    top = o.maximum(o.const(pos, dtype), threshold)  # max(i, L), one per query

    def psi(x):
        return o.log(o.abs(c * x) + 1.0)

    x = psi(rel) / (psi(top)[:, None] + cfg["eps"])  # [T, T]
    hidden = o.relu(x[:, :, None] @ W["fire.mlp.0.weight"] + W["fire.mlp.0.bias"])  # [T, T, 32]
    out = hidden @ W["fire.mlp.2.weight"] + W["fire.mlp.2.bias"]  # [T, T, heads]
    return o.swap(o.swap(out, 0, 2), 1, 2)  # [heads, T, T]


def forward(W, cfg, tokens, xp=np, lengths=None):
    """Logits [N, T, vocab] for equal-length token rows [N, T]. `W` maps names to arrays of the
    backend `xp` (weights and buffers alike). With `lengths`, keys past each row's length are
    masked (padding)."""
    o = Ops(xp)
    n, t = tokens.shape
    d, heads, pos = cfg["d_model"], cfg["heads"], cfg["position"]
    dh = d // heads
    if pos == "learned" and t > cfg["max_len"]:
        raise ValueError(f"no embedding exists for position {cfg['max_len']}: the learned table has {cfg['max_len']} rows")
    x = W["tok_emb"][o.index(tokens)]
    if pos == "sinusoidal":
        x = x + W["buffer.sinusoidal"][:t]
    elif pos == "learned":
        x = x + W["pos_emb"][:t]
    i = np.arange(t)[:, None]
    j = np.arange(t)[None, :]
    bias = None
    if pos == "alibi":
        slopes = np.asarray(W["buffer.alibi_slopes"], dtype=np.float32) if not o.torch else W["buffer.alibi_slopes"].numpy()
        bias = o.const((-slopes[:, None, None] * np.abs(i - j)[None]).astype(np.float32))
    elif pos == "t5":
        buckets = np.asarray(W["buffer.t5_buckets"] if not o.torch else W["buffer.t5_buckets"].numpy())
        idx = buckets[(j - i) + cfg["max_positions"] - 1]  # [T, T]
        bias = o.swap(o.swap(W["rel_bias"][o.index(idx)], 0, 2), 1, 2)  # [heads, T, T]
    elif pos in ("kerple", "fire"):
        # Computed in float64 (torch: in the weights' type), then in the weights' type as the app
        # adds it.
        dtype = W["tok_emb"].dtype if o.torch else None
        bias = (kerple_bias if pos == "kerple" else fire_bias)(o, W, cfg, t, dtype)
        if xp is np:
            bias = bias.astype(np.asarray(W["tok_emb"]).dtype)
    mask = np.ones((t, t), dtype=bool)
    if cfg["causal"]:
        mask = j <= i
    mask = np.broadcast_to(mask, (n, 1, t, t))
    if lengths is not None:
        mask = mask & (np.arange(t)[None, None, None, :] < np.asarray(lengths)[:, None, None, None])
    if pos == "rope" and "rope_scaling" in cfg:
        dtype = (W["tok_emb"].numpy() if o.torch else np.asarray(W["tok_emb"])).dtype
        cos, sin = (o.const(x) for x in rope_tables(cfg, t, t, dtype))
        pairs = rope_pairs(cfg)
    elif pos == "rope":
        cos, sin = W["buffer.rope_cos"][:t], W["buffer.rope_sin"][:t]
        pairs = np.asarray(W["buffer.rope_pairs"] if not o.torch else W["buffer.rope_pairs"].numpy())
    for l in range(cfg["layers"]):
        p = lambda name: W[f"blocks.{l}.{name}"]
        a = layer_norm(o, x, p("ln1.weight"), p("ln1.bias"))
        qkv = a @ p("attn.qkv.weight") + p("attn.qkv.bias")

        def heads_of(part):
            y = qkv[..., part * d : (part + 1) * d].reshape(n, t, heads, dh)
            return o.swap(y, 1, 2)  # [N, heads, T, dh]

        q, k, v = heads_of(0), heads_of(1), heads_of(2)
        if pos == "rope":
            q, k = rotate(o, q, cos, sin, pairs), rotate(o, k, cos, sin, pairs)
        s = q @ o.swap(k, -1, -2) / math.sqrt(dh)
        if bias is not None:
            s = s + bias
        s = o.where(mask, s, -np.inf)
        att = softmax(o, s) @ v  # [N, heads, T, dh]
        att = o.swap(att, 1, 2).reshape(n, t, d)
        x = x + att @ p("attn.out.weight") + p("attn.out.bias")
        a2 = layer_norm(o, x, p("ln2.weight"), p("ln2.bias"))
        x = x + gelu(o, a2 @ p("mlp.fc.weight") + p("mlp.fc.bias")) @ p("mlp.proj.weight") + p("mlp.proj.bias")
    z = layer_norm(o, x, W["ln_f.weight"], W["ln_f.bias"])
    return z @ W["head.weight"] + W["head.bias"]


def accuracy(W, cfg, tokens, targets, xp=np, chunk=100):
    """Correct predictions and how many positions had a target."""
    correct = counted = 0
    for s in range(0, len(tokens), chunk):
        logits = forward(W, cfg, tokens[s : s + chunk], xp)
        logits = logits.detach().numpy() if hasattr(logits, "detach") else np.asarray(logits)
        tg = targets[s : s + chunk]
        asked = tg >= 0
        correct += int(((logits.argmax(-1) == tg) & asked).sum())
        counted += int(asked.sum())
    return correct, counted


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 2
    tensors, meta = load(argv[1])
    cfg = json.loads(meta["config"])
    shown = json.loads(meta.get("heldout_accuracy", "{}"))
    xp = np
    if "--torch" in argv:
        import torch

        xp = torch
        W = {k: torch.from_numpy(np.array(v)) for k, v in tensors.items()}
    else:
        W = tensors
    print(f"{cfg['task']} · {cfg['scheme']} · {cfg['layers']} layers × {cfg['heads']} heads, d_model {cfg['d_model']}")
    names = sorted((k for k in tensors if k.startswith("heldout.") and k.endswith(".tokens")), key=lambda k: int(k.split(".")[1]))
    check_rope_tables(tensors, cfg, [int(k.split(".")[1]) for k in names])
    worst = 0
    for name in names:
        length = name.split(".")[1]
        tokens, targets = tensors[name], tensors[f"heldout.{length}.targets"]
        correct, counted = accuracy(W, cfg, tokens, targets, xp)
        page = shown.get(length, {})
        diff = abs(correct - page.get("correct", correct))
        worst = max(worst, diff)
        print(
            f"length {length:>4}: {correct}/{counted} = {correct / counted:.4f}"
            f"   (the page: {page.get('correct', '?')}/{page.get('counted', '?')})"
        )
    print(f"largest difference from the page: {worst} predictions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
