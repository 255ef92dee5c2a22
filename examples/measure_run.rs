//! Drives `suaca::measure::run` until the CLI wires `suaca measure`:
//! `cargo run --release --example measure_run -- OUT [FILTER] [--resume] [--skeleton P] [--machine TOML] [--processes N] [--limit N]`
#![forbid(unsafe_code)]
#[cfg(all(target_arch = "x86_64", target_os = "linux"))]
fn main() {
    use suaca::measure::*;
    struct P {
        total: u64,
        t0: std::time::Instant,
        last: std::time::Instant,
    }
    impl Progress for P {
        fn begin(&mut self, total: u64) {
            self.total = total;
            eprintln!("{total} variants");
        }
        fn advance(&mut self, done: u64, cur: &str) {
            if self.last.elapsed().as_secs() >= 10 || done == self.total {
                self.last = std::time::Instant::now();
                let el = self.t0.elapsed().as_secs_f64();
                eprintln!("[{:7.1}s] {done}/{} {cur}", el, self.total);
            }
        }
        fn message(&mut self, m: &str) {
            eprintln!("{m}");
        }
    }
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut cfg = MeasureConfig::default();
    let mut take = |flag: &str| -> Option<String> {
        let i = args.iter().position(|a| a == flag)?;
        args.remove(i);
        if i < args.len() {
            Some(args.remove(i))
        } else {
            Some(String::new())
        }
    };
    cfg.resume = take("--resume").is_some();
    cfg.skeleton = take("--skeleton").map(Into::into);
    cfg.machine_out = take("--machine").map(Into::into);
    if let Some(n) = take("--processes") {
        cfg.processes = n.parse().unwrap();
    }
    if let Some(n) = take("--limit") {
        cfg.limit = Some(n.parse().unwrap());
    }
    if let Some(n) = take("--ticks") {
        cfg.sample_ticks = n.parse().unwrap();
    }
    if let Some(n) = take("--batch") {
        cfg.batch = n.parse().unwrap();
    }
    cfg.out = args
        .first()
        .cloned()
        .unwrap_or("measured.xml".into())
        .into();
    cfg.filter = args.get(1).cloned();
    let now = std::time::Instant::now();
    let mut p = P {
        total: 0,
        t0: now,
        last: now,
    };
    match run(cfg, &mut p) {
        Ok(s) => println!("{s:#?}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1)
        }
    }
}
#[cfg(not(all(target_arch = "x86_64", target_os = "linux")))]
fn main() {}
