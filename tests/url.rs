//! The query string: every setting survives a round trip, bad values fall back with a notice,
//! and no string, however hostile, produces an invalid state.
#![cfg(not(target_arch = "wasm32"))]

use pe_explorer::action::Action;
use pe_explorer::embed::Show;
use pe_explorer::math::rope::RopePairing;
use pe_explorer::math::sinusoidal::Variant;
use pe_explorer::params::Edit;
use pe_explorer::schemes::rope::Extension;
use pe_explorer::schemes::Scheme;
use pe_explorer::state::{OffsetSeries, Settings, ThemeChoice, View};
use pe_explorer::train::settings::TrainScheme;
use pe_explorer::url::{decode, encode, left_out_note, parse, to_link, to_query, Embed, MAX_QUERY};
use proptest::prelude::*;
use std::rc::Rc;
use yew::Reducible;

fn settings(actions: Vec<Action>) -> Settings {
    settings_after(&Settings::default(), actions)
}

/// `start` with `actions` applied by the reducer.
fn settings_after(start: &Settings, actions: Vec<Action>) -> Settings {
    let mut s = Rc::new(start.clone());
    for a in actions {
        s = s.reduce(a);
    }
    (*s).clone()
}

#[test]
fn defaults_make_an_empty_query_and_back() {
    assert_eq!(to_query(&Settings::default(), None), "");
    let p = parse("");
    assert_eq!(p.settings, Settings::default());
    assert!(p.notices.is_empty() && p.embed.is_none());
}

/// A change to one of a scheme's own settings, as its controls make it.
fn edit(key: &'static str, value: f64, apply: fn(&mut Settings, f64)) -> Action {
    Action::Edit(Edit { key, value, apply })
}

#[test]
fn every_setting_survives_a_round_trip() {
    let s = settings(vec![
        Action::SetView(View::Rotations),
        Action::SetScheme(Scheme::Rope),
        Action::SetVariant(Variant::T2t),
        Action::SetDModel(96.0),
        Action::SetLength(300.0),
        Action::SetBase(12_345.5),
        Action::SetTheme(ThemeChoice::Dark),
        Action::SetTrainedLength(256.0),
        Action::SetLearnedSeed(42.0),
        edit("rope_pairing", 0.0, |s, _| {
            s.schemes.rope.pairing = RopePairing::Adjacent
        }),
        edit("factor", 8.0, |s, v| s.schemes.rope.factor = v),
        edit("heads", 12.0, |s, v| s.schemes.alibi.heads = v as usize),
        edit("head", 11.0, |s, v| s.schemes.alibi.head = v as usize),
        edit("buckets", 64.0, |s, v| {
            s.schemes.t5.num_buckets = v as usize
        }),
        edit("max_distance", 256.0, |s, v| {
            s.schemes.t5.max_distance = v as usize
        }),
        edit("bidirectional", 0.0, |s, _| {
            s.schemes.t5.bidirectional = false
        }),
        Action::SetAnchors(vec![3, 150, 7]),
        Action::SetNormalised(true),
        Action::SetOffsetSeries(OffsetSeries::Bases),
        Action::SetBases(vec![50.0, 500_000.0]),
        Action::SetDims(vec![5, 9]),
        Action::SetPosition(250.0),
        Action::SetOffset(12.0),
        Action::SetPair(4),
        Action::SetScaleEmbeddings(false),
        Action::SetSentence(0, "the cat sat".into()),
        Action::SetSentence(1, "sat the cat".into()),
        Action::SetAttentionPosition(true),
        Action::SetCausal(true),
        Action::SetTrace(1),
        Action::SetCompareWith(Scheme::Alibi),
        edit("extension", 0.0, |s, _| {
            s.schemes.rope.extension = Extension::Yarn
        }),
        edit("beta_fast", 16.0, |s, v| s.schemes.rope.beta_fast = v),
        edit("beta_slow", 2.0, |s, v| s.schemes.rope.beta_slow = v),
        edit("mscale", 0.707, |s, v| s.schemes.rope.mscale = v),
        edit("mscale_all_dim", 0.5, |s, v| {
            s.schemes.rope.mscale_all_dim = v
        }),
        edit("low_freq", 2.0, |s, v| s.schemes.rope.low_freq = v),
        edit("high_freq", 8.0, |s, v| s.schemes.rope.high_freq = v),
        edit("rotary", 0.25, |s, v| s.schemes.rope.rotary_fraction = v),
        Action::SetTrain("task", "copy".into()),
        Action::SetTrain("schemes", "rope,none,alibi".into()),
        Action::SetTrain("layers", "3".into()),
        Action::SetTrain("attn_heads", "4".into()),
        Action::SetTrain("width", "48".into()),
        Action::SetTrain("train_len", "20".into()),
        Action::SetTrain("steps", "250".into()),
        Action::SetTrain("lr", "0.0005".into()),
        Action::SetTrain("train_seed", "77".into()),
        Action::SetTrainRun(true),
    ]);
    let q = to_query(&s, None);
    let back = parse(&q);
    assert!(back.notices.is_empty(), "{:?}", back.notices);
    assert_eq!(back.settings, s, "query: {q}");
    assert!(
        q.contains("d_model=96") && q.contains("a=the+cat+sat") && q.contains("anchors=3,150,7"),
        "{q}"
    );
    assert!(
        q.contains("task=copy&schemes=none,rope,alibi&layers=3&attn_heads=4&width=48")
            && q.contains("lr=0.0005&train_seed=77&run=1"),
        "{q}"
    );
}

#[test]
fn the_train_views_values_are_held_to_their_limits_and_say_so() {
    let p = parse("view=train&steps=0&lr=NaN&width=-5&layers=1e300&attn_heads=3&train_len=9999&train_seed=-1&schemes=bogus&task=%3Cb%3E");
    let t = &p.settings.train;
    assert_eq!(p.settings.view, View::Train);
    assert_eq!((t.steps, t.layers, t.train_len, t.seed), (10, 4, 64, 0));
    // NaN and a list naming no scheme are refused: the defaults stay.
    assert_eq!(t.lr, 3e-3);
    assert_eq!(t.schemes, TrainScheme::all());
    // −5 clamps to 16, which is then rounded to a multiple of 2 × 3 heads.
    assert_eq!(t.heads, 3);
    assert_eq!(t.d_model % 6, 0);
    let all = p.notices.join(" | ");
    for needle in [
        "steps=0",
        "lr=NaN",
        "width=-5",
        "layers=1e300",
        "train_len=9999",
        "schemes=bogus",
        "task=<b>",
    ] {
        assert!(all.contains(needle), "missing {needle:?} in {all}");
    }
    let huge = parse("lr=1e300&steps=1e300");
    assert_eq!(
        (huge.settings.train.lr, huge.settings.train.steps),
        (10.0, 10_000)
    );
}

#[test]
fn embedding_is_read() {
    let p = parse("?embed=offsets&controls=none&d_model=64");
    assert_eq!(
        p.embed,
        Some(Embed {
            view: View::Offsets,
            controls: false,
            show: Show::Panel,
        })
    );
    assert_eq!(p.settings.view, View::Offsets);
    assert_eq!(p.settings.d_model, 64);
    let q = to_query(&p.settings, p.embed.as_ref());
    assert!(q.starts_with("embed=offsets&controls=none"), "{q}");
    assert_eq!(parse(&q).embed, p.embed);
}

#[test]
fn a_compact_embed_and_the_host_theme_survive_the_round_trip() {
    let p = parse("?embed=waves&show=chart&theme=host&base=500");
    assert!(p.notices.is_empty(), "{:?}", p.notices);
    let e = p.embed.clone().expect("an embed");
    assert_eq!(
        (e.view, e.show, e.controls),
        (View::Waves, Show::Chart, true)
    );
    assert_eq!(p.settings.theme, ThemeChoice::Host);
    let q = to_query(&p.settings, p.embed.as_ref());
    assert_eq!(q, "embed=waves&show=chart&base=500&theme=host");
    let both = parse("?embed=heatmap&controls=none&show=chart");
    let q = to_query(&both.settings, both.embed.as_ref());
    assert!(
        q.starts_with("embed=heatmap&show=chart&controls=none"),
        "{q}"
    );
    assert_eq!(parse(&q).embed, both.embed);
    // The whole panel is the default and is not written.
    let panel = parse("?embed=norms&show=panel");
    assert_eq!(
        to_query(&panel.settings, panel.embed.as_ref()),
        "embed=norms"
    );
}

#[test]
fn a_bad_or_misplaced_show_is_named_and_ignored() {
    let bad = parse("?embed=waves&show=<b>everything</b>");
    assert_eq!(bad.embed.map(|e| e.show), Some(Show::Panel));
    assert!(
        bad.notices
            .iter()
            .any(|n| n.starts_with("show=<b>everything")),
        "{:?}",
        bad.notices
    );
    let alone = parse("?view=waves&show=chart");
    assert!(alone.embed.is_none());
    assert!(
        alone.notices.iter().any(|n| n.contains("does not embed")),
        "{:?}",
        alone.notices
    );
}

#[test]
fn a_lesson_link_opens_the_step_as_it_sets_itself_up() {
    let p = parse("?lesson=6");
    assert_eq!(p.settings.view, View::Lesson);
    assert_eq!(
        p.settings,
        pe_explorer::learn::lesson::preset(6, &Settings::default())
    );
    assert!(p.notices.is_empty(), "{:?}", p.notices);
    // Step 6 is the learned table; a change on top of the step survives the round trip,
    // including a change back to a default value the step had moved away from.
    let mut s = p.settings.clone();
    s.scheme = pe_explorer::schemes::Scheme::Sinusoidal;
    s.d_model = 96;
    let q = to_query(&s, None);
    assert!(q.starts_with("lesson=6"), "{q}");
    assert_eq!(parse(&q).settings, s);
    // view=lesson alone is step 1; a step past the end is the last, with a notice.
    assert_eq!(parse("?view=lesson").settings.lesson, 1);
    let last = parse("?lesson=99");
    assert_eq!(
        last.settings.lesson,
        pe_explorer::learn::lesson::STEPS.len()
    );
    assert_eq!(last.notices.len(), 1);
    // An embedded step is a step.
    let e = parse("?embed=lesson&lesson=2");
    assert_eq!((e.settings.view, e.settings.lesson), (View::Lesson, 2));
    // A step number means nothing to another view.
    let other = parse("?view=waves&lesson=3");
    assert_eq!(
        (other.settings.view, other.settings.lesson),
        (View::Waves, 1)
    );
    assert_eq!(other.notices.len(), 1);
}

#[test]
fn a_quiz_question_is_a_link() {
    let p = parse("?view=quiz&question=7");
    assert_eq!((p.settings.view, p.settings.question), (View::Quiz, 7));
    assert_eq!(parse(&to_query(&p.settings, None)).settings, p.settings);
    // A task opens on the settings it starts from, and changes on top of them are kept.
    let quiz = &pe_explorer::learn::quiz::QUESTIONS;
    let n = quiz.iter().position(|q| q.id == "steepest-head").unwrap() + 1;
    let t = parse(&format!("?view=quiz&question={n}"));
    assert_eq!(
        t.settings,
        pe_explorer::learn::quiz::task_preset(n, &Settings::default())
    );
    assert_eq!(t.settings.scheme, pe_explorer::schemes::Scheme::Alibi);
    let mut moved = t.settings.clone();
    moved.schemes.alibi.head = 0;
    moved.scheme = pe_explorer::schemes::Scheme::Sinusoidal;
    assert_eq!(parse(&to_query(&moved, None)).settings, moved);
    assert_eq!(
        parse("?question=3").notices.len(),
        1,
        "a question needs the quiz"
    );
    let bad = parse("?view=quiz&question=999");
    assert_eq!(bad.settings.question, 1);
    assert_eq!(bad.notices.len(), 1);
}

#[test]
fn bad_values_fall_back_and_say_so() {
    let p = parse("d_model=-5&length=1e12&base=NaN&view=%3Cscript%3Ealert(1)%3C/script%3E&foo=bar&variant=nope");
    let s = &p.settings;
    assert_eq!((s.d_model, s.length, s.base), (2, 65_536, 10_000.0));
    assert_eq!((s.view, s.variant), (View::Matrix, Variant::Paper));
    let all = p.notices.join(" | ");
    for needle in [
        "d_model=-5",
        "below the minimum",
        "length=1e12",
        "above the maximum",
        "base=NaN",
        "not a number",
        "view=<script>",
        "foo",
        "variant=nope",
    ] {
        assert!(all.contains(needle), "missing {needle:?} in {all}");
    }
    assert_eq!(p.notices.len(), 6, "{all}");
}

#[test]
fn encoding_round_trips_any_text() {
    for text in [
        "dog bites man",
        "a&b=c",
        "100%",
        "ünïcødé ✓",
        "<b>x</b>",
        "+plus+",
    ] {
        assert_eq!(decode(&encode(text)), text);
    }
    assert_eq!(
        decode("%zz%4"),
        "%zz%4",
        "malformed escapes stay as they are"
    );
    assert_eq!(decode("%FF"), "\u{FFFD}");
}

#[test]
fn each_key_is_read_once_and_each_parameter_round_trips() {
    use pe_explorer::math::rotation::Pairing;
    use pe_explorer::plot::colormap::Palette;
    use pe_explorer::schemes::grid::{GridScheme, MropeModel};
    use pe_explorer::url::{keys, tables};
    let mut seen = std::collections::HashSet::new();
    for key in keys() {
        assert!(seen.insert(key), "{key} is read twice");
    }
    // Values to try until one moves the parameter off its default: numbers, words, sentences,
    // then every id (the lesson's view is opened by `lesson=` instead).
    let mut values: Vec<String> = ["7", "2", "1", "0", "b", "bases", "the cat sat"]
        .map(String::from)
        .to_vec();
    let views = View::ALL.into_iter().filter(|v| *v != View::Lesson);
    values.extend(views.map(|v| v.id().to_string()));
    values.extend(Scheme::ALL.map(|v| v.id().to_string()));
    values.extend(Variant::ALL.map(|v| v.id().to_string()));
    values.extend(Palette::ALL.map(|v| v.id().to_string()));
    values.extend(ThemeChoice::ALL.map(|v| v.id().to_string()));
    values.extend(RopePairing::ALL.map(|v| v.id().to_string()));
    values.extend(Extension::ALL.map(|v| v.id().to_string()));
    values.extend(Pairing::ALL.map(|v| v.id().to_string()));
    values.extend(GridScheme::ALL.map(|v| v.id().to_string()));
    values.extend(MropeModel::ALL.map(|v| v.id().to_string()));
    values.push("transformers".into());
    values.push("qwen2_vl,128,1000000,16,24,24,chunked,2".into());
    let d = Settings::default();
    for p in tables().into_iter().flatten() {
        let s = values
            .iter()
            .find_map(|v| {
                let (a, _) = p.read(v, &d).ok()?;
                let s = (*Rc::new(d.clone()).reduce(a)).clone();
                (s != d).then_some(s)
            })
            .unwrap_or_else(|| panic!("no value moves {}", p.key()));
        let q = to_query(&s, None);
        let key = format!("{}=", p.key());
        assert!(q.split('&').any(|kv| kv.starts_with(&key)), "{q}");
        let back = parse(&q);
        assert_eq!(back.settings, s, "{q}");
        assert!(back.notices.is_empty(), "{q}: {:?}", back.notices);
    }
}

fn valid(s: &Settings) -> bool {
    (2..=4096).contains(&s.d_model)
        && (1..=65_536).contains(&s.length)
        && (10.0..=1e8).contains(&s.base)
        && (1..=1_048_576).contains(&s.trained_length)
        && (1.0..=1024.0).contains(&s.schemes.rope.factor)
        && [&s.schemes.rope.short_factor, &s.schemes.rope.long_factor]
            .iter()
            .all(|l| l.len() <= 2048 && l.iter().all(|f| f.is_finite() && *f > 0.0))
        && s.position < s.length
        && s.schemes.alibi.head < s.schemes.alibi.heads
        && s.anchors().iter().all(|p| *p < s.length)
        && s.dims().iter().all(|d| *d < s.d_model)
        && s.sentences
            .iter()
            .all(|t| !t.is_empty() && t.split(' ').count() <= 16)
        && (1..=4).contains(&s.train.layers)
        && (1..=4).contains(&s.train.heads)
        && (16..=128).contains(&s.train.d_model)
        && s.train.d_model % (2 * s.train.heads) == 0
        && (4..=64).contains(&s.train.train_len)
        && (10..=10_000).contains(&s.train.steps)
        && s.train.lr.is_finite()
        && (1e-5..=10.0).contains(&s.train.lr)
        && !s.train.schemes.is_empty()
        && (1..=64).contains(&s.grid.rows)
        && (1..=64).contains(&s.grid.cols)
        && (1..=64).contains(&s.grid.trained)
        && s.grid.head <= 15
        && s.mrope.frames <= 16
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    /// Hostile query strings: huge and negative numbers, NaN, unicode, markup, long runs.
    #[test]
    fn any_query_gives_a_valid_state(
        parts in prop::collection::vec(
            (
                prop::sample::select(vec![
                    "d_model", "length", "base", "view", "scheme", "variant", "anchors", "dims",
                    "bases", "p", "k", "pair", "a", "b", "heads", "head", "buckets", "trained",
                    "max_distance", "factor", "embed", "lesson", "question", "theme", "x<y", "",
                    "task", "schemes", "layers", "attn_heads", "width", "train_len", "steps",
                    "lr", "train_seed", "run", "extension", "low_freq", "high_freq", "beta_fast",
                    "beta_slow", "mscale", "mscale_all_dim", "rotary", "padding_idx", "qv", "kv",
                    "m", "n", "truncate", "attention_factor", "short_factor", "long_factor",
                ]),
                prop_oneof![
                    Just("NaN".to_string()),
                    Just("-1e308".to_string()),
                    Just("1e400".to_string()),
                    Just("<script>alert(1)</script>".to_string()),
                    Just("%00%FF%".to_string()),
                    "[0-9.e+-]{0,12}",
                    "\\PC{0,30}",
                    "[a-z,]{0,40}",
                    "x{300,2000}",
                ],
            ),
            0..12,
        )
    ) {
        let query = parts
            .iter()
            .map(|(k, v)| format!("{}={}", encode(k), encode(v)))
            .collect::<Vec<_>>()
            .join("&");
        let p = parse(&query);
        prop_assert!(valid(&p.settings), "{query}");
        // What we write back reads back to the same state.
        let again = parse(&to_query(&p.settings, p.embed.as_ref()));
        prop_assert_eq!(&again.settings, &p.settings);
        prop_assert!(again.notices.is_empty(), "{:?}", again.notices);
        // The link the app writes fits, and reads back the same but for what it names.
        let link = to_link(&p.settings, p.embed.as_ref());
        prop_assert!(link.query.len() <= MAX_QUERY);
        if link.left_out.is_empty() {
            prop_assert_eq!(&parse(&link.query).settings, &p.settings);
        }
        // Notices stay short, whatever came in.
        prop_assert!(p.notices.iter().all(|n| n.chars().count() < 400));
    }

    #[test]
    fn raw_garbage_never_panics(raw in "\\PC{0,600}") {
        let p = parse(&raw);
        prop_assert!(valid(&p.settings));
    }
}

/// Control characters in a link are shown escaped in the notice, never dropped, wherever the
/// value is quoted (the app's own parameters, the Train view's, a number's limit).
#[test]
fn notices_show_control_characters_escaped() {
    for (query, expected) in [
        ("view=train&task=agent%00", "agent\\u0000"),
        ("variant=pa%01per", "pa\\u0001per"),
        ("d_model=1%002", "1\\u00002"),
        ("steps=4%1B0", "4\\u001b0"),
    ] {
        let p = parse(query);
        assert!(
            p.notices.iter().any(|n| n.contains(expected)),
            "{query}: {:?}",
            p.notices
        );
        assert!(
            p.notices.iter().all(|n| !n.chars().any(char::is_control)),
            "{query}: {:?}",
            p.notices
        );
    }
}

/// A typed query of 4,096 numbers is far longer than a link keeps: the link the app writes
/// leaves it out (and says so), and opens to exactly the same state but the seeded query.
#[test]
fn a_link_the_app_writes_reopens_to_the_same_state_or_says_what_it_left_out() {
    let q: Vec<f64> = (0..4096)
        .map(|i| (i as f64 * 0.731).sin() * 1234.5678)
        .collect();
    let s = settings(vec![
        Action::SetScheme(Scheme::Rope),
        Action::SetDModel(4096.0),
        Action::SetRopeQ(Some(q)),
        Action::SetRopeK(Some(vec![1.5, -2.0, 3.25])),
        Action::SetRopeM(7.0),
    ]);
    assert!(to_query(&s, None).len() > 40_000);
    let link = to_link(&s, None);
    assert!(link.query.len() <= MAX_QUERY, "{}", link.query.len());
    assert_eq!(link.left_out, ["qv"]);
    let back = parse(&link.query);
    assert!(back.notices.is_empty(), "{:?}", back.notices);
    let mut expected = s.clone();
    expected.rope_q = None;
    assert_eq!(back.settings, expected);
    let note = left_out_note(&link.left_out).unwrap();
    assert!(
        note.contains("the typed query q") && note.contains("4,096"),
        "{note}"
    );
    // Within the limit nothing is left out, and the link is the whole query.
    let short = settings(vec![Action::SetRopeQ(Some(vec![1.0, 2.0]))]);
    let link = to_link(&short, None);
    assert!(link.left_out.is_empty() && left_out_note(&link.left_out).is_none());
    assert_eq!(link.query, to_query(&short, None));
    // Both vectors too long: both are named, and the rest still opens as it was.
    let both = settings(vec![
        Action::SetDModel(4096.0),
        Action::SetRopeQ(Some(vec![0.123456789; 4096])),
        Action::SetRopeK(Some(vec![-9.87654321; 4096])),
        Action::SetLength(777.0),
    ]);
    let link = to_link(&both, None);
    assert_eq!(link.left_out.len(), 2);
    assert_eq!(parse(&link.query).settings.length, 777);
    assert!(
        left_out_note(&link.left_out)
            .unwrap()
            .contains("the typed query q and the typed key k")
            || left_out_note(&link.left_out)
                .unwrap()
                .contains("the typed key k and the typed query q")
    );
}

/// A link cut at the limit drops the parameter the cut goes through, rather than reading half
/// a list of numbers as a shorter one.
#[test]
fn a_parameter_cut_by_the_limit_is_ignored_whole_and_named() {
    let long: Vec<String> = (0..2000).map(|i| format!("{}.5", i)).collect();
    let query = format!("d_model=64&qv={}&m=3", long.join(","));
    let p = parse(&query);
    assert_eq!(p.settings.d_model, 64);
    assert_eq!(p.settings.rope_q, None);
    assert!(
        p.notices
            .iter()
            .any(|n| n.contains("4,096") && n.contains("“qv”")),
        "{:?}",
        p.notices
    );
}

/// Every setting a scheme shows in the sidebar (its `Control`s, walked over `Scheme::ALL` and,
/// for RoPE, over every extension method, which shows its own numbers) is in the link: moved
/// to another valid value, it reopens the same.
#[test]
fn every_schemes_sidebar_setting_is_in_the_link() {
    use pe_explorer::schemes::{Control, Registered, Scheme};
    let mut starts: Vec<Settings> = Scheme::ALL
        .map(|scheme| Settings {
            scheme,
            ..Settings::default()
        })
        .to_vec();
    for e in Extension::ALL {
        let mut s = Settings {
            scheme: Scheme::Rope,
            ..Settings::default()
        };
        s.schemes.rope.extension = e;
        starts.push(s);
    }
    let keys: Vec<&str> = pe_explorer::url::keys().collect();
    let mut checked = 0;
    for start in starts {
        for control in start.scheme.def().controls(&start) {
            let (key, value, apply) = match control {
                Control::Number {
                    key,
                    limit,
                    value,
                    apply,
                    ..
                } => {
                    let other = if value == limit.max {
                        limit.min
                    } else {
                        limit.max
                    };
                    (key, other, apply)
                }
                Control::Toggle { key, on, apply, .. } => (key, if on { 0.0 } else { 1.0 }, apply),
                Control::Choice {
                    key,
                    options,
                    selected,
                    apply,
                    ..
                } => {
                    let other = options.iter().position(|(id, _)| *id != selected).unwrap();
                    (key, other as f64, apply)
                }
                Control::Presets {
                    key, items, apply, ..
                } => (key, items.last().unwrap().value, apply),
                Control::Panel(_) => continue,
            };
            assert!(
                keys.contains(&key),
                "{:?}: {key} is not a link key",
                start.scheme
            );
            let moved = settings_after(&start, vec![edit(key, value, apply)]);
            assert_ne!(
                moved, start,
                "{:?}: {key} = {value} moves nothing",
                start.scheme
            );
            let back = parse(&to_query(&moved, None));
            assert_eq!(back.settings, moved, "{:?}: {key}", start.scheme);
            checked += 1;
        }
    }
    assert!(checked >= 30, "only {checked} controls");
}

/// `url::whole_app_link`: a panel's way to the whole app drops `theme=host` (which means
/// nothing outside a frame) and keeps every other setting.
#[test]
fn the_whole_apps_link_follows_the_system_where_a_panel_followed_its_host() {
    let parsed = pe_explorer::url::parse("embed=offsets&theme=host&d_model=64");
    let link = pe_explorer::url::whole_app_link(&parsed.settings).query;
    assert_eq!(link, "view=offsets&d_model=64");
    let dark = pe_explorer::url::parse("embed=offsets&theme=dark");
    assert!(pe_explorer::url::whole_app_link(&dark.settings)
        .query
        .contains("theme=dark"));
}

// `read_grid` (url.rs): a 2-D `scheme=` is the scheme the Image patches view draws, so a `grid=`
// that names another one is refused out loud, and one that agrees is read silently.
#[test]
fn a_grid_that_contradicts_a_two_d_scheme_is_refused_out_loud() {
    use pe_explorer::schemes::grid::GridScheme;
    let p = parse("?scheme=rope_axial&grid=vit_sincos&view=patches");
    assert_eq!(p.settings.scheme, Scheme::RopeAxial);
    assert_eq!(p.settings.grid.scheme, GridScheme::Axial);
    assert!(
        p.notices
            .iter()
            .any(|n| n.starts_with("grid=vit_sincos: ignored")),
        "{:?}",
        p.notices
    );
    let agreed = parse("?scheme=rope_axial&grid=rope_axial&view=patches");
    assert!(agreed.notices.is_empty(), "{:?}", agreed.notices);
    // With a scheme of a line the view's 2-D scheme is its own.
    let own = parse("?scheme=rope&grid=vit_learned&view=patches");
    assert_eq!(own.settings.grid.scheme, GridScheme::Learned);
    assert!(own.notices.is_empty(), "{:?}", own.notices);
}
