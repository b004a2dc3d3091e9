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
//! [`SAMPLE`] by whichever waiting thread finds the last reading old (the first wait reads it
//! at once), and never on the fast path. The count covers the whole machine, so it is used only
//! where the program may run on every online core (`/sys/devices/system/cpu/online`): under
//! an affinity mask or a CPU quota (a container on a larger host), busy cores elsewhere would
//! look like ours. Where either file cannot be read, or reads as no runnable task at all (a
//! sandbox that fakes it: the reading thread itself runs), the cores count as free for the
//! rest of the run. (The reading only decides how a thread waits, never whether: the
//! schedule is followed either way.)

use std::io::Read;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::time::{Duration, Instant};

/// How often, at most, the machine's runnable tasks are counted.
pub const SAMPLE: Duration = Duration::from_millis(10);

/// No reading yet (in [`Load::sampled`]).
const NEVER: u64 = u64::MAX;

/// The latest reading of the machine's load.
pub(crate) struct Load {
    start: Instant,
    /// When the last reading was taken, in microseconds since `start`, or [`NEVER`].
    sampled: AtomicU64,
    /// Whether the reading means anything here (see the module docs); cleared when a reading
    /// fails.
    usable: AtomicBool,
    /// Whether other processes held every core at the last reading.
    taken: AtomicBool,
    /// The cores the program may run on.
    cores: u32,
}

impl Load {
    /// The reading for a program that may run on `cores` cores.
    pub fn new(cores: u32) -> Self {
        Load {
            start: Instant::now(),
            sampled: AtomicU64::new(NEVER),
            usable: AtomicBool::new(online_cpus() == Some(cores)),
            taken: AtomicBool::new(false),
            cores,
        }
    }

    /// Whether other processes held every core at the last reading (no new reading).
    pub fn was_taken(&self) -> bool {
        self.taken.load(Relaxed)
    }

    /// Whether other processes hold all the program's cores, with `ours` of its threads
    /// runnable: the last reading, taken again first when it is older than [`SAMPLE`].
    pub fn cores_taken(&self, ours: u32) -> bool {
        if !self.usable.load(Relaxed) {
            return false;
        }
        let now = u64::try_from(self.start.elapsed().as_micros()).unwrap_or(NEVER - 1);
        let last = self.sampled.load(Relaxed);
        if (last == NEVER || now.saturating_sub(last) >= SAMPLE.as_micros() as u64)
            && self
                .sampled
                .compare_exchange(last, now, Relaxed, Relaxed)
                .is_ok()
        {
            match runnable_tasks() {
                Some(running) => self
                    .taken
                    .store(running.saturating_sub(ours) >= self.cores, Relaxed),
                None => {
                    self.usable.store(false, Relaxed);
                    self.taken.store(false, Relaxed);
                }
            }
        }
        self.taken.load(Relaxed)
    }
}

/// Reads a small file of `/proc` or `/sys` into `buf` (on the stack: no allocation).
fn read_small<'a>(path: &str, buf: &'a mut [u8; 128]) -> Option<&'a str> {
    let n = std::fs::File::open(path).ok()?.read(buf).ok()?;
    std::str::from_utf8(&buf[..n]).ok()
}

/// The machine's runnable tasks now, from `/proc/loadavg`.
fn runnable_tasks() -> Option<u32> {
    parse_loadavg(read_small("/proc/loadavg", &mut [0; 128])?)
}

/// The runnable tasks of a `/proc/loadavg` line (`0.50 0.40 0.30 3/150 1234`: 3); none for
/// 0, which no real reading gives (the reading thread runs).
fn parse_loadavg(line: &str) -> Option<u32> {
    let running: u32 = line
        .split_whitespace()
        .nth(3)?
        .split_once('/')?
        .0
        .parse()
        .ok()?;
    (running > 0).then_some(running)
}

/// The machine's online CPUs, from `/sys/devices/system/cpu/online`.
fn online_cpus() -> Option<u32> {
    parse_cpu_list(read_small("/sys/devices/system/cpu/online", &mut [0; 128])?)
}

/// The number of CPUs in a kernel CPU list (`0-3,6,8-9`: 7).
fn parse_cpu_list(list: &str) -> Option<u32> {
    let mut n = 0u32;
    for part in list.trim().split(',') {
        n += match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
                b.checked_sub(a)? + 1
            }
            None => {
                part.parse::<u32>().ok()?;
                1
            }
        };
    }
    (n > 0).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_runnable_tasks_are_the_fourth_fields_numerator() {
        assert_eq!(parse_loadavg("1.63 2.05 1.95 3/76 1705\n"), Some(3));
        assert_eq!(parse_loadavg("0.00 0.00 0.00 12/1500 99"), Some(12));
        // (A sandbox's fake file.)
        assert_eq!(parse_loadavg("0.00 0.00 0.00 0/0 0"), None);
        assert_eq!(parse_loadavg("1.63 2.05 1.95"), None);
        assert_eq!(parse_loadavg("1.63 2.05 1.95 x/76 1705"), None);
        assert_eq!(parse_loadavg(""), None);
    }

    #[test]
    fn cpu_lists_are_counted() {
        assert_eq!(parse_cpu_list("0-1\n"), Some(2));
        assert_eq!(parse_cpu_list("0"), Some(1));
        assert_eq!(parse_cpu_list("0-3,6,8-9"), Some(7));
        assert_eq!(parse_cpu_list("3-1"), None);
        assert_eq!(parse_cpu_list(""), None);
        assert_eq!(parse_cpu_list("a-b"), None);
    }

    /// Without a usable reading (another core count than the machine's), nothing is taken.
    #[test]
    fn a_reading_for_fewer_cores_than_the_machine_has_is_not_used() {
        let load = Load::new(u32::MAX);
        assert!(!load.cores_taken(0));
    }

    /// Threads outside the program that keep every core busy are seen, at the first reading
    /// (on Linux, where `/proc/loadavg` counts them and the process may use every core).
    #[test]
    fn busy_threads_on_every_core_take_the_cores() {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get()) as u32;
        let load = Load::new(cores);
        if runnable_tasks().is_none() || !load.usable.load(Relaxed) {
            return;
        }
        let stop = AtomicBool::new(false);
        let seen = std::thread::scope(|s| {
            for _ in 0..cores {
                s.spawn(|| {
                    while !stop.load(Relaxed) {
                        std::hint::spin_loop();
                    }
                });
            }
            // (The busy threads and the reading one: at least cores + 1 runnable tasks, once
            // the busy ones have started; each further reading a sample later.)
            let seen = (0..50).any(|_| {
                let taken = load.cores_taken(0);
                std::thread::sleep(SAMPLE);
                taken
            });
            stop.store(true, Relaxed);
            seen
        });
        assert!(seen, "{cores} busy threads were not seen");
    }
}
