//! `planned-wakeup`: idle shutdown that reads the plan. A node is not
//! switched off while the plan needs it before the switch-off would pay
//! back, and sleeping nodes are switched on so that they are on at the
//! planned starts, not when the start finds them asleep.
//!
//! With the plan's use `used(t)` (nodes held at `t` by running and planned
//! jobs), the switch-on time `S`, and the break-even time `B` (the longer of
//! the round trip and the sleep that saves the transitions' energy:
//! `(E_off + E_on − P_sleep·(T_off + T_on)) / (P_idle − P_sleep)`):
//! - at most `on − max used(now .. now + B)` idle nodes past their timeout
//!   are switched off (`on`: nodes on or switching on);
//! - `max used(now .. now + S) − on` sleeping nodes are switched on now, and
//!   a wake-up is asked at `t − S` for the first later `t` where `used(t)`
//!   exceeds the nodes on.
//!
//! Without a plan (a strategy that does not plan every start) it is
//! `idle-shutdown`.

use crate::cluster::energy::EnergyConfig;
use crate::cluster::power::PowerState;
use crate::cluster::strategy::Cluster;
use crate::policy::energy::{EnergyPolicy, EnergyPolicyInfo, EnergyPolicySettings, Moment, shut_down_idle};
use slasim_core::units::{NodeId, Time};

/// The policy.
pub struct PlannedWakeup {
    timeout: Time,
    nodes: Vec<NodeId>,
}

/// Seconds asleep that pay back a round trip, and the switch-on time.
pub fn break_even(model: &EnergyConfig) -> (Time, Time) {
    let Some(s) = model.sleep else { return (0, 0) };
    let trip = s.switch_off_seconds + s.switch_on_seconds;
    let saved_per_second = model.idle_watts - s.watts;
    let extra = s.switch_off_joules + s.switch_on_joules - s.watts * trip as f64;
    let pays = if saved_per_second > 0.0 { (extra / saved_per_second).ceil().max(0.0) as Time } else { Time::MAX / 4 };
    (trip.max(pays), s.switch_on_seconds)
}

impl EnergyPolicy for PlannedWakeup {
    fn decide(&mut self, c: &mut dyn Cluster, moment: &Moment<'_>) {
        let (Some(plan), Some(model)) = (moment.plan, c.power_model().copied()) else {
            if moment.demand == 0 {
                shut_down_idle(c, self.timeout, 0, &mut self.nodes);
            }
            return;
        };
        let now = c.now();
        let (b, s) = break_even(&model);
        let capacity = c.capacity();
        let used = |from: Time, to: Time| capacity.saturating_sub(plan.min_free(from, to.max(from + 1)));
        let states = c.node_states();
        let on = capacity - states.down - states.switching_off - states.asleep;
        // Wake what the plan needs within the switch-on time.
        let due = used(now, now + s + 1);
        if due > on {
            let mut need = due - on;
            c.nodes_in(PowerState::Asleep, false, &mut self.nodes);
            for k in 0..self.nodes.len() {
                if need == 0 {
                    break;
                }
                if c.switch_on(self.nodes[k]).is_ok() {
                    need -= 1;
                }
            }
        }
        let states = c.node_states();
        let on = capacity - states.down - states.switching_off - states.asleep;
        // The next rise of the plan above the nodes on: wake in time for it.
        if let Some((t, _)) = plan.pieces(now + s + 1, Time::MAX / 4).find(|&(_, free)| {
            let used = i64::from(capacity) - free;
            used > i64::from(on)
        }) {
            c.wake_at(t - s);
        }
        if moment.demand == 0 {
            let keep_on = used(now, now.saturating_add(b) + 1);
            let busy_or_coming = on - c.idle_count();
            let keep_idle = keep_on.saturating_sub(busy_or_coming);
            shut_down_idle(c, self.timeout, keep_idle, &mut self.nodes);
        }
    }
}

fn build(settings: &EnergyPolicySettings) -> Box<dyn EnergyPolicy> {
    Box::new(PlannedWakeup { timeout: settings.idle_timeout, nodes: Vec::new() })
}

/// Its registration.
pub const PLANNED_WAKEUP: EnergyPolicyInfo = EnergyPolicyInfo {
    name: "planned-wakeup",
    description: "idle shutdown that keeps the nodes the plan needs soon and wakes sleeping ones in time for planned starts",
    switches_off: true,
    reads_idle_timeout: true,
    reads_plan: true,
    uses_pstates: false,
    build,
};
