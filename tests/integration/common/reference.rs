//! Independent textbook references of the three classic modes, written from
//! their definitions and sharing no code with the engine (no slasim types):
//!
//! - FCFS: queue heads start while they fit; a head that does not fit blocks.
//! - EASY (D. Lifka, JSSPP 1995; the two conditions as A. W. Mu'alem and
//!   D. G. Feitelson, IEEE TPDS 12(6), 2001, state them): as FCFS; then the
//!   shadow time is the earliest expected end of running jobs at which the
//!   blocked head fits, the extra nodes are those free at the shadow time
//!   beyond the head's need, and a later job, in queue order, starts now if it
//!   fits now and either ends by the shadow time (by its estimate) or uses no
//!   more than the extra nodes (which it then takes).
//! - Conservative (Mu'alem and Feitelson 2001): every job is reserved at
//!   arrival at the earliest window of its estimate in the profile of running
//!   jobs and reservations; when a job ends before its estimate the schedule
//!   is compressed: in arrival order each reservation is taken out and put
//!   back at its earliest window, no later than before.
//!
//! The input follows the engine's documented conventions (guide, "Classic
//! modes"): the whole log on `MaxProcs` processors, processors = requested
//! else allocated, estimate = requested time else run time, a job wider than
//! the machine never runs, the queue in arrival order (submit time, then the
//! position in the log). Jobs are killed at their estimate; a job's planning
//! length is its estimate, at least 1 s. Events at one instant: job ends, then
//! scheduling passes, then arrivals (each arrival triggers a pass).

use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap};
use std::io::{BufRead, BufReader};
use std::path::Path;

/// One job of the log.
#[derive(Debug, Clone, Copy)]
pub struct Job {
    /// SWF job number (field 1).
    pub swf_id: i64,
    pub submit: i64,
    pub runtime: i64,
    pub estimate: i64,
    pub procs: i64,
}

/// A log read as `slasim run --lenient` reads it: the machine size and the
/// runnable jobs in arrival order.
pub struct Log {
    pub capacity: i64,
    pub jobs: Vec<Job>,
}

/// Reads an SWF log, plain or gzipped.
pub fn read_swf(path: &Path) -> Log {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let reader: Box<dyn BufRead> = if bytes.starts_with(&[0x1f, 0x8b]) {
        Box::new(BufReader::new(flate2::read::MultiGzDecoder::new(&bytes[..])))
    } else {
        Box::new(&bytes[..])
    };
    let (mut capacity, mut jobs) = (None, Vec::new());
    for line in reader.lines() {
        let line = line.unwrap();
        let line = line.trim();
        if let Some(comment) = line.strip_prefix(';') {
            if let Some(v) = comment.trim().strip_prefix("MaxProcs:") {
                capacity = v.trim().parse().ok();
            }
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let f: Vec<f64> = line.split_whitespace().map(|t| t.parse().unwrap()).collect();
        assert_eq!(f.len(), 18, "{line}");
        let field = |i: usize| f[i - 1] as i64;
        let procs = if field(8) > 0 { field(8) } else { field(5) };
        // Skipped (`--lenient`): no processor count or run time; no submit time.
        if procs <= 0 || field(4) < 0 || field(2) < 0 {
            continue;
        }
        let estimate = if field(9) > 0 { field(9) } else { field(4) };
        jobs.push(Job { swf_id: field(1), submit: field(2), runtime: field(4), estimate, procs });
    }
    // Stable: equal submit times keep the order of the log.
    jobs.sort_by_key(|j| j.submit);
    Log { capacity: capacity.expect("MaxProcs"), jobs }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Fcfs,
    Easy,
    Conservative,
}

/// Events at one instant in this order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Event {
    End(usize),
    Pass,
    Arrival(usize),
}

/// Free processors over time from `at` on: `used_at` at `at`, then the
/// changes of the use at later instants.
struct Profile {
    capacity: i64,
    at: i64,
    used_at: i64,
    changes: BTreeMap<i64, i64>,
}

impl Profile {
    fn change(&mut self, t: i64, delta: i64) {
        if t <= self.at {
            self.used_at += delta;
        } else {
            let d = self.changes.entry(t).or_insert(0);
            *d += delta;
            if *d == 0 {
                self.changes.remove(&t);
            }
        }
    }

    /// Uses `n` processors over `[start, end)` (negative `n` gives them back).
    fn add(&mut self, start: i64, end: i64, n: i64) {
        self.change(start, n);
        self.change(end, -n);
    }

    fn advance(&mut self, now: i64) {
        while let Some((&t, &d)) = self.changes.first_key_value() {
            if t > now {
                break;
            }
            self.used_at += d;
            self.changes.remove(&t);
        }
        self.at = now;
    }

    /// The earliest start from `at`, no later than `latest`, of a window
    /// `[s, s + len)` where `n` processors are free throughout.
    fn earliest_fit(&self, n: i64, len: i64, latest: i64) -> Option<i64> {
        let mut used = self.used_at;
        // The candidate: free from `open` up to the instant looked at.
        let mut open = (self.capacity - used >= n).then_some(self.at);
        for (&t, &d) in &self.changes {
            match open {
                Some(s) if t >= s + len => break,
                None if t > latest => return None,
                _ => {}
            }
            used += d;
            if self.capacity - used < n {
                open = None;
            } else if open.is_none() {
                open = Some(t);
            }
        }
        open.filter(|&s| s <= latest)
    }
}

/// The start of every job of `log` under `mode` (`None`: never ran).
pub fn simulate(mode: Mode, log: &Log) -> Vec<Option<i64>> {
    let jobs = &log.jobs;
    let len = |j: usize| jobs[j].estimate.max(1);
    let mut start: Vec<Option<i64>> = vec![None; jobs.len()];
    let mut events: BinaryHeap<Reverse<(i64, Event)>> =
        jobs.iter().enumerate().map(|(i, j)| Reverse((j.submit, Event::Arrival(i)))).collect();
    let mut free = log.capacity;
    // FCFS and EASY: the queue in arrival order and the running jobs.
    let mut queue: Vec<usize> = Vec::new();
    let mut running: Vec<usize> = Vec::new();
    // Conservative: reserved starts of waiting jobs (by arrival), the profile.
    let mut reserved: BTreeMap<usize, i64> = BTreeMap::new();
    let mut profile = Profile { capacity: log.capacity, at: i64::MIN, used_at: 0, changes: BTreeMap::new() };
    let mut compress = false;

    while let Some(Reverse((now, event))) = events.pop() {
        // Starts job `j` now; it is killed at its estimate.
        let run = |j: usize, start: &mut [Option<i64>], free: &mut i64, events: &mut BinaryHeap<_>| {
            start[j] = Some(now);
            *free -= jobs[j].procs;
            events.push(Reverse((now + jobs[j].runtime.min(jobs[j].estimate), Event::End(j))));
        };
        match event {
            Event::End(j) => {
                free += jobs[j].procs;
                running.retain(|&r| r != j);
                if mode == Mode::Conservative {
                    let hold_end = start[j].unwrap() + len(j);
                    if now < hold_end {
                        profile.advance(now);
                        profile.add(now, hold_end, -jobs[j].procs);
                        compress = true;
                    }
                }
                events.push(Reverse((now, Event::Pass)));
                continue;
            }
            Event::Arrival(j) => {
                if jobs[j].procs > log.capacity {
                    continue;
                }
                if mode == Mode::Conservative {
                    profile.advance(now);
                    let s = profile.earliest_fit(jobs[j].procs, len(j), i64::MAX).unwrap();
                    profile.add(s, s + len(j), jobs[j].procs);
                    reserved.insert(j, s);
                    events.push(Reverse((s, Event::Pass)));
                } else {
                    queue.push(j);
                }
            }
            Event::Pass => {}
        }
        // One scheduling pass at `now`.
        match mode {
            Mode::Fcfs | Mode::Easy => {
                while let Some(&head) = queue.first() {
                    if jobs[head].procs > free {
                        break;
                    }
                    queue.remove(0);
                    running.push(head);
                    run(head, &mut start, &mut free, &mut events);
                }
                let Some(&head) = queue.first() else { continue };
                if mode == Mode::Fcfs {
                    continue;
                }
                let need = jobs[head].procs;
                let mut ends: Vec<(i64, i64)> =
                    running.iter().map(|&r| ((start[r].unwrap() + len(r)).max(now), jobs[r].procs)).collect();
                ends.sort_unstable();
                let (mut available, mut shadow) = (free, now);
                for &(end, procs) in &ends {
                    if available >= need {
                        break;
                    }
                    available += procs;
                    shadow = end;
                }
                // Every processor free at the shadow time.
                let at_shadow = free + ends.iter().filter(|&&(end, _)| end <= shadow).map(|&(_, p)| p).sum::<i64>();
                let mut extra = at_shadow - need;
                let mut k = 1;
                while k < queue.len() {
                    let j = queue[k];
                    let by_shadow = now + len(j) <= shadow;
                    if jobs[j].procs <= free && (by_shadow || jobs[j].procs <= extra) {
                        if !by_shadow {
                            extra -= jobs[j].procs;
                        }
                        queue.remove(k);
                        running.push(j);
                        run(j, &mut start, &mut free, &mut events);
                    } else {
                        k += 1;
                    }
                }
            }
            Mode::Conservative => {
                profile.advance(now);
                if compress && event == Event::Pass {
                    compress = false;
                    let waiting: Vec<usize> = reserved.keys().copied().collect();
                    for j in waiting {
                        let s = reserved[&j];
                        profile.add(s, s + len(j), -jobs[j].procs);
                        let earlier = profile.earliest_fit(jobs[j].procs, len(j), s).unwrap();
                        profile.add(earlier, earlier + len(j), jobs[j].procs);
                        if earlier < s {
                            reserved.insert(j, earlier);
                            events.push(Reverse((earlier, Event::Pass)));
                        }
                    }
                }
                let due: Vec<usize> = reserved.iter().filter(|&(_, &s)| s <= now).map(|(&j, _)| j).collect();
                for j in due {
                    assert_eq!(reserved.remove(&j), Some(now), "job {} started late", jobs[j].swf_id);
                    assert!(jobs[j].procs <= free, "job {}: the profile and the machine disagree", jobs[j].swf_id);
                    run(j, &mut start, &mut free, &mut events);
                }
            }
        }
    }
    start
}
