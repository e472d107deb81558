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
//!   scheduler tests it, and no preemption makes room on it. Jobs running on
//!   it run on. Events of one node may overlap: it is out while any is.
//! - At each instant where a node goes out or comes back, before anything
//!   else at that instant ([`crate::instant::NODE`]), the main scheduler is
//!   asked for a pass as a submission asks for one, and the backfill agent
//!   sees a change. An event starting before the workload's first
//!   submission holds from the start.
//! - Departures:
//!   - Slurm records a drain's event when the node has drained (its last
//!     job ended), not when the drain was asked for, and accounting keeps
//!     no other time. Between the two, Slurm started no job on the node; the
//!     twin may.
//!   - Slurm kills the jobs of a node that goes `DOWN` (`NODE_FAIL`, and
//!     requeues a batch job that allows it); here they run on. A sacct dump
//!     holds such a requeued job as one job with its last run's time (the
//!     killed run is a record of `--duplicates` only), which the twin runs
//!     once.

use slasim_data::trace::sacct::jobs::SlurmWorkload;
use slasim_sim::units::Time;

use crate::conf::ConfError;
use crate::machine::Machine;
use crate::sacctmgr::EventDump;

/// A node going out of scheduling or coming back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    /// When, on the workload's time axis.
    pub at: Time,
    /// The node.
    pub node: u32,
    /// Out (an event starts) or back (one ends).
    pub out: bool,
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
        let mut changes = Vec::new();
        for (e, nodes) in dump.events.iter().zip(nodes_of(dump, machine)?) {
            for node in nodes {
                changes.push(Change { at: e.start - origin, node, out: true });
                if let Some(end) = e.end {
                    changes.push(Change { at: end - origin, node, out: false });
                }
            }
        }
        // Back before out at one instant: an event ending as the next begins
        // leaves the node out.
        changes.sort_by_key(|c| (c.at, c.node, c.out));
        Ok(Outages { changes, events: dump.events.len(), open: dump.events.iter().any(|e| e.end.is_none()) })
    }

    /// The first change after `t`, if any.
    pub fn first_after(&self, t: Time) -> Option<usize> {
        let i = self.changes.partition_point(|c| c.at <= t);
        (i < self.changes.len()).then_some(i)
    }
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
