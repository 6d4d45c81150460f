"""The trainer's hand-written backward pass against an independent automatic differentiation.

    python3 tests/python/grad_check.py DUMP.safetensors ...
    PE_GRAD_VERBOSE=fire,kerple python3 tests/python/grad_check.py ...   # and each tensor of these

Each dump (written by tests/train.rs) holds a model's weights and fixed tables, a batch of
sequences of different lengths, and the loss and every gradient the Rust code computed. This
script rebuilds the same model from static/train/pe_model.py (the script users download), lets
HIPS autograd differentiate the mean cross-entropy (in float64), and compares. A float64 dump:
the loss and every gradient entry must agree to 1e-4 relative (entries far below the tensor's
largest are compared against a thousandth of that scale instead). A float32 dump (the type the
browser trains in, whose rounding alone moves tiny entries by more than that): the loss to 1e-4
relative and each tensor's gradient to 1e-4 in relative norm, ‖Rust − autograd‖ / ‖autograd‖.

A tensor whose gradient vanishes in exact arithmetic holds rounding noise on both sides, which no
relative error can compare: FIRE's last bias, fire.mlp.2.bias, adds the same number to every
score of a row, which no softmax can see. Where autograd's gradient of a tensor is below 1e-12 of
the largest entry of the whole gradient, Rust's must be below VANISHING of it (1e-12 in float64,
1e-7 in float32) instead.
Exits non-zero on any mismatch.
"""

import json
import os
import sys

import autograd
import autograd.numpy as anp
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "static", "train"))
import pe_model  # noqa: E402

TOLERANCE = 1e-4
VANISHING = {False: 1e-12, True: 1e-7}


def check(path):
    tensors, meta = pe_model.load(path)
    cfg = json.loads(meta["config"])
    names = json.loads(meta["trained"])
    fixed = {k: np.array(v) for k, v in tensors.items() if k.startswith("buffer.")}
    weights = [np.array(tensors[n], dtype=np.float64) for n in names]
    seqs = sorted({k.split(".")[1] for k in tensors if k.startswith("batch.")}, key=int)
    batch = [(tensors[f"batch.{s}.tokens"], tensors[f"batch.{s}.targets"]) for s in seqs]
    counted = sum(int((t >= 0).sum()) for _, t in batch)

    def loss(ws):
        W = dict(fixed)
        W.update(zip(names, ws))
        total = 0.0
        for tokens, targets in batch:
            logits = pe_model.forward(W, cfg, tokens[None, :], anp)[0]
            z = logits - anp.max(logits, axis=-1, keepdims=True)
            logp = z - anp.log(anp.sum(anp.exp(z), axis=-1, keepdims=True))
            asked = np.nonzero(targets >= 0)[0]
            total = total - anp.sum(logp[asked, targets[asked]])
        return total / counted

    value = loss(weights)
    grads = autograd.grad(loss)(weights)
    ok = True
    rust_loss = float(meta["loss"])
    if abs(value - rust_loss) > TOLERANCE * abs(value):
        print(f"  loss: autograd {value!r} vs Rust {rust_loss!r}")
        ok = False
    worst = 0.0
    single = tensors[f"grad.{names[0]}"].dtype == np.float32
    whole_max = max(float(np.abs(g).max()) if g.size else 0.0 for g in grads)
    vanishing = []
    for name, g in zip(names, grads):
        mine = np.array(tensors[f"grad.{name}"], dtype=np.float64)
        if g.size and np.abs(g).max() <= 1e-12 * whole_max:
            noise = float(np.abs(mine).max()) / whole_max
            vanishing.append(f"{name} {noise:.0e}")
            if noise > VANISHING[single]:
                print(f"  {name}: autograd's gradient vanishes, Rust's is {noise:.1e} of the largest")
                ok = False
            continue
        if single:
            err = np.linalg.norm(g - mine) / max(np.linalg.norm(g), 1e-30)
            worst = max(worst, float(err))
            if err > TOLERANCE:
                print(f"  {name}: relative norm error {err:.2e}")
                ok = False
            continue
        scale = max(np.abs(g).max(), 1e-12)
        err = np.abs(g - mine) / np.maximum(np.maximum(np.abs(g), np.abs(mine)), 1e-3 * scale)
        worst = max(worst, float(err.max()))
        if err.max() > TOLERANCE:
            i = tuple(int(x) for x in np.unravel_index(int(err.argmax()), err.shape))
            print(f"  {name}{list(i)}: autograd {g[i]!r} vs Rust {mine[i]!r}")
            ok = False
    verbose = os.environ.get("PE_GRAD_VERBOSE", "").split(",")
    if cfg["scheme"] in verbose:
        for name, g in zip(names, grads):
            mine = np.array(tensors[f"grad.{name}"], dtype=np.float64)
            raw = np.abs(g - mine).max() / max(np.abs(g).max(), 1e-300)
            print(f"    {name:24} |grad|max {np.abs(g).max():.3e}  max|Rust - autograd| / |grad|max {raw:.1e}")
    kind = "f32, per tensor" if single else "f64, per entry"
    label = f"{cfg['task']:>6} {cfg['scheme']:>10} causal={cfg['causal']!s:5} ({kind})"
    zero = f"; vanishing: {', '.join(vanishing)}" if vanishing else ""
    print(f"{'ok  ' if ok else 'FAIL'} {label} loss {value:.6f}, {len(names)} tensors, worst relative error {worst:.1e}{zero}")
    return ok


def main(paths):
    results = [check(p) for p in paths]
    if not all(results):
        print(f"{results.count(False)} of {len(results)} models disagree with autograd")
        return 1
    print(f"all {len(results)} models agree with autograd to {TOLERANCE:g}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
