//! The inner loops of the offset and similarity computations, over arrays of pairs: a sum, a
//! two-term dot product, and one rotation step. In the browser they use 128-bit SIMD (two f64
//! lanes); elsewhere, four independent partial sums so additions do not wait on each other.
//! Both versions are tested against straightforward sums.

/// Σ x.
pub fn sum(x: &[f64]) -> f64 {
    imp::sum(x)
}

/// Σ (a·b + c·d).
pub fn dot2(a: &[f64], b: &[f64], c: &[f64], d: &[f64]) -> f64 {
    let n = a.len().min(b.len()).min(c.len()).min(d.len());
    imp::dot2(&a[..n], &b[..n], &c[..n], &d[..n])
}

/// (re, im) ← (re, im) · (cos, sin), element by element: every phasor turns by its own angle.
pub fn rotate(re: &mut [f64], im: &mut [f64], cos: &[f64], sin: &[f64]) {
    let n = re.len().min(im.len()).min(cos.len()).min(sin.len());
    imp::rotate(&mut re[..n], &mut im[..n], &cos[..n], &sin[..n]);
}

#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
mod imp {
    const LANES: usize = 4;

    pub fn sum(x: &[f64]) -> f64 {
        let mut acc = [0.0; LANES];
        let chunks = x.chunks_exact(LANES);
        let tail: f64 = chunks.remainder().iter().sum();
        for c in chunks {
            for l in 0..LANES {
                acc[l] += c[l];
            }
        }
        acc.iter().sum::<f64>() + tail
    }

    pub fn dot2(a: &[f64], b: &[f64], c: &[f64], d: &[f64]) -> f64 {
        let whole = a.len() - a.len() % LANES;
        let mut acc = [0.0; LANES];
        for (((a, b), c), d) in a[..whole]
            .chunks_exact(LANES)
            .zip(b[..whole].chunks_exact(LANES))
            .zip(c[..whole].chunks_exact(LANES))
            .zip(d[..whole].chunks_exact(LANES))
        {
            for l in 0..LANES {
                acc[l] += a[l] * b[l] + c[l] * d[l];
            }
        }
        let tail: f64 = (whole..a.len()).map(|i| a[i] * b[i] + c[i] * d[i]).sum();
        acc.iter().sum::<f64>() + tail
    }

    pub fn rotate(re: &mut [f64], im: &mut [f64], cos: &[f64], sin: &[f64]) {
        for (((r, m), c), s) in re.iter_mut().zip(im.iter_mut()).zip(cos).zip(sin) {
            let (x, y) = (*r, *m);
            *r = x * c - y * s;
            *m = x * s + y * c;
        }
    }
}

#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
mod imp {
    use core::arch::wasm32::*;

    // Loads and stores go through `v128_load`/`v128_store` on pointers into slices whose
    // length was checked: each loop stops two elements before the end.

    fn load(x: &[f64], i: usize) -> v128 {
        debug_assert!(i + 2 <= x.len());
        // SAFETY: i + 2 <= x.len(); v128_load has no alignment requirement.
        unsafe { v128_load(x.as_ptr().add(i) as *const v128) }
    }

    fn store(x: &mut [f64], i: usize, v: v128) {
        debug_assert!(i + 2 <= x.len());
        // SAFETY: as for `load`.
        unsafe { v128_store(x.as_mut_ptr().add(i) as *mut v128, v) }
    }

    fn lanes(v: v128) -> f64 {
        f64x2_extract_lane::<0>(v) + f64x2_extract_lane::<1>(v)
    }

    pub fn sum(x: &[f64]) -> f64 {
        let whole = x.len() - x.len() % 4;
        let (mut a, mut b) = (f64x2_splat(0.0), f64x2_splat(0.0));
        for i in (0..whole).step_by(4) {
            a = f64x2_add(a, load(x, i));
            b = f64x2_add(b, load(x, i + 2));
        }
        lanes(f64x2_add(a, b)) + x[whole..].iter().sum::<f64>()
    }

    pub fn dot2(a: &[f64], b: &[f64], c: &[f64], d: &[f64]) -> f64 {
        let whole = a.len() - a.len() % 2;
        let mut acc = f64x2_splat(0.0);
        for i in (0..whole).step_by(2) {
            let ab = f64x2_mul(load(a, i), load(b, i));
            let cd = f64x2_mul(load(c, i), load(d, i));
            acc = f64x2_add(acc, f64x2_add(ab, cd));
        }
        let tail: f64 = (whole..a.len()).map(|i| a[i] * b[i] + c[i] * d[i]).sum();
        lanes(acc) + tail
    }

    pub fn rotate(re: &mut [f64], im: &mut [f64], cos: &[f64], sin: &[f64]) {
        let whole = re.len() - re.len() % 2;
        for i in (0..whole).step_by(2) {
            let (r, m) = (load(re, i), load(im, i));
            let (c, s) = (load(cos, i), load(sin, i));
            store(re, i, f64x2_sub(f64x2_mul(r, c), f64x2_mul(m, s)));
            store(im, i, f64x2_add(f64x2_mul(r, s), f64x2_mul(m, c)));
        }
        for i in whole..re.len() {
            let (x, y) = (re[i], im[i]);
            re[i] = x * cos[i] - y * sin[i];
            im[i] = x * sin[i] + y * cos[i];
        }
    }
}
