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

/// A duration as people say it, as precise as matters at its size: "under a second", "7 s",
/// "45 s", "3 min 20 s", "25 min", "2 h 10 min", "14 h", "3 days 4 h". Callers say "about"
/// where it is an estimate.
pub fn duration(seconds: f64) -> String {
    if !seconds.is_finite() || seconds < 0.0 {
        return "an unknown time".into();
    }
    if seconds < 1.0 {
        return "under a second".into();
    }
    let step = match seconds {
        s if s < 10.0 => 1.0,
        s if s < 60.0 => 5.0,
        s if s < 600.0 => 10.0,
        s if s < 3600.0 => 60.0,
        s if s < 36_000.0 => 600.0,
        s if s < 172_800.0 => 3600.0,
        _ => 3600.0,
    };
    let r = ((seconds / step).round() * step).min(1e12) as u64;
    let (days, hours, minutes, secs) = (r / 86_400, r % 86_400 / 3600, r % 3600 / 60, r % 60);
    let unit = |n: u64, u: &str| (n > 0).then(|| format!("{n} {u}"));
    let parts: Vec<String> = if r < 60 {
        vec![format!("{r} s")]
    } else if r < 3600 {
        [unit(minutes, "min"), unit(secs, "s")]
            .into_iter()
            .flatten()
            .collect()
    } else if r < 172_800 {
        [unit(r / 3600, "h"), unit(minutes, "min")]
            .into_iter()
            .flatten()
            .collect()
    } else {
        [unit(days, "days"), unit(hours, "h")]
            .into_iter()
            .flatten()
            .collect()
    };
    parts.join(" ")
}

/// Items as a sentence lists them: "a", "a and b", "a, b and c" (`None` for no item).
pub fn and_list<S: AsRef<str>>(items: &[S]) -> Option<String> {
    let (last, rest) = items.split_last()?;
    let last = last.as_ref();
    Some(if rest.is_empty() {
        last.to_string()
    } else {
        let rest: Vec<&str> = rest.iter().map(AsRef::as_ref).collect();
        format!("{} and {last}", rest.join(", "))
    })
}

/// Text from a user or a link as a message quotes it: its first 24 characters, control
/// characters written as escapes (`agent\u0000`, so that nothing is dropped without a trace),
/// and "…" when there was more. The one place every notice quotes such text.
pub fn quoted(value: &str) -> String {
    let head: String = value.chars().take(24).collect();
    let mut s = escape_controls(&head);
    if value.chars().nth(24).is_some() {
        s.push('…');
    }
    s
}

/// Control characters written as escapes (`\u0000`); everything else as it is.
pub fn escape_controls(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() {
            s.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            s.push(c);
        }
    }
    s
}
