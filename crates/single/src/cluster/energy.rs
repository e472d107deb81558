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
//! - DVFS: with computing pstates ([`EnergyConfig::pstates`]), idle and
//!   busy nodes draw their pstate's watts: the message carries the watts
//!   they draw above pstate 0's ([`NodeStates::pstate_watts`]), zero
//!   without pstates, so the sums are the ones above, bit for bit.
//! - A meter is a model added to a bench and connected to a cluster's
//!   `node_states` output; a cluster whose output is unconnected sends
//!   nothing, so a run without a meter costs nothing more.

use serde::{Deserialize, Serialize};

use crate::cluster::cap::CapSeriesConfig;
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
    /// A cap that follows a series instead (`[energy.cap_series]`): grid
    /// watts plus a share of the `[signals]` renewable supply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cap_series: Option<CapSeriesConfig>,
    /// Batsim: how many computing pstates the platform lists before its
    /// sleep pstate (all draw the idle and busy watts). pybatsim's
    /// `fcfsSchedSleep` expects 3 (sleep is pstate 3). With
    /// [`EnergyConfig::pstates`], 1 (unset) or their number.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub compute_pstates: u32,
    /// DVFS: the computing pstates, each with its speed and watts
    /// (`[[energy.pstates]]`); pstate 0 is nominal. Empty: one pstate, the
    /// watts above, at full speed.
    #[serde(default, skip_serializing_if = "Pstates::is_empty")]
    pub pstates: Pstates,
}

/// The most computing pstates a node may have.
pub const MAX_PSTATES: usize = 16;

/// A computing pstate (`[[energy.pstates]]`), as Batsim's platforms give
/// them: a speed and the watts of an idle and of a busy node.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Pstate {
    /// Speed relative to pstate 0 (1.0): a job of work W runs W / speed seconds.
    pub speed: f64,
    /// Watts of an idle node in this pstate.
    pub idle_watts: f64,
    /// Watts of a busy node in this pstate.
    pub busy_watts: f64,
}

impl Pstate {
    /// The nominal pstate with these watts.
    pub const fn nominal(idle_watts: f64, busy_watts: f64) -> Pstate {
        Pstate { speed: 1.0, idle_watts, busy_watts }
    }
}

/// A node's computing pstates, in a fixed array so that [`EnergyConfig`]
/// stays `Copy`. Written as a list; empty when no DVFS is modelled.
#[derive(Clone, Copy, PartialEq)]
pub struct Pstates {
    len: u8,
    states: [Pstate; MAX_PSTATES],
}

impl Pstates {
    /// No pstates: DVFS is not modelled.
    pub const NONE: Pstates = Pstates { len: 0, states: [Pstate::nominal(0.0, 0.0); MAX_PSTATES] };

    /// `list`, if it has at most [`MAX_PSTATES`] pstates, each of a speed
    /// above 0 and watts of 0 or more, and pstate 0 runs at speed 1 (the
    /// error names the pstate and the field).
    pub fn new(list: &[Pstate]) -> Result<Pstates, String> {
        if list.len() > MAX_PSTATES {
            return Err(format!("energy.pstates: {} pstates, at most {MAX_PSTATES} are modelled", list.len()));
        }
        for (k, p) in list.iter().enumerate() {
            if !p.speed.is_finite() || p.speed <= 0.0 {
                return Err(format!("energy.pstates[{k}]: `speed` = {}: must be a finite number above 0", p.speed));
            }
            for (name, w) in [("idle_watts", p.idle_watts), ("busy_watts", p.busy_watts)] {
                if !w.is_finite() || w < 0.0 {
                    return Err(format!(
                        "energy.pstates[{k}]: `{name}` = {w}: must be a finite number of watts, 0 or more"
                    ));
                }
            }
        }
        if let Some(p0) = list.first()
            && p0.speed != 1.0
        {
            return Err(format!(
                "energy.pstates[0]: `speed` = {}: speeds are relative to pstate 0, whose speed is 1.0",
                p0.speed
            ));
        }
        let mut p = Pstates::NONE;
        p.states[..list.len()].copy_from_slice(list);
        p.len = list.len() as u8;
        Ok(p)
    }

    /// The pstates, pstate 0 first.
    pub fn as_slice(&self) -> &[Pstate] {
        &self.states[..usize::from(self.len)]
    }

    /// No pstate given.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// How many.
    pub fn len(&self) -> usize {
        usize::from(self.len)
    }

    /// Pstate `k`'s speed (1 for a pstate not listed: no DVFS).
    pub fn speed(&self, k: usize) -> f64 {
        self.as_slice().get(k).map_or(1.0, |p| p.speed)
    }
}

impl Default for Pstates {
    fn default() -> Pstates {
        Pstates::NONE
    }
}

impl std::fmt::Debug for Pstates {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

impl Serialize for Pstates {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.as_slice().serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Pstates {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Pstates, D::Error> {
        let list = Vec::<Pstate>::deserialize(deserializer)?;
        Pstates::new(&list).map_err(serde::de::Error::custom)
    }
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
        EnergyConfig {
            idle_watts,
            busy_watts,
            down_watts,
            sleep: None,
            cap_watts: None,
            cap_series: None,
            compute_pstates: 1,
            pstates: Pstates::NONE,
        }
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
        self.sleep.is_some() || self.cap_watts.is_some() || self.cap_series.is_some() || !self.pstates.is_empty()
    }

    /// How many computing pstates a Batsim scheduler is told of: the
    /// pstates given, else `compute_pstates`.
    pub fn computing_pstates(&self) -> u32 {
        if self.pstates.is_empty() { self.compute_pstates } else { self.pstates.len() as u32 }
    }

    /// Watts of an idle and of a busy node in computing pstate `k` (the
    /// nominal watts without pstates).
    pub fn pstate_watts(&self, k: usize) -> (f64, f64) {
        self.pstates.as_slice().get(k).map_or((self.idle_watts, self.busy_watts), |p| (p.idle_watts, p.busy_watts))
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
        if let Some(series) = &self.cap_series {
            series.validate()?;
            if let Some(cap) = self.cap_watts {
                return Err(InvalidSetting::new(
                    "energy.cap_watts",
                    cap,
                    "give a constant cap or a cap that follows a series ([energy.cap_series]), not both",
                ));
            }
            // A job's end must never raise the committed watts.
            let nominal = Pstate::nominal(self.idle_watts, self.busy_watts);
            let pstates =
                if self.pstates.is_empty() { std::slice::from_ref(&nominal) } else { self.pstates.as_slice() };
            for p in pstates {
                if p.busy_watts < p.idle_watts {
                    return Err(InvalidSetting::new(
                        "energy.busy_watts",
                        p.busy_watts,
                        "with a cap series, a busy node draws at least an idle one's watts (in every pstate)",
                    ));
                }
                if self.down_watts > p.idle_watts {
                    return Err(InvalidSetting::new(
                        "energy.down_watts",
                        self.down_watts,
                        "with a power cap, a failed node may draw no more than any other state (a failure never raises the power)",
                    ));
                }
            }
        }
        if self.cap_series.is_some() {
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
        if let Some(p0) = self.pstates.as_slice().first() {
            for (name, nominal, given) in [
                ("energy.idle_watts", self.idle_watts, p0.idle_watts),
                ("energy.busy_watts", self.busy_watts, p0.busy_watts),
            ] {
                if nominal != given {
                    return Err(InvalidSetting::new(
                        name,
                        nominal,
                        "pstate 0 is nominal: its watts ([[energy.pstates]]'s first entry) must be these",
                    ));
                }
            }
            if self.compute_pstates != 1 && self.compute_pstates as usize != self.pstates.len() {
                return Err(InvalidSetting::new(
                    "energy.compute_pstates",
                    self.compute_pstates,
                    "with [[energy.pstates]], leave it out or give their number",
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

/// Watts idle and busy nodes in computing pstates other than 0 draw above
/// what they would draw in pstate 0 (zero without DVFS).
///
/// Sums, not per-pstate counts: a message stays small (the meter gets one
/// at every change) whatever the number of pstates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PstateWatts {
    /// Over idle nodes.
    pub idle: f64,
    /// Over busy nodes.
    pub busy: f64,
}

/// A cluster's node states after a change.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
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
    /// DVFS: what idle and busy nodes draw above pstate 0.
    pub pstate_watts: PstateWatts,
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
        self.per_state_watts(w, capacity).iter().sum()
    }

    /// Watts the cluster draws in each state, in [`MeteredState::ALL`]'s
    /// order: idle and busy nodes at their pstate's watts.
    pub fn per_state_watts(&self, w: &EnergyConfig, capacity: u32) -> [f64; 6] {
        let mut out = [0.0; 6];
        for (k, (n, watts)) in self.per_state(capacity).into_iter().zip(w.state_watts()).enumerate() {
            out[k] = f64::from(n) * watts;
        }
        // Zero without pstates: x + 0.0 is x, so the sums stay bit for bit.
        out[0] += self.pstate_watts.idle;
        out[1] += self.pstate_watts.busy;
        out
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
            if self.watts.pstates.is_empty() {
                for (k, (nodes, watts)) in per_state.into_iter().enumerate() {
                    let node_seconds = f64::from(nodes) * seconds;
                    self.total.states[k].0 += node_seconds;
                    self.total.states[k].1 += node_seconds * watts;
                    self.total.joules += node_seconds * watts;
                }
            } else {
                let drawn = self.state.per_state_watts(&self.watts, self.capacity);
                for (k, (nodes, _)) in per_state.into_iter().enumerate() {
                    self.total.states[k].0 += f64::from(nodes) * seconds;
                    self.total.states[k].1 += drawn[k] * seconds;
                    self.total.joules += drawn[k] * seconds;
                }
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
