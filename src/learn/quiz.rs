//! The quiz: multiple-choice questions and interactive tasks. A task is answered by setting the
//! sliders (and sometimes typing a number); its check measures those settings with the same
//! functions the views draw with, and says what it measured.

use std::f64::consts::TAU;

use crate::format::{group_thousands, significant};
use crate::math::alibi::{slopes, steepest};
use crate::math::attention::Relation;
use crate::math::offsets::closed_form;
use crate::math::sinusoidal::{Sinusoidal, Variant};
use crate::schemes::grid::GridScheme;
use crate::schemes::{Registered, Scheme};
use crate::state::{Settings, View};

/// What a check found: whether the answer is right, and what was measured, in a sentence.
#[derive(Clone, Debug, PartialEq)]
pub struct Checked {
    pub correct: bool,
    pub message: String,
}

impl Checked {
    fn right(message: impl Into<String>) -> Checked {
        Checked {
            correct: true,
            message: message.into(),
        }
    }

    fn wrong(message: impl Into<String>) -> Checked {
        Checked {
            correct: false,
            message: message.into(),
        }
    }
}

/// How a question is answered.
pub enum Kind {
    /// Pick one of the options; `answer` is the right one's index.
    Choice {
        options: &'static [&'static str],
        answer: usize,
    },
    /// Set up the view (the sliders, and `input` when it names a field) until `check` accepts.
    Task {
        /// The view the task is done in, shown under the question.
        view: View,
        /// The controls the task needs beside the chart on a phone (as a lesson step's
        /// `strip`); empty: the view's own.
        strip: &'static [&'static str],
        /// The settings the task starts from (applied to the defaults).
        setup: fn(&mut Settings),
        /// The label of a number the student types, if the task needs one.
        input: Option<&'static str>,
        check: fn(&Settings, &str) -> Checked,
    },
}

pub struct Question {
    /// Stable identifier: the key of the saved progress.
    pub id: &'static str,
    pub prompt: &'static str,
    pub kind: Kind,
    /// Why the answer is what it is, shown after any answer.
    pub explanation: &'static str,
    /// The view that shows it, and the settings it opens with.
    pub see: (View, fn(&mut Settings)),
}

fn sinusoidal(s: &mut Settings) {
    s.scheme = Scheme::Sinusoidal;
}

pub const QUESTIONS: &[Question] = &[
    Question {
        id: "order",
        prompt: "With no position information and no causal mask, what does a self-attention \
                 layer output for the word “dog” in “dog bites man” and in “man bites dog”?",
        kind: Kind::Choice {
            options: &[
                "Different vectors: “dog” is the subject in one sentence and the object in the other",
                "Exactly the same vector",
                "Vectors that differ by a little noise",
                "Nothing: attention cannot run without positions",
            ],
            answer: 1,
        },
        explanation: "Attention sees a set of tokens. Reordering them reorders the outputs and \
                      changes nothing else, so each word's output is identical in both sentences.",
        see: (View::Attention, |s| s.attention_position = false),
    },
    Question {
        id: "tell-apart",
        prompt: "Task: make the attention head tell “dog bites man” from “man bites dog” with \
                 position information (keep the two sentences, and every word seeing every word).",
        kind: Kind::Task {
            view: View::Attention,
            strip: &[],
            setup: |s| {
                s.scheme = Scheme::Sinusoidal;
                s.attention_position = false;
            },
            input: None,
            check: check_tell_apart,
        },
        explanation: "Once each token carries its position, the two orders give different \
                      scores, so different outputs.",
        see: (View::Attention, |s| s.attention_position = true),
    },
    Question {
        id: "fastest-wavelength",
        prompt: "In the paper's encoding, after how many positions does the fastest pair \
                 (i = 0) repeat?",
        kind: Kind::Choice {
            options: &["1", "10,000", "2π ≈ 6.28", "2π·10,000 ≈ 62,832"],
            answer: 2,
        },
        explanation: "Pair 0 has ω = 1/10000⁰ = 1, so sin(p) and cos(p) repeat every 2π \
                      positions, whatever the base.",
        see: (View::Waves, sinusoidal),
    },
    Question {
        id: "slowest-wavelength",
        prompt: "Task: with the sinusoidal encoding at d_model 128, set the base so that the \
                 slowest pair's wavelength is under 1,000 positions.",
        kind: Kind::Task {
            view: View::Waves,
            strip: &[],
            setup: |s| {
                s.d_model = 128;
                s.length = 400;
            },
            input: None,
            check: check_slowest_wavelength,
        },
        explanation: "The slowest pair's wavelength is 2π·base^((d − 2)/d), a little under \
                      2π·base: at d_model 128, a base of about 170 or less keeps it under 1,000 \
                      positions.",
        see: (View::Waves, sinusoidal),
    },
    Question {
        id: "sin-and-cos",
        prompt: "Why does every frequency get both a sine and a cosine?",
        kind: Kind::Choice {
            options: &[
                "So the values stay between −1 and 1",
                "So that PE(p + k) is PE(p) turned by rotations that depend only on k",
                "Because a sine alone is zero at position 0",
                "To make d_model even",
            ],
            answer: 1,
        },
        explanation: "A (sin, cos) pair is a point on a circle; moving k positions turns it by \
                      k·ω from anywhere, so one linear map per k relates every position to the \
                      one k further on.",
        see: (View::Rotations, sinusoidal),
    },
    Question {
        id: "depends-on",
        prompt: "For the sinusoidal encoding, the dot product PE(p)·PE(p + k) depends on…",
        kind: Kind::Choice {
            options: &[
                "the position p only",
                "both p and k",
                "the offset k only",
                "neither: it is the same for every pair of positions",
            ],
            answer: 2,
        },
        explanation: "PE(p)·PE(p + k) = Σ cos(k·ω_i): p cancels out.",
        see: (View::Offsets, sinusoidal),
    },
    Question {
        id: "negative-dot",
        prompt: "Task: at d_model = 64, find an offset k at which PE(p)·PE(p + k) is negative. \
                 Set d_model to 64, read the chart, and type k.",
        kind: Kind::Task {
            view: View::Offsets,
            strip: &["d-model", "length"],
            setup: |s| {
                s.d_model = 128;
                s.length = 1024;
            },
            input: Some("offset k"),
            check: check_negative_dot,
        },
        explanation: "Σ cos(k·ω_i) is a sum of waves; at small d_model there are few of them, \
                      and at some offsets more of them point down than up.",
        see: (View::Offsets, |s| {
            s.d_model = 64;
            s.length = 1024;
        }),
    },
    Question {
        id: "bert-limit",
        prompt: "BERT learns a table of 512 positions. What happens to a 600-token input?",
        kind: Kind::Choice {
            options: &[
                "Positions past 511 reuse the last row",
                "The table grows to fit",
                "Positions wrap around to 0",
                "It cannot be encoded: position 512 has no vector",
            ],
            answer: 3,
        },
        explanation: "A learned table has exactly as many rows as it was trained with; looking up \
                      row 512 fails with an error, so such inputs are truncated or split.",
        see: (View::Matrix, |s| {
            s.scheme = Scheme::Learned;
            s.length = 600;
        }),
    },
    Question {
        id: "gpt2",
        prompt: "How many positions does GPT-2's learned table have?",
        kind: Kind::Choice {
            options: &["512", "1024", "2048", "As many as the input has"],
            answer: 1,
        },
        explanation: "GPT-2 learns 1024 position vectors (BERT learns 512).",
        see: (View::Matrix, |s| {
            s.scheme = Scheme::Learned;
            s.trained_length = 1024;
            s.length = 1100;
        }),
    },
    Question {
        id: "rope-where",
        prompt: "Where does RoPE put the position information?",
        kind: Kind::Choice {
            options: &[
                "It adds a vector to each token embedding",
                "It rotates the query and key vectors before their dot product",
                "It adds a learned bias to each attention score",
                "It rotates the value vectors",
            ],
            answer: 1,
        },
        explanation: "RoPE turns each pair of query and key dimensions by an angle proportional \
                      to the position, so their dot product depends on the distance.",
        see: (View::Offsets, |s| s.scheme = Scheme::Rope),
    },
    Question {
        id: "llama-base",
        prompt: "Which RoPE base θ do the original LLaMA and LLaMA 3 use?",
        kind: Kind::Choice {
            options: &[
                "10,000 for both",
                "500,000 and 10,000",
                "10,000 and 500,000",
                "1,000,000 for both",
            ],
            answer: 2,
        },
        explanation: "LLaMA kept the usual 10,000; LLaMA 3 raised it to 500,000 so that the \
                      slow pairs turn less across long contexts.",
        see: (View::Offsets, |s| {
            s.scheme = Scheme::Rope;
            s.base = 500_000.0;
        }),
    },
    Question {
        id: "alibi-slopes",
        prompt: "ALiBi with 8 heads gives each head a slope m. Which are they?",
        kind: Kind::Choice {
            options: &[
                "1, 2, 3, …, 8",
                "1/8 for every head",
                "Learned during training",
                "1/2, 1/4, …, 1/256",
            ],
            answer: 3,
        },
        explanation: "The slopes form a geometric sequence starting at 2^(−8/n) with the same \
                      ratio: for n = 8 heads, 1/2, 1/4, …, 1/256.",
        see: (View::Matrix, |s| s.scheme = Scheme::Alibi),
    },
    Question {
        id: "steepest-head",
        prompt: "Task: with ALiBi and 8 heads (numbered 0 to 7), show the head whose penalty \
                 grows fastest with distance.",
        kind: Kind::Task {
            view: View::Matrix,
            strip: &["alibi-head"],
            setup: |s| {
                s.scheme = Scheme::Alibi;
                s.schemes.alibi.heads = 8;
                s.schemes.alibi.head = 7;
                s.length = 64;
            },
            input: None,
            check: check_steepest_head,
        },
        explanation: "The first head (head 0: heads are numbered from 0) has the largest slope, \
                      1/2: its penalty grows by one every two positions.",
        see: (View::Matrix, |s| s.scheme = Scheme::Alibi),
    },
    Question {
        id: "t5-far",
        prompt: "In T5's relative bias (32 buckets, max distance 128), what do keys 500 and \
                 5,000 positions before the query have in common?",
        kind: Kind::Choice {
            options: &[
                "They fall in the same bucket, so they get the same bias",
                "Nothing: every distance has its own bias",
                "Both are masked out",
                "Both get a bias of zero",
            ],
            answer: 0,
        },
        explanation: "Far distances share the last bucket of their direction: with 32 \
                      bidirectional buckets every distance from 91 on, with 32 causal buckets from \
                      113 on. Far is far.",
        see: (View::Matrix, |s| {
            s.scheme = Scheme::T5;
            s.length = 512;
        }),
    },
    Question {
        id: "add-or-concat",
        prompt: "The paper adds the position vector to the token embedding. What does that keep \
                 that concatenating would not?",
        kind: Kind::Choice {
            options: &[
                "The position information, which concatenating would lose",
                "The width d_model, and so the cost of every later layer",
                "The order of the tokens in memory",
                "Nothing: the two are the same",
            ],
            answer: 1,
        },
        explanation: "Adding keeps vectors d_model wide; concatenating would make them wider and \
                      every weight matrix that reads them bigger.",
        see: (View::Addition, sinusoidal),
    },
    Question {
        id: "reordered-variant",
        prompt: "Task: choose the variant whose heatmap is the paper's with its columns \
                 reordered.",
        kind: Kind::Task {
            view: View::Matrix,
            strip: &["variant"],
            setup: |s| {
                s.d_model = 32;
                s.length = 64;
            },
            input: None,
            check: check_reordered_variant,
        },
        explanation: "Putting every sine first and every cosine after keeps the paper's numbers \
                      and frequencies; only the column order changes.",
        see: (View::Matrix, |s| s.variant = Variant::Split),
    },
    Question {
        id: "exponent-bug",
        prompt: "A tutorial writes 10000^(2·i/d_model) while its loop variable i already steps \
                 0, 2, 4, … What goes wrong?",
        kind: Kind::Choice {
            options: &[
                "Nothing: it is the same formula",
                "Sines and cosines swap places",
                "The frequencies fall twice as fast, and many columns become almost constant",
                "Values grow beyond 1",
            ],
            answer: 2,
        },
        explanation: "The exponent doubles, so the frequencies shrink twice as fast and the \
                      slowest wavelength is 2π·base^(2 − 4/d), close to 2π·base², instead of \
                      2π·base^(1 − 2/d).",
        see: (View::Matrix, |s| s.variant = Variant::TutorialBug),
    },
    Question {
        id: "patch-cross",
        prompt: "Under 2-D sin-cos, which patches are most similar to the centre patch, and why \
                 is the pattern a cross?",
        kind: Kind::Choice {
            options: &[
                "Its near neighbours and, out to the edges, those in its own row and column: \
                 half of each vector encodes the column and half the row, so a patch in the same \
                 row or column matches on a whole half",
                "All the patches at the same Euclidean distance from it, whatever the direction: \
                 the encoding is rotation-invariant",
                "The patches on its diagonals: there both the row and the column change, so both \
                 halves of the vector move together",
                "None: every patch is equally similar to the centre, and the cross comes from the \
                 colour scale",
            ],
            answer: 0,
        },
        explanation: "MAE's 2-D sin-cos spends half of each vector on the patch's column and half \
                      on its row, so the similarity of two patches is the mean of a column term \
                      and a row term. A patch in the centre's row keeps its row term at 1, the \
                      largest there is, however far along the row it lies, and a patch in its \
                      column keeps its column term: similarity falls with distance, but least \
                      along the row and the column, so the map is a cross. A diagonal patch \
                      loses on both terms, and nothing in the table is rotation-invariant.",
        see: (View::Patches, |s| s.grid.scheme = GridScheme::SinCos),
    },
    Question {
        id: "mrope-row",
        prompt: "In Qwen2-VL's M-RoPE, which section changes as you move along a row of an \
                 image?",
        kind: Kind::Choice {
            options: &[
                "The time (T) section",
                "The height (H) section",
                "The width (W) section",
                "All three: every id moves on by one per token, as in 1-D RoPE",
            ],
            answer: 2,
        },
        explanation: "Every token has three ids, time, height and width (t, h, w), and each turns \
                      its own section of the rotary pairs. Along a row of an image only the \
                      column changes, so only w does: t and h stay, and so do the angles of \
                      their sections. Down a column only h changes, and from one frame of a \
                      video to the next only t.",
        see: (View::Patches, |_| {}),
    },
];

/// The question numbered `n` (1-based, clamped).
pub fn question(n: usize) -> &'static Question {
    &QUESTIONS[n.clamp(1, QUESTIONS.len()) - 1]
}

/// The view a task is done in and the controls it names, for the phone's strip; `None` for a
/// multiple-choice question.
pub fn task_view(n: usize) -> Option<(View, &'static [&'static str])> {
    match question(n).kind {
        Kind::Task { view, strip, .. } => Some((view, strip)),
        Kind::Choice { .. } => None,
    }
}

/// Whether question `n` (1-based) is a task.
pub fn is_task(n: usize) -> bool {
    (1..=QUESTIONS.len()).contains(&n) && matches!(question(n).kind, Kind::Task { .. })
}

/// Whether option `picked` answers a multiple-choice question (tasks are checked, not picked).
pub fn is_right_choice(q: &Question, picked: usize) -> bool {
    matches!(q.kind, Kind::Choice { answer, .. } if answer == picked)
}

/// The settings a question starts from: the defaults, with a task's changes, keeping the
/// theme, the palette, the lesson step, the exam, and the quiz on screen at this question. Every
/// question opens on its own settings, so nothing one task set carries into the next.
pub fn task_preset(n: usize, current: &Settings) -> Settings {
    let mut s = current.fresh();
    if let Kind::Task { setup, .. } = &question(n).kind {
        setup(&mut s);
    }
    s.view = View::Quiz;
    s.question = n.clamp(1, QUESTIONS.len());
    s
}

/// The settings that open the view a question's explanation points to.
pub fn see_preset(q: &Question, current: &Settings) -> Settings {
    let mut s = current.fresh();
    (q.see.1)(&mut s);
    s.view = q.see.0;
    s
}

/// The scheme a task is about, or what to do first.
fn needs(s: &Settings, scheme: Scheme) -> Result<(), Checked> {
    if s.scheme == scheme {
        Ok(())
    } else {
        Err(Checked::wrong(format!(
            "Choose the scheme “{}” first.",
            scheme.label()
        )))
    }
}

/// The slowest pair's wavelength, 2π/ω, in positions.
pub fn slowest_wavelength(s: &Settings) -> f64 {
    let e = Sinusoidal::new(s.variant, s.d_model, s.base);
    TAU / e.omega(e.pair_count().saturating_sub(1))
}

fn check_slowest_wavelength(s: &Settings, _: &str) -> Checked {
    if let Err(first) = needs(s, Scheme::Sinusoidal) {
        return first;
    }
    if s.d_model != 128 {
        return Checked::wrong(format!(
            "d_model is {}: keep it at 128, since the task is about the base.",
            s.d_model
        ));
    }
    let wavelength = slowest_wavelength(s);
    let correct = wavelength < 1000.0;
    Checked {
        correct,
        message: format!(
            "Measured: with base {}, the slowest pair repeats every {} positions{}",
            significant(s.base, 4),
            group_thousands(wavelength.round() as u64),
            if correct { "." } else { "; lower the base." }
        ),
    }
}

/// Reads an offset typed by the student: a whole number, negative with “-” or “−” (spaces
/// around are fine), among the offsets the chart of `length` positions shows: −(length − 1) to
/// length − 1.
pub fn read_offset(text: &str, length: usize) -> Result<i64, String> {
    let t = text.trim();
    let (sign, digits) = match t.strip_prefix(['-', '\u{2212}']) {
        Some(rest) => (-1, rest),
        None => (1, t.strip_prefix('+').unwrap_or(t)),
    };
    let last = length.saturating_sub(1) as i64;
    let range = || {
        format!(
            "Type an offset the chart shows: from −{} to {} at length {}.",
            group_thousands(last as u64),
            group_thousands(last as u64),
            group_thousands(length as u64)
        )
    };
    if t.is_empty() {
        return Err("Type an offset k first.".into());
    }
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err("The offset should be a whole number, like 40 or −40.".into());
    }
    match digits.parse::<i64>() {
        Ok(k) if k <= last => Ok(sign * k),
        _ => Err(range()),
    }
}

fn check_negative_dot(s: &Settings, input: &str) -> Checked {
    if s.d_model != 64 {
        return Checked::wrong(format!(
            "d_model is {}: set it to 64 first (the slider in the settings).",
            s.d_model
        ));
    }
    let k = match read_offset(input, s.length) {
        Ok(k) => k,
        Err(e) => return Checked::wrong(e),
    };
    // The closed form the offsets chart draws, for the variant on screen.
    let dot = closed_form(&Sinusoidal::new(s.variant, 64, s.base), k);
    let shifted = if k < 0 {
        format!("p − {}", k.unsigned_abs())
    } else {
        format!("p + {k}")
    };
    let measured = format!(
        "Measured: at d_model 64 and base {}, PE(p)·PE({shifted}) = {} for every p.",
        significant(s.base, 4),
        significant(dot, 4)
    );
    if dot < 0.0 {
        Checked::right(measured)
    } else {
        Checked::wrong(format!(
            "{measured} That is not negative: look for where the curve dips below zero."
        ))
    }
}

/// "first", "second", … "eighth", then "9th" and on.
fn ordinal(n: usize) -> String {
    const WORDS: [&str; 8] = [
        "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
    ];
    WORDS
        .get(n.wrapping_sub(1))
        .map_or_else(|| format!("{n}th"), |w| w.to_string())
}

fn check_steepest_head(s: &Settings, _: &str) -> Checked {
    if let Err(first) = needs(s, Scheme::Alibi) {
        return first;
    }
    if s.schemes.alibi.heads != 8 {
        return Checked::wrong(format!("There are {} heads: set 8.", s.schemes.alibi.heads));
    }
    let all = slopes(s.schemes.alibi.heads);
    let shown = s.schemes.alibi.slope();
    let head = s.schemes.alibi.head;
    let message = format!(
        "Measured: head {head} (the {} of 8, heads being numbered from 0) has slope {} (the \
         steepest of the 8 is {}).",
        ordinal(head + 1),
        significant(shown, 4),
        significant(steepest(&all), 4)
    );
    Checked {
        correct: shown == steepest(&all),
        message,
    }
}

/// Whether the variant's columns are the paper's columns in another order (at this width and
/// base, over the first `length` positions), and not in the same order.
pub fn is_reordered_paper(variant: Variant, d_model: usize, base: f64, length: usize) -> bool {
    // Each matrix as its columns (position by position within a column).
    let columns = |v: Variant| -> Vec<Vec<f64>> {
        let e = Sinusoidal::new(v, d_model, base);
        let rows: Vec<Vec<f64>> = (0..length).map(|p| e.row(p)).collect();
        (0..d_model)
            .map(|c| rows.iter().map(|r| r[c]).collect())
            .collect()
    };
    let (paper, mine) = (columns(Variant::Paper), columns(variant));
    let close = |a: &[f64], b: &[f64]| a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-9);
    // A bijection: each column of the variant matches a paper column not used before.
    let mut used = vec![false; d_model];
    for m in &mine {
        match (0..d_model).find(|&c| !used[c] && close(m, &paper[c])) {
            Some(c) => used[c] = true,
            None => return false,
        }
    }
    let same_order = mine.iter().zip(&paper).all(|(a, b)| close(a, b));
    !same_order
}

fn check_reordered_variant(s: &Settings, _: &str) -> Checked {
    if let Err(first) = needs(s, Scheme::Sinusoidal) {
        return first;
    }
    if s.d_model < 4 {
        return Checked::wrong(
            "With d_model below 4 there is a single sin/cos pair and every layout looks the \
             same: raise d_model.",
        );
    }
    let d = s.d_model.min(64);
    if is_reordered_paper(s.variant, d, s.base, 64) {
        Checked::right(format!(
            "Measured: every column of “{}” is one of the paper's columns, in another order.",
            s.variant.label()
        ))
    } else if s.variant == Variant::Paper {
        Checked::wrong("That is the paper's own layout: nothing is reordered.")
    } else {
        Checked::wrong(format!(
            "Measured: “{}” has columns the paper does not have (its frequencies or exponents \
             differ), so it is not a reordering.",
            s.variant.label()
        ))
    }
}

fn check_tell_apart(s: &Settings, _: &str) -> Checked {
    if s.causal {
        return Checked::wrong(
            "A causal mask alone already tells the sentences apart, without any position \
             information: switch it back to every word seeing every word, and use position.",
        );
    }
    if !s.attention_position || s.scheme == Scheme::None {
        return Checked::wrong(
            "The head gets no position information yet: switch it on (and use a scheme other \
             than none).",
        );
    }
    let demo = crate::figures::attention::demo(s);
    if !matches!(demo.relation, Relation::Reversed | Relation::Reordered) {
        return Checked::wrong(
            "The two sentences should hold the same words in another order, as “dog bites \
             man” and “man bites dog” do.",
        );
    }
    if let Some(problem) = demo.problem {
        return Checked::wrong(problem);
    }
    let c = demo.summary_cosine;
    let measured = format!(
        "Measured: the cosine similarity of the two sentences' pooled outputs is {}.",
        significant(c, 7)
    );
    if c < crate::figures::attention::TIE {
        Checked::right(format!("{measured} The head now tells them apart."))
    } else {
        Checked::wrong(format!(
            "{measured} That is 1: the head still cannot tell them apart."
        ))
    }
}

/// Progress through the quiz: for each question answered, whether the last answer was right.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Progress {
    answers: Vec<(&'static str, bool)>,
}

impl Progress {
    /// Reads saved progress (`id:1,id:0`); unknown ids and malformed parts are skipped.
    pub fn parse(text: &str) -> Progress {
        let mut p = Progress::default();
        for part in text.split(',') {
            let Some((id, v)) = part.split_once(':') else {
                continue;
            };
            let Some(q) = QUESTIONS.iter().find(|q| q.id == id) else {
                continue;
            };
            match v {
                "1" => p.record(q.id, true),
                "0" => p.record(q.id, false),
                _ => {}
            }
        }
        p
    }

    /// The text saved.
    pub fn to_text(&self) -> String {
        self.answers
            .iter()
            .map(|(id, ok)| format!("{id}:{}", u8::from(*ok)))
            .collect::<Vec<_>>()
            .join(",")
    }

    /// Records an answer to a question (replacing an earlier one).
    pub fn record(&mut self, id: &'static str, correct: bool) {
        self.answers.retain(|(i, _)| *i != id);
        self.answers.push((id, correct));
    }

    /// The last answer's verdict, if the question was answered.
    pub fn get(&self, id: &str) -> Option<bool> {
        self.answers.iter().find(|(i, _)| *i == id).map(|a| a.1)
    }

    /// Questions whose last answer was right.
    pub fn score(&self) -> usize {
        self.answers.iter().filter(|a| a.1).count()
    }

    pub fn answered(&self) -> usize {
        self.answers.len()
    }
}

/// The quiz's fingerprint: eight hex digits of a 64-bit FNV-1a hash over every question's id,
/// prompt, options and right answer. A summary names it, so a teacher can tell which questions
/// a student answered; saved exams of another version are not read back.
pub fn quiz_version() -> String {
    let mut parts: Vec<String> = Vec::new();
    for q in QUESTIONS {
        parts.extend([q.id.to_string(), q.prompt.to_string()]);
        if let Kind::Choice { options, answer } = q.kind {
            parts.extend(options.iter().map(|o| o.to_string()));
            parts.push(answer.to_string());
        }
    }
    fingerprint(parts.iter().map(String::as_str))
}

/// Eight hex digits of the FNV-1a hash of `parts`, each followed by a 0 byte.
pub fn fingerprint<'a>(parts: impl Iterator<Item = &'a str>) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for part in parts {
        for b in part.bytes().chain([0]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{:08x}", h >> 32)
}

/// An exam answer as recorded. Nothing is checked when it is recorded, and no verdict is kept
/// before submission: a task keeps the settings it was recorded with and the number typed, and
/// is checked from those when the exam is graded.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// The option picked.
    Choice(usize),
    /// A task: the settings on screen as a link query, and the number typed, if any.
    Task { settings: String, typed: String },
}

/// When an answer was recorded (milliseconds since 1970, UTC) and how long its question had
/// been on screen by then (SCORM's latency).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Timing {
    pub at_ms: f64,
    pub latency_ms: f64,
}

/// Checks a task's recorded answer: question `n`, the settings as a link query, the number
/// typed. The caller reads the query (the link's parser sits above this floor).
pub type Grader<'a> = &'a dyn Fn(usize, &str, &str) -> Checked;

/// The quiz taken as an exam: one answer (or none) per question, changeable until the
/// student submits; the verdicts and the score exist only after that.
#[derive(Clone, Debug, PartialEq)]
pub struct Exam {
    answers: Vec<Option<(Answer, Timing)>>,
    /// What each task's check found, filled when a submitted exam is graded.
    results: Vec<Option<Checked>>,
    /// When the exam started and was submitted, in milliseconds since 1970 (UTC).
    pub started_ms: f64,
    pub submitted_ms: Option<f64>,
    /// When the practice quiz (which checks answers) was first opened in the same tab while the
    /// exam was under way: the summary says so.
    pub practice_ms: Option<f64>,
}

impl Exam {
    pub fn new(now_ms: f64) -> Exam {
        Exam {
            answers: vec![None; QUESTIONS.len()],
            results: vec![None; QUESTIONS.len()],
            started_ms: now_ms,
            submitted_ms: None,
            practice_ms: None,
        }
    }

    /// Notes that the practice quiz was opened now, once, while the exam is under way.
    pub fn practice_opened(&mut self, now_ms: f64) -> bool {
        if self.submitted() || self.practice_ms.is_some() {
            return false;
        }
        self.practice_ms = Some(now_ms);
        true
    }

    pub fn submitted(&self) -> bool {
        self.submitted_ms.is_some()
    }

    /// Records the answer to question `n` (1-based), replacing an earlier one. Refused (false)
    /// once submitted, or for a question that does not exist.
    pub fn record(&mut self, n: usize, answer: Answer, timing: Timing) -> bool {
        if self.submitted() {
            return false;
        }
        match self.answers.get_mut(n.wrapping_sub(1)) {
            Some(slot) => {
                *slot = Some((answer, timing));
                true
            }
            None => false,
        }
    }

    /// The same exam with each task's kept settings and typed number rewritten by `f` (question,
    /// settings, typed → settings, typed): what an LMS keeps of it, for one.
    pub fn map_tasks(&self, f: impl Fn(usize, &str, &str) -> (String, String)) -> Exam {
        let mut out = self.clone();
        for (i, slot) in out.answers.iter_mut().enumerate() {
            if let Some((Answer::Task { settings, typed }, _)) = slot {
                let (s, t) = f(i + 1, settings, typed);
                (*settings, *typed) = (s, t);
            }
        }
        out
    }

    /// The answer recorded for question `n` (1-based).
    pub fn answer(&self, n: usize) -> Option<&Answer> {
        self.answers
            .get(n.wrapping_sub(1))?
            .as_ref()
            .map(|(a, _)| a)
    }

    /// When question `n`'s answer was recorded.
    pub fn timing(&self, n: usize) -> Option<Timing> {
        self.answers
            .get(n.wrapping_sub(1))?
            .as_ref()
            .map(|(_, t)| *t)
    }

    pub fn answered(&self) -> usize {
        self.answers.iter().flatten().count()
    }

    /// Ends the exam and grades it: from now on the answers are fixed and checked.
    /// Submitting twice keeps the first time.
    pub fn submit(&mut self, now_ms: f64, grade: Grader) {
        if self.submitted_ms.is_none() {
            self.submitted_ms = Some(now_ms.max(self.started_ms));
        }
        self.grade(grade);
    }

    /// Checks every task answer of a submitted exam (nothing before submission).
    pub fn grade(&mut self, grade: Grader) {
        if !self.submitted() {
            return;
        }
        for (i, slot) in self.answers.iter().enumerate() {
            self.results[i] = match slot {
                Some((Answer::Task { settings, typed }, _)) => Some(grade(i + 1, settings, typed)),
                _ => None,
            };
        }
    }

    /// What question `n`'s check found (tasks), after submission.
    pub fn result(&self, n: usize) -> Option<&Checked> {
        self.results.get(n.wrapping_sub(1))?.as_ref()
    }

    /// Whether question `n`'s answer is right: `None` before submission and for questions
    /// not answered.
    pub fn verdict(&self, n: usize) -> Option<bool> {
        if !self.submitted() {
            return None;
        }
        match self.answer(n)? {
            Answer::Choice(i) => Some(is_right_choice(question(n), *i)),
            Answer::Task { .. } => self.result(n).map(|r| r.correct),
        }
    }

    /// Right answers, after submission.
    pub fn score(&self) -> Option<usize> {
        self.submitted().then(|| {
            (1..=QUESTIONS.len())
                .filter(|&n| self.verdict(n) == Some(true))
                .count()
        })
    }

    /// Milliseconds from the start to the submission.
    pub fn time_taken_ms(&self) -> Option<f64> {
        self.submitted_ms
            .map(|end| (end - self.started_ms).max(0.0))
    }

    /// The text kept in the browser's session storage: the quiz version, the times, then one
    /// line per answer with when it was recorded. No verdict. Tabs and line breaks inside
    /// typed text become spaces.
    pub fn to_text(&self) -> String {
        let clean = |t: &str| t.replace(['\t', '\n', '\r'], " ");
        let mut out = format!(
            "exam2 {}\nstarted {}\nsubmitted {}\n",
            quiz_version(),
            self.started_ms,
            self.submitted_ms.map_or("-".to_string(), |t| t.to_string())
        );
        if let Some(t) = self.practice_ms {
            out.push_str(&format!("practice {t}\n"));
        }
        for (q, a) in QUESTIONS.iter().zip(&self.answers) {
            let Some((answer, t)) = a else { continue };
            let times = format!("{}\t{}", t.at_ms, t.latency_ms);
            match answer {
                Answer::Choice(i) => out.push_str(&format!("{}\tchoice\t{i}\t{times}\n", q.id)),
                Answer::Task { settings, typed } => out.push_str(&format!(
                    "{}\ttask\t{}\t{}\t{times}\n",
                    q.id,
                    clean(settings),
                    clean(typed),
                )),
            }
        }
        out
    }

    /// Reads [`Exam::to_text`] (grading it when it was submitted); `None` for text of another
    /// quiz version or that is not an exam. Unknown questions and malformed lines are skipped.
    pub fn parse(text: &str, grade: Grader) -> Option<Exam> {
        let mut lines = text.lines();
        if lines.next()? != format!("exam2 {}", quiz_version()) {
            return None;
        }
        let time = |line: Option<&str>, key: &str| -> Option<Option<f64>> {
            let v = line?.strip_prefix(key)?.strip_prefix(' ')?;
            if v == "-" {
                return Some(None);
            }
            finite(v).map(Some)
        };
        let started_ms = time(lines.next(), "started")??;
        let submitted_ms = time(lines.next(), "submitted")?;
        let mut exam = Exam::new(started_ms);
        exam.submitted_ms = submitted_ms;
        for line in lines {
            if let Some(t) = line.strip_prefix("practice ").and_then(finite) {
                exam.practice_ms = Some(t);
                continue;
            }
            let f: Vec<&str> = line.split('\t').collect();
            let Some(n) = QUESTIONS.iter().position(|q| Some(&q.id) == f.first()) else {
                continue;
            };
            let timing = |at: usize| -> Option<Timing> {
                Some(Timing {
                    at_ms: finite(f.get(at)?)?,
                    latency_ms: finite(f.get(at + 1)?)?.max(0.0),
                })
            };
            let answer = match (f.get(1), &QUESTIONS[n].kind) {
                (Some(&"choice"), Kind::Choice { options, .. }) if f.len() == 5 => {
                    match (f[2].parse(), timing(3)) {
                        (Ok(i), Some(t)) if i < options.len() => (Answer::Choice(i), t),
                        _ => continue,
                    }
                }
                (Some(&"task"), Kind::Task { .. }) if f.len() == 6 => match timing(4) {
                    Some(t) => (
                        Answer::Task {
                            settings: f[2].to_string(),
                            typed: f[3].to_string(),
                        },
                        t,
                    ),
                    None => continue,
                },
                _ => continue,
            };
            exam.answers[n] = Some(answer);
        }
        exam.grade(grade);
        Some(exam)
    }

    /// Eight hex digits (FNV-1a: a check against slips and casual edits, not a secret) over
    /// the exam as kept: the quiz version, the times and every answer with when it was recorded.
    pub fn digest(&self) -> String {
        fingerprint(std::iter::once(self.to_text().as_str()))
    }

    /// The plain-text summary a student hands in, after submission: the quiz version and link,
    /// the times, the score, and each answer given with its verdict (and the right option
    /// where a choice was wrong).
    pub fn summary(&self, link: &str) -> Option<String> {
        self.summary_after(link, None)
    }

    /// [`summary`](Self::summary), saying too that `earlier`, an exam submitted before this one
    /// started in the same browser (a new tab, or the tab's storage cleared, starts a new
    /// attempt), exists, with its times and score.
    pub fn summary_after(&self, link: &str, earlier: Option<&Exam>) -> Option<String> {
        let (score, taken, submitted) = (self.score()?, self.time_taken_ms()?, self.submitted_ms?);
        let total = QUESTIONS.len();
        let mut out = format!(
            "Positional Encoding Explorer: quiz, exam mode\n\
             Quiz version: {} ({total} questions)\n\
             Link: {link}\n\
             Started: {}\n\
             Submitted: {}\n\
             Time taken: {}\n\
             Score: {score} of {total}\n\n",
            quiz_version(),
            utc_text(self.started_ms),
            utc_text(submitted),
            duration_text(taken),
        );
        for (i, q) in QUESTIONS.iter().enumerate() {
            let n = i + 1;
            let verdict = match self.verdict(n) {
                Some(true) => "right",
                Some(false) => "wrong",
                None => "not answered",
            };
            let given = match (self.answer(n), &q.kind) {
                (Some(Answer::Choice(a)), Kind::Choice { options, answer }) => {
                    let mut t = format!(": “{}”", options[*a]);
                    if a != answer {
                        t.push_str(&format!(" (right: “{}”)", options[*answer]));
                    }
                    t
                }
                (Some(Answer::Task { typed, .. }), _) => {
                    let typed = if typed.trim().is_empty() {
                        String::new()
                    } else {
                        format!(" typed “{}”.", typed.trim())
                    };
                    let measured = self.result(n).map_or("", |r| r.message.as_str());
                    format!(" (task):{typed} {measured}")
                }
                _ => String::new(),
            };
            out.push_str(&format!("{n}. {} · {verdict}{given}\n", q.id));
        }
        if let Some(t) = self.practice_ms {
            out.push_str(&format!(
                "\nThe practice quiz, which checks answers, was opened in this tab during the \
                 exam: {}.\n",
                utc_text(t)
            ));
        }
        let before = earlier.and_then(|e| {
            let done = e.submitted_ms?;
            (e.started_ms < self.started_ms && done <= self.started_ms).then_some((e, done))
        });
        if let Some((e, done)) = before {
            out.push_str(&format!(
                "\nAn earlier exam was submitted in this browser before this one started: \
                 started {}, submitted {}, score {} of {total}. This is a later attempt.\n",
                utc_text(e.started_ms),
                utc_text(done),
                e.score().unwrap_or(0)
            ));
        }
        out.push_str(&format!("\nDigest: {}\n", summary_digest(&out)));
        Some(out)
    }
}

/// The digest a summary ends with: eight hex digits (FNV-1a) over every line above it, so the
/// app can recheck a summary pasted back into it (see [`check_summary`]). Not a secret: it
/// catches slips and casual edits, not a determined forger.
pub fn summary_digest(text: &str) -> String {
    fingerprint(text.lines().map(str::trim_end).filter(|l| !l.is_empty()))
}

/// What rechecking a pasted summary finds: `Ok(digest)` when its lines are those the app wrote
/// with that digest, `Err` with a sentence saying what does not match.
pub fn check_summary(text: &str) -> Result<String, String> {
    let text = text.replace("\r\n", "\n");
    let Some(at) = text.rfind("Digest: ") else {
        return Err(
            "No “Digest:” line: paste the whole summary, from its first line to its digest.".into(),
        );
    };
    let given: String = text[at + 8..]
        .chars()
        .take_while(|c| c.is_ascii_hexdigit())
        .collect();
    if given.len() != 8 {
        return Err("The “Digest:” line does not hold eight hex digits.".into());
    }
    if !text.starts_with("Positional Encoding Explorer: quiz, exam mode") {
        return Err("This is not the start of a summary the quiz writes.".into());
    }
    let body = &text[..at];
    let expected = summary_digest(body);
    if expected == given {
        Ok(given)
    } else {
        Err(format!(
            "The summary was changed after the app wrote it: its lines give the digest {expected}, \
             not {given}."
        ))
    }
}

/// A finite number, or `None`.
fn finite(text: &str) -> Option<f64> {
    text.parse::<f64>().ok().filter(|v| v.is_finite())
}

/// Checks task `n` on `settings` with the number `typed`; a question that is not a task gets a
/// plain refusal instead of a verdict.
pub fn check_task(n: usize, settings: &Settings, typed: &str) -> Checked {
    match &question(n).kind {
        Kind::Task { check, .. } => check(settings, typed),
        Kind::Choice { .. } => Checked::wrong("not a task"),
    }
}

/// A duration for people: "45 s", "12 min 5 s", "1 h 3 min".
pub fn duration_text(ms: f64) -> String {
    let s = if ms.is_finite() && ms > 0.0 {
        (ms / 1000.0).round() as u64
    } else {
        0
    };
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, sec) => format!("{sec} s"),
        (0, min, sec) => format!("{min} min {sec} s"),
        (h, min, _) => format!("{h} h {min} min"),
    }
}

/// A moment (milliseconds since 1970) as "2026-11-24 10:03:12 UTC".
pub fn utc_text(ms: f64) -> String {
    if !ms.is_finite() {
        return "unknown".into();
    }
    let secs = (ms / 1000.0).floor() as i64;
    let (days, rest) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rest / 3600,
        (rest % 3600) / 60,
        rest % 60
    )
}
