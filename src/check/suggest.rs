//! "Did you mean ...?" by edit distance.

use crate::diagnostic::Fix;
use crate::syntax::{FileSpan, names};

/// The closest candidate within a distance that scales with the word, or
/// `None` when nothing is close enough to be a likely typo. Hand-written:
/// strsim measures distance, the limit and the ranking are dyno's own.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (word.chars().count() / 3).max(1);
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .map(|c| (distance(word, c), c))
        .filter(|&(d, _)| d <= limit)
        // Among equally close words, the one that differs only in case.
        .min_by_key(|&(d, c)| (d, distance(&word.to_lowercase(), &c.to_lowercase()), c.len()))
        .map(|(_, c)| c)
}

/// The did-you-mean suffix for a message about the name at `span`, and the
/// fix that writes the suggestion over it: both or neither. The fix writes
/// a name that is not an identifier quoted; where only identifiers stand
/// (a hole, a value), the caller offers identifiers only.
pub fn did_you_mean_fix<'a>(
    word: &str,
    at: FileSpan,
    candidates: impl IntoIterator<Item = &'a str>,
) -> (String, Option<Fix>) {
    match closest(word, candidates) {
        Some(c) => (
            format!("; did you mean `{c}`?"),
            Some(Fix::replace(format!("change to `{c}`"), at, names::written(c))),
        ),
        None => (String::new(), None),
    }
}

/// Literal text as it is written inside a string.
pub use crate::syntax::print::escape;

/// Levenshtein distance over characters.
pub use strsim::levenshtein as distance;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suggests_only_close_words() {
        assert_eq!(closest("Usr", ["User", "Tenant"]), Some("User"));
        assert_eq!(closest("tenantID", ["tenantId", "userId"]), Some("tenantId"));
        assert_eq!(closest("invoice", ["User", "Tenant"]), None);
        assert_eq!(closest("gsi1Sk", ["gsi1pk", "gsi1sk"]), Some("gsi1sk"));
        assert_eq!(distance("kitten", "sitting"), 3);
    }

    #[test]
    fn escapes_what_a_string_cannot_hold_plainly() {
        assert_eq!(escape(r#"A"B\C{D}#"#), r#"A\"B\\C\{D\}#"#);
    }
}
