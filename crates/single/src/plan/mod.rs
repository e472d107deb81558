//! Planning data structures of a planning-based resource manager.
//!
//! Contract: pure data structures with no notion of jobs' outcomes or of time
//! passing: [`profile::AvailabilityProfile`] (free capacity over time, gap
//! search) and [`node_plan::NodePlan`] (each node's reservations, kept per
//! class of nodes with one history, so machine-wide queries cost what the plan
//! holds, not what the machine has), [`machine_plan::MachinePlan`] (each node's
//! bookings in every resource on a machine of unlike nodes, with the
//! [`node_choice`]s registered by name), and [`easy`], the one EASY
//! backfilling rule, by counting nodes or over a profile. Strategies in `policy` build on
//! them.

pub mod easy;
pub mod machine_plan;
pub mod node_choice;
pub mod node_plan;
pub mod profile;

pub use machine_plan::{Cards, Free, MachinePlan, Placement, Slot};
pub use node_choice::{NodeChoice, NodeChoiceInfo, NodeChoices};
pub use node_plan::{NodeBooking, NodeOrder, NodePlan};
pub use profile::{AvailabilityProfile, Gap};
