#!/usr/bin/env python3
"""Runs the Image patches view's PyTorch code (and, beside it, its NumPy code) against the app's
CSV for the settings of `cargo run --example patch_cases`, and prints the largest difference of
each. A benchmark-only check: PyTorch is a multi-GB install, so the README's test command runs the
NumPy code end to end and this script is run where torch is installed:

    cargo run -q --example patch_cases > target/patch_cases.jsonl
    python3 scripts/check_torch.py target/patch_cases.jsonl

The learned table's PyTorch code resizes with `F.interpolate(mode="bicubic",
align_corners=False)` itself, so this also holds the app's bicubic resize to PyTorch's.
Exits 1 if any difference is above 1e-5 (the references compute in float32).
"""

import csv
import io
import json
import sys

import numpy as np
import torch

TOLERANCE = 1e-5


def table(text):
    rows = list(csv.reader(io.StringIO(text)))
    return np.array([[float(v) if v else np.nan for v in r[1:]] for r in rows[1:]])


def run(code, library):
    scope = {}
    exec(code, scope)
    m = scope["matrix"]
    if library == "torch":
        m = m.detach().numpy()
    return np.asarray(m, dtype=np.float64)


def difference(got, want):
    if got.shape != want.shape:
        return float("inf")
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return float("inf")
    both = ~np.isnan(want)
    return float(np.max(np.abs(got[both] - want[both]), initial=0.0))


def main(path):
    worst = 0.0
    print(f"torch {torch.__version__}, numpy {np.__version__}")
    with open(path) as f:
        for line in f:
            case = json.loads(line)
            want = table(case["csv"])
            diffs = {lib: difference(run(case[lib], lib), want) for lib in ("torch", "numpy")}
            worst = max(worst, *diffs.values())
            print(f"{case['name']}: torch {diffs['torch']:.2e}, numpy {diffs['numpy']:.2e}")
    print(f"largest difference {worst:.2e} (tolerance {TOLERANCE:.0e})")
    return 0 if worst <= TOLERANCE else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/patch_cases.jsonl"))
