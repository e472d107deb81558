//! An energy meter: integrates a cluster's idle, busy and down node-seconds
//! and prices them in joules.
//!
//! Reference: the power states of Batsim's energy plugin (Poquet, "Simulation
//! approach for resource management", PhD thesis, Univ. Grenoble Alpes,
//! 2017, §4.3.4): a node draws a constant power per state, and energy is the
//! integral of the machine's power over time. Here the states are idle,
//! busy (running a job) and down (failed, until repaired).
//!
//! Contract:
//! - The meter takes [`NodeStates`] on its input: from the time of one
//!   message until the next, `busy` nodes draw `busy_watts`, `down` nodes
//!   `down_watts` and the others `idle_watts`. The last message of an
//!   instant sets the state after it.
//! - It integrates from `start` (a run's first submission) and reports the
//!   integral up to the last job end it was told of ([`NodeStates::job_ended`]):
//!   the run's makespan window, the window of its utilisation.
//! - A meter is a model added to a bench and connected to a cluster's
//!   `node_states` output; a cluster whose output is unconnected sends
//!   nothing, so a run without a meter costs nothing more.

use kameo::Actor;
use kameo::message::{Context, Message};
use serde::{Deserialize, Serialize};

use crate::setting::InvalidSetting;
use crate::sim::kernel::{Model, Outbox};
use crate::sim::model::{Batched, Buffers, Finish};
use crate::sim::port::Receive;
use crate::units::Time;

/// Watts a node draws in each state (`[energy]`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyConfig {
    /// An idle node (up, running nothing).
    pub idle_watts: f64,
    /// A node running a job.
    pub busy_watts: f64,
    /// A failed node, until its repair.
    pub down_watts: f64,
}

impl EnergyConfig {
    /// Every wattage finite and not negative.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        for (name, watts) in [
            ("energy.idle_watts", self.idle_watts),
            ("energy.busy_watts", self.busy_watts),
            ("energy.down_watts", self.down_watts),
        ] {
            if !watts.is_finite() || watts < 0.0 {
                return Err(InvalidSetting::new(name, watts, "must be a finite number of watts, 0 or more"));
            }
        }
        Ok(())
    }
}

/// A cluster's node states after a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NodeStates {
    /// Nodes running a job.
    pub busy: u32,
    /// Nodes down.
    pub down: u32,
    /// The change ended a job's execution.
    pub job_ended: bool,
}

/// Node-seconds per state and their energy.
#[derive(Debug, Clone, Copy, PartialEq, Default, kameo::Reply)]
pub struct Energy {
    /// Idle node-seconds.
    pub idle_node_seconds: f64,
    /// Busy node-seconds.
    pub busy_node_seconds: f64,
    /// Down node-seconds.
    pub down_node_seconds: f64,
    /// Joules: Σ watts × node-seconds.
    pub joules: f64,
}

/// The meter model.
#[derive(Actor)]
pub struct EnergyMeter {
    watts: EnergyConfig,
    capacity: u32,
    start: Time,
    /// Integrated up to `last`, in the state `now`.
    last: Time,
    state: NodeStates,
    total: Energy,
    /// The integral at the last job end.
    at_last_end: Energy,
    buffers: Buffers<NodeStates>,
}

impl EnergyMeter {
    /// A meter of a cluster of `capacity` nodes, all idle, integrating from `start`.
    pub fn new(watts: EnergyConfig, capacity: u32, start: Time) -> EnergyMeter {
        EnergyMeter {
            watts,
            capacity,
            start,
            last: start,
            state: NodeStates { busy: 0, down: 0, job_ended: false },
            total: Energy::default(),
            at_last_end: Energy::default(),
            buffers: Buffers::default(),
        }
    }

    fn integrate(&mut self, to: Time) {
        let from = self.last.max(self.start);
        if to > from {
            let seconds = (to - from) as f64;
            let (busy, down) = (f64::from(self.state.busy), f64::from(self.state.down));
            let idle = f64::from(self.capacity.saturating_sub(self.state.busy + self.state.down));
            let w = self.watts;
            self.total.idle_node_seconds += idle * seconds;
            self.total.busy_node_seconds += busy * seconds;
            self.total.down_node_seconds += down * seconds;
            self.total.joules += (idle * w.idle_watts + busy * w.busy_watts + down * w.down_watts) * seconds;
        }
        self.last = self.last.max(to);
    }
}

impl Model for EnergyMeter {
    type Msg = NodeStates;

    fn handle(&mut self, now: Time, states: NodeStates, outbox: Outbox<NodeStates>) -> Outbox<NodeStates> {
        self.integrate(now);
        self.state = states;
        if states.job_ended {
            self.at_last_end = self.total;
        }
        outbox
    }
}

impl Receive<NodeStates> for EnergyMeter {
    fn receive(states: NodeStates) -> NodeStates {
        states
    }
}

impl Batched for EnergyMeter {
    fn buffers(&mut self) -> &mut Buffers<NodeStates> {
        &mut self.buffers
    }
}

crate::batched_actor!(EnergyMeter);

impl Message<Finish> for EnergyMeter {
    type Reply = Energy;

    async fn handle(&mut self, _: Finish, _ctx: &mut Context<Self, Self::Reply>) -> Self::Reply {
        self.at_last_end
    }
}
