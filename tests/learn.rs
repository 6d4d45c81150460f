//! The lesson's steps and the quiz: every step sets a valid view, every task's check accepts a
//! right state and rejects wrong ones (measured with the app's math), and saved progress reads
//! back.

use std::collections::HashSet;

use pe_explorer::learn::lesson::{self, STEPS};
use pe_explorer::learn::quiz::{
    is_right_choice, question, read_offset, slowest_wavelength, task_preset, Checked, Kind,
    Progress, QUESTIONS,
};
use pe_explorer::math::alibi::slopes;
use pe_explorer::math::sinusoidal::{Sinusoidal, Variant};
use pe_explorer::math::t5::T5Buckets;
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

#[test]
fn the_lesson_has_eight_to_twelve_steps_each_a_valid_linkable_view() {
    assert!((8..=12).contains(&STEPS.len()));
    for n in 1..=STEPS.len() {
        let s = lesson::preset(n, &Settings::default());
        assert_eq!((s.view, s.lesson), (View::Lesson, n));
        // The step's settings are inside every limit: they survive the URL unchanged.
        assert_eq!(parse(&to_query(&s, None)).settings, s, "step {n}");
        assert!(!matches!(lesson::step(n).view, View::Lesson | View::Quiz));
        assert!(lesson::step(n).text.len() > 150, "step {n} says too little");
    }
    // The story starts with order and the dog/man demo, and ends with the bugs.
    assert_eq!(STEPS[0].view, View::Attention);
    assert!(!lesson::preset(1, &Settings::default()).attention_position);
    assert_eq!(
        lesson::preset(STEPS.len(), &Settings::default()).variant,
        Variant::TutorialBug
    );
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
    for junk in ["", "abc", "-3", "1e3", "<b>4</b>", "99999999999"] {
        assert!(!check("negative-dot", &at64, junk).correct, "{junk}");
        assert!(read_offset(junk).is_err(), "{junk}");
    }
    assert_eq!(read_offset(" 42 "), Ok(42));
}

#[test]
fn steepest_head_task() {
    let start = task("steepest-head", |_| {});
    assert!(!check("steepest-head", &start, "").correct);
    // The steepest head, found from the slopes themselves.
    let s8 = slopes(8);
    let best = (0..8).max_by(|&a, &b| s8[a].total_cmp(&s8[b])).unwrap();
    let right = task("steepest-head", |s| s.alibi_head = best);
    assert!(check("steepest-head", &right, "").correct);
    let four = task("steepest-head", |s| {
        s.alibi_heads = 4;
        s.alibi_head = best;
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
