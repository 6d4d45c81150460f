"""The explorer as a notebook widget (anywidget): the same WebAssembly app as the site, carried
inside this package and shown in a sandboxed frame in the output cell, with every setting of its
link as a trait that moves both ways.

The app reaches the browser once per page: the first widget asks Python for it over the
widget's comm and receives it as one binary buffer; the widgets after it use the same copy.
Nothing is fetched from the network.
"""

from __future__ import annotations

import csv
import io
import itertools
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anywidget
import numpy as np
import traitlets

from . import link

_HERE = Path(__file__).parent
_APP = _HERE / "static" / "app.html"
__version__ = "0.1.0"


def _app_bytes() -> bytes:
    if not _APP.exists():
        raise FileNotFoundError(
            f"{_APP} is missing: this copy of pe_explorer was not built with the app "
            "(bash scripts/package.sh builds the wheel with it)."
        )
    return _APP.read_bytes()


class _LinkValue(traitlets.TraitType):
    """A value of one of the link's keys, checked as the app checks it."""

    info_text = "a value the explorer's link holds"

    def __init__(self, key: str, **kwargs):
        self.key = key
        spec = link.KEYS[key]
        default = link.from_text(key, spec["default"])
        super().__init__(default_value=default, allow_none=spec["default"] is None, **kwargs)

    def validate(self, obj, value):
        if value is None and self.allow_none:
            return None
        try:
            text = link.check(self.key, value)
        except ValueError as e:
            raise traitlets.TraitError(str(e)) from None
        return link.from_text(self.key, text)


def _key_traits() -> dict[str, traitlets.TraitType]:
    return {link.trait_name(k): _LinkValue(k) for k in link.KEYS if k != "view"}


@dataclass
class Figure:
    """The numbers of the chart a view draws, as its Download CSV writes them: one array per
    column (float64, NaN where the CSV says NaN; text columns as arrays of str)."""

    name: str
    view: str
    link: str
    columns: dict[str, np.ndarray] = field(default_factory=dict)

    def __getitem__(self, column: str) -> np.ndarray:
        return self.columns[column]

    def __iter__(self):
        return iter(self.columns)

    def keys(self):
        return self.columns.keys()

    def to_array(self) -> np.ndarray:
        """Every numeric column side by side (rows × columns), as in the CSV."""
        numeric = [v for v in self.columns.values() if v.dtype.kind == "f"]
        return np.column_stack(numeric) if numeric else np.empty((0, 0))

    def to_csv(self, path: str | Path | None = None) -> str:
        """The numbers as CSV (every digit each number has; ``NaN`` where there is none), written
        to ``path`` when given."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        names = list(self.columns)
        writer.writerow(names)
        cols = [self.columns[n] for n in names]
        for row in zip(*cols):
            writer.writerow(["NaN" if isinstance(v, float) and v != v else (repr(float(v)) if isinstance(v, (float, np.floating)) else str(v)) for v in row])
        text = out.getvalue()
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def __repr__(self) -> str:
        shape = self.to_array().shape
        return f"Figure({self.name!r}: {len(self.columns)} columns, {shape[0]} rows; view {self.view!r})"


def _columns(names: list[dict], buffers: list) -> dict[str, np.ndarray]:
    """Columns sent by the widget: numeric ones as float64 buffers, text ones as lists."""
    out: dict[str, np.ndarray] = {}
    numeric = iter(buffers)
    for col in names:
        if col["kind"] == "f8":
            out[col["name"]] = np.frombuffer(bytes(next(numeric)), dtype="<f8").copy()
        else:
            out[col["name"]] = np.array(col["values"], dtype=str)
    return out


class Explorer(anywidget.AnyWidget):
    """The Positional Encoding Explorer in a notebook.

    ``Explorer(view="offsets", scheme="rope", d_model=64)`` shows the view's main chart with its
    controls. Every key of the app's link is a trait (``with`` is ``with_``): set one and the
    chart follows; move a slider and the trait follows. A value the app would refuse, clamp or
    round raises ``TraitError`` with the app's own message.

    ``show``: ``"chart"`` (the chart and its controls, the default), ``"chart-only"``,
    ``"panel"`` (the whole panel) or ``"app"`` (the whole app, tabs and settings included).
    ``site``: the address of a hosted copy, for :attr:`link` (empty: the link is its query).
    """

    _esm = _HERE / "static" / "widget.js"
    _css = """
    .pe-explorer-frame { width: 100%; border: 0; display: block; min-height: 120px; background: transparent; }
    .pe-explorer-note { font: 13px/1.4 system-ui, sans-serif; color: #555; margin: 4px 0; }
    """

    # The state as the app's link query: the one trait the frame and Python both write.
    _query = traitlets.Unicode("").tag(sync=True)
    # The app's own link for the same state (no embedding), as its Copy link writes it.
    _link = traitlets.Unicode("").tag(sync=True)
    _version = traitlets.Unicode(__version__).tag(sync=True)
    _site = traitlets.Unicode("").tag(sync=True)

    view = traitlets.Enum(link.KEYS["view"]["choices"], default_value="heatmap")
    show = traitlets.Enum(link.SHOWS, default_value="chart")
    #: What the app said about the last settings it was given (clamped or ignored values).
    notices = traitlets.List(traitlets.Unicode(), read_only=True)

    locals().update(_key_traits())

    def __init__(self, view: str = "heatmap", show: str = "chart", site: str = "", **settings: Any):
        unknown = [k for k in settings if link.key_of(k) not in link.KEYS]
        if unknown:
            raise TypeError(
                f"Explorer() got settings the app's link does not have: {', '.join(unknown)}"
            )
        self._syncing = True
        super().__init__(view=view, show=show, _site=site, **settings)
        # Follow JupyterLab's light or dark theme unless told otherwise.
        if "theme" not in settings:
            self.theme = "host"
        self._figure: Figure | None = None
        self._results: dict[str, np.ndarray] | None = None
        self._png_waiting: dict[int, Path] = {}
        self._png_ids = itertools.count(1)
        self._syncing = False
        self._write_query()
        self.observe(self._on_setting, names=[n for n in self.trait_names() if n in _KEY_NAMES] + ["view", "show"])
        self.observe(self._on_query, names=["_query"])
        self.on_msg(self._on_msg)

    # State, both ways.

    def settings(self) -> dict[str, Any]:
        """Every setting of the link, by its Python name."""
        return {name: getattr(self, name) for name in _KEY_NAMES}

    def _write_query(self) -> None:
        values = {link.key_of(n): getattr(self, n) for n in _KEY_NAMES}
        self._query = link.query(values, self.view, self.show)

    def _on_setting(self, change) -> None:
        if not self._syncing:
            self._write_query()

    def _on_query(self, change) -> None:
        """The app's state changed (a slider moved): the traits follow, without writing back."""
        if self._syncing:
            return
        view, show, values = link.read(change["new"])
        self._syncing = True
        try:
            with self.hold_trait_notifications():
                if view in link.KEYS["view"]["choices"]:
                    self.view = view
                self.show = show
                for key, value in values.items():
                    name = link.trait_name(key)
                    old = getattr(self, name)
                    if old == value:
                        continue
                    # The app's value, as it holds it: already checked there (a range that
                    # depends on other settings is the app's to apply), so not checked again.
                    self._trait_values[name] = value
                    self._notify_trait(name, old, value)
        finally:
            self._syncing = False

    # Messages from the frame.

    def _on_msg(self, _widget, content: dict, buffers: list) -> None:
        kind = content.get("kind")
        if kind == "need-app":
            self.send({"kind": "app", "version": __version__}, buffers=[_app_bytes()])
        elif kind == "notices":
            said = [str(n) for n in content.get("notices", [])]
            self.set_trait("notices", said)
            for n in said:
                # In Jupyter a comm's warning goes to the log, not the cell: `w.notices` keeps it.
                warnings.warn(n, stacklevel=2)
        elif kind == "figure":
            if content.get("problem"):
                self._figure = Figure(content.get("name", ""), content.get("view", ""), content.get("query", ""))
                self._figure_problem = str(content["problem"])
            else:
                self._figure_problem = None
                self._figure = Figure(
                    name=content["name"],
                    view=content["view"],
                    link=content["query"],
                    columns=_columns(content["columns"], buffers),
                )
        elif kind == "results":
            self._results = _columns(content["columns"], buffers)
        elif kind == "png":
            path = self._png_waiting.pop(int(content.get("id", 0)), None)
            if path is not None and buffers:
                path.write_bytes(bytes(buffers[0]))
            elif path is not None:
                warnings.warn(f"The panel could not draw its PNG: {content.get('problem', 'no reason given')}", stacklevel=2)

    # What a student asks for.

    @property
    def link(self) -> str:
        """The app's link for the state on screen, as its Copy link writes it (on ``site``, when
        one was given)."""
        query = self._link
        return f"{self._site}?{query}" if query else (self._site or "?")

    def figure(self) -> Figure:
        """The numbers of the chart on screen, the same as its Download CSV.

        The panel sends them a moment after each change; right after a setting is changed from
        Python (in the same cell), the panel has not drawn it yet: call this in the next cell.
        """
        f = self._figure
        if f is None or f.link != self._query:
            raise RuntimeError(
                "The panel has not sent the numbers for these settings yet: it draws them when "
                "this cell has run. Call figure() again in the next cell."
            )
        if getattr(self, "_figure_problem", None):
            raise RuntimeError(f"This view's chart has no numbers to send: {self._figure_problem}.")
        return f

    def results(self) -> dict[str, np.ndarray]:
        """The Train view's held-out table, one array per column of its CSV (scheme, test_length,
        trained_length, accuracy, correct, counted, examples, note)."""
        if self._results is None:
            raise RuntimeError(
                "No results yet: open the Train view (view='train'), train (run=True or its Train "
                "button), and call results() once it has finished."
            )
        return self._results

    def export_png(self, path: str | Path) -> Path:
        """Asks the panel for its chart as a PNG (twice its size on screen, light colours, as its
        Download PNG); the file is written to ``path`` when the panel answers, a moment after
        this cell has run."""
        path = Path(path)
        ident = next(self._png_ids)
        self._png_waiting[ident] = path
        self.send({"kind": "png", "id": ident})
        return path


_KEY_NAMES = [link.trait_name(k) for k in link.KEYS if k != "view"]
