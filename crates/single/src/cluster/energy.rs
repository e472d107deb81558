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

use serde::{Deserialize, Serialize};

use slasim_core::setting::InvalidSetting;
use slasim_core::sim::kernel::{Model, Outbox};
use slasim_core::sim::model::{Batched, Buffers, Finish};
use slasim_core::sim::port::Receive;
use slasim_core::units::Time;

/// Watts a node draws in each state, its sleep state and the power cap
/// (`[energy]`).
///
/// Every key but the three wattages is optional and left out of the
/// canonical text when unset, so the ids of points without a power model do
/// not change.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyConfig {
    /// An idle node (up, on, running nothing).
    pub idle_watts: f64,
    /// A node running a job.
    pub busy_watts: f64,
    /// A failed node, until its repair.
    pub down_watts: f64,
    /// The sleep state nodes can be switched into (Batsim's sleep pstate
    /// with its switching-off and switching-on virtual pstates).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sleep: Option<SleepState>,
    /// Watts the whole cluster may draw at any instant: no start, switch or
    /// repair that would exceed it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap_watts: Option<f64>,
    /// Batsim: how many computing pstates the platform lists before its
    /// sleep pstate (all draw the idle and busy watts). pybatsim's
    /// `fcfsSchedSleep` expects 3 (sleep is pstate 3).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub compute_pstates: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// A sleep state and the transitions into and out of it (`[energy.sleep]`).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SleepState {
    /// Watts of a sleeping node.
    pub watts: f64,
    /// Seconds from the switch-off request until the node sleeps.
    pub switch_off_seconds: Time,
    /// Joules the switch-off takes.
    pub switch_off_joules: f64,
    /// Seconds from the switch-on request until the node can run a job.
    pub switch_on_seconds: Time,
    /// Joules the switch-on takes.
    pub switch_on_joules: f64,
}

impl SleepState {
    /// Watts drawn while switching off (its joules spread over its seconds).
    pub fn switch_off_watts(&self) -> f64 {
        spread(self.switch_off_joules, self.switch_off_seconds)
    }

    /// Watts drawn while switching on.
    pub fn switch_on_watts(&self) -> f64 {
        spread(self.switch_on_joules, self.switch_on_seconds)
    }
}

fn spread(joules: f64, seconds: Time) -> f64 {
    if seconds > 0 { joules / seconds as f64 } else { 0.0 }
}

impl EnergyConfig {
    /// A meter only: the three wattages, no sleep state, cap or policy.
    pub const fn watts(idle_watts: f64, busy_watts: f64, down_watts: f64) -> EnergyConfig {
        EnergyConfig { idle_watts, busy_watts, down_watts, sleep: None, cap_watts: None, compute_pstates: 1 }
    }

    /// A node's watts in each state, in [`MeteredState::ALL`]'s order.
    pub fn state_watts(&self) -> [f64; 6] {
        let sleep = self.sleep;
        [
            self.idle_watts,
            self.busy_watts,
            self.down_watts,
            sleep.map_or(0.0, |s| s.switch_off_watts()),
            sleep.map_or(0.0, |s| s.watts),
            sleep.map_or(0.0, |s| s.switch_on_watts()),
        ]
    }

    /// True when nodes have power states or the cluster a cap: the cluster
    /// tracks each node's power state.
    pub fn has_power_states(&self) -> bool {
        self.sleep.is_some() || self.cap_watts.is_some()
    }

    /// Every wattage and duration finite and not negative; a sleep state
    /// below idle; a cap that holds one idle node and that a failure never
    /// exceeds.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        let mut watts = vec![
            ("energy.idle_watts", self.idle_watts),
            ("energy.busy_watts", self.busy_watts),
            ("energy.down_watts", self.down_watts),
        ];
        if let Some(s) = &self.sleep {
            watts.extend([
                ("energy.sleep.watts", s.watts),
                ("energy.sleep.switch_off_joules", s.switch_off_joules),
                ("energy.sleep.switch_on_joules", s.switch_on_joules),
            ]);
        }
        if let Some(cap) = self.cap_watts {
            watts.push(("energy.cap_watts", cap));
        }
        for (name, w) in watts {
            if !w.is_finite() || w < 0.0 {
                return Err(InvalidSetting::new(name, w, "must be a finite number of watts or joules, 0 or more"));
            }
        }
        let mut seconds = vec![];
        if let Some(s) = &self.sleep {
            seconds.extend([
                ("energy.sleep.switch_off_seconds", s.switch_off_seconds),
                ("energy.sleep.switch_on_seconds", s.switch_on_seconds),
            ]);
        }
        for (name, t) in seconds {
            if t < 0 {
                return Err(InvalidSetting::new(name, t, "must be a number of seconds, 0 or more"));
            }
        }
        if let Some(s) = &self.sleep {
            if s.watts > self.idle_watts {
                return Err(InvalidSetting::new(
                    "energy.sleep.watts",
                    s.watts,
                    "a sleeping node must draw no more than an idle one (energy.idle_watts)",
                ));
            }
            for (name, seconds, joules) in [
                ("energy.sleep.switch_off_joules", s.switch_off_seconds, s.switch_off_joules),
                ("energy.sleep.switch_on_joules", s.switch_on_seconds, s.switch_on_joules),
            ] {
                if seconds == 0 && joules > 0.0 {
                    return Err(InvalidSetting::new(
                        name,
                        joules,
                        "a transition of 0 seconds takes 0 joules (give it a duration to spend them over)",
                    ));
                }
            }
        }
        if let Some(cap) = self.cap_watts {
            if cap < self.idle_watts {
                return Err(InvalidSetting::new(
                    "energy.cap_watts",
                    cap,
                    "a cap below one node's idle power (energy.idle_watts) admits no node",
                ));
            }
            let lowest = [self.idle_watts, self.busy_watts]
                .into_iter()
                .chain(self.sleep.map(|s| s.watts))
                .fold(f64::MAX, f64::min);
            if self.down_watts > lowest {
                return Err(InvalidSetting::new(
                    "energy.down_watts",
                    self.down_watts,
                    "with a power cap, a failed node may draw no more than any other state (a failure never raises the power)",
                ));
            }
        }
        if self.compute_pstates == 0 {
            return Err(InvalidSetting::new(
                "energy.compute_pstates",
                0,
                "a platform has at least one computing pstate",
            ));
        }
        Ok(())
    }
}

/// A cluster's node states after a change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NodeStates {
    /// Nodes running a job.
    pub busy: u32,
    /// Nodes down.
    pub down: u32,
    /// Nodes switching off, asleep and switching on (0 without power states).
    pub switching_off: u32,
    /// Nodes asleep.
    pub asleep: u32,
    /// Nodes switching on.
    pub switching_on: u32,
    /// Switch-offs and switch-ons begun so far.
    pub switches_off: u32,
    /// Switch-ons begun so far.
    pub switches_on: u32,
    /// The change ended a job's execution.
    pub job_ended: bool,
}

impl NodeStates {
    /// Idle nodes (up, on, running nothing) of a cluster of `capacity`.
    pub fn idle(&self, capacity: u32) -> u32 {
        capacity.saturating_sub(self.busy + self.down + self.switching_off + self.asleep + self.switching_on)
    }

    /// Nodes per state, in [`MeteredState::ALL`]'s order.
    pub fn per_state(&self, capacity: u32) -> [u32; 6] {
        [self.idle(capacity), self.busy, self.down, self.switching_off, self.asleep, self.switching_on]
    }

    /// Watts the cluster draws in these states.
    pub fn watts(&self, w: &EnergyConfig, capacity: u32) -> f64 {
        self.per_state(capacity).iter().zip(w.state_watts()).map(|(&n, watts)| f64::from(n) * watts).sum()
    }
}

/// A node power state the energy table reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MeteredState {
    /// Up, on, running nothing.
    Idle,
    /// Running a job.
    Busy,
    /// Failed.
    Down,
    /// Switching off.
    SwitchingOff,
    /// Asleep.
    Asleep,
    /// Switching on.
    SwitchingOn,
}

impl MeteredState {
    /// Every state, in the energy table's order.
    pub const ALL: [MeteredState; 6] = [
        MeteredState::Idle,
        MeteredState::Busy,
        MeteredState::Down,
        MeteredState::SwitchingOff,
        MeteredState::Asleep,
        MeteredState::SwitchingOn,
    ];

    /// Its name in the store.
    pub fn as_str(self) -> &'static str {
        match self {
            MeteredState::Idle => "idle",
            MeteredState::Busy => "busy",
            MeteredState::Down => "down",
            MeteredState::SwitchingOff => "switching-off",
            MeteredState::Asleep => "asleep",
            MeteredState::SwitchingOn => "switching-on",
        }
    }
}

/// Node-seconds per state and their energy.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Energy {
    /// Idle node-seconds.
    pub idle_node_seconds: f64,
    /// Busy node-seconds.
    pub busy_node_seconds: f64,
    /// Down node-seconds.
    pub down_node_seconds: f64,
    /// Joules: Σ watts × node-seconds, transitions included.
    pub joules: f64,
    /// Node-seconds and joules per state, in [`MeteredState::ALL`]'s order.
    pub states: [(f64, f64); 6],
    /// Switch-offs and switch-ons begun in the window.
    pub switches: (u32, u32),
}

/// The meter model.
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
            state: NodeStates::default(),
            total: Energy::default(),
            at_last_end: Energy::default(),
            buffers: Buffers::default(),
        }
    }

    fn integrate(&mut self, to: Time) {
        let from = self.last.max(self.start);
        if to > from {
            let seconds = (to - from) as f64;
            let per_state = self.state.per_state(self.capacity).into_iter().zip(self.watts.state_watts());
            for (k, (nodes, watts)) in per_state.into_iter().enumerate() {
                let node_seconds = f64::from(nodes) * seconds;
                self.total.states[k].0 += node_seconds;
                self.total.states[k].1 += node_seconds * watts;
                self.total.joules += node_seconds * watts;
            }
            self.total.idle_node_seconds = self.total.states[0].0;
            self.total.busy_node_seconds = self.total.states[1].0;
            self.total.down_node_seconds = self.total.states[2].0;
        }
        self.last = self.last.max(to);
    }
}

impl Model for EnergyMeter {
    type Msg = NodeStates;

    fn handle(&mut self, now: Time, states: NodeStates, outbox: Outbox<NodeStates>) -> Outbox<NodeStates> {
        self.integrate(now);
        let begun = (states.switches_off - self.state.switches_off, states.switches_on - self.state.switches_on);
        self.total.switches.0 += begun.0;
        self.total.switches.1 += begun.1;
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

impl Finish for EnergyMeter {
    type Final = Energy;

    fn finish(&mut self) -> Self::Final {
        self.at_last_end
    }
}
