//! pybatsim's shipped schedulers (easyBackfill, schedFcfs,
//! schedEasySjfBackfill) and the FCFS of `examples/batsim/` on the whole
//! KTH-SP2 log through the `batsim` strategy, next to slasim's built-in
//! `fcfs` and `easy`: each schedule is checked (every job finishes, no
//! machine holds two jobs at once) and measured (waits, wall time, how many
//! start times differ, and the rules that explain the differences:
//! fragmentation-blocked queue heads under contiguous allocation, starts out
//! of submission order). Minutes long, so ignored by default and not run by
//! `.ci/run`; it needs pybatsim (and fails, naming the command, without it):
//!
//!     .ci/pip-install-batsim
//!     cargo test --release --locked --test integration batsim_kth:: -- --ignored --nocapture
//!
//! It prints the table the guide (docs/src/guide/batsim.md) quotes.
//! `SLASIM_KTH_SCHEDULERS=easyBackfill,schedFcfs` picks schedulers and
//! `SLASIM_KTH_JOBS=3000` keeps the first jobs of the log.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::Instant;

use slasim::single::cluster::ExecutionRecord;
use slasim::single::cluster::bench::{Scenario, Simulated, simulate};
use slasim::single::policy::batsim::BatsimConfig;
use slasim::single::policy::{Placement, StrategySettings};
use slasim::single::workload::WorkloadSource;
use slasim::single::workload::failures::FailureStream;
use slasim::single::workload::job::Job;
use slasim::single::workload::prepare::PrepareConfig;

/// The virtual environment with pybatsim; panics, naming the install
/// command, when it is not there.
fn venv() -> PathBuf {
    let dir = std::env::var_os("SLASIM_BATSIM_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/batsim-venv"));
    let ok =
        Command::new(dir.join("bin/python")).args(["-c", "import batsim"]).output().is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "pybatsim is not installed in {} (SLASIM_BATSIM_VENV, else target/batsim-venv): run .ci/pip-install-batsim",
        dir.display()
    );
    dir
}

/// What one schedule shows.
struct Measured {
    name: String,
    seconds: f64,
    mean_wait: f64,
    max_wait: i64,
    differ_fcfs: usize,
    differ_easy: usize,
    /// Instants at which the oldest waiting job had enough free machines but
    /// no contiguous block of them.
    fragmented_heads: usize,
    /// Jobs started while an older job waited.
    out_of_order: usize,
    messages: u64,
    /// The first start that differs from its built-in counterpart, and why.
    first_divergence: Option<(i64, String)>,
}

/// Per job its (start, end, nodes) from the executions (one per job here).
fn schedule(s: &Simulated) -> Vec<Option<(i64, i64, Vec<u32>)>> {
    let mut out = vec![None; s.cluster.records.len()];
    for e in &s.cluster.executions {
        out[e.job as usize] = Some((e.start, e.end, e.nodes.clone()));
    }
    out
}

/// The most adjacent free machines.
fn widest_free_block(busy: &[bool]) -> u32 {
    let (mut widest, mut run) = (0, 0);
    for b in busy {
        run = if *b { 0 } else { run + 1 };
        widest = widest.max(run);
    }
    widest
}

/// The first start of `sched` that differs from `reference`, and the rule of
/// the external scheduler that explains it, read from its own schedule at
/// that instant: the job the reference started had enough free machines but
/// no contiguous block of them (contiguous allocation), or a job submitted
/// later started first (another order).
fn first_divergence(
    jobs: &[Job],
    reference: &[Option<(i64, i64, Vec<u32>)>],
    sched: &[Option<(i64, i64, Vec<u32>)>],
    capacity: u32,
) -> Option<(i64, String)> {
    let start = |s: &Option<(i64, i64, Vec<u32>)>| s.as_ref().map(|s| s.0);
    // The earliest instant at which one of the two starts a job the other does not.
    let t = reference
        .iter()
        .zip(sched)
        .filter(|(a, b)| start(a) != start(b))
        .flat_map(|(a, b)| [start(a), start(b)])
        .flatten()
        .min()?;
    // Machines busy in `sched` just before its starts at t.
    let mut busy = vec![false; capacity as usize];
    for (_, _, nodes) in sched.iter().flatten().filter(|(s, e, _)| *s < t && *e > t) {
        for &n in nodes {
            busy[n as usize] = true;
        }
    }
    let free = busy.iter().filter(|b| !**b).count() as u32;
    let block = widest_free_block(&busy);
    let missed = (0..jobs.len()).find(|&j| start(&reference[j]) == Some(t) && start(&sched[j]) != Some(t));
    let extra = (0..jobs.len()).find(|&j| start(&sched[j]) == Some(t) && start(&reference[j]) != Some(t));
    let why = match (missed, extra) {
        (Some(j), _) if free >= jobs[j].nodes && block < jobs[j].nodes => format!(
            "job {j} ({} machines) starts in the reference; {free} machines are free but the widest contiguous block has {block}: contiguous allocation",
            jobs[j].nodes
        ),
        (_, Some(k)) => format!(
            "job {k} (estimate {} s) starts first; the reference starts {}: another order",
            jobs[k].estimate,
            missed.map_or("no job then".to_string(), |j| format!("job {j} (estimate {} s)", jobs[j].estimate))
        ),
        (Some(j), None) => format!("job {j} starts in the reference only ({free} machines free, widest block {block})"),
        (None, None) => "none".to_string(),
    };
    Some((t, why))
}

/// Replays a schedule instant by instant: fragmentation-blocked heads and out-of-order starts.
fn replay(jobs: &[Job], executions: &[ExecutionRecord], capacity: u32) -> (usize, usize) {
    let mut node_lists: Vec<&[u32]> = vec![&[]; jobs.len()];
    // Events: (time, kind 0 = end, 1 = start, job).
    let mut events: Vec<(i64, u8, usize)> = Vec::new();
    for e in executions {
        node_lists[e.job as usize] = &e.nodes;
        events.push((e.end, 0, e.job as usize));
        events.push((e.start, 1, e.job as usize));
    }
    events.sort_unstable();
    let mut times: Vec<i64> = events.iter().map(|e| e.0).chain(jobs.iter().map(|j| j.occurrence)).collect();
    times.sort_unstable();
    times.dedup();
    let mut busy = vec![false; capacity as usize];
    let mut waiting = std::collections::BTreeSet::new();
    let (mut fragmented, mut out_of_order, mut k, mut next) = (0, 0, 0, 0);
    let mut started = Vec::new();
    for &t in &times {
        while next < jobs.len() && jobs[next].occurrence <= t {
            if jobs[next].nodes <= capacity {
                waiting.insert(next);
            }
            next += 1;
        }
        started.clear();
        while k < events.len() && events[k].0 == t {
            let (_, kind, job) = events[k];
            for &n in node_lists[job] {
                busy[n as usize] = kind == 1;
            }
            if kind == 1 {
                waiting.remove(&job);
                started.push(job);
            }
            k += 1;
        }
        // Started while an older job still waits.
        out_of_order += started.iter().filter(|&&j| waiting.first().is_some_and(|&w| w < j)).count();
        if let Some(&head) = waiting.first() {
            let need = jobs[head].nodes;
            let free = busy.iter().filter(|b| !**b).count() as u32;
            if free >= need && widest_free_block(&busy) < need {
                fragmented += 1;
            }
        }
    }
    (fragmented, out_of_order)
}

#[test]
#[ignore = "minutes: runs pybatsim's schedulers on the whole KTH-SP2 log; needs .ci/pip-install-batsim"]
fn kth_schedulers_compared() {
    let venv = venv();
    let path = common::traces().join("swf/KTH-SP2-1996-2.1-cln.swf.gz");
    let trace = WorkloadSource::Swf { path, lenient: true }.load().unwrap();
    let prepared = PrepareConfig::default().for_classic_modes().prepare(&trace).unwrap();
    let (mut jobs, capacity) = (prepared.batteries[0].jobs.to_vec(), prepared.capacity);
    assert_eq!((jobs.len(), capacity), (28_475, 100));
    // `SLASIM_KTH_JOBS=N` keeps the first N jobs: pybatsim's scheduler-API
    // schedulers (schedFcfs, schedEasySjfBackfill) filter every job ever
    // submitted at each decision, so their time grows with the square of the jobs.
    if let Some(n) = std::env::var("SLASIM_KTH_JOBS").ok().and_then(|n| n.parse().ok()) {
        jobs.truncate(n);
    }
    println!("KTH-SP2, the first {} jobs", jobs.len());
    let base = common::settings("fcfs", Placement::BestFit, &[], 0.1);
    let run = |name: &str, settings: &StrategySettings| {
        let strategy = slasim::single::policy::build(name, settings, capacity).unwrap();
        let clock = Instant::now();
        let s = simulate(Scenario::new(capacity, jobs.clone(), FailureStream::none(capacity), strategy));
        (s, clock.elapsed().as_secs_f64())
    };
    let (fcfs, fcfs_time) = run("fcfs", &base);
    let (easy, easy_time) = run("easy", &base);
    let (fcfs, easy) = (fcfs.unwrap(), easy.unwrap());
    let reference = [(schedule(&fcfs), "fcfs"), (schedule(&easy), "easy")];
    let out = std::env::temp_dir().join("slasim-batsim-kth");
    let scheduler = |s: &str| {
        format!(
            "{} {s} -s tcp://127.0.0.1:{{port}} -v warning -o '{{\"export-prefix\": \"{}\"}}'",
            venv.join("bin/pybatsim").display(),
            out.display()
        )
    };
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/batsim/fcfs.py").display().to_string();
    let mut rows = Vec::new();
    let measure = |name: &str, s: &Simulated, seconds: f64, messages: u64| -> Measured {
        assert_eq!(common::double_booking(&s.cluster.executions), None, "{name}: a machine holds two jobs at once");
        assert!(s.cluster.executions.iter().all(|e| e.nodes.iter().all(|&n| n < capacity)));
        let done = s.cluster.records.iter().filter(|(_, r)| r.actual_end.is_some()).count();
        let too_wide = jobs.iter().filter(|j| j.nodes > capacity).count();
        assert_eq!(done + too_wide, jobs.len(), "{name}: every job that fits runs to its end");
        let sched = schedule(s);
        let waits: Vec<i64> =
            sched.iter().zip(&jobs).filter_map(|(x, j)| x.as_ref().map(|x| x.0 - j.occurrence)).collect();
        let differ = |r: &Vec<Option<(i64, i64, Vec<u32>)>>| {
            sched.iter().zip(r).filter(|(a, b)| a.as_ref().map(|a| a.0) != b.as_ref().map(|b| b.0)).count()
        };
        let (fragmented_heads, out_of_order) = replay(&jobs, &s.cluster.executions, capacity);
        // FCFS-like schedulers against the built-in fcfs, the others against easy.
        let counterpart = if name.to_lowercase().contains("fcfs") { 0 } else { 1 };
        let first = if name.starts_with("slasim") {
            None
        } else {
            first_divergence(&jobs, &reference[counterpart].0, &sched, capacity)
        };
        Measured {
            name: name.to_string(),
            seconds,
            mean_wait: waits.iter().sum::<i64>() as f64 / waits.len() as f64,
            max_wait: waits.iter().copied().max().unwrap_or(0),
            differ_fcfs: differ(&reference[0].0),
            differ_easy: differ(&reference[1].0),
            fragmented_heads,
            out_of_order,
            messages,
            first_divergence: first,
        }
    };
    rows.push(measure("slasim fcfs", &fcfs, fcfs_time, 0));
    rows.push(measure("slasim easy", &easy, easy_time, 0));
    // `SLASIM_KTH_SCHEDULERS=easyBackfill,schedFcfs` picks some (schedFcfs,
    // on pybatsim's slower scheduler API under FCFS's long queues, takes longest).
    let picked = std::env::var("SLASIM_KTH_SCHEDULERS").unwrap_or_default();
    let all = [
        (
            "examples/batsim/fcfs.py",
            format!("{} {example} -s tcp://127.0.0.1:{{port}} -v warning", venv.join("bin/pybatsim").display()),
        ),
        ("pybatsim easyBackfill", scheduler("easyBackfill")),
        ("pybatsim schedEasySjfBackfill", scheduler("schedEasySjfBackfill")),
        ("pybatsim schedFcfs", scheduler("schedFcfs")),
    ];
    let chosen = all.into_iter().filter(|(n, _)| picked.is_empty() || picked.split(',').any(|p| n.ends_with(p)));
    for (name, command) in chosen {
        let settings = StrategySettings {
            batsim: Some(Arc::new(BatsimConfig { command: Some(command), timeout: 120.0, ..BatsimConfig::default() })),
            ..base.clone()
        };
        let (s, seconds) = run("batsim", &settings);
        let s = s.unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut instants: Vec<i64> = jobs.iter().map(|j| j.occurrence).collect();
        instants.extend(s.cluster.records.iter().filter_map(|(_, r)| r.actual_end));
        instants.sort_unstable();
        instants.dedup();
        rows.push(measure(name, &s, seconds, instants.len() as u64 + 2));
    }
    println!(
        "| schedule | wall time (s) | messages | mean wait (s) | max wait (s) | starts ≠ slasim fcfs | starts ≠ slasim easy | fragmented-head instants | out-of-order starts |"
    );
    println!("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
    for r in &rows {
        println!(
            "| {} | {:.2} | {} | {:.0} | {} | {} | {} | {} | {} |",
            r.name,
            r.seconds,
            if r.messages == 0 { "-".to_string() } else { r.messages.to_string() },
            r.mean_wait,
            r.max_wait,
            r.differ_fcfs,
            r.differ_easy,
            r.fragmented_heads,
            r.out_of_order
        );
    }
    for r in &rows {
        if let Some((t, why)) = &r.first_divergence {
            println!("{}: first start differing from its built-in counterpart at t = {t}: {why}", r.name);
        }
    }
    // The example FCFS is the built-in FCFS, job by job.
    if let Some(row) = rows.iter().find(|r| r.name == "examples/batsim/fcfs.py") {
        assert_eq!(row.differ_fcfs, 0);
    }
}
