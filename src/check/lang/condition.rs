//! Key conditions as automata: `=`, `begins_with`, and byte-order comparisons.
//!
//! Why automata: a condition then costs one more factor in the same product search
//! ([`intersect`](super::intersect)) as template-vs-template, so new condition kinds are cheap.

use std::collections::HashMap;

use super::Bound;
use super::automaton::{Automaton, Builder};

impl Automaton {
    /// Exactly the string `value` (a key condition `key = value`).
    pub fn exactly(value: &[u8]) -> Self {
        let mut b = Builder::new();
        let end = b.literal(&[b.start], value);
        b.finish(&end)
    }

    /// Every string that begins with `prefix` (`begins_with(key, prefix)`).
    pub fn prefix(prefix: &[u8]) -> Self {
        let mut b = Builder::new();
        let end = b.literal(&[b.start], prefix);
        let end = end[0];
        b.edge(end, 0, 255, end);
        b.finish(&[end])
    }

    /// Every string `s` with `lower <= s <= upper` in byte-lexicographic order, honouring
    /// exclusive and missing bounds (`key between a and b`, `key > a`, …).
    ///
    /// Why a single automaton: a comparison with a fixed bound is regular — track "equal to the
    /// bound so far" vs "already decided" — and pairing the two trackers keeps it deterministic
    /// with only `O(|lower| + |upper|)` reachable states (the pair is built on the fly).
    pub fn range(lower: &Bound, upper: &Bound) -> Self {
        // Component trackers: Eq(i) = equal to the first i bytes of the bound; Done = decided
        // in our favour. The lower tracker rejects on a smaller byte, the upper on a larger one.
        #[derive(Clone, Copy, PartialEq, Eq, Hash)]
        enum T {
            Eq(usize),
            Done,
        }
        let (lo, lo_incl) = bound_parts(lower);
        let (hi, hi_incl) = bound_parts(upper);
        let lo_ok = |t: T| match t {
            T::Done => true,
            T::Eq(i) => i == lo.len() && lo_incl,
        };
        let hi_ok = |t: T| match t {
            T::Done => true,
            T::Eq(i) => i < hi.len() || hi_incl,
        };
        // Step a tracker on one byte; every byte of a piece below steps alike.
        let step_lo = |t: T, byte: u8| match t {
            T::Eq(i) if i < lo.len() && byte < lo[i] => None,
            T::Eq(i) if i < lo.len() && byte == lo[i] => Some(T::Eq(i + 1)),
            _ => Some(T::Done),
        };
        let step_hi = |t: T, byte: u8| match t {
            T::Eq(i) if i < hi.len() && byte < hi[i] => Some(T::Done),
            T::Eq(i) if i < hi.len() && byte == hi[i] => Some(T::Eq(i + 1)),
            T::Eq(_) => None,
            T::Done => Some(T::Done),
        };
        let lo_start = match lower {
            Bound::Unbounded => T::Done,
            _ => T::Eq(0),
        };
        let hi_start = match upper {
            Bound::Unbounded => T::Done,
            _ => T::Eq(0),
        };
        let mut b = Builder::new();
        let mut states: Vec<(T, T)> = vec![(lo_start, hi_start)];
        let mut index: HashMap<(T, T), u32> = HashMap::from([((lo_start, hi_start), 0)]);
        let mut i = 0;
        while i < states.len() {
            let (tl, th) = states[i];
            // Split 0..=255 at the bound bytes that matter here, so each piece steps uniformly.
            let mut cuts: Vec<u8> = Vec::with_capacity(4);
            for (t, bound) in [(tl, &lo), (th, &hi)] {
                if let T::Eq(k) = t
                    && k < bound.len()
                {
                    cuts.push(bound[k]);
                }
            }
            cuts.sort_unstable();
            cuts.dedup();
            let mut pieces: Vec<(u8, u8)> = Vec::with_capacity(5);
            let mut from = 0u16;
            for &c in &cuts {
                if u16::from(c) > from {
                    pieces.push((from as u8, c - 1));
                }
                pieces.push((c, c));
                from = u16::from(c) + 1;
            }
            if from <= 255 {
                pieces.push((from as u8, 255));
            }
            for (a, z) in pieces {
                if let (Some(nl), Some(nh)) = (step_lo(tl, a), step_hi(th, a)) {
                    let to = *index.entry((nl, nh)).or_insert_with(|| {
                        states.push((nl, nh));
                        b.state()
                    });
                    b.edge(i as u32, a, z, to);
                }
            }
            i += 1;
        }
        let accepting: Vec<u32> = (0..states.len())
            .filter(|&i| lo_ok(states[i].0) && hi_ok(states[i].1))
            .map(|i| i as u32)
            .collect();
        b.finish(&accepting)
    }

    /// Every string of at most `max_len` bytes drawn from `alphabet`. Mostly for bounding a
    /// question to a finite universe (brute-force cross-checks, "a short example" searches).
    pub fn strings_over(alphabet: &[u8], max_len: usize) -> Self {
        let mut b = Builder::new();
        let mut prev = b.start;
        let mut all = vec![prev];
        for _ in 0..max_len {
            let s = b.state();
            for &c in alphabet {
                b.edge(prev, c, c, s);
            }
            all.push(s);
            prev = s;
        }
        b.finish(&all)
    }
}

fn bound_parts(bound: &Bound) -> (Vec<u8>, bool) {
    match bound {
        Bound::Unbounded => (Vec::new(), true),
        Bound::Included(s) => (s.as_bytes().to_vec(), true),
        Bound::Excluded(s) => (s.as_bytes().to_vec(), false),
    }
}
