//! `slack-dvfs`: slack reclamation. When a job starts, its nodes are put in
//! the computing pstate that does its work for the fewest joules among
//! those that still end it by its deadline and its wall-time limit, reading
//! its estimate (the work a planner knows of). Nodes are never switched off.
//!
//! Reference: slack reclamation on DVS-enabled clusters (Kim, Buyya and
//! Kim, "Power aware scheduling of bag-of-tasks applications with deadline
//! constraints on DVS-enabled clusters", CCGrid 2007): a task that would
//! finish before its deadline at full speed runs slower, on less power,
//! and still finishes by it.
//!
//! With `left` the work its estimate leaves (nominal seconds) and pstate
//! `k` of speed `s_k` and busy watts `P_k`, the end at `k` is
//! `now + ⌈left / s_k⌉`; among the pstates whose end is at most
//! `min(deadline, kill time)` the one of least `P_k / s_k` (joules per
//! nominal second) is taken, the faster on a tie, pstate 0 when none other
//! fits. The wall-time limit is wall time, as Slurm and Batsim kill at it:
//! a job is never slowed past it, nor past its deadline. A job is decided
//! once, at its start; its end then moves only if its work was misestimated.

use crate::cluster::strategy::Cluster;
use crate::policy::energy::{EnergyPolicy, EnergyPolicyInfo, EnergyPolicySettings, Moment};
use slasim_core::units::{JobId, NodeId, Time};

/// The policy.
pub struct SlackDvfs {
    jobs: Vec<JobId>,
    nodes: Vec<NodeId>,
}

/// The pstate of least joules per unit of work that ends work `left` by
/// `bound` from `now`; 0 when none other does.
pub fn slack_pstate(pstates: &[crate::cluster::energy::Pstate], now: Time, left: f64, bound: Time) -> u32 {
    let mut best = (0, f64::MAX, 0.0);
    for (k, p) in pstates.iter().enumerate() {
        let end = now + (left / p.speed - 1e-9).ceil().max(0.0) as Time;
        let per_work = p.busy_watts / p.speed;
        let better = per_work < best.1 || (per_work == best.1 && p.speed > best.2);
        if (k == 0 || end <= bound) && better {
            best = (k as u32, per_work, p.speed);
        }
    }
    best.0
}

impl EnergyPolicy for SlackDvfs {
    fn decide(&mut self, c: &mut dyn Cluster, _: &Moment<'_>) {
        let Some(model) = c.power_model().copied() else { return };
        if model.pstates.is_empty() {
            return;
        }
        let now = c.now();
        c.running_jobs(&mut self.jobs);
        for &id in &self.jobs {
            let Some(run) = c.running(id).filter(|r| r.start == now) else { continue };
            let bound = c.job(id).deadline.min(run.kill_at);
            let pstate = slack_pstate(model.pstates.as_slice(), now, run.estimated_left, bound);
            c.job_nodes(id, &mut self.nodes);
            for &node in &self.nodes {
                if c.pstate(node) != pstate {
                    // Under a cap a refused change leaves the node as it was.
                    let _ = c.set_pstate(node, pstate);
                }
            }
        }
    }
}

fn build(_: &EnergyPolicySettings) -> Box<dyn EnergyPolicy> {
    Box::new(SlackDvfs { jobs: Vec::new(), nodes: Vec::new() })
}

/// Its registration.
pub const SLACK_DVFS: EnergyPolicyInfo = EnergyPolicyInfo {
    name: "slack-dvfs",
    description: "DVFS slack reclamation: run each job in the pstate of least joules that still ends it by its deadline and limit",
    switches_off: false,
    reads_idle_timeout: false,
    reads_plan: false,
    uses_pstates: true,
    build,
};
