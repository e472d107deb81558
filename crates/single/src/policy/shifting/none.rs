//! `none`: jobs are not shifted (the default; a point with it is the point
//! without `[shifting]`).

use crate::policy::shifting::{Applies, ShiftingPolicyInfo};

/// Its registration.
pub const NONE: ShiftingPolicyInfo = ShiftingPolicyInfo {
    name: "none",
    description: "jobs are not shifted (the default)",
    reads_threshold: false,
    applies: Applies::Nothing,
};
