//! Work spread over the machine's cores on a large schema: the parser's
//! items, the checker's patterns (and the model lints, which need no
//! pattern) are independent of each other. Results are put back in the
//! order a single thread gives, so the diagnostics are the same either way.

use std::num::NonZeroUsize;
use std::sync::OnceLock;

/// Below this many patterns and entities, starting threads costs more than
/// it saves (a thread start is tens of microseconds; resolving a pattern,
/// a few).
const MIN_ITEMS: usize = 512;

/// At most this many threads: the passes are short.
const MAX_THREADS: usize = 4;

/// How many threads a schema of `items` patterns and entities gets: one
/// when it is small, else the machine's cores up to four — or what the
/// environment variable `DYNO_THREADS` says (`1` keeps the parser and the
/// checker on the calling thread, as on a shared machine or to compare with
/// one core).
pub fn worth_it(items: usize) -> usize {
    if items < MIN_ITEMS {
        return 1;
    }
    static CHOSEN: OnceLock<usize> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        let cores = std::thread::available_parallelism().map_or(1, NonZeroUsize::get);
        match std::env::var("DYNO_THREADS")
            .ok()
            .and_then(|n| n.trim().parse::<usize>().ok())
        {
            Some(n) => n.max(1),
            None => cores.min(MAX_THREADS),
        }
    })
}

/// glibc's malloc gives threads that allocate their own arenas (up to 8 per
/// core), and memory freed into one arena is not reused by the others:
/// analyses made on the language server's blocking threads in turn kept
/// several times the memory one analysis needs, and `dyno check` of a 10 MB
/// schema peaked at 281 MB on two threads against 251 on one. Two arenas
/// take most of that back without slowing the work; one made it slower
/// (docs/performance.md). Called before any other thread exists.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
pub fn limit_malloc_arenas() {
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    const M_ARENA_MAX: i32 = -8;
    // SAFETY: `mallopt` only sets a tuning parameter of glibc's allocator,
    // here before any other thread exists.
    unsafe {
        mallopt(M_ARENA_MAX, 2);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn limit_malloc_arenas() {}

/// `a()` and `b()`, at once when `threads` > 1.
pub fn join<A: Send, B: Send>(threads: usize, a: impl FnOnce() -> A + Send, b: impl FnOnce() -> B + Send) -> (A, B) {
    if threads <= 1 {
        return (a(), b());
    }
    std::thread::scope(|scope| {
        let b = scope.spawn(b);
        let a = a();
        (a, b.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
    })
}

/// `f` over every element, in order, in up to `threads` contiguous runs at
/// once; each run also collects what `f` pushes into its own list, and the
/// lists are appended to `out` in order.
///
/// Each run writes its results into its own stretch of the one list
/// returned: results gathered per run and then appended would be the list
/// twice over at its largest (13 MB each at 40,000 Queries).
pub fn map<T: Sync, R: Send, D: Send>(
    threads: usize,
    items: &[T],
    out: &mut Vec<D>,
    f: impl Fn(&T, &mut Vec<D>) -> R + Sync,
) -> Vec<R> {
    if threads <= 1 || items.len() < 2 {
        return items.iter().map(|item| f(item, out)).collect();
    }
    let run = items.len().div_ceil(threads);
    let mut results: Vec<Option<R>> = std::iter::repeat_with(|| None).take(items.len()).collect();
    let f = &f;
    let jobs = (items.chunks(run).zip(results.chunks_mut(run))).map(|(run, slots)| {
        move || {
            let mut pushed = Vec::new();
            for (item, slot) in run.iter().zip(slots) {
                *slot = Some(f(item, &mut pushed));
            }
            pushed
        }
    });
    for pushed in all_at_once(jobs) {
        out.extend(pushed);
    }
    // Into the same buffer: std collects a map over a vector where it lies.
    results
        .into_iter()
        .map(|result| result.expect("every run fills its stretch"))
        .collect()
}

/// `f` over up to `threads` contiguous runs of `items` at once (for work
/// that sets something up once per run), its results in the runs' order.
pub fn runs<T: Sync, O: Send>(threads: usize, items: &[T], f: impl Fn(&[T]) -> O + Sync) -> Vec<O> {
    if threads <= 1 || items.len() < 2 {
        return vec![f(items)];
    }
    let run = items.len().div_ceil(threads);
    let f = &f;
    all_at_once(items.chunks(run).map(|run| move || f(run)))
}

/// Each job on a thread of its own, their results in the jobs' order; a
/// job's panic goes on in the caller.
fn all_at_once<O: Send, J: FnOnce() -> O + Send>(jobs: impl Iterator<Item = J>) -> Vec<O> {
    std::thread::scope(|scope| {
        let running: Vec<_> = jobs.map(|job| scope.spawn(job)).collect();
        running
            .into_iter()
            .map(|job| job.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_and_pushes_keep_the_sequential_order() {
        let items: Vec<u32> = (0..1000).collect();
        let f = |n: &u32, out: &mut Vec<u32>| {
            if n.is_multiple_of(7) {
                out.push(*n);
            }
            n * 2
        };
        let mut sequential = Vec::new();
        let expected = map(1, &items, &mut sequential, f);
        for threads in 2..=5 {
            let mut pushed = Vec::new();
            assert_eq!(map(threads, &items, &mut pushed, f), expected);
            assert_eq!(pushed, sequential);
        }
        assert_eq!(join(2, || 1, || 2), (1, 2));
    }
}
