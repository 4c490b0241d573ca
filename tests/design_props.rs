//! Properties of `dyno design` (issue 16, "How to know it works"), on
//! synthetic schemas with their keys stripped (`dyno::synth`, several seeds
//! and sizes) and on small entity/pattern sets whose patterns a design can
//! serve by construction (`design/generate.rs`):
//!
//! - the design's `errors` is the number of Error diagnostics the checker
//!   reports on the designed text, and every one of them lies in a pattern
//!   the design lists as unserved (with a reason);
//! - on the servable sets, the design is clean: no error, nothing unserved;
//! - it is deterministic: the same input gives the same text;
//! - it is stable: designing the designed text again edits nothing.
//!
//! `DYNO_DESIGN_CASES` (default 100) and `DYNO_DESIGN_SEED` (default 1)
//! choose the generated sets. `DYNO_DESIGN_STRICT=1` also requires the
//! servable sets' designs free of W202 (a single return through an index
//! key that does not keep it unique, which `dyno verify` can show returning
//! several items); the designer does not weigh warnings yet, and about half
//! the sets fail it. A failing set is shrunk (patterns dropped
//! while it still fails) and printed.

#[path = "design/generate.rs"]
mod generate;

use dyno::check::analyze;
use dyno::design::{Design, Options, design, without_keys};
use dyno::diagnostic::Severity;
use dyno::synth;

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What is wrong with the design of `input`, if anything. `clean`: every
/// pattern is servable, so the design must have no error and serve all.
fn problems(input: &str, clean: bool) -> Vec<String> {
    let options = Options::default();
    let d = design(input, &options);
    let mut out = Vec::new();
    let analysis = analyze(&d.text);
    let model = &analysis.schema.model;
    let errors: Vec<_> = analysis
        .diagnostics()
        .iter()
        .filter(|x| x.severity == Severity::Error)
        .collect();
    if d.errors != errors.len() {
        out.push(format!(
            "design.errors = {} but the checker reports {} error(s) on the designed text",
            d.errors,
            errors.len()
        ));
    }
    for e in &errors {
        let pattern = model
            .pattern_ids()
            .find(|(_, p)| p.span.start() <= e.span.start() && e.span.end() <= p.span.end())
            .map(|(_, p)| p.name.text.to_string());
        match pattern {
            None => out.push(format!(
                "{} outside any pattern: {} (at {}..{}: `{}`)",
                e.code.as_str(),
                e.message,
                e.span.start(),
                e.span.end(),
                &d.text[e.span.start()..e.span.end()]
            )),
            Some(name) if !d.unserved.iter().any(|u| u.pattern == name) => out.push(format!(
                "{} on `{name}`, which is not listed as unserved: {}",
                e.code.as_str(),
                e.message
            )),
            Some(_) => {}
        }
    }
    for u in &d.unserved {
        if u.why.trim().is_empty() {
            out.push(format!("`{}` is unserved without a reason", u.pattern));
        }
    }
    if clean {
        if d.errors != 0 {
            out.push(format!("{} error(s) on a servable set", d.errors));
        }
        for u in &d.unserved {
            out.push(format!("`{}` unserved on a servable set: {}", u.pattern, u.why));
        }
        if std::env::var_os("DYNO_DESIGN_STRICT").is_some() {
            for w in analysis.diagnostics().iter().filter(|w| w.code.as_str() == "W202") {
                out.push(format!("W202 on a servable set: {}", w.message));
            }
        }
    }
    let again = design(input, &options);
    if again.text != d.text || again.edits != d.edits {
        out.push("not deterministic: a second design of the same input differs".into());
    }
    let redesign: Design = design(&d.text, &options);
    if !redesign.edits.is_empty() || redesign.text != d.text {
        out.push(format!(
            "not stable: designing the designed text again makes {} edit(s): {:?}",
            redesign.edits.len(),
            redesign.edits.iter().map(|(_, t)| t.as_str()).collect::<Vec<_>>()
        ));
    }
    out
}

/// A problem without its names and numbers: the kind of failure.
fn signature(problem: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    for c in problem.chars() {
        match c {
            '`' => quoted = !quoted,
            ':' if !quoted => break,
            c if !quoted && !c.is_ascii_digit() => out.push(c),
            _ => {}
        }
    }
    out
}

fn report(name: &str, input: &str, problems: &[String]) -> String {
    format!(
        "{name}:\n  - {}\ninput:\n{input}\ndesigned:\n{}",
        problems.join("\n  - "),
        design(input, &Options::default()).text
    )
}

/// (a) Synthetic schemas, keys stripped: whatever the design cannot serve
/// it must say, and its error count must be the checker's.
#[test]
fn synth_schemas_stripped_and_designed_keep_their_promises() {
    let mut failures = Vec::new();
    for (entities, patterns, seed) in [(4, 8, 1), (8, 16, 2), (12, 24, 3), (16, 32, 7), (20, 20, 11)] {
        let generated = synth::generate(&synth::Config {
            entities,
            patterns,
            seed,
            hazard_rate: 0.05,
        });
        let input = without_keys(&generated.dyno);
        let found = problems(&input, false);
        if !found.is_empty() {
            failures.push(report(
                &format!("synth {entities}/{patterns} seed {seed}"),
                &input,
                &found,
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// Sets of the first seeds the designer leaves unserved today, each with
/// the designer bug it shows (reported with a minimal input in the issue;
/// `src/design` is being changed). Each must still fail: once it is
/// designed clean, the test says to remove it from here.
/// None today: seeds 39 and 56 (a consistent read losing the table to an
/// inconsistent one) are designed clean since the table keeps a copy of the
/// slot that serves a consistent read of one entity.
const KNOWN: &[(u64, &str)] = &[];

/// (b) Generated servable sets: the design is clean, deterministic and
/// stable. A failure is shrunk before it is shown.
#[test]
fn servable_sets_are_designed_clean() {
    let cases = env_number("DYNO_DESIGN_CASES", 100);
    let first = env_number("DYNO_DESIGN_SEED", 1);
    let mut failures = Vec::new();
    let mut fixed = Vec::new();
    for seed in first..first + cases {
        let spec = generate::generate(seed);
        let input = spec.render();
        let known = KNOWN.iter().find(|(s, _)| *s == seed);
        let found = problems(&input, true);
        match (known, found.is_empty()) {
            (None, true) => continue,
            (Some((_, bug)), true) => {
                fixed.push(format!(
                    "seed {seed} is designed clean now ({bug}): remove it from KNOWN"
                ));
                continue;
            }
            (Some(_), false) => continue,
            (None, false) => {}
        }
        // Shrunk to the same first problem: dropping a pattern leaves its
        // entity unread, and an unread entity gets no keys (E104), a
        // failure of its own that would hide the one found.
        let kind = |found: &[String]| found.first().map(|p| signature(p));
        let original = kind(&problems(&input, true));
        let small = generate::shrink(&spec, |text| kind(&problems(text, true)) == original);
        let text = small.render();
        failures.push(report(&format!("seed {seed} (shrunk)"), &text, &problems(&text, true)));
    }
    assert!(fixed.is_empty(), "{}", fixed.join("\n"));
    assert!(
        failures.is_empty(),
        "{} of {cases} sets fail:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}

/// The generator covers what the issue asks for: every kind of pattern
/// appears in the first sets (so a clean run above means something).
#[test]
fn the_generator_writes_every_kind_of_pattern() {
    let text: String = (1..=40).map(|seed| generate::generate(seed).render()).collect();
    for needle in [
        "-> Org",
        "[] ~20",
        "by createdAt desc",
        "createdAt >= since",
        "createdAt between",
        "(status = ",
        "pattern edgesOfA",
        "pattern edgesOfB",
        "pattern with",
        " consistent",
        ": ulid",
    ] {
        assert!(text.contains(needle), "no `{needle}` in the generated sets");
    }
    // Each set parses and checks without errors before it is designed but
    // for the keys it lacks (E104) and the patterns no key serves yet (E2xx).
    for seed in 1..=40 {
        let input = generate::generate(seed).render();
        for d in analyze(&input).diagnostics() {
            assert!(
                d.severity != Severity::Error || d.code.as_str() == "E104" || d.code.as_str().starts_with("E2"),
                "seed {seed}: {} {}\n{input}",
                d.code.as_str(),
                d.message
            );
        }
    }
}

/// Indexes of every table of a checked schema (global and local).
fn index_count(text: &str) -> usize {
    analyze(text)
        .schema
        .model
        .tables
        .iter()
        .map(|t| t.access.iter().filter(|a| a.is_index()).count())
        .sum()
}

fn error_count(text: &str) -> usize {
    analyze(text)
        .diagnostics()
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .count()
}

/// Strip-and-redesign over the bundled schemas: per file, the original's
/// indexes and errors, and the fresh design's indexes, errors and unserved
/// patterns (and what breaks the design's promises: errors no unserved
/// pattern explains, a redesign that edits), as a snapshot
/// (`UPDATE_EXPECT=1` rewrites it); a clean design
/// needs no more indexes than the one written by hand.
#[test]
fn bundled_schemas_stripped_and_redesigned() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for dir in ["examples", "examples/real"] {
        let mut found: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "dyno"))
            .collect();
        found.sort();
        files.extend(found);
    }
    assert!(files.len() >= 10, "{files:?}");
    let mut snapshot = String::from(
        "file: original indexes/errors -> designed indexes/errors [unserved]; the errors no unserved pattern explains\n",
    );
    let mut more = Vec::new();
    for path in files {
        let name = path.strip_prefix(root).unwrap().display().to_string();
        let original = std::fs::read_to_string(&path).unwrap();
        let d = design(&without_keys(&original), &Options::default());
        let (before, designed) = (index_count(&original), index_count(&d.text));
        assert_eq!(d.indexes, designed, "{name}: design.indexes");
        assert_eq!(d.errors, error_count(&d.text), "{name}: design.errors");
        let unserved: Vec<&str> = d.unserved.iter().map(|u| u.pattern.as_str()).collect();
        snapshot.push_str(&format!(
            "{name}: {before}/{} -> {designed}/{} [{}]\n",
            error_count(&original),
            d.errors,
            unserved.join(", ")
        ));
        let again = design(&d.text, &Options::default()).edits.len();
        if again != 0 {
            snapshot.push_str(&format!(
                "  unstable: designing the design again makes {again} edit(s)\n"
            ));
        }
        // The errors no unserved pattern explains (a broken promise).
        let analysis = analyze(&d.text);
        for e in analysis.diagnostics().iter().filter(|e| e.severity == Severity::Error) {
            let on_unserved = analysis.schema.model.pattern_ids().any(|(_, p)| {
                p.span.start() <= e.span.start()
                    && e.span.end() <= p.span.end()
                    && unserved.contains(&p.name.text.as_str())
            });
            if !on_unserved {
                snapshot.push_str(&format!(
                    "  unexplained {} on `{}`: {}\n",
                    e.code.as_str(),
                    &d.text[e.span.start()..e.span.end()],
                    e.message
                ));
            }
        }
        if d.errors == 0 && designed > before {
            more.push(format!("{name}: {designed} indexes designed, {before} written by hand"));
        }
    }
    expect_test::expect_file!["design/stripped.txt"].assert_eq(&snapshot);
    assert!(more.is_empty(), "{}", more.join("\n"));
}
