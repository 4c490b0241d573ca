//! `dyno design`: key templates and indexes proposed from the entities and
//! the access patterns, each proposal proved by the checker.
//!
//! The designer reads what each pattern knows ([`needs`]), groups the reads
//! of each entity into as few key layouts as serve them all ([`slots`]),
//! places the layouts in the table, local and global indexes ([`layout`])
//! and writes them as edits to the schema ([`render`]). The result is then
//! checked like any schema: a design is only as good as the checker says.
//! A small deterministic search ([`search`]) tries the alternatives that
//! can save an index (an entity written twice, keyed both ways; another
//! partition key for a read) and keeps the best by the objective: fewest
//! errors, fewest warnings (a hot partition is a hazard, not a saving),
//! fewest indexes, cheapest reads, shortest keys.

mod explain;
mod fresh;
mod layout;
mod needs;
mod render;
mod search;
mod slots;

pub use explain::{Choice, Unserved};
pub use fresh::without_keys;
pub use search::Summary;

use crate::syntax::Span;

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// At most this many indexes per table (global and local, the table's
    /// own included).
    pub max_indexes: Option<usize>,
    /// How many of the best designs to summarise besides the chosen one.
    pub alternatives: usize,
}

/// The best design found for a schema.
#[derive(Clone, Debug)]
pub struct Design {
    /// The completed schema.
    pub text: String,
    /// The edits that turn the input into it (byte spans of the input).
    pub edits: Vec<(Span, String)>,
    /// Indexes of the designed tables (global and local).
    pub indexes: usize,
    /// Read capacity of the patterns, weighted by their rate hints (RCU/s).
    pub cost: f64,
    /// Errors the checker still reports on the completed schema.
    pub errors: usize,
    /// What was chosen, and the patterns that forced it.
    pub choices: Vec<Choice>,
    /// Patterns the design does not serve, why, and what comes nearest.
    pub unserved: Vec<Unserved>,
    /// Errors the checker still reports outside the patterns (an entity no
    /// key can identify, a table the input declares wrongly).
    pub left: Vec<String>,
    /// The best designs found, the chosen one first.
    pub alternatives: Vec<Summary>,
}

/// Designs keys for the entities of `text` that lack them and indexes for
/// the patterns its keys do not serve; keeps every key and index written.
pub fn design(text: &str, options: &Options) -> Design {
    search::run(text, options)
}

/// The report beside the schema: the patterns left unserved (always), the
/// choices (`explain`) and the best designs found (`alternatives`).
pub fn report(design: &Design, explain: bool, alternatives: bool) -> String {
    let mut out = String::new();
    if explain {
        for choice in &design.choices {
            out.push_str(&format!("chose {}\n", choice.subject));
            match choice.because.as_slice() {
                [] => out.push_str("  because: it identifies the items (each item has its own primary key)\n"),
                names => out.push_str(&format!(
                    "  because: {}\n",
                    names.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
                )),
            }
        }
    }
    for message in &design.left {
        out.push_str(&format!("error: {message}\n"));
    }
    for u in &design.unserved {
        out.push_str(&format!("warning: `{}` is not served: {}\n", u.pattern, u.why));
        out.push_str(&format!("  = nearest: {}\n", u.alternative));
    }
    if alternatives {
        for (rank, a) in design.alternatives.iter().enumerate() {
            out.push_str(&format!(
                "design {}: {} error(s), {} warning(s), {} index(es), {:.1} RCU/s, {} key characters — {}\n",
                rank + 1,
                a.errors,
                a.warnings,
                a.indexes,
                a.cost,
                a.key_chars,
                a.change
            ));
        }
    }
    out.push_str(&format!(
        "designed: {} index(es), {:.1} RCU/s of reads, {} error(s) left\n",
        design.indexes, design.cost, design.errors
    ));
    out
}
