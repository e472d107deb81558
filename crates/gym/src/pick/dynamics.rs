//! The simulated machine and queue of one job sequence, moved forward exactly
//! as RLScheduler's `HPCEnv` moves it (`HPCSimPickJobs.py`; the machine is
//! `cluster.py`'s `SimpleCluster`: a count of free nodes).
//!
//! Contract:
//! - Time moves only by events, one at a time: an *arrival* (the next job of
//!   the sequence is appended to the queue; time becomes its submission) or a
//!   *release* (the first running job, after a stable sort by end time, frees
//!   its nodes; time becomes its end). When both are due the arrival comes
//!   first if it is submitted at or before the release. Time never goes back
//!   (`max(now, event)`).
//! - The queue and the running list are `Vec`s re-sorted stably at exactly the
//!   places RLScheduler re-sorts its Python lists, by the same keys, so that
//!   ties come out in the same order: running jobs by end time before each
//!   release and by estimated end before a backfilling pass; the queue by
//!   submission before a backfilling pass and by the heuristic's key before
//!   each pick of a baseline.
//! - [`Dynamics::schedule`] is `HPCEnv.schedule`: if the job does not fit,
//!   events happen until it does (`skip_for_resources`), backfilling first-come
//!   first-served any waiting job that fits now and ends (by its estimate)
//!   before the picked job's estimated start when backfilling is on
//!   (`moveforward_for_resources_backfill`); the job starts; then
//!   `moveforward_for_job` brings time forward until a job waits, and the
//!   sequence is over when none is left to arrive.
//! - [`Dynamics::skip`] is `HPCEnv.skip_schedule` (the skip action).
//! - [`Dynamics::run_heuristic`] is `schedule_curr_sequence_reset`: the
//!   sequence scheduled by a priority rule, from the same start.

use super::jobs::JobTable;
use super::order::PyOrd;
use super::reward::Score;
use slasim_sim::units::Time;
use slasim_single::policy::priority::Key;

/// RLScheduler's `SKIP_TIME`: the skip action waits at most 360 s.
pub const SKIP_TIME: Time = 360;

/// A running job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Running {
    /// Position in the job table.
    pub job: u32,
    /// Start + run time.
    pub end: Time,
    /// Start + requested time.
    pub estimated_end: Time,
    /// Nodes held.
    pub nodes: i64,
}

/// A baseline's priority rule (RLScheduler's `sjf_score`, `f1_score`, `smallest_score`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Heuristic {
    /// Shortest requested time first.
    Sjf,
    /// F1 (SC17).
    F1,
    /// Fewest processors first.
    Smallest,
    /// First come, first served (submission time).
    Fcfs,
}

/// The state of one sequence.
#[derive(Debug, Clone, Default)]
pub struct Dynamics {
    /// Simulated time (the log's clock, s).
    pub now: Time,
    /// Free nodes.
    pub free_nodes: i64,
    /// Waiting jobs (table positions), in RLScheduler's list order.
    pub queue: Vec<u32>,
    /// Running jobs, in RLScheduler's list order.
    pub running: Vec<Running>,
    /// The next job to arrive (`next_arriving_job_idx`).
    pub next: usize,
    /// The sequence's first job (`start`).
    pub first: usize,
    /// One past its last job (`last_job_in_batch`).
    pub last: usize,
    /// Every started job's score, in start order.
    pub scores: Vec<f64>,
    /// Start times of the jobs started so far, by position minus `first`.
    pub starts: Vec<Time>,
}

impl Dynamics {
    /// Back to the sequence's beginning: job `first` waits, time is its
    /// submission, the machine is empty (`reset`).
    pub fn restart(&mut self, jobs: &JobTable, first: usize, last: usize) {
        self.now = jobs.submit[first];
        self.free_nodes = jobs.total_nodes;
        self.queue.clear();
        self.queue.push(first as u32);
        self.running.clear();
        self.next = first + 1;
        self.first = first;
        self.last = last;
        self.scores.clear();
        self.starts.clear();
        self.starts.resize(last - first, -1);
    }

    /// `cluster.can_allocated(job)`.
    #[inline]
    pub fn fits(&self, jobs: &JobTable, job: u32) -> bool {
        jobs.nodes[job as usize] <= self.free_nodes
    }

    /// Whether the sequence is over: nothing waits and nothing is left to arrive.
    pub fn is_over(&self) -> bool {
        self.queue.is_empty() && self.next >= self.last
    }

    /// The submission time of the next job to arrive, even past the
    /// sequence's end (as `skip_schedule` reads it); `Time::MAX` past the log.
    fn next_submit(&self, jobs: &JobTable) -> Time {
        jobs.submit.get(self.next).copied().unwrap_or(Time::MAX)
    }

    fn sort_running_by_end(&mut self) {
        self.running.sort_by_key(|r| r.end);
    }

    /// The first running job's end after the stable sort, or `Time::MAX` (`sys.maxsize`).
    fn next_release(&mut self) -> Time {
        if self.running.is_empty() {
            return Time::MAX;
        }
        self.sort_running_by_end();
        self.running[0].end
    }

    fn arrive(&mut self, jobs: &JobTable) {
        self.now = self.now.max(jobs.submit[self.next]);
        self.queue.push(self.next as u32);
        self.next += 1;
    }

    /// Releases the first running job (the list must be sorted by end).
    fn release_first(&mut self) {
        let r = self.running.remove(0);
        self.now = self.now.max(r.end);
        self.free_nodes += r.nodes;
    }

    /// One event while a job waits for nodes: the arrival if it is due at or
    /// before the next release, else the release.
    fn one_event(&mut self, jobs: &JobTable) {
        let release = self.next_release();
        if self.next < self.last && jobs.submit[self.next] <= release {
            self.arrive(jobs);
        } else if !self.running.is_empty() {
            self.release_first();
        } else {
            // Unreachable for a job that fits the empty machine (checked when
            // the table is built); `running` is empty only when every node is free.
            debug_assert!(false, "waiting for nodes with nothing running");
        }
    }

    /// Starts `job` now (it fits) and scores it; it leaves the queue.
    fn start(&mut self, jobs: &JobTable, job: u32, score: Score) {
        let j = job as usize;
        let nodes = jobs.nodes[j];
        self.free_nodes -= nodes;
        self.running.push(Running {
            job,
            end: self.now + jobs.run[j],
            estimated_end: self.now + jobs.request[j],
            nodes,
        });
        self.scores.push(score.job(self.now, jobs.submit[j], jobs.run[j], jobs.procs[j]));
        self.starts[j - self.first] = self.now;
        if let Some(at) = self.queue.iter().position(|&q| q == job) {
            self.queue.remove(at);
        }
    }

    /// `skip_for_resources`: events until `job` fits.
    fn wait_for_nodes(&mut self, jobs: &JobTable, job: u32) {
        while !self.fits(jobs, job) {
            self.one_event(jobs);
        }
    }

    /// `moveforward_for_resources_backfill`: events until `job` fits,
    /// backfilling first-come first-served before each.
    fn backfill_for_nodes(&mut self, jobs: &JobTable, job: u32, score: Score) {
        let mut earliest = self.now;
        self.running.sort_by_key(|r| r.estimated_end);
        let ppn = jobs.procs_per_node;
        let mut free_procs = self.free_nodes as f64 * ppn;
        let wanted = jobs.procs[job as usize] as f64;
        for r in &self.running {
            free_procs += r.nodes as f64 * ppn;
            earliest = r.estimated_end;
            if free_procs >= wanted {
                break;
            }
        }
        while !self.fits(jobs, job) {
            self.queue.sort_by_key(|&q| jobs.submit[q as usize]);
            // Iterate over a snapshot, as RLScheduler iterates over a copy.
            let mut i = 0;
            while i < self.queue.len() {
                let q = self.queue[i];
                if self.fits(jobs, q) && self.now + jobs.request[q as usize] < earliest {
                    // `start` removes the job at `i`; the next one slides in.
                    self.start(jobs, q, score);
                } else {
                    i += 1;
                }
            }
            self.one_event(jobs);
        }
    }

    /// `moveforward_for_job`: events until a job waits; `false` when the
    /// queue is empty and nothing is left to arrive.
    pub fn forward_for_job(&mut self, jobs: &JobTable) -> bool {
        if !self.queue.is_empty() {
            return true;
        }
        if self.next >= self.last {
            return false;
        }
        loop {
            let release = self.next_release();
            if jobs.submit[self.next] <= release {
                self.arrive(jobs);
                return true;
            }
            self.release_first();
        }
    }

    /// `HPCEnv.schedule(job)`: returns whether the sequence is over.
    pub fn schedule(&mut self, jobs: &JobTable, job: u32, backfill: bool, score: Score) -> bool {
        if !self.fits(jobs, job) {
            if backfill {
                self.backfill_for_nodes(jobs, job, score);
            } else {
                self.wait_for_nodes(jobs, job);
            }
        }
        self.start(jobs, job, score);
        !self.forward_for_job(jobs)
    }

    /// `skip_schedule`: waits for the next event or at most [`SKIP_TIME`].
    /// Sets `pivot` when nothing is running and nothing is left to arrive.
    pub fn skip(&mut self, jobs: &JobTable, pivot: &mut bool) {
        let release = self.next_release();
        if self.next >= self.last && self.running.is_empty() {
            *pivot = true;
            return;
        }
        let after_skip = self.now + SKIP_TIME;
        if after_skip < self.next_submit(jobs).min(release) {
            self.now = after_skip;
            return;
        }
        if self.next < self.last && jobs.submit[self.next] <= release {
            self.arrive(jobs);
        } else {
            self.release_first();
        }
    }

    /// `schedule_curr_sequence_reset(score_fn)`: the sequence `[first, last)`
    /// scheduled by `rule`; returns the total score. Leaves the state at the
    /// sequence's end (call [`Dynamics::restart`] after).
    pub fn run_heuristic(
        &mut self,
        jobs: &JobTable,
        first: usize,
        last: usize,
        rule: Heuristic,
        backfill: bool,
        score: Score,
    ) -> f64 {
        self.restart(jobs, first, last);
        loop {
            match rule {
                Heuristic::Sjf => sort_by_key(&mut self.queue, &jobs.sjf),
                Heuristic::Smallest => sort_by_key(&mut self.queue, &jobs.smallest),
                Heuristic::F1 => self.queue.sort_by(|&a, &b| jobs.f1[a as usize].total_cmp_py(&jobs.f1[b as usize])),
                Heuristic::Fcfs => self.queue.sort_by_key(|&q| jobs.submit[q as usize]),
            }
            let job = self.queue[0];
            if !self.schedule(jobs, job, backfill, score) {
                continue;
            }
            break;
        }
        score.total(&self.scores, last - first, self.now, jobs.submit[first], jobs.max_procs)
    }
}

/// Stable sort of job positions by a per-job key.
fn sort_by_key(queue: &mut [u32], keys: &[Key]) {
    queue.sort_by(|&a, &b| keys[a as usize].total_cmp_py(&keys[b as usize]));
}
