//! Inlay hints: after each pattern, the index its Query uses and its read
//! cost, so the design's price is visible while it is typed.

use super::File;
use crate::check::cost;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// Where the hint is shown (the end of the pattern's first line).
    pub offset: usize,
    pub label: String,
    pub tooltip: String,
}

pub fn hints(file: &File) -> Vec<Hint> {
    let analysis = &file.analysis;
    let mut out = Vec::new();
    for (pattern, resolution) in analysis.model.patterns.iter().zip(&analysis.resolutions) {
        let Some(resolution) = resolution else { continue };
        let access = &analysis.model.tables[resolution.table].access[resolution.access];
        let via = if access.is_index() {
            access.name.text.clone()
        } else {
            "table".into()
        };
        let cost = cost::read_cost(&analysis.model, &analysis.registry, pattern, resolution);
        let rcu = if cost.rcu.fract() == 0.0 {
            format!("{}", cost.rcu as i64)
        } else {
            format!("{}", cost.rcu)
        };
        let line_end = file.text[pattern.span.start..pattern.span.end]
            .find('\n')
            .map_or(pattern.span.end, |i| pattern.span.start + i);
        out.push(Hint {
            offset: file.text[..line_end].trim_end().len(),
            label: format!("{via} · {rcu} RCU"),
            tooltip: cost.describe(),
        });
    }
    out
}
