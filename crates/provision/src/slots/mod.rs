//! Free-slot sets and the Figure 2 slot-set scheduler, and what slots cost.
//!
//! Rooms: [`set`] (the set E of free slots of one resource and Figure 2's
//! placement over it, §1.1, §2.3–§2.5, §2.7) and [`cost`] (slots as offered,
//! with their costs, and Table 1's sub-slot costs, §1.2, §1.3).
//! Reference: `provisioning-dissertation-spec.md`.

pub mod cost;
pub mod set;

pub use cost::{Advertised, FIXED_COST, OfferedSlot, SubSlot, SubSlotError, UNIT_COST, sub_slot_cost};
pub use set::{ADVERTISEMENT_MARGIN, ADVERTISEMENT_WINDOW, Conflict, FreeSlot, SlotSet, Taken, advertisement_horizon};
