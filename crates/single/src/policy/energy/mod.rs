//! Energy policies: who switches a cluster's nodes off and on, around its
//! strategy.
//!
//! Reference: reactive idle shutdown after a timeout, the policy Batsim's
//! energy studies and pybatsim's `fcfsSchedSleep` use (Poquet, PhD thesis,
//! Univ. Grenoble Alpes, 2017, §4.3.4 and §6; Hikita et al., "Saving 200 kW
//! and $200 K/year by power-aware job/machine scheduling", IPDPS 2008);
//! planned wake-up reads the plan of a strategy that plans every start
//! (conservative backfilling, Mu'alem and Feitelson, IEEE TPDS 2001).
//!
//! Contract:
//! - A [`PowerManager`] wraps a strategy: it forwards every event to it and,
//!   after each, lets its [`EnergyPolicy`] switch nodes. It needs the
//!   cluster's power model ([`Cluster::power_model`]); without one it only
//!   forwards.
//! - Wake on demand, for every policy: while the strategy asks for more
//!   idle nodes than there are ([`Cluster::idle_nodes`] fails) and sleeping
//!   or switching nodes would make up the difference, that many nodes are
//!   switched on (the lowest ids first, a switching-off node once it
//!   sleeps), and no idle node is switched off. The demand is the shortfall
//!   of the strategy's last call that asked. A node that comes on is a
//!   wake-up for the strategy ([`Strategy::power_changed`]).
//! - A policy switches off the highest-id idle nodes first (the strategies
//!   start jobs on the lowest ids) and asks for a wake-up at the next
//!   moment it wants to act; a wake-up is also the strategy's (a spurious
//!   one does not change a built-in strategy's decisions).
//! - Policies are registered by name ([`ENERGY_POLICIES`]); a new one is a
//!   file and a registration.

use std::cell::{Cell, RefCell};
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cluster::power::PowerState;
use crate::cluster::strategy::{Cluster, Strategy};
use crate::cluster::view::{Watch, Watched};
use crate::plan::profile::AvailabilityProfile;
use crate::workload::job::Job;
use slasim_core::experiment::registry::{self, Entries, Named, UnknownName};
use slasim_core::setting::InvalidSetting;
use slasim_core::units::{JobId, NodeId, Time};

pub mod idle_shutdown;
pub mod none;
pub mod planned_wakeup;
pub mod slack_dvfs;

/// What a policy sees after each event.
pub struct Moment<'a> {
    /// The strategy's plan, if it plans every start.
    pub plan: Option<&'a AvailabilityProfile>,
    /// Nodes the strategy asked for and could not get (see the contract).
    pub demand: u32,
}

/// A policy deciding which nodes sleep.
pub trait EnergyPolicy: Send {
    /// After an event the strategy handled: switch nodes off or on, and ask
    /// for a wake-up when it next wants to act.
    fn decide(&mut self, cluster: &mut dyn Cluster, moment: &Moment<'_>);
}

/// A registered energy policy.
pub struct EnergyPolicyInfo {
    /// Stable kebab-case name.
    pub name: &'static str,
    /// One line for `slasim list energy-policies`.
    pub description: &'static str,
    /// It switches nodes off (the power model needs a sleep state).
    pub switches_off: bool,
    /// It reads `energy_policy.idle_timeout`.
    pub reads_idle_timeout: bool,
    /// It reads the strategy's plan (only a strategy that plans every start has one).
    pub reads_plan: bool,
    /// It sets computing pstates (the power model needs `[[energy.pstates]]`).
    pub uses_pstates: bool,
    /// Builds it with the settings.
    pub build: fn(&EnergyPolicySettings) -> Box<dyn EnergyPolicy>,
}

impl Named for EnergyPolicyInfo {
    fn name(&self) -> &'static str {
        self.name
    }
}

/// The energy policies a config can name, built-in ones first.
pub enum EnergyPolicies {}

impl Entries for EnergyPolicies {
    type Entry = EnergyPolicyInfo;
    const WHAT: &'static str = "energy policy";
    fn builtin() -> Vec<&'static EnergyPolicyInfo> {
        static BUILTIN: [EnergyPolicyInfo; 4] =
            [none::NONE, idle_shutdown::IDLE_SHUTDOWN, planned_wakeup::PLANNED_WAKEUP, slack_dvfs::SLACK_DVFS];
        BUILTIN.iter().collect()
    }
}

/// A registered energy policy, resolved from its name; it serialises as its name.
#[derive(Clone, Copy)]
pub struct EnergyPolicyRef(&'static EnergyPolicyInfo);

impl EnergyPolicyRef {
    /// The policy registered as `name`.
    pub fn named(name: &str) -> Result<EnergyPolicyRef, UnknownName> {
        registry::find::<EnergyPolicies>(name).map(EnergyPolicyRef)
    }

    /// True for `none`, the default.
    pub fn is_none(&self) -> bool {
        self.0.name == none::NONE.name
    }
}

impl Default for EnergyPolicyRef {
    fn default() -> EnergyPolicyRef {
        EnergyPolicyRef(&ENERGY_POLICIES_NONE)
    }
}

/// `none`, for the default reference.
static ENERGY_POLICIES_NONE: EnergyPolicyInfo = none::NONE;

impl std::ops::Deref for EnergyPolicyRef {
    type Target = EnergyPolicyInfo;

    fn deref(&self) -> &EnergyPolicyInfo {
        self.0
    }
}

impl PartialEq for EnergyPolicyRef {
    fn eq(&self, other: &EnergyPolicyRef) -> bool {
        self.0.name == other.0.name
    }
}

impl fmt::Debug for EnergyPolicyRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "EnergyPolicyRef({:?})", self.0.name)
    }
}

impl fmt::Display for EnergyPolicyRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.0.name)
    }
}

impl Serialize for EnergyPolicyRef {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.0.name)
    }
}

impl<'de> Deserialize<'de> for EnergyPolicyRef {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<EnergyPolicyRef, D::Error> {
        let name = String::deserialize(deserializer)?;
        EnergyPolicyRef::named(&name).map_err(serde::de::Error::custom)
    }
}

/// The energy policy of a point (`[energy_policy]`): left out of the
/// canonical text when default, so points without one keep their ids.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnergyPolicySettings {
    /// Which policy (`slasim list energy-policies`).
    #[serde(default, skip_serializing_if = "EnergyPolicyRef::is_none")]
    pub name: EnergyPolicyRef,
    /// Seconds a node stays idle before a shutdown policy switches it off.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub idle_timeout: Time,
}

fn is_zero(t: &Time) -> bool {
    *t == 0
}

impl EnergyPolicySettings {
    /// True when it is `none` with nothing set.
    pub fn is_default(&self) -> bool {
        *self == EnergyPolicySettings::default()
    }

    /// A timeout of 0 seconds or more.
    pub fn validate(&self) -> Result<(), InvalidSetting> {
        if self.idle_timeout < 0 {
            return Err(InvalidSetting::new(
                "energy_policy.idle_timeout",
                self.idle_timeout,
                "must be a number of seconds, 0 or more",
            ));
        }
        Ok(())
    }

    /// The same settings with what the policy does not read reset.
    pub fn normalized(mut self) -> EnergyPolicySettings {
        if !self.name.reads_idle_timeout {
            self.idle_timeout = 0;
        }
        self
    }
}

/// A strategy with an energy policy around it (see the module contract).
pub struct PowerManager {
    inner: Box<dyn Strategy>,
    policy: Box<dyn EnergyPolicy>,
    demand: u32,
    /// Sleeping nodes the strategy asked for by id.
    wanted: Vec<NodeId>,
    nodes: Vec<NodeId>,
}

impl PowerManager {
    /// `inner` with `settings`' policy around it.
    pub fn new(inner: Box<dyn Strategy>, settings: &EnergyPolicySettings) -> PowerManager {
        PowerManager {
            inner,
            policy: (settings.name.build)(settings),
            demand: 0,
            wanted: Vec::new(),
            nodes: Vec::new(),
        }
    }

    /// Runs `call` on the strategy through a view that notes what it asked
    /// for, then lets the policy act.
    fn around(&mut self, cluster: &mut dyn Cluster, call: impl FnOnce(&mut dyn Strategy, &mut dyn Cluster)) {
        if cluster.power_model().is_none() {
            return call(&mut *self.inner, cluster);
        }
        let mut wanted = std::mem::take(&mut self.wanted);
        wanted.clear();
        let (asked, shortfall) = {
            let watch = Asks { wanted: RefCell::new(wanted), ..Asks::default() };
            let mut view = Watched { cluster, watch };
            call(&mut *self.inner, &mut view);
            wanted = view.watch.wanted.into_inner();
            (view.watch.asked.get(), view.watch.shortfall.get())
        };
        if asked {
            self.demand = shortfall;
        }
        self.wanted = wanted;
        self.wake_on_demand(cluster);
        let moment = Moment { plan: self.inner.planned_profile(), demand: self.demand };
        self.policy.decide(cluster, &moment);
    }

    fn wake_on_demand(&mut self, c: &mut dyn Cluster) {
        for &node in &self.wanted {
            if matches!(c.power_state(node), PowerState::Asleep | PowerState::SwitchingOff) {
                let _ = c.switch_on(node);
            }
        }
        let coming = c.node_states().switching_on;
        let mut need = self.demand.saturating_sub(coming);
        if need == 0 {
            return;
        }
        for state in [PowerState::Asleep, PowerState::SwitchingOff] {
            c.nodes_in(state, false, &mut self.nodes);
            for k in 0..self.nodes.len() {
                if need == 0 {
                    return;
                }
                if c.switch_on(self.nodes[k]).is_ok() {
                    need -= 1;
                }
            }
        }
    }
}

/// What a power manager hears of its strategy's calls: its unmet asks.
#[derive(Default)]
struct Asks {
    asked: Cell<bool>,
    shortfall: Cell<u32>,
    wanted: RefCell<Vec<NodeId>>,
}

impl Watch for Asks {
    fn asked_idle(&self, cluster: &dyn Cluster, n: u32, got: bool) {
        self.asked.set(true);
        if !got {
            let s = cluster.node_states();
            let idle = cluster.idle_count();
            // Only what sleeping nodes could make up: a job blocked by
            // running ones waits for them.
            if n <= idle + s.switching_off + s.asleep + s.switching_on {
                self.shortfall.set(self.shortfall.get().max(n - idle));
            }
        }
    }

    fn asked_ready(&self, cluster: &dyn Cluster, nodes: &[NodeId], ready: bool) {
        if !ready {
            let mut wanted = self.wanted.borrow_mut();
            wanted.extend(
                nodes
                    .iter()
                    .filter(|&&n| matches!(cluster.power_state(n), PowerState::Asleep | PowerState::SwitchingOff)),
            );
        }
    }
}

impl Strategy for PowerManager {
    fn submit(&mut self, cluster: &mut dyn Cluster, job: JobId) {
        self.around(cluster, |s, c| s.submit(c, job));
    }
    fn wake(&mut self, cluster: &mut dyn Cluster) {
        self.around(cluster, |s, c| s.wake(c));
    }
    fn job_ended(&mut self, cluster: &mut dyn Cluster, job: JobId) {
        self.around(cluster, |s, c| s.job_ended(c, job));
    }
    fn node_failed(&mut self, cluster: &mut dyn Cluster, node: NodeId, victim: Option<JobId>) {
        self.around(cluster, |s, c| s.node_failed(c, node, victim));
    }
    fn node_repaired(&mut self, cluster: &mut dyn Cluster, node: NodeId) {
        self.around(cluster, |s, c| s.node_repaired(c, node));
    }
    fn begin(&mut self, jobs: &[Job]) -> Result<(), slasim_core::sim::kernel::SimError> {
        self.inner.begin(jobs)
    }
    fn error(&self) -> Option<slasim_core::sim::kernel::SimError> {
        self.inner.error()
    }
    fn power_changed(&mut self, cluster: &mut dyn Cluster, node: NodeId, state: PowerState) {
        self.around(cluster, |s, c| s.power_changed(c, node, state));
    }
    fn planned_profile(&self) -> Option<&AvailabilityProfile> {
        self.inner.planned_profile()
    }
}

/// Switches off the idle nodes whose timeout has passed, highest ids first,
/// keeping `keep` idle nodes on; asks for a wake-up at the next timeout.
/// `nodes` is scratch space.
pub fn shut_down_idle(c: &mut dyn Cluster, timeout: Time, keep: u32, nodes: &mut Vec<NodeId>) {
    let now = c.now();
    c.nodes_in(PowerState::On, true, nodes);
    let mut may = (nodes.len() as u32).saturating_sub(keep);
    let mut next: Option<Time> = None;
    for &node in nodes.iter().rev() {
        if may == 0 {
            break;
        }
        let due = c.idle_since(node).saturating_add(timeout);
        if due <= now {
            if c.switch_off(node).is_ok() {
                may -= 1;
            }
        } else {
            next = Some(next.map_or(due, |t: Time| t.min(due)));
        }
    }
    if let Some(t) = next {
        c.wake_at(t);
    }
}
