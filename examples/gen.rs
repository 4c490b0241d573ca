//! Writes a generated schema to stdout.
//!
//! cargo run --release --example gen -- --entities 2000 --patterns 4000 [--seed 1] [--hazards 0.05] [--json]

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |flag: &str, default: usize| value(flag).and_then(|v| v.parse().ok()).unwrap_or(default);
    let entities = number("--entities", 200);
    let config = dyno::synth::Config {
        entities,
        patterns: number("--patterns", entities * 2),
        seed: number("--seed", 1) as u64,
        hazard_rate: value("--hazards").and_then(|v| v.parse().ok()).unwrap_or(0.05),
    };
    let generated = dyno::synth::generate(&config);
    if args.iter().any(|a| a == "--json") {
        println!("{}", generated.json);
    } else {
        print!("{}", generated.dyno);
    }
    eprintln!(
        "{} entities, {} patterns, {} planted hazards",
        config.entities, config.patterns, generated.hazards
    );
}
