#!/usr/bin/env python3
"""Where a wasm module's bytes go: the code size of each function (from the name section), summed
by crate and listed by function, like `twiggy top`. Build with names kept, e.g. `wasm-opt -Oz -g`.

    python3 scripts/wasm_sizes.py module.wasm [--top 40] [--grep WORD]
"""
import argparse
import collections
import re
import subprocess
import sys


def leb(data, i):
    result = shift = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, i


def sections(data):
    i = 8
    while i < len(data):
        sid = data[i]
        size, j = leb(data, i + 1)
        yield sid, data[j:j + size], j + size - i
        i = j + size


def demangle(names):
    try:
        out = subprocess.run(["rustfilt"], input="\n".join(names), capture_output=True, text=True, check=True).stdout
        return out.split("\n")
    except (OSError, subprocess.CalledProcessError):
        return [legacy(n) for n in names]


def legacy(name):
    """A minimal demangler for Rust's legacy `_ZN…E` symbols (enough to group by crate)."""
    m = re.match(r"_ZN(.*)E$", name)
    if not m:
        return name
    body, parts, i = m.group(1), [], 0
    while i < len(body) and body[i].isdigit():
        j = i
        while body[j].isdigit():
            j += 1
        n = int(body[i:j])
        parts.append(body[j:j + n])
        i = j + n
    if parts and re.match(r"h[0-9a-f]{16}$", parts[-1]):
        parts.pop()
    text = "::".join(parts)
    for a, b in [("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$RF$", "&"), ("$C$", ","), ("..", "::"), ("$u7b$", "{"), ("$u7d$", "}"), ("$BP$", "*"), ("$u27$", "'"), ("$u5b$", "["), ("$u5d$", "]"), ("$u3b$", ";")]:
        text = text.replace(a, b)
    return text


def crate_of(name):
    n = name.lstrip("<&*")
    n = re.sub(r"^(dyn |mut |impl )", "", n)
    m = re.match(r"([A-Za-z_][A-Za-z0-9_]*)::", n)
    return m.group(1) if m else "(other)"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("wasm")
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--grep")
    ap.add_argument("--by", default="crate", choices=["crate", "module"])
    a = ap.parse_args()
    data = open(a.wasm, "rb").read()
    imports = 0
    bodies = []
    names = {}
    totals = collections.Counter()
    for sid, body, whole in sections(data):
        totals[sid] += whole
        if sid == 2:  # imports: count function imports (they take indices first)
            n, i = leb(body, 0)
            for _ in range(n):
                for _ in range(2):
                    l, i = leb(body, i)
                    i += l
                kind = body[i]
                i += 1
                if kind == 0:
                    _, i = leb(body, i)
                    imports += 1
                elif kind == 1:
                    i += 1
                    flags, i = leb(body, i)
                    _, i = leb(body, i)
                    if flags & 1:
                        _, i = leb(body, i)
                elif kind == 2:
                    flags, i = leb(body, i)
                    _, i = leb(body, i)
                    if flags & 1:
                        _, i = leb(body, i)
                elif kind == 3:
                    i += 2
                else:
                    i += 1
                    _, i = leb(body, i)
        elif sid == 10:
            n, i = leb(body, 0)
            for _ in range(n):
                size, j = leb(body, i)
                bodies.append(size + (j - i))
                i = j + size
        elif sid == 0:
            l, i = leb(body, 0)
            if body[i:i + l] != b"name":
                continue
            i += l
            while i < len(body):
                sub = body[i]
                size, j = leb(body, i + 1)
                if sub == 1:
                    n, k = leb(body, j)
                    for _ in range(n):
                        idx, k = leb(body, k)
                        ln, k = leb(body, k)
                        names[idx] = body[k:k + ln].decode("utf-8", "replace")
                        k += ln
                i = j + size
    order = [names.get(imports + f, f"func[{imports + f}]") for f in range(len(bodies))]
    pretty = demangle(order)
    by = collections.Counter()
    rows = []
    for name, size in zip(pretty, bodies):
        key = crate_of(name)
        if a.by == "module":
            m = re.match(r"<?([A-Za-z_][\w]*(?:::[a-z_][\w]*)?)", name.lstrip("<&"))
            key = m.group(1) if m else key
        by[key] += size
        rows.append((size, name))
    code = sum(bodies)
    print(f"file {len(data):,} B; code {code:,} B in {len(bodies):,} functions; data {totals[11]:,} B")
    print(f"\nby {a.by}:")
    for k, v in by.most_common(a.top):
        print(f"  {v:>9,}  {100 * v / code:5.1f} %  {k}")
    print("\nlargest functions:")
    rows.sort(reverse=True)
    for size, name in [r for r in rows if not a.grep or a.grep in r[1]][:a.top]:
        print(f"  {size:>8,}  {name[:150]}")


if __name__ == "__main__":
    sys.exit(main())
