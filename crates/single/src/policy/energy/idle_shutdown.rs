//! `idle-shutdown`: a node idle for the timeout is switched off; a node
//! sleeps until the strategy asks for more nodes than are on (wake on
//! demand, [`super::PowerManager`]).
//!
//! Reference: the reactive timeout policy of Hikita et al., IPDPS 2008, and
//! of Batsim's energy studies (Poquet, PhD thesis, 2017, §6).

use crate::cluster::strategy::Cluster;
use crate::policy::energy::{EnergyPolicy, EnergyPolicyInfo, EnergyPolicySettings, Moment, shut_down_idle};
use slasim_core::units::{NodeId, Time};

/// The policy.
pub struct IdleShutdown {
    timeout: Time,
    nodes: Vec<NodeId>,
}

impl EnergyPolicy for IdleShutdown {
    fn decide(&mut self, c: &mut dyn Cluster, moment: &Moment<'_>) {
        // While the strategy waits for nodes, none is switched off.
        if moment.demand == 0 {
            shut_down_idle(c, self.timeout, 0, &mut self.nodes);
        }
    }
}

fn build(settings: &EnergyPolicySettings) -> Box<dyn EnergyPolicy> {
    Box::new(IdleShutdown { timeout: settings.idle_timeout, nodes: Vec::new() })
}

/// Its registration.
pub const IDLE_SHUTDOWN: EnergyPolicyInfo = EnergyPolicyInfo {
    name: "idle-shutdown",
    description: "switch a node off after idle_timeout seconds idle; switch on when the strategy lacks nodes",
    switches_off: true,
    reads_idle_timeout: true,
    reads_plan: false,
    uses_pstates: false,
    build,
};
