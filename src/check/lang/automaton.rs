//! Epsilon-free NFAs over bytes with byte-range edges.
//!
//! Why this representation: template automata are tiny (literals are chains, shapes are a handful
//! of states), so a compressed edge list (CSR) with `lo..=hi` ranges is both compact and fast to
//! scan; there is no 256-way table per state and nothing is ever determinised.

use std::sync::OnceLock;

/// A byte-range edge `lo..=hi -> to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Edge {
    pub lo: u8,
    pub hi: u8,
    pub to: u32,
}

/// A non-deterministic finite automaton over bytes, without epsilon moves.
///
/// Built from a [`Template`](super::Template) with [`Template::compile`](super::Template::compile) or
/// from a key condition with the constructors below; questions combining several automata are
/// answered by [`intersect`](super::intersect). Compile once and keep it when asking many questions.
#[derive(Clone, Debug)]
pub struct Automaton {
    pub(super) start: u32,
    /// `edges[offsets[s]..offsets[s + 1]]` are the edges leaving state `s`.
    pub(super) offsets: Vec<u32>,
    pub(super) edges: Vec<Edge>,
    pub(super) accepting: Vec<bool>,
    /// [`useful_states`](Self::useful_states), computed on first use.
    pub(super) live: OnceLock<Vec<bool>>,
}

impl Automaton {
    /// Number of states (a cost measure; products are bounded by the product of these).
    pub fn state_count(&self) -> usize {
        self.accepting.len()
    }

    pub(super) fn edges(&self, state: u32) -> &[Edge] {
        let s = state as usize;
        &self.edges[self.offsets[s] as usize..self.offsets[s + 1] as usize]
    }

    pub(super) fn is_accepting(&self, state: u32) -> bool {
        self.accepting[state as usize]
    }

    /// Whether the automaton accepts `input`: state-set simulation with bitsets, linear in the
    /// input and allocation-free for automata of up to 512 states.
    pub fn accepts(&self, input: &[u8]) -> bool {
        let words = self.state_count().div_ceil(64);
        let mut stack = [0u64; 16];
        let mut heap = Vec::new();
        let buf = if 2 * words <= stack.len() {
            &mut stack[..2 * words]
        } else {
            heap.resize(2 * words, 0);
            &mut heap[..]
        };
        let (mut current, mut next) = buf.split_at_mut(words);
        current[self.start as usize / 64] |= 1 << (self.start % 64);
        for &byte in input {
            next.fill(0);
            let mut any = false;
            for (w, &word) in current.iter().enumerate() {
                let mut bits = word;
                while bits != 0 {
                    let s = (w * 64) as u32 + bits.trailing_zeros();
                    bits &= bits - 1;
                    for e in self.edges(s).iter().filter(|e| e.lo <= byte && byte <= e.hi) {
                        next[e.to as usize / 64] |= 1 << (e.to % 64);
                        any = true;
                    }
                }
            }
            if !any {
                return false;
            }
            std::mem::swap(&mut current, &mut next);
        }
        (0..self.state_count()).any(|s| current[s / 64] & (1 << (s % 64)) != 0 && self.accepting[s])
    }

    /// Whether some accepted string begins with `prefix`: the state-set simulation of
    /// [`accepts`](Self::accepts) over the prefix, then whether a reached state can still reach
    /// an accepting one. Exactly `intersect(&[self, &Automaton::prefix(prefix)]).is_some()`.
    pub fn accepts_prefix(&self, prefix: &[u8]) -> bool {
        let live = self.live.get_or_init(|| self.co_reachable());
        if !live[self.start as usize] {
            return false;
        }
        let mut current = vec![self.start];
        let mut next = Vec::new();
        for &byte in prefix {
            next.clear();
            for &s in &current {
                for e in self.edges(s) {
                    if e.lo <= byte && byte <= e.hi && live[e.to as usize] && !next.contains(&e.to) {
                        next.push(e.to);
                    }
                }
            }
            if next.is_empty() {
                return false;
            }
            std::mem::swap(&mut current, &mut next);
        }
        true
    }

    /// Whether the language is empty.
    pub fn is_empty(&self) -> bool {
        self.min_len().is_none()
    }

    /// Length in bytes of the shortest accepted string; `None` if the language is empty.
    pub fn min_len(&self) -> Option<usize> {
        let mut dist = vec![usize::MAX; self.state_count()];
        let mut queue = std::collections::VecDeque::from([self.start]);
        dist[self.start as usize] = 0;
        while let Some(s) = queue.pop_front() {
            if self.is_accepting(s) {
                return Some(dist[s as usize]);
            }
            for e in self.edges(s) {
                if dist[e.to as usize] == usize::MAX {
                    dist[e.to as usize] = dist[s as usize] + 1;
                    queue.push_back(e.to);
                }
            }
        }
        None
    }

    /// Length in bytes of the longest accepted string; `None` if unbounded (or the language is
    /// empty — check [`is_empty`](Self::is_empty) first when that matters).
    pub fn max_len(&self) -> Option<usize> {
        let useful = self.useful_states();
        // Longest path over useful states by DFS with colours; a back edge means a loop.
        const WHITE: u8 = 0;
        const GREY: u8 = 1;
        const BLACK: u8 = 2;
        let n = self.state_count();
        let mut colour = vec![WHITE; n];
        let mut longest = vec![0usize; n]; // longest path from the state to an accepting state
        if !useful[self.start as usize] {
            return None;
        }
        let mut stack: Vec<(u32, usize)> = vec![(self.start, 0)];
        colour[self.start as usize] = GREY;
        while let Some(&mut (s, ref mut i)) = stack.last_mut() {
            let edges = self.edges(s);
            if let Some(e) = edges.get(*i) {
                *i += 1;
                let t = e.to as usize;
                if !useful[t] {
                    continue;
                }
                match colour[t] {
                    GREY => return None,
                    WHITE => {
                        colour[t] = GREY;
                        stack.push((e.to, 0));
                    }
                    _ => {}
                }
            } else {
                let best = edges
                    .iter()
                    .filter(|e| useful[e.to as usize])
                    .map(|e| longest[e.to as usize] + 1)
                    .max();
                longest[s as usize] = best.unwrap_or(0);
                colour[s as usize] = BLACK;
                stack.pop();
            }
        }
        Some(longest[self.start as usize])
    }

    /// The longest byte string every accepted string begins with (exact, unlike a template's
    /// literal prefix: `{status}` with `enum(open)` yields `open`). Empty for an empty language.
    pub fn common_prefix(&self) -> Vec<u8> {
        let useful = self.useful_states();
        let mut out = Vec::new();
        let mut set = vec![self.start];
        if !useful[self.start as usize] {
            return out;
        }
        loop {
            if set.iter().any(|&s| self.is_accepting(s)) {
                return out;
            }
            let mut byte = None;
            let mut next = Vec::new();
            for &s in &set {
                for e in self.edges(s).iter().filter(|e| useful[e.to as usize]) {
                    if e.lo != e.hi || byte.is_some_and(|b| b != e.lo) {
                        return out;
                    }
                    byte = Some(e.lo);
                    if !next.contains(&e.to) {
                        next.push(e.to);
                    }
                }
            }
            match byte {
                Some(b) => out.push(b),
                None => return out,
            }
            set = next;
        }
    }

    /// States that can reach an accepting state. A fixpoint over the edges, scanning states from
    /// the last: builders number states along their chains, so one scan usually settles it and a
    /// second confirms, with no allocation but the result.
    fn co_reachable(&self) -> Vec<bool> {
        let mut live = self.accepting.clone();
        let mut changed = true;
        while changed {
            changed = false;
            for s in (0..self.state_count()).rev() {
                if !live[s] && self.edges(s as u32).iter().any(|e| live[e.to as usize]) {
                    live[s] = true;
                    changed = true;
                }
            }
        }
        live
    }

    /// [`useful_states`](Self::useful_states), for the rest of `lang`.
    pub(super) fn useful(&self) -> Vec<bool> {
        self.useful_states()
    }

    /// States that are reachable from the start and can reach an accepting state.
    fn useful_states(&self) -> Vec<bool> {
        let n = self.state_count();
        let mut reach = vec![false; n];
        let mut stack = vec![self.start];
        reach[self.start as usize] = true;
        let mut reverse: Vec<Vec<u32>> = vec![Vec::new(); n];
        while let Some(s) = stack.pop() {
            for e in self.edges(s) {
                reverse[e.to as usize].push(s);
                if !reach[e.to as usize] {
                    reach[e.to as usize] = true;
                    stack.push(e.to);
                }
            }
        }
        let mut useful = vec![false; n];
        let mut stack: Vec<u32> = (0..n as u32)
            .filter(|&s| reach[s as usize] && self.is_accepting(s))
            .collect();
        stack.iter().for_each(|&s| useful[s as usize] = true);
        while let Some(s) = stack.pop() {
            for &p in &reverse[s as usize] {
                if !useful[p as usize] {
                    useful[p as usize] = true;
                    stack.push(p);
                }
            }
        }
        useful
    }
}

/// Incremental construction. Fragments are built "from a frontier": a part's first edges leave
/// every state of the previous part's accepting frontier, which makes concatenation
/// epsilon-free without copying (the part's own start state never gets created).
pub(super) struct Builder {
    pub start: u32,
    pending: Vec<(u32, Edge)>,
    accepting: Vec<bool>,
}

impl Builder {
    pub fn new() -> Self {
        Builder {
            start: 0,
            pending: Vec::new(),
            accepting: vec![false],
        }
    }

    /// How many states exist so far (states are numbered in creation order).
    pub fn state_total(&self) -> u32 {
        self.accepting.len() as u32
    }

    pub fn state(&mut self) -> u32 {
        self.accepting.push(false);
        (self.accepting.len() - 1) as u32
    }

    pub fn edge(&mut self, from: u32, lo: u8, hi: u8, to: u32) {
        self.pending.push((from, Edge { lo, hi, to }));
    }

    /// Edges `lo..=hi -> to` from every state of `from`.
    pub fn edges_from(&mut self, from: &[u32], lo: u8, hi: u8, to: u32) {
        for &f in from {
            self.edge(f, lo, hi, to);
        }
    }

    /// A chain spelling `text` from `from`; returns the new frontier.
    pub fn literal(&mut self, from: &[u32], text: &[u8]) -> Vec<u32> {
        let classes: Vec<[(u8, u8); 1]> = text.iter().map(|&c| [(c, c)]).collect();
        self.chain(from, classes.iter().map(|c| &c[..]))
    }

    /// A chain of byte classes (each a list of ranges); returns the new frontier.
    pub fn classes(&mut self, from: &[u32], classes: &[&[(u8, u8)]]) -> Vec<u32> {
        self.chain(from, classes.iter().copied())
    }

    fn chain<'a>(&mut self, from: &[u32], mut classes: impl Iterator<Item = &'a [(u8, u8)]>) -> Vec<u32> {
        let Some(first) = classes.next() else {
            return from.to_vec();
        };
        let mut last = self.state();
        for &(lo, hi) in first {
            self.edges_from(from, lo, hi, last);
        }
        for class in classes {
            let s = self.state();
            for &(lo, hi) in class {
                self.edge(last, lo, hi, s);
            }
            last = s;
        }
        vec![last]
    }

    /// Freeze into CSR form with `accepting` as the final states.
    pub fn finish(mut self, accepting: &[u32]) -> Automaton {
        for &s in accepting {
            self.accepting[s as usize] = true;
        }
        let n = self.accepting.len();
        self.pending.sort_by_key(|&(from, e)| (from, e.lo, e.to));
        self.pending.dedup();
        let mut offsets = vec![0u32; n + 1];
        for &(from, _) in &self.pending {
            offsets[from as usize + 1] += 1;
        }
        for i in 0..n {
            offsets[i + 1] += offsets[i];
        }
        // Collected from a slice, into a list of their exact number: from
        // `pending` itself they would keep its buffer, grown by doubling and
        // half again as wide, as long as the automaton lives.
        let edges = self.pending.iter().map(|&(_, e)| e).collect();
        Automaton {
            start: self.start,
            offsets,
            edges,
            accepting: self.accepting,
            live: OnceLock::new(),
        }
    }
}
