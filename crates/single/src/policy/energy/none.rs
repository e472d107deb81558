//! `none`: nodes stay on; only wake on demand (a node a repair brought back
//! asleep under a cap) and the cap act.

use crate::cluster::strategy::Cluster;
use crate::policy::energy::{EnergyPolicy, EnergyPolicyInfo, EnergyPolicySettings, Moment};

/// The policy.
pub struct AlwaysOn;

impl EnergyPolicy for AlwaysOn {
    fn decide(&mut self, _: &mut dyn Cluster, _: &Moment<'_>) {}
}

fn build(_: &EnergyPolicySettings) -> Box<dyn EnergyPolicy> {
    Box::new(AlwaysOn)
}

/// Its registration.
pub const NONE: EnergyPolicyInfo = EnergyPolicyInfo {
    name: "none",
    description: "nodes stay on (the default)",
    switches_off: false,
    reads_idle_timeout: false,
    reads_plan: false,
    uses_pstates: false,
    build,
};
