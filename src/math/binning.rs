//! Block averages for drawing a large matrix on a small canvas.
//!
//! When a canvas pixel covers several positions, the heatmap shows their mean instead of picking
//! one of them (which would alias high frequencies into false patterns). For a wave the mean over
//! a run of positions has a closed form, so a pixel costs the same whatever it covers.

use std::ops::Range;

use super::sinusoidal::Wave;

/// A split of the indices `start..end` into consecutive bins of `stride` items; the last bin
/// may be shorter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bins {
    pub start: usize,
    pub end: usize,
    pub stride: usize,
}

impl Bins {
    /// The smallest uniform stride that fits `start..end` into at most `max_bins` bins.
    pub fn fit(start: usize, end: usize, max_bins: usize) -> Bins {
        let len = end.saturating_sub(start);
        let stride = len.div_ceil(max_bins.max(1)).max(1);
        Bins {
            start,
            end: start + len,
            stride,
        }
    }

    /// One bin per index.
    pub fn each(start: usize, end: usize) -> Bins {
        Bins::fit(start, end, usize::MAX)
    }

    pub fn count(&self) -> usize {
        (self.end - self.start).div_ceil(self.stride)
    }

    /// The indices bin `k` covers.
    pub fn range(&self, k: usize) -> Range<usize> {
        let lo = self.start + k * self.stride;
        lo..(lo + self.stride).min(self.end)
    }

    /// The bin holding `index`, if it is inside.
    pub fn bin_of(&self, index: usize) -> Option<usize> {
        (self.start..self.end)
            .contains(&index)
            .then(|| (index - self.start) / self.stride)
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

/// Adds to `out[k]` the mean of `wave(p·ω)` over the positions of bin `k`, for every bin.
pub fn add_wave_means(wave: Wave, omega: f64, bins: &Bins, out: &mut [f64]) {
    if wave == Wave::Zero {
        return;
    }
    let count = bins.count().min(out.len());
    let stride = bins.stride;
    let full = mean_phasor(omega, stride);
    let step = Complex::polar(stride as f64 * omega);
    let mut phase = Complex::polar(0.0);
    for (k, slot) in out.iter_mut().enumerate().take(count) {
        if k % REANCHOR == 0 {
            phase = Complex::polar((bins.start + k * stride) as f64 * omega);
        }
        let len = bins.range(k).len();
        let mean = if len == stride {
            phase.mul(full)
        } else {
            phase.mul(mean_phasor(omega, len))
        };
        *slot += match wave {
            Wave::Sin => mean.im,
            Wave::Cos => mean.re,
            Wave::Zero => 0.0,
        };
        phase = phase.mul(step);
    }
}
