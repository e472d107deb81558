//! Node events as the controller holds them: the times a node is taken out
//! of scheduling and given back.
//!
//! Sources: Slurm 22.05, `src/slurmctld/node_mgr.c` (`update_node`: a
//! drained, failing or down node leaves `avail_node_bitmap`, and the update
//! calls `queue_job_scheduler`; `_drain_node` and `make_node_idle`: a
//! drain's event is recorded once the node has no job left), the
//! schedulers' use of `avail_node_bitmap` (`job_scheduler.c` `schedule`,
//! `backfill.c` `_attempt_backfill`, `node_scheduler.c` `_pick_best_nodes`),
//! and `backfill.c` `_more_work` (`last_node_update` is work).
//!
//! Contract:
//! - Input: the node events of a `sacctmgr show event` dump
//!   ([`crate::sacctmgr::parse_events`]), placed on the workload's time
//!   axis as advance reservations are ([`crate::reservation::origin`]).
//!   Every node an event names must be one of the conf's (a located error).
//!   An event not over lasts to the end of the run, which then ends a year
//!   after its last submission or node change: a job that only such nodes
//!   could hold never starts.
//! - From an event's start to its end, no job starts on its node: neither
//!   scheduler tests it, and no preemption makes room on it. Events of one
//!   node may overlap: it is out while any is. An event that ends in the
//!   second it began (a node down for less than a second, as when its slurmd
//!   answers at once under `ReturnToService=2`) takes the node out and back
//!   at that instant, before anything else there: a `DOWN` kills its jobs.
//! - A drain's running jobs run on. A node going `DOWN` kills its running
//!   jobs (`kill_running_job_by_node_name`), which are requeued, or ended
//!   under `JobRequeue=0` ([`crate::controller::requeue`]).
//! - At each instant where a node goes out or comes back, before anything
//!   else at that instant ([`crate::instant::NODE`]), the main scheduler is
//!   asked for a pass as a submission asks for one, and the backfill agent
//!   sees a change. An event starting before the workload's first
//!   submission holds from the start.
//! - A drain (`DRAIN`, `DRNG`, `FAIL`, `FAILG`) is recorded once its node
//!   has no job left (`make_node_idle`), not when it was asked for, and
//!   accounting keeps no other time. When the workload logged a run on the
//!   node that ended at the record, the drain was asked while it ran, and
//!   no job started on the node from the request to the record: the node
//!   goes out just after the last logged start on it before the record
//!   (`drain_asked`). A `DOWN` event is recorded at once.
//! - Departures:
//!   - A drain asked for after the last start on its node goes out earlier
//!     than Slurm took it out (by at most the time between that start and
//!     the request); no job started on it in between in the log. Without
//!     logged runs (a synthetic workload) a drain goes out at its record.
//!   - A sacct dump holds a job requeued after a node failure as one job:
//!     its last run, submitted at its requeue (the killed run is a record
//!     of `--duplicates` only). The replay runs that job once, from its
//!     requeue; a job the replay itself runs on the node is killed there.

use std::collections::HashMap;

use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::units::Time;

use crate::conf::ConfError;
use crate::machine::Machine;
use crate::sacctmgr::{EventDump, NodeEventKind};

/// A node going out of scheduling or coming back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// When, on the workload's time axis.
    pub at: Time,
    /// The node.
    pub node: u32,
    /// Out (an event starts) or back (one ends).
    pub out: bool,
    /// Out because it went down: its running jobs are killed.
    pub down: bool,
    /// Back at the very instant its event began (a node down for less than
    /// a second): it follows that event's going out.
    pub brief: bool,
}

impl Change {
    /// Its place among the changes of one node at one instant: back first
    /// (an event ending as the next begins leaves the node out), then out,
    /// then the back of an event that began at that instant.
    fn rank(&self) -> u8 {
        match (self.out, self.brief) {
            (false, false) => 0,
            (true, _) => 1,
            (false, true) => 2,
        }
    }
}

/// The node events of a run, as changes in time order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outages {
    /// In order of time, then node, then back before out.
    pub changes: Vec<Change>,
    /// The node events read.
    pub events: usize,
    /// An event is not over: its nodes never come back.
    pub open: bool,
}

impl Outages {
    /// `dump`'s node events on `machine`, on `workload`'s time axis.
    pub fn new(dump: &EventDump, machine: &Machine, workload: &SlurmWorkload) -> Result<Outages, ConfError> {
        let err = |line: u64, field: &str, detail: String| ConfError {
            path: dump.path.clone(),
            line,
            field: field.to_string(),
            detail,
        };
        let first = dump.events.first().map_or(0, |e| e.line);
        let origin =
            crate::reservation::origin(dump.clock, workload, "node events").map_err(|d| err(first, "TimeStart", d))?;
        let runs = logged_runs(workload, machine);
        let mut changes = Vec::new();
        for (e, nodes) in dump.events.iter().zip(nodes_of(dump, machine)?) {
            for node in nodes {
                let (start, down) = match e.kind {
                    NodeEventKind::Drain => (drain_asked(&runs[node as usize], e.start - origin), false),
                    NodeEventKind::Down => (e.start - origin, true),
                };
                changes.push(Change { at: start, node, out: true, down, brief: false });
                if let Some(end) = e.end {
                    let at = (end - origin).max(start);
                    changes.push(Change { at, node, out: false, down: false, brief: at == start });
                }
            }
        }
        let open = dump.events.iter().any(|e| e.end.is_none());
        Ok(Outages::of_changes(changes, dump.events.len(), open))
    }

    /// The outages `changes` make, from `events` events (`open`: one is not
    /// over), in their order.
    pub fn of_changes(mut changes: Vec<Change>, events: usize, open: bool) -> Outages {
        changes.sort_by_key(|c| (c.at, c.node, c.rank(), c.down));
        Outages { changes, events, open }
    }

    /// The first change after `t`, if any.
    pub fn first_after(&self, t: Time) -> Option<usize> {
        let i = self.changes.partition_point(|c| c.at <= t);
        (i < self.changes.len()).then_some(i)
    }
}

/// Per node of `machine`: the runs `workload` logged on it, `(start, end)`
/// on its time axis. A node list that does not read is not used.
fn logged_runs(workload: &SlurmWorkload, machine: &Machine) -> Vec<Vec<(Time, Time)>> {
    let index: HashMap<&str, u32> =
        machine.spec.names.iter().enumerate().map(|(i, n)| (n.as_str(), i as u32)).collect();
    let mut runs = vec![Vec::new(); machine.spec.len()];
    for logged in workload.jobs.iter().filter_map(|j| j.logged.as_ref()).filter(|l| l.start >= 0) {
        let Some(Ok(names)) = logged.node_list.as_deref().map(crate::conf::expand_hostlist) else { continue };
        for name in names {
            if let Some(&n) = index.get(name.as_str()) {
                runs[n as usize].push((logged.start, logged.end));
            }
        }
    }
    runs
}

/// When a drain recorded at `recorded` was asked for, as the runs the log
/// shows on its node bound it. Slurm records a drain once its node has no
/// job left (`make_node_idle`): when a logged run on the node ended at the
/// record (within a second), the drain was asked while it ran, after the
/// last logged start on the node before the record, for no job started on
/// it since; the drain is taken from just after that start. Otherwise the
/// node was idle, and the record is the request.
fn drain_asked(runs: &[(Time, Time)], recorded: Time) -> Time {
    if !runs.iter().any(|&(_, end)| (end - recorded).abs() <= 1) {
        return recorded;
    }
    runs.iter().map(|&(start, _)| start).filter(|&s| s < recorded).max().map_or(recorded, |s| (s + 1).min(recorded))
}

/// Per event of `dump`, its nodes on `machine`; a node the machine lacks
/// is a located error.
pub fn nodes_of(dump: &EventDump, machine: &Machine) -> Result<Vec<Vec<u32>>, ConfError> {
    dump.events
        .iter()
        .map(|e| {
            e.nodes
                .iter()
                .map(|name| {
                    machine.spec.names.iter().position(|m| m == name).map(|i| i as u32).ok_or_else(|| ConfError {
                        path: dump.path.clone(),
                        line: e.line,
                        field: "NodeName".into(),
                        detail: format!("node `{name}` is not one of the conf's nodes"),
                    })
                })
                .collect()
        })
        .collect()
}

/// Per node: how many events hold it out, and the bitset of the nodes none
/// holds (`avail_node_bitmap`).
#[derive(Debug, Clone)]
pub struct NodeStates {
    /// Per node: the events holding it out now.
    out: Vec<u16>,
    /// One bit per node: in service.
    pub up: Vec<u64>,
}

impl NodeStates {
    /// `nodes` nodes, all in service.
    pub fn new(nodes: usize) -> NodeStates {
        let mut up = vec![u64::MAX; nodes.div_ceil(64)];
        if nodes % 64 != 0
            && let Some(last) = up.last_mut()
        {
            *last = (1u64 << (nodes % 64)) - 1;
        }
        NodeStates { out: vec![0; nodes], up }
    }

    /// Applies `change`.
    pub fn apply(&mut self, change: Change) {
        let n = change.node as usize;
        let count = &mut self.out[n];
        *count = if change.out { count.saturating_add(1) } else { count.saturating_sub(1) };
        if *count == 0 {
            self.up[n / 64] |= 1 << (n % 64);
        } else {
            self.up[n / 64] &= !(1 << (n % 64));
        }
    }
}
