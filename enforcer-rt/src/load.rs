//! Whether other processes hold the machine's cores, for the enforcer's waiting policy
//! ([`crate::enforcer`], "Waiting"). Seed 002 measures its schedules on an otherwise idle
//! machine; a deployment shares the machine. A thread that waits for its turn by yielding
//! hands its core to whatever else is runnable: another thread of the program, which is what
//! the yield is for, or another process, which then keeps the core for a whole time slice
//! (milliseconds, where a turn takes microseconds). With every core busy with other processes,
//! the 2+2 producer-consumer ran at 1% of its unconstrained throughput that way; parking at
//! once, so that the thread whose turn comes is woken as a sleeper (which the kernel runs
//! soon), gave a third of it.
//!
//! The sign is the number of runnable tasks of the whole machine, the fourth field of
//! `/proc/loadavg` (`running/total`), less the program's own awake threads: when the others
//! alone are at least as many as the cores, they hold the cores. It is read at most once per
//! [`SAMPLE`] by whichever waiting thread finds the last reading old, and never on the
//! fast path. Where `/proc/loadavg` cannot be read, the cores count as free. (The reading
//! only decides how a thread waits, never whether: the schedule is followed either way.)

use std::io::Read;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

/// How often, at most, the machine's runnable tasks are counted.
pub const SAMPLE: Duration = Duration::from_millis(10);

/// The latest reading of the machine's load.
pub(crate) struct Load {
    start: Instant,
    /// When the last reading was taken, in microseconds since `start`.
    sampled: AtomicU64,
    /// Whether other processes held every core at the last reading.
    taken: AtomicBool,
}

impl Load {
    pub fn new() -> Self {
        Load {
            start: Instant::now(),
            sampled: AtomicU64::new(0),
            taken: AtomicBool::new(false),
        }
    }

    /// Whether other processes held every core at the last reading (no new reading).
    pub fn was_taken(&self) -> bool {
        self.taken.load(Relaxed)
    }

    /// Whether other processes hold all `cores` cores, with `ours` of the program's threads
    /// runnable: the last reading, taken again first when it is older than [`SAMPLE`].
    pub fn cores_taken(&self, ours: u32, cores: u32) -> bool {
        let now = u64::try_from(self.start.elapsed().as_micros()).unwrap_or(u64::MAX);
        let last = self.sampled.load(Relaxed);
        if now.saturating_sub(last) >= SAMPLE.as_micros() as u64
            && self
                .sampled
                .compare_exchange(last, now, Relaxed, Relaxed)
                .is_ok()
        {
            if let Some(running) = runnable_tasks() {
                self.taken
                    .store(running.saturating_sub(ours) >= cores, Relaxed);
            }
        }
        self.taken.load(Relaxed)
    }
}

/// The machine's runnable tasks now, from `/proc/loadavg` (read into a buffer on the stack).
fn runnable_tasks() -> Option<u32> {
    let mut buf = [0u8; 128];
    let n = std::fs::File::open("/proc/loadavg")
        .ok()?
        .read(&mut buf)
        .ok()?;
    parse_loadavg(std::str::from_utf8(&buf[..n]).ok()?)
}

/// The runnable tasks of a `/proc/loadavg` line (`0.50 0.40 0.30 3/150 1234`: 3).
fn parse_loadavg(line: &str) -> Option<u32> {
    line.split_whitespace()
        .nth(3)?
        .split_once('/')?
        .0
        .parse()
        .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runnable_tasks_are_the_fourth_fields_numerator() {
        assert_eq!(parse_loadavg("1.63 2.05 1.95 3/76 1705\n"), Some(3));
        assert_eq!(parse_loadavg("0.00 0.00 0.00 12/1500 99"), Some(12));
        assert_eq!(parse_loadavg("1.63 2.05 1.95"), None);
        assert_eq!(parse_loadavg("1.63 2.05 1.95 x/76 1705"), None);
        assert_eq!(parse_loadavg(""), None);
    }

    /// Threads outside the program that keep every core busy are seen (on Linux, where
    /// `/proc/loadavg` exists).
    #[test]
    fn busy_threads_on_every_core_take_the_cores() {
        if runnable_tasks().is_none() {
            return;
        }
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let stop = AtomicBool::new(false);
        let load = Load::new();
        let seen = std::thread::scope(|s| {
            for _ in 0..cores {
                s.spawn(|| {
                    while !stop.load(Relaxed) {
                        std::hint::spin_loop();
                    }
                });
            }
            // (Each reading is fresh: the first at once, the others a sample apart.)
            let seen = (0..50).any(|_| {
                let taken = load.cores_taken(0, cores);
                std::thread::sleep(SAMPLE);
                taken
            });
            stop.store(true, Relaxed);
            seen
        });
        assert!(seen, "{cores} busy threads were not seen");
    }
}
