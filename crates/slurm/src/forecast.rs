//! Start-time forecasts from a live snapshot of a cluster: the twin runs on
//! from the snapshot's queue, its running jobs on their nodes, with run
//! times drawn from the centre's history; each pending job's forecast is
//! the median of its replicas' starts, with an interval.
//!
//! Sources: `squeue(1)` (the output fields, `SLURM_TIME_FORMAT`, the
//! `123_[1-7%2]` form of an array's pending tasks), `sprio(1)` (`-l`: each
//! factor weighted), Slurm 22.05
//! `src/plugins/priority/multifactor/priority_multifactor.c` (the age
//! factor grows with the time since the job became eligible, to
//! `PriorityMaxAge`). The question and Slurm's own estimate against
//! learned ones: Brown et al., "Predicting batch queue job wait times for
//! informed scheduling of urgent HPC workloads" (ARCHER2, 2022). Run times
//! drawn from jobs alike in the history: as the replicas draw them
//! ([`crate::replica`]), after the runtime estimation of the overbooking
//! work (jobs grouped by what their users asked).
//!
//! Contract:
//! - Input: [`SQUEUE_FORMAT`]'s `squeue` lines (pending and running jobs,
//!   `SLURM_TIME_FORMAT=%s`), the Unix time they were taken, and optionally
//!   `sprio -l` of the same instant, the conf, the accounting dumps,
//!   reservations and node events, and a sacct dump of the centre's
//!   history. Bad input is a [`ConfError`] naming the file, the line and the
//!   field.
//! - Time 0 of the run is the snapshot. A running job runs on its nodes
//!   (`%N`) from its start (`%S`); a pending job is submitted at 0 (one
//!   held to a begin time, reason `BeginTime`, is eligible from its `%S`),
//!   and an array's pending range is its tasks, with the array's throttle.
//! - Priorities: a pending job's is its snapshot's (`%Q`). Its age factor
//!   grows from the snapshot's as Slurm's does (sprio's `AGE`; without
//!   sprio, counted from its submit time `%V`); the other factors, fair share
//!   among them, stay as at the snapshot.
//! - Run times: replica `r` draws each job's run time (stream
//!   [`START_FORECAST`], instance `r`) from the history's jobs that ended
//!   before the snapshot and asked alike: the same user, partition and time
//!   limit; else the same user; else any job. A running job draws among
//!   those that ran longer than it has so far. A draw is cut at the job's
//!   limit. Without history every job runs to its limit, as Slurm's own
//!   estimate assumes, and the replicas agree.
//! - A job's forecast is the median of its replicas' starts; its interval
//!   runs from the 5th to the 95th percentile (nearest rank). A job that
//!   never starts in a replica has no start there.
//! - Dependencies: the parts of a pending job's dependency (`%E`) on jobs of
//!   the snapshot are kept; parts on other jobs were met.
//! - Departures: fair share stays as at the snapshot (Slurm recomputes it
//!   every `PriorityCalcPeriod`); `%m` is read as memory per node; a job of
//!   several partitions is forecast in its first.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rand::RngExt;
use slasim_core::rng::{Stream, stream};
use slasim_data::trace::sacct::jobs::{ArrayTask, Relations, SlurmJob, SlurmWorkload, Tres};
use slasim_sim::units::Time;

use crate::accounting::Accounting;
use crate::admission::Admission;
use crate::bench::{Scenario, simulate};
use crate::conf::{ConfError, SlurmConf};
use crate::controller::{Resumed, Settings};
use crate::machine::Machine;

/// The stream run times are drawn from, one instance per replica.
pub const START_FORECAST: Stream = Stream::new("start-forecast", 24);

/// The `squeue -o` format a forecast reads (with `-h -t PD,R` and
/// `SLURM_TIME_FORMAT=%s`): id, name, user, account, partition, QOS, state,
/// priority, reason, submit time, start time (Slurm's estimate for a
/// pending job), time limit, nodes, CPUs, memory per node, TRES per node,
/// node list, dependency, reservation, features.
pub const SQUEUE_FORMAT: &str = "%i|%j|%u|%a|%P|%q|%T|%Q|%r|%V|%S|%l|%D|%C|%m|%b|%N|%E|%v|%f";

/// One job of a snapshot, as squeue printed it.
#[derive(Debug, Clone, PartialEq)]
pub struct Listed {
    /// Its line in the file.
    pub line: u64,
    /// `%i` as printed (`123`, `123_4`, `123_[1-7%2]`).
    pub id: String,
    /// The job id, or the array job id of an array's task or range.
    pub job: u64,
    /// The tasks it stands for (an array's task or pending range), with
    /// the array's throttle (0: none).
    pub tasks: Vec<u64>,
    /// The array's `%N`.
    pub throttle: u32,
    /// `%u`, `%a`, `%P` (its first partition), `%q`.
    pub user: String,
    pub account: String,
    pub partition: String,
    pub qos: String,
    /// `%T` is `RUNNING`.
    pub running: bool,
    /// `%Q`.
    pub priority: u32,
    /// `%r`.
    pub reason: String,
    /// `%V`, Unix seconds.
    pub submit: i64,
    /// `%S`: a running job's start, a pending job's estimate (none: `N/A`).
    pub start: Option<i64>,
    /// `%l` in seconds (none: unlimited).
    pub limit: Option<Time>,
    /// The request, in total (`%D`, `%C`, `%m` times `%D`, GPUs of `%b` times `%D`).
    pub request: Tres,
    /// `%N`, expanded.
    pub nodes: Vec<String>,
    /// `%E`'s unfulfilled parts, `(unfulfilled)` dropped (none: no dependency).
    pub dependency: Option<String>,
    /// `%v` (none: `(null)`).
    pub reservation: Option<String>,
    /// `%f` (none: `(null)`).
    pub features: Option<String>,
}

/// A snapshot: the jobs squeue listed at `at`, and sprio's age factors.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Snapshot {
    /// The file and line where it begins.
    pub path: PathBuf,
    /// Unix time it was taken.
    pub at: i64,
    /// The jobs, in file order.
    pub jobs: Vec<Listed>,
    /// sprio's weighted `AGE` by (job id, partition); empty without sprio.
    pub ages: HashMap<(u64, String), f64>,
}

/// `(null)`, `N/A`, empty: not set.
fn set(v: &str) -> Option<&str> {
    let v = v.trim();
    (!v.is_empty() && v != "(null)" && v != "N/A" && v != "None").then_some(v)
}

/// Parses squeue lines of [`SQUEUE_FORMAT`] (`text`, from line `first` of `path`).
pub fn parse_queue(text: &str, path: &Path, first: u64) -> Result<Vec<Listed>, ConfError> {
    let mut out = Vec::new();
    for (line, raw) in (first..).zip(text.lines()) {
        if raw.trim().is_empty() || raw.starts_with("JOBID") {
            continue;
        }
        let err =
            |field: &str, detail: String| ConfError { path: path.to_path_buf(), line, field: field.into(), detail };
        let f: Vec<&str> = raw.split('|').collect();
        if f.len() != 18 && f.len() != 20 {
            return Err(err(
                "columns",
                format!("{} fields; squeue -o '{SQUEUE_FORMAT}' prints 20 (18 without %v and %f)", f.len()),
            ));
        }
        let int = |i: usize, field: &str| -> Result<Option<i64>, ConfError> {
            set(f[i]).map(|v| v.parse::<i64>().map_err(|_| err(field, format!("`{v}` is not a number")))).transpose()
        };
        let id = f[0].trim().to_string();
        let (job, tasks, throttle) = array_of(&id).map_err(|d| err("JOBID", d))?;
        let running = match f[6].trim() {
            "RUNNING" => true,
            "PENDING" => false,
            s => {
                return Err(err("STATE", format!("`{s}`: a snapshot lists PENDING and RUNNING jobs (squeue -t PD,R)")));
            }
        };
        let count = |i: usize, field: &str| -> Result<u32, ConfError> {
            let v = f[i].trim();
            v.parse::<u32>().map_err(|_| err(field, format!("`{v}` is not a count")))
        };
        let nodes = count(12, "NODES")?.max(1);
        let mem_mib = match set(f[14]) {
            None => 0,
            Some(v) => crate::sacctmgr::mebibytes(v.trim_end_matches('c'))
                .ok_or_else(|| err("MIN_MEMORY", format!("`{v}` is not an amount of memory")))?,
        };
        let gpus = match set(f[15]) {
            None => 0,
            Some(v) => gpus_of(v).map_err(|d| err("TRES_PER_NODE", d))?,
        };
        let start = int(10, "START_TIME")?;
        let node_list = match set(f[16]) {
            Some(v) => crate::conf::expand_hostlist(v).map_err(|d| err("NODELIST", d))?,
            None => Vec::new(),
        };
        if running && (start.is_none() || node_list.is_empty()) {
            return Err(err("START_TIME", format!("running job {id} has no start or no nodes")));
        }
        out.push(Listed {
            line,
            id,
            job,
            tasks,
            throttle,
            user: f[2].trim().to_string(),
            account: f[3].trim().to_string(),
            partition: f[4].trim().split(',').next().unwrap_or("").to_string(),
            qos: f[5].trim().to_string(),
            running,
            priority: count(7, "PRIORITY")?,
            reason: f[8].trim().to_string(),
            submit: int(9, "SUBMIT_TIME")?.ok_or_else(|| err("SUBMIT_TIME", "not set".into()))?,
            start,
            limit: crate::conf::parse_time(f[11].trim()).map_err(|d| err("TIME_LIMIT", d))?,
            request: Tres { cpus: count(13, "CPUS")?, mem_mib: mem_mib * u64::from(nodes), nodes, gpus: gpus * nodes },
            nodes: node_list,
            dependency: set(f[17]).map(unfulfilled).filter(|d| !d.is_empty()),
            reservation: f.get(18).and_then(|v| set(v)).map(str::to_string),
            features: f.get(19).and_then(|v| set(v)).map(str::to_string),
        });
    }
    Ok(out)
}

/// `123` (no task), `123_4` (task 4), `123_[1-7%2]` (tasks 1 to 7, throttle 2).
fn array_of(id: &str) -> Result<(u64, Vec<u64>, u32), String> {
    let bad = || format!("`{id}` is not a job id (123, 123_4 or 123_[1-7%2])");
    let Some((job, rest)) = id.split_once('_') else {
        return Ok((id.parse().map_err(|_| bad())?, Vec::new(), 0));
    };
    let job = job.parse().map_err(|_| bad())?;
    if let Ok(task) = rest.parse::<u64>() {
        return Ok((job, vec![task], 0));
    }
    let range = rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')).ok_or_else(bad)?;
    let (list, throttle) = match range.split_once('%') {
        Some((l, t)) => (l, t.parse::<u32>().map_err(|_| bad())?),
        None => (range, 0),
    };
    let mut tasks = Vec::new();
    for part in list.split(',') {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (u64, u64) = (a.parse().map_err(|_| bad())?, b.parse().map_err(|_| bad())?);
                if b < a || b - a > 1_000_000 {
                    return Err(bad());
                }
                tasks.extend(a..=b);
            }
            None => tasks.push(part.parse().map_err(|_| bad())?),
        }
    }
    Ok((job, tasks, throttle))
}

/// GPUs per node of a TRES-per-node string (`gres:gpu:2`, `gres/gpu:a100:2`, `gres:gpu`).
fn gpus_of(v: &str) -> Result<u32, String> {
    let mut gpus = 0;
    for part in v.split(',') {
        let p = part.strip_prefix("gres:").or_else(|| part.strip_prefix("gres/")).unwrap_or(part);
        let mut words = p.split(':');
        if words.next() != Some("gpu") {
            continue;
        }
        let last = words.next_back();
        gpus += match last {
            None => 1,
            Some(n) => n
                .parse::<u32>()
                .or_else(|_| if p.matches(':').count() == 1 { Ok(1) } else { Err(()) })
                .map_err(|_| format!("`{v}`: not a GPU count"))?,
        };
    }
    Ok(gpus)
}

/// The unfulfilled parts of a dependency as squeue prints it:
/// `afterok:18(unfulfilled),afterany:19(unfulfilled)` → `afterok:18,afterany:19`.
fn unfulfilled(v: &str) -> String {
    v.split([',', '?'])
        .filter(|p| !p.contains("(failed)"))
        .map(|p| p.split('(').next().unwrap_or(p))
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(",")
}

/// Parses `sprio -l` (`text`, from line `first` of `path`): the weighted
/// `AGE` of each job and partition.
pub fn parse_sprio(text: &str, path: &Path, first: u64) -> Result<HashMap<(u64, String), f64>, ConfError> {
    let mut out = HashMap::new();
    let mut columns: Option<(usize, usize, usize)> = None;
    for (line, raw) in (first..).zip(text.lines()) {
        let words: Vec<&str> = raw.split_whitespace().collect();
        if words.is_empty() {
            continue;
        }
        let err =
            |field: &str, detail: String| ConfError { path: path.to_path_buf(), line, field: field.into(), detail };
        if words[0] == "JOBID" {
            let at = |name: &str| words.iter().position(|w| *w == name);
            columns = match (at("JOBID"), at("PARTITION"), at("AGE")) {
                (Some(j), Some(p), Some(a)) => Some((j, p, a)),
                _ => return Err(err("header", "no JOBID, PARTITION and AGE columns (sprio -l)".into())),
            };
            continue;
        }
        let Some((j, p, a)) = columns else {
            return Err(err("header", "a line before sprio's header".into()));
        };
        let get = |i: usize| words.get(i).copied().ok_or_else(|| err("columns", "fewer fields than the header".into()));
        let id = get(j)?;
        let (job, _, _) = array_of(id).map_err(|d| err("JOBID", d))?;
        let age: f64 = get(a)?.parse().map_err(|_| err("AGE", format!("`{}` is not a number", words[a])))?;
        out.insert((job, get(p)?.to_string()), age);
    }
    Ok(out)
}

/// Reads the snapshots of a file the loaded cluster test writes
/// (`snapshots.txt`, or `.gz`): sections `### UNIX squeue -t PD,R
/// (forecast)`, each with the `### UNIX sprio -l` section that follows it.
pub fn read_snapshots(path: &Path) -> Result<Vec<Snapshot>, ConfError> {
    let io = |e: std::io::Error| ConfError {
        path: path.to_path_buf(),
        line: 0,
        field: "file".into(),
        detail: format!("cannot read: {e}"),
    };
    let mut text = String::new();
    let mut input = slasim_data::trace::sacct::open(path).map_err(|e| ConfError {
        path: path.to_path_buf(),
        line: 0,
        field: "file".into(),
        detail: e.to_string(),
    })?;
    std::io::Read::read_to_string(&mut input, &mut text).map_err(io)?;
    // (line of the header, its time, its name, its body's first line, the body).
    let mut sections: Vec<(u64, i64, String, u64, String)> = Vec::new();
    for (line, raw) in (1u64..).zip(text.lines()) {
        if let Some(head) = raw.strip_prefix("### ") {
            let (at, name) = head.split_once(' ').unwrap_or((head, ""));
            let at = at.parse::<i64>().map_err(|_| ConfError {
                path: path.to_path_buf(),
                line,
                field: "###".into(),
                detail: format!("`{at}` is not Unix seconds"),
            })?;
            sections.push((line, at, name.to_string(), line + 1, String::new()));
        } else if let Some(s) = sections.last_mut() {
            s.4.push_str(raw);
            s.4.push('\n');
        }
    }
    let mut out: Vec<Snapshot> = Vec::new();
    for (_, at, name, first, body) in &sections {
        if name.starts_with("squeue -t PD,R") {
            out.push(Snapshot {
                path: path.to_path_buf(),
                at: *at,
                jobs: parse_queue(body, path, *first)?,
                ages: HashMap::new(),
            });
        } else if name.starts_with("sprio")
            && let Some(s) = out.last_mut()
            && s.ages.is_empty()
            && (at - s.at).abs() <= 5
        {
            s.ages = parse_sprio(body, path, *first)?;
        }
    }
    Ok(out)
}

/// What a forecast runs on besides the snapshot: the conf, the dumps, and
/// the phase of slurmctld's periodic passes.
#[derive(Debug, Clone)]
pub struct Centre {
    /// The conf.
    pub conf: SlurmConf,
    /// The QOS and association dumps.
    pub accounting: Accounting,
    /// A reservations dump, if any.
    pub reservations: Option<crate::reservation::Reservations>,
    /// A node event dump, if any.
    pub events: Option<crate::sacctmgr::EventDump>,
    /// slurmctld's start and its backfill agent's (Unix seconds).
    pub controller_start: Option<i64>,
    pub backfill_start: Option<i64>,
}

/// Jobs of the history that ended before a snapshot, grouped as alike.
#[derive(Debug, Clone, Default)]
pub struct History {
    /// (user, partition, limit) → run times.
    by_request: HashMap<(String, String, Option<Time>), Vec<Time>>,
    by_user: HashMap<String, Vec<Time>>,
    all: Vec<Time>,
}

impl History {
    /// The jobs of `workload` (a sacct dump) that ended before Unix time `at`.
    pub fn before(workload: &SlurmWorkload, at: i64) -> History {
        let mut h = History::default();
        let epoch = workload.epoch.unwrap_or(0);
        for job in &workload.jobs {
            let Some(logged) = &job.logged else { continue };
            if logged.start < 0 || epoch + logged.end > at {
                continue;
            }
            let run = logged.end - logged.start;
            let user = workload.users.get(job.user as usize).cloned().unwrap_or_default();
            let part = workload.partitions.get(job.partition as usize).cloned().unwrap_or_default();
            h.by_request.entry((user.clone(), part, job.time_limit)).or_default().push(run);
            h.by_user.entry(user).or_default().push(run);
            h.all.push(run);
        }
        h
    }

    /// The run times of the jobs like `job` that ran longer than `ran`.
    fn alike(&self, job: &Listed, ran: Time) -> Vec<Time> {
        let key = (job.user.clone(), job.partition.clone(), job.limit);
        [self.by_request.get(&key), self.by_user.get(&job.user), Some(&self.all)]
            .into_iter()
            .flatten()
            .map(|runs| runs.iter().copied().filter(|&r| r > ran).collect::<Vec<_>>())
            .find(|runs| !runs.is_empty())
            .unwrap_or_default()
    }
}

/// One pending job's forecast.
#[derive(Debug, Clone, PartialEq)]
pub struct Forecast {
    /// `%i` of its snapshot line, with the task for an array's range (`123_5`).
    pub id: String,
    /// The job id (an array task's array job id) and task.
    pub job: u64,
    pub task: Option<u64>,
    /// Its snapshot line's user, partition and reason.
    pub user: String,
    pub partition: String,
    pub reason: String,
    /// Slurm's estimate (`%S`), Unix seconds.
    pub slurm: Option<i64>,
    /// The median of the replicas' starts, and the interval (Unix seconds);
    /// none when it started in fewer than half of them.
    pub median: Option<i64>,
    pub low: Option<i64>,
    pub high: Option<i64>,
}

/// The workload of a snapshot: one job per running job and per pending job
/// or array task, in the snapshot's order.
struct Built {
    workload: SlurmWorkload,
    /// Per job: its snapshot line.
    from: Vec<usize>,
    /// Per job: its task (array tasks).
    task: Vec<Option<u64>>,
    /// The running jobs: each job, its nodes by name and its start.
    running: Vec<(u32, Vec<String>, Time)>,
}

fn build(s: &Snapshot) -> Result<Built, ConfError> {
    let mut w = SlurmWorkload { epoch: Some(s.at), ..SlurmWorkload::default() };
    let index = |names: &mut Vec<String>, name: &str| -> u32 {
        match names.iter().position(|n| n == name) {
            Some(i) => i as u32,
            None => {
                names.push(name.to_string());
                (names.len() - 1) as u32
            }
        }
    };
    let (mut from, mut task, mut running) = (Vec::new(), Vec::new(), Vec::new());
    for (i, l) in s.jobs.iter().enumerate() {
        let tasks: Vec<Option<u64>> =
            if l.tasks.is_empty() { vec![None] } else { l.tasks.iter().copied().map(Some).collect() };
        // A job held to a begin time (`--begin`, a requeue's delay) is
        // eligible then: squeue's `%S` for it.
        let eligible = match (l.running, l.reason.as_str(), l.start) {
            (false, "BeginTime", Some(t)) => (t - s.at).max(0),
            _ => 0,
        };
        for t in tasks {
            let job = SlurmJob {
                id: l.job,
                user: index(&mut w.users, &l.user),
                account: index(&mut w.accounts, &l.account),
                partition: index(&mut w.partitions, &l.partition),
                partitions: Vec::new(),
                qos: index(&mut w.qos, &l.qos),
                submit: eligible,
                submitted: 0,
                time_limit: l.limit,
                run_time: l.limit.unwrap_or(crate::machine::NO_LIMIT),
                request: l.request,
                logged: None,
                origin: slasim_data::trace::sacct::jobs::Origin::Dump { path: s.path.clone(), line: l.line },
                constraints: l.features.clone(),
                reservation: l.reservation.clone(),
                relations: Relations {
                    name: None,
                    array: t.map(|task| ArrayTask { job: l.job, task, throttle: l.throttle }),
                    dependency: dependency_of(s, l)?,
                    kill_on_invalid_dep: None,
                },
            };
            if l.running {
                running.push((w.jobs.len() as u32, l.nodes.clone(), l.start.unwrap_or(s.at) - s.at));
            }
            from.push(i);
            task.push(t);
            w.jobs.push(job);
        }
    }
    Ok(Built { workload: w, from, task, running })
}

/// `l`'s dependency, its parts on jobs not in snapshot `s` left out (met).
fn dependency_of(s: &Snapshot, l: &Listed) -> Result<Option<slasim_data::trace::sacct::jobs::Dependency>, ConfError> {
    let Some(text) = &l.dependency else { return Ok(None) };
    let parsed = slasim_data::trace::sacct::parse_dependency(text).map_err(|d| ConfError {
        path: s.path.clone(),
        line: l.line,
        field: "DEPENDENCY".into(),
        detail: d,
    })?;
    Ok(parsed.and_then(|mut d| {
        d.on.retain(|on| on.job == 0 || s.jobs.iter().any(|x| x.job == on.job));
        (!d.on.is_empty()).then_some(d)
    }))
}

/// What every replica of a snapshot's forecast runs from: the jobs
/// admitted, the run's settings, each job's priority and the running jobs
/// on their nodes. Built once; a replica gives only its run times.
struct Prepared<'a> {
    centre: &'a Centre,
    s: &'a Snapshot,
    built: &'a Built,
    admission: Admission,
    settings: Settings,
    priority: Vec<(f64, Time)>,
    running: Vec<Resumed>,
}

/// Admits `built` (of snapshot `s`) to `centre`'s machine, once.
fn prepare<'a>(centre: &'a Centre, s: &'a Snapshot, built: &'a Built) -> anyhow::Result<Prepared<'a>> {
    let conf = &centre.conf;
    let w = &built.workload;
    let machine = Machine::new(conf);
    let advance = centre
        .reservations
        .as_ref()
        .map(|r| crate::advance::AdvanceReservations::new(r, conf, &machine, w))
        .transpose()?;
    let outages = centre.events.as_ref().map(|e| crate::outage::Outages::new(e, &machine, w)).transpose()?;
    let admission = Admission::new(conf, machine, w, &centre.accounting, advance)?
        .preempting(conf, &centre.accounting, w)?
        .with_outages(outages);
    // Fair share stays as at the snapshot: its weight is folded into each
    // job's fixed part.
    let mut settings = Settings::of(conf, Some(s.at));
    settings.priority.weight_fairshare = 0.0;
    settings.started = centre.controller_start.map_or(0, |t| t - s.at);
    settings.backfill_started = centre.backfill_start.map(|t| t - s.at);
    let (weight, max_age) = (conf.priority.weight_age, conf.priority.max_age.max(1));
    let priority: Vec<(f64, Time)> = built
        .from
        .iter()
        .map(|&i| {
            let l = &s.jobs[i];
            let age = s
                .ages
                .get(&(l.job, l.partition.clone()))
                .copied()
                .unwrap_or_else(|| weight * ((s.at - l.submit).max(0) as f64 / max_age as f64).min(1.0));
            // The age it has at 0 is where it counts from: `age / weight` of `max_age` ago.
            let since = if weight > 0.0 { -(age / weight * max_age as f64).round() as Time } else { 0 };
            (f64::from(l.priority) - age, since)
        })
        .collect();
    let mut running = Vec::with_capacity(built.running.len());
    for (j, names, start) in &built.running {
        let l = &s.jobs[built.from[*j as usize]];
        let mut nodes = Vec::with_capacity(names.len());
        for name in names {
            let n = admission.machine.spec.names.iter().position(|m| m == name).ok_or_else(|| ConfError {
                path: s.path.clone(),
                line: l.line,
                field: "NODELIST".into(),
                detail: format!("node `{name}` of running job {} is not one of the conf's nodes", l.id),
            })?;
            nodes.push(n as u32);
        }
        running.push(Resumed { job: *j, nodes, start: *start });
    }
    check_room(&Scenario::of(&admission, conf, w, settings.clone()), &running, s, built)?;
    Ok(Prepared { centre, s, built, admission, settings, priority, running })
}

impl Prepared<'_> {
    /// The Unix-second start of each job in a run where each job runs
    /// `runs` (none: never started).
    fn run(&self, runs: &[Time]) -> anyhow::Result<Vec<Option<i64>>> {
        // Every job that can start has started once each job before it ran
        // to its limit.
        let horizon = runs.iter().fold(0, |sum: Time, r| sum.saturating_add(*r)).saturating_add(slasim_sim::units::DAY);
        let scenario = Scenario::of(&self.admission, &self.centre.conf, &self.built.workload, self.settings.clone())
            .until(horizon)
            .resumed(self.running.clone(), runs, &self.priority);
        let done = simulate(scenario)?;
        Ok(done.outcomes.iter().map(|o| (o.start >= 0).then_some(self.s.at + o.start)).collect())
    }
}

/// The snapshot's running jobs fit their nodes in the conf's machine.
fn check_room(scenario: &Scenario, running: &[Resumed], s: &Snapshot, built: &Built) -> Result<(), ConfError> {
    let machine = scenario.machine();
    let mut free = machine.free.clone();
    for r in running {
        let need = scenario.need_of(r.job);
        let share = need.per_node();
        for &n in &r.nodes {
            let f = &mut free[n as usize];
            if !f.covers(&share) {
                let l = &s.jobs[built.from[r.job as usize]];
                return Err(ConfError {
                    path: s.path.clone(),
                    line: l.line,
                    field: "NODELIST".into(),
                    detail: format!(
                        "running job {} does not fit on node {} with the jobs before it in the conf's machine",
                        l.id, machine.spec.names[n as usize]
                    ),
                });
            }
            f.sub(&share);
        }
    }
    Ok(())
}

/// Forecasts every pending job of `s` over `replicas` replicas of run times
/// drawn from `history` (none: each job runs to its limit), seed `seed`.
pub fn forecast(
    centre: &Centre,
    s: &Snapshot,
    history: Option<&History>,
    replicas: u32,
    seed: u64,
) -> anyhow::Result<Vec<Forecast>> {
    let built = build(s)?;
    let n = built.workload.jobs.len();
    let limit_of = |j: usize| s.jobs[built.from[j]].limit.unwrap_or(crate::machine::NO_LIMIT);
    let replicas = if history.is_some() { replicas.max(1) } else { 1 };
    let prepared = prepare(centre, s, &built)?;
    // Per job: how long it has run, and the run times of the jobs alike
    // that ran longer (the same in every replica).
    let alike: Vec<(Time, Vec<Time>)> = (0..n)
        .map(|j| {
            let l = &s.jobs[built.from[j]];
            let ran = if l.running { s.at - l.start.unwrap_or(s.at) } else { 0 };
            (ran, history.map_or_else(Vec::new, |h| h.alike(l, ran)))
        })
        .collect();
    let mut starts: Vec<Vec<i64>> = vec![Vec::new(); n];
    let mut runs = Vec::with_capacity(n);
    for r in 0..replicas {
        let mut rng = stream(seed, START_FORECAST, u64::from(r));
        runs.clear();
        for (j, (ran, alike)) in alike.iter().enumerate() {
            let limit = limit_of(j);
            // One draw per job whatever it is, so a job's draw does not
            // depend on the others'.
            let u: f64 = rng.random();
            let run = match alike.len() {
                0 => limit,
                k => alike[((u * k as f64) as usize).min(k - 1)],
            };
            runs.push(run.min(limit).max(ran + 1));
        }
        for (j, start) in prepared.run(&runs)?.into_iter().enumerate() {
            if let Some(t) = start {
                starts[j].push(t);
            }
        }
    }
    let rank = |sorted: &[i64], q: f64| slasim_core::metrics::nearest_rank(sorted, q).unwrap_or_default();
    Ok((0..n)
        .filter(|&j| !s.jobs[built.from[j]].running)
        .map(|j| {
            let l = &s.jobs[built.from[j]];
            let mut got = std::mem::take(&mut starts[j]);
            got.sort_unstable();
            let enough = 2 * got.len() >= replicas as usize && !got.is_empty();
            Forecast {
                id: match built.task[j] {
                    Some(t) => format!("{}_{t}", l.job),
                    None => l.id.clone(),
                },
                job: l.job,
                task: built.task[j],
                user: l.user.clone(),
                partition: l.partition.clone(),
                reason: l.reason.clone(),
                slurm: l.start,
                median: enough.then(|| rank(&got, 0.5)),
                low: enough.then(|| rank(&got, 0.05)),
                high: enough.then(|| rank(&got, 0.95)),
            }
        })
        .collect())
}

impl Centre {
    /// Reads the conf and the dumps given: QOS, associations, reservations
    /// and node events.
    pub fn read(
        conf: &Path,
        [qos, assoc, reservations, events]: [Option<&Path>; 4],
        controller_start: Option<i64>,
        backfill_start: Option<i64>,
    ) -> anyhow::Result<Centre> {
        let conf = crate::conf::read(conf)?;
        let accounting = Accounting::read(qos, assoc)?;
        if let Some(dump) = &accounting.qos {
            crate::sacctmgr::check_partition_qos(&conf, dump)?;
        }
        Ok(Centre {
            conf,
            accounting,
            reservations: reservations.map(crate::reservation::read).transpose()?,
            events: events.map(crate::sacctmgr::read_events).transpose()?,
            controller_start,
            backfill_start,
        })
    }
}

/// Seconds from the snapshot, or empty.
fn after(at: i64, t: Option<i64>) -> String {
    t.map_or_else(String::new, |t| (t - at).to_string())
}

/// The forecasts of snapshot `s` as a table: per pending job, Slurm's
/// estimate and the forecast with its interval, in seconds from the snapshot.
pub fn table(s: &Snapshot, forecasts: &[Forecast]) -> slasim_core::store::query::Table {
    let columns = ["job", "user", "partition", "reason", "Slurm's estimate", "forecast", "low", "high"];
    let rows = forecasts
        .iter()
        .map(|f| {
            vec![
                f.id.clone(),
                f.user.clone(),
                f.partition.clone(),
                f.reason.clone(),
                after(s.at, f.slurm),
                after(s.at, f.median),
                after(s.at, f.low),
                after(s.at, f.high),
            ]
        })
        .collect();
    slasim_core::store::query::Table { columns: columns.iter().map(|c| c.to_string()).collect(), rows }
}

/// Scores forecasts on a kept run: at each of `snapshots`, every pending
/// job that later started, forecast by the twin with run times at their
/// limits, by the twin with `replicas` replicas of run times drawn from the
/// jobs of `dump` that ended before the snapshot, and by Slurm (`%S`),
/// against its start in `dump`. A start within `bf_interval` of an
/// interval is within it.
pub fn score(
    centre: &Centre,
    dump: &Path,
    snapshots: &[Snapshot],
    replicas: u32,
    seed: u64,
) -> anyhow::Result<slasim_core::store::query::Table> {
    let options = slasim_data::trace::sacct::NativeOptions { lenient: false };
    let logged = slasim_data::trace::sacct::read_native(dump, options)?.0;
    let epoch = logged.epoch.unwrap_or(0);
    let mut started: HashMap<(u64, Option<u64>), i64> = HashMap::new();
    for job in &logged.jobs {
        if let Some(l) = job.logged.as_ref().filter(|l| l.start >= 0) {
            let key = match job.relations.array {
                Some(a) => (a.job, Some(a.task)),
                None => (job.id, None),
            };
            started.insert(key, epoch + l.start);
        }
    }
    // A start within a scheduling cycle of the interval is within it (the
    // tolerance of `slurm compare`).
    let slack = centre.conf.scheduler.bf_interval.max(0);
    // Per predictor: (errors of the jobs it forecast, jobs scored, starts within its interval).
    let mut scored = [(Vec::new(), 0usize, 0usize), (Vec::new(), 0, 0), (Vec::new(), 0, 0)];
    for s in snapshots {
        let limits = forecast(centre, s, None, 1, seed)?;
        let drawn = forecast(centre, s, Some(&History::before(&logged, s.at)), replicas, seed)?;
        for (at_limits, from_history) in limits.iter().zip(&drawn) {
            let Some(&truth) = started.get(&(at_limits.job, at_limits.task)) else { continue };
            if truth < s.at {
                continue;
            }
            for (k, f) in [(0, at_limits.slurm.filter(|&t| t >= s.at)), (1, at_limits.median), (2, from_history.median)]
            {
                scored[k].1 += 1;
                if let Some(t) = f {
                    scored[k].0.push((t - truth).abs());
                }
            }
            if from_history
                .low
                .zip(from_history.high)
                .is_some_and(|(lo, hi)| lo - slack <= truth && truth <= hi + slack)
            {
                scored[2].2 += 1;
            }
        }
    }
    let names = [
        "Slurm's estimate (squeue --start)".to_string(),
        "the twin, every job to its limit".to_string(),
        format!("the twin, run times from history ({replicas} replicas, median)"),
    ];
    let columns: [&str; 7] = [
        "forecast by",
        "jobs",
        "with a forecast",
        "within 60 s",
        "within 5 min",
        "median error (s)",
        &format!("within the interval (± {})", slasim_sim::units::seconds(slack)),
    ];
    let rows = scored
        .iter_mut()
        .zip(names)
        .enumerate()
        .map(|(k, ((errors, jobs, inside), name))| {
            errors.sort_unstable();
            let share = |n: usize| slasim_sim::units::percent(n as f64 / (*jobs).max(1) as f64);
            let within = |s: Time| errors.iter().filter(|&&e| e <= s).count();
            vec![
                name,
                jobs.to_string(),
                share(errors.len()),
                share(within(60)),
                share(within(300)),
                slasim_core::metrics::nearest_rank(errors, 0.5).map_or_else(String::new, |e| e.to_string()),
                if k == 2 { share(*inside) } else { String::new() },
            ]
        })
        .collect();
    Ok(slasim_core::store::query::Table { columns: columns.iter().map(|c| c.to_string()).collect(), rows })
}
