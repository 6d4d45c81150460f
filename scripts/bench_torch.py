"""Training steps of the Train view's default model in PyTorch on the CPU, for the benchmark.

    python3 scripts/bench_torch.py [steps]     # prints JSON: milliseconds per step

The same model as the app's (static/train/pe_model.py's forward, run on torch tensors): who did
what to whom, vocabulary 25, d_model 32, 2 heads, 2 layers, sinusoidal positions added, no mask;
batches of 16 sequences whose lengths are drawn from 4 to 12 as the app draws them (padded to the
batch's longest, padding keys masked and padding positions not asked), or all of 12 tokens; the
mean cross-entropy of the answers; AdamW (0.9, 0.999, eps 1e-8, weight decay 0.01 on matrices),
gradient clipped to norm 1, warm-up then cosine learning rate. Timed per step (forward, backward,
optimiser; the batch is built before the clock starts), median of `steps` after 10 warm-up steps,
with one thread and with every thread PyTorch uses by default. A benchmark-only dependency.
"""

import json
import math
import os
import statistics
import sys
import time

import numpy as np
import torch

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "static", "train"))
import pe_model  # noqa: E402

VOCAB, D, HEADS, LAYERS, BATCH, MAX_LEN = 25, 32, 2, 2, 16, 12


def sinusoidal(positions, d, base=10000.0):
    pe = np.zeros((positions, d), dtype=np.float32)
    pos = np.arange(positions)[:, None]
    omega = base ** (-np.arange(0, d, 2) / d)
    pe[:, 0::2] = np.sin(pos * omega)
    pe[:, 1::2] = np.cos(pos * omega)
    return pe


def parameters(gen):
    shapes = {"tok_emb": (VOCAB, D)}
    for l in range(LAYERS):
        b = f"blocks.{l}."
        shapes.update({
            b + "ln1.weight": (D,), b + "ln1.bias": (D,),
            b + "attn.qkv.weight": (D, 3 * D), b + "attn.qkv.bias": (3 * D,),
            b + "attn.out.weight": (D, D), b + "attn.out.bias": (D,),
            b + "ln2.weight": (D,), b + "ln2.bias": (D,),
            b + "mlp.fc.weight": (D, 4 * D), b + "mlp.fc.bias": (4 * D,),
            b + "mlp.proj.weight": (4 * D, D), b + "mlp.proj.bias": (D,),
        })
    shapes.update({"ln_f.weight": (D,), "ln_f.bias": (D,), "head.weight": (D, VOCAB), "head.bias": (VOCAB,)})
    out = {}
    for name, shape in shapes.items():
        if name.endswith("ln1.weight") or name.endswith("ln2.weight") or name == "ln_f.weight":
            t = torch.ones(shape)
        elif len(shape) == 1:
            t = torch.zeros(shape)
        else:
            t = torch.randn(shape, generator=gen) * (1.0 if name == "tok_emb" else 0.02)
        out[name] = t.requires_grad_(True)
    return out


def batch(rng, fixed):
    lengths = [fixed or int(rng.integers(4, MAX_LEN + 1)) for _ in range(BATCH)]
    t = max(lengths)
    tokens = np.zeros((BATCH, t), dtype=np.int64)
    targets = np.full((BATCH, t), -100, dtype=np.int64)
    for i, n in enumerate(lengths):
        tokens[i, :n] = rng.integers(1, VOCAB, n)
        tokens[i, n - 1] = 0
        targets[i, n - 1] = rng.integers(1, 9)
    return tokens, torch.from_numpy(targets), lengths


def run(threads, steps, fixed):
    torch.set_num_threads(threads)
    gen = torch.Generator().manual_seed(1)
    W = parameters(gen)
    trained = list(W.values())
    buffers = {"buffer.sinusoidal": torch.from_numpy(sinusoidal(MAX_LEN, D))}
    cfg = {"d_model": D, "heads": HEADS, "layers": LAYERS, "position": "sinusoidal", "causal": False, "max_len": MAX_LEN}
    decay = [p for n, p in W.items() if p.dim() > 1]
    rest = [p for n, p in W.items() if p.dim() == 1]
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": rest, "weight_decay": 0.0}],
                            lr=3e-3, betas=(0.9, 0.999), eps=1e-8)
    total = steps + 10
    warm = max(1, int(0.05 * total))
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: (s + 1) / warm if s < warm else
                                              0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(1.0, (s - warm) / max(1, total - warm)))))
    rng = np.random.default_rng(0)
    times = []
    for i in range(total):
        tokens, targets, lengths = batch(rng, fixed)
        start = time.perf_counter()
        params = dict(buffers)
        params.update(W)
        logits = pe_model.forward(params, cfg, tokens, torch, lengths=lengths)
        loss = torch.nn.functional.cross_entropy(logits.reshape(-1, VOCAB), targets.reshape(-1), ignore_index=-100)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(trained, 1.0)
        opt.step()
        sched.step()
        if i >= 10:
            times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    all_threads = torch.get_num_threads()
    out = {"torch": torch.__version__, "threads_default": all_threads}
    for label, fixed in (("drawn", None), ("fixed12", 12)):
        out[label] = {"one_thread_ms": run(1, steps, fixed), "all_threads_ms": run(all_threads, steps, fixed)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
