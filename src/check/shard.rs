//! Write shards: the values a `shard(N)` attribute takes, and the shard a
//! `shard(N, of attr)` attribute computes from its source.
//!
//! A calculated shard must be the same number wherever it is computed —
//! by the application that writes, by `dyno sample`/`verify`, by generated
//! clients — so the function is fixed here and documented in
//! docs/language.md: FNV-1a (32 bit) over the UTF-8 bytes of the source
//! value as it is written in a key, modulo N.

/// The most shards a key may have: a read over every shard is that many
/// Queries.
pub const MAX_SHARDS: u32 = 1000;

/// `0` to `count - 1`, as they appear in a key.
pub fn values(count: u32) -> Vec<String> {
    (0..count).map(|i| i.to_string()).collect()
}

/// The shard of a calculated `shard(count, of attr)` whose source has the
/// key text `source`.
pub fn of(source: &str, count: u32) -> u32 {
    let mut hash: u32 = 0x811c_9dc5;
    for byte in source.bytes() {
        hash ^= u32::from(byte);
        hash = hash.wrapping_mul(0x0100_0193);
    }
    hash % count.max(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_published_test_vectors() {
        // From the FNV reference (draft-eastlake-fnv): FNV-1a 32 of "" and "a".
        // Each is below u32::MAX, so the modulo keeps it whole.
        assert_eq!(of("", u32::MAX), 0x811c_9dc5);
        assert_eq!(of("a", u32::MAX), 0xe40c_292c);
        assert_eq!(of("foobar", u32::MAX), 0xbf9c_f968);
    }

    #[test]
    fn a_shard_is_below_the_count() {
        for source in ["u_1", "u_2", "USER#42", "ü"] {
            assert!(of(source, 10) < 10);
        }
        assert_eq!(values(3), ["0", "1", "2"]);
    }
}
