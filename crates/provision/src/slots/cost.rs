//! Slot costs: a slot as offered to users `<s, n, d, c, f, b, e>` (§1.2,
//! eq. 2), the cost every advertised slot carries (§2.5), and the cost of a
//! sub-slot of an offered slot by Table 1 (§1.3).
//!
//! Contract: [`sub_slot_cost`] is Table 1 exactly: a sub-slot that breaks one
//! of its restrictions, or is empty, has no cost but a [`SubSlotError`]
//! naming the broken restriction. Validation: §13 item 3.

use slasim_core::units::Time;

/// The per-unit cost `c` of every advertised slot, per processor-second (§2.5).
pub const UNIT_COST: f64 = 1.0;

/// The fixed cost `f` of every advertised slot (§2.5).
pub const FIXED_COST: f64 = 0.0;

/// A slot as offered to users: `<s, n, d, c, f, b, e>` (§1.2, eq 2).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct OfferedSlot {
    /// Start time `s`.
    pub start: Time,
    /// Duration `d`, in seconds; for extensible slots the advertised part only.
    pub duration: Time,
    /// Number of processors `n`.
    pub procs: u32,
    /// Per-unit cost `c`, per processor-second.
    pub c: f64,
    /// Fixed cost `f`.
    pub f: f64,
    /// Divisible flag `b`.
    pub divisible: bool,
    /// Extensible flag `e`.
    pub extensible: bool,
}

/// An advertised slot (§2.5); the same record as an [`OfferedSlot`].
pub type Advertised = OfferedSlot;

impl OfferedSlot {
    /// The advertised end, `s + d`.
    pub fn end(&self) -> Time {
        self.start.saturating_add(self.duration)
    }

    /// The cost of provisioning the whole slot as offered: `n × d × c + f` (§1.1).
    pub fn total_cost(&self) -> f64 {
        f64::from(self.procs) * self.duration as f64 * self.c + self.f
    }
}

/// A requested part `<s_k, n_k, d_k>` of an offered slot (§1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SubSlot {
    /// Start time `s_k`.
    pub start: Time,
    /// Number of processors `n_k`.
    pub procs: u32,
    /// Duration `d_k`, in seconds.
    pub duration: Time,
}

/// A sub-slot that breaks a restriction of Table 1 (§1.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SubSlotError {
    /// The sub-slot has no processors or no duration.
    #[error("empty sub-slot: n_k = {procs}, d_k = {duration} (both must be positive)")]
    Empty {
        /// Requested processors.
        procs: u32,
        /// Requested duration.
        duration: Time,
    },
    /// Non-divisible slot: `n_k = n_i` is required.
    #[error("non-divisible slot: n_k = {requested} must equal n_i = {offered}")]
    ProcsMustEqual {
        /// `n_i`.
        offered: u32,
        /// `n_k`.
        requested: u32,
    },
    /// Divisible slot: `n_k <= n_i` is required.
    #[error("divisible slot: n_k = {requested} must not exceed n_i = {offered}")]
    TooManyProcs {
        /// `n_i`.
        offered: u32,
        /// `n_k`.
        requested: u32,
    },
    /// Non-divisible slot: `s_k = s_i` is required.
    #[error("non-divisible slot: s_k = {requested} must equal s_i = {offered}")]
    StartMustEqual {
        /// `s_i`.
        offered: Time,
        /// `s_k`.
        requested: Time,
    },
    /// Divisible slot: `s_i <= s_k` is required.
    #[error("divisible slot: s_k = {requested} must not precede s_i = {offered}")]
    StartsTooEarly {
        /// `s_i`.
        offered: Time,
        /// `s_k`.
        requested: Time,
    },
    /// Non-divisible, non-extensible slot: `d_k = d_i` is required.
    #[error("non-divisible, non-extensible slot: d_k = {requested} must equal d_i = {offered}")]
    DurationMustEqual {
        /// `d_i`.
        offered: Time,
        /// `d_k`.
        requested: Time,
    },
    /// Non-divisible, extensible slot: `d_k >= d_i` is required.
    #[error("non-divisible, extensible slot: d_k = {requested} must be at least d_i = {offered}")]
    DurationTooShort {
        /// `d_i`.
        offered: Time,
        /// `d_k`.
        requested: Time,
    },
    /// Divisible, non-extensible slot: `s_k + d_k <= s_i + d_i` is required.
    #[error("divisible, non-extensible slot: s_k + d_k = {requested} must not exceed s_i + d_i = {offered}")]
    EndsTooLate {
        /// `s_i + d_i`.
        offered: Time,
        /// `s_k + d_k`.
        requested: Time,
    },
}

/// The cost of provisioning `sub` out of `offered`, by Table 1 (§1.3):
///
/// | b | e | restrictions | cost |
/// |---|---|---|---|
/// | false | false | n_k = n_i, s_k = s_i, d_k = d_i | n_i × d_i × c + f |
/// | false | true | n_k = n_i, s_k = s_i, d_k ≥ d_i | n_i × d_k × c + f |
/// | true | false | n_k ≤ n_i, s_i ≤ s_k, s_k + d_k ≤ s_i + d_i | n_k × d_k × c + f |
/// | true | true | n_k ≤ n_i, s_i ≤ s_k | n_k × d_k × c + f |
///
/// Additionally an empty sub-slot (`n_k = 0` or `d_k <= 0`) is rejected.
pub fn sub_slot_cost(offered: &OfferedSlot, sub: SubSlot) -> Result<f64, SubSlotError> {
    if sub.procs == 0 || sub.duration <= 0 {
        return Err(SubSlotError::Empty { procs: sub.procs, duration: sub.duration });
    }
    let (n_i, s_i, d_i) = (offered.procs, offered.start, offered.duration);
    let (n_k, s_k, d_k) = (sub.procs, sub.start, sub.duration);
    let cost = |n: u32, d: Time| f64::from(n) * d as f64 * offered.c + offered.f;
    if offered.divisible {
        if n_k > n_i {
            return Err(SubSlotError::TooManyProcs { offered: n_i, requested: n_k });
        }
        if s_k < s_i {
            return Err(SubSlotError::StartsTooEarly { offered: s_i, requested: s_k });
        }
        let (end_i, end_k) = (offered.end(), s_k.saturating_add(d_k));
        if !offered.extensible && end_k > end_i {
            return Err(SubSlotError::EndsTooLate { offered: end_i, requested: end_k });
        }
        Ok(cost(n_k, d_k))
    } else {
        if n_k != n_i {
            return Err(SubSlotError::ProcsMustEqual { offered: n_i, requested: n_k });
        }
        if s_k != s_i {
            return Err(SubSlotError::StartMustEqual { offered: s_i, requested: s_k });
        }
        if offered.extensible {
            if d_k < d_i {
                return Err(SubSlotError::DurationTooShort { offered: d_i, requested: d_k });
            }
            Ok(cost(n_i, d_k))
        } else {
            if d_k != d_i {
                return Err(SubSlotError::DurationMustEqual { offered: d_i, requested: d_k });
            }
            Ok(cost(n_i, d_i))
        }
    }
}
