//! The query string as the app's public interface: every setting as a named parameter, parsed
//! through the same checks as the controls, and written back with only the non-default values.
//!
//! Parsing never fails: unknown parameters are ignored and out-of-range or unreadable values
//! fall back to a clamped or default value, each with a plain notice naming what changed.

use std::rc::Rc;

use yew::Reducible;

use crate::action::Action;
use crate::format::plain;
use crate::math::attention::parse_sentence;
use crate::math::rope::RopePairing;
use crate::math::rotation::Pairing;
use crate::math::scheme::Scheme;
use crate::math::sinusoidal::Variant;
use crate::plot::colormap::Palette;
use crate::state::{
    parse_list, Extension, Limit, OffsetSeries, Settings, ThemeChoice, View, ALIBI_HEADS, BASE,
    BETA_FAST, BETA_SLOW, D_MODEL, HIGH_FREQ, LENGTH, LOW_FREQ, MAX_ANCHORS, MAX_BASES, MAX_DIMS,
    MSCALE, MSCALE_ALL_DIM, ROPE_FACTOR, ROTARY_FRACTION, SEED, T5_BUCKETS, T5_MAX_DISTANCE,
    TRAINED_LENGTH,
};
use crate::train::settings::KEYS as TRAIN_KEYS;

/// Longest query string read; the rest is ignored (with a notice).
pub const MAX_QUERY: usize = 4096;

/// What the app shows when it is embedded in another page.
#[derive(Clone, Debug, PartialEq)]
pub struct Embed {
    /// The one view shown.
    pub view: View,
    /// Show the shared settings above the panel (`false` with `controls=none`).
    pub controls: bool,
}

/// The result of reading a query string.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub settings: Settings,
    pub embed: Option<Embed>,
    /// One sentence per parameter that was ignored or changed.
    pub notices: Vec<String>,
}

/// Decodes `%XX` escapes and `+` (a space); malformed escapes are kept as they are and invalid
/// UTF-8 becomes U+FFFD.
pub fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(b) => {
                        out.push(b);
                        i += 2;
                    }
                    None => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Percent-encodes a value for a query string (spaces as `+`; letters, digits, `-_.~,` kept).
pub fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b' ' => out.push('+'),
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b',' => {
                out.push(b as char)
            }
            _ => out.push_str(&format!("%{b:02X}")),
        }
    }
    out
}

/// How a value appears inside a notice: short, and never markup (the UI escapes text anyway).
fn shown(value: &str) -> String {
    let mut s: String = value.chars().filter(|c| !c.is_control()).take(24).collect();
    if value.chars().count() > 24 {
        s.push('…');
    }
    s
}

/// Parameters in the order they are applied (later ones are checked against earlier ones:
/// positions against the length, the ALiBi head against the head count).
const ORDER: &[&str] = &[
    "lesson",
    "scheme",
    "d_model",
    "length",
    "base",
    "variant",
    "palette",
    "theme",
    "view",
    "trained",
    "seed",
    "rope_pairing",
    "extension",
    "factor",
    "low_freq",
    "high_freq",
    "beta_fast",
    "beta_slow",
    "mscale",
    "mscale_all_dim",
    "rotary",
    "heads",
    "head",
    "buckets",
    "max_distance",
    "bidirectional",
    "anchors",
    "normalised",
    "compare",
    "bases",
    "dims",
    "p",
    "k",
    "pair",
    "pairing",
    "scaled",
    "a",
    "b",
    "position",
    "causal",
    "trace",
    "with",
    "question",
    // The Train view's experiment (after the sidebar's base, variant, pairing and buckets).
    "task",
    "schemes",
    "layers",
    "attn_heads",
    "width",
    "train_len",
    "steps",
    "lr",
    "train_seed",
    "run",
];

/// Parameters read elsewhere (embedding).
const OTHER: &[&str] = &["embed", "controls"];

fn flag(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "1" | "true" | "on" | "yes" => Ok(true),
        "0" | "false" | "off" | "no" => Ok(false),
        _ => Err(format!(
            "{key}={}: expected 1 or 0; kept the default.",
            shown(value)
        )),
    }
}

fn pick<T>(
    key: &str,
    value: &str,
    parse: fn(&str) -> Option<T>,
    names: &[&str],
) -> Result<T, String> {
    parse(value).ok_or_else(|| {
        format!(
            "{key}={}: not one of {}; kept the default.",
            shown(value),
            names.join(", ")
        )
    })
}

/// Reads one parameter into an action, with a note when the value had to change.
fn action(key: &str, value: &str, s: &Settings) -> Result<(Action, Option<String>), String> {
    let number = |limit: Limit, f: fn(f64) -> Action| -> Result<(Action, Option<String>), String> {
        let a = limit
            .parse(value)
            .map_err(|e| format!("{key}={}: {e}", shown(value)))?;
        Ok((
            f(a.value),
            a.note.map(|n| format!("{key}={}: {n}", shown(value))),
        ))
    };
    let list = |limit: Limit, max: usize| -> Result<(Vec<f64>, Option<String>), String> {
        let a =
            parse_list(value, limit, max).map_err(|e| format!("{key}={}: {e}", shown(value)))?;
        Ok((
            a.value,
            a.note.map(|n| format!("{key}={}: {n}", shown(value))),
        ))
    };
    let plain_action = |a: Action| Ok((a, None));
    match key {
        "view" => plain_action(Action::SetView(pick(
            key,
            value,
            View::from_id,
            &View::ALL.map(View::id),
        )?)),
        "scheme" => plain_action(Action::SetScheme(pick(
            key,
            value,
            Scheme::from_id,
            &Scheme::ALL.map(Scheme::id),
        )?)),
        "lesson" => {
            let steps = crate::learn::lesson::STEPS.len();
            Ok(match value.trim().parse::<usize>() {
                Ok(n) if (1..=steps).contains(&n) => (Action::GoToStep(n), None),
                Ok(n) if n > steps => (
                    Action::GoToStep(steps),
                    Some(format!(
                        "lesson={}: the lesson has {steps} steps; showing the last.",
                        shown(value)
                    )),
                ),
                _ => (
                    Action::GoToStep(1),
                    Some(format!(
                        "lesson={}: expected a step number from 1 to {steps}; showing step 1.",
                        shown(value)
                    )),
                ),
            })
        }
        "question" => {
            let total = crate::learn::quiz::QUESTIONS.len();
            match value.trim().parse::<usize>() {
                Ok(n) if (1..=total).contains(&n) => plain_action(Action::SetQuestion(n)),
                _ => Err(format!(
                    "question={}: expected a question number from 1 to {total}; showing question 1.",
                    shown(value)
                )),
            }
        }
        "with" => plain_action(Action::SetCompareWith(pick(
            key,
            value,
            Scheme::from_id,
            &Scheme::ALL.map(Scheme::id),
        )?)),
        "variant" => plain_action(Action::SetVariant(pick(
            key,
            value,
            Variant::from_id,
            &Variant::ALL.map(Variant::id),
        )?)),
        "palette" => plain_action(Action::SetPalette(pick(
            key,
            value,
            Palette::from_id,
            &Palette::ALL.map(Palette::id),
        )?)),
        "theme" => plain_action(Action::SetTheme(pick(
            key,
            value,
            ThemeChoice::from_id,
            &ThemeChoice::ALL.map(ThemeChoice::id),
        )?)),
        "rope_pairing" => plain_action(Action::SetRopePairing(pick(
            key,
            value,
            RopePairing::from_id,
            &RopePairing::ALL.map(RopePairing::id),
        )?)),
        "extension" => plain_action(Action::SetExtension(pick(
            key,
            value,
            Extension::from_id,
            &Extension::ALL.map(Extension::id),
        )?)),
        "pairing" => plain_action(Action::SetPairing(pick(
            key,
            value,
            Pairing::from_id,
            &Pairing::ALL.map(Pairing::id),
        )?)),
        "compare" => plain_action(Action::SetOffsetSeries(match value {
            "anchors" => OffsetSeries::Anchors,
            "bases" => OffsetSeries::Bases,
            _ => {
                return Err(format!(
                    "{key}={}: not one of anchors, bases; kept the default.",
                    shown(value)
                ))
            }
        })),
        "trace" => plain_action(Action::SetTrace(match value {
            "a" => 0,
            "b" => 1,
            _ => {
                return Err(format!(
                    "{key}={}: not one of a, b; kept the default.",
                    shown(value)
                ))
            }
        })),
        "d_model" => number(D_MODEL, Action::SetDModel),
        "length" => number(LENGTH, Action::SetLength),
        "base" => number(BASE, Action::SetBase),
        "trained" => number(TRAINED_LENGTH, Action::SetTrainedLength),
        "seed" => number(SEED, Action::SetLearnedSeed),
        "factor" => number(ROPE_FACTOR, Action::SetRopeFactor),
        "low_freq" => number(LOW_FREQ, Action::SetRopeLow),
        "high_freq" => number(HIGH_FREQ, Action::SetRopeHigh),
        "beta_fast" => number(BETA_FAST, Action::SetBetaFast),
        "beta_slow" => number(BETA_SLOW, Action::SetBetaSlow),
        "mscale" => number(MSCALE, Action::SetMscale),
        "mscale_all_dim" => number(MSCALE_ALL_DIM, Action::SetMscaleAllDim),
        "rotary" => number(ROTARY_FRACTION, Action::SetRotaryFraction),
        "heads" => number(ALIBI_HEADS, Action::SetAlibiHeads),
        "head" => number(s.alibi_head_limit(), Action::SetAlibiHead),
        "buckets" => number(T5_BUCKETS, Action::SetT5Buckets),
        "max_distance" => number(T5_MAX_DISTANCE, Action::SetT5MaxDistance),
        "p" => number(s.position_limit(), Action::SetPosition),
        "k" => number(s.offset_limit(), Action::SetOffset),
        "pair" => {
            let limit = Limit::linear("pair", 0.0, (s.d_model / 2).max(1) as f64 - 1.0);
            let a = limit
                .parse(value)
                .map_err(|e| format!("{key}={}: {e}", shown(value)))?;
            Ok((
                Action::SetPair(a.value as usize),
                a.note.map(|n| format!("{key}: {n}")),
            ))
        }
        "normalised" => plain_action(Action::SetNormalised(flag(key, value)?)),
        "scaled" => plain_action(Action::SetScaleEmbeddings(flag(key, value)?)),
        "position" => plain_action(Action::SetAttentionPosition(flag(key, value)?)),
        "causal" => plain_action(Action::SetCausal(flag(key, value)?)),
        "bidirectional" => plain_action(Action::SetT5Bidirectional(flag(key, value)?)),
        "anchors" => {
            let (v, note) = list(s.position_limit(), MAX_ANCHORS)?;
            Ok((
                Action::SetAnchors(v.iter().map(|x| *x as usize).collect()),
                note,
            ))
        }
        "dims" => {
            let (v, note) = list(
                Limit::linear("dimension", 0.0, (s.d_model - 1) as f64),
                MAX_DIMS,
            )?;
            Ok((
                Action::SetDims(v.iter().map(|x| *x as usize).collect()),
                note,
            ))
        }
        "bases" => {
            let (v, note) = list(BASE, MAX_BASES)?;
            Ok((Action::SetBases(v), note))
        }
        "a" | "b" => {
            let words = parse_sentence(value)
                .map_err(|e| format!("{key}: {e} Kept the default sentence."))?;
            plain_action(Action::SetSentence(
                usize::from(key == "b"),
                words.join(" "),
            ))
        }
        "run" => plain_action(Action::SetTrainRun(flag(key, value)?)),
        _ => match TRAIN_KEYS.iter().find(|k| **k == key) {
            Some(&k) => {
                // Checked on a copy first, so a refused value leaves the setting alone.
                let note = s.train.clone().apply(k, value)?;
                Ok((Action::SetTrain(k, value.to_string()), note))
            }
            None => Err(format!("Ignored the unknown parameter “{}”.", shown(key))),
        },
    }
}

/// Reads a query string (with or without the leading `?`) into settings, never failing.
pub fn parse(query: &str) -> Parsed {
    let mut notices = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    let query = if query.len() > MAX_QUERY {
        notices.push(format!(
            "The link is longer than {MAX_QUERY} characters; the rest was ignored."
        ));
        let mut end = MAX_QUERY;
        while !query.is_char_boundary(end) {
            end -= 1;
        }
        &query[..end]
    } else {
        query
    };
    let mut values: Vec<(String, String)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let key = decode(k);
        let value = decode(v);
        if !ORDER.contains(&key.as_str()) && !OTHER.contains(&key.as_str()) {
            notices.push(format!("Ignored the unknown parameter “{}”.", shown(&key)));
            continue;
        }
        // The last occurrence of a parameter wins.
        values.retain(|(k, _)| *k != key);
        values.push((key, value));
    }
    // The lesson opens on a step, which sets the view and sliders before anything else; the
    // step means nothing to another view.
    let value_of = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.clone())
    };
    let target = value_of("embed").or_else(|| value_of("view"));
    let (lesson, question) = (value_of("lesson"), value_of("question"));
    let opens = |view: View| target.as_deref() == Some(view.id());
    match lesson {
        None if opens(View::Lesson) => values.push(("lesson".into(), "1".into())),
        Some(n) if target.is_some() && !opens(View::Lesson) => {
            notices.push(format!(
                "lesson={}: ignored, since the link does not open the lesson.",
                shown(&n)
            ));
            values.retain(|(k, _)| k != "lesson");
        }
        _ => {}
    }
    // Likewise a quiz task opens on the settings it starts from.
    let mut start = Settings::default();
    match question {
        Some(n) if !opens(View::Quiz) => {
            notices.push(format!(
                "question={}: ignored, since the link does not open the quiz.",
                shown(&n)
            ));
            values.retain(|(k, _)| k != "question");
        }
        Some(n) => {
            if let Ok(n) = n.trim().parse::<usize>() {
                if crate::learn::quiz::is_task(n) {
                    start = crate::learn::quiz::task_preset(n, &start);
                }
            }
        }
        None => {}
    }
    let get = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };

    let mut settings = Rc::new(start);
    for key in ORDER {
        if let Some(value) = get(key) {
            match action(key, value, &settings) {
                Ok((a, note)) => {
                    settings = settings.reduce(a);
                    notices.extend(note);
                }
                Err(message) => notices.push(message),
            }
        }
    }
    let embed = get("embed").and_then(|v| match View::from_id(v) {
        Some(view) => Some(Embed {
            view,
            controls: get("controls") != Some("none"),
        }),
        None => {
            notices.push(format!(
                "embed={}: not a view ({}); showing the whole app.",
                shown(v),
                View::ALL.map(View::id).join(", ")
            ));
            None
        }
    });
    if let Some(v) = get("controls") {
        if v != "none" && v != "all" {
            notices.push(format!(
                "controls={}: expected none or all; showing the controls.",
                shown(v)
            ));
        }
    }
    let mut settings = (*settings).clone();
    if let Some(e) = &embed {
        settings.view = e.view;
    }
    Parsed {
        settings,
        embed,
        notices,
    }
}

fn put_run(out: &mut Vec<(&str, String)>, run: bool) {
    if run {
        out.push(("run", "1".into()));
    }
}

/// The query string (without `?`) holding every setting that differs from the default, in a
/// fixed order, plus the embedding parameters when given. In the lesson, the step comes first
/// and the rest is what differs from the step's own settings.
pub fn to_query(s: &Settings, embed: Option<&Embed>) -> String {
    let in_lesson = s.view == View::Lesson;
    let in_quiz = s.view == View::Quiz;
    let d = if in_lesson {
        crate::learn::lesson::preset(s.lesson, &Settings::default())
    } else if in_quiz && crate::learn::quiz::is_task(s.question) {
        crate::learn::quiz::task_preset(s.question, &Settings::default())
    } else {
        Settings::default()
    };
    let mut out: Vec<(&str, String)> = Vec::new();
    if in_lesson {
        out.push(("lesson", s.lesson.to_string()));
    }
    if in_quiz {
        if embed.is_none() {
            out.push(("view", View::Quiz.id().into()));
        }
        if s.question != 1 {
            out.push(("question", s.question.to_string()));
        }
    }
    let mut put = |key: &'static str, differs: bool, value: String| {
        if differs {
            out.push((key, value));
        }
    };
    let list = |v: &[usize]| {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    let bit = |b: bool| if b { "1".to_string() } else { "0".to_string() };
    if embed.is_none() && !in_quiz {
        put("view", s.view != d.view, s.view.id().into());
    }
    put("scheme", s.scheme != d.scheme, s.scheme.id().into());
    put("variant", s.variant != d.variant, s.variant.id().into());
    put("d_model", s.d_model != d.d_model, s.d_model.to_string());
    put("length", s.length != d.length, s.length.to_string());
    put("base", s.base != d.base, plain(s.base));
    put("palette", s.palette != d.palette, s.palette.id().into());
    put("theme", s.theme != d.theme, s.theme.id().into());
    put(
        "trained",
        s.trained_length != d.trained_length,
        s.trained_length.to_string(),
    );
    put(
        "seed",
        s.learned_seed != d.learned_seed,
        s.learned_seed.to_string(),
    );
    put(
        "rope_pairing",
        s.rope_pairing != d.rope_pairing,
        s.rope_pairing.id().into(),
    );
    put(
        "extension",
        s.extension != d.extension,
        s.extension.id().into(),
    );
    put(
        "factor",
        s.rope_factor != d.rope_factor,
        plain(s.rope_factor),
    );
    for (key, mine, default) in [
        ("low_freq", s.rope_low, d.rope_low),
        ("high_freq", s.rope_high, d.rope_high),
        ("beta_fast", s.beta_fast, d.beta_fast),
        ("beta_slow", s.beta_slow, d.beta_slow),
        ("mscale", s.mscale, d.mscale),
        ("mscale_all_dim", s.mscale_all_dim, d.mscale_all_dim),
        ("rotary", s.rotary_fraction, d.rotary_fraction),
    ] {
        put(key, mine != default, plain(mine));
    }
    put(
        "heads",
        s.alibi_heads != d.alibi_heads,
        s.alibi_heads.to_string(),
    );
    put(
        "head",
        s.alibi_head != d.alibi_head,
        s.alibi_head.to_string(),
    );
    put(
        "buckets",
        s.t5.num_buckets != d.t5.num_buckets,
        s.t5.num_buckets.to_string(),
    );
    put(
        "max_distance",
        s.t5.max_distance != d.t5.max_distance,
        s.t5.max_distance.to_string(),
    );
    put(
        "bidirectional",
        s.t5.bidirectional != d.t5.bidirectional,
        bit(s.t5.bidirectional),
    );
    put("anchors", s.anchors.is_some(), list(&s.anchors()));
    put(
        "normalised",
        s.normalised != d.normalised,
        bit(s.normalised),
    );
    put(
        "compare",
        s.offset_series != d.offset_series,
        if s.offset_series == OffsetSeries::Bases {
            "bases"
        } else {
            "anchors"
        }
        .into(),
    );
    put(
        "bases",
        s.bases != d.bases,
        s.bases
            .iter()
            .map(|b| plain(*b))
            .collect::<Vec<_>>()
            .join(","),
    );
    put("dims", s.dims.is_some(), list(&s.dims()));
    put("p", s.position != d.position, s.position.to_string());
    put("k", s.offset != d.offset, s.offset.to_string());
    put("pair", s.pair != d.pair, s.pair.to_string());
    put("pairing", s.pairing != d.pairing, s.pairing.id().into());
    put(
        "scaled",
        s.scale_embeddings != d.scale_embeddings,
        bit(s.scale_embeddings),
    );
    put(
        "a",
        s.sentences[0] != d.sentences[0],
        s.sentences[0].clone(),
    );
    put(
        "b",
        s.sentences[1] != d.sentences[1],
        s.sentences[1].clone(),
    );
    put(
        "position",
        s.attention_position != d.attention_position,
        bit(s.attention_position),
    );
    put("causal", s.causal != d.causal, bit(s.causal));
    put(
        "trace",
        s.trace != d.trace,
        if s.trace == 1 { "b" } else { "a" }.into(),
    );
    put(
        "with",
        s.compare_with != d.compare_with,
        s.compare_with.id().into(),
    );
    out.extend(s.train.link_pairs());
    put_run(&mut out, s.train_run);
    if let Some(e) = embed {
        out.insert(0, ("embed", e.view.id().into()));
        if !e.controls {
            out.insert(1, ("controls", "none".into()));
        }
    }
    out.iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}
