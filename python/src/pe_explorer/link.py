"""The explorer's link, from Python: every key the app's link carries, as a value of the type a
student would write (``d_model=64``, ``scheme="rope"``, ``normalised=True``,
``anchors=[0, 25]``), checked as the app checks it, with the app's own words.

``spec.json`` is written by the app itself (``cargo run --example link_spec``, from
``src/link_spec.rs``): each key's default and kind, read off the app's link parser, and the
parser's answers to a set of bad values, which ``tests/test_link.py`` holds this module to.
A value whose limit depends on other settings (a position on the length) is checked for its
type here, and held to its range by the app, whose notice then comes back as a warning.
"""

from __future__ import annotations

import json
import math
from decimal import Decimal
from pathlib import Path
from typing import Any

SPEC = json.loads((Path(__file__).parent / "spec.json").read_text(encoding="utf-8"))
KEYS: dict[str, dict] = {k["key"]: k for k in SPEC["keys"]}

# What the widget shows: not the app's settings, but how it embeds them.
SHOWS = ("chart", "chart-only", "panel", "app")

# Python names for keys that are not identifiers.
_TRAIT = {"with": "with_"}
_KEY = {v: k for k, v in _TRAIT.items()}


def trait_name(key: str) -> str:
    return _TRAIT.get(key, key)


def key_of(trait: str) -> str:
    return _KEY.get(trait, trait)


def plain(v: float) -> str:
    """A number as the app writes it (``format::plain``)."""
    v = float(v)
    if math.isnan(v):
        return "NaN"
    if math.isinf(v):
        return "∞" if v > 0 else "−∞"
    if abs(v) >= 1e15 or (v != 0 and abs(v) < 1e-4):
        # Rust's `{:e}`: the shortest digits that read back, as `1.5e-5`.
        sign, digits, exp = Decimal(repr(v)).normalize().as_tuple()
        text = "".join(map(str, digits))
        mantissa = text[0] + ("." + text[1:] if len(text) > 1 else "")
        return f"{'-' if sign else ''}{mantissa}e{exp + len(text) - 1}"
    s = f"{v:.6f}".rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def quoted(value: str) -> str:
    """How a value appears inside a notice (``format::quoted``): at most 24 characters, control
    characters escaped."""
    head = value[:24]
    out = "".join(f"\\u{ord(c):04x}" if _is_control(c) else c for c in head)
    if len(value) > 24:
        out += "…"
    return out


def _is_control(c: str) -> bool:
    # Rust's char::is_control: the Unicode general category Cc.
    o = ord(c)
    return o < 0x20 or 0x7F <= o < 0xA0


def encode(text: str) -> str:
    """A value for a query string, as the app writes one (``url::encode``)."""
    out = []
    for b in text.encode("utf-8"):
        c = chr(b)
        if b == 0x20:
            out.append("+")
        elif c.isascii() and (c.isalnum() or c in "-_.~,"):
            out.append(c)
        else:
            out.append(f"%{b:02X}")
    return "".join(out)


def decode(text: str) -> str:
    """Reads ``%XX`` escapes and ``+`` (``url::decode``)."""
    data = text.encode("utf-8")
    out = bytearray()
    i = 0
    while i < len(data):
        b = data[i]
        if b == ord("+"):
            out.append(0x20)
        elif b == ord("%") and i + 2 < len(data):
            try:
                out.append(int(data[i + 1 : i + 3].decode("ascii"), 16))
                i += 2
            except (ValueError, UnicodeDecodeError):
                out.append(b)
        else:
            out.append(b)
        i += 1
    return out.decode("utf-8", errors="replace")


def parse_query(query: str) -> dict[str, str]:
    """A query string (with or without ``?``) as key → text; the last occurrence wins."""
    out: dict[str, str] = {}
    for part in query.lstrip("?").split("&"):
        if not part:
            continue
        k, _, v = part.partition("=")
        out[decode(k)] = decode(v)
    return out


def _is_bool(value: Any) -> bool:
    # NumPy's bool is neither Python's bool nor an int; its type's name is "bool" (NumPy 2) or
    # "bool_" (NumPy 1).
    return isinstance(value, bool) or (type(value).__module__ == "numpy" and type(value).__name__ in ("bool", "bool_"))


def to_text(value: Any) -> str:
    """A Python value as the link's text."""
    if type(value).__name__ == "ndarray":
        if value.ndim == 0:
            return to_text(value.item())
        if value.ndim > 1:
            raise TypeError(f"a {value.ndim}-D array is not a value a link holds (a list of numbers is)")
        value = value.tolist()
    if _is_bool(value):
        return "1" if value else "0"
    if isinstance(value, (list, tuple)):
        return ",".join(to_text(v) for v in value)
    if isinstance(value, str):
        return value
    if isinstance(value, int) or type(value).__name__.startswith(("int", "uint")):
        return str(int(value))
    if isinstance(value, float) or type(value).__name__.startswith("float"):
        v = float(value)
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        # Every digit Python keeps, with the exponent written as the app writes it (1e-5).
        r = repr(v)
        if "e" in r:
            mantissa, exponent = r.split("e")
            return f"{mantissa}e{int(exponent)}"
        return r
    raise TypeError(f"{type(value).__name__} is not a value a link holds")


def from_text(key: str, text: str | None) -> Any:
    """The link's text for ``key`` as a Python value."""
    if text is None:
        return None
    spec = KEYS.get(key)
    kind = spec["kind"] if spec else "text"
    if kind == "flag":
        return text in ("1", "true", "on", "yes")
    if kind == "number":
        def one(t: str) -> float | int:
            v = float(t)
            return int(v) if spec["integer"] and v.is_integer() else v
        if spec.get("list"):
            return [one(t) for t in text.replace(";", ",").split(",") if t.strip()]
        try:
            return one(text)
        except ValueError:
            return text
    return text


def _probe_message(key: str, value: str) -> str | None:
    """The app's notice for a probe value, if the spec has it."""
    for p in SPEC["probes"]:
        if p["key"] == key and p["value"] == value and p["notices"]:
            return p["notices"][0]
    return None


def _template(key: str, probe: str, value: str) -> str:
    """The app's notice for ``value``, made from its notice for ``probe`` (same kind of
    mistake: only the value quoted differs)."""
    said = _probe_message(key, probe)
    if said is None:
        return f"{key}={quoted(value)}: not accepted."
    return said.replace(quoted(probe), quoted(value))


def _round(v: float) -> float:
    # Rust's f64::round: halves away from zero.
    return math.copysign(math.floor(abs(v) + 0.5), v)


def _looks_grouped(text: str) -> bool:
    # limit::looks_grouped: digits in groups of three after the first ("10,000", "-1,234.5").
    body = text.lstrip("+-").split(".")[0]
    groups = body.split(",")
    if len(groups) < 2 or not groups[0] or len(groups[0]) > 3:
        return False
    return all(g.isdigit() for g in groups) and all(len(g) == 3 for g in groups[1:])


def _number(key: str, text: str, spec: dict, whole: str | None = None) -> float:
    """A number's text checked as ``Limit::parse`` and ``Limit::accept`` check it; raises
    ``ValueError`` with the app's notice when the app would refuse, clamp or round it. ``whole``
    is the list ``text`` is one item of, which the notice quotes."""
    name = spec["name"]
    head = f"{key}={quoted(text if whole is None else whole)}"
    cleaned = "".join(c for c in text.strip() if not c.isspace() and c != "_")
    if not cleaned:
        raise ValueError(f"{head}: Type a number for {name}.")
    digits = cleaned.replace(",", "") if _looks_grouped(cleaned) else cleaned
    try:
        if digits.lower().lstrip("+-") in ("inf", "infinity", "nan"):
            raise ValueError
        v = float(digits)
    except ValueError:
        raise ValueError(f"{head}: “{quoted(text.strip())}” is not a number; {name} is unchanged.") from None
    lo, hi = float(spec["min"]), float(spec["max"])
    if math.isinf(v):
        side, used = ("above the maximum", hi) if v > 0 else ("below the minimum", lo)
        shown = quoted(text.strip())
        raise ValueError(f"{head}: {shown} is {side} for {name} ({plain(lo)} … {plain(hi)}); using {plain(used)}.")
    if spec.get("dependent"):
        return v
    rounded = _round(v) if spec["integer"] else v
    clamped = min(max(rounded, lo), hi)
    if clamped != rounded:
        side = "above the maximum" if rounded > hi else "below the minimum"
        raise ValueError(f"{head}: {plain(v)} is {side} for {name} ({plain(lo)} … {plain(hi)}); using {plain(clamped)}.")
    if rounded != v:
        raise ValueError(f"{head}: {name} takes whole numbers; rounded {plain(v)} to {plain(rounded)}.")
    return v


def check(key: str, value: Any) -> str:
    """The link's text for ``value`` of ``key``, or ``ValueError`` with the notice the app would
    show for it."""
    spec = KEYS.get(key)
    if spec is None:
        raise ValueError(f"Ignored the unknown parameter “{quoted(key)}”.")
    if value is None:
        if spec["default"] is None:
            return ""
        raise ValueError(f"{key}: None is not a value of {key}; its default is {spec['default']!r}.")
    try:
        text = to_text(value)
    except TypeError as e:
        raise ValueError(f"{key}: {e}.") from None
    kind = spec["kind"]
    many = isinstance(value, (list, tuple)) or (type(value).__name__ == "ndarray" and value.ndim == 1)
    if many and not (kind == "number" and spec.get("list")):
        raise ValueError(f"{key}: takes one value, not a list ({text}).")
    if _is_bool(value) and kind == "number":
        raise ValueError(f"{key}: takes a number, not {value!r}.")
    if kind == "choice":
        if text not in spec["choices"]:
            raise ValueError(_template(key, "abc", text))
        return text
    if kind == "flag":
        if text not in ("1", "0", "true", "false", "on", "off", "yes", "no"):
            raise ValueError(_template(key, "abc", text))
        return "1" if text in ("1", "true", "on", "yes") else "0"
    if kind == "number":
        if spec.get("list"):
            parts = [p for p in text.replace(";", ",").replace(" ", ",").replace("\t", ",").split(",") if p]
            if not parts:
                raise ValueError(f"{key}={quoted(text)}: Type at least one {spec['name']}.")
            return ",".join(plain(_number(key, p, spec, text)) for p in parts)
        return plain(_number(key, text, spec))
    return text


def query(values: dict[str, Any], view: str, show: str) -> str:
    """The link query for these settings (only what differs from the app's defaults), embedded as
    ``show`` says: ``chart`` (the view's main chart and its controls), ``chart-only``,
    ``panel`` (the whole panel) or ``app`` (the whole app, on ``view``)."""
    parts: list[tuple[str, str]] = []
    if show != "app":
        parts.append(("embed", view))
        if show in ("chart", "chart-only"):
            parts.append(("show", "chart"))
        if show == "chart-only":
            parts.append(("controls", "none"))
    elif view != KEYS["view"]["default"]:
        parts.append(("view", view))
    for key, value in values.items():
        if key == "view" or value is None:
            continue
        text = check(key, value)
        if text != (KEYS[key]["default"] or ""):
            parts.append((key, text))
    return "&".join(f"{k}={encode(v)}" for k, v in parts)


def read(query_text: str) -> tuple[str, str, dict[str, Any]]:
    """The view, how it is shown, and every key's value (defaults for those not in the query)
    of a query the app wrote."""
    q = parse_query(query_text)
    embed = q.get("embed")
    if embed is None:
        show = "app"
        view = q.get("view", KEYS["view"]["default"])
    else:
        view = embed
        show = "panel" if q.get("show") != "chart" else ("chart-only" if q.get("controls") == "none" else "chart")
    if "lesson" in q and embed is None:
        view = "lesson"
    values = {k: from_text(k, q.get(k, spec["default"])) for k, spec in KEYS.items() if k != "view"}
    return view, show, values
