//! Checks of one set of files take turns, the earliest revision first.
//!
//! A check starts from the check an edit made stale (`check::check_after`)
//! and takes it. Two checks of the same files side by side would leave the
//! second nothing to start from: it would check from scratch, holding a
//! whole analysis, and under fast typing in a large file such checks piled
//! up (docs/performance.md). In turns, each starts from the one before it;
//! earliest first, so that a check of a revision an edit has already
//! superseded (a request pinned to it) starts from its predecessor and
//! leaves itself to its successor, instead of finding nothing left.

use std::collections::BTreeMap;
use std::sync::{Condvar, Mutex, PoisonError};

#[derive(Default)]
pub(super) struct Turns {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Default)]
struct State {
    /// A check holds the turn.
    busy: bool,
    /// How many callers wait, by revision.
    waiting: BTreeMap<u64, usize>,
}

/// Held while a check runs; the next one goes when it is dropped (also
/// when the check panicked).
pub(super) struct Turn<'a> {
    turns: &'a Turns,
}

impl Turns {
    /// Waits until no check runs and none of an earlier revision waits.
    pub(super) fn take(&self, revision: u64) -> Turn<'_> {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        *state.waiting.entry(revision).or_default() += 1;
        while state.busy || state.waiting.keys().next() != Some(&revision) {
            state = self.changed.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        if let Some(count) = state.waiting.get_mut(&revision) {
            *count -= 1;
            if *count == 0 {
                state.waiting.remove(&revision);
            }
        }
        state.busy = true;
        Turn { turns: self }
    }
}

impl Drop for Turn<'_> {
    fn drop(&mut self) {
        self.turns.state.lock().unwrap_or_else(PoisonError::into_inner).busy = false;
        self.turns.changed.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_earliest_revision_waiting_goes_first() {
        let turns = Arc::new(Turns::default());
        let held = turns.take(1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let waiters: Vec<_> = [5, 3, 4]
            .into_iter()
            .map(|revision| {
                let (waiting, order) = (turns.clone(), order.clone());
                let waiter = std::thread::spawn(move || {
                    let _turn = waiting.take(revision);
                    order.lock().unwrap().push(revision);
                });
                // Each is waiting before the next comes.
                while !turns.state.lock().unwrap().waiting.contains_key(&revision) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                waiter
            })
            .collect();
        drop(held);
        for waiter in waiters {
            waiter.join().unwrap();
        }
        assert_eq!(*order.lock().unwrap(), [3, 4, 5]);
    }

    #[test]
    fn a_panic_in_a_turn_passes_it_on() {
        let turns = Arc::new(Turns::default());
        let panicking = turns.clone();
        let result = std::thread::spawn(move || {
            let _turn = panicking.take(1);
            panic!("a check that failed");
        })
        .join();
        assert!(result.is_err());
        drop(turns.take(2));
    }
}
