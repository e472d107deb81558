//! Job dependencies and job array throttles: when a submitted job is
//! eligible to be scheduled.
//!
//! Sources: Slurm 22.05, `src/slurmctld/job_mgr.c` (`job_independent`,
//! `job_array_start_test`), `src/slurmctld/job_scheduler.c`
//! (`test_job_dependency`, `_test_job_dependency_common`,
//! `_test_dependency_state`, `_find_singleton_job`, `build_job_queue`,
//! `schedule`, `sort_job_queue2`), `src/plugins/sched/backfill/backfill.c`
//! (`_attempt_backfill`), `src/slurmctld/acct_policy.c`
//! (`acct_policy_handle_accrue_time`, `acct_policy_remove_accrue_time`),
//! `src/plugins/priority/multifactor/priority_multifactor.c`
//! (`_get_priority_internal`: the age factor counts from `accrue_time`),
//! and the `sbatch(1)` man page (`--dependency`, `--array`).
//!
//! Contract:
//! - A job's dependency ([`slasim_data::trace::sacct::jobs::Dependency`])
//!   is parts on jobs of the workload (an array job id alone: every one of
//!   its tasks). Per part, with its jobs:
//!   - `after`: fulfilled once every one has started;
//!   - `afterany`: once every one has ended;
//!   - `afterok`: once every one has ended; failed if one of them did not
//!     end OK;
//!   - `afternotok`: once every one has ended; failed if all ended OK;
//!   - `singleton`: fulfilled when no other job of the same user and name
//!     is running, and none with a smaller job id (array tasks: array job
//!     id, then task id) is pending.
//! - A job ends OK when its simulated end is `COMPLETED`: its logged ending
//!   is COMPLETED (a job without a log: always) and its run time is within
//!   its time limit (else the simulation cuts it: `TIMEOUT`).
//! - With `,` every part must be fulfilled, and one failed part fails the
//!   dependency; with `?` one fulfilled part suffices, and the dependency
//!   fails when all parts have failed. A part fulfilled or failed stays so
//!   (`depend_state`), and so does a fulfilled dependency (Slurm flushes
//!   the list). A failed one (`DependencyNeverSatisfied`,
//!   `handle_invalid_dependency`) keeps the job pending for ever, never
//!   tested again; or, with `SchedulerParameters=kill_invalid_depend` or the
//!   job's `--kill-on-invalid-dep=yes` (the job's option wins), cancels it
//!   then (`_kill_dependent`): it never starts, it has ended not OK for the
//!   jobs that depend on it (`afterany` and `afternotok` on it are met,
//!   `after` too), and it no longer holds back a `singleton` of its user
//!   and name. The controller counts the cancellation as a change of the
//!   job list (`last_job_update`) and ends the job's records.
//! - A job whose dependency is not fulfilled is not in the scheduling queue
//!   (`build_job_queue` calls `job_independent`): neither scheduler tries
//!   it, and it does not count in `default_queue_depth` or
//!   `bf_max_job_test`. Dependencies are tested when a job is submitted and
//!   at the start of every main and backfill pass (`schedule` and
//!   `_attempt_backfill` build their queue then), so a job becomes eligible
//!   at the first pass after its dependency is met: at once after an end
//!   (its epilog's pass), and at the pass after a start for `after`.
//! - Age: a job with a dependency accrues age from the time its dependency
//!   was found fulfilled (`accrue_time` is cleared while it depends, then
//!   set to `begin_time`, the time `job_independent` found it free); other
//!   jobs from their submit time, as before. A pending job's priority is
//!   recomputed at each priority tick, whether in the queue or not: a job
//!   entering the queue takes the priority of the last tick (age 0 for a
//!   job just freed of its dependency).
//! - Array throttle (`%N`): at most `N` tasks of an array run at once
//!   (`job_array_start_test`): a task of an array at its cap is left out of
//!   the queue at the start of a pass, and skipped (its partition not
//!   blocked) when a task of its array started earlier in the same pass.
//!   Array tasks are separate queue records; the queue breaks ties of
//!   tier, priority and submit time by job id, an array task's being its
//!   array job id, then by task id ([`crate::controller::Queued`]).
//! - The run counts, per [`Wait`], the tests that kept a job out of the
//!   queue (or a task out of a pass), and keeps each job's last reason.
//! - Without dependencies or throttles nothing here runs: today's
//!   behaviour, byte for byte.

use std::collections::HashMap;

use crate::machine::JobError;
use slasim_data::trace::sacct::jobs::{DependKind, SlurmWorkload};
use slasim_sim::units::Time;

/// Why an eligible-to-be job waits (Slurm's `state_reason` names).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Wait {
    /// `Dependency`: its dependency is not fulfilled yet.
    Dependency,
    /// `DependencyNeverSatisfied`: its dependency failed; it stays pending.
    DependencyNeverSatisfied,
    /// `JobArrayTaskLimit`: its array runs as many tasks as its throttle.
    JobArrayTaskLimit,
}

impl Wait {
    /// Every reason, in counter order.
    pub const ALL: [Wait; 3] = [Wait::Dependency, Wait::DependencyNeverSatisfied, Wait::JobArrayTaskLimit];

    /// Slurm's name of it (`squeue`'s REASON).
    pub fn name(self) -> &'static str {
        match self {
            Wait::Dependency => "Dependency",
            Wait::DependencyNeverSatisfied => "DependencyNeverSatisfied",
            Wait::JobArrayTaskLimit => "JobArrayTaskLimit",
        }
    }
}

const NONE: u32 = u32::MAX;

/// One part of a dependency: its type and its jobs, `targets[from..to]`.
#[derive(Debug, Clone, Copy)]
struct Part {
    kind: DependKind,
    from: u32,
    to: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Unsubmitted,
    Pending,
    Running,
    Ended,
}

/// A dependency's state (Slurm's `depend_state`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Met {
    Not,
    Yes,
    Never,
}

/// The dependencies and array throttles of a workload, resolved once, and
/// their state while it runs.
#[derive(Debug, Clone)]
pub struct Dependencies {
    /// Per job: its parts, `parts[part_at[j]..part_at[j + 1]]`.
    part_at: Vec<u32>,
    parts: Vec<Part>,
    /// Per part: its state, kept once fulfilled or failed (`depend_state`).
    part_state: Vec<Met>,
    targets: Vec<u32>,
    /// Per job: `?` (any part suffices).
    any: Vec<bool>,
    /// Per job: its (user, name) group, `NONE` without a name.
    group: Vec<u32>,
    /// Per group: its jobs.
    members: Vec<Vec<u32>>,
    /// Per job: its queue key (job id, or array job id and task id).
    key: Vec<(u64, u64)>,
    /// Per job: its array (`NONE`: not a task of a throttled array).
    array: Vec<u32>,
    /// Per array: its throttle, and its running tasks.
    throttle: Vec<u32>,
    array_running: Vec<u32>,
    /// Per job: it ends OK in the simulation.
    ok: Vec<bool>,
    state: Vec<State>,
    met: Vec<Met>,
    /// Per job: the time its age counts from.
    pub accrue: Vec<Time>,
    /// Submitted jobs out of the queue, in submission order.
    waiting: Vec<u32>,
    /// Jobs freed by the last [`Dependencies::release`], for the controller.
    pub released: Vec<u32>,
    /// Per reason: the tests that kept a job waiting.
    pub hits: [u64; Wait::ALL.len()],
    /// Per job: the reason it last waited for.
    pub reasons: Vec<Option<Wait>>,
    /// Per job: it is cancelled when its dependency fails.
    kill: Vec<bool>,
    /// Jobs cancelled since the controller last took them.
    pub cancelled_now: Vec<u32>,
}

impl Dependencies {
    /// Resolves `workload`'s dependencies and array throttles; `ok[j]`
    /// says whether job `j` ends OK in the simulation, `submit[j]` is its
    /// submit time; `kill_invalid_depend` is the cluster's setting.
    /// `None` when no job has a dependency or a throttle; a dependency on a
    /// job the workload lacks is a located error.
    pub fn new(
        workload: &SlurmWorkload,
        ok: &[bool],
        submit: &[Time],
        kill_invalid_depend: bool,
    ) -> Result<Option<Dependencies>, JobError> {
        let jobs = &workload.jobs;
        let any_relation = jobs.iter().any(|j| {
            j.relations.dependency.as_ref().is_some_and(|d| !d.on.is_empty())
                || j.relations.array.is_some_and(|a| a.throttle > 0)
        });
        if !any_relation {
            return Ok(None);
        }
        let n = jobs.len();
        let mut by_id: HashMap<u64, u32> = HashMap::new();
        let mut by_task: HashMap<(u64, u64), u32> = HashMap::new();
        let mut by_array: HashMap<u64, Vec<u32>> = HashMap::new();
        for (i, j) in jobs.iter().enumerate() {
            by_id.entry(j.id).or_insert(i as u32);
            if let Some(a) = j.relations.array {
                by_task.insert((a.job, a.task), i as u32);
                by_array.entry(a.job).or_default().push(i as u32);
            }
        }
        let key: Vec<(u64, u64)> =
            jobs.iter().map(|j| j.relations.array.map_or((j.id, 0), |a| (a.job, a.task))).collect();
        // Singleton groups: same user, same name.
        let mut groups: HashMap<(u32, u32), u32> = HashMap::new();
        let mut members: Vec<Vec<u32>> = Vec::new();
        let mut group = vec![NONE; n];
        for (i, j) in jobs.iter().enumerate() {
            if let Some(name) = j.relations.name {
                let g = *groups.entry((j.user, name)).or_insert_with(|| {
                    members.push(Vec::new());
                    (members.len() - 1) as u32
                });
                group[i] = g;
                members[g as usize].push(i as u32);
            }
        }
        for m in &mut members {
            m.sort_by_key(|&i| key[i as usize]);
        }
        let mut part_at = Vec::with_capacity(n + 1);
        part_at.push(0u32);
        let (mut parts, mut targets) = (Vec::new(), Vec::new());
        let mut any = vec![false; n];
        for (i, j) in jobs.iter().enumerate() {
            if let Some(d) = &j.relations.dependency {
                any[i] = d.any;
                for on in &d.on {
                    let from = targets.len() as u32;
                    if on.kind != DependKind::Singleton {
                        let found: &[u32] = match on.task {
                            Some(t) => by_task.get(&(on.job, t)).map(std::slice::from_ref).unwrap_or(&[]),
                            None => match by_array.get(&on.job) {
                                Some(tasks) => tasks,
                                None => by_id.get(&on.job).map(std::slice::from_ref).unwrap_or(&[]),
                            },
                        };
                        if found.is_empty() || found.contains(&(i as u32)) {
                            let id = on.task.map_or(on.job.to_string(), |t| format!("{}_{t}", on.job));
                            let detail = if found.is_empty() {
                                format!("{} on job {id}, which is not in the workload", on.kind.name())
                            } else {
                                format!("{} on job {id}: the job depends on itself", on.kind.name())
                            };
                            return Err(JobError {
                                origin: j.origin.to_string(),
                                id: j.id,
                                field: "Dependency".to_string(),
                                detail,
                            });
                        }
                        targets.extend_from_slice(found);
                    }
                    parts.push(Part { kind: on.kind, from, to: targets.len() as u32 });
                }
            }
            part_at.push(parts.len() as u32);
        }
        // Throttled arrays.
        let mut arrays: HashMap<u64, u32> = HashMap::new();
        let mut throttle = Vec::new();
        let mut array = vec![NONE; n];
        for (i, j) in jobs.iter().enumerate() {
            if let Some(a) = j.relations.array.filter(|a| a.throttle > 0) {
                let k = *arrays.entry(a.job).or_insert_with(|| {
                    throttle.push(a.throttle);
                    (throttle.len() - 1) as u32
                });
                array[i] = k;
            }
        }
        Ok(Some(Dependencies {
            part_at,
            part_state: vec![Met::Not; parts.len()],
            parts,
            targets,
            any,
            group,
            members,
            key,
            array_running: vec![0; throttle.len()],
            array,
            throttle,
            ok: ok.to_vec(),
            state: vec![State::Unsubmitted; n],
            met: vec![Met::Not; n],
            accrue: submit.to_vec(),
            waiting: Vec::new(),
            released: Vec::new(),
            hits: [0; Wait::ALL.len()],
            reasons: vec![None; n],
            kill: jobs.iter().map(|j| j.relations.kill_on_invalid_dep.unwrap_or(kill_invalid_depend)).collect(),
            cancelled_now: Vec::new(),
        }))
    }

    fn hit(&mut self, j: u32, reason: Wait) {
        self.hits[reason as usize] += 1;
        self.reasons[j as usize] = Some(reason);
    }

    /// `test_job_dependency`, once more for job `j`.
    fn test(&mut self, j: u32) -> Met {
        let (from, to) = (self.part_at[j as usize] as usize, self.part_at[j as usize + 1] as usize);
        if from == to || self.met[j as usize] != Met::Not {
            return if from == to { Met::Yes } else { self.met[j as usize] };
        }
        let any = self.any[j as usize];
        let (mut fulfilled, mut failed, mut unfulfilled) = (false, false, false);
        for k in from..to {
            if self.part_state[k] != Met::Not {
                match self.part_state[k] {
                    Met::Yes => fulfilled = true,
                    _ => failed = true,
                }
                continue;
            }
            let p = self.parts[k];
            let jobs = &self.targets[p.from as usize..p.to as usize];
            let all = |s: &[State], f: &dyn Fn(State) -> bool| jobs.iter().all(|&t| f(s[t as usize]));
            let ended = all(&self.state, &|s| s == State::Ended);
            let all_ok = jobs.iter().all(|&t| self.ok[t as usize]);
            let state = match p.kind {
                DependKind::After => {
                    if all(&self.state, &|s| matches!(s, State::Running | State::Ended)) {
                        Met::Yes
                    } else {
                        Met::Not
                    }
                }
                DependKind::AfterAny => {
                    if ended {
                        Met::Yes
                    } else {
                        Met::Not
                    }
                }
                DependKind::AfterOk => match (ended, all_ok) {
                    (false, _) => Met::Not,
                    (true, true) => Met::Yes,
                    (true, false) => Met::Never,
                },
                DependKind::AfterNotOk => match (ended, all_ok) {
                    (false, _) => Met::Not,
                    (true, false) => Met::Yes,
                    (true, true) => Met::Never,
                },
                DependKind::Singleton => {
                    if self.singleton_free(j) {
                        Met::Yes
                    } else {
                        Met::Not
                    }
                }
            };
            self.part_state[k] = state;
            match state {
                Met::Yes => fulfilled = true,
                Met::Never => failed = true,
                Met::Not => unfulfilled = true,
            }
        }
        let met = if any {
            if fulfilled {
                Met::Yes
            } else if !unfulfilled {
                Met::Never
            } else {
                Met::Not
            }
        } else if failed {
            Met::Never
        } else if unfulfilled {
            Met::Not
        } else {
            Met::Yes
        };
        self.met[j as usize] = met;
        met
    }

    /// `_find_singleton_job` finds none: no other job of the group runs,
    /// and none with a smaller key is pending.
    fn singleton_free(&self, j: u32) -> bool {
        let g = self.group[j as usize];
        if g == NONE {
            return true;
        }
        let mine = self.key[j as usize];
        !self.members[g as usize].iter().any(|&m| {
            m != j
                && match self.state[m as usize] {
                    State::Running => true,
                    State::Pending => self.key[m as usize] < mine,
                    _ => false,
                }
        })
    }

    /// `job_array_start_test`: whether job `j`'s array runs as many tasks
    /// as its throttle.
    pub(crate) fn at_cap(&self, j: u32) -> bool {
        let a = self.array[j as usize];
        a != NONE && self.array_running[a as usize] >= self.throttle[a as usize]
    }

    /// `job_independent` for job `j` at `now`: dependency, then throttle.
    /// Records the reason when it is not.
    fn independent(&mut self, j: u32, now: Time) -> Option<Wait> {
        let was = self.met[j as usize];
        match self.test(j) {
            Met::Not => return Some(Wait::Dependency),
            Met::Never => return Some(Wait::DependencyNeverSatisfied),
            Met::Yes => {
                if was == Met::Not && self.part_at[j as usize] != self.part_at[j as usize + 1] {
                    // `begin_time` then `accrue_time`: now.
                    self.accrue[j as usize] = now;
                }
            }
        }
        self.at_cap(j).then_some(Wait::JobArrayTaskLimit)
    }

    /// Job `j` is submitted at `now`: `true` if it joins the queue, else it
    /// waits here.
    pub fn submitted(&mut self, j: u32, now: Time) -> bool {
        self.state[j as usize] = State::Pending;
        match self.independent(j, now) {
            None => true,
            Some(reason) => {
                self.hit(j, reason);
                if reason != Wait::DependencyNeverSatisfied {
                    self.waiting.push(j);
                } else {
                    self.invalid(j);
                }
                false
            }
        }
    }

    /// `handle_invalid_dependency` for job `j`, whose dependency failed:
    /// with `kill` it is cancelled (`_kill_dependent`), else it stays
    /// pending, never tested again.
    fn invalid(&mut self, j: u32) {
        if self.kill[j as usize] {
            self.ok[j as usize] = false;
            self.state[j as usize] = State::Ended;
            self.cancelled_now.push(j);
        }
    }

    /// Job `j` starts.
    pub fn started(&mut self, j: u32) {
        self.state[j as usize] = State::Running;
        let a = self.array[j as usize];
        if a != NONE {
            self.array_running[a as usize] += 1;
        }
    }

    /// Job `j` ends.
    pub fn ended(&mut self, j: u32) {
        self.state[j as usize] = State::Ended;
        let a = self.array[j as usize];
        if a != NONE {
            self.array_running[a as usize] -= 1;
        }
    }

    /// Running job `j` is preempted and requeued: pending again, its array
    /// has one task fewer running.
    pub fn requeued(&mut self, j: u32) {
        self.ended(j);
        self.state[j as usize] = State::Pending;
    }

    /// Running job `j` is cancelled by preemption: it ends, not OK.
    pub fn cancelled(&mut self, j: u32) {
        self.ok[j as usize] = false;
        self.ended(j);
    }

    /// A queued job `j` at the start of a pass: `true` if its array is at
    /// its throttle, and it leaves the queue to wait here.
    pub fn leaves_queue(&mut self, j: u32) -> bool {
        if !self.at_cap(j) {
            return false;
        }
        self.hit(j, Wait::JobArrayTaskLimit);
        self.waiting.push(j);
        true
    }

    /// Whether any array is throttled (then queued tasks are tested).
    pub fn throttles(&self) -> bool {
        !self.throttle.is_empty()
    }

    /// In a pass: `true` if task `j`'s array reached its throttle since the
    /// pass began (the task is skipped).
    pub fn capped(&mut self, j: u32) -> bool {
        if self.at_cap(j) {
            self.hit(j, Wait::JobArrayTaskLimit);
            return true;
        }
        false
    }

    /// At the start of a pass: the waiting jobs now independent move to
    /// [`Dependencies::released`], in submission order; a job whose
    /// dependency failed is dropped (pending for ever, or cancelled: then in
    /// [`Dependencies::cancelled_now`]).
    pub fn release(&mut self, now: Time) {
        self.released.clear();
        let mut waiting = std::mem::take(&mut self.waiting);
        waiting.retain(|&j| match self.independent(j, now) {
            None => {
                self.released.push(j);
                false
            }
            Some(reason) => {
                self.hit(j, reason);
                if reason == Wait::DependencyNeverSatisfied {
                    self.invalid(j);
                }
                reason != Wait::DependencyNeverSatisfied
            }
        });
        self.waiting = waiting;
    }
}
