//! Numeric settings: the range each is held to, how typed text becomes a value inside it, and
//! the stops of its slider. Pure (no web dependency): the app's controls, its link parser and
//! the trainer's settings all read values through these.

use crate::format::plain as fmt;

/// The allowed range of one numeric setting, and how typed text becomes a value inside it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limit {
    /// The name users see (and that the controls' accessible names contain).
    pub name: &'static str,
    pub min: f64,
    pub max: f64,
    /// Whole numbers only.
    pub integer: bool,
    /// A logarithmic slider (for sizes spanning decades); linear otherwise.
    pub log: bool,
}

/// A value that was accepted, and what was done to it on the way in.
#[derive(Clone, Debug, PartialEq)]
pub struct Accepted<T = f64> {
    pub value: T,
    /// A plain sentence when the value had to be rounded or clamped.
    pub note: Option<String>,
}

impl Limit {
    /// Rounds (for whole-number settings) and clamps a number, saying what changed.
    pub fn accept(&self, value: f64) -> Accepted {
        if value.is_nan() {
            return Accepted {
                value: self.min,
                note: Some(format!(
                    "{} must be a number; using {}.",
                    self.name,
                    fmt(self.min)
                )),
            };
        }
        let rounded = if self.integer { value.round() } else { value };
        let clamped = rounded.clamp(self.min, self.max);
        let note = if clamped != rounded {
            let side = if rounded > self.max {
                "above the maximum"
            } else {
                "below the minimum"
            };
            Some(format!(
                "{} is {side} for {} ({} … {}); using {}.",
                fmt(value),
                self.name,
                fmt(self.min),
                fmt(self.max),
                fmt(clamped)
            ))
        } else if rounded != value {
            Some(format!(
                "{} takes whole numbers; rounded {} to {}.",
                self.name,
                fmt(value),
                fmt(rounded)
            ))
        } else {
            None
        };
        Accepted {
            value: clamped,
            note,
        }
    }

    /// Reads typed text. Text that is not a number is refused with a message saying so; numbers
    /// are accepted through [`Limit::accept`]. Thousands separators ("10,000") and spaces are fine.
    pub fn parse(&self, text: &str) -> Result<Accepted, String> {
        let cleaned: String = text
            .trim()
            .chars()
            .filter(|c| !c.is_whitespace() && *c != '_')
            .collect();
        let shown = crate::format::quoted(text.trim());
        if cleaned.is_empty() {
            return Err(format!("Type a number for {}.", self.name));
        }
        let digits = if looks_grouped(&cleaned) {
            cleaned.replace(',', "")
        } else {
            cleaned
        };
        match digits.parse::<f64>() {
            Ok(v) if v.is_finite() => Ok(self.accept(v)),
            // "1e400" is a number too large for f64, not a word: clamp it like any other.
            Ok(v) if v.is_infinite() && digits.chars().any(|c| c.is_ascii_digit()) => {
                let value = if v > 0.0 { self.max } else { self.min };
                let side = if v > 0.0 {
                    "above the maximum"
                } else {
                    "below the minimum"
                };
                Ok(Accepted {
                    value,
                    note: Some(format!(
                        "{shown} is {side} for {} ({} … {}); using {}.",
                        self.name,
                        fmt(self.min),
                        fmt(self.max),
                        fmt(value)
                    )),
                })
            }
            _ => Err(format!(
                "“{shown}” is not a number; {} is unchanged.",
                self.name
            )),
        }
    }

    /// Position in [0, 1] of a value on this setting's logarithmic slider.
    pub fn to_slider(&self, value: f64) -> f64 {
        let v = value.clamp(self.min, self.max);
        let f = if self.log {
            (v.ln() - self.min.ln()) / (self.max.ln() - self.min.ln())
        } else {
            (v - self.min) / (self.max - self.min)
        };
        if f.is_finite() {
            f.clamp(0.0, 1.0)
        } else {
            0.0
        }
    }

    /// A whole-number setting from `min` to `max` with a linear slider (positions, offsets).
    pub fn linear(name: &'static str, min: f64, max: f64) -> Limit {
        Limit {
            name,
            min,
            max: max.max(min),
            integer: true,
            log: false,
        }
    }

    /// A real number from `min` to `max`, with a logarithmic slider when `log`.
    pub const fn real(name: &'static str, min: f64, max: f64, log: bool) -> Limit {
        Limit {
            name,
            min,
            max,
            integer: false,
            log,
        }
    }

    /// The value at slider position `t` in [0, 1], snapped to what the number field can show:
    /// whole numbers, or three significant digits for the base.
    pub fn from_slider(&self, t: f64) -> f64 {
        let t = if t.is_finite() {
            t.clamp(0.0, 1.0)
        } else {
            0.0
        };
        let raw = if self.log {
            (self.min.ln() + t * (self.max.ln() - self.min.ln())).exp()
        } else {
            self.min + t * (self.max - self.min)
        };
        let snapped = if self.integer {
            raw.round()
        } else {
            round_significant(raw, 3)
        };
        snapped.clamp(self.min, self.max)
    }
}

/// Positions along a logarithmic slider.
pub const SLIDER_STEPS: usize = 1000;

impl Limit {
    /// The distinct values the slider can land on, smallest first. Each position of the range
    /// input is one stop, so every arrow-key press and every drag step changes the value (a plain
    /// logarithmic track would round several positions to the same small integer).
    pub fn stops(&self) -> Vec<f64> {
        let mut stops: Vec<f64> = (0..=SLIDER_STEPS)
            .map(|k| self.from_slider(k as f64 / SLIDER_STEPS as f64))
            .collect();
        stops.dedup();
        stops
    }
}

/// The index of the stop nearest to `value` (on a logarithmic scale when the stops are all
/// positive).
pub fn nearest_stop(stops: &[f64], value: f64) -> usize {
    let i = stops.partition_point(|s| *s < value);
    if i == 0 {
        return 0;
    }
    if i >= stops.len() {
        return stops.len().saturating_sub(1);
    }
    let (lo, hi) = (stops[i - 1], stops[i]);
    let closer_to_lo = if lo > 0.0 {
        value.ln() - lo.ln() <= hi.ln() - value.ln()
    } else {
        value - lo <= hi - value
    };
    if closer_to_lo {
        i - 1
    } else {
        i
    }
}

/// "10,000" or "1,234,567.5": comma groups of three digits, read as thousands separators.
fn looks_grouped(s: &str) -> bool {
    let unsigned = s.strip_prefix(['-', '+']).unwrap_or(s);
    let whole = unsigned.split('.').next().unwrap_or("");
    let mut groups = whole.split(',');
    let first = groups.next().unwrap_or("");
    whole.contains(',')
        && (1..=3).contains(&first.len())
        && first.chars().all(|c| c.is_ascii_digit())
        && groups.all(|g| g.len() == 3 && g.chars().all(|c| c.is_ascii_digit()))
}

/// Rounds to `digits` significant digits.
pub fn round_significant(v: f64, digits: i32) -> f64 {
    if v == 0.0 || !v.is_finite() {
        return v;
    }
    let scale = 10f64.powi(digits - 1 - v.abs().log10().floor() as i32);
    (v * scale).round() / scale
}

/// Reads a list of numbers separated by commas or spaces, each accepted through `limit`, at
/// most `max_items` of them. Returns the values and a note when anything was changed.
pub fn parse_list(
    text: &str,
    limit: Limit,
    max_items: usize,
) -> Result<Accepted<Vec<f64>>, String> {
    let parts: Vec<&str> = text
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(format!("Type at least one {}.", limit.name));
    }
    let mut notes = Vec::new();
    if parts.len() > max_items {
        notes.push(format!(
            "Only the first {max_items} of {} values are used.",
            parts.len()
        ));
    }
    let mut values = Vec::new();
    for part in parts.iter().take(max_items) {
        let accepted = limit.parse(part)?;
        if let Some(n) = accepted.note {
            notes.push(n);
        }
        if !values.contains(&accepted.value) {
            values.push(accepted.value);
        }
    }
    Ok(Accepted {
        value: values,
        note: (!notes.is_empty()).then(|| notes.join(" ")),
    })
}

// The app's settings.

pub const D_MODEL: Limit = Limit {
    name: "d_model",
    min: 2.0,
    max: 4096.0,
    integer: true,
    log: true,
};

pub const LENGTH: Limit = Limit {
    name: "length",
    min: 1.0,
    max: 65_536.0,
    integer: true,
    log: true,
};

/// Up to 10⁸: Qwen2.5-1M's θ is 10⁷, Llama 3's 500,000.
pub const BASE: Limit = Limit {
    name: "base",
    min: 10.0,
    max: 100_000_000.0,
    integer: false,
    log: true,
};

/// Up to 2²⁰ = 1,048,576 (Qwen2.5-1M's 1,010,000; Llama 4's and Phi-3's originals are far
/// shorter). Also the learned table's max_len: the table is drawn cell by cell from a seed,
/// never stored, so only the rows shown are ever computed.
pub const TRAINED_LENGTH: Limit = Limit {
    name: "trained length",
    min: 1.0,
    max: 1_048_576.0,
    integer: true,
    log: true,
};

pub const SEED: Limit = Limit {
    name: "seed",
    min: 0.0,
    max: 9_999.0,
    integer: true,
    log: false,
};

pub const ALIBI_HEADS: Limit = Limit {
    name: "heads",
    min: 1.0,
    max: 64.0,
    integer: true,
    log: false,
};

pub const T5_BUCKETS: Limit = Limit {
    name: "buckets",
    min: 2.0,
    max: 128.0,
    integer: true,
    log: false,
};

pub const T5_MAX_DISTANCE: Limit = Limit {
    name: "max distance",
    min: 1.0,
    max: 65_536.0,
    integer: true,
    log: true,
};

/// fairseq's `padding_idx` for the t2t variant: the table row that is all zeros, the first
/// token's row being the one after it.
pub const PADDING_IDX: Limit = Limit {
    name: "padding_idx",
    min: 0.0,
    max: 1024.0,
    integer: true,
    log: false,
};

// Typed vectors (RoPE's "check your own numbers": a query and a key).

/// The largest magnitude a typed vector entry may have.
pub const VECTOR_MAX_ABS: f64 = 1e6;
/// The most entries a typed vector keeps (the widest d_model).
pub const VECTOR_MAX_LEN: usize = 4096;
/// The longest text read as a vector (4,096 numbers at full precision fit many times over).
pub const VECTOR_MAX_TEXT: usize = 500_000;

/// Whether every entry is a finite number of magnitude at most [`VECTOR_MAX_ABS`], and there
/// are between 1 and [`VECTOR_MAX_LEN`] of them.
pub fn vector_is_valid(values: &[f64]) -> bool {
    (1..=VECTOR_MAX_LEN).contains(&values.len())
        && values
            .iter()
            .all(|v| v.is_finite() && v.abs() <= VECTOR_MAX_ABS)
}

/// Reads a typed vector ("0.1, -2, 3e-1", "[0.1 -2 0.3]"): numbers separated by commas, spaces
/// or semicolons, optionally inside one pair of brackets; the minus sign "−" is read as "-".
/// Refuses, with a plain sentence naming the first bad entry, anything that is not a finite
/// number of magnitude at most 10⁶, and an empty list. Keeps at most [`VECTOR_MAX_LEN`] numbers
/// (saying so); fitting the count to d_model is [`fit_vector`]'s job.
pub fn parse_vector(text: &str, name: &str) -> Result<Accepted<Vec<f64>>, String> {
    if text.len() > VECTOR_MAX_TEXT {
        return Err(format!(
            "{name}: the text is longer than {} characters; paste at most {} numbers. {name} is \
             unchanged.",
            crate::format::group_thousands(VECTOR_MAX_TEXT as u64),
            crate::format::group_thousands(VECTOR_MAX_LEN as u64)
        ));
    }
    let trimmed = text.trim();
    // A pasted Python list or tuple: one pair of brackets around everything.
    let inner = [('[', ']'), ('(', ')')]
        .into_iter()
        .find_map(|(open, close)| trimmed.strip_prefix(open)?.strip_suffix(close))
        .unwrap_or(trimmed);
    let parts: Vec<&str> = inner
        .split(|c: char| c == ',' || c == ';' || c.is_whitespace())
        .filter(|p| !p.is_empty())
        .collect();
    if parts.is_empty() {
        return Err(format!(
            "Type the numbers of {name}, separated by commas or spaces."
        ));
    }
    let shown = crate::format::quoted;
    let mut values = Vec::with_capacity(parts.len().min(VECTOR_MAX_LEN));
    for (i, part) in parts.iter().enumerate() {
        let ascii = part.replace('−', "-");
        let refuse = |why: &str| {
            Err(format!(
                "{name}: entry {} “{}” {why}; {name} is unchanged.",
                i + 1,
                shown(part)
            ))
        };
        match ascii.parse::<f64>() {
            // Rust reads "nan", "inf" and "infinity" as numbers: not values a model holds.
            Ok(v)
                if v.is_nan()
                    || (v.is_infinite() && !ascii.contains(|c: char| c.is_ascii_digit())) =>
            {
                return refuse("is not a finite number")
            }
            // "1e400" is a number, too large for f64.
            Ok(v) if v.is_infinite() || v.abs() > VECTOR_MAX_ABS => {
                return refuse("is too large (the limit is ±1,000,000)")
            }
            Ok(v) => {
                if values.len() < VECTOR_MAX_LEN {
                    // −0 and 0 are the same entry.
                    values.push(v + 0.0);
                }
            }
            Err(_) => return refuse("is not a number"),
        }
    }
    let note = (parts.len() > VECTOR_MAX_LEN).then(|| {
        format!(
            "{name}: {} numbers typed; only the first {} are kept.",
            crate::format::group_thousands(parts.len() as u64),
            crate::format::group_thousands(VECTOR_MAX_LEN as u64)
        )
    });
    Ok(Accepted {
        value: values,
        note,
    })
}

/// `values` made exactly `d_model` long: padded with zeros or cut, with a sentence saying which.
pub fn fit_vector(values: &[f64], d_model: usize, name: &str) -> Accepted<Vec<f64>> {
    let n = values.len();
    let mut out: Vec<f64> = values.iter().copied().take(d_model).collect();
    out.resize(d_model, 0.0);
    let note = match n.cmp(&d_model) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(format!(
            "{name} has {n} {} but d_model is {d_model}: the last {} {} set to 0.",
            if n == 1 { "number" } else { "numbers" },
            d_model - n,
            if d_model - n == 1 {
                "dimension is"
            } else {
                "dimensions are"
            }
        )),
        std::cmp::Ordering::Greater => Some(format!(
            "{name} has {n} numbers but d_model is {d_model}: only the first {d_model} are used, \
             the last {} ignored.",
            n - d_model
        )),
    };
    Accepted { value: out, note }
}

/// A vector as text that [`parse_vector`] reads back to exactly the same numbers: each entry's
/// shortest round-trip form ("1", "-0.25", "1e-7"), joined by `separator` (", " in a field, ","
/// in a link).
pub fn vector_to_text(values: &[f64], separator: &str) -> String {
    values
        .iter()
        .map(|v| {
            let s = format!("{v:?}");
            match s.strip_suffix(".0") {
                Some(whole) => whole.to_string(),
                None => s,
            }
        })
        .collect::<Vec<_>>()
        .join(separator)
}

/// Rows of the image patch grid (a 1,024-px image in 16-px patches has 64).
pub const GRID_ROWS: Limit = Limit {
    name: "grid rows",
    min: 1.0,
    max: 64.0,
    integer: true,
    log: false,
};

/// Columns of the image patch grid.
pub const GRID_COLS: Limit = Limit {
    name: "grid columns",
    min: 1.0,
    max: 64.0,
    integer: true,
    log: false,
};

/// The side of the square grid a learned 2-D table was trained on.
pub const GRID_TRAINED: Limit = Limit {
    name: "trained grid side",
    min: 1.0,
    max: 64.0,
    integer: true,
    log: false,
};

/// Frames of the video in the M-RoPE sequence (0: no video).
pub const FRAMES: Limit = Limit {
    name: "video frames",
    min: 0.0,
    max: 16.0,
    integer: true,
    log: false,
};

/// The head whose mixed 2-D RoPE frequencies are drawn (RoPE-ViT draws one angle per head).
pub const GRID_HEAD: Limit = Limit {
    name: "head",
    min: 0.0,
    max: 15.0,
    integer: true,
    log: false,
};
