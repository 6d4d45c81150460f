//! What the notebook widget's Python package (`python/`) knows of the link: every key, its
//! default, and what kind of value it takes, read off the link's own parser by asking it
//! (a value no parameter accepts tells a choice's words, a flag or a number's name; a huge
//! number tells the range; a half tells whole numbers), with the parser's answers to a set of
//! bad values, which the Python tests hold the package's own messages to. Written as JSON to
//! `python/src/pe_explorer/spec.json` by `cargo run --example link_spec`; `tests/link_spec.rs`
//! checks the file is current.

use crate::export::json_string as js;
use crate::format::plain;
use crate::url;

/// Keys the widget sets itself (what to show), not the app's settings.
pub const WIDGET_KEYS: [&str; 5] = ["embed", "controls", "show", "lms", "mastery"];

/// What kind of value a key takes, as far as the parser says.
#[derive(Clone, Debug, PartialEq)]
pub enum Kind {
    Choice(Vec<String>),
    Flag,
    Number {
        name: String,
        min: f64,
        max: f64,
        integer: bool,
        /// A comma-separated list of such numbers (anchors, dimensions, bases).
        list: bool,
        /// The range depends on other settings (a position on the length, a head on the
        /// heads): only the app can hold the value to it.
        dependent: bool,
    },
    /// Anything else (lists, sentences, vectors, configs): the app reads it.
    Text,
}

/// The link a probe of `key` is read in: the view it means something in.
fn context(key: &str) -> &'static str {
    match key {
        "lesson" => "view=lesson&",
        "question" | "exam" => "view=quiz&",
        _ => "",
    }
}

/// What the parser says of `key=value` (in `extra` settings first): the notices that name the
/// key.
pub fn notices(key: &str, value: &str, extra: &str) -> Vec<String> {
    let query = format!("{}{extra}{key}={}", context(key), url::encode(value));
    url::parse(&query)
        .notices
        .into_iter()
        .filter(|n| n.starts_with(&format!("{key}=")) || n.starts_with(&format!("{key}:")))
        .collect()
}

/// A probe no parameter accepts.
const NONSENSE: &str = "\u{2042}";

/// The range a number's note states: "… for NAME (MIN … MAX); using …".
fn range(note: &str) -> Option<(String, f64, f64)> {
    let (_, rest) = note.split_once(" is above the maximum for ")?;
    let (name, rest) = rest.split_once(" (")?;
    let (min, rest) = rest.split_once(" … ")?;
    let (max, _) = rest.split_once("); using")?;
    let number = |t: &str| t.replace('−', "-").parse::<f64>().ok();
    Some((name.to_string(), number(min)?, number(max)?))
}

/// Every number key at its largest, for telling which ranges depend on other settings.
fn widest(kinds: &[(String, Kind)]) -> String {
    kinds
        .iter()
        .filter_map(|(k, kind)| match kind {
            Kind::Number { max, .. } => Some(format!("{k}={}&", plain(*max))),
            _ => None,
        })
        .collect()
}

fn kind_alone(key: &str) -> Kind {
    let said = notices(key, NONSENSE, "").join(" ");
    if let Some((_, words)) = said.split_once(": not one of ") {
        // "…; kept the default." or, in the Train view's keys, "…; kept agent."
        let words = words.rsplit_once("; kept").map_or(words, |(w, _)| w);
        return Kind::Choice(words.split(", ").map(str::to_string).collect());
    }
    if said.ends_with(": expected 1 or 0; kept the default.") {
        return Kind::Flag;
    }
    if said.contains(" is not a number; ") {
        if let Some((name, min, max)) = notices(key, "1e300", "").first().and_then(|n| range(n)) {
            let half = if max - min >= 1.0 { min + 0.5 } else { min };
            let integer = notices(key, &plain(half), "")
                .iter()
                .any(|n| n.contains("takes whole numbers"));
            let two = format!("{},{}", plain(min), plain(max));
            let list = notices(key, &two, "").is_empty();
            return Kind::Number {
                name,
                min,
                max,
                integer,
                list,
                dependent: false,
            };
        }
    }
    Kind::Text
}

/// Every key the app reads, with its default and kind.
pub fn keys() -> Vec<(String, Option<String>, Kind)> {
    let mut kinds: Vec<(String, Kind)> = url::keys()
        .filter(|k| !WIDGET_KEYS.contains(k))
        .map(|k| (k.to_string(), kind_alone(k)))
        .collect();
    let wide = widest(&kinds);
    for (key, kind) in kinds.iter_mut() {
        if let Kind::Number { max, dependent, .. } = kind {
            let there = notices(key, "1e300", &wide)
                .first()
                .and_then(|n| range(n))
                .map(|(_, _, m)| m);
            *dependent = there != Some(*max);
        }
    }
    kinds
        .into_iter()
        .map(|(k, kind)| {
            let default = url::default_text(&k);
            (k, default, kind)
        })
        .collect()
}

/// The bad values each key is probed with for the Python tests.
pub fn probe_values(kind: &Kind) -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        "abc",
        " ",
        "1e300",
        "-1e300",
        "NaN",
        "x\u{0}y",
        "ｄｏｇ",
    ]
    .map(String::from)
    .into();
    v.push("w".repeat(40));
    if let Kind::Number { min, max, .. } = kind {
        v.extend([
            plain(min - 1.0),
            plain(max + 1.0),
            plain(max * 10.0),
            plain(min + 0.5),
            format!("{}", (min + max) / 2.0 + 0.25),
            " 12 ".into(),
            "1_000".into(),
            "10,000".into(),
        ]);
    }
    v
}

/// A JSON number (every number here is finite).
fn jn(v: f64) -> String {
    if v.fract() == 0.0 && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:?}")
    }
}

/// The whole file.
pub fn json() -> String {
    let keys = keys();
    let mut out = String::from("{\n  \"keys\": [\n");
    let lines: Vec<String> = keys
        .iter()
        .map(|(k, default, kind)| {
            let default = default.as_deref().map_or("null".to_string(), js);
            let kind = match kind {
                Kind::Choice(words) => format!(
                    "\"kind\": \"choice\", \"choices\": [{}]",
                    words.iter().map(|w| js(w)).collect::<Vec<_>>().join(", ")
                ),
                Kind::Flag => "\"kind\": \"flag\"".into(),
                Kind::Number {
                    name,
                    min,
                    max,
                    integer,
                    list,
                    dependent,
                } => format!(
                    "\"kind\": \"number\", \"name\": {}, \"min\": {}, \"max\": {}, \"integer\": {integer}, \"list\": {list}, \"dependent\": {dependent}",
                    js(name),
                    jn(*min),
                    jn(*max)
                ),
                Kind::Text => "\"kind\": \"text\"".into(),
            };
            format!("    {{\"key\": {}, \"default\": {default}, {kind}}}", js(k))
        })
        .collect();
    out.push_str(&lines.join(",\n"));
    out.push_str("\n  ],\n  \"probes\": [\n");
    let mut probes = Vec::new();
    for (k, _, kind) in &keys {
        for v in probe_values(kind) {
            let said = notices(k, &v, "");
            probes.push(format!(
                "    {{\"key\": {}, \"value\": {}, \"notices\": [{}]}}",
                js(k),
                js(&v),
                said.iter().map(|n| js(n)).collect::<Vec<_>>().join(", ")
            ));
        }
    }
    out.push_str(&probes.join(",\n"));
    out.push_str("\n  ]\n}\n");
    out
}
