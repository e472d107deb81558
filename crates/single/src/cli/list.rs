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
use slasim_core::cli::list::{ListOf, Listing, possible_values};
use slasim_core::cli::subcommand::Place;

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
pub static STRATEGIES: ListOf = ListOf {
    name: "strategies",
    about: "Scheduling strategies (`--strategy`, the `strategy` axis)",
    place: Place::First,
    header: ["strategy", "what it does"],
    rows: |registry| {
        registry.all::<Strategies>().iter().map(|s| (s.name.to_string(), s.description.to_string())).collect()
    },
};

/// `slasim list placements`: the placement policies.
pub static PLACEMENTS: ListOf = ListOf {
    name: "placements",
    about: "Placement policies (`--placement`)",
    place: Place::After("axes"),
    header: ["placement", "what it does"],
    rows: |_| possible_values::<Placement>(),
};

/// `slasim list energy-policies`: the registered energy policies.
pub static ENERGY_POLICIES_LIST: ListOf = ListOf {
    name: "energy-policies",
    about: "Energy policies (`[energy_policy] name`, the `energy_policy` axis)",
    place: Place::After("placements"),
    header: ["energy policy", "what it does"],
    rows: |registry| {
        registry.all::<EnergyPolicies>().into_iter().map(|p| (p.name.to_string(), p.description.to_string())).collect()
    },
};

/// `slasim list sla-terms`: the registered SLA terms rules.
pub static SLA_TERMS_LIST: ListOf = ListOf {
    name: "sla-terms",
    about: "SLA terms rules (`[prepare] sla_terms`, `--sla-terms`, the `sla_terms` axis)",
    place: Place::After("energy-policies"),
    header: ["SLA terms rule", "each job's deadline, fee and penalty"],
    rows: |registry| {
        registry.all::<SlaTermsRules>().into_iter().map(|r| (r.name.to_string(), r.description.to_string())).collect()
    },
};

/// `slasim list shifting-policies`: the registered shifting policies.
pub static SHIFTING_POLICIES_LIST: ListOf = ListOf {
    name: "shifting-policies",
    about: "Shifting policies (`[shifting] policy`, the `shifting` axis)",
    place: Place::After("sla-terms"),
    header: ["shifting policy", "when a job runs"],
    rows: |registry| {
        registry
            .all::<ShiftingPolicies>()
            .into_iter()
            .map(|p| (p.name.to_string(), p.description.to_string()))
            .collect()
    },
};

/// `slasim list forecasts`: the registered forecasts.
pub static FORECASTS_LIST: ListOf = ListOf {
    name: "forecasts",
    about: "Forecasts a shifting policy sees (`[shifting] forecast`, the `forecast` axis)",
    place: Place::After("shifting-policies"),
    header: ["forecast", "what a policy sees ahead"],
    rows: |registry| {
        registry.all::<Forecasts>().into_iter().map(|f| (f.name.to_string(), f.description.to_string())).collect()
    },
};

/// `slasim list machine-strategies`: the strategies on a machine of unlike
/// nodes.
pub static MACHINE_STRATEGIES_LIST: ListOf = ListOf {
    name: "machine-strategies",
    about: "Strategies on a machine of unlike nodes (`[sla_machine] strategy`, besides `slurm`)",
    place: Place::After("forecasts"),
    header: ["strategy", "what it does"],
    rows: |registry| {
        registry.all::<MachineStrategies>().iter().map(|s| (s.name.to_string(), s.description.to_string())).collect()
    },
};

/// `slasim list node-choices`: which nodes a strategy on a machine of unlike
/// nodes gives a job.
pub static NODE_CHOICES_LIST: ListOf = ListOf {
    name: "node-choices",
    about: "Node choices on a machine of unlike nodes (`[sla_machine] node_choice`)",
    place: Place::After("machine-strategies"),
    header: ["node choice", "which nodes a job is given"],
    rows: |registry| {
        registry.all::<NodeChoices>().iter().map(|c| (c.name.to_string(), c.description.to_string())).collect()
    },
};
