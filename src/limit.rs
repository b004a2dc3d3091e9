//! The time limit of a command, kept whatever the solver does.
//!
//! The engines stop themselves at `--timeout`: every search step and every solver query is
//! given the time left. Z3 stops at its own timeout only where it polls for it, and some of
//! its preprocessing of a very large formula does not (the path formula of a long loop replayed
//! for a counterexample ran a minute past a five-second limit). So the command runs on a
//! thread of its own ([`supervise`]) while the main thread keeps the limit: a phase that must
//! end by an instant arms an alarm ([`arm`]) with what to print if it does not; past that
//! instant the main thread prints it and the process ends with its exit code, leaving the
//! stuck thread behind. The command disarms before it prints a verdict of its own, and cannot
//! once the alarm has gone off, so one verdict is printed. Output is written in whole lines
//! (and files by renaming), so what the command printed before stays intact.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// How long past the limit a phase may run before the alarm goes off: the engines' own
/// deadline ends them earlier, and "within a second" is what a user is promised.
pub(crate) const GRACE: Duration = Duration::from_millis(600);

/// The reason of the verdict `unknown` an alarm prints, for a limit of `secs` seconds.
pub(crate) fn stopped(secs: u64) -> String {
    format!("timeout after {secs} s; the run was stopped at the limit")
}

/// The stack of the command's thread (the main thread's usual 8 MiB would do; the spare room
/// costs only address space).
const STACK: usize = 64 << 20;

/// What to do when an alarm goes off: print the verdict the command ends with, and return its
/// exit code.
type Expiry = Box<dyn FnOnce() -> u8 + Send>;

#[derive(Default)]
struct State {
    /// The command's result, once it has ended.
    done: Option<anyhow::Result<u8>>,
    /// The armed alarm: its instant, its action and the number of the arming.
    alarm: Option<(Instant, Expiry, u64)>,
    armings: u64,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);
static WAKE: Condvar = Condvar::new();

fn state() -> MutexGuard<'static, Option<State>> {
    STATE.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `command` on a thread of its own and returns its result; where an alarm goes off first,
/// the process ends there with the alarm's exit code. A panic of the command is resumed here.
pub(crate) fn supervise<F>(command: F) -> anyhow::Result<u8>
where
    F: FnOnce() -> anyhow::Result<u8> + Send + 'static,
{
    *state() = Some(State::default());
    let worker = std::thread::Builder::new()
        .name("synth".into())
        .stack_size(STACK)
        .spawn(move || {
            // (Set on the way out of a panic too: the guard's drop reports it.)
            struct Report(Option<anyhow::Result<u8>>);
            impl Drop for Report {
                fn drop(&mut self) {
                    let r = self
                        .0
                        .take()
                        .unwrap_or_else(|| Err(anyhow::anyhow!("the command panicked")));
                    if let Some(s) = state().as_mut() {
                        s.done = Some(r);
                    }
                    WAKE.notify_all();
                }
            }
            let mut report = Report(None);
            report.0 = Some(command());
        });
    let worker = match worker {
        Ok(w) => w,
        Err(e) => return Err(anyhow::anyhow!("cannot start the command's thread: {e}")),
    };
    let mut guard = state();
    loop {
        let s = guard.as_mut().expect("set above");
        if s.done.is_some() {
            let r = s.done.take().expect("checked");
            drop(guard);
            // (The thread ends right after reporting; a panic is shown as the panic it was.)
            if let Err(panic) = worker.join() {
                std::panic::resume_unwind(panic);
            }
            return r;
        }
        let now = Instant::now();
        guard = match &s.alarm {
            Some((at, _, _)) if *at <= now => {
                // Held locked to the end: the command cannot disarm and go on to print a
                // verdict of its own (it waits in `Alarm::drop` until the process ends).
                let (_, expiry, _) = s.alarm.take().expect("checked");
                let code = expiry();
                use std::io::Write;
                let _ = std::io::stdout().flush();
                std::process::exit(code.into());
            }
            Some((at, _, _)) => {
                let wait = *at - now;
                WAKE.wait_timeout(guard, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0
            }
            None => WAKE.wait(guard).unwrap_or_else(|e| e.into_inner()),
        };
    }
}

/// An armed alarm; dropping it disarms it.
pub(crate) struct Alarm(u64);

/// Arms the alarm: if the phase that holds the returned [`Alarm`] has not ended by `at`, the
/// main thread calls `expiry` and the process ends with the code it returns. The phase ends
/// (drops the alarm) before the command prints its own verdict. Outside [`supervise`] nothing
/// is armed.
pub(crate) fn arm(at: Instant, expiry: impl FnOnce() -> u8 + Send + 'static) -> Alarm {
    let mut guard = state();
    let Some(s) = guard.as_mut() else {
        return Alarm(0);
    };
    s.armings += 1;
    let n = s.armings;
    s.alarm = Some((at, Box::new(expiry), n));
    drop(guard);
    WAKE.notify_all();
    Alarm(n)
}

impl Drop for Alarm {
    fn drop(&mut self) {
        if let Some(s) = state().as_mut() {
            if s.alarm.as_ref().is_some_and(|a| a.2 == self.0) {
                s.alarm = None;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // (An alarm that goes off ends the process: the command line's test
    // `the_time_limit_holds_where_the_solver_does_not_stop` shows it.)
    #[test]
    fn a_disarmed_alarm_does_not_go_off() {
        let r = supervise(|| {
            drop(arm(Instant::now() + Duration::from_millis(10), || 7));
            std::thread::sleep(Duration::from_millis(50));
            Ok(0)
        });
        assert_eq!(r.unwrap(), 0);
    }
}
