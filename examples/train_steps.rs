//! Times optimiser steps of the default model natively (for profiling the trainer):
//!   cargo run --release --example train_steps -- [steps] [fixed length]
use pe_explorer::schemes::Scheme;
use pe_explorer::train::experiment::Experiment;
use pe_explorer::train::settings::{TrainScheme, TrainSettings};

fn main() {
    let mut args = std::env::args().skip(1);
    let steps: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(200);
    let fixed: Option<usize> = args.next().and_then(|a| a.parse().ok());
    let s = TrainSettings {
        schemes: vec![TrainScheme::of(Scheme::Sinusoidal)],
        ..TrainSettings::default()
    };
    let mut e = Experiment::new(s.clone());
    let run = &mut e.runs[0];
    let mut tape = pe_explorer::train::model::Tape::default();
    let mut times = Vec::new();
    for _ in 0..steps {
        let batch = run.next_batch(&s, fixed);
        let t = std::time::Instant::now();
        run.optimise(&s, &batch, &mut tape);
        times.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!("median {:.3} ms/step over {steps} steps", times[steps / 2]);
}
