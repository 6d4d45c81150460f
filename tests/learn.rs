//! The lesson's steps and the quiz: every step sets a valid view, every task's check accepts a
//! right state and rejects wrong ones (measured with the app's math), and saved progress reads
//! back.

use std::collections::HashSet;

use pe_explorer::learn::lesson::{self, STEPS};
use pe_explorer::learn::quiz::{
    check_summary, check_task, duration_text, fingerprint, is_right_choice, question, quiz_version,
    read_offset, slowest_wavelength, task_preset, utc_text, Answer, Checked, Exam, Kind, Progress,
    Timing, QUESTIONS,
};
use pe_explorer::math::alibi::slopes;
use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};
use pe_explorer::math::t5::T5Buckets;
use pe_explorer::schemes::grid::GridScheme;
use pe_explorer::schemes::Scheme;
use pe_explorer::state::{Settings, View};
use pe_explorer::url::{parse, to_query};

fn check(id: &str, s: &Settings, typed: &str) -> Checked {
    let q = QUESTIONS
        .iter()
        .find(|q| q.id == id)
        .expect("question exists");
    match &q.kind {
        Kind::Task { check, .. } => check(s, typed),
        Kind::Choice { .. } => panic!("{id} is not a task"),
    }
}

/// The task's own starting point, then `change`.
fn task(id: &str, change: impl FnOnce(&mut Settings)) -> Settings {
    let n = QUESTIONS.iter().position(|q| q.id == id).unwrap() + 1;
    let mut s = task_preset(n, &Settings::default());
    change(&mut s);
    s
}

/// The number of the step about the bugs worth recognising.
fn bugs_step() -> usize {
    STEPS
        .iter()
        .position(|s| s.title == "Bugs worth recognising")
        .expect("the bugs step")
        + 1
}

#[test]
fn the_lesson_has_eight_to_twelve_steps_each_a_valid_linkable_view() {
    assert!((8..=12).contains(&STEPS.len()));
    for n in 1..=STEPS.len() {
        let s = lesson::preset(n, &Settings::default());
        assert_eq!((s.view, s.lesson), (View::Lesson, n));
        // The step's settings are inside every limit: they survive the URL unchanged.
        assert_eq!(parse(&to_query(&s, None)).settings, s, "step {n}");
        assert!(!matches!(lesson::step(n).view, View::Lesson | View::Quiz));
        assert!(
            lesson::step(n).text(&s).len() > 150,
            "step {n} says too little"
        );
    }
    // The story starts with order and the dog/man demo, reaches the bugs, and ends on a grid
    // of image patches under 2-D sin-cos.
    assert_eq!(STEPS[0].view, View::Attention);
    assert!(!lesson::preset(1, &Settings::default()).attention_position);
    assert_eq!(
        lesson::preset(bugs_step(), &Settings::default()).variant,
        Variant::TutorialBug
    );
    let last = lesson::preset(STEPS.len(), &Settings::default());
    assert_eq!(lesson::step(STEPS.len()).view, View::Patches);
    assert_eq!(last.grid.scheme, GridScheme::SinCos);
    assert_eq!((last.grid.rows, last.grid.cols), (14, 14));
    // Out of range is clamped, not a panic.
    assert_eq!(lesson::preset(0, &Settings::default()).lesson, 1);
    assert_eq!(
        lesson::preset(999, &Settings::default()).lesson,
        STEPS.len()
    );
}

#[test]
fn the_quiz_has_twelve_questions_four_of_them_tasks() {
    assert!(QUESTIONS.len() >= 12);
    let tasks = QUESTIONS
        .iter()
        .filter(|q| matches!(q.kind, Kind::Task { .. }))
        .count();
    assert!(tasks >= 4);
    let ids: HashSet<_> = QUESTIONS.iter().map(|q| q.id).collect();
    assert_eq!(ids.len(), QUESTIONS.len(), "ids are unique");
    for (i, q) in QUESTIONS.iter().enumerate() {
        if let Kind::Choice { options, answer } = q.kind {
            assert!(answer < options.len());
            for k in 0..options.len() {
                assert_eq!(is_right_choice(q, k), k == answer, "{}", q.id);
            }
        }
        assert!(!q.explanation.is_empty());
        assert_eq!(question(i + 1).id, q.id);
    }
    // The right answers are not all in one place.
    let places: HashSet<_> = QUESTIONS
        .iter()
        .filter_map(|q| match q.kind {
            Kind::Choice { answer, .. } => Some(answer),
            Kind::Task { .. } => None,
        })
        .collect();
    assert!(places.len() >= 3);
}

#[test]
fn slowest_wavelength_task() {
    let start = task("slowest-wavelength", |_| {});
    assert!(!check("slowest-wavelength", &start, "").correct);
    let right = task("slowest-wavelength", |s| s.base = 100.0);
    let c = check("slowest-wavelength", &right, "");
    assert!(c.correct, "{}", c.message);
    // The measured wavelength is 2π/ω of the last pair, computed independently here.
    let d = right.d_model as f64;
    let expected = std::f64::consts::TAU * 100f64.powf((d - 2.0) / d);
    assert!((slowest_wavelength(&right) - expected).abs() < 1e-9 * expected);
    assert!(c.message.contains(&format!("{}", expected.round() as u64)));
    let other = task("slowest-wavelength", |s| {
        s.base = 100.0;
        s.scheme = Scheme::Rope;
    });
    assert!(!check("slowest-wavelength", &other, "").correct);
    // Shrinking d_model instead of the base is not the answer.
    let narrow = task("slowest-wavelength", |s| s.d_model = 2);
    assert!(slowest_wavelength(&narrow) < 1000.0);
    assert!(!check("slowest-wavelength", &narrow, "").correct);
}

#[test]
fn negative_dot_task() {
    let at64 = task("negative-dot", |s| s.d_model = 64);
    let e = Sinusoidal::new(Variant::Paper, 64, at64.base);
    // Dot products of real rows, not the closed form the check uses.
    let dot = |k: usize| -> f64 { e.row(3).iter().zip(e.row(3 + k)).map(|(a, b)| a * b).sum() };
    let negative = (0..2000)
        .find(|&k| dot(k) < -1e-9)
        .expect("a negative offset exists");
    let positive = (1..2000).find(|&k| dot(k) > 1e-9).unwrap();
    let c = check("negative-dot", &at64, &negative.to_string());
    assert!(c.correct, "{}", c.message);
    assert!(!check("negative-dot", &at64, &positive.to_string()).correct);
    assert!(!check("negative-dot", &at64, "0").correct);
    // The width matters, and the typed text is read strictly.
    let at128 = task("negative-dot", |s| s.d_model = 128);
    assert!(!check("negative-dot", &at128, &negative.to_string()).correct);
    for junk in [
        "",
        "abc",
        "1e3",
        "<b>4</b>",
        "99999999999",
        "--3",
        "4-",
        "− 3",
    ] {
        assert!(!check("negative-dot", &at64, junk).correct, "{junk}");
        assert!(read_offset(junk, 1024).is_err(), "{junk}");
    }
    assert_eq!(read_offset(" 42 ", 1024), Ok(42));
    // The chart shows offsets −(L − 1) … L − 1 (length 1024 here): negative ones are accepted,
    // typed with a hyphen or a minus sign, and measured like their mirror images (the dot
    // product is even in k).
    assert_eq!(at64.length, 1024);
    for typed in [format!("-{negative}"), format!("−{negative}")] {
        assert_eq!(read_offset(&typed, 1024), Ok(-(negative as i64)));
        let c = check("negative-dot", &at64, &typed);
        assert!(c.correct, "{typed}: {}", c.message);
    }
    // The issue's −725: accepted, and judged by the sign of the real dot product there.
    assert_eq!(read_offset("−725", 1024), Ok(-725));
    let c = check("negative-dot", &at64, "−725");
    assert_eq!(c.correct, dot(725) < 0.0, "{}", c.message);
    assert!(!c.message.contains("between 0"), "{}", c.message);
    assert!(c.message.contains("PE(p)·PE(p − 725)"), "{}", c.message);
    // Past the chart's ends: refused with the range the chart shows.
    for out in ["1024", "-1024", "5000"] {
        let e = read_offset(out, 1024).unwrap_err();
        assert!(e.contains("−1,023 to 1,023"), "{out}: {e}");
    }
    assert_eq!(read_offset("1023", 1024), Ok(1023));
    assert!(read_offset("1", 1).is_err(), "length 1 shows only k = 0");
}

/// Every question opens on its own settings: whatever the previous question left (ALiBi after
/// question 13, a typed base, a variant), the next one starts from its own starting point.
#[test]
fn no_question_inherits_the_previous_ones_settings() {
    let alibi = QUESTIONS
        .iter()
        .position(|q| q.id == "steepest-head")
        .unwrap()
        + 1;
    let after = task_preset(alibi, &Settings::default());
    assert_eq!(after.scheme, Scheme::Alibi);
    for n in 1..=QUESTIONS.len() {
        let mut messy = after.clone();
        messy.base = 123.0;
        messy.variant = Variant::T2t;
        messy.causal = true;
        messy.exam = true;
        let from_mess = task_preset(n, &messy);
        let mut clean = task_preset(n, &Settings::default());
        clean.exam = true;
        assert_eq!(from_mess, clean, "question {n}");
        assert_eq!((from_mess.view, from_mess.question), (View::Quiz, n));
    }
    // The question after the ALiBi task is back on the default scheme.
    assert_eq!(task_preset(alibi + 1, &after).scheme, Scheme::Sinusoidal);
}

/// Grades a recorded task as the app does: its settings read back from their link query.
fn grade(n: usize, settings: &str, typed: &str) -> Checked {
    check_task(n, &parse(settings).settings, typed)
}

fn at(ms: f64) -> Timing {
    Timing {
        at_ms: ms,
        latency_ms: 1500.0,
    }
}

/// The exam: answers are recorded but give no verdict until submission (none is even kept:
/// a task keeps its settings and is checked from them when graded); then the score, the
/// verdicts and a plain-text summary exist, and nothing can change.
#[test]
fn an_exam_reveals_nothing_before_submission() {
    let n_of = |id: &str| QUESTIONS.iter().position(|q| q.id == id).unwrap() + 1;
    let right_of = |n: usize| match question(n).kind {
        Kind::Choice { answer, .. } => answer,
        Kind::Task { .. } => unreachable!(),
    };
    let started = 1_795_514_592_000.0; // 2026-11-24 10:03:12 UTC
    let mut exam = Exam::new(started);
    let (order, gpt2, t5) = (n_of("order"), n_of("gpt2"), n_of("t5-far"));
    // A wrong answer, then changed to the right one; another wrong one; a task.
    let wrong_order = Answer::Choice((right_of(order) + 1) % 4);
    assert!(exam.record(order, wrong_order, at(started + 1000.0)));
    assert!(exam.record(order, Answer::Choice(right_of(order)), at(started + 2000.0)));
    let wrong_gpt2 = Answer::Choice((right_of(gpt2) + 1) % 4);
    assert!(exam.record(gpt2, wrong_gpt2, at(started + 3000.0)));
    let tell = n_of("tell-apart");
    let solved = task("tell-apart", |s| s.attention_position = true);
    assert!(check("tell-apart", &solved, "").correct);
    let answer = Answer::Task {
        settings: to_query(&solved, None),
        typed: String::new(),
    };
    assert!(exam.record(tell, answer, at(started + 4000.0)));
    let none = at(started);
    assert!(!exam.record(0, Answer::Choice(0), none) && !exam.record(99, Answer::Choice(0), none));
    assert_eq!(exam.answered(), 3);
    assert_eq!(exam.timing(order), Some(at(started + 2000.0)));
    // Before submission: no verdict, no score, no summary, for any question.
    for n in 1..=QUESTIONS.len() {
        assert_eq!(
            (exam.verdict(n), exam.result(n)),
            (None, None),
            "question {n}"
        );
    }
    assert_eq!((exam.score(), exam.summary("x")), (None, None));
    // The saved text holds no verdict and no measurement, and reads back.
    let text = exam.to_text();
    assert!(!text.contains("Measured"), "{text}");
    assert_eq!(Exam::parse(&text, &grade), Some(exam.clone()));

    exam.submit(started + 754_000.0, &grade); // 12 min 34 s later
    exam.submit(started + 999_999.0, &grade); // a second submit keeps the first time
    assert_eq!(exam.time_taken_ms(), Some(754_000.0));
    assert_eq!(exam.verdict(order), Some(true));
    assert_eq!(exam.verdict(gpt2), Some(false));
    assert_eq!(exam.verdict(tell), Some(true));
    assert!(exam
        .result(tell)
        .is_some_and(|r| r.message.contains("Measured")));
    assert_eq!(exam.verdict(t5), None, "not answered");
    assert_eq!(exam.score(), Some(2));
    // Nothing changes after submission.
    let late = Answer::Choice(right_of(gpt2));
    assert!(!exam.record(gpt2, late, at(started + 1e6)));
    assert_eq!(exam.score(), Some(2));

    let link = "https://example.org/pe/?view=quiz&exam=1";
    let summary = exam.summary(link).unwrap();
    let total = QUESTIONS.len();
    for said in [
        format!("Quiz version: {} ({total} questions)", quiz_version()),
        format!("Link: {link}"),
        "Started: 2026-11-24 10:03:12 UTC".to_string(),
        "Submitted: 2026-11-24 10:15:46 UTC".to_string(),
        "Time taken: 12 min 34 s".to_string(),
        format!("Score: 2 of {total}"),
        format!("{order}. order · right: “Exactly the same vector”"),
        format!("{gpt2}. gpt2 · wrong: “2048” (right: “1024”)"),
        format!("{tell}. tell-apart · right (task): Measured:"),
        format!("{t5}. t5-far · not answered"),
    ] {
        assert!(summary.contains(&said), "{said}\n in:\n{summary}");
    }
    assert_eq!(summary.lines().filter(|l| l.contains(" · ")).count(), total);
    // The summary's digest rechecks: the app's own lines pass, an edited score does not.
    let digest = check_summary(&summary).unwrap();
    assert!(summary.ends_with(&format!("Digest: {digest}\n")));
    let edited = summary.replacen(
        &format!("Score: 2 of {total}"),
        &format!("Score: 9 of {total}"),
        1,
    );
    assert!(check_summary(&edited)
        .unwrap_err()
        .contains("changed after the app wrote it"));
    assert!(
        check_summary(&summary.replace("\n", "\r\n")).is_ok(),
        "line endings do not matter"
    );
    assert!(check_summary("Score: 17 of 17").is_err());
    // The digest changes with any answer or time.
    let mut other = exam.clone();
    other.started_ms += 1000.0;
    assert_ne!(other.digest(), exam.digest());
    // A submitted exam reads back submitted and graded; another quiz version or junk is not read.
    assert_eq!(Exam::parse(&exam.to_text(), &grade), Some(exam.clone()));
    let other = exam.to_text().replacen(&quiz_version(), "00000000", 1);
    assert_eq!(Exam::parse(&other, &grade), None);
    for junk in ["", "exam2", "<script>", "exam2 1\nstarted x\nsubmitted -\n"] {
        assert_eq!(Exam::parse(junk, &grade), None, "{junk}");
    }
    // Lines that do not fit are skipped, the rest kept.
    let mut text = Exam::new(5.0).to_text();
    text.push_str("order\tchoice\t9\t5\t0\nnope\tchoice\t1\t5\t0\ngpt2\tchoice\t1\t6\t1\norder\ttask\t1\t2\t3\t4\n");
    let read = Exam::parse(&text, &grade).unwrap();
    assert_eq!(read.answered(), 1);
    assert_eq!(read.answer(gpt2), Some(&Answer::Choice(1)));
}

#[test]
fn times_and_versions_read_as_people_write_them() {
    assert_eq!(utc_text(0.0), "1970-01-01 00:00:00 UTC");
    // Checked against Python's datetime: 951868799 s is 2000-02-29 23:59:59 UTC (a leap day).
    assert_eq!(utc_text(951_868_799_000.0), "2000-02-29 23:59:59 UTC");
    assert_eq!(utc_text(951_868_800_000.0), "2000-03-01 00:00:00 UTC");
    assert_eq!(utc_text(1_795_514_592_999.0), "2026-11-24 10:03:12 UTC");
    assert_eq!(utc_text(f64::NAN), "unknown");
    assert_eq!(duration_text(0.0), "0 s");
    assert_eq!(duration_text(45_400.0), "45 s");
    assert_eq!(duration_text(754_000.0), "12 min 34 s");
    assert_eq!(duration_text(3_780_000.0), "1 h 3 min");
    assert_eq!(duration_text(-5.0), "0 s");
    let v = quiz_version();
    assert_eq!(v.len(), 8);
    assert!(v.chars().all(|c| c.is_ascii_hexdigit()));
    assert_eq!(v, quiz_version());
    assert_ne!(
        fingerprint(["a", "b"].into_iter()),
        fingerprint(["ab"].into_iter())
    );
    assert_ne!(
        fingerprint(["a"].into_iter()),
        fingerprint(["b"].into_iter())
    );
}

/// The exam is part of the quiz's link, and only of the quiz's.
#[test]
fn the_exam_is_set_in_the_link() {
    let p = parse("view=quiz&exam=1");
    assert!(p.settings.exam && p.notices.is_empty());
    assert_eq!(to_query(&p.settings, None), "view=quiz&exam=1");
    let task_n = QUESTIONS
        .iter()
        .position(|q| q.id == "negative-dot")
        .unwrap()
        + 1;
    let at_task = parse(&format!("view=quiz&question={task_n}&exam=1"));
    assert!(at_task.settings.exam);
    assert_eq!(at_task.settings.length, 1024, "the task's own start");
    assert_eq!(
        to_query(&at_task.settings, None),
        format!("view=quiz&question={task_n}&exam=1")
    );
    let embedded = parse("embed=quiz&exam=1");
    assert!(embedded.settings.exam && embedded.embed.is_some());
    assert_eq!(
        to_query(&embedded.settings, embedded.embed.as_ref()),
        "embed=quiz&exam=1"
    );
    let elsewhere = parse("view=heatmap&exam=1");
    assert!(!elsewhere.settings.exam);
    assert!(elsewhere.notices.iter().any(|n| n.contains("exam=1")));
    assert!(!parse("view=quiz&exam=banana").settings.exam);
    assert!(!parse("view=quiz").settings.exam);
}

/// Compare's default partner differs from the chosen scheme; a link's `with=` still wins.
#[test]
fn compare_opens_on_another_scheme() {
    // The partner a link opens Compare on, and the link the app writes back.
    let opened = |link: &str| {
        let s = parse(link).settings;
        (s.compare_partner(), to_query(&s, None))
    };
    assert_eq!(opened("view=compare").0, Scheme::Rope);
    let rope = "view=compare&scheme=rope";
    assert_eq!(opened(rope), (Scheme::Sinusoidal, rope.to_string()));
    for scheme in Scheme::ALL {
        let s = Settings {
            scheme,
            ..Settings::default()
        };
        assert_ne!(s.compare_partner(), scheme, "{scheme:?}");
    }
    // Old links keep what they showed.
    assert_eq!(opened("view=compare&with=alibi").0, Scheme::Alibi);
    let same = "view=compare&scheme=rope&with=rope";
    assert_eq!(opened(same), (Scheme::Rope, same.to_string()));
    assert!(!parse("with=nonsense").notices.is_empty());
}

/// The bugs step opens on the tutorial bug, so nothing on its screen suggests switching to it.
#[test]
fn try_it_suggests_a_change_not_the_current_state() {
    use pe_explorer::learn::lesson::matrix_try_it;
    let bugs = lesson::preset(bugs_step(), &Settings::default());
    assert_eq!(bugs.variant, Variant::TutorialBug);
    let hint = matrix_try_it(bugs.base, bugs.variant);
    assert!(!hint.contains("to tutorial-bug"), "{hint}");
    assert!(hint.contains("to paper"), "{hint}");
    assert!(!lesson::step(bugs_step()).try_this.contains("tutorial-bug"));
    let plain = matrix_try_it(10_000.0, Variant::Paper);
    assert!(
        plain.contains("to tutorial-bug") && plain.contains("down to 10"),
        "{plain}"
    );
    let low = matrix_try_it(10.0, Variant::Split);
    assert!(
        !low.contains("down to 10") && low.contains("up to 10000"),
        "{low}"
    );
    // No lesson step's own hint names the variant it already shows.
    for n in 1..=STEPS.len() {
        let s = lesson::preset(n, &Settings::default());
        let hint = matrix_try_it(s.base, s.variant);
        assert!(
            !hint.contains(&format!("to {}", s.variant.id())),
            "step {n}: {hint}"
        );
    }
}

#[test]
fn steepest_head_task() {
    let start = task("steepest-head", |_| {});
    assert!(!check("steepest-head", &start, "").correct);
    // The steepest head, found from the slopes themselves.
    let s8 = slopes(8);
    let best = (0..8).max_by(|&a, &b| s8[a].total_cmp(&s8[b])).unwrap();
    let right = task("steepest-head", |s| s.schemes.alibi.head = best);
    assert!(check("steepest-head", &right, "").correct);
    let four = task("steepest-head", |s| {
        s.schemes.alibi.heads = 4;
        s.schemes.alibi.head = best;
    });
    assert!(!check("steepest-head", &four, "").correct);
}

#[test]
fn reordered_variant_task() {
    let pick = |v: Variant| {
        check(
            "reordered-variant",
            &task("reordered-variant", |s| s.variant = v),
            "",
        )
    };
    assert!(pick(Variant::Split).correct);
    for v in [Variant::Paper, Variant::T2t, Variant::TutorialBug] {
        assert!(!pick(v).correct, "{v:?}");
    }
    let tiny = task("reordered-variant", |s| {
        s.variant = Variant::Split;
        s.d_model = 2;
    });
    let c = check("reordered-variant", &tiny, "");
    assert!(
        !c.correct && c.message.contains("raise d_model"),
        "{}",
        c.message
    );
}

#[test]
fn tell_apart_task() {
    let start = task("tell-apart", |_| {});
    assert!(!check("tell-apart", &start, "").correct);
    let on = task("tell-apart", |s| s.attention_position = true);
    let c = check("tell-apart", &on, "");
    assert!(c.correct, "{}", c.message);
    // Changing the words is not the answer.
    let cheat = task("tell-apart", |s| {
        s.attention_position = true;
        s.sentences = ["dog bites man".into(), "cat eats fish".into()];
    });
    assert!(!check("tell-apart", &cheat, "").correct);
    // A causal mask breaks the tie without any position information: not the answer either.
    let masked = task("tell-apart", |s| s.causal = true);
    let m = pe_explorer::figures::attention::demo(&masked);
    assert!(
        m.summary_cosine < pe_explorer::figures::attention::TIE,
        "the mask alone does tell them apart"
    );
    assert!(!check("tell-apart", &masked, "").correct);
    let both = task("tell-apart", |s| {
        s.causal = true;
        s.attention_position = true;
    });
    assert!(!check("tell-apart", &both, "").correct);
}

#[test]
fn progress_reads_back_and_ignores_what_it_does_not_know() {
    let mut p = Progress::default();
    p.record("order", true);
    p.record("gpt2", false);
    p.record("order", false);
    p.record("order", true);
    assert_eq!((p.score(), p.answered()), (1, 2));
    assert_eq!(Progress::parse(&p.to_text()), p);
    let junk = Progress::parse("order:1,nope:1,gpt2:7,,:,<script>:1,gpt2:0");
    assert_eq!(
        (junk.get("order"), junk.get("gpt2"), junk.answered()),
        (Some(true), Some(false), 2)
    );
    assert_eq!(Progress::parse("").answered(), 0);
}

#[test]
fn the_facts_the_quiz_states_hold_in_the_app() {
    // ALiBi, 8 heads: 1/2, 1/4, …, 1/256.
    let s = slopes(8);
    for (i, m) in s.iter().enumerate() {
        assert!((m - 0.5f64.powi(i as i32 + 1)).abs() < 1e-12);
    }
    // T5 (32 buckets, max distance 128): 500 and 5,000 back share a bucket, 5 and 50 do not.
    let t5 = T5Buckets::default();
    assert_eq!((t5.num_buckets, t5.max_distance), (32, 128));
    assert_eq!(t5.bucket(-500), t5.bucket(-5000));
    assert_ne!(t5.bucket(-5), t5.bucket(-50));
    // …and with 32 bidirectional buckets the last one starts at distance 91 (lesson step 9).
    assert_eq!(t5.saturation_distance(), 91);
    // Lesson step 3: the slowest wavelength at d_model 64 is 47,117 positions; at base 30 it fits
    // in the step's 200 positions.
    let mut s64 = Settings {
        d_model: 64,
        ..Settings::default()
    };
    assert_eq!(slowest_wavelength(&s64).round(), 47_117.0);
    s64.base = 30.0;
    assert!(slowest_wavelength(&s64) < 200.0);
    // Lesson step 5: at d_model 16 the dot product dips below zero within the step's 256 offsets,
    // while at the step's own d_model 64 it does not.
    let first_negative = |d: usize| {
        let e = Sinusoidal::new(Variant::Paper, d, 10_000.0);
        (0..5000).find(|&k| pe_explorer::math::offsets::closed_form(&e, k) < 0.0)
    };
    assert!(first_negative(16).unwrap() < 256);
    assert!(first_negative(64).unwrap() >= 256);
    // The negative-dot task's chart (length 1024) shows one at d_model 64.
    assert!(first_negative(64).unwrap() < 1024);
    // Lesson step 8: at length 64 the steepest head's penalty reaches 31.5, the gentlest's 0.25.
    assert_eq!(s[0] * 63.0, 31.5);
    assert!((s[7] * 63.0 - 0.25).abs() < 0.01);
    // The fastest pair of the paper repeats every 2π positions, whatever the base.
    for base in [100.0, 10_000.0, 500_000.0] {
        let e = Sinusoidal::new(Variant::Paper, 64, base);
        assert!((std::f64::consts::TAU / e.omega(0) - std::f64::consts::TAU).abs() < 1e-12);
    }
}

/// The wording fixes of issue 14: the numbers the quiz and the views state are the app's.
#[test]
fn stated_numbers_match_the_math() {
    use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};
    use pe_explorer::math::t5::T5Buckets;
    let causal = T5Buckets {
        bidirectional: false,
        ..T5Buckets::default()
    };
    assert_eq!(causal.saturation_distance(), 113);
    assert_eq!(T5Buckets::default().saturation_distance(), 91);
    let q = pe_explorer::learn::quiz::QUESTIONS
        .iter()
        .find(|q| q.explanation.contains("last bucket"))
        .expect("the T5 question");
    assert!(q.explanation.contains("91") && q.explanation.contains("113"));
    // The tutorial bug's slowest wavelength is 2π·base^(2 − 4/d).
    for (d, base) in [(8usize, 10_000.0f64), (64, 10_000.0), (128, 500.0)] {
        let e = Sinusoidal::new(Variant::TutorialBug, d, base);
        let slowest = std::f64::consts::TAU / e.omega(d / 2 - 1);
        let want = std::f64::consts::TAU * base.powf(2.0 - 4.0 / d as f64);
        assert!((slowest / want - 1.0).abs() < 1e-12, "d = {d}");
    }
    // The t2t label shows the guard where the numbers use it.
    assert!(Variant::T2t.exponent_for(2).contains("max("));
    assert!(Variant::T2t.exponent_for(3).contains("max("));
    assert!(!Variant::T2t.exponent_for(8).contains("max("));
}

/// `Exam::practice_opened`: opening the practice quiz (which checks answers) during an exam is
/// noted once, kept with the exam, and said in the summary; after submission it is not.
#[test]
fn practice_opened_during_an_exam_is_said_in_the_summary() {
    let started = 1_795_514_592_000.0;
    let mut exam = Exam::new(started);
    assert!(exam.practice_opened(started + 60_000.0));
    assert!(!exam.practice_opened(started + 90_000.0), "once");
    let back = Exam::parse(&exam.to_text(), &grade).unwrap();
    assert_eq!(back.practice_ms, Some(started + 60_000.0));
    exam.submit(started + 120_000.0, &grade);
    let summary = exam.summary("x").unwrap();
    assert!(
        summary.contains("was opened in this tab during the exam: 2026-11-24 10:04:12 UTC"),
        "{summary}"
    );
    assert!(check_summary(&summary).is_ok());
    let mut done = Exam::new(started);
    done.submit(started, &grade);
    assert!(!done.practice_opened(started + 1.0), "not after submission");
}

/// The last step and questions 18–19 are about image patches: the step's numbers follow the
/// grid and the width on screen, and what question 18 calls right is what MAE's 2-D sin-cos
/// measures on the step's own 14 × 14 grid.
#[test]
fn the_patches_step_and_questions_say_what_the_grid_shows() {
    use pe_explorer::learn::quiz::see_preset;
    use pe_explorer::math::grid::{GridEncoding, Similarity, SinCos2d};
    use pe_explorer::schemes::grid::GridSettings;

    let n = STEPS.len();
    let s = lesson::preset(n, &Settings::default());
    let (rows, cols, width) = (s.grid.rows, s.grid.cols, GridSettings::width(s.d_model));
    let text = lesson::step(n).text(&s);
    for said in [
        format!("{rows} × {cols} here"),
        format!("below another is {cols} positions away"),
        format!("of its {width} numbers, {} encode the column", width / 2),
    ] {
        assert!(text.contains(&said), "{said}\n in: {text}");
    }
    // Row-major numbering: the patch below is a row's length further on, and the last patch of
    // a row is next to the first of the next.
    let g = s.grid.grid();
    assert_eq!(g.patch(5, 3) - g.patch(4, 3), cols);
    assert_eq!(g.patch(5, 0) - g.patch(4, cols - 1), 1);
    // The numbers follow the settings on screen.
    let mut other = s.clone();
    (other.grid.cols, other.d_model) = (9, 66);
    let text = lesson::step(n).text(&other);
    assert!(text.contains("below another is 9 positions away"), "{text}");
    assert!(text.contains("of its 64 numbers, 32 encode"), "{text}");
    other.grid.cols = 1;
    assert!(lesson::step(n).text(&other).contains("1 position away"));

    // Question 18: near neighbours first; far out, the centre's row and column beat every
    // patch off both; equal Euclidean distances differ; a diagonal patch loses on both halves.
    let q = QUESTIONS.iter().find(|q| q.id == "patch-cross").unwrap();
    let seen = see_preset(q, &Settings::default());
    assert_eq!(
        (seen.view, seen.grid.scheme),
        (View::Patches, GridScheme::SinCos)
    );
    let sim = Similarity::of(&GridEncoding::SinCos(
        SinCos2d::new(width, g, s.base).unwrap(),
    ));
    let (cr, cc) = (rows / 2, cols / 2);
    let centre = g.patch(cr, cc);
    let at = |dr: i64, dc: i64| {
        let p = g.patch((cr as i64 + dr) as usize, (cc as i64 + dc) as usize);
        sim.between(centre, p)
    };
    let others = || (0..g.patches()).filter(|&p| p != centre);
    let best = others()
        .map(|p| sim.between(centre, p))
        .fold(f64::MIN, f64::max);
    for (dr, dc) in [(0, 1), (1, 0), (0, -1), (-1, 0)] {
        assert!((at(dr, dc) - best).abs() < 1e-12, "({dr}, {dc})");
    }
    let (on_cross, far_off): (Vec<usize>, Vec<usize>) = others().partition(|&p| {
        let (r, c) = g.cell(p);
        r == cr || c == cc
    });
    let weakest_on_cross = on_cross
        .iter()
        .map(|&p| sim.between(centre, p))
        .fold(f64::MAX, f64::min);
    for p in far_off {
        let (r, c) = g.cell(p);
        if r.abs_diff(cr).min(c.abs_diff(cc)) >= 4 {
            assert!(
                sim.between(centre, p) < weakest_on_cross,
                "patch ({r}, {c})"
            );
        }
    }
    assert!((at(0, 5) - at(3, 4)).abs() > 0.01, "not rotation-invariant");
    for k in 1..=5 {
        assert!(at(k, k) < at(0, k), "diagonal {k}");
    }

    // Question 19 opens the Image patches view too.
    let q = QUESTIONS.iter().find(|q| q.id == "mrope-row").unwrap();
    assert_eq!(see_preset(q, &Settings::default()).view, View::Patches);
}

/// `Exam::summary_after`: a later attempt's summary names the attempt submitted before it in the
/// same browser (a new tab starts a new exam; issue 29 #14).
#[test]
fn a_later_attempt_says_an_earlier_one_was_submitted() {
    let first_start = 1_764_000_000_000.0;
    let mut first = Exam::new(first_start);
    first.submit(first_start + 60_000.0, &grade);
    let mut second = Exam::new(first_start + 120_000.0);
    second.submit(first_start + 180_000.0, &grade);
    let said = second.summary_after("x", Some(&first)).unwrap();
    assert!(
        said.contains("An earlier exam was submitted in this browser"),
        "{said}"
    );
    assert!(said.contains("score 0 of"), "{said}");
    // The digest covers that line: the summary checks as written, and not without it.
    assert!(check_summary(&said).is_ok());
    // Not the other way round, nor an attempt with itself.
    assert!(!first
        .summary_after("x", Some(&second))
        .unwrap()
        .contains("earlier exam"));
    assert!(!second
        .summary_after("x", Some(&second))
        .unwrap()
        .contains("earlier exam"));
}
