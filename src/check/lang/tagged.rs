//! Which part of a template wrote each byte of a value, and which bytes can
//! continue a hole's value: what deciding "does this key condition pin that
//! attribute" needs beyond plain intersection.
//!
//! Builders number states in creation order and every part creates its own
//! states (concatenation is from a frontier, never through a shared state),
//! so the part a state belongs to is a range of state numbers: after reading
//! a byte, a run is in a state of the part that consumed the byte.

use super::automaton::{Automaton, Builder};
use super::{Part, Shape, Template};

/// A template's automaton with, per state, the part that created it.
#[derive(Clone, Debug)]
pub struct Tagged {
    pub automaton: Automaton,
    /// `part_of[state]`: the index of the part that created the state;
    /// `None` for the start state (nothing read yet).
    part_of: Vec<Option<u32>>,
}

impl Tagged {
    pub fn part_of(&self, state: u32) -> Option<usize> {
        self.part_of[state as usize].map(|p| p as usize)
    }
}

impl Template {
    /// [`compile_tagged`](Self::compile_tagged), compiled once per template.
    pub fn tagged(&self) -> &Tagged {
        self.tagged.get_or_init(|| Box::new(self.compile_tagged()))
    }

    /// The automaton of [`compile`](Self::compile), each state tagged with its part.
    pub fn compile_tagged(&self) -> Tagged {
        let mut b = Builder::new();
        let mut part_of = vec![None];
        let mut frontier = vec![b.start];
        for (i, part) in self.parts.iter().enumerate() {
            frontier = match part {
                Part::Literal(text) => b.literal(&frontier, text.as_bytes()),
                Part::Hole(shape) => shape.build(&mut b, &frontier),
            };
            part_of.resize(b.state_total() as usize, Some(i as u32));
        }
        Tagged {
            automaton: b.finish(&frontier),
            part_of,
        }
    }

    /// The bytes a value can start with.
    pub fn first_bytes(&self) -> ByteSet {
        if let Some(Part::Literal(text)) = self.parts.first()
            && let Some(&b) = text.as_bytes().first()
        {
            let mut set = ByteSet::default();
            set.insert_range(b, b);
            return set;
        }
        let a = self.automaton();
        let live = a.useful();
        let mut set = ByteSet::default();
        for e in a.edges(a.start).iter().filter(|e| live[e.to as usize]) {
            set.insert_range(e.lo, e.hi);
        }
        set
    }
}

impl Shape {
    /// The bytes that can follow a whole value of this shape inside a longer
    /// value of the same shape (`4` after `2` for an `int`: `2` and `24`).
    /// Empty exactly when no value is a proper prefix of another.
    pub fn extension_bytes(&self) -> ByteSet {
        thread_local! {
            // Asked per ranged or ordered pattern, of a handful of shapes.
            static KNOWN: std::cell::RefCell<Vec<(Shape, ByteSet)>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        if let Some(set) = KNOWN.with(|k| k.borrow().iter().find(|(s, _)| s == self).map(|(_, b)| *b)) {
            return set;
        }
        let set = self.compute_extension_bytes();
        KNOWN.with(|k| {
            let mut known = k.borrow_mut();
            if known.len() < 64 {
                known.push((self.clone(), set));
            }
        });
        set
    }

    /// Every byte a value of this shape can contain.
    pub fn bytes(&self) -> ByteSet {
        thread_local! {
            static KNOWN: std::cell::RefCell<Vec<(Shape, ByteSet)>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        if let Some(set) = KNOWN.with(|k| k.borrow().iter().find(|(s, _)| s == self).map(|(_, b)| *b)) {
            return set;
        }
        let a = Template::new(vec![Part::Hole(self.clone())]).compile();
        let live = a.useful();
        let mut set = ByteSet::default();
        for state in 0..a.state_count() as u32 {
            for e in a.edges(state).iter().filter(|e| live[e.to as usize]) {
                set.insert_range(e.lo, e.hi);
            }
        }
        KNOWN.with(|k| {
            let mut known = k.borrow_mut();
            if known.len() < 64 {
                known.push((self.clone(), set));
            }
        });
        set
    }

    fn compute_extension_bytes(&self) -> ByteSet {
        let a = Template::new(vec![Part::Hole(self.clone())]).compile();
        let live = a.useful();
        // Pairs of states reached by one string: when the first has accepted,
        // the second's live edges continue that string into a longer value.
        let mut seen = std::collections::HashSet::new();
        let mut stack = vec![(a.start, a.start)];
        seen.insert((a.start, a.start));
        let mut set = ByteSet::default();
        while let Some((p, q)) = stack.pop() {
            if a.is_accepting(p) {
                for e in a.edges(q).iter().filter(|e| live[e.to as usize]) {
                    set.insert_range(e.lo, e.hi);
                }
            }
            for e in a.edges(p).iter().filter(|e| live[e.to as usize]) {
                for f in a.edges(q).iter().filter(|f| live[f.to as usize]) {
                    if e.lo.max(f.lo) <= e.hi.min(f.hi) && seen.insert((e.to, f.to)) {
                        stack.push((e.to, f.to));
                    }
                }
            }
        }
        set
    }
}

/// A set of bytes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ByteSet([u64; 4]);

impl ByteSet {
    pub fn insert_range(&mut self, lo: u8, hi: u8) {
        for b in lo..=hi {
            self.0[b as usize / 64] |= 1 << (b % 64);
        }
    }

    pub fn contains(&self, b: u8) -> bool {
        self.0[b as usize / 64] & (1 << (b % 64)) != 0
    }

    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    pub fn min(&self) -> Option<u8> {
        (0..=255u8).find(|&b| self.contains(b))
    }

    pub fn max(&self) -> Option<u8> {
        (0..=255u8).rev().find(|&b| self.contains(b))
    }

    pub fn intersects(&self, other: &ByteSet) -> bool {
        self.0.iter().zip(&other.0).any(|(a, b)| a & b != 0)
    }
}
