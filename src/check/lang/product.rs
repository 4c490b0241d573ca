//! The one algorithm every question reduces to: is the intersection of a few automata
//! non-empty, and if so what is a shortest string in it.
//!
//! Why an on-the-fly product of single NFA states (not of state sets): non-emptiness of an
//! intersection only needs one path in each automaton, so the product is at most the product of
//! the state counts and only reachable tuples are ever visited; nothing is determinised.

use std::cell::RefCell;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

use super::automaton::{Automaton, Edge};

/// At most this many automata in one product (a template, another template or a condition,
/// and a bound on the universe is the deepest use).
pub const MAX_AUTOMATA: usize = 6;

/// A shortest string accepted by every automaton in `automata`, or `None` when their languages
/// do not intersect. Among shortest strings, readable bytes (lowercase, digits, uppercase,
/// punctuation) are preferred so the witness reads well in a diagnostic.
///
/// Panics if `automata` is empty or longer than [`MAX_AUTOMATA`].
pub fn intersect(automata: &[&Automaton]) -> Option<Vec<u8>> {
    let k = automata.len();
    assert!(
        (1..=MAX_AUTOMATA).contains(&k),
        "intersect takes 1..={MAX_AUTOMATA} automata"
    );
    // The search's buffers are kept per thread: the checker asks thousands of small questions.
    SCRATCH.with(|scratch| match scratch.try_borrow_mut() {
        Ok(mut scratch) => {
            let found = search(automata, &mut scratch);
            // A rare huge product must not keep its memory for the life of the thread.
            if scratch.tuples.capacity() > 1 << 16 {
                *scratch = Scratch::default();
            }
            found
        }
        Err(_) => search(automata, &mut Scratch::default()),
    })
}

/// The buffers of one search, reused from one search to the next.
#[derive(Default)]
struct Scratch {
    tuples: Vec<u32>,
    parents: Vec<(u32, u8)>,
    seen: HashSet<u128, BuildHasherDefault<KeyHasher>>,
    succ: Vec<([u32; MAX_AUTOMATA], u8, u8)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

fn search(automata: &[&Automaton], scratch: &mut Scratch) -> Option<Vec<u8>> {
    let k = automata.len();
    let Scratch {
        tuples,
        parents,
        seen,
        succ,
    } = scratch;
    // Tuples live flat in `tuples` (k entries each) in BFS order; `parents[i]` is how node i was
    // reached. The queue is the tail of `tuples` past `head`.
    tuples.clear();
    tuples.extend(automata.iter().map(|a| a.start));
    parents.clear();
    parents.push((u32::MAX, 0));
    seen.clear();
    let mut radix = [0u128; MAX_AUTOMATA];
    for (r, a) in radix.iter_mut().zip(automata) {
        *r = a.state_count() as u128;
    }
    let fits = radix[..k]
        .iter()
        .try_fold(1u128, |acc, &r| acc.checked_mul(r))
        .is_some();
    assert!(fits, "automata too large for one product");
    let key = |t: &[u32]| {
        t.iter()
            .zip(&radix[..k])
            .fold(0u128, |acc, (&s, &r)| acc * r + u128::from(s))
    };
    seen.insert(key(tuples));
    let accepting = |t: &[u32]| automata.iter().zip(t).all(|(a, &s)| a.is_accepting(s));
    if accepting(tuples) {
        return Some(Vec::new());
    }
    // `succ`: (tuple, byte, rank).
    let mut head = 0;
    while head * k < tuples.len() {
        let mut current = [0u32; MAX_AUTOMATA];
        current[..k].copy_from_slice(&tuples[head * k..(head + 1) * k]);
        succ.clear();
        let mut next = current;
        successors(automata, &current[..k], 0, 0, 255, &mut next, succ);
        for &(t, byte, _) in succ.iter() {
            if !seen.insert(key(&t[..k])) {
                continue;
            }
            tuples.extend_from_slice(&t[..k]);
            parents.push((head as u32, byte));
            if accepting(&t[..k]) {
                return Some(path(parents, parents.len() - 1));
            }
        }
        head += 1;
    }
    None
}

/// Enumerate the product edges of `current` (automaton `j` onwards, bytes narrowed to
/// `lo..=hi`), merging edges that reach the same tuple and keeping the most readable byte.
fn successors(
    automata: &[&Automaton],
    current: &[u32],
    j: usize,
    lo: u8,
    hi: u8,
    next: &mut [u32; MAX_AUTOMATA],
    out: &mut Vec<([u32; MAX_AUTOMATA], u8, u8)>,
) {
    if j == current.len() {
        let (byte, rank) = pick(lo, hi);
        match out.iter_mut().find(|(t, ..)| t == next) {
            Some(entry) if rank < entry.2 => *entry = (*next, byte, rank),
            Some(_) => {}
            None => out.push((*next, byte, rank)),
        }
        return;
    }
    for &Edge { lo: a, hi: z, to } in automata[j].edges(current[j]) {
        let (l, h) = (lo.max(a), hi.min(z));
        if l <= h {
            next[j] = to;
            successors(automata, current, j + 1, l, h, next, out);
        }
    }
}

/// Byte ranges from most to least readable in a witness.
const PREFERRED: [(u8, u8); 5] = [(b'a', b'z'), (b'0', b'9'), (b'A', b'Z'), (b'!', b'~'), (0x80, 0xFF)];

/// The rank [`pick`] gives a range with no preferred byte (the worst).
pub(super) const LEAST_READABLE: u8 = PREFERRED.len() as u8;

/// The most readable byte in `lo..=hi`, with its rank (lower is better).
pub(super) fn pick(lo: u8, hi: u8) -> (u8, u8) {
    for (rank, (a, z)) in PREFERRED.into_iter().enumerate() {
        let (l, h) = (lo.max(a), hi.min(z));
        if l <= h {
            return (l, rank as u8);
        }
    }
    (lo, PREFERRED.len() as u8)
}

fn path(parents: &[(u32, u8)], mut node: usize) -> Vec<u8> {
    let mut out = Vec::new();
    while parents[node].0 != u32::MAX {
        out.push(parents[node].1);
        node = parents[node].0 as usize;
    }
    out.reverse();
    out
}

/// A multiply-rotate hash for the tuple keys: they are already well spread integers, and SipHash
/// would dominate the inner loop.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }

    fn write_u128(&mut self, x: u128) {
        let folded = (x as u64) ^ ((x >> 64) as u64).rotate_left(32);
        self.0 = folded.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}
