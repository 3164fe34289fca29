//! What the benchmarks share: running a command and reading its time and peak memory.

// Each benchmark uses part of what is here.
#![allow(dead_code)]

use std::process::Command;
use std::time::{Duration, Instant};

/// Writes back what earlier steps left dirty (the files of the tree), so that a measured run does
/// not pay for it.
pub fn settle() {
    // SAFETY: sync(2) takes no arguments and cannot fail.
    unsafe { libc::sync() };
}

/// Wall time, CPU time and peak RSS of one measured run.
pub struct Run {
    pub wall: Duration,
    pub cpu: Duration,
    pub max_rss_kb: i64,
}

/// A `timeval` as a duration.
pub fn tv(t: libc::timeval) -> Duration {
    Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000)
}

/// Runs a command and reports wall time, CPU time and peak RSS (from `wait4`).
pub fn measure(cmd: &mut Command) -> Run {
    let start = Instant::now();
    #[allow(clippy::zombie_processes)] // reaped by wait4 below
    let child = cmd.spawn().expect("spawns");
    let mut status = 0;
    let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut ru) };
    let wall = start.elapsed();
    assert_eq!(r, pid, "wait4 failed");
    let code = libc::WEXITSTATUS(status);
    assert!(code <= 1, "{cmd:?} exited with {code}");
    Run {
        wall,
        cpu: tv(ru.ru_utime) + tv(ru.ru_stime),
        max_rss_kb: ru.ru_maxrss,
    }
}
