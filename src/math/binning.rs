//! Block averages for drawing a large matrix on a small canvas.
//!
//! When a canvas pixel covers several positions, the heatmap shows their mean instead of picking
//! one of them (which would alias high frequencies into false patterns). For a wave the mean over
//! a run of positions has a closed form, so a pixel costs the same whatever it covers.

use std::ops::Range;

/// How [`Bins`] cut their range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Cut {
    /// `count` bins whose sizes differ by at most one: bin k starts at ⌊k·len/count⌋. With one
    /// bin per canvas pixel the image lands on the canvas without resampling.
    Even { count: usize },
    /// Bins of exactly `stride` indices (the last may be shorter), for data whose neighbouring
    /// indices are not alike: averaging an interleaved sine with its cosine in some pixels but
    /// not in others would draw stripes that are not in the data.
    Stride(usize),
}

/// A split of the indices `start..end` into consecutive bins, each drawn as one pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bins {
    pub start: usize,
    pub end: usize,
    cut: Cut,
}

impl Bins {
    /// At most `max_bins` bins: one per index when they fit, otherwise exactly `max_bins`.
    pub fn fit(start: usize, end: usize, max_bins: usize) -> Bins {
        let end = end.max(start);
        let count = (end - start).min(max_bins.max(1));
        Bins {
            start,
            end,
            cut: Cut::Even { count },
        }
    }

    /// At most `max_bins` bins of one uniform size that is a multiple of `group`; one per index
    /// when they fit.
    pub fn grouped(start: usize, end: usize, max_bins: usize, group: usize) -> Bins {
        let end = end.max(start);
        let len = end - start;
        let max_bins = max_bins.max(1);
        if len <= max_bins {
            return Bins::fit(start, end, max_bins);
        }
        let group = group.max(1);
        let stride = len.div_ceil(max_bins).div_ceil(group) * group;
        Bins {
            start,
            end,
            cut: Cut::Stride(stride),
        }
    }

    /// One bin per index.
    pub fn each(start: usize, end: usize) -> Bins {
        Bins::fit(start, end, usize::MAX)
    }

    pub fn count(&self) -> usize {
        match self.cut {
            Cut::Even { count } => count,
            Cut::Stride(s) => self.len().div_ceil(s),
        }
    }

    fn len(&self) -> usize {
        self.end - self.start
    }

    fn edge(&self, k: usize) -> usize {
        match self.cut {
            // u128: the product must not wrap whatever the sizes.
            Cut::Even { count } => {
                self.start + (k as u128 * self.len() as u128 / count.max(1) as u128) as usize
            }
            Cut::Stride(s) => (self.start + k * s).min(self.end),
        }
    }

    /// The indices bin `k` covers.
    pub fn range(&self, k: usize) -> Range<usize> {
        self.edge(k)..self.edge(k + 1)
    }

    /// How many indices the bins would span if the last one were full; the image of the bins
    /// is this wide in index units.
    pub fn span(&self) -> usize {
        match self.cut {
            Cut::Even { .. } => self.len(),
            Cut::Stride(s) => self.count() * s,
        }
    }

    /// The smallest and largest number of indices in a bin.
    pub fn sizes(&self) -> (usize, usize) {
        let len = self.len();
        match self.cut {
            Cut::Even { count: 0 } => (0, 0),
            Cut::Even { count } => (len / count, len.div_ceil(count)),
            Cut::Stride(s) if len % s == 0 => (s, s),
            Cut::Stride(s) => (len % s, s),
        }
    }

    /// The bin holding `index`, if it is inside.
    pub fn bin_of(&self, index: usize) -> Option<usize> {
        if !(self.start..self.end).contains(&index) {
            return None;
        }
        let j = index - self.start;
        Some(match self.cut {
            Cut::Even { count } => {
                (((j as u128 + 1) * count as u128 - 1) / self.len() as u128) as usize
            }
            Cut::Stride(s) => j / s,
        })
    }
}

#[derive(Clone, Copy, Debug)]
struct Complex {
    re: f64,
    im: f64,
}

impl Complex {
    fn polar(angle: f64) -> Complex {
        Complex {
            re: angle.cos(),
            im: angle.sin(),
        }
    }

    fn mul(self, o: Complex) -> Complex {
        Complex {
            re: self.re * o.re - self.im * o.im,
            im: self.re * o.im + self.im * o.re,
        }
    }

    fn scale(self, s: f64) -> Complex {
        Complex {
            re: self.re * s,
            im: self.im * s,
        }
    }
}

/// Mean of e^{i·j·ω} over j = 0..n: e^{i(n−1)ω/2} · sin(nω/2) / (n·sin(ω/2)).
fn mean_phasor(omega: f64, n: usize) -> Complex {
    let half = 0.5 * omega;
    let denominator = n as f64 * half.sin();
    let ratio = if denominator.abs() < 1e-300 {
        1.0
    } else {
        (n as f64 * half).sin() / denominator
    };
    Complex::polar((n as f64 - 1.0) * half).scale(ratio)
}

/// How many bins the rotation recurrence runs before it is re-anchored with an exact sin/cos,
/// which keeps its error near 1e-14 at any length.
const REANCHOR: usize = 32;

/// Calls `each(k, (re, im))` with the mean of e^(i·p·ω) over the positions of bin `k`, for
/// every bin up to `count`: the mean of cos(p·ω) is `re`, that of sin(p·ω) is `im`.
pub fn for_each_mean_phasor(
    omega: f64,
    bins: &Bins,
    count: usize,
    mut each: impl FnMut(usize, (f64, f64)),
) {
    let count = bins.count().min(count);
    // Every bin holds one of two sizes: two rotations and two mean phasors cover them all.
    let (small, large) = bins.sizes();
    let means = [mean_phasor(omega, small), mean_phasor(omega, large)];
    let steps = [
        Complex::polar(small as f64 * omega),
        Complex::polar(large as f64 * omega),
    ];
    let mut phase = Complex::polar(0.0);
    for k in 0..count {
        let range = bins.range(k);
        if k % REANCHOR == 0 {
            phase = Complex::polar(range.start as f64 * omega);
        }
        let which = usize::from(range.len() == large);
        let mean = phase.mul(means[which]);
        each(k, (mean.re, mean.im));
        phase = phase.mul(steps[which]);
    }
}
