//! The single cluster's lists: `slasim list strategies`, `placements` and
//! `energy-policies`.
//!
//! Contract: each lists what the command line and configs accept, from the
//! same source (the strategy registry, the `--placement` values, the energy
//! policy registry), one line each, where it always stood among the lists:
//! strategies first, placements and energy policies after the axes.

use crate::policy::energy::ENERGY_POLICIES;
use crate::policy::{Placement, strategy_infos};
use slasim_core::cli::list::{Listing, possible_values};
use slasim_core::cli::subcommand::Place;

/// The single cluster's lists, for the shell's registry of lists.
pub static LISTS: [&'static dyn Listing; 3] = [&STRATEGIES, &PLACEMENTS, &ENERGY_POLICIES_LIST];

/// `slasim list strategies`: the registered scheduling strategies.
pub struct Strategies;

/// `slasim list strategies`: one of [`LISTS`].
pub static STRATEGIES: Strategies = Strategies;

impl Listing for Strategies {
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

    fn rows(&self) -> Vec<(String, String)> {
        strategy_infos().iter().map(|s| (s.name.to_string(), s.description.to_string())).collect()
    }
}

/// `slasim list placements`: the placement policies.
pub struct Placements;

/// `slasim list placements`: one of [`LISTS`].
pub static PLACEMENTS: Placements = Placements;

impl Listing for Placements {
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

    fn rows(&self) -> Vec<(String, String)> {
        possible_values::<Placement>()
    }
}

/// `slasim list energy-policies`: the registered energy policies.
pub struct EnergyPolicies;

/// `slasim list energy-policies`: one of [`LISTS`].
pub static ENERGY_POLICIES_LIST: EnergyPolicies = EnergyPolicies;

impl Listing for EnergyPolicies {
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

    fn rows(&self) -> Vec<(String, String)> {
        ENERGY_POLICIES.all().into_iter().map(|p| (p.name.to_string(), p.description.to_string())).collect()
    }
}
