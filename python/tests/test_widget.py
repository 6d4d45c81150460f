"""The widget's Python side without a browser: settings become the link the frame opens, the
frame's link becomes settings, bad values raise TraitError with the app's words, and the
numbers the frame sends become NumPy arrays."""

import numpy as np
import pytest
import traitlets

from pe_explorer import Explorer, Figure
from pe_explorer import link


def test_settings_make_the_link_the_frame_opens():
    w = Explorer(view="offsets", scheme="rope", d_model=64)
    assert w._query == "embed=offsets&show=chart&scheme=rope&d_model=64&theme=host"
    w.base = 500000
    assert "base=500000" in w._query
    w.show = "panel"
    assert w._query.startswith("embed=offsets&scheme=rope")
    w.view = "waves"
    assert w._query.startswith("embed=waves&")
    assert Explorer(show="app", theme="dark")._query == "theme=dark"


def test_bad_values_raise_the_apps_message():
    w = Explorer()
    with pytest.raises(traitlets.TraitError) as e:
        w.d_model = 5000
    assert str(e.value) == "d_model=5000: 5000 is above the maximum for d_model (2 … 4096); using 4096."
    with pytest.raises(traitlets.TraitError, match=r"scheme=rotary: not one of sinusoidal, learned, rope"):
        w.scheme = "rotary"
    with pytest.raises(traitlets.TraitError, match="takes whole numbers"):
        w.length = 10.5
    with pytest.raises(traitlets.TraitError, match="not a number"):
        w.base = "ten thousand"
    with pytest.raises(traitlets.TraitError):
        w.view = "nowhere"
    with pytest.raises(TypeError, match="dmodel"):
        Explorer(dmodel=3)
    # Nothing changed.
    assert (w.d_model, w.scheme, w.length, w.base) == (128, "sinusoidal", 100, 10000)


def test_the_frames_state_becomes_the_traits():
    w = Explorer(view="offsets")
    seen = []
    w.observe(lambda c: seen.append((c["name"], c["new"])), names=["base", "d_model"])
    # As the frame writes it after a slider moved (its own order).
    w._query = "embed=offsets&show=chart&d_model=48&base=500&theme=host"
    assert (w.d_model, w.base, w.view, w.show) == (48, 500, "offsets", "chart")
    assert ("base", 500) in seen and ("d_model", 48) in seen
    # Writing the traits back gives the same state (the frame is not sent it again).
    assert link.read(w._query)[2]["base"] == 500


def test_the_frames_numbers_become_arrays():
    w = Explorer(view="heatmap", d_model=4, length=3)
    cols = [{"name": "position", "kind": "f8"}, {"name": "dim_0", "kind": "f8"}, {"name": "label", "kind": "str", "values": ["a", "b", "c"]}]
    bufs = [np.array([0.0, 1.0, 2.0]).tobytes(), np.array([0.0, 0.841470985, np.nan]).tobytes()]
    with pytest.raises(RuntimeError, match="next cell"):
        w.figure()
    w._on_msg(w, {"kind": "figure", "query": w._query, "view": "heatmap", "name": "pe.csv", "columns": cols}, bufs)
    f = w.figure()
    assert isinstance(f, Figure) and f.name == "pe.csv"
    assert f["dim_0"][1] == 0.841470985 and np.isnan(f["dim_0"][2])
    assert list(f["label"]) == ["a", "b", "c"]
    assert f.to_array().shape == (3, 2)
    # Numbers for other settings are not these settings' numbers.
    w.d_model = 8
    with pytest.raises(RuntimeError, match="next cell"):
        w.figure()
    with pytest.raises(RuntimeError, match="No results yet"):
        w.results()


def test_the_app_is_sent_once_asked(tmp_path, monkeypatch):
    from pe_explorer import widget

    page = tmp_path / "app.html"
    page.write_text("<!DOCTYPE html><html><head></head><body>app</body></html>")
    monkeypatch.setattr(widget, "_APP", page)
    w = Explorer()
    sent = []
    monkeypatch.setattr(w, "send", lambda content, buffers=None: sent.append((content, buffers)))
    w._on_msg(w, {"kind": "need-app"}, [])
    assert sent[0][0]["kind"] == "app" and sent[0][1][0] == page.read_bytes()


def test_the_link_is_the_apps():
    w = Explorer(site="https://example.org/pe/")
    w._link = "view=offsets&d_model=64"
    assert w.link == "https://example.org/pe/?view=offsets&d_model=64"


def test_a_figure_writes_the_same_numbers_back_as_csv(tmp_path):
    cols = {"offset": np.array([-1.0, 0.0, 1.0]), "closed_form": np.array([0.1 + 0.2, np.nan, 1e-300]), "label": np.array(["a", "b,c", "d"])}
    f = Figure("x.csv", "offsets", "embed=offsets", cols)
    text = f.to_csv(tmp_path / "x.csv")
    assert (tmp_path / "x.csv").read_text() == text
    lines = text.strip().split("\n")
    assert lines[0] == "offset,closed_form,label"
    assert lines[1] == "-1.0,0.30000000000000004,a"
    assert lines[2] == '0.0,NaN,"b,c"'
    assert float(lines[3].split(",")[1]) == 1e-300


def test_the_apps_value_wins_where_its_range_depends_on_others():
    # head 12 of 16 heads: beyond the default 8 heads' range, but the app holds it to its own.
    w = Explorer(view="offsets", scheme="alibi")
    w._query = "embed=offsets&show=chart&scheme=alibi&heads=16&head=12"
    assert (w.heads, w.head) == (16, 12)
    # And the traits write back the same query.
    w.base = 500
    assert "heads=16&head=12" in w._query
