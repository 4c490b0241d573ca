//! "Did you mean ...?" by edit distance.

use crate::diagnostic::Fix;
use crate::syntax::{FileSpan, names};

/// The closest candidate within a distance that scales with the word, or
/// `None` when nothing is close enough to be a likely typo. Hand-written:
/// strsim measures distance, the limit and the ranking are dyno's own.
pub fn closest<'a>(word: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let chars: Vec<char> = word.chars().collect();
    let limit = (chars.len() / 3).max(1);
    let mut row = Vec::new();
    candidates
        .into_iter()
        .filter(|c| *c != word)
        .filter_map(|c| Some((distance_within(&chars, c, limit, &mut row)?, c)))
        // Among equally close words, the one that differs only in case.
        .min_by_key(|&(d, c)| (d, distance(&word.to_lowercase(), &c.to_lowercase()), c.len()))
        .map(|(_, c)| c)
}

/// The Levenshtein distance over characters between `word` and `other`
/// when it is at most `limit`, else `None`. A typed name is compared with
/// every entity of the schema (thousands; the whole distance to each of
/// 2,380 names was 7.8 M instructions): this stops as soon as no way of
/// editing one into the other can stay within the limit, so names that
/// differ early cost a few characters each. `row` is room reused from
/// call to call.
fn distance_within(word: &[char], other: &str, limit: usize, row: &mut Vec<usize>) -> Option<usize> {
    // One row of the edit-distance table: row[j] is the distance between
    // the characters of `other` read so far and word[..j].
    row.clear();
    row.extend(0..=word.len());
    let mut read = 0;
    for c in other.chars() {
        read += 1;
        let mut diagonal = row[0];
        row[0] = read;
        let mut smallest = row[0];
        for (j, &w) in word.iter().enumerate() {
            let substituted = diagonal + usize::from(w != c);
            diagonal = row[j + 1];
            row[j + 1] = substituted.min(diagonal + 1).min(row[j] + 1);
            smallest = smallest.min(row[j + 1]);
        }
        // A row's smallest entry never shrinks in the rows after it.
        if smallest > limit {
            return None;
        }
    }
    let d = row[word.len()];
    (d <= limit).then_some(d)
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

    proptest::proptest! {
        #[test]
        fn the_bounded_distance_is_the_distance_when_within_the_limit(
            word in "[abAé]{0,7}",
            other in "[abAé]{0,7}",
            limit in 0usize..5,
        ) {
            let chars: Vec<char> = word.chars().collect();
            let full = distance(&word, &other);
            let bounded = distance_within(&chars, &other, limit, &mut Vec::new());
            proptest::prop_assert_eq!(bounded, (full <= limit).then_some(full));
        }
    }

    #[test]
    fn escapes_what_a_string_cannot_hold_plainly() {
        assert_eq!(escape(r#"A"B\C{D}#"#), r#"A\"B\\C\{D\}#"#);
    }
}
