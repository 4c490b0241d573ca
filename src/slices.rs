//! Small helpers over slices shared by layers that know nothing of each
//! other (the parser's re-parse, the semantic tokens' delta, the diagnostics
//! carried over an edit).

/// How many elements two lists share at the start, and then at the end
/// (never overlapping the shared start): what lies between is what changed.
pub fn common_ends<T: PartialEq>(old: &[T], new: &[T]) -> (usize, usize) {
    let prefix = common_prefix(old, new);
    let room = old.len().min(new.len()) - prefix;
    (prefix, common_suffix(old, new, room))
}

// Runs compared at once (memcmp for bytes), long ones first, then short
// ones: on every keystroke this scans the whole text, twice. With runs of 64
// alone, the calls cost 1.2 M instructions at 50k lines; 0.34 M now.
const CHUNKS: [usize; 2] = [4096, 64];

/// How many elements two lists share at the start.
pub fn common_prefix<T: PartialEq>(old: &[T], new: &[T]) -> usize {
    let short = old.len().min(new.len());
    let mut prefix = 0;
    for chunk in CHUNKS {
        while prefix + chunk <= short && old[prefix..prefix + chunk] == new[prefix..prefix + chunk] {
            prefix += chunk;
        }
    }
    prefix
        + old[prefix..short]
            .iter()
            .zip(&new[prefix..short])
            .take_while(|(a, b)| a == b)
            .count()
}

/// How many elements two lists share at the end, at most `room`.
pub fn common_suffix<T: PartialEq>(old: &[T], new: &[T], room: usize) -> usize {
    let (old_end, new_end) = (old.len(), new.len());
    let mut suffix = 0;
    for chunk in CHUNKS {
        while suffix + chunk <= room
            && old[old_end - suffix - chunk..old_end - suffix] == new[new_end - suffix - chunk..new_end - suffix]
        {
            suffix += chunk;
        }
    }
    suffix
        + old[..old_end - suffix]
            .iter()
            .rev()
            .zip(new[..new_end - suffix].iter().rev())
            .take(room - suffix)
            .take_while(|(a, b)| a == b)
            .count()
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

    /// The byte-by-byte reading of the same definition.
    fn one_by_one(old: &[u8], new: &[u8]) -> (usize, usize) {
        let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
        let room = old.len().min(new.len()) - prefix;
        let suffix = (old.iter().rev().zip(new.iter().rev()))
            .take(room)
            .take_while(|(a, b)| a == b)
            .count();
        (prefix, suffix)
    }

    #[test]
    fn chunks_compared_at_once_find_what_bytes_compared_one_by_one_find() {
        // Texts around and across the chunk size, with an edit at every
        // place: inserted, deleted, replaced, and repeats that can match
        // at either end.
        for len in [0, 1, 63, 64, 65, 127, 128, 129, 300, 4095, 4096, 4097, 8192 + 65] {
            let text: Vec<u8> = (0..len).map(|i| b"ab\n"[i % 3]).collect();
            // Every place in the short texts; in the long ones, every place
            // near a chunk's edge and a spread of others.
            let near_an_edge = |at: usize| [0, 1, 63].contains(&(at % 64)) || [0, 1, 4095].contains(&(at % 4096));
            for at in (0..=len).filter(|&at| len <= 300 || at % 97 == 0 || near_an_edge(at) || len - at < 70) {
                let mut inserted = text.clone();
                inserted.insert(at, b'a');
                let mut replaced = text.clone();
                let mut deleted = text.clone();
                if at < len {
                    replaced[at] = b'x';
                    deleted.remove(at);
                }
                for other in [&inserted, &replaced, &deleted, &text] {
                    assert_eq!(common_ends(&text, other), one_by_one(&text, other), "{len} {at}");
                    assert_eq!(common_ends(other, &text), one_by_one(other, &text), "{len} {at}");
                }
            }
        }
    }
}
