//! Does a key condition pin an attribute? Given an item's key template and
//! the value a key condition compares it with (equal to it, or a prefix of
//! it), is every item the condition matches one whose known attributes have
//! exactly the values the caller gave?
//!
//! Both sides are run together over the same bytes, each state tagged with
//! the part that wrote the byte (see [`Tagged`]). A known attribute is pinned
//! when, on every accepted run, its hole in the item is read exactly where
//! the caller's value for it is read in the condition (the same bytes, so the
//! same value), or — for a value fixed in the pattern (`status = open`) —
//! when the hole reads exactly that text. Any accepted run that breaks this
//! is a key the condition matches while the attribute differs: the witness.
//!
//! Holes are independent within one side (an attribute used twice in one
//! template is two values here): that can only find a run that the shared
//! value forbids, so it over-reports, never under-reports.

use crate::check::fxhash::FxHashSet;

use super::Automaton;
use super::product::{LEAST_READABLE, pick};
use super::{Part, Template};

/// What a part of a template or condition value stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Literal text, or a hole or value no rule is about.
    Other,
    /// The `ord`-th occurrence of variable `var` in this template or value.
    Var { var: u32, ord: u32 },
}

/// How the pattern binds a variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// Bound to nothing (not known).
    Free,
    /// The caller's value: the item's hole must align with the condition's
    /// value for the same variable.
    Param,
    /// Fixed to this text by the pattern.
    Fixed(String),
}

/// A key the condition matches although a known attribute differs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unpinned {
    pub var: u32,
    /// The item's key value on that run.
    pub witness: String,
    /// The condition's value on that run (the prefix the witness begins
    /// with, for a prefix condition).
    pub condition: String,
}

const TAIL: u32 = u32::MAX;
const NO_TRACK: u16 = u16::MAX - 1;
const MISMATCH: u16 = u16::MAX;

/// Whether `condition` (followed by anything when `prefix`) pins every bound
/// variable of `item`; the first run that does not, when one exists.
/// `bindings[var]` says how each variable is bound (missing: free).
pub fn unpinned(
    item: (&Template, &[Role]),
    condition: (&Template, &[Role]),
    prefix: bool,
    bindings: &[Binding],
) -> Option<Unpinned> {
    let (item_template, item_roles) = item;
    let (query_template, query_roles) = condition;
    let binding = |var: u32| bindings.get(var as usize).unwrap_or(&Binding::Free);
    if delimited_alike(item, condition, prefix, &binding) {
        return None;
    }
    let it = item_template.tagged();
    let qt = query_template.tagged();
    let item_role = |s: u32| it.part_of(s).map_or(Role::Other, |p| item_roles[p]);
    let query_role = |s: u32| {
        if s == TAIL {
            None
        } else {
            Some(qt.part_of(s).map_or(Role::Other, |p| query_roles[p]))
        }
    };
    // The rule broken by being at (item state, condition state), if any.
    let broken = |t: u32, q: u32| -> Option<u32> {
        let (ir, qr) = (item_role(t), query_role(q));
        if let Role::Var { var, .. } = ir {
            match binding(var) {
                Binding::Param if qr != Some(ir) => return Some(var),
                Binding::Fixed(_) if qr.is_none() => return Some(var),
                _ => {}
            }
        }
        if let Some(Role::Var { var, .. }) = qr
            && binding(var) == &Binding::Param
            && qr != Some(ir)
        {
            return Some(var);
        }
        None
    };
    let fixed_text = |t: u32| match item_role(t) {
        Role::Var { var, .. } => match binding(var) {
            Binding::Fixed(text) => Some((var, text.as_bytes())),
            _ => None,
        },
        Role::Other => None,
    };
    let ia = &it.automaton;
    let qa = &qt.automaton;
    let q_accepts = |q: u32| q == TAIL || qa.is_accepting(q);

    // Node: (item state, condition state, fixed-text position, broken var + 1).
    type Node = (u32, u32, u16, u32);
    let mut nodes: Vec<Node> = Vec::new();
    let mut parents: Vec<(u32, u8)> = Vec::new();
    let mut seen: FxHashSet<Node> = FxHashSet::default();
    let start = (ia.start, qa.start, NO_TRACK, 0);
    nodes.push(start);
    parents.push((u32::MAX, 0));
    seen.insert(start);
    let mut queries: Vec<(u32, u8, u8)> = Vec::new();
    let mut head = 0;
    while head < nodes.len() {
        let (t, q, pos, bad) = nodes[head];
        // Accepting with a broken rule, or a fixed hole that ends short or wrong.
        if ia.is_accepting(t) && q_accepts(q) {
            let fixed_bad = fixed_text(t).and_then(|(var, text)| (pos as usize != text.len()).then_some(var));
            let var = if bad > 0 { Some(bad - 1) } else { fixed_bad };
            if let Some(var) = var {
                let steps = path(&parents, head);
                let witness: Vec<u8> = steps.iter().map(|&(b, _)| b).collect();
                // The condition's bytes end where its run entered the tail.
                let read = steps.iter().take_while(|&&(_, n)| nodes[n].1 != TAIL).count();
                return Some(Unpinned {
                    var,
                    witness: String::from_utf8_lossy(&witness).into_owned(),
                    condition: String::from_utf8_lossy(&witness[..read]).into_owned(),
                });
            }
        }
        condition_moves(qa, q, prefix, &mut queries);
        // Readable bytes first, so that the witness reads well.
        let edges = ia.edges(t);
        let by_rank = (0..=LEAST_READABLE).flat_map(|r| edges.iter().filter(move |e| pick(e.lo, e.hi).1 == r));
        for e in by_rank {
            for &(q2, lo, hi) in &queries {
                let (lo, hi) = (lo.max(e.lo), hi.min(e.hi));
                if lo > hi {
                    continue;
                }
                let t2 = e.to;
                let entering = it.part_of(t2) != it.part_of(t);
                // Leaving a fixed hole that did not read exactly its text.
                let mut bad2 = bad;
                if bad2 == 0
                    && entering
                    && let Some((var, text)) = fixed_text(t)
                    && pos as usize != text.len()
                {
                    bad2 = var + 1;
                }
                if bad2 == 0
                    && let Some(var) = broken(t2, q2)
                {
                    bad2 = var + 1;
                }
                let start_pos = if entering { 0 } else { pos };
                let mut push = |byte: u8, pos2: u16, nodes: &mut Vec<Node>, parents: &mut Vec<(u32, u8)>| {
                    let node = (t2, q2, pos2, bad2);
                    if seen.insert(node) {
                        nodes.push(node);
                        parents.push((head as u32, byte));
                    }
                };
                match fixed_text(t2) {
                    None => push(pick(lo, hi).0, NO_TRACK, &mut nodes, &mut parents),
                    Some((_, text)) => {
                        let want = match start_pos {
                            MISMATCH | NO_TRACK => None,
                            p => text.get(p as usize).copied(),
                        };
                        match want {
                            Some(w) if (lo..=hi).contains(&w) => {
                                push(w, start_pos + 1, &mut nodes, &mut parents);
                                if let Some(other) = (lo..=hi).find(|&b| b != w) {
                                    push(other, MISMATCH, &mut nodes, &mut parents);
                                }
                            }
                            _ => push(pick(lo, hi).0, MISMATCH, &mut nodes, &mut parents),
                        }
                    }
                }
            }
        }
        head += 1;
    }
    None
}

/// The common case, decided without a search: the condition is the item's
/// template (or its beginning) part for part, the caller's values where the
/// item's holes are, and every hole ends where a literal begins with a byte
/// the hole cannot read (or at the end of the value). Then both split any
/// key the same way, so every hole reads the caller's value; what follows a
/// prefix holds no bound value.
fn delimited_alike<'b>(
    (item, item_roles): (&Template, &[Role]),
    (query, query_roles): (&Template, &[Role]),
    prefix: bool,
    binding: &impl Fn(u32) -> &'b Binding,
) -> bool {
    let n = query.parts.len();
    if n > item.parts.len() || (!prefix && n != item.parts.len()) {
        return false;
    }
    if item.parts[..n] != query.parts[..n] || item_roles[..n] != query_roles[..n] {
        return false;
    }
    // No bound value after the condition ends.
    let bound = |role: &Role| matches!(role, Role::Var { var, .. } if *binding(*var) != Binding::Free);
    if item_roles[n..].iter().any(bound) {
        return false;
    }
    (0..n).all(|i| match &item.parts[i] {
        Part::Literal(_) => true,
        Part::Hole(_) => match item.parts.get(i + 1) {
            // Ends the value, and the condition with it (an equality).
            None => !prefix,
            // A prefix condition that stops right after the hole leaves
            // longer values of it to match.
            Some(_) if i + 1 == n && prefix => false,
            Some(Part::Literal(text)) => match (&item.parts[i], text.as_bytes().first()) {
                (Part::Hole(shape), Some(&c)) => !shape.bytes().contains(c),
                _ => false,
            },
            Some(Part::Hole(_)) => false,
        },
    })
}

/// Where the condition can go from `q` on one byte: its edges and, once its
/// value is read (for a prefix condition), the tail that reads anything.
fn condition_moves(qa: &Automaton, q: u32, prefix: bool, out: &mut Vec<(u32, u8, u8)>) {
    out.clear();
    if q == TAIL {
        out.push((TAIL, 0, 255));
        return;
    }
    out.extend(qa.edges(q).iter().map(|e| (e.to, e.lo, e.hi)));
    if prefix && qa.is_accepting(q) {
        out.push((TAIL, 0, 255));
    }
}

/// The bytes from the start to `node`, each with the node it led to.
fn path(parents: &[(u32, u8)], mut node: usize) -> Vec<(u8, usize)> {
    let mut out = Vec::new();
    while parents[node].0 != u32::MAX {
        out.push((parents[node].1, node));
        node = parents[node].0 as usize;
    }
    out.reverse();
    out
}

/// Whether some key of `item` meets `condition` (followed by anything when
/// `prefix`) when each variable `tied[var]` has one value on both sides: a
/// run on which the item's hole and the condition's value for such a
/// variable start on the same byte but end on different ones reads two
/// different values, so it is no match. (Holes that start apart are not
/// compared: that can only keep a match that the shared value forbids.)
pub fn can_match(item: (&Template, &[Role]), condition: (&Template, &[Role]), prefix: bool, tied: &[bool]) -> bool {
    let (item_template, item_roles) = item;
    let (query_template, query_roles) = condition;
    // The condition is the item's template (or its beginning) part for part:
    // the item with the caller's values is a match.
    let n = query_template.parts.len();
    if n <= item_template.parts.len()
        && (prefix || n == item_template.parts.len())
        && item_template.parts[..n] == query_template.parts[..]
        && item_roles[..n] == query_roles[..]
    {
        return true;
    }
    let it = item_template.tagged();
    let qt = query_template.tagged();
    let ia = &it.automaton;
    let qa = &qt.automaton;
    let tied_var = |role: Role| match role {
        Role::Var { var, .. } if tied.get(var as usize).copied().unwrap_or(false) => Some(var),
        _ => None,
    };
    let item_part = |s: u32| it.part_of(s);
    let query_part = |s: u32| if s == TAIL { Some(usize::MAX) } else { qt.part_of(s) };
    let item_role = |s: u32| item_part(s).map_or(Role::Other, |p| item_roles[p]);
    let query_role = |s: u32| match query_part(s) {
        Some(usize::MAX) | None => Role::Other,
        Some(p) => query_roles[p],
    };
    // Node: (item state, condition state, the tied variable both are reading + 1).
    let start = (ia.start, qa.start, 0u32);
    let mut seen: FxHashSet<(u32, u32, u32)> = FxHashSet::default();
    seen.insert(start);
    let mut stack = vec![start];
    let mut queries: Vec<(u32, u8, u8)> = Vec::new();
    while let Some((t, q, inside)) = stack.pop() {
        if ia.is_accepting(t) && (q == TAIL || qa.is_accepting(q)) {
            return true;
        }
        condition_moves(qa, q, prefix, &mut queries);
        for e in ia.edges(t) {
            for &(q2, lo, hi) in &queries {
                if lo.max(e.lo) > hi.min(e.hi) {
                    continue;
                }
                let (ir, qr) = (item_role(e.to), query_role(q2));
                let item_stays = item_part(e.to) == item_part(t);
                let query_stays = query_part(q2) == query_part(q);
                let next = if inside > 0 {
                    match (item_stays, query_stays) {
                        (true, true) => inside,
                        (false, false) => entered(tied_var(ir), tied_var(qr)),
                        // One value ends before the other: two values.
                        _ => continue,
                    }
                } else if !item_stays && !query_stays {
                    entered(tied_var(ir), tied_var(qr))
                } else {
                    0
                };
                let node = (e.to, q2, next);
                if seen.insert(node) {
                    stack.push(node);
                }
            }
        }
    }
    false
}

/// Both sides start reading the same tied variable on this byte.
fn entered(item: Option<u32>, query: Option<u32>) -> u32 {
    match (item, query) {
        (Some(a), Some(b)) if a == b => a + 1,
        _ => 0,
    }
}
