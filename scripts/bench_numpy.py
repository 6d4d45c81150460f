"""NumPy's side of the side-by-side benchmark (run by tests/e2e/bench.mjs; prints JSON).

compute: the paper's sinusoidal matrix, vectorised the way tutorials write it.
heatmap: what a slider move costs in a notebook: recompute the matrix, hand it to an existing
matplotlib imshow, and render the figure (Agg) at the size the app's chart has.
"""

import json
import sys
import time

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def encoding(length, d_model, base=10000.0):
    position = np.arange(length, dtype=np.float64)[:, None]
    div = base ** (-np.arange(0, d_model, 2, dtype=np.float64) / d_model)
    pe = np.zeros((length, d_model))
    pe[:, 0::2] = np.sin(position * div)
    pe[:, 1::2] = np.cos(position * div[: d_model // 2])
    return pe


def median_ms(run, repeats):
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        run()
        times.append((time.perf_counter() - t0) * 1000.0)
    times.sort()
    return times[len(times) // 2]


def main():
    sizes = [tuple(map(int, s.split("x"))) for s in sys.argv[1].split(",")]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 7
    out = {"numpy": np.__version__, "matplotlib": matplotlib.__version__, "compute": {}, "heatmap": {}}
    for length, d in sizes:
        encoding(length, d)  # warm up
        out["compute"][f"{length}x{d}"] = median_ms(lambda: encoding(length, d), repeats)
        # A figure like the app's chart: about 680 × 420 CSS pixels at 100 dpi, colour bar.
        fig, ax = plt.subplots(figsize=(6.8, 4.2), dpi=100)
        image = ax.imshow(encoding(length, d), aspect="auto", cmap="RdBu_r", vmin=-1, vmax=1,
                          interpolation="antialiased")
        fig.colorbar(image)
        fig.canvas.draw()
        widths = [d - 2, d + 2]

        def update(k=[0]):
            k[0] += 1
            image.set_data(encoding(length, widths[k[0] % 2]))
            fig.canvas.draw()

        update()
        out["heatmap"][f"{length}x{d}"] = median_ms(update, repeats)
        plt.close(fig)
    print(json.dumps(out))


if __name__ == "__main__":
    main()
