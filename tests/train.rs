//! The trainer: gradients against finite differences (f64), reproducibility, and the claim the
//! Train view rests on (a model without position stays at chance on "who did what to whom",
//! while sinusoidal and RoPE learn it). Also the score biases' math (KERPLE-log and FIRE by
//! hand, every bias scheme's table against its own formula) and ALiBi and T5 giving the numbers
//! they gave before they moved onto the shared score-bias path.

mod common;

use pe_explorer::math::bias::ScoreBias;
use pe_explorer::math::rng::SplitMix64;
use pe_explorer::schemes::Scheme;
use pe_explorer::train::experiment::{batch_of, model_config, planned_work, Experiment, Status};
use pe_explorer::train::figures::label;
use pe_explorer::train::model::{Model, Tape};
use pe_explorer::train::real::Real;
use pe_explorer::train::safetensors::{self, Data, Entry};
use pe_explorer::train::settings::{TrainScheme, TrainSettings};
use pe_explorer::train::tasks::Task;

fn small(task: Task) -> TrainSettings {
    TrainSettings {
        task,
        d_model: 8,
        heads: 2,
        layers: 2,
        train_len: 6,
        ..TrainSettings::default()
    }
}

/// Puts the score biases' parameters where every branch of their formulas is taken: FIRE's
/// threshold L = 0.6 · 6 = 3.6, so that the batch's later queries (4 and 5) are normalised by
/// their own position, as the held-out lengths are; one of KERPLE's r2 below ε (used as ε,
/// with no gradient).
fn reach_every_branch<T: Real>(model: &Model<T>, params: &mut [T]) {
    if let Some(t) = model.layout.tensor("fire.L_multiplier") {
        params[t.offset] = T::from_f64(0.6);
    }
    if let Some(t) = model.layout.tensor("kerple.r2") {
        params[t.offset] = T::from_f64(0.004);
    }
}

/// Central differences in f64 on a random subset of parameters, against the backward pass.
fn check_gradients(s: &TrainSettings, scheme: TrainScheme) {
    let config = model_config(s, scheme);
    let model: Model<f64> = Model::new(config, 12);
    let mut params = model.init(7);
    // Move off the initial point so that no gradient is zero by symmetry (biases, gains).
    let mut rng = SplitMix64::new(99);
    for p in params.iter_mut() {
        *p += 0.05 * rng.next_normal();
    }
    reach_every_branch(&model, &mut params);
    let mut data = SplitMix64::new(5);
    let examples: Vec<_> = [3, 6, 5]
        .iter()
        .map(|&n| s.task.sample(&mut data, n))
        .collect();
    let batch = batch_of(&examples);
    let mut tape = Tape::default();
    model.forward(&params, &batch, &mut tape).unwrap();
    let mut grads = vec![0.0; params.len()];
    model.backward(&params, &batch, &mut tape, &mut grads);
    let loss = |p: &[f64]| {
        let mut t = Tape::default();
        model.forward(p, &batch, &mut t).unwrap().loss
    };
    let mut worst: f64 = 0.0;
    for t in &model.layout.tensors {
        // Every tensor, up to 12 entries of each.
        let mut picks = SplitMix64::new(t.offset as u64);
        for _ in 0..t.len().min(12) {
            let i = t.offset + (picks.next_u64() % t.len() as u64) as usize;
            let h = 1e-5;
            let mut up = params.clone();
            up[i] += h;
            let mut down = params.clone();
            down[i] -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            let err = (numeric - grads[i]).abs() / (numeric.abs() + grads[i].abs()).max(1e-7);
            assert!(
                err < 1e-5 || (numeric - grads[i]).abs() < 1e-9,
                "{:?} {}[{}]: backward {} vs finite difference {}",
                scheme,
                t.name,
                i - t.offset,
                grads[i],
                numeric
            );
            worst = worst.max(err);
        }
    }
    eprintln!("{scheme:?} {:?}: worst relative error {worst:.2e}", s.task);
}

#[test]
fn gradients_match_finite_differences_for_every_scheme() {
    for task in [Task::Agent, Task::Copy] {
        for scheme in TrainScheme::all() {
            check_gradients(&small(task), scheme);
        }
    }
}

/// A model of type `T` moved off its initial point, a batch of three lengths, and the loss and
/// gradient the Rust code computes for them.
fn dump<T: Real>(s: &TrainSettings, scheme: TrainScheme) -> Vec<u8> {
    let config = model_config(s, scheme);
    let model: Model<T> = Model::new(config, 12);
    let mut params = model.init(7);
    let mut rng = SplitMix64::new(99);
    for p in params.iter_mut() {
        *p += T::from_f64(0.05 * rng.next_normal());
    }
    reach_every_branch(&model, &mut params);
    let mut data = SplitMix64::new(5);
    let examples: Vec<_> = [3, 6, 5]
        .iter()
        .map(|&n| s.task.sample(&mut data, n))
        .collect();
    let batch = batch_of(&examples);
    let mut tape = Tape::default();
    let loss = model.forward(&params, &batch, &mut tape).unwrap().loss;
    let mut grads = vec![T::ZERO; params.len()];
    model.backward(&params, &batch, &mut tape, &mut grads);
    let mut entries = safetensors::model_entries(&model, &params);
    for t in &model.layout.tensors {
        entries.push(Entry {
            name: format!("grad.{}", t.name),
            shape: t.shape.clone(),
            data: Data::real(&grads[t.range()]),
        });
    }
    for (i, e) in examples.iter().enumerate() {
        let mut pair =
            safetensors::examples_entries(&format!("batch.{i}"), std::slice::from_ref(e));
        for entry in &mut pair {
            entry.shape.remove(0);
        }
        entries.extend(pair);
    }
    let names: Vec<String> = model
        .layout
        .tensors
        .iter()
        .map(|t| safetensors::json_string(&t.name))
        .collect();
    let config = safetensors::config_json(&model, &scheme.id(), s.task.id(), &s.task.vocab());
    safetensors::write(
        &entries,
        &[
            ("config", config),
            ("trained", format!("[{}]", names.join(","))),
            ("loss", format!("{loss:e}")),
        ],
    )
}

/// Runs tests/python/grad_check.py (HIPS autograd on the downloadable pe_model.py) on dumps.
fn autograd_agrees(tag: &str, files: Vec<Vec<u8>>) {
    let dir = std::env::temp_dir().join(format!("pe-explorer-grad-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let paths: Vec<String> = files
        .iter()
        .enumerate()
        .map(|(i, bytes)| {
            let p = dir.join(format!("{i}.safetensors"));
            std::fs::write(&p, bytes).unwrap();
            p.display().to_string()
        })
        .collect();
    let out = std::process::Command::new("python3")
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/python/grad_check.py"
        ))
        .args(&paths)
        .output()
        .expect("python3 is needed: run `bash scripts/setup.sh --test` first");
    let _ = std::fs::remove_dir_all(&dir);
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    eprintln!("{text}");
    assert!(
        !text.contains("No module named"),
        "numpy and autograd are needed: run `bash scripts/setup.sh --test` first.\n{text}"
    );
    assert!(out.status.success(), "autograd disagrees:\n{text}");
}

fn every_model<T: Real>() -> Vec<Vec<u8>> {
    let mut files = Vec::new();
    for task in [Task::Agent, Task::Copy] {
        for scheme in TrainScheme::all() {
            files.push(dump::<T>(&small(task), scheme));
        }
    }
    files
}

#[test]
fn gradients_match_autograd_in_f64() {
    autograd_agrees("f64", every_model::<f64>());
}

#[test]
fn f32_gradients_match_autograd() {
    autograd_agrees("f32", every_model::<f32>());
}

fn quick(seed: u64) -> TrainSettings {
    TrainSettings {
        schemes: common::train_schemes(&[Scheme::Learned, Scheme::Rope, Scheme::T5]),
        d_model: 16,
        train_len: 8,
        steps: 30,
        seed,
        ..TrainSettings::default()
    }
}

fn curves(e: &Experiment) -> Vec<Vec<(u64, Option<u64>)>> {
    e.runs
        .iter()
        .map(|r| {
            r.curve
                .iter()
                .map(|p| (p.loss.to_bits(), p.accuracy.map(f64::to_bits)))
                .collect()
        })
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_curves_bit_for_bit_and_another_seed_does_not() {
    let run = |seed| {
        let mut e = Experiment::new(quick(seed));
        e.run_to_end();
        e
    };
    let (a, b, c) = (run(3), run(3), run(4));
    assert!(a.runs.iter().all(|r| r.step == 30 && r.curve.len() == 30));
    assert_eq!(curves(&a), curves(&b));
    assert_ne!(curves(&a), curves(&c));
    // Every scheme saw the same batches and started from the same shared weights: the token
    // embedding is identical before training, whatever the scheme.
    let fresh = Experiment::new(quick(3));
    let tok = |i: usize| fresh.runs[i].tensor("tok_emb").unwrap().0.to_vec();
    assert_eq!(tok(0), tok(1));
    assert_eq!(tok(1), tok(2));
}

/// The claim the Train view rests on, on the default experiment's settings: with no position
/// information and no mask, the held-out "who did what to whom" pairs stay at chance; sinusoidal
/// and RoPE learn them.
#[test]
fn without_position_the_agent_stays_at_chance_while_sinusoidal_and_rope_learn_it() {
    let settings = TrainSettings {
        schemes: common::train_schemes(&[Scheme::None, Scheme::Sinusoidal, Scheme::Rope]),
        ..TrainSettings::default()
    };
    let mut e = Experiment::new(settings);
    e.run_to_end();
    for r in &e.runs {
        let cell = &r.cells[0];
        assert_eq!(r.status, Status::Done);
        assert_eq!(cell.length, e.settings.train_len);
        assert!(cell.examples >= 1000, "{} held-out examples", cell.examples);
        let acc = cell.accuracy().unwrap();
        eprintln!(
            "{}: {:.3} on {} held-out sentences",
            label(r.scheme),
            acc,
            cell.examples
        );
        match r.scheme.scheme {
            Scheme::None => assert!((acc - 0.5).abs() <= 0.03, "none: {acc}"),
            _ => assert!(acc >= 0.95, "{}: {acc}", label(r.scheme)),
        }
    }
}

#[test]
fn a_learned_table_has_no_embedding_past_its_length_and_the_export_says_what_the_page_shows() {
    let mut s = quick(1);
    s.schemes = vec![TrainScheme::of(Scheme::Learned)];
    let mut e = Experiment::new(s);
    e.run_to_end();
    let r = &e.runs[0];
    assert!(r.cells[0].accuracy().is_some());
    for c in &r.cells[1..] {
        assert!(c.accuracy().is_none());
        assert!(c
            .missing
            .as_deref()
            .unwrap()
            .contains("no embedding exists"));
    }
    let bytes = safetensors::export_run(&e, r);
    let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
    let header = std::str::from_utf8(&bytes[8..8 + n]).unwrap();
    assert!(header.contains("\"pos_emb\":{\"dtype\":\"F32\",\"shape\":[8,16]"));
    assert!(header.contains("heldout.8.tokens"));
    assert!(!header.contains("heldout.16.tokens"));
    assert_eq!((8 + n) % 8, 0);
}

#[test]
fn progress_reports_rebuild_the_runs_on_the_page() {
    use pe_explorer::train::protocol::{Phase, Progress, Reporter};
    let mut e = Experiment::new(quick(2));
    let mut reporter = Reporter::default();
    let mut page = Progress::default();
    let mut answers = Vec::new();
    // A report after every few pieces of work, as the worker sends one now and then.
    let mut pieces = 0;
    while e.advance(&mut |_| {
        pieces += 1;
        pieces % 97 != 0
    }) {
        page.apply(&reporter.report(&e, Phase::Training, (1.0, 0.0), &answers));
    }
    answers = e.dog_and_man();
    page.apply(&reporter.report(&e, Phase::Done, (2.0, 0.0), &answers));
    assert_eq!(page.phase, Phase::Done);
    assert_eq!(page.runs.len(), e.runs.len());
    for (seen, r) in page.runs.iter().zip(&e.runs) {
        assert_eq!(seen.scheme, r.scheme);
        assert_eq!(seen.status, r.status);
        assert_eq!(seen.curve.len(), r.curve.len());
        assert_eq!(seen.cells, r.cells);
        assert_eq!(seen.dog_and_man.len(), 2);
    }
}

#[test]
fn the_views_figures_say_what_the_runs_measured() {
    use pe_explorer::train::figures;
    use pe_explorer::train::protocol::{Phase, Progress, Reporter};
    let mut s = quick(5);
    s.schemes = common::train_schemes(&[Scheme::None, Scheme::Learned, Scheme::Rope]);
    let mut e = Experiment::new(s.clone());
    e.run_to_end();
    let answers = e.dog_and_man();
    let mut page = Progress::default();
    page.apply(&Reporter::default().report(&e, Phase::Done, (1.0, 0.0), &answers));
    // Without position both sentences get the same answer.
    let rows = figures::dog_and_man_rows(&page.runs);
    assert_eq!(
        rows[0].answers[0].as_ref().unwrap().0,
        rows[0].answers[1].as_ref().unwrap().0
    );
    assert_eq!(
        rows[0].verdict,
        "same answer for both: cannot tell them apart"
    );
    let csv = figures::dog_and_man_csv(&page.runs);
    assert_eq!(csv.lines().count(), 4);
    assert!(csv.lines().nth(1).unwrap().starts_with("none,"));
    // The learned table's cells past its length: "no embedding exists", NaN in the heatmap
    // and the CSV, never a number.
    let learned = &page.runs[1];
    assert_eq!(
        figures::cell_text(learned, &learned.cells[2]),
        "no embedding exists"
    );
    let heat = figures::results_heatmap(&page, &s, pe_explorer::plot::colormap::Palette::BlueRed);
    assert!(heat.matrix.value(1, 2).is_nan());
    assert!(heat.matrix.value(1, 0).is_finite());
    let table = figures::results_csv(&page, &s);
    assert!(
        table.contains("learned,16,8,NaN,0,0,0,no embedding exists"),
        "{table}"
    );
    assert_eq!(table.lines().count(), 1 + 3 * 4);
    // Curves: one line per step per scheme, no NaN loss.
    let curves = figures::curves_csv(&page);
    assert_eq!(curves.lines().count(), 1 + 3 * s.steps);
    assert!(curves
        .lines()
        .skip(1)
        .all(|l| l.split(',').nth(2) != Some("NaN")));
    assert_eq!(
        figures::length_headings(&s),
        ["8 (trained)", "16 (2×)", "32 (4×)", "64 (8×)"]
    );
}

/// One run's status, curve (as bits), held-out counts and weights (as bits).
type Outcome = (String, Vec<(u64, Option<u64>)>, Vec<u64>, Vec<u32>);

/// Everything an experiment produced, run by run.
fn outcome(e: &Experiment) -> Vec<Outcome> {
    e.runs
        .iter()
        .zip(curves(e))
        .map(|(r, curve)| {
            let cells = r
                .cells
                .iter()
                .flat_map(|c| [c.correct, c.counted, c.examples].map(|x| x as u64))
                .collect();
            let weights = r.params.iter().map(|p| p.to_bits()).collect();
            (format!("{:?}", r.status), curve, cells, weights)
        })
        .collect()
}

/// The worker stops wherever its time slice ends: inside a stage of a forward or backward
/// pass, between the optimiser's pieces, in the middle of a held-out batch or of drawing the
/// weights. Stopping after every single piece must give the numbers of never stopping, bit for
/// bit, whatever the sizes (odd lengths leave odd rows to the matrix kernels).
#[test]
fn stopping_after_every_piece_of_work_changes_no_number() {
    let odd = TrainSettings {
        schemes: TrainScheme::all(),
        layers: 3,
        heads: 3,
        d_model: 24,
        train_len: 5,
        steps: 6,
        seed: 7,
        ..TrainSettings::default()
    };
    let copy = TrainSettings {
        task: Task::Copy,
        schemes: common::train_schemes(&[
            Scheme::Learned,
            Scheme::Rope,
            Scheme::T5,
            Scheme::Kerple,
            Scheme::Fire,
        ]),
        heads: 4,
        d_model: 40,
        train_len: 11,
        steps: 5,
        ..TrainSettings::default()
    };
    for s in [odd, copy] {
        let mut whole = Experiment::new(s.clone());
        whole.run_to_end();
        let mut sliced = Experiment::start(s.clone());
        let mut stops = 0;
        while sliced.advance(&mut |_| false) {
            stops += 1;
        }
        assert!(stops > 1000, "only {stops} stops");
        assert!(whole.runs.iter().all(|r| r.status == Status::Done));
        assert_eq!(outcome(&whole), outcome(&sliced), "{}", s.to_message());
        assert_eq!(whole.heldout, sliced.heldout);
    }
}

/// The time estimate counts the work the trainer does: the cost every piece reports adds up
/// to the planned work (held-out tests exactly; training batches are drawn at random lengths,
/// the plan takes their average).
#[test]
fn the_planned_work_is_the_work_the_pieces_report() {
    for s in [
        quick(1),
        TrainSettings {
            task: Task::First,
            schemes: TrainScheme::all(),
            layers: 1,
            heads: 4,
            d_model: 32,
            train_len: 9,
            steps: 40,
            ..TrainSettings::default()
        },
    ] {
        let mut e = Experiment::start(s.clone());
        let mut reported = 0u64;
        while e.advance(&mut |cost| {
            reported += cost;
            true
        }) {}
        let planned = planned_work(&s);
        let gap = (reported as f64 - planned).abs() / planned;
        eprintln!(
            "{}: reported {reported}, planned {planned:.0}",
            s.to_message()
        );
        assert!(gap < 0.05, "reported {reported}, planned {planned}");
        // Done: the experiment's own measure of its work says so too.
        let (done, total) = e.work();
        assert_eq!(done, total);
        assert!((total - planned).abs() < 1e-6 * planned);
    }
}

/// KERPLE-log by hand: −r1·ln(1 + r2·d), r1 and r2 used as max(r, ε).
#[test]
fn kerple_log_by_hand() {
    use pe_explorer::math::kerple::{kerple_log, Kerple, KerpleLog, EPS};
    let ln = f64::ln;
    assert_eq!(kerple_log(1.0, 0.5, 2.0), -ln(2.0));
    assert_eq!(kerple_log(2.0, 1.0, 3.0), -2.0 * ln(4.0));
    assert_eq!(kerple_log(1.7, 0.3, 0.0), 0.0);
    let k = Kerple::default();
    assert_eq!((k.r1, k.r2), (1.0, 0.5));
    assert_eq!(k.bias(5, 3, true), Some(-ln(2.0)));
    assert_eq!(k.bias(3, 5, true), None, "a causal mask hides the key");
    assert_eq!(k.bias(3, 5, false), Some(-ln(2.0)));
    // Clamped as the reference uses them: r1 = 0 means ε, not 0.
    let flat = Kerple { r1: 0.0, r2: 1.0 };
    assert_eq!(flat.at_distance(1.0), -EPS * ln(2.0));
    assert!((EPS - 0.01).abs() < 1e-9 && EPS as f32 as f64 == EPS);
    // The trainer's table, heads 2, r1 = [1, 2], r2 = [0.5, 1], causal, row by row.
    let t = KerpleLog.table(&[1.0, 2.0, 0.5, 1.0], 2, 3, true);
    let head0 = [0.0, 0.0, 0.0, -ln(1.5), 0.0, 0.0, -ln(2.0), -ln(1.5), 0.0];
    let head1 = [
        0.0,
        0.0,
        0.0,
        -2.0 * ln(2.0),
        0.0,
        0.0,
        -2.0 * ln(3.0),
        -2.0 * ln(2.0),
        0.0,
    ];
    assert_eq!(&t[..9], &head0[..]);
    assert_eq!(&t[9..], &head1[..]);
    // Without the mask the keys after the query get the same bias at the same distance.
    let both = KerpleLog.table(&[1.0, 2.0, 0.5, 1.0], 2, 3, false);
    assert_eq!(both[2], -ln(2.0));
    assert_eq!(both[9 + 5], -2.0 * ln(2.0));
    // The initial values lie in [ε, 2) and [ε, 1), and the projection clamps to ε.
    let mut rng = SplitMix64::new(3);
    let r1 = KerpleLog.init(4, 0, &mut rng);
    let r2 = KerpleLog.init(4, 1, &mut rng);
    assert!(r1.iter().all(|&r| (EPS..2.0).contains(&r)), "{r1:?}");
    assert!(r2.iter().all(|&r| (EPS..1.0).contains(&r)), "{r2:?}");
    let mut p = vec![0.5, -1.0, 0.001, 2.0];
    assert!(KerpleLog.project(2, &mut p));
    assert_eq!(p, [0.5, EPS, EPS, 2.0]);
    assert!(!KerpleLog.project(2, &mut p));
}

/// FIRE by hand: the normalised distance ψ(i − j) / (ψ(max(i, L)) + ε), ψ(x) = ln(|c·x| + 1),
/// and a tiny MLP whose output can be worked out on paper.
#[test]
fn fire_by_hand() {
    use pe_explorer::math::fire::{normalized_distance, psi, Fire, FireBias, Mlp, EPS};
    let ln = f64::ln;
    assert_eq!(psi(0.1, 6.0), ln(1.6));
    assert_eq!(psi(0.1, -6.0), ln(1.6), "|c·x|: symmetric");
    // Below the threshold every query shares one normaliser; past it, the query's own.
    let x = normalized_distance(0.1, 512.0, 10, 4);
    assert!((x - ln(1.6) / (ln(52.2) + EPS)).abs() < 1e-15, "{x}");
    assert_eq!(normalized_distance(0.1, 512.0, 600, 600), 0.0);
    let far = normalized_distance(0.1, 512.0, 1000, 0);
    assert!((far - ln(101.0) / (ln(101.0) + EPS)).abs() < 1e-15);
    assert!(far < 1.0 && far > 0.999_999);
    let x = normalized_distance(1.0, 3.0, 1, 0);
    assert!((x - ln(2.0) / (ln(4.0) + EPS)).abs() < 1e-15);
    let x = normalized_distance(1.0, 3.0, 7, 0);
    assert!((x - ln(8.0) / (ln(8.0) + EPS)).abs() < 1e-15);
    // A 2-wide MLP for 2 heads: hidden = relu([x, 0.5 − x]), out = hidden @ [[1, 2], [3, 4]]
    // + [0.1, −0.1].
    let tiny = Fire {
        c: 1.0,
        threshold: 3.0,
        w1: vec![1.0, -1.0],
        b1: vec![0.0, 0.5],
        w2: vec![1.0, 2.0, 3.0, 4.0],
        b2: vec![0.1, -0.1],
    };
    let mlp: Mlp = tiny.mlp();
    let mut out = [0.0; 2];
    mlp.forward(0.25, &mut out);
    assert!(
        (out[0] - 1.1).abs() < 1e-15 && (out[1] - 1.4).abs() < 1e-15,
        "{out:?}"
    );
    mlp.forward(0.75, &mut out);
    assert!(
        (out[0] - 0.85).abs() < 1e-15 && (out[1] - 1.4).abs() < 1e-15,
        "{out:?}"
    );
    // Query 3, key 2: x = ln 2 / (ln 4 + ε), just under ½, both units on:
    // out = [0.1 + x + 3(0.5 − x), −0.1 + 2x + 4(0.5 − x)] = [1.6 − 2x, 1.9 − 2x].
    let x = ln(2.0) / (ln(4.0) + EPS);
    let b = tiny.bias(3, 2);
    assert!((b[0] - (1.6 - 2.0 * x)).abs() < 1e-14 && (b[1] - (1.9 - 2.0 * x)).abs() < 1e-14);
    // The same query's own key: x = 0, only the second unit: [0.1 + 1.5, −0.1 + 2].
    let b = tiny.bias(3, 3);
    assert!(
        (b[0] - 1.6).abs() < 1e-15 && (b[1] - 1.9).abs() < 1e-15,
        "{b:?}"
    );

    // The trainer's FIRE is the same function of its flat parameters, shared by the heads, and
    // starts as the reference does: c = 0.1, L_multiplier = 1, nn.Linear's uniform ±1/√fan_in.
    let fire = FireBias::new(12.0);
    let heads = 3;
    let names: Vec<String> = fire.tensors(heads).into_iter().map(|t| t.name).collect();
    assert_eq!(
        names,
        [
            "fire.c",
            "fire.L_multiplier",
            "fire.mlp.0.weight",
            "fire.mlp.0.bias",
            "fire.mlp.2.weight",
            "fire.mlp.2.bias"
        ]
    );
    let mut params = Vec::new();
    for k in 0..6 {
        let mut rng = SplitMix64::new(40 + k as u64);
        let v = fire.init(heads, k, &mut rng);
        let bound = match k {
            0 | 1 => f64::INFINITY,
            2 | 3 => 1.0,
            _ => 1.0 / 32f64.sqrt(),
        };
        assert!(v.iter().all(|x| x.abs() < bound), "tensor {k}: {v:?}");
        params.extend(v);
    }
    assert_eq!((params[0], params[1]), (0.1, 1.0));
    params[1] = 1.5; // L = 18
    let view = fire.trained(&params, heads);
    assert_eq!(view.threshold, 18.0);
    let len = 30;
    let table = fire.table(&params, heads, len, true);
    for (i, j) in [(0, 0), (5, 2), (17, 0), (29, 3), (29, 29)] {
        let b = view.bias(i, j);
        for h in 0..heads {
            assert_eq!(table[(h * len + i) * len + j], b[h], "({i}, {j}) head {h}");
        }
    }
    assert_eq!(table[1], 0.0, "masked: not computed");
    // Seeded views: the same seed, the same MLP; another seed, another.
    let a = Fire::seeded(4, 32, 0.1, 512.0, 1);
    assert_eq!(a, Fire::seeded(4, 32, 0.1, 512.0, 1));
    assert_ne!(a.w2, Fire::seeded(4, 32, 0.1, 512.0, 2).w2);
    assert_eq!((a.w1.len(), a.w2.len(), a.bias(40, 3).len()), (32, 128, 4));
    // The views draw one head at a time: the same numbers, bit for bit, as every head at once.
    let b = Fire::seeded(4, 32, 0.1, 8.0, 3);
    for (i, j) in [(0, 0), (5, 2), (40, 3), (600, 0), (600, 599)] {
        let all = b.bias(i, j);
        for (h, v) in all.iter().enumerate() {
            assert_eq!(
                b.head_bias(i, j, h).to_bits(),
                v.to_bits(),
                "({i}, {j}) head {h}"
            );
        }
    }
}

/// Every bias scheme's table is its own formula, and its backward is the derivative of the
/// table (central differences on a weighted sum of the whole table, causal and not).
#[test]
fn every_score_bias_table_is_its_formula_and_its_backward_its_derivative() {
    use pe_explorer::math::alibi::{self, AlibiBias};
    use pe_explorer::math::fire::FireBias;
    use pe_explorer::math::kerple::KerpleLog;
    use pe_explorer::math::t5::{T5Buckets, T5Score};
    let heads = 3;
    let len = 9;
    for causal in [false, true] {
        let alibi_table = AlibiBias.table(&[], heads, len, causal);
        let t5 = T5Score {
            num_buckets: 8,
            max_distance: 6,
        };
        let rel: Vec<f64> = (0..8 * heads).map(|k| k as f64 * 0.1 - 1.0).collect();
        let t5_table = t5.table(&rel, heads, len, causal);
        let buckets = T5Buckets {
            num_buckets: 8,
            max_distance: 6,
            bidirectional: !causal,
        };
        let slopes = alibi::slopes(heads);
        for h in 0..heads {
            for i in 0..len {
                for j in 0..len {
                    let at = (h * len + i) * len + j;
                    if causal && j > i {
                        assert_eq!((alibi_table[at], t5_table[at]), (0.0, 0.0));
                        continue;
                    }
                    let want = alibi::bias(slopes[h], i, j, causal).unwrap();
                    assert_eq!(alibi_table[at], want);
                    let b = buckets.bucket(j as i64 - i as i64);
                    assert_eq!(t5_table[at], rel[b * heads + h]);
                }
            }
        }
        // The derivative of Σ w·table for random weights w, against central differences.
        let schemes: Vec<(Box<dyn ScoreBias>, Vec<f64>)> = vec![
            (Box::new(t5), rel.clone()),
            (Box::new(KerpleLog), vec![0.7, 1.3, 0.02, 0.4, 0.9, 0.15]),
            (Box::new(FireBias::new(5.0)), {
                let f = FireBias::new(5.0);
                let mut p = Vec::new();
                for k in 0..6 {
                    p.extend(f.init(heads, k, &mut SplitMix64::new(k as u64)));
                }
                p[0] = 0.3; // c
                p[1] = 1.1; // L = 5.5: rows 6.. normalise by their own position
                p
            }),
        ];
        let mut rng = SplitMix64::new(11);
        let w: Vec<f64> = (0..heads * len * len).map(|_| rng.next_normal()).collect();
        for (bias, params) in schemes {
            let value = |p: &[f64]| -> f64 {
                let t = bias.table(p, heads, len, causal);
                t.iter().zip(&w).map(|(a, b)| a * b).sum()
            };
            let mut dw = w.clone();
            if causal {
                for h in 0..heads {
                    for i in 0..len {
                        for j in i + 1..len {
                            dw[(h * len + i) * len + j] = 0.0;
                        }
                    }
                }
            }
            let mut grad = vec![0.0; params.len()];
            bias.table_backward(&params, heads, len, causal, &dw, &mut grad);
            for k in 0..params.len() {
                let h = 1e-6;
                let (mut up, mut down) = (params.clone(), params.clone());
                up[k] += h;
                down[k] -= h;
                let numeric = (value(&up) - value(&down)) / (2.0 * h);
                let err = (numeric - grad[k]).abs() / (numeric.abs() + grad[k].abs()).max(1e-6);
                assert!(
                    err < 1e-6,
                    "{} causal={causal} parameter {k}: backward {} vs {numeric}",
                    bias.name(),
                    grad[k]
                );
            }
        }
    }
}

/// ALiBi and T5 moved onto the shared score-bias path: the numbers they gave before (recorded
/// from the build before the move) are the numbers they give now. f64 loss and gradient norm of
/// the gradient checks' models agreed bit for bit; 30 steps of f32 training agreed to 2e-8 (T5's
/// gradient is now summed in f64), the held-out counts exactly.
#[test]
fn alibi_and_t5_give_the_numbers_they_gave_before_the_score_bias_path() {
    let before = [
        (
            Task::Agent,
            TrainScheme::of(Scheme::Alibi),
            3.2937478072427684,
            1.656896525369899,
        ),
        (
            Task::Agent,
            TrainScheme::of(Scheme::T5),
            3.295168517658677,
            1.6048871546256083,
        ),
        (
            Task::Copy,
            TrainScheme::of(Scheme::Alibi),
            2.219336482154536,
            1.0320511810908675,
        ),
        (
            Task::Copy,
            TrainScheme::of(Scheme::T5),
            2.358521067212885,
            1.1602920972258857,
        ),
        (
            Task::First,
            TrainScheme::of(Scheme::Alibi),
            2.351926678485552,
            0.9940249292477003,
        ),
        (
            Task::First,
            TrainScheme::of(Scheme::T5),
            2.3132510397950763,
            1.1124447138192295,
        ),
    ];
    for (task, scheme, loss, norm) in before {
        let s = small(task);
        let model: Model<f64> = Model::new(model_config(&s, scheme), 12);
        let mut params = model.init(7);
        let mut rng = SplitMix64::new(99);
        for p in params.iter_mut() {
            *p += 0.05 * rng.next_normal();
        }
        let mut data = SplitMix64::new(5);
        let examples: Vec<_> = [3, 6, 5]
            .iter()
            .map(|&n| task.sample(&mut data, n))
            .collect();
        let batch = batch_of(&examples);
        let mut tape = Tape::default();
        let now = model.forward(&params, &batch, &mut tape).unwrap().loss;
        let mut grads = vec![0.0; params.len()];
        model.backward(&params, &batch, &mut tape, &mut grads);
        let now_norm = grads.iter().map(|g| g * g).sum::<f64>().sqrt();
        assert!(
            (now - loss).abs() <= 1e-12 * loss,
            "{task:?} {scheme:?}: loss {now} vs {loss}"
        );
        assert!(
            (now_norm - norm).abs() <= 1e-12 * norm,
            "{task:?} {scheme:?}: gradient norm {now_norm} vs {norm}"
        );
    }
    // First and last training loss of 30 steps and the held-out counts at 1, 2, 4, 8×.
    type Curve = (f64, f64, [usize; 4]);
    let before: [(Task, [Curve; 2]); 3] = [
        (
            Task::Agent,
            [
                (3.2241812433031467, 2.3717126443494294, [103, 126, 128, 118]),
                (3.2241801978710596, 2.371272704241687, [103, 126, 128, 118]),
            ],
        ),
        (
            Task::Copy,
            [
                (
                    2.304206444004838,
                    2.318134170981418,
                    [624, 1475, 3111, 6509],
                ),
                (
                    2.3042074992822923,
                    2.317387215074126,
                    [634, 1489, 3104, 6476],
                ),
            ],
        ),
        (
            Task::First,
            [
                (
                    2.2946794602302534,
                    2.310487450934161,
                    [965, 1930, 3441, 6663],
                ),
                (
                    2.2946783020115156,
                    2.3096447116912837,
                    [985, 1962, 3529, 6853],
                ),
            ],
        ),
    ];
    for (task, runs) in before {
        let s = TrainSettings {
            task,
            schemes: common::train_schemes(&[Scheme::Alibi, Scheme::T5]),
            d_model: 16,
            train_len: 8,
            steps: 30,
            seed: 3,
            ..TrainSettings::default()
        };
        let mut e = Experiment::new(s);
        e.run_to_end();
        for (r, (first, last, correct)) in e.runs.iter().zip(runs) {
            let (a, b) = (r.curve[0].loss, r.curve[29].loss);
            let close = |x: f64, y: f64| (x - y).abs() <= 1e-6 * y;
            assert!(
                close(a, first) && close(b, last),
                "{task:?} {:?}: {a}, {b}",
                r.scheme
            );
            let now: Vec<usize> = r.cells.iter().map(|c| c.correct).collect();
            for (n, w) in now.iter().zip(correct) {
                assert!(
                    n.abs_diff(w) <= 2,
                    "{task:?} {:?}: {now:?} vs {correct:?}",
                    r.scheme
                );
            }
        }
    }
}

/// KERPLE and FIRE train (the loss falls), KERPLE's parameters never go below ε, and the export
/// names their tensors and records their settings.
#[test]
fn kerple_and_fire_train_and_export_their_tensors_and_settings() {
    use pe_explorer::math::kerple::EPS;
    let mut s = quick(4);
    s.task = Task::First;
    s.schemes = common::train_schemes(&[Scheme::Kerple, Scheme::Fire]);
    s.steps = 60;
    s.lr = 1e-2;
    let mut e = Experiment::new(s.clone());
    e.run_to_end();
    for r in &e.runs {
        assert_eq!(r.status, Status::Done, "{:?}", r.scheme);
        let early: f64 = r.curve[..5].iter().map(|p| p.loss).sum::<f64>() / 5.0;
        let late: f64 = r.curve[55..].iter().map(|p| p.loss).sum::<f64>() / 5.0;
        eprintln!("{}: loss {early:.3} → {late:.3}", label(r.scheme));
        assert!(late < early - 0.1, "{}: {early} → {late}", label(r.scheme));
    }
    let kerple = &e.runs[0];
    for name in ["kerple.r1", "kerple.r2"] {
        let (values, shape) = kerple.tensor(name).unwrap();
        assert_eq!(shape, [s.heads]);
        assert!(
            values.iter().all(|&v| v as f64 >= EPS),
            "{name}: {values:?}"
        );
    }
    let header = |bytes: &[u8]| {
        let n = u64::from_le_bytes(bytes[..8].try_into().unwrap()) as usize;
        std::str::from_utf8(&bytes[8..8 + n]).unwrap().to_string()
    };
    let k = header(&safetensors::export_run(&e, kerple));
    assert!(
        k.contains("\"kerple.r1\":{\"dtype\":\"F32\",\"shape\":[2]"),
        "{k}"
    );
    assert!(
        k.contains(r#"\"position\":\"kerple\",\"eps\":0.009999999776482582"#),
        "{k}"
    );
    let f = header(&safetensors::export_run(&e, &e.runs[1]));
    for needle in [
        "\"fire.c\":{\"dtype\":\"F32\",\"shape\":[]",
        "\"fire.L_multiplier\":{\"dtype\":\"F32\",\"shape\":[]",
        "\"fire.mlp.0.weight\":{\"dtype\":\"F32\",\"shape\":[1,32]",
        "\"fire.mlp.2.weight\":{\"dtype\":\"F32\",\"shape\":[32,2]",
        "\"fire.mlp.2.bias\":{\"dtype\":\"F32\",\"shape\":[2]",
        r#"\"position\":\"fire\",\"mlp_width\":32,\"init_c\":0.1,\"init_L\":8,\"eps\":1e-6"#,
    ] {
        assert!(f.contains(needle), "{needle} in {f}");
    }
    // The downloadable script reloads both and reproduces the held-out counts the page shows
    // at every test length (FIRE's queries past its threshold included), to within the odd
    // near-tie that rounding in another order can flip.
    for r in &e.runs {
        let path = std::env::temp_dir().join(format!(
            "pe-explorer-{}-{}.safetensors",
            r.scheme.id(),
            std::process::id()
        ));
        std::fs::write(&path, safetensors::export_run(&e, r)).unwrap();
        let out = std::process::Command::new("python3")
            .env("PYTHONDONTWRITEBYTECODE", "1")
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/static/train/pe_model.py"
            ))
            .arg(&path)
            .output()
            .expect("python3 with numpy is needed");
        let _ = std::fs::remove_file(&path);
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        eprintln!("{text}");
        assert!(out.status.success(), "{text}");
        assert_eq!(text.matches("length ").count(), 4, "{text}");
        let worst: usize = text
            .split("largest difference from the page: ")
            .nth(1)
            .and_then(|t| t.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{text}"));
        assert!(worst <= 2, "{}: {text}", label(r.scheme));
    }
}

/// A long score-bias table is computed, and its gradient turned into FIRE's, a few rows at a
/// time (here in two and three pieces): the gradient of every FIRE tensor still matches
/// central differences.
#[test]
fn a_long_bias_table_in_pieces_gives_the_gradient_of_the_whole() {
    let s = TrainSettings {
        task: Task::Agent,
        d_model: 8,
        heads: 4,
        layers: 1,
        train_len: 80,
        ..TrainSettings::default()
    };
    let model: Model<f64> = Model::new(model_config(&s, TrainScheme::of(Scheme::Fire)), 80);
    let mut params = model.init(3);
    let mut rng = SplitMix64::new(8);
    for p in params.iter_mut() {
        *p += 0.05 * rng.next_normal();
    }
    let mut data = SplitMix64::new(6);
    let examples: Vec<_> = [80, 37]
        .iter()
        .map(|&n| s.task.sample(&mut data, n))
        .collect();
    let batch = batch_of(&examples);
    let mut tape = Tape::default();
    model.forward(&params, &batch, &mut tape).unwrap();
    let mut grads = vec![0.0; params.len()];
    model.backward(&params, &batch, &mut tape, &mut grads);
    let loss = |p: &[f64]| model.forward(p, &batch, &mut Tape::default()).unwrap().loss;
    let mut checked = 0;
    for t in model
        .layout
        .tensors
        .iter()
        .filter(|t| t.name.starts_with("fire."))
    {
        if t.name == "fire.mlp.2.bias" {
            continue; // its gradient vanishes: a constant added to a whole row of scores
        }
        for k in [0, t.len() / 2, t.len() - 1] {
            let i = t.offset + k;
            let h = 1e-5;
            let (mut up, mut down) = (params.clone(), params.clone());
            up[i] += h;
            down[i] -= h;
            let numeric = (loss(&up) - loss(&down)) / (2.0 * h);
            let err = (numeric - grads[i]).abs() / (numeric.abs() + grads[i].abs()).max(1e-7);
            assert!(
                err < 1e-5 || (numeric - grads[i]).abs() < 1e-9,
                "{}[{k}]: backward {} vs {numeric}",
                t.name,
                grads[i]
            );
            checked += 1;
        }
    }
    assert_eq!(checked, 15);
}

/// The downloadable script reloads each context-extension run of a passkey experiment (PI,
/// dynamic NTK, YaRN, LongRoPE, DroPE; zero-shot and tuned), computes RoPE's tables itself from
/// the config's rope_scaling (they equal the exported ones at every held-out length they were
/// computed for), and gets exactly the page's correct and counted answers at every length. The
/// model learns the task first, so that its answers depend on the tables.
#[test]
fn the_script_reproduces_every_context_extension_from_its_rope_scaling() {
    use pe_explorer::train::settings::Method;
    let s = TrainSettings {
        task: Task::Passkey,
        schemes: common::train_schemes(&[Scheme::Rope]),
        d_model: 16,
        heads: 2,
        layers: 2,
        train_len: 8,
        steps: 200,
        lr: 2e-2,
        extend: vec![
            Method::Pi,
            Method::Dynamic,
            Method::Yarn,
            Method::LongRope,
            Method::Drope,
        ],
        tune_steps: 4,
        ..TrainSettings::default()
    };
    let mut e = Experiment::new(s);
    e.run_to_end();
    let trained = e.runs[0].cells[0].accuracy().unwrap_or(0.0);
    assert!(trained > 0.7, "RoPE did not learn the passkey: {trained}");
    let extensions: Vec<_> = e
        .runs
        .iter()
        .filter(|r| r.scheme.extended.is_some())
        .collect();
    assert_eq!(extensions.len(), 10);
    // One Python process per file, all at once.
    let jobs: Vec<_> = extensions
        .iter()
        .map(|r| {
            assert_eq!(r.status, Status::Done, "{}", r.scheme.id());
            let path = std::env::temp_dir().join(format!(
                "pe-explorer-{}-{}.safetensors",
                r.scheme.id(),
                std::process::id()
            ));
            std::fs::write(&path, safetensors::export_run(&e, r)).unwrap();
            let child = std::process::Command::new("python3")
                .env("PYTHONDONTWRITEBYTECODE", "1")
                .arg(concat!(
                    env!("CARGO_MANIFEST_DIR"),
                    "/static/train/pe_model.py"
                ))
                .arg(&path)
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .expect("python3 with numpy is needed");
            (path, child)
        })
        .collect();
    for (r, (path, child)) in extensions.iter().zip(jobs) {
        let out = child.wait_with_output().unwrap();
        let _ = std::fs::remove_file(&path);
        let id = r.scheme.id();
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        eprintln!("{text}");
        assert!(out.status.success(), "{id}: {text}");
        // DroPE has no RoPE; dynamic NTK's and LongRoPE's exported tables are those of one
        // length (the last tested); the other methods' are the same at every length.
        let method = r.scheme.extended.map(|x| x.method);
        let expected = match method {
            Some(Method::Drope) => 0,
            Some(Method::Dynamic | Method::LongRope) => 1,
            _ => r.cells.len(),
        };
        let checked = text.matches("equal to buffer.rope_cos/sin").count();
        assert_eq!(checked, expected, "{id}: {text}");
        for cell in &r.cells {
            let line = format!(
                "length {:>4}: {}/{} = ",
                cell.length, cell.correct, cell.counted
            );
            assert!(text.contains(&line), "{id}: {line} in {text}");
        }
        assert!(
            text.contains("largest difference from the page: 0 predictions"),
            "{id}: {text}"
        );
    }
}

/// `train::figures::cell_count`: a cell's count names the answers its share is over when a
/// sequence holds more than one (a two-digit passkey: 97.9 % of 800 answers, not of 400).
#[test]
fn a_cell_names_the_answers_its_percentage_is_over() {
    use pe_explorer::train::experiment::{heldout_size, Cell};
    use pe_explorer::train::figures::cell_count;
    let s = TrainSettings {
        task: Task::Passkey,
        ..TrainSettings::default()
    };
    let n = heldout_size(s.task);
    let cell = |examples: usize, counted: usize| Cell {
        length: 12,
        correct: counted / 2,
        counted,
        examples,
        rival: 0,
        missing: None,
        depths: Vec::new(),
    };
    let two = cell_count(&s, &cell(n, 2 * n));
    let answers = pe_explorer::format::group_thousands(2 * n as u64);
    assert!(
        two.ends_with(&format!("sequences, {answers} answers")),
        "{two}"
    );
    // One answer a sequence: the sequences alone, as before.
    let agent = TrainSettings::default();
    assert_eq!(cell_count(&agent, &cell(1000, 1000)), "1,000 sentences");
}
