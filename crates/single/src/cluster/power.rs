//! Node power states: on, switching off, asleep, switching on; and the power
//! cap's committed watts.
//!
//! Reference: Batsim's energy model (Poquet, "Simulation approach for
//! resource management", PhD thesis, Univ. Grenoble Alpes, 2017, §4.3.4;
//! Batsim's `docs/energy.rst`): a node is in one power state at a time, a
//! sleep pstate is entered and left through switching-off and switching-on
//! virtual pstates of given durations and energies, and a node that is not
//! in a computing pstate runs nothing.
//!
//! Contract:
//! - A node switching off, asleep or switching on is not idle: no job starts
//!   on it. Only an idle node (up, on, running nothing) is switched off, only
//!   a sleeping one on; a switch-on asked while the node switches off is
//!   kept and done when it sleeps. A transition of 0 seconds is immediate.
//! - A failure ends a transition (its end event is then stale); a repaired
//!   node comes back on, or asleep when the cap has no room for an idle node.
//! - With a cap, every node commits the most it can draw without another
//!   decision: its state's watts, or during a transition the larger of the
//!   transition's and the next state's; a down node the watts of the state
//!   its repair may bring it back in. A start, switch or repair that would
//!   raise the committed total above the cap is refused, so the drawn power
//!   (never above the committed) never exceeds it.
//! - Committed watts are counted in whole milliwatts, rounded up: exact
//!   sums, no drift over a long log.
//! - DVFS: each node is in a computing pstate (0 at first), kept across
//!   jobs, sleeps and failures as Batsim keeps a host's pstate; an idle or
//!   busy node draws (and commits) its pstate's watts. A pstate change that
//!   would raise the committed total above the cap is refused.
//! - A cap that follows a series ([`crate::cluster::cap`]): the committed
//!   watts are known over the future (each node's until its next known
//!   change) and a decision is admitted only if they stay within the cap at
//!   every future instant. Without one, nothing here changes.

use crate::cluster::cap::{CapLedger, CapSeries};
use crate::cluster::energy::{EnergyConfig, MAX_PSTATES, NodeStates, PstateWatts, SleepState};
use slasim_core::units::{NodeId, Time};

/// A node's power state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PowerState {
    /// On: idle or running a job (or down: failures are tracked apart).
    On,
    /// Switching off into the sleep state.
    SwitchingOff,
    /// Asleep.
    Asleep,
    /// Switching on.
    SwitchingOn,
}

impl PowerState {
    /// Its name in the store and the Gantt chart.
    pub fn as_str(self) -> &'static str {
        match self {
            PowerState::On => "on",
            PowerState::SwitchingOff => "switching-off",
            PowerState::Asleep => "asleep",
            PowerState::SwitchingOn => "switching-on",
        }
    }
}

/// Why a switch was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PowerRefusal {
    /// The cluster's nodes have no sleep state.
    #[error("the platform has no sleep state")]
    NoSleepState,
    /// The node does not exist.
    #[error("there is no such node")]
    NoSuchNode,
    /// The node is down.
    #[error("the node is down")]
    Down,
    /// The node runs a job.
    #[error("the node runs job {0}")]
    Busy(u32),
    /// The node is not in the state the switch starts from.
    #[error("the node is {}", .0.as_str())]
    Wrong(PowerState),
    /// The switch would raise the committed power above the cap.
    #[error("the power cap has no room for it")]
    Cap,
    /// The platform has no such computing pstate.
    #[error("the platform has no computing pstate {0}")]
    NoSuchPstate(u32),
}

/// A power transition as applied, for pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PowerEventRecord {
    /// When.
    pub time: Time,
    /// The node.
    pub node: NodeId,
    /// The state it entered.
    pub state: PowerState,
}

fn milliwatts(watts: f64) -> i64 {
    (watts * 1000.0).ceil() as i64
}

/// The power states of a cluster's nodes.
#[derive(Debug, Clone)]
pub struct NodePower {
    model: EnergyConfig,
    sleep: Option<SleepState>,
    state: Vec<PowerState>,
    /// A switch-on asked while switching off.
    then_on: Vec<bool>,
    /// Transition generation per node: a failure makes a pending end stale.
    generation: Vec<u32>,
    /// When each node last became idle.
    idle_since: Vec<Time>,
    /// Each node's computing pstate and what it is doing (DVFS counts).
    pstate: Vec<u8>,
    activity: Vec<Activity>,
    /// Committed milliwatts per node, and their sum.
    committed: Vec<i64>,
    total: i64,
    cap: Option<i64>,
    /// A cap that follows a series, and the committed watts over the future.
    ledger: Option<Box<CapLedger>>,
    /// Counts for the meter (its pstate watts are summed from `dvfs` when asked).
    counts: NodeStates,
    /// Idle and busy nodes in each computing pstate but 0 (index 0 unused).
    dvfs: Option<Box<DvfsCounts>>,
    log: Option<Vec<PowerEventRecord>>,
}

/// Idle and busy nodes per computing pstate (index 0 unused).
#[derive(Debug, Clone, Default)]
struct DvfsCounts {
    busy_at: [u32; MAX_PSTATES],
    idle_at: [u32; MAX_PSTATES],
}

/// What a node is doing, for its committed watts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    Idle,
    Busy,
    Down,
}

impl NodePower {
    /// `capacity` nodes, all on and idle at time 0.
    pub fn new(model: EnergyConfig, capacity: u32, keep_log: bool) -> NodePower {
        let n = capacity as usize;
        let idle = milliwatts(model.idle_watts);
        NodePower {
            model,
            sleep: model.sleep,
            state: vec![PowerState::On; n],
            then_on: vec![false; n],
            generation: vec![0; n],
            idle_since: vec![0; n],
            pstate: vec![0; n],
            activity: vec![Activity::Idle; n],
            committed: vec![idle; n],
            total: idle * i64::from(capacity),
            cap: model.cap_watts.map(milliwatts),
            ledger: None,
            counts: NodeStates::default(),
            dvfs: (model.pstates.len() > 1).then(Box::default),
            log: keep_log.then(Vec::new),
        }
    }

    /// The same nodes under a cap that follows `cap` (instead of a constant one).
    pub fn with_cap_series(mut self, cap: CapSeries) -> NodePower {
        self.ledger = Some(Box::new(CapLedger::new(cap, self.state.len() as u32)));
        self
    }

    /// The cap series, if the cap follows one.
    pub fn cap_series(&self) -> Option<&CapSeries> {
        self.ledger.as_deref().map(CapLedger::cap)
    }

    /// The model.
    pub fn model(&self) -> &EnergyConfig {
        &self.model
    }

    /// A node's state.
    pub fn state(&self, node: NodeId) -> PowerState {
        self.state[node as usize]
    }

    /// When a node last became idle.
    pub fn idle_since(&self, node: NodeId) -> Time {
        self.idle_since[node as usize]
    }

    /// The node's generation (to tell a stale transition end).
    pub fn generation(&self, node: NodeId) -> u32 {
        self.generation[node as usize]
    }

    /// The committed watts (cap accounting) of the whole cluster.
    pub fn committed_watts(&self) -> f64 {
        self.total as f64 / 1000.0
    }

    /// The log of transitions, if kept.
    pub fn take_log(&mut self) -> Vec<PowerEventRecord> {
        self.log.take().unwrap_or_default()
    }

    /// A node's computing pstate.
    pub fn pstate(&self, node: NodeId) -> u32 {
        u32::from(self.pstate[node as usize])
    }

    fn commitment(&self, pstate: usize, activity: Activity, state: PowerState) -> i64 {
        let m = &self.model;
        let sleep = self.sleep;
        let (idle, busy) = m.pstate_watts(pstate);
        let off = sleep.map_or(0.0, |s| s.switch_off_watts().max(s.watts));
        let on = sleep.map_or(0.0, |s| s.switch_on_watts().max(idle));
        let watts = match (activity, state) {
            (Activity::Down, _) => m.down_watts.max(sleep.map_or(idle, |s| s.watts.min(idle))),
            (Activity::Busy, _) => busy,
            (Activity::Idle, PowerState::On) => idle,
            (Activity::Idle, PowerState::SwitchingOff) => off,
            (Activity::Idle, PowerState::Asleep) => sleep.map_or(m.idle_watts, |s| s.watts),
            (Activity::Idle, PowerState::SwitchingOn) => on,
        };
        milliwatts(watts)
    }

    /// True if every node of `nodes` may move to (`activity`, `state`) under the cap.
    pub(crate) fn room_for(&self, nodes: &[NodeId], activity: Activity, state: PowerState) -> bool {
        let Some(cap) = self.cap else { return true };
        let delta: i64 = nodes
            .iter()
            .map(|&n| {
                self.commitment(usize::from(self.pstate[n as usize]), activity, state) - self.committed[n as usize]
            })
            .sum();
        self.total + delta <= cap
    }

    /// Milliwatts `nodes` would commit more in (`activity`, `state`).
    fn raise(&self, nodes: &[NodeId], activity: Activity, state: PowerState) -> i64 {
        nodes
            .iter()
            .map(|&n| {
                self.commitment(usize::from(self.pstate[n as usize]), activity, state) - self.committed[n as usize]
            })
            .sum()
    }

    /// True if `nodes` (none with a known change pending) may move to
    /// (`activity`, `state`) now and, from `until` on, to `after`: under a
    /// cap series at every future instant, else as [`NodePower::room_for`].
    pub(crate) fn room_until(
        &self,
        now: Time,
        nodes: &[NodeId],
        (activity, state): (Activity, PowerState),
        until: Time,
        after: (Activity, PowerState),
    ) -> bool {
        let Some(ledger) = &self.ledger else { return self.room_for(nodes, activity, state) };
        let early = self.raise(nodes, activity, state);
        let late = self.raise(nodes, after.0, after.1);
        ledger.violation(self.total, now, until, early, late).is_none()
    }

    /// Under a cap series: the earliest time after `now` at which `nodes`
    /// could run a job of `length` seconds with nothing else changed.
    pub(crate) fn earliest_run(&mut self, now: Time, nodes: &[NodeId], length: Time) -> Option<Time> {
        let raise = self.raise(nodes, Activity::Busy, PowerState::On);
        let total = self.total;
        self.ledger.as_mut()?.earliest(total, now, raise, length)
    }

    /// What a node in (`activity`, `state`) comes to at its next known
    /// change, if it has one (a job's kill time, a transition's end).
    fn then(activity: Activity, state: PowerState) -> Option<(Activity, PowerState)> {
        match (activity, state) {
            (Activity::Busy, _) | (Activity::Idle, PowerState::SwitchingOn) => Some((Activity::Idle, PowerState::On)),
            (Activity::Idle, PowerState::SwitchingOff) => Some((Activity::Idle, PowerState::Asleep)),
            _ => None,
        }
    }

    /// Under a cap series: `node`'s committed watts fall at `at` to those
    /// of the state it then comes to.
    pub(crate) fn falls_at(&mut self, node: NodeId, at: Time) {
        let i = node as usize;
        if self.ledger.is_none() {
            return;
        }
        let Some((activity, state)) = Self::then(self.activity[i], self.state[i]) else { return };
        let after = self.commitment(usize::from(self.pstate[i]), activity, state);
        let by = (self.committed[i] - after).max(0);
        let Some(ledger) = &mut self.ledger else { return };
        ledger.falls_at(i, at, by);
    }

    /// The DVFS count `node` falls in (`None`: none, e.g. pstate 0 or asleep).
    fn pstate_slot(&self, i: usize) -> Option<(bool, usize)> {
        let k = usize::from(self.pstate[i]);
        if k == 0 || self.state[i] != PowerState::On {
            return None;
        }
        match self.activity[i] {
            Activity::Idle => Some((false, k)),
            Activity::Busy => Some((true, k)),
            Activity::Down => None,
        }
    }

    fn count_pstate(&mut self, i: usize, by: i32) {
        if let Some((busy, k)) = self.pstate_slot(i) {
            let Some(dvfs) = self.dvfs.as_deref_mut() else { return };
            let slot = if busy { &mut dvfs.busy_at[k] } else { &mut dvfs.idle_at[k] };
            *slot = slot.wrapping_add_signed(by);
        }
    }

    /// Switch counts and nodes per power state, with what the nodes in
    /// computing pstates draw above pstate 0, for the meter.
    pub(crate) fn counts(&self) -> NodeStates {
        let Some(dvfs) = self.dvfs.as_deref() else { return self.counts };
        let w = &self.model;
        let mut watts = PstateWatts::default();
        for (k, p) in w.pstates.as_slice().iter().enumerate().skip(1) {
            watts.idle += f64::from(dvfs.idle_at[k]) * (p.idle_watts - w.idle_watts);
            watts.busy += f64::from(dvfs.busy_at[k]) * (p.busy_watts - w.busy_watts);
        }
        NodeStates { pstate_watts: watts, ..self.counts }
    }

    /// Puts `node` in computing pstate `k` (whatever it is doing: a
    /// sleeping node keeps it for when it is on).
    pub(crate) fn set_pstate(&mut self, now: Time, node: NodeId, k: u32) -> Result<(), PowerRefusal> {
        let i = node as usize;
        if i >= self.state.len() {
            return Err(PowerRefusal::NoSuchNode);
        }
        if k as usize >= self.model.pstates.len().max(1) {
            return Err(PowerRefusal::NoSuchPstate(k));
        }
        let new = self.commitment(k as usize, self.activity[i], self.state[i]);
        if let Some(cap) = self.cap
            && self.total + new - self.committed[i] > cap
        {
            return Err(PowerRefusal::Cap);
        }
        // Under a cap series: the node's watts now, and after its next known change.
        let pending = self.ledger.as_ref().and_then(|l| l.drop_of(i));
        if let Some(ledger) = &self.ledger {
            let raise = new - self.committed[i];
            let (until, late) = match (pending, Self::then(self.activity[i], self.state[i])) {
                (Some((at, by)), Some((activity, state))) => {
                    let after = self.commitment(k as usize, activity, state);
                    (at, after - (self.committed[i] - by))
                }
                _ => (now, raise),
            };
            if ledger.violation(self.total, now, until, raise, late).is_some() {
                return Err(PowerRefusal::Cap);
            }
        }
        self.count_pstate(i, -1);
        self.pstate[i] = k as u8;
        self.count_pstate(i, 1);
        self.total += new - self.committed[i];
        self.committed[i] = new;
        if let Some((at, _)) = pending {
            self.falls_at(node, at);
        }
        Ok(())
    }

    /// Records `node`'s new activity and state at `now`.
    pub(crate) fn set(&mut self, now: Time, node: NodeId, activity: Activity, state: PowerState) {
        let i = node as usize;
        if let Some(ledger) = &mut self.ledger {
            ledger.clear(i);
        }
        self.count_pstate(i, -1);
        self.activity[i] = activity;
        let old = self.state[i];
        if old != state {
            self.count(old, -1);
            self.count(state, 1);
            self.state[i] = state;
            if let Some(log) = &mut self.log {
                log.push(PowerEventRecord { time: now, node, state });
            }
        }
        self.count_pstate(i, 1);
        if activity == Activity::Idle && state == PowerState::On {
            self.idle_since[i] = now;
        }
        let new = self.commitment(usize::from(self.pstate[i]), activity, state);
        self.total += new - self.committed[i];
        self.committed[i] = new;
    }

    fn count(&mut self, state: PowerState, by: i32) {
        let c = &mut self.counts;
        let slot = match state {
            PowerState::On => return,
            PowerState::SwitchingOff => &mut c.switching_off,
            PowerState::Asleep => &mut c.asleep,
            PowerState::SwitchingOn => &mut c.switching_on,
        };
        *slot = slot.wrapping_add_signed(by);
    }

    /// Begins switching idle `node` off at `now`; the time its transition
    /// ends (now for an immediate one, already applied).
    pub(crate) fn begin_off(&mut self, now: Time, node: NodeId) -> Result<Option<Time>, PowerRefusal> {
        let sleep = self.sleep.ok_or(PowerRefusal::NoSleepState)?;
        let end = now + sleep.switch_off_seconds;
        let asleep = (Activity::Idle, PowerState::Asleep);
        if !self.room_until(now, &[node], (Activity::Idle, PowerState::SwitchingOff), end, asleep) {
            return Err(PowerRefusal::Cap);
        }
        self.counts.switches_off += 1;
        if sleep.switch_off_seconds == 0 {
            self.set(now, node, Activity::Idle, PowerState::Asleep);
            return Ok(None);
        }
        self.set(now, node, Activity::Idle, PowerState::SwitchingOff);
        self.falls_at(node, end);
        Ok(Some(end))
    }

    /// Begins switching sleeping `node` on at `now`; the time it is on
    /// (`None`: immediate, already applied).
    pub(crate) fn begin_on(&mut self, now: Time, node: NodeId) -> Result<Option<Time>, PowerRefusal> {
        let sleep = self.sleep.ok_or(PowerRefusal::NoSleepState)?;
        let end = now + sleep.switch_on_seconds;
        let on = (Activity::Idle, PowerState::On);
        if !self.room_until(now, &[node], (Activity::Idle, PowerState::SwitchingOn), end, on) {
            return Err(PowerRefusal::Cap);
        }
        self.counts.switches_on += 1;
        if sleep.switch_on_seconds == 0 {
            self.set(now, node, Activity::Idle, PowerState::On);
            return Ok(None);
        }
        self.set(now, node, Activity::Idle, PowerState::SwitchingOn);
        self.falls_at(node, end);
        Ok(Some(end))
    }

    /// Marks a switch-on to follow the switch-off under way.
    pub(crate) fn want_on(&mut self, node: NodeId) {
        self.then_on[node as usize] = true;
    }

    /// Takes the mark of a switch-on asked during the switch-off.
    pub(crate) fn take_want_on(&mut self, node: NodeId) -> bool {
        std::mem::take(&mut self.then_on[node as usize])
    }

    /// A failure: the node is down, its transition (if any) abandoned.
    pub(crate) fn fail(&mut self, now: Time, node: NodeId) {
        self.generation[node as usize] += 1;
        self.then_on[node as usize] = false;
        self.set(now, node, Activity::Down, PowerState::On);
    }

    /// A repair: the node comes back on if the cap has room, else asleep
    /// (a state no higher than the one its failure committed). True if on.
    pub(crate) fn repair(&mut self, now: Time, node: NodeId) -> bool {
        let on = (Activity::Idle, PowerState::On);
        if self.sleep.is_none() || self.room_until(now, &[node], on, now, on) {
            self.set(now, node, Activity::Idle, PowerState::On);
            true
        } else {
            self.set(now, node, Activity::Idle, PowerState::Asleep);
            false
        }
    }
}
