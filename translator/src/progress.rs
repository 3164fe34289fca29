//! A one-line progress bar on standard error, for runs that last more than a second on a
//! terminal. Nothing is drawn into pipes or files, or when the caller disables it (`--quiet`).

use std::io::Write;
use std::time::{Duration, Instant};

/// How long a run goes before the bar appears.
pub const DELAY: Duration = Duration::from_secs(1);
/// Least time between two redraws.
const REDRAW: Duration = Duration::from_millis(100);

/// Progress of a run over a known number of files and bytes.
#[derive(Debug)]
pub struct Progress {
    enabled: bool,
    delay: Duration,
    files: usize,
    bytes: u64,
    done_files: usize,
    done_bytes: u64,
    /// Whether the totals are final (a run that discovers files as it goes learns them late).
    complete: bool,
    started: Instant,
    last: Option<Instant>,
    drawn: bool,
}

impl Progress {
    /// A bar that draws only when `enabled`. `HIPPORT_PROGRESS=always` forces it on with no
    /// delay, `HIPPORT_PROGRESS=never` forces it off.
    pub fn new(enabled: bool) -> Progress {
        let (enabled, delay) = match std::env::var("HIPPORT_PROGRESS").as_deref() {
            Ok("always") => (true, Duration::ZERO),
            Ok("never") => (false, DELAY),
            _ => (enabled, DELAY),
        };
        Progress {
            enabled,
            delay,
            files: 0,
            bytes: 0,
            done_files: 0,
            done_bytes: 0,
            complete: true,
            started: Instant::now(),
            last: None,
            drawn: false,
        }
    }

    /// A bar that never draws (for `--quiet`), whatever `HIPPORT_PROGRESS` says.
    pub fn off() -> Progress {
        let mut p = Progress::new(false);
        p.enabled = false;
        p
    }

    /// Sets the totals.
    pub fn start(&mut self, files: usize, bytes: u64) {
        self.files = files;
        self.bytes = bytes;
    }

    /// Sets the totals found so far, and whether they are final.
    pub fn found(&mut self, files: usize, bytes: u64, complete: bool) {
        self.start(files, bytes);
        self.complete = complete;
    }

    /// Counts one finished file of `bytes` bytes and redraws when due.
    pub fn advance(&mut self, bytes: u64) {
        self.done_files += 1;
        self.done_bytes += bytes;
        if !self.enabled {
            return;
        }
        let now = Instant::now();
        let elapsed = now.duration_since(self.started);
        let due = self.last.is_none_or(|t| now.duration_since(t) >= REDRAW);
        if elapsed >= self.delay && due {
            self.last = Some(now);
            self.drawn = true;
            let line = render(
                self.done_files,
                self.files,
                self.done_bytes,
                self.bytes,
                self.complete,
                elapsed,
            );
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{line}\x1b[K");
            let _ = err.flush();
        }
    }

    /// Erases the bar, if it was drawn, so the summary starts on a clean line.
    pub fn finish(&mut self) {
        if self.drawn {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r\x1b[K");
            let _ = err.flush();
            self.drawn = false;
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.finish();
    }
}

/// The text of the bar: `[#####.....] 120/400 files, 3.1/10.0 MB, 2.5 MB/s, 3s left`; while the
/// totals are not `complete` (files still being found), `120/400+ files, 3.1/10.0+ MB, 2.5 MB/s`.
pub fn render(
    done: usize,
    total: usize,
    done_bytes: u64,
    bytes: u64,
    complete: bool,
    elapsed: Duration,
) -> String {
    const WIDTH: usize = 24;
    let frac = if bytes > 0 {
        done_bytes as f64 / bytes as f64
    } else if total > 0 {
        done as f64 / total as f64
    } else {
        1.0
    }
    .clamp(0.0, 1.0);
    let filled = (frac * WIDTH as f64).round() as usize;
    let secs = elapsed.as_secs_f64().max(1e-3);
    let rate = done_bytes as f64 / secs;
    let more = if complete { "" } else { "+" };
    let left = if complete && frac > 0.0 {
        format!(", {:.0}s left", secs / frac - secs)
    } else {
        String::new()
    };
    format!(
        "[{}{}] {done}/{total}{more} files, {:.1}/{:.1}{more} MB, {:.1} MB/s{left}",
        "#".repeat(filled),
        ".".repeat(WIDTH - filled),
        done_bytes as f64 / 1e6,
        bytes as f64 / 1e6,
        rate / 1e6,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_counts_rate_and_time_left() {
        let s = render(
            100,
            400,
            2_500_000,
            10_000_000,
            true,
            Duration::from_secs(1),
        );
        assert_eq!(
            s,
            "[######..................] 100/400 files, 2.5/10.0 MB, 2.5 MB/s, 3s left"
        );
        // Files still being found: no time left yet.
        let s = render(
            100,
            400,
            2_500_000,
            10_000_000,
            false,
            Duration::from_secs(1),
        );
        assert_eq!(
            s,
            "[######..................] 100/400+ files, 2.5/10.0+ MB, 2.5 MB/s"
        );
        let s = render(0, 0, 0, 0, true, Duration::ZERO);
        assert!(s.starts_with("[########################] 0/0 files"), "{s}");
    }
}
