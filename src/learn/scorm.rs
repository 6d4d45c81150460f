//! SCORM 1.2: what the app writes into an LMS's run-time data model (`cmi.*`) when a course
//! launches it as a package, and the `cmi.suspend_data` it reads back to resume. Pure: the page
//! end that finds the LMS's API and calls it is `ui/lms.rs`.
//!
//! The vocabulary and formats follow the SCORM 1.2 Run-Time Environment (ADL, 2001), section
//! 3.4: `CMITimespan` is `HHHH:MM:SS.SS`, `CMITime` is `HH:MM:SS`, `CMIIdentifier` is printable
//! ASCII without spaces, `CMIFeedback` at most 255 characters, `cmi.suspend_data` at most 4,096.

use super::lesson::STEPS;
use super::quiz::{question, Answer, Exam, Grader, Kind, Timing, QUESTIONS};

/// The most characters `cmi.suspend_data` holds in SCORM 1.2 (`CMIString4096`).
pub const SUSPEND_LIMIT: usize = 4096;

/// The most characters of a task's settings an exam keeps: with every question answered the
/// suspend data then stays under [`SUSPEND_LIMIT`] (checked by the tests for the longest case).
pub const TASK_SETTINGS_MAX: usize = 480;

/// The most characters of a typed answer an exam keeps.
pub const TYPED_MAX: usize = 16;

/// What a package launches, as the teacher chose when making it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// The quiz as an exam: graded, with a score and one interaction per question.
    Exam,
    /// The guided lesson: completed once every step has been seen.
    Lesson,
    /// One view: completed when opened.
    View,
}

/// A duration as `CMITimespan` (`HHHH:MM:SS.SS`, hours in two to four digits).
pub fn timespan(ms: f64) -> String {
    let cs = if ms.is_finite() && ms > 0.0 {
        ((ms / 10.0).round() as u64).min(9999 * 360_000 + 359_999)
    } else {
        0
    };
    format!(
        "{:02}:{:02}:{:02}.{:02}",
        cs / 360_000,
        (cs / 6000) % 60,
        (cs / 100) % 60,
        cs % 100
    )
}

/// A time of day as `CMITime` (`HH:MM:SS`): `ms` since 1970 (UTC), shown `offset_minutes` ahead
/// of UTC (the learner's clock).
pub fn time_of_day(ms: f64, offset_minutes: f64) -> String {
    if !ms.is_finite() {
        return "00:00:00".into();
    }
    let offset = if offset_minutes.is_finite() {
        offset_minutes.clamp(-1440.0, 1440.0)
    } else {
        0.0
    }; // Any moment a page can name (the clamp keeps the sum inside i64).
    let secs = (ms / 1000.0).floor().clamp(-1e15, 1e15) as i64;
    let s = (secs + (offset * 60.0) as i64).rem_euclid(86_400);
    format!("{:02}:{:02}:{:02}", s / 3600, (s % 3600) / 60, s % 60)
}

/// A score as the percentage LMSs put in the gradebook (0 … 100, whole).
pub fn percent(right: usize, total: usize) -> u32 {
    if total == 0 {
        return 0;
    }
    ((right as f64 * 100.0 / total as f64).round() as u32).min(100)
}

/// Reads a mastery score as the LMS or the package gives it (`cmi.student_data.mastery_score`,
/// 0 … 100); `None` when there is none or it is not a number in that range.
pub fn mastery(text: &str) -> Option<f64> {
    let v: f64 = text.trim().parse().ok()?;
    (v.is_finite() && (0.0..=100.0).contains(&v)).then_some(v)
}

/// The status an exam has: `incomplete` until submitted; then `passed` or `failed` against the
/// mastery score, or `completed` when there is none.
pub fn exam_status(exam: &Exam, mastery: Option<f64>) -> &'static str {
    match (exam.score(), mastery) {
        (None, _) => "incomplete",
        (Some(_), None) => "completed",
        (Some(right), Some(m)) => {
            if f64::from(percent(right, QUESTIONS.len())) >= m {
                "passed"
            } else {
                "failed"
            }
        }
    }
}

/// Escapes a field of the suspend data: printable ASCII stays (but for the separators `|`
/// and `;` and the escape `!`), everything else becomes `!XX` per UTF-8 byte. A link query
/// contains none of those, so settings pass through unchanged.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for b in text.bytes() {
        match b {
            b'!' | b'|' | b';' => out.push_str(&format!("!{b:02X}")),
            0x21..=0x7E => out.push(b as char),
            _ => out.push_str(&format!("!{b:02X}")),
        }
    }
    out
}

fn unescape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'!' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(b) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The first `max` characters of `text`.
fn clip(text: &str, max: usize) -> &str {
    match text.char_indices().nth(max) {
        Some((i, _)) => &text[..i],
        None => text,
    }
}

/// What a package keeps of an exam in `cmi.suspend_data`, with the question on screen. Always
/// within [`SUSPEND_LIMIT`]: should the answers not fit (they do when the settings are within
/// [`TASK_SETTINGS_MAX`]), the longest task settings are left out, and their questions are
/// returned so the page can say so.
pub fn exam_suspend(exam: &Exam, on_screen: usize) -> (String, Vec<usize>) {
    let head = format!(
        "pe1;exam;{};{};{};{}",
        super::quiz::quiz_version(),
        on_screen.clamp(1, QUESTIONS.len()),
        exam.started_ms.round(),
        exam.submitted_ms
            .map_or("-".to_string(), |t| t.round().to_string()),
    );
    let mut dropped: Vec<usize> = Vec::new();
    loop {
        let mut out = head.clone();
        for n in 1..=QUESTIONS.len() {
            let (Some(answer), Some(t)) = (exam.answer(n), exam.timing(n)) else {
                continue;
            };
            let times = format!(
                "{};{}",
                (t.at_ms - exam.started_ms).round(),
                t.latency_ms.max(0.0).round()
            );
            match answer {
                Answer::Choice(i) => out.push_str(&format!("|{n};c;{i};{times}")),
                Answer::Task { settings, typed } => {
                    let settings = if dropped.contains(&n) {
                        ""
                    } else {
                        settings.as_str()
                    };
                    out.push_str(&format!(
                        "|{n};t;{};{};{times}",
                        escape(settings),
                        escape(clip(typed, TYPED_MAX))
                    ))
                }
            }
        }
        if out.len() <= SUSPEND_LIMIT {
            return (out, dropped);
        }
        // Leave out the longest settings still kept, and try again.
        let longest = (1..=QUESTIONS.len())
            .filter(|n| !dropped.contains(n))
            .filter_map(|n| match exam.answer(n) {
                Some(Answer::Task { settings, .. }) if !settings.is_empty() => {
                    Some((settings.len(), n))
                }
                _ => None,
            })
            .max();
        match longest {
            Some((_, n)) => dropped.push(n),
            None => return (clip(&out, SUSPEND_LIMIT).to_string(), dropped),
        }
    }
}

/// Reads [`exam_suspend`]'s text back: the exam (graded, when it was submitted) and the
/// question that was on screen. `None` for anything else, another quiz version included.
pub fn read_exam_suspend(text: &str, grade: Grader) -> Option<(Exam, usize)> {
    let mut entries = text.split('|');
    let head: Vec<&str> = entries.next()?.split(';').collect();
    if head.len() != 6 || head[0] != "pe1" || head[1] != "exam" {
        return None;
    }
    if head[2] != super::quiz::quiz_version() {
        return None;
    }
    let on_screen: usize = head[3].parse().ok()?;
    let number = |t: &str| t.parse::<f64>().ok().filter(|v| v.is_finite());
    let started = number(head[4])?;
    let submitted = match head[5] {
        "-" => None,
        t => Some(number(t)?),
    };
    let mut exam = Exam::new(started);
    for entry in entries {
        let f: Vec<&str> = entry.split(';').collect();
        let Some(n) = f.first().and_then(|t| t.parse::<usize>().ok()) else {
            continue;
        };
        if !(1..=QUESTIONS.len()).contains(&n) {
            continue;
        }
        let timing = |at: usize| -> Option<Timing> {
            Some(Timing {
                at_ms: started + number(f.get(at)?)?,
                latency_ms: number(f.get(at + 1)?)?.max(0.0),
            })
        };
        let answer = match (f.get(1).copied(), &question(n).kind) {
            (Some("c"), Kind::Choice { options, .. }) if f.len() == 5 => {
                match (f[2].parse::<usize>(), timing(3)) {
                    (Ok(i), Some(t)) if i < options.len() => (Answer::Choice(i), t),
                    _ => continue,
                }
            }
            (Some("t"), Kind::Task { .. }) if f.len() == 6 => match timing(4) {
                Some(t) => (
                    Answer::Task {
                        settings: unescape(f[2]),
                        typed: unescape(f[3]),
                    },
                    t,
                ),
                None => continue,
            },
            _ => continue,
        };
        exam.record(n, answer.0, answer.1);
    }
    if let Some(t) = submitted {
        exam.submit(t, grade);
    }
    Some((exam, on_screen.clamp(1, QUESTIONS.len())))
}

/// What a package keeps of the lesson: the step on screen and the steps seen.
pub fn lesson_suspend(step: usize, seen: &[bool]) -> String {
    let seen: Vec<String> = seen
        .iter()
        .enumerate()
        .filter(|(_, s)| **s)
        .map(|(i, _)| (i + 1).to_string())
        .collect();
    format!(
        "pe1;lesson;{};{}",
        step.clamp(1, STEPS.len()),
        seen.join(",")
    )
}

/// Reads [`lesson_suspend`]'s text: the step on screen and, per step, whether it was seen.
pub fn read_lesson_suspend(text: &str) -> Option<(usize, Vec<bool>)> {
    let f: Vec<&str> = text.split(';').collect();
    if f.len() != 4 || f[0] != "pe1" || f[1] != "lesson" {
        return None;
    }
    let step = f[2].parse::<usize>().ok()?.clamp(1, STEPS.len());
    let mut seen = vec![false; STEPS.len()];
    for s in f[3].split(',').filter_map(|t| t.parse::<usize>().ok()) {
        if let Some(slot) = seen.get_mut(s.wrapping_sub(1)) {
            *slot = true;
        }
    }
    Some((step, seen))
}

/// The lesson's status: `completed` once every step was seen.
pub fn lesson_status(seen: &[bool]) -> &'static str {
    if seen.len() == STEPS.len() && seen.iter().all(|s| *s) {
        "completed"
    } else {
        "incomplete"
    }
}

/// A question's interaction id (`CMIIdentifier`): its number and its quiz id.
pub fn interaction_id(n: usize) -> String {
    format!("q{n:02}-{}", question(n).id)
}

/// A choice as SCORM 1.2 writes it: `a`, `b`, … .
fn letter(i: usize) -> String {
    char::from(b'a' + (i.min(25) as u8)).to_string()
}

/// A number as typed, as a SCORM 1.2 `numeric` response (a decimal in ASCII: the typographic
/// minus a student may type becomes `-`); `None` when it is not a number.
fn ascii_number(typed: &str) -> Option<String> {
    let t: String = typed
        .trim()
        .replace('\u{2212}', "-")
        .chars()
        .filter(|c| !c.is_whitespace() && *c != ',' && *c != '_')
        .collect();
    t.parse::<f64>().ok().filter(|v| v.is_finite()).map(|_| t)
}

/// The values a graded exam reports, in the order they are set: the score as a percentage with
/// its range and the status first (what the gradebook needs, set before anything an LMS might
/// refuse), then one interaction per question (its id first, as LMSs require of a new
/// interaction; SCORM 1.2 makes interactions optional). Empty before submission.
pub fn exam_report(
    exam: &Exam,
    mastery: Option<f64>,
    offset_minutes: f64,
) -> Vec<(String, String)> {
    let Some(right) = exam.score() else {
        return Vec::new();
    };
    let total = QUESTIONS.len();
    let mut out: Vec<(String, String)> = vec![
        ("cmi.core.score.min".into(), "0".into()),
        ("cmi.core.score.max".into(), "100".into()),
        (
            "cmi.core.score.raw".into(),
            percent(right, total).to_string(),
        ),
        (
            "cmi.core.lesson_status".into(),
            exam_status(exam, mastery).into(),
        ),
    ];
    for (i, q) in QUESTIONS.iter().enumerate() {
        let n = i + 1;
        let key = |field: &str| format!("cmi.interactions.{i}.{field}");
        out.push((key("id"), interaction_id(n)));
        let (kind, response, pattern) = match (&q.kind, exam.answer(n)) {
            (Kind::Choice { answer, .. }, given) => (
                "choice",
                match given {
                    Some(Answer::Choice(a)) => letter(*a),
                    _ => String::new(),
                },
                Some(letter(*answer)),
            ),
            (Kind::Task { input: Some(_), .. }, given) => {
                let typed = match given {
                    Some(Answer::Task { typed, .. }) => typed.as_str(),
                    _ => "",
                };
                // A number as a `numeric` response; anything else typed as `fill-in`.
                match ascii_number(typed) {
                    Some(n) => ("numeric", n, None),
                    None => ("fill-in", clip(typed.trim(), 255).to_string(), None),
                }
            }
            (Kind::Task { .. }, given) => (
                "performance",
                match given {
                    Some(Answer::Task { settings, .. }) => clip(settings, 255).to_string(),
                    _ => String::new(),
                },
                None,
            ),
        };
        out.push((key("type"), kind.into()));
        if let Some(p) = pattern {
            out.push((key("correct_responses.0.pattern"), p));
        }
        out.push((key("weighting"), "1".into()));
        if let Some(t) = exam.timing(n) {
            out.push((key("time"), time_of_day(t.at_ms, offset_minutes)));
            out.push((key("latency"), timespan(t.latency_ms)));
        }
        out.push((key("student_response"), response));
        let result = if exam.verdict(n) == Some(true) {
            "correct"
        } else {
            "wrong"
        };
        out.push((key("result"), result.into()));
    }
    out
}
