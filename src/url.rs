//! The query string as the app's public interface: every setting as a named parameter, parsed
//! through the same checks as the controls, and written back with only the non-default values.
//!
//! Parsing never fails: unknown parameters are ignored and out-of-range or unreadable values
//! fall back to a clamped or default value, each with a plain notice naming what changed.
//!
//! Each parameter is one entry of a table ([`PARAMS`]): its key, how its text is read, and what
//! is written for it. The lesson's step, the quiz question, the embedding and the Train view's
//! keys are handled around the tables.

use std::rc::Rc;

use yew::Reducible;

use crate::action::Action;
use crate::embed::Show;
use crate::limit::{FRAMES, GRID_COLS, GRID_HEAD, GRID_ROWS, GRID_TRAINED};
use crate::math::attention::parse_sentence;
use crate::math::rotation::Pairing;
use crate::math::sinusoidal::Variant;
use crate::params::{self, flag, number, shown, SchemeParam, Value};
use crate::plot::colormap::Palette;
use crate::schemes::grid::{GridScheme, MropeModel};
use crate::schemes::{Registered, Scheme, Space};
use crate::state::{
    parse_list, Limit, OffsetSeries, Settings, ThemeChoice, View, BASE, D_MODEL, LENGTH,
    MAX_ANCHORS, MAX_BASES, MAX_DIMS, SEED, TRAINED_LENGTH,
};
use crate::train::settings::KEYS as TRAIN_KEYS;

/// Longest query string read; the rest is ignored (with a notice).
pub const MAX_QUERY: usize = 4096;

/// What the app shows when it is embedded in another page.
#[derive(Clone, Debug, PartialEq)]
pub struct Embed {
    /// The one view shown.
    pub view: View,
    /// Show the settings (`false` with `controls=none`).
    pub controls: bool,
    /// The whole panel, or its main chart (`show=chart`).
    pub show: Show,
}

impl Embed {
    /// The whole panel of `view` with its settings, as `?embed=<view>` alone opens it.
    pub fn panel(view: View) -> Embed {
        Embed {
            view,
            controls: true,
            show: Show::Panel,
        }
    }
}

/// The result of reading a query string.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub settings: Settings,
    pub embed: Option<Embed>,
    /// A SCORM 1.2 package's launch (`lms=scorm12`), when the link is one.
    pub lms: Option<Launch>,
    /// One sentence per parameter that was ignored or changed.
    pub notices: Vec<String>,
}

/// How a SCORM 1.2 package launches the app (`ui/lms.rs` connects to the LMS).
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// The package's mastery score (`mastery=`), used when the LMS gives none.
    pub mastery: Option<f64>,
}

impl Launch {
    /// The launch's own parameters, which the address the app rewrites keeps.
    pub fn query(&self) -> String {
        match self.mastery {
            Some(m) => format!("lms=scorm12&mastery={}", crate::format::plain(m)),
            None => "lms=scorm12".into(),
        }
    }
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

/// What reading one of the app's parameters gives: an action, with a note when the value had
/// to change, or the notice saying why it was ignored.
pub type Read = params::Reading<Action>;

/// One of the app's link parameters (each scheme's own are [`SchemeParam`]s).
pub type Param = params::Param<Action>;

fn list(
    key: &str,
    value: &str,
    limit: Limit,
    max: usize,
) -> Result<(Vec<f64>, Option<String>), String> {
    let a = parse_list(value, limit, max).map_err(|e| format!("{key}={}: {e}", shown(value)))?;
    Ok((
        a.value,
        a.note.map(|n| format!("{key}={}: {n}", shown(value))),
    ))
}

fn pick<T>(
    key: &str,
    value: &str,
    parse: impl Fn(&str) -> Option<T>,
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

/// One of a few words, each naming a value.
fn word<T: Copy>(key: &str, value: &str, words: &[(&str, T)]) -> Result<T, String> {
    let names: Vec<&str> = words.iter().map(|(w, _)| *w).collect();
    let find = |v: &str| words.iter().find(|(w, _)| *w == v).map(|(_, x)| *x);
    pick(key, value, find, &names)
}

/// The word naming a value.
fn word_of<T: PartialEq>(x: &T, words: &[(&'static str, T)]) -> Value {
    let place = words.iter().position(|(_, y)| y == x);
    Value::Word(words[place.unwrap_or(0)].0, place)
}

/// A list of whole numbers (anchors, dimensions), written only when one was chosen.
fn chosen<T>(set: &Option<T>, list: Vec<usize>) -> Value {
    if set.is_none() {
        return Value::Unset;
    }
    let text: Vec<String> = list.iter().map(|x| x.to_string()).collect();
    Value::Text(text.join(","))
}

fn read_anchors(value: &str, s: &Settings) -> Read {
    let (v, note) = list("anchors", value, s.position_limit(), MAX_ANCHORS)?;
    Ok((
        Action::SetAnchors(v.iter().map(|x| *x as usize).collect()),
        note,
    ))
}

fn read_dims(value: &str, s: &Settings) -> Read {
    let limit = Limit::linear("dimension", 0.0, (s.d_model - 1) as f64);
    let (v, note) = list("dims", value, limit, MAX_DIMS)?;
    Ok((
        Action::SetDims(v.iter().map(|x| *x as usize).collect()),
        note,
    ))
}

fn read_bases(value: &str, _: &Settings) -> Read {
    let (v, note) = list("bases", value, BASE, MAX_BASES)?;
    Ok((Action::SetBases(v), note))
}

fn read_pair(value: &str, s: &Settings) -> Read {
    let limit = Limit::linear("pair", 0.0, (s.d_model / 2).max(1) as f64 - 1.0);
    let a = limit
        .parse(value)
        .map_err(|e| format!("pair={}: {e}", shown(value)))?;
    Ok((
        Action::SetPair(a.value as usize),
        a.note.map(|n| format!("pair: {n}")),
    ))
}

/// fairseq's padding index of the t2t variant ("none" or a row).
fn read_padding(value: &str, _: &Settings) -> Read {
    if value.trim() == "none" {
        return Ok((Action::SetPaddingIdx(None), None));
    }
    number("padding_idx", value, crate::limit::PADDING_IDX, |v| {
        Action::SetPaddingIdx(Some(v))
    })
}

/// The RoPE check's typed query or key, exactly as typed (fitted to d_model where it is used).
fn read_vector(key: &str, value: &str, set: fn(Option<Vec<f64>>) -> Action) -> Read {
    let a = crate::limit::parse_vector(value, key)?;
    Ok((set(Some(a.value)), a.note))
}

/// A typed vector, written so it reads back to the same numbers.
fn vector_value(v: &Option<Vec<f64>>) -> Value {
    v.as_ref().map_or(Value::Unset, |v| {
        Value::Text(crate::limit::vector_to_text(v, ","))
    })
}

/// Sentence A (0) or B (1).
fn sentence(key: &str, i: usize, value: &str) -> Read {
    let words =
        parse_sentence(value).map_err(|e| format!("{key}: {e} Kept the default sentence."))?;
    Ok((Action::SetSentence(i, words.join(" ")), None))
}

fn read_lesson(value: &str, _: &Settings) -> Read {
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

fn read_question(value: &str, _: &Settings) -> Read {
    let total = crate::learn::quiz::QUESTIONS.len();
    match value.trim().parse::<usize>() {
        Ok(n) if (1..=total).contains(&n) => Ok((Action::SetQuestion(n), None)),
        _ => Err(format!(
            "question={}: expected a question number from 1 to {total}; showing question 1.",
            shown(value)
        )),
    }
}

/// The Image patches view's 2-D scheme. When the link's scheme is itself a 2-D scheme, that is
/// the one the view draws, and a different `grid` is refused out loud.
fn read_grid(value: &str, s: &Settings) -> Read {
    let names = GridScheme::ALL.map(GridScheme::id);
    let g = pick("grid", value, GridScheme::from_id, &names)?;
    match GridScheme::of(s.scheme) {
        Some(chosen) if chosen != g => Err(format!(
            "grid={}: ignored, since scheme={} is itself a 2-D scheme and the view draws it.",
            shown(value),
            chosen.id()
        )),
        _ => Ok((Action::SetGridScheme(g), None)),
    }
}

/// The M-RoPE panel's pasted config, in its link form (`MropeConfig::to_link`).
fn read_mrope_config(value: &str, _: &Settings) -> Read {
    let c = crate::mrope_config::MropeConfig::from_link(value)
        .map_err(|e| format!("mrope_config={}: {e} Kept the model list.", shown(value)))?;
    Ok((Action::SetMropeConfig(Some(Box::new(c))), None))
}

/// The compare view's partner, by its id (any scheme of a line of tokens, the chosen one too: an
/// old link keeps what it showed; the compare view draws no scheme of image patches).
fn read_with(value: &str, _: &Settings) -> Read {
    let names: Vec<&str> = Scheme::on_a_line().map(Scheme::id).collect();
    let line = |id: &str| Scheme::from_id(id).filter(|s| s.space() == Space::Line);
    Ok((
        Action::SetCompareWith(pick("with", value, line, &names)?),
        None,
    ))
}

/// A number held to a limit: a constant, or `|s| …` from the settings read so far.
macro_rules! number {
    ($key:literal, |$s:ident| $limit:expr, $set:ident, $($field:ident).+) => {
        Param {
            key: $key,
            read: |v, $s| number($key, v, $limit, Action::$set),
            write: |s| Value::from(s.$($field).+),
        }
    };
    ($key:literal, $limit:expr, $set:ident, $($field:ident).+) => {
        number!($key, |_s| $limit, $set, $($field).+)
    };
}

/// One of an enum's values, by its id.
macro_rules! choice {
    ($key:literal, $kind:ident, $set:ident, $($field:ident).+) => {
        Param {
            key: $key,
            read: |v, _| {
                let names = $kind::ALL.map($kind::id);
                Ok((Action::$set(pick($key, v, $kind::from_id, &names)?), None))
            },
            write: |s| Value::from(s.$($field).+.id()),
        }
    };
}

/// One of a few values, by the words in a `(word, value)` table.
macro_rules! word {
    ($key:literal, $words:expr, $set:ident, $($field:ident).+) => {
        Param {
            key: $key,
            read: |v, _| Ok((Action::$set(word($key, v, &$words)?), None)),
            write: |s| word_of(&s.$($field).+, &$words),
        }
    };
}

/// On or off, as 1 or 0.
macro_rules! flag {
    ($key:literal, $set:ident, $($field:ident).+) => {
        Param {
            key: $key,
            read: |v, _| Ok((Action::$set(flag($key, v)?), None)),
            write: |s| Value::from(s.$($field).+),
        }
    };
}

const SERIES: [(&str, OffsetSeries); 2] = [
    (OffsetSeries::Anchors.id(), OffsetSeries::Anchors),
    (OffsetSeries::Bases.id(), OffsetSeries::Bases),
];
const TRACES: [(&str, usize); 2] = [("a", 0), ("b", 1)];
const MROPE_RULES: [(&str, bool); 2] = [("reference", false), ("transformers", true)];

/// The app's parameters, in the order they are written and, but for [`APPLIED_AFTER`], applied
/// (later ones are checked against earlier ones: positions against the length, the ALiBi head
/// against the head count, the pair against d_model).
#[rustfmt::skip]
pub const PARAMS: &[Param] = &[
    choice!("view", View, SetView, view),
    choice!("scheme", Scheme, SetScheme, scheme),
    choice!("variant", Variant, SetVariant, variant),
    Param { key: "padding_idx", read: read_padding, write: |s| s.padding_idx.map_or(Value::Unset, Value::from) },
    number!("d_model", D_MODEL, SetDModel, d_model),
    number!("length", LENGTH, SetLength, length),
    number!("base", BASE, SetBase, base),
    choice!("palette", Palette, SetPalette, palette),
    choice!("theme", ThemeChoice, SetTheme, theme),
    number!("trained", TRAINED_LENGTH, SetTrainedLength, trained_length),
    number!("seed", SEED, SetLearnedSeed, learned_seed),
];

/// The app's parameters written after the schemes' own.
#[rustfmt::skip]
pub const PARAMS_AFTER_SCHEMES: &[Param] = &[
    Param { key: "anchors", read: read_anchors, write: |s| chosen(&s.anchors, s.anchors()) },
    flag!("normalised", SetNormalised, normalised),
    word!("compare", SERIES, SetOffsetSeries, offset_series),
    Param { key: "bases", read: read_bases, write: |s| Value::Numbers(s.bases.clone()) },
    Param { key: "dims", read: read_dims, write: |s| chosen(&s.dims, s.dims()) },
    number!("p", |s| s.position_limit(), SetPosition, position),
    number!("k", |s| s.offset_limit(), SetOffset, offset),
    Param { key: "pair", read: read_pair, write: |s| Value::from(s.pair) },
    choice!("pairing", Pairing, SetPairing, pairing),
    flag!("scaled", SetScaleEmbeddings, scale_embeddings),
    Param { key: "a", read: |v, _| sentence("a", 0, v), write: |s| Value::from(&*s.sentences[0]) },
    Param { key: "b", read: |v, _| sentence("b", 1, v), write: |s| Value::from(&*s.sentences[1]) },
    flag!("position", SetAttentionPosition, attention_position),
    flag!("causal", SetCausal, causal),
    word!("trace", TRACES, SetTrace, trace),
    Param { key: "with", read: read_with, write: |s| s.compare_with.map_or(Value::Unset, |v| Value::from(v.id())) },
    Param { key: "qv", read: |v, _| read_vector("qv", v, Action::SetRopeQ), write: |s| vector_value(&s.rope_q) },
    Param { key: "kv", read: |v, _| read_vector("kv", v, Action::SetRopeK), write: |s| vector_value(&s.rope_k) },
    number!("m", |s| s.rope_m_limit(), SetRopeM, rope_m),
    number!("n", |s| s.rope_n_limit(), SetRopeN, rope_n),
    Param { key: "grid", read: read_grid, write: |s| Value::from(s.grid.scheme.id()) },
    number!("grid_h", GRID_ROWS, SetGridRows, grid.rows),
    number!("grid_w", GRID_COLS, SetGridCols, grid.cols),
    number!("grid_trained", GRID_TRAINED, SetGridTrained, grid.trained),
    flag!("interpolate", SetGridInterpolate, grid.interpolate),
    number!("grid_head", GRID_HEAD, SetGridHead, grid.head),
    flag!("grid_cls", SetGridCls, grid.cls),
    choice!("mrope", MropeModel, SetMropeModel, mrope.model),
    word!("mrope_rule", MROPE_RULES, SetMropeRule, mrope.transformers_rule),
    number!("frames", FRAMES, SetFrames, mrope.frames),
    Param { key: "mrope_config", read: read_mrope_config, write: |s| s.mrope.custom.as_ref().map_or(Value::Unset, |c| Value::Text(c.to_link())) },
];

/// Keys applied later than they are written, each just after another key of its table: the
/// variant's notice follows the base's, and `view=lesson` beside another view's `embed` opens
/// the lesson's step over what was read up to the theme.
const APPLIED_AFTER: &[(&str, &str)] = &[("variant", "base"), ("view", "theme")];

/// A parameter of either kind: the app's own, or one a scheme owns (read into a [`Change`],
/// which the reducer applies as an [`Action`]).
///
/// [`Change`]: crate::params::Change
#[derive(Clone, Copy)]
pub enum Entry {
    App(&'static Param),
    Scheme(&'static SchemeParam),
}

impl Entry {
    pub fn key(self) -> &'static str {
        match self {
            Entry::App(p) => p.key,
            Entry::Scheme(p) => p.key,
        }
    }

    pub fn read(self, value: &str, s: &Settings) -> Read {
        match self {
            Entry::App(p) => (p.read)(value, s),
            Entry::Scheme(p) => (p.read)(value, s).map(|(c, note)| (Action::from(c), note)),
        }
    }

    pub fn write(self, s: &Settings) -> Value {
        match self {
            Entry::App(p) => (p.write)(s),
            Entry::Scheme(p) => (p.write)(s),
        }
    }
}

/// The tables read and written in turn: the app's first parameters, each scheme's own (in the
/// order of [`Scheme::ALL`]), then the rest of the app's.
pub fn tables() -> Vec<Vec<Entry>> {
    let app = |t: &'static [Param]| t.iter().map(Entry::App).collect::<Vec<_>>();
    let schemes = Scheme::ALL
        .iter()
        .map(|s| s.def().params().iter().map(Entry::Scheme).collect());
    std::iter::once(app(PARAMS))
        .chain(schemes)
        .chain([app(PARAMS_AFTER_SCHEMES)])
        .collect()
}

/// Read first: a lesson step sets up the view and sliders the rest then change. Written first,
/// in the lesson.
const LESSON: Param = Param {
    key: "lesson",
    read: read_lesson,
    write: |s| Value::from(s.lesson),
};

/// Read after the tables; written after the view, in the quiz.
const QUESTION: Param = Param {
    key: "question",
    read: read_question,
    write: |s| Value::from(s.question),
};

/// The quiz as an exam; read after the question, written after it.
const EXAM: Param = flag!("exam", SetExam, exam);

/// Written last, after the Train view's keys.
const RUN: Param = flag!("run", SetTrainRun, train_run);

/// Parameters read elsewhere: embedding, and a SCORM package's launch (`ui/lms.rs`).
const OTHER: &[&str] = &["embed", "controls", "show", "lms", "mastery"];

/// Every key a link can hold.
pub fn keys() -> impl Iterator<Item = &'static str> {
    let params = tables().into_iter().flatten();
    params
        .chain([&LESSON, &QUESTION, &EXAM, &RUN].map(Entry::App))
        .map(Entry::key)
        .chain(TRAIN_KEYS)
        .chain(OTHER.iter().copied())
}

/// The text a link would hold for `key` at the default settings (`None` for a key that has no
/// value of its own there, such as an unset list, or that is not the link's).
pub fn default_text(key: &str) -> Option<String> {
    let d = Settings::default();
    if TRAIN_KEYS.contains(&key) {
        return Some(d.train.value(key));
    }
    tables()
        .into_iter()
        .flatten()
        .chain([&LESSON, &QUESTION, &EXAM, &RUN].map(Entry::App))
        .find(|p| p.key() == key)
        .and_then(|p| p.write(&d).text())
}

/// A table's parameters in the order they are applied.
fn applied(table: Vec<Entry>) -> Vec<Entry> {
    let later = |key: &str| APPLIED_AFTER.iter().any(|(k, _)| *k == key);
    let mut out = Vec::new();
    for p in table.iter().filter(|p| !later(p.key())) {
        out.push(*p);
        for (key, _) in APPLIED_AFTER.iter().filter(|(_, after)| *after == p.key()) {
            out.extend(table.iter().find(|q| q.key() == *key));
        }
    }
    out
}

/// Reads a query string (with or without the leading `?`) into settings, never failing.
pub fn parse(query: &str) -> Parsed {
    parse_within(query, MAX_QUERY)
}

fn parse_within(query: &str, max: usize) -> Parsed {
    let mut notices = Vec::new();
    let query = query.strip_prefix('?').unwrap_or(query);
    let query = if query.len() > max {
        let mut end = max;
        while !query.is_char_boundary(end) {
            end -= 1;
        }
        // A parameter the cut goes through is dropped whole: half a list of numbers would be
        // read as a shorter list, a different state without a word.
        let cut = if query[end..].starts_with('&') {
            None
        } else {
            let start = query[..end].rfind('&').map_or(0, |i| i + 1);
            let key = query[start..end].split('=').next().unwrap_or("");
            end = start.saturating_sub(1);
            Some(decode(key))
        };
        notices.push(match cut {
            Some(key) if !key.is_empty() => format!(
                "The link is longer than {} characters; the rest was ignored, and so was “{}”, \
                 which the limit cuts through.",
                crate::format::group_thousands(MAX_QUERY as u64),
                shown(&key)
            ),
            _ => format!(
                "The link is longer than {} characters; the rest was ignored.",
                crate::format::group_thousands(MAX_QUERY as u64)
            ),
        });
        &query[..end]
    } else {
        query
    };
    let mut values: Vec<(String, String)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let key = decode(k);
        let value = decode(v);
        if !keys().any(|k| k == key) {
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
    let (lesson, question, exam) = (value_of("lesson"), value_of("question"), value_of("exam"));
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
    // The exam is a way of taking the quiz: nothing to another view.
    if let Some(v) = exam.filter(|_| !opens(View::Quiz)) {
        notices.push(format!(
            "exam={}: ignored, since the link does not open the quiz.",
            shown(&v)
        ));
        values.retain(|(k, _)| k != "exam");
    }
    let get = |key: &str| {
        values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };

    let mut settings = Rc::new(start);
    let mut apply = |p: Entry| {
        if let Some(value) = get(p.key()) {
            match p.read(value, &settings) {
                Ok((a, note)) => {
                    settings = settings.clone().reduce(a);
                    notices.extend(note);
                }
                Err(message) => notices.push(message),
            }
        }
    };
    apply(Entry::App(&LESSON));
    for p in tables().into_iter().flat_map(applied) {
        apply(p);
    }
    for p in [&QUESTION, &EXAM, &RUN] {
        apply(Entry::App(p));
    }
    // The Train view's experiment, after the sidebar's base, variant, pairing and buckets, as
    // one group: the width is fitted to the heads once both are read.
    let mut train = settings.train.clone();
    for key in TRAIN_KEYS {
        if let Some(value) = get(key) {
            let mut t = train.clone();
            match t.apply_unfitted(key, value) {
                Ok(note) => {
                    train = t;
                    notices.extend(note);
                }
                Err(message) => notices.push(message),
            }
        }
    }
    notices.extend(train.fit_width());
    let mut settings = (*settings).clone();
    settings.train = train;
    let embed = get("embed").and_then(|v| match View::from_id(v) {
        Some(view) => Some(Embed {
            view,
            controls: get("controls") != Some("none"),
            show: get("show").and_then(Show::from_id).unwrap_or_default(),
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
    let mastery = get("mastery").and_then(|v| {
        let m = crate::learn::scorm::mastery(v);
        if m.is_none() {
            notices.push(format!(
                "mastery={}: expected a score from 0 to 100; ignored.",
                shown(v)
            ));
        }
        m
    });
    let lms = match get("lms") {
        Some("scorm12") => Some(Launch { mastery }),
        Some(v) => {
            notices.push(format!(
                "lms={}: expected scorm12 (a SCORM 1.2 package); ignored.",
                shown(v)
            ));
            None
        }
        None => None,
    };
    if let Some(v) = get("show") {
        if Show::from_id(v).is_none() {
            notices.push(format!(
                "show={}: expected chart or panel; showing the whole panel.",
                shown(v)
            ));
        } else if embed.is_none() {
            notices.push(format!(
                "show={}: ignored, since the link does not embed a panel.",
                shown(v)
            ));
        }
    }
    if let Some(e) = &embed {
        settings.view = e.view;
    }
    Parsed {
        settings,
        embed,
        lms,
        notices,
    }
}

/// A parameter's pair for the link, whatever the default.
fn pair(p: Entry, s: &Settings) -> Option<(&'static str, String)> {
    p.write(s).text().map(|t| (p.key(), t))
}

/// A parameter's pair for the link when its value differs from the default's.
fn changed(p: Entry, s: &Settings, d: &Settings) -> Option<(&'static str, String)> {
    if p.write(s) == p.write(d) {
        return None;
    }
    pair(p, s)
}

/// The query string (without `?`) holding every setting that differs from the default, in a
/// fixed order, plus the embedding parameters when given. In the lesson, the step comes first
/// and the rest is what differs from the step's own settings. It can be longer than a link
/// keeps: the app writes [`to_link`].
pub fn to_query(s: &Settings, embed: Option<&Embed>) -> String {
    join_pairs(&query_pairs(s, embed))
}

/// A link the app writes: a query that reads back to the same state, but for what it leaves
/// out to stay within [`MAX_QUERY`] characters (the parameters named, longest value first;
/// opened, the link gives them their defaults).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    pub query: String,
    pub left_out: Vec<&'static str>,
}

/// Parameters a link always keeps (short, and what it opens).
const KEPT: [&str; 5] = ["embed", "controls", "view", "lesson", "question"];

/// The link for these settings: [`to_query`], with the longest values left out until it fits.
pub fn to_link(s: &Settings, embed: Option<&Embed>) -> Link {
    to_link_within(s, embed, MAX_QUERY)
}

/// The link that opens the whole app on these settings, from an embedded panel: `theme=host`
/// (follow the page around the frame) means nothing outside a frame, so it follows the system.
pub fn whole_app_link(s: &Settings) -> Link {
    let mut s = s.clone();
    if s.theme == crate::state::ThemeChoice::Host {
        s.theme = crate::state::ThemeChoice::Auto;
    }
    to_link(&s, None)
}

/// [`to_link`] within `max` characters (an exam keeps a task's settings in fewer).
pub fn to_link_within(s: &Settings, embed: Option<&Embed>, max: usize) -> Link {
    let mut pairs = query_pairs(s, embed);
    let mut query = join_pairs(&pairs);
    let mut left_out = Vec::new();
    while query.len() > max {
        let longest = (0..pairs.len())
            .filter(|&i| !KEPT.contains(&pairs[i].0))
            .max_by_key(|&i| encode(&pairs[i].1).len());
        let Some(i) = longest else { break };
        left_out.push(pairs.remove(i).0);
        query = join_pairs(&pairs);
    }
    Link { query, left_out }
}

/// What the app says when a link leaves something out.
pub fn left_out_note(keys: &[&str]) -> Option<String> {
    let names: Vec<String> = keys
        .iter()
        .map(|k| match *k {
            "qv" => "the typed query q".to_string(),
            "kv" => "the typed key k".to_string(),
            "a" => "sentence A".to_string(),
            "b" => "sentence B".to_string(),
            other => format!("“{other}”"),
        })
        .collect();
    let list = crate::format::and_list(&names)?;
    Some(format!(
        "Not in this link: {list}, too long for the {} characters a link keeps. Opened, the \
         link shows the default there; everything else is as you see it.",
        crate::format::group_thousands(MAX_QUERY as u64)
    ))
}

fn join_pairs(pairs: &[(&str, String)]) -> String {
    pairs
        .iter()
        .map(|(k, v)| format!("{k}={}", encode(v)))
        .collect::<Vec<_>>()
        .join("&")
}

/// Every parameter [`to_query`] writes, in order.
fn query_pairs(s: &Settings, embed: Option<&Embed>) -> Vec<(&'static str, String)> {
    let in_lesson = s.view == View::Lesson;
    let in_quiz = s.view == View::Quiz;
    let d = if in_lesson {
        crate::learn::lesson::preset(s.lesson, &Settings::default())
    } else if in_quiz && crate::learn::quiz::is_task(s.question) {
        crate::learn::quiz::task_preset(s.question, &Settings::default())
    } else {
        Settings::default()
    };
    let mut out: Vec<(&'static str, String)> = Vec::new();
    if in_lesson {
        out.extend(pair(Entry::App(&LESSON), s));
    }
    if in_quiz {
        if embed.is_none() {
            out.push(("view", View::Quiz.id().into()));
        }
        if s.question != 1 {
            out.extend(pair(Entry::App(&QUESTION), s));
        }
        out.extend(changed(Entry::App(&EXAM), s, &d));
    }
    for p in tables().into_iter().flatten() {
        // An embedding names its view, and the quiz's is written above.
        if p.key() == "view" && (embed.is_some() || in_quiz) {
            continue;
        }
        out.extend(changed(p, s, &d));
    }
    out.extend(s.train.link_pairs());
    out.extend(changed(Entry::App(&RUN), s, &d));
    if let Some(e) = embed {
        out.insert(0, ("embed", e.view.id().into()));
        let mut at = 1;
        if e.show != Show::Panel {
            out.insert(at, ("show", e.show.id().into()));
            at += 1;
        }
        if !e.controls {
            out.insert(at, ("controls", "none".into()));
        }
    }
    out
}
