//! A cluster as a strategy sees it through a decorator around the strategy
//! (a power policy, a PoS correction): every call goes on to the cluster
//! underneath, and the decorator's [`Watch`] hears the ones it cares about.
//!
//! Contract: [`Watched`] forwards every method of [`Cluster`], so a method
//! added to the port reaches the cluster through every decorator (a
//! decorator forwarding by hand fell back on the port's defaults for the
//! methods it left out). A watch changes no call's effect; only
//! [`Watch::calibrated_pos`] may answer for the cluster.

use crate::cluster::energy::{EnergyConfig, NodeStates};
use crate::cluster::power::{PowerRefusal, PowerState};
use crate::cluster::strategy::{Booking, Cluster, Outcome, RejectReason, RunningJob};
use crate::workload::job::Job;
use slasim_core::units::{JobId, NodeId, Time};

/// What a decorator hears of its strategy's calls (each after the cluster
/// has answered); by default nothing.
pub trait Watch {
    /// Job `id` was accepted with `booking`.
    fn accepted(&mut self, _cluster: &dyn Cluster, _id: JobId, _booking: Booking) {}
    /// Accepted job `id` was given up.
    fn failed(&mut self, _cluster: &dyn Cluster, _id: JobId) {}
    /// The PoS the strategy's acceptance tests read for a predicted `pos`:
    /// the cluster's by default.
    fn calibrated_pos(&self, cluster: &dyn Cluster, pos: f64) -> f64 {
        cluster.calibrated_pos(pos)
    }
    /// The strategy asked for `n` idle nodes and `got` them, or not.
    fn asked_idle(&self, _cluster: &dyn Cluster, _n: u32, _got: bool) {}
    /// The strategy asked whether `nodes` are ready, and they were, or not.
    fn asked_ready(&self, _cluster: &dyn Cluster, _nodes: &[NodeId], _ready: bool) {}
}

/// `cluster` seen through `watch`.
pub struct Watched<'a, W: Watch> {
    /// The cluster underneath.
    pub cluster: &'a mut dyn Cluster,
    /// What the decorator hears.
    pub watch: W,
}

impl<W: Watch> Cluster for Watched<'_, W> {
    fn now(&self) -> Time {
        self.cluster.now()
    }
    fn capacity(&self) -> u32 {
        self.cluster.capacity()
    }
    fn job(&self, id: JobId) -> &Job {
        self.cluster.job(id)
    }
    fn accept(&mut self, id: JobId, booking: Booking) {
        self.cluster.accept(id, booking);
        self.watch.accepted(&*self.cluster, id, booking);
    }
    fn reject(&mut self, id: JobId, reason: RejectReason) {
        self.cluster.reject(id, reason);
    }
    fn moved(&mut self, id: JobId) {
        self.cluster.moved(id);
    }
    fn pin(&mut self, id: JobId) {
        self.cluster.pin(id);
    }
    fn resumable(&self, id: JobId) -> Option<Time> {
        self.cluster.resumable(id)
    }
    fn fail(&mut self, id: JobId) {
        self.cluster.fail(id);
        self.watch.failed(&*self.cluster, id);
    }
    fn start(&mut self, id: JobId, nodes: &[NodeId], kill_at: Time) -> bool {
        self.cluster.start(id, nodes, kill_at)
    }
    fn idle_nodes(&self, n: u32, out: &mut Vec<NodeId>) -> bool {
        let got = self.cluster.idle_nodes(n, out);
        self.watch.asked_idle(&*self.cluster, n, got);
        got
    }
    fn nodes_ready(&self, nodes: &[NodeId]) -> bool {
        let ready = self.cluster.nodes_ready(nodes);
        self.watch.asked_ready(&*self.cluster, nodes, ready);
        ready
    }
    fn wake_at(&mut self, t: Time) {
        self.cluster.wake_at(t);
    }
    fn defect(&mut self, what: &str) {
        self.cluster.defect(what);
    }
    fn suspend(&mut self) {
        self.cluster.suspend();
    }
    fn calibrated_pos(&self, pos: f64) -> f64 {
        self.watch.calibrated_pos(&*self.cluster, pos)
    }
    fn outcome(&self, id: JobId) -> Option<Outcome> {
        self.cluster.outcome(id)
    }
    fn power_model(&self) -> Option<&EnergyConfig> {
        self.cluster.power_model()
    }
    fn power_state(&self, node: NodeId) -> PowerState {
        self.cluster.power_state(node)
    }
    fn idle_since(&self, node: NodeId) -> Time {
        self.cluster.idle_since(node)
    }
    fn node_states(&self) -> NodeStates {
        self.cluster.node_states()
    }
    fn idle_count(&self) -> u32 {
        self.cluster.idle_count()
    }
    fn nodes_in(&self, state: PowerState, idle_only: bool, out: &mut Vec<NodeId>) {
        self.cluster.nodes_in(state, idle_only, out);
    }
    fn switch_off(&mut self, node: NodeId) -> Result<(), PowerRefusal> {
        self.cluster.switch_off(node)
    }
    fn switch_on(&mut self, node: NodeId) -> Result<(), PowerRefusal> {
        self.cluster.switch_on(node)
    }
    fn pstate(&self, node: NodeId) -> u32 {
        self.cluster.pstate(node)
    }
    fn set_pstate(&mut self, node: NodeId, pstate: u32) -> Result<(), PowerRefusal> {
        self.cluster.set_pstate(node, pstate)
    }
    fn running_jobs(&self, out: &mut Vec<JobId>) {
        self.cluster.running_jobs(out);
    }
    fn running(&self, id: JobId) -> Option<RunningJob> {
        self.cluster.running(id)
    }
    fn job_nodes(&self, id: JobId, out: &mut Vec<NodeId>) {
        self.cluster.job_nodes(id, out);
    }
}
