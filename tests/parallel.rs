//! Training in parts (one per worker): every part's runs are the serial run's runs bit for bit,
//! the extension step too (from the RoPE weights another part trained, or from a private copy
//! of the RoPE run), and the page's merge of the parts' reports is the serial report.

mod common;

use pe_explorer::schemes::Scheme;
use pe_explorer::train::experiment::{worker_count, Experiment, Part, Run, MAX_WORKERS};
use pe_explorer::train::protocol::{merge, Command, Phase, Progress, Reporter};
use pe_explorer::train::settings::{Method, TrainSettings};
use pe_explorer::train::tasks::Task;

fn agent() -> TrainSettings {
    TrainSettings {
        schemes: common::train_schemes(&[
            Scheme::None,
            Scheme::Learned,
            Scheme::Rope,
            Scheme::Alibi,
            Scheme::T5,
        ]),
        d_model: 8,
        train_len: 6,
        steps: 12,
        seed: 5,
        ..TrainSettings::default()
    }
}

/// A passkey experiment without its extension step, and the same with three methods.
fn passkey() -> (TrainSettings, TrainSettings) {
    let base = TrainSettings {
        task: Task::Passkey,
        schemes: common::train_schemes(&[Scheme::None, Scheme::Rope, Scheme::Alibi]),
        d_model: 8,
        train_len: 6,
        steps: 8,
        seed: 9,
        tune_steps: 3,
        ..TrainSettings::default()
    };
    let extended = TrainSettings {
        extend: vec![Method::Pi, Method::Ntk, Method::Yarn],
        ..base.clone()
    };
    (base, extended)
}

/// Everything a run's numbers are, as bits.
type Outcome = (
    usize,
    String,
    usize,
    Vec<(u64, Option<u64>)>,
    Vec<u64>,
    Vec<u32>,
);

fn outcome(r: &Run) -> Outcome {
    let curve = r
        .curve
        .iter()
        .map(|p| (p.loss.to_bits(), p.accuracy.map(f64::to_bits)))
        .collect();
    let cells = r
        .cells
        .iter()
        .flat_map(|c| [c.correct, c.counted, c.examples, c.rival].map(|x| x as u64))
        .chain(
            r.cells
                .iter()
                .flat_map(|c| c.depths.iter().flat_map(|d| [d.0 as u64, d.1 as u64])),
        )
        .collect();
    let weights = r.params.iter().map(|p| p.to_bits()).collect();
    (
        r.index,
        format!("{}/{:?}", r.scheme.id(), r.status),
        r.step,
        curve,
        cells,
        weights,
    )
}

fn outcomes<'a>(runs: impl Iterator<Item = &'a Run>) -> Vec<Outcome> {
    let mut v: Vec<Outcome> = runs.map(outcome).collect();
    v.sort_by_key(|o| o.0);
    v
}

/// Runs `e` to the end, applying a report every `every` pieces of work (and at the end) to
/// `progress`, as the worker and the page do.
fn train_reporting(e: &mut Experiment, progress: &mut Progress, every: usize) {
    let mut reporter = Reporter::default();
    let mut pieces = 0;
    while e.advance(&mut |_| {
        pieces += 1;
        pieces % every != 0
    }) {
        progress.apply(&reporter.report(e, Phase::Training, (0.0, 0.0), &[]));
    }
    let answers = e.dog_and_man();
    progress.apply(&reporter.report(e, Phase::Done, (0.0, 0.0), &answers));
}

#[test]
fn every_split_gives_the_serial_runs_bit_for_bit() {
    let (_, extended) = passkey();
    for s in [agent(), extended] {
        let mut whole = Experiment::new(s.clone());
        whole.run_to_end();
        assert!(whole.finished());
        let serial = outcomes(whole.runs.iter());
        for n in 2..=MAX_WORKERS {
            let mut parts: Vec<Experiment> = (0..n)
                .map(|k| Experiment::start_part(s.clone(), Part::new(k, n)))
                .collect();
            for p in &mut parts {
                p.run_to_end();
            }
            // Each run in exactly one part, under its own index.
            let split = outcomes(parts.iter().flat_map(|p| p.shown()));
            assert_eq!(split.len(), serial.len(), "{n} parts, {}", s.to_message());
            assert!(
                split == serial,
                "{n} parts differ from serial: {}",
                s.to_message()
            );
        }
    }
}

#[test]
fn merging_the_parts_reports_gives_the_serial_report() {
    let (_, extended) = passkey();
    for s in [agent(), extended] {
        let mut whole = Experiment::start(s.clone());
        let mut serial = Progress::default();
        train_reporting(&mut whole, &mut serial, 997);
        for n in [2, 3] {
            let mut reports = vec![Progress::default(); n];
            for (k, report) in reports.iter_mut().enumerate() {
                let mut e = Experiment::start_part(s.clone(), Part::new(k, n));
                // Reports at other moments than the serial run's: only their content counts.
                train_reporting(&mut e, report, 613 + 100 * k);
            }
            let merged = merge(&reports, &s.to_message());
            assert_eq!(merged.phase, Phase::Done);
            assert_eq!(merged.runs, serial.runs, "{n} parts: {}", s.to_message());
            assert_eq!(merged.steps_done, serial.steps_done);
            assert_eq!(merged.work_total, serial.work_total);
            assert_eq!(merged.work_done, serial.work_done);
            assert_eq!(merged.settings, serial.settings);
        }
    }
}

#[test]
fn a_merge_waits_for_every_part_and_shows_the_slowest_time() {
    let s = agent();
    let message = s.to_message();
    let mut a = Experiment::start_part(s.clone(), Part::new(0, 2));
    a.run_to_end();
    let mut done = Progress::default();
    done.apply(&Reporter::default().report(&a, Phase::Done, (900.0, 0.0), &[]));
    // The other part has not reported on these settings yet: still training.
    let merged = merge(&[done.clone(), Progress::default()], &message);
    assert_eq!(merged.phase, Phase::Training);
    assert_eq!(merged.runs.len(), s.runs().len());
    let b = Experiment::start_part(s.clone(), Part::new(1, 2));
    let mut paused = Progress::default();
    paused.apply(&Reporter::default().report(&b, Phase::Paused, (1500.0, 0.0), &[]));
    let merged = merge(&[done, paused], &message);
    assert_eq!(merged.phase, Phase::Paused);
    assert_eq!(merged.elapsed_ms, 1500.0);
}

#[test]
fn the_extension_step_in_parts_is_the_serial_one() {
    let (base, extended) = passkey();
    let mut whole = Experiment::new(base.clone());
    whole.run_to_end();
    assert!(whole.extend(extended.clone()));
    whole.run_to_end();
    let serial = outcomes(whole.runs.iter());
    for n in [2, 3, 4] {
        let mut parts: Vec<Experiment> = (0..n)
            .map(|k| Experiment::start_part(base.clone(), Part::new(k, n)))
            .collect();
        for p in &mut parts {
            p.run_to_end();
        }
        let rope = parts
            .iter()
            .find_map(|p| p.trained_rope())
            .map(|r| r.params.clone())
            .expect("one part trained the RoPE run");
        for (k, p) in parts.iter_mut().enumerate() {
            assert!(
                p.extend_part(extended.clone(), Part::new(k, n), Some((&rope, false))),
                "part {k} of {n}"
            );
            p.run_to_end();
        }
        assert!(
            outcomes(parts.iter().flat_map(|p| p.shown())) == serial,
            "{n} parts"
        );
    }
    // A part that owns extensions but has neither the RoPE run nor its weights cannot extend;
    // started anew, it trains a private copy of the RoPE run and gives the same numbers.
    let rope_run = base
        .runs()
        .iter()
        .position(|sc| sc.scheme == Scheme::Rope && sc.extended.is_none())
        .expect("a RoPE run");
    let part = (0..2)
        .map(|k| Part::new(k, 2))
        .find(|p| !p.owned(&base)[rope_run] && p.owned(&extended).iter().skip(3).any(|&o| o))
        .expect("a part that extends RoPE without training it");
    let mut p = Experiment::start_part(base.clone(), part);
    p.run_to_end();
    assert!(p.trained_rope().is_none());
    assert!(!p.extend_part(extended.clone(), part, None));
    let mut fresh = Experiment::start_part(extended.clone(), part);
    assert!(fresh.runs.iter().any(|r| r.hidden));
    fresh.run_to_end();
    let owned = part.owned(&extended);
    let mine: Vec<Outcome> = serial.iter().filter(|o| owned[o.0]).cloned().collect();
    assert!(outcomes(fresh.shown()) == mine);
}

#[test]
fn parts_and_worker_counts() {
    for (cores, runs, n) in [
        (1, 9, 1),
        (0, 9, 1),
        (2, 9, 2),
        (8, 9, 4),
        (8, 3, 3),
        (2, 1, 1),
        (4, 0, 1),
    ] {
        assert_eq!(worker_count(cores, runs), n, "{cores} cores, {runs} runs");
    }
    let s = passkey().1;
    for n in 1..=4 {
        let owned: Vec<Vec<bool>> = (0..n).map(|k| Part::new(k, n).owned(&s)).collect();
        for run in 0..s.runs().len() {
            assert_eq!(owned.iter().filter(|o| o[run]).count(), 1);
        }
    }
    assert_eq!(Part::from_id("1/3"), Some(Part::new(1, 3)));
    assert_eq!(Part::from_id("3/3"), None);
    assert_eq!(Part::from_id("0/0"), None);
    // As the settings' checks leave them (a message carries only values they accept).
    let s = TrainSettings::from_message(&passkey().1.to_message());
    for c in [
        Command::Start(s.clone(), Part::new(1, 2)),
        Command::Extend(s.clone(), Part::new(2, 4)),
        Command::Start(s.clone(), Part::WHOLE),
    ] {
        assert_eq!(Command::from_text(&c.to_text()), Some(c));
    }
    // A command without a part is for the whole experiment.
    assert_eq!(
        Command::from_text(&format!("start\n{}", s.to_message())),
        Some(Command::Start(s, Part::WHOLE))
    );
}

/// `experiment::owners`: the default experiment's runs dealt by estimated time finish closer
/// together than dealt in turn (the deal before), and the busiest worker carries at most an even
/// share plus one run.
#[test]
fn runs_are_dealt_by_cost() {
    use pe_explorer::train::experiment::{estimate_seconds, owners};
    let s = TrainSettings::default();
    let runs = s.runs();
    let t: Vec<f64> = runs
        .iter()
        .map(|&sc| {
            estimate_seconds(&TrainSettings {
                schemes: vec![sc],
                ..s.clone()
            })
        })
        .collect();
    let total: f64 = t.iter().sum();
    let longest = t.iter().copied().fold(0.0, f64::max);
    let busiest = |o: &[usize], n: usize| {
        (0..n)
            .map(|k| {
                o.iter()
                    .zip(&t)
                    .filter(|(w, _)| **w == k)
                    .map(|(_, t)| t)
                    .sum()
            })
            .fold(0.0_f64, f64::max)
    };
    for n in 2..=MAX_WORKERS {
        let dealt = owners(&s, n);
        let in_turn: Vec<usize> = (0..runs.len()).map(|i| i % n).collect();
        let (by_cost, by_turn) = (busiest(&dealt, n), busiest(&in_turn, n));
        eprintln!(
            "{n} workers: busiest {:.2} of the serial time by cost, {:.2} in turn",
            by_cost / total,
            by_turn / total
        );
        assert!(by_cost <= by_turn + 1e-9, "{n}: {by_cost} > {by_turn}");
        // On two workers, dealt in turn put ALiBi and FIRE (or T5 and FIRE) together.
        if n == 2 {
            assert!(
                by_cost < by_turn - 1e-9,
                "{n}: {by_cost} not below {by_turn}"
            );
        }
        assert!(by_cost <= total / n as f64 + longest, "{n}: {by_cost}");
        // Every worker gets work.
        assert!((0..n).all(|k| dealt.contains(&k)), "{n}: {dealt:?}");
    }
}

/// `experiment::owners`: Extend keeps every trained run with the worker that trained it (the
/// page merges reports and hands the RoPE weights on by this deal).
#[test]
fn extend_deals_the_trained_runs_as_training_did() {
    use pe_explorer::train::experiment::owners;
    let (base, extended) = passkey();
    for s in [base.clone(), TrainSettings::default()] {
        let more = TrainSettings {
            extend: vec![Method::Pi, Method::Ntk, Method::Yarn, Method::Drope],
            tune_steps: 7,
            ..s.clone()
        };
        for n in 2..=MAX_WORKERS {
            let (a, b) = (owners(&s, n), owners(&more, n));
            assert_eq!(a[..], b[..a.len()], "{n} workers");
        }
    }
    assert!(extended.runs().len() > base.runs().len());
}
