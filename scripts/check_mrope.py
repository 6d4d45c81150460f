#!/usr/bin/env python3
"""Holds the Image patches view's M-RoPE to transformers itself, for the sequences of
`cargo run --example mrope_cases` (text, an image, a video, text, as the view builds them):
the position ids, under the "transformers 5.24" rule, to each model's own `get_rope_index`
(Qwen2-VL, Qwen2.5-VL, Qwen3-VL), and the cos and sin tables (what rotates each token's query
and key) to each model's own rotary embedding, whose forward lays the frequencies out by
`mrope_section` (chunked, or Qwen3-VL's interleaved layout). A benchmark-only check:
transformers needs PyTorch, a multi-GB install.

    cargo run -q --example mrope_cases > target/mrope_cases.jsonl
    python3 scripts/check_mrope.py target/mrope_cases.jsonl

`get_rope_index` reads only the vision config (`spatial_merge_size`, `tokens_per_second`), so it
is called on a stand-in for the model; the rotary embedding is built from a config holding
what its `__init__` reads. Exits 1 if any id differs or a cos or sin differs by more than 1e-5
(transformers computes the angles in float32, the app in float64).
"""

import json
import sys
from types import SimpleNamespace

import torch
import transformers
from transformers.models.qwen2_5_vl.modeling_qwen2_5_vl import Qwen2_5_VLModel, Qwen2_5_VLRotaryEmbedding
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel, Qwen2VLRotaryEmbedding
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLModel, Qwen3VLTextRotaryEmbedding

MODELS = {"qwen2_vl": Qwen2VLModel, "qwen2_5_vl": Qwen2_5_VLModel, "qwen3_vl": Qwen3VLModel}
ROTARY = {
    "qwen2_vl": Qwen2VLRotaryEmbedding,
    "qwen2_5_vl": Qwen2_5_VLRotaryEmbedding,
    "qwen3_vl": Qwen3VLTextRotaryEmbedding,
}
TOLERANCE = 1e-5


def cos_sin(case, ids):
    """transformers' cos and sin per token and frequency (the first half of its head_dim)."""
    head_dim = case["head_dim"]
    config = SimpleNamespace(
        max_position_embeddings=32768,
        head_dim=head_dim,
        hidden_size=head_dim * 2,
        num_attention_heads=2,
        rope_parameters={"rope_type": "default", "rope_theta": case["theta"], "mrope_section": case["section"]},
    )
    rotary = ROTARY[case["model"]](config)
    positions = torch.tensor(ids, dtype=torch.long).T.reshape(3, 1, -1)
    cos, sin = rotary(torch.zeros(1, dtype=torch.float32), positions)
    half = head_dim // 2
    return cos[0, :, :half].double(), sin[0, :, :half].double()


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
    bad, worst = 0, 0.0
    with open(path) as f:
        for line in f:
            case = json.loads(line)
            want = case["ids"]
            got = ids(case)
            angles = torch.tensor(case["angles"], dtype=torch.float64)
            cos, sin = cos_sin(case, want)
            table = max(float((cos - angles.cos()).abs().max()), float((sin - angles.sin()).abs().max()))
            worst = max(worst, table)
            differ = [i for i, (a, b) in enumerate(zip(got, want)) if a != b]
            if len(got) != len(want) or differ:
                bad += 1
                first = differ[0] if differ else min(len(got), len(want))
                print(f"{case['name']}: DIFFERS at token {first}: transformers {got[first:first + 3]}, app {want[first:first + 3]} ({len(got)} vs {len(want)} tokens)")
            else:
                print(f"{case['name']}: {len(got)} tokens, every id equal; the last token at (t, h, w) = {tuple(got[-1])}; cos and sin within {table:.1e}")
            if table > TOLERANCE:
                bad += 1
                print(f"{case['name']}: a cos or sin differs by {table:.1e}")
    print(f"largest cos or sin difference {worst:.1e} (tolerance {TOLERANCE:.0e})")
    print("all equal" if not bad else f"{bad} case(s) differ")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "target/mrope_cases.jsonl"))
