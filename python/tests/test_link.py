"""The trait ↔ link mapping and its refusals, held to the app's own link parser: `spec.json`
holds what the app said (`src/link_spec.rs`) for a set of bad values of every key, and the
package must say the same, word for word, where it checks the key itself."""

import math

import pytest

from pe_explorer import link


def kinds_checked_here(spec: dict) -> bool:
    return spec["kind"] in ("choice", "flag", "number")


@pytest.mark.parametrize("probe", link.SPEC["probes"], ids=lambda p: f"{p['key']}={p['value']!r}")
def test_refusals_read_as_the_apps(probe):
    key, value, said = probe["key"], probe["value"], probe["notices"]
    spec = link.KEYS[key]
    if not kinds_checked_here(spec):
        # Text the app reads itself (sentences, lists of schemes, configs): passed through.
        assert link.check(key, value) == value
        return
    dependent = spec["kind"] == "number" and spec["dependent"]
    try:
        link.check(key, value)
        refused = None
    except ValueError as e:
        refused = str(e)
    if said:
        if dependent and refused is None:
            # Held to its range by the app (the limit depends on other settings).
            assert "is above the maximum" in said[0] or "is below the minimum" in said[0] or "whole numbers" in said[0] or "Only the first" in said[0], said
        else:
            assert refused == said[0]
    else:
        assert refused is None, f"the app accepts {key}={value!r}; the package said: {refused}"


def test_every_key_has_a_trait_name_and_a_default_that_reads_back():
    for key, spec in link.KEYS.items():
        name = link.trait_name(key)
        assert name.isidentifier() and link.key_of(name) == key
        if spec["default"] is not None:
            value = link.from_text(key, spec["default"])
            assert link.check(key, value) == spec["default"] or spec["kind"] == "text", key


@pytest.mark.parametrize(
    "value, text",
    [(True, "1"), (False, "0"), (64, "64"), (64.0, "64"), (0.5, "0.5"), (1e-5, "1e-5"),
     ([0, 25, 50], "0,25,50"), ("rope", "rope")],
)
def test_python_values_become_the_links_text(value, text):
    assert link.to_text(value) == text


def test_numbers_are_written_as_the_app_writes_them():
    # format::plain, from src/format.rs.
    for v, t in [(1e300, "1e300"), (1.5e-5, "1.5e-5"), (1e15, "1e15"), (0.5, "0.5"), (4096.0, "4096"),
                 (-3.25, "-3.25"), (0.0001, "0.0001"), (-0.0, "0"), (1 / 3, "0.333333"), (math.nan, "NaN")]:
        assert link.plain(v) == t


def test_a_query_reads_back_to_the_same_values():
    values = {"scheme": "rope", "d_model": 64, "base": 500000.0, "normalised": True, "anchors": [0, 8]}
    q = link.query(values, "offsets", "chart")
    assert q.startswith("embed=offsets&show=chart&")
    view, show, back = link.read(q)
    assert (view, show) == ("offsets", "chart")
    for k, v in values.items():
        assert back[k] == v, k
    # Defaults are left out; the whole app has no embed.
    assert link.query({"d_model": 128}, "heatmap", "app") == ""
    assert link.query({}, "waves", "chart-only") == "embed=waves&show=chart&controls=none"


def test_query_text_is_encoded_as_the_app_encodes_it():
    assert link.encode("dog bites man") == "dog+bites+man"
    assert link.encode("a&b=c") == "a%26b%3Dc"
    assert link.decode(link.encode("ｄｏｇ −5 😀")) == "ｄｏｇ −5 😀"
    assert link.parse_query("?a=dog+bites&b=x%20y") == {"a": "dog bites", "b": "x y"}


def test_unknown_keys_and_types_are_refused():
    with pytest.raises(ValueError, match="unknown parameter"):
        link.check("dmodel", 5)
    with pytest.raises(ValueError, match="not a value a link holds"):
        link.check("d_model", object())


def test_numpy_and_python_types_are_read_as_a_student_means_them():
    np = pytest.importorskip("numpy")
    assert link.check("normalised", np.True_) == "1"
    assert link.check("normalised", True) == "1"
    assert link.check("d_model", np.int64(64)) == "64"
    assert link.check("d_model", np.array(64)) == "64"
    assert link.check("anchors", np.array([0, 25])) == "0,25"
    with pytest.raises(ValueError, match="not True"):
        link.check("heads", True)
    with pytest.raises(ValueError, match="one value, not a list"):
        link.check("d_model", [64])
    with pytest.raises(ValueError, match="one value, not a list"):
        link.check("scheme", ["rope"])
    with pytest.raises(ValueError, match="2-D array"):
        link.check("anchors", np.zeros((2, 2)))
