#!/usr/bin/env python3
"""Holds the Image patches view's M-RoPE position ids, under the "transformers 5.24" rule, to
transformers' own `get_rope_index` of Qwen2-VL, Qwen2.5-VL and Qwen3-VL, for the sequences of
`cargo run --example mrope_cases` (text, an image, a video, text, as the view builds them).
A benchmark-only check: transformers needs PyTorch, a multi-GB install.

    cargo run -q --example mrope_cases > target/mrope_cases.jsonl
    python3 scripts/check_mrope.py target/mrope_cases.jsonl

`get_rope_index` reads only the vision config (`spatial_merge_size`, `tokens_per_second`), so it
is called on a stand-in for the model. Exits 1 if any id differs.
"""

import json
import sys
from types import SimpleNamespace

import torch
import transformers
from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLModel
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLModel

MODELS = {"qwen2_vl": Qwen2VLModel, "qwen2_5_vl": Qwen2_5_VLModel, "qwen3_vl": Qwen3VLModel}


def ids(case):
    cls = MODELS[case["model"]]
    m = case["merge"]
    vision = SimpleNamespace(spatial_merge_size=m, tokens_per_second=case["tokens_per_second"])
    model = SimpleNamespace(
        config=SimpleNamespace(vision_config=vision),
        get_vision_position_ids=lambda *a, **k: cls.get_vision_position_ids(None, *a, **k),
    )
    types, images, videos = [], [], []
    for s in case["segments"]:
        if s["kind"] == "text":
            types += [0] * s["n"]
        elif s["kind"] == "image":
            types += [1] * ((s["h"] // m) * (s["w"] // m))
            images.append([1, s["h"], s["w"]])
        else:
            types += [2] * (s["t"] * (s["h"] // m) * (s["w"] // m))
            videos.append([s["t"], s["h"], s["w"]])
    n = len(types)
    position_ids, _ = cls.get_rope_index(
        model,
        torch.zeros(1, n, dtype=torch.long),
        torch.tensor([types], dtype=torch.int),
        image_grid_thw=torch.tensor(images) if images else None,
        video_grid_thw=torch.tensor(videos) if videos else None,
    )
    return position_ids[:, 0, :].T.tolist()


def main(path):
    print(f"transformers {transformers.__version__}, torch {torch.__version__}")
    bad = 0
    with open(path) as f:
        for line in f:
            case = json.loads(line)
            want = case["ids"]
            got = ids(case)
            differ = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
            if len(got) != len(want) or differ:
                bad += 1
                first = differ[0] if differ else min(len(got), len(want))
                print(f"{case['name']}: DIFFERS at token {first}: transformers {got[first:first + 3]}, app {want[first:first + 3]} ({len(got)} vs {len(want)} tokens)")
            else:
                print(f"{case['name']}: {len(got)} tokens, every id equal; the last token at (t, h, w) = {tuple(got[-1])}")
    print("all equal" if not bad else f"{bad} case(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/mrope_cases.jsonl"))
