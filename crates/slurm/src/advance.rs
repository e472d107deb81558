//! Advance reservations as the controller holds them: nodes kept from the
//! jobs that do not name a reservation during its window, and the jobs
//! that name it run only on its nodes, within it. (Not the backfill
//! scheduler's own planning reservations, which last one pass:
//! [`crate::controller`].)
//!
//! Sources: Slurm 22.05, `src/slurmctld/reservation.c` (`job_test_resv`,
//! `job_test_resv_now`, `_valid_job_access_resv`, `find_resv_end`),
//! `src/slurmctld/job_scheduler.c` (`schedule`: a job in a reservation
//! that does not fit blocks that reservation, not its partition;
//! `sort_job_queue2`: jobs in a reservation first),
//! `src/slurmctld/job_mgr.c` (`job_independent`: a job outside its
//! reservation's window is not queued; `job_time_limit`: a job running
//! in a reservation is ended when the reservation ends),
//! `src/slurmctld/node_scheduler.c` (`_get_req_features`) and
//! `src/plugins/sched/backfill/backfill.c` (`_attempt_backfill`: the
//! advance reservations' effect on `avail_bitmap` and `later_start`).
//!
//! Contract:
//! - Input: the reservations of `scontrol show reservation`
//!   ([`crate::reservation`]), placed on the workload's time axis (the
//!   dump's first submission on the same clock is time 0; for a workload
//!   without absolute times, a synthetic one, times in epoch seconds are
//!   seconds from its time 0). A reservation
//!   without an end lasts a year (Slurm's `YEAR_SECONDS`).
//! - A job that names no reservation may not be given a node of a
//!   reservation whose window `[start, end)` overlaps its own
//!   `[start, start + limit)` (`job_test_resv`: the job ends at or before
//!   the reservation starts, or starts at or after it ends). A `MAINT`
//!   reservation holding every node of its partition, `ALL_NODES`, and
//!   `PART_NODES` on its own partition, keep the whole partition from it
//!   (`ESLURM_RESERVATION_MAINT`): backfill defers it without a plan.
//! - A job that names a reservation is queued only from its start to its
//!   end (`job_independent`/`job_test_resv_now`), ahead of every job that
//!   names none (`sort_job_queue2`), and is given only its nodes (less any
//!   other reservation's over the job's time, unless its own is `MAINT`, or
//!   `OVERLAP` and the other is not `MAINT`). When it does not fit, the
//!   main scheduler skips the other jobs of that reservation in the pass
//!   and blocks no partition. One still pending after its reservation's
//!   end is held for good (`job_test_resv`: priority 0): it never starts.
//!   It ends `ResvOverRun` after the reservation's end (at the end with
//!   Slurm's default, 0) if its run goes past that, as a time-out. It must be allowed: its
//!   user in `Users` and its account in `Accounts` (names with `-`: all but
//!   them), as `_valid_job_access_resv` checks without association
//!   enforcement; a job not allowed is a located error (Slurm refuses it at
//!   submit).
//! - Backfill: for a job that names none, when a reservation removed nodes
//!   of its partition, `later_start` is the end of the first reservation
//!   ending at or after `start_res`, rounded up to `bf_resolution`, plus one
//!   second (`find_resv_end`), if within the window.
//! - Flags: the default, `MAINT`, `OVERLAP`, `ALL_NODES`, `PART_NODES` are
//!   modelled; `IGNORE_JOBS`, `SPEC_NODES`, `STATIC`,
//!   `NO_HOLD_JOBS_AFTER_END` and the `NO_*` flags only matter when a
//!   reservation is made, and are read as data. The others (`FLEX`,
//!   `ANY_NODES`, `TIME_FLOAT`, `REPLACE`, `REPLACE_DOWN`, the recurring
//!   `HOURLY`/`DAILY`/`WEEKDAY`/`WEEKEND`/`WEEKLY`, `PURGE_COMP`,
//!   `MAGNETIC`, `FIRST_CORES`) and core reservations (`NodeName=`
//!   `CoreIDs=` lines) are refused with a located error.
//! - Departures: `Groups` is not checked (a job has no group here);
//!   `Licenses`, `BurstBuffer` and `Watts` are not held; a job is ended
//!   exactly `ResvOverRun` after its reservation's end (slurmctld notices it
//!   in its periodic time-limit check, within 30 s); a job whose reservation is not open
//!   stays in the queue and counts towards `default_queue_depth` and
//!   `bf_max_job_test` (Slurm does not queue it).

use slasim_data::trace::sacct::jobs::{SlurmJob, SlurmWorkload};
use slasim_sim::units::Time;

use crate::conf::{ConfError, SlurmConf};
use crate::machine::{JobError, Machine};
use crate::reservation::Reservations;

/// The length of a reservation with no end (`YEAR_SECONDS`).
pub const NO_END: Time = crate::conf::YEAR_SECONDS;

/// Flags modelled ([`AdvanceReservation`]) or only data.
const MODELLED: [&str; 13] = [
    "MAINT",
    "OVERLAP",
    "ALL_NODES",
    "PART_NODES",
    "IGNORE_JOBS",
    "SPEC_NODES",
    "STATIC",
    "NO_HOLD_JOBS_AFTER_END",
    "NO_STATIC",
    "NO_PART_NODES",
    "NO_ANY_NODES",
    "NO_MAGNETIC",
    "NO_MAINT",
];

/// One advance reservation, on the workload's time axis.
#[derive(Debug, Clone, PartialEq)]
pub struct AdvanceReservation {
    /// `ReservationName`.
    pub name: String,
    /// `StartTime`.
    pub start: Time,
    /// `EndTime` (a year after the start without one).
    pub end: Time,
    /// Its nodes, one flag per node of the machine.
    pub nodes: Vec<bool>,
    /// `MAINT`.
    pub maint: bool,
    /// `OVERLAP`.
    pub overlap: bool,
    /// Per partition: it keeps the whole partition from jobs that do not
    /// name it (`MAINT` over all its nodes, `ALL_NODES`, `PART_NODES`).
    pub blocks: Vec<bool>,
    users: Vec<String>,
    accounts: Vec<String>,
}

/// Every advance reservation of a run.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AdvanceReservations {
    /// In file order.
    pub list: Vec<AdvanceReservation>,
    /// Per node: the reservations holding it.
    pub on_node: Vec<Vec<u16>>,
    /// `ResvOverRun`, seconds.
    pub over_run: Time,
}

impl AdvanceReservations {
    /// `file`'s reservations for `conf`'s machine and `workload`'s time
    /// axis; a flag or form not modelled is a located error.
    pub fn new(
        file: &Reservations,
        conf: &SlurmConf,
        machine: &Machine,
        workload: &SlurmWorkload,
    ) -> Result<AdvanceReservations, ConfError> {
        crate::reservation::check_against(file, conf)?;
        check_modelled(file)?;
        let err = |line: u64, field: &str, detail: String| ConfError {
            path: file.path.clone(),
            line,
            field: field.to_string(),
            detail,
        };
        let origin = crate::reservation::origin(file.clock, workload, "reservations")
            .map_err(|d| err(file.reservations.first().map_or(0, |r| r.line), "StartTime", d))?;
        let n = machine.spec.len();
        let mut out =
            AdvanceReservations { list: Vec::new(), on_node: vec![Vec::new(); n], over_run: conf.site.resv_over_run };
        for r in &file.reservations {
            let has = |f: &str| r.flags.iter().any(|x| x == f);
            let mut nodes = vec![false; n];
            for name in &r.nodes {
                if let Some(i) = machine.spec.names.iter().position(|m| m == name) {
                    nodes[i] = true;
                }
            }
            let blocks = machine
                .partitions
                .iter()
                .map(|p| {
                    has("ALL_NODES")
                        || (has("PART_NODES") && r.partition.as_deref() == Some(p.name.as_str()))
                        || (has("MAINT") && !p.nodes.is_empty() && p.nodes.iter().all(|&i| nodes[i as usize]))
                })
                .collect();
            let index = out.list.len() as u16;
            for (i, _) in nodes.iter().enumerate().filter(|(_, b)| **b) {
                out.on_node[i].push(index);
            }
            let start = r.start - origin;
            out.list.push(AdvanceReservation {
                name: r.name.clone(),
                start,
                end: r.end.map_or(start + NO_END, |e| e - origin),
                nodes,
                maint: has("MAINT"),
                overlap: has("OVERLAP"),
                blocks,
                users: r.users.clone(),
                accounts: r.accounts.clone(),
            });
        }
        Ok(out)
    }

    /// The reservation `job` names, checked: known, holding nodes, and
    /// allowing its user and account (`None`: it names none).
    pub fn of(&self, workload: &SlurmWorkload, job: &SlurmJob) -> Result<Option<u16>, JobError> {
        let Some(name) = &job.reservation else {
            return Ok(None);
        };
        let fail = |detail: String| JobError {
            origin: job.origin.to_string(),
            id: job.id,
            field: "Reservation".into(),
            detail,
        };
        let Some(i) = self.list.iter().position(|r| &r.name == name) else {
            let known: Vec<&str> = self.list.iter().map(|r| r.name.as_str()).collect();
            return Err(fail(format!(
                "reservation `{name}` is not in the reservations file (it has {})",
                known.join(", ")
            )));
        };
        let r = &self.list[i];
        if !r.nodes.iter().any(|&b| b) {
            return Err(fail(format!("reservation `{name}` holds no nodes: the job would never start")));
        }
        let user = workload.users.get(job.user as usize).map_or("", String::as_str);
        let account = workload.accounts.get(job.account as usize).map_or("", String::as_str);
        if !allowed(&r.users, user) || !allowed(&r.accounts, account) {
            return Err(fail(format!(
                "user `{user}` in account `{account}` may not use reservation `{name}` (Users={}, Accounts={})",
                r.users.join(","),
                r.accounts.join(",")
            )));
        }
        Ok(Some(i as u16))
    }

    /// Is reservation `r` open to its jobs at `now` (`job_test_resv_now`)?
    #[inline]
    pub fn open(&self, r: u16, now: Time) -> bool {
        let r = &self.list[r as usize];
        r.start <= now && now <= r.end
    }

    /// The end of reservation `r`.
    #[inline]
    pub fn end(&self, r: u16) -> Time {
        self.list[r as usize].end
    }

    /// When a job running in reservation `r` is ended (`job_time_limit`):
    /// `ResvOverRun` after the reservation's end.
    #[inline]
    pub fn ends_jobs_at(&self, r: u16) -> Time {
        self.list[r as usize].end.saturating_add(self.over_run)
    }

    /// Does a reservation keep partition `p` whole from a job naming none,
    /// over `[from, to)`?
    pub fn blocks(&self, p: usize, from: Time, to: Time) -> bool {
        self.list.iter().any(|r| r.blocks[p] && r.start < to && r.end > from)
    }

    /// Is node `n` kept from a job naming `own`, running over `[from, to)`?
    #[inline(always)]
    pub fn holds(&self, n: u32, own: Option<u16>, from: Time, to: Time) -> bool {
        let on = &self.on_node[n as usize];
        if on.is_empty() {
            return false;
        }
        let mine = own.map(|o| &self.list[o as usize]);
        on.iter().any(|&i| {
            let r = &self.list[i as usize];
            if r.start >= to || r.end <= from || own == Some(i) {
                return false;
            }
            match mine {
                None => true,
                Some(m) => !(m.maint || (m.overlap && !r.maint)),
            }
        })
    }

    /// `find_resv_end`: the end of the first reservation not ended before
    /// `start`, rounded up to `resolution`.
    pub fn first_end(&self, start: Time, resolution: Time, epoch: Time) -> Option<Time> {
        let end = self.list.iter().filter(|r| r.end >= start).map(|r| r.end).min()? + epoch;
        let resolution = resolution.max(1);
        Some(
            end.div_euclid(resolution) * resolution + if end.rem_euclid(resolution) > 0 { resolution } else { 0 }
                - epoch,
        )
    }
}

/// Checks that `file` holds only what is modelled: no flag outside
/// [`AdvanceReservations`]'s contract, no core reservation.
pub fn check_modelled(file: &Reservations) -> Result<(), ConfError> {
    let err = |line: u64, field: &str, detail: String| ConfError {
        path: file.path.clone(),
        line,
        field: field.to_string(),
        detail,
    };
    if let Some(i) =
        file.ignored.iter().find(|i| i.key.eq_ignore_ascii_case("NodeName") || i.key.eq_ignore_ascii_case("CoreIDs"))
    {
        return Err(err(i.line, &i.key, "core reservations (part of a node) are not modelled".into()));
    }
    for r in &file.reservations {
        if let Some(f) = r.flags.iter().find(|f| !MODELLED.contains(&f.as_str())) {
            return Err(err(r.line, "Flags", format!("reservation `{}`: flag {f} is not modelled", r.name)));
        }
    }
    Ok(())
}

/// `_valid_job_access_resv`'s list test: an empty list allows all; names
/// with `-` deny those named; else only those named.
fn allowed(list: &[String], name: &str) -> bool {
    if list.is_empty() {
        return true;
    }
    let negated = list.iter().any(|x| x.starts_with('-'));
    let named = list.iter().any(|x| x.trim_start_matches('-') == name);
    named != negated
}
