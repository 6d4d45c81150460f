# The Positional Encoding Explorer in marimo: `marimo edit positional_encoding_marimo.py`.
# The panel is the same widget as in Jupyter (mo.ui.anywidget wraps it), and marimo's cells follow
# it: move the panel's base slider and the text below changes; move marimo's slider and the panel
# redraws.
import marimo

app = marimo.App()


@app.cell
def _():
    import marimo as mo
    import numpy as np
    from pe_explorer import Explorer

    return Explorer, mo, np


@app.cell
def _(Explorer, mo):
    # The widget itself, and marimo's wrapper, whose value changes when the panel's does.
    panel = Explorer(view="offsets", d_model=64, length=100)
    explorer = mo.ui.anywidget(panel)
    explorer
    return explorer, panel


@app.cell
def _(explorer, mo, np):
    w = explorer.widget
    omega = w.base ** (-np.arange(0, w.d_model, 2) / w.d_model)
    peak = np.cos(np.outer(np.arange(1, 20), omega)).sum(axis=1)
    mo.md(
        f"The panel's base is **{w.base:g}** (d_model {w.d_model}). NumPy's closed form "
        f"Σ cos(k·ωᵢ) at k = 1 … 3: {', '.join(f'{v:.4f}' for v in peak[:3])}."
    )
    return


@app.cell
def _(mo):
    base = mo.ui.slider(100, 100000, step=100, value=10000, label="base, set from Python")
    base
    return (base,)


@app.cell
def _(base, panel):
    # Depends on marimo's slider only: the panel's own moves do not run it.
    panel.base = base.value
    return


if __name__ == "__main__":
    app.run()
