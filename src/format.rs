//! How numbers are written for people: in messages, readouts and file names.

/// A number as a person would write it: no exponent for ordinary sizes, at most six decimals,
/// no trailing zeros.
pub fn plain(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "∞".into()
        } else {
            "−∞".into()
        };
    }
    if v.abs() >= 1e15 || (v != 0.0 && v.abs() < 1e-4) {
        return format!("{v:e}");
    }
    let s = format!("{v:.6}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s == "-0" {
        "0".into()
    } else {
        s.into()
    }
}

/// `digits` significant digits, with an exponent only for very large or small magnitudes.
pub fn significant(v: f64, digits: usize) -> String {
    if !v.is_finite() {
        return plain(v);
    }
    if v == 0.0 {
        return "0".into();
    }
    let exponent = v.abs().log10().floor() as i32;
    if (-5..9).contains(&exponent) {
        let decimals = (digits as i32 - 1 - exponent).max(0) as usize;
        format!("{v:.decimals$}")
    } else {
        format!("{v:.prec$e}", prec = digits.saturating_sub(1))
    }
}

/// A large quantity as a whole number with separators below 10¹⁵, else with an exponent:
/// 61711.9 → "61,712"; 6.2e12 → "6,200,000,000,000".
pub fn large(v: f64) -> String {
    if (1e4..1e15).contains(&v) {
        group_thousands(v.round() as u64)
    } else {
        significant(v, 4)
    }
}

/// 4194304 → "4,194,304".
pub fn group_thousands(n: impl Into<u64>) -> String {
    let n: u64 = n.into();
    let digits = n.to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(ch);
    }
    out
}

/// A file-name-safe rendering of a number: 10000 → "10000", −2.5 → "m2.5".
pub fn file_number(v: f64) -> String {
    plain(v).replace(['−', '-'], "m")
}
