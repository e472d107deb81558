//! The backfill scheduler, and cons_tres's will-run test it asks.
//!
//! Sources: Slurm 22.05, `src/plugins/sched/backfill/backfill.c`
//! (`backfill_agent`, `_more_work`, `_attempt_backfill`, `_add_reservation`,
//! `_test_resv_overlap`, `_job_exceeds_max_bf_param`),
//! `src/plugins/select/cons_common/job_test.c` (`_will_run_test`),
//! `src/slurmctld/reservation.c` (`job_test_resv`, `find_resv_end`), the
//! documents `sched_config.html` and `slurm.conf(5)` (SchedulerParameters).
//!
//! Contract:
//! - The backfill scheduler runs `bf_interval` after its previous pass once
//!   something changed in that pass's second or later (`_more_work`: a
//!   submission, also of a job to begin later, a start or end, a main pass
//!   that left a job waiting, new priorities of pending jobs), at once if
//!   the interval is past: Slurm's agent checks every second for work once
//!   its interval is over ([`super::model`] runs it). A pass that gave a
//!   pending job a start estimate
//!   (`last_job_update`) is work for the next one, so while jobs are
//!   pending the agent passes every `bf_interval` on one phase, set by its
//!   start when known ([`super::Settings::backfill_started`]).
//! - A backfill pass walks the queue until `bf_max_job_test` jobs have had
//!   a will-run test (those a limit, a throttle or `bf_max_job_*` skips
//!   before it do not count). Each
//!   job is tested from `start_res` (now at first) on the nodes of its
//!   partition that no reservation holds from `start_res` to `start_res` +
//!   its limit (a reservation that begins at that end counts). The will-run
//!   test gives its start and nodes: now if it fits the free resources, else
//!   the expected end (start plus limit) of the last running job of the
//!   first batch after which it fits; the running jobs are taken away in the
//!   order of their expected ends, up to a barrier (the first one's end
//!   rounded up to 30 s of the epoch) plus a window of 30 s that doubles
//!   after each batch. If the pass's reservations free a node before that
//!   start (`later_start`, walked as Slurm walks its records:
//!   [`super::node_space`]), the job is tested again from there. A job that
//!   can start now starts, on the nodes `select_nodes` picks among those no
//!   reservation holds (with the nodes' weights synced:
//!   [`crate::machine::Machine::sync_weights`]); one that cannot, within
//!   `bf_window`, has its nodes reserved against the jobs after it from its
//!   start to its expected end, both rounded down to `bf_resolution` of
//!   Unix time, unless they overlap another reservation (then it is tested
//!   again from its start).
//! - A GPU job's tests leave their mark on the nodes that hold its GPUs
//!   (cons_tres's `sched_weight`: [`crate::machine::Machine::near_gpus`]);
//!   the backfill scheduler never syncs the weights of the nodes it plans
//!   on, so the jobs without GPUs it tests after prefer those nodes. A pass stops early once no later job of
//!   the queue could fit now even with no reservation (it could only
//!   reserve, and reservations last one pass).
//! - A backfill pass skips, without a test, a job whose user or partition
//!   has had `bf_max_job_user` or `bf_max_job_part` jobs tested in it
//!   (`_job_exceeds_max_bf_param`), after the limit tests.

use super::preempt::Usable;
use super::{Controller, ControllerMsg, is_set, part_bit};
use crate::machine::Need;
use crate::queued::Queued;
use slasim_machine::Resources;
use slasim_sim::kernel::Outbox;
use slasim_sim::units::Time;

impl Controller {
    /// Per partition, the largest free CPUs, MiB and GPUs on one of its
    /// nodes, into `out`.
    fn largest_free(&self, out: &mut Vec<Resources>) {
        out.clear();
        for part in &self.machine.partitions {
            out.push(part.nodes.iter().fold(Resources::default(), |m, &n| {
                let f = self.machine.free[n as usize];
                Resources { cpus: m.cpus.max(f.cpus), mem_mib: m.mem_mib.max(f.mem_mib), gpus: m.gpus.max(f.gpus) }
            }));
        }
    }

    /// Could job `j` fit now on its partition, with no reservation? `most`
    /// holds each partition's largest free CPUs, MiB and GPUs on one node: a
    /// job above them cannot fit, and most jobs of a full machine are.
    #[inline]
    fn could_fit_now(&self, r: u32, most: &[Resources]) -> bool {
        let job = self.view(r);
        let p = job.partition as usize;
        let part = &self.machine.partitions[p];
        if !part.up || !job.need.fits(&most[p]) {
            return false;
        }
        let mut count = 0;
        part.nodes.iter().any(|&n| {
            if job.need.fits(&self.machine.free[n as usize]) {
                count += 1;
            }
            count == job.need.nodes
        })
    }

    /// The backfill scheduler's pass. Whether it gave a pending job a start
    /// estimate (a will-run test that found a start, `last_job_update`).
    pub(super) fn backfill(&mut self, now: Time, outbox: &mut Outbox<ControllerMsg>) -> bool {
        self.counters.backfill_passes += 1;
        self.pass += 1;
        self.refresh(now, outbox);
        if let Some(m) = self.multi.as_deref_mut() {
            m.next_round();
        }
        // `bf_max_job_test` counts the jobs that reach the will-run test
        // (`bf_last_depth_try`), not those skipped before it.
        let max_tests = self.settings.scheduler.bf_max_job_test.max(1) as usize;
        // The jobs past the last one in reach would be tested and most given
        // an estimate: a pass cut short counts as one that estimated.
        let Some(last) = self.last_in_reach() else {
            return !self.queue.is_empty();
        };
        let horizon = now + self.settings.scheduler.bf_window;
        self.begin_pass(now, horizon);
        let mut i = 0;
        let mut visited = 0;
        let mut tried = 0;
        let mut estimated = false;
        while visited <= last && tried < max_tests && i < self.queue.len() {
            let r = self.queue[i];
            // A job that preempted in another partition in this pass.
            if self.preempting(r) {
                i += 1;
                continue;
            }
            visited += 1;
            let j = self.try_in(r);
            let job = self.jobs[j as usize];
            if !self.may_test(now, j, &job) {
                i += 1;
                continue;
            }
            tried += 1;
            if self.preempts_for(now, r, j, &job, outbox) {
                i += 1;
                continue;
            }
            let plan = self.plan(now, j, &job, horizon);
            estimated |= plan.estimated;
            if plan.starts {
                i = self.start_backfilled(now, r, j, &job, i, outbox);
                continue;
            }
            i += 1;
        }
        self.reservation_count = 0;
        estimated || (tried < max_tests && i < self.queue.len())
    }

    /// The index in the queue of the last job in reach, one that could fit
    /// now (past it, a pass only reserves); with preemption, one that may
    /// preempt could start something too. `None`: no such job. Leaves each
    /// partition's largest free resources on one node in `most`.
    fn last_in_reach(&mut self) -> Option<usize> {
        let mut most = std::mem::take(&mut self.most);
        self.largest_free(&mut most);
        let preempts = |r: u32| self.preempt.as_ref().is_some_and(|p| p.preempts_any_in(self.owner(r), self.view(r)));
        let last =
            (0..self.queue.len()).rev().find(|&i| self.could_fit_now(self.queue[i], &most) || preempts(self.queue[i]));
        self.most = most;
        last
    }

    /// A pass's start (`_attempt_backfill`): no reservation yet, no job
    /// tested per user or partition, and the running jobs in the order of
    /// their expected ends (start plus limit), as the will-run test takes
    /// them away.
    fn begin_pass(&mut self, now: Time, horizon: Time) {
        self.bound.clear();
        self.bound.extend_from_slice(&self.most);
        self.bf_user.clear();
        self.bf_part.clear();
        if self.settings.scheduler.bf_max_job_user > 0 {
            self.bf_user.resize(self.users, 0);
        }
        if self.settings.scheduler.bf_max_job_part > 0 {
            self.bf_part.resize(self.machine.partitions.len(), 0);
        }
        // `node_space`: one record, from the pass's start to the window's
        // end, both rounded down to `bf_resolution`.
        self.space.clear(self.to_resolution(now), self.to_resolution(horizon));
        self.releases.clear();
        for &r in &self.running {
            let o = &self.outcome[r as usize];
            self.releases.push(self.release_of(o.start + self.jobs[r as usize].limit, r));
        }
        self.releases.sort_unstable_by_key(|x| (x.at, x.job));
        self.index_releases();
    }

    /// Whether job `j` (as `job`) gets a will-run test in this pass: not
    /// held by an accounting limit, its array not at its throttle, under
    /// `bf_max_job_part` and `bf_max_job_user`, its partition up, and in
    /// its advance reservation's window if it names one.
    fn may_test(&mut self, now: Time, j: u32, job: &Queued) -> bool {
        // A job an accounting limit holds is neither started nor
        // reserved for (`_attempt_backfill`: the pre-select test, and
        // the post-select one before a start or a reservation).
        if self.held(j) {
            return false;
        }
        // `job_array_start_test`.
        if self.capped(j) {
            return false;
        }
        // `_job_exceeds_max_bf_param`: after the pre-select test, before
        // the partition's state; a job tested counts.
        if self.over_bf_max(job) {
            return false;
        }
        if !self.machine.partitions[job.partition as usize].up {
            return false;
        }
        // A job in an advance reservation outside its window is not
        // queued (`job_independent`).
        job.resv.is_none_or(|r| self.advance.as_ref().is_some_and(|a| a.open(r, now)))
    }

    /// Preemption (`_will_run_test` with every candidate gone, then
    /// `select_nodes`): job `j` of record `r`, if it may preempt and does
    /// not fit now, preempts, and is then neither started nor reserved for.
    /// Whether it preempted.
    fn preempts_for(&mut self, now: Time, r: u32, j: u32, job: &Queued, outbox: &mut Outbox<ControllerMsg>) -> bool {
        if !self.preempt.as_ref().is_some_and(|p| p.preempts_any(j)) || self.could_fit_now(r, &self.most) {
            return false;
        }
        self.mark_available(job, now, now + job.limit);
        if !self.try_preempt(now, j, Usable::Marked, outbox) {
            return false;
        }
        if let Some(m) = self.multi.as_deref_mut() {
            m.preempted(j);
        }
        // The preempted jobs release nothing later in this pass.
        let outcome = &self.outcome;
        self.releases.retain(|x| outcome[x.job as usize].end > now);
        self.index_releases();
        // Their nodes are freer: the bounds on a node's free resources grow.
        let mut bound = std::mem::take(&mut self.bound);
        self.largest_free(&mut bound);
        self.bound = bound;
        true
    }

    /// Job `j`'s plan in this pass: the will-run test from `start_res` (now
    /// at first) on the nodes free of reservations then, again from a later
    /// `start_res` while one can do better (`TRY_LATER`), until it can
    /// start now, its nodes are reserved from its start (`_add_reservation`),
    /// or it has no start within the window.
    fn plan(&mut self, now: Time, j: u32, job: &Queued, horizon: Time) -> Plan {
        let p = job.partition as usize;
        // `TRY_LATER`: from `start_res` on, each retry a later one or
        // fewer nodes, so a bound on retries only guards the loop.
        let mut start_res = now;
        let advance = self.advance.as_ref().map_or(0, |a| a.list.len());
        let mut retries = self.machine.partitions[p].nodes.len() + 2 * self.reservation_count + 2 * advance + 2;
        // The previous test's will-run result, if any.
        let mut before: Option<Option<Time>> = None;
        // `bf_one_resv_per_job`: once a record of a job of several
        // partitions has a start estimate in this pass, the job's later
        // records are tested to start now only (`TEST_NOW_ONLY`).
        let now_only = self.settings.scheduler.bf_one_resv_per_job && self.estimated_in[j as usize] == self.pass;
        let mut estimated = false;
        let waits = |estimated: bool| Plan { starts: false, estimated };
        loop {
            retries -= 1;
            let end = start_res + job.limit;
            if self.deferred(job, start_res, end) {
                return waits(estimated);
            }
            self.marked_before.copy_from_slice(&self.marked);
            let (available, later) = self.mark_available(job, start_res, end);
            // Why: nothing starts or is reserved between a job's tests, so
            // the will-run test depends only on the nodes marked: a test
            // marking the same nodes as the previous one has its result.
            let planned = match before {
                Some(planned) if self.marked == self.marked_before => planned,
                // Too few nodes free of reservations: no will-run test.
                _ if available < job.need.nodes => None,
                _ => {
                    let planned = self.will_run(now, job);
                    if job.need.gpus > 0 {
                        // The test's last evaluation of the marked nodes.
                        let (tested, marked) = (self.tested, std::mem::take(&mut self.marked));
                        self.near_gpus(p, &job.need, |c, n| {
                            let k = n as usize;
                            is_set(&marked, n)
                                .then(|| if c.scratch_at[k] == tested { c.scratch[k] } else { c.machine.free[k] })
                        });
                        self.marked = marked;
                    }
                    planned
                }
            };
            before = Some(planned);
            estimated |= planned.is_some() && !now_only;
            let Some(start) = planned else {
                if now_only {
                    return waits(estimated);
                }
                match later {
                    Some(l) if retries > 0 => {
                        start_res = l;
                        continue;
                    }
                    _ => return waits(estimated),
                }
            };
            let mut start = start.max(start_res);
            let mut picked = false;
            if start <= now {
                self.pick_planned(job);
                // `_attempt_backfill`: on a COMPLETING node (a preempted
                // job's epilog), a start now waits: reserved a second on.
                if !self.found.iter().any(|&n| self.completing[n as usize] == self.pass) {
                    return Plan { starts: true, estimated };
                }
                picked = true;
                start = now + 1;
            }
            if now_only {
                return waits(estimated);
            }
            if let Some(l) = later.filter(|&l| start > l && retries > 0) {
                start_res = l;
                continue;
            }
            if start > horizon {
                // The job keeps its estimate (`start_time`), beyond the window too.
                self.estimated_in[j as usize] = self.pass;
                return waits(estimated);
            }
            if !picked {
                self.pick_planned(job);
            }
            // `_add_reservation`: both ends rounded down to the resolution,
            // at least one resolution long, within the window.
            let begin = self.to_resolution(start);
            let until = self.to_resolution(start + job.limit);
            if self.overlaps_reservation(begin, until) {
                if retries > 0 {
                    start_res = start;
                    continue;
                }
                return waits(estimated);
            }
            self.reserve(begin, until);
            self.estimated_in[j as usize] = self.pass;
            return waits(estimated);
        }
    }

    /// `job_test_resv`: a job past its advance reservation's end, or kept
    /// from its whole partition over `[start_res, end)`, is deferred without
    /// a plan.
    #[inline]
    fn deferred(&self, job: &Queued, start_res: Time, end: Time) -> bool {
        self.advance.as_ref().is_some_and(|a| match job.resv {
            Some(r) => start_res > a.end(r),
            None => a.blocks(job.partition as usize, start_res, end),
        })
    }

    /// `_test_resv_overlap`: whether a node found (`found`) has a
    /// reservation of this pass over `[begin, until)`.
    fn overlaps_reservation(&self, begin: Time, until: Time) -> bool {
        self.space.overlaps(begin, until, &self.found)
    }

    /// `_add_reservation`: the nodes found are reserved over `[begin,
    /// until)` (at least a resolution) against the jobs after this one in
    /// the pass.
    fn reserve(&mut self, begin: Time, until: Time) {
        self.reservation_count += 1;
        let resolution = self.settings.scheduler.bf_resolution.max(1);
        self.space.reserve(begin, until, resolution, &self.found);
    }

    /// `t` rounded down to `bf_resolution` of Unix time, as Slurm rounds
    /// the backfill map's times (the run's time 0 is its epoch).
    fn to_resolution(&self, t: Time) -> Time {
        let (resolution, epoch) = (self.settings.scheduler.bf_resolution.max(1), self.settings.epoch);
        (t + epoch).div_euclid(resolution) * resolution - epoch
    }

    /// Starts job `j` (as `job`) of record `r`, at index `i` of the queue,
    /// on the nodes found, as backfilled: it leaves the queue, and its
    /// expected end joins the running jobs the later tests take away. The
    /// index of the next record.
    fn start_backfilled(
        &mut self,
        now: Time,
        r: u32,
        j: u32,
        job: &Queued,
        i: usize,
        outbox: &mut Outbox<ControllerMsg>,
    ) -> usize {
        // `_start_job`: `select_nodes`, on the nodes no reservation of the
        // pass holds (`exc_node_bitmap`), with the weights synced.
        let p = job.partition as usize;
        self.machine.sync_weights(p);
        if job.need.gpus > 0 {
            let marked = std::mem::take(&mut self.marked);
            self.near_gpus(p, &job.need, |c, n| is_set(&marked, n).then(|| c.machine.free[n as usize]));
            self.marked = marked;
        }
        let mut found = std::mem::take(&mut self.found);
        let marked = &self.marked;
        let (completing, pass) = (&self.completing, self.pass);
        let picked =
            self.machine.find(p, &job.need, |n| is_set(marked, n) && completing[n as usize] != pass, &mut found);
        debug_assert!(picked, "a job the will-run test starts now fits now");
        self.found = found;
        self.start(now, j, true, outbox);
        self.counters.backfill_starts += 1;
        self.queue.remove(i);
        let i = self.started_from(r, j, i);
        let expected = now + job.limit;
        let at = self.releases.partition_point(|x| (x.at, x.job) < (expected, j));
        let release = self.release_of(expected, j);
        self.releases.insert(at, release);
        self.index_releases();
        i
    }

    /// Whether `job` is past `bf_max_job_part` or `bf_max_job_user` in this
    /// backfill pass (`_job_exceeds_max_bf_param`: the partition's count,
    /// then the user's; both count the job when neither is reached).
    fn over_bf_max(&mut self, job: &Queued) -> bool {
        let (p, u) = (job.partition as usize, job.user as usize);
        let part_full = self.bf_part.get(p).is_some_and(|&c| c >= self.settings.scheduler.bf_max_job_part);
        let user_full = self.bf_user.get(u).is_some_and(|&c| c >= self.settings.scheduler.bf_max_job_user);
        if part_full || user_full {
            self.counters.bf_max_job_skips += 1;
            return true;
        }
        if let Some(c) = self.bf_part.get_mut(p) {
            *c += 1;
        }
        if let Some(c) = self.bf_user.get_mut(u) {
            *c += 1;
        }
        false
    }

    /// Marks the nodes of partition `p` that no reservation holds between
    /// `start_res` and `end` (`_attempt_backfill`'s `avail_bitmap`: a
    /// reservation that begins at `end` counts), and returns how many, up
    /// to the job's nodes (the test asks no more), and `later_start`: the
    /// first instant after `start_res`, within the window, at which a
    /// reservation of the partition's nodes ends and its node is free. The
    /// marked
    /// nodes are in `marked`; the will-run test starts from their free
    /// resources.
    ///
    /// Only nodes of the job's node set are marked; with advance
    /// reservations, only those none of them keeps from the job over
    /// `[start_res, end)`, and when one did, `later_start` is at most just
    /// after the first reservation's end (`find_resv_end`).
    fn mark_available(&mut self, job: &Queued, start_res: Time, end: Time) -> (u32, Option<Time>) {
        let p = job.partition as usize;
        let mut available = 0;
        let mut resv_overlap = false;
        let advance = self.advance.as_deref();
        // Why: the pass's reservations are found a word of nodes at a time
        // (`node_space`), not node by node.
        self.space.busy_over(start_res, end, &mut self.window);
        for w in 0..self.marked.len() {
            // Nodes out of service are not tested (`avail_node_bitmap`).
            let nodes = self.part_words[p][w] & self.states.up[w];
            // The nodes an advance reservation keeps from the job: neither
            // marked nor a `later_start`.
            let mut kept = 0;
            let mut rest = nodes & self.advance_words[w];
            while rest != 0 {
                let bit = rest & rest.wrapping_neg();
                rest &= rest - 1;
                let n = (w * 64) as u32 + bit.trailing_zeros();
                if advance.is_some_and(|a| a.holds(n, job.resv, start_res, end)) {
                    kept |= bit;
                    resv_overlap = true;
                }
            }
            self.open[w] = nodes & !kept;
            let mut marked = nodes & !kept & !self.window[w];
            if job.set != 0 {
                // Features filter the nodes after `later_start` is found.
                let mut rest = marked;
                while rest != 0 {
                    let bit = rest & rest.wrapping_neg();
                    rest &= rest - 1;
                    if !self.machine.allows(job.set, (w * 64) as u32 + bit.trailing_zeros()) {
                        marked &= !bit;
                    }
                }
            }
            self.marked[w] = marked;
            // The test asks only whether enough are marked.
            if available < job.need.nodes {
                available += marked.count_ones();
            }
        }
        // `later_start`: the end of the first record of the pass's
        // reservations after which a node is free again.
        let mut later = self.space.later_start(start_res, end, &self.open);
        if resv_overlap
            && let Some(e) = self
                .advance
                .as_ref()
                .and_then(|a| a.first_end(start_res, self.settings.scheduler.bf_resolution, self.settings.epoch))
            && e + 1 < self.space.end()
            && later.is_none_or(|l| e + 1 < l)
        {
            later = Some(e + 1);
        }
        (available, later)
    }

    /// cons_tres's will-run test on the nodes [`Controller::mark_available`]
    /// marked (Slurm 22.05,
    /// `select/cons_common/job_test.c`, `_will_run_test`): now, if the job
    /// fits the free resources; else the running jobs are taken away in
    /// the order of their expected ends, in batches up to a barrier (the
    /// first one's end rounded up to 30 s of the epoch) plus a window of
    /// 30 s, doubled after each batch, and the job starts at the expected
    /// end of the last job of the first batch after which it fits. The
    /// resources it is tested on are left in `scratch`: its nodes are then
    /// [`Controller::pick_planned`]'s (cons_tres finds them exactly when
    /// enough nodes can hold it, so the start stands without them).
    fn will_run(&mut self, now: Time, job: &Queued) -> Option<Time> {
        self.tested += 1;
        self.holding.fill(0);
        self.unfilled = None;
        // Why: a GPU job's test leaves every marked node's resources for
        // cons_tres's GPU weights, which only the walk gives.
        if job.need.gpus > 0 || self.settings.walk_releases {
            self.walk(now, job)
        } else {
            self.will_run_by_order(now, job)
        }
    }

    /// [`Controller::will_run`] by walking the releases.
    fn walk(&mut self, now: Time, job: &Queued) -> Option<Time> {
        let need = job.need;
        let position = &self.machine.partitions[job.partition as usize].position;
        let holding = &mut self.holding;
        let mut holds = |n: u32| {
            let k = position[n as usize] as usize;
            holding[k / 64] |= 1 << (k % 64);
        };
        // Why: on a full machine most jobs fit on no node; the partition's
        // largest free resources tell without looking at each node.
        let mut fitting = 0;
        if need.fits(&self.bound[job.partition as usize]) {
            for (w, &word) in self.marked.iter().enumerate() {
                let mut rest = word;
                while rest != 0 {
                    let n = (w * 64) as u32 + rest.trailing_zeros();
                    rest &= rest - 1;
                    if need.fits(&self.machine.free[n as usize]) {
                        fitting += 1;
                        holds(n);
                    }
                }
            }
        }
        if fitting >= need.nodes {
            return Some(now);
        }
        let stamp = self.tested;
        let mut barrier: Option<Time> = None;
        let mut window: Time = 30;
        let releases = &self.releases;
        // Why: a job with no node in the partition has none marked, so only
        // the partition's releases are walked; `r` is where a walk of all
        // of them would be (the next release bounds a batch).
        let mine = &self.part_releases[job.partition as usize];
        let mut i = 0;
        let mut r = 0;
        while r < releases.len() {
            let mut last = None;
            loop {
                let Some(&g) = mine.get(i) else {
                    r = releases.len();
                    break;
                };
                i += 1;
                r = g as usize + 1;
                let x = &releases[g as usize];
                let nodes = &self.nodes[x.first as usize..(x.first + x.need.nodes) as usize];
                if !nodes.iter().any(|&n| is_set(&self.marked, n)) {
                    continue;
                }
                let t = x.at;
                let barrier = *barrier.get_or_insert_with(|| batch_barrier(t, self.settings.epoch));
                last = Some(t);
                for &n in nodes {
                    if !is_set(&self.marked, n) {
                        continue;
                    }
                    let s = &mut self.scratch[n as usize];
                    // Why: a marked node's resources are copied when a
                    // release first touches it, not all at marking.
                    if self.scratch_at[n as usize] != stamp {
                        *s = self.machine.free[n as usize];
                        self.scratch_at[n as usize] = stamp;
                    }
                    let held = need.fits(s);
                    s.add(&x.need.per_node());
                    if !held && need.fits(s) {
                        fitting += 1;
                        holds(n);
                    }
                }
                if releases.get(r).is_some_and(|next| next.at > barrier + window) {
                    break;
                }
            }
            let Some(last) = last else {
                break;
            };
            let barrier = barrier.unwrap_or(last);
            let next = releases.get(r).map(|x| x.at);
            window = widened(window, barrier, next);
            if fitting >= need.nodes {
                return Some(last.max(now + 1));
            }
        }
        None
    }

    /// [`Controller::will_run`] from the fitting order of the job's shape:
    /// the same start, `holding` and resources of the nodes holding it
    /// (in `scratch`) as [`Controller::walk`], which also leaves there the
    /// resources of the marked nodes that do not hold it.
    ///
    /// The walk's count of nodes holding the job reaches its need after
    /// release `g` exactly when the need-th marked node of the order waits
    /// for at most `g + 1` releases; its batches end at releases that free
    /// a marked node, found from the release times.
    fn will_run_by_order(&mut self, now: Time, job: &Queued) -> Option<Time> {
        let (need, p) = (job.need, job.partition as usize);
        let (releases, nodes, marked) = (&self.releases, &self.nodes, &self.marked);
        let shape =
            self.fitting.order(p, need.per_node(), &self.machine.partitions[p].nodes, &self.machine.free, || {
                releases
                    .iter()
                    .map(|x| (&nodes[x.first as usize..(x.first + x.need.nodes) as usize], x.need.per_node()))
            });
        // The releases the need-th marked node waits for.
        let waits = self.fitting.nth_marked(shape, marked, need.nodes)?;
        let frees = |g: u32| {
            let x = &releases[g as usize];
            nodes[x.first as usize..(x.first + x.need.nodes) as usize].iter().any(|&n| is_set(marked, n))
        };
        // The releases taken away (`until`) when the job first fits, and its start.
        let (until, start) = if waits == 0 {
            (0, now)
        } else {
            let mine = &self.part_releases[p];
            let t = releases[mine[mine.iter().position(|&g| frees(g))?] as usize].at;
            let barrier = batch_barrier(t, self.settings.epoch);
            let mut window: Time = 30;
            let (mut i, mut past) = (0, 0);
            loop {
                // The batch ends at the first release after `i` that frees
                // a marked node and is followed by one past the window.
                past = partition_from(releases, past, |x| x.at <= barrier + window);
                let from = partition_from(mine, i, |&g| (g as usize + 1) < past);
                let end =
                    mine[from..].iter().position(|&g| g as usize + 1 < releases.len() && frees(g)).map(|k| from + k);
                let (g, next) = match end {
                    Some(k) => {
                        i = k + 1;
                        (mine[k], Some(releases[mine[k] as usize + 1].at))
                    }
                    // The partition's releases run out in this batch.
                    None => (*mine[i..].iter().rev().find(|&&g| frees(g))?, None),
                };
                window = widened(window, barrier, next);
                if waits <= g + 1 {
                    break (g + 1, releases[g as usize].at.max(now + 1));
                }
                next?;
            }
        };
        self.unfilled = Some((p, shape, until));
        Some(start)
    }

    /// The nodes holding the job of the last will-run test, with their
    /// resources, when [`Controller::will_run_by_order`] gave its start:
    /// filled when its nodes are first picked.
    fn fill_holding(&mut self) {
        let Some((p, shape, until)) = self.unfilled.take() else { return };
        let (position, holding, stamp) = (&self.machine.partitions[p].position, &mut self.holding, self.tested);
        let (fitting, free, scratch, scratch_at) =
            (&self.fitting, &self.machine.free, &mut self.scratch, &mut self.scratch_at);
        fitting.marked_within(shape, &self.marked, until, |n| {
            let k = position[n as usize] as usize;
            holding[k / 64] |= 1 << (k % 64);
            if until > 0 {
                scratch[n as usize] = fitting.after(n, free[n as usize], until);
                scratch_at[n as usize] = stamp;
            }
        });
    }

    /// The nodes cons_tres gives `job` on the resources of its last
    /// will-run test, in `found`: of those that hold it there (`holding`).
    fn pick_planned(&mut self, job: &Queued) {
        self.fill_holding();
        let free = offered(&self.scratch, &self.scratch_at, &self.machine.free, &self.marked, self.tested, &job.need);
        let picked = self.machine.pick_among(job.partition as usize, &job.need, free, &self.holding, &mut self.found);
        debug_assert!(picked, "the will-run test found enough nodes");
    }

    /// Indexes `releases` by partition (`part_releases`); the fitting
    /// orders are then stale.
    fn index_releases(&mut self) {
        self.fitting.stale();
        for (p, list) in self.part_releases.iter_mut().enumerate() {
            let bit = part_bit(p);
            list.clear();
            list.extend((0..self.releases.len() as u32).filter(|&g| self.releases[g as usize].parts & bit != 0));
        }
    }

    /// A running job expected to end at `at`, for the will-run test.
    fn release_of(&self, at: Time, job: u32) -> Release {
        Release {
            at,
            job,
            parts: self.job_parts[job as usize],
            first: self.node_at[job as usize],
            need: self.jobs[job as usize].need,
        }
    }
}

/// A running job as the will-run test takes it away: its expected end,
/// the partitions holding one of its nodes, and its nodes and need.
#[derive(Debug, Clone, Copy)]
pub(super) struct Release {
    at: Time,
    job: u32,
    parts: u64,
    first: u32,
    need: Need,
}

/// `_will_run_test`'s barrier for a walk whose first release is at `t`:
/// `t` rounded up to 30 s of the epoch (`epoch`).
#[inline]
fn batch_barrier(t: Time, epoch: Time) -> Time {
    t + 30 - (t + epoch).rem_euclid(30)
}

/// The first index of `items` at or after `from` where `before` is false,
/// when it is true before `from` and then until that index: a search that
/// doubles its step from `from`.
/// Why: a will-run test's batches move a little later each time, and a
/// search from the start of thousands of releases misses the cache.
#[inline]
fn partition_from<T>(items: &[T], from: usize, before: impl Fn(&T) -> bool) -> usize {
    let (mut lo, mut step) = (from, 1);
    while lo + step <= items.len() && before(&items[lo + step - 1]) {
        lo += step;
        step *= 2;
    }
    let hi = (lo + step - 1).min(items.len());
    lo + items[lo..hi].partition_point(before)
}

/// `_will_run_test`'s window after a batch: doubled, then again until the
/// next release (`next`, if any) is within it of `barrier`.
#[inline]
fn widened(mut window: Time, barrier: Time, next: Option<Time>) -> Time {
    loop {
        window *= 2;
        if next.is_none_or(|t| t <= barrier + window) {
            return window;
        }
    }
}

/// For [`Machine::pick`]: the CPUs of a node in `marked` that can hold
/// `need` given its resources in the test of `stamp` (`resources` where
/// `at` is `stamp`, else `free`), else `None`.
fn offered<'a>(
    resources: &'a [Resources],
    at: &'a [u64],
    free: &'a [Resources],
    marked: &'a [u64],
    stamp: u64,
    need: &'a Need,
) -> impl FnMut(u32) -> Option<u32> + 'a {
    move |n| {
        if !is_set(marked, n) {
            return None;
        }
        let f = if at[n as usize] == stamp { resources[n as usize] } else { free[n as usize] };
        need.fits(&f).then_some(f.cpus)
    }
}

/// What a backfill pass's test made of a job.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Plan {
    /// It starts now, on the nodes found (else it waits).
    starts: bool,
    /// A will-run test gave it a start (`last_job_update`), unless it was
    /// tested to start now only.
    estimated: bool,
}
