//! SCORM 1.2: the values the app writes into an LMS's data model have the formats the SCORM 1.2
//! Run-Time Environment (ADL, 2001, section 3.4) gives them, as Moodle's `datamodels/scorm_12.js`
//! checks them (its regular expressions are copied below), a graded exam reports one interaction
//! per question with the score and status a gradebook needs, and what a package keeps in
//! `cmi.suspend_data` fits its 4,096 characters and reads back to the same exam.

use pe_explorer::learn::lesson::STEPS;
use pe_explorer::learn::quiz::{
    check_task, question, task_preset, Answer, Checked, Exam, Kind, Timing, QUESTIONS,
};
use pe_explorer::learn::scorm::{
    exam_report, exam_status, exam_suspend, interaction_id, lesson_status, lesson_suspend, mastery,
    percent, read_exam_suspend, read_lesson_suspend, time_of_day, timespan, SUSPEND_LIMIT,
    TASK_SETTINGS_MAX, TYPED_MAX,
};
use pe_explorer::state::Settings;
use pe_explorer::url::{parse, to_link_within};

/// One item of a pattern: a character test, and how many times it may repeat.
type Item = (Box<dyn Fn(char) -> bool>, usize, usize);

/// A string matches a pattern of this small regular-expression subset: literal characters,
/// `[…]` classes with ranges, and `{m,n}` counts. Enough for the SCORM formats, without a
/// dependency.
fn matches(pattern: &str, text: &str) -> bool {
    // Parse into (class, min, max) items.
    let p: Vec<char> = pattern.chars().collect();
    let mut items: Vec<Item> = Vec::new();
    let mut i = 0;
    while i < p.len() {
        let test: Box<dyn Fn(char) -> bool> = if p[i] == '[' {
            let end = i + p[i..].iter().position(|&c| c == ']').unwrap();
            let class: Vec<char> = p[i + 1..end].to_vec();
            i = end + 1;
            Box::new(move |c| {
                let mut j = 0;
                while j < class.len() {
                    if j + 2 < class.len() && class[j + 1] == '-' {
                        if (class[j]..=class[j + 2]).contains(&c) {
                            return true;
                        }
                        j += 3;
                    } else {
                        if class[j] == c {
                            return true;
                        }
                        j += 1;
                    }
                }
                false
            })
        } else {
            let l = p[i];
            i += 1;
            Box::new(move |c| c == l)
        };
        let (mut lo, mut hi) = (1, 1);
        if i < p.len() && p[i] == '{' {
            let end = i + p[i..].iter().position(|&c| c == '}').unwrap();
            let spec: String = p[i + 1..end].iter().collect();
            let (a, b) = spec.split_once(',').unwrap_or((&spec, &spec));
            (lo, hi) = (a.parse().unwrap(), b.parse().unwrap());
            i = end + 1;
        }
        items.push((test, lo, hi));
    }
    // Greedy with backtracking over the counts.
    fn go(items: &[Item], t: &[char]) -> bool {
        let Some(((test, lo, hi), rest)) = items.split_first() else {
            return t.is_empty();
        };
        let mut run = 0;
        while run < *hi && run < t.len() && test(t[run]) {
            run += 1;
        }
        (*lo..=run).rev().any(|k| go(rest, &t[k..]))
    }
    let t: Vec<char> = text.chars().collect();
    go(&items, &t)
}

// Moodle's SCORM 1.2 formats (mod/scorm/datamodels/scorm_12.js), in the subset above.
const CMI_TIMESPAN: &str = "[0-9]{2,4}:[0-9]{2}:[0-9]{2}.[0-9]{1,2}";
const CMI_TIME: &str = "[0-9]{2}:[0-9]{2}:[0-9]{2}";
const CMI_IDENTIFIER: &str = "[!-~]{1,255}";
const CMI_DECIMAL_0_100: &[&str] = &["[0-9]{1,2}", "100"];

fn grade(n: usize, settings: &str, typed: &str) -> Checked {
    check_task(n, &parse(settings).settings, typed)
}

fn number_of(id: &str) -> usize {
    QUESTIONS.iter().position(|q| q.id == id).unwrap() + 1
}

/// The settings a student solves task `id` with (as `tests/learn.rs` shows them right).
fn solved(id: &str) -> (Settings, String) {
    let mut s = task_preset(number_of(id), &Settings::default());
    let mut typed = String::new();
    match id {
        "tell-apart" => s.attention_position = true,
        "slowest-wavelength" => s.base = 100.0,
        "negative-dot" => {
            s.d_model = 64;
            // The first k with Σ cos(k·ωᵢ) < 0 at d_model 64, base 10,000 (computed here).
            let k = (1..5000)
                .find(|&k| {
                    (0..32)
                        .map(|i| (k as f64 * 10000f64.powf(-(2.0 * i as f64) / 64.0)).cos())
                        .sum::<f64>()
                        < -1e-9
                })
                .unwrap();
            typed = format!("−{k}");
        }
        "steepest-head" => s.schemes.alibi.head = 0,
        "reordered-variant" => s.variant = pe_explorer::math::sinusoidal::Variant::Split,
        other => panic!("no way to solve {other}"),
    }
    (s, typed)
}

/// An exam with every question answered: right, but for the `wrong` ones.
fn taken(started: f64, wrong: &[&str]) -> Exam {
    let mut exam = Exam::new(started);
    for (i, q) in QUESTIONS.iter().enumerate() {
        let n = i + 1;
        let t = Timing {
            at_ms: started + 30_000.0 * n as f64,
            latency_ms: 12_340.0 + n as f64,
        };
        let answer = match &q.kind {
            Kind::Choice { answer, .. } => {
                let pick = if wrong.contains(&q.id) {
                    (answer + 1) % 4
                } else {
                    *answer
                };
                Answer::Choice(pick)
            }
            Kind::Task { .. } => {
                let (mut s, typed) = solved(q.id);
                if wrong.contains(&q.id) {
                    s = task_preset(n, &Settings::default());
                }
                Answer::Task {
                    settings: to_link_within(&s, None, TASK_SETTINGS_MAX).query,
                    typed,
                }
            }
        };
        assert!(exam.record(n, answer, t));
    }
    exam
}

/// `learn::scorm::timespan` and `time_of_day` write SCORM 1.2's CMITimespan and CMITime
/// (RTE 3.4.3): hand-derived values, and the format for every kind of input.
#[test]
fn times_are_written_as_scorm_1_2_reads_them() {
    assert_eq!(timespan(0.0), "00:00:00.00");
    assert_eq!(timespan(754_000.0), "00:12:34.00");
    assert_eq!(timespan(3_723_450.0), "01:02:03.45");
    assert_eq!(timespan(5.0), "00:00:00.01"); // rounded to hundredths
    assert_eq!(timespan(f64::NAN), "00:00:00.00");
    assert_eq!(timespan(-5.0), "00:00:00.00");
    assert_eq!(timespan(1e15), "9999:59:59.99");
    for ms in [
        0.0,
        1.0,
        999.0,
        59_999.0,
        3.6e6,
        3.6e8,
        3.6e10,
        1e300,
        f64::INFINITY,
    ] {
        assert!(
            matches(CMI_TIMESPAN, &timespan(ms)),
            "{ms}: {}",
            timespan(ms)
        );
    }
    // 2026-11-24 10:03:12 UTC, on clocks an hour ahead and ten hours behind.
    let t = 1_795_514_592_000.0;
    assert_eq!(time_of_day(t, 0.0), "10:03:12");
    assert_eq!(time_of_day(t, 60.0), "11:03:12");
    assert_eq!(time_of_day(t, -600.0), "00:03:12");
    assert_eq!(time_of_day(t, -611.0), "23:52:12");
    for off in [-1e9, f64::NAN, 1e9] {
        assert!(matches(CMI_TIME, &time_of_day(t, off)));
    }
    // Times an LMS's suspend data could hold, however large, give a time of day.
    for ms in [f64::MAX, -f64::MAX, 9.2e21] {
        assert!(matches(CMI_TIME, &time_of_day(ms, 1440.0)));
    }
}

/// `learn::scorm::percent` and `mastery`: the score is a whole percentage, the mastery score
/// a number from 0 to 100 or nothing.
#[test]
fn scores_are_percentages_and_mastery_is_checked() {
    assert_eq!(percent(15, 17), 88); // 88.2…
    assert_eq!(
        (percent(17, 17), percent(0, 17), percent(1, 0)),
        (100, 0, 0)
    );
    assert_eq!(mastery("80"), Some(80.0));
    assert_eq!(mastery(" 72.5 "), Some(72.5));
    for bad in ["", "abc", "101", "-1", "NaN", "inf", "1e3"] {
        assert_eq!(mastery(bad), None, "{bad}");
    }
}

/// `learn::scorm::exam_report`: after submission, one interaction per question, its id first
/// (LMSs create an interaction when its id is set), every value in its SCORM 1.2 vocabulary or
/// format; the score as a percentage from 0 to 100; passed or failed against the mastery score.
#[test]
fn a_graded_exam_reports_every_question_score_and_status() {
    let started = 1_795_514_592_000.0;
    let mut exam = taken(started, &["gpt2", "steepest-head"]);
    assert_eq!(
        exam_report(&exam, Some(80.0), 0.0),
        vec![],
        "nothing before submission"
    );
    assert_eq!(exam_status(&exam, Some(80.0)), "incomplete");
    exam.submit(started + 600_000.0, &grade);
    let total = QUESTIONS.len();
    assert_eq!(exam.score(), Some(total - 2));
    let report = exam_report(&exam, Some(80.0), 60.0);
    let get = |k: &str| {
        report
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let raw = percent(total - 2, total).to_string();
    assert_eq!(get("cmi.core.score.raw"), Some(raw.as_str()));
    assert!(CMI_DECIMAL_0_100.iter().any(|p| matches(p, &raw)));
    assert_eq!(get("cmi.core.score.min"), Some("0"));
    assert_eq!(get("cmi.core.score.max"), Some("100"));
    // All but two right is at least 80 %, and passes a mastery score of exactly its percentage.
    let pct = f64::from(percent(total - 2, total));
    assert!(pct >= 80.0, "{pct}");
    assert_eq!(get("cmi.core.lesson_status"), Some("passed"));
    assert_eq!(exam_status(&exam, Some(pct + 1.0)), "failed");
    assert_eq!(exam_status(&exam, Some(pct)), "passed");
    assert_eq!(exam_status(&exam, None), "completed");
    // The gradebook's values come first: an LMS that refuses an interaction cannot keep them out.
    let first: Vec<&str> = report.iter().take(4).map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        first,
        [
            "cmi.core.score.min",
            "cmi.core.score.max",
            "cmi.core.score.raw",
            "cmi.core.lesson_status"
        ]
    );
    for i in 0..total {
        let n = i + 1;
        let key = |f: &str| format!("cmi.interactions.{i}.{f}");
        let first = report
            .iter()
            .position(|(k, _)| k.starts_with(&format!("cmi.interactions.{i}.")))
            .unwrap();
        assert_eq!(report[first], (key("id"), interaction_id(n)));
        assert!(matches(CMI_IDENTIFIER, &interaction_id(n)));
        let kind = get(&key("type")).unwrap();
        assert!(["choice", "numeric", "performance"].contains(&kind));
        let result = get(&key("result")).unwrap();
        let right = !["gpt2", "steepest-head"].contains(&question(n).id);
        assert_eq!(result, if right { "correct" } else { "wrong" }, "{n}");
        assert!(matches(CMI_TIMESPAN, get(&key("latency")).unwrap()));
        assert_eq!(
            get(&key("latency")),
            Some(timespan(12_340.0 + n as f64).as_str())
        );
        assert_eq!(
            get(&key("time")),
            Some(time_of_day(started + 30_000.0 * n as f64, 60.0).as_str())
        );
        let response = get(&key("student_response")).unwrap();
        assert!(response.chars().count() <= 255);
        match &question(n).kind {
            Kind::Choice { answer, .. } => {
                let pattern = get(&key("correct_responses.0.pattern")).unwrap();
                assert_eq!(pattern, ["a", "b", "c", "d"][*answer]);
                assert_eq!(kind, "choice");
                assert_eq!(response == pattern, right);
            }
            Kind::Task { input: Some(_), .. } => {
                // Typed "−725" (a typographic minus): a decimal in ASCII, as `numeric` wants.
                assert_eq!(kind, "numeric");
                assert!(
                    response.starts_with('-') && response[1..].parse::<u32>().is_ok(),
                    "{response}"
                );
            }
            Kind::Task { .. } => assert_eq!(kind, "performance"),
        }
    }
    // An unanswered question is reported, as wrong, with no response.
    let mut part = Exam::new(started);
    part.record(
        1,
        Answer::Choice(1),
        Timing {
            at_ms: started,
            latency_ms: 0.0,
        },
    );
    part.submit(started + 1.0, &grade);
    let report = exam_report(&part, None, 0.0);
    let ids = report.iter().filter(|(k, _)| k.ends_with(".id")).count();
    assert_eq!(ids, total);
    assert!(report.contains(&("cmi.interactions.1.student_response".into(), String::new())));
    assert!(report.contains(&("cmi.core.lesson_status".into(), "completed".into())));
    // Words typed where a number is asked for: a `fill-in` response, as typed.
    let neg = number_of("negative-dot");
    let mut words = Exam::new(started);
    let typed = "about forty".to_string();
    let settings = String::new();
    words.record(neg, Answer::Task { settings, typed }, Timing::default());
    words.submit(started + 1.0, &grade);
    let report = exam_report(&words, None, 0.0);
    let at = |f: &str| format!("cmi.interactions.{}.{f}", neg - 1);
    assert!(report.contains(&(at("type"), "fill-in".into())));
    assert!(report.contains(&(at("student_response"), "about forty".into())));
}

/// `learn::scorm::exam_suspend` and `read_exam_suspend`: the exam, half done or submitted,
/// reads back the same (graded again from the kept settings), within 4,096 characters even
/// with every task's settings at the longest an exam keeps; beyond that, the longest settings
/// are left out and named.
#[test]
fn the_suspend_data_keeps_an_exam_within_4096_characters() {
    let started = 1_795_514_592_000.0;
    let mut half = Exam::new(started);
    for (i, q) in QUESTIONS.iter().enumerate().take(7) {
        let answer = match &q.kind {
            Kind::Choice { .. } => Answer::Choice(i % 4),
            Kind::Task { .. } => {
                let (s, typed) = solved(q.id);
                Answer::Task {
                    settings: to_link_within(&s, None, TASK_SETTINGS_MAX).query,
                    typed,
                }
            }
        };
        let t = Timing {
            at_ms: started + 1000.0 * i as f64,
            latency_ms: 250.0,
        };
        half.record(i + 1, answer, t);
    }
    let (text, dropped) = exam_suspend(&half, 8);
    assert!(dropped.is_empty() && text.len() <= SUSPEND_LIMIT);
    assert!(text.is_ascii(), "{text}");
    assert_eq!(read_exam_suspend(&text, &grade), Some((half.clone(), 8)));

    let mut done = taken(started, &["order"]);
    done.submit(started + 700_000.0, &grade);
    let last = QUESTIONS.len();
    let (text, _) = exam_suspend(&done, last);
    let (back, on) = read_exam_suspend(&text, &grade).unwrap();
    assert_eq!(
        (back.score(), back.submitted_ms, on),
        (done.score(), done.submitted_ms, last)
    );
    assert_eq!(back, done);

    // The longest an exam keeps: every task's settings TASK_SETTINGS_MAX characters long, every
    // typed answer TYPED_MAX characters of the widest UTF-8.
    let mut full = taken(started, &[]);
    for (i, q) in QUESTIONS.iter().enumerate() {
        if let Kind::Task { .. } = q.kind {
            let settings = format!("view=quiz&a={}", "x".repeat(TASK_SETTINGS_MAX - 13));
            let typed = "𝟘".repeat(TYPED_MAX);
            let t = Timing {
                at_ms: started + 1e9,
                latency_ms: 1e9,
            };
            assert!(full.record(i + 1, Answer::Task { settings, typed }, t));
        }
    }
    let (text, dropped) = exam_suspend(&full, last);
    assert!(text.len() <= SUSPEND_LIMIT, "{}", text.len());
    assert!(dropped.is_empty(), "{dropped:?}");
    let (back, _) = read_exam_suspend(&text, &grade).unwrap();
    assert_eq!(back, full, "unicode typed text and long settings read back");
    // Past it, the longest settings are left out, and the answer stays.
    let n = number_of("tell-apart");
    let huge = Answer::Task {
        settings: format!("a={}", "y".repeat(3000)),
        typed: String::new(),
    };
    full.record(n, huge, Timing::default());
    let (text, dropped) = exam_suspend(&full, 1);
    assert!(text.len() <= SUSPEND_LIMIT);
    assert_eq!(dropped, vec![n]);
    let (back, _) = read_exam_suspend(&text, &grade).unwrap();
    assert_eq!(back.answered(), QUESTIONS.len());

    // Another quiz version, another mode, junk: not an exam.
    for junk in [
        "",
        "pe1;lesson;3;1,2",
        "pe1;exam;00000000;1;0;-",
        "|||",
        "pe1;exam;;;;",
    ] {
        assert_eq!(read_exam_suspend(junk, &grade), None, "{junk}");
    }
}

/// `learn::scorm::lesson_suspend`, `read_lesson_suspend`, `lesson_status`: the step and the steps
/// seen read back; the lesson is complete once every step was seen.
#[test]
fn the_lesson_is_complete_once_every_step_was_seen() {
    let mut seen = vec![false; STEPS.len()];
    seen[0] = true;
    seen[4] = true;
    let text = lesson_suspend(5, &seen);
    assert_eq!(read_lesson_suspend(&text), Some((5, seen.clone())));
    assert_eq!(lesson_status(&seen), "incomplete");
    let all = vec![true; STEPS.len()];
    assert_eq!(lesson_status(&all), "completed");
    assert_eq!(
        read_lesson_suspend(&lesson_suspend(99, &all)),
        Some((STEPS.len(), all))
    );
    assert_eq!(read_lesson_suspend("pe1;lesson;x;1"), None);
    assert_eq!(read_lesson_suspend("pe1;exam;1;1"), None);
    // Steps out of range are ignored.
    let (_, s) = read_lesson_suspend("pe1;lesson;2;0,1,999").unwrap();
    assert_eq!(s.iter().filter(|x| **x).count(), 1);
}
