//! Small helpers over slices shared by layers that know nothing of each
//! other (the parser's re-parse, the semantic tokens' delta).

/// How many elements two lists share at the start, and then at the end
/// (never overlapping the shared start): what lies between is what changed.
pub fn common_ends<T: PartialEq>(old: &[T], new: &[T]) -> (usize, usize) {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let room = old.len().min(new.len()) - prefix;
    let suffix = old
        .iter()
        .rev()
        .zip(new.iter().rev())
        .take(room)
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, suffix)
}

#[cfg(test)]
mod tests {
    use super::common_ends;

    #[test]
    fn the_shared_start_and_end_never_overlap() {
        assert_eq!(common_ends(b"abcxdef", b"abcdef"), (3, 3));
        assert_eq!(common_ends(b"aaa", b"aaaa"), (3, 0));
        assert_eq!(common_ends(b"", b"ab"), (0, 0));
        assert_eq!(common_ends(b"same", b"same"), (4, 0));
        assert_eq!(common_ends(b"xab", b"yab"), (0, 2));
    }
}
