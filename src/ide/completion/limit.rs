//! Long lists are cut: a large schema has thousands of entity and attribute
//! names, and listing them all on every keystroke costs more than the rest
//! of a completion request. What is kept are the candidates that match what
//! the user has typed — its characters in order, ignoring case, as editors
//! filter — in the context's order of relevance.

use super::Completion;

/// The first `max` completions that match the word typed before `offset`;
/// `true` when the list was cut (the editor should ask again as the user
/// types on). Lists of `max` or fewer are returned whole.
pub fn limit(completions: Vec<Completion>, text: &str, offset: usize, max: usize) -> (Vec<Completion>, bool) {
    if completions.len() <= max {
        return (completions, false);
    }
    let word_start = text[..offset]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || *c == '_')
        .last()
        .map_or(offset, |(i, _)| i);
    let typed = |c: &Completion| {
        let start = c.replace.map_or(word_start, |span| span.start().min(offset));
        &text[start..offset]
    };
    let kept = completions
        .into_iter()
        .filter(|c| matches_in_order(typed(c), &c.label))
        .take(max)
        .collect();
    // Even when all that match were kept: a shorter word (a backspace)
    // would match more than the list has.
    (kept, true)
}

/// Whether the characters of `typed` appear in `label` in order, ignoring case.
fn matches_in_order(typed: &str, label: &str) -> bool {
    let mut label = label.chars().flat_map(char::to_lowercase);
    typed
        .chars()
        .flat_map(char::to_lowercase)
        .all(|t| label.any(|l| l == t))
}

#[cfg(test)]
mod tests {
    use super::super::CompletionKind;
    use super::*;

    fn names(n: usize) -> Vec<Completion> {
        (0..n)
            .map(|i| Completion::new(format!("Entity{i:03}"), CompletionKind::Entity))
            .collect()
    }

    fn labels(completions: &[Completion]) -> Vec<&str> {
        completions.iter().map(|c| c.label.as_str()).collect()
    }

    #[test]
    fn short_lists_are_whole() {
        let (kept, cut) = limit(names(3), "x -> E", 6, 3);
        assert_eq!(labels(&kept), ["Entity000", "Entity001", "Entity002"]);
        assert!(!cut);
    }

    #[test]
    fn long_lists_keep_what_matches_the_typed_word_in_order() {
        let text = "pattern p -> e12";
        let (kept, cut) = limit(names(200), text, text.len(), 5);
        assert_eq!(
            labels(&kept),
            ["Entity012", "Entity102", "Entity112", "Entity120", "Entity121"]
        );
        assert!(cut);
        // Nothing typed: the first ones, marked incomplete.
        let (kept, cut) = limit(names(200), "pattern p -> ", 13, 2);
        assert_eq!(labels(&kept), ["Entity000", "Entity001"]);
        assert!(cut);
    }

    #[test]
    fn the_replaced_span_is_what_was_typed() {
        // Inside a string the word is replaced from the opening quote on.
        let mut completions = names(10);
        completions.push(Completion::new("USER#", CompletionKind::Prefix).replacing(crate::syntax::Span::new(1, 3)));
        let (kept, _) = limit(completions, "\"US", 3, 3);
        assert_eq!(labels(&kept), ["USER#"]);
    }
}
