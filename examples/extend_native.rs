//! Runs a context-extension experiment natively, once per seed, and prints its tables as the
//! Train view shows them (markdown) and the papers' claims as the view tests them:
//!   cargo run --release --example extend_native -- task=passkey extend=all train_seed=1
//! With `SEEDS=1,2,3` it runs each seed and counts, for each claim, the seeds that bear it out.
use pe_explorer::train::experiment::Experiment;
use pe_explorer::train::extension::{findings, summary};
use pe_explorer::train::figures::{label, length_headings};
use pe_explorer::train::protocol::{Phase, Progress, Reporter};
use pe_explorer::train::settings::TrainSettings;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let base = TrainSettings::from_message(&args.join("&"));
    let seeds: Vec<u64> = std::env::var("SEEDS")
        .ok()
        .map(|s| s.split(',').filter_map(|x| x.trim().parse().ok()).collect())
        .unwrap_or_else(|| vec![base.seed]);
    let mut tally: Vec<(String, usize, usize, usize)> = Vec::new();
    for seed in seeds {
        let s = TrainSettings {
            seed,
            ..base.clone()
        };
        println!("\n## seed {seed}\n\n`{}`\n", s.to_message());
        let t0 = std::time::Instant::now();
        let mut e = Experiment::new(s.clone());
        e.run_to_end();
        println!("native: {:.1} s\n", t0.elapsed().as_secs_f64());
        let mut p = Progress::default();
        p.apply(&Reporter::default().report(&e, Phase::Done, (0.0, 0.0), &[]));
        let heads = length_headings(&s).join(" | ");
        println!("| model | {heads} |");
        println!("|---|{}", "---|".repeat(4));
        for r in &p.runs {
            let cells: Vec<String> = r
                .cells
                .iter()
                .map(|c| {
                    c.accuracy()
                        .map_or("no embedding".into(), |a| format!("{:.1} %", 100.0 * a))
                })
                .collect();
            println!("| {} | {} |", label(r.scheme), cells.join(" | "));
        }
        if let Some(text) = summary(&p, &s) {
            println!("\n{text}");
        }
        println!();
        for f in findings(&p, &s) {
            let verdict = match f.holds {
                Some(true) => "reproduced",
                Some(false) => "not reproduced",
                None => "undecided",
            };
            println!("- {verdict}: {} {}", f.claim, f.here);
            let claim = f.claim.to_string();
            let i = match tally.iter().position(|t| t.0 == claim) {
                Some(i) => i,
                None => {
                    tally.push((claim, 0, 0, 0));
                    tally.len() - 1
                }
            };
            match f.holds {
                Some(true) => tally[i].1 += 1,
                Some(false) => tally[i].2 += 1,
                None => tally[i].3 += 1,
            }
        }
    }
    println!("\n## over the seeds (reproduced / not / undecided)\n");
    for (claim, yes, no, open) in tally {
        println!("- {yes} / {no} / {open}: {claim}");
    }
}
