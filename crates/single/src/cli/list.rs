//! The single cluster's lists: `slasim list strategies`, `placements`,
//! `energy-policies`, `sla-terms`, `shifting-policies` and `forecasts`; and
//! what plans on a machine of unlike nodes: `machine-strategies` and
//! `node-choices`.
//!
//! Contract: each lists what the command line and configs accept, from the
//! same source (the strategy registry, the `--placement` values, the energy
//! policy and SLA terms registries), one line each, where it always stood
//! among the lists: strategies first, placements, energy policies and SLA
//! terms rules, shifting policies and forecasts after the axes, then the
//! machine's strategies and node choices.

use crate::plan::NodeChoices;
use crate::policy::energy::EnergyPolicies;
use crate::policy::forecast::Forecasts;
use crate::policy::on_machine::MachineStrategies;
use crate::policy::shifting::ShiftingPolicies;
use crate::policy::{Placement, Strategies};
use crate::workload::sla::SlaTermsRules;
use slasim_core::cli::list::{Listing, possible_values};
use slasim_core::cli::subcommand::Place;
use slasim_core::experiment::registry::Registry;

/// The single cluster's lists, for the shell's registry of lists.
pub static LISTS: [&'static dyn Listing; 8] = [
    &STRATEGIES,
    &PLACEMENTS,
    &ENERGY_POLICIES_LIST,
    &SLA_TERMS_LIST,
    &SHIFTING_POLICIES_LIST,
    &FORECASTS_LIST,
    &MACHINE_STRATEGIES_LIST,
    &NODE_CHOICES_LIST,
];

/// `slasim list strategies`: the registered scheduling strategies.
pub struct StrategyList;

/// `slasim list strategies`: one of [`LISTS`].
pub static STRATEGIES: StrategyList = StrategyList;

impl Listing for StrategyList {
    fn name(&self) -> &'static str {
        "strategies"
    }

    fn about(&self) -> &'static str {
        "Scheduling strategies (`--strategy`, the `strategy` axis)"
    }

    fn place(&self) -> Place {
        Place::First
    }

    fn header(&self) -> [&'static str; 2] {
        ["strategy", "what it does"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry.all::<Strategies>().iter().map(|s| (s.name.to_string(), s.description.to_string())).collect()
    }
}

/// `slasim list placements`: the placement policies.
pub struct PlacementList;

/// `slasim list placements`: one of [`LISTS`].
pub static PLACEMENTS: PlacementList = PlacementList;

impl Listing for PlacementList {
    fn name(&self) -> &'static str {
        "placements"
    }

    fn about(&self) -> &'static str {
        "Placement policies (`--placement`)"
    }

    fn place(&self) -> Place {
        Place::After("axes")
    }

    fn header(&self) -> [&'static str; 2] {
        ["placement", "what it does"]
    }

    fn rows(&self, _registry: &Registry) -> Vec<(String, String)> {
        possible_values::<Placement>()
    }
}

/// `slasim list energy-policies`: the registered energy policies.
pub struct EnergyPolicyList;

/// `slasim list energy-policies`: one of [`LISTS`].
pub static ENERGY_POLICIES_LIST: EnergyPolicyList = EnergyPolicyList;

impl Listing for EnergyPolicyList {
    fn name(&self) -> &'static str {
        "energy-policies"
    }

    fn about(&self) -> &'static str {
        "Energy policies (`[energy_policy] name`, the `energy_policy` axis)"
    }

    fn place(&self) -> Place {
        Place::After("placements")
    }

    fn header(&self) -> [&'static str; 2] {
        ["energy policy", "what it does"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry.all::<EnergyPolicies>().into_iter().map(|p| (p.name.to_string(), p.description.to_string())).collect()
    }
}

/// `slasim list sla-terms`: the registered SLA terms rules.
pub struct SlaTermsList;

/// `slasim list sla-terms`: one of [`LISTS`].
pub static SLA_TERMS_LIST: SlaTermsList = SlaTermsList;

impl Listing for SlaTermsList {
    fn name(&self) -> &'static str {
        "sla-terms"
    }

    fn about(&self) -> &'static str {
        "SLA terms rules (`[prepare] sla_terms`, `--sla-terms`, the `sla_terms` axis)"
    }

    fn place(&self) -> Place {
        Place::After("energy-policies")
    }

    fn header(&self) -> [&'static str; 2] {
        ["SLA terms rule", "each job's deadline, fee and penalty"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry.all::<SlaTermsRules>().into_iter().map(|r| (r.name.to_string(), r.description.to_string())).collect()
    }
}

/// `slasim list shifting-policies`: the registered shifting policies.
pub struct ShiftingPolicyList;

/// `slasim list shifting-policies`: one of [`LISTS`].
pub static SHIFTING_POLICIES_LIST: ShiftingPolicyList = ShiftingPolicyList;

impl Listing for ShiftingPolicyList {
    fn name(&self) -> &'static str {
        "shifting-policies"
    }

    fn about(&self) -> &'static str {
        "Shifting policies (`[shifting] policy`, the `shifting` axis)"
    }

    fn place(&self) -> Place {
        Place::After("sla-terms")
    }

    fn header(&self) -> [&'static str; 2] {
        ["shifting policy", "when a job runs"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry
            .all::<ShiftingPolicies>()
            .into_iter()
            .map(|p| (p.name.to_string(), p.description.to_string()))
            .collect()
    }
}

/// `slasim list forecasts`: the registered forecasts.
pub struct ForecastList;

/// `slasim list forecasts`: one of [`LISTS`].
pub static FORECASTS_LIST: ForecastList = ForecastList;

impl Listing for ForecastList {
    fn name(&self) -> &'static str {
        "forecasts"
    }

    fn about(&self) -> &'static str {
        "Forecasts a shifting policy sees (`[shifting] forecast`, the `forecast` axis)"
    }

    fn place(&self) -> Place {
        Place::After("shifting-policies")
    }

    fn header(&self) -> [&'static str; 2] {
        ["forecast", "what a policy sees ahead"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry.all::<Forecasts>().into_iter().map(|f| (f.name.to_string(), f.description.to_string())).collect()
    }
}

/// `slasim list machine-strategies`: the strategies on a machine of unlike
/// nodes.
pub struct MachineStrategyList;

/// `slasim list machine-strategies`: one of [`LISTS`].
pub static MACHINE_STRATEGIES_LIST: MachineStrategyList = MachineStrategyList;

impl Listing for MachineStrategyList {
    fn name(&self) -> &'static str {
        "machine-strategies"
    }

    fn about(&self) -> &'static str {
        "Strategies on a machine of unlike nodes (`[sla_machine] strategy`, besides `slurm`)"
    }

    fn place(&self) -> Place {
        Place::After("forecasts")
    }

    fn header(&self) -> [&'static str; 2] {
        ["strategy", "what it does"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry.all::<MachineStrategies>().iter().map(|s| (s.name.to_string(), s.description.to_string())).collect()
    }
}

/// `slasim list node-choices`: which nodes a strategy on a machine of unlike
/// nodes gives a job.
pub struct NodeChoiceList;

/// `slasim list node-choices`: one of [`LISTS`].
pub static NODE_CHOICES_LIST: NodeChoiceList = NodeChoiceList;

impl Listing for NodeChoiceList {
    fn name(&self) -> &'static str {
        "node-choices"
    }

    fn about(&self) -> &'static str {
        "Node choices on a machine of unlike nodes (`[sla_machine] node_choice`)"
    }

    fn place(&self) -> Place {
        Place::After("machine-strategies")
    }

    fn header(&self) -> [&'static str; 2] {
        ["node choice", "which nodes a job is given"]
    }

    fn rows(&self, registry: &Registry) -> Vec<(String, String)> {
        registry.all::<NodeChoices>().iter().map(|c| (c.name.to_string(), c.description.to_string())).collect()
    }
}
