//! Settings as text: a link parameter's value, how one is read and written, and the changes a
//! scheme's own settings take (an [`Edit`] of a number, a [`ListEdit`] of a list). It sits just
//! above `state`, so both the schemes' modules and the link (`url`) use it.

use std::rc::Rc;

use crate::format::plain;
use crate::limit::Limit;
use crate::state::Settings;

/// A parameter's value as the link holds it: written only when it differs from the default's.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// Nothing to write (a list left unset).
    Unset,
    Text(String),
    /// Numbers, compared as numbers (their text is rounded) and written comma-separated.
    Numbers(Vec<f64>),
    /// A word, with the place of the value it names among a few (none when no word names the
    /// value, which is then written as the first word).
    Word(&'static str, Option<usize>),
}

impl Value {
    /// The text written, if any.
    pub fn text(&self) -> Option<String> {
        match self {
            Value::Unset => None,
            Value::Text(t) => Some(t.clone()),
            Value::Numbers(v) => Some(v.iter().map(|x| plain(*x)).collect::<Vec<_>>().join(",")),
            Value::Word(w, _) => Some(w.to_string()),
        }
    }
}

impl From<usize> for Value {
    fn from(n: usize) -> Value {
        Value::Text(n.to_string())
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Numbers(vec![x])
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Text(if b { "1" } else { "0" }.into())
    }
}

impl From<&str> for Value {
    fn from(t: &str) -> Value {
        Value::Text(t.into())
    }
}

/// What reading a parameter's text gives: a change `C`, with a note when the value had to
/// change, or the notice saying why it was ignored.
pub type Reading<C> = Result<(C, Option<String>), String>;

/// One link parameter: its key, how its text is read into a change `C` (checked against the
/// settings read so far, with a note when the value had to change, or the notice saying why it
/// was ignored), and what is written for it.
pub struct Param<C> {
    pub key: &'static str,
    pub read: fn(&str, &Settings) -> Reading<C>,
    /// The value written to the link, when it differs from the default settings' (or from the
    /// lesson step's or quiz task's starting point).
    pub write: fn(&Settings) -> Value,
}

/// A change a scheme's module defines for one of its own settings: `apply` stores `value` (a
/// number, or the place of a choice in its list) and the scheme's `check` then holds every
/// value to its limits, so the reducer needs no arm per setting.
#[derive(Clone, Copy, Debug)]
pub struct Edit {
    pub key: &'static str,
    pub value: f64,
    pub apply: fn(&mut Settings, f64),
}

impl PartialEq for Edit {
    fn eq(&self, other: &Edit) -> bool {
        self.key == other.key && self.value.to_bits() == other.value.to_bits()
    }
}

/// The same for a list of numbers (LongRoPE's factors per pair).
#[derive(Clone, Debug)]
pub struct ListEdit {
    pub key: &'static str,
    pub values: Rc<[f64]>,
    pub apply: fn(&mut Settings, Rc<[f64]>),
}

impl PartialEq for ListEdit {
    fn eq(&self, other: &ListEdit) -> bool {
        self.key == other.key && self.values == other.values
    }
}

/// A change to one of a scheme's own settings.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    Set(Edit),
    SetList(ListEdit),
}

/// A scheme's link parameter.
pub type SchemeParam = Param<Change>;

/// What reading a scheme's parameter gives.
pub type Read = Reading<Change>;

/// How a value appears inside a notice: short, control characters escaped, never markup (the
/// UI escapes text anyway).
pub fn shown(value: &str) -> String {
    crate::format::quoted(value)
}

/// A number held to a limit, into the change `set` makes of it, with the limit's note.
pub fn number<C>(key: &str, value: &str, limit: Limit, set: impl FnOnce(f64) -> C) -> Reading<C> {
    let a = limit
        .parse(value)
        .map_err(|e| format!("{key}={}: {e}", shown(value)))?;
    Ok((
        set(a.value),
        a.note.map(|n| format!("{key}={}: {n}", shown(value))),
    ))
}

/// On or off, as 1 or 0 (also true/false, on/off, yes/no).
pub fn flag(key: &str, value: &str) -> Result<bool, String> {
    match value {
        "1" | "true" | "on" | "yes" => Ok(true),
        "0" | "false" | "off" | "no" => Ok(false),
        _ => Err(format!(
            "{key}={}: expected 1 or 0; kept the default.",
            shown(value)
        )),
    }
}

/// A number a scheme owns, read through its limit into an [`Edit`].
pub fn read_edit(
    key: &'static str,
    value: &str,
    limit: Limit,
    apply: fn(&mut Settings, f64),
) -> Read {
    number(key, value, limit, |value| {
        Change::Set(Edit { key, value, apply })
    })
}

/// One of a scheme's choices, by its id, into an [`Edit`] holding its place among `ids`.
pub fn read_edit_choice(
    key: &'static str,
    value: &str,
    ids: &[&str],
    apply: fn(&mut Settings, f64),
) -> Read {
    match ids.iter().position(|i| *i == value) {
        Some(p) => Ok((
            Change::Set(Edit {
                key,
                value: p as f64,
                apply,
            }),
            None,
        )),
        None => Err(format!(
            "{key}={}: not one of {}; kept the default.",
            shown(value),
            ids.join(", ")
        )),
    }
}

/// One of a scheme's flags (1 or 0) into an [`Edit`].
pub fn read_edit_flag(key: &'static str, value: &str, apply: fn(&mut Settings, f64)) -> Read {
    let on = flag(key, value)?;
    let value = if on { 1.0 } else { 0.0 };
    Ok((Change::Set(Edit { key, value, apply }), None))
}
