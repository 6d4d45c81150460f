"""The Positional Encoding Explorer as a notebook widget.

>>> from pe_explorer import Explorer
>>> w = Explorer(view="offsets", scheme="rope", d_model=64)
>>> w                       # the chart and its controls, in the output cell
>>> w.base = 500_000        # the chart follows
>>> w.figure()["offset"]    # the chart's numbers, as its CSV, as NumPy arrays
"""

from .widget import Explorer, Figure, __version__

__all__ = ["Explorer", "Figure", "__version__"]
