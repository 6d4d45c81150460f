//! Runs one experiment natively and prints its curves' ends and its held-out table.
//!   cargo run --release --example train_native -- task=agent steps=400
use pe_explorer::train::experiment::Experiment;
use pe_explorer::train::settings::TrainSettings;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let s = TrainSettings::from_message(&args.join("&"));
    println!("{}", s.to_message());
    let t0 = std::time::Instant::now();
    let mut e = Experiment::new(s);
    let mut trained = false;
    while e.advance(&mut |_| false) {
        if !trained && e.runs.iter().all(|r| r.step == e.settings.steps) {
            trained = true;
            println!("trained in {:.2} s", t0.elapsed().as_secs_f64());
        }
    }
    println!("total {:.2} s", t0.elapsed().as_secs_f64());
    for r in &e.runs {
        let last = r.curve.last();
        let acc: Vec<String> = r
            .curve
            .iter()
            .filter_map(|p| p.accuracy)
            .map(|a| format!("{:.2}", a))
            .collect();
        print!(
            "{:>20} {:?} loss {:.3} curve [{}] |",
            pe_explorer::train::figures::label(r.scheme),
            r.status,
            last.map(|p| p.loss).unwrap_or(f64::NAN),
            acc.join(" ")
        );
        for c in &r.cells {
            match c.accuracy() {
                Some(a) => print!(" L{}: {:.3} ({})", c.length, a, c.examples),
                None => print!(" L{}: n/a", c.length),
            }
        }
        println!();
        if std::env::var("DEPTHS").is_ok() {
            for c in &r.cells {
                let d: Vec<String> = c
                    .depths
                    .iter()
                    .map(|(k, n)| format!("{:.0}", 100.0 * *k as f64 / (*n).max(1) as f64))
                    .collect();
                println!("{:>24} L{}: depths {}", "", c.length, d.join(" "));
            }
        }
    }
    for (r, ans) in e.runs.clone().iter().zip(e.dog_and_man()) {
        println!(
            "{:>20} dog/man → {:?}",
            pe_explorer::train::figures::label(r.scheme),
            ans.iter()
                .map(|(t, p)| format!("{} {:.2}", e.settings.task.word(*t), p))
                .collect::<Vec<_>>()
        );
    }
}
